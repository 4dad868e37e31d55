//! The query grammar beyond the adapter's statements: joins (inner, LEFT, CROSS, comma),
//! ROWNUM, FETCH FIRST / OFFSET, UNION ALL, DISTINCT, GROUP BY / HAVING and every aggregate,
//! RANK / DENSE_RANK / ROW_NUMBER with partitions, ORDER BY by alias, position and expression
//! with NULLS FIRST/LAST, correlated IN and scalar subqueries, database functions over row
//! values.

mod common;
use common::catalog::cols;
use common::*;
use emulator_sql::{Datum, OraType, SqlSession};

fn db() -> MemDb {
    let mut db = MemDb::new();
    db.table(
        "SCOTT",
        "EMP",
        cols(&[("ID", 'N'), ("NAME", 'T'), ("DEPT", 'N'), ("SAL", 'N')]),
        vec![
            vec![n(1), t("ann"), n(10), n(100)],
            vec![n(2), t("bob"), n(20), n(200)],
            vec![n(3), t("cat"), n(10), n(300)],
            vec![n(4), t("dan"), NULL, n(300)],
            vec![n(5), t("eve"), n(30), NULL],
        ],
    );
    db.table(
        "SCOTT",
        "DEPT",
        cols(&[("DEPT", 'N'), ("DNAME", 'T')]),
        vec![
            vec![n(10), t("ops")],
            vec![n(20), t("dev")],
            vec![n(40), t("hr")],
        ],
    );
    db
}

fn col(r: &[Vec<Datum>], i: usize) -> Vec<Datum> {
    r.iter().map(|x| x[i].clone()).collect()
}

#[test]
fn joins() {
    let mut db = db();
    let inner = rows(
        &mut db,
        "SELECT e.NAME, d.DNAME FROM EMP e JOIN DEPT d ON d.DEPT = e.DEPT ORDER BY e.ID",
        &[],
    );
    assert_eq!(
        inner,
        vec![
            vec![t("ann"), t("ops")],
            vec![t("bob"), t("dev")],
            vec![t("cat"), t("ops")]
        ]
    );
    let left = rows(
        &mut db,
        "SELECT e.NAME, d.DNAME FROM EMP e LEFT OUTER JOIN DEPT d ON d.DEPT = e.DEPT ORDER BY e.ID",
        &[],
    );
    assert_eq!(
        col(&left, 1),
        vec![t("ops"), t("dev"), t("ops"), NULL, NULL]
    );
    // WHERE on the outer-joined side after the join: anti-join.
    let anti = rows(&mut db, "SELECT e.NAME FROM EMP e LEFT JOIN DEPT d ON d.DEPT = e.DEPT WHERE d.DEPT IS NULL ORDER BY 1", &[]);
    assert_eq!(col(&anti, 0), vec![t("dan"), t("eve")]);
    let comma = rows(&mut db, "SELECT e.NAME FROM EMP e, DEPT d WHERE e.DEPT = d.DEPT AND d.DNAME = 'ops' ORDER BY e.NAME DESC", &[]);
    assert_eq!(col(&comma, 0), vec![t("cat"), t("ann")]);
    let cross = rows(&mut db, "SELECT COUNT(*) FROM EMP CROSS JOIN DEPT", &[]);
    assert_eq!(cross, vec![vec![n(15)]]);
    let three = "SELECT a.NAME, b.NAME FROM EMP a JOIN EMP b ON b.SAL = a.SAL AND b.ID > a.ID JOIN DEPT d ON d.DEPT = a.DEPT";
    assert_eq!(rows(&mut db, three, &[]), vec![vec![t("cat"), t("dan")]]);
    let star = rows(
        &mut db,
        "SELECT d.*, e.ID FROM DEPT d JOIN EMP e ON e.DEPT = d.DEPT WHERE e.ID = 2",
        &[],
    );
    assert_eq!(star, vec![vec![n(20), t("dev"), n(2)]]);
}

