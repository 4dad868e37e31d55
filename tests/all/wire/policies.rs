//! Security policies and In-Database Archiving over Oracle Net: the adapter's session setup
//! makes archived rows visible (a plain client's session, with Oracle's default ROW ARCHIVAL
//! VISIBILITY = ACTIVE, does not see them), and its policy reads (ALL_POLICIES,
//! ALL_SEC_RELEVANT_COLS, REDACTION_POLICIES, SESSION_PRIVS) answer as the emulator does
//! in-process; a column-level VPD policy applies to the statements that reference its columns.

use super::fixture::PASSWORD;
use oracle_cdc::source::emulator::{self, clock, net, EmulatorConnector, Faults};
use oracle_cdc::source::oracle::connect::Password;
use oracle_cdc::source::oracle::driver::{self, Driver, FetchOptions};
use oracle_cdc::source::oracle::OracleConnector;
use oracle_cdc::source::{BoundaryQuery, ChunkRange, FlashbackQuery, Session};

const SCHEMA: &str = r#"
seed: 5
database:
  users:
    - { name: CDC, privileges: [all, "APP.WAGES:UPDATE"] }
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
  - name: APP.WAGES
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: DEPT, type: NUMBER(4), nullable: false }
      - { name: SALARY, type: NUMBER(10), nullable: false }
      - { name: SSN, type: VARCHAR2(11), nullable: false }
    primary_key: [ID]
    rows: 20
    access_policies:
      - { name: WAGES_FIRST_TEN, predicate: "ID <= 10", columns: [SALARY] }
      - { name: WAGES_SSN, predicate: "ID <= 5", columns: [SSN], all_rows: true }
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

/// A plain client's session (the thin driver, no session setup of the adapter's).
fn client(db: &Db, user: &str) -> Box<dyn driver::DbSession> {
    driver::open(
        Driver::Thin,
        &db.served.url("EMU"),
        65536,
        None,
        user,
        &Password::new(PASSWORD),
        None,
    )
    .expect("connect")
}

/// `table`'s ID (its key) and `columns` as the session reads them, each value as text.
fn read(s: &mut dyn Session, table: &str, columns: &[&str]) -> Vec<Vec<String>> {
    let scn = s.current_scn().expect("scn");
    let q = FlashbackQuery {
        table: table.parse().expect("name"),
        columns: std::iter::once("ID")
            .chain(columns.iter().copied())
            .map(str::to_string)
            .collect(),
        key_columns: vec!["ID".into()],
        scn,
        range: ChunkRange::Whole,
        filter: None,
        row_ids: false,
    };
    let mut out = Vec::new();
    s.read_as_of(&q, &mut |r| {
        out.push(r.values.iter().map(|v| v.to_string()).collect());
        Ok(())
    })
    .expect("read");
    out
}

/// The adapter's policy reads over the wire equal the in-process session's, for CDC and for
/// the exempt AUDITOR.
fn policies_alike(db: &Db, table: &oracle_cdc::names::TableName) {
    for user in ["CDC", "AUDITOR"] {
        let (mut w, mut l) = (wire(db, user), local(db, user));
        assert_eq!(
            w.read_policies(table).expect("wire"),
            l.read_policies(table).expect("local"),
            "{user}"
        );
    }
}

fn count(s: &mut dyn Session) -> usize {
    read(s, "APP.HISTORY", &["NOTE"]).len()
}

