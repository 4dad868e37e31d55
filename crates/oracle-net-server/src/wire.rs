//! The TTC encodings of integers and byte strings, read and written.
//!
//! TTC writes most integers in a "universal" form (a length byte, then that many big-endian
//! bytes; the high bit of the length marks a negative value) and byte strings with a one-byte
//! length, or, past 252 bytes, as chunks each prefixed by a universal length and ended by an
//! empty chunk. Requests from a client may span several packets, so a reader that runs out of
//! bytes says [`WireError::NeedMore`] (wait for the next packet) rather than
//! [`WireError::Malformed`] (the peer sent nonsense): the session loop tells the two apart.

use std::borrow::Cow;

/// The longest byte string written with a one-byte length.
pub const MAX_SHORT_LENGTH: usize = 252;
/// A length byte announcing a chunked ("long") byte string.
pub const LONG_LENGTH_INDICATOR: u8 = 254;
/// A length byte announcing NULL.
pub const NULL_LENGTH_INDICATOR: u8 = 255;
/// The chunk size used when writing long byte strings (what Oracle's clients use).
pub const CHUNK_SIZE: usize = 32767;

/// Why a read failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireError {
    /// The bytes end before the value does: more packets are needed.
    NeedMore,
    /// The bytes cannot be what the protocol says they are.
    Malformed(String),
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WireError::NeedMore => f.write_str("message truncated"),
            WireError::Malformed(why) => write!(f, "malformed message: {why}"),
        }
    }
}

impl std::error::Error for WireError {}

pub type WireResult<T> = Result<T, WireError>;

pub fn malformed<T>(why: impl Into<String>) -> WireResult<T> {
    Err(WireError::Malformed(why.into()))
}

