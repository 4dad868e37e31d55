//! Oracle extended ROWIDs: `OOOOOOFFFBBBBBBRRR` in Oracle's base-64 alphabet (oracle-facts §3).
//!
//! The snapshot splits heap tables into ROWID ranges per extent, so it needs to build the same
//! bounds `DBMS_ROWID.ROWID_CREATE` would and to compare ROWIDs the way Oracle does.
//!
//! Bigfile tablespaces (oracle-facts §3 *(check)*, checked): the DBMS_ROWID reference gives
//! ROWID_INFO (and ROWID_BLOCK_NUMBER, ROWID_RELATIVE_FNO) a `ts_type_in` parameter, "the type
//! of the tablespace (bigfile/smallfile) to which the row belongs", default 'SMALLFILE': the
//! block number is read differently there. Oracle Press's 11g DBA Handbook (ch. 16) lays the
//! bigfile ROWID out as `OOOOOO LLLLLLLLL RRR`, the nine L characters an "encoded block number,
//! relative to the tablespace", with the example `AAASAVAAAAAAAAUAAA` = block 20 from
//! `ROWID_BLOCK_NUMBER(rowid, 'BIGFILE')`. A bigfile data file holds up to 2^32 blocks (SQL
//! Reference, CREATE TABLESPACE), so the first three of the nine characters are `AAA` and the
//! text reads as a smallfile ROWID with relative file 0: [`RowId`] handles both, and an
//! extent's ROWID bounds use `Extent::rowid_fno`. DBA_EXTENTS.RELATIVE_FNO is 1024 for a
//! bigfile tablespace ("In a bigfile tablespace, the relative file number is always 1024",
//! Administrator's Guide, as quoted; not found on an Oracle page in the search corpus), so
//! ranges built from it, as for a smallfile extent, would hold no row at all. Not confirmed:
//! what `ROWID_CREATE` makes of relative file 1024 (it has no `ts_type_in`); the tool builds
//! ROWIDs itself.

use std::fmt;
use std::str::FromStr;

/// ROW_ID of out-of-line LOB rows in V$LOGMNR_CONTENTS (oracle-facts §6).
pub const LOB_ROWID: &str = "AAAAAAAAAAAAAAAAAA";

/// Oracle's digits: A-Z = 0..25, a-z = 26..51, 0-9 = 52..61, `+` = 62, `/` = 63.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Row slot used as the upper bound of a block in a ROWID range (oracle-facts §3).
const MAX_SLOT: u32 = 32767;

/// One extended ROWID, decomposed as DBMS_ROWID does (ROWID_OBJECT, ROWID_RELATIVE_FNO,
/// ROWID_BLOCK_NUMBER, ROWID_ROW_NUMBER).
///
/// Field order is the comparison order, so the derived `Ord` is Oracle's: data object, then
/// relative file, then block, then slot. Oracle stores a ROWID as the data object number
/// (4 bytes), the data block address (file in the high 10 bits, block in the low 22) and the
/// slot (2 bytes), and compares those bytes. The Oracle documentation does not state the order
/// in words; it is what the ROWID-range chunking scripts in common use rely on (extents sorted
/// by DATA_OBJECT_ID, RELATIVE_FNO, BLOCK_ID, each range `ROWID BETWEEN ROWID_CREATE(.., 0) AND
/// ROWID_CREATE(.., max slot)`). The encoded strings do NOT sort this way (`0`-`9`, `+` and
/// `/` come before `A` in ASCII), so ranges must be compared decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RowId {
    pub data_object: u32,
    pub relative_fno: u32,
    pub block: u32,
    pub slot: u32,
}

impl RowId {
    /// The 18-character text form. The file and slot fields hold 3 digits (18 bits); Oracle's
    /// own values are far smaller (file ≤ 1023, slot ≤ 65535), larger ones keep their low bits.
    pub fn encode(&self) -> String {
        ascii(&self.digits()).to_string()
    }

    /// [`RowId::encode`] held inline: a snapshot makes one for every row it reads.
    pub fn encode_inline(&self) -> crate::types::Str {
        crate::types::Str::from(ascii(&self.digits()))
    }

