//! Table names: `PDB.OWNER.TABLE` in a multitenant database, `OWNER.TABLE` outside one, the
//! include/exclude patterns that select them, and the one mapping from a name to a file name.
//!
//! A name's text ([`TableName`]'s `Display`, its serde form, the key of its offsets entries) is
//! canonical: a part that an unquoted identifier would give back as it is (`HR`, `EMP_2`, `A$#`)
//! is written bare, any other in double quotes (`HR."emp"`, `"A.B".C`, `A."B.C"`, `"/tmp/x".T`),
//! so the text parses back to the same name and two names never share a text. Oracle allows any
//! character but `"` and NUL in a quoted identifier ("Database Object Names and Qualifiers",
//! SQL Language Reference); a `"` (never from Oracle) is doubled all the same.

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

    /// The same table without its PDB part, parts joined as they are (`OWNER.TABLE`, for
    /// matching outside multitenant and in database calls; not unambiguous).
    pub fn owner_table(&self) -> String {
        format!("{}.{}", self.owner, self.table)
    }

    /// The parts joined as they are, `PDB.OWNER.TABLE` (pattern matching, Kafka topic names).
    /// Not unambiguous: `A."B.C"` and `"A.B".C` both give `A.B.C`; `Display` keeps them apart.
    pub fn raw(&self) -> String {
        match &self.pdb {
            Some(p) => format!("{p}.{}.{}", self.owner, self.table),
            None => self.owner_table(),
        }
    }

    /// The file-name stem of the table's files (exports, Parquet parts): see [`file_stem`].
    pub fn file_stem(&self) -> String {
        file_stem(self)
    }
}

/// Whether an unquoted identifier gives `part` back unchanged: an ASCII capital letter, then
/// capitals, digits, `_`, `$` and `#`.
fn bare(part: &str) -> bool {
    let mut b = part.bytes();
    b.next().is_some_and(|c| c.is_ascii_uppercase())
        && b.all(|c| {
            c.is_ascii_uppercase() || c.is_ascii_digit() || matches!(c, b'_' | b'$' | b'#')
        })
}

fn write_part(f: &mut fmt::Formatter<'_>, part: &str) -> fmt::Result {
    if bare(part) {
        f.write_str(part)
    } else {
        write!(f, "\"{}\"", part.replace('"', "\"\""))
    }
}

impl fmt::Display for TableName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.pdb {
            write_part(f, p)?;
            f.write_str(".")?;
        }
        write_part(f, &self.owner)?;
        f.write_str(".")?;
        write_part(f, &self.table)
    }
}

/// Longest file-name stem before it is shortened with a hash: file names may have 255 bytes,
/// and the stem gets a suffix (`.00000.parquet`, `.jsonl`) and Parquet's `.NAME.footer`.
const MAX_STEM: usize = 200;

/// Windows device names: a file named so (with any extension) is the device.
const RESERVED: &[&str] = &[
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9", "CONIN$",
    "CONOUT$",
];

/// The one mapping from a table name to a file name (without extension), used for every file
/// named after a table. Parts are joined with `.`; in a part, `A`-`Z`, `0`-`9`, `_`, `$` and
/// `#` stay, every other byte (lower-case letters, `.`, `/`, `\\`, `%`, space, non-ASCII, …)
/// becomes `%XX` (upper-case hex) — escaped, never stripped. So:
/// - it is injective, also on case-insensitive file systems (the result has no lower-case
///   letter, and `%` only starts an escape): `A."B.C"` → `A.B%2EC`, `"A.B".C` → `A%2EB.C`,
///   `HR."emp"` → `HR.%65%6D%70`, apart from `HR.EMP`;
/// - it is safe on every OS: no separator, no `..`, no control character, no leading or trailing
///   dot or space, and a part that is a Windows device name (`CON`, `NUL`, `COM1`…) has its
///   first letter escaped (`%43ON`);
/// - plain names keep their look (`HR.EMP` → `HR.EMP`).
///
/// A stem longer than 200 bytes (Oracle allows 128-byte identifiers) is cut and ends with `~`
/// and a 128-bit hash of the whole name (`~` never appears otherwise); the callers refuse two
/// tables that end up with one stem (CDC-6306) instead of mixing their rows.
pub fn file_stem(t: &TableName) -> String {
    let mut out = String::new();
    let parts = t.pdb.iter().chain([&t.owner, &t.table]);
    for (i, part) in parts.enumerate() {
        if i > 0 {
            out.push('.');
        }
        let reserved = RESERVED.iter().any(|r| r.eq_ignore_ascii_case(part));
        for (j, b) in part.bytes().enumerate() {
            let keep =
                b.is_ascii_uppercase() || b.is_ascii_digit() || matches!(b, b'_' | b'$' | b'#');
            if keep && !(reserved && j == 0) {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        if part.is_empty() {
            // Oracle has no empty identifier; still kept apart from every other part.
            out.push('%');
        }
    }
    if out.len() > MAX_STEM {
        let mut cut = MAX_STEM - 34;
        // Not inside an escape.
        while out.as_bytes()[..cut]
            .iter()
            .rev()
            .take(2)
            .any(|&b| b == b'%')
        {
            cut -= 1;
        }
        out = format!(
            "{}~{:032X}",
            &out[..cut],
            fnv1a_128(t.to_string().as_bytes())
        );
    }
    out
}

/// [`file_stem`] of a table named by its text (an offsets key); a text that is not a table
/// name (an offsets file edited by hand) is escaped whole, as one part.
pub fn key_file_stem(key: &str) -> String {
    match key.parse::<TableName>() {
        Ok(t) => file_stem(&t),
        Err(_) => file_stem(&TableName::new(None, "", key)),
    }
}

/// FNV-1a, 128 bits: stable across builds and platforms (file names must stay the same).
fn fnv1a_128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013B;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u128::from(b)).wrapping_mul(PRIME))
}

