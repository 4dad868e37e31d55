//! Checkpoints: the replica's state at a point of the redo, in a datafile beside it, so that a
//! process opening the database reads the checkpoint and replays only the redo after it.
//!
//! Why a checkpoint file and not an embedded storage engine: the emulator's readers and its one
//! writer are separate processes, and a reader must see the database as of the redo it has
//! read (its own SCN), not as of whatever the writer last committed. redb and fjall take an
//! exclusive lock on their files (one process at a time); sled is single-process and
//! unmaintained; LMDB (heed) allows many reader processes, but its readers see the writer's
//! latest transaction, so each reader would still need its own redo replay on top, and the
//! C build adds a toolchain dependency. The redo already is the log; what was missing is a
//! point to start replaying from. Oracle does the same: a checkpoint writes the datafiles up
//! to an SCN, and instance recovery applies the redo after it.
//!
//! `checkpoint.dat` holds: a magic line, a JSON header (where in the redo it stands, a
//! fingerprint of the redo bytes before that point and of `schema.yaml`, where each table's
//! rows are), the replica's metadata as JSON (tables' columns, extents, statistics, commits,
//! logs, open transactions, the redo index), then each table's rows in
//! [`super::rowfile`]'s binary form, each followed by its row directory. Opening reads the header
//! and the metadata only; an `AS OF SCN` read reads the rows of its chunk from the file through
//! the directory (`store_disk.rs`), and what needs every row in memory loads them
//! ([`super::store::Replica::load_rows`]), so `emulator status` of a 10M-row database reads a few
//! kilobytes and an export of it holds a chunk at a time.
//!
//! Every byte is checked: the header line ends with its CRC-32C, the header holds the
//! metadata's, and the rows and directories (the body) are checked page by page on every read
//! ([`super::checkpoint_pages`]). A header or metadata that fails its check is a checkpoint
//! not to use (the redo is replayed, as for one that does not match the redo); a page of rows
//! that fails its check when read is CDC-4004 naming the file, the table and the bytes, never
//! rows.
//!
//! `emulator init` writes the rows it loads to spill files as they commit
//! ([`super::rowfile::RowSpill`]) and this module copies them in ([`write_with`]): the loader
//! never holds the table.
//!
//! Only the writer writes it (after flushing and syncing the redo up to the point it
//! describes), to `checkpoint.tmp`, synced, then renamed over `checkpoint.dat`: a writer killed
//! at any moment leaves the old checkpoint or the new one. A checkpoint that does not match the
//! redo (the redo cut shorter, other bytes before its point, another schema file) is ignored
//! with a warning, and the whole redo is replayed: the redo stays the source of truth.

use super::key_index::KeyIndex;
use super::redo::{Redo, Xid};
use super::redo_index::RedoIndex;
use super::store::{LogSeq, OpenTx, Replica};
use crate::errors::{CdcError, Result};
use cdc_core::model::{ColumnInfo, Extent, Scn};
use serde::{Deserialize, Serialize};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const CHECKPOINT_FILE: &str = "checkpoint.dat";
const TMP_FILE: &str = "checkpoint.tmp";
/// Version 3 added the checksums; a checkpoint of version 2 is not used (the whole redo is
/// replayed, and the next checkpoint the writer takes is of this version).
const MAGIC: &[u8] = b"oracle-cdc emulator checkpoint 3\n";
/// What ends the header line before its checksum (8 hex digits).
const HEADER_SUM: &str = " crc32c=";
/// Bytes of redo before the checkpoint's point that its fingerprint covers.
const FINGERPRINT_BYTES: u64 = 4096;

#[derive(Serialize, Deserialize)]
struct Header {
    /// Byte offset in the redo up to which the checkpoint has applied every record.
    redo_offset: u64,
    /// Number of the next record (the redo's line number after `redo_offset`).
    next_record: u64,
    redo_fingerprint: u64,
    schema_fingerprint: u64,
    meta_len: u64,
    /// Each table's rows: (offset in the file, length).
    rows: Vec<(u64, u64)>,
    /// Each table's row directory: (offset in the file, length).
    dirs: Vec<(u64, u64)>,
    /// Whether each table is key-ordered (see [`super::rowfile`]).
    key_ordered: Vec<bool>,
    meta_crc: u32,
    /// Where the body (rows and directories) starts, its length, and the bytes of each of its
    /// checksummed pages; the table of the pages' checksums follows the body.
    body_start: u64,
    body_len: u64,
    page_bytes: u64,
}

