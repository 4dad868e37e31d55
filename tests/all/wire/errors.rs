//! Oracle's errors over the wire, as the adapter maps them: a login refused for a wrong
//! password, an unknown service or no listener; ORA-01555 on a flashback read; a missing grant
//! (ORA-00942 for a view, ORA-01031 for AS OF without FLASHBACK); LogMiner inside a PDB before
//! 19c (ORA-65040). Each the error code the same call gives in-process.

use super::fixture::*;
use oracle_cdc::errors::{CdcError, Code};
use oracle_cdc::source::emulator::Faults;
use oracle_cdc::source::oracle::{connect::Password, OracleConnector};
use oracle_cdc::source::{ChunkRange, Connector, FlashbackQuery, MiningFilter, Session};

fn connect(url: &str, user: &str, password: &str) -> Result<Box<dyn Session>, CdcError> {
    let c = OracleConnector::new(url, Some(user), Some(Password::new(password)))?;
    Ok(Box::new(c.open()?))
}

fn code(r: Result<Box<dyn Session>, CdcError>) -> Code {
    match r {
        Ok(_) => panic!("connected"),
        Err(e) => e.code(),
    }
}

#[test]
fn logins_fail_with_their_codes() {
    let s = serve_example();
    assert_eq!(
        code(connect(&s.url("DEMO"), USER, "wrong")),
        Code::Cdc2002,
        "ORA-01017"
    );
    assert_eq!(
        code(connect(&s.url("DEMO"), "NOBODY", PASSWORD)),
        Code::Cdc2002,
        "ORA-01017 for an unknown user too"
    );
    assert_eq!(
        code(connect(&s.url("NOSUCH"), USER, PASSWORD)),
        Code::Cdc2004,
        "ORA-12514"
    );
    assert_eq!(
        code(connect(&s.url("PDB3"), USER, PASSWORD)),
        Code::Cdc2004,
        "a MOUNTED PDB's service is not registered"
    );
    // A local user of PDB1 cannot log in to the root.
    assert_eq!(
        code(connect(&s.url("DEMO"), "PDB1CDC", PASSWORD)),
        Code::Cdc2002
    );
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    assert_eq!(
        code(connect(&format!("127.0.0.1:{port}/DEMO"), USER, PASSWORD)),
        Code::Cdc2003,
        "no listener"
    );
    // The example's application user logs in with its own password.
    connect(&s.url("PDB1"), "HR", "hr").expect("HR/hr on PDB1");
}

fn read(s: &mut dyn Session, table: &str, scn: u64) -> Result<u64, CdcError> {
    let q = FlashbackQuery {
        table: table.parse().unwrap(),
        columns: vec!["ID".into()],
        key_columns: vec!["ID".into()],
        scn,
        range: ChunkRange::Whole,
        filter: None,
        row_ids: true,
    };
    s.read_as_of(&q, &mut |_| Ok(()))
}

#[test]
fn snapshot_too_old_and_missing_grants_keep_their_codes() {
    let mut faults = Faults::default();
    faults.settings.ora01555_reads = vec![1];
    let s = serve_schema(&example_schema(), faults);
    let mut w = connect(&s.url("PDB1"), USER, PASSWORD).unwrap();
    let scn = w.current_scn().unwrap();
    let first = read(w.as_mut(), "PDB1.HR.EMPLOYEES", scn).unwrap_err();
    assert_eq!(first.code(), Code::Cdc5001, "ORA-01555: {first}");
    assert!(
        read(w.as_mut(), "PDB1.HR.EMPLOYEES", scn).unwrap() > 0,
        "the next read works"
    );
    // HR owns its tables but has no FLASHBACK on another's, and no dictionary grants.
    let mut hr = connect(&s.url("PDB1"), "HR", "hr").unwrap();
    let e = read(hr.as_mut(), "PDB1.BATCH.JOB_RUNS", scn).unwrap_err();
    assert_eq!(
        e.code(),
        Code::Cdc2401,
        "ORA-00942 for a table without a grant: {e}"
    );
    assert!(e.to_string().contains("ORA-00942"), "{e}");
    let e = hr
        .privileges()
        .map(|_| ())
        .and_then(|_| hr.logs().map(|_| ()))
        .unwrap_err();
    assert_eq!(e.code(), Code::Cdc2401, "V$LOG without SELECT on it: {e}");
    assert!(
        read(hr.as_mut(), "PDB1.HR.EMPLOYEES", scn).unwrap() > 0,
        "the owner reads its own table AS OF SCN"
    );
}

