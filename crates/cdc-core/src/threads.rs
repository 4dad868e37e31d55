//! Redo threads: how far LogMiner can mine (the mining bound, idle threads included) and whether
//! each thread's logs cover a mining window.
//!
//! **The bound.** LogMiner returns only redo LGWR has written, and V$THREAD.LAST_REDO_CHANGE#
//! says how far that is per thread ([`written_bound`]: one less than the lowest over the open
//! threads). An open thread that writes no redo freezes its LAST_REDO_CHANGE# (V$THREAD: "SCN of
//! last redo for the thread"), and with it the bound: on RAC an idle instance holds every window
//! back (Debezium commits to a flush table on each instance for that, DBZ-8055; this tool does
//! not write). [`IdleThreads`] finds a bound that moves without a write:
//!
//! - LGWR writes a thread's log buffer at every commit of it, at a log switch, and on its own
//!   at least every three seconds (Concepts, "Log Writer Process (LGWR)"; the redo is written
//!   "when … three seconds have passed since the last write"). So when a thread's written
//!   position (LAST_REDO_CHANGE#, LAST_REDO_SEQUENCE#, LAST_REDO_BLOCK: "last redo … written by
//!   LGWR", V$THREAD) stood still from one look at the database to another longer than that
//!   period apart (`quiet_ms`, with a margin), its log buffer was empty at the first look:
//!   whatever it held then would have been written, and the position would have moved.
//! - Redo made later carries an SCN at least the SCN its instance had then. Each RAC instance
//!   holds its own SCN ("the system change number (SCN) held in the SGA of an instance",
//!   Reference, MAX_COMMIT_PROPAGATION_DELAY), so the look reads the lowest over the instances
//!   (`MIN(CURRENT_SCN) FROM GV$DATABASE`: a GV$ view holds each instance's V$ rows, Real
//!   Application Clusters Administration, "Performance Views in Oracle RAC") before V$THREAD.
//!   Several changes can share an SCN, so later redo may carry that very SCN: one less is safe.
//! - An idle thread is therefore bounded by the SCN of the newest look at least `quiet_ms` old
//!   since which its position has not moved, minus 1; a thread that writes is bounded by its
//!   LAST_REDO_CHANGE# minus 1, as before; the bound is the lowest over the open threads. A
//!   busy thread's written redo never lets the bound pass its unwritten redo: its position
//!   moves at least every LGWR period while it has any, so it is never taken for idle.
//!
//! **Log continuity.** Before a window is mined, each thread's logs must cover it without a
//! gap from where the thread has redo in it on ([`check_thread_logs`], Debezium's
//! `LogFileCollector.isOpenThreadConsistent` / `isClosedThreadConsistent`, DBZ-6013): an open
//! thread enabled before the window needs a log holding the window's first SCN; a thread
//! enabled inside it (V$THREAD.ENABLE_CHANGE#, "SCN at which thread was enabled") needs its logs
//! from there; a closed thread needs its logs up to its last redo. A thread whose logs before
//! the window are gone is CDC-5203, never a silent gap.

use crate::errors::{CdcError, Result};
use crate::model::{LogFile, RedoThread, Scn};
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// One look at the redo threads: the lowest current SCN of the instances, read first, then
/// V$THREAD, at `at_ms` on a clock that runs with the database's (never backwards).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedoSample {
    pub at_ms: i64,
    pub scn: Scn,
    pub threads: Vec<RedoThread>,
}

/// Looks far enough apart to tell an idle thread from a busy one.
const MAX_SAMPLES: usize = 4096;

/// The mining bound over the looks taken so far (see the module comment).
#[derive(Debug, Clone)]
pub struct IdleThreads {
    quiet_ms: u64,
    samples: VecDeque<RedoSample>,
    /// What the newest look found, see [`IdleThreads::quiet_through`].
    quiet_through: Option<Scn>,
}

impl IdleThreads {
    /// `quiet_ms`: how long a thread's written position must stand still for it to count as
    /// idle; at least the database's LGWR period (Oracle: 3 s, plus a margin).
    pub fn new(quiet_ms: u64) -> Self {
        IdleThreads {
            quiet_ms,
            samples: VecDeque::new(),
            quiet_through: None,
        }
    }

    pub fn quiet_ms(&self) -> u64 {
        self.quiet_ms
    }

