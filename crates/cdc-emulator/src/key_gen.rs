//! Key values (primary and unique keys) made from a row's serial number: valid for the column's
//! type and length, distinct for distinct serials, and readable back ([`serial_of`]), so a writer
//! opened later continues after the highest serial its redo holds and keys never repeat across
//! workload runs.
//!
//! Oracle refuses a key on LOB, BFILE, VECTOR, object and REF columns (ORA-02329, Error Messages:
//! "VARRAY, nested table, object, LOB, FILE, VECTOR or REF") and on LONG columns (ORA-02269); the
//! schema file is checked for that ([`key_type_error`]).

use crate::types::{ColumnType, Value};
use cdc_core::rowid::RowId;
use cdc_core::types::ToCompactString;

/// Why a column of type `ty` cannot be in a primary or unique key, as Oracle says it.
pub fn key_type_error(ty: &ColumnType) -> Option<String> {
    match ty {
        ColumnType::Long | ColumnType::LongRaw => {
            Some("ORA-02269: key column cannot be of LONG datatype".into())
        }
        ColumnType::Clob
        | ColumnType::Nclob
        | ColumnType::Blob
        | ColumnType::Bfile
        | ColumnType::Xmltype
        | ColumnType::Json
        | ColumnType::Vector { .. }
        | ColumnType::Other { .. } => Some(format!(
            "ORA-02329: column of datatype {} cannot be unique or a primary key",
            ty.sql_name()
        )),
        _ => None,
    }
}

/// The first instant key columns of date and time types count from.
fn epoch() -> chrono::NaiveDateTime {
    chrono::NaiveDate::from_ymd_opt(2001, 1, 1)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .unwrap_or_default()
}

const BASE36: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Where the decimal point of a NUMBER key sits: the value is `serial × 10^-e`. Integers where
/// the column has room for integer digits; a column without (NUMBER(2,5)) or with a negative
/// scale (NUMBER(5,-2): hundreds) takes the serial's digits at its own scale.
fn number_layout(precision: Option<u8>, scale: Option<i8>) -> (i32, u32) {
    let p = i32::from(precision.unwrap_or(38));
    let s = i32::from(scale.unwrap_or(0));
    if s < 0 || s >= p {
        (s, p.min(19) as u32)
    } else {
        (0, (p - s).min(19) as u32)
    }
}

/// `digits` (an integer's decimal text) times `10^-e`, as Oracle prints numbers.
pub(crate) fn shift_point(digits: &str, e: i32) -> String {
    let text = if e <= 0 {
        format!("{digits}{}", "0".repeat((-e) as usize))
    } else {
        let width = e as usize + 1;
        let padded = format!("{digits:0>width$}");
        let (int, frac) = padded.split_at(padded.len() - e as usize);
        format!("{int}.{frac}")
    };
    crate::types::oracle_number_text(&text)
}