/// A dictionary build while DDL holds the dictionary: ORA-01327 over the wire is CDC-5015 (the
/// error capture's builds at log switches defer on), as in-process; the next build is made.
#[test]
fn a_dictionary_build_meeting_the_dictionary_locked_is_cdc_5015() {
    let mut faults = Faults::default();
    faults.settings.ora01327_builds = vec![1];
    let s = serve_schema(&example_schema(), faults);
    let mut root = connect(&s.url("DEMO"), USER, PASSWORD).unwrap();
    let e = root.build_dictionary().unwrap_err();
    assert_eq!(e.code(), Code::Cdc5015, "{e}");
    assert!(e.to_string().contains("ORA-01327"), "{e}");
    root.build_dictionary().expect("the next build");
}

#[test]
fn mining_inside_a_pdb_before_19c_is_refused() {
    let text = std::fs::read_to_string(example_schema()).unwrap();
    let old = text.replacen("version: 19.22.0.0.0", "version: 18.14.0.0.0", 1);
    assert_ne!(old, text, "the example schema names its version");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schema.yaml");
    std::fs::write(&path, old).unwrap();
    let s = serve_schema(&path, Faults::default());
    let mut w = connect(&s.url("PDB1"), USER, PASSWORD).unwrap();
    let end = w.current_scn().unwrap();
    let e = w
        .mine(end - 10, end, &MiningFilter::default(), &mut |_| Ok(()))
        .unwrap_err();
    assert_eq!(e.code(), Code::Cdc2302, "ORA-65040: {e}");
}

/// The profile's limits over the wire: a session past CONNECT_TIME (the drill) is logged off at
/// its next call with ORA-02399, which the adapter takes for a lost connection (CDC-5007, what
/// capture reconnects after); a login past SESSIONS_PER_USER is ORA-02391 (CDC-2011), and the
/// place a closed session held is free again once its connection has ended.
#[test]
fn profile_limits_keep_their_codes_over_the_wire() {
    let mut faults = Faults::default();
    faults.settings.connect_time_ms = 400;
    let s = serve_schema(&example_schema(), faults);
    let mut w = connect(&s.url("DEMO"), USER, PASSWORD).unwrap();
    w.current_scn().expect("a call within the connect time");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let e = w.current_scn().unwrap_err();
    assert_eq!(e.code(), Code::Cdc5007, "{e}");
    assert!(e.to_string().contains("ORA-02399"), "{e}");

    let text = std::fs::read_to_string(example_schema()).unwrap().replacen(
        "- { name: C##CDC, container_data: all }",
        "- { name: C##CDC, container_data: all, sessions_per_user: 2 }",
        1,
    );
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, text).unwrap();
    let s = serve_schema(&schema, Faults::default());
    let first = connect(&s.url("DEMO"), USER, PASSWORD).unwrap();
    let _second = connect(&s.url("PDB1"), USER, PASSWORD).unwrap();
    let third = connect(&s.url("DEMO"), USER, PASSWORD);
    match third {
        Ok(_) => panic!("a third session of a user limited to 2"),
        Err(e) => {
            assert_eq!(e.code(), Code::Cdc2011, "{e}");
            assert!(e.to_string().contains("ORA-02391"), "{e}");
        }
    }
    drop(first);
    // The server ends the session when it sees the connection close.
    let again = (0..50).find_map(|_| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        connect(&s.url("DEMO"), USER, PASSWORD).ok()
    });
    assert!(
        again.is_some(),
        "the closed session's place was not given back"
    );
    drop(again);

    // A connection the drill cuts (every call, as a network partition would) leaves its
    // session counted for cdc.emulator.fault.dead.connection.ms: a login meanwhile is refused
    // with ORA-02391, one after it is let in (and cut again).
    let mut faults = Faults::default();
    faults.settings.drop_per_mille = 1000;
    // Long enough for two more logins (12c key derivation, unoptimised in tests) on a loaded
    // machine.
    faults.settings.dead_connection_ms = 4000;
    let s = serve_schema(&schema, faults);
    let cut = |r: Result<Box<dyn Session>, CdcError>| match r {
        Ok(mut w) => w.current_scn().map(|_| ()),
        Err(e) => Err(e),
    };
    let first = cut(connect(&s.url("DEMO"), USER, PASSWORD)).unwrap_err();
    assert_eq!(first.code(), Code::Cdc5007, "{first}");
    let first_two = [
        cut(connect(&s.url("DEMO"), USER, PASSWORD)),
        cut(connect(&s.url("DEMO"), USER, PASSWORD)),
    ];
    // The second cut one took the last place; the third login is refused.
    let refused = first_two.iter().any(|r| {
        r.as_ref()
            .is_err_and(|e| e.code() == Code::Cdc2011 && e.to_string().contains("ORA-02391"))
    });
    assert!(refused, "{first_two:?}");
    std::thread::sleep(std::time::Duration::from_millis(4300));
    let later = cut(connect(&s.url("DEMO"), USER, PASSWORD)).unwrap_err();
    assert_eq!(later.code(), Code::Cdc5007, "let in, then cut: {later}");
}

