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
tables:
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
