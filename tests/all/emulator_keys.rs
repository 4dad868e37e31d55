//! `emulator workload` run twice on one database: keys (primary and unique, of every key type)
//! never repeat, and every value fits its column.

use assert_cmd::cargo::cargo_bin;
use std::collections::HashSet;
use std::process::Command;

const SCHEMA: &str = r#"
seed: 4
tables:
  - name: APP.ITEMS
    columns:
      - { name: K, type: VARCHAR2(12), nullable: false }
      - { name: CODE, type: CHAR(4), nullable: false }
      - { name: NAME, type: VARCHAR2(6) }
    primary_key: [K]
    unique_keys: [[CODE]]
    supplemental_logging: all
    rows: 30
  - name: APP.EVENTS
    columns:
      - { name: AT, type: TIMESTAMP(6) WITH TIME ZONE, nullable: false }
      - { name: SEQ, type: BINARY_DOUBLE, nullable: false }
      - { name: NOTE, type: VARCHAR2(10) }
    primary_key: [AT]
    unique_keys: [[SEQ]]
    rows: 30
"#;

fn run(args: &[&str]) -> String {
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// `emulator init` of [`SCHEMA`] in `dir`; the database's path.
fn init(dir: &std::path::Path) -> String {
    let schema = dir.join("schema.yaml");
    std::fs::write(&schema, SCHEMA).unwrap();
    let db = dir.join("db").to_str().unwrap().to_string();
    run(&[
        "-q",
        "emulator",
        "init",
        &db,
        "--schema",
        schema.to_str().unwrap(),
    ]);
    db
}

#[test]
fn two_workload_runs_never_repeat_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let db = init(dir.path());
    let db = db.as_str();
    for seed in ["1", "1"] {
        run(&[
            "-q",
            "emulator",
            "workload",
            db,
            "--transactions",
            "120",
            "--mix",
            "insert=40,update=30,delete=30",
            "--key-update-pct",
            "30",
            "--seed",
            seed,
        ]);
    }
    for (table, keys) in [("APP.ITEMS", ["K", "CODE"]), ("APP.EVENTS", ["AT", "SEQ"])] {
        let rows: Vec<serde_json::Value> = run(&["emulator", "dump", db, "--table", table])
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(rows.len() > 30, "{table}: {} rows", rows.len());
        for key in keys {
            let mut seen = HashSet::new();
            for r in &rows {
                assert!(
                    seen.insert(r[key].to_string()),
                    "{table}.{key} {} twice",
                    r[key]
                );
            }
        }
        if table == "APP.EVENTS" {
            // Real time-zoned instants and numbers, not text like `K00000001`.
            assert!(rows.iter().all(|r| r["SEQ"].is_number()), "{rows:?}");
            assert!(rows
                .iter()
                .all(|r| r["AT"].as_str().is_some_and(|s| s.starts_with("20"))));
        }
    }
}

/// `emulator dump --rowid` gives each row its own ROWID beside the same values; without it, no
/// ROWID is read or written (JSONL and CSV).
#[test]
fn dump_writes_rowids_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let db = init(dir.path());
    let db = db.as_str();
    let dump = |extra: &[&str]| -> Vec<serde_json::Map<String, serde_json::Value>> {
        let mut args = vec!["emulator", "dump", db, "--table", "APP.ITEMS"];
        args.extend_from_slice(extra);
        run(&args)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let plain = dump(&[]);
    let mut with = dump(&["--rowid"]);
    assert_eq!(plain.len(), 30);
    assert!(plain.iter().all(|r| !r.contains_key("ROWID")));
    let mut rowids = HashSet::new();
    for r in &mut with {
        let rowid = r.remove("ROWID").expect("a ROWID field");
        let rowid = rowid.as_str().unwrap().to_string();
        assert_eq!(rowid.len(), 18, "{rowid}");
        assert!(rowids.insert(rowid), "each row its own ROWID");
    }
    assert_eq!(with, plain);
    let csv_plain = run(&[
        "emulator",
        "dump",
        db,
        "--table",
        "APP.ITEMS",
        "--format",
        "csv",
    ]);
    let csv_with = run(&[
        "emulator",
        "dump",
        db,
        "--table",
        "APP.ITEMS",
        "--format",
        "csv",
        "--rowid",
    ]);
    assert!(!csv_plain.lines().next().unwrap().contains("ROWID"));
    assert!(csv_with.lines().next().unwrap().contains("ROWID"));
    for line in csv_with.lines().skip(1) {
        assert!(
            line.split(',')
                .any(|f| rowids.contains(f.trim_matches('"'))),
            "{line}"
        );
    }
}
