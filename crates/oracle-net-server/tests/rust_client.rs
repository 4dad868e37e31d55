//! The Rust `oracledb` crate (thin, 26.0.0-beta.5) against the toy backend: login, every type,
//! binds, PL/SQL, transactions, errors, timeouts, session kills, drops and concurrency.

mod common;

use std::io::Read;
use std::time::{Duration, Instant};

use oracle_net_server::{Datum, OraType};
use oracledb::{
    Config, Connection, Error, ErrorKind, OracleIntervalDS, OracleIntervalYM, OracleNumber,
    OracleTimestamp, ToDbValue,
};

fn connect_as(dsn: &str, user: &str, password: &str) -> Result<Connection, Error> {
    let config = Config::default()
        .set_credentials(user, password)
        .set_connect_string(dsn)?;
    oracledb::connect(config)
}

fn connect(dsn: &str) -> Connection {
    connect_as(dsn, common::USER, common::PASSWORD).expect("connect")
}

fn ora_code(e: &Error) -> Option<usize> {
    match e.kind() {
        ErrorKind::DbError(d) => Some(d.code()),
        _ => None,
    }
}

/// The error of a call that must fail (the client's values have no `Debug`).
fn err<T>(r: Result<T, Error>) -> Error {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    }
}

fn num(s: &str) -> OracleNumber {
    s.parse().expect("number")
}

