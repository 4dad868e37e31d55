//! Faults on the wire: `emulator serve` drops connections mid-call, kills sessions
//! (ORA-00028), stalls calls past the client's call timeout, and goes down and comes back with
//! its services not yet registered (ORA-12514). Capture over Oracle Net rides through every one
//! on its reconnect path — the session set up again, the LogMiner session started again — and
//! what it publishes is every change exactly once, converging to the tables.

use super::capture_support::*;
use super::cli::{example, example_with_cdc, init_in, Serve};
use assert_cmd::cargo::cargo_bin;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// The wire's fault drills, as `emulator serve` settings (also over TCPS, `cli.rs`).
pub(super) const DRILLS: &[&str] = &[
    "--set",
    "cdc.emulator.fault.seed=7",
    "--set",
    "cdc.emulator.fault.drop.per.mille=8",
    "--set",
    "cdc.emulator.fault.kill.session.every=60",
    "--set",
    "cdc.emulator.fault.slow.call.every=45",
    "--set",
    "cdc.emulator.fault.slow.call.ms=2500",
];

fn capture(url: &str, dir: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new(cargo_bin("oracle-cdc"));
    c.env("ORACLE_CDC_DATABASE_PASSWORD", "emulator");
    for s in [
        format!("cdc.database.url={url}"),
        "cdc.database.user=C##CDC".to_string(),
        format!("cdc.sink.dir={}", dir.join("out").display()),
        format!("cdc.state.dir={}", dir.join("state").display()),
        "cdc.database.call.timeout.ms=1000".to_string(),
        "cdc.database.connect.retries=40".to_string(),
        "cdc.database.connect.backoff.ms=50".to_string(),
        "cdc.database.connect.backoff.max.ms=500".to_string(),
        "cdc.stream.poll.ms=50".to_string(),
        "cdc.tables.include=PDB1.HR.*,PDB1.BATCH.*".to_string(),
    ] {
        c.args(["--set", &s]);
    }
    c.args(extra);
    c
}

/// A fresh database of the README's example schema, in a directory of its own.
fn example_db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    run(&[
        "emulator",
        "init",
        db.to_str().unwrap(),
        "--schema",
        example().to_str().unwrap(),
    ]);
    (dir, db)
}

/// What capture published into `dir`/out: every change once, each captured table as the
/// database holds it at `end`.
fn assert_published_exactly_once(dir: &Path, db: &Path, end: u64) {
    let recs = records(&dir.join("out"));
    assert_exactly_once(&recs);
    for t in [
        "PDB1.HR.EMPLOYEES",
        "PDB1.HR.AUDIT_LOG",
        "PDB1.BATCH.JOB_RUNS",
    ] {
        assert_table_converges(db, &recs, t, end);
    }
}

