//! Security policies and In-Database Archiving over Oracle Net: the adapter's session setup
//! makes archived rows visible (a plain client's session, with Oracle's default ROW ARCHIVAL
//! VISIBILITY = ACTIVE, does not see them), and its policy reads (ALL_POLICIES,
//! REDACTION_POLICIES, SESSION_PRIVS) answer as the emulator does in-process.

use super::fixture::PASSWORD;
use oracle_cdc::source::emulator::{self, clock, net, EmulatorConnector, Faults};
use oracle_cdc::source::oracle::connect::Password;
use oracle_cdc::source::oracle::driver::{self, Driver, FetchOptions};
use oracle_cdc::source::oracle::OracleConnector;
use oracle_cdc::source::{ChunkRange, FlashbackQuery, Session};

const SCHEMA: &str = r#"
seed: 5
database:
  users:
    - { name: CDC }
    - { name: AUDITOR, privileges: [all, EXEMPT ACCESS POLICY, EXEMPT REDACTION POLICY] }
    - { name: OTHER, privileges: [CREATE SESSION, SELECT ANY TABLE, FLASHBACK ANY TABLE, SELECT_CATALOG_ROLE] }
    - { name: HELPDESK, privileges: [CREATE SESSION, SELECT ANY TABLE, FLASHBACK ANY TABLE, SELECT_CATALOG_ROLE, EXECUTE_CATALOG_ROLE] }
    - { name: NARROW, privileges: [CREATE SESSION, SELECT ANY TABLE, FLASHBACK ANY TABLE, EXECUTE_CATALOG_ROLE, "SYS.V_$DATABASE:SELECT", "SYS.REDACTION_POLICIES:SELECT"] }
tables:
  - name: APP.PEOPLE
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(20) }
      - { name: BORN, type: DATE }
    primary_key: [ID]
    rows: 5
    redaction_policies:
      - name: PEOPLE_PRIVATE
        columns: [NAME, BORN]
        expression: "SYS_CONTEXT('USERENV','SESSION_USER') NOT IN ('CDC', 'NARROW')"
        column_expressions:
          - name: BORN_FOR_CATALOG
            expression: "SYS_CONTEXT('SYS_SESSION_ROLES','EXECUTE_CATALOG_ROLE') = 'FALSE'"
            columns: [BORN]
  - name: APP.HISTORY
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NOTE, type: VARCHAR2(20) }
    primary_key: [ID]
    rows: 100
    row_archival: { archived: "ID <= 30" }
    access_policies:
      - { name: HISTORY_RECENT, predicate: "ID > 10" }
    redaction_policies:
      - { name: HIDE_NOTE, columns: [NOTE] }
"#;

struct Db {
    _tmp: tempfile::TempDir,
    dir: std::path::PathBuf,
    served: net::Served,
}

fn serve() -> Db {
    let tmp = tempfile::tempdir().expect("tempdir");
    let schema = tmp.path().join("schema.yaml");
    std::fs::write(&schema, SCHEMA).expect("schema");
    let dir = tmp.path().join("db");
    emulator::init(&dir, &schema, Some(7), clock::system()).expect("init");
    let served = net::serve(
        &dir,
        &net::ServeOptions {
            listen: "127.0.0.1:0".into(),
            faults: Faults::default(),
            sdu: None,
            tls: None,
        },
    )
    .expect("serve");
    Db {
        _tmp: tmp,
        dir,
        served,
    }
}

fn wire(db: &Db, user: &str) -> Box<dyn Session> {
    let c = OracleConnector::new(
        &db.served.url("EMU"),
        Some(user),
        Some(Password::new(PASSWORD)),
    )
    .expect("connector");
    Box::new(c.open().expect("connect over Oracle Net"))
}

fn local(db: &Db, user: &str) -> Box<dyn Session> {
    Box::new(
        EmulatorConnector::open(&db.dir, Faults::default())
            .expect("open")
            .with_login(Some(user), None)
            .emulator_session()
            .expect("session"),
    )
}

fn count(s: &mut dyn Session) -> usize {
    let scn = s.current_scn().expect("scn");
    let q = FlashbackQuery {
        table: "APP.HISTORY".parse().expect("name"),
        columns: vec!["ID".into(), "NOTE".into()],
        key_columns: vec!["ID".into()],
        scn,
        range: ChunkRange::Whole,
        filter: None,
        row_ids: false,
    };
    let mut n = 0;
    s.read_as_of(&q, &mut |_| {
        n += 1;
        Ok(())
    })
    .expect("read");
    n
}

