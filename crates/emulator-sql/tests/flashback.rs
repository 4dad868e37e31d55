//! The generated statements of sql.rs (flashback reads with key and ROWID ranges and user
//! filters, key range and boundary probes, the filter check, the signal insert, the container
//! switch), as sql_tests.rs shows them, against tables with AS OF SCN versions: the rows, the
//! scan requests (AS OF, bounds derived from the lexicographic expansion, ROWID range, wanted
//! order), early stops over ordered scans, and streaming.

mod common;
use common::*;
use emulator_sql::{CmpOp, Column, Datum, OraType, Outcome, SqlSession};
use std::sync::atomic::Ordering;

fn emp_db() -> MemDb {
    let mut db = MemDb::new();
    let mut cols = vec![
        Column::new(
            "ID",
            OraType::Number {
                precision: 10,
                scale: 0,
            },
        ),
        Column::new("NAME", OraType::Varchar2(20)),
        Column::new("STATUS", OraType::Char(1)),
        Column::new("DOC", OraType::Clob),
        Column::new("Weird (name", OraType::Varchar2(20)),
    ];
    cols[0].nullable = false;
    db.table(
        "HR",
        "EMP",
        cols,
        vec![
            vec![n(30), t("carol"), t("A"), t("{\"a\":1}"), NULL],
            vec![n(10), t("alice"), t("A"), NULL, t("it's (odd")],
            vec![n(20), t("bob"), t("B"), NULL, NULL],
        ],
    );
    db.snapshot("HR", "EMP", 7);
    // After SCN 7: bob leaves, dave arrives.
    let tb = db
        .tables
        .get_mut(&("HR".to_string(), "EMP".to_string()))
        .unwrap();
    tb.rows.retain(|(_, r)| r[0] != n(20));
    tb.rows.push((
        Some(rowid(5000)),
        vec![n(15), t("dave"), t("A"), NULL, NULL],
    ));
    db
}

fn ids(r: &[Vec<Datum>], col: usize) -> Vec<Datum> {
    r.iter().map(|row| row[col].clone()).collect()
}

#[test]
fn whole_table_as_of_scn_ordered_by_key() {
    let mut db = emp_db();
    let sql = "SELECT ROWID, \"ID\", \"NAME\" FROM \"HR\".\"EMP\" AS OF SCN :scn ORDER BY \"ID\"";
    let mut s = SqlSession::new();
    let (cols, r) = query(&mut db, &mut s, sql, &[n(7)]).unwrap();
    assert_eq!(ids(&r, 1), vec![n(10), n(20), n(30)]);
    assert!(matches!(&r[0][0], Datum::Rowid(x) if x.len() == 18));
    let names: Vec<&str> = cols.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["ROWID", "ID", "NAME"]);
    assert_eq!(cols[0].ora_type, OraType::Rowid);
    assert_eq!(
        cols[1].ora_type,
        OraType::Number {
            precision: 10,
            scale: 0
        }
    );
    assert!(!cols[1].nullable);
    let (name, req) = db.log.scans.last().unwrap();
    assert_eq!(
        (name.schema.as_deref(), name.name.as_str()),
        (Some("HR"), "EMP")
    );
    assert_eq!(req.as_of_scn, Some(7));
    assert_eq!(req.wanted_order, ["ID"]);
    // Current data: no AS OF.
    let now = rows(
        &mut db,
        "SELECT \"ID\" FROM \"HR\".\"EMP\" ORDER BY \"ID\"",
        &[],
    );
    assert_eq!(ids(&now, 0), vec![n(10), n(15), n(30)]);
}

#[test]
fn single_key_range_is_pushed_down() {
    let mut db = emp_db();
    let sql = "SELECT ROWID, \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ((\"ID\" >= :l1)) AND ((\"ID\" < :u1)) ORDER BY \"ID\"";
    // With the database ignoring bounds, the WHERE clause alone decides.
    db.honor_bounds = false;
    let r = rows(&mut db, sql, &[n(7), n(10), n(30)]);
    assert_eq!(ids(&r, 1), vec![n(10), n(20)]);
    let req = &db.log.scans.last().unwrap().1;
    assert_eq!(req.bounds.len(), 2);
    assert_eq!(
        (
            req.bounds[0].column.as_str(),
            req.bounds[0].op,
            &req.bounds[0].value
        ),
        ("ID", CmpOp::Ge, &n(10))
    );
    assert_eq!(
        (
            req.bounds[1].column.as_str(),
            req.bounds[1].op,
            &req.bounds[1].value
        ),
        ("ID", CmpOp::Lt, &n(30))
    );
    // A text bind for a NUMBER key is converted to the column's type for the database.
    rows(&mut db, sql, &[n(7), t("10"), t("30")]);
    assert_eq!(db.log.scans.last().unwrap().1.bounds[0].value, n(10));
}

