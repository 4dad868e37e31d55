//! Signals end to end on the emulator: `signal send` to a running capture — incremental
//! snapshots under a live workload (and a kill -9 during one), filters, blocking snapshots,
//! pause/resume/stop, reject and queue, a read-only standby that is never written, and the
//! errors of `signal send`.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

const SCHEMA: &str = r#"
seed: 5
database:
  multitenant: true
tables:
  - name: PDB1.SHOP.ACCOUNTS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
      - { name: NOTE, type: VARCHAR2(100), null_pct: 20 }
    primary_key: [ID]
    supplemental_logging: all
    rows: 300
  - name: PDB1.SHOP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: REGION, type: VARCHAR2(8), nullable: false, generate: { choice: [EMEA, APAC] } }
      - { name: ITEM, type: VARCHAR2(20) }
    primary_key: [ID]
    row_movement: true
    supplemental_logging: all
    rows: 300
"#;

struct Env {
    _dir: tempfile::TempDir,
    db: PathBuf,
    state: PathBuf,
    out: PathBuf,
}

fn env() -> Env {
    env_with(SCHEMA)
}

fn env_with(schema_text: &str) -> Env {
    let e = emulated(schema_text);
    Env {
        state: e.state,
        out: e.out,
        db: e.db,
        _dir: e.dir,
    }
}

impl Env {
    fn settings(&self, extra: &[&str]) -> Vec<String> {
        [
            format!("cdc.database.url=emulator:{}", self.db.display()),
            format!("cdc.state.dir={}", self.state.display()),
            format!("cdc.sink.dir={}", self.out.display()),
            "cdc.snapshot.mode=none".into(),
            "cdc.snapshot.chunk.rows=40".into(),
            "cdc.snapshot.threads=2".into(),
            "cdc.stream.poll.ms=50".into(),
            "cdc.signal.poll.ms=50".into(),
            "cdc.stream.window.scn=500".into(),
        ]
        .into_iter()
        .chain(extra.iter().map(|s| s.to_string()))
        .flat_map(|s| ["--set".to_string(), s])
        .collect()
    }

    fn capture(&self, extra: &[&str]) -> Child {
        let mut args = self.settings(extra);
        args.extend(["-q".into(), "capture".into()]);
        Command::new(cargo_bin("oracle-cdc"))
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    }

    fn capture_until(&self, extra: &[&str], scn: u64) {
        let mut args = self.settings(extra);
        args.extend([
            "-q".into(),
            "capture".into(),
            "--stop-at-scn".into(),
            scn.to_string(),
        ]);
        run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    }

    fn signal(&self, extra: &[&str], args: &[&str]) -> Output {
        let mut all = self.settings(extra);
        all.extend(["signal".into(), "send".into()]);
        all.extend(args.iter().map(|s| s.to_string()));
        Command::new(cargo_bin("oracle-cdc"))
            .args(&all)
            .output()
            .unwrap()
    }

    fn signal_ok(&self, extra: &[&str], args: &[&str]) -> String {
        let o = self.signal(extra, args);
        assert!(
            o.status.success(),
            "signal send {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap().trim().to_string()
    }

    fn offsets(&self) -> Json {
        serde_json::from_str(&std::fs::read_to_string(self.state.join("offsets.json")).unwrap())
            .unwrap()
    }

    fn started(&self) {
        wait_for_event(&self.state, 60, "capture-started", |e| {
            e["event"] == "capture-started"
        });
    }
}

fn stop(mut c: Child) {
    let _ = c.kill();
    let _ = c.wait();
}

fn chunks_of(state: &Path, id: &str) -> usize {
    events(state)
        .iter()
        .filter(|e| e["event"] == "snapshot-chunk-done" && e["signal"] == id)
        .count()
}

fn snapshot_records<'a>(recs: &'a [Json], table: &str) -> Vec<&'a Json> {
    recs.iter()
        .filter(|r| {
            r["value"]["payload"]["op"] == "r"
                && topic_matches(r["topic"].as_str().unwrap_or(""), table)
        })
        .collect()
}

