//! The command line over Oracle Net: `emulator serve` as its own process, and every command an
//! operator runs against Oracle (`doctor`, `plan-chunks`, `snapshot`, `capture` in root and
//! per-PDB mode, `signal send --channel source`) pointed at `host:port/service` with a user and
//! password, a workload writing meanwhile: the records converge to `emulator dump`.

use super::capture_support::*;
use assert_cmd::cargo::cargo_bin;
use serde_json::Value as Json;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// `oracle-cdc emulator serve DIR --listen 127.0.0.1:0` until dropped.
pub struct Serve {
    child: Child,
    pub addr: String,
    /// The largest SDU a connection gets (printed on start).
    pub sdu: u64,
}

impl Serve {
    pub fn start(db: &Path, extra: &[&str]) -> Serve {
        Serve::start_at(db, extra, "127.0.0.1:0")
    }

    /// With options of `emulator serve` itself (`--sdu 65536`).
    pub fn start_with(db: &Path, serve_options: &[&str]) -> Serve {
        Serve::spawn(db, &[], "127.0.0.1:0", serve_options)
    }

    /// Over TLS with the test CA's server certificate (tests/all/tls), with settings `extra`
    /// (fault drills).
    pub fn start_tls(db: &Path, extra: &[&str]) -> Serve {
        let (cert, key) = (tls_file("server.pem"), tls_file("server.key"));
        Serve::spawn(
            db,
            extra,
            "127.0.0.1:0",
            &["--tls-cert", &cert, "--tls-key", &key],
        )
    }

    /// [`Serve::start_tls`] requiring client certificates of the test CA (mutual TLS).
    pub fn start_mtls(db: &Path) -> Serve {
        let (cert, key, ca) = (
            tls_file("server.pem"),
            tls_file("server.key"),
            tls_file("ca.pem"),
        );
        let options = [
            "--tls-cert",
            &cert,
            "--tls-key",
            &key,
            "--tls-client-ca",
            &ca,
        ];
        Serve::spawn(db, &[], "127.0.0.1:0", &options)
    }

    /// On a given address (a restart on the one a previous listener had).
    pub fn start_at(db: &Path, extra: &[&str], listen: &str) -> Serve {
        Serve::spawn(db, extra, listen, &[])
    }

    fn spawn(db: &Path, extra: &[&str], listen: &str, serve_options: &[&str]) -> Serve {
        let mut child = Command::new(cargo_bin("oracle-cdc"))
            .args(extra)
            .args([
                "emulator",
                "serve",
                db.to_str().unwrap(),
                "--listen",
                listen,
                "--format",
                "json",
            ])
            .args(serve_options)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // The JSON object printed on start, up to its closing brace.
        let mut text = String::new();
        let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        for line in lines.by_ref() {
            let line = line.unwrap();
            text.push_str(&line);
            if line == "}" {
                break;
            }
        }
        let v: Json =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("serve printed {text:?}: {e}"));
        Serve {
            child,
            addr: v["listening"].as_str().unwrap().to_string(),
            sdu: v["sdu"]
                .as_u64()
                .unwrap_or_else(|| panic!("no sdu in {text}")),
        }
    }

    pub fn url(&self, service: &str) -> String {
        format!("{}/{service}", self.addr)
    }

    /// The URL of a service of a listener started with `--tls-cert` (TCPS).
    pub fn tcps_url(&self, service: &str) -> String {
        format!("tcps://{}/{service}", self.addr)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The example's schema with `tables` (YAML items of its `tables:` list) added, written as
/// `dir/schema.yaml`.
fn example_plus(dir: &Path, tables: &str) -> PathBuf {
    let text = std::fs::read_to_string(example()).unwrap();
    let schema = dir.join("schema.yaml");
    std::fs::write(&schema, format!("{}\n{tables}", text.trim_end())).unwrap();
    schema
}

pub fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/emulator-schema.yaml")
}

/// `oracle-cdc` with settings (`--set` pairs) and the password in the environment, as the docs
/// advise.
fn cli(pairs: &[String], args: &[&str]) -> Output {
    let mut cmd = Command::new(cargo_bin("oracle-cdc"));
    cmd.env("ORACLE_CDC_DATABASE_PASSWORD", "emulator");
    for p in pairs {
        cmd.args(["--set", p]);
    }
    cmd.args(args).output().unwrap()
}

fn ok(o: Output, what: &str) -> Output {
    assert!(
        o.status.success(),
        "{what}: {}\n{}",
        String::from_utf8_lossy(&o.stderr),
        String::from_utf8_lossy(&o.stdout)
    );
    o
}

