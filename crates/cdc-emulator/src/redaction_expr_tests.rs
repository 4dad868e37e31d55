//! Data Redaction policy expressions (Data Redaction Guide 3.5, 2.9): a redacted column is
//! masked only for a session in which its deciding expression (its named expression, else the
//! policy's) is TRUE, and `read_policies` says which policies mask the session, as the adapter
//! finds by evaluating them in its session.

use crate::testing::*;
use crate::types::Value;
use cdc_core::model::Scn;
use cdc_core::session::prelude::*;

/// NAME is masked for everyone but CDC; HIRED for whoever lacks EXECUTE_CATALOG_ROLE (its named
/// expression takes precedence; the role stands for any role an expression asks about). HR.DEPT's
/// policy redacts no column.
const SCHEMA: &str = r#"
seed: 5
database:
  start_scn: 5000
  users:
    - { name: CDC, privileges: [all] }
    - { name: OTHER, privileges: [CREATE SESSION, SELECT ANY TABLE, FLASHBACK ANY TABLE, SELECT_CATALOG_ROLE] }
    - { name: HELPDESK, privileges: [CREATE SESSION, SELECT ANY TABLE, FLASHBACK ANY TABLE, SELECT_CATALOG_ROLE, EXECUTE_CATALOG_ROLE] }
tables:
  - name: HR.EMP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
      - { name: HIRED, type: DATE }
      - { name: PHOTO, type: RAW(4) }
      - { name: NOTE, type: VARCHAR2(4000) }
    primary_key: [ID]
    redaction_policies:
      - name: EMP_PRIVATE
        columns: [NAME, HIRED]
        expression: "SYS_CONTEXT('USERENV', 'SESSION_USER') != 'CDC' -- the capture user sees all"
        column_expressions:
          - name: HIRED_FOR_CATALOG
            expression: "SYS_CONTEXT('SYS_SESSION_ROLES', 'EXECUTE_CATALOG_ROLE') = 'FALSE'"
            columns: [HIRED]
  - name: HR.DEPT
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
    primary_key: [ID]
    redaction_policies:
      - { name: DEPT_NOTHING }
"#;

fn session(db: &Db, user: &str) -> crate::EmulatorSession {
    db.connector()
        .with_login(Some(user), None)
        .emulator_session()
        .unwrap()
}

/// ID, NAME, HIRED of every row as the session reads them.
fn read_emp(s: &mut dyn Session, scn: Scn) -> Vec<Vec<String>> {
    read_text(s, "HR.EMP", &["ID", "NAME", "HIRED"], scn)
}

fn one_row(db: &Db) -> Scn {
    let mut w = db.writer();
    let t = w.begin().unwrap();
    w.insert(t, 0, emp_row(1, "n1")).unwrap();
    w.commit(&[t]).unwrap()
}

#[test]
fn each_column_is_masked_only_where_its_deciding_expression_holds() {
    let db = Db::new(SCHEMA);
    let scn = one_row(&db);
    let hired = Value::Date("2020-01-01 00:00:00".into()).to_string();
    let redacted_date = Value::Date("2001-01-01 00:00:00".into()).to_string();
    let row = |name: &str, hired: &str| vec![vec!["1".to_string(), name.into(), hired.into()]];
    // CDC: the policy's expression is FALSE for NAME, the named one FALSE for HIRED.
    assert_eq!(read_emp(&mut session(&db, "CDC"), scn), row("n1", &hired));
    // OTHER: both TRUE.
    assert_eq!(
        read_emp(&mut session(&db, "OTHER"), scn),
        row(" ", &redacted_date)
    );
    // HELPDESK: the policy's TRUE for NAME; for HIRED its named expression, FALSE, decides.
    assert_eq!(
        read_emp(&mut session(&db, "HELPDESK"), scn),
        row(" ", &hired)
    );
}

