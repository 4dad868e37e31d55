//! OSON, Oracle's binary JSON: what a native JSON column (21c+) stores, and what LogMiner shows
//! as `/* JSON */ HEXTORAW('ff4a5a…')` in an UPDATE or in the LOB rows that write the column.
//!
//! The layout is the one Oracle publishes in its own open-source drivers (python-oracledb
//! `impl/base/oson.pyx`, node-oracledb `lib/impl/datahandlers/oson.js`; facts, not their code):
//! a header (`ff 4a 5a`, version 1, 16-bit flags), the number of field names, the size of the
//! field-names segment, the size of the tree segment, the number of "tiny" nodes, one hash byte
//! per field name (FNV-1a of the name, low byte), the offset of each name in the names segment,
//! the names (a length byte, then UTF-8), then the tree: objects `0x84` (field ids, then child
//! offsets), arrays `0xc0`, strings (length in the node byte below 32, else `0x33`/`0x37`/`0x38`
//! with a 1/2/4-byte length), numbers as Oracle NUMBER bytes (`0x20 | len-1`, or `0x34` with a
//! length byte), `0x30` null, `0x31` true, `0x32` false. Field names are numbered in the order
//! (hash byte, length, bytes); an object's children keep the document's order. Checked against
//! the value LogMiner wrote in Debezium's LogMinerDmlParserTest (dbz#1884):
//! `ff4a5a01 2106 02 0009 0017 0000 9ce6 0005 0000 04"name" 03"age" 84 02 0201 0008 0014
//! 0b"Sally Field" 21c14e` is `{"name":"Sally Field","age":77}`.

use serde_json::{Map, Number, Value as Json};

const MAGIC: [u8; 3] = [0xff, 0x4a, 0x5a];
const VERSION_SHORT_NAMES: u8 = 1;
const VERSION_LONG_NAMES: u8 = 3;

const FLAG_REL_OFFSETS: u16 = 0x0001;
const FLAG_INLINE_LEAF: u16 = 0x0002;
const FLAG_LEN_IN_PCODE: u16 = 0x0004;
const FLAG_NUM_FNAMES_U32: u16 = 0x0008;
const FLAG_IS_SCALAR: u16 = 0x0010;
const FLAG_HASH_ID_U8: u16 = 0x0100;
const FLAG_NUM_FNAMES_U16: u16 = 0x0400;
const FLAG_FNAMES_SEG_U32: u16 = 0x0800;
const FLAG_TREE_SEG_U32: u16 = 0x1000;
const FLAG_TINY_NODES_STAT: u16 = 0x2000;
const FLAG_SEC_FNAMES_SEG_U16: u16 = 0x0100;

const NODE_NULL: u8 = 0x30;
const NODE_TRUE: u8 = 0x31;
const NODE_FALSE: u8 = 0x32;
const NODE_STRING_U8: u8 = 0x33;
const NODE_NUMBER_U8: u8 = 0x34;
const NODE_BINARY_DOUBLE: u8 = 0x36;
const NODE_STRING_U16: u8 = 0x37;
const NODE_STRING_U32: u8 = 0x38;
const NODE_BINARY_FLOAT: u8 = 0x7f;
// Scalars of Oracle's own types (python-oracledb `constants.pxi`, TNS_JSON_TYPE_*; node-oracledb
// `oson.js` decodes the same codes): DATE and TIMESTAMP(0) in the 7 DATE bytes, TIMESTAMP in
// 11, TIMESTAMP WITH TIME ZONE in 13, the INTERVALs in 5 and 11 (their SQL storage forms), RAW
// with a 2- or 4-byte length, an identifier with a 1-byte length.
const NODE_TIMESTAMP: u8 = 0x39;
const NODE_BINARY_U16: u8 = 0x3a;
const NODE_BINARY_U32: u8 = 0x3b;
const NODE_DATE: u8 = 0x3c;
const NODE_INTERVAL_YM: u8 = 0x3d;
const NODE_INTERVAL_DS: u8 = 0x3e;
const NODE_EXTENDED: u8 = 0x7b;
const NODE_TIMESTAMP_TZ: u8 = 0x7c;
const NODE_TIMESTAMP7: u8 = 0x7d;
const NODE_ID: u8 = 0x7e;
const NODE_OBJECT: u8 = 0x84;
const NODE_ARRAY: u8 = 0xc0;

/// The FNV-1a hash Oracle numbers field names by.
fn hash(name: &[u8]) -> u32 {
    name.iter().fold(0x811C_9DC5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(16_777_619)
    })
}

/// The OSON image of a JSON document given as text (the emulator's stored form). Field names
/// over 255 bytes are refused, as Oracle does without extended names.
pub fn encode_text(text: &str) -> Result<Vec<u8>, String> {
    let value: Json = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    encode(&value)
}

