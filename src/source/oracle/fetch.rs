//! Fetching column values as [`Value`]s and binding [`Value`]s, with the `oracle` crate.
//!
//! What is supported (see also `types_map.rs` for the text forms):
//! - VARCHAR2, NVARCHAR2, CHAR (blank padding kept), NCHAR, LONG, CLOB, NCLOB, ROWID, UROWID:
//!   `Value::Text`; LOBs and LONGs are read whole.
//! - NUMBER, FLOAT: `Value::Number` with the exact decimal text (ODPI-C converts the Oracle
//!   NUMBER digit by digit, no binary floating point), without a leading zero (`.15`).
//! - BINARY_FLOAT / BINARY_DOUBLE: `Value::BinaryFloat(f32)` / `Value::BinaryDouble(f64)`, NaN and
//!   ±Inf included (fetched natively).
//! - DATE, TIMESTAMP(n): `Value::Date` / `Value::Timestamp` (`…SS.FF9`).
//! - TIMESTAMP WITH TIME ZONE: `Value::TimestampTz` with the stored offset. A region-named zone
//!   (`Europe/Paris`) is printed as its offset at that instant, as TZH:TZM does.
//! - TIMESTAMP WITH LOCAL TIME ZONE: `Value::TimestampTz` in UTC (`+00:00`), because the session
//!   time zone is set to UTC.
//! - INTERVAL YEAR TO MONTH / DAY TO SECOND: `Value::IntervalYm` / `Value::IntervalDs`.
//! - RAW, LONG RAW, BLOB: `Value::Bytes`, read whole.
//! - BFILE: not fetched. The `oracle` crate 0.6 keeps its BFILE locator type private, so the
//!   directory and file name cannot be read; a flashback read that selects a BFILE column fails
//!   with CDC-3001 before it is sent (the snapshot refuses such tables with CDC-3001 anyway).
//! - XMLTYPE: serialised by the database (`XMLSERIALIZE … AS CLOB`) into `Value::Text`.
//! - JSON (21c type): serialised by the database (`JSON_SERIALIZE … RETURNING CLOB`) into
//!   `Value::Json`. JSON kept in VARCHAR2/CLOB/BLOB columns is fetched as those types.
//! - VECTOR (23ai): serialised by the database (`VECTOR_SERIALIZE … RETURNING CLOB`) and parsed
//!   into `Value::Vector(Vec<f32>)`; FLOAT64 elements lose precision, sparse vectors and BINARY
//!   vectors are refused.
//! - BOOLEAN (23ai): `Value::Boolean`, natively with a 23ai client, else from the 1/0 a
//!   pre-23ai client receives.
//!
//! Not supported (CDC-3001 naming the column): BFILE, object types, collections (VARRAY,
//! nested tables), REF, ANYDATA, SDO_GEOMETRY and other types the catalog mapping refuses.

use super::connect::{db_error, CallContext};
use super::types_map::{self, DateTimeParts};
use crate::errors::{CdcError, Result};
use crate::types::Value;
use oracle::sql_type::{IntervalDS, IntervalYM, OracleType, Timestamp, ToSql};
use oracle::{Connection, SqlValue};

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
}

fn parts(ts: &Timestamp) -> DateTimeParts {
    DateTimeParts {
        year: ts.year(),
        month: ts.month(),
        day: ts.day(),
        hour: ts.hour(),
        minute: ts.minute(),
        second: ts.second(),
        nanosecond: ts.nanosecond(),
        offset_minutes: ts.tz_hour_offset() * 60 + ts.tz_minute_offset(),
    }
}

fn unsupported(column: &str, what: impl std::fmt::Display) -> CdcError {
    CdcError::Database(format!("column {column}: {what}"))
}

