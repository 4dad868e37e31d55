//! Catalog and V$ views with the columns the adapter's statements read (crates/cdc-oracle/src/
//! sql.rs), filled with rows chosen so each statement's filters, joins and orderings decide
//! something: kept and dropped rows of every condition.

use super::*;

/// Columns from a compact spec: `N` NUMBER, `T` VARCHAR2(128), `D` DATE.
pub fn cols(spec: &[(&str, char)]) -> Vec<Column> {
    spec.iter()
        .map(|(name, k)| {
            let ty = match k {
                'N' => OraType::NUMBER,
                'D' => OraType::Date,
                'S' => OraType::Timestamp(9),
                'R' => OraType::Raw(8),
                _ => OraType::Varchar2(128),
            };
            Column::new(*name, ty)
        })
        .collect()
}

pub fn catalog() -> MemDb {
    let mut db = MemDb::new();
    tables(&mut db);
    columns_and_keys(&mut db);
    storage(&mut db);
    identity(&mut db);
    super::logs::logs(&mut db);
    db
}

/// Users, tables and external tables (TABLES, STALE_STATS, log groups).
fn tables(db: &mut MemDb) {
    db.view(
        "ALL_USERS",
        cols(&[("USERNAME", 'T'), ("ORACLE_MAINTAINED", 'T')]),
        vec![
            vec![t("SYS"), t("Y")],
            vec![t("SYSTEM"), t("Y")],
            vec![t("HR"), t("N")],
            vec![t("APP"), t("N")],
            vec![t("AUDSYS"), t("Y")],
        ],
    );
    let table_row =
        |o: &str, n: &str, iot: Datum, la: Datum, temp: &str, dropped: &str, part: &str| {
            vec![
                t(o),
                t(n),
                iot,
                t("DISABLED"),
                num("100"),
                n_(5),
                la,
                t(part),
                t(temp),
                t("NO"),
                t("N"),
                t(dropped),
            ]
        };
    fn n_(v: i64) -> Datum {
        n(v)
    }
    db.view(
        "ALL_TABLES",
        cols(&[
            ("OWNER", 'T'),
            ("TABLE_NAME", 'T'),
            ("IOT_TYPE", 'T'),
            ("ROW_MOVEMENT", 'T'),
            ("NUM_ROWS", 'N'),
            ("BLOCKS", 'N'),
            ("LAST_ANALYZED", 'D'),
            ("PARTITIONED", 'T'),
            ("TEMPORARY", 'T'),
            ("NESTED", 'T'),
            ("SECONDARY", 'T'),
            ("DROPPED", 'T'),
        ]),
        vec![
            table_row(
                "HR",
                "EMP",
                NULL,
                date("2026-01-02 03:04:05"),
                "N",
                "NO",
                "NO",
            ),
            table_row("HR", "DEPT", t("IOT"), NULL, "N", "NO", "NO"),
            table_row("HR", "EXT_T", NULL, NULL, "N", "NO", "NO"),
            table_row("HR", "TMP", NULL, NULL, "Y", "NO", "NO"),
            table_row("SYS", "OBJ$", NULL, NULL, "N", "NO", "NO"),
            table_row("APP", "ORDERS", NULL, NULL, "N", "NO", "YES"),
            table_row("HR", "IOT_OV", t("IOT_OVERFLOW"), NULL, "N", "NO", "NO"),
            table_row("HR", "BIN$x", NULL, NULL, "N", "YES", "NO"),
        ],
    );
    db.view(
        "ALL_EXTERNAL_TABLES",
        cols(&[("OWNER", 'T'), ("TABLE_NAME", 'T')]),
        vec![vec![t("HR"), t("EXT_T")], vec![t("APP"), t("OTHER")]],
    );
    db.view(
        "ALL_TAB_STATISTICS",
        cols(&[
            ("OWNER", 'T'),
            ("TABLE_NAME", 'T'),
            ("OBJECT_TYPE", 'T'),
            ("STALE_STATS", 'T'),
        ]),
        vec![
            vec![t("HR"), t("EMP"), t("TABLE"), t("YES")],
            vec![t("HR"), t("DEPT"), t("TABLE"), t("NO")],
            vec![t("HR"), t("EMP"), t("PARTITION"), t("YES")],
            vec![t("SYS"), t("OBJ$"), t("TABLE"), t("YES")],
            vec![t("APP"), t("ORDERS"), t("TABLE"), NULL],
        ],
    );
    db.view(
        "ALL_LOG_GROUPS",
        cols(&[("OWNER", 'T'), ("TABLE_NAME", 'T'), ("LOG_GROUP_TYPE", 'T')]),
        vec![
            vec![t("HR"), t("EMP"), t("ALL COLUMN LOGGING")],
            vec![t("HR"), t("DEPT"), t("PRIMARY KEY LOGGING")],
            vec![t("SYS"), t("X"), t("ALL COLUMN LOGGING")],
        ],
    );
}

