//! The transaction buffer: LogMiner rows kept per transaction until its COMMIT, dropped on
//! ROLLBACK; `ROLLBACK=1` undo rows cancel the change they undo; CSF pieces are joined; rows of a
//! transaction seen from its middle (XID sequence `ffffffff`) are matched by undo segment and slot.
//!
//! Memory is bounded: the bytes of the rows buffered across open transactions are counted, and
//! past `cdc.stream.buffer.memory.bytes` the largest transactions' rows move to spill files
//! ([`super::spill`]). A transaction keeps its oldest rows on disk and its newest in memory; a
//! COMMIT hands them back as a stream ([`TxRows`]): disk part, then memory part.

use super::decode::Handling;
use super::spill::{self, SpillFile};
use crate::errors::Result;
use cdc_core::model::{op, LogMinerRow, Scn};
use cdc_core::rowid::LOB_ROWID;
use std::borrow::Cow;
use std::collections::HashMap;
use std::iter::Peekable;
use std::path::PathBuf;

/// A committed transaction: its identity, and its rows in redo order as a stream.
#[derive(Debug)]
pub struct Committed {
    pub xid: String,
    pub start: TxStart,
    pub commit_scn: Scn,
    pub thread: u32,
    pub commit_timestamp: String,
    pub rows: TxRows,
}

/// A committed transaction's rows in redo order, read from its spill file (if any) and then
/// from memory; undone changes are skipped. Reading may fail (I/O on the spill file).
pub struct TxRows {
    inner: Box<dyn Iterator<Item = Result<LogMinerRow>> + Send>,
}

impl std::fmt::Debug for TxRows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TxRows")
    }
}

/// Where a committed transaction began, as far as this run's mining knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxStart {
    /// Its START row was mined, at this SCN: so was every change of it.
    Seen(Scn),
    /// Its START row was not mined: it began before mining did, and changes of it may not have
    /// been mined. `reported`: V$LOGMNR_CONTENTS.START_SCN of its COMMIT row, when that is an
    /// SCN at all (above 1, not after the commit). The column is not to be trusted further:
    /// Oracle documents it for COMMITTED_DATA_ONLY only, NULL otherwise and NULL when the mined
    /// range does not hold the start (Reference 19c, V$LOGMNR_CONTENTS), and Debezium saw it 0
    /// when the start's logs were not in the LogMiner session (DBZ-6869).
    Unseen { reported: Option<Scn> },
}

impl Committed {
    /// A transaction with no rows, for tests of what is built from its metadata.
    pub fn for_tests(
        xid: &str,
        start_scn: Scn,
        commit_scn: Scn,
        thread: u32,
        commit_timestamp: &str,
    ) -> Committed {
        Committed {
            xid: xid.into(),
            start: TxStart::Seen(start_scn),
            commit_scn,
            thread,
            commit_timestamp: commit_timestamp.into(),
            rows: TxRows::default(),
        }
    }
}

impl Default for TxRows {
    fn default() -> Self {
        TxRows::from_vec(Vec::new())
    }
}

impl TxRows {
    pub fn from_vec(rows: Vec<LogMinerRow>) -> TxRows {
        TxRows {
            inner: Box::new(rows.into_iter().map(Ok)),
        }
    }

    /// Every row in memory at once (tests, small transactions).
    pub fn collect_vec(self) -> Result<Vec<LogMinerRow>> {
        self.collect()
    }

    fn from_tx(tx: OpenTx) -> Result<TxRows> {
        let OpenTx { rows, spill, .. } = tx;
        Ok(match spill {
            None => TxRows::from_vec(rows),
            Some(f) => TxRows {
                inner: Box::new(f.into_reader()?.chain(rows.into_iter().map(Ok))),
            },
        })
    }

    /// Two streams in redo order merged by SCN; on equal SCNs `self`'s rows come first.
    fn merge(self, other: TxRows) -> TxRows {
        TxRows {
            inner: Box::new(Merge {
                a: self.inner.peekable(),
                b: other.inner.peekable(),
            }),
        }
    }
}

impl Iterator for TxRows {
    type Item = Result<LogMinerRow>;
    fn next(&mut self) -> Option<Self::Item> {
        self.inner.next()
    }
}

type RowIter = Box<dyn Iterator<Item = Result<LogMinerRow>> + Send>;

struct Merge {
    a: Peekable<RowIter>,
    b: Peekable<RowIter>,
}

