//! Column types LogMiner does not stream, from the command line: doctor says which stream, which
//! only snapshot and which are refused; capture reports every change LogMiner wrote without its
//! values (CDC-3003 for a table with a BFILE, BOOLEAN or VECTOR column, or a JSON one without
//! ENABLE_GOLDENGATE_REPLICATION; CDC-3005 for a LOB changed piece by piece), as
//! cdc.on.unsupported.redo says, never a null or a guess in a record.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use serde_json::Value as Json;
use std::process::{Command, Output};

/// A table for every column type LogMiner makes a table snapshot-only with (each in a table
/// of its own, as each alone is enough), beside one that streams.
const SNAPSHOT_ONLY: &str = r#"
database: { name: TYPES }
tables:
  - name: APP.DOCS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: FILE, type: BFILE }
    primary_key: [ID]
    supplemental_logging: all
    rows: 5
  - name: APP.FLAGS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: ON_OFF, type: BOOLEAN }
      - { name: EMBEDDING, type: VECTOR(3) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 5
  - name: APP.META
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: DOC, type: JSON }
    primary_key: [ID]
    supplemental_logging: all
    rows: 5
  - name: APP.PLAIN
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NOTE, type: VARCHAR2(20) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 5
"#;

fn oracle_cdc(args: &[String]) -> Output {
    Command::new(cargo_bin("oracle-cdc"))
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .unwrap()
}

fn settings(e: &Emulated, extra: &[&str]) -> Vec<String> {
    [
        format!("cdc.database.url=emulator:{}", e.db.display()),
        format!("cdc.state.dir={}", e.state.display()),
        format!("cdc.sink.dir={}", e.out.display()),
        "cdc.stream.poll.ms=20".to_string(),
    ]
    .into_iter()
    .chain(extra.iter().map(|s| s.to_string()))
    .flat_map(|s| ["--set".to_string(), s])
    .collect()
}