    /// [`RowId::encode`], appended to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.digits());
    }

    /// The text form's characters, the three encodings' one source.
    fn digits(&self) -> [u8; 18] {
        let mut out = [0u8; 18];
        let mut at = 0;
        for (value, width) in [
            (u64::from(self.data_object), 6),
            (u64::from(self.relative_fno), 3),
            (u64::from(self.block), 6),
            (u64::from(self.slot), 3),
        ] {
            for i in (0..width).rev() {
                out[at] = ALPHABET[((value >> (6 * i)) & 63) as usize];
                at += 1;
            }
        }
        out
    }

    /// Parse the 18-character text form.
    pub fn decode(text: &str) -> Result<RowId, String> {
        let len = text.chars().count();
        if len != 18 {
            return Err(format!(
                "`{text}` is not a ROWID: expected 18 characters (OOOOOOFFFBBBBBBRRR), found {len}"
            ));
        }
        let mut digits = [0u8; 18];
        for (i, c) in text.chars().enumerate() {
            digits[i] = digit_value(c).ok_or_else(|| {
                format!(
                    "`{text}` is not a ROWID: `{c}` at position {} is not one of A-Z a-z 0-9 + /",
                    i + 1
                )
            })?;
        }
        let field = |range: std::ops::Range<usize>, name: &str| -> Result<u32, String> {
            let v = digits[range]
                .iter()
                .fold(0u64, |acc, d| acc * 64 + u64::from(*d));
            u32::try_from(v).map_err(|_| {
                format!("`{text}` is not a ROWID: its {name} {v} does not fit 32 bits")
            })
        };
        Ok(RowId {
            data_object: field(0..6, "data object number")?,
            relative_fno: field(6..9, "relative file number")?,
            block: field(9..15, "block number")?,
            slot: field(15..18, "row number")?,
        })
    }

    /// First and last ROWID of one extent, as `DBMS_ROWID.ROWID_CREATE(1, data_object,
    /// relative_fno, block, slot)` builds them: `(block_id, 0)` to `(block_id + blocks - 1,
    /// 32767)`. An extent of 0 blocks is taken as 1 block; block numbers saturate at `u32::MAX`.
    pub fn extent_bounds(
        data_object: u32,
        relative_fno: u32,
        block_id: u32,
        blocks: u32,
    ) -> (RowId, RowId) {
        let last_block = block_id.saturating_add(blocks.max(1) - 1);
        (
            RowId {
                data_object,
                relative_fno,
                block: block_id,
                slot: 0,
            },
            RowId {
                data_object,
                relative_fno,
                block: last_block,
                slot: MAX_SLOT,
            },
        )
    }
}

/// The digits as text: the alphabet is ASCII. Not validated again: one ROWID is encoded per
/// row a snapshot reads, and the check was a hundredth of its instructions.
fn ascii(digits: &[u8; 18]) -> &str {
    debug_assert!(digits.is_ascii());
    // SAFETY: every byte comes from ALPHABET, which is ASCII, and ASCII is valid UTF-8.
    unsafe { std::str::from_utf8_unchecked(digits) }
}

fn digit_value(c: char) -> Option<u8> {
    Some(match c {
        'A'..='Z' => c as u8 - b'A',
        'a'..='z' => c as u8 - b'a' + 26,
        '0'..='9' => c as u8 - b'0' + 52,
        '+' => 62,
        '/' => 63,
        _ => return None,
    })
}

impl fmt::Display for RowId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.encode())
    }
}

