//! Oracle's character sets: the database's (NLS_CHARACTERSET, for VARCHAR2, CHAR, LONG, CLOB and
//! XMLTYPE text) and the national one (NLS_NCHAR_CHARACTERSET, for NCHAR, NVARCHAR2 and NCLOB).
//!
//! They matter where capture sees a value's bytes rather than text the driver converted:
//! `HEXTORAW('…')` of a text column's storage bytes (LogMiner after a dictionary mismatch or for
//! an object it does not know), an `XML_REDO := HEXTORAW('…')` document; and in the order of
//! keys: with `NLS_COMP=BINARY` / `NLS_SORT=BINARY` Oracle compares character data by the bytes
//! of its encoded form ("binary sorting … based on the numeric value of characters defined by the
//! encoding scheme", Globalization Support Guide, "Linguistic Sorting and Matching"), so a
//! WE8MSWIN1252 database puts '€' (0x80) before 'é' (0xE9), which UTF-8 orders the other way, and
//! AL16UTF16 puts a supplementary character (a surrogate pair, 0xD800..) before U+E000..U+FFFF.
//!
//! The sets: AL32UTF8 (UTF-8), UTF8 (Oracle's UTF8 is CESU-8: a supplementary character as two
//! 3-byte surrogates, so its byte order is UTF-16's), AL16UTF16 (UTF-16 big-endian, national
//! only), WE8MSWIN1252 (Windows code page 1252, 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined, as in
//! Microsoft's table) and WE8ISO8859P1 (ISO 8859-1: byte n is U+00n). WE8MSWIN1252 goes through
//! `encoding_rs`; its WHATWG windows-1252 maps the five undefined bytes to C1 controls, which
//! Oracle's table does not, so those are refused here. A character a single-byte set cannot hold
//! is stored as its replacement character '¿' (0xBF), as Oracle converts client text.

use crate::types::ColumnType;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// One of Oracle's character sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Charset {
    #[default]
    Al32Utf8,
    /// Oracle's `UTF8`: CESU-8.
    Utf8,
    /// UTF-16 big-endian; a national character set only.
    Al16Utf16,
    We8MsWin1252,
    We8Iso8859P1,
    /// A set capture does not decode (NLS_DATABASE_PARAMETERS named another): text arriving
    /// as bytes is an error; keys are ordered as AL32UTF8's.
    Unsupported,
}

/// The bytes of windows-1252 that Oracle's WE8MSWIN1252 (and Microsoft's table) leave undefined.
const CP1252_UNDEFINED: [u8; 5] = [0x81, 0x8D, 0x8F, 0x90, 0x9D];

impl Charset {
    pub const ALL: [Charset; 5] = [
        Charset::Al32Utf8,
        Charset::Utf8,
        Charset::Al16Utf16,
        Charset::We8MsWin1252,
        Charset::We8Iso8859P1,
    ];