fn doctor(e: &Emulated, extra: &[&str]) -> Json {
    let mut args = settings(e, extra);
    args.extend(
        [
            "doctor",
            "--check",
            "tables.column-types",
            "--format",
            "json",
        ]
        .map(String::from),
    );
    let out = oracle_cdc(&args);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|err| panic!("{err}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn capture(e: &Emulated, extra: &[&str], end: u64) -> Output {
    let mut args = settings(e, extra);
    args.extend(["-q", "capture", "--stop-at-scn"].map(String::from));
    args.push(end.to_string());
    oracle_cdc(&args)
}

fn workload(e: &Emulated, args: &[&str]) {
    let mut all = vec![
        "-q",
        "emulator",
        "workload",
        e.db.to_str().unwrap(),
        "--rate",
        "0",
    ];
    all.extend_from_slice(args);
    run(&all);
}

/// Doctor FAILs streaming a table with a BFILE, BOOLEAN, VECTOR or (without
/// ENABLE_GOLDENGATE_REPLICATION) JSON column, names the reason and the fix, and lists the
/// types by what capture can do with them; a snapshot-only capture PASSes.
#[test]
fn doctor_says_which_types_stream_which_only_snapshot_and_which_are_refused() {
    let e = emulated(SNAPSHOT_ONLY);
    let v = doctor(&e, &[]);
    let check = &v["checks"][0];
    assert_eq!(check["id"], "tables.column-types");
    assert_eq!(check["severity"], "FAIL", "{check}");
    let found = check["found"].as_str().unwrap();
    for (column, why) in [
        (
            "APP.DOCS.FILE is BFILE",
            "LogMiner ignores tables with BFILE columns",
        ),
        ("APP.FLAGS.ON_OFF is BOOLEAN", "UNSUPPORTED rows"),
        ("APP.FLAGS.EMBEDDING is VECTOR(3)", "UNSUPPORTED rows"),
        ("APP.META.DOC is JSON", "ENABLE_GOLDENGATE_REPLICATION"),
    ] {
        let line = found
            .lines()
            .find(|l| l.starts_with(column))
            .unwrap_or_else(|| panic!("{column} not in {found}"));
        assert!(line.contains(why) && line.contains("CDC-3003"), "{line}");
    }
    assert!(
        found.contains(
            "stream: NUMBER, VARCHAR2; snapshot only: BFILE, BOOLEAN, VECTOR, JSON; refused: none"
        ),
        "{found}"
    );
    let fix = check["fix"].as_str().unwrap();
    // One settings line for every table to leave out, so it can be pasted as it is.
    assert!(
        fix.contains("cdc.tables.exclude: [APP.DOCS, APP.FLAGS]"),
        "{fix}"
    );
    assert!(
        fix.contains("ENABLE_GOLDENGATE_REPLICATION = TRUE"),
        "{fix}"
    );
    // Snapshots read them all: nothing fails.
    let v = doctor(&e, &["cdc.snapshot.mode=snapshot_only"]);
    assert_eq!(v["checks"][0]["severity"], "PASS", "{}", v["checks"][0]);
    assert!(v["checks"][0]["found"]
        .as_str()
        .unwrap()
        .contains("snapshot only: BFILE, BOOLEAN, VECTOR, JSON"));
}

/// Capture snapshots every table, says at start which ones cannot stream, and reports each of
/// their changes: CDC-3003 stops it by default; with dlq each one is a dead letter, counted and
/// logged; the streamable table's changes all arrive.
#[test]
fn changes_logminer_writes_as_unsupported_rows_are_reported_never_published_as_nulls() {
    let e = emulated(SNAPSHOT_ONLY);
    let start = current_scn(&e.db);
    // The snapshot first, then a workload.
    let out = capture(&e, &["cdc.on.unsupported.redo=dlq"], start);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let not_streamable: Vec<String> = events(&e.state)
        .into_iter()
        .filter(|ev| ev["event"] == "table-not-streamable")
        .map(|ev| ev["table"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(not_streamable, ["APP.DOCS", "APP.FLAGS", "APP.META"]);
    workload(
        &e,
        &[
            "--transactions",
            "60",
            "--seed",
            "4",
            "--rollback-pct",
            "0",
            "--savepoint-pct",
            "0",
            "--long-every",
            "0",
        ],
    );
    let end = current_scn(&e.db);
    // By default the first one stops capture with its code.
    let stopped = capture(&e, &[], end);
    assert!(!stopped.status.success());
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert!(
        err.contains("CDC-3003") && err.contains("UNSUPPORTED"),
        "{err}"
    );
    let out = capture(&e, &["cdc.on.unsupported.redo=dlq"], end);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dlq = std::fs::read_to_string(e.state.join("dlq.jsonl")).unwrap();
    let letters: Vec<Json> = dlq
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!letters.is_empty());
    assert!(letters.iter().all(|l| l["code"] == "CDC-3003"), "{dlq}");
    for table in ["APP.DOCS", "APP.FLAGS", "APP.META"] {
        assert!(dlq.contains(table), "no dead letter for {table}: {dlq}");
    }
    let reported = events(&e.state)
        .into_iter()
        .filter(|ev| ev["event"] == "unsupported-redo" && ev["action"] == "dlq")
        .count();
    assert_eq!(reported, letters.len());
    // No change record of a snapshot-only table; the other table converges.
    let recs = records(&e.out);
    assert!(recs.iter().all(|r| {
        let t = r["topic"].as_str().unwrap_or_default();
        payload(&r["value"])["source"]["snapshot"] != "false"
            || !["DOCS", "FLAGS", "META"].iter().any(|x| t.ends_with(x))
    }));
    assert_converges(&e.db, &recs, "APP.PLAIN", end);
}

/// With ENABLE_GOLDENGATE_REPLICATION a JSON table streams: its documents come as OSON and
/// decode to the text `emulator dump` shows.
#[test]
fn json_streams_with_goldengate_replication() {
    let schema = SNAPSHOT_ONLY.replace(
        "database: { name: TYPES }",
        "database: { name: TYPES, goldengate_replication: true }",
    );
    let e = emulated(&schema);
    let v = doctor(&e, &["cdc.tables.include=APP.META"]);
    assert_eq!(v["checks"][0]["severity"], "PASS", "{}", v["checks"][0]);
    let start = current_scn(&e.db);
    let out = capture(&e, &["cdc.tables.include=APP.META"], start);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    workload(
        &e,
        &[
            "--transactions",
            "80",
            "--seed",
            "5",
            "--tables",
            "APP.META",
            "--lob-pct",
            "40",
        ],
    );
    let end = current_scn(&e.db);
    let out = capture(&e, &["cdc.tables.include=APP.META"], end);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!e.state.join("dlq.jsonl").exists());
    assert_converges(&e.db, &records(&e.out), "APP.META", end);
}

/// A LOB changed piece by piece through its locator (DBMS_LOB.WRITE at an offset, ERASE, TRIM)
/// leaves LogMiner's rows without the LOB's earlier content: capture reports CDC-3005 for each
/// such change instead of publishing a value it would have to guess.
#[test]
fn lobs_changed_piece_by_piece_are_reported_not_guessed() {
    let e = emulated(
        r#"
database: { name: LOBS }
tables:
  - name: APP.NOTES
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: BODY, type: CLOB }
      - { name: PIC, type: BLOB }
    primary_key: [ID]
    supplemental_logging: all
    rows: 30
"#,
    );
    let start = current_scn(&e.db);
    assert!(capture(&e, &[], start).status.success());
    workload(
        &e,
        &[
            "--transactions",
            "60",
            "--seed",
            "7",
            "--lob-edit-pct",
            "60",
            "--mix",
            "insert=10,update=90,delete=0",
            "--rollback-pct",
            "0",
            "--savepoint-pct",
            "0",
        ],
    );
    let end = current_scn(&e.db);
    let stopped = capture(&e, &[], end);
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert!(
        !stopped.status.success() && err.contains("CDC-3005"),
        "{err}"
    );
    let out = capture(&e, &["cdc.on.unsupported.redo=skip"], end);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !e.state.join("dlq.jsonl").exists(),
        "skip writes no dead letter"
    );
    let skipped: Vec<Json> = events(&e.state)
        .into_iter()
        .filter(|ev| ev["event"] == "unsupported-redo" && ev["action"] == "skip")
        .collect();
    assert!(!skipped.is_empty());
    assert!(
        skipped.iter().all(|ev| ev["code"] == "CDC-3005"),
        "{skipped:?}"
    );
    // No record carries a LOB value the redo did not hold.
    let recs = records(&e.out);
    let guessed = recs
        .iter()
        .filter(|r| payload(&r["value"])["op"] == "u")
        .count();
    assert!(guessed > 0, "the other updates are published");
}