/// A database that reports its bounds applied (a range read of exactly those keys) spares the
/// engine the conjuncts they decide, and only those.
#[test]
fn conjuncts_an_applied_bound_decides_are_not_checked_again() {
    let mut db = emp_db();
    db.exact_bounds = true;
    let chunk = "SELECT \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ((\"ID\" >= :l1)) AND ((\"ID\" < :u1)) ORDER BY \"ID\"";
    let binds = [n(7), n(10), n(30)];
    // A database that keeps its promise: the same rows as the engine checking them all.
    assert_eq!(ids(&rows(&mut db, chunk, &binds), 0), vec![n(10), n(20)]);
    // One that breaks it shows what the engine no longer checks: the lower end, and the
    // upper one, neither as a conjunct nor as the stop of the ordered read (the scan ends at
    // its upper bound itself, as an index range scan ends at its stop key).
    db.honor_bounds = false;
    assert_eq!(
        ids(&rows(&mut db, chunk, &[n(7), n(20), n(30)]), 0),
        vec![n(10), n(20), n(30)]
    );
    // A bound the scan does not claim still stops the ordered read and is still checked.
    db.exact_bounds = false;
    assert_eq!(
        ids(&rows(&mut db, chunk, &[n(7), n(20), n(30)]), 0),
        vec![n(20)]
    );
    db.exact_bounds = true;
    // Either way round, and a text bind the column's type converts to the bound's value.
    let flipped =
        "SELECT \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE :l1 <= \"ID\" ORDER BY \"ID\"";
    assert_eq!(
        ids(&rows(&mut db, flipped, &[n(7), t("20")]), 0),
        vec![n(10), n(20), n(30)]
    );
    // What no bound says is still checked: another operator (`<>`), a LIKE, a
    // looser value than the bound tightened to (`ID > 5` beside `ID >= 20`), an
    // expression of the column.
    for (condition, want) in [
        ("\"ID\" >= 10 AND \"ID\" <> 20", vec![n(10), n(30)]),
        ("\"ID\" >= 10 AND \"NAME\" LIKE 'b%'", vec![n(20)]),
        ("\"ID\" > 5 AND \"ID\" >= 20", vec![n(10), n(20), n(30)]),
        ("\"ID\" + 0 >= 20", vec![n(20), n(30)]),
    ] {
        let sql = format!(
            "SELECT \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE {condition} ORDER BY \"ID\""
        );
        assert_eq!(ids(&rows(&mut db, &sql, &[n(7)]), 0), want, "{condition}");
    }
}

/// A query whose text names no ROWID asks its scans to skip making them (the database above
/// gives none then), and gets the same rows; one that names ROWID anywhere, and every change,
/// asks for them.
#[test]
fn only_statements_that_name_rowid_ask_for_rowids() {
    let mut db = emp_db();
    let asked = |db: &MemDb| !db.log.scans.last().unwrap().1.skip_rowids;
    let plain = "SELECT \"ID\", \"NAME\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE \"ID\" >= :l ORDER BY \"ID\"";
    let r = rows(&mut db, plain, &[n(7), n(20)]);
    assert!(!asked(&db));
    assert_eq!(r, vec![vec![n(20), t("bob")], vec![n(30), t("carol")]]);
    for sql in [
        "SELECT ROWID, \"ID\" FROM \"HR\".\"EMP\"",
        "SELECT \"ID\" FROM \"HR\".\"EMP\" ORDER BY ROWID",
        "SELECT \"ID\" FROM \"HR\".\"EMP\" e WHERE e.rowid IS NOT NULL",
        "SELECT \"ID\" FROM (SELECT \"ID\", ROWID r FROM \"HR\".\"EMP\")",
        "SELECT COUNT(*) FROM \"HR\".\"EMP\" WHERE ROWIDTOCHAR(ROWID) > 'A'",
    ] {
        let got = rows(&mut db, sql, &[]);
        assert!(asked(&db), "{sql}");
        assert_eq!(
            got.len(),
            if sql.contains("COUNT") { 1 } else { 3 },
            "{sql}"
        );
    }
    // The ROWIDs a query names are there, each its own.
    let r = rows(&mut db, "SELECT ROWID FROM \"HR\".\"EMP\"", &[]);
    let mut seen: Vec<&Datum> = r.iter().map(|x| &x[0]).collect();
    seen.dedup();
    assert!(r
        .iter()
        .all(|x| matches!(&x[0], Datum::Rowid(s) if s.len() == 18)));
    assert_eq!(seen.len(), 3);
    // Changes find their rows by ROWID.
    let mut s = SqlSession::new();
    s.execute(&mut db, "DELETE FROM \"HR\".\"EMP\" WHERE \"ID\" = 15", &[])
        .unwrap();
    assert!(asked(&db));
    assert_eq!(db.log.deletes.len(), 1);
}

