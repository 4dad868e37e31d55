//! Every catalog, V$ and pre-flight statement of crates/cdc-oracle/src/sql.rs (texts copied
//! verbatim), run over the catalog fixture, with the rows each must return worked out by
//! hand: joins, NOT IN and correlated NOT EXISTS / EXISTS subqueries, GROUP BY with TRUNC and
//! TO_CHAR, DECODE's NULL-safe comparison, NULLS LAST ordering, result column names.

mod common;
use common::catalog::catalog;
use common::*;
use emulator_sql::{OraType, SqlSession};

fn names(db: &mut MemDb, sql: &str, binds: &[emulator_sql::Datum]) -> Vec<String> {
    let mut s = SqlSession::new();
    let (cols, _) = query(db, &mut s, sql, binds).unwrap_or_else(|e| panic!("{sql}: {e}"));
    cols.into_iter().map(|c| c.name).collect()
}

const TABLES: &str = "SELECT t.OWNER, t.TABLE_NAME, t.IOT_TYPE, t.ROW_MOVEMENT, t.NUM_ROWS, t.BLOCKS, TO_CHAR(t.LAST_ANALYZED, 'YYYY-MM-DD HH24:MI:SS'), t.PARTITIONED FROM ALL_TABLES t WHERE t.OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y') AND t.TEMPORARY = 'N' AND t.NESTED = 'NO' AND t.SECONDARY = 'N' AND t.DROPPED = 'NO' AND (t.IOT_TYPE IS NULL OR t.IOT_TYPE = 'IOT') AND NOT EXISTS (SELECT 1 FROM ALL_EXTERNAL_TABLES x WHERE x.OWNER = t.OWNER AND x.TABLE_NAME = t.TABLE_NAME) ORDER BY t.OWNER, t.TABLE_NAME";

#[test]
fn tables_use_not_in_and_correlated_not_exists() {
    let mut db = catalog();
    assert_eq!(
        rows(&mut db, TABLES, &[]),
        vec![
            vec![
                t("APP"),
                t("ORDERS"),
                NULL,
                t("DISABLED"),
                n(100),
                n(5),
                NULL,
                t("YES")
            ],
            vec![
                t("HR"),
                t("DEPT"),
                t("IOT"),
                t("DISABLED"),
                n(100),
                n(5),
                NULL,
                t("NO")
            ],
            vec![
                t("HR"),
                t("EMP"),
                NULL,
                t("DISABLED"),
                n(100),
                n(5),
                t("2026-01-02 03:04:05"),
                t("NO")
            ],
        ]
    );
    assert_eq!(
        names(&mut db, TABLES, &[]),
        [
            "OWNER",
            "TABLE_NAME",
            "IOT_TYPE",
            "ROW_MOVEMENT",
            "NUM_ROWS",
            "BLOCKS",
            "TO_CHAR(T.LAST_ANALYZED,'YYYY-MM-DDHH24:MI:SS')",
            "PARTITIONED"
        ]
    );
}

const COLUMNS: &str = "SELECT c.OWNER, c.TABLE_NAME, c.COLUMN_NAME, c.DATA_TYPE, c.DATA_TYPE_OWNER, c.DATA_PRECISION, c.DATA_SCALE, c.CHAR_LENGTH, c.DATA_LENGTH, c.NULLABLE, c.VIRTUAL_COLUMN, c.HIDDEN_COLUMN FROM ALL_TAB_COLS c WHERE c.USER_GENERATED = 'YES' AND c.OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y') AND EXISTS (SELECT 1 FROM ALL_TABLES t WHERE t.OWNER = c.OWNER AND t.TABLE_NAME = c.TABLE_NAME) ORDER BY c.OWNER, c.TABLE_NAME, c.COLUMN_ID NULLS LAST, c.INTERNAL_COLUMN_ID";

const TABLE_COLUMNS: &str = "SELECT c.OWNER, c.TABLE_NAME, c.COLUMN_NAME, c.DATA_TYPE, c.DATA_TYPE_OWNER, c.DATA_PRECISION, c.DATA_SCALE, c.CHAR_LENGTH, c.DATA_LENGTH, c.NULLABLE, c.VIRTUAL_COLUMN, c.HIDDEN_COLUMN FROM ALL_TAB_COLS c WHERE c.OWNER = :owner AND c.TABLE_NAME = :table_name AND c.USER_GENERATED = 'YES' ORDER BY c.COLUMN_ID NULLS LAST, c.INTERNAL_COLUMN_ID";