/// The text every row of [`ROWS_WITH_A_MARK`] carries, which [`proxy_rewriting`] turns into
/// bytes that are no UTF-8 (the database's answer as a database whose stored data is not valid
/// in its character set sends it: Oracle passes such bytes through to an AL32UTF8 client).
const MARK: &[u8] = b"@@NOT-UTF8@@";
/// What [`MARK`] becomes on its way to the client: as long, a lead byte without its
/// continuation bytes.
const NOT_UTF8: &[u8] = b"\xff\xfeNOT-UTF8\xc3(";
const _: () = assert!(MARK.len() == NOT_UTF8.len());
/// 500 rows each about 300 bytes long: their answer fills several 8 KB packets.
const ROWS_WITH_A_MARK: &str = "SELECT ID, '@@NOT-UTF8@@' AS MARKED, \
    RPAD('x', 300, 'x') AS PAD FROM HR.EMPLOYEES";

/// A TCP proxy to `to` that replaces [`MARK`] by [`NOT_UTF8`] in what the server sends (what
/// the client sends passes as it is): its address. A possible start of the mark at the end of
/// a read is held back until more comes, or passed on after 50 ms of quiet.
fn proxy_rewriting(to: &str) -> String {
    use std::io::{ErrorKind, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let to = to.to_string();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let server = std::net::TcpStream::connect(&to).unwrap();
            let (mut up_from, mut up_into) =
                (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut up_from, &mut up_into);
                let _ = up_into.shutdown(std::net::Shutdown::Write);
            });
            let (mut from, mut into) = (server, client);
            std::thread::spawn(move || {
                from.set_read_timeout(Some(std::time::Duration::from_millis(50)))
                    .unwrap();
                let mut held: Vec<u8> = Vec::new();
                let mut buf = [0u8; 16 * 1024];
                loop {
                    match from.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => held.extend_from_slice(&buf[..n]),
                        Err(e)
                            if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
                        {
                            if into.write_all(&held).is_err() {
                                return;
                            }
                            held.clear();
                            continue;
                        }
                        Err(_) => break,
                    }
                    let mut at = 0;
                    while let Some(i) = held[at..].windows(MARK.len()).position(|w| w == MARK) {
                        held[at + i..at + i + MARK.len()].copy_from_slice(NOT_UTF8);
                        at += i + MARK.len();
                    }
                    // Keep what may be the start of a mark the next read completes.
                    let keep = (1..MARK.len())
                        .rev()
                        .find(|k| held.len() >= *k && held.ends_with(&MARK[..*k]))
                        .unwrap_or(0);
                    let send = held.len() - keep;
                    if into.write_all(&held[..send]).is_err() {
                        return;
                    }
                    held.drain(..send);
                }
                let _ = into.write_all(&held);
                let _ = into.shutdown(std::net::Shutdown::Write);
            });
        }
    });
    addr
}

