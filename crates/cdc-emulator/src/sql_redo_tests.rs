//! The emulator's SQL_REDO renderer against the text Oracle writes (oracle-facts §6): literals
//! of every type, LOB writes, CSF pieces, XIDs.

use super::*;
use proptest::prelude::*;

fn emp() -> TableName {
    TableName::new(None, "HR", "EMP")
}

const NUM: ColumnType = ColumnType::Number {
    precision: None,
    scale: None,
};
const VC: ColumnType = ColumnType::varchar2(40);

fn num(s: &str) -> Value {
    Value::Number(s.into())
}
fn text(s: &str) -> Value {
    Value::Text(s.into())
}

#[test]
fn hr_emp_statements_of_oracle_facts_section_6() {
    let (id, name, hired, photo) = (
        num("7"),
        text("O'Brien"),
        Value::Date("2020-01-01 00:00:00".into()),
        Value::Bytes(vec![0x0a, 0x0b]),
    );
    let raw = ColumnType::Raw { length: 16 };
    assert_eq!(
        insert(
            &emp(),
            &[
                ("ID", &NUM, &id),
                ("NAME", &VC, &name),
                ("HIRED", &ColumnType::Date, &hired),
                ("PHOTO", &raw, &photo),
            ]
        ),
        "insert into \"HR\".\"EMP\"(\"ID\",\"NAME\",\"HIRED\",\"PHOTO\") values ('7','O''Brien',TO_DATE('2020-01-01 00:00:00', 'YYYY-MM-DD HH24:MI:SS'),HEXTORAW('0a0b'));"
    );
    let (bob, null) = (text("Bob"), Value::Null);
    assert_eq!(
        update(
            &emp(),
            &[("NAME", &VC, &bob), ("NOTE", &VC, &null)],
            &[("ID", &NUM, &id), ("NAME", &VC, &name), ("NOTE", &VC, &null)]
        ),
        "update \"HR\".\"EMP\" set \"NAME\" = 'Bob', \"NOTE\" = NULL where \"ID\" = '7' and \"NAME\" = 'O''Brien' and \"NOTE\" IS NULL;"
    );
    assert_eq!(
        delete(&emp(), &[("ID", &NUM, &id), ("NAME", &VC, &bob)]),
        "delete from \"HR\".\"EMP\" where \"ID\" = '7' and \"NAME\" = 'Bob';"
    );
}

#[test]
fn numbers_are_quoted_without_leading_zero() {
    for (given, shown) in [
        ("7", "'7'"),
        ("-1.5", "'-1.5'"),
        ("0.15", "'.15'"),
        ("-0.5", "'-.5'"),
        (".15", "'.15'"),
        ("+12.50", "'12.5'"),
        ("007", "'7'"),
        ("0", "'0'"),
        ("-0.0", "'0'"),
        ("100", "'100'"),
        ("1e+40", "'1E+40'"),
    ] {
        assert_eq!(literal(&num(given), &NUM), shown, "{given}");
    }
    let float = ColumnType::Float { precision: 126 };
    assert_eq!(literal(&num("0.25"), &float), "'.25'");
}

#[test]
fn strings_double_quotes_and_keep_char_padding() {
    assert_eq!(literal(&text("it's"), &VC), "'it''s'");
    assert_eq!(literal(&text("ab   "), &ColumnType::char(5)), "'ab   '");
    assert_eq!(literal(&text("I||am"), &VC), "'I||am'");
    // Oracle stores '' as NULL.
    assert_eq!(literal(&text(""), &VC), "NULL");
    let (empty, k) = (text(""), num("1"));
    assert_eq!(
        delete(&emp(), &[("K", &NUM, &k), ("S", &VC, &empty)]),
        "delete from \"HR\".\"EMP\" where \"K\" = '1' and \"S\" IS NULL;"
    );
}

#[test]
fn long_literals_are_joined_with_concatenation() {
    let long = "x".repeat(4500);
    assert_eq!(
        literal(&text(&long), &ColumnType::varchar2(32767)),
        format!("'{}' || '{}'", "x".repeat(4000), "x".repeat(500))
    );
    // A doubled quote is never cut in two.
    let s = format!("{}'", "y".repeat(3999));
    assert_eq!(
        literal(&text(&s), &ColumnType::varchar2(32767)),
        format!("'{}' || ''''", "y".repeat(3999))
    );
}

