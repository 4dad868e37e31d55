//! One record as every sink takes it: a Kafka record's parts (topic, key, value, headers), typed.
//! The writers (snapshot, stream, schema changes, heartbeats, dead letters) build it once; the
//! Kafka sink sends its parts as they are, and the file and stdout sinks write its JSON-line
//! form ([`Record::write_line`]), `{"topic":…,"key":…,"value":…,"headers":{…}}`, the one place
//! that form is made. (Before, every writer made the line and the Kafka sink parsed it back.)

use crate::encode::{write_int, write_json_str};
use smallvec::SmallVec;

/// A header's text: borrowed, or an SCN written in decimal (no string made for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderValue<'a> {
    Text(&'a str),
    Scn(u64),
}

impl HeaderValue<'_> {
    /// The header's bytes as Kafka carries them.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            HeaderValue::Text(t) => t.as_bytes().to_vec(),
            HeaderValue::Scn(n) => itoa::Buffer::new().format(*n).as_bytes().to_vec(),
        }
    }
}

/// A record's headers, in order. Records carry at most three; more spill to the heap.
pub type Headers<'a> = SmallVec<[(&'static str, HeaderValue<'a>); 3]>;

/// One record. `key` and `value` are JSON text as Kafka Connect's JsonConverter writes them
/// (with `{"schema":…,"payload":…}` when the format asks); `None` is a null: a keyless table's
/// key, a tombstone's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record<'a> {
    pub topic: &'a str,
    pub key: Option<&'a [u8]>,
    pub value: Option<&'a [u8]>,
    pub headers: Headers<'a>,
}

/// A record whose key and value are written where they go, rather than made first and copied:
/// `key` and `value` each append their part to the buffer they are given and return true, or
/// write nothing and return false for a null. Capture's snapshot writes its records so (a
/// record's copy into the file sink's line was a twentieth of its user time).
pub struct RecordParts<'a, 'f> {
    pub topic: &'a str,
    pub headers: Headers<'a>,
    pub key: &'f mut dyn FnMut(&mut Vec<u8>) -> bool,
    pub value: &'f mut dyn FnMut(&mut Vec<u8>) -> bool,
}

impl Record<'_> {
    /// Append the record's JSON line, without its newline.
    pub fn write_line(&self, out: &mut Vec<u8>) {
        LineWriter::default().write(self, out);
    }

    /// The JSON line as a new buffer (tests, and callers that keep one record).
    pub fn line(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(
            self.topic.len()
                + self.key.map_or(4, <[u8]>::len)
                + self.value.map_or(4, <[u8]>::len)
                + 64,
        );
        self.write_line(&mut out);
        out
    }
}

/// Writes records' JSON lines, keeping the escaped `{"topic":…,"key":` of the last topic (a
/// sink's records come a table at a time: escaping the topic and the header names for each
/// record was a twentieth of capture's snapshot).
#[derive(Debug, Default)]
pub struct LineWriter {
    topic: String,
    /// `{"topic":"…","key":` of `topic`.
    head: Vec<u8>,
}

impl LineWriter {
    /// Append `record`'s JSON line, without its newline.
    pub fn write(&mut self, record: &Record, out: &mut Vec<u8>) {
        self.write_with(
            record.topic,
            &record.headers,
            out,
            |out| match record.key {
                Some(k) => {
                    out.extend_from_slice(k);
                    true
                }
                None => false,
            },
            |out| match record.value {
                Some(v) => {
                    out.extend_from_slice(v);
                    true
                }
                None => false,
            },
        );
    }

