//! Change records (op c/u/d) in Debezium's Oracle envelope, written straight to JSON bytes (the
//! stream path's hot spot: no `serde_json::Value` is built per record).

use crate::encode::{write_json_str, write_json_str_body, write_json_value};
use crate::source::model::ColumnInfo;
use crate::stream::buffer::Committed;
use crate::stream::decode::{Change, ChangeOp, TableSchema};
use crate::types::Value;

type Image = [(String, Value)];

/// Column names with their JSON object keys (`"NAME":`), escaped once per table.
type Keys = [(String, Vec<u8>)];

/// The index of the column named `name`: images are in table column order, so the search starts
/// where the previous one ended (`*from`) and only wraps around for an image out of order.
fn column(cols: &[ColumnInfo], from: &mut usize, name: &str) -> Option<usize> {
    let i = (*from..cols.len())
        .chain(0..*from)
        .find(|&i| cols[i].name == name)?;
    *from = i + 1;
    Some(i)
}

/// `"name":value`, the key taken from `keys` when it is the column's (it is unless the layout
/// changed within the transaction).
fn write_pair(
    out: &mut Vec<u8>,
    cols: &[ColumnInfo],
    keys: &Keys,
    i: Option<usize>,
    name: &str,
    v: &Value,
) {
    match i.and_then(|i| keys.get(i)).filter(|(n, _)| n == name) {
        Some((_, key)) => out.extend_from_slice(key),
        None => {
            write_json_str(out, name);
            out.push(b':');
        }
    }
    match i {
        Some(i) => write_json_value(out, v, &cols[i].data_type),
        None => out.extend_from_slice(b"null"),
    }
}

fn write_image(out: &mut Vec<u8>, cols: &[ColumnInfo], keys: &Keys, values: &Image) {
    out.push(b'{');
    let mut from = 0;
    for (n, (name, v)) in values.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        let i = column(cols, &mut from, name);
        write_pair(out, cols, keys, i, name, v);
    }
    out.push(b'}');
}

fn write_key(
    out: &mut Vec<u8>,
    schema: &TableSchema,
    cols: &[ColumnInfo],
    keys: &Keys,
    image: &Image,
) {
    if schema.key.is_empty() {
        out.extend_from_slice(b"null");
        return;
    }
    out.push(b'{');
    let mut from = 0;
    for (n, k) in schema.key.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        // A key column missing from the image is null (as the column would be).
        let v = key_value(image, k).unwrap_or(&Value::Null);
        let i = column(cols, &mut from, k);
        write_pair(out, cols, keys, i, k, v);
    }
    out.push(b'}');
}

fn key_value<'a>(image: &'a Image, column: &str) -> Option<&'a Value> {
    image.iter().find(|(n, _)| n == column).map(|(_, v)| v)
}

fn key_changed(schema: &TableSchema, before: &Image, after: &Image) -> bool {
    !schema.key.is_empty()
        && schema
            .key
            .iter()
            .any(|k| key_value(before, k) != key_value(after, k))
}

fn write_int(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Writes the change records of one committed transaction. The envelope's text that is the
/// same for every record of the transaction, or of a table within it, is escaped once (a
/// record has two dozen strings, and escaping them one by one was a sixth of the stream's
/// instructions); the processing time (`value.ts_ms`) is read again every [`NOW_EVERY`]
/// records; one buffer is reused.
pub struct TxRecordWriter<'a> {
    topic_prefix: &'a str,
    db_name: &'a str,
    /// `,"source":{"version":…,"connector":"oracle","name":…,"ts_ms":COMMIT_MS`
    source_head: Vec<u8>,
    /// `","commit_scn":"N","lcr_position":null,"rs_id":`
    after_scn: Vec<u8>,
    /// `,"redo_thread":N,"user_name":`
    thread: Vec<u8>,
    /// `","cdc.commit_scn":"N"}}`
    tail: Vec<u8>,
    xid: &'a str,
    table: Option<TableParts>,
    now_ms: i64,
    since_now: u32,
    /// The lines of the change being written, back to back.
    buf: Vec<u8>,
}

/// The parts of the envelope fixed by the table (and the transaction).
struct TableParts {
    name: crate::names::TableName,
    /// `{"topic":"PREFIX.[PDB.]OWNER.TABLE","key":`
    head: Vec<u8>,
    /// `,"snapshot":"false","db":…,"sequence":null,"schema":…,"table":…,"txId":…,"scn":"`
    middle: Vec<u8>,
    keys: Vec<(String, Vec<u8>)>,
}

/// Records written between two reads of the clock for `value.ts_ms` (a read costs as much as
/// writing a tenth of a record; a transaction's records are written within microseconds).
const NOW_EVERY: u32 = 64;

impl<'a> TxRecordWriter<'a> {
    /// `host_offset_secs`: the database host's offset from UTC, which the transaction's
    /// COMMIT_TIMESTAMP (a DATE of the host's clock) is converted from for `source.ts_ms`.
    pub fn new(
        topic_prefix: &'a str,
        db_name: &'a str,
        tx: &'a Committed,
        host_offset_secs: i32,
    ) -> Self {
        let ts_ms =
            crate::source::model::host_time_to_epoch_ms(&tx.commit_timestamp, host_offset_secs)
                .unwrap_or_else(crate::record::now_ms);
        let mut source_head = b",\"source\":{\"version\":".to_vec();
        write_json_str(&mut source_head, env!("CARGO_PKG_VERSION"));
        source_head.extend_from_slice(b",\"connector\":\"oracle\",\"name\":");
        write_json_str(&mut source_head, topic_prefix);
        source_head.extend_from_slice(b",\"ts_ms\":");
        write_int(&mut source_head, ts_ms);
        let mut after_scn = b"\",\"commit_scn\":\"".to_vec();
        write_int(&mut after_scn, tx.commit_scn);
        after_scn.extend_from_slice(b"\",\"lcr_position\":null,\"rs_id\":");
        let mut thread = b",\"redo_thread\":".to_vec();
        write_int(&mut thread, tx.thread);
        thread.extend_from_slice(b",\"user_name\":");
        let mut tail = b"\",\"cdc.commit_scn\":\"".to_vec();
        write_int(&mut tail, tx.commit_scn);
        tail.extend_from_slice(b"\"}}");
        TxRecordWriter {
            topic_prefix,
            db_name,
            source_head,
            after_scn,
            thread,
            tail,
            xid: &tx.xid,
            table: None,
            now_ms: 0,
            since_now: NOW_EVERY,
            buf: Vec::with_capacity(4096),
        }
    }

