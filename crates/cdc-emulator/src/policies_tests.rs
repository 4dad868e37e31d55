//! VPD, Data Redaction and ROW ARCHIVAL against what Oracle documents (see `policies`): a
//! non-exempt user's `AS OF SCN` reads are filtered, masked and without archived rows, an
//! exempt user's and SYS's are whole, and LogMiner's rows carry every change unfiltered.

use crate::testing::*;
use crate::types::Value;
use cdc_core::model::Scn;
use cdc_core::session::prelude::*;

const SCHEMA: &str = r#"
seed: 5
database:
  start_scn: 5000
  users:
    - { name: CDC }
    - { name: AUDITOR, privileges: [all, EXEMPT ACCESS POLICY, EXEMPT REDACTION POLICY] }
    - { name: PLAIN, privileges: [CREATE SESSION, SELECT ANY TABLE, FLASHBACK ANY TABLE] }
tables:
  - name: HR.EMP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
      - { name: HIRED, type: DATE }
      - { name: PHOTO, type: RAW(4) }
      - { name: NOTE, type: VARCHAR2(4000) }
    primary_key: [ID]
    access_policies:
      - { name: EMP_FIRST_TWO, predicate: "ID <= 2" }
      - { name: EMP_OFF, predicate: "ID = 1", enabled: false }
    redaction_policies:
      - { name: HIDE_NAME, columns: [NAME] }
    row_archival: { archived: "ID = 2" }
"#;

/// Four rows (ID 1..4; ID 3 with a NULL name) committed; the commit SCN.
fn four_rows(db: &Db) -> Scn {
    let mut w = db.writer();
    let t = w.begin().unwrap();
    for id in 1..=4 {
        let mut row = emp_row(id, &format!("n{id}"));
        if id == 3 {
            row[1] = Value::Null;
        }
        w.insert(t, 0, row).unwrap();
    }
    w.commit(&[t]).unwrap()
}

fn session(db: &Db, user: &str) -> crate::EmulatorSession {
    db.connector()
        .with_login(Some(user), None)
        .emulator_session()
        .unwrap()
}

