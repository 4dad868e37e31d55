//! Overlapping waves: the next wave is read while the last one is published, the order rule
//! still holds (every chunk after the `wave` call for its SCN, which comes after the last chunk
//! before it), and the chunks held — read or being read, not yet published — never exceed
//! `cdc.snapshot.max.pending.chunks`. A connector that watches every read counts them.

use super::read::ReadChunk;
use super::target::{resolve, TableTarget};
use super::*;
use crate::names::TableName;
use crate::source::emulator::{clock, init, EmulatorConnector};
use crate::types::Value;
use cdc_core::model::*;
use cdc_core::session::prelude::*;
use std::sync::Condvar;
use std::time::Duration;

/// What the watched sessions and the sink saw, in one place.
#[derive(Default)]
struct Seen {
    reads_started: usize,
    published: usize,
    /// Most chunks held at once: reads started, less chunks published.
    most_held: usize,
    /// What the sink was told, in order: `wave SCN` and `chunk SCN`.
    events: Vec<(&'static str, Scn)>,
    /// SCNs taken, and the sink's paces.
    scns: usize,
    paces: usize,
    /// Whether the first SCN was taken after a pace.
    first_scn_after_pace: Option<bool>,
    /// Whether the planner's key range saw an SCN taken while it ran.
    range_overlapped_scn: Option<bool>,
    /// Chunks published durable, published not yet durable, and not durable now.
    durable: usize,
    unsynced: usize,
    unsynced_pending: usize,
    /// States saved, and of them saved while a chunk they count was not durable.
    saves: usize,
    saves_ahead_of_durable: usize,
    /// Sessions connected, and how many were when the first wave was announced.
    connects: usize,
    connects_at_first_wave: Option<usize>,
    /// SCNs taken on the coordinating session (the one the planner asked the key range on).
    scns_on_coordinator: usize,
}

#[derive(Default)]
struct Watch {
    seen: Mutex<Seen>,
    changed: Condvar,
}

impl Watch {
    fn update(&self, f: impl FnOnce(&mut Seen)) {
        let mut s = self.seen.lock().unwrap();
        f(&mut s);
        let held = s.reads_started - s.published;
        s.most_held = s.most_held.max(held);
        self.changed.notify_all();
    }

    /// Wait (up to a minute, a failure guard, not a timing) until `ready` holds.
    fn wait_for(&self, ready: impl Fn(&Seen) -> bool) -> bool {
        let s = self.seen.lock().unwrap();
        let (s, _) = self
            .changed
            .wait_timeout_while(s, Duration::from_secs(60), |s| !ready(s))
            .unwrap();
        ready(&s)
    }
}

struct Watched {
    inner: EmulatorConnector,
    watch: Arc<Watch>,
}

impl cdc_core::session::Connector for Watched {
    fn connect(&self) -> Result<Box<dyn Session>> {
        self.watch.update(|s| s.connects += 1);
        Ok(Box::new(WatchedSession {
            inner: self.inner.connect()?,
            watch: self.watch.clone(),
            coordinator: false,
        }))
    }
    fn describe(&self) -> String {
        self.inner.describe()
    }
}

struct WatchedSession {
    inner: Box<dyn Session>,
    watch: Arc<Watch>,
    /// The planner asked its key range here.
    coordinator: bool,
}

impl Catalog for WatchedSession {
    cdc_core::forward_catalog!(inner);
}

impl Flashback for WatchedSession {
    fn current_scn(&mut self) -> Result<Scn> {
        let coordinator = self.coordinator;
        self.watch.update(|s| {
            s.scns_on_coordinator += usize::from(coordinator);
            if s.scns == 0 {
                s.first_scn_after_pace = Some(s.paces > 0);
            }
            s.scns += 1;
        });
        self.inner.current_scn()
    }

    fn read_as_of(
        &mut self,
        q: &FlashbackQuery,
        row: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        self.watch.update(|s| s.reads_started += 1);
        self.inner.read_as_of(q, row)
    }

