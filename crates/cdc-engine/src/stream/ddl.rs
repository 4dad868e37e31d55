//! The column layout after a DDL statement, read from the statement itself: LogMiner's online
//! catalog only knows today's dictionary, so the schema history is rebuilt from the DDL rows.

use crate::names::split_identifiers;
use crate::types::ColumnType;
use cdc_core::model::ColumnInfo;

/// Apply `ALTER TABLE … ADD (…)` / `ADD col type` / `DROP COLUMN col` / `DROP (c1, c2)` /
/// `RENAME COLUMN a TO b` to `columns`. `None` when the statement is not one of these (the
/// caller then falls back to the dictionary). `extended`: the database's MAX_STRING_SIZE is
/// EXTENDED, which sizes a character-semantics column (`VARCHAR2(1500 CHAR)`: 6,000 bytes,
/// else 4,000; AL32UTF8 assumed, see [`ColumnType::parse_sized`]).
pub fn apply(columns: &[ColumnInfo], sql: &str, extended: bool) -> Option<Vec<ColumnInfo>> {
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
                out.push(column_def(def, extended)?);
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

/// The columns of `CREATE TABLE name (column type [DEFAULT …] [NOT NULL], …[, constraints])`
/// read from the statement. The dictionary is no substitute: capture may read it long after the
/// CREATE, when it already shows columns added since, which the table's earlier changes do not
/// have. `None` for any other form (AS SELECT, object and XMLType tables, virtual columns, a type
/// the parser does not know): the caller then falls back to the dictionary. `extended` as for
/// [`apply`].
pub fn create_table(sql: &str, extended: bool) -> Option<Vec<ColumnInfo>> {
    let text = sql.trim().trim_end_matches(';').trim();
    let head = text.get(..12)?;
    if !head.eq_ignore_ascii_case("CREATE TABLE") {
        return None;
    }
    let rest = skip_name(text[12..].trim_start())?.trim_start();
    if !rest.starts_with('(') {
        return None;
    }
    let mut depth = 0i32;
    let close = rest.char_indices().find_map(|(i, c)| {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        (depth == 0).then_some(i)
    })?;
    let after = rest[close + 1..].to_ascii_uppercase();
    if after.split_whitespace().any(|w| w == "AS") {
        return None;
    }
    let mut out = Vec::new();
    for item in list(&rest[..=close]) {
        let (first, _) = split_word(item.trim())?;
        let constraint = !first.starts_with('"')
            && matches!(
                first.to_ascii_uppercase().as_str(),
                "CONSTRAINT" | "PRIMARY" | "UNIQUE" | "FOREIGN" | "CHECK" | "SUPPLEMENTAL"
            );
        if !constraint {
            out.push(column_def(item, extended)?);
        }
    }
    (!out.is_empty()).then_some(out)
}

/// `name type [DEFAULT …] [NOT NULL] [inline constraint]` (a virtual column is `None`).
fn column_def(def: &str, extended: bool) -> Option<ColumnInfo> {
    let (name, ty) = split_word(def.trim())?;
    let name = ident(name)?;
    let upper = format!("{} ", ty.trim().to_ascii_uppercase());
    if upper.contains(" AS (") || upper.starts_with("AS ") || upper.contains("GENERATED ") {
        return None;
    }
    let not_null = upper.contains(" NOT NULL ");
    let end = [
        " DEFAULT ",
        " NOT NULL ",
        " NULL ",
        " CONSTRAINT ",
        " PRIMARY KEY",
        " UNIQUE ",
        " REFERENCES ",
        " CHECK ",
        " INVISIBLE ",
        " VISIBLE ",
    ]
    .iter()
    .filter_map(|k| upper.find(k))
    .min()
    .unwrap_or(upper.len());
    let data_type = ColumnType::parse_sized(upper[..end].trim(), extended).ok()?;
    Some(ColumnInfo {
        name,
        data_type,
        nullable: !not_null,
        virtual_column: false,
        hidden: false,
    })
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

/// `(a NUMBER(5), b VARCHAR2(3))` or `a NUMBER(5)` → the items, split on top-level commas
/// outside quotes.
fn list(text: &str) -> Vec<&str> {
    let t = text.trim();
    let inner = if t.starts_with('(') && t.ends_with(')') {
        &t[1..t.len() - 1]
    } else {
        t
    };
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    // Inside a quoted identifier or a string literal (a DEFAULT), a comma splits nothing.
    let mut quote: Option<char> = None;
    for (i, c) in inner.char_indices() {
        match c {
            '"' | '\'' if quote == Some(c) => quote = None,
            '"' | '\'' if quote.is_none() => quote = Some(c),
            _ if quote.is_some() => {}
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
                data_type: ColumnType::varchar2(5),
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
        let added = apply(
            &base,
            "ALTER TABLE \"HR\".\"EMP\" ADD (EXTRA NUMBER(5,0))",
            false,
        )
        .unwrap();
        assert_eq!(names(&added), ["ID", "NAME", "EXTRA"]);
        assert_eq!(
            added[2].data_type,
            ColumnType::parse("NUMBER(5,0)").unwrap()
        );
        let two = apply(
            &base,
            "alter table hr.emp add (a varchar2(3) not null, \"b c\" date default sysdate);",
            false,
        )
        .unwrap();
        assert_eq!(names(&two), ["ID", "NAME", "A", "b c"]);
        assert!(!two[2].nullable);
        assert_eq!(
            names(
                &apply(
                    &added,
                    "alter table \"HR\".\"EMP\" drop column EXTRA",
                    false
                )
                .unwrap()
            ),
            ["ID", "NAME"]
        );
        assert_eq!(
            names(&apply(&added, "ALTER TABLE HR.EMP DROP (NAME, EXTRA)", false).unwrap()),
            ["ID"]
        );
        assert_eq!(
            names(
                &apply(
                    &base,
                    "ALTER TABLE HR.EMP RENAME COLUMN NAME TO FULL_NAME",
                    false
                )
                .unwrap()
            ),
            ["ID", "FULL_NAME"]
        );
        assert!(apply(&base, "CREATE INDEX I ON HR.EMP(NAME)", false).is_none());
        assert!(apply(&base, "ALTER TABLE HR.EMP ADD (V AS (ID + 1))", false).is_none());
        assert!(apply(&base, "ALTER TABLE HR.EMP MOVE", false).is_none());
    }

    /// A character-semantics column is sized by the database's MAX_STRING_SIZE: 1,500
    /// characters are 6,000 bytes, an extended string, where strings are extended.
    #[test]
    fn char_semantics_columns_are_sized_for_the_database() {
        let sql = "alter table hr.emp add (note varchar2(1500 char), code char(2 char))";
        let std = apply(&[], sql, false).unwrap();
        let ext = apply(&[], sql, true).unwrap();
        assert_eq!(
            std[0].data_type,
            ColumnType::Varchar2 {
                length: 4000,
                chars: Some(1500)
            }
        );
        assert!(!std[0].data_type.is_extended());
        assert_eq!(
            ext[0].data_type,
            ColumnType::Varchar2 {
                length: 6000,
                chars: Some(1500)
            }
        );
        assert!(ext[0].data_type.is_extended());
        assert_eq!(std[1].data_type.sql_name(), "CHAR(2 CHAR)");
    }

    #[test]
    fn create_table_columns_come_from_the_statement() {
        let c = create_table(
            "create table \"SHOP\".\"T\" (\"ID\" NUMBER(10) NOT NULL, \"NOTE\" VARCHAR2(100), \
             at timestamp(6) default systimestamp not null, \"Odd, name\" NUMBER(12,2), \
             CONSTRAINT t_pk PRIMARY KEY (\"ID\"), UNIQUE (NOTE)) TABLESPACE USERS;",
            false,
        )
        .unwrap();
        assert_eq!(names(&c), ["ID", "NOTE", "AT", "Odd, name"]);
        assert_eq!(
            c.iter().map(|c| c.nullable).collect::<Vec<_>>(),
            [false, true, false, true]
        );
        assert_eq!(c[2].data_type, ColumnType::parse("TIMESTAMP(6)").unwrap());
        assert_eq!(
            names(
                &create_table(
                    "CREATE TABLE T (ID NUMBER PRIMARY KEY, N VARCHAR2(5))",
                    false
                )
                .unwrap()
            ),
            ["ID", "N"]
        );
        // Forms read from the dictionary instead.
        for sql in [
            "create table t as select * from u",
            "create table t (a, b) as select 1, 2 from dual",
            "create table t (a number, v as (a + 1))",
            "create table t of person_typ",
            "create index i on t (a)",
        ] {
            assert!(create_table(sql, false).is_none(), "{sql}");
        }
    }
}
