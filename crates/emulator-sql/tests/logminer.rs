//! LogMiner's statements: the contents query with the mining filter (IN lists, LIKE …
//! ESCAPE '\', UPPER, NULL-safe ORs, IN lists over 1000 split by OR), the DBMS_LOGMNR blocks
//! (named arguments, packaged constants added), the session setup block (EXECUTE IMMEDIATE
//! of ALTER SESSION with doubled quotes), and PL/SQL's bind numbering and error stack.

mod common;
use common::catalog::cols;
use common::*;
use emulator_sql::{Argument, Datum, Outcome, SqlSession};

const CONTENTS: &str = "SELECT SCN, COMMIT_SCN, START_SCN, TO_CHAR(TIMESTAMP, 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(COMMIT_TIMESTAMP, 'YYYY-MM-DD HH24:MI:SS'), XID, XIDUSN, XIDSLT, XIDSQN, OPERATION_CODE, OPERATION, SEG_OWNER, TABLE_NAME, ROW_ID, SQL_REDO, CSF, ROLLBACK, RS_ID, SSN, THREAD#, SEQUENCE#, STATUS, INFO, SRC_CON_NAME, USERNAME, DATA_OBJ# FROM V$LOGMNR_CONTENTS WHERE SCN >= :startscn AND SCN <= :endscn";

const FILTER: &str = " AND OPERATION_CODE IN (0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 29, 34, 36, 68, 70, 71, 91, 92, 93, 255) AND (OPERATION_CODE <> 5 OR INFO IS NULL OR INFO NOT LIKE 'INTERNAL DDL%') AND (TABLE_NAME IS NULL OR TABLE_NAME NOT LIKE 'MLOG$%') AND (OPERATION_CODE <> 0 OR ROW_ID <> 'AAAAAAAAAAAAAAAAAA') AND (SEG_OWNER IS NULL OR UPPER(SEG_OWNER) IN (:owner1) OR UPPER(SEG_OWNER) LIKE :owner2 ESCAPE '\\' OR (SEG_OWNER = 'UNKNOWN' AND TABLE_NAME LIKE 'OBJ# %') OR (SEG_OWNER = :table_owner1 AND TABLE_NAME = :table_name1)) AND (UPPER(SRC_CON_NAME) IN (:pdb1))";

/// (scn, operation code, owner, table, info, container, row id)
type Change<'a> = (
    i64,
    i64,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    &'a str,
    &'a str,
);

