//! Pieces of the Debezium envelope that snapshot records (`record`) and change records
//! (`capture::records`) both write: the topic a table's records go to, and the `op` and
//! processing times.

use crate::names::TableName;

pub(crate) use crate::encode::write_int;

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
