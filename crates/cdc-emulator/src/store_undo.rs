//! What the replica's undo keeps: the time of each SCN (for ORA-01555 against
//! `undo_retention` and for SCN_TO_TIMESTAMP), and pruning the versions and records no read can
//! reach any more.

use super::{Replica, Version};
use crate::redo::Xid;
use cdc_core::model::Scn;

impl Replica {
    /// Map `scn` to time `ts`. Of a run of records with one timestamp only the first and the
    /// last are kept: [`Replica::time_of`] and [`Replica::undo_floor`] answer the same, and a
    /// bulk load (thousands of records a millisecond) keeps two entries a millisecond.
    pub(super) fn note_time(&mut self, scn: Scn, ts: i64) {
        let len = self.scn_times.len();
        match self.scn_times.last() {
            Some(&(s, _)) if s == scn => {}
            Some(&(_, t)) if t == ts && len >= 2 && self.scn_times[len - 2].1 == ts => {
                self.scn_times[len - 1].0 = scn;
            }
            _ => self.scn_times.push((scn, ts)),
        }
    }

    /// Milliseconds timestamp of `scn` (of the newest record at or below it).
    pub fn time_of(&self, scn: Scn) -> Option<i64> {
        let i = self.scn_times.partition_point(|(s, _)| *s <= scn);
        (i > 0).then(|| self.scn_times[i - 1].1)
    }

    /// The oldest SCN whose undo is still kept at time `now_ms`.
    pub fn undo_floor(&self, now_ms: i64) -> Scn {
        let limit = now_ms - (self.schema.database.undo_retention as i64) * 1000;
        let i = self.scn_times.partition_point(|(_, ts)| *ts < limit);
        if i == 0 {
            self.schema.database.start_scn
        } else {
            self.scn_times[i - 1].0
        }
    }

    /// Drop versions and records nobody can read any more. Called now and then by the owner.
    pub fn prune(&mut self, now_ms: i64) {
        if self.commits_since_prune < 5_000 {
            return;
        }
        self.commits_since_prune = 0;
        let floor = self.undo_floor(now_ms);
        let limit = now_ms - (self.schema.database.undo_retention as i64) * 1000;
        for t in &mut self.tables {
            let expired = t.change_commits.partition_point(|(_, ts)| *ts < limit);
            if expired > 1 {
                t.change_commits.drain(..expired - 1);
            }
            if self.unloaded.is_some() {
                // Rows still on disk: pruned once read.
                continue;
            }
            let (rows, key_index) = (&mut t.rows, &mut t.key_index);
            rows.retain(|rid, versions| {
                let keep_from = versions
                    .partition_point(|v| v.scn <= floor)
                    .saturating_sub(1);
                let dropped: Vec<Version> = versions.drain(..keep_from).collect();
                let keep =
                    !(versions.len() == 1 && versions[0].row.is_none() && versions[0].scn <= floor);
                if let Some(ix) = key_index {
                    let remaining: &[Version] = if keep { versions } else { &[] };
                    for r in dropped.iter().filter_map(|v| v.row.as_ref()) {
                        ix.forget(r, *rid, remaining);
                    }
                }
                keep
            });
        }
        // Records older than every retained log and every open transaction can go.
        let oldest_open = self
            .open
            .values()
            .filter_map(|t| t.changes.first().copied())
            .min()
            .unwrap_or(u64::MAX);
        let oldest_log = self
            .retained_logs()
            .iter()
            .map(|l| l.first_record)
            .min()
            .unwrap_or(0);
        let keep_from = oldest_open.min(oldest_log).min(self.next_record());
        if keep_from > self.index.first {
            let scn = match self.record(keep_from) {
                Ok(Some(r)) => Some(r.scn()),
                Ok(None) => Some(self.current_scn),
                // Unreadable now: keep what is retained; the next prune tries again.
                Err(_) => None,
            };
            if let Some(scn) = scn {
                self.index.prune(keep_from, scn);
                while self.records_base < keep_from && !self.records.is_empty() {
                    self.records.pop_front();
                    self.records_base += 1;
                }
                self.records_base = self.records_base.max(keep_from);
            }
        }
        // Transactions whose records are all gone need no bookkeeping any more.
        let first_kept = self.first_kept_scn();
        let open = &self.open;
        let starts = &self.xid_start;
        let keep =
            |x: &Xid| open.contains_key(x) || starts.get(x).is_some_and(|s| *s >= first_kept);
        let drop: Vec<Xid> = self
            .xid_start
            .keys()
            .filter(|x| !keep(x))
            .copied()
            .collect();
        for x in drop {
            self.xid_start.remove(&x);
            self.xid_thread.remove(&x);
            self.xid_pdb.remove(&x);
            self.xid_user.remove(&x);
        }
    }
}
