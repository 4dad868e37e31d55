//! Doctor against emulated databases: a healthy one reports all PASS; each misconfiguration,
//! made one at a time, reports exactly its check ids with their severities and fixes.
//! `tests_all.rs` makes them all at once.

use super::*;
use crate::offsets::{DatabaseIdentity, Offsets, StreamPosition};
use cdc_core::session::Connector;
use std::path::{Path, PathBuf};

/// A healthy database: keyed tables, ALL COLUMNS logging, every grant, ARCHIVELOG.
pub(super) const HEALTHY_DB: &str = "  name: GOOD\n";
pub(super) const HEALTHY_TABLES: &str = r#"
  - name: HR.EMP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
      - { name: HIRED, type: DATE }
    primary_key: [ID]
    supplemental_logging: all
    rows: 40
  - name: HR.DEPT
    columns:
      - { name: CODE, type: VARCHAR2(8), nullable: false }
      - { name: TITLE, type: VARCHAR2(40) }
    primary_key: [CODE]
    supplemental_logging: all
    rows: 5
"#;

pub(super) struct Db {
    pub dir: tempfile::TempDir,
}

impl Db {
    /// `database:` lines (indented two spaces) and `tables:` entries.
    pub fn new(database: &str, tables: &str) -> Db {
        let dir = tempfile::tempdir().unwrap();
        let schema = format!("seed: 3\ndatabase:\n{database}tables:{tables}");
        let path = dir.path().join("schema.yaml");
        std::fs::write(&path, &schema).unwrap();
        crate::source::emulator::init(
            &dir.path().join("db"),
            &path,
            None,
            crate::source::emulator::clock::system(),
        )
        .unwrap_or_else(|e| panic!("{e}\n{schema}"));
        Db { dir }
    }

    pub fn healthy() -> Db {
        Db::new(HEALTHY_DB, HEALTHY_TABLES)
    }

    pub fn path(&self) -> PathBuf {
        self.dir.path().join("db")
    }

    pub fn state(&self) -> PathBuf {
        self.dir.path().join("state")
    }

    pub fn settings(&self, extra: &[&str]) -> Settings {
        let mut pairs = vec![
            format!("cdc.database.url=emulator:{}", self.path().display()),
            format!("cdc.state.dir={}", self.state().display()),
        ];
        pairs.extend(extra.iter().map(|s| s.to_string()));
        Settings::from_pairs(&pairs).unwrap_or_else(|e| panic!("{e}"))
    }

    pub fn report(&self, extra: &[&str]) -> Report {
        run(&self.settings(extra), &Selection::default())
    }

    /// Store offsets whose stream resumes at `resume_scn`, for this database (or another DBID).
    pub fn store_stream_position(&self, resume_scn: u64, other_dbid: bool) {
        let c = crate::source::emulator::EmulatorConnector::open(
            &self.path(),
            crate::source::emulator::Faults::default(),
        )
        .unwrap();
        let db = c.connect().unwrap().database().unwrap();
        let mut identity = DatabaseIdentity::of(&db);
        if other_dbid {
            identity.dbid += 1;
        }
        let mut o = Offsets::new(identity);
        o.stream = Some(StreamPosition {
            resume_scn,
            commit_scn: resume_scn,
            commit_xids: vec![],
            threads: Default::default(),
        });
        std::fs::create_dir_all(self.state()).unwrap();
        o.save(&self.state().join(crate::state::OFFSETS_FILE))
            .unwrap();
    }
}

/// Every result that is not PASS, as (id, severity).
pub(super) fn problems(r: &Report) -> Vec<(&'static str, Severity)> {
    r.results
        .iter()
        .filter(|c| c.severity != Severity::Pass)
        .map(|c| (c.id, c.severity))
        .collect()
}

pub(super) fn get<'a>(r: &'a Report, id: &str) -> &'a CheckResult {
    r.result(id)
        .unwrap_or_else(|| panic!("no result for {id}: {:#?}", r.results))
}

pub(super) fn fix<'a>(r: &'a Report, id: &str) -> &'a str {
    get(r, id).fix.as_deref().unwrap_or_default()
}

fn with_table(extra: &str) -> String {
    format!("{HEALTHY_TABLES}{extra}")
}

#[test]
fn every_check_id_is_unique_and_named_by_its_area() {
    let mut seen = std::collections::BTreeSet::new();
    for c in CHECKS {
        assert!(seen.insert(c.id), "duplicate {}", c.id);
        assert!(c.id.starts_with(&format!("{}.", c.area.name())), "{}", c.id);
        assert!(!c.title.is_empty() && !c.why.is_empty());
    }
    let s = Selection {
        only: vec!["redo".into(), "tables.lob".into()],
        skip: vec!["redo.log-size".into()],
    };
    let chosen: Vec<&str> = CHECKS.iter().filter(|c| s.wants(c)).map(|c| c.id).collect();
    assert!(chosen.contains(&"redo.archivelog") && chosen.contains(&"tables.lob"));
    assert!(!chosen.contains(&"redo.log-size") && !chosen.contains(&"tables.keys"));
    let bad = Selection {
        only: vec!["redo.nope".into()],
        skip: vec![],
    };
    assert_eq!(bad.unknown(), vec!["redo.nope".to_string()]);
}

#[test]
fn a_healthy_database_reports_all_pass() {
    let db = Db::healthy();
    let r = db.report(&[]);
    assert_eq!(r.results.len(), CHECKS.len());
    assert_eq!(problems(&r), vec![], "{:#?}", r.results);
    assert_eq!(r.exit_code(true), 0);
    assert!(r.results.iter().all(|c| c.fix.is_none()));
    assert_eq!(
        get(&r, "tables.selection").found,
        "2 of 2 tables captured: HR.DEPT, HR.EMP"
    );
    assert!(get(&r, "privileges.multitenant")
        .found
        .contains("not a container database"));
    // A healthy container database too.
    let cdb = Db::new(
        "  multitenant: true\n",
        &HEALTHY_TABLES.replace("HR.", "PDB1.HR."),
    );
    let r = cdb.report(&[]);
    assert_eq!(problems(&r), vec![], "{:#?}", r.results);
    assert_eq!(
        get(&r, "connection.multitenant").found,
        "root mode: connected to CDB$ROOT, mining there; each PDB's catalog and reads after ALTER SESSION SET CONTAINER; open PDBs: PDB1"
    );
}

/// A CDB with two PDBs (PDB3 mounted) for the multitenant mode checks.
fn two_pdbs(version: &str) -> Db {
    Db::new(
        &format!("  multitenant: true\n  version: {version}\n  pdbs: [{{ name: PDB3, open_mode: mounted }}]\n"),
        &format!(
            "{}{}",
            HEALTHY_TABLES.replace("HR.", "PDB1.HR."),
            HEALTHY_TABLES.replace("HR.", "PDB2.HR.")
        ),
    )
}

/// A PDB open RESTRICTED that the settings do not capture: doctor lists it as such among the
/// open PDBs, and, as capture, reads the captured PDB's catalog without entering it.
#[test]
fn doctor_lists_a_restricted_pdb_and_leaves_it_alone_when_not_captured() {
    let db = Db::new(
        "  multitenant: true\n  pdbs: [{ name: PDB2, restricted: true }]\n",
        &format!(
            "{}{}",
            HEALTHY_TABLES.replace("HR.", "PDB1.HR."),
            HEALTHY_TABLES.replace("HR.", "PDB2.HR.")
        ),
    );
    let r = db.report(&["cdc.tables.include=PDB1.HR.*"]);
    assert_eq!(problems(&r), vec![], "{:#?}", r.results);
    assert!(
        get(&r, "connection.multitenant")
            .found
            .ends_with("open PDBs: PDB1, PDB2 (RESTRICTED)"),
        "{}",
        get(&r, "connection.multitenant").found
    );
    assert_eq!(
        get(&r, "tables.selection").found,
        "2 of 2 tables captured: PDB1.HR.DEPT, PDB1.HR.EMP"
    );
}

