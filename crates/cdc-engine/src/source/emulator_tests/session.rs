//! Sessions of an emulated CDB as Oracle's behave: a session is in one container, sees that
//! container's tables, mines in CDB$ROOT (or its own PDB from 19c), and every call checks its
//! grants — and the container logic of `source::container` on top of them.

use crate::errors::Code;
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::source::container::{ContainerConnector, WantedPdbs};
use crate::source::emulator::clock::ManualClock;
use crate::source::emulator::writer::Writer;
use crate::source::emulator::*;
use crate::source::*;
use crate::types::Value;
use std::path::PathBuf;
use std::sync::Arc;

const T0: i64 = 1_700_000_000_000;

fn cdb(version: &str, users: &str) -> String {
    format!(
        r#"
seed: 3
database:
  multitenant: true
  version: {version}
  pdbs: [{{ name: PDB9, open_mode: mounted }}]
{users}
tables:
  - name: PDB1.APP.T
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: V, type: VARCHAR2(20) }}
    primary_key: [ID]
    supplemental_logging: all
    rows: 5
  - name: PDB2.APP.T
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: V, type: VARCHAR2(20) }}
    primary_key: [ID]
    supplemental_logging: all
    rows: 7
"#
    )
}

const USERS: &str = r#"  users:
    - { name: C##CDC, container_data: all }
    - { name: C##NOSET, container_data: all, privileges: [CREATE SESSION, SELECT ANY TABLE, FLASHBACK ANY TABLE, SELECT_CATALOG_ROLE, LOGMINING, EXECUTE_CATALOG_ROLE] }
    - { name: C##NOFLASH, container_data: all, privileges: [CREATE SESSION, SET CONTAINER, SELECT ANY TABLE, SELECT_CATALOG_ROLE] }
    - { name: PDB1CDC, container: PDB1, privileges: all }"#;

struct Db {
    dir: tempfile::TempDir,
    clock: ManualClock,
}

impl Db {
    fn new(schema: &str) -> Db {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.yaml");
        std::fs::write(&path, schema).unwrap();
        let clock = ManualClock::new(T0);
        init(&dir.path().join("db"), &path, None, Arc::new(clock.clone())).unwrap();
        Db { dir, clock }
    }
    fn path(&self) -> PathBuf {
        self.dir.path().join("db")
    }
    fn raw(&self, user: Option<&str>, service: Option<&str>) -> EmulatorConnector {
        EmulatorConnector::open_with_clock(
            &self.path(),
            Faults::default(),
            Arc::new(self.clock.clone()),
        )
        .unwrap()
        .with_login(user, service)
    }
    fn session(&self, user: Option<&str>, service: Option<&str>) -> Box<dyn Session> {
        self.raw(user, service).connect().unwrap()
    }
    fn wrapped(&self, user: Option<&str>, service: Option<&str>) -> Box<dyn Session> {
        ContainerConnector::new(Box::new(self.raw(user, service)), WantedPdbs::every())
            .connect()
            .unwrap()
    }
}

fn t(name: &str) -> TableName {
    name.parse().unwrap()
}

fn whole(table: &str, scn: Scn) -> FlashbackQuery {
    FlashbackQuery {
        table: t(table),
        columns: vec!["ID".into(), "V".into()],
        key_columns: vec!["ID".into()],
        scn,
        range: ChunkRange::Whole,
        filter: None,
        row_ids: true,
    }
}

fn rows(s: &mut dyn Session, table: &str) -> Result<u64> {
    let scn = s.current_scn()?;
    s.read_as_of(&whole(table, scn), &mut |_| Ok(()))
}

fn err<T: std::fmt::Debug>(r: Result<T>) -> CdcError {
    match r {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e,
    }
}

#[test]
fn a_session_sees_only_its_containers_tables() {
    let db = Db::new(&cdb("19.22.0.0.0", USERS));
    let mut root = db.session(None, None);
    assert_eq!(root.container().unwrap().as_deref(), Some("CDB$ROOT"));
    // The root has no user tables: the catalog is empty and a read of APP.T does not resolve.
    assert!(root.tables().unwrap().is_empty());
    let e = err(rows(root.as_mut(), "PDB1.APP.T"));
    assert!(e.to_string().contains("ORA-00942"), "{e}");
    assert_eq!(
        root.database().unwrap().pdbs,
        vec!["PDB1".to_string(), "PDB2".to_string()],
        "the open PDBs (PDB9 is MOUNTED)"
    );
    // Inside PDB2 "APP"."T" is PDB2's table, whatever the caller thinks it names.
    root.set_container("PDB2").unwrap();
    let names: Vec<String> = root
        .tables()
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, ["PDB2.APP.T"]);
    assert_eq!(rows(root.as_mut(), "PDB1.APP.T").unwrap(), 7);
    assert_eq!(root.database().unwrap().pdbs, ["PDB2"]);
    root.set_container("pdb1").unwrap();
    assert_eq!(rows(root.as_mut(), "PDB1.APP.T").unwrap(), 5);
    // Unknown and closed PDBs cannot be entered.
    let e = err(root.set_container("NOPE"));
    assert!(e.to_string().contains("ORA-65011"), "{e}");
    assert_eq!(e.code(), Code::Cdc2301);
    let e = err(root.set_container("PDB9"));
    assert!(e.to_string().contains("ORA-01109"), "{e}");
}

#[test]
fn set_container_is_refused_without_the_grant_and_to_local_users() {
    let db = Db::new(&cdb("19.22.0.0.0", USERS));
    let mut s = db.session(Some("C##NOSET"), None);
    let e = err(s.set_container("PDB1"));
    assert_eq!(e.code(), Code::Cdc2401, "{e}");
    assert!(e.to_string().contains("ORA-01031"), "{e}");
    let mut local = db.session(Some("pdb1cdc"), Some("PDB1"));
    assert_eq!(local.container().unwrap().as_deref(), Some("PDB1"));
    let e = err(local.set_container("PDB2"));
    assert!(e.to_string().contains("ORA-01031"), "{e}");
    // Outside a CDB there is nothing to switch.
    let non = Db::new(
        "database: { version: 19.3.0.0.0 }\ntables: [{ name: APP.T, columns: [{ name: ID, type: NUMBER }] }]",
    );
    let mut s = non.session(None, None);
    assert_eq!(s.container().unwrap(), None);
    assert!(err(s.set_container("PDB1"))
        .to_string()
        .contains("ORA-65090"));
}

#[test]
fn flashback_needs_its_grant() {
    let db = Db::new(&cdb("19.22.0.0.0", USERS));
    let mut s = db.session(Some("C##NOFLASH"), None);
    s.set_container("PDB1").unwrap();
    assert_eq!(
        s.tables().unwrap().len(),
        1,
        "SELECT makes the table visible"
    );
    let e = err(rows(s.as_mut(), "PDB1.APP.T"));
    assert_eq!(e.code(), Code::Cdc2401);
    assert!(e.to_string().contains("ORA-01031"), "{e}");
    assert!(e.to_string().contains("FLASHBACK"), "{e}");
    let e = err(s.mine(
        1,
        2,
        &cdc_core::filter::MiningFilter::default(),
        &mut |_| Ok(()),
    ));
    assert_eq!(e.code(), Code::Cdc2401);
    assert!(e.to_string().contains("PLS-00201"), "{e}");
}

/// Changes to both PDBs; returns the SCN after them.
fn change_both(db: &Db) -> Scn {
    let mut w = Writer::open(&db.path(), Arc::new(db.clock.clone()), false).unwrap();
    let t1 = w.replica().table_index(&t("PDB1.APP.T")).unwrap();
    let t2 = w.replica().table_index(&t("PDB2.APP.T")).unwrap();
    let a = w.begin().unwrap();
    w.insert(a, t1, vec![Value::Number("100".into()), Value::Null])
        .unwrap();
    // A transaction stays in its container (ORA-65023).
    let e = err(w.insert(a, t2, vec![Value::Number("100".into()), Value::Null]));
    assert!(e.to_string().contains("ORA-65023"), "{e}");
    let b = w.begin().unwrap();
    w.insert(b, t2, vec![Value::Number("200".into()), Value::Null])
        .unwrap();
    w.commit(&[a, b]).unwrap();
    w.flush().unwrap();
    w.replica().current_scn
}

#[test]
fn logminer_in_the_root_labels_each_row_with_its_pdb_and_a_pdb_mines_its_own() {
    let db = Db::new(&cdb("19.22.0.0.0", USERS));
    let start = db.session(None, None).current_scn().unwrap();
    let end = change_both(&db);
    let mine = |s: &mut dyn Session| {
        let mut out = Vec::new();
        s.mine(
            start + 1,
            end,
            &cdc_core::filter::MiningFilter::default(),
            &mut |r| {
                out.push((r.operation.clone(), r.src_con_name.clone(), r.table_name));
                Ok(())
            },
        )
        .unwrap();
        out
    };
    let all = mine(db.session(None, None).as_mut());
    let dml: Vec<(&str, &str)> = all
        .iter()
        .filter(|r| r.0 == "INSERT")
        .map(|r| (r.1.as_str(), r.2.as_deref().unwrap_or("")))
        .collect();
    assert_eq!(dml, [("PDB1", "T"), ("PDB2", "T")]);
    let commits: Vec<&str> = all
        .iter()
        .filter(|r| r.0 == "COMMIT")
        .map(|r| r.1.as_str())
        .collect();
    assert_eq!(commits, ["PDB1", "PDB2"], "each COMMIT row names its PDB");
    // From inside PDB2 (19c): only PDB2's redo.
    let mut local = db.session(None, Some("PDB2"));
    let own = mine(local.as_mut());
    assert!(!own.is_empty());
    assert!(own.iter().all(|r| r.1 == "PDB2"), "{own:?}");
}

#[test]
fn before_19c_logminer_refuses_to_run_in_a_pdb() {
    let db = Db::new(&cdb("12.2.0.1.0", USERS));
    let mut s = db.session(None, Some("PDB1"));
    let e = err(s.mine(
        1,
        2,
        &cdc_core::filter::MiningFilter::default(),
        &mut |_| Ok(()),
    ));
    assert_eq!(e.code(), Code::Cdc2302);
    assert!(e.to_string().contains("ORA-65040"), "{e}");
}

#[test]
fn the_container_logic_reads_each_pdb_in_it_and_mines_in_the_root() {
    let db = Db::new(&cdb("19.22.0.0.0", USERS));
    let mut s = db.wrapped(None, None);
    let names: Vec<String> = s
        .tables()
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, ["PDB1.APP.T", "PDB2.APP.T"]);
    assert_eq!(rows(s.as_mut(), "PDB2.APP.T").unwrap(), 7);
    assert_eq!(rows(s.as_mut(), "PDB1.APP.T").unwrap(), 5);
    let start = s.current_scn().unwrap();
    let end = change_both(&db);
    // The last read left the session in PDB1; mining moves it back to the root.
    let mut pdbs = Vec::new();
    s.mine(
        start + 1,
        end,
        &cdc_core::filter::MiningFilter::default(),
        &mut |r| {
            pdbs.push(r.src_con_name);
            Ok(())
        },
    )
    .unwrap();
    assert!(pdbs.contains(&"PDB2".to_string()), "{pdbs:?}");
    assert_eq!(s.container().unwrap().as_deref(), Some("CDB$ROOT"));
    // Per-PDB mode: the PDB's own tables; another PDB's is out of reach (CDC-2301).
    let mut local = db.wrapped(Some("PDB1CDC"), Some("PDB1"));
    let names: Vec<String> = local
        .tables()
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, ["PDB1.APP.T"]);
    assert_eq!(
        rows(local.as_mut(), "PDB1.APP.T").unwrap(),
        6,
        "with change_both's row"
    );
    let e = err(rows(local.as_mut(), "PDB2.APP.T"));
    assert_eq!(e.code(), Code::Cdc2301, "{e}");
}