fn contents(changes: &[Change<'_>]) -> MemDb {
    let mut db = MemDb::new();
    let opt = |v: Option<&str>| v.map_or(NULL, t);
    db.view(
        "V$LOGMNR_CONTENTS",
        cols(&[
            ("SCN", 'N'),
            ("COMMIT_SCN", 'N'),
            ("START_SCN", 'N'),
            ("TIMESTAMP", 'D'),
            ("COMMIT_TIMESTAMP", 'D'),
            ("XID", 'R'),
            ("XIDUSN", 'N'),
            ("XIDSLT", 'N'),
            ("XIDSQN", 'N'),
            ("OPERATION_CODE", 'N'),
            ("OPERATION", 'T'),
            ("SEG_OWNER", 'T'),
            ("TABLE_NAME", 'T'),
            ("ROW_ID", 'T'),
            ("SQL_REDO", 'T'),
            ("CSF", 'N'),
            ("ROLLBACK", 'N'),
            ("RS_ID", 'T'),
            ("SSN", 'N'),
            ("THREAD#", 'N'),
            ("SEQUENCE#", 'N'),
            ("STATUS", 'N'),
            ("INFO", 'T'),
            ("SRC_CON_NAME", 'T'),
            ("USERNAME", 'T'),
            ("DATA_OBJ#", 'N'),
        ]),
        changes
            .iter()
            .map(|(scn, code, owner, table, info, con, rid)| {
                vec![
                    n(*scn),
                    NULL,
                    NULL,
                    date("2026-12-04 10:00:00"),
                    NULL,
                    Datum::Bytes(vec![1, 0, 2, 0, 3, 0, 0, 0]),
                    n(1),
                    n(2),
                    n(3),
                    n(*code),
                    t("OP"),
                    opt(*owner),
                    opt(*table),
                    t(rid),
                    t("redo"),
                    n(0),
                    n(0),
                    t(" 0x000001.000002.0010 "),
                    n(0),
                    n(1),
                    n(10),
                    n(0),
                    opt(*info),
                    t(con),
                    t("HR"),
                    n(73001),
                ]
            })
            .collect(),
    );
    db
}

#[test]
fn mining_filter_keeps_exactly_what_the_sql_says() {
    let rid = "AAAR0oAAEAAAACAAAA";
    let all: Vec<(Change<'_>, bool)> = vec![
        ((100, 6, None, None, None, "PDB1", rid), true),
        ((101, 7, None, None, None, "PDB2", rid), false),
        ((102, 1, Some("HR"), Some("EMP"), None, "PDB1", rid), true),
        ((103, 3, Some("hr"), Some("x"), None, "PDB1", rid), true),
        (
            (104, 2, Some("APP7"), Some("ORDERS"), None, "PDB1", rid),
            true,
        ),
        (
            (
                105,
                5,
                Some("HR"),
                Some("EMP"),
                Some("INTERNAL DDL (PlSql=0)"),
                "PDB1",
                rid,
            ),
            false,
        ),
        ((106, 5, Some("HR"), Some("T"), None, "PDB1", rid), true),
        (
            (
                107,
                5,
                Some("HR"),
                Some("NEW_T"),
                Some("USER DDL (PlSql=0)"),
                "PDB1",
                rid,
            ),
            true,
        ),
        (
            (108, 1, Some("HR"), Some("MLOG$_EMP"), None, "PDB1", rid),
            false,
        ),
        (
            (109, 3, Some("SYS"), Some("SEQ$"), None, "PDB1", rid),
            false,
        ),
        (
            (110, 1, Some("OPS"), Some("SIGNALS"), None, "PDB1", rid),
            true,
        ),
        (
            (
                111,
                1,
                Some("UNKNOWN"),
                Some("OBJ# 73001"),
                None,
                "PDB1",
                rid,
            ),
            true,
        ),
        (
            (112, 1, Some("UNKNOWN"), Some("ORDERS"), None, "PDB1", rid),
            false,
        ),
        (
            (113, 0, None, None, None, "PDB1", "AAAAAAAAAAAAAAAAAA"),
            false,
        ),
        ((114, 0, None, None, None, "PDB1", rid), true),
        ((115, 25, Some("HR"), Some("EMP"), None, "PDB1", rid), false),
        ((300, 1, Some("HR"), Some("EMP"), None, "PDB1", rid), false),
        ((116, 1, Some("APP_X"), Some("T"), None, "pdb1", rid), true),
        (
            (117, 1, Some("UNKNOWN"), Some("OBJ# 9"), None, "PDB2", rid),
            false,
        ),
    ];
    let changes: Vec<Change<'_>> = all.iter().map(|(c, _)| *c).collect();
    let mut db = contents(&changes);
    let sql = format!("{CONTENTS}{FILTER}");
    let binds = [
        n(100),
        n(200),
        t("HR"),
        t("APP%"),
        t("OPS"),
        t("SIGNALS"),
        t("PDB1"),
    ];
    let mut s = SqlSession::new();
    let (columns, r) = query(&mut db, &mut s, &sql, &binds).unwrap();
    let got: Vec<Datum> = r.iter().map(|row| row[0].clone()).collect();
    let want: Vec<Datum> = all
        .iter()
        .filter(|(_, keep)| *keep)
        .map(|(c, _)| n(c.0))
        .collect();
    assert_eq!(got, want);
    assert_eq!(columns.len(), 26);
    assert_eq!(columns[3].name, "TO_CHAR(TIMESTAMP,'YYYY-MM-DDHH24:MI:SS')");
    assert_eq!(columns[19].name, "THREAD#");
    assert_eq!(r[0][3], t("2026-12-04 10:00:00"));
    assert_eq!(r[0][5], Datum::Bytes(vec![1, 0, 2, 0, 3, 0, 0, 0]));
    // The SCN window bounds the view's scan.
    let req = &db.log.scans.last().unwrap().1;
    assert!(req
        .bounds
        .iter()
        .any(|b| b.column == "SCN" && b.op == emulator_sql::CmpOp::Ge && b.value == n(100)));
    assert!(req
        .bounds
        .iter()
        .any(|b| b.column == "SCN" && b.op == emulator_sql::CmpOp::Le && b.value == n(200)));
    // Without a filter: every row of the window.
    assert_eq!(rows(&mut db, CONTENTS, &[n(100), n(200)]).len(), 18);
}

#[test]
fn like_escape_and_lists_over_a_thousand() {
    let rid = "AAAR0oAAEAAAACAAAA";
    let changes: Vec<Change<'_>> = vec![
        (100, 1, Some("A_B1"), Some("T"), None, "PDB1", rid),
        (101, 1, Some("AXB1"), Some("T"), None, "PDB1", rid),
        (102, 1, Some("U1400"), Some("T"), None, "PDB1", rid),
        (103, 1, Some("U7"), Some("T"), None, "PDB1", rid),
        (104, 1, Some("U2000"), Some("T"), None, "PDB1", rid),
        (105, 1, Some("100%"), Some("T"), None, "PDB1", rid),
        (106, 1, Some("100X"), Some("T"), None, "PDB1", rid),
    ];
    let mut db = contents(&changes);
    let escaped = "SELECT SCN FROM V$LOGMNR_CONTENTS WHERE SCN >= :startscn AND SCN <= :endscn AND (SEG_OWNER IS NULL OR UPPER(SEG_OWNER) LIKE :owner1 ESCAPE '\\' OR UPPER(SEG_OWNER) LIKE :owner2 ESCAPE '\\')";
    assert_eq!(
        rows(&mut db, escaped, &[n(0), n(999), t("A\\_B%"), t("100\\%")]),
        vec![vec![n(100)], vec![n(105)]]
    );
    // 1500 owners: two IN lists of 1000 and 500, ORed.
    let marks: Vec<String> = (1..=1500).map(|i| format!(":owner{i}")).collect();
    let sql = format!(
        "SELECT SCN FROM V$LOGMNR_CONTENTS WHERE SCN >= :startscn AND SCN <= :endscn AND (SEG_OWNER IS NULL OR UPPER(SEG_OWNER) IN ({}) OR UPPER(SEG_OWNER) IN ({}))",
        marks[..1000].join(", "),
        marks[1000..].join(", ")
    );
    let mut binds = vec![n(0), n(999)];
    binds.extend((0..1500).map(|i| Datum::Text(format!("U{i}").into())));
    assert_eq!(
        rows(&mut db, &sql, &binds),
        vec![vec![n(102)], vec![n(103)]]
    );
    // One list of 1001 is ORA-01795.
    let too_many = format!(
        "SELECT SCN FROM V$LOGMNR_CONTENTS WHERE SEG_OWNER IN ({})",
        marks[..1001].join(", ")
    );
    assert_eq!(error(&mut db, &too_many, &binds[2..1003]).code, 1795);
}

