use super::*;
use crate::types::ColumnType;
use cdc_core::model::ColumnInfo;
use serde_json::{json, Value as Json};

/// A change's record lines from a fresh writer in Debezium's default format, owned.
fn change_record_lines(
    topic_prefix: &str,
    db_name: &str,
    schema: &TableSchema,
    change: &Change,
    tx: &Committed,
) -> Vec<Vec<u8>> {
    lines_in(
        &Format::default(),
        topic_prefix,
        db_name,
        schema,
        change,
        tx,
    )
}

fn lines_in(
    fmt: &Format,
    topic_prefix: &str,
    db_name: &str,
    schema: &TableSchema,
    change: &Change,
    tx: &Committed,
) -> Vec<Vec<u8>> {
    TxRecordWriter::new(topic_prefix, db_name, tx, 0, fmt, false)
        .records(schema, change)
        .map(|r| r.line())
        .collect()
}

/// Debezium's defaults without the JsonConverter schemas (the envelope alone).
fn bare() -> Format {
    Format {
        value_schemas: false,
        key_schemas: false,
        ..Format::default()
    }
}

fn schema() -> TableSchema {
    let col = |n: &str, t: &str| ColumnInfo {
        name: n.into(),
        data_type: ColumnType::parse(t).unwrap(),
        nullable: true,
        virtual_column: false,
        hidden: false,
    };
    TableSchema {
        name: "PDB1.HR.EMP".parse().unwrap(),
        history: vec![(
            0,
            vec![
                col("ID", "NUMBER(5)"),
                col("NAME", "VARCHAR2(9)"),
                col("HIRED", "DATE"),
            ],
        )],
        key: vec!["ID".into()],
        excluded: vec![],
    }
}

fn tx() -> Committed {
    Committed::for_tests("0a001b00c3010000", 90, 100, 1, "2024-01-02 03:04:05")
}

fn change(
    op: ChangeOp,
    before: Option<Vec<(String, Value)>>,
    after: Option<Vec<(String, Value)>>,
) -> Change {
    Change {
        table: "PDB1.HR.EMP".parse().unwrap(),
        op,
        before,
        after,
        scn: 95,
        rs_id: " 0x000001.00000002.0010 ".into(),
        ssn: 1,
        row_id: "AAAR0oAAEAAAACAAAB".into(),
        user: "APP".into(),
        timestamp: String::new(),
    }
}

fn row(id: &str, name: &str) -> Vec<(String, Value)> {
    vec![
        ("ID".into(), Value::Number(id.into())),
        ("NAME".into(), Value::Text(name.into())),
        ("HIRED".into(), Value::Date("1970-01-02 00:00:00".into())),
    ]
}

/// The record's `payload` of key or value (the JsonConverter wrapper's).
fn payload(v: &Json) -> &Json {
    &v["payload"]
}

#[test]
fn records_are_valid_json_in_debeziums_envelope() {
    let c = change(
        ChangeOp::Update,
        Some(row("7", "a\"b")),
        Some(row("7", "c")),
    );
    let lines = change_record_lines("cdc", "DB", &schema(), &c, &tx());
    assert_eq!(lines.len(), 1);
    let r: Json = serde_json::from_slice(&lines[0]).unwrap();
    // One PDB captured: Debezium's topic, `PREFIX.OWNER.TABLE`.
    assert_eq!(r["topic"], "cdc.HR.EMP");
    assert_eq!(payload(&r["key"]), &json!({"ID": 7}));
    assert_eq!(r["key"]["schema"]["name"], "cdc.HR.EMP.Key");
    let v = payload(&r["value"]);
    assert_eq!(r["value"]["schema"]["name"], "cdc.HR.EMP.Envelope");
    assert_eq!(v["op"], "u");
    assert_eq!(
        v["before"],
        json!({"ID": 7, "NAME": "a\"b", "HIRED": 86_400_000})
    );
    assert_eq!(v["after"]["NAME"], "c");
    let s = &v["source"];
    assert_eq!(
        (s["db"].as_str(), s["schema"].as_str(), s["table"].as_str()),
        (Some("PDB1"), Some("HR"), Some("EMP"))
    );
    assert_eq!(
        (
            s["scn"].as_str(),
            s["commit_scn"].as_str(),
            s["txId"].as_str()
        ),
        (Some("95"), Some("100"), Some("0a001b00c3010000"))
    );
    assert_eq!(
        (
            s["ssn"].as_u64(),
            s["redo_thread"].as_u64(),
            s["snapshot"].as_str()
        ),
        (Some(1), Some(1), Some("false"))
    );
    // The change's own time (its TIMESTAMP was not known here: the commit's).
    assert_eq!(s["ts_ms"], 1_704_164_645_000i64);
    assert_eq!(s["ts_us"], 1_704_164_645_000_000i64);
    assert_eq!(s["ts_ns"], 1_704_164_645_000_000_000i64);
    assert_eq!(s["commit_ts_ms"], 1_704_164_645_000i64);
    assert_eq!(
        (s["start_scn"].as_str(), s["txSeq"].as_u64()),
        (Some("95"), Some(1))
    );
    // Debezium trims RS_ID.
    assert_eq!(s["rs_id"], "0x000001.00000002.0010");
    assert!(s["redo_sql"].is_null() && s["lcr_position"].is_null());
    let ts = v["ts_ms"].as_i64().unwrap();
    assert_eq!(v["ts_us"].as_i64().unwrap() / 1000, ts);
    assert_eq!(v["ts_ns"].as_i64().unwrap() / 1_000_000, ts);
    assert!(v["transaction"].is_null());
    assert_eq!(
        r["headers"],
        json!({"cdc.scn": "95", "cdc.commit_scn": "100"})
    );
}

