//! `capture`: the snapshot `cdc.snapshot.mode` asks for, merged in SCN order with the LogMiner
//! change stream, into the sink, with offsets that only move forward.
//!
//! Ordering: before each wave of chunks is read at SCN s, every transaction committed before s
//! is published; the chunks follow; transactions committed at or after s come after them. So a
//! consumer keeping the latest record per key converges to the tables. Chunks never wait in
//! memory for streaming (streaming catches up before a wave is read), so memory holds at most
//! one wave (`cdc.snapshot.threads` chunks, capped by `cdc.snapshot.max.pending.chunks`).

pub mod filter;
mod history;
pub use history::HISTORY_FILE;
use history::{catalog, not_streamable, save_history, table_schema};
mod miner;
mod output;
mod pipeline;
mod publisher;
pub mod sequencer;
mod window;
pub use pipeline::SPILL_DIR;
pub mod records;
mod signals;
// The status board capture keeps (and the metrics endpoint and progress read) is its own module.
pub use crate::status;
pub mod throttle;
pub mod topics;

#[cfg(test)]
mod bound_tests;
#[cfg(test)]
mod check_source_tests;
#[cfg(test)]
mod ddl_tests;
#[cfg(test)]
mod dictionary_build_tests;
#[cfg(test)]
mod session_tests;
#[cfg(test)]
mod wave_commit_tests;

use crate::crashpoint::Point;
use crate::errors::{CdcError, Code, Result};
use crate::names::TableName;
use crate::offsets::{DatabaseIdentity, Offsets, SignalSnapshot, SnapshotState, StreamPosition};
use crate::ops::OpsLog;
use crate::settings::{DatabaseUrl, NewTables, Scheme, Settings, SinkType, SnapshotMode};
use crate::signal::SnapshotKind;
use crate::snapshot::target::{resolve, Decision};
use crate::snapshot::{Outcome, Progress, Snapshot};
use crate::state::StateDir;
use cdc_core::model::Scn;
use cdc_core::session::Connector;
use publisher::Publisher;
use serde_json::json;
use signals::SignalDesk;
use status::{State, Status};
use std::sync::Arc;
use std::time::Duration;

/// How a capture run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaptureEnd {
    /// `stop` said so (Ctrl-C, SIGTERM).
    Stopped,
    /// Everything committed up to the `--stop-at-scn` SCN is published.
    ReachedScn(Scn),
}

#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct CaptureSummary {
    pub records: u64,
    pub transactions: u64,
    pub snapshot_rows: u64,
    pub position: Option<StreamPosition>,
}

pub struct Capture<'a> {
    pub connector: &'a dyn Connector,
    pub settings: &'a Settings,
    pub progress: &'a dyn Progress,
    pub stop: &'a (dyn Fn() -> bool + Sync),
    /// Stop once everything committed up to this SCN is published (scripts and tests).
    pub stop_at: Option<Scn>,
}

/// Whether `r` ended because capture was told to stop while waiting for minable redo (a clean
/// stop: what was not published is read again at the next start).
fn stopped_waiting<T>(r: Result<T>) -> Result<bool> {
    match r {
        Err(crate::errors::CdcError::StoppedWaitingForRedo { needed, have }) => {
            tracing::info!(
                "stopped while waiting for minable redo up to SCN {needed} (LogMiner can see up to SCN {have})"
            );
            Ok(true)
        }
        Err(e) => Err(e),
        Ok(_) => Ok(false),
    }
}

/// A stop that cut a Kafka wait short (a broker unreachable or not answering) is a stop: the
/// offsets name only what the broker acknowledged, and the next start sends the rest. So is a
/// stop that cut short a reconnect to a database gone away. Its
/// summary is the stored position (this run's counts went with the publisher).
fn stopped_waiting_outside(
    r: Result<(CaptureEnd, CaptureSummary)>,
    state: &StateDir,
) -> Result<(CaptureEnd, CaptureSummary)> {
    match r {
        Err(crate::errors::CdcError::StoppedWaitingForKafka { waiting }) => {
            // Told with --quiet too: the stall warnings were, and this is how they ended.
            tracing::warn!(
                target: crate::ops::STALL_LOG_TARGET,
                "stopped while waiting for the Kafka broker ({waiting}); the offsets keep what it \
                 acknowledged, and the next start sends the rest"
            );
            let position = Offsets::load(&state.offsets())?.and_then(|o| o.stream);
            Ok((
                CaptureEnd::Stopped,
                CaptureSummary {
                    position,
                    ..CaptureSummary::default()
                },
            ))
        }
        Err(crate::errors::CdcError::StoppedReconnecting { waiting }) => {
            tracing::warn!(
                target: crate::ops::STALL_LOG_TARGET,
                "stopped while reconnecting to the database ({waiting}); the offsets are as last \
                 saved, and the next start reads on from them"
            );
            let position = Offsets::load(&state.offsets())?.and_then(|o| o.stream);
            Ok((
                CaptureEnd::Stopped,
                CaptureSummary {
                    position,
                    ..CaptureSummary::default()
                },
            ))
        }
        other => other,
    }
}

