//! The publisher: mines LogMiner windows, buffers transactions, publishes committed ones in
//! commit-SCN order, and publishes snapshot chunks at their place in that order. The order is
//! the [`Sequencer`]'s rule; the sink and the positions acknowledged with it are [`Output`]'s.

use super::output::Output;
use super::records::TxRecordWriter;
use super::sequencer::Sequencer;
use super::CaptureSummary;
use crate::crashpoint::Point;
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::offsets::Offsets;
use crate::record::OwnedRecord;
use crate::settings::{OnDecodeError, Settings};
use crate::sink::RecordSink;
use crate::state::StateDir;
use crate::stream::buffer::{row_bytes, Committed, TxBuffer};
use crate::stream::decode::{Catalog, Decoder, Event};
use crate::stream::spill::SpillFile;
use cdc_core::civil::now_ms;
use cdc_core::model::Scn;
use cdc_core::session::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

mod chunks;
mod dictionary;
mod unusual;

/// How many times in a row one window is mined again after a transient failure
/// ([`crate::source::is_transient_call`]), or one call made again after a lost connection.
const MINE_RETRIES: u32 = 10;

/// Wait `d`, in slices, ending early once `stop` says so (Ctrl-C during a backoff).
fn sleep_unless_stopped(d: std::time::Duration, stop: Option<&(dyn Fn() -> bool + Sync)>) {
    let slice = std::time::Duration::from_millis(100);
    let until = std::time::Instant::now() + d;
    loop {
        let now = std::time::Instant::now();
        if now >= until || stop.is_some_and(|s| s()) {
            return;
        }
        std::thread::sleep(slice.min(until - now));
    }
}

/// The state directory's subdirectory of transaction buffer spill files.
pub const SPILL_DIR: &str = "spill";

pub use super::output::Positions;

