//! Pins the exact text of every statement in `sql.rs`: a change to what the tool sends to a
//! production database must show up as a test diff.

use super::*;

const USER_OWNER_T: &str =
    "t.OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y')";

#[test]
fn session_setup_statements() {
    assert_eq!(
        SESSION_NLS,
        "ALTER SESSION SET NLS_DATE_FORMAT='YYYY-MM-DD HH24:MI:SS' NLS_TIMESTAMP_FORMAT='YYYY-MM-DD HH24:MI:SS.FF9' NLS_TIMESTAMP_TZ_FORMAT='YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM' NLS_NUMERIC_CHARACTERS='.,'"
    );
    assert_eq!(SESSION_TIME_ZONE, "ALTER SESSION SET TIME_ZONE='00:00'");
    assert_eq!(
        SESSION_BINARY_SORT,
        "ALTER SESSION SET NLS_SORT='BINARY' NLS_COMP='BINARY'"
    );
    // One round trip for all four; each statement's quotes doubled inside its literal.
    assert_eq!(
        session_setup(),
        "BEGIN \
         EXECUTE IMMEDIATE 'ALTER SESSION SET NLS_DATE_FORMAT=''YYYY-MM-DD HH24:MI:SS'' NLS_TIMESTAMP_FORMAT=''YYYY-MM-DD HH24:MI:SS.FF9'' NLS_TIMESTAMP_TZ_FORMAT=''YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM'' NLS_NUMERIC_CHARACTERS=''.,'''; \
         EXECUTE IMMEDIATE 'ALTER SESSION SET TIME_ZONE=''00:00'''; \
         EXECUTE IMMEDIATE 'ALTER SESSION SET NLS_SORT=''BINARY'' NLS_COMP=''BINARY'''; \
         EXECUTE IMMEDIATE 'ALTER SESSION SET ROW ARCHIVAL VISIBILITY = ALL'; \
         END;"
    );
}

#[test]
fn scn_and_identity_statements() {
    assert_eq!(CURRENT_SCN, "SELECT CURRENT_SCN FROM V$DATABASE");
    assert_eq!(
        DATABASE_INFO,
        "SELECT DBID, NAME, CDB, LOG_MODE, FORCE_LOGGING, SUPPLEMENTAL_LOG_DATA_MIN, SUPPLEMENTAL_LOG_DATA_ALL, DATABASE_ROLE, OPEN_MODE, RESETLOGS_CHANGE# FROM V$DATABASE"
    );
    assert_eq!(
        PRODUCT_VERSION,
        "SELECT PRODUCT, VERSION FROM PRODUCT_COMPONENT_VERSION WHERE PRODUCT LIKE 'Oracle%Database%'"
    );
    assert_eq!(
        UNDO_PARAMETERS,
        "SELECT NAME, VALUE FROM V$PARAMETER WHERE NAME IN ('undo_retention', 'undo_tablespace')"
    );
    assert_eq!(
        UNDO_RETENTION_MODE,
        "SELECT RETENTION FROM DBA_TABLESPACES WHERE TABLESPACE_NAME = :tablespace_name"
    );
    assert_eq!(
        OPEN_PDBS,
        "SELECT NAME, RESTRICTED FROM V$PDBS WHERE NAME <> 'PDB$SEED' AND OPEN_MODE IN ('READ WRITE', 'READ ONLY') ORDER BY CON_ID"
    );
    assert_eq!(
        CONTAINER_NAME,
        "SELECT SYS_CONTEXT('USERENV', 'CON_NAME'), SYS_CONTEXT('USERENV', 'CON_ID') FROM DUAL"
    );
}

#[test]
fn set_container_quotes_the_container_name() {
    assert_eq!(
        set_container("PDB1").as_deref(),
        Ok("ALTER SESSION SET CONTAINER = \"PDB1\"")
    );
    assert_eq!(
        set_container("CDB$ROOT").as_deref(),
        Ok("ALTER SESSION SET CONTAINER = \"CDB$ROOT\"")
    );
    assert!(set_container("X\" ; DROP TABLE T").is_err());
    assert!(set_container("").is_err());
}

#[test]
fn privilege_statements() {
    assert_eq!(SESSION_PRIVILEGES, "SELECT PRIVILEGE FROM SESSION_PRIVS");
    assert_eq!(SESSION_ROLES, "SELECT ROLE FROM SESSION_ROLES");
    assert_eq!(
        OBJECT_PRIVILEGES,
        "SELECT TABLE_SCHEMA, TABLE_NAME, PRIVILEGE FROM ALL_TAB_PRIVS WHERE GRANTEE = USER OR GRANTEE IN (SELECT ROLE FROM SESSION_ROLES)"
    );
    assert_eq!(
        GOLDENGATE_PRIVILEGES,
        "SELECT PRIVILEGE_TYPE, GRANT_SELECT_PRIVILEGES FROM USER_GOLDENGATE_PRIVILEGES"
    );
}

