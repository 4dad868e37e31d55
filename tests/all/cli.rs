//! The binary's edge: exit codes, error codes on every error, explain for every code,
//! broken pipes, secrets.

use assert_cmd::Command;
use oracle_cdc::errors::Code;
use predicates::prelude::*;

fn bin() -> Command {
    let mut c = Command::cargo_bin("oracle-cdc").unwrap();
    c.env("NO_COLOR", "1");
    c
}

#[test]
fn explain_covers_every_code_in_the_catalog() {
    for code in Code::ALL {
        let info = code.info();
        bin()
            .args(["explain", info.code])
            .assert()
            .success()
            .stdout(predicate::str::starts_with(format!(
                "{}: {}",
                info.code, info.title
            )))
            .stdout(predicate::str::contains(info.remedy));
    }
    let out = bin()
        .args(["explain", "--list", "--format", "json"])
        .output()
        .unwrap();
    let list: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list.len(), Code::ALL.len());
}

#[test]
fn unknown_code_exits_2_with_the_list() {
    bin()
        .args(["explain", "CDC-0000"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("CDC-1007"))
        .stderr(predicate::str::contains("CDC-8001"));
}

#[test]
fn usage_errors_start_with_a_code_and_exit_2() {
    bin()
        .arg("frobnicate")
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("CDC-1006"));
    bin()
        .assert()
        .code(2)
        .stderr(predicate::str::contains("Usage: oracle-cdc"));
    bin()
        .args(["--set", "cdc.snapshot.thread=2", "--print-settings"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("CDC-1001"))
        .stderr(predicate::str::contains("cdc.snapshot.threads"));
}

#[test]
fn settings_file_errors_name_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("s.yaml");
    std::fs::write(&f, "cdc.snapshot.mode: initial\ncdc.snapshot.threads: [\n").unwrap();
    bin()
        .args(["-c", f.to_str().unwrap(), "--print-settings"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("CDC-1003"))
        .stderr(predicate::str::contains(format!("{}:", f.display())));
    std::fs::write(&f, "cdc:\n  snapshot:\n    max.pending.chunk: 3\n").unwrap();
    bin()
        .args(["-c", f.to_str().unwrap(), "--print-settings"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`cdc.snapshot.max.pending.chunk`"))
        .stderr(predicate::str::contains(
            "did you mean `cdc.snapshot.max.pending.chunks`",
        ));
}

#[test]
fn environment_overrides_the_file_and_set_overrides_both() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("s.yaml");
    std::fs::write(&f, "cdc.snapshot.threads: 2\ncdc.snapshot.chunk.rows: 10\n").unwrap();
    let out = bin()
        .env("ORACLE_CDC_SNAPSHOT_THREADS", "3")
        .env("ORACLE_CDC_SNAPSHOT_CHUNK_ROWS", "20")
        .args([
            "-c",
            f.to_str().unwrap(),
            "--set",
            "cdc.snapshot.threads=4",
            "--print-settings",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = |key: &str| {
        text.lines()
            .find(|l| l.contains(&format!(" {key} ")))
            .unwrap()
            .to_string()
    };
    assert!(
        line("cdc.snapshot.threads").contains(" 4 ")
            && line("cdc.snapshot.threads").contains("--set")
    );
    assert!(line("cdc.snapshot.chunk.rows").contains(" 20 "));
    assert!(line("cdc.snapshot.chunk.rows").contains("ORACLE_CDC_SNAPSHOT_CHUNK_ROWS"));
}

#[test]
fn passwords_are_never_printed() {
    let out = bin()
        .env("MY_SECRET_FOR_TEST", "s3cr3t-Value")
        .args([
            "--set",
            "cdc.database.password=${env:MY_SECRET_FOR_TEST}",
            "-vvv",
            "--print-settings",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!all.contains("s3cr3t-Value"));
    assert!(all.contains("<redacted>"));
}

#[test]
fn a_closed_stdout_pipe_exits_0_quietly() {
    use std::io::Read;
    use std::process::{Command as Std, Stdio};
    let mut child = Std::new(assert_cmd::cargo::cargo_bin("oracle-cdc"))
        .args(["completions", "bash"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before the script is written
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "exit {status:?}, stderr {err}");
    assert!(err.is_empty(), "{err}");
}