#[test]
fn archived_rows_and_policies_over_the_wire_answer_as_in_process() {
    let db = serve();
    let table = "APP.HISTORY".parse().expect("name");
    policies_alike(&db, &table);
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
    let raw = client(&db, "AUDITOR");
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
    read(s, "APP.PEOPLE", &["NAME", "BORN"])
        .into_iter()
        .map(|r| (r[1].clone(), r[2].clone()))
        .collect()
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

/// The rows of a statement as text (NULL as `None`).
fn rows(raw: &dyn driver::DbSession, sql: &str) -> Vec<Vec<Option<String>>> {
    raw.query(sql, &[], FetchOptions::rows(1000))
        .and_then(|r| r.collect::<Result<Vec<_>, _>>())
        .unwrap_or_else(|e| panic!("{sql}: {e:?}"))
        .into_iter()
        .map(|row| {
            row.iter()
                .map(|c| match c {
                    driver::Cell::Null => None,
                    driver::Cell::Text(t) => Some(t.clone()),
                    driver::Cell::Number(n) => Some(n.to_string()),
                    other => Some(format!("{other:?}")),
                })
                .collect()
        })
        .collect()
}

/// APP.WAGES's ID and `columns` as the adapter reads them, in-process or over the wire.
fn wages(s: &mut dyn Session, columns: &[&str]) -> Vec<Vec<String>> {
    read(s, "APP.WAGES", columns)
}

#[test]
fn a_column_level_policy_applies_over_the_wire_only_to_statements_that_reference_its_columns() {
    let db = serve();
    let table = "APP.WAGES".parse().expect("name");
    policies_alike(&db, &table);
    for user in ["CDC", "AUDITOR"] {
        let (mut w, mut l) = (wire(&db, user), local(&db, user));
        // The adapter's reads answer alike: whole without SALARY or SSN, ten rows with SALARY.
        for columns in [&["DEPT"][..], &["SALARY"], &["DEPT", "SSN"]] {
            assert_eq!(
                wages(w.as_mut(), columns),
                wages(l.as_mut(), columns),
                "{user} {columns:?}"
            );
        }
    }
    // The planner's key range is of the rows the session sees: APP.HISTORY's policy leaves
    // 11..100 (the adapter's sessions see archived rows), in-process as over the wire.
    let history = "APP.HISTORY".parse().expect("name");
    let range = |s: &mut dyn Session| {
        s.key_range(&history, "ID", None)
            .expect("key range")
            .map(|(a, b)| (a.to_string(), b.to_string()))
    };
    let expected = Some(("11".to_string(), "100".to_string()));
    assert_eq!(range(wire(&db, "CDC").as_mut()), expected);
    assert_eq!(range(local(&db, "CDC").as_mut()), expected);
    // And the key boundaries: every 20th of the 90 keys it sees, 31, 51, 71, 91 (the index
    // holds 21, 41, …).
    let bounds = |s: &mut dyn Session| {
        let q = BoundaryQuery {
            table: history.clone(),
            key_columns: vec!["ID".into()],
            scn: s.current_scn().expect("scn"),
            lower: None,
            step: 20,
            count: 10,
        };
        s.key_boundaries(&q)
            .expect("boundaries")
            .iter()
            .map(|k| k[0].to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(bounds(wire(&db, "CDC").as_mut()), ["31", "51", "71", "91"]);
    assert_eq!(bounds(local(&db, "CDC").as_mut()), ["31", "51", "71", "91"]);
    let p = wire(&db, "CDC").read_policies(&table).expect("wire");
    assert_eq!(p.filtering_read(|c| c == "DEPT"), Vec::<String>::new());
    assert_eq!(p.filtering_read(|c| c == "SALARY"), ["WAGES_FIRST_TEN"]);
    assert_eq!(p.nulling(&p.filtering()), ["WAGES_SSN"]);
    assert_eq!(wages(wire(&db, "CDC").as_mut(), &["DEPT"]).len(), 20);
    assert_eq!(wages(wire(&db, "CDC").as_mut(), &["SALARY"]).len(), 10);

    let raw = client(&db, "CDC");
    let raw = raw.as_ref();
    let count = |sql: &str| rows(raw, sql).len();
    // No security-relevant column: every row; COUNT(*) references none either.
    assert_eq!(count("SELECT ID, DEPT FROM APP.WAGES"), 20);
    assert_eq!(
        rows(raw, "SELECT COUNT(*) FROM APP.WAGES"),
        [[Some("20".to_string())]]
    );
    // SALARY anywhere in the statement (select list, WHERE, ORDER BY, `*`): ten rows.
    assert_eq!(count("SELECT ID, SALARY FROM APP.WAGES"), 10);
    assert_eq!(count("SELECT ID FROM APP.WAGES WHERE SALARY >= 0"), 10);
    assert_eq!(count("SELECT ID FROM APP.WAGES ORDER BY SALARY"), 10);
    assert_eq!(count("SELECT * FROM APP.WAGES"), 10);
    // SSN (ALL_ROWS): every row, SSN NULL past ID 5, and NULL for the WHERE clause too.
    let ssn = rows(raw, "SELECT ID, SSN FROM APP.WAGES ORDER BY ID");
    assert_eq!(ssn.len(), 20);
    let shown: Vec<bool> = ssn.iter().map(|r| r[1].is_some()).collect();
    assert_eq!(shown, (1..=20).map(|id| id <= 5).collect::<Vec<_>>());
    assert_eq!(
        count("SELECT ID FROM APP.WAGES WHERE SSN IS NOT NULL AND ID >= 1"),
        5
    );
    // ALL_ROWS is for queries: an UPDATE reads SSN as stored (a scan that read the NULL the
    // policy shows a query would set '-x').
    raw.execute(
        "UPDATE APP.WAGES SET SSN = SUBSTR(SSN, 1, 9) || '-x' WHERE ID = 8",
        &[],
    )
    .expect("update");
    raw.execute("COMMIT", &[]).expect("commit");
    let auditor = client(&db, "AUDITOR");
    let ssn8 = rows(auditor.as_ref(), "SELECT SSN FROM APP.WAGES WHERE ID = 8");
    assert!(
        ssn8[0][0]
            .as_deref()
            .is_some_and(|v| v.len() == 11 && v.ends_with("-x")),
        "{ssn8:?}"
    );
    // MIN/MAX of the key read from the index ends only when nothing hides rows: APP.HISTORY's
    // policy (ID > 10) and its archived rows (ID <= 30, hidden at ACTIVE) leave 31..100.
    assert_eq!(
        rows(raw, "SELECT MIN(ID), MAX(ID) FROM APP.HISTORY"),
        [[Some("31".to_string()), Some("100".to_string())]]
    );
    assert_eq!(
        rows(raw, "SELECT MIN(ID), MAX(ID) FROM APP.WAGES"),
        [[Some("1".to_string()), Some("20".to_string())]]
    );
}