#[test]
fn table_catalog_statements() {
    assert_eq!(
        TABLES,
        format!(
            "SELECT t.OWNER, t.TABLE_NAME, t.IOT_TYPE, t.ROW_MOVEMENT, t.NUM_ROWS, t.BLOCKS, TO_CHAR(t.LAST_ANALYZED, 'YYYY-MM-DD HH24:MI:SS'), t.PARTITIONED, t.CLUSTER_NAME FROM ALL_TABLES t WHERE {USER_OWNER_T} AND t.TEMPORARY = 'N' AND t.NESTED = 'NO' AND t.SECONDARY = 'N' AND t.DROPPED = 'NO' AND (t.IOT_TYPE IS NULL OR t.IOT_TYPE = 'IOT') AND NOT EXISTS (SELECT 1 FROM ALL_EXTERNAL_TABLES x WHERE x.OWNER = t.OWNER AND x.TABLE_NAME = t.TABLE_NAME) ORDER BY t.OWNER, t.TABLE_NAME"
        )
    );
    assert_eq!(
        STALE_STATS,
        "SELECT s.OWNER, s.TABLE_NAME FROM ALL_TAB_STATISTICS s WHERE s.OBJECT_TYPE = 'TABLE' AND s.STALE_STATS = 'YES' AND s.OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y')"
    );
    assert_eq!(
        COLUMNS,
        "SELECT c.OWNER, c.TABLE_NAME, c.COLUMN_NAME, c.DATA_TYPE, c.DATA_TYPE_OWNER, c.DATA_PRECISION, c.DATA_SCALE, c.CHAR_LENGTH, c.DATA_LENGTH, c.NULLABLE, c.VIRTUAL_COLUMN, c.HIDDEN_COLUMN FROM ALL_TAB_COLS c WHERE c.USER_GENERATED = 'YES' AND c.OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y') AND EXISTS (SELECT 1 FROM ALL_TABLES t WHERE t.OWNER = c.OWNER AND t.TABLE_NAME = c.TABLE_NAME) ORDER BY c.OWNER, c.TABLE_NAME, c.COLUMN_ID NULLS LAST, c.INTERNAL_COLUMN_ID"
    );
    assert_eq!(
        KEYS,
        "SELECT c.OWNER, c.TABLE_NAME, c.CONSTRAINT_NAME, c.CONSTRAINT_TYPE, cc.COLUMN_NAME FROM ALL_CONSTRAINTS c JOIN ALL_CONS_COLUMNS cc ON cc.OWNER = c.OWNER AND cc.CONSTRAINT_NAME = c.CONSTRAINT_NAME AND cc.TABLE_NAME = c.TABLE_NAME WHERE c.CONSTRAINT_TYPE IN ('P', 'U') AND c.STATUS = 'ENABLED' AND c.OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y') ORDER BY c.OWNER, c.TABLE_NAME, c.CONSTRAINT_TYPE, c.CONSTRAINT_NAME, cc.POSITION"
    );
    assert_eq!(
        TABLE_COLUMNS,
        "SELECT c.OWNER, c.TABLE_NAME, c.COLUMN_NAME, c.DATA_TYPE, c.DATA_TYPE_OWNER, c.DATA_PRECISION, c.DATA_SCALE, c.CHAR_LENGTH, c.DATA_LENGTH, c.NULLABLE, c.VIRTUAL_COLUMN, c.HIDDEN_COLUMN FROM ALL_TAB_COLS c WHERE c.OWNER = :owner AND c.TABLE_NAME = :table_name AND c.USER_GENERATED = 'YES' ORDER BY c.COLUMN_ID NULLS LAST, c.INTERNAL_COLUMN_ID"
    );
    assert_eq!(
        UNIQUE_INDEXES,
        "SELECT i.TABLE_OWNER, i.TABLE_NAME, i.OWNER, i.INDEX_NAME, ic.COLUMN_NAME FROM ALL_INDEXES i JOIN ALL_IND_COLUMNS ic ON ic.INDEX_OWNER = i.OWNER AND ic.INDEX_NAME = i.INDEX_NAME WHERE i.UNIQUENESS = 'UNIQUE' AND i.TABLE_TYPE = 'TABLE' AND i.INDEX_TYPE IN ('NORMAL', 'NORMAL/REV') AND i.TABLE_OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y') ORDER BY i.TABLE_OWNER, i.TABLE_NAME, i.OWNER, i.INDEX_NAME, ic.COLUMN_POSITION"
    );
    assert_eq!(
        DATA_OBJECTS,
        "SELECT o.OWNER, o.OBJECT_NAME, o.SUBOBJECT_NAME, o.OBJECT_TYPE, o.DATA_OBJECT_ID, o.OBJECT_ID FROM DBA_OBJECTS o WHERE o.OBJECT_TYPE IN ('TABLE', 'TABLE PARTITION', 'TABLE SUBPARTITION') AND o.DATA_OBJECT_ID IS NOT NULL AND o.OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y') ORDER BY o.OWNER, o.OBJECT_NAME, o.OBJECT_TYPE, o.SUBOBJECT_NAME"
    );
    assert_eq!(
        ALL_COLUMN_LOG_GROUPS,
        "SELECT g.OWNER, g.TABLE_NAME FROM ALL_LOG_GROUPS g WHERE g.LOG_GROUP_TYPE = 'ALL COLUMN LOGGING' AND g.OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y')"
    );
    assert_eq!(
        TABLE_COLUMN_TYPES,
        "SELECT COLUMN_NAME, DATA_TYPE FROM ALL_TAB_COLS WHERE OWNER = :owner AND TABLE_NAME = :table_name"
    );
    assert_eq!(
        EXTENTS,
        "SELECT e.PARTITION_NAME, o.DATA_OBJECT_ID, e.RELATIVE_FNO, e.BLOCK_ID, e.BLOCKS, t.BIGFILE FROM DBA_EXTENTS e JOIN DBA_OBJECTS o ON o.OWNER = e.OWNER AND o.OBJECT_NAME = e.SEGMENT_NAME AND o.OBJECT_TYPE = e.SEGMENT_TYPE AND DECODE(o.SUBOBJECT_NAME, e.PARTITION_NAME, 1, 0) = 1 JOIN DBA_TABLESPACES t ON t.TABLESPACE_NAME = e.TABLESPACE_NAME WHERE e.OWNER = :owner AND e.SEGMENT_NAME = :table_name AND e.SEGMENT_TYPE IN ('TABLE', 'TABLE PARTITION', 'TABLE SUBPARTITION') AND o.DATA_OBJECT_ID IS NOT NULL ORDER BY e.RELATIVE_FNO, e.BLOCK_ID"
    );
    assert_eq!(
        CLUSTER_EXTENTS,
        "SELECT e.PARTITION_NAME, o.DATA_OBJECT_ID, e.RELATIVE_FNO, e.BLOCK_ID, e.BLOCKS, t.BIGFILE FROM DBA_EXTENTS e JOIN DBA_OBJECTS o ON o.OWNER = e.OWNER AND o.OBJECT_NAME = e.SEGMENT_NAME AND o.OBJECT_TYPE = e.SEGMENT_TYPE JOIN DBA_TABLESPACES t ON t.TABLESPACE_NAME = e.TABLESPACE_NAME WHERE e.OWNER = :owner AND e.SEGMENT_NAME = :cluster_name AND e.SEGMENT_TYPE = 'CLUSTER' AND o.DATA_OBJECT_ID IS NOT NULL ORDER BY e.RELATIVE_FNO, e.BLOCK_ID"
    );
}

