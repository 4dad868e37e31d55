//! The emulated database's redo: an append-only file of lines, one record per change, like
//! Oracle's own redo. A line is the record as JSON, or, for the inserts of `emulator init`'s
//! bulk load, the same record in a compact form ([`compact`]); [`parse_line`] reads both. Every process that opens the directory replays it; the one writer appends.
//! A commit is flushed and fsynced before the writer goes on; a torn last line left by a killed
//! writer is ignored by readers and cut off by the next writer.

use crate::errors::{CdcError, Result};
use crate::types::Value;
use cdc_core::model::{ColumnInfo, Extent, Scn};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

#[path = "redo_compact.rs"]
pub mod compact;
#[macro_use]
#[path = "redo_tag_first.rs"]
mod tag_first;

/// What ends a redo line before its checksum: a unit separator (never in a JSON line, which
/// escapes control characters, nor at the end of a compact one), then the CRC-32C of what
/// precedes it as 8 hex digits. A changed byte in a record is then CDC-4004, never a record
/// with another value: JSON would still parse with a digit or a letter changed. Lines written
/// before the checksums (a database made by an older version) have none and are read as they
/// are; a line that has one must match it. Per line and not per block: a reader reads lines
/// (a tail, a record at an offset), and a CRC-32C of a 100-byte line costs less than parsing it.
const LINE_SUM_MARK: u8 = 0x1f;
/// The mark and its 8 hex digits.
const LINE_SUM_LEN: usize = 9;

/// The checksum that ends a line whose record (without newline) is `payload`.
pub fn line_sum(payload: &[u8]) -> [u8; LINE_SUM_LEN] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let sum = crc32c::crc32c(payload);
    let mut out = [LINE_SUM_MARK; LINE_SUM_LEN];
    for (i, digit) in out[1..].iter_mut().enumerate() {
        *digit = HEX[((sum >> (28 - 4 * i)) & 0xf) as usize];
    }
    out
}

/// The record of a line (without its newline), its checksum checked and taken off.
fn checked_payload(line: &[u8]) -> std::result::Result<&[u8], String> {
    let Some(at) = line.len().checked_sub(LINE_SUM_LEN) else {
        return Ok(line);
    };
    if line[at] != LINE_SUM_MARK {
        return Ok(line);
    }
    let (payload, sum) = line.split_at(at);
    if line_sum(payload) != sum {
        return Err(
            "the record does not match its checksum (CRC-32C): the redo was changed or the disk damaged it"
                .into(),
        );
    }
    Ok(payload)
}

/// Whether a redo line (without its newline) is whole, without making its record: its checksum
/// checked, or, on a line written before the checksums, the record parsed and dropped.
pub fn check_line(line: &[u8]) -> std::result::Result<(), String> {
    let payload = checked_payload(line)?;
    if payload.len() < line.len() {
        return Ok(());
    }
    parse_line(line).map(drop)
}

/// The record a redo line (without its newline) holds: JSON, or a bulk load's compact insert
/// ([`compact`]), checked against the checksum that ends it.
pub fn parse_line(line: &[u8]) -> std::result::Result<Redo, String> {
    let line = checked_payload(line)?;
    if compact::is_compact(line) {
        compact::parse_insert(line)
    } else if let Some(record) = tag_first::parse_tag_first(line) {
        Ok(record)
    } else {
        serde_json::from_slice(line).map_err(|e| e.to_string())
    }
}

/// A transaction id: undo segment, slot, sequence (V$TRANSACTION.XIDUSN/XIDSLOT/XIDSQN).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Xid {
    pub usn: u16,
    pub slot: u16,
    pub sqn: u32,
}

impl Xid {
    /// 16 hex digits as V$LOGMNR_CONTENTS.XID shows it.
    pub fn hex(&self) -> String {
        super::sql_redo::xid(self.usn, self.slot, self.sqn)
    }
}