/// A scan is told the names its statement writes (a superset of the columns it references),
/// or that it references every column when it selects `*` or `t.*`; a `*` that multiplies or
/// counts is no wildcard.
#[test]
fn scans_are_told_the_names_their_statement_writes() {
    let mut db = emp_db();
    let told = |db: &MemDb| db.log.scans.last().unwrap().1.references.clone();
    let names = |v: &[&str]| Some(v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    rows(
        &mut db,
        "SELECT id FROM hr.emp WHERE \"NAME\" IS NOT NULL ORDER BY id",
        &[],
    );
    assert_eq!(
        told(&db),
        names(&[
            "BY", "EMP", "FROM", "HR", "ID", "IS", "NAME", "NOT", "NULL", "ORDER", "SELECT",
            "WHERE"
        ])
    );
    for sql in [
        "SELECT COUNT(*) FROM hr.emp",
        "SELECT id * 2 FROM hr.emp",
        "SELECT (id) * 2 FROM hr.emp",
    ] {
        rows(&mut db, sql, &[]);
        assert!(told(&db).is_some(), "{sql}");
        assert!(!told(&db).unwrap().contains(&"NAME".to_string()), "{sql}");
    }
    for sql in [
        "SELECT * FROM hr.emp",
        "SELECT DISTINCT * FROM hr.emp",
        "SELECT e.* FROM hr.emp e",
        "SELECT id, e.* FROM hr.emp e",
    ] {
        rows(&mut db, sql, &[]);
        assert_eq!(told(&db), None, "{sql}");
    }
}

fn abc_db() -> MemDb {
    let mut db = MemDb::new();
    let data = [
        (1, "x", "2019-12-31"),
        (1, "x", "2020-01-01"),
        (1, "y", "2019-01-01"),
        (1, "w", "2021-01-01"),
        (2, "a", "2000-01-01"),
        (0, "z", "2030-01-01"),
        (1, "x", "2020-06-01"),
    ];
    db.table(
        "HR",
        "EMP",
        vec![
            num_col("A"),
            text_col("B", 10),
            Column::new("C", OraType::Date),
        ],
        data.iter()
            .map(|(a, b, c)| vec![n(*a), t(b), date(&format!("{c} 00:00:00"))])
            .collect(),
    );
    db
}

#[test]
fn composite_lower_bound_expansion_derives_the_first_column_bound() {
    let mut db = abc_db();
    let sql = "SELECT ROWID, \"A\", \"B\", \"C\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ((\"A\" > :l1) OR (\"A\" = :l1 AND \"B\" > :l2) OR (\"A\" = :l1 AND \"B\" = :l2 AND \"C\" >= TO_DATE(:l3, 'YYYY-MM-DD HH24:MI:SS'))) ORDER BY \"A\", \"B\", \"C\"";
    // SQL binds every placeholder occurrence: scn, l1, l1, l2, l1, l2, l3.
    let l1 = n(1);
    let l2 = t("x");
    let l3 = t("2020-01-01 00:00:00");
    let binds = [n(9), l1.clone(), l1.clone(), l2.clone(), l1, l2, l3];
    db.honor_bounds = false;
    let r = rows(&mut db, sql, &binds);
    let got: Vec<(Datum, Datum, Datum)> = r
        .iter()
        .map(|x| (x[1].clone(), x[2].clone(), x[3].clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            (n(1), t("x"), date("2020-01-01 00:00:00")),
            (n(1), t("x"), date("2020-06-01 00:00:00")),
            (n(1), t("y"), date("2019-01-01 00:00:00")),
            (n(2), t("a"), date("2000-01-01 00:00:00")),
        ]
    );
    let req = &db.log.scans.last().unwrap().1;
    assert_eq!(req.bounds.len(), 1, "{:?}", req.bounds);
    assert_eq!(
        (
            req.bounds[0].column.as_str(),
            req.bounds[0].op,
            &req.bounds[0].value
        ),
        ("A", CmpOp::Ge, &n(1))
    );
    assert_eq!(req.wanted_order, ["A", "B", "C"]);
    // The database applying the bound gives the same rows.
    db.honor_bounds = true;
    assert_eq!(rows(&mut db, sql, &binds), r);
    // Too few binds for the occurrences: ORA-01008; too many: ORA-01036.
    assert_eq!(error(&mut db, sql, &binds[..4]).code, 1008);
    let mut more = binds.to_vec();
    more.push(n(1));
    assert_eq!(error(&mut db, sql, &more).code, 1036);
}

#[test]
fn composite_upper_bound_with_timestamps_and_raw() {
    let mut db = MemDb::new();
    db.table(
        "HR",
        "EMP",
        vec![
            Column::new("A", OraType::Timestamp(9)),
            Column::new("B", OraType::Raw(4)),
        ],
        vec![
            vec![ts("2020-01-01 00:00:00"), Datum::Bytes(vec![0])],
            vec![ts("2020-01-01 00:00:00"), Datum::Bytes(vec![1])],
            vec![ts("2019-12-31 23:59:59.999999999"), Datum::Bytes(vec![9])],
            vec![ts("2020-01-01 00:00:00.000000001"), Datum::Bytes(vec![0])],
        ],
    );
    let sql = "SELECT ROWID, \"A\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ((\"A\" < TO_TIMESTAMP(:u1, 'YYYY-MM-DD HH24:MI:SS.FF9')) OR (\"A\" = TO_TIMESTAMP(:u1, 'YYYY-MM-DD HH24:MI:SS.FF9') AND \"B\" < :u2)) ORDER BY \"A\", \"B\"";
    let u1 = t("2020-01-01 00:00:00.000000000");
    let r = rows(&mut db, sql, &[n(1), u1.clone(), u1, Datum::Bytes(vec![1])]);
    assert_eq!(
        ids(&r, 1),
        vec![
            ts("2019-12-31 23:59:59.999999999"),
            ts("2020-01-01 00:00:00")
        ]
    );
    let req = &db.log.scans.last().unwrap().1;
    assert_eq!(req.bounds.len(), 1);
    assert_eq!(
        (req.bounds[0].column.as_str(), req.bounds[0].op),
        ("A", CmpOp::Le)
    );
    assert_eq!(req.bounds[0].value, ts("2020-01-01 00:00:00"));
}

#[test]
fn rowid_range_and_serialized_columns() {
    let mut db = emp_db();
    let all = rows(
        &mut db,
        "SELECT ROWID FROM \"HR\".\"EMP\" AS OF SCN :scn ORDER BY ROWID",
        &[n(7)],
    );
    assert_eq!(all.len(), 3);
    let start = match &all[1][0] {
        Datum::Rowid(r) => r.to_string(),
        other => panic!("{other:?}"),
    };
    let sql = "SELECT ROWID, \"ID\", JSON_SERIALIZE(\"DOC\" RETURNING CLOB), VECTOR_SERIALIZE(\"NAME\" RETURNING CLOB), XMLSERIALIZE(CONTENT \"NAME\" AS CLOB) FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ROWID BETWEEN CHARTOROWID(:rowid_start) AND CHARTOROWID(:rowid_end) ORDER BY ROWID";
    let end = "AAARzzzzzzzzzzzzzz".to_string();
    let mut s = SqlSession::new();
    db.honor_bounds = false;
    let (cols, r) = query(&mut db, &mut s, sql, &[n(7), t(&start), t(&end)]).unwrap();
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!(r[0][0], Datum::Rowid(start.as_str().into()));
    let req = &db.log.scans.last().unwrap().1;
    assert_eq!(req.rowid_between, Some((start, end)));
    assert_eq!(req.wanted_order, ["ROWID"]);
    let names: Vec<&str> = cols.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "ROWID",
            "ID",
            "JSON_SERIALIZE(\"DOC\"RETURNINGCLOB)",
            "VECTOR_SERIALIZE(\"NAME\"RETURNINGCLOB)",
            "XMLSERIALIZE(CONTENT\"NAME\"ASCLOB)"
        ]
    );
    assert!(cols[2..].iter().all(|c| c.ora_type == OraType::Clob));
    let docs: Vec<Datum> = r.iter().map(|x| x[3].clone()).collect();
    assert!(docs.contains(&t("bob")));
    assert_eq!(
        error(&mut db, sql, &[n(7), t("not a rowid"), t(&"A".repeat(18))]).code,
        1410
    );
}

