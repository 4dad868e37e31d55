//! Oracle's implicit and explicit conversions between values: text ↔ NUMBER with the
//! session's decimal character, text ↔ datetimes with its NLS formats, datetimes among
//! themselves with its time zone, RAW ↔ hex, text → ROWID, and CAST to a type with its
//! size checks. Errors are Oracle's (ORA-01722 for text that is not a number, the format
//! model's errors for text that is not a date, ORA-00932 between unconvertible types).

use crate::datetime::{from_nanos, to_nanos, NANOS_PER_SEC};
use crate::dtfmt::{self, render::Zone, Target};
use crate::env::Env;
use crate::number::{invalid_number, Dec};
use crate::types::{datum_type, inconsistent, label};
use crate::{DateTime, Datum, OraError, OraType};
use std::borrow::Cow;

pub fn hex_upper(b: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        s.push(char::from(DIGITS[usize::from(x >> 4)]));
        s.push(char::from(DIGITS[usize::from(x & 15)]));
    }
    s
}

/// HEXTORAW: ORA-01465 for text that is not hex digits.
pub fn parse_hex(s: &str) -> Result<Vec<u8>, OraError> {
    let bad = || OraError::new(1465, "invalid hex number");
    let t = s.trim();
    let digits: Vec<u8> = t
        .chars()
        .map(|c| c.to_digit(16).map(|d| d as u8).ok_or_else(bad))
        .collect::<Result<_, _>>()?;
    // An odd count reads as if a leading 0 were there.
    let mut out = Vec::with_capacity(digits.len().div_ceil(2));
    let mut iter = digits.iter();
    if digits.len() % 2 == 1 {
        out.push(*iter.next().unwrap_or(&0));
    }
    while let (Some(a), Some(b)) = (iter.next(), iter.next()) {
        out.push(a << 4 | b);
    }
    Ok(out)
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The position of a ROWID character in Oracle's base-64 alphabet (ROWIDs order by it).
pub fn rowid_digit(c: u8) -> Option<u8> {
    BASE64.iter().position(|&x| x == c).map(|p| p as u8)
}

/// CHARTOROWID: an 18-character extended ROWID (ORA-01410 otherwise).
pub fn parse_rowid(s: &str) -> Result<String, OraError> {
    let t = s.trim();
    if t.len() == 18 && t.bytes().all(|c| rowid_digit(c).is_some()) {
        Ok(t.to_string())
    } else {
        Err(OraError::new(1410, "invalid ROWID"))
    }
}

/// A BINARY_FLOAT / BINARY_DOUBLE as Oracle prints it: `1.5E+000`, `Inf`, `Nan`.
pub fn float_text(f: f64, single: bool) -> String {
    if f.is_nan() {
        return "Nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Inf".into() } else { "-Inf".into() };
    }
    if f == 0.0 {
        return "0".into();
    }
    let s = if single {
        format!("{:e}", f as f32)
    } else {
        format!("{f:e}")
    };
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let m = if m.contains('.') {
        m.to_string()
    } else {
        format!("{m}.0")
    };
    let e: i32 = e.parse().unwrap_or(0);
    format!("{m}E{}{:03}", if e < 0 { '-' } else { '+' }, e.abs())
}

