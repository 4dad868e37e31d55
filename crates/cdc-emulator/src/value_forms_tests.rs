//! What LogMiner writes for the value forms of issue 35 (items 5, 9, 15), as the emulator
//! renders them: the UNSUPPORTED rows of 23ai's BOOLEAN and VECTOR tables and of BFILE tables,
//! LONG values past the inline threshold, and the LOB forms of BASICFILE storage.

use super::tests::{mine, Db};
use crate::types::Value;
use cdc_core::model::{op, LogMinerRow};
use cdc_core::session::Connector;

const TYPES: &str = r#"
seed: 3
database:
  start_scn: 5000
tables:
  - name: APP.FLAGS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: ON_OFF, type: BOOLEAN }
      - { name: EMBEDDING, type: VECTOR(3) }
    primary_key: [ID]
    supplemental_logging: all
  - name: APP.DOCS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: FILE, type: BFILE }
    primary_key: [ID]
    supplemental_logging: all
  - name: APP.NOTES
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: BODY, type: LONG }
    primary_key: [ID]
    supplemental_logging: all
"#;

fn num(n: i64) -> Value {
    Value::Number(n.to_string().into())
}

fn dml(rows: Vec<LogMinerRow>, table: &str) -> Vec<LogMinerRow> {
    rows.into_iter()
        .filter(|r| r.table_name.as_deref() == Some(table))
        .collect()
}

/// Every change of a table with a BOOLEAN, VECTOR or BFILE column is one UNSUPPORTED row
/// (OPERATION_CODE 255) with the table, the ROW_ID and SQL_REDO `Unsupported`, never a
/// statement with `Unsupported Type` in the value's place. (Before, the row's SQL_REDO was
/// empty.)
#[test]
fn boolean_vector_and_bfile_tables_are_unsupported_rows() {
    let db = Db::new(TYPES);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    let flag = w
        .insert(
            x,
            0,
            vec![
                num(1),
                Value::Boolean(true),
                Value::Vector(vec![1.0, 2.0, 3.0]),
            ],
        )
        .unwrap();
    w.update_set(x, 0, flag, &[(1, Value::Boolean(false))])
        .unwrap();
    let doc = w
        .insert(x, 1, vec![num(1), Value::bfile("DATA_DIR", "a.pdf")])
        .unwrap();
    w.delete(x, 1, doc).unwrap();
    let c = w.commit(&[x]).unwrap();
    let mut s = db.connector().connect().unwrap();
    let rows = mine(&mut *s, 5000, c);
    for table in ["FLAGS", "DOCS"] {
        let rows = dml(rows.clone(), table);
        assert_eq!(rows.len(), 2, "{table}: {rows:?}");
        for r in rows {
            assert_eq!(
                (r.operation_code, r.operation.as_str()),
                (op::UNSUPPORTED, "UNSUPPORTED")
            );
            assert_eq!(r.sql_redo, "Unsupported");
            assert_eq!(r.seg_owner.as_deref(), Some("APP"));
            assert_eq!(r.row_id.len(), 18);
        }
    }
}

/// A LONG value is in the statement while short; past the inline threshold LogMiner writes
/// the text 'LONG DATA' in its place (Debezium DBZ-3605). (Before, the emulator wrote every
/// LONG value inline, so a long one never showed the form capture must refuse.)
#[test]
fn long_values_past_the_threshold_are_written_as_long_data() {
    let db = Db::new(TYPES);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    let short = w
        .insert(x, 2, vec![num(1), Value::Text("short note".into())])
        .unwrap();
    w.update_set(x, 2, short, &[(1, Value::Text("n".repeat(5000).into()))])
        .unwrap();
    let c = w.commit(&[x]).unwrap();
    let mut s = db.connector().connect().unwrap();
    let rows: Vec<LogMinerRow> = dml(mine(&mut *s, 5000, c), "NOTES")
        .into_iter()
        .filter(|r| r.operation_code != op::UNSUPPORTED)
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(
        rows[0].sql_redo.contains("'short note'"),
        "{}",
        rows[0].sql_redo
    );
    assert!(
        rows[1].sql_redo.contains("set \"BODY\" = 'LONG DATA'"),
        "{}",
        rows[1].sql_redo
    );
    assert!(!rows[1].sql_redo.contains("nnnn"));
}

const LOBS: &str = r#"
seed: 3
database:
  start_scn: 5000
tables:
  - name: APP.SECURE
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: BODY, type: CLOB }
    primary_key: [ID]
    supplemental_logging: all
  - name: APP.BASIC
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: BODY, type: CLOB, lob_storage: basicfile }
    primary_key: [ID]
    supplemental_logging: all
  - name: APP.OUTROW
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: BODY, type: CLOB, lob_storage: basicfile, storage_in_row: false }
    primary_key: [ID]
    supplemental_logging: all
"#;

/// (OPERATION, ROW_ID is the row's own, SQL_REDO) of one table's rows, with the INTERNAL rows
/// (which name no table) that end its statements.
fn statement(rows: &[LogMinerRow], table: &str) -> Vec<(String, bool, String)> {
    let mut out = Vec::new();
    let mut previous: Option<&str> = None;
    for r in rows {
        if matches!(r.operation.as_str(), "START" | "COMMIT") {
            continue;
        }
        let mine = match r.table_name.as_deref() {
            Some(t) => t == table,
            None => r.operation_code == op::INTERNAL && previous == Some(table),
        };
        if mine {
            out.push((
                r.operation.clone(),
                r.row_id != cdc_core::rowid::LOB_ROWID,
                r.sql_redo.clone(),
            ));
        }
        previous = r.table_name.as_deref();
    }
    out
}

