//! Building relations (a view's columns and rows) for the SQL engine.

use emulator_sql::{Relation, Row};
use oracle_datum::{Column, Datum, OraType};

/// VARCHAR2(128): Oracle's identifier columns (OWNER, TABLE_NAME …).
pub const NAME: OraType = OraType::Varchar2(128);
/// An unconstrained NUMBER.
pub const NUM: OraType = OraType::NUMBER;

/// A short VARCHAR2 flag column (`YES`/`NO`, `Y`/`N`, a status word).
pub fn text(n: u32) -> OraType {
    OraType::Varchar2(n)
}

/// Columns from (name, type) pairs.
pub fn columns(spec: &[(&str, OraType)]) -> Vec<Column> {
    spec.iter()
        .map(|(n, t)| Column::new(*n, t.clone()))
        .collect()
}

/// A view's relation from rows built in full (views are small: a catalog, a log list).
pub fn view(spec: &[(&str, OraType)], rows: Vec<Vec<Datum>>) -> Relation {
    Relation {
        columns: columns(spec),
        rows: Box::new(rows.into_iter().map(|values| {
            Ok(Row {
                rowid: None,
                values,
            })
        })),
        ordered_by: Vec::new(),
        rowid_type: OraType::Rowid,
        exact_bounds: Vec::new(),
    }
}

/// Text, NULL when empty.
pub fn t(s: impl Into<oracle_datum::Str>) -> Datum {
    Datum::text(s)
}

/// Optional text.
pub fn opt(s: Option<impl Into<oracle_datum::Str>>) -> Datum {
    s.map_or(Datum::Null, |s| Datum::text(s))
}

/// A whole number.
pub fn n(v: impl Into<i128>) -> Datum {
    Datum::int(v)
}

/// An optional whole number.
pub fn opt_n(v: Option<impl Into<i128>>) -> Datum {
    v.map_or(Datum::Null, |v| Datum::int(v))
}

/// `YES` / `NO`.
pub fn yes_no(b: bool) -> Datum {
    t(if b { "YES" } else { "NO" })
}

/// `Y` / `N`.
pub fn y_n(b: bool) -> Datum {
    t(if b { "Y" } else { "N" })
}
