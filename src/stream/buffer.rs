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
use crate::source::model::{op, LogMinerRow, Scn};
use crate::source::rowid::LOB_ROWID;
use std::borrow::Cow;
use std::collections::HashMap;
use std::iter::Peekable;
use std::path::PathBuf;

/// A committed transaction: its identity, and its rows in redo order as a stream.
#[derive(Debug)]
pub struct Committed {
    pub xid: String,
    pub start_scn: Scn,
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
            start_scn,
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

    /// The oldest SCN mining must restart from to rebuild the open transactions.
    pub fn oldest_start(&self) -> Option<Scn> {
        self.open
            .values()
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
                let (start_scn, first_scn) = (tx.start_scn, tx.first_scn);
                let mut rows = TxRows::from_tx(tx)?;
                let mut first = first_scn;
                // Rows seen under the partial XID belong to this transaction too.
                let partial = format!("{}{UNKNOWN_SQN}", prefix(&key));
                if let Some(p) = self.take(&partial) {
                    first = if first == 0 {
                        p.first_scn
                    } else {
                        first.min(p.first_scn)
                    };
                    rows = TxRows::from_tx(p)?.merge(rows);
                }
                Ok(Some(Committed {
                    xid: row.xid.to_ascii_lowercase(),
                    start_scn: row.start_scn.or(start_scn).unwrap_or(first),
                    commit_scn: row.commit_scn.unwrap_or(row.scn),
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
mod tests {
    use super::*;

    fn row(code: u32, scn: Scn, xid: &str, rid: &str, sql: &str) -> LogMinerRow {
        LogMinerRow {
            scn,
            commit_scn: (code == op::COMMIT).then_some(scn),
            start_scn: None,
            timestamp: String::new(),
            commit_timestamp: None,
            xid: xid.into(),
            xidusn: 0,
            xidslt: 0,
            xidsqn: 0,
            operation_code: code,
            operation: op::name(code).into(),
            seg_owner: None,
            table_name: None,
            row_id: rid.into(),
            sql_redo: sql.into(),
            csf: 0,
            rollback: 0,
            rs_id: String::new(),
            ssn: 0,
            thread: 1,
            sequence: 1,
            status: 0,
            info: None,
            src_con_name: String::new(),
            username: String::new(),
            data_obj: 0,
        }
    }

    const X: &str = "0200030004000000";

    #[test]
    fn commit_returns_changes_rollback_drops_them() {
        let mut b = TxBuffer::default();
        assert!(b.push(row(op::START, 10, X, "", "")).unwrap().is_none());
        b.push(row(op::INSERT, 11, X, "R1", "i1")).unwrap();
        assert_eq!(b.oldest_start(), Some(10));
        let c = b.push(row(op::COMMIT, 12, X, "", "")).unwrap().unwrap();
        let rows = c.rows.collect_vec().unwrap();
        assert_eq!((c.start_scn, c.commit_scn, rows.len()), (10, 12, 1));
        assert_eq!(b.open_transactions(), 0);
        b.push(row(op::START, 13, X, "", "")).unwrap();
        b.push(row(op::INSERT, 14, X, "R2", "i2")).unwrap();
        assert!(b.push(row(op::ROLLBACK, 15, X, "", "")).unwrap().is_none());
        assert_eq!(b.open_transactions(), 0);
    }

    #[test]
    fn undo_rows_cancel_the_newest_change_of_their_row() {
        let mut b = TxBuffer::default();
        b.push(row(op::START, 1, X, "", "")).unwrap();
        b.push(row(op::INSERT, 2, X, "A", "insert a")).unwrap();
        b.push(row(op::UPDATE, 3, X, "A", "update a")).unwrap();
        b.push(row(op::INSERT, 4, X, "B", "insert b")).unwrap();
        let mut undo_b = row(op::DELETE, 5, X, "B", "");
        undo_b.rollback = 1;
        let mut undo_a = row(op::UPDATE, 6, X, "A", "");
        undo_a.rollback = 1;
        b.push(undo_b).unwrap();
        b.push(undo_a).unwrap();
        let c = b.push(row(op::COMMIT, 7, X, "", "")).unwrap().unwrap();
        let rows = c.rows.collect_vec().unwrap();
        let sql: Vec<&str> = rows.iter().map(|r| r.sql_redo.as_str()).collect();
        assert_eq!(sql, vec!["insert a"]);
    }

    #[test]
    fn csf_pieces_are_joined_and_partial_xids_matched() {
        let mut b = TxBuffer::default();
        let mut p1 = row(
            op::INSERT,
            2,
            "02000300ffffffff",
            "A",
            "insert into \"O\".\"T\"(\"C\") values ('ab",
        );
        p1.csf = 1;
        b.push(p1).unwrap();
        b.push(row(op::INSERT, 2, "02000300ffffffff", "A", "cd');"))
            .unwrap();
        b.push(row(op::UPDATE, 3, "02000300ffffffff", "A", "update"))
            .unwrap();
        let c = b
            .push(row(op::COMMIT, 4, "0200030004000000", "", ""))
            .unwrap()
            .unwrap();
        let (start_scn, rows) = (c.start_scn, c.rows.collect_vec().unwrap());
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[0].sql_redo,
            "insert into \"O\".\"T\"(\"C\") values ('abcd');"
        );
        assert_eq!(
            start_scn, 2,
            "seen from its middle: starts at its first row"
        );
        assert_eq!(b.open_transactions(), 0);
    }

    fn files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut v: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        v.sort();
        v
    }

    fn sqls(c: Committed) -> Vec<String> {
        c.rows
            .collect_vec()
            .unwrap()
            .into_iter()
            .map(|r| r.sql_redo)
            .collect()
    }

    fn undo(code: u32, scn: Scn, xid: &str, rid: &str) -> LogMinerRow {
        let mut r = row(code, scn, xid, rid, "");
        r.rollback = 1;
        r
    }

    /// A limit a few rows fit in.
    const TINY: u64 = 2_000;

    #[test]
    fn over_the_limit_the_largest_transaction_spills_and_comes_back_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let spill = dir.path().join("spill");
        std::fs::create_dir_all(&spill).unwrap();
        std::fs::write(spill.join("tx-1-leftover.spill"), b"old").unwrap();
        let mut b = TxBuffer::new(TINY, spill.clone()).unwrap();
        assert!(files(&spill).is_empty(), "cleaned at startup");
        const Y: &str = "0300040005000000";
        b.push(row(op::START, 1, X, "", "")).unwrap();
        b.push(row(op::START, 1, Y, "", "")).unwrap();
        b.push(row(op::INSERT, 2, Y, "Y1", "y1")).unwrap();
        for i in 0..40u64 {
            b.push(row(
                op::INSERT,
                3 + i,
                X,
                &format!("R{i}"),
                &format!("x{i}"),
            ))
            .unwrap();
            assert!(b.memory_bytes() <= TINY, "{}", b.memory_bytes());
        }
        assert_eq!(b.buffered_rows(), 41);
        assert!(b.spilled_bytes() > 0);
        let on_disk = files(&spill);
        assert_eq!(on_disk.len(), 1, "only the large transaction spilled");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&on_disk[0]).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let c = b.push(row(op::COMMIT, 50, X, "", "")).unwrap().unwrap();
        assert_eq!(c.start_scn, 1);
        let want: Vec<String> = (0..40).map(|i| format!("x{i}")).collect();
        assert_eq!(sqls(c), want);
        assert!(files(&spill).is_empty(), "removed once read");
        // A rolled-back spilled transaction leaves no file behind either.
        for i in 0..40u64 {
            b.push(row(op::INSERT, 60 + i, Y, "Y2", "y")).unwrap();
        }
        assert_eq!(files(&spill).len(), 1);
        b.push(row(op::ROLLBACK, 200, Y, "", "")).unwrap();
        assert!(files(&spill).is_empty());
        assert_eq!((b.open_transactions(), b.memory_bytes()), (0, 0));
    }

    #[test]
    fn undo_rows_cancel_changes_across_the_spill_boundary() {
        let dir = tempfile::tempdir().unwrap();
        let mut b = TxBuffer::new(TINY, dir.path().join("spill")).unwrap();
        b.push(row(op::START, 1, X, "", "")).unwrap();
        b.push(row(op::INSERT, 2, X, "A", "insert a")).unwrap();
        b.push(row(op::UPDATE, 3, X, "A", "update a")).unwrap();
        b.push(row(op::LOB_WRITE, 3, X, "A", "lob a")).unwrap();
        b.push(row(op::INSERT, 4, X, "C", "insert c")).unwrap();
        for i in 0..20u64 {
            b.push(row(
                op::INSERT,
                5 + i,
                X,
                &format!("F{i}"),
                &format!("f{i}"),
            ))
            .unwrap();
        }
        // A row over the limit spills everything before it.
        let big = "x".repeat(TINY as usize);
        b.push(row(op::INSERT, 29, X, "BIG", &big)).unwrap();
        assert_eq!(b.memory_bytes(), 0, "everything is on disk");
        let before = b.spilled_bytes();
        b.push(row(op::INSERT, 30, X, "B", "insert b")).unwrap();
        // Newest first: B (in memory), then BIG and the newest F (on disk, at the tail).
        b.push(undo(op::DELETE, 31, X, "B")).unwrap();
        b.push(undo(op::DELETE, 32, X, "BIG")).unwrap();
        assert!(b.spilled_bytes() < before, "a cancelled tail is cut off");
        b.push(undo(op::DELETE, 32, X, "F19")).unwrap();
        // A's update and its LOB write, in the middle of the file.
        b.push(undo(op::UPDATE, 33, X, "A")).unwrap();
        b.push(undo(op::DELETE, 34, X, "NOT-THERE")).unwrap();
        assert_eq!(b.buffered_rows(), 21);
        let c = b.push(row(op::COMMIT, 40, X, "", "")).unwrap().unwrap();
        let mut want = vec!["insert a".to_string(), "insert c".to_string()];
        want.extend((0..19).map(|i| format!("f{i}")));
        assert_eq!(sqls(c), want);
    }

    #[test]
    fn lob_writes_of_an_undone_spilled_change_are_cancelled_in_memory_too() {
        let dir = tempfile::tempdir().unwrap();
        let mut b = TxBuffer::new(TINY, dir.path().join("spill")).unwrap();
        for i in 0..10u64 {
            b.push(row(
                op::INSERT,
                1 + i,
                X,
                &format!("F{i}"),
                &format!("f{i}"),
            ))
            .unwrap();
        }
        b.push(row(op::INSERT, 20, X, "A", "insert a")).unwrap();
        // Enough to spill everything so far; the LOB write lands in memory afterwards.
        let big = "x".repeat(TINY as usize);
        b.push(row(op::INSERT, 21, X, "BIG", &big)).unwrap();
        assert_eq!(b.memory_bytes(), 0);
        b.push(undo(op::DELETE, 22, X, "BIG")).unwrap();
        b.push(row(op::LOB_WRITE, 23, X, "A", "lob a")).unwrap();
        b.push(undo(op::DELETE, 24, X, "A")).unwrap();
        let c = b.push(row(op::COMMIT, 30, X, "", "")).unwrap().unwrap();
        let want: Vec<String> = (0..10).map(|i| format!("f{i}")).collect();
        assert_eq!(sqls(c), want);
    }

    #[test]
    fn partial_xid_rows_merge_by_scn_when_both_parts_spilled() {
        let dir = tempfile::tempdir().unwrap();
        let spill = dir.path().join("spill");
        let mut b = TxBuffer::new(TINY, spill.clone()).unwrap();
        const P: &str = "02000300ffffffff";
        for i in 0..20u64 {
            b.push(row(op::INSERT, 2 * i, P, "P", &format!("p{i}")))
                .unwrap();
        }
        b.push(row(op::START, 40, X, "", "")).unwrap();
        for i in 20..40u64 {
            // Later partial-XID rows join the full XID once it is known.
            let xid = if i % 2 == 0 { P } else { X };
            b.push(row(op::INSERT, 2 * i, xid, "Q", &format!("q{i}")))
                .unwrap();
        }
        assert!(!files(&spill).is_empty());
        let c = b.push(row(op::COMMIT, 100, X, "", "")).unwrap().unwrap();
        assert_eq!(c.start_scn, 40);
        let mut want: Vec<String> = (0..20).map(|i| format!("p{i}")).collect();
        want.extend((20..40).map(|i| format!("q{i}")));
        assert_eq!(sqls(c), want);
        assert_eq!(b.open_transactions(), 0);
        assert!(files(&spill).is_empty());
    }

    #[test]
    fn csf_pieces_are_joined_with_a_tiny_limit() {
        let dir = tempfile::tempdir().unwrap();
        let mut b = TxBuffer::new(1, dir.path().join("spill")).unwrap();
        for i in 0..5u64 {
            let mut p1 = row(op::INSERT, 2 + i, X, "A", &format!("insert {i} ('ab"));
            p1.csf = 1;
            b.push(p1).unwrap();
            let mut p2 = row(op::INSERT, 2 + i, X, "A", "cd");
            p2.csf = 1;
            b.push(p2).unwrap();
            b.push(row(op::INSERT, 2 + i, X, "A", "ef');")).unwrap();
            assert_eq!(b.memory_bytes(), 0, "every row spills at once");
        }
        b.push(undo(op::DELETE, 9, X, "A")).unwrap();
        let c = b.push(row(op::COMMIT, 10, X, "", "")).unwrap().unwrap();
        let want: Vec<String> = (0..4).map(|i| format!("insert {i} ('abcdef');")).collect();
        assert_eq!(sqls(c), want);
    }

    fn synthetic(i: u64, xid: &str) -> LogMinerRow {
        let mut r = row(
            op::INSERT,
            100 + i,
            xid,
            "AAAR0AAAEAAAAGFAAA",
            &format!(
                "insert into \"HR\".\"EVENTS\"(\"ID\",\"NAME\",\"AMOUNT\") values ('{i}','event number {i}','{}');",
                i % 1000
            ),
        );
        r.seg_owner = Some("HR".into());
        r.table_name = Some("EVENTS".into());
        r.timestamp = "2026-01-01 00:00:00".into();
        r.rs_id = " 0x000001.00000002.0010 ".into();
        r.ssn = i;
        r
    }

    /// Push `n` rows of one transaction under `limit`; check memory after every push, then
    /// read everything back in order. Returns the peak of memory_bytes().
    fn one_big_transaction(n: u64, limit: u64) -> u64 {
        let dir = tempfile::tempdir().unwrap();
        let mut b = TxBuffer::new(limit, dir.path().join("spill")).unwrap();
        b.push(row(op::START, 99, X, "", "")).unwrap();
        let mut peak = 0;
        for i in 0..n {
            b.push(synthetic(i, X)).unwrap();
            peak = peak.max(b.memory_bytes());
            assert!(b.memory_bytes() <= limit, "row {i}: {}", b.memory_bytes());
        }
        assert_eq!(b.buffered_rows() as u64, n);
        let c = b
            .push(row(op::COMMIT, 100 + n, X, "", ""))
            .unwrap()
            .unwrap();
        let mut seen = 0u64;
        for r in c.rows {
            let r = r.unwrap();
            assert_eq!((r.scn, r.ssn), (100 + seen, seen));
            seen += 1;
        }
        assert_eq!(seen, n);
        assert!(files(&dir.path().join("spill")).is_empty());
        peak
    }

    #[test]
    fn two_million_changes_of_one_transaction_stay_under_the_limit() {
        let limit = 4 << 20;
        let peak = one_big_transaction(2_000_000, limit);
        assert!(peak > limit / 2, "the limit was used: {peak}");
    }

    /// Memory benchmark: peak RSS while buffering and reading back a 10M-change transaction
    /// under the default limit (or `ORACLE_CDC_STREAM_BUFFER_MEMORY_BYTES`):
    /// `cargo test --release --lib peak_rss -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn peak_rss_of_a_ten_million_change_transaction() {
        fn hwm_kib() -> u64 {
            std::fs::read_to_string("/proc/self/status")
                .ok()
                .and_then(|s| {
                    s.lines()
                        .find(|l| l.starts_with("VmHWM:"))
                        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
                })
                .unwrap_or(0)
        }
        // The setting's environment variable overrides the default limit for this measurement.
        let limit: u64 = std::env::var("ORACLE_CDC_STREAM_BUFFER_MEMORY_BYTES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(268_435_456);
        let start = std::time::Instant::now();
        let before = hwm_kib();
        one_big_transaction(10_000_000, limit);
        let after = hwm_kib();
        println!(
            "10M changes, limit {} MiB: VmHWM {} MiB before, {} MiB after, {:.1} s",
            limit >> 20,
            before >> 10,
            after >> 10,
            start.elapsed().as_secs_f64()
        );
        assert!(
            after * 1024 < limit * 3 + (64 << 20),
            "peak RSS {after} KiB"
        );
    }

    /// An XID is matched whatever its case, on the borrowed, lowered and (too long for the
    /// scratch buffer) allocated paths alike.
    #[test]
    fn xids_match_in_any_case() {
        let long = "0A000B00C3010000".repeat(3);
        let long_lower = long.to_ascii_lowercase();
        for (upper, lower) in [
            ("0A000B00C3010000", "0a000b00c3010000"),
            (long.as_str(), long_lower.as_str()),
        ] {
            let mut b = TxBuffer::default();
            b.push(row(op::START, 1, upper, "", "")).unwrap();
            b.push(row(op::INSERT, 2, lower, "R1", "i1")).unwrap();
            b.push(row(op::INSERT, 3, upper, "R2", "i2")).unwrap();
            assert_eq!(b.open_transactions(), 1);
            let c = b.push(row(op::COMMIT, 4, upper, "", "")).unwrap().unwrap();
            assert_eq!((c.xid.as_str(), c.start_scn), (lower, 1));
            assert_eq!(c.rows.collect_vec().unwrap().len(), 2);
            assert_eq!(b.open_transactions(), 0);
        }
    }
}
