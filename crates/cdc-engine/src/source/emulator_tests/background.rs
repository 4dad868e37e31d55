//! The emulated V$LOGMNR_CONTENTS holds what a real one does besides the application's rows
//! (oracle-facts §8, "Filtering"): SYS transactions, internal DDL, materialized view logs and
//! other users' transactions; and a mining filter returns exactly the rows it keeps.

use crate::names::TableName;
use crate::source::emulator::clock::ManualClock;
use crate::source::emulator::workload::{Workload, WorkloadOptions};
use crate::source::emulator::writer::Writer;
use crate::source::emulator::*;
use crate::source::*;
use cdc_core::filter::MiningFilter;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const SCHEMA: &str = r#"
seed: 3
database:
  multitenant: true
  workload_user: SHOP
tables:
  - name: PDB1.SHOP.ACCOUNTS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
    primary_key: [ID]
    materialized_view_log: true
    rows: 20
  - name: PDB1.BATCH.JOBS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: STATE, type: VARCHAR2(10), generate: { choice: [queued, running, done] } }
    primary_key: [ID]
    background_transactions: 2
    rows: 10
  - name: PDB2.SHOP.ITEMS
    columns:
      - { name: K, type: VARCHAR2(12), nullable: false }
      - { name: NAME, type: VARCHAR2(20) }
    primary_key: [K]
    rows: 10
"#;

struct Db {
    dir: tempfile::TempDir,
    clock: ManualClock,
}

impl Db {
    fn new(schema: &str) -> Db {
        let dir = tempfile::tempdir().unwrap();
        let schema_path = dir.path().join("in.yaml");
        std::fs::write(&schema_path, schema).unwrap();
        let clock = ManualClock::new(1_700_000_000_000);
        init(
            &dir.path().join("db"),
            &schema_path,
            None,
            Arc::new(clock.clone()),
        )
        .unwrap();
        Db { dir, clock }
    }
    fn path(&self) -> PathBuf {
        self.dir.path().join("db")
    }
    fn workload(&self, transactions: u64, seed: u64) -> Scn {
        self.workload_on(transactions, seed, &[])
    }
    fn workload_on(&self, transactions: u64, seed: u64, tables: &[TableName]) -> Scn {
        let mut w = Writer::open(&self.path(), Arc::new(self.clock.clone()), false).unwrap();
        let o = WorkloadOptions {
            transactions: Some(transactions),
            rate: 0,
            tx_size: (1, 4),
            rollback_pct: 10,
            savepoint_pct: 10,
            key_update_pct: 0,
            row_move_pct: 0,
            long_every: 0,
            shared_commit_pct: 0,
            tables: tables.to_vec(),
            seed,
            lob_pct: 0,
            ..WorkloadOptions::default()
        };
        Workload::new(&mut w, o).unwrap().run(&|| false).unwrap();
        w.replica().current_scn
    }
    fn mine(&self, filter: &MiningFilter) -> Vec<LogMinerRow> {
        let c = EmulatorConnector::open_with_clock(
            &self.path(),
            Faults::default(),
            Arc::new(self.clock.clone()),
        )
        .unwrap();
        let mut s = c.emulator_session().unwrap();
        let end = s.current_scn().unwrap();
        let mut rows = Vec::new();
        s.mine(1_000_000, end, filter, &mut |r| {
            rows.push(r);
            Ok(())
        })
        .unwrap();
        rows
    }
}

/// Rows by XID, in redo order.
fn by_xid(rows: &[LogMinerRow]) -> BTreeMap<String, Vec<&LogMinerRow>> {
    let mut m: BTreeMap<String, Vec<&LogMinerRow>> = BTreeMap::new();
    for r in rows {
        m.entry(r.xid.clone()).or_default().push(r);
    }
    m
}