/// Text form of a value as implicit conversion (and TO_CHAR without a format) gives it.
/// `hint` is the value's static type, for fractional-second and interval precisions.
pub fn to_text<'a>(
    d: &'a Datum,
    env: &Env,
    hint: Option<&OraType>,
) -> Result<Option<Cow<'a, str>>, OraError> {
    Ok(Some(match d {
        Datum::Null => return Ok(None),
        Datum::Text(s) if s.is_empty() => return Ok(None),
        Datum::Text(s) => Cow::Borrowed(s.as_str()),
        Datum::Rowid(s) => Cow::Borrowed(s.as_str()),
        Datum::Number(n) => {
            let dec = Dec::parse(n).ok_or_else(invalid_number)?;
            Cow::Owned(dec.to_oracle_text(env.decimal()))
        }
        Datum::BinaryFloat(f) => Cow::Owned(float_text(f64::from(*f), true)),
        Datum::BinaryDouble(f) => Cow::Owned(float_text(*f, false)),
        Datum::Bytes(b) if b.is_empty() => return Ok(None),
        Datum::Bytes(b) => Cow::Owned(hex_upper(b)),
        Datum::Boolean(b) => Cow::Borrowed(if *b { "TRUE" } else { "FALSE" }),
        Datum::Date(dt) => Cow::Owned(dtfmt::render(
            dt,
            None,
            None,
            env.nls.date_model(),
            env.decimal(),
        )?),
        Datum::Timestamp(dt) => {
            let p = precision(hint);
            Cow::Owned(dtfmt::render(
                dt,
                None,
                Some(p),
                env.nls.ts_model(),
                env.decimal(),
            )?)
        }
        Datum::TimestampTz { at, offset_minutes } => {
            let p = precision(hint);
            let zone = Zone {
                offset: *offset_minutes,
                region: None,
            };
            Cow::Owned(dtfmt::render(
                at,
                Some(zone),
                Some(p),
                env.nls.tstz_model(),
                env.decimal(),
            )?)
        }
        Datum::IntervalYm(m) => {
            let p = match hint {
                Some(OraType::IntervalYm(p)) => *p,
                _ => 9,
            };
            Cow::Owned(crate::datetime::interval_ym_text(*m, p))
        }
        Datum::IntervalDs(n) => {
            let (dp, fp) = match hint {
                Some(OraType::IntervalDs(d, f)) => (*d, *f),
                _ => (9, 9),
            };
            Cow::Owned(crate::datetime::interval_ds_text(*n, dp, fp))
        }
    }))
}

fn precision(hint: Option<&OraType>) -> u8 {
    match hint {
        Some(OraType::Timestamp(p) | OraType::TimestampTz(p) | OraType::TimestampLtz(p)) => *p,
        _ => 6,
    }
}

/// A value as a NUMBER's canonical text.
pub fn to_number<'a>(d: &'a Datum, env: &Env) -> Result<Option<Cow<'a, str>>, OraError> {
    Ok(Some(match d {
        Datum::Null => return Ok(None),
        Datum::Number(n) => Cow::Borrowed(n.as_str()),
        Datum::Text(s) if s.is_empty() => return Ok(None),
        Datum::Text(s) => Cow::Owned(crate::number::parse_text(s, env.decimal())?),
        Datum::BinaryFloat(f) => Cow::Owned(float_to_number(f64::from(*f))?),
        Datum::BinaryDouble(f) => Cow::Owned(float_to_number(*f)?),
        Datum::Boolean(b) => Cow::Borrowed(if *b { "1" } else { "0" }),
        other => return Err(inconsistent("NUMBER", label(&datum_type(other)))),
    }))
}

fn float_to_number(f: f64) -> Result<String, OraError> {
    if !f.is_finite() {
        return Err(crate::number::overflow());
    }
    let d = Dec::parse(&format!("{f:e}")).ok_or_else(invalid_number)?;
    Ok(d.fit()?.to_canonical())
}

pub fn to_dec(d: &Datum, env: &Env) -> Result<Option<Dec>, OraError> {
    match to_number(d, env)? {
        None => Ok(None),
        Some(s) => Dec::parse(&s).map(Some).ok_or_else(invalid_number),
    }
}

pub fn to_f64(d: &Datum, env: &Env) -> Result<Option<f64>, OraError> {
    Ok(match d {
        Datum::BinaryFloat(f) => Some(f64::from(*f)),
        Datum::BinaryDouble(f) => Some(*f),
        other => match to_number(other, env)? {
            None => None,
            Some(s) => Some(s.parse::<f64>().map_err(|_| invalid_number())?),
        },
    })
}

/// A value as a DATE.
pub fn to_date(d: &Datum, env: &Env) -> Result<Option<DateTime>, OraError> {
    Ok(Some(match d {
        Datum::Null => return Ok(None),
        Datum::Date(dt) => *dt,
        Datum::Timestamp(dt) => DateTime {
            nanosecond: 0,
            ..*dt
        },
        Datum::TimestampTz { at, .. } => DateTime {
            nanosecond: 0,
            ..*at
        },
        Datum::Text(s) if s.is_empty() => return Ok(None),
        Datum::Text(s) => dtfmt::read(s, env.nls.date_model(), Target::Date, &env.now.host)?.at,
        other => return Err(inconsistent("DATE", label(&datum_type(other)))),
    }))
}

