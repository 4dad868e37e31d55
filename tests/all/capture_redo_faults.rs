//! `oracle-cdc capture` on the emulator with the SQL_REDO fault drills on: LogMiner writing
//! string values with undoubled quotes (one table) and `"COL n"` names with storage bytes after a
//! dictionary mismatch (another). Capture reads both, reports each change it recovered
//! (`redo-recovered`), and the latest record per key equals `emulator dump`. (On main the first
//! such change stopped capture with CDC-3002.)

use crate::capture_support;

use capture_support::*;

const SCHEMA: &str = r#"
seed: 8
tables:
  - name: APP.QUOTED
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
      - { name: CODE, type: CHAR(3) }
      - { name: NOTE, type: VARCHAR2(200), null_pct: 20 }
    primary_key: [ID]
    supplemental_logging: all
    rows: 50
  - name: APP.MISMATCHED
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
      - { name: OPENED, type: DATE }
      - { name: AT, type: TIMESTAMP(6) }
      - { name: TAG, type: RAW(8), null_pct: 30 }
    primary_key: [ID]
    supplemental_logging: all
    rows: 50
"#;

fn capture(db: &std::path::Path, state: &std::path::Path, out: &std::path::Path, to: u64) {
    let args: Vec<String> = [
        format!("cdc.database.url=emulator:{}", db.display()),
        format!("cdc.state.dir={}", state.display()),
        format!("cdc.sink.dir={}", out.display()),
        "cdc.stream.poll.ms=20".into(),
        "cdc.emulator.fault.unescaped.quotes.tables=APP.QUOTED".into(),
        "cdc.emulator.fault.dictionary.mismatch.tables=APP.MISMATCHED".into(),
    ]
    .into_iter()
    .flat_map(|s| ["--set".to_string(), s])
    .chain(["-q", "capture", "--stop-at-scn"].map(String::from))
    .chain([to.to_string()])
    .collect();
    run(&args.iter().map(String::as_str).collect::<Vec<_>>());
}

#[test]
fn undoubled_quotes_and_col_n_rows_are_recovered_and_converge() {
    let Emulated {
        dir: _dir,
        db,
        state,
        out,
    } = emulated(SCHEMA);
    // The snapshot of the initial rows, then the workload streamed.
    capture(&db, &state, &out, current_scn(&db));
    run(&[
        "emulator",
        "workload",
        db.to_str().unwrap(),
        "--transactions",
        "120",
        "--seed",
        "3",
    ]);
    let end = current_scn(&db);
    capture(&db, &state, &out, end);
    let recs = records(&out);
    assert_exactly_once(&recs);
    for table in ["APP.QUOTED", "APP.MISMATCHED"] {
        assert_converges(&db, &recs, table, end);
    }
    let recovered = events(&state)
        .into_iter()
        .filter(|e| e["event"] == "redo-recovered")
        .collect::<Vec<_>>();
    let of = |kind: &str, table: &str| {
        recovered
            .iter()
            .filter(|e| e["kind"] == kind && e["table"] == table)
            .count()
    };
    assert!(
        of("column-positions", "APP.MISMATCHED") > 20,
        "{recovered:?}"
    );
    assert!(of("unescaped-quotes", "APP.QUOTED") > 0, "{recovered:?}");
    assert_eq!(
        of("column-positions", "APP.MISMATCHED") + of("unescaped-quotes", "APP.QUOTED"),
        recovered.len()
    );
}
