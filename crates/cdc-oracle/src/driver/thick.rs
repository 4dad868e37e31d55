//! Thick mode (`cdc.database.driver=thick`): the `oracle` crate, i.e. ODPI-C over the Oracle
//! Client libraries (Instant Client) it loads at run time. Without them every connect fails with
//! DPI-1047 (CDC-2001). It supports what Instant Client supports (native network encryption,
//! 11G verifiers, Kerberos, wallets), which is why it is kept beside the thin driver.
//!
//! ODPI-C converts a NUMBER digit by digit into text (no binary floating point) and keeps a
//! TIMESTAMP WITH TIME ZONE's offset; LOBs and LONGs are fetched inline, i.e. read whole.

use super::{Cell, DbResult, DbSession, Driver, DriverError, FetchOptions, Rows};
use crate::connect::{code_in_message, OraCode, Password};
use crate::errors::CdcError;
use crate::fetch::Bind;
use crate::types_map::DateTimeParts;
use oracle::sql_type::{IntervalDS, IntervalYM, OracleType, Timestamp, ToSql};
use oracle::{Connection, SqlValue};
use std::time::Duration;

/// One thick-mode connection.
pub struct ThickSession {
    conn: Connection,
    /// The login's warning (ODPI-C's OCI_SUCCESS_WITH_INFO), as `ORA-NNNNN: text`.
    warning: Option<String>,
}

impl ThickSession {
    pub fn open(
        target: super::Target<'_>,
        user: &str,
        password: &Password,
    ) -> Result<ThickSession, CdcError> {
        let url = target.url;
        let mut connector = oracle::Connector::new(user, password.expose(), target.connect);
        connector.driver_name("oracle-cdc");
        // No statement cache, as in thin mode (see `ThinSession::open`): a cached cursor
        // executed again after ALTER SESSION SET CONTAINER is ORA-65108.
        connector.stmt_cache_size(0);
        match connector.connect() {
            Ok(conn) => {
                // Read before any statement: the crate clears it at the next call without one.
                let warning = conn.last_warning().map(|w| warning_text(&w));
                Ok(ThickSession { conn, warning })
            }
            Err(e) => Err(error(&e).at_login(password, url)),
        }
    }
}

/// A warning as `ORA-28002: the password will expire within 7 days`: ODPI-C gives the number
/// apart from the text.
fn warning_text(w: &oracle::Error) -> String {
    let text = match w.db_error() {
        Some(d) => d.message().trim().to_string(),
        None => w.to_string(),
    };
    match code_of(w) {
        Some(c) if !text.contains(&c.to_string()) => format!("{c}: {text}"),
        _ => text,
    }
}

/// The code of an `oracle` crate error: the structured one when there is one, else the text.
pub fn code_of(e: &oracle::Error) -> Option<OraCode> {
    if let Some(n) = e.oci_code() {
        return Some(OraCode::Ora(n));
    }
    if let Some(n) = e.dpi_code() {
        return Some(OraCode::Dpi(n));
    }
    e.db_error()
        .map(|d| d.message().to_string())
        .and_then(|m| code_in_message(&m))
        .or_else(|| code_in_message(&e.to_string()))
}

/// An `oracle` crate error as the interface's [`DriverError`].
pub fn error(e: &oracle::Error) -> DriverError {
    let text = match e.db_error() {
        Some(d) => d.message().to_string(),
        None => e.to_string(),
    };
    DriverError {
        no_data_found: e.kind() == oracle::ErrorKind::NoDataFound,
        ..DriverError::new(code_of(e), super::first_line(&text))
    }
}

fn err(e: oracle::Error) -> DriverError {
    error(&e)
}

/// A [`Bind`] as the type it must have on the wire.
struct ThickBind<'a>(&'a Bind);

