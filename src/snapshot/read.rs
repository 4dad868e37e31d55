//! Reading chunks: up to `cdc.snapshot.threads` at once, each on a session of its own, all at
//! one SCN taken just before them; failed chunks retried with a fresh SCN, chunks whose undo is
//! gone halved down to 1,000 rows, then CDC-8001.

use super::plan::{Chunk, Planner};
use super::target::{Strategy, TableTarget};
use crate::errors::{CdcError, Result};
use crate::ops::{OpsLog, SnapshotMetrics};
use crate::settings::Settings;
use crate::source::model::{FetchedRow, FlashbackQuery, Scn};
use crate::source::{Connector, Session};
use serde_json::json;
use std::sync::{Arc, Mutex};

/// Smallest chunk the ORA-01555 halving goes down to.
pub const MIN_HALVED_ROWS: u64 = 1000;

/// A chunk read at one SCN.
#[derive(Debug, Clone)]
pub struct ReadChunk {
    pub chunk: Chunk,
    pub scn: Scn,
    pub rows: Vec<FetchedRow>,
    /// Reads it took (1 when the first one succeeded).
    pub attempts: u32,
    /// The table's last chunk.
    pub is_final: bool,
}

pub struct Reader<'a> {
    pub connector: &'a dyn Connector,
    pub settings: &'a Settings,
    pub ops: &'a OpsLog,
    pub metrics: Arc<Mutex<SnapshotMetrics>>,
    sessions: Vec<Option<Box<dyn Session>>>,
}

fn query(t: &TableTarget, chunk: &Chunk, scn: Scn) -> FlashbackQuery {
    FlashbackQuery {
        table: t.info.name.clone(),
        columns: t.columns.iter().map(|c| c.name.clone()).collect(),
        key_columns: match &t.strategy {
            Strategy::Key(k) => k.clone(),
            _ => Vec::new(),
        },
        scn,
        range: chunk.range(),
        filter: t.filter.clone(),
    }
}

fn read_on(session: &mut dyn Session, q: &FlashbackQuery) -> Result<Vec<FetchedRow>> {
    let mut rows = Vec::new();
    session.read_as_of(q, &mut |r| {
        rows.push(r);
        Ok(())
    })?;
    Ok(rows)
}

