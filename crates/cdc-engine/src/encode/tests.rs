use super::*;
// The epoch arithmetic is the core's (`cdc_core::civil`); its reference checks stay beside the
// writers that share their generated texts.
use cdc_core::civil::days_from_civil_0_9999;

fn ty(t: &str) -> ColumnType {
    ColumnType::parse(t).unwrap()
}

#[test]
fn numbers_are_integers_when_they_fit_else_exact_strings() {
    assert_eq!(
        to_json(&Value::Number("42".into()), &ty("NUMBER(10)")),
        json!(42)
    );
    assert_eq!(
        to_json(&Value::Number("-.5".into()), &ty("NUMBER(10,2)")),
        json!("-0.5")
    );
    assert_eq!(
        to_json(
            &Value::Number("12345678901234567890".into()),
            &ty("NUMBER(20)")
        ),
        json!("12345678901234567890")
    );
    assert_eq!(
        to_json(&Value::Number("7".into()), &ty("NUMBER")),
        json!("7")
    );
}

#[test]
fn times_follow_adaptive_precision() {
    assert_eq!(
        to_json(&Value::Date("1970-01-02 00:00:00".into()), &ty("DATE")),
        json!(86_400_000)
    );
    assert_eq!(
        to_json(
            &Value::Timestamp("1970-01-01 00:00:01.500000000".into()),
            &ty("TIMESTAMP(6)")
        ),
        json!(1_500_000)
    );
    assert_eq!(
        to_json(
            &Value::Timestamp("1970-01-01 00:00:00.000000007".into()),
            &ty("TIMESTAMP(9)")
        ),
        json!(7)
    );
    assert_eq!(
        to_json(
            &Value::TimestampTz("2024-02-14 10:58:02.202590000 +01:00".into()),
            &ty("TIMESTAMP(6) WITH TIME ZONE")
        ),
        json!("2024-02-14T10:58:02.202590+01:00")
    );
    assert_eq!(
        to_json(
            &Value::TimestampTz("2024-02-14 10:58:02.000000000 +01:00".into()),
            &ty("TIMESTAMP(6) WITH LOCAL TIME ZONE")
        ),
        json!("2024-02-14T09:58:02Z")
    );
}

#[test]
fn the_fast_row_writer_matches_serde_json() {
    let columns: Vec<cdc_core::model::ColumnInfo> = [
        ("ID", "NUMBER(5)"),
        ("N", "NUMBER(5,2)"),
        ("S", "VARCHAR2(20)"),
        ("D", "DATE"),
        ("T", "TIMESTAMP(9)"),
        ("R", "RAW(2)"),
    ]
    .iter()
    .map(|(n, t)| cdc_core::model::ColumnInfo {
        name: n.to_string(),
        data_type: ty(t),
        nullable: true,
        virtual_column: false,
        hidden: false,
    })
    .collect();
    let keys: Vec<Vec<u8>> = columns.iter().map(|c| json_key(&c.name)).collect();
    for values in [
        vec![
            Value::Number("7".into()),
            Value::Number("-.5".into()),
            Value::Text("a\"b\\c\n\u{1}é".into()),
            Value::Date("1969-12-31 23:59:59".into()),
            Value::Timestamp("2024-02-29 12:00:00.000000001".into()),
            Value::Bytes(vec![1, 2]),
        ],
        vec![
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
            Value::Null,
        ],
    ] {
        let mut out = Vec::new();
        write_json_row(&mut out, &keys, &columns, &values);
        let fast: Json = serde_json::from_slice(&out).unwrap();
        let slow: serde_json::Map<String, Json> = columns
            .iter()
            .zip(&values)
            .map(|(c, v)| (c.name.clone(), to_json(v, &c.data_type)))
            .collect();
        assert_eq!(fast, Json::Object(slow));
    }
    assert_eq!(epoch("2024-02-29 12:00:00", 3), Some(1_709_208_000_000));
    assert_eq!(
        epoch("1900-01-01 00:00:00.5", 6),
        Some(-2_208_988_800_000_000 + 500_000)
    );
    assert_eq!(epoch("2024-13-01 00:00:00", 3), None);
}

