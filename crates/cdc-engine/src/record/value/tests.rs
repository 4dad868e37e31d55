//! Golden values per mode and Oracle type: what Debezium's Oracle connector gives for the same
//! value (fixtures worked out from its `OracleValueConverters`, `MicroDuration`, `Interval`,
//! `ZonedTimestamp`, `VariableScaleDecimal` and Kafka Connect's `Decimal`/JsonConverter, whose
//! bytes are `BigInteger.toByteArray()` in base64).

use super::*;
use crate::record::format::{BinaryMode, DecimalMode, Format, IntervalMode, TimePrecision};

fn ty(t: &str) -> ColumnType {
    ColumnType::parse(t).unwrap()
}

fn with(f: impl FnOnce(&mut Format)) -> Format {
    let mut fmt = Format::default();
    f(&mut fmt);
    fmt
}

fn enc(v: Value, t: &str, fmt: &Format) -> Json {
    let json = to_json(&v, &ty(t), fmt);
    // The byte writer gives the same value.
    let mut out = Vec::new();
    write(&mut out, &v, &ty(t), fmt);
    assert_eq!(
        serde_json::from_slice::<Json>(&out).unwrap(),
        json,
        "{v:?} in {t}"
    );
    json
}

fn num(s: &str) -> Value {
    Value::Number(s.into())
}

#[test]
fn twos_complement_is_javas_biginteger_to_byte_array() {
    for (neg, digits, bytes) in [
        (false, "0", vec![0x00]),
        (false, "1", vec![0x01]),
        (false, "127", vec![0x7f]),
        (false, "128", vec![0x00, 0x80]),
        (false, "255", vec![0x00, 0xff]),
        (false, "256", vec![0x01, 0x00]),
        (true, "1", vec![0xff]),
        (true, "128", vec![0x80]),
        (true, "129", vec![0xff, 0x7f]),
        (true, "255", vec![0xff, 0x01]),
        (true, "256", vec![0xff, 0x00]),
        (false, "1234", vec![0x04, 0xd2]),
        (true, "1234", vec![0xfb, 0x2e]),
    ] {
        assert_eq!(
            twos_complement(neg, digits),
            bytes,
            "{}{digits}",
            if neg { "-" } else { "" }
        );
    }
    // 10^38 - 1 (NUMBER(38)'s largest) is 127 bits: 16 bytes, the top one below 0x80.
    let max = "9".repeat(38);
    let b = twos_complement(false, &max);
    assert_eq!((b.len(), b[0]), (16, 0x4b));
}

#[test]
fn precise_decimals_are_unscaled_bytes_at_the_columns_scale() {
    let fmt = Format::default();
    // 12.34 → unscaled 1234 = 0x04D2.
    assert_eq!(enc(num("12.34"), "NUMBER(10,2)", &fmt), json!("BNI="));
    // 1.5 at scale 2 is 150 (Debezium pads the scale: `withScaleAdjustedIfNeeded`).
    assert_eq!(enc(num("1.5"), "NUMBER(10,2)", &fmt), json!("AJY="));
    assert_eq!(enc(num("-.5"), "NUMBER(10,2)", &fmt), json!("zg=="));
    assert_eq!(enc(num("0"), "NUMBER(10,2)", &fmt), json!("AA=="));
    // NUMBER(p) with p ≥ 19 is a Decimal of scale 0.
    assert_eq!(enc(num("256"), "NUMBER(20)", &fmt), json!("AQA="));
    let s = field_schema("P", &ty("NUMBER(10,2)"), true, &fmt);
    assert_eq!(
        s,
        json!({"type": "bytes", "optional": true, "name": "org.apache.kafka.connect.data.Decimal", "version": 1,
               "parameters": {"scale": "2", "connect.decimal.precision": "10"}, "field": "P"})
    );
}

