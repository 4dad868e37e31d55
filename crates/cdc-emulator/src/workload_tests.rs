//! Generated values against Oracle's rules, keys across workload runs, and what the writer
//! refuses (ORA-12899, ORA-01438, ORA-00001, ORA-01400, ORA-01407).

use super::super::clock::ManualClock;
use super::super::conform::conform;
use super::super::redo::Redo;
use super::super::writer::Writer;
use super::*;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

fn db(schema: &str) -> (tempfile::TempDir, Arc<ManualClock>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.yaml");
    std::fs::write(&path, schema).unwrap();
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    super::super::init(&dir.path().join("db"), &path, None, clock.clone()).unwrap();
    (dir, clock)
}

fn writer(dir: &tempfile::TempDir, clock: &Arc<ManualClock>) -> Writer {
    Writer::open(&dir.path().join("db"), clock.clone(), false).unwrap()
}

fn options(seed: u64) -> WorkloadOptions {
    WorkloadOptions {
        transactions: Some(150),
        rate: 0,
        mix: (40, 30, 30),
        tx_size: (1, 4),
        rollback_pct: 10,
        savepoint_pct: 10,
        key_update_pct: 20,
        row_move_pct: 0,
        long_every: 0,
        shared_commit_pct: 0,
        seed,
        lob_pct: 0,
        ..WorkloadOptions::default()
    }
}

const KEYED: &str = r#"
tables:
  - name: K.TEXT12
    columns:
      - { name: K, type: VARCHAR2(12), nullable: false }
      - { name: V, type: VARCHAR2(5) }
    primary_key: [K]
    rows: 20
  - name: K.TEXT3
    columns:
      - { name: K, type: VARCHAR2(3), nullable: false }
      - { name: U, type: CHAR(4), nullable: false }
      - { name: V, type: "NUMBER(3,1)" }
    primary_key: [K]
    unique_keys: [[U]]
    rows: 20
  - name: K.DOUBLE
    columns:
      - { name: K, type: BINARY_DOUBLE, nullable: false }
      - { name: V, type: VARCHAR2(5) }
    primary_key: [K]
    rows: 20
  - name: K.TSTZ
    columns:
      - { name: K, type: TIMESTAMP(9) WITH TIME ZONE, nullable: false }
      - { name: R, type: RAW(4), nullable: false }
      - { name: V, type: VARCHAR2(5) }
    primary_key: [K, R]
    rows: 20
  - name: K.DECIMAL
    columns:
      - { name: K, type: "NUMBER(6,2)", nullable: false }
      - { name: I, type: INTERVAL DAY(2) TO SECOND(0), nullable: false }
      - { name: V, type: VARCHAR2(5) }
    primary_key: [K]
    unique_keys: [[I]]
    organization: index_organized
    rows: 20
"#;

/// Every key (primary and unique) any INSERT of the redo wrote, per table and key.
fn inserted_keys(w: &Writer) -> Vec<(usize, usize, String)> {
    let r = w.replica();
    let mut out = Vec::new();
    for rec in r.records.iter() {
        if let Redo::Insert { tab, after, .. } = &**rec {
            let t = &r.tables[*tab as usize];
            let (pk, uks) = t.def.constraints();
            for (k, c) in pk.iter().chain(uks.iter()).enumerate() {
                let key: Vec<String> = c
                    .columns
                    .iter()
                    .map(|n| {
                        let i = t.columns.iter().position(|col| &col.name == n).unwrap();
                        after[i].to_string()
                    })
                    .collect();
                out.push((*tab as usize, k, key.join("|")));
            }
        }
    }
    out
}

