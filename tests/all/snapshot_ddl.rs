//! ADD and DROP COLUMN on a table while its snapshot chunks are read (issue 35, item 13): two
//! reading threads, slow reads and a workload that alters the table every few transactions.
//! A read AS OF an SCN older than the table's last DDL fails with ORA-01466 (CDC-5003); the
//! chunk (or the planning of the next ones) is read again at a fresh SCN, so capture, the
//! `snapshot` export and a signal's incremental snapshot all finish, the records converge to
//! `emulator dump`, and each chunk carries the table's layout at its place in the stream.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use serde_json::Value as Json;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Stale statistics: the key is cut by boundary probes AS OF each wave's SCN, which a DDL
/// newer than the SCN fails too (not only the chunk reads).
const SCHEMA: &str = r#"
seed: 35
tables:
  - name: SHOP.ITEMS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(30) }
      - { name: QTY, type: NUMBER(8) }
    primary_key: [ID]
    supplemental_logging: all
    statistics: stale
    rows: 600
"#;

const TABLE: &str = "SHOP.ITEMS";

/// A DDL every 15 transactions at 200 a second (every ~75 ms), longer than the reads last.
fn ddl_workload(db: &Path) -> Child {
    workload(
        db,
        &[
            "--transactions",
            "1100",
            "--rate",
            "200",
            "--ddl-every",
            "15",
            "--seed",
            "35",
        ],
    )
}

fn settings(db: &Path, state: &Path, out: &Path, extra: &[&str]) -> Vec<String> {
    [
        format!("cdc.database.url=emulator:{}", db.display()),
        format!("cdc.state.dir={}", state.display()),
        format!("cdc.sink.dir={}", out.display()),
        "cdc.snapshot.chunk.rows=25".into(),
        "cdc.snapshot.threads=2".into(),
        "cdc.emulator.fault.read.delay.ms=60".into(),
        "cdc.stream.poll.ms=50".into(),
        "cdc.signal.poll.ms=50".into(),
        "cdc.stream.window.scn=500".into(),
        "cdc.include.schema.changes=true".into(),
    ]
    .into_iter()
    .chain(extra.iter().map(|s| s.to_string()))
    .flat_map(|s| ["--set".to_string(), s])
    .collect()
}