/// The OSON image of `value`.
pub fn encode(value: &Json) -> Result<Vec<u8>, String> {
    // The names segment keeps the document's order; field ids follow the sorted order.
    let mut in_order: Vec<Vec<u8>> = Vec::new();
    collect_names(value, &mut in_order);
    let mut names = in_order.clone();
    for n in &names {
        if n.len() > 255 {
            return Err("a JSON field name is longer than 255 bytes".into());
        }
    }
    names.sort_by(|a, b| {
        ((hash(a) & 0xff), a.len(), a.as_slice()).cmp(&((hash(b) & 0xff), b.len(), b.as_slice()))
    });
    let id_size = match names.len() {
        0..=255 => 1,
        256..=65535 => 2,
        _ => 4,
    };
    // Child offsets are 16-bit while the tree fits, 32-bit beyond.
    let mut tree = Vec::new();
    let narrow = encode_node(value, &names, id_size, false, &mut tree);
    let wide = narrow.is_err() || tree.len() > 0xffff;
    if wide {
        tree.clear();
        encode_node(value, &names, id_size, true, &mut tree)?;
    }
    let mut flags = FLAG_INLINE_LEAF | FLAG_LEN_IN_PCODE;
    if wide {
        flags |= FLAG_TREE_SEG_U32;
    }
    let mut out = Vec::with_capacity(tree.len() + 32);
    out.extend_from_slice(&MAGIC);
    out.push(VERSION_SHORT_NAMES);
    let tree_size = |out: &mut Vec<u8>| {
        if wide {
            out.extend_from_slice(&(tree.len() as u32).to_be_bytes());
        } else {
            out.extend_from_slice(&(tree.len() as u16).to_be_bytes());
        }
    };
    if !matches!(value, Json::Object(_) | Json::Array(_)) {
        out.extend_from_slice(&(flags | FLAG_IS_SCALAR).to_be_bytes());
        tree_size(&mut out);
        out.extend_from_slice(&tree);
        return Ok(out);
    }
    let mut segment = Vec::new();
    let mut at = Vec::with_capacity(in_order.len());
    for n in &in_order {
        at.push(segment.len());
        segment.push(n.len() as u8);
        segment.extend_from_slice(n);
    }
    let offsets: Vec<usize> = names
        .iter()
        .map(|n| in_order.iter().position(|m| m == n).map_or(0, |i| at[i]))
        .collect();
    flags |= FLAG_HASH_ID_U8 | FLAG_TINY_NODES_STAT;
    match id_size {
        2 => flags |= FLAG_NUM_FNAMES_U16,
        4 => flags |= FLAG_NUM_FNAMES_U32,
        _ => {}
    }
    let wide_names = segment.len() > 0xffff;
    if wide_names {
        flags |= FLAG_FNAMES_SEG_U32;
    }
    out.extend_from_slice(&flags.to_be_bytes());
    put_uint(&mut out, names.len() as u32, id_size);
    put_uint(
        &mut out,
        segment.len() as u32,
        if wide_names { 4 } else { 2 },
    );
    tree_size(&mut out);
    out.extend_from_slice(&0u16.to_be_bytes()); // tiny nodes
    out.extend(names.iter().map(|n| (hash(n) & 0xff) as u8));
    for o in offsets {
        put_uint(&mut out, o as u32, if wide_names { 4 } else { 2 });
    }
    out.extend_from_slice(&segment);
    out.extend_from_slice(&tree);
    Ok(out)
}

fn collect_names(v: &Json, names: &mut Vec<Vec<u8>>) {
    match v {
        Json::Object(m) => {
            for (k, child) in m {
                if !names.iter().any(|n| n == k.as_bytes()) {
                    names.push(k.as_bytes().to_vec());
                }
                collect_names(child, names);
            }
        }
        Json::Array(a) => a.iter().for_each(|c| collect_names(c, names)),
        _ => {}
    }
}

fn put_uint(out: &mut Vec<u8>, v: u32, size: usize) {
    match size {
        1 => out.push(v as u8),
        2 => out.extend_from_slice(&(v as u16).to_be_bytes()),
        _ => out.extend_from_slice(&v.to_be_bytes()),
    }
}

/// The container node byte: children count width (bits 0x18) and offset width (0x20).
fn container_node(base: u8, children: usize, wide: bool) -> u8 {
    let mut n = base;
    if wide {
        n |= 0x20;
    }
    if children > 0xffff {
        n |= 0x10;
    } else if children > 0xff {
        n |= 0x08;
    }
    n
}