    /// The highest SCN a window may end at, with `sample` the newest look. `None`: no open
    /// thread (no bound known).
    pub fn bound(&mut self, sample: RedoSample) -> Option<Scn> {
        if self
            .samples
            .back()
            .is_some_and(|last| sample.at_ms < last.at_ms)
        {
            // The clock went back: no stretch of time is known any more.
            self.samples.clear();
        }
        let now = sample.at_ms;
        self.samples.push_back(sample);
        let quiet = i64::try_from(self.quiet_ms).unwrap_or(i64::MAX);
        // Looks older than the newest one that is old enough are never needed again: a thread
        // idle since them is idle since that one too, whose SCN is at least theirs.
        if let Some(i) = self
            .samples
            .iter()
            .rposition(|s| now.saturating_sub(s.at_ms) >= quiet)
        {
            self.samples.drain(..i);
        }
        while self.samples.len() > MAX_SAMPLES {
            self.samples.pop_front();
        }
        self.quiet_through = None;
        let newest = self.samples.back()?;
        let open: Vec<(&RedoThread, Option<Scn>)> = newest
            .threads
            .iter()
            .filter(|t| t.counts_for_bound())
            .map(|t| (t, self.idle_since(t, now, quiet)))
            .collect();
        // Every open thread idle since a look at SCN s, none with written redo at or past the
        // lowest such s: every commit up to it is written and below it (commits made later take
        // an SCN above the instance's), so nothing is committed at that SCN itself.
        let lowest_look = open.iter().map(|(_, s)| *s).min().flatten();
        self.quiet_through = lowest_look
            .filter(|s| !open.is_empty() && open.iter().all(|(t, _)| t.last_redo_scn < *s));
        open.iter()
            .map(|(t, idle)| {
                let busy = t.last_redo_scn.saturating_sub(1);
                match idle {
                    Some(scn) => busy.max(scn.saturating_sub(1)),
                    None => busy,
                }
            })
            .min()
    }

    /// After [`IdleThreads::bound`]: when every open thread was idle since a look at SCN s and
    /// none had written redo at s or later, s (the lowest such). Then no commit at or below s
    /// is still to be written and none is at s: once the redo up to the bound (s − 1) is
    /// mined, everything committed up to s is. `--stop-at-scn` with V$DATABASE.CURRENT_SCN on
    /// a database that has gone quiet ends there, where the bound alone stays one short.
    pub fn quiet_through(&self) -> Option<Scn> {
        self.quiet_through
    }

    /// The SCN of the newest look at least `quiet` old since which `t`'s written position has
    /// not moved (in every look since, `t` open at the same position).
    fn idle_since(&self, t: &RedoThread, now: i64, quiet: i64) -> Option<Scn> {
        let position = t.written_position();
        for s in self.samples.iter().rev() {
            let same = s.threads.iter().any(|o| {
                o.thread == t.thread && o.counts_for_bound() && o.written_position() == position
            });
            if !same {
                return None;
            }
            if now.saturating_sub(s.at_ms) >= quiet {
                return Some(s.scn);
            }
        }
        None
    }
}

/// [`IdleThreads`] shared by every session one connector opens: a session opened after a lost
/// connection goes on from the looks taken before, so a connection that drops more often than
/// the quiet period does not hold an idle thread (or a quiet database) back for ever.
#[derive(Debug, Clone, Default)]
pub struct SharedLooks(Arc<Mutex<Option<(Instant, IdleThreads)>>>);

impl SharedLooks {
    /// [`IdleThreads::bound`] of a look that read `scn` and then `threads`, at `at_ms` on the
    /// database's clock (`None`: the time since the first look). `quiet_ms` sets the quiet
    /// period at the first look.
    pub fn bound(
        &self,
        quiet_ms: u64,
        at_ms: Option<i64>,
        scn: Scn,
        threads: Vec<RedoThread>,
    ) -> Option<Scn> {
        // A session that panicked holding the lock left whole looks behind: go on with them.
        let mut looks = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let (epoch, idle) =
            looks.get_or_insert_with(|| (Instant::now(), IdleThreads::new(quiet_ms)));
        let at_ms =
            at_ms.unwrap_or_else(|| i64::try_from(epoch.elapsed().as_millis()).unwrap_or(i64::MAX));
        idle.bound(RedoSample {
            at_ms,
            scn,
            threads,
        })
    }

