//! Records in Debezium's Oracle envelope: the consumer contract. A record is written as one
//! JSON line shaped like a Kafka record: `topic`, `key` (the key columns), `value` (the
//! envelope) and `headers`.

use crate::encode;
use crate::source::model::{ColumnInfo, FetchedRow, Scn};
use serde_json::{json, Map, Value as Json};

/// The `source.snapshot` field of snapshot records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotMarker {
    First,
    True,
    Last,
    Incremental,
}

impl SnapshotMarker {
    /// The marker of row `i` of a chunk of `n` rows: `first` for the snapshot's first record,
    /// `last` for its last, `true` otherwise.
    pub fn for_row(first_record: bool, last_record: bool, i: usize, n: usize) -> SnapshotMarker {
        if first_record && i == 0 {
            SnapshotMarker::First
        } else if last_record && i + 1 == n {
            SnapshotMarker::Last
        } else {
            SnapshotMarker::True
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SnapshotMarker::First => "first",
            SnapshotMarker::True => "true",
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
    pub fn topic(&self) -> String {
        format!("{}.{}", self.topic_prefix, self.table.raw())
    }

    /// The row as a JSON object of column → value.
    pub fn row_json(&self, values: &[crate::types::Value]) -> Map<String, Json> {
        let mut m = Map::with_capacity(self.columns.len());
        for (c, v) in self.columns.iter().zip(values) {
            m.insert(c.name.clone(), encode::to_json(v, &c.data_type));
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

    /// A snapshot record (op `r`) for a row read at `scn`.
    pub fn snapshot_record(
        &self,
        row: &FetchedRow,
        scn: Scn,
        marker: SnapshotMarker,
        ts_ms: i64,
    ) -> Json {
        let after = self.row_json(&row.values);
        let key = self.key_json(&after);
        json!({
            "topic": self.topic(),
            "key": key,
            "value": {
                "before": null,
                "after": after,
                "source": {
                    "version": env!("CARGO_PKG_VERSION"),
                    "connector": "oracle",
                    "name": self.topic_prefix,
                    "ts_ms": ts_ms,
                    "snapshot": marker.as_str(),
                    "db": self.db,
                    "sequence": null,
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
                    "row_id": row.rowid,
                },
                "op": "r",
                "ts_ms": ts_ms,
                "transaction": null,
            },
            "headers": { "cdc.snapshot": marker.as_str() },
        })
    }
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
        let r = ctx.snapshot_record(&row, 1234, SnapshotMarker::First, 99);
        assert_eq!(r["topic"], "cdc.PDB1.HR.EMP");
        assert_eq!(r["key"], json!({"ID": 7}));
        assert_eq!(r["headers"]["cdc.snapshot"], "first");
        let v = &r["value"];
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
    }
}