fn encode_node(
    v: &Json,
    names: &[Vec<u8>],
    id_size: usize,
    wide: bool,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    let off_size = if wide { 4 } else { 2 };
    match v {
        Json::Null => out.push(NODE_NULL),
        Json::Bool(true) => out.push(NODE_TRUE),
        Json::Bool(false) => out.push(NODE_FALSE),
        Json::Number(n) => {
            let bytes = number_bytes(&n.to_string())?;
            if bytes.len() <= 16 {
                out.push(0x20 | (bytes.len() as u8 - 1));
            } else {
                out.push(NODE_NUMBER_U8);
                out.push(bytes.len() as u8);
            }
            out.extend_from_slice(&bytes);
        }
        Json::String(s) => {
            let b = s.as_bytes();
            match b.len() {
                0..=31 => out.push(b.len() as u8),
                32..=255 => {
                    out.push(NODE_STRING_U8);
                    out.push(b.len() as u8);
                }
                256..=65535 => {
                    out.push(NODE_STRING_U16);
                    out.extend_from_slice(&(b.len() as u16).to_be_bytes());
                }
                _ => {
                    out.push(NODE_STRING_U32);
                    out.extend_from_slice(&(b.len() as u32).to_be_bytes());
                }
            }
            out.extend_from_slice(b);
        }
        Json::Array(a) => {
            out.push(container_node(NODE_ARRAY, a.len(), wide));
            put_count(out, a.len());
            let table = out.len();
            out.resize(table + a.len() * off_size, 0);
            for (i, child) in a.iter().enumerate() {
                let at = out.len() as u32;
                write_at(out, table + i * off_size, at, off_size)?;
                encode_node(child, names, id_size, wide, out)?;
            }
        }
        Json::Object(m) => {
            out.push(container_node(NODE_OBJECT, m.len(), wide));
            put_count(out, m.len());
            for k in m.keys() {
                let id = names
                    .iter()
                    .position(|n| n == k.as_bytes())
                    .ok_or("a field name missing from the names segment")?;
                put_uint(out, id as u32 + 1, id_size);
            }
            let table = out.len();
            out.resize(table + m.len() * off_size, 0);
            for (i, child) in m.values().enumerate() {
                let at = out.len() as u32;
                write_at(out, table + i * off_size, at, off_size)?;
                encode_node(child, names, id_size, wide, out)?;
            }
        }
    }
    Ok(())
}

fn put_count(out: &mut Vec<u8>, n: usize) {
    if n > 0xffff {
        out.extend_from_slice(&(n as u32).to_be_bytes());
    } else if n > 0xff {
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(n as u8);
    }
}

fn write_at(out: &mut [u8], at: usize, v: u32, size: usize) -> Result<(), String> {
    if size == 2 {
        let v = u16::try_from(v).map_err(|_| "OSON tree too large for 16-bit offsets")?;
        out[at..at + 2].copy_from_slice(&v.to_be_bytes());
    } else {
        out[at..at + 4].copy_from_slice(&v.to_be_bytes());
    }
    Ok(())
}

/// Oracle NUMBER storage of a decimal text (`77`, `-1.5`, `1e3`): an exponent byte, then
/// base-100 digits (d + 1 for positives; 101 − d for negatives, which end with a 102 byte
/// when shorter than 20 digits); zero is `0x80`.
pub fn number_bytes(text: &str) -> Result<Vec<u8>, String> {
    let bad = || format!("`{text}` is not a number");
    let t = text.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (mantissa, exp10) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], body[i + 1..].parse::<i32>().map_err(|_| bad())?),
        None => (body, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
        || (int.is_empty() && frac.is_empty())
    {
        return Err(bad());
    }
    // Digits with the decimal point after `point` of them.
    let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
    let mut point = int.len() as i32 + exp10;
    while digits.first() == Some(&0) {
        digits.remove(0);
        point -= 1;
    }
    while digits.last() == Some(&0) {
        digits.pop();
    }
    if digits.is_empty() {
        return Ok(vec![0x80]);
    }
    // Align the point to a base-100 boundary.
    if point.rem_euclid(2) == 1 {
        digits.insert(0, 0);
        point += 1;
    }
    if digits.len() % 2 == 1 {
        digits.push(0);
    }
    let pairs: Vec<u8> = digits.chunks(2).map(|p| p[0] * 10 + p[1]).collect();
    if pairs.len() > 20 {
        return Err(format!("`{text}` has more than 40 significant digits"));
    }
    // value = 0.p1p2… × 100^(exp + 1)
    let exp = point / 2 - 1;
    let mut out = Vec::with_capacity(pairs.len() + 2);
    if neg {
        out.push(u8::try_from(0x3E - exp).map_err(|_| bad())?);
        out.extend(pairs.iter().map(|d| 101 - d));
        if pairs.len() < 20 {
            out.push(102);
        }
    } else {
        out.push(u8::try_from(0xC1 + exp).map_err(|_| bad())?);
        out.extend(pairs.iter().map(|d| d + 1));
    }
    Ok(out)
}