#[derive(Serialize, Deserialize)]
struct TableMeta {
    /// CREATE TABLE's schema entry for tables made after `emulator init`.
    created_spec: Option<serde_json::Value>,
    columns: Vec<ColumnInfo>,
    history: Vec<(Scn, Vec<ColumnInfo>)>,
    last_ddl_scn: Scn,
    last_change_scn: Scn,
    extents: Vec<(Option<u32>, Extent)>,
    data_object_id: u32,
    partition_objects: Vec<u32>,
    /// Object ids apart from the data object ids once a TRUNCATE gave a segment a new one.
    #[serde(default)]
    object_id: u32,
    #[serde(default)]
    partition_ids: Vec<u32>,
    #[serde(default)]
    former_segments: Vec<(u32, u32)>,
    stats: Option<(u64, u64)>,
    changes_since_stats: u64,
    live_rows: u64,
    change_commits: Vec<(Scn, i64)>,
    serial_high: u64,
}

#[derive(Serialize, Deserialize)]
struct OpenMeta {
    xid: Xid,
    start_scn: Scn,
    thread: u32,
    changes: Vec<u64>,
    records: Vec<Redo>,
}

#[derive(Serialize, Deserialize)]
struct Meta {
    tables: Vec<TableMeta>,
    open: Vec<OpenMeta>,
    xid_thread: Vec<(Xid, u32)>,
    xid_start: Vec<(Xid, Scn)>,
    xid_pdb: Vec<(Xid, String)>,
    xid_user: Vec<(Xid, String)>,
    scn_times: Vec<(Scn, i64)>,
    logs: Vec<Vec<LogSeq>>,
    dictionary_builds: Vec<(u32, u64, Scn)>,
    current_scn: Scn,
    /// `Replica::own_scn` (0 in a checkpoint written before it was kept).
    #[serde(default)]
    own_scn: Scn,
    lgwr: super::lgwr::LogWriters,
    index: RedoIndex,
    commits_since_prune: u64,
    commit_ts: i64,
}

/// FNV-1a: a fingerprint, not a defence against anyone.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn redo_fingerprint(redo: &Path, offset: u64) -> std::io::Result<u64> {
    let mut f = std::fs::File::open(redo)?;
    let from = offset.saturating_sub(FINGERPRINT_BYTES);
    f.seek(SeekFrom::Start(from))?;
    let mut buf = vec![0u8; (offset - from) as usize];
    f.read_exact(&mut buf)?;
    Ok(fnv(&buf))
}

fn schema_fingerprint(dir: &Path) -> std::io::Result<u64> {
    Ok(fnv(&std::fs::read(dir.join(super::SCHEMA_FILE))?))
}

/// Write the checkpoint of `replica` (rows loaded), which has applied the redo up to byte
/// `redo_offset` (flushed and, for a durable writer, synced by the caller).
pub fn write(dir: &Path, replica: &Replica, redo_offset: u64) -> Result<()> {
    write_with(dir, replica, redo_offset, Vec::new())
}

/// A part of the checkpoint's body: bytes, or a bulk load's spilled rows copied in.
enum Part {
    Bytes(Vec<u8>),
    Spill(std::fs::File),
}

