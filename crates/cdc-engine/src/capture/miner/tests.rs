//! The miner hands on a window whole and in LogMiner's order: rows past a quarter of the
//! buffer's memory wait on disk and come back first, and a transient failure mines the window
//! again on a new session (counted as a source retry), its rows handed on once.

use super::Miner;
use crate::ops::OpsLog;
use crate::settings::Settings;
use crate::source::emulator::clock::ManualClock;
use crate::source::emulator::writer::Writer;
use crate::source::emulator::{self, EmulatorConnector};
use crate::status::Status;
use crate::types::Value;
use cdc_core::model::{LogMinerRow, Scn};
use cdc_core::session::prelude::*;
use std::sync::Arc;

const SCHEMA: &str = r#"
seed: 3
database:
  start_scn: 9000
  redo_write_delay_ms: 0
tables:
  - name: HR.EMP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(60) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 0
"#;

struct Db {
    dir: tempfile::TempDir,
    from: Scn,
    to: Scn,
}

/// 300 committed inserts, one a transaction.
fn database() -> Db {
    let dir = tempfile::tempdir().unwrap();
    let (db, schema) = (dir.path().join("db"), dir.path().join("schema.yaml"));
    std::fs::write(&schema, SCHEMA).unwrap();
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    emulator::init(&db, &schema, None, clock.clone()).unwrap();
    let mut w = Writer::open(&db, clock, false).unwrap();
    let mut last = 0;
    for i in 0..300 {
        let xid = w.begin().unwrap();
        w.insert(
            xid,
            0,
            vec![
                Value::Number(i.to_string().into()),
                Value::Text(format!("{i:0>60}").into()),
            ],
        )
        .unwrap();
        last = w.commit(&[xid]).unwrap();
    }
    Db {
        dir,
        // The database's start_scn: the redo begins there.
        from: 9000,
        to: last,
    }
}

fn settings(db: &Db, extra: &[&str]) -> Settings {
    let url = format!(
        "cdc.database.url=emulator:{}",
        db.dir.path().join("db").display()
    );
    let mut pairs = vec![url.as_str(), "cdc.tables.include=HR.EMP"];
    pairs.extend_from_slice(extra);
    Settings::from_pairs(&pairs).unwrap()
}

fn connector(db: &Db, settings: &Settings) -> EmulatorConnector {
    EmulatorConnector::open(&db.dir.path().join("db"), settings.emulator_faults()).unwrap()
}

/// The window's rows as one session mines them with the same filter, straight.
fn straight(conn: &EmulatorConnector, settings: &Settings, db: &Db) -> Vec<LogMinerRow> {
    let filter = crate::capture::filter::mining_filter(settings, false);
    let mut rows = Vec::new();
    conn.connect()
        .unwrap()
        .mine(db.from, db.to, &filter, &mut |r| {
            rows.push(r);
            Ok(())
        })
        .unwrap();
    rows
}

fn status() -> Status {
    Status::new(Arc::new(OpsLog::discard()))
}

#[test]
fn a_window_past_a_quarter_of_the_buffer_comes_back_whole_in_order_part_from_disk() {
    let db = database();
    // 4 KiB of buffer: a quarter is a few rows, so most of the window waits on disk.
    let settings = settings(&db, &["cdc.stream.buffer.memory.bytes=4096"]);
    let conn = connector(&db, &settings);
    let expected = straight(&conn, &settings, &db);
    assert!(expected.len() >= 600, "{} rows", expected.len());
    let spill = db.dir.path().join("spill");
    std::fs::create_dir_all(&spill).unwrap();
    let mut miner = Miner::new(&conn, &settings, false, spill.clone(), status(), None).unwrap();
    let window = miner.mine_window(db.from, db.to).unwrap();
    assert!(window.spooled.is_some(), "nothing waited on disk");
    assert!(
        window.rows.len() < expected.len() / 2,
        "{} rows in memory",
        window.rows.len()
    );
    let got: Vec<LogMinerRow> = window.into_rows().collect::<Result<_, _>>().unwrap();
    assert_eq!(got, expected);
    let stats = miner.stats();
    assert_eq!(stats.rows_mined, expected.len() as u64);
    assert_eq!((stats.window, stats.windows), ((db.from, db.to), 1));
}

#[test]
fn a_transient_failure_mines_the_window_again_on_a_new_session_counted_as_a_retry() {
    let db = database();
    // The first mine call fails (ORA-00310: the log was overwritten while read), the second
    // succeeds; fast backoff.
    let settings = settings(
        &db,
        &[
            "cdc.emulator.fault.ora00310.mines=1",
            "cdc.database.connect.backoff.ms=10",
            "cdc.stream.buffer.memory.bytes=4096",
        ],
    );
    let conn = connector(&db, &settings);
    let spill = db.dir.path().join("spill");
    std::fs::create_dir_all(&spill).unwrap();
    let status = status();
    let mut miner = Miner::new(&conn, &settings, false, spill, status.clone(), None).unwrap();
    let got: Vec<LogMinerRow> = miner
        .mine_window(db.from, db.to)
        .unwrap()
        .into_rows()
        .collect::<Result<_, _>>()
        .unwrap();
    // The fault counted the first call; mined straight now, the same rows once each.
    assert_eq!(got, straight(&conn, &settings, &db));
    assert_eq!(miner.stats().windows, 1);
    let retries: u64 = status.board().stream.source_retries.values().sum();
    assert_eq!(retries, 1, "{:?}", status.board().stream.source_retries);
}
