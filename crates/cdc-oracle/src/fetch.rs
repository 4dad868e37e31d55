//! Turning fetched [`Cell`]s into [`Value`]s and [`Value`]s into binds: one conversion for both
//! drivers (`driver/`), pure, so what each driver delivers is tested without a database.
//!
//! What is supported (see also `types_map.rs` for the text forms):
//! - VARCHAR2, NVARCHAR2, CHAR (blank padding kept), NCHAR, LONG, CLOB, NCLOB, ROWID, UROWID:
//!   `Value::Text`; LOBs and LONGs are read whole.
//! - NUMBER, FLOAT: `Value::Number` with the exact decimal text (ODPI-C converts the Oracle
//!   NUMBER digit by digit, the thin driver's `OracleNumber` keeps every digit too: no binary
//!   floating point on either), without a leading zero (`.15`). A NUMBER holding +infinity or
//!   -infinity (`~`, `-~`) is CDC-3011: both decoders print those as finite numbers.
//! - BINARY_FLOAT / BINARY_DOUBLE: `Value::BinaryFloat(f32)` / `Value::BinaryDouble(f64)`, NaN and
//!   ±Inf included (fetched natively).
//! - DATE, TIMESTAMP(n): `Value::Date` / `Value::Timestamp` (`…SS.FF9`).
//! - TIMESTAMP WITH TIME ZONE: `Value::TimestampTz` with the stored offset. Flashback reads and
//!   key probes select it as `TO_CHAR(…, 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM')` on both drivers
//!   ([`Fetch::TimestampTz`]; the thin driver would return a native fetch in UTC without the
//!   offset), and the text is parsed back into the canonical form. A region-named zone
//!   (`Europe/Paris`) is printed as its offset at that instant, as TZH:TZM does.
//! - TIMESTAMP WITH LOCAL TIME ZONE: `Value::TimestampTz` in UTC (`+00:00`), because the session
//!   time zone is set to UTC.
//! - INTERVAL YEAR TO MONTH / DAY TO SECOND: `Value::IntervalYm` / `Value::IntervalDs`.
//! - RAW, LONG RAW, BLOB: `Value::Bytes`, read whole.
//! - BFILE: not fetched. The `oracle` crate 0.6 keeps its BFILE locator type private, so the
//!   directory and file name cannot be read (the adapter reads no locators with `oracledb`
//!   either); a flashback read that selects a BFILE column fails
//!   with CDC-3001 before it is sent (the snapshot refuses such tables with CDC-3001 anyway).
//! - XMLTYPE: serialised by the database (`XMLSERIALIZE … AS CLOB`) into `Value::Text`.
//! - JSON (21c type): serialised by the database (`JSON_SERIALIZE … RETURNING CLOB`) into
//!   `Value::Json`. JSON kept in VARCHAR2/CLOB/BLOB columns is fetched as those types.
//! - VECTOR (23ai): serialised by the database (`VECTOR_SERIALIZE … RETURNING CLOB`) and parsed
//!   into `Value::Vector(Vec<f32>)`; FLOAT64 elements lose precision, sparse vectors and BINARY
//!   vectors are refused.
//! - BOOLEAN (23ai): `Value::Boolean`, natively with a 23ai client (and the thin driver), else
//!   from the 1/0 a pre-23ai client receives.
//!
//! Not supported (CDC-3001 naming the column): BFILE, object types, collections (VARRAY,
//! nested tables), REF, ANYDATA, SDO_GEOMETRY and other types the catalog mapping refuses.

use super::connect::CallContext;
use super::driver::{Cell, DbSession, FetchOptions};
use super::types_map;
use crate::errors::{CdcError, Code, Result};
use crate::types::Value;

