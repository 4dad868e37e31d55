//! Values on the wire: Oracle type numbers, column descriptions, and each [`Datum`] encoded as
//! the type a client asked for (the column's own type, or a define / bind type it chose).
//!
//! A value is written with a length byte (chunked past 252 bytes, see `wire`); what goes inside
//! depends on the wire type: UTF-8 (or AL16UTF16 for the national character set), NUMBER bytes,
//! DATE / TIMESTAMP bytes and so on. LOB columns travel as locators (see `lob`); ROWIDs as
//! their four numeric parts. BOOLEAN is described as NUMBER (1 / 0), as a 19c server has no SQL
//! BOOLEAN, and encoded as BOOLEAN only where a client binds one.

use oracle_datum::{canonical_number, Column, DateTime, Datum, OraError, OraType};

use crate::lob::LobStore;
use crate::number::{encode_binary_double, encode_binary_float, encode_number};
use crate::rowid;
use crate::temporal::{
    encode_date, encode_interval_ds, encode_interval_ym, encode_timestamp, encode_timestamp_tz,
    shift_minutes,
};
use crate::wire::Writer;

/// Oracle's internal type numbers.
pub mod ora {
    pub const VARCHAR: u8 = 1;
    pub const NUMBER: u8 = 2;
    pub const BINARY_INTEGER: u8 = 3;
    pub const FLOAT: u8 = 4;
    pub const LONG: u8 = 8;
    pub const ROWID: u8 = 11;
    pub const DATE: u8 = 12;
    pub const RAW: u8 = 23;
    pub const LONG_RAW: u8 = 24;
    pub const CHAR: u8 = 96;
    pub const BINARY_FLOAT: u8 = 100;
    pub const BINARY_DOUBLE: u8 = 101;
    pub const CURSOR: u8 = 102;
    pub const CLOB: u8 = 112;
    pub const BLOB: u8 = 113;
    pub const TIMESTAMP: u8 = 180;
    pub const TIMESTAMP_TZ: u8 = 181;
    pub const INTERVAL_YM: u8 = 182;
    pub const INTERVAL_DS: u8 = 183;
    pub const UROWID: u8 = 208;
    pub const TIMESTAMP_LTZ: u8 = 231;
    pub const BOOLEAN: u8 = 252;
}

pub const CHARSET_UTF8: u16 = 873;
pub const CHARSET_UTF16: u16 = 2000;
pub const CSFRM_IMPLICIT: u8 = 1;
pub const CSFRM_NCHAR: u8 = 2;

/// A type as the wire names it: what a describe announces and what a define or bind asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireType {
    pub ora_type: u8,
    pub csfrm: u8,
    pub buffer_size: u32,
    /// For LOBs: `None`, the bare locator; `Some(n)`, with its size and chunk size (the "LOB
    /// prefetch" flag) and, for `n > 0`, up to `n` characters or bytes of its data (JDBC asks).
    pub lob_prefetch: Option<u32>,
}

impl WireType {
    pub fn is_long(&self) -> bool {
        matches!(self.ora_type, ora::LONG | ora::LONG_RAW)
    }

    pub fn is_lob(&self) -> bool {
        matches!(self.ora_type, ora::CLOB | ora::BLOB)
    }
}

/// What a describe says of a column, beyond its name.
struct Described {
    wire: WireType,
    precision: u8,
    scale: i8,
    max_chars: u32,
    charset: u16,
}

