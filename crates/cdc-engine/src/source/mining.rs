//! Downstream capture: mining on one database, everything else on another.
//!
//! With `cdc.mining.database.url` set, a [`DownstreamConnector`] opens sessions whose log list
//! and LogMiner calls (`logs`, `mine`, `mining_limit`) go to the mining (downstream) database,
//! while SCNs, the catalog, open transactions and snapshot reads go to the source
//! (`cdc.database.url`, the primary or its standby). The mining connection is opened on first
//! use, and then refused unless its redo is the source's (same DBID: CDC-2202).

use super::model::*;
use super::{Admin, Catalog, Connector, Flashback, Miner, Session};
use crate::errors::{CdcError, Result};
use std::sync::Arc;

pub struct DownstreamConnector {
    source: Box<dyn Connector>,
    mining: Arc<dyn Connector>,
    /// Kept by the connector, shared by its sessions: a reconnect does not restart the wait.
    gaps: Arc<GapWatch>,
}

/// How long a gap in redo transport has held capture ([`cdc_core::threads::ShippingGap`]):
/// waited for up to `timeout` (Oracle's gap resolution may fetch the log), then CDC-5201
/// instead of a silent wait at the gap.
pub struct GapWatch {
    timeout: std::time::Duration,
    seen: std::sync::Mutex<Option<(u32, u64, std::time::Instant)>>,
}

impl GapWatch {
    pub fn new(timeout: std::time::Duration) -> GapWatch {
        GapWatch {
            timeout,
            seen: std::sync::Mutex::new(None),
        }
    }

    /// Whether a gap holds mining back (the source wrote past the redo received before it), and
    /// if it has for longer than the timeout, the error that says so.
    fn check(&self, logs: &[LogFile], written: Scn, mining: &str, from: Scn) -> Result<()> {
        let holding = cdc_core::threads::shipping_gaps(logs, from)
            .into_iter()
            .filter(|g| g.received_to < written)
            .min_by_key(|g| g.received_to);
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        let Some(gap) = holding else {
            *seen = None;
            return Ok(());
        };
        let since = match *seen {
            Some((thread, missing, since)) if (thread, missing) == (gap.thread, gap.missing) => {
                since
            }
            _ => {
                tracing::warn!(
                    target: crate::ops::STALL_LOG_TARGET,
                    "{mining} has not received sequence {} of redo thread {} but holds later ones (a gap in redo transport): mining waits at SCN {}; capture stops with CDC-5201 if the gap stays {} ms (cdc.mining.gap.timeout.ms)",
                    gap.missing,
                    gap.thread,
                    gap.received_to + 1,
                    self.timeout.as_millis()
                );
                let now = std::time::Instant::now();
                *seen = Some((gap.thread, gap.missing, now));
                now
            }
        };
        if since.elapsed() < self.timeout {
            return Ok(());
        }
        Err(CdcError::MiningLogMissing {
            mining: mining.to_string(),
            scn: gap.received_to + 1,
            sequence: Some((gap.thread, gap.missing)),
            oldest: logs.iter().map(|l| l.first_scn).min(),
        })
    }
}

impl DownstreamConnector {
    pub fn new(
        source: Box<dyn Connector>,
        mining: Box<dyn Connector>,
        gap_timeout: std::time::Duration,
    ) -> Self {
        DownstreamConnector {
            source,
            mining: Arc::from(mining),
            gaps: Arc::new(GapWatch::new(gap_timeout)),
        }
    }

    /// The mining database, for `doctor`.
    pub fn mining(&self) -> &dyn Connector {
        &*self.mining
    }
}

impl Connector for DownstreamConnector {
    fn connect(&self) -> Result<Box<dyn Session>> {
        Ok(Box::new(DownstreamSession {
            source: self.source.connect()?,
            source_name: self.source.describe(),
            mining_connector: self.mining.clone(),
            mining: None,
            source_redo: None,
            gaps: self.gaps.clone(),
            source_standby: None,
        }))
    }

    fn describe(&self) -> String {
        format!(
            "{} (mining on {})",
            self.source.describe(),
            self.mining.describe()
        )
    }
}

