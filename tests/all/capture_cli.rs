//! `oracle-cdc capture` end to end on the emulator, under a concurrent workload (long
//! transactions, rollbacks, savepoint rollbacks, key updates, row movement, ADD/DROP COLUMN),
//! killed with SIGKILL at several moments and restarted: the latest record per key equals
//! `emulator dump` at the final SCN, no line is duplicated, and the order invariants hold.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const SCHEMA: &str = r#"
seed: 21
database:
  multitenant: true
tables:
  - name: PDB1.SHOP.ACCOUNTS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
      - { name: OPENED, type: DATE }
      - { name: NOTE, type: VARCHAR2(100), null_pct: 20 }
    primary_key: [ID]
    supplemental_logging: all
    rows: 300
  - name: PDB1.SHOP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: REGION, type: VARCHAR2(8), nullable: false, generate: { choice: [EMEA, APAC] } }
      - { name: ITEM, type: VARCHAR2(20) }
      - { name: AT, type: TIMESTAMP(6) }
    primary_key: [ID]
    row_movement: true
    partitions:
      column: REGION
      list:
        - { name: P_EMEA, values: [EMEA] }
        - { name: P_APAC, values: [APAC] }
    supplemental_logging: all
    rows: 300
"#;

fn capture_args(db: &Path, state: &Path, out: &Path) -> Vec<String> {
    [
        format!("cdc.database.url=emulator:{}", db.display()),
        format!("cdc.state.dir={}", state.display()),
        format!("cdc.sink.dir={}", out.display()),
        "cdc.snapshot.chunk.rows=40".into(),
        "cdc.snapshot.threads=2".into(),
        "cdc.stream.poll.ms=50".into(),
        "cdc.stream.window.scn=500".into(),
        "cdc.sink.segment.bytes=200000".into(),
        "cdc.emulator.fault.read.delay.ms=20".into(),
    ]
    .into_iter()
    .flat_map(|s| ["--set".to_string(), s])
    .chain(["-q".to_string(), "capture".to_string()])
    .collect()
}

#[test]
fn capture_converges_across_kills_under_a_live_workload() {
    let Emulated {
        dir: _dir,
        db,
        state,
        out,
    } = emulated(SCHEMA);

    let workload = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "workload",
            db.to_str().unwrap(),
            "--transactions",
            "1500",
            "--rate",
            "400",
            "--long-every",
            "40",
            "--long-span",
            "60",
            "--rollback-pct",
            "10",
            "--savepoint-pct",
            "10",
            "--key-update-pct",
            "10",
            "--row-move-pct",
            "20",
            "--ddl-every",
            "300",
            "--seed",
            "4",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let args = capture_args(&db, &state, &out);
    let mut kills = 0;
    for ms in [600u64, 900, 450, 1100] {
        let mut c = Command::new(cargo_bin("oracle-cdc"))
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(ms));
        if c.try_wait().unwrap().is_none() {
            c.kill().unwrap();
            kills += 1;
        }
        c.wait().unwrap();
    }
    assert!(kills >= 3, "capture exited by itself");
    let w = workload.wait_with_output().unwrap();
    assert!(
        w.status.success(),
        "workload: {}",
        String::from_utf8_lossy(&w.stderr)
    );
    let end = current_scn(&db);
    let mut last = args.clone();
    last.extend(["--stop-at-scn".to_string(), end.to_string()]);
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&last)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "final capture: {}",
        String::from_utf8_lossy(&o.stderr)
    );

    let recs = records(&out);
    assert!(recs.len() > 600);
    assert_exactly_once(&recs);
    assert_scn_order(&recs);
    for table in ["PDB1.SHOP.ACCOUNTS", "PDB1.SHOP.ORDERS"] {
        assert_converges(&db, &recs, table, end);
    }
}