    fn key_range(
        &mut self,
        table: &TableName,
        key_column: &str,
        scn: Option<Scn>,
    ) -> Result<Option<(Value, Value)>> {
        // The first wave's SCN is taken while the table is planned: this returns once it is.
        self.coordinator = true;
        let saw = self.watch.wait_for(|s| s.scns > 0);
        self.watch.update(|s| s.range_overlapped_scn = Some(saw));
        self.inner.key_range(table, key_column, scn)
    }

    fn key_boundaries(&mut self, q: &BoundaryQuery) -> Result<Vec<Vec<Value>>> {
        self.inner.key_boundaries(q)
    }

    fn check_condition(&mut self, table: &TableName, condition: &str) -> Result<()> {
        self.inner.check_condition(table, condition)
    }

    fn scn_to_time(&mut self, scn: Scn) -> Result<Option<String>> {
        self.inner.scn_to_time(scn)
    }
}

impl Miner for WatchedSession {
    cdc_core::forward_miner!(inner);
}

impl Admin for WatchedSession {
    cdc_core::forward_admin!(inner);
}

/// A sink that tells the watch what it is given; `gate` holds the publish of the first wave's
/// last chunk until a read of the next wave has begun.
struct Sink {
    watch: Arc<Watch>,
    wave_size: usize,
    gate: bool,
    rows: Vec<Vec<Value>>,
    overlapped: bool,
}

impl ChunkSink for Sink {
    fn pace(&mut self, _t: &TableTarget) -> Result<bool> {
        self.watch.update(|s| s.paces += 1);
        Ok(false)
    }

    fn wave(&mut self, scn: Scn) -> Result<()> {
        self.watch.update(|s| {
            s.events.push(("wave", scn));
            s.connects_at_first_wave.get_or_insert(s.connects);
        });
        Ok(())
    }

    fn publish(
        &mut self,
        _t: &TableTarget,
        c: &mut ReadChunk,
        _first: bool,
        _last: bool,
        _p: &mut crate::offsets::TableProgress,
    ) -> Result<()> {
        self.take(c);
        self.watch.update(|s| {
            s.durable += 1;
            s.unsynced_pending = 0;
        });
        Ok(())
    }

    fn publish_unsynced(
        &mut self,
        _t: &TableTarget,
        c: &mut ReadChunk,
        _first: bool,
        _last: bool,
        _p: &mut crate::offsets::TableProgress,
    ) -> Result<()> {
        self.take(c);
        self.watch.update(|s| {
            s.unsynced += 1;
            s.unsynced_pending += 1;
        });
        Ok(())
    }
}

impl Sink {
    fn take(&mut self, c: &ReadChunk) {
        let published = self.watch.seen.lock().unwrap().published;
        if self.gate && published + 1 == self.wave_size {
            let n = self.wave_size;
            self.overlapped = self.watch.wait_for(|s| s.reads_started > n);
        }
        self.rows.extend(c.rows.iter().map(|r| r.values.clone()));
        let scn = c.scn;
        self.watch.update(|s| {
            s.published += 1;
            s.events.push(("chunk", scn));
        });
    }
}

fn table(rows: u64) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(
        &schema,
        format!(
            r#"
tables:
  - name: APP.T
    columns:
      - {{ name: A, type: NUMBER(10), nullable: false }}
      - {{ name: B, type: VARCHAR2(12) }}
    primary_key: [A]
    rows: {rows}
"#
        ),
    )
    .unwrap();
    let db = dir.path().join("db");
    init(&db, &schema, None, clock::system()).unwrap();
    (dir, db)
}

/// Snapshot the table with `pairs`; returns the watch and the sink.
fn snapshot(db: &std::path::Path, pairs: &[&str], gate: bool) -> (Arc<Watch>, Sink) {
    let (watch, sink, _) = snapshot_with_metrics(db, pairs, gate);
    (watch, sink)
}