/// The key value of row `serial` (1-based) in a column of type `ty`; `Err` when the type has room
/// for fewer distinct keys (CHAR(1), BOOLEAN, NUMBER(2)…) or cannot be a key at all.
pub fn key_value(ty: &ColumnType, serial: u64) -> Result<Value, String> {
    let full = |room: u128| -> Result<(), String> {
        if u128::from(serial) >= room {
            Err(format!(
                "{} has room for {} distinct keys; row {serial} needs another",
                ty.sql_name(),
                room.saturating_sub(1)
            ))
        } else {
            Ok(())
        }
    };
    if let Some(e) = key_type_error(ty) {
        return Err(e);
    }
    Ok(match ty {
        ColumnType::Number { precision, scale } => {
            let (e, digits) = number_layout(*precision, *scale);
            full(10u128.pow(digits))?;
            Value::Number(shift_point(&serial.to_string(), e).into())
        }
        ColumnType::Float { precision } => {
            // FLOAT(b) keeps about b × log10(2) significant digits.
            let digits = ((f64::from(*precision) * std::f64::consts::LOG10_2) as u32).clamp(1, 19);
            full(10u128.pow(digits))?;
            Value::Number(serial.to_compact_string())
        }
        ColumnType::BinaryFloat => {
            full(1 << 24)?;
            Value::BinaryFloat(serial as f32)
        }
        ColumnType::BinaryDouble => {
            full(1 << 53)?;
            Value::BinaryDouble(serial as f64)
        }
        ColumnType::Varchar2 { .. }
        | ColumnType::Nvarchar2 { .. }
        | ColumnType::Char { .. }
        | ColumnType::Nchar { .. } => {
            // ASCII keys: as many characters as bytes, within the declared characters.
            let n = ty.max_chars().unwrap_or(0) as usize;
            let mut s = if n >= 9 {
                // `K00000001`: readable, and what earlier versions made.
                let s = format!("K{serial:08}");
                full(if s.len() <= n { u128::MAX } else { 0 })?;
                s
            } else {
                full(36u128.pow(n as u32))?;
                let mut s = vec![b'0'; n];
                let mut rest = serial;
                for b in s.iter_mut().rev() {
                    *b = BASE36[(rest % 36) as usize];
                    rest /= 36;
                }
                String::from_utf8(s).unwrap_or_default()
            };
            if matches!(ty, ColumnType::Char { .. } | ColumnType::Nchar { .. }) {
                s.extend(std::iter::repeat_n(' ', n.saturating_sub(s.len())));
            }
            Value::Text(s.into())
        }
        ColumnType::Date
        | ColumnType::Timestamp { .. }
        | ColumnType::TimestampTz { .. }
        | ColumnType::TimestampLtz { .. } => {
            // Up to 9999-12-31 23:59:59.
            full(250_000_000_000)?;
            let at = (epoch() + chrono::Duration::seconds(serial as i64))
                .format("%Y-%m-%d %H:%M:%S")
                .to_string();
            match ty {
                ColumnType::Date => Value::Date(at.into()),
                ColumnType::Timestamp { .. } => Value::Timestamp(format!("{at}.000000000").into()),
                _ => Value::TimestampTz(format!("{at}.000000000 +00:00").into()),
            }
        }
        ColumnType::IntervalYm { precision } => {
            // Months; the years must fit the leading precision.
            full(10u128.pow(u32::from(*precision)) * 12)?;
            Value::IntervalYm(format!("+{:02}-{:02}", serial / 12, serial % 12).into())
        }
        ColumnType::IntervalDs { precision, fsp } => {
            full(10u128.pow(u32::from(*precision)) * 86_400)?;
            let (d, rest) = (serial / 86_400, serial % 86_400);
            Value::IntervalDs(
                format!(
                    "+{d:03} {:02}:{:02}:{:02}.{}",
                    rest / 3600,
                    rest % 3600 / 60,
                    rest % 60,
                    "0".repeat(usize::from(*fsp).max(1))
                )
                .into(),
            )
        }
        ColumnType::Raw { length } => {
            let w = (*length as usize).clamp(1, 8);
            full(1u128 << (8 * w))?;
            Value::Bytes(serial.to_be_bytes()[8 - w..].to_vec())
        }
        ColumnType::Rowid | ColumnType::Urowid => {
            full(1 << 48)?;
            Value::Text(
                RowId {
                    data_object: 1,
                    relative_fno: 1,
                    block: (serial >> 16) as u32,
                    slot: (serial & 0xffff) as u32,
                }
                .encode()
                .into(),
            )
        }
        ColumnType::Boolean => {
            full(3)?;
            Value::Boolean(serial == 2)
        }
        _ => return Err(format!("{} cannot be a key", ty.sql_name())),
    })
}

/// [`key_value`] into `out`, reusing its buffer for the common key types (integer NUMBER keys,
/// `K00000001` text keys): a bulk load makes one a row.
pub fn key_value_into(ty: &ColumnType, serial: u64, out: &mut Value) -> Result<(), String> {
    match ty {
        ColumnType::Number { precision, scale } => {
            let (e, digits) = number_layout(*precision, *scale);
            if e == 0 && u128::from(serial) < 10u128.pow(digits) {
                let s = super::generate::text_slot(out, Value::Number);
                super::generate::push_digits(s, serial, 1);
                return Ok(());
            }
        }
        ColumnType::Varchar2 { .. } | ColumnType::Nvarchar2 { .. }
            if ty.max_chars().is_some_and(|n| n >= 9) =>
        {
            let s = super::generate::text_slot(out, Value::Text);
            s.push('K');
            super::generate::push_digits(s, serial, 8);
            if ty.max_chars().is_some_and(|n| s.len() <= n as usize) {
                return Ok(());
            }
        }
        _ => {}
    }
    *out = key_value(ty, serial)?;
    Ok(())
}