#[test]
fn transaction_and_log_statements() {
    assert_eq!(
        OPEN_TRANSACTIONS,
        "SELECT t.XIDUSN, t.XIDSLOT, t.XIDSQN, t.START_SCNB, t.START_SCNW, i.THREAD# FROM GV$TRANSACTION t JOIN GV$INSTANCE i ON i.INST_ID = t.INST_ID ORDER BY t.START_SCNW, t.START_SCNB"
    );
    assert_eq!(
        ONLINE_LOGS,
        "SELECT MIN(f.MEMBER), l.THREAD#, l.SEQUENCE#, l.FIRST_CHANGE#, l.NEXT_CHANGE#, l.STATUS FROM V$LOG l JOIN V$LOGFILE f ON f.GROUP# = l.GROUP# WHERE f.TYPE = 'ONLINE' AND (f.STATUS IS NULL OR f.STATUS NOT IN ('INVALID', 'STALE', 'DELETED')) AND l.STATUS IN ('CURRENT', 'ACTIVE', 'INACTIVE') GROUP BY l.GROUP#, l.THREAD#, l.SEQUENCE#, l.FIRST_CHANGE#, l.NEXT_CHANGE#, l.STATUS ORDER BY l.THREAD#, l.SEQUENCE#"
    );
    assert_eq!(
        ARCHIVED_LOGS,
        "SELECT a.NAME, a.THREAD#, a.SEQUENCE#, a.FIRST_CHANGE#, a.NEXT_CHANGE# FROM V$ARCHIVED_LOG a CROSS JOIN V$DATABASE d WHERE a.STATUS = 'A' AND a.ARCHIVED = 'YES' AND a.NAME IS NOT NULL AND a.STANDBY_DEST = 'NO' AND a.RESETLOGS_CHANGE# = d.RESETLOGS_CHANGE# AND a.RESETLOGS_TIME = d.RESETLOGS_TIME AND a.DEST_ID IN (SELECT s.DEST_ID FROM V$ARCHIVE_DEST_STATUS s WHERE s.STATUS = 'VALID' AND s.TYPE = 'LOCAL') ORDER BY a.THREAD#, a.SEQUENCE#, a.DEST_ID"
    );
}

#[test]
fn host_utc_offset_statement() {
    assert_eq!(
        HOST_UTC_OFFSET,
        "SELECT TO_CHAR(SYSTIMESTAMP, 'TZH:TZM') FROM DUAL"
    );
    assert_eq!(
        TIME_AT_DBTIMEZONE,
        "SELECT VALUE FROM V$PARAMETER WHERE NAME = 'time_at_dbtimezone'"
    );
    assert_eq!(
        DATE_CLOCK,
        "SELECT TO_CHAR(SCN_TO_TIMESTAMP(CURRENT_SCN), 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(SYS_EXTRACT_UTC(SYSTIMESTAMP), 'YYYY-MM-DD HH24:MI:SS') FROM V$DATABASE"
    );
}

/// The clock of the database's DATEs from one reading of it beside UTC: a quarter-hour offset,
/// a few seconds of SCN-to-time granularity forgiven, a stale reading refused.
#[test]
fn a_clock_offset_is_the_quarter_hour_nearest_the_difference() {
    use cdc_core::model::clock_offset_secs;
    let utc = "2026-03-01 12:00:00";
    for (local, want) in [
        ("2026-03-01 17:30:02", Some(5 * 3600 + 1800)),
        ("2026-03-01 03:59:57", Some(-8 * 3600)),
        ("2026-03-02 01:45:00", Some(13 * 3600 + 2700)),
        ("2026-03-01 12:00:00", Some(0)),
        // Seven minutes from any quarter hour: a stale SCN_TO_TIMESTAMP, not an offset.
        ("2026-03-01 12:07:00", None),
        // Beyond -12:00..+14:00.
        ("2026-03-02 03:00:00", None),
        ("not a time", None),
    ] {
        assert_eq!(clock_offset_secs(local, utc), want, "{local}");
    }
}

#[test]
fn pdb_supplemental_logging_statement() {
    assert_eq!(
        PDB_SUPPLEMENTAL_LOGGING,
        "SELECT MINIMAL, PRIMARY_KEY, UNIQUE_INDEX, FOREIGN_KEY, ALL_COLUMN FROM DBA_SUPPLEMENTAL_LOGGING"
    );
}

#[test]
fn redo_thread_statement() {
    assert_eq!(
        REDO_THREADS,
        "SELECT THREAD#, STATUS, ENABLED, SEQUENCE#, LAST_REDO_CHANGE#, TO_CHAR(LAST_REDO_TIME, 'YYYY-MM-DD HH24:MI:SS'), LAST_REDO_SEQUENCE#, LAST_REDO_BLOCK, ENABLE_CHANGE# FROM V$THREAD ORDER BY THREAD#"
    );
    assert_eq!(
        LOWEST_INSTANCE_SCN,
        "SELECT MIN(CURRENT_SCN) FROM GV$DATABASE"
    );
}

#[test]
fn downstream_log_statements() {
    assert_eq!(
        FOREIGN_LOGS,
        "SELECT a.NAME, a.THREAD#, a.SEQUENCE#, a.FIRST_CHANGE#, a.NEXT_CHANGE#, a.SOURCE_DBID, a.RESETLOGS_CHANGE# FROM V$FOREIGN_ARCHIVED_LOG a WHERE a.STATUS = 'A' AND a.NAME IS NOT NULL ORDER BY a.SOURCE_DBID, a.THREAD#, a.SEQUENCE#"
    );
    assert_eq!(
        STANDBY_LOGS,
        "SELECT MIN(f.MEMBER), l.THREAD#, l.SEQUENCE#, l.FIRST_CHANGE#, l.NEXT_CHANGE#, l.LAST_CHANGE#, l.DBID FROM V$STANDBY_LOG l JOIN V$LOGFILE f ON f.GROUP# = l.GROUP# WHERE f.TYPE = 'STANDBY' AND (f.STATUS IS NULL OR f.STATUS NOT IN ('INVALID', 'STALE', 'DELETED')) AND l.STATUS = 'ACTIVE' GROUP BY l.GROUP#, l.THREAD#, l.SEQUENCE#, l.FIRST_CHANGE#, l.NEXT_CHANGE#, l.LAST_CHANGE#, l.DBID ORDER BY l.THREAD#, l.SEQUENCE#"
    );
    assert_eq!(
        FOREIGN_DICTIONARY_LOGS,
        "SELECT a.THREAD#, a.SEQUENCE#, a.FIRST_CHANGE#, a.NEXT_CHANGE#, a.DICTIONARY_BEGIN, a.DICTIONARY_END, a.SOURCE_DBID, a.RESETLOGS_CHANGE# FROM V$FOREIGN_ARCHIVED_LOG a WHERE a.STATUS = 'A' AND a.NAME IS NOT NULL AND (a.DICTIONARY_BEGIN = 'YES' OR a.DICTIONARY_END = 'YES') ORDER BY a.THREAD#, a.SEQUENCE#"
    );
}

