//! Shared by the offsets command tests: hand-built offsets of every phase, and a sandbox with a
//! state directory (and optionally an emulated database) to run the binary in.
#![allow(dead_code)]

use assert_cmd::cargo::cargo_bin;
use serde_json::Value as Json;
use std::path::PathBuf;
use std::process::{Command, Output};

pub const IDENTITY: &str =
    r#""database": { "dbid": 4242, "incarnation": 1000000, "name": "SHOP" }"#;

pub fn fresh() -> String {
    format!("{{ \"format\": 1, {IDENTITY} }}\n")
}

pub fn mid_snapshot() -> String {
    format!(
        r#"{{
  "format": 1,
  {IDENTITY},
  "snapshot": {{
    "order": ["SALES.ORDERS", "SALES.EVENTS"],
    "tables": {{
      "SALES.ORDERS": {{ "state": "in_progress", "strategy": "key",
        "next": {{ "key": [{{ "t": "number", "v": "6" }}] }},
        "chunks": 1, "rows": 5, "chunk_scns": [1000021] }},
      "SALES.EVENTS": {{ "state": "not_started", "strategy": "rowid", "chunks": 0, "rows": 0 }}
    }},
    "records": 5,
    "completed": false
  }},
  "stream": {{ "resume_scn": 1000021, "commit_scn": 1000020 }}
}}
"#
    )
}

pub fn streaming() -> String {
    format!(
        r#"{{
  "format": 1,
  {IDENTITY},
  "snapshot": {{
    "order": ["SALES.ORDERS", "SALES.EVENTS"],
    "tables": {{
      "SALES.ORDERS": {{ "state": "done", "strategy": "key", "chunks": 3, "rows": 12,
        "chunk_scns": [1000021, 1000021, 1000021] }},
      "SALES.EVENTS": {{ "state": "done", "strategy": "rowid", "chunks": 1, "rows": 4,
        "chunk_scns": [1000021] }}
    }},
    "records": 16,
    "completed": true
  }},
  "stream": {{ "resume_scn": 1000030, "commit_scn": 1000040,
    "commit_xids": ["0A001B00C3010000"], "threads": {{ "1": 1000040 }} }},
  "sink": {{ "segment": "00000001.jsonl", "bytes": 40960, "records": 96 }},
  "schema_history": {{ "entries": 2 }}
}}
"#
    )
}

pub fn mid_signal() -> String {
    streaming().replace(
        "\"schema_history\": { \"entries\": 2 }",
        r#""schema_history": { "entries": 2 },
  "signals": [{ "id": "sig-1", "kind": "incremental", "tables": ["SALES.ORDERS", "SALES.EVENTS"],
    "progress": { "SALES.ORDERS": { "state": "in_progress", "strategy": "key",
      "next": { "key": [{ "t": "number", "v": "9" }] }, "chunks": 2, "rows": 8,
      "chunk_scns": [1000035, 1000036] } } }]"#,
    )
}

pub const SCHEMA: &str = r#"
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

pub struct Sandbox {
    pub dir: tempfile::TempDir,
    /// `cdc.database.url`, empty for none.
    pub url: String,
}

impl Sandbox {
    pub fn new(offsets: Option<&str>) -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("state")).unwrap();
        if let Some(o) = offsets {
            std::fs::write(dir.path().join("state/offsets.json"), o).unwrap();
        }
        Sandbox {
            dir,
            url: String::new(),
        }
    }

    /// An emulated database of the offsets' DBID, reachable from the commands.
    pub fn with_database(mut self, dbid: u64) -> Sandbox {
        let schema = self.dir.path().join("schema.yaml");
        std::fs::write(&schema, SCHEMA.replace("4242", &dbid.to_string())).unwrap();
        let db = self.dir.path().join("db");
        let out = Command::new(cargo_bin("oracle-cdc"))
            .args(["emulator", "init", db.to_str().unwrap(), "--schema"])
            .arg(&schema)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        let out = Command::new(cargo_bin("oracle-cdc"))
            .args(["emulator", "workload", db.to_str().unwrap()])
            .args(["--transactions", "60", "--rate", "0", "--seed", "3"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        self.url = format!("emulator:{}", db.display());
        self
    }

    pub fn state(&self) -> PathBuf {
        self.dir.path().join("state")
    }

    pub fn offsets(&self) -> PathBuf {
        self.state().join("offsets.json")
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(cargo_bin("oracle-cdc"));
        c.env("NO_COLOR", "1")
            .env_remove("ORACLE_CDC_TEST_CRASH_AT")
            .arg("--set")
            .arg(format!("cdc.state.dir={}", self.state().display()))
            .args(["--set", "cdc.tables.include=SALES.*"]);
        if !self.url.is_empty() {
            c.arg("--set").arg(format!("cdc.database.url={}", self.url));
        }
        c.args(args);
        c
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    pub fn ok(&self, args: &[&str]) -> Output {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        out
    }

    pub fn json(&self) -> Json {
        serde_json::from_slice(&std::fs::read(self.offsets()).unwrap()).unwrap()
    }

    pub fn backups(&self) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(self.state())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains("offsets.json.bak-"))
            .collect();
        v.sort();
        v
    }
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn fails_with(out: &Output, exit: i32, code: &str) -> String {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(exit), "{}{err}", text(&out.stdout));
    assert!(err.contains(code), "expected {code} in: {err}");
    err
}