/// The serial [`key_value`] made `v` from, if it made it (any other value: `None`).
pub fn serial_of(ty: &ColumnType, v: &Value) -> Option<u64> {
    match (ty, v) {
        (ColumnType::Number { precision, scale }, Value::Number(n)) => {
            let (e, _) = number_layout(*precision, *scale);
            scaled_integer(n, e)
        }
        (ColumnType::Float { .. }, Value::Number(n)) => scaled_integer(n, 0),
        (ColumnType::BinaryFloat, Value::BinaryFloat(f)) => whole(f64::from(*f)),
        (ColumnType::BinaryDouble, Value::BinaryDouble(f)) => whole(*f),
        (
            ColumnType::Varchar2 { .. }
            | ColumnType::Nvarchar2 { .. }
            | ColumnType::Char { .. }
            | ColumnType::Nchar { .. },
            Value::Text(s),
        ) => {
            let length = &ty.max_chars()?;
            let s = s.trim_end_matches(' ');
            if *length >= 9 {
                let digits = s.strip_prefix('K')?;
                (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| digits.parse().ok())
                    .flatten()
            } else {
                (s.len() == *length as usize && !s.is_empty())
                    .then(|| {
                        s.bytes().try_fold(0u64, |acc, b| {
                            let d = BASE36.iter().position(|x| *x == b)? as u64;
                            acc.checked_mul(36)?.checked_add(d)
                        })
                    })
                    .flatten()
            }
        }
        (ColumnType::Date, Value::Date(s))
        | (ColumnType::Timestamp { .. }, Value::Timestamp(s))
        | (
            ColumnType::TimestampTz { .. } | ColumnType::TimestampLtz { .. },
            Value::TimestampTz(s),
        ) => {
            let at =
                chrono::NaiveDateTime::parse_from_str(s.get(..19)?, "%Y-%m-%d %H:%M:%S").ok()?;
            u64::try_from((at - epoch()).num_seconds()).ok()
        }
        (ColumnType::IntervalYm { .. }, Value::IntervalYm(s)) => {
            let (y, m) = s.strip_prefix('+')?.split_once('-')?;
            Some(y.parse::<u64>().ok()? * 12 + m.parse::<u64>().ok()?)
        }
        (ColumnType::IntervalDs { .. }, Value::IntervalDs(s)) => {
            let (d, t) = s.strip_prefix('+')?.split_once(' ')?;
            let mut hms = t.split(['.', ':']);
            let mut next = || hms.next()?.parse::<u64>().ok();
            let (h, m, sec) = (next()?, next()?, next()?);
            Some(d.parse::<u64>().ok()? * 86_400 + h * 3600 + m * 60 + sec)
        }
        (ColumnType::Raw { .. }, Value::Bytes(b)) if !b.is_empty() && b.len() <= 8 => {
            Some(b.iter().fold(0u64, |acc, x| acc << 8 | u64::from(*x)))
        }
        (ColumnType::Rowid | ColumnType::Urowid, Value::Text(s)) => {
            let r = RowId::decode(s).ok()?;
            Some(u64::from(r.block) << 16 | u64::from(r.slot))
        }
        (ColumnType::Boolean, Value::Boolean(b)) => Some(if *b { 2 } else { 1 }),
        _ => None,
    }
}

/// A non-negative whole number held exactly.
fn whole(f: f64) -> Option<u64> {
    (f >= 0.0 && f.fract() == 0.0 && f < 1.8e19).then_some(f as u64)
}

/// `text × 10^e` when that is a whole number.
fn scaled_integer(text: &str, e: i32) -> Option<u64> {
    if text.starts_with('-') {
        return None;
    }
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let mut digits = format!("{int}{frac}");
    let mut point = frac.len() as i32 - e;
    while point < 0 {
        digits.push('0');
        point += 1;
    }
    let (whole, rest) = digits.split_at(digits.len().checked_sub(point as usize)?);
    if rest.bytes().any(|b| b != b'0') {
        return None;
    }
    if whole.is_empty() {
        return Some(0);
    }
    whole.parse().ok()
}

#[cfg(test)]
#[path = "key_gen_tests.rs"]
mod tests;