impl Iterator for Merge {
    type Item = Result<LogMinerRow>;
    fn next(&mut self) -> Option<Self::Item> {
        let take_a = match (self.a.peek(), self.b.peek()) {
            (None, None) => return None,
            (Some(_), None) | (Some(Err(_)), _) => true,
            (None, Some(_)) | (_, Some(Err(_))) => false,
            (Some(Ok(x)), Some(Ok(y))) => x.scn <= y.scn,
        };
        if take_a {
            self.a.next()
        } else {
            self.b.next()
        }
    }
}

#[derive(Debug, Default)]
struct OpenTx {
    start_scn: Option<Scn>,
    first_scn: Scn,
    /// A change of the mined tables was buffered (even if undone since).
    changed: bool,
    /// The newest rows, in redo order (older ones are in `spill`).
    rows: Vec<LogMinerRow>,
    /// Bytes of `rows` as counted by [`row_bytes`].
    bytes: u64,
    spill: Option<SpillFile>,
}

/// What a buffered row costs in memory, roughly: the struct and its strings.
pub fn row_bytes(r: &LogMinerRow) -> u64 {
    let opt = |s: &Option<String>| s.as_ref().map_or(0, |s| s.len());
    (std::mem::size_of::<LogMinerRow>()
        + r.timestamp.len()
        + opt(&r.commit_timestamp)
        + r.xid.len()
        + r.operation.len()
        + opt(&r.seg_owner)
        + opt(&r.table_name)
        + r.row_id.len()
        + r.sql_redo.len()
        + r.rs_id.len()
        + opt(&r.info)
        + r.src_con_name.len()
        + r.username.len()) as u64
}

#[derive(Debug)]
pub struct TxBuffer {
    open: HashMap<String, OpenTx, foldhash::fast::RandomState>,
    csf: Option<LogMinerRow>,
    /// Bytes of the rows held in memory across open transactions.
    memory: u64,
    limit: u64,
    /// Where spill files go; `None`: never spill.
    spill_dir: Option<PathBuf>,
    spill_seq: u64,
}

impl Default for TxBuffer {
    /// A buffer without a memory limit (everything stays in memory).
    fn default() -> Self {
        TxBuffer {
            open: HashMap::default(),
            csf: None,
            memory: 0,
            limit: u64::MAX,
            spill_dir: None,
            spill_seq: 0,
        }
    }
}

const UNKNOWN_SQN: &str = "ffffffff";

/// Undo segment and slot: the part of an XID known even when the sequence is not.
fn prefix(xid: &str) -> &str {
    xid.get(..8).unwrap_or(xid)
}

fn is_partial(xid: &str) -> bool {
    xid.len() == 16 && xid[8..].eq_ignore_ascii_case(UNKNOWN_SQN)
}

/// A row an undo row (ROLLBACK = 1) can undo: a DML row, the INTERNAL row that ends a
/// statement, an UNSUPPORTED row.
fn is_undoable(r: &LogMinerRow) -> bool {
    matches!(
        r.operation_code,
        op::INSERT | op::UPDATE | op::DELETE | op::INTERNAL | op::UNSUPPORTED
    )
}

/// A row of a statement's rows (DML, LOB, XML, extended string).
fn is_statement_row(r: &LogMinerRow) -> bool {
    matches!(
        Handling::of(r.operation_code),
        Handling::Dml | Handling::Piece(_)
    )
}

impl TxBuffer {
    /// A buffer that keeps at most `limit` bytes of rows in memory and spills the largest
    /// transactions to files in `spill_dir` (created; files an earlier run left are removed).
    pub fn new(limit: u64, spill_dir: PathBuf) -> Result<TxBuffer> {
        spill::prepare_dir(&spill_dir)?;
        Ok(TxBuffer {
            limit: limit.max(1),
            spill_dir: Some(spill_dir),
            ..TxBuffer::default()
        })
    }

    /// The oldest SCN mining must restart from to rebuild the open transactions that changed
    /// the mined tables. One that only STARTed (every transaction's START row is mined, whatever
    /// schema it changes: an idle session's SELECT … FOR UPDATE elsewhere, an in-doubt
    /// distributed transaction) does not hold the restart back: it may stay open for weeks, and
    /// a restart would then mine from a log long purged (Debezium DBZ-4718). Should it change a
    /// mined table later, after a restart, its START is not mined and capture mines back for it
    /// at its COMMIT (`TxStart::Unseen`).
    pub fn oldest_start(&self) -> Option<Scn> {
        self.open
            .values()
            .filter(|t| t.changed)
            .map(|t| t.start_scn.unwrap_or(t.first_scn).min(t.first_scn))
            .min()
    }