pub struct Publisher<'a> {
    connector: &'a dyn Connector,
    /// Asked while waiting for a mining database's redo: a stop ends the wait.
    stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    settings: &'a Settings,
    catalog: Catalog,
    /// The sink and the positions acknowledged with it.
    output: Output,
    session: Box<dyn Session>,
    buffer: TxBuffer,
    spill_dir: std::path::PathBuf,
    spool_seq: u64,
    /// The ordering rule, and how far the stream is mined and published.
    sequencer: Sequencer,
    /// Commit time (ms) of the last published transaction, for the lag in milliseconds.
    last_commit_ms: Option<i64>,
    /// When (ms) capture last looked at the current SCN and then published everything
    /// minable up to it: no change older than that waits ([`lag_ms`]).
    caught_up_ms: Option<i64>,
    /// The database host's UTC offset (seconds) and when it was asked: LogMiner's commit
    /// times are DATEs of the host's clock. Asked again after a minute (DST changes).
    host_offset: Option<(i32, std::time::Instant)>,
    db_name: String,
    streaming: bool,
    dlq_path: std::path::PathBuf,
    history_path: std::path::PathBuf,
    records: u64,
    transactions: u64,
    snapshot_rows: u64,
    /// Set while a signal's snapshot runs: its records are marked `incremental`, and a blocking
    /// one reads with the stream paused (no streaming before its waves).
    signal_snapshot: Option<crate::signal::SnapshotKind>,
    /// The source signal channel's table: its inserts become signals, never records.
    signal_table: Option<crate::names::TableName>,
    spool: crate::signal::spool::Spool,
    created: Rc<RefCell<Vec<(TableName, Scn)>>>,
    /// The snapshot targets of tables created while capture runs, for capture's list of
    /// captured tables (so signals can name them before a restart).
    new_targets: Vec<crate::snapshot::target::Decision>,
    /// Where the numbers behind the metrics go.
    status: super::status::Status,
    /// The current SCN as last asked, and the time spent mining and decoding.
    current: Scn,
    mine_seconds: f64,
    parse_seconds: f64,
    window: (Scn, Scn),
    windows: u64,
    throttle: super::throttle::Throttle,
    /// The mining query's WHERE clause (see `capture::filter`).
    filter: cdc_core::filter::MiningFilter,
    /// LogMiner dictionary builds at log switches (`cdc.mining.dictionary.build`).
    dictionary: dictionary::DictionaryBuilds,
    /// Rows LogMiner returned, and rows of captured tables decoded: their ratio shows the
    /// filter at work.
    rows_mined: u64,
    rows_captured: u64,
    /// Whether record topics name the PDB (`cdc.topic.include.pdb`, decided at start).
    with_pdb: bool,
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
        let filter = super::filter::mining_filter(settings, catalog.cdb);
        tracing::debug!(?filter, "mining filter");
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
        Ok(Publisher {
            with_pdb,
            filter,
            rows_mined: 0,
            rows_captured: 0,
            dictionary: dictionary::DictionaryBuilds::default(),
            connector,
            stop: None,
            settings,
            catalog,
            output: Output::new(
                sink,
                Positions {
                    stream,
                    sink: offsets.sink.clone(),
                },
                status.clone(),
                settings.faults.sink_delay_ms,
            ),
            session: crate::source::connect_retrying(connector, &settings.connect)?,
            buffer: TxBuffer::new(
                settings.stream.buffer_memory_bytes,
                state.path.join(SPILL_DIR),
            )?,
            spill_dir: state.path.join(SPILL_DIR),
            spool_seq: 0,
            sequencer: Sequencer::new(next),
            last_commit_ms: None,
            caught_up_ms: None,
            host_offset: None,
            db_name: db_name.to_string(),
            streaming,
            dlq_path: state.path.join("dlq.jsonl"),
            history_path: state.path.join(super::HISTORY_FILE),
            records: 0,
            transactions: 0,
            snapshot_rows: 0,
            signal_snapshot: None,
            signal_table: settings
                .signal
                .source
                .then(|| settings.signal.data_collection.clone())
                .flatten(),
            spool: crate::signal::spool::Spool::new(&state.path),
            created: Rc::new(RefCell::new(Vec::new())),
            new_targets: Vec::new(),
            status,
            current: 0,
            mine_seconds: 0.0,
            parse_seconds: 0.0,
            window: (0, 0),
            windows: 0,
            throttle: Default::default(),
        })
    }

    /// What ends a wait for the mining database's redo (capture's stop request).
    pub fn set_stop(&mut self, stop: &'a (dyn Fn() -> bool + Sync)) {
        self.stop = Some(stop);
    }

    pub fn positions(&self) -> Rc<RefCell<Positions>> {
        self.output.positions()
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
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

    /// The streaming metrics, as the `capture-metrics` ops event carries them.
    pub fn metrics(&self, current_scn: Scn) -> serde_json::Value {
        let waiting = is_waiting(self.status.board().state);
        let p = self.output.current();
        let lag_ms = lag_ms(
            self.last_commit_ms,
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
            "open_transactions": self.buffer.open_transactions(),
            "buffered_changes": self.buffer.buffered_rows(),
            "buffer_memory_bytes": self.buffer.memory_bytes(),
            "spilled_bytes": self.buffer.spilled_bytes(),
            "records": self.records,
            "transactions": self.transactions,
            "rows_mined": self.rows_mined,
            "rows_captured": self.rows_captured,
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
        let mut b = self.status.board();
        let waiting = is_waiting(b.state);
        let st = &mut b.stream;
        st.current_scn = self.current;
        st.mined_scn = self.sequencer.mined_to();
        st.published_commit_scn = p.stream.commit_scn;
        st.lag_ms = lag_ms(
            self.last_commit_ms,
            self.caught_up_ms,
            waiting,
            cdc_core::civil::now_ms(),
        );
        st.open_transactions = self.buffer.open_transactions() as u64;
        st.buffered_changes = self.buffer.buffered_rows() as u64;
        st.buffer_memory_bytes = self.buffer.memory_bytes();
        st.spilled_bytes = self.buffer.spilled_bytes();
        st.change_records = self.records - self.snapshot_rows;
        st.snapshot_records = self.snapshot_rows;
        st.transactions = self.transactions;
        st.mine_seconds = self.mine_seconds;
        st.parse_seconds = self.parse_seconds;
        (st.window_start_scn, st.window_end_scn) = self.window;
        st.windows = self.windows;
        st.rows_mined = self.rows_mined;
        st.rows_captured = self.rows_captured;
        st.dictionary_builds = self.dictionary.made;
    }

    /// A heartbeat record: progress for consumers while captured tables are idle.
    pub fn heartbeat(&mut self) -> Result<()> {
        let prefix = &self.settings.sink.topic_prefix;
        let commit = self.output.current().stream.commit_scn;
        let record = OwnedRecord::of_json(
            format!("{prefix}.heartbeat"),
            &serde_json::json!({"serverName": prefix}),
            &serde_json::json!({"ts_ms": cdc_core::civil::now_ms(), "scn": self.sequencer.mined_to().to_string(), "commit_scn": commit.to_string()}),
            Vec::new(),
        );
        self.output.write(&record.as_record())?;
        self.output.acknowledge()
    }

    pub fn summary(&self, offsets: &Offsets) -> CaptureSummary {
        CaptureSummary {
            records: self.records,
            transactions: self.transactions,
            snapshot_rows: self.snapshot_rows,
            position: offsets.stream.clone(),
        }
    }

    /// A new session in place of a lost one: transient connect failures retried for
    /// cdc.database.reconnect.max.ms (a database restarting), each wait cut short by a stop.
    /// Told to stop meanwhile, it gives up: [`CdcError::StoppedReconnecting`], a clean stop.
    fn reconnect(&self) -> Result<Box<dyn Session>> {
        let stop = self.stop;
        let stopping = || stop.is_some_and(|s| s());
        let r = crate::source::reconnect_with(
            self.connector,
            &self.settings.connect,
            &mut |d| sleep_unless_stopped(d, stop),
            &|| !stopping(),
        );
        match r {
            Err(e) if stopping() => Err(CdcError::StoppedReconnecting {
                waiting: e.to_string(),
            }),
            other => other,
        }
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
        sleep_unless_stopped(wait, self.stop);
        // A new session also for log errors: its LogMiner session starts on the log list as
        // it is now.
        self.session = self.reconnect()?;
        Ok(())
    }

    /// Run `call` on the session; a lost connection is reconnected (with the backoff and
    /// cdc.database.reconnect.max.ms) and the call made again, up to MINE_RETRIES times in a
    /// row, as a mining window is.
    fn on_session<T>(&mut self, call: impl Fn(&mut dyn Session) -> Result<T>) -> Result<T> {
        let mut lost = 0;
        loop {
            match call(self.session.as_mut()) {
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
    /// cdc.database.reconnect.max.ms in [`Publisher::current_scn`]'s reconnects).
    pub fn current_scn_once(&mut self) -> Result<Scn> {
        let scn = self.session.current_scn()?;
        self.current = scn;
        self.refresh();
        Ok(scn)
    }

    /// The database's current SCN.
    pub fn current_scn(&mut self) -> Result<Scn> {
        let scn = self.on_session(|s| s.current_scn())?;
        self.current = scn;
        self.refresh();
        Ok(scn)
    }

    /// The highest SCN a mining window may end at: before what LGWR has not written yet on
    /// some open thread (V$THREAD), and on a downstream mining database no further than the
    /// redo shipped there. A window ending at CURRENT_SCN could miss redo still in a log
    /// buffer, and the next window would start past it.
    pub fn mining_limit(&mut self) -> Result<Option<Scn>> {
        let from = self.sequencer.next_mine();
        self.on_session(|s| s.mining_limit(from))
    }

    /// After [`Publisher::mining_limit`]: the SCN everything committed is known to be written
    /// through on a database gone quiet, one past that limit (`Session::quiet_through`).
    pub fn quiet_through(&mut self) -> Result<Option<Scn>> {
        self.on_session(|s| Ok(s.quiet_through()))
    }

    /// Whether everything committed up to `target` is published: mined through it, or mined
    /// through the limit of a database gone quiet at or past it (nothing is committed at the
    /// SCN one past that limit, and later commits take higher ones).
    pub fn published_through(&mut self, target: Scn) -> Result<bool> {
        if self.sequencer.published_through(target, None) {
            return Ok(true);
        }
        let quiet = self.quiet_through()?;
        Ok(self.sequencer.published_through(target, quiet))
    }

    /// `end`, or less when LogMiner can see redo only up to an earlier SCN.
    pub fn minable(&mut self, end: Scn) -> Result<Scn> {
        Ok(self.mining_limit()?.map_or(end, |l| l.min(end)))
    }

    /// The database host's offset from UTC in seconds, asked at most once a minute (unknown:
    /// UTC).
    fn host_offset_secs(&mut self) -> Result<i32> {
        if let Some((secs, at)) = self.host_offset {
            if at.elapsed() < std::time::Duration::from_secs(60) {
                return Ok(secs);
            }
        }
        let secs = self.on_session(|s| s.host_utc_offset())?.unwrap_or(0);
        self.host_offset = Some((secs, std::time::Instant::now()));
        Ok(secs)
    }

    /// Mine up to `end` and publish every transaction committed up to it; then make the sink
    /// durable and move the positions. Returns whether anything was mined. This waits until
    /// the redo up to `end` is minable (written by LGWR; on a downstream, shipped there): a
    /// chunk read at SCN s is published only after every change committed before s.
    pub fn stream_until(&mut self, end: Scn) -> Result<bool> {
        if !self.sequencer.has_to_mine(end) {
            return Ok(false);
        }
        let mut announced = false;
        while let Some(limit) = self.mining_limit()?.filter(|l| *l < end) {
            if !announced {
                tracing::info!(
                    "waiting for redo: LogMiner can see redo up to SCN {limit}, SCN {end} is needed"
                );
                self.status.set_with(
                    super::status::State::WaitingForRedo,
                    None,
                    None,
                    Some("the redo up to the chunks' SCN is not minable yet (not written by LGWR on every open thread, or not shipped to the mining database)"),
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
        self.build_dictionary_at_switch()?;
        let window = self.settings.stream.window_scn.max(1);
        let host_offset = self.host_offset_secs()?;
        let mut from = self.sequencer.next_mine();
        let mut retries = 0u32;
        while from <= end {
            let mut rewind: Option<Scn> = None;
            let to = end.min(from.saturating_add(window - 1));
            // The window's rows wait until the window is mined whole (a lost connection mines
            // it again from its start); beyond a quarter of the buffer's memory they wait on disk.
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
            let mined = self.session.mine(from, to, &self.filter, &mut |r| {
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
                // A new session mines the same window again (on the log list as it is now);
                // nothing was published from it.
                Err(e) if retries < MINE_RETRIES && crate::source::is_transient_call(&e) => {
                    retries += 1;
                    self.retry_after(&e, &format!("mining SCN {from} to {to}"), retries)?;
                    continue;
                }
                other => other?,
            }
            retries = 0;
            self.rows_mined += mined_rows;
            self.mine_seconds += mine_started.elapsed().as_secs_f64();
            self.window = (from, to);
            self.windows += 1;
            let parse_started = std::time::Instant::now();
            let spooled = spool.map(SpillFile::into_reader).transpose()?;
            for row in spooled
                .into_iter()
                .flatten()
                .chain(rows.into_iter().map(Ok))
            {
                let row = row?;
                if row.operation_code == cdc_core::model::op::MISSING_SCN {
                    // Redo LogMiner could not read: no transaction to wait for.
                    let e = CdcError::MissingScn {
                        scn: row.scn,
                        thread: row.thread,
                    };
                    self.unsupported_redo(e, None)?;
                    continue;
                }
                if let Some(tx) = self.buffer.push(row)? {
                    if self.sequencer.seen_from_its_middle(tx.start_scn)
                        && !self.already_published(&tx)
                    {
                        // Mined from its middle (e.g. after `offsets edit set-scn`): publishing
                        // it now would lose its first changes.
                        rewind = Some(tx.start_scn);
                        break;
                    }
                    self.publish_tx(tx, host_offset)?;
                }
            }
            self.parse_seconds += parse_started.elapsed().as_secs_f64();
            if let Some(start) = rewind {
                // Mine again from its START; what was published meanwhile is skipped by position.
                tracing::info!("a transaction started at SCN {start}, before mining began at {}: mining again from there", self.sequencer.mined_from());
                // The old buffer's spill files go first (the new one cleans the directory).
                self.buffer = TxBuffer::default();
                self.buffer = TxBuffer::new(
                    self.settings.stream.buffer_memory_bytes,
                    self.spill_dir.clone(),
                )?;
                self.sequencer.mine_again_from(start);
                from = start;
                continue;
            }
            from = to + 1;
        }
        crate::crashpoint::hit(Point::PublisherWindowMined)?;
        self.sequencer.mined_through(end);
        let sink = self.output.commit()?;
        let mut p = self.output.current_mut();
        p.stream.resume_scn = self
            .buffer
            .oldest_start()
            .map_or(end + 1, |s| s.min(end + 1));
        p.sink = Some(sink);
        drop(p);
        self.refresh();
        Ok(true)
    }

    fn already_published(&self, tx: &Committed) -> bool {
        Sequencer::is_published(&self.output.current().stream, tx.commit_scn, &tx.xid)
    }

    /// Publish a committed transaction, decoding its rows as they stream from the buffer (its
    /// spill file, then memory), so a transaction of any size is published in bounded memory.
    fn publish_tx(&mut self, mut tx: Committed, host_offset: i32) -> Result<()> {
        if self.already_published(&tx) {
            return Ok(());
        }
        let (prefix, db_name) = (
            self.settings.sink.topic_prefix.clone(),
            self.db_name.clone(),
        );
        let mut wrote = false;
        let mut events = Decoder::new(&mut tx);
        let settings = self.settings;
        let mut records = TxRecordWriter::new(
            &prefix,
            &db_name,
            &tx,
            host_offset,
            &settings.record,
            self.with_pdb,
        );
        while let Some(event) = events.next_event(&self.catalog) {
            for r in events.take_recovered() {
                self.recovered(&r)?;
            }
            match event {
                Ok(Event::Change(change)) => {
                    if self.signal_table.as_ref() == Some(&change.table) {
                        self.signal_row(&change, &tx)?;
                        continue;
                    }
                    let Some(schema) = self.catalog.tables.get(&change.table) else {
                        continue;
                    };
                    for record in records.records(schema, &change) {
                        self.output.write(&record)?;
                        self.records += 1;
                        wrote = true;
                    }
                }
                Ok(Event::Ddl { table, scn, sql }) => {
                    tracing::info!("DDL on {table} at SCN {scn}: {sql}");
                    if self.table_created(&table, scn, &sql)? {
                        self.schema_change(&tx, &table, scn, &sql, host_offset)?;
                        continue;
                    }
                    let extended = self.catalog.extended_strings;
                    let dictionary = match crate::stream::ddl::apply(&[], &sql, extended) {
                        // The statement tells the new layout; no need to ask the dictionary.
                        Some(_) => None,
                        None => self.session.tables()?.into_iter().find(|t| t.name == table),
                    };
                    if self
                        .catalog
                        .apply_ddl(&table, scn, &sql, dictionary.as_ref())
                    {
                        // Durable before the offsets move past the DDL.
                        super::save_history(&self.history_path, &self.catalog)?;
                    }
                    self.schema_change(&tx, &table, scn, &sql, host_offset)?;
                }
                // A spill file that cannot be read is not a decoding problem.
                Err(e @ CdcError::Io { .. }) => return Err(e),
                Err(e) if e.is_unsupported_redo() => self.unsupported_redo(e, Some(&tx))?,
                Err(e) if self.settings.on_decode_error == OnDecodeError::Dlq => {
                    self.dead_letter(&tx, &e)?
                }
                Err(e) => return Err(e),
            }
        }
        self.rows_captured += events.captured_rows();
        self.unknown_objects(events.take_unknown())?;
        if let Some(record) = records.end_record() {
            self.output.write(&record)?;
            self.records += 1;
        }
        if wrote {
            self.transactions += 1;
        }
        Sequencer::published(
            &mut self.output.current_mut().stream,
            tx.commit_scn,
            &tx.xid,
            tx.thread,
        );
        self.last_commit_ms =
            cdc_core::model::host_time_to_epoch_ms(&tx.commit_timestamp, host_offset)
                .or(self.last_commit_ms);
        Ok(())
    }

    /// A schema change event for a DDL on a captured table (`cdc.include.schema.changes`), with
    /// the table's layout after it.
    fn schema_change(
        &mut self,
        tx: &Committed,
        table: &TableName,
        scn: Scn,
        sql: &str,
        host_offset: i32,
    ) -> Result<()> {
        if !self.settings.record.schema_changes || self.signal_table.as_ref() == Some(table) {
            return Ok(());
        }
        let Some(schema) = self.catalog.tables.get(table) else {
            return Ok(());
        };
        let commit_ms = cdc_core::model::host_time_to_epoch_ms(&tx.commit_timestamp, host_offset)
            .unwrap_or_else(now_ms);
        let record = crate::record::schema_change::record(
            &crate::record::schema_change::Ddl {
                topic_prefix: &self.settings.sink.topic_prefix,
                db: table.pdb.as_deref().unwrap_or(&self.db_name),
                table,
                sql,
                scn,
                commit_scn: tx.commit_scn,
                xid: &tx.xid,
                commit_ms,
                columns: schema.columns_at(scn),
                key: &schema.key,
            },
            &self.settings.record,
        );
        self.output.write(&record.as_record())?;
        self.records += 1;
        Ok(())
    }

    /// CREATE TABLE of a table the settings capture: from now on its changes are decoded with
    /// the dictionary's columns, and capture snapshots it (`created`). Returns whether the DDL
    /// was a CREATE TABLE (seen again after a restart it is announced again; capture keeps one
    /// snapshot per CREATE).
    fn table_created(&mut self, table: &TableName, scn: Scn, sql: &str) -> Result<bool> {
        let create = crate::stream::decode::is_create_table_sql(sql);
        if !create || !self.settings.is_captured(table) || self.signal_table.as_ref() == Some(table)
        {
            return Ok(create);
        }
        if !self.catalog.tables.contains_key(table) {
            let info = self
                .session
                .tables()?
                .into_iter()
                .find(|t| &t.name == table);
            let Some(info) = info else {
                tracing::warn!(
                    "{table} was created at SCN {scn} but the dictionary no longer has it"
                );
                return Ok(true);
            };
            // The layout at the CREATE: the statement's, as the dictionary may already show
            // columns added since (the changes in between do not have them).
            let columns = crate::stream::ddl::create_table(sql, self.catalog.extended_strings)
                .unwrap_or_else(|| info.columns.clone());
            let mut decisions = crate::snapshot::target::resolve(self.settings, vec![info], &[])?;
            let Some(crate::snapshot::target::Decision::Capture(t)) = decisions.first() else {
                return Ok(true);
            };
            // Before any of its changes: a created table must not take a captured one's topic.
            let naming = crate::offsets::TopicNaming {
                prefix: self.settings.sink.topic_prefix.clone(),
                pdb: self.with_pdb,
            };
            super::topics::check_new(&naming, table, self.catalog.tables.keys())?;
            self.catalog
                .tables
                .insert(table.clone(), super::table_schema(t, vec![(scn, columns)]));
            self.catalog.add_objects(&t.info);
            self.new_targets.append(&mut decisions);
            // Durable before the offsets move past the CREATE.
            super::save_history(&self.history_path, &self.catalog)?;
        } else if let Some(columns) =
            crate::stream::ddl::create_table(sql, self.catalog.extended_strings)
        {
            // Known already (mined again after a restart, or in today's dictionary when capture
            // started): from the CREATE on, its layout is the statement's, not today's.
            if self.catalog.apply_create(table, scn, columns) {
                super::save_history(&self.history_path, &self.catalog)?;
            }
        }
        self.created.borrow_mut().push((table.clone(), scn));
        Ok(true)
    }

    /// The snapshot targets of the tables created since the last call.
    pub fn take_new_targets(&mut self) -> Vec<crate::snapshot::target::Decision> {
        std::mem::take(&mut self.new_targets)
    }

    /// Tables created while capture runs, to be snapshotted (capture takes them).
    pub fn created(&self) -> Rc<RefCell<Vec<(TableName, Scn)>>> {
        self.created.clone()
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
