//! LogMiner dictionary builds at log switches (`cdc.mining.dictionary.build=log_switch`, with
//! `cdc.mining.dictionary=redo_logs`). With DICT_FROM_REDO_LOGS + DDL_DICT_TRACKING LogMiner
//! reads every log from the newest build whole before a window; without new builds that span
//! grows with every log switch, and a purged log inside it stops the stream. A build at each
//! switch capture sees keeps it to the few logs since the build before the last (a build is
//! usable once its log is archived), as Debezium's redo_log_catalog strategy does.

use super::Miner;
use crate::errors::{CdcError, Result};
use cdc_core::model::{Dictionary, LogFile};
use std::collections::BTreeMap;

/// What capture knows of its builds this run.
#[derive(Debug, Default)]
pub(crate) struct DictionaryBuilds {
    /// Each thread's current log sequence when the newest build was made or found up to
    /// date; a different one means a log switch since.
    seen: Option<BTreeMap<u32, u64>>,
    /// Off for the run: a build failed for a reason that stays (a missing grant, a standby).
    off: bool,
    /// Builds made this run.
    pub made: u64,
}

/// Each thread's current (online, not yet switched) log sequence.
fn current_sequences(logs: &[LogFile]) -> BTreeMap<u32, u64> {
    let mut out = BTreeMap::new();
    for l in logs.iter().filter(|l| l.next_scn.is_none() && !l.archived) {
        let e = out.entry(l.thread).or_insert(l.sequence);
        *e = (*e).max(l.sequence);
    }
    out
}

/// A failure that a later try may not meet: the writer busy (the emulator's one writer), the
/// connection lost (the next call reconnects).
fn passes(e: &CdcError) -> bool {
    matches!(
        e,
        CdcError::EmulatorBusy { .. } | CdcError::ConnectionLost(_)
    )
}

impl Miner<'_> {
    /// Build a dictionary into the redo when a log switch happened since the newest build
    /// (capture's own, or at the first look the newest archived one): before each round of
    /// mining windows.
    pub fn build_dictionary_at_switch(&mut self) -> Result<()> {
        let s = self.settings;
        if s.mining_dictionary != Dictionary::RedoLogs
            || !s.dictionary_build_at_switch
            || s.read_only
            || self.dictionary.off
        {
            return Ok(());
        }
        let logs = self.on_session(|s| s.logs())?;
        let now = current_sequences(&logs);
        if now.is_empty() {
            return Ok(());
        }
        match &self.dictionary.seen {
            Some(seen) if *seen == now => return Ok(()),
            Some(_) => {}
            None => {
                // At the first look: a build in the newest archived log of its thread is as
                // recent as one can be.
                let builds = self.on_session(|s| s.dictionary_builds())?;
                let fresh = builds.iter().any(|b| {
                    now.get(&b.thread)
                        .is_some_and(|cur| b.end_sequence + 1 >= *cur)
                });
                if fresh {
                    self.dictionary.seen = Some(now);
                    return Ok(());
                }
            }
        }
        match self.session()?.build_dictionary() {
            Ok(()) => {
                self.dictionary.made += 1;
                tracing::info!(
                    "built a LogMiner dictionary into the redo (log sequences now {now:?}): windows after its log is archived read from it"
                );
                self.status.emit(
                    "dictionary-built",
                    serde_json::json!({
                        "sequences": now.iter().map(|(t, q)| serde_json::json!({"thread": t, "sequence": q})).collect::<Vec<_>>(),
                        "builds": self.dictionary.made,
                    }),
                )?;
                self.dictionary.seen = Some(now);
            }
            Err(e) if passes(&e) => {
                tracing::debug!("no dictionary build this round ({e}); trying at the next");
            }
            // DDL holds the dictionary (ORA-01327): a build every round until it lets go
            // would hammer it; the next log switch tries again, windows meanwhile reading from
            // the newest build there is.
            Err(e @ CdcError::DictionaryLocked(_)) => {
                tracing::info!(
                    "no LogMiner dictionary build at this log switch ({e}); trying at the next"
                );
                self.status.emit(
                    "dictionary-build-deferred",
                    serde_json::json!({
                        "code": e.code().info().code,
                        "sequences": now.iter().map(|(t, q)| serde_json::json!({"thread": t, "sequence": q})).collect::<Vec<_>>(),
                        "message": crate::errors::shown(&e.to_string(), 500),
                    }),
                )?;
                self.dictionary.seen = Some(now);
            }
            Err(e) => {
                self.dictionary.off = true;
                tracing::warn!(
                    "building a LogMiner dictionary into the redo failed ({e}); capture makes no more builds this run, so every window reads all logs from the newest build there is (cdc.mining.dictionary.build)"
                );
                self.status.emit(
                    "dictionary-build-failed",
                    serde_json::json!({"code": e.code().info().code, "message": crate::errors::shown(&e.to_string(), 500)}),
                )?;
            }
        }
        Ok(())
    }
}
