//! LOBs: locators handed to clients, the values behind them, and the LOB operations (TTC
//! function 96) clients read and write them with.
//!
//! A CLOB, NCLOB or BLOB value sent as a locator is kept in this connection's store until the
//! client frees it. Locators are 40 bytes; the flag bytes clients look at say: BLOB or not
//! (byte 4), initialised (5), character data in a varying-width character set, i.e. AL16UTF16
//! (6), and temporary (7), which makes the thin clients send a "free temporary LOB" piggyback
//! once they are done with it. Bytes 8..16 mark the locator as ours, 16..24 hold its id.
//! Character LOB offsets and amounts count UTF-16 code units, as Oracle's do; their data
//! travels as UTF-16 big-endian (what the varying-width flag tells clients to expect).

use std::collections::HashMap;

use oracle_datum::{Datum, OraError};

use crate::codec::{ora, WireType, CSFRM_NCHAR};
use crate::wire::{Reader, WireResult, Writer};

pub const LOCATOR_LEN: usize = 40;
const MAGIC: &[u8; 8] = b"ORAEMULB";
/// The largest LOB a client may write here (characters or bytes): a peer's offset must not
/// make the server allocate without bound.
const MAX_LOB_UNITS: u64 = 1 << 30;
/// The chunk size announced for every LOB (Oracle's usual value for an 8K block).
pub const CHUNK_SIZE: u32 = 8132;

pub const OP_GET_LENGTH: u32 = 0x0001;
pub const OP_READ: u32 = 0x0002;
pub const OP_TRIM: u32 = 0x0020;
pub const OP_WRITE: u32 = 0x0040;
pub const OP_CREATE_TEMP: u32 = 0x0110;
pub const OP_FREE_TEMP: u32 = 0x0111;
pub const OP_GET_CHUNK_SIZE: u32 = 0x4000;
pub const OP_OPEN: u32 = 0x8000;
pub const OP_CLOSE: u32 = 0x10000;
pub const OP_IS_OPEN: u32 = 0x11000;
pub const OP_ARRAY: u32 = 0x80000;

const MSG_LOB_DATA: u8 = 14;
const MSG_PARAMETER: u8 = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Clob = 1,
    NClob = 2,
    Blob = 3,
}

#[derive(Debug)]
enum Data {
    /// CLOB / NCLOB content as UTF-16 code units.
    Chars(Vec<u16>),
    Bytes(Vec<u8>),
}

impl Data {
    fn len(&self) -> usize {
        match self {
            Data::Chars(c) => c.len(),
            Data::Bytes(b) => b.len(),
        }
    }
}

#[derive(Debug)]
struct Lob {
    data: Data,
    open: bool,
}

/// The LOB values of one connection, by locator id.
#[derive(Default)]
pub struct LobStore {
    next_id: u64,
    lobs: HashMap<u64, Lob>,
}

fn invalid_locator() -> OraError {
    OraError::new(22275, "invalid LOB locator specified")
}

fn locator(id: u64, kind: Kind) -> [u8; LOCATOR_LEN] {
    let mut l = [0u8; LOCATOR_LEN];
    l[..2].copy_from_slice(&((LOCATOR_LEN - 2) as u16).to_be_bytes());
    l[2..4].copy_from_slice(&1u16.to_be_bytes());
    l[4] = if kind == Kind::Blob { 0x01 } else { 0 };
    l[5] = 0x08;
    l[6] = if kind == Kind::Blob { 0 } else { 0x80 };
    l[7] = 0x01;
    l[8..16].copy_from_slice(MAGIC);
    l[16..24].copy_from_slice(&id.to_be_bytes());
    l[24] = kind as u8;
    l
}

fn locator_id(loc: &[u8]) -> Option<u64> {
    if loc.len() != LOCATOR_LEN || &loc[8..16] != MAGIC {
        return None;
    }
    Some(u64::from_be_bytes(loc[16..24].try_into().ok()?))
}

fn utf16_be(units: &[u16]) -> Vec<u8> {
    units.iter().flat_map(|u| u.to_be_bytes()).collect()
}

