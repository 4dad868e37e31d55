//! What the capture tests share: running the binary, reading the file sink's records, and the
//! checks (exactly once, SCN order, latest record per key equal to `emulator dump`).
#![allow(dead_code)]

use assert_cmd::cargo::cargo_bin;
use serde_json::{Map, Value as Json};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

pub fn run(args: &[&str]) -> Output {
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

pub fn current_scn(db: &Path) -> u64 {
    let out = run(&[
        "emulator",
        "status",
        db.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let v: Json = serde_json::from_slice(&out.stdout).unwrap();
    v["current_scn"].as_u64().unwrap()
}

/// Every record of the file sink's segments, in order.
pub fn records(out: &Path) -> Vec<Json> {
    let mut files: Vec<_> = std::fs::read_dir(out)
        .unwrap()
        .flatten()
        .map(|e| e.path())
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

/// The ops events of a state directory.
pub fn events(state: &Path) -> Vec<Json> {
    std::fs::read_to_string(state.join("ops.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Wait until an ops event matches (panics after `secs`).
pub fn wait_for_event(state: &Path, secs: u64, what: &str, pred: impl Fn(&Json) -> bool) -> Json {
    let started = Instant::now();
    loop {
        if let Some(e) = events(state).into_iter().find(&pred) {
            return e;
        }
        assert!(
            started.elapsed() < Duration::from_secs(secs),
            "no ops event {what} within {secs}s; events: {:#?}",
            events(state).iter().rev().take(15).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// No record is published twice.
pub fn assert_exactly_once(recs: &[Json]) {
    let mut seen = HashSet::new();
    for r in recs {
        let v = &r["value"];
        let id = format!(
            "{}|{}|{}|{}|{}|{}|{}",
            v["op"],
            v["source"]["scn"],
            v["source"]["txId"],
            v["source"]["rs_id"],
            v["source"]["row_id"],
            v["source"]["snapshot"],
            r["key"]
        );
        assert!(seen.insert(id.clone()), "record published twice: {id}");
    }
}

fn commit_of(r: &Json) -> Option<u64> {
    r["value"]["source"]["commit_scn"]
        .as_str()
        .and_then(|s| s.parse::<u64>().ok())
}

/// Change records by commit SCN; a snapshot record read at s after every change committed
/// before s and before every change committed at or after s.
pub fn assert_scn_order(recs: &[Json]) {
    scn_order(recs, false)
}

/// [`assert_scn_order`], except that a change committed exactly at a chunk's SCN may come
/// before it: on an idle emulator the current SCN is the last commit's (Oracle's SCN moves on),
/// so a chunk read AS OF it contains that commit, already published. Convergence is unaffected.
pub fn assert_scn_order_idle(recs: &[Json]) {
    scn_order(recs, true)
}

fn scn_order(recs: &[Json], idle: bool) {
    let mut last_commit = 0u64;
    for (i, r) in recs.iter().enumerate() {
        if r["value"]["source"].is_null() {
            continue; // a heartbeat
        }
        if let Some(c) = commit_of(r) {
            assert!(
                c >= last_commit,
                "record {i}: commit SCN {c} after {last_commit}"
            );
            last_commit = c;
        } else {
            let s: u64 = r["value"]["source"]["scn"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            assert!(
                last_commit < s || (idle && last_commit == s),
                "record {i}: snapshot chunk at SCN {s} after a change committed at {last_commit}"
            );
            if let Some(next) = recs[i + 1..].iter().find_map(commit_of) {
                assert!(
                    next >= s,
                    "record {i}: change committed at {next} after a chunk read at {s}"
                );
            }
        }
    }
}

/// The latest record per (table, key): what a consumer keeping the latest record holds.
pub fn latest_per_key(recs: &[Json]) -> BTreeMap<(String, String), Map<String, Json>> {
    let mut latest: BTreeMap<(String, String), Map<String, Json>> = BTreeMap::new();
    for r in recs {
        let Some(op) = r["value"]["op"].as_str() else {
            continue;
        };
        let table = r["topic"]
            .as_str()
            .unwrap()
            .trim_start_matches("oracle-cdc.")
            .to_string();
        let key = r["key"].to_string();
        match op {
            "d" => {
                latest.remove(&(table, key));
            }
            _ => {
                let mut after = r["value"]["after"].as_object().unwrap().clone();
                // A LOB the change left alone: the consumer keeps the value it holds.
                if let Some(old) = latest.get(&(table.clone(), key.clone())) {
                    for (col, v) in after.iter_mut() {
                        if is_unavailable(v) {
                            *v = old.get(col).cloned().unwrap_or(Json::Null);
                        }
                    }
                }
                latest.insert((table, key), after);
            }
        }
    }
    latest
}

/// Debezium's placeholder for a value the redo does not hold (text, or base64 of its bytes).
pub fn is_unavailable(v: &Json) -> bool {
    matches!(
        v.as_str(),
        Some("__debezium_unavailable_value" | "X19kZWJleml1bV91bmF2YWlsYWJsZV92YWx1ZQ==")
    )
}

/// A table's rows at an SCN, from `emulator dump`.
pub fn dump(db: &Path, table: &str, scn: u64) -> Vec<Map<String, Json>> {
    let out = run(&[
        "emulator",
        "dump",
        db.to_str().unwrap(),
        "--table",
        table,
        "--scn",
        &scn.to_string(),
    ]);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Json>(l)
                .unwrap()
                .as_object()
                .unwrap()
                .clone()
        })
        .collect()
}

/// The latest record per key of `table` equals its rows (by ID) at `scn`.
pub fn assert_converges(db: &Path, recs: &[Json], table: &str, scn: u64) {
    let latest = latest_per_key(recs);
    let rows = dump(db, table, scn);
    let mine: BTreeMap<String, &Map<String, Json>> = latest
        .iter()
        .filter(|((t, _), _)| t == table)
        .map(|(_, v)| (v["ID"].to_string(), v))
        .collect();
    assert_eq!(mine.len(), rows.len(), "{table}: row count");
    for row in &rows {
        let got = mine
            .get(&row["ID"].to_string())
            .unwrap_or_else(|| panic!("{table}: row {} missing", row["ID"]));
        for (col, want) in row {
            // A column added after the row's last change is absent from its record: NULL.
            let have = got.get(col).unwrap_or(&Json::Null);
            assert_eq!(have, want, "{table} row {} column {col}", row["ID"]);
        }
    }
}

/// A fresh emulated database made from `schema` (YAML), with a state and an output directory
/// beside it (none created yet).
pub struct Emulated {
    pub dir: tempfile::TempDir,
    pub db: std::path::PathBuf,
    pub state: std::path::PathBuf,
    pub out: std::path::PathBuf,
}

pub fn emulated(schema: &str) -> Emulated {
    let dir = tempfile::tempdir().unwrap();
    let schema_path = dir.path().join("schema.yaml");
    std::fs::write(&schema_path, schema).unwrap();
    let db = dir.path().join("db");
    run(&[
        "emulator",
        "init",
        db.to_str().unwrap(),
        "--schema",
        schema_path.to_str().unwrap(),
    ]);
    Emulated {
        state: dir.path().join("state"),
        out: dir.path().join("out"),
        db,
        dir,
    }
}