#[test]
fn dbms_logmnr_blocks_call_with_named_arguments_and_constants() {
    let mut db = MemDb::new();
    let mut s = SqlSession::new();
    let first = "BEGIN SYS.DBMS_LOGMNR.ADD_LOGFILE(LOGFILENAME => :logfilename, OPTIONS => SYS.DBMS_LOGMNR.NEW); END;";
    let out = s.execute(&mut db, first, &[t("/u01/redo01.log")]).unwrap();
    assert!(matches!(out, Outcome::PlSql { ref out } if out == &vec![None]));
    let next = "BEGIN SYS.DBMS_LOGMNR.ADD_LOGFILE(LOGFILENAME => :logfilename, OPTIONS => SYS.DBMS_LOGMNR.ADDFILE); END;";
    s.execute(&mut db, next, &[t("/u01/redo02.log")]).unwrap();
    let start = "BEGIN SYS.DBMS_LOGMNR.START_LOGMNR(STARTSCN => :startscn, ENDSCN => :endscn, OPTIONS => SYS.DBMS_LOGMNR.DICT_FROM_ONLINE_CATALOG + SYS.DBMS_LOGMNR.NO_ROWID_IN_STMT); END;";
    s.execute(&mut db, start, &[n(100), n(200)]).unwrap();
    let redo = "BEGIN SYS.DBMS_LOGMNR.START_LOGMNR(STARTSCN => :startscn, ENDSCN => :endscn, OPTIONS => SYS.DBMS_LOGMNR.DICT_FROM_REDO_LOGS + SYS.DBMS_LOGMNR.DDL_DICT_TRACKING + SYS.DBMS_LOGMNR.NO_ROWID_IN_STMT); END;";
    s.execute(&mut db, redo, &[n(100), n(200)]).unwrap();
    s.execute(&mut db, "BEGIN SYS.DBMS_LOGMNR.END_LOGMNR; END;", &[])
        .unwrap();
    let arg = |name: &str, value: Datum| Argument {
        name: Some(name.into()),
        value,
    };
    let proc = |p: &str| vec!["SYS".to_string(), "DBMS_LOGMNR".to_string(), p.to_string()];
    assert_eq!(
        db.log.calls,
        vec![
            (
                proc("ADD_LOGFILE"),
                vec![
                    arg("LOGFILENAME", t("/u01/redo01.log")),
                    arg("OPTIONS", n(1))
                ]
            ),
            (
                proc("ADD_LOGFILE"),
                vec![
                    arg("LOGFILENAME", t("/u01/redo02.log")),
                    arg("OPTIONS", n(3))
                ]
            ),
            (
                proc("START_LOGMNR"),
                vec![
                    arg("STARTSCN", n(100)),
                    arg("ENDSCN", n(200)),
                    arg("OPTIONS", n(2064))
                ]
            ),
            (
                proc("START_LOGMNR"),
                vec![
                    arg("STARTSCN", n(100)),
                    arg("ENDSCN", n(200)),
                    arg("OPTIONS", n(2058))
                ]
            ),
            (proc("END_LOGMNR"), vec![]),
        ]
    );
}