impl fmt::Display for Xid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hex())
    }
}

/// A schema change carried by a DDL record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DdlChange {
    AddColumn {
        column: ColumnInfo,
    },
    DropColumn {
        name: String,
    },
    /// CREATE TABLE: the new table's schema entry (a `TableSpec`, as JSON); the record's `tab`
    /// is the index it gets.
    CreateTable {
        spec: serde_json::Value,
    },
    /// TRUNCATE TABLE: every row goes. `segments`: the data object id of each of the table's
    /// segments after it (its own, or each partition's in the schema's order), new for each
    /// segment that ever held a row (Oracle allocates a new segment), the old one otherwise.
    Truncate {
        segments: Vec<u32>,
    },
    /// ALTER TABLE … MOVE (`partition`: None) or ALTER TABLE … MOVE PARTITION (the index of
    /// the partition in the schema's list): the segment's rows are copied into a new segment,
    /// `segment` its new data object id, and the old one is dropped ("the old partition
    /// segment is dropped and a new segment is created", VLDB and Partitioning Guide, Moving
    /// Partitions). Every row keeps its values and gets a ROWID with the new data object
    /// number; no row change is logged, LogMiner shows one DDL row.
    Move {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        partition: Option<u32>,
        segment: u32,
    },
}

/// One DBMS_LOB call on a LOB column of a row (an application writing through a locator).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum LobOp {
    /// `DBMS_LOB.WRITE(loc, amount, offset, data)`: `data` (text for CLOB/NCLOB, bytes for a
    /// BLOB) at the 1-based `offset` (characters, or bytes for a BLOB).
    Write { col: u32, offset: u64, data: Value },
    /// `DBMS_LOB.ERASE(loc, amount, offset)`: `amount` characters (bytes) from `offset` become
    /// spaces (zero bytes); the length is unchanged.
    Erase { col: u32, offset: u64, amount: u64 },
    /// `DBMS_LOB.TRIM(loc, len)`: the LOB is cut to `len`.
    Trim { col: u32, len: u64 },
}

impl LobOp {
    pub fn col(&self) -> usize {
        match self {
            LobOp::Write { col, .. } | LobOp::Erase { col, .. } | LobOp::Trim { col, .. } => {
                *col as usize
            }
        }
    }
}

