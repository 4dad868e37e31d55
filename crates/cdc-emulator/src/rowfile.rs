//! The binary form of a table's rows in a checkpoint (see [`super::checkpoint`]): every retained
//! version of every row, in ROWID order, so that loading is one sequential decode (no JSON, no
//! redo replay), and a reader can read one chunk's rows from the file without the others
//! ([`super::store`]'s disk reads): a sparse directory gives where a ROWID, or a primary key,
//! starts.
//!
//! Rows section, little-endian: `u64` row count; per row a `u32` byte length of the rest (so a
//! reader knows how much to read), the ROWID (`u32` data object, file, block, slot), a `u32`
//! version count, and per version its `u64` SCN and a `u8` (0: deleted, 1: a row of `u32`
//! values follow). A value is a tag byte and its payload; text is a `u32` byte length and
//! UTF-8.
//!
//! Directory section: `u64` entry count; per entry a ROWID, the `u64` offset of its row in the
//! rows section, and its primary key (`u8` 0: none, 1: `u32` values follow). One entry every
//! [`DIR_EVERY`] rows (at a row with a key where the table has one). The directory finds key
//! ranges only when the table is *key-ordered*: every row has one key over all its versions and
//! keys rise with the ROWID (a bulk load's rows, and any table whose keys were never updated
//! out of order); [`encode_table`] says whether it is.

use super::store::Version;
use crate::types::{compare_keys, compare_keys_in, KeyOrder, Str, Value};
use cdc_core::rowid::RowId;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Rows between two directory entries (few in unit tests, so that reads cross entries).
pub const DIR_EVERY: usize = if cfg!(test) { 2 } else { 256 };

/// Bytes before the first row of a rows section (its row count).
pub const ROWS_START: u64 = 8;

/// A directory entry: where row `rid` (with primary key `key`) starts in the rows section.
#[derive(Debug, Clone)]
pub struct DirEntry {
    pub rid: RowId,
    pub offset: u64,
    pub key: Option<Vec<Value>>,
}

/// A row whose versions have different primary keys (a key update).
#[derive(Debug)]
pub struct KeyChanged;

/// The primary key of a row's versions (at key columns `pk`): `None` without a live version;
/// `Err` when its versions have different keys.
pub fn row_key(versions: &[Version], pk: &[usize]) -> Result<Option<Vec<Value>>, KeyChanged> {
    let mut key: Option<Vec<Value>> = None;
    for row in versions.iter().filter_map(|v| v.row.as_ref()) {
        let k: Vec<Value> = pk
            .iter()
            .map(|&i| row.get(i).cloned().unwrap_or(Value::Null))
            .collect();
        match &key {
            None => key = Some(k),
            Some(have) if compare_keys(have, &k).is_eq() => {}
            Some(_) => return Err(KeyChanged),
        }
    }
    Ok(key)
}

/// Encode a table's rows into `rows_out` and its directory into `dir_out`; `pk`: the primary
/// key's column positions (empty without one). Returns whether the table is key-ordered.
/// `order`: how the key orders (whether ROWID order is key order is judged in it).
pub fn encode_table(
    rows: &BTreeMap<RowId, Vec<Version>>,
    pk: &[usize],
    order: KeyOrder,
    rows_out: &mut Vec<u8>,
    dir_out: &mut Vec<u8>,
) -> bool {
    let base = rows_out.len();
    put_u64(rows_out, rows.len() as u64);
    let mut dir: Vec<DirEntry> = Vec::new();
    let mut ordered = true;
    let mut last_key: Option<Vec<Value>> = None;
    let mut since_entry = DIR_EVERY;
    for (rid, versions) in rows {
        let offset = (rows_out.len() - base) as u64;
        let key = if pk.is_empty() {
            None
        } else {
            match row_key(versions, pk) {
                Ok(k) => k,
                Err(KeyChanged) => {
                    ordered = false;
                    None
                }
            }
        };
        if let Some(k) = &key {
            if last_key
                .as_ref()
                .is_some_and(|l| !compare_keys_in(l, k, order).is_lt())
            {
                ordered = false;
            }
            last_key = Some(k.clone());
        }
        since_entry += 1;
        if since_entry >= DIR_EVERY && (pk.is_empty() || key.is_some() || dir.is_empty()) {
            dir.push(DirEntry {
                rid: *rid,
                offset,
                key: key.clone(),
            });
            since_entry = 0;
        }
        encode_row(rid, versions, rows_out);
    }
    put_u64(dir_out, dir.len() as u64);
    for e in &dir {
        put_dir_entry(dir_out, e);
    }
    ordered
}