fn ids_and_names(s: &mut dyn Session, scn: Scn) -> Vec<(String, String)> {
    read_text(s, "HR.EMP", &["ID", "NAME"], scn)
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn a_non_exempt_users_reads_are_filtered_masked_and_without_archived_rows() {
    let db = Db::new(SCHEMA);
    let scn = four_rows(&db);
    let null = Value::Null.to_string();
    // The in-process session stands for the adapter's (ROW ARCHIVAL VISIBILITY = ALL): the
    // enabled policy's predicate (ID <= 2), not the disabled one's, and NAME as a single space.
    let mut cdc = session(&db, "CDC");
    assert_eq!(
        ids_and_names(&mut cdc, scn),
        pairs(&[("1", " "), ("2", " ")])
    );
    // Oracle's default visibility: the archived row (ID 2) is gone too.
    cdc.set_archived_visible(false);
    assert_eq!(ids_and_names(&mut cdc, scn), pairs(&[("1", " ")]));

    // Exempt from both: every row, true values (a NULL stays NULL either way).
    let mut auditor = session(&db, "AUDITOR");
    assert_eq!(
        ids_and_names(&mut auditor, scn),
        pairs(&[("1", "n1"), ("2", "n2"), ("3", &null), ("4", "n4")])
    );
    auditor.set_archived_visible(false);
    assert_eq!(
        ids_and_names(&mut auditor, scn),
        pairs(&[("1", "n1"), ("3", &null), ("4", "n4")])
    );
    // SYS is exempt without the privileges.
    let mut sys = db.connector().sysdba().emulator_session().unwrap();
    assert_eq!(ids_and_names(&mut sys, scn).len(), 4);

    // LogMiner's rows, mined by the non-exempt user, carry every insert with its true values.
    let mined = mine(&mut cdc, 5000, scn);
    let inserts: Vec<&String> = mined
        .iter()
        .filter(|r| r.operation == "INSERT" && r.table_name.as_deref() == Some("EMP"))
        .map(|r| &r.sql_redo)
        .collect();
    assert_eq!(inserts.len(), 4, "{inserts:?}");
    assert!(inserts.iter().any(|s| s.contains("'n4'")), "{inserts:?}");
}

#[test]
fn read_policies_lists_enabled_policies_and_the_users_exemptions() {
    let db = Db::new(SCHEMA);
    let table = "HR.EMP".parse().unwrap();
    let p = session(&db, "CDC").read_policies(&table).unwrap();
    assert_eq!(p.row_access, Some(vec!["EMP_FIRST_TWO".to_string()]));
    assert_eq!(p.redaction, Some(vec!["HIDE_NAME".to_string()]));
    assert!(!p.exempt_access && !p.exempt_redaction);
    assert_eq!(p.filtering(), ["EMP_FIRST_TWO"]);

    let p = session(&db, "AUDITOR").read_policies(&table).unwrap();
    assert!(p.exempt_access && p.exempt_redaction);
    assert!(p.filtering().is_empty() && p.masking().is_empty());

    // Without SELECT_CATALOG_ROLE REDACTION_POLICIES does not exist for the user: unknown.
    let p = session(&db, "PLAIN").read_policies(&table).unwrap();
    assert_eq!(p.redaction, None);
    assert_eq!(p.row_access, Some(vec!["EMP_FIRST_TWO".to_string()]));

    // A table without policies has none.
    let other = "HR.NOPE".parse().unwrap();
    assert!(session(&db, "CDC").read_policies(&other).is_err());
}

#[test]
fn a_policy_naming_an_unknown_column_is_refused_at_init() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.yaml");
    for (bad, says) in [
        (
            SCHEMA.replace("\"ID <= 2\"", "\"NOPE <= 2\""),
            "EMP_FIRST_TWO",
        ),
        (
            SCHEMA.replace("columns: [NAME]", "columns: [PHOTO]"),
            "redacts only",
        ),
        (SCHEMA.replace("\"ID = 2\"", "\"NOPE = 2\""), "row_archival"),
    ] {
        std::fs::write(&path, &bad).unwrap();
        let e = crate::schema::SchemaFile::read(&path).unwrap_err();
        assert!(e.to_string().contains(says), "{e}");
    }
}

/// Column-level VPD: PAY_SALARY leaves out rows (ID > 2) of queries that reference SALARY;
/// PAY_SSN (ALL_ROWS) shows SSN as NULL where ID != 1 in queries that reference SSN.
const COLUMN_LEVEL: &str = r#"
seed: 5
database:
  start_scn: 5000
  users:
    - { name: CDC }
    - { name: AUDITOR, privileges: [all, EXEMPT ACCESS POLICY] }
tables:
  - name: HR.PAY
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
      - { name: SALARY, type: NUMBER(10) }
      - { name: SSN, type: VARCHAR2(11) }
    primary_key: [ID]
    access_policies:
      - { name: PAY_SALARY, predicate: "ID <= 2", columns: [SALARY] }
      - { name: PAY_SSN, predicate: "ID = 1", columns: [ssn], all_rows: true }
"#;

/// Four rows: (i, 'n<i>', i*100, 's<i>'); the commit SCN.
fn four_pay_rows(db: &Db) -> Scn {
    let mut w = db.writer();
    let t = w.begin().unwrap();
    for id in 1..=4i64 {
        let row = vec![
            Value::Number(id.to_string().into()),
            Value::Text(format!("n{id}").into()),
            Value::Number((id * 100).to_string().into()),
            Value::Text(format!("s{id}").into()),
        ];
        w.insert(t, 0, row).unwrap();
    }
    w.commit(&[t]).unwrap()
}

/// HR.PAY's `columns` (ID first: the key) under `filter`.
fn read_where(
    s: &mut dyn Session,
    columns: &[&str],
    filter: Option<&str>,
    scn: Scn,
) -> Vec<Vec<String>> {
    read_text_where(s, "HR.PAY", columns, filter, scn)
}