#[test]
fn preflight_statements() {
    assert_eq!(
        INSTANCE_PARAMETERS,
        "SELECT NAME, VALUE FROM V$PARAMETER WHERE NAME IN ('compatible', 'undo_tablespace', 'enable_goldengate_replication', 'max_string_size', 'time_at_dbtimezone', 'resource_limit')"
    );
    assert_eq!(
        CHARACTER_SETS,
        "SELECT PARAMETER, VALUE FROM NLS_DATABASE_PARAMETERS WHERE PARAMETER IN ('NLS_CHARACTERSET', 'NLS_NCHAR_CHARACTERSET')"
    );
    assert_eq!(
        RESOURCE_LIMITS,
        "SELECT RESOURCE_NAME, CURRENT_UTILIZATION, LIMIT_VALUE FROM V$RESOURCE_LIMIT WHERE RESOURCE_NAME IN ('processes', 'sessions')"
    );
    assert_eq!(
        SESSIONS_PER_USER,
        "SELECT LIMIT FROM USER_RESOURCE_LIMITS WHERE RESOURCE_NAME = 'SESSIONS_PER_USER'"
    );
    assert_eq!(
        ARCHIVE_DESTINATIONS,
        "SELECT s.DEST_ID, s.DEST_NAME, s.STATUS, s.TYPE, d.DESTINATION FROM V$ARCHIVE_DEST_STATUS s JOIN V$ARCHIVE_DEST d ON d.DEST_ID = s.DEST_ID WHERE s.STATUS <> 'INACTIVE' ORDER BY s.DEST_ID"
    );
    assert_eq!(
        REDO_GROUPS,
        "SELECT GROUP#, THREAD#, BYTES, MEMBERS FROM V$LOG ORDER BY THREAD#, GROUP#"
    );
    assert_eq!(
        LOG_SWITCHES,
        "SELECT THREAD#, TO_CHAR(TRUNC(FIRST_TIME, 'HH24'), 'YYYY-MM-DD HH24'), COUNT(*) FROM V$LOG_HISTORY WHERE FIRST_TIME > (SELECT CAST(SCN_TO_TIMESTAMP(CURRENT_SCN) AS DATE) - 1 FROM V$DATABASE) GROUP BY THREAD#, TRUNC(FIRST_TIME, 'HH24') ORDER BY 1, 2"
    );
}

#[test]
fn logminer_statements() {
    assert_eq!(
        ADD_FIRST_LOGFILE,
        "BEGIN SYS.DBMS_LOGMNR.ADD_LOGFILE(LOGFILENAME => :logfilename, OPTIONS => SYS.DBMS_LOGMNR.NEW); END;"
    );
    assert_eq!(
        ADD_LOGFILE,
        "BEGIN SYS.DBMS_LOGMNR.ADD_LOGFILE(LOGFILENAME => :logfilename, OPTIONS => SYS.DBMS_LOGMNR.ADDFILE); END;"
    );
    assert_eq!(
        START_LOGMNR,
        "BEGIN SYS.DBMS_LOGMNR.START_LOGMNR(STARTSCN => :startscn, ENDSCN => :endscn, OPTIONS => SYS.DBMS_LOGMNR.DICT_FROM_ONLINE_CATALOG + SYS.DBMS_LOGMNR.NO_ROWID_IN_STMT); END;"
    );
    assert_eq!(END_LOGMNR, "BEGIN SYS.DBMS_LOGMNR.END_LOGMNR; END;");
    assert_eq!(
        START_LOGMNR_REDO_DICTIONARY,
        "BEGIN SYS.DBMS_LOGMNR.START_LOGMNR(STARTSCN => :startscn, ENDSCN => :endscn, OPTIONS => SYS.DBMS_LOGMNR.DICT_FROM_REDO_LOGS + SYS.DBMS_LOGMNR.DDL_DICT_TRACKING + SYS.DBMS_LOGMNR.NO_ROWID_IN_STMT); END;"
    );
    assert_eq!(
        DICTIONARY_LOGS,
        "SELECT a.THREAD#, a.SEQUENCE#, a.FIRST_CHANGE#, a.NEXT_CHANGE#, a.DICTIONARY_BEGIN, a.DICTIONARY_END FROM V$ARCHIVED_LOG a CROSS JOIN V$DATABASE d WHERE a.STATUS = 'A' AND a.ARCHIVED = 'YES' AND a.NAME IS NOT NULL AND a.STANDBY_DEST = 'NO' AND a.RESETLOGS_CHANGE# = d.RESETLOGS_CHANGE# AND a.RESETLOGS_TIME = d.RESETLOGS_TIME AND a.DEST_ID IN (SELECT s.DEST_ID FROM V$ARCHIVE_DEST_STATUS s WHERE s.STATUS = 'VALID' AND s.TYPE = 'LOCAL') AND (a.DICTIONARY_BEGIN = 'YES' OR a.DICTIONARY_END = 'YES') ORDER BY a.THREAD#, a.SEQUENCE#"
    );
    assert_eq!(
        LOGMNR_CONTENTS,
        "SELECT SCN, COMMIT_SCN, START_SCN, TO_CHAR(TIMESTAMP, 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(COMMIT_TIMESTAMP, 'YYYY-MM-DD HH24:MI:SS'), XID, XIDUSN, XIDSLT, XIDSQN, OPERATION_CODE, OPERATION, SEG_OWNER, TABLE_NAME, ROW_ID, SQL_REDO, CSF, ROLLBACK, RS_ID, SSN, THREAD#, SEQUENCE#, STATUS, INFO, SRC_CON_NAME, USERNAME, DATA_OBJ# FROM V$LOGMNR_CONTENTS WHERE SCN >= :startscn AND SCN <= :endscn"
    );
}

#[test]
fn logminer_contents_selects_every_column_of_the_facts() {
    // oracle-facts §5 lists these columns; the select must carry each one.
    for column in [
        "SCN",
        "COMMIT_SCN",
        "START_SCN",
        "TIMESTAMP",
        "COMMIT_TIMESTAMP",
        "XID",
        "XIDUSN",
        "XIDSLT",
        "XIDSQN",
        "OPERATION_CODE",
        "OPERATION",
        "SEG_OWNER",
        "TABLE_NAME",
        "ROW_ID",
        "SQL_REDO",
        "CSF",
        "ROLLBACK",
        "RS_ID",
        "SSN",
        "THREAD#",
        "SEQUENCE#",
        "STATUS",
        "INFO",
        "SRC_CON_NAME",
        "USERNAME",
        "DATA_OBJ#",
    ] {
        let select_list = LOGMNR_CONTENTS.split(" FROM ").next().unwrap_or_default();
        let found = select_list
            .split([',', ' ', '(', ')'])
            .any(|token| token == column);
        assert!(found, "{column} missing from LOGMNR_CONTENTS");
    }
}