/// Split `A.B."c.d"` into identifier parts, upper-casing unquoted ones.
pub fn split_identifiers(text: &str) -> Result<Vec<String>, String> {
    let mut parts = Vec::new();
    let full = text;
    let text = crate::errors::shown(full, 300);
    let text = text.as_str();
    let mut chars = full.trim().chars().peekable();
    loop {
        let mut part = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    // `""` is a `"` in the name (the canonical text doubles it).
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        part.push('"');
                    }
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
                "`{}` is not a table name: expected PDB.OWNER.TABLE or OWNER.TABLE",
                crate::errors::shown(s, 300)
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
    /// Patterns with a quoted part (`A."B.C"`), matched part by part: a name with dots in it
    /// can be told from another that joins to the same text (`"A.B".C`).
    quoted: Vec<Vec<globset::GlobMatcher>>,
    /// Each pattern's PDB part, for [`TablePatterns::pdb_reach`].
    pdb_parts: Vec<PdbPart>,
}

/// How far a set of patterns reaches into one PDB, before its tables are known: a session in
/// CDB$ROOT lists a PDB's tables only after entering it (`ALTER SESSION SET CONTAINER`), which the
/// user may not be allowed to do, so what the patterns say about the PDB alone decides whether it
/// is entered, and what a refusal means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PdbReach {
    /// No pattern can match a table of the PDB.
    None,
    /// Only a wildcard can: a PDB part with glob syntax (`PDB*`, `*`), or a two-part pattern
    /// (`OWNER.TABLE`, any PDB).
    Wildcard,
    /// A pattern names the PDB itself (its PDB part has no glob syntax).
    Named,
}

/// What a pattern's PDB part selects.
#[derive(Debug, Clone)]
enum PdbPart {
    /// A two-part pattern: its table in any PDB.
    Any,
    /// A name as it is: unquoted (matched case-insensitively, as the glob would) or quoted
    /// (case kept, `*` and `?` literal).
    Name { name: String, quoted: bool },
    /// An unquoted part with glob syntax, case-insensitive.
    Glob(globset::GlobMatcher),
}

/// Glob syntax in an unquoted part: `*`, `?`, and globset's classes, alternatives and escapes.
const GLOB_SYNTAX: [char; 7] = ['*', '?', '[', ']', '{', '}', '\\'];

/// The PDB part of pattern `p` of `parts` parts (2 or 3; quotes as [`quoted_parts`] reads them).
fn pdb_part(p: &str, parts: usize) -> Result<PdbPart, String> {
    if parts != 3 {
        return Ok(PdbPart::Any);
    }
    let (mut name, mut quoted, mut in_quotes) = (String::new(), false, false);
    for c in p.chars() {
        match c {
            '"' => {
                in_quotes = !in_quotes;
                quoted = true;
            }
            '.' if !in_quotes => break,
            c => name.push(c),
        }
    }
    if quoted || !name.contains(GLOB_SYNTAX) {
        return Ok(PdbPart::Name { name, quoted });
    }
    let glob = globset::GlobBuilder::new(&name)
        .case_insensitive(true)
        .literal_separator(false)
        .build()
        .map_err(|e| format!("`{p}` is not a valid pattern: {e}"))?;
    Ok(PdbPart::Glob(glob.compile_matcher()))
}

