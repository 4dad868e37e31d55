//! `oracle-cdc snapshot` end to end on the emulator: the export equals `emulator dump`, survives
//! SIGKILL at random moments with every row written exactly once, and refuses to mix exports.

use assert_cmd::cargo::cargo_bin;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const SCHEMA: &str = r#"
seed: 11
database:
  multitenant: true
tables:
  - name: PDB1.APP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: CUSTOMER, type: VARCHAR2(30) }
      - { name: AMOUNT, type: "NUMBER(10,2)" }
      - { name: PLACED, type: TIMESTAMP(6) }
    primary_key: [ID]
    rows: 700
  - name: PDB1.APP.EVENTS
    columns:
      - { name: KIND, type: VARCHAR2(10), generate: { choice: [view, "it's", click] } }
      - { name: AT, type: DATE }
      - { name: BODY, type: CLOB }
    rows: 400
    statistics: missing
"#;

pub(crate) fn oracle_cdc(db: &Path, args: &[&str]) -> Output {
    Command::new(cargo_bin("oracle-cdc"))
        .arg("--set")
        .arg(format!("cdc.database.url=emulator:{}", db.display()))
        .args(args)
        .output()
        .unwrap()
}

pub(crate) fn ok(out: Output) -> Output {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    setup_with(SCHEMA)
}

/// `emulator init` of `text` in a new directory.
pub(crate) fn setup_with(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, text).unwrap();
    let db = dir.path().join("db");
    ok(Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "init",
            db.to_str().unwrap(),
            "--schema",
            schema.to_str().unwrap(),
        ])
        .output()
        .unwrap());
    (dir, db)
}

pub(crate) fn dump(db: &Path, table: &str, format: &str) -> String {
    String::from_utf8(
        ok(oracle_cdc(
            db,
            &["emulator", "dump", "--table", table, "--format", format],
        ))
        .stdout,
    )
    .unwrap()
}