#[test]
fn plsql_binds_are_numbered_by_distinct_name() {
    let mut db = MemDb::new();
    let mut s = SqlSession::new();
    let twice = "BEGIN X.P(A => :v, B => :w, C => :v); END;";
    s.execute(&mut db, twice, &[n(1), n(2)]).unwrap();
    let values: Vec<Datum> = db.log.calls[0].1.iter().map(|a| a.value.clone()).collect();
    assert_eq!(values, vec![n(1), n(2), n(1)]);
    assert_eq!(
        s.execute(&mut db, twice, &[n(1), n(2), n(1)])
            .unwrap_err()
            .code,
        1036
    );
    assert_eq!(s.execute(&mut db, twice, &[n(1)]).unwrap_err().code, 1008);
    // The same text as SQL binds every occurrence.
    db.view("T", cols(&[("A", 'N')]), vec![vec![n(1)]]);
    let sql = "SELECT A FROM T WHERE A = :v OR A = :w OR A = :v";
    assert_eq!(rows(&mut db, sql, &[n(5), n(6), n(1)]), vec![vec![n(1)]]);
    // OUT binds: assignments come back by position.
    let out = s
        .execute(
            &mut db,
            "BEGIN :a := 1 + 2; :b := UPPER(:c); END;",
            &[NULL, NULL, t("x")],
        )
        .unwrap();
    match out {
        Outcome::PlSql { out } => assert_eq!(out, vec![Some(n(3)), Some(t("X")), None]),
        other => panic!("{other:?}"),
    }
}

#[test]
fn plsql_errors_stack_and_name_undeclared_identifiers() {
    let mut db = MemDb::new();
    let mut s = SqlSession::new();
    let e = s
        .execute(
            &mut db,
            "BEGIN\n  NULL;\n  SYS.DBMS_LOGMNR.FAIL;\nEND;",
            &[],
        )
        .unwrap_err();
    assert_eq!(e.code, 1284);
    assert!(
        e.message.ends_with("\nORA-06512: at line 3"),
        "{}",
        e.message
    );
    let e = s
        .execute(
            &mut db,
            "BEGIN SYS.DBMS_LOGMNR.ADD_LOGFILE(OPTIONS => SYS.DBMS_LOGMNR.NOPE); END;",
            &[],
        )
        .unwrap_err();
    assert_eq!(e.code, 6550);
    assert!(
        e.message
            .contains("PLS-00201: identifier 'SYS.DBMS_LOGMNR.NOPE' must be declared"),
        "{}",
        e.message
    );
    let e = s.execute(&mut db, "BEGIN X.P(1 END;", &[]).unwrap_err();
    assert_eq!(e.code, 6550);
    assert!(
        e.message
            .starts_with("ORA-06550: line 1, column 13:\nPLS-00103"),
        "{}",
        e.message
    );
    assert_eq!(
        s.execute(&mut db, "DECLARE x NUMBER; BEGIN NULL; END;", &[])
            .unwrap_err()
            .code,
        3001
    );
    assert_eq!(
        s.execute(&mut db, "BEGIN IF 1 = 1 THEN NULL; END IF; END;", &[])
            .unwrap_err()
            .code,
        3001
    );
}

