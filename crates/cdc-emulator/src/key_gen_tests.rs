//! Every key type: values valid for the column (checked by the writer's own rules), distinct,
//! and read back to their serial.

use super::super::conform::conform;
use super::*;

fn ty(t: &str) -> ColumnType {
    ColumnType::parse(t).unwrap()
}

const KEY_TYPES: &[&str] = &[
    "NUMBER(10)",
    "NUMBER",
    "NUMBER(6,2)",
    "NUMBER(5,-2)",
    "NUMBER(2,5)",
    "FLOAT(63)",
    "BINARY_FLOAT",
    "BINARY_DOUBLE",
    "VARCHAR2(12)",
    "VARCHAR2(3)",
    "NVARCHAR2(20)",
    "CHAR(5)",
    "CHAR(12)",
    "NCHAR(2)",
    "DATE",
    "TIMESTAMP(3)",
    "TIMESTAMP(9) WITH TIME ZONE",
    "TIMESTAMP(6) WITH LOCAL TIME ZONE",
    "INTERVAL YEAR(2) TO MONTH",
    "INTERVAL DAY(3) TO SECOND(6)",
    "RAW(4)",
    "RAW(16)",
    "ROWID",
    "UROWID",
];

#[test]
fn keys_fit_their_column_are_distinct_and_read_back() {
    for t in KEY_TYPES {
        let c = ty(t);
        let mut seen = std::collections::HashSet::new();
        for serial in (1..400).chain([9_999, 45_000]) {
            let v = match key_value(&c, serial) {
                Ok(v) => v,
                // Only narrow types run out, and never below 99 keys.
                Err(e) => {
                    assert!(serial > 99, "{t} {serial}: {e}");
                    continue;
                }
            };
            let stored =
                conform(&c, v.clone()).unwrap_or_else(|e| panic!("{t} {serial} {v:?}: {e}"));
            assert_eq!(stored, v, "{t} {serial}: the value is stored as made");
            assert!(seen.insert(v.to_string()), "{t}: {v} twice");
            assert_eq!(serial_of(&c, &v), Some(serial), "{t} {v:?}");
        }
    }
}

#[test]
fn narrow_types_say_when_they_run_out() {
    assert!(key_value(&ty("CHAR(1)"), 35).is_ok());
    assert!(key_value(&ty("CHAR(1)"), 36).is_err());
    assert!(key_value(&ty("NUMBER(2)"), 99).is_ok());
    assert!(key_value(&ty("NUMBER(2)"), 100).is_err());
    assert!(key_value(&ty("BOOLEAN"), 2).is_ok());
    assert!(key_value(&ty("BOOLEAN"), 3).is_err());
    assert_eq!(
        key_value(&ty("NUMBER(5,-2)"), 7).unwrap(),
        Value::Number("700".into())
    );
    assert_eq!(
        key_value(&ty("NUMBER(2,5)"), 7).unwrap(),
        Value::Number(".00007".into())
    );
    assert_eq!(
        key_value(&ty("TIMESTAMP(9) WITH TIME ZONE"), 1).unwrap(),
        Value::TimestampTz("2001-01-01 00:00:01.000000000 +00:00".into())
    );
    assert_eq!(
        key_value(&ty("BINARY_DOUBLE"), 3).unwrap(),
        Value::BinaryDouble(3.0)
    );
    assert_eq!(
        key_value(&ty("VARCHAR2(12)"), 1).unwrap(),
        Value::Text("K00000001".into())
    );
    assert!(key_value(&ty("CLOB"), 1)
        .unwrap_err()
        .starts_with("ORA-02329"));
    assert!(key_value(&ty("LONG"), 1)
        .unwrap_err()
        .starts_with("ORA-02269"));
}

#[test]
fn keys_into_a_reused_slot_are_the_keys() {
    let mut slot = Value::Date("left over".into());
    for t in KEY_TYPES
        .iter()
        .chain(&["VARCHAR2(9)", "NUMBER(3)", "VARCHAR2(30)"])
    {
        let ty = ty(t);
        for serial in (1..2000).chain([99_999_999, 100_000_000, 999, 1000, 123_456_789_012]) {
            let want = key_value(&ty, serial);
            let got = key_value_into(&ty, serial, &mut slot);
            match want {
                Ok(v) => assert_eq!((got, &slot), (Ok(()), &v), "{t} {serial}"),
                Err(e) => assert_eq!(got, Err(e), "{t} {serial}"),
            }
        }
    }
}
