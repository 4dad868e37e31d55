//! Statements LogMiner writes wrong, read where the table's columns make the reading certain:
//!
//! - String values with their quotes not doubled (Debezium DBZ-8034, DBZ-8200; seen with
//!   `MAX_STRING_SIZE=EXTENDED`): the strict parser fails, [`reread`] tries every reading of the
//!   quotes ([`super::parse::relaxed`]) and keeps the one whose columns and values fit the
//!   table (names, types, declared lengths); none or several: CDC-3002 or CDC-3020, never a
//!   guess.
//! - After a dictionary mismatch (Oracle Utilities, "DDL_DICT_TRACKING and Supplemental Logging
//!   Settings": STATUS 2, INFO 'Dictionary Mismatch'; Debezium's hybrid strategy and
//!   `LogMinerColumnResolverDmlParser`) LogMiner names the columns `"COL 1"`, `"COL 2"`, … by
//!   their position among the table's columns, virtual (generated) columns not counted
//!   (DBZ-8597), and writes every value as `HEXTORAW` of its storage bytes. [`named`] maps the
//!   positions onto the columns the schema history has at the change's SCN and reads the bytes
//!   by their type; a position past the table's columns, an INSERT of another column count, a
//!   type whose storage bytes cannot be read, or a STATUS 2 row without a statement
//!   (`Dictionary Version Mismatch`) is CDC-3021, which names the dictionary to mine with.

use super::decode::TableSchema;
use super::parse::{parse_dml_relaxed, to_value_in, Dml, DmlKind, Literal, ParseError, Relaxed};
use crate::charset::Charsets;
use crate::errors::{CdcError, Result};
use crate::types::ColumnType;
use cdc_core::model::{ColumnInfo, LogMinerRow};

/// V$LOGMNR_CONTENTS.STATUS of a row whose SQL_REDO is not valid SQL.
pub const STATUS_INVALID: i32 = 2;

/// How a statement LogMiner wrote wrong was read (each is a `redo-recovered` ops event and a
/// count in `oracle_cdc_stream_recovered_changes_total`: never silent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RecoveryKind {
    /// Undoubled quotes: the one reading that fits the table's columns.
    UnescapedQuotes,
    /// `COL n` names (dictionary mismatch): by position among the table's stored columns.
    ColumnPositions,
}

impl RecoveryKind {
    pub fn name(self) -> &'static str {
        match self {
            RecoveryKind::UnescapedQuotes => "unescaped-quotes",
            RecoveryKind::ColumnPositions => "column-positions",
        }
    }
}

/// A change read by one of the recoveries here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovery {
    pub kind: RecoveryKind,
    pub table: crate::names::TableName,
    pub scn: u64,
    pub xid: String,
}

/// The column a statement's name stands for: itself, or `COL n` by position.
fn column<'c>(cols: &'c [ColumnInfo], name: &str) -> Option<&'c ColumnInfo> {
    if let Some(c) = cols.iter().find(|c| c.name == name) {
        return Some(c);
    }
    let n: usize = name.strip_prefix("COL ")?.parse().ok()?;
    stored(cols).nth(n.checked_sub(1)?)
}

/// The columns the redo stores, in order: all but virtual ones.
fn stored(cols: &[ColumnInfo]) -> impl Iterator<Item = &ColumnInfo> {
    cols.iter().filter(|c| !c.virtual_column)
}

