//! What LogMiner writes for the value forms of issue 35 (items 5, 9, 15), as the emulator
//! renders them: LONG values past the inline threshold.

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
