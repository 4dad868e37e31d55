//! The tag-first read of a JSON redo line gives the record the enum's own derive gives, for
//! every kind of record, and leaves every line it cannot read to that derive.

use super::tag_first::parse_tag_first;
use super::*;
use cdc_core::model::ColumnInfo;
use cdc_core::types::{BfileLocator, ColumnType};

fn xid(sqn: u32) -> Xid {
    Xid {
        usn: 3,
        slot: 17,
        sqn,
    }
}

/// Every kind of value a row holds, NULL and a text needing escapes among them.
fn values() -> Vec<Value> {
    vec![
        Value::Null,
        Value::Number("-12.5".into()),
        Value::Text("it's \"quoted\"\n\u{e9}\u{1f600}".into()),
        Value::BinaryFloat(1.5e-7),
        Value::BinaryDouble(-2.2250738585072014e-308),
        Value::Date("2024-02-29 23:59:59".into()),
        Value::Timestamp("2024-02-29 23:59:59.123456789".into()),
        Value::TimestampTz("2024-02-29 23:59:59.000000001 -05:30".into()),
        Value::IntervalYm("+02-11".into()),
        Value::IntervalDs("-001 02:03:04.500000".into()),
        Value::Bytes(vec![0, 1, 254, 255]),
        Value::Boolean(true),
        Value::Json("{\"a\":[1,2]}".into()),
        Value::Vector(vec![1.0, -0.25]),
        Value::Bfile(Box::new(BfileLocator {
            directory: "DOCS".into(),
            file: "a.pdf".into(),
        })),
    ]
}

/// One record of each kind, with and without their optional fields.
fn records() -> Vec<Redo> {
    let column = ColumnInfo {
        name: "NOTE".into(),
        data_type: ColumnType::Varchar2 {
            length: 40,
            chars: None,
        },
        nullable: true,
        virtual_column: false,
        hidden: false,
    };
    let extent = Extent {
        partition: Some("P1".into()),
        data_object_id: 73001,
        relative_fno: 4,
        block_id: 136,
        blocks: 8,
        bigfile: true,
    };
    vec![
        Redo::Begin {
            scn: 1,
            xid: xid(1),
            thread: 2,
            ts: 1_700_000_000_000,
            user: None,
        },
        Redo::Begin {
            scn: 1,
            xid: xid(1),
            thread: 1,
            ts: -5,
            user: Some("HR".into()),
        },
        Redo::Insert {
            scn: 2,
            xid: xid(1),
            tab: 4,
            rid: "AAAR0oAAEAAAACAAAA".into(),
            after: values(),
            ts: 7,
        },
        Redo::Update {
            scn: 3,
            xid: xid(1),
            tab: 0,
            rid: "AAAR0oAAEAAAACAAAB".into(),
            before: values(),
            after: values().into_iter().rev().collect(),
            cols: Vec::new(),
            lob_ops: Vec::new(),
            ts: 8,
        },
        Redo::Update {
            scn: 3,
            xid: xid(1),
            tab: 0,
            rid: "AAAR0oAAEAAAACAAAB".into(),
            before: vec![Value::Null],
            after: vec![Value::Text("x".into())],
            cols: vec![0, 2],
            lob_ops: vec![
                LobOp::Write {
                    col: 2,
                    offset: 1,
                    data: Value::Text("abc".into()),
                },
                LobOp::Erase {
                    col: 2,
                    offset: 2,
                    amount: 1,
                },
                LobOp::Trim { col: 2, len: 2 },
            ],
            ts: 8,
        },
        Redo::Delete {
            scn: 4,
            xid: xid(2),
            tab: 1,
            rid: "AAAR0oAAEAAAACAAAC".into(),
            before: values(),
            ts: 9,
        },
        Redo::Undo {
            scn: 5,
            xid: xid(2),
            of: 3,
            ts: 10,
        },
        Redo::Commit {
            scn: 6,
            xids: vec![xid(1), xid(2)],
            ts: 11,
        },
        Redo::Rollback {
            scn: 7,
            xid: xid(3),
            ts: 12,
        },
        Redo::Ddl {
            scn: 8,
            xid: xid(4),
            tab: 1,
            sql: "ALTER TABLE \"HR\".\"EMP\" ADD (\"NOTE\" VARCHAR2(40))".into(),
            change: DdlChange::AddColumn { column },
            ts: 13,
        },
        Redo::Ddl {
            scn: 9,
            xid: xid(4),
            tab: 2,
            sql: "CREATE TABLE T (ID NUMBER)".into(),
            change: DdlChange::CreateTable {
                spec: serde_json::json!({"name": "APP.T", "columns": [{"name": "ID"}]}),
            },
            ts: 14,
        },
        Redo::Other {
            scn: 10,
            xid: xid(5),
            op: 1,
            owner: "SYS".into(),
            table: "OBJ$".into(),
            pdb: None,
            obj: 18,
            rid: "AAAAASAABAAAAdRAAA".into(),
            sql: "insert into \"SYS\".\"OBJ$\" values ('x')".into(),
            info: None,
            ts: 15,
        },
        Redo::Other {
            scn: 10,
            xid: xid(5),
            op: 5,
            owner: "HR".into(),
            table: "MLOG$_EMP".into(),
            pdb: Some("PDB1".into()),
            obj: 73002,
            rid: "AAAR0qAAEAAAACAAAA".into(),
            sql: "".into(),
            info: Some("USER DDL".into()),
            ts: 15,
        },
        Redo::Extent {
            scn: 11,
            tab: 0,
            part: None,
            ext: Extent {
                partition: None,
                bigfile: false,
                ..extent.clone()
            },
        },
        Redo::Extent {
            scn: 11,
            tab: 0,
            part: Some(1),
            ext: extent,
        },
        Redo::Stats {
            scn: 12,
            tab: 0,
            num_rows: 1_000_000,
            blocks: 4096,
            ts: 16,
        },
        Redo::LogSwitch {
            scn: 13,
            thread: 2,
            ts: 17,
        },
        Redo::DictionaryBuild {
            scn: 14,
            thread: 1,
            ts: 18,
        },
    ]
}