#[test]
fn doctor_names_the_multitenant_mode_and_what_it_cannot_reach() {
    let db = two_pdbs("19.22.0.0.0");
    // Root mode, a PDB named that is not open.
    let r = db.report(&["cdc.tables.include=PDB1.HR.*,PDB3.HR.*"]);
    assert_eq!(
        problems(&r),
        vec![("connection.multitenant", Severity::Fail)]
    );
    let m = get(&r, "connection.multitenant");
    assert!(m.found.starts_with("root mode"), "{}", m.found);
    assert!(
        m.found.contains("PDB3") && m.found.contains("CDC-2301"),
        "{}",
        m.found
    );
    // Per-PDB mode on 19c: the PDB's own tables only, no SET CONTAINER needed.
    let url = format!(
        "cdc.database.url=emulator:{}?service=PDB2",
        db.path().display()
    );
    let r = db.report(&[&url]);
    // The implicit user is no GoldenGate administrator, which per-PDB mining asks for.
    assert_eq!(
        problems(&r),
        vec![("privileges.logmining", Severity::Warn)],
        "{:#?}",
        r.results
    );
    assert!(get(&r, "connection.multitenant")
        .found
        .starts_with("per-PDB mode: connected to PDB PDB2"));
    assert!(get(&r, "privileges.multitenant")
        .found
        .contains("per-PDB mode"));
    assert_eq!(
        get(&r, "tables.selection").found,
        "2 of 2 tables captured: PDB2.HR.DEPT, PDB2.HR.EMP"
    );
    // A dictionary from the redo inside a PDB is not documented: a WARN pointing to the
    // online catalog or root mode.
    let r = db.report(&[&url, "cdc.mining.dictionary=redo_logs"]);
    let m = get(&r, "connection.multitenant");
    assert_eq!(m.severity, Severity::Warn, "{}", m.found);
    assert!(m.found.contains("not documented"), "{}", m.found);
    assert!(m
        .fix
        .as_deref()
        .is_some_and(|f| f.starts_with("cdc.mining.dictionary: online_catalog")));
    // …and naming another PDB's tables fails.
    let r = db.report(&[&url, "cdc.tables.include=PDB1.HR.*,PDB2.HR.*"]);
    let m = get(&r, "connection.multitenant");
    assert_eq!(m.severity, Severity::Fail);
    assert!(
        m.found.contains("PDB1") && m.found.contains("CDC-2301"),
        "{}",
        m.found
    );
    // Before 19c a PDB cannot be mined from inside.
    let old = two_pdbs("12.2.0.1.0");
    let url = format!(
        "cdc.database.url=emulator:{}?service=PDB1",
        old.path().display()
    );
    let r = old.report(&[&url]);
    let m = get(&r, "connection.multitenant");
    assert_eq!(m.severity, Severity::Fail, "{}", m.found);
    assert!(m.found.contains("CDC-2302"), "{}", m.found);
    assert!(old
        .report(&[&url, "cdc.snapshot.mode=snapshot_only"])
        .result("connection.multitenant")
        .is_some_and(|c| c.severity == Severity::Pass));
}

#[test]
fn noarchivelog_fails_and_leaves_only_the_online_logs() {
    let db = Db::new("  archivelog: false\n  log_size: 12\n", HEALTHY_TABLES);
    let r = db.report(&[]);
    assert_eq!(
        problems(&r),
        vec![
            ("redo.archivelog", Severity::Fail),
            ("redo.archive-dest", Severity::Skip)
        ]
    );
    assert_eq!(
        fix(&r, "redo.archivelog"),
        "-- as SYSDBA (SQL*Plus); the database restarts\nSHUTDOWN IMMEDIATE\nSTARTUP MOUNT\nALTER DATABASE ARCHIVELOG;\nALTER DATABASE OPEN;"
    );
    assert_eq!(r.exit_code(false), 1);
    // Without archiving, only the three online groups are left, none archived.
    let c =
        crate::source::emulator::EmulatorConnector::open(&db.path(), Default::default()).unwrap();
    let logs = c.connect().unwrap().logs().unwrap();
    assert_eq!(logs.len(), 3, "{logs:?}");
    assert!(logs
        .iter()
        .all(|l| !l.archived && l.name.starts_with("/u01/oradata/")));
    // snapshot_only does not need it.
    let r = db.report(&["cdc.snapshot.mode=snapshot_only"]);
    assert_eq!(problems(&r), vec![]);
    assert!(get(&r, "redo.archivelog")
        .found
        .starts_with("NOARCHIVELOG (not needed"));
}

#[test]
fn missing_minimal_supplemental_logging_fails() {
    let db = Db::new("  supplemental_logging: { min: false }\n", HEALTHY_TABLES);
    let r = db.report(&[]);
    assert_eq!(
        problems(&r),
        vec![("supplemental.database", Severity::Fail)]
    );
    assert_eq!(
        fix(&r, "supplemental.database"),
        "ALTER DATABASE ADD SUPPLEMENTAL LOG DATA;"
    );
    // The code capture stops with (stream::decode, CDC-3202).
    assert_eq!(
        get(&r, "supplemental.database").found,
        "minimal supplemental logging is off: capture stops with CDC-3202 at the first change"
    );
}

#[test]
fn a_table_without_all_columns_logging_fails_unless_the_database_logs_all() {
    let tables = HEALTHY_TABLES.replacen(
        "    primary_key: [CODE]\n    supplemental_logging: all",
        "    primary_key: [CODE]\n    supplemental_logging: primary_key",
        1,
    );
    let db = Db::new(HEALTHY_DB, &tables);
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![("supplemental.table", Severity::Fail)]);
    assert_eq!(
        get(&r, "supplemental.table").found,
        "1 of 2 captured tables have no ALL COLUMNS logging (capture stops with CDC-3201 at an UPDATE that leaves a column out): HR.DEPT"
    );
    assert_eq!(
        fix(&r, "supplemental.table"),
        "ALTER TABLE \"HR\".\"DEPT\" ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;\n-- or for every table at once: ALTER DATABASE ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;"
    );
    let db = Db::new(
        "  supplemental_logging: { min: true, all: true }\n",
        &tables,
    );
    assert_eq!(problems(&db.report(&[])), vec![]);
}

#[test]
fn missing_grants_are_named_per_feature_and_only_when_needed() {
    let db = Db::new(
        "  privileges: [CREATE SESSION, FLASHBACK ANY TABLE, SELECT ANY TABLE, SELECT_CATALOG_ROLE]\n",
        HEALTHY_TABLES,
    );
    let r = db.report(&["cdc.database.user=C##CDC"]);
    assert_eq!(problems(&r), vec![("privileges.logmining", Severity::Fail)]);
    let l = get(&r, "privileges.logmining");
    assert_eq!(l.found, "missing: LOGMINING, EXECUTE on DBMS_LOGMNR");
    assert_eq!(
        l.fix.as_deref(),
        Some("GRANT LOGMINING TO C##CDC;\nGRANT EXECUTE ON SYS.DBMS_LOGMNR TO C##CDC;")
    );
    // With a dictionary from the redo built at log switches, DBMS_LOGMNR_D too (and not
    // when nothing may be written).
    let r = db.report(&[
        "cdc.database.user=C##CDC",
        "cdc.mining.dictionary=redo_logs",
    ]);
    let l = get(&r, "privileges.logmining");
    assert_eq!(
        l.found,
        "missing: LOGMINING, EXECUTE on DBMS_LOGMNR, EXECUTE on DBMS_LOGMNR_D"
    );
    assert!(l
        .fix
        .as_deref()
        .is_some_and(|f| f.ends_with("GRANT EXECUTE ON SYS.DBMS_LOGMNR_D TO C##CDC;")));
    let r = db.report(&[
        "cdc.database.user=C##CDC",
        "cdc.mining.dictionary=redo_logs",
        "cdc.database.read.only=true",
    ]);
    assert_eq!(
        get(&r, "privileges.logmining").found,
        "missing: LOGMINING, EXECUTE on DBMS_LOGMNR"
    );
    let r = db.report(&["cdc.database.user=C##CDC"]);
    assert!(get(&r, "privileges.catalog")
        .found
        .contains("(via SELECT_CATALOG_ROLE)"));
    // A snapshot_only capture needs no LogMiner grant.
    let r = db.report(&["cdc.snapshot.mode=snapshot_only"]);
    assert_eq!(problems(&r), vec![]);
    assert_eq!(
        get(&r, "privileges.logmining").found,
        "not needed: cdc.snapshot.mode=snapshot_only does not stream"
    );

    // Snapshots without FLASHBACK: per-table grants; streaming alone does not need them.
    let db = Db::new(
        "  privileges: [CREATE SESSION, SELECT ANY TABLE, SELECT_CATALOG_ROLE, EXECUTE_CATALOG_ROLE, LOGMINING]\n",
        HEALTHY_TABLES,
    );
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![("privileges.snapshot", Severity::Fail)]);
    assert_eq!(
        get(&r, "privileges.snapshot").found,
        "missing: FLASHBACK on HR.DEPT, FLASHBACK on HR.EMP"
    );
    assert_eq!(
        fix(&r, "privileges.snapshot"),
        "GRANT FLASHBACK ON \"HR\".\"DEPT\" TO CDC;\nGRANT FLASHBACK ON \"HR\".\"EMP\" TO CDC;"
    );
    assert_eq!(problems(&db.report(&["cdc.snapshot.mode=none"])), vec![]);
}