    /// [`IdleThreads::quiet_through`] after the newest look.
    pub fn quiet_through(&self) -> Option<Scn> {
        let looks = self.0.lock().unwrap_or_else(|p| p.into_inner());
        looks.as_ref().and_then(|(_, idle)| idle.quiet_through())
    }
}

/// Whether every thread's logs cover mining from `start` on (see the module comment), thread
/// by thread in `threads` (V$THREAD); logs of a thread V$THREAD does not list are not judged.
/// `Err(CdcError::ThreadLogsMissing)` names the first thread that lacks redo.
pub fn check_thread_logs(threads: &[RedoThread], logs: &[LogFile], start: Scn) -> Result<()> {
    let mut by_thread: BTreeMap<u32, Vec<&LogFile>> = BTreeMap::new();
    for l in logs {
        by_thread.entry(l.thread).or_default().push(l);
    }
    for t in threads {
        let mut mine = by_thread.remove(&t.thread).unwrap_or_default();
        mine.sort_by_key(|l| l.sequence);
        mine.dedup_by_key(|l| l.sequence);
        let enabled = t.enabled_scn.unwrap_or(0);
        // Where this thread's redo in the window begins, and up to where it must be there.
        let from = start.max(enabled);
        let until = if t.is_open() && !t.is_disabled() {
            None
        } else {
            // A closed (or disabled) thread has redo up to its last change only, and none in
            // the window when that is before it.
            if t.last_redo_scn < from {
                continue;
            }
            Some(t.last_redo_scn)
        };
        let missing = |why: String| CdcError::ThreadLogsMissing {
            thread: t.thread,
            scn: start,
            reason: why,
        };
        if mine.is_empty() {
            return Err(missing(format!(
                "it is {} and no log of it is available",
                t.status.to_ascii_lowercase()
            )));
        }
        let holds =
            |l: &LogFile, scn: Scn| l.first_scn <= scn && l.next_scn.is_none_or(|n| n > scn);
        let Some(first) = mine
            .iter()
            .position(|l| holds(l, from) || l.first_scn > from)
        else {
            let newest = mine.iter().filter_map(|l| l.next_scn).max().unwrap_or(0);
            return Err(missing(format!(
                "its newest log ends before SCN {from} (NEXT_CHANGE# {newest})"
            )));
        };
        if !holds(mine[first], from) {
            return Err(missing(format!(
                "its oldest available log (sequence {}) starts at SCN {}, after SCN {from}: the logs before it are gone",
                mine[first].sequence, mine[first].first_scn
            )));
        }
        let needed: Vec<&&LogFile> = mine[first..]
            .iter()
            .filter(|l| until.is_none_or(|u| l.first_scn <= u))
            .collect();
        for pair in needed.windows(2) {
            if pair[1].sequence != pair[0].sequence + 1 {
                return Err(missing(format!(
                    "sequence {} is missing (it has {} and {})",
                    pair[0].sequence + 1,
                    pair[0].sequence,
                    pair[1].sequence
                )));
            }
        }
        if let (Some(until), Some(last)) = (until, needed.last()) {
            if last.next_scn.is_some_and(|n| n <= until) {
                return Err(missing(format!(
                    "its redo runs to SCN {until} and sequence {} after its newest log is missing",
                    last.sequence + 1
                )));
            }
        }
    }
    Ok(())
}

/// [`check_thread_logs`] after the check LogMiner itself makes: a window older than every log
/// available is ORA-01291's CDC-5004 (on any thread count), before a thread without its logs
/// is CDC-5203.
pub fn check_window_logs(threads: &[RedoThread], logs: &[LogFile], start: Scn) -> Result<()> {
    let oldest = logs.iter().map(|l| l.first_scn).min().unwrap_or(0);
    if logs.is_empty() || start < oldest {
        return Err(CdcError::MissingLogFile { scn: start, oldest });
    }
    check_thread_logs(threads, logs, start)
}

/// Where the redo a downstream mining database received ends: per thread, from its oldest log
/// on without a gap, the end of its newest log (NEXT_CHANGE# − 1 of a whole log; of a standby
/// redo log still being written, what it is known to hold, [`LogFile::received_to`], else
/// nothing past its first SCN); the lowest over the threads. `None`: no log at all.
pub fn shipped_end(logs: &[LogFile], from: Scn) -> Option<Scn> {
    thread_ends(logs, from)
        .into_iter()
        .map(|(_, end, _)| end)
        .min()
}