impl ToSql for ThickBind<'_> {
    fn oratype(&self, _conn: &Connection) -> oracle::Result<OracleType> {
        Ok(match self.0 {
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
        match self.0 {
            Bind::Number(s) | Bind::Text(s) => val.set(s),
            Bind::Raw(b) => val.set(b),
            Bind::BinaryFloat(f) => val.set(f),
            Bind::BinaryDouble(f) => val.set(f),
        }
    }
}

fn with_params<T>(binds: &[(&str, Bind)], f: impl FnOnce(&[(&str, &dyn ToSql)]) -> T) -> T {
    let wrapped: Vec<(&str, ThickBind)> = binds.iter().map(|(n, b)| (*n, ThickBind(b))).collect();
    let params: Vec<(&str, &dyn ToSql)> =
        wrapped.iter().map(|(n, b)| (*n, b as &dyn ToSql)).collect();
    f(&params)
}

impl DbSession for ThickSession {
    fn driver(&self) -> Driver {
        Driver::Thick
    }

    fn execute(&self, sql: &str, binds: &[(&str, Bind)]) -> DbResult<()> {
        with_params(binds, |p| self.conn.execute_named(sql, p).map(|_| ())).map_err(err)
    }

    fn query(&self, sql: &str, binds: &[(&str, Bind)], fetch: FetchOptions) -> DbResult<Rows<'_>> {
        let mut builder = self.conn.statement(sql);
        if fetch.array_size > 0 {
            builder.fetch_array_size(fetch.array_size);
        }
        if fetch.prefetch > 0 {
            builder.prefetch_rows(fetch.prefetch);
        }
        let stmt = builder.build().map_err(err)?;
        let rows =
            with_params(binds, |p| stmt.into_result_set_named::<oracle::Row>(p)).map_err(err)?;
        Ok(Box::new(rows.map(|r| {
            let row = r.map_err(err)?;
            row.sql_values().iter().map(cell).collect()
        })))
    }

    fn commit(&self) -> DbResult<()> {
        self.conn.commit().map_err(err)
    }

    fn server_version(&self) -> DbResult<String> {
        self.conn
            .server_version()
            .map(|(v, _)| v.to_string())
            .map_err(err)
    }

    fn set_call_timeout(&self, timeout: Option<Duration>) -> DbResult<()> {
        self.conn.set_call_timeout(timeout).map_err(err)
    }

    fn login_warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }
}

/// Calendar, clock and offset of a fetched DATE or TIMESTAMP [WITH [LOCAL] TIME ZONE].
pub fn parts(ts: &Timestamp) -> DateTimeParts {
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

/// An INTERVAL YEAR TO MONTH.
pub fn interval_ym(i: &IntervalYM) -> Cell {
    Cell::IntervalYm {
        years: i.years(),
        months: i.months(),
    }
}

/// An INTERVAL DAY TO SECOND of a column with `fsp` fractional digits.
pub fn interval_ds(i: &IntervalDS, fsp: u8) -> Cell {
    Cell::IntervalDs {
        days: i.days(),
        hours: i.hours(),
        minutes: i.minutes(),
        seconds: i.seconds(),
        nanoseconds: i.nanoseconds(),
        fsp,
    }
}

/// One fetched column as a [`Cell`], by the type ODPI-C reports.
/// A NUMBER from ODPI-C's decimal text (`0.15`), in Oracle's form (`.15`).
pub fn number(text: String) -> Cell {
    // ODPI-C decodes the NUMBER bytes itself (`dpiUtils__parseOracleNumber`, not OCI's text
    // conversion, which prints `~`): +infinity (0xFF 0x65) comes out as 1E126 and -infinity
    // (0x00) as -1E126, every digit printed. Every finite NUMBER is below 1E126 in magnitude,
    // so 127 digits before the point can only be one of them.
    let digits = text.strip_prefix('-').unwrap_or(&text);
    if digits.len() > 126 && digits.bytes().take_while(u8::is_ascii_digit).count() > 126 {
        return Cell::NumberInfinity {
            negative: text.starts_with('-'),
            or_1e125: false,
        };
    }
    Cell::Number(crate::types::into_oracle_number_str(text.into()))
}

pub fn cell(v: &SqlValue) -> DbResult<Cell> {
    if v.is_null().map_err(err)? {
        return Ok(Cell::Null);
    }
    let ty = v.oracle_type().map_err(err)?.clone();
    let timestamp = || v.get::<Timestamp>().map(|t| parts(&t)).map_err(err);
    Ok(match ty {
        OracleType::Varchar2(_)
        | OracleType::NVarchar2(_)
        | OracleType::Char(_)
        | OracleType::NChar(_)
        | OracleType::Long
        | OracleType::CLOB
        | OracleType::NCLOB
        | OracleType::Rowid
        | OracleType::Xml => Cell::Text(v.get::<String>().map_err(err)?),
        OracleType::Number(_, _)
        | OracleType::Float(_)
        | OracleType::Int64
        | OracleType::UInt64 => number(v.get::<String>().map_err(err)?),
        OracleType::BinaryFloat => Cell::BinaryFloat(v.get::<f32>().map_err(err)?),
        OracleType::BinaryDouble => Cell::BinaryDouble(v.get::<f64>().map_err(err)?),
        OracleType::Date => Cell::Date(timestamp()?),
        OracleType::Timestamp(_) => Cell::Timestamp(timestamp()?),
        OracleType::TimestampTZ(_) | OracleType::TimestampLTZ(_) => Cell::TimestampTz(timestamp()?),
        OracleType::IntervalYM(_) => interval_ym(&v.get::<IntervalYM>().map_err(err)?),
        OracleType::IntervalDS(_, fsp) => interval_ds(&v.get::<IntervalDS>().map_err(err)?, fsp),
        OracleType::Raw(_) | OracleType::LongRaw | OracleType::BLOB => {
            Cell::Bytes(v.get::<Vec<u8>>().map_err(err)?)
        }
        OracleType::Boolean => Cell::Boolean(v.get::<bool>().map_err(err)?),
        other => Cell::Unsupported(other.to_string()),
    })
}