#[test]
fn export_equals_emulator_dump_in_jsonl_and_csv() {
    let (dir, db) = setup();
    for format in ["jsonl", "csv"] {
        let out = dir.path().join(format!("out-{format}"));
        ok(oracle_cdc(
            &db,
            &[
                "--set",
                "cdc.snapshot.chunk.rows=64",
                "--set",
                "cdc.snapshot.threads=3",
                "snapshot",
                "--out",
                out.to_str().unwrap(),
                "--format",
                format,
            ],
        ));
        for table in ["PDB1.APP.ORDERS", "PDB1.APP.EVENTS"] {
            let file = std::fs::read_to_string(out.join(format!("{table}.{format}"))).unwrap();
            assert_eq!(file, dump(&db, table, format), "{table} as {format}");
        }
        let manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap())
                .unwrap();
        assert_eq!(manifest["rows"], 1100);
        let chunks: u64 = manifest["tables"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["chunks"].as_u64().unwrap())
            .sum();
        assert_eq!(manifest["metrics"]["chunks_done"], chunks);
        assert_eq!(manifest["metrics"]["tables_total"], 2);
        assert_eq!(manifest["metrics"]["rows_scanned"]["PDB1.APP.ORDERS"], 700);
        let orders = manifest["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["table"] == "PDB1.APP.ORDERS")
            .unwrap();
        assert_eq!(orders["chunks"], 11);
        assert_eq!(orders["chunk_scns"].as_array().unwrap().len(), 11);
        let events = manifest["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["table"] == "PDB1.APP.EVENTS")
            .unwrap();
        assert_eq!(events["strategy"], "rowid");
    }
}

#[test]
fn records_carry_the_debezium_envelope_with_first_and_last() {
    let (dir, db) = setup();
    let out = dir.path().join("rec");
    ok(oracle_cdc(
        &db,
        &[
            "--set",
            "cdc.snapshot.chunk.rows=100",
            "snapshot",
            "--records",
            "--out",
            out.to_str().unwrap(),
        ],
    ));
    let read = |t: &str| -> Vec<serde_json::Value> {
        std::fs::read_to_string(out.join(format!("{t}.jsonl")))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    // Tables are read in name order: EVENTS first, ORDERS last.
    let events = read("PDB1.APP.EVENTS");
    let orders = read("PDB1.APP.ORDERS");
    assert_eq!(events[0]["value"]["payload"]["source"]["snapshot"], "first");
    assert_eq!(
        orders.last().unwrap()["value"]["payload"]["source"]["snapshot"],
        "last"
    );
    // Debezium's markers for a table's first and last record that are not the snapshot's.
    assert_eq!(
        events.last().unwrap()["value"]["payload"]["source"]["snapshot"],
        "last_in_data_collection"
    );
    assert_eq!(
        orders[0]["value"]["payload"]["source"]["snapshot"],
        "first_in_data_collection"
    );
    let middle: Vec<&serde_json::Value> = events[1..events.len() - 1]
        .iter()
        .chain(&orders[1..orders.len() - 1])
        .collect();
    assert!(middle
        .iter()
        .all(|r| r["value"]["payload"]["source"]["snapshot"] == "true"
            && r["headers"]["cdc.snapshot"] == "true"));
    let r = &orders[0];
    // One PDB under `cdc.topic.include.pdb=auto`: topics as capture names them, without it.
    assert_eq!(r["topic"], "oracle-cdc.APP.ORDERS");
    assert_eq!(r["key"]["payload"], serde_json::json!({"ID": 1}));
    assert_eq!(r["key"]["schema"]["name"], "oracle-cdc.APP.ORDERS.Key");
    assert_eq!(r["value"]["payload"]["op"], "r");
    assert!(r["value"]["payload"]["before"].is_null());
    assert_eq!(r["value"]["payload"]["source"]["db"], "PDB1");
    assert!(r["value"]["payload"]["source"]["txId"].is_null());
    assert!(
        events[0]["key"].is_null(),
        "a keyless table has no record key"
    );
}

/// `snapshot --records` writes what capture's snapshot writes under the same record settings
/// (issue 39 item 4: it wrote Debezium's defaults whatever the settings): schemas off, decimals
/// as text, the PDB in topics; the records equal capture's, times aside.
#[test]
fn records_follow_the_record_settings_as_capture_does() {
    let (dir, db) = setup();
    let out = dir.path().join("rec");
    let settings = [
        "cdc.key.converter.schemas.enable=false",
        "cdc.value.converter.schemas.enable=false",
        "cdc.decimal.handling.mode=string",
        "cdc.topic.include.pdb=true",
        "cdc.snapshot.chunk.rows=100",
    ];
    let with_settings = |tail: &[&str]| -> Vec<String> {
        settings
            .iter()
            .flat_map(|s| ["--set".to_string(), s.to_string()])
            .chain(tail.iter().map(|s| s.to_string()))
            .collect()
    };
    let args = with_settings(&["snapshot", "--records", "--out", out.to_str().unwrap()]);
    ok(oracle_cdc(
        &db,
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
    ));
    let sink = dir.path().join("sink");
    let state = dir.path().join("state");
    let scn = serde_json::from_slice::<serde_json::Value>(
        &ok(Command::new(cargo_bin("oracle-cdc"))
            .args([
                "emulator",
                "status",
                db.to_str().unwrap(),
                "--format",
                "json",
            ])
            .output()
            .unwrap())
        .stdout,
    )
    .unwrap()["current_scn"]
        .to_string();
    let args = with_settings(&[
        "--set",
        &format!("cdc.sink.dir={}", sink.display()),
        "--set",
        &format!("cdc.state.dir={}", state.display()),
        "capture",
        "--stop-at-scn",
        &scn,
    ]);
    ok(oracle_cdc(
        &db,
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
    ));
    // Times aside (when each was written and read), keyed by topic and key.
    let normalised = |line: &str| -> (String, String, serde_json::Value) {
        let mut r: serde_json::Value = serde_json::from_str(line).unwrap();
        for t in ["ts_ms", "ts_us", "ts_ns"] {
            r["value"][t] = serde_json::Value::Null;
            r["value"]["source"][t] = serde_json::Value::Null;
        }
        let order = format!("{}|{}", r["key"], r["value"]["after"]);
        (r["topic"].to_string(), order, r)
    };
    let mut exported: Vec<_> = ["PDB1.APP.EVENTS", "PDB1.APP.ORDERS"]
        .iter()
        .flat_map(|t| {
            std::fs::read_to_string(out.join(format!("{t}.jsonl")))
                .unwrap()
                .lines()
                .map(normalised)
                .collect::<Vec<_>>()
        })
        .collect();
    let mut captured: Vec<_> = std::fs::read_dir(&sink)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .flat_map(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .map(normalised)
                .collect::<Vec<_>>()
        })
        .collect();
    exported.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    captured.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    assert_eq!(exported.len(), 1100);
    let first = &exported[0].2;
    assert!(first["value"].get("schema").is_none(), "{first}");
    assert!(first["topic"]
        .as_str()
        .unwrap()
        .starts_with("oracle-cdc.PDB1.APP."));
    for (e, c) in exported.iter().zip(&captured) {
        // Markers follow each one's own order of tables and chunks; the rest is equal.
        let (mut e, mut c) = (e.2.clone(), c.2.clone());
        for r in [&mut e, &mut c] {
            r["value"]["source"]["snapshot"] = serde_json::Value::Null;
            r["headers"] = serde_json::Value::Null;
            r["value"]["source"]["scn"] = serde_json::Value::Null;
        }
        assert_eq!(e, c);
    }
    assert_eq!(exported.len(), captured.len());
}

#[test]
fn killed_exports_resume_without_rereading_acknowledged_chunks() {
    let (dir, db) = setup();
    let out = dir.path().join("out");
    let args = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "--set",
            &format!("cdc.database.url=emulator:{}", db.display()),
            "--set",
            "cdc.snapshot.chunk.rows=25",
            "--set",
            "cdc.snapshot.threads=2",
            "--set",
            "cdc.emulator.fault.read.delay.ms=40",
            "-q",
            "snapshot",
            "--out",
            out.to_str().unwrap(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    // Kill each run once it has acknowledged a chunk or two more (waiting on progress, not on
    // the clock, so a loaded machine does not kill a run before it starts), then let it finish.
    let chunks_done = || {
        std::fs::read_to_string(out.join("ops.jsonl"))
            .unwrap_or_default()
            .matches("\"snapshot-chunk-done\"")
            .count()
    };
    let mut kills = 0;
    for more in [1usize, 2, 1, 2] {
        let before = chunks_done();
        let mut child = Command::new(cargo_bin("oracle-cdc"))
            .args(args(&[]))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while chunks_done() < before + more
            && child.try_wait().unwrap().is_none()
            && started.elapsed() < Duration::from_secs(30)
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            kills += 1;
        }
        child.wait().unwrap();
    }
    assert!(kills >= 3, "the export finished too fast to be interrupted");
    let last = Command::new(cargo_bin("oracle-cdc"))
        .args(args(&[]))
        .output()
        .unwrap();
    assert!(
        last.status.success(),
        "{}",
        String::from_utf8_lossy(&last.stderr)
    );
    for table in ["PDB1.APP.ORDERS", "PDB1.APP.EVENTS"] {
        let file = std::fs::read_to_string(out.join(format!("{table}.jsonl"))).unwrap();
        assert_eq!(
            file,
            dump(&db, table, "jsonl"),
            "{table}: every row exactly once"
        );
    }
    // No acknowledged chunk was read twice: each range is done at most once across all runs.
    let ops = std::fs::read_to_string(out.join("ops.jsonl")).unwrap();
    let mut done = std::collections::BTreeMap::<(String, String), u32>::new();
    let mut resumed_runs = 0;
    for line in ops.lines() {
        let Ok(e) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if e["event"] == "snapshot-chunk-done" {
            *done
                .entry((e["table"].to_string(), e["range"].to_string()))
                .or_default() += 1;
        }
        if e["event"] == "snapshot-started" && e["resumed"] == true {
            resumed_runs += 1;
        }
    }
    assert!(resumed_runs >= 3);
    assert!(
        done.values().all(|&n| n == 1),
        "a chunk was acknowledged twice: {done:?}"
    );
    // Running it again reads nothing more.
    let again = Command::new(cargo_bin("oracle-cdc"))
        .args(args(&[]))
        .output()
        .unwrap();
    assert!(again.status.success());
    assert_eq!(
        std::fs::read_to_string(out.join("ops.jsonl")).unwrap(),
        ops,
        "a complete export read again"
    );
}

#[test]
fn an_export_directory_is_not_mixed_with_another_export_or_database() {
    let (dir, db) = setup();
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    ok(oracle_cdc(
        &db,
        &["snapshot", "--out", o, "--tables", "PDB1.APP.ORDERS"],
    ));
    let e = oracle_cdc(
        &db,
        &[
            "snapshot",
            "--out",
            o,
            "--format",
            "csv",
            "--tables",
            "PDB1.APP.ORDERS",
        ],
    );
    assert_eq!(e.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&e.stderr).starts_with("CDC-8005"),
        "{}",
        String::from_utf8_lossy(&e.stderr)
    );

    // Another database (other DBID) must not resume this export.
    let schema2 = dir.path().join("schema2.yaml");
    std::fs::write(
        &schema2,
        SCHEMA.replace("multitenant: true", "multitenant: true\n  dbid: 777"),
    )
    .unwrap();
    let db2 = dir.path().join("db2");
    ok(Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "init",
            db2.to_str().unwrap(),
            "--schema",
            schema2.to_str().unwrap(),
        ])
        .output()
        .unwrap());
    let e = oracle_cdc(
        &db2,
        &["snapshot", "--out", o, "--tables", "PDB1.APP.ORDERS"],
    );
    assert_eq!(e.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&e.stderr).starts_with("CDC-7001"),
        "{}",
        String::from_utf8_lossy(&e.stderr)
    );

    let e = oracle_cdc(&db, &["snapshot", "--out", o, "--tables", "PDB1.APP.NOPE"]);
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr).starts_with("CDC-4005"));
    let e = oracle_cdc(
        &db,
        &["--set", "cdc.tables.include=PDB9.*.*", "plan-chunks"],
    );
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr).starts_with("CDC-8003"));
}

