//! stderr a broken pipe (issue 36 item 8): a reader of the logs that went away. Every command
//! runs with stderr a pipe whose read end is closed before the command writes (so each write
//! fails with EPIPE: Rust ignores SIGPIPE). Nothing may panic (exit 101) or hang: an error
//! still ends in its exit code, and a capture still publishes and stores what it would have.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const SCHEMA: &str = "seed: 4
tables:
  - name: APP.T
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(30) }
    primary_key: [ID]
    rows: 50
";

/// Run the binary with stderr a closed pipe (stdout discarded); its exit status. A run still
/// going after a minute is a hang: killed, and the test fails.
fn with_closed_stderr(args: &[String]) -> ExitStatus {
    let mut child = Command::new(cargo_bin("oracle-cdc"))
        .args(args)
        .env_remove("ORACLE_CDC_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} hung with stderr a closed pipe");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn settings(db: &Path, state: &Path, out: &Path) -> Vec<String> {
    [
        format!("cdc.database.url=emulator:{}", db.display()),
        format!("cdc.state.dir={}", state.display()),
        format!("cdc.sink.dir={}", out.display()),
        "cdc.snapshot.chunk.rows=7".into(),
        "cdc.stream.poll.ms=20".into(),
    ]
    .into_iter()
    .flat_map(|s| ["--set".to_string(), s])
    .collect()
}

#[test]
fn usage_errors_exit_with_their_code_not_a_panic() {
    let status = with_closed_stderr(&["nosuchcommand".into()]);
    assert_eq!(status.code(), Some(2), "an unknown subcommand: {status}");
    let status = with_closed_stderr(&["--set".into(), "cdc.nope=1".into(), "capture".into()]);
    assert_eq!(status.code(), Some(2), "an unknown setting: {status}");
    let status = with_closed_stderr(&[]);
    assert_eq!(
        status.code(),
        Some(2),
        "no command (help to stderr): {status}"
    );
}

#[test]
fn capture_on_a_missing_database_fails_with_its_code_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mut args = settings(&root.join("no-db"), &root.join("state"), &root.join("out"));
    args.extend(["capture".into(), "--stop-at-scn".into(), "100".into()]);
    let status = with_closed_stderr(&args);
    // CDC-4001 (emulated database not found) exits 1.
    assert_eq!(status.code(), Some(1), "{status}");
}

/// The snapshot's progress lines (stderr is no terminal) and, with -vv, every log line fail
/// to write: capture finishes as it would have, every row published once, the offsets
/// stored.
#[test]
fn capture_with_progress_and_logs_finishes_and_publishes_everything() {
    let e = emulated(SCHEMA);
    let scn = current_scn(&e.db);
    let mut args = settings(&e.db, &e.state, &e.out);
    args.extend(
        ["-vv", "capture", "--stop-at-scn", &scn.to_string()]
            .iter()
            .map(|s| s.to_string()),
    );
    let status = with_closed_stderr(&args);
    assert!(status.success(), "{status}");
    let recs = records(&e.out);
    assert_exactly_once(&recs);
    assert_converges(&e.db, &recs, "APP.T", scn);
    let offsets: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(e.state.join("offsets.json")).unwrap())
            .unwrap();
    assert_eq!(offsets["snapshot"]["completed"], true, "{offsets}");
    assert_eq!(recs.len(), 50, "the snapshot's rows, each once");
}

/// stderr a terminal that went away (a pty whose other end is closed: each write fails with
/// EIO) while the progress bars are drawn on it: capture finishes and publishes everything.
#[test]
fn capture_with_bars_on_a_terminal_that_went_away_finishes() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let e = emulated(SCHEMA);
    let scn = current_scn(&e.db);
    let mut args = settings(&e.db, &e.state, &e.out);
    // Slow reads: the bars are drawn (and fail) many times over.
    args.extend(["--set".into(), "cdc.emulator.fault.read.delay.ms=20".into()]);
    args.extend(
        ["-v", "capture", "--stop-at-scn", &scn.to_string()]
            .iter()
            .map(|s| s.to_string()),
    );
    let (mut master, mut slave) = (0, 0);
    // SAFETY: two out-pointers to c_int; the name, termios and winsize are optional (null).
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty");
    // SAFETY: openpty returned two open descriptors that nothing else owns.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut child = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .env_remove("ORACLE_CDC_LOG")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    drop(master);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("capture hung with stderr a closed terminal");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
    let recs = records(&e.out);
    assert_exactly_once(&recs);
    assert_eq!(recs.len(), 50, "the snapshot's rows, each once");
}