#[test]
fn rownum_fetch_offset_union_distinct() {
    let mut db = db();
    assert_eq!(
        col(
            &rows(&mut db, "SELECT ID FROM EMP WHERE ROWNUM <= 2", &[]),
            0
        ),
        vec![n(1), n(2)]
    );
    assert_eq!(
        rows(&mut db, "SELECT ID FROM EMP WHERE ROWNUM = 2", &[]),
        Vec::<Vec<Datum>>::new()
    );
    assert_eq!(
        col(
            &rows(&mut db, "SELECT ROWNUM, ID FROM EMP WHERE SAL > 150", &[]),
            0
        ),
        vec![n(1), n(2), n(3)]
    );
    assert_eq!(
        col(
            &rows(
                &mut db,
                "SELECT ID FROM EMP ORDER BY SAL DESC NULLS LAST FETCH FIRST 2 ROWS ONLY",
                &[]
            ),
            0
        ),
        vec![n(3), n(4)]
    );
    assert_eq!(
        col(
            &rows(
                &mut db,
                "SELECT ID FROM EMP ORDER BY ID OFFSET 3 ROWS FETCH NEXT 5 ROWS ONLY",
                &[]
            ),
            0
        ),
        vec![n(4), n(5)]
    );
    let u = rows(&mut db, "SELECT NAME FROM EMP WHERE ID = 1 UNION ALL SELECT DNAME FROM DEPT WHERE DEPT = 40 UNION ALL SELECT 'x' FROM DUAL ORDER BY 1", &[]);
    assert_eq!(col(&u, 0), vec![t("ann"), t("hr"), t("x")]);
    assert_eq!(
        col(
            &rows(
                &mut db,
                "SELECT DISTINCT SAL FROM EMP ORDER BY SAL NULLS FIRST",
                &[]
            ),
            0
        ),
        vec![NULL, n(100), n(200), n(300)]
    );
    assert_eq!(
        col(
            &rows(
                &mut db,
                "SELECT DISTINCT DEPT FROM EMP ORDER BY 1 DESC",
                &[]
            ),
            0
        ),
        vec![NULL, n(30), n(20), n(10)]
    );
}

#[test]
fn grouping_and_aggregates() {
    let mut db = db();
    let sql = "SELECT DEPT, COUNT(*), COUNT(SAL), SUM(SAL), AVG(SAL), MIN(NAME), MAX(SAL), COUNT(DISTINCT SAL) FROM EMP GROUP BY DEPT HAVING COUNT(*) >= 1 ORDER BY DEPT NULLS FIRST";
    assert_eq!(
        rows(&mut db, sql, &[]),
        vec![
            vec![NULL, n(1), n(1), n(300), n(300), t("dan"), n(300), n(1)],
            vec![n(10), n(2), n(2), n(400), n(200), t("ann"), n(300), n(2)],
            vec![n(20), n(1), n(1), n(200), n(200), t("bob"), n(200), n(1)],
            vec![n(30), n(1), n(0), NULL, NULL, t("eve"), NULL, n(0)],
        ]
    );
    assert_eq!(
        rows(
            &mut db,
            "SELECT COUNT(*), SUM(SAL) FROM EMP WHERE 1 = 0",
            &[]
        ),
        vec![vec![n(0), NULL]]
    );
    assert_eq!(
        rows(
            &mut db,
            "SELECT DEPT FROM EMP WHERE 1 = 0 GROUP BY DEPT",
            &[]
        ),
        Vec::<Vec<Datum>>::new()
    );
    assert_eq!(
        rows(&mut db, "SELECT DEPT, SUM(SAL) TOTAL FROM EMP GROUP BY DEPT HAVING SUM(SAL) > 250 ORDER BY TOTAL DESC", &[]),
        vec![vec![n(10), n(400)], vec![NULL, n(300)]]
    );
    assert_eq!(
        value(&mut db, "SELECT AVG(ID) FROM EMP WHERE ID IN (1, 2)"),
        num("1.5")
    );
    assert_eq!(
        value(&mut db, "SELECT SUM(SAL) / COUNT(*) FROM EMP"),
        n(180)
    );
    // GROUP BY an expression; the select list uses it.
    assert_eq!(
        rows(
            &mut db,
            "SELECT MOD(ID, 2), COUNT(*) FROM EMP GROUP BY MOD(ID, 2) ORDER BY 1",
            &[]
        ),
        vec![vec![n(0), n(2)], vec![n(1), n(3)]]
    );
}

