//! The publisher composes capture's streaming parts: the [`Miner`] mines LogMiner windows, the
//! [`TxPipeline`] buffers their rows and publishes each committed transaction, the
//! [`Sequencer`] says what may be published when (commit-SCN order, a snapshot chunk at its
//! place in it), and [`Output`] holds the sink and the positions acknowledged with it. The
//! seam between miner and pipeline is one window's rows: the publisher hands them over, mines
//! a window again from a transaction's START when one was seen from its middle, and makes the
//! sink durable when a stretch of windows is mined.

use super::miner::Miner;
use super::output::Output;
use super::pipeline::TxPipeline;
use super::sequencer::Sequencer;
use super::CaptureSummary;
use crate::crashpoint::Point;
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::offsets::Offsets;
use crate::record::OwnedRecord;
use crate::settings::Settings;
use crate::sink::RecordSink;
use crate::state::StateDir;
use crate::stream::buffer::TxStart;
use crate::stream::decode::Catalog;
use cdc_core::model::Scn;
use cdc_core::session::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

mod chunks;

pub use super::output::Positions;

pub struct Publisher<'a> {
    settings: &'a Settings,
    /// The mining session, its reconnects, the windows' rows.
    miner: Miner<'a>,
    /// The transaction buffer, decoding, change records, dead letters.
    pipeline: TxPipeline<'a>,
    /// The sink and the positions acknowledged with it.
    output: Output,
    /// The ordering rule, and how far the stream is mined and published.
    sequencer: Sequencer,
    /// When (ms) capture last looked at the current SCN and then published everything
    /// minable up to it: no change older than that waits ([`lag_ms`]).
    caught_up_ms: Option<i64>,
    streaming: bool,
    /// Snapshot records written (the pipeline counts the change records).
    snapshot_rows: u64,
    /// Set while a signal's snapshot runs: its records are marked `incremental`, and a blocking
    /// one reads with the stream paused (no streaming before its waves).
    signal_snapshot: Option<crate::signal::SnapshotKind>,
    /// Where the numbers behind the metrics go.
    status: super::status::Status,
    throttle: super::throttle::Throttle,
    /// SCNs mined in one window: cdc.stream.window.scn, less after a window passed a per-call
    /// limit of the database (CDC-5017).
    window: super::window::WindowSize,
    /// How far back to mine again for a transaction whose START was not mined and whose
    /// COMMIT row tells no usable START_SCN: doubled at each such step, reset when a call of
    /// [`Self::stream_until`] completes.
    walk_back: u64,
}