#[test]
fn user_filters_are_anded_after_the_range() {
    let mut db = emp_db();
    let key = "SELECT ROWID, \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ((\"ID\" >= :l1)) AND ((\"ID\" < :u1)) AND (STATUS = 'A' OR NAME LIKE 'x%') ORDER BY \"ID\"";
    assert_eq!(
        ids(&rows(&mut db, key, &[n(7), n(10), n(40)]), 1),
        vec![n(10), n(30)]
    );
    let whole = "SELECT ROWID, \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE (REGION IN ('EU', 'US')) ORDER BY \"ID\"";
    let e = error(&mut db, whole, &[n(7)]);
    assert_eq!(e.code, 904);
    assert_eq!(e.message, "ORA-00904: \"REGION\": invalid identifier");
    assert_eq!(e.position, Some(whole.find("REGION").unwrap() as u32));
    let odd = "SELECT ROWID, \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ROWID BETWEEN CHARTOROWID(:rowid_start) AND CHARTOROWID(:rowid_end) AND (\"Weird (name\" = q'[it's (odd]') ORDER BY ROWID";
    let r = rows(
        &mut db,
        odd,
        &[n(7), t("AAAAAAAAAAAAAAAAAA"), t("//////////////////")],
    );
    assert_eq!(ids(&r, 1), vec![n(10)]);
    let open =
        "SELECT ROWID, \"ID\" FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE (ID > 0) ORDER BY \"ID\"";
    assert_eq!(rows(&mut db, open, &[n(7)]).len(), 3);
    // CHAR blank-padding: the literal 'A ' equals CHAR(1) 'A'.
    let padded = "SELECT \"ID\" FROM \"HR\".\"EMP\" WHERE STATUS = 'A ' ORDER BY 1";
    assert_eq!(
        ids(&rows(&mut db, padded, &[]), 0),
        vec![n(10), n(15), n(30)]
    );
}

