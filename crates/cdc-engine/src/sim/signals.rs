//! Signals the simulation sends while capture runs and between its runs: execute-snapshot
//! (incremental and blocking, sometimes with a filter), pause-snapshot, resume-snapshot and
//! stop-snapshot, written to the file spool `STATE/signals/` exactly as `oracle-cdc signal
//! send` writes them. At the end every signal sent must have been handled (processed or
//! rejected, never lost) and no signal snapshot may be left unfinished.

use crate::errors::Result;
use crate::names::TableName;
use crate::offsets::Offsets;
use crate::signal::spool::{Spool, PROCESSED, REJECTED};
use crate::signal::{Action, Signal, SnapshotKind};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub struct Sender {
    state: PathBuf,
    rng: ChaCha8Rng,
    next: u32,
    /// Signals sent, by kind (for the summary).
    pub sent: BTreeMap<String, u64>,
}

impl Sender {
    pub fn new(state: &Path, rng: ChaCha8Rng) -> Sender {
        Sender {
            state: state.to_path_buf(),
            rng,
            next: 0,
            sent: BTreeMap::new(),
        }
    }

    pub fn total(&self) -> u64 {
        self.sent.values().sum()
    }

    /// With `pct` percent chance, one or two signals.
    pub fn maybe_send(&mut self, pct: u32, tables: &[TableName]) -> Result<()> {
        if self.rng.gen_range(0..100) < pct {
            for _ in 0..self.rng.gen_range(1..3) {
                self.send_random(tables)?;
            }
        }
        Ok(())
    }

    /// One signal drawn from the seed, naming some of `tables`.
    pub fn send_random(&mut self, tables: &[TableName]) -> Result<()> {
        let some_tables = |rng: &mut ChaCha8Rng, at_least_one: bool| -> Vec<TableName> {
            let mut picked: Vec<TableName> = tables
                .iter()
                .filter(|_| rng.gen_range(0..2) == 0)
                .cloned()
                .collect();
            if picked.is_empty() && at_least_one && !tables.is_empty() {
                picked.push(tables[rng.gen_range(0..tables.len())].clone());
            }
            picked
        };
        let action = match self.rng.gen_range(0..20) {
            0..=10 => {
                let tables = some_tables(&mut self.rng, true);
                let kind = if self.rng.gen_range(0..3) == 0 {
                    SnapshotKind::Blocking
                } else {
                    SnapshotKind::Incremental
                };
                // Sometimes only some rows (`additional-conditions`); SHOP.CODES has no ID.
                let mut filters = Vec::new();
                for t in tables.iter().filter(|t| t.table != "CODES") {
                    if self.rng.gen_range(0..4) == 0 {
                        filters.push((t.clone(), format!("ID > {}", self.rng.gen_range(0..60))));
                    }
                }
                Action::ExecuteSnapshot {
                    tables,
                    kind,
                    filters,
                }
            }
            11..=13 => Action::PauseSnapshot,
            14..=16 => Action::ResumeSnapshot,
            _ => Action::StopSnapshot {
                tables: if self.rng.gen_range(0..2) == 0 {
                    Vec::new()
                } else {
                    some_tables(&mut self.rng, true)
                },
            },
        };
        self.send(action)
    }

    /// A resume-snapshot (before the final run, so nothing stays paused).
    pub fn resume(&mut self) -> Result<()> {
        self.send(Action::ResumeSnapshot)
    }

    fn send(&mut self, action: Action) -> Result<()> {
        self.next += 1;
        // Ids in sending order: files of one millisecond sort by id.
        let signal = Signal {
            id: format!("sim-{:05}", self.next),
            action,
            patterns: Default::default(),
        };
        let kind = match &signal.action {
            Action::ExecuteSnapshot { kind, filters, .. } => format!(
                "execute-snapshot {}{}",
                kind.as_str(),
                if filters.is_empty() { "" } else { " filtered" }
            ),
            _ => signal.type_name().to_string(),
        };
        *self.sent.entry(kind).or_default() += 1;
        Spool::new(&self.state).send(&signal)?;
        Ok(())
    }
}

fn files(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
                .count() as u64
        })
        .unwrap_or(0)
}

