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
    // A user without a limit is not counted (its sessions touch no file).
    assert_eq!(cdc.shared.sessions.held("OTHER", 0), 0);
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

/// The count spans processes, as Oracle's does: a connector opened on its own (another
/// process's view of the database) sees the sessions the first holds, a session file left by a
/// process that ended counts no more, and the registry is gone once no process has the
/// database open.
#[test]
fn the_limit_counts_every_process_that_opens_the_database() {
    let db = Db::new(&schema("19.22.0.0.0"));
    let here = db.connector().with_login(Some("CDC"), None);
    let there = crate::EmulatorConnector::open(&db.path(), crate::Faults::default())
        .unwrap()
        .with_login(Some("CDC"), None);
    let first = here.emulator_session().unwrap();
    let _second = here.emulator_session().unwrap();
    let e = there
        .emulator_session()
        .err()
        .expect("a third session of CDC, in another process");
    assert_eq!(e.code(), Code::Cdc2011, "{e}");
    assert!(e.to_string().contains("ORA-02391"), "{e}");
    drop(first);
    let theirs = there
        .emulator_session()
        .expect("the place the first held is free");

    // A process that ended left its session's file: unlocked, it is swept, not counted.
    let registry = here.shared.sessions.dir.clone();
    let stale = registry.join(format!(
        "{}999999.0",
        crate::session_limit::prefix("CDC", 0)
    ));
    std::fs::write(&stale, "").unwrap();
    drop(theirs);
    let again = there
        .emulator_session()
        .expect("a stale file is no session");
    assert!(!stale.exists(), "the stale file was swept");
    drop(again);

    drop((here, there, _second));
    assert!(
        !registry.exists(),
        "the registry outlived the last process: {:?}",
        std::fs::read_dir(&registry)
            .map(|d| d.flatten().map(|e| e.file_name()).collect::<Vec<_>>())
    );
}

/// A registry whose database directory is gone and whose session files no process holds (its
/// processes were killed, so none removed it) is swept; one whose database is there, or whose
/// session is still held, stays.
#[test]
fn registries_of_databases_that_are_gone_are_swept() {
    use crate::session_limit::{registries, sweep_orphans};
    let root = registries();
    cdc_core::localfs::ensure_dir(&root).unwrap();
    let make = |name: &str, database: &std::path::Path| {
        let dir = root.join(name);
        cdc_core::localfs::ensure_dir(&dir).unwrap();
        std::fs::write(
            dir.join(".count.lock"),
            database.to_string_lossy().as_bytes(),
        )
        .unwrap();
        std::fs::write(dir.join("434443.0.1.0"), "").unwrap();
        dir
    };
    let here = tempfile::tempdir().unwrap();
    let gone = here.path().join("gone");
    let orphan = make("test-orphan-gone", &gone);
    let kept = make("test-orphan-there", here.path());
    let held = make("test-orphan-held", &gone);
    let holder = std::fs::File::open(held.join("434443.0.1.0")).unwrap();
    holder.lock().unwrap();
    sweep_orphans(&root.join("none"));
    assert!(!orphan.exists(), "the orphan stayed");
    assert!(
        kept.exists(),
        "a registry of a database that is there was swept"
    );
    assert!(held.exists(), "a registry with a session held was swept");
    drop(holder);
    sweep_orphans(&root.join("none"));
    assert!(!held.exists());
    std::fs::remove_dir_all(&kept).unwrap();
}
