//! Capture in process against the emulator while the workload acts between capture's rounds:
//! the mining bound (a window that ended at CURRENT_SCN would pass over an open transaction's
//! changes still in the log buffer, which LogMiner does not return yet; the next window would
//! start after them and the transaction be published without them) and the host time zone of
//! LogMiner's commit times.

use crate::capture::{Capture, CaptureEnd};
use crate::errors::Result;
use crate::settings::Settings;
use crate::sim::check;
use crate::snapshot::NoProgress;
use crate::source::emulator::clock::ManualClock;
use crate::source::emulator::writer::Writer;
use crate::source::emulator::{self, EmulatorConnector, Faults};
use crate::types::Value;
use cdc_core::model::Scn;
use cdc_core::session::Connector;
use serde_json::Value as Json;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

const T0: i64 = 1_700_000_000_000;

fn schema(extra: &str) -> String {
    format!(
        r#"
seed: 3
database:
  start_scn: 7000
{extra}
tables:
  - name: HR.EMP
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: NAME, type: VARCHAR2(40) }}
    primary_key: [ID]
    supplemental_logging: all
    rows: 5
"#
    )
}

struct Run {
    _dir: tempfile::TempDir,
    conn: EmulatorConnector,
    out: std::path::PathBuf,
    db: std::path::PathBuf,
    start: Scn,
    baseline: check::Contents,
    settings: Settings,
}

impl Run {
    /// The invariants against the emulator's own tables, at its current SCN.
    fn violations(self) -> (Vec<String>, u64) {
        let end = self.conn.connect().unwrap().current_scn().unwrap();
        let found = check::check(
            &self.conn,
            &self.db,
            &self.out,
            &self.db.with_file_name("state").join("offsets.json"),
            (self.start + 1, end),
            self.baseline,
            &self.settings,
        )
        .unwrap();
        (found.violations, found.records)
    }

    fn records(&self) -> Vec<Json> {
        let mut out = Vec::new();
        for (_, path) in crate::sink::segments(&self.out).unwrap() {
            for line in std::fs::read_to_string(path).unwrap().lines() {
                out.push(serde_json::from_str(line).unwrap());
            }
        }
        out
    }
}

/// Capture (`cdc.snapshot.mode=none`) on a new emulated database whose clock stands still
/// but while capture waits for redo (one LGWR period, 3 s, per wait); after capture's round N
/// (its offsets saved) `step(N, writer, clock)` runs; capture stops after `rounds` rounds.
fn capture_while(
    schema_text: &str,
    rounds: u32,
    step: impl FnMut(u32, &mut Writer, &ManualClock) -> Result<()> + 'static,
) -> Run {
    capture_with(schema_text, &["cdc.snapshot.mode=none"], rounds, step)
}

/// Waits for minable redo one capture may make before the test calls it a hang.
const MAX_REDO_WAITS: u32 = 2_000;

/// [`capture_while`] with `extra` settings.
fn capture_with(
    schema_text: &str,
    extra: &[&str],
    rounds: u32,
    mut step: impl FnMut(u32, &mut Writer, &ManualClock) -> Result<()> + 'static,
) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let (db, state, out) = (
        dir.path().join("db"),
        dir.path().join("state"),
        dir.path().join("out"),
    );
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, schema_text).unwrap();
    let clock = ManualClock::new(T0);
    emulator::init(&db, &schema, None, Arc::new(clock.clone())).unwrap();
    let conn = EmulatorConnector::open_with_clock(&db, Faults::default(), Arc::new(clock.clone()))
        .unwrap();
    let start = conn.connect().unwrap().current_scn().unwrap();
    let (url, state_dir, sink_dir) = (
        format!("cdc.database.url=emulator:{}", db.display()),
        format!("cdc.state.dir={}", state.display()),
        format!("cdc.sink.dir={}", out.display()),
    );
    let mut pairs: Vec<&str> = vec![
        &url,
        &state_dir,
        &sink_dir,
        "cdc.stream.poll.ms=10",
        "cdc.signal.poll.ms=10",
        "cdc.heartbeat.interval.ms=0",
        "cdc.metrics.interval.ms=0",
    ];
    pairs.extend_from_slice(extra);
    let settings = Settings::from_pairs(&pairs).unwrap();
    let baseline = check::contents(&conn, start, &settings).unwrap();
    let mut writer = Writer::open(&db, Arc::new(clock.clone()), false).unwrap();
    let done = Arc::new(AtomicU32::new(0));
    let d = done.clone();
    let waits = AtomicU32::new(0);
    let waiting_clock = clock.clone();
    let armed = crate::crashpoint::arm(move |point| {
        if point == crate::crashpoint::Point::PublisherWaitingForRedo {
            // Time passes while capture waits for redo to become minable; waiting on and on
            // is a hang.
            waiting_clock.advance(3_000);
            if waits.fetch_add(1, Ordering::SeqCst) >= MAX_REDO_WAITS {
                return Err(crate::errors::CdcError::Database(format!(
                    "capture waited for minable redo {MAX_REDO_WAITS} times: the mining bound does not move"
                )));
            }
            return Ok(());
        }
        if point != crate::crashpoint::Point::CaptureOffsetsSaved {
            return Ok(());
        }
        let n = d.fetch_add(1, Ordering::SeqCst);
        step(n, &mut writer, &clock)
    });
    let stop = || done.load(Ordering::SeqCst) >= rounds;
    let (end, _) = Capture {
        connector: &conn,
        settings: &settings,
        progress: &NoProgress,
        stop: &stop,
        stop_at: None,
    }
    .run()
    .unwrap();
    drop(armed);
    assert!(matches!(end, CaptureEnd::Stopped));
    Run {
        _dir: dir,
        conn,
        out,
        db,
        start,
        baseline,
        settings,
    }
}