/// The settings' reach into each PDB, from `cdc.tables.include` and the source channel's signal
/// table: by name, by a wildcard only, or not at all.
#[test]
fn the_settings_reach_into_the_pdbs_their_patterns_and_signal_table_name() {
    use crate::names::PdbReach::{Named, None as Not, Wildcard};
    let wanted = |pairs: &[&str]| {
        WantedPdbs::of(
            &crate::settings::Settings::from_pairs(pairs).unwrap_or_else(|e| panic!("{e}")),
        )
    };
    let reach = |w: &WantedPdbs| ["PDB1", "PDB2", "SALES"].map(|p| w.reach(p));
    // No patterns: every table of every PDB, none by name.
    assert_eq!(reach(&WantedPdbs::every()), [Wildcard; 3]);
    assert_eq!(reach(&wanted(&[])), [Wildcard; 3]);
    assert_eq!(
        reach(&wanted(&["cdc.tables.include=pdb1.APP.*"])),
        [Named, Not, Not]
    );
    assert_eq!(
        reach(&wanted(&["cdc.tables.include=PDB1.APP.*,PDB?.HR.*"])),
        [Named, Wildcard, Not]
    );
    // A two-part pattern is the table in any PDB.
    assert_eq!(
        reach(&wanted(&["cdc.tables.include=PDB1.APP.*,HR.EMP"])),
        [Named, Wildcard, Wildcard]
    );
    // The source channel's signal table is read in its PDB whatever the patterns say; named
    // without a PDB, in any.
    let signal = |table: &str| {
        wanted(&[
            "cdc.tables.include=PDB1.APP.*",
            "cdc.signal.enabled.channels=source",
            &format!("cdc.signal.data.collection={table}"),
        ])
    };
    assert_eq!(reach(&signal("SALES.CDC.SIGNALS")), [Named, Not, Named]);
    assert_eq!(reach(&signal("CDC.SIGNALS")), [Named, Wildcard, Wildcard]);
    // The file channel reads no table.
    let file = wanted(&[
        "cdc.tables.include=PDB1.APP.*",
        "cdc.signal.data.collection=SALES.CDC.SIGNALS",
    ]);
    assert_eq!(reach(&file), [Named, Not, Not]);
}

