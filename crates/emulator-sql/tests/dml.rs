//! INSERT, UPDATE, DELETE and transaction control: row counts, the database calls they make,
//! values converted to their columns' types with Oracle's errors.

mod common;
use common::*;
use emulator_sql::{Column, Datum, OraType, Outcome, SqlSession};

fn db() -> MemDb {
    let mut db = MemDb::new();
    let mut id = Column::new(
        "ID",
        OraType::Number {
            precision: 5,
            scale: 2,
        },
    );
    id.nullable = false;
    db.table(
        "HR",
        "T",
        vec![
            id,
            Column::new("NAME", OraType::Varchar2(5)),
            Column::new("CODE", OraType::Char(3)),
            Column::new("D", OraType::Date),
        ],
        vec![
            vec![n(1), t("a"), t("x  "), NULL],
            vec![n(2), t("b"), t("y  "), NULL],
            vec![n(3), t("c"), NULL, NULL],
        ],
    );
    db
}

fn exec(
    db: &mut MemDb,
    s: &mut SqlSession,
    sql: &str,
    binds: &[Datum],
) -> Result<u64, emulator_sql::OraError> {
    match s.execute(db, sql, binds)? {
        Outcome::Done { row_count } => Ok(row_count),
        other => panic!("{sql}: {other:?}"),
    }
}

#[test]
fn insert_converts_values_to_their_columns() {
    let mut db = db();
    let mut s = SqlSession::new();
    assert_eq!(
        exec(
            &mut db,
            &mut s,
            "INSERT INTO HR.T (ID, NAME, CODE, D) VALUES ('4.567', 42, 'z', '05-JAN-26')",
            &[]
        ),
        Ok(1)
    );
    let (_, cols, rows) = db.log.inserts.last().unwrap();
    assert_eq!(cols, &["ID", "NAME", "CODE", "D"]);
    assert_eq!(
        rows,
        &vec![vec![
            num("4.57"),
            t("42"),
            t("z  "),
            date("2026-01-05 00:00:00")
        ]]
    );
    // No column list: every column in table order.
    assert_eq!(
        exec(
            &mut db,
            &mut s,
            "INSERT INTO HR.T VALUES (:1, :2, NULL, SYSDATE)",
            &[n(5), t("e")]
        ),
        Ok(1)
    );
    assert_eq!(
        db.log.inserts.last().unwrap().1,
        vec!["ID", "NAME", "CODE", "D"]
    );
    assert_eq!(
        db.log.inserts.last().unwrap().2[0][3],
        date("2026-12-04 10:05:09")
    );
    let code = |db: &mut MemDb, s: &mut SqlSession, sql: &str| match exec(db, s, sql, &[]) {
        Ok(n) => panic!("{sql}: {n} rows"),
        Err(e) => e,
    };
    let e = code(
        &mut db,
        &mut s,
        "INSERT INTO HR.T (ID, NAME) VALUES (6, 'toolong')",
    );
    assert_eq!(e.code, 12899);
    assert_eq!(
        e.message,
        "ORA-12899: value too large for column \"HR\".\"T\".\"NAME\" (actual: 7, maximum: 5)"
    );
    // Columns left out get their defaults from the database; an explicit NULL is checked here.
    let e = code(
        &mut db,
        &mut s,
        "INSERT INTO HR.T (ID, NAME) VALUES (NULL, 'x')",
    );
    assert_eq!(
        e.message,
        "ORA-01400: cannot insert NULL into (\"HR\".\"T\".\"ID\")"
    );
    assert_eq!(
        code(&mut db, &mut s, "INSERT INTO HR.T (ID) VALUES ('x')").code,
        1722
    );
    assert_eq!(
        code(&mut db, &mut s, "INSERT INTO HR.T (ID) VALUES (1234)").code,
        1438
    );
    assert_eq!(
        code(&mut db, &mut s, "INSERT INTO HR.T (ID, NAME) VALUES (1)").code,
        947
    );
    assert_eq!(
        code(&mut db, &mut s, "INSERT INTO HR.T (ID) VALUES (1, 2)").code,
        913
    );
    assert_eq!(
        code(&mut db, &mut s, "INSERT INTO HR.T (ID, ID) VALUES (1, 2)").code,
        957
    );
    let e = code(&mut db, &mut s, "INSERT INTO HR.T (ID, NOPE) VALUES (1, 2)");
    assert_eq!((e.code, e.position), (904, Some(22)));
    assert_eq!(
        code(&mut db, &mut s, "INSERT INTO HR.NOPE VALUES (1)").code,
        942
    );
    // INSERT … SELECT.
    assert_eq!(
        exec(
            &mut db,
            &mut s,
            "INSERT INTO HR.T (ID, NAME) SELECT ID + 10, UPPER(NAME) FROM HR.T WHERE ID <= 2",
            &[]
        ),
        Ok(2)
    );
    assert_eq!(
        db.log.inserts.last().unwrap().2,
        vec![vec![n(11), t("A")], vec![n(12), t("B")]]
    );
}

