//! The column layout after a DDL statement, read from the statement itself: LogMiner's online
//! catalog only knows today's dictionary, so the schema history is rebuilt from the DDL rows.

use crate::names::split_identifiers;
use crate::source::model::ColumnInfo;
use crate::types::ColumnType;

/// Apply `ALTER TABLE … ADD (…)` / `ADD col type` / `DROP COLUMN col` / `DROP (c1, c2)` /
/// `RENAME COLUMN a TO b` to `columns`. `None` when the statement is not one of these (the
/// caller then falls back to the dictionary).
pub fn apply(columns: &[ColumnInfo], sql: &str) -> Option<Vec<ColumnInfo>> {
    let text = sql.trim().trim_end_matches(';').trim();
    let upper = text.to_ascii_uppercase();
    if !upper.starts_with("ALTER TABLE") {
        return None;
    }
    // Skip `ALTER TABLE <name>`.
    let rest = skip_name(text["ALTER TABLE".len()..].trim_start())?;
    let (verb, args) = split_word(rest)?;
    match verb.to_ascii_uppercase().as_str() {
        "ADD" => {
            let mut out = columns.to_vec();
            for def in list(args) {
                let (name, ty) = split_word(def.trim())?;
                let name = ident(name)?;
                let ty_text = ty.trim();
                let (ty_text, not_null) = match ty_text.to_ascii_uppercase().find(" NOT NULL") {
                    Some(i) => (&ty_text[..i], true),
                    None => (ty_text, false),
                };
                let ty_text = ty_text.to_ascii_uppercase();
                let ty_text = ty_text.split(" DEFAULT ").next().unwrap_or("");
                let data_type = ColumnType::parse(ty_text).ok()?;
                out.push(ColumnInfo {
                    name,
                    data_type,
                    nullable: !not_null,
                    virtual_column: false,
                    hidden: false,
                });
            }
            Some(out)
        }
        "DROP" => {
            let (first, more) = split_word(args)?;
            let names: Vec<String> = if first.eq_ignore_ascii_case("COLUMN") {
                vec![ident(
                    split_word(more).map(|(n, _)| n).unwrap_or(more.trim()),
                )?]
            } else {
                list(args)
                    .into_iter()
                    .map(|n| ident(n.trim()))
                    .collect::<Option<_>>()?
            };
            Some(
                columns
                    .iter()
                    .filter(|c| !names.contains(&c.name))
                    .cloned()
                    .collect(),
            )
        }
        "RENAME" => {
            let (kw, more) = split_word(args)?;
            if !kw.eq_ignore_ascii_case("COLUMN") {
                return None;
            }
            let (from, more) = split_word(more)?;
            let (to_kw, to) = split_word(more)?;
            if !to_kw.eq_ignore_ascii_case("TO") {
                return None;
            }
            let (from, to) = (ident(from)?, ident(to.trim())?);
            Some(
                columns
                    .iter()
                    .map(|c| {
                        if c.name == from {
                            ColumnInfo {
                                name: to.clone(),
                                ..c.clone()
                            }
                        } else {
                            c.clone()
                        }
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

fn ident(text: &str) -> Option<String> {
    let mut parts = split_identifiers(text.trim()).ok()?;
    (parts.len() == 1).then(|| parts.remove(0))
}

/// The first whitespace-separated word (a quoted identifier counts as one) and the rest.
fn split_word(text: &str) -> Option<(&str, &str)> {
    let t = text.trim_start();
    if t.is_empty() {
        return None;
    }
    let end = if let Some(stripped) = t.strip_prefix('"') {
        stripped.find('"').map(|i| i + 2)?
    } else {
        t.find(|c: char| c.is_whitespace() || c == '(')
            .unwrap_or(t.len())
    };
    let end = end.max(1).min(t.len());
    Some((&t[..end], &t[end..]))
}

/// Skip a (possibly qualified, possibly quoted) table name.
fn skip_name(text: &str) -> Option<&str> {
    let mut t = text;
    loop {
        let (_, rest) = split_word_ident(t)?;
        if let Some(r) = rest.strip_prefix('.') {
            t = r;
        } else {
            return Some(rest.trim_start());
        }
    }
}

fn split_word_ident(t: &str) -> Option<(&str, &str)> {
    if let Some(stripped) = t.strip_prefix('"') {
        let i = stripped.find('"')?;
        return Some((&t[..i + 2], &t[i + 2..]));
    }
    let end = t
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '#'))
        .unwrap_or(t.len());
    (end > 0).then(|| (&t[..end], &t[end..]))
}

/// `(a NUMBER(5), b VARCHAR2(3))` or `a NUMBER(5)` → the items, split on top-level commas.
fn list(text: &str) -> Vec<&str> {
    let t = text.trim();
    let inner = if t.starts_with('(') && t.ends_with(')') {
        &t[1..t.len() - 1]
    } else {
        t
    };
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&inner[start..]);
    out.into_iter().filter(|s| !s.trim().is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(names: &[&str]) -> Vec<ColumnInfo> {
        names
            .iter()
            .map(|n| ColumnInfo {
                name: n.to_string(),
                data_type: ColumnType::Varchar2 { length: 5 },
                nullable: true,
                virtual_column: false,
                hidden: false,
            })
            .collect()
    }

    fn names(c: &[ColumnInfo]) -> Vec<&str> {
        c.iter().map(|c| c.name.as_str()).collect()
    }

    #[test]
    fn add_drop_and_rename_columns() {
        let base = cols(&["ID", "NAME"]);
        let added = apply(&base, "ALTER TABLE \"HR\".\"EMP\" ADD (EXTRA NUMBER(5,0))").unwrap();
        assert_eq!(names(&added), ["ID", "NAME", "EXTRA"]);
        assert_eq!(
            added[2].data_type,
            ColumnType::parse("NUMBER(5,0)").unwrap()
        );
        let two = apply(
            &base,
            "alter table hr.emp add (a varchar2(3) not null, \"b c\" date default sysdate);",
        )
        .unwrap();
        assert_eq!(names(&two), ["ID", "NAME", "A", "b c"]);
        assert!(!two[2].nullable);
        assert_eq!(
            names(&apply(&added, "alter table \"HR\".\"EMP\" drop column EXTRA").unwrap()),
            ["ID", "NAME"]
        );
        assert_eq!(
            names(&apply(&added, "ALTER TABLE HR.EMP DROP (NAME, EXTRA)").unwrap()),
            ["ID"]
        );
        assert_eq!(
            names(&apply(&base, "ALTER TABLE HR.EMP RENAME COLUMN NAME TO FULL_NAME").unwrap()),
            ["ID", "FULL_NAME"]
        );
        assert!(apply(&base, "CREATE INDEX I ON HR.EMP(NAME)").is_none());
        assert!(apply(&base, "ALTER TABLE HR.EMP MOVE").is_none());
    }
}