fn snapshot_with_metrics(
    db: &std::path::Path,
    pairs: &[&str],
    gate: bool,
) -> (Arc<Watch>, Sink, SnapshotMetrics) {
    let settings = Settings::from_pairs(pairs).unwrap();
    let watch = Arc::new(Watch::default());
    let conn = Watched {
        inner: EmulatorConnector::open(db, settings.emulator_faults()).unwrap(),
        watch: watch.clone(),
    };
    let mut s = crate::source::Connector::connect(&conn).unwrap();
    let decisions = resolve(&settings, s.tables().unwrap(), &[]).unwrap();
    let wave_size = settings
        .snapshot
        .threads
        .min(settings.snapshot.max_pending_chunks) as usize;
    let mut sink = Sink {
        watch: watch.clone(),
        wave_size,
        gate,
        rows: Vec::new(),
        overlapped: false,
    };
    let ops = OpsLog::discard();
    let metrics: Arc<Mutex<SnapshotMetrics>> = Default::default();
    let saved = watch.clone();
    let out = Snapshot {
        connector: &conn,
        settings: &settings,
        ops: &ops,
        progress: &NoProgress,
        metrics: metrics.clone(),
        pin_scn: None,
        signal: None,
        shutdown: None,
    }
    .run(
        &decisions,
        &mut SnapshotState::default(),
        &mut |_| {
            saved.update(|s| {
                s.saves += 1;
                if s.unsynced_pending > 0 {
                    s.saves_ahead_of_durable += 1;
                }
            });
            Ok(())
        },
        &mut sink,
        &|| false,
    )
    .unwrap();
    assert_eq!(out, Outcome::Completed);
    let metrics = metrics.lock().unwrap().clone();
    (watch, sink, metrics)
}

/// Every row once, in key order; every chunk after the `wave` of its SCN with no chunk of
/// another SCN between them.
fn assert_complete_and_ordered(watch: &Watch, sink: &Sink, rows: u64) {
    let keys: Vec<&Value> = sink.rows.iter().map(|r| &r[0]).collect();
    assert_eq!(keys.len() as u64, rows, "rows published");
    for w in keys.windows(2) {
        assert_eq!(
            crate::types::compare_keys(&[w[0].clone()], &[w[1].clone()]),
            std::cmp::Ordering::Less,
            "{:?} then {:?}",
            w[0],
            w[1]
        );
    }
    let mut wave = None;
    for (what, scn) in &watch.seen.lock().unwrap().events {
        match *what {
            "wave" => wave = Some(*scn),
            _ => assert_eq!(
                Some(*scn),
                wave,
                "a chunk read at {scn} after another wave's call"
            ),
        }
    }
}

#[test]
fn the_next_wave_is_read_while_the_last_one_is_published() {
    let (_d, db) = table(400);
    let (watch, sink) = snapshot(
        &db,
        &[
            "cdc.snapshot.chunk.rows=50",
            "cdc.snapshot.threads=2",
            "cdc.snapshot.max.pending.chunks=4",
        ],
        true,
    );
    // Before: the first wave's last chunk was published before any read of the second began.
    assert!(
        sink.overlapped,
        "no read of the second wave began before the first wave's last chunk was published"
    );
    assert_complete_and_ordered(&watch, &sink, 400);
    let seen = watch.seen.lock().unwrap();
    assert_eq!(seen.published, 8);
    assert!(seen.most_held <= 4, "{} chunks held", seen.most_held);
}

#[test]
fn the_first_scn_is_taken_after_the_pace_while_the_table_is_planned() {
    let (_d, db) = table(300);
    let (watch, sink) = snapshot(
        &db,
        &["cdc.snapshot.chunk.rows=50", "cdc.snapshot.threads=2"],
        false,
    );
    assert_complete_and_ordered(&watch, &sink, 300);
    let seen = watch.seen.lock().unwrap();
    // Before: the planner's MIN/MAX, then the SCN (two round trips where one does).
    assert_eq!(
        seen.range_overlapped_scn,
        Some(true),
        "the key range was asked before any SCN was taken"
    );
    assert_eq!(
        seen.first_scn_after_pace,
        Some(true),
        "an SCN before the pace"
    );
    // 6 chunks in waves of 2: 3 SCNs, the first taken beside the planning.
    assert_eq!(seen.scns, 3);
}

