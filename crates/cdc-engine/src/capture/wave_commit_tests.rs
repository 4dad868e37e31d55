//! Capture's snapshot commits its sink once a wave: the chunks of a wave are published one
//! after the other with nothing streamed between them, so all but the last are written
//! without a commit and the last one's commit (an fsync of the file sink, a Kafka
//! transaction) makes the whole wave durable before the state that counts it is saved.

use crate::capture::{Capture, CaptureEnd};
use crate::crashpoint::Point;
use crate::settings::Settings;
use crate::sim::check;
use crate::snapshot::NoProgress;
use crate::source::emulator::{self, clock, EmulatorConnector, Faults};
use cdc_core::session::Connector;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

const SCHEMA: &str = r#"
seed: 5
database:
  start_scn: 7000
tables:
  - name: HR.EMP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 8000
"#;

#[test]
fn a_capture_snapshot_commits_its_sink_once_a_wave() {
    let dir = tempfile::tempdir().unwrap();
    let (db, state, out) = (
        dir.path().join("db"),
        dir.path().join("state"),
        dir.path().join("out"),
    );
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, SCHEMA).unwrap();
    emulator::init(&db, &schema, None, clock::system()).unwrap();
    let conn = EmulatorConnector::open(&db, Faults::default()).unwrap();
    // The load's last change (V$DATABASE.CURRENT_SCN is one past it while no transaction is
    // open: no redo of this quiet database reaches that).
    let start = conn
        .with_replica_meta(|r, _| r.newest_change_scn())
        .unwrap();
    let settings = Settings::from_pairs(&[
        &format!("cdc.database.url=emulator:{}", db.display()),
        &format!("cdc.state.dir={}", state.display()),
        &format!("cdc.sink.dir={}", out.display()),
        "cdc.snapshot.mode=initial",
        "cdc.snapshot.chunk.rows=1000",
        "cdc.snapshot.threads=4",
        "cdc.stream.poll.ms=10",
        "cdc.heartbeat.interval.ms=0",
        "cdc.metrics.interval.ms=0",
    ])
    .unwrap();
    let points: Rc<RefCell<Vec<Point>>> = Rc::default();
    let p = points.clone();
    let armed = crate::crashpoint::arm(move |point| {
        p.borrow_mut().push(point);
        Ok(())
    });
    let (end, _) = Capture {
        connector: &conn,
        settings: &settings,
        progress: &NoProgress,
        stop: &|| false,
        stop_at: Some(start),
    }
    .run()
    .unwrap();
    drop(armed);
    assert!(matches!(end, CaptureEnd::ReachedScn(_)), "{end:?}");
    let points = points.borrow();
    let mut hits: HashMap<Point, u32> = HashMap::new();
    for p in points.iter() {
        *hits.entry(*p).or_default() += 1;
    }
    let count = |p: Point| hits.get(&p).copied().unwrap_or(0);
    let published = count(Point::SnapshotChunkPublished);
    assert_eq!(published, 8, "8,000 rows in chunks of 1,000");
    // Two waves of four: one commit each, the three chunks before it written only.
    assert_eq!(count(Point::PublisherChunkCommitted), 2, "{hits:?}");
    assert_eq!(count(Point::PublisherChunkWritten), 6, "{hits:?}");
    // Between a chunk written and its wave's commit nothing is made durable: no sink commit
    // and no offsets save (which would count a chunk whose lines a crash could still lose).
    let mut unsynced = false;
    for p in points.iter() {
        match *p {
            Point::PublisherChunkWritten => unsynced = true,
            Point::PublisherChunkCommitted => unsynced = false,
            Point::SinkCommitSynced | Point::AtomicWriteRenamed | Point::CaptureOffsetsSaved => {
                assert!(
                    !unsynced,
                    "{p} while a chunk is written but not committed: {points:?}"
                )
            }
            _ => {}
        }
    }
    assert!(!unsynced, "a wave ended without its commit");
    // One sink commit a wave (before: one a chunk). The chunks are read at CURRENT_SCN, one
    // past the load's last change, so the last wave's stream already reaches the stop SCN:
    // streaming has nothing left to commit.
    assert_eq!(count(Point::SinkCommitSynced), 2, "{hits:?}");

    // Every row once, and the records converge to the table.
    let now = conn.connect().unwrap().current_scn().unwrap();
    let found = check::check(
        &conn,
        &db,
        &out,
        &state.join("offsets.json"),
        (start + 1, now),
        check::Contents::new(),
        &settings,
    )
    .unwrap();
    assert!(found.violations.is_empty(), "{:#?}", found.violations);
    assert_eq!(found.records, 8000);
}
