//! Capture on emulated container databases (CDBs), as a multitenant Oracle behaves: the
//! README's main job on `examples/emulator-schema.yaml` with its workload running; a common
//! user in CDB$ROOT capturing several PDBs while an uncaptured schema is busy; a local user in
//! one PDB (per-PDB mining, 19c+); and the errors Oracle gives where neither can work.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use serde_json::Value as Json;
use std::path::Path;
use std::process::{Command, Stdio};

fn settings_args(pairs: &[String]) -> Vec<String> {
    pairs
        .iter()
        .flat_map(|s| ["--set".to_string(), s.clone()])
        .collect()
}

/// `oracle-cdc [--set …] capture --stop-at-scn END`, expecting success.
fn capture_to(pairs: &[String], end: u64) -> std::process::Output {
    let mut args = settings_args(pairs);
    args.extend([
        "-q".into(),
        "capture".into(),
        "--stop-at-scn".into(),
        end.to_string(),
    ]);
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "capture {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// The README's "Run it": the example schema (PDB1 and PDB2), a workload running, capture with
/// the README's settings; at the end every table's latest records equal the table.
#[test]
fn the_readme_main_job_converges_on_the_example_schema() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo-db");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/emulator-schema.yaml");
    run(&[
        "emulator",
        "init",
        db.to_str().unwrap(),
        "--schema",
        example.to_str().unwrap(),
    ]);
    let w = workload(
        &db,
        &["--transactions", "400", "--rate", "200", "--seed", "3"],
    );
    let mut pairs: Vec<String> = readme_main_job_settings()
        .into_iter()
        .map(|p| p.replacen("demo-", &format!("{}/demo-", dir.path().display()), 1))
        .collect();
    pairs.push("cdc.stream.poll.ms=50".to_string());
    // While the workload runs, then to its end.
    capture_to(&pairs, current_scn(&db));
    finish(w);
    let end = current_scn(&db);
    capture_to(&pairs, end);
    let recs = records(&dir.path().join("demo-out"));
    assert_exactly_once(&recs);
    assert!(
        !dir.path().join("demo-state/dlq.jsonl").exists(),
        "dead letters: {}",
        std::fs::read_to_string(dir.path().join("demo-state/dlq.jsonl")).unwrap_or_default()
    );
    for table in ["PDB1.HR.EMPLOYEES", "PDB1.HR.AUDIT_LOG"] {
        assert_table_converges(&db, &recs, table, end);
    }
    // The LONG column is excluded (capture does not stream LONG): the rest converges.
    assert_table_converges_without(&db, &recs, "PDB2.SALES.ALL_TYPES", end, &["C_LONG"]);
    // The busy schema the README leaves out (issue 37 item 2) has no record, though the
    // workload wrote it three times for each of its own transactions.
    assert!(
        !recs.iter().any(|r| r["topic"]
            .as_str()
            .is_some_and(|t| t.contains("PDB1.BATCH."))),
        "PDB1.BATCH records published"
    );
}

/// The `--set` pairs of the README's main job, as written in the README (its first `sh` block
/// that makes `demo-db`), so the test runs the job the README gives, not a copy of it.
fn readme_main_job_settings() -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.contains("emulator init demo-db") && l.contains(" capture"))
        .expect("the README's main job line");
    let words: Vec<String> = line
        .split_whitespace()
        .map(|w| w.trim_matches('\'').to_string())
        .collect();
    let pairs: Vec<String> = words
        .windows(2)
        .filter(|w| w[0] == "--set")
        .map(|w| w[1].clone())
        .collect();
    assert!(
        pairs
            .iter()
            .any(|p| p == "cdc.database.url=emulator:demo-db"),
        "{line}"
    );
    pairs
}