impl<'a> Publisher<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        connector: &'a dyn Connector,
        settings: &'a Settings,
        catalog: Catalog,
        sink: Box<dyn RecordSink>,
        offsets: &Offsets,
        db_name: &str,
        streaming: bool,
        state: &StateDir,
        status: super::status::Status,
        stop: crate::source::Stop<'a>,
    ) -> Result<Publisher<'a>> {
        let stream = offsets
            .stream
            .clone()
            .ok_or_else(|| CdcError::OffsetsDamaged {
                path: state.offsets(),
                message: "no stream position".into(),
            })?;
        let next = stream.resume_scn;
        {
            let mut b = status.board();
            b.throttle.max_rows_per_second = settings.snapshot.max_rows_per_second;
            b.throttle.table_max_rows_per_second = settings
                .snapshot
                .table_max_rows_per_second
                .iter()
                .map(|(t, n)| (t.to_string(), *n))
                .collect();
        }
        let pdbs: std::collections::BTreeSet<_> = catalog
            .tables
            .keys()
            .filter_map(|t| t.pdb.as_ref())
            .collect();
        // The naming stored at the first start ([`super::topics::settle`]).
        let with_pdb = offsets
            .topics
            .as_ref()
            .map_or_else(|| settings.record.topic_has_pdb(pdbs.len()), |t| t.pdb);
        // The window spools and the buffer's spill files share the state's spill directory.
        let spill_dir = state.path.join(super::SPILL_DIR);
        let miner = Miner::new(
            connector,
            settings,
            catalog.cdb,
            spill_dir.clone(),
            status.clone(),
            Some(stop),
        )?;
        Ok(Publisher {
            settings,
            miner,
            pipeline: TxPipeline::new(
                settings,
                catalog,
                db_name,
                with_pdb,
                state,
                spill_dir,
                status.clone(),
            )?,
            output: Output::new(
                sink,
                Positions {
                    stream,
                    sink: offsets.sink.clone(),
                },
                status.clone(),
                settings.faults.sink_delay_ms,
            ),
            sequencer: Sequencer::new(next),
            caught_up_ms: None,
            streaming,
            snapshot_rows: 0,
            signal_snapshot: None,
            status,
            throttle: Default::default(),
            window: super::window::WindowSize::new(
                settings.stream.window_scn,
                settings.stream.window_scn_max,
            ),
            walk_back: settings.stream.window_scn.max(1),
        })
    }

    pub fn positions(&self) -> Rc<RefCell<Positions>> {
        self.output.positions()
    }

    pub fn catalog(&self) -> &Catalog {
        self.pipeline.catalog()
    }

    /// Whether changes are streamed (not in snapshot_only).
    pub fn is_streaming(&self) -> bool {
        self.streaming
    }

    pub fn mined_to(&self) -> Scn {
        self.sequencer.mined_to()
    }

    /// Chunks published from now on belong to a signal's snapshot of this kind (None: the
    /// initial snapshot).
    pub fn set_signal_snapshot(&mut self, kind: Option<crate::signal::SnapshotKind>) {
        self.signal_snapshot = kind;
    }

    /// Everything minable up to the current SCN read at `looked_ms` is published.
    pub fn caught_up_at(&mut self, looked_ms: i64) {
        self.caught_up_ms = Some(looked_ms);
    }

    /// Records written this run: snapshot and change records.
    fn records(&self) -> u64 {
        self.snapshot_rows + self.pipeline.stats().records
    }

    /// The streaming metrics, as the `capture-metrics` ops event carries them.
    pub fn metrics(&self, current_scn: Scn) -> serde_json::Value {
        let waiting = is_waiting(self.status.board().state);
        let p = self.output.current();
        let (mined, piped) = (self.miner.stats(), self.pipeline.stats());
        let buffer = self.pipeline.buffer();
        let lag_ms = lag_ms(
            piped.last_commit_ms,
            self.caught_up_ms,
            waiting,
            cdc_core::civil::now_ms(),
        );
        serde_json::json!({
            "current_scn": current_scn,
            "mined_scn": self.sequencer.mined_to(),
            "published_commit_scn": p.stream.commit_scn,
            "lag_scns": current_scn.saturating_sub(p.stream.commit_scn),
            "lag_ms": lag_ms,
            "open_transactions": buffer.open_transactions(),
            "buffered_changes": buffer.buffered_rows(),
            "buffer_memory_bytes": buffer.memory_bytes(),
            "spilled_bytes": buffer.spilled_bytes(),
            "records": self.records(),
            "transactions": piped.transactions,
            "rows_mined": mined.rows_mined,
            "windows": mined.windows,
            "window_scns": self.window.scns(),
            "rows_captured": piped.rows_captured,
            "dead_letters": self.status.board().stream.dead_letters.clone(),
            "source_retries": self.status.board().stream.source_retries.clone(),
            "recovered": self.status.board().stream.recovered.clone(),
            "unknown_object_rows": self.status.board().stream.unknown_objects.clone(),
            "state_changes": self.status.board().state_changes,
        })
    }

    /// A snapshot starts (or resumes): the throttle counts afresh.
    pub fn reset_throttle(&mut self) {
        self.throttle.reset();
    }

    /// Put the streaming numbers on the status board (the metrics endpoint reads them there).
    fn refresh(&self) {
        let p = self.output.current();
        let (mined, piped) = (self.miner.stats(), self.pipeline.stats());
        let buffer = self.pipeline.buffer();
        let mut b = self.status.board();
        let waiting = is_waiting(b.state);
        let st = &mut b.stream;
        st.current_scn = mined.current;
        st.mined_scn = self.sequencer.mined_to();
        st.published_commit_scn = p.stream.commit_scn;
        st.lag_ms = lag_ms(
            piped.last_commit_ms,
            self.caught_up_ms,
            waiting,
            cdc_core::civil::now_ms(),
        );
        st.open_transactions = buffer.open_transactions() as u64;
        st.buffered_changes = buffer.buffered_rows() as u64;
        st.buffer_memory_bytes = buffer.memory_bytes();
        st.spilled_bytes = buffer.spilled_bytes();
        st.change_records = piped.records;
        st.snapshot_records = self.snapshot_rows;
        st.transactions = piped.transactions;
        st.mine_seconds = mined.mine_seconds;
        st.parse_seconds = piped.parse_seconds;
        (st.window_start_scn, st.window_end_scn) = mined.window;
        st.windows = mined.windows;
        st.rows_mined = mined.rows_mined;
        st.rows_captured = piped.rows_captured;
        st.dictionary_builds = mined.dictionary_builds;
    }

    /// A heartbeat record: progress for consumers while captured tables are idle.
    pub fn heartbeat(&mut self) -> Result<()> {
        let prefix = &self.settings.sink.topic_prefix;
        let commit = self.output.current().stream.commit_scn;
        let record = OwnedRecord::of_json(
            crate::record::envelope::heartbeat_topic(prefix),
            &serde_json::json!({"serverName": prefix}),
            &serde_json::json!({"ts_ms": cdc_core::civil::now_ms(), "scn": self.sequencer.mined_to().to_string(), "commit_scn": commit.to_string()}),
            Vec::new(),
        );
        self.output.write(&record.as_record())?;
        self.output.acknowledge()
    }

    pub fn summary(&self, offsets: &Offsets) -> CaptureSummary {
        CaptureSummary {
            records: self.records(),
            transactions: self.pipeline.stats().transactions,
            snapshot_rows: self.snapshot_rows,
            position: offsets.stream.clone(),
        }
    }

    /// The database's current SCN, asked once: for the metrics a run ends with, which must not
    /// hold up its end (a stop asked for while the database is gone would otherwise wait out
    /// cdc.database.reconnect.max.ms in [`Publisher::current_scn`]'s reconnects).
    pub fn current_scn_once(&mut self) -> Result<Scn> {
        let scn = self.miner.current_scn_once()?;
        self.refresh();
        Ok(scn)
    }

    /// The database's current SCN.
    pub fn current_scn(&mut self) -> Result<Scn> {
        let scn = self.miner.current_scn()?;
        self.refresh();
        Ok(scn)
    }

    /// Whether everything committed up to `target` is published: mined through it, or mined
    /// through the limit of a database gone quiet at or past it (nothing is committed at the
    /// SCN one past that limit, and later commits take higher ones).
    pub fn published_through(&mut self, target: Scn) -> Result<bool> {
        if self.sequencer.published_through(target, None) {
            return Ok(true);
        }
        let quiet = self.miner.quiet_through()?;
        Ok(self.sequencer.published_through(target, quiet))
    }

    /// `end`, or less when LogMiner can see redo only up to an earlier SCN.
    pub fn minable(&mut self, end: Scn) -> Result<Scn> {
        let limit = self.miner.mining_limit(self.sequencer.next_mine())?;
        Ok(limit.map_or(end, |l| l.min(end)))
    }

    /// Mine up to `end` and publish every transaction committed up to it; then make the sink
    /// durable and move the positions. Returns whether anything was mined. This waits until
    /// the redo up to `end` is minable (written by LGWR; on a downstream, shipped there): a
    /// chunk read at SCN s is published only after every change committed before s.
    pub fn stream_until(&mut self, end: Scn) -> Result<bool> {
        if !self.sequencer.has_to_mine(end) {
            return Ok(false);
        }
        self.miner.wait_minable(self.sequencer.next_mine(), end)?;
        self.miner.build_dictionary_at_switch()?;
        let host_offset = self.miner.host_offset_secs()?;
        let mut from = self.sequencer.next_mine();
        while from <= end {
            let to = end.min(from.saturating_add(self.window.scns() - 1));
            let rows = match self.miner.mine_window(from, to) {
                // One call read more than the database lets one call read (CPU_PER_CALL,
                // LOGICAL_READS_PER_CALL, …): the same SCNs in smaller windows, down to one.
                Err(e @ CdcError::CallLimit(_)) => match self.window.passed_limit(from, to) {
                    Some(scns) => {
                        self.status.mining_window_reduced((from, to), scns, &e)?;
                        continue;
                    }
                    None => return Err(e),
                },
                other => other?,
            };
            self.window_mined(rows.count());
            let started = std::time::Instant::now();
            let rewind = self.publish_window(rows, host_offset);
            self.pipeline
                .count_parse_seconds(started.elapsed().as_secs_f64());
            if let Some(start) = rewind? {
                // Mine again from its START; what was published meanwhile is skipped by position.
                tracing::info!("a transaction committed here began before mining did (at SCN {}): mining again from SCN {start}", self.sequencer.mined_from());
                self.pipeline.restart_buffer()?;
                self.sequencer.mine_again_from(start);
                from = start;
                continue;
            }
            from = to + 1;
        }
        crate::crashpoint::hit(Point::PublisherWindowMined)?;
        self.walk_back = self.settings.stream.window_scn.max(1);
        self.sequencer.mined_through(end);
        let sink = self.output.commit()?;
        let mut p = self.output.current_mut();
        p.stream.resume_scn = self
            .pipeline
            .buffer()
            .oldest_start()
            .map_or(end + 1, |s| s.min(end + 1));
        p.sink = Some(sink);
        drop(p);
        self.refresh();
        Ok(true)
    }

    /// The window mined `rows` rows: the next one's span (see [`super::window`]).
    fn window_mined(&mut self, rows: u64) {
        use super::window::Change;
        match self.window.mined(rows) {
            Some(Change::DenseGrew(scns)) => tracing::info!(
                "windows have passed the database's per-call limits for a while: mining {scns} SCNs at a time"
            ),
            // Both can happen every window: a quiet database's windows are all sparse.
            Some(Change::Stretched(scns)) => tracing::debug!(
                "the window mined {rows} rows: the next spans {scns} SCNs (cdc.stream.window.scn.max)"
            ),
            Some(Change::BackTo(scns)) => {
                tracing::debug!("the window mined {rows} rows: back to {scns} SCNs a window")
            }
            None => {}
        }
    }

    /// A window's rows through the pipeline, each committed transaction published. Returns the
    /// START SCN to mine again from when a transaction was seen from its middle (mined from
    /// after its START, e.g. after `offsets edit set-scn`): publishing it would lose its first
    /// changes.
    fn publish_window(
        &mut self,
        rows: super::miner::WindowRows,
        host_offset: i32,
    ) -> Result<Option<Scn>> {
        for row in rows.into_rows() {
            let Some(tx) = self.pipeline.take(row?, &mut self.output)? else {
                continue;
            };
            if let TxStart::Unseen { reported } = tx.start {
                if !TxPipeline::already_published(&self.output, &tx) {
                    if let Some(start) = self.mine_again_for(reported)? {
                        return Ok(Some(start));
                    }
                    // Mining began at the oldest log there is: what came before is gone.
                    self.status.transaction_start_lost(
                        &tx.xid,
                        tx.commit_scn,
                        self.sequencer.mined_from(),
                    )?;
                }
            }
            self.pipeline.publish(
                tx,
                host_offset,
                &mut self.output,
                self.miner.data_dictionary()?,
            )?;
        }
        Ok(None)
    }

    /// Where to mine again from for a transaction whose START was not mined (it began before
    /// mining did): the START_SCN its COMMIT row reported, when that is before where mining
    /// began, else `walk_back` SCNs further back each time (the column is often NULL or 0, see
    /// [`TxStart`]); never before the oldest log. `None` when mining already began there.
    fn mine_again_for(&mut self, reported: Option<Scn>) -> Result<Option<Scn>> {
        let mined_from = self.sequencer.mined_from();
        let target = match reported {
            Some(s) if s < mined_from => s,
            _ => {
                let back = self.walk_back;
                self.walk_back = self.walk_back.saturating_mul(2);
                mined_from.saturating_sub(back)
            }
        };
        let target = target.max(self.miner.oldest_log_scn()?.unwrap_or(0));
        Ok((target < mined_from).then_some(target))
    }

    /// The snapshot targets of the tables created since the last call.
    pub fn take_new_targets(&mut self) -> Vec<crate::snapshot::target::Decision> {
        self.pipeline.take_new_targets()
    }

    /// Tables created while capture runs, to be snapshotted (capture takes them).
    pub fn created(&self) -> Rc<RefCell<Vec<(TableName, Scn)>>> {
        self.pipeline.created()
    }
}

