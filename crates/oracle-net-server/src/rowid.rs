//! ROWIDs between their 18-character extended text (what clients print) and the wire.
//!
//! The text is four base-64 numbers: the data object number (6 characters), the relative file
//! number (3), the block (6) and the slot in the block (3). A ROWID column sends the four
//! numbers as universal integers; a UROWID sends a byte 1 followed by them as big-endian
//! integers, or, for a logical ROWID (`*` followed by base-64), a byte 2 followed by its bytes.

use crate::wire::Writer;

#[cfg(test)]
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// A base-64 character's value (a search of the alphabet was a fiftieth of a served fetch's
/// CPU: one ROWID of 18 characters a row).
fn digit(c: u8) -> Option<u64> {
    Some(u64::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    }))
}

fn number(text: &[u8]) -> Option<u64> {
    text.iter()
        .try_fold(0u64, |acc, &c| Some(acc << 6 | digit(c)?))
}

/// The parts of a physical ROWID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowidParts {
    pub object: u32,
    pub file: u16,
    pub block: u32,
    pub slot: u16,
}

/// Parses an 18-character extended ROWID.
pub fn parse_physical(text: &str) -> Option<RowidParts> {
    let t = text.as_bytes();
    if t.len() != 18 {
        return None;
    }
    Some(RowidParts {
        object: u32::try_from(number(&t[0..6])?).ok()?,
        file: u16::try_from(number(&t[6..9])?).ok()?,
        block: u32::try_from(number(&t[9..15])?).ok()?,
        slot: u16::try_from(number(&t[15..18])?).ok()?,
    })
}

#[cfg(test)]
fn text_of(mut value: u64, len: usize, out: &mut String) {
    let mut chars = vec![b'A'; len];
    for c in chars.iter_mut().rev() {
        *c = ALPHABET[(value & 63) as usize];
        value >>= 6;
    }
    out.extend(chars.into_iter().map(char::from));
}

/// The 18-character text of a physical ROWID.
#[cfg(test)]
pub fn physical_text(p: &RowidParts) -> String {
    let mut s = String::with_capacity(18);
    text_of(u64::from(p.object), 6, &mut s);
    text_of(u64::from(p.file), 3, &mut s);
    text_of(u64::from(p.block), 6, &mut s);
    text_of(u64::from(p.slot), 3, &mut s);
    s
}

/// A ROWID column value: a length byte, then the parts as universal integers.
pub fn write_rowid(w: &mut Writer, p: &RowidParts) {
    let mut body = Writer::new();
    body.ub(u64::from(p.object));
    body.ub(u64::from(p.file));
    body.u8(0);
    body.ub(u64::from(p.block));
    body.ub(u64::from(p.slot));
    w.u8(body.len() as u8);
    w.raw(body.as_slice());
}

/// The bytes of a UROWID.
pub fn urowid_bytes(text: &str) -> Option<Vec<u8>> {
    if let Some(p) = parse_physical(text) {
        let mut out = vec![1u8];
        out.extend_from_slice(&p.object.to_be_bytes());
        out.extend_from_slice(&p.file.to_be_bytes());
        out.extend_from_slice(&p.block.to_be_bytes());
        out.extend_from_slice(&p.slot.to_be_bytes());
        return Some(out);
    }
    let logical = text.strip_prefix('*')?.as_bytes();
    let mut out = vec![2u8];
    for chunk in logical.chunks(4) {
        let bits = number(chunk)? << (6 * (4 - chunk.len()));
        let bytes = (bits as u32).to_be_bytes();
        let take = match chunk.len() {
            4 => 3,
            3 => 2,
            2 => 1,
            _ => return None,
        };
        out.extend_from_slice(&bytes[1..1 + take]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rowids_round_trip_through_their_parts() {
        let text = "AAAR3sAAEAAAACXAAA";
        let p = parse_physical(text).unwrap();
        assert_eq!(
            p,
            RowidParts {
                object: 73196,
                file: 4,
                block: 151,
                slot: 0
            }
        );
        assert_eq!(physical_text(&p), text);
        assert_eq!(parse_physical("AAAR3sAAEAAAACXAA"), None);
        assert_eq!(parse_physical("AAAR3sAAEAAAACXAA!"), None);
    }

    /// Every byte's value is its place in the alphabet, and only the alphabet's bytes have one.
    #[test]
    fn each_digit_is_its_place_in_the_alphabet() {
        for c in 0..=255u8 {
            let place = ALPHABET.iter().position(|&a| a == c).map(|p| p as u64);
            assert_eq!(digit(c), place, "{c}");
        }
    }

    #[test]
    fn urowids_carry_a_kind_byte() {
        let b = urowid_bytes("AAAR3sAAEAAAACXAAA").unwrap();
        assert_eq!(b, [1, 0, 1, 0x1d, 0xec, 0, 4, 0, 0, 0, 0x97, 0, 0]);
        assert_eq!(urowid_bytes("*BAMAAAAA"), Some(vec![2, 4, 3, 0, 0, 0, 0]));
        assert_eq!(urowid_bytes("plain"), None);
    }
}