#[test]
fn logs_in_and_reports_the_server() {
    let (_l, toy, dsn) = common::serve();
    let conn = connect(&dsn);
    conn.set_module("oracle-net-test").unwrap();
    conn.set_client_identifier("tester").unwrap();
    assert_eq!(conn.version().unwrap().to_string(), "19.22.0.0.0");
    assert_eq!(conn.service_name().unwrap(), common::SERVICE);
    assert_eq!(conn.instance_name().unwrap(), "emu1");
    assert!(conn.session_id().unwrap() > 0);
    conn.ping().unwrap();
    let logins = toy.state.lock().unwrap().logins.clone();
    assert_eq!(logins.len(), 1);
    assert_eq!(logins[0].user, "CDC");
    assert_eq!(logins[0].service, common::SERVICE);
    assert!(logins[0].driver.contains("rust"), "{}", logins[0].driver);
    // The client's ALTER SESSION SET TIME_ZONE reached the backend as the first statement.
    assert!(toy.state.lock().unwrap().statements[0].starts_with("ALTER SESSION SET TIME_ZONE"));
    // Closing the connection closes the backend session.
    drop(conn);
    let deadline = Instant::now() + Duration::from_secs(10);
    while toy.state.lock().unwrap().closed == 0 {
        assert!(
            Instant::now() < deadline,
            "the backend session was not closed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn long_descriptors_and_sids_connect() {
    let (listener, _toy, _dsn) = common::serve();
    let port = listener.local_addr().port();
    // Over 230 bytes: the descriptor follows the CONNECT packet in a DATA packet.
    let padding = "x".repeat(400);
    let long = format!(
        "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=127.0.0.1)(PORT={port}))\
         (CONNECT_DATA=(SERVICE_NAME=EMU)(INSTANCE_NAME={padding})))"
    );
    connect(&long).ping().unwrap();
    let sid = format!("(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=127.0.0.1)(PORT={port}))(CONNECT_DATA=(SID=EMU)))");
    connect(&sid).ping().unwrap();
    let bad_sid = sid.replace("SID=EMU", "SID=NOPE");
    let e = err(connect_as(&bad_sid, common::USER, common::PASSWORD));
    assert!(matches!(e.kind(), ErrorKind::InvalidSid(..)), "{e}");
}

#[test]
fn bad_logins_are_refused_with_oracle_errors() {
    let (_l, _toy, dsn) = common::serve();
    let e = err(connect_as(&dsn, common::USER, "wrong"));
    assert_eq!(ora_code(&e), Some(1017), "{e}");
    let e = err(connect_as(&dsn, "nobody", common::PASSWORD));
    assert_eq!(ora_code(&e), Some(1017), "{e}");
    let e = err(connect_as(&dsn, "locked", common::PASSWORD));
    assert_eq!(ora_code(&e), Some(28000), "{e}");
    let e = err(connect_as(&dsn, "nocreate", common::PASSWORD));
    assert_eq!(ora_code(&e), Some(1045), "{e}");
    let e = err(connect_as(&dsn, "expired", common::PASSWORD));
    assert_eq!(ora_code(&e), Some(28001), "{e}");
    let unknown = dsn.replace("/EMU", "/NOSUCH");
    let e = err(connect_as(&unknown, common::USER, common::PASSWORD));
    assert!(matches!(e.kind(), ErrorKind::InvalidServiceName(..)), "{e}");
    assert!(e.to_string().contains("12514"), "{e}");
    let blocked = dsn.replace("/EMU", "/BLOCKED");
    let e = err(connect_as(&blocked, common::USER, common::PASSWORD));
    assert!(
        matches!(
            e.kind(),
            ErrorKind::ListenerRefusedConnection(_, _, _, 12528)
        ),
        "{e}"
    );
}

/// A login whose password is in its grace period succeeds and carries ORA-28002, which the
/// crate keeps as the connection's last warning (a TTC WARNING message in the login's answer,
/// read as python-oracledb reads it); a login without one has none.
#[test]
fn a_login_in_the_password_grace_period_carries_its_warning() {
    let (_l, _toy, dsn) = common::serve();
    let conn = connect_as(&dsn, "expiring", common::PASSWORD).expect("let in");
    assert_eq!(
        conn.last_warning().unwrap().as_deref(),
        Some(
            format!(
                "ORA-28002: the password will expire within {} days",
                common::EXPIRING_DAYS
            )
            .as_str()
        )
    );
    conn.ping().expect("the session works");
    assert_eq!(connect(&dsn).last_warning().unwrap(), None);
}

fn ts(t: &OracleTimestamp) -> (i16, u8, u8, u8, u8, u8, u32) {
    (
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        t.nanoseconds(),
    )
}

#[test]
fn every_type_comes_back_as_sent() {
    let (_l, _toy, dsn) = common::serve();
    let conn = connect(&dsn);
    let rows: Vec<_> = conn
        .query("SELECT * FROM ALL_TYPES", &[])
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows.len(), 3);
    let r = &rows[0];
    assert_eq!(r.get::<OracleNumber>(0).unwrap().to_string(), "1");
    assert_eq!(
        r.get::<OracleNumber>(1).unwrap().to_string(),
        "12345678901234567890.123456789012345678"
    );
    assert_eq!(r.get::<String>(2).unwrap(), "héllo wörld ✓");
    assert_eq!(r.get::<String>(3).unwrap(), "abc       ");
    assert_eq!(r.get::<String>(4).unwrap(), "ñandú 日本");
    assert_eq!(r.get::<String>(5).unwrap(), "xy   ");
    assert_eq!(r.get::<f32>(6).unwrap(), 1.5);
    assert_eq!(r.get::<f64>(7).unwrap(), std::f64::consts::PI);
    assert_eq!(ts(&r.get(8).unwrap()), (2026, 12, 4, 10, 5, 9, 0));
    assert_eq!(ts(&r.get(9).unwrap()), (2026, 12, 4, 10, 5, 9, 123_456_000));
    // TIMESTAMP WITH TIME ZONE: this client returns UTC (10:05:09.5 at +05:30).
    let tz: OracleTimestamp = r.get(10).unwrap();
    assert!(tz.is_utc());
    assert_eq!(ts(&tz), (2026, 12, 4, 4, 35, 9, 500_000_000));
    assert_eq!(ts(&r.get(11).unwrap()), (2026, 1, 2, 3, 4, 5, 250_000_000));
    let ym: OracleIntervalYM = r.get(12).unwrap();
    assert_eq!((ym.years(), ym.months()), (1, 2));
    let ds: OracleIntervalDS = r.get(13).unwrap();
    assert_eq!(
        (
            ds.days(),
            ds.hours(),
            ds.minutes(),
            ds.seconds(),
            ds.nanoseconds()
        ),
        (1, 2, 3, 4, 500_000_000)
    );
    assert_eq!(r.get::<Vec<u8>>(14).unwrap(), vec![0xde, 0xad, 0xbe, 0xef]);
    assert_eq!(r.get::<String>(15).unwrap(), "AAAR3sAAEAAAACXAAA");
    assert_eq!(r.get::<OracleNumber>(16).unwrap().to_string(), "1");
    assert_eq!(r.get::<String>(17).unwrap(), "clob ✓ text");
    assert_eq!(r.get::<Vec<u8>>(18).unwrap(), vec![1, 2, 3, 255]);
    assert_eq!(r.get::<String>(19).unwrap(), "nclob ü");

    let nulls = &rows[1];
    assert_eq!(nulls.get::<OracleNumber>(0).unwrap().to_string(), "2");
    for i in 1..20 {
        assert!(
            nulls
                .get::<Option<String>>(i)
                .map(|v| v.is_none())
                .unwrap_or(true),
            "column {i}"
        );
    }
    assert!(nulls.get::<Option<Vec<u8>>>(18).unwrap().is_none());

    let edge = &rows[2];
    assert_eq!(
        edge.get::<OracleNumber>(1).unwrap().to_string(),
        "-99999999999999999999999999999999999999"
    );
    assert_eq!(edge.get::<f32>(6).unwrap(), f32::INFINITY);
    assert!(edge.get::<f64>(7).unwrap().is_nan());
    assert_eq!(ts(&edge.get(8).unwrap()), (1901, 1, 1, 0, 0, 0, 0));
    assert_eq!(
        ts(&edge.get(9).unwrap()),
        (9999, 12, 31, 23, 59, 59, 999_999_000)
    );
    assert_eq!(ts(&edge.get(10).unwrap()), (2000, 3, 1, 7, 30, 0, 0));
    let ym: OracleIntervalYM = edge.get(12).unwrap();
    assert_eq!((ym.years(), ym.months()), (-1, -2));
    let ds: OracleIntervalDS = edge.get(13).unwrap();
    assert_eq!(
        (ds.days(), ds.hours(), ds.seconds(), ds.nanoseconds()),
        (-1, -2, -4, -500_000_000)
    );
    assert_eq!(edge.get::<String>(15).unwrap(), "AAABBBAACAAAADDAAE");
    assert_eq!(edge.get::<OracleNumber>(16).unwrap().to_string(), "0");
    assert_eq!(edge.get::<String>(17).unwrap(), "x".repeat(40_000));
    assert_eq!(edge.get::<Vec<u8>>(18).unwrap().len(), 70_000);
    assert_eq!(edge.get::<String>(19).unwrap(), "ü".repeat(5000));

    let cols = conn
        .query("SELECT * FROM ALL_TYPES", &[])
        .unwrap()
        .columns()
        .to_vec();
    assert_eq!(cols[0].name(), "ID");
    assert_eq!((cols[0].precision(), cols[0].scale()), (10, 0));
    assert_eq!(cols[2].max_size(), 100);
    assert_eq!(cols[9].scale(), 6);
    assert!(cols[1].nullable());
}

#[test]
fn long_long_raw_and_urowid_columns() {
    let (_l, _toy, dsn) = common::serve();
    let conn = connect(&dsn);
    let rows: Vec<_> = conn
        .query("SELECT * FROM LONG_TYPES", &[])
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows[0].get::<String>(1).unwrap(), "long text");
    assert_eq!(rows[0].get::<String>(2).unwrap(), "AAAR3sAAEAAAACXAAA");
    assert_eq!(rows[1].get::<String>(1).unwrap(), "l".repeat(100_000));
    assert_eq!(rows[1].get::<Option<String>>(2).unwrap(), None);
    let raw: Vec<u8> = conn
        .query_row("SELECT * FROM LONG_RAWS", &[])
        .unwrap()
        .get(1)
        .unwrap();
    assert_eq!(raw, vec![7; 300]);
}

