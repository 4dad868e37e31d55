//! The Oracle adapter's connectors built from settings: the URL and user checks, the driver
//! setting reaching both the source and the mining connector.

use crate::errors::Code;
use crate::source::oracle::connect::Password;
use crate::source::oracle::{driver, OracleConnector};
use cdc_core::session::Connector;

fn settings(pairs: &[&str]) -> crate::settings::Settings {
    match crate::settings::Settings::from_pairs(pairs) {
        Ok(s) => s,
        Err(e) => panic!("settings: {e}"),
    }
}

#[test]
fn from_settings_checks_url_and_user() {
    let ok = crate::source::oracle_source(&settings(&[
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
fn the_driver_setting_reaches_the_connector() {
    let base = [
        "cdc.database.url=db.example.com:1521/ORCLPDB1",
        "cdc.database.user=c##cdc",
        "cdc.database.password=Very-Secret-1",
    ];
    let thin = crate::source::oracle_source(&settings(&base)).map(|c| c.driver());
    assert_eq!(thin.ok(), Some(driver::Driver::Thin));
    let mut pairs = base.to_vec();
    pairs.push("cdc.database.driver=thick");
    let s = settings(&pairs);
    assert_eq!(
        crate::source::oracle_source(&s).map(|c| c.driver()).ok(),
        Some(driver::Driver::Thick)
    );
    let mining = crate::source::oracle_mining(&s, "mine.example.com/M");
    assert_eq!(mining.map(|c| c.driver()).ok(), Some(driver::Driver::Thick));
}
