//! `oracle-cdc doctor` and `oracle-cdc-doctor` from the command line: exit codes 0/1/2,
//! --strict, --check/--skip, --format json, colour, the second binary's identical output, and
//! the DPI-1047 path on a machine without Instant Client (thick mode), the thin driver's.

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::Path;

const HEALTHY: &str = r#"
seed: 2
database:
  name: CLI
tables:
  - name: HR.EMP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 30
"#;

fn bin(name: &str) -> Command {
    let mut c = Command::cargo_bin(name).unwrap();
    c.env("NO_COLOR", "1").env_remove("ORACLE_CDC_TEST_URL");
    c
}

/// An emulated database made from `schema` in `dir/db`, with a settings file `dir/s.yaml`.
fn setup(dir: &Path, schema: &str) {
    std::fs::write(dir.join("schema.yaml"), schema).unwrap();
    bin("oracle-cdc")
        .current_dir(dir)
        .args(["emulator", "init", "db", "--schema", "schema.yaml"])
        .assert()
        .success();
    std::fs::write(
        dir.join("s.yaml"),
        "cdc.database.url: emulator:db\ncdc.state.dir: state\n",
    )
    .unwrap();
}

fn doctor(dir: &Path, name: &str, args: &[&str]) -> std::process::Output {
    let mut c = bin(name);
    c.current_dir(dir).args(["-c", "s.yaml"]);
    if name == "oracle-cdc" {
        c.arg("doctor");
    }
    c.args(args).output().unwrap()
}

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn healthy_exits_0_and_prints_areas_then_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), HEALTHY);
    let out = doctor(dir.path(), "oracle-cdc", &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let areas = [
        "connection",
        "redo",
        "supplemental",
        "privileges",
        "undo",
        "tables",
        "settings",
        "sink",
    ];
    let mut at = 0;
    for a in areas {
        let i = text[at..]
            .find(&format!("│ {a} "))
            .unwrap_or_else(|| panic!("no {a} table after byte {at}:\n{text}"));
        at += i;
    }
    assert!(
        text.trim_end()
            .ends_with("summary: 0 FAIL, 0 WARN, 39 PASS — ready"),
        "{text}"
    );
    assert!(!text.contains('\u{1b}'), "no colour with NO_COLOR");
    let out = doctor(dir.path(), "oracle-cdc", &["--strict"]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn fail_exits_1_warn_exits_0_unless_strict() {
    let dir = tempfile::tempdir().unwrap();
    setup(
        dir.path(),
        &HEALTHY.replace("  name: CLI\n", "  name: CLI\n  force_logging: false\n"),
    );
    let out = doctor(dir.path(), "oracle-cdc", &["--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["summary"]["warn"], 1);
    assert_eq!(v["exit_code"], 0);
    let out = doctor(dir.path(), "oracle-cdc", &["--strict", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["exit_code"], 1);
    // Skipping the warning makes --strict pass.
    let out = doctor(
        dir.path(),
        "oracle-cdc",
        &["--strict", "--skip", "redo.force-logging"],
    );
    assert_eq!(out.status.code(), Some(0));

    let dir = tempfile::tempdir().unwrap();
    setup(
        dir.path(),
        &HEALTHY.replace("  name: CLI\n", "  name: CLI\n  archivelog: false\n"),
    );
    let out = doctor(dir.path(), "oracle-cdc", &[]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("redo.archivelog") && text.contains("ALTER DATABASE ARCHIVELOG;"));
    assert!(
        text.contains("not ready: fix the FAIL rows first"),
        "{text}"
    );
}

#[test]
fn json_names_the_tool_time_and_database_and_splits_each_fix_by_kind() {
    let dir = tempfile::tempdir().unwrap();
    setup(
        dir.path(),
        &HEALTHY
            .replace(
                "  name: CLI\n",
                "  name: CLI\n  dbid: 4242\n  undo_retention: 10\n",
            )
            .replace("    supplemental_logging: all\n", ""),
    );
    let out = doctor(dir.path(), "oracle-cdc", &["--format", "json"]);
    let v = json(&out);
    assert_eq!(v["tool"]["name"], "oracle-cdc");
    assert_eq!(v["tool"]["version"], env!("CARGO_PKG_VERSION"));
    let at = v["checked_at"].as_str().unwrap();
    let parsed = chrono::DateTime::parse_from_rfc3339(at).unwrap();
    assert!(
        at.ends_with('Z') && parsed.offset().local_minus_utc() == 0,
        "{at}"
    );
    let age = chrono::Utc::now().signed_duration_since(parsed);
    assert!(age.num_seconds() >= 0 && age.num_seconds() < 600, "{at}");
    assert_eq!(v["database"]["name"], "CLI");
    assert_eq!(v["database"]["dbid"], 4242);
    let check = |id: &str| {
        v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("no {id}"))
            .clone()
    };
    let table = check("supplemental.table");
    assert_eq!(table["objects"], serde_json::json!(["HR.EMP"]));
    assert!(table["fix_sql"]
        .as_str()
        .unwrap()
        .starts_with("ALTER TABLE \"HR\".\"EMP\" ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;"));
    assert_eq!(table["fix_settings"], serde_json::Value::Null);
    // undo.retention: a settings line and SQL, each in its own field.
    let undo = check("undo.retention");
    assert_eq!(undo["severity"], "WARN", "{undo}");
    assert!(undo["fix_settings"]
        .as_str()
        .unwrap()
        .starts_with("cdc.snapshot.chunk.rows: "));
    let sql = undo["fix_sql"].as_str().unwrap();
    assert!(
        sql.contains("ALTER SYSTEM SET UNDO_RETENTION") && !sql.contains("cdc."),
        "{sql}"
    );
    assert_eq!(check("redo.archivelog")["objects"], serde_json::json!([]));
}

#[test]
fn the_table_prints_each_fix_below_it_as_a_block_to_copy() {
    let dir = tempfile::tempdir().unwrap();
    setup(
        dir.path(),
        &HEALTHY
            .replace("  name: CLI\n", "  name: CLI\n  undo_retention: 10\n")
            .replace("    supplemental_logging: all\n", ""),
    );
    let out = doctor(dir.path(), "oracle-cdc", &["--format", "json"]);
    let v = json(&out);
    let out = doctor(dir.path(), "oracle-cdc", &[]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for c in v["checks"].as_array().unwrap() {
        for (field, heading) in [("fix_sql", "-- fix"), ("fix_settings", "# fix")] {
            let Some(block) = c[field].as_str() else {
                continue;
            };
            let head = format!(
                "{heading} {} ({}): ",
                c["id"].as_str().unwrap(),
                c["severity"].as_str().unwrap()
            );
            let at = lines
                .iter()
                .position(|l| l.starts_with(&head))
                .unwrap_or_else(|| panic!("no {head:?} line:\n{text}"));
            // The block follows its heading line for line, outside any table cell.
            let want: Vec<&str> = block.lines().collect();
            assert_eq!(&lines[at + 1..at + 1 + want.len()], &want[..], "{text}");
        }
    }
    // The SQL is not in the table's cells: no cell border on a line holding it.
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("SUPPLEMENTAL LOG DATA (ALL)") && l.contains('│')),
        "{text}"
    );
    assert!(text.contains("SQL below"), "{text}");
    // undo.retention's settings line comes first in its fix, so its block does too.
    assert!(text.contains("settings, SQL below"), "{text}");
    let settings = text.find("# fix undo.retention (WARN)").unwrap();
    let sql = text.find("-- fix undo.retention (WARN)").unwrap();
    assert!(settings < sql, "{text}");
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), HEALTHY);
    for name in ["oracle-cdc", "oracle-cdc-doctor"] {
        let out = doctor(dir.path(), name, &["--check", "redo.nope"]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with("CDC-1006"), "{err}");
        assert!(
            err.contains("redo.archivelog"),
            "the message lists the ids: {err}"
        );
        let out = doctor(dir.path(), name, &["--format", "yaml"]);
        assert_eq!(out.status.code(), Some(2));
        let out = doctor(dir.path(), name, &["--set", "cdc.snapshot.threds=2"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("CDC-1001"));
    }
}

#[test]
fn check_and_skip_choose_ids_and_areas_in_json() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), HEALTHY);
    let out = doctor(
        dir.path(),
        "oracle-cdc",
        &[
            "--check",
            "redo,tables.lob",
            "--check",
            "undo",
            "--skip",
            "redo.switch-rate",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    let ids: Vec<&str> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        vec![
            "redo.archivelog",
            "redo.force-logging",
            "redo.archive-dest",
            "redo.log-size",
            "redo.retention",
            "undo.retention",
            "tables.lob"
        ]
    );
    let first = &v["checks"][0];
    for field in ["id", "area", "title", "severity", "found", "why", "fix"] {
        assert!(first.get(field).is_some(), "{field} missing: {first}");
    }
    assert_eq!(first["area"], "redo");
    assert_eq!(first["severity"], "PASS");
    assert_eq!(v["target"], "emulator:db");
    assert_eq!(v["summary"]["pass"], 7);
}