#[test]
fn the_fast_value_and_csv_writers_match_to_json_and_the_csv_crate() {
    let cases: Vec<(&str, Value)> = vec![
        ("NUMBER(10)", Value::Number("-42".into())),
        ("NUMBER(10)", Value::Number("1e5".into())),
        ("NUMBER(10)", Value::Number("0".into())),
        ("NUMBER(10)", Value::Number("-0".into())),
        ("NUMBER(10)", Value::Number("007".into())),
        ("NUMBER(10)", Value::Number("+5".into())),
        ("NUMBER(10)", Value::Number("-".into())),
        ("NUMBER(10)", Value::Number(Default::default())),
        ("NUMBER(18)", Value::Number("123456789012345678".into())),
        ("NUMBER(18)", Value::Number("-999999999999999999".into())),
        ("NUMBER(10,-2)", Value::Number("1200".into())),
        ("DATE", Value::Date(" 2024-02-29 12:00:00 ".into())),
        ("NUMBER(20)", Value::Number("12345678901234567890".into())),
        ("NUMBER(10,2)", Value::Number(".5".into())),
        ("NUMBER(10,2)", Value::Number("-.25".into())),
        ("NUMBER", Value::Number("7".into())),
        ("VARCHAR2(20)", Value::Text(Default::default())),
        (
            "VARCHAR2(20)",
            Value::Text("a,b \"c\"\r\n\t\u{1}é\\".into()),
        ),
        ("DATE", Value::Date("2024-02-29 12:00:00".into())),
        ("DATE", Value::Date("not a date".into())),
        (
            "TIMESTAMP(3)",
            Value::Timestamp("1970-01-01 00:00:01.5".into()),
        ),
        (
            "TIMESTAMP(6)",
            Value::Timestamp("1970-01-01 00:00:01.000002".into()),
        ),
        (
            "TIMESTAMP(9)",
            Value::Timestamp("1970-01-01 00:00:00.000000007".into()),
        ),
        ("TIMESTAMP(9)", Value::Timestamp("12:00".into())),
        ("RAW(2)", Value::Bytes(vec![0x0a, 0x0b])),
        ("JSON", Value::Json("{\"a\":[1,\"x,y\"]}".into())),
        ("BINARY_DOUBLE", Value::BinaryDouble(-1.5)),
        ("DATE", Value::Null),
    ];
    for (t, v) in &cases {
        let mut out = Vec::new();
        write_json_value(&mut out, v, &ty(t));
        let parsed: Json = serde_json::from_slice(&out).unwrap();
        assert_eq!(parsed, to_json(v, &ty(t)), "{t} {v:?}");
        assert_eq!(
            out,
            to_json(v, &ty(t)).to_string().into_bytes(),
            "{t} {v:?}"
        );
    }
    // Whole rows, and rows of one column (an empty record is written as `""`).
    let col = |t: &str| cdc_core::model::ColumnInfo {
        name: "C".into(),
        data_type: ty(t),
        nullable: true,
        virtual_column: false,
        hidden: false,
    };
    let columns: Vec<_> = cases.iter().map(|(t, _)| col(t)).collect();
    let values: Vec<Value> = cases.iter().map(|(_, v)| v.clone()).collect();
    let mut rows: Vec<(Vec<_>, Vec<Value>)> = vec![(columns, values)];
    for (t, v) in &cases {
        rows.push((vec![col(t)], vec![v.clone()]));
    }
    for (columns, values) in rows {
        let mut fast = Vec::new();
        write_csv_row(&mut fast, &columns, &values);
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(
            columns
                .iter()
                .zip(&values)
                .map(|(c, v)| to_csv(v, &c.data_type)),
        )
        .unwrap();
        let slow = w.into_inner().unwrap();
        assert_eq!(
            String::from_utf8(fast).unwrap(),
            String::from_utf8(slow).unwrap()
        );
    }
}