/// One fetched column as a [`Value`].
pub fn value(v: &SqlValue, how: Fetch, column: &str, ctx: &CallContext) -> Result<Value> {
    let oracle = |e: oracle::Error| db_error(&e, ctx);
    if v.is_null().map_err(oracle)? {
        return Ok(Value::Null);
    }
    match how {
        Fetch::Json => return Ok(Value::Json(v.get::<String>().map_err(oracle)?)),
        Fetch::Xml => return Ok(Value::Text(v.get::<String>().map_err(oracle)?)),
        Fetch::Vector => {
            let text = v.get::<String>().map_err(oracle)?;
            return types_map::parse_vector(&text)
                .map(Value::Vector)
                .map_err(|e| unsupported(column, e));
        }
        Fetch::Boolean => {
            if matches!(v.oracle_type().map_err(oracle)?, OracleType::Boolean) {
                return Ok(Value::Boolean(v.get::<bool>().map_err(oracle)?));
            }
            let text = v.get::<String>().map_err(oracle)?;
            return types_map::parse_boolean(&text)
                .map(Value::Boolean)
                .map_err(|e| unsupported(column, e));
        }
        Fetch::Native => {}
    }
    let ty = v.oracle_type().map_err(oracle)?.clone();
    Ok(match ty {
        OracleType::Varchar2(_)
        | OracleType::NVarchar2(_)
        | OracleType::Char(_)
        | OracleType::NChar(_)
        | OracleType::Long
        | OracleType::CLOB
        | OracleType::NCLOB
        | OracleType::Rowid
        | OracleType::Xml => Value::Text(v.get::<String>().map_err(oracle)?),
        OracleType::Number(_, _)
        | OracleType::Float(_)
        | OracleType::Int64
        | OracleType::UInt64 => Value::Number(types_map::canonical_number(
            &v.get::<String>().map_err(oracle)?,
        )),
        OracleType::BinaryFloat => Value::BinaryFloat(v.get::<f32>().map_err(oracle)?),
        OracleType::BinaryDouble => Value::BinaryDouble(v.get::<f64>().map_err(oracle)?),
        OracleType::Date => Value::Date(types_map::format_date(&parts(
            &v.get::<Timestamp>().map_err(oracle)?,
        ))),
        OracleType::Timestamp(_) => Value::Timestamp(types_map::format_timestamp(&parts(
            &v.get::<Timestamp>().map_err(oracle)?,
        ))),
        OracleType::TimestampTZ(_) | OracleType::TimestampLTZ(_) => Value::TimestampTz(
            types_map::format_timestamp_tz(&parts(&v.get::<Timestamp>().map_err(oracle)?)),
        ),
        OracleType::IntervalYM(_) => {
            let i = v.get::<IntervalYM>().map_err(oracle)?;
            Value::IntervalYm(types_map::format_interval_ym(i.years(), i.months()))
        }
        OracleType::IntervalDS(_, fsp) => {
            let i = v.get::<IntervalDS>().map_err(oracle)?;
            Value::IntervalDs(types_map::format_interval_ds(
                i.days(),
                i.hours(),
                i.minutes(),
                i.seconds(),
                i.nanoseconds(),
                fsp,
            ))
        }
        OracleType::Raw(_) | OracleType::LongRaw | OracleType::BLOB => {
            Value::Bytes(v.get::<Vec<u8>>().map_err(oracle)?)
        }
        OracleType::Boolean => Value::Boolean(v.get::<bool>().map_err(oracle)?),
        other => {
            return Err(CdcError::UnsupportedType {
                table: ctx.table.clone().unwrap_or_default(),
                column: column.to_string(),
                data_type: other.to_string(),
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
                Bind::Text(s.clone())
            }
            Value::Bytes(b) => Bind::Raw(b.clone()),
            Value::BinaryFloat(f) => Bind::BinaryFloat(*f),
            Value::BinaryDouble(f) => Bind::BinaryDouble(*f),
            other => return Err(format!("a {other:?} value cannot be bound")),
        })
    }

    pub fn as_sql(&self) -> &dyn ToSql {
        self
    }
}

impl ToSql for Bind {
    fn oratype(&self, _conn: &Connection) -> oracle::Result<OracleType> {
        Ok(match self {
            Bind::Number(_) => OracleType::Number(0, 0),
            // VARCHAR2 size is in bytes; at least 1 so an empty string binds.
            Bind::Text(s) => {
                OracleType::Varchar2(u32::try_from(s.len().max(1)).unwrap_or(u32::MAX))
            }
            Bind::Raw(b) => OracleType::Raw(u32::try_from(b.len().max(1)).unwrap_or(u32::MAX)),
            Bind::BinaryFloat(_) => OracleType::BinaryFloat,
            Bind::BinaryDouble(_) => OracleType::BinaryDouble,
        })
    }

    fn to_sql(&self, val: &mut SqlValue) -> oracle::Result<()> {
        match self {
            Bind::Number(s) | Bind::Text(s) => val.set(s),
            Bind::Raw(b) => val.set(b),
            Bind::BinaryFloat(f) => val.set(f),
            Bind::BinaryDouble(f) => val.set(f),
        }
    }
}

/// Typed getters for catalog rows: every failure becomes a `CdcError` with the call's context.
pub struct Cols<'a> {
    pub row: &'a oracle::Row,
    pub ctx: &'a CallContext,
}

impl Cols<'_> {
    fn get<T: oracle::sql_type::FromSql>(&self, i: usize) -> Result<T> {
        self.row
            .get::<usize, T>(i)
            .map_err(|e| db_error(&e, self.ctx))
    }

    pub fn opt_string(&self, i: usize) -> Result<Option<String>> {
        self.get::<Option<String>>(i)
    }

    /// NULL reads as the empty string (Oracle stores '' as NULL anyway).
    pub fn string(&self, i: usize) -> Result<String> {
        Ok(self.opt_string(i)?.unwrap_or_default())
    }

    pub fn opt_u64(&self, i: usize) -> Result<Option<u64>> {
        self.get::<Option<u64>>(i)
    }

    pub fn u64(&self, i: usize) -> Result<u64> {
        Ok(self.opt_u64(i)?.unwrap_or(0))
    }

    pub fn opt_i64(&self, i: usize) -> Result<Option<i64>> {
        self.get::<Option<i64>>(i)
    }

    pub fn u32(&self, i: usize) -> Result<u32> {
        let n = self.u64(i)?;
        u32::try_from(n).map_err(|_| {
            CdcError::Database(format!("{}: value {n} out of range", self.ctx.operation))
        })
    }

    pub fn opt_bytes(&self, i: usize) -> Result<Option<Vec<u8>>> {
        self.get::<Option<Vec<u8>>>(i)
    }
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