#[test]
fn numbers_are_exact() {
    let (_l, _toy, dsn) = common::serve();
    let conn = connect(&dsn);
    let got: Vec<String> = conn
        .query("SELECT N FROM BIG_NUMBERS", &[])
        .unwrap()
        .map(|r| r.unwrap().get::<OracleNumber>(0).unwrap().to_string())
        .collect();
    let want: Vec<String> = common::big_numbers()
        .iter()
        .map(|s| oracle_net_server::canonical_number(s).unwrap())
        .collect();
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(
            g.parse::<OracleNumber>().unwrap().to_string(),
            w.parse::<OracleNumber>().unwrap().to_string()
        );
    }
    assert_eq!(got[0], "12345678901234567890123");
    assert_eq!(got[1], "99999999999999999999999999999999999999");
}

#[test]
fn ten_thousand_rows_in_batches() {
    let (_l, _toy, dsn) = common::serve();
    let conn = connect(&dsn);
    let stmt = conn
        .statement("SELECT ID, NAME FROM MANY")
        .unwrap()
        .fetch_array_size(500)
        .prefetch_rows(100)
        .build()
        .unwrap();
    let mut n = 0u64;
    for row in stmt.query(&[]).unwrap() {
        let row = row.unwrap();
        n += 1;
        assert_eq!(
            row.get::<OracleNumber>(0).unwrap().to_string(),
            n.to_string()
        );
        assert_eq!(row.get::<String>(1).unwrap(), format!("row-{n}"));
    }
    assert_eq!(n, common::MANY_ROWS);
}