/// The DBIDs of the redo a mining database holds that are not `source_dbid`. A log whose
/// DBID the database does not report (`None`) is not judged.
pub fn foreign_dbids(logs: &[LogFile], source_dbid: u64) -> Vec<u64> {
    let mut out: Vec<u64> = logs
        .iter()
        .filter_map(|l| l.dbid)
        .filter(|d| *d != source_dbid)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The source's logs of its current incarnation among those a mining database received, or
/// why there are none: logs only of other databases (CDC-2202; a downstream may receive
/// several sources' redo, GoldenGate's downstream configuration allows one real-time and
/// more archived-log sources), or the source's only of another incarnation (CDC-2205). A
/// database that received nothing yet passes (a window needing redo then fails with CDC-5201).
pub fn received_from(
    mut logs: Vec<LogFile>,
    source: RedoSource,
    mining: &str,
    source_url: &str,
) -> Result<Vec<LogFile>> {
    inherit_incarnation(&mut logs);
    let others = foreign_dbids(&logs, source.dbid);
    let theirs: Vec<LogFile> = logs
        .into_iter()
        .filter(|l| l.dbid.is_none_or(|d| d == source.dbid))
        .collect();
    if theirs.is_empty() {
        if let Some(other) = others.first() {
            return Err(CdcError::MiningOtherDatabase {
                mining: mining.to_string(),
                mining_dbid: *other,
                source_url: source_url.to_string(),
                source_dbid: source.dbid,
            });
        }
    }
    let mut found: Vec<u64> = theirs.iter().filter_map(|l| l.resetlogs_scn).collect();
    found.sort_unstable();
    found.dedup();
    let current: Vec<LogFile> = theirs.into_iter().filter(|l| source.holds(l)).collect();
    if current.is_empty() && !found.is_empty() {
        return Err(CdcError::MiningOtherIncarnation {
            mining: mining.to_string(),
            dbid: source.dbid,
            source_resetlogs: source.resetlogs_scn,
            found,
        });
    }
    Ok(current)
}

/// V$STANDBY_LOG says no incarnation: a standby redo log continues its thread's received
/// archives, so it takes the RESETLOGS_CHANGE# of the newest foreign archived log of the same
/// database and thread before it (a RESETLOGS restarts sequences at 1, so the log just before
/// in sequence is of the same incarnation). With none before it, it stays unknown.
pub fn inherit_incarnation(logs: &mut [LogFile]) {
    let known: Vec<(Option<u64>, u32, u64, Scn)> = logs
        .iter()
        .filter_map(|l| l.resetlogs_scn.map(|r| (l.dbid, l.thread, l.sequence, r)))
        .collect();
    for l in logs.iter_mut().filter(|l| l.resetlogs_scn.is_none()) {
        l.resetlogs_scn = known
            .iter()
            .filter(|(d, t, seq, _)| *d == l.dbid && *t == l.thread && *seq < l.sequence)
            .max_by_key(|(_, _, seq, _)| *seq)
            .map(|(_, _, _, r)| *r);
    }
}

struct DownstreamSession {
    source: Box<dyn Session>,
    source_name: String,
    mining_connector: Arc<dyn Connector>,
    mining: Option<Box<dyn Session>>,
    /// The source's identity, once the mining session was checked against it.
    source_redo: Option<RedoSource>,
    gaps: Arc<GapWatch>,
    /// Whether the source (`cdc.database.url`) is a standby, once asked.
    source_standby: Option<bool>,
}

impl DownstreamSession {
    /// The mining session, connected (told whose redo to mine, and checked to hold it) on
    /// first use.
    fn mining(&mut self) -> Result<&mut Box<dyn Session>> {
        if self.mining.is_none() {
            let mut m = self.mining_connector.connect()?;
            let source = RedoSource::of(&self.source.database()?);
            m.mine_redo_of(source)?;
            received_from(
                m.logs()?,
                source,
                &self.mining_connector.describe(),
                &self.source_name,
            )?;
            self.source_redo = Some(source);
            self.mining = Some(m);
        }
        match self.mining.as_mut() {
            Some(m) => Ok(m),
            None => Err(CdcError::Database("mining session not connected".into())),
        }
    }

    /// A lost mining connection is opened again on next use.
    fn on_mining<T>(&mut self, f: impl FnOnce(&mut dyn Session) -> Result<T>) -> Result<T> {
        let describe = self.mining_connector.describe();
        let m = self.mining()?;
        let out = f(&mut **m);
        match out {
            Err(CdcError::ConnectionLost(e)) => {
                self.mining = None;
                Err(CdcError::ConnectionLost(e))
            }
            // ORA-01291 on the mining database: it lacks a log the window needs.
            Err(CdcError::MissingLogFile { scn, oldest }) => Err(CdcError::MiningLogMissing {
                mining: describe,
                scn,
                sequence: None,
                oldest: Some(oldest),
            }),
            // A thread's logs not all received: a gap in redo transport.
            Err(CdcError::ThreadLogsMissing {
                thread,
                scn,
                reason,
            }) => Err(CdcError::MiningLogMissing {
                mining: format!("{describe} (thread {thread}: {reason})"),
                scn,
                sequence: None,
                oldest: None,
            }),
            other => other,
        }
    }
}

// The catalog, flashback reads and the signal insert are the source database's, whole (the
// redo, and so LogMiner's TIMESTAMP columns, carries the source host's clock too); only mining
// is the mining database's.
impl Catalog for DownstreamSession {
    cdc_core::forward_catalog!(source);
}

impl Flashback for DownstreamSession {
    // Not the source's stream_read_scn (the macro leaves it out): the stream mines the redo
    // the downstream received, which the source's own bound (a standby's archived logs) says
    // nothing of. Waves are read at the source's current SCN and wait for the redo to be
    // shipped.
    cdc_core::forward_flashback!(source);
}

impl Miner for DownstreamSession {
    fn open_transactions(&mut self) -> Result<Vec<OpenTransaction>> {
        self.source.open_transactions()
    }

    /// The source's logs (of its current incarnation) the mining database received.
    fn logs(&mut self) -> Result<Vec<LogFile>> {
        let mut logs = self.on_mining(|m| m.logs())?;
        inherit_incarnation(&mut logs);
        match self.source_redo {
            Some(source) => Ok(logs.into_iter().filter(|l| source.holds(l)).collect()),
            None => Ok(logs),
        }
    }

    fn redo_threads(&mut self) -> Result<Vec<RedoThread>> {
        self.source.redo_threads()
    }

    fn dictionary_builds(&mut self) -> Result<Vec<DictionaryBuild>> {
        self.on_mining(|m| m.dictionary_builds())
    }

    /// On the source: the redo (and so the build) is generated there and shipped.
    fn build_dictionary(&mut self) -> Result<()> {
        self.source.build_dictionary()
    }

    /// Both limits: what the source's LGWR has written (real-time shipping sends only written
    /// redo, and the source's V$THREAD says how far that is, idle threads included), and the
    /// redo shipped to the mining database, read in that order. A source thread that received
    /// all its LGWR wrote does not hold the shipped end back (`threads::shipped_end_for`): an
    /// idle RAC instance's standby redo log stands still. A source that does not cap (a
    /// standby, whose V$THREAD is its primary's as last seen) leaves the mining database's own
    /// end.
    fn mining_limit(&mut self, from: Scn) -> Result<Option<Scn>> {
        // A standby source's own bound is where its archived logs end, which is what LogMiner
        // there would be given; the redo mined here is what the downstream received, so that
        // bound says nothing of it.
        let standby = match self.source_standby {
            Some(s) => s,
            None => {
                let s = self.source.database()?.role != DatabaseRole::Primary;
                self.source_standby = Some(s);
                s
            }
        };
        let written = match standby {
            true => None,
            false => self.source.mining_limit(from)?,
        };
        let Some(written) = written else {
            return self.on_mining(|m| m.mining_limit(from));
        };
        let threads = self.source.redo_threads()?;
        let logs = self.logs()?;
        self.gaps
            .check(&logs, written, &self.mining_connector.describe(), from)?;
        Ok(Some(
            cdc_core::threads::shipped_end_for(&logs, &threads, from)
                .map_or(written, |shipped| shipped.min(written)),
        ))
    }

    /// Every source thread's logs must have been received from the window on (the source's
    /// V$THREAD against the received logs, CDC-5203 as CDC-5201: a gap in transport), then
    /// LogMiner on the mining database.
    fn mine(
        &mut self,
        start: Scn,
        end: Scn,
        filter: &cdc_core::filter::MiningFilter,
        row: &mut dyn FnMut(LogMinerRow) -> Result<()>,
    ) -> Result<()> {
        let threads = self.source.redo_threads()?;
        let logs = self.logs()?;
        self.on_mining(|_| {
            if logs.is_empty() {
                // LogMiner's own ORA-01291 says it.
                return Ok(());
            }
            cdc_core::threads::check_thread_logs(&threads, &logs, start)
        })?;
        self.on_mining(|m| m.mine(start, end, filter, row))
    }
}

impl Admin for DownstreamSession {
    cdc_core::forward_admin!(source);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gap_is_waited_for_then_an_error_and_forgotten_once_filled() {
        let l = |sequence: u64| LogFile {
            name: format!("t1_{sequence}"),
            thread: 1,
            sequence,
            first_scn: sequence * 100,
            next_scn: Some(sequence * 100 + 100),
            ..log(1, sequence, None, true)
        };
        let gap = vec![l(1), l(3)];
        let filled = vec![l(1), l(2), l(3)];
        // Waited for while it lasts less than the timeout.
        let w = GapWatch::new(std::time::Duration::from_secs(3600));
        assert!(w.check(&gap, 500, "ds", 0).is_ok());
        assert!(w.check(&gap, 500, "ds", 0).is_ok());
        // Redo not yet written past it: not holding anything.
        assert!(GapWatch::new(std::time::Duration::ZERO)
            .check(&gap, 150, "ds", 0)
            .is_ok());
        // Past the timeout: CDC-5201 with the thread, the sequence and where mining waits.
        let w = GapWatch::new(std::time::Duration::ZERO);
        let e = w.check(&gap, 500, "ds", 0).unwrap_err();
        assert_eq!(e.code(), crate::errors::Code::Cdc5201);
        assert!(e.to_string().contains("thread 1 sequence 2"), "{e}");
        assert!(e.to_string().contains("mining from SCN 200"), "{e}");
        // Filled: forgotten.
        assert!(w.check(&filled, 500, "ds", 0).is_ok());
        assert!(w.seen.lock().unwrap().is_none());
    }

    fn log(thread: u32, sequence: u64, resetlogs: Option<Scn>, archived: bool) -> LogFile {
        LogFile {
            name: format!("t{thread}_{sequence}"),
            thread,
            sequence,
            first_scn: sequence * 100,
            next_scn: archived.then_some(sequence * 100 + 100),
            archived,
            dbid: Some(7),
            resetlogs_scn: resetlogs,
            ..LogFile::default()
        }
    }

    #[test]
    fn a_standby_redo_log_is_of_its_threads_received_incarnation() {
        // Thread 1 was received from the incarnation at SCN 500 (a clone, or after a
        // RESETLOGS); the standby redo log after it says nothing, and is of that incarnation
        // too, so a source of the incarnation at 1 finds none of its redo there: CDC-2205.
        let logs = vec![log(1, 1, Some(500), true), log(1, 2, None, false)];
        let source = RedoSource {
            dbid: 7,
            resetlogs_scn: 1,
        };
        let e = received_from(logs.clone(), source, "mining", "source").unwrap_err();
        assert!(matches!(e, CdcError::MiningOtherIncarnation { .. }), "{e}");
        let same = RedoSource {
            dbid: 7,
            resetlogs_scn: 500,
        };
        let kept = received_from(logs, same, "mining", "source").unwrap();
        assert_eq!(kept.len(), 2, "{kept:?}");
        // With no archive before it, a standby redo log's incarnation stays unknown.
        let mut alone = vec![log(2, 5, None, false)];
        inherit_incarnation(&mut alone);
        assert_eq!(alone[0].resetlogs_scn, None);
    }
}
