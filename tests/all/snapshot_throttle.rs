//! `oracle-cdc snapshot` keeps to the read throttle, `cdc.snapshot.max.rows.per.second`, as
//! capture's snapshots do (a one-off export against production is where it matters most), and
//! a `set-throttle` signal sent to the export's --out directory changes it while it runs.

use assert_cmd::cargo::cargo_bin;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const SCHEMA: &str = r#"
seed: 3
tables:
  - name: APP.ITEMS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(20) }
    primary_key: [ID]
    rows: 400
"#;

fn ok(out: Output) -> Output {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn setup() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, SCHEMA).unwrap();
    let db = dir.path().join("db");
    ok(Command::new(cargo_bin("oracle-cdc"))
        .args(["-q", "emulator", "init", db.to_str().unwrap(), "--schema"])
        .arg(&schema)
        .output()
        .unwrap());
    (dir, db)
}

fn export(db: &Path, out: &Path, rate: u64) -> Command {
    let mut c = Command::new(cargo_bin("oracle-cdc"));
    c.arg("--set")
        .arg(format!("cdc.database.url=emulator:{}", db.display()))
        .args([
            "--set",
            "cdc.snapshot.chunk.rows=40",
            "--set",
            "cdc.snapshot.threads=1",
            "--set",
            &format!("cdc.snapshot.max.rows.per.second={rate}"),
            "--set",
            "cdc.signal.poll.ms=100",
            "-q",
            "snapshot",
            "--out",
        ])
        .arg(out);
    c
}

fn events(out: &Path, name: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(out.join("ops.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["event"] == name)
        .collect()
}

fn rows(out: &Path) -> usize {
    std::fs::read_to_string(out.join("APP.ITEMS.jsonl"))
        .unwrap()
        .lines()
        .count()
}

#[test]
fn export_keeps_to_the_read_throttle() {
    let (dir, db) = setup();
    // Unthrottled, for comparison: every row.
    let free = dir.path().join("free");
    ok(export(&db, &free, 0).output().unwrap());
    assert_eq!(rows(&free), 400);
    // At 200 rows/s the wave after 360 rows may start no earlier than 1.8 s in; before the
    // throttle was honoured the export took a fraction of that.
    let out = dir.path().join("out");
    let started = Instant::now();
    ok(export(&db, &out, 200).output().unwrap());
    let took = started.elapsed();
    assert_eq!(rows(&out), 400);
    assert!(
        took >= Duration::from_millis(1800),
        "400 rows at 200 rows/s took {took:?}"
    );
}

#[test]
fn set_throttle_signal_lifts_the_export_throttle() {
    let (dir, db) = setup();
    let out = dir.path().join("out");
    // One row a second: 400 rows would take minutes.
    let mut child = export(&db, &out, 1)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(60);
    while events(&out, "snapshot-chunk-done").is_empty() {
        assert!(Instant::now() < until, "no chunk read");
        std::thread::sleep(Duration::from_millis(50));
    }
    let send = |args: &[&str]| {
        Command::new(cargo_bin("oracle-cdc"))
            .arg("--set")
            .arg(format!("cdc.database.url=emulator:{}", db.display()))
            .args(["signal", "send"])
            .args(args)
            .arg("--dir")
            .arg(&out)
            .output()
            .unwrap()
    };
    // An export takes only set-throttle: a pause is rejected, with its reason.
    ok(send(&["pause-snapshot", "--id", "p1"]));
    ok(send(&[
        "set-throttle",
        "--rows-per-second",
        "0",
        "--id",
        "t1",
    ]));
    let until = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > until {
            let _ = child.kill();
            panic!("the export still keeps to 1 row/s after set-throttle 0");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success());
    assert_eq!(rows(&out), 400);
    let accepted = events(&out, "signal-accepted");
    assert_eq!(accepted.len(), 1, "{accepted:?}");
    assert_eq!(accepted[0]["signal"], "t1");
    let rejected = events(&out, "signal-rejected");
    assert_eq!(rejected.len(), 1, "{rejected:?}");
    assert_eq!(rejected[0]["signal"], "p1");
    assert!(rejected[0]["reason"]
        .as_str()
        .unwrap()
        .contains("only set-throttle"));
    assert!(out.join("signals/processed").read_dir().unwrap().count() == 1);
    assert!(out.join("signals/rejected").read_dir().unwrap().count() == 1);
}