impl<'a> Reader<'a> {
    pub fn new(
        connector: &'a dyn Connector,
        settings: &'a Settings,
        ops: &'a OpsLog,
        metrics: Arc<Mutex<SnapshotMetrics>>,
    ) -> Reader<'a> {
        let threads = settings.snapshot.threads.max(1) as usize;
        Reader {
            connector,
            settings,
            ops,
            metrics,
            sessions: (0..threads).map(|_| None).collect(),
        }
    }

    /// The coordinating session (planning, SCNs, retries).
    fn main(&mut self) -> Result<&mut dyn Session> {
        if self.sessions[0].is_none() {
            self.sessions[0] = Some(self.connector.connect()?);
        }
        match self.sessions[0].as_deref_mut() {
            Some(s) => Ok(s),
            None => Err(CdcError::ConnectionLost("no session".into())),
        }
    }

    /// Run `f` on the coordinating session, reconnecting after a lost connection (up to
    /// `cdc.snapshot.chunk.retries` times).
    fn on_main<T>(&mut self, mut f: impl FnMut(&mut dyn Session) -> Result<T>) -> Result<T> {
        let mut lost = 0u32;
        loop {
            let r = match self.main() {
                Ok(s) => f(s),
                Err(e) => Err(e),
            };
            match r {
                Err(CdcError::ConnectionLost(m)) if lost < self.settings.snapshot.chunk_retries => {
                    lost += 1;
                    self.count_retry();
                    tracing::warn!("connection lost ({m}); reconnecting ({lost})");
                    self.sessions[0] = None;
                }
                other => return other,
            }
        }
    }

    fn count_retry(&self) {
        if let Ok(mut m) = self.metrics.lock() {
            m.retries += 1;
        }
    }

    /// Start planning a table.
    pub fn planner(
        &mut self,
        t: &TableTarget,
        resume: Option<&crate::offsets::ResumePoint>,
    ) -> Result<Planner> {
        let rows = self.settings.snapshot.chunk_rows;
        self.on_main(|s| {
            let scn = s.current_scn()?;
            Planner::new(t, rows, resume, s, scn)
        })
    }

    /// Read the table's chunks from the planner, handing each to `emit` in chunk order.
    /// Returns false when `stop` said to stop before the table was done.
    pub fn read_table(
        &mut self,
        t: &TableTarget,
        planner: &mut Planner,
        stop: &dyn Fn() -> bool,
        emit: &mut dyn FnMut(ReadChunk) -> Result<()>,
    ) -> Result<bool> {
        let threads = self.sessions.len();
        let chunk_rows = self.settings.snapshot.chunk_rows;
        let mut pending: std::collections::VecDeque<Chunk> = std::collections::VecDeque::new();
        loop {
            if stop() {
                return Ok(false);
            }
            let scn = self.on_main(|s| s.current_scn())?;
            let want = threads.saturating_sub(pending.len());
            if want > 0 && !planner.is_done() {
                pending.extend(self.on_main(|s| planner.next(s, scn, want))?);
            }
            if pending.is_empty() {
                return Ok(true);
            }
            let n = threads.min(pending.len());
            let wave: Vec<Chunk> = pending.drain(..n).collect();
            let results = self.read_wave(t, &wave, scn);
            let last_wave = planner.is_done() && pending.is_empty();
            let count = wave.len();
            for (i, (chunk, result)) in wave.into_iter().zip(results).enumerate() {
                let is_last = last_wave && i + 1 == count;
                let done = match result {
                    Ok(rows) => vec![ReadChunk {
                        chunk,
                        scn,
                        rows,
                        attempts: 1,
                        is_final: false,
                    }],
                    Err(e) => self.recover(t, planner, chunk, chunk_rows, e)?,
                };
                let parts = done.len();
                for (j, mut c) in done.into_iter().enumerate() {
                    c.is_final = is_last && j + 1 == parts;
                    emit(c)?;
                }
            }
        }
    }

    /// Read a wave of chunks in parallel at `scn`, each on its own session.
    fn read_wave(
        &mut self,
        t: &TableTarget,
        wave: &[Chunk],
        scn: Scn,
    ) -> Vec<Result<Vec<FetchedRow>>> {
        let connector = self.connector;
        std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .sessions
                .iter_mut()
                .zip(wave)
                .map(|(slot, chunk)| {
                    let q = query(t, chunk, scn);
                    scope.spawn(move || {
                        if slot.is_none() {
                            *slot = Some(connector.connect()?);
                        }
                        let Some(s) = slot.as_deref_mut() else {
                            return Err(CdcError::ConnectionLost("no session".into()));
                        };
                        let r = read_on(s, &q);
                        if matches!(r, Err(CdcError::ConnectionLost(_))) {
                            *slot = None; // reconnect next time
                        }
                        r
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(CdcError::Database("a chunk reader thread panicked".into()))
                    })
                })
                .collect()
        })
    }

    /// A chunk failed: retry it with fresh SCNs, halving it while its undo is gone.
    fn recover(
        &mut self,
        t: &TableTarget,
        planner: &Planner,
        chunk: Chunk,
        rows_estimate: u64,
        first: CdcError,
    ) -> Result<Vec<ReadChunk>> {
        let retries = self.settings.snapshot.chunk_retries;
        let min_rows = MIN_HALVED_ROWS.min(self.settings.snapshot.chunk_rows);
        let table = t.info.name.to_string();
        let mut work = std::collections::VecDeque::from([(chunk, rows_estimate, Some(first))]);
        let mut out = Vec::new();
        let mut retried = 0u32;
        while let Some((c, est, mut err)) = work.pop_front() {
            let mut attempts = 1u32;
            loop {
                let e = match err.take() {
                    Some(e) => e,
                    None => {
                        attempts += 1;
                        let read = self.on_main(|s| {
                            let scn = s.current_scn()?;
                            Ok((scn, read_on(s, &query(t, &c, scn))))
                        })?;
                        let (scn, read) = read;
                        match read {
                            Ok(rows) => {
                                out.push(ReadChunk {
                                    chunk: c.clone(),
                                    scn,
                                    rows,
                                    attempts,
                                    is_final: false,
                                });
                                break;
                            }
                            Err(e) => e,
                        }
                    }
                };
                self.count_retry();
                match e {
                    CdcError::SnapshotTooOld { .. } | CdcError::InvalidScn { .. } => {
                        let half = est / 2;
                        let split = if half >= min_rows {
                            self.on_main(|s| {
                                let scn = s.current_scn()?;
                                planner.split(&c, est, s, scn)
                            })?
                        } else {
                            None
                        };
                        if split.is_none() && half >= min_rows {
                            // Fewer rows than a half: read the same range again, now counted
                            // at half the size, with a fresh SCN.
                            self.ops.emit(
                                "snapshot-chunk-retry",
                                json!({"table": table, "chunk": c.describe(), "code": e.code().info().code, "action": "halve", "rows": half, "into": [c.describe()]}),
                            )?;
                            work.push_front((c.clone(), half, None));
                            break;
                        }
                        let Some((a, b)) = split else {
                            self.ops.emit(
                                "snapshot-chunk-failed",
                                json!({"table": table, "chunk": c.describe(), "code": e.code().info().code, "reason": e.to_string()}),
                            )?;
                            return Err(CdcError::ChunkFailed {
                                table,
                                chunk: c.describe(),
                                reason: format!(
                                    "{e}; the chunk cannot be halved below {min_rows} rows"
                                ),
                            });
                        };
                        self.ops.emit(
                            "snapshot-chunk-retry",
                            json!({"table": table, "chunk": c.describe(), "code": e.code().info().code, "action": "halve", "rows": half, "into": [a.describe(), b.describe()]}),
                        )?;
                        work.push_front((b, half, None));
                        work.push_front((a, half, None));
                        break;
                    }
                    CdcError::UnknownTable { .. }
                    | CdcError::Settings { .. }
                    | CdcError::UnsupportedType { .. } => return Err(e),
                    other => {
                        retried += 1;
                        if matches!(other, CdcError::ConnectionLost(_)) {
                            self.sessions[0] = None;
                        }
                        if retried > retries {
                            self.ops.emit(
                                "snapshot-chunk-failed",
                                json!({"table": table, "chunk": c.describe(), "code": other.code().info().code, "reason": other.to_string()}),
                            )?;
                            return Err(CdcError::ChunkFailed {
                                table,
                                chunk: c.describe(),
                                reason: format!("{other}; gave up after {retries} retries"),
                            });
                        }
                        self.ops.emit(
                            "snapshot-chunk-retry",
                            json!({"table": table, "chunk": c.describe(), "code": other.code().info().code, "action": "retry", "retry": retried}),
                        )?;
                    }
                }
            }
        }
        Ok(out)
    }
}
