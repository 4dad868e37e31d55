//! Each offsets edit, then a restart doing what the edit promised — on the snapshot export
//! (`oracle-cdc snapshot --out DIR` keeps its offsets in DIR): `reset-table` re-reads exactly
//! that table, `mark-done` stops reading it, `forget-table` lets the export go on without it.
//! (Capture's restart after `set-scn` and `drop-signal` is tested with capture.)

use assert_cmd::cargo::cargo_bin;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SCHEMA: &str = r#"
seed: 7
database:
  name: SHOP
  dbid: 4242
tables:
  - name: SALES.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: AMOUNT, type: "NUMBER(8,2)" }
    primary_key: [ID]
    rows: 12
  - name: SALES.EVENTS
    columns:
      - { name: KIND, type: VARCHAR2(10) }
    rows: 4
"#;

struct Setup {
    _dir: tempfile::TempDir,
    db: PathBuf,
    out: PathBuf,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, SCHEMA).unwrap();
    let db = dir.path().join("db");
    let init = Command::new(cargo_bin("oracle-cdc"))
        .args(["emulator", "init", db.to_str().unwrap(), "--schema"])
        .arg(&schema)
        .output()
        .unwrap();
    assert!(
        init.status.success(),
        "{}",
        String::from_utf8_lossy(&init.stderr)
    );
    let out = dir.path().join("export");
    Setup { _dir: dir, db, out }
}

impl Setup {
    fn run(&self, args: &[&str]) -> Output {
        Command::new(cargo_bin("oracle-cdc"))
            .arg("--set")
            .arg(format!("cdc.database.url=emulator:{}", self.db.display()))
            .args([
                "--set",
                "cdc.snapshot.chunk.rows=3",
                "--set",
                "cdc.snapshot.threads=1",
                "-q",
            ])
            .args(args)
            .output()
            .unwrap()
    }

