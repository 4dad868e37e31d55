//! Errors as Oracle raises them, with the character position it reports, and robustness:
//! random token soup and mutated real statements never panic.

mod common;
use common::catalog::catalog;
use common::*;
use emulator_sql::{Datum, Outcome, SqlSession};

fn code_at(sql: &str) -> (u32, Option<u32>) {
    let mut db = catalog();
    db.view(
        "T",
        common::catalog::cols(&[("A", 'N'), ("B", 'T')]),
        vec![vec![n(1), t("x")]],
    );
    let e = error(&mut db, sql, &[]);
    (e.code, e.position)
}

#[test]
fn syntax_errors_point_where_oracle_points() {
    let cases: &[(&str, u32, Option<u32>)] = &[
        ("SELEC 1 FROM DUAL", 900, Some(0)),
        ("", 900, Some(0)),
        ("SELECT * FROM", 903, Some(13)),
        ("SELECT A B C FROM T", 923, Some(11)),
        ("SELECT 1", 923, Some(8)),
        ("SELECT * FROM DUAL;", 911, Some(18)),
        ("SELECT * FROM DUAL WHERE", 936, Some(24)),
        ("SELECT * FROM DUAL WHERE DUMMY =", 936, Some(32)),
        ("SELECT (1 FROM DUAL", 907, Some(10)),
        ("SELECT * FROM DUAL WHERE 1 IS 2", 908, Some(30)),
        ("SELECT * FROM DUAL WHERE 1 BETWEEN 2 3", 905, Some(37)),
        ("SELECT * FROM DUAL WHERE 1 2", 920, Some(27)),
        ("SELECT * FROM DUAL WHERE 1 IN 2", 906, Some(30)),
        ("SELECT * FROM DUAL ORDER 1", 924, Some(25)),
        ("SELECT * FROM DUAL GROUP DUMMY", 924, Some(25)),
        ("SELECT * FROM DUAL x y", 933, Some(21)),
        ("SELECT 'abc FROM DUAL", 1756, Some(7)),
        ("SELECT \"\" FROM DUAL", 1741, Some(7)),
        ("SELECT 1 FROM DUAL /* open", 1742, Some(19)),
        ("SELECT 1 ? FROM DUAL", 911, Some(9)),
        ("INSERT T VALUES (1)", 925, Some(7)),
        ("INSERT INTO T (A B) VALUES (1)", 917, Some(17)),
        ("INSERT INTO T (A) (1)", 928, Some(19)),
        ("INSERT INTO T (A) 1", 926, Some(18)),
        ("UPDATE T A = 1", 971, Some(11)),
        ("UPDATE T SET A 1", 927, Some(15)),
        ("ALTER TABLE T ADD X NUMBER", 3001, Some(6)),
        ("ALTER SESSION SET = 1", 2248, Some(18)),
        ("CREATE TABLE X (A NUMBER)", 3001, Some(0)),
        (
            "SELECT 1 FROM DUAL UNION SELECT 2 FROM DUAL",
            3001,
            Some(19),
        ),
        (
            "WITH x AS (SELECT 1 FROM DUAL) SELECT * FROM x",
            3001,
            Some(0),
        ),
        ("SELECT * FROM DUAL CONNECT BY 1 = 1", 3001, Some(19)),
        ("SELECT * FROM T FOR UPDATE", 3001, Some(16)),
    ];
    for (sql, code, pos) in cases {
        assert_eq!(code_at(sql), (*code, *pos), "{sql}");
    }
}