/// Only the rows section (for tests and tools that need no directory).
pub fn encode_rows(rows: &BTreeMap<RowId, Vec<Version>>, out: &mut Vec<u8>) {
    encode_table(rows, &[], KeyOrder::default(), out, &mut Vec::new());
}

fn put_rid(out: &mut Vec<u8>, rid: &RowId) {
    for x in [rid.data_object, rid.relative_fno, rid.block, rid.slot] {
        put_u32(out, x);
    }
}

/// A row's values in the rows section's form (what [`RowSpill::push_encoded`] takes).
pub fn encode_values(out: &mut Vec<u8>, row: &[Value]) {
    put_values(out, row);
}

fn put_values(out: &mut Vec<u8>, row: &[Value]) {
    put_u32(out, row.len() as u32);
    for value in row {
        put_value(out, value);
    }
}

/// A table's rows written to a file as a bulk load commits them (`emulator init`), in the rows
/// section's form, so that the loader need not keep them: a checkpoint copies them in
/// ([`super::checkpoint::write`]). Each row has one version.
pub struct RowSpill {
    file: std::io::BufWriter<std::fs::File>,
    pk: Vec<usize>,
    order: KeyOrder,
    count: u64,
    /// Bytes of rows written (the section's offsets are these plus [`ROWS_START`]).
    len: u64,
    dir: Vec<DirEntry>,
    since_entry: usize,
    last_rid: Option<RowId>,
    last_key: Option<Vec<Value>>,
    key_ordered: bool,
    rid_ordered: bool,
    /// Rows of the open transaction (see [`RowSpill::push_pending`]), and where each starts.
    pending: Vec<u8>,
    pending_rows: Vec<usize>,
    key_buf: Vec<Value>,
    values_buf: Vec<u8>,
}

/// What a [`RowSpill`] wrote.
pub struct SpilledRows {
    pub file: std::fs::File,
    pub count: u64,
    pub len: u64,
    /// The directory section.
    pub dir: Vec<u8>,
    pub key_ordered: bool,
    /// Whether the rows came in ROWID order (a partitioned table's do not: then the
    /// checkpoint sorts them).
    pub rid_ordered: bool,
}

impl RowSpill {
    /// A spill in a temporary file in `dir` (removed when dropped); `pk`: the primary key's
    /// column positions (empty without one).
    pub fn new(
        dir: &std::path::Path,
        pk: Vec<usize>,
        order: KeyOrder,
    ) -> std::io::Result<RowSpill> {
        Ok(RowSpill {
            file: std::io::BufWriter::with_capacity(1 << 20, tempfile::tempfile_in(dir)?),
            pk,
            order,
            count: 0,
            len: 0,
            dir: Vec::new(),
            since_entry: DIR_EVERY,
            last_rid: None,
            last_key: None,
            key_ordered: true,
            rid_ordered: true,
            pending: Vec::with_capacity(1 << 16),
            pending_rows: Vec::new(),
            key_buf: Vec::new(),
            values_buf: Vec::new(),
        })
    }

    /// Row `rid` as committed at `scn`.
    pub fn push(&mut self, rid: RowId, scn: u64, row: &[Value]) -> std::io::Result<()> {
        self.push_pending(rid, row);
        self.commit_pending(scn).map(|_| ())
    }

