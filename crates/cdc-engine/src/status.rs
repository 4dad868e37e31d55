//! What capture is doing now: its state (in the spirit of Oracle's capture process states) and
//! the numbers behind the metrics, shared between the capture thread and the metrics endpoint.
//! A state change is an ops event (`capture-state`) and a log line.

use crate::errors::Result;
use crate::ops::{OpsLog, SnapshotMetrics};
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Capture's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum State {
    /// Connecting, loading offsets and the schema history.
    Starting,
    /// Streaming, with no new redo to mine since the last window.
    WaitingForRedo,
    /// Streaming: mining a LogMiner window and publishing what committed in it.
    Mining,
    /// Reading a snapshot (the table and chunk are beside the state).
    Snapshotting,
    /// A snapshot is paused by a `pause-snapshot` signal (streaming goes on).
    Paused,
    /// The sink is not keeping up: reading waits for it.
    PausedForFlowControl,
    /// `cdc.snapshot.mode=snapshot_only` after its snapshot: nothing to stream, signals still run.
    Idle,
    /// Told to stop (Ctrl-C, SIGTERM): finishing the chunk in flight, saving offsets.
    Stopping,
}

impl State {
    pub const ALL: &'static [State] = &[
        State::Starting,
        State::WaitingForRedo,
        State::Mining,
        State::Snapshotting,
        State::Paused,
        State::PausedForFlowControl,
        State::Idle,
        State::Stopping,
    ];

    pub fn name(self) -> &'static str {
        match self {
            State::Starting => "starting",
            State::WaitingForRedo => "waiting-for-redo",
            State::Mining => "mining",
            State::Snapshotting => "snapshotting",
            State::Paused => "paused",
            State::PausedForFlowControl => "paused-for-flow-control",
            State::Idle => "idle",
            State::Stopping => "stopping",
        }
    }
}

/// The streaming numbers (what the `capture-metrics` event and the endpoint show).
#[derive(Debug, Clone, Default)]
pub struct StreamStats {
    pub current_scn: u64,
    pub mined_scn: u64,
    pub published_commit_scn: u64,
    /// Now minus the last published transaction's commit time.
    pub lag_ms: Option<i64>,
    pub open_transactions: u64,
    pub buffered_changes: u64,
    pub buffer_memory_bytes: u64,
    pub spilled_bytes: u64,
    pub change_records: u64,
    pub snapshot_records: u64,
    pub transactions: u64,
    /// Time spent in LogMiner queries, and decoding mined rows into records.
    pub mine_seconds: f64,
    pub parse_seconds: f64,
    /// The last mined window, and how many windows were mined.
    pub window_start_scn: u64,
    pub window_end_scn: u64,
    pub windows: u64,
    /// Rows V$LOGMNR_CONTENTS returned (after the mining filter), and rows of captured
    /// tables decoded from them.
    pub rows_mined: u64,
    pub rows_captured: u64,
    /// Changes written to the dead-letter output (cdc.on.decode.error=dlq), by CDC code.
    pub dead_letters: BTreeMap<String, u64>,
    /// Changes LogMiner did not give in full (CDC-3003 … CDC-3006), by CDC code, whatever
    /// cdc.on.unsupported.redo did with them.
    pub unsupported: BTreeMap<String, u64>,
    /// Changes LogMiner wrote wrong and capture read all the same, by kind
    /// (`unescaped-quotes`, `column-positions`).
    pub recovered: BTreeMap<String, u64>,
    /// Rows of objects LogMiner's dictionary did not know, by outcome (`resolved`,
    /// `not-captured`).
    pub unknown_objects: BTreeMap<String, u64>,
    /// The (container, object number) of those not captured already named by an ops event.
    pub unknown_objects_named: std::collections::BTreeSet<(String, u64)>,
    /// Calls retried after a transient failure (a lost connection, a log switched under
    /// LogMiner, ORA-01291 for a hole in the log list), by cause (`ORA-03113`, or the CDC code).
    pub source_retries: BTreeMap<String, u64>,
    /// LogMiner dictionaries capture built into the redo (`cdc.mining.dictionary.build`).
    pub dictionary_builds: u64,
}

/// One retry of a call on the database (see [`Status::source_retry`]).
#[derive(Debug, Clone)]
pub struct SourceRetry<'a> {
    /// `ORA-03113`, or the catalog code when the error carries no Oracle error.
    pub cause: &'a str,
    /// The catalog code of the error (`CDC-5007`).
    pub code: &'a str,
    /// What failed: `mining SCN 100 to 200`, `asking the current SCN`.
    pub operation: &'a str,
    /// 1 for the first retry of the call.
    pub attempt: u32,
    pub wait_ms: u64,
    pub message: &'a str,
}

