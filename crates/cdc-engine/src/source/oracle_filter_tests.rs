//! The LogMiner query's WHERE clause built from capture's mining filter (`capture::filter`):
//! the adapter's `sql::logmnr_contents` against the filter settings make, and the emulator's
//! `MiningFilter::keeps` against that SQL. Here, as they need the engine's settings and capture.

use crate::source::oracle::sql::{logmnr_contents, LOGMNR_CONTENTS};
use crate::types::Value;

fn capture_filter() -> cdc_core::filter::MiningFilter {
    let settings = crate::settings::Settings::from_pairs(&[
        "cdc.tables.include=PDB1.HR.*,PDB1.APP*.ORDERS",
        "cdc.signal.enabled.channels=source",
        "cdc.signal.data.collection=PDB1.OPS.SIGNALS",
    ])
    .unwrap();
    crate::capture::filter::mining_filter(&settings, true)
}

const CONTENTS_FILTER: &str = " AND OPERATION_CODE IN (0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 29, 34, 36, 68, 70, 71, 91, 92, 93, 255) \
AND (OPERATION_CODE <> 5 OR INFO IS NULL OR INFO NOT LIKE 'INTERNAL DDL%') \
AND (TABLE_NAME IS NULL OR TABLE_NAME NOT LIKE 'MLOG$%') \
AND (OPERATION_CODE <> 0 OR ROW_ID <> 'AAAAAAAAAAAAAAAAAA') \
AND (SEG_OWNER IS NULL OR UPPER(SEG_OWNER) IN (:owner1) OR UPPER(SEG_OWNER) LIKE :owner2 ESCAPE '\\' \
OR (SEG_OWNER = 'UNKNOWN' AND TABLE_NAME LIKE 'OBJ# %') \
OR (SEG_OWNER = :table_owner1 AND TABLE_NAME = :table_name1)) \
AND (UPPER(SRC_CON_NAME) IN (:pdb1))";

#[test]
fn logminer_contents_carries_the_mining_filter_with_binds() {
    let s = logmnr_contents(&capture_filter(), 100, 200);
    assert_eq!(s.text, format!("{LOGMNR_CONTENTS}{CONTENTS_FILTER}"));
    let text = |v: &str| Value::Text(v.into());
    assert_eq!(
        s.binds,
        vec![
            ("startscn".to_string(), Value::Number("100".into())),
            ("endscn".into(), Value::Number("200".into())),
            ("owner1".into(), text("HR")),
            ("owner2".into(), text("APP%")),
            ("table_owner1".into(), text("OPS")),
            ("table_name1".into(), text("SIGNALS")),
            ("pdb1".into(), text("PDB1")),
        ]
    );
    // No filter: the plain select. Capturing every table: every owner but Oracle's own, as
    // literals.
    let plain = logmnr_contents(&Default::default(), 1, 2);
    assert_eq!(plain.text, LOGMNR_CONTENTS);
    assert_eq!(plain.binds.len(), 2);
    let all = crate::capture::filter::mining_filter(
        &crate::settings::Settings::from_pairs::<&str>(&[]).unwrap(),
        false,
    );
    let s = logmnr_contents(&all, 1, 2);
    assert!(
        s.text.ends_with(
            " AND (SEG_OWNER IS NULL OR SEG_OWNER NOT IN ('APPQOSSYS', 'AUDSYS', 'CTXSYS', 'DBSFWUSER', 'DBSNMP', 'DVSYS', 'GGSHAREDCAP', 'GSMADMIN_INTERNAL', 'LBACSYS', 'MDSYS', 'OJVMSYS', 'OLAPSYS', 'ORDDATA', 'ORDSYS', 'OUTLN', 'SYS', 'SYSTEM', 'VECSYS', 'WMSYS', 'XDB'))"
        ),
        "{}",
        s.text
    );
    assert_eq!(s.binds.len(), 2);
    // Over 1000 owners: IN lists of at most 1000 (ORA-01795), ORed.
    let many = cdc_core::filter::MiningFilter {
        owners: cdc_core::filter::Owners::Only(
            (0..1500)
                .map(|i| cdc_core::filter::NameMatch::Equals(format!("U{i}")))
                .collect(),
        ),
        ..Default::default()
    };
    let s = logmnr_contents(&many, 1, 2);
    assert_eq!(s.text.matches("UPPER(SEG_OWNER) IN (").count(), 2);
    assert!(s
        .text
        .contains(":owner1000) OR UPPER(SEG_OWNER) IN (:owner1001, "));
}