#[test]
fn analytic_functions() {
    let mut db = db();
    let sql = "SELECT NAME, ROW_NUMBER() OVER (PARTITION BY DEPT ORDER BY SAL DESC, ID) RN, RANK() OVER (ORDER BY SAL) R, DENSE_RANK() OVER (ORDER BY SAL) DR FROM EMP ORDER BY ID";
    assert_eq!(
        rows(&mut db, sql, &[]),
        vec![
            vec![t("ann"), n(2), n(1), n(1)],
            vec![t("bob"), n(1), n(2), n(2)],
            vec![t("cat"), n(1), n(3), n(3)],
            vec![t("dan"), n(1), n(3), n(3)],
            vec![t("eve"), n(1), n(5), n(4)],
        ]
    );
    let grouped = "SELECT DEPT, SUM(SAL), ROW_NUMBER() OVER (ORDER BY SUM(SAL) DESC NULLS LAST) FROM EMP GROUP BY DEPT ORDER BY 3";
    assert_eq!(
        col(&rows(&mut db, grouped, &[]), 0),
        vec![n(10), NULL, n(20), n(30)]
    );
}

/// National text sorts, numbers rows, takes MIN / MAX and bounds a scan by UTF-16 code units
/// (a supplementary character before U+FF21), database text by UTF-8 bytes (U+FF21 first).
#[test]
fn national_text_sorts_by_utf16_units() {
    let mut db = MemDb::new();
    // This double bounds scans by UTF-8 bytes: the WHERE clause must decide alone.
    db.honor_bounds = false;
    db.table(
        "SCOTT",
        "NT",
        vec![
            emulator_sql::Column::new("NK", OraType::NVarchar2(2)),
            emulator_sql::Column::new("K", OraType::Varchar2(8)),
        ],
        ["Ａ", "😀", "a"].iter().map(|c| vec![t(c), t(c)]).collect(),
    );
    fn col_of(r: &[Vec<Datum>], i: usize) -> Vec<Datum> {
        r.iter().map(|row| row[i].clone()).collect()
    }
    let ranked = |db: &mut MemDb, col: &str| {
        let sql =
            format!("SELECT {col}, ROW_NUMBER() OVER (ORDER BY {col} DESC) RN FROM NT ORDER BY RN");
        col_of(&rows(db, &sql, &[]), 0)
    };
    assert_eq!(ranked(&mut db, "NK"), vec![t("Ａ"), t("😀"), t("a")]);
    assert_eq!(ranked(&mut db, "K"), vec![t("😀"), t("Ａ"), t("a")]);
    assert_eq!(
        rows(&mut db, "SELECT MAX(NK), MAX(K), MIN(NK) FROM NT", &[]),
        vec![vec![t("Ａ"), t("😀"), t("a")]]
    );
    assert_eq!(
        col_of(
            &rows(
                &mut db,
                "SELECT NK FROM NT WHERE NK > UNISTR('\\D83D\\DE00')",
                &[]
            ),
            0
        ),
        vec![t("Ａ")]
    );
    assert_eq!(
        col_of(&rows(&mut db, "SELECT K FROM NT WHERE K > 'Ａ'", &[]), 0),
        vec![t("😀")]
    );
}

#[test]
fn correlated_subqueries() {
    let mut db = db();
    let scalar = "SELECT e.NAME, (SELECT d.DNAME FROM DEPT d WHERE d.DEPT = e.DEPT) FROM EMP e ORDER BY e.ID";
    assert_eq!(
        col(&rows(&mut db, scalar, &[]), 1),
        vec![t("ops"), t("dev"), t("ops"), NULL, NULL]
    );
    let top = "SELECT NAME FROM EMP e WHERE SAL = (SELECT MAX(SAL) FROM EMP x WHERE x.DEPT = e.DEPT) ORDER BY NAME";
    assert_eq!(col(&rows(&mut db, top, &[]), 0), vec![t("bob"), t("cat")]);
    let in_corr =
        "SELECT DNAME FROM DEPT d WHERE 'cat' IN (SELECT NAME FROM EMP e WHERE e.DEPT = d.DEPT)";
    assert_eq!(rows(&mut db, in_corr, &[]), vec![vec![t("ops")]]);
    let not_in_null = "SELECT COUNT(*) FROM DEPT WHERE DEPT NOT IN (SELECT DEPT FROM EMP)";
    assert_eq!(
        value(&mut db, not_in_null),
        n(0),
        "a NULL in the subquery makes NOT IN unknown"
    );
    let not_in =
        "SELECT DNAME FROM DEPT WHERE DEPT NOT IN (SELECT DEPT FROM EMP WHERE DEPT IS NOT NULL)";
    assert_eq!(rows(&mut db, not_in, &[]), vec![vec![t("hr")]]);
    let exists = "SELECT DNAME FROM DEPT d WHERE NOT EXISTS (SELECT 1 FROM EMP e WHERE e.DEPT = d.DEPT) ORDER BY 1";
    assert_eq!(rows(&mut db, exists, &[]), vec![vec![t("hr")]]);
    // Two levels up.
    let deep = "SELECT DNAME FROM DEPT d WHERE EXISTS (SELECT 1 FROM EMP e WHERE e.DEPT = d.DEPT AND EXISTS (SELECT 1 FROM DUAL WHERE e.SAL > 250 AND d.DNAME = 'ops'))";
    assert_eq!(rows(&mut db, deep, &[]), vec![vec![t("ops")]]);
    let view = "SELECT v.N FROM (SELECT NAME N, SAL FROM EMP WHERE SAL IS NOT NULL) v WHERE v.SAL > 150 ORDER BY v.N DESC";
    assert_eq!(
        col(&rows(&mut db, view, &[]), 0),
        vec![t("dan"), t("cat"), t("bob")]
    );
}