#[test]
fn columns_order_nulls_last_and_exist_in_tables() {
    let mut db = catalog();
    let col = |r: &Vec<emulator_sql::Datum>| (r[1].clone(), r[2].clone());
    let got: Vec<_> = rows(&mut db, COLUMNS, &[]).iter().map(col).collect();
    assert_eq!(
        got,
        vec![
            (t("DEPT"), t("DEPTNO")),
            (t("EMP"), t("ID")),
            (t("EMP"), t("NAME")),
            (t("EMP"), t("INVIS")),
        ]
    );
    let got: Vec<_> = rows(&mut db, TABLE_COLUMNS, &[t("HR"), t("EMP")])
        .iter()
        .map(col)
        .collect();
    assert_eq!(
        got,
        vec![
            (t("EMP"), t("ID")),
            (t("EMP"), t("NAME")),
            (t("EMP"), t("INVIS"))
        ]
    );
    // The owner and table binds bound the catalog scan.
    let (_, req) = db
        .log
        .scans
        .iter()
        .rev()
        .find(|(n, _)| n.name == "ALL_TAB_COLS")
        .unwrap();
    let bound_cols: Vec<&str> = req.bounds.iter().map(|b| b.column.as_str()).collect();
    assert_eq!(bound_cols, ["OWNER", "TABLE_NAME", "USER_GENERATED"]);
    let table_types = "SELECT COLUMN_NAME, DATA_TYPE FROM ALL_TAB_COLS WHERE OWNER = :owner AND TABLE_NAME = :table_name";
    let mut got = rows(&mut db, table_types, &[t("HR"), t("DEPT")]);
    got.sort_by(|a, b| cmp_datum(&a[0], &b[0]));
    assert_eq!(got, vec![vec![t("DEPTNO"), t("NUMBER")]]);
}

#[test]
fn keys_join_constraints_with_their_columns() {
    let mut db = catalog();
    let keys = "SELECT c.OWNER, c.TABLE_NAME, c.CONSTRAINT_NAME, c.CONSTRAINT_TYPE, cc.COLUMN_NAME FROM ALL_CONSTRAINTS c JOIN ALL_CONS_COLUMNS cc ON cc.OWNER = c.OWNER AND cc.CONSTRAINT_NAME = c.CONSTRAINT_NAME AND cc.TABLE_NAME = c.TABLE_NAME WHERE c.CONSTRAINT_TYPE IN ('P', 'U') AND c.STATUS = 'ENABLED' AND c.OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y') ORDER BY c.OWNER, c.TABLE_NAME, c.CONSTRAINT_TYPE, c.CONSTRAINT_NAME, cc.POSITION";
    assert_eq!(
        rows(&mut db, keys, &[]),
        vec![
            vec![t("HR"), t("EMP"), t("EMP_PK"), t("P"), t("ID")],
            vec![t("HR"), t("EMP"), t("EMP_UK"), t("U"), t("EMAIL")],
            vec![t("HR"), t("EMP"), t("EMP_UK"), t("U"), t("NAME")],
        ]
    );
    let unique = "SELECT i.TABLE_OWNER, i.TABLE_NAME, i.INDEX_NAME, ic.COLUMN_NAME FROM ALL_INDEXES i JOIN ALL_IND_COLUMNS ic ON ic.INDEX_OWNER = i.OWNER AND ic.INDEX_NAME = i.INDEX_NAME WHERE i.UNIQUENESS = 'UNIQUE' AND i.TABLE_TYPE = 'TABLE' AND i.INDEX_TYPE IN ('NORMAL', 'NORMAL/REV') AND i.TABLE_OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y') ORDER BY i.TABLE_OWNER, i.TABLE_NAME, i.INDEX_NAME, ic.COLUMN_POSITION";
    assert_eq!(
        rows(&mut db, unique, &[]),
        vec![
            vec![t("HR"), t("DEPT"), t("DEPT_U"), t("DEPTNO")],
            vec![t("HR"), t("DEPT"), t("DEPT_U"), t("DNAME")],
            vec![t("HR"), t("EMP"), t("EMP_PK"), t("ID")],
        ]
    );
}

