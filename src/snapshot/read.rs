//! Reading chunks: up to `cdc.snapshot.threads` at once, each on a session of its own, all at
//! one SCN taken just before them; failed chunks retried with a fresh SCN, chunks whose undo is
//! gone halved down to exactly 1,000 rows (a half below that is read at 1,000), then CDC-8001.

use super::plan::{Chunk, Planner};
use super::target::{Strategy, TableTarget};
use crate::errors::{CdcError, Result};
use crate::ops::{OpsLog, SnapshotMetrics};
use crate::settings::Settings;
use crate::source::model::{ColumnInfo, FetchedRow, FlashbackQuery, Scn};
use crate::source::{Connector, Session};
use serde_json::json;
use std::sync::{Arc, Mutex};

/// Smallest chunk the ORA-01555 halving goes down to.
pub const MIN_HALVED_ROWS: u64 = 1000;

/// What the reader tells its caller, in order.
#[derive(Debug)]
pub enum ReaderEvent<'a> {
    /// The next wave is due: its SCN is taken when this returns (a throttle waits here).
    Pace,
    /// A wave of chunks is about to be read at this SCN. The caller may say which columns the
    /// table has at it (from the change stream's schema history, streamed up to it); left
    /// `None`, the dictionary is asked.
    Wave(Scn, &'a mut Option<Vec<ColumnInfo>>),
    /// A chunk was read.
    Chunk(ReadChunk),
}

/// A chunk waiting to be read, with what its earlier attempts did.
#[derive(Debug, Clone)]
struct Pending {
    chunk: Chunk,
    /// Rows it is counted at (halved after ORA-01555).
    rows: u64,
    attempts: u32,
    retries: u32,
}

/// A chunk read at one SCN.
#[derive(Debug, Clone)]
pub struct ReadChunk {
    pub chunk: Chunk,
    pub scn: Scn,
    pub rows: Vec<FetchedRow>,
    /// The columns read, in the rows' order: the table's at `scn` (an ADD, DROP or RENAME
    /// COLUMN since the snapshot began shows here), cdc.columns.exclude left out.
    pub columns: Vec<ColumnInfo>,
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
    /// Every wave at this SCN (a blocking snapshot) instead of the current one.
    pub pin_scn: Option<Scn>,
    sessions: Vec<Option<Box<dyn Session>>>,
}