#[test]
fn key_range_probe() {
    let mut db = emp_db();
    let sql = "SELECT MIN(\"ID\"), MAX(\"ID\") FROM \"HR\".\"EMP\" AS OF SCN :scn";
    let mut s = SqlSession::new();
    let (cols, r) = query(&mut db, &mut s, sql, &[n(7)]).unwrap();
    assert_eq!(r, vec![vec![n(10), n(30)]]);
    assert_eq!(cols[0].name, "MIN(\"ID\")");
    assert_eq!(cols[1].name, "MAX(\"ID\")");
    assert_eq!(
        cols[0].ora_type,
        OraType::Number {
            precision: 10,
            scale: 0
        }
    );
    assert_eq!(
        rows(
            &mut db,
            "SELECT MIN(\"ID\"), MAX(\"ID\") FROM \"HR\".\"EMP\"",
            &[]
        ),
        vec![vec![n(10), n(30)]]
    );
    db.table("HR", "EMPTY", vec![num_col("ID")], vec![]);
    assert_eq!(
        rows(
            &mut db,
            "SELECT MIN(\"ID\"), MAX(\"ID\") FROM \"HR\".\"EMPTY\"",
            &[]
        ),
        vec![vec![NULL, NULL]]
    );
}

fn gen_row(i: usize) -> Vec<Datum> {
    // Keys 0, 2, 4, … with a NULL-free payload.
    vec![n(2 * i as i64), Datum::Text(format!("r{i}").into())]
}

fn big_db(count: usize) -> MemDb {
    let mut db = MemDb::new();
    db.tables.insert(
        ("HR".into(), "BIG".into()),
        Table {
            columns: vec![num_col("ID"), text_col("PAYLOAD", 20)],
            ordered_by: vec!["ID".into()],
            generated: Some((count, gen_row)),
            ..Table::default()
        },
    );
    db
}