#[test]
fn five_megabyte_lobs_as_values_and_as_locators() {
    let (_l, _toy, dsn) = common::serve();
    let conn = connect(&dsn);
    let row = conn
        .query_row("SELECT ID, C, B FROM BIG_LOBS", &[])
        .unwrap();
    assert!(row.get::<String>(1).unwrap() == common::big_clob());
    assert!(row.get::<Vec<u8>>(2).unwrap() == common::big_blob());

    let stmt = conn
        .statement("SELECT ID, C, B FROM BIG_LOBS")
        .unwrap()
        .fetch_lobs()
        .build()
        .unwrap();
    let mut row = stmt.query_row(&[]).unwrap();
    let mut clob: oracledb::Lob = row.take(1).unwrap();
    let mut text = String::new();
    clob.read_to_string(&mut text).unwrap();
    assert!(text == common::big_clob());
    let mut blob: oracledb::Lob = row.take(2).unwrap();
    let mut bytes = Vec::new();
    blob.read_to_end(&mut bytes).unwrap();
    assert!(bytes == common::big_blob());
}

#[test]
fn binds_of_each_type_reach_the_backend() {
    let (_l, toy, dsn) = common::serve();
    let conn = connect(&dsn);
    let when = OracleTimestamp::new_timestamp(2024, 2, 29, 13, 14, 15, 123_000_000);
    let day = OracleTimestamp::new_date(1999, 12, 31);
    let ym = OracleIntervalYM::new(3, 4);
    let ds = OracleIntervalDS::new(5, 6, 7, 8, 9);
    let big = "é".repeat(20_000);
    let none: Option<i64> = None;
    let params: [&dyn ToDbValue; 13] = [
        &42i64,
        &num("-12345678901234567890.5"),
        &"héllo",
        &vec![1u8, 2, 3],
        &1.25f32,
        &-2.5f64,
        &true,
        &when,
        &day,
        &ym,
        &ds,
        &none,
        &big,
    ];
    let sql = "SELECT ECHO(:1, :2, :3, :4, :5, :6, :7, :8, :9, :10, :11, :12, :13) FROM DUAL";
    let row = conn.query_row(sql, &params).unwrap();
    assert_eq!(row.get::<OracleNumber>(0).unwrap().to_string(), "42");
    assert_eq!(
        row.get::<OracleNumber>(1).unwrap().to_string(),
        "-12345678901234567890.5"
    );
    assert_eq!(row.get::<String>(2).unwrap(), "héllo");
    assert_eq!(row.get::<Vec<u8>>(3).unwrap(), vec![1, 2, 3]);
    assert_eq!(row.get::<f32>(4).unwrap(), 1.25);
    assert_eq!(row.get::<f64>(5).unwrap(), -2.5);
    assert_eq!(row.get::<OracleNumber>(6).unwrap().to_string(), "1");
    assert_eq!(
        ts(&row.get(7).unwrap()),
        (2024, 2, 29, 13, 14, 15, 123_000_000)
    );
    assert_eq!(ts(&row.get(8).unwrap()), (1999, 12, 31, 0, 0, 0, 0));
    let back: OracleIntervalYM = row.get(9).unwrap();
    assert_eq!((back.years(), back.months()), (3, 4));
    let back: OracleIntervalDS = row.get(10).unwrap();
    assert_eq!(
        (
            back.days(),
            back.hours(),
            back.minutes(),
            back.seconds(),
            back.nanoseconds()
        ),
        (5, 6, 7, 8, 9)
    );
    assert_eq!(
        row.get::<Option<OracleNumber>>(11)
            .unwrap()
            .map(|n| n.to_string()),
        None
    );
    assert_eq!(row.get::<String>(12).unwrap(), big);

    let st = toy.state.lock().unwrap();
    let types = st.bind_types.last().unwrap();
    assert_eq!(types[0], OraType::NUMBER);
    assert!(matches!(types[2], OraType::Varchar2(_)));
    assert!(matches!(types[3], OraType::Raw(_)));
    assert_eq!(types[4], OraType::BinaryFloat);
    assert_eq!(types[5], OraType::BinaryDouble);
    assert_eq!(types[6], OraType::Boolean);
    assert!(matches!(types[7], OraType::Timestamp(_)));
    assert!(matches!(types[9], OraType::IntervalYm(_)));
    assert!(matches!(types[10], OraType::IntervalDs(..)));
}