fn emp() -> TableName {
    TableName::new(None, "HR", "EMP")
}

fn keys<'a>(names: &[&'a str]) -> Vec<SelectItem<'a>> {
    names.iter().map(|c| SelectItem::Plain(c)).collect()
}

/// An export of plain rows reads no ROWID: the select list is the columns alone, the ORDER BY
/// and the ROWID range (which need no ROWID in the list) as before.
#[test]
fn flashback_without_row_ids_selects_the_columns_alone() {
    let keyed = flashback_select(
        &emp(),
        &[SelectItem::Plain("ID"), SelectItem::Plain("NAME")],
        &keys(&["ID"]),
        1234,
        &ChunkRange::Whole,
        None,
        false,
    )
    .unwrap();
    assert_eq!(
        keyed.text,
        "SELECT \"ID\", \"NAME\" FROM \"HR\".\"EMP\" AS OF SCN :scn ORDER BY \"ID\""
    );
    let by_rowid = flashback_select(
        &emp(),
        &[SelectItem::Plain("ID")],
        &[],
        1234,
        &ChunkRange::Rowid {
            start: "AAAR3sAAEAAAACXAAA".into(),
            end: "AAAR3sAAEAAAACfCcP".into(),
        },
        None,
        false,
    )
    .unwrap();
    assert_eq!(
        by_rowid.text,
        "SELECT \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ROWID BETWEEN \
         CHARTOROWID(:rowid_start) AND CHARTOROWID(:rowid_end) ORDER BY ROWID"
    );
}

#[test]
fn flashback_whole_table_orders_by_key() {
    let s = flashback_select(
        &emp(),
        &[SelectItem::Plain("ID"), SelectItem::Plain("NAME")],
        &keys(&["ID"]),
        1234,
        &ChunkRange::Whole,
        None,
        true,
    )
    .unwrap();
    assert_eq!(
        s.text,
        "SELECT ROWID, \"ID\", \"NAME\" FROM \"HR\".\"EMP\" AS OF SCN :scn ORDER BY \"ID\""
    );
    assert_eq!(s.binds, vec![("scn".into(), Value::Number("1234".into()))]);
}

#[test]
fn flashback_single_key_range_is_lower_inclusive_upper_exclusive() {
    let s = flashback_select(
        &emp(),
        &[SelectItem::Plain("ID")],
        &keys(&["ID"]),
        7,
        &ChunkRange::Key {
            lower: Some(vec![Value::Number("10".into())]),
            upper: Some(vec![Value::Number("20".into())]),
        },
        None,
        true,
    )
    .unwrap();
    assert_eq!(
        s.text,
        "SELECT ROWID, \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ((\"ID\" >= :l1)) AND ((\"ID\" < :u1)) ORDER BY \"ID\""
    );
    let names: Vec<&str> = s.binds.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["scn", "l1", "u1"]);
}

#[test]
fn flashback_composite_key_is_expanded_column_by_column() {
    let s = flashback_select(
        &emp(),
        &[
            SelectItem::Plain("A"),
            SelectItem::Plain("B"),
            SelectItem::Plain("C"),
        ],
        &keys(&["A", "B", "C"]),
        7,
        &ChunkRange::Key {
            lower: Some(vec![
                Value::Number("1".into()),
                Value::Text("x".into()),
                Value::Date("2020-01-01 00:00:00".into()),
            ]),
            upper: None,
        },
        None,
        true,
    )
    .unwrap();
    assert_eq!(
        s.text,
        "SELECT ROWID, \"A\", \"B\", \"C\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ((\"A\" > :l1) OR (\"A\" = :l1 AND \"B\" > :l2) OR (\"A\" = :l1 AND \"B\" = :l2 AND \"C\" >= TO_DATE(:l3, 'YYYY-MM-DD HH24:MI:SS'))) ORDER BY \"A\", \"B\", \"C\""
    );
    let upper_only = flashback_select(
        &emp(),
        &[SelectItem::Plain("A")],
        &keys(&["A", "B"]),
        7,
        &ChunkRange::Key {
            lower: None,
            upper: Some(vec![
                Value::Timestamp("2020-01-01 00:00:00.000000000".into()),
                Value::Bytes(vec![1]),
            ]),
        },
        None,
        true,
    )
    .unwrap();
    assert_eq!(
        upper_only.text,
        "SELECT ROWID, \"A\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ((\"A\" < TO_TIMESTAMP(:u1, 'YYYY-MM-DD HH24:MI:SS.FF9')) OR (\"A\" = TO_TIMESTAMP(:u1, 'YYYY-MM-DD HH24:MI:SS.FF9') AND \"B\" < :u2)) ORDER BY \"A\", \"B\""
    );
}

/// TIMESTAMP WITH TIME ZONE columns and keys are selected as TO_CHAR text with the offset, and
/// key bounds of that text convert back with the same format.
#[test]
fn timestamp_tz_is_selected_as_text_with_its_offset() {
    let lower = [Value::TimestampTz(
        "2020-01-01 00:00:00.000000000 +01:00".into(),
    )];
    let read = flashback_select(
        &emp(),
        &[SelectItem::TimestampTz("AT"), SelectItem::Plain("N")],
        &keys(&["AT"]),
        5,
        &ChunkRange::Key {
            lower: Some(lower.to_vec()),
            upper: None,
        },
        None,
        true,
    )
    .unwrap();
    assert_eq!(
        read.text,
        "SELECT ROWID, TO_CHAR(\"AT\", 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM'), \"N\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ((\"AT\" >= TO_TIMESTAMP_TZ(:l1, 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM'))) ORDER BY \"AT\""
    );
    let range = key_range_select(&emp(), SelectItem::TimestampTz("AT"), Some(5)).unwrap();
    assert_eq!(
        range.text,
        "SELECT TO_CHAR(MIN(\"AT\"), 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM'), TO_CHAR(MAX(\"AT\"), 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM') FROM \"HR\".\"EMP\" AS OF SCN :scn"
    );
    let probe = key_boundaries_select(
        &emp(),
        &[SelectItem::Plain("ID"), SelectItem::TimestampTz("AT")],
        5,
        None,
        10,
        2,
    )
    .unwrap();
    assert_eq!(
        probe.text,
        "SELECT K1, TO_CHAR(K2, 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM') FROM (SELECT \"ID\" K1, \"AT\" K2, ROW_NUMBER() OVER (ORDER BY \"ID\", \"AT\") RN FROM \"HR\".\"EMP\" AS OF SCN :scn) WHERE RN > 1 AND RN <= :max_rn AND MOD(RN - 1, :step) = 0 ORDER BY RN"
    );
    // Only comparable columns can be keys.
    assert!(key_range_select(&emp(), SelectItem::Json("DOC"), None).is_err());
    assert!(key_boundaries_select(&emp(), &[SelectItem::Xml("X")], 5, None, 1, 1).is_err());
}

