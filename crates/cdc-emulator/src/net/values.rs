//! The emulator's values ([`Value`], canonical texts) as Oracle's typed values ([`Datum`]) and
//! back, by the column's type: what a flashback read hands the SQL engine and what an INSERT
//! over the wire stores.
//!
//! Types Oracle sends in forms the thin clients cannot read without extra round trips (JSON's
//! OSON, VECTOR's binary form, XMLTYPE's object) travel as CLOB text here; the adapter selects
//! them through JSON_SERIALIZE / VECTOR_SERIALIZE / XMLSERIALIZE anyway, which is text on Oracle
//! too. BFILE and object types have no value here (ORA-03001 naming the column).

use crate::types::{ColumnType, Value};
use cdc_core::types_map;
use oracle_datum::{DateTime, Datum, OraError, OraType};

/// The wire type of a column of `t`.
pub fn ora_type(t: &ColumnType) -> Result<OraType, String> {
    Ok(match t {
        // Bytes; a character-semantics column's character limit is the writer's to check.
        ColumnType::Varchar2 { length, .. } => OraType::Varchar2(*length),
        ColumnType::Nvarchar2 { length } => OraType::NVarchar2(*length),
        ColumnType::Char { length, .. } => OraType::Char(*length),
        ColumnType::Nchar { length } => OraType::NChar(*length),
        ColumnType::Number { precision, scale } => OraType::Number {
            precision: precision.unwrap_or(0),
            scale: match (precision, scale) {
                (None, None) => -127,
                (_, s) => s.unwrap_or(0),
            },
        },
        ColumnType::Float { precision } => OraType::Float(*precision),
        ColumnType::BinaryFloat => OraType::BinaryFloat,
        ColumnType::BinaryDouble => OraType::BinaryDouble,
        ColumnType::Date => OraType::Date,
        ColumnType::Timestamp { fsp } => OraType::Timestamp(*fsp),
        ColumnType::TimestampTz { fsp } => OraType::TimestampTz(*fsp),
        ColumnType::TimestampLtz { fsp } => OraType::TimestampLtz(*fsp),
        ColumnType::IntervalYm { precision } => OraType::IntervalYm(*precision),
        ColumnType::IntervalDs { precision, fsp } => OraType::IntervalDs(*precision, *fsp),
        ColumnType::Raw { length } => OraType::Raw(*length),
        ColumnType::Long => OraType::Long,
        ColumnType::LongRaw => OraType::LongRaw,
        ColumnType::Clob | ColumnType::Xmltype | ColumnType::Json | ColumnType::Vector { .. } => {
            OraType::Clob
        }
        ColumnType::Nclob => OraType::NClob,
        ColumnType::Blob => OraType::Blob,
        ColumnType::Rowid => OraType::Rowid,
        ColumnType::Urowid => OraType::Urowid,
        ColumnType::Boolean => OraType::Boolean,
        ColumnType::Bfile => return Err("BFILE".into()),
        ColumnType::Other { name } => return Err(name.clone()),
    })
}

fn bad(what: &str, text: &str) -> OraError {
    OraError::new(
        1858,
        format!("a non-numeric character was found where a numeric was expected ({what} `{text}`)"),
    )
}

/// `+HH:MM` / `-HH:MM` → minutes east of UTC.
fn offset_minutes(text: &str) -> Option<i16> {
    let (sign, rest) = match text.as_bytes().first()? {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => (1, text),
    };
    let (h, m) = rest.split_once(':')?;
    let (h, m): (i16, i16) = (h.parse().ok()?, m.parse().ok()?);
    (h <= 14 && m < 60).then_some(sign * (h * 60 + m))
}

/// `+YY-MM` → total months.
fn interval_ym(text: &str) -> Option<i64> {
    let t = text.trim();
    let (neg, rest) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let (y, m) = rest.split_once('-')?;
    let months = y.trim().parse::<i64>().ok()? * 12 + m.trim().parse::<i64>().ok()?;
    Some(if neg { -months } else { months })
}