#[test]
fn a_five_megabyte_bind_spans_packets() {
    let (_l, toy, dsn) = common::serve();
    let conn = connect(&dsn);
    let big = common::big_clob();
    conn.execute("INSERT INTO T (ID, DOC) VALUES (:1, :2)", &[&1i64, &big])
        .unwrap();
    conn.commit().unwrap();
    let st = toy.state.lock().unwrap();
    assert_eq!(st.bind_types.last().unwrap()[1], OraType::Long);
    assert!(st.committed[0][1] == Datum::text(big));
}

#[test]
fn named_binds_may_repeat() {
    let (_l, toy, dsn) = common::serve();
    let conn = connect(&dsn);
    let row = conn
        .query_row_named(
            "SELECT ECHO(:a, :b, :a) FROM DUAL",
            &[("a", &7i64), ("b", &"x")],
        )
        .unwrap();
    assert_eq!(row.get::<OracleNumber>(0).unwrap().to_string(), "7");
    assert_eq!(row.get::<String>(1).unwrap(), "x");
    assert_eq!(row.get::<OracleNumber>(2).unwrap().to_string(), "7");
    assert_eq!(
        toy.state.lock().unwrap().bind_types.last().unwrap().len(),
        3
    );
}

#[test]
fn plsql_out_binds_come_back() {
    let (_l, _toy, dsn) = common::serve();
    let conn = connect(&dsn);
    let mut result = conn
        .execute(
            "BEGIN TOY_PROC(:1, :2, :3); END;",
            &[&21i64, &oracledb::DB_TYPE_NUMBER, &"abc"],
        )
        .unwrap();
    let out = result.out_bind_data();
    assert_eq!(out.get::<i64>(0).unwrap(), 42);
    assert_eq!(out.get::<String>(1).unwrap(), "abc!");
    // Again (a re-execute of the same cursor), by name.
    let mut result = conn
        .execute_named(
            "BEGIN TOY_PROC(:x, :y, :z); END;",
            &[("x", &5i64), ("y", &oracledb::DB_TYPE_NUMBER), ("z", &"q")],
        )
        .unwrap();
    assert_eq!(result.out_bind_data().get::<i64>("y").unwrap(), 10);
    conn.execute("BEGIN NULL; END;", &[]).unwrap();
}