#[test]
fn session_setup_block_sets_the_nls_parameters() {
    let mut db = MemDb::new();
    let mut s = SqlSession::new();
    assert_eq!(s.nls_date_format(), "DD-MON-RR");
    assert_eq!(
        value_with(
            &mut db,
            &mut s,
            "SELECT TO_CHAR(DATE '2026-12-04') FROM DUAL"
        ),
        t("04-DEC-26")
    );
    let setup = "BEGIN EXECUTE IMMEDIATE 'ALTER SESSION SET NLS_DATE_FORMAT=''YYYY-MM-DD HH24:MI:SS'' NLS_TIMESTAMP_FORMAT=''YYYY-MM-DD HH24:MI:SS.FF9'' NLS_TIMESTAMP_TZ_FORMAT=''YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM'' NLS_NUMERIC_CHARACTERS=''.,'''; EXECUTE IMMEDIATE 'ALTER SESSION SET TIME_ZONE=''00:00'''; EXECUTE IMMEDIATE 'ALTER SESSION SET NLS_SORT=''BINARY'' NLS_COMP=''BINARY'''; END;";
    s.execute(&mut db, "ALTER SESSION SET TIME_ZONE = '-05:00'", &[])
        .unwrap();
    s.execute(&mut db, setup, &[]).unwrap();
    assert_eq!(s.nls_date_format(), "YYYY-MM-DD HH24:MI:SS");
    assert_eq!(s.nls_timestamp_format(), "YYYY-MM-DD HH24:MI:SS.FF9");
    assert_eq!(
        s.nls_timestamp_tz_format(),
        "YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM"
    );
    assert_eq!(s.nls_numeric_characters(), ".,");
    assert_eq!(s.time_zone(), "+00:00");
    assert_eq!((s.nls_sort(), s.nls_comp()), ("BINARY", "BINARY"));
    assert_eq!(
        value_with(
            &mut db,
            &mut s,
            "SELECT TO_CHAR(DATE '2026-12-04') FROM DUAL"
        ),
        t("2026-12-04 00:00:00")
    );
    assert_eq!(
        value_with(&mut db, &mut s, "SELECT TO_CHAR(SYSTIMESTAMP) FROM DUAL"),
        t("2026-12-04 10:05:09.123457000 +02:00")
    );
    // Each statement run alone as well, and a bad one inside a block stacks.
    s.execute(
        &mut db,
        "ALTER SESSION SET NLS_SORT='BINARY' NLS_COMP='BINARY'",
        &[],
    )
    .unwrap();
    let e = s
        .execute(
            &mut db,
            "BEGIN EXECUTE IMMEDIATE 'ALTER SESSION SET NLS_BOGUS = 1'; END;",
            &[],
        )
        .unwrap_err();
    assert_eq!(e.code, 2248);
    assert!(e.message.contains("ORA-06512: at line 1"));
    // A trailing `;` inside EXECUTE IMMEDIATE is ORA-00911 as in Oracle.
    let e = s
        .execute(
            &mut db,
            "BEGIN EXECUTE IMMEDIATE 'ALTER SESSION SET TIME_ZONE=''00:00'';'; END;",
            &[],
        )
        .unwrap_err();
    assert_eq!(e.code, 911);
}

fn value_with(db: &mut MemDb, s: &mut SqlSession, sql: &str) -> Datum {
    let (_, r) = query(db, s, sql, &[]).unwrap_or_else(|e| panic!("{sql}: {e}"));
    r[0][0].clone()
}