/// Whether capture has nothing minable to do: it waits for redo, or is idle.
fn is_waiting(state: super::status::State) -> bool {
    matches!(
        state,
        super::status::State::WaitingForRedo | super::status::State::Idle
    )
}

/// The lag in milliseconds, read as Debezium's MilliSecondsBehindSource: the age of the oldest
/// change not yet published, 0 when nothing waits. The oldest change not yet published came
/// after the last published commit and after the last time everything minable was published
/// (`caught_up_ms`), so `now` minus the later of the two bounds it; waiting for redo with
/// everything published, nothing waits. `None`: nothing published or caught up yet.
pub fn lag_ms(
    last_commit_ms: Option<i64>,
    caught_up_ms: Option<i64>,
    waiting: bool,
    now_ms: i64,
) -> Option<i64> {
    let since = last_commit_ms.max(caught_up_ms)?;
    if waiting && caught_up_ms.is_some() {
        return Some(0);
    }
    Some((now_ms - since).max(0))
}

#[cfg(test)]
mod lag_tests {
    use super::lag_ms;

    #[test]
    fn lag_is_the_age_of_what_waits_and_zero_when_nothing_does() {
        // Caught up 20 s after the last captured commit (a quiet or uncaptured-only database):
        // the lag is the time since capture caught up, not since that commit (issue 37: it
        // showed 13 s while nothing waited).
        assert_eq!(lag_ms(Some(1_000), Some(21_000), false, 21_400), Some(400));
        // Waiting for redo with everything published: nothing waits.
        assert_eq!(lag_ms(Some(1_000), Some(21_000), true, 30_000), Some(0));
        // Behind (never caught up yet): since the last published commit.
        assert_eq!(lag_ms(Some(1_000), None, false, 5_000), Some(4_000));
        assert_eq!(lag_ms(Some(1_000), None, true, 5_000), Some(4_000));
        assert_eq!(lag_ms(None, None, false, 5_000), None);
    }
}