fn units_of(bytes: &[u8]) -> Vec<u16> {
    bytes
        .chunks_exact(2)
        .map(|p| u16::from_be_bytes([p[0], p[1]]))
        .collect()
}

impl LobStore {
    fn insert(&mut self, kind: Kind, data: Data) -> u64 {
        self.next_id += 1;
        let _ = kind; // the kind travels in the locator
        self.lobs.insert(self.next_id, Lob { data, open: false });
        self.next_id
    }

    /// Writes a LOB column (or OUT bind) value: its locator with the size and chunk size.
    pub fn write_locator(
        &mut self,
        w: &mut Writer,
        d: &Datum,
        wire: &WireType,
    ) -> Result<(), OraError> {
        let (kind, data) = match (wire.ora_type, d) {
            (ora::BLOB, Datum::Bytes(b)) => (Kind::Blob, Data::Bytes(b.clone())),
            (ora::CLOB, Datum::Text(s)) => {
                let kind = if wire.csfrm == CSFRM_NCHAR {
                    Kind::NClob
                } else {
                    Kind::Clob
                };
                (kind, Data::Chars(s.encode_utf16().collect()))
            }
            _ => {
                return Err(OraError::new(
                    932,
                    format!("inconsistent datatypes: {d:?} is not a LOB value"),
                ));
            }
        };
        let size = data.len() as u64;
        let prefetched = match (wire.lob_prefetch, &data) {
            // At most `n` bytes of data: JDBC reads no more than that.
            (Some(n), Data::Chars(c)) if n > 0 => Some(utf16_be(&c[..c.len().min(n as usize / 2)])),
            (Some(n), Data::Bytes(b)) if n > 0 => Some(b[..b.len().min(n as usize)].to_vec()),
            _ => None,
        };
        let id = self.insert(kind, data);
        w.ub(LOCATOR_LEN as u64);
        if wire.lob_prefetch.is_some() {
            w.ub(size);
            w.ub(u64::from(CHUNK_SIZE));
        }
        if let Some(bytes) = prefetched {
            if kind != Kind::Blob {
                // The data's character set (AL16UTF16, as LOB reads send it) and form of use.
                w.u8(1).ub(u64::from(crate::codec::CHARSET_UTF16));
                w.u8(if kind == Kind::NClob { CSFRM_NCHAR } else { 1 });
            }
            w.clr(&bytes);
        }
        w.clr(&locator(id, kind));
        Ok(())
    }

    /// The value behind a locator a client bound.
    pub fn value_of(&self, loc: &[u8]) -> Result<Datum, OraError> {
        let lob = locator_id(loc)
            .and_then(|id| self.lobs.get(&id))
            .ok_or_else(invalid_locator)?;
        Ok(match &lob.data {
            Data::Chars(c) => Datum::text(String::from_utf16_lossy(c)),
            Data::Bytes(b) if b.is_empty() => Datum::Null,
            Data::Bytes(b) => Datum::Bytes(b.clone()),
        })
    }

    /// Forgets LOBs a client freed (locators back to back).
    pub fn free(&mut self, locators: &[u8]) {
        for loc in locators.chunks(LOCATOR_LEN) {
            if let Some(id) = locator_id(loc) {
                self.lobs.remove(&id);
            }
        }
    }
}

/// A LOB operation request (function 96, or the same layout as a piggyback).
#[derive(Debug)]
pub struct LobOp {
    pub operation: u32,
    pub locator: Vec<u8>,
    pub source_offset: u64,
    pub dest_offset: u64,
    pub charset: Option<u32>,
    pub data: Option<Vec<u8>>,
    pub amount: Option<u64>,
}

