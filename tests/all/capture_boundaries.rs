//! Where a transaction begins: capture publishes a transaction whole even when mining begins in
//! its middle, whatever V$LOGMNR_CONTENTS.START_SCN on its COMMIT row says (the emulator gives
//! NULL there when the LogMiner session's range does not hold the START, as Oracle documents).

use crate::capture_support::*;
use oracle_cdc::source::emulator::{clock, writer::Writer};
use oracle_cdc::types::Value;
use serde_json::Value as Json;
use std::path::Path;

const SCHEMA: &str = r#"
seed: 5
tables:
  - name: HR.T
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NOTE, type: VARCHAR2(30) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 0
"#;

fn row(id: i64, note: &str) -> Vec<Value> {
    vec![
        Value::Number(id.to_string().into()),
        Value::Text(note.to_string().into()),
    ]
}

fn settings(db: &Path, state: &Path, out: &Path) -> Vec<String> {
    [
        format!("cdc.database.url=emulator:{}", db.display()),
        format!("cdc.state.dir={}", state.display()),
        format!("cdc.sink.dir={}", out.display()),
        "cdc.snapshot.mode=none".into(),
        "cdc.stream.poll.ms=20".into(),
        "cdc.stream.window.scn=5".into(),
    ]
    .into_iter()
    .flat_map(|s| ["--set".to_string(), s])
    .collect()
}

/// `offsets edit set-scn SCN --resume-scn SCN` with `settings`: stream the commits from `scn` on,
/// mining from `scn` too.
fn resume_at(settings: &[String], scn: u64) {
    let mut edit = settings.to_vec();
    edit.extend(
        [
            "offsets",
            "edit",
            "set-scn",
            &scn.to_string(),
            "--resume-scn",
            &scn.to_string(),
        ]
        .map(String::from),
    );
    run(&edit.iter().map(String::as_str).collect::<Vec<_>>());
}

/// The IDs of the inserts published, in order.
fn inserted_ids(out: &Path) -> Vec<String> {
    records(out)
        .iter()
        .map(|r| payload(&r["value"]).clone())
        .filter(|v| v["op"] == "c")
        .map(|v: Json| v["after"]["ID"].to_string().trim_matches('"').to_string())
        .collect()
}

/// `offsets edit set-scn` with `--resume-scn` inside an open transaction: mining begins after
/// its START, so its COMMIT row's START_SCN is NULL and the buffer never saw the START. Capture
/// mines back (five SCNs, then ten, …, as the window size says) until it does, and publishes
/// the transaction with its first change, which was made before mining began. Before, it
/// trusted START_SCN and, with NULL there, published the transaction without that change.
#[test]
fn a_transaction_begun_before_mining_is_mined_back_for_and_published_whole() {
    let Emulated {
        dir,
        db,
        state,
        out,
    } = emulated(SCHEMA);
    let mut w = Writer::open(&db, clock::system(), true).expect("writer");
    let long = w.begin().expect("begin");
    w.insert(long, 0, row(1, "before mining")).expect("insert");
    // Other transactions move the SCN on past the first change (each a few SCNs).
    for id in 100..110 {
        let x = w.begin().expect("begin");
        w.insert(x, 0, row(id, "other")).expect("insert");
        w.commit(&[x]).expect("commit");
    }
    // The next SCN: the last commit is at the current one.
    let resume = w.replica().current_scn + 1;
    w.insert(long, 0, row(2, "after")).expect("insert");
    w.commit(&[long]).expect("commit");
    w.flush().expect("flush");
    drop(w);
    let end = current_scn(&db);

    let mut args = settings(&db, &state, &out);
    resume_at(&args, resume);
    args.extend(["-q", "capture", "--stop-at-scn", &end.to_string()].map(String::from));
    run(&args.iter().map(String::as_str).collect::<Vec<_>>());

    // The transactions committed before the resume SCN are not published; the long one is,
    // whole, with the change made before mining began.
    assert_eq!(inserted_ids(&out), vec!["1", "2"]);
    let recs = records(&out);
    assert_exactly_once(&recs);
    drop(dir);
}