/// Refuse what the source cannot do before anything is opened: a replay (`replay:DIR`) holds
/// no table data, so only `cdc.snapshot.mode=none` can run on it; a downstream mining database
/// cannot decode the source's redo with its own online catalog (CDC-5301).
pub fn check_source(s: &Settings) -> Result<()> {
    if let Some(url) = s.mining_url() {
        // A mining database that is not there is that, not a downstream of the wrong kind.
        // Other kinds of URL are checked when they are opened.
        if let Some(DatabaseUrl::Emulator { dir, .. }) =
            DatabaseUrl::parse_if(url, Scheme::Emulator)?
        {
            if !dir.is_dir() {
                return Err(crate::errors::CdcError::EmulatorNotFound {
                    path: dir,
                    reason: "no such directory (cdc.mining.database.url)".into(),
                });
            }
        }
        if s.mining_dictionary == cdc_core::model::Dictionary::OnlineCatalog
            && s.snapshot.mode != SnapshotMode::SnapshotOnly
        {
            return Err(crate::errors::CdcError::DownstreamOnlineCatalog {
                mining: url.to_string(),
            });
        }
    }
    let replay = match s.database() {
        Ok(DatabaseUrl::Replay { dir }) => Some(dir),
        // `replay:` without a directory is still a replay, refused here as one (CDC-2008) as
        // it always was; opening it would say CDC-2007.
        Err(_) if Scheme::of(s.database_url()) == Scheme::Replay => Some(std::path::PathBuf::new()),
        // Any other URL that does not parse is refused when it is opened, with its own error.
        _ => None,
    };
    if let Some(dir) = replay {
        if s.snapshot.mode != SnapshotMode::None {
            return Err(crate::errors::CdcError::ReplayHasNoData {
                source_dir: dir,
                operation: format!(
                    "take the snapshot cdc.snapshot.mode={} asks for",
                    match s.snapshot.mode {
                        SnapshotMode::Initial => "initial",
                        SnapshotMode::SnapshotOnly => "snapshot_only",
                        SnapshotMode::OnSignal => "on_signal",
                        SnapshotMode::None => "none",
                    }
                ),
            });
        }
    }
    Ok(())
}