/// Reads a LOB operation (after its function or piggyback header).
pub fn parse_lob_op(r: &mut Reader) -> WireResult<LobOp> {
    let has_source = r.u8()? != 0;
    let source_len = r.ub4()? as usize;
    let has_dest = r.u8()? != 0;
    let dest_length = r.ub4()?;
    r.ub4()?; // short source offset
    r.ub4()?; // short destination offset
    let has_charset = r.u8()? != 0;
    r.u8()?; // pointer (short amount)
    r.u8()?; // pointer (NULL LOB)
    let operation = r.ub4()?;
    r.u8()?; // pointer (SCN array)
    r.ub4()?; // SCN array length
    let source_offset = r.ub8()?;
    let dest_offset = r.ub8()?;
    let has_amount = r.u8()? != 0;
    for _ in 0..3 {
        r.u8()?; // pointer (array LOB field)
        r.ub4()?;
    }
    let locator = if has_source {
        r.bytes(source_len)?.to_vec()
    } else {
        Vec::new()
    };
    if has_dest {
        r.bytes(dest_length as usize)?;
    }
    let charset = if has_charset { Some(r.ub4()?) } else { None };
    let data = if operation & !OP_ARRAY == OP_WRITE && r.peek()? == MSG_LOB_DATA {
        r.u8()?;
        Some(r.clr_bytes()?)
    } else {
        None
    };
    let amount = if has_amount { Some(r.ub8()?) } else { None };
    Ok(LobOp {
        operation,
        locator,
        source_offset,
        dest_offset,
        charset,
        data,
        amount,
    })
}

impl LobStore {
    fn lob_mut(&mut self, loc: &[u8]) -> Result<&mut Lob, OraError> {
        locator_id(loc)
            .and_then(|id| self.lobs.get_mut(&id))
            .ok_or_else(invalid_locator)
    }

    /// Carries out a LOB operation; writes its LOB DATA and PARAMETER messages (the caller adds
    /// the closing status).
    pub fn perform(&mut self, op: &LobOp, w: &mut Writer) -> Result<(), OraError> {
        let mut locator_out = op.locator.clone();
        let mut amount_out: Option<i64> = None;
        let mut bool_out: Option<bool> = None;
        let mut charset_out: Option<u16> = None;
        match op.operation {
            OP_CREATE_TEMP => {
                let kind = match (op.dest_offset as u8, op.source_offset as u8) {
                    (ora::BLOB, _) => Kind::Blob,
                    (_, CSFRM_NCHAR) => Kind::NClob,
                    _ => Kind::Clob,
                };
                let data = if kind == Kind::Blob {
                    Data::Bytes(Vec::new())
                } else {
                    Data::Chars(Vec::new())
                };
                let id = self.insert(kind, data);
                let fresh = locator(id, kind);
                locator_out = fresh[..op.locator.len().min(LOCATOR_LEN)].to_vec();
                locator_out.resize(op.locator.len(), 0);
                charset_out = Some(op.charset.unwrap_or(0) as u16);
            }
            OP_READ => {
                let lob = self.lob_mut(&op.locator)?;
                let start = op.source_offset.max(1) as usize - 1;
                let want = op.amount.unwrap_or(0) as usize;
                let len = lob.data.len();
                let end = start.saturating_add(want).min(len);
                let (bytes, got) = match &lob.data {
                    _ if start >= len => (Vec::new(), 0),
                    Data::Chars(c) => (utf16_be(&c[start..end]), end - start),
                    Data::Bytes(b) => (b[start..end].to_vec(), end - start),
                };
                if !bytes.is_empty() {
                    w.u8(MSG_LOB_DATA);
                    w.clr(&bytes);
                }
                amount_out = Some(got as i64);
            }
            OP_WRITE => {
                let lob = self.lob_mut(&op.locator)?;
                let at = op.source_offset.max(1).saturating_sub(1);
                let data = op.data.as_deref().unwrap_or(&[]);
                if at.saturating_add(data.len() as u64) > MAX_LOB_UNITS {
                    return Err(OraError::new(
                        22925,
                        "operation would exceed maximum size allowed for a LOB value",
                    ));
                }
                let at = at as usize;
                match &mut lob.data {
                    Data::Chars(c) => splice(c, at, &units_of(data), 0x20),
                    Data::Bytes(b) => splice(b, at, data, 0),
                }
            }
            OP_TRIM => {
                let lob = self.lob_mut(&op.locator)?;
                let new_len = op.amount.unwrap_or(0) as usize;
                match &mut lob.data {
                    Data::Chars(c) => c.truncate(new_len),
                    Data::Bytes(b) => b.truncate(new_len),
                }
                amount_out = op.amount.map(|a| a as i64);
            }
            OP_GET_LENGTH => amount_out = Some(self.lob_mut(&op.locator)?.data.len() as i64),
            OP_GET_CHUNK_SIZE => {
                self.lob_mut(&op.locator)?;
                amount_out = Some(i64::from(CHUNK_SIZE));
            }
            OP_OPEN | OP_CLOSE => {
                self.lob_mut(&op.locator)?.open = op.operation == OP_OPEN;
                amount_out = op.amount.map(|a| a as i64);
            }
            OP_IS_OPEN => bool_out = Some(self.lob_mut(&op.locator)?.open),
            OP_FREE_TEMP | 0x80111 => self.free(&op.locator),
            other => {
                return Err(OraError::new(
                    22276,
                    format!("unsupported LOB operation {other:#x}"),
                ));
            }
        }
        w.u8(MSG_PARAMETER);
        w.raw(&locator_out);
        if let Some(cs) = charset_out {
            w.ub(u64::from(cs));
            w.u8(0);
        } else if op.amount.is_some() {
            w.sb(amount_out.unwrap_or(0));
        }
        if let Some(b) = bool_out {
            w.u8(u8::from(b));
        }
        Ok(())
    }
}