/// The same with the transaction's START in a log no longer retained: mining cannot go back
/// past the oldest log, so the transaction is published with the changes from there on, and a
/// `transaction-start-lost` ops event and a warning name it (not a loop of mining back, not a
/// silent partial transaction).
#[test]
fn a_transaction_whose_start_is_in_no_log_is_published_as_far_as_the_logs_go_and_reported() {
    let schema = SCHEMA.replace(
        "seed: 5\n",
        "seed: 5\ndatabase:\n  log_size: 20\n  archived_logs_kept: 2\n",
    );
    let Emulated {
        dir,
        db,
        state,
        out,
    } = emulated(&schema);
    let mut w = Writer::open(&db, clock::system(), true).expect("writer");
    let long = w.begin().expect("begin");
    w.insert(long, 0, row(1, "in a purged log"))
        .expect("insert");
    let start = w.replica().current_scn;
    // Enough redo that the log holding the START is switched out and no longer kept.
    for id in 100..200 {
        let x = w.begin().expect("begin");
        w.insert(x, 0, row(id, "other")).expect("insert");
        w.commit(&[x]).expect("commit");
    }
    let resume = w.replica().current_scn + 1;
    w.insert(long, 0, row(2, "after")).expect("insert");
    w.commit(&[long]).expect("commit");
    w.flush().expect("flush");
    drop(w);
    let end = current_scn(&db);
    let oldest = emulator_status(&db)["logs"]
        .as_array()
        .and_then(|logs| logs.iter().filter_map(|l| l["first_scn"].as_u64()).min())
        .expect("the status lists logs");
    assert!(
        oldest > start,
        "the START's log is gone: {oldest} > {start}"
    );

    let mut args = settings(&db, &state, &out);
    resume_at(&args, resume);
    args.extend(["capture", "--stop-at-scn", &end.to_string()].map(String::from));
    let done = run(&args.iter().map(String::as_str).collect::<Vec<_>>());

    assert_eq!(inserted_ids(&out), vec!["2"]);
    let lost: Vec<Json> = events(&state)
        .into_iter()
        .filter(|e| e["event"] == "transaction-start-lost")
        .collect();
    assert_eq!(lost.len(), 1, "{lost:?}");
    assert_eq!(lost[0]["mined_from"], oldest, "{lost:?}");
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(
        stderr.contains("the changes mined from there, those before are not in any log"),
        "{stderr}"
    );
    drop(dir);
}

/// A transaction open in a schema capture does not mine (an idle session's lock, an in-doubt
/// distributed transaction) does not hold the restart SCN back: after a run, mining would
/// restart past its START. When it later changes a captured table and commits, the next run,
/// which did not mine its START, mines back for it and publishes it whole. Before, its START
/// held `resume_scn` for as long as it stayed open (weeks: then a restart needs purged logs).
#[test]
fn a_transaction_open_elsewhere_does_not_hold_the_restart_back() {
    let schema = SCHEMA.replace(
        "    rows: 0\n",
        "    rows: 0\n  - name: APP.OTHER\n    columns:\n      - { name: ID, type: NUMBER(10), nullable: false }\n    primary_key: [ID]\n    rows: 0\n",
    );
    let Emulated {
        dir,
        db,
        state,
        out,
    } = emulated(&schema);
    let mut w = Writer::open(&db, clock::system(), true).expect("writer");
    let long = w.begin().expect("begin");
    let start = w.replica().current_scn + 1;
    w.insert(long, 1, vec![Value::Number("7".to_string().into())])
        .expect("insert elsewhere");
    for id in 100..110 {
        let x = w.begin().expect("begin");
        w.insert(x, 0, row(id, "other")).expect("insert");
        w.commit(&[x]).expect("commit");
    }
    w.flush().expect("flush");
    // The last commit's SCN: the SCN after it is not minable while the database is idle.
    let first_end = w.replica().current_scn - 1;

    let mut args = settings(&db, &state, &out);
    args.extend(["--set", "cdc.tables.include=HR.*", "-q", "capture"].map(String::from));
    let mut first = args.clone();
    first.extend(["--stop-at-scn".to_string(), first_end.to_string()]);
    run(&first.iter().map(String::as_str).collect::<Vec<_>>());
    let offsets: Json =
        serde_json::from_str(&std::fs::read_to_string(state.join("offsets.json")).unwrap())
            .unwrap();
    let resume = offsets["stream"]["resume_scn"]
        .as_u64()
        .expect("resume_scn");
    assert!(
        resume > start,
        "the open transaction elsewhere (START {start}) holds the restart at {resume}"
    );

    // Now it changes the captured table and commits.
    w.insert(long, 0, row(1, "late")).expect("insert");
    w.commit(&[long]).expect("commit");
    w.flush().expect("flush");
    drop(w);
    let end = current_scn(&db);
    let mut second = args.clone();
    second.extend(["--stop-at-scn".to_string(), end.to_string()]);
    run(&second.iter().map(String::as_str).collect::<Vec<_>>());
    let ids = inserted_ids(&out);
    assert_eq!(ids.iter().filter(|i| *i == "1").count(), 1, "{ids:?}");
    assert_exactly_once(&records(&out));
    drop(dir);
}
