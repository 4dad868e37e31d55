//! The Debezium envelope, written once for snapshot records (`record`) and change records
//! (`capture::records`): the topic a table's records go to, and the value ([`TableEnvelope`]:
//! `before`, `after`, `source`, `transaction`, `op` and the processing times).

use crate::names::TableName;

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

/// The processing time, in nanoseconds since the epoch.
pub fn now_ns() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0)
}

/// The envelope's `,"op":"c","ts_ms":…,"ts_us":…,"ts_ns":…` after `transaction`.
pub fn write_op_and_times(out: &mut Vec<u8>, op: &str, now_ns: i64) {
    out.extend_from_slice(b",\"op\":\"");
    out.extend_from_slice(op.as_bytes());
    out.extend_from_slice(b"\",\"ts_ms\":");
    write_int(out, now_ns / 1_000_000);
    out.extend_from_slice(b",\"ts_us\":");
    write_int(out, now_ns / 1000);
    out.extend_from_slice(b",\"ts_ns\":");
    write_int(out, now_ns);
}

/// The `source` block's fields that vary by record (Debezium's `SourceInfo` for Oracle).
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// A snapshot record: read at `scn` (`ts_ms`: when), its `snapshot` marker; the change
    /// fields are null.
    Snapshot {
        ts_ms: i64,
        marker: &'a str,
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
        let (ts_ms, marker) = match source {
            Source::Snapshot { ts_ms, marker, .. } => (*ts_ms, *marker),
            Source::Change(c) => (c.ts_ms, "false"),
        };
        out.extend_from_slice(&self.source_head);
        write_int(out, ts_ms);
        out.extend_from_slice(b",\"snapshot\":\"");
        out.extend_from_slice(marker.as_bytes());
        out.extend_from_slice(&self.db);
        write_int(out, ts_ms * 1000);
        out.extend_from_slice(b",\"ts_ns\":");
        write_int(out, ts_ms * 1_000_000);
        out.extend_from_slice(&self.table);
        match source {
            // The change fields are null: written as one run of text.
            Source::Snapshot { scn, row_id, .. } => {
                out.extend_from_slice(b"null,\"scn\":\"");
                write_int(out, *scn);
                out.extend_from_slice(
                    b"\",\"commit_scn\":null,\"lcr_position\":null,\"rs_id\":null,\"ssn\":0,\
                      \"redo_thread\":null,\"user_name\":null,\"redo_sql\":null,\"row_id\":",
                );
                write_str_or_null(out, *row_id);
                out.extend_from_slice(
                    b",\"commit_ts_ms\":null,\"start_scn\":null,\"start_ts_ms\":null,\"txSeq\":null}",
                );
            }
            Source::Change(c) => {
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
}
