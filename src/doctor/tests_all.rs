//! Every misconfiguration at once: each still reported with its own id, severity and fix, and
//! none hiding another.

use super::tests::{fix, get, problems, Db};
use super::*;

const ALL_WRONG_DB: &str = r#"  version: 12.1.0.2.0
  archivelog: false
  force_logging: false
  supplemental_logging: { min: false }
  undo_retention: 10
  role: physical_standby
  open_mode: read_only_with_apply
  redo_groups: 2
  log_size: 12
  sessions: 10
  sessions_in_use: 8
  privileges: [CREATE SESSION, SELECT_CATALOG_ROLE, SELECT ANY TABLE]
"#;

const ALL_WRONG_TABLES: &str = r#"
  - name: HR.EMP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
    primary_key: [ID]
    rows: 20
  - name: HR.LOG
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: MSG, type: VARCHAR2(40) }
    row_movement: true
    supplemental_logging: all
    rows: 5
  - name: HR.IOT
    columns:
      - { name: AT, type: TIMESTAMP(6) WITH TIME ZONE, nullable: false }
    primary_key: [AT]
    organization: index_organized
    supplemental_logging: all
    rows: 3
  - name: HR.MAP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: SHAPE, type: MDSYS.SDO_GEOMETRY }
    primary_key: [ID]
    supplemental_logging: all
    rows: 2
  - name: HR.A_TABLE_NAME_THAT_IS_LONGER_THAN_30
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
    primary_key: [ID]
    supplemental_logging: all
    rows: 1
  - name: HR.DOC
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: BODY, type: CLOB }
    primary_key: [ID]
    supplemental_logging: all
    rows: 2
    statistics: missing
"#;

#[test]
fn every_misconfiguration_at_once_is_reported_by_its_own_check() {
    let db = Db::new(ALL_WRONG_DB, ALL_WRONG_TABLES);
    db.store_stream_position(1_000_001, false);
    let r = db.report(&["cdc.key.HR.GONE=ID", "cdc.database.user=CDC"]);
    assert_eq!(
        problems(&r),
        vec![
            ("connection.version", Severity::Warn),
            ("connection.role", Severity::Warn),
            ("redo.archivelog", Severity::Fail),
            ("redo.force-logging", Severity::Warn),
            ("redo.archive-dest", Severity::Skip),
            ("redo.log-size", Severity::Warn),
            ("redo.retention", Severity::Fail),
            ("supplemental.database", Severity::Fail),
            ("supplemental.table", Severity::Fail),
            ("privileges.snapshot", Severity::Fail),
            ("privileges.logmining", Severity::Fail),
            ("undo.retention", Severity::Warn),
            ("tables.keys", Severity::Warn),
            ("tables.row-movement-rowid", Severity::Warn),
            ("tables.iot-key", Severity::Warn),
            ("tables.column-types", Severity::Fail),
            ("tables.name-length", Severity::Fail),
            ("tables.lob", Severity::Warn),
            ("tables.estimate", Severity::Warn),
            ("settings.sessions", Severity::Fail),
            ("settings.references", Severity::Warn),
        ],
        "{:#?}",
        r.results
    );
    assert_eq!(r.exit_code(false), 1);
    // The fixes are each check's own, as when it is the only problem.
    assert!(fix(&r, "redo.archivelog").contains("ALTER DATABASE ARCHIVELOG;"));
    assert_eq!(
        fix(&r, "redo.force-logging"),
        "ALTER DATABASE FORCE LOGGING;"
    );
    assert_eq!(
        fix(&r, "supplemental.database"),
        "ALTER DATABASE ADD SUPPLEMENTAL LOG DATA;"
    );
    assert!(fix(&r, "supplemental.table")
        .starts_with("ALTER TABLE \"HR\".\"EMP\" ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;\n"));
    assert_eq!(
        fix(&r, "privileges.logmining"),
        "GRANT LOGMINING TO CDC;\nGRANT EXECUTE ON SYS.DBMS_LOGMNR TO CDC;"
    );
    assert!(fix(&r, "privileges.snapshot").contains("GRANT FLASHBACK ON \"HR\".\"EMP\" TO CDC;"));
    assert!(fix(&r, "undo.retention").starts_with("cdc.snapshot.chunk.rows: 50000\n"));
    assert!(fix(&r, "tables.row-movement-rowid")
        .starts_with("ALTER TABLE \"HR\".\"LOG\" DISABLE ROW MOVEMENT;"));
    assert!(fix(&r, "tables.iot-key").starts_with("cdc.key.HR.IOT: "));
    assert!(fix(&r, "tables.column-types").starts_with("cdc.columns.exclude: [HR.MAP.SHAPE]"));
    assert!(fix(&r, "tables.name-length").contains("RENAME TO <name of at most 30 bytes>"));
    assert!(fix(&r, "tables.lob").starts_with("cdc.columns.exclude: [HR.DOC.BODY]"));
    assert_eq!(
        fix(&r, "tables.estimate"),
        "EXEC DBMS_STATS.GATHER_TABLE_STATS('HR', 'DOC');"
    );
    assert!(fix(&r, "redo.retention").contains("RESTORE ARCHIVELOG FROM SCN 1000001"));
    assert!(fix(&r, "settings.sessions").contains("ALTER SYSTEM SET SESSIONS ="));
    assert_eq!(
        get(&r, "settings.references").found,
        "cdc.key.HR.GONE names no captured table"
    );
    // Selection runs exactly the chosen checks.
    let only = run(
        &db.settings(&[]),
        &Selection {
            only: vec!["redo".into(), "tables.lob".into()],
            skip: vec!["redo.log-size".into()],
        },
    );
    let ids: Vec<&str> = only.results.iter().map(|c| c.id).collect();
    assert_eq!(
        ids,
        vec![
            "redo.archivelog",
            "redo.force-logging",
            "redo.archive-dest",
            "redo.switch-rate",
            "redo.retention",
            "tables.lob"
        ]
    );
}