fn describe_type(t: &OraType) -> Described {
    let (ora_type, csfrm, buffer_size, precision, scale, max_chars) = match *t {
        OraType::Varchar2(n) => (ora::VARCHAR, CSFRM_IMPLICIT, n, 0, 0, n),
        OraType::NVarchar2(n) => (ora::VARCHAR, CSFRM_NCHAR, n.saturating_mul(2), 0, 0, n),
        OraType::Char(n) => (ora::CHAR, CSFRM_IMPLICIT, n, 0, 0, n),
        OraType::NChar(n) => (ora::CHAR, CSFRM_NCHAR, n.saturating_mul(2), 0, 0, n),
        OraType::Number { precision, scale } => (ora::NUMBER, 0, 22, precision, scale, 0),
        OraType::Float(p) => (ora::NUMBER, 0, 22, p, -127, 0),
        // A 19c server has no SQL BOOLEAN: NUMBER(1), 1 for TRUE and 0 for FALSE.
        OraType::Boolean => (ora::NUMBER, 0, 22, 1, 0, 0),
        OraType::BinaryFloat => (ora::BINARY_FLOAT, 0, 4, 0, 0, 0),
        OraType::BinaryDouble => (ora::BINARY_DOUBLE, 0, 8, 0, 0, 0),
        OraType::Date => (ora::DATE, 0, 7, 0, 0, 0),
        OraType::Timestamp(p) => (ora::TIMESTAMP, 0, 11, 0, p as i8, 0),
        OraType::TimestampTz(p) => (ora::TIMESTAMP_TZ, 0, 13, 0, p as i8, 0),
        OraType::TimestampLtz(p) => (ora::TIMESTAMP_LTZ, 0, 11, 0, p as i8, 0),
        OraType::IntervalYm(p) => (ora::INTERVAL_YM, 0, 5, p, 0, 0),
        OraType::IntervalDs(d, s) => (ora::INTERVAL_DS, 0, 11, d, s as i8, 0),
        OraType::Raw(n) => (ora::RAW, 0, n, 0, 0, 0),
        OraType::Long => (ora::LONG, CSFRM_IMPLICIT, 0, 0, 0, 0),
        OraType::LongRaw => (ora::LONG_RAW, 0, 0, 0, 0, 0),
        OraType::Clob => (ora::CLOB, CSFRM_IMPLICIT, 4000, 0, 0, 0),
        OraType::NClob => (ora::CLOB, CSFRM_NCHAR, 4000, 0, 0, 0),
        OraType::Blob => (ora::BLOB, 0, 4000, 0, 0, 0),
        OraType::Rowid => (ora::ROWID, 0, 10, 0, 0, 0),
        OraType::Urowid => (ora::UROWID, 0, 4000, 0, 0, 0),
    };
    let charset = match csfrm {
        CSFRM_IMPLICIT => CHARSET_UTF8,
        CSFRM_NCHAR => CHARSET_UTF16,
        _ => 0,
    };
    Described {
        wire: WireType {
            ora_type,
            csfrm,
            buffer_size,
            lob_prefetch: Some(0),
        },
        precision,
        scale,
        max_chars,
        charset,
    }
}

/// The wire type a column is described (and, without a define, sent) as.
pub fn column_wire_type(t: &OraType) -> WireType {
    describe_type(t).wire
}

/// One column's entry of a DESCRIBE INFO message. `sb1_universal`: the client reads the scale
/// (an SB1) as a universal integer rather than a bare byte.
pub fn write_column_metadata(w: &mut Writer, col: &Column, field_version: u8, sb1_universal: bool) {
    let d = describe_type(&col.ora_type);
    w.u8(d.wire.ora_type).u8(0);
    w.u8(d.precision);
    if sb1_universal {
        w.sb(i64::from(d.scale));
    } else {
        w.u8(d.scale as u8);
    }
    w.ub(u64::from(d.wire.buffer_size));
    w.ub(0); // max number of array elements
    w.ub(0); // continuation flags
    w.ub(0); // OID
    w.ub(0); // version
    w.ub(u64::from(d.charset));
    w.u8(d.wire.csfrm);
    w.ub(u64::from(d.max_chars));
    if field_version >= crate::negotiate::FIELD_VERSION_12_2 {
        w.ub(0); // oaccolid
    }
    w.u8(u8::from(col.nullable));
    w.u8(0); // v7 length of name
    w.two_lengths(col.name.as_bytes());
    w.two_lengths(b""); // schema (object types)
    w.two_lengths(b""); // type name (object types)
    w.ub(0); // column position
    w.ub(0); // UDS flags
}

