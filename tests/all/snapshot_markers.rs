//! The snapshot's last record keeps Debezium's marker when a table's last chunks are empty
//! (issue 35, item 14): a keyless table read by ROWID ranges past its rows, and a keyed one
//! whose last key ranges a filter leaves empty. `source.snapshot` is `first` on the snapshot's
//! first record, `first_in_data_collection` / `last_in_data_collection` on a table's first and
//! last, `last` on the snapshot's last, `true` between — in `snapshot --records` and in
//! capture's initial snapshot alike, whether the empty chunks share the wave of the last rows,
//! follow in later waves read meanwhile, or follow with no wave read ahead (a throttle, a
//! pending-chunk limit of one wave).

use crate::capture_support;

use capture_support::*;
use serde_json::Value as Json;
use std::path::Path;

/// EVENTS: 30 rows in the first of three ROWID chunks (10 rows a chunk, about 4 rows a block,
/// one extent of 8 blocks). ITEMS: three key chunks, the filter keeps IDs up to 12, so the
/// last has no row. Tables are read in name order: ITEMS holds the snapshot's last record.
const SCHEMA: &str = r#"
seed: 14
tables:
  - name: SHOP.EVENTS
    columns:
      - { name: KIND, type: VARCHAR2(10), generate: { choice: [view, click] } }
      - { name: AT, type: DATE }
    supplemental_logging: all
    rows: 30
  - name: SHOP.ITEMS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(30) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 30
"#;

/// How the chunks fall into waves.
const LAYOUTS: &[(&str, &[&str])] = &[
    ("one wave", &["cdc.snapshot.threads=4"]),
    ("a wave a chunk, read ahead", &["cdc.snapshot.threads=1"]),
    (
        "no wave read ahead",
        &[
            "cdc.snapshot.threads=2",
            "cdc.snapshot.max.pending.chunks=2",
        ],
    ),
    (
        "throttled",
        &[
            "cdc.snapshot.threads=1",
            "cdc.snapshot.max.rows.per.second=1000000",
        ],
    ),
];

fn common(db: &Path) -> Vec<String> {
    [
        format!("cdc.database.url=emulator:{}", db.display()),
        "cdc.snapshot.chunk.rows=10".into(),
        "cdc.snapshot.select.override.SHOP.ITEMS=ID <= 12".into(),
    ]
    .into_iter()
    .flat_map(|s| ["--set".to_string(), s])
    .collect()
}

fn with(mut args: Vec<String>, layout: &[&str]) -> Vec<String> {
    for s in layout {
        args.extend(["--set".to_string(), s.to_string()]);
    }
    args
}

fn marker(r: &Json) -> &str {
    payload(&r["value"])["source"]["snapshot"]
        .as_str()
        .unwrap_or("")
}

/// The markers of a table's snapshot records, in order: `first` end `last` as given, `true`
/// between; and each has rows past its first chunk (so the case is the one meant).
fn assert_markers(case: &str, table: &str, recs: &[&Json], first: &str, last: &str, rows: usize) {
    assert_eq!(recs.len(), rows, "{case}: {table} records");
    let got: Vec<&str> = recs.iter().map(|r| marker(r)).collect();
    assert_eq!(got[0], first, "{case}: {table}'s first record");
    assert_eq!(
        got[rows - 1],
        last,
        "{case}: {table}'s last record ({:?})",
        payload(&recs[rows - 1]["key"])
    );
    assert!(
        got[1..rows - 1].iter().all(|m| *m == "true"),
        "{case}: {table} between: {got:?}"
    );
}

fn check(case: &str, recs: &[Json]) {
    let of = |t: &str| -> Vec<&Json> {
        recs.iter()
            .filter(|r| {
                topic_matches(r["topic"].as_str().unwrap_or(""), t)
                    && payload(&r["value"])["op"] == "r"
            })
            .collect()
    };
    assert_markers(
        case,
        "SHOP.EVENTS",
        &of("SHOP.EVENTS"),
        "first",
        "last_in_data_collection",
        30,
    );
    assert_markers(
        case,
        "SHOP.ITEMS",
        &of("SHOP.ITEMS"),
        "first_in_data_collection",
        "last",
        12,
    );
    assert_eq!(
        recs.iter().filter(|r| marker(r) == "last").count(),
        1,
        "{case}: one last record"
    );
}

/// Each layout leaves empty chunks after the last rows of both tables.
fn assert_trailing_empty_chunks(case: &str, ops: &Path) {
    for t in ["SHOP.EVENTS", "SHOP.ITEMS"] {
        let rows: Vec<u64> = events(ops)
            .iter()
            .filter(|e| e["event"] == "snapshot-chunk-done" && e["table"] == t)
            .map(|e| e["rows"].as_u64().unwrap())
            .collect();
        assert!(
            rows.len() >= 2 && rows.last() == Some(&0) && rows.iter().any(|r| *r > 0),
            "{case}: {t}'s chunks {rows:?} do not end empty"
        );
    }
}

#[test]
fn the_export_marks_the_last_record_when_the_last_chunks_are_empty() {
    let e = emulated(SCHEMA);
    for (i, (case, layout)) in LAYOUTS.iter().enumerate() {
        let out = e.dir.path().join(format!("export-{i}"));
        let mut args = with(common(&e.db), layout);
        args.extend(
            [
                "-q",
                "snapshot",
                "--records",
                "--out",
                out.to_str().unwrap(),
            ]
            .map(String::from),
        );
        run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_trailing_empty_chunks(case, &out);
        let mut recs = Vec::new();
        for t in ["SHOP.EVENTS", "SHOP.ITEMS"] {
            recs.extend(
                std::fs::read_to_string(out.join(format!("{t}.jsonl")))
                    .unwrap()
                    .lines()
                    .map(|l| serde_json::from_str::<Json>(l).unwrap()),
            );
        }
        check(case, &recs);
    }
}

#[test]
fn capture_marks_the_last_record_when_the_last_chunks_are_empty() {
    let e = emulated(SCHEMA);
    let end = current_scn(&e.db);
    for (i, (case, layout)) in LAYOUTS.iter().enumerate() {
        let state = e.dir.path().join(format!("state-{i}"));
        let out = e.dir.path().join(format!("out-{i}"));
        let mut args = with(common(&e.db), layout);
        for s in [
            format!("cdc.state.dir={}", state.display()),
            format!("cdc.sink.dir={}", out.display()),
            "cdc.stream.poll.ms=20".into(),
        ] {
            args.extend(["--set".to_string(), s]);
        }
        args.extend(["-q", "capture", "--stop-at-scn"].map(String::from));
        args.push(end.to_string());
        run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_trailing_empty_chunks(case, &state);
        check(case, &records(&out));
    }
}