#[test]
fn dates_timestamps_and_intervals() {
    let ts = ColumnType::Timestamp { fsp: 9 };
    assert_eq!(
        literal(
            &Value::Timestamp("2020-02-01 00:00:00.123456789".into()),
            &ts
        ),
        "TO_TIMESTAMP('2020-02-01 00:00:00.123456789')"
    );
    assert_eq!(
        literal(&Value::Timestamp("2020-02-01 00:00:00.5".into()), &ts),
        "TO_TIMESTAMP('2020-02-01 00:00:00.500000000')"
    );
    assert_eq!(
        literal(&Value::Timestamp("2020-02-01 00:00:00".into()), &ts),
        "TO_TIMESTAMP('2020-02-01 00:00:00.000000000')"
    );
    let tz = ColumnType::TimestampTz { fsp: 6 };
    assert_eq!(
        literal(
            &Value::TimestampTz("2024-02-14 10:58:02.202590000 +01:00".into()),
            &tz
        ),
        "TO_TIMESTAMP_TZ('2024-02-14 10:58:02.202590000 +01:00')"
    );
    assert_eq!(
        literal(
            &Value::TimestampTz("2024-02-14 10:58:02.20259 -05:30".into()),
            &tz
        ),
        "TO_TIMESTAMP_TZ('2024-02-14 10:58:02.202590000 -05:30')"
    );
    let ltz = ColumnType::TimestampLtz { fsp: 6 };
    assert_eq!(
        literal(
            &Value::TimestampTz("2024-02-14 00:58:02.202590000 +01:00".into()),
            &ltz
        ),
        "TO_TIMESTAMP_TZ('2024-02-13 23:58:02.202590000 +00:00')"
    );
    assert_eq!(
        literal(&Value::Timestamp("2024-02-14 10:58:02.2".into()), &ltz),
        "TO_TIMESTAMP_TZ('2024-02-14 10:58:02.200000000 +00:00')"
    );
    assert_eq!(
        literal(
            &Value::IntervalYm("-03-06".into()),
            &ColumnType::IntervalYm { precision: 2 }
        ),
        "TO_YMINTERVAL('-03-06')"
    );
    assert_eq!(
        literal(
            &Value::IntervalDs("+001 02:03:04.560000".into()),
            &ColumnType::IntervalDs {
                precision: 3,
                fsp: 6
            }
        ),
        "TO_DSINTERVAL('+001 02:03:04.560000')"
    );
}

#[test]
// 3.14 is the value from the OpenLogReplicator comparison notes, not an approximation of PI.
#[allow(clippy::approx_constant)]
fn binary_floats_use_oracle_exponent_text() {
    let bf = ColumnType::BinaryFloat;
    let bd = ColumnType::BinaryDouble;
    assert_eq!(literal(&Value::BinaryFloat(2.5), &bf), "'2.5E+000'");
    assert_eq!(literal(&Value::BinaryFloat(3.14), &bf), "'3.1400001E+000'");
    assert_eq!(
        literal(&Value::BinaryFloat(3.4e37), &bf),
        "'3.3999999E+037'"
    );
    assert_eq!(
        literal(&Value::BinaryFloat(123456.1), &bf),
        "'1.23456102E+005'"
    );
    assert_eq!(
        literal(&Value::BinaryDouble(12345678.2), &bd),
        "'1.2345678199999999E+007'"
    );
    assert_eq!(
        literal(&Value::BinaryDouble(12345678.1), &bd),
        "'1.23456781E+007'"
    );
    assert_eq!(literal(&Value::BinaryDouble(-0.001), &bd), "'-1.0E-003'");
    assert_eq!(literal(&Value::BinaryDouble(0.0), &bd), "'0'");
    assert_eq!(literal(&Value::BinaryDouble(f64::NAN), &bd), "'Nan'");
    assert_eq!(literal(&Value::BinaryFloat(f32::INFINITY), &bf), "'Inf'");
    assert_eq!(
        literal(&Value::BinaryDouble(f64::NEG_INFINITY), &bd),
        "'-Inf'"
    );
    assert_eq!(literal(&num("1.5"), &bd), "'1.5E+000'");
}

#[test]
fn binary_float_storage_matches_oracle_dump() {
    // Oracle SQL Reference, TO_BINARY_DOUBLE: DUMP(1234.56 as BINARY_DOUBLE) is
    // Typ=101 Len=8: 192,147,74,61,112,163,215,10.
    assert_eq!(
        binary_double_raw(1234.56),
        [192, 147, 74, 61, 112, 163, 215, 10]
    );
    assert_eq!(binary_float_raw(1.0), [0xbf, 0x80, 0x00, 0x00]);
    assert_eq!(binary_float_raw(-1.0), [0x40, 0x7f, 0xff, 0xff]);
    // The stored bytes sort as the numbers do.
    assert!(binary_double_raw(-2.0) < binary_double_raw(-1.0));
    assert!(binary_double_raw(-1.0) < binary_double_raw(0.5));
}