#[test]
fn flashback_rowid_range_orders_by_rowid() {
    let s = flashback_select(
        &emp(),
        &[
            SelectItem::Plain("ID"),
            SelectItem::Json("DOC"),
            SelectItem::Vector("V"),
            SelectItem::Xml("X"),
        ],
        &[],
        99,
        &ChunkRange::Rowid {
            start: "AAAR3sAAEAAAACXAAA".into(),
            end: "AAAR3sAAEAAAACfH//".into(),
        },
        None,
        true,
    )
    .unwrap();
    assert_eq!(
        s.text,
        "SELECT ROWID, \"ID\", JSON_SERIALIZE(\"DOC\" RETURNING CLOB), VECTOR_SERIALIZE(\"V\" RETURNING CLOB), XMLSERIALIZE(CONTENT \"X\" AS CLOB) FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ROWID BETWEEN CHARTOROWID(:rowid_start) AND CHARTOROWID(:rowid_end) ORDER BY ROWID"
    );
    assert_eq!(
        s.binds[1],
        (
            "rowid_start".into(),
            Value::Text("AAAR3sAAEAAAACXAAA".into())
        )
    );
}

#[test]
fn flashback_refuses_bad_input() {
    let bad_ident = flashback_select(
        &TableName::new(None, "HR", "E\"; DROP TABLE X; --"),
        &[SelectItem::Plain("ID")],
        &[],
        1,
        &ChunkRange::Whole,
        None,
        true,
    );
    assert!(bad_ident.is_err());
    let wrong_arity = flashback_select(
        &emp(),
        &[SelectItem::Plain("ID")],
        &keys(&["A", "B"]),
        1,
        &ChunkRange::Key {
            lower: Some(vec![Value::Number("1".into())]),
            upper: None,
        },
        None,
        true,
    );
    assert!(wrong_arity.is_err());
    let null_bound = flashback_select(
        &emp(),
        &[SelectItem::Plain("ID")],
        &keys(&["A"]),
        1,
        &ChunkRange::Key {
            lower: Some(vec![Value::Null]),
            upper: None,
        },
        None,
        true,
    );
    assert!(null_bound.is_err());
}

#[test]
fn flashback_filter_is_anded_after_the_range() {
    let key = flashback_select(
        &emp(),
        &[SelectItem::Plain("ID")],
        &keys(&["ID"]),
        7,
        &ChunkRange::Key {
            lower: Some(vec![Value::Number("10".into())]),
            upper: Some(vec![Value::Number("20".into())]),
        },
        Some("  STATUS = 'A' OR NAME LIKE 'x%'  "),
        true,
    )
    .unwrap();
    assert_eq!(
        key.text,
        "SELECT ROWID, \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ((\"ID\" >= :l1)) AND ((\"ID\" < :u1)) AND (STATUS = 'A' OR NAME LIKE 'x%') ORDER BY \"ID\""
    );
    let names: Vec<&str> = key.binds.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["scn", "l1", "u1"]);

    let whole = flashback_select(
        &emp(),
        &[SelectItem::Plain("ID")],
        &keys(&["ID"]),
        7,
        &ChunkRange::Whole,
        Some("REGION IN ('EU', 'US')"),
        true,
    )
    .unwrap();
    assert_eq!(
        whole.text,
        "SELECT ROWID, \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE (REGION IN ('EU', 'US')) ORDER BY \"ID\""
    );

    let open_key = flashback_select(
        &emp(),
        &[SelectItem::Plain("ID")],
        &keys(&["ID"]),
        7,
        &ChunkRange::Key {
            lower: None,
            upper: None,
        },
        Some("ID > 0"),
        true,
    )
    .unwrap();
    assert_eq!(
        open_key.text,
        "SELECT ROWID, \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE (ID > 0) ORDER BY \"ID\""
    );

    let rowid = flashback_select(
        &emp(),
        &[SelectItem::Plain("ID")],
        &[],
        7,
        &ChunkRange::Rowid {
            start: "AAAR3sAAEAAAACXAAA".into(),
            end: "AAAR3sAAEAAAACfH//".into(),
        },
        Some("\"Weird (name\" = q'[it's (odd]'"),
        true,
    )
    .unwrap();
    assert_eq!(
        rowid.text,
        "SELECT ROWID, \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ROWID BETWEEN CHARTOROWID(:rowid_start) AND CHARTOROWID(:rowid_end) AND (\"Weird (name\" = q'[it's (odd]') ORDER BY ROWID"
    );
}

#[test]
fn filter_condition_accepts_conditions_and_refuses_escapes() {
    for ok in [
        "A = 1",
        "NAME = 'it''s; -- not a comment /* either */'",
        "(A = 1 OR B = 2) AND C IN (SELECT X FROM T)",
        "D > TO_DATE('2020-01-01 00:00:00', 'YYYY-MM-DD HH24:MI:SS')",
        "T = Nq'{a ) b}' AND U = q'!x'y!'",
        "\"Col;--\" = 1",
        "freq = 'a'",
    ] {
        assert_eq!(filter_condition(ok), Ok(format!("({ok})")), "{ok}");
    }
    for bad in [
        "",
        "   ",
        "1 = 1) OR (1 = 1",
        "A = 1)",
        "(A = 1",
        "A = 1; DROP TABLE X",
        "A = 1 -- tail",
        "A = 1 /* c */",
        "A = 'open",
        "A = \"open",
        "A = q'[open",
        "A = q' x '",
        "A = :l1",
        // q-quotes that a quote-counting check reads differently from Oracle: the `)` and `(` are
        // outside any literal for Oracle.
        "q'[']' ) OR (1 = 1 OR 'a' = q'[']'",
    ] {
        assert!(filter_condition(bad).is_err(), "accepted {bad:?}");
    }
    let refused = flashback_select(
        &emp(),
        &[SelectItem::Plain("ID")],
        &keys(&["ID"]),
        1,
        &ChunkRange::Whole,
        Some("1 = 1) OR (1 = 1"),
        true,
    );
    assert!(refused.is_err());
}