#[test]
fn dml_counts_and_transactions_reach_the_backend() {
    let (_l, toy, dsn) = common::serve();
    let conn = connect(&dsn);
    let r = conn
        .execute("INSERT INTO T (ID, NAME) VALUES (:1, :2)", &[&1i64, &"one"])
        .unwrap();
    assert_eq!(r.rows_affected(), 1);
    conn.commit().unwrap();
    conn.execute("INSERT INTO T (ID, NAME) VALUES (:1, :2)", &[&2i64, &"two"])
        .unwrap();
    conn.rollback().unwrap();
    assert_eq!(
        conn.execute("UPDATE T SET NAME = NAME", &[])
            .unwrap()
            .rows_affected(),
        3
    );
    let rows: &[&[&dyn ToDbValue]] = &[&[&10i64, &"a"], &[&11i64, &"b"], &[&12i64, &"c"]];
    let batch = conn
        .execute_batch("INSERT INTO T (ID, NAME) VALUES (:1, :2)", rows)
        .unwrap();
    assert_eq!(batch.rows_affected(), 3);
    conn.commit().unwrap();
    let st = toy.state.lock().unwrap();
    assert_eq!((st.commits, st.rollbacks), (2, 1));
    assert_eq!(st.committed.len(), 4);
    assert_eq!(st.committed[0], vec![Datum::int(1), Datum::text("one")]);
    assert_eq!(st.committed[3], vec![Datum::int(12), Datum::text("c")]);
}