    /// Row `rid` of a transaction that has not committed yet (a bulk load's): encoded now,
    /// written with its commit SCN by [`RowSpill::commit_pending`].
    pub fn push_pending(&mut self, rid: RowId, row: &[Value]) {
        let mut values = std::mem::take(&mut self.values_buf);
        values.clear();
        put_values(&mut values, row);
        self.push_encoded(rid, row, &values);
        self.values_buf = values;
    }

    /// [`RowSpill::push_pending`] of a row whose values are encoded already (`values`, by
    /// [`encode_values`]; `row` gives its key).
    pub fn push_encoded(&mut self, rid: RowId, row: &[Value], values: &[u8]) {
        if self.last_rid.is_some_and(|l| l >= rid) {
            self.rid_ordered = false;
        }
        self.last_rid = Some(rid);
        let has_key = !self.pk.is_empty();
        if has_key {
            // The key into a reused buffer: no allocation a row once the buffers have grown.
            self.key_buf.resize(self.pk.len(), Value::Null);
            for (slot, &i) in self.key_buf.iter_mut().zip(&self.pk) {
                match row.get(i) {
                    Some(v) => slot.clone_from(v),
                    None => *slot = Value::Null,
                }
            }
            if self
                .last_key
                .as_ref()
                .is_some_and(|l| !compare_keys_in(l, &self.key_buf, self.order).is_lt())
            {
                self.key_ordered = false;
            }
        }
        self.since_entry += 1;
        if self.since_entry >= DIR_EVERY {
            self.dir.push(DirEntry {
                rid,
                offset: ROWS_START + self.len + self.pending.len() as u64,
                key: has_key.then(|| self.key_buf.clone()),
            });
            self.since_entry = 0;
        }
        if has_key {
            match &mut self.last_key {
                Some(l) => std::mem::swap(l, &mut self.key_buf),
                None => self.last_key = Some(self.key_buf.clone()),
            }
        } else {
            self.last_key = None;
        }
        self.pending_rows.push(self.pending.len());
        // As encode_row_parts lays a row of one version out; the SCN is written at commit.
        let out = &mut self.pending;
        put_u32(out, (16 + 4 + 8 + 1 + values.len()) as u32);
        put_rid(out, &rid);
        put_u32(out, 1);
        put_u64(out, 0);
        out.push(1);
        out.extend_from_slice(values);
    }

    /// Write the rows pushed since the last commit, committed at `scn`; how many there were.
    pub fn commit_pending(&mut self, scn: u64) -> std::io::Result<u64> {
        use std::io::Write;
        // Each row: u32 length, 16 bytes of ROWID, u32 version count, then the version's SCN.
        const SCN_AT: usize = 4 + 16 + 4;
        for &at in &self.pending_rows {
            self.pending[at + SCN_AT..at + SCN_AT + 8].copy_from_slice(&scn.to_le_bytes());
        }
        self.file.write_all(&self.pending)?;
        let rows = self.pending_rows.len() as u64;
        self.len += self.pending.len() as u64;
        self.count += rows;
        self.pending.clear();
        self.pending_rows.clear();
        Ok(rows)
    }

    /// Rows pushed and not committed yet.
    pub fn pending(&self) -> usize {
        self.pending_rows.len()
    }

    pub fn finish(self) -> std::io::Result<SpilledRows> {
        use std::io::Seek;
        if !self.pending_rows.is_empty() {
            return Err(std::io::Error::other(format!(
                "{} rows of a transaction that never committed",
                self.pending_rows.len()
            )));
        }
        let mut file = self.file.into_inner().map_err(|e| e.into_error())?;
        file.rewind()?;
        let mut dir = Vec::new();
        put_u64(&mut dir, self.dir.len() as u64);
        for e in &self.dir {
            put_dir_entry(&mut dir, e);
        }
        Ok(SpilledRows {
            file,
            count: self.count,
            len: self.len,
            dir,
            key_ordered: self.key_ordered,
            rid_ordered: self.rid_ordered,
        })
    }
}