/// Writes `data` at `at`, padding a gap with `fill`.
fn splice<T: Copy>(target: &mut Vec<T>, at: usize, data: &[T], fill: T) {
    if target.len() < at {
        target.resize(at, fill);
    }
    let end = at + data.len();
    if target.len() < end {
        target.resize(end, fill);
    }
    target[at..end].copy_from_slice(data);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(store: &mut LobStore, loc: &[u8], offset: u64, amount: u64) -> Vec<u8> {
        let op = LobOp {
            operation: OP_READ,
            locator: loc.to_vec(),
            source_offset: offset,
            dest_offset: 0,
            charset: None,
            data: None,
            amount: Some(amount),
        };
        let mut w = Writer::new();
        store.perform(&op, &mut w).unwrap();
        w.into_inner()
    }

    #[test]
    fn clobs_read_back_in_utf16_slices() {
        let mut store = LobStore::default();
        let mut w = Writer::new();
        let wire = WireType {
            ora_type: ora::CLOB,
            csfrm: 1,
            buffer_size: 4000,
            lob_prefetch: Some(0),
        };
        store
            .write_locator(&mut w, &Datum::text("héllo"), &wire)
            .unwrap();
        let bytes = w.into_inner();
        let loc = &bytes[bytes.len() - LOCATOR_LEN..];
        let out = read(&mut store, loc, 2, 2);
        // LOB DATA "él" in UTF-16, then the locator and the amount read.
        assert_eq!(&out[..6], &[MSG_LOB_DATA, 4, 0, 0xe9, 0, b'l']);
        assert_eq!(&out[out.len() - 2..], &[1, 2]);
        assert_eq!(store.value_of(loc).unwrap(), Datum::text("héllo"));
        store.free(loc);
        assert!(store.value_of(loc).is_err());
    }

    #[test]
    fn lob_ops_parse_from_python_layout() {
        let mut w = Writer::new();
        w.u8(1)
            .ub(40)
            .u8(0)
            .ub(0)
            .ub(0)
            .ub(0)
            .u8(0)
            .u8(0)
            .u8(0)
            .ub(u64::from(OP_READ));
        w.u8(0)
            .u8(0)
            .ub(1)
            .ub(0)
            .u8(1)
            .raw(&[0; 6])
            .raw(&[9; 40])
            .ub(100);
        let bytes = w.into_inner();
        let op = parse_lob_op(&mut Reader::new(&bytes)).unwrap();
        assert_eq!(
            (op.operation, op.source_offset, op.amount),
            (OP_READ, 1, Some(100))
        );
        assert_eq!(op.locator, vec![9; 40]);
        assert!(parse_lob_op(&mut Reader::new(&bytes[..30])).is_err());
    }
}