#[test]
fn semantic_errors() {
    let cases: &[(&str, u32, Option<u32>)] = &[
        ("SELECT * FROM NOPE", 942, Some(14)),
        ("SELECT NOPE FROM T", 904, Some(7)),
        ("SELECT T.NOPE FROM T", 904, Some(7)),
        ("SELECT X.A FROM T", 904, Some(7)),
        ("SELECT A FROM T x, T y", 918, Some(7)),
        ("SELECT A, COUNT(*) FROM T", 937, Some(7)),
        ("SELECT B, COUNT(*) FROM T GROUP BY A", 979, Some(7)),
        ("SELECT A FROM T WHERE COUNT(*) > 1", 934, Some(22)),
        ("SELECT A FROM T ORDER BY 3", 1785, Some(25)),
        ("SELECT DISTINCT A FROM T ORDER BY B", 1791, Some(34)),
        ("SELECT A FROM T WHERE A = 'x'", 1722, Some(26)),
        ("SELECT A FROM T WHERE A = DATE '2020-01-01'", 932, Some(22)),
        ("SELECT UPPER(A, B) FROM T", 909, Some(7)),
        ("SELECT ROW_NUMBER() FROM T", 30484, Some(7)),
        (
            "SELECT A FROM T WHERE ROW_NUMBER() OVER (ORDER BY A) = 1",
            30483,
            Some(22),
        ),
        ("SELECT ROWNUM FROM T GROUP BY A", 979, Some(7)),
        ("SELECT (SELECT A, B FROM T) FROM DUAL", 913, Some(8)),
        (
            "SELECT (SELECT A FROM T UNION ALL SELECT A FROM T) FROM DUAL",
            1427,
            Some(7),
        ),
        (
            "SELECT A FROM T UNION ALL SELECT A, B FROM T",
            1789,
            Some(0),
        ),
        ("SELECT A FROM T UNION ALL SELECT B FROM T", 1790, Some(0)),
        ("SELECT ROWID FROM (SELECT A FROM T)", 1445, Some(7)),
        ("SELECT A FROM T AS OF SCN -1", 8181, Some(26)),
        ("SELECT 'é', NOPE FROM DUAL", 904, Some(12)),
    ];
    for (sql, code, pos) in cases {
        assert_eq!(code_at(sql), (*code, *pos), "{sql}");
    }
}

#[test]
fn bind_counts_and_row_time_errors() {
    let mut db = catalog();
    db.view(
        "T",
        common::catalog::cols(&[("A", 'N'), ("B", 'T')]),
        vec![vec![n(1), t("x")], vec![n(2), t("2")]],
    );
    assert_eq!(
        error(&mut db, "SELECT A FROM T WHERE A = :a", &[]).code,
        1008
    );
    assert_eq!(error(&mut db, "SELECT A FROM T", &[n(1)]).code, 1036);
    // A row value that fails its conversion fails the fetch, not the execute.
    let mut s = SqlSession::new();
    let Outcome::Rows { rows, .. } = s
        .execute(&mut db, "SELECT A FROM T WHERE B = 2", &[])
        .unwrap()
    else {
        panic!()
    };
    let results: Vec<Result<Vec<Datum>, _>> = rows.collect();
    assert_eq!(results[0].as_ref().unwrap_err().code, 1722);
    assert_eq!(error(&mut db, "SELECT 1 / (A - 1) FROM T", &[]).code, 1476);
}

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[(self.next() % v.len() as u64) as usize]
    }
}

const TOKENS: &[&str] = &[
    "SELECT",
    "FROM",
    "WHERE",
    "AND",
    "OR",
    "NOT",
    "IN",
    "IS",
    "NULL",
    "LIKE",
    "ESCAPE",
    "BETWEEN",
    "EXISTS",
    "GROUP",
    "BY",
    "ORDER",
    "HAVING",
    "DISTINCT",
    "UNION",
    "ALL",
    "JOIN",
    "LEFT",
    "ON",
    "AS",
    "OF",
    "SCN",
    "CASE",
    "WHEN",
    "THEN",
    "ELSE",
    "END",
    "INSERT",
    "INTO",
    "VALUES",
    "UPDATE",
    "SET",
    "DELETE",
    "BEGIN",
    "EXECUTE",
    "IMMEDIATE",
    "ALTER",
    "SESSION",
    "COMMIT",
    "ROLLBACK",
    "DUAL",
    "T",
    "A",
    "B",
    "ROWID",
    "ROWNUM",
    "SYSDATE",
    "COUNT",
    "MIN",
    "MAX",
    "SUM",
    "DECODE",
    "TO_CHAR",
    "TO_DATE",
    "NVL",
    "ROW_NUMBER",
    "OVER",
    "PARTITION",
    "FETCH",
    "FIRST",
    "ROWS",
    "ONLY",
    "DATE",
    "TIMESTAMP",
    "INTERVAL",
    "DAY",
    "TO",
    "SECOND",
    "CAST",
    "NUMBER",
    "TRIM",
    "(",
    ")",
    ",",
    ".",
    "*",
    "+",
    "-",
    "/",
    "||",
    "=",
    "<>",
    "<",
    "<=",
    ">",
    ">=",
    ":=",
    "=>",
    ";",
    ":1",
    ":x",
    "1",
    "0",
    "1.5",
    "1e400",
    "'a'",
    "''",
    "'2020-01-01'",
    "q'[x]'",
    "\"Q\"",
    "N'n'",
    "V$LOG",
    "ALL_TABLES",
    "x",
    "'YYYY-MM-DD'",
    "-- c\n",
    "/* c */",
];