#[test]
fn intervals_bytes_and_special_types() {
    assert_eq!(
        to_json(
            &Value::IntervalYm("-03-06".into()),
            &ty("INTERVAL YEAR(2) TO MONTH")
        ),
        json!("P-3Y-6M")
    );
    assert_eq!(
        to_json(
            &Value::IntervalDs("+001 02:03:04.560000".into()),
            &ty("INTERVAL DAY(2) TO SECOND(6)")
        ),
        json!("P1DT2H3M4.56S")
    );
    assert_eq!(
        to_json(&Value::Bytes(vec![0x0a, 0x0b]), &ty("RAW(2)")),
        json!("Cgs=")
    );
    assert_eq!(
        to_json(&Value::BinaryDouble(f64::NAN), &ty("BINARY_DOUBLE")),
        json!("NaN")
    );
    assert_eq!(
        to_json(&Value::Json("{\"a\":1}".into()), &ty("JSON")),
        json!({"a": 1})
    );
    assert_eq!(
        to_json(&Value::Vector(vec![1.5, -2.0]), &ty("VECTOR(2)")),
        json!([1.5, -2.0])
    );
    assert_eq!(to_csv(&Value::Null, &ty("DATE")), "");
    assert_eq!(
        to_csv(&Value::Text("a,b".into()), &ty("VARCHAR2(5)")),
        "a,b"
    );
}

/// The word-at-a-time escaping gives exactly what the byte-at-a-time rule gives (the
/// reference below), and JSON reads it back as the text, whatever sits at any offset.
#[test]
fn json_string_escaping_matches_the_byte_rule() {
    fn reference(s: &str) -> String {
        let mut o = String::new();
        for c in s.chars() {
            match c {
                '"' => o.push_str("\\\""),
                '\\' => o.push_str("\\\\"),
                '\n' => o.push_str("\\n"),
                '\r' => o.push_str("\\r"),
                '\t' => o.push_str("\\t"),
                c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
                c => o.push(c),
            }
        }
        o
    }
    let mut cases: Vec<String> = vec![String::new(), "plain ascii text of some length".into()];
    // Every byte that matters at every position of a 20-byte string, among letters,
    // multi-byte characters and bytes just above the escaped ones (`#`, `]`, space, DEL).
    for special in [
        '"', '\\', '\n', '\u{1}', '\u{1f}', ' ', '#', ']', '!', '\u{7f}', 'é', '😀',
    ] {
        for at in 0..20 {
            let mut t: String = "abcdefghijklmnopqrst".chars().take(at).collect();
            t.push(special);
            t.push_str(&"xyz12345678".repeat(2)[at % 7..]);
            cases.push(t);
        }
        // Short strings (read as two overlapping halves under eight bytes, a last word that
        // overlaps the one before it above): the special character at every position.
        for len in 1..=17 {
            for at in 0..len {
                let t: String = (0..len)
                    .map(|i| if i == at { special } else { 'k' })
                    .collect();
                cases.push(t);
            }
        }
    }
    cases.extend((0..=17).map(|len| "q".repeat(len)));
    for t in cases {
        let mut out = Vec::new();
        write_json_str(&mut out, &t);
        let got = String::from_utf8(out).unwrap();
        assert_eq!(got, format!("\"{}\"", reference(&t)), "{t:?}");
        assert_eq!(serde_json::from_str::<String>(&got).unwrap(), t);
    }
}

/// The parser `epoch` had before its word-at-a-time check, kept as the reference.
fn epoch_reference(s: &str, unit: u32) -> Option<i64> {
    let b = s.trim().as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let mut n = 0i64;
        for &c in b.get(r)? {
            if !c.is_ascii_digit() {
                return None;
            }
            n = n * 10 + i64::from(c - b'0');
        }
        Some(n)
    };
    if b.len() < 19
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b' '
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hh, mi, ss) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mi > 59 || ss > 60 {
        return None;
    }
    let mut nanos = 0i64;
    if b.len() > 19 {
        if b[19] != b'.' {
            return None;
        }
        let frac = &b[20..];
        if frac.is_empty() || frac.len() > 9 || !frac.iter().all(u8::is_ascii_digit) {
            return None;
        }
        for i in 0..9 {
            nanos = nanos * 10 + frac.get(i).map(|c| i64::from(c - b'0')).unwrap_or(0);
        }
    }
    let secs = days_from_civil(y, m, d) * 86_400 + hh * 3600 + mi * 60 + ss;
    match unit {
        3 => Some(secs * 1000 + nanos / 1_000_000),
        6 => Some(secs * 1_000_000 + nanos / 1000),
        _ => secs.checked_mul(1_000_000_000)?.checked_add(nanos),
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A small deterministic generator (no test depends on a seed it cannot reproduce).
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
}