/// The JSON text of an OSON image, as JSON_SERIALIZE writes it (members in stored order).
pub fn decode(data: &[u8]) -> Result<String, String> {
    Ok(decode_value(data)?.to_string())
}

/// The JSON value of an OSON image.
pub fn decode_value(data: &[u8]) -> Result<Json, String> {
    let mut r = Reader { b: data, pos: 0 };
    if r.take(3)? != MAGIC {
        return Err("not OSON (no ff4a5a header)".into());
    }
    let version = r.u8()?;
    if version != VERSION_SHORT_NAMES && version != VERSION_LONG_NAMES {
        return Err(format!("OSON version {version} is not known"));
    }
    let flags = r.u16()?;
    let mut d = Decoder {
        names: Vec::new(),
        id_size: 1,
        tree: 0,
        relative: flags & FLAG_REL_OFFSETS != 0,
    };
    if flags & FLAG_IS_SCALAR != 0 {
        r.skip(if flags & FLAG_TREE_SEG_U32 != 0 { 4 } else { 2 })?;
        d.tree = r.pos;
        return d.node(&mut r, 0);
    }
    let (count, id_size) = if flags & FLAG_NUM_FNAMES_U32 != 0 {
        (r.u32()?, 4)
    } else if flags & FLAG_NUM_FNAMES_U16 != 0 {
        (u32::from(r.u16()?), 2)
    } else {
        (u32::from(r.u8()?), 1)
    };
    d.id_size = id_size;
    let (seg_size, offset_size) = if flags & FLAG_FNAMES_SEG_U32 != 0 {
        (r.u32()?, 4)
    } else {
        (u32::from(r.u16()?), 2)
    };
    let mut long = None;
    if version == VERSION_LONG_NAMES {
        let secondary = r.u16()?;
        let size = if secondary & FLAG_SEC_FNAMES_SEG_U16 != 0 {
            2
        } else {
            4
        };
        long = Some((r.u32()?, r.u32()?, size));
    }
    let _tree_size = if flags & FLAG_TREE_SEG_U32 != 0 {
        r.u32()?
    } else {
        u32::from(r.u16()?)
    };
    let _tiny = r.u16()?;
    d.names = names(&mut r, count, 1, offset_size, seg_size, false)?;
    if let Some((n, size, off)) = long {
        d.names.extend(names(&mut r, n, 2, off, size, true)?);
    }
    d.tree = r.pos;
    d.node(&mut r, 0)
}

