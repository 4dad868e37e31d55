//! Change records (op c/u/d) in Debezium's Oracle envelope, written straight to JSON bytes (the
//! stream path's hot spot: no `serde_json::Value` is built per record).

use crate::encode::{write_json_str, write_json_str_body, write_json_value};
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
/// Debezium publishes it. Capture writes through [`TxRecordWriter`], which reuses one buffer.
pub fn change_record_lines(
    topic_prefix: &str,
    db_name: &str,
    schema: &TableSchema,
    change: &Change,
    tx: &Committed,
) -> Vec<Vec<u8>> {
    TxRecordWriter::new(topic_prefix, db_name, tx)
        .lines(schema, change)
        .map(<[u8]>::to_vec)
        .collect()
}

/// Writes the change records of one committed transaction. What is the same for every record
/// of the transaction (its commit time in ms) is worked out once, the processing time
/// (`value.ts_ms`) is read again every [`NOW_EVERY`] records, and one buffer is reused:
/// the stream path writes every change through here.
pub struct TxRecordWriter<'a> {
    topic_prefix: &'a str,
    db_name: &'a str,
    tx: &'a Committed,
    ts_ms: i64,
    now_ms: i64,
    since_now: u32,
    /// The lines of the change being written, back to back.
    buf: Vec<u8>,
}

/// Records written between two reads of the clock for `value.ts_ms` (a read costs as much as
/// writing a tenth of a record; a transaction's records are written within microseconds).
const NOW_EVERY: u32 = 64;

impl<'a> TxRecordWriter<'a> {
    pub fn new(topic_prefix: &'a str, db_name: &'a str, tx: &'a Committed) -> Self {
        TxRecordWriter {
            topic_prefix,
            db_name,
            tx,
            ts_ms: crate::encode::epoch_ms(&tx.commit_timestamp)
                .unwrap_or_else(crate::record::now_ms),
            now_ms: 0,
            since_now: NOW_EVERY,
            buf: Vec::with_capacity(4096),
        }
    }