/// CLOB, BLOB, JSON, XMLTYPE and an extended VARCHAR2 in one table, written the way Oracle
/// writes them (`--lob-pct`: values past what a row keeps, so locators, LOB_WRITE pieces, XML
/// DOC and 32K rows with the empty ROW_ID): capture converges with `emulator dump`. Piecewise
/// edits (`--lob-edit-pct`) are dead letters with CDC-3005, never a guessed value, and the
/// remedy CDC-3005 names (a re-snapshot by signal) makes the copy whole again.
#[test]
fn a_table_of_every_lob_like_type_converges_under_the_workload() {
    let e = emulated(
        r#"
database: { name: LOBS, goldengate_replication: true, max_string_size: extended }
tables:
  - name: APP.DOCS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: TITLE, type: VARCHAR2(40) }
      - { name: BODY, type: CLOB }
      - { name: PIC, type: BLOB }
      - { name: META, type: JSON }
      - { name: PAGE, type: XMLTYPE }
      - { name: LONGTEXT, type: VARCHAR2(8000) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 20
"#,
    );
    let start = current_scn(&e.db);
    let out = capture(&e, &[], start);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // No key changes: the new key's record has the placeholder for every LOB-like value the
    // redo does not hold, and a latest-per-key consumer has nothing to keep under that key.
    let quiet = [
        "--rollback-pct",
        "0",
        "--savepoint-pct",
        "0",
        "--long-every",
        "0",
        "--key-update-pct",
        "0",
    ];
    let mut args = vec!["--transactions", "80", "--seed", "8", "--lob-pct", "50"];
    args.extend(quiet);
    workload(&e, &args);
    let end = current_scn(&e.db);
    let out = capture(&e, &[], end);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!e.state.join("dlq.jsonl").exists());
    let recs = records(&e.out);
    // Values past what a row keeps came through (out-of-line LOB, XML DOC and 32K rows).
    for (col, len) in [
        ("BODY", 2_000),
        ("PIC", 5_400),
        ("META", 4_000),
        ("PAGE", 4_000),
        ("LONGTEXT", 4_000),
    ] {
        assert!(
            recs.iter().any(|r| {
                let value = payload(&r["value"]);
                let v = &value["after"][col];
                value["source"]["snapshot"] == "false"
                    && v.as_str().map_or(v.to_string().len(), str::len) > len
            }),
            "no long {col} value was streamed"
        );
    }
    assert_converges(&e.db, &recs, "APP.DOCS", end);

    let mut args = vec![
        "--transactions",
        "60",
        "--seed",
        "9",
        "--lob-pct",
        "30",
        "--lob-edit-pct",
        "30",
    ];
    args.extend(quiet);
    workload(&e, &args);
    let end = current_scn(&e.db);
    let dlq = ["cdc.on.unsupported.redo=dlq"];
    let out = capture(&e, &dlq, end);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let letters = std::fs::read_to_string(e.state.join("dlq.jsonl")).unwrap();
    assert!(!letters.is_empty());
    assert!(
        letters.lines().all(|l| l.contains("\"code\":\"CDC-3005\"")),
        "{letters}"
    );
    let mut args = settings(&e, &dlq);
    args.extend(
        [
            "signal",
            "send",
            "execute-snapshot",
            "--tables",
            "APP.DOCS",
            "--id",
            "lobs",
        ]
        .map(String::from),
    );
    let sent = oracle_cdc(&args);
    assert!(
        sent.status.success(),
        "{}",
        String::from_utf8_lossy(&sent.stderr)
    );
    let out = capture(&e, &dlq, end);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(events(&e.state)
        .iter()
        .any(|ev| ev["event"] == "signal-done" && ev["signal"] == "lobs"));
    assert_converges(&e.db, &records(&e.out), "APP.DOCS", end);
}

