//! Offsets edits followed by a capture restart: the restart does what the edit promised.

use assert_cmd::cargo::cargo_bin;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SCHEMA: &str = r#"
seed: 3
tables:
  - name: SHOP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 30
  - name: SHOP.CUSTOMERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(20) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 20
"#;

struct Env {
    _dir: tempfile::TempDir,
    db: PathBuf,
    out: PathBuf,
    settings: Vec<String>,
}

fn run(args: &[String]) -> Output {
    let out = Command::new(cargo_bin("oracle-cdc"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let schema = dir.path().join("schema.yaml");
        std::fs::write(&schema, SCHEMA).unwrap();
        let db = dir.path().join("db");
        let out = dir.path().join("out");
        run(&[
            "emulator".into(),
            "init".into(),
            db.display().to_string(),
            "--schema".into(),
            schema.display().to_string(),
        ]);
        let settings = [
            format!("cdc.database.url=emulator:{}", db.display()),
            format!("cdc.state.dir={}", dir.path().join("state").display()),
            format!("cdc.sink.dir={}", out.display()),
            "cdc.snapshot.chunk.rows=7".into(),
        ]
        .into_iter()
        .flat_map(|s| ["--set".to_string(), s])
        .collect();
        Env {
            _dir: dir,
            db,
            out,
            settings,
        }
    }

    fn cdc(&self, args: &[&str]) -> Output {
        let mut a = self.settings.clone();
        a.push("-q".into());
        a.extend(args.iter().map(|s| s.to_string()));
        run(&a)
    }

    fn scn(&self) -> u64 {
        let out = run(&[
            "emulator".into(),
            "status".into(),
            self.db.display().to_string(),
            "--format".into(),
            "json".into(),
        ]);
        serde_json::from_slice::<Json>(&out.stdout).unwrap()["current_scn"]
            .as_u64()
            .unwrap()
    }

    fn capture_to_now(&self) {
        let scn = self.scn().to_string();
        self.cdc(&["capture", "--stop-at-scn", &scn]);
    }

    fn workload(&self, seed: &str) {
        run(&[
            "emulator".into(),
            "workload".into(),
            self.db.display().to_string(),
            "--transactions".into(),
            "25".into(),
            "--rate".into(),
            "0".into(),
            "--long-every".into(),
            "0".into(),
            "--seed".into(),
            seed.into(),
        ]);
    }

    fn records(&self) -> Vec<Json> {
        records(&self.out)
    }

    /// The same settings with another state directory: a second capture on the same sink.
    fn other_state(&self, name: &str) -> Vec<String> {
        let state = self._dir.path().join(name);
        self.settings
            .iter()
            .map(|s| match s.strip_prefix("cdc.state.dir=") {
                Some(_) => format!("cdc.state.dir={}", state.display()),
                None => s.clone(),
            })
            .collect()
    }

    fn segments(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files: Vec<_> = std::fs::read_dir(&self.out)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .map(|p| {
                let bytes = std::fs::read(&p).unwrap();
                (p, bytes)
            })
            .collect();
        files.sort();
        files
    }
}

fn dump_lines(db: &Path, table: &str) -> usize {
    let rows = run(&[
        "emulator".into(),
        "dump".into(),
        db.display().to_string(),
        "--table".into(),
        table.into(),
    ]);
    String::from_utf8(rows.stdout).unwrap().lines().count()
}

fn second_capture(env: &Env, scn: &str) -> (Option<i32>, String) {
    let mut args = env.other_state("state-b");
    args.extend(["-q", "capture", "--stop-at-scn", scn].map(String::from));
    let out = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_second_capture_on_the_same_sink_is_refused_and_cuts_nothing() {
    let env = Env::new();
    // A runs (no stop SCN) with its records acknowledged.
    let mut args = env.settings.clone();
    args.extend(["-q", "capture"].map(String::from));
    let mut a = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .spawn()
        .unwrap();
    let ops = env._dir.path().join("state/ops.jsonl");
    let started = std::time::Instant::now();
    while !std::fs::read_to_string(&ops).is_ok_and(|t| {
        t.contains("\"state\":\"streaming\"") || t.contains("\"state\":\"waiting-for-redo\"")
    }) {
        assert!(
            started.elapsed().as_secs() < 60,
            "A never finished its snapshot"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let acknowledged = env.segments();
    assert!(!acknowledged.is_empty());
    // B: another state directory, the same cdc.sink.dir. Started beside A on an empty sink, it
    // acknowledged the same segment, and a restart of either cut back what the other had.
    let scn = env.scn().to_string();
    let (code, err) = second_capture(&env, &scn);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("CDC-6401"), "{err}");
    assert!(
        err.contains(&format!("pid {}", a.id())),
        "names the running capture: {err}"
    );
    assert_eq!(env.segments(), acknowledged, "not one byte changed");
    // A stopped: B is refused by the owner record, which names A's state directory.
    Command::new("kill")
        .args(["-INT", &a.id().to_string()])
        .status()
        .unwrap();
    assert!(a.wait().unwrap().success());
    let acknowledged = env.segments();
    let (code, err) = second_capture(&env, &scn);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("CDC-6401") && err.contains("belongs to another capture (state directory"),
        "{err}"
    );
    assert_eq!(env.segments(), acknowledged, "not one byte changed");
    // The owner goes on where it was.
    env.workload("5");
    env.capture_to_now();
    let after = env.segments();
    assert!(after[0].1.starts_with(&acknowledged[0].1));
    assert!(
        after.iter().map(|(_, b)| b.len()).sum::<usize>()
            > acknowledged.iter().map(|(_, b)| b.len()).sum::<usize>()
    );
}

#[test]
fn reset_then_capture_starts_over_after_the_records_already_delivered() {
    let env = Env::new();
    env.capture_to_now();
    env.workload("6");
    env.capture_to_now();
    let delivered = env.segments();
    let before = env.records().len();
    env.cdc(&["offsets", "reset", "--force"]);
    // Before, this start failed with CDC-8005 (the sink "held another export").
    env.capture_to_now();
    let now = env.segments();
    assert!(
        now[0].1.starts_with(&delivered[0].1),
        "the delivered records are kept as they were"
    );
    let recs = env.records();
    let new = &recs[before..];
    assert!(
        new.iter().all(|r| r["value"]["payload"]["op"] == "r"),
        "the first start after a reset takes the snapshot"
    );
    for table in ["SHOP.ORDERS", "SHOP.CUSTOMERS"] {
        let topic = format!("oracle-cdc.{table}");
        assert_eq!(
            new.iter().filter(|r| r["topic"] == topic.as_str()).count(),
            dump_lines(&env.db, table),
            "{table} read again whole, once"
        );
    }
}

fn records(out: &Path) -> Vec<Json> {
    let mut files: Vec<_> = std::fs::read_dir(out)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<Json>(l).unwrap())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn commit_scn(r: &Json) -> Option<u64> {
    r["value"]["payload"]["source"]["commit_scn"]
        .as_str()
        .and_then(|s| s.parse().ok())
}

#[test]
fn reset_table_resnapshots_exactly_that_table() {
    let env = Env::new();
    env.capture_to_now();
    env.workload("1");
    env.capture_to_now();
    let before = env.records().len();
    env.cdc(&["offsets", "edit", "reset-table", "SHOP.CUSTOMERS"]);
    env.capture_to_now();
    let recs = env.records();
    let new = &recs[before..];
    assert!(!new.is_empty());
    assert!(
        new.iter().all(
            |r| r["value"]["payload"]["op"] == "r" && r["topic"] == "oracle-cdc.SHOP.CUSTOMERS"
        ),
        "only CUSTOMERS is read again"
    );
    let rows = run(&[
        "emulator".into(),
        "dump".into(),
        env.db.display().to_string(),
        "--table".into(),
        "SHOP.CUSTOMERS".into(),
    ]);
    assert_eq!(
        new.len(),
        String::from_utf8(rows.stdout).unwrap().lines().count(),
        "the whole table, once"
    );
}

#[test]
fn set_scn_back_republishes_from_there_and_nothing_before() {
    let env = Env::new();
    env.capture_to_now();
    env.workload("2");
    env.capture_to_now();
    let recs = env.records();
    let commits: Vec<u64> = recs.iter().filter_map(commit_scn).collect();
    assert!(commits.len() > 10);
    let from = commits[commits.len() / 2];
    let expected: Vec<&Json> = recs
        .iter()
        .filter(|r| commit_scn(r).is_some_and(|c| c >= from))
        .collect();
    env.cdc(&["offsets", "edit", "set-scn", &from.to_string()]);
    env.capture_to_now();
    let after = env.records();
    // A tombstone (after a delete) carries no envelope: the change records are compared.
    let again: Vec<&Json> = after[recs.len()..]
        .iter()
        .filter(|r| commit_scn(r).is_some())
        .collect();
    assert_eq!(
        again.len(),
        expected.len(),
        "every change committed at or after {from} again, nothing else"
    );
    for (a, e) in again.into_iter().zip(expected) {
        assert_eq!(
            a["value"]["payload"]["after"],
            e["value"]["payload"]["after"]
        );
        assert_eq!(
            a["value"]["payload"]["source"]["txId"],
            e["value"]["payload"]["source"]["txId"]
        );
        assert_eq!(
            a["value"]["payload"]["source"]["scn"],
            e["value"]["payload"]["source"]["scn"]
        );
    }
}