#[test]
fn the_doctor_binary_prints_exactly_what_the_subcommand_prints() {
    let dir = tempfile::tempdir().unwrap();
    setup(
        dir.path(),
        &HEALTHY.replace("    supplemental_logging: all\n", ""),
    );
    for args in [
        vec![],
        vec!["--format", "json"],
        vec!["--check", "supplemental", "--strict"],
        vec!["--skip", "tables,settings", "--format", "json"],
    ] {
        let a = doctor(dir.path(), "oracle-cdc", &args);
        let b = doctor(dir.path(), "oracle-cdc-doctor", &args);
        assert_eq!(a.status.code(), b.status.code(), "{args:?}");
        // The two runs may fall in different seconds: the time is the one field that differs.
        let untimed = |o: &std::process::Output| {
            let text = String::from_utf8_lossy(&o.stdout).to_string();
            match serde_json::from_str::<serde_json::Value>(&text) {
                Ok(mut v) => {
                    v["checked_at"] = serde_json::Value::Null;
                    v.to_string()
                }
                Err(_) => text,
            }
        };
        assert_eq!(untimed(&a), untimed(&b), "{args:?}");
        assert_eq!(a.status.code(), Some(1), "supplemental.table FAILs");
    }
    bin("oracle-cdc-doctor")
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Usage: oracle-cdc-doctor [OPTIONS]",
        ))
        .stdout(predicate::str::contains("Exit codes:"))
        .stdout(predicate::str::contains("--strict"));
    bin("oracle-cdc-doctor")
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("oracle-cdc-doctor "));
}