/// How a select-list column must be turned into a [`Value`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fetch {
    /// By the type the driver reports.
    Native,
    /// A JSON column serialised to CLOB by the query.
    Json,
    /// A VECTOR column serialised to CLOB by the query.
    Vector,
    /// An XMLTYPE column serialised to CLOB by the query.
    Xml,
    /// A BOOLEAN column (native, or 1/0 for older clients).
    Boolean,
    /// A TIMESTAMP WITH TIME ZONE column as `TO_CHAR(…, 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM')`
    /// text: the thin driver loses the offset of a native fetch, so both drivers select it so.
    TimestampTz,
}

fn unsupported(column: &str, what: impl std::fmt::Display) -> CdcError {
    CdcError::Database(format!("column {column}: {what}"))
}

/// CDC-3011: a NUMBER holding an infinity, which no record value can carry; refused, not
/// published as the finite number the driver decoded it to.
fn infinity(negative: bool, or_1e125: bool, column: &str, ctx: &CallContext) -> CdcError {
    let (sign, shown) = if negative { ("-", "-~") } else { ("+", "~") };
    let table = ctx
        .table
        .as_deref()
        .map(|t| format!(" of {t}"))
        .unwrap_or_default();
    let thin = if or_1e125 {
        " (the thin driver reads +infinity and the NUMBER 1E125 alike, so a value of exactly \
         1E125 is refused too: cdc.database.driver=thick tells them apart)"
    } else {
        ""
    };
    CdcError::coded(
        Code::Cdc3011,
        format!(
            "{}{table}: column {column} holds the NUMBER {sign}infinity (Oracle prints `{shown}`), \
             which no record value can carry{thin}; give the row a value or exclude the column \
             (oracle-cdc explain CDC-3011)",
            ctx.operation
        ),
    )
}

/// The text of a serialised column (JSON, VECTOR, XMLTYPE, TSTZ): a CLOB or VARCHAR2.
fn text(cell: Cell, column: &str) -> Result<String> {
    match cell {
        Cell::Text(s) => Ok(s),
        Cell::Number(s) => Ok(s.into()),
        other => Err(unsupported(column, format!("expected text, got {other:?}"))),
    }
}

/// One fetched column as a [`Value`]: the one conversion for both drivers, a pure function.
pub fn value(cell: Cell, how: Fetch, column: &str, ctx: &CallContext) -> Result<Value> {
    match cell {
        Cell::Null => return Ok(Value::Null),
        Cell::NumberInfinity { negative, or_1e125 } => {
            return Err(infinity(negative, or_1e125, column, ctx))
        }
        _ => {}
    }
    match how {
        Fetch::Json => return Ok(Value::Json(text(cell, column)?.into())),
        Fetch::Xml => return Ok(Value::Text(text(cell, column)?.into())),
        Fetch::Vector => {
            return types_map::parse_vector(&text(cell, column)?)
                .map(Value::Vector)
                .map_err(|e| unsupported(column, e));
        }
        Fetch::Boolean => {
            if let Cell::Boolean(b) = cell {
                return Ok(Value::Boolean(b));
            }
            return types_map::parse_boolean(&text(cell, column)?)
                .map(Value::Boolean)
                .map_err(|e| unsupported(column, e));
        }
        Fetch::TimestampTz => {
            if let Cell::TimestampTz(p) = cell {
                return Ok(Value::TimestampTz(
                    types_map::format_timestamp_tz(&p).into(),
                ));
            }
            let t = text(cell, column)?;
            return types_map::parse_timestamp_tz(&t)
                .map(|p| Value::TimestampTz(types_map::format_timestamp_tz(&p).into()))
                .map_err(|e| unsupported(column, e));
        }
        Fetch::Native => {}
    }
    Ok(match cell {
        Cell::Null => Value::Null,
        Cell::Text(s) => Value::Text(s.into()),
        // Oracle's form already (the drivers make it).
        Cell::Number(s) => Value::Number(s),
        Cell::NumberInfinity { negative, or_1e125 } => {
            return Err(infinity(negative, or_1e125, column, ctx))
        }
        Cell::BinaryFloat(f) => Value::BinaryFloat(f),
        Cell::BinaryDouble(f) => Value::BinaryDouble(f),
        Cell::Date(p) => Value::Date(types_map::format_date_str(&p)),
        Cell::Timestamp(p) => Value::Timestamp(types_map::format_timestamp(&p).into()),
        Cell::TimestampTz(p) => Value::TimestampTz(types_map::format_timestamp_tz(&p).into()),
        Cell::IntervalYm { years, months } => {
            Value::IntervalYm(types_map::format_interval_ym(years, months).into())
        }
        Cell::IntervalDs {
            days,
            hours,
            minutes,
            seconds,
            nanoseconds,
            fsp,
        } => Value::IntervalDs(
            types_map::format_interval_ds(days, hours, minutes, seconds, nanoseconds, fsp).into(),
        ),
        Cell::Bytes(b) => Value::Bytes(b),
        Cell::Boolean(b) => Value::Boolean(b),
        Cell::Unsupported(data_type) => {
            return Err(CdcError::UnsupportedType {
                table: ctx.table.clone().unwrap_or_default(),
                column: column.to_string(),
                data_type,
            })
        }
    })
}

