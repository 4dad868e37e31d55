//! `capture`: the snapshot `cdc.snapshot.mode` asks for, merged in SCN order with the LogMiner
//! change stream, into the sink, with offsets that only move forward.
//!
//! Ordering: before each wave of chunks is read at SCN s, every transaction committed before s
//! is published; the chunks follow; transactions committed at or after s come after them. So a
//! consumer keeping the latest record per key converges to the tables. Chunks never wait in
//! memory for streaming (streaming catches up before a wave is read), so memory holds at most
//! one wave (`cdc.snapshot.threads` chunks, capped by `cdc.snapshot.max.pending.chunks`).

mod publisher;
pub mod records;

use crate::errors::Result;
use crate::offsets::{DatabaseIdentity, Offsets, SnapshotState, StreamPosition};
use crate::ops::{OpsLog, SnapshotMetrics};
use crate::settings::{Settings, SinkType, SnapshotMode};
use crate::sink::{FileSink, RecordSink, StdoutSink};
use crate::snapshot::target::{resolve, Decision};
use crate::snapshot::{Outcome, Progress, Snapshot};
use crate::source::model::Scn;
use crate::source::Connector;
use crate::state::StateDir;
use crate::stream::decode::{Catalog, TableSchema};
use publisher::Publisher;
use serde_json::json;
use std::cell::RefCell;
use std::sync::{Arc, Mutex};
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
    pub stop: &'a dyn Fn() -> bool,
    /// Stop once everything committed up to this SCN is published (scripts and tests).
    pub stop_at: Option<Scn>,
}

