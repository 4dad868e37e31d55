//! Expressions with Oracle's semantics: exact NUMBER arithmetic, three-valued logic, '' as
//! NULL, implicit conversions (with the session's NLS settings after ALTER SESSION), the
//! built-in functions, CASE and DECODE, datetimes and intervals, result types.

mod common;
use common::*;
use emulator_sql::{Datum, OraType, SqlSession};

fn v(sql_expr: &str) -> Datum {
    let mut db = MemDb::new();
    value(&mut db, &format!("SELECT {sql_expr} FROM DUAL"))
}

fn err(sql_expr: &str) -> u32 {
    let mut db = MemDb::new();
    error(&mut db, &format!("SELECT {sql_expr} FROM DUAL"), &[]).code
}

fn truth(cond: &str) -> Option<bool> {
    let mut db = MemDb::new();
    let sql = format!("SELECT CASE WHEN {cond} THEN 'T' WHEN NOT ({cond}) THEN 'F' END FROM DUAL");
    match value(&mut db, &sql) {
        Datum::Text(s) if s == "T" => Some(true),
        Datum::Text(s) if s == "F" => Some(false),
        Datum::Null => None,
        other => panic!("{other:?}"),
    }
}

#[test]
fn number_arithmetic_is_exact() {
    assert_eq!(v("0.1 + 0.2"), num("0.3"));
    assert_eq!(v("1 - 0.9"), num("0.1"));
    assert_eq!(v("1.1 * 1.1"), num("1.21"));
    assert_eq!(v("10 / 4"), num("2.5"));
    assert_eq!(v("1 / 3"), num(&format!("0.{}", "3".repeat(40))));
    assert_eq!(v("2 / 3"), num(&format!("0.{}7", "6".repeat(39))));
    assert_eq!(
        v("12345678901234567890123456789012345678 + 1"),
        num("12345678901234567890123456789012345679")
    );
    assert_eq!(v("-(-5)"), n(5));
    assert_eq!(v("- '7'"), n(-7));
    assert_eq!(v("'3' + 4"), n(7));
    assert_eq!(v("1e3 + .5"), num("1000.5"));
    assert_eq!(v("MOD(11, 4)"), n(3));
    assert_eq!(v("MOD(-11, 4)"), n(-3));
    assert_eq!(v("MOD(5, 0)"), n(5));
    assert_eq!(v("ROUND(2.5)"), n(3));
    assert_eq!(v("ROUND(-2.5)"), n(-3));
    assert_eq!(v("ROUND(1234.5678, 2)"), num("1234.57"));
    assert_eq!(v("ROUND(1234.5678, -2)"), n(1200));
    assert_eq!(v("TRUNC(1234.5678, 1)"), num("1234.5"));
    assert_eq!(v("TRUNC(-1.7)"), n(-1));
    assert_eq!(v("FLOOR(-1.5)"), n(-2));
    assert_eq!(v("CEIL(1.2)"), n(2));
    assert_eq!(v("ABS(-3.5)"), num("3.5"));
    assert_eq!(v("SIGN(-0.001)"), n(-1));
    assert_eq!(v("POWER(2, 10)"), n(1024));
    assert_eq!(v("BITAND(12, 10)"), n(8));
    assert_eq!(err("1 / 0"), 1476);
    assert_eq!(err("'abc' + 1"), 1722);
    assert_eq!(err("DATE '2020-01-01' * 2"), 932);
    assert_eq!(err("DATE '2020-01-01' + DATE '2020-01-01'"), 975);
    assert_eq!(v("1.5d * 2"), Datum::BinaryDouble(3.0));
}