#[test]
fn colour_follows_the_color_option() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), HEALTHY);
    let out = doctor(
        dir.path(),
        "oracle-cdc",
        &["--color", "always", "--check", "connection"],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\u{1b}["), "--color always colours: {text}");
    let out = doctor(
        dir.path(),
        "oracle-cdc",
        &["--color", "never", "--check", "connection"],
    );
    assert!(!String::from_utf8(out.stdout).unwrap().contains('\u{1b}'));
}

#[test]
fn without_instant_client_the_client_check_fails_with_cdc_2001_and_no_password() {
    if std::env::var_os("ORACLE_CDC_TEST_URL").is_some() {
        return; // a machine with Instant Client, where this would reach the network
    }
    let dir = tempfile::tempdir().unwrap();
    let out = bin("oracle-cdc-doctor")
        .current_dir(dir.path())
        .env("CDC_DOCTOR_PW", "Very-Secret-Doctor-9")
        .args([
            "--set",
            "cdc.database.url=localhost:1521/FREEPDB1",
            "--set",
            "cdc.database.driver=thick",
            "--set",
            "cdc.database.user=c##cdc",
            "--set",
            "cdc.database.password=${env:CDC_DOCTOR_PW}",
            "--set",
            "cdc.state.dir=state",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stdout.contains("Very-Secret-Doctor-9") && !stderr.contains("Very-Secret-Doctor-9"));
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    let v = json(&out);
    assert_eq!(v["checks"][0]["id"], "connection.driver");
    assert_eq!(v["checks"][0]["severity"], "PASS");
    assert!(v["checks"][0]["found"]
        .as_str()
        .unwrap()
        .starts_with("thick"));
    let client = &v["checks"][1];
    assert_eq!(client["id"], "connection.client");
    assert_eq!(client["severity"], "FAIL");
    assert!(
        client["found"].as_str().unwrap().contains("DPI-1047"),
        "{client}"
    );
    assert!(client["found"].as_str().unwrap().starts_with("CDC-2001"));
    assert!(client["fix"].as_str().unwrap().contains("Instant Client"));
    assert_eq!(v["checks"][2]["id"], "connection.login");
    assert_eq!(v["checks"][2]["severity"], "SKIP");
    assert_eq!(v["target"], "Oracle localhost:1521/FREEPDB1 as c##cdc");
}

#[test]
fn with_the_thin_driver_no_client_is_needed_and_a_closed_port_is_no_listener() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin("oracle-cdc-doctor")
        .current_dir(dir.path())
        .env("CDC_DOCTOR_PW", "Very-Secret-Doctor-10")
        .args([
            "--set",
            "cdc.database.url=127.0.0.1:1/FREEPDB1",
            "--set",
            "cdc.database.user=c##cdc",
            "--set",
            "cdc.database.password=${env:CDC_DOCTOR_PW}",
            "--set",
            "cdc.state.dir=state",
            "--format",
            "json",
            "--check",
            "connection",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stdout.contains("Very-Secret-Doctor-10") && !stderr.contains("Very-Secret-Doctor-10"));
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    let v = json(&out);
    let by_id = |id: &str| {
        v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("no {id} in {v}"))
    };
    let driver = by_id("connection.driver");
    assert_eq!(driver["severity"], "PASS");
    let found = driver["found"].as_str().unwrap();
    assert!(
        found.starts_with("thin") && found.contains("11G password verifier"),
        "{found}"
    );
    assert_eq!(by_id("connection.client")["severity"], "PASS");
    let login = by_id("connection.login");
    assert_eq!(login["severity"], "FAIL");
    assert!(
        login["found"].as_str().unwrap().starts_with("CDC-2003"),
        "{login}"
    );
}

#[test]
fn the_command_page_documents_every_check() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/commands/doctor.md"))
        .unwrap();
    for c in oracle_cdc::doctor::CHECKS {
        assert!(
            page.contains(&format!("| `{}` | ", c.id)),
            "commands/doctor.md has no row for {}",
            c.id
        );
    }
}

