//! Snapshots: each captured table cut into chunks ([`plan`]), read `AS OF SCN` in parallel
//! ([`read`]; the next wave while the last is published), published through a [`ChunkSink`],
//! progress stored in the offsets after every acknowledged chunk so a restart re-reads only
//! what was not acknowledged (a wave read but not published is read again).

pub mod plan;
pub mod policies;
pub mod read;
pub mod target;

use crate::crashpoint::Point;
use crate::errors::Result;
use crate::offsets::{Skipped, SnapshotState, TableProgress, TableState};
use crate::ops::{OpsLog, SnapshotMetrics};
use crate::settings::Settings;
use cdc_core::session::Connector;
use read::{ReadChunk, Reader, ReaderEvent};
use serde_json::json;
use std::sync::{Arc, Mutex};
use target::{Decision, TableTarget};

/// Progress reporting; the CLI draws bars, tests and embedders can ignore it.
pub trait Progress: Send + Sync {
    /// The snapshot reads `total` tables, `done` of them already read by an earlier run.
    fn tables_planned(&self, _total: u64, _done: u64) {}
    fn table_started(&self, table: &str, estimated_rows: Option<u64>, rows_done: u64);
    fn rows_read(&self, table: &str, rows: u64);
    fn table_finished(&self, table: &str, rows: u64);
    /// Capture's status board, every few tens of milliseconds while capture runs (the
    /// terminal's status line).
    fn capture_status(&self, _board: &crate::status::Board) {}
}

pub struct NoProgress;

impl Progress for NoProgress {
    fn table_started(&self, _: &str, _: Option<u64>, _: u64) {}
    fn rows_read(&self, _: &str, _: u64) {}
    fn table_finished(&self, _: &str, _: u64) {}
}

/// Where chunks go. `publish` returns once the chunk is durable: only then is it acknowledged
/// in the offsets.
pub trait ChunkSink {
    /// The chunks of a wave read at `scn` come next (capture publishes the changes committed
    /// before it first). Called after the last chunk of the wave before is published: before
    /// the wave is read, or, when it was read while that one was published, after.
    fn wave(&mut self, _scn: cdc_core::model::Scn) -> Result<()> {
        Ok(())
    }

    /// The columns `t` has at `scn`, when the sink knows them (capture: from the schema history,
    /// after [`ChunkSink::wave`] streamed up to `scn`), cdc.columns.exclude left out; `None`
    /// has the reader ask the dictionary.
    fn columns(
        &mut self,
        _t: &TableTarget,
        _scn: cdc_core::model::Scn,
    ) -> Option<Vec<cdc_core::model::ColumnInfo>> {
        None
    }

    /// Before a wave's SCN is taken: true to be asked again (a throttle waits, and may stream
    /// meanwhile), false to read the wave.
    fn pace(&mut self, _t: &TableTarget) -> Result<bool> {
        Ok(false)
    }

    /// The next wave may be read now, while chunks of the last one are still to be published
    /// (true by default). False has the reader publish them first, then ask [`ChunkSink::pace`]:
    /// a sink whose pacing streams or waits says false while it would.
    fn ready(&mut self, _t: &TableTarget) -> Result<bool> {
        Ok(true)
    }

    /// Whether the sink marks the table's last record (Debezium's `last` /
    /// `last_in_data_collection`): the reader then finds the chunk that holds it
    /// ([`read::ReadChunk::last_rows`]), looking past a wave before handing it over.
    fn marks_last(&self) -> bool {
        false
    }

    /// Whether the sink writes each row's ROWID (a record's `row_id`): when not, the reader
    /// does not select it.
    fn writes_row_ids(&self) -> bool {
        true
    }

    /// Whether a row the sink has must never come again (the export: each row once). Capture
    /// says no: a chunk read again is a read of the table at its SCN, right where it is
    /// published. Decides a table resumed by ROWID whose segment moved since
    /// ([`resume_past_move`]).
    fn each_row_once(&self) -> bool {
        false
    }

