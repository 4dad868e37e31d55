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