/// LONG and LONG RAW are not streamed, as Debezium's Oracle connector does not stream them
/// (LogMiner writes a value past a size threshold as the text 'LONG DATA'): doctor lists them
/// as snapshot only and gives the exclusion; capture stops at a change of such a table with
/// CDC-3008 naming the column, never publishing the value; with the columns excluded the rest
/// of each table streams and converges. (Before, doctor listed LONG as streaming and capture
/// published whatever text LogMiner wrote, 'LONG DATA' included.)
#[test]
fn long_columns_are_not_streamed_and_can_be_excluded() {
    let schema = r#"
database: { name: LONGS }
tables:
  - name: APP.NOTES
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: TITLE, type: VARCHAR2(20) }
      - { name: BODY, type: LONG }
    primary_key: [ID]
    supplemental_logging: all
    rows: 10
  - name: APP.IMAGES
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: PIC, type: LONG RAW }
    primary_key: [ID]
    supplemental_logging: all
    rows: 10
"#;
    let exclude = "cdc.columns.exclude=APP.NOTES.BODY,APP.IMAGES.PIC";
    let changes = [
        "--transactions",
        "40",
        "--seed",
        "6",
        "--rollback-pct",
        "0",
        "--savepoint-pct",
        "0",
    ];
    let e = emulated(schema);
    let v = doctor(&e, &[]);
    let check = &v["checks"][0];
    assert_eq!(check["severity"], "FAIL", "{check}");
    let found = check["found"].as_str().unwrap();
    for column in ["APP.NOTES.BODY is LONG", "APP.IMAGES.PIC is LONG RAW"] {
        let line = found
            .lines()
            .find(|l| l.starts_with(column))
            .unwrap_or_else(|| panic!("{column} not in {found}"));
        assert!(
            line.contains("LONG DATA") && line.contains("CDC-3008"),
            "{line}"
        );
    }
    assert!(found.contains("snapshot only: LONG RAW, LONG;"), "{found}");
    let fix = check["fix"].as_str().unwrap();
    let line = fix
        .lines()
        .find(|l| l.starts_with("cdc.columns.exclude: ["))
        .unwrap_or_else(|| panic!("{fix}"));
    assert!(
        line.contains("APP.NOTES.BODY") && line.contains("APP.IMAGES.PIC"),
        "{fix}"
    );
    let v = doctor(&e, &[exclude]);
    assert_eq!(v["checks"][0]["severity"], "PASS", "{}", v["checks"][0]);

    // Captured: the snapshot, then the first change stops capture.
    assert!(capture(&e, &[], current_scn(&e.db)).status.success());
    workload(&e, &changes);
    let end = current_scn(&e.db);
    let stopped = capture(&e, &[], end);
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert!(
        !stopped.status.success() && err.contains("CDC-3008") && err.contains("LONG"),
        "{err}"
    );
    let warned: Vec<Json> = events(&e.state)
        .into_iter()
        .filter(|ev| ev["event"] == "table-not-streamable")
        .collect();
    assert!(
        ["APP.NOTES", "APP.IMAGES"]
            .iter()
            .all(|t| warned.iter().any(|ev| ev["table"] == *t)),
        "{warned:?}"
    );
    assert!(records(&e.out)
        .iter()
        .all(|r| payload(&r["value"])["source"]["snapshot"] != "false"));

    // Excluded from the start, the rest of each table streams.
    let e = emulated(schema);
    assert!(capture(&e, &[exclude], current_scn(&e.db)).status.success());
    workload(&e, &changes);
    let end = current_scn(&e.db);
    let out = capture(&e, &[exclude], end);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(events(&e.state)
        .iter()
        .all(|ev| ev["event"] != "table-not-streamable"));
    let recs = records(&e.out);
    assert_table_converges_without(&e.db, &recs, "APP.NOTES", end, &["BODY"]);
    assert_table_converges_without(&e.db, &recs, "APP.IMAGES", end, &["PIC"]);
}