#[test]
fn key_range_statement() {
    let s = key_range_select(&emp(), SelectItem::Plain("ID"), Some(1234)).unwrap();
    assert_eq!(
        s.text,
        "SELECT MIN(\"ID\"), MAX(\"ID\") FROM \"HR\".\"EMP\" AS OF SCN :scn"
    );
    assert_eq!(s.binds, vec![("scn".into(), Value::Number("1234".into()))]);
    // The planner's: the current rows, no SCN bound.
    let now = key_range_select(&emp(), SelectItem::Plain("ID"), None).unwrap();
    assert_eq!(
        now.text,
        "SELECT MIN(\"ID\"), MAX(\"ID\") FROM \"HR\".\"EMP\""
    );
    assert!(now.binds.is_empty());
    assert!(key_range_select(&emp(), SelectItem::Plain("I\"D"), Some(1)).is_err());
    assert!(key_range_select(&emp(), SelectItem::Plain("I\"D"), None).is_err());
    assert!(key_range_select(
        &TableName::new(None, "HR", ""),
        SelectItem::Plain("ID"),
        Some(1)
    )
    .is_err());
}

#[test]
fn key_boundaries_single_column_without_lower_bound() {
    let s = key_boundaries_select(&emp(), &keys(&["ID"]), 1234, None, 1000, 8).unwrap();
    assert_eq!(
        s.text,
        "SELECT K1 FROM (SELECT \"ID\" K1, ROW_NUMBER() OVER (ORDER BY \"ID\") RN FROM \"HR\".\"EMP\" AS OF SCN :scn) WHERE RN > 1 AND RN <= :max_rn AND MOD(RN - 1, :step) = 0 ORDER BY RN"
    );
    assert_eq!(
        s.binds,
        vec![
            ("scn".into(), Value::Number("1234".into())),
            ("max_rn".into(), Value::Number("8001".into())),
            ("step".into(), Value::Number("1000".into())),
        ]
    );
}

#[test]
fn key_boundaries_single_column_with_lower_bound() {
    let s = key_boundaries_select(
        &emp(),
        &keys(&["ID"]),
        7,
        Some(&[Value::Number("500".into())]),
        10,
        3,
    )
    .unwrap();
    assert_eq!(
        s.text,
        "SELECT K1 FROM (SELECT \"ID\" K1, ROW_NUMBER() OVER (ORDER BY \"ID\") RN FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ((\"ID\" >= :l1))) WHERE RN > 1 AND RN <= :max_rn AND MOD(RN - 1, :step) = 0 ORDER BY RN"
    );
    let names: Vec<&str> = s.binds.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["scn", "l1", "max_rn", "step"]);
    assert_eq!(s.binds[1].1, Value::Number("500".into()));
    assert_eq!(s.binds[2].1, Value::Number("31".into()));
}

#[test]
fn key_boundaries_composite_key_without_lower_bound() {
    let s = key_boundaries_select(&emp(), &keys(&["A", "RN", "C"]), 7, None, 1, 2).unwrap();
    assert_eq!(
        s.text,
        "SELECT K1, K2, K3 FROM (SELECT \"A\" K1, \"RN\" K2, \"C\" K3, ROW_NUMBER() OVER (ORDER BY \"A\", \"RN\", \"C\") RN FROM \"HR\".\"EMP\" AS OF SCN :scn) WHERE RN > 1 AND RN <= :max_rn AND MOD(RN - 1, :step) = 0 ORDER BY RN"
    );
    assert_eq!(s.binds[1], ("max_rn".into(), Value::Number("3".into())));
}

#[test]
fn key_boundaries_composite_key_with_lower_bound_uses_the_flashback_expansion() {
    let lower = vec![
        Value::Number("1".into()),
        Value::Text("x".into()),
        Value::Date("2020-01-01 00:00:00".into()),
    ];
    let s = key_boundaries_select(&emp(), &keys(&["A", "B", "C"]), 7, Some(&lower), 50, 4).unwrap();
    assert_eq!(
        s.text,
        "SELECT K1, K2, K3 FROM (SELECT \"A\" K1, \"B\" K2, \"C\" K3, ROW_NUMBER() OVER (ORDER BY \"A\", \"B\", \"C\") RN FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ((\"A\" > :l1) OR (\"A\" = :l1 AND \"B\" > :l2) OR (\"A\" = :l1 AND \"B\" = :l2 AND \"C\" >= TO_DATE(:l3, 'YYYY-MM-DD HH24:MI:SS')))) WHERE RN > 1 AND RN <= :max_rn AND MOD(RN - 1, :step) = 0 ORDER BY RN"
    );
    let names: Vec<&str> = s.binds.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["scn", "l1", "l2", "l3", "max_rn", "step"]);
    // The inner WHERE is exactly the flashback read's lower-bound predicate.
    let read = flashback_select(
        &emp(),
        &[SelectItem::Plain("A")],
        &keys(&["A", "B", "C"]),
        7,
        &ChunkRange::Key {
            lower: Some(lower.clone()),
            upper: None,
        },
        None,
        true,
    )
    .unwrap();
    let read_where = read
        .text
        .split(" WHERE ")
        .nth(1)
        .and_then(|w| w.split(" ORDER BY ").next())
        .unwrap_or_default()
        .to_string();
    assert!(
        s.text.contains(&format!(" WHERE {read_where}) WHERE RN")),
        "{read_where}"
    );
}

#[test]
fn key_boundaries_limits() {
    // The largest step and count are exact: u64::MAX * u32::MAX + 1.
    let s = key_boundaries_select(&emp(), &keys(&["ID"]), 1, None, u64::MAX, u32::MAX).unwrap();
    let expected = u128::from(u64::MAX) * u128::from(u32::MAX) + 1;
    assert_eq!(
        s.binds[1],
        ("max_rn".into(), Value::Number(expected.to_string().into()))
    );
    assert!(key_boundaries_select(&emp(), &keys(&["ID"]), 1, None, 0, 1).is_err());
    assert!(key_boundaries_select(&emp(), &[], 1, None, 1, 1).is_err());
    assert!(key_boundaries_select(
        &emp(),
        &keys(&["A", "B"]),
        1,
        Some(&[Value::Number("1".into())]),
        1,
        1
    )
    .is_err());
    assert!(key_boundaries_select(&emp(), &keys(&["ID"]), 1, Some(&[Value::Null]), 1, 1).is_err());
}