#[test]
fn errors_carry_their_code_text_and_position() {
    let (_l, _toy, dsn) = common::serve();
    let conn = connect(&dsn);
    let e = err(conn.query_row("SELECT * FROM NOPE", &[]));
    match e.kind() {
        ErrorKind::DbError(d) => {
            assert_eq!(d.code(), 942);
            assert_eq!(d.offset(), 14);
            assert!(
                d.message().starts_with("ORA-00942: table or view"),
                "{}",
                d.message()
            );
        }
        other => panic!("{other:?}"),
    }
    // The session goes on.
    let e = err(conn.query_row("SELECT 1 FROM DUAL WHERE 1 = 0", &[]));
    assert!(matches!(e.kind(), ErrorKind::NoDataFound), "{e}");
    let stmt = conn
        .statement("SELECT FAIL FROM MIDWAY")
        .unwrap()
        .fetch_array_size(2)
        .prefetch_rows(2)
        .build()
        .unwrap();
    let mut ok = 0;
    let mut failure = None;
    for r in stmt.query(&[]).unwrap().take(10) {
        match r {
            Ok(_) => ok += 1,
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    assert!((2..=5).contains(&ok), "{ok} rows before the error");
    let err = failure.expect("an error mid-fetch");
    assert_eq!(ora_code(&err), Some(1722), "{err}");
    conn.ping().unwrap();
}

#[test]
fn call_timeout_on_a_slow_statement_fails_the_call_without_a_hang() {
    let (_l, _toy, dsn) = common::serve();
    let conn = connect(&dsn);
    conn.set_call_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let started = Instant::now();
    let e = err(conn.query_row("SELECT SLOW FROM DUAL", &[]));
    assert!(matches!(e.kind(), ErrorKind::CallTimeoutExceeded), "{e:?}");
    assert!(
        started.elapsed() < common::SLOW,
        "took {:?}",
        started.elapsed()
    );
    // The connection survives: the next call waits for the backend, then answers.
    conn.set_call_timeout(None).unwrap();
    let row = conn.query_row("SELECT DBTIMEZONE FROM DUAL", &[]).unwrap();
    assert_eq!(row.get::<String>(0).unwrap(), "+00:00");
}

#[test]
fn a_killed_session_reports_then_disconnects() {
    let (_l, _toy, dsn) = common::serve();
    let conn = connect(&dsn);
    let e = err(conn.query_row("SELECT KILL FROM DUAL", &[]));
    assert_eq!(ora_code(&e), Some(28), "{e}");
    assert!(conn.ping().is_err());
}

#[test]
fn a_dropped_connection_is_a_disconnect() {
    let (_l, _toy, dsn) = common::serve();
    let conn = connect(&dsn);
    let e = err(conn.query_row("SELECT DROP FROM DUAL", &[]));
    assert!(
        ora_code(&e).is_none(),
        "a dropped connection sends no ORA error: {e}"
    );
    assert!(conn.ping().is_err());
}

#[test]
fn twenty_connections_at_once() {
    let (_l, toy, dsn) = common::serve();
    let threads: Vec<_> = (0..20)
        .map(|i| {
            let dsn = dsn.clone();
            std::thread::spawn(move || {
                let conn = connect(&dsn);
                let n = conn.query("SELECT * FROM ALL_TYPES", &[]).unwrap().count();
                let stmt = conn
                    .statement("SELECT ID, NAME FROM MANY")
                    .unwrap()
                    .fetch_array_size(1000)
                    .build()
                    .unwrap();
                let many = stmt.query(&[]).unwrap().count();
                conn.execute(
                    "INSERT INTO T (ID, NAME) VALUES (:1, :2)",
                    &[&(i as i64), &"x"],
                )
                .unwrap();
                conn.commit().unwrap();
                (n, many)
            })
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().unwrap(), (3, common::MANY_ROWS as usize));
    }
    assert_eq!(toy.state.lock().unwrap().committed.len(), 20);
}

/// A cursor belongs to the container it was parsed in: the driver's statement cache executes a
/// cached statement again by its cursor, which after ALTER SESSION SET CONTAINER is ORA-65108
/// on Oracle; without the cache every statement is parsed where it runs.
#[test]
fn a_cached_cursor_run_in_another_container_is_ora_65108() {
    let (_l, _toy, dsn) = common::serve();
    // A PL/SQL block, as the adapter's session setup is (the driver caches it).
    let run = |conn: &Connection| conn.execute("BEGIN NULL; END;", &[]).map(|_| ());
    let cached = connect(&dsn);
    run(&cached).expect("parsed and run in CDB$ROOT");
    run(&cached).expect("run again in the same container");
    cached
        .execute("ALTER SESSION SET CONTAINER = PDB1", &[])
        .expect("container switch");
    let e = err(run(&cached));
    assert_eq!(ora_code(&e), Some(65108), "{e}");

    let config = Config::default()
        .set_credentials(common::USER, common::PASSWORD)
        .set_connect_string(&dsn)
        .expect("dsn")
        .set_stmtcachesize(0);
    let uncached = oracledb::connect(config).expect("connect");
    run(&uncached).expect("in CDB$ROOT");
    uncached
        .execute("ALTER SESSION SET CONTAINER = PDB1", &[])
        .expect("container switch");
    run(&uncached).expect("parsed again in PDB1");
    uncached
        .execute("ALTER SESSION SET CONTAINER = CDB$ROOT", &[])
        .expect("back to the root");
    run(&uncached).expect("parsed again in CDB$ROOT");
}