#[test]
fn data_objects_and_extents_with_null_safe_decode() {
    let mut db = catalog();
    let objects = "SELECT o.OWNER, o.OBJECT_NAME, o.SUBOBJECT_NAME, o.OBJECT_TYPE, o.DATA_OBJECT_ID, o.OBJECT_ID FROM DBA_OBJECTS o WHERE o.OBJECT_TYPE IN ('TABLE', 'TABLE PARTITION', 'TABLE SUBPARTITION') AND o.DATA_OBJECT_ID IS NOT NULL AND o.OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y') ORDER BY o.OWNER, o.OBJECT_NAME, o.OBJECT_TYPE, o.SUBOBJECT_NAME";
    assert_eq!(
        rows(&mut db, objects, &[]),
        vec![
            vec![
                t("APP"),
                t("ORDERS"),
                t("P1"),
                t("TABLE PARTITION"),
                n(75001),
                n(75001)
            ],
            vec![
                t("APP"),
                t("ORDERS"),
                t("P2"),
                t("TABLE PARTITION"),
                n(75010),
                n(75002)
            ],
            vec![t("HR"), t("EMP"), NULL, t("TABLE"), n(74001), n(74001)],
        ]
    );
    let extents = "SELECT e.PARTITION_NAME, o.DATA_OBJECT_ID, e.RELATIVE_FNO, e.BLOCK_ID, e.BLOCKS, t.BIGFILE FROM DBA_EXTENTS e JOIN DBA_OBJECTS o ON o.OWNER = e.OWNER AND o.OBJECT_NAME = e.SEGMENT_NAME AND o.OBJECT_TYPE = e.SEGMENT_TYPE AND DECODE(o.SUBOBJECT_NAME, e.PARTITION_NAME, 1, 0) = 1 JOIN DBA_TABLESPACES t ON t.TABLESPACE_NAME = e.TABLESPACE_NAME WHERE e.OWNER = :owner AND e.SEGMENT_NAME = :table_name AND e.SEGMENT_TYPE IN ('TABLE', 'TABLE PARTITION', 'TABLE SUBPARTITION') AND o.DATA_OBJECT_ID IS NOT NULL ORDER BY e.RELATIVE_FNO, e.BLOCK_ID";
    assert_eq!(
        rows(&mut db, extents, &[t("APP"), t("ORDERS")]),
        vec![
            vec![t("P1"), n(75001), n(4), n(128), n(8), t("NO")],
            vec![t("P1"), n(75001), n(4), n(200), n(8), t("NO")],
            vec![t("P2"), n(75010), n(1024), n(16), n(8), t("YES")],
        ]
    );
    // A non-partitioned table: NULL partition names meet through DECODE.
    assert_eq!(
        rows(&mut db, extents, &[t("HR"), t("EMP")]),
        vec![vec![NULL, n(74001), n(4), n(96), n(8), t("NO")]]
    );
    // The binds bound DBA_EXTENTS's scan (qualified columns of a join).
    let (_, req) = db
        .log
        .scans
        .iter()
        .rev()
        .find(|(n, _)| n.name == "DBA_EXTENTS")
        .unwrap();
    assert!(req
        .bounds
        .iter()
        .any(|b| b.column == "OWNER" && b.value == t("HR")));
    assert!(req
        .bounds
        .iter()
        .any(|b| b.column == "SEGMENT_NAME" && b.value == t("EMP")));
}