fn put_dir_entry(out: &mut Vec<u8>, e: &DirEntry) {
    put_rid(out, &e.rid);
    put_u64(out, e.offset);
    match &e.key {
        None => out.push(0),
        Some(k) => {
            out.push(1);
            put_values(out, k);
        }
    }
}

fn encode_row(rid: &RowId, versions: &[Version], out: &mut Vec<u8>) {
    let len_at = out.len();
    put_u32(out, 0);
    put_rid(out, rid);
    put_u32(out, versions.len() as u32);
    for v in versions {
        put_u64(out, v.scn);
        match &v.row {
            None => out.push(0),
            Some(row) => {
                out.push(1);
                put_values(out, row);
            }
        }
    }
    let len = (out.len() - len_at - 4) as u32;
    out[len_at..len_at + 4].copy_from_slice(&len.to_le_bytes());
}

/// The length of the row starting at `buf[0..]` (its length prefix included), when `buf` holds
/// at least its prefix.
pub fn row_len(buf: &[u8]) -> Option<usize> {
    let b = buf.get(..4)?;
    Some(4 + u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
}

/// A row of the rows section, its versions not yet decoded: a read decodes only the version it
/// sees ([`RawRow::visible`]), where decoding every version of every row into shared rows, then
/// copying the one seen out, was most of an export's time.
pub struct RawRow<'a> {
    pub rid: RowId,
    /// The row's bytes (its length prefix included).
    buf: &'a [u8],
    /// Where its version count starts.
    versions_at: usize,
}

