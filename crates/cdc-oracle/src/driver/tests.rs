//! Both drivers without a database: thin errors map to the same catalog codes as thick ones,
//! what each driver fetches converts to the same `Value`, a panic in a thin login becomes
//! CDC-2009, and the real thin driver against fake listeners on 127.0.0.1 (a refusal, a
//! listener that hangs up, a server that requires native network encryption).

use super::thin::{self, Failure, Phase};
use super::*;
use crate::connect::CallContext;
use crate::fetch::{self, Fetch};
use crate::types::Value;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener};

fn call() -> CallContext {
    CallContext {
        table: Some("HR.EMP".into()),
        scn: Some(100),
        operation: "test",
        ..CallContext::default()
    }
}

fn pw() -> Password {
    Password::new("Thin-Secret-91")
}

#[test]
fn thin_login_errors_map_like_thick_ones() {
    let refused = "stream operation failed: Connection refused (os error 111)";
    let cases = [
        (
            thin::failure(Failure::Stream, refused, Phase::Connect),
            Code::Cdc2003,
        ),
        (
            thin::failure(Failure::Refused(12541), "listener refused", Phase::Connect),
            Code::Cdc2003,
        ),
        (
            thin::failure(
                Failure::UnknownService,
                "service \"X\" is not registered",
                Phase::Connect,
            ),
            Code::Cdc2004,
        ),
        (
            thin::db_error(
                1017,
                "ORA-01017: invalid credential or not authorized; logon denied\n",
            ),
            Code::Cdc2002,
        ),
        (
            thin::db_error(28000, "ORA-28000: The account is locked."),
            Code::Cdc2005,
        ),
        (
            thin::db_error(1045, "ORA-01045: user lacks CREATE SESSION privilege"),
            Code::Cdc2401,
        ),
        (
            thin::failure(
                Failure::Timeout,
                "the configured call timeout was exceeded",
                Phase::Connect,
            ),
            Code::Cdc2010,
        ),
        (
            thin::failure(
                Failure::Closed,
                "the database or network closed the connection",
                Phase::Connect,
            ),
            Code::Cdc2010,
        ),
        (
            thin::failure(Failure::Other, "invalid connect string: x", Phase::Connect),
            Code::Cdc2006,
        ),
        (
            thin::failure(
                Failure::Unsupported,
                "connections to this database server are not supported",
                Phase::Connect,
            ),
            Code::Cdc2009,
        ),
    ];
    for (e, want) in cases {
        let got = e.at_login(&pw(), "db:1521/X");
        assert_eq!(got.code(), want, "{e:?} → {got}");
    }
    // The equivalent ORA- code is the error's code, so connect retries treat a timeout and a
    // closed connection as transient (CDC-2010), as they do for thick's ORA-12170 and ORA-03113.
    for f in [Failure::Timeout, Failure::Closed] {
        let e = thin::failure(f, "text", Phase::Connect).at_login(&pw(), "db/x");
        assert!(cdc_core::errors::is_transient(&e), "{e}");
    }
    let no_listener =
        thin::failure(Failure::Stream, refused, Phase::Connect).at_login(&pw(), "h/s");
    assert!(
        no_listener.to_string().contains("ORA-12541"),
        "{no_listener}"
    );
    assert!(cdc_core::errors::is_transient(&no_listener));
    let unknown = thin::failure(Failure::Other, "invalid connect string", Phase::Connect);
    assert_eq!(unknown.code, None);
}