#[test]
fn capture_survives_dropped_killed_stalled_sessions_and_a_listener_restart() {
    let (dir, db) = example_db();
    let serve = Serve::start(&db, DRILLS);
    let addr = serve.addr.clone();
    let url = format!("{addr}/DEMO");
    let log = std::fs::File::create(dir.path().join("capture.log")).unwrap();
    let mut cap = capture(&url, dir.path(), &["capture"])
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    let load = workload(
        &db,
        &["--transactions", "300", "--rate", "60", "--seed", "9"],
    );
    // Each step waits for the capture to have met the one before, not for a fixed time: on a
    // loaded machine a reconnect attempt can come a second late, after a short registration
    // delay is over (a CI run met no ORA-12514 so).
    let capture_log = dir.path().join("capture.log");
    for needle in ["ORA-03113", "ORA-00028", "DPI-1067"] {
        wait_for_logged(&capture_log, needle);
    }
    // The listener goes down; it comes back on the same address with its services
    // registering late.
    drop(serve);
    wait_for_logged(&capture_log, "ORA-12541");
    let register = Duration::from_secs(6);
    let mut again = DRILLS.to_vec();
    let delay = format!(
        "cdc.emulator.fault.register.delay.ms={}",
        register.as_millis()
    );
    again.extend(["--set", &delay]);
    let serve = Serve::start_at(&db, &again, &addr);
    // The delay counts from before the listener's start was announced.
    let registered = std::time::Instant::now() + register;
    wait_for_logged(&capture_log, "ORA-12514");
    let o = load.wait_with_output().unwrap();
    assert!(o.status.success(), "workload");
    // Streaming again for a while once the services are there; a first connect to a service
    // the listener does not know is a setting to fix (CDC-2004), not retried, so the run to
    // the end must start after it too.
    std::thread::sleep(
        (registered + Duration::from_secs(2)).saturating_duration_since(std::time::Instant::now()),
    );
    let _ = cap.kill();
    let _ = cap.wait();
    // To the end, through the same drills.
    let end = current_scn(&db);
    let o = capture(
        &url,
        dir.path(),
        &["-q", "capture", "--stop-at-scn", &end.to_string()],
    )
    .output()
    .unwrap();
    assert!(
        o.status.success(),
        "capture to {end}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    drop(serve);

    let logged = std::fs::read_to_string(&capture_log).unwrap();
    for (what, needle) in [
        ("a dropped connection", "ORA-03113"),
        ("a killed session", "ORA-00028"),
        ("a call past its timeout", "DPI-1067"),
        ("the listener down", "ORA-12541"),
        ("services not yet registered", "ORA-12514"),
    ] {
        assert!(
            logged.contains(needle),
            "the capture met no {what} ({needle}); its log:\n{logged}"
        );
    }
    assert_published_exactly_once(dir.path(), &db, end);
}

/// Waits until the capture's log holds `needle` (a minute at most; then fails with the log).
fn wait_for_logged(log: &Path, needle: &str) {
    let started = std::time::Instant::now();
    loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        if text.contains(needle) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the capture logged no {needle} in a minute; its log:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn capture_over_the_wire_rides_out_database_restarts() {
    // Every 60th call the database restarts: the call hears ORA-01089 and its connection
    // closes, the other sessions' connections drop (ORA-03113), and for 1.2 s plus the 400 ms
    // LREG takes the listener answers ORA-12514 (a login that slips in between hears
    // ORA-01033). Capture retries each, counting them, and converges.
    let (dir, db) = example_db();
    let serve = Serve::start(
        &db,
        &[
            "--set",
            "cdc.emulator.fault.restart.every=60",
            "--set",
            "cdc.emulator.fault.restart.ms=1200",
            "--set",
            "cdc.emulator.fault.register.delay.ms=400",
        ],
    );
    let url = serve.url("DEMO");
    finish(workload(
        &db,
        &["--transactions", "200", "--rate", "200", "--seed", "12"],
    ));
    let end = current_scn(&db);
    let o = capture(
        &url,
        dir.path(),
        &["capture", "--stop-at-scn", &end.to_string()],
    )
    .output()
    .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "capture to {end}: {err}");
    drop(serve);
    let seen: Vec<String> = events(&dir.path().join("state"))
        .into_iter()
        .filter(|v| v["event"] == "source-retry" || v["event"] == "snapshot-chunk-retry")
        .map(|v| v.to_string())
        .collect();
    assert!(!seen.is_empty(), "no retry counted:\n{err}");
    // A listener without the service after a connection worked: the restart was met.
    assert!(
        err.contains("ORA-12514"),
        "capture met no unregistered service (ORA-12514):\n{err}\n{seen:#?}"
    );
    assert_published_exactly_once(dir.path(), &db, end);
}

/// LogMiner errors Debezium retries, over Oracle Net: a window meets redo it cannot read
/// (ORA-01343), the next try runs out of process memory (ORA-04030, under ORA-00604 as
/// LogMiner's recursive SQL meets it) and the one after meets LogMiner's internal error
/// ORA-00600 [krvrdGetUID], all part-way. The adapter types them from the ORA code the server
/// sends (CDC-5013; under the wrapper, CDC-5014; by the internal error's argument, CDC-5016),
/// mines the window again on a new session each time, and what it publishes converges
/// exactly once.
#[test]
fn capture_over_the_wire_mines_again_after_ora_01343_04030_and_00600() {
    let (dir, db) = example_db();
    // The snapshot first, on a listener without drills; then the workload's changes are
    // streamed through one that has them (another port: the offsets hold the database, not
    // its address), so its windows are the drills' first ones.
    let plain = Serve::start(&db, &[]);
    let url = plain.url("DEMO");
    let start = current_scn(&db);
    let o = capture(
        &url,
        dir.path(),
        &["capture", "--stop-at-scn", &start.to_string()],
    )
    .output()
    .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    drop(plain);
    finish(workload(
        &db,
        &["--transactions", "150", "--rate", "200", "--seed", "14"],
    ));
    let end = current_scn(&db);
    let serve = Serve::start(
        &db,
        &[
            "--set",
            "cdc.emulator.fault.ora01343.mines=2",
            "--set",
            "cdc.emulator.fault.ora04030.mines=3",
            "--set",
            "cdc.emulator.fault.ora00604.mines=3",
            "--set",
            "cdc.emulator.fault.ora00600.mines=4",
        ],
    );
    let o = capture(
        &serve.url("DEMO"),
        dir.path(),
        &[
            "--set",
            "cdc.stream.window.scn=500",
            "capture",
            "--stop-at-scn",
            &end.to_string(),
        ],
    )
    .output()
    .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "capture to {end}: {err}");
    drop(serve);
    let drilled: Vec<serde_json::Value> = events(&dir.path().join("state"))
        .into_iter()
        .filter(|v| v["event"] == "source-retry")
        // A call past the helper's 1 s call timeout on a loaded machine is a retry too.
        .filter(|v| {
            ["CDC-5013", "CDC-5014", "CDC-5016"].contains(&v["code"].as_str().unwrap_or(""))
        })
        .collect();
    // The ORA-04030 came under ORA-00604, both in the message the adapter kept.
    let wrapped = drilled
        .iter()
        .find(|v| v["code"] == "CDC-5014")
        .and_then(|v| v["message"].as_str())
        .unwrap_or_default();
    assert!(
        wrapped.contains("ORA-00604: error occurred at recursive SQL level 1")
            && wrapped.contains("ORA-04030"),
        "{drilled:#?}"
    );
    let retries: Vec<(String, String)> = drilled
        .into_iter()
        .map(|v| {
            (
                v["cause"].as_str().unwrap_or_default().to_string(),
                v["code"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(
        retries,
        [
            ("ORA-01343".to_string(), "CDC-5013".to_string()),
            ("ORA-04030".to_string(), "CDC-5014".to_string()),
            ("ORA-00600".to_string(), "CDC-5016".to_string()),
        ],
        "{err}"
    );
    assert_published_exactly_once(dir.path(), &db, end);
}

/// Ctrl-C while the database is gone: capture stops at once with its offsets as they are, as
/// its message says, instead of reconnecting for cdc.database.reconnect.max.ms to read the SCN
/// of its last metrics (the README's served job: Ctrl-C stops `emulator serve` with capture).
#[test]
fn a_stop_while_the_database_is_gone_ends_at_once() {
    let (dir, db) = example_db();
    let serve = Serve::start(&db, &[]);
    let url = format!("{}/DEMO", serve.addr);
    let cap = capture(
        &url,
        dir.path(),
        &["--set", "cdc.database.reconnect.max.ms=300000", "capture"],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // Streaming: the snapshot is published and its offsets saved.
    let offsets = dir.path().join("state").join("offsets.json");
    let started = std::time::Instant::now();
    while !offsets.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no offsets saved"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_secs(2));
    drop(serve);
    std::thread::sleep(Duration::from_millis(300));
    let (status, stderr) = interrupted(
        cap,
        30,
        "capture still running 30 s after Ctrl-C with the database gone",
    );
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(stderr.contains("stopped"), "{stderr}");
}

/// Ctrl-C while an export's sessions log in again to a database that is gone (its readers'
/// connections lost mid-read): the export stops at once, exit 130 with its offsets as last
/// saved, instead of reconnecting for cdc.database.reconnect.max.ms first (before: five
/// minutes here, ten by default, unless Ctrl-C came twice). Run again once the database is
/// back, it resumes and writes every row once: the rows of an export in process.
#[test]
fn an_export_stopped_while_the_database_is_gone_ends_at_once_and_resumes() {
    let (dir, db) = example_db();
    // Calls slow enough that the export is still reading when the database goes.
    let serve = Serve::start(&db, &["--set", "cdc.emulator.fault.call.latency.ms=60"]);
    let addr = serve.addr.clone();
    let out = dir.path().join("export");
    let export = |url: &str, quiet: bool| {
        let mut c = capture(
            url,
            dir.path(),
            &[
                "--set",
                "cdc.database.reconnect.max.ms=300000",
                "--set",
                "cdc.snapshot.chunk.rows=20",
                "--set",
                "cdc.snapshot.threads=2",
            ],
        );
        if quiet {
            c.arg("-q");
        }
        c.args(["snapshot", "--out", out.to_str().unwrap()]);
        c
    };
    let run = export(&format!("{addr}/DEMO"), false)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Some chunks are written and their offsets saved.
    let ops = out.join("ops.jsonl");
    wait_for("a chunk exported", 60, || {
        std::fs::read_to_string(&ops).is_ok_and(|t| t.contains("snapshot-chunk-done"))
    });
    drop(serve);
    // The reads in flight fail and their sessions log in again, to no listener.
    std::thread::sleep(Duration::from_millis(800));
    let (status, stderr) = interrupted(
        run,
        30,
        "the export still ran 30 s after Ctrl-C with the database gone",
    );
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("stopped while reconnecting") && stderr.contains("run the same command"),
        "{stderr}"
    );

    // The database back on the same address: the same command resumes and completes.
    let serve = Serve::start_at(&db, &[], &addr);
    let again = export(&format!("{}/DEMO", serve.addr), true)
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let resumed = export_rows(&out);
    let local_out = dir.path().join("export-local");
    let local = capture(&format!("emulator:{}", db.display()), dir.path(), &[])
        .args(["-q", "snapshot", "--out", local_out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(local.status.success(), "{local:?}");
    let whole = export_rows(&local_out);
    assert!(whole.len() > 500, "{}", whole.len());
    assert_eq!(resumed, whole, "the resumed export's rows");
}

/// Ctrl-C to `child`, and its exit status and stderr once it ends; it must end within `secs`
/// (`what` says what was still running, with its stderr, when it does not).
fn interrupted(
    mut child: std::process::Child,
    secs: u64,
    what: &str,
) -> (std::process::ExitStatus, String) {
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let asked = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if asked.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!("{what}: {}", String::from_utf8_lossy(&o.stderr));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let o = child.wait_with_output().unwrap();
    (o.status, String::from_utf8_lossy(&o.stderr).to_string())
}

/// An export's rows, each line prefixed with its file's name, sorted (ops.jsonl aside).
pub(super) fn export_rows(dir: &Path) -> Vec<String> {
    let mut all: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl") && !p.ends_with("ops.jsonl"))
        .flat_map(|p| {
            let table = p.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&p).unwrap();
            text.lines()
                .map(|l| format!("{table} {l}"))
                .collect::<Vec<_>>()
        })
        .collect();
    all.sort();
    all
}

/// The same during capture's initial snapshot: Ctrl-C while its readers log in again to a
/// database that is gone stops capture at once, cleanly; started again once the database is
/// back, it reads the rest of the snapshot and what it publishes converges, every record once.
#[test]
fn capture_stopped_in_its_snapshot_while_the_database_is_gone_ends_at_once() {
    let (dir, db) = example_db();
    let serve = Serve::start(&db, &["--set", "cdc.emulator.fault.call.latency.ms=60"]);
    let addr = serve.addr.clone();
    let start = |url: &str| {
        capture(
            url,
            dir.path(),
            &[
                "--set",
                "cdc.database.reconnect.max.ms=300000",
                "--set",
                "cdc.snapshot.chunk.rows=20",
                "--set",
                "cdc.snapshot.threads=2",
                "capture",
            ],
        )
    };
    let cap = start(&format!("{addr}/DEMO"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let ops = dir.path().join("state").join("ops.jsonl");
    wait_for("a chunk published", 60, || {
        std::fs::read_to_string(&ops).is_ok_and(|t| t.contains("snapshot-chunk-done"))
    });
    drop(serve);
    std::thread::sleep(Duration::from_millis(800));
    let (status, stderr) = interrupted(
        cap,
        30,
        "capture still ran 30 s after Ctrl-C in its snapshot with the database gone",
    );
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(stderr.contains("stopped"), "{stderr}");
    let events = std::fs::read_to_string(&ops).unwrap();
    assert!(!events.contains("snapshot-complete"), "{events}");

    let serve = Serve::start_at(&db, &[], &addr);
    let end = current_scn(&db);
    let again = start(&format!("{}/DEMO", serve.addr))
        .args(["--stop-at-scn", &end.to_string()])
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_published_exactly_once(dir.path(), &db, end);
}

/// Ctrl-C while capture's first login waits to try again (no listener at the address yet, the
/// backoff at 30 s): capture stops at once, exit 0, nothing written but its state, instead of
/// trying its cdc.database.connect.retries first.
#[test]
fn a_stop_while_capture_first_connects_ends_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // An address with no listener: a port bound and let go.
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let cap = capture(
        &format!("{addr}/DEMO"),
        dir.path(),
        &[
            "--set",
            "cdc.database.connect.backoff.ms=30000",
            "--set",
            "cdc.database.connect.backoff.max.ms=30000",
            "capture",
        ],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // The first login is refused at once, and its retry waits 30 s.
    std::thread::sleep(Duration::from_millis(1500));
    let (status, stderr) = interrupted(
        cap,
        15,
        "capture still ran 15 s after Ctrl-C while it first connected",
    );
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(
        stderr.contains("stopped while reconnecting") && stderr.contains("ORA-12541"),
        "{stderr}"
    );
    assert!(!dir.path().join("out").exists() || records(&dir.path().join("out")).is_empty());
}

/// A listener that accepts every connection, holds it open and never writes a byte (a hung
/// listener or instance, logins stuck behind a full archiver, a firewall dropping all but the
/// TCP handshake): its address.
fn silent_listener() -> std::net::SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let held: Vec<_> = listener.incoming().flatten().collect();
        drop(held);
    });
    addr
}

/// Capture whose database accepts its connections and never answers gives up each login at
/// cdc.database.connect.timeout.ms as a connect timeout (ORA-12170, CDC-2010), tries again as
/// cdc.database.connect.retries says, and stops with that error: no silent hang (before: the
/// first login waited for ever).
#[test]
fn capture_gives_up_logins_to_a_silent_listener_at_the_connect_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let addr = silent_listener();
    let mut cap = capture(
        &format!("{addr}/DEMO"),
        dir.path(),
        &[
            "--set",
            "cdc.database.connect.timeout.ms=1000",
            "--set",
            "cdc.database.connect.retries=1",
            "capture",
        ],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let started = std::time::Instant::now();
    while cap.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            let _ = cap.kill();
            let o = cap.wait_with_output().unwrap();
            panic!(
                "capture still logging in 30 s later: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let o = cap.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{stderr}");
    assert!(
        stderr.contains("CDC-2010") && stderr.contains("ORA-12170"),
        "{stderr}"
    );
    // Two logins of a second each: given up at the bound, tried again once.
    assert!(stderr.contains("retry 1 of 1"), "{stderr}");
}

/// Ctrl-C while capture's first login hangs at a listener that never answers: capture stops
/// once that login's bound passes (cdc.database.connect.timeout.ms), exit 0, instead of never
/// (before: the login never returned, so the stop was never looked at).
#[test]
fn a_stop_while_capture_logs_in_to_a_silent_listener_ends_at_the_connect_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let addr = silent_listener();
    let cap = capture(
        &format!("{addr}/DEMO"),
        dir.path(),
        &[
            "--set",
            "cdc.database.connect.timeout.ms=3000",
            "--set",
            "cdc.database.connect.backoff.ms=30000",
            "--set",
            "cdc.database.connect.backoff.max.ms=30000",
            "capture",
        ],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    // Inside the first login, which waits for an answer that never comes.
    std::thread::sleep(Duration::from_millis(1000));
    let (status, stderr) = interrupted(
        cap,
        15,
        "capture still ran 15 s after Ctrl-C during a login to a silent listener",
    );
    assert!(status.success(), "{status:?}: {stderr}");
    assert!(
        stderr.contains("stopped while reconnecting") && stderr.contains("ORA-12170"),
        "{stderr}"
    );
}

/// A TCP proxy to `to` whose traffic goes dark both ways at the switch, its connections kept
/// open (a network gone dark, an instance that answers nothing more): its address and the
/// switch.
fn proxy_going_dark(to: &str) -> (String, std::sync::Arc<std::sync::atomic::AtomicBool>) {
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicBool, Ordering};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let dark = std::sync::Arc::new(AtomicBool::new(false));
    let switch = dark.clone();
    let to = to.to_string();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let server = std::net::TcpStream::connect(&to).unwrap();
            let ways = [
                (client.try_clone().unwrap(), server.try_clone().unwrap()),
                (server, client),
            ];
            for (mut from, mut into) in ways {
                let dark = dark.clone();
                std::thread::spawn(move || {
                    let mut buf = [0u8; 16 * 1024];
                    while let Ok(n @ 1..) = from.read(&mut buf) {
                        if !dark.load(Ordering::SeqCst) && into.write_all(&buf[..n]).is_err() {
                            break;
                        }
                    }
                    // Dark, an end is not passed on either.
                    if !dark.load(Ordering::SeqCst) {
                        let _ = into.shutdown(std::net::Shutdown::Write);
                    }
                });
            }
        }
    });
    (addr, switch)
}