#[test]
fn boundary_probes_number_rows_and_stop_early() {
    let mut db = big_db(100_000);
    let sql = "SELECT K1 FROM (SELECT \"ID\" K1, ROW_NUMBER() OVER (ORDER BY \"ID\") RN FROM \"HR\".\"BIG\" AS OF SCN :scn) WHERE RN > 1 AND RN <= :max_rn AND MOD(RN - 1, :step) = 0 ORDER BY RN";
    // step 10, count 3: rows 11, 21, 31 (0-based 10, 20, 30): keys 20, 40, 60.
    let r = rows(&mut db, sql, &[n(1234), n(31), n(10)]);
    assert_eq!(r, vec![vec![n(20)], vec![n(40)], vec![n(60)]]);
    assert_eq!(db.log.scans.last().unwrap().1.wanted_order, ["ID"]);
    // Ordered scan, streamed numbering, RN <= :max_rn stops the read.
    assert!(
        db.produced.load(Ordering::SeqCst) <= 32,
        "{}",
        db.produced.load(Ordering::SeqCst)
    );
    let lower = "SELECT K1 FROM (SELECT \"ID\" K1, ROW_NUMBER() OVER (ORDER BY \"ID\") RN FROM \"HR\".\"BIG\" AS OF SCN :scn WHERE ((\"ID\" >= :l1))) WHERE RN > 1 AND RN <= :max_rn AND MOD(RN - 1, :step) = 0 ORDER BY RN";
    let r = rows(&mut db, lower, &[n(7), n(500), n(31), n(10)]);
    assert_eq!(r, vec![vec![n(520)], vec![n(540)], vec![n(560)]]);
    let req = &db.log.scans.last().unwrap().1;
    assert_eq!(
        (req.bounds[0].column.as_str(), req.bounds[0].op),
        ("ID", CmpOp::Ge)
    );
}

#[test]
fn boundary_probes_match_the_emulators_rule_on_unordered_data() {
    // Unordered storage: the window sorts. Probe positions are
    // (0..n).skip(step).step_by(step).take(count), as the emulator's key_boundaries.
    let keys: Vec<i64> = vec![17, 3, 99, 42, 8, 23, 4, 61, 15, 77, 5, 38, 12];
    let mut sorted = keys.clone();
    sorted.sort();
    let mut db = MemDb::new();
    db.table(
        "HR",
        "EMP",
        vec![num_col("A"), num_col("RN"), num_col("C")],
        keys.iter().map(|k| vec![n(*k), n(-k), n(k % 3)]).collect(),
    );
    let sql = "SELECT K1, K2, K3 FROM (SELECT \"A\" K1, \"RN\" K2, \"C\" K3, ROW_NUMBER() OVER (ORDER BY \"A\", \"RN\", \"C\") RN FROM \"HR\".\"EMP\" AS OF SCN :scn) WHERE RN > 1 AND RN <= :max_rn AND MOD(RN - 1, :step) = 0 ORDER BY RN";
    db.sort_on_request = false;
    for step in 1..5u64 {
        for count in 0..5u64 {
            let max_rn = step * count + 1;
            let r = rows(&mut db, sql, &[n(1), n(max_rn as i64), n(step as i64)]);
            let want: Vec<Vec<Datum>> = (0..sorted.len())
                .skip(step as usize)
                .step_by(step as usize)
                .take(count as usize)
                .map(|i| vec![n(sorted[i]), n(-sorted[i]), n(sorted[i] % 3)])
                .collect();
            assert_eq!(r, want, "step {step} count {count}");
        }
    }
}

#[test]
fn composite_boundary_probe_with_the_flashback_lower_bound() {
    let mut db = abc_db();
    let sql = "SELECT K1, K2, K3 FROM (SELECT \"A\" K1, \"B\" K2, \"C\" K3, ROW_NUMBER() OVER (ORDER BY \"A\", \"B\", \"C\") RN FROM \"HR\".\"EMP\" AS OF SCN :scn WHERE ((\"A\" > :l1) OR (\"A\" = :l1 AND \"B\" > :l2) OR (\"A\" = :l1 AND \"B\" = :l2 AND \"C\" >= TO_DATE(:l3, 'YYYY-MM-DD HH24:MI:SS')))) WHERE RN > 1 AND RN <= :max_rn AND MOD(RN - 1, :step) = 0 ORDER BY RN";
    let l1 = n(1);
    let l2 = t("x");
    let binds = [
        n(7),
        l1.clone(),
        l1.clone(),
        l2.clone(),
        l1,
        l2,
        t("2019-12-31 00:00:00"),
        n(5),
        n(2),
    ];
    // Rows >= (1, x, 2019-12-31) in key order: (1,x,2019-12-31) (1,x,2020-01-01) (1,x,2020-06-01)
    // (1,y,2019-01-01) (2,a,2000-01-01); RN 3 and 5.
    let r = rows(&mut db, sql, &binds);
    assert_eq!(
        r,
        vec![
            vec![n(1), t("x"), date("2020-06-01 00:00:00")],
            vec![n(2), t("a"), date("2000-01-01 00:00:00")],
        ]
    );
}

