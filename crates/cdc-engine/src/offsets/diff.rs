//! What an edit changes, field by field: `stream.commit_scn: 1000450 → 1000499`.
//!
//! Offsets are compared as JSON. Objects by key; arrays of objects that all carry a unique `id`
//! or `table` by that key (`signals[sig-1]`); other arrays as whole values. Long arrays are
//! shortened when shown (`[1000020, 1000020, … 312 items]`).

use super::Offsets;
use serde_json::Value as Json;

/// One changed field.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// `stream.resume_scn`, `snapshot.tables["SALES.ORDERS"].state`, `signals[sig-1]`.
    pub path: String,
    /// `None`: the field is added.
    pub before: Option<Json>,
    /// `None`: the field is removed.
    pub after: Option<Json>,
}

impl Change {
    /// `+`, `-` or `~`.
    pub fn sign(&self) -> char {
        match (&self.before, &self.after) {
            (None, _) => '+',
            (_, None) => '-',
            _ => '~',
        }
    }

    /// `~ path: before → after`, `+ path: after`, `- path: before`.
    pub fn render(&self) -> String {
        let path = crate::errors::shown(&self.path, 200);
        match (&self.before, &self.after) {
            (Some(b), Some(a)) => format!("~ {path}: {} → {}", short(b), short(a)),
            (None, Some(a)) => format!("+ {path}: {}", short(a)),
            (Some(b), None) => format!("- {path}: {}", short(b)),
            (None, None) => format!("  {path}"),
        }
    }
}

/// The fields that differ between two offsets, in document order.
pub fn diff(old: Option<&Offsets>, new: &Offsets) -> Vec<Change> {
    let old = old
        .and_then(|o| serde_json::to_value(o).ok())
        .unwrap_or(Json::Object(Default::default()));
    let new = serde_json::to_value(new).unwrap_or(Json::Null);
    diff_values(&old, &new)
}

/// The fields that differ between two JSON documents.
pub fn diff_values(old: &Json, new: &Json) -> Vec<Change> {
    let mut out = Vec::new();
    walk("", old, new, &mut out);
    out
}

fn walk(path: &str, old: &Json, new: &Json, out: &mut Vec<Change>) {
    if old == new {
        return;
    }
    match (old, new) {
        (Json::Object(a), Json::Object(b)) => {
            let none = Json::Array(Vec::new());
            for (k, va) in a {
                let p = join(path, k);
                match b.get(k) {
                    Some(vb) => walk(&p, va, vb, out),
                    // A list of signals left out as empty: each one is removed.
                    None if keyed_list(va) => walk(&p, va, &none, out),
                    None => out.push(Change {
                        path: p,
                        before: Some(va.clone()),
                        after: None,
                    }),
                }
            }
            for (k, vb) in b {
                if a.contains_key(k) {
                    continue;
                }
                if keyed_list(vb) {
                    walk(&join(path, k), &none, vb, out);
                } else {
                    out.push(Change {
                        path: join(path, k),
                        before: None,
                        after: Some(vb.clone()),
                    });
                }
            }
        }
        (Json::Array(a), Json::Array(b)) => match keyed(a).zip(keyed(b)) {
            Some((ka, kb)) => {
                for (k, va) in &ka {
                    let p = format!("{path}[{k}]");
                    match kb.iter().find(|(kk, _)| kk == k) {
                        Some((_, vb)) => walk(&p, va, vb, out),
                        None => out.push(Change {
                            path: p,
                            before: Some((*va).clone()),
                            after: None,
                        }),
                    }
                }
                for (k, vb) in &kb {
                    if !ka.iter().any(|(kk, _)| kk == k) {
                        out.push(Change {
                            path: format!("{path}[{k}]"),
                            before: None,
                            after: Some((*vb).clone()),
                        });
                    }
                }
            }
            None => out.push(Change {
                path: path.to_string(),
                before: Some(old.clone()),
                after: Some(new.clone()),
            }),
        },
        _ => out.push(Change {
            path: path.to_string(),
            before: Some(old.clone()),
            after: Some(new.clone()),
        }),
    }
}

/// A non-empty array whose elements are keyed by `id` or `table`.
fn keyed_list(v: &Json) -> bool {
    matches!(v, Json::Array(items) if !items.is_empty() && keyed(items).is_some())
}

/// Elements by their `id` (or `table`) when every element is an object carrying a unique one.
fn keyed(items: &[Json]) -> Option<Vec<(String, &Json)>> {
    if items.is_empty() {
        return Some(Vec::new());
    }
    for field in ["id", "table"] {
        let keys: Option<Vec<(String, &Json)>> = items
            .iter()
            .map(|v| {
                v.get(field)
                    .and_then(Json::as_str)
                    .map(|k| (k.to_string(), v))
            })
            .collect();
        if let Some(keys) = keys {
            let mut seen = std::collections::BTreeSet::new();
            if keys.iter().all(|(k, _)| seen.insert(k.clone())) {
                return Some(keys);
            }
        }
    }
    None
}