#[test]
fn three_valued_logic_and_empty_strings() {
    assert_eq!(truth("1 = 1"), Some(true));
    assert_eq!(truth("NULL = NULL"), None);
    assert_eq!(truth("'' IS NULL"), Some(true));
    assert_eq!(truth("NULL IS NOT NULL"), Some(false));
    assert_eq!(truth("1 = 1 OR NULL = 1"), Some(true));
    assert_eq!(truth("1 = 2 AND NULL = 1"), Some(false));
    assert_eq!(truth("1 = 1 AND NULL = 1"), None);
    assert_eq!(truth("NOT (NULL = 1)"), None);
    assert_eq!(truth("1 IN (2, NULL)"), None);
    assert_eq!(truth("1 NOT IN (2, NULL)"), None);
    assert_eq!(truth("1 NOT IN (2, 3)"), Some(true));
    assert_eq!(truth("1 IN (1, NULL)"), Some(true));
    assert_eq!(truth("5 BETWEEN 1 AND 10"), Some(true));
    assert_eq!(truth("5 NOT BETWEEN 6 AND 10"), Some(true));
    assert_eq!(truth("'b' BETWEEN 'a' AND 'c'"), Some(true));
    assert_eq!(truth("NULL LIKE '%'"), None);
    assert_eq!(truth("'abc' LIKE 'a_c'"), Some(true));
    assert_eq!(truth("'a%c' LIKE 'a\\%c' ESCAPE '\\'"), Some(true));
    assert_eq!(truth("'abc' LIKE 'a\\%c' ESCAPE '\\'"), Some(false));
    assert_eq!(truth("12 LIKE '1%'"), Some(true));
    assert_eq!(truth("EXISTS (SELECT 1 FROM DUAL)"), Some(true));
    assert_eq!(
        truth("NOT EXISTS (SELECT 1 FROM DUAL WHERE 1 = 0)"),
        Some(true)
    );
    assert_eq!(truth("1 IN (SELECT 1 FROM DUAL)"), Some(true));
    assert_eq!(
        truth("NULL IN (SELECT 1 FROM DUAL WHERE 1 = 0)"),
        Some(false)
    );
    // Text meets NUMBER as a number, CHAR literals blank-padded.
    assert_eq!(truth("'10' > 9"), Some(true));
    assert_eq!(truth("'10' > '9'"), Some(false));
    assert_eq!(truth("'a ' = 'a'"), Some(true));
    assert_eq!(truth("CAST('a ' AS VARCHAR2(5)) = 'a'"), Some(false));
    assert_eq!(err("CASE WHEN 'x' = 1 THEN 1 END"), 1722);
    assert_eq!(err("CASE WHEN DATE '2020-01-01' = 1 THEN 1 END"), 932);
}

#[test]
fn decode_nvl_case_and_friends() {
    assert_eq!(
        v("DECODE(NULL, NULL, 'null matches', 'no')"),
        t("null matches")
    );
    assert_eq!(v("DECODE(1, 2, 'two', 1, 'one')"), t("one"));
    assert_eq!(v("DECODE(3, 2, 'two', 1, 'one')"), NULL);
    assert_eq!(v("DECODE(3, 2, 'two', 'other')"), t("other"));
    assert_eq!(v("DECODE('a', 'a', 1, 0)"), n(1));
    // Later results take the first result's type.
    assert_eq!(v("DECODE(2, 1, 'one', 2, 2)"), t("2"));
    assert_eq!(err("DECODE(2, 1, 1, 2, 'two')"), 1722);
    assert_eq!(err("NVL(NULL, 'x') + 1"), 1722);
    assert_eq!(err("COALESCE(1, 'x')"), 932);
    assert_eq!(v("NVL(NULL, 5)"), n(5));
    assert_eq!(v("NVL('', 'x')"), t("x"));
    assert_eq!(v("NVL2(1, 'a', 'b')"), t("a"));
    assert_eq!(v("NVL2(NULL, 'a', 'b')"), t("b"));
    assert_eq!(v("COALESCE(NULL, NULL, 3, 4)"), n(3));
    assert_eq!(v("NULLIF(1, 1)"), NULL);
    assert_eq!(v("NULLIF(1, 2)"), n(1));
    assert_eq!(v("GREATEST(3, 7, 5)"), n(7));
    assert_eq!(v("LEAST('b', 'a', 'c')"), t("a"));
    assert_eq!(v("GREATEST(1, NULL)"), NULL);
    assert_eq!(
        v("CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'many' END"),
        t("two")
    );
    assert_eq!(v("CASE WHEN 1 = 2 THEN 'x' END"), NULL);
    assert_eq!(v("CASE NULL WHEN NULL THEN 'x' ELSE 'y' END"), t("y"));
    assert_eq!(err("CASE WHEN 1 = 1 THEN 'a' ELSE 1 END"), 932);
}

