//! Bind (and define) metadata, and bind values decoded into [`Datum`]s.
//!
//! The client describes each bind (or, for a define, each column it wants) with its Oracle type
//! number, flags, buffer size and character set form, then sends each row of values after a
//! ROW DATA byte. Values whose buffer exceeds 32767 bytes ("long" binds) come after all the
//! others outside PL/SQL; the metadata keeps statement order. Character values are UTF-8,
//! or AL16UTF16 for the national form; dates, numbers and intervals use their wire forms;
//! LOB values are locators this connection handed out (a temporary LOB the client created and
//! wrote, or one it fetched).

use oracle_datum::{Datum, OraError, OraType};

use crate::codec::{ora, WireType, CSFRM_NCHAR};
use crate::lob::LobStore;
use crate::negotiate::FIELD_VERSION_12_2;
use crate::number::{decode_binary_double, decode_binary_float, decode_number};
use crate::temporal::{
    decode_datetime, decode_interval_ds, decode_interval_ym, decode_timestamp_tz,
};
use crate::wire::{malformed, Reader, WireResult};

/// Continuation flag: LOB values come with their size (and any prefetched data).
const CONT_LOB_PREFETCH: u64 = 0x0200_0000;
/// Bind flag: the bind is a PL/SQL array.
const BIND_ARRAY: u8 = 0x40;
/// A NULL BOOLEAN is sent as this escape byte and a 1.
const ESCAPE_CHAR: u8 = 253;
/// Buffers past this are "long" binds, sent last (the 32K string limit this server announces).
pub const MAX_STRING_SIZE: u32 = 32767;

/// One bind's or define's metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BindMeta {
    pub wire: WireType,
    pub flags: u8,
    pub max_elements: u32,
    pub cont_flags: u64,
}

impl BindMeta {
    pub fn is_array(&self) -> bool {
        self.flags & BIND_ARRAY != 0
    }

    /// Sent after the other binds (outside PL/SQL, a buffer past the 32K string limit).
    pub fn is_long(&self, plsql: bool) -> bool {
        !plsql && self.wire.buffer_size > MAX_STRING_SIZE
    }

    /// The Oracle type the client bound, as the backend sees it: outside PL/SQL a character or
    /// binary bind past 32K is a LONG or LONG RAW, as Oracle takes it.
    pub fn ora_type_in(&self, plsql: bool) -> OraType {
        match self.wire.ora_type {
            ora::VARCHAR | ora::CHAR if self.is_long(plsql) => OraType::Long,
            ora::RAW if self.is_long(plsql) => OraType::LongRaw,
            _ => self.ora_type(),
        }
    }

    /// The Oracle type the client bound, as the backend sees it.
    pub fn ora_type(&self) -> OraType {
        let size = self.wire.buffer_size;
        let national = self.wire.csfrm == CSFRM_NCHAR;
        match self.wire.ora_type {
            ora::VARCHAR if national => OraType::NVarchar2(size / 2),
            ora::VARCHAR => OraType::Varchar2(size),
            ora::CHAR if national => OraType::NChar(size / 2),
            ora::CHAR => OraType::Char(size),
            ora::LONG => OraType::Long,
            ora::BINARY_FLOAT => OraType::BinaryFloat,
            ora::BINARY_DOUBLE => OraType::BinaryDouble,
            ora::DATE => OraType::Date,
            ora::TIMESTAMP => OraType::Timestamp(9),
            ora::TIMESTAMP_TZ => OraType::TimestampTz(9),
            ora::TIMESTAMP_LTZ => OraType::TimestampLtz(9),
            ora::INTERVAL_YM => OraType::IntervalYm(9),
            ora::INTERVAL_DS => OraType::IntervalDs(9, 9),
            ora::RAW => OraType::Raw(size),
            ora::LONG_RAW => OraType::LongRaw,
            ora::CLOB if national => OraType::NClob,
            ora::CLOB => OraType::Clob,
            ora::BLOB => OraType::Blob,
            ora::ROWID => OraType::Rowid,
            ora::UROWID => OraType::Urowid,
            ora::BOOLEAN => OraType::Boolean,
            _ => OraType::NUMBER,
        }
    }
}