/// The sink's numbers.
#[derive(Debug, Clone, Default)]
pub struct SinkStats {
    pub records: u64,
    pub bytes: u64,
    pub commits: u64,
    pub commit_seconds: f64,
    /// Times reading paused because the sink fell behind, and for how long in all.
    pub flow_control_pauses: u64,
    pub flow_control_seconds: f64,
}

/// The snapshot throttle's numbers.
#[derive(Debug, Clone, Default)]
pub struct ThrottleStats {
    /// cdc.snapshot.max.rows.per.second as it is now (0: off), and per-table limits.
    pub max_rows_per_second: u64,
    pub table_max_rows_per_second: BTreeMap<String, u64>,
    /// Time snapshot reads waited for the throttle.
    pub wait_seconds: f64,
}

#[derive(Debug, Clone)]
pub struct Board {
    pub state: State,
    /// The table and chunk (1-based) being read while snapshotting.
    pub table: Option<String>,
    pub chunk: Option<u64>,
    pub stream: StreamStats,
    pub sink: SinkStats,
    pub throttle: ThrottleStats,
    /// What a long step of the current state is doing ("connecting to …", "reading the
    /// catalog"): for the terminal's status line, never an event. Cleared on a state change.
    pub activity: Option<String>,
    /// Whether the state was announced yet (the first one always is).
    announced: bool,
    /// State changes since start, each counted (the events are debounced, the count is not).
    pub state_changes: u64,
    /// The streaming state last written to the ops events, and a change between streaming
    /// states not written yet: since when (ms) and its event ([`Status::flush_state`]).
    emitted: Option<State>,
    pending: Option<(i64, serde_json::Value)>,
}

/// A change between mining and waiting for redo is written to the ops events only once it
/// has lasted this long: at each poll capture mines what came and waits again, and every
/// flap used to be an event (410 in 80 s).
pub const STATE_DEBOUNCE_MS: i64 = 1_000;

/// Mining and waiting for redo alternate at every poll while capture streams.
fn flaps(state: State) -> bool {
    matches!(state, State::Mining | State::WaitingForRedo)
}

/// Capture's status, cheap to clone and share with the metrics endpoint.
#[derive(Clone)]
pub struct Status {
    board: Arc<Mutex<Board>>,
    /// The Snapshot* metrics, kept by the snapshot reader.
    pub snapshot: Arc<Mutex<SnapshotMetrics>>,
    ops: Arc<OpsLog>,
    /// Since when (ms since the epoch) the sink has been busy with a write or commit; 0: idle.
    sink_busy_since: Arc<AtomicI64>,
}

/// A sink busy this long means it is not keeping up: capture reports flow control.
pub const FLOW_CONTROL_AFTER_MS: i64 = 200;

/// Watches the sink from another thread: a write or commit that blocks past
/// [`FLOW_CONTROL_AFTER_MS`] turns the state `paused-for-flow-control` until it returns.
#[derive(Default)]
pub struct FlowWatch {
    /// While paused: when it began, and the state, table and chunk to go back to.
    paused: Option<(std::time::Instant, State, Option<String>, Option<u64>)>,
}