#[test]
fn archived_rows_and_policies_over_the_wire_answer_as_in_process() {
    let db = serve();
    let table = "APP.HISTORY".parse().expect("name");
    for user in ["CDC", "AUDITOR"] {
        let (mut w, mut l) = (wire(&db, user), local(&db, user));
        assert_eq!(
            w.read_policies(&table).expect("wire"),
            l.read_policies(&table).expect("local"),
            "{user}"
        );
    }
    let p = wire(&db, "CDC").read_policies(&table).expect("wire");
    assert_eq!(p.filtering(), ["HISTORY_RECENT"]);
    assert_eq!(p.masking(), ["HIDE_NOTE"]);

    // The adapter's sessions see the archived rows (session_setup), policies aside for the
    // exempt user: all 100; CDC sees the policy's 90, as in-process.
    assert_eq!(count(wire(&db, "AUDITOR").as_mut()), 100);
    assert_eq!(count(wire(&db, "CDC").as_mut()), 90);
    assert_eq!(count(local(&db, "CDC").as_mut()), 90);

    // A plain client's session: Oracle's default ACTIVE hides the 30 archived rows until it
    // asks for ALL.
    let raw = driver::open(
        Driver::Thin,
        &db.served.url("EMU"),
        65536,
        None,
        "AUDITOR",
        &Password::new(PASSWORD),
        None,
    )
    .expect("connect");
    let n = |raw: &dyn driver::DbSession| -> usize {
        raw.query("SELECT ID FROM APP.HISTORY", &[], FetchOptions::rows(1000))
            .and_then(|r| r.collect::<Result<Vec<_>, _>>())
            .expect("select")
            .len()
    };
    assert_eq!(n(raw.as_ref()), 70);
    raw.execute("ALTER SESSION SET ROW ARCHIVAL VISIBILITY = ALL", &[])
        .expect("alter");
    assert_eq!(n(raw.as_ref()), 100);
    raw.execute("ALTER SESSION SET ROW ARCHIVAL VISIBILITY = ACTIVE", &[])
        .expect("alter");
    assert_eq!(n(raw.as_ref()), 70);
}

/// APP.PEOPLE's NAME and BORN as the session reads them.
fn people(s: &mut dyn Session) -> Vec<(String, String)> {
    let scn = s.current_scn().expect("scn");
    let q = FlashbackQuery {
        table: "APP.PEOPLE".parse().expect("name"),
        columns: vec!["ID".into(), "NAME".into(), "BORN".into()],
        key_columns: vec!["ID".into()],
        scn,
        range: ChunkRange::Whole,
        filter: None,
        row_ids: false,
    };
    let mut rows = Vec::new();
    s.read_as_of(&q, &mut |r| {
        rows.push((r.values[1].to_string(), r.values[2].to_string()));
        Ok(())
    })
    .expect("read");
    rows
}

/// A redaction policy whose expressions exempt the capture user: the adapter evaluates them in
/// its session over the wire (REDACTION_COLUMNS, REDACTION_EXPRESSIONS, then each deciding
/// expression from DUAL) and finds what the served database's masking does.
#[test]
fn redaction_expressions_are_evaluated_in_the_adapters_session_as_the_served_database_masks() {
    let db = serve();
    let table = "APP.PEOPLE".parse().expect("name");
    for user in ["CDC", "OTHER", "HELPDESK", "AUDITOR", "NARROW"] {
        let (mut w, mut l) = (wire(&db, user), local(&db, user));
        assert_eq!(
            w.read_policies(&table).expect("wire"),
            l.read_policies(&table).expect("local"),
            "{user}"
        );
    }
    let cdc = wire(&db, "CDC").read_policies(&table).expect("wire");
    assert!(cdc.masking().is_empty(), "{cdc:?}");
    assert_eq!(cdc.redaction_not_applying, ["PEOPLE_PRIVATE"]);
    // NARROW reads whole values too, but may read REDACTION_POLICIES alone: a named expression
    // it cannot see might mask, so the policy counts (as without evaluating).
    for user in ["OTHER", "HELPDESK", "NARROW"] {
        let p = wire(&db, user).read_policies(&table).expect("wire");
        assert_eq!(p.masking(), ["PEOPLE_PRIVATE"], "{user}");
    }

    // What each reads over the wire agrees: CDC every value, OTHER none, HELPDESK BORN only.
    let whole = people(wire(&db, "AUDITOR").as_mut());
    assert_eq!(whole.len(), 5);
    assert!(whole.iter().all(|(n, _)| n != " "), "{whole:?}");
    assert_eq!(people(wire(&db, "CDC").as_mut()), whole);
    assert_eq!(people(wire(&db, "NARROW").as_mut()), whole);
    let other = people(wire(&db, "OTHER").as_mut());
    assert!(
        other
            .iter()
            .all(|(n, b)| n == " " && b.starts_with("2001-01-01")),
        "{other:?}"
    );
    let helpdesk = people(wire(&db, "HELPDESK").as_mut());
    let born: Vec<&String> = whole.iter().map(|(_, b)| b).collect();
    assert_eq!(helpdesk.iter().map(|(_, b)| b).collect::<Vec<_>>(), born);
    assert!(helpdesk.iter().all(|(n, _)| n == " "), "{helpdesk:?}");
}
