//! The mining bound, in process against the emulator: a window that ended at CURRENT_SCN would
//! pass over an open transaction's changes still in the log buffer (LogMiner does not return
//! them yet), the next window would start after them, and the transaction would be published
//! without them.

use crate::capture::{Capture, CaptureEnd};
use crate::settings::{Settings, SnapshotMode};
use crate::sim::check;
use crate::snapshot::NoProgress;
use crate::source::emulator::clock::ManualClock;
use crate::source::emulator::writer::Writer;
use crate::source::emulator::{self, EmulatorConnector, Faults};
use crate::source::Connector;
use crate::types::Value;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

const SCHEMA: &str = r#"
seed: 3
database:
  start_scn: 7000
tables:
  - name: HR.EMP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 5
"#;

#[test]
fn no_window_ends_past_the_redo_lgwr_has_written() {
    let dir = tempfile::tempdir().unwrap();
    let (db, state, out) = (
        dir.path().join("db"),
        dir.path().join("state"),
        dir.path().join("out"),
    );
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, SCHEMA).unwrap();
    // The clock stands still: redo leaves the log buffer only when its thread commits.
    let clock = ManualClock::new(1_700_000_000_000);
    emulator::init(&db, &schema, None, Arc::new(clock.clone())).unwrap();
    let conn = EmulatorConnector::open_with_clock(&db, Faults::default(), Arc::new(clock.clone()))
        .unwrap();
    let start = conn.connect().unwrap().current_scn().unwrap();
    let baseline = check::contents(&conn, start).unwrap();
    let settings = Settings::from_pairs(&[
        &format!("cdc.database.url=emulator:{}", db.display()),
        &format!("cdc.state.dir={}", state.display()),
        &format!("cdc.sink.dir={}", out.display()),
        "cdc.snapshot.mode=none",
        "cdc.stream.poll.ms=10",
        "cdc.signal.poll.ms=10",
        "cdc.heartbeat.interval.ms=0",
        "cdc.metrics.interval.ms=0",
    ])
    .unwrap();

    // After capture's first round the workload opens a transaction and changes rows (its
    // redo stays in the log buffer); after the second it commits.
    let writer = Rc::new(RefCell::new(
        Writer::open(&db, Arc::new(clock.clone()), false).unwrap(),
    ));
    let rounds = Arc::new(AtomicU32::new(0));
    let (w, r) = (writer.clone(), rounds.clone());
    let mut open = None;
    let _armed = crate::crashpoint::arm(move |point| {
        if point != "capture.offsets.saved" {
            return Ok(());
        }
        let mut w = w.borrow_mut();
        match r.fetch_add(1, Ordering::SeqCst) {
            0 => {
                let x = w.begin()?;
                for id in 101..104 {
                    w.insert(
                        x,
                        0,
                        vec![Value::Number(id.to_string()), Value::Text("new".into())],
                    )?;
                }
                open = Some(x);
            }
            1 => {
                if let Some(x) = open.take() {
                    w.commit(&[x])?;
                }
            }
            _ => {}
        }
        Ok(())
    });
    let stop = || rounds.load(Ordering::SeqCst) >= 6;
    let (end_kind, _) = Capture {
        connector: &conn,
        settings: &settings,
        progress: &NoProgress,
        stop: &stop,
        stop_at: None,
    }
    .run()
    .unwrap();
    assert!(matches!(end_kind, CaptureEnd::Stopped));
    drop(_armed);

    let end = conn.connect().unwrap().current_scn().unwrap();
    let found = check::check(
        &conn,
        &db,
        &out,
        start + 1,
        end,
        baseline,
        SnapshotMode::None,
    )
    .unwrap();
    assert!(found.violations.is_empty(), "{:#?}", found.violations);
    assert_eq!(found.records, 3, "the three inserts, each once");
}
