//! The Kafka Connect schemas of a table's records, as JsonConverter writes them with
//! `schemas.enable=true`: the key struct `TOPIC.Key`, the envelope `TOPIC.Envelope` (`before`
//! and `after` of `TOPIC.Value`, `source` of `io.debezium.connector.oracle.Source`,
//! `transaction` of `event.block`, `op`, `ts_ms`, `ts_us`, `ts_ns`), checked against Debezium
//! 3.x's `TableSchemaBuilder.create`, `SchemaFactory` (`sourceInfoSchemaBuilder`,
//! `snapshotRecordSchema`, `transactionBlockSchema`, `datatypeEnvelopeSchema`) and
//! `OracleSourceInfoStructMaker.init`.

use super::format::Format;
use super::value::field_schema;
use cdc_core::model::ColumnInfo;
use serde_json::{json, Map, Value as Json};

fn field(ty: &str, optional: bool, name: &str) -> Json {
    json!({"type": ty, "optional": optional, "field": name})
}

/// `io.debezium.connector.oracle.Source`, its fields in Debezium's order.
pub fn source_schema() -> Json {
    let s = |n: &str| field("string", false, n);
    let os = |n: &str| field("string", true, n);
    let ol = |n: &str| field("int64", true, n);
    json!({
        "type": "struct",
        "fields": [
            s("version"), s("connector"), s("name"), field("int64", false, "ts_ms"),
            {"type": "string", "optional": true, "name": "io.debezium.data.Enum", "version": 1,
             "parameters": {"allowed": "true,first,first_in_data_collection,last_in_data_collection,last,false,incremental"},
             "default": "false", "field": "snapshot"},
            s("db"), os("sequence"), ol("ts_us"), ol("ts_ns"), s("schema"), s("table"),
            os("txId"), os("scn"), os("commit_scn"), os("lcr_position"), os("rs_id"), ol("ssn"),
            field("int32", true, "redo_thread"), os("user_name"), os("redo_sql"), os("row_id"),
            ol("commit_ts_ms"), os("start_scn"), ol("start_ts_ms"), ol("txSeq"),
        ],
        "optional": false,
        "name": "io.debezium.connector.oracle.Source",
        "version": 1,
        "field": "source",
    })
}

/// `event.block`, the envelope's `transaction`.
pub fn transaction_block_schema() -> Json {
    json!({
        "type": "struct",
        "fields": [field("string", false, "id"), field("int64", false, "total_order"), field("int64", false, "data_collection_order")],
        "optional": true,
        "name": "event.block",
        "version": 1,
        "field": "transaction",
    })
}

fn row_struct(
    name: &str,
    columns: &[&ColumnInfo],
    optional: bool,
    fmt: &Format,
) -> Map<String, Json> {
    let fields: Vec<Json> = columns
        .iter()
        .map(|c| field_schema(&c.name, &c.data_type, c.nullable, fmt))
        .collect();
    let mut m = Map::new();
    m.insert("type".into(), "struct".into());
    m.insert("fields".into(), Json::Array(fields));
    m.insert("optional".into(), optional.into());
    m.insert("name".into(), name.into());
    m
}

/// The value schema of a change record of a table with these columns; `base` is the topic.
pub fn envelope_schema(base: &str, columns: &[ColumnInfo], fmt: &Format) -> Json {
    let cols: Vec<&ColumnInfo> = columns.iter().collect();
    let row = row_struct(&format!("{base}.Value"), &cols, true, fmt);
    let mut before = row.clone();
    before.insert("field".into(), "before".into());
    let mut after = row;
    after.insert("field".into(), "after".into());
    json!({
        "type": "struct",
        "fields": [
            before, after, source_schema(), transaction_block_schema(),
            field("string", false, "op"), field("int64", true, "ts_ms"),
            field("int64", true, "ts_us"), field("int64", true, "ts_ns"),
        ],
        "optional": false,
        "name": format!("{base}.Envelope"),
        "version": 2,
    })
}

/// The key schema (`None` for a table without a key: its key is null). Key columns are
/// required, as a primary key's are.
pub fn key_schema(
    base: &str,
    columns: &[ColumnInfo],
    key: &[String],
    fmt: &Format,
) -> Option<Json> {
    if key.is_empty() {
        return None;
    }
    let cols: Vec<ColumnInfo> = key
        .iter()
        .map(|k| {
            let mut c = columns
                .iter()
                .find(|c| &c.name == k)
                .cloned()
                .unwrap_or(ColumnInfo {
                    name: k.clone(),
                    data_type: crate::types::ColumnType::Rowid,
                    nullable: false,
                    virtual_column: false,
                    hidden: false,
                });
            c.nullable = false;
            c
        })
        .collect();
    let refs: Vec<&ColumnInfo> = cols.iter().collect();
    Some(Json::Object(row_struct(
        &format!("{base}.Key"),
        &refs,
        false,
        fmt,
    )))
}

/// `{"schema":S,"payload":` as text, for a value written after it and closed with `}`.
pub fn wrapper_head(schema: &Json) -> Vec<u8> {
    let mut out = b"{\"schema\":".to_vec();
    out.extend_from_slice(schema.to_string().as_bytes());
    out.extend_from_slice(b",\"payload\":");
    out
}