#[test]
fn keys_never_repeat_across_workload_runs_of_every_key_type() {
    let (dir, clock) = db(KEYED);
    for run in 0..3 {
        // A writer of its own each time, as separate `emulator workload` processes are.
        let mut w = writer(&dir, &clock);
        let s = Workload::new(&mut w, options(7))
            .unwrap()
            .run(&|| false)
            .unwrap();
        assert!(s.deletes > 0 && s.key_updates > 0, "run {run}: {s:?}");
    }
    let w = writer(&dir, &clock);
    let mut seen = HashSet::new();
    for (tab, key, value) in inserted_keys(&w) {
        assert!(
            seen.insert((tab, key, value.clone())),
            "{} key {key}: {value} inserted twice",
            w.replica().tables[tab].def.name
        );
    }
    // Every stored value is as the column stores it.
    for t in &w.replica().tables {
        for versions in t.rows.values() {
            for row in versions.iter().filter_map(|v| v.row.as_ref()) {
                for (c, v) in t.columns.iter().zip(row.iter()) {
                    assert_eq!(
                        conform(&c.data_type, v.clone()).as_ref(),
                        Ok(v),
                        "{} {}",
                        t.def.name,
                        c.name
                    );
                }
            }
        }
    }
}

const NARROW: &str = r#"
tables:
  - name: N.T
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: C1, type: VARCHAR2(3) }
      - { name: C2, type: CHAR(2) }
      - { name: C3, type: NVARCHAR2(2) }
      - { name: C4, type: NCHAR(1) }
      - { name: N1, type: "NUMBER(3,1)" }
      - { name: N2, type: "NUMBER(2,5)" }
      - { name: N3, type: "NUMBER(5,-2)" }
      - { name: N4, type: "NUMBER(38,30)" }
      - { name: Y, type: INTERVAL YEAR(1) TO MONTH }
      - { name: D, type: INTERVAL DAY(1) TO SECOND(0) }
      - { name: R, type: RAW(2) }
      - { name: V, type: VECTOR(5) }
      - { name: TS, type: TIMESTAMP(0) }
    primary_key: [ID]
    rows: 300
"#;

#[test]
fn generated_values_are_valid_for_their_type_and_length() {
    let (dir, clock) = db(NARROW);
    let w = writer(&dir, &clock);
    let t = &w.replica().tables[0];
    let mut rows = 0;
    for versions in t.rows.values() {
        for row in versions.iter().filter_map(|v| v.row.as_ref()) {
            rows += 1;
            for (c, v) in t.columns.iter().zip(row.iter()) {
                // What the generator made is what Oracle would store, unchanged.
                assert_eq!(
                    conform(&c.data_type, v.clone()).as_ref(),
                    Ok(v),
                    "{} {v:?}",
                    c.name
                );
                if let Value::Vector(x) = v {
                    assert_eq!(x.len(), 5, "VECTOR(5) has 5 dimensions");
                }
                if let (Value::Timestamp(s), "TS") = (v, c.name.as_str()) {
                    assert!(s.ends_with(".000000000"), "TIMESTAMP(0): {s}");
                }
            }
        }
    }
    assert_eq!(rows, 300);
    // A generator that cannot fit the column is refused with the schema.
    let bad = NARROW.replace(
        "{ name: C1, type: VARCHAR2(3) }",
        "{ name: C1, type: VARCHAR2(3), generate: { choice: [ab, abcd] } }",
    );
    let path = dir.path().join("bad.yaml");
    std::fs::write(&path, bad).unwrap();
    let e = super::super::init(&dir.path().join("db2"), &path, None, clock.clone()).unwrap_err();
    assert!(
        e.to_string()
            .contains("choice `abcd` does not fit VARCHAR2(3): ORA-12899"),
        "{e}"
    );
    let bad = NARROW.replace(
        "primary_key: [ID]",
        "primary_key: [ID]\n    unique_keys: [[V]]",
    );
    std::fs::write(&path, bad).unwrap();
    let e = super::super::init(&dir.path().join("db3"), &path, None, clock.clone()).unwrap_err();
    assert!(e.to_string().contains("ORA-02329"), "{e}");
}

const REFUSE: &str = r#"
tables:
  - name: HR.EMP
    columns:
      - { name: ID, type: NUMBER(4), nullable: false }
      - { name: EMAIL, type: VARCHAR2(8) }
      - { name: CODE, type: CHAR(3) }
      - { name: PAY, type: "NUMBER(5,2)" }
      - { name: PHOTO, type: RAW(2) }
    primary_key: [ID]
    unique_keys: [[EMAIL]]