#[test]
fn national_text_uses_unistr() {
    let nv = ColumnType::Nvarchar2 { length: 20 };
    assert_eq!(literal(&text("é"), &nv), "UNISTR('\\00E9')");
    assert_eq!(literal(&text("h\u{e9}llo"), &nv), "UNISTR('h\\00E9llo')");
    assert_eq!(literal(&text("a'b\\c"), &nv), "UNISTR('a''b\\005Cc')");
    assert_eq!(
        literal(&text("😀!"), &ColumnType::Nchar { length: 3 }),
        "UNISTR('\\D83D\\DE00!')"
    );
    assert_eq!(
        literal(&text("阿狸(惊喜）"), &nv),
        "UNISTR('\\963F\\72F8(\\60CA\\559C\\FF09')"
    );
    let long = "é".repeat(900);
    let lit = literal(&text(&long), &ColumnType::Nvarchar2 { length: 2000 });
    assert_eq!(
        lit,
        format!(
            "UNISTR('{}') || UNISTR('{}')",
            "\\00E9".repeat(800),
            "\\00E9".repeat(100)
        )
    );
}

#[test]
fn lobs_are_empty_in_insert_and_never_in_where() {
    let (id, c, b, j) = (
        num("1"),
        text("Acme Co."),
        Value::Bytes(vec![1, 2]),
        Value::Json("{\"a\":1}".into()),
    );
    assert_eq!(
        insert(
            &emp(),
            &[
                ("ID", &NUM, &id),
                ("C", &ColumnType::Clob, &c),
                ("NC", &ColumnType::Nclob, &c),
                ("B", &ColumnType::Blob, &b),
                ("J", &ColumnType::Json, &j),
            ]
        ),
        "insert into \"HR\".\"EMP\"(\"ID\",\"C\",\"NC\",\"B\",\"J\") values ('1',EMPTY_CLOB(),EMPTY_CLOB(),EMPTY_BLOB(),/* JSON */ EMPTY_BLOB());"
    );
    assert_eq!(
        update(
            &emp(),
            &[("C", &ColumnType::Clob, &c), ("B", &ColumnType::Blob, &b)],
            &[
                ("ID", &NUM, &id),
                ("C", &ColumnType::Clob, &c),
                ("X", &ColumnType::Xmltype, &c),
                ("J", &ColumnType::Json, &j),
            ]
        ),
        "update \"HR\".\"EMP\" set \"C\" = 'Acme Co.', \"B\" = HEXTORAW('0102') where \"ID\" = '1';"
    );
    // Nothing left for the WHERE: no WHERE at all.
    assert_eq!(
        update(
            &emp(),
            &[("ID", &NUM, &id)],
            &[("C", &ColumnType::Clob, &c)]
        ),
        "update \"HR\".\"EMP\" set \"ID\" = '1';"
    );
    assert_eq!(delete(&emp(), &[]), "delete from \"HR\".\"EMP\";");
    assert_eq!(
        literal(&Value::Null, &ColumnType::Clob),
        "NULL",
        "a NULL LOB is NULL, not empty"
    );
}