#[test]
fn integers_take_the_narrowest_connect_type_of_their_width() {
    let fmt = Format::default();
    for (t, schema) in [
        ("NUMBER(2)", "int8"),
        ("NUMBER(4)", "int16"),
        ("NUMBER(9)", "int32"),
        ("NUMBER(18)", "int64"),
        // p − s: NUMBER(3,-1) is 4 digits wide.
        ("NUMBER(3,-1)", "int16"),
    ] {
        assert_eq!(
            field_schema("N", &ty(t), false, &fmt)["type"],
            schema,
            "{t}"
        );
    }
    assert_eq!(enc(num("-42"), "NUMBER(9)", &fmt), json!(-42));
    assert_eq!(enc(num("1230"), "NUMBER(3,-1)", &fmt), json!(1230));
}

#[test]
fn unconstrained_numbers_are_variable_scale_decimals() {
    let fmt = Format::default();
    assert_eq!(
        enc(num("7"), "NUMBER", &fmt),
        json!({"scale": 0, "value": "Bw=="})
    );
    assert_eq!(
        enc(num("-1.5"), "NUMBER", &fmt),
        json!({"scale": 1, "value": "8Q=="})
    );
    // BigDecimal("1.5E+125"): unscaled 15, scale -124.
    assert_eq!(
        enc(num("1.5E+125"), "NUMBER", &fmt),
        json!({"scale": -124, "value": "Dw=="})
    );
    assert_eq!(
        enc(num("2.5"), "FLOAT(126)", &fmt),
        json!({"scale": 1, "value": "GQ=="})
    );
    let s = field_schema("N", &ty("NUMBER"), true, &fmt);
    assert_eq!(s["name"], "io.debezium.data.VariableScaleDecimal");
    assert_eq!(s["type"], "struct");
}

#[test]
fn double_and_string_decimal_modes() {
    let double = with(|f| f.decimal = DecimalMode::Double);
    let string = with(|f| f.decimal = DecimalMode::String);
    assert_eq!(enc(num("12.34"), "NUMBER(10,2)", &double), json!(12.34));
    // NUMBER(p,0) follows the mode too (`SpecialValueDecimal`), NUMBER(p,s<0) stays an integer.
    assert_eq!(enc(num("7"), "NUMBER(5)", &double), json!(7.0));
    assert_eq!(
        field_schema("N", &ty("NUMBER(5)"), true, &double)["type"],
        "double"
    );
    assert_eq!(enc(num("1230"), "NUMBER(3,-1)", &double), json!(1230));
    assert_eq!(enc(num("1.5"), "NUMBER(10,2)", &string), json!("1.50"));
    assert_eq!(enc(num("-.5"), "NUMBER", &string), json!("-0.5"));
    assert_eq!(enc(num("7"), "NUMBER(5)", &string), json!("7"));
    assert_eq!(
        field_schema("N", &ty("NUMBER(10,2)"), true, &string)["type"],
        "string"
    );
}

#[test]
fn time_precision_modes() {
    let adaptive = Format::default();
    let connect = with(|f| f.time = TimePrecision::Connect);
    let ts = |s: &str| Value::Timestamp(s.into());
    assert_eq!(
        enc(Value::Date("1970-01-02 00:00:00".into()), "DATE", &adaptive),
        json!(86_400_000)
    );
    assert_eq!(
        enc(ts("1970-01-01 00:00:01.5"), "TIMESTAMP(3)", &adaptive),
        json!(1500)
    );
    assert_eq!(
        enc(ts("1970-01-01 00:00:01.5"), "TIMESTAMP(6)", &adaptive),
        json!(1_500_000)
    );
    assert_eq!(
        enc(ts("1970-01-01 00:00:01.5"), "TIMESTAMP(9)", &adaptive),
        json!(1_500_000_000)
    );
    assert_eq!(
        enc(ts("1970-01-01 00:00:01.5"), "TIMESTAMP(9)", &connect),
        json!(1500)
    );
    for (t, name) in [
        ("DATE", "io.debezium.time.Timestamp"),
        ("TIMESTAMP(3)", "io.debezium.time.Timestamp"),
        ("TIMESTAMP(6)", "io.debezium.time.MicroTimestamp"),
        ("TIMESTAMP(9)", "io.debezium.time.NanoTimestamp"),
    ] {
        assert_eq!(
            field_schema("T", &ty(t), true, &adaptive)["name"],
            name,
            "{t}"
        );
        assert_eq!(
            field_schema("T", &ty(t), true, &connect)["name"],
            "org.apache.kafka.connect.data.Timestamp"
        );
    }
}

