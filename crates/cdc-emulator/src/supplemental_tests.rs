//! UPDATE and DELETE SQL_REDO under each combination of database- and table-level
//! supplemental logging, and the STATUS of rows written without it.

use super::super::clock::ManualClock;
use super::super::writer::Writer;
use super::{INFO_NO_SUPPLEMENTAL, STATUS_NOT_GUARANTEED};
use crate::types::Value;
use cdc_core::model::{op, LogMinerRow};
use std::sync::Arc;

/// A database with `database` logging and one table `T.X` (ID, CODE NOT NULL, A, B, L LONG,
/// C CLOB) with the given keys and table-level logging.
fn db(database: &str, keys: &str, logging: &str) -> (tempfile::TempDir, Writer) {
    let dir = tempfile::tempdir().unwrap();
    let schema = format!(
        r#"
database:
  supplemental_logging: {database}
tables:
  - name: T.X
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: CODE, type: VARCHAR2(10), nullable: false }}
      - {{ name: A, type: VARCHAR2(10) }}
      - {{ name: B, type: VARCHAR2(10) }}
      - {{ name: L, type: LONG }}
      - {{ name: C, type: CLOB }}
{keys}    supplemental_logging: {logging}
"#
    );
    let path = dir.path().join("in.yaml");
    std::fs::write(&path, schema).unwrap();
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    super::super::init(&dir.path().join("db"), &path, None, clock.clone()).unwrap();
    let w = Writer::open(&dir.path().join("db"), clock, false).unwrap();
    (dir, w)
}

fn t(s: &str) -> Value {
    Value::Text(s.into())
}

/// Insert a row, update A, delete it: the mined DML rows.
fn dml(w: &mut Writer) -> Vec<LogMinerRow> {
    let x = w.begin().unwrap();
    let row = vec![
        Value::Number("1".into()),
        t("c1"),
        t("a"),
        t("b"),
        t("long"),
        t("lob"),
    ];
    let rid = w.insert(x, 0, row).unwrap();
    let first = w.replica().current_scn;
    w.update_set(x, 0, rid, &[(2, t("a2"))]).unwrap();
    w.delete(x, 0, rid).unwrap();
    let c = w.commit(&[x]).unwrap();
    super::super::logminer::mine(
        w.replica(),
        first - 1,
        c,
        i64::MAX / 2,
        &cdc_core::filter::MiningFilter::default(),
    )
    .unwrap()
    .into_iter()
    .filter(|r| matches!(r.operation_code, op::INSERT | op::UPDATE | op::DELETE))
    // The INSERT's small CLOB comes in an UPDATE of its own right after it (lob_redo).
    .filter(|r| !r.sql_redo.contains("set \"C\" = 'lob'"))
    .collect()
}

fn where_of(rows: &[LogMinerRow], code: u32) -> String {
    let sql = &rows
        .iter()
        .find(|r| r.operation_code == code)
        .unwrap()
        .sql_redo;
    sql.split_once(" where ").map_or("", |(_, w)| w).to_string()
}

const PK: &str = "    primary_key: [ID]\n";
const UK: &str = "    unique_keys: [[CODE], [A]]\n";

#[test]
fn minimal_logging_alone_puts_only_the_changed_columns_in_an_update() {
    let (_d, mut w) = db("{ min: true }", PK, "none");
    let rows = dml(&mut w);
    assert_eq!(where_of(&rows, op::UPDATE), "\"A\" = 'a';");
    assert!(rows.iter().all(|r| r.status == 0 && r.info.is_none()));
}

#[test]
fn all_columns_logging_puts_every_column_but_longs_and_lobs_in_an_update() {
    for (database, table) in [
        ("{ min: true }", "all"),
        ("{ min: true, all: true }", "none"),
    ] {
        let (_d, mut w) = db(database, PK, table);
        let rows = dml(&mut w);
        assert_eq!(
            where_of(&rows, op::UPDATE),
            "\"ID\" = '1' and \"CODE\" = 'c1' and \"A\" = 'a' and \"B\" = 'b';",
            "{database} {table}: a LONG is never supplementally logged"
        );
    }
}

#[test]
fn primary_key_logging_falls_back_to_a_not_null_unique_key_then_to_every_column() {
    let cases = [
        (PK, "\"ID\" = '1' and \"A\" = 'a';"),
        // No primary key: the first unique key whose columns are all NOT NULL (CODE, not A).
        (UK, "\"CODE\" = 'c1' and \"A\" = 'a';"),
        // Neither: every column but LONGs and LOBs, as with ALL.
        (
            "",
            "\"ID\" = '1' and \"CODE\" = 'c1' and \"A\" = 'a' and \"B\" = 'b';",
        ),
    ];
    for (keys, want) in cases {
        let (_d, mut w) = db("{ min: true }", keys, "primary_key");
        assert_eq!(where_of(&dml(&mut w), op::UPDATE), want, "table {keys:?}");
        // Database-level PRIMARY KEY logging does the same for every table.
        let (_d, mut w) = db("{ min: false, primary_key: true }", keys, "none");
        assert_eq!(
            where_of(&dml(&mut w), op::UPDATE),
            want,
            "database {keys:?}"
        );
    }
}