/// The parts of a pattern with quoted parts: a quoted part is the name as written (case kept,
/// `*` and `?` literal), an unquoted one a case-insensitive glob.
fn quoted_parts(p: &str) -> Result<Vec<globset::GlobMatcher>, String> {
    let mut parts = Vec::new();
    let (mut part, mut quoted, mut in_quotes) = (String::new(), false, false);
    let mut finish = |part: &mut String, quoted: bool| -> Result<(), String> {
        let text = match quoted {
            true => globset::escape(part),
            false => part.clone(),
        };
        if part.is_empty() {
            return Err(format!("`{p}` has an empty part"));
        }
        let glob = globset::GlobBuilder::new(&text)
            .case_insensitive(!quoted)
            .literal_separator(false)
            .build()
            .map_err(|e| format!("`{p}` is not a valid pattern: {e}"))?;
        parts.push(glob.compile_matcher());
        part.clear();
        Ok(())
    };
    for c in p.chars() {
        match c {
            '"' => {
                in_quotes = !in_quotes;
                quoted = true;
            }
            '.' if !in_quotes => {
                finish(&mut part, quoted)?;
                quoted = false;
            }
            c => part.push(c),
        }
    }
    if in_quotes {
        return Err(format!("`{p}` has an unclosed quote"));
    }
    finish(&mut part, quoted)?;
    if !(2..=3).contains(&parts.len()) {
        return Err(format!(
            "`{p}` is not a table pattern: expected PDB.OWNER.TABLE or OWNER.TABLE (with * and ?)"
        ));
    }
    Ok(parts)
}

impl TablePatterns {
    pub fn new(patterns: &[String]) -> Result<Self, String> {
        let mut three = globset::GlobSetBuilder::new();
        let mut two = globset::GlobSetBuilder::new();
        let mut quoted = Vec::new();
        let mut pdb_parts = Vec::new();
        for p in patterns {
            if p.contains('"') {
                let parts = quoted_parts(p)?;
                pdb_parts.push(pdb_part(p, parts.len())?);
                quoted.push(parts);
                continue;
            }
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
            pdb_parts.push(pdb_part(p, dots + 1)?);
        }
        Ok(TablePatterns {
            sources: patterns.to_vec(),
            three_part: three.build().map_err(|e| e.to_string())?,
            two_part: two.build().map_err(|e| e.to_string())?,
            quoted,
            pdb_parts,
        })
    }

    /// How far the patterns reach into PDB `pdb` (a name as V$PDBS gives it): the furthest any
    /// one pattern does. An empty set reaches no PDB (the caller decides what no patterns mean).
    /// A pattern whose PDB part is a glob is a wildcard here even when its other parts could
    /// match no table of the PDB: that is only known inside it.
    pub fn pdb_reach(&self, pdb: &str) -> PdbReach {
        self.pdb_parts
            .iter()
            .map(|part| match part {
                PdbPart::Any => PdbReach::Wildcard,
                PdbPart::Name { name, quoted: true } if name == pdb => PdbReach::Named,
                PdbPart::Name {
                    name,
                    quoted: false,
                } if name.eq_ignore_ascii_case(pdb) => PdbReach::Named,
                PdbPart::Glob(g) if g.is_match(pdb) => PdbReach::Wildcard,
                _ => PdbReach::None,
            })
            .max()
            .unwrap_or(PdbReach::None)
    }

    /// The PDBs the patterns name (PDB parts without glob syntax), as written (an unquoted
    /// one in the case it was typed), in pattern order, once each.
    pub fn named_pdbs(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for part in &self.pdb_parts {
            if let PdbPart::Name { name, .. } = part {
                if !out.contains(&name.as_str()) {
                    out.push(name);
                }
            }
        }
        out
    }

    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    pub fn patterns(&self) -> &[String] {
        &self.sources
    }