redo_records! {
    /// One redo record. `ts` is milliseconds since the Unix epoch on the writer's clock.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "k")]
    pub enum Redo {
        /// A transaction's first change follows (LogMiner START).
        #[serde(rename = "B")]
        Begin {
            scn: Scn,
            xid: Xid,
            thread: u32,
            ts: i64,
            /// The user it runs as (V$LOGMNR_CONTENTS.USERNAME); `None`: `database.workload_user`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            user: Option<String>,
        },
        #[serde(rename = "I")]
        Insert {
            scn: Scn,
            xid: Xid,
            tab: u32,
            rid: String,
            after: Vec<Value>,
            ts: i64,
        },
        #[serde(rename = "U")]
        Update {
            scn: Scn,
            xid: Xid,
            tab: u32,
            rid: String,
            before: Vec<Value>,
            after: Vec<Value>,
            /// Columns the statement's SET named (empty: those whose value changed).
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            cols: Vec<u32>,
            /// The change was made piece by piece through a LOB locator (`SELECT … FOR UPDATE`,
            /// then DBMS_LOB.WRITE / ERASE / TRIM), not by an UPDATE statement; in this order.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            lob_ops: Vec<LobOp>,
            ts: i64,
        },
        #[serde(rename = "D")]
        Delete {
            scn: Scn,
            xid: Xid,
            tab: u32,
            rid: String,
            before: Vec<Value>,
            ts: i64,
        },
        /// Undo of change number `of` (its record index) of the same transaction: rollback to a
        /// savepoint, or a full rollback before its ROLLBACK record.
        #[serde(rename = "X")]
        Undo {
            scn: Scn,
            xid: Xid,
            of: u64,
            ts: i64,
        },
        /// One or more transactions commit at this SCN (several may share one commit SCN).
        #[serde(rename = "C")]
        Commit { scn: Scn, xids: Vec<Xid>, ts: i64 },
        #[serde(rename = "R")]
        Rollback { scn: Scn, xid: Xid, ts: i64 },
        #[serde(rename = "L")]
        Ddl {
            scn: Scn,
            xid: Xid,
            tab: u32,
            sql: String,
            change: DdlChange,
            ts: i64,
        },
        /// A change to a table the schema does not hold, which Oracle makes itself: recursive SQL
        /// on SYS's dictionary, a materialized view log row, Oracle's internal DDL. Kept as
        /// LogMiner renders it (SQL_REDO, INFO); it changes no table of the replica.
        #[serde(rename = "O")]
        Other {
            scn: Scn,
            xid: Xid,
            /// OPERATION_CODE: INSERT, UPDATE, DELETE or DDL.
            op: u32,
            owner: String,
            table: String,
            /// The PDB it happened in; `None`: CDB$ROOT, or a database without multitenant.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pdb: Option<String>,
            /// DATA_OBJ# and ROW_ID.
            obj: u32,
            rid: String,
            sql: String,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            info: Option<String>,
            ts: i64,
        },
        /// Space management: a new extent for table `tab` (partition index `part`, if any).
        #[serde(rename = "E")]
        Extent {
            scn: Scn,
            tab: u32,
            part: Option<u32>,
            ext: Extent,
        },
        /// Optimizer statistics were gathered for table `tab`.
        #[serde(rename = "G")]
        Stats {
            scn: Scn,
            tab: u32,
            num_rows: u64,
            blocks: u64,
            ts: i64,
        },
        /// The current log of `thread` was archived; a new sequence starts.
        #[serde(rename = "S")]
        LogSwitch { scn: Scn, thread: u32, ts: i64 },
        /// `DBMS_LOGMNR_D.BUILD(OPTIONS => DBMS_LOGMNR_D.STORE_IN_REDO_LOGS)`: the LogMiner
        /// dictionary extracted into the redo of `thread`, whole at this SCN (one record stands for
        /// the build's many; its log is both DICTIONARY_BEGIN and DICTIONARY_END).
        #[serde(rename = "Y")]
        DictionaryBuild { scn: Scn, thread: u32, ts: i64 },
    }
}

impl Redo {
    pub fn scn(&self) -> Scn {
        match self {
            Redo::Begin { scn, .. }
            | Redo::Insert { scn, .. }
            | Redo::Update { scn, .. }
            | Redo::Delete { scn, .. }
            | Redo::Undo { scn, .. }
            | Redo::Commit { scn, .. }
            | Redo::Rollback { scn, .. }
            | Redo::Ddl { scn, .. }
            | Redo::Other { scn, .. }
            | Redo::Extent { scn, .. }
            | Redo::Stats { scn, .. }
            | Redo::LogSwitch { scn, .. }
            | Redo::DictionaryBuild { scn, .. } => *scn,
        }
    }

    pub fn ts(&self) -> Option<i64> {
        match self {
            Redo::Begin { ts, .. }
            | Redo::Insert { ts, .. }
            | Redo::Update { ts, .. }
            | Redo::Delete { ts, .. }
            | Redo::Undo { ts, .. }
            | Redo::Commit { ts, .. }
            | Redo::Rollback { ts, .. }
            | Redo::Ddl { ts, .. }
            | Redo::Other { ts, .. }
            | Redo::Stats { ts, .. }
            | Redo::LogSwitch { ts, .. }
            | Redo::DictionaryBuild { ts, .. } => Some(*ts),
            Redo::Extent { .. } => None,
        }
    }
}

pub const REDO_FILE: &str = "redo.log";