impl Capture<'_> {
    pub fn run(&self) -> Result<(CaptureEnd, CaptureSummary)> {
        let s = self.settings;
        check_source(s)?;
        crate::localfs::set_group_readable(s.files_group_readable);
        let state = StateDir::new(&s.state_dir);
        let _lock = state.lock()?;
        let ops = Arc::new(OpsLog::to_file(&state.ops())?);
        let status = Status::new(ops.clone());
        status.set(State::Starting)?;
        // A stop is reported as soon as it is asked for, while the chunk in flight finishes; a
        // sink that blocks is reported as flow control while it blocks.
        let done = std::sync::atomic::AtomicBool::new(false);
        // The Kafka sink's waits (retries, backoffs, late answers) see the stop through this.
        let sink_stop = crate::kafka::StopFlag::default();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let mut flow = status::FlowWatch::default();
                while !done.load(std::sync::atomic::Ordering::SeqCst) {
                    if let Err(e) = flow.check(&status) {
                        tracing::warn!("capture state: {e}");
                    }
                    if let Err(e) = status.flush_state() {
                        tracing::warn!("capture state: {e}");
                    }
                    let board = status.board().clone();
                    self.progress.capture_status(&board);
                    if (self.stop)() {
                        sink_stop.store(true, std::sync::atomic::Ordering::SeqCst);
                        if let Err(e) = status.set(State::Stopping) {
                            tracing::warn!("capture state: {e}");
                        }
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
            });
            let r = self.run_locked(&state, &ops, &status, &sink_stop);
            done.store(true, std::sync::atomic::Ordering::SeqCst);
            stopped_waiting_outside(r, &state)
        })
    }

    fn run_locked(
        &self,
        state: &StateDir,
        ops: &Arc<OpsLog>,
        status: &Status,
        sink_stop: &crate::kafka::StopFlag,
    ) -> Result<(CaptureEnd, CaptureSummary)> {
        let s = self.settings;
        // A replay's export is all there is: it is decoded from its first SCN and ends there.
        let replay = matches!(s.database(), Ok(DatabaseUrl::Replay { .. }));
        if let Some(addr) = &s.stream.metrics_listen {
            let bound = crate::metrics::server::serve(addr, status.clone())?;
            tracing::info!("metrics at http://{bound}/metrics");
            ops.emit("metrics-listening", json!({"address": bound.to_string()}))?;
        }
        // Start-up reads reconnect after a dropped connection, as streaming does.
        status.doing(format!("connecting to {}", self.connector.describe()));
        let mut session = crate::source::Reconnecting::new(self.connector, &s.connect)
            .observed(|e, attempt| catalog_retry(status, e, attempt))
            .stopped_by(self.stop);
        let db = session.call(|s| s.database())?;
        if let Ok(Some(w)) = session.call(|s| s.login_warning()) {
            password_expiring(s, &w, ops)?;
        }
        let container = session.call(|s| s.container())?;
        crate::source::container::check_reachable(container.as_deref(), s, &[])?;
        crate::source::container::check_pdb_mining(
            container.as_deref(),
            &db.version,
            s.snapshot.mode != SnapshotMode::SnapshotOnly,
        )?;
        status.doing("reading the catalog");
        let all_tables = session.call(|s| s.tables())?;
        let db_tables: Vec<TableName> = all_tables.iter().map(|t| t.name.clone()).collect();
        let mut decisions = resolve(s, all_tables, &[])?;
        // The signal table carries signals, not data.
        if let Some(signal_table) = &s.signal.data_collection {
            decisions.retain(|d| d.table() != signal_table);
        }
        status.doing(format!("planning {} tables", decisions.len()));
        let (catalog, new_tables) = catalog(state, db.cdb, &decisions, &mut session, s)?;
        let offsets_path = state.offsets();
        // The sink first (`sink::prepare`): the Kafka sink fences an older producer and may
        // take newer offsets from Kafka. A broker that is down or slow at start is flow
        // control too: the watch reports it.
        status.sink_busy(true);
        let prepared = crate::sink::prepare(s, &offsets_path, &state.ops(), sink_stop.clone());
        status.sink_busy(false);
        let prepared = prepared?;
        let mut offsets = match Offsets::load(&offsets_path)? {
            Some(o) => {
                o.check_database(&offsets_path, &db)?;
                // Before anything is published: offsets capture could not have written.
                let facts = crate::offsets::startup::Facts {
                    current_scn: session.call(|s| s.current_scn())?,
                    role: db.role,
                    tables: &db_tables,
                    history: crate::offsets::startup::history_tables(
                        &state.path.join(HISTORY_FILE),
                    )?,
                };
                crate::offsets::startup::check(&o, &offsets_path, &facts)?;
                o
            }
            None => Offsets::new(DatabaseIdentity::of(&db)),
        };
        // The topics stay the ones consumers subscribed to (stored at the first start).
        let published = catalog
            .tables
            .keys()
            .filter(|t| s.signal.data_collection.as_ref() != Some(*t));
        topics::settle(s, published, &mut offsets)?;
        // A file sink directory is this capture's alone before anything in it is cut or written.
        let _sink_lock = match s.sink.kind {
            SinkType::File => Some(crate::sink::owner::claim(
                &s.sink.dir,
                &state.path,
                &mut offsets,
                &offsets_path,
            )?),
            _ => None,
        };
        let first_start = offsets.stream.is_none();
        if first_start {
            // Streaming starts now; transactions already open are mined from their START and
            // published whole, but only those committing from now on.
            let start = if replay {
                match session
                    .call(|s| s.logs())?
                    .iter()
                    .map(|l| l.first_scn)
                    .min()
                {
                    Some(first) => first,
                    None => session.call(|s| s.current_scn())?,
                }
            } else {
                // Where the stream can mine to (on a standby, the end of its archived logs):
                // the initial snapshot's first wave is read in step with it, without waiting
                // for redo the stream cannot mine yet.
                match session.call(|s| s.stream_read_scn())? {
                    Some(scn) => scn,
                    None => session.call(|s| s.current_scn())?,
                }
            };
            let open = session.call(|s| s.open_transactions())?;
            let oldest_log = miner::oldest_log_scn(session.call(|s| s.logs()));
            offsets.stream = Some(StreamPosition {
                resume_scn: sequencer::first_resume_scn(&open, start, oldest_log),
                commit_scn: start.saturating_sub(1),
                commit_xids: Vec::new(),
                threads: Default::default(),
            });
            if matches!(
                s.snapshot.mode,
                SnapshotMode::Initial | SnapshotMode::SnapshotOnly
            ) {
                offsets.snapshot = Some(SnapshotState {
                    order: Vec::new(),
                    tables: Default::default(),
                    records: 0,
                    completed: false,
                    skipped: Vec::new(),
                    ..Default::default()
                });
            }
            crate::sink::claim_fresh(s, &mut offsets)?;
            offsets.save(&offsets_path)?;
        }
        let mut sink = prepared.open(s, offsets.sink.as_ref())?;
        if offsets.sink.is_none() {
            // Acknowledge the empty sink before any record: a stop at once (a second signal,
            // kill -9) before the first chunk then leaves output the next start can cut back.
            offsets.sink = Some(sink.commit()?);
            offsets.save(&offsets_path)?;
        }
        ops.emit(
            "capture-started",
            json!({"mode": format!("{:?}", s.snapshot.mode).to_lowercase(), "first_start": first_start, "position": offsets.stream}),
        )?;
        let streaming = s.snapshot.mode != SnapshotMode::SnapshotOnly;
        if streaming {
            not_streamable(&catalog, ops)?;
        }
        // The start-up session goes on as the miner's: no second login, and no idle
        // connection held for as long as capture runs.
        let connector =
            crate::source::WarmConnector::borrowing(self.connector, session.into_session());
        let mut publisher = Publisher::new(
            &connector,
            s,
            catalog,
            sink,
            &offsets,
            &db.name,
            streaming,
            state,
            status.clone(),
            self.stop,
        )?;
        let desk = SignalDesk::new(&state.path, s, ops)
            .with_status(status.clone())
            .with_connector(self.connector, self.stop)
            .with_database(&db.name, db.cdb);
        self.new_tables(&mut offsets, &new_tables, ops)?;
        offsets.save(&offsets_path)?;
        save_history(&state.path.join(HISTORY_FILE), publisher.catalog())?;

        let mut last_metrics = std::time::Instant::now();
        let mut last_heartbeat = std::time::Instant::now();
        let every = |ms: u64| (ms > 0).then(|| Duration::from_millis(ms));
        let finish = |end: CaptureEnd,
                      publisher: &mut Publisher,
                      offsets: &Offsets|
         -> Result<(CaptureEnd, CaptureSummary)> {
            let current = publisher.current_scn_once().unwrap_or(publisher.mined_to());
            ops.emit("capture-metrics", publisher.metrics(current))?;
            Ok((end, publisher.summary(offsets)))
        };
        let mut idle_announced = false;
        // The captured tables with those created since start, once there are any.
        let mut signal_targets: Option<Vec<Decision>> = None;
        loop {
            if (self.stop)() {
                status.set(State::Stopping)?;
                return finish(CaptureEnd::Stopped, &mut publisher, &offsets);
            }
            // Tables created since start are captured tables too: signals may name them (the
            // initial snapshot keeps the tables it started with).
            let created = publisher.take_new_targets();
            if !created.is_empty() {
                let all = signal_targets.get_or_insert_with(|| decisions.clone());
                for d in created {
                    if !all.iter().any(|x| x.table() == d.table()) {
                        all.push(d);
                    }
                }
            }
            let targets = signal_targets.as_deref().unwrap_or(&decisions);
            desk.take(&mut offsets, targets, &mut |o| o.save(&offsets_path))?;
            let paused = snapshot_paused(&offsets);
            if let Ok(mut m) = status.snapshot.lock() {
                m.paused = paused;
            }
            // A snapshot to read: the initial one (it resumes in every mode), else the first
            // signal snapshot. A paused one waits while streaming goes on.
            let initial = offsets.snapshot.as_ref().filter(|st| !st.completed);
            if let Some(st) = initial {
                if !st.paused {
                    let mut st = st.clone();
                    let read = self.read_snapshot(
                        &decisions,
                        &mut st,
                        None,
                        &mut offsets,
                        &mut publisher,
                        &desk,
                        ops,
                        status,
                    );
                    if stopped_waiting(read)? {
                        status.set(State::Stopping)?;
                        return finish(CaptureEnd::Stopped, &mut publisher, &offsets);
                    }
                    continue;
                }
            } else if let Some(sig) = offsets.signals.first().filter(|g| !g.paused).cloned() {
                let read =
                    self.signal_snapshot(sig, &mut offsets, &mut publisher, &desk, ops, status);
                if stopped_waiting(read)? {
                    status.set(State::Stopping)?;
                    return finish(CaptureEnd::Stopped, &mut publisher, &offsets);
                }
                continue;
            }
            if !streaming {
                // snapshot_only: the snapshot is done; stay idle (signals still run) until
                // told to stop.
                if !idle_announced {
                    status.set(State::Idle)?;
                    ops.emit("capture-idle", json!({"reason": "snapshot_only"}))?;
                    idle_announced = true;
                }
                if let Some(scn) = self.stop_at {
                    return Ok((CaptureEnd::ReachedScn(scn), publisher.summary(&offsets)));
                }
                std::thread::sleep(Duration::from_millis(s.signal.poll_ms));
                continue;
            }
            let looked_ms = cdc_core::civil::now_ms();
            let current = publisher.current_scn()?;
            if every(s.stream.metrics_ms).is_some_and(|d| last_metrics.elapsed() >= d) {
                ops.emit("capture-metrics", publisher.metrics(current))?;
                last_metrics = std::time::Instant::now();
            }
            if every(s.stream.heartbeat_ms).is_some_and(|d| last_heartbeat.elapsed() >= d) {
                publisher.heartbeat()?;
                last_heartbeat = std::time::Instant::now();
            }
            // No further than the redo LogMiner can see: written on every open thread (and on a
            // downstream mining database, shipped there).
            let end = publisher.minable(self.stop_at.map_or(current, |t| t.min(current)))?;
            if paused {
                status.set_with(
                    State::Paused,
                    None,
                    None,
                    Some("pause-snapshot signal: no chunk is read until resume-snapshot; streaming goes on"),
                )?;
            } else if end > publisher.mined_to() {
                status.set(State::Mining)?;
            } else {
                status.set(State::WaitingForRedo)?;
            }
            let moved = publisher.stream_until(end)?;
            if self.stop_at.is_none_or(|t| t >= current) {
                // Everything minable at `looked_ms` is out: the lag is bounded by its age.
                publisher.caught_up_at(looked_ms);
            }
            take_created(&publisher.created(), &mut offsets, ops)?;
            publisher.positions().borrow().apply(&mut offsets);
            offsets.save(&offsets_path)?;
            crate::crashpoint::hit(Point::CaptureOffsetsSaved)?;
            if let Some(target) = self.stop_at {
                if publisher.published_through(target)? {
                    return finish(CaptureEnd::ReachedScn(target), &mut publisher, &offsets);
                }
            }
            if replay && publisher.mined_to() >= current {
                // Nothing more will ever be exported into a replay.
                return finish(CaptureEnd::ReachedScn(current), &mut publisher, &offsets);
            }
            if !moved {
                if end < current {
                    // Waiting for redo LGWR has not written (the simulation moves its clock).
                    crate::crashpoint::hit(Point::PublisherWaitingForRedo)?;
                }
                std::thread::sleep(Duration::from_millis(
                    s.stream.poll_ms.min(s.signal.poll_ms),
                ));
            }
        }
    }

    /// Read a snapshot (`signal`: None for the initial one) until it is done, a signal arrives
    /// (it is applied, then the loop decides what runs next), or capture is told to stop. Its
    /// progress is stored in the offsets after every chunk, with the stream and sink positions.
    #[allow(clippy::too_many_arguments)]
    fn read_snapshot(
        &self,
        decisions: &[Decision],
        st: &mut SnapshotState,
        signal: Option<(&str, SnapshotKind)>,
        offsets: &mut Offsets,
        publisher: &mut Publisher,
        desk: &SignalDesk,
        ops: &OpsLog,
        status: &Status,
    ) -> Result<Outcome> {
        let s = self.settings;
        let offsets_path = StateDir::new(&s.state_dir).offsets();
        let pin_scn = match signal {
            Some((_, SnapshotKind::Blocking)) if publisher.is_streaming() => {
                // Streaming pauses here: everything committed before the current SCN is
                // published, every chunk is read at it, and streaming resumes from it.
                let current = publisher.current_scn()?;
                publisher.stream_until(current.saturating_sub(1))?;
                Some(current)
            }
            _ => None,
        };
        publisher.set_signal_snapshot(signal.map(|(_, k)| k));
        publisher.reset_throttle();
        let progress = StateProgress {
            inner: self.progress,
            status,
            chunks_done: st
                .tables
                .iter()
                .map(|(t, p)| (t.clone(), p.chunks))
                .collect(),
        };
        let snap = Snapshot {
            connector: self.connector,
            settings: s,
            ops,
            progress: &progress,
            metrics: status.snapshot.clone(),
            pin_scn,
            signal: signal.map(|(id, _)| id.to_string()),
            shutdown: Some(self.stop),
        };
        let positions = publisher.positions();
        let created = publisher.created();
        let id = signal.map(|(id, _)| id.to_string());
        let mut save = |st: &SnapshotState| -> Result<()> {
            store_progress(offsets, id.as_deref(), st);
            take_created(&created, offsets, ops)?;
            positions.borrow().apply(offsets);
            offsets.save(&offsets_path)
        };
        let outcome = snap.run(decisions, st, &mut save, publisher, &|| {
            (self.stop)() || desk.waiting()
        });
        publisher.set_signal_snapshot(None);
        outcome
    }

    /// End the signal snapshot `sig` as failed with `e` (its rows so far: `rows`): out of the
    /// pending signals, into the history, the offsets saved, a `signal-failed` event.
    #[allow(clippy::too_many_arguments)]
    fn signal_failed(
        &self,
        sig: &SignalSnapshot,
        kind: SnapshotKind,
        rows: u64,
        e: &CdcError,
        offsets: &mut Offsets,
        publisher: &mut Publisher,
        ops: &OpsLog,
    ) -> Result<()> {
        offsets.signals.retain(|g| g.id != sig.id);
        signals::record_id(
            offsets,
            &sig.id,
            "execute-snapshot",
            "failed",
            &e.to_string(),
        );
        publisher.positions().borrow().apply(offsets);
        offsets.save(&StateDir::new(&self.settings.state_dir).offsets())?;
        tracing::warn!("signal {} failed: {e}", sig.id);
        ops.emit(
            "signal-failed",
            json!({"signal": sig.id, "kind": kind.as_str(), "tables": sig.tables, "rows": rows, "code": e.code().info().code, "reason": e.to_string()}),
        )
    }

    /// Run (or go on with) the first signal snapshot; when it completes, it leaves the offsets
    /// for their history and a `signal-done` event.
    fn signal_snapshot(
        &self,
        sig: SignalSnapshot,
        offsets: &mut Offsets,
        publisher: &mut Publisher,
        desk: &SignalDesk,
        ops: &OpsLog,
        status: &Status,
    ) -> Result<()> {
        let kind = SnapshotKind::parse(&sig.kind).unwrap_or(SnapshotKind::Incremental);
        let tables: Vec<TableName> = sig.tables.iter().filter_map(|t| t.parse().ok()).collect();
        let mut session = crate::source::Reconnecting::new(self.connector, &self.settings.connect)
            .observed(|e, attempt| catalog_retry(status, e, attempt))
            .stopped_by(self.stop);
        // The signal's catalog session is a snapshot session too: refused at the session limit,
        // the signal fails, not capture (which would meet it again at every start).
        let listed = match session.call(|s| s.tables()) {
            Ok(l) => l,
            Err(CdcError::Connect {
                code: Code::Cdc2011,
                message,
            }) => {
                let e = CdcError::SnapshotSessionRefused(message);
                return self.signal_failed(&sig, kind, sig.records, &e, offsets, publisher, ops);
            }
            Err(e) => return Err(e),
        };
        let decisions = match resolve(self.settings, listed, &tables) {
            Ok(d) => d,
            Err(e) => {
                // A table dropped (or no longer captured) since the signal came: nothing to
                // read; the signal ends, and says why.
                offsets.signals.retain(|g| g.id != sig.id);
                signals::record_id(
                    offsets,
                    &sig.id,
                    "execute-snapshot",
                    "stopped",
                    &e.to_string(),
                );
                offsets.save(&StateDir::new(&self.settings.state_dir).offsets())?;
                ops.emit(
                    "signal-stopped",
                    json!({"signal": sig.id, "reason": e.to_string(), "code": e.code().info().code}),
                )?;
                return Ok(());
            }
        };
        let decisions: Vec<Decision> = decisions
            .into_iter()
            .map(|d| match d {
                Decision::Capture(mut t) => {
                    if let Some(f) = sig.filters.get(&t.name().to_string()) {
                        t.filter = Some(match &t.filter {
                            Some(o) => format!("({o}) AND ({f})"),
                            None => f.clone(),
                        });
                    }
                    Decision::Capture(t)
                }
                other => other,
            })
            .collect();
        // The catalog's session is not held through the reads: at a session limit it would
        // take a reader's place.
        drop(session);
        let mut st = SnapshotState {
            // Empty until a first run lists the tables (then `resumed` in the events).
            order: if sig.progress.is_empty() {
                Vec::new()
            } else {
                sig.tables.clone()
            },
            tables: sig.progress.clone(),
            records: sig.records,
            ..Default::default()
        };
        let outcome = match self.read_snapshot(
            &decisions,
            &mut st,
            Some((&sig.id, kind)),
            offsets,
            publisher,
            desk,
            ops,
            status,
        ) {
            Ok(o) => o,
            // What reading the signal's tables raised fails the signal, not capture: before,
            // a filter the database refused stopped capture with CDC-8001 at every start.
            Err(e) if fails_signal(&e) => {
                return self.signal_failed(&sig, kind, st.records, &e, offsets, publisher, ops);
            }
            Err(e) => return Err(e),
        };
        if outcome == Outcome::Completed {
            offsets.signals.retain(|g| g.id != sig.id);
            signals::record_id(offsets, &sig.id, "execute-snapshot", "done", "");
            publisher.positions().borrow().apply(offsets);
            offsets.save(&StateDir::new(&self.settings.state_dir).offsets())?;
            ops.emit(
                "signal-done",
                json!({"signal": sig.id, "kind": kind.as_str(), "tables": sig.tables, "rows": st.records}),
            )?;
        }
        Ok(())
    }

    /// Captured tables the previous run did not capture: with cdc.snapshot.new.tables=auto an
    /// incremental signal snapshot of them; else an event saying a signal is needed.
    fn new_tables(&self, offsets: &mut Offsets, new: &[TableName], ops: &OpsLog) -> Result<()> {
        let covered = |t: &str| {
            offsets
                .signals
                .iter()
                .any(|g| g.tables.iter().any(|x| x == t))
                || offsets.snapshot.as_ref().is_some_and(|st| !st.completed)
        };
        let names: Vec<String> = new
            .iter()
            .map(|t| t.to_string())
            .filter(|t| !covered(t))
            .collect();
        if names.is_empty() {
            return Ok(());
        }
        if self.settings.snapshot.new_tables == NewTables::Auto {
            let id = format!("auto-{}", cdc_core::civil::now_ms());
            ops.emit(
                "signal-accepted",
                json!({"signal": id, "type": "execute-snapshot", "tables": names, "action": "incremental snapshot of tables new to capture (cdc.snapshot.new.tables=auto)"}),
            )?;
            offsets.signals.push(SignalSnapshot {
                id,
                kind: SnapshotKind::Incremental.as_str().into(),
                tables: names,
                ..Default::default()
            });
        } else {
            for t in names {
                ops.emit(
                    "table-not-snapshotted",
                    json!({"table": t, "reason": "captured since this start: its changes are streamed from now on; send an execute-snapshot signal for its existing rows (or set cdc.snapshot.new.tables=auto)"}),
                )?;
            }
        }
        Ok(())
    }
}

