//! Capture with the dictionary in the redo (`cdc.mining.dictionary=redo_logs`) while the
//! workload switches logs and the database keeps only a few archived logs: with a build at
//! each log switch (`cdc.mining.dictionary.build=log_switch`) the logs LogMiner needs stay the
//! few since the build before the last, so the purge never reaches them; with builds left to
//! the DBA (`never`) the one build there was is purged and mining stops (CDC-5302).

use crate::capture::{Capture, CaptureEnd};
use crate::errors::{CdcError, Result};
use crate::settings::Settings;
use crate::snapshot::NoProgress;
use crate::source::emulator::clock::ManualClock;
use crate::source::emulator::writer::Writer;
use crate::source::emulator::{self, EmulatorConnector, Faults};
use crate::types::Value;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

const SCHEMA: &str = r#"
seed: 5
database:
  start_scn: 9000
  # LGWR writes at once: a thread whose position stands still is idle at the next look, so
  # each round mines up to the last commit (with Oracle's three seconds the bound would wait
  # for the thread to be quiet that long on the manual clock; capture.md, "An idle thread").
  redo_write_delay_ms: 0
  archivelog: true
  log_size: 10
  archived_logs_kept: 3
tables:
  - name: HR.EMP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 3
"#;

struct Ran {
    _dir: tempfile::TempDir,
    result: Result<CaptureEnd>,
    events: Vec<serde_json::Value>,
    records: usize,
}

/// After each of capture's `rounds` rounds a workload step commits 7 inserts (8 of a log's 10
/// redo records: most steps switch a log), its writer opened for the step only.
fn capture_through_switches(build: &str, rounds: u32) -> Ran {
    capture_through_switches_with(build, rounds, Faults::default())
}

/// [`capture_through_switches`] with the emulator's fault drills.
fn capture_through_switches_with(build: &str, rounds: u32, faults: Faults) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let (db, state, out) = (
        dir.path().join("db"),
        dir.path().join("state"),
        dir.path().join("out"),
    );
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, SCHEMA).unwrap();
    let clock = ManualClock::new(1_700_000_000_000);
    emulator::init(&db, &schema, None, Arc::new(clock.clone())).unwrap();
    // The DBA's one build, as `oracle-cdc emulator build-dictionary` makes it.
    Writer::open(&db, Arc::new(clock.clone()), true)
        .unwrap()
        .build_dictionary()
        .unwrap();
    let conn = EmulatorConnector::open_with_clock(&db, faults, Arc::new(clock.clone())).unwrap();
    // As `source::open` sets it from cdc.mining.dictionary.
    conn.set_dictionary(cdc_core::model::Dictionary::RedoLogs)
        .unwrap();
    let settings = Settings::from_pairs(&[
        &format!("cdc.database.url=emulator:{}", db.display()),
        &format!("cdc.state.dir={}", state.display()),
        &format!("cdc.sink.dir={}", out.display()),
        "cdc.snapshot.mode=none",
        "cdc.mining.dictionary=redo_logs",
        &format!("cdc.mining.dictionary.build={build}"),
        "cdc.stream.poll.ms=10",
        "cdc.signal.poll.ms=10",
        "cdc.heartbeat.interval.ms=0",
        "cdc.metrics.interval.ms=0",
    ])
    .unwrap();
    let done = Arc::new(AtomicU32::new(0));
    let d = done.clone();
    let step_db = db.clone();
    let step_clock = clock.clone();
    let armed = crate::crashpoint::arm(move |point| {
        if point != crate::crashpoint::Point::CaptureOffsetsSaved {
            return Ok(());
        }
        let n = d.fetch_add(1, Ordering::SeqCst);
        step_clock.advance(1_000);
        let mut w = Writer::open(&step_db, Arc::new(step_clock.clone()), true)?;
        for i in 0..1 {
            let x = w.begin()?;
            for j in 0..7 {
                let id = 1000 + i64::from(n) * 10 + i * 7 + j;
                w.insert(
                    x,
                    0,
                    vec![
                        Value::Number(id.to_string().into()),
                        Value::Text("new".into()),
                    ],
                )?;
            }
            w.commit(&[x])?;
        }
        Ok(())
    });
    let stop = || done.load(Ordering::SeqCst) >= rounds;
    let result = Capture {
        connector: &conn,
        settings: &settings,
        progress: &NoProgress,
        stop: &stop,
        stop_at: None,
    }
    .run()
    .map(|(end, _)| end);
    drop(armed);
    let events = crate::ops::read_events(&state.join("ops.jsonl")).unwrap_or_default();
    let mut records = 0;
    for (_, path) in crate::sink::segments(&out).unwrap_or_default() {
        records += std::fs::read_to_string(path).unwrap().lines().count();
    }
    Ran {
        _dir: dir,
        result,
        events,
        records,
    }
}