/// One names segment: hash ids, offsets, then the names (length byte, or 2 bytes for long).
fn names(
    r: &mut Reader,
    count: u32,
    hash_size: usize,
    offset_size: usize,
    seg_size: u32,
    long: bool,
) -> Result<Vec<String>, String> {
    r.skip(count as usize * hash_size)?;
    let mut offsets = Vec::with_capacity(count as usize);
    for _ in 0..count {
        offsets.push(if offset_size == 2 {
            usize::from(r.u16()?)
        } else {
            r.u32()? as usize
        });
    }
    let seg = r.take(seg_size as usize)?;
    offsets
        .into_iter()
        .map(|o| {
            let (len, start) = if long {
                let hi = *seg.get(o).ok_or("OSON name offset out of range")?;
                let lo = *seg.get(o + 1).ok_or("OSON name offset out of range")?;
                (usize::from(u16::from_be_bytes([hi, lo])), o + 2)
            } else {
                (
                    usize::from(*seg.get(o).ok_or("OSON name offset out of range")?),
                    o + 1,
                )
            };
            let bytes = seg
                .get(start..start + len)
                .ok_or("OSON name out of range")?;
            String::from_utf8(bytes.to_vec())
                .map_err(|_| "OSON field name is not UTF-8".to_string())
        })
        .collect()
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let s = self
            .b
            .get(self.pos..self.pos.saturating_add(n))
            .ok_or("OSON image ends early")?;
        self.pos += n;
        Ok(s)
    }
    fn skip(&mut self, n: usize) -> Result<(), String> {
        self.take(n).map(|_| ())
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, String> {
        let s = self.take(2)?;
        Ok(u16::from_be_bytes([s[0], s[1]]))
    }
    fn u32(&mut self) -> Result<u32, String> {
        let s = self.take(4)?;
        Ok(u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
    }
}

struct Decoder {
    names: Vec<String>,
    id_size: usize,
    /// Where the tree segment starts.
    tree: usize,
    relative: bool,
}

/// Deep enough for any document a column holds; bounds the recursion on bad input.
const MAX_DEPTH: usize = 1000;

impl Decoder {
    fn node(&self, r: &mut Reader, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err("OSON nesting too deep".into());
        }
        let start = r.pos;
        let n = r.u8()?;
        if n & 0x80 != 0 {
            return self.container(r, n, start, depth);
        }
        let string = |r: &mut Reader, len: usize| -> Result<Json, String> {
            let b = r.take(len)?;
            String::from_utf8(b.to_vec())
                .map(Json::String)
                .map_err(|_| "OSON string is not UTF-8".to_string())
        };
        Ok(match n {
            NODE_NULL => Json::Null,
            NODE_TRUE => Json::Bool(true),
            NODE_FALSE => Json::Bool(false),
            NODE_STRING_U8 => {
                let len = usize::from(r.u8()?);
                string(r, len)?
            }
            NODE_STRING_U16 => {
                let len = usize::from(r.u16()?);
                string(r, len)?
            }
            NODE_STRING_U32 => {
                let len = r.u32()? as usize;
                string(r, len)?
            }
            NODE_NUMBER_U8 => {
                let len = usize::from(r.u8()?);
                number(r.take(len)?)?
            }
            NODE_BINARY_DOUBLE => {
                let b = r.take(8)?;
                let bits = crate::literal::stored_float_bits(b, 8)?;
                float(f64::from_bits(bits))?
            }
            NODE_BINARY_FLOAT => {
                let b = r.take(4)?;
                let bits = crate::literal::stored_float_bits(b, 4)?;
                float(f64::from(f32::from_bits(bits as u32)))?
            }
            NODE_DATE | NODE_TIMESTAMP7 => datetime(r.take(7)?)?,
            NODE_TIMESTAMP => datetime(r.take(11)?)?,
            NODE_TIMESTAMP_TZ => datetime(r.take(13)?)?,
            NODE_INTERVAL_YM => interval_ym(r.take(5)?)?,
            NODE_INTERVAL_DS => interval_ds(r.take(11)?)?,
            NODE_BINARY_U16 => {
                let len = usize::from(r.u16()?);
                binary(r.take(len)?)
            }
            NODE_BINARY_U32 => {
                let len = r.u32()? as usize;
                binary(r.take(len)?)
            }
            NODE_ID => {
                let len = usize::from(r.u8()?);
                binary(r.take(len)?)
            }
            NODE_EXTENDED => {
                let sub = r.u8()?;
                return Err(format!(
                    "OSON extended scalar 0x{sub:02x} (a VECTOR inside JSON) is not supported"
                ));
            }
            n if matches!(n & 0xf0, 0x20 | 0x60) => number(r.take(usize::from(n & 0x0f) + 1)?)?,
            n if matches!(n & 0xf0, 0x40 | 0x50) => number(r.take(usize::from(n & 0x0f))?)?,
            n if n & 0xe0 == 0 => string(r, usize::from(n))?,
            n => return Err(format!("OSON node type 0x{n:02x} is not supported")),
        })
    }

    fn container(&self, r: &mut Reader, n: u8, start: usize, depth: usize) -> Result<Json, String> {
        let is_object = n & 0x40 == 0;
        let wide = n & 0x20 != 0;
        let own = start - self.tree;
        let count = |r: &mut Reader, n: u8| -> Result<(usize, bool), String> {
            Ok(match n & 0x18 {
                0x00 => (usize::from(r.u8()?), false),
                0x08 => (usize::from(r.u16()?), false),
                0x10 => (r.u32()? as usize, false),
                _ => (0, true),
            })
        };
        let offset = |r: &mut Reader| -> Result<usize, String> {
            Ok(if wide {
                r.u32()? as usize
            } else {
                usize::from(r.u16()?)
            })
        };
        let (mut children, shared) = count(r, n)?;
        let (ids_at, offsets_at);
        if shared {
            // The field ids are those of another object, at this offset in the tree.
            let other = offset(r)?;
            offsets_at = r.pos;
            let mut o = Reader {
                b: r.b,
                pos: self.tree + other,
            };
            let other_node = o.u8()?;
            let (c, _) = count(&mut o, other_node)?;
            children = c;
            ids_at = o.pos;
        } else {
            ids_at = r.pos;
            offsets_at = r.pos
                + if is_object {
                    self.id_size * children
                } else {
                    0
                };
        }
        let off_size = if wide { 4 } else { 2 };
        let mut map = Map::new();
        let mut list = Vec::new();
        for i in 0..children {
            let mut at = Reader {
                b: r.b,
                pos: offsets_at + i * off_size,
            };
            let mut child = offset(&mut at)?;
            if self.relative {
                child += own;
            }
            let mut c = Reader {
                b: r.b,
                pos: self.tree + child,
            };
            let value = self.node(&mut c, depth + 1)?;
            if is_object {
                let mut idr = Reader {
                    b: r.b,
                    pos: ids_at + i * self.id_size,
                };
                let id = match self.id_size {
                    1 => usize::from(idr.u8()?),
                    2 => usize::from(idr.u16()?),
                    _ => idr.u32()? as usize,
                };
                let name = id
                    .checked_sub(1)
                    .and_then(|i| self.names.get(i))
                    .ok_or("OSON field id out of range")?;
                map.insert(name.clone(), value);
            } else {
                list.push(value);
            }
        }
        Ok(if is_object {
            Json::Object(map)
        } else {
            Json::Array(list)
        })
    }
}