/// Columns, constraints and indexes (COLUMNS, KEYS, UNIQUE_INDEXES).
fn columns_and_keys(db: &mut MemDb) {
    let col_row = |o: &str,
                   tb: &str,
                   c: &str,
                   ty: &str,
                   p: Datum,
                   nullable: &str,
                   hidden: &str,
                   user: &str,
                   id: Datum,
                   internal: i64| {
        vec![
            t(o),
            t(tb),
            t(c),
            t(ty),
            NULL,
            p,
            n(0),
            n(0),
            n(22),
            t(nullable),
            t("NO"),
            t(hidden),
            t(user),
            id,
            n(internal),
        ]
    };
    db.view(
        "ALL_TAB_COLS",
        cols(&[
            ("OWNER", 'T'),
            ("TABLE_NAME", 'T'),
            ("COLUMN_NAME", 'T'),
            ("DATA_TYPE", 'T'),
            ("DATA_TYPE_OWNER", 'T'),
            ("DATA_PRECISION", 'N'),
            ("DATA_SCALE", 'N'),
            ("CHAR_LENGTH", 'N'),
            ("DATA_LENGTH", 'N'),
            ("NULLABLE", 'T'),
            ("VIRTUAL_COLUMN", 'T'),
            ("HIDDEN_COLUMN", 'T'),
            ("USER_GENERATED", 'T'),
            ("COLUMN_ID", 'N'),
            ("INTERNAL_COLUMN_ID", 'N'),
        ]),
        vec![
            col_row(
                "HR", "EMP", "INVIS", "NUMBER", NULL, "Y", "YES", "YES", NULL, 4,
            ),
            col_row(
                "HR",
                "EMP",
                "NAME",
                "VARCHAR2",
                NULL,
                "Y",
                "NO",
                "YES",
                n(2),
                2,
            ),
            col_row(
                "HR",
                "EMP",
                "SYS_NC00003$",
                "NUMBER",
                NULL,
                "Y",
                "YES",
                "NO",
                NULL,
                3,
            ),
            col_row(
                "HR",
                "EMP",
                "ID",
                "NUMBER",
                n(10),
                "N",
                "NO",
                "YES",
                n(1),
                1,
            ),
            col_row(
                "HR",
                "DEPT",
                "DEPTNO",
                "NUMBER",
                n(4),
                "N",
                "NO",
                "YES",
                n(1),
                1,
            ),
            col_row(
                "SYS",
                "OBJ$",
                "OBJ#",
                "NUMBER",
                NULL,
                "N",
                "NO",
                "YES",
                n(1),
                1,
            ),
            col_row(
                "HR",
                "GHOST",
                "X",
                "NUMBER",
                NULL,
                "Y",
                "NO",
                "YES",
                n(1),
                1,
            ),
        ],
    );
    db.view(
        "ALL_CONSTRAINTS",
        cols(&[
            ("OWNER", 'T'),
            ("TABLE_NAME", 'T'),
            ("CONSTRAINT_NAME", 'T'),
            ("CONSTRAINT_TYPE", 'T'),
            ("STATUS", 'T'),
        ]),
        vec![
            vec![t("HR"), t("EMP"), t("EMP_UK"), t("U"), t("ENABLED")],
            vec![t("HR"), t("EMP"), t("EMP_PK"), t("P"), t("ENABLED")],
            vec![t("HR"), t("EMP"), t("EMP_FK"), t("R"), t("ENABLED")],
            vec![t("HR"), t("DEPT"), t("DEPT_PK"), t("P"), t("DISABLED")],
            vec![t("SYS"), t("OBJ$"), t("I_OBJ1"), t("P"), t("ENABLED")],
        ],
    );
    db.view(
        "ALL_CONS_COLUMNS",
        cols(&[
            ("OWNER", 'T'),
            ("TABLE_NAME", 'T'),
            ("CONSTRAINT_NAME", 'T'),
            ("COLUMN_NAME", 'T'),
            ("POSITION", 'N'),
        ]),
        vec![
            vec![t("HR"), t("EMP"), t("EMP_PK"), t("ID"), n(1)],
            vec![t("HR"), t("EMP"), t("EMP_UK"), t("NAME"), n(2)],
            vec![t("HR"), t("EMP"), t("EMP_UK"), t("EMAIL"), n(1)],
            vec![t("HR"), t("EMP"), t("EMP_FK"), t("DEPTNO"), n(1)],
            vec![t("HR"), t("DEPT"), t("DEPT_PK"), t("DEPTNO"), n(1)],
            vec![t("SYS"), t("OBJ$"), t("I_OBJ1"), t("OBJ#"), n(1)],
        ],
    );
    db.view(
        "ALL_INDEXES",
        cols(&[
            ("OWNER", 'T'),
            ("INDEX_NAME", 'T'),
            ("TABLE_OWNER", 'T'),
            ("TABLE_NAME", 'T'),
            ("UNIQUENESS", 'T'),
            ("TABLE_TYPE", 'T'),
            ("INDEX_TYPE", 'T'),
        ]),
        vec![
            vec![
                t("HR"),
                t("EMP_PK"),
                t("HR"),
                t("EMP"),
                t("UNIQUE"),
                t("TABLE"),
                t("NORMAL"),
            ],
            vec![
                t("HR"),
                t("EMP_IX"),
                t("HR"),
                t("EMP"),
                t("NONUNIQUE"),
                t("TABLE"),
                t("NORMAL"),
            ],
            vec![
                t("HR"),
                t("EMP_FN"),
                t("HR"),
                t("EMP"),
                t("UNIQUE"),
                t("TABLE"),
                t("FUNCTION-BASED NORMAL"),
            ],
            vec![
                t("HR"),
                t("DEPT_U"),
                t("HR"),
                t("DEPT"),
                t("UNIQUE"),
                t("TABLE"),
                t("NORMAL/REV"),
            ],
            vec![
                t("SYS"),
                t("I_OBJ1"),
                t("SYS"),
                t("OBJ$"),
                t("UNIQUE"),
                t("TABLE"),
                t("NORMAL"),
            ],
        ],
    );
    db.view(
        "ALL_IND_COLUMNS",
        cols(&[
            ("INDEX_OWNER", 'T'),
            ("INDEX_NAME", 'T'),
            ("TABLE_OWNER", 'T'),
            ("TABLE_NAME", 'T'),
            ("COLUMN_NAME", 'T'),
            ("COLUMN_POSITION", 'N'),
        ]),
        vec![
            vec![t("HR"), t("EMP_PK"), t("HR"), t("EMP"), t("ID"), n(1)],
            vec![t("HR"), t("EMP_IX"), t("HR"), t("EMP"), t("NAME"), n(1)],
            vec![t("HR"), t("EMP_FN"), t("HR"), t("EMP"), t("SYS_NC1"), n(1)],
            vec![t("HR"), t("DEPT_U"), t("HR"), t("DEPT"), t("DNAME"), n(2)],
            vec![t("HR"), t("DEPT_U"), t("HR"), t("DEPT"), t("DEPTNO"), n(1)],
            vec![t("SYS"), t("I_OBJ1"), t("SYS"), t("OBJ$"), t("OBJ#"), n(1)],
        ],
    );
}

