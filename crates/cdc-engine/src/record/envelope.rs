//! The Debezium envelope, written once for snapshot records (`record`) and change records
//! (`capture::records`): the topic a table's records go to, and the value ([`TableEnvelope`]:
//! `before`, `after`, `source`, `transaction`, `op` and the processing times).

use crate::names::TableName;
use std::cell::RefCell;

pub(crate) use crate::encode::write_int;
use crate::encode::write_json_str;

/// A record's topic: `PREFIX.[PDB.]OWNER.TABLE`, with the characters Kafka refuses in a topic
/// name replaced by `_` (Debezium's `TopicNameSanitizer`).
pub fn topic_of(prefix: &str, table: &TableName, with_pdb: bool) -> String {
    let mut t = prefix.to_string();
    let pdb = table.pdb.as_ref().filter(|_| with_pdb);
    for part in pdb.into_iter().chain([&table.owner, &table.table]) {
        t.push('.');
        t.push_str(part);
    }
    t.chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '_' | '-' => c,
            _ => '_',
        })
        .collect()
}

/// The topic of heartbeat records (`cdc.heartbeat.interval.ms`): `PREFIX.heartbeat`.
pub fn heartbeat_topic(prefix: &str) -> String {
    format!("{prefix}.heartbeat")
}

/// The topic of transaction BEGIN/END events (`provide.transaction.metadata`): `PREFIX.` and
/// `topic.transaction`.
pub fn transaction_topic(prefix: &str, transaction_topic: &str) -> String {
    format!("{prefix}.{transaction_topic}")
}

/// The topic of schema change events (`include.schema.changes`): the prefix itself, as
/// Debezium names it.
pub fn schema_change_topic(prefix: &str) -> String {
    prefix.to_string()
}

/// The processing time, in nanoseconds since the epoch (read once a record).
pub fn now_ns() -> i64 {
    cdc_core::civil::now_ns()
}

/// The envelope's `,"op":"c","ts_ms":…,"ts_us":…,"ts_ns":…` after `transaction`.
pub fn write_op_and_times(out: &mut Vec<u8>, op: &str, now_ns: i64) {
    out.extend_from_slice(b",\"op\":\"");
    out.extend_from_slice(op.as_bytes());
    out.extend_from_slice(b"\",\"ts_ms\":");
    // A time of a million nanoseconds or more: `ts_ms` and `ts_us` are `ts_ns`'s digits less
    // its last six and three, so the number is formatted once (three formattings were a
    // twentieth of a snapshot's user time).
    let mut digits = itoa::Buffer::new();
    let ns = digits.format(now_ns).as_bytes();
    if now_ns >= 1_000_000 {
        out.extend_from_slice(&ns[..ns.len() - 6]);
        out.extend_from_slice(b",\"ts_us\":");
        out.extend_from_slice(&ns[..ns.len() - 3]);
    } else {
        write_int(out, now_ns / 1_000_000);
        out.extend_from_slice(b",\"ts_us\":");
        write_int(out, now_ns / 1000);
    }
    out.extend_from_slice(b",\"ts_ns\":");
    out.extend_from_slice(ns);
}

/// `ts_ms` times `scale` (1,000 for microseconds, 1,000,000 for nanoseconds), `ms` being its
/// digits: for a positive time, the digits and the zeros.
fn write_ms_scaled(out: &mut Vec<u8>, ts_ms: i64, ms: &[u8], scale: i64) {
    if ts_ms > 0 {
        out.extend_from_slice(ms);
        out.extend_from_slice(if scale == 1000 { b"000" } else { b"000000" });
    } else {
        write_int(out, ts_ms.saturating_mul(scale));
    }
}

/// The `source` block's fields that vary by record (Debezium's `SourceInfo` for Oracle).
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// A snapshot record: read at `scn` (`ts_ms`: when), its `snapshot` marker; the change
    /// fields are null.
    Snapshot {
        ts_ms: i64,
        /// One of [`crate::record::SnapshotMarker`]'s texts.
        marker: &'static str,
        scn: u64,
        row_id: Option<&'a str>,
    },
    /// A change, from its LogMiner row and its transaction.
    Change(&'a ChangeSource<'a>),
}

/// A change record's `source` fields.
#[derive(Debug, Clone, Copy)]
pub struct ChangeSource<'a> {
    /// The change's time (`ts_ms`, `ts_us`, `ts_ns`).
    pub ts_ms: i64,
    pub tx_id: &'a str,
    pub scn: u64,
    pub commit_scn: u64,
    pub rs_id: &'a str,
    pub ssn: u64,
    pub redo_thread: u32,
    pub user_name: &'a str,
    pub row_id: Option<&'a str>,
    pub commit_ts_ms: i64,
    /// The transaction's first change's SCN and time.
    pub start: (u64, i64),
    pub tx_seq: u64,
}