#[test]
fn identity_privileges_and_small_statements() {
    let mut db = catalog();
    assert_eq!(
        rows(&mut db, "SELECT CURRENT_SCN FROM V$DATABASE", &[]),
        vec![vec![n(5000)]]
    );
    let info = "SELECT DBID, NAME, CDB, LOG_MODE, FORCE_LOGGING, SUPPLEMENTAL_LOG_DATA_MIN, SUPPLEMENTAL_LOG_DATA_ALL, DATABASE_ROLE, OPEN_MODE, RESETLOGS_CHANGE# FROM V$DATABASE";
    assert_eq!(
        rows(&mut db, info, &[]),
        vec![vec![
            n(1234567890),
            t("ORCL"),
            t("YES"),
            t("ARCHIVELOG"),
            t("NO"),
            t("YES"),
            t("NO"),
            t("PRIMARY"),
            t("READ WRITE"),
            n(1)
        ]]
    );
    let product = "SELECT PRODUCT, VERSION FROM PRODUCT_COMPONENT_VERSION WHERE PRODUCT LIKE 'Oracle Database%'";
    assert_eq!(
        rows(&mut db, product, &[]),
        vec![vec![
            t("Oracle Database 19c Enterprise Edition "),
            t("19.0.0.0.0")
        ]]
    );
    let mut undo = rows(
        &mut db,
        "SELECT NAME, VALUE FROM V$PARAMETER WHERE NAME IN ('undo_retention', 'undo_tablespace')",
        &[],
    );
    undo.sort_by(|a, b| cmp_datum(&a[0], &b[0]));
    assert_eq!(
        undo,
        vec![
            vec![t("undo_retention"), t("900")],
            vec![t("undo_tablespace"), t("UNDOTBS1")]
        ]
    );
    assert_eq!(
        rows(
            &mut db,
            "SELECT RETENTION FROM DBA_TABLESPACES WHERE TABLESPACE_NAME = :tablespace_name",
            &[t("UNDOTBS1")]
        ),
        vec![vec![t("GUARANTEE")]]
    );
    assert_eq!(
        rows(&mut db, "SELECT NAME, RESTRICTED FROM V$PDBS WHERE NAME <> 'PDB$SEED' AND OPEN_MODE IN ('READ WRITE', 'READ ONLY') ORDER BY CON_ID", &[]),
        vec![vec![t("PDB1"), t("NO")], vec![t("PDB3"), t("YES")]]
    );
    let container =
        "SELECT SYS_CONTEXT('USERENV', 'CON_NAME'), SYS_CONTEXT('USERENV', 'CON_ID') FROM DUAL";
    assert_eq!(rows(&mut db, container, &[]), vec![vec![t("PDB1"), t("3")]]);
    let mut s = SqlSession::new();
    let (cols, _) = query(&mut db, &mut s, container, &[]).unwrap();
    assert_eq!(cols[0].name, "SYS_CONTEXT('USERENV','CON_NAME')");
    assert_eq!(cols[0].ora_type, OraType::Varchar2(256));
    assert_eq!(
        rows(&mut db, "SELECT PRIVILEGE FROM SESSION_PRIVS", &[]).len(),
        2
    );
    assert_eq!(
        rows(&mut db, "SELECT ROLE FROM SESSION_ROLES", &[]).len(),
        2
    );
    let privs = "SELECT TABLE_SCHEMA, TABLE_NAME, PRIVILEGE FROM ALL_TAB_PRIVS WHERE GRANTEE = USER OR GRANTEE IN (SELECT ROLE FROM SESSION_ROLES)";
    assert_eq!(
        rows(&mut db, privs, &[]),
        vec![
            vec![t("SYS"), t("DBMS_LOGMNR"), t("EXECUTE")],
            vec![t("SYS"), t("V_$DATABASE"), t("SELECT")],
        ]
    );
    let stale = "SELECT s.OWNER, s.TABLE_NAME FROM ALL_TAB_STATISTICS s WHERE s.OBJECT_TYPE = 'TABLE' AND s.STALE_STATS = 'YES' AND s.OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y')";
    assert_eq!(rows(&mut db, stale, &[]), vec![vec![t("HR"), t("EMP")]]);
    let groups = "SELECT g.OWNER, g.TABLE_NAME FROM ALL_LOG_GROUPS g WHERE g.LOG_GROUP_TYPE = 'ALL COLUMN LOGGING' AND g.OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y')";
    assert_eq!(rows(&mut db, groups, &[]), vec![vec![t("HR"), t("EMP")]]);
    let params = "SELECT NAME, VALUE FROM V$PARAMETER WHERE NAME IN ('compatible', 'undo_tablespace', 'enable_goldengate_replication', 'max_string_size')";
    assert_eq!(rows(&mut db, params, &[]).len(), 4);
    let limits = "SELECT RESOURCE_NAME, CURRENT_UTILIZATION, LIMIT_VALUE FROM V$RESOURCE_LIMIT WHERE RESOURCE_NAME IN ('processes', 'sessions')";
    assert_eq!(
        rows(&mut db, limits, &[]),
        vec![
            vec![t("processes"), n(50), t("       300")],
            vec![t("sessions"), n(60), t("       472")]
        ]
    );
}