/// Rows of each kind against the predicate pinned above ([`CONTENTS_FILTER`]): the emulator's
/// `MiningFilter::keeps` keeps exactly what the SQL would, NULLs included.
#[test]
fn each_kind_of_row_is_kept_or_dropped_as_the_sql_would() {
    use cdc_core::model::op;
    let f = capture_filter();
    let row =
        |code: u32, owner: Option<&str>, table: Option<&str>, info: Option<&str>, con: &str| {
            f.keeps_parts(code, info, owner, table, con)
        };
    let user_ddl = Some("USER DDL (PlSql=0 RecDep=0)");
    let internal = Some("INTERNAL DDL (PlSql=0 RecDep=0)");
    let cases: [(&str, bool, bool); 23] = [
        // START/COMMIT/ROLLBACK: SEG_OWNER and TABLE_NAME NULL, SRC_CON_NAME the PDB.
        (
            "START in PDB1",
            row(op::START, None, None, None, "PDB1"),
            true,
        ),
        (
            "COMMIT in PDB1",
            row(op::COMMIT, None, None, None, "PDB1"),
            true,
        ),
        (
            "ROLLBACK in PDB1",
            row(op::ROLLBACK, None, None, None, "PDB1"),
            true,
        ),
        (
            "COMMIT in PDB2: SRC_CON_NAME",
            row(op::COMMIT, None, None, None, "PDB2"),
            false,
        ),
        (
            "COMMIT in CDB$ROOT",
            row(op::COMMIT, None, None, None, "CDB$ROOT"),
            false,
        ),
        (
            "INSERT HR.EMP",
            row(op::INSERT, Some("HR"), Some("EMP"), None, "PDB1"),
            true,
        ),
        (
            "UPDATE of a quoted lower-case owner: UPPER",
            row(op::UPDATE, Some("hr"), Some("x"), None, "PDB1"),
            true,
        ),
        (
            "DELETE APP7.ORDERS: LIKE 'APP%'",
            row(op::DELETE, Some("APP7"), Some("ORDERS"), None, "PDB1"),
            true,
        ),
        (
            "LOB_WRITE HR.EMP",
            row(op::LOB_WRITE, Some("HR"), Some("EMP"), None, "PDB1"),
            true,
        ),
        (
            "user DDL of HR",
            row(op::DDL, Some("HR"), Some("NEW_T"), user_ddl, "PDB1"),
            true,
        ),
        (
            "DDL with INFO NULL: INFO IS NULL",
            row(op::DDL, Some("HR"), Some("T"), None, "PDB1"),
            true,
        ),
        (
            "internal DDL of HR",
            row(op::DDL, Some("HR"), Some("EMP"), internal, "PDB1"),
            false,
        ),
        (
            "INSERT HR.MLOG$_EMP",
            row(op::INSERT, Some("HR"), Some("MLOG$_EMP"), None, "PDB1"),
            false,
        ),
        (
            "UPDATE SYS.SEQ$",
            row(op::UPDATE, Some("SYS"), Some("SEQ$"), None, "PDB1"),
            false,
        ),
        (
            "INSERT BATCH.JOBS: owner",
            row(op::INSERT, Some("BATCH"), Some("JOBS"), None, "PDB1"),
            false,
        ),
        (
            "INSERT OPS.SIGNALS: the signal table",
            row(op::INSERT, Some("OPS"), Some("SIGNALS"), None, "PDB1"),
            true,
        ),
        (
            "MISSING_SCN: reported, so mined",
            row(op::MISSING_SCN, None, None, None, "PDB1"),
            true,
        ),
        (
            "SELECT_FOR_UPDATE of HR: OPERATION_CODE",
            row(op::SELECT_FOR_UPDATE, Some("HR"), Some("EMP"), None, "PDB1"),
            false,
        ),
        (
            "UNSUPPORTED of HR",
            row(op::UNSUPPORTED, Some("HR"), Some("EMP"), None, "PDB1"),
            true,
        ),
        (
            "XML DOC WRITE of HR",
            row(op::XML_WRITE, Some("HR"), Some("EMP"), None, "PDB1"),
            true,
        ),
        (
            "INSERT of an object the dictionary does not know: the UNKNOWN arm",
            row(
                op::INSERT,
                Some("UNKNOWN"),
                Some("OBJ# 73001"),
                None,
                "PDB1",
            ),
            true,
        ),
        (
            "an unknown object in another PDB: SRC_CON_NAME",
            row(
                op::UPDATE,
                Some("UNKNOWN"),
                Some("OBJ# 73001"),
                None,
                "PDB2",
            ),
            false,
        ),
        (
            "a table of a schema named UNKNOWN: owner",
            row(op::INSERT, Some("UNKNOWN"), Some("ORDERS"), None, "PDB1"),
            false,
        ),
    ];
    // INTERNAL rows only with a row's own ROW_ID (they have no owner or table).
    let internal_row = |rid: &str| cdc_core::model::LogMinerRow {
        operation_code: op::INTERNAL,
        row_id: rid.into(),
        src_con_name: "PDB1".into(),
        ..Default::default()
    };
    assert!(f.keeps(&internal_row("AAAR0oAAEAAAACAAAA")));
    assert!(!f.keeps(&internal_row(cdc_core::rowid::LOB_ROWID)));
    for (what, kept, expected) in cases {
        assert_eq!(kept, expected, "{what}");
    }
}