    /// Append the JSON line of a record whose key and value `key` and `value` write straight
    /// into `out` (each returns false, having written nothing, for a null): what an export
    /// writes without making the record's parts elsewhere first.
    pub fn write_with(
        &mut self,
        topic: &str,
        headers: &[(&'static str, HeaderValue)],
        out: &mut Vec<u8>,
        key: impl FnOnce(&mut Vec<u8>) -> bool,
        value: impl FnOnce(&mut Vec<u8>) -> bool,
    ) {
        if self.head.is_empty() || self.topic != topic {
            self.topic.clear();
            self.topic.push_str(topic);
            self.head.clear();
            self.head.extend_from_slice(b"{\"topic\":");
            write_json_str(&mut self.head, topic);
            self.head.extend_from_slice(b",\"key\":");
        }
        out.extend_from_slice(&self.head);
        if !key(out) {
            out.extend_from_slice(b"null");
        }
        out.extend_from_slice(b",\"value\":");
        if !value(out) {
            out.extend_from_slice(b"null");
        }
        out.extend_from_slice(b",\"headers\":{");
        for (i, (name, value)) in headers.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_header_name(out, name);
            match *value {
                HeaderValue::Text(t) => write_json_str(out, t),
                HeaderValue::Scn(n) => {
                    out.push(b'"');
                    write_int(out, n);
                    out.push(b'"');
                }
            }
        }
        out.extend_from_slice(b"}}");
    }
}

/// `"name":`, the header names the writers use written as they are (none needs escaping).
fn write_header_name(out: &mut Vec<u8>, name: &str) {
    let known: &[u8] = match name {
        "cdc.scn" => b"\"cdc.scn\":",
        "cdc.commit_scn" => b"\"cdc.commit_scn\":",
        "cdc.snapshot" => b"\"cdc.snapshot\":",
        _ => {
            write_json_str(out, name);
            out.push(b':');
            return;
        }
    };
    out.extend_from_slice(known);
}

/// A record that owns its parts: the few made as a JSON tree (heartbeats, dead letters,
/// schema changes), not on the per-row path.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedRecord {
    pub topic: String,
    pub key: Option<Vec<u8>>,
    pub value: Option<Vec<u8>>,
    pub headers: Vec<(&'static str, String)>,
}

impl OwnedRecord {
    /// A record of JSON `key` and `value` (a JSON null is no key, no value).
    pub fn of_json(
        topic: String,
        key: &serde_json::Value,
        value: &serde_json::Value,
        headers: Vec<(&'static str, String)>,
    ) -> OwnedRecord {
        let text = |v: &serde_json::Value| (!v.is_null()).then(|| v.to_string().into_bytes());
        OwnedRecord {
            topic,
            key: text(key),
            value: text(value),
            headers,
        }
    }

    pub fn as_record(&self) -> Record<'_> {
        Record {
            topic: &self.topic,
            key: self.key.as_deref(),
            value: self.value.as_deref(),
            headers: self
                .headers
                .iter()
                .map(|(n, v)| (*n, HeaderValue::Text(v.as_str())))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value as Json};

    #[test]
    fn the_json_line_holds_each_part_as_a_consumer_reads_it() {
        let mut headers = Headers::new();
        headers.push(("__debezium.newkey", HeaderValue::Text(r#"{"ID":8}"#)));
        headers.push(("cdc.scn", HeaderValue::Scn(95)));
        let r = Record {
            topic: "cdc.HR.\"EMP\"",
            key: Some(br#"{"ID":7}"#),
            value: Some(br#"{"before":null,"after":{"ID":7}}"#),
            headers,
        };
        let line = r.line();
        let parsed: Json = serde_json::from_slice(&line).unwrap();
        assert_eq!(
            parsed,
            json!({"topic": "cdc.HR.\"EMP\"", "key": {"ID": 7}, "value": {"before": null, "after": {"ID": 7}},
                   "headers": {"__debezium.newkey": "{\"ID\":8}", "cdc.scn": "95"}})
        );
        // Key and value are copied as they are, in this order (the goldens compare bytes).
        assert!(line.starts_with(br#"{"topic":"cdc.HR.\"EMP\"","key":{"ID":7},"value":{"before""#));
        assert!(line.ends_with(br#""headers":{"__debezium.newkey":"{\"ID\":8}","cdc.scn":"95"}}"#));
    }

    #[test]
    fn the_line_writer_writes_what_the_record_alone_writes_across_topics() {
        let mut w = LineWriter::default();
        let mut headers = Headers::new();
        headers.push(("cdc.snapshot", HeaderValue::Text("true")));
        headers.push(("cdc.commit_scn", HeaderValue::Scn(7)));
        headers.push(("x\"y", HeaderValue::Text("z")));
        for topic in ["a", "a", "b\\c", "a"] {
            let r = Record {
                topic,
                key: Some(b"1"),
                value: None,
                headers: headers.clone(),
            };
            let mut cached = Vec::new();
            w.write(&r, &mut cached);
            let parsed: Json = serde_json::from_slice(&cached).unwrap();
            assert_eq!(parsed["topic"], topic);
            assert_eq!(
                parsed["headers"],
                json!({"cdc.snapshot": "true", "cdc.commit_scn": "7", "x\"y": "z"})
            );
            let mut alone = Vec::new();
            r.write_line(&mut alone);
            assert_eq!(cached, alone);
        }
    }

    #[test]
    fn a_missing_key_or_value_is_a_json_null() {
        let r = Record {
            topic: "t",
            key: None,
            value: None,
            headers: Headers::new(),
        };
        assert_eq!(
            r.line(),
            br#"{"topic":"t","key":null,"value":null,"headers":{}}"#.to_vec()
        );
        let owned = OwnedRecord::of_json(
            "t".into(),
            &Json::Null,
            &json!({"a": 1}),
            vec![("h", "x".into())],
        );
        assert_eq!(owned.key, None);
        assert_eq!(
            owned.as_record().line(),
            br#"{"topic":"t","key":null,"value":{"a":1},"headers":{"h":"x"}}"#.to_vec()
        );
        assert_eq!(HeaderValue::Scn(42).to_bytes(), b"42".to_vec());
    }
}