/// Two PDBs with a captured schema each and, in PDB1, a busy schema capture leaves out.
const TWO_PDBS: &str = r#"
seed: 11
database:
  multitenant: true
  version: VERSION
  users:
    - { name: C##CDC, container_data: all }
    - { name: PDB2CDC, container: PDB2 }
    - { name: C##ROOTONLY }
    - name: C##PDB1ONLY
      container_data: all
      privileges: [CREATE SESSION, SELECT ANY TABLE, FLASHBACK ANY TABLE, SELECT_CATALOG_ROLE, EXECUTE_CATALOG_ROLE, LOGMINING]
      local_privileges: { CDB$ROOT: [SET CONTAINER], PDB1: [SET CONTAINER] }
tables:
  - name: PDB1.SHOP.ACCOUNTS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
    primary_key: [ID]
    supplemental_logging: all
    rows: 120
  - name: PDB2.SHOP.ACCOUNTS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
    primary_key: [ID]
    supplemental_logging: all
    rows: 80
  - name: PDB2.SHOP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 60
  - name: PDB1.BATCH.JOBS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: STATE, type: VARCHAR2(10) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 200
"#;

struct Cdb {
    dir: tempfile::TempDir,
    db: std::path::PathBuf,
}

impl Cdb {
    fn new(version: &str) -> Cdb {
        let Emulated { dir, db, .. } = emulated(&TWO_PDBS.replace("VERSION", version));
        Cdb { dir, db }
    }
    fn pairs(&self, extra: &[&str]) -> Vec<String> {
        let mut p = vec![
            format!("cdc.database.url=emulator:{}", self.db.display()),
            format!("cdc.sink.dir={}", self.dir.path().join("out").display()),
            format!("cdc.state.dir={}", self.dir.path().join("state").display()),
            "cdc.snapshot.chunk.rows=30".to_string(),
            "cdc.snapshot.threads=2".to_string(),
            "cdc.stream.poll.ms=50".to_string(),
        ];
        p.extend(extra.iter().map(|s| s.to_string()));
        p
    }
    fn records(&self) -> Vec<Json> {
        records(&self.dir.path().join("out"))
    }
}

/// Capture while `workload` runs (killed once mid-way), then to the end.
fn capture_during(cdb: &Cdb, pairs: &[String], seed: &str) -> u64 {
    let mut args = settings_args(pairs);
    args.extend(["-q".into(), "capture".into()]);
    let mut c = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let w = workload(
        &cdb.db,
        &[
            "--transactions",
            "300",
            "--rate",
            "150",
            "--long-every",
            "30",
            "--long-span",
            "40",
            "--seed",
            seed,
        ],
    );
    // Killed part-way through its snapshot or later, once it has saved its start, so the
    // last run goes on from it and streams the workload's changes (a fixed wait could end
    // before a loaded machine had started it).
    wait_for_event(&cdb.dir.path().join("state"), 60, "a snapshot chunk", |v| {
        v["event"] == "snapshot-chunk-done"
    });
    let _ = c.kill();
    let _ = c.wait();
    finish(w);
    let end = current_scn(&cdb.db);
    capture_to(pairs, end);
    end
}

/// Root mode: a common user in CDB$ROOT captures tables of two PDBs while the workload changes
/// every PDB and an uncaptured schema; each PDB's records converge to its tables.
#[test]
fn a_common_user_in_the_root_captures_several_pdbs() {
    let cdb = Cdb::new("19.22.0.0.0");
    let pairs = cdb.pairs(&["cdc.tables.include=PDB1.SHOP.*,PDB2.SHOP.*"]);
    let end = capture_during(&cdb, &pairs, "5");
    let recs = cdb.records();
    assert_exactly_once(&recs);
    let topics: std::collections::BTreeSet<&str> =
        recs.iter().filter_map(|r| r["topic"].as_str()).collect();
    assert!(
        topics.iter().all(|t| !t.contains("BATCH")),
        "the uncaptured schema leaked: {topics:?}"
    );
    for table in [
        "PDB1.SHOP.ACCOUNTS",
        "PDB2.SHOP.ACCOUNTS",
        "PDB2.SHOP.ORDERS",
    ] {
        assert_table_converges(&cdb.db, &recs, table, end);
    }
    // Both PDBs' changes streamed, not only their snapshots.
    for pdb in ["PDB1", "PDB2"] {
        assert!(
            recs.iter()
                .any(|r| r["value"]["payload"]["source"]["db"] == pdb
                    && r["value"]["payload"]["op"] != "r"),
            "no change records from {pdb}"
        );
    }
}

/// `emulator dump` of a table, as JSON lines: what an export of it holds.
fn dump(db: &Path, table: &str) -> String {
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "--set",
            &format!("cdc.database.url=emulator:{}", db.display()),
        ])
        .args(["emulator", "dump", "--table", table, "--format", "jsonl"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Root mode with a common user kept out of PDB2: SET CONTAINER granted inside CDB$ROOT and
/// PDB1 only, and Oracle lets a common user switch only into a container where it holds it,
/// commonly or there (Security Guide, "How the Oracle Multitenant Option Affects Privileges").
/// Capturing PDB1's tables never enters PDB2: the export equals the table and capture converges
/// while the workload changes both PDBs. A wildcard that reaches PDB2 as well leaves it out with
/// a warning that names it; a pattern naming PDB2 stops capture and the export with CDC-2401,
/// naming PDB2 and the grant. Before, every open PDB was entered and all of them failed.
#[test]
fn a_common_user_kept_out_of_one_pdb_captures_the_pdbs_it_may_enter() {
    let cdb = Cdb::new("19.22.0.0.0");
    let user = "cdc.database.user=C##PDB1ONLY";
    let named_pdb2 = "cdc.tables.include=PDB1.SHOP.*,PDB2.SHOP.ORDERS";
    let fresh = |name: &str| {
        let dir = cdb.dir.path().join(name);
        [
            format!("cdc.sink.dir={}", dir.join("out").display()),
            format!("cdc.state.dir={}", dir.join("state").display()),
        ]
    };
    let [sink, state] = fresh("named-pdb2");
    let e = capture_fails(&cdb.db, &cdb.pairs(&[user, named_pdb2, &sink, &state]));
    let refused = |e: &str| {
        assert!(e.starts_with("CDC-2401"), "{e}");
        for part in [
            "PDB PDB2 (cdc.tables.include names it)",
            "ALTER SESSION SET CONTAINER = PDB2",
            "ORA-01031",
            "GRANT SET CONTAINER TO",
        ] {
            assert!(e.contains(part), "{part}: {e}");
        }
    };
    refused(&e);
    let export = |include: &str, out: &Path| {
        let mut args = settings_args(&cdb.pairs(&[user, include]));
        args.extend(["snapshot", "--out", out.to_str().unwrap()].map(String::from));
        Command::new(cargo_bin("oracle-cdc"))
            .args(&args)
            .output()
            .unwrap()
    };
    let o = export(named_pdb2, &cdb.dir.path().join("export-named-pdb2"));
    assert!(!o.status.success());
    refused(&String::from_utf8_lossy(&o.stderr));

    for (include, wildcard) in [
        ("cdc.tables.include=PDB1.SHOP.*", false),
        ("cdc.tables.include=*.SHOP.*", true),
    ] {
        let out = cdb.dir.path().join(format!("export-{wildcard}"));
        let o = export(include, &out);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{include}: {err}");
        let mut exported: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .flatten()
            .map(|f| f.file_name().to_string_lossy().into_owned())
            .filter(|f| f.starts_with("PDB"))
            .collect();
        exported.sort();
        assert_eq!(exported, ["PDB1.SHOP.ACCOUNTS.jsonl"], "{include}");
        assert_eq!(
            std::fs::read_to_string(out.join("PDB1.SHOP.ACCOUNTS.jsonl")).unwrap(),
            dump(&cdb.db, "PDB1.SHOP.ACCOUNTS"),
            "{include}"
        );
        // Left out, and said so, only where a wildcard reached into PDB2.
        assert_eq!(
            err.contains("PDB PDB2 left out") && err.contains("ORA-01031"),
            wildcard,
            "{include}: {err}"
        );
    }

    let pairs = cdb.pairs(&[user, "cdc.tables.include=PDB1.SHOP.*"]);
    let end = capture_during(&cdb, &pairs, "7");
    let recs = cdb.records();
    assert_exactly_once(&recs);
    assert_table_converges(&cdb.db, &recs, "PDB1.SHOP.ACCOUNTS", end);
    assert!(
        recs.iter()
            .any(|r| r["value"]["payload"]["source"]["db"] == "PDB1"
                && r["value"]["payload"]["op"] != "r"),
        "no change records from PDB1"
    );
    assert!(
        recs.iter()
            .all(|r| r["value"]["payload"]["source"]["db"] != "PDB2"),
        "PDB2 leaked"
    );
}

/// Per-PDB mode (19c+): a user local to PDB2, on PDB2's service, captures PDB2 alone.
#[test]
fn a_local_user_captures_its_own_pdb_by_per_pdb_mining() {
    let cdb = Cdb::new("19.22.0.0.0");
    let url = format!(
        "cdc.database.url=emulator:{}?service=PDB2",
        cdb.db.display()
    );
    let pairs = cdb.pairs(&[&url, "cdc.database.user=pdb2cdc"]);
    let end = capture_during(&cdb, &pairs, "6");
    let recs = cdb.records();
    assert_exactly_once(&recs);
    // One PDB captured: Debezium's topics, `PREFIX.OWNER.TABLE`, the PDB in `source.db`.
    assert!(recs.iter().all(|r| r["topic"]
        .as_str()
        .is_some_and(|t| t.starts_with("oracle-cdc.SHOP."))));
    assert!(recs
        .iter()
        .filter(|r| is_change(r))
        .all(|r| r["value"]["payload"]["source"]["db"] == "PDB2"));
    for table in ["PDB2.SHOP.ACCOUNTS", "PDB2.SHOP.ORDERS"] {
        assert_table_converges(&cdb.db, &recs, table, end);
    }
}

/// Capture made to mine (changes committed after its snapshot), expected to fail; its stderr.
fn capture_fails(db: &Path, pairs: &[String]) -> String {
    let state = pairs
        .iter()
        .rev()
        .find_map(|p| p.strip_prefix("cdc.state.dir="))
        .expect("a state directory");
    let (code, err) = capture_mining_fails(&settings_args(pairs), db, Path::new(state), 120);
    assert_ne!(code, 0, "capture succeeded with {pairs:?}");
    err
}

/// What cannot work fails before anything is published, with the code doctor names.
#[test]
fn unreachable_containers_fail_with_their_codes() {
    // Before 19c a PDB cannot be mined from inside (ORA-65040).
    let old = Cdb::new("12.2.0.1.0");
    let url = format!(
        "cdc.database.url=emulator:{}?service=PDB2",
        old.db.display()
    );
    let e = capture_fails(&old.db, &old.pairs(&[&url, "cdc.database.user=PDB2CDC"]));
    assert!(e.contains("CDC-2302") && e.contains("ORA-65040"), "{e}");
    // A local user does not exist in the root; nor does anyone in another PDB's service.
    let cdb = Cdb::new("19.22.0.0.0");
    let e = capture_fails(&cdb.db, &cdb.pairs(&["cdc.database.user=PDB2CDC"]));
    assert!(e.contains("CDC-2002") && e.contains("ORA-01017"), "{e}");
    let url = format!(
        "cdc.database.url=emulator:{}?service=PDB7",
        cdb.db.display()
    );
    let e = capture_fails(&cdb.db, &cdb.pairs(&[&url]));
    assert!(e.contains("CDC-2004") && e.contains("ORA-12514"), "{e}");
    // A common user whose CONTAINER_DATA is Oracle's default (the root's rows only) sees no PDB
    // from the root: not "no table", but the ALTER USER that fixes it.
    let e = capture_fails(&cdb.db, &cdb.pairs(&["cdc.database.user=C##ROOTONLY"]));
    assert!(
        e.contains("CDC-2303") && e.contains("CONTAINER_DATA=ALL"),
        "{e}"
    );
}

/// A per-PDB session (a local user on PDB2's service) asked for PDB1's tables: CDC-2301, the
/// code doctor's `connection.multitenant` FAILs with and capture.md names, whose remedy (a
/// common user in the root, or include PDB2's tables only) fixes it; not CDC-8003 ("no table
/// to capture", check the patterns), as if the table did not exist. Also when PDB2's own
/// tables are named beside it, and for `snapshot --tables`.
#[test]
fn a_local_user_asked_for_another_pdbs_tables_fails_with_cdc_2301() {
    let cdb = Cdb::new("19.22.0.0.0");
    let url = format!(
        "cdc.database.url=emulator:{}?service=PDB2",
        cdb.db.display()
    );
    for include in [
        "cdc.tables.include=PDB1.SHOP.ACCOUNTS",
        "cdc.tables.include=PDB2.SHOP.*,PDB1.SHOP.ACCOUNTS",
    ] {
        let e = capture_fails(
            &cdb.db,
            &cdb.pairs(&[&url, "cdc.database.user=pdb2cdc", include]),
        );
        assert!(e.starts_with("CDC-2301"), "{include}: {e}");
        assert!(e.contains("PDB1") && e.contains("PDB2"), "{include}: {e}");
        assert!(
            !std::fs::read_dir(cdb.dir.path().join("out"))
                .map(|d| {
                    d.flatten().any(|f| {
                        f.path().extension().is_some_and(|x| x == "jsonl")
                            && f.metadata().is_ok_and(|m| m.len() > 0)
                    })
                })
                .unwrap_or(false),
            "{include}: nothing is published"
        );
    }
    // doctor says the same.
    let mut args = settings_args(&cdb.pairs(&[
        &url,
        "cdc.database.user=pdb2cdc",
        "cdc.tables.include=PDB1.SHOP.ACCOUNTS",
    ]));
    args.extend(["doctor", "--check", "connection.multitenant"].map(String::from));
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("CDC-2301"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // The export, named by --tables.
    let mut args = settings_args(&cdb.pairs(&[&url, "cdc.database.user=pdb2cdc"]));
    let out = cdb.dir.path().join("export");
    args.extend(
        [
            "-q",
            "snapshot",
            "--tables",
            "PDB1.SHOP.ACCOUNTS",
            "--out",
            out.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && e.starts_with("CDC-2301"), "{e}");
}

/// Per-PDB mode on 18c (issue 36 item 11): LogMiner cannot run inside a PDB before 19c, so
/// capture refuses at start with CDC-2302 (doctor's `connection.multitenant` FAIL) before its
/// snapshot: no record in the sink, no snapshot marked complete in the offsets, and a second
/// start says the same. Before, the snapshot was published and marked complete and every start
/// after it failed with ORA-65040. The same setup on 19c captures.
#[test]
fn per_pdb_capture_before_19c_is_refused_before_its_snapshot() {
    // Record lines in the sink's segments (the directory may not exist: nothing published).
    let published = |cdb: &Cdb| -> usize {
        std::fs::read_dir(cdb.dir.path().join("out"))
            .map(|d| {
                d.flatten()
                    .filter(|f| f.path().extension().is_some_and(|x| x == "jsonl"))
                    .map(|f| std::fs::read_to_string(f.path()).unwrap().lines().count())
                    .sum()
            })
            .unwrap_or(0)
    };
    let snapshot_completed = |cdb: &Cdb| {
        std::fs::read_to_string(cdb.dir.path().join("state/offsets.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Json>(&t).ok())
            .is_some_and(|o| o["snapshot"]["completed"] == true)
    };
    let capture = |cdb: &Cdb| {
        let url = format!(
            "cdc.database.url=emulator:{}?service=PDB2",
            cdb.db.display()
        );
        let mut args = settings_args(&cdb.pairs(&[&url, "cdc.database.user=PDB2CDC"]));
        args.extend([
            "-q".into(),
            "capture".into(),
            "--stop-at-scn".into(),
            current_scn(&cdb.db).to_string(),
        ]);
        Command::new(cargo_bin("oracle-cdc"))
            .args(&args)
            .output()
            .unwrap()
    };
    let old = Cdb::new("18.3.0.0.0");
    for start in ["first", "second"] {
        let o = capture(&old);
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{start} start succeeded: {e}");
        assert!(e.starts_with("CDC-2302"), "{start} start: {e}");
        assert!(e.contains("PDB2") && e.contains("CDB$ROOT"), "{e}");
        assert_eq!(published(&old), 0, "{start} start published records");
        assert!(
            !snapshot_completed(&old),
            "{start} start: snapshot marked complete"
        );
    }
    let new = Cdb::new("19.22.0.0.0");
    let o = capture(&new);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(published(&new), 80 + 60, "PDB2's snapshot");
    assert!(snapshot_completed(&new));
}