#[test]
fn mode_none_delivers_a_transaction_open_before_start_whole() {
    let Emulated { dir, db, .. } = emulated(SCHEMA);
    // One long transaction opens, capture starts while it is open, then it commits. Ten
    // seconds of workload: the workload ends its long transactions when it ends, so it must
    // outlast a slow capture start.
    let mut w = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "workload",
            db.to_str().unwrap(),
            "--transactions",
            "200",
            "--rate",
            "20",
            "--long-every",
            "5",
            "--long-span",
            "40",
            "--rollback-pct",
            "0",
            "--seed",
            "8",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Until the workload's 5th, long transaction is open (about 250 ms in: open 40 SCNs after
    // its start, which the short ones, a few changes each, never are), however long a loaded
    // machine takes to start it.
    wait_for("the long transaction to be open", 60, || {
        let status = emulator_status(&db);
        let now = status["current_scn"].as_u64().unwrap_or(0);
        status["open_transactions"].as_array().is_some_and(|open| {
            open.iter()
                .any(|t| t["start_scn"].as_u64().is_some_and(|s| s + 40 < now))
        })
    });
    let state = dir.path().join("state");
    let out = dir.path().join("out");
    let mut args = capture_args(&db, &state, &out);
    args.splice(
        0..0,
        ["--set".to_string(), "cdc.snapshot.mode=none".to_string()],
    );
    let first = {
        let mut a = args.clone();
        let now = current_scn(&db);
        a.extend(["--stop-at-scn".to_string(), now.to_string()]);
        run(&a.iter().map(String::as_str).collect::<Vec<_>>());
        let o: Json =
            serde_json::from_str(&std::fs::read_to_string(state.join("offsets.json")).unwrap())
                .unwrap();
        o["stream"]["commit_scn"].as_u64().unwrap() + 1
    };
    assert!(w.wait().unwrap().success());
    let end = current_scn(&db);
    let mut a = args.clone();
    a.extend(["--stop-at-scn".to_string(), end.to_string()]);
    run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let recs = records(&out);
    assert!(
        recs.iter().all(|r| r["value"]["payload"]["op"] != "r"),
        "mode none takes no snapshot"
    );
    // Some transaction started before the capture's start SCN and is delivered with all its changes.
    let mut by_tx: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    // Tombstones (after deletes) carry no envelope.
    let recs: Vec<&Json> = recs.iter().filter(|r| is_change(r)).collect();
    for r in &recs {
        let s = &r["value"]["payload"]["source"];
        by_tx
            .entry(s["txId"].as_str().unwrap().to_string())
            .or_default()
            .push(s["scn"].as_str().unwrap().parse().unwrap());
    }
    let early = by_tx
        .values()
        .filter(|scns| scns.iter().any(|s| *s < first))
        .count();
    assert!(
        early > 0,
        "no transaction open at the start was delivered: first {first}: {by_tx:?}"
    );
    for r in &recs {
        let c: u64 = r["value"]["payload"]["source"]["commit_scn"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            c >= first - 1,
            "a transaction committed before the start was published"
        );
    }
}