/// The envelope's `transaction` block (with transaction metadata).
#[derive(Debug, Clone, Copy)]
pub struct TxOrder<'a> {
    pub id: &'a str,
    pub total_order: u64,
    pub data_collection_order: u64,
}

/// The text of the envelope fixed by the table (and the topic prefix), made once per table
/// and written around each record's fields: the one writer of the Debezium envelope, for
/// snapshot records (`record`) and change records (`capture::records`) alike.
#[derive(Debug, Clone)]
pub struct TableEnvelope {
    /// `,"source":{"version":"…","connector":"oracle","name":…,"ts_ms":`
    source_head: Vec<u8>,
    /// `","db":…,"sequence":null,"ts_us":` (closing the snapshot marker)
    db: Vec<u8>,
    /// `,"schema":…,"table":…,"txId":`
    table: Vec<u8>,
    /// The last snapshot `source` block written, up to its `row_id`: the same for every record
    /// of a chunk (one time, marker and SCN), so made once and copied (written field by field
    /// for each record, it was a tenth of a snapshot's instructions).
    snapshot_head: RefCell<SnapshotHead>,
}

/// A snapshot record's `source` block up to `"row_id":`, and what it was made for.
#[derive(Debug, Clone, Default)]
struct SnapshotHead {
    made_for: Option<(i64, &'static str, u64)>,
    text: Vec<u8>,
}

impl TableEnvelope {
    /// `db`: `source.db`, the PDB in a multitenant database, else the database name.
    pub fn new(topic_prefix: &str, db: &str, table: &TableName) -> TableEnvelope {
        let mut source_head = b",\"source\":{\"version\":".to_vec();
        write_json_str(&mut source_head, env!("CARGO_PKG_VERSION"));
        source_head.extend_from_slice(b",\"connector\":\"oracle\",\"name\":");
        write_json_str(&mut source_head, topic_prefix);
        source_head.extend_from_slice(b",\"ts_ms\":");
        let mut db_part = b"\",\"db\":".to_vec();
        write_json_str(&mut db_part, db);
        db_part.extend_from_slice(b",\"sequence\":null,\"ts_us\":");
        let mut table_part = b",\"schema\":".to_vec();
        write_json_str(&mut table_part, &table.owner);
        table_part.extend_from_slice(b",\"table\":");
        write_json_str(&mut table_part, &table.table);
        table_part.extend_from_slice(b",\"txId\":");
        TableEnvelope {
            source_head,
            db: db_part,
            table: table_part,
            snapshot_head: RefCell::default(),
        }
    }

    /// Append a record's value: `value_head` (`{"schema":…,"payload":` with value schemas),
    /// `before` and `after` (each writes its image and returns true, or writes nothing and
    /// returns false for a null), `source`, `transaction`, `op` and the processing times.
    #[allow(clippy::too_many_arguments)]
    pub fn write(
        &self,
        out: &mut Vec<u8>,
        value_head: Option<&[u8]>,
        before: impl FnOnce(&mut Vec<u8>) -> bool,
        after: impl FnOnce(&mut Vec<u8>) -> bool,
        source: &Source,
        transaction: Option<&TxOrder>,
        op: &str,
        now_ns: i64,
    ) {
        if let Some(head) = value_head {
            out.extend_from_slice(head);
        }
        out.extend_from_slice(b"{\"before\":");
        if !before(out) {
            out.extend_from_slice(b"null");
        }
        out.extend_from_slice(b",\"after\":");
        if !after(out) {
            out.extend_from_slice(b"null");
        }
        self.write_source(out, source);
        out.extend_from_slice(b",\"transaction\":");
        match transaction {
            Some(t) => {
                out.extend_from_slice(b"{\"id\":");
                write_json_str(out, t.id);
                out.extend_from_slice(b",\"total_order\":");
                write_int(out, t.total_order);
                out.extend_from_slice(b",\"data_collection_order\":");
                write_int(out, t.data_collection_order);
                out.push(b'}');
            }
            None => out.extend_from_slice(b"null"),
        }
        write_op_and_times(out, op, now_ns);
        out.push(b'}');
        if value_head.is_some() {
            out.push(b'}');
        }
    }