/// A cursor over received bytes.
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The next byte without consuming it.
    pub fn peek(&self) -> WireResult<u8> {
        self.buf.get(self.pos).copied().ok_or(WireError::NeedMore)
    }

    pub fn bytes(&mut self, n: usize) -> WireResult<&'a [u8]> {
        let end = self.pos.checked_add(n).ok_or(WireError::NeedMore)?;
        let out = self.buf.get(self.pos..end).ok_or(WireError::NeedMore)?;
        self.pos = end;
        Ok(out)
    }

    pub fn skip(&mut self, n: usize) -> WireResult<()> {
        self.bytes(n).map(|_| ())
    }

    pub fn u8(&mut self) -> WireResult<u8> {
        let b = self.peek()?;
        self.pos += 1;
        Ok(b)
    }

    pub fn u16be(&mut self) -> WireResult<u16> {
        let b = self.bytes(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    pub fn u16le(&mut self) -> WireResult<u16> {
        let b = self.bytes(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// A universal integer: (magnitude, negative).
    fn universal(&mut self, max_len: u8) -> WireResult<(u64, bool)> {
        let len_byte = self.u8()?;
        let negative = len_byte & 0x80 != 0;
        let len = len_byte & 0x7f;
        if len > max_len {
            return malformed(format!(
                "integer of {len} bytes where at most {max_len} fit"
            ));
        }
        let mut value: u64 = 0;
        for &b in self.bytes(usize::from(len))? {
            value = (value << 8) | u64::from(b);
        }
        Ok((value, negative))
    }

    fn unsigned(&mut self, max_len: u8) -> WireResult<u64> {
        match self.universal(max_len)? {
            (_, true) => malformed("negative value where an unsigned one belongs"),
            (v, false) => Ok(v),
        }
    }

    pub fn ub2(&mut self) -> WireResult<u16> {
        let v = self.unsigned(4)?;
        u16::try_from(v).or_else(|_| malformed(format!("ub2 value {v} out of range")))
    }

    pub fn ub4(&mut self) -> WireResult<u32> {
        let v = self.unsigned(4)?;
        u32::try_from(v).or_else(|_| malformed(format!("ub4 value {v} out of range")))
    }

    pub fn ub8(&mut self) -> WireResult<u64> {
        self.unsigned(8)
    }

    pub fn sb4(&mut self) -> WireResult<i32> {
        let (v, neg) = self.universal(4)?;
        let v = i64::try_from(v).or_else(|_| malformed("sb4 out of range"))?;
        let v = if neg { -v } else { v };
        i32::try_from(v).or_else(|_| malformed("sb4 out of range"))
    }

    #[cfg(test)]
    pub fn sb8(&mut self) -> WireResult<i64> {
        let (v, neg) = self.universal(8)?;
        let v = i64::try_from(v).or_else(|_| malformed("sb8 out of range"))?;
        Ok(if neg { -v } else { v })
    }

    /// A byte string with a one-byte length (chunked past 252 bytes). `None` is NULL
    /// (length 0 or 255).
    pub fn clr(&mut self) -> WireResult<Option<Cow<'a, [u8]>>> {
        let len = self.u8()?;
        match len {
            0 | NULL_LENGTH_INDICATOR => Ok(None),
            LONG_LENGTH_INDICATOR => {
                let mut out = Vec::new();
                loop {
                    let chunk = self.ub4()?;
                    if chunk == 0 {
                        break;
                    }
                    out.extend_from_slice(self.bytes(chunk as usize)?);
                }
                Ok(Some(Cow::Owned(out)))
            }
            n => Ok(Some(Cow::Borrowed(self.bytes(usize::from(n))?))),
        }
    }

    /// [`Reader::clr`] with NULL as an empty string.
    pub fn clr_bytes(&mut self) -> WireResult<Vec<u8>> {
        Ok(self.clr()?.map(Cow::into_owned).unwrap_or_default())
    }

    /// A universal length, then (if not zero) a byte string with its own length.
    pub fn two_lengths(&mut self) -> WireResult<Vec<u8>> {
        let n = self.ub4()?;
        if n == 0 {
            return Ok(Vec::new());
        }
        self.clr_bytes()
    }

    /// [`Reader::two_lengths`] as text.
    pub fn two_lengths_text(&mut self) -> WireResult<String> {
        let bytes = self.two_lengths()?;
        String::from_utf8(bytes).or_else(|_| malformed("text is not UTF-8"))
    }
}

/// A growing buffer of bytes to send.
#[derive(Default)]
pub struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    pub fn new() -> Self {
        Writer::default()
    }

    pub fn into_inner(self) -> Vec<u8> {
        self.buf
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Drops what was written after the first `len` bytes (a row that failed half way).
    pub fn truncate(&mut self, len: usize) {
        self.buf.truncate(len);
    }

    /// Room for `more` bytes, so a batch of rows grows the buffer once.
    pub fn reserve(&mut self, more: usize) {
        self.buf.reserve(more);
    }

    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }

    pub fn u16be(&mut self, v: u16) -> &mut Self {
        self.buf.extend_from_slice(&v.to_be_bytes());
        self
    }

    pub fn u16le(&mut self, v: u16) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    pub fn u32be(&mut self, v: u32) -> &mut Self {
        self.buf.extend_from_slice(&v.to_be_bytes());
        self
    }

    pub fn raw(&mut self, data: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(data);
        self
    }

    /// A universal unsigned integer in the fewest of 1, 2, 4 or 8 bytes (as Oracle writes them).
    pub fn ub(&mut self, v: u64) -> &mut Self {
        if v == 0 {
            return self.u8(0);
        }
        let len: u8 = if v <= 0xff {
            1
        } else if v <= 0xffff {
            2
        } else if v <= 0xffff_ffff {
            4
        } else {
            8
        };
        self.u8(len);
        let bytes = v.to_be_bytes();
        self.raw(&bytes[8 - usize::from(len)..])
    }

    /// A universal signed integer.
    pub fn sb(&mut self, v: i64) -> &mut Self {
        if v >= 0 {
            return self.ub(v.unsigned_abs());
        }
        let magnitude = v.unsigned_abs();
        let len: u8 = if magnitude <= 0xff {
            1
        } else if magnitude <= 0xffff {
            2
        } else if magnitude <= 0xffff_ffff {
            4
        } else {
            8
        };
        self.u8(len | 0x80);
        let bytes = magnitude.to_be_bytes();
        self.raw(&bytes[8 - usize::from(len)..])
    }

    /// A byte string with its length (chunked past 252 bytes); empty is written as NULL.
    pub fn clr(&mut self, data: &[u8]) -> &mut Self {
        if data.len() <= MAX_SHORT_LENGTH {
            // Cannot truncate: at most 252.
            self.u8(data.len() as u8);
            return self.raw(data);
        }
        self.u8(LONG_LENGTH_INDICATOR);
        for chunk in data.chunks(CHUNK_SIZE) {
            self.ub(chunk.len() as u64);
            self.raw(chunk);
        }
        self.ub(0)
    }

    /// A universal length, then (if not empty) the bytes with their own length.
    pub fn two_lengths(&mut self, data: &[u8]) -> &mut Self {
        self.ub(data.len() as u64);
        if !data.is_empty() {
            self.clr(data);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn universal_integers_round_trip() {
        for v in [0u64, 1, 255, 256, 65535, 65536, u32::MAX as u64, u64::MAX] {
            let mut w = Writer::new();
            w.ub(v);
            let bytes = w.into_inner();
            assert_eq!(Reader::new(&bytes).ub8().unwrap(), v, "{bytes:?}");
        }
        for v in [0i64, -1, -255, -256, 70000, -70000, i32::MIN as i64 + 1] {
            let mut w = Writer::new();
            w.sb(v);
            let bytes = w.into_inner();
            assert_eq!(Reader::new(&bytes).sb8().unwrap(), v);
        }
        assert_eq!(Writer::new().ub(300).as_slice(), &[2, 1, 44]);
    }

    #[test]
    fn long_strings_are_chunked() {
        let data = vec![7u8; 70000];
        let mut w = Writer::new();
        w.clr(&data);
        let bytes = w.into_inner();
        assert_eq!(bytes[0], LONG_LENGTH_INDICATOR);
        let back = Reader::new(&bytes).clr().unwrap().unwrap();
        assert_eq!(back.as_ref(), data.as_slice());
        assert_eq!(Reader::new(&bytes[..100]).clr(), Err(WireError::NeedMore));
    }

    #[test]
    fn oversized_integers_are_malformed() {
        assert!(matches!(
            Reader::new(&[9, 0]).ub4(),
            Err(WireError::Malformed(_))
        ));
        assert!(matches!(
            Reader::new(&[0x81, 1]).ub4(),
            Err(WireError::Malformed(_))
        ));
        assert_eq!(Reader::new(&[4, 0]).ub4(), Err(WireError::NeedMore));
    }
}