fn is_col_n(name: &str) -> bool {
    name.strip_prefix("COL ")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `text` fits a character column's length in characters: the declared characters of
/// a character-semantics column, else its bytes (a limit any value keeps, whatever the
/// database character set: its bytes there are not the text's UTF-8 bytes).
fn fits_length(ty: &ColumnType, text: &str) -> bool {
    ty.max_chars()
        .is_none_or(|max| text.chars().count() <= max as usize)
}

/// Whether a reading of a statement fits the table: every column it names is one of the
/// table's (once per clause) and every value is valid for its column.
fn fits(t: &TableSchema, cols: &[ColumnInfo], d: &Dml, charsets: Charsets) -> bool {
    let clause = |items: &[(String, Literal)]| {
        items.iter().enumerate().all(|(i, (name, lit))| {
            if items[..i].iter().any(|(n, _)| n == name) {
                return false;
            }
            if t.excluded.contains(name) {
                return true;
            }
            let Some(c) = column(cols, name) else {
                return false;
            };
            match lit {
                Literal::Unsupported => true,
                Literal::Str(s) | Literal::Unistr(s) if !fits_length(&c.data_type, s) => false,
                lit => to_value_in(lit, &c.data_type, charsets).is_ok(),
            }
        })
    };
    clause(&d.new) && clause(&d.old)
}

/// A statement the strict parser refused (`e`): a dictionary mismatch without a statement is
/// CDC-3021; otherwise the one reading of its quotes that fits the table, or CDC-3020 when
/// several do, or the parse error (CDC-3002) when none does.
pub(super) fn reread(
    row: &LogMinerRow,
    t: &TableSchema,
    cols: &[ColumnInfo],
    xid: &str,
    e: ParseError,
    recovered: &mut Vec<Recovery>,
    charsets: Charsets,
) -> Result<Dml> {
    if row.status == STATUS_INVALID {
        return Err(mismatch(
            row,
            t,
            xid,
            format!("SQL_REDO is not a statement (`{}`)", excerpt(&row.sql_redo)),
        ));
    }
    if !row.sql_redo.contains('\'') {
        return Err(super::decode::redo_error(row, t, xid, e.to_string()));
    }
    let is_column = |n: &str| column(cols, n).is_some();
    match parse_dml_relaxed(
        &row.sql_redo,
        &mut |d| fits(t, cols, d, charsets),
        &is_column,
    ) {
        Relaxed::One(d) => {
            tracing::warn!(
                "{} at SCN {} (XID {xid}): LogMiner wrote a string value with its quotes not doubled; read the one way that fits the table's columns",
                t.name,
                row.scn
            );
            recovered.push(Recovery {
                kind: RecoveryKind::UnescapedQuotes,
                table: t.name.clone(),
                scn: row.scn,
                xid: xid.to_string(),
            });
            Ok(d)
        }
        Relaxed::Many(n) => Err(ambiguous(row, t, xid, format!("{n} ways"))),
        Relaxed::TooMany => Err(ambiguous(
            row,
            t,
            xid,
            format!(
                "more ways than are tried ({})",
                super::parse::relaxed::MAX_READINGS
            ),
        )),
        Relaxed::None => Err(super::decode::redo_error(row, t, xid, e.to_string())),
    }
}

/// `COL n` names (a dictionary mismatch) mapped onto the table's columns at the change's SCN;
/// a statement naming its columns is returned as it is.
pub(super) fn named(
    dml: Dml,
    row: &LogMinerRow,
    t: &TableSchema,
    cols: &[ColumnInfo],
    xid: &str,
    recovered: &mut Vec<Recovery>,
    charsets: Charsets,
) -> Result<Dml> {
    let positional = |items: &[(String, Literal)]| {
        items
            .iter()
            .any(|(n, _)| is_col_n(n) && !cols.iter().any(|c| &c.name == n))
    };
    if !positional(&dml.new) && !positional(&dml.old) {
        return Ok(dml);
    }
    let count = stored(cols).count();
    if dml.kind == DmlKind::Insert && dml.new.len() != count {
        return Err(mismatch(
            row,
            t,
            xid,
            format!(
                "the INSERT stores {} columns, the table had {count} at this SCN",
                dml.new.len()
            ),
        ));
    }
    let map = |items: Vec<(String, Literal)>| -> Result<Vec<(String, Literal)>> {
        items
            .into_iter()
            .map(|(name, lit)| {
                let Some(c) = column(cols, &name) else {
                    return Err(mismatch(
                        row,
                        t,
                        xid,
                        format!("{name} is past the table's {count} columns at this SCN"),
                    ));
                };
                if !matches!(lit, Literal::Unsupported) {
                    if let Err(why) = to_value_in(&lit, &c.data_type, charsets) {
                        return Err(mismatch(
                            row,
                            t,
                            xid,
                            format!(
                                "{name} is column {} ({}), and its value cannot be read as one: {why}",
                                c.name,
                                c.data_type.sql_name()
                            ),
                        ));
                    }
                }
                Ok((c.name.clone(), lit))
            })
            .collect()
    };
    let dml = Dml {
        new: map(dml.new)?,
        old: map(dml.old)?,
        ..dml
    };
    tracing::warn!(
        "{} at SCN {} (XID {xid}): LogMiner's dictionary did not match (COL n names); read by column position",
        t.name,
        row.scn
    );
    recovered.push(Recovery {
        kind: RecoveryKind::ColumnPositions,
        table: t.name.clone(),
        scn: row.scn,
        xid: xid.to_string(),
    });
    Ok(dml)
}

fn ambiguous(row: &LogMinerRow, t: &TableSchema, xid: &str, readings: String) -> CdcError {
    CdcError::AmbiguousQuotes {
        scn: row.scn,
        xid: xid.to_string(),
        table: t.name.to_string(),
        readings,
        excerpt: excerpt(&row.sql_redo),
    }
}

fn mismatch(row: &LogMinerRow, t: &TableSchema, xid: &str, reason: String) -> CdcError {
    CdcError::DictionaryMismatch {
        scn: row.scn,
        xid: xid.to_string(),
        table: t.name.to_string(),
        status: row.status,
        info: row.info.clone().unwrap_or_default(),
        reason,
    }
}

/// The statement's first 120 characters, for a message.
fn excerpt(sql: &str) -> String {
    match sql.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &sql[..i]),
        None => sql.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::Code;
    use crate::names::TableName;
    use crate::stream::buffer::{Committed, TxRows};
    use crate::stream::decode::{decode, Catalog, Event};
    use crate::types::Value;
    use cdc_core::model::op;

    fn col(name: &str, data_type: ColumnType, virtual_column: bool) -> ColumnInfo {
        ColumnInfo {
            name: name.into(),
            data_type,
            nullable: true,
            virtual_column,
            hidden: false,
        }
    }

    /// O.T (ID NUMBER, V virtual, NAME VARCHAR2(40), CODE VARCHAR2(3), NOTE VARCHAR2(40)).
    fn catalog() -> Catalog {
        let name = TableName::new(None, "O", "T");
        let number = ColumnType::Number {
            precision: None,
            scale: None,
        };
        let cols = vec![
            col("ID", number.clone(), false),
            col("V", number, true),
            col("NAME", ColumnType::varchar2(40), false),
            col("CODE", ColumnType::varchar2(3), false),
            col("NOTE", ColumnType::varchar2(40), false),
        ];
        let mut c = Catalog::default();
        c.tables.insert(
            name.clone(),
            TableSchema {
                name,
                history: vec![(0, cols)],
                key: vec!["ID".into()],
                excluded: vec![],
            },
        );
        c
    }

    fn row(sql: &str, status: i32, info: Option<&str>) -> LogMinerRow {
        LogMinerRow {
            scn: 77,
            commit_scn: None,
            start_scn: None,
            timestamp: String::new(),
            commit_timestamp: None,
            xid: "0200030004000000".into(),
            xidusn: 2,
            xidslt: 3,
            xidsqn: 4,
            operation_code: op::INSERT,
            operation: op::name(op::INSERT).into(),
            seg_owner: Some("O".into()),
            table_name: Some("T".into()),
            row_id: "AAAR0oAAEAAAACAAAA".into(),
            sql_redo: sql.into(),
            csf: 0,
            rollback: 0,
            rs_id: String::new(),
            ssn: 0,
            thread: 1,
            sequence: 1,
            status,
            info: info.map(str::to_string),
            src_con_name: String::new(),
            username: String::new(),
            data_obj: 0,
        }
    }

    fn one(sql: &str, status: i32, info: Option<&str>) -> Result<Vec<(String, Value)>> {
        let mut tx = Committed {
            xid: "0200030004000000".into(),
            start: crate::stream::buffer::TxStart::Seen(77),
            commit_scn: 78,
            thread: 1,
            commit_timestamp: String::new(),
            rows: TxRows::from_vec(vec![row(sql, status, info)]),
        };
        match decode(&mut tx, &catalog()).into_iter().next() {
            Some(Ok(Event::Change(c))) => Ok(c.after.unwrap_or_default()),
            Some(Err(e)) => Err(e),
            other => panic!("{other:?}"),
        }
    }

    fn text(v: &str) -> Value {
        Value::Text(v.into())
    }

    #[test]
    fn unescaped_quotes_are_read_where_one_reading_fits_the_columns() {
        let after = one(
            r#"insert into "O"."T"("ID","NAME","CODE") values ('1','O'Brien's','abc')"#,
            0,
            None,
        )
        .unwrap();
        assert_eq!(after[1], ("NAME".into(), text("O'Brien's")));
        // NAME "a', 'b" and CODE "x", or NAME "a" and CODE "b', 'x": CODE holds 3 characters.
        let after = one(
            r#"insert into "O"."T"("ID","NAME","CODE","NOTE") values ('1','a', 'b','x',NULL)"#,
            0,
            None,
        )
        .unwrap();
        assert_eq!(
            after[1..3],
            [("NAME".into(), text("a', 'b")), ("CODE".into(), text("x"))]
        );
    }

    #[test]
    fn unescaped_quotes_that_read_two_ways_stop_with_cdc_3020() {
        // No reading fits (NAME2 is no column): the parse error, CDC-3002.
        let e = one(
            r#"insert into "O"."T"("ID","NAME","NAME2") values ('1','a', 'b','xy')"#,
            0,
            None,
        )
        .unwrap_err();
        assert_eq!(e.code(), Code::Cdc3002, "{e}");
        // NAME "a', 'b" and NOTE "x", or NAME "a" and NOTE "b', 'x": both fit.
        let e = one(
            r#"insert into "O"."T"("ID","NAME","NOTE") values ('1','a', 'b','x')"#,
            0,
            None,
        )
        .unwrap_err();
        assert_eq!(e.code(), Code::Cdc3020, "{e}");
        let text = e.to_string();
        assert!(
            text.contains("SCN 77") && text.contains("XID 0200030004000000"),
            "{text}"
        );
    }

    #[test]
    fn col_n_names_map_onto_the_stored_columns_and_read_their_bytes() {
        // Dictionary mismatch: positions among stored columns (V is virtual), storage bytes.
        let after = one(
            r#"insert into "O"."T"("COL 1","COL 2","COL 3","COL 4") values (HEXTORAW('c102'),HEXTORAW('4f27427269656e'),NULL,NULL)"#,
            STATUS_INVALID,
            Some("Dictionary Mismatch"),
        )
        .unwrap();
        assert_eq!(
            after,
            vec![
                ("ID".into(), Value::Number("1".into())),
                ("NAME".into(), text("O'Brien")),
                ("CODE".into(), Value::Null),
                ("NOTE".into(), Value::Null),
            ]
        );
    }

    #[test]
    fn dictionary_mismatches_that_cannot_be_read_stop_with_cdc_3021() {
        let cases = [
            ("Dictionary Version Mismatch", "not a statement"),
            (
                r#"insert into "O"."T"("COL 1","COL 2") values (HEXTORAW('c102'),NULL)"#,
                "stores 2 columns, the table had 4",
            ),
            (
                r#"insert into "O"."T"("COL 1","COL 2","COL 3","COL 5") values (HEXTORAW('c102'),NULL,NULL,NULL)"#,
                "COL 5 is past the table's 4 columns",
            ),
            (
                r#"insert into "O"."T"("COL 1","COL 2","COL 3","COL 4") values (HEXTORAW('ff'),NULL,NULL,NULL)"#,
                "COL 1 is column ID (NUMBER)",
            ),
        ];
        for (sql, why) in cases {
            let e = one(sql, STATUS_INVALID, Some("Dictionary Mismatch")).unwrap_err();
            assert_eq!(e.code(), Code::Cdc3021, "{sql}: {e}");
            let text = e.to_string();
            assert!(text.contains(why), "{sql}: {text}");
            assert!(
                text.contains("XID 0200030004000000")
                    && text.contains("cdc.mining.dictionary=redo_logs"),
                "{text}"
            );
        }
    }

    #[test]
    fn each_recovery_is_reported_by_the_decoder() {
        let mut tx = Committed {
            xid: "0200030004000000".into(),
            start: crate::stream::buffer::TxStart::Seen(77),
            commit_scn: 78,
            thread: 1,
            commit_timestamp: String::new(),
            rows: TxRows::from_vec(vec![
                row(
                    r#"insert into "O"."T"("ID","NAME") values ('1','O'Brien')"#,
                    0,
                    None,
                ),
                row(
                    r#"insert into "O"."T"("ID","NAME") values ('2','plain')"#,
                    0,
                    None,
                ),
                row(
                    r#"insert into "O"."T"("COL 1","COL 2","COL 3","COL 4") values (HEXTORAW('c104'),NULL,NULL,NULL)"#,
                    STATUS_INVALID,
                    Some("Dictionary Mismatch"),
                ),
            ]),
        };
        let mut d = crate::stream::decode::Decoder::new(&mut tx);
        let mut kinds = Vec::new();
        let mut changes = 0;
        while let Some(e) = d.next_event(&catalog()) {
            assert!(e.is_ok(), "{e:?}");
            changes += 1;
            kinds.extend(
                d.take_recovered()
                    .into_iter()
                    .map(|r| (r.kind, r.scn, r.xid)),
            );
        }
        kinds.extend(
            d.take_recovered()
                .into_iter()
                .map(|r| (r.kind, r.scn, r.xid)),
        );
        assert_eq!(changes, 3);
        assert_eq!(
            kinds,
            vec![
                (
                    RecoveryKind::UnescapedQuotes,
                    77,
                    "0200030004000000".to_string()
                ),
                (
                    RecoveryKind::ColumnPositions,
                    77,
                    "0200030004000000".to_string()
                ),
            ]
        );
    }

    proptest::proptest! {
        /// A statement the strict parser reads (values escaped the ordinary way, any quotes
        /// and separators inside) decodes exactly as the strict reading says, and no recovery
        /// is reported: the lenient readings never change what was read before.
        #[test]
        fn strict_readings_never_change(
            name in proptest::option::of("[a' ,()=]{1,12}"),
            code in proptest::option::of("[a' ,]{1,3}"),
            note in proptest::option::of("[a' ,\"]{1,12}"),
            update in proptest::bool::ANY,
        ) {
            let lit = |v: &Option<String>| match v {
                None => "NULL".to_string(),
                Some(v) => format!("'{}'", v.replace('\'', "''")),
            };
            let sql = if update {
                format!(
                    r#"update "O"."T" set "NAME" = {}, "CODE" = {} where "ID" = '1' and "NAME" IS NULL and "CODE" IS NULL and "NOTE" = {}"#,
                    lit(&name), lit(&code), lit(&note)
                )
            } else {
                format!(
                    r#"insert into "O"."T"("ID","NAME","CODE","NOTE") values ('1',{},{},{})"#,
                    lit(&name), lit(&code), lit(&note)
                )
            };
            let strict = crate::stream::parse::parse_dml(&sql);
            proptest::prop_assert!(strict.is_ok(), "{}", sql);
            let mut tx = Committed {
                xid: "0200030004000000".into(),
                start: crate::stream::buffer::TxStart::Seen(77),
                commit_scn: 78,
                thread: 1,
                commit_timestamp: String::new(),
                rows: TxRows::from_vec(vec![row(&sql, 0, None)]),
            };
            let mut d = crate::stream::decode::Decoder::new(&mut tx);
            let got = d.next_event(&catalog());
            proptest::prop_assert!(d.take_recovered().is_empty());
            let Some(Ok(Event::Change(c))) = got else {
                return Err(proptest::test_runner::TestCaseError::fail(format!("{sql}: {got:?}")));
            };
            let v = |o: &Option<String>| o.as_ref().map_or(Value::Null, |s| text(s));
            let after = c.after.unwrap_or_default();
            let find = |n: &str| after.iter().find(|(c, _)| c == n).map(|(_, v)| v.clone());
            proptest::prop_assert_eq!(find("NAME"), Some(v(&name)), "{}", sql);
            proptest::prop_assert_eq!(find("CODE"), Some(v(&code)), "{}", sql);
            proptest::prop_assert_eq!(find("NOTE"), Some(v(&note)), "{}", sql);
        }
    }
}