#[test]
fn the_view_holds_sys_transactions_internal_ddl_mview_logs_and_other_users() {
    let db = Db::new(SCHEMA);
    db.workload(200, 7);
    let rows = db.mine(&MiningFilter::default());
    let txs = by_xid(&rows);

    // SYS's dictionary DML: transactions of their own, USERNAME SYS on every row, SEG_OWNER SYS.
    let sys_tables: BTreeSet<&str> = rows
        .iter()
        .filter(|r| r.seg_owner.as_deref() == Some("SYS") && r.operation_code != op::DDL)
        .map(|r| r.table_name.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(
        sys_tables,
        BTreeSet::from(["COL_USAGE$", "MON_MODS_ALL$", "SEQ$"]),
        "every kind of SYS change appears"
    );
    let sys_txs: Vec<&Vec<&LogMinerRow>> = txs
        .values()
        .filter(|t| t.iter().any(|r| r.seg_owner.as_deref() == Some("SYS")))
        .collect();
    assert!(sys_txs.len() >= 40, "{} SYS transactions", sys_txs.len());
    for t in &sys_txs {
        assert!(t.iter().all(|r| r.username == "SYS"), "{t:?}");
        let codes: Vec<u32> = t.iter().map(|r| r.operation_code).collect();
        assert_eq!(codes.first(), Some(&op::START));
        assert_eq!(codes.last(), Some(&op::COMMIT));
        assert!(t[0].seg_owner.is_none() && t[0].table_name.is_none());
        // SQL_REDO in LogMiner's own form, which the decoder reads.
        for r in t.iter().filter(|r| matches!(r.operation_code, 1..=3)) {
            assert!(
                r.sql_redo.starts_with("update \"SYS\".\"")
                    || r.sql_redo
                        .starts_with("insert into \"SYS\".\"MON_MODS_ALL$\"("),
                "{}",
                r.sql_redo
            );
            crate::stream::parse::parse_dml(&r.sql_redo).unwrap();
            assert_eq!(r.row_id.len(), 18);
        }
    }
    let seq = rows
        .iter()
        .find(|r| r.table_name.as_deref() == Some("SEQ$"))
        .unwrap();
    assert!(
        seq.sql_redo
            .starts_with("update \"SYS\".\"SEQ$\" set \"HIGHWATER\" = '"),
        "{}",
        seq.sql_redo
    );

    // Oracle's internal DDL: INFO `INTERNAL DDL…`, run by SYS, on SYS objects and on
    // schema tables.
    let internal: Vec<&LogMinerRow> = rows
        .iter()
        .filter(|r| r.operation_code == op::DDL)
        .collect();
    assert!(internal.len() >= 3, "{internal:?}");
    for r in &internal {
        assert!(
            r.info.as_deref().unwrap().starts_with("INTERNAL DDL"),
            "{r:?}"
        );
        assert_eq!(r.username, "SYS");
    }

    // The materialized view log: an MLOG$_ACCOUNTS row after each change to ACCOUNTS, in the
    // same transaction.
    let mut logged = 0;
    for t in txs.values() {
        for (i, r) in t.iter().enumerate() {
            let dml = matches!(r.operation_code, op::INSERT | op::UPDATE | op::DELETE);
            if r.table_name.as_deref() == Some("ACCOUNTS") && dml && r.rollback == 0 {
                let next = t[i + 1];
                assert_eq!(
                    next.table_name.as_deref(),
                    Some("MLOG$_ACCOUNTS"),
                    "{:#?}",
                    &t[i..(i + 3).min(t.len())]
                );
                assert_eq!(next.seg_owner.as_deref(), Some("SHOP"));
                assert_eq!(next.operation_code, op::INSERT);
                let kind = match r.operation_code {
                    op::INSERT => "'I','N'",
                    op::DELETE => "'D','O'",
                    _ => "'U','U'",
                };
                assert!(next.sql_redo.contains(kind), "{}", next.sql_redo);
                assert!(next.sql_redo.contains("TO_DATE('4000-01-01 00:00:00'"));
                logged += 1;
            }
        }
    }
    assert!(logged > 50, "{logged}");

    // Another user's transactions on its own schema: USERNAME BATCH, rows of BATCH.JOBS only.
    let batch: Vec<&Vec<&LogMinerRow>> =
        txs.values().filter(|t| t[0].username == "BATCH").collect();
    assert!(batch.len() >= 300, "{}", batch.len());
    for t in &batch {
        assert!(t
            .iter()
            .all(|r| r.table_name.is_none() || r.table_name.as_deref() == Some("JOBS")));
    }
    // The workload's own transactions still run as the workload user.
    assert!(txs.values().any(|t| t[0].username == "SHOP"));

    // A transaction stays in one container: SYS's run in the PDB of the object they are about.
    for t in txs.values() {
        let cons: BTreeSet<&str> = t.iter().map(|r| r.src_con_name.as_str()).collect();
        assert_eq!(cons.len(), 1, "{t:?}");
    }
    assert!(sys_txs.iter().any(|t| t[0].src_con_name == "PDB2"));
}

#[test]
fn background_activity_leaves_the_workload_transactions_and_table_rows_alone() {
    // The same seed makes the same application changes with or without background activity.
    let quiet = SCHEMA
        .replace("    materialized_view_log: true\n", "")
        .replace("    background_transactions: 2\n", "")
        .replace(
            "  workload_user: SHOP\n",
            "  workload_user: SHOP\n  background: { sys_every: 0, internal_ddl_every: 0 }\n",
        );
    let (busy, calm) = (Db::new(SCHEMA), Db::new(&quiet));
    // The workload leaves the busy table to its owner (changes of its own to BATCH.JOBS would
    // draw differently on a table the owner's transactions also change).
    let shop_tables = ["PDB1.SHOP.ACCOUNTS", "PDB2.SHOP.ITEMS"].map(|t| t.parse().unwrap());
    busy.workload_on(60, 11, &shop_tables);
    calm.workload_on(60, 11, &shop_tables);
    let shop = |db: &Db| -> Vec<String> {
        db.mine(&MiningFilter::default())
            .into_iter()
            .filter(|r| {
                r.seg_owner.as_deref() == Some("SHOP")
                    && !r.table_name.as_deref().unwrap_or("").starts_with("MLOG$")
            })
            .map(|r| r.sql_redo)
            .collect()
    };
    let (a, b) = (shop(&busy), shop(&calm));
    assert!(!a.is_empty());
    assert_eq!(a, b);
    assert!(calm
        .mine(&MiningFilter::default())
        .iter()
        .all(|r| r.username == "SHOP"));
}

type RowTest = dyn Fn(&LogMinerRow) -> bool;

/// The filter is applied as the query's WHERE clause: the rows mined with it are exactly the
/// unfiltered rows it keeps, each kind kept or dropped as the predicate says.
#[test]
fn a_filtered_window_is_the_unfiltered_one_with_the_predicate_applied() {
    let db = Db::new(SCHEMA);
    db.workload(120, 5);
    let settings =
        crate::settings::Settings::from_pairs(&["cdc.tables.include=PDB1.SHOP.*"]).unwrap();
    let filter = crate::capture::filter::mining_filter(&settings, true);
    let all = db.mine(&MiningFilter::default());
    let filtered = db.mine(&filter);
    let expected: Vec<LogMinerRow> = all.iter().filter(|r| filter.keeps(r)).cloned().collect();
    assert_eq!(filtered, expected);
    assert!(
        filtered.len() * 2 < all.len(),
        "{} of {}",
        filtered.len(),
        all.len()
    );
    let kept = |f: &dyn Fn(&LogMinerRow) -> bool| filtered.iter().any(f);
    let there = |f: &dyn Fn(&LogMinerRow) -> bool| all.iter().any(f);
    // Kept: the captured schema's DML, its transactions' START/COMMIT/ROLLBACK.
    let captured = |r: &LogMinerRow| r.table_name.as_deref() == Some("ACCOUNTS");
    assert!(kept(&captured));
    for code in [op::START, op::COMMIT, op::ROLLBACK] {
        assert!(kept(
            &|r: &LogMinerRow| r.operation_code == code && r.src_con_name == "PDB1"
        ));
    }
    // Dropped: SYS, the other user's schema, the other PDB, the mview log, internal DDL.
    let dropped: [(&str, &RowTest); 5] = [
        ("SYS", &|r| r.seg_owner.as_deref() == Some("SYS")),
        ("BATCH", &|r| r.seg_owner.as_deref() == Some("BATCH")),
        ("PDB2", &|r| r.src_con_name == "PDB2"),
        ("MLOG$", &|r| {
            r.table_name
                .as_deref()
                .is_some_and(|t| t.starts_with("MLOG$"))
        }),
        ("internal DDL", &|r| r.operation_code == op::DDL),
    ];
    for (what, f) in dropped {
        assert!(there(f), "{what} rows are in the view");
        assert!(!kept(f), "{what} rows are filtered out");
    }
}

#[test]
fn tables_of_oracle_schemas_are_refused() {
    let schema =
        "tables:\n  - name: SYS.MY_TABLE\n    columns:\n      - { name: ID, type: NUMBER }\n";
    let e = schema::SchemaFile::parse(Path::new("s.yaml"), schema).unwrap_err();
    assert!(
        e.to_string().contains("SYS is a schema Oracle maintains"),
        "{e}"
    );
}
