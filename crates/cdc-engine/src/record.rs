//! Records as Debezium 3.x's Oracle connector writes them: the consumer contract. A record is a
//! [`Record`], a Kafka record's parts: `topic`, `key` (the key columns), `value` (the envelope,
//! or none for a tombstone) and `headers`; key and value are what Kafka Connect's JsonConverter
//! writes, with `{"schema":…,"payload":…}` when `format` asks. Every sink takes it so; the file
//! and stdout sinks write it as one JSON line ([`LineWriter`]).
//! [`format`] holds the switches, [`value`] a column's value and schema, [`schema`] the
//! record schemas; change records are written by `capture::records`.

// How records are encoded is a setting (settings::record_format); records read it as `format`.
pub use crate::settings::record_format as format;
pub mod envelope;
pub mod heads;
pub mod schema;
pub mod schema_change;
pub mod sink_record;
pub mod value;

pub use sink_record::{HeaderValue, Headers, LineWriter, OwnedRecord, Record, RecordParts};

use cdc_core::model::{ColumnInfo, FetchedRow, Scn};
use format::Format;
use serde_json::{Map, Value as Json};

/// The `source.snapshot` field of snapshot records (Debezium's `SnapshotRecord`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotMarker {
    First,
    FirstInDataCollection,
    True,
    LastInDataCollection,
    Last,
    Incremental,
}

impl SnapshotMarker {
    /// The marker of row `i` of a chunk of `n` rows: `first` for the snapshot's first record,
    /// `last` for its last, `true` otherwise.
    pub fn for_row(first_record: bool, last_record: bool, i: usize, n: usize) -> SnapshotMarker {
        Self::in_table(first_record, last_record, false, false, i, n)
    }

    /// As [`Self::for_row`], and `first_in_data_collection` / `last_in_data_collection` for a
    /// table's first and last record that are not the snapshot's (`table_first`: the chunk is
    /// the table's first rows; `table_last`: its last), as Debezium's
    /// `RelationalSnapshotChangeEventSource` marks them.
    pub fn in_table(
        first_record: bool,
        last_record: bool,
        table_first: bool,
        table_last: bool,
        i: usize,
        n: usize,
    ) -> SnapshotMarker {
        let (first, last) = (i == 0, i + 1 == n);
        if first_record && first {
            SnapshotMarker::First
        } else if table_first && first {
            SnapshotMarker::FirstInDataCollection
        } else if last_record && last {
            SnapshotMarker::Last
        } else if table_last && last {
            SnapshotMarker::LastInDataCollection
        } else {
            SnapshotMarker::True
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SnapshotMarker::First => "first",
            SnapshotMarker::FirstInDataCollection => "first_in_data_collection",
            SnapshotMarker::True => "true",
            SnapshotMarker::LastInDataCollection => "last_in_data_collection",
            SnapshotMarker::Last => "last",
            SnapshotMarker::Incremental => "incremental",
        }
    }
}

/// What every record of one table shares.
pub struct TableContext<'a> {
    pub topic_prefix: &'a str,
    /// `source.db`: the PDB in a multitenant database, else the database name.
    pub db: &'a str,
    pub table: &'a crate::names::TableName,
    pub columns: &'a [ColumnInfo],
    pub key_columns: &'a [String],
}

