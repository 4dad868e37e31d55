//! The export's read throttle: `cdc.snapshot.max.rows.per.second` (and its per-table keys),
//! averaged from the export's start, as capture's snapshots keep it ([`Throttle`]), and the
//! `set-throttle` signal, read from the export directory's spool (`signal send set-throttle
//! --dir OUT`). Other signals are rejected there: an export has no stream to pause or
//! snapshots to start.

use crate::capture::throttle::{Limits, Throttle};
use crate::errors::Result;
use crate::offsets::TableProgress;
use crate::ops::OpsLog;
use crate::settings::Settings;
use crate::signal::spool::{Outcome, Spool};
use crate::signal::Action;
use crate::snapshot::read::ReadChunk;
use crate::snapshot::target::TableTarget;
use crate::snapshot::ChunkSink;
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

/// The longest single wait: the stop flag and the spool are looked at again after it.
const SLICE: Duration = Duration::from_millis(200);

/// A [`ChunkSink`] that paces the waves of the sink it wraps.
pub struct Paced<'a, S: ChunkSink> {
    pub inner: &'a mut S,
    limits: Limits,
    throttle: Throttle,
    spool: Spool,
    ops: &'a OpsLog,
    poll: Duration,
    last_poll: Option<Instant>,
    /// Time spent waiting for the throttle.
    pub waited: Duration,
}

impl<'a, S: ChunkSink> Paced<'a, S> {
    pub fn new(inner: &'a mut S, settings: &Settings, out: &Path, ops: &'a OpsLog) -> Self {
        Paced {
            inner,
            limits: Limits {
                all: settings.snapshot.max_rows_per_second,
                tables: settings
                    .snapshot
                    .table_max_rows_per_second
                    .iter()
                    .map(|(t, n)| (t.to_string(), *n))
                    .collect(),
            },
            throttle: Throttle::default(),
            spool: Spool::new(out),
            ops,
            poll: Duration::from_millis(settings.signal.poll_ms.max(1)),
            last_poll: None,
            waited: Duration::ZERO,
        }
    }

    /// Take the signals waiting in the spool: set-throttle changes the limits, anything else
    /// is rejected with its reason (an ops event, the file moved to signals/rejected/).
    fn take_signals(&mut self) -> Result<()> {
        if self.last_poll.is_some_and(|t| t.elapsed() < self.poll) {
            return Ok(());
        }
        self.last_poll = Some(Instant::now());
        for p in self.spool.pending()? {
            let signal = match &p.signal {
                Ok(s) => s,
                Err(e) => {
                    self.ops.emit(
                        "signal-rejected",
                        json!({"file": p.path.display().to_string(), "code": e.code().info().code, "reason": e.to_string()}),
                    )?;
                    self.spool.finish(&p, Outcome::Rejected)?;
                    continue;
                }
            };
            let tables: Vec<String> = signal.tables().iter().map(|t| t.to_string()).collect();
            match &signal.action {
                Action::SetThrottle {
                    rows_per_second,
                    tables: names,
                } => {
                    if names.is_empty() {
                        self.limits.all = *rows_per_second;
                    }
                    for t in names {
                        self.limits.tables.insert(t.to_string(), *rows_per_second);
                    }
                    let rate = match rows_per_second {
                        0 => "no limit".to_string(),
                        n => format!("{n} rows per second"),
                    };
                    self.ops.emit(
                        "signal-accepted",
                        json!({"signal": signal.id, "type": signal.type_name(), "tables": tables, "action": format!("export throttle set to {rate}")}),
                    )?;
                    self.spool.finish(&p, Outcome::Processed)?;
                }
                _ => {
                    self.ops.emit(
                        "signal-rejected",
                        json!({"signal": signal.id, "type": signal.type_name(), "tables": tables, "reason": "a snapshot export takes only set-throttle signals"}),
                    )?;
                    self.spool.finish(&p, Outcome::Rejected)?;
                }
            }
        }
        Ok(())
    }
}

impl<S: ChunkSink> ChunkSink for Paced<'_, S> {
    fn wave(&mut self, scn: cdc_core::model::Scn) -> Result<()> {
        self.inner.wave(scn)
    }

    fn marks_last(&self) -> bool {
        self.inner.marks_last()
    }

    fn writes_row_ids(&self) -> bool {
        self.inner.writes_row_ids()
    }

    fn each_row_once(&self) -> bool {
        self.inner.each_row_once()
    }

    /// No overlapping waves while a limit applies to the table: each waits for its throttle.
    fn ready(&mut self, t: &TableTarget) -> Result<bool> {
        self.take_signals()?;
        let name = t.name().to_string();
        if self.limits.all > 0 || self.limits.tables.get(&name).is_some_and(|n| *n > 0) {
            return Ok(false);
        }
        self.inner.ready(t)
    }

    fn pace(&mut self, t: &TableTarget) -> Result<bool> {
        self.take_signals()?;
        let wait = self
            .throttle
            .wait(&self.limits, &t.name().to_string(), Instant::now());
        if wait.is_zero() {
            return self.inner.pace(t);
        }
        let started = Instant::now();
        std::thread::sleep(wait.min(SLICE));
        self.waited += started.elapsed();
        Ok(true)
    }

    fn publish(
        &mut self,
        t: &TableTarget,
        chunk: &mut ReadChunk,
        first_record: bool,
        last_record: bool,
        progress: &mut TableProgress,
    ) -> Result<()> {
        let rows = chunk.rows.len() as u64;
        self.inner
            .publish(t, chunk, first_record, last_record, progress)?;
        self.throttle.count(&t.name().to_string(), rows);
        Ok(())
    }

    fn publish_unsynced(
        &mut self,
        t: &TableTarget,
        chunk: &mut ReadChunk,
        first_record: bool,
        last_record: bool,
        progress: &mut TableProgress,
    ) -> Result<()> {
        let rows = chunk.rows.len() as u64;
        self.inner
            .publish_unsynced(t, chunk, first_record, last_record, progress)?;
        self.throttle.count(&t.name().to_string(), rows);
        Ok(())
    }
}