#[test]
fn update_and_delete_by_rowid() {
    let mut db = db();
    let mut s = SqlSession::new();
    let before = rows(&mut db, "SELECT ROWID, ID FROM HR.T ORDER BY ID", &[]);
    assert_eq!(
        exec(
            &mut db,
            &mut s,
            "UPDATE HR.T x SET NAME = UPPER(x.NAME) || ID, CODE = NAME WHERE x.ID >= :lo",
            &[n(2)]
        ),
        Ok(2)
    );
    let ups = &db.log.updates;
    assert_eq!(ups.len(), 2);
    assert_eq!(Datum::Rowid(ups[0].1.clone().into()), before[1][0]);
    // SET reads the old row: CODE gets the old NAME, blank-padded.
    assert_eq!(
        ups[0].2,
        vec![
            ("NAME".to_string(), t("B2")),
            ("CODE".to_string(), t("b  "))
        ]
    );
    let req = &db.log.scans.last().unwrap().1;
    assert_eq!(req.bounds[0].column, "ID");
    assert_eq!(
        rows(&mut db, "SELECT NAME FROM HR.T ORDER BY ID", &[]),
        vec![vec![t("a")], vec![t("B2")], vec![t("C3")]]
    );
    assert_eq!(
        exec(
            &mut db,
            &mut s,
            "UPDATE HR.T SET NAME = 'q' WHERE 1 = 0",
            &[]
        ),
        Ok(0)
    );
    let e = exec(
        &mut db,
        &mut s,
        "UPDATE HR.T SET ID = NULL WHERE ID = 1",
        &[],
    )
    .unwrap_err();
    assert_eq!(
        e.message,
        "ORA-01407: cannot update (\"HR\".\"T\".\"ID\") to NULL"
    );
    assert_eq!(
        exec(&mut db, &mut s, "UPDATE HR.T SET NOPE = 1", &[])
            .unwrap_err()
            .code,
        904
    );
    assert_eq!(
        exec(
            &mut db,
            &mut s,
            "DELETE FROM HR.T WHERE NAME LIKE 'C%'",
            &[]
        ),
        Ok(1)
    );
    assert_eq!(
        db.log.deletes.last().unwrap().1,
        match &before[2][0] {
            Datum::Rowid(r) => r.clone(),
            _ => Default::default(),
        }
    );
    assert_eq!(exec(&mut db, &mut s, "DELETE HR.T", &[]), Ok(2));
    assert!(rows(&mut db, "SELECT * FROM HR.T", &[]).is_empty());
    db.view("V", vec![num_col("A")], vec![vec![n(1)]]);
    assert_eq!(
        exec(&mut db, &mut s, "DELETE FROM V", &[])
            .unwrap_err()
            .code,
        1732
    );
}

#[test]
fn transactions_pass_through() {
    let mut db = db();
    let mut s = SqlSession::new();
    for sql in [
        "SAVEPOINT a",
        "ROLLBACK TO SAVEPOINT a",
        "ROLLBACK TO a",
        "COMMIT",
        "COMMIT WORK",
        "ROLLBACK",
        "ROLLBACK WORK",
    ] {
        assert_eq!(exec(&mut db, &mut s, sql, &[]), Ok(0), "{sql}");
    }
    assert_eq!(
        db.log.tx,
        [
            "SAVEPOINT A",
            "ROLLBACK TO A",
            "ROLLBACK TO A",
            "COMMIT",
            "COMMIT",
            "ROLLBACK",
            "ROLLBACK"
        ]
    );
    assert_eq!(
        exec(&mut db, &mut s, "ROLLBACK TO b", &[])
            .unwrap_err()
            .code,
        1086
    );
    assert_eq!(exec(&mut db, &mut s, "COMMIT;", &[]).unwrap_err().code, 911);
}

#[test]
fn dml_inside_a_block_binds_by_name() {
    let mut db = db();
    let mut s = SqlSession::new();
    let block = "BEGIN INSERT INTO HR.T (ID, NAME) VALUES (:id, :name); UPDATE HR.T SET NAME = :name || '!' WHERE ID = :id; COMMIT; END;";
    let out = s.execute(&mut db, block, &[n(9), t("nine")]).unwrap();
    assert!(matches!(out, Outcome::PlSql { .. }));
    assert_eq!(
        rows(&mut db, "SELECT NAME FROM HR.T WHERE ID = 9", &[]),
        vec![vec![t("nine!")]]
    );
    assert_eq!(db.log.tx, ["COMMIT"]);
    let e = s
        .execute(&mut db, "BEGIN SELECT 1 FROM DUAL; END;", &[])
        .unwrap_err();
    assert_eq!(e.code, 6550);
}