#[test]
fn incremental_snapshot_by_signal_converges_across_a_kill_under_a_live_workload() {
    let e = env();
    let workload = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "workload",
            e.db.to_str().unwrap(),
            "--transactions",
            "900",
            "--rate",
            "300",
            "--long-every",
            "40",
            "--long-span",
            "50",
            "--rollback-pct",
            "10",
            "--savepoint-pct",
            "10",
            "--key-update-pct",
            "10",
            "--row-move-pct",
            "20",
            "--ddl-every",
            "250",
            "--seed",
            "11",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Slow enough that the kill comes before the snapshot's last chunk however late a loaded
    // machine sees the first (8 chunks on 2 readers: 1.6 s).
    let slow = ["cdc.emulator.fault.read.delay.ms=400"];
    let c = e.capture(&slow);
    e.started();
    let table = "PDB1.SHOP.ACCOUNTS";
    assert_eq!(
        e.signal_ok(
            &slow,
            &["execute-snapshot", "--tables", table, "--id", "inc-1"]
        ),
        "inc-1",
        "signal send prints the id"
    );
    // Killed in the middle of the incremental snapshot, then restarted: it resumes.
    wait_for_event(&e.state, 60, "a chunk of inc-1", |ev| {
        ev["event"] == "snapshot-chunk-done" && ev["signal"] == "inc-1"
    });
    stop(c);
    assert!(
        e.offsets()["signals"][0]["id"] == "inc-1",
        "the running signal snapshot is in the offsets"
    );
    let c = e.capture(&slow);
    wait_for_event(&e.state, 120, "signal-done inc-1", |ev| {
        ev["event"] == "signal-done" && ev["signal"] == "inc-1"
    });
    assert!(workload.wait_with_output().unwrap().status.success());
    stop(c);
    let end = current_scn(&e.db);
    e.capture_until(&[], end);

    let recs = records(&e.out);
    assert_exactly_once(&recs);
    assert_scn_order(&recs);
    let snap = snapshot_records(&recs, table);
    assert!(!snap.is_empty());
    assert!(
        snap.iter()
            .all(|r| r["value"]["payload"]["source"]["snapshot"] == "incremental"),
        "every record of a signal's snapshot is marked incremental"
    );
    assert!(
        snapshot_records(&recs, "PDB1.SHOP.ORDERS").is_empty(),
        "only the signalled table is read"
    );
    assert_converges(&e.db, &recs, table, end);
    let o = e.offsets();
    assert!(o["signals"].as_array().is_none_or(|a| a.is_empty()));
    let done = o["signal_history"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["id"] == "inc-1")
        .unwrap();
    assert_eq!(done["outcome"], "done");
}