impl TableContext<'_> {
    /// The topic with the PDB (`PREFIX.PDB.OWNER.TABLE`) as the record exports name files.
    pub fn topic(&self) -> String {
        envelope::topic_of(self.topic_prefix, self.table, true)
    }

    /// The row as a JSON object of column → value in `fmt`.
    pub fn row_json_in(&self, values: &[crate::types::Value], fmt: &Format) -> Map<String, Json> {
        let mut m = Map::with_capacity(self.columns.len());
        for (c, v) in self.columns.iter().zip(values) {
            m.insert(c.name.clone(), value::to_json(v, &c.data_type, fmt));
        }
        m
    }

    /// A snapshot record (op `r`) in Debezium's default format, topic with the PDB.
    pub fn snapshot_record(
        &self,
        row: &FetchedRow,
        scn: Scn,
        marker: SnapshotMarker,
        ts_ms: i64,
    ) -> Json {
        self.snapshot_record_in(&Format::default(), true, row, scn, marker, ts_ms)
    }

    /// [`Self::snapshot_line`] as JSON, the schemas made for this one record.
    pub fn snapshot_record_in(
        &self,
        fmt: &Format,
        with_pdb: bool,
        row: &FetchedRow,
        scn: Scn,
        marker: SnapshotMarker,
        ts_ms: i64,
    ) -> Json {
        let schemas = self.schemas(fmt, with_pdb);
        let line = self.snapshot_line(fmt, &schemas, row, scn, marker, ts_ms);
        serde_json::from_slice(&line).unwrap_or(Json::Null)
    }

    /// The table's topic, record schemas and the envelope's text fixed by the table, in `fmt`,
    /// made once per chunk (a schema is a few kilobytes of JSON).
    pub fn schemas(&self, fmt: &Format, with_pdb: bool) -> TableSchemas {
        let topic = envelope::topic_of(self.topic_prefix, self.table, with_pdb);
        let key_head = fmt
            .key_schemas
            .then(|| schema::key_schema(&topic, self.columns, self.key_columns, fmt))
            .flatten()
            .map(|s| schema::wrapper_head(&s));
        let value_head = fmt
            .value_schemas
            .then(|| schema::wrapper_head(&schema::envelope_schema(&topic, self.columns, fmt)));
        TableSchemas {
            topic,
            key_head,
            value_head,
            column_keys: self
                .columns
                .iter()
                .map(|c| crate::encode::json_key(&c.name))
                .collect(),
            key_columns: self
                .key_columns
                .iter()
                .map(|k| {
                    let at = self.columns.iter().position(|c| &c.name == k);
                    (crate::encode::json_key(k), at)
                })
                .collect(),
            envelope: envelope::TableEnvelope::new(self.topic_prefix, self.db, self.table),
        }
    }

    /// A snapshot record's JSON line (op `r`) for a row read at `scn` (`ts_ms`: when the
    /// snapshot read it), in `fmt`.
    pub fn snapshot_line(
        &self,
        fmt: &Format,
        schemas: &TableSchemas,
        row: &FetchedRow,
        scn: Scn,
        marker: SnapshotMarker,
        ts_ms: i64,
    ) -> Vec<u8> {
        let mut parts = Vec::with_capacity(512);
        let written = self.write_snapshot(&mut parts, fmt, schemas, row, scn, marker, ts_ms);
        let line = schemas.record(&parts, &written).line();
        line
    }

    /// Append a snapshot record's key and value (op `r`) to `out`, written straight from the
    /// row's values as the stream writes its records; the text fixed by the table comes from
    /// `schemas`. [`TableSchemas::record`] makes the record of what it returns. (Built as a
    /// `serde_json` value tree, four fifths of capture's snapshot time went to the tree.)
    #[allow(clippy::too_many_arguments)]
    pub fn write_snapshot(
        &self,
        out: &mut Vec<u8>,
        fmt: &Format,
        schemas: &TableSchemas,
        row: &FetchedRow,
        scn: Scn,
        marker: SnapshotMarker,
        ts_ms: i64,
    ) -> WrittenSnapshot {
        let key_from = out.len();
        let has_key = self.write_snapshot_key(out, fmt, schemas, row);
        let key = has_key.then_some(key_from..out.len());
        let value_from = out.len();
        self.write_snapshot_value(out, fmt, schemas, row, scn, marker, ts_ms);
        WrittenSnapshot {
            key,
            value: value_from..out.len(),
            marker,
        }
    }

    /// Append a snapshot record's key; false (nothing written) for a table without one.
    pub fn write_snapshot_key(
        &self,
        out: &mut Vec<u8>,
        fmt: &Format,
        schemas: &TableSchemas,
        row: &FetchedRow,
    ) -> bool {
        if schemas.key_columns.is_empty() {
            return false;
        }
        if let Some(head) = &schemas.key_head {
            out.extend_from_slice(head);
        }
        out.push(b'{');
        for (i, (key, at)) in schemas.key_columns.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(key);
            match at.and_then(|at| Some((self.columns.get(at)?, row.values.get(at)?))) {
                Some((c, v)) => value::write(out, v, &c.data_type, fmt),
                None => out.extend_from_slice(b"null"),
            }
        }
        out.push(b'}');
        if schemas.key_head.is_some() {
            out.push(b'}');
        }
        true
    }

    /// Append a snapshot record's value (its envelope).
    #[allow(clippy::too_many_arguments)]
    pub fn write_snapshot_value(
        &self,
        out: &mut Vec<u8>,
        fmt: &Format,
        schemas: &TableSchemas,
        row: &FetchedRow,
        scn: Scn,
        marker: SnapshotMarker,
        ts_ms: i64,
    ) {
        let source = envelope::Source::Snapshot {
            ts_ms,
            marker: marker.as_str(),
            scn,
            row_id: (!row.rowid.is_empty()).then_some(row.rowid.as_str()),
        };
        schemas.envelope.write(
            out,
            schemas.value_head.as_deref(),
            |_| false,
            |out| {
                out.push(b'{');
                for (i, ((key, c), v)) in schemas
                    .column_keys
                    .iter()
                    .zip(self.columns)
                    .zip(&row.values)
                    .enumerate()
                {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(key);
                    value::write(out, v, &c.data_type, fmt);
                }
                out.push(b'}');
                true
            },
            &source,
            None,
            "r",
            envelope::now_ns(),
        );
    }
}