"#;

fn emp(id: &str, email: &str) -> Vec<Value> {
    vec![
        Value::Number(id.into()),
        Value::Text(email.into()),
        Value::Text("a".into()),
        Value::Number("1.005".into()),
        Value::Bytes(vec![1]),
    ]
}

#[test]
fn the_writer_refuses_what_oracle_refuses() {
    let (dir, clock) = db(REFUSE);
    let mut w = writer(&dir, &clock);
    let err = |r: Result<cdc_core::rowid::RowId>| r.unwrap_err().to_string();
    let x = w.begin().unwrap();
    let rid = w.insert(x, 0, emp("1", "a@b")).unwrap();
    // Stored as Oracle stores it: CHAR blank-padded, NUMBER rounded to its scale.
    let stored = w.row(Some(x), 0, rid).unwrap();
    assert_eq!(stored[2], Value::Text("a  ".into()));
    assert_eq!(stored[3], Value::Number("1.01".into()));
    let mut long = emp("2", "a@b.example");
    assert_eq!(
        err(w.insert(x, 0, long.clone())),
        "CDC-5006: ORA-12899: value too large for column \"HR\".\"EMP\".\"EMAIL\" (actual: 11, maximum: 8)"
    );
    long[1] = Value::Text("c@d".into());
    long[4] = Value::Bytes(vec![1, 2, 3]);
    assert!(err(w.insert(x, 0, long)).contains("\"PHOTO\" (actual: 3, maximum: 2)"));
    let mut pay = emp("2", "c@d");
    pay[3] = Value::Number("1000".into());
    assert_eq!(
        err(w.insert(x, 0, pay)),
        "CDC-5006: ORA-01438: value larger than specified precision allowed for this column"
    );
    assert_eq!(
        err(w.insert(x, 0, emp("1", "c@d"))),
        "CDC-5006: ORA-00001: unique constraint (HR.EMP_PK) violated"
    );
    assert_eq!(
        err(w.insert(x, 0, emp("2", "a@b"))),
        "CDC-5006: ORA-00001: unique constraint (HR.EMP_UK1) violated"
    );
    let mut null_id = emp("2", "c@d");
    null_id[0] = Value::Null;
    assert!(err(w.insert(x, 0, null_id))
        .starts_with("CDC-5006: ORA-01400: cannot insert NULL into (\"HR\".\"EMP\".\"ID\")"));
    w.commit(&[x]).unwrap();

    // Another transaction's uncommitted key counts too; NULL unique keys never clash.
    let a = w.begin().unwrap();
    let b = w.begin().unwrap();
    w.insert(a, 0, emp("5", "")).unwrap();
    w.insert(b, 0, emp("6", "")).unwrap();
    assert!(err(w.insert(b, 0, emp("5", "z"))).contains("EMP_PK"));
    let r2 = w.insert(b, 0, emp("7", "x@y")).unwrap();
    assert!(err(w.update_set(b, 0, r2, &[(1, Value::Text("a@b".into()))])).contains("EMP_UK1"));
    assert!(err(w.update_set(b, 0, r2, &[(0, Value::Null)]))
        .contains("ORA-01407: cannot update (\"HR\".\"EMP\".\"ID\") to NULL"));
    // A row may keep its own key, and a deleted key is free again (as in Oracle).
    w.update_set(b, 0, r2, &[(1, Value::Text("x@y".into()))])
        .unwrap();
    w.delete(b, 0, r2).unwrap();
    w.insert(b, 0, emp("7", "x@y")).unwrap();
    w.commit(&[a, b]).unwrap();
    let counts: HashMap<String, usize> = w.replica().tables[0]
        .rows
        .values()
        .filter_map(|v| v.last()?.row.as_ref())
        .fold(HashMap::new(), |mut m, r| {
            *m.entry(r[0].to_string()).or_default() += 1;
            m
        });
    assert!(counts.values().all(|n| *n == 1), "{counts:?}");
}