#[test]
fn pause_resume_stop_reject_and_queue() {
    let e = env();
    // 15 chunks of 300 ms: the pause (another process, applied at the next signal poll) comes
    // before the last however slow a loaded machine is to start it.
    let slow = [
        "cdc.emulator.fault.read.delay.ms=300",
        "cdc.snapshot.threads=1",
        "cdc.snapshot.chunk.rows=20",
    ];
    let c = e.capture(&slow);
    e.started();
    e.signal_ok(
        &slow,
        &[
            "execute-snapshot",
            "--tables",
            "PDB1.SHOP.ACCOUNTS",
            "--id",
            "s1",
        ],
    );
    wait_for_event(&e.state, 60, "a chunk of s1", |ev| {
        ev["event"] == "snapshot-chunk-done" && ev["signal"] == "s1"
    });
    e.signal_ok(&slow, &["pause", "--id", "p1", "--wait", "--timeout", "30"]);
    let paused_at = chunks_of(&e.state, "s1");
    std::thread::sleep(Duration::from_millis(900));
    assert_eq!(
        chunks_of(&e.state, "s1"),
        paused_at,
        "no chunk is read while paused"
    );
    assert_eq!(e.offsets()["signals"][0]["paused"], true);

    // Another snapshot while s1 runs: rejected (cdc.signal.concurrent=reject).
    let o = e.signal(
        &slow,
        &[
            "execute-snapshot",
            "--tables",
            "PDB1.SHOP.ORDERS",
            "--id",
            "s2",
            "--wait",
            "--timeout",
            "30",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("signal-rejected") && err.contains("s1 is running"),
        "{err}"
    );

    e.signal_ok(
        &slow,
        &["resume", "--id", "r1", "--wait", "--timeout", "30"],
    );
    wait_for_event(&e.state, 60, "s1 reads again", |_| {
        chunks_of(&e.state, "s1") > paused_at
    });
    e.signal_ok(&slow, &["stop", "--id", "x1", "--wait", "--timeout", "30"]);
    wait_for_event(&e.state, 30, "s1 stopped", |ev| {
        ev["event"] == "signal-stopped" && ev["signal"] == "s1"
    });
    stop(c);
    let o = e.offsets();
    assert!(o["signals"].as_array().is_none_or(|a| a.is_empty()));
    let outcome = |id: &str| {
        o["signal_history"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["id"] == id)
            .map(|h| h["outcome"].as_str().unwrap().to_string())
    };
    assert_eq!(outcome("s1").as_deref(), Some("stopped"));
    assert_eq!(outcome("s2").as_deref(), Some("rejected"));
    assert_eq!(outcome("p1").as_deref(), Some("applied"));
    // Ids are unique for good.
    let dup = e.signal(&slow, &["pause", "--id", "s1"]);
    assert_eq!(dup.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&dup.stderr).contains("CDC-8103"));

    // cdc.signal.concurrent=queue: the second snapshot runs after the first.
    let queue = [slow.as_slice(), &["cdc.signal.concurrent=queue"]].concat();
    let c = e.capture(&queue);
    e.signal_ok(
        &queue,
        &[
            "execute-snapshot",
            "--tables",
            "PDB1.SHOP.ACCOUNTS",
            "--id",
            "q1",
        ],
    );
    e.signal_ok(
        &queue,
        &[
            "execute-snapshot",
            "--tables",
            "PDB1.SHOP.ORDERS",
            "--id",
            "q2",
        ],
    );
    wait_for_event(&e.state, 90, "q2 done", |ev| {
        ev["event"] == "signal-done" && ev["signal"] == "q2"
    });
    stop(c);
    let evs = events(&e.state);
    let pos = |name: &str, id: &str| {
        evs.iter()
            .position(|ev| ev["event"] == name && ev["signal"] == id)
            .unwrap_or_else(|| panic!("no {name} for {id}"))
    };
    assert!(pos("signal-done", "q1") < pos("snapshot-started", "q2"));
    let q2 = &evs[pos("signal-accepted", "q2")];
    assert!(
        q2["action"]
            .as_str()
            .unwrap()
            .contains("queued after signal snapshot q1"),
        "{q2}"
    );
    let recs = records(&e.out);
    assert_eq!(
        snapshot_records(&recs, "PDB1.SHOP.ORDERS").len(),
        300,
        "the queued snapshot read every row"
    );
}

/// Every file under a directory with its bytes: a write anywhere changes it.
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

