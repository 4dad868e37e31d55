//! The sequencer: capture's one ordering rule, kept apart from what mines, decodes and writes.
//!
//! - A chunk read `AS OF SCN s` is published after every change committed before `s` (the
//!   stream is published through `s - 1` first: [`Sequencer::through_before_chunk`]) and before
//!   every change committed at or after `s` (those are mined after the chunk is written).
//! - Each committed transaction is published once: the stream position names the last commit
//!   SCN published and the transactions published at it, and a transaction the position
//!   covers is skipped when mined again after a restart ([`Sequencer::is_published`]).
//! - A transaction is published whole: one whose START was not mined began before this run's
//!   mining did, so mining starts again before it ([`Sequencer::mine_again_from`]; the buffer
//!   tells whether the START was mined, `stream::buffer::TxStart`).
//!
//! The publisher asks it; it holds only SCNs, so the rule is tested here on its own.

use crate::errors::{CdcError, Code};
use crate::offsets::StreamPosition;
use cdc_core::model::{OpenTransaction, Scn};

/// Where the first run's mining starts: at `start` (the current SCN), or at the START of the
/// oldest transaction open then (GV$TRANSACTION), so that it is published whole. Two are left
/// out, each with a warning: one whose START_SCNB/W are 0 (no start at all; Debezium saw such
/// rows, DBZ-6869), and one that began before the oldest log there is (`oldest_log`): mining
/// cannot begin there, and starting at the oldest log instead keeps capture from failing on
/// every start for a transaction that may never touch a captured table. Both are mined back
/// for when they commit, as any transaction whose START was not mined is (the publisher), and
/// what is in no log is reported then (`transaction-start-lost`).
pub fn first_resume_scn(open: &[OpenTransaction], start: Scn, oldest_log: Option<Scn>) -> Scn {
    let mut resume = start;
    for t in open {
        if t.start_scn <= 1 {
            tracing::warn!(
                "V$TRANSACTION gives open transaction {} no start SCN: mining starts without it, and mines back for its START if it commits changes",
                t.xid
            );
            continue;
        }
        match oldest_log {
            Some(oldest) if t.start_scn < oldest => {
                tracing::warn!(
                    "open transaction {} began at SCN {}, before the oldest log (SCN {oldest}): mining starts at that log, and the transaction's changes before it are in no log",
                    t.xid,
                    t.start_scn
                );
                resume = resume.min(oldest);
            }
            _ => resume = resume.min(t.start_scn),
        }
    }
    resume
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sequencer {
    /// The SCN the next mining window starts at.
    next_mine: Scn,
    /// Everything committed through this SCN is mined and published.
    mined_to: Scn,
    /// Where this run's continuous mining began.
    mined_from: Scn,
}

impl Sequencer {
    /// Mining resumes at `resume_scn` (the stream position's).
    pub fn new(resume_scn: Scn) -> Sequencer {
        Sequencer {
            next_mine: resume_scn,
            mined_to: resume_scn.saturating_sub(1),
            mined_from: resume_scn,
        }
    }

    pub fn next_mine(&self) -> Scn {
        self.next_mine
    }

    pub fn mined_to(&self) -> Scn {
        self.mined_to
    }

    pub fn mined_from(&self) -> Scn {
        self.mined_from
    }

    /// The SCN the stream is published through before a chunk read at `chunk_scn`: every
    /// change committed before it.
    pub fn through_before_chunk(chunk_scn: Scn) -> Scn {
        chunk_scn.saturating_sub(1)
    }

    /// Whether a chunk read at `chunk_scn` may be published now, while streaming: everything
    /// committed before it is.
    pub fn may_publish_chunk(&self, chunk_scn: Scn) -> bool {
        self.mined_to >= Self::through_before_chunk(chunk_scn)
    }

    /// The rule's other half, checked before chunks read at `chunk_scn` are published: the
    /// stream has published nothing committed after it (CDC-9002 otherwise: a defect, so capture
    /// stops rather than let the chunks' older rows overwrite newer changes at a consumer).
    pub fn check_not_past_chunk(&self, chunk_scn: Scn) -> Result<(), CdcError> {
        if self.mined_to <= chunk_scn {
            return Ok(());
        }
        Err(CdcError::coded(
            Code::Cdc9002,
            format!(
                "the change stream was published through SCN {} before a snapshot wave read AS OF SCN {chunk_scn}: changes committed after the wave would come before its rows; capture stops before publishing them (a defect: start capture again, and report it)",
                self.mined_to
            ),
        ))
    }

    /// Whether streaming through `end` has anything left to mine.
    pub fn has_to_mine(&self, end: Scn) -> bool {
        end >= self.next_mine
    }

    /// Everything committed through `end` was mined and published.
    pub fn mined_through(&mut self, end: Scn) {
        self.next_mine = end + 1;
        self.mined_to = end;
    }

    /// Whether everything committed up to `target` is published: mined through it, or mined
    /// through the limit of a database gone quiet at or past it (`quiet`: the SCN everything
    /// committed is known to be written through; nothing commits at it, later commits take
    /// higher SCNs).
    pub fn published_through(&self, target: Scn, quiet: Option<Scn>) -> bool {
        self.mined_to >= target
            || quiet.is_some_and(|q| q >= target && self.mined_to.saturating_add(1) >= q)
    }

    /// Mine again from `start` (before the START of a transaction whose START was not mined);
    /// what was published meanwhile is skipped by the position.
    pub fn mine_again_from(&mut self, start: Scn) {
        self.mined_from = start;
    }

    /// Whether the transaction committed at `commit_scn` as `xid` is published by `position`.
    pub fn is_published(position: &StreamPosition, commit_scn: Scn, xid: &str) -> bool {
        commit_scn < position.commit_scn
            || (commit_scn == position.commit_scn
                && (position.commit_xids.is_empty()
                    || position
                        .commit_xids
                        .iter()
                        .any(|x| x.eq_ignore_ascii_case(xid))))
    }

    /// Move `position` past the transaction committed at `commit_scn` as `xid` on redo
    /// `thread`, just published.
    pub fn published(position: &mut StreamPosition, commit_scn: Scn, xid: &str, thread: u32) {
        if commit_scn > position.commit_scn || position.commit_xids.is_empty() {
            position.commit_scn = commit_scn;
            position.commit_xids = vec![xid.to_string()];
        } else {
            position.commit_xids.push(xid.to_string());
        }
        position.threads.insert(thread, commit_scn);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(commit_scn: Scn, xids: &[&str]) -> StreamPosition {
        StreamPosition {
            resume_scn: commit_scn + 1,
            commit_scn,
            commit_xids: xids.iter().map(|x| x.to_string()).collect(),
            threads: Default::default(),
        }
    }

    /// A wave read at an SCN the stream has already passed is refused with CDC-9002; one at or
    /// after where the stream is passes.
    #[test]
    fn a_chunk_the_stream_overtook_is_refused() {
        let mut s = Sequencer::new(100);
        s.mined_through(149);
        assert!(s.check_not_past_chunk(150).is_ok());
        assert!(s.check_not_past_chunk(149).is_ok());
        let e = s.check_not_past_chunk(148).expect_err("overtaken");
        assert_eq!(e.code(), Code::Cdc9002);
        assert!(e.to_string().contains("through SCN 149"), "{e}");
        assert!(e.to_string().contains("AS OF SCN 148"), "{e}");
    }

    #[test]
    fn a_chunk_waits_for_every_change_committed_before_its_scn() {
        let mut s = Sequencer::new(100);
        assert_eq!(s.mined_to(), 99);
        // A chunk read at 100 needs the stream through 99: there already.
        assert!(s.may_publish_chunk(100));
        // Read at 150: changes committed at 100..=149 come first.
        assert!(!s.may_publish_chunk(150));
        assert_eq!(Sequencer::through_before_chunk(150), 149);
        assert!(s.has_to_mine(149));
        s.mined_through(149);
        assert!(s.may_publish_chunk(150));
        // A change committed at 150 (the chunk's SCN) is mined after it.
        assert!(!s.may_publish_chunk(151));
        assert_eq!(s.next_mine(), 150);
        assert!(!s.has_to_mine(149));
    }

    #[test]
    fn a_quiet_database_is_published_through_its_limit() {
        let mut s = Sequencer::new(100);
        s.mined_through(199);
        assert!(s.published_through(199, None));
        assert!(!s.published_through(250, None));
        // Written through 200 and mined through 199: nothing can commit at 200 or below unseen.
        assert!(s.published_through(200, Some(200)));
        assert!(!s.published_through(201, Some(200)));
        // A limit beyond what is mined says nothing about the SCNs between.
        assert!(!s.published_through(210, Some(220)));
    }

    #[test]
    fn a_transaction_is_published_once_and_whole() {
        let p = position(500, &["0A00"]);
        assert!(Sequencer::is_published(&p, 499, "0B00"));
        assert!(
            Sequencer::is_published(&p, 500, "0a00"),
            "XIDs compare without case"
        );
        assert!(
            !Sequencer::is_published(&p, 500, "0C00"),
            "another one at the same SCN"
        );
        assert!(!Sequencer::is_published(&p, 501, "0A00"));
        // A position without XIDs (edited to an SCN) covers everything committed at it.
        assert!(Sequencer::is_published(&position(500, &[]), 500, "0C00"));

        let mut p = position(500, &["0A00"]);
        Sequencer::published(&mut p, 500, "0C00", 1);
        assert_eq!(p.commit_xids, vec!["0A00", "0C00"]);
        Sequencer::published(&mut p, 510, "0D00", 2);
        assert_eq!(
            (p.commit_scn, p.commit_xids.clone()),
            (510, vec!["0D00".to_string()])
        );
        assert_eq!(p.threads.get(&2), Some(&510));

        let mut s = Sequencer::new(1000);
        assert_eq!(s.mined_from(), 1000);
        s.mine_again_from(990);
        assert_eq!(s.mined_from(), 990);
    }

    #[test]
    fn the_first_start_rewinds_to_open_transactions_it_can_mine() {
        let tx = |xid: &str, start_scn: Scn| OpenTransaction {
            xid: xid.into(),
            start_scn,
            thread: 1,
        };
        assert_eq!(first_resume_scn(&[], 1000, Some(10)), 1000);
        assert_eq!(
            first_resume_scn(&[tx("a", 900), tx("b", 950)], 1000, Some(10)),
            900
        );
        // No start at all (START_SCNB/W 0): not a place to mine from.
        assert_eq!(
            first_resume_scn(&[tx("zero", 0), tx("one", 1)], 1000, Some(10)),
            1000
        );
        // Before the oldest log: mining begins at that log, not at SCN 5 (CDC-5004 forever).
        assert_eq!(
            first_resume_scn(&[tx("old", 5), tx("b", 950)], 1000, Some(10)),
            10
        );
        // The log list unknown: as before, from the START.
        assert_eq!(first_resume_scn(&[tx("old", 5)], 1000, None), 5);
    }
}
