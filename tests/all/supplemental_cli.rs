//! A rehearsal on an emulated database set up without the supplemental logging doctor asks for:
//! capture stops with the code doctor's FAIL names (CDC-3202 without minimal logging, CDC-3201
//! for a table without ALL COLUMNS logging), or dead-letters the changes with
//! cdc.on.decode.error=dlq, counted by code.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use serde_json::Value as Json;
use std::path::Path;
use std::process::{Command, Output};

fn schema(database: &str, table: &str) -> String {
    cdb_schema(database, "", "SHOP.ACCOUNTS", table)
}

/// `extra` database lines (indented two spaces); `name` the table's (PDB.OWNER.TABLE in a CDB).
fn cdb_schema(database: &str, extra: &str, name: &str, table: &str) -> String {
    format!(
        r#"
seed: 3
database:
  supplemental_logging: {database}
{extra}tables:
  - name: {name}
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: OWNER, type: VARCHAR2(30) }}
      - {{ name: BALANCE, type: "NUMBER(12,2)" }}
      - {{ name: NOTE, type: VARCHAR2(100) }}
    primary_key: [ID]
    supplemental_logging: {table}
    rows: 20
"#
    )
}

fn settings(e: &Emulated, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        format!("cdc.database.url=emulator:{}", e.db.display()),
        format!("cdc.state.dir={}", e.state.display()),
        format!("cdc.sink.dir={}", e.out.display()),
        "cdc.stream.poll.ms=20".into(),
    ]
    .into_iter()
    .chain(extra.iter().map(|s| s.to_string()))
    .flat_map(|s| ["--set".to_string(), s])
    .collect();
    args.push("-q".into());
    args
}

fn oracle_cdc(args: &[String]) -> Output {
    Command::new(cargo_bin("oracle-cdc"))
        .args(args)
        .output()
        .unwrap()
}

/// Snapshot the table, run a workload of updates (and a few inserts), then capture up to the
/// end: the last capture's output.
fn rehearse(e: &Emulated, extra: &[&str]) -> Output {
    let mut first = settings(e, extra);
    first.extend([
        "capture".into(),
        "--stop-at-scn".into(),
        current_scn(&e.db).to_string(),
    ]);
    let o = oracle_cdc(&first);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    run(&[
        "emulator",
        "workload",
        e.db.to_str().unwrap(),
        "--transactions",
        "20",
        "--mix",
        "insert=10,update=90,delete=0",
        "--seed",
        "4",
    ]);
    let mut last = settings(e, extra);
    last.extend([
        "capture".into(),
        "--stop-at-scn".into(),
        current_scn(&e.db).to_string(),
    ]);
    oracle_cdc(&last)
}

/// doctor's finding for `check` (as JSON).
fn doctor_finding(e: &Emulated, check: &str) -> Json {
    let mut args = settings(e, &[]);
    args.extend(["doctor".into(), "--format".into(), "json".into()]);
    let o = oracle_cdc(&args);
    let v: Json = serde_json::from_slice(&o.stdout).unwrap();
    v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == check)
        .unwrap_or_else(|| panic!("no {check} in {v}"))
        .clone()
}

fn dead_letters(state: &Path) -> Vec<Json> {
    std::fs::read_to_string(state.join("dlq.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The last capture-metrics event's dead letters of `code`.
fn counted(state: &Path, code: &str) -> u64 {
    events(state)
        .iter()
        .rev()
        .find(|e| e["event"] == "capture-metrics")
        .and_then(|e| e["dead_letters"][code].as_u64())
        .unwrap_or(0)
}

#[test]
fn without_minimal_supplemental_logging_capture_stops_with_the_code_doctor_names() {
    let e = emulated(&schema("{ min: false }", "all"));
    let finding = doctor_finding(&e, "supplemental.database");
    assert_eq!(finding["severity"], "FAIL");
    assert!(
        finding["found"].as_str().unwrap().contains("CDC-3202"),
        "{finding}"
    );

    let o = rehearse(&e, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.starts_with("CDC-3202"), "{err}");
    assert!(err.contains("no supplemental log data found"), "{err}");

    // With dlq every change of the workload is a dead letter and nothing of it is published.
    let e = emulated(&schema("{ min: false }", "all"));
    let o = rehearse(&e, &["cdc.on.decode.error=dlq"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let letters = dead_letters(&e.state);
    assert!(!letters.is_empty());
    assert!(
        letters.iter().all(|l| l["code"] == "CDC-3202"),
        "{letters:?}"
    );
    assert_eq!(counted(&e.state, "CDC-3202"), letters.len() as u64);
    assert!(records(&e.out)
        .iter()
        .all(|r| r["value"]["payload"]["op"] == "r"));
}

#[test]
fn a_table_without_all_columns_logging_stops_capture_at_an_update_with_the_code_doctor_names() {
    let e = emulated(&schema("{ min: true }", "primary_key"));
    let finding = doctor_finding(&e, "supplemental.table");
    assert_eq!(finding["severity"], "FAIL");
    assert!(
        finding["found"].as_str().unwrap().contains("CDC-3201"),
        "{finding}"
    );
    assert!(
        finding["fix"]
            .as_str()
            .unwrap()
            .contains("ALTER TABLE \"SHOP\".\"ACCOUNTS\" ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;"),
        "{finding}"
    );

    let o = rehearse(&e, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("CDC-3201: SHOP.ACCOUNTS changed at SCN"),
        "{err}"
    );

    // The same database with ALL COLUMNS logging converges.
    let e = emulated(&schema("{ min: true }", "all"));
    let o = rehearse(&e, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let end = current_scn(&e.db);
    assert_converges(&e.db, &records(&e.out), "SHOP.ACCOUNTS", end);
    assert_eq!(doctor_finding(&e, "supplemental.table")["severity"], "PASS");
}

/// A 12.2+ CDB whose PDB1 enabled (ALL) COLUMNS logging itself (`ALTER PLUGGABLE DATABASE ADD
/// SUPPLEMENTAL LOG DATA (ALL) COLUMNS` in PDB1), its table without a log group: doctor passes
/// and capture converges (every UPDATE carries the whole row). Without the PDB-level logging the
/// same table fails doctor with the PDB-level fix and stops capture with CDC-3201.
#[test]
fn pdb_level_all_columns_logging_lets_capture_of_that_pdb_converge() {
    let pdb_all =
        "  multitenant: true\n  pdbs: [{ name: PDB1, supplemental_logging: { all: true } }]\n";
    let e = emulated(&cdb_schema(
        "{ min: true }",
        pdb_all,
        "PDB1.SHOP.ACCOUNTS",
        "primary_key",
    ));
    let finding = doctor_finding(&e, "supplemental.table");
    assert_eq!(finding["severity"], "PASS", "{finding}");
    let o = rehearse(&e, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let end = current_scn(&e.db);
    assert_converges(&e.db, &records(&e.out), "PDB1.SHOP.ACCOUNTS", end);

    let e = emulated(&cdb_schema(
        "{ min: true }",
        "  multitenant: true\n",
        "PDB1.SHOP.ACCOUNTS",
        "primary_key",
    ));
    let finding = doctor_finding(&e, "supplemental.table");
    assert_eq!(finding["severity"], "FAIL", "{finding}");
    assert!(
        finding["fix"].as_str().unwrap().starts_with(
            "ALTER SESSION SET CONTAINER = PDB1;\nALTER PLUGGABLE DATABASE ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;"
        ),
        "{finding}"
    );
    let o = rehearse(&e, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("CDC-3201: PDB1.SHOP.ACCOUNTS changed at SCN"),
        "{err}"
    );
}