    /// Whether each wave is published in step with a change stream (capture, streaming and not
    /// paused for a blocking snapshot): its SCN is then the one the stream can mine up to
    /// ([`cdc_core::session::Flashback::stream_read_scn`]), not always the current one.
    fn in_step_with_stream(&self) -> bool {
        false
    }

    /// `first_record`: the chunk's first row is the snapshot's first record; `last_record`: its
    /// last row is the snapshot's last (`chunk.last_rows` says whether it is the table's). A sink may take the chunk's rows (to free each as soon
    /// as it is written, while it is still in the cache); the caller counted them before. When
    /// it returns, the chunk is durable, and so is every chunk published before it: the caller
    /// acknowledges them (saves the state that counts them).
    fn publish(
        &mut self,
        t: &TableTarget,
        chunk: &mut ReadChunk,
        first_record: bool,
        last_record: bool,
        progress: &mut TableProgress,
    ) -> Result<()>;

    /// [`ChunkSink::publish`] of a chunk that more chunks of its wave follow at once: it need
    /// not be durable yet, the `publish` of the wave's last makes them all durable together (one
    /// fsync and one acknowledgement a wave, not one a chunk). The caller saves no state between
    /// the two. A sink that cannot wait makes the chunk durable now (the default).
    fn publish_unsynced(
        &mut self,
        t: &TableTarget,
        chunk: &mut ReadChunk,
        first_record: bool,
        last_record: bool,
        progress: &mut TableProgress,
    ) -> Result<()> {
        self.publish(t, chunk, first_record, last_record, progress)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Completed,
    Stopped,
}

pub struct Snapshot<'a> {
    pub connector: &'a dyn Connector,
    pub settings: &'a Settings,
    pub ops: &'a OpsLog,
    pub progress: &'a dyn Progress,
    pub metrics: Arc<Mutex<SnapshotMetrics>>,
    /// Read every chunk at this SCN instead of a fresh one per wave (a blocking snapshot: the
    /// stream is paused there).
    pub pin_scn: Option<cdc_core::model::Scn>,
    /// The signal that started this snapshot: its id goes into every ops event.
    pub signal: Option<String>,
    /// The whole run told to stop (capture's stop, the export's Ctrl-C), unlike `run`'s `stop`,
    /// which also pauses a snapshot for a signal: a login the snapshot is retrying (a database
    /// restarting, a lost session the session limit still counts) gives up at once with
    /// [`crate::errors::CdcError::StoppedReconnecting`], which the caller ends as a stop, the
    /// state as last saved.
    pub shutdown: Option<crate::source::Stop<'a>>,
}

/// A table resumed at a ROWID (`resume`) whose data object is none of the segments it is
/// planned over now: the segment moved (ALTER TABLE … MOVE, partition maintenance, TRUNCATE)
/// after the chunks before it were published, and every ROWID changed with it, so the resume
/// point places nothing and the new segments are read whole (read/moved.rs says why no finer
/// cut exists for a keyless table). Rows published before come again: right for capture (each
/// a read of the table at its chunk's SCN), not for a sink that has each row once (the
/// export), which stops with CDC-8009 rather than write rows twice.
fn resume_past_move(
    table: &str,
    planner: &plan::Planner,
    resume: Option<&crate::offsets::ResumePoint>,
    each_row_once: bool,
) -> Result<()> {
    let (Some(crate::offsets::ResumePoint::Rowid(next)), Some(now)) =
        (resume, planner.data_objects())
    else {
        return Ok(());
    };
    let Ok(next) = cdc_core::rowid::RowId::decode(next) else {
        return Ok(());
    };
    if !each_row_once || now.is_empty() || now.contains(&next.data_object) {
        return Ok(());
    }
    let list = |o: &mut dyn Iterator<Item = u32>| {
        format!(
            "[{}]",
            o.map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
        )
    };
    Err(crate::errors::CdcError::SegmentsMoved {
        table: table.to_string(),
        planned: list(&mut std::iter::once(next.data_object)),
        now: list(&mut now.iter().copied()),
    })
}