#[test]
fn character_functions() {
    assert_eq!(v("UPPER('abc') || LOWER('DEF')"), t("ABCdef"));
    assert_eq!(v("INITCAP('hello wORLD')"), t("Hello World"));
    assert_eq!(v("LENGTH('héllo')"), n(5));
    assert_eq!(v("LENGTHB('héllo')"), n(6));
    assert_eq!(v("LENGTH('')"), NULL);
    assert_eq!(v("SUBSTR('abcdef', 2, 3)"), t("bcd"));
    assert_eq!(v("SUBSTR('abcdef', -2)"), t("ef"));
    assert_eq!(v("SUBSTR('abcdef', 0, 2)"), t("ab"));
    assert_eq!(v("SUBSTR('abc', 5)"), NULL);
    assert_eq!(v("INSTR('banana', 'an')"), n(2));
    assert_eq!(v("INSTR('banana', 'an', 1, 2)"), n(4));
    assert_eq!(v("INSTR('banana', 'an', -1)"), n(4));
    assert_eq!(v("INSTR('banana', 'x')"), n(0));
    assert_eq!(v("TRIM('  x  ')"), t("x"));
    assert_eq!(v("TRIM(LEADING 'x' FROM 'xxaxx')"), t("axx"));
    assert_eq!(v("TRIM(TRAILING FROM 'a  ')"), t("a"));
    assert_eq!(v("LTRIM('xyxa', 'xy')"), t("a"));
    assert_eq!(v("RTRIM('a  ')"), t("a"));
    assert_eq!(v("LPAD('7', 3, '0')"), t("007"));
    assert_eq!(v("RPAD('ab', 5, 'xy')"), t("abxyx"));
    assert_eq!(v("LPAD('abcdef', 3)"), t("abc"));
    assert_eq!(v("REPLACE('a.b.c', '.', '')"), t("abc"));
    assert_eq!(v("REPLACE('a.b.c', '.')"), t("abc"));
    assert_eq!(v("TRANSLATE('abc', 'ab', 'x')"), t("xc"));
    assert_eq!(v("CONCAT('a', NULL)"), t("a"));
    assert_eq!(v("'a' || NULL || 'b'"), t("ab"));
    assert_eq!(v("NULL || NULL"), NULL);
    assert_eq!(v("CHR(65) || ASCII('a')"), t("A97"));
    assert_eq!(v("1.5 || 'x'"), t("1.5x"));
    assert_eq!(v("0.5 || ''"), t(".5"));
    assert_eq!(v("RAWTOHEX(HEXTORAW('0aFF'))"), t("0AFF"));
    assert_eq!(err("HEXTORAW('xyz')"), 1465);
    assert_eq!(err("TRIM('ab' FROM 'x')"), 30001);
    assert_eq!(err("UPPER('a', 'b')"), 909);
    assert_eq!(err("NO_SUCH_FN(1)"), 904);
    assert_eq!(err("REGEXP_SUBSTR('a', 'b')"), 3001);
}