/// Each kind's name, without a wildcard: a new kind of record fails to compile here until it
/// is named, and then [`every_kind_of_record_reads_the_same_both_ways`] until it has a sample.
fn kind(r: &Redo) -> &'static str {
    match r {
        Redo::Begin { .. } => "Begin",
        Redo::Insert { .. } => "Insert",
        Redo::Update { .. } => "Update",
        Redo::Delete { .. } => "Delete",
        Redo::Undo { .. } => "Undo",
        Redo::Commit { .. } => "Commit",
        Redo::Rollback { .. } => "Rollback",
        Redo::Ddl { .. } => "Ddl",
        Redo::Other { .. } => "Other",
        Redo::Extent { .. } => "Extent",
        Redo::Stats { .. } => "Stats",
        Redo::LogSwitch { .. } => "LogSwitch",
        Redo::DictionaryBuild { .. } => "DictionaryBuild",
    }
}

const KINDS: usize = 13;

#[test]
fn every_kind_of_record_reads_the_same_both_ways() {
    let records = records();
    let mut kinds: Vec<&str> = records.iter().map(kind).collect();
    kinds.dedup();
    assert_eq!(kinds.len(), KINDS, "a sample of every kind: {kinds:?}");
    for record in records {
        // As the writer writes it: serde's JSON, then the checksum.
        let json = serde_json::to_vec(&record).unwrap();
        assert!(
            json.starts_with(b"{\"k\":\""),
            "{}",
            String::from_utf8_lossy(&json)
        );
        let general: Redo = serde_json::from_slice(&json).unwrap();
        assert_eq!(general, record);
        assert_eq!(parse_tag_first(&json).as_ref(), Some(&record), "{record:?}");
        let mut line = json.clone();
        line.extend_from_slice(&line_sum(&json));
        assert_eq!(parse_line(&line).unwrap(), record);
    }
}

/// A line whose tag is not first, with blanks between its tokens, with an unknown tag or a
/// field the record does not take in its type is not read the fast way: the enum's derive
/// reads it (or names what is wrong, in its own words).
#[test]
fn lines_the_fast_read_does_not_take_go_the_general_way() {
    let commit = r#"{"k":"C","scn":6,"xids":[{"usn":1,"slot":2,"sqn":3}],"ts":11}"#;
    let want = Redo::Commit {
        scn: 6,
        xids: vec![Xid {
            usn: 1,
            slot: 2,
            sqn: 3,
        }],
        ts: 11,
    };
    assert_eq!(parse_tag_first(commit.as_bytes()), Some(want.clone()));
    for readable in [
        r#"{"scn":6,"k":"C","xids":[{"usn":1,"slot":2,"sqn":3}],"ts":11}"#,
        r#"{ "k": "C", "scn": 6, "xids": [{"usn":1,"slot":2,"sqn":3}], "ts": 11 }"#,
    ] {
        assert_eq!(parse_tag_first(readable.as_bytes()), None, "{readable}");
        assert_eq!(parse_line(readable.as_bytes()).unwrap(), want, "{readable}");
    }
    for broken in [
        r#"{"k":"Q","scn":6}"#,
        r#"{"k":"C","scn":"six","xids":[],"ts":11}"#,
        r#"{"k":"C","scn":6,"ts":11}"#,
        r#"{"k":"C","scn":6,"xids":[],"ts":11"#,
        r#"{"k":"","scn":6}"#,
        r#"{"k":"C"#,
    ] {
        assert_eq!(parse_tag_first(broken.as_bytes()), None, "{broken}");
        let general = serde_json::from_slice::<Redo>(broken.as_bytes())
            .unwrap_err()
            .to_string();
        assert_eq!(
            parse_line(broken.as_bytes()).unwrap_err(),
            general,
            "{broken}"
        );
    }
}