/// Where [`TableContext::write_snapshot`] wrote a record's key and value in its buffer, and
/// the record's marker (its `cdc.snapshot` header).
#[derive(Debug, Clone)]
pub struct WrittenSnapshot {
    key: Option<std::ops::Range<usize>>,
    value: std::ops::Range<usize>,
    marker: SnapshotMarker,
}

/// A table's topic, the `{"schema":…,"payload":` heads of its keys and values, and the text of
/// its snapshot records that is the same for every row.
pub struct TableSchemas {
    pub topic: String,
    key_head: Option<Vec<u8>>,
    value_head: Option<Vec<u8>>,
    /// Each column's `"NAME":`.
    column_keys: Vec<Vec<u8>>,
    /// Each key column's `"NAME":` and its place among the columns (None: not among them,
    /// written as null).
    key_columns: Vec<(Vec<u8>, Option<usize>)>,
    /// The envelope's text fixed by the table.
    envelope: envelope::TableEnvelope,
}

impl TableSchemas {
    /// A snapshot record's headers.
    pub fn headers<'h>(marker: SnapshotMarker) -> Headers<'h> {
        let mut headers = Headers::new();
        headers.push(("cdc.snapshot", HeaderValue::Text(marker.as_str())));
        headers
    }

    /// The record [`TableContext::write_snapshot`] wrote in `buf`.
    pub fn record<'a>(&'a self, buf: &'a [u8], written: &WrittenSnapshot) -> Record<'a> {
        Record {
            topic: &self.topic,
            key: written.key.clone().map(|k| &buf[k]),
            value: Some(&buf[written.value.clone()]),
            headers: Self::headers(written.marker),
        }
    }
}