/// Reads one bind / define metadata entry. `sb1_universal`: the scale (an SB1) is a universal
/// integer (JDBC thin) rather than a bare byte.
pub fn parse_meta(r: &mut Reader, field_version: u8, sb1_universal: bool) -> WireResult<BindMeta> {
    let ora_type = r.u8()?;
    let flags = r.u8()?;
    r.u8()?; // precision
    if sb1_universal {
        r.sb4()?; // scale
    } else {
        r.u8()?; // scale
    }
    let buffer_size = r.ub4()?;
    let max_elements = r.ub4()?;
    let cont_flags = r.ub8()?;
    if r.ub4()? > 0 {
        r.clr()?; // object type OID
    }
    r.ub4()?; // object type version
    r.ub4()?; // character set id
    let csfrm = r.u8()?;
    let max_chars = r.ub4()?; // maximum characters, or the LOB prefetch length
    if field_version >= FIELD_VERSION_12_2 {
        r.ub4()?; // oaccolid
    }
    Ok(BindMeta {
        wire: WireType {
            ora_type,
            csfrm,
            buffer_size,
            lob_prefetch: (cont_flags & CONT_LOB_PREFETCH != 0).then_some(max_chars),
        },
        flags,
        max_elements,
        cont_flags,
    })
}

/// A bind value as decoded: a value, or the error the statement must fail with.
pub type BindValue = Result<Datum, OraError>;

fn bad_value(what: &str) -> OraError {
    OraError::new(
        3115,
        format!("unsupported network datatype or representation ({what})"),
    )
}

fn text(bytes: &[u8], csfrm: u8) -> Datum {
    if csfrm == CSFRM_NCHAR {
        let units: Vec<u16> = bytes
            .chunks_exact(2)
            .map(|p| u16::from_be_bytes([p[0], p[1]]))
            .collect();
        Datum::text(String::from_utf16_lossy(&units))
    } else {
        Datum::text(String::from_utf8_lossy(bytes).into_owned())
    }
}

fn decode_present(bytes: &[u8], meta: &BindMeta) -> BindValue {
    let csfrm = meta.wire.csfrm;
    Ok(match meta.wire.ora_type {
        ora::VARCHAR | ora::CHAR | ora::LONG => text(bytes, csfrm),
        ora::NUMBER | ora::BINARY_INTEGER | ora::FLOAT => Datum::Number(
            decode_number(bytes)
                .ok_or_else(|| bad_value("NUMBER"))?
                .into(),
        ),
        ora::BINARY_FLOAT => {
            Datum::BinaryFloat(decode_binary_float(bytes).ok_or_else(|| bad_value("BINARY_FLOAT"))?)
        }
        ora::BINARY_DOUBLE => Datum::BinaryDouble(
            decode_binary_double(bytes).ok_or_else(|| bad_value("BINARY_DOUBLE"))?,
        ),
        ora::DATE => {
            let mut dt = decode_datetime(bytes).ok_or_else(|| bad_value("DATE"))?;
            dt.nanosecond = 0;
            Datum::Date(dt)
        }
        ora::TIMESTAMP | ora::TIMESTAMP_LTZ => {
            Datum::Timestamp(decode_datetime(bytes).ok_or_else(|| bad_value("TIMESTAMP"))?)
        }
        ora::TIMESTAMP_TZ => {
            let (at, offset_minutes) =
                decode_timestamp_tz(bytes).ok_or_else(|| bad_value("TIMESTAMP WITH TIME ZONE"))?;
            Datum::TimestampTz { at, offset_minutes }
        }
        ora::INTERVAL_YM => {
            Datum::IntervalYm(decode_interval_ym(bytes).ok_or_else(|| bad_value("INTERVAL"))?)
        }
        ora::INTERVAL_DS => {
            Datum::IntervalDs(decode_interval_ds(bytes).ok_or_else(|| bad_value("INTERVAL"))?)
        }
        ora::RAW | ora::LONG_RAW => Datum::Bytes(bytes.to_vec()),
        ora::ROWID | ora::UROWID => {
            Datum::Rowid(String::from_utf8_lossy(bytes).into_owned().into())
        }
        ora::BOOLEAN => Datum::Boolean(bytes.last() == Some(&1)),
        other => return Err(bad_value(&format!("bind type {other}"))),
    })
}

/// Reads one scalar value of a bind.
fn read_scalar(r: &mut Reader, meta: &BindMeta, lobs: &LobStore) -> WireResult<BindValue> {
    match meta.wire.ora_type {
        ora::CLOB | ora::BLOB => {
            let locator = r.two_lengths()?;
            if locator.is_empty() {
                return Ok(Ok(Datum::Null));
            }
            Ok(lobs.value_of(&locator))
        }
        ora::BOOLEAN if r.peek()? == ESCAPE_CHAR => {
            r.skip(2)?;
            Ok(Ok(Datum::Null))
        }
        ora::CURSOR => {
            // A REF CURSOR bind: either "no cursor yet" (1, 0) or a cursor id.
            r.ub4()?;
            r.ub4()?;
            Ok(Err(bad_value("REF CURSOR binds")))
        }
        _ => match r.clr()? {
            None => Ok(Ok(Datum::Null)),
            Some(bytes) => Ok(decode_present(&bytes, meta)),
        },
    }
}