#[test]
fn small_undo_retention_warns_with_the_safe_chunk_size_and_fails_below_the_smallest_chunk() {
    let db = Db::new("  undo_retention: 10\n", HEALTHY_TABLES);
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![("undo.retention", Severity::Warn)]);
    let u = get(&r, "undo.retention");
    assert!(
        u.found.contains("chunks of up to 50000 rows are safe"),
        "{}",
        u.found
    );
    assert_eq!(
        u.fix.as_deref(),
        Some("cdc.snapshot.chunk.rows: 50000\n-- or keep the chunk size and raise the retention:\nALTER SYSTEM SET UNDO_RETENTION = 20 SCOPE=BOTH;\nALTER TABLESPACE UNDOTBS1 RETENTION GUARANTEE;  -- optional: makes UNDO_RETENTION a promise (DML fails instead when undo is full)")
    );
    assert_eq!(
        problems(&db.report(&["cdc.snapshot.chunk.rows=50000"])),
        vec![]
    );
    // At 100 rows/s even a 1,000-row chunk outlasts half of 10 s.
    let r = db.report(&["cdc.doctor.read.rate=100"]);
    assert_eq!(problems(&r), vec![("undo.retention", Severity::Fail)]);
    assert!(
        fix(&r, "undo.retention").starts_with("ALTER SYSTEM SET UNDO_RETENTION = 20 SCOPE=BOTH;")
    );
    // With RETENTION GUARANTEE all of it counts.
    let db = Db::new(
        "  undo_retention: 10\n  undo_guarantee: true\n",
        HEALTHY_TABLES,
    );
    assert!(get(&db.report(&[]), "undo.retention")
        .found
        .contains("chunks of up to 100000 rows are safe"));
}

#[test]
fn the_character_sets_are_reported_and_an_undecoded_one_warns() {
    let r = Db::healthy().report(&[]);
    assert_eq!(
        get(&r, "connection.character-sets").found,
        "NLS_CHARACTERSET AL32UTF8, NLS_NCHAR_CHARACTERSET AL16UTF16"
    );
    let db = Db::new(
        "  character_set: WE8MSWIN1252\n  national_character_set: UTF8\n",
        HEALTHY_TABLES,
    );
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![]);
    let found = &get(&r, "connection.character-sets").found;
    assert!(
        found.starts_with(
            "NLS_CHARACTERSET WE8MSWIN1252, NLS_NCHAR_CHARACTERSET UTF8: a single-byte set"
        ),
        "{found}"
    );
    // A set capture does not decode (no emulator is one): WARN, naming it.
    let mut f = facts::Facts::gather(&db.settings(&[]));
    if let Ok(c) = f.config.as_mut() {
        c.character_set = Some("JA16SJIS".into());
    }
    let w = super::connection::character_sets(&f);
    assert_eq!(w.severity, Severity::Warn);
    assert!(w.found.contains("does not decode JA16SJIS"), "{}", w.found);
    // Not read: SKIP, the defaults assumed.
    if let Ok(c) = f.config.as_mut() {
        c.character_set = None;
    }
    let s = super::connection::character_sets(&f);
    assert_eq!(s.severity, Severity::Skip);
}

/// Root mode on an AL32UTF8 CDB holding a WE8MSWIN1252 PDB: the finding names the PDB's own
/// set, read inside it (the root's alone would hide it).
#[test]
fn a_captured_pdbs_own_character_set_is_reported() {
    let db = Db::new(
        "  multitenant: true\n  pdbs: [{ name: PDB2, character_set: WE8MSWIN1252 }]\n",
        &format!(
            "{}{}",
            HEALTHY_TABLES.replace("HR.", "PDB1.HR."),
            HEALTHY_TABLES.replace("HR.", "PDB2.HR.")
        ),
    );
    let r = db.report(&[]);
    let c = get(&r, "connection.character-sets");
    assert_eq!(c.severity, Severity::Pass);
    assert!(
        c.found.starts_with(
            "NLS_CHARACTERSET AL32UTF8, NLS_NCHAR_CHARACTERSET AL16UTF16 in CDB$ROOT; PDB2's NLS_CHARACTERSET WE8MSWIN1252 (a PDB's rows are decoded in its own set): a single-byte set"
        ),
        "{}",
        c.found
    );
    // Capturing PDB1 alone: nothing to say about PDB2.
    let r = db.report(&["cdc.tables.include=PDB1.HR.*"]);
    assert_eq!(
        get(&r, "connection.character-sets").found,
        "NLS_CHARACTERSET AL32UTF8, NLS_NCHAR_CHARACTERSET AL16UTF16"
    );
}

#[test]
fn a_standby_warns_that_capture_runs_read_only() {
    let db = Db::new(
        "  role: physical_standby\n  open_mode: read_only_with_apply\n",
        HEALTHY_TABLES,
    );
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![("connection.role", Severity::Warn)]);
    let found = &get(&r, "connection.role").found;
    assert!(
        found.starts_with("PHYSICAL STANDBY, READ ONLY WITH APPLY: capture will run read-only; nothing is written to this database; the stream mines the archived logs only, so a change is published after the primary's next log switch: "),
        "{found}"
    );
    // How often the logs switch, as V$LOG_HISTORY has it.
    assert!(
        found.contains("switched logs") || found.ends_with("no log switch in the last 24 hours"),
        "{found}"
    );
    assert!(
        fix(&r, "connection.role").contains("ARCHIVE_LAG_TARGET"),
        "{}",
        fix(&r, "connection.role")
    );
    assert_eq!(r.exit_code(false), 0);
    assert_eq!(r.exit_code(true), 1);
}

#[test]
fn a_keyless_table_with_row_movement_warns_and_names_the_safer_key() {
    let log = r#"
  - name: HR.LOG
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: MSG, type: VARCHAR2(40) }
    row_movement: true
    supplemental_logging: all
    rows: 5