    fn ok(&self, args: &[&str]) -> Output {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    fn export(&self, extra: &[&str]) -> Output {
        let mut args = vec!["snapshot", "--out", self.out.to_str().unwrap()];
        args.extend(extra);
        self.run(&args)
    }

    fn edit(&self, args: &[&str]) -> Output {
        let mut all = vec!["offsets", "edit", "--dir", self.out.to_str().unwrap()];
        all.extend(args);
        self.ok(&all)
    }

    fn file(&self, table: &str) -> String {
        std::fs::read_to_string(self.out.join(format!("{table}.jsonl"))).unwrap()
    }

    fn dump(&self, table: &str) -> String {
        let out = self.ok(&["emulator", "dump", "--table", table]);
        String::from_utf8(out.stdout).unwrap()
    }

    /// Tables read (snapshot-table-started) by the runs after the first `skip` ops lines.
    fn started_after(&self, skip: usize) -> Vec<String> {
        ops(&self.out)
            .into_iter()
            .skip(skip)
            .filter(|e| e["event"] == "snapshot-table-started")
            .map(|e| e["table"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    fn manifest(&self) -> Json {
        serde_json::from_slice(&std::fs::read(self.out.join("manifest.json")).unwrap()).unwrap()
    }
}

fn ops(dir: &Path) -> Vec<Json> {
    std::fs::read_to_string(dir.join("ops.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[test]
fn reset_table_re_exports_exactly_that_table() {
    let s = setup();
    assert!(s.export(&[]).status.success());
    let events_before = std::fs::read(s.out.join("SALES.EVENTS.jsonl")).unwrap();
    let seen = ops(&s.out).len();
    s.edit(&["reset-table", "SALES.ORDERS"]);
    assert!(s.export(&[]).status.success());
    assert_eq!(
        s.started_after(seen),
        vec!["SALES.ORDERS"],
        "only ORDERS is read again"
    );
    assert_eq!(
        s.file("SALES.ORDERS"),
        s.dump("SALES.ORDERS"),
        "every row exactly once"
    );
    assert_eq!(
        std::fs::read(s.out.join("SALES.EVENTS.jsonl")).unwrap(),
        events_before,
        "EVENTS untouched"
    );
    assert_eq!(s.manifest()["rows"], 16);
    let edited = ops(&s.out)
        .into_iter()
        .find(|e| e["event"] == "offsets-edited")
        .unwrap();
    assert_eq!(edited["operation"], "reset-table SALES.ORDERS");
}

/// An export stopped half way through ORDERS (an ORA-01555 that cannot be halved away).
fn half_way(s: &Setup) {
    // (--set before the command: a repeated global option replaces the earlier ones.)
    let out = s.run(&[
        "--set",
        "cdc.snapshot.chunk.rows=3",
        "--set",
        "cdc.snapshot.threads=1",
        "--set",
        "cdc.emulator.fault.ora01555.reads=4",
        "snapshot",
        "--out",
        s.out.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("CDC-8001"));
    let o: Json =
        serde_json::from_slice(&std::fs::read(s.out.join("offsets.json")).unwrap()).unwrap();
    assert_eq!(
        o["snapshot"]["tables"]["SALES.ORDERS"]["state"],
        "in_progress"
    );
    assert_eq!(o["snapshot"]["tables"]["SALES.ORDERS"]["rows"], 3);
}

#[test]
fn mark_done_stops_reading_the_rest_of_a_table() {
    let s = setup();
    half_way(&s);
    let partial = s.file("SALES.ORDERS");
    assert_eq!(partial.lines().count(), 3);
    // Refused without --force, naming what is lost; nothing written.
    let before = std::fs::read(s.out.join("offsets.json")).unwrap();
    let out = s.run(&[
        "offsets",
        "edit",
        "--dir",
        s.out.to_str().unwrap(),
        "mark-done",
        "SALES.ORDERS",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the rows from key (4) on are not read yet (3 rows in 1 chunk are)"),
        "{err}"
    );
    assert_eq!(std::fs::read(s.out.join("offsets.json")).unwrap(), before);
    s.edit(&["mark-done", "SALES.ORDERS", "--force"]);
    let seen = ops(&s.out).len();
    assert!(s.export(&[]).status.success());
    assert!(s.started_after(seen).is_empty(), "nothing more is read");
    assert_eq!(
        s.file("SALES.ORDERS"),
        partial,
        "the acknowledged rows stay, no more"
    );
    let manifest = s.manifest();
    assert_eq!(manifest["rows"], 7);
    assert_eq!(s.file("SALES.EVENTS"), s.dump("SALES.EVENTS"));
}

#[test]
fn reset_table_mid_export_re_reads_it_and_the_rest_resumes() {
    let s = setup();
    half_way(&s);
    let seen = ops(&s.out).len();
    s.edit(&["reset-table", "SALES.EVENTS"]);
    assert!(s.export(&[]).status.success());
    let mut started = s.started_after(seen);
    started.sort();
    assert_eq!(started, vec!["SALES.EVENTS", "SALES.ORDERS"]);
    for t in ["SALES.EVENTS", "SALES.ORDERS"] {
        assert_eq!(s.file(t), s.dump(t), "{t}: every row exactly once");
    }
    assert_eq!(s.manifest()["rows"], 16);
}

#[test]
fn forget_table_lets_the_export_go_on_without_it() {
    let s = setup();
    half_way(&s);
    s.edit(&["forget-table", "SALES.ORDERS"]);
    // The export now holds EVENTS only: the same --tables resumes it, the old ones are refused.
    assert_eq!(s.export(&[]).status.code(), Some(2));
    let seen = ops(&s.out).len();
    assert!(s.export(&["--tables", "SALES.EVENTS"]).status.success());
    assert!(s.started_after(seen).is_empty(), "EVENTS was done already");
    let manifest = s.manifest();
    assert_eq!(manifest["rows"], 4);
    assert_eq!(manifest["tables"].as_array().unwrap().len(), 1);
}