/// A JSON document SET inline is its OSON image: exactly what LogMiner wrote for
/// `{"name":"Sally Field","age":77}` in Debezium's LogMinerDmlParserTest (dbz#1884).
#[test]
fn a_json_update_sets_the_oson_image() {
    let (id, j) = (
        num("1"),
        Value::Json(r#"{"name":"Sally Field","age":77}"#.into()),
    );
    assert_eq!(
        update(
            &TableName::new(None, "DEBEZIUM", "DBZ1872"),
            &[("EXTRA_DATA", &ColumnType::Json, &j)],
            &[("ID", &NUM, &id), ("EXTRA_DATA", &ColumnType::Json, &j)]
        ),
        "update \"DEBEZIUM\".\"DBZ1872\" set \"EXTRA_DATA\" = /* JSON */ HEXTORAW('ff4a5a012106020009001700009ce600050000046e616d650361676584020201000800140b53616c6c79204669656c6421c14e') where \"ID\" = '1';"
    );
}

#[test]
fn unsupported_types_and_booleans() {
    let v = Value::Vector(vec![1.0, 2.0]);
    assert_eq!(
        literal(
            &v,
            &ColumnType::Vector {
                dimensions: Some(2)
            }
        ),
        "Unsupported Type"
    );
    let f = Value::bfile("D", "f");
    assert_eq!(literal(&f, &ColumnType::Bfile), "Unsupported Type");
    assert_eq!(
        literal(&Value::Boolean(true), &ColumnType::Boolean),
        "Unsupported Type"
    );
    assert_eq!(literal(&Value::Boolean(true), &NUM), "'1'");
    assert_eq!(literal(&Value::Boolean(false), &NUM), "'0'");
    // Debezium LogMinerDmlParserTest (DBZ-3078): unsupported columns stay in the WHERE.
    let (id, b) = (num("1"), Value::Boolean(false));
    assert_eq!(
        delete(
            &emp(),
            &[("ID", &NUM, &id), ("UT", &ColumnType::Boolean, &b)]
        ),
        "delete from \"HR\".\"EMP\" where \"ID\" = '1' and \"UT\" = Unsupported Type;"
    );
}

#[test]
fn lob_write_blocks() {
    let t = TableName::new(None, "DEBEZIUM", "CLOB_TEST");
    let (id, data) = (num("2"), text("Test2"));
    let w = [("ID", &NUM, &id), ("VAL_DATA", &VC, &data)];
    assert_eq!(
        lob_write(&t, "VAL_CLOB", &w, &text("it's é")),
        "DECLARE \n loc_c CLOB; \n buf_c VARCHAR2(6156); \n loc_b BLOB; \n buf_b RAW(6156); \n loc_nc NCLOB; \n buf_nc NVARCHAR2(6156); \n e_len NUMBER; \nBEGIN\n select \"VAL_CLOB\" into loc_c from \"DEBEZIUM\".\"CLOB_TEST\" where \"ID\" = '2' and \"VAL_DATA\" = 'Test2' for update;\n\n buf_c := 'it''s é'; \n  dbms_lob.write(loc_c, 6, 1, buf_c);\nEND;"
    );
    let w = [("ID", &NUM, &id)];
    assert_eq!(
        lob_write(&t, "B", &w, &Value::Bytes(vec![0x48, 0x65])),
        "DECLARE \n loc_c CLOB; \n buf_c VARCHAR2(6156); \n loc_b BLOB; \n buf_b RAW(6156); \n loc_nc NCLOB; \n buf_nc NVARCHAR2(6156); \n e_len NUMBER; \nBEGIN\n select \"B\" into loc_b from \"DEBEZIUM\".\"CLOB_TEST\" where \"ID\" = '2' for update;\n\n buf_b := HEXTORAW('4865'); \n  dbms_lob.write(loc_b, 2, 1, buf_b);\nEND;"
    );
    let nc = lob_write_as(&t, "N", &ColumnType::Nclob, &w, &text("😀"));
    assert!(
        nc.contains(" select \"N\" into loc_nc from")
            && nc.contains(" buf_nc := UNISTR('\\D83D\\DE00'); \n  dbms_lob.write(loc_nc, 2, 1, buf_nc);\nEND;"),
        "{nc}"
    );
}

#[test]
fn csf_pieces() {
    assert_eq!(split_csf("abcdef", 4), vec!["abcd", "ef"]);
    assert_eq!(split_csf("abcd", 4), vec!["abcd"]);
    assert_eq!(split_csf("", 4), vec![""]);
    // é is 2 bytes: never cut inside it.
    assert_eq!(split_csf("aéé", 4), vec!["aé", "é"]);
    // A 4-byte character wider than the limit still gets its own piece.
    assert_eq!(split_csf("😀a", 2), vec!["😀", "a"]);
    let sql = "x".repeat(CSF_PIECE_BYTES * 2 + 1);
    let pieces = split_csf(&sql, CSF_PIECE_BYTES);
    assert_eq!(
        pieces.iter().map(String::len).collect::<Vec<_>>(),
        vec![4000, 4000, 1]
    );
}

#[test]
fn xid_and_rs_id() {
    assert_eq!(xid(2, 10, 0x337), "02000a0037030000");
    assert_eq!(xid(0x0906, 0x0014, 0x027e), "060914007e020000");
    assert_eq!(rs_id(7, 0x22d0, 0x114), " 0x000007.000022d0.0114 ");
    assert_eq!(
        rs_id(0x0031f7, 0x008fdb97, 0x10),
        " 0x0031f7.008fdb97.0010 "
    );
}

proptest! {
    #[test]
    fn csf_split_joins_back(sql in "[a-z'é😀 ]{0,200}", max in 1usize..16) {
        let pieces = split_csf(&sql, max);
        prop_assert_eq!(pieces.concat(), sql.clone());
        for p in &pieces {
            prop_assert!(p.len() <= max || p.chars().count() == 1);
        }
        prop_assert!(pieces.iter().take(pieces.len().saturating_sub(1)).all(|p| !p.is_empty()));
    }

    #[test]
    fn unistr_pieces_stay_within_the_literal_limit(s in "[a-zé😀'\\\\]{0,3000}") {
        let lit = literal(&Value::Text(s.clone().into()), &ColumnType::Nvarchar2 { length: 32767 });
        for piece in lit.split(" || ") {
            prop_assert!(piece.len() <= LITERAL_PIECE_BYTES + "UNISTR('')".len());
        }
    }
}