/// `capture --stop-at-scn end` with `pairs`, running (its stderr kept for [`ok`]).
fn capture_child(pairs: &[String], end: u64) -> std::process::Child {
    let mut c = Command::new(cargo_bin("oracle-cdc"));
    c.env("ORACLE_CDC_DATABASE_PASSWORD", "emulator");
    for pair in pairs {
        c.args(["--set", pair]);
    }
    c.args(["-q", "capture", "--stop-at-scn", &end.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// `emulator init` of `schema` as `dir/db`.
pub(super) fn init_in(dir: &tempfile::TempDir, schema: &Path) -> PathBuf {
    let db = dir.path().join("db");
    run(&[
        "emulator",
        "init",
        db.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
    ]);
    db
}

/// The README's example schema with `attributes` added to its capture user C##CDC (a profile
/// limit such as `sessions_per_user: 3`), written into `dir`.
pub(super) fn example_with_cdc(dir: &Path, attributes: &str) -> PathBuf {
    let text = std::fs::read_to_string(example()).unwrap();
    let changed = text.replacen(
        "- { name: C##CDC, container_data: all }",
        &format!("- {{ name: C##CDC, container_data: all, {attributes} }}"),
        1,
    );
    assert_ne!(changed, text, "the example has C##CDC");
    let schema = dir.join("schema.yaml");
    std::fs::write(&schema, changed).unwrap();
    schema
}

/// The settings of `w`'s database read in process (`emulator:DIR`), as the wire tests compare.
fn in_process(w: &Wired) -> Vec<String> {
    vec![
        format!("cdc.database.url=emulator:{}", w.db.display()),
        format!(
            "cdc.state.dir={}",
            w.dir.path().join("local-state").display()
        ),
        LONG_EXCLUDED.to_string(),
    ]
}

/// `snapshot` of `w`'s database in process, into `snap-local`.
fn export_in_process(w: &Wired) -> PathBuf {
    let out = w.dir.path().join("snap-local");
    ok(
        cli(
            &in_process(w),
            &["-q", "snapshot", "--out", out.to_str().unwrap()],
        ),
        "snapshot in process",
    );
    out
}

struct Wired {
    dir: tempfile::TempDir,
    db: PathBuf,
    serve: Serve,
}

fn wired() -> Wired {
    wired_in(tempfile::tempdir().unwrap(), &example())
}

/// `emulator init` of `schema` in `dir`, served.
fn wired_in(dir: tempfile::TempDir, schema: &Path) -> Wired {
    let db = init_in(&dir, schema);
    let serve = Serve::start(&db, &[]);
    Wired { dir, db, serve }
}

const LONG_EXCLUDED: &str = "cdc.columns.exclude=PDB2.SALES.ALL_TYPES.C_LONG";

fn pairs(w: &Wired, service: &str, user: &str, name: &str, extra: &[&str]) -> Vec<String> {
    let mut p = vec![
        format!("cdc.database.url={}", w.serve.url(service)),
        format!("cdc.database.user={user}"),
        format!(
            "cdc.sink.dir={}",
            w.dir.path().join(format!("{name}-out")).display()
        ),
        format!(
            "cdc.state.dir={}",
            w.dir.path().join(format!("{name}-state")).display()
        ),
        "cdc.on.decode.error=dlq".to_string(),
        "cdc.stream.poll.ms=50".to_string(),
        // LONG is snapshot-only, as in Debezium (CDC-3008): the README's job leaves it out.
        LONG_EXCLUDED.to_string(),
    ];
    p.extend(extra.iter().map(|s| s.to_string()));
    p
}

/// The README's main job over the wire, root mode: a common user on the CDB's service captures
/// both PDBs while the workload runs; then per-PDB mode: a local user on PDB1's service.
#[test]
fn capture_over_the_wire_converges_in_root_and_per_pdb_mode() {
    let w = wired();
    let root = pairs(&w, "DEMO", "C##CDC", "root", &[]);
    let local = pairs(&w, "PDB1", "PDB1CDC", "pdb1", &[]);
    let load = workload(
        &w.db,
        &["--transactions", "300", "--rate", "150", "--seed", "3"],
    );
    let mid = current_scn(&w.db);
    ok(
        cli(&root, &["-q", "capture", "--stop-at-scn", &mid.to_string()]),
        "capture (root) during the workload",
    );
    ok(
        cli(
            &local,
            &["-q", "capture", "--stop-at-scn", &mid.to_string()],
        ),
        "capture (PDB1) during the workload",
    );
    finish(load);
    let end = current_scn(&w.db);
    ok(
        cli(&root, &["-q", "capture", "--stop-at-scn", &end.to_string()]),
        "capture (root)",
    );
    ok(
        cli(
            &local,
            &["-q", "capture", "--stop-at-scn", &end.to_string()],
        ),
        "capture (PDB1)",
    );
    for (name, tables) in [
        (
            "root",
            &[
                "PDB1.HR.EMPLOYEES",
                "PDB1.HR.AUDIT_LOG",
                "PDB1.BATCH.JOB_RUNS",
                "PDB2.SALES.ALL_TYPES",
            ][..],
        ),
        (
            "pdb1",
            &[
                "PDB1.HR.EMPLOYEES",
                "PDB1.HR.AUDIT_LOG",
                "PDB1.BATCH.JOB_RUNS",
            ][..],
        ),
    ] {
        let recs = records(&w.dir.path().join(format!("{name}-out")));
        assert_exactly_once(&recs);
        let dlq = w.dir.path().join(format!("{name}-state/dlq.jsonl"));
        assert!(
            !dlq.exists(),
            "{name}: dead letters: {}",
            std::fs::read_to_string(&dlq).unwrap_or_default()
        );
        for t in tables {
            assert_table_converges_without(&w.db, &recs, t, end, &["C_LONG"]);
        }
        if name == "pdb1" {
            assert!(
                !recs.iter().any(|r| r["topic"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("ALL_TYPES")),
                "per-PDB mode on PDB1 published PDB2's table"
            );
        }
    }
}

/// `doctor`, `plan-chunks` and `snapshot` against the served database give what they give
/// against the same database in-process.
#[test]
fn doctor_plan_and_snapshot_over_the_wire_match_in_process() {
    let w = wired();
    let wire = pairs(&w, "DEMO", "C##CDC", "wire", &[]);
    let local = in_process(&w);
    let doctor = ok(
        cli(&wire, &["doctor", "--format", "json"]),
        "doctor over the wire",
    );
    let report: Json = serde_json::from_slice(&doctor.stdout).unwrap();
    let text = report.to_string();
    assert!(
        text.contains("thin"),
        "doctor names the thin driver: {text}"
    );
    let in_process: Json =
        serde_json::from_slice(&ok(cli(&local, &["doctor", "--format", "json"]), "doctor").stdout)
            .unwrap();
    assert_eq!(
        report["summary"], in_process["summary"],
        "doctor's verdict over the wire and in-process"
    );

    // One login: the session that resolved the tables plans their chunks (it logged in twice,
    // resolving on one session and planning on another).
    let mut logged = Command::new(cargo_bin("oracle-cdc"));
    logged
        .env("ORACLE_CDC_DATABASE_PASSWORD", "emulator")
        .env("ORACLE_CDC_LOG", "cdc_oracle=debug");
    for p in &wire {
        logged.args(["--set", p]);
    }
    let plan = ok(
        logged
            .args(["plan-chunks", "--format", "json"])
            .output()
            .unwrap(),
        "plan-chunks over the wire",
    );
    let logins = String::from_utf8_lossy(&plan.stderr)
        .matches("connecting to Oracle")
        .count();
    assert_eq!(logins, 1, "{}", String::from_utf8_lossy(&plan.stderr));
    let plan_local = ok(
        cli(&local, &["plan-chunks", "--format", "json"]),
        "plan-chunks",
    );
    assert_eq!(plan.stdout, plan_local.stdout, "chunk plans");

    let out_w = w.dir.path().join("snap-wire");
    ok(
        cli(&wire, &["-q", "snapshot", "--out", out_w.to_str().unwrap()]),
        "snapshot over the wire",
    );
    let out_l = export_in_process(&w);
    assert_same_exports(&out_w, &out_l);

    // A 19c server's default SDU (8192) above; a server allowing 2 MB, asked for it, sends each
    // fetch in one packet: the same rows.
    assert_eq!(
        w.serve.sdu, 8192,
        "a 19c database's default DEFAULT_SDU_SIZE"
    );
    let big = Serve::start_with(&w.db, &["--sdu", "2097152"]);
    assert_eq!(big.sdu, 2_097_152);
    let mut wire_big = wire.clone();
    wire_big[0] = format!("cdc.database.url={}", big.url("DEMO"));
    wire_big.push("cdc.database.sdu=2097152".into());
    wire_big.push(format!(
        "cdc.state.dir={}",
        w.dir.path().join("big-state").display()
    ));
    let out_big = w.dir.path().join("snap-big");
    ok(
        cli(
            &wire_big,
            &["-q", "snapshot", "--out", out_big.to_str().unwrap()],
        ),
        "snapshot over the wire with a 2 MB SDU",
    );
    assert_same_exports(&out_big, &out_l);
}

/// A keyless table stored in a cluster, snapshotted over Oracle Net: the adapter reads
/// ALL_TABLES.CLUSTER_NAME and plans ROWID ranges over the cluster's DBA_EXTENTS rows
/// (SEGMENT_TYPE CLUSTER), and the export has every row `emulator dump` shows, none of the
/// other table's of the cluster. Before, DBA_EXTENTS had no row under the table's name and the
/// table was exported empty.
#[test]
fn a_clustered_table_snapshots_over_the_wire_as_emulator_dump() {
    let dir = tempfile::tempdir().unwrap();
    let schema = example_plus(
        dir.path(),
        r#"
  - name: PDB1.APP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: CUSTOMER, type: VARCHAR2(20) }
    primary_key: [ID]
    cluster: ORDERS_CLU
    rows: 300
  - name: PDB1.APP.LINES
    columns:
      - { name: ORDER_ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20) }
    cluster: ORDERS_CLU
    rows: 600
"#,
    );
    let w = wired_in(dir, &schema);
    let wire = pairs(
        &w,
        "PDB1",
        "C##CDC",
        "wire",
        &[
            "cdc.tables.include=PDB1.APP.*",
            "cdc.snapshot.chunk.rows=100",
        ],
    );
    let plan = ok(
        cli(&wire, &["plan-chunks", "--format", "json"]),
        "plan-chunks over the wire",
    );
    let plans: Vec<Json> = serde_json::from_slice(&plan.stdout).unwrap();
    let lines = plans
        .iter()
        .find(|p| p["table"] == "PDB1.APP.LINES")
        .unwrap();
    assert!(lines["chunks"].as_u64().unwrap() > 3, "{lines}");
    let out = w.dir.path().join("snap-wire");
    ok(
        cli(&wire, &["-q", "snapshot", "--out", out.to_str().unwrap()]),
        "snapshot over the wire",
    );
    for (table, rows) in [("PDB1.APP.LINES", 600), ("PDB1.APP.ORDERS", 300)] {
        let sorted = |text: String| {
            let mut l: Vec<String> = text.lines().map(str::to_string).collect();
            l.sort();
            l
        };
        let exported = sorted(std::fs::read_to_string(out.join(format!("{table}.jsonl"))).unwrap());
        let dumped = run(&["emulator", "dump", w.db.to_str().unwrap(), "--table", table]);
        assert_eq!(
            exported,
            sorted(String::from_utf8(dumped.stdout).unwrap()),
            "{table}"
        );
        assert_eq!(exported.len(), rows, "{table}");
    }
}

/// Every table file of an export in `local` has the same lines in `wire`.
fn assert_same_exports(wire: &Path, local: &Path) {
    let mut compared = 0;
    for e in std::fs::read_dir(local).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if !name.ends_with(".jsonl") || name == "ops.jsonl" {
            continue;
        }
        let sorted = |p: &Path| {
            let mut l: Vec<String> = std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect();
            l.sort();
            l
        };
        assert_eq!(sorted(&wire.join(&name)), sorted(&e.path()), "{name}");
        compared += 1;
    }
    assert_eq!(compared, 4, "every table exported");
}

/// The example schema with Debezium's signal table in PDB1, which the capture user may insert
/// into.
fn with_signal_table(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(example()).unwrap();
    let table = "  - name: PDB1.CDC.DEBEZIUM_SIGNAL\n    columns:\n      - { name: ID, type: VARCHAR2(42), nullable: false }\n      - { name: TYPE, type: VARCHAR2(32), nullable: false }\n      - { name: DATA, type: VARCHAR2(2048) }\n    primary_key: [ID]\n    supplemental_logging: all\n    rows: 0\n";
    let out = text
        .replacen("tables:\n", &format!("tables:\n{table}"), 1)
        .replacen(
            "- { name: C##CDC, container_data: all }",
            "- { name: C##CDC, container_data: all, privileges: [all, \"PDB1.CDC.DEBEZIUM_SIGNAL:INSERT\"] }",
            1,
        );
    let path = dir.join("schema.yaml");
    std::fs::write(&path, out).unwrap();
    path
}

/// `signal send --channel source` over the wire: the signal row is inserted through Oracle Net,
/// reaches the redo like any change, and the running capture (reading it from the stream)
/// runs the snapshot it asks for.
#[test]
fn a_source_channel_signal_is_inserted_over_the_wire_and_run() {
    let dir = tempfile::tempdir().unwrap();
    let schema = with_signal_table(dir.path());
    let w = wired_in(dir, &schema);
    let p = pairs(
        &w,
        "DEMO",
        "C##CDC",
        "sig",
        &[
            "cdc.signal.enabled.channels=file,source",
            "cdc.signal.data.collection=PDB1.CDC.DEBEZIUM_SIGNAL",
            "cdc.tables.include=PDB1.HR.*",
            "cdc.snapshot.mode=none",
        ],
    );
    let state = w.dir.path().join("sig-state");
    let mut cmd = Command::new(cargo_bin("oracle-cdc"));
    cmd.env("ORACLE_CDC_DATABASE_PASSWORD", "emulator");
    for s in &p {
        cmd.args(["--set", s]);
    }
    let mut cap = cmd
        .args(["-q", "capture"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_event(&state, 60, "capture streaming", |e| {
        e["event"] == "capture-state"
    });
    let sent = ok(
        cli(
            &p,
            &[
                "signal",
                "send",
                "execute-snapshot",
                "--channel",
                "source",
                "--tables",
                "PDB1.HR.EMPLOYEES",
                "--filter",
                "PDB1.HR.EMPLOYEES=ID <= 40",
                "--id",
                "wire-1",
                "--wait",
                "--timeout",
                "60",
            ],
        ),
        "signal send --channel source over the wire",
    );
    assert_eq!(String::from_utf8_lossy(&sent.stdout).trim(), "wire-1");
    let _ = cap.kill();
    let _ = cap.wait();
    let recs = records(&w.dir.path().join("sig-out"));
    let snapshot: Vec<_> = recs
        .iter()
        .filter(|r| {
            payload(&r["value"])["op"] == "r"
                && topic_matches(r["topic"].as_str().unwrap_or_default(), "PDB1.HR.EMPLOYEES")
        })
        .collect();
    let want = dump(&w.db, "PDB1.HR.EMPLOYEES", current_scn(&w.db))
        .iter()
        .filter(|r| r["ID"].as_i64().is_some_and(|i| i <= 40))
        .count();
    assert_eq!(
        snapshot.len(),
        want,
        "the signal's snapshot with its filter"
    );
    assert!(
        recs.iter().all(|r| !r["topic"]
            .as_str()
            .unwrap_or_default()
            .contains("DEBEZIUM_SIGNAL")),
        "signal rows are never published"
    );
}

/// A read-only Active Data Guard standby served over Oracle Net: capture reads it there (chunks
/// at its applied SCN), converges, and not one byte of the standby's directory changes.
#[test]
fn a_served_standby_is_captured_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    run(&[
        "emulator",
        "init",
        db.to_str().unwrap(),
        "--schema",
        example().to_str().unwrap(),
    ]);
    finish(workload(
        &db,
        &["--transactions", "150", "--rate", "300", "--seed", "4"],
    ));
    let standby = dir.path().join("standby");
    create_standby(&db, &standby, "40");
    let before = std::fs::read_dir(&standby)
        .unwrap()
        .flatten()
        .map(|e| (e.path(), std::fs::read(e.path()).unwrap()))
        .collect::<Vec<_>>();
    let serve = Serve::start(&standby, &[]);
    let w = Wired { dir, db, serve };
    // Dictionary builds (a few SCNs and a log switch each, no table changes) until the standby,
    // 40 SCNs behind, has applied every change: the tables stay as they are at every SCN the
    // standby reaches from here.
    let changed = current_scn(&w.db);
    let build = || run(&["emulator", "build-dictionary", w.db.to_str().unwrap()]);
    while current_scn(&standby) < changed {
        build();
    }
    let applied = current_scn(&standby);
    // Counted from the primary's newest redo record, the log switch one past its newest change.
    assert_eq!(applied, current_scn(&w.db) + 1 - 40);
    let p = pairs(
        &w,
        "DEMO",
        "C##CDC",
        "stby",
        &["cdc.tables.include=PDB1.HR.EMPLOYEES,PDB1.BATCH.JOB_RUNS"],
    );
    let doctor = ok(
        cli(&p, &["doctor", "--format", "json"]),
        "doctor on the standby",
    );
    assert!(
        String::from_utf8_lossy(&doctor.stdout).contains("PHYSICAL STANDBY"),
        "doctor sees a standby"
    );
    // LogMiner on the standby is given its archived logs, which end before its applied SCN
    // (the rest is in the standby redo log being written): capture waits for them while the
    // primary switches logs and the standby, its lag behind, applies and archives them.
    let mut c = capture_child(&p, applied);
    for _ in 0..2000 {
        if matches!(c.try_wait(), Ok(Some(_))) {
            break;
        }
        build();
    }
    ok(c.wait_with_output().unwrap(), "capture on the standby");
    let recs = records(&w.dir.path().join("stby-out"));
    assert_exactly_once(&recs);
    for t in ["PDB1.HR.EMPLOYEES", "PDB1.BATCH.JOB_RUNS"] {
        assert_table_converges(&standby, &recs, t, applied);
    }
    let after = std::fs::read_dir(&standby)
        .unwrap()
        .flatten()
        .map(|e| (e.path(), std::fs::read(e.path()).unwrap()))
        .collect::<Vec<_>>();
    assert_eq!(after, before, "the standby's directory was written to");
}

/// A served Active Data Guard standby with real-time apply (no lag), mined by the adapter over
/// Oracle Net: capture resumes inside the standby's newest archived log and is asked to stop
/// at its applied SCN, which lies in the standby redo log being written (no log view there
/// lists it; the standby's own online logs hold nothing). The adapter bounds the window by the
/// archived logs (V$ARCHIVED_LOG, per thread NEXT_CHANGE# - 1), waits for the primary's next
/// log switch to reach the standby, and converges with every commit once. Mining to the applied
/// SCN with those logs ended at once with the commits past them lost.
#[test]
fn a_served_real_time_apply_standby_is_mined_only_as_far_as_its_archived_logs() {
    let dir = tempfile::tempdir().unwrap();
    let db = init_in(&dir, &example());
    let standby = dir.path().join("standby");
    let load = |seed: &str| {
        finish(workload(
            &db,
            &["--transactions", "30", "--rate", "1000", "--seed", seed],
        ))
    };
    load("31");
    create_standby(&db, &standby, "0");
    let build = || run(&["emulator", "build-dictionary", db.to_str().unwrap()]);
    let archived_end = || crate::topology_cli::archived_end(&standby);
    // The snapshot and a first stop just after a log switch: streaming resumes in the log
    // that was current then.
    let before_switch = current_scn(&standby);
    build();
    let serve = Serve::start(&standby, &[]);
    let tables = ["PDB1.HR.EMPLOYEES", "PDB1.BATCH.JOB_RUNS"];
    let include = format!("cdc.tables.include={}", tables.join(","));
    let w = Wired {
        dir,
        db: db.clone(),
        serve,
    };
    let p = pairs(&w, "DEMO", "C##CDC", "rta", &[include.as_str()]);
    let state = w.dir.path().join("rta-state");
    ok(
        cli(
            &p,
            &["-q", "capture", "--stop-at-scn", &before_switch.to_string()],
        ),
        "capture to the first stop",
    );
    // Commits, a log switch (the log capture resumes in is archived on the standby), commits.
    load("32");
    build();
    let end = archived_end();
    load("33");
    let applied = current_scn(&standby);
    assert!(
        end < applied && archived_end() == end,
        "archived to {end}, applied {applied}"
    );

    let waits = || {
        events(&state)
            .iter()
            .filter(|v| v["event"] == "capture-state" && v["state"] == "waiting-for-redo")
            .count()
    };
    let before = waits();
    let mut c = capture_child(&p, applied);
    let mut ended_early = false;
    wait_for("capture waiting for archived redo, or ending", 120, || {
        ended_early = matches!(c.try_wait(), Ok(Some(_)));
        ended_early || waits() > before
    });
    if !ended_early {
        build();
        assert!(archived_end() >= applied);
    }
    ok(c.wait_with_output().unwrap(), "capture to the applied SCN");
    let recs = records(&w.dir.path().join("rta-out"));
    for t in tables {
        assert_table_converges(&standby, &recs, t, applied);
    }
    assert_exactly_once(&recs);
    assert!(
        !ended_early,
        "capture ended before the standby archived the redo up to {applied}"
    );
}

/// The adapter over Oracle Net on a served real-time-apply standby whose primary commits on
/// without a log switch: the snapshot's waves are read one past where the standby's archived
/// logs end (V$ARCHIVED_LOG, V$THREAD), in step with what the stream can mine there, and
/// capture ends without waiting for a switch. Read at the applied SCN (before), the second
/// wave waited for redo only the primary's next log switch would archive.
#[test]
fn a_served_standby_reads_snapshot_waves_where_its_archived_logs_end() {
    let dir = tempfile::tempdir().unwrap();
    let db = init_in(&dir, &example());
    finish(workload(
        &db,
        &["--transactions", "30", "--rate", "1000", "--seed", "41"],
    ));
    let standby = dir.path().join("standby");
    create_standby(&db, &standby, "0");
    run(&["emulator", "build-dictionary", db.to_str().unwrap()]);
    let end = crate::topology_cli::archived_end(&standby);
    let serve = Serve::start(&standby, &[]);
    let tables = ["PDB1.HR.EMPLOYEES", "PDB1.BATCH.JOB_RUNS"];
    let include = format!("cdc.tables.include={}", tables.join(","));
    let w = Wired {
        dir,
        db: db.clone(),
        serve,
    };
    let p = pairs(
        &w,
        "DEMO",
        "C##CDC",
        "waves",
        &[include.as_str(), "cdc.snapshot.chunk.rows=100"],
    );
    // The primary commits on; the standby applies it at once, past its archived logs.
    let mut load = workload(&db, &["--duration", "120s", "--rate", "25", "--seed", "42"]);
    wait_for("the standby applying past its archived logs", 60, || {
        current_scn(&standby) > end + 40
    });
    let mut c = capture_child(&p, end);
    let status = wait_at_most(
        &mut c,
        120,
        "capture on the served standby (waiting for a switch?)",
    );
    let _ = load.kill();
    let _ = load.wait();
    let mut stderr = String::new();
    if let Some(mut err) = c.stderr.take() {
        use std::io::Read;
        let _ = err.read_to_string(&mut stderr);
    }
    assert!(status.success(), "capture failed: {stderr}");
    assert_eq!(
        crate::topology_cli::archived_end(&standby),
        end,
        "a log switch came meanwhile: the test shows nothing"
    );
    let recs = records(&w.dir.path().join("waves-out"));
    assert_exactly_once(&recs);
    // The stream starts one past the archived logs' end too, so up to `end` it publishes
    // nothing: the records are the snapshot's, the tables at end + 1.
    for t in tables {
        assert_table_converges(&standby, &recs, t, end + 1);
    }
    let scns: std::collections::BTreeSet<String> = recs
        .iter()
        .filter(|r| payload(&r["value"])["op"] == "r")
        .map(|r| {
            payload(&r["value"])["source"]["scn"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        scns.into_iter().collect::<Vec<_>>(),
        vec![(end + 1).to_string()]
    );
}

/// A 26ai database with TIME_AT_DBTIMEZONE=USER_SQL and a database time zone 13:30 from the
/// host's: SYSTIMESTAMP answers at -08:00 while LogMiner's DATEs keep the host's +05:30. Capture
/// over the wire reads the parameter, measures LogMiner's clock (SCN_TO_TIMESTAMP of the current
/// SCN against UTC) and publishes each change at its instant: source.ts_ms and commit_ts_ms fall
/// between the workload's start and the capture's end, not 13.5 hours off.
#[test]
fn a_26ai_database_whose_systimestamp_follows_dbtimezone_is_captured_at_the_right_times() {
    let dir = tempfile::tempdir().unwrap();
    let (db, schema) = (dir.path().join("db"), dir.path().join("schema.yaml"));
    std::fs::write(
        &schema,
        r#"seed: 5
database:
  version: 23.26.0.0.0
  multitenant: true
  host_utc_offset: "+05:30"
  db_time_zone: "-08:00"
  time_at_dbtimezone: user_sql
tables:
  - name: PDB1.HR.T
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: V, type: VARCHAR2(20) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 10
"#,
    )
    .unwrap();
    run(&[
        "emulator",
        "init",
        db.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
    ]);
    let w = Wired {
        serve: Serve::start(&db, &[]),
        db,
        dir,
    };
    let p = pairs(&w, "EMU", "C##CDC", "tz", &[]);
    let doctor: Json = serde_json::from_slice(
        &ok(
            cli(
                &p,
                &[
                    "doctor",
                    "--check",
                    "connection.version",
                    "--format",
                    "json",
                ],
            ),
            "doctor",
        )
        .stdout,
    )
    .unwrap();
    let found = doctor["checks"][0]["found"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        found.contains("TIME_AT_DBTIMEZONE=USER_SQL") && found.contains("UTC+05:30"),
        "{found}"
    );
    // The snapshot first, then changes to stream.
    let start = current_scn(&w.db);
    ok(
        cli(&p, &["-q", "capture", "--stop-at-scn", &start.to_string()]),
        "capture (snapshot)",
    );
    let before = chrono::Utc::now().timestamp_millis();
    finish(workload(
        &w.db,
        &["--transactions", "20", "--rate", "0", "--seed", "4"],
    ));
    let end = current_scn(&w.db);
    ok(
        cli(&p, &["-q", "capture", "--stop-at-scn", &end.to_string()]),
        "capture (stream)",
    );
    let after = chrono::Utc::now().timestamp_millis();
    let recs = records(&w.dir.path().join("tz-out"));
    let changes: Vec<&Json> = recs
        .iter()
        .filter(|r| is_change(r) && payload(&r["value"])["op"] != "r")
        .collect();
    assert!(!changes.is_empty(), "{} records, none streamed", recs.len());
    for r in changes {
        let source = &payload(&r["value"])["source"];
        for field in ["ts_ms", "commit_ts_ms"] {
            let at = source[field].as_i64().unwrap_or_default();
            assert!(
                (before - 2_000..=after + 2_000).contains(&at),
                "{field} {at} outside {before}..{after} (off by {} h): {source}",
                (at - before) as f64 / 3_600_000.0
            );
        }
    }
}

/// PDB-level supplemental logging read by the Oracle adapter over the wire: PDB1 logs all
/// columns itself (DBA_SUPPLEMENTAL_LOGGING, read inside it after ALTER SESSION SET CONTAINER),
/// PDB2 does not, and neither table has a log group. doctor's supplemental.table passes for
/// PDB1's table and fails for PDB2's with the PDB-level statement, as in-process.
#[test]
fn doctor_over_the_wire_counts_a_pdbs_own_supplemental_logging() {
    let dir = tempfile::tempdir().unwrap();
    let (db, schema) = (dir.path().join("db"), dir.path().join("schema.yaml"));
    let table = |name: &str| {
        format!(
            "  - name: {name}\n    columns:\n      - {{ name: ID, type: NUMBER(10), nullable: false }}\n      - {{ name: V, type: VARCHAR2(20) }}\n    primary_key: [ID]\n    supplemental_logging: none\n    rows: 5\n"
        )
    };
    std::fs::write(
        &schema,
        format!(
            "seed: 5\ndatabase:\n  multitenant: true\n  pdbs: [{{ name: PDB1, supplemental_logging: {{ all: true }} }}]\ntables:\n{}{}",
            table("PDB1.HR.T"),
            table("PDB2.HR.T")
        ),
    )
    .unwrap();
    run(&[
        "emulator",
        "init",
        db.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
    ]);
    let w = Wired {
        serve: Serve::start(&db, &[]),
        db,
        dir,
    };
    let check = |include: &str| -> Json {
        let p = pairs(&w, "EMU", "C##CDC", "pdbsupp", &[include]);
        // Exit status 1 with a FAIL: the report is on stdout either way.
        let out = cli(
            &p,
            &[
                "doctor",
                "--check",
                "supplemental.table",
                "--format",
                "json",
            ],
        );
        let v: Json = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
        v["checks"][0].clone()
    };
    let c = check("cdc.tables.include=PDB1.HR.*");
    assert_eq!(c["severity"], "PASS", "{c}");
    let c = check("cdc.tables.include=PDB1.HR.*,PDB2.HR.*");
    assert_eq!(c["severity"], "FAIL", "{c}");
    let found = c["found"].as_str().unwrap_or_default();
    assert!(found.ends_with(": PDB2.HR.T"), "{found}");
    assert!(
        c["fix"].as_str().unwrap_or_default().starts_with(
            "ALTER SESSION SET CONTAINER = PDB2;\nALTER PLUGGABLE DATABASE ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;"
        ),
        "{c}"
    );
}

/// A capture user whose password is in its grace period (4 days left): capture over the wire
/// runs, its login logs a warning naming the user, the days and the remedy (once, though the
/// snapshot logs in more sessions), and capture writes a `password-expiring` ops event with the
/// code the logins fail with once the days are up (CDC-2013). Before: nothing said so.
#[test]
fn capture_over_the_wire_says_the_password_expires() {
    let dir = tempfile::tempdir().unwrap();
    let schema = example_with_cdc(dir.path(), "password_expires_in_days: 4");
    let w = wired_in(dir, &schema);
    let p = pairs(
        &w,
        "DEMO",
        "C##CDC",
        "grace",
        &["cdc.tables.include=PDB1.HR.*", "cdc.snapshot.threads=2"],
    );
    let start = current_scn(&w.db);
    let out = ok(
        cli(&p, &["capture", "--stop-at-scn", &start.to_string()]),
        "capture",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let said = "the password of C##CDC expires in 4 days";
    assert_eq!(stderr.matches(said).count(), 1, "{stderr}");
    assert!(stderr.contains("PASSWORD_LIFE_TIME UNLIMITED"), "{stderr}");
    let expiring: Vec<Json> = events(&w.dir.path().join("grace-state"))
        .into_iter()
        .filter(|e| e["event"] == "password-expiring")
        .collect();
    assert_eq!(expiring.len(), 1, "{expiring:?}");
    let e = &expiring[0];
    assert_eq!(e["user"], "C##CDC", "{e}");
    assert_eq!(e["days"], 4, "{e}");
    assert_eq!(e["code"], "CDC-2013", "{e}");
    assert_eq!(
        e["message"], "ORA-28002: the password will expire within 4 days",
        "{e}"
    );
}

/// A capture user whose profile allows 3 sessions at once (SESSIONS_PER_USER, which CIS
/// hardening keeps at 10 or less): doctor's sessions check fails before the job runs, naming
/// the limit and a profile with room; a snapshot that opens more sessions reads on with those
/// the database gives it (ORA-02391, CDC-2011, refused the others), says so, and writes what a
/// snapshot within the limit writes.
#[test]
fn a_snapshot_past_the_users_sessions_per_user_reads_on_with_fewer_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let schema = example_with_cdc(dir.path(), "sessions_per_user: 3");
    let w = wired_in(dir, &schema);
    let settings = |threads: u32, name: &str| {
        vec![
            format!("cdc.database.url={}", w.serve.url("DEMO")),
            "cdc.database.user=C##CDC".to_string(),
            format!("cdc.state.dir={}", w.dir.path().join(name).display()),
            "cdc.tables.include=PDB1.HR.*".to_string(),
            format!("cdc.snapshot.threads={threads}"),
            // Many chunks a table: every reader has one to read.
            "cdc.snapshot.chunk.rows=2".to_string(),
            LONG_EXCLUDED.to_string(),
        ]
    };

    let doctor = cli(
        &settings(4, "doctor"),
        &["doctor", "--check", "settings.sessions", "--format", "json"],
    );
    let report = String::from_utf8_lossy(&doctor.stdout);
    // A warning: the snapshot makes do with the coordinating session and one reader beside
    // mining (--fail-on warn would make it exit 1).
    assert!(doctor.status.success(), "{report}");
    assert!(
        report.contains("SESSIONS_PER_USER 3 for C##CDC")
            && report.contains("about 1 of 4 readers"),
        "{report}"
    );
    let check: Json = serde_json::from_slice(&doctor.stdout).unwrap();
    assert_eq!(check["checks"][0]["severity"], "WARN", "{report}");
    assert!(
        check["checks"][0]["fix_settings"]
            .as_str()
            .is_some_and(|f| f.starts_with("cdc.snapshot.threads: 1  -- the most that fits")),
        "{report}"
    );
    // A common user needs a common profile (a C## name, CONTAINER=ALL).
    assert!(
        report.contains("CREATE PROFILE C##CDC_PROFILE LIMIT SESSIONS_PER_USER")
            && report.contains("ALTER USER C##CDC PROFILE C##CDC_PROFILE CONTAINER=ALL;"),
        "{report}"
    );

    // A user that may not read V$RESOURCE_LIMIT (HR, in PDB1): its own limit is read (no grant
    // needed), and the check is skipped rather than passed, naming the grant.
    let hr = vec![
        format!("cdc.database.url={}", w.serve.url("PDB1")),
        "cdc.database.user=HR".to_string(),
        "cdc.database.password=hr".to_string(),
        format!("cdc.state.dir={}", w.dir.path().join("hr").display()),
    ];
    let doctor = ok(
        cli(
            &hr,
            &["doctor", "--check", "settings.sessions", "--format", "json"],
        ),
        "doctor as HR",
    );
    let report: Json = serde_json::from_slice(&doctor.stdout).unwrap();
    let text = report.to_string();
    assert!(
        text.contains("SKIP")
            && text.contains("SESSIONS_PER_USER unlimited")
            && text.contains("SELECT on SYS.V_$RESOURCE_LIMIT"),
        "{text}"
    );

    // Past the limit, the snapshot reads on with the sessions the database gives it (the
    // coordinating one and two readers), saying so, and writes what a snapshot within the
    // limit writes.
    let out4 = w.dir.path().join("out4");
    let four = ok(
        cli(
            &settings(4, "state4"),
            // Not --quiet, which leaves errors alone: the warning is what this run shows.
            &["snapshot", "--out", out4.to_str().unwrap()],
        ),
        "a snapshot past the limit",
    );
    let err = String::from_utf8_lossy(&four.stderr);
    assert!(
        err.contains("the database refused another session")
            && err.contains("ORA-02391")
            && err.contains("reading session(s)"),
        "{err}"
    );
    let exported = events(&out4);
    let reduced: Vec<&Json> = exported
        .iter()
        .filter(|e| e["event"] == "snapshot-readers-reduced")
        .collect();
    assert!(
        !reduced.is_empty() && reduced.iter().all(|e| e["code"] == "CDC-2011"),
        "{exported:?}"
    );
    assert_eq!(reduced.last().unwrap()["readers"], 2, "{reduced:?}");

    let out1 = w.dir.path().join("out1");
    ok(
        cli(
            &settings(1, "state1"),
            &["-q", "snapshot", "--out", out1.to_str().unwrap()],
        ),
        "a snapshot within the limit",
    );
    // The export's rows, one JSON object a line in a file a table (ops.jsonl aside).
    let rows = super::faults::export_rows;
    let (four_rows, one_rows) = (rows(&out4), rows(&out1));
    assert!(four_rows.len() > 10, "{four_rows:?}");
    assert_eq!(four_rows, one_rows);

    // Capture too: the mining session, the snapshot's coordinating one and a single reader.
    let end = current_scn(&w.db);
    let mut capture = settings(4, "cap");
    let sink = w.dir.path().join("cap-out");
    capture.push(format!("cdc.sink.dir={}", sink.display()));
    ok(
        cli(
            &capture,
            &["-q", "capture", "--stop-at-scn", &end.to_string()],
        ),
        "a capture past the limit",
    );
    let recs = records(&sink);
    assert_exactly_once(&recs);
    for t in ["PDB1.HR.EMPLOYEES", "PDB1.HR.AUDIT_LOG"] {
        assert_table_converges(&w.db, &recs, t, end);
    }
    let captured = events(&w.dir.path().join("cap"));
    let last = captured
        .iter()
        .rfind(|e| e["event"] == "snapshot-readers-reduced")
        .expect("the capture's snapshot made do with fewer readers");
    assert_eq!(last["readers"], 1, "{last}");
}

/// The binary turns transparent huge pages off for itself (`process_setup`): mimalloc advises
/// huge pages on its regions, and the kernel's zeroing of them was a swinging fifth to a third
/// of an export's CPU (benches/README.md, "Huge pages off"). Linux shows the flag in
/// /proc/PID/status (`THP_enabled`, since 5.0): 1 for any process that did not ask.
#[cfg(target_os = "linux")]
#[test]
fn the_binary_runs_without_transparent_huge_pages() {
    let w = wired();
    let status = std::fs::read_to_string(format!("/proc/{}/status", w.serve.pid())).unwrap();
    let thp = status
        .lines()
        .find_map(|l| l.strip_prefix("THP_enabled:"))
        .unwrap_or_else(|| panic!("no THP_enabled in /proc/PID/status:\n{status}"));
    assert_eq!(
        thp.trim(),
        "0",
        "emulator serve runs with huge pages allowed"
    );
    // This test process did not ask: the flag is the binary's own, not the machine's.
    let own = std::fs::read_to_string("/proc/self/status").unwrap();
    assert!(own.contains("THP_enabled:\t1"), "{own}");
}

/// The test CA's files (tests/all/tls): a server certificate for localhost and 127.0.0.1
/// signed by it, its key, and a wallet directory whose ewallet.pem holds the CA certificate.
fn tls_file(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/all/tls")
        .join(name)
        .display()
        .to_string()
}

/// TCPS end to end: `emulator serve --tls-cert --tls-key` speaks Oracle Net inside TLS, the
/// thin driver trusts the CA in cdc.database.wallet.location's ewallet.pem, and the export read
/// over it is the in-process one. Without the wallet, a plain port, or plain TCP to the TLS
/// port, the job stops with the code that says what is wrong instead of hanging or reading.
#[test]
fn a_snapshot_over_tcps_trusts_the_wallets_ca_and_equals_in_process() {
    let w = wired();
    let tls = Serve::start_tls(&w.db, &[]);
    let mut wire = pairs(&w, "DEMO", "C##CDC", "tcps", &[]);
    wire[0] = format!("cdc.database.url={}", tls.tcps_url("DEMO"));
    let trusted = [
        wire.clone(),
        vec![format!(
            "cdc.database.wallet.location={}",
            tls_file("wallet")
        )],
    ]
    .concat();
    let out = w.dir.path().join("snap-tcps");
    ok(
        cli(
            &trusted,
            &["-q", "snapshot", "--out", out.to_str().unwrap()],
        ),
        "snapshot over tcps with the wallet",
    );
    assert_same_exports(&out, &export_in_process(&w));

    // No wallet: the public CAs do not know the test CA.
    let refused = |pairs: &[String], what: &str, code: &str, says: &str| {
        let o = cli(pairs, &["-q", "plan-chunks"]);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(1), "{what}: {err}");
        assert!(err.contains(code) && err.contains(says), "{what}: {err}");
    };
    refused(&wire, "no wallet", "CDC-2012", "UnknownIssuer");
    // A wallet directory without ewallet.pem.
    let empty = w.dir.path().join("empty-wallet");
    std::fs::create_dir(&empty).unwrap();
    let no_file = [
        wire.clone(),
        vec![format!("cdc.database.wallet.location={}", empty.display())],
    ]
    .concat();
    refused(&no_file, "an empty wallet", "CDC-2012", "ewallet.pem");
    // Settings refused before anything connects: a location thick mode's connect descriptor
    // could not carry, a wallet password without a wallet.
    for (extra, says) in [
        (
            vec![
                "cdc.database.driver=thick",
                "cdc.database.wallet.location=/a b",
            ],
            "cdc.database.wallet.location",
        ),
        (
            vec!["cdc.database.wallet.password=x"],
            "cdc.database.wallet.password",
        ),
    ] {
        let mut pairs = wire.clone();
        pairs.extend(extra.iter().map(|s| s.to_string()));
        let o = cli(&pairs, &["-q", "plan-chunks"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("CDC-1002") && err.contains(says), "{err}");
    }
    // A tcps URL at a plain listener: the listener drops what is no TNS packet, as a closed
    // connection (retried; not here), and the message names the likely cause.
    let mut at_plain = trusted.clone();
    at_plain[0] = format!("cdc.database.url={}", w.serve.tcps_url("DEMO"));
    at_plain.push("cdc.database.connect.retries=0".into());
    // At once: the listener sees a TLS ClientHello and closes, instead of reading it as a TNS
    // packet's header and waiting out the 60 s login timeout for its body.
    let started = std::time::Instant::now();
    refused(
        &at_plain,
        "tcps to a plain port",
        "CDC-2010",
        "the listener's TCPS one",
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "the plain listener held a TLS client {:?}",
        started.elapsed()
    );
    // Plain TCP at the TLS port: the listener ends the connection at once (as Oracle's does),
    // which is a lost connection; not retried here.
    let mut plain = trusted.clone();
    plain[0] = format!("cdc.database.url={}", tls.url("DEMO"));
    plain.push("cdc.database.connect.retries=0".into());
    refused(&plain, "plain TCP to the TLS port", "CDC-2010", "ORA-03113");
    // The wallet's password is a secret: never printed.
    let printed = cli(
        &[
            trusted.clone(),
            vec!["cdc.database.wallet.password=w4llet-s3cret".into()],
        ]
        .concat(),
        &["--print-settings"],
    );
    let text = String::from_utf8_lossy(&printed.stdout).to_string();
    assert!(text.contains("cdc.database.wallet.password"), "{text}");
    assert!(!text.contains("w4llet-s3cret"), "{text}");
}

/// `emulator serve` refuses a certificate or key it cannot use, naming the file, before it
/// listens.
#[test]
fn emulator_serve_refuses_an_unusable_certificate_or_key() {
    let dir = tempfile::tempdir().unwrap();
    let db = init_in(&dir, &example());
    let serve = |cert: &str, key: &str| {
        Command::new(cargo_bin("oracle-cdc"))
            .args([
                "emulator",
                "serve",
                db.to_str().unwrap(),
                "--listen",
                "127.0.0.1:0",
            ])
            .args(["--tls-cert", cert, "--tls-key", key])
            .output()
            .unwrap()
    };
    let missing = dir.path().join("nope.pem").display().to_string();
    for (cert, key, says) in [
        (missing.clone(), tls_file("server.key"), "cannot read it"),
        // A CA certificate where the key goes.
        (
            tls_file("server.pem"),
            tls_file("ca.pem"),
            "no usable PRIVATE KEY",
        ),
        (
            tls_file("server.key"),
            tls_file("server.key"),
            "no CERTIFICATE",
        ),
    ] {
        let o = serve(&cert, &key);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(2), "{cert} {key}: {err}");
        assert!(err.contains(says), "{cert} {key}: {err}");
    }
    // One without the other is a usage error of the command line.
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "serve",
            db.to_str().unwrap(),
            "--tls-cert",
            &tls_file("server.pem"),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--tls-key"));
}

/// The README's main job in root mode over TCPS, with the wire's fault drills: capture's
/// LogMiner sessions, snapshot reads, breaks after call timeouts and reconnects after dropped
/// and killed sessions all go through TLS, stopped part-way and run again while the workload
/// runs; every change exactly once, every table converging.
#[test]
fn capture_over_tcps_rides_through_the_drills_and_converges() {
    let w = wired();
    let tls = Serve::start_tls(&w.db, super::faults::DRILLS);
    let wallet = format!("cdc.database.wallet.location={}", tls_file("wallet"));
    let mut root = pairs(
        &w,
        "DEMO",
        "C##CDC",
        "tcps",
        &[
            wallet.as_str(),
            "cdc.database.call.timeout.ms=1000",
            "cdc.database.connect.retries=40",
            "cdc.database.connect.backoff.ms=50",
            "cdc.database.connect.backoff.max.ms=500",
        ],
    );
    root[0] = format!("cdc.database.url={}", tls.tcps_url("DEMO"));
    let load = workload(
        &w.db,
        &["--transactions", "150", "--rate", "150", "--seed", "5"],
    );
    let mid = current_scn(&w.db);
    ok(
        cli(&root, &["-q", "capture", "--stop-at-scn", &mid.to_string()]),
        "capture over tcps during the workload",
    );
    finish(load);
    let end = current_scn(&w.db);
    ok(
        cli(&root, &["-q", "capture", "--stop-at-scn", &end.to_string()]),
        "capture over tcps",
    );
    // The drills were met: calls failed and were retried over new TLS connections.
    let retried = events(&w.dir.path().join("tcps-state"))
        .into_iter()
        .filter(|v| v["event"] == "source-retry" || v["event"] == "snapshot-chunk-retry")
        .count();
    assert!(
        retried > 0,
        "no retry counted: the drills did not reach capture"
    );
    let recs = records(&w.dir.path().join("tcps-out"));
    assert_exactly_once(&recs);
    let dlq = w.dir.path().join("tcps-state/dlq.jsonl");
    assert!(
        !dlq.exists(),
        "dead letters: {}",
        std::fs::read_to_string(&dlq).unwrap_or_default()
    );
    for t in [
        "PDB1.HR.EMPLOYEES",
        "PDB1.HR.AUDIT_LOG",
        "PDB1.BATCH.JOB_RUNS",
        "PDB2.SALES.ALL_TYPES",
    ] {
        assert_table_converges_without(&w.db, &recs, t, end, &["C_LONG"]);
    }
}

/// Mutual TLS (`emulator serve --tls-client-ca`): the thin driver with a wallet of CA
/// certificates has no client certificate to present, and the listener refuses it in the
/// handshake: CDC-2012 saying so, not a hang or a retried lost connection.
#[test]
fn a_listener_that_requires_client_certificates_refuses_a_wallet_without_one() {
    let w = wired();
    let tls = Serve::start_mtls(&w.db);
    let wallet = format!("cdc.database.wallet.location={}", tls_file("wallet"));
    let mut pairs = pairs(&w, "DEMO", "C##CDC", "mtls", &[wallet.as_str()]);
    pairs[0] = format!("cdc.database.url={}", tls.tcps_url("DEMO"));
    let o = cli(&pairs, &["-q", "plan-chunks"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("CDC-2012"), "{err}");
    // The server's alert, not a certificate of its own that the client refused.
    assert!(err.contains("CertificateRequired"), "{err}");
}

/// A keyless table the workload moves (ALTER TABLE … MOVE every ~200 ms) while `snapshot`
/// exports it over Oracle Net: the served database shows each move in DBA_OBJECTS and
/// DBA_EXTENTS as in process, the thin adapter's reads AS OF an SCN before it fail with
/// ORA-01466, and the export stops with CDC-8009 once chunks of the table were written.
/// Before, it finished, the ranges read after a move empty.
#[test]
fn an_export_over_the_wire_of_a_table_moved_under_it_stops_with_cdc_8009() {
    let dir = tempfile::tempdir().unwrap();
    let schema = example_plus(
        dir.path(),
        r#"
  - name: PDB1.APP.LOGS
    columns:
      - { name: AT, type: NUMBER(12) }
      - { name: MSG, type: VARCHAR2(30) }
    supplemental_logging: all
    rows: 600
"#,
    );
    let db = init_in(&dir, &schema);
    let serve = Serve::start(&db, &["--set", "cdc.emulator.fault.read.delay.ms=40"]);
    let w = Wired { dir, db, serve };
    let wire = pairs(
        &w,
        "PDB1",
        "C##CDC",
        "wire",
        &[
            "cdc.tables.include=PDB1.APP.LOGS",
            "cdc.snapshot.chunk.rows=20",
            "cdc.snapshot.threads=1",
        ],
    );
    let moves = workload(
        &w.db,
        &[
            "--tables",
            "PDB1.APP.LOGS",
            "--transactions",
            "400",
            "--rate",
            "100",
            "--move-every",
            "20",
            "--seed",
            "43",
        ],
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    let out = w.dir.path().join("snap-moved");
    let o = cli(&wire, &["-q", "snapshot", "--out", out.to_str().unwrap()]);
    finish(moves);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success(),
        "the export over the wire finished although the table moved under it: {err}"
    );
    assert!(
        err.contains("CDC-8009") && err.contains("PDB1.APP.LOGS"),
        "{err}"
    );
}

/// `emulator create STANDBY --standby-of DB --apply-lag-scn LAG`.
fn create_standby(db: &Path, standby: &Path, lag: &str) {
    run(&[
        "emulator",
        "create",
        standby.to_str().unwrap(),
        "--standby-of",
        db.to_str().unwrap(),
        "--apply-lag-scn",
        lag,
    ]);
}