/// Out-of-line LOBs of every storage LogMiner writes differently (issue 35 item 5), under a
/// workload of long values: SECUREFILE (an UPDATE that grows a value has no LOB_TRIM),
/// BASICFILE (an UPDATE to `EMPTY_CLOB()`, LOB_TRIM(0), the writes) and BASICFILE stored out
/// of row (no SEL_LOB_LOCATOR; an INSERT's writes before the INSERT). Capture decodes each and
/// converges with `emulator dump`, no dead letter. (Before, the growing SECUREFILE updates
/// and every BASICFILE out-of-row value were CDC-3005: "its length is not in the redo", "a
/// LOB row without its SEL_LOB_LOCATOR".)
#[test]
fn lobs_of_every_storage_converge() {
    let e = emulated(
        r#"
database: { name: LOBS }
tables:
  - name: APP.SECURE
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: TITLE, type: VARCHAR2(40) }
      - { name: BODY, type: CLOB }
      - { name: PIC, type: BLOB }
    primary_key: [ID]
    supplemental_logging: all
    rows: 10
  - name: APP.BASIC
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: TITLE, type: VARCHAR2(40) }
      - { name: BODY, type: CLOB, lob_storage: basicfile }
      - { name: PIC, type: BLOB, lob_storage: basicfile }
    primary_key: [ID]
    supplemental_logging: all
    rows: 10
  - name: APP.OUTROW
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: TITLE, type: VARCHAR2(40) }
      - { name: BODY, type: CLOB, lob_storage: basicfile, storage_in_row: false }
    primary_key: [ID]
    supplemental_logging: all
    rows: 10
"#,
    );
    let start = current_scn(&e.db);
    assert!(capture(&e, &[], start).status.success());
    workload(
        &e,
        &[
            "--transactions",
            "90",
            "--seed",
            "12",
            "--lob-pct",
            "60",
            "--rollback-pct",
            "0",
            "--savepoint-pct",
            "0",
            "--key-update-pct",
            "0",
            "--long-every",
            "0",
        ],
    );
    let end = current_scn(&e.db);
    let out = capture(&e, &[], end);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!e.state.join("dlq.jsonl").exists());
    let recs = records(&e.out);
    for table in ["APP.SECURE", "APP.BASIC", "APP.OUTROW"] {
        let long = recs.iter().any(|r| {
            let value = payload(&r["value"]);
            value["source"]["snapshot"] == "false"
                && value["source"]["table"] == table.split('.').nth(1).unwrap()
                && value["after"]["BODY"]
                    .as_str()
                    .is_some_and(|b| b.len() > 2_100)
        });
        assert!(long, "no long BODY of {table} was streamed");
        assert_converges(&e.db, &recs, table, end);
    }
}