/// A value in the database's answer that is not valid AL32UTF8 (the character set the thin
/// driver declares and decodes strictly): the call fails with CDC-3009 naming the operation and
/// what to do, and the session is given up, so the next call on it fails as not connected
/// (ORA-03114, CDC-5007: capture reconnects) instead of reading the rest of that answer, still
/// in the socket before 23ai, as its own.
#[test]
fn a_value_not_valid_utf8_gives_the_session_up() {
    use oracle_cdc::source::oracle::connect::{CallContext, OraCode, Password};
    use oracle_cdc::source::oracle::driver::{self, Driver, FetchOptions};
    let s = serve_example();
    let proxy = proxy_rewriting(&s.served.local_addr().to_string());
    let session = driver::open(
        Driver::Thin,
        &format!("{proxy}/PDB1"),
        8192,
        None,
        USER,
        &Password::new(PASSWORD),
        None,
    )
    .expect("connect");
    // The proxy passes the rest untouched.
    let row = session
        .query_row("SELECT 'fine' AS OK FROM DUAL", &[])
        .expect("a plain call");
    assert_eq!(format!("{row:?}"), r#"[Text("fine")]"#);
    let e = match session
        .query(ROWS_WITH_A_MARK, &[], FetchOptions::rows(500))
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
    {
        Ok(rows) => panic!("{} rows read", rows.len()),
        Err(e) => e,
    };
    let ctx = CallContext {
        operation: "reading the marked rows",
        ..Default::default()
    };
    let mapped = e.runtime(&ctx);
    assert_eq!(Some(mapped.code()), Code::lookup("CDC-3009"), "{mapped}");
    let text = mapped.to_string();
    for needed in [
        "reading the marked rows",
        "AL32UTF8",
        "cdc.database.driver=thick",
    ] {
        assert!(text.contains(needed), "{needed}: {text}");
    }
    let next = session.query_row("SELECT 'after' AS OK FROM DUAL", &[]);
    match next {
        Err(e) => assert_eq!(e.code, Some(OraCode::Ora(3114)), "{e:?}"),
        Ok(row) => panic!("the next call on the session answered {row:?}"),
    }
}

/// The example schema with C##CDC's password in its grace period (5 days left) and a common
/// user C##OLD whose password has expired, served.
fn serve_with_expiring_passwords() -> (tempfile::TempDir, Served) {
    let text = std::fs::read_to_string(example_schema()).unwrap().replacen(
        "- { name: C##CDC, container_data: all }",
        "- { name: C##CDC, container_data: all, password_expires_in_days: 5 }\n    - { name: C##OLD, password_expired: true }",
        1,
    );
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, text).unwrap();
    let s = serve_schema(&schema, Faults::default());
    (dir, s)
}