#[test]
fn thin_call_errors_map_like_thick_ones() {
    let c = call();
    let cases = [
        (thin::db_error(1555, "ORA-01555: snapshot too old"), Code::Cdc5001),
        (thin::db_error(942, "ORA-00942: table or view does not exist"), Code::Cdc2401),
        (
            thin::db_error(
                6550,
                "ORA-06550: line 1, column 7:\nPLS-00201: identifier 'SYS.DBMS_LOGMNR' must be declared\nORA-06550: line 1",
            ),
            Code::Cdc2401,
        ),
        (thin::db_error(3113, "ORA-03113: end-of-file on communication channel"), Code::Cdc5007),
        (thin::failure(Failure::Closed, "the database or network closed the connection", Phase::Call), Code::Cdc5007),
        (thin::failure(Failure::NotConnected, "not connected to database", Phase::Call), Code::Cdc5007),
        (thin::failure(Failure::Stream, "stream operation failed: Connection reset by peer (os error 104)", Phase::Call), Code::Cdc5007),
        (thin::failure(Failure::Stream, "stream operation failed: Broken pipe (os error 32)", Phase::Call), Code::Cdc5007),
        // A call over cdc.database.call.timeout.ms (thick: DPI-1067) was cancelled: what it was
        // reading or mining is read again on a new session (the state a break leaves, a
        // LogMiner session half-started, is not trusted), as after a lost connection.
        (thin::failure(Failure::Timeout, "the configured call timeout was exceeded", Phase::Call), Code::Cdc5007),
        (thin::failure(Failure::Other, "unsupported conversion from number to raw", Phase::Call), Code::Cdc5006),
    ];
    for (e, want) in cases {
        assert_eq!(e.runtime(&c).code(), want, "{e:?}");
    }
    let timeout = thin::failure(Failure::Timeout, "x", Phase::Call);
    assert_eq!(timeout.code, Some(OraCode::Dpi(1067)));
    assert!(thin::failure(Failure::NoDataFound, "no data found", Phase::Call).no_data_found);
    assert!(thin::db_error(1403, "ORA-01403: no data found").no_data_found);
    assert!(!thin::db_error(942, "ORA-00942").no_data_found);
    assert!(thin::db_error(1031, "ORA-01031").is_missing_privilege());
    // The PL/SQL line stays with the first line; the backtrace goes.
    let pls = thin::db_error(
        6550,
        "ORA-06550: line 1, column 7:\nPLS-00306: wrong number\nORA-06512: at line 1",
    );
    assert_eq!(
        pls.message,
        "ORA-06550: line 1, column 7: PLS-00306: wrong number"
    );
    // A thin limit met during a call names thick mode.
    let limit = thin::failure(
        Failure::Unsupported,
        "batch errors are unsupported",
        Phase::Call,
    )
    .runtime(&c);
    assert_eq!(limit.code(), Code::Cdc5006);
    assert!(
        limit.to_string().contains("cdc.database.driver=thick"),
        "{limit}"
    );
}

#[test]
fn socket_errors_get_the_thick_codes() {
    use thin::io_code;
    assert_eq!(
        io_code("Connection refused (os error 111)", Phase::Connect),
        Some(OraCode::Ora(12541))
    );
    assert_eq!(
        io_code(
            "failed to lookup address information: Name or service not known",
            Phase::Connect
        ),
        Some(OraCode::Ora(12545))
    );
    assert_eq!(
        io_code("Connection reset by peer (os error 104)", Phase::Connect),
        Some(OraCode::Ora(3113))
    );
    // No route now (a network outage): thick's ORA-12543, a login failure a later try may
    // not meet (CDC-2010, retried), not a general one that stops a reconnecting capture.
    for text in [
        "No route to host (os error 113)",
        "Network is unreachable (os error 101)",
        "Host is unreachable (os error 113)",
        "Network unreachable",
        "host unreachable",
    ] {
        assert_eq!(
            io_code(text, Phase::Connect),
            Some(OraCode::Ora(12543)),
            "{text}"
        );
        assert_eq!(
            io_code(text, Phase::Call),
            Some(OraCode::Ora(3113)),
            "{text}"
        );
        let e = crate::connect::connect_error(io_code(text, Phase::Connect), text, "pw", "h/s");
        assert_eq!(e.code(), Code::Cdc2010, "{e}");
    }
    assert_eq!(
        io_code("Permission denied (os error 13)", Phase::Connect),
        None
    );
    assert_eq!(
        io_code("Permission denied (os error 13)", Phase::Call),
        Some(OraCode::Ora(3113))
    );
}