    /// The name NLS_DATABASE_PARAMETERS shows.
    pub fn name(self) -> &'static str {
        match self {
            Charset::Al32Utf8 => "AL32UTF8",
            Charset::Utf8 => "UTF8",
            Charset::Al16Utf16 => "AL16UTF16",
            Charset::We8MsWin1252 => "WE8MSWIN1252",
            Charset::We8Iso8859P1 => "WE8ISO8859P1",
            Charset::Unsupported => "an unsupported character set",
        }
    }

    /// A set by its Oracle name (any case); `None` for one capture does not know.
    pub fn parse(name: &str) -> Option<Charset> {
        Charset::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name.trim()))
    }

    /// One byte a character (WE8…).
    pub fn is_single_byte(self) -> bool {
        matches!(self, Charset::We8MsWin1252 | Charset::We8Iso8859P1)
    }

    /// What Oracle stores for a character the set cannot hold.
    pub fn replacement(self) -> char {
        '¿'
    }

    /// The byte of `c` in a single-byte set; `None` when the set cannot hold it (or is not
    /// single-byte).
    fn byte_of(self, c: char) -> Option<u8> {
        let u = c as u32;
        match self {
            _ if u < 0x80 && self.is_single_byte() => Some(u as u8),
            Charset::We8Iso8859P1 => u8::try_from(u).ok(),
            Charset::We8MsWin1252 => {
                if (0xA0..=0xFF).contains(&u) {
                    return Some(u as u8);
                }
                // 0x80..0x9F: what encoding_rs's windows-1252 encoder makes of it, less the
                // bytes WHATWG fills with C1 controls.
                let mut encoder = encoding_rs::WINDOWS_1252.new_encoder();
                let mut utf8 = [0u8; 4];
                let mut out = [0u8; 4];
                let (result, _, written) = encoder.encode_from_utf8_without_replacement(
                    c.encode_utf8(&mut utf8),
                    &mut out,
                    true,
                );
                match result {
                    encoding_rs::EncoderResult::InputEmpty
                        if written == 1 && !CP1252_UNDEFINED.contains(&out[0]) =>
                    {
                        Some(out[0])
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Whether the set holds every character of `s`.
    pub fn holds(self, s: &str) -> bool {
        !self.is_single_byte() || s.chars().all(|c| self.byte_of(c).is_some())
    }

    /// `s` as a column in this set stores it: characters the set cannot hold become
    /// [`Charset::replacement`].
    pub fn conform(self, s: String) -> String {
        if self.holds(&s) {
            return s;
        }
        s.chars()
            .map(|c| {
                if self.byte_of(c).is_some() {
                    c
                } else {
                    self.replacement()
                }
            })
            .collect()
    }

    /// `s` encoded in this set; characters it cannot hold as its replacement character.
    pub fn encode(self, s: &str) -> Vec<u8> {
        match self {
            Charset::Al32Utf8 | Charset::Unsupported => s.as_bytes().to_vec(),
            Charset::Al16Utf16 => s.encode_utf16().flat_map(u16::to_be_bytes).collect(),
            Charset::Utf8 => {
                let mut out = Vec::with_capacity(s.len());
                for unit in s.encode_utf16() {
                    // Each UTF-16 code unit in UTF-8's 1 to 3 byte form.
                    let u = u32::from(unit);
                    if u < 0x80 {
                        out.push(u as u8);
                    } else if u < 0x800 {
                        out.extend([0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8]);
                    } else {
                        out.extend([
                            0xE0 | (u >> 12) as u8,
                            0x80 | ((u >> 6) & 0x3F) as u8,
                            0x80 | (u & 0x3F) as u8,
                        ]);
                    }
                }
                out
            }
            Charset::We8MsWin1252 | Charset::We8Iso8859P1 => {
                s.chars().map(|c| self.byte_of(c).unwrap_or(0xBF)).collect()
            }
        }
    }

    /// Bytes of `s` in this set (what byte-semantics lengths count).
    pub fn byte_len(self, s: &str) -> usize {
        match self {
            Charset::Al32Utf8 | Charset::Unsupported => s.len(),
            Charset::We8MsWin1252 | Charset::We8Iso8859P1 => s.chars().count(),
            Charset::Al16Utf16 => s.encode_utf16().count() * 2,
            Charset::Utf8 => s
                .chars()
                .map(|c| match c.len_utf8() {
                    4 => 6,
                    n => n,
                })
                .sum(),
        }
    }

    /// Text from its bytes in this set. An error (never a replacement character) when the
    /// bytes are not text of the set: the message says which byte.
    pub fn decode(self, b: &[u8]) -> Result<String, String> {
        let bad =
            |at: usize, what: &str| Err(format!("{what} at byte {at} is not {} text", self.name()));
        match self {
            Charset::Unsupported => Err(
                "text in a character set capture does not decode (doctor's connection.character-sets check names it)"
                    .into(),
            ),
            Charset::Al32Utf8 => match std::str::from_utf8(b) {
                Ok(s) => Ok(s.to_string()),
                Err(e) => bad(e.valid_up_to(), "the byte sequence"),
            },
            Charset::We8Iso8859P1 => Ok(b.iter().map(|&x| char::from(x)).collect()),
            Charset::We8MsWin1252 => {
                if let Some(at) = b.iter().position(|x| CP1252_UNDEFINED.contains(x)) {
                    return bad(at, &format!("byte 0x{:02X}", b[at]));
                }
                match encoding_rs::WINDOWS_1252
                    .decode_without_bom_handling_and_without_replacement(b)
                {
                    Some(s) => Ok(s.into_owned()),
                    None => bad(0, "the byte sequence"),
                }
            }
            Charset::Al16Utf16 => {
                if !b.len().is_multiple_of(2) {
                    return bad(b.len() - 1, "an odd last byte");
                }
                let units = b.chunks_exact(2).map(|p| u16::from_be_bytes([p[0], p[1]]));
                let mut out = String::with_capacity(b.len() / 2);
                for (i, c) in char::decode_utf16(units).enumerate() {
                    match c {
                        Ok(c) => out.push(c),
                        Err(_) => return bad(i * 2, "an unpaired UTF-16 surrogate"),
                    }
                }
                Ok(out)
            }
            Charset::Utf8 => decode_cesu8(b).map_err(|at| {
                format!("the byte sequence at byte {at} is not UTF8 (CESU-8) text")
            }),
        }
    }

    /// Oracle's BINARY comparison of two texts of this set: the order of their encoded bytes.
    pub fn compare(self, a: &str, b: &str) -> Ordering {
        match self {
            Charset::Al32Utf8 | Charset::Unsupported => a.as_bytes().cmp(b.as_bytes()),
            // CESU-8 encodes each UTF-16 code unit in UTF-8's order-keeping form: the same
            // order as UTF-16's code units.
            Charset::Al16Utf16 | Charset::Utf8 => {
                if a.is_ascii() || b.is_ascii() {
                    return a.as_bytes().cmp(b.as_bytes());
                }
                a.encode_utf16().cmp(b.encode_utf16())
            }
            Charset::We8MsWin1252 | Charset::We8Iso8859P1 => {
                if a.is_ascii() && b.is_ascii() {
                    return a.as_bytes().cmp(b.as_bytes());
                }
                let byte = |c: char| self.byte_of(c).unwrap_or(0xBF);
                a.chars().map(byte).cmp(b.chars().map(byte))
            }
        }
    }
}

/// CESU-8: UTF-8's forms of UTF-16 code units, supplementary characters as two 3-byte
/// surrogates. `Err` is the offset of the first byte that is not.
fn decode_cesu8(b: &[u8]) -> Result<String, usize> {
    if let Ok(s) = std::str::from_utf8(b) {
        // Plain UTF-8 without 4-byte forms is CESU-8 too.
        if !s.chars().any(|c| c.len_utf8() == 4) {
            return Ok(s.to_string());
        }
    }
    let mut units: Vec<(u16, usize)> = Vec::with_capacity(b.len());
    let mut i = 0;
    let cont = |x: Option<&u8>| x.filter(|x| *x & 0xC0 == 0x80).map(|x| u16::from(x & 0x3F));
    while i < b.len() {
        let lead = b[i];
        let (unit, n) = match lead {
            0x00..=0x7F => (u16::from(lead), 1),
            0xC2..=0xDF => {
                let c1 = cont(b.get(i + 1)).ok_or(i)?;
                ((u16::from(lead & 0x1F) << 6) | c1, 2)
            }
            0xE0..=0xEF => {
                let c1 = cont(b.get(i + 1)).ok_or(i)?;
                let c2 = cont(b.get(i + 2)).ok_or(i)?;
                let u = (u16::from(lead & 0x0F) << 12) | (c1 << 6) | c2;
                if u < 0x800 {
                    return Err(i);
                }
                (u, 3)
            }
            _ => return Err(i),
        };
        units.push((unit, i));
        i += n;
    }
    let mut out = String::with_capacity(b.len());
    let mut it = units.into_iter().peekable();
    while let Some((u, at)) = it.next() {
        match u {
            0xD800..=0xDBFF => match it.next() {
                Some((lo @ 0xDC00..=0xDFFF, _)) => {
                    let c = 0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(lo) - 0xDC00);
                    out.push(char::from_u32(c).ok_or(at)?);
                }
                _ => return Err(at),
            },
            0xDC00..=0xDFFF => return Err(at),
            _ => out.push(char::from_u32(u32::from(u)).ok_or(at)?),
        }
    }
    Ok(out)
}

impl TryFrom<String> for Charset {
    type Error = String;
    fn try_from(s: String) -> Result<Charset, String> {
        Charset::parse(&s).ok_or_else(|| {
            format!(
                "`{s}` is not a character set the emulator knows ({})",
                Charset::ALL.map(Charset::name).join(", ")
            )
        })
    }
}

impl From<Charset> for String {
    fn from(c: Charset) -> String {
        c.name().to_string()
    }
}

impl std::fmt::Display for Charset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A database's two character sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Charsets {
    /// NLS_CHARACTERSET.
    pub database: Charset,
    /// NLS_NCHAR_CHARACTERSET.
    pub national: Charset,
}

impl Default for Charsets {
    /// Oracle's defaults since 12.2: AL32UTF8 and AL16UTF16.
    fn default() -> Self {
        Charsets {
            database: Charset::Al32Utf8,
            national: Charset::Al16Utf16,
        }
    }
}

impl Charsets {
    /// The sets NLS_DATABASE_PARAMETERS names (`None`: not read, Oracle's defaults); a name
    /// capture does not know is [`Charset::Unsupported`].
    pub fn from_names(database: Option<&str>, national: Option<&str>) -> Charsets {
        let d = Charsets::default();
        let pick = |name: Option<&str>, default: Charset| match name {
            None => default,
            Some(n) => Charset::parse(n).unwrap_or(Charset::Unsupported),
        };
        Charsets {
            database: pick(database, d.database),
            national: pick(national, d.national),
        }
    }

    /// The set a column of type `ty` holds its text in.
    pub fn of(&self, ty: &ColumnType) -> Charset {
        if ty.is_national() {
            self.national
        } else {
            self.database
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Charset as C;

    #[test]
    fn names_round_trip() {
        for c in Charset::ALL {
            assert_eq!(Charset::parse(c.name()), Some(c));
        }
        assert_eq!(Charset::parse("we8mswin1252"), Some(C::We8MsWin1252));
        assert_eq!(Charset::parse("JA16SJIS"), None);
        let cs = Charsets::from_names(Some("JA16SJIS"), None);
        assert_eq!(cs.database, C::Unsupported);
        assert_eq!(cs.national, C::Al16Utf16);
        assert!(C::Unsupported.decode(b"a").is_err());
    }

    #[test]
    fn single_byte_sets_decode_and_encode() {
        assert_eq!(C::We8MsWin1252.decode(&[0x80, 0xE9, 0x9F]).unwrap(), "€éŸ");
        assert_eq!(C::We8Iso8859P1.decode(&[0x80, 0xE9]).unwrap(), "\u{80}é");
        assert_eq!(C::We8MsWin1252.encode("€éŸa"), vec![0x80, 0xE9, 0x9F, b'a']);
        assert_eq!(C::We8Iso8859P1.encode("é€"), vec![0xE9, 0xBF]);
        for b in CP1252_UNDEFINED {
            let e = C::We8MsWin1252.decode(&[b'a', b]).unwrap_err();
            assert!(e.contains("at byte 1"), "{e}");
        }
        assert!(!C::We8MsWin1252.holds("\u{81}"));
        assert!(!C::We8MsWin1252.holds("Ā"));
        assert_eq!(C::We8MsWin1252.conform("aĀ€".into()), "a¿€");
        assert_eq!(C::We8Iso8859P1.conform("aĀ€".into()), "a¿¿");
        assert_eq!(C::Al32Utf8.conform("aĀ€".into()), "aĀ€");
        // Every byte of windows-1252 but the five decodes and encodes back.
        for b in 0..=255u8 {
            if let Ok(s) = C::We8MsWin1252.decode(&[b]) {
                assert_eq!(C::We8MsWin1252.encode(&s), vec![b]);
            }
            let s = C::We8Iso8859P1.decode(&[b]).unwrap();
            assert_eq!(C::We8Iso8859P1.encode(&s), vec![b]);
        }
    }

    #[test]
    fn unicode_sets_decode_and_encode() {
        let s = "a\u{e9}\u{20ac}\u{1F600}";
        for c in [C::Al32Utf8, C::Utf8, C::Al16Utf16] {
            assert_eq!(c.decode(&c.encode(s)).unwrap(), s, "{c}");
            assert_eq!(c.byte_len(s), c.encode(s).len(), "{c}");
        }
        // CESU-8: the emoji as two 3-byte surrogates.
        assert_eq!(
            C::Utf8.encode("\u{1F600}"),
            vec![0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]
        );
        assert!(C::Utf8.decode(&[0xF0, 0x9F, 0x98, 0x80]).is_err());
        assert!(C::Utf8.decode(&[0xED, 0xA0, 0xBD]).is_err());
        assert!(C::Al32Utf8
            .decode(&[b'a', 0xE9])
            .unwrap_err()
            .contains("at byte 1"));
        assert!(C::Al16Utf16.decode(&[0xD8, 0x3D]).is_err());
        assert!(C::Al16Utf16.decode(&[0x00]).is_err());
    }

    #[test]
    fn binary_order_is_the_order_of_the_encoded_bytes() {
        // '€' is 0x80 in WE8MSWIN1252, before 'é' (0xE9); UTF-8 orders them the other way.
        assert_eq!(C::We8MsWin1252.compare("€", "é"), Ordering::Less);
        assert_eq!(C::Al32Utf8.compare("€", "é"), Ordering::Greater);
        assert_eq!(C::We8MsWin1252.compare("é", "z"), Ordering::Greater);
        // A supplementary character (a surrogate pair) before U+E000..U+FFFF in UTF-16 and
        // CESU-8, after them in UTF-8.
        assert_eq!(
            C::Al16Utf16.compare("\u{1F600}", "\u{FF01}"),
            Ordering::Less
        );
        assert_eq!(C::Utf8.compare("\u{1F600}", "\u{FF01}"), Ordering::Less);
        assert_eq!(
            C::Al32Utf8.compare("\u{1F600}", "\u{FF01}"),
            Ordering::Greater
        );
        let words = [
            "",
            "a",
            "ab",
            "b",
            "é",
            "€",
            "Ÿ",
            "ÿ",
            "\u{FF01}",
            "\u{1F600}",
            "z",
        ];
        for c in Charset::ALL {
            for x in words {
                for y in words {
                    if !c.holds(x) || !c.holds(y) {
                        continue;
                    }
                    assert_eq!(
                        c.compare(x, y),
                        c.encode(x).cmp(&c.encode(y)),
                        "{c}: {x:?} {y:?}"
                    );
                }
            }
        }
    }
}