impl Ran {
    /// How many ops events named `event` the run wrote.
    fn count(&self, event: &str) -> usize {
        self.events.iter().filter(|e| e["event"] == event).count()
    }
}

#[test]
fn builds_at_log_switches_keep_mining_inside_the_kept_logs() {
    let ran = capture_through_switches("log_switch", 12);
    assert!(
        matches!(ran.result, Ok(CaptureEnd::Stopped)),
        "{:?}",
        ran.result.as_ref().err().map(|e| e.to_string())
    );
    let builds = ran.count("dictionary-built");
    assert!(builds >= 6, "{builds} builds");
    // Every insert of the steps but the last, each once (the last step's after the last round
    // is not mined: capture stopped before).
    assert!(ran.records >= 11 * 7, "{} records", ran.records);
}

#[test]
fn without_builds_the_purge_takes_the_only_dictionary() {
    let ran = capture_through_switches("never", 12);
    match ran.result {
        Err(e @ CdcError::NoDictionaryInRedo { .. }) => {
            assert_eq!(e.code().info().code, "CDC-5302", "{e}")
        }
        other => panic!(
            "expected CDC-5302, got {:?}",
            other.map_err(|e| e.to_string())
        ),
    }
    assert!(ran.events.iter().all(|e| e["event"] != "dictionary-built"));
    // It went on while the build's log was kept: the purge stopped it, not the start.
    assert!(ran.records >= 7, "{} records", ran.records);
}

/// DDL holding the dictionary (ORA-01327) fails capture's 2nd and 4th builds: each is left to
/// the next log switch (a `dictionary-build-deferred` event), builds go on after, and mining
/// stays inside the kept logs (three archived logs: a build missed at two switches in a row
/// would let the purge take the build before). Before, the first failure turned builds off for
/// the run, and the purge then took the newest dictionary (CDC-5302).
#[test]
fn a_build_meeting_locked_dictionary_is_made_at_the_next_switch() {
    let faults = Faults {
        settings: crate::source::emulator::FaultSettings {
            ora01327_builds: vec![2, 4],
            ..Default::default()
        },
    };
    let ran = capture_through_switches_with("log_switch", 12, faults);
    assert!(
        matches!(ran.result, Ok(CaptureEnd::Stopped)),
        "{:?}",
        ran.result.as_ref().err().map(|e| e.to_string())
    );
    let deferred: Vec<_> = ran
        .events
        .iter()
        .filter(|e| e["event"] == "dictionary-build-deferred")
        .collect();
    assert_eq!(deferred.len(), 2, "{deferred:?}");
    assert!(
        deferred.iter().all(|e| e["code"] == "CDC-5015"),
        "{deferred:?}"
    );
    // Each build left to the next log switch: no two attempts (builds made or deferred) at
    // the same log sequences, and the build after a deferral at other sequences than the
    // deferral's. (Most of this test's rounds switch a log, so a capture trying again every
    // round would seldom be caught here; the attempts' sequences say where it was.)
    let attempts: Vec<_> = ran
        .events
        .iter()
        .filter(|e| e["event"] == "dictionary-built" || e["event"] == "dictionary-build-deferred")
        .map(|e| e["sequences"].to_string())
        .collect();
    let distinct: std::collections::BTreeSet<_> = attempts.iter().collect();
    assert_eq!(distinct.len(), attempts.len(), "{attempts:?}");
    for d in &deferred {
        let at = ran.events.iter().position(|e| e == *d).unwrap();
        let next = ran.events[at..]
            .iter()
            .find(|e| e["event"] == "dictionary-built")
            .unwrap_or_else(|| panic!("no build after {d}"));
        assert_ne!(next["sequences"], d["sequences"], "{d} then {next}");
    }
    assert!(ran
        .events
        .iter()
        .all(|e| e["event"] != "dictionary-build-failed"));
    let builds = ran.count("dictionary-built");
    assert!(builds >= 4, "{builds} builds");
    assert!(ran.records >= 11 * 7, "{} records", ran.records);
}