    fn write_source(&self, out: &mut Vec<u8>, source: &Source) {
        match source {
            Source::Snapshot {
                ts_ms,
                marker,
                scn,
                row_id,
            } => {
                let mut head = self.snapshot_head.borrow_mut();
                // The marker by its address: a text the same at another address only makes
                // the block again.
                let same = |(t, m, s): &(i64, &str, u64)| {
                    (t, s) == (ts_ms, scn) && std::ptr::eq(*m, *marker)
                };
                if !head.made_for.as_ref().is_some_and(same) {
                    let mut text = std::mem::take(&mut head.text);
                    text.clear();
                    self.write_times_and_table(&mut text, *ts_ms, marker);
                    // The change fields are null: written as one run of text.
                    text.extend_from_slice(b"null,\"scn\":\"");
                    write_int(&mut text, *scn);
                    text.extend_from_slice(
                        b"\",\"commit_scn\":null,\"lcr_position\":null,\"rs_id\":null,\"ssn\":0,\
                          \"redo_thread\":null,\"user_name\":null,\"redo_sql\":null,\"row_id\":",
                    );
                    *head = SnapshotHead {
                        made_for: Some((*ts_ms, *marker, *scn)),
                        text,
                    };
                }
                out.extend_from_slice(&head.text);
                write_str_or_null(out, *row_id);
                out.extend_from_slice(
                    b",\"commit_ts_ms\":null,\"start_scn\":null,\"start_ts_ms\":null,\"txSeq\":null}",
                );
            }
            Source::Change(c) => {
                self.write_times_and_table(out, c.ts_ms, "false");
                write_json_str(out, c.tx_id);
                out.extend_from_slice(b",\"scn\":\"");
                write_int(out, c.scn);
                out.extend_from_slice(b"\",\"commit_scn\":\"");
                write_int(out, c.commit_scn);
                out.extend_from_slice(b"\",\"lcr_position\":null,\"rs_id\":");
                write_json_str(out, c.rs_id);
                out.extend_from_slice(b",\"ssn\":");
                write_int(out, c.ssn);
                out.extend_from_slice(b",\"redo_thread\":");
                write_int(out, c.redo_thread);
                out.extend_from_slice(b",\"user_name\":");
                write_json_str(out, c.user_name);
                out.extend_from_slice(b",\"redo_sql\":null,\"row_id\":");
                write_str_or_null(out, c.row_id);
                out.extend_from_slice(b",\"commit_ts_ms\":");
                write_int(out, c.commit_ts_ms);
                out.extend_from_slice(b",\"start_scn\":\"");
                write_int(out, c.start.0);
                out.extend_from_slice(b"\",\"start_ts_ms\":");
                write_int(out, c.start.1);
                out.extend_from_slice(b",\"txSeq\":");
                write_int(out, c.tx_seq);
                out.push(b'}');
            }
        }
    }