fn emp(id: i64) -> Vec<Value> {
    vec![
        Value::Number(id.to_string().into()),
        Value::Text("new".into()),
    ]
}

#[test]
fn no_window_ends_past_the_redo_lgwr_has_written() {
    // After capture's first round the workload opens a transaction and changes rows: the
    // clock stands still, so their redo stays in the log buffer; after the second it commits.
    let open = Rc::new(RefCell::new(None));
    let run = capture_while(&schema(""), 6, move |n, w, _| {
        match n {
            0 => {
                let x = w.begin()?;
                for id in 101..104 {
                    w.insert(x, 0, emp(id))?;
                }
                *open.borrow_mut() = Some(x);
            }
            1 => {
                if let Some(x) = open.borrow_mut().take() {
                    w.commit(&[x])?;
                }
            }
            _ => {}
        }
        Ok(())
    });
    let (violations, records) = run.violations();
    assert!(violations.is_empty(), "{violations:#?}");
    assert_eq!(records, 3, "the three inserts, each once");
}

#[test]
fn commit_times_from_a_host_east_of_utc_are_published_as_utc() {
    // The host's clock is 5:30 ahead of UTC: LogMiner's COMMIT_TIMESTAMP and TIMESTAMP show
    // that, and the records' source.commit_ts_ms must still be the commit's instant (and
    // source.ts_ms the change's: the same second here).
    let commits = Rc::new(RefCell::new(Vec::new()));
    let c = commits.clone();
    let run = capture_while(
        &schema("  host_utc_offset: \"+05:30\""),
        4,
        move |n, w, clock| {
            if n == 0 {
                clock.advance(12_345);
                let x = w.begin()?;
                w.insert(x, 0, emp(201))?;
                let at = w.now();
                w.commit(&[x])?;
                c.borrow_mut().push(at);
            }
            Ok(())
        },
    );
    let recs = run.records();
    assert_eq!(recs.len(), 1, "{recs:?}");
    // A DATE has whole seconds.
    let at = commits.borrow()[0];
    let source = &recs[0]["value"]["payload"]["source"];
    assert_eq!(source["commit_ts_ms"], at / 1000 * 1000);
    assert_eq!(source["ts_ms"], at / 1000 * 1000);
    let (violations, _) = run.violations();
    assert!(violations.is_empty(), "{violations:#?}");
}

#[test]
fn capture_converges_with_an_idle_open_rac_thread() {
    // Two instances; every transaction runs on thread 1: thread 2 is open and writes no redo,
    // so its V$THREAD position (LAST_REDO_CHANGE# …) stands still at the database's start. The
    // snapshot's chunks wait for the redo up to their SCN and the stream for the redo up to the
    // last commit: both must get past the idle thread without anything written to the
    // database, within a bounded number of waits (each one LGWR period).
    let run = capture_with(
        &schema("  redo_threads: 2\n  idle_threads: [2]"),
        &["cdc.snapshot.mode=initial", "cdc.snapshot.chunk.rows=2"],
        10,
        |n, w, _| {
            if n < 4 {
                let x = w.begin()?;
                w.insert(x, 0, emp(300 + i64::from(n)))?;
                w.commit(&[x])?;
            }
            Ok(())
        },
    );
    let threads = run.conn.connect().unwrap().redo_threads().unwrap();
    let idle = threads.iter().find(|t| t.thread == 2).unwrap();
    assert_eq!(
        idle.last_redo_scn, 7000,
        "thread 2 wrote nothing since the database started: {threads:?}"
    );
    let (violations, records) = run.violations();
    assert!(violations.is_empty(), "{violations:#?}");
    assert_eq!(
        records,
        5 + 4,
        "the five rows of the snapshot and the four inserts"
    );
}

#[test]
fn commit_times_on_a_26ai_database_with_time_at_dbtimezone_are_published_as_utc() {
    // 26ai's TIME_AT_DBTIMEZONE with a database time zone 13:30 from the host's: USER_SQL moves
    // SYSTIMESTAMP alone to -08:00 (LogMiner's DATEs stay on the host's +05:30), DATABASE moves
    // every time there. Either way a record's times are the commit's instant.
    for mode in ["user_sql", "database"] {
        let commits = Rc::new(RefCell::new(Vec::new()));
        let c = commits.clone();
        let run = capture_while(
            &schema(&format!(
                "  version: 23.26.0.0.0\n  host_utc_offset: \"+05:30\"\n  db_time_zone: \"-08:00\"\n  time_at_dbtimezone: {mode}"
            )),
            4,
            move |n, w, clock| {
                if n == 0 {
                    clock.advance(12_345);
                    let x = w.begin()?;
                    w.insert(x, 0, emp(201))?;
                    let at = w.now();
                    w.commit(&[x])?;
                    c.borrow_mut().push(at);
                }
                Ok(())
            },
        );
        let recs = run.records();
        assert_eq!(recs.len(), 1, "{mode}: {recs:?}");
        let at = commits.borrow()[0];
        let source = &recs[0]["value"]["payload"]["source"];
        assert_eq!(source["commit_ts_ms"], at / 1000 * 1000, "{mode}");
        assert_eq!(source["ts_ms"], at / 1000 * 1000, "{mode}");
    }
}
