//! Capture through the transient LogMiner errors (ORA-01284, ORA-00308 and ORA-01307 during
//! mining, ORA-00310 beside them) and ORA-22924 on snapshot reads, with the emulator's fault
//! drills: every change is published exactly once and the tables converge.

mod capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use std::process::Command;

const SCHEMA: &str = r#"
seed: 8
tables:
  - name: SHOP.ACCOUNTS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
      - { name: NOTE, type: CLOB }
    primary_key: [ID]
    supplemental_logging: all
    rows: 200
  - name: SHOP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20) }
      - { name: QTY, type: NUMBER(5) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 150
"#;

const TABLES: [&str; 2] = ["SHOP.ACCOUNTS", "SHOP.ORDERS"];

fn settings(e: &Emulated, extra: &[&str]) -> Vec<String> {
    [
        format!("cdc.database.url=emulator:{}", e.db.display()),
        format!("cdc.state.dir={}", e.state.display()),
        format!("cdc.sink.dir={}", e.out.display()),
        "cdc.stream.poll.ms=20".into(),
    ]
    .into_iter()
    .chain(extra.iter().map(|s| s.to_string()))
    .flat_map(|s| ["--set".to_string(), s])
    .chain(["-q".to_string()])
    .collect()
}

fn capture(e: &Emulated, extra: &[&str], stop_at: u64) -> String {
    let mut args = settings(e, extra);
    args.extend([
        "capture".into(),
        "--stop-at-scn".into(),
        stop_at.to_string(),
    ]);
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(o.status.success(), "{err}");
    err
}

#[test]
fn windows_failing_with_ora_01284_00308_01307_are_mined_again_whole() {
    let e = emulated(SCHEMA);
    let start = current_scn(&e.db);
    capture(&e, &["cdc.snapshot.mode=none"], start);
    run(&[
        "emulator",
        "workload",
        e.db.to_str().unwrap(),
        "--transactions",
        "150",
        "--seed",
        "3",
    ]);
    let end = current_scn(&e.db);
    // Windows of 100 SCNs; the 2nd fails at ADD_LOGFILE (ORA-01284), the 3rd half-way
    // (ORA-00308), the 4th and 5th at the query (ORA-01307: twice in a row), the 7th with ORA-00310.
    capture(
        &e,
        &[
            "cdc.snapshot.mode=none",
            "cdc.stream.window.scn=100",
            "cdc.emulator.fault.ora01284.mines=2",
            "cdc.emulator.fault.ora00308.mines=3",
            "cdc.emulator.fault.ora01307.mines=4,5",
            "cdc.emulator.fault.ora00310.mines=7",
        ],
        end,
    );
    let recs = records(&e.out);
    assert!(recs.len() > 150);
    assert_exactly_once(&recs);
    assert_scn_order(&recs);
    // The changes since the start replayed on the rows at the start give the tables at the end:
    // nothing lost, nothing twice.
    let mut base = recs.clone();
    for table in TABLES {
        for row in dump(&e.db, table, start) {
            base.insert(
                0,
                serde_json::json!({"topic": format!("oracle-cdc.{table}"), "key": {"ID": row["ID"]}, "value": {"op": "r", "after": row}}),
            );
        }
    }
    for table in TABLES {
        assert_converges(&e.db, &base, table, end);
    }
}

#[test]
fn a_snapshot_read_failing_with_ora_22924_is_read_again_halved() {
    let e = emulated(SCHEMA);
    let end = current_scn(&e.db);
    capture(
        &e,
        &[
            "cdc.snapshot.chunk.rows=2000",
            "cdc.snapshot.threads=1",
            "cdc.emulator.fault.ora22924.reads=1,3",
        ],
        end,
    );
    let recs = records(&e.out);
    assert_exactly_once(&recs);
    for table in TABLES {
        assert_converges(&e.db, &recs, table, end);
    }
    let retries: Vec<_> = events(&e.state)
        .into_iter()
        .filter(|v| v["event"] == "snapshot-chunk-retry")
        .collect();
    assert_eq!(retries.len(), 2, "{retries:?}");
    assert!(retries
        .iter()
        .all(|r| r["code"] == "CDC-5012" && r["action"] == "halve"));
}