/// A value's text, for clients that ask for a character type where the column is not one.
pub fn datum_text(d: &Datum) -> Option<String> {
    Some(match d {
        Datum::Null => return None,
        Datum::Number(s) | Datum::Text(s) | Datum::Rowid(s) => s.to_string(),
        Datum::Bytes(b) => crate::auth::hex_upper(b),
        Datum::BinaryFloat(f) => f.to_string(),
        Datum::BinaryDouble(f) => f.to_string(),
        Datum::Date(dt) => dt.date_text(),
        Datum::Timestamp(dt) => dt.timestamp_text(),
        Datum::TimestampTz { at, offset_minutes } => {
            let sign = if *offset_minutes < 0 { '-' } else { '+' };
            let off = offset_minutes.unsigned_abs();
            format!(
                "{} {sign}{:02}:{:02}",
                at.timestamp_text(),
                off / 60,
                off % 60
            )
        }
        Datum::IntervalYm(m) => {
            let sign = if *m < 0 { '-' } else { '+' };
            format!(
                "{sign}{:02}-{:02}",
                m.unsigned_abs() / 12,
                m.unsigned_abs() % 12
            )
        }
        Datum::IntervalDs(n) => {
            let sign = if *n < 0 { '-' } else { '+' };
            let n = n.unsigned_abs();
            let secs = n / 1_000_000_000;
            format!(
                "{sign}{:02} {:02}:{:02}:{:02}.{:09}",
                secs / 86_400,
                secs / 3600 % 24,
                secs / 60 % 60,
                secs % 60,
                n % 1_000_000_000
            )
        }
        Datum::Boolean(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
    })
}

fn inconsistent(d: &Datum, wire: &WireType) -> OraError {
    OraError::new(
        932,
        format!(
            "inconsistent datatypes: cannot send {d:?} as Oracle type {}",
            wire.ora_type
        ),
    )
}

fn text_bytes(s: &str, csfrm: u8) -> Vec<u8> {
    if csfrm == CSFRM_NCHAR {
        s.encode_utf16().flat_map(u16::to_be_bytes).collect()
    } else {
        s.as_bytes().to_vec()
    }
}

fn number_text(d: &Datum, wire: &WireType) -> Result<String, OraError> {
    match d {
        Datum::Number(s) => Ok(s.to_string()),
        Datum::Boolean(b) => Ok(if *b { "1" } else { "0" }.into()),
        Datum::BinaryFloat(f) if f.is_finite() => Ok(f.to_string()),
        Datum::BinaryDouble(f) if f.is_finite() => Ok(f.to_string()),
        Datum::Text(s) => canonical_number(s).ok_or_else(|| OraError::new(1722, "invalid number")),
        _ => Err(inconsistent(d, wire)),
    }
}

fn float_of(d: &Datum, wire: &WireType) -> Result<f64, OraError> {
    match d {
        Datum::BinaryFloat(f) => Ok(f64::from(*f)),
        Datum::BinaryDouble(f) => Ok(*f),
        Datum::Number(s) | Datum::Text(s) => s
            .trim()
            .parse()
            .map_err(|_| OraError::new(1722, "invalid number")),
        _ => Err(inconsistent(d, wire)),
    }
}

/// Local fields of a date/time value (TIMESTAMP WITH TIME ZONE keeps its own local time).
fn datetime_of(d: &Datum, wire: &WireType) -> Result<DateTime, OraError> {
    match d {
        Datum::Date(dt) | Datum::Timestamp(dt) => Ok(*dt),
        Datum::TimestampTz { at, .. } => Ok(*at),
        Datum::Text(s) => DateTime::parse(s)
            .ok_or_else(|| OraError::new(1861, "literal does not match format string")),
        _ => Err(inconsistent(d, wire)),
    }
}

fn hex_decode(s: &str) -> Result<Vec<u8>, OraError> {
    crate::auth::from_hex(s).ok_or_else(|| OraError::new(1465, "invalid hex number"))
}

/// Writes a non-NULL value as `wire` (without any trailer a context adds after it).
fn encode_present(
    w: &mut Writer,
    d: &Datum,
    wire: &WireType,
    lobs: &mut LobStore,
) -> Result<(), OraError> {
    match wire.ora_type {
        // Text in the database character set, and canonical numbers, are written from the
        // datum itself: a query's rows are mostly these, and copying each value first costs
        // more than encoding it.
        ora::VARCHAR | ora::CHAR | ora::LONG => match d {
            Datum::Text(s) if wire.csfrm != CSFRM_NCHAR => {
                w.clr(s.as_bytes());
            }
            _ => {
                let text = datum_text(d).unwrap_or_default();
                w.clr(&text_bytes(&text, wire.csfrm));
            }
        },
        ora::NUMBER | ora::BINARY_INTEGER | ora::FLOAT => match d {
            Datum::Number(s) => {
                w.clr(&encode_number(s)?);
            }
            _ => {
                w.clr(&encode_number(&number_text(d, wire)?)?);
            }
        },
        ora::BINARY_FLOAT => {
            w.clr(&encode_binary_float(float_of(d, wire)? as f32));
        }
        ora::BINARY_DOUBLE => {
            w.clr(&encode_binary_double(float_of(d, wire)?));
        }
        ora::DATE => {
            w.clr(&encode_date(&datetime_of(d, wire)?)?);
        }
        ora::TIMESTAMP => {
            w.clr(&encode_timestamp(&datetime_of(d, wire)?)?);
        }
        ora::TIMESTAMP_LTZ => {
            // The session time zone of this server is UTC: an instant is sent as UTC fields.
            let fields = match d {
                Datum::TimestampTz { at, offset_minutes } => {
                    shift_minutes(at, -i64::from(*offset_minutes))
                }
                other => datetime_of(other, wire)?,
            };
            w.clr(&encode_timestamp(&fields)?);
        }
        ora::TIMESTAMP_TZ => {
            let (at, offset) = match d {
                Datum::TimestampTz { at, offset_minutes } => (*at, *offset_minutes),
                other => (datetime_of(other, wire)?, 0),
            };
            w.clr(&encode_timestamp_tz(&at, offset)?);
        }
        ora::INTERVAL_YM => match d {
            Datum::IntervalYm(m) => {
                w.clr(&encode_interval_ym(*m)?);
            }
            _ => return Err(inconsistent(d, wire)),
        },
        ora::INTERVAL_DS => match d {
            Datum::IntervalDs(n) => {
                w.clr(&encode_interval_ds(*n)?);
            }
            _ => return Err(inconsistent(d, wire)),
        },
        ora::RAW | ora::LONG_RAW => match d {
            Datum::Bytes(b) => {
                w.clr(b);
            }
            Datum::Text(s) => {
                w.clr(&hex_decode(s)?);
            }
            _ => return Err(inconsistent(d, wire)),
        },
        ora::ROWID => {
            let text = datum_text(d).unwrap_or_default();
            let parts =
                rowid::parse_physical(&text).ok_or_else(|| OraError::new(1410, "invalid ROWID"))?;
            rowid::write_rowid(w, &parts);
        }
        ora::UROWID => {
            let text = datum_text(d).unwrap_or_default();
            let data =
                rowid::urowid_bytes(&text).ok_or_else(|| OraError::new(1410, "invalid ROWID"))?;
            w.clr(&[data.len().min(255) as u8]);
            w.clr(&data);
        }
        ora::CLOB | ora::BLOB => lobs.write_locator(w, d, wire)?,
        ora::BOOLEAN => {
            let truth = match d {
                Datum::Boolean(b) => *b,
                Datum::Number(s) => s != "0",
                _ => return Err(inconsistent(d, wire)),
            };
            w.clr(if truth { &[1, 1] } else { &[0] });
        }
        _ => return Err(inconsistent(d, wire)),
    }
    Ok(())
}

/// Writes one value as `wire`: row data of a fetch, or an OUT bind's value.
pub fn encode_value(
    w: &mut Writer,
    d: &Datum,
    wire: &WireType,
    lobs: &mut LobStore,
) -> Result<(), OraError> {
    let empty_text = matches!(d, Datum::Text(s) if s.is_empty());
    let empty_bytes = matches!(d, Datum::Bytes(b) if b.is_empty());
    if d.is_null() || empty_text || empty_bytes {
        if wire.is_lob() {
            w.ub(0);
        } else {
            w.u8(0);
        }
        return Ok(());
    }
    encode_present(w, d, wire, lobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(d: &Datum, t: &OraType) -> Vec<u8> {
        let mut w = Writer::new();
        encode_value(&mut w, d, &column_wire_type(t), &mut LobStore::default()).unwrap();
        w.into_inner()
    }

    #[test]
    fn values_take_their_column_encodings() {
        assert_eq!(enc(&Datum::Null, &OraType::Varchar2(10)), [0]);
        assert_eq!(
            enc(&Datum::text("ab"), &OraType::Varchar2(10)),
            [2, b'a', b'b']
        );
        assert_eq!(
            enc(&Datum::text("ab"), &OraType::NVarchar2(10)),
            [4, 0, b'a', 0, b'b']
        );
        assert_eq!(enc(&Datum::int(7), &OraType::NUMBER), [2, 0xc1, 8]);
        assert_eq!(enc(&Datum::Boolean(true), &OraType::Boolean), [2, 0xc1, 2]);
        assert_eq!(enc(&Datum::Boolean(false), &OraType::Boolean), [1, 0x80]);
        assert_eq!(enc(&Datum::Bytes(vec![1, 2]), &OraType::Raw(2)), [2, 1, 2]);
        assert_eq!(
            enc(&Datum::BinaryDouble(1.0), &OraType::BinaryDouble)[..2],
            [8, 0xbf]
        );
        assert_eq!(
            enc(&Datum::IntervalYm(14), &OraType::IntervalYm(2)),
            [5, 0x80, 0, 0, 1, 62]
        );
        let tz = Datum::TimestampTz {
            at: DateTime::date(2026, 1, 1),
            offset_minutes: 60,
        };
        let b = enc(&tz, &OraType::TimestampTz(6));
        assert_eq!(b[0], 13);
        assert_eq!(&b[1..8], &[120, 125, 12, 31, 24, 1, 1]);
    }

    #[test]
    fn mismatched_values_are_errors() {
        let mut w = Writer::new();
        let err = encode_value(
            &mut w,
            &Datum::Bytes(vec![1]),
            &column_wire_type(&OraType::Date),
            &mut LobStore::default(),
        );
        assert_eq!(err.unwrap_err().code, 932);
    }
}
