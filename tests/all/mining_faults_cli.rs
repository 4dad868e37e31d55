//! Capture through the transient LogMiner errors (ORA-01284, ORA-00308 and ORA-01307 during
//! mining, ORA-00310, ORA-01368, ORA-01343 and ORA-04030 beside them, ORA-01291 for a log being archived), ORA-22924
//! on snapshot reads, and a database that restarts (ORA-01089, then ORA-01033 at login) or
//! ends idle sessions (ORA-02396), with the emulator's fault drills: every change is published
//! exactly once, the tables converge, and each retry is counted in the ops log.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use std::process::Command;

const SCHEMA: &str = r#"
seed: 8
tables:
  - name: SHOP.ACCOUNTS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
      - { name: NOTE, type: CLOB }
    primary_key: [ID]
    supplemental_logging: all
    rows: 200
  - name: SHOP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20) }
      - { name: QTY, type: NUMBER(5) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 150
"#;

const TABLES: [&str; 2] = ["SHOP.ACCOUNTS", "SHOP.ORDERS"];

fn settings(e: &Emulated, extra: &[&str]) -> Vec<String> {
    [
        format!("cdc.database.url=emulator:{}", e.db.display()),
        format!("cdc.state.dir={}", e.state.display()),
        format!("cdc.sink.dir={}", e.out.display()),
        "cdc.stream.poll.ms=20".into(),
    ]
    .into_iter()
    .chain(extra.iter().map(|s| s.to_string()))
    .flat_map(|s| ["--set".to_string(), s])
    .chain(["-q".to_string()])
    .collect()
}

fn capture(e: &Emulated, extra: &[&str], stop_at: u64) -> String {
    let mut args = settings(e, extra);
    args.extend([
        "capture".into(),
        "--stop-at-scn".into(),
        stop_at.to_string(),
    ]);
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(o.status.success(), "{err}");
    err
}

#[test]
fn windows_failing_with_ora_01284_00308_01307_are_mined_again_whole() {
    let e = emulated(SCHEMA);
    let (start, end) = streaming_through_workload(&e, &["cdc.snapshot.mode=none"], 150, 3);
    // Windows of 100 SCNs; the 2nd fails at ADD_LOGFILE (ORA-01284), the 3rd half-way
    // (ORA-00308), the 4th and 5th at the query (ORA-01307: twice in a row), the 7th with ORA-00310.
    capture(
        &e,
        &[
            "cdc.snapshot.mode=none",
            "cdc.stream.window.scn=100",
            "cdc.emulator.fault.ora01284.mines=2",
            "cdc.emulator.fault.ora00308.mines=3",
            "cdc.emulator.fault.ora01307.mines=4,5",
            "cdc.emulator.fault.ora00310.mines=7",
        ],
        end,
    );
    let recs = records(&e.out);
    assert!(recs.len() > 150);
    assert_exactly_once(&recs);
    assert_scn_order(&recs);
    assert_changes_converge(&e, &recs, start, end);
}

#[test]
fn a_snapshot_read_failing_with_ora_22924_is_read_again_halved() {
    let retries = snapshot_through_read_drills(&[
        "cdc.snapshot.chunk.rows=2000",
        "cdc.snapshot.threads=1",
        "cdc.emulator.fault.ora22924.reads=1,3",
    ]);
    assert_eq!(retries.len(), 2, "{retries:?}");
    assert!(retries
        .iter()
        .all(|r| r["code"] == "CDC-5012" && r["action"] == "halve"));
}

/// A chunk read whose session runs out of process memory (ORA-04030) is read again, not
/// halved (its size is not the cause), on a new session: the snapshot goes on and converges.
#[test]
fn a_snapshot_read_out_of_process_memory_is_read_again() {
    let retries = snapshot_through_read_drills(&[
        "cdc.snapshot.chunk.rows=100",
        "cdc.snapshot.threads=2",
        "cdc.emulator.fault.ora04030.reads=2",
    ]);
    assert_eq!(retries.len(), 1, "{retries:?}");
    assert!(
        retries[0]["code"] == "CDC-5014"
            && retries[0]["cause"] == "ORA-04030"
            && retries[0]["action"] == "retry",
        "{retries:?}"
    );
}

/// Capture's snapshot with the settings `extra` (read drills among them): every row once,
/// converging; the `snapshot-chunk-retry` events it made.
fn snapshot_through_read_drills(extra: &[&str]) -> Vec<serde_json::Value> {
    let e = emulated(SCHEMA);
    let end = current_scn(&e.db);
    capture(&e, extra, end);
    let recs = records(&e.out);
    assert_exactly_once(&recs);
    for table in TABLES {
        assert_converges(&e.db, &recs, table, end);
    }
    events(&e.state)
        .into_iter()
        .filter(|v| v["event"] == "snapshot-chunk-retry")
        .collect()
}

/// Capture a workload's 20 transactions with the mining drill `drill` (`ora01291`,
/// `ora01343`, …) failing its first 12 windows, more than the retries in a row: the exit
/// code and stderr of the run that stops.
fn capture_with_every_window_failing(drill: &str) -> (Emulated, Option<i32>, String) {
    let e = emulated(SCHEMA);
    let (_, end) = streaming_through_workload(&e, &["cdc.snapshot.mode=none"], 20, 6);
    let failing = format!("cdc.emulator.fault.{drill}.mines=1,2,3,4,5,6,7,8,9,10,11,12");
    let mut args = settings(
        &e,
        &[
            "cdc.snapshot.mode=none",
            "cdc.database.connect.backoff.ms=1",
            "cdc.database.connect.backoff.max.ms=4",
            &failing,
        ],
    );
    args.extend(["capture".into(), "--stop-at-scn".into(), end.to_string()]);
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    (e, o.status.code(), err)
}

/// Capture started with `extra` (its stream position saved at the current SCN), then a
/// workload of `transactions` with `seed`: the SCNs before and after it.
fn streaming_through_workload(
    e: &Emulated,
    extra: &[&str],
    transactions: u32,
    seed: u32,
) -> (u64, u64) {
    let start = current_scn(&e.db);
    capture(e, extra, start);
    run(&[
        "emulator",
        "workload",
        e.db.to_str().unwrap(),
        "--transactions",
        &transactions.to_string(),
        "--seed",
        &seed.to_string(),
    ]);
    (start, current_scn(&e.db))
}

/// The changes captured since `start` replayed on the rows at `start` give the tables at
/// `end`: nothing lost, nothing twice.
fn assert_changes_converge(e: &Emulated, recs: &[serde_json::Value], start: u64, end: u64) {
    let mut base = recs.to_vec();
    for table in TABLES {
        for row in dump(&e.db, table, start) {
            base.insert(
                0,
                serde_json::json!({"topic": format!("oracle-cdc.{table}"), "key": {"ID": row["ID"]}, "value": {"op": "r", "after": row}}),
            );
        }
    }
    for table in TABLES {
        assert_converges(&e.db, &base, table, end);
    }
}

/// The `source-retry` events of a run: (cause, attempt, wait_ms).
fn source_retries(e: &Emulated) -> Vec<(String, u64, u64)> {
    events(&e.state)
        .into_iter()
        .filter(|v| v["event"] == "source-retry")
        .map(|v| {
            (
                v["cause"].as_str().unwrap_or_default().to_string(),
                v["attempt"].as_u64().unwrap_or(0),
                v["wait_ms"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn windows_failing_with_ora_01368_and_01291_are_retried_after_a_backoff() {
    // The 2nd window meets a recycled online log half-way (ORA-01368); mined again, twice its
    // START_LOGMNR gets a log list without a log still being archived (ORA-01291): three
    // failures of one window in a row, each retry waiting twice as long as the one before.
    stream_through_window_drills(
        &[
            "cdc.emulator.fault.ora01368.mines=2",
            "cdc.emulator.fault.ora01291.mines=3,4",
        ],
        &[
            ("ORA-01368", 1, 10),
            ("ORA-01291", 2, 20),
            ("ORA-01291", 3, 40),
        ],
    );
}

/// ORA-01343 (LogMiner meets redo it cannot read: a damaged log, or a log list lacking one it
/// needs), ORA-04030 (the mining session's process out of memory, here under ORA-00604 as
/// LogMiner's recursive SQL meets it) and ORA-00600 [krvrdGetUID] (LogMiner's internal error
/// when an object's identifier changed under it) part-way through one window, one after the
/// other: each is retried on a new session that mines the window again from its start
/// (CDC-5013, CDC-5014, CDC-5016), as Debezium's error handler retries them, instead of
/// stopping capture; the retry's cause is the error under the wrapper.
#[test]
fn windows_failing_with_ora_01343_04030_and_00600_are_mined_again_on_a_new_session() {
    stream_through_window_drills(
        &[
            "cdc.emulator.fault.ora01343.mines=2",
            "cdc.emulator.fault.ora04030.mines=3",
            "cdc.emulator.fault.ora00604.mines=3",
            "cdc.emulator.fault.ora00600.mines=4",
        ],
        &[
            ("ORA-01343", 1, 10),
            ("ORA-04030", 2, 20),
            ("ORA-00600", 3, 40),
        ],
    );
}

/// Stream a workload's 120 transactions in windows of 100 SCNs with the window drills
/// `drills`: the retries are `expected` (cause, attempt, wait in ms), and every change is
/// published exactly once, in SCN order, converging to the tables.
fn stream_through_window_drills(drills: &[&str], expected: &[(&str, u64, u64)]) {
    let e = emulated(SCHEMA);
    let (start, end) = streaming_through_workload(&e, &["cdc.snapshot.mode=none"], 120, 5);
    let mut settings = vec![
        "cdc.snapshot.mode=none",
        "cdc.stream.window.scn=100",
        "cdc.database.connect.backoff.ms=10",
    ];
    settings.extend_from_slice(drills);
    capture(&e, &settings, end);
    let expected: Vec<(String, u64, u64)> = expected
        .iter()
        .map(|(cause, attempt, wait)| (cause.to_string(), *attempt, *wait))
        .collect();
    assert_eq!(source_retries(&e), expected);
    let recs = records(&e.out);
    assert!(recs.len() > 120);
    assert_exactly_once(&recs);
    assert_scn_order(&recs);
    assert_changes_converge(&e, &recs, start, end);
}

/// A window whose redo stays unreadable (ORA-01343 at every try) stops capture after the ten
/// retries with CDC-5013 and the remedy, publishing nothing of it.
#[test]
fn redo_that_stays_unreadable_stops_capture_with_cdc_5013() {
    let (e, code, err) = capture_with_every_window_failing("ora01343");
    assert_eq!(code, Some(1), "{err}");
    // Oracle's message names no log: the window's SCNs say where to look.
    assert!(
        err.contains("CDC-5013") && err.contains("ORA-01343") && err.contains("mining SCN"),
        "{err}"
    );
    let explain = Command::new(cargo_bin("oracle-cdc"))
        .args(["explain", "CDC-5013"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&explain.stdout);
    assert!(
        explain.status.success() && text.contains("RESTORE ARCHIVELOG"),
        "{text}"
    );
    // Ten retries in a row, then the error: nothing published from the failed windows.
    assert_eq!(source_retries(&e).len(), 10);
    assert!(records(&e.out).iter().all(|r| !is_change(r)));
}

#[test]
fn a_log_that_stays_missing_stops_capture_after_the_retries() {
    let (e, code, err) = capture_with_every_window_failing("ora01291");
    assert!(code != Some(0), "{err}");
    assert!(
        err.contains("CDC-5004") && err.contains("not in the log list"),
        "{err}"
    );
    // Ten retries in a row, then the error: nothing published from the failed windows.
    assert_eq!(source_retries(&e).len(), 10);
    assert!(records(&e.out).iter().all(|r| !is_change(r)));
}

/// Capture to the end with the drills `extra`, over a workload's changes after a snapshot of
/// slow reads (the streaming session idles meanwhile): exactly once, converging.
fn capture_through(extra: &[&str]) -> Emulated {
    capture_through_to(0, extra)
}

/// [`capture_through`] to `past` SCNs after the newest change.
fn capture_through_to(past: u64, extra: &[&str]) -> Emulated {
    let e = emulated(SCHEMA);
    finish(workload(
        &e.db,
        &["--transactions", "150", "--rate", "100", "--seed", "4"],
    ));
    let end = current_scn(&e.db) + past;
    let mut all = vec![
        "cdc.snapshot.chunk.rows=40",
        "cdc.snapshot.threads=2",
        "cdc.stream.window.scn=200",
        "cdc.database.connect.backoff.ms=50",
        "cdc.database.connect.backoff.max.ms=200",
        "cdc.emulator.fault.read.delay.ms=120",
    ];
    all.extend(extra);
    capture(&e, &all, end);
    let recs = records(&e.out);
    assert_exactly_once(&recs);
    for table in TABLES {
        assert_converges(&e.db, &recs, table, end);
    }
    e
}

#[test]
fn capture_reconnects_sessions_ended_for_idle_time() {
    // The streaming session waits through the snapshot, longer than the idle time.
    let e = capture_through(&["cdc.emulator.fault.idle.timeout.ms=400"]);
    let retries = source_retries(&e);
    assert!(
        retries.iter().any(|(c, _, _)| c == "ORA-02396"),
        "{retries:?}"
    );
}

#[test]
fn capture_rides_out_database_restarts() {
    // Every 25th call the database restarts and is down for 600 ms: the call fails with
    // ORA-01089, the other sessions with ORA-03113, logins with ORA-01033 meanwhile. Capture
    // runs to V$DATABASE.CURRENT_SCN, one past the newest change: it ends once the database is
    // known quiet through it, the looks at V$THREAD kept across its reconnects (before, each
    // new session started them over and, reconnecting more often than the LGWR period, it
    // never ended).
    let e = capture_through_to(
        1,
        &[
            "cdc.emulator.fault.restart.every=25",
            "cdc.emulator.fault.restart.ms=600",
        ],
    );
    let seen: Vec<String> = events(&e.state)
        .into_iter()
        .filter(|v| v["event"] == "source-retry" || v["event"] == "snapshot-chunk-retry")
        .map(|v| v.to_string())
        .collect();
    for needle in ["ORA-01089", "the database restarted"] {
        assert!(
            seen.iter().any(|v| v.contains(needle)),
            "no retry after {needle}: {seen:#?}"
        );
    }
}

#[test]
fn capture_reconnects_sessions_ended_for_connect_time() {
    // Every session is ended 700 ms after its login, busy or not, as by a profile's
    // CONNECT_TIME: capture reconnects (a source retry for ORA-02399), and its records are
    // still exactly once and converge (capture_through checks).
    let e = capture_through(&["cdc.emulator.fault.connect.time.ms=700"]);
    let retries = source_retries(&e);
    assert!(
        retries.iter().any(|(c, _, _)| c == "ORA-02399"),
        "{retries:?}"
    );
}

/// SCHEMA with the capture user CDC, whose profile allows `sessions` at once (SESSIONS_PER_USER).
fn limited_to(sessions: u32) -> String {
    SCHEMA.replacen(
        "seed: 8\n",
        &format!(
            "seed: 8\ndatabase:\n  users:\n    - {{ name: CDC, sessions_per_user: {sessions} }}\n"
        ),
        1,
    )
}

/// A capture user whose profile allows only the sessions streaming holds (SESSIONS_PER_USER
/// 1, as hardened databases set it low): a window mined again after ORA-01343 gives up its
/// failed session before the new one logs in, so the login is not refused with ORA-02391
/// (CDC-2011, which is not retried) and capture converges.
#[test]
fn a_window_mined_again_at_the_users_session_limit_gives_up_its_session_first() {
    let e = emulated(&limited_to(1));
    let user = ["cdc.database.user=CDC", "cdc.snapshot.mode=none"];
    let (start, end) = streaming_through_workload(&e, &user, 60, 6);
    let mut drilled = user.to_vec();
    drilled.extend([
        "cdc.stream.window.scn=100",
        "cdc.database.connect.backoff.ms=10",
        "cdc.emulator.fault.ora01343.mines=2,3",
    ]);
    capture(&e, &drilled, end);
    let retries = source_retries(&e);
    assert_eq!(retries.len(), 2, "{retries:?}");
    assert!(
        retries
            .iter()
            .all(|(cause, _, _)| cause.contains("ORA-01343")),
        "{retries:?}"
    );
    let recs = records(&e.out);
    assert_exactly_once(&recs);
    assert_changes_converge(&e, &recs, start, end);
}

/// A capture user at its SESSIONS_PER_USER limit (1: the mining session) whose connection is
/// cut (ORA-03113, as by a network partition): the database counts the lost session until it
/// notices its client gone (`cdc.emulator.fault.dead.connection.ms`, as dead connection
/// detection), so the new session's login is refused with ORA-02391 meanwhile. Capture retries
/// that login, as it replaces a lost session, and converges (before, CDC-2011 stopped it); a
/// first connect whose session is cut in its setup and still counted is refused at once with
/// CDC-2011 (it replaces no session capture had).
#[test]
fn a_lost_session_the_database_still_counts_is_waited_out_at_the_session_limit() {
    let e = emulated(&limited_to(1));
    let user = ["cdc.database.user=CDC", "cdc.snapshot.mode=none"];
    let (start, end) = streaming_through_workload(&e, &user, 60, 7);
    let mut drilled = user.to_vec();
    drilled.extend([
        "cdc.stream.window.scn=100",
        "cdc.database.connect.backoff.ms=20",
        "cdc.database.connect.backoff.max.ms=100",
        "cdc.emulator.fault.seed=3",
        "cdc.emulator.fault.drop.per.mille=40",
        "cdc.emulator.fault.dead.connection.ms=300",
    ]);
    let err = capture(&e, &drilled, end);
    let retries = source_retries(&e);
    assert!(
        retries.iter().any(|(cause, _, _)| cause == "ORA-03113"),
        "{retries:?}"
    );
    // The logins refused while the lost session counted were tried again (logged as stalls).
    assert!(err.contains("ORA-02391"), "{err}");
    let recs = records(&e.out);
    assert_exactly_once(&recs);
    assert_changes_converge(&e, &recs, start, end);

    // Counted for longer than capture waits for a lost session: CDC-2011, naming the limit.
    let mut patient = user.to_vec();
    patient.extend([
        "cdc.database.connect.backoff.ms=20",
        "cdc.database.reconnect.max.ms=300",
        "cdc.emulator.fault.drop.per.mille=1000",
        "cdc.emulator.fault.dead.connection.ms=60000",
    ]);
    let mut args = settings(&e, &patient);
    args.extend([
        "capture".into(),
        "--stop-at-scn".into(),
        (end + 1000).to_string(),
    ]);
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("CDC-2011") && err.contains("ORA-02391"),
        "{err}"
    );
    // Cut in its setup, the first session still counts: the start is refused, not waited for
    // (a first connect replaces no session capture had).
    assert!(!err.contains("; retry 2 "), "{err}");
}

/// The session limit counts the sessions of every process on the database, as Oracle's does:
/// while a capture holds one of the user's two sessions (SESSIONS_PER_USER 2; capture's mining
/// session), an export as the same user from another process, which needs two (its
/// coordinating session and a reader), is refused with CDC-2011; once the capture is killed
/// (its session ends with its process), the export runs.
#[test]
fn the_session_limit_counts_the_sessions_of_other_processes() {
    let e = emulated(&limited_to(2));
    let mut args = settings(&e, &["cdc.database.user=CDC", "cdc.snapshot.mode=none"]);
    args.push("capture".into());
    let mut capture = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for_event(&e.state, 60, "capture-started", |ev| {
        ev["event"] == "capture-started"
    });
    let export = |name: &str| {
        Command::new(cargo_bin("oracle-cdc"))
            .args([
                "--set",
                &format!("cdc.database.url=emulator:{}", e.db.display()),
                "--set",
                "cdc.database.user=CDC",
                "-q",
                "snapshot",
                "--out",
                e.dir.path().join(name).to_str().unwrap(),
            ])
            .output()
            .unwrap()
    };
    let refused = export("export1");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("CDC-2011: ") && err.contains("ORA-02391"),
        "{err}"
    );
    capture.kill().unwrap();
    capture.wait().unwrap();
    let done = export("export2");
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
}

/// A capture user whose profile's LOGICAL_READS_PER_CALL a mining window passes (LogMiner
/// reads every record of the window, the other schemas' too: ORA-02395, CDC-5017): the same
/// SCNs are mined again in halves, and the windows after stay that size; each halving is a
/// `mining-window-reduced` event. Every change is published once and the tables converge.
#[test]
fn windows_past_a_per_call_limit_are_mined_in_halves() {
    let schema = SCHEMA.replacen(
        "seed: 8\n",
        "seed: 8\ndatabase:\n  users:\n    - { name: CDC, logical_reads_per_call: 40 }\n",
        1,
    );
    let e = emulated(&schema);
    let user = ["cdc.database.user=CDC", "cdc.snapshot.mode=none"];
    let (start, end) = streaming_through_workload(&e, &user, 60, 6);
    capture(&e, &user, end);
    let reduced: Vec<serde_json::Value> = events(&e.state)
        .into_iter()
        .filter(|v| v["event"] == "mining-window-reduced")
        .collect();
    assert!(!reduced.is_empty(), "no window was reduced");
    for r in &reduced {
        assert_eq!(r["code"], "CDC-5017", "{r}");
        assert_eq!(r["cause"], "ORA-02395", "{r}");
        let (from, to, window) = (
            r["from"].as_u64().unwrap(),
            r["to"].as_u64().unwrap(),
            r["window"].as_u64().unwrap(),
        );
        assert!(window >= 1 && window < to - from + 1, "{r}");
    }
    let recs = records(&e.out);
    assert_exactly_once(&recs);
    assert_changes_converge(&e, &recs, start, end);
}
