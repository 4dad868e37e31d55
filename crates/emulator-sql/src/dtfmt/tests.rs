use super::read::Parsed;
use super::render::Zone;
use super::*;
use crate::DateTime;

fn dt(s: &str) -> DateTime {
    DateTime::parse(s).unwrap()
}

fn show(d: &DateTime, fmt: &str) -> String {
    render(
        d,
        Some(Zone {
            offset: 120,
            region: None,
        }),
        Some(6),
        &parse_model(fmt).unwrap(),
        '.',
    )
    .unwrap()
}

#[test]
fn renders_common_elements() {
    let d = dt("2026-12-04 15:05:09.123456789");
    assert_eq!(show(&d, "YYYY-MM-DD HH24:MI:SS"), "2026-12-04 15:05:09");
    assert_eq!(
        show(&d, "DD-MON-RR HH.MI.SSXFF AM TZR"),
        "04-DEC-26 03.05.09.123456 PM +02:00"
    );
    assert_eq!(show(&d, "Month DD, YYYY"), "December  04, 2026");
    assert_eq!(show(&d, "FMMonth DD, YYYY"), "December 4, 2026");
    assert_eq!(show(&d, "dy Dy DY day"), "fri Fri FRI friday   ");
    assert_eq!(show(&d, "FF3 FF9 TZH:TZM"), "123 123456789 +02:00");
    assert_eq!(show(&d, "\"at\" HH24 \"h\""), "at 15 h");
    assert_eq!(show(&d, "DDD J Q WW W D"), "338 2461379 4 49 1 6");
    assert_eq!(show(&d, "Y,YYY SYYYY CC"), "2,026  2026 21");
    assert_eq!(show(&dt("2026-01-01 00:00:00"), "HH:MI a.m."), "12:00 a.m.");
}

#[test]
fn refuses_unknown_elements_and_dates_with_fractions() {
    assert_eq!(parse_model("YYYY-QQQQ-XYZ").unwrap_err().code, 1821);
    assert_eq!(parse_model("YEAR").unwrap_err().code, 3001);
    let m = parse_model("HH24:MI:SS.FF").unwrap();
    let err = render(&dt("2026-01-01 00:00:00"), None, None, &m, '.').unwrap_err();
    assert_eq!(err.code, 1821);
    let tz = parse_model("TZH").unwrap();
    assert_eq!(
        render(&dt("2026-01-01 00:00:00"), None, Some(6), &tz, '.')
            .unwrap_err()
            .code,
        1821
    );
}

fn parse_with(text: &str, fmt: &str, target: Target) -> Result<Parsed, crate::OraError> {
    read(
        text,
        &parse_model(fmt).unwrap(),
        target,
        &dt("2026-07-15 10:00:00"),
    )
}

#[test]
fn reads_leniently() {
    let p = parse_with("2020/1/2 3:4:5", "YYYY-MM-DD HH24:MI:SS", Target::Date).unwrap();
    assert_eq!(p.at.date_text(), "2020-01-02 03:04:05");
    let p = parse_with("2020-01-02", "YYYY-MM-DD HH24:MI:SS", Target::Date).unwrap();
    assert_eq!(p.at.date_text(), "2020-01-02 00:00:00");
    let p = parse_with("04-dec-26", "DD-MON-RR", Target::Date).unwrap();
    assert_eq!(p.at.date_text(), "2026-12-04 00:00:00");
    let p = parse_with("04-DEC-98", "DD-MON-RR", Target::Date).unwrap();
    assert_eq!(p.at.year, 1998);
    let p = parse_with("10:30", "HH24:MI", Target::Date).unwrap();
    assert_eq!(p.at.date_text(), "2026-07-01 10:30:00");
    let p = parse_with(
        "2020-01-02 03:04:05.5 -05:30",
        "YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM",
        Target::TimestampTz,
    )
    .unwrap();
    assert_eq!(p.at.nanosecond, 500_000_000);
    assert_eq!(p.offset, Some(-330));
    let p = parse_with(
        "04-DEC-26 03.05.09.5 PM",
        "DD-MON-RR HH.MI.SSXFF AM",
        Target::Timestamp,
    )
    .unwrap();
    assert_eq!(p.at.timestamp_text(), "2026-12-04 15:05:09.500000000");
}

#[test]
fn reading_errors_are_oracles() {
    let code = |t: &str, f: &str| parse_with(t, f, Target::Date).unwrap_err().code;
    assert_eq!(code("2020-13-01", "YYYY-MM-DD"), 1843);
    assert_eq!(code("2020-02-30", "YYYY-MM-DD"), 1847);
    assert_eq!(code("2020-01-01 24:00", "YYYY-MM-DD HH24:MI"), 1850);
    assert_eq!(code("2020-01-01 x", "YYYY-MM-DD"), 1830);
    assert_eq!(code("abcd", "YYYY"), 1858);
    assert_eq!(code("2020-01-01", "YYYY-MM-DD HH24:MI:SS.FF"), 1821);
    assert_eq!(code("01-FOO-20", "DD-MON-RR"), 1843);
    assert_eq!(code("2020 at", "YYYY \"on\""), 1861);
    assert_eq!(code("0000-01-01", "YYYY-MM-DD"), 1841);
}