/// [`shipped_end`], leaving out the threads that received all their source wrote, by the
/// source's V$THREAD (`source_threads`, read after the source's own mining bound and before
/// the logs): a thread whose newest received log is the one its LGWR writes
/// (LAST_REDO_SEQUENCE#) and holds its last written redo (LAST_REDO_CHANGE#), or a CLOSED one
/// whose logs reach its last redo. Real-time shipping sends redo as LGWR writes it, so an idle
/// source thread's standby redo log stands still as its V$THREAD position does, and would hold
/// the shipped end back as it holds the written bound ([`IdleThreads`]); redo it writes later
/// is bounded by the source's bound. `None`: no thread bounds it.
pub fn shipped_end_for(logs: &[LogFile], source_threads: &[RedoThread], from: Scn) -> Option<Scn> {
    thread_ends(logs, from)
        .into_iter()
        .filter(|(thread, end, newest)| {
            let Some(t) = source_threads.iter().find(|t| t.thread == *thread) else {
                return true;
            };
            let all_received = *end >= t.last_redo_scn;
            let current =
                newest.next_scn.is_none() && t.last_redo_sequence == Some(newest.sequence);
            let done = match t.counts_for_bound() {
                true => current && all_received,
                false => all_received,
            };
            !done
        })
        .map(|(_, end, _)| end)
        .min()
}

/// A gap in redo transport: a thread's sequence the mining database has not received while it
/// holds a later one. The redo past the end of the log before it cannot be mined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShippingGap {
    pub thread: u32,
    /// The first sequence missing.
    pub missing: u64,
    /// The last SCN received before it (the end of the log before the gap).
    pub received_to: Scn,
}

/// Every thread's first gap (see [`ShippingGap`]), in thread order.
pub fn shipping_gaps(logs: &[LogFile], from: Scn) -> Vec<ShippingGap> {
    logs_by_thread(logs, from)
        .into_iter()
        .filter_map(|(thread, mine)| {
            mine.windows(2)
                .find(|w| w[1].sequence != w[0].sequence + 1)
                .map(|w| ShippingGap {
                    thread,
                    missing: w[0].sequence + 1,
                    received_to: w[0].next_scn.unwrap_or(w[0].first_scn).saturating_sub(1),
                })
        })
        .collect()
}

/// Each thread's received logs in sequence order, once each, from the newest one that starts
/// at or before `from` (the SCN mining goes on from) on: a gap before that log ends before
/// `from`, its redo is not needed, so it holds nothing back (a log never received, long since
/// mined), while a missing log that would hold `from` lies after that one and is still a gap.
/// `from` 0: all.
fn logs_by_thread(logs: &[LogFile], from: Scn) -> BTreeMap<u32, Vec<&LogFile>> {
    let mut by_thread: BTreeMap<u32, Vec<&LogFile>> = BTreeMap::new();
    for l in logs {
        by_thread.entry(l.thread).or_default().push(l);
    }
    for mine in by_thread.values_mut() {
        mine.sort_by_key(|l| l.sequence);
        mine.dedup_by_key(|l| l.sequence);
        if let Some(anchor) = mine.iter().rposition(|l| l.first_scn <= from && from > 0) {
            mine.drain(..anchor);
        }
    }
    by_thread
}

/// Per thread: where its received redo ends (see [`shipped_end`]) and the log it ends in.
fn thread_ends(logs: &[LogFile], from: Scn) -> Vec<(u32, Scn, &LogFile)> {
    logs_by_thread(logs, from)
        .into_iter()
        .map(|(thread, mine)| {
            let mut end = mine[0].first_scn.saturating_sub(1);
            let mut newest = mine[0];
            let first = mine[0].sequence;
            for (expected, l) in (first..).zip(mine) {
                if l.sequence != expected {
                    break;
                }
                newest = l;
                end = match l.next_scn {
                    Some(next) => next.saturating_sub(1),
                    None => l
                        .received_to
                        .unwrap_or(l.first_scn.saturating_sub(1))
                        .max(end),
                };
                if l.next_scn.is_none() {
                    break;
                }
            }
            (thread, end, newest)
        })
        .collect()
}

#[cfg(test)]
#[path = "threads_tests.rs"]
mod tests;
