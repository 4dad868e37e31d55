//! Change records (op c/u/d) in Debezium's Oracle envelope, written straight to JSON bytes (the
//! stream path's hot spot: no `serde_json::Value` is built per record).

use crate::encode::{write_json_str, write_json_value};
use crate::source::model::ColumnInfo;
use crate::stream::buffer::Committed;
use crate::stream::decode::{Change, ChangeOp, TableSchema};
use crate::types::Value;

type Image = [(String, Value)];

/// The column named `name`: images are in table column order, so the search starts where the
/// previous one ended (`*from`) and only wraps around for an image out of order.
fn column<'c>(cols: &'c [ColumnInfo], from: &mut usize, name: &str) -> Option<&'c ColumnInfo> {
    let i = (*from..cols.len())
        .chain(0..*from)
        .find(|&i| cols[i].name == name)?;
    *from = i + 1;
    Some(&cols[i])
}

fn write_pair(out: &mut Vec<u8>, name: &str, col: Option<&ColumnInfo>, v: Option<&Value>) {
    write_json_str(out, name);
    out.push(b':');
    match (col, v) {
        (Some(c), Some(v)) => write_json_value(out, v, &c.data_type),
        _ => out.extend_from_slice(b"null"),
    }
}

fn write_image(out: &mut Vec<u8>, cols: &[ColumnInfo], values: &Image) {
    out.push(b'{');
    let mut from = 0;
    for (i, (name, v)) in values.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_pair(out, name, column(cols, &mut from, name), Some(v));
    }
    out.push(b'}');
}

fn write_key(out: &mut Vec<u8>, schema: &TableSchema, cols: &[ColumnInfo], image: &Image) {
    if schema.key.is_empty() {
        out.extend_from_slice(b"null");
        return;
    }
    out.push(b'{');
    let mut from = 0;
    for (i, k) in schema.key.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let v = image.iter().find(|(n, _)| n == k).map(|(_, v)| v);
        // A key column missing from the image is null (as the column would be).
        let v = v.or(Some(&Value::Null));
        write_pair(out, k, column(cols, &mut from, k), v);
    }
    out.push(b'}');
}

fn key_values<'a>(schema: &TableSchema, image: &'a Image) -> Vec<Option<&'a Value>> {
    schema
        .key
        .iter()
        .map(|k| image.iter().find(|(n, _)| n == k).map(|(_, v)| v))
        .collect()
}