/// A value bound to a statement, with the Oracle type it must have on the wire.
#[derive(Debug, Clone, PartialEq)]
pub enum Bind {
    /// Decimal text bound as a NUMBER (exact, no float in between).
    Number(String),
    /// Text bound as VARCHAR2 (not NVARCHAR2: a national bind would make Oracle convert the
    /// column side of a VARCHAR2 comparison and lose the index).
    Text(String),
    Raw(Vec<u8>),
    BinaryFloat(f32),
    BinaryDouble(f64),
}

impl Bind {
    /// The bind for a key value or SCN; dates and timestamps travel as their canonical text and
    /// are converted in SQL (see `sql::flashback_select`).
    pub fn from_value(v: &Value) -> Result<Bind, String> {
        Ok(match v {
            Value::Number(n) => Bind::Number(types_map::number_for_bind(n)),
            Value::Text(s) | Value::Date(s) | Value::Timestamp(s) | Value::TimestampTz(s) => {
                Bind::Text(s.to_string())
            }
            Value::Bytes(b) => Bind::Raw(b.clone()),
            Value::BinaryFloat(f) => Bind::BinaryFloat(*f),
            Value::BinaryDouble(f) => Bind::BinaryDouble(*f),
            other => return Err(format!("a {other:?} value cannot be bound")),
        })
    }
}

/// Typed getters for catalog rows: every failure becomes a `CdcError` with the call's context.
pub struct Cols<'a> {
    pub row: &'a [Cell],
    pub ctx: &'a CallContext,
}