/// A session given up after a call timeout (DPI-1067) whose database answered the break, then
/// went dark before the logoff (a hung instance, a network partition): dropping it, as capture
/// and the snapshot readers do with such a session, does not wait for the logoff's answer
/// (before: the drop waited for ever, so capture froze with no error and no event).
#[test]
fn giving_up_a_session_after_a_call_timeout_does_not_wait_for_its_logoff() {
    use oracle_cdc::source::oracle::connect::{OraCode, Password};
    use oracle_cdc::source::oracle::driver::{self, Driver};
    let (_dir, db) = example_db();
    // Every call stalls: the client's call timeout sends a break, which is answered.
    let serve = Serve::start(
        &db,
        &[
            "--set",
            "cdc.emulator.fault.slow.call.every=1",
            "--set",
            "cdc.emulator.fault.slow.call.ms=3000",
        ],
    );
    let (proxy, dark) = proxy_going_dark(&serve.addr);
    let session = driver::open(
        Driver::Thin,
        &format!("{proxy}/DEMO"),
        8192,
        None,
        "C##CDC",
        &Password::new("emulator"),
        None,
    )
    .unwrap();
    session
        .set_call_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let e = match session.query_row("SELECT CURRENT_SCN FROM V$DATABASE", &[]) {
        Ok(row) => panic!("answered in time: {row:?}"),
        Err(e) => e,
    };
    assert_eq!(e.code, Some(OraCode::Dpi(1067)), "{e:?}");
    dark.store(true, std::sync::atomic::Ordering::SeqCst);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        drop(session);
        let _ = tx.send(());
    });
    rx.recv_timeout(Duration::from_secs(5))
        .expect("the session's drop still waited for its logoff 5 s later");
}