/// A value as a TIMESTAMP (local fields).
pub fn to_timestamp(d: &Datum, env: &Env) -> Result<Option<DateTime>, OraError> {
    Ok(Some(match d {
        Datum::Null => return Ok(None),
        Datum::Date(dt) | Datum::Timestamp(dt) => *dt,
        Datum::TimestampTz { at, .. } => *at,
        Datum::Text(s) if s.is_empty() => return Ok(None),
        Datum::Text(s) => dtfmt::read(s, env.nls.ts_model(), Target::Timestamp, &env.now.host)?.at,
        other => return Err(inconsistent("TIMESTAMP", label(&datum_type(other)))),
    }))
}

/// A value as a TIMESTAMP WITH TIME ZONE: DATE and TIMESTAMP are in the session's zone.
pub fn to_tstz(d: &Datum, env: &Env) -> Result<Option<(DateTime, i16)>, OraError> {
    Ok(Some(match d {
        Datum::Null => return Ok(None),
        Datum::Date(dt) | Datum::Timestamp(dt) => (*dt, env.offset()?),
        Datum::TimestampTz { at, offset_minutes } => (*at, *offset_minutes),
        Datum::Text(s) if s.is_empty() => return Ok(None),
        Datum::Text(s) => {
            let p = dtfmt::read(s, env.nls.tstz_model(), Target::TimestampTz, &env.now.host)?;
            let off = match p.offset {
                Some(o) => o,
                None => env.offset()?,
            };
            (p.at, off)
        }
        other => {
            return Err(inconsistent(
                "TIMESTAMP WITH TIME ZONE",
                label(&datum_type(other)),
            ))
        }
    }))
}

/// Nanoseconds since the epoch, UTC, of any datetime (DATE and TIMESTAMP in the session zone).
pub fn instant(d: &Datum, env: &Env) -> Result<Option<i128>, OraError> {
    Ok(to_tstz(d, env)?.map(|(at, off)| to_nanos(&at) - i128::from(off) * 60 * NANOS_PER_SEC))
}

pub fn to_bytes<'a>(d: &'a Datum) -> Result<Option<Cow<'a, [u8]>>, OraError> {
    Ok(match d {
        Datum::Null => None,
        Datum::Bytes(b) if b.is_empty() => None,
        Datum::Bytes(b) => Some(Cow::Borrowed(b.as_slice())),
        Datum::Text(s) if s.is_empty() => None,
        Datum::Text(s) => Some(Cow::Owned(parse_hex(s)?)),
        other => return Err(inconsistent("BINARY", label(&datum_type(other)))),
    })
}

/// Rounds a TIMESTAMP's nanoseconds to `p` digits (carrying into the seconds).
pub fn round_fraction(dt: DateTime, p: u8) -> Result<DateTime, OraError> {
    if p >= 9 {
        return Ok(dt);
    }
    let unit = 10i128.pow(9 - u32::from(p));
    let n = to_nanos(&dt);
    let r = (n + unit / 2).div_euclid(unit) * unit;
    from_nanos(r)
}

/// Too long for its type: ORA-25137 for CAST (DML reports ORA-12899 itself).
fn out_of_range() -> OraError {
    OraError::new(25137, "Data value out of range")
}

/// Fits a number to NUMBER(p, s) / FLOAT(b): rounded to the scale, ORA-01438 when the
/// integer part is too long.
pub fn fit_number(d: Dec, t: &OraType) -> Result<Dec, OraError> {
    match *t {
        OraType::Number { precision, scale } if precision > 0 => {
            let r = d.round_scale(i32::from(scale));
            let allowed = i32::from(precision) - i32::from(scale);
            if !r.is_zero() && r.exponent() > allowed {
                return Err(OraError::new(
                    1438,
                    "value larger than specified precision allowed for this column",
                ));
            }
            r.fit()
        }
        OraType::Float(b) if b > 0 => {
            let digits = (f64::from(b) * std::f64::consts::LOG10_2).ceil() as usize;
            d.round_digits(digits.max(1)).fit()
        }
        _ => d.fit(),
    }
}