"#;
    let db = Db::new(HEALTHY_DB, &with_table(log));
    let r = db.report(&[]);
    assert_eq!(
        problems(&r),
        vec![
            ("tables.keys", Severity::Warn),
            ("tables.row-movement-rowid", Severity::Warn)
        ]
    );
    assert_eq!(
        get(&r, "tables.row-movement-rowid").found,
        "HR.LOG: ROW MOVEMENT ENABLED and read by ROWID ranges (ROWID ranges: it has no primary key)"
    );
    assert_eq!(
        fix(&r, "tables.row-movement-rowid"),
        "ALTER TABLE \"HR\".\"LOG\" DISABLE ROW MOVEMENT;  -- or add a NOT NULL unique key and name its columns in cdc.key.HR.LOG"
    );
    assert_eq!(
        get(&r, "privileges.rowid-chunking").found,
        "SELECT on DBA_EXTENTS, DBA_TABLESPACES"
    );
    // With a NOT NULL unique key, that key is the fix.
    let db = Db::new(
        HEALTHY_DB,
        &with_table(&log.replace(
            "    row_movement: true",
            "    unique_keys: [[ID]]\n    row_movement: true",
        )),
    );
    let r = db.report(&[]);
    assert_eq!(
        fix(&r, "tables.row-movement-rowid"),
        "cdc.key.HR.LOG: ID  # unique key LOG_UK1, a safer key than ROWIDs"
    );
    // Following the fix clears both.
    assert_eq!(problems(&db.report(&["cdc.key.HR.LOG=ID"])), vec![]);
    // cdc.key.missing=fail turns the keyless table into a FAIL.
    let r = db.report(&["cdc.key.missing=fail"]);
    assert_eq!(problems(&r), vec![("tables.keys", Severity::Fail)]);
}

#[test]
fn a_chosen_key_that_is_not_unique_fails_tables_keys() {
    // The issue's case: REGION has 2 values in 2,005 rows.
    let movers = r#"
  - name: APP.MOVERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: REGION, type: VARCHAR2(8), nullable: false, generate: { choice: [EAST, WEST] } }
      - { name: CODE, type: VARCHAR2(12), nullable: false }
      - { name: TAG, type: NUMBER(10), nullable: false, generate: sequence }
    primary_key: [ID]
    unique_indexes: [[CODE]]
    supplemental_logging: all
    rows: 2005
"#;
    let db = Db::new(HEALTHY_DB, &with_table(movers));
    let r = db.report(&["cdc.key.APP.MOVERS=REGION"]);
    assert_eq!(problems(&r), vec![("tables.keys", Severity::Fail)]);
    let found = &get(&r, "tables.keys").found;
    assert!(
        found.contains("CDC-8006") && found.contains("APP.MOVERS"),
        "{found}"
    );
    assert!(
        fix(&r, "tables.keys").contains("unique index MOVERS_UX1 (CODE)"),
        "{}",
        fix(&r, "tables.keys")
    );
    // A unique index backs CODE (no constraint does).
    assert_eq!(problems(&db.report(&["cdc.key.APP.MOVERS=CODE"])), vec![]);
    // On the operator's word, a sample still finds REGION's duplicates.
    let r = db.report(&["cdc.key.APP.MOVERS=REGION", "cdc.key.unchecked=APP.MOVERS"]);
    assert_eq!(problems(&r), vec![("tables.keys", Severity::Fail)]);
    let found = &get(&r, "tables.keys").found;
    assert!(found.contains("rows share the key REGION=EAST"), "{found}");
    // TAG is unique in fact (a sequence): the sample finds nothing.
    let r = db.report(&["cdc.key.APP.MOVERS=TAG", "cdc.key.unchecked=APP.MOVERS"]);
    assert_eq!(problems(&r), vec![]);
}

#[test]
fn an_index_organised_table_without_usable_key_warns_of_one_chunk() {
    let iot = r#"
  - name: HR.IOT
    columns:
      - { name: AT, type: TIMESTAMP(6) WITH TIME ZONE, nullable: false }
      - { name: V, type: NUMBER(5) }
    primary_key: [AT]
    organization: index_organized
    supplemental_logging: all
    rows: 3
"#;
    let db = Db::new(HEALTHY_DB, &with_table(iot));
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![("tables.iot-key", Severity::Warn)]);
    let c = get(&r, "tables.iot-key");
    assert_eq!(
        c.found,
        "HR.IOT: single chunk: key column AT has type TIMESTAMP(6) WITH TIME ZONE, which cannot bound chunks and an index-organised table has no ROWID ranges — one read of 3 rows"
    );
    assert!(c
        .fix
        .as_deref()
        .unwrap_or_default()
        .starts_with("cdc.key.HR.IOT: COL1,COL2"));
}

#[test]
fn an_unsupported_column_type_fails_with_the_exclusion_that_fixes_it() {
    let map = r#"
  - name: HR.MAP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: SHAPE, type: MDSYS.SDO_GEOMETRY }
    primary_key: [ID]
    supplemental_logging: all
    rows: 2
"#;
    let db = Db::new(HEALTHY_DB, &with_table(map));
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![("tables.column-types", Severity::Fail)]);
    assert_eq!(
        get(&r, "tables.column-types").found,
        "HR.MAP.SHAPE is MDSYS.SDO_GEOMETRY: no record mapping, the snapshot stops (CDC-3001)\n\
         stream: VARCHAR2, NUMBER, DATE; snapshot only: none; refused: MDSYS.SDO_GEOMETRY (commands/types.md)"
    );
    assert_eq!(
        fix(&r, "tables.column-types"),
        "cdc.columns.exclude: [HR.MAP.SHAPE]  # or cdc.on.decode.error: dlq to skip the tables"
    );
    assert_eq!(
        problems(&db.report(&["cdc.columns.exclude=HR.MAP.SHAPE"])),
        vec![]
    );
    let r = db.report(&["cdc.on.decode.error=dlq"]);
    assert_eq!(problems(&r), vec![("tables.column-types", Severity::Warn)]);
}

#[test]
fn include_patterns_matching_nothing_fail() {
    let db = Db::healthy();
    let r = db.report(&["cdc.tables.include=SALES.*"]);
    assert_eq!(problems(&r), vec![("tables.selection", Severity::Fail)]);
    let c = get(&r, "tables.selection");
    assert_eq!(
        c.found,
        "CDC-8003: no table to capture: cdc.tables.include [SALES.*] matches none of the database's 2 tables"
    );
    assert_eq!(
        c.fix.as_deref(),
        Some("cdc.tables.include: [HR.*]  # patterns of tables that exist; owners here: HR")
    );
}

#[test]
fn retained_logs_newer_than_the_stored_resume_scn_fail() {
    let db = Db::new("  log_size: 12\n  archived_logs_kept: 1\n", HEALTHY_TABLES);
    db.store_stream_position(1_000_001, false);
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![("redo.retention", Severity::Fail)]);
    let c = get(&r, "redo.retention");
    assert!(
        c.found.starts_with(
            "the stream resumes at SCN 1000001, but the oldest retained log starts at SCN"
        ),
        "{}",
        c.found
    );
    assert_eq!(
        c.fix.as_deref(),
        Some(format!(
            "-- in RMAN (rman target /), before capture starts: restore the archived logs from backup\nRESTORE ARCHIVELOG FROM SCN 1000001;\nor start over with a new snapshot: move {} away",
            db.state().display()
        )
        .as_str())
    );
    // A resume position the logs still cover passes.
    let newest = {
        let c = crate::source::emulator::EmulatorConnector::open(&db.path(), Default::default())
            .unwrap();
        let logs = c.connect().unwrap().logs().unwrap();
        logs.iter().map(|l| l.first_scn).min().unwrap()
    };
    db.store_stream_position(newest, false);
    assert_eq!(problems(&db.report(&[])), vec![]);
    // Offsets of another database are refused.
    db.store_stream_position(newest, true);
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![("redo.retention", Severity::Fail)]);
    assert!(get(&r, "redo.retention").found.starts_with("CDC-7001"));
}

#[test]
fn names_over_30_bytes_fail_when_streaming() {
    let long = r#"
  - name: HR.A_TABLE_NAME_THAT_IS_LONGER_THAN_30
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
    primary_key: [ID]
    supplemental_logging: all
    rows: 1
"#;
    let db = Db::new("  compatible: 19.0.0\n", &with_table(long));
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![("tables.name-length", Severity::Fail)]);
    assert_eq!(
        get(&r, "tables.name-length").found,
        "HR.A_TABLE_NAME_THAT_IS_LONGER_THAN_30: table name is 35 bytes"
    );
    assert_eq!(
        fix(&r, "tables.name-length"),
        "ALTER TABLE \"HR\".\"A_TABLE_NAME_THAT_IS_LONGER_THAN_30\" RENAME TO <name of at most 30 bytes>;"
    );
    assert_eq!(
        problems(&db.report(&["cdc.snapshot.mode=snapshot_only"])),
        vec![]
    );
}