// The wall clock in epoch milliseconds is the core's; records and the rest of the engine read it.
pub use cdc_core::civil::now_ms;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{ColumnType, Value};
    use serde_json::json;

    /// The snapshot line as it was built before it was written straight from the row: a
    /// `serde_json` tree of the envelope, printed. The reference the direct writer must equal
    /// byte for byte.
    #[allow(clippy::too_many_arguments)]
    fn reference_line(
        ctx: &TableContext,
        fmt: &Format,
        schemas: &TableSchemas,
        row: &FetchedRow,
        scn: Scn,
        marker: SnapshotMarker,
        ts_ms: i64,
        now: i64,
    ) -> Vec<u8> {
        let after = ctx.row_json_in(&row.values, fmt);
        let key = if ctx.key_columns.is_empty() {
            Json::Null
        } else {
            let mut k = Map::new();
            for c in ctx.key_columns {
                k.insert(c.clone(), after.get(c).cloned().unwrap_or(Json::Null));
            }
            Json::Object(k)
        };
        let source = json!({
            "version": env!("CARGO_PKG_VERSION"), "connector": "oracle", "name": ctx.topic_prefix,
            "ts_ms": ts_ms, "snapshot": marker.as_str(), "db": ctx.db, "sequence": null,
            "ts_us": ts_ms * 1000, "ts_ns": ts_ms * 1_000_000, "schema": ctx.table.owner,
            "table": ctx.table.table, "txId": null, "scn": scn.to_string(), "commit_scn": null,
            "lcr_position": null, "rs_id": null, "ssn": 0, "redo_thread": null,
            "user_name": null, "redo_sql": null,
            "row_id": (!row.rowid.is_empty()).then_some(&row.rowid), "commit_ts_ms": null,
            "start_scn": null, "start_ts_ms": null, "txSeq": null,
        });
        let envelope = json!({
            "before": null, "after": after, "source": source, "transaction": null, "op": "r",
            "ts_ms": now / 1_000_000, "ts_us": now / 1000, "ts_ns": now,
        });
        let mut out = b"{\"topic\":".to_vec();
        crate::encode::write_json_str(&mut out, &schemas.topic);
        out.extend_from_slice(b",\"key\":");
        match (&schemas.key_head, key.is_null()) {
            (Some(head), false) => {
                out.extend_from_slice(head);
                out.extend_from_slice(key.to_string().as_bytes());
                out.push(b'}');
            }
            _ => out.extend_from_slice(key.to_string().as_bytes()),
        }
        out.extend_from_slice(b",\"value\":");
        if let Some(head) = &schemas.value_head {
            out.extend_from_slice(head);
        }
        out.extend_from_slice(envelope.to_string().as_bytes());
        if schemas.value_head.is_some() {
            out.push(b'}');
        }
        out.extend_from_slice(b",\"headers\":{\"cdc.snapshot\":\"");
        out.extend_from_slice(marker.as_str().as_bytes());
        out.extend_from_slice(b"\"}}");
        out
    }

    /// The processing time a line carries (`"ts_ns":N` of the envelope, the last one).
    fn envelope_ts_ns(line: &[u8]) -> i64 {
        let text = std::str::from_utf8(line).unwrap();
        let at = text.rfind("\"ts_ns\":").unwrap() + 8;
        text[at..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    }

    /// The direct writer gives the bytes the value tree gave, for every type a row carries,
    /// under every format switch that changes a value or a head, with and without a key,
    /// with and without a ROWID, with text that needs escaping (issue 39 item 1: the goldens
    /// hold only the default format and a few types).
    #[test]
    fn snapshot_lines_are_the_bytes_the_value_tree_gave() {
        let table: crate::names::TableName = r#"PDB1.HR."ODD \ T""#.parse().unwrap();
        let types = [
            ("ID", "NUMBER(10)", Value::Number("42".into())),
            ("AMOUNT", "NUMBER(12,2)", Value::Number("-1234.5".into())),
            (
                "ANYNUM",
                "NUMBER",
                Value::Number("0.000123456789012345678901".into()),
            ),
            (
                "BIG",
                "NUMBER(38)",
                Value::Number("12345678901234567890123456789012345678".into()),
            ),
            ("F", "FLOAT(126)", Value::Number("-1.5e-3".into())),
            (
                "NAME",
                "VARCHAR2(40)",
                Value::Text("a \"quote\" \\ é\u{1}\n".into()),
            ),
            ("D", "DATE", Value::Date("2024-02-29T13:14:15".into())),
            (
                "TS9",
                "TIMESTAMP(9)",
                Value::Timestamp("2024-02-29T13:14:15.123456789".into()),
            ),
            (
                "TS3",
                "TIMESTAMP(3)",
                Value::Timestamp("1969-12-31T23:59:59.999".into()),
            ),
            (
                "TSTZ",
                "TIMESTAMP(6) WITH TIME ZONE",
                Value::TimestampTz("2024-02-29T13:14:15.5+05:30".into()),
            ),
            (
                "LTZ",
                "TIMESTAMP(6) WITH LOCAL TIME ZONE",
                Value::TimestampTz("2024-02-29T13:14:15.5Z".into()),
            ),
            (
                "IYM",
                "INTERVAL YEAR(2) TO MONTH",
                Value::IntervalYm("-3-6".into()),
            ),
            (
                "IDS",
                "INTERVAL DAY(3) TO SECOND(6)",
                Value::IntervalDs("-1 02:03:04.560000".into()),
            ),
            ("R", "RAW(8)", Value::Bytes(vec![0, 255, 16, 128])),
            ("BF", "BINARY_FLOAT", Value::BinaryFloat(985.550_66)),
            (
                "BD",
                "BINARY_DOUBLE",
                Value::BinaryDouble(-523_194.292_903_329_77),
            ),
            ("DOC", "JSON", Value::Json("{\"n\":1}".into())),
            ("NOTHING", "VARCHAR2(4)", Value::Null),
        ];
        let columns: Vec<ColumnInfo> = types
            .iter()
            .map(|(name, ty, _)| ColumnInfo {
                name: (*name).into(),
                data_type: ColumnType::parse(ty).unwrap(),
                nullable: *name != "ID",
                virtual_column: false,
                hidden: false,
            })
            .collect();
        let values: Vec<Value> = types.iter().map(|(_, _, v)| v.clone()).collect();
        let mut formats = vec![Format::default()];
        for decimal in [format::DecimalMode::Double, format::DecimalMode::String] {
            formats.push(Format {
                decimal,
                ..Format::default()
            });
        }
        formats.push(Format {
            time: format::TimePrecision::Connect,
            interval: format::IntervalMode::String,
            binary: format::BinaryMode::Hex,
            ..Format::default()
        });
        formats.push(Format {
            value_schemas: false,
            key_schemas: false,
            binary: format::BinaryMode::Base64UrlSafe,
            ..Format::default()
        });
        let keys = [
            vec!["ID".to_string(), "NAME".to_string()],
            vec![],
            vec!["GONE".to_string()],
        ];
        let mut compared = 0;
        for fmt in &formats {
            for key_columns in &keys {
                for rowid in ["", "AAAR0pAAEAAAACIAAA"] {
                    let ctx = TableContext {
                        topic_prefix: "cdc\"x",
                        db: "PDB1",
                        table: &table,
                        columns: &columns,
                        key_columns,
                    };
                    let row = FetchedRow {
                        rowid: rowid.into(),
                        values: values.clone(),
                    };
                    let schemas = ctx.schemas(fmt, true);
                    let line =
                        ctx.snapshot_line(fmt, &schemas, &row, 1234, SnapshotMarker::Last, 99);
                    let now = envelope_ts_ns(&line);
                    let want = reference_line(
                        &ctx,
                        fmt,
                        &schemas,
                        &row,
                        1234,
                        SnapshotMarker::Last,
                        99,
                        now,
                    );
                    assert_eq!(
                        String::from_utf8_lossy(&line),
                        String::from_utf8_lossy(&want),
                        "{key_columns:?} {rowid:?}"
                    );
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, formats.len() * 6);
    }

    #[test]
    fn snapshot_records_follow_debeziums_envelope() {
        let table: crate::names::TableName = "PDB1.HR.EMP".parse().unwrap();
        let columns = vec![
            ColumnInfo {
                name: "ID".into(),
                data_type: ColumnType::parse("NUMBER(5)").unwrap(),
                nullable: false,
                virtual_column: false,
                hidden: false,
            },
            ColumnInfo {
                name: "NAME".into(),
                data_type: ColumnType::parse("VARCHAR2(9)").unwrap(),
                nullable: true,
                virtual_column: false,
                hidden: false,
            },
        ];
        let key = vec!["ID".to_string()];
        let ctx = TableContext {
            topic_prefix: "cdc",
            db: "PDB1",
            table: &table,
            columns: &columns,
            key_columns: &key,
        };
        let row = FetchedRow {
            rowid: "AAAR0pAAEAAAACIAAA".into(),
            values: vec![Value::Number("7".into()), Value::Null],
        };
        let r = ctx.snapshot_record_in(
            &Format::default(),
            false,
            &row,
            1234,
            SnapshotMarker::First,
            99,
        );
        assert_eq!(r["topic"], "cdc.HR.EMP");
        assert_eq!(r["key"]["payload"], json!({"ID": 7}));
        assert_eq!(r["key"]["schema"]["name"], "cdc.HR.EMP.Key");
        assert_eq!(r["headers"]["cdc.snapshot"], "first");
        assert_eq!(r["value"]["schema"]["name"], "cdc.HR.EMP.Envelope");
        let v = &r["value"]["payload"];
        assert_eq!(v["op"], "r");
        assert!(v["before"].is_null());
        assert_eq!(v["after"], json!({"ID": 7, "NAME": null}));
        let s = &v["source"];
        assert_eq!(
            (
                s["connector"].as_str(),
                s["db"].as_str(),
                s["schema"].as_str(),
                s["table"].as_str()
            ),
            (Some("oracle"), Some("PDB1"), Some("HR"), Some("EMP"))
        );
        assert_eq!(s["scn"], "1234");
        assert!(s["txId"].is_null() && s["commit_scn"].is_null());
        assert_eq!(s["snapshot"], "first");
        assert_eq!(
            (s["ts_ms"].as_i64(), s["ts_us"].as_i64()),
            (Some(99), Some(99_000))
        );
        // The payload's fields are the schema's, in its order.
        let names = |schema: &Json| -> Vec<String> {
            schema["fields"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["field"].as_str().unwrap().to_string())
                .collect()
        };
        let schema = &r["value"]["schema"];
        assert_eq!(
            names(schema),
            v.as_object().unwrap().keys().cloned().collect::<Vec<_>>()
        );
        assert_eq!(
            names(&schema["fields"][2]),
            s.as_object().unwrap().keys().cloned().collect::<Vec<_>>()
        );
        let bare = Format {
            value_schemas: false,
            key_schemas: false,
            ..Format::default()
        };
        let r = ctx.snapshot_record_in(&bare, true, &row, 1234, SnapshotMarker::First, 99);
        assert_eq!(
            (r["topic"].as_str(), &r["key"]),
            (Some("cdc.PDB1.HR.EMP"), &json!({"ID": 7}))
        );
        assert_eq!(r["value"]["op"], "r");
    }

    /// Debezium's markers: the snapshot's first and last record, each table's first and last
    /// record otherwise, `true` in between.
    #[test]
    fn snapshot_markers_name_each_tables_first_and_last_record() {
        use SnapshotMarker as M;
        let m = |first, last, tf, tl, i, n| {
            SnapshotMarker::in_table(first, last, tf, tl, i, n).as_str()
        };
        // Table 1 of 2: one chunk of 3 rows.
        assert_eq!(
            (0..3)
                .map(|i| m(true, false, true, true, i, 3))
                .collect::<Vec<_>>(),
            [M::First.as_str(), "true", "last_in_data_collection"]
        );
        // Table 2 of 2.
        assert_eq!(
            (0..3)
                .map(|i| m(false, true, true, true, i, 3))
                .collect::<Vec<_>>(),
            ["first_in_data_collection", "true", "last"]
        );
        // A middle chunk of a table.
        assert_eq!(m(false, false, false, false, 0, 2), "true");
        assert_eq!(
            m(false, false, true, true, 0, 1),
            "first_in_data_collection"
        );
    }
}
