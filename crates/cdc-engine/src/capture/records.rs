//! Change records (op c/u/d/t) as Debezium 3.x's Oracle connector writes them, straight to JSON
//! bytes (the stream path's hot spot: no `serde_json::Value` is built per record). Each is a
//! [`Record`] (`topic`, `key`, `value`, `headers`) handed to the sink as it is; key and value are
//! what Kafka Connect's JsonConverter gives (with `{"schema":…,"payload":…}` when the format asks). A delete is
//! followed by a tombstone (same key, null value), a key change is a delete, a tombstone and a
//! create (headers `__debezium.newkey` / `__debezium.oldkey`), and with transaction metadata the
//! transaction's records are framed by BEGIN and END events on the transaction topic
//! (`RelationalChangeRecordEmitter`, `EventDispatcher`, `TransactionMonitor` and
//! `BufferedLogMinerStreamingChangeEventSource`: `ts_ms` is the change's time, `commit_ts_ms`
//! the commit's, `start_scn`/`start_ts_ms` the transaction's first change's, `txSeq` the
//! change's place in the transaction from 1).

use crate::encode::write_json_str;
use crate::record::format::Format;
use crate::record::heads::Heads;
use crate::record::value;
use crate::record::{HeaderValue, Headers, Record};
use crate::stream::buffer::Committed;
use crate::stream::decode::{Change, ChangeOp, TableSchema};
use crate::types::Value;
use cdc_core::model::{ColumnInfo, Scn};
use std::collections::BTreeMap;
use std::ops::Range;
use std::rc::Rc;

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
    fmt: &Format,
) {
    match i.and_then(|i| keys.get(i)).filter(|(n, _)| n == name) {
        Some((_, key)) => out.extend_from_slice(key),
        None => {
            write_json_str(out, name);
            out.push(b':');
        }
    }
    match i {
        Some(i) => value::write(out, v, &cols[i].data_type, fmt),
        None => out.extend_from_slice(b"null"),
    }
}

fn write_image(out: &mut Vec<u8>, cols: &[ColumnInfo], keys: &Keys, values: &Image, fmt: &Format) {
    out.push(b'{');
    let mut from = 0;
    for (n, (name, v)) in values.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        let i = column(cols, &mut from, name);
        write_pair(out, cols, keys, i, name, v, fmt);
    }
    out.push(b'}');
}

/// The envelope's writer of `img` (`before` or `after`; none is null).
fn image<'x>(
    img: Option<&'x Image>,
    cols: &'x [ColumnInfo],
    keys: &'x Keys,
    fmt: &'x Format,
) -> impl FnOnce(&mut Vec<u8>) -> bool + 'x {
    move |out| match img {
        Some(img) => {
            write_image(out, cols, keys, img, fmt);
            true
        }
        None => false,
    }
}

/// The key's payload (`null` for a table without a key).
fn write_key(
    out: &mut Vec<u8>,
    schema: &TableSchema,
    cols: &[ColumnInfo],
    keys: &Keys,
    image: &Image,
    fmt: &Format,
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
        write_pair(out, cols, keys, i, k, v, fmt);
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

// The envelope's shared pieces are record's (`record::envelope`), for snapshot and stream alike.
use crate::record::envelope::write_int;
pub use crate::record::envelope::{now_ns, topic_of};
use crate::record::envelope::{ChangeSource, Source, TableEnvelope, TxOrder};

/// Writes the change records of one committed transaction. The envelope's text that is the
/// same for every record of the transaction, or of a table within it, is escaped once (a
/// record has two dozen strings, and escaping them one by one was a sixth of the stream's
/// instructions); the processing time (`value.ts_ms`) is read again every [`NOW_EVERY`]
/// records; one buffer is reused.
pub struct TxRecordWriter<'a> {
    topic_prefix: &'a str,
    db_name: &'a str,
    fmt: &'a Format,
    /// Whether topics name the PDB.
    with_pdb: bool,
    host_offset_secs: i32,
    commit_ms: i64,
    commit_scn: Scn,
    thread: u32,
    xid: &'a str,
    table: Option<TableParts>,
    now_ns: i64,
    since_now: u32,
    /// Changes written so far (`txSeq` of the last), and the first one's SCN and time.
    events: u64,
    start: Option<(cdc_core::model::Scn, i64)>,
    /// Records per table (`data_collection_order`, and END's counts), and in all.
    per_table: BTreeMap<String, u64>,
    total: u64,
    /// The keys and values of the change's records (and their key-change headers' text),
    /// back to back, and where each record's parts are.
    buf: Vec<u8>,
    spans: Vec<Span>,
}