impl FromStr for RowId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RowId::decode(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rid(data_object: u32, relative_fno: u32, block: u32, slot: u32) -> RowId {
        RowId {
            data_object,
            relative_fno,
            block,
            slot,
        }
    }

    #[test]
    fn decodes_real_rowids_as_dbms_rowid_does() {
        // SYS.PROPS$ row GLOBAL_DB_NAME on 11.2.0.3, with DBMS_ROWID.ROWID_RELATIVE_FNO /
        // ROWID_BLOCK_NUMBER / ROWID_OBJECT / ROWID_ROW_NUMBER printed next to it:
        // FILE# 1, BLK# 801, OBJ# 98, ROW# 31 (http://rss.xifenfei.com/?p=7133).
        assert_eq!(
            RowId::decode("AAAABiAABAAAAMhAAf").unwrap(),
            rid(98, 1, 801, 31)
        );
        // hemantoracledba.blogspot.com/2022/08/the-format-of-rowid.html: ROWID_OBJECT 81652,
        // ROWID_RELATIVE_FNO 32 for this row (block 147 follows from the digits `AAAACT`).
        let r = RowId::decode("AAAT70AAgAAAACTAAA").unwrap();
        assert_eq!((r.data_object, r.relative_fno), (81652, 32));
        assert_eq!(r, rid(81652, 32, 147, 0));
        // SCOTT.EMP on a CSDN post: location `4_32_0` .. `4_32_13` (file_block_row).
        let r = RowId::decode("AAAMfMAAEAAAAAgAAN").unwrap();
        assert_eq!((r.relative_fno, r.block, r.slot), (4, 32, 13));
    }

    #[test]
    fn encodes_real_rowids() {
        assert_eq!(rid(98, 1, 801, 31).encode(), "AAAABiAABAAAAMhAAf");
        assert_eq!(rid(81652, 32, 147, 0).to_string(), "AAAT70AAgAAAACTAAA");
        assert_eq!(rid(0, 0, 0, 0).encode(), LOB_ROWID);
        for r in [
            rid(98, 1, 801, 31),
            rid(u32::MAX, 1023, 4_000_000, 65535),
            rid(0, 0, 0, 0),
        ] {
            let mut out = b"x".to_vec();
            r.encode_into(&mut out);
            assert_eq!(out, format!("x{}", r.encode()).into_bytes());
            assert_eq!(r.encode_inline(), r.encode());
        }
    }

    /// The 11g DBA Handbook's bigfile example: block 20 in the nine characters after the object.
    #[test]
    fn a_bigfile_rowid_reads_as_file_zero_and_its_block() {
        let r = RowId::decode("AAASAVAAAAAAAAUAAE").unwrap();
        assert_eq!((r.relative_fno, r.block, r.slot), (0, 20, 4));
        assert_eq!(r.encode(), "AAASAVAAAAAAAAUAAE");
        // A 32-bit block number fits the last six of the nine characters.
        let top = rid(70, 0, u32::MAX, 0).encode();
        assert_eq!(&top[6..9], "AAA");
        assert_eq!(RowId::decode(&top).unwrap().block, u32::MAX);
    }

    #[test]
    fn extent_bounds_cover_every_slot_of_every_block() {
        let (lo, hi) = RowId::extent_bounds(81652, 32, 144, 8);
        assert_eq!(lo.encode(), "AAAT70AAgAAAACQAAA");
        // 32767 = H// in three digits.
        assert_eq!(hi.encode(), "AAAT70AAgAAAACXH//");
        assert!(lo < rid(81652, 32, 147, 0) && rid(81652, 32, 147, 0) < hi);
        let (lo, hi) = RowId::extent_bounds(7, 1, 10, 0);
        assert_eq!((lo.block, hi.block, hi.slot), (10, 10, 32767));
        let (_, hi) = RowId::extent_bounds(7, 1, u32::MAX - 1, 5);
        assert_eq!(hi.block, u32::MAX);
    }

    #[test]
    fn struct_order_is_oracle_order_but_string_order_is_not() {
        // Block 25 (`Z`) comes before block 52 (`0`); ASCII puts `0` first.
        let a = rid(1, 1, 25, 0);
        let b = rid(1, 1, 52, 0);
        assert!(a < b);
        assert!(a.encode() > b.encode());
        // Object first, then file, then block, then slot.
        assert!(rid(1, 9, 9, 9) < rid(2, 0, 0, 0));
        assert!(rid(1, 1, 9, 9) < rid(1, 2, 0, 0));
        assert!(rid(1, 1, 1, 9) < rid(1, 1, 2, 0));
        assert!(rid(1, 1, 1, 1) < rid(1, 1, 1, 2));
        // Where all digits are letters of one case the two orders agree.
        assert!(rid(1, 1, 1, 1).encode() < rid(1, 1, 1, 2).encode());
    }

    #[test]
    fn errors_name_the_text() {
        let e = RowId::decode("AAAABiAAB").unwrap_err();
        assert!(
            e.contains("`AAAABiAAB`") && e.contains("18 characters"),
            "{e}"
        );
        let e = RowId::decode("AAAABiAABAAAAMhAA-").unwrap_err();
        assert!(e.contains("`-`") && e.contains("position 18"), "{e}");
        let e = RowId::decode("AAAABiAABAAAAMhAAé").unwrap_err();
        assert!(e.contains("`é`"), "{e}");
        // Six digits can exceed 32 bits.
        let e = RowId::decode("//////AABAAAAMhAAf").unwrap_err();
        assert!(e.contains("data object number"), "{e}");
        assert!("AAAABiAABAAAAMhAAf".parse::<RowId>().is_ok());
        assert!("".parse::<RowId>().is_err());
    }

    proptest! {
        #[test]
        fn round_trips(obj in any::<u32>(), file in 0u32..(1 << 18), block in any::<u32>(), slot in 0u32..(1 << 18)) {
            let r = rid(obj, file, block, slot);
            let text = r.encode();
            prop_assert_eq!(text.len(), 18);
            prop_assert_eq!(RowId::decode(&text).unwrap(), r);
            prop_assert_eq!(r.encode_inline(), text);
        }

        #[test]
        fn decoding_any_valid_text_re_encodes_it(text in "[A-Za-z0-9+/]{18}") {
            if let Ok(r) = RowId::decode(&text) {
                prop_assert_eq!(r.encode(), text);
            }
        }
    }
}