#[test]
fn a_delete_holds_the_whole_row_but_its_lobs_whatever_the_logging() {
    for logging in ["none", "primary_key", "all"] {
        let (_d, mut w) = db("{ min: true }", PK, logging);
        assert_eq!(
            where_of(&dml(&mut w), op::DELETE),
            "\"ID\" = '1' and \"CODE\" = 'c1' and \"A\" = 'a2' and \"B\" = 'b' and \"L\" = 'long';"
        );
    }
}

#[test]
fn without_minimal_logging_dml_rows_are_not_guaranteed_accurate() {
    let (_d, mut w) = db("{ min: false }", PK, "all");
    let rows = dml(&mut w);
    assert_eq!(rows.len(), 3);
    for r in &rows {
        assert_eq!(r.status, STATUS_NOT_GUARANTEED, "{}", r.operation);
        assert_eq!(r.info.as_deref(), Some(INFO_NO_SUPPLEMENTAL));
    }
    // Identification key logging implies minimal logging (SUPPLEMENTAL_LOG_DATA_MIN IMPLICIT).
    for database in [
        "{ min: false, all: true }",
        "{ min: false, primary_key: true }",
    ] {
        let (_d, mut w) = db(database, PK, "none");
        assert!(dml(&mut w).iter().all(|r| r.status == 0), "{database}");
        assert!(w.replica().database_info().supplemental_min, "{database}");
    }
}

/// A CDB (12.2+) where PDB1 enabled (ALL) COLUMNS logging itself (`ALTER PLUGGABLE DATABASE
/// ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS`) and PDB2 did not: an UPDATE of PDB1's table logs
/// every column, PDB2's only the changed one; DBA_SUPPLEMENTAL_LOGGING shows each PDB's own.
#[test]
fn pdb_level_all_columns_logging_covers_only_that_pdbs_tables() {
    let dir = tempfile::tempdir().unwrap();
    let table = |name: &str| {
        format!(
            r#"
  - name: {name}
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: CODE, type: VARCHAR2(10), nullable: false }}
      - {{ name: A, type: VARCHAR2(10) }}
      - {{ name: B, type: VARCHAR2(10) }}
      - {{ name: L, type: LONG }}
      - {{ name: C, type: CLOB }}
    primary_key: [ID]
    supplemental_logging: none
"#
        )
    };
    let schema = format!(
        "database:\n  multitenant: true\n  pdbs: [{{ name: PDB1, supplemental_logging: {{ all: true }} }}]\ntables:{}{}",
        table("PDB1.T.X"),
        table("PDB2.T.X")
    );
    let path = dir.path().join("in.yaml");
    std::fs::write(&path, schema).unwrap();
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    super::super::init(&dir.path().join("db"), &path, None, clock.clone()).unwrap();
    let mut w = Writer::open(&dir.path().join("db"), clock, false).unwrap();
    let index = |w: &Writer, pdb: &str| {
        w.replica()
            .tables
            .iter()
            .position(|t| t.def.name.pdb.as_deref() == Some(pdb))
            .unwrap()
    };
    let (p1, p2) = (index(&w, "PDB1"), index(&w, "PDB2"));
    let first = w.replica().current_scn;
    let mut c = first;
    // A transaction changes one container (ORA-65023): one per PDB.
    for i in [p1, p2] {
        let x = w.begin().unwrap();
        let row = vec![
            Value::Number("1".into()),
            t("c1"),
            t("a"),
            t("b"),
            t("long"),
            t("lob"),
        ];
        let rid = w.insert(x, i, row).unwrap();
        w.update_set(x, i, rid, &[(2, t("a2"))]).unwrap();
        c = w.commit(&[x]).unwrap();
    }
    let rows: Vec<LogMinerRow> = super::super::logminer::mine(
        w.replica(),
        first - 1,
        c,
        i64::MAX / 2,
        &cdc_core::filter::MiningFilter::default(),
    )
    .unwrap()
    .into_iter()
    .filter(|r| r.operation_code == op::UPDATE && r.sql_redo.contains("set \"A\""))
    .collect();
    let where_in = |pdb: &str| {
        let r = rows
            .iter()
            .find(|r| r.src_con_name == pdb)
            .unwrap_or_else(|| panic!("no UPDATE of {pdb}: {rows:#?}"));
        r.sql_redo.split_once(" where ").unwrap().1.to_string()
    };
    assert_eq!(
        where_in("PDB1"),
        "\"ID\" = '1' and \"CODE\" = 'c1' and \"A\" = 'a' and \"B\" = 'b';"
    );
    assert_eq!(where_in("PDB2"), "\"A\" = 'a';");
}