    /// The `source` block from its start to `"txId":`: the fixed text, its times, the snapshot
    /// marker.
    fn write_times_and_table(&self, out: &mut Vec<u8>, ts_ms: i64, marker: &str) {
        let mut digits = itoa::Buffer::new();
        let ms = digits.format(ts_ms).as_bytes();
        out.extend_from_slice(&self.source_head);
        out.extend_from_slice(ms);
        out.extend_from_slice(b",\"snapshot\":\"");
        out.extend_from_slice(marker.as_bytes());
        out.extend_from_slice(&self.db);
        write_ms_scaled(out, ts_ms, ms, 1000);
        out.extend_from_slice(b",\"ts_ns\":");
        write_ms_scaled(out, ts_ms, ms, 1_000_000);
        out.extend_from_slice(&self.table);
    }
}

fn write_str_or_null(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => write_json_str(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value as Json;

    fn value(source: &Source, tx: Option<&TxOrder>) -> Json {
        let table: TableName = "PDB1.HR.EMP".parse().unwrap();
        let env = TableEnvelope::new("cdc", "PDB1", &table);
        let mut out = Vec::new();
        env.write(
            &mut out,
            None,
            |_| false,
            |out| {
                out.extend_from_slice(br#"{"ID":1}"#);
                true
            },
            source,
            tx,
            "c",
            1_700_000_000_123_456_789,
        );
        serde_json::from_slice(&out).unwrap()
    }

    /// Snapshot and change records carry Debezium's one `source` schema: the same fields in
    /// the same order, a snapshot's change fields null.
    #[test]
    fn snapshot_and_change_sources_have_the_same_fields_in_order() {
        let snapshot = value(
            &Source::Snapshot {
                ts_ms: 5,
                marker: "last",
                scn: 90,
                row_id: None,
            },
            None,
        );
        let change = ChangeSource {
            ts_ms: 6,
            tx_id: "0a0b",
            scn: 91,
            commit_scn: 92,
            rs_id: "0x1",
            ssn: 3,
            redo_thread: 2,
            user_name: "HR",
            row_id: Some("AAAB"),
            commit_ts_ms: 7,
            start: (88, 4),
            tx_seq: 9,
        };
        let tx = TxOrder {
            id: "0a0b",
            total_order: 2,
            data_collection_order: 1,
        };
        let changed = value(&Source::Change(&change), Some(&tx));
        let keys = |v: &Json| {
            v["source"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(keys(&snapshot), keys(&changed));
        assert_eq!(keys(&snapshot).len(), 25, "{:?}", keys(&snapshot));
        let s = &snapshot["source"];
        assert_eq!(
            (&s["snapshot"], &s["scn"], &s["db"]),
            (&"last".into(), &"90".into(), &"PDB1".into())
        );
        for null in [
            "txId",
            "commit_scn",
            "rs_id",
            "redo_thread",
            "user_name",
            "row_id",
            "commit_ts_ms",
            "start_scn",
            "start_ts_ms",
            "txSeq",
        ] {
            assert!(s[null].is_null(), "{null}: {s}");
        }
        assert_eq!(snapshot["transaction"], Json::Null);
        let c = &changed["source"];
        assert_eq!(c["snapshot"], "false");
        assert_eq!(
            (&c["commit_scn"], &c["start_scn"], &c["txSeq"]),
            (&"92".into(), &"88".into(), &9.into())
        );
        assert_eq!(
            (&c["ts_us"], &c["ts_ns"]),
            (&6000.into(), &6_000_000.into())
        );
        assert_eq!(changed["transaction"]["total_order"], 2);
        assert_eq!(
            (&changed["before"], &changed["after"]["ID"]),
            (&Json::Null, &1.into())
        );
        assert_eq!(
            (&changed["op"], &changed["ts_ms"]),
            (&"c".into(), &1_700_000_000_123i64.into())
        );
    }

    /// The three processing times written from one formatting equal each one formatted from
    /// its own division, at the edges of the shortcut too (below a millisecond, negative).
    #[test]
    fn the_processing_times_equal_their_divisions() {
        for ns in [
            i64::MIN,
            -1_000_000,
            -1,
            0,
            999,
            999_999,
            1_000_000,
            1_000_999,
            123_456_789,
            1_700_000_000_123_456_789,
            i64::MAX,
        ] {
            let mut got = Vec::new();
            write_op_and_times(&mut got, "r", ns);
            let want = format!(
                ",\"op\":\"r\",\"ts_ms\":{},\"ts_us\":{},\"ts_ns\":{ns}",
                ns / 1_000_000,
                ns / 1000
            );
            assert_eq!(String::from_utf8(got).unwrap(), want);
        }
    }

    /// The source block's `ts_us` and `ts_ns` (its `ts_ms` with zeros) equal the products.
    #[test]
    fn the_source_times_equal_their_products() {
        let table: TableName = "PDB1.HR.EMP".parse().unwrap();
        let env = TableEnvelope::new("cdc", "PDB1", &table);
        for ts_ms in [-7, 0, 1, 999, 1_700_000_000_123] {
            let mut out = Vec::new();
            let source = Source::Snapshot {
                ts_ms,
                marker: "true",
                scn: 5,
                row_id: None,
            };
            env.write_source(&mut out, &source);
            let text = String::from_utf8(out).unwrap();
            let want = format!(
                "\"ts_ms\":{ts_ms},\"snapshot\":\"true\",\"db\":\"PDB1\",\"sequence\":null,\
                 \"ts_us\":{},\"ts_ns\":{},",
                ts_ms * 1000,
                ts_ms * 1_000_000
            );
            assert!(text.contains(&want), "{text}");
        }
    }

    /// A snapshot `source` block made once and copied is made again when its time, marker or
    /// SCN changes: each record written by one envelope equals the one a fresh envelope writes.
    #[test]
    fn a_reused_snapshot_source_follows_its_time_marker_and_scn() {
        let table: TableName = "PDB1.HR.EMP".parse().unwrap();
        let reused = TableEnvelope::new("cdc", "PDB1", &table);
        let sources = [
            (5, "first", 90, Some("AAAB")),
            (5, "true", 90, Some("AAAC")),
            (5, "true", 90, None),
            (5, "true", 91, Some("AAAD")),
            (6, "true", 91, Some("AAAD")),
            (6, "last", 91, Some("AAAE")),
        ];
        for (ts_ms, marker, scn, row_id) in sources {
            let source = Source::Snapshot {
                ts_ms,
                marker,
                scn,
                row_id,
            };
            let mut got = Vec::new();
            reused.write_source(&mut got, &source);
            let mut want = Vec::new();
            TableEnvelope::new("cdc", "PDB1", &table).write_source(&mut want, &source);
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want)
            );
            let block: Json = serde_json::from_slice(&want[b",\"source\":".len()..]).unwrap();
            assert_eq!(
                (&block["ts_ms"], &block["snapshot"], &block["scn"]),
                (&ts_ms.into(), &marker.into(), &scn.to_string().into())
            );
            assert_eq!(block["row_id"], row_id.map_or(Json::Null, Json::from));
        }
    }
}