#[test]
fn the_day_count_matches_the_signed_algorithm_for_every_4_digit_date() {
    for y in 0..=9999 {
        for m in 1..=12 {
            for d in [1, 2, 15, 28, 29, 30, 31] {
                assert_eq!(
                    days_from_civil_0_9999(y, m, d),
                    days_from_civil(i64::from(y), i64::from(m), i64::from(d)),
                    "{y}-{m}-{d}"
                );
            }
        }
    }
}

/// Date and timestamp texts: valid ones over the whole 4-digit range, and each byte of
/// them replaced by a character that is or is near a digit or a separator.
fn time_texts(rng: &mut Lcg, n: usize) -> Vec<String> {
    let mut out = vec![
        "1970-01-01 00:00:00".to_string(),
        "2001-09-09 01:46:40".to_string(),
        "2001-09-09 01:46:39".to_string(),
        "2286-11-20 17:46:39".to_string(),
        "2286-11-20 17:46:40".to_string(),
        "0000-01-01 00:00:00".to_string(),
        "9999-12-31 23:59:60".to_string(),
        "1969-12-31 23:59:59.999".to_string(),
        " 2024-02-29 12:00:00".to_string(),
        "2024-02-29 12:00:00\n".to_string(),
        "2024-02-31 24:00:00".to_string(),
        "2024-02-29 12:00:00.".to_string(),
        "2024-02-29 12:00:00.1234567891".to_string(),
        "2024-02-29T12:00:00".to_string(),
        String::new(),
    ];
    let odd = [
        b'0', b'9', b'/', b':', b'-', b' ', b'.', b'a', 0x2a, 0x3f, 0xff, 0x06, b'\n',
    ];
    for _ in 0..n {
        let mut t = format!(
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
            rng.below(10_000),
            rng.below(14),
            rng.below(33),
            rng.below(25),
            rng.below(61),
            rng.below(62),
        );
        match rng.below(4) {
            0 => {}
            1 => t.push_str(&format!(".{}", &"123456789"[..1 + rng.below(9) as usize])),
            _ => {
                let mut b = t.into_bytes();
                let i = rng.below(b.len() as u64) as usize;
                b[i] = odd[rng.below(odd.len() as u64) as usize];
                t = String::from_utf8_lossy(&b).into_owned();
            }
        }
        out.push(t);
    }
    out
}

#[test]
fn epoch_matches_the_byte_by_byte_parser() {
    let mut rng = Lcg(7);
    for t in time_texts(&mut rng, 200_000) {
        for unit in [3, 6, 9] {
            assert_eq!(epoch(&t, unit), epoch_reference(&t, unit), "{t:?} {unit}");
        }
    }
}

#[test]
fn the_csv_and_json_fast_paths_match_the_generic_cell_for_many_values() {
    let mut rng = Lcg(11);
    let types = [
        "NUMBER(10)",
        "NUMBER(18)",
        "NUMBER(10,2)",
        "NUMBER",
        "FLOAT",
        "VARCHAR2(50)",
        "DATE",
        "TIMESTAMP(3)",
        "TIMESTAMP(9)",
    ];
    let numbers = [
        "0",
        "-0",
        "7",
        "-7",
        "42",
        "007",
        "+5",
        "-",
        "",
        ".5",
        "-.5",
        "-.25",
        "1.5",
        "-1.5",
        "123456.78",
        "-999999.99",
        "1e5",
        "1,5",
        "\"1\"",
        "12345678901234567890",
        "123456789012345678",
        "-999999999999999999",
        "9223372036854775807",
    ];
    let pieces = [
        "a", "é", ",", "\"", "\r", "\n", " ", "\t", "\\", "'", "0", ".", "-",
    ];
    let times = time_texts(&mut rng, 2_000);
    let mut values = vec![Value::Null];
    values.extend(numbers.iter().map(|n| Value::Number(n.to_string().into())));
    values.extend(times.iter().map(|t| Value::Date(t.clone().into())));
    values.extend(times.iter().map(|t| Value::Timestamp(t.clone().into())));
    for _ in 0..3_000 {
        let len = rng.below(20);
        let text: String = (0..len).map(|_| rng.pick(&pieces)).collect();
        values.push(Value::Text(text.clone().into()));
        values.push(Value::Number(text.into()));
    }
    for n in 0..2_000 {
        let n = if rng.below(2) == 0 {
            n
        } else {
            rng.below(1 << 40)
        };
        let sign = rng.pick(&["", "-"]);
        let frac = rng.pick(&["", ".5", ".25", ".01"]);
        values.push(Value::Number(format!("{sign}{n}{frac}").into()));
        values.push(Value::Number(format!("{sign}{frac}").into()));
    }
    for t in types {
        let ty = ty(t);
        for v in &values {
            let mut fast = Vec::new();
            write_csv_value(&mut fast, v, &ty);
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record([to_csv(v, &ty), "x".into()]).unwrap();
            let slow = w.into_inner().unwrap();
            fast.extend_from_slice(b",x\n");
            assert_eq!(
                String::from_utf8_lossy(&fast),
                String::from_utf8_lossy(&slow),
                "{t} {v:?}"
            );
            let mut json = Vec::new();
            write_json_value(&mut json, v, &ty);
            assert_eq!(json, to_json(v, &ty).to_string().into_bytes(), "{t} {v:?}");
        }
    }
}