fn run_all(db: &mut MemDb, sql: &str, binds: &[Datum]) {
    let mut s = SqlSession::new();
    if let Ok(Outcome::Rows { rows, .. }) = s.execute(db, sql, binds) {
        for r in rows.take(50) {
            let _ = r;
        }
    }
}

#[test]
fn random_token_soup_never_panics() {
    let mut db = catalog();
    db.view(
        "T",
        common::catalog::cols(&[("A", 'N'), ("B", 'T')]),
        vec![vec![n(1), t("x")], vec![NULL, NULL]],
    );
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let len = 1 + (rng.next() % 24) as usize;
        let mut sql = String::new();
        for _ in 0..len {
            sql.push_str(rng.pick(TOKENS));
            sql.push(' ');
        }
        let binds: Vec<Datum> = (0..(rng.next() % 3)).map(|i| n(i as i64)).collect();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_all(&mut db, &sql, &binds)
        }));
        assert!(r.is_ok(), "panicked on {sql:?}");
    }
}

#[test]
fn mutated_statements_never_panic() {
    let seeds = [
        "SELECT t.OWNER, t.TABLE_NAME, TO_CHAR(t.LAST_ANALYZED, 'YYYY-MM-DD HH24:MI:SS') FROM ALL_TABLES t WHERE t.OWNER NOT IN (SELECT u.USERNAME FROM ALL_USERS u WHERE u.ORACLE_MAINTAINED = 'Y') AND NOT EXISTS (SELECT 1 FROM ALL_EXTERNAL_TABLES x WHERE x.OWNER = t.OWNER AND x.TABLE_NAME = t.TABLE_NAME) ORDER BY t.OWNER, t.TABLE_NAME",
        "SELECT MIN(f.MEMBER), l.THREAD#, l.SEQUENCE# FROM V$LOG l JOIN V$LOGFILE f ON f.GROUP# = l.GROUP# WHERE f.TYPE = 'ONLINE' GROUP BY l.GROUP#, l.THREAD#, l.SEQUENCE# ORDER BY l.THREAD#, l.SEQUENCE#",
        "SELECT K1 FROM (SELECT A K1, ROW_NUMBER() OVER (ORDER BY A) RN FROM T AS OF SCN :1 WHERE ((A > :2) OR (A = :3 AND B >= :4))) WHERE RN > 1 AND RN <= :5 AND MOD(RN - 1, :6) = 0 ORDER BY RN",
        "SELECT THREAD#, TO_CHAR(TRUNC(FIRST_TIME, 'HH24'), 'YYYY-MM-DD HH24'), COUNT(*) FROM V$LOG_HISTORY WHERE FIRST_TIME > SYSDATE - 1 GROUP BY THREAD#, TRUNC(FIRST_TIME, 'HH24') ORDER BY 1, 2",
        "BEGIN SYS.DBMS_LOGMNR.START_LOGMNR(STARTSCN => :1, ENDSCN => :2, OPTIONS => SYS.DBMS_LOGMNR.DICT_FROM_ONLINE_CATALOG + SYS.DBMS_LOGMNR.NO_ROWID_IN_STMT); END;",
        "BEGIN EXECUTE IMMEDIATE 'ALTER SESSION SET NLS_DATE_FORMAT=''YYYY-MM-DD HH24:MI:SS'''; END;",
        "UPDATE T SET A = CASE WHEN B LIKE 'x%' ESCAPE '\\' THEN 1 ELSE DECODE(A, NULL, 2, 3) END WHERE ROWID BETWEEN CHARTOROWID(:1) AND CHARTOROWID(:2)",
    ];
    let mut rng = Rng(42);
    for _ in 0..6_000 {
        let seed = seeds[(rng.next() % seeds.len() as u64) as usize];
        let mut toks: Vec<String> = seed.split(' ').map(String::from).collect();
        for _ in 0..(1 + rng.next() % 3) {
            let i = (rng.next() % toks.len() as u64) as usize;
            match rng.next() % 4 {
                0 => {
                    toks.remove(i);
                }
                1 => {
                    let c = toks[i].clone();
                    toks.insert(i, c);
                }
                2 => toks[i] = rng.pick(TOKENS).to_string(),
                _ => {
                    let j = (rng.next() % toks.len() as u64) as usize;
                    toks.swap(i, j);
                }
            }
            if toks.is_empty() {
                toks.push("SELECT".into());
            }
        }
        let sql = toks.join(" ");
        let mut db = catalog();
        db.table(
            "SCOTT",
            "T",
            common::catalog::cols(&[("A", 'N'), ("B", 'T')]),
            vec![vec![n(1), t("x")], vec![n(2), NULL]],
        );
        let binds: Vec<Datum> = (0..(rng.next() % 8))
            .map(|i| {
                if i % 2 == 0 {
                    n(i as i64)
                } else {
                    t("AAAR3sAAEAAAACXAAA")
                }
            })
            .collect();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_all(&mut db, &sql, &binds)
        }));
        assert!(r.is_ok(), "panicked on {sql:?}");
    }
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let mut db = MemDb::new();
    let deep = format!("SELECT {}1{} FROM DUAL", "(".repeat(5000), ")".repeat(5000));
    assert_eq!(error(&mut db, &deep, &[]).code, 3001);
    let deep_cond = format!(
        "SELECT 1 FROM DUAL WHERE {}1 = 1{}",
        "(".repeat(3000),
        ")".repeat(3000)
    );
    assert_eq!(error(&mut db, &deep_cond, &[]).code, 3001);
    let minus = format!("SELECT {}1 FROM DUAL", "- ".repeat(5000));
    assert_eq!(error(&mut db, &minus, &[]).code, 3001);
    let nots = format!("SELECT 1 FROM DUAL WHERE {}1 = 1", "NOT ".repeat(5000));
    assert!(matches!(error(&mut db, &nots, &[]).code, 3001));
}