/// Errors of reading a signal snapshot's tables (after the reader's retries) that end the
/// signal: a chunk that cannot be read, a table moved under its ROWID ranges, a table gone, without a key or beyond reach, no
/// session for even one reader (the session limit: streaming goes on, and the signal can be
/// sent again once there is room). Errors of the sink, the offsets, the stream and the
/// connection stay capture's.
fn fails_signal(e: &crate::errors::CdcError) -> bool {
    use crate::errors::CdcError as E;
    matches!(
        e,
        // The snapshot's own login, not the mining session's (which stops capture).
        E::SnapshotSessionRefused(_)
            | E::ChunkFailed { .. }
            // The table's segment moved after chunks of it were published (CDC-8009): the
            // signal can be sent again.
            | E::SegmentsMoved { .. }
            | E::UnknownTable { .. }
            | E::UnsupportedType { .. }
            | E::NoUsableKey { .. }
            | E::TableDefinitionChanged { .. }
            | E::FilterFailed { .. }
            | E::Privilege { .. }
            | E::ContainerUnreachable(_)
    )
}

/// Tables created while capture runs (CREATE TABLE in the stream) get an incremental snapshot,
/// stored in the same offsets write that moves the stream position past the CREATE. One per
/// CREATE: seen again after a restart, its id (`create-SCN`) is already there.
fn take_created(
    created: &std::cell::RefCell<Vec<(TableName, Scn)>>,
    offsets: &mut Offsets,
    ops: &OpsLog,
) -> Result<()> {
    let list: Vec<(TableName, Scn)> = created.borrow_mut().drain(..).collect();
    for (table, scn) in list {
        let id = format!("create-{scn}");
        let name = table.to_string();
        if offsets.signal_history.iter().any(|h| h.id == id) {
            continue;
        }
        match offsets.signals.iter_mut().find(|g| g.id == id) {
            Some(g) if g.tables.contains(&name) => continue,
            Some(g) => g.tables.push(name.clone()),
            None => offsets.signals.push(SignalSnapshot {
                id: id.clone(),
                kind: SnapshotKind::Incremental.as_str().into(),
                tables: vec![name.clone()],
                ..Default::default()
            }),
        }
        ops.emit(
            "table-created",
            json!({"table": name, "scn": scn, "signal": id, "action": "incremental snapshot of a table created while capture runs"}),
        )?;
    }
    Ok(())
}

