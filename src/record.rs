//! Records as Debezium 3.x's Oracle connector writes them: the consumer contract. A record is
//! written as one JSON line shaped like a Kafka record: `topic`, `key` (the key columns), `value`
//! (the envelope, or null for a tombstone) and `headers`; key and value are what Kafka
//! Connect's JsonConverter writes, with `{"schema":…,"payload":…}` when `format` asks.
//! [`format`] holds the switches, [`value`] a column's value and schema, [`schema`] the
//! record schemas; change records are written by `capture::records`.

pub mod format;
pub mod heads;
pub mod schema;
pub mod schema_change;
pub mod value;

use crate::source::model::{ColumnInfo, FetchedRow, Scn};
use format::Format;
use serde_json::{json, Map, Value as Json};

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
        crate::capture::records::topic_of(self.topic_prefix, self.table, true)
    }

    /// The row as a JSON object of column → value in `fmt`.
    pub fn row_json_in(&self, values: &[crate::types::Value], fmt: &Format) -> Map<String, Json> {
        let mut m = Map::with_capacity(self.columns.len());
        for (c, v) in self.columns.iter().zip(values) {
            m.insert(c.name.clone(), value::to_json(v, &c.data_type, fmt));
        }
        m
    }

    fn key_json(&self, row: &Map<String, Json>) -> Json {
        if self.key_columns.is_empty() {
            return Json::Null;
        }
        let mut k = Map::new();
        for c in self.key_columns {
            k.insert(c.clone(), row.get(c).cloned().unwrap_or(Json::Null));
        }
        Json::Object(k)
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

    /// The table's topic and record schemas in `fmt`, made once per chunk (a schema is a few
    /// kilobytes of JSON).
    pub fn schemas(&self, fmt: &Format, with_pdb: bool) -> TableSchemas {
        let topic = crate::capture::records::topic_of(self.topic_prefix, self.table, with_pdb);
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
        }
    }

    /// A snapshot record line (op `r`) for a row read at `scn` (`ts_ms`: when the snapshot
    /// read it), in `fmt`.
    pub fn snapshot_line(
        &self,
        fmt: &Format,
        schemas: &TableSchemas,
        row: &FetchedRow,
        scn: Scn,
        marker: SnapshotMarker,
        ts_ms: i64,
    ) -> Vec<u8> {
        let after = self.row_json_in(&row.values, fmt);
        let key = self.key_json(&after);
        let now = crate::capture::records::now_ns();
        let source = json!({
            "version": env!("CARGO_PKG_VERSION"),
            "connector": "oracle",
            "name": self.topic_prefix,
            "ts_ms": ts_ms,
            "snapshot": marker.as_str(),
            "db": self.db,
            "sequence": null,
            "ts_us": ts_ms * 1000,
            "ts_ns": ts_ms * 1_000_000,
            "schema": self.table.owner,
            "table": self.table.table,
            "txId": null,
            "scn": scn.to_string(),
            "commit_scn": null,
            "lcr_position": null,
            "rs_id": null,
            "ssn": 0,
            "redo_thread": null,
            "user_name": null,
            "redo_sql": null,
            "row_id": (!row.rowid.is_empty()).then_some(&row.rowid),
            "commit_ts_ms": null,
            "start_scn": null,
            "start_ts_ms": null,
            "txSeq": null,
        });
        let envelope = json!({
            "before": null,
            "after": after,
            "source": source,
            "transaction": null,
            "op": "r",
            "ts_ms": now / 1_000_000,
            "ts_us": now / 1000,
            "ts_ns": now,
        });
        let mut out = Vec::with_capacity(512);
        out.extend_from_slice(b"{\"topic\":");
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
}

/// A table's topic and the `{"schema":…,"payload":` heads of its keys and values.
pub struct TableSchemas {
    pub topic: String,
    key_head: Option<Vec<u8>>,
    value_head: Option<Vec<u8>>,
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{ColumnType, Value};

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