/// A capture user in its password's grace period logs in over Oracle Net with ORA-28002, which
/// reaches the adapter's session (and doctor's connection.password, which WARNs with the days
/// and the remedy) as it does in-process; a user whose password has expired is refused with
/// ORA-28001, CDC-2013 naming the remedy, as in-process. Before: ORA-28001 was the general
/// CDC-2006 and the warning was dropped.
#[test]
fn an_expiring_password_warns_and_an_expired_one_is_cdc_2013() {
    let (_schema, s) = serve_with_expiring_passwords();
    let mut w = connect(&s.url("DEMO"), USER, PASSWORD).expect("let in during the grace period");
    let warning = w.login_warning().unwrap().expect("the login's warning");
    assert_eq!(
        warning.message,
        "ORA-28002: the password will expire within 5 days"
    );
    assert!(warning.password_expiring());
    assert_eq!(warning.days_left(), Some(5));
    assert_eq!(
        Some(warning),
        in_process(&s.dir, None)
            .connect()
            .unwrap()
            .login_warning()
            .unwrap(),
        "over the wire as in-process"
    );
    w.current_scn().expect("the session works");
    // A user without one.
    let mut pdb = connect(&s.url("PDB1"), "HR", "hr").unwrap();
    assert_eq!(pdb.login_warning().unwrap(), None);

    let e = match connect(&s.url("DEMO"), "C##OLD", PASSWORD) {
        Ok(_) => panic!("an expired password let in"),
        Err(e) => e,
    };
    assert_eq!(e.code(), Code::Cdc2013, "{e}");
    let text = e.to_string();
    for needed in ["ORA-28001", "ALTER USER", "PASSWORD_LIFE_TIME UNLIMITED"] {
        assert!(text.contains(needed), "{needed}: {text}");
    }
    let local = oracle_cdc::source::emulator::EmulatorConnector::open(&s.dir, Faults::default())
        .unwrap()
        .with_login(Some("C##OLD"), None);
    match local.connect() {
        Ok(_) => panic!("an expired password let in, in-process"),
        Err(e) => assert_eq!(e.code(), Code::Cdc2013, "{e}"),
    }
    // Even with the right password: ORA-28001 is not ORA-01017.
    let wrong = connect(&s.url("DEMO"), "C##OLD", "wrong")
        .map(|_| ())
        .unwrap_err();
    assert_eq!(wrong.code(), Code::Cdc2002, "{wrong}");
}

/// doctor over Oracle Net: connection.password WARNs that C##CDC's password expires in 5
/// days, with ALTER USER and a common profile with PASSWORD_LIFE_TIME UNLIMITED; for C##OLD it
/// FAILs with CDC-2013, as connection.login does.
#[test]
fn doctor_over_the_wire_warns_of_an_expiring_password() {
    use oracle_cdc::doctor::{run, Selection, Severity};
    use oracle_cdc::settings::Settings;
    let (_schema, s) = serve_with_expiring_passwords();
    let state = tempfile::tempdir().unwrap();
    let settings = |user: &str| {
        Settings::from_pairs(&[
            format!("cdc.database.url={}", s.url("DEMO")),
            format!("cdc.database.user={user}"),
            format!("cdc.database.password={PASSWORD}"),
            format!("cdc.state.dir={}", state.path().display()),
        ])
        .unwrap()
    };
    let only = Selection {
        only: vec!["connection.login".into(), "connection.password".into()],
        ..Selection::default()
    };
    let r = run(&settings(USER), &only);
    let p = r
        .result("connection.password")
        .expect("connection.password");
    assert_eq!(p.severity, Severity::Warn, "{p:?}");
    assert!(
        p.found.contains("C##CDC") && p.found.contains("in 5 days"),
        "{}",
        p.found
    );
    assert!(p.found.contains("ORA-28002"), "{}", p.found);
    let fix = p.fix.as_deref().unwrap_or_default();
    for needed in [
        "ALTER USER C##CDC IDENTIFIED BY",
        "PASSWORD_LIFE_TIME UNLIMITED",
        "CONTAINER=ALL",
    ] {
        assert!(fix.contains(needed), "{needed}: {fix}");
    }
    let r = run(&settings("C##OLD"), &only);
    for id in ["connection.login", "connection.password"] {
        let c = r.result(id).expect(id);
        assert_eq!(c.severity, Severity::Fail, "{id}: {c:?}");
        assert!(c.found.starts_with("CDC-2013"), "{id}: {}", c.found);
    }
}