/// UNISTR (SQL Language Reference): `\xxxx` UTF-16 units in either case, a surrogate pair as
/// one character, `\\` a backslash, other characters kept; any other backslash is ORA-30186.
/// A lone surrogate, which Oracle's national text can hold and the emulator's cannot, is
/// ORA-03001 rather than another character.
#[test]
fn unistr_resolves_utf16_escapes() {
    assert_eq!(v(r"UNISTR('abc\00e5\00F1\00f6')"), t("abcåñö"));
    assert_eq!(v(r"UNISTR('\D83D\DE00!')"), t("😀!"));
    assert_eq!(v(r"UNISTR('a\\b\005C')"), t(r"a\b\"));
    assert_eq!(v("UNISTR('é')"), t("é"));
    assert_eq!(v("UNISTR(NULL)"), NULL);
    assert_eq!(v(r"LENGTH(UNISTR('\0100\0101'))"), n(2));
    assert_eq!(err(r"UNISTR('\12')"), 30186);
    assert_eq!(err(r"UNISTR('\12G4')"), 30186);
    assert_eq!(err(r"UNISTR('a\')"), 30186);
    assert_eq!(err(r"UNISTR('\D83D')"), 3001);
    assert_eq!(err(r"UNISTR('\D83Dx')"), 3001);
    assert_eq!(err(r"UNISTR('\DE00')"), 3001);
    assert_eq!(err(r"UNISTR('\D83D\\')"), 3001);
}

/// National text orders by UTF-16 code units (AL16UTF16 and UTF8 alike): a supplementary
/// character (a surrogate pair from D800) before U+FF21; the database set (AL32UTF8 here)
/// orders by UTF-8 bytes, where U+FF21 comes first. A comparison with one national side is
/// national; blank-padding still applies between two NCHARs.
#[test]
fn national_text_orders_by_utf16_units() {
    let cmp = |l: &str, r: &str| v(&format!("CASE WHEN {l} < {r} THEN 'lt' ELSE 'ge' END"));
    assert_eq!(cmp(r"UNISTR('\D83D\DE00')", r"UNISTR('\FF21')"), t("lt"));
    assert_eq!(cmp("'😀'", r"UNISTR('\FF21')"), t("lt"));
    assert_eq!(cmp("'😀'", "'Ａ'"), t("ge"));
    assert_eq!(cmp("'Ａ'", "'😀'"), t("lt"));
    assert_eq!(
        v(r"GREATEST(UNISTR('\FF21'), UNISTR('\D83D\DE00'))"),
        t("Ａ")
    );
    assert_eq!(v("GREATEST('Ａ', '😀')"), t("😀"));
    assert_eq!(
        v(
            r"CASE WHEN CAST(UNISTR('\FF21') AS NCHAR(3)) = CAST(UNISTR('\FF21') AS NCHAR(1)) THEN 'eq' END"
        ),
        t("eq")
    );
}

#[test]
fn datetimes_and_format_models() {
    assert_eq!(
        v("TO_CHAR(DATE '2026-12-04' + 1.5, 'YYYY-MM-DD HH24:MI:SS')"),
        t("2026-12-05 12:00:00")
    );
    assert_eq!(v("DATE '2026-12-05' - DATE '2026-12-04'"), n(1));
    assert_eq!(
        v("TO_DATE('2026-12-04 01:00:00', 'YYYY-MM-DD HH24:MI:SS') - DATE '2026-12-04'"),
        num(&format!("0.041{}7", "6".repeat(36)))
    );
    assert_eq!(v("TO_CHAR(TRUNC(TO_DATE('2026-12-04 15:47:12', 'YYYY-MM-DD HH24:MI:SS'), 'HH24'), 'YYYY-MM-DD HH24:MI')"), t("2026-12-04 15:00"));
    assert_eq!(
        v("TO_CHAR(TRUNC(DATE '2026-12-04', 'MM'), 'YYYY-MM-DD')"),
        t("2026-12-01")
    );
    assert_eq!(
        v("TO_CHAR(TRUNC(DATE '2026-12-04', 'YYYY'), 'YYYY-MM-DD')"),
        t("2026-01-01")
    );
    assert_eq!(
        v("TO_CHAR(ROUND(TO_DATE('2026-12-04 12:00:00', 'YYYY-MM-DD HH24:MI:SS')), 'YYYY-MM-DD')"),
        t("2026-12-05")
    );
    assert_eq!(
        v("TO_CHAR(ADD_MONTHS(DATE '2024-01-31', 1), 'YYYY-MM-DD')"),
        t("2024-02-29")
    );
    assert_eq!(v("TO_CHAR(LAST_DAY(DATE '2024-02-10'), 'DD')"), t("29"));
    assert_eq!(
        v("MONTHS_BETWEEN(DATE '2024-03-31', DATE '2024-02-29')"),
        n(1)
    );
    assert_eq!(
        v("TO_CHAR(DATE '2026-12-04', 'Day, DD Month YYYY')"),
        t("Friday   , 04 December  2026")
    );
    assert_eq!(
        v("TO_CHAR(DATE '2026-12-04', 'fmDay, dd fmMon')"),
        t("Friday, 4 Dec")
    );
    assert_eq!(err("TO_CHAR(DATE '2026-12-04', 'DDTH')"), 3001);
    assert_eq!(v("EXTRACT(YEAR FROM DATE '2026-12-04')"), n(2026));
    assert_eq!(
        v("EXTRACT(SECOND FROM TIMESTAMP '2026-12-04 10:00:05.25')"),
        num("5.25")
    );
    assert_eq!(
        v("TO_CHAR(TIMESTAMP '2026-12-04 10:00:00' + INTERVAL '1 02:03:04.5' DAY TO SECOND, 'YYYY-MM-DD HH24:MI:SS.FF3')"),
        t("2026-12-05 12:03:04.500")
    );
    assert_eq!(
        v("TO_CHAR(TIMESTAMP '2026-12-04 10:00:00' - TIMESTAMP '2026-12-03 09:00:00')"),
        t("+000000001 01:00:00.000000000")
    );
    assert_eq!(
        err("TO_CHAR(DATE '2026-01-31' + INTERVAL '1' MONTH, 'YYYY-MM-DD')"),
        1839
    );
    assert_eq!(
        v("TO_CHAR(DATE '2026-01-15' + INTERVAL '1-1' YEAR TO MONTH, 'YYYY-MM-DD')"),
        t("2027-02-15")
    );
    assert_eq!(v("TO_CHAR(TO_TIMESTAMP_TZ('2026-12-04 10:00:00 -05:30', 'YYYY-MM-DD HH24:MI:SS TZH:TZM'), 'TZH:TZM HH24')"), t("-05:30 10"));
    assert_eq!(
        v("TO_CHAR(SYS_EXTRACT_UTC(TIMESTAMP '2026-12-04 10:00:00 +02:00'), 'HH24:MI')"),
        t("08:00")
    );
    assert_eq!(
        v("TIMESTAMP '2026-12-04 10:00:00 +02:00' - TIMESTAMP '2026-12-04 08:00:00 +00:00'"),
        Datum::IntervalDs(0)
    );
    assert_eq!(err("TO_DATE('2026-13-01', 'YYYY-MM-DD')"), 1843);
    assert_eq!(err("TO_DATE('2026-02-30', 'YYYY-MM-DD')"), 1847);
    assert_eq!(err("TO_DATE('2026-01-01 x', 'YYYY-MM-DD')"), 1830);
    assert_eq!(err("TO_DATE('xx', 'YYYY')"), 1858);
    assert_eq!(err("TO_DATE('2026', 'YYYY-QQ-ZZ')"), 1821);
    assert_eq!(err("TO_CHAR(SYSDATE, 'YYYY-FF')"), 1821);
    assert_eq!(err("DATE '2026-1-1x'"), 1861);
    assert_eq!(
        v("TO_CHAR(TO_DATE('04-DEC-26'), 'YYYY-MM-DD')"),
        t("2026-12-04")
    );
}

#[test]
fn number_format_models_and_conversions() {
    assert_eq!(v("TO_CHAR(1234.5, '9,999.99')"), t(" 1,234.50"));
    assert_eq!(v("TO_CHAR(0.5, 'FM990.00')"), t("0.50"));
    assert_eq!(v("TO_CHAR(-42, '999MI')"), t(" 42-"));
    assert_eq!(v("TO_CHAR(255, 'XX')"), t(" FF"));
    assert_eq!(v("TO_CHAR(12345, '999')"), t("####"));
    assert_eq!(v("TO_CHAR(1234.5)"), t("1234.5"));
    assert_eq!(v("TO_NUMBER('1,234.50', '9,999.99')"), num("1234.5"));
    assert_eq!(v("TO_NUMBER(' 42 ')"), n(42));
    assert_eq!(v("CAST('12.30' AS NUMBER(5,1))"), num("12.3"));
    assert_eq!(v("CAST(123.456 AS NUMBER(5,2))"), num("123.46"));
    assert_eq!(err("CAST(1234.5 AS NUMBER(3))"), 1438);
    assert_eq!(err("CAST('abcdef' AS VARCHAR2(3))"), 25137);
    assert_eq!(
        v("CAST(DATE '2026-12-04' AS TIMESTAMP)"),
        ts("2026-12-04 00:00:00")
    );
    assert_eq!(v("CAST(' 7' AS INTEGER)"), n(7));
    assert_eq!(err("TO_NUMBER('1.2.3')"), 1722);
    assert_eq!(err("TO_CHAR(1, '9Q9')"), 1481);
    assert_eq!(
        v("NUMTODSINTERVAL(90, 'MINUTE')"),
        Datum::IntervalDs(5_400_000_000_000)
    );
    assert_eq!(
        v("ROWIDTOCHAR(CHARTOROWID('AAAR3sAAEAAAACXAAA'))"),
        t("AAAR3sAAEAAAACXAAA")
    );
}

#[test]
fn nls_settings_drive_conversions() {
    let mut db = MemDb::new();
    db.table(
        "HR",
        "T",
        vec![emulator_sql::Column::new("D", OraType::Date), num_col("N")],
        vec![vec![date("2026-12-04 10:05:00"), num("1.5")]],
    );
    let mut s = SqlSession::new();
    let one = |db: &mut MemDb, s: &mut SqlSession, sql: &str| -> Datum {
        let (_, r) = query(db, s, sql, &[]).unwrap_or_else(|e| panic!("{sql}: {e}"));
        r[0][0].clone()
    };
    assert_eq!(
        one(&mut db, &mut s, "SELECT D || '' FROM HR.T"),
        t("04-DEC-26")
    );
    assert_eq!(
        one(
            &mut db,
            &mut s,
            "SELECT COUNT(*) FROM HR.T WHERE D > '01-JAN-26'"
        ),
        n(1)
    );
    s.execute(
        &mut db,
        "ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY/MM/DD HH24:MI'",
        &[],
    )
    .unwrap();
    assert_eq!(
        one(&mut db, &mut s, "SELECT D || '' FROM HR.T"),
        t("2026/12/04 10:05")
    );
    assert_eq!(
        one(
            &mut db,
            &mut s,
            "SELECT COUNT(*) FROM HR.T WHERE D = '2026/12/04 10:05'"
        ),
        n(1)
    );
    assert_eq!(
        query(
            &mut db,
            &mut s,
            "SELECT COUNT(*) FROM HR.T WHERE D = '04-DEC-26'",
            &[]
        )
        .unwrap_err()
        .code,
        1858
    );
    s.execute(
        &mut db,
        "ALTER SESSION SET NLS_NUMERIC_CHARACTERS = ',.'",
        &[],
    )
    .unwrap();
    assert_eq!(one(&mut db, &mut s, "SELECT N || '' FROM HR.T"), t("1,5"));
    assert_eq!(
        one(&mut db, &mut s, "SELECT TO_NUMBER('2,5') + 1 FROM DUAL"),
        num("3.5")
    );
    assert_eq!(
        one(
            &mut db,
            &mut s,
            "SELECT TO_CHAR(1234.5, '9G999D99') FROM DUAL"
        ),
        t(" 1.234,50")
    );
    s.execute(&mut db, "ALTER SESSION SET TIME_ZONE = '-05:00'", &[])
        .unwrap();
    assert_eq!(
        one(&mut db, &mut s, "SELECT SESSIONTIMEZONE FROM DUAL"),
        t("-05:00")
    );
    // The host is at 10:05:09 +02:00: 03:05:09 at -05:00.
    assert_eq!(
        one(
            &mut db,
            &mut s,
            "SELECT TO_CHAR(CURRENT_TIMESTAMP, 'HH24:MI:SS TZH:TZM') FROM DUAL"
        ),
        t("03:05:09 -05:00")
    );
    assert_eq!(
        one(
            &mut db,
            &mut s,
            "SELECT TO_CHAR(SYSDATE, 'HH24:MI:SS') FROM DUAL"
        ),
        t("10:05:09")
    );
    assert_eq!(
        s.execute(
            &mut db,
            "ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY-ABC'",
            &[]
        )
        .unwrap_err()
        .code,
        1821
    );
    assert_eq!(
        s.execute(&mut db, "ALTER SESSION SET NO_SUCH_PARAMETER = 1", &[])
            .unwrap_err()
            .code,
        2248
    );
    assert_eq!(
        s.execute(&mut db, "ALTER SESSION SET NLS_SORT = 'GERMAN'", &[])
            .unwrap_err()
            .code,
        3001
    );
    s.execute(&mut db, "ALTER SESSION SET CURRENT_SCHEMA = hr", &[])
        .unwrap();
    assert_eq!(
        db.log.alter.last().unwrap(),
        &("CURRENT_SCHEMA".to_string(), "HR".to_string())
    );
    assert_eq!(one(&mut db, &mut s, "SELECT COUNT(*) FROM T"), n(1));
}

#[test]
fn result_types_and_names() {
    let mut db = MemDb::new();
    db.table(
        "HR",
        "T",
        vec![
            emulator_sql::Column::new("C", OraType::Char(3)),
            num_col("N"),
        ],
        vec![vec![t("ab "), n(1)]],
    );
    let mut s = SqlSession::new();
    let (cols, r) = query(
        &mut db,
        &mut s,
        "SELECT N + 1, 'lit', NULL, TO_CHAR(N), COUNT(*) OVER_X, SYSDATE, SYSTIMESTAMP, C \"Quoted Alias\", t.N FROM HR.T t GROUP BY N, C",
        &[],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let desc: Vec<(&str, &OraType)> = cols
        .iter()
        .map(|c| (c.name.as_str(), &c.ora_type))
        .collect();
    assert_eq!(
        desc,
        vec![
            ("N+1", &OraType::NUMBER),
            ("'LIT'", &OraType::Char(3)),
            ("NULL", &OraType::Varchar2(0)),
            ("TO_CHAR(N)", &OraType::Varchar2(40)),
            ("OVER_X", &OraType::NUMBER),
            ("SYSDATE", &OraType::Date),
            ("SYSTIMESTAMP", &OraType::TimestampTz(6)),
            ("Quoted Alias", &OraType::Char(3)),
            ("N", &OraType::NUMBER),
        ]
    );
    assert_eq!(r[0][0], n(2));
    assert_eq!(r[0][4], n(1));
}
