//! The adapter without a database: settings checks, select lists, the driver setting, a
//! missing client library.

use super::connect::Password;
use super::*;
use crate::errors::Code;
use cdc_core::session::Connector;

fn settings(pairs: &[&str]) -> crate::settings::Settings {
    match crate::settings::Settings::from_pairs(pairs) {
        Ok(s) => s,
        Err(e) => panic!("settings: {e}"),
    }
}

#[test]
fn from_settings_checks_url_and_user() {
    let ok = OracleConnector::from_settings(&settings(&[
        "cdc.database.url=db.example.com:1521/ORCLPDB1",
        "cdc.database.user=c##cdc",
        "cdc.database.password=Very-Secret-1",
    ]));
    let ok = match ok {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(
        ok.describe(),
        "Oracle db.example.com:1521/ORCLPDB1 as c##cdc"
    );
    assert!(!format!("{ok:?}").contains("Very-Secret-1"));
    assert!(!ok.describe().contains("Very-Secret-1"));

    let no_user = OracleConnector::new("db:1521/X", None, Some(Password::new("p")));
    match no_user {
        Err(e) => {
            assert_eq!(e.code(), Code::Cdc1002);
            assert!(e.to_string().contains("cdc.database.user"), "{e}");
        }
        Ok(_) => panic!("accepted a missing user"),
    }
    for url in ["", "  ", "db:1521/X Y"] {
        match OracleConnector::new(url, Some("u"), Some(Password::new("p"))) {
            Err(e) => assert_eq!(e.code(), Code::Cdc2007, "{url:?}: {e}"),
            Ok(_) => panic!("accepted url {url:?}"),
        }
    }
    assert!(OracleConnector::new("ORCL", Some("u"), None).is_err());
}

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
fn the_driver_setting_reaches_the_connector() {
    let base = [
        "cdc.database.url=db.example.com:1521/ORCLPDB1",
        "cdc.database.user=c##cdc",
        "cdc.database.password=Very-Secret-1",
    ];
    let thin = OracleConnector::from_settings(&settings(&base)).map(|c| c.driver());
    assert_eq!(thin.ok(), Some(driver::Driver::Thin));
    let mut pairs = base.to_vec();
    pairs.push("cdc.database.driver=thick");
    let s = settings(&pairs);
    assert_eq!(
        OracleConnector::from_settings(&s).map(|c| c.driver()).ok(),
        Some(driver::Driver::Thick)
    );
    let mining = OracleConnector::mining_from_settings(&s, "mine.example.com/M");
    assert_eq!(mining.map(|c| c.driver()).ok(), Some(driver::Driver::Thick));
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