#[test]
fn every_signal_works_on_a_read_only_standby_that_is_never_written() {
    let e = env();
    run(&[
        "emulator",
        "workload",
        e.db.to_str().unwrap(),
        "--transactions",
        "200",
        "--seed",
        "3",
    ]);
    // The database becomes a physical standby open read-only (as after a role change).
    let schema_file = e.db.join("schema.yaml");
    let text = std::fs::read_to_string(&schema_file)
        .unwrap()
        .replace("role: primary", "role: physical_standby")
        .replace("open_mode: read_write", "open_mode: read_only_with_apply");
    std::fs::write(&schema_file, text).unwrap();
    let before = fingerprint(&e.db);
    // The source channel is refused in Oracle's words, not the code's (`PhysicalStandby`).
    let source = [
        "cdc.signal.enabled.channels=file,source",
        "cdc.signal.data.collection=PDB1.CDC.DEBEZIUM_SIGNAL",
    ];
    let o = e.signal(&source, &["pause", "--channel", "source"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("CDC-8105")
            && err.contains("DATABASE_ROLE PHYSICAL STANDBY, OPEN_MODE READ ONLY WITH APPLY")
            && !err.contains("PhysicalStandby"),
        "{err}"
    );

    // Kill -9 during an incremental snapshot, pause, reject, resume: all without a write.
    // 15 chunks of 300 ms: the kill, the restart and the pause all come before the last.
    let slow = [
        "cdc.emulator.fault.read.delay.ms=300",
        "cdc.snapshot.threads=1",
        "cdc.snapshot.chunk.rows=20",
    ];
    let c = e.capture(&slow);
    e.started();
    e.signal_ok(
        &slow,
        &[
            "execute-snapshot",
            "--tables",
            "PDB1.SHOP.ACCOUNTS",
            "--id",
            "sb-1",
        ],
    );
    wait_for_event(&e.state, 60, "a chunk of sb-1", |ev| {
        ev["event"] == "snapshot-chunk-done" && ev["signal"] == "sb-1"
    });
    stop(c);
    let c = e.capture(&slow);
    let after_kill = chunks_of(&e.state, "sb-1");
    wait_for_event(&e.state, 60, "sb-1 resumed", |_| {
        chunks_of(&e.state, "sb-1") > after_kill
    });
    e.signal_ok(&slow, &["pause", "--wait", "--timeout", "30"]);
    let paused_at = chunks_of(&e.state, "sb-1");
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(
        chunks_of(&e.state, "sb-1"),
        paused_at,
        "paused on the standby"
    );
    let o = e.signal(
        &slow,
        &[
            "execute-snapshot",
            "--tables",
            "PDB1.SHOP.ORDERS",
            "--wait",
            "--timeout",
            "30",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "rejected while sb-1 runs");
    e.signal_ok(&slow, &["resume", "--wait", "--timeout", "30"]);
    wait_for_event(&e.state, 90, "sb-1 done", |ev| {
        ev["event"] == "signal-done" && ev["signal"] == "sb-1"
    });
    stop(c);

    // Filtered and blocking snapshots, queued one after the other.
    let c = e.capture(&["cdc.signal.concurrent=queue"]);
    e.started();
    e.signal_ok(
        &[],
        &[
            "execute-snapshot",
            "--tables",
            "PDB1.SHOP.ORDERS",
            "--filter",
            "PDB1.SHOP.ORDERS=REGION = 'EMEA'",
            "--id",
            "emea",
            "--wait",
            "--timeout",
            "60",
        ],
    );
    e.signal_ok(
        &[],
        &[
            "execute-snapshot",
            "--tables",
            "PDB1.SHOP.ACCOUNTS",
            "--type",
            "blocking",
            "--id",
            "blk",
            "--wait",
            "--timeout",
            "60",
        ],
    );
    stop(c);
    let end = current_scn(&e.db);
    let recs = records(&e.out);
    assert_scn_order_idle(&recs);
    // Nothing changes on the standby, so sb-1 and blk read ACCOUNTS at the same SCN: their
    // records are identical, and exactly once is counted per snapshot below.
    let emea: Vec<_> = dump(&e.db, "PDB1.SHOP.ORDERS", end)
        .into_iter()
        .filter(|r| r["REGION"] == "EMEA")
        .collect();
    let got = snapshot_records(&recs, "PDB1.SHOP.ORDERS");
    assert!(!emea.is_empty());
    assert_eq!(
        got.len(),
        emea.len(),
        "the filter reads exactly the matching rows"
    );
    assert!(got
        .iter()
        .all(|r| r["value"]["payload"]["after"]["REGION"] == "EMEA"));
    assert_converges(&e.db, &recs, "PDB1.SHOP.ACCOUNTS", end);
    assert_eq!(
        snapshot_records(&recs, "PDB1.SHOP.ACCOUNTS")
            .iter()
            .filter(|r| r["value"]["payload"]["source"]["snapshot"] == "incremental")
            .count(),
        2 * dump(&e.db, "PDB1.SHOP.ACCOUNTS", end).len(),
        "sb-1 (resumed after kill -9) and blk each read every row exactly once"
    );

    // Every other command on the standby reads only.
    let settings = e.settings(&[]);
    let with = |cmd: &[&str]| {
        let mut a: Vec<&str> = settings.iter().map(String::as_str).collect();
        a.extend(cmd);
        Command::new(cargo_bin("oracle-cdc"))
            .args(&a)
            .output()
            .unwrap()
    };
    let export = e.out.with_file_name("export");
    assert!(with(&["snapshot", "--out", export.to_str().unwrap()])
        .status
        .success());
    assert!(with(&["plan-chunks"]).status.success());
    let _ = with(&["doctor"]); // findings on a standby are expected; it must not write
    assert!(with(&["offsets", "inspect"]).status.success());
    assert_eq!(
        fingerprint(&e.db),
        before,
        "nothing wrote to the read-only standby"
    );
}

#[test]
fn signal_send_refuses_bad_signals_with_codes() {
    let e = env();
    // No capture has run: no state directory.
    let o = e.signal(&[], &["pause"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("CDC-8104"));
    std::fs::create_dir_all(&e.state).unwrap();
    let cases: &[(&[&str], i32, &str)] = &[
        (
            &["execute-snapshot", "--tables", "PDB1.SHOP.NOPE"],
            2,
            "CDC-8102",
        ),
        (
            &["execute-snapshot", "--tables", "PDB1.SHOP.ACCOUNT"],
            2,
            "did you mean PDB1.SHOP.ACCOUNTS",
        ),
        (&["execute-snapshot"], 2, "CDC-8101"),
        (
            &[
                "execute-snapshot",
                "--tables",
                "PDB1.SHOP.ORDERS",
                "--filter",
                "PDB1.SHOP.ORDERS=1=1; DROP TABLE X",
            ],
            2,
            "CDC-8101",
        ),
        (
            &[
                "execute-snapshot",
                "--tables",
                "PDB1.SHOP.ORDERS",
                "--filter",
                "PDB1.SHOP.ACCOUNTS=ID > 1",
            ],
            2,
            "not one of the signal's data-collections",
        ),
        (
            &["pause", "--tables", "PDB1.SHOP.ORDERS"],
            2,
            "takes no --tables",
        ),
        (&["pause", "--id", "bad id"], 2, "CDC-8101"),
        (&["take-snapshot"], 2, "invalid value 'take-snapshot'"),
    ];
    for (args, code, text) in cases {
        let o = e.signal(&[], args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(*code), "{args:?}: {err}");
        assert!(err.contains(text), "{args:?}: {err}");
    }
    let o = e.signal(
        &["cdc.tables.exclude=PDB1.SHOP.ORDERS"],
        &["execute-snapshot", "--tables", "PDB1.SHOP.ORDERS"],
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not captured"));
    assert!(
        std::fs::read_dir(e.state.join("signals"))
            .map_or(true, |mut d| d.all(|f| f.unwrap().path().is_dir())),
        "a refused signal is not spooled"
    );
    // A signal sent with no capture running waits in the spool.
    let id = e.signal_ok(&[], &["pause"]);
    assert!(id.starts_with("sig-"));
}

#[test]
fn a_table_added_to_the_include_list_is_snapshotted_on_its_own_with_new_tables_auto() {
    let e = env();
    let only_accounts = ["cdc.tables.include=PDB1.SHOP.ACCOUNTS"];
    let start = current_scn(&e.db);
    e.capture_until(&only_accounts, start);
    run(&[
        "emulator",
        "workload",
        e.db.to_str().unwrap(),
        "--transactions",
        "40",
        "--seed",
        "9",
    ]);
    // ORDERS joins the include list. With `signal` (the default) capture only says so.
    let mid = current_scn(&e.db);
    e.capture_until(&[], mid);
    let ev = wait_for_event(&e.state, 5, "table-not-snapshotted", |ev| {
        ev["event"] == "table-not-snapshotted"
    });
    assert_eq!(ev["table"], "PDB1.SHOP.ORDERS");
    assert!(snapshot_records(&records(&e.out), "PDB1.SHOP.ORDERS").is_empty());

    // Another new table run, now with `auto`: the table is snapshotted incrementally.
    let e2 = env();
    e2.capture_until(&only_accounts, current_scn(&e2.db));
    run(&[
        "emulator",
        "workload",
        e2.db.to_str().unwrap(),
        "--transactions",
        "40",
        "--seed",
        "9",
    ]);
    let end = current_scn(&e2.db);
    e2.capture_until(&["cdc.snapshot.new.tables=auto"], end);
    let recs = records(&e2.out);
    let snap = snapshot_records(&recs, "PDB1.SHOP.ORDERS");
    assert!(!snap.is_empty());
    assert!(snap
        .iter()
        .all(|r| r["value"]["payload"]["source"]["snapshot"] == "incremental"));
    assert_converges(&e2.db, &recs, "PDB1.SHOP.ORDERS", end);
    assert_scn_order_idle(&recs);
    let o = e2.offsets();
    assert!(o["signal_history"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h["id"].as_str().unwrap().starts_with("auto-") && h["outcome"] == "done"));
}

/// A table created while capture runs is a captured table at once: an execute-snapshot signal
/// naming it is taken (it was rejected as "not captured" until capture restarted).
#[test]
fn a_table_created_while_capture_runs_takes_a_snapshot_signal_without_a_restart() {
    let e = env();
    let c = e.capture(&["cdc.signal.concurrent=queue"]);
    e.started();
    run(&[
        "emulator",
        "workload",
        e.db.to_str().unwrap(),
        "--transactions",
        "6",
        "--create-table-every",
        "3",
        "--tables",
        "PDB1.SHOP.ACCOUNTS",
        "--rate",
        "0",
        "--seed",
        "4",
    ]);
    let created = wait_for_event(&e.state, 60, "table-created", |ev| {
        ev["event"] == "table-created"
    });
    let table = created["table"].as_str().unwrap().to_string();
    assert!(table.starts_with("PDB1.SHOP.ACCOUNTS_NEW"), "{created}");
    let out = e.signal_ok(
        &[],
        &[
            "execute-snapshot",
            "--tables",
            &table,
            "--id",
            "again",
            "--wait",
            "--timeout",
            "60",
        ],
    );
    assert!(out.contains("again"), "{out}");
    let done = wait_for_event(&e.state, 60, "signal again done", |ev| {
        ev["signal"] == "again" && ev["event"] == "signal-done"
    });
    assert_eq!(done["signal"], "again");
    stop(c);
    let recs = records(&e.out);
    let end = current_scn(&e.db);
    assert_converges(&e.db, &recs, &table, end);
}

/// [`SCHEMA`] with the signal table PDB1.CDC.DEBEZIUM_SIGNAL and the INSERT grant on it that
/// `signal send --channel source` needs (the one grant beyond capture's).
fn env_with_signal_table() -> Env {
    let schema = SCHEMA.replacen(
        "  multitenant: true\n",
        "  multitenant: true\n  privileges: [all, \"PDB1.CDC.DEBEZIUM_SIGNAL:INSERT\"]\n",
        1,
    );
    env_with(&format!(
        "{schema}  - name: PDB1.CDC.DEBEZIUM_SIGNAL
    columns:
      - {{ name: ID, type: VARCHAR2(42), nullable: false }}
      - {{ name: TYPE, type: VARCHAR2(32), nullable: false }}
      - {{ name: DATA, type: VARCHAR2(2048) }}
    primary_key: [ID]
    supplemental_logging: all
    rows: 0
"
    ))
}

#[test]
fn the_source_channel_reads_signals_from_the_signal_table() {
    // `signal send --channel source` inserts the row: the one grant beyond capture's.
    let e = env_with_signal_table();
    let source = [
        "cdc.signal.enabled.channels=file,source",
        "cdc.signal.data.collection=PDB1.CDC.DEBEZIUM_SIGNAL",
    ];
    let c = e.capture(&source);
    e.started();
    let out = e.signal_ok(
        &source,
        &[
            "execute-snapshot",
            "--channel",
            "source",
            "--tables",
            "PDB1.SHOP.ACCOUNTS",
            "--filter",
            "PDB1.SHOP.ACCOUNTS=ID <= 50",
            "--id",
            "src-1",
            "--wait",
            "--timeout",
            "60",
        ],
    );
    assert_eq!(out, "src-1");
    stop(c);
    let recs = records(&e.out);
    let snap = snapshot_records(&recs, "PDB1.SHOP.ACCOUNTS");
    assert_eq!(snap.len(), 50, "the row's filter was applied");
    assert!(
        recs.iter()
            .all(|r| !r["topic"].as_str().unwrap().contains("DEBEZIUM_SIGNAL")),
        "signal rows are never published"
    );
    // The file channel saw it too: the row was handed to the spool.
    let done = std::fs::read_dir(e.state.join("signals/processed"))
        .unwrap()
        .count();
    assert_eq!(done, 1);
    // Not enabled, or a read-only database: nothing is written.
    let o = e.signal(&[], &["pause", "--channel", "source"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("CDC-8105"));
    let ro = [source.as_slice(), &["cdc.database.read.only=true"]].concat();
    let o = e.signal(&ro, &["pause", "--channel", "source"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cdc.database.read.only=true"));
}

#[test]
fn signal_send_format_json_prints_the_signal_that_landed() {
    // The same signal table as the source channel test, with no capture running: what
    // --format json says was sent is compared with what the spool file and the table hold.
    let e = env_with_signal_table();
    std::fs::create_dir_all(&e.state).unwrap();
    let source = [
        "cdc.signal.enabled.channels=file,source",
        "cdc.signal.data.collection=PDB1.CDC.DEBEZIUM_SIGNAL",
    ];
    let parse = |text: String| -> Json {
        serde_json::from_str(&text).unwrap_or_else(|err| panic!("not JSON ({err}): {text}"))
    };

    // The file channel: the object equals the spooled signal, plus the channel.
    let sent = parse(e.signal_ok(
        &source,
        &[
            "execute-snapshot",
            "--tables",
            "PDB1.SHOP.ORDERS",
            "--filter",
            "PDB1.SHOP.ORDERS=REGION = 'EMEA'",
            "--format",
            "json",
        ],
    ));
    assert_eq!(sent["channel"], "file");
    assert!(sent["outcome"].is_null(), "no --wait, no outcome: {sent}");
    let spooled: Vec<Json> = std::fs::read_dir(e.state.join("signals"))
        .unwrap()
        .filter_map(|f| f.ok())
        .filter(|f| f.path().extension().is_some_and(|x| x == "json"))
        .map(|f| serde_json::from_str(&std::fs::read_to_string(f.path()).unwrap()).unwrap())
        .collect();
    assert_eq!(spooled.len(), 1);
    let mut without_channel = sent.as_object().unwrap().clone();
    without_channel.remove("channel");
    without_channel.remove("outcome");
    assert_eq!(Json::Object(without_channel), spooled[0]);

    // The source channel: the generated id, type and data are the row's.
    let sent = parse(e.signal_ok(
        &source,
        &[
            "set-throttle",
            "--rows-per-second",
            "250",
            "--channel",
            "source",
            "--format",
            "json",
        ],
    ));
    assert_eq!(sent["channel"], "source");
    let rows = dump(&e.db, "PDB1.CDC.DEBEZIUM_SIGNAL", current_scn(&e.db));
    assert_eq!(rows.len(), 1, "one row inserted: {rows:?}");
    assert_eq!(rows[0]["ID"], sent["id"]);
    assert_eq!(rows[0]["TYPE"], sent["type"]);
    let data: Json = serde_json::from_str(rows[0]["DATA"].as_str().unwrap()).unwrap();
    assert_eq!(data, sent["data"]);
}

/// A capture user whose profile leaves a signal snapshot room for one reader (3 sessions: the
/// mining session, the snapshot's coordinating one and a reader): the signal's catalog session
/// is not held through the reads, so the snapshot completes with the reader it gets and
/// converges. With room for no reader (2), or for the mining session alone (1: the signal's
/// catalog session is refused), the signal ends `signal-failed` with CDC-2011 and capture
/// streams on (it used to stop capture, and again at every start); a signal with filters,
/// which need a session to be checked, is rejected then.
#[test]
fn a_signal_snapshot_at_the_session_limit_reads_with_what_it_gets_or_fails_alone() {
    let table = "PDB1.SHOP.ACCOUNTS";
    for (limit, completes) in [(3, true), (2, false), (1, false)] {
        let limited = SCHEMA.replacen(
            "  multitenant: true\n",
            &format!(
                "  multitenant: true\n  users:\n    - {{ name: C##CDC, container_data: all, sessions_per_user: {limit} }}\n"
            ),
            1,
        );
        assert_ne!(limited, SCHEMA);
        let e = env_with(&limited);
        let user = ["cdc.database.user=C##CDC"];
        let mut c = e.capture(&user);
        e.started();
        let id = format!("limit-{limit}");
        e.signal_ok(&user, &["execute-snapshot", "--tables", table, "--id", &id]);
        let ended = wait_for_event(&e.state, 60, "the signal's end", |ev| {
            ev["signal"] == id.as_str()
                && (ev["event"] == "signal-done" || ev["event"] == "signal-failed")
        });
        if completes {
            assert_eq!(ended["event"], "signal-done", "{ended}");
        } else {
            assert_eq!(ended["event"], "signal-failed", "{ended}");
            assert_eq!(ended["code"], "CDC-2011", "{ended}");
        }
        if limit == 1 {
            let filtered = format!("{table}=ID > 10");
            e.signal_ok(
                &user,
                &[
                    "execute-snapshot",
                    "--tables",
                    table,
                    "--filter",
                    &filtered,
                    "--id",
                    "f1",
                ],
            );
            let rejected = wait_for_event(&e.state, 60, "the filtered signal's end", |ev| {
                ev["signal"] == "f1" && ev["event"] == "signal-rejected"
            });
            assert!(
                rejected["reason"].as_str().unwrap().contains("ORA-02391"),
                "{rejected}"
            );
        }
        // Capture streams on: changes made now are published.
        let before = records(&e.out).len();
        run(&[
            "emulator",
            "workload",
            e.db.to_str().unwrap(),
            "--transactions",
            "5",
            "--seed",
            "3",
        ]);
        wait_for("the workload streamed", 60, || {
            records(&e.out).len() > before
        });
        assert!(c.try_wait().unwrap().is_none(), "capture stopped");
        stop(c);
        if completes {
            let recs = records(&e.out);
            assert!(!snapshot_records(&recs, table).is_empty());
        }
    }
}