fn write_int(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// The record lines (JSON without the newline) of one change: one, or for an update that
/// changes the key a delete of the old key and a create of the new one (tombstone-free), as
/// Debezium publishes it.
pub fn change_record_lines(
    topic_prefix: &str,
    db_name: &str,
    schema: &TableSchema,
    change: &Change,
    tx: &Committed,
) -> Vec<Vec<u8>> {
    let ts = crate::encode::epoch_ms(&tx.commit_timestamp).unwrap_or_else(crate::record::now_ms);
    let now = crate::record::now_ms();
    let db = change.table.pdb.as_deref().unwrap_or(db_name);
    let topic = format!("{topic_prefix}.{}", change.table);
    let cols = schema.columns_at(change.scn);
    let line = |op: ChangeOp, before: Option<&Image>, after: Option<&Image>| -> Vec<u8> {
        let image_bytes = |i: Option<&Image>| {
            i.map_or(0, |i| {
                i.iter()
                    .map(|(n, v)| n.len() + value_bytes(v))
                    .sum::<usize>()
            })
        };
        let mut out =
            Vec::with_capacity(512 + topic.len() + 2 * (image_bytes(before) + image_bytes(after)));
        out.extend_from_slice(b"{\"topic\":");
        write_json_str(&mut out, &topic);
        out.extend_from_slice(b",\"key\":");
        match after.or(before) {
            Some(img) => write_key(&mut out, schema, cols, img),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"value\":{\"before\":");
        match before {
            Some(b) => write_image(&mut out, cols, b),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"after\":");
        match after {
            Some(a) => write_image(&mut out, cols, a),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"source\":{\"version\":");
        write_json_str(&mut out, env!("CARGO_PKG_VERSION"));
        out.extend_from_slice(b",\"connector\":\"oracle\",\"name\":");
        write_json_str(&mut out, topic_prefix);
        out.extend_from_slice(b",\"ts_ms\":");
        write_int(&mut out, ts);
        out.extend_from_slice(b",\"snapshot\":\"false\",\"db\":");
        write_json_str(&mut out, db);
        out.extend_from_slice(b",\"sequence\":null,\"schema\":");
        write_json_str(&mut out, &change.table.owner);
        out.extend_from_slice(b",\"table\":");
        write_json_str(&mut out, &change.table.table);
        out.extend_from_slice(b",\"txId\":");
        write_json_str(&mut out, &tx.xid);
        out.extend_from_slice(b",\"scn\":\"");
        write_int(&mut out, change.scn);
        out.extend_from_slice(b"\",\"commit_scn\":\"");
        write_int(&mut out, tx.commit_scn);
        out.extend_from_slice(b"\",\"lcr_position\":null,\"rs_id\":");
        write_json_str(&mut out, &change.rs_id);
        out.extend_from_slice(b",\"ssn\":");
        write_int(&mut out, change.ssn);
        out.extend_from_slice(b",\"redo_thread\":");
        write_int(&mut out, tx.thread);
        out.extend_from_slice(b",\"user_name\":");
        write_json_str(&mut out, &change.user);
        out.extend_from_slice(b",\"row_id\":");
        write_json_str(&mut out, &change.row_id);
        out.extend_from_slice(b"},\"op\":\"");
        out.extend_from_slice(op.code().as_bytes());
        out.extend_from_slice(b"\",\"ts_ms\":");
        write_int(&mut out, now);
        out.extend_from_slice(b",\"transaction\":null},\"headers\":{\"cdc.scn\":\"");
        write_int(&mut out, change.scn);
        out.extend_from_slice(b"\",\"cdc.commit_scn\":\"");
        write_int(&mut out, tx.commit_scn);
        out.extend_from_slice(b"\"}}");
        out
    };
    let before = change.before.as_deref();
    let after = change.after.as_deref();
    match (change.op, before, after) {
        (ChangeOp::Update, Some(b), Some(a))
            if !schema.key.is_empty() && key_values(schema, b) != key_values(schema, a) =>
        {
            vec![
                line(ChangeOp::Delete, Some(b), None),
                line(ChangeOp::Create, None, Some(a)),
            ]
        }
        _ => vec![line(change.op, before, after)],
    }
}

/// Roughly the bytes a value takes in a record (to size the line's buffer once).
fn value_bytes(v: &Value) -> usize {
    match v {
        Value::Number(s)
        | Value::Text(s)
        | Value::Date(s)
        | Value::Timestamp(s)
        | Value::TimestampTz(s)
        | Value::Json(s) => s.len() + 4,
        Value::Bytes(b) => b.len() * 4 / 3 + 4,
        _ => 24,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::model::ColumnInfo;
    use crate::types::ColumnType;
    use serde_json::{json, Value as Json};

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
        assert_eq!(r["topic"], "cdc.PDB1.HR.EMP");
        assert_eq!(r["key"], json!({"ID": 7}));
        let v = &r["value"];
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
        assert_eq!(s["ts_ms"], 1_704_164_645_000i64);
        assert_eq!(
            r["headers"],
            json!({"cdc.scn": "95", "cdc.commit_scn": "100"})
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
            String::from_utf8(change_record_lines("cdc", "DB", &schema(), &c, &tx()).remove(0))
                .unwrap();
        // The record's own time (`value.ts_ms`) is when it was written.
        let (head, tail) = line.split_once("\"op\":\"u\",\"ts_ms\":").unwrap();
        let tail = tail.trim_start_matches(|c: char| c.is_ascii_digit());
        let expected_head = concat!(
            r#"{"topic":"cdc.PDB1.HR.EMP","key":{"ID":-7},"value":{"before":{"ID":-7,"NAME":"a\"b","HIRED":86400000},"#,
            r#""after":{"ID":-7,"NAME":null},"source":{"version":""#,
            env!("CARGO_PKG_VERSION"),
            r#"","connector":"oracle","name":"cdc","ts_ms":1704164645000,"snapshot":"false","db":"PDB1","#,
            r#""sequence":null,"schema":"HR","table":"EMP","txId":"0a001b00c3010000","scn":"95","commit_scn":"100","#,
            r#""lcr_position":null,"rs_id":" 0x000001.00000002.0010 ","ssn":1,"redo_thread":1,"user_name":"APP","#,
            r#""row_id":"AAAR0oAAEAAAACAAAB"},"#
        );
        assert_eq!(head, expected_head);
        assert_eq!(
            tail,
            r#","transaction":null},"headers":{"cdc.scn":"95","cdc.commit_scn":"100"}}"#
        );
    }

    #[test]
    fn a_key_change_is_a_delete_and_a_create() {
        let c = change(ChangeOp::Update, Some(row("7", "a")), Some(row("8", "a")));
        let lines: Vec<Json> = change_record_lines("cdc", "DB", &schema(), &c, &tx())
            .iter()
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            (lines[0]["value"]["op"].as_str(), &lines[0]["key"]),
            (Some("d"), &json!({"ID": 7}))
        );
        assert!(lines[0]["value"]["after"].is_null());
        assert_eq!(
            (lines[1]["value"]["op"].as_str(), &lines[1]["key"]),
            (Some("c"), &json!({"ID": 8}))
        );
        assert!(lines[1]["value"]["before"].is_null());
    }
}