/// ORDERS (keyed) and LINES (no key) stored in one cluster, PLAIN in a segment of its own.
const CLUSTERED: &str = r#"
seed: 5
database:
  multitenant: true
tables:
  - name: PDB1.APP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: CUSTOMER, type: VARCHAR2(30) }
    primary_key: [ID]
    cluster: ORDERS_CLU
    rows: 400
  - name: PDB1.APP.LINES
    columns:
      - { name: ORDER_ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20), generate: { choice: [bolt, "nut's", washer] } }
      - { name: QTY, type: NUMBER(5) }
    cluster: ORDERS_CLU
    rows: 900
  - name: PDB1.APP.PLAIN
    columns:
      - { name: A, type: NUMBER(10) }
    rows: 50
"#;

/// A table stored in a cluster has no extent under its own name (DBA_EXTENTS lists the
/// cluster's blocks under the cluster's name, shared by its tables): the keyless LINES is
/// planned by ROWID ranges over its cluster's extents and exported row for row as
/// `emulator dump` shows it, none of ORDERS' rows with it, and ORDERS and PLAIN as before.
/// Before, plan-chunks planned LINES in zero chunks and the export wrote it empty, counted
/// complete.
#[test]
fn a_clustered_table_without_a_key_exports_as_emulator_dump() {
    let (dir, db) = setup_with(CLUSTERED);
    let out = ok(oracle_cdc(
        &db,
        &[
            "--set",
            "cdc.snapshot.chunk.rows=100",
            "plan-chunks",
            "--format",
            "json",
        ],
    ));
    let plans: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let lines = plans
        .iter()
        .find(|p| p["table"] == "PDB1.APP.LINES")
        .unwrap();
    assert_eq!(lines["strategy"], "rowid");
    assert!(lines["chunks"].as_u64().unwrap() > 3, "{lines}");
    assert!(
        lines["method"]
            .as_str()
            .unwrap()
            .contains("extents of cluster ORDERS_CLU"),
        "{lines}"
    );

    let out = dir.path().join("out");
    ok(oracle_cdc(
        &db,
        &[
            "--set",
            "cdc.snapshot.chunk.rows=100",
            "--set",
            "cdc.snapshot.threads=2",
            "snapshot",
            "--out",
            out.to_str().unwrap(),
        ],
    ));
    for (table, rows) in [
        ("PDB1.APP.LINES", 900),
        ("PDB1.APP.ORDERS", 400),
        ("PDB1.APP.PLAIN", 50),
    ] {
        let file = std::fs::read_to_string(out.join(format!("{table}.jsonl"))).unwrap();
        assert_eq!(file, dump(&db, table, "jsonl"), "{table}");
        assert_eq!(file.lines().count(), rows, "{table}");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["rows"], 1350);
}