/// Reads one bind's value (an array bind's elements are consumed and refused).
fn read_value(r: &mut Reader, meta: &BindMeta, lobs: &LobStore) -> WireResult<BindValue> {
    if !meta.is_array() {
        return read_scalar(r, meta, lobs);
    }
    let n = r.ub4()?;
    for _ in 0..n {
        let _element = read_scalar(r, meta, lobs)?;
    }
    Ok(Err(bad_value("PL/SQL array binds")))
}

/// Reads one row of bind values (after its ROW DATA byte), in statement order.
pub fn read_bind_row(
    r: &mut Reader,
    metas: &[BindMeta],
    plsql: bool,
    lobs: &LobStore,
) -> WireResult<Vec<BindValue>> {
    if r.u8()? != crate::response::MSG_ROW_DATA {
        return malformed("bind values without their ROW DATA byte");
    }
    let is_long = |m: &BindMeta| m.is_long(plsql);
    let mut values: Vec<Option<BindValue>> = vec![None; metas.len()];
    for long_pass in [false, true] {
        for (i, meta) in metas.iter().enumerate() {
            if is_long(meta) == long_pass {
                values[i] = Some(read_value(r, meta, lobs)?);
            }
        }
    }
    Ok(values
        .into_iter()
        .map(|v| v.unwrap_or(Ok(Datum::Null)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::Writer;

    fn meta(ora_type: u8, csfrm: u8, buffer_size: u32) -> BindMeta {
        BindMeta {
            wire: WireType {
                ora_type,
                csfrm,
                buffer_size,
                lob_prefetch: None,
            },
            flags: 1,
            max_elements: 0,
            cont_flags: 0,
        }
    }

    #[test]
    fn metadata_reads_as_python_writes_it() {
        let mut w = Writer::new();
        w.u8(ora::VARCHAR)
            .u8(1)
            .u8(0)
            .u8(0)
            .ub(4000)
            .ub(0)
            .ub(0)
            .ub(0)
            .ub(0)
            .ub(873)
            .u8(1)
            .ub(0)
            .ub(0);
        let m = parse_meta(&mut Reader::new(w.as_slice()), 12, false).unwrap();
        assert_eq!(m, meta(ora::VARCHAR, 1, 4000));
        assert_eq!(m.ora_type(), OraType::Varchar2(4000));
        assert!(parse_meta(&mut Reader::new(&w.as_slice()[..5]), 12, false).is_err());
        // JDBC: a TIMESTAMP bind with its scale as a universal integer.
        let jdbc = [
            0xb4u8, 3, 0, 1, 9, 1, 11, 0, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ];
        let m = parse_meta(&mut Reader::new(&jdbc), 12, true).unwrap();
        assert_eq!((m.wire.ora_type, m.wire.buffer_size), (ora::TIMESTAMP, 11));
    }

    #[test]
    fn long_binds_come_last() {
        let metas = [meta(ora::VARCHAR, 1, 100_000), meta(ora::NUMBER, 0, 22)];
        let mut w = Writer::new();
        w.u8(crate::response::MSG_ROW_DATA)
            .clr(&[0xc1, 8])
            .clr(b"big");
        let row = read_bind_row(
            &mut Reader::new(w.as_slice()),
            &metas,
            false,
            &LobStore::default(),
        )
        .unwrap();
        assert_eq!(row[0], Ok(Datum::text("big")));
        assert_eq!(row[1], Ok(Datum::int(7)));
    }

    #[test]
    fn nulls_and_national_text_decode() {
        let metas = [
            meta(ora::BOOLEAN, 0, 4),
            meta(ora::VARCHAR, 2, 8),
            meta(ora::BLOB, 0, 112),
        ];
        let mut w = Writer::new();
        w.u8(crate::response::MSG_ROW_DATA)
            .u8(ESCAPE_CHAR)
            .u8(1)
            .clr(&[0, b'h', 0, b'i'])
            .u8(0);
        let row = read_bind_row(
            &mut Reader::new(w.as_slice()),
            &metas,
            true,
            &LobStore::default(),
        )
        .unwrap();
        assert_eq!(
            row,
            vec![Ok(Datum::Null), Ok(Datum::text("hi")), Ok(Datum::Null)]
        );
    }
}