#[test]
fn transactions_and_logs() {
    let mut db = catalog();
    let open = "SELECT t.XIDUSN, t.XIDSLOT, t.XIDSQN, t.START_SCNB, t.START_SCNW, i.THREAD# FROM GV$TRANSACTION t JOIN GV$INSTANCE i ON i.INST_ID = t.INST_ID ORDER BY t.START_SCNW, t.START_SCNB";
    assert_eq!(
        rows(&mut db, open, &[]),
        vec![
            vec![n(2), n(1), n(9), n(3500), n(0), n(1)],
            vec![n(5), n(10), n(100), n(4000), n(0), n(1)],
            vec![n(7), n(3), n(55), n(100), n(1), n(2)],
        ]
    );
    let online = "SELECT MIN(f.MEMBER), l.THREAD#, l.SEQUENCE#, l.FIRST_CHANGE#, l.NEXT_CHANGE#, l.STATUS FROM V$LOG l JOIN V$LOGFILE f ON f.GROUP# = l.GROUP# WHERE f.TYPE = 'ONLINE' AND (f.STATUS IS NULL OR f.STATUS NOT IN ('INVALID', 'DELETED')) AND l.STATUS IN ('CURRENT', 'ACTIVE', 'INACTIVE') GROUP BY l.GROUP#, l.THREAD#, l.SEQUENCE#, l.FIRST_CHANGE#, l.NEXT_CHANGE#, l.STATUS ORDER BY l.THREAD#, l.SEQUENCE#";
    assert_eq!(
        rows(&mut db, online, &[]),
        vec![
            vec![
                t("/u01/redo01a.log"),
                n(1),
                n(10),
                n(1000),
                n(2000),
                t("INACTIVE")
            ],
            vec![
                t("/u01/redo02b.log"),
                n(1),
                n(11),
                n(2000),
                num("18446744073709551615"),
                t("CURRENT")
            ],
            vec![
                t("/u01/redo04.log"),
                n(2),
                n(5),
                n(1500),
                n(2500),
                t("ACTIVE")
            ],
        ]
    );
    assert_eq!(names(&mut db, online, &[])[0], "MIN(F.MEMBER)");
    let archived = "SELECT a.NAME, a.THREAD#, a.SEQUENCE#, a.FIRST_CHANGE#, a.NEXT_CHANGE# FROM V$ARCHIVED_LOG a CROSS JOIN V$DATABASE d WHERE a.STATUS = 'A' AND a.NAME IS NOT NULL AND a.STANDBY_DEST = 'NO' AND a.RESETLOGS_CHANGE# = d.RESETLOGS_CHANGE# AND a.RESETLOGS_TIME = d.RESETLOGS_TIME AND a.DEST_ID IN (SELECT s.DEST_ID FROM V$ARCHIVE_DEST_STATUS s WHERE s.STATUS = 'VALID' AND s.TYPE = 'LOCAL') ORDER BY a.THREAD#, a.SEQUENCE#, a.DEST_ID";
    assert_eq!(
        rows(&mut db, archived, &[]),
        vec![
            vec![t("/arch/1_8.arc"), n(1), n(8), n(300), n(500)],
            vec![t("/arch/2_3.arc"), n(2), n(3), n(200), n(400)],
        ]
    );
    let dictionary = "SELECT a.THREAD#, a.SEQUENCE#, a.FIRST_CHANGE#, a.NEXT_CHANGE#, a.DICTIONARY_BEGIN, a.DICTIONARY_END FROM V$ARCHIVED_LOG a WHERE a.STATUS = 'A' AND (a.DICTIONARY_BEGIN = 'YES' OR a.DICTIONARY_END = 'YES') ORDER BY a.THREAD#, a.SEQUENCE#";
    assert_eq!(
        rows(&mut db, dictionary, &[]),
        vec![vec![n(2), n(3), n(200), n(400), t("YES"), t("YES")]]
    );
    let dests = "SELECT s.DEST_ID, s.DEST_NAME, s.STATUS, s.TYPE, d.DESTINATION FROM V$ARCHIVE_DEST_STATUS s JOIN V$ARCHIVE_DEST d ON d.DEST_ID = s.DEST_ID WHERE s.STATUS <> 'INACTIVE' ORDER BY s.DEST_ID";
    assert_eq!(
        rows(&mut db, dests, &[]),
        vec![
            vec![
                n(1),
                t("LOG_ARCHIVE_DEST_1"),
                t("VALID"),
                t("LOCAL"),
                t("/arch")
            ],
            vec![
                n(2),
                t("LOG_ARCHIVE_DEST_2"),
                t("VALID"),
                t("PHYSICAL"),
                t("standby_db")
            ],
        ]
    );
    assert_eq!(
        rows(
            &mut db,
            "SELECT GROUP#, THREAD#, BYTES, MEMBERS FROM V$LOG ORDER BY THREAD#, GROUP#",
            &[]
        ),
        vec![
            vec![n(1), n(1), n(52428800), n(2)],
            vec![n(2), n(1), n(52428800), n(2)],
            vec![n(3), n(1), n(52428800), n(1)],
            vec![n(4), n(2), n(104857600), n(1)],
        ]
    );
    let threads = "SELECT THREAD#, STATUS, ENABLED, SEQUENCE#, LAST_REDO_CHANGE#, TO_CHAR(LAST_REDO_TIME, 'YYYY-MM-DD HH24:MI:SS') FROM V$THREAD ORDER BY THREAD#";
    assert_eq!(
        rows(&mut db, threads, &[]),
        vec![
            vec![
                n(1),
                t("OPEN"),
                t("PUBLIC"),
                n(11),
                n(4990),
                t("2026-12-04 10:05:08")
            ],
            vec![
                n(2),
                t("OPEN"),
                t("PUBLIC"),
                n(5),
                n(2400),
                t("2026-12-04 10:04:00")
            ],
        ]
    );
}