fn query(t: &TableTarget, columns: &[ColumnInfo], chunk: &Chunk, scn: Scn) -> FlashbackQuery {
    FlashbackQuery {
        table: t.info.name.clone(),
        columns: columns.iter().map(|c| c.name.clone()).collect(),
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
            pin_scn: None,
            sessions: (0..threads).map(|_| None).collect(),
        }
    }

    /// The coordinating session (planning, SCNs, retries).
    fn main(&mut self) -> Result<&mut dyn Session> {
        if self.sessions[0].is_none() {
            self.sessions[0] = Some(crate::source::connect_retrying(
                self.connector,
                &self.settings.connect,
            )?);
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

    /// Read the table's chunks from the planner, handing each to `emit` in chunk order, and
    /// telling it each wave's SCN before the wave is read (capture streams up to it first).
    /// Returns false when `stop` said to stop before the table was done.
    ///
    /// A failed chunk goes back to the front of the queue with the chunks after it (their reads
    /// are dropped), so every chunk is published right after the changes committed before its
    /// SCN: a retry never lets a chunk read at an older SCN follow newer changes.
    pub fn read_table(
        &mut self,
        t: &TableTarget,
        planner: &mut Planner,
        stop: &dyn Fn() -> bool,
        emit: &mut dyn FnMut(ReaderEvent) -> Result<()>,
    ) -> Result<bool> {
        // A wave's chunks are held in memory until published: never more than
        // cdc.snapshot.max.pending.chunks of them.
        let threads = self
            .sessions
            .len()
            .min(self.settings.snapshot.max_pending_chunks.max(1) as usize);
        let chunk_rows = self.settings.snapshot.chunk_rows;
        let retries = self.settings.snapshot.chunk_retries;
        let min_rows = MIN_HALVED_ROWS.min(chunk_rows);
        let table = t.info.name.to_string();
        let mut pending: std::collections::VecDeque<Pending> = std::collections::VecDeque::new();
        loop {
            if stop() {
                return Ok(false);
            }
            emit(ReaderEvent::Pace)?;
            if stop() {
                return Ok(false);
            }
            let scn = match self.pin_scn {
                Some(pinned) => pinned,
                None => self.on_main(|s| s.current_scn())?,
            };
            let want = threads.saturating_sub(pending.len());
            if want > 0 && !planner.is_done() {
                let more = self.on_main(|s| planner.next(s, scn, want))?;
                pending.extend(more.into_iter().map(|chunk| Pending {
                    chunk,
                    rows: chunk_rows,
                    attempts: 0,
                    retries: 0,
                }));
            }
            if pending.is_empty() {
                return Ok(true);
            }
            let mut known = None;
            emit(ReaderEvent::Wave(scn, &mut known))?;
            let columns = match known {
                Some(c) => c,
                None => self.columns_now(t)?,
            };
            let n = threads.min(pending.len());
            let mut wave: Vec<Pending> = pending.drain(..n).collect();
            let chunks: Vec<Chunk> = wave.iter().map(|p| p.chunk.clone()).collect();
            let results = self.read_wave(t, &columns, &chunks, scn);
            let last_wave = planner.is_done() && pending.is_empty();
            let count = wave.len();
            let mut failed: Option<(usize, CdcError)> = None;
            for (i, result) in results.into_iter().enumerate() {
                wave[i].attempts += 1;
                match result {
                    Ok(rows) => emit(ReaderEvent::Chunk(ReadChunk {
                        chunk: wave[i].chunk.clone(),
                        scn,
                        rows,
                        columns: columns.clone(),
                        attempts: wave[i].attempts,
                        is_final: last_wave && i + 1 == count,
                    }))?,
                    Err(e) => {
                        failed = Some((i, e));
                        break;
                    }
                }
            }
            let Some((i, e)) = failed else { continue };
            self.count_retry();
            let mut item = wave[i].clone();
            let mut back: Vec<Pending> = Vec::new();
            match e {
                CdcError::SnapshotTooOld { .. }
                | CdcError::LobSnapshotTooOld { .. }
                | CdcError::InvalidScn { .. } => {
                    // Halved, but never below the floor: a 1,500-row chunk is read again at
                    // 1,000 rows; only a chunk already at the floor gives up.
                    let half = (item.rows / 2).max(min_rows);
                    if item.rows <= min_rows {
                        self.ops.emit(
                            "snapshot-chunk-failed",
                            json!({"table": table, "chunk": item.chunk.describe(), "code": e.code().info().code, "reason": e.to_string()}),
                        )?;
                        return Err(CdcError::ChunkFailed {
                            table,
                            chunk: item.chunk.describe(),
                            reason: format!(
                                "{e}; the chunk cannot be halved below {min_rows} rows"
                            ),
                        });
                    }
                    let split = self.on_main(|s| {
                        let scn = s.current_scn()?;
                        planner.split(&item.chunk, half, s, scn)
                    })?;
                    let into: Vec<String> = match &split {
                        Some((a, b)) => vec![a.describe(), b.describe()],
                        None => vec![item.chunk.describe()],
                    };
                    self.ops.emit(
                        "snapshot-chunk-retry",
                        json!({"table": table, "chunk": item.chunk.describe(), "code": e.code().info().code, "action": "halve", "rows": half, "into": into}),
                    )?;
                    match split {
                        Some((a, b)) => {
                            back.push(Pending {
                                chunk: a,
                                rows: half,
                                ..item.clone()
                            });
                            back.push(Pending {
                                chunk: b,
                                rows: half,
                                ..item
                            });
                        }
                        // Fewer rows than a half: the same range again, counted at half the size.
                        None => back.push(Pending { rows: half, ..item }),
                    }
                }
                // What a retry cannot change: a missing grant, a container out of reach.
                CdcError::UnknownTable { .. }
                | CdcError::Settings { .. }
                | CdcError::UnsupportedType { .. }
                | CdcError::Privilege { .. }
                | CdcError::ContainerUnreachable(_) => return Err(e),
                other => {
                    item.retries += 1;
                    if item.retries > retries {
                        self.ops.emit(
                            "snapshot-chunk-failed",
                            json!({"table": table, "chunk": item.chunk.describe(), "code": other.code().info().code, "reason": other.to_string()}),
                        )?;
                        return Err(CdcError::ChunkFailed {
                            table,
                            chunk: item.chunk.describe(),
                            reason: format!("{other}; gave up after {retries} retries"),
                        });
                    }
                    self.ops.emit(
                        "snapshot-chunk-retry",
                        json!({"table": table, "chunk": item.chunk.describe(), "code": other.code().info().code, "action": "retry", "retry": item.retries}),
                    )?;
                    back.push(item);
                }
            }
            // The failed chunk (or its halves) first, then the rest of the wave, then the queue.
            back.extend(wave.drain(i + 1..));
            for p in back.into_iter().rev() {
                pending.push_front(p);
            }
        }
    }

    /// The table's columns from the dictionary now, read after the wave's SCN was taken: if
    /// its DDL is newer than that SCN the read fails with ORA-01466 and the chunks are read
    /// again at a fresh SCN, so the columns a successful read selects are the ones at its SCN.
    /// Columns cdc.columns.exclude names stay out; a table the dictionary no longer has keeps
    /// the columns it was planned with (its read fails on its own).
    fn columns_now(&mut self, t: &TableTarget) -> Result<Vec<ColumnInfo>> {
        let name = t.info.name.clone();
        let now = self.on_main(|s| s.table_columns(&name))?;
        Ok(match now {
            Some(cols) => t.read_columns(&cols),
            None => t.columns.clone(),
        })
    }

    /// Read a wave of chunks in parallel at `scn`, each on its own session.
    fn read_wave(
        &mut self,
        t: &TableTarget,
        columns: &[ColumnInfo],
        wave: &[Chunk],
        scn: Scn,
    ) -> Vec<Result<Vec<FetchedRow>>> {
        let connector = self.connector;
        let policy = &self.settings.connect;
        std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .sessions
                .iter_mut()
                .zip(wave)
                .map(|(slot, chunk)| {
                    let q = query(t, columns, chunk, scn);
                    scope.spawn(move || {
                        if slot.is_none() {
                            *slot = Some(crate::source::connect_retrying(connector, policy)?);
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
}