    /// The record lines of `change` (JSON without the newline), in the writer's buffer: one,
    /// or for an update that changes the key a delete of the old key and a create of the new
    /// one (tombstone-free), as Debezium publishes it.
    pub fn lines(
        &mut self,
        schema: &TableSchema,
        change: &Change,
    ) -> impl Iterator<Item = &[u8]> + '_ {
        self.buf.clear();
        let before = change.before.as_deref();
        let after = change.after.as_deref();
        let first_end = match (change.op, before, after) {
            (ChangeOp::Update, Some(b), Some(a)) if key_changed(schema, b, a) => {
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

    /// The table's parts of the envelope (taken out; `write_line` puts them back), made anew
    /// when the table differs from the last change's.
    fn take_table_parts(&mut self, change: &Change, cols: &[ColumnInfo]) -> TableParts {
        let table = &change.table;
        if let Some(t) = self.table.take().filter(|t| t.name == *table) {
            return t;
        }
        let mut head = b"{\"topic\":\"".to_vec();
        write_json_str_body(&mut head, self.topic_prefix);
        for part in table.pdb.iter().chain([&table.owner, &table.table]) {
            head.push(b'.');
            write_json_str_body(&mut head, part);
        }
        head.extend_from_slice(b"\",\"key\":");
        let mut middle = b",\"snapshot\":\"false\",\"db\":".to_vec();
        write_json_str(&mut middle, table.pdb.as_deref().unwrap_or(self.db_name));
        middle.extend_from_slice(b",\"sequence\":null,\"schema\":");
        write_json_str(&mut middle, &table.owner);
        middle.extend_from_slice(b",\"table\":");
        write_json_str(&mut middle, &table.table);
        middle.extend_from_slice(b",\"txId\":");
        write_json_str(&mut middle, self.xid);
        middle.extend_from_slice(b",\"scn\":\"");
        let keys = cols
            .iter()
            .map(|c| (c.name.clone(), crate::encode::json_key(&c.name)))
            .collect();
        TableParts {
            name: table.clone(),
            head,
            middle,
            keys,
        }
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
        let cols = schema.columns_at(change.scn);
        let parts = self.take_table_parts(change, cols);
        let out = &mut self.buf;
        out.extend_from_slice(&parts.head);
        match after.or(before) {
            Some(img) => write_key(out, schema, cols, &parts.keys, img),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"value\":{\"before\":");
        match before {
            Some(b) => write_image(out, cols, &parts.keys, b),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"after\":");
        match after {
            Some(a) => write_image(out, cols, &parts.keys, a),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(&self.source_head);
        out.extend_from_slice(&parts.middle);
        write_int(out, change.scn);
        out.extend_from_slice(&self.after_scn);
        write_json_str(out, &change.rs_id);
        out.extend_from_slice(b",\"ssn\":");
        write_int(out, change.ssn);
        out.extend_from_slice(&self.thread);
        write_json_str(out, &change.user);
        out.extend_from_slice(b",\"row_id\":");
        write_json_str(out, &change.row_id);
        out.extend_from_slice(b"},\"op\":\"");
        out.extend_from_slice(op.code().as_bytes());
        out.extend_from_slice(b"\",\"ts_ms\":");
        write_int(out, self.now_ms);
        out.extend_from_slice(b",\"transaction\":null},\"headers\":{\"cdc.scn\":\"");
        write_int(out, change.scn);
        out.extend_from_slice(&self.tail);
        self.table = Some(parts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::model::ColumnInfo;
    use crate::types::ColumnType;
    use serde_json::{json, Value as Json};

    /// A change's record lines from a fresh writer, owned.
    fn change_record_lines(
        topic_prefix: &str,
        db_name: &str,
        schema: &TableSchema,
        change: &Change,
        tx: &Committed,
    ) -> Vec<Vec<u8>> {
        TxRecordWriter::new(topic_prefix, db_name, tx, 0)
            .lines(schema, change)
            .map(<[u8]>::to_vec)
            .collect()
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
        let mut writer = TxRecordWriter::new("cdc", "DB", &tx, 0);
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

    /// A column renamed within a transaction: the writer's keys, escaped for the layout of the
    /// first change, are not used for the renamed column.
    #[test]
    fn a_layout_change_within_a_transaction_writes_the_new_names() {
        let mut schema = schema();
        let mut renamed = schema.history[0].1.clone();
        renamed[1].name = "FULL \"NAME\"".into();
        schema.history.push((100, renamed));
        let tx = tx();
        let mut writer = TxRecordWriter::new("cdc", "DB", &tx, 0);
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
                    .lines(&schema, c)
                    .map(|l| serde_json::from_slice::<Json>(l).unwrap())
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(lines[0]["value"]["after"]["NAME"], "a");
        assert_eq!(lines[1]["value"]["after"]["FULL \"NAME\""], "b");
        assert!(lines[1]["value"]["after"].get("NAME").is_none());
    }
}
