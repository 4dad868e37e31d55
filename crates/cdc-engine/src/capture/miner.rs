//! Capture's miner: the mining session and everything about keeping it (reconnects with their
//! backoff, a transient failure mined again), the mining filter, the wait for minable redo,
//! the LogMiner dictionary builds at log switches, and one window's rows, kept whole (on disk
//! past a quarter of the buffer's memory) until the window is mined to its end. It neither
//! decodes nor publishes: the transaction pipeline takes the window's rows.

use super::status::{State, Status};
use crate::crashpoint::Point;
use crate::errors::{CdcError, Result};
use crate::settings::Settings;
use crate::source::sleep_unless_stopped;
use crate::stream::buffer::row_bytes;
use crate::stream::spill::{SpillFile, SpillReader};
use cdc_core::model::{LogMinerRow, Scn};
use cdc_core::session::prelude::*;
use std::path::PathBuf;

mod dictionary;

/// How many times in a row one window is mined again after a transient failure
/// ([`crate::source::is_transient_call`]), or one call made again after a lost connection.
const MINE_RETRIES: u32 = 10;

/// The miner's session, or, after a reconnect that failed, a lost connection.
fn held(session: &mut Option<Box<dyn Session>>) -> Result<&mut dyn Session> {
    match session {
        Some(s) => Ok(s.as_mut()),
        None => Err(CdcError::ConnectionLost(
            "no session to the database: the last reconnect failed".to_string(),
        )),
    }
}

/// What the miner has done this run, for the metrics.
#[derive(Debug, Default, Clone, Copy)]
pub struct MiningStats {
    /// The current SCN as last asked.
    pub current: Scn,
    pub mine_seconds: f64,
    /// The last window mined, and how many were.
    pub window: (Scn, Scn),
    pub windows: u64,
    /// Rows LogMiner returned (against the pipeline's rows captured: the filter at work).
    pub rows_mined: u64,
    /// LogMiner dictionary builds made this run.
    pub dictionary_builds: u64,
}

/// One mined window's rows in LogMiner's order: those spooled to disk first, then those in
/// memory.
pub struct WindowRows {
    spooled: Option<SpillReader>,
    rows: Vec<LogMinerRow>,
    /// Rows the window mined, spooled ones too.
    count: u64,
}

impl WindowRows {
    pub fn count(&self) -> u64 {
        self.count
    }

    pub fn into_rows(self) -> impl Iterator<Item = Result<LogMinerRow>> {
        self.spooled
            .into_iter()
            .flatten()
            .chain(self.rows.into_iter().map(Ok))
    }
}

pub struct Miner<'a> {
    connector: &'a dyn Connector,
    /// Asked while waiting for a mining database's redo or a backoff: a stop ends the wait.
    stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    settings: &'a Settings,
    /// None between giving up a session and a new one's login (see [`Miner::retry_after`]).
    session: Option<Box<dyn Session>>,
    /// The mining query's WHERE clause (see `capture::filter`).
    filter: cdc_core::filter::MiningFilter,
    /// Where a window's rows past a quarter of the buffer's memory wait.
    spill_dir: PathBuf,
    spool_seq: u64,
    /// The database host's UTC offset (seconds) and when it was asked: LogMiner's commit
    /// times are DATEs of the host's clock. Asked again after a minute (DST changes).
    host_offset: Option<(i32, std::time::Instant)>,
    /// LogMiner dictionary builds at log switches (`cdc.mining.dictionary.build`).
    dictionary: dictionary::DictionaryBuilds,
    status: Status,
    stats: MiningStats,
}