/// `+DDD HH:MI:SS[.F…]` → total nanoseconds.
fn interval_ds(text: &str) -> Option<i128> {
    let t = text.trim();
    let (neg, rest) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let (days, time) = rest.split_once(' ')?;
    let (hms, frac) = time.split_once('.').unwrap_or((time, ""));
    let mut parts = hms.split(':');
    let h: i128 = parts.next()?.parse().ok()?;
    let m: i128 = parts.next()?.parse().ok()?;
    let s: i128 = parts.next()?.parse().ok()?;
    let nanos: i128 = if frac.is_empty() {
        0
    } else {
        let digits = &frac[..frac.len().min(9)];
        digits.parse::<i128>().ok()? * 10i128.pow(9 - digits.len() as u32)
    };
    let d: i128 = days.trim().parse().ok()?;
    let total = (((d * 24 + h) * 60 + m) * 60 + s) * 1_000_000_000 + nanos;
    Some(if neg { -total } else { total })
}

/// A stored value as Oracle's value of the column's type.
pub fn to_datum(v: &Value, t: &OraType) -> Result<Datum, OraError> {
    match v {
        Value::Number(_) | Value::Text(_) | Value::Json(_) | Value::Bytes(_) => {
            into_datum(v.clone(), t)
        }
        other => borrowed_datum(other, t),
    }
}

/// [`to_datum`] of a value the caller gives away: its text or bytes move into the datum (a
/// flashback read over the wire converts every value it sends, so no copy is made of them).
pub fn into_datum(v: Value, t: &OraType) -> Result<Datum, OraError> {
    Ok(match v {
        Value::Number(n) if oracle_datum::is_canonical_number(&n) => Datum::Number(n),
        Value::Number(n) => Datum::Number(
            oracle_datum::canonical_number(&n)
                .ok_or_else(|| OraError::new(1722, format!("invalid number `{n}`")))?
                .into(),
        ),
        Value::Text(s) if matches!(t, OraType::Rowid | OraType::Urowid) => Datum::Rowid(s),
        Value::Text(s) | Value::Json(s) => Datum::text(s),
        Value::Bytes(b) if b.is_empty() && matches!(t, OraType::Raw(_)) => Datum::Null,
        Value::Bytes(b) => Datum::Bytes(b),
        other => borrowed_datum(&other, t)?,
    })
}

fn borrowed_datum(v: &Value, t: &OraType) -> Result<Datum, OraError> {
    Ok(match v {
        Value::Null => Datum::Null,
        Value::Number(_) | Value::Text(_) | Value::Json(_) => return into_datum(v.clone(), t),
        Value::BinaryFloat(f) => Datum::BinaryFloat(*f),
        Value::BinaryDouble(f) => Datum::BinaryDouble(*f),
        Value::Date(s) => Datum::Date(DateTime::parse(s).ok_or_else(|| bad("DATE", s))?),
        Value::Timestamp(s) => {
            Datum::Timestamp(DateTime::parse(s).ok_or_else(|| bad("TIMESTAMP", s))?)
        }
        Value::TimestampTz(s) => {
            let (at, off) = s
                .trim()
                .rsplit_once(' ')
                .ok_or_else(|| bad("TIMESTAMP WITH TIME ZONE", s))?;
            Datum::TimestampTz {
                at: DateTime::parse(at).ok_or_else(|| bad("TIMESTAMP WITH TIME ZONE", s))?,
                offset_minutes: offset_minutes(off).ok_or_else(|| bad("TIME ZONE", s))?,
            }
        }
        Value::IntervalYm(s) => {
            Datum::IntervalYm(interval_ym(s).ok_or_else(|| bad("INTERVAL YEAR TO MONTH", s))?)
        }
        Value::IntervalDs(s) => {
            Datum::IntervalDs(interval_ds(s).ok_or_else(|| bad("INTERVAL DAY TO SECOND", s))?)
        }
        Value::Bytes(_) => return into_datum(v.clone(), t),
        Value::Boolean(b) => Datum::Boolean(*b),
        Value::Vector(v) => Datum::Text(vector_text(v).into()),
        Value::Bfile(_) => {
            return Err(OraError::new(
                3001,
                "unimplemented feature (BFILE locators are not served)",
            ))
        }
    })
}

