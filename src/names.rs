//! Table names: `PDB.OWNER.TABLE` in a multitenant database, `OWNER.TABLE` outside one, and the
//! include/exclude patterns that select them.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A fully qualified table name. Unquoted parts are upper-cased as Oracle does; a part in
/// double quotes keeps its case.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TableName {
    pub pdb: Option<String>,
    pub owner: String,
    pub table: String,
}

impl TableName {
    pub fn new(pdb: Option<&str>, owner: &str, table: &str) -> Self {
        TableName {
            pdb: pdb.map(str::to_string),
            owner: owner.to_string(),
            table: table.to_string(),
        }
    }

    /// `"OWNER"."TABLE"` as it appears in SQL and in SQL_REDO.
    pub fn quoted(&self) -> String {
        format!("\"{}\".\"{}\"", self.owner, self.table)
    }

    /// The same table without its PDB part (for matching outside multitenant).
    pub fn owner_table(&self) -> String {
        format!("{}.{}", self.owner, self.table)
    }
}

impl fmt::Display for TableName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.pdb {
            Some(p) => write!(f, "{p}.{}.{}", self.owner, self.table),
            None => write!(f, "{}.{}", self.owner, self.table),
        }
    }
}

/// Split `A.B."c.d"` into identifier parts, upper-casing unquoted ones.
pub fn split_identifiers(text: &str) -> Result<Vec<String>, String> {
    let mut parts = Vec::new();
    let mut chars = text.trim().chars().peekable();
    loop {
        let mut part = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => part.push(c),
                    None => return Err(format!("unterminated quote in `{text}`")),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == '.' {
                    break;
                }
                part.push(c.to_ascii_uppercase());
                chars.next();
            }
        }
        if part.is_empty() {
            return Err(format!("empty name part in `{text}`"));
        }
        parts.push(part);
        match chars.next() {
            None => return Ok(parts),
            Some('.') => continue,
            Some(c) => return Err(format!("unexpected `{c}` after a quoted name in `{text}`")),
        }
    }
}

impl FromStr for TableName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts = split_identifiers(s)?;
        match parts.as_slice() {
            [owner, table] => Ok(TableName::new(None, owner, table)),
            [pdb, owner, table] => Ok(TableName::new(Some(pdb), owner, table)),
            _ => Err(format!(
                "`{s}` is not a table name: expected PDB.OWNER.TABLE or OWNER.TABLE"
            )),
        }
    }
}

impl TryFrom<String> for TableName {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<TableName> for String {
    fn from(t: TableName) -> String {
        t.to_string()
    }
}

/// A set of table patterns (`*` any run of characters, `?` one character), matched
/// case-insensitively against `PDB.OWNER.TABLE` and, for two-part patterns, `OWNER.TABLE`.
#[derive(Debug, Clone)]
pub struct TablePatterns {
    sources: Vec<String>,
    three_part: globset::GlobSet,
    two_part: globset::GlobSet,
}

impl TablePatterns {
    pub fn new(patterns: &[String]) -> Result<Self, String> {
        let mut three = globset::GlobSetBuilder::new();
        let mut two = globset::GlobSetBuilder::new();
        for p in patterns {
            let dots = p.matches('.').count();
            if !(1..=2).contains(&dots) {
                return Err(format!(
                    "`{p}` is not a table pattern: expected PDB.OWNER.TABLE or OWNER.TABLE (with * and ?)"
                ));
            }
            let glob = globset::GlobBuilder::new(p)
                .case_insensitive(true)
                .literal_separator(false)
                .build()
                .map_err(|e| format!("`{p}` is not a valid pattern: {e}"))?;
            if dots == 2 {
                three.add(glob);
            } else {
                two.add(glob);
            }
        }
        Ok(TablePatterns {
            sources: patterns.to_vec(),
            three_part: three.build().map_err(|e| e.to_string())?,
            two_part: two.build().map_err(|e| e.to_string())?,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    pub fn patterns(&self) -> &[String] {
        &self.sources
    }

    pub fn matches(&self, table: &TableName) -> bool {
        (table.pdb.is_some() && self.three_part.is_match(table.to_string()))
            || self.two_part.is_match(table.owner_table())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_two_and_three_part_names() {
        let t: TableName = "pdb1.hr.emp".parse().unwrap();
        assert_eq!(t.to_string(), "PDB1.HR.EMP");
        let t: TableName = "HR.\"Mixed.Case\"".parse().unwrap();
        assert_eq!(t.table, "Mixed.Case");
        assert_eq!(t.quoted(), "\"HR\".\"Mixed.Case\"");
        assert!("EMP".parse::<TableName>().is_err());
        assert!("A.B.C.D".parse::<TableName>().is_err());
        assert!("A..B".parse::<TableName>().is_err());
    }

    #[test]
    fn patterns_match_case_insensitively_with_and_without_pdb() {
        let p = TablePatterns::new(&["PDB1.HR.*".into(), "sales.order?".into()]).unwrap();
        assert!(p.matches(&"PDB1.HR.EMP".parse().unwrap()));
        assert!(!p.matches(&"PDB2.HR.EMP".parse().unwrap()));
        assert!(p.matches(&"PDB2.SALES.ORDERS".parse().unwrap()));
        assert!(p.matches(&"SALES.ORDERS".parse().unwrap()));
        assert!(!p.matches(&"SALES.ORDER_LINES".parse().unwrap()));
        assert!(TablePatterns::new(&["EMP".into()]).is_err());
    }
}
