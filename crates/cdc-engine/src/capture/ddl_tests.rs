//! ADD and DROP COLUMN while a table's snapshot runs, throttled or not: chunks read after the
//! DDL select the columns the table has at their SCN (the schema history, streamed up to it),
//! so their records do not overwrite the streamed changes that carried the new column, and a
//! dropped column is not selected any more (ORA-00904). Capture in process against the
//! emulator; the workload acts from the snapshot's chunk hook.

use crate::capture::{Capture, CaptureEnd};
use crate::crashpoint::Point;
use crate::settings::Settings;
use crate::sim::check;
use crate::snapshot::NoProgress;
use crate::source::emulator::redo::DdlChange;
use crate::source::emulator::writer::Writer;
use crate::source::emulator::{self, clock, EmulatorConnector, Faults};
use crate::types::{ColumnType, Value};
use cdc_core::model::ColumnInfo;
use cdc_core::session::Connector;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

const SCHEMA: &str = r#"
seed: 5
tables:
  - name: HR.EMP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
      - { name: OLD, type: VARCHAR2(10) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 600
"#;

/// Every row's NOTE (added after chunk 3) set, 50 rows a transaction; with `drop_old`, OLD dropped
/// after chunk 6 and every row's NAME changed. Returns the violations of the sim's invariants and the
/// columns of the snapshot records of the last chunk.
fn run(extra: &[&str], drop_old: bool) -> (Vec<String>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let (db, state, out) = (
        dir.path().join("db"),
        dir.path().join("state"),
        dir.path().join("out"),
    );
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, SCHEMA).unwrap();
    // The database's clock moves while capture waits for redo (one LGWR period a wait): the
    // last commit becomes minable once the SCN moved on past it (`source::threads`).
    let clock = clock::ManualClock::new(clock::system().now_ms());
    emulator::init(&db, &schema, None, Arc::new(clock.clone())).unwrap();
    let conn = EmulatorConnector::open_with_clock(&db, Faults::default(), Arc::new(clock.clone()))
        .unwrap();
    let start = conn.connect().unwrap().current_scn().unwrap();
    let mut pairs = vec![
        format!("cdc.database.url=emulator:{}", db.display()),
        format!("cdc.state.dir={}", state.display()),
        format!("cdc.sink.dir={}", out.display()),
        "cdc.snapshot.chunk.rows=50".into(),
        "cdc.snapshot.threads=1".into(),
        "cdc.stream.poll.ms=10".into(),
        "cdc.signal.poll.ms=10".into(),
        "cdc.heartbeat.interval.ms=0".into(),
        "cdc.metrics.interval.ms=0".into(),
    ];
    pairs.extend(extra.iter().map(|s| s.to_string()));
    let settings = Settings::from_pairs(&pairs).unwrap();
    let mut w = Writer::open(&db, Arc::new(clock.clone()), false).unwrap();
    let chunks = Arc::new(AtomicU32::new(0));
    let rounds = Arc::new(AtomicU32::new(0));
    // The last change the hook made: streaming rounds count once it is published.
    let last_change = Arc::new(AtomicU64::new(0));
    let (c, r, l) = (chunks.clone(), rounds.clone(), last_change.clone());
    let offsets_path = state.join("offsets.json");
    let armed = crate::crashpoint::arm(move |point| {
        match point {
            Point::PublisherWaitingForRedo => clock.advance(3_000),
            Point::SnapshotChunkPublished => {
                let n = c.fetch_add(1, Ordering::SeqCst) + 1;
                let rids: Vec<_> = w.replica().tables[0].rows.keys().copied().collect();
                if n == 3 {
                    let column = ColumnInfo {
                        name: "NOTE".into(),
                        data_type: ColumnType::varchar2(20),
                        nullable: true,
                        virtual_column: false,
                        hidden: false,
                    };
                    w.ddl(0, DdlChange::AddColumn { column })?;
                    // In transactions of 50 rows: the next chunk's SCN is past most of them.
                    let at = w.columns(0).len() - 1;
                    for (k, part) in rids.chunks(50).enumerate() {
                        let x = w.begin()?;
                        for (i, rid) in part.iter().enumerate() {
                            let v = Value::Text(format!("n{}", k * 50 + i).into());
                            w.update_set(x, 0, *rid, &[(at, v)])?;
                        }
                        l.fetch_max(w.commit(&[x])?, Ordering::SeqCst);
                    }
                }
                if n == 6 && drop_old {
                    w.ddl(0, DdlChange::DropColumn { name: "OLD".into() })?;
                    for part in rids.chunks(50) {
                        let x = w.begin()?;
                        for rid in part {
                            w.update_set(x, 0, *rid, &[(1, Value::Text("renamed".into()))])?;
                        }
                        l.fetch_max(w.commit(&[x])?, Ordering::SeqCst);
                    }
                }
            }
            Point::CaptureOffsetsSaved => {
                let published = crate::offsets::Offsets::load(&offsets_path)?
                    .and_then(|o| o.stream)
                    .map_or(0, |p| p.commit_scn);
                if published >= l.load(Ordering::SeqCst) {
                    r.fetch_add(1, Ordering::SeqCst);
                }
            }
            _ => {}
        }
        Ok(())
    });
    // Streaming rounds come once the snapshot is done.
    let stop = || rounds.load(Ordering::SeqCst) >= 3;
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
    assert!(
        chunks.load(Ordering::SeqCst) >= 12,
        "600 rows in chunks of 50"
    );
    let last = conn.connect().unwrap().current_scn().unwrap();
    let found = check::check(
        &conn,
        &db,
        &out,
        &state.join("offsets.json"),
        (start + 1, last),
        check::Contents::new(),
        &settings,
    )
    .unwrap();
    let mut last_chunk = Vec::new();
    for (_, path) in crate::sink::segments(&out).unwrap() {
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            if r["value"]["payload"]["op"] == "r" {
                last_chunk = r["value"]["payload"]["after"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .cloned()
                    .collect();
            }
        }
    }
    (found.violations, last_chunk)
}

#[test]
fn add_column_during_a_snapshot_converges() {
    // Before: the chunks after the ADD selected ID, NAME, OLD only, and their records
    // overwrote the streamed updates that had set NOTE (invariant 1).
    let (violations, columns) = run(&[], false);
    assert!(violations.is_empty(), "{violations:#?}");
    assert_eq!(columns, ["ID", "NAME", "OLD", "NOTE"]);
}

#[test]
fn add_and_drop_column_during_a_snapshot_converge() {
    // Before: the chunks after the DROP still selected OLD: ORA-00904 until CDC-8001.
    let (violations, columns) = run(&[], true);
    assert!(violations.is_empty(), "{violations:#?}");
    assert_eq!(columns, ["ID", "NAME", "NOTE"]);
}

#[test]
fn add_and_drop_column_during_a_throttled_snapshot_converge() {
    // 600 rows at 1,500 rows/s: the throttle waits (and streams) between waves.
    let (violations, columns) = run(&["cdc.snapshot.max.rows.per.second=1500"], true);
    assert!(violations.is_empty(), "{violations:#?}");
    assert_eq!(columns, ["ID", "NAME", "NOTE"]);
}