fn number(b: &[u8]) -> Result<Json, String> {
    let text = crate::literal::stored_number(b)?;
    // JSON wants a digit before the point.
    let text = if let Some(r) = text.strip_prefix("-.") {
        format!("-0.{r}")
    } else if let Some(r) = text.strip_prefix('.') {
        format!("0.{r}")
    } else {
        text
    };
    serde_json::from_str::<Number>(&text)
        .map(Json::Number)
        .map_err(|_| format!("OSON number `{text}` is not a JSON number"))
}

// Oracle's scalar types have no JSON counterpart: they become strings, as Oracle's JSON
// serializer (JSON_SERIALIZE without EXTENDED) and its JDBC driver's `OracleJsonValue.toString`
// (which Debezium's converter calls on the OSON of a JSON column) write them: dates and
// timestamps in ISO 8601 (`OracleJsonDate.getString`, …: "this date as a String in ISO 8601
// format"), RAW in base 16 (`OracleJsonBinary.getString`: "a base-16 encoded string"),
// intervals as ISO 8601 durations (`OracleJsonIntervalDS.getString`). The exact digits follow
// java.time's `toString`, which those methods rest on: fractions in groups of three digits,
// `Z` for a zero offset, a day-to-second interval in hours (`PT26H3M4.56S`), a year-to-month
// one as `P1Y2M`.

/// DATE, TIMESTAMP or TIMESTAMP WITH TIME ZONE bytes as an ISO 8601 string.
fn datetime(b: &[u8]) -> Result<Json, String> {
    use crate::literal::Literal;
    use crate::types::{ColumnType, Value};
    let lit = Literal::HexToRaw(b.to_vec());
    let text = match b.len() {
        7 => match crate::literal::to_value(&lit, &ColumnType::Date)? {
            Value::Date(t) => t,
            _ => return Err("OSON date is not a DATE".into()),
        },
        11 => match crate::literal::to_value(&lit, &ColumnType::Timestamp { fsp: 9 })? {
            Value::Timestamp(t) => t,
            _ => return Err("OSON timestamp is not a TIMESTAMP".into()),
        },
        _ => match crate::literal::to_value(&lit, &ColumnType::TimestampTz { fsp: 9 })? {
            Value::TimestampTz(t) => t,
            _ => return Err("OSON timestamp is not a TIMESTAMP WITH TIME ZONE".into()),
        },
    };
    // `YYYY-MM-DD HH24:MI:SS[.FF9][ ±HH:MM]` → `YYYY-MM-DDTHH:MI:SS[.fff…][Z|±HH:MM]`.
    let (local, zone) = match text
        .split_once(' ')
        .map(|(d, rest)| (d, rest.split_once(' ')))
    {
        Some((d, Some((time, zone)))) => (format!("{d}T{time}"), Some(zone)),
        _ => (text.replacen(' ', "T", 1), None),
    };
    let (whole, frac) = local.split_once('.').unwrap_or((&local, ""));
    let frac = frac.trim_end_matches('0');
    let mut out = whole.to_string();
    if !frac.is_empty() {
        let digits = frac.len().div_ceil(3) * 3;
        out.push('.');
        out.push_str(&format!("{frac:0<digits$}"));
    }
    match zone {
        Some("+00:00") => out.push('Z'),
        Some(z) => out.push_str(z),
        None => {}
    }
    Ok(Json::String(out))
}

/// INTERVAL YEAR TO MONTH bytes as `java.time.Period`'s text: `P1Y2M`, `P-3Y-6M`, `P0D`.
fn interval_ym(b: &[u8]) -> Result<Json, String> {
    use crate::types::{ColumnType, Value};
    let v = crate::literal::to_value(
        &crate::literal::Literal::HexToRaw(b.to_vec()),
        &ColumnType::IntervalYm { precision: 9 },
    )?;
    let Value::IntervalYm(t) = v else {
        return Err("OSON interval is not a year-to-month interval".into());
    };
    let neg = t.starts_with('-');
    let (y, m) = t[1..].split_once('-').unwrap_or(("0", "0"));
    let k = if neg { "-" } else { "" };
    let (y, m) = (y.trim_start_matches('0'), m.trim_start_matches('0'));
    let mut out = String::from("P");
    if !y.is_empty() {
        out.push_str(&format!("{k}{y}Y"));
    }
    if !m.is_empty() {
        out.push_str(&format!("{k}{m}M"));
    }
    if out.len() == 1 {
        out.push_str("0D");
    }
    Ok(Json::String(out))
}