/// VECTOR_SERIALIZE's text: `[1.0E+000,2.5E+000]`.
fn vector_text(v: &[f32]) -> String {
    let items: Vec<String> = v
        .iter()
        .map(|f| {
            let s = format!("{f:.15E}");
            // Rust prints `1.5E0`; Oracle `1.5E+000`.
            let (mantissa, exp) = s.split_once('E').unwrap_or((&s, "0"));
            let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
            let mantissa = if mantissa.contains('.') {
                mantissa.to_string()
            } else {
                format!("{mantissa}.0")
            };
            let e: i32 = exp.parse().unwrap_or(0);
            format!("{mantissa}E{}{:03}", if e < 0 { '-' } else { '+' }, e.abs())
        })
        .collect();
    format!("[{}]", items.join(","))
}

fn ds_text(nanos: i128, fsp: u8) -> String {
    let neg = nanos < 0;
    let n = nanos.unsigned_abs();
    let secs = n / 1_000_000_000;
    let frac = n % 1_000_000_000;
    let (d, rem) = (secs / 86_400, secs % 86_400);
    let sign = if neg { -1 } else { 1 };
    let part = |x: u128| sign * i32::try_from(x).unwrap_or(i32::MAX);
    types_map::format_interval_ds(
        part(d),
        part(rem / 3600),
        part(rem % 3600 / 60),
        part(rem % 60),
        part(frac),
        fsp,
    )
}

fn ym_text(months: i64) -> String {
    let y = i32::try_from(months / 12).unwrap_or(i32::MAX);
    let m = i32::try_from(months % 12).unwrap_or(0);
    types_map::format_interval_ym(y, m)
}

/// A value sent over the wire as the stored value of a column of type `t`. The engine has
/// converted it to the column's type already; what is left is the text form.
pub fn to_value(d: &Datum, t: &ColumnType) -> Result<Value, OraError> {
    let mismatch = |what: &str| {
        OraError::new(
            932,
            format!(
                "inconsistent datatypes: expected {} got {what}",
                type_name(t)
            ),
        )
    };
    Ok(match d {
        Datum::Null => Value::Null,
        Datum::Number(n) => match t {
            ColumnType::BinaryFloat => {
                Value::BinaryFloat(n.parse().map_err(|_| mismatch("NUMBER"))?)
            }
            ColumnType::BinaryDouble => {
                Value::BinaryDouble(n.parse().map_err(|_| mismatch("NUMBER"))?)
            }
            ColumnType::Boolean => Value::Boolean(n != "0"),
            _ => Value::Number(crate::types::oracle_number_text(n).into()),
        },
        Datum::Text(s) => match t {
            ColumnType::Json => Value::Json(s.clone()),
            // The SQL engine blank-pads a CHAR to its bytes; a `CHAR(n CHAR)` holds n
            // characters, which the writer pads to again.
            ColumnType::Char { chars: Some(n), .. } => {
                let mut s = s.clone();
                while s.ends_with(' ') && s.chars().count() > *n as usize {
                    s.pop();
                }
                Value::Text(s)
            }
            _ => Value::Text(s.clone()),
        },
        Datum::Rowid(s) => Value::Text(s.clone()),
        Datum::Bytes(b) => Value::Bytes(b.clone()),
        Datum::BinaryFloat(f) => Value::BinaryFloat(*f),
        Datum::BinaryDouble(f) => Value::BinaryDouble(*f),
        Datum::Date(at) => match t {
            ColumnType::Timestamp { .. } => Value::Timestamp(at.timestamp_text().into()),
            _ => Value::Date(at.date_text().into()),
        },
        Datum::Timestamp(at) => match t {
            ColumnType::Date => Value::Date(at.date_text().into()),
            _ => Value::Timestamp(at.timestamp_text().into()),
        },
        Datum::TimestampTz { at, offset_minutes } => {
            let sign = if *offset_minutes < 0 { '-' } else { '+' };
            let abs = offset_minutes.unsigned_abs();
            Value::TimestampTz(
                format!(
                    "{} {sign}{:02}:{:02}",
                    at.timestamp_text(),
                    abs / 60,
                    abs % 60
                )
                .into(),
            )
        }
        Datum::IntervalYm(m) => Value::IntervalYm(ym_text(*m).into()),
        Datum::IntervalDs(n) => {
            let fsp = match t {
                ColumnType::IntervalDs { fsp, .. } => *fsp,
                _ => 6,
            };
            Value::IntervalDs(ds_text(*n, fsp).into())
        }
        Datum::Boolean(b) => Value::Boolean(*b),
    })
}