#[test]
fn redo_layout_problems_warn_or_fail() {
    let db = Db::new("  force_logging: false\n  redo_groups: 2\n", HEALTHY_TABLES);
    let r = db.report(&[]);
    assert_eq!(
        problems(&r),
        vec![
            ("redo.force-logging", Severity::Warn),
            ("redo.log-size", Severity::Warn)
        ]
    );
    assert_eq!(
        fix(&r, "redo.force-logging"),
        "ALTER DATABASE FORCE LOGGING;"
    );
    assert!(fix(&r, "redo.log-size").starts_with("ALTER DATABASE ADD LOGFILE THREAD 1 SIZE 200M;"));

    let db = Db::new(
        "  archive_destinations:\n    - { name: LOG_ARCHIVE_DEST_1, destination: /u01/arch, status: error }\n",
        HEALTHY_TABLES,
    );
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![("redo.archive-dest", Severity::Fail)]);
    assert_eq!(
        get(&r, "redo.archive-dest").found,
        "no VALID LOCAL archive destination (configured: LOG_ARCHIVE_DEST_1 → /u01/arch (ERROR, LOCAL))"
    );

    // 300 rows in logs of 10 records: dozens of switches within the hour.
    let db = Db::new(
        "  log_size: 10\n",
        &HEALTHY_TABLES.replace("    rows: 40", "    rows: 300"),
    );
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![("redo.switch-rate", Severity::Warn)]);
    assert!(fix(&r, "redo.switch-rate").contains("ALTER DATABASE ADD LOGFILE THREAD 1 SIZE"));
}

#[test]
fn settings_the_database_contradicts_are_reported() {
    let db = Db::new("  sessions: 10\n  sessions_in_use: 8\n", HEALTHY_TABLES);
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![("settings.sessions", Severity::Fail)]);
    assert!(fix(&r, "settings.sessions").starts_with("ALTER SYSTEM SET SESSIONS ="));
    // Streaming alone needs one session (the catalog's goes on as the mining session); a
    // signal snapshot would need more.
    let r = db.report(&["cdc.snapshot.mode=none"]);
    assert_eq!(problems(&r), vec![("settings.sessions", Severity::Warn)]);
    assert!(
        get(&r, "settings.sessions")
            .found
            .ends_with("a signal snapshot would end signal-failed (CDC-2011)"),
        "{:?}",
        get(&r, "settings.sessions")
    );
    // 4 readers, the snapshot's coordinating and SCN sessions, and mining: 7 sessions,
    // 6 free: a warning, as the snapshot makes do without the SCN session (the catalog's goes
    // on as the mining session); with 3 threads every session fits.
    let db = Db::new("  sessions: 10\n  sessions_in_use: 4\n", HEALTHY_TABLES);
    let r = db.report(&["cdc.snapshot.threads=4"]);
    assert_eq!(problems(&r), vec![("settings.sessions", Severity::Warn)]);
    let found = &get(&r, "settings.sessions").found;
    assert!(
        found.starts_with("capture needs up to 7 sessions (4 snapshot readers")
            && found.ends_with("about 4 of 4 readers"),
        "{found}"
    );
    assert!(fix(&r, "settings.sessions").starts_with("cdc.snapshot.threads: 3 "));

    let db = Db::healthy();
    let r = db.report(&["cdc.key.HR.GONE=ID", "cdc.columns.exclude=HR.EMP.NOPE"]);
    assert_eq!(problems(&r), vec![("settings.references", Severity::Warn)]);
    assert_eq!(
        get(&r, "settings.references").found,
        "cdc.key.HR.GONE names no captured table\ncdc.columns.exclude lists HR.EMP.NOPE, but HR.EMP has no such column"
    );
    db.store_stream_position(1_000_001, false);
    let r = db.report(&["cdc.snapshot.mode=snapshot_only"]);
    assert_eq!(problems(&r), vec![("settings.mode", Severity::Warn)]);
}

#[test]
fn lob_columns_and_missing_statistics_warn() {
    let doc = r#"
  - name: HR.DOC
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: BODY, type: CLOB }
    primary_key: [ID]
    supplemental_logging: all
    rows: 2
    statistics: missing
"#;
    let db = Db::new(HEALTHY_DB, &with_table(doc));
    let r = db.report(&[]);
    assert_eq!(
        problems(&r),
        vec![
            ("tables.lob", Severity::Warn),
            ("tables.estimate", Severity::Warn)
        ]
    );
    assert_eq!(get(&r, "tables.lob").found, "HR.DOC: BODY (CLOB)");
    assert_eq!(
        fix(&r, "tables.estimate"),
        "EXEC DBMS_STATS.GATHER_TABLE_STATS('HR', 'DOC');"
    );
}

/// The capture user's password: no warning with the login passes; in its grace period
/// (ORA-28002) connection.password WARNs with the days, what happens when they are up
/// (CDC-2013) and the fix; expired (ORA-28001), the login and the password check FAIL with
/// CDC-2013 and its remedy.
#[test]
fn a_password_in_its_grace_period_warns_and_an_expired_one_fails() {
    let users = |field: &str| {
        format!("  name: PW\n  users:\n    - {{ name: CDC, privileges: all, {field} }}\n")
    };
    let healthy = Db::healthy().report(&[]);
    let p = get(&healthy, "connection.password");
    assert_eq!(p.severity, Severity::Pass, "{p:?}");
    assert!(p.found.contains("gave no warning"), "{}", p.found);

    let grace = Db::new(&users("password_expires_in_days: 6"), HEALTHY_TABLES);
    let r = grace.report(&["cdc.database.user=CDC"]);
    assert_eq!(problems(&r), vec![("connection.password", Severity::Warn)]);
    let p = get(&r, "connection.password");
    assert_eq!(
        p.found,
        "the password of CDC expires in 6 days (ORA-28002: the password will expire within 6 days): then every login fails with ORA-28001 and capture stops with CDC-2013"
    );
    assert_eq!(
        fix(&r, "connection.password"),
        "ALTER USER CDC IDENTIFIED BY <new password>; and the new password in cdc.database.password\nso that it does not expire again, a profile with PASSWORD_LIFE_TIME UNLIMITED: CREATE PROFILE cdc_profile LIMIT PASSWORD_LIFE_TIME UNLIMITED; ALTER USER CDC PROFILE cdc_profile;"
    );
    assert_eq!(p.why, crate::errors::Code::Cdc2013.info().explanation);

    let expired = Db::new(&users("password_expired: true"), HEALTHY_TABLES);
    let r = expired.report(&["cdc.database.user=CDC"]);
    for id in ["connection.login", "connection.password"] {
        let c = get(&r, id);
        assert_eq!(c.severity, Severity::Fail, "{id}: {c:?}");
        assert!(c.found.starts_with("CDC-2013"), "{id}: {}", c.found);
        assert!(c.found.contains("ORA-28001"), "{id}: {}", c.found);
    }
    assert!(fix(&r, "connection.password").contains("PASSWORD_LIFE_TIME UNLIMITED"));
}

#[test]
fn an_unreachable_emulator_fails_login_and_skips_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let s = Settings::from_pairs(&[
        format!(
            "cdc.database.url=emulator:{}",
            dir.path().join("none").display()
        ),
        format!("cdc.state.dir={}", dir.path().join("state").display()),
    ])
    .unwrap();
    let r = run(&s, &Selection::default());
    assert_eq!(get(&r, "connection.client").severity, Severity::Pass);
    let login = get(&r, "connection.login");
    assert_eq!(login.severity, Severity::Fail);
    assert!(login.found.starts_with("CDC-4001"), "{}", login.found);
    assert!(
        r.results.iter().filter(|c| c.area != Area::Connection).all(
            |c| c.severity == Severity::Skip
                || (["redo.retention", "settings.mode"].contains(&c.id)
                    && c.found.contains("no stored offsets"))
                // The sink is judged without the database.
                || (c.id.starts_with("sink.kafka") && c.found.starts_with("not used"))
        ),
        "{:#?}",
        r.results
    );
}