impl FlowWatch {
    pub fn check(&mut self, status: &Status) -> Result<()> {
        let since = status.sink_busy_since.load(Ordering::SeqCst);
        let blocked =
            since > 0 && cdc_core::civil::now_ms_coarse() - since >= FLOW_CONTROL_AFTER_MS;
        match (&self.paused, blocked) {
            (None, true) => {
                let (state, table, chunk) = {
                    let b = status.board();
                    (b.state, b.table.clone(), b.chunk)
                };
                if state == State::Stopping {
                    return Ok(());
                }
                status.board().sink.flow_control_pauses += 1;
                self.paused = Some((std::time::Instant::now(), state, table, chunk));
                status.set_with(
                    State::PausedForFlowControl,
                    None,
                    None,
                    Some("the sink is not keeping up: reading waits for it"),
                )?;
            }
            (Some(_), false) => {
                if let Some((at, state, table, chunk)) = self.paused.take() {
                    status.board().sink.flow_control_seconds += at.elapsed().as_secs_f64();
                    if status.state() == State::PausedForFlowControl {
                        status.set_with(state, table.as_deref(), chunk, None)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

impl Status {
    pub fn new(ops: Arc<OpsLog>) -> Status {
        Status {
            board: Arc::new(Mutex::new(Board {
                state: State::Starting,
                table: None,
                chunk: None,
                stream: StreamStats::default(),
                sink: SinkStats::default(),
                throttle: ThrottleStats::default(),
                activity: None,
                announced: false,
                state_changes: 0,
                emitted: None,
                pending: None,
            })),
            snapshot: Arc::new(Mutex::new(SnapshotMetrics::default())),
            ops,
            sink_busy_since: Arc::new(AtomicI64::new(0)),
        }
    }

    /// The board, even if a thread panicked holding it (the numbers stay usable).
    pub fn board(&self) -> MutexGuard<'_, Board> {
        self.board.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// An ops event of the capture (see [`OpsLog::emit`]).
    pub fn emit(&self, event: &str, fields: serde_json::Value) -> Result<()> {
        self.ops.emit(event, fields)
    }

    pub fn state(&self) -> State {
        self.board().state
    }

    /// Move to `state`; a change (or another snapshot table) is an ops event and a log line.
    pub fn set(&self, state: State) -> Result<()> {
        self.set_with(state, None, None, None)
    }

    /// Move to `state` with the table and chunk being read, and why (for pauses).
    pub fn set_with(
        &self,
        state: State,
        table: Option<&str>,
        chunk: Option<u64>,
        reason: Option<&str>,
    ) -> Result<()> {
        let now = cdc_core::civil::now_ms();
        let event = {
            let mut b = self.board();
            if b.state == State::Stopping {
                // Stopping is final: what runs meanwhile finishes without changing it.
                return Ok(());
            }
            let changed = !b.announced || b.state != state || b.table.as_deref() != table;
            if b.state != state {
                b.activity = None;
            }
            b.announced = true;
            b.state = state;
            b.table = table.map(str::to_string);
            b.chunk = chunk;
            if !changed {
                return Ok(());
            }
            b.state_changes += 1;
            let mut fields = json!({"state": state.name()});
            if let Some(obj) = fields.as_object_mut() {
                if let Some(t) = table {
                    obj.insert("table".into(), json!(t));
                }
                if let Some(c) = chunk {
                    obj.insert("chunk".into(), json!(c));
                }
                if let Some(r) = reason {
                    obj.insert("reason".into(), json!(r));
                }
            }
            if flaps(state) && b.emitted.is_some_and(flaps) {
                // Back to the state written last: nothing to write; else written once it lasts.
                b.pending = (b.emitted != Some(state)).then_some((now, fields));
                None
            } else {
                b.pending = None;
                b.emitted = Some(state);
                Some(fields)
            }
        };
        match event {
            Some(fields) => self.write_state(fields),
            None => Ok(()),
        }
    }

    /// Write a change between streaming states that has lasted [`STATE_DEBOUNCE_MS`] (called
    /// by capture's watcher every few tens of milliseconds).
    pub fn flush_state(&self) -> Result<()> {
        self.flush_state_at(cdc_core::civil::now_ms())
    }

    fn flush_state_at(&self, now: i64) -> Result<()> {
        let event = {
            let mut b = self.board();
            match b.pending.take() {
                Some((since, fields)) if now - since >= STATE_DEBOUNCE_MS => {
                    b.emitted = Some(b.state);
                    Some(fields)
                }
                other => {
                    b.pending = other;
                    None
                }
            }
        };
        match event {
            Some(fields) => self.write_state(fields),
            None => Ok(()),
        }
    }

    fn write_state(&self, fields: serde_json::Value) -> Result<()> {
        let name = fields["state"].as_str().unwrap_or_default();
        match fields["table"].as_str() {
            Some(t) => tracing::info!("capture state: {name} ({t})"),
            None => tracing::info!("capture state: {name}"),
        }
        self.ops.emit("capture-state", fields)
    }

    /// The mining window `from..=to` passed a per-call limit (`e`, CDC-5017) and windows are
    /// mined `window` SCNs at a time from now on: a warning and an ops event
    /// `mining-window-reduced`.
    pub fn mining_window_reduced(
        &self,
        (from, to): (u64, u64),
        window: u64,
        e: &crate::errors::CdcError,
    ) -> Result<()> {
        tracing::warn!(
            "mining SCN {from} to {to} passed a per-call limit of the database ({e}); mining {window} SCNs at a time from now on"
        );
        self.ops.emit(
            "mining-window-reduced",
            json!({
                "from": from,
                "to": to,
                "window": window,
                "code": e.code().info().code,
                "cause": crate::source::retry_cause(e),
                "message": crate::errors::shown(&e.to_string(), 500),
            }),
        )
    }

    /// A transaction committed at `commit_scn` began before `mined_from`, where mining began
    /// and the oldest log there is begins: its earlier changes cannot be mined, and it is
    /// published with the changes that could. A warning and an ops event
    /// `transaction-start-lost`.
    pub fn transaction_start_lost(
        &self,
        xid: &str,
        commit_scn: u64,
        mined_from: u64,
    ) -> Result<()> {
        tracing::warn!(
            "transaction {xid} (committed at SCN {commit_scn}) began before SCN {mined_from}, the oldest log there is: it is published with the changes mined from there, those before are not in any log"
        );
        self.ops.emit(
            "transaction-start-lost",
            json!({
                "xid": xid,
                "commit_scn": commit_scn,
                "mined_from": mined_from,
            }),
        )
    }

    /// A call on the database failed transiently and is made again after `wait_ms`: counted
    /// by cause, an ops event `source-retry` and a warning.
    pub fn source_retry(&self, retry: &SourceRetry<'_>) -> Result<()> {
        *self
            .board()
            .stream
            .source_retries
            .entry(retry.cause.to_string())
            .or_default() += 1;
        tracing::warn!(
            "{} failed ({}): retry {} in {} ms",
            retry.operation,
            retry.message,
            retry.attempt,
            retry.wait_ms
        );
        self.ops.emit(
            "source-retry",
            json!({
                "cause": retry.cause,
                "code": retry.code,
                "operation": retry.operation,
                "attempt": retry.attempt,
                "wait_ms": retry.wait_ms,
                "message": crate::errors::shown(retry.message, 500),
            }),
        )
    }

    /// The sink starts (true) or ends (false) a write or commit.
    pub fn sink_busy(&self, busy: bool) {
        let v = if busy {
            cdc_core::civil::now_ms_coarse().max(1)
        } else {
            0
        };
        self.sink_busy_since.store(v, Ordering::SeqCst);
    }

    /// What the current state is busy with, for the terminal (no event, no log line).
    pub fn doing(&self, what: impl Into<String>) {
        self.board().activity = Some(what.into());
    }

    /// The chunk now being read of the table being snapshotted (no event: chunks have theirs).
    pub fn set_chunk(&self, chunk: u64) {
        self.board().chunk = Some(chunk);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flaps_between_mining_and_waiting_are_written_once_they_last() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ops.jsonl");
        let status = Status::new(Arc::new(OpsLog::to_file(&path).unwrap()));
        let states = || -> Vec<String> {
            crate::ops::read_events(&path)
                .unwrap()
                .iter()
                .map(|e| e["state"].as_str().unwrap().to_string())
                .collect()
        };
        status.set(State::Snapshotting).unwrap();
        status.set(State::WaitingForRedo).unwrap();
        // A poll's flaps: each counted, none written.
        for _ in 0..100 {
            status.set(State::Mining).unwrap();
            status.set(State::WaitingForRedo).unwrap();
        }
        status.set(State::Mining).unwrap();
        let now = cdc_core::civil::now_ms();
        status.flush_state_at(now).unwrap();
        assert_eq!(states(), ["snapshotting", "waiting-for-redo"]);
        assert_eq!(status.board().state_changes, 2 + 201);
        // Mining lasted: written once, and not again.
        status.flush_state_at(now + STATE_DEBOUNCE_MS).unwrap();
        status.flush_state_at(now + 2 * STATE_DEBOUNCE_MS).unwrap();
        assert_eq!(states(), ["snapshotting", "waiting-for-redo", "mining"]);
        // Back to the state written last before it lasted: nothing to write.
        status.set(State::WaitingForRedo).unwrap();
        status.set(State::Mining).unwrap();
        status.flush_state_at(now + 5 * STATE_DEBOUNCE_MS).unwrap();
        assert_eq!(states().len(), 3);
        // Any other state is written at once.
        status.set(State::Stopping).unwrap();
        assert_eq!(states().last().map(String::as_str), Some("stopping"));
    }

    #[test]
    fn only_changes_are_events() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ops.jsonl");
        let status = Status::new(Arc::new(OpsLog::to_file(&path).unwrap()));
        status.set(State::Starting).unwrap();
        status.set(State::Mining).unwrap();
        status.set(State::Mining).unwrap();
        status
            .set_with(State::Snapshotting, Some("A.B"), Some(1), None)
            .unwrap();
        status.set_chunk(2);
        status
            .set_with(State::Snapshotting, Some("A.C"), Some(1), None)
            .unwrap();
        status.set(State::Stopping).unwrap();
        let events = crate::ops::read_events(&path).unwrap();
        let seen: Vec<(String, Option<String>)> = events
            .iter()
            .map(|e| {
                (
                    e["state"].as_str().unwrap().to_string(),
                    e["table"].as_str().map(str::to_string),
                )
            })
            .collect();
        assert_eq!(
            seen,
            vec![
                ("starting".into(), None),
                ("mining".into(), None),
                ("snapshotting".into(), Some("A.B".into())),
                ("snapshotting".into(), Some("A.C".into())),
                ("stopping".into(), None),
            ]
        );
        assert!(events.iter().all(|e| e["event"] == "capture-state"));
        assert_eq!(status.state(), State::Stopping);
        assert_eq!(status.board().table, None);
    }
}