/// Whether the offsets hold a snapshot that has not run yet and is not paused.
pub fn snapshot_stored(state: &Path) -> bool {
    match Offsets::load(&state.join("offsets.json")) {
        Ok(Some(o)) => {
            o.signals.iter().any(|g| !g.paused)
                || o.snapshot
                    .as_ref()
                    .is_some_and(|s| !s.completed && !s.paused)
        }
        _ => false,
    }
}

/// After the final run: how many signal files were processed and rejected, and what is wrong
/// (a signal left in the spool or lost, a snapshot left unfinished).
pub fn check_end(state: &Path, sent: u64) -> (u64, u64, Vec<String>) {
    let spool = Spool::new(state);
    let waiting = files(&spool.dir);
    let processed = files(&spool.dir.join(PROCESSED));
    let rejected = files(&spool.dir.join(REJECTED));
    let mut v = Vec::new();
    if waiting > 0 {
        v.push(format!(
            "signals: {waiting} signal file(s) still wait in the spool after the final run"
        ));
    }
    if processed + rejected + waiting != sent {
        v.push(format!(
            "signals: {sent} sent, but {processed} processed and {rejected} rejected: a signal was lost"
        ));
    }
    match Offsets::load(&state.join("offsets.json")) {
        Ok(Some(o)) => {
            if let Some(g) = o.signals.first() {
                v.push(format!(
                    "signals: signal snapshot {} of {:?} is unfinished after the final run (paused: {})",
                    g.id, g.tables, g.paused
                ));
            }
            if o.snapshot.as_ref().is_some_and(|s| !s.completed) {
                v.push("signals: the initial snapshot is unfinished after the final run".into());
            }
        }
        Ok(None) => {}
        Err(e) => v.push(format!("invariant 6 (offsets): unreadable at the end: {e}")),
    }
    (processed, rejected, v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn sender(dir: &Path) -> Sender {
        Sender::new(dir, ChaCha8Rng::seed_from_u64(7))
    }

    #[test]
    fn a_signal_left_in_the_spool_or_lost_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = sender(dir.path());
        let tables: Vec<TableName> = vec!["SHOP.ACCOUNTS".parse().unwrap()];
        for _ in 0..3 {
            s.send_random(&tables).unwrap();
        }
        assert_eq!(s.total(), 3);
        // Nothing took them: all three still wait.
        let (processed, rejected, wrong) = check_end(dir.path(), s.total());
        assert_eq!((processed, rejected), (0, 0));
        assert!(wrong
            .iter()
            .any(|w| w.contains("3 signal file(s) still wait")));
        // Taken: one processed, one rejected, one gone without trace.
        let spool = Spool::new(dir.path());
        let pending = spool.pending().unwrap();
        spool
            .finish(&pending[0], crate::signal::spool::Outcome::Processed)
            .unwrap();
        spool
            .finish(&pending[1], crate::signal::spool::Outcome::Rejected)
            .unwrap();
        std::fs::remove_file(&pending[2].path).unwrap();
        let (processed, rejected, wrong) = check_end(dir.path(), s.total());
        assert_eq!((processed, rejected), (1, 1));
        assert_eq!(wrong.len(), 1, "{wrong:?}");
        assert!(wrong[0].contains("a signal was lost"), "{wrong:?}");
        // Every one handled: nothing to report.
        let (_, _, wrong) = check_end(dir.path(), 2);
        assert!(wrong.is_empty(), "{wrong:?}");
    }

    #[test]
    fn signals_are_what_signal_send_writes() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = sender(dir.path());
        let tables: Vec<TableName> = vec![
            "SHOP.ACCOUNTS".parse().unwrap(),
            "SHOP.ORDERS".parse().unwrap(),
        ];
        for _ in 0..40 {
            s.send_random(&tables).unwrap();
        }
        let pending = Spool::new(dir.path()).pending().unwrap();
        assert_eq!(pending.len(), 40);
        // Every file parses back as a signal, in the order sent.
        let ids: Vec<String> = pending
            .iter()
            .map(|p| p.signal.as_ref().map(|s| s.id.clone()).unwrap())
            .collect();
        let mut sorted = ids.clone();
        sorted.sort();
        assert_eq!(ids, sorted);
        assert!(s.sent.len() >= 4, "{:?}", s.sent);
    }
}
