//! Debezium's contract end to end: transaction metadata around a live workload's records, and
//! Debezium's `DATABASE.SCHEMA.TABLE` name of a non-CDB's table in a signal.

use crate::capture_support;

use capture_support::*;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::Path;

const SCHEMA: &str = r#"
seed: 7
database:
  name: SHOPDB
tables:
  - name: SHOP.ACCOUNTS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
    primary_key: [ID]
    supplemental_logging: all
    rows: 60
  - name: SHOP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20) }
      - { name: AT, type: TIMESTAMP(6) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 60
"#;

fn args(db: &Path, state: &Path, out: &Path, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = [
        format!("cdc.database.url=emulator:{}", db.display()),
        format!("cdc.state.dir={}", state.display()),
        format!("cdc.sink.dir={}", out.display()),
        "cdc.stream.poll.ms=50".into(),
    ]
    .into_iter()
    .chain(extra.iter().map(|s| s.to_string()))
    .flat_map(|s| ["--set".to_string(), s])
    .collect();
    a.push("-q".into());
    a
}

fn capture_to(a: &[String], scn: u64) {
    let mut all = a.to_vec();
    all.extend(["capture".into(), "--stop-at-scn".into(), scn.to_string()]);
    run(&all.iter().map(String::as_str).collect::<Vec<_>>());
}

/// `cdc.provide.transaction.metadata=true`: each transaction's records are framed by BEGIN and
/// END on `PREFIX.transaction`; END counts the records (tombstones not) in all and per table;
/// the `transaction` block numbers them; and the consumer still converges to the tables.
#[test]
fn transaction_metadata_frames_and_counts_every_transaction() {
    let e = emulated(SCHEMA);
    let a = args(
        &e.db,
        &e.state,
        &e.out,
        &[
            "cdc.snapshot.mode=none",
            "cdc.provide.transaction.metadata=true",
        ],
    );
    let start = current_scn(&e.db);
    capture_to(&a, start);
    run(&[
        "emulator",
        "workload",
        e.db.to_str().unwrap(),
        "--transactions",
        "40",
        "--seed",
        "3",
    ]);
    let end = current_scn(&e.db);
    capture_to(&a, end);
    let recs = records(&e.out);
    let mut open: Option<(String, usize)> = None;
    let mut seen_tx = 0;
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    let mut total = 0u64;
    for (i, r) in recs.iter().enumerate() {
        if r["topic"] == "oracle-cdc.transaction" {
            let v = payload(&r["value"]);
            let id = v["id"].as_str().unwrap().to_string();
            assert_eq!(payload(&r["key"])["id"], id.as_str());
            match v["status"].as_str() {
                Some("BEGIN") => {
                    assert!(open.is_none(), "record {i}: BEGIN inside {open:?}");
                    open = Some((id, i));
                    counts.clear();
                    total = 0;
                }
                Some("END") => {
                    let (begun, _) = open.take().expect("END without BEGIN");
                    assert_eq!(begun, id);
                    assert_eq!(v["event_count"].as_u64(), Some(total), "record {i}");
                    let per: BTreeMap<String, u64> = v["data_collections"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| {
                            (
                                c["data_collection"].as_str().unwrap().to_string(),
                                c["event_count"].as_u64().unwrap(),
                            )
                        })
                        .collect();
                    assert_eq!(per, counts, "record {i}");
                    seen_tx += 1;
                }
                other => panic!("record {i}: status {other:?}"),
            }
            continue;
        }
        let (id, _) = open
            .as_ref()
            .unwrap_or_else(|| panic!("record {i} outside a transaction"));
        if !is_change(r) {
            continue; // a tombstone
        }
        let v = payload(&r["value"]);
        assert_eq!(v["source"]["txId"], id.as_str());
        let table = format!(
            "SHOPDB.{}.{}",
            v["source"]["schema"].as_str().unwrap(),
            v["source"]["table"].as_str().unwrap()
        );
        total += 1;
        let n = counts.entry(table).or_default();
        *n += 1;
        assert_eq!(
            (
                v["transaction"]["id"].as_str(),
                v["transaction"]["total_order"].as_u64(),
                v["transaction"]["data_collection_order"].as_u64()
            ),
            (Some(id.as_str()), Some(total), Some(*n)),
            "record {i}"
        );
        assert!(v["source"]["txSeq"].as_u64().is_some_and(|s| s >= 1));
    }
    assert!(open.is_none(), "a transaction was left open");
    assert!(seen_tx >= 10, "{seen_tx} transactions");
    let changes: Vec<Json> = recs
        .into_iter()
        .filter(|r| r["topic"] != "oracle-cdc.transaction")
        .collect();
    for table in ["SHOP.ACCOUNTS", "SHOP.ORDERS"] {
        let rows = dump(&e.db, table, start);
        let mut base: Vec<Json> = rows
            .into_iter()
            .map(|row| serde_json::json!({"topic": topic_of(table), "key": {"ID": row["ID"]}, "value": {"op": "r", "after": row}}))
            .collect();
        base.extend(changes.iter().cloned());
        assert_converges(&e.db, &base, table, end);
    }
}

fn signal_send(a: &[String], args: &[&str]) -> std::process::Output {
    let mut send = a.to_vec();
    send.extend(["signal", "send"].iter().chain(args).map(|s| s.to_string()));
    std::process::Command::new(assert_cmd::cargo::cargo_bin("oracle-cdc"))
        .args(&send)
        .output()
        .unwrap()
}

/// Debezium reads `data-collections` as regular expressions and takes a blocking snapshot's
/// filter as a whole SELECT: a pattern matches the captured tables (both here), the SELECT's
/// condition narrows the one it names (before: CDC-8101 "not a table name" for the pattern).
/// A SELECT of another table (CDC-8142), of another shape (CDC-8143) and a pattern that
/// matches nothing (CDC-8141) are refused by `signal send`.
#[test]
fn a_signal_takes_debeziums_patterns_and_a_whole_select_filter() {
    let e = emulated(SCHEMA);
    let a = args(&e.db, &e.state, &e.out, &["cdc.snapshot.mode=none"]);
    capture_to(&a, current_scn(&e.db));
    let o = signal_send(
        &a,
        &[
            "execute-snapshot",
            "--tables",
            r"SHOPDB\.SHOP\..*",
            "--type",
            "blocking",
            "--filter",
            r"SHOP\.ORD.*=SELECT * FROM SHOPDB.SHOP.ORDERS WHERE ID <= 10",
            "--id",
            "dbz-pattern",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    capture_to(&a, current_scn(&e.db));
    let recs = records(&e.out);
    let snap = |topic: &str| {
        recs.iter()
            .filter(|r| r["topic"] == topic && payload(&r["value"])["op"] == "r")
            .map(|r| payload(&r["value"])["after"]["ID"].as_i64().unwrap())
            .collect::<std::collections::BTreeSet<_>>()
    };
    assert_eq!(
        snap("oracle-cdc.SHOP.ACCOUNTS").len(),
        60,
        "the pattern matched ACCOUNTS"
    );
    assert_eq!(
        snap("oracle-cdc.SHOP.ORDERS"),
        (1..=10).collect(),
        "the SELECT's condition narrowed ORDERS"
    );
    for (args, code) in [
        (
            vec![
                "execute-snapshot",
                "--tables",
                "SHOP.ORDERS",
                "--type",
                "blocking",
                "--filter",
                "SHOP.ORDERS=SELECT * FROM SHOP.ACCOUNTS WHERE ID > 1",
            ],
            "CDC-8142",
        ),
        (
            vec![
                "execute-snapshot",
                "--tables",
                "SHOP.ORDERS",
                "--type",
                "blocking",
                "--filter",
                "SHOP.ORDERS=SELECT ID FROM SHOP.ORDERS WHERE ID > 1",
            ],
            "CDC-8143",
        ),
        (
            vec!["execute-snapshot", "--tables", r"NOPE\..*"],
            "CDC-8141",
        ),
        (
            vec!["execute-snapshot", "--tables", r"SHOP\.(ORD"],
            "CDC-8140",
        ),
    ] {
        let o = signal_send(&a, &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            o.status.code() == Some(2) && err.contains(code),
            "{args:?}: {err}"
        );
    }
}

/// Outside a CDB Debezium names a table `DATABASE.SCHEMA.TABLE`: `signal send` takes that name
/// (CDC-8102 before: "the database has no table SHOPDB.SHOP.ORDERS"), and capture snapshots
/// `SHOP.ORDERS`; a first part that is not the database's name is still refused.
#[test]
fn a_signal_names_a_non_cdb_table_as_debezium_does() {
    let e = emulated(SCHEMA);
    let a = args(&e.db, &e.state, &e.out, &["cdc.snapshot.mode=none"]);
    let start = current_scn(&e.db);
    capture_to(&a, start);
    let mut send = a.clone();
    send.extend(
        [
            "signal",
            "send",
            "execute-snapshot",
            "--tables",
            "shopdb.SHOP.ORDERS",
            "--id",
            "dbz-name",
        ]
        .map(String::from),
    );
    let o = std::process::Command::new(assert_cmd::cargo::cargo_bin("oracle-cdc"))
        .args(&send)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    capture_to(&a, current_scn(&e.db));
    let recs = records(&e.out);
    let snap: Vec<&Json> = recs
        .iter()
        .filter(|r| payload(&r["value"])["source"]["snapshot"] == "incremental")
        .collect();
    assert_eq!(snap.len(), 60, "every row of SHOP.ORDERS");
    assert!(snap.iter().all(|r| r["topic"] == "oracle-cdc.SHOP.ORDERS"));
    let mut bad = a.clone();
    bad.extend(
        [
            "signal",
            "send",
            "execute-snapshot",
            "--tables",
            "OTHERDB.SHOP.ORDERS",
        ]
        .map(String::from),
    );
    let o = std::process::Command::new(assert_cmd::cargo::cargo_bin("oracle-cdc"))
        .args(&bad)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("CDC-8102"), "{err}");
}

/// TRUNCATE TABLE while a workload runs, captured with `cdc.skipped.operations=none`: each is
/// Debezium's truncate record (`op` `t`, a null key, `before` and `after` null) in the DDL's
/// transaction, with no schema change event; a consumer that drops a table's rows at its
/// truncate record converges to the tables. With the default (`t` skipped, as Debezium's) no
/// truncate record is published.
#[test]
fn a_truncate_is_a_truncate_record_and_the_consumer_converges() {
    let e = emulated(SCHEMA);
    let a = args(
        &e.db,
        &e.state,
        &e.out,
        &[
            "cdc.skipped.operations=none",
            "cdc.provide.transaction.metadata=true",
        ],
    );
    let (state2, out2) = (e.dir.path().join("state2"), e.dir.path().join("out2"));
    let defaults = args(&e.db, &state2, &out2, &[]);
    let start = current_scn(&e.db);
    capture_to(&a, start);
    capture_to(&defaults, start);
    run(&[
        "emulator",
        "workload",
        e.db.to_str().unwrap(),
        "--transactions",
        "60",
        "--rate",
        "0",
        "--truncate-every",
        "13",
        "--seed",
        "5",
    ]);
    let end = current_scn(&e.db);
    capture_to(&a, end);
    capture_to(&defaults, end);
    let recs = records(&e.out);
    let truncates: Vec<&Json> = recs
        .iter()
        .filter(|r| payload(&r["value"])["op"] == "t")
        .collect();
    assert!(!truncates.is_empty(), "no truncate record");
    for (i, r) in recs.iter().enumerate() {
        let v = payload(&r["value"]);
        if v["op"] == "t" {
            assert!(
                r["key"].is_null(),
                "record {i}: a truncate record has no key"
            );
            assert!(v["before"].is_null() && v["after"].is_null(), "record {i}");
            assert_eq!(v["source"]["snapshot"], "false");
            assert!(v["transaction"]["id"].is_string(), "record {i}");
            assert!(
                r["value"]["schema"]["name"]
                    .as_str()
                    .is_some_and(|n| n.ends_with(".Envelope")),
                "record {i}: the table's envelope schema"
            );
        }
        if let Some(ddl) = v["ddl"].as_str() {
            assert!(
                !ddl.to_ascii_lowercase().starts_with("truncate"),
                "record {i}: a schema change event for {ddl}"
            );
        }
    }
    for table in ["SHOP.ACCOUNTS", "SHOP.ORDERS"] {
        assert_converges(&e.db, &recs, table, end);
    }
    let skipped = records(&out2);
    assert!(
        skipped.iter().all(|r| payload(&r["value"])["op"] != "t"),
        "a truncate record despite the default skipped.operations"
    );
    assert_eq!(
        skipped.iter().filter(|r| is_change(r)).count() + truncates.len(),
        recs.iter().filter(|r| is_change(r)).count(),
        "the same records but the truncates"
    );
}