#[test]
fn thick_oracle_without_client_libraries_fails_the_client_check_with_cdc_2001() {
    if std::env::var_os("ORACLE_CDC_TEST_URL").is_some() {
        return; // a machine with Instant Client
    }
    let dir = tempfile::tempdir().unwrap();
    let s = Settings::from_pairs(&[
        "cdc.database.url=localhost:1521/FREEPDB1".to_string(),
        "cdc.database.driver=thick".into(),
        "cdc.database.user=cdc".into(),
        "cdc.database.password=Doctor-Secret-77".into(),
        format!(
            "cdc.state.dir={}",
            Path::new(dir.path()).join("s").display()
        ),
    ])
    .unwrap();
    let r = run(&s, &Selection::default());
    let c = get(&r, "connection.client");
    assert_eq!(c.severity, Severity::Fail);
    assert!(
        c.found.starts_with("CDC-2001") && c.found.contains("DPI-1047"),
        "{}",
        c.found
    );
    assert_eq!(c.why, crate::errors::Code::Cdc2001.info().explanation);
    assert_eq!(get(&r, "connection.login").severity, Severity::Skip);
    let text = format!("{r:?}");
    assert!(!text.contains("Doctor-Secret-77"));
}

/// The thin driver (the default) on a port where nothing listens: no client libraries needed,
/// the driver check says what thin cannot do, the login fails with "no listener" (CDC-2003).
#[test]
fn thin_oracle_needs_no_client_libraries_and_says_what_it_cannot_do() {
    let dir = tempfile::tempdir().unwrap();
    let s = Settings::from_pairs(&[
        "cdc.database.url=localhost:1/FREEPDB1".to_string(),
        "cdc.database.user=cdc".into(),
        "cdc.database.password=Doctor-Secret-78".into(),
        format!(
            "cdc.state.dir={}",
            Path::new(dir.path()).join("s").display()
        ),
    ])
    .unwrap();
    let r = run(&s, &Selection::default());
    let d = get(&r, "connection.driver");
    assert_eq!(d.severity, Severity::Pass);
    for part in [
        "thin",
        "native network encryption",
        "11G password verifier",
        "Kerberos",
        "wallets",
        "cdc.database.driver=thick",
    ] {
        assert!(d.found.contains(part), "{} lacks {part}", d.found);
    }
    assert!(d.found.contains("Over plain TCP"), "{}", d.found);
    let c = get(&r, "connection.client");
    assert_eq!(c.severity, Severity::Pass);
    assert!(c.found.contains("thin driver"), "{}", c.found);
    // A tcps URL: the driver check says what it trusts.
    for (wallet, says) in [
        (None, "public CAs only"),
        (
            Some("/etc/oracle-cdc/wallet"),
            "/etc/oracle-cdc/wallet/ewallet.pem",
        ),
    ] {
        let mut pairs = vec![
            "cdc.database.url=tcps://localhost:1/FREEPDB1".to_string(),
            "cdc.database.user=cdc".into(),
            "cdc.database.password=Doctor-Secret-78".into(),
            format!("cdc.state.dir={}", dir.path().join("t").display()),
        ];
        pairs.extend(wallet.map(|w| format!("cdc.database.wallet.location={w}")));
        let r = run(
            &Settings::from_pairs(&pairs).unwrap(),
            &Selection::default(),
        );
        let d = get(&r, "connection.driver");
        assert!(
            d.found.contains("Over TLS (tcps)") && d.found.contains(says),
            "{}",
            d.found
        );
        assert_eq!(d.severity, Severity::Pass);
    }
    // A wallet with a client key (mutual TLS): thin trusts only public CAs for the server.
    let wallet = dir.path().join("mtls");
    std::fs::create_dir(&wallet).unwrap();
    std::fs::write(
        wallet.join("ewallet.pem"),
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIE\n-----END ENCRYPTED PRIVATE KEY-----\n",
    )
    .unwrap();
    let mtls = vec![
        "cdc.database.url=tcps://localhost:1/FREEPDB1".to_string(),
        "cdc.database.user=cdc".into(),
        "cdc.database.password=Doctor-Secret-78".into(),
        format!("cdc.database.wallet.location={}", wallet.display()),
        format!("cdc.state.dir={}", dir.path().join("u").display()),
    ];
    let m = run(&Settings::from_pairs(&mtls).unwrap(), &Selection::default());
    let d = get(&m, "connection.driver");
    assert_eq!(d.severity, Severity::Warn, "{}", d.found);
    assert!(d.found.contains("holds a private key"), "{}", d.found);
    // An RSA key in its own form: the driver ignores it and presents no certificate.
    std::fs::write(
        wallet.join("ewallet.pem"),
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n",
    )
    .unwrap();
    let m = run(&Settings::from_pairs(&mtls).unwrap(), &Selection::default());
    let d = get(&m, "connection.driver");
    assert_eq!(d.severity, Severity::Warn, "{}", d.found);
    assert!(d.found.contains("PKCS#8"), "{}", d.found);
    let login = get(&r, "connection.login");
    assert_eq!(login.severity, Severity::Fail);
    assert!(login.found.starts_with("CDC-2003"), "{}", login.found);
    assert!(!format!("{r:?}").contains("Doctor-Secret-78"));
}

/// A login the thin driver gave up on (CDC-2009): the driver check FAILs with thick mode as the
/// fix, and the login check points at it.
#[test]
fn a_thin_limit_at_login_fails_the_driver_check_with_the_thick_fix() {
    let dir = tempfile::tempdir().unwrap();
    let s = Settings::from_pairs(&[
        "cdc.database.url=db.example.com:1521/ORCLPDB1".to_string(),
        "cdc.database.user=cdc".into(),
        "cdc.database.password=pw".into(),
        format!("cdc.state.dir={}", dir.path().join("s").display()),
    ])
    .unwrap();
    let mut facts = Facts::gather_with(
        &s,
        Err(crate::errors::CdcError::settings(
            crate::errors::Code::Cdc1002,
            "unused",
        )),
    );
    facts.connect = super::facts::Connect::Failed(crate::source::oracle::driver::thin_limit_error(
        "the driver panicked: x",
        "pw",
        "db",
    ));
    let r = evaluate(&facts, &Selection::default());
    let d = get(&r, "connection.driver");
    assert_eq!(d.severity, Severity::Fail);
    assert!(d.found.starts_with("CDC-2009"), "{}", d.found);
    assert_eq!(
        d.fix_settings.as_deref(),
        Some("cdc.database.driver: thick")
    );
    assert!(
        d.fix_steps
            .as_deref()
            .is_some_and(|f| f.contains("Instant Client")),
        "{d:?}"
    );
    assert_eq!(get(&r, "connection.login").severity, Severity::Skip);
}

/// Root mode needs a CONTAINER_DATA attribute that shows the PDBs' rows of V$PDBS and
/// V$TRANSACTION in CDB$ROOT: without it (Oracle's default) privileges.multitenant fails with
/// the ALTER USER that sets it; with it, it passes and says so.
#[test]
fn root_mode_without_container_data_fails_with_the_alter_user() {
    let tables = HEALTHY_TABLES.replace("HR.", "PDB1.HR.");
    let db = Db::new(
        "  multitenant: true\n  users: [{ name: C##CDC }]\n",
        &tables,
    );
    let r = db.report(&[]);
    let m = get(&r, "privileges.multitenant");
    assert_eq!(m.severity, Severity::Fail, "{}", m.found);
    assert!(m.found.contains("CONTAINER_DATA"), "{}", m.found);
    assert!(
        m.fix.as_deref().is_some_and(
            |f| f.contains("ALTER USER C##CDC SET CONTAINER_DATA=ALL CONTAINER=CURRENT")
        ),
        "{:?}",
        m.fix
    );
    let ok = Db::new(
        "  multitenant: true\n  users: [{ name: C##CDC, container_data: all }]\n",
        &tables,
    );
    let r = ok.report(&[]);
    let m = get(&r, "privileges.multitenant");
    assert_eq!(m.severity, Severity::Pass, "{}", m.found);
    assert!(m.found.contains("CONTAINER_DATA ALL"), "{}", m.found);
}