fn join(path: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    match (path.is_empty(), plain) {
        (true, true) => key.to_string(),
        (false, true) => format!("{path}.{key}"),
        (_, false) => format!("{path}[{}]", Json::String(key.to_string())),
    }
}

/// A value on one line, long arrays and objects shortened to their first items and their
/// length, long text to its start: a hand-edited document may hold megabytes in one field, and
/// the diff goes to the terminal and to ops.jsonl.
pub fn short(v: &Json) -> String {
    const SHOWN: usize = 4;
    const TEXT: usize = 120;
    match v {
        Json::String(s) if s.chars().count() > TEXT => {
            Json::String(crate::errors::shown(s, TEXT)).to_string()
        }
        Json::Object(map) if map.len() > SHOWN + 2 => {
            let head: Vec<String> = map
                .iter()
                .take(SHOWN)
                .map(|(k, v)| format!("{}: {}", short(&Json::String(k.clone())), short(v)))
                .collect();
            format!("{{{}, … {} entries}}", head.join(", "), map.len())
        }
        Json::Array(items) if items.len() > SHOWN + 2 => {
            let head: Vec<String> = items[..SHOWN].iter().map(short).collect();
            format!("[{}, … {} items]", head.join(", "), items.len())
        }
        Json::Array(items) => {
            let all: Vec<String> = items.iter().map(short).collect();
            format!("[{}]", all.join(", "))
        }
        Json::Object(map) => {
            let all: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", short(&Json::String(k.clone())), short(v)))
                .collect();
            format!("{{{}}}", all.join(", "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn huge_values_render_on_one_bounded_line() {
        let tables: serde_json::Map<String, Json> = (0..10_000)
            .map(|i| (format!("APP.T{i}"), json!({"state": "done"})))
            .collect();
        let c = Change {
            path: format!("signals[{}]", "x".repeat(100_000)),
            before: None,
            after: Some(json!({"id": "y".repeat(100_000), "progress": tables})),
        };
        let line = c.render();
        assert!(line.len() < 2_000, "{} bytes", line.len());
        assert!(line.contains("… 10000 entries"), "{line}");
        assert!(line.contains("(100000 bytes)"), "{line}");
    }

    #[test]
    fn fields_signals_and_long_arrays() {
        let old = json!({
            "stream": {"resume_scn": 10, "commit_scn": 12, "commit_xids": ["A"]},
            "snapshot": {"tables": {"SALES.ORDERS": {"state": "done", "chunk_scns": [1, 2, 3, 4, 5, 6, 7]}}},
            "signals": [{"id": "s1", "kind": "incremental"}, {"id": "s2", "kind": "blocking"}],
        });
        let new = json!({
            "stream": {"resume_scn": 20, "commit_scn": 12, "commit_xids": []},
            "snapshot": {"tables": {"SALES.ORDERS": {"state": "not_started", "chunk_scns": []}}},
            "signals": [{"id": "s2", "kind": "blocking"}],
            "sink": {"segment": "a", "bytes": 3, "records": 1},
        });
        let gone = json!({"signals": [{"id": "s1"}]});
        assert_eq!(
            diff_values(&gone, &json!({}))
                .iter()
                .map(Change::render)
                .collect::<Vec<_>>(),
            vec!["- signals[s1]: {\"id\": \"s1\"}"]
        );
        assert_eq!(
            diff_values(&json!({}), &gone)
                .iter()
                .map(Change::render)
                .collect::<Vec<_>>(),
            vec!["+ signals[s1]: {\"id\": \"s1\"}"]
        );
        let lines: Vec<String> = diff_values(&old, &new).iter().map(Change::render).collect();
        assert_eq!(
            lines,
            vec![
                "~ stream.resume_scn: 10 → 20",
                "~ stream.commit_xids: [\"A\"] → []",
                "~ snapshot.tables[\"SALES.ORDERS\"].state: \"done\" → \"not_started\"",
                "~ snapshot.tables[\"SALES.ORDERS\"].chunk_scns: [1, 2, 3, 4, … 7 items] → []",
                "- signals[s1]: {\"id\": \"s1\", \"kind\": \"incremental\"}",
                "+ sink: {\"segment\": \"a\", \"bytes\": 3, \"records\": 1}",
            ]
        );
        assert!(diff_values(&old, &old).is_empty());
    }
}