#[test]
fn a_chunk_of_csv_rows_is_its_rows_one_after_the_other() {
    let columns: Vec<cdc_core::model::ColumnInfo> = ["NUMBER(10)", "VARCHAR2(9)", "DATE"]
        .iter()
        .map(|t| cdc_core::model::ColumnInfo {
            name: "C".into(),
            data_type: ty(t),
            nullable: true,
            virtual_column: false,
            hidden: false,
        })
        .collect();
    let rows: Vec<cdc_core::model::FetchedRow> = (0..20)
        .map(|i| cdc_core::model::FetchedRow {
            rowid: format!("R{i}").into(),
            values: match i % 3 {
                0 => vec![Value::Null, Value::Null, Value::Null],
                1 => vec![
                    Value::Number(i.to_string().into()),
                    Value::Text(format!("a,{i}").into()),
                    Value::Date(format!("2024-01-{:02} 00:00:00", i + 1).into()),
                ],
                _ => vec![Value::Number("-1".into()), Value::Text("\"".into())],
            },
        })
        .collect();
    let mut one_by_one = Vec::new();
    for row in &rows {
        write_csv_row(&mut one_by_one, &columns, &row.values);
    }
    let mut chunk = Vec::new();
    write_csv_rows(&mut chunk, &columns, rows.clone());
    assert_eq!(chunk, one_by_one);
}

#[test]
fn iso_times_keep_the_columns_digits_and_never_drop_one() {
    assert_eq!(iso_time("2024-02-14 10:58:02", 0), "2024-02-14T10:58:02");
    assert_eq!(
        iso_time("2024-02-14 10:58:02.202590000", 6),
        "2024-02-14T10:58:02.202590"
    );
    assert_eq!(
        iso_time("2024-02-14 10:58:02.000000000", 3),
        "2024-02-14T10:58:02.000"
    );
    assert_eq!(
        iso_time("2024-02-14 10:58:02.000000000", 0),
        "2024-02-14T10:58:02"
    );
    // A digit beyond the declared precision is kept: the text stays exact.
    assert_eq!(
        iso_time("2024-02-14 10:58:02.123456789", 3),
        "2024-02-14T10:58:02.123456789"
    );
    // Not the canonical shape: as it is.
    assert_eq!(iso_time("-4712-01-01 00:00:00", 0), "-4712-01-01 00:00:00");
    // The fast CSV path writes what to_csv_iso gives.
    let columns: Vec<cdc_core::model::ColumnInfo> = [("D", "DATE"), ("T", "TIMESTAMP(6)")]
        .iter()
        .map(|(n, t)| cdc_core::model::ColumnInfo {
            name: n.to_string(),
            data_type: ty(t),
            nullable: true,
            virtual_column: false,
            hidden: false,
        })
        .collect();
    let values = vec![
        Value::Date("2001-02-03 04:05:06".into()),
        Value::Timestamp("2001-02-03 04:05:06.700000000".into()),
    ];
    let mut out = Vec::new();
    write_csv_rows_with(
        &mut out,
        &columns,
        vec![cdc_core::model::FetchedRow {
            values: values.clone(),
            ..Default::default()
        }],
        CsvTimes::Iso,
    );
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "2001-02-03T04:05:06,2001-02-03T04:05:06.700000\n"
    );
    assert_eq!(
        to_csv_iso(&values[1], &columns[1].data_type),
        "2001-02-03T04:05:06.700000"
    );
}