#[test]
fn zoned_timestamps_have_the_columns_fraction_digits() {
    let fmt = Format::default();
    let tz = |s: &str| Value::TimestampTz(s.into());
    assert_eq!(
        enc(
            tz("2024-02-14 10:58:02.202590000 +01:00"),
            "TIMESTAMP(6) WITH TIME ZONE",
            &fmt
        ),
        json!("2024-02-14T10:58:02.202590+01:00")
    );
    assert_eq!(
        enc(
            tz("2024-02-14 10:58:02.000000000 +00:00"),
            "TIMESTAMP(3) WITH TIME ZONE",
            &fmt
        ),
        json!("2024-02-14T10:58:02.000Z")
    );
    assert_eq!(
        enc(
            tz("2024-02-14 10:58:02.202590000 +01:00"),
            "TIMESTAMP(6) WITH LOCAL TIME ZONE",
            &fmt
        ),
        json!("2024-02-14T09:58:02.202590Z")
    );
    assert_eq!(
        enc(
            tz("2024-02-14 10:58:02 -05:30"),
            "TIMESTAMP(0) WITH TIME ZONE",
            &fmt
        ),
        json!("2024-02-14T10:58:02-05:30")
    );
}

#[test]
fn intervals_numeric_and_string() {
    let numeric = Format::default();
    let string = with(|f| f.interval = IntervalMode::String);
    let ym = |s: &str| Value::IntervalYm(s.into());
    let ds = |s: &str| Value::IntervalDs(s.into());
    // -3 years 6 months = -42 months × 30.4375 days.
    assert_eq!(
        enc(ym("-03-06"), "INTERVAL YEAR TO MONTH", &numeric),
        json!(-110_451_600_000_000i64)
    );
    assert_eq!(
        enc(ym("-03-06"), "INTERVAL YEAR TO MONTH", &string),
        json!("P-3Y-6M0DT0H0M0S")
    );
    // 1 day 2:03:04.56 = 93784.56 s.
    assert_eq!(
        enc(
            ds("+001 02:03:04.560000"),
            "INTERVAL DAY TO SECOND",
            &numeric
        ),
        json!(93_784_560_000i64)
    );
    assert_eq!(
        enc(
            ds("+001 02:03:04.560000"),
            "INTERVAL DAY TO SECOND",
            &string
        ),
        json!("P0Y0M1DT2H3M4.56S")
    );
    assert_eq!(
        enc(
            ds("-000 00:00:01.500000"),
            "INTERVAL DAY TO SECOND",
            &numeric
        ),
        json!(-1_500_000)
    );
    assert_eq!(
        field_schema("I", &ty("INTERVAL DAY TO SECOND"), true, &numeric)["name"],
        "io.debezium.time.MicroDuration"
    );
    assert_eq!(
        field_schema("I", &ty("INTERVAL DAY TO SECOND"), true, &string)["name"],
        "io.debezium.time.Interval"
    );
}

#[test]
fn binary_modes() {
    let b = || Value::Bytes(vec![0xfb, 0xff, 0x0a]);
    assert_eq!(enc(b(), "RAW(8)", &Format::default()), json!("+/8K"));
    assert_eq!(
        field_schema("B", &ty("BLOB"), true, &Format::default())["type"],
        "bytes"
    );
    let mode = |m| with(|f| f.binary = m);
    assert_eq!(enc(b(), "RAW(8)", &mode(BinaryMode::Base64)), json!("+/8K"));
    assert_eq!(
        enc(b(), "RAW(8)", &mode(BinaryMode::Base64UrlSafe)),
        json!("-_8K")
    );
    assert_eq!(enc(b(), "RAW(8)", &mode(BinaryMode::Hex)), json!("fbff0a"));
    assert_eq!(
        field_schema("B", &ty("BLOB"), true, &mode(BinaryMode::Hex))["type"],
        "string"
    );
}