#[test]
fn condition_check_reads_nothing_and_names_bad_columns() {
    let mut db = MemDb::new();
    let mut cols = vec![num_col("SAL"), text_col("Odd col", 10)];
    cols[1].nullable = true;
    db.table("HR", "EMP", cols, vec![vec![n(1), t("x")]]);
    let ok = "SELECT 1 FROM \"HR\".\"EMP\" WHERE 1 = 0 AND (SAL > 10 AND \"Odd col\" IS NULL)";
    assert!(rows(&mut db, ok, &[]).is_empty());
    let bad = "SELECT 1 FROM \"HR\".\"EMP\" WHERE 1 = 0 AND (SALARY > 10)";
    let e = error(&mut db, bad, &[]);
    assert_eq!(
        (e.code, e.position),
        (904, Some(bad.find("SALARY").unwrap() as u32))
    );
    let syntax = "SELECT 1 FROM \"HR\".\"EMP\" WHERE 1 = 0 AND (SAL > )";
    assert_eq!(error(&mut db, syntax, &[]).code, 936);
}

#[test]
fn signal_insert_and_container_switch() {
    let mut db = MemDb::new();
    db.table(
        "CDC",
        "DEBEZIUM_SIGNAL",
        vec![
            text_col("ID", 64),
            text_col("TYPE", 32),
            Column::new("DATA", OraType::Varchar2(2048)),
        ],
        vec![],
    );
    let mut s = SqlSession::new();
    let sql = r#"INSERT INTO "CDC"."DEBEZIUM_SIGNAL" ("ID", "TYPE", "DATA") VALUES (:signal_id, :signal_type, :signal_data)"#;
    let out = s
        .execute(&mut db, sql, &[t("sig-1"), t("execute-snapshot"), t("{}")])
        .unwrap();
    assert!(matches!(out, Outcome::Done { row_count: 1 }));
    let (table, cols, rows) = db.log.inserts.last().unwrap();
    assert_eq!(table.name, "DEBEZIUM_SIGNAL");
    assert_eq!(cols, &["ID", "TYPE", "DATA"]);
    assert_eq!(
        rows,
        &vec![vec![t("sig-1"), t("execute-snapshot"), t("{}")]]
    );
    s.execute(&mut db, "ALTER SESSION SET CONTAINER = \"PDB1\"", &[])
        .unwrap();
    s.execute(&mut db, "ALTER SESSION SET CONTAINER = \"CDB$ROOT\"", &[])
        .unwrap();
    assert_eq!(
        db.log.alter,
        vec![
            ("CONTAINER".to_string(), "PDB1".to_string()),
            ("CONTAINER".to_string(), "CDB$ROOT".to_string())
        ]
    );
}

#[test]
fn a_million_rows_stream_through_a_filter() {
    let mut db = big_db(1_000_000);
    let mut s = SqlSession::new();
    let out = s
        .execute(
            &mut db,
            "SELECT ID, PAYLOAD FROM HR.BIG WHERE MOD(ID, 4) = 0",
            &[],
        )
        .unwrap();
    let Outcome::Rows { rows, .. } = out else {
        panic!()
    };
    assert_eq!(db.produced.load(Ordering::SeqCst), 0, "execute read rows");
    let mut rows = rows;
    let first: Vec<_> = rows.by_ref().take(10).collect::<Result<_, _>>().unwrap();
    assert_eq!(first[9], vec![n(36), t("r18")]);
    // Only as many rows were pulled from the table as the ten results needed.
    assert_eq!(db.produced.load(Ordering::SeqCst), 19);
    let rest = rows.count();
    assert_eq!(rest + 10, 500_000);
    assert_eq!(db.produced.load(Ordering::SeqCst), 1_000_000);
}
