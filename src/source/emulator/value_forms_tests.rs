//! What LogMiner writes for the value forms of issue 35 (items 5, 9, 15), as the emulator
//! renders them: the UNSUPPORTED rows of 23ai's BOOLEAN and VECTOR tables and of BFILE tables,
//! LONG values past the inline threshold, and the LOB forms of BASICFILE storage.

use super::tests::{mine, Db};
use crate::source::model::{op, LogMinerRow};
use crate::source::Connector;
use crate::types::Value;

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
    Value::Number(n.to_string())
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
        .insert(
            x,
            1,
            vec![
                num(1),
                Value::Bfile {
                    directory: "DATA_DIR".into(),
                    file: "a.pdf".into(),
                },
            ],
        )
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
    w.update_set(x, 2, short, &[(1, Value::Text("n".repeat(5000)))])
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
