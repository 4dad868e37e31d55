//! LGWR, per redo thread: which of the redo is written to the online log, and V$THREAD.
//!
//! Oracle's log writer copies a thread's log buffer to its online log when a session commits
//! (COMMIT waits for it: COMMIT_WAIT defaults to WAIT), when a ROLLBACK ends, at a log switch,
//! and on its own every three seconds (its timed write; also when the buffer is a third full,
//! which the emulator does not model). Redo after the last write sits in the log buffer: the
//! database has it (the replica applies it) but LogMiner, which reads the log files, does not
//! return it yet, and V$THREAD.LAST_REDO_CHANGE# stays at the last SCN written. The emulator's
//! timed write is `database.redo_write_delay_ms` (default 3000): a record is written once it is
//! that old by the emulator's clock, or once a later COMMIT/ROLLBACK/log switch of its thread
//! forced a write; LGWR writes in order, so a written record has every earlier one of its
//! thread written too.
//!
//! V$THREAD shows, per thread, the SCN, time, log sequence and "block" (here: the record
//! number) of the newest record written. An idle open thread writes nothing, so all of them
//! stand still however far the current SCN moves, as on Oracle (V$THREAD: LAST_REDO_CHANGE#
//! "SCN of last redo for the thread", LAST_REDO_SEQUENCE# / LAST_REDO_BLOCK "written by
//! LGWR"); on RAC an idle instance's thread holds a bound taken as the lowest over the threads
//! (Debezium DBZ-8055). How capture still finds a bound that moves is in
//! `cdc_core::threads`. ENABLE_CHANGE# is the SCN the thread's first log starts at.
//! (Sources: Oracle Concepts, "Log Writer Process"; Reference, "log file sync" and V$THREAD;
//! Debezium's RAC flush strategy waits "3 seconds for Oracle to flush automatically".)

use super::redo::{Redo, Xid};
use cdc_core::model::{RedoThread, Scn};
use std::collections::{HashMap, VecDeque};

/// The log writer of every thread.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct LogWriters {
    threads: Vec<ThreadLog>,
}

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
struct ThreadLog {
    /// SCN and time of the newest record the last forced write (COMMIT, ROLLBACK, log switch)
    /// covered.
    flushed: Option<(Scn, i64)>,
    /// That record's number (`None` in a checkpoint written before it was kept).
    #[serde(default)]
    flushed_record: Option<u64>,
    /// The thread's records after it, oldest first: (record number, SCN, time).
    pending: VecDeque<(u64, Scn, i64)>,
}

/// How far one thread's redo is written at a moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// The first record number still in the log buffer; `None`: the buffer is empty.
    pub first_unwritten: Option<u64>,
    /// SCN and time of the newest written record (`None`: nothing written yet).
    pub last: Option<(Scn, i64)>,
    /// Its record number, where known.
    pub last_record: Option<u64>,
}

impl LogWriters {
    pub fn new(threads: usize) -> LogWriters {
        LogWriters {
            threads: vec![ThreadLog::default(); threads.max(1)],
        }
    }

    fn thread(&mut self, thread: u32) -> Option<&mut ThreadLog> {
        self.threads.get_mut((thread as usize).wrapping_sub(1))
    }

    /// Record number `n` was appended; `thread_of` gives a transaction's thread.
    pub fn record(&mut self, n: u64, record: &Redo, thread_of: &HashMap<Xid, u32>) {
        let of = |x: &Xid| thread_of.get(x).copied().unwrap_or(1);
        let (scn, ts) = (record.scn(), record.ts().unwrap_or(0));
        match record {
            // A commit writes the log buffer of every thread whose transaction it ends.
            Redo::Commit { xids, .. } => {
                let mut threads: Vec<u32> = xids.iter().map(of).collect();
                threads.sort_unstable();
                threads.dedup();
                for t in threads {
                    if let Some(l) = self.thread(t) {
                        l.flush(n, scn, ts);
                    }
                }
            }
            Redo::Rollback { xid, .. } => {
                if let Some(l) = self.thread(of(xid)) {
                    l.flush(n, scn, ts);
                }
            }
            // A dictionary build commits (and is written) like any transaction.
            Redo::LogSwitch { thread, .. } | Redo::DictionaryBuild { thread, .. } => {
                if let Some(l) = self.thread(*thread) {
                    l.flush(n, scn, ts);
                }
            }
            Redo::Begin { thread, .. } => {
                if let Some(l) = self.thread(*thread) {
                    l.pending.push_back((n, scn, ts));
                }
            }
            Redo::Insert { xid, .. }
            | Redo::Update { xid, .. }
            | Redo::Delete { xid, .. }
            | Redo::Undo { xid, .. }
            | Redo::Ddl { xid, .. }
            | Redo::Other { xid, .. } => {
                if let Some(l) = self.thread(of(xid)) {
                    l.pending.push_back((n, scn, ts));
                }
            }
            // Space management and statistics are not in V$LOGMNR_CONTENTS.
            Redo::Extent { .. } | Redo::Stats { .. } => {}
        }
    }