fn type_name(t: &ColumnType) -> String {
    ora_type(t).map(|o| o.name()).unwrap_or_else(|n| n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_texts_become_typed_values_and_back() {
        let cases: Vec<(Value, ColumnType)> = vec![
            (
                Value::Number(".15".into()),
                ColumnType::Number {
                    precision: None,
                    scale: None,
                },
            ),
            (
                Value::Number("-12345678901234567890123".into()),
                ColumnType::Number {
                    precision: Some(38),
                    scale: Some(0),
                },
            ),
            (Value::Date("2026-12-04 10:05:09".into()), ColumnType::Date),
            (
                Value::Timestamp("2026-12-04 10:05:09.123456000".into()),
                ColumnType::Timestamp { fsp: 6 },
            ),
            (
                Value::TimestampTz("2026-12-04 10:05:09.123456000 -03:30".into()),
                ColumnType::TimestampTz { fsp: 6 },
            ),
            (
                Value::IntervalYm("-03-06".into()),
                ColumnType::IntervalYm { precision: 2 },
            ),
            (
                Value::IntervalDs("+001 02:03:04.560000".into()),
                ColumnType::IntervalDs {
                    precision: 3,
                    fsp: 6,
                },
            ),
            (
                Value::IntervalDs("-000 00:00:00.500000".into()),
                ColumnType::IntervalDs {
                    precision: 3,
                    fsp: 6,
                },
            ),
            (Value::Bytes(vec![0, 255]), ColumnType::Raw { length: 10 }),
            (
                Value::Text("ünï".into()),
                ColumnType::Nvarchar2 { length: 10 },
            ),
            (
                Value::BinaryDouble(f64::NEG_INFINITY),
                ColumnType::BinaryDouble,
            ),
        ];
        for (v, t) in cases {
            let o = ora_type(&t).unwrap();
            let d = to_datum(&v, &o).unwrap();
            assert_eq!(to_value(&d, &t).unwrap(), v, "{v:?} via {d:?}");
        }
        assert_eq!(
            to_datum(&Value::Number(".15".into()), &OraType::NUMBER).unwrap(),
            Datum::Number("0.15".into())
        );
        assert_eq!(
            to_datum(&Value::Text(Default::default()), &OraType::Varchar2(1)).unwrap(),
            Datum::Null
        );
        // A CHAR(3 CHAR) travels as its 12 bytes; the SQL engine's padding to bytes goes, the
        // writer pads to 3 characters again.
        let char3 = ColumnType::parse("CHAR(3 CHAR)").unwrap();
        assert_eq!(ora_type(&char3).unwrap(), OraType::Char(12));
        let padded = Datum::Text(format!("é{}", " ".repeat(10)).into());
        assert_eq!(
            to_value(&padded, &char3).unwrap(),
            Value::Text("é  ".into())
        );
        assert_eq!(
            ora_type(&ColumnType::parse("VARCHAR2(10 CHAR)").unwrap()).unwrap(),
            OraType::Varchar2(40)
        );
    }

    #[test]
    fn unreadable_texts_and_types_are_errors_not_nulls() {
        assert_eq!(
            to_datum(&Value::Date("yesterday".into()), &OraType::Date)
                .unwrap_err()
                .code,
            1858
        );
        assert_eq!(
            to_datum(&Value::Number("x".into()), &OraType::NUMBER)
                .unwrap_err()
                .code,
            1722
        );
        assert!(ora_type(&ColumnType::Bfile).is_err());
    }

    #[test]
    fn vectors_print_as_vector_serialize_does() {
        assert_eq!(
            vector_text(&[1.0, 2.5, -0.125]),
            "[1.0E+000,2.5E+000,-1.25E-001]"
        );
    }
}