#[test]
fn plan_chunks_reports_strategy_reason_and_every_boundary() {
    let (_dir, db) = setup();
    let out = ok(oracle_cdc(
        &db,
        &[
            "--set",
            "cdc.snapshot.chunk.rows=100",
            "plan-chunks",
            "--format",
            "json",
        ],
    ));
    let plans: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let orders = plans
        .iter()
        .find(|p| p["table"] == "PDB1.APP.ORDERS")
        .unwrap();
    assert_eq!(orders["strategy"], "key");
    assert_eq!(orders["why"], "by primary key (ID)");
    assert_eq!(orders["chunks"], 7);
    assert_eq!(orders["boundaries"].as_array().unwrap().len(), 7);
    assert!(orders["method"].as_str().unwrap().starts_with("even split"));
    let events = plans
        .iter()
        .find(|p| p["table"] == "PDB1.APP.EVENTS")
        .unwrap();
    assert_eq!(events["why"], "ROWID ranges: it has no primary key");
    assert!(events["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().contains("no optimizer statistics")));
}

#[test]
fn select_override_filters_rows_and_tables_order_reads_first() {
    let (dir, db) = setup();
    let out = dir.path().join("filtered");
    ok(oracle_cdc(
        &db,
        &[
            "--set",
            "cdc.snapshot.select.override.PDB1.APP.ORDERS=AMOUNT > 100 AND CUSTOMER IS NOT NULL",
            "--set",
            "cdc.snapshot.tables.order=PDB1.APP.ORDERS",
            "--set",
            "cdc.snapshot.chunk.rows=50",
            "snapshot",
            "--out",
            out.to_str().unwrap(),
        ],
    ));
    let all = dump(&db, "PDB1.APP.ORDERS", "jsonl");
    let expected: Vec<&str> = all
        .lines()
        .filter(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let amount: f64 = v["AMOUNT"]
                .as_str()
                .map(|s| s.parse().unwrap())
                .unwrap_or(f64::NAN);
            amount > 100.0 && !v["CUSTOMER"].is_null()
        })
        .collect();
    let got = std::fs::read_to_string(out.join("PDB1.APP.ORDERS.jsonl")).unwrap();
    assert!(!expected.is_empty() && expected.len() < all.lines().count());
    assert_eq!(
        got.lines().collect::<Vec<_>>(),
        expected,
        "only the rows the condition selects"
    );
    let ops = std::fs::read_to_string(out.join("ops.jsonl")).unwrap();
    let started: Vec<String> = ops
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["event"] == "snapshot-table-started")
        .map(|e| e["table"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        started,
        vec!["PDB1.APP.ORDERS", "PDB1.APP.EVENTS"],
        "tables.order reads ORDERS first"
    );
}

#[test]
fn unmapped_types_stop_with_cdc_3001_or_are_skipped_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(
        &schema,
        "tables:\n  - name: GIS.PARCELS\n    columns:\n      - { name: ID, type: NUMBER(5), nullable: false }\n      - { name: SHAPE, type: MDSYS.SDO_GEOMETRY }\n    primary_key: [ID]\n    rows: 3\n  - name: GIS.NOTES\n    columns:\n      - { name: ID, type: NUMBER(5), nullable: false }\n      - { name: OK, type: BOOLEAN }\n      - { name: DOC, type: JSON }\n      - { name: V, type: VECTOR(2) }\n      - { name: F, type: BFILE }\n    primary_key: [ID]\n    rows: 3\n",
    )
    .unwrap();
    let db = dir.path().join("db");
    ok(Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "init",
            db.to_str().unwrap(),
            "--schema",
            schema.to_str().unwrap(),
        ])
        .output()
        .unwrap());
    let out = dir.path().join("a");
    let e = oracle_cdc(&db, &["snapshot", "--out", out.to_str().unwrap()]);
    assert_eq!(e.status.code(), Some(1));
    let err = String::from_utf8_lossy(&e.stderr);
    assert!(
        err.starts_with("CDC-3001") && err.contains("SHAPE") && err.contains("MDSYS.SDO_GEOMETRY"),
        "{err}"
    );

    let out = dir.path().join("b");
    ok(oracle_cdc(
        &db,
        &[
            "--set",
            "cdc.on.decode.error=dlq",
            "snapshot",
            "--out",
            out.to_str().unwrap(),
        ],
    ));
    let complete: serde_json::Value = std::fs::read_to_string(out.join("ops.jsonl"))
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|e| e["event"] == "snapshot-complete")
        .unwrap();
    let skipped = complete["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0]["table"], "GIS.PARCELS");
    assert!(skipped[0]["reason"].as_str().unwrap().contains("CDC-3001"));
    // BOOLEAN, JSON, VECTOR and BFILE have record mappings: that table is exported.
    let notes = std::fs::read_to_string(out.join("GIS.NOTES.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(notes.lines().next().unwrap()).unwrap();
    assert!(first["OK"].is_boolean() && first["DOC"].is_object() && first["V"].is_array());
    assert!(first["F"]["directory"].is_string() && first["F"]["file"].is_string());
}

#[test]
fn ctrl_c_stops_cleanly_with_offsets_saved_and_the_rerun_resumes() {
    let (dir, db) = setup();
    let out = dir.path().join("out");
    let args = [
        "--set".to_string(),
        format!("cdc.database.url=emulator:{}", db.display()),
        "--set".into(),
        "cdc.snapshot.chunk.rows=20".into(),
        "--set".into(),
        "cdc.snapshot.threads=1".into(),
        "--set".into(),
        "cdc.emulator.fault.read.delay.ms=200".into(),
        "-q".into(),
        "snapshot".into(),
        "--out".into(),
        out.display().to_string(),
    ];
    let child = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Ctrl-C once a chunk is saved (a loaded machine may take longer than any fixed wait to
    // get there); chunks of 20 rows read 200 ms each leave the export far from its end.
    let acked_chunks = || -> u64 {
        std::fs::read_to_string(out.join("offsets.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|o| {
                o["snapshot"]["tables"]
                    .as_object()
                    .map(|t| t.values().filter_map(|t| t["chunks"].as_u64()).sum())
            })
            .unwrap_or(0)
    };
    crate::capture_support::wait_for("a saved chunk", 60, || acked_chunks() > 0);
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let done = child.wait_with_output().unwrap();
    assert_eq!(
        done.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let offsets: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("offsets.json")).unwrap()).unwrap();
    let acked: u64 = offsets["snapshot"]["tables"]
        .as_object()
        .unwrap()
        .values()
        .map(|t| t["chunks"].as_u64().unwrap())
        .sum();
    assert!(
        acked > 0 && offsets["snapshot"]["completed"] == false,
        "stopped part-way with progress saved"
    );
    // The rerun reads at full speed.
    let rerun = Command::new(cargo_bin("oracle-cdc"))
        .args(args.iter().map(|a| {
            a.replace(
                "cdc.emulator.fault.read.delay.ms=200",
                "cdc.emulator.fault.read.delay.ms=0",
            )
        }))
        .output()
        .unwrap();
    assert!(rerun.status.success());
    for table in ["PDB1.APP.ORDERS", "PDB1.APP.EVENTS"] {
        assert_eq!(
            std::fs::read_to_string(out.join(format!("{table}.jsonl"))).unwrap(),
            dump(&db, table, "jsonl")
        );
    }
}

#[test]
fn an_export_reconnects_after_dropped_connections_like_capture() {
    let (dir, db) = setup();
    // A fifth of the calls drop the connection: the catalog reads before the first chunk as
    // well as the chunk reads. Every export still completes and equals the tables.
    for seed in 1..=4 {
        let out = dir.path().join(format!("out-{seed}"));
        let run = oracle_cdc(
            &db,
            &[
                "--set",
                "cdc.emulator.fault.drop.per.mille=200",
                "--set",
                &format!("cdc.emulator.fault.seed={seed}"),
                "--set",
                "cdc.snapshot.chunk.retries=50",
                "--set",
                "cdc.database.connect.backoff.ms=1",
                "--set",
                "cdc.snapshot.chunk.rows=200",
                "snapshot",
                "--out",
                out.to_str().unwrap(),
                "--format",
                "jsonl",
            ],
        );
        assert!(
            run.status.success(),
            "seed {seed}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        for table in ["PDB1.APP.ORDERS", "PDB1.APP.EVENTS"] {
            let file = std::fs::read_to_string(out.join(format!("{table}.jsonl"))).unwrap();
            assert_eq!(file, dump(&db, table, "jsonl"), "seed {seed}: {table}");
        }
    }
}

#[test]
fn a_chosen_key_that_is_not_unique_is_refused_by_capture_and_the_export() {
    let (dir, db) = setup();
    let out = dir.path().join("out");
    let state = dir.path().join("state");
    let key = "cdc.key.PDB1.APP.ORDERS=CUSTOMER";
    let export = oracle_cdc(
        &db,
        &["--set", key, "snapshot", "--out", out.to_str().unwrap()],
    );
    let capture = oracle_cdc(
        &db,
        &[
            "--set",
            key,
            "--set",
            &format!("cdc.state.dir={}", state.display()),
            "--set",
            &format!("cdc.sink.dir={}", dir.path().join("sink").display()),
            "capture",
            "--stop-at-scn",
            "1",
        ],
    );
    for run in [export, capture] {
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("CDC-8006")
                && stderr.contains("CUSTOMER")
                && stderr.contains("nullable"),
            "{stderr}"
        );
    }
    assert!(
        !dir.path().join("sink").exists()
            || std::fs::read_dir(dir.path().join("sink"))
                .unwrap()
                .next()
                .is_none()
    );
    // On the operator's word it runs (CUSTOMER is nullable: ROWID ranges, keyed by CUSTOMER).
    ok(oracle_cdc(
        &db,
        &[
            "--set",
            key,
            "--set",
            "cdc.key.unchecked=APP.ORDERS",
            "snapshot",
            "--out",
            out.to_str().unwrap(),
            "--tables",
            "PDB1.APP.ORDERS",
        ],
    ));
}

#[test]
fn summary_format_json_gives_each_tables_rows_files_and_scns() {
    let (dir, db) = setup();
    let out_dir = dir.path().join("export");
    let status: serde_json::Value = serde_json::from_slice(
        &ok(oracle_cdc(&db, &["emulator", "status", "--format", "json"])).stdout,
    )
    .unwrap();
    let out = ok(oracle_cdc(
        &db,
        &[
            "--set",
            "cdc.snapshot.chunk.rows=150",
            "snapshot",
            "--out",
            out_dir.to_str().unwrap(),
            "--format",
            "csv",
            "--summary-format",
            "json",
        ],
    ));
    // Only the JSON document on stdout (the closing "exported …" line is in it).
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(summary["format"], "csv");
    assert_eq!(summary["completed"], true);
    assert_eq!(summary["out"], out_dir.to_str().unwrap());
    let tables = summary["tables"].as_array().unwrap();
    assert_eq!(tables.len(), status["tables"].as_array().unwrap().len());
    let mut total = 0;
    for t in tables {
        let name = t["table"].as_str().unwrap();
        let want = status["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["table"] == name)
            .unwrap_or_else(|| panic!("{name} not in the database"));
        let rows = t["rows"].as_u64().unwrap();
        assert_eq!(rows, want["rows"].as_u64().unwrap(), "{name}");
        assert_eq!(t["state"], "done");
        // 150-row chunks: as many chunks as the rows need at least.
        assert!(t["chunks"].as_u64().unwrap() >= rows.div_ceil(150), "{t}");
        let listed = manifest["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["table"] == name)
            .unwrap();
        let scns: Vec<u64> = listed["chunk_scns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect();
        assert_eq!(t["min_scn"].as_u64(), scns.iter().min().copied());
        assert_eq!(t["max_scn"].as_u64(), scns.iter().max().copied());
        assert_eq!(t["chunks"].as_u64(), Some(scns.len() as u64));
        assert_eq!(t["strategy"], listed["strategy"]);
        let files = t["files"].as_array().unwrap();
        assert_eq!(files.len(), 1, "{t}");
        let file = out_dir.join(files[0].as_str().unwrap());
        let lines = csv::Reader::from_path(&file).unwrap().records().count() as u64;
        assert_eq!(lines, rows, "{} holds the rows", file.display());
        total += rows;
    }
    assert_eq!(summary["rows"].as_u64(), Some(total));
    assert!(summary["skipped"].as_array().unwrap().is_empty());
}
