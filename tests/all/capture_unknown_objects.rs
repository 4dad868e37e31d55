//! `oracle-cdc capture` on the emulator with LogMiner rendering tables as objects its
//! dictionary does not know (`cdc.emulator.fault.unknown.objects.tables`): SEG_OWNER
//! `UNKNOWN`, TABLE_NAME `OBJ# n`, `"COL n"` names and storage bytes, as Oracle shows a table
//! dropped and purged while the online catalog is the dictionary. Capture keeps those rows
//! (the mining filter's UNKNOWN arm), resolves each by its object number (partitions
//! included), reads it by column position and converges with `emulator dump`; rows of an
//! uncaptured table are counted, not published; a change that cannot be read by position goes
//! to the dead letters as CDC-3050. (On main the mining filter left every such row out: the
//! captured tables' streamed changes were lost without a trace.)

use crate::capture_support;

use capture_support::*;
use serde_json::Value as Json;
use std::path::Path;

const SCHEMA: &str = r#"
seed: 11
tables:
  - name: APP.LOST
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
      - { name: OPENED, type: DATE }
      - { name: AT, type: TIMESTAMP(6) }
      - { name: TAG, type: RAW(8), null_pct: 30 }
    primary_key: [ID]
    supplemental_logging: all
    rows: 40
  - name: APP.PARTED
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: REGION, type: VARCHAR2(8) }
      - { name: QTY, type: NUMBER(6) }
    primary_key: [ID]
    row_movement: true
    supplemental_logging: all
    partitions:
      column: REGION
      list:
        - { name: P_EMEA, values: [EMEA] }
        - { name: P_APAC, values: [APAC] }
        - { name: P_REST }
    rows: 40
  - name: APP.ZONED
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: AT, type: TIMESTAMP(6) WITH TIME ZONE }
      - { name: TERM, type: INTERVAL YEAR(2) TO MONTH }
      - { name: SPAN, type: INTERVAL DAY(3) TO SECOND(6) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 20
  - name: APP.LOCAL
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: AT, type: TIMESTAMP(6) WITH LOCAL TIME ZONE }
    primary_key: [ID]
    supplemental_logging: all
    rows: 20
  - name: OTHER.NOISE
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: V, type: VARCHAR2(20) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 20
"#;

fn capture(db: &Path, state: &Path, out: &Path, to: u64, unknown: &str) {
    capture_with(db, state, out, to, unknown, &[]);
}

fn capture_with(db: &Path, state: &Path, out: &Path, to: u64, unknown: &str, extra: &[&str]) {
    let args: Vec<String> = [
        format!("cdc.database.url=emulator:{}", db.display()),
        format!("cdc.state.dir={}", state.display()),
        format!("cdc.sink.dir={}", out.display()),
        "cdc.tables.include=APP.*".into(),
        "cdc.stream.poll.ms=20".into(),
        "cdc.on.decode.error=dlq".into(),
        format!("cdc.emulator.fault.unknown.objects.tables={unknown}"),
    ]
    .into_iter()
    .chain(extra.iter().map(|s| s.to_string()))
    .flat_map(|s| ["--set".to_string(), s])
    .chain(["-q", "capture", "--stop-at-scn"].map(String::from))
    .chain([to.to_string()])
    .collect();
    run(&args.iter().map(String::as_str).collect::<Vec<_>>());
}