#[test]
fn a_unique_index_without_a_constraint_is_enforced_and_listed() {
    let (dir, clock) = db(r#"
tables:
  - name: APP.MOVERS
    columns:
      - { name: ID, type: NUMBER(4), nullable: false }
      - { name: REGION, type: VARCHAR2(8), nullable: false }
      - { name: CODE, type: VARCHAR2(8), nullable: false }
    primary_key: [ID]
    unique_indexes: [[REGION, CODE]]
    rows: 20
"#);
    let mut w = writer(&dir, &clock);
    // The workload (and init) write values unique in the index's columns.
    Workload::new(&mut w, options(7))
        .unwrap()
        .run(&|| false)
        .unwrap();
    let rows: Vec<Vec<Value>> = w.replica().tables[0]
        .rows
        .values()
        .filter_map(|v| v.last()?.row.as_ref().map(|r| r.to_vec()))
        .collect();
    let pairs: HashSet<(String, String)> = rows
        .iter()
        .map(|r| (r[1].to_string(), r[2].to_string()))
        .collect();
    assert!(rows.len() > 3);
    assert_eq!(pairs.len(), rows.len(), "every (REGION, CODE) once");
    // ORA-00001 names the index, as Oracle does for a unique index of its own.
    let x = w.begin().unwrap();
    let mut copy = rows[0].clone();
    copy[0] = Value::Number("9999".into());
    assert_eq!(
        w.insert(x, 0, copy.clone()).unwrap_err().to_string(),
        "CDC-5006: ORA-00001: unique constraint (APP.MOVERS_UX1) violated"
    );
    copy[2] = Value::Text("other".into());
    w.insert(x, 0, copy).unwrap();
    w.commit(&[x]).unwrap();
    // ALL_INDEXES lists it after the primary key's own index; ALL_CONSTRAINTS does not.
    let info = w.replica().tables[0].info();
    let names: Vec<(&str, Vec<&str>)> = info
        .unique_indexes
        .iter()
        .map(|k| {
            (
                k.name.as_str(),
                k.columns.iter().map(|c| c.as_str()).collect(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("MOVERS_PK", vec!["ID"]),
            ("MOVERS_UX1", vec!["REGION", "CODE"])
        ]
    );
    assert!(info.unique_keys.is_empty());
}

/// A workload over tables stored in a cluster: TRUNCATE goes to the table of its own (Oracle
/// refuses one table of a cluster, ORA-03292), CREATE TABLE copies the first table's layout
/// into a table of its own, and updates and deletes find the clustered tables' rows in the
/// cluster's extents.
#[test]
fn a_workload_runs_over_clustered_tables() {
    let (dir, clock) = db(r#"
tables:
  - name: APP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: C, type: VARCHAR2(20) }
    primary_key: [ID]
    cluster: ORDERS_CLU
    rows: 40
  - name: APP.LINES
    columns:
      - { name: ORDER_ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20) }
    cluster: ORDERS_CLU
    rows: 60
  - name: APP.PLAIN
    columns:
      - { name: A, type: NUMBER(10) }
    rows: 10
"#);
    let mut w = writer(&dir, &clock);
    let opts = WorkloadOptions {
        create_table_every: 50,
        truncate_every: 40,
        move_every: 30,
        ..options(9)
    };
    let summary = Workload::new(&mut w, opts).unwrap().run(&|| false).unwrap();
    assert!(
        summary.truncates > 0 && summary.tables_created > 0 && summary.moves > 0,
        "{summary:?}"
    );
    assert!(summary.updates > 0 && summary.deletes > 0, "{summary:?}");
    let r = w.replica();
    for t in &r.tables {
        let clustered = ["ORDERS", "LINES"].contains(&t.def.name.table.as_str());
        assert_eq!(t.def.cluster.is_some(), clustered, "{}", t.def.name);
        if clustered {
            assert!(
                t.former_segments.is_empty(),
                "{} truncated or moved",
                t.def.name
            );
        }
    }
}