impl Cols<'_> {
    fn wrong(&self, i: usize, want: &str) -> CdcError {
        CdcError::Database(format!(
            "{}: column {} is not {want}: {:?}",
            self.ctx.operation,
            i + 1,
            self.row.get(i)
        ))
    }

    fn cell(&self, i: usize) -> Result<&Cell> {
        self.row.get(i).ok_or_else(|| {
            CdcError::Database(format!(
                "{}: the row has {} columns, column {} was read",
                self.ctx.operation,
                self.row.len(),
                i + 1
            ))
        })
    }

    /// Text as the session's NLS settings print it (dates `YYYY-MM-DD HH24:MI:SS`, numbers as
    /// the driver's decimal text), as both drivers convert a column read as a string.
    pub fn opt_string(&self, i: usize) -> Result<Option<String>> {
        Ok(match self.cell(i)? {
            Cell::Null => None,
            Cell::Text(s) => Some(s.clone()),
            // With the zero before the point (`0.5`), as a driver converts a number to a string.
            Cell::Number(s) if s.starts_with('.') => Some(format!("0{s}")),
            Cell::Number(s) if s.starts_with("-.") => Some(format!("-0{}", &s[1..])),
            Cell::Number(s) => Some(s.to_string()),
            Cell::Date(p) => Some(types_map::format_date(p)),
            Cell::Timestamp(p) => Some(types_map::format_timestamp(p)),
            Cell::TimestampTz(p) => Some(types_map::format_timestamp_tz(p)),
            _ => return Err(self.wrong(i, "text")),
        })
    }

    /// NULL reads as the empty string (Oracle stores '' as NULL anyway).
    pub fn string(&self, i: usize) -> Result<String> {
        Ok(self.opt_string(i)?.unwrap_or_default())
    }

    fn opt_integer<T: std::str::FromStr>(&self, i: usize, what: &str) -> Result<Option<T>> {
        match self.cell(i)? {
            Cell::Null => Ok(None),
            Cell::Number(s) => s
                .trim()
                .parse::<T>()
                .map(Some)
                .map_err(|_| self.wrong(i, what)),
            Cell::Text(s) => s
                .trim()
                .parse::<T>()
                .map(Some)
                .map_err(|_| self.wrong(i, what)),
            _ => Err(self.wrong(i, what)),
        }
    }

    pub fn opt_u64(&self, i: usize) -> Result<Option<u64>> {
        self.opt_integer(i, "a whole number from 0 to 2^64")
    }

    pub fn u64(&self, i: usize) -> Result<u64> {
        Ok(self.opt_u64(i)?.unwrap_or(0))
    }

    pub fn opt_i64(&self, i: usize) -> Result<Option<i64>> {
        self.opt_integer(i, "a whole number")
    }

    pub fn u32(&self, i: usize) -> Result<u32> {
        let n = self.u64(i)?;
        u32::try_from(n).map_err(|_| {
            CdcError::Database(format!("{}: value {n} out of range", self.ctx.operation))
        })
    }

    pub fn opt_bytes(&self, i: usize) -> Result<Option<Vec<u8>>> {
        match self.cell(i)? {
            Cell::Null => Ok(None),
            Cell::Bytes(b) => Ok(Some(b.clone())),
            _ => Err(self.wrong(i, "RAW")),
        }
    }
}

/// Every row of a query, each converted by `f`; driver errors mapped with `ctx`.
pub fn query_all<T>(
    conn: &dyn DbSession,
    statement: &str,
    binds: &[(&str, Bind)],
    fetch: FetchOptions,
    ctx: &CallContext,
    mut f: impl FnMut(&Cols) -> Result<T>,
) -> Result<Vec<T>> {
    let mut out = Vec::new();
    for row in conn
        .query(statement, binds, fetch)
        .map_err(|e| e.runtime(ctx))?
    {
        let row = row.map_err(|e| e.runtime(ctx))?;
        out.push(f(&Cols { row: &row, ctx })?);
    }
    Ok(out)
}

/// The one row of a query (ORA-01403 when there is none), converted by `f`.
pub fn query_one<T>(
    conn: &dyn DbSession,
    statement: &str,
    binds: &[(&str, Bind)],
    ctx: &CallContext,
    f: impl FnOnce(&Cols) -> Result<T>,
) -> Result<T> {
    let row = conn
        .query_row(statement, binds)
        .map_err(|e| e.runtime(ctx))?;
    f(&Cols { row: &row, ctx })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binds_follow_the_value() {
        assert_eq!(
            Bind::from_value(&Value::Number(".5".into())),
            Ok(Bind::Number("0.5".into()))
        );
        assert_eq!(
            Bind::from_value(&Value::Date("2020-01-01 00:00:00".into())),
            Ok(Bind::Text("2020-01-01 00:00:00".into()))
        );
        assert_eq!(
            Bind::from_value(&Value::Bytes(vec![1, 2])),
            Ok(Bind::Raw(vec![1, 2]))
        );
        assert!(Bind::from_value(&Value::Null).is_err());
        assert!(Bind::from_value(&Value::Boolean(true)).is_err());
    }
}
