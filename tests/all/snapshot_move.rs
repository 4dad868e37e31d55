//! ALTER TABLE … MOVE of a table while `oracle-cdc snapshot` reads it by ROWID ranges (it has
//! no key). A move gives the segment a new data object number, which every ROWID carries, so
//! the ranges planned before it hold nothing after it; the read AS OF an SCN before the move
//! fails with ORA-01466, and its retry at a fresh SCN read the old, empty ranges: the export
//! finished, complete and short of rows, and no row change in the redo would bring them. Now
//! the reader sees the new data objects before each wave and, chunks of the table published
//! already, stops the table with CDC-8009 (before any, it plans the table again: the engine's
//! `snapshot::ddl_tests` show it deterministically).

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use std::process::Command;
use std::time::Duration;

const SCHEMA: &str = r#"
seed: 41
tables:
  - name: APP.LOG
    columns:
      - { name: AT, type: NUMBER(12) }
      - { name: MSG, type: VARCHAR2(30) }
    rows: 400
"#;

#[test]
fn an_export_of_a_table_moved_while_it_is_read_stops_with_cdc_8009_not_short() {
    let Emulated { dir, db, .. } = emulated(SCHEMA);
    let export = dir.path().join("export");
    // A MOVE every 20 transactions at 100 a second (every ~200 ms, for 4 s); the export reads
    // 20 waves of one 20-row chunk, each at least 60 ms: moves meet it after chunks of it
    // were published.
    let w = workload(
        &db,
        &[
            "--transactions",
            "400",
            "--rate",
            "100",
            "--move-every",
            "20",
            "--seed",
            "41",
        ],
    );
    std::thread::sleep(Duration::from_millis(300));
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "--set",
            &format!("cdc.database.url=emulator:{}", db.display()),
            "--set",
            "cdc.snapshot.chunk.rows=20",
            "--set",
            "cdc.snapshot.threads=1",
            "--set",
            "cdc.emulator.fault.read.delay.ms=60",
            "-q",
            "snapshot",
            "--out",
            export.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    finish(w);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success(),
        "the export finished although the table moved under it (its ROWID ranges read the old segment): {stderr}"
    );
    assert!(stderr.contains("CDC-8009"), "{stderr}");
    assert!(stderr.contains("APP.LOG"), "{stderr}");
    let failed = events(&export)
        .into_iter()
        .filter(|e| e["event"] == "snapshot-chunk-failed" && e["code"] == "CDC-8009")
        .count();
    assert_eq!(failed, 1, "one snapshot-chunk-failed event");
}
