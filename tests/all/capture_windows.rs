//! Mining windows over sparse redo: SCNs with no redo between them (a database link to a
//! database further ahead raises the SCN at once) are mined in windows that stretch over them,
//! not in `cdc.stream.window.scn` steps, one LogMiner session each.

use crate::capture_support::*;
use serde_json::Value as Json;
use std::path::Path;

const SCHEMA: &str = r#"
seed: 9
tables:
  - name: HR.T
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NOTE, type: VARCHAR2(30) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 20
"#;

/// SCNs each jump adds: 10^4 windows of the 1,000 SCNs set below.
const JUMP: u64 = 10_000_000;

fn capture(db: &Path, state: &Path, out: &Path, end: u64) {
    run(&[
        "-q",
        "--set",
        &format!("cdc.database.url=emulator:{}", db.display()),
        "--set",
        &format!("cdc.state.dir={}", state.display()),
        "--set",
        &format!("cdc.sink.dir={}", out.display()),
        "--set",
        "cdc.stream.window.scn=1000",
        "--set",
        "cdc.stream.poll.ms=20",
        "capture",
        "--stop-at-scn",
        &end.to_string(),
    ]);
}

/// The last `capture-metrics` event of the last run.
fn last_metrics(state: &Path) -> Json {
    events(state)
        .into_iter()
        .rfind(|e| e["event"] == "capture-metrics")
        .expect("a capture-metrics event")
}

/// Three jumps of 10^7 SCNs among 60 transactions: capture publishes every change once and
/// converges, in a few dozen windows. Before windows stretched, it mined 1,000 SCNs a window:
/// over 30,000 LogMiner sessions, nearly all empty.
#[test]
fn scn_jumps_are_mined_in_windows_that_stretch_over_them() {
    let Emulated {
        dir,
        db,
        state,
        out,
    } = emulated(SCHEMA);
    let db_arg = db.to_str().unwrap();
    // The snapshot first, so that mining starts before the jumps.
    let start = current_scn(&db);
    capture(&db, &state, &out, start);

    let o = run(&[
        "emulator",
        "workload",
        db_arg,
        "--transactions",
        "60",
        "--rate",
        "0",
        "--seed",
        "4",
        "--long-every",
        "0",
        "--scn-jump-every",
        "20",
        "--scn-jump",
        &JUMP.to_string(),
        "--format",
        "json",
    ]);
    let summary: Json = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(summary["scn_jumps"], 3, "{summary}");
    let end = current_scn(&db);
    assert!(end > start + 3 * JUMP, "{start} .. {end}");

    capture(&db, &state, &out, end);
    let m = last_metrics(&state);
    let windows = m["windows"].as_u64().unwrap();
    assert!(windows < 200, "{windows} windows for {} SCNs", end - start);
    // Nothing left out over the jumps.
    let recs = records(&out);
    assert_exactly_once(&recs);
    assert_table_converges(&db, &recs, "HR.T", end);
    let changes = recs
        .iter()
        .filter(|r| ["c", "u", "d"].contains(&payload(&r["value"])["op"].as_str().unwrap_or("")))
        .count();
    assert!(changes > 60, "{changes} changes published");
    drop(dir);
}