    /// Each thread's written state at `now_ms` (index thread-1): records at least `delay_ms`
    /// old were written by a timed write.
    pub fn written(&self, now_ms: i64, delay_ms: u64) -> Vec<Written> {
        let cutoff = now_ms.saturating_sub(i64::try_from(delay_ms).unwrap_or(i64::MAX));
        self.threads
            .iter()
            .map(|l| {
                // LGWR writes in order: up to the newest record old enough (the writer's clock
                // gives records times in order, so a binary search finds it).
                let next = l.pending.partition_point(|(_, _, ts)| *ts <= cutoff);
                let (last, last_record) = match next.checked_sub(1) {
                    Some(i) => (Some((l.pending[i].1, l.pending[i].2)), Some(l.pending[i].0)),
                    None => (l.flushed, l.flushed_record),
                };
                Written {
                    first_unwritten: l.pending.get(next).map(|(n, _, _)| *n),
                    last,
                    last_record,
                }
            })
            .collect()
    }
}

impl ThreadLog {
    fn flush(&mut self, n: u64, scn: Scn, ts: i64) {
        self.pending.clear();
        self.flushed = Some((scn, ts));
        self.flushed_record = Some(n);
    }
}

/// One thread's layout for V$THREAD: its current log's sequence, the SCN its first log starts
/// at (ENABLE_CHANGE#), and the log sequence a record number falls in.
pub struct ThreadLayout<'a> {
    pub sequence: u64,
    pub enabled_scn: Scn,
    pub sequence_of: &'a dyn Fn(u64) -> u64,
}

/// V$THREAD rows from each thread's written state: the newest written record's SCN, time, log
/// sequence and number; a thread that has written nothing yet shows the SCN it was enabled at.
pub fn thread_rows(
    written: &[Written],
    layout: &[ThreadLayout<'_>],
    time: impl Fn(i64) -> String,
) -> Vec<RedoThread> {
    written
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let l = layout.get(i);
            let enabled = l.map_or(0, |l| l.enabled_scn);
            let (scn, at) = match w.last {
                Some((scn, ts)) => (scn, Some(ts)),
                None => (enabled, None),
            };
            RedoThread {
                thread: i as u32 + 1,
                status: "OPEN".into(),
                enabled: "PUBLIC".into(),
                sequence: l.map_or(1, |l| l.sequence),
                last_redo_scn: scn,
                last_redo_time: at.map(&time),
                last_redo_sequence: Some(match (w.last_record, l) {
                    (Some(n), Some(l)) => (l.sequence_of)(n),
                    _ => 1,
                }),
                last_redo_block: Some(w.last_record.unwrap_or(0)),
                enabled_scn: Some(enabled),
            }
        })
        .collect()
}

impl super::store::Replica {
    /// The redo thread a record belongs to (`None`: not thread redo LogMiner shows).
    pub fn record_thread(&self, record: &Redo) -> Option<u32> {
        let of = |x: &Xid| self.xid_thread.get(x).copied().unwrap_or(1);
        match record {
            Redo::Begin { thread, .. }
            | Redo::LogSwitch { thread, .. }
            | Redo::DictionaryBuild { thread, .. } => Some(*thread),
            Redo::Insert { xid, .. }
            | Redo::Update { xid, .. }
            | Redo::Delete { xid, .. }
            | Redo::Undo { xid, .. }
            | Redo::Ddl { xid, .. }
            | Redo::Other { xid, .. }
            | Redo::Rollback { xid, .. } => Some(of(xid)),
            Redo::Commit { xids, .. } => xids.first().map(of),
            Redo::Extent { .. } | Redo::Stats { .. } => None,
        }
    }

    /// Each thread's written state at `now_ms`.
    pub fn written(&self, now_ms: i64) -> Vec<Written> {
        self.lgwr
            .written(now_ms, self.schema.database.redo_write_delay_ms)
    }

    /// Whether record `n` is in the online log yet (LogMiner can return it) at `now_ms`. On a
    /// standby every record it has is: redo reaches a standby only once the primary's LGWR has
    /// written it (redo transport ships written redo), so what it applied was written, and
    /// capture does not cap a standby's windows by V$THREAD (Debezium neither).
    pub fn is_written(&self, written: &[Written], n: u64, record: &Redo) -> bool {
        if self.schema.database.role != super::schema::RoleSpec::Primary {
            return true;
        }
        let Some(t) = self.record_thread(record) else {
            return true;
        };
        written
            .get((t as usize).wrapping_sub(1))
            .and_then(|w| w.first_unwritten)
            .is_none_or(|first| n < first)
    }

    /// V$THREAD at `now_ms`.
    pub fn redo_threads(&self, now_ms: i64) -> Vec<RedoThread> {
        let sequence_of: Vec<Box<dyn Fn(u64) -> u64 + '_>> = (0..self.logs.len())
            .map(|i| {
                let f: Box<dyn Fn(u64) -> u64 + '_> =
                    Box::new(move |n| self.sequence_of(i as u32 + 1, n));
                f
            })
            .collect();
        let layout: Vec<ThreadLayout<'_>> = self
            .logs
            .iter()
            .zip(&sequence_of)
            .map(|(l, f)| ThreadLayout {
                sequence: l.last().map_or(1, |s| s.sequence),
                enabled_scn: l
                    .first()
                    .map_or(self.schema.database.start_scn, |s| s.first_scn),
                sequence_of: &**f,
            })
            .collect();
        thread_rows(&self.written(now_ms), &layout, |ms| self.host_time(ms))
    }
}