/// [`write`], table `i`'s rows being `spilled[i]` where there is one (a bulk load's, whose
/// rows are not in the replica).
pub fn write_with(
    dir: &Path,
    replica: &Replica,
    redo_offset: u64,
    mut spilled: Vec<Option<super::rowfile::SpilledRows>>,
) -> Result<()> {
    let redo = dir.join(super::redo::REDO_FILE);
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |e| CdcError::io(&p, e)
    };
    let meta = Meta {
        tables: replica
            .tables
            .iter()
            .map(|t| TableMeta {
                created_spec: t.created_spec.clone(),
                columns: t.columns.clone(),
                history: t.history.clone(),
                last_ddl_scn: t.last_ddl_scn,
                last_change_scn: t.last_change_scn,
                extents: t.extents.clone(),
                data_object_id: t.data_object_id,
                partition_objects: t.partition_objects.clone(),
                object_id: t.object_id,
                partition_ids: t.partition_ids.clone(),
                former_segments: t.former_segments.clone(),
                stats: t.stats,
                changes_since_stats: t.changes_since_stats,
                live_rows: t.live_rows,
                change_commits: t.change_commits.clone(),
                serial_high: t.serial_high,
            })
            .collect(),
        open: replica
            .open
            .iter()
            .map(|(xid, tx)| OpenMeta {
                xid: *xid,
                start_scn: tx.start_scn,
                thread: tx.thread,
                changes: tx.changes.clone(),
                records: tx.records.iter().map(|r| (**r).clone()).collect(),
            })
            .collect(),
        xid_thread: replica.xid_thread.iter().map(|(k, v)| (*k, *v)).collect(),
        xid_start: replica.xid_start.iter().map(|(k, v)| (*k, *v)).collect(),
        xid_pdb: replica
            .xid_pdb
            .iter()
            .map(|(k, v)| (*k, v.clone()))
            .collect(),
        xid_user: replica
            .xid_user
            .iter()
            .map(|(k, v)| (*k, v.clone()))
            .collect(),
        scn_times: replica.scn_times.clone(),
        logs: replica.logs.clone(),
        dictionary_builds: replica.dictionary_builds.clone(),
        current_scn: replica.current_scn,
        own_scn: replica.own_scn,
        lgwr: replica.lgwr.clone(),
        index: replica.index.clone(),
        commits_since_prune: replica.commits_since_prune(),
        commit_ts: replica.commit_ts(),
    };
    let meta = serde_json::to_vec(&meta).map_err(|e| CdcError::Database(e.to_string()))?;
    let mut sections = Vec::with_capacity(replica.tables.len());
    let mut dir_sections = Vec::with_capacity(replica.tables.len());
    let mut key_ordered = Vec::with_capacity(replica.tables.len());
    let mut parts: Vec<Part> = Vec::new();
    let mut at = 0u64;
    spilled.resize_with(replica.tables.len(), || None);
    for (t, spill) in replica.tables.iter().zip(spilled) {
        let pk = super::store::key_positions(t).unwrap_or_default();
        let (mut rows, mut dir_bytes) = (Vec::new(), Vec::new());
        match spill {
            Some(sp) if sp.rid_ordered => {
                rows.extend_from_slice(&sp.count.to_le_bytes());
                sections.push((at, 8 + sp.len));
                at += 8 + sp.len;
                parts.push(Part::Bytes(rows));
                parts.push(Part::Spill(sp.file));
                dir_bytes = sp.dir;
                key_ordered.push(sp.key_ordered);
            }
            Some(mut sp) => {
                // Not in ROWID order (rows of several partitions): sorted here.
                let mut buf = sp.count.to_le_bytes().to_vec();
                sp.file.read_to_end(&mut buf).map_err(io(dir))?;
                let sorted = super::rowfile::decode_rows(&buf).map_err(CdcError::Database)?;
                key_ordered.push(super::rowfile::encode_table(
                    &sorted,
                    &pk,
                    t.pk_order(),
                    &mut rows,
                    &mut dir_bytes,
                ));
                sections.push((at, rows.len() as u64));
                at += rows.len() as u64;
                parts.push(Part::Bytes(rows));
            }
            None => {
                key_ordered.push(super::rowfile::encode_table(
                    &t.rows,
                    &pk,
                    t.pk_order(),
                    &mut rows,
                    &mut dir_bytes,
                ));
                sections.push((at, rows.len() as u64));
                at += rows.len() as u64;
                parts.push(Part::Bytes(rows));
            }
        }
        dir_sections.push((at, dir_bytes.len() as u64));
        at += dir_bytes.len() as u64;
        parts.push(Part::Bytes(dir_bytes));
    }
    let meta_crc = crc32c::crc32c(&meta);
    let page_bytes = super::checkpoint_pages::PAGE_BYTES;
    let header =
        |sections: &[(u64, u64)], dirs: &[(u64, u64)], body_start: u64| -> Result<Vec<u8>> {
            let h = Header {
                redo_offset,
                next_record: replica.next_record(),
                redo_fingerprint: redo_fingerprint(&redo, redo_offset).map_err(io(&redo))?,
                schema_fingerprint: schema_fingerprint(dir).map_err(io(dir))?,
                meta_len: meta.len() as u64,
                rows: sections.to_vec(),
                dirs: dirs.to_vec(),
                key_ordered: key_ordered.clone(),
                meta_crc,
                body_start,
                body_len: at,
                page_bytes,
            };
            let mut line = serde_json::to_vec(&h).map_err(|e| CdcError::Database(e.to_string()))?;
            let sum = crc32c::crc32c(&line);
            line.extend_from_slice(format!("{HEADER_SUM}{sum:08x}\n").as_bytes());
            Ok(line)
        };
    // The header's length depends on the offsets it holds: place the rows after a first draft
    // (room for the body's start, 0 in the draft, to grow to 20 digits).
    let draft = header(&sections, &dir_sections, 0)?;
    let room = draft.len() + 48;
    let base = (MAGIC.len() + room + meta.len()) as u64;
    let place =
        |s: &[(u64, u64)]| -> Vec<(u64, u64)> { s.iter().map(|(o, l)| (base + o, *l)).collect() };
    let mut head = header(&place(&sections), &place(&dir_sections), base)?;
    // Pad the header line to a fixed width so the rows land where it says.
    let width = room;
    if head.len() > width {
        return Err(CdcError::Database(
            "checkpoint header grew past its room".into(),
        ));
    }
    head.pop();
    head.resize(width - 1, b' ');
    head.push(b'\n');
    let tmp = dir.join(TMP_FILE);
    // Not through a link; private like the redo it mirrors (0600, or 0640 by setting).
    let f = crate::localfs::create(&tmp, crate::localfs::Kind::Data)?;
    let mut f = std::io::BufWriter::with_capacity(1 << 20, f);
    for part in [MAGIC, &head, &meta] {
        f.write_all(part).map_err(io(&tmp))?;
    }
    let mut body = super::checkpoint_pages::SummingWriter {
        inner: f,
        sums: super::checkpoint_pages::PageSums::new(page_bytes),
        written: 0,
    };
    for part in parts {
        match part {
            Part::Bytes(b) => body.write_all(&b).map_err(io(&tmp))?,
            Part::Spill(mut file) => {
                std::io::copy(&mut file, &mut body).map_err(io(&tmp))?;
            }
        }
    }
    if body.written != at {
        // A spill file shorter or longer than it said: the header's offsets would be wrong.
        return Err(CdcError::Database(format!(
            "checkpoint body of {} bytes where {at} were placed",
            body.written
        )));
    }
    let mut f = body.inner;
    f.write_all(&super::checkpoint_pages::encode_table(&body.sums.finish()))
        .map_err(io(&tmp))?;
    let f = f
        .into_inner()
        .map_err(|e| CdcError::io(&tmp, e.into_error()))?;
    f.sync_all().map_err(io(&tmp))?;
    drop(f);
    let dest = dir.join(CHECKPOINT_FILE);
    std::fs::rename(&tmp, &dest).map_err(io(&dest))?;
    if let Ok(d) = std::fs::File::open(dir) {
        // The rename itself durable (best effort: not every filesystem syncs directories).
        let _ = d.sync_all();
    }
    Ok(())
}