fn dead_letters(state: &Path) -> Vec<Json> {
    std::fs::read_to_string(state.join("dlq.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The last capture-metrics event's count of unknown-object rows with `outcome`.
fn unknown_rows(state: &Path, outcome: &str) -> u64 {
    events(state)
        .iter()
        .rev()
        .find(|e| e["event"] == "capture-metrics")
        .and_then(|e| e["unknown_object_rows"][outcome].as_u64())
        .unwrap_or(0)
}

#[test]
fn unknown_object_rows_resolve_by_object_number_and_converge() {
    let Emulated {
        dir: _dir,
        db,
        state,
        out,
    } = emulated(SCHEMA);
    let unknown = "APP.LOST,APP.PARTED,APP.ZONED,OTHER.NOISE";
    capture(&db, &state, &out, current_scn(&db), unknown);
    run(&[
        "emulator",
        "workload",
        db.to_str().unwrap(),
        "--transactions",
        "150",
        "--seed",
        "4",
    ]);
    let end = current_scn(&db);
    capture(&db, &state, &out, end, unknown);
    let recs = records(&out);
    assert_exactly_once(&recs);
    // APP.ZONED's TIMESTAMP WITH TIME ZONE and INTERVAL values are read from their 13-, 5-
    // and 11-byte storage forms (before, the emulator never wrote them so and the decoder
    // could not read them).
    for table in ["APP.LOST", "APP.PARTED", "APP.ZONED"] {
        let streamed = recs_of(&recs, table);
        assert!(streamed > 10, "{table}: {streamed} streamed changes");
        assert_converges(&db, &recs, table, end);
    }
    let recovered = events(&state)
        .into_iter()
        .filter(|e| e["event"] == "redo-recovered" && e["kind"] == "column-positions")
        .count();
    assert!(recovered > 20, "{recovered}");
    assert!(unknown_rows(&state, "resolved") > 0);
    // OTHER.NOISE is not captured: its rows are counted and never published.
    assert!(unknown_rows(&state, "not-captured") > 0);
    // Named once a run, each: OTHER.NOISE's one object number.
    let named: Vec<Json> = events(&state)
        .into_iter()
        .filter(|e| e["event"] == "unknown-object")
        .collect();
    assert!(!named.is_empty() && named.len() <= 2, "{named:?}");
    assert!(named
        .iter()
        .all(|e| e["object"] == named[0]["object"] && e["outcome"] == "not-captured"));
    assert!(!recs
        .iter()
        .any(|r| r["topic"].as_str().unwrap_or("").contains("OTHER")));
    // APP.LOCAL was rendered normally: its changes streamed as usual.
    assert_converges(&db, &recs, "APP.LOCAL", end);
    assert!(dead_letters(&state).is_empty());
}

/// TRUNCATE gives a segment a new data object id, which later ROWIDs carry, while the object
/// keeps its number: LogMiner's `OBJ# n` after a truncate still names the table (or partition)
/// and its rows resolve; with the truncate records published the consumer converges.
#[test]
fn unknown_object_rows_after_a_truncate_still_resolve() {
    let Emulated {
        dir: _dir,
        db,
        state,
        out,
    } = emulated(SCHEMA);
    let unknown = "APP.LOST,APP.PARTED";
    let extra = ["cdc.skipped.operations=none"];
    capture_with(&db, &state, &out, current_scn(&db), unknown, &extra);
    run(&[
        "emulator",
        "workload",
        db.to_str().unwrap(),
        "--transactions",
        "120",
        "--truncate-every",
        "25",
        "--seed",
        "6",
    ]);
    let end = current_scn(&db);
    capture_with(&db, &state, &out, end, unknown, &extra);
    let recs = records(&out);
    assert_exactly_once(&recs);
    let truncated: Vec<&str> = recs
        .iter()
        .filter(|r| payload(&r["value"])["op"] == "t")
        .filter_map(|r| r["topic"].as_str())
        .collect();
    assert!(
        truncated
            .iter()
            .any(|t| t.ends_with("LOST") || t.ends_with("PARTED")),
        "{truncated:?}"
    );
    for table in ["APP.LOST", "APP.PARTED", "APP.ZONED"] {
        assert_converges(&db, &recs, table, end);
    }
    assert_eq!(unknown_rows(&state, "not-captured"), 0);
    assert!(dead_letters(&state).is_empty());
}

/// A TIMESTAMP WITH LOCAL TIME ZONE value (stored in the database's time zone) has no storage
/// format the emulator writes, so its changes come as LogMiner's unreadable form: each is
/// dead-lettered with CDC-3050 naming the SCN, the XID and the object number.
#[test]
fn unknown_object_rows_that_cannot_be_read_are_dead_lettered_with_cdc_3050() {
    let Emulated {
        dir: _dir,
        db,
        state,
        out,
    } = emulated(SCHEMA);
    capture(&db, &state, &out, current_scn(&db), "APP.LOCAL");
    run(&[
        "emulator",
        "workload",
        db.to_str().unwrap(),
        "--transactions",
        "150",
        "--seed",
        "4",
    ]);
    let end = current_scn(&db);
    capture(&db, &state, &out, end, "APP.LOCAL");
    let letters = dead_letters(&state);
    assert!(!letters.is_empty());
    for l in &letters {
        assert_eq!(l["code"], "CDC-3050", "{l}");
        let text = l["error"].as_str().unwrap();
        assert!(
            text.contains("APP.LOCAL")
                && text.contains("\"OBJ# ")
                && text.contains(" at SCN ")
                && text.contains("(XID ")
                && text.contains("cdc.mining.dictionary=redo_logs"),
            "{text}"
        );
    }
    let streamed = recs_of(&records(&out), "APP.LOCAL");
    assert_eq!(streamed, 0, "APP.LOCAL changes published");
    // The other tables stream as usual.
    let recs = records(&out);
    for table in ["APP.LOST", "APP.PARTED"] {
        assert_converges(&db, &recs, table, end);
    }
}

/// Streamed (not snapshot) change records of `table`.
fn recs_of(recs: &[Json], table: &str) -> usize {
    recs.iter()
        .filter(|r| is_change(r) && topic_matches(r["topic"].as_str().unwrap_or(""), table))
        .filter(|r| payload(&r["value"])["op"] != "r")
        .count()
}