    /// The record lines of `change` (JSON without the newline), in the writer's buffer.
    pub fn lines(
        &mut self,
        schema: &TableSchema,
        change: &Change,
    ) -> impl Iterator<Item = &[u8]> + '_ {
        self.buf.clear();
        let before = change.before.as_deref();
        let after = change.after.as_deref();
        let first_end = match (change.op, before, after) {
            (ChangeOp::Update, Some(b), Some(a))
                if !schema.key.is_empty() && key_values(schema, b) != key_values(schema, a) =>
            {
                self.write_line(schema, change, ChangeOp::Delete, Some(b), None);
                let end = self.buf.len();
                self.write_line(schema, change, ChangeOp::Create, None, Some(a));
                end
            }
            _ => {
                self.write_line(schema, change, change.op, before, after);
                self.buf.len()
            }
        };
        let (first, second) = self.buf.split_at(first_end);
        std::iter::once(first).chain((!second.is_empty()).then_some(second))
    }

    fn write_line(
        &mut self,
        schema: &TableSchema,
        change: &Change,
        op: ChangeOp,
        before: Option<&Image>,
        after: Option<&Image>,
    ) {
        if self.since_now >= NOW_EVERY {
            self.now_ms = crate::record::now_ms();
            self.since_now = 0;
        }
        self.since_now += 1;
        let tx = self.tx;
        let db = change.table.pdb.as_deref().unwrap_or(self.db_name);
        let cols = schema.columns_at(change.scn);
        let out = &mut self.buf;
        out.extend_from_slice(b"{\"topic\":");
        write_topic(out, self.topic_prefix, &change.table);
        out.extend_from_slice(b",\"key\":");
        match after.or(before) {
            Some(img) => write_key(out, schema, cols, img),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"value\":{\"before\":");
        match before {
            Some(b) => write_image(out, cols, b),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"after\":");
        match after {
            Some(a) => write_image(out, cols, a),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"source\":{\"version\":");
        write_json_str(out, env!("CARGO_PKG_VERSION"));
        out.extend_from_slice(b",\"connector\":\"oracle\",\"name\":");
        write_json_str(out, self.topic_prefix);
        out.extend_from_slice(b",\"ts_ms\":");
        write_int(out, self.ts_ms);
        out.extend_from_slice(b",\"snapshot\":\"false\",\"db\":");
        write_json_str(out, db);
        out.extend_from_slice(b",\"sequence\":null,\"schema\":");
        write_json_str(out, &change.table.owner);
        out.extend_from_slice(b",\"table\":");
        write_json_str(out, &change.table.table);
        out.extend_from_slice(b",\"txId\":");
        write_json_str(out, &tx.xid);
        out.extend_from_slice(b",\"scn\":\"");
        write_int(out, change.scn);
        out.extend_from_slice(b"\",\"commit_scn\":\"");
        write_int(out, tx.commit_scn);
        out.extend_from_slice(b"\",\"lcr_position\":null,\"rs_id\":");
        write_json_str(out, &change.rs_id);
        out.extend_from_slice(b",\"ssn\":");
        write_int(out, change.ssn);
        out.extend_from_slice(b",\"redo_thread\":");
        write_int(out, tx.thread);
        out.extend_from_slice(b",\"user_name\":");
        write_json_str(out, &change.user);
        out.extend_from_slice(b",\"row_id\":");
        write_json_str(out, &change.row_id);
        out.extend_from_slice(b"},\"op\":\"");
        out.extend_from_slice(op.code().as_bytes());
        out.extend_from_slice(b"\",\"ts_ms\":");
        write_int(out, self.now_ms);
        out.extend_from_slice(b",\"transaction\":null},\"headers\":{\"cdc.scn\":\"");
        write_int(out, change.scn);
        out.extend_from_slice(b"\",\"cdc.commit_scn\":\"");
        write_int(out, tx.commit_scn);
        out.extend_from_slice(b"\"}}");
    }
}

/// `"PREFIX.[PDB.]OWNER.TABLE"`: the topic as `format!("{prefix}.{table}")` gives it, written
/// without building the string.
fn write_topic(out: &mut Vec<u8>, prefix: &str, table: &crate::names::TableName) {
    out.push(b'"');
    write_json_str_body(out, prefix);
    for part in table.pdb.iter().chain([&table.owner, &table.table]) {
        out.push(b'.');
        write_json_str_body(out, part);
    }
    out.push(b'"');
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

    /// One writer reused across a transaction writes each change as a fresh writer would
    /// (nothing of a longer earlier line is left), and the topic is `prefix.PDB.OWNER.TABLE`.
    #[test]
    fn a_reused_writer_writes_each_change_as_a_fresh_one() {
        let long = "x".repeat(700);
        let changes = [
            change(ChangeOp::Update, Some(row("7", &long)), Some(row("8", "a"))),
            change(ChangeOp::Create, None, Some(row("9", "b"))),
            change(ChangeOp::Delete, Some(row("9", "b")), None),
        ];
        let tx = tx();
        let mut writer = TxRecordWriter::new("cdc", "DB", &tx);
        let strip_now = |l: &[u8]| {
            let v: Json = serde_json::from_slice(l).unwrap();
            assert_eq!(v["topic"], "cdc.PDB1.HR.EMP");
            let mut v = v;
            v["value"]["ts_ms"] = Json::Null;
            v
        };
        for c in &changes {
            let reused: Vec<Json> = writer.lines(&schema(), c).map(strip_now).collect();
            let fresh: Vec<Json> = change_record_lines("cdc", "DB", &schema(), c, &tx)
                .iter()
                .map(|l| strip_now(l))
                .collect();
            assert_eq!(reused, fresh);
        }
        assert_eq!(
            writer.lines(&schema(), &changes[0]).count(),
            2,
            "a key change is two records"
        );
    }
}