    pub fn open_transactions(&self) -> usize {
        self.open.len()
    }

    /// Changes buffered, in memory and spilled.
    pub fn buffered_rows(&self) -> usize {
        self.open
            .values()
            .map(|t| t.rows.len() + t.spill.as_ref().map_or(0, |s| s.live_rows() as usize))
            .sum()
    }

    /// Bytes of rows held in memory (kept at or under the limit after every push).
    pub fn memory_bytes(&self) -> u64 {
        self.memory
    }

    /// Bytes in spill files.
    pub fn spilled_bytes(&self) -> u64 {
        self.open
            .values()
            .filter_map(|t| t.spill.as_ref())
            .map(|s| s.bytes())
            .sum()
    }

    /// The key a row is buffered under: the XID in lower case, and a partial XID joins the
    /// open transaction with the same undo segment and slot when there is one. Borrowed (from
    /// `xid`, or lowered into `scratch`) on the hot path: every row is looked up by its key.
    fn key_for<'k>(&self, xid: &'k str, scratch: &'k mut [u8; 32]) -> Cow<'k, str> {
        if is_partial(xid) {
            if let Some(k) = self
                .open
                .keys()
                .find(|k| !is_partial(k) && prefix(k).eq_ignore_ascii_case(prefix(xid)))
            {
                return Cow::Owned(k.clone());
            }
        }
        if !xid.bytes().any(|b| b.is_ascii_uppercase()) {
            return Cow::Borrowed(xid);
        }
        let Some(buf) = scratch.get_mut(..xid.len()) else {
            return Cow::Owned(xid.to_ascii_lowercase());
        };
        buf.copy_from_slice(xid.as_bytes());
        buf.make_ascii_lowercase();
        // Lowering ASCII letters keeps UTF-8 valid; the fallback is never taken.
        match std::str::from_utf8(buf) {
            Ok(k) => Cow::Borrowed(k),
            Err(_) => Cow::Owned(xid.to_ascii_lowercase()),
        }
    }

    fn take(&mut self, key: &str) -> Option<OpenTx> {
        let tx = self.open.remove(key)?;
        self.memory = self.memory.saturating_sub(tx.bytes);
        Some(tx)
    }