#[test]
fn other_types() {
    let fmt = Format::default();
    assert_eq!(
        enc(Value::Text("a  ".into()), "CHAR(3)", &fmt),
        json!("a  ")
    );
    assert_eq!(
        enc(Value::BinaryFloat(2.5), "BINARY_FLOAT", &fmt),
        json!(2.5)
    );
    assert_eq!(
        field_schema("F", &ty("BINARY_FLOAT"), true, &fmt)["type"],
        "float"
    );
    assert_eq!(
        field_schema("F", &ty("BINARY_DOUBLE"), true, &fmt)["type"],
        "double"
    );
    // Debezium's `io.debezium.data.Json` is the document's text.
    assert_eq!(
        enc(Value::Json("{\"n\":1}".into()), "JSON", &fmt),
        json!("{\"n\":1}")
    );
    assert_eq!(
        field_schema("J", &ty("JSON"), true, &fmt)["name"],
        "io.debezium.data.Json"
    );
    assert_eq!(enc(Value::Boolean(true), "BOOLEAN", &fmt), json!(true));
}

/// The byte writer's own path for `Decimal` and `VariableScaleDecimal` writes exactly the text
/// the JSON value gives, for every shape of Oracle's decimal text, scale, sign and size (and
/// texts it leaves to the JSON value: exponents, blanks, a `+`, more than 38 digits).
#[test]
fn decimals_are_written_byte_for_byte_as_their_json() {
    let texts = [
        "0",
        "-0",
        "7",
        "-7",
        "127",
        "128",
        "-128",
        "-129",
        "255",
        "256",
        "-256",
        "-257",
        ".5",
        "-.5",
        "5.",
        "0.00",
        "-0.001",
        "1.5",
        "-1.5",
        ".15",
        "000123.4500",
        "32767",
        "32768",
        "-32768",
        "-32769",
        "12345678901234567890",
        "-12345678901234567890",
        "999999999999999999",
        "-999999999999999999",
        "9999999999999999999",
        "99999999999999999.9",
        "999999999999999999.99",
        "18446744073709551615",
        "18446744073709551616",
        "9223372036854775807",
        "-9223372036854775808",
        "-9223372036854775809",
        "00000000000000000000001.5",
        "8388608",
        "-8388609",
        "99999999999999999999999999999999999999",
        "-99999999999999999999999999999999999999",
        "170141183460469231731687303715884105727",
        "170141183460469231731687303715884105728",
        "-170141183460469231731687303715884105728",
        "999999999999999999999999999999999999999",
        "1.5E+125",
        "1E-3",
        " 7",
        "+7",
        "",
        ".",
        "-",
        "1.2.3",
        "12a",
        "0.000000000000000000000000000000000000000001",
    ];
    let types = [
        "NUMBER(10,2)",
        "NUMBER(38,10)",
        "NUMBER(38,-2)",
        "NUMBER(5,1)",
        "NUMBER(4,6)",
        "NUMBER(38,0)",
        "NUMBER(20)",
        "NUMBER",
        "FLOAT(10)",
        "NUMBER(*,30)",
    ];
    for fmt in [Format::default(), with(|f| f.decimal = DecimalMode::String)] {
        for t in types {
            let Ok(column) = ColumnType::parse(t) else {
                continue;
            };
            for text in texts {
                let v = Value::Number(text.into());
                let mut out = Vec::new();
                write(&mut out, &v, &column, &fmt);
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    to_json(&v, &column, &fmt).to_string(),
                    "{text:?} in {t}"
                );
            }
        }
    }
}
