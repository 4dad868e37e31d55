//! commands/offsets.md documents the offsets format: every field the code writes has a row in its
//! field table, and the example file shown is the one its console examples run against.

use oracle_cdc::offsets::*;
use oracle_cdc::types::Value;
use serde_json::Value as Json;
use std::collections::{BTreeMap, BTreeSet};

fn page() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/commands/offsets.md")).unwrap()
}

/// Offsets with every optional part present.
fn everything() -> Offsets {
    let progress = |next: ResumePoint| TableProgress {
        state: TableState::InProgress,
        strategy: "key".into(),
        next: Some(next),
        chunks: 1,
        rows: 1,
        chunk_scns: vec![1],
        file: Some(FileProgress {
            name: "T.jsonl".into(),
            bytes: 1,
        }),
    };
    let mut o = Offsets::new(DatabaseIdentity {
        dbid: 1,
        incarnation: 1,
        name: "D".into(),
    });
    o.snapshot = Some(SnapshotState {
        order: vec!["A.T".into(), "A.U".into()],
        tables: BTreeMap::from([
            (
                "A.T".to_string(),
                progress(ResumePoint::Key(vec![Value::Number("1".into())])),
            ),
            (
                "A.U".to_string(),
                progress(ResumePoint::Rowid("AAAR0pAAEAAAACQAAA".into())),
            ),
        ]),
        records: 1,
        completed: false,
        skipped: vec![Skipped {
            table: "A.V".into(),
            reason: "r".into(),
        }],
        ..Default::default()
    });
    o.export = Some(ExportSpec {
        format: "jsonl".into(),
        tables: vec!["A.T".into()],
    });
    o.stream = Some(StreamPosition {
        resume_scn: 1,
        commit_scn: 1,
        commit_xids: vec!["0a001b00c3010000".into()],
        threads: BTreeMap::from([(1, 1)]),
    });
    o.sink = Some(SinkPosition::File {
        segment: "s".into(),
        bytes: 1,
        records: 1,
    });
    o.sink_owner = Some("0123456789abcdef0123456789abcdef".into());
    o.topics = Some(oracle_cdc::offsets::TopicNaming {
        prefix: "p".into(),
        pdb: true,
    });
    o.schema_history = Some(SchemaHistoryPosition { entries: 1 });
    o.signals = vec![SignalSnapshot {
        id: "s".into(),
        kind: "incremental".into(),
        tables: vec!["A.T".into()],
        paused: true,
        progress: BTreeMap::from([("A.T".to_string(), progress(ResumePoint::Key(vec![])))]),
        ..Default::default()
    }];
    o
}

/// Field paths as the table names them: `snapshot.tables.*.state`, `signals[].id`. Map keys of
/// tables become `*`; key values, thread maps and per-signal progress (documented as "the same
/// fields as snapshot.tables.*") are not descended into.
fn paths(prefix: &str, v: &Json, out: &mut BTreeSet<String>) {
    out.insert(prefix.to_string());
    let stop = prefix.ends_with(".next.key")
        || prefix == "stream.threads"
        || prefix == "signals[].progress";
    if stop {
        return;
    }
    match v {
        Json::Object(map) => {
            let dynamic = prefix.ends_with("tables") && !prefix.starts_with("export");
            for (k, child) in map {
                let key = if dynamic { "*" } else { k.as_str() };
                let p = if prefix.is_empty() {
                    key.to_string()
                } else {
                    format!("{prefix}.{key}")
                };
                paths(&p, child, out);
            }
        }
        Json::Array(items) => {
            for item in items.iter().filter(|i| i.is_object()) {
                paths(&format!("{prefix}[]"), item, out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_field_has_a_row_in_the_field_table() {
    let page = page();
    let mut all = BTreeSet::new();
    paths("", &serde_json::to_value(everything()).unwrap(), &mut all);
    // Containers of an element or a table are documented by their fields.
    all.retain(|p| !p.is_empty() && !p.ends_with("[]") && !p.ends_with(".*"));
    let missing: Vec<&String> = all
        .iter()
        .filter(|p| !page.contains(&format!("| `{p}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "fields without a row in commands/offsets.md: {missing:?}"
    );
    assert!(all.len() > 35, "{all:?}");
}

#[test]
fn the_example_file_shown_is_the_one_the_examples_run_against() {
    let page = page();
    let start = page.find("```json\n").unwrap() + "```json\n".len();
    let end = start + page[start..].find("```").unwrap();
    let shown = &page[start..end];
    let file = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/commands/offsets.in/state/offsets.json"
    ))
    .unwrap();
    assert_eq!(shown, file);
    // And it is valid offsets of the current format.
    let (o, v) = Offsets::parse(std::path::Path::new("offsets.json"), &file).unwrap();
    assert_eq!(v, FORMAT_VERSION);
    assert_eq!(o.signals.len(), 1);
}