/// Where the rows of a replica opened from a checkpoint are, until they are read: the file
/// stays open, so a newer checkpoint renamed over it later does not change what this one reads.
#[derive(Debug, Clone)]
pub struct RowsOnDisk {
    pub path: PathBuf,
    file: Arc<std::fs::File>,
    pub sections: Vec<(u64, u64)>,
    pub dirs: Vec<(u64, u64)>,
    pub key_ordered: Vec<bool>,
    /// The tables' names, for errors.
    tables: Arc<Vec<String>>,
    body: Body,
}

/// The checksummed body of a checkpoint file (see [`super::checkpoint_pages`]).
#[derive(Debug, Clone)]
struct Body {
    start: u64,
    len: u64,
    page_bytes: u64,
    sums: Arc<Vec<u32>>,
}

/// Bytes read from the file at a time by a scan.
const SCAN_WINDOW: usize = if cfg!(test) { 64 } else { 1 << 20 };

impl RowsOnDisk {
    fn table_name(&self, i: usize) -> String {
        self.tables
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("number {i}"))
    }

    pub(super) fn damaged(&self, i: usize, m: String) -> CdcError {
        CdcError::CheckpointDamaged {
            path: self.path.clone(),
            message: format!(
                "the rows of table {}: {m} (remove {CHECKPOINT_FILE} to replay the whole redo instead)",
                self.table_name(i)
            ),
        }
    }

    /// `len` bytes at `offset` into `buf` (reused: a fresh megabyte a window was the kernel
    /// zeroing pages for the allocator), for table `i`: the whole pages around them are read
    /// and checked; returns where in `buf` the bytes asked for are.
    fn read_into(
        &self,
        i: usize,
        buf: &mut Vec<u8>,
        offset: u64,
        len: usize,
    ) -> Result<std::ops::Range<usize>> {
        use std::os::unix::fs::FileExt;
        let b = &self.body;
        let end = offset.saturating_add(len as u64);
        if len == 0 {
            buf.clear();
            return Ok(0..0);
        }
        if offset < b.start || end > b.start.saturating_add(b.len) {
            return Err(self.damaged(
                i,
                format!("bytes {offset}..{end} are outside the checkpoint's rows"),
            ));
        }
        let page = b.page_bytes;
        let first = (offset - b.start) / page;
        let from = b.start + first * page;
        let to = (b.start + (end - b.start).div_ceil(page) * page).min(b.start + b.len);
        buf.resize((to - from) as usize, 0);
        self.file
            .read_exact_at(buf, from)
            .map_err(|e| CdcError::io(&self.path, e))?;
        if let Some(bad) = super::checkpoint_pages::first_bad_page(buf, first, page, &b.sums) {
            let at = b.start + bad * page;
            let upto = (at + page).min(b.start + b.len);
            return Err(self.damaged(
                i,
                format!(
                    "bytes {at}..{upto} of the file (page {bad}) do not match their checksum: the file was changed or the disk damaged it"
                ),
            ));
        }
        let skip = (offset - from) as usize;
        Ok(skip..skip + len)
    }

    fn read_at(&self, i: usize, offset: u64, len: usize) -> Result<Vec<u8>> {
        let mut buf = Vec::new();
        let range = self.read_into(i, &mut buf, offset, len)?;
        buf.truncate(range.end);
        buf.drain(..range.start);
        Ok(buf)
    }

    /// Table `i`'s rows.
    pub fn read(&self, i: usize) -> Result<super::store::Rows> {
        let Some(&(offset, len)) = self.sections.get(i) else {
            return Ok(Default::default());
        };
        let buf = self.read_at(i, offset, len as usize)?;
        super::rowfile::decode_rows(&buf).map_err(|m| self.damaged(i, m))
    }

    /// Table `i`'s row directory.
    pub fn read_dir(&self, i: usize) -> Result<Vec<super::rowfile::DirEntry>> {
        let Some(&(offset, len)) = self.dirs.get(i) else {
            return Ok(Vec::new());
        };
        let buf = self.read_at(i, offset, len as usize)?;
        super::rowfile::decode_dir(&buf).map_err(|m| self.damaged(i, m))
    }

    /// Table `i`'s rows from byte `from` of its rows section up to byte `to` (the section's
    /// end when `None`), in ROWID order, until `each` says stop (returns false); each row handed
    /// over undecoded (the caller decodes the versions it needs), read through one buffer.
    pub fn scan_raw(
        &self,
        i: usize,
        from: u64,
        to: Option<u64>,
        each: &mut dyn FnMut(&super::rowfile::RawRow<'_>) -> Result<bool>,
    ) -> Result<()> {
        let Some(&(offset, len)) = self.sections.get(i) else {
            return Ok(());
        };
        let end = to.unwrap_or(len).min(len);
        let mut at = from.max(super::rowfile::ROWS_START);
        let mut window = SCAN_WINDOW;
        let mut buf = Vec::new();
        while at < end {
            let want = window.min((end - at) as usize);
            let range = self.read_into(i, &mut buf, offset + at, want)?;
            let window_bytes = &buf[range];
            let mut pos = 0usize;
            while let Some(n) = super::rowfile::row_len(&window_bytes[pos..]) {
                if pos + n > window_bytes.len() {
                    break;
                }
                let raw = super::rowfile::RawRow::parse(&window_bytes[pos..pos + n])
                    .map_err(|m| self.damaged(i, m))?;
                pos += n;
                if !each(&raw)? {
                    return Ok(());
                }
            }
            if pos == 0 {
                if want as u64 == end - at {
                    return Err(self.damaged(i, format!("a row at byte {at} is cut short")));
                }
                // A row longer than the window: read it whole.
                window = window.saturating_mul(2);
                continue;
            }
            at += pos as u64;
        }
        Ok(())
    }
}

