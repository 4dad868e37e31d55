//! The parts of a change record fixed by its table's layout and the format: the JsonConverter
//! heads `{"schema":KEY_SCHEMA,"payload":` and
//! `{"schema":ENVELOPE_SCHEMA,"payload":`, and each column's escaped JSON key. The envelope
//! schema is a few kilobytes of JSON built through `serde_json::Value`; made once per
//! transaction it was a third of the stream path's time (10-change transactions), so they are
//! made once per table layout and kept in a per-thread cache, found again by content (topic, key
//! columns, columns, format): a DDL's new layout is a new entry, never a stale one.

use super::format::Format;
use super::schema;
use crate::encode::json_key;
use cdc_core::model::ColumnInfo;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A table layout's fixed parts of its change records.
#[derive(Debug)]
pub struct Heads {
    /// `{"schema":KEY_SCHEMA,"payload":` when key schemas are on and the table has a key.
    pub key_head: Option<Vec<u8>>,
    /// `{"schema":ENVELOPE_SCHEMA,"payload":` when value schemas are on.
    pub value_head: Option<Vec<u8>>,
    /// Column names with their JSON object keys (`"NAME":`).
    pub keys: Vec<(String, Vec<u8>)>,
}

impl Heads {
    fn build(topic: &str, cols: &[ColumnInfo], key: &[String], fmt: &Format) -> Heads {
        let key_head = fmt
            .key_schemas
            .then(|| schema::key_schema(topic, cols, key, fmt))
            .flatten()
            .map(|s| schema::wrapper_head(&s));
        let value_head = fmt
            .value_schemas
            .then(|| schema::wrapper_head(&schema::envelope_schema(topic, cols, fmt)));
        Heads {
            key_head,
            value_head,
            keys: cols
                .iter()
                .map(|c| (c.name.clone(), json_key(&c.name)))
                .collect(),
        }
    }
}

/// What the heads are made from, besides the topic (the map's key).
struct Entry {
    key: Vec<String>,
    cols: Vec<ColumnInfo>,
    fmt: Format,
    heads: Rc<Heads>,
}

/// Layouts kept per topic (a table's DDL history; older ones are rarely written again) and
/// topics in all, before the cache starts over: it holds what the capture's tables need.
const PER_TOPIC: usize = 8;
const TOPICS: usize = 4096;

thread_local! {
    static CACHE: RefCell<HashMap<String, Vec<Entry>, foldhash::fast::RandomState>> =
        RefCell::default();
}

/// The heads of `topic`'s records for a table with these columns and key columns in `fmt`,
/// made on first use.
pub fn heads(topic: &str, cols: &[ColumnInfo], key: &[String], fmt: &Format) -> Rc<Heads> {
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(entries) = cache.get_mut(topic) {
            if let Some(i) = entries
                .iter()
                .position(|e| e.cols == cols && e.key == key && e.fmt == *fmt)
            {
                // Most recent first: a table's current layout is found at once.
                if i > 0 {
                    let e = entries.remove(i);
                    entries.insert(0, e);
                }
                return Rc::clone(&entries[0].heads);
            }
        }
        let heads = Rc::new(Heads::build(topic, cols, key, fmt));
        if cache.len() >= TOPICS && !cache.contains_key(topic) {
            cache.clear();
        }
        let entries = cache.entry(topic.to_string()).or_default();
        entries.insert(
            0,
            Entry {
                key: key.to_vec(),
                cols: cols.to_vec(),
                fmt: fmt.clone(),
                heads: Rc::clone(&heads),
            },
        );
        entries.truncate(PER_TOPIC);
        heads
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::ColumnType;

    fn col(name: &str, ty: &str) -> ColumnInfo {
        ColumnInfo {
            name: name.into(),
            data_type: ColumnType::parse(ty).unwrap(),
            nullable: true,
            virtual_column: false,
            hidden: false,
        }
    }

    /// The cached heads are what building them gives, and a change of layout, key or format
    /// gets its own (a cache keyed by the topic alone would write the old schema after a DDL).
    #[test]
    fn heads_are_found_again_only_for_the_same_layout_key_and_format() {
        let fmt = Format::default();
        let cols = vec![col("ID", "NUMBER(5)"), col("NAME", "VARCHAR2(9)")];
        let key = vec!["ID".to_string()];
        let a = heads("t.HR.EMP", &cols, &key, &fmt);
        let fresh = Heads::build("t.HR.EMP", &cols, &key, &fmt);
        assert_eq!(
            (&a.key_head, &a.value_head, &a.keys),
            (&fresh.key_head, &fresh.value_head, &fresh.keys)
        );
        assert!(Rc::ptr_eq(&a, &heads("t.HR.EMP", &cols, &key, &fmt)));

        let mut wider = cols.clone();
        wider.push(col("HIRED", "DATE"));
        let b = heads("t.HR.EMP", &wider, &key, &fmt);
        assert_ne!(a.value_head, b.value_head);
        assert_eq!(b.keys.len(), 3);
        let mut retyped = cols.clone();
        retyped[1].data_type = ColumnType::parse("VARCHAR2(20)").unwrap();
        retyped[1].nullable = false;
        assert_ne!(
            heads("t.HR.EMP", &retyped, &key, &fmt).value_head,
            a.value_head
        );
        let by_name = heads("t.HR.EMP", &cols, &["NAME".to_string()], &fmt);
        assert_ne!(by_name.key_head, a.key_head);
        let bare = Format {
            value_schemas: false,
            ..Format::default()
        };
        assert!(heads("t.HR.EMP", &cols, &key, &bare).value_head.is_none());
        let other = heads("t.HR.DEPT", &cols, &key, &fmt);
        assert!(!Rc::ptr_eq(&other, &a));
        // The first layout is still there after the others.
        assert!(Rc::ptr_eq(&a, &heads("t.HR.EMP", &cols, &key, &fmt)));
    }
}