/// Refuse what the source cannot do before anything is opened: a replay (`replay:DIR`) holds
/// no table data, so only `cdc.snapshot.mode=none` can run on it.
pub fn check_source(s: &Settings) -> Result<()> {
    if let Some(dir) = s.database_url().strip_prefix(crate::source::replay::PREFIX) {
        if s.snapshot.mode != SnapshotMode::None {
            return Err(crate::errors::CdcError::ReplayHasNoData {
                source_dir: dir.into(),
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
        // A replay's export is all there is: it is decoded from its first SCN and ends there.
        let replay = crate::source::replay::is_replay(s.database_url());
        let state = StateDir::new(&s.state_dir);
        let _lock = state.lock()?;
        let ops = OpsLog::to_file(&state.ops())?;
        let mut session = self.connector.connect()?;
        let db = session.database()?;
        let decisions = resolve(s, session.tables()?, &[])?;
        let catalog = catalog(&state, db.cdb, &decisions)?;
        let offsets_path = state.offsets();
        let mut offsets = match Offsets::load(&offsets_path)? {
            Some(o) => {
                o.check_database(&offsets_path, &db)?;
                o
            }
            None => Offsets::new(DatabaseIdentity::of(&db)),
        };
        let first_start = offsets.stream.is_none();
        if first_start {
            // Streaming starts now; transactions already open are mined from their START and
            // published whole, but only those committing from now on.
            let start = if replay {
                match session.logs()?.iter().map(|l| l.first_scn).min() {
                    Some(first) => first,
                    None => session.current_scn()?,
                }
            } else {
                session.current_scn()?
            };
            let oldest_open = session
                .open_transactions()?
                .iter()
                .map(|t| t.start_scn)
                .min();
            offsets.stream = Some(StreamPosition {
                resume_scn: oldest_open.map_or(start, |o| o.min(start)),
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
                });
            }
            crate::sink::claim_fresh(s, &mut offsets)?;
            offsets.save(&offsets_path)?;
        }
        let sink: Box<dyn RecordSink> = match s.sink.kind {
            SinkType::File => Box::new(FileSink::open(
                &s.sink.dir,
                s.sink.segment_bytes,
                offsets.sink.as_ref(),
            )?),
            SinkType::Stdout => Box::new(StdoutSink::new(offsets.sink.as_ref())),
        };
        ops.emit(
            "capture-started",
            json!({"mode": format!("{:?}", s.snapshot.mode).to_lowercase(), "first_start": first_start, "position": offsets.stream}),
        )?;
        let streaming = s.snapshot.mode != SnapshotMode::SnapshotOnly;
        let mut publisher = Publisher::new(
            self.connector,
            s,
            catalog,
            sink,
            &offsets,
            &db.name,
            streaming,
            &state,
        )?;
        let shared = RefCell::new(offsets);

        // An unfinished snapshot resumes in every mode.
        let unfinished = shared
            .borrow()
            .snapshot
            .as_ref()
            .is_some_and(|st| !st.completed);
        if unfinished {
            let metrics = Arc::new(Mutex::new(SnapshotMetrics::default()));
            let snap = Snapshot {
                connector: self.connector,
                settings: s,
                ops: &ops,
                progress: self.progress,
                metrics,
            };
            let mut working = shared.borrow().clone();
            let outcome = {
                let positions = publisher.positions();
                let mut save = |o: &Offsets| -> Result<()> {
                    let mut o = o.clone();
                    positions.borrow().apply(&mut o);
                    o.save(&offsets_path)?;
                    *shared.borrow_mut() = o;
                    Ok(())
                };
                snap.run(
                    &decisions,
                    &mut working,
                    &mut save,
                    &mut publisher,
                    self.stop,
                )?
            };
            if outcome == Outcome::Stopped {
                return Ok((CaptureEnd::Stopped, publisher.summary(&shared.borrow())));
            }
        }
        let mut offsets = shared.into_inner();
        if !streaming {
            // snapshot_only: the snapshot is done; stay idle until told to stop.
            ops.emit("capture-idle", json!({"reason": "snapshot_only"}))?;
            if let Some(scn) = self.stop_at {
                return Ok((CaptureEnd::ReachedScn(scn), publisher.summary(&offsets)));
            }
            while !(self.stop)() {
                std::thread::sleep(Duration::from_millis(200));
            }
            return Ok((CaptureEnd::Stopped, publisher.summary(&offsets)));
        }
        let mut last_metrics = std::time::Instant::now();
        let mut last_heartbeat = std::time::Instant::now();
        let every = |ms: u64| (ms > 0).then(|| Duration::from_millis(ms));
        let finish = |end: CaptureEnd,
                      publisher: &mut Publisher,
                      offsets: &Offsets|
         -> Result<(CaptureEnd, CaptureSummary)> {
            let current = publisher.current_scn().unwrap_or(publisher.mined_to());
            ops.emit("capture-metrics", publisher.metrics(current))?;
            Ok((end, publisher.summary(offsets)))
        };
        loop {
            if (self.stop)() {
                return finish(CaptureEnd::Stopped, &mut publisher, &offsets);
            }
            let current = publisher.current_scn()?;
            if every(s.stream.metrics_ms).is_some_and(|d| last_metrics.elapsed() >= d) {
                ops.emit("capture-metrics", publisher.metrics(current))?;
                last_metrics = std::time::Instant::now();
            }
            if every(s.stream.heartbeat_ms).is_some_and(|d| last_heartbeat.elapsed() >= d) {
                publisher.heartbeat()?;
                last_heartbeat = std::time::Instant::now();
            }
            let end = self.stop_at.map_or(current, |t| t.min(current));
            let moved = publisher.stream_until(end)?;
            publisher.positions().borrow().apply(&mut offsets);
            offsets.save(&offsets_path)?;
            crate::crashpoint::hit("capture.offsets.saved")?;
            if let Some(target) = self.stop_at {
                if publisher.mined_to() >= target {
                    return finish(CaptureEnd::ReachedScn(target), &mut publisher, &offsets);
                }
            }
            if replay && publisher.mined_to() >= current {
                // Nothing more will ever be exported into a replay.
                return finish(CaptureEnd::ReachedScn(current), &mut publisher, &offsets);
            }
            if !moved {
                std::thread::sleep(Duration::from_millis(s.stream.poll_ms));
            }
        }
    }
}

pub const HISTORY_FILE: &str = "schema-history.json";

type History =
    std::collections::BTreeMap<String, Vec<(Scn, Vec<crate::source::model::ColumnInfo>)>>;

/// Write the schema history atomically (mode 0600).
pub(crate) fn save_history(path: &std::path::Path, catalog: &Catalog) -> Result<()> {
    let text = serde_json::to_vec_pretty(&catalog.history())
        .map_err(|e| crate::errors::CdcError::io(path, std::io::Error::other(e)))?;
    crate::offsets::write_atomically(path, &text)
}

/// The captured tables' schemas for decoding: the stored history where there is one (changes
/// may be mined from before today's dictionary), else today's columns.
fn catalog(state: &StateDir, cdb: bool, decisions: &[Decision]) -> Result<Catalog> {
    let path = state.path.join(HISTORY_FILE);
    let stored: History = match std::fs::read(&path) {
        Ok(bytes) => {
            serde_json::from_slice(&bytes).map_err(|e| crate::errors::CdcError::OffsetsDamaged {
                path: path.clone(),
                message: e.to_string(),
            })?
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => History::new(),
        Err(e) => return Err(crate::errors::CdcError::io(&path, e)),
    };
    let mut c = Catalog {
        cdb,
        tables: Default::default(),
    };
    for d in decisions {
        if let Decision::Capture(t) = d {
            let excluded: Vec<String> = t
                .info
                .columns
                .iter()
                .filter(|col| !t.columns.iter().any(|k| k.name == col.name))
                .map(|col| col.name.clone())
                .collect();
            c.tables.insert(
                t.info.name.clone(),
                TableSchema {
                    name: t.info.name.clone(),
                    history: stored
                        .get(&t.info.name.to_string())
                        .filter(|h| !h.is_empty())
                        .cloned()
                        .unwrap_or_else(|| vec![(0, t.info.columns.clone())]),
                    key: t.record_key.clone(),
                    excluded,
                },
            );
        }
    }
    if !path.exists() {
        save_history(&path, &c)?;
    }
    Ok(c)
}