fn spawn_capture(args: &[String]) -> Child {
    Command::new(cargo_bin("oracle-cdc"))
        .args(args)
        .args(["-q", "capture"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Wait for an ops event, failing with capture's error as soon as it exits.
fn await_event(c: &mut Child, state: &Path, what: &str, pred: impl Fn(&Json) -> bool) -> Json {
    let started = Instant::now();
    loop {
        if let Some(e) = events(state).into_iter().find(&pred) {
            return e;
        }
        if c.try_wait().unwrap().is_some() {
            let mut err = String::new();
            if let Some(mut s) = c.stderr.take() {
                std::io::Read::read_to_string(&mut s, &mut err).unwrap();
            }
            panic!("capture exited before {what}: {err}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no {what} within 120 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn stop(mut c: Child) {
    let _ = c.kill();
    let _ = c.wait();
}

/// The retries the reader made for ORA-01466 (CDC-5003): the scenario did happen.
fn ddl_retries(state_or_out: &Path) -> usize {
    events(state_or_out)
        .iter()
        .filter(|e| e["event"] == "snapshot-chunk-retry" && e["code"] == "CDC-5003")
        .count()
}

fn column_names(fields: &Json) -> BTreeSet<String> {
    fields
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

/// Every snapshot record of `table` carries the table's layout where it is published: the
/// columns of the last schema change event of the table before it (the layout at start before
/// the first), as the stream's records after that DDL carry them; and no change record names a
/// column the layout does not have.
fn assert_layouts_follow_the_stream(recs: &[Json], table: &str, initial: &[&str]) {
    let short = table.rsplit('.').next().unwrap();
    let mut layout: BTreeSet<String> = initial.iter().map(|s| s.to_string()).collect();
    let mut ddls = 0;
    let mut checked = 0;
    for (i, r) in recs.iter().enumerate() {
        let v = payload(&r["value"]);
        if let Some(changes) = v["tableChanges"].as_array() {
            for c in changes {
                if c["id"]
                    .as_str()
                    .is_some_and(|id| id.ends_with(&format!("\"{short}\"")))
                {
                    layout = c["table"]["columns"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c["name"].as_str().unwrap().to_string())
                        .collect();
                    ddls += 1;
                }
            }
            continue;
        }
        if !topic_matches(r["topic"].as_str().unwrap_or(""), table) || !is_change(r) {
            continue;
        }
        let cols = column_names(&v["after"]);
        match v["op"].as_str() {
            Some("r") => {
                assert_eq!(
                    cols,
                    layout,
                    "record {i}: snapshot record at SCN {} has another layout than the stream's there",
                    v["source"]["scn"]
                );
                checked += 1;
            }
            Some("c" | "u") => assert!(
                cols.is_subset(&layout),
                "record {i}: change record with columns {cols:?} outside the layout {layout:?}"
            ),
            _ => {}
        }
    }
    assert!(ddls > 0, "no schema change of {table} was published");
    assert!(checked > 0, "no snapshot record of {table}");
}

#[test]
fn capture_reads_chunks_a_ddl_fails_again_and_converges() {
    let Emulated {
        dir: _dir,
        db,
        state,
        out,
    } = emulated(SCHEMA);
    let args = settings(&db, &state, &out, &[]);
    let mut c = spawn_capture(&args);
    // The catalog is read with the layout of the schema; the DDL begins while the chunks are
    // read.
    await_event(&mut c, &state, "capture-started", |e| {
        e["event"] == "capture-started"
    });
    let w = ddl_workload(&db);
    await_event(&mut c, &state, "snapshot-complete", |e| {
        e["event"] == "snapshot-complete"
    });
    finish(w);
    stop(c);
    let end = current_scn(&db);
    let mut last = args.clone();
    last.extend(["-q".into(), "capture".into(), "--stop-at-scn".into()]);
    last.push(end.to_string());
    run(&last.iter().map(String::as_str).collect::<Vec<_>>());

    assert!(
        ddl_retries(&state) > 0,
        "no chunk was read again after ORA-01466: the DDL did not meet the snapshot"
    );
    let recs = records(&out);
    assert_exactly_once(&recs);
    assert_scn_order(&recs);
    assert_converges(&db, &recs, TABLE, end);
    assert_layouts_follow_the_stream(&recs, TABLE, &["ID", "NAME", "QTY"]);
}

#[test]
fn a_signal_snapshot_reads_chunks_a_ddl_fails_again_and_is_done() {
    let Emulated {
        dir: _dir,
        db,
        state,
        out,
    } = emulated(SCHEMA);
    let args = settings(&db, &state, &out, &["cdc.snapshot.mode=none"]);
    let mut c = spawn_capture(&args);
    await_event(&mut c, &state, "capture-started", |e| {
        e["event"] == "capture-started"
    });
    let w = ddl_workload(&db);
    std::thread::sleep(Duration::from_millis(300));
    let mut send = args.clone();
    send.extend(
        [
            "signal",
            "send",
            "execute-snapshot",
            "--tables",
            TABLE,
            "--id",
            "ddl-1",
        ]
        .map(String::from),
    );
    run(&send.iter().map(String::as_str).collect::<Vec<_>>());
    let outcome = await_event(&mut c, &state, "the signal's outcome", |e| {
        (e["event"] == "signal-done" || e["event"] == "signal-failed") && e["signal"] == "ddl-1"
    });
    assert_eq!(outcome["event"], "signal-done", "{outcome}");
    finish(w);
    stop(c);
    let end = current_scn(&db);
    let mut last = args.clone();
    last.extend(["-q".into(), "capture".into(), "--stop-at-scn".into()]);
    last.push(end.to_string());
    run(&last.iter().map(String::as_str).collect::<Vec<_>>());

    assert!(ddl_retries(&state) > 0, "the DDL did not meet the snapshot");
    let recs = records(&out);
    assert_exactly_once(&recs);
    assert_scn_order(&recs);
    assert_converges(&db, &recs, TABLE, end);
    assert_layouts_follow_the_stream(&recs, TABLE, &["ID", "NAME", "QTY"]);
}

#[test]
fn the_export_reads_chunks_a_ddl_fails_again() {
    let Emulated { dir, db, state, .. } = emulated(SCHEMA);
    let export = dir.path().join("export");
    let w = ddl_workload(&db);
    std::thread::sleep(Duration::from_millis(300));
    let mut args = settings(&db, &state, &dir.path().join("unused"), &[]);
    args.extend(
        [
            "-q",
            "snapshot",
            "--records",
            "--out",
            export.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap();
    finish(w);
    assert!(
        o.status.success(),
        "the export stopped: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(ddl_retries(&export) > 0, "the DDL did not meet the export");
    let recs: Vec<Json> = std::fs::read_to_string(export.join(format!("{TABLE}.jsonl")))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Each chunk is one read at its SCN: its rows share one layout, the table's there; every
    // key is read once.
    let mut by_scn: BTreeMap<String, BTreeSet<BTreeSet<String>>> = BTreeMap::new();
    let mut keys = BTreeSet::new();
    for r in &recs {
        let v = payload(&r["value"]);
        by_scn
            .entry(v["source"]["scn"].as_str().unwrap().to_string())
            .or_default()
            .insert(column_names(&v["after"]));
        assert!(
            keys.insert(payload(&r["key"]).to_string()),
            "key {} exported twice",
            r["key"]
        );
    }
    for (scn, layouts) in &by_scn {
        assert_eq!(
            layouts.len(),
            1,
            "chunk at SCN {scn} mixes layouts {layouts:?}"
        );
    }
    let manifest: Json =
        serde_json::from_str(&std::fs::read_to_string(export.join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(
        manifest["tables"][0]["rows"].as_u64().unwrap() as usize,
        recs.len(),
        "{manifest}"
    );
}
