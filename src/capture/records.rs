//! Change records (op c/u/d) in Debezium's Oracle envelope.

use crate::encode;
use crate::stream::buffer::Committed;
use crate::stream::decode::{Change, ChangeOp, TableSchema};
use crate::types::Value;
use serde_json::{json, Map, Value as Json};

fn image(schema: &TableSchema, change: &Change, values: &[(String, Value)]) -> Json {
    let cols = schema.columns_at(change.scn);
    let mut m = Map::with_capacity(values.len());
    for (name, v) in values {
        let json = match cols.iter().find(|c| &c.name == name) {
            Some(c) => encode::to_json(v, &c.data_type),
            None => Json::Null,
        };
        m.insert(name.clone(), json);
    }
    Json::Object(m)
}

fn key(schema: &TableSchema, image: &Json) -> Json {
    if schema.key.is_empty() {
        return Json::Null;
    }
    let mut k = Map::new();
    for c in &schema.key {
        k.insert(c.clone(), image.get(c).cloned().unwrap_or(Json::Null));
    }
    Json::Object(k)
}

/// The records of one change: one, or for an update that changes the key a delete of the old
/// key and a create of the new one (tombstone-free), as Debezium publishes it.
pub fn change_records(
    topic_prefix: &str,
    db_name: &str,
    schema: &TableSchema,
    change: &Change,
    tx: &Committed,
) -> Vec<Json> {
    let before = change.before.as_ref().map(|b| image(schema, change, b));
    let after = change.after.as_ref().map(|a| image(schema, change, a));
    let ts = encode::epoch_ms(&tx.commit_timestamp).unwrap_or_else(crate::record::now_ms);
    let db = change
        .table
        .pdb
        .clone()
        .unwrap_or_else(|| db_name.to_string());
    let record = |op: ChangeOp, before: Option<&Json>, after: Option<&Json>| {
        let k = key(schema, after.or(before).unwrap_or(&Json::Null));
        json!({
            "topic": format!("{topic_prefix}.{}", change.table),
            "key": k,
            "value": {
                "before": before,
                "after": after,
                "source": {
                    "version": env!("CARGO_PKG_VERSION"),
                    "connector": "oracle",
                    "name": topic_prefix,
                    "ts_ms": ts,
                    "snapshot": "false",
                    "db": db,
                    "sequence": null,
                    "schema": change.table.owner,
                    "table": change.table.table,
                    "txId": tx.xid,
                    "scn": change.scn.to_string(),
                    "commit_scn": tx.commit_scn.to_string(),
                    "lcr_position": null,
                    "rs_id": change.rs_id,
                    "ssn": change.ssn,
                    "redo_thread": tx.thread,
                    "user_name": change.user,
                    "row_id": change.row_id,
                },
                "op": op.code(),
                "ts_ms": crate::record::now_ms(),
                "transaction": null,
            },
            "headers": { "cdc.scn": change.scn.to_string(), "cdc.commit_scn": tx.commit_scn.to_string() },
        })
    };
    match (change.op, &before, &after) {
        (ChangeOp::Update, Some(b), Some(a))
            if !schema.key.is_empty() && key(schema, b) != key(schema, a) =>
        {
            vec![
                record(ChangeOp::Delete, Some(b), None),
                record(ChangeOp::Create, None, Some(a)),
            ]
        }
        _ => vec![record(change.op, before.as_ref(), after.as_ref())],
    }
}