/// Root mode reads each captured PDB's grants inside it (ALTER SESSION SET CONTAINER, the same
/// privileges() call, back to the root): a PDB's local grants and grants on its tables do not
/// show in CDB$ROOT. Each table is judged with its own PDB's grants and the fix is given there.
#[test]
fn root_mode_judges_each_table_with_the_grants_of_its_own_pdb() {
    let tables = format!(
        "{}{}",
        HEALTHY_TABLES.replace("HR.", "PDB1.HR."),
        HEALTHY_TABLES.replace("HR.", "PDB2.HR.")
    );
    let db = Db::new(
        r#"  multitenant: true
  users:
    - name: C##CDC
      container_data: all
      privileges: [CREATE SESSION, SET CONTAINER, SELECT_CATALOG_ROLE, EXECUTE_CATALOG_ROLE, LOGMINING, "PDB2.HR.EMP:SELECT"]
      local_privileges:
        PDB1: [FLASHBACK ANY TABLE, SELECT ANY TABLE]
        PDB2: ["HR.EMP:FLASHBACK", "HR.DEPT:SELECT"]
"#,
        &tables,
    );
    let r = db.report(&[]);
    assert_eq!(
        problems(&r),
        vec![("privileges.snapshot", Severity::Fail)],
        "{:#?}",
        r.results
    );
    let s = get(&r, "privileges.snapshot");
    assert_eq!(s.found, "missing: FLASHBACK on PDB2.HR.DEPT");
    assert_eq!(
        s.fix.as_deref(),
        Some("ALTER SESSION SET CONTAINER = PDB2;\nGRANT FLASHBACK ON \"HR\".\"DEPT\" TO C##CDC;")
    );
    assert_eq!(s.objects, vec!["FLASHBACK on PDB2.HR.DEPT"]);
}

/// Root mode lists the PDBs from V$PDBS: without SELECT on it (or a role giving it) the list is
/// empty, and privileges.multitenant names the grant.
#[test]
fn root_mode_needs_select_on_v_pdbs() {
    let held: Vec<String> = crate::source::emulator::schema::ALL_PRIVILEGES
        .iter()
        .filter(|p| {
            !matches!(
                **p,
                "SELECT_CATALOG_ROLE" | "SELECT ANY DICTIONARY" | "SYS.V_$PDBS:SELECT"
            )
        })
        .map(|p| format!("\"{p}\""))
        .collect();
    let db = Db::new(
        &format!(
            "  multitenant: true\n  users: [{{ name: C##CDC, container_data: all, privileges: [{}] }}]\n",
            held.join(", ")
        ),
        &HEALTHY_TABLES.replace("HR.", "PDB1.HR."),
    );
    let r = db.report(&[]);
    let m = get(&r, "privileges.multitenant");
    assert_eq!(m.severity, Severity::Fail, "{}", m.found);
    assert_eq!(m.found, "missing: SELECT on V$PDBS");
    assert_eq!(
        m.fix.as_deref(),
        Some("GRANT SELECT ON SYS.V_$PDBS TO C##CDC CONTAINER=ALL;")
    );
}