/// The outer filter of the boundary probe, evaluated in Rust on row numbers 1..=n, keeps exactly
/// the rows the emulator's `key_boundaries` returns (`skip(step).step_by(step).take(count)`).
#[test]
fn key_boundaries_row_filter_matches_the_emulator() {
    for n in 0usize..40 {
        for step in 1u64..7 {
            for count in 0u32..6 {
                let s =
                    key_boundaries_select(&emp(), &keys(&["ID"]), 1, None, step, count).unwrap();
                let bind = |name: &str| match s.binds.iter().find(|(n, _)| n == name) {
                    Some((_, Value::Number(v))) => v.parse::<u128>().unwrap(),
                    other => panic!("{name}: {other:?}"),
                };
                let (max_rn, step_bind) = (bind("max_rn"), bind("step"));
                let oracle: Vec<usize> = (1..=n)
                    .filter(|&rn| {
                        let rn = rn as u128;
                        rn > 1 && rn <= max_rn && (rn - 1).is_multiple_of(step_bind)
                    })
                    .map(|rn| rn - 1)
                    .collect();
                let emulator: Vec<usize> = (0..n)
                    .skip(step as usize)
                    .step_by(step as usize)
                    .take(count as usize)
                    .collect();
                assert_eq!(oracle, emulator, "n={n} step={step} count={count}");
            }
        }
    }
}

#[test]
fn scn_to_time_is_pinned() {
    assert_eq!(
        SCN_TO_TIME,
        "SELECT TO_CHAR(SCN_TO_TIMESTAMP(:scn), 'YYYY-MM-DD HH24:MI:SS') FROM DUAL"
    );
}

#[test]
fn signal_insert_statement() {
    // Debezium's signal table layout; binds only, the table quoted (never pasted text).
    assert_eq!(
        insert_signal(&TableName::new(Some("PDB1"), "CDC", "DEBEZIUM_SIGNAL")).unwrap(),
        r#"INSERT INTO "CDC"."DEBEZIUM_SIGNAL" ("ID", "TYPE", "DATA") VALUES (:signal_id, :signal_type, :signal_data)"#
    );
    assert!(insert_signal(&TableName::new(None, "CDC", "SIG\"NAL")).is_err());
}

#[test]
fn condition_check_parses_the_filter_and_reads_nothing() {
    assert_eq!(
        condition_check(&emp(), "SAL > 10 AND \"Odd col\" IS NULL").unwrap(),
        "SELECT 1 FROM \"HR\".\"EMP\" WHERE 1 = 0 AND (SAL > 10 AND \"Odd col\" IS NULL)"
    );
    assert!(condition_check(&emp(), "1 = 1) OR (1 = 1").is_err());
    assert!(condition_check(&emp(), "A = 1; DROP TABLE X").is_err());
}

/// A national key's bounds travel as ASCII: UNISTR of the text with every other character
/// escaped, a backslash doubled; ASCII text as itself. A plain key beside it is bound as before.
#[test]
fn national_key_bounds_are_bound_as_escaped_unistr() {
    let st = flashback_select(
        &emp(),
        &[SelectItem::National("NK"), SelectItem::Plain("ID")],
        &[SelectItem::National("NK"), SelectItem::Plain("ID")],
        9,
        &ChunkRange::Key {
            lower: Some(vec![
                Value::Text("Ā\\x😀".into()),
                Value::Number("3".into()),
            ]),
            upper: Some(vec![Value::Text("plain".into()), Value::Number("4".into())]),
        },
        None,
        true,
    )
    .unwrap();
    assert_eq!(
        st.text,
        "SELECT ROWID, \"NK\", \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE \
         ((\"NK\" > UNISTR(:l1)) OR (\"NK\" = UNISTR(:l1) AND \"ID\" >= :l2)) AND \
         ((\"NK\" < UNISTR(:u1)) OR (\"NK\" = UNISTR(:u1) AND \"ID\" < :u2)) \
         ORDER BY \"NK\", \"ID\""
    );
    let bind = |name: &str| {
        st.binds
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(bind("l1"), Some(Value::Text(r"\0100\\x\D83D\DE00".into())));
    assert_eq!(bind("u1"), Some(Value::Text("plain".into())));
    assert_eq!(bind("l2"), Some(Value::Number("3".into())));
    // Only ASCII is bound, whatever the key holds.
    assert!(st.binds.iter().all(|(_, v)| match v {
        Value::Text(t) => t.is_ascii(),
        _ => true,
    }));
}

/// A long national bound is split between characters into binds of at most 4,000 bytes joined
/// with `||`; a surrogate pair is never cut, and the pieces decode back to the text.
#[test]
fn long_national_bounds_are_split_into_unistr_pieces() {
    let text: String = std::iter::repeat_n("a😀é", 600).collect();
    let pieces = unistr_pieces(&text);
    assert!(
        pieces.len() > 1,
        "{} bytes escaped",
        pieces.iter().map(String::len).sum::<usize>()
    );
    assert!(pieces.iter().all(|p| p.len() <= 4000 && p.is_ascii()));
    for p in &pieces {
        assert!(
            !p.ends_with(r"\D83D"),
            "a surrogate pair cut: {}",
            &p[p.len() - 10..]
        );
    }
    let decoded: String = pieces.iter().map(|p| decode_escapes(p)).collect();
    assert_eq!(decoded, text);
    let st = key_boundaries_select(
        &emp(),
        &[SelectItem::National("NK")],
        5,
        Some(&[Value::Text(text.clone().into())]),
        10,
        3,
    )
    .unwrap();
    let joined: Vec<String> = (0..pieces.len())
        .map(|i| match i {
            0 => "UNISTR(:l1)".to_string(),
            i => format!("UNISTR(:l1_{})", i + 1),
        })
        .collect();
    assert!(
        st.text
            .contains(&format!("\"NK\" >= {}", joined.join(" || "))),
        "{}",
        st.text
    );
}

/// UNISTR's escapes resolved, as the database does (a test's reference: `\XXXX` units, `\\`).
fn decode_escapes(s: &str) -> String {
    let mut units = Vec::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix(r"\\") {
            units.push(u16::from(b'\\'));
            rest = after;
        } else if let Some(after) = rest.strip_prefix('\\') {
            units.push(u16::from_str_radix(&after[..4], 16).unwrap());
            rest = &after[4..];
        } else {
            units.push(c as u16);
            rest = &rest[1..];
        }
    }
    String::from_utf16(&units).unwrap()
}