/// Reads new complete records from the redo file, remembering where it stopped.
pub struct RedoTail {
    path: PathBuf,
    offset: u64,
    line: u64,
    /// The SCN of the last record read: SCNs never go back (one writer hands them out in
    /// order), so a lower one means the file was changed by something else.
    last_scn: Scn,
}

impl RedoTail {
    pub fn new(dir: &Path) -> RedoTail {
        RedoTail {
            path: dir.join(REDO_FILE),
            offset: 0,
            line: 0,
            last_scn: 0,
        }
    }

    /// A tail that starts after record `line` - 1, which ends at byte `offset` (a checkpoint's
    /// point); `last_scn` is the highest SCN before it, so SCNs going back are still refused.
    pub fn starting_at(dir: &Path, offset: u64, line: u64, last_scn: Scn) -> RedoTail {
        RedoTail {
            path: dir.join(REDO_FILE),
            offset,
            line,
            last_scn,
        }
    }

    /// Byte offset up to which records were read (all complete lines).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether the file holds bytes past what was read — or fewer than were read (a cut
    /// file: [`RedoTail::read_new`] refuses it).
    pub fn has_more(&self) -> bool {
        std::fs::metadata(&self.path)
            .map(|m| m.len() != self.offset)
            .unwrap_or(false)
    }

    /// Read every complete record appended since the last call.
    pub fn read_new(&mut self, mut each: impl FnMut(Redo) -> Result<()>) -> Result<()> {
        self.read_new_at(|r, _| each(r))
    }

    /// [`RedoTail::read_new`], with each record's byte offset in the file.
    pub fn read_new_at(&mut self, mut each: impl FnMut(Redo, u64) -> Result<()>) -> Result<()> {
        let mut file = File::open(&self.path).map_err(|e| CdcError::io(&self.path, e))?;
        let len = file
            .metadata()
            .map_err(|e| CdcError::io(&self.path, e))?
            .len();
        if len < self.offset {
            // Readers saw redo that is gone: the database would now be behind what they (and
            // capture's offsets) know. A database never loses redo it wrote.
            return Err(CdcError::coded(
                crate::errors::Code::Cdc4008,
                format!(
                    "redo file {} has {len} bytes, but {} bytes ({} records, up to SCN {}) were read from it: it was cut or replaced while in use",
                    self.path.display(),
                    self.offset,
                    self.line,
                    self.last_scn
                ),
            ));
        }
        file.seek(SeekFrom::Start(self.offset))
            .map_err(|e| CdcError::io(&self.path, e))?;
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let mut buf = Vec::with_capacity(512);
        loop {
            buf.clear();
            let n = reader
                .read_until(b'\n', &mut buf)
                .map_err(|e| CdcError::io(&self.path, e))?;
            if n == 0 || buf.last() != Some(&b'\n') {
                // End, or a torn line still being written: leave it for the next call.
                return Ok(());
            }
            let record = parse_line(&buf[..n - 1]).map_err(|message| CdcError::RedoDamaged {
                path: self.path.clone(),
                line: self.line + 1,
                message,
            })?;
            if record.scn() < self.last_scn {
                return Err(CdcError::coded(
                    crate::errors::Code::Cdc4009,
                    format!(
                        "redo file {} line {}: SCN {} after SCN {}: SCNs never go back",
                        self.path.display(),
                        self.line + 1,
                        record.scn(),
                        self.last_scn
                    ),
                ));
            }
            self.last_scn = record.scn();
            let at = self.offset;
            self.offset += n as u64;
            self.line += 1;
            each(record, at)?;
        }
    }
}

/// The single writer's append handle.
pub struct RedoWriter {
    path: PathBuf,
    file: std::io::BufWriter<File>,
    durable: bool,
    /// Byte offset the next record goes to.
    pos: u64,
}