    pub fn matches(&self, table: &TableName) -> bool {
        (table.pdb.is_some() && self.three_part.is_match(table.raw()))
            || self.two_part.is_match(table.owner_table())
            || self.quoted.iter().any(|parts| match parts.as_slice() {
                [pdb, owner, name] => {
                    table.pdb.as_deref().is_some_and(|p| pdb.is_match(p))
                        && owner.is_match(&table.owner)
                        && name.is_match(&table.table)
                }
                [owner, name] => owner.is_match(&table.owner) && name.is_match(&table.table),
                _ => false,
            })
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod pattern_tests {
    use super::*;

    #[test]
    fn parses_two_and_three_part_names() {
        let t: TableName = "pdb1.hr.emp".parse().unwrap();
        assert_eq!(t.to_string(), "PDB1.HR.EMP");
        let t: TableName = "HR.\"Mixed.Case\"".parse().unwrap();
        assert_eq!(t.table, "Mixed.Case");
        assert_eq!(t.quoted(), "\"HR\".\"Mixed.Case\"");
        assert_eq!(t.to_string(), "HR.\"Mixed.Case\"");
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

    #[test]
    fn quoted_parts_tell_names_with_dots_apart() {
        let p = TablePatterns::new(&["\"A.B\".C".into()]).unwrap();
        assert!(p.matches(&"\"A.B\".C".parse().unwrap()));
        assert!(!p.matches(&"A.\"B.C\"".parse().unwrap()));
        // Quoted: the name as written, case kept, `*` literal; unquoted parts stay globs.
        let p = TablePatterns::new(&["pdb?.HR.\"emp\"".into()]).unwrap();
        assert!(p.matches(&"PDB1.HR.\"emp\"".parse().unwrap()));
        assert!(!p.matches(&"PDB1.HR.EMP".parse().unwrap()));
        let p = TablePatterns::new(&["HR.\"E*\"".into()]).unwrap();
        assert!(!p.matches(&"HR.EMP".parse().unwrap()));
        assert!(TablePatterns::new(&["HR.\"EMP".into()]).is_err());
        assert!(TablePatterns::new(&["\"A\"".into()]).is_err());
        assert!(TablePatterns::new(&["A..\"B\"".into()]).is_err());
    }

    #[test]
    fn a_pdb_is_reached_by_name_by_a_wildcard_or_not_at_all() {
        let reach = |patterns: &[&str], pdb: &str| {
            let list: Vec<String> = patterns.iter().map(|p| p.to_string()).collect();
            TablePatterns::new(&list).unwrap().pdb_reach(pdb)
        };
        assert_eq!(reach(&["pdb1.HR.*"], "PDB1"), PdbReach::Named);
        assert_eq!(reach(&["PDB1.HR.*"], "PDB2"), PdbReach::None);
        assert_eq!(reach(&["PDB?.HR.*"], "PDB2"), PdbReach::Wildcard);
        assert_eq!(reach(&["*.HR.*"], "ANY"), PdbReach::Wildcard);
        assert_eq!(reach(&["PDB[13].HR.*"], "PDB2"), PdbReach::None);
        assert_eq!(reach(&["PDB[13].HR.*"], "PDB3"), PdbReach::Wildcard);
        assert_eq!(reach(&["{PDB1,SALES}.HR.*"], "SALES"), PdbReach::Wildcard);
        // A two-part pattern is a table of any PDB.
        assert_eq!(reach(&["HR.EMP"], "PDB2"), PdbReach::Wildcard);
        // The furthest reach of any pattern.
        assert_eq!(reach(&["*.HR.*", "PDB2.SALES.T"], "PDB2"), PdbReach::Named);
        assert_eq!(reach(&[], "PDB1"), PdbReach::None);
        // Quoted: the name as written, case kept and `*` literal, as `matches` takes it.
        assert_eq!(reach(&["\"PDB1\".HR.*"], "PDB1"), PdbReach::Named);
        assert_eq!(reach(&["\"pdb1\".HR.*"], "PDB1"), PdbReach::None);
        assert_eq!(reach(&["\"P*\".HR.*"], "PDB1"), PdbReach::None);
        assert_eq!(reach(&["P*.\"A.B\".T"], "PDB1"), PdbReach::Wildcard);
        assert_eq!(reach(&["HR.\"E.F\""], "PDB1"), PdbReach::Wildcard);
    }

    #[test]
    fn named_pdbs_are_the_pdb_parts_without_glob_syntax() {
        let p = TablePatterns::new(&[
            "pdb1.HR.*".into(),
            "PDB*.X.Y".into(),
            "HR.T".into(),
            "\"Pdb2\".A.B".into(),
            "pdb1.SALES.T".into(),
            "P[12].A.B".into(),
        ])
        .unwrap();
        assert_eq!(p.named_pdbs(), ["pdb1", "Pdb2"]);
    }
}