/// A capture user whose profile's LOGICAL_READS_PER_CALL a mining window passes, over Oracle
/// Net: the server ends the V$LOGMNR_CONTENTS fetch with ORA-02395, the adapter types it
/// (CDC-5017), and capture mines the same SCNs again in smaller windows on the same session;
/// what it publishes converges exactly once. A client sees the limit in USER_RESOURCE_LIMITS.
#[test]
fn capture_over_the_wire_mines_in_smaller_windows_past_a_per_call_limit() {
    let dir = tempfile::tempdir().unwrap();
    let schema = example_with_cdc(dir.path(), "logical_reads_per_call: 1500");
    let db = init_in(&dir, &schema);
    let serve = Serve::start(&db, &[]);
    let url = serve.url("DEMO");
    // The snapshot first, then the changes, streamed.
    let start = current_scn(&db);
    let o = capture(
        &url,
        dir.path(),
        &["capture", "--stop-at-scn", &start.to_string()],
    )
    .output()
    .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    finish(workload(
        &db,
        &["--transactions", "600", "--rate", "600", "--seed", "14"],
    ));
    let end = current_scn(&db);
    let o = capture(
        &url,
        dir.path(),
        &["capture", "--stop-at-scn", &end.to_string()],
    )
    .output()
    .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "capture to {end}: {err}");
    let reduced: Vec<serde_json::Value> = events(&dir.path().join("state"))
        .into_iter()
        .filter(|v| v["event"] == "mining-window-reduced")
        .collect();
    assert!(!reduced.is_empty(), "no window reduced:\n{err}");
    assert!(
        reduced
            .iter()
            .all(|r| r["code"] == "CDC-5017" && r["cause"] == "ORA-02395"),
        "{reduced:?}"
    );
    assert_published_exactly_once(dir.path(), &db, end);
}