#[test]
fn heartbeats_and_metrics_report_progress() {
    let Emulated { dir, db, .. } = emulated(SCHEMA);
    let state = dir.path().join("state");
    let out = dir.path().join("out");
    let mut args = capture_args(&db, &state, &out);
    args.splice(
        0..0,
        [
            "--set",
            "cdc.heartbeat.interval.ms=100",
            "--set",
            "cdc.metrics.interval.ms=100",
            "--set",
            "cdc.snapshot.mode=none",
        ]
        .map(String::from),
    );
    let mut c = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Streaming starts at the SCN current when capture starts (snapshot mode none): the
    // workload runs only after that is chosen, or a slow start would stream none of it.
    wait_for_event(&state, 60, "capture-started", |e| {
        e["event"] == "capture-started"
    });
    run(&[
        "emulator",
        "workload",
        db.to_str().unwrap(),
        "--transactions",
        "20",
        "--rate",
        "0",
        "--long-every",
        "0",
        "--rollback-pct",
        "0",
        "--seed",
        "2",
    ]);
    // The workload's last commit is mined once the redo thread has stood still for an LGWR
    // period (capture.md, "An idle thread"): wait for that, then stop.
    let newest = current_scn(&db);
    wait_for_event(&state, 30, "the last commit mined", |v| {
        v["event"] == "capture-metrics"
            && v["mined_scn"].as_u64() >= Some(newest)
            && v["open_transactions"] == 0
    });
    let sent = Command::new("kill")
        .args(["-TERM", &c.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    assert!(c.wait().unwrap().success(), "SIGTERM stops capture cleanly");
    let recs = records(&out);
    let beats: Vec<&Json> = recs
        .iter()
        .filter(|r| r["topic"] == "oracle-cdc.heartbeat")
        .collect();
    assert!(beats.len() >= 3, "{} heartbeats", beats.len());
    let last: u64 = beats.last().unwrap()["value"]["scn"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        last >= current_scn(&db) - 1,
        "heartbeats follow the mined SCN"
    );
    assert!(recs.iter().any(|r| r["value"]["payload"]["op"] == "c"));
    let metrics: Vec<Json> = std::fs::read_to_string(state.join("ops.jsonl"))
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .filter(|e| e["event"] == "capture-metrics")
        .collect();
    assert!(metrics.len() >= 3);
    let m = metrics.last().unwrap();
    // Caught up at stop: everything mined, nothing open, and the lag in SCNs only the one
    // CURRENT_SCN stands past the newest change while nothing is open.
    assert!(m["mined_scn"].as_u64() >= Some(newest), "{m}");
    assert_eq!(m["open_transactions"], 0, "{m}");
    assert_eq!(
        m["lag_scns"].as_u64(),
        Some(m["current_scn"].as_u64().unwrap() - m["published_commit_scn"].as_u64().unwrap()),
        "{m}"
    );
    assert!(m["lag_scns"].as_u64() <= Some(1), "caught up at stop: {m}");
    assert!(m["transactions"].as_u64().unwrap() >= 1);
    for k in [
        "current_scn",
        "published_commit_scn",
        "lag_ms",
        "open_transactions",
        "buffered_changes",
        "spilled_bytes",
    ] {
        assert!(m.get(k).is_some(), "{k} missing in {m}");
    }
}

#[test]
fn tables_created_while_capture_runs_are_snapshotted_and_converge() {
    let Emulated {
        dir: _dir,
        db,
        state,
        out,
    } = emulated(SCHEMA);
    let workload = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "workload",
            db.to_str().unwrap(),
            "--transactions",
            "700",
            "--rate",
            "350",
            "--create-table-every",
            "150",
            "--seed",
            "12",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let args = capture_args(&db, &state, &out);
    for ms in [700u64, 900] {
        let mut c = Command::new(cargo_bin("oracle-cdc"))
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(ms));
        let _ = c.kill();
        c.wait().unwrap();
    }
    assert!(workload.wait_with_output().unwrap().status.success());
    let end = current_scn(&db);
    let mut last = args.clone();
    last.extend(["--stop-at-scn".to_string(), end.to_string()]);
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&last)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let status = run(&[
        "emulator",
        "status",
        db.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let status: Json = serde_json::from_slice(&status.stdout).unwrap();
    let created: Vec<String> = status["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["table"].as_str().unwrap().to_string())
        .filter(|t| t.contains("_NEW"))
        .collect();
    assert!(created.len() >= 3, "{created:?}");
    let recs = records(&out);
    assert_exactly_once(&recs);
    assert_scn_order(&recs);
    for table in created
        .iter()
        .map(String::as_str)
        .chain(["PDB1.SHOP.ACCOUNTS", "PDB1.SHOP.ORDERS"])
    {
        assert_converges(&db, &recs, table, end);
    }
    let evs = events(&state);
    let offsets: Json =
        serde_json::from_str(&std::fs::read_to_string(state.join("offsets.json")).unwrap())
            .unwrap();
    for table in &created {
        let ev = evs
            .iter()
            .find(|e| e["event"] == "table-created" && e["table"] == table.as_str())
            .unwrap_or_else(|| panic!("no table-created event for {table}"));
        let id = ev["signal"].as_str().unwrap();
        // Done, or (a CREATE just before --stop-at-scn) stored to run on the next start.
        let done = offsets["signal_history"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h["id"] == id && h["outcome"] == "done");
        let pending = offsets["signals"]
            .as_array()
            .is_some_and(|a| a.iter().any(|g| g["id"] == id));
        assert!(
            done || pending,
            "the snapshot of {table} ({id}) is neither done nor stored"
        );
    }
}

#[test]
fn a_log_overwritten_while_mined_is_mined_again_by_a_new_session() {
    let Emulated {
        dir: _dir,
        db,
        state,
        out,
    } = emulated(SCHEMA);
    let start = current_scn(&db);
    let mut args = capture_args(&db, &state, &out);
    args.splice(
        0..0,
        ["--set".to_string(), "cdc.snapshot.mode=none".to_string()],
    );
    let mut first = args.clone();
    first.extend(["--stop-at-scn".to_string(), start.to_string()]);
    run(&first.iter().map(String::as_str).collect::<Vec<_>>());
    run(&[
        "emulator",
        "workload",
        db.to_str().unwrap(),
        "--transactions",
        "150",
        "--seed",
        "6",
    ]);
    let end = current_scn(&db);
    // Windows of 100 SCNs; the 2nd, 3rd and 5th fail half-way with ORA-00310.
    let mut last: Vec<String> = [
        "--set",
        "cdc.stream.window.scn=100",
        "--set",
        "cdc.emulator.fault.ora00310.mines=2,3,5",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    last.extend(args.clone());
    last.extend(["--stop-at-scn".to_string(), end.to_string()]);
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&last)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let recs = records(&out);
    assert!(recs.len() > 150);
    assert_exactly_once(&recs);
    assert_scn_order(&recs);
    // Every change since the start: the tables' changes replayed on top of their rows at the
    // start equal the tables at the end, which only holds with nothing lost or doubled.
    let mut base = recs.clone();
    for table in ["PDB1.SHOP.ACCOUNTS", "PDB1.SHOP.ORDERS"] {
        for row in dump(&db, table, start) {
            base.insert(
                0,
                serde_json::json!({"topic": topic_of(table), "key": {"ID": row["ID"]}, "value": {"op": "r", "after": row}}),
            );
        }
    }
    for table in ["PDB1.SHOP.ACCOUNTS", "PDB1.SHOP.ORDERS"] {
        assert_converges(&db, &base, table, end);
    }
}

/// The stdout sink's reader is gone before the snapshot's first record: capture used to exit
/// 0 as if it had finished. It stops with CDC-6402 and says what was acknowledged and that the
/// snapshot is unfinished; the next start (to a reader that stays) publishes every row.
#[test]
fn the_stdout_sinks_reader_going_away_is_an_error_that_says_what_was_acknowledged() {
    let e = emulated(SCHEMA);
    let mut args = capture_args(&e.db, &e.state, &e.out);
    args.splice(0..0, ["--set".into(), "cdc.sink.type=stdout".into()]);
    let mut child = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("capture went on after its reader was gone");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("CDC-6402"), "{err}");
    assert!(
        err.contains("0 records in all were acknowledged")
            && err.contains("the snapshot was not finished"),
        "{err}"
    );
    // The offsets acknowledge no more than was flushed: the next start, to a reader that
    // stays, finishes the snapshot and every row is there.
    let end = current_scn(&e.db);
    let mut args = capture_args(&e.db, &e.state, &e.out);
    args.splice(0..0, ["--set".into(), "cdc.sink.type=stdout".into()]);
    args.extend(["--stop-at-scn".into(), end.to_string()]);
    let out = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut recs: Vec<Json> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    recs.retain(|r| r["value"]["payload"]["op"] == "r");
    let keys: std::collections::BTreeSet<String> = recs
        .iter()
        .filter(|r| r["topic"].as_str().is_some_and(|t| t.ends_with("ACCOUNTS")))
        .map(|r| r["key"].to_string())
        .collect();
    assert_eq!(keys.len(), 300, "every ACCOUNTS row reached a reader");
}