#[test]
fn database_functions_over_row_values() {
    let mut db = db();
    let mut s = SqlSession::new();
    let sql = "SELECT ID, TO_CHAR(SCN_TO_TIMESTAMP(SAL * 100), 'HH24:MI:SS') FROM EMP WHERE SAL IS NOT NULL ORDER BY ID";
    let (columns, r) = query(&mut db, &mut s, sql, &[]).unwrap();
    assert_eq!(
        col(&r, 1),
        vec![t("02:46:40"), t("05:33:20"), t("08:20:00"), t("08:20:00")]
    );
    assert_eq!(columns[1].ora_type, OraType::Varchar2(8));
    // One call per distinct argument list.
    let calls = db
        .log
        .functions
        .iter()
        .filter(|(f, _)| f == "SCN_TO_TIMESTAMP")
        .count();
    assert_eq!(calls, 3);
    // A row value the database refuses fails the statement.
    assert_eq!(
        error(&mut db, "SELECT SCN_TO_TIMESTAMP(ID) FROM EMP", &[]).code,
        8181
    );
    assert_eq!(error(&mut db, "SELECT NO_SUCH(ID) FROM EMP", &[]).code, 904);
    assert_eq!(value(&mut db, "SELECT USER FROM DUAL"), t("SCOTT"));
    assert_eq!(value(&mut db, "SELECT UID + 1 FROM DUAL"), n(43));
}

/// `SELECT MIN(c), MAX(c) FROM t` is answered from the ends of an index on `c` when the database
/// has one, without a scan, typed as the column and named as Oracle names the items; anything
/// more (a WHERE, another column, another aggregate) reads the rows.
#[test]
fn min_and_max_of_an_indexed_column_come_from_the_index() {
    let mut db = db();
    db.index_ends
        .insert(("EMP".into(), "ID".into()), (n(1), n(5)));
    let mut s = SqlSession::new();
    match s
        .execute(
            &mut db,
            "SELECT MIN(\"ID\"), MAX(ID) hi FROM SCOTT.EMP AS OF SCN :1",
            &[n(77)],
        )
        .unwrap()
    {
        emulator_sql::Outcome::Rows { columns, rows } => {
            let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(names, ["MIN(\"ID\")", "HI"]);
            assert_eq!(columns[0].ora_type, OraType::NUMBER);
            let rows: Vec<Vec<Datum>> = rows.map(Result::unwrap).collect();
            assert_eq!(rows, vec![vec![n(1), n(5)]]);
        }
        other => panic!("{other:?}"),
    }
    assert!(
        db.log.scans.is_empty(),
        "the table was read: {:?}",
        db.log.scans
    );
    // The general path: a WHERE clause, or a column without index ends.
    assert_eq!(
        rows(
            &mut db,
            "SELECT MAX(ID) FROM SCOTT.EMP WHERE DEPT = 10",
            &[]
        ),
        vec![vec![n(3)]]
    );
    assert_eq!(
        rows(&mut db, "SELECT MIN(SAL), MAX(SAL) FROM SCOTT.EMP", &[]),
        vec![vec![n(100), n(300)]]
    );
    assert_eq!(db.log.scans.len(), 2);
    // An unknown column is still ORA-00904.
    assert_eq!(
        error(&mut db, "SELECT MIN(NOPE) FROM SCOTT.EMP", &[]).code,
        904
    );
}