#[test]
fn extreme_values_are_errors_not_panics() {
    let mut db = MemDb::new();
    // A DATE the database should never hand out (month 0): rendered, not a panic.
    db.view(
        "ODD",
        vec![emulator_sql::Column::new("D", emulator_sql::OraType::Date)],
        vec![vec![Datum::Date(emulator_sql::DateTime::default())]],
    );
    for sql in [
        "SELECT TO_CHAR(D, 'MON Month RM Q') FROM ODD",
        "SELECT TRUNC(D, 'Q') FROM ODD",
        "SELECT ROUND(D, 'Q') FROM ODD",
        "SELECT D + 1 FROM ODD",
        "SELECT ADD_MONTHS(D, 1) FROM ODD",
        "SELECT INTERVAL '99999999999999999999999999999' DAY FROM DUAL",
        "SELECT INTERVAL '99999999999999999999999' YEAR FROM DUAL",
        "SELECT -(INTERVAL '9' YEAR - INTERVAL '9' YEAR) FROM DUAL",
        "SELECT ADD_MONTHS(SYSDATE, 1e30) FROM DUAL",
        "SELECT SYSDATE + 1e30 FROM DUAL",
        "SELECT TIMESTAMP '2020-01-01 00:00:00' + NUMTODSINTERVAL(1e30, 'DAY') FROM DUAL",
        "SELECT TO_CHAR(1, 'V9999999999999999999999999999999999999999') FROM DUAL",
        "SELECT POWER(10, 200) FROM DUAL",
        "SELECT POWER(0, -1) FROM DUAL",
        "SELECT 1e125 * 10 FROM DUAL",
        "SELECT SUBSTR('abc', -1e30, 1e30) FROM DUAL",
        "SELECT LPAD('x', 1e30) FROM DUAL",
        "SELECT CHR(-1) FROM DUAL",
        "SELECT TO_DATE('9999-12-31', 'YYYY-MM-DD') + 1 FROM DUAL",
        "SELECT TO_DATE('5000000', 'J') FROM DUAL",
        "SELECT MOD(1e100, 7) FROM DUAL",
    ] {
        let r =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_all(&mut db, sql, &[])));
        assert!(r.is_ok(), "panicked on {sql}");
    }
    assert_eq!(
        error(&mut db, "SELECT SYSDATE + 1e30 FROM DUAL", &[]).code,
        1841
    );
    assert_eq!(
        error(&mut db, "SELECT POWER(10, 200) FROM DUAL", &[]).code,
        1426
    );
}