/// INTERVAL DAY TO SECOND bytes as `java.time.Duration`'s text: `PT26H3M4.56S`, `PT-0.5S`,
/// `PT0S`.
fn interval_ds(b: &[u8]) -> Result<Json, String> {
    use crate::types::{ColumnType, Value};
    let v = crate::literal::to_value(
        &crate::literal::Literal::HexToRaw(b.to_vec()),
        &ColumnType::IntervalDs {
            precision: 9,
            fsp: 9,
        },
    )?;
    let Value::IntervalDs(t) = v else {
        return Err("OSON interval is not a day-to-second interval".into());
    };
    let neg = t.starts_with('-');
    let bad = || "OSON interval is not a day-to-second interval".to_string();
    let (days, time) = t[1..].split_once(' ').ok_or_else(bad)?;
    let (hms, frac) = time.split_once('.').unwrap_or((time, "0"));
    let mut p = hms.split(':').map(|x| x.parse::<u64>().map_err(|_| bad()));
    let (h, mi, s) = (
        p.next().ok_or_else(bad)??,
        p.next().ok_or_else(bad)??,
        p.next().ok_or_else(bad)??,
    );
    let days: u64 = days.parse().map_err(|_| bad())?;
    let hours = days * 24 + h;
    if hours == 0 && mi == 0 && s == 0 && frac.trim_end_matches('0').is_empty() {
        return Ok(Json::String("PT0S".into()));
    }
    let k = if neg { "-" } else { "" };
    let mut out = String::from("PT");
    if hours > 0 {
        out.push_str(&format!("{k}{hours}H"));
    }
    if mi > 0 {
        out.push_str(&format!("{k}{mi}M"));
    }
    let frac = frac.trim_end_matches('0');
    if s > 0 || !frac.is_empty() {
        out.push_str(&format!("{k}{s}"));
        if !frac.is_empty() {
            out.push('.');
            out.push_str(frac);
        }
        out.push('S');
    }
    Ok(Json::String(out))
}

/// RAW bytes as base 16 (upper case, as Oracle writes RAW as text).
fn binary(b: &[u8]) -> Json {
    Json::String(crate::types::hex(b).to_ascii_uppercase())
}