    /// Move the largest transactions' in-memory rows to their spill files until memory is
    /// under the limit.
    fn spill_over_limit(&mut self) -> Result<()> {
        let Some(dir) = self.spill_dir.clone() else {
            return Ok(());
        };
        while self.memory > self.limit {
            let Some((key, tx)) = self
                .open
                .iter_mut()
                .filter(|(_, t)| !t.rows.is_empty())
                .max_by_key(|(_, t)| t.bytes)
            else {
                return Ok(());
            };
            if tx.spill.is_none() {
                self.spill_seq += 1;
                let name: String = key
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric())
                    .take(32)
                    .collect();
                let path = dir.join(format!("tx-{}-{name}.spill", self.spill_seq));
                tx.spill = Some(SpillFile::create(path)?);
            }
            if let Some(file) = tx.spill.as_mut() {
                file.append(tx.rows.iter())?;
            }
            tx.rows = Vec::new();
            self.memory = self.memory.saturating_sub(tx.bytes);
            tx.bytes = 0;
        }
        Ok(())
    }

    /// Cancel the newest change of `row`'s ROW_ID in `tx` (memory first, then its spill file)
    /// with the rest of its statement: the rows with the empty ROW_ID right before it (the
    /// INSERT or UPDATE and the LOB, XML and extended-string rows of a statement that ended
    /// with this row, debezium/debezium#7472), and LOB_WRITE rows with its ROW_ID right after it
    /// (the combined form, preamble and write in one row).
    fn undo(tx: &mut OpenTx, row: &LogMinerRow) -> Result<u64> {
        let rid = row.row_id.as_str();
        let lob_of = |r: &LogMinerRow| r.operation_code == op::LOB_WRITE && r.row_id == rid;
        let leader = |r: &LogMinerRow| r.row_id == LOB_ROWID && is_statement_row(r);
        let target = |r: &LogMinerRow| r.row_id == rid && is_undoable(r);
        let mut freed = 0;
        let mut remove = |tx: &mut OpenTx, i: usize| {
            let r = tx.rows.remove(i);
            let b = row_bytes(&r);
            tx.bytes = tx.bytes.saturating_sub(b);
            freed += b;
        };
        if let Some(mut i) = tx.rows.iter().rposition(target) {
            remove(tx, i);
            // LOB writes that belonged to the undone change go with it.
            while i < tx.rows.len() && lob_of(&tx.rows[i]) {
                remove(tx, i);
            }
            while i > 0 && leader(&tx.rows[i - 1]) {
                i -= 1;
                remove(tx, i);
            }
            if i == 0 {
                if let Some(file) = tx.spill.as_mut() {
                    file.cancel_trailing(leader)?;
                }
            }
        } else if let Some(file) = tx.spill.as_mut() {
            let found = file.cancel_newest(target, lob_of, leader)?;
            if found == Some(true) {
                while !tx.rows.is_empty() && lob_of(&tx.rows[0]) {
                    remove(tx, 0);
                }
            }
        }
        Ok(freed)
    }

    /// Take one row; a COMMIT returns its transaction. Fails only on spill file I/O.
    pub fn push(&mut self, row: LogMinerRow) -> Result<Option<Committed>> {
        // Join CSF continuation pieces into one statement.
        if row.csf == 1 {
            match &mut self.csf {
                Some(acc) => acc.sql_redo.push_str(&row.sql_redo),
                None => {
                    let mut first = row;
                    first.csf = 0;
                    self.csf = Some(first);
                }
            }
            return Ok(None);
        }
        let row = match self.csf.take() {
            Some(mut acc) => {
                acc.sql_redo.push_str(&row.sql_redo);
                acc
            }
            None => row,
        };
        let mut scratch = [0u8; 32];
        let key = self.key_for(&row.xid, &mut scratch);
        let handling = Handling::of(row.operation_code);
        // INTERNAL rows matter only as the end of a statement, with the row's own ROW_ID.
        if handling == Handling::StatementEnd && row.row_id == LOB_ROWID {
            return Ok(None);
        }
        match handling {
            Handling::Start => {
                let tx = self.open.entry(key.into_owned()).or_default();
                tx.start_scn = Some(row.scn);
                if tx.first_scn == 0 {
                    tx.first_scn = row.scn;
                }
                Ok(None)
            }
            Handling::Commit => {
                let tx = self.take(&key).unwrap_or_default();
                let start_scn = tx.start_scn;
                let commit_scn = row.commit_scn.unwrap_or(row.scn);
                // The START this run mined decides; the COMMIT row's START_SCN is used only to
                // find a START that was not mined (see `TxStart`).
                let start = match start_scn {
                    Some(s) => TxStart::Seen(s),
                    None => TxStart::Unseen {
                        reported: row.start_scn.filter(|s| *s > 1 && *s <= commit_scn),
                    },
                };
                let mut rows = TxRows::from_tx(tx)?;
                // Rows seen under the partial XID belong to this transaction too.
                let partial = format!("{}{UNKNOWN_SQN}", prefix(&key));
                if let Some(p) = self.take(&partial) {
                    rows = TxRows::from_tx(p)?.merge(rows);
                }
                Ok(Some(Committed {
                    // The key: a partial COMMIT XID (ffffffff) joined to its open transaction
                    // is published under the full one, as a later run mining its START sees it.
                    xid: key.into_owned(),
                    start,
                    commit_scn,
                    thread: row.thread,
                    commit_timestamp: row
                        .commit_timestamp
                        .clone()
                        .unwrap_or_else(|| row.timestamp.clone()),
                    rows,
                }))
            }
            Handling::Rollback => {
                // Dropping a transaction removes its spill file.
                self.take(&key);
                self.take(&format!("{}{UNKNOWN_SQN}", prefix(&key)));
                Ok(None)
            }
            Handling::Ignored => Ok(None),
            Handling::Dml
            | Handling::Piece(_)
            | Handling::StatementEnd
            | Handling::Ddl
            | Handling::Reported => {
                // Looked up by the borrowed key; a key is only allocated for a new transaction.
                let tx = match self.open.get_mut(key.as_ref()) {
                    Some(tx) => tx,
                    None => self.open.entry(key.into_owned()).or_default(),
                };
                if tx.first_scn == 0 {
                    tx.first_scn = row.scn;
                }
                tx.changed = true;
                if row.rollback == 1 {
                    // Undo rows come newest first: cancel the newest change of this row.
                    let freed = Self::undo(tx, &row)?;
                    self.memory = self.memory.saturating_sub(freed);
                } else {
                    let b = row_bytes(&row);
                    tx.rows.push(row);
                    tx.bytes += b;
                    self.memory += b;
                    self.spill_over_limit()?;
                }
                Ok(None)
            }
        }
    }
}

#[cfg(test)]
#[path = "buffer_tests.rs"]
mod tests;
