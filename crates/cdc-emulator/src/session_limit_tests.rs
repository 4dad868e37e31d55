//! SESSIONS_PER_USER: a login past the user's profile limit fails with ORA-02391, a closed
//! session frees its place, and USER_RESOURCE_LIMITS / RESOURCE_LIMIT say so.

use crate::errors::Code;
use crate::testing::Db;
use cdc_core::model::SessionsPerUser;
use cdc_core::session::prelude::*;

fn schema(version: &str) -> String {
    format!(
        r#"
seed: 5
database:
  version: "{version}"
  users:
    - {{ name: CDC, sessions_per_user: 2 }}
    - {{ name: OTHER }}
tables:
  - name: HR.T
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
    primary_key: [ID]
    rows: 3
"#
    )
}

#[test]
fn a_login_past_sessions_per_user_is_ora_02391_until_one_closes() {
    let db = Db::new(&schema("19.22.0.0.0"));
    let cdc = db.connector().with_login(Some("CDC"), None);
    let first = cdc.emulator_session().unwrap();
    let second = cdc.emulator_session().unwrap();
    let third = cdc
        .emulator_session()
        .err()
        .expect("a third session of CDC");
    assert_eq!(third.code(), Code::Cdc2011, "{third}");
    assert!(third.to_string().contains("ORA-02391"), "{third}");
    // Another user's sessions are its own (the same database: a clone of the connector).
    let other = cdc.clone().with_login(Some("OTHER"), None);
    let others: Vec<_> = (0..3).map(|_| other.emulator_session().unwrap()).collect();
    assert_eq!(cdc.shared.sessions.held("OTHER", 0), 3);
    assert_eq!(cdc.shared.sessions.held("CDC", 0), 2);
    // A session's reader thread is the same session.
    let reader = first.reader();
    drop(first);
    assert!(
        cdc.emulator_session().is_err(),
        "the reader holds its session"
    );
    drop(reader);
    let again = cdc
        .emulator_session()
        .expect("the closed session's place is free");
    drop((second, again, others));
}

#[test]
fn the_limit_is_shown_and_enforced_from_12_1_0_2_only() {
    let db = Db::new(&schema("19.22.0.0.0"));
    let mut s = db
        .connector()
        .with_login(Some("CDC"), None)
        .emulator_session()
        .unwrap();
    let config = s.instance_config().unwrap();
    assert_eq!(config.sessions_per_user, Some(SessionsPerUser::Limit(2)));
    assert_eq!(config.resource_limit, Some(true));
    let mut o = db
        .connector()
        .with_login(Some("OTHER"), None)
        .emulator_session()
        .unwrap();
    let config = o.instance_config().unwrap();
    assert_eq!(config.sessions_per_user, Some(SessionsPerUser::Unlimited));

    // 12.1.0.1's RESOURCE_LIMIT is FALSE (TRUE from 12.1.0.2): the profile's limit is shown,
    // not enforced.
    let old = Db::new(&schema("12.1.0.1.0"));
    let cdc = old.connector().with_login(Some("CDC"), None);
    let held: Vec<_> = (0..3).map(|_| cdc.emulator_session().unwrap()).collect();
    let mut s = cdc.emulator_session().unwrap();
    let config = s.instance_config().unwrap();
    assert_eq!(config.resource_limit, Some(false));
    assert_eq!(config.sessions_per_user, Some(SessionsPerUser::Limit(2)));
    drop(held);
}