/// CAST(value AS t), and the conversions NVL / DECODE / CASE results and DML values go
/// through.
pub fn to_type(d: &Datum, t: &OraType, env: &Env) -> Result<Datum, OraError> {
    if d.is_null() {
        return Ok(Datum::Null);
    }
    Ok(match t {
        OraType::Number { .. } | OraType::Float(_) => match to_dec(d, env)? {
            None => Datum::Null,
            Some(x) => Datum::Number(fit_number(x, t)?.to_canonical().into()),
        },
        OraType::BinaryFloat => {
            to_f64(d, env)?.map_or(Datum::Null, |f| Datum::BinaryFloat(f as f32))
        }
        OraType::BinaryDouble => to_f64(d, env)?.map_or(Datum::Null, Datum::BinaryDouble),
        OraType::Varchar2(n) | OraType::NVarchar2(n) => {
            let s = to_text(d, env, None)?.map(Cow::into_owned);
            match s {
                None => Datum::Null,
                Some(s) if s.len() > *n as usize && *n > 0 => return Err(out_of_range()),
                Some(s) => Datum::Text(s.into()),
            }
        }
        OraType::Char(n) | OraType::NChar(n) => match to_text(d, env, None)? {
            None => Datum::Null,
            Some(s) if s.chars().count() > *n as usize => return Err(out_of_range()),
            Some(s) => {
                let pad = (*n as usize).saturating_sub(s.chars().count());
                Datum::Text(format!("{s}{}", " ".repeat(pad)).into())
            }
        },
        OraType::Clob | OraType::NClob | OraType::Long => {
            to_text(d, env, None)?.map_or(Datum::Null, |s| Datum::Text(s.into_owned().into()))
        }
        OraType::Date => to_date(d, env)?.map_or(Datum::Null, Datum::Date),
        OraType::Timestamp(p) => match to_timestamp(d, env)? {
            None => Datum::Null,
            Some(dt) => Datum::Timestamp(round_fraction(dt, *p)?),
        },
        OraType::TimestampTz(p) | OraType::TimestampLtz(p) => match to_tstz(d, env)? {
            None => Datum::Null,
            Some((at, off)) => Datum::TimestampTz {
                at: round_fraction(at, *p)?,
                offset_minutes: off,
            },
        },
        OraType::Raw(_) | OraType::Blob | OraType::LongRaw => {
            to_bytes(d)?.map_or(Datum::Null, |b| Datum::Bytes(b.into_owned()))
        }
        OraType::Rowid | OraType::Urowid => match d {
            Datum::Rowid(r) => Datum::Rowid(r.clone()),
            Datum::Text(s) => Datum::Rowid(parse_rowid(s)?.into()),
            other => return Err(inconsistent("ROWID", label(&datum_type(other)))),
        },
        OraType::IntervalYm(_) => match d {
            Datum::IntervalYm(m) => Datum::IntervalYm(*m),
            Datum::Text(s) => Datum::IntervalYm(crate::literal::interval_ym(s)?),
            other => {
                return Err(inconsistent(
                    "INTERVAL YEAR TO MONTH",
                    label(&datum_type(other)),
                ))
            }
        },
        OraType::IntervalDs(..) => match d {
            Datum::IntervalDs(n) => Datum::IntervalDs(*n),
            Datum::Text(s) => Datum::IntervalDs(crate::literal::interval_ds(s)?),
            other => {
                return Err(inconsistent(
                    "INTERVAL DAY TO SECOND",
                    label(&datum_type(other)),
                ))
            }
        },
        OraType::Boolean => match d {
            Datum::Boolean(b) => Datum::Boolean(*b),
            Datum::Text(s) => match s.trim().to_ascii_uppercase().as_str() {
                "TRUE" | "T" | "YES" | "Y" | "1" | "ON" => Datum::Boolean(true),
                "FALSE" | "F" | "NO" | "N" | "0" | "OFF" => Datum::Boolean(false),
                _ => return Err(OraError::new(61800, "invalid boolean value")),
            },
            Datum::Number(n) => Datum::Boolean(n != "0"),
            other => return Err(inconsistent("BOOLEAN", label(&datum_type(other)))),
        },
    })
}

/// The number of nanoseconds of an INTERVAL DAY TO SECOND from days (NUMTODSINTERVAL).
pub fn days_to_nanos(days: &Dec, unit_nanos: i128) -> Result<i128, OraError> {
    let n = days.mul(&Dec::from_i128(unit_nanos)).round_scale(0);
    n.to_i128().ok_or_else(crate::number::overflow)
}