fn float(v: f64) -> Result<Json, String> {
    Number::from_f64(v)
        .map(Json::Number)
        .ok_or_else(|| "OSON holds a NaN or infinite binary float".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The OSON LogMiner wrote for `{"name":"Sally Field","age":77}` (Debezium
    /// LogMinerDmlParserTest, dbz#1884): decoded to that text, and encoded back byte for byte.
    #[test]
    fn the_value_logminer_wrote_decodes_and_encodes_back() {
        let hex = "ff4a5a012106020009001700009ce600050000046e616d650361676584020201000800140b53616c6c79204669656c6421c14e";
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        assert_eq!(
            decode(&bytes).unwrap(),
            r#"{"name":"Sally Field","age":77}"#
        );
        assert_eq!(
            encode_text(r#"{"name":"Sally Field","age":77}"#).unwrap(),
            bytes
        );
        assert_eq!(hash(b"age") & 0xff, 0x9c);
        assert_eq!(hash(b"name") & 0xff, 0xe6);
    }

    #[test]
    fn documents_round_trip() {
        for text in [
            r#"{"n":123,"tag":"x","ok":true}"#,
            r#"{"a":[1,2.5,-0.25,null,false,"s"],"b":{"c":{"a":-77}},"long":"0123456789012345678901234567890123456789"}"#,
            r#"[]"#,
            r#"{}"#,
            r#""scalar""#,
            r#"12345678901234567890"#,
            r#"{"big":1e40,"small":0.001}"#,
        ] {
            let v: Json = serde_json::from_str(text).unwrap();
            let back = decode_value(&encode(&v).unwrap()).unwrap();
            assert_eq!(back, v, "{text}");
        }
        let wide: Json = serde_json::json!({ "s": "x".repeat(70_000), "t": [1, 2] });
        assert_eq!(decode_value(&encode(&wide).unwrap()).unwrap(), wide);
    }

    #[test]
    fn numbers_are_oracle_numbers() {
        assert_eq!(number_bytes("77").unwrap(), [0xc1, 0x4e]);
        assert_eq!(number_bytes("0").unwrap(), [0x80]);
        assert_eq!(number_bytes("-1.5").unwrap(), [0x3e, 100, 51, 102]);
        for t in ["1", "-1", "100", "0.01", "-123.456", "1e3", "99999999999"] {
            let b = number_bytes(t).unwrap();
            let back = crate::literal::stored_number(&b).unwrap();
            assert_eq!(
                crate::types::compare_decimal(&back, &format!("{}", t.parse::<f64>().unwrap())),
                std::cmp::Ordering::Equal,
                "{t} -> {back}"
            );
        }
    }

    #[test]
    fn bad_images_are_errors_not_panics() {
        assert!(decode(b"").is_err());
        assert!(decode(&[0xff, 0x4a, 0x5a, 9, 0, 0]).is_err());
        let good = encode_text(r#"{"a":[1,{"b":"c"}]}"#).unwrap();
        for cut in 0..good.len() {
            let _ = decode(&good[..cut]);
        }
        for i in 0..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0xff;
            let _ = decode(&bad);
        }
    }

    /// `{"k": <scalar>}` with the scalar's node written in place of a string of the same
    /// encoded size (a string node of `n` bytes takes 1 + `n`, or 2 + `n` from 32 bytes on).
    pub(crate) fn with_scalar(node: u8, body: &[u8]) -> Vec<u8> {
        let placeholder_len = if node == NODE_BINARY_U16 {
            body.len() + 1
        } else {
            body.len()
        };
        let placeholder = "x".repeat(placeholder_len);
        let mut b = encode(&serde_json::json!({ "k": placeholder })).unwrap();
        let at = b.len() - body.len() - 1 - usize::from(node == NODE_BINARY_U16) * 2;
        if node == NODE_BINARY_U16 {
            assert_eq!(b[at], NODE_STRING_U8);
            b[at] = node;
            b[at + 1..at + 3].copy_from_slice(&(body.len() as u16).to_be_bytes());
            b[at + 3..].copy_from_slice(body);
        } else {
            assert_eq!(usize::from(b[at]), body.len());
            b[at] = node;
            b[at + 1..].copy_from_slice(body);
        }
        b
    }

    /// Scalars of Oracle's own types inside a document (a JSON column filled from SQL values:
    /// `JSON_OBJECT('d' VALUE SYSDATE)`, `JSON_SCALAR(…)`) decode to the strings Oracle's
    /// serializer writes. (Before, each was "OSON node type 0x… is not supported".)
    #[test]
    fn oracle_scalar_types_decode_as_iso_strings_and_base16() {
        let raw: Vec<u8> = (0..40).collect();
        let cases: [(u8, Vec<u8>, String); 8] = [
            (
                NODE_DATE,
                vec![120, 121, 5, 15, 14, 3, 4],
                "2021-05-15T13:02:03".into(),
            ),
            (
                NODE_TIMESTAMP7,
                vec![120, 121, 5, 15, 14, 3, 4],
                "2021-05-15T13:02:03".into(),
            ),
            (
                NODE_TIMESTAMP,
                vec![120, 121, 5, 15, 14, 3, 4, 0x07, 0x5b, 0xca, 0x00],
                "2021-05-15T13:02:03.123456".into(),
            ),
            (
                NODE_TIMESTAMP_TZ,
                vec![120, 121, 5, 15, 12, 3, 4, 0x07, 0x5b, 0xcd, 0x15, 22, 60],
                "2021-05-15T13:02:03.123456789+02:00".into(),
            ),
            (
                NODE_TIMESTAMP_TZ,
                vec![120, 121, 5, 15, 14, 3, 4, 0, 0, 0, 0, 20, 60],
                "2021-05-15T13:02:03Z".into(),
            ),
            (
                NODE_INTERVAL_YM,
                vec![0x7f, 0xff, 0xff, 0xfd, 54],
                "P-3Y-6M".into(),
            ),
            (
                NODE_INTERVAL_DS,
                vec![0x80, 0, 0, 1, 62, 63, 64, 0xa1, 0x60, 0xec, 0x00],
                "PT26H3M4.56S".into(),
            ),
            (
                NODE_BINARY_U16,
                raw.clone(),
                crate::types::hex(&raw).to_ascii_uppercase(),
            ),
        ];
        for (node, body, want) in cases {
            let doc = decode_value(&with_scalar(node, &body)).unwrap();
            assert_eq!(doc["k"], want, "node 0x{node:02x}");
        }
        // An identifier carries a length byte: `7e 02 cafe` in place of the string `03 xxx`.
        let mut b = with_scalar(0x00, &[0, 0, 0]);
        let at = b.len() - 4;
        b[at..].copy_from_slice(&[NODE_ID, 2, 0xca, 0xfe]);
        assert_eq!(decode_value(&b).unwrap()["k"], "CAFE");
        // A VECTOR inside JSON is an error with its reason, not a guess.
        b[at..at + 2].copy_from_slice(&[NODE_EXTENDED, 0x01]);
        assert!(decode(&b).unwrap_err().contains("VECTOR"));
    }
}
