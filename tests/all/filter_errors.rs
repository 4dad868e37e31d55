//! A snapshot filter the database cannot evaluate on a row (issue 35, item 16a): `CODE = 10`
//! on a VARCHAR2 column makes Oracle convert every CODE to a number, and a row holding 'ten'
//! fails the read with ORA-01722. That is the filter's fault, not the undo's: the read is not
//! retried (a fresh SCN reads the same row), and the error is CDC-8107, whose text and remedy
//! are about the filter — a signal ends `signal-failed` with it (capture goes on), a
//! `cdc.snapshot.select.override` stops capture and the export with it — not CDC-8001, whose
//! remedy is undo advice.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use serde_json::Value as Json;
use std::process::Command;

const SCHEMA: &str = r#"
seed: 16
tables:
  - name: APP.T
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: CODE, type: VARCHAR2(10), generate: { choice: ["10", "20", "ten"] } }
    primary_key: [ID]
    supplemental_logging: all
    rows: 40
"#;

fn settings(e: &Emulated, extra: &[&str]) -> Vec<String> {
    [
        format!("cdc.database.url=emulator:{}", e.db.display()),
        format!("cdc.state.dir={}", e.state.display()),
        format!("cdc.sink.dir={}", e.out.display()),
        "cdc.snapshot.chunk.rows=10".into(),
        "cdc.stream.poll.ms=20".into(),
        "cdc.signal.poll.ms=20".into(),
    ]
    .into_iter()
    .chain(extra.iter().map(|s| s.to_string()))
    .flat_map(|s| ["--set".to_string(), s])
    .collect()
}

fn oracle_cdc(args: &[String]) -> std::process::Output {
    Command::new(cargo_bin("oracle-cdc"))
        .args(args)
        .output()
        .unwrap()
}

/// The explain text of CDC-8107 speaks of the filter and of ORA-01722.
fn assert_explained() {
    let o = oracle_cdc(&["explain".into(), "CDC-8107".into()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("ORA-01722") && text.contains("'10'") && !text.contains("UNDO"),
        "{text}"
    );
}

#[test]
fn a_signal_filter_that_fails_on_a_row_is_cdc_8107_and_not_retried() {
    let e = emulated(SCHEMA);
    let base = settings(&e, &["cdc.snapshot.mode=none"]);
    let scn = current_scn(&e.db).to_string();
    let mut first = base.clone();
    first.extend(["-q", "capture", "--stop-at-scn", &scn].map(String::from));
    run(&first.iter().map(String::as_str).collect::<Vec<_>>());
    // The database parses and types the filter: `signal send` takes it.
    let mut send = base.clone();
    send.extend(
        [
            "signal",
            "send",
            "execute-snapshot",
            "--tables",
            "APP.T",
            "--filter",
            "APP.T=CODE = 10",
            "--id",
            "by-code",
        ]
        .map(String::from),
    );
    run(&send.iter().map(String::as_str).collect::<Vec<_>>());
    run(&first.iter().map(String::as_str).collect::<Vec<_>>());

    let ev = events(&e.state);
    let failed: Vec<&Json> = ev
        .iter()
        .filter(|v| v["event"] == "signal-failed" && v["signal"] == "by-code")
        .collect();
    assert_eq!(failed.len(), 1, "{ev:#?}");
    let f = failed[0];
    assert_eq!(f["code"], "CDC-8107", "{f}");
    let reason = f["reason"].as_str().unwrap();
    assert!(
        reason.contains("ORA-01722") && reason.contains("CODE = 10") && reason.contains("APP.T"),
        "{reason}"
    );
    assert!(
        !ev.iter().any(|v| v["event"] == "snapshot-chunk-retry"),
        "a fresh SCN reads the same row: no retry"
    );
    assert_explained();
}

#[test]
fn a_select_override_that_fails_on_a_row_stops_with_cdc_8107() {
    let e = emulated(SCHEMA);
    let base = settings(&e, &["cdc.snapshot.select.override.APP.T=CODE = 10"]);
    let scn = current_scn(&e.db).to_string();
    let mut capture = base.clone();
    capture.extend(["-q", "capture", "--stop-at-scn", &scn].map(String::from));
    let o = oracle_cdc(&capture);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("CDC-8107") && err.contains("ORA-01722") && err.contains("select.override"),
        "{err}"
    );
    assert_eq!(o.status.code(), Some(2), "a setting to fix");
    assert!(!events(&e.state)
        .iter()
        .any(|v| v["event"] == "snapshot-chunk-retry"));
    let mut export = base.clone();
    let out = e.dir.path().join("export");
    export.extend(["-q", "snapshot", "--out", out.to_str().unwrap()].map(String::from));
    let o = oracle_cdc(&export);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("CDC-8107"), "{err}");
}