impl RedoWriter {
    /// Open for appending; a torn last line (a writer killed mid-record) is cut off first.
    pub fn open(dir: &Path, durable: bool) -> Result<RedoWriter> {
        let path = dir.join(REDO_FILE);
        // Not through a link; mode 0600 (or 0640, cdc.files.group.readable).
        let mut file = crate::localfs::read_write(&path, crate::localfs::Kind::Data)?;
        let mut len = file.metadata().map_err(|e| CdcError::io(&path, e))?.len();
        if len > 0 {
            let good =
                last_complete_line_end(&mut file, len).map_err(|e| CdcError::io(&path, e))?;
            if good < len {
                tracing::warn!(
                    "cutting a torn redo record at byte {good} of {} (a writer was killed mid-write)",
                    path.display()
                );
                file.set_len(good).map_err(|e| CdcError::io(&path, e))?;
                len = good;
            }
        }
        file.seek(SeekFrom::End(0))
            .map_err(|e| CdcError::io(&path, e))?;
        Ok(RedoWriter {
            path,
            file: std::io::BufWriter::with_capacity(1 << 20, file),
            durable,
            pos: len,
        })
    }

    /// Byte offset the next appended record starts at.
    pub fn position(&self) -> u64 {
        self.pos
    }

    pub fn append(&mut self, record: &Redo) -> Result<()> {
        let mut line = serde_json::to_vec(record).map_err(|e| CdcError::RedoDamaged {
            path: self.path.clone(),
            line: 0,
            message: e.to_string(),
        })?;
        line.extend_from_slice(&line_sum(&line));
        line.push(b'\n');
        self.file
            .write_all(&line)
            .map_err(|e| CdcError::io(&self.path, e))?;
        self.pos += line.len() as u64;
        Ok(())
    }

    /// Append a record already encoded as one line, its newline included (a bulk load's
    /// [`compact`] inserts).
    pub fn append_line(&mut self, line: &[u8]) -> Result<()> {
        let payload = line.strip_suffix(b"\n").unwrap_or(line);
        let sum = line_sum(payload);
        for part in [payload, &sum, b"\n"] {
            self.file
                .write_all(part)
                .map_err(|e| CdcError::io(&self.path, e))?;
        }
        self.pos += (payload.len() + sum.len() + 1) as u64;
        Ok(())
    }

    /// Hand what was appended to the file, so readers (LogMiner, CURRENT_SCN) see it, as LGWR
    /// writes the redo of open transactions too. Not durable yet.
    pub fn publish(&mut self) -> Result<()> {
        self.file.flush().map_err(|e| CdcError::io(&self.path, e))
    }

    /// Flush and sync, durable or not (before a checkpoint that stands at this point).
    pub fn sync(&mut self) -> Result<()> {
        self.file.flush().map_err(|e| CdcError::io(&self.path, e))?;
        self.file
            .get_ref()
            .sync_data()
            .map_err(|e| CdcError::io(&self.path, e))
    }

    /// Make everything appended so far visible to readers, and durable when asked to be.
    pub fn flush(&mut self) -> Result<()> {
        self.file.flush().map_err(|e| CdcError::io(&self.path, e))?;
        if self.durable {
            self.file
                .get_ref()
                .sync_data()
                .map_err(|e| CdcError::io(&self.path, e))?;
        }
        Ok(())
    }
}

fn last_complete_line_end(file: &mut File, len: u64) -> std::io::Result<u64> {
    // Scan back from the end for the last newline.
    let mut pos = len;
    let mut buf = vec![0u8; 64 * 1024];
    while pos > 0 {
        let start = pos.saturating_sub(buf.len() as u64);
        let n = (pos - start) as usize;
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut buf[..n])?;
        if let Some(i) = buf[..n].iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        pos = start;
    }
    Ok(0)
}

