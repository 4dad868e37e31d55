//! Each SQL_REDO form with its exact parse, malformed input, and typing by column.

use super::*;
use crate::names::TableName;
use crate::source::emulator::sql_redo::lob_write_as;
use crate::types::{ColumnType, Value};

fn s(x: &str) -> Literal {
    Literal::Str(x.into())
}
fn bare(x: &str) -> Literal {
    Literal::Bare(x.into())
}
fn items(v: Vec<(&str, Literal)>) -> Vec<(String, Literal)> {
    v.into_iter().map(|(n, l)| (n.to_string(), l)).collect()
}
fn dml(kind: DmlKind, new: Vec<(&str, Literal)>, old: Vec<(&str, Literal)>) -> Dml {
    Dml {
        kind,
        owner: "O".into(),
        table: "T".into(),
        new: items(new),
        old: items(old),
    }
}
fn ok(sql: &str) -> Dml {
    parse_dml(sql).unwrap_or_else(|e| panic!("{e}\n{sql}"))
}

#[test]
fn insert_with_and_without_spaces() {
    let want = dml(
        DmlKind::Insert,
        vec![("A", s("1")), ("B", Literal::Null)],
        vec![],
    );
    assert_eq!(
        ok(r#"insert into "O"."T"("A","B") values ('1',NULL);"#),
        want
    );
    assert_eq!(
        ok("INSERT  INTO \"O\" . \"T\" ( \"A\" ,\n \"B\" )\tVALUES ( '1' , NULL ) ;  \n"),
        want
    );
    assert_eq!(
        ok(r#"insert into "O"."T"("A","B") values ('1', NULL)"#),
        want
    );
}

#[test]
fn update_with_is_null_without_where_and_rowid() {
    assert_eq!(
        ok(r#"update "O"."T" set "A" = '2', "B" = NULL where "A" = '1' and "B" IS NULL;"#),
        dml(
            DmlKind::Update,
            vec![("A", s("2")), ("B", Literal::Null)],
            vec![("A", s("1")), ("B", Literal::Null)]
        )
    );
    let no_where = dml(DmlKind::Update, vec![("A", s("2"))], vec![]);
    assert_eq!(ok(r#"update "O"."T" set "A" = '2';"#), no_where);
    assert_eq!(
        ok(r#"update "O"."T" set "A" = '2' where ROWID = 'AAAR0AAAEAAAAGFAAA'"#),
        no_where
    );
    assert_eq!(
        ok(r#"update "O"."T" set "A"='2' where "K" = 7 and ROWID = 'AAAR0AAAEAAAAGFAAA';"#),
        dml(DmlKind::Update, vec![("A", s("2"))], vec![("K", bare("7"))])
    );
}

#[test]
fn delete_with_alias_rowid_and_no_semicolon() {
    let want = dml(
        DmlKind::Delete,
        vec![],
        vec![("K", s("1")), ("S", Literal::Null)],
    );
    assert_eq!(
        ok(
            r#"delete from "O"."T" a where a."K" = '1' and a."S" IS NULL and a.ROWID = 'AAAR0AAAEAAAAGFAAA'"#
        ),
        want
    );
    assert_eq!(
        ok(
            r#"delete from "O"."T" where "K" = '1' and "S" IS NULL and ROWID = 'AAAR0AAAEAAAAGFAAA';"#
        ),
        want
    );
    assert_eq!(
        ok(r#"delete from "O"."T""#),
        dml(DmlKind::Delete, vec![], vec![])
    );
    assert_eq!(
        ok(r#"delete from "O"."T" where "N" = -1.5 and "M" = .15 and "E" = 1.5E+10;"#),
        dml(
            DmlKind::Delete,
            vec![],
            vec![
                ("N", bare("-1.5")),
                ("M", bare(".15")),
                ("E", bare("1.5E+10"))
            ]
        )
    );
}

#[test]
fn identifiers_with_spaces_and_no_dictionary() {
    let d = ok(
        r#"update "UNKNOWN"."OBJ# 12345" set "COL 1" = HEXTORAW('c102') where "COL 1" = HEXTORAW('C103') and "COL 2" IS NULL;"#,
    );
    assert_eq!(
        (d.owner.as_str(), d.table.as_str()),
        ("UNKNOWN", "OBJ# 12345")
    );
    assert_eq!(
        d.new,
        items(vec![("COL 1", Literal::HexToRaw(vec![0xc1, 0x02]))])
    );
    assert_eq!(
        d.old,
        items(vec![
            ("COL 1", Literal::HexToRaw(vec![0xc1, 0x03])),
            ("COL 2", Literal::Null)
        ])
    );
}

#[test]
fn strings_hold_quotes_pipes_semicolons_parentheses_and_newlines() {
    let d = ok("insert into \"O\".\"T\"(\"A\",\"B\",\"C\",\"D\") values ('it''s || x; (y)\nz','''','',' a ');");
    assert_eq!(
        d.new,
        items(vec![
            ("A", s("it's || x; (y)\nz")),
            ("B", s("'")),
            ("C", s("")),
            ("D", s(" a "))
        ])
    );
}

#[test]
fn function_literals() {
    let d = ok(concat!(
        r#"insert into "O"."T"("A","B","C","D","E","F","G","H","I","J","K","L") values ("#,
        r#"TO_DATE('2020-01-01 00:00:00', 'YYYY-MM-DD HH24:MI:SS'),TO_TIMESTAMP('2020-02-01 00:00:00.123456789'),"#,
        r#"TO_TIMESTAMP_TZ('2024-02-14 10:58:02.202590000 +01:00'),TO_YMINTERVAL('-03-06'),"#,
        r#"TO_DSINTERVAL('+001 02:03:04.560000'),HEXTORAW('0a0B'),EMPTY_CLOB(),EMPTY_BLOB( ),"#,
        r#"Unsupported Type,XMLType(:1),/* JSON */ '{"a":1}',hextoraw(''));"#
    ));
    let want = vec![
        ("A", Literal::ToDate("2020-01-01 00:00:00".into())),
        (
            "B",
            Literal::ToTimestamp("2020-02-01 00:00:00.123456789".into()),
        ),
        (
            "C",
            Literal::ToTimestampTz("2024-02-14 10:58:02.202590000 +01:00".into()),
        ),
        ("D", Literal::ToYmInterval("-03-06".into())),
        ("E", Literal::ToDsInterval("+001 02:03:04.560000".into())),
        ("F", Literal::HexToRaw(vec![0x0a, 0x0b])),
        ("G", Literal::EmptyClob),
        ("H", Literal::EmptyBlob),
        ("I", Literal::Unsupported),
        ("J", Literal::Unsupported),
        ("K", s("{\"a\":1}")),
        ("L", Literal::HexToRaw(vec![])),
    ];
    assert_eq!(d.new, items(want));
}

#[test]
fn unistr_and_long_literals_join_their_pieces() {
    let lit = |v: &str| {
        ok(&format!(r#"delete from "O"."T" where "A" = {v}"#))
            .old
            .remove(0)
            .1
    };
    assert_eq!(lit(r"UNISTR('\00e9\00E9')"), Literal::Unistr("éé".into()));
    assert_eq!(
        lit(r"UNISTR('\D83D') || UNISTR('\DE00!')"),
        Literal::Unistr("😀!".into())
    );
    assert_eq!(
        lit(r"UNISTR('a||b''') || 'c||\d' || UNISTR('\005C\\')"),
        Literal::Unistr(r"a||b'c||\d\\".into())
    );
    assert_eq!(
        lit(r"'x\' || UNISTR('\00E9')"),
        Literal::Unistr(r"x\é".into())
    );
    assert_eq!(lit("'ab' || 'c''d'||'e'"), s("abc'de"));
    assert_eq!(
        lit("HEXTORAW('01') || HEXTORAW('02')"),
        Literal::HexToRaw(vec![1, 2])
    );
    let long = ok(&format!(
        "update \"O\".\"T\" set \"A\" = '{}' || '{}';",
        "x".repeat(4000),
        "y".repeat(500)
    ));
    assert_eq!(
        long.new[0].1,
        s(&format!("{}{}", "x".repeat(4000), "y".repeat(500)))
    );
}

#[test]
fn lob_write_blocks() {
    let t = TableName::new(None, "DEBEZIUM", "CLOB_TEST");
    let (num, vc) = (
        ColumnType::Number {
            precision: None,
            scale: None,
        },
        ColumnType::varchar2(40),
    );
    let (id, tag) = (Value::Number("2".into()), Value::Text("Test2".into()));
    let key = [("ID", &num, &id), ("VAL_DATA", &vc, &tag)];
    let sql = lob_write_as(
        &t,
        "VAL_CLOB",
        &ColumnType::Clob,
        &key,
        &Value::Text("it's é".into()),
    );
    assert_eq!(
        parse_lob_write(&sql),
        Ok(LobWrite {
            owner: "DEBEZIUM".into(),
            table: "CLOB_TEST".into(),
            column: "VAL_CLOB".into(),
            key: items(vec![("ID", s("2")), ("VAL_DATA", s("Test2"))]),
            data: s("it's é"),
            offset: 1,
        })
    );
    let blob = lob_write_as(
        &t,
        "B",
        &ColumnType::Blob,
        &key[..1],
        &Value::Bytes(vec![0x48, 0x65]),
    );
    assert_eq!(
        parse_lob_write(&blob).map(|w| w.data),
        Ok(Literal::HexToRaw(vec![0x48, 0x65]))
    );
    let nclob = lob_write_as(
        &t,
        "N",
        &ColumnType::Nclob,
        &key[..1],
        &Value::Text("😀".into()),
    );
    assert_eq!(
        parse_lob_write(&nclob).map(|w| w.data),
        Ok(Literal::Unistr("😀".into()))
    );
    // Data given inline, at a later offset, with a ROWID in the locator's WHERE.
    let inline = "DECLARE \n loc_c CLOB; \nBEGIN\n select \"C\" into loc_c from \"O\".\"T\" where \"ID\" = '1' and ROWID = 'AAAR0AAAEAAAAGFAAA' for update;\n dbms_lob.write(loc_c, 5, 4001, 'Test2');\nEND;";
    let w = parse_lob_write(inline).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (w.column.as_str(), w.key.len(), w.data, w.offset),
        ("C", 1, s("Test2"), 4001)
    );
    for bad in [
        "DECLARE loc_c CLOB; BEGIN select \"C\" into loc_c from \"O\".\"T\" for update; END;",
        "DECLARE loc_c CLOB; BEGIN select \"C\" into loc_c from \"O\".\"T\" for update; dbms_lob.write(loc_c, 1, 1, buf_x); END;",
        "DECLARE loc_c CLOB; BEGIN select \"C\" into loc_c from \"O\".\"T\" for update; dbms_lob.trim(loc_c, 1); END;",
        "DECLARE loc_c CLOB;",
    ] {
        assert!(parse_lob_write(bad).is_err(), "{bad}");
    }
}

#[test]
fn malformed_inputs_report_the_offset() {
    let cases: &[(&str, usize, &str)] = &[
        ("", 0, "expected insert"),
        ("select 1 from dual", 0, "expected insert"),
        (
            r#"insert into "O"."T"("A") values ('1'"#,
            36,
            "expected `)`",
        ),
        (
            r#"insert into "O"."T"("A") values ('1"#,
            33,
            "unterminated string",
        ),
        (
            r#"insert into "O"."T"("A","B") values ('1')"#,
            40,
            "fewer values",
        ),
        (
            r#"insert into "O"."T"("A") values ('1','2')"#,
            37,
            "more values",
        ),
        (r#"insert into "O"."T" values ('1')"#, 20, "expected `(`"),
        (
            r#"update "O"."T" set "A" = '1' where "B" = '2' or "C" = '3'"#,
            45,
            "unexpected text",
        ),
        (
            r#"delete from "O"."T" where "A" = HEXTORAW('abc')"#,
            40,
            "even number",
        ),
        (
            r#"delete from "O"."T" where "A" = HEXTORAW('zz')"#,
            40,
            "hex digit",
        ),
        (
            r#"delete from "O"."T" where "A" = FOO('x')"#,
            32,
            "unknown function",
        ),
        (
            r#"delete from "O"."T" where "A" = UNISTR('\D83D')"#,
            32,
            "unpaired",
        ),
        (
            r#"delete from "O"."T" where "A" = UNISTR('\00G1')"#,
            32,
            "four hex digits",
        ),
        (
            r#"delete from "O"."T" where "A" = '1' || HEXTORAW('00')"#,
            39,
            "cannot be concatenated",
        ),
        (
            r#"delete from "O"."T" where "A" = '1';;"#,
            36,
            "unexpected text",
        ),
        (
            r#"delete from "O"."T" where "A" = "#,
            32,
            "expected a value",
        ),
        (r#"delete from "T" where "A" = '1'"#, 16, "expected `.`"),
        (
            r#"delete from "O"."" where "A" = '1'"#,
            16,
            "empty quoted identifier",
        ),
        (
            r#"delete from "O"."T where"#,
            16,
            "unterminated quoted identifier",
        ),
        (
            r#"update "O"."T" set ROWID = '1'"#,
            19,
            "ROWID cannot be set",
        ),
        (
            r#"delete from "O"."T" where "A" = /* JSON '1'"#,
            32,
            "expected a value",
        ),
        (
            r#"delete from "O"."T" where "A" = TO_DATE('2020''01')"#,
            40,
            "unexpected quote",
        ),
    ];
    for (sql, offset, message) in cases {
        match parse_dml(sql) {
            Err(e) => {
                assert!(e.message.contains(message), "{sql}: {e}");
                assert_eq!(e.offset, *offset, "{sql}: {e}");
            }
            Ok(d) => panic!("{sql} parsed: {d:?}"),
        }
    }
}

#[test]
fn error_display_has_message_position_and_excerpt() {
    let e = parse_dml("delete from \"O\".\"T\" where \"A\" = BAD('x\ny') and 1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown function `BAD` at byte 32: `BAD('x\\ny') and 1`"
    );
    let e = parse_dml("update \"O\".\"T\" set").unwrap_err();
    assert_eq!(
        e.to_string(),
        "expected an identifier at byte 18 (end of text)"
    );
    let e = parse_dml(&format!(
        "delete from \"O\".\"T\" where \"A\" = 'é{}",
        "x".repeat(50)
    ))
    .unwrap_err();
    assert!(e.excerpt.starts_with("'é") && e.excerpt.len() <= 32, "{e}");
}

#[test]
fn inputs_of_megabytes_parse_in_linear_time() {
    let pieces = format!(
        "delete from \"O\".\"T\" where \"A\" = 'a'{}",
        " || 'a'".repeat(300_000)
    );
    assert_eq!(ok(&pieces).old[0].1, s(&"a".repeat(300_001)));
    let quotes = format!(
        "delete from \"O\".\"T\" where \"A\" = '{}'",
        "''".repeat(1_000_000)
    );
    assert_eq!(ok(&quotes).old[0].1, s(&"'".repeat(1_000_000)));
    for bad in [
        format!(
            "delete from \"O\".\"T\" where \"A\" = '{}",
            "''".repeat(1_000_000)
        ),
        format!(
            "delete from \"O\".\"T\" where \"A\" = {}",
            "/* ".repeat(500_000)
        ),
        format!(
            "delete from \"O\".\"T\" where {}",
            "\"A\" = '1' and ".repeat(200_000)
        ),
        format!("DECLARE {} BEGIN", "x;".repeat(500_000)),
    ] {
        assert!(parse_dml(&bad).is_err() && parse_lob_write(&bad).is_err());
    }
}

#[test]
fn to_value_numbers_and_binary_floats() {
    let num = ColumnType::Number {
        precision: None,
        scale: None,
    };
    for (given, want) in [
        ("7", "7"),
        ("0.15", ".15"),
        ("-0.5", "-.5"),
        (".15", ".15"),
        ("+12.50", "12.5"),
        ("007", "7"),
        ("-0.0", "0"),
        ("100", "100"),
        ("1e+40", "1E+40"),
        (" 3 ", "3"),
    ] {
        assert_eq!(
            to_value(&s(given), &num),
            Ok(Value::Number(want.into())),
            "{given}"
        );
        assert_eq!(
            to_value(&bare(given), &num),
            Ok(Value::Number(want.into())),
            "{given}"
        );
    }
    for bad in ["", "-", ".", "abc", "1.2.3", "1e", "1e+", "--1", "1 2", "١"] {
        assert!(to_value(&s(bad), &num).is_err(), "{bad}");
    }
    let (bf, bd) = (ColumnType::BinaryFloat, ColumnType::BinaryDouble);
    assert_eq!(to_value(&s("2.5E+000"), &bf), Ok(Value::BinaryFloat(2.5)));
    assert_eq!(
        to_value(&s("3.3999999E+037"), &bf),
        Ok(Value::BinaryFloat(3.4e37))
    );
    assert_eq!(
        to_value(&s("1.2345678199999999E+007"), &bd),
        Ok(Value::BinaryDouble(12345678.2))
    );
    assert_eq!(
        to_value(&s("-1.0E-003"), &bd),
        Ok(Value::BinaryDouble(-0.001))
    );
    assert_eq!(
        to_value(&s("Inf"), &bf),
        Ok(Value::BinaryFloat(f32::INFINITY))
    );
    assert_eq!(
        to_value(&s("-Inf"), &bd),
        Ok(Value::BinaryDouble(f64::NEG_INFINITY))
    );
    assert!(matches!(to_value(&s("Nan"), &bd), Ok(Value::BinaryDouble(v)) if v.is_nan()));
    assert!(to_value(&s("2,5"), &bf).is_err());
    // Oracle's storage bytes (see sql_redo::binary_*_raw and Oracle's DUMP of 1234.56).
    let hex = |b: &[u8]| Literal::HexToRaw(b.to_vec());
    assert_eq!(
        to_value(&hex(&[0xbf, 0x80, 0, 0]), &bf),
        Ok(Value::BinaryFloat(1.0))
    );
    assert_eq!(
        to_value(&hex(&[0x40, 0x7f, 0xff, 0xff]), &bf),
        Ok(Value::BinaryFloat(-1.0))
    );
    assert_eq!(
        to_value(&hex(&[192, 147, 74, 61, 112, 163, 215, 10]), &bd),
        Ok(Value::BinaryDouble(1234.56))
    );
    assert!(to_value(&hex(&[0xbf, 0x80]), &bf).is_err());
    // NUMBER storage: exponent byte, base-100 digits.
    for (bytes, want) in [
        (&[0x80][..], "0"),
        (&[0xc1, 0x02], "1"),
        (&[0xc2, 0x02], "100"),
        (&[0xc2, 0x02, 0x18, 0x2e], "123.45"),
        (&[0xc0, 0x10], ".15"),
        (&[0xbf, 0x02], ".0001"),
        (&[0x3e, 0x64, 0x66], "-1"),
        (&[0x3f, 0x56, 0x66], "-.15"),
    ] {
        assert_eq!(
            to_value(&hex(bytes), &num),
            Ok(Value::Number(want.into())),
            "{bytes:02x?}"
        );
    }
    assert!(to_value(&hex(&[]), &num).is_err() && to_value(&hex(&[0xff, 0x65]), &num).is_err());
}

#[test]
fn to_value_dates_timestamps_and_intervals() {
    let ok_v = |l: Literal, t: ColumnType| to_value(&l, &t).unwrap_or_else(|e| panic!("{e}"));
    let date = |x: &str| Value::Date(x.into());
    let ts = |x: &str| Value::Timestamp(x.into());
    let tz = |x: &str| Value::TimestampTz(x.into());
    let (d, t9, tzt, ltz) = (
        ColumnType::Date,
        ColumnType::Timestamp { fsp: 6 },
        ColumnType::TimestampTz { fsp: 6 },
        ColumnType::TimestampLtz { fsp: 6 },
    );
    assert_eq!(
        ok_v(Literal::ToDate("2020-01-01".into()), d.clone()),
        date("2020-01-01 00:00:00")
    );
    assert_eq!(
        ok_v(Literal::ToDate("2020-01-01 12:13:14".into()), d.clone()),
        date("2020-01-01 12:13:14")
    );
    assert_eq!(
        ok_v(
            Literal::ToTimestamp("2020-02-01 00:00:00.5".into()),
            t9.clone()
        ),
        ts("2020-02-01 00:00:00.500000000")
    );
    assert_eq!(
        ok_v(
            Literal::ToTimestamp("2020-02-01 01:02:03".into()),
            t9.clone()
        ),
        ts("2020-02-01 01:02:03.000000000")
    );
    assert_eq!(
        ok_v(Literal::ToDate("2020-02-01".into()), t9.clone()),
        ts("2020-02-01 00:00:00.000000000")
    );
    assert_eq!(
        ok_v(
            Literal::ToTimestampTz("2024-02-14 10:58:02.20259 -05:30".into()),
            tzt.clone()
        ),
        tz("2024-02-14 10:58:02.202590000 -05:30")
    );
    assert_eq!(
        ok_v(
            Literal::ToTimestampTz("2024-02-14 10:58:02 +1:00".into()),
            tzt.clone()
        ),
        tz("2024-02-14 10:58:02.000000000 +01:00")
    );
    assert_eq!(
        ok_v(Literal::ToTimestamp("2024-02-14 10:58:02.2".into()), ltz),
        tz("2024-02-14 10:58:02.200000000 +00:00")
    );
    for bad in [
        "2020-1-01",
        "2020-01-01T00:00:00",
        "2020-01-01 00:00:00.1234567890",
        "x",
        "",
    ] {
        assert!(
            to_value(&Literal::ToTimestamp(bad.into()), &t9).is_err(),
            "{bad}"
        );
    }
    assert!(to_value(&Literal::ToTimestampTz("2024-02-14 10:58:02".into()), &tzt).is_err());
    assert!(to_value(
        &Literal::ToTimestampTz("2024-02-14 10:58:02 é1:00".into()),
        &tzt
    )
    .is_err());
    let (ym, ds) = (
        ColumnType::IntervalYm { precision: 2 },
        ColumnType::IntervalDs {
            precision: 3,
            fsp: 6,
        },
    );
    assert_eq!(
        ok_v(Literal::ToYmInterval("-03-06".into()), ym.clone()),
        Value::IntervalYm("-03-06".into())
    );
    assert_eq!(
        ok_v(Literal::ToYmInterval("03-06".into()), ym.clone()),
        Value::IntervalYm("+03-06".into())
    );
    assert_eq!(
        ok_v(
            Literal::ToDsInterval("+001 02:03:04.560000".into()),
            ds.clone()
        ),
        Value::IntervalDs("+001 02:03:04.560000".into())
    );
    assert!(to_value(&Literal::ToYmInterval("3 years".into()), &ym).is_err());
    assert!(to_value(&Literal::ToDsInterval("+001 2:03:04".into()), &ds).is_err());
    // DATE and TIMESTAMP storage bytes.
    let raw = |b: &[u8]| Literal::HexToRaw(b.to_vec());
    assert_eq!(
        ok_v(raw(&[120, 120, 1, 2, 13, 14, 15]), d.clone()),
        date("2020-01-02 12:13:14")
    );
    assert_eq!(
        ok_v(raw(&[120, 120, 1, 2, 1, 1, 1, 0x07, 0x5b, 0xcd, 0x15]), t9),
        ts("2020-01-02 00:00:00.123456789")
    );
    assert!(to_value(&raw(&[120, 120, 1, 2, 1, 1]), &d).is_err());
}

/// TIMESTAMP WITH TIME ZONE (13 bytes: UTC date and time, nanoseconds, zone hours + 20 and
/// minutes + 60) and the INTERVALs (5 and 11 bytes, each field offset) as HEXTORAW, which
/// LogMiner writes for every value when its dictionary does not know the table. (Before, each
/// was "HEXTORAW(…) cannot be a … value".)
#[test]
fn to_value_zoned_timestamps_and_intervals_from_storage_bytes() {
    let raw = |b: &[u8]| Literal::HexToRaw(b.to_vec());
    let tz = ColumnType::TimestampTz { fsp: 6 };
    // 2024-05-01 05:00:00.5 UTC at +05:30.
    let b = [120, 124, 5, 1, 6, 1, 1, 0x1d, 0xcd, 0x65, 0x00, 25, 90];
    assert_eq!(
        to_value(&raw(&b), &tz),
        Ok(Value::TimestampTz(
            "2024-05-01 10:30:00.500000000 +05:30".into()
        ))
    );
    // 2025-01-01 01:30 UTC at -03:30 is the evening before.
    let b = [120, 125, 1, 1, 2, 31, 1, 0, 0, 0, 0, 17, 30];
    assert_eq!(
        to_value(&raw(&b), &tz),
        Ok(Value::TimestampTz(
            "2024-12-31 22:00:00.000000000 -03:30".into()
        ))
    );
    // A named region (high bit of the zone hour) is not an offset: an error, not a guess.
    let b = [120, 125, 1, 1, 2, 31, 1, 0, 0, 0, 0, 0x80 | 0x01, 0x2c];
    let e = to_value(&raw(&b), &tz).unwrap_err();
    assert!(e.contains("time zone region"), "{e}");
    assert!(to_value(&raw(&b[..11]), &tz).is_err());
    let ym = ColumnType::IntervalYm { precision: 2 };
    assert_eq!(
        to_value(&raw(&[0x7f, 0xff, 0xff, 0xfd, 54]), &ym),
        Ok(Value::IntervalYm("-03-06".into()))
    );
    assert_eq!(
        to_value(&raw(&[0x80, 0, 0, 1, 62]), &ym),
        Ok(Value::IntervalYm("+01-02".into()))
    );
    assert!(
        to_value(&raw(&[0x80, 0, 0, 1, 40]), &ym).is_err(),
        "mixed signs"
    );
    let ds = ColumnType::IntervalDs {
        precision: 3,
        fsp: 6,
    };
    assert_eq!(
        to_value(
            &raw(&[0x80, 0, 0, 1, 62, 63, 64, 0xa1, 0x60, 0xec, 0x00]),
            &ds
        ),
        Ok(Value::IntervalDs("+001 02:03:04.560000000".into()))
    );
    assert_eq!(
        to_value(
            &raw(&[0x7f, 0xff, 0xff, 0xff, 58, 60, 60, 0x80, 0, 0, 0]),
            &ds
        ),
        Ok(Value::IntervalDs("-001 02:00:00.000000000".into()))
    );
    assert!(to_value(&raw(&[0x80, 0, 0, 1, 62, 63, 64]), &ds).is_err());
}

/// Values in Oracle's default NLS formats (a LogMiner session that did not set them) lose the
/// century, and for DATE the time of day: an error that names the NLS parameter to set, never
/// "no valid fraction of a second".
#[test]
fn default_nls_formats_are_refused_with_the_setting_that_avoids_them() {
    let cases = [
        (
            Literal::ToTimestamp("15-MAY-21 01.02.03.123456 PM".into()),
            ColumnType::Timestamp { fsp: 6 },
            "NLS_TIMESTAMP_FORMAT='YYYY-MM-DD HH24:MI:SS.FF9'",
        ),
        (
            Literal::ToDate("15-MAY-21".into()),
            ColumnType::Date,
            "NLS_DATE_FORMAT='YYYY-MM-DD HH24:MI:SS'",
        ),
        (
            Literal::ToTimestampTz("15-MAY-21 01.02.03.123456 PM +02:00".into()),
            ColumnType::TimestampTz { fsp: 6 },
            "NLS_TIMESTAMP_TZ_FORMAT='YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM'",
        ),
        (
            Literal::ToTimestamp("15-MAY-21 01.02.03.123456 PM".into()),
            ColumnType::TimestampLtz { fsp: 6 },
            "NLS_TIMESTAMP_FORMAT",
        ),
    ];
    for (lit, ty, setting) in cases {
        let e = to_value(&lit, &ty).unwrap_err();
        assert!(
            e.contains("Oracle's default") && e.contains(setting) && !e.contains("fraction"),
            "{e}"
        );
        let e = into_value(lit, &ty).unwrap_err();
        assert!(e.contains(setting), "{e}");
    }
    // The whole statement, as LogMiner writes it in such a session.
    let d = ok("insert into \"O\".\"T\"(\"D\") values (TO_DATE('15-MAY-21', 'DD-MON-RR'));");
    assert_eq!(d.new[0].1, Literal::ToDate("15-MAY-21".into()));
}

#[test]
fn hextoraw_text_is_decoded_with_the_database_character_sets() {
    use crate::charset::{Charset, Charsets};
    let we8 = Charsets {
        database: Charset::We8MsWin1252,
        national: Charset::Utf8,
    };
    let latin1 = Charsets {
        database: Charset::We8Iso8859P1,
        national: Charset::Al16Utf16,
    };
    let vc = ColumnType::varchar2(10);
    let nv = ColumnType::Nvarchar2 { length: 5 };
    let raw = |b: &[u8]| Literal::HexToRaw(b.to_vec());
    let text = |t: &str| Ok(Value::Text(t.into()));
    // 'é€' in WE8MSWIN1252 is e9 80; in WE8ISO8859P1 e9 is 'é' and 80 a C1 control.
    assert_eq!(to_value_in(&raw(&[0xe9, 0x80]), &vc, we8), text("é€"));
    assert_eq!(
        to_value_in(&raw(&[0xe9, 0x80]), &vc, latin1),
        text("é\u{80}")
    );
    // The same bytes are not AL32UTF8 text: an error, not a replacement character.
    let e = to_value(&raw(&[0xe9, 0x80]), &vc).unwrap_err();
    assert!(
        e.contains("NLS_CHARACTERSET") && e.contains("AL32UTF8"),
        "{e}"
    );
    // A byte WE8MSWIN1252 leaves undefined.
    let e = to_value_in(&raw(&[b'a', 0x81]), &vc, we8).unwrap_err();
    assert!(e.contains("0x81") && e.contains("WE8MSWIN1252"), "{e}");
    // National text in UTF8 (CESU-8): 'é' is c3 a9, an emoji two 3-byte surrogates.
    assert_eq!(
        to_value_in(
            &raw(&[0xc3, 0xa9, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]),
            &nv,
            we8
        ),
        text("é😀")
    );
    // AL16UTF16 bytes are not UTF8 national text.
    let e = to_value_in(&raw(&[0, 0xe9]), &nv, we8).unwrap_err();
    assert!(e.contains("NLS_NCHAR_CHARACTERSET"), "{e}");
    assert_eq!(to_value_in(&raw(&[0, 0xe9]), &nv, latin1), text("é"));
    // Quoted and UNISTR text is already characters, whatever the sets.
    assert_eq!(to_value_in(&s("é€"), &vc, we8), text("é€"));
    assert_eq!(
        into_value_in(Literal::Unistr("é".into()), &nv, we8),
        text("é")
    );
    // A set capture does not decode: text as bytes is an error.
    let other = Charsets::from_names(Some("JA16SJIS"), None);
    assert!(to_value_in(&raw(b"ok"), &vc, other).is_err());
}

#[test]
fn to_value_text_lobs_booleans_and_mismatches() {
    let chr = ColumnType::char(5);
    assert_eq!(to_value(&s("ab   "), &chr), Ok(Value::Text("ab   ".into())));
    let nv = ColumnType::Nvarchar2 { length: 5 };
    assert_eq!(
        to_value(&Literal::Unistr("é".into()), &nv),
        Ok(Value::Text("é".into()))
    );
    assert_eq!(
        to_value(&Literal::HexToRaw(vec![0, 0xe9]), &nv),
        Ok(Value::Text("é".into()))
    );
    assert_eq!(
        to_value(&Literal::HexToRaw(b"OK".to_vec()), &chr),
        Ok(Value::Text("OK".into()))
    );
    assert!(to_value(&Literal::HexToRaw(vec![0xff]), &chr).is_err());
    assert!(to_value(&Literal::HexToRaw(vec![0xd8, 0x3d]), &nv).is_err());
    assert_eq!(
        to_value(&Literal::EmptyClob, &ColumnType::Clob),
        Ok(Value::Text(Default::default()))
    );
    assert_eq!(
        to_value(&Literal::EmptyBlob, &ColumnType::Blob),
        Ok(Value::Bytes(vec![]))
    );
    assert_eq!(
        to_value(&s("{\"a\":1}"), &ColumnType::Json),
        Ok(Value::Json("{\"a\":1}".into()))
    );
    for (lit, want) in [
        (s("1"), true),
        (s("0"), false),
        (bare("TRUE"), true),
        (bare("false"), false),
    ] {
        assert_eq!(
            to_value(&lit, &ColumnType::Boolean),
            Ok(Value::Boolean(want))
        );
    }
    assert!(to_value(&s("yes"), &ColumnType::Boolean).is_err());
    let vector = ColumnType::Vector { dimensions: None };
    assert_eq!(
        to_value(&s("[1.5,2.0E+000]"), &vector),
        Ok(Value::Vector(vec![1.5, 2.0]))
    );
    assert_eq!(to_value(&s("[]"), &vector), Ok(Value::Vector(vec![])));
    assert!(to_value(&s("1,2"), &vector).is_err());
    assert_eq!(to_value(&Literal::Null, &ColumnType::Date), Ok(Value::Null));
    let other = ColumnType::Other {
        name: "MDSYS.SDO_GEOMETRY".into(),
    };
    let mismatches = [
        (Literal::Unsupported, ColumnType::Boolean),
        (s("x"), other),
        (
            Literal::ToDate("2020-01-01".into()),
            ColumnType::Number {
                precision: None,
                scale: None,
            },
        ),
        (s("0a"), ColumnType::Raw { length: 2 }),
        (Literal::EmptyClob, ColumnType::Blob),
        (bare("7"), ColumnType::varchar2(1)),
    ];
    for (lit, ty) in mismatches {
        assert!(to_value(&lit, &ty).is_err(), "{lit:?} {ty:?}");
    }
}