/// Per-PDB mining (the session in a PDB, streaming, 19c+) needs the user 19c's Utilities guide
/// describes (23.12.1): provisioned with DBMS_GOLDENGATE_AUTH.GRANT_ADMIN_PRIVILEGE, which
/// USER_GOLDENGATE_PRIVILEGES shows. Neither it nor the LogMiner grants: FAIL with the call;
/// the grants alone: WARN naming the requirement; both: PASS.
#[test]
fn per_pdb_mining_asks_for_the_goldengate_administrator_grant() {
    let db = Db::new(
        r#"  multitenant: true
  users:
    - { name: C##CDC, container_data: all }
    - { name: PDB1GG, container: PDB1, goldengate: capture }
    - { name: PDB1CDC, container: PDB1 }
    - { name: PDB1NONE, container: PDB1, privileges: [CREATE SESSION, SELECT ANY TABLE, FLASHBACK ANY TABLE, SELECT_CATALOG_ROLE] }
"#,
        &HEALTHY_TABLES.replace("HR.", "PDB1.HR."),
    );
    let url = format!(
        "cdc.database.url=emulator:{}?service=PDB1",
        db.path().display()
    );
    let as_user = |user: &str, extra: &[&str]| {
        let u = format!("cdc.database.user={user}");
        let mut all = vec![url.as_str(), u.as_str()];
        all.extend_from_slice(extra);
        db.report(&all)
    };
    let call = "BEGIN DBMS_GOLDENGATE_AUTH.GRANT_ADMIN_PRIVILEGE(grantee => '{U}', privilege_type => 'CAPTURE', grant_select_privileges => TRUE, do_grants => TRUE, container => 'CURRENT'); END;";

    let r = as_user("PDB1GG", &[]);
    assert_eq!(problems(&r), vec![], "{:#?}", r.results);
    assert!(
        get(&r, "privileges.logmining")
            .found
            .contains("a GoldenGate CAPTURE administrator in PDB1"),
        "{}",
        get(&r, "privileges.logmining").found
    );

    let r = as_user("PDB1CDC", &[]);
    assert_eq!(problems(&r), vec![("privileges.logmining", Severity::Warn)]);
    let l = get(&r, "privileges.logmining");
    assert!(
        l.found.contains("23.12.1") && l.found.contains("USER_GOLDENGATE_PRIVILEGES"),
        "{}",
        l.found
    );
    assert_eq!(
        l.fix_sql.as_deref(),
        Some(
            format!(
                "-- as SYSDBA (DBMS_GOLDENGATE_AUTH runs AS SYSDBA only), in PDB1:\nALTER SESSION SET CONTAINER = PDB1;\n{}",
                call.replace("{U}", "PDB1CDC")
            )
            .as_str()
        )
    );

    let r = as_user("PDB1NONE", &[]);
    let l = get(&r, "privileges.logmining");
    assert_eq!(l.severity, Severity::Fail, "{}", l.found);
    let fix = l.fix.as_deref().unwrap_or_default();
    assert!(fix.contains(&call.replace("{U}", "PDB1NONE")), "{fix}");
    // The grants themselves, made in the PDB (a local user cannot be granted commonly).
    assert!(
        fix.ends_with(
            "GRANT LOGMINING TO PDB1NONE;\nGRANT EXECUTE ON SYS.DBMS_LOGMNR TO PDB1NONE;"
        ),
        "{fix}"
    );

    // Without streaming nothing is mined.
    let r = as_user("PDB1CDC", &["cdc.snapshot.mode=snapshot_only"]);
    assert_eq!(problems(&r), vec![]);
}

/// Tables without log groups in a 12.2+ CDB: PDB1 logs all columns itself (ALTER PLUGGABLE
/// DATABASE ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS, DBA_SUPPLEMENTAL_LOGGING read inside it),
/// PDB2 does not. supplemental.table counts PDB1's level for PDB1's tables and proposes the
/// PDB-level statement (or the table-level ones) for PDB2's.
fn pdb_level_logging(extra: &str) -> Db {
    let plain = HEALTHY_TABLES.replace("    supplemental_logging: all\n", "");
    Db::new(
        &format!(
            "  multitenant: true\n  pdbs: [{{ name: PDB1, supplemental_logging: {{ all: true }} }}]\n{extra}"
        ),
        &format!(
            "{}{}",
            plain.replace("HR.", "PDB1.HR."),
            plain.replace("HR.", "PDB2.HR.")
        ),
    )
}

#[test]
fn pdb_level_all_column_logging_covers_that_pdbs_tables() {
    let db = pdb_level_logging("");
    let r = db.report(&["cdc.tables.include=PDB1.HR.*"]);
    assert_eq!(problems(&r), vec![], "{:#?}", r.results);
    assert_eq!(
        get(&r, "supplemental.table").found,
        "ALL COLUMNS logging is on for all 2 captured tables (table-level, or PDB-level (ALL) COLUMNS logging in PDB1)"
    );
    let r = db.report(&[]);
    assert_eq!(problems(&r), vec![("supplemental.table", Severity::Fail)]);
    let s = get(&r, "supplemental.table");
    assert_eq!(
        s.found,
        "2 of 4 captured tables have no ALL COLUMNS logging (capture stops with CDC-3201 at an UPDATE that leaves a column out): PDB2.HR.DEPT, PDB2.HR.EMP"
    );
    assert_eq!(
        s.fix.as_deref(),
        Some(
            "ALTER SESSION SET CONTAINER = PDB2;\nALTER PLUGGABLE DATABASE ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;\n-- or table by table:\n-- ALTER TABLE \"HR\".\"DEPT\" ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;\n-- ALTER TABLE \"HR\".\"EMP\" ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;\n-- or for every table at once: ALTER DATABASE ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;"
        )
    );
    // Per-PDB mode reads the level where the session is.
    let url = format!(
        "cdc.database.url=emulator:{}?service=PDB1",
        db.path().display()
    );
    let r = db.report(&[&url]);
    assert_eq!(get(&r, "supplemental.table").severity, Severity::Pass);
}

/// Without SELECT on DBA_SUPPLEMENTAL_LOGGING (SELECT_CATALOG_ROLE, SELECT ANY DICTIONARY) the
/// PDB's level is unknown: a WARN naming why, not a FAIL.
#[test]
fn unreadable_pdb_level_logging_is_unknown_not_failed() {
    let held: Vec<String> = crate::source::emulator::schema::ALL_PRIVILEGES
        .iter()
        .filter(|p| !matches!(**p, "SELECT_CATALOG_ROLE" | "SELECT ANY DICTIONARY"))
        .map(|p| format!("\"{p}\""))
        .collect();
    let db = pdb_level_logging(&format!(
        "  users: [{{ name: C##CDC, container_data: all, privileges: [{}] }}]\n",
        held.join(", ")
    ));
    let r = db.report(&["cdc.tables.include=PDB1.HR.*"]);
    let s = get(&r, "supplemental.table");
    assert_eq!(s.severity, Severity::Warn, "{}", s.found);
    assert!(
        s.found.starts_with("no table-level ALL COLUMNS logging on 2 tables of PDB1, whose PDB-level logging is unknown (")
            && s.found.contains("DBA_SUPPLEMENTAL_LOGGING"),
        "{}",
        s.found
    );
}

/// Before 12.2 (no local undo) a PDB has no supplemental logging of its own, and without
/// minimal logging in CDB$ROOT none can be added: the schema is refused as Oracle refuses the
/// ALTER PLUGGABLE DATABASE.
#[test]
fn pdb_level_logging_needs_root_minimal_logging_and_12_2() {
    for (database, want) in [
        ("  supplemental_logging: { min: false }\n", "ORA-31541"),
        ("  version: 12.1.0.2.0\n", "ORA-60518"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let schema = format!(
            "database:\n  multitenant: true\n  pdbs: [{{ name: PDB1, supplemental_logging: {{ all: true }} }}]\n{database}tables:{}",
            HEALTHY_TABLES.replace("HR.", "PDB1.HR.")
        );
        let path = dir.path().join("schema.yaml");
        std::fs::write(&path, &schema).unwrap();
        let e = crate::source::emulator::init(
            &dir.path().join("db"),
            &path,
            None,
            crate::source::emulator::clock::system(),
        )
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
        assert!(e.contains(want), "{e}");
    }
}

/// The capture user's profile allows fewer sessions at once (SESSIONS_PER_USER, the CIS
/// benchmark's 10 or less) than the job opens: the check warns before the snapshot would meet
/// ORA-02391, with the readers it will make do with, the threads that fit and the profile that
/// makes room; with no room for one reader beside the coordinating and mining sessions it
/// fails. Not enforced (RESOURCE_LIMIT FALSE, the default before 12.1.0.2), the limit is
/// named and passes.
#[test]
fn a_profile_with_fewer_sessions_than_the_job_needs_warns_or_fails_the_sessions_check() {
    let users = "  users:\n    - { name: CDC, sessions_per_user: 5 }\n    - { name: TWO, sessions_per_user: 2 }\n";
    let db = Db::new(users, HEALTHY_TABLES);
    // 4 readers, the coordinating and SCN sessions, and mining: 7 > 5; the coordinating
    // and mining sessions leave 3 readers.
    let r = db.report(&["cdc.snapshot.threads=4", "cdc.database.user=CDC"]);
    assert_eq!(problems(&r), vec![("settings.sessions", Severity::Warn)]);
    let found = &get(&r, "settings.sessions").found;
    assert!(found.contains("SESSIONS_PER_USER 5 for CDC"), "{found}");
    assert!(found.ends_with("about 3 of 4 readers"), "{found}");
    let advice = fix(&r, "settings.sessions");
    assert!(advice.starts_with("cdc.snapshot.threads: 2 "), "{advice}");
    assert!(
        advice.contains("CREATE PROFILE cdc_profile LIMIT SESSIONS_PER_USER 11;")
            && advice.contains("ALTER USER CDC PROFILE cdc_profile;"),
        "{advice}"
    );
    // One reader: 1 + 2 + 1 = 4 fit in 5.
    let r = db.report(&["cdc.snapshot.threads=1", "cdc.database.user=CDC"]);
    assert_eq!(problems(&r), vec![]);
    // Two sessions: the coordinating and mining sessions, and no reader.
    let r = db.report(&["cdc.snapshot.threads=4", "cdc.database.user=TWO"]);
    assert_eq!(problems(&r), vec![("settings.sessions", Severity::Fail)]);
    let none = fix(&r, "settings.sessions");
    assert!(none.starts_with("CREATE PROFILE cdc_profile"), "{none}");

    let old = Db::new(
        &format!("  version: \"12.1.0.1.0\"\n{users}"),
        HEALTHY_TABLES,
    );
    let r = old.report(&["cdc.snapshot.threads=4", "cdc.database.user=CDC"]);
    assert!(
        get(&r, "settings.sessions")
            .found
            .contains("SESSIONS_PER_USER 5 (not enforced: RESOURCE_LIMIT is FALSE)"),
        "{:?}",
        get(&r, "settings.sessions")
    );
    assert_eq!(get(&r, "settings.sessions").severity, Severity::Pass);
}

/// The capture user's profile limits a call's reads (LOGICAL_READS_PER_CALL): the check warns,
/// naming the limit, with the profile that lifts it; unlimited it passes; before 12.1.0.2
/// (RESOURCE_LIMIT FALSE) the limit is named and passes.
#[test]
fn a_profile_with_a_per_call_limit_warns_the_call_limits_check() {
    let users =
        "  users:\n    - { name: CDC, logical_reads_per_call: 5000 }\n    - { name: FREE }\n";
    let db = Db::new(users, HEALTHY_TABLES);
    let r = db.report(&["cdc.database.user=CDC"]);
    assert_eq!(problems(&r), vec![("settings.call-limits", Severity::Warn)]);
    let found = &get(&r, "settings.call-limits").found;
    assert!(
        found.starts_with("LOGICAL_READS_PER_CALL 5000 (blocks) for CDC")
            && found.contains("CDC-5017"),
        "{found}"
    );
    let advice = fix(&r, "settings.call-limits");
    assert!(
        advice.contains("LOGICAL_READS_PER_CALL UNLIMITED")
            && advice.contains("ALTER USER CDC PROFILE cdc_calls;"),
        "{advice}"
    );
    let r = db.report(&["cdc.database.user=FREE"]);
    assert_eq!(problems(&r), vec![]);
    assert!(get(&r, "settings.call-limits")
        .found
        .contains("unlimited for FREE"));
}