#[cfg(test)]
#[path = "redo_tag_first_tests.rs"]
mod tag_first_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::OpenOptions;

    fn begin(scn: Scn) -> Redo {
        Redo::Begin {
            scn,
            xid: Xid {
                usn: 1,
                slot: 2,
                sqn: 3,
            },
            thread: 1,
            ts: 0,
            user: None,
        }
    }

    /// The redo is JSON: a BINARY_DOUBLE must come back from its text with the same bits, or a
    /// standby (or a replay) would hold a value that differs in its last digit from the
    /// primary's (serde_json parses floats exactly only with `float_roundtrip`).
    #[test]
    fn binary_doubles_and_floats_survive_the_json_redo_bit_for_bit() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut wrong = Vec::new();
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (d, f) = (f64::from_bits(x), f32::from_bits((x >> 32) as u32));
            for v in [Value::BinaryDouble(d), Value::BinaryFloat(f)] {
                let finite = match v {
                    Value::BinaryDouble(d) => d.is_finite(),
                    Value::BinaryFloat(f) => f.is_finite(),
                    _ => false,
                };
                if !finite {
                    continue;
                }
                let text = serde_json::to_string(&v).unwrap();
                let back: Value = serde_json::from_str(&text).unwrap();
                let same = match (&v, &back) {
                    (Value::BinaryDouble(a), Value::BinaryDouble(b)) => a.to_bits() == b.to_bits(),
                    (Value::BinaryFloat(a), Value::BinaryFloat(b)) => a.to_bits() == b.to_bits(),
                    _ => false,
                };
                if !same && wrong.len() < 5 {
                    wrong.push(format!("{text} came back as {back:?}"));
                }
            }
        }
        assert!(wrong.is_empty(), "{wrong:?}");
    }

    #[test]
    fn torn_last_line_is_ignored_by_readers_and_cut_by_the_next_writer() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = RedoWriter::open(dir.path(), false).unwrap();
        w.append(&begin(10)).unwrap();
        w.append(&begin(11)).unwrap();
        w.flush().unwrap();
        drop(w);
        // A writer killed half-way through a record.
        let mut f = OpenOptions::new()
            .append(true)
            .open(dir.path().join(REDO_FILE))
            .unwrap();
        f.write_all(b"{\"k\":\"B\",\"scn\":12,").unwrap();
        let mut tail = RedoTail::new(dir.path());
        let mut seen = Vec::new();
        tail.read_new(|r| {
            seen.push(r.scn());
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, vec![10, 11]);
        let mut w = RedoWriter::open(dir.path(), false).unwrap();
        w.append(&begin(12)).unwrap();
        w.flush().unwrap();
        tail.read_new(|r| {
            seen.push(r.scn());
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, vec![10, 11, 12]);
    }

    #[test]
    fn a_redo_cut_behind_its_readers_and_scns_going_back_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = RedoWriter::open(dir.path(), false).unwrap();
        for scn in [10, 11, 12] {
            w.append(&begin(scn)).unwrap();
        }
        w.flush().unwrap();
        drop(w);
        let mut tail = RedoTail::new(dir.path());
        tail.read_new(|_| Ok(())).unwrap();
        // Cut behind what was read: the database would be behind its readers.
        let path = dir.path().join(REDO_FILE);
        let text = std::fs::read(&path).unwrap();
        let first = text.iter().position(|&b| b == b'\n').unwrap() + 1;
        std::fs::write(&path, &text[..first]).unwrap();
        assert!(tail.has_more(), "a shorter file is looked at");
        let e = tail.read_new(|_| Ok(())).unwrap_err();
        assert_eq!(e.code(), crate::errors::Code::Cdc4008, "{e}");
        // An SCN lower than the one before it.
        std::fs::write(&path, &text).unwrap();
        let mut w = RedoWriter::open(dir.path(), false).unwrap();
        w.append(&begin(5)).unwrap();
        w.flush().unwrap();
        let mut tail = RedoTail::new(dir.path());
        let mut seen = Vec::new();
        let e = tail
            .read_new(|r| {
                seen.push(r.scn());
                Ok(())
            })
            .unwrap_err();
        assert_eq!(e.code(), crate::errors::Code::Cdc4009, "{e}");
        assert!(e.to_string().contains("line 4"), "{e}");
        assert_eq!(seen, vec![10, 11, 12]);
    }

    #[test]
    fn a_changed_byte_that_still_parses_fails_its_checksum_and_lines_without_one_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = RedoWriter::open(dir.path(), false).unwrap();
        for scn in [10, 11, 12] {
            w.append(&begin(scn)).unwrap();
        }
        w.flush().unwrap();
        let path = dir.path().join(REDO_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        // SCN 11 turned into 15: still JSON, still in order; only the checksum can tell.
        assert!(text.contains("\"scn\":11,"));
        std::fs::write(&path, text.replace("\"scn\":11,", "\"scn\":15,")).unwrap();
        let mut seen = Vec::new();
        let err = RedoTail::new(dir.path())
            .read_new(|r| {
                seen.push(r.scn());
                Ok(())
            })
            .unwrap_err();
        assert_eq!(err.code(), crate::errors::Code::Cdc4004, "{err}");
        assert!(err.to_string().contains("line 2") && err.to_string().contains("checksum"));
        assert_eq!(seen, vec![10]);
        // A database written before the checksums: its lines have none and are read.
        let old: String = text
            .lines()
            .map(|l| format!("{}\n", &l[..l.len() - LINE_SUM_LEN]))
            .collect();
        std::fs::write(&path, old).unwrap();
        let mut seen = Vec::new();
        RedoTail::new(dir.path())
            .read_new(|r| {
                seen.push(r.scn());
                Ok(())
            })
            .unwrap();
        assert_eq!(seen, vec![10, 11, 12]);
    }

    #[test]
    fn damage_in_the_middle_is_reported_with_its_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(REDO_FILE),
            "{\"k\":\"B\",\"scn\":1,\"xid\":{\"usn\":1,\"slot\":1,\"sqn\":1},\"thread\":1,\"ts\":0}\nnot json\n",
        )
        .unwrap();
        let err = RedoTail::new(dir.path()).read_new(|_| Ok(())).unwrap_err();
        assert!(err.to_string().starts_with("CDC-4004"), "{err}");
        assert!(err.to_string().contains("line 2"), "{err}");
    }

    #[test]
    fn compact_inserts_are_read_between_json_lines_and_their_damage_has_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = RedoWriter::open(dir.path(), false).unwrap();
        w.append(&begin(10)).unwrap();
        let xid = Xid {
            usn: 1,
            slot: 2,
            sqn: 3,
        };
        let rid = cdc_core::rowid::RowId::decode("AAAR0IAAEAAAACAAAA").unwrap();
        let row = [Value::Number("1".into()), Value::Text("a\tb".into())];
        let mut line = Vec::new();
        assert!(compact::encode_insert(
            &mut line,
            (11, xid, 0),
            &rid,
            5,
            &row
        ));
        w.append_line(&line).unwrap();
        w.append(&begin(12)).unwrap();
        w.flush().unwrap();
        let mut seen = Vec::new();
        RedoTail::new(dir.path())
            .read_new(|r| {
                seen.push(r);
                Ok(())
            })
            .unwrap();
        assert_eq!(seen.len(), 3);
        assert_eq!(
            seen[1],
            Redo::Insert {
                scn: 11,
                xid,
                tab: 0,
                rid: rid.encode(),
                after: row.to_vec(),
                ts: 5
            }
        );
        // A compact line cut in its values: RedoDamaged naming line 2.
        let path = dir.path().join(REDO_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("\tN1\t", "\tQ1\t")).unwrap();
        let err = RedoTail::new(dir.path()).read_new(|_| Ok(())).unwrap_err();
        assert!(err.to_string().starts_with("CDC-4004"), "{err}");
        assert!(err.to_string().contains("line 2"), "{err}");
    }
}
