//! The adapter without a database: select lists, and a missing client library or listener.

use super::connect::Password;
use super::*;
use crate::errors::Code;
use cdc_core::session::Connector;

#[test]
fn key_columns_fetch_like_the_flashback_read() {
    let t = TableName::new(None, "HR", "EMP");
    let how = |c, d| key_access(&t, c, d).ok().map(|(_, how)| how);
    assert_eq!(how("ID", "NUMBER"), Some(Fetch::Native));
    assert_eq!(how("ID", ""), Some(Fetch::Native));
    assert_eq!(how("FLAG", "BOOLEAN"), Some(Fetch::Boolean));
    for data_type in ["JSON", "VECTOR", "XMLTYPE", "BFILE"] {
        match key_access(&t, "C", data_type) {
            Err(e) => assert_eq!(e.code(), Code::Cdc3001, "{data_type}: {e}"),
            Ok(how) => panic!("{data_type} accepted as a key ({how:?})"),
        }
    }
    match column_access(&t, "DOC", "JSON") {
        Ok((sql::SelectItem::Json("DOC"), Fetch::Json)) => {}
        other => panic!("{other:?}"),
    }
    // TIMESTAMP WITH TIME ZONE: as TO_CHAR text with the offset, in reads and key probes alike;
    // WITH LOCAL TIME ZONE natively (in the session's UTC).
    for access in [
        column_access(&t, "AT", "TIMESTAMP(6) WITH TIME ZONE"),
        key_access(&t, "AT", "TIMESTAMP(9) WITH TIME ZONE"),
    ] {
        match access {
            Ok((sql::SelectItem::TimestampTz("AT"), Fetch::TimestampTz)) => {}
            other => panic!("{other:?}"),
        }
    }
    match column_access(&t, "AT", "TIMESTAMP(6) WITH LOCAL TIME ZONE") {
        Ok((sql::SelectItem::Plain("AT"), Fetch::Native)) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn connect_without_client_library_is_cdc_2001_on_thick_and_no_listener_on_thin() {
    let connector = match OracleConnector::new(
        "localhost:1/NOPE",
        Some("cdc"),
        Some(Password::new("Another-Known-Pw-42")),
    ) {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    };
    let e = match connector.connect() {
        Ok(_) => panic!("connected to localhost:1?"),
        Err(e) => e,
    };
    assert!(!e.to_string().contains("Another-Known-Pw-42"));
    assert!(!format!("{e:?}").contains("Another-Known-Pw-42"));
    assert_eq!(e.code(), Code::Cdc2003, "{e}");
    let e = match connector.with_driver(driver::Driver::Thick).connect() {
        Ok(_) => panic!("connected to localhost:1?"),
        Err(e) => e,
    };
    assert!(!e.to_string().contains("Another-Known-Pw-42"));
    if std::env::var_os("ORACLE_CDC_TEST_URL").is_none() {
        assert_eq!(e.code(), Code::Cdc2001, "{e}");
    }
}

/// A listener on 127.0.0.1 that accepts every connection, holds it open and never writes a
/// byte: a hung listener or instance, logins stuck behind a full archiver, a firewall that
/// drops what follows the TCP handshake. Its address.
pub(crate) fn silent_listener() -> std::net::SocketAddr {
    let listener = match std::net::TcpListener::bind("127.0.0.1:0") {
        Ok(l) => l,
        Err(e) => panic!("bind: {e}"),
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => panic!("local_addr: {e}"),
    };
    std::thread::spawn(move || {
        // Kept, so that no connection is closed (a close would end the client's wait).
        let mut held = Vec::new();
        for s in listener.incoming().flatten() {
            held.push(s);
        }
    });
    addr
}

/// `f` run on a thread of its own, and how long it took; a test whose `f` has not returned
/// after `secs` fails (a hang is the defect these tests look for: it must not hang the suite).
pub(crate) fn within<T: Send + 'static>(
    secs: u64,
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> (T, std::time::Duration) {
    let (tx, rx) = std::sync::mpsc::channel();
    let started = std::time::Instant::now();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(std::time::Duration::from_secs(secs)) {
        Ok(r) => (r, started.elapsed()),
        Err(e) => panic!("{what}: no answer after {secs} s ({e})"),
    }
}

/// A thin login to a listener that accepts the connection and never answers gives up at
/// cdc.database.connect.timeout.ms as a connect timeout (ORA-12170, CDC-2010, which the login
/// loops retry), instead of waiting for ever (before: the NS connect, TLS and authentication
/// ran with no read timeout at all).
#[test]
fn a_thin_login_to_a_listener_that_never_answers_times_out() {
    let addr = silent_listener();
    let connector = match OracleConnector::new(
        &format!("{addr}/EMU"),
        Some("cdc"),
        Some(Password::new("Silent-Pw-17")),
    ) {
        Ok(c) => c.with_connect_timeout(std::time::Duration::from_millis(1500)),
        Err(e) => panic!("{e}"),
    };
    let (r, took) = within(10, "a login to a silent listener", move || {
        connector.connect().map(|_| ())
    });
    let e = match r {
        Ok(()) => panic!("logged in to a listener that never answers"),
        Err(e) => e,
    };
    assert_eq!(e.code(), Code::Cdc2010, "{e}");
    let shown = e.to_string();
    assert!(shown.contains("ORA-12170"), "{shown}");
    assert!(shown.contains(&addr.to_string()), "{shown}");
    assert!(!shown.contains("Silent-Pw-17"), "{shown}");
    assert!(cdc_core::errors::is_transient(&e), "{e}");
    // Given up at the bound, not before it.
    assert!(took >= std::time::Duration::from_millis(1400), "{took:?}");
}