/// A common user allowed into PDB1 only (SET CONTAINER granted inside CDB$ROOT and PDB1, not
/// commonly: Oracle lets it into the containers it holds the grant in). Root mode enters only
/// the PDBs the settings reach into: PDB1's tables are listed without touching PDB2; a wildcard
/// that reaches PDB2 too leaves it out with a warning; a pattern naming PDB2 stops with the
/// refusal (CDC-2401), naming PDB2 and the grant. Before, every open PDB was entered and the
/// listing failed whatever the settings captured.
#[test]
fn root_mode_enters_only_the_pdbs_the_settings_reach_into() {
    let users = r#"  users:
    - name: C##CAP
      container_data: all
      privileges: [CREATE SESSION, SELECT ANY TABLE, FLASHBACK ANY TABLE, SELECT_CATALOG_ROLE]
      local_privileges: { CDB$ROOT: [SET CONTAINER], PDB1: [SET CONTAINER] }
    - { name: C##CDC, container_data: all }"#;
    let db = Db::new(&cdb("19.22.0.0.0", users));
    let listed = |include: &str| -> Result<Vec<String>> {
        let settings = crate::settings::Settings::from_pairs(&[include]).unwrap();
        let mut s = ContainerConnector::new(
            Box::new(db.raw(Some("C##CAP"), None)),
            WantedPdbs::of(&settings),
        )
        .connect()?;
        let names = s.tables()?.iter().map(|t| t.name.to_string()).collect();
        // Reads go on in the PDB entered, and back in the root.
        assert_eq!(rows(s.as_mut(), "PDB1.APP.T")?, 5);
        s.logs()?;
        assert_eq!(s.container()?.as_deref(), Some("CDB$ROOT"));
        Ok(names)
    };
    assert_eq!(
        listed("cdc.tables.include=PDB1.APP.*").unwrap(),
        ["PDB1.APP.T"]
    );
    assert_eq!(
        listed("cdc.tables.include=PDB*.APP.*").unwrap(),
        ["PDB1.APP.T"]
    );
    assert_eq!(listed("cdc.tables.include=APP.T").unwrap(), ["PDB1.APP.T"]);
    for include in [
        "cdc.tables.include=PDB2.APP.T",
        "cdc.tables.include=PDB1.APP.*,pdb2.APP.*",
        "cdc.tables.include=*.APP.*,PDB2.APP.T",
    ] {
        let e = err(listed(include));
        assert_eq!(e.code(), Code::Cdc2401, "{include}: {e}");
        let text = e.to_string();
        assert!(
            text.contains("PDB PDB2 (cdc.tables.include names it)")
                && text.contains("ALTER SESSION SET CONTAINER = PDB2")
                && text.contains("ORA-01031")
                && text.contains("GRANT SET CONTAINER TO <capture user> CONTAINER=ALL"),
            "{include}: {e}"
        );
    }
    // Let into none of the PDBs a wildcard reaches: the refusal, not "no tables".
    let none = |include: &str| {
        let settings = crate::settings::Settings::from_pairs(&[include]).unwrap();
        let connector = ContainerConnector::new(
            Box::new(db.raw(Some("C##CAP"), None)),
            WantedPdbs::of(&settings),
        );
        err(connector.connect().and_then(|mut s| s.tables()))
    };
    let e = none("cdc.tables.include=PDB2*.APP.*");
    assert_eq!(e.code(), Code::Cdc2401, "{e}");
    assert!(
        e.to_string()
            .contains("may enter none of the PDBs the settings reach into; PDB PDB2"),
        "{e}"
    );
    // A user allowed everywhere lists both, as before.
    let mut s = db.wrapped(Some("C##CDC"), None);
    let all: Vec<String> = s
        .tables()
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(all, ["PDB1.APP.T", "PDB2.APP.T"]);
}

/// A PDB open RESTRICTED (`ALTER PLUGGABLE DATABASE PDB2 OPEN RESTRICTED`) admits only users
/// holding RESTRICTED SESSION there: others get ORA-01035 switching into it (CDC-2301) or logging
/// in to its service, after SET CONTAINER is checked. V$PDBS says which PDBs are restricted.
/// Root mode leaves such a PDB out when only a wildcard reaches it, and stops, naming the way
/// in, when a pattern names it.
#[test]
fn a_restricted_pdb_admits_only_users_with_restricted_session() {
    let schema = cdb(
        "19.22.0.0.0",
        r#"  users:
    - { name: C##CDC, container_data: all }
    - { name: C##DBA, container_data: all, local_privileges: { PDB2: [RESTRICTED SESSION] } }
    - { name: C##NOSET, container_data: all, privileges: [CREATE SESSION, SELECT_CATALOG_ROLE] }"#,
    )
    .replace(
        "pdbs: [{ name: PDB9, open_mode: mounted }]",
        "pdbs: [{ name: PDB9, open_mode: mounted }, { name: PDB2, restricted: true }]",
    );
    let db = Db::new(&schema);
    let mut s = db.session(Some("C##CDC"), None);
    let info = s.database().unwrap();
    assert_eq!(
        (info.pdbs, info.restricted_pdbs),
        (
            vec!["PDB1".to_string(), "PDB2".to_string()],
            vec!["PDB2".to_string()]
        )
    );
    s.set_container("PDB1").unwrap();
    let e = err(s.set_container("PDB2"));
    assert_eq!(e.code(), Code::Cdc2301, "{e}");
    assert!(e.to_string().contains("ORA-01035"), "{e}");
    assert_eq!(s.container().unwrap().as_deref(), Some("PDB1"), "not moved");
    // SET CONTAINER is checked first.
    let e = err(db.session(Some("C##NOSET"), None).set_container("PDB2"));
    assert!(e.to_string().contains("ORA-01031"), "{e}");
    // RESTRICTED SESSION granted in PDB2 lets a user in, by a switch or a login.
    let mut d = db.session(Some("C##DBA"), None);
    d.set_container("PDB2").unwrap();
    assert_eq!(rows(d.as_mut(), "PDB2.APP.T").unwrap(), 7);
    db.raw(Some("C##DBA"), Some("PDB2")).connect().unwrap();
    let e = match db.raw(Some("C##CDC"), Some("PDB2")).connect() {
        Ok(_) => panic!("C##CDC logged in to a restricted PDB"),
        Err(e) => e,
    };
    assert!(e.to_string().contains("ORA-01035"), "{e}");

    // Root mode: a wildcard leaves PDB2 out; a name stops with the way in.
    let listed = |include: &str| -> Result<Vec<String>> {
        let settings = crate::settings::Settings::from_pairs(&[include]).unwrap();
        let mut s = ContainerConnector::new(
            Box::new(db.raw(Some("C##CDC"), None)),
            WantedPdbs::of(&settings),
        )
        .connect()?;
        Ok(s.tables()?.iter().map(|t| t.name.to_string()).collect())
    };
    assert_eq!(
        listed("cdc.tables.include=*.APP.*").unwrap(),
        ["PDB1.APP.T"]
    );
    let e = err(listed("cdc.tables.include=PDB1.APP.*,PDB2.APP.*"));
    assert_eq!(e.code(), Code::Cdc2301, "{e}");
    for part in [
        "PDB PDB2 (cdc.tables.include names it)",
        "ORA-01035",
        "ALTER SYSTEM DISABLE RESTRICTED SESSION",
        "GRANT RESTRICTED SESSION TO",
    ] {
        assert!(e.to_string().contains(part), "{part}: {e}");
    }
}

/// From CDB$ROOT a common user sees the PDBs' rows of V$PDBS and V$TRANSACTION only as far as
/// its CONTAINER_DATA attribute goes (by default the root's alone); inside a PDB the attribute
/// does not apply. Root-mode capture then stops with CDC-2303 instead of finding no table.
#[test]
fn container_data_decides_what_the_root_shows_of_the_pdbs() {
    let users = r#"  users:
    - { name: C##ALL, container_data: all }
    - { name: C##ROOT }
    - { name: C##ONE, container_data: [PDB1] }"#;
    let db = Db::new(&cdb("19.22.0.0.0", users));
    // A transaction open in each PDB.
    let mut w = Writer::open(&db.path(), Arc::new(db.clock.clone()), false).unwrap();
    let t1 = w.replica().table_index(&t("PDB1.APP.T")).unwrap();
    let t2 = w.replica().table_index(&t("PDB2.APP.T")).unwrap();
    let a = w.begin().unwrap();
    w.insert(a, t1, vec![Value::Number("100".into()), Value::Null])
        .unwrap();
    let b = w.begin().unwrap();
    w.insert(b, t2, vec![Value::Number("200".into()), Value::Null])
        .unwrap();
    w.flush().unwrap();
    let seen = |user: &str| {
        let mut s = db.session(Some(user), None);
        let pdbs = s.database().unwrap().pdbs;
        let open = s.open_transactions().unwrap().len();
        let cd = s.privileges().unwrap().container_data.unwrap();
        (pdbs, open, cd.covers_a_pdb())
    };
    assert_eq!(
        seen("C##ALL"),
        (vec!["PDB1".to_string(), "PDB2".to_string()], 2, true)
    );
    assert_eq!(seen("C##ROOT"), (Vec::<String>::new(), 0, false));
    assert_eq!(seen("C##ONE"), (vec!["PDB1".to_string()], 1, true));
    // Inside a PDB: that PDB's rows, whatever the attribute, and no attribute read.
    let mut s = db.session(Some("C##ROOT"), Some("PDB2"));
    assert_eq!(s.database().unwrap().pdbs, ["PDB2"]);
    assert_eq!(s.open_transactions().unwrap().len(), 1);
    assert_eq!(s.privileges().unwrap().container_data, None);
    // Root mode: tables of the PDBs the user sees; none at all is CDC-2303.
    let names = |user: &str| -> Result<Vec<String>> {
        let mut s = db.wrapped(Some(user), None);
        Ok(s.tables()?.iter().map(|t| t.name.to_string()).collect())
    };
    assert_eq!(names("C##ONE").unwrap(), ["PDB1.APP.T"]);
    let e = err(names("C##ROOT"));
    assert_eq!(e.code(), Code::Cdc2303, "{e}");
    assert!(e.to_string().contains("CONTAINER_DATA=ALL"), "{e}");
}

/// A grant holds in the container it was made in: common grants everywhere, a grant on a PDB's
/// table (`PDB1.APP.T:SELECT`) and a `local_privileges` one only in that PDB. CDB$ROOT shows
/// none of them (SESSION_PRIVS, ALL_TAB_PRIVS), SET CONTAINER must be held in the target and
/// CREATE SESSION where the login lands (Security Guide, "How the Oracle Multitenant Option
/// Affects Privileges"). A GoldenGate administrator grant shows in USER_GOLDENGATE_PRIVILEGES.
#[test]
fn grants_hold_only_in_the_container_they_were_made_in() {
    let users = r#"  users:
    - name: C##CDC
      container_data: all
      privileges: [CREATE SESSION, SET CONTAINER, SELECT_CATALOG_ROLE, "PDB1.APP.T:SELECT", "PDB1.APP.T:FLASHBACK"]
      local_privileges: { PDB2: [FLASHBACK ANY TABLE] }
    - { name: C##HALF, privileges: [SELECT_CATALOG_ROLE], local_privileges: { PDB1: [CREATE SESSION, SET CONTAINER] } }
    - { name: PDB1CDC, container: PDB1, privileges: [CREATE SESSION, "APP.T:SELECT"], goldengate: capture }"#;
    let db = Db::new(&cdb("19.22.0.0.0", users));
    let app_t = |p: &Privileges, privilege: &str| {
        p.objects
            .contains(&("APP".into(), "T".into(), privilege.to_string()))
    };
    let mut s = db.session(Some("C##CDC"), None);
    let root = s.privileges().unwrap();
    assert!(
        !app_t(&root, "SELECT") && !app_t(&root, "FLASHBACK"),
        "{root:?}"
    );
    assert!(!root.system.contains("FLASHBACK ANY TABLE"));
    assert_eq!(root.goldengate, None, "read in a PDB only");
    s.set_container("PDB1").unwrap();
    let pdb1 = s.privileges().unwrap();
    assert!(
        app_t(&pdb1, "SELECT") && app_t(&pdb1, "FLASHBACK"),
        "{pdb1:?}"
    );
    assert_eq!(pdb1.goldengate, Some(vec![]));
    assert_eq!(rows(s.as_mut(), "PDB1.APP.T").unwrap(), 5);
    s.set_container("PDB2").unwrap();
    let pdb2 = s.privileges().unwrap();
    assert!(!app_t(&pdb2, "SELECT"), "{pdb2:?}");
    assert!(pdb2.system.contains("FLASHBACK ANY TABLE"));
    // FLASHBACK ANY TABLE without SELECT: the table does not exist for the user.
    let e = err(rows(s.as_mut(), "PDB2.APP.T"));
    assert!(e.to_string().contains("ORA-00942"), "{e}");

    // CREATE SESSION granted in PDB1 only: no login to the root; SET CONTAINER granted there
    // only: PDB1 can be entered, PDB2 and the root cannot.
    let e = match db.raw(Some("C##HALF"), None).connect() {
        Ok(_) => panic!("C##HALF logged in to CDB$ROOT"),
        Err(e) => e,
    };
    assert!(e.to_string().contains("ORA-01045"), "{e}");
    let mut h = db.session(Some("C##HALF"), Some("PDB1"));
    let e = err(h.set_container("PDB2"));
    assert!(e.to_string().contains("ORA-01031"), "{e}");
    let e = err(h.set_container("CDB$ROOT"));
    assert!(e.to_string().contains("ORA-01031"), "{e}");

    // DBMS_GOLDENGATE_AUTH.GRANT_ADMIN_PRIVILEGE for the local user, in its PDB.
    let mut l = db.session(Some("PDB1CDC"), Some("PDB1"));
    let p = l.privileges().unwrap();
    assert_eq!(
        p.goldengate,
        Some(vec![GoldenGateGrant {
            privilege_type: "CAPTURE".into(),
            select_privileges: true
        }])
    );
    assert!(p.roles.contains("SELECT_CATALOG_ROLE"), "{p:?}");
    assert_eq!(p.goldengate_capture(), Some(true));
}

/// TIME_AT_DBTIMEZONE (23c+; DATABASE from 26ai): V$PARAMETER shows it; with USER_SQL
/// SYSTIMESTAMP alone follows the database time zone and LogMiner's DATEs and SCN_TO_TIMESTAMP
/// keep the host's clock, with DATABASE they follow it too; before 23c no such parameter.
#[test]
fn time_at_dbtimezone_moves_the_clocks_oracle_says_it_moves() {
    let version = |v: &str, mode: &str| {
        format!("{v}\n  host_utc_offset: \"+05:30\"\n  db_time_zone: \"-08:00\"\n  time_at_dbtimezone: {mode}")
    };
    for (mode, parameter, dates) in [
        ("off", "OFF", 5 * 3600 + 1800),
        ("user_sql", "USER_SQL", 5 * 3600 + 1800),
        ("database", "DATABASE", -8 * 3600),
    ] {
        let db = Db::new(&cdb(&version("23.26.0.0.0", mode), USERS));
        let mut s = db.session(None, None);
        assert_eq!(
            s.instance_config().unwrap().time_at_dbtimezone.as_deref(),
            Some(parameter)
        );
        assert_eq!(s.host_utc_offset().unwrap(), Some(dates), "{mode}");
        // 2023-11-14 22:13:20 UTC: 03:43:20 the next day at +05:30, 14:13:20 at -08:00.
        let want = if dates > 0 {
            "2023-11-15 03:43:20"
        } else {
            "2023-11-14 14:13:20"
        };
        let scn = s.current_scn().unwrap();
        assert_eq!(s.scn_to_time(scn).unwrap().as_deref(), Some(want), "{mode}");
    }
    // Before 23c the parameter does not exist; DATABASE is a 26ai value.
    let db = Db::new(&cdb("19.22.0.0.0", USERS));
    let mut s = db.session(None, None);
    assert_eq!(s.instance_config().unwrap().time_at_dbtimezone, None);
    for (v, mode) in [("19.22.0.0.0", "user_sql"), ("23.5.0.24.0", "database")] {
        let e = schema::SchemaFile::parse(
            std::path::Path::new("s.yaml"),
            &cdb(&version(v, mode), USERS),
        )
        .unwrap_err();
        assert!(e.to_string().contains("database.time_at_dbtimezone"), "{e}");
    }
}