/// Where one record's parts are in the writer's buffer.
struct Span {
    topic: Rc<str>,
    key: Option<Range<usize>>,
    value: Option<Range<usize>>,
    /// `__debezium.newkey` or `__debezium.oldkey` of a key change, and its text.
    other_key: Option<(&'static str, Range<usize>)>,
    /// The change's SCN (`cdc.scn`, with `cdc.commit_scn`); none for transaction events.
    scn: Option<Scn>,
}

/// The parts of the envelope fixed by the table (and the transaction).
struct TableParts {
    name: crate::names::TableName,
    topic: Rc<str>,
    /// Debezium's data-collection name, `DB.OWNER.TABLE`.
    collection: String,
    /// The JsonConverter schema heads and the column keys of the table's layout (made once
    /// per layout, `record::heads`).
    heads: Rc<Heads>,
    /// The envelope's text fixed by the table.
    envelope: TableEnvelope,
}

/// Records written between two reads of the clock for `value.ts_ms` (a read costs as much as
/// writing a tenth of a record; a transaction's records are written within microseconds).
const NOW_EVERY: u32 = 64;

/// Which record of a change is being written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Plain,
    /// The delete of a key change (`__debezium.newkey` header).
    KeyDelete,
    /// The create of a key change (`__debezium.oldkey` header).
    KeyCreate,
}

impl<'a> TxRecordWriter<'a> {
    /// `host_offset_secs`: the database host's offset from UTC, which the transaction's
    /// COMMIT_TIMESTAMP and the changes' TIMESTAMPs (DATEs of the host's clock) are converted
    /// from. `with_pdb`: whether topics name the PDB ([`Format::topic_has_pdb`]).
    pub fn new(
        topic_prefix: &'a str,
        db_name: &'a str,
        tx: &'a Committed,
        host_offset_secs: i32,
        fmt: &'a Format,
        with_pdb: bool,
    ) -> Self {
        let commit_ms =
            cdc_core::model::host_time_to_epoch_ms(&tx.commit_timestamp, host_offset_secs)
                .unwrap_or_else(cdc_core::civil::now_ms);
        TxRecordWriter {
            topic_prefix,
            db_name,
            fmt,
            with_pdb,
            host_offset_secs,
            commit_ms,
            commit_scn: tx.commit_scn,
            thread: tx.thread,
            xid: &tx.xid,
            table: None,
            now_ns: 0,
            since_now: NOW_EVERY,
            events: 0,
            start: None,
            per_table: BTreeMap::new(),
            total: 0,
            buf: Vec::with_capacity(4096),
            spans: Vec::with_capacity(4),
        }
    }

    /// The records of `change`, in the writer's buffer: one, a delete and its tombstone, or
    /// for an update that changes the key a delete of the old key, its tombstone and a create
    /// of the new one, as Debezium publishes them; the first change of a transaction with
    /// metadata is preceded by the BEGIN event.
    pub fn records(
        &mut self,
        schema: &TableSchema,
        change: &Change,
    ) -> impl Iterator<Item = Record<'_>> + '_ {
        self.buf.clear();
        self.spans.clear();
        self.events += 1;
        let change_ms =
            cdc_core::model::host_time_to_epoch_ms(&change.timestamp, self.host_offset_secs)
                .unwrap_or(self.commit_ms);
        if self.start.is_none() {
            self.start = Some((change.scn, change_ms));
        }
        let before = change.before.as_deref();
        let after = change.after.as_deref();
        match (change.op, before, after) {
            (ChangeOp::Update, Some(b), Some(a)) if key_changed(schema, b, a) => {
                let deleted = self.write_line(
                    schema,
                    change,
                    ChangeOp::Delete,
                    Some(b),
                    None,
                    change_ms,
                    Role::KeyDelete,
                    Some(a),
                );
                self.write_tombstone(schema, change, b, deleted);
                self.write_line(
                    schema,
                    change,
                    ChangeOp::Create,
                    None,
                    Some(a),
                    change_ms,
                    Role::KeyCreate,
                    Some(b),
                );
            }
            (ChangeOp::Delete, Some(b), _) => {
                let deleted = self.write_line(
                    schema,
                    change,
                    ChangeOp::Delete,
                    Some(b),
                    after,
                    change_ms,
                    Role::Plain,
                    None,
                );
                self.write_tombstone(schema, change, b, deleted);
            }
            // A truncate has neither image nor key (Debezium's `Envelope.truncate` and its
            // `EventDispatcher`: a null key with no key schema).
            _ => {
                self.write_line(
                    schema,
                    change,
                    change.op,
                    before,
                    after,
                    change_ms,
                    Role::Plain,
                    None,
                );
            }
        }
        let (buf, commit_scn) = (&self.buf, self.commit_scn);
        self.spans
            .iter()
            .map(move |span| span.record(buf, commit_scn))
    }