/// Objects, extents and tablespaces (DATA_OBJECTS, EXTENTS, UNDO_RETENTION_MODE).
fn storage(db: &mut MemDb) {
    db.view(
        "DBA_OBJECTS",
        cols(&[
            ("OWNER", 'T'),
            ("OBJECT_NAME", 'T'),
            ("SUBOBJECT_NAME", 'T'),
            ("OBJECT_TYPE", 'T'),
            ("DATA_OBJECT_ID", 'N'),
            ("OBJECT_ID", 'N'),
        ]),
        vec![
            vec![t("HR"), t("EMP"), NULL, t("TABLE"), n(74001), n(74001)],
            vec![t("HR"), t("EMP_PK"), NULL, t("INDEX"), n(74002), n(74002)],
            vec![t("APP"), t("ORDERS"), NULL, t("TABLE"), NULL, n(75000)],
            vec![
                t("APP"),
                t("ORDERS"),
                t("P2"),
                t("TABLE PARTITION"),
                n(75010),
                n(75002),
            ],
            vec![
                t("APP"),
                t("ORDERS"),
                t("P1"),
                t("TABLE PARTITION"),
                n(75001),
                n(75001),
            ],
            vec![t("SYS"), t("OBJ$"), NULL, t("TABLE"), n(18), n(18)],
        ],
    );
    db.view(
        "DBA_EXTENTS",
        cols(&[
            ("OWNER", 'T'),
            ("SEGMENT_NAME", 'T'),
            ("SEGMENT_TYPE", 'T'),
            ("PARTITION_NAME", 'T'),
            ("TABLESPACE_NAME", 'T'),
            ("RELATIVE_FNO", 'N'),
            ("BLOCK_ID", 'N'),
            ("BLOCKS", 'N'),
        ]),
        vec![
            vec![
                t("APP"),
                t("ORDERS"),
                t("TABLE PARTITION"),
                t("P1"),
                t("USERS"),
                n(4),
                n(200),
                n(8),
            ],
            vec![
                t("APP"),
                t("ORDERS"),
                t("TABLE PARTITION"),
                t("P2"),
                t("BIGTS"),
                n(1024),
                n(16),
                n(8),
            ],
            vec![
                t("APP"),
                t("ORDERS"),
                t("TABLE PARTITION"),
                t("P1"),
                t("USERS"),
                n(4),
                n(128),
                n(8),
            ],
            vec![
                t("HR"),
                t("EMP"),
                t("TABLE"),
                NULL,
                t("USERS"),
                n(4),
                n(96),
                n(8),
            ],
            vec![
                t("HR"),
                t("EMP_PK"),
                t("INDEX"),
                NULL,
                t("USERS"),
                n(4),
                n(300),
                n(8),
            ],
        ],
    );
    db.view(
        "DBA_TABLESPACES",
        cols(&[
            ("TABLESPACE_NAME", 'T'),
            ("RETENTION", 'T'),
            ("BIGFILE", 'T'),
        ]),
        vec![
            vec![t("USERS"), t("NOT APPLY"), t("NO")],
            vec![t("BIGTS"), t("NOT APPLY"), t("YES")],
            vec![t("UNDOTBS1"), t("GUARANTEE"), t("NO")],
        ],
    );
}