impl Snapshot<'_> {
    fn emit(&self, event: &str, mut fields: serde_json::Value) -> Result<()> {
        if let (Some(id), Some(obj)) = (&self.signal, fields.as_object_mut()) {
            obj.insert("signal".into(), json!(id));
        }
        self.ops.emit(event, fields)
    }

    /// Read every captured table not done yet in `state`, saving it after each chunk (the
    /// caller puts it where it belongs: the offsets' initial snapshot, a signal snapshot, an
    /// export).
    pub fn run(
        &self,
        decisions: &[Decision],
        state: &mut SnapshotState,
        save: &mut dyn FnMut(&SnapshotState) -> Result<()>,
        sink: &mut dyn ChunkSink,
        stop: &dyn Fn() -> bool,
    ) -> Result<Outcome> {
        let started = std::time::Instant::now();
        // A state that already lists tables was started by an earlier run.
        let resumed = !state.order.is_empty();
        for d in decisions {
            match d {
                Decision::Capture(t) => {
                    let name = t.name().to_string();
                    if !state.order.contains(&name) {
                        state.order.push(name.clone());
                    }
                    state
                        .tables
                        .entry(name)
                        .or_insert_with(|| TableProgress::new(t.strategy.name()));
                }
                Decision::Skip { table, reason } => {
                    if !state.skipped.iter().any(|s| s.table == table.to_string()) {
                        state.skipped.push(Skipped {
                            table: table.to_string(),
                            reason: reason.clone(),
                        });
                    }
                }
            }
        }
        let captured: Vec<&TableTarget> = decisions
            .iter()
            .filter_map(|d| match d {
                Decision::Capture(t) => Some(t.as_ref()),
                Decision::Skip { .. } => None,
            })
            .collect();
        let remaining = |s: &SnapshotState| {
            s.tables
                .values()
                .filter(|t| t.state != TableState::Done)
                .count() as u64
        };
        if let Ok(mut m) = self.metrics.lock() {
            m.running = true;
            m.tables_total = captured.len() as u64;
            m.tables_remaining = remaining(state);
        }
        let total = captured.len() as u64;
        self.progress
            .tables_planned(total, total.saturating_sub(remaining(state)));
        save(state)?;
        self.emit(
            "snapshot-started",
            json!({"tables": captured.iter().map(|t| t.name().to_string()).collect::<Vec<_>>(), "resumed": resumed}),
        )?;
        let mut reader = Reader::new(
            self.connector,
            self.settings,
            self.ops,
            self.metrics.clone(),
        );
        reader.pin_scn = self.pin_scn;
        reader.shutdown = self.shutdown;
        reader.marks = sink.marks_last();
        reader.row_ids = sink.writes_row_ids();
        reader.each_row_once = sink.each_row_once();
        reader.in_step = sink.in_step_with_stream();
        let last_index = captured.len().saturating_sub(1);
        // Chunks published but not yet durable (more of their wave came right after): their
        // `snapshot-chunk-done` events and rows, given once the wave's last makes them durable
        // and the state that counts them is saved.
        let mut unacked: Vec<(serde_json::Value, u64)> = Vec::new();
        for (i, t) in captured.iter().enumerate() {
            let name = t.name().to_string();
            let entry = table_entry(state, &name);
            if entry.state == TableState::Done {
                continue;
            }
            let resume = entry.next.clone();
            let rows_before = entry.rows;
            // Nothing waits to be published: the throttle may wait (and stream) before the
            // table's first SCN, which is taken while the table is planned.
            while !stop() && sink.pace(t)? {}
            let planned = reader.planner(t, resume.as_ref())?;
            resume_past_move(&name, &planned.0, resume.as_ref(), sink.each_row_once())?;
            table_entry(state, &name).state = TableState::InProgress;
            self.emit(
                "snapshot-table-started",
                json!({"table": name, "strategy": t.strategy.name(), "reason": t.reason, "method": planned.0.describe(), "resumed_at": resume}),
            )?;
            self.progress
                .table_started(&name, t.info.stats.num_rows, rows_before);
            let completed = reader.read_table(t, planned, stop, &mut |ev: ReaderEvent| {
                let mut rc: ReadChunk = match ev {
                    ReaderEvent::Pace => {
                        while !stop() && sink.pace(t)? {}
                        return Ok(());
                    }
                    ReaderEvent::Overlap(may) => {
                        *may = sink.ready(t)?;
                        return Ok(());
                    }
                    ReaderEvent::Wave(scn, columns) => {
                        sink.wave(scn)?;
                        *columns = sink.columns(t, scn);
                        return Ok(());
                    }
                    ReaderEvent::Chunk(rc) => rc,
                };
                let rows = rc.rows.len() as u64;
                let first = state.records == 0 && rows > 0;
                // The last table's last chunk with rows (its last chunks may be empty).
                let last = i == last_index && rc.last_rows;
                let entry = table_entry(state, &name);
                let durable = rc.wave_rest == 0;
                match durable {
                    true => sink.publish(t, &mut rc, first, last, entry)?,
                    false => sink.publish_unsynced(t, &mut rc, first, last, entry)?,
                }
                crate::crashpoint::hit(Point::SnapshotChunkPublished)?;
                entry.chunks += 1;
                entry.rows += rows;
                entry.chunk_scns.push(rc.scn);
                entry.done_after(rc.is_final);
                if let Some(next) = rc.chunk.resume_after() {
                    entry.next = Some(next);
                }
                let chunk_no = entry.chunks;
                state.records += rows;
                unacked.push((
                    json!({"table": name, "chunk": chunk_no, "range": rc.chunk.describe(), "scn": rc.scn, "rows": rows, "attempts": rc.attempts}),
                    rows,
                ));
                if !durable {
                    return Ok(());
                }
                save(state)?;
                for (event, rows) in unacked.drain(..) {
                    self.emit("snapshot-chunk-done", event)?;
                    if let Ok(mut m) = self.metrics.lock() {
                        m.chunks_done += 1;
                        *m.rows_scanned.entry(name.clone()).or_default() += rows;
                    }
                    self.progress.rows_read(&name, rows);
                }
                Ok(())
            })?;
            // A wave's chunks come one after the other, its last durable: a table ends (or
            // stops) between waves, never with chunks the state would count before they are.
            debug_assert!(unacked.is_empty(), "chunks left unacknowledged");
            if !completed {
                save(state)?;
                return Ok(Outcome::Stopped);
            }
            let entry = table_entry(state, &name);
            entry.state = TableState::Done;
            let rows = entry.rows;
            save(state)?;
            if let Ok(mut m) = self.metrics.lock() {
                m.tables_remaining = remaining(state);
            }
            self.emit("snapshot-table-done", json!({"table": name, "rows": rows}))?;
            self.progress.table_finished(&name, rows);
        }
        state.completed = true;
        let (rows, skipped) = (state.records, state.skipped.clone());
        save(state)?;
        if let Ok(mut m) = self.metrics.lock() {
            m.running = false;
            m.duration_ms = started.elapsed().as_millis() as u64;
        }
        self.emit(
            "snapshot-complete",
            json!({"tables": captured.len(), "rows": rows, "skipped": skipped, "duration_ms": started.elapsed().as_millis() as u64}),
        )?;
        Ok(Outcome::Completed)
    }
}

fn table_entry<'s>(state: &'s mut SnapshotState, name: &str) -> &'s mut TableProgress {
    state
        .tables
        .entry(name.to_string())
        .or_insert_with(|| TableProgress::new("key"))
}

#[cfg(test)]
mod ddl_tests;
#[cfg(test)]
mod in_step_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod wave_tests;