/// The replica as of the directory's checkpoint, its rows still on disk, and the redo offset
/// and record number to replay from; `None` without a usable checkpoint (then replay it all).
pub fn open(dir: &Path, fresh: impl Fn() -> Replica) -> (Replica, Option<(u64, u64)>) {
    let path = dir.join(CHECKPOINT_FILE);
    if !path.is_file() {
        return (fresh(), None);
    }
    let mut replica = fresh();
    match read(dir, &path, &mut replica) {
        Ok(at) => (replica, Some(at)),
        Err(why) => {
            tracing::warn!(
                "ignoring {} ({why}); replaying the whole redo",
                path.display()
            );
            (fresh(), None)
        }
    }
}

fn read(dir: &Path, path: &Path, replica: &mut Replica) -> std::result::Result<(u64, u64), String> {
    let mut f = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let keep = Arc::new(f.try_clone().map_err(|e| e.to_string())?);
    let mut magic = vec![0u8; MAGIC.len()];
    f.read_exact(&mut magic).map_err(|e| e.to_string())?;
    if magic != MAGIC {
        return Err("not a checkpoint of this version".into());
    }
    let mut reader = std::io::BufReader::new(f);
    let mut line = Vec::new();
    std::io::BufRead::read_until(&mut reader, b'\n', &mut line).map_err(|e| e.to_string())?;
    let h = parse_header(&line)?;
    let redo = dir.join(super::redo::REDO_FILE);
    let redo_len = std::fs::metadata(&redo).map_err(|e| e.to_string())?.len();
    if h.redo_offset > redo_len {
        return Err(format!(
            "it stands at byte {} of a redo of {redo_len} bytes",
            h.redo_offset
        ));
    }
    if redo_fingerprint(&redo, h.redo_offset).map_err(|e| e.to_string())? != h.redo_fingerprint {
        return Err("the redo before its point is not the redo it was taken from".into());
    }
    if schema_fingerprint(dir).map_err(|e| e.to_string())? != h.schema_fingerprint {
        return Err(format!("{} changed since", super::SCHEMA_FILE));
    }
    let file_len = std::fs::metadata(path).map_err(|e| e.to_string())?.len();
    if h.rows.len() != h.dirs.len() || h.rows.len() != h.key_ordered.len() {
        return Err("its sections do not match".into());
    }
    if h.rows
        .iter()
        .chain(&h.dirs)
        .any(|(o, l)| o.saturating_add(*l) > file_len)
    {
        return Err("it is cut short".into());
    }
    let page_sums_at = h.body_start.saturating_add(h.body_len);
    let pages = super::checkpoint_pages::page_count(h.body_len, h.page_bytes);
    if h.page_bytes == 0 || page_sums_at.saturating_add(pages * 4 + 4) != file_len {
        return Err("it is cut short, or longer than it says".into());
    }
    let mut meta = vec![0u8; h.meta_len as usize];
    reader.read_exact(&mut meta).map_err(|e| e.to_string())?;
    if crc32c::crc32c(&meta) != h.meta_crc {
        return Err("its metadata does not match their checksum".into());
    }
    let sums = {
        use std::os::unix::fs::FileExt;
        let mut table = vec![0u8; (pages * 4 + 4) as usize];
        keep.read_exact_at(&mut table, page_sums_at)
            .map_err(|e| e.to_string())?;
        super::checkpoint_pages::decode_table(&table)
            .ok_or("its table of page checksums does not match its own checksum")?
    };
    let meta: Meta = serde_json::from_slice(&meta).map_err(|e| format!("metadata: {e}"))?;
    let schema_tables = replica.tables.len();
    if meta.tables.len() < schema_tables || meta.tables.len() != h.rows.len() {
        return Err("its tables are not the schema's".into());
    }
    for (i, tm) in meta.tables.into_iter().enumerate() {
        if i >= schema_tables {
            let spec = tm
                .created_spec
                .clone()
                .ok_or("a created table without its CREATE TABLE")?;
            let spec: super::schema::TableSpec =
                serde_json::from_value(spec.clone()).map_err(|e| e.to_string())?;
            let def = replica
                .schema
                .created_table(&spec)
                .map_err(|e| e.to_string())?;
            replica.tables.push(super::store::TableState::empty(
                def,
                Some(serde_json::to_value(&spec).map_err(|e| e.to_string())?),
            ));
        }
        let t = &mut replica.tables[i];
        t.created_spec = tm.created_spec;
        t.columns = tm.columns;
        t.history = tm.history;
        t.last_ddl_scn = tm.last_ddl_scn;
        t.last_change_scn = tm.last_change_scn;
        t.extents = tm.extents;
        t.data_object_id = tm.data_object_id;
        t.partition_objects = tm.partition_objects;
        t.object_id = tm.object_id;
        t.partition_ids = tm.partition_ids;
        t.former_segments = tm.former_segments;
        t.stats = tm.stats;
        t.changes_since_stats = tm.changes_since_stats;
        t.live_rows = tm.live_rows;
        t.change_commits = tm.change_commits;
        t.serial_high = tm.serial_high;
        // The index of the rows changed after the checkpoint (none yet).
        t.key_index = KeyIndex::for_table(
            &t.def.primary_key,
            &t.columns,
            &Default::default(),
            t.def.charsets,
        );
    }
    replica.open = meta
        .open
        .into_iter()
        .map(|o| {
            (
                o.xid,
                OpenTx {
                    start_scn: o.start_scn,
                    thread: o.thread,
                    changes: o.changes,
                    records: o.records.into_iter().map(Arc::new).collect(),
                },
            )
        })
        .collect();
    replica.xid_thread = meta.xid_thread.into_iter().collect();
    replica.xid_start = meta.xid_start.into_iter().collect();
    replica.xid_pdb = meta.xid_pdb.into_iter().collect();
    replica.xid_user = meta.xid_user.into_iter().collect();
    replica.scn_times = meta.scn_times;
    replica.logs = meta.logs;
    replica.dictionary_builds = meta.dictionary_builds;
    replica.current_scn = meta.current_scn;
    replica.own_scn = meta.own_scn;
    replica.lgwr = meta.lgwr;
    let path_kept = replica.index.path.clone();
    replica.index = meta.index;
    replica.index.path = path_kept;
    replica.restore_counters(meta.commits_since_prune, meta.commit_ts, h.next_record);
    replica.rows_on_disk(RowsOnDisk {
        path: path.to_path_buf(),
        file: keep,
        sections: h.rows,
        dirs: h.dirs,
        key_ordered: h.key_ordered,
        tables: Arc::new(
            replica
                .tables
                .iter()
                .map(|t| t.def.name.to_string())
                .collect(),
        ),
        body: Body {
            start: h.body_start,
            len: h.body_len,
            page_bytes: h.page_bytes,
            sums: Arc::new(sums),
        },
    });
    Ok((h.redo_offset, h.next_record))
}

/// The header line: its JSON, checked against the CRC-32C that ends it.
fn parse_header(line: &[u8]) -> std::result::Result<Header, String> {
    let text = std::str::from_utf8(line).map_err(|_| "its header is not text")?;
    let (json, sum) = text
        .trim_end()
        .rsplit_once(HEADER_SUM)
        .ok_or("its header has no checksum")?;
    let sum = u32::from_str_radix(sum, 16).map_err(|_| "its header's checksum is not hex")?;
    if crc32c::crc32c(json.as_bytes()) != sum {
        return Err("its header does not match its checksum".into());
    }
    serde_json::from_str(json).map_err(|e| format!("header: {e}"))
}