/// Database identity, parameters, containers and privileges.
fn identity(db: &mut MemDb) {
    db.view(
        "V$DATABASE",
        cols(&[
            ("CURRENT_SCN", 'N'),
            ("DBID", 'N'),
            ("NAME", 'T'),
            ("CDB", 'T'),
            ("LOG_MODE", 'T'),
            ("FORCE_LOGGING", 'T'),
            ("SUPPLEMENTAL_LOG_DATA_MIN", 'T'),
            ("SUPPLEMENTAL_LOG_DATA_ALL", 'T'),
            ("DATABASE_ROLE", 'T'),
            ("OPEN_MODE", 'T'),
            ("RESETLOGS_CHANGE#", 'N'),
            ("RESETLOGS_TIME", 'D'),
        ]),
        vec![vec![
            n(5000),
            n(1234567890),
            t("ORCL"),
            t("YES"),
            t("ARCHIVELOG"),
            t("NO"),
            t("YES"),
            t("NO"),
            t("PRIMARY"),
            t("READ WRITE"),
            n(1),
            date("2025-01-01 00:00:00"),
        ]],
    );
    db.view(
        "PRODUCT_COMPONENT_VERSION",
        cols(&[("PRODUCT", 'T'), ("VERSION", 'T')]),
        vec![
            vec![t("TNS for Linux: "), t("19.0.0.0.0")],
            vec![
                t("Oracle Database 19c Enterprise Edition "),
                t("19.0.0.0.0"),
            ],
        ],
    );
    db.view(
        "V$PARAMETER",
        cols(&[("NAME", 'T'), ("VALUE", 'T')]),
        vec![
            vec![t("processes"), t("300")],
            vec![t("undo_retention"), t("900")],
            vec![t("undo_tablespace"), t("UNDOTBS1")],
            vec![t("compatible"), t("19.0.0")],
            vec![t("enable_goldengate_replication"), t("FALSE")],
            vec![t("max_string_size"), t("STANDARD")],
        ],
    );
    db.view(
        "V$PDBS",
        cols(&[
            ("NAME", 'T'),
            ("OPEN_MODE", 'T'),
            ("RESTRICTED", 'T'),
            ("CON_ID", 'N'),
        ]),
        vec![
            vec![t("PDB3"), t("READ ONLY"), t("YES"), n(5)],
            vec![t("PDB$SEED"), t("READ ONLY"), t("NO"), n(2)],
            vec![t("PDB2"), t("MOUNTED"), t("NO"), n(4)],
            vec![t("PDB1"), t("READ WRITE"), t("NO"), n(3)],
        ],
    );
    db.view(
        "SESSION_PRIVS",
        cols(&[("PRIVILEGE", 'T')]),
        vec![vec![t("CREATE SESSION")], vec![t("FLASHBACK ANY TABLE")]],
    );
    db.view(
        "SESSION_ROLES",
        cols(&[("ROLE", 'T')]),
        vec![
            vec![t("SELECT_CATALOG_ROLE")],
            vec![t("EXECUTE_CATALOG_ROLE")],
        ],
    );
    db.view(
        "ALL_TAB_PRIVS",
        cols(&[
            ("GRANTEE", 'T'),
            ("TABLE_SCHEMA", 'T'),
            ("TABLE_NAME", 'T'),
            ("PRIVILEGE", 'T'),
        ]),
        vec![
            vec![t("SCOTT"), t("SYS"), t("DBMS_LOGMNR"), t("EXECUTE")],
            vec![
                t("SELECT_CATALOG_ROLE"),
                t("SYS"),
                t("V_$DATABASE"),
                t("SELECT"),
            ],
            vec![t("PUBLIC"), t("SYS"), t("DUAL"), t("SELECT")],
            vec![t("OTHER"), t("HR"), t("EMP"), t("SELECT")],
        ],
    );
}