#[test]
fn read_policies_says_which_policies_mask_the_session_and_which_do_not() {
    let db = Db::new(SCHEMA);
    let emp = "HR.EMP".parse().unwrap();
    let p = session(&db, "CDC").read_policies(&emp).unwrap();
    assert!(p.masking().is_empty(), "{p:?}");
    assert_eq!(p.redaction_not_applying, ["EMP_PRIVATE"]);
    for user in ["OTHER", "HELPDESK"] {
        let p = session(&db, user).read_policies(&emp).unwrap();
        assert_eq!(p.masking(), ["EMP_PRIVATE"], "{user}");
        assert!(p.redaction_not_applying.is_empty(), "{user}");
    }
    // A policy that redacts no column masks nothing, whatever its expression.
    let dept = "HR.DEPT".parse().unwrap();
    let p = session(&db, "OTHER").read_policies(&dept).unwrap();
    assert!(p.masking().is_empty(), "{p:?}");
    assert_eq!(p.redaction_not_applying, ["DEPT_NOTHING"]);
}

#[test]
fn an_expression_the_emulator_cannot_evaluate_is_refused_at_init() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.yaml");
    let policy = "\"SYS_CONTEXT('USERENV', 'SESSION_USER') != 'CDC' -- the capture user sees all\"";
    for (bad, says) in [
        (
            SCHEMA.replace(policy, "\"MY_CHECK() = 1\""),
            "EMP_PRIVATE: expression",
        ),
        (
            SCHEMA.replace(policy, "\"SYS_CONTEXT('USERENV', 'NO_SUCH') = 'X'\""),
            "ORA-02003",
        ),
        (SCHEMA.replace(policy, "\" \""), "ORA-28063"),
        (
            SCHEMA.replace(policy, "\"SYS_CONTEXT('USERENV', 'SESSION_USER')\""),
            "EMP_PRIVATE: expression",
        ),
        (
            SCHEMA.replace("columns: [HIRED]", "columns: [NOTE]"),
            "HIRED_FOR_CATALOG: `NOTE` is not one of the policy's columns",
        ),
    ] {
        std::fs::write(&path, &bad).unwrap();
        let e = crate::schema::SchemaFile::read(&path).unwrap_err();
        assert!(e.to_string().contains(says), "{says}: {e}");
    }
}

/// CDC, for whom nothing is evaluated: EMP_PRIVATE counts, yet CDC's reads of HR.EMP are whole
/// (the policy's expression is FALSE for CDC).
fn counts_every_policy_yet_reads_whole(db: &Db) {
    let scn = one_row(db);
    let mut cdc = session(db, "CDC");
    let p = cdc.read_policies(&"HR.EMP".parse().unwrap()).unwrap();
    assert_eq!(p.masking(), ["EMP_PRIVATE"]);
    let hired = Value::Date("2020-01-01 00:00:00".into()).to_string();
    assert_eq!(
        read_emp(&mut cdc, scn),
        [["1".to_string(), "n1".into(), hired]]
    );
}

/// A user that may read REDACTION_POLICIES (a grant on it) but not REDACTION_COLUMNS or
/// REDACTION_EXPRESSIONS cannot know which expression decides a column: every enabled policy
/// counts for it, as the adapter counts them, even where its reads are whole.
#[test]
fn without_the_columns_and_named_expressions_every_enabled_policy_counts() {
    let db = Db::new(&SCHEMA.replace(
        "{ name: CDC, privileges: [all] }",
        "{ name: CDC, privileges: [CREATE SESSION, SELECT ANY TABLE, FLASHBACK ANY TABLE, EXECUTE_CATALOG_ROLE, \"SYS.REDACTION_POLICIES:SELECT\"] }",
    ));
    counts_every_policy_yet_reads_whole(&db);
}

/// Before 12.2 there are no named policy expressions: the schema refuses them, and as the view
/// listing them does not exist (ORA-00942, as for a user who may not read it) nothing is
/// evaluated: every enabled policy counts.
#[test]
fn before_12_2_named_expressions_are_refused_and_nothing_is_evaluated() {
    let old = SCHEMA.replace("start_scn: 5000", "start_scn: 5000\n  version: 12.1.0.2.0");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.yaml");
    std::fs::write(&path, &old).unwrap();
    let e = crate::schema::SchemaFile::read(&path).unwrap_err();
    assert!(e.to_string().contains("need release 12.2"), "{e}");

    let start = old.find("        column_expressions:").unwrap();
    let end = old.find("  - name: HR.DEPT").unwrap();
    let db = Db::new(&format!("{}{}", &old[..start], &old[end..]));
    counts_every_policy_yet_reads_whole(&db);
}