#[test]
fn chunks_held_stay_within_max_pending_chunks() {
    let (_d, db) = table(600);
    for (threads, max_pending) in [(3, 4), (2, 2), (3, 8), (1, 2)] {
        let (watch, sink) = snapshot(
            &db,
            &[
                "cdc.snapshot.chunk.rows=40",
                &format!("cdc.snapshot.threads={threads}"),
                &format!("cdc.snapshot.max.pending.chunks={max_pending}"),
            ],
            false,
        );
        assert_complete_and_ordered(&watch, &sink, 600);
        let most = watch.seen.lock().unwrap().most_held;
        assert!(
            most <= max_pending,
            "threads {threads}, max.pending.chunks {max_pending}: {most} chunks held"
        );
    }
}

#[test]
fn a_wave_is_made_durable_and_acknowledged_once_after_its_last_chunk() {
    let (_d, db) = table(1000);
    let (watch, sink, metrics) = snapshot_with_metrics(
        &db,
        &[
            "cdc.snapshot.chunk.rows=50",
            "cdc.snapshot.threads=4",
            "cdc.snapshot.max.pending.chunks=8",
        ],
        false,
    );
    assert_complete_and_ordered(&watch, &sink, 1000);
    let seen = watch.seen.lock().unwrap();
    // 20 chunks in waves of 4: each wave's last published durable, the three before it not.
    // Before: every chunk was published durable and acknowledged on its own (20 and 20).
    assert_eq!((seen.durable, seen.unsynced), (5, 15));
    assert_eq!(
        seen.saves_ahead_of_durable, 0,
        "a state was saved counting chunks not yet durable"
    );
    assert!(
        seen.saves >= 5 && seen.saves < 20,
        "{} saves for 5 waves",
        seen.saves
    );
    // Every chunk is still acknowledged, once the wave's last made it durable.
    assert_eq!(metrics.chunks_done, 20);
    assert_eq!(metrics.rows_scanned.values().sum::<u64>(), 1000);
}

#[test]
fn the_first_waves_sessions_are_connected_while_the_table_is_planned() {
    // (rows, chunk rows): 1,000 rows in chunks of 50 fill a wave of 4; 100 rows make 2 chunks.
    for (rows, threads, want_readers) in [(1000, 4, 4), (100, 4, 2), (1000, 1, 1)] {
        let (_d, db) = table(rows);
        let (watch, sink) = snapshot(
            &db,
            &[
                "cdc.snapshot.chunk.rows=50",
                &format!("cdc.snapshot.threads={threads}"),
            ],
            false,
        );
        assert_complete_and_ordered(&watch, &sink, rows);
        let seen = watch.seen.lock().unwrap();
        // The test's own session and the coordinating one, then a reading session for each
        // chunk of the first wave. Before: only the one taking the first SCN was connected;
        // the others connected as their reads began, a connection later.
        assert_eq!(
            seen.connects_at_first_wave,
            Some(2 + want_readers),
            "{rows} rows, {threads} threads: sessions connected when the first wave began"
        );
        // No session is connected twice: the test's, the coordinating one, the readers, and
        // the one that takes the next wave's SCN when there is more than one wave.
        let chunks = rows as usize / 50;
        let clock = usize::from(chunks > threads);
        assert_eq!(seen.connects, 2 + threads.min(chunks) + clock);
    }
}

#[test]
fn the_next_waves_scn_is_taken_while_the_last_one_is_read() {
    let (_d, db) = table(1000);
    for gate in [false, true] {
        let (watch, sink) = snapshot(
            &db,
            &["cdc.snapshot.chunk.rows=50", "cdc.snapshot.threads=4"],
            gate,
        );
        assert_complete_and_ordered(&watch, &sink, 1000);
        let seen = watch.seen.lock().unwrap();
        // 20 chunks in 5 waves: the first SCN beside the planning, each of the 4 others while
        // the wave before it was read, on a session of its own. Before: on the coordinating
        // session, after the wave before it was read (a round trip a wave).
        assert_eq!(seen.scns, 5, "gate {gate}");
        assert_eq!(seen.scns_on_coordinator, 0, "gate {gate}");
    }
}