#[test]
fn log_switches_group_by_trunc_and_to_char() {
    let mut db = catalog();
    let sql = "SELECT THREAD#, TO_CHAR(TRUNC(FIRST_TIME, 'HH24'), 'YYYY-MM-DD HH24'), COUNT(*) FROM V$LOG_HISTORY WHERE FIRST_TIME > SYSDATE - 1 GROUP BY THREAD#, TRUNC(FIRST_TIME, 'HH24') ORDER BY 1, 2";
    assert_eq!(
        rows(&mut db, sql, &[]),
        vec![
            vec![n(1), t("2026-12-03 23"), n(1)],
            vec![n(1), t("2026-12-04 08"), n(1)],
            vec![n(1), t("2026-12-04 09"), n(2)],
            vec![n(2), t("2026-12-04 09"), n(1)],
        ]
    );
    assert_eq!(
        names(&mut db, sql, &[]),
        [
            "THREAD#",
            "TO_CHAR(TRUNC(FIRST_TIME,'HH24'),'YYYY-MM-DDHH24')",
            "COUNT(*)"
        ]
    );
}

#[test]
fn host_offset_and_scn_time() {
    let mut db = catalog();
    // The fixture's host is at +02:00.
    assert_eq!(
        value(&mut db, "SELECT TO_CHAR(SYSTIMESTAMP, 'TZH:TZM') FROM DUAL"),
        t("+02:00")
    );
    let scn_time = "SELECT TO_CHAR(SCN_TO_TIMESTAMP(:scn), 'YYYY-MM-DD HH24:MI:SS') FROM DUAL";
    assert_eq!(
        rows(&mut db, scn_time, &[n(3725)]),
        vec![vec![t("2026-01-01 01:02:05")]]
    );
    assert_eq!(error(&mut db, scn_time, &[n(5)]).code, 8181);
    assert_eq!(value(&mut db, "SELECT DBTIMEZONE FROM DUAL"), t("+00:00"));
}