/// Whether the snapshot that would run next is paused by a signal (streaming goes on).
fn snapshot_paused(offsets: &Offsets) -> bool {
    match offsets.snapshot.as_ref().filter(|st| !st.completed) {
        Some(st) => st.paused,
        None => !offsets.signals.is_empty() && offsets.signals.iter().all(|g| g.paused),
    }
}

/// Forwards snapshot progress to the CLI's bars and puts the table and chunk being read on
/// the status board (`snapshotting` with them).
struct StateProgress<'p> {
    inner: &'p dyn Progress,
    status: &'p Status,
    /// Chunks already read per table (a resumed table goes on from there).
    chunks_done: std::collections::BTreeMap<String, u64>,
}

impl Progress for StateProgress<'_> {
    fn tables_planned(&self, total: u64, done: u64) {
        self.inner.tables_planned(total, done);
    }

    fn table_started(&self, table: &str, estimated_rows: Option<u64>, rows_done: u64) {
        let chunk = self.chunks_done.get(table).copied().unwrap_or(0) + 1;
        if let Err(e) = self
            .status
            .set_with(State::Snapshotting, Some(table), Some(chunk), None)
        {
            tracing::warn!("capture state: {e}");
        }
        self.inner.table_started(table, estimated_rows, rows_done);
    }

    fn rows_read(&self, table: &str, rows: u64) {
        // Called once per published chunk: the next one is being read.
        let next = self.status.board().chunk.unwrap_or(1) + 1;
        self.status.set_chunk(next);
        self.inner.rows_read(table, rows);
    }

    fn table_finished(&self, table: &str, rows: u64) {
        self.inner.table_finished(table, rows);
    }
}

