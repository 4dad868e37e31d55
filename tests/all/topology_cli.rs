//! Capture on each topology of issue #11, on the emulator: a primary (the default, covered by
//! capture_cli), an Active Data Guard standby that lags its primary, and a downstream mining
//! database that holds only the redo shipped to it. Each converges to the tables' contents; the
//! standby's (and the primary's) directory is unchanged byte for byte; a downstream missing a log
//! the offsets need stops capture with CDC-5201.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;

const SCHEMA: &str = r#"
seed: 8
database:
  log_size: 400
tables:
  - name: SHOP.ACCOUNTS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
      - { name: NOTE, type: VARCHAR2(100), null_pct: 20 }
    primary_key: [ID]
    supplemental_logging: all
    rows: 200
  - name: SHOP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 150
"#;

const TABLES: [&str; 2] = ["SHOP.ACCOUNTS", "SHOP.ORDERS"];

fn workload(db: &Path, n: u32, seed: u32) {
    run(&[
        "emulator",
        "workload",
        db.to_str().unwrap(),
        "--transactions",
        &n.to_string(),
        "--rollback-pct",
        "10",
        "--savepoint-pct",
        "10",
        "--key-update-pct",
        "10",
        "--seed",
        &seed.to_string(),
    ]);
}

fn fingerprint(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn capture(sets: &[String], stop_at: u64) -> std::process::Output {
    let mut args: Vec<String> = sets
        .iter()
        .flat_map(|s| ["--set".to_string(), s.clone()])
        .collect();
    args.extend([
        "-q".into(),
        "capture".into(),
        "--stop-at-scn".into(),
        stop_at.to_string(),
    ]);
    Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap()
}

fn common(e: &Emulated, url: &Path) -> Vec<String> {
    vec![
        format!("cdc.database.url=emulator:{}", url.display()),
        format!("cdc.state.dir={}", e.state.display()),
        format!("cdc.sink.dir={}", e.out.display()),
        "cdc.snapshot.chunk.rows=30".into(),
        "cdc.snapshot.threads=2".into(),
        "cdc.stream.poll.ms=20".into(),
        "cdc.stream.window.scn=300".into(),
    ]
}

/// `emulator create DIR --ROLE-of PRIMARY EXTRA…`: a standby or downstream of `primary`.
fn create(dir: &Path, role: &str, primary: &Path, extra: &[&str]) -> std::process::Output {
    let role_of = format!("--{role}-of");
    let mut args = vec![
        "emulator",
        "create",
        dir.to_str().unwrap(),
        role_of.as_str(),
        primary.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// Mining on `downstream` with the dictionary in the redo (the online catalog cannot decode
/// another database's redo: CDC-5301).
fn mine_on(sets: &mut Vec<String>, downstream: &Path) {
    sets.push(format!(
        "cdc.mining.database.url=emulator:{}",
        downstream.display()
    ));
    sets.push("cdc.mining.dictionary=redo_logs".into());
}

/// `emulator build-dictionary DB`: DBMS_LOGMNR_D.BUILD into the redo, and a log switch.
fn build_dictionary(db: &Path) {
    let out = run(&["emulator", "build-dictionary", db.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("dictionary built"));
}

fn ok(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "capture failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn capture_on_a_lagging_standby_converges_writes_nothing_and_places_chunks_at_the_applied_scn() {
    let e = emulated(SCHEMA);
    workload(&e.db, 150, 3);
    let standby = e.dir.path().join("standby");
    let created = create(&standby, "standby", &e.db, &["--apply-lag-scn", "60"]);
    assert!(String::from_utf8_lossy(&created.stdout).contains("physical standby"));
    settle(&e.db, &standby);
    let primary_before = fingerprint(&e.db);
    let standby_before = fingerprint(&standby);

    let s = emulator_status(&standby);
    let applied = s["current_scn"].as_u64().unwrap();
    let primary_scn = current_scn(&e.db);
    // The lag is counted from the primary's newest redo record, here the log switch that
    // ends a dictionary build, one past its newest change (what status shows).
    assert_eq!(
        applied,
        primary_scn + 1 - 60,
        "applied SCN = primary SCN - lag"
    );
    assert_eq!(s["database"]["role"], "PHYSICAL STANDBY");
    assert_eq!(s["topology"]["apply_lag_scn"], 60);
    // Reads at or below the applied SCN see the primary's data as of that SCN.
    for t in TABLES {
        assert_eq!(dump(&standby, t, applied), dump(&e.db, t, applied), "{t}");
    }
    // Beyond it the SCN does not exist yet on the standby: ORA-08181 (CDC-5002).
    let beyond = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "dump",
            standby.to_str().unwrap(),
            "--table",
            "SHOP.ACCOUNTS",
            "--scn",
            &(applied + 1).to_string(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&beyond.stderr);
    assert!(
        !beyond.status.success() && err.contains("CDC-5002") && err.contains("ORA-08181"),
        "{err}"
    );

    let sets = common(&e, &standby);
    let archived_before = archived_end(&standby);
    capture_on_standby(&e, &sets, applied);
    let (applied_after, primary_after) = (current_scn(&standby), current_scn(&e.db));
    assert!(applied_after < primary_after);
    let recs = records(&e.out);
    for t in TABLES {
        assert_converges(&standby, &recs, t, applied);
        assert_converges(&e.db, &recs, t, applied);
    }
    assert_exactly_once(&recs);
    // Chunk placement: every snapshot chunk was read at most at the standby's applied SCN
    // (its CURRENT_SCN) of its wave, never at the primary's SCN, which the standby cannot read
    // yet, and where the stream could mine to: one past where the standby's archived logs
    // ended, when that was lower. The first wave where they ended when capture started, the
    // later ones (while the primary switched logs) at most at the standby's applied SCN when
    // capture ended.
    let snapshot_scns = snapshot_scns(&recs);
    assert!(!snapshot_scns.is_empty());
    assert_eq!(
        snapshot_scns.iter().min(),
        Some(&applied.min(archived_before + 1))
    );
    assert!(
        snapshot_scns.iter().all(|s| *s <= applied_after),
        "a chunk read beyond the applied SCN {applied_after}: {snapshot_scns:?}"
    );

    // The primary moves on; the standby follows at its lag, and capture resumes on it.
    workload(&e.db, 120, 4);
    settle(&e.db, &standby);
    let applied2 = current_scn(&standby);
    assert_eq!(applied2, current_scn(&e.db) + 1 - 60);
    assert!(applied2 > applied);
    capture_on_standby(&e, &sets, applied2);
    let recs = records(&e.out);
    for t in TABLES {
        assert_converges(&standby, &recs, t, applied2);
    }
    assert_exactly_once(&recs);

    // Not one byte written to the standby's directory by capture, status or dump.
    assert_eq!(fingerprint(&standby), standby_before);
    // The primary only changed by its own workload: its schema file is as it was.
    assert_eq!(
        std::fs::read(e.db.join("schema.yaml")).unwrap(),
        primary_before
            .iter()
            .find(|(p, _)| p.ends_with("schema.yaml"))
            .unwrap()
            .1
    );
    // And the standby takes no transactions (ORA-16000).
    let w = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "workload",
            standby.to_str().unwrap(),
            "--transactions",
            "1",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&w.stderr).contains("CDC-5005"));
    assert_eq!(fingerprint(&standby), standby_before);
}

#[test]
fn capture_mining_on_a_downstream_converges_and_a_missing_log_stops_it_with_cdc_5201() {
    let e = emulated(SCHEMA);
    workload(&e.db, 100, 5);
    let downstream = e.dir.path().join("downstream");
    create(&downstream, "downstream", &e.db, &[]);
    let ds = emulator_status(&downstream);
    assert_eq!(ds["database"]["name"], "DOWNSTRM");
    assert_ne!(
        ds["database"]["dbid"],
        emulator_status(&e.db)["database"]["dbid"]
    );
    assert_eq!(ds["tables"].as_array().unwrap().len(), 0);
    assert!(ds["logs"].as_array().unwrap().len() > 1);

    build_dictionary(&e.db);
    let mut sets = common(&e, &e.db);
    mine_on(&mut sets, &downstream);
    let end = current_scn(&e.db);
    ok(&capture(&sets, end));
    workload(&e.db, 150, 6);
    let end = current_scn(&e.db);
    ok(&capture(&sets, end));
    let recs = records(&e.out);
    for t in TABLES {
        assert_converges(&e.db, &recs, t, end);
    }
    assert_exactly_once(&recs);
    assert!(recs.iter().any(|r| r["value"]["payload"]["op"] == "u"));

    // doctor checks both connections and their agreement.
    let doctor = Command::new(cargo_bin("oracle-cdc"))
        .args(
            sets.iter()
                .flat_map(|s| ["--set".to_string(), s.clone()])
                .chain(["doctor".into(), "--format".into(), "json".into()]),
        )
        .output()
        .unwrap();
    let report: Json = serde_json::from_slice(&doctor.stdout).unwrap();
    let result = |id: &str| {
        report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap()
            .clone()
    };
    let mining = result("connection.mining");
    assert_eq!(mining["severity"], "PASS", "{mining}");
    assert!(mining["found"].as_str().unwrap().contains("DOWNSTRM"));
    assert_eq!(result("redo.retention")["severity"], "PASS");

    // More changes; then the logs from where the offsets resume never reach a new downstream
    // (it received only logs from a later sequence on).
    workload(&e.db, 200, 7);
    let st = emulator_status(&e.db);
    let last_seq = st["logs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["sequence"].as_u64().unwrap())
        .max()
        .unwrap();
    let late = e.dir.path().join("late-downstream");
    create(
        &late,
        "downstream",
        &e.db,
        &["--from-sequence", &last_seq.to_string()],
    );
    let mut late_sets = common(&e, &e.db);
    mine_on(&mut late_sets, &late);
    let retention = doctor_check(&late_sets, "redo.retention");
    assert_eq!(retention["severity"], "FAIL", "{retention}");
    assert!(retention["found"].as_str().unwrap().contains("CDC-5201"));
    let out = capture(&late_sets, current_scn(&e.db));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "capture went on without the redo");
    assert!(
        err.contains("CDC-5201") && err.contains("ORA-01291"),
        "{err}"
    );

    // A mining database that holds another database's redo is refused (CDC-2202).
    let other = emulated(&SCHEMA.replace("log_size: 400", "log_size: 400\n  dbid: 42"));
    let other_ds = other.dir.path().join("ds");
    create(&other_ds, "downstream", &other.db, &[]);
    let mut wrong = common(&e, &e.db);
    mine_on(&mut wrong, &other_ds);
    let out = capture(&wrong, current_scn(&e.db));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("CDC-2202"), "{err}");
}

fn spawn_capture(sets: &[String]) -> std::process::Child {
    let args: Vec<String> = sets
        .iter()
        .flat_map(|s| ["--set".to_string(), s.clone()])
        .chain(["-q".to_string(), "capture".to_string()])
        .collect();
    Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

fn sigterm(c: std::process::Child) {
    let sent = Command::new("kill")
        .args(["-TERM", &c.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = c.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "SIGTERM stops capture cleanly: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn waits_for_redo(e: &Json) -> bool {
    e["event"] == "capture-state"
        && e["state"] == "waiting-for-redo"
        && e["reason"]
            .as_str()
            .is_some_and(|r| r.contains("mining database"))
}

#[test]
fn archived_log_downstream_capture_waits_for_shipped_redo_stops_cleanly_and_converges() {
    let e = emulated(SCHEMA);
    let downstream = e.dir.path().join("downstream");
    create(
        &downstream,
        "downstream",
        &e.db,
        &["--shipping", "archived"],
    );
    build_dictionary(&e.db);
    let mut sets = common(&e, &e.db);
    mine_on(&mut sets, &downstream);
    sets.extend([
        // One wave per table: every chunk of it is read at one SCN.
        "cdc.snapshot.chunk.rows=100000".into(),
        "cdc.snapshot.new.tables=auto".into(),
    ]);
    let mut first = sets.clone();
    first.push("cdc.tables.include=SHOP.ACCOUNTS".into());

    // The first start: the snapshot is read at the SCN streaming starts from, so nothing has
    // to be mined before it; streaming then waits for redo the downstream does not have.
    let c = spawn_capture(&first);
    wait_for_event(&e.state, 60, "ACCOUNTS snapshotted", |v| {
        v["event"] == "snapshot-table-done"
    });
    wait_for_event(&e.state, 60, "streaming waits", |v| {
        v["event"] == "capture-state" && v["state"] == "waiting-for-redo"
    });
    sigterm(c);

    // The source moves on; ORDERS is added: its incremental snapshot reads it at the source's
    // current SCN, in the source's current log, which an archived-log downstream has not got.
    // Its chunk may not be published before the redo up to its SCN is mined: capture waits,
    // and a stop ends the wait cleanly.
    workload(&e.db, 150, 8);
    let c = spawn_capture(&sets);
    wait_for_event(&e.state, 60, "waiting for shipped redo", waits_for_redo);
    sigterm(c);
    let orders_rows = |recs: &[Json]| {
        recs.iter()
            .filter(|r| {
                r["value"]["payload"]["op"] == "r" && r["topic"] == "oracle-cdc.SHOP.ORDERS"
            })
            .count()
    };
    assert_eq!(
        orders_rows(&records(&e.out)),
        0,
        "a chunk was published before the downstream had the redo up to its SCN"
    );

    // Restarted, it waits again; the source switches logs and they are shipped: the chunk is
    // published and the snapshot completes.
    let before = events(&e.state)
        .iter()
        .filter(|v| waits_for_redo(v))
        .count();
    let c = spawn_capture(&sets);
    wait_for_event(&e.state, 60, "waiting again", |_| {
        events(&e.state)
            .iter()
            .filter(|v| waits_for_redo(v))
            .count()
            > before
    });
    workload(&e.db, 300, 9);
    wait_for_event(&e.state, 60, "ORDERS snapshotted", |v| {
        v["event"] == "snapshot-table-done" && v["table"] == "SHOP.ORDERS"
    });
    sigterm(c);
    assert!(orders_rows(&records(&e.out)) > 0);

    // Streaming ends where the downstream's redo ends: the last archived log.
    let logs = emulator_status(&downstream)["logs"]
        .as_array()
        .unwrap()
        .clone();
    assert!(!logs.is_empty() && logs.iter().all(|l| l["archived"] == true));
    let limit = logs
        .iter()
        .filter_map(|l| l["next_scn"].as_u64())
        .max()
        .unwrap()
        - 1;
    assert!(limit < current_scn(&e.db), "the current log is not shipped");
    ok(&capture(&sets, limit));
    let recs = records(&e.out);
    for t in TABLES {
        assert_converges(&e.db, &recs, t, limit);
    }
    assert_exactly_once(&recs);
}

#[test]
fn capture_on_a_standby_converges_while_the_primary_commits_and_apply_moves() {
    let e = emulated(SCHEMA);
    let standby = e.dir.path().join("standby");
    create(&standby, "standby", &e.db, &["--apply-lag-scn", "25"]);
    let standby_before = fingerprint(&standby);
    let mut sets = common(&e, &standby);
    sets.push("cdc.emulator.fault.read.delay.ms=15".into());
    // The primary commits while capture snapshots and streams on the standby: every wave of
    // chunks is placed at the standby's applied SCN of that moment.
    let workload = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "workload",
            e.db.to_str().unwrap(),
            "--transactions",
            "400",
            "--rate",
            "300",
            "--rollback-pct",
            "10",
            "--key-update-pct",
            "10",
            "--long-every",
            "50",
            "--long-span",
            "30",
            "--seed",
            "12",
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let c = spawn_capture(&sets);
    assert!(workload.wait_with_output().unwrap().status.success());
    // Started (its stop handler in place) before the SIGTERM, however slow the machine.
    wait_for_event(&e.state, 60, "capture started", |v| {
        v["event"] == "capture-started"
    });
    sigterm(c);
    let applied = current_scn(&standby);
    assert_eq!(applied, current_scn(&e.db) - 25);
    capture_on_standby(&e, &sets, applied);
    let recs = records(&e.out);
    for t in TABLES {
        assert_converges(&standby, &recs, t, applied);
        assert_converges(&e.db, &recs, t, applied);
    }
    assert_exactly_once(&recs);
    assert_eq!(fingerprint(&standby), standby_before);
}

#[test]
fn downstream_mining_with_scns_and_snapshot_reads_from_the_standby_converges() {
    let e = emulated(SCHEMA);
    // Built before the SCNs capture starts from (the standby's applied SCN lags).
    build_dictionary(&e.db);
    workload(&e.db, 120, 13);
    let standby = e.dir.path().join("standby");
    let downstream = e.dir.path().join("downstream");
    create(&standby, "standby", &e.db, &["--apply-lag-scn", "20"]);
    create(&downstream, "downstream", &e.db, &[]);
    let standby_before = fingerprint(&standby);
    let mut sets = common(&e, &standby);
    mine_on(&mut sets, &downstream);
    ok(&capture(&sets, current_scn(&standby)));
    workload(&e.db, 150, 14);
    let applied = current_scn(&standby);
    ok(&capture(&sets, applied));
    let recs = records(&e.out);
    for t in TABLES {
        assert_converges(&standby, &recs, t, applied);
    }
    assert_exactly_once(&recs);
    assert!(recs
        .iter()
        .filter(|r| r["value"]["payload"]["op"] == "r")
        .all(|r| r["value"]["payload"]["source"]["scn"]
            .as_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
            <= applied));
    assert_eq!(fingerprint(&standby), standby_before);
}

fn doctor_check(sets: &[String], id: &str) -> Json {
    let doctor = Command::new(cargo_bin("oracle-cdc"))
        .args(
            sets.iter()
                .flat_map(|s| ["--set".to_string(), s.clone()])
                .chain(["doctor".into(), "--format".into(), "json".into()]),
        )
        .output()
        .unwrap();
    let report: Json = serde_json::from_slice(&doctor.stdout).unwrap();
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap()
        .clone()
}

#[test]
fn downstream_mining_needs_the_dictionary_in_the_redo() {
    let e = emulated(SCHEMA);
    workload(&e.db, 60, 21);
    let downstream = e.dir.path().join("downstream");
    create(&downstream, "downstream", &e.db, &[]);
    let mut sets = common(&e, &e.db);
    sets.push(format!(
        "cdc.mining.database.url=emulator:{}",
        downstream.display()
    ));

    // The online catalog (the default) is the downstream's own dictionary: refused before
    // anything is mined or written, and doctor says so.
    let out = capture(&sets, current_scn(&e.db));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("CDC-5301") && err.contains("DBMS_LOGMNR_D.BUILD"),
        "{err}"
    );
    assert!(!e.out.exists() || records(&e.out).is_empty());
    let mining = doctor_check(&sets, "connection.mining");
    assert_eq!(mining["severity"], "FAIL", "{mining}");
    assert!(
        mining["found"].as_str().unwrap().contains("online_catalog"),
        "{mining}"
    );
    assert!(
        mining["fix"].as_str().unwrap().contains("redo_logs"),
        "{mining}"
    );

    // The dictionary from the redo, but no build yet: ORA-01371 as CDC-5302.
    sets.push("cdc.mining.dictionary=redo_logs".into());
    let mining = doctor_check(&sets, "connection.mining");
    assert_eq!(mining["severity"], "FAIL", "{mining}");
    assert!(
        mining["found"]
            .as_str()
            .unwrap()
            .contains("no LogMiner dictionary build"),
        "{mining}"
    );
    // Made to mine: changes committed after the snapshot (capture stopping at the current SCN
    // would have nothing to mine on a quiet database).
    let args: Vec<String> = sets
        .iter()
        .flat_map(|s| ["--set".to_string(), s.clone()])
        .collect();
    let (code, err) = capture_mining_fails(&args, &e.db, &e.state, 120);
    assert_ne!(code, 0, "mined without a dictionary");
    assert!(
        err.contains("CDC-5302") && err.contains("ORA-01371"),
        "{err}"
    );

    // Built on the source: the stored position (from before the build) still cannot be
    // mined; a fresh start converges.
    build_dictionary(&e.db);
    let mining = doctor_check(&sets, "connection.mining");
    assert_eq!(mining["severity"], "FAIL", "{mining}");
    assert!(
        mining["found"]
            .as_str()
            .unwrap()
            .contains("where mining starts"),
        "{mining}"
    );
    std::fs::remove_dir_all(&e.state).unwrap();
    if e.out.exists() {
        std::fs::remove_dir_all(&e.out).unwrap();
    }
    let mining = doctor_check(&sets, "connection.mining");
    assert_eq!(mining["severity"], "PASS", "{mining}");
    assert!(
        mining["found"]
            .as_str()
            .unwrap()
            .contains("dictionary from the redo"),
        "{mining}"
    );
    ok(&capture(&sets, current_scn(&e.db)));
    workload(&e.db, 80, 22);
    let end = current_scn(&e.db);
    ok(&capture(&sets, end));
    let recs = records(&e.out);
    for t in TABLES {
        assert_converges(&e.db, &recs, t, end);
    }
    assert_exactly_once(&recs);
}

/// One sequence never reaches the downstream while later ones do (a gap in redo transport):
/// capture used to wait at the gap in `waiting-for-redo` forever while doctor said PASS. It
/// stops with CDC-5201 naming the thread and sequence once the gap outlasts
/// cdc.mining.gap.timeout.ms, and doctor FAILs it.
#[test]
fn a_gap_in_log_shipping_stops_capture_with_cdc_5201_and_doctor_fails_it() {
    let e = emulated(SCHEMA);
    workload(&e.db, 60, 11);
    let newest = |db: &Path| {
        emulator_status(db)["logs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["sequence"].as_u64().unwrap())
            .max()
            .unwrap()
    };
    let missing = newest(&e.db) + 1;
    let downstream = e.dir.path().join("downstream");
    create(
        &downstream,
        "downstream",
        &e.db,
        &["--missing-sequence", &missing.to_string()],
    );
    build_dictionary(&e.db);
    let mut sets = common(&e, &e.db);
    mine_on(&mut sets, &downstream);
    sets.push("cdc.mining.gap.timeout.ms=0".into());
    ok(&capture(&sets, current_scn(&e.db)));
    // Changes past the missing sequence: the downstream holds later logs, not that one.
    workload(&e.db, 200, 12);
    assert!(newest(&e.db) > missing + 1, "logs after the gap");
    let out = capture(&sets, current_scn(&e.db));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("CDC-5201") && err.contains(&format!("thread 1 sequence {missing}")),
        "{err}"
    );
    // doctor says it too.
    let retention = doctor_check(&sets, "redo.retention");
    assert_eq!(retention["severity"], "FAIL", "{retention}");
    assert!(
        retention["found"]
            .as_str()
            .unwrap()
            .contains(&format!("sequence {missing}")),
        "{retention}"
    );
}

/// A standby with real-time apply (no lag): its applied SCN lies in the primary's current
/// log, whose redo the standby holds in a standby redo log that no log view lists for LogMiner
/// there. Capture resumes inside the standby's newest archived log and is asked to stop at the
/// applied SCN, past it: it may mine only what the archived logs hold, so it waits
/// (`waiting-for-redo`) until the primary switches logs and the standby archives the log, then
/// converges with every commit exactly once. Mining up to the applied SCN with the archived
/// logs alone returned nothing for the commits past them and took the window for mined: capture
/// ended at once, those commits lost without an error.
#[test]
fn capture_on_a_real_time_apply_standby_mines_only_what_its_archived_logs_hold() {
    let e = emulated(SCHEMA);
    workload(&e.db, 150, 21);
    let standby = e.dir.path().join("standby");
    create(&standby, "standby", &e.db, &["--apply-lag-scn", "0"]);
    // The snapshot, read at the standby's applied SCN once the primary switched logs (a
    // dictionary build ends with a log switch): streaming goes on from there, in the
    // primary's new current log.
    let before_switch = current_scn(&standby);
    build_dictionary(&e.db);
    assert!(archived_end(&standby) >= before_switch);
    // One mining window for all of what follows (the default size): it starts in an archived
    // log and, unbounded, would end past it.
    let sets: Vec<String> = common(&e, &standby)
        .into_iter()
        .filter(|s| !s.starts_with("cdc.stream.window.scn="))
        .collect();
    ok(&capture(&sets, before_switch));

    // The primary commits, switches logs (the log where capture resumes is archived on the
    // standby) and commits again; the standby applies it all at once.
    workload(&e.db, 25, 22);
    build_dictionary(&e.db);
    let end = archived_end(&standby);
    workload(&e.db, 25, 23);
    let applied = current_scn(&standby);
    assert_eq!(applied, current_scn(&e.db));
    assert!(end < applied && archived_end(&standby) == end);

    let waits = || {
        events(&e.state)
            .iter()
            .filter(|v| v["event"] == "capture-state" && v["state"] == "waiting-for-redo")
            .count()
    };
    let before = waits();
    let mut c = spawn_capture_to(&sets, applied);
    // Either capture waits for the redo up to the applied SCN, or (the bug) it ends at once,
    // having mined past its archived logs.
    let mut exited = None;
    wait_for("capture waiting for archived redo, or ending", 120, || {
        if let Ok(Some(status)) = c.try_wait() {
            exited = Some(status);
            return true;
        }
        waits() > before
    });
    if exited.is_none() {
        // The primary switches logs; the standby applies and archives the log holding the
        // applied SCN.
        build_dictionary(&e.db);
        assert!(archived_end(&standby) >= applied);
    }
    let out = c.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "capture failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recs = records(&e.out);
    for t in TABLES {
        assert_converges(&standby, &recs, t, applied);
        assert_converges(&e.db, &recs, t, applied);
    }
    assert_exactly_once(&recs);
    assert!(
        exited.is_none(),
        "capture ended before the standby archived the redo up to {applied}"
    );
}

/// A snapshot on a real-time-apply standby whose primary keeps committing without a log
/// switch: each wave is read where the standby's archived logs end, which the stream can mine
/// to, not at the applied SCN. Read at the applied SCN (before), the second wave waited for
/// redo the stream could mine only after the primary's next log switch, which never came:
/// capture waited (`waiting-for-redo`) until it was killed.
#[test]
fn a_standby_snapshot_reads_its_waves_where_the_archived_logs_end_without_waiting_for_a_switch() {
    // Logs large enough that the workload below switches none.
    let e = emulated(&SCHEMA.replace("log_size: 400", "log_size: 1000000"));
    workload(&e.db, 40, 31);
    let standby = e.dir.path().join("standby");
    create(&standby, "standby", &e.db, &["--apply-lag-scn", "0"]);
    // A log switch: every change so far is in an archived log of the standby.
    build_dictionary(&e.db);
    let end = archived_end(&standby);
    // The primary commits on, the standby applying it at once, past its archived logs.
    let w = capture_support::workload(
        &e.db,
        &["--duration", "120s", "--rate", "25", "--seed", "32"],
    );
    wait_for("the standby applying past its archived logs", 60, || {
        current_scn(&standby) > end + 40
    });
    // Several waves (7 chunks of 30 rows, 2 at a time), the stream to `end`.
    let sets = common(&e, &standby);
    let mut c = spawn_capture_to(&sets, end);
    let status = wait_at_most(
        &mut c,
        90,
        "capture on the standby (waiting for a log switch?)",
    );
    // Waits during the snapshot (after it, capture waits for redo as streaming does on a
    // standby, and ends: nothing is needed past `end`).
    let waited = events(&e.state)
        .iter()
        .take_while(|v| v["event"] != "snapshot-complete")
        .any(|v| v["event"] == "capture-state" && v["state"] == "waiting-for-redo");
    let mut w = w;
    let _ = w.kill();
    let _ = w.wait();
    let mut stderr = String::new();
    if let Some(mut err) = c.stderr.take() {
        use std::io::Read;
        let _ = err.read_to_string(&mut stderr);
    }
    assert!(status.success(), "capture failed: {stderr}");
    // No switch came meanwhile: the archived logs still end where they did.
    assert_eq!(archived_end(&standby), end);
    assert!(!waited, "the snapshot waited for redo");
    // The stream starts where it can mine from, one past the archived logs' end, so up to
    // `end` it publishes nothing: the records are the snapshot's, the tables at end + 1.
    let recs = records(&e.out);
    for t in TABLES {
        assert_converges(&standby, &recs, t, end + 1);
        assert_converges(&e.db, &recs, t, end + 1);
    }
    assert_exactly_once(&recs);
    let snapshot_scns = snapshot_scns(&recs);
    assert_eq!(
        snapshot_scns.into_iter().collect::<Vec<_>>(),
        vec![end + 1],
        "every wave read one past the archived logs' end"
    );
}

/// A wave read where a standby's archived logs end whose undo is gone (ORA-01555: the
/// primary's UNDO_RETENTION, 2 s here, is shorter than the time since its last log switch):
/// the chunk is read again at the standby's applied SCN, which then waits for the primary's
/// next log switch as every wave did before, and capture converges. Read again where the
/// archived logs end, it failed each time until it could not be halved (CDC-8001).
#[test]
fn a_standby_wave_whose_undo_is_gone_is_read_again_at_the_applied_scn() {
    let e = emulated(&SCHEMA.replace(
        "  log_size: 400",
        "  log_size: 1000000\n  undo_retention: 2",
    ));
    workload(&e.db, 20, 51);
    let standby = e.dir.path().join("standby");
    create(&standby, "standby", &e.db, &["--apply-lag-scn", "0"]);
    build_dictionary(&e.db);
    let end = archived_end(&standby);
    // Changes past the archived logs, then longer than the undo is kept.
    workload(&e.db, 60, 52);
    std::thread::sleep(std::time::Duration::from_secs(3));
    let applied = current_scn(&standby);
    assert!(applied > end + 1);
    let sets = common(&e, &standby);
    capture_on_standby(&e, &sets, applied);
    let recs = records(&e.out);
    for t in TABLES {
        assert_converges(&standby, &recs, t, applied);
        assert_converges(&e.db, &recs, t, applied);
    }
    assert_exactly_once(&recs);
    let retried = events(&e.state)
        .into_iter()
        .any(|v| v["event"] == "snapshot-chunk-retry" && v["code"] == "CDC-5001");
    assert!(
        retried,
        "no chunk met ORA-01555 where the archived logs end"
    );
    let snapshot_scns = snapshot_scns(&recs);
    assert!(
        snapshot_scns.iter().any(|s| *s > end + 1),
        "no chunk read past the archived logs' end: {snapshot_scns:?}"
    );
}

/// The SCNs the snapshot records were read at (`source.scn` of `op` `r`).
fn snapshot_scns(recs: &[Json]) -> std::collections::BTreeSet<u64> {
    recs.iter()
        .filter(|r| r["value"]["payload"]["op"] == "r")
        .map(|r| {
            r["value"]["payload"]["source"]["scn"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect()
}

/// Where a standby's archived logs end: the SCN before the newest one's NEXT_CHANGE#.
pub(crate) fn archived_end(standby: &Path) -> u64 {
    emulator_status(standby)["logs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["archived"] == true)
        .filter_map(|l| l["next_scn"].as_u64())
        .max()
        .unwrap_or(1)
        - 1
}

/// Dictionary builds on the primary (a few SCNs each, no table changes) until the standby,
/// its apply lag behind, has applied every change the primary made before: from then on the
/// tables are the same at every SCN the standby reaches.
fn settle(primary: &Path, standby: &Path) {
    let changed = current_scn(primary);
    for _ in 0..500 {
        if current_scn(standby) >= changed {
            return;
        }
        build_dictionary(primary);
    }
    panic!("the standby never applied SCN {changed}");
}

/// Capture on a standby up to `stop`, past its archived logs: capture mines only what they
/// hold, so it waits (`waiting-for-redo`), and so does each wave of snapshot chunks, read at the
/// standby's applied SCN of its moment. Meanwhile the primary switches logs again and again
/// (dictionary builds: a few SCNs and a log switch each, no table changes, so the tables at
/// `stop` stay the tables at every later SCN) until the standby, its apply lag behind, has
/// archived the logs capture waits for, and capture ends at `stop`.
fn capture_on_standby(e: &Emulated, sets: &[String], stop: u64) {
    let mut c = spawn_capture_to(sets, stop);
    let waits = || {
        events(&e.state)
            .iter()
            .any(|v| v["event"] == "capture-state" && v["state"] == "waiting-for-redo")
    };
    wait_for("capture waiting for archived redo, or ending", 120, || {
        matches!(c.try_wait(), Ok(Some(_))) || waits()
    });
    for _ in 0..2000 {
        if matches!(c.try_wait(), Ok(Some(_))) {
            break;
        }
        build_dictionary(&e.db);
    }
    let out = c.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "capture failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `capture --stop-at-scn STOP` in the background.
fn spawn_capture_to(sets: &[String], stop: u64) -> std::process::Child {
    let args: Vec<String> = sets
        .iter()
        .flat_map(|s| ["--set".to_string(), s.clone()])
        .chain([
            "-q".to_string(),
            "capture".to_string(),
            "--stop-at-scn".to_string(),
            stop.to_string(),
        ])
        .collect();
    Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}