/// The value's schema lists exactly the payload's fields, in its order, with Debezium's
/// names and types for the source block.
#[test]
fn the_value_schema_describes_the_payload() {
    let c = change(ChangeOp::Create, None, Some(row("7", "a")));
    let r: Json =
        serde_json::from_slice(&change_record_lines("cdc", "DB", &schema(), &c, &tx())[0]).unwrap();
    let schema = &r["value"]["schema"];
    let names = |s: &Json| -> Vec<String> {
        s["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["field"].as_str().unwrap().to_string())
            .collect()
    };
    let payload = r["value"]["payload"].as_object().unwrap();
    assert_eq!(names(schema), payload.keys().cloned().collect::<Vec<_>>());
    let source = &schema["fields"][2];
    assert_eq!(source["name"], "io.debezium.connector.oracle.Source");
    assert_eq!(
        names(source),
        payload["source"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect::<Vec<_>>()
    );
    assert_eq!(
        names(source),
        [
            "version",
            "connector",
            "name",
            "ts_ms",
            "snapshot",
            "db",
            "sequence",
            "ts_us",
            "ts_ns",
            "schema",
            "table",
            "txId",
            "scn",
            "commit_scn",
            "lcr_position",
            "rs_id",
            "ssn",
            "redo_thread",
            "user_name",
            "redo_sql",
            "row_id",
            "commit_ts_ms",
            "start_scn",
            "start_ts_ms",
            "txSeq"
        ]
    );
    let after = &schema["fields"][1];
    assert_eq!(after["name"], "cdc.HR.EMP.Value");
    assert_eq!(
        after["fields"][0],
        json!({"type": "int32", "optional": true, "field": "ID"})
    );
    assert_eq!(
        after["fields"][2],
        json!({"type": "int64", "optional": true, "name": "io.debezium.time.Timestamp", "version": 1, "field": "HIRED"})
    );
    assert_eq!(
        r["key"]["schema"],
        json!({"type": "struct", "fields": [{"type": "int32", "optional": false, "field": "ID"}], "optional": false, "name": "cdc.HR.EMP.Key"})
    );
}

#[test]
fn records_are_written_byte_for_byte_in_field_order() {
    let c = change(
        ChangeOp::Update,
        Some(row("-7", "a\"b")),
        Some(vec![
            ("ID".into(), Value::Number("-7".into())),
            ("NAME".into(), Value::Null),
        ]),
    );
    let line =
        String::from_utf8(lines_in(&bare(), "cdc", "DB", &schema(), &c, &tx()).remove(0)).unwrap();
    // The record's own time (`value.ts_ms`) is when it was written.
    let (head, tail) = line.split_once("\"op\":\"u\",\"ts_ms\":").unwrap();
    let (_, tail) = tail.split_once(",\"ts_ns\":").unwrap();
    let tail = tail.trim_start_matches(|c: char| c.is_ascii_digit());
    let expected_head = concat!(
        r#"{"topic":"cdc.HR.EMP","key":{"ID":-7},"value":{"before":{"ID":-7,"NAME":"a\"b","HIRED":86400000},"#,
        r#""after":{"ID":-7,"NAME":null},"source":{"version":""#,
        env!("CARGO_PKG_VERSION"),
        r#"","connector":"oracle","name":"cdc","ts_ms":1704164645000,"snapshot":"false","db":"PDB1","#,
        r#""sequence":null,"ts_us":1704164645000000,"ts_ns":1704164645000000000,"schema":"HR","table":"EMP","#,
        r#""txId":"0a001b00c3010000","scn":"95","commit_scn":"100","#,
        r#""lcr_position":null,"rs_id":"0x000001.00000002.0010","ssn":1,"redo_thread":1,"user_name":"APP","#,
        r#""redo_sql":null,"row_id":"AAAR0oAAEAAAACAAAB","commit_ts_ms":1704164645000,"start_scn":"95","#,
        r#""start_ts_ms":1704164645000,"txSeq":1},"transaction":null,"#
    );
    assert_eq!(head, expected_head);
    assert_eq!(
        tail,
        r#"},"headers":{"cdc.scn":"95","cdc.commit_scn":"100"}}"#
    );
}

fn parsed(lines: Vec<Vec<u8>>) -> Vec<Json> {
    lines
        .iter()
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect()
}

/// Debezium's `emitUpdateAsPrimaryKeyChangeRecord`: a delete of the old key (header
/// `__debezium.newkey`), its tombstone, and a create of the new key (`__debezium.oldkey`).
#[test]
fn a_key_change_is_a_delete_a_tombstone_and_a_create() {
    let c = change(ChangeOp::Update, Some(row("7", "a")), Some(row("8", "a")));
    let lines = parsed(lines_in(&bare(), "cdc", "DB", &schema(), &c, &tx()));
    assert_eq!(lines.len(), 3);
    assert_eq!(
        (lines[0]["value"]["op"].as_str(), &lines[0]["key"]),
        (Some("d"), &json!({"ID": 7}))
    );
    assert!(lines[0]["value"]["after"].is_null());
    assert_eq!(lines[0]["headers"]["__debezium.newkey"], r#"{"ID":8}"#);
    assert_eq!(
        (&lines[1]["key"], &lines[1]["value"]),
        (&json!({"ID": 7}), &Json::Null)
    );
    assert_eq!(
        (lines[2]["value"]["op"].as_str(), &lines[2]["key"]),
        (Some("c"), &json!({"ID": 8}))
    );
    assert!(lines[2]["value"]["before"].is_null());
    assert_eq!(lines[2]["headers"]["__debezium.oldkey"], r#"{"ID":7}"#);
}

#[test]
fn a_delete_is_followed_by_its_tombstone_unless_switched_off() {
    let c = change(ChangeOp::Delete, Some(row("7", "a")), None);
    let lines = parsed(change_record_lines("cdc", "DB", &schema(), &c, &tx()));
    assert_eq!(lines.len(), 2);
    assert_eq!(payload(&lines[0]["value"])["op"], "d");
    assert_eq!(lines[1]["key"], lines[0]["key"]);
    assert!(lines[1]["value"].is_null());
    let off = Format {
        tombstones: false,
        ..Format::default()
    };
    assert_eq!(lines_in(&off, "cdc", "DB", &schema(), &c, &tx()).len(), 1);
}

/// Debezium's truncate record: `op` `t`, `before` and `after` null, a null key (no key schema,
/// so JsonConverter writes a null key); skipped by default (`skipped.operations=t`).
#[test]
fn a_truncate_is_a_keyless_record_with_neither_image_skipped_by_default() {
    let mut t = change(ChangeOp::Truncate, None, None);
    t.row_id = "AAAAAAAAAAAAAAAAAA".into();
    t.ssn = 0;
    assert!(change_record_lines("cdc", "DB", &schema(), &t, &tx()).is_empty());
    let fmt = Format {
        skipped: crate::record::format::SkippedOperations::parse(&["none".into()]).unwrap(),
        ..Format::default()
    };
    let lines = parsed(lines_in(&fmt, "cdc", "DB", &schema(), &t, &tx()));
    assert_eq!(lines.len(), 1);
    let r = &lines[0];
    assert_eq!(r["topic"], "cdc.HR.EMP");
    assert!(r["key"].is_null(), "{r}");
    assert_eq!(r["value"]["schema"]["name"], "cdc.HR.EMP.Envelope");
    let v = payload(&r["value"]);
    assert_eq!(
        (v["op"].as_str(), &v["before"], &v["after"]),
        (Some("t"), &Json::Null, &Json::Null)
    );
    assert_eq!(v["source"]["row_id"], "AAAAAAAAAAAAAAAAAA");
    assert_eq!(v["source"]["scn"], "95");
    assert_eq!(v["source"]["commit_scn"], "100");
    assert_eq!(v["source"]["table"], "EMP");
}

/// `skipped.operations`: a skipped record is not written, nor counted in the transaction's
/// metadata; a skipped delete has no tombstone; a transaction left empty has no BEGIN or END;
/// a key change is a delete and a create, which `u` does not skip.
#[test]
fn skipped_operations_leave_records_out_before_anything_counts_them() {
    let skip = |ops: &[&str]| Format {
        transaction_metadata: true,
        skipped: crate::record::format::SkippedOperations::parse(
            &ops.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
        .unwrap(),
        ..bare()
    };
    let tx = tx();
    let ops = |fmt: &Format, changes: Vec<Change>| -> Vec<String> {
        let mut w = TxRecordWriter::new("cdc", "DB", &tx, 0, fmt, false);
        let mut out = Vec::new();
        for c in &changes {
            out.extend(parsed(w.records(&schema(), c).map(|r| r.line()).collect()));
        }
        out.extend(
            w.end_record()
                .map(|r| parsed(vec![r.line()]))
                .unwrap_or_default(),
        );
        out.iter()
            .map(|r| match (&r["value"]["op"], &r["value"]["status"]) {
                (Json::String(op), _) => op.clone(),
                (_, Json::String(s)) => format!("{s}:{}", r["value"]["event_count"]),
                _ => "tombstone".into(),
            })
            .collect()
    };
    let delete = || change(ChangeOp::Delete, Some(row("7", "a")), None);
    let create = || change(ChangeOp::Create, None, Some(row("8", "b")));
    let key_change = || change(ChangeOp::Update, Some(row("7", "a")), Some(row("9", "a")));
    assert_eq!(
        ops(&skip(&["d"]), vec![delete(), create()]),
        ["BEGIN:null", "c", "END:1"]
    );
    assert_eq!(
        ops(&skip(&["d", "c"]), vec![delete(), create()]),
        Vec::<String>::new()
    );
    assert_eq!(
        ops(&skip(&["u"]), vec![key_change()]),
        ["BEGIN:null", "d", "tombstone", "c", "END:2"]
    );
    assert_eq!(
        ops(&skip(&["d"]), vec![key_change()]),
        ["BEGIN:null", "c", "END:1"]
    );
    assert!(crate::record::format::SkippedOperations::parse(&["none".into(), "t".into()]).is_err());
    assert!(crate::record::format::SkippedOperations::parse(&["x".into()]).is_err());
    assert_eq!(
        crate::record::format::SkippedOperations::parse(&["r".into()]),
        crate::record::format::SkippedOperations::parse(&["none".into()])
    );
}

/// `provide.transaction.metadata`: BEGIN before the first record, the `transaction` block
/// counting records in all and per table, END with the counts (tombstones not counted).
#[test]
fn transaction_metadata_frames_the_records_and_counts_them() {
    let fmt = Format {
        transaction_metadata: true,
        ..bare()
    };
    let tx = tx();
    let mut writer = TxRecordWriter::new("cdc", "DB", &tx, 0, &fmt, false);
    let mut other = change(ChangeOp::Create, None, Some(row("9", "b")));
    other.table = "PDB1.HR.DEPT".parse().unwrap();
    let mut all = Vec::new();
    for c in [
        change(ChangeOp::Create, None, Some(row("7", "a"))),
        other,
        change(ChangeOp::Delete, Some(row("7", "a")), None),
    ] {
        all.extend(parsed(
            writer.records(&schema(), &c).map(|r| r.line()).collect(),
        ));
    }
    all.extend(parsed(vec![writer.end_record().unwrap().line()]));
    let begin = &all[0];
    assert_eq!(begin["topic"], "cdc.transaction");
    assert_eq!(begin["key"], json!({"id": "0a001b00c3010000"}));
    assert_eq!(
        (
            begin["value"]["status"].as_str(),
            &begin["value"]["event_count"]
        ),
        (Some("BEGIN"), &Json::Null)
    );
    let blocks: Vec<&Json> = all[1..]
        .iter()
        .filter(|r| !r["value"].is_null() && r["topic"] != "cdc.transaction")
        .map(|r| &r["value"]["transaction"])
        .collect();
    assert_eq!(
        blocks,
        [
            &json!({"id": "0a001b00c3010000", "total_order": 1, "data_collection_order": 1}),
            &json!({"id": "0a001b00c3010000", "total_order": 2, "data_collection_order": 1}),
            &json!({"id": "0a001b00c3010000", "total_order": 3, "data_collection_order": 2}),
        ]
    );
    let end = all.last().unwrap();
    assert_eq!(end["value"]["status"], "END");
    assert_eq!(end["value"]["event_count"], 3);
    assert_eq!(
        end["value"]["data_collections"],
        json!([
            {"data_collection": "PDB1.HR.DEPT", "event_count": 1},
            {"data_collection": "PDB1.HR.EMP", "event_count": 2},
        ])
    );
    // The source's txSeq counts changes.
    assert_eq!(all[2]["value"]["source"]["txSeq"], 2);
    assert_eq!(all[2]["value"]["source"]["start_scn"], "95");
}

/// One writer reused across a transaction writes each change as a fresh writer would
/// (nothing of a longer earlier line is left), and the topic names the PDB when asked.
#[test]
fn a_reused_writer_writes_each_change_as_a_fresh_one() {
    let long = "x".repeat(700);
    let changes = [
        change(ChangeOp::Update, Some(row("7", &long)), Some(row("8", "a"))),
        change(ChangeOp::Create, None, Some(row("9", "b"))),
        change(ChangeOp::Delete, Some(row("9", "b")), None),
    ];
    let tx = tx();
    let fmt = Format::default();
    let mut writer = TxRecordWriter::new("cdc", "DB", &tx, 0, &fmt, true);
    let strip = |l: &[u8]| {
        let mut v: Json = serde_json::from_slice(l).unwrap();
        assert_eq!(v["topic"], "cdc.PDB1.HR.EMP");
        if !v["value"].is_null() {
            for f in ["ts_ms", "ts_us", "ts_ns"] {
                v["value"]["payload"][f] = Json::Null;
            }
            v["value"]["payload"]["source"]["txSeq"] = Json::Null;
        }
        v
    };
    for c in &changes {
        let reused: Vec<Json> = writer
            .records(&schema(), c)
            .map(|r| strip(&r.line()))
            .collect();
        let fresh: Vec<Json> = TxRecordWriter::new("cdc", "DB", &tx, 0, &fmt, true)
            .records(&schema(), c)
            .map(|r| strip(&r.line()))
            .collect();
        assert_eq!(reused, fresh);
    }
    assert_eq!(
        writer.records(&schema(), &changes[0]).count(),
        3,
        "a key change is three records"
    );
}

/// A column renamed within a transaction: the writer's keys, escaped for the layout of the
/// first change, are not used for the renamed column.
#[test]
fn a_layout_change_within_a_transaction_writes_the_new_names() {
    let mut schema = schema();
    let mut renamed = schema.history[0].1.clone();
    renamed[1].name = "FULL \"NAME\"".into();
    schema.history.push((100, renamed));
    let tx = tx();
    let fmt = bare();
    let mut writer = TxRecordWriter::new("cdc", "DB", &tx, 0, &fmt, false);
    let first = change(ChangeOp::Create, None, Some(row("1", "a")));
    let mut second = change(ChangeOp::Create, None, Some(row("2", "b")));
    second.scn = 150;
    if let Some(after) = &mut second.after {
        after[1].0 = "FULL \"NAME\"".into();
    }
    let lines: Vec<Json> = [&first, &second]
        .iter()
        .flat_map(|c| {
            writer
                .records(&schema, c)
                .map(|r| serde_json::from_slice::<Json>(&r.line()).unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(lines[0]["value"]["after"]["NAME"], "a");
    assert_eq!(lines[1]["value"]["after"]["FULL \"NAME\""], "b");
    assert!(lines[1]["value"]["after"].get("NAME").is_none());
}

#[test]
fn topics_replace_what_kafka_refuses() {
    let t: crate::names::TableName = "PDB1.HR.\"A$B\"".parse().unwrap();
    assert_eq!(topic_of("cdc", &t, false), "cdc.HR.A_B");
    assert_eq!(topic_of("cdc", &t, true), "cdc.PDB1.HR.A_B");
}