fn thick_ts(
    y: i32,
    mo: u32,
    d: u32,
    h: u32,
    mi: u32,
    s: u32,
    ns: u32,
) -> oracle::sql_type::Timestamp {
    match oracle::sql_type::Timestamp::new(y, mo, d, h, mi, s, ns) {
        Ok(t) => t,
        Err(e) => panic!("{e}"),
    }
}

fn value(cell: Cell, how: Fetch) -> Value {
    match fetch::value(cell, how, "C", &call()) {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn numbers_come_through_as_the_same_exact_text() {
    for text in [
        "0.15",
        "-0.5",
        "7",
        "12345678901234567890123456789012345678",
        "-0.00000000000000000000000000000000000001",
        "1000000000000000000000000000000000000000000",
        "3.14159265358979323846264338327950288419",
        // Longer than the stack's 64 bytes the thin driver prints into first.
        "-0.0000000000000000000000000000000000000000000000000000000000000000000000000123",
        "1230000000000000000000000000000000000000000000000000000000000000000000000000000000",
    ] {
        let thin = match text.parse::<oracledb::OracleNumber>() {
            Ok(n) => thin::number(&n),
            Err(e) => panic!("{text}: {e}"),
        };
        // ODPI-C's text of the same NUMBER (what the thick driver hands over).
        let thick = thick::number(text.into());
        // Both cells hold Oracle's form already: `fetch::value` moves it, checking nothing.
        let oracle = crate::types::oracle_number_text(text);
        assert_eq!(thin, Cell::Number(oracle.as_str().into()), "{text}");
        assert_eq!(thick, Cell::Number(oracle.as_str().into()), "{text}");
        assert_eq!(value(thin, Fetch::Native), Value::Number(oracle.into()));
    }
    assert_eq!(
        value(
            thin::number(&"0.15".parse().unwrap_or_default()),
            Fetch::Native
        ),
        Value::Number(".15".into())
    );
    // A catalog column read as text keeps the zero before the point, as a driver's
    // conversion to a string prints it.
    let ctx = CallContext::default();
    for (text, want) in [
        ("0.15", "0.15"),
        ("-0.5", "-0.5"),
        ("7", "7"),
        ("-7.25", "-7.25"),
    ] {
        let row = [thin::number(&text.parse().unwrap_or_default())];
        let cols = fetch::Cols {
            row: &row,
            ctx: &ctx,
        };
        assert_eq!(cols.string(0).unwrap(), want);
    }
}

/// The crate's text of an `OracleNumber` no public constructor makes (`thin::number_text`).
fn thin_text(text: &str) -> Cell {
    use std::fmt::Write as _;
    let mut t = cdc_core::stack_text::StackText::<64>::default();
    let _ = write!(t, "{text}");
    thin::number_text(t)
}

/// A NUMBER holding +infinity or -infinity (Oracle's `~` and `-~`; on disk 0xFF 0x65 and 0x00)
/// is not published as a number. What each driver hands over for them, from their decoders:
/// the `oracledb` crate's `OracleNumber::from_buf` reads 0xFF 0x65 as 1E125 (its base-100 digit
/// 100 becomes the digits 1, 0 without moving the point, where python-oracledb's decoder, which
/// it follows, moves it: 1E126) and 0x00 as a minus sign and 126 zeros (no digit at all);
/// ODPI-C's `dpiUtils__parseOracleNumber` (thick) reads them as 1E126 and -1E126, both beyond
/// NUMBER's finite range.
#[test]
fn number_infinities_are_refused_not_published() {
    let zeros = |n: usize| "0".repeat(n);
    let thin_plus = match format!("1{}", zeros(125)).parse::<oracledb::OracleNumber>() {
        Ok(n) => thin::number(&n),
        Err(e) => panic!("{e}"),
    };
    let cells = [
        ("thin +infinity", thin_plus, "+infinity"),
        (
            "thin -infinity",
            thin_text(&format!("-{}", zeros(126))),
            "-infinity",
        ),
        (
            "thick +infinity",
            thick::number(format!("1{}", zeros(126))),
            "+infinity",
        ),
        (
            "thick -infinity",
            thick::number(format!("-1{}", zeros(126))),
            "-infinity",
        ),
    ];
    let mut published = Vec::new();
    for (what, cell, sign) in cells {
        // Every fetch, not only a native one (a BOOLEAN before 23ai arrives as a NUMBER).
        let boolean = fetch::value(cell.clone(), Fetch::Boolean, "C", &call());
        assert!(
            matches!(&boolean, Err(e) if e.code() == Code::Cdc3011),
            "{what}: {boolean:?}"
        );
        match fetch::value(cell, Fetch::Native, "C", &call()) {
            Ok(v) => published.push(format!("{what}: {v:?}")),
            Err(e) => {
                assert_eq!(e.code(), Code::Cdc3011, "{what}: {e}");
                let shown = e.to_string();
                for needed in [
                    "CDC-3011: test of HR.EMP: column C holds the NUMBER ",
                    sign,
                    "oracle-cdc explain CDC-3011",
                ] {
                    assert!(shown.contains(needed), "{what}: {needed}: {shown}");
                }
                // Only the thin driver's +infinity may be 1E125, and the message says so.
                let ambiguous = what == "thin +infinity";
                assert_eq!(shown.contains("1E125"), ambiguous, "{what}: {shown}");
                assert_eq!(shown.contains("driver=thick"), ambiguous, "{what}: {shown}");
            }
        }
    }
    assert!(published.is_empty(), "published: {published:#?}");
    // Their finite neighbours are numbers: the largest NUMBER (38 nines, then zeros to below
    // 1E126) and -1E125 on both drivers, 1E125 on the thick one.
    let largest = format!("{}{}", "9".repeat(38), zeros(88));
    for text in [largest.clone(), format!("-1{}", zeros(125))] {
        let thin = match text.parse::<oracledb::OracleNumber>() {
            Ok(n) => thin::number(&n),
            Err(e) => panic!("{e}"),
        };
        assert_eq!(thin, Cell::Number(text.as_str().into()));
        assert_eq!(
            thick::number(text.clone()),
            Cell::Number(text.as_str().into())
        );
    }
    let e125 = format!("1{}", zeros(125));
    assert_eq!(
        thick::number(e125.clone()),
        Cell::Number(e125.as_str().into())
    );
}

#[test]
fn datetimes_and_intervals_come_through_the_same() {
    let thin_ts = oracledb::OracleTimestamp::new_timestamp(2020, 2, 1, 3, 4, 5, 123_456_789);
    let thick = thick_ts(2020, 2, 1, 3, 4, 5, 123_456_789);
    assert_eq!(
        value(Cell::Timestamp(thin::parts(&thin_ts)), Fetch::Native),
        value(Cell::Timestamp(thick::parts(&thick)), Fetch::Native)
    );
    assert_eq!(
        value(
            Cell::Date(thin::parts(&oracledb::OracleTimestamp::new_date(
                1999, 12, 31
            ))),
            Fetch::Native
        ),
        value(
            Cell::Date(thick::parts(&thick_ts(1999, 12, 31, 0, 0, 0, 0))),
            Fetch::Native
        )
    );
    // TIMESTAMP WITH LOCAL TIME ZONE, in the session's zone (UTC) on both.
    assert_eq!(
        value(Cell::TimestampTz(thin::parts(&thin_ts)), Fetch::Native),
        Value::TimestampTz("2020-02-01 03:04:05.123456789 +00:00".into())
    );
    // TIMESTAMP WITH TIME ZONE: the TO_CHAR text both drivers select gives what thick's native
    // fetch with the offset gives.
    for (h, m, text) in [
        (1, 0, "2020-02-01 03:04:05.123456789 +01:00"),
        (-3, -30, "2020-02-01 03:04:05.123456789 -03:30"),
        (0, -30, "2020-02-01 03:04:05.123456789 -00:30"),
    ] {
        let native = match thick.and_tz_hm_offset(h, m) {
            Ok(t) => Cell::TimestampTz(thick::parts(&t)),
            Err(e) => panic!("{e}"),
        };
        let native = value(native, Fetch::Native);
        assert_eq!(
            value(Cell::Text(text.into()), Fetch::TimestampTz),
            native,
            "{text}"
        );
        assert_eq!(native, Value::TimestampTz(text.into()));
    }
    let ds = |d, h, m, s, n| match oracle::sql_type::IntervalDS::new(d, h, m, s, n) {
        Ok(i) => i,
        Err(e) => panic!("{e}"),
    };
    for (d, h, m, s, n, fsp) in [
        (1, 2, 3, 4, 560_000_000, 6),
        (-1, -2, -3, -4, -5, 9),
        (0, 0, 0, 0, 0, 2),
    ] {
        let thin = thin::interval_ds(
            &oracledb::OracleIntervalDS::new(d, h as i8, m as i8, s as i8, n),
            fsp,
        );
        let thick = thick::interval_ds(&ds(d, h, m, s, n), fsp);
        assert_eq!(value(thin, Fetch::Native), value(thick, Fetch::Native));
    }
    let ym = |y, m| match oracle::sql_type::IntervalYM::new(y, m) {
        Ok(i) => i,
        Err(e) => panic!("{e}"),
    };
    for (y, m) in [(3, 6), (-3, -6), (123, 0)] {
        let thin = thin::interval_ym(&oracledb::OracleIntervalYM::new(y, m as i8));
        assert_eq!(
            value(thin, Fetch::Native),
            value(thick::interval_ym(&ym(y, m)), Fetch::Native)
        );
    }
    assert_eq!(
        value(
            thin::interval_ds(&oracledb::OracleIntervalDS::new(1, 2, 3, 4, 560_000_000), 6),
            Fetch::Native
        ),
        Value::IntervalDs("+001 02:03:04.560000".into())
    );
}

#[test]
fn other_cells_convert_as_before() {
    assert_eq!(value(Cell::Null, Fetch::TimestampTz), Value::Null);
    assert_eq!(
        value(Cell::Text("AB ".into()), Fetch::Native),
        Value::Text("AB ".into())
    );
    assert_eq!(
        value(Cell::Bytes(vec![0, 255]), Fetch::Native),
        Value::Bytes(vec![0, 255])
    );
    assert_eq!(
        value(Cell::Boolean(true), Fetch::Boolean),
        Value::Boolean(true)
    );
    assert_eq!(
        value(Cell::Number("0".into()), Fetch::Boolean),
        Value::Boolean(false)
    );
    assert_eq!(
        value(Cell::Text("{\"a\":1}".into()), Fetch::Json),
        Value::Json("{\"a\":1}".into())
    );
    assert_eq!(
        value(Cell::Text("[1.0E+000]".into()), Fetch::Vector),
        Value::Vector(vec![1.0])
    );
    match value(Cell::BinaryFloat(f32::NAN), Fetch::Native) {
        Value::BinaryFloat(f) => assert!(f.is_nan()),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        value(Cell::BinaryDouble(f64::NEG_INFINITY), Fetch::Native),
        Value::BinaryDouble(f64::NEG_INFINITY)
    );
    match fetch::value(
        Cell::Unsupported("OBJECT".into()),
        Fetch::Native,
        "C",
        &call(),
    ) {
        Err(e) => assert_eq!(e.code(), Code::Cdc3001, "{e}"),
        Ok(v) => panic!("{v:?}"),
    }
    match fetch::value(
        Cell::Text("2020-01-01".into()),
        Fetch::TimestampTz,
        "C",
        &call(),
    ) {
        Err(e) => assert_eq!(e.code(), Code::Cdc5006, "{e}"),
        Ok(v) => panic!("{v:?}"),
    }
}

#[test]
fn number_binds_are_exact_and_refuse_non_numbers() {
    for (text, want) in [
        ("0.5", "0.5"),
        ("-0.5", "-0.5"),
        ("1.5E+3", "1500"),
        ("12345678901234567890123", "12345678901234567890123"),
    ] {
        match thin::number_bind(text) {
            Ok(n) => assert_eq!(n.to_string(), want, "{text}"),
            Err(e) => panic!("{text}: {e:?}"),
        }
    }
    for bad in ["abc", "", "1-2"] {
        assert!(thin::number_bind(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn a_panic_in_a_thin_login_is_cdc_2009_naming_thick_mode() {
    assert_eq!(thin::guard(|| 7), Ok(7));
    match thin::guard(|| -> u8 { panic!("boom {}", 42) }) {
        Err(m) => assert!(m.contains("boom 42"), "{m}"),
        Ok(_) => panic!("no panic"),
    }
    // What the driver does for an account with only an 11G verifier: an unwrap on a missing
    // PBKDF2 parameter.
    let missing: Option<&str> = None;
    let e = match thin::login(
        "db:1521/X",
        &pw(),
        || -> std::result::Result<u8, oracledb::Error> {
            let vgen_count = missing.map(str::len);
            Ok(vgen_count.unwrap() as u8)
        },
    ) {
        Err(e) => e,
        Ok(_) => panic!("no error"),
    };
    let shown = e.to_string();
    assert_eq!(e.code(), Code::Cdc2009, "{shown}");
    assert!(shown.contains("cdc.database.driver=thick"), "{shown}");
    assert!(shown.contains("Instant Client"), "{shown}");
    assert!(shown.contains("unwrap"), "{shown}");
    assert!(!shown.contains("Thin-Secret-91"));
    // Panicking still works as usual outside the guard.
    assert!(std::panic::catch_unwind(|| panic!("outside")).is_err());
}

#[test]
fn first_lines_keep_the_pls_line() {
    assert_eq!(
        first_line("ORA-00942: table or view does not exist\n"),
        "ORA-00942: table or view does not exist"
    );
    assert_eq!(first_line(""), "");
    // Under ORA-00604 the error its recursive SQL met is kept (it decides how the error is
    // handled); the backtrace after it is not.
    assert_eq!(
        first_line("ORA-00604: error occurred at recursive SQL level 2\nORA-00604: error occurred at recursive SQL level 1\nORA-01555: snapshot too old\nORA-06512: at line 3\n"),
        "ORA-00604: error occurred at recursive SQL level 2; ORA-00604: error occurred at recursive SQL level 1; ORA-01555: snapshot too old"
    );
    // A PL/SQL error under it keeps its PLS- line (a missing grant is told by it).
    let kept = first_line("ORA-00604: error occurred at recursive SQL level 1\nORA-06550: line 1, column 7:\nPLS-00201: identifier 'SYS.DBMS_LOGMNR_D' must be declared\nORA-06550: line 1, column 7:\nPL/SQL: Statement ignored\n");
    assert_eq!(
        kept,
        "ORA-00604: error occurred at recursive SQL level 1; ORA-06550: line 1, column 7: PLS-00201: identifier 'SYS.DBMS_LOGMNR_D' must be declared"
    );
    let e = crate::connect::runtime_error(
        crate::connect::code_in_message(&kept),
        &kept,
        &crate::connect::CallContext::default(),
    );
    assert_eq!(e.code(), crate::errors::Code::Cdc2401, "{e}");
}

/// A TNS packet with a 16-bit length (the handshake's form).
fn packet(kind: u8, body: &[u8]) -> Vec<u8> {
    let size = u16::try_from(body.len() + 8).unwrap_or(u16::MAX);
    let mut p = size.to_be_bytes().to_vec();
    p.extend([0, 0, kind, 0, 0, 0]);
    p.extend_from_slice(body);
    p
}

/// The listener's REFUSE with `(ERR=code)`, as a real listener sends it.
fn refuse(code: u32) -> Vec<u8> {
    let text = format!(
        "(DESCRIPTION=(TMP=)(VSNNUM=0)(ERR={code})(ERROR_STACK=(ERROR=(CODE={code})(EMFI=4))))"
    );
    let mut body = vec![1, 0];
    body.extend(u16::try_from(text.len()).unwrap_or(0).to_be_bytes());
    body.extend(text.as_bytes());
    packet(4, &body)
}

/// An ACCEPT whose NSI flags say the server requires native network encryption
/// (SQLNET.ENCRYPTION_SERVER=REQUIRED), which the thin driver does not implement.
fn accept_requiring_encryption() -> Vec<u8> {
    let mut b = Vec::new();
    for v in [318u16, 1, 8192, 0xFFFF, 0x0100, 0, 0] {
        b.extend(v.to_be_bytes());
    }
    b.extend([0x10, 0x10]);
    b.extend([0; 8]);
    b.extend(8192u32.to_be_bytes());
    b.extend(0xFFFFu32.to_be_bytes());
    b.push(0);
    b.extend(0u32.to_be_bytes());
    packet(2, &b)
}

/// A listener on 127.0.0.1 for one connection: it reads the client's CONNECT (and the connect
/// data that follows in a DATA packet when long), answers `reply` (empty: nothing) and hangs up.
fn fake_listener(reply: Vec<u8>) -> (u16, std::thread::JoinHandle<()>) {
    let listener = match TcpListener::bind("127.0.0.1:0") {
        Ok(l) => l,
        Err(e) => panic!("bind: {e}"),
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
    let handle = std::thread::spawn(move || {
        let Ok((mut sock, _)) = listener.accept() else {
            return;
        };
        let _ = sock.set_read_timeout(Some(std::time::Duration::from_secs(10)));
        let mut read_packet = || -> Option<Vec<u8>> {
            let mut head = [0u8; 8];
            sock.read_exact(&mut head).ok()?;
            let size = usize::from(u16::from_be_bytes([head[0], head[1]]));
            let mut body = vec![0u8; size.saturating_sub(8)];
            sock.read_exact(&mut body).ok()?;
            Some(body)
        };
        let Some(body) = read_packet() else {
            return;
        };
        if body.len() >= 20 {
            let length = usize::from(u16::from_be_bytes([body[16], body[17]]));
            let offset = usize::from(u16::from_be_bytes([body[18], body[19]]));
            if offset.saturating_sub(8) + length > body.len() && read_packet().is_none() {
                return;
            }
        }
        let _ = sock.write_all(&reply);
        let _ = sock.shutdown(Shutdown::Write);
        let mut sink = [0u8; 512];
        while matches!(sock.read(&mut sink), Ok(n) if n > 0) {}
    });
    (port, handle)
}

fn thin_connect(port: u16) -> CdcError {
    let url = format!("127.0.0.1:{port}/EMU");
    match open(Driver::Thin, &url, 8192, None, "cdc", &pw(), None) {
        Ok(_) => panic!("connected to a fake listener"),
        Err(e) => e,
    }
}

#[test]
fn real_thin_driver_unknown_service_is_cdc_2004() {
    let (port, server) = fake_listener(refuse(12514));
    let e = thin_connect(port);
    let _ = server.join();
    assert_eq!(e.code(), Code::Cdc2004, "{e}");
    assert!(e.to_string().contains("ORA-12514"), "{e}");
}

#[test]
fn real_thin_driver_listener_hanging_up_is_transient() {
    let (port, server) = fake_listener(Vec::new());
    let e = thin_connect(port);
    let _ = server.join();
    assert_eq!(e.code(), Code::Cdc2010, "{e}");
    assert!(e.to_string().contains("ORA-03113"), "{e}");
    assert!(cdc_core::errors::is_transient(&e), "{e}");
}

#[test]
fn real_thin_driver_panic_on_required_encryption_is_cdc_2009() {
    let (port, server) = fake_listener(accept_requiring_encryption());
    let e = thin_connect(port);
    let _ = server.join();
    let shown = e.to_string();
    assert_eq!(e.code(), Code::Cdc2009, "{shown}");
    assert!(shown.contains("cdc.database.driver=thick"), "{shown}");
    // The crate's own panic is caught and named as such, its text kept after it.
    assert!(shown.contains("the driver panicked: "), "{shown}");
    assert!(!shown.contains("Thin-Secret-91"), "{shown}");
}