/// Put a snapshot's progress where it belongs in the offsets.
fn store_progress(offsets: &mut Offsets, signal: Option<&str>, st: &SnapshotState) {
    match signal {
        None => {
            // Keep a pause applied meanwhile (the state copy predates it).
            let paused = offsets.snapshot.as_ref().is_some_and(|o| o.paused);
            offsets.snapshot = Some(SnapshotState {
                paused,
                ..st.clone()
            });
        }
        Some(id) => {
            if let Some(g) = offsets.signals.iter_mut().find(|g| g.id == id) {
                g.progress = st.tables.clone();
                g.records = st.records;
            }
        }
    }
}

/// A catalog or planning call that lost its connection and is made again on a new one
/// (`source::Reconnecting`): counted and announced as every retry is (`source-retry`).
fn catalog_retry(status: &Status, e: &crate::errors::CdcError, attempt: u32) -> Result<()> {
    let cause = crate::source::retry_cause(e);
    let message = e.to_string();
    status.source_retry(&status::SourceRetry {
        cause: &cause,
        code: e.code().info().code,
        operation: "reading the catalog",
        attempt,
        wait_ms: 0,
        message: &message,
    })
}

/// The start-up session's login warned that the capture user's password is in its grace period
/// (ORA-28002): a `password-expiring` ops event (`user`, `days`, `message`, `code` CDC-2013,
/// what the logins will fail with once the days are up), the only sign before that. The
/// Oracle adapter logs the warning itself at the login.
fn password_expiring(s: &Settings, w: &cdc_core::model::LoginWarning, ops: &OpsLog) -> Result<()> {
    if !w.password_expiring() {
        return Ok(());
    }
    ops.emit(
        "password-expiring",
        json!({
            "user": s.database_user(),
            "days": w.days_left(),
            "message": w.message,
            "code": Code::Cdc2013.info().code,
        }),
    )
}