/// Runs against a real database when `ORACLE_CDC_TEST_URL`, `ORACLE_CDC_TEST_USER` and
/// `ORACLE_CDC_TEST_PASSWORD` are set (as the live suite does); reports itself skipped otherwise.
#[test]
fn doctor_runs_every_check_against_a_live_oracle_when_configured() {
    let (Ok(url), Ok(user), Ok(password)) = (
        std::env::var("ORACLE_CDC_TEST_URL"),
        std::env::var("ORACLE_CDC_TEST_USER"),
        std::env::var("ORACLE_CDC_TEST_PASSWORD"),
    ) else {
        eprintln!("skipped: ORACLE_CDC_TEST_URL/USER/PASSWORD are not set");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("oracle-cdc-doctor")
        .unwrap()
        .current_dir(dir.path())
        .env("CDC_LIVE_PW", &password)
        .args([
            "--set",
            &format!("cdc.database.url={url}"),
            "--set",
            &format!("cdc.database.user={user}"),
            "--set",
            "cdc.database.password=${env:CDC_LIVE_PW}",
            "--set",
            "cdc.state.dir=state",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains(&password));
    let v = json(&out);
    let checks = v["checks"].as_array().unwrap();
    assert_eq!(checks.len(), oracle_cdc::doctor::CHECKS.len());
    assert_eq!(checks[2]["id"], "connection.login");
    assert_eq!(checks[2]["severity"], "PASS", "{}", checks[2]);
}