    /// The END event of the transaction when it wrote records and the format provides
    /// transaction metadata (else `None`).
    pub fn end_record(&mut self) -> Option<Record<'_>> {
        let (_, start_ms) = self.start?;
        if !self.fmt.transaction_metadata || self.total == 0 {
            return None;
        }
        self.buf.clear();
        self.spans.clear();
        self.write_tx_event(true, start_ms);
        self.spans
            .first()
            .map(|span| span.record(&self.buf, self.commit_scn))
    }

    /// A BEGIN or END event on the transaction topic (`TransactionStructMaker`): key `{id}`,
    /// value `{status, id, event_count, data_collections, ts_ms}`.
    fn write_tx_event(&mut self, end: bool, ts_ms: i64) {
        let topic: Rc<str> = crate::record::envelope::transaction_topic(
            self.topic_prefix,
            &self.fmt.transaction_topic,
        )
        .into();
        let out = &mut self.buf;
        let key_from = out.len();
        if self.fmt.key_schemas {
            out.extend_from_slice(br#"{"schema":{"type":"struct","fields":[{"type":"string","optional":false,"field":"id"}],"optional":false,"name":"io.debezium.connector.common.TransactionMetadataKey","version":1},"payload":"#);
        }
        out.extend_from_slice(b"{\"id\":");
        write_json_str(out, self.xid);
        out.push(b'}');
        if self.fmt.key_schemas {
            out.push(b'}');
        }
        let (key, value_from) = (key_from..out.len(), out.len());
        if self.fmt.value_schemas {
            out.extend_from_slice(br#"{"schema":{"type":"struct","fields":[{"type":"string","optional":false,"field":"status"},{"type":"string","optional":false,"field":"id"},{"type":"int64","optional":true,"field":"event_count"},{"type":"array","items":{"type":"struct","fields":[{"type":"string","optional":false,"field":"data_collection"},{"type":"int64","optional":false,"field":"event_count"}],"optional":false,"name":"event.collection","version":1},"optional":true,"field":"data_collections"},{"type":"int64","optional":false,"field":"ts_ms"}],"optional":false,"name":"io.debezium.connector.common.TransactionMetadataValue","version":1},"payload":"#);
        }
        out.extend_from_slice(if end {
            b"{\"status\":\"END\",\"id\":"
        } else {
            b"{\"status\":\"BEGIN\",\"id\":"
        });
        write_json_str(out, self.xid);
        if end {
            out.extend_from_slice(b",\"event_count\":");
            write_int(out, self.total);
            out.extend_from_slice(b",\"data_collections\":[");
            for (i, (name, n)) in self.per_table.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(b"{\"data_collection\":");
                write_json_str(out, name);
                out.extend_from_slice(b",\"event_count\":");
                write_int(out, *n);
                out.push(b'}');
            }
            out.push(b']');
        } else {
            out.extend_from_slice(b",\"event_count\":null,\"data_collections\":null");
        }
        out.extend_from_slice(b",\"ts_ms\":");
        write_int(out, ts_ms);
        out.push(b'}');
        if self.fmt.value_schemas {
            out.push(b'}');
        }
        let value = value_from..out.len();
        self.spans.push(Span {
            topic,
            key: Some(key),
            value: Some(value),
            other_key: None,
            scn: None,
        });
    }

    /// The table's parts of the envelope (taken out; `write_line` puts them back), made anew
    /// when the table differs from the last change's.
    fn take_table_parts(
        &mut self,
        change: &Change,
        schema: &TableSchema,
        cols: &[ColumnInfo],
    ) -> TableParts {
        let table = &change.table;
        if let Some(t) = self.table.take().filter(|t| t.name == *table) {
            return t;
        }
        let topic: Rc<str> = topic_of(self.topic_prefix, table, self.with_pdb).into();
        let heads = crate::record::heads::heads(&topic, cols, &schema.key, self.fmt);
        let db_name = table.pdb.as_deref().unwrap_or(self.db_name);
        TableParts {
            name: table.clone(),
            topic,
            collection: format!("{db_name}.{}.{}", table.owner, table.table),
            heads,
            envelope: TableEnvelope::new(self.topic_prefix, db_name, table),
        }
    }

    /// Write the record key of `img` (none without an image); where it is in the buffer.
    fn write_key_part(
        &mut self,
        parts: &TableParts,
        schema: &TableSchema,
        cols: &[ColumnInfo],
        img: Option<&Image>,
    ) -> Option<Range<usize>> {
        let out = &mut self.buf;
        let from = out.len();
        let heads = &parts.heads;
        match (img, &heads.key_head) {
            (Some(img), Some(kh)) => {
                out.extend_from_slice(kh);
                write_key(out, schema, cols, &heads.keys, img, self.fmt);
                out.push(b'}');
            }
            (Some(img), None) => write_key(out, schema, cols, &heads.keys, img, self.fmt),
            (None, _) => return None,
        }
        Some(from..out.len())
    }

    /// The tombstone after a delete (`deleted`: the delete was published, not skipped): the
    /// same key, a null value.
    fn write_tombstone(
        &mut self,
        schema: &TableSchema,
        change: &Change,
        before: &Image,
        deleted: bool,
    ) {
        if !self.fmt.tombstones || !deleted {
            return;
        }
        let cols = schema.columns_at(change.scn);
        let parts = self.take_table_parts(change, schema, cols);
        let key = self.write_key_part(&parts, schema, cols, Some(before));
        self.spans.push(Span {
            topic: Rc::clone(&parts.topic),
            key,
            value: None,
            other_key: None,
            scn: Some(change.scn),
        });
        self.table = Some(parts);
    }

    #[allow(clippy::too_many_arguments)]
    fn write_line(
        &mut self,
        schema: &TableSchema,
        change: &Change,
        op: ChangeOp,
        before: Option<&Image>,
        after: Option<&Image>,
        change_ms: i64,
        role: Role,
        other: Option<&Image>,
    ) -> bool {
        // `skipped.operations`: left out before anything counts it (Debezium's
        // `EventDispatcher`); the transaction's BEGIN comes with its first published record.
        if self.fmt.skipped.skips(op.code()) {
            return false;
        }
        if self.fmt.transaction_metadata && self.total == 0 {
            let start_ms = self.start.map_or(change_ms, |(_, ms)| ms);
            self.write_tx_event(false, start_ms);
        }
        if self.since_now >= NOW_EVERY {
            self.now_ns = now_ns();
            self.since_now = 0;
        }
        self.since_now += 1;
        let cols = schema.columns_at(change.scn);
        let parts = self.take_table_parts(change, schema, cols);
        self.total += 1;
        // The name is copied only for the table's first record in the transaction.
        let order = match self.per_table.get_mut(&parts.collection) {
            Some(n) => {
                *n += 1;
                *n
            }
            None => {
                self.per_table.insert(parts.collection.clone(), 1);
                1
            }
        };
        let key = self.write_key_part(&parts, schema, cols, after.or(before));
        let fmt = self.fmt;
        let heads = &parts.heads;
        let change_source = ChangeSource {
            ts_ms: change_ms,
            tx_id: self.xid,
            scn: change.scn,
            commit_scn: self.commit_scn,
            // Debezium trims RS_ID's blanks (`LogMinerEventRow`).
            rs_id: change.rs_id.trim(),
            ssn: change.ssn,
            redo_thread: self.thread,
            user_name: &change.user,
            row_id: (!change.row_id.trim().is_empty()).then_some(change.row_id.as_str()),
            commit_ts_ms: self.commit_ms,
            start: self.start.unwrap_or((change.scn, change_ms)),
            tx_seq: self.events,
        };
        let transaction = fmt.transaction_metadata.then_some(TxOrder {
            id: self.xid,
            total_order: self.total,
            data_collection_order: order,
        });
        let out = &mut self.buf;
        let value_from = out.len();
        parts.envelope.write(
            out,
            heads.value_head.as_deref(),
            image(before, cols, &heads.keys, fmt),
            image(after, cols, &heads.keys, fmt),
            &Source::Change(&change_source),
            transaction.as_ref(),
            op.code(),
            self.now_ns,
        );
        let value = value_from..out.len();
        let other_key = match (other, role) {
            (Some(other), Role::KeyDelete | Role::KeyCreate) => {
                let from = out.len();
                write_key(out, schema, cols, &heads.keys, other, fmt);
                let name = if role == Role::KeyDelete {
                    "__debezium.newkey"
                } else {
                    "__debezium.oldkey"
                };
                Some((name, from..out.len()))
            }
            _ => None,
        };
        self.spans.push(Span {
            topic: Rc::clone(&parts.topic),
            key,
            value: Some(value),
            other_key,
            scn: Some(change.scn),
        });
        self.table = Some(parts);
        true
    }
}

impl Span {
    fn record<'b>(&'b self, buf: &'b [u8], commit_scn: Scn) -> Record<'b> {
        let mut headers = Headers::new();
        if let Some((name, text)) = &self.other_key {
            // The key's JSON, which the writer made (UTF-8 throughout).
            let text = std::str::from_utf8(&buf[text.clone()]).unwrap_or_default();
            headers.push((*name, HeaderValue::Text(text)));
        }
        if let Some(scn) = self.scn {
            headers.push(("cdc.scn", HeaderValue::Scn(scn)));
            headers.push(("cdc.commit_scn", HeaderValue::Scn(commit_scn)));
        }
        Record {
            topic: &self.topic,
            key: self.key.clone().map(|k| &buf[k]),
            value: self.value.clone().map(|v| &buf[v]),
            headers,
        }
    }
}

#[cfg(test)]
#[path = "records_tests.rs"]
mod tests;
