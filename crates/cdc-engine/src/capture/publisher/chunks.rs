//! The publisher as the snapshot's chunk sink: the throttle's pace (streaming while it waits),
//! each wave's SCN reached by the stream first, and a chunk's rows published at that place.

use super::Publisher;
use crate::capture::sequencer::Sequencer;
use crate::capture::throttle;
use crate::crashpoint::Point;
use crate::errors::Result;
use crate::offsets::TableProgress;
use crate::record::{now_ms, RecordParts, SnapshotMarker, TableContext, TableSchemas};
use crate::snapshot::read::ReadChunk;
use crate::snapshot::target::TableTarget;
use crate::snapshot::ChunkSink;
use cdc_core::model::Scn;

impl ChunkSink for Publisher<'_> {
    /// The next wave is read while this one is published unless a throttle limits the table:
    /// then its wait (which streams) comes first, as before every wave.
    fn ready(&mut self, t: &TableTarget) -> Result<bool> {
        let b = self.status.board();
        let limited = b.throttle.max_rows_per_second > 0
            || b.throttle
                .table_max_rows_per_second
                .get(&t.name().to_string())
                .is_some_and(|n| *n > 0);
        Ok(!limited)
    }

    /// The initial snapshot's records are `first` / `true` / `last` (and the tables' own first
    /// and last); a signal's are all `incremental`.
    fn marks_last(&self) -> bool {
        self.signal_snapshot.is_none()
    }

    /// Streaming, and not paused for a blocking snapshot (whose waves are all read at its
    /// pinned SCN).
    fn in_step_with_stream(&self) -> bool {
        self.streaming && self.signal_snapshot != Some(crate::signal::SnapshotKind::Blocking)
    }

    fn pace(&mut self, t: &TableTarget) -> Result<bool> {
        let limits = {
            let b = self.status.board();
            throttle::Limits {
                all: b.throttle.max_rows_per_second,
                tables: b.throttle.table_max_rows_per_second.clone(),
            }
        };
        let wait = self
            .throttle
            .wait(&limits, &t.name().to_string(), std::time::Instant::now());
        if wait.is_zero() {
            return Ok(false);
        }
        let started = std::time::Instant::now();
        std::thread::sleep(wait.min(std::time::Duration::from_millis(
            self.settings.stream.poll_ms,
        )));
        let blocking = self.signal_snapshot == Some(crate::signal::SnapshotKind::Blocking);
        if self.streaming && !blocking {
            // Streaming goes on while the snapshot waits; the next wave's SCN is taken after.
            let current = self.current_scn()?;
            let end = self.minable(current.saturating_sub(1))?;
            self.stream_until(end)?;
        }
        self.status.board().throttle.wait_seconds += started.elapsed().as_secs_f64();
        Ok(true)
    }

    /// While streaming, the schema history knows the table's layout at `scn`: every DDL
    /// committed before it was streamed by [`ChunkSink::wave`] (a blocking snapshot streamed up
    /// to its pinned SCN before it began). Without a stream (snapshot_only) the reader asks the
    /// dictionary.
    fn columns(&mut self, t: &TableTarget, scn: Scn) -> Option<Vec<cdc_core::model::ColumnInfo>> {
        if !self.streaming {
            return None;
        }
        let schema = self.pipeline.catalog().tables.get(t.name())?;
        Some(t.read_columns(schema.columns_at(scn)))
    }

    fn wave(&mut self, scn: Scn) -> Result<()> {
        crate::crashpoint::hit(Point::PublisherWave)?;
        let wave_scn = scn;
        let scn = crate::crashpoint::wave_catch_up_to(scn);
        let blocking = self.signal_snapshot == Some(crate::signal::SnapshotKind::Blocking);
        if self.streaming && !blocking {
            // Everything committed before the chunks' SCN goes first.
            self.stream_until(Sequencer::through_before_chunk(scn))?;
            debug_assert!(self.sequencer.may_publish_chunk(scn));
            // And nothing committed after it: a change published before a chunk read AS OF an
            // earlier SCN would leave a latest-per-key consumer with the chunk's older row.
            // Checked in release builds too (CDC-9002): stopping costs a restart, going on a
            // consumer's convergence. (`wave_scn`: the simulation's broken-rule drill moves
            // `scn`, not this.)
            self.sequencer.check_not_past_chunk(wave_scn)?;
        }
        Ok(())
    }

    fn publish(
        &mut self,
        t: &TableTarget,
        chunk: &mut ReadChunk,
        first_record: bool,
        last_record: bool,
        progress: &mut TableProgress,
    ) -> Result<()> {
        self.write_chunk(t, chunk, first_record, last_record, progress)?;
        crate::crashpoint::hit(Point::PublisherChunkCommitted)?;
        self.output.acknowledge()?;
        self.refresh();
        Ok(())
    }

    /// The wave's last chunk comes next, and its commit makes this one durable with it: one
    /// commit (an fsync, or a Kafka transaction) a wave, not one a chunk. Nothing is streamed
    /// between a wave's chunks, so no other commit can make this chunk's lines durable before
    /// the state that counts them is saved.
    fn publish_unsynced(
        &mut self,
        t: &TableTarget,
        chunk: &mut ReadChunk,
        first_record: bool,
        last_record: bool,
        progress: &mut TableProgress,
    ) -> Result<()> {
        self.write_chunk(t, chunk, first_record, last_record, progress)?;
        crate::crashpoint::hit(Point::PublisherChunkWritten)
    }
}

impl Publisher<'_> {
    /// A chunk's rows as snapshot records, written to the sink and not yet committed.
    fn write_chunk(
        &mut self,
        t: &TableTarget,
        chunk: &mut ReadChunk,
        first_record: bool,
        last_record: bool,
        progress: &mut TableProgress,
    ) -> Result<()> {
        let settings = self.settings;
        let db_name = self.pipeline.db_name().to_string();
        let ctx = TableContext {
            topic_prefix: &settings.sink.topic_prefix,
            db: t.name().pdb.as_deref().unwrap_or(&db_name),
            table: t.name(),
            // The columns the chunk was read with: the table's at its SCN.
            columns: &chunk.columns,
            key_columns: &t.record_key,
        };
        let ts = now_ms();
        let n = chunk.rows.len();
        if n == 0 {
            crate::crashpoint::hit(Point::PublisherChunkEmpty)?;
        }
        let (table_first, table_last) = (progress.rows == 0, chunk.last_rows);
        let schemas = ctx.schemas(&settings.record, self.pipeline.with_pdb());
        // Where a sink that cannot take a record's parts in place has them made first.
        let mut buf = Vec::with_capacity(1024);
        for (i, row) in chunk.rows.iter().enumerate() {
            let marker = match self.signal_snapshot {
                Some(_) => SnapshotMarker::Incremental,
                None => SnapshotMarker::in_table(
                    first_record,
                    last_record,
                    table_first,
                    table_last,
                    i,
                    n,
                ),
            };
            let fmt = &settings.record;
            let parts = RecordParts {
                topic: &schemas.topic,
                headers: TableSchemas::headers(marker),
                key: &mut |out| ctx.write_snapshot_key(out, fmt, &schemas, row),
                value: &mut |out| {
                    ctx.write_snapshot_value(out, fmt, &schemas, row, chunk.scn, marker, ts);
                    true
                },
            };
            self.output.write_parts(parts, &mut buf)?;
        }
        self.snapshot_rows += n as u64;
        self.throttle.count(&t.name().to_string(), n as u64);
        Ok(())
    }
}