impl<'a> Miner<'a> {
    /// Connects (retrying as `cdc.database.reconnect.*` says, until `stop` says to stop: it
    /// also ends the waits for the mining database's redo and the backoffs).
    pub fn new(
        connector: &'a dyn Connector,
        settings: &'a Settings,
        cdb: bool,
        spill_dir: PathBuf,
        status: Status,
        stop: Option<crate::source::Stop<'a>>,
    ) -> Result<Miner<'a>> {
        let filter = super::filter::mining_filter(settings, cdb);
        tracing::debug!(?filter, "mining filter");
        let login = crate::source::Login::First;
        Ok(Miner {
            connector,
            stop,
            settings,
            session: Some(crate::source::login_unless_stopped(
                connector,
                &settings.connect,
                login,
                stop,
            )?),
            filter,
            spill_dir,
            spool_seq: 0,
            host_offset: None,
            dictionary: dictionary::DictionaryBuilds::default(),
            status,
            stats: MiningStats::default(),
        })
    }

    pub fn stats(&self) -> MiningStats {
        MiningStats {
            dictionary_builds: self.dictionary.made,
            ..self.stats
        }
    }

    /// The session's catalog role: the data dictionary the pipeline reads at a DDL.
    pub fn data_dictionary(&mut self) -> Result<&mut dyn cdc_core::session::Catalog> {
        Ok(self.session()?)
    }

    /// The session, or, after a reconnect that failed, a lost connection (the next
    /// [`Miner::on_session`] call logs in again).
    fn session(&mut self) -> Result<&mut dyn Session> {
        held(&mut self.session)
    }

    /// A new session in place of a failed one: transient connect failures retried for
    /// cdc.database.reconnect.max.ms (a database restarting), each wait cut short by a stop;
    /// after a `lost` connection the session limit too (the database may count the lost
    /// session until it notices it gone). Told to stop meanwhile, it gives up:
    /// [`CdcError::StoppedReconnecting`], a clean stop.
    fn reconnect(&self, lost: bool) -> Result<Box<dyn Session>> {
        let login = match lost {
            true => crate::source::Login::ReplacingLost,
            false => crate::source::Login::Again,
        };
        crate::source::login_unless_stopped(
            self.connector,
            &self.settings.connect,
            login,
            self.stop,
        )
    }

    /// After the transient failure `e` of `operation` (retry number `attempt`): counted and
    /// announced (metric, ops event `source-retry`), then the backoff waited and, where the
    /// session may be gone, a new one opened. Nothing from the failed call was published.
    fn retry_after(&mut self, e: &CdcError, operation: &str, attempt: u32) -> Result<()> {
        let wait = crate::source::backoff(&self.settings.connect, attempt);
        let cause = crate::source::retry_cause(e);
        let message = e.to_string();
        self.status.source_retry(&super::status::SourceRetry {
            cause: &cause,
            code: e.code().info().code,
            operation,
            attempt,
            wait_ms: wait.as_millis() as u64,
            message: &message,
        })?;
        self.status.doing(format!("retrying {operation} ({cause})"));
        // The failed session is given up before the wait, not after the new one's login: its
        // slot counts towards the user's SESSIONS_PER_USER (a login past it is ORA-02391) and
        // its memory towards PGA_AGGREGATE_LIMIT (ORA-04036) until it ends.
        self.session = None;
        sleep_unless_stopped(wait, self.stop);
        // A new session also for log errors: its LogMiner session starts on the log list as
        // it is now.
        let lost = matches!(e, CdcError::ConnectionLost(_));
        self.session = Some(self.reconnect(lost)?);
        Ok(())
    }

    /// Run `call` on the session; a lost connection is reconnected (with the backoff and
    /// cdc.database.reconnect.max.ms) and the call made again, up to MINE_RETRIES times in a
    /// row, as a mining window is.
    fn on_session<T>(&mut self, call: impl Fn(&mut dyn Session) -> Result<T>) -> Result<T> {
        let mut lost = 0;
        loop {
            match self.session().and_then(&call) {
                Err(e @ CdcError::ConnectionLost(_)) if lost < MINE_RETRIES => {
                    lost += 1;
                    self.retry_after(&e, "a call on the database", lost)?;
                }
                other => return other,
            }
        }
    }

    /// The database's current SCN, asked once: for the metrics a run ends with, which must not
    /// hold up its end (a stop asked for while the database is gone would otherwise wait out
    /// cdc.database.reconnect.max.ms in [`Miner::current_scn`]'s reconnects).
    pub fn current_scn_once(&mut self) -> Result<Scn> {
        let scn = self.session()?.current_scn()?;
        self.stats.current = scn;
        Ok(scn)
    }

    /// The database's current SCN.
    pub fn current_scn(&mut self) -> Result<Scn> {
        let scn = self.on_session(|s| s.current_scn())?;
        self.stats.current = scn;
        Ok(scn)
    }

    /// The highest SCN a window starting at `from` may end at: before what LGWR has not
    /// written yet on some open thread (V$THREAD), on a downstream mining database no
    /// further than the redo shipped there, and on a standby no further than its archived
    /// logs. A window ending at CURRENT_SCN could miss redo
    /// still in a log buffer, and the next window would start past it.
    pub fn mining_limit(&mut self, from: Scn) -> Result<Option<Scn>> {
        self.on_session(|s| s.mining_limit(from))
    }

    /// After [`Miner::mining_limit`]: the SCN everything committed is known to be written
    /// through on a database gone quiet, one past that limit (`Session::quiet_through`).
    pub fn quiet_through(&mut self) -> Result<Option<Scn>> {
        self.on_session(|s| Ok(s.quiet_through()))
    }

    /// The database host's offset from UTC in seconds, asked at most once a minute (unknown:
    /// UTC).
    pub fn host_offset_secs(&mut self) -> Result<i32> {
        if let Some((secs, at)) = self.host_offset {
            if at.elapsed() < std::time::Duration::from_secs(60) {
                return Ok(secs);
            }
        }
        let secs = self.on_session(|s| s.host_utc_offset())?.unwrap_or(0);
        self.host_offset = Some((secs, std::time::Instant::now()));
        Ok(secs)
    }

    /// Wait until the redo up to `end` is minable from `from` (written by LGWR; on a
    /// downstream, shipped there), announced once as the `waiting-for-redo` state. A stop ends
    /// the wait with [`CdcError::StoppedWaitingForRedo`].
    pub fn wait_minable(&mut self, from: Scn, end: Scn) -> Result<()> {
        let mut announced = false;
        while let Some(limit) = self.mining_limit(from)?.filter(|l| *l < end) {
            if !announced {
                tracing::info!(
                    "waiting for redo: LogMiner can see redo up to SCN {limit}, SCN {end} is needed"
                );
                self.status.set_with(
                    State::WaitingForRedo,
                    None,
                    None,
                    Some("the redo up to the chunks' SCN is not minable yet (not written by LGWR on every open thread, not shipped to the mining database, or on a standby not in an archived log yet)"),
                )?;
                announced = true;
            }
            if self.stop.is_some_and(|stop| stop()) {
                return Err(CdcError::StoppedWaitingForRedo {
                    needed: end,
                    have: limit,
                });
            }
            crate::crashpoint::hit(Point::PublisherWaitingForRedo)?;
            std::thread::sleep(std::time::Duration::from_millis(
                self.settings.stream.poll_ms.max(1),
            ));
        }
        Ok(())
    }

    /// The first SCN of the oldest log mining can still add; `None` when there is none or the
    /// list cannot be read (a per-PDB session may not see the log views: mining then finds
    /// out, with CDC-5004, when it asks for what is gone).
    pub fn oldest_log_scn(&mut self) -> Result<Option<Scn>> {
        Ok(oldest_log_scn(held(&mut self.session)?.logs()))
    }

    /// Mine the window `from..=to` whole. Its rows wait until the window is mined to its end:
    /// a transient failure (a lost connection) mines it again from its start on a new
    /// session, up to MINE_RETRIES times in a row, so nothing of a failed try is handed on.
    /// Beyond a quarter of the buffer's memory they wait on disk.
    pub fn mine_window(&mut self, from: Scn, to: Scn) -> Result<WindowRows> {
        let mut retries = 0u32;
        loop {
            let spool_limit = (self.settings.stream.buffer_memory_bytes / 4).max(1);
            let mut rows = Vec::new();
            let mut bytes = 0u64;
            let mut spool: Option<SpillFile> = None;
            self.spool_seq += 1;
            let spool_path = self
                .spill_dir
                .join(format!("window-{}-{from}.spill", self.spool_seq));
            let mine_started = std::time::Instant::now();
            let mut mined_rows = 0u64;
            let mined = held(&mut self.session)?.mine(from, to, &self.filter, &mut |r| {
                mined_rows += 1;
                bytes += row_bytes(&r);
                rows.push(r);
                if bytes > spool_limit {
                    if spool.is_none() {
                        spool = Some(SpillFile::create(spool_path.clone())?);
                    }
                    if let Some(f) = spool.as_mut() {
                        f.append(rows.iter())?;
                    }
                    rows.clear();
                    bytes = 0;
                }
                Ok(())
            });
            match mined {
                // A new session mines the same window again (on the log list as it is now).
                Err(e) if retries < MINE_RETRIES && crate::source::is_transient_call(&e) => {
                    retries += 1;
                    self.retry_after(&e, &format!("mining SCN {from} to {to}"), retries)?;
                    continue;
                }
                other => other?,
            }
            self.stats.rows_mined += mined_rows;
            self.stats.mine_seconds += mine_started.elapsed().as_secs_f64();
            self.stats.window = (from, to);
            self.stats.windows += 1;
            let spooled = spool.map(SpillFile::into_reader).transpose()?;
            return Ok(WindowRows {
                spooled,
                rows,
                count: mined_rows,
            });
        }
    }
}

/// The first SCN of the oldest log in `logs`; `None` when there is none or the list could not be
/// read (a per-PDB session may not see the log views).
pub fn oldest_log_scn(logs: Result<Vec<cdc_core::model::LogFile>>) -> Option<Scn> {
    match logs {
        Ok(logs) => logs.iter().map(|l| l.first_scn).min(),
        Err(e) => {
            tracing::debug!("the log list could not be read ({e}): no lower bound known");
            None
        }
    }
}

#[cfg(test)]
mod tests;