impl<'a> RawRow<'a> {
    /// The one row that `buf` holds exactly (its length prefix included).
    pub fn parse(buf: &'a [u8]) -> Result<RawRow<'a>, String> {
        let mut c = Cursor { buf, at: 4 };
        let rid = c.rid()?;
        Ok(RawRow {
            rid,
            buf,
            versions_at: c.at,
        })
    }

    /// Every version, decoded.
    pub fn versions(&self) -> Result<Vec<Version>, String> {
        let mut c = Cursor {
            buf: self.buf,
            at: self.versions_at,
        };
        let versions = c.versions()?;
        c.end()?;
        Ok(versions)
    }

    /// The values of the version visible at `scn`: the newest at or below it (versions are
    /// kept in SCN order); `None` when there is none or it is a delete.
    pub fn visible(&self, scn: u64) -> Result<Option<Vec<Value>>, String> {
        let mut c = Cursor {
            buf: self.buf,
            at: self.versions_at,
        };
        let n = c.u32()?;
        let mut seen: Option<usize> = None;
        for i in 0..n {
            let at = c.at;
            let v_scn = c.u64()?;
            if v_scn > scn {
                break;
            }
            if i + 1 == n {
                // The last version, and seen: decoded where it is, without skipping its values
                // first and coming back (most rows have one version).
                return match c.u8()? {
                    0 => Ok(None),
                    1 => c.values().map(Some),
                    b => Err(format!("bad row flag {b} at byte {}", c.at - 1)),
                };
            }
            seen = Some(at);
            match c.u8()? {
                0 => {}
                1 => c.skip_values()?,
                b => return Err(format!("bad row flag {b} at byte {}", c.at - 1)),
            }
        }
        let Some(at) = seen else {
            return Ok(None);
        };
        c.at = at + 8;
        match c.u8()? {
            0 => Ok(None),
            1 => c.values().map(Some),
            b => Err(format!("bad row flag {b} at byte {}", c.at - 1)),
        }
    }
}

pub fn decode_rows(buf: &[u8]) -> Result<BTreeMap<RowId, Vec<Version>>, String> {
    let mut c = Cursor { buf, at: 0 };
    let count = c.u64()?;
    let mut rows = Vec::with_capacity(count.min(1 << 24) as usize);
    for _ in 0..count {
        let len = c.u32()? as usize;
        let end = c.at + len;
        let row = c.row()?;
        if c.at != end {
            return Err(format!(
                "a row's length says {len} bytes, it has {}",
                len + c.at - end
            ));
        }
        rows.push(row);
    }
    if c.at != buf.len() {
        return Err(format!("{} bytes after the last row", buf.len() - c.at));
    }
    // Written in ROWID order: the map is built from sorted input.
    Ok(rows.into_iter().collect())
}

pub fn decode_dir(buf: &[u8]) -> Result<Vec<DirEntry>, String> {
    let mut c = Cursor { buf, at: 0 };
    let count = c.u64()?;
    let mut dir = Vec::with_capacity(count.min(1 << 20) as usize);
    for _ in 0..count {
        let rid = c.rid()?;
        let offset = c.u64()?;
        let key = match c.u8()? {
            0 => None,
            1 => Some(c.values()?),
            b => return Err(format!("bad key flag {b} at byte {}", c.at - 1)),
        };
        dir.push(DirEntry { rid, offset, key });
    }
    if c.at != buf.len() {
        return Err(format!("{} bytes after the directory", buf.len() - c.at));
    }
    Ok(dir)
}

fn put_u32(out: &mut Vec<u8>, x: u32) {
    out.extend_from_slice(&x.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, x: u64) {
    out.extend_from_slice(&x.to_le_bytes());
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    put_u32(out, b.len() as u32);
    out.extend_from_slice(b);
}

fn put_value(out: &mut Vec<u8>, v: &Value) {
    let (tag, text): (u8, Option<&str>) = match v {
        Value::Null => (0, None),
        Value::Number(s) => (1, Some(s)),
        Value::Text(s) => (2, Some(s)),
        Value::Date(s) => (5, Some(s)),
        Value::Timestamp(s) => (6, Some(s)),
        Value::TimestampTz(s) => (7, Some(s)),
        Value::IntervalYm(s) => (8, Some(s)),
        Value::IntervalDs(s) => (9, Some(s)),
        Value::Json(s) => (12, Some(s)),
        _ => (255, None),
    };
    if tag != 255 {
        out.push(tag);
        if let Some(s) = text {
            put_bytes(out, s.as_bytes());
        }
        return;
    }
    match v {
        Value::BinaryFloat(f) => {
            out.push(3);
            put_u32(out, f.to_bits());
        }
        Value::BinaryDouble(f) => {
            out.push(4);
            put_u64(out, f.to_bits());
        }
        Value::Bytes(b) => {
            out.push(10);
            put_bytes(out, b);
        }
        Value::Boolean(b) => {
            out.push(11);
            out.push(u8::from(*b));
        }
        Value::Vector(xs) => {
            out.push(13);
            put_u32(out, xs.len() as u32);
            for x in xs {
                put_u32(out, x.to_bits());
            }
        }
        Value::Bfile(b) => {
            out.push(14);
            put_bytes(out, b.directory.as_bytes());
            put_bytes(out, b.file.as_bytes());
        }
        // Every text-carrying variant was written above.
        _ => out.push(0),
    }
}

/// `b` as text if it is UTF-8. Most stored text is short and ASCII, which is UTF-8 as it is:
/// one pass over its bytes says so, where the full validation's per-call setup was a fourteenth
/// of a snapshot's instructions; anything else is validated in full.
fn utf8(b: &[u8]) -> Option<&str> {
    if b.iter().fold(0u8, |acc, &c| acc | c) < 0x80 {
        // SAFETY: every byte is below 0x80, so `b` is ASCII, and ASCII is valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(b) })
    } else {
        std::str::from_utf8(b).ok()
    }
}

struct Cursor<'a> {
    buf: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn rid(&mut self) -> Result<RowId, String> {
        Ok(RowId {
            data_object: self.u32()?,
            relative_fno: self.u32()?,
            block: self.u32()?,
            slot: self.u32()?,
        })
    }
    fn values(&mut self) -> Result<Vec<Value>, String> {
        let len = self.u32()?;
        let mut values = Vec::with_capacity(len.min(4096) as usize);
        for _ in 0..len {
            self.push_value(&mut values)?;
        }
        Ok(values)
    }
    /// The next value, onto `values`. A text is pushed empty and filled where it lies: made
    /// aside and moved in, its inline form was read back in words just after its bytes were
    /// stored one by one, which stalls the store buffer (half of this decoder's cycles).
    fn push_value(&mut self, values: &mut Vec<Value>) -> Result<(), String> {
        let make: fn(Str) -> Value = match self.buf.get(self.at) {
            Some(1) => Value::Number,
            Some(2) => Value::Text,
            Some(5) => Value::Date,
            Some(6) => Value::Timestamp,
            Some(7) => Value::TimestampTz,
            Some(8) => Value::IntervalYm,
            Some(9) => Value::IntervalDs,
            Some(12) => Value::Json,
            _ => {
                values.push(self.value()?);
                return Ok(());
            }
        };
        self.at += 1;
        let at = self.at;
        let n = self.u32()? as usize;
        let text = utf8(self.take(n)?).ok_or_else(|| format!("text at byte {at} is not UTF-8"))?;
        values.push(make(Str::const_new("")));
        let Some(s) = values.last_mut().and_then(Value::text_mut) else {
            // `make` made a text kind just above.
            return Err(format!(
                "the text at byte {at} did not decode to a text value"
            ));
        };
        s.push_str(text);
        Ok(())
    }
    fn row(&mut self) -> Result<(RowId, Vec<Version>), String> {
        let rid = self.rid()?;
        Ok((rid, self.versions()?))
    }
    fn end(&self) -> Result<(), String> {
        match self.buf.len() - self.at {
            0 => Ok(()),
            n => Err(format!("{n} bytes after a row")),
        }
    }
    /// Past a row's values without decoding them.
    fn skip_values(&mut self) -> Result<(), String> {
        for _ in 0..self.u32()? {
            let tag = self.u8()?;
            let n = match tag {
                0 => 0,
                1 | 2 | 5..=10 | 12 => self.u32()? as usize,
                3 => 4,
                4 => 8,
                11 => 1,
                13 => (self.u32()? as usize).saturating_mul(4),
                14 => {
                    let d = self.u32()? as usize;
                    self.take(d)?;
                    self.u32()? as usize
                }
                t => return Err(format!("unknown value tag {t} at byte {}", self.at - 1)),
            };
            self.take(n)?;
        }
        Ok(())
    }
    fn versions(&mut self) -> Result<Vec<Version>, String> {
        let n = self.u32()?;
        let mut versions = Vec::with_capacity(n.min(1024) as usize);
        for _ in 0..n {
            let scn = self.u64()?;
            let row = match self.u8()? {
                0 => None,
                1 => Some(Arc::from(self.values()?.into_boxed_slice())),
                b => return Err(format!("bad row flag {b} at byte {}", self.at - 1)),
            };
            versions.push(Version { scn, row });
        }
        Ok(versions)
    }
    // The readers of fixed-size fields are inlined into every decoder (each row reads a dozen),
    // their error made apart: with it formatted in place, `u32` stayed a call of its own and
    // was a twentieth of a snapshot's instructions.
    #[inline(always)]
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        match self.buf.get(self.at..).and_then(|rest| rest.get(..n)) {
            Some(s) => {
                self.at += n;
                Ok(s)
            }
            None => Err(self.cut_short()),
        }
    }
    #[cold]
    #[inline(never)]
    fn cut_short(&self) -> String {
        format!("cut short at byte {}", self.at)
    }
    #[inline(always)]
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    #[inline(always)]
    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    #[inline(always)]
    fn u64(&mut self) -> Result<u64, String> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn bytes(&mut self) -> Result<Vec<u8>, String> {
        let n = self.u32()? as usize;
        Ok(self.take(n)?.to_vec())
    }
    /// Text read in place: most values fit [`Str`]'s inline form, so no allocation.
    fn text(&mut self) -> Result<Str, String> {
        let at = self.at;
        let n = self.u32()? as usize;
        utf8(self.take(n)?)
            .map(Str::from)
            .ok_or_else(|| format!("text at byte {at} is not UTF-8"))
    }
    fn value(&mut self) -> Result<Value, String> {
        Ok(match self.u8()? {
            0 => Value::Null,
            1 => Value::Number(self.text()?),
            2 => Value::Text(self.text()?),
            3 => Value::BinaryFloat(f32::from_bits(self.u32()?)),
            4 => Value::BinaryDouble(f64::from_bits(self.u64()?)),
            5 => Value::Date(self.text()?),
            6 => Value::Timestamp(self.text()?),
            7 => Value::TimestampTz(self.text()?),
            8 => Value::IntervalYm(self.text()?),
            9 => Value::IntervalDs(self.text()?),
            10 => Value::Bytes(self.bytes()?),
            11 => Value::Boolean(self.u8()? != 0),
            12 => Value::Json(self.text()?),
            13 => {
                let n = self.u32()?;
                let mut xs = Vec::with_capacity(n.min(65_536) as usize);
                for _ in 0..n {
                    xs.push(f32::from_bits(self.u32()?));
                }
                Value::Vector(xs)
            }
            14 => {
                let directory = self.text()?;
                Value::bfile(directory, self.text()?)
            }
            t => return Err(format!("unknown value tag {t} at byte {}", self.at - 1)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_kind_survives_the_round_trip() {
        let row: Vec<Value> = vec![
            Value::Null,
            Value::Number("-1.5".into()),
            Value::Text("héllo".into()),
            Value::BinaryFloat(1.25),
            Value::BinaryDouble(-2.5e300),
            Value::Date("2024-01-02 03:04:05".into()),
            Value::Timestamp("2024-01-02 03:04:05.123456".into()),
            Value::TimestampTz("2024-01-02 03:04:05.1 +02:00".into()),
            Value::IntervalYm("+01-02".into()),
            Value::IntervalDs("+01 02:03:04.5".into()),
            Value::Bytes(vec![0, 255, 7]),
            Value::Boolean(true),
            Value::Json("{\"a\":1}".into()),
            Value::Vector(vec![1.0, -0.5]),
            Value::bfile("D", "f.bin"),
        ];
        let mut rows = BTreeMap::new();
        let rid = |slot| RowId {
            data_object: 73000,
            relative_fno: 4,
            block: 130,
            slot,
        };
        rows.insert(
            rid(1),
            vec![
                Version {
                    scn: 10,
                    row: Some(Arc::from(row.clone().into_boxed_slice())),
                },
                Version { scn: 12, row: None },
            ],
        );
        rows.insert(rid(0), vec![]);
        let mut buf = Vec::new();
        encode_rows(&rows, &mut buf);
        let back = decode_rows(&buf).unwrap();
        assert_eq!(back.len(), 2);
        let v = &back[&rid(1)];
        assert_eq!((v[0].scn, v[1].scn), (10, 12));
        assert_eq!(v[0].row.as_deref(), Some(row.as_slice()));
        assert!(v[1].row.is_none());
        assert!(decode_rows(&buf[..buf.len() - 1]).is_err());
    }

    /// The version a read sees is the newest at or below its SCN, whether it is the row's last
    /// version (decoded in place) or an earlier one (found, then gone back to), and a delete is
    /// no row.
    #[test]
    fn a_read_sees_the_newest_version_at_or_below_its_scn() {
        let row = |n: &str| Some(Arc::from(vec![Value::Number(n.into())].into_boxed_slice()));
        let shapes: Vec<Vec<Version>> = vec![
            vec![Version {
                scn: 10,
                row: row("1"),
            }],
            vec![
                Version {
                    scn: 10,
                    row: row("1"),
                },
                Version {
                    scn: 20,
                    row: row("2"),
                },
                Version { scn: 30, row: None },
            ],
            vec![
                Version { scn: 10, row: None },
                Version {
                    scn: 20,
                    row: row("3"),
                },
            ],
            vec![],
        ];
        for (slot, versions) in shapes.into_iter().enumerate() {
            let rid = RowId {
                data_object: 73000,
                relative_fno: 4,
                block: 130,
                slot: slot as u32,
            };
            let mut buf = Vec::new();
            encode_row(&rid, &versions, &mut buf);
            let raw = RawRow::parse(&buf).unwrap();
            for scn in [5, 10, 15, 20, 25, 30, 35] {
                let want = versions
                    .iter()
                    .rev()
                    .find(|v| v.scn <= scn)
                    .and_then(|v| v.row.as_deref().map(<[Value]>::to_vec));
                assert_eq!(raw.visible(scn).unwrap(), want, "slot {slot} at {scn}");
            }
        }
    }

    /// Stored text is taken as it is when ASCII, validated in full otherwise: UTF-8 beyond ASCII
    /// is text, and bytes that are not UTF-8 (a lone continuation byte, a cut sequence, an
    /// overlong form) are refused, wherever they sit.
    #[test]
    fn stored_text_is_utf8_or_refused() {
        for ok in ["", "a", "EMEA", "héllo wörld", "日本語のテキスト", "\u{7f}"] {
            assert_eq!(utf8(ok.as_bytes()), Some(ok));
        }
        for bad in [
            &b"\x80"[..],
            b"abc\xff",
            b"\xc3",
            b"abcdefgh\xe6\x97",
            b"\xc0\xaf",
        ] {
            assert_eq!(utf8(bad), None, "{bad:?}");
        }
        let mut buf = Vec::new();
        put_u32(&mut buf, 3);
        buf.extend_from_slice(b"a\xffb");
        let err = Cursor { buf: &buf, at: 0 }.text().unwrap_err();
        assert!(err.contains("not UTF-8"), "{err}");
        let err = Cursor {
            buf: &buf[..5],
            at: 0,
        }
        .text()
        .unwrap_err();
        assert!(err.contains("cut short at byte 4"), "{err}");
    }

    /// A row's texts are filled in place (`push_value`): each text variant keeps its kind, a
    /// text past the inline 24 bytes comes whole, the other kinds pass through, and text that is
    /// not UTF-8 is refused with its place.
    #[test]
    fn a_rows_texts_are_decoded_in_place_whole_and_checked() {
        let long = "a text of more than twenty-four bytes, held on the heap: ünïcode";
        let row = vec![
            Value::Number("-12.5".into()),
            Value::Text(long.into()),
            Value::Text("".into()),
            Value::Date("2024-01-02 03:04:05".into()),
            Value::Timestamp("2024-01-02 03:04:05.123456789".into()),
            Value::TimestampTz("2024-01-02 03:04:05.000000001 -03:30".into()),
            Value::IntervalYm("+01-02".into()),
            Value::IntervalDs("+01 02:03:04.500000".into()),
            Value::Json("{\"k\":[1,2]}".into()),
            Value::Null,
            Value::BinaryDouble(2.5),
            Value::Bytes(vec![1, 2]),
            Value::bfile("DIR", "f.bin"),
            Value::Text("exactly twenty-four byte".into()),
        ];
        let mut buf = Vec::new();
        put_values(&mut buf, &row);
        assert_eq!(Cursor { buf: &buf, at: 0 }.values().unwrap(), row);

        let mut bad = Vec::new();
        put_values(
            &mut bad,
            &[Value::Number("1".into()), Value::Text("ab".into())],
        );
        let last = bad.len() - 1;
        bad[last] = 0xff;
        let err = Cursor { buf: &bad, at: 0 }.values().unwrap_err();
        // 4 (count) + 1 (tag) + 4 (length) + 1 ("1") + 1 (tag): the second text's length.
        assert_eq!(err, "text at byte 11 is not UTF-8");
        let err = Cursor {
            buf: &bad[..bad.len() - 1],
            at: 0,
        }
        .values()
        .unwrap_err();
        assert!(err.contains("cut short"), "{err}");
    }
}