fn ops(st: &[(String, bool, String)]) -> Vec<&str> {
    st.iter().map(|(o, _, _)| o.as_str()).collect()
}

/// The LOB forms of issue 35 item 5, as the emulator now writes them for an out-of-line CLOB
/// inserted, grown and shrunk: SECUREFILE grows with no LOB_TRIM (it trims only a shorter
/// value); BASICFILE's UPDATE is always there and sets `EMPTY_CLOB()`, then LOB_TRIM(0) and the
/// writes; BASICFILE stored out of row has no SEL_LOB_LOCATOR, its INSERT's writes come before
/// the INSERT; CLOB text holding NUL characters is written as HEXTORAW. (Before, every storage
/// was written as SECUREFILE with a LOB_TRIM after every update, and NUL went into a quoted
/// literal.)
#[test]
fn lob_forms_follow_the_storage() {
    let db = Db::new(LOBS);
    let mut w = db.writer();
    let big = |c: char, n: usize| Value::Text(c.to_string().repeat(n).into());
    let mut rids = Vec::new();
    let x = w.begin().unwrap();
    for t in 0..3 {
        rids.push(w.insert(x, t, vec![num(1), big('a', 2500)]).unwrap());
    }
    w.commit(&[x]).unwrap();
    let x = w.begin().unwrap();
    for (t, rid) in rids.iter().enumerate() {
        w.update_set(x, t, *rid, &[(1, big('b', 3000))]).unwrap();
    }
    w.commit(&[x]).unwrap();
    let x = w.begin().unwrap();
    for (t, rid) in rids.iter().enumerate() {
        w.update_set(x, t, *rid, &[(1, big('c', 2200))]).unwrap();
    }
    let nul = w.insert(
        x,
        0,
        vec![
            num(2),
            Value::Text(format!("{}\0\0end", "z".repeat(2100)).into()),
        ],
    );
    nul.unwrap();
    let c = w.commit(&[x]).unwrap();
    let mut s = db.connector().connect().unwrap();
    let rows = mine(&mut *s, 5000, c);

    let secure = statement(&rows, "SECURE");
    let insert_grow_shrink: Vec<&str> = ops(&secure);
    assert_eq!(
        insert_grow_shrink,
        [
            // INSERT: the empty locator, then locator, writes, INTERNAL.
            "INSERT",
            "SEL_LOB_LOCATOR",
            "LOB_WRITE",
            "LOB_WRITE",
            "INTERNAL",
            // Grown to 3,000: no trim.
            "SEL_LOB_LOCATOR",
            "LOB_WRITE",
            "LOB_WRITE",
            "INTERNAL",
            // Shrunk to 2,200: trimmed to it.
            "SEL_LOB_LOCATOR",
            "LOB_WRITE",
            "LOB_WRITE",
            "LOB_TRIM",
            "INTERNAL",
            // The NUL text: its second piece as HEXTORAW.
            "INSERT",
            "SEL_LOB_LOCATOR",
            "LOB_WRITE",
            "LOB_WRITE",
            "INTERNAL",
        ],
        "{:?}",
        ops(&secure)
    );
    assert!(secure[12].2.contains("dbms_lob.trim(loc_c, 2200)"));
    let hex = &secure[17].2;
    assert!(
        hex.contains("buf_b := HEXTORAW('7a7a7a")
            && hex.contains("0000656e64')")
            && hex.contains("dbms_lob.write(loc_c, 105, 2001, buf_b)"),
        "{hex}"
    );

    let basic = statement(&rows, "BASIC");
    assert_eq!(
        ops(&basic)[5..],
        [
            "UPDATE",
            "SEL_LOB_LOCATOR",
            "LOB_TRIM",
            "LOB_WRITE",
            "LOB_WRITE",
            "INTERNAL",
            "UPDATE",
            "SEL_LOB_LOCATOR",
            "LOB_TRIM",
            "LOB_WRITE",
            "LOB_WRITE",
            "INTERNAL",
        ],
        "{:?}",
        ops(&basic)
    );
    assert_eq!(
        basic[5].2,
        "update \"APP\".\"BASIC\" set \"BODY\" = EMPTY_CLOB() where \"ID\" = '1';"
    );
    assert!(!basic[5].1, "more rows follow: the empty ROW_ID");
    assert_eq!(basic[7].2, " dbms_lob.trim(loc_c, 0);");

    let outrow = statement(&rows, "OUTROW");
    assert_eq!(
        ops(&outrow),
        [
            // The INSERT after its writes, no locator.
            "LOB_WRITE",
            "LOB_WRITE",
            "INSERT",
            // The updates: the UPDATE, then trim and writes, no locator.
            "UPDATE",
            "LOB_TRIM",
            "LOB_WRITE",
            "LOB_WRITE",
            "INTERNAL",
            "UPDATE",
            "LOB_TRIM",
            "LOB_WRITE",
            "LOB_WRITE",
            "INTERNAL",
        ],
        "{:?}",
        ops(&outrow)
    );
    assert!(outrow[2].1 && outrow[2].2.contains("EMPTY_CLOB()"));
    assert!(!outrow.iter().any(|r| r.2.contains("select")));
}