fn table(rows: &[&[&str]]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| r.iter().map(|v| v.to_string()).collect())
        .collect()
}

#[test]
fn a_column_level_policy_applies_only_to_reads_that_reference_its_columns() {
    let db = Db::new(COLUMN_LEVEL);
    let scn = four_pay_rows(&db);
    let null = Value::Null.to_string();
    let n = null.as_str();
    let mut cdc = session(&db, "CDC");
    // Neither policy's column referenced: every row, whole.
    assert_eq!(
        read_where(&mut cdc, &["ID", "NAME"], None, scn),
        table(&[&["1", "n1"], &["2", "n2"], &["3", "n3"], &["4", "n4"]])
    );
    // SALARY in the select list, or only in the condition: PAY_SALARY leaves out ID 3 and 4.
    assert_eq!(
        read_where(&mut cdc, &["ID", "SALARY"], None, scn),
        table(&[&["1", "100"], &["2", "200"]])
    );
    assert_eq!(
        read_where(&mut cdc, &["ID"], Some("salary > 0"), scn),
        table(&[&["1"], &["2"]])
    );
    // SSN (ALL_ROWS): every row, SSN NULL where ID != 1, also for the query's condition.
    assert_eq!(
        read_where(&mut cdc, &["ID", "SSN"], None, scn),
        table(&[&["1", "s1"], &["2", n], &["3", n], &["4", n]])
    );
    assert_eq!(
        read_where(&mut cdc, &["ID"], Some("SSN IS NOT NULL"), scn),
        table(&[&["1"]])
    );
    // Both: rows of PAY_SALARY, SSN of PAY_SSN.
    assert_eq!(
        read_where(&mut cdc, &["ID", "SALARY", "SSN"], None, scn),
        table(&[&["1", "100", "s1"], &["2", "200", n]])
    );
    // Exempt: whole.
    let mut auditor = session(&db, "AUDITOR");
    assert_eq!(
        read_where(&mut auditor, &["ID", "SALARY", "SSN"], None, scn).len(),
        4
    );
    assert_eq!(
        read_where(&mut auditor, &["ID", "SSN"], None, scn)[3],
        ["4".to_string(), "s4".to_string()]
    );
}

#[test]
fn read_policies_lists_the_column_level_policies_with_their_columns() {
    let db = Db::new(COLUMN_LEVEL);
    let p = session(&db, "CDC")
        .read_policies(&"HR.PAY".parse().unwrap())
        .unwrap();
    assert_eq!(
        p.row_access,
        Some(vec!["PAY_SALARY".to_string(), "PAY_SSN".to_string()])
    );
    let listed: Vec<(String, Vec<String>, bool)> = p
        .row_access_columns
        .iter()
        .map(|c| (c.policy.clone(), c.columns.clone(), c.all_rows))
        .collect();
    assert_eq!(
        listed,
        [
            ("PAY_SALARY".to_string(), vec!["SALARY".to_string()], false),
            ("PAY_SSN".to_string(), vec!["SSN".to_string()], true),
        ]
    );
    assert_eq!(p.filtering_read(|c| c == "NAME"), Vec::<String>::new());
    assert_eq!(p.filtering_read(|c| c == "SSN"), ["PAY_SSN"]);
}

#[test]
fn a_column_level_policy_naming_an_unknown_column_or_all_rows_alone_is_refused_at_init() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.yaml");
    for (bad, says) in [
        (
            COLUMN_LEVEL.replace("columns: [SALARY]", "columns: [WAGE]"),
            "no column `WAGE`",
        ),
        (
            COLUMN_LEVEL.replace("columns: [SALARY] }", "all_rows: true }"),
            "all_rows needs `columns`",
        ),
        (
            COLUMN_LEVEL.replace("all_rows: true }", "all_rows: true, select: false }"),
            "all_rows needs",
        ),
    ] {
        std::fs::write(&path, &bad).unwrap();
        let e = crate::schema::SchemaFile::read(&path).unwrap_err();
        assert!(e.to_string().contains(says), "{e}");
    }
}
