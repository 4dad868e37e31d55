//! The emulator across processes: a writer killed with SIGKILL mid-workload loses nothing that
//! readers saw committed, leaves no damage a reader trips over, and the next writer recovers
//! (cuts a torn record, rolls back the transactions left open) and continues.

use crate::capture_support::emulator_status;
use assert_cmd::cargo::cargo_bin;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SCHEMA: &str = r#"
seed: 3
tables:
  - name: APP.ACCOUNTS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
    primary_key: [ID]
    rows: 200
"#;

fn run(args: &[&str]) -> std::process::Output {
    let out = Command::new(cargo_bin("oracle-cdc"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `emulator init` of [`SCHEMA`] into `dir/db`; the database's directory.
fn init_db(dir: &Path) -> std::path::PathBuf {
    let schema = dir.join("schema.yaml");
    std::fs::write(&schema, SCHEMA).unwrap();
    let db = dir.join("db");
    run(&[
        "emulator",
        "init",
        db.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
    ]);
    db
}

fn dump(db: &Path, scn: u64) -> String {
    let out = run(&[
        "emulator",
        "dump",
        db.to_str().unwrap(),
        "--table",
        "APP.ACCOUNTS",
        "--scn",
        &scn.to_string(),
    ]);
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn killed_writer_loses_nothing_committed_and_the_next_writer_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let db = init_db(dir.path());

    let mut writer = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "workload",
            db.to_str().unwrap(),
            "--duration",
            "120s",
            "--rate",
            "0",
            "--long-every",
            "5",
            "--long-span",
            "50",
            "--seed",
            "9",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Readers in other processes watch commits arrive.
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while seen.len() < 3 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(300));
        let scn = emulator_status(&db)["current_scn"].as_u64().unwrap();
        if seen.last().is_none_or(|(s, _)| *s < scn) {
            seen.push((scn, dump(&db, scn)));
        }
    }
    assert!(seen.len() >= 3, "the workload made no progress");
    writer.kill().unwrap(); // SIGKILL
    writer.wait().unwrap();

    // Simulate the kill landing in the middle of a record as well.
    let mut redo = std::fs::OpenOptions::new()
        .append(true)
        .open(db.join("redo.log"))
        .unwrap();
    redo.write_all(b"{\"k\":\"I\",\"scn\":99999999,\"xid\":")
        .unwrap();
    drop(redo);

    // A new reader sees exactly what readers saw before the kill.
    for (scn, rows) in &seen {
        assert_eq!(
            &dump(&db, *scn),
            rows,
            "rows as of SCN {scn} changed after the writer was killed"
        );
    }
    let after_kill = emulator_status(&db);
    let left_open = after_kill["open_transactions"].as_array().unwrap().len();
    assert!(
        left_open > 0,
        "long transactions were open when the writer died"
    );

    // The next writer recovers and continues.
    run(&[
        "emulator",
        "workload",
        db.to_str().unwrap(),
        "--transactions",
        "30",
        "--rate",
        "0",
        "--seed",
        "10",
    ]);
    let recovered = emulator_status(&db);
    assert!(recovered["open_transactions"]
        .as_array()
        .unwrap()
        .is_empty());
    assert!(recovered["current_scn"].as_u64() > after_kill["current_scn"].as_u64());
    for (scn, rows) in &seen {
        assert_eq!(&dump(&db, *scn), rows);
    }
    let redo = std::fs::read_to_string(db.join("redo.log")).unwrap();
    assert!(
        redo.ends_with('\n') && !redo.contains("99999999"),
        "the torn record was cut off"
    );
}

/// A count from a workload's `--format json` summary.
fn summary_count(stdout: &[u8], name: &str) -> u64 {
    let v: serde_json::Value = serde_json::from_slice(stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(stdout)));
    v[name]
        .as_u64()
        .unwrap_or_else(|| panic!("no {name} in the summary: {v}"))
}

/// The README's loop run again before its last workload ended (issue 37 item 1): a second
/// writer fails with CDC-4003 while the first runs; with `--wait` it says it waits (naming the
/// first writer's pid), runs once the first has finished (its first SCN past the first's
/// last), and does all it was asked.
#[test]
fn a_second_workload_waits_for_the_first_with_wait() {
    let dir = tempfile::tempdir().unwrap();
    let db = init_db(dir.path());
    let db_arg = db.to_str().unwrap();
    let first = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "workload",
            db_arg,
            // Long enough that the refused writer and the waiting one both start while it
            // runs, however slowly a loaded machine starts processes.
            "--duration",
            "10s",
            "--rate",
            "20",
        ])
        .args(["--seed", "1", "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The first holds the writer lock once its commits show.
    let start = emulator_status(&db)["current_scn"].as_u64().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while emulator_status(&db)["current_scn"].as_u64().unwrap() == start {
        assert!(
            Instant::now() < deadline,
            "the first workload wrote nothing"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let refused = Command::new(cargo_bin("oracle-cdc"))
        .args(["-q", "emulator", "workload", db_arg, "--transactions", "5"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{err}");
    assert!(err.contains("CDC-4003"), "{err}");
    assert!(err.contains("--wait"), "the remedy names --wait: {err}");

    let second = Command::new(cargo_bin("oracle-cdc"))
        .args(["emulator", "workload", db_arg, "--wait", "--format", "json"])
        .args(["--transactions", "30", "--rate", "0", "--seed", "2"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(second.status.success(), "{err}");
    let first_pid = first.id();
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success());
    assert!(
        err.contains(&format!("another writer (pid {first_pid}) holds"))
            && err.contains("waits for it to finish (--wait)"),
        "{err}"
    );
    let second_first_scn = summary_count(&second.stdout, "first_scn");
    assert!(
        second_first_scn >= summary_count(&first.stdout, "last_scn"),
        "the waiting workload wrote only after the first had finished"
    );
    assert_eq!(
        summary_count(&second.stdout, "committed") + summary_count(&second.stdout, "rolled_back"),
        30
    );
}

#[test]
fn workload_format_json_counts_what_the_database_shows() {
    let dir = tempfile::tempdir().unwrap();
    let db = init_db(dir.path());
    let db_arg = db.to_str().unwrap();
    let rows = |s: &serde_json::Value| s["tables"][0]["rows"].as_i64().unwrap();
    let before = emulator_status(&db);
    // No rollbacks of any kind and no long transactions: every counted change is committed,
    // so the row count moves by exactly inserts minus deletes. --quiet: json is still printed.
    let out = run(&[
        "-q",
        "emulator",
        "workload",
        db_arg,
        "--transactions",
        "40",
        "--rate",
        "0",
        "--seed",
        "4",
        "--rollback-pct",
        "0",
        "--savepoint-pct",
        "0",
        "--long-every",
        "0",
        "--format",
        "json",
    ]);
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    let after = emulator_status(&db);
    let count = |k: &str| {
        summary[k]
            .as_i64()
            .unwrap_or_else(|| panic!("{k}: {summary}"))
    };
    assert_eq!(count("committed") + count("rolled_back"), 40);
    assert_eq!(count("rolled_back"), 0);
    assert!(count("inserts") > 0 && count("updates") > 0 && count("deletes") > 0);
    assert_eq!(
        rows(&after) - rows(&before),
        count("inserts") - count("deletes")
    );
    for k in ["truncates", "tables_created", "lob_edits"] {
        assert_eq!(count(k), 0, "every key is there, zeros too");
    }
    let (first, last) = (count("first_scn"), count("last_scn"));
    assert!(first > before["current_scn"].as_i64().unwrap() && first <= last);
    assert_eq!(last, after["current_scn"].as_i64().unwrap());
}
