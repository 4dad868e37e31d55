//! Property tests: rows rendered by the emulator's SQL_REDO renderer parse back to their values,
//! and no input (cut anywhere, or arbitrary) makes the parser panic.

use super::*;
use crate::names::TableName;
use crate::source::emulator::sql_redo::{delete, insert, lob_write_as, update};
use crate::types::{ColumnType, Value};
use proptest::prelude::*;
use proptest::strategy::Union;

#[derive(Clone, Copy, PartialEq)]
enum Place {
    Values,
    Set,
    Where,
}

/// What parsing must give back for a value the renderer wrote in `place`; `None` for
/// `Unsupported Type`.
fn expected(ty: &ColumnType, v: &Value, place: Place) -> Option<Value> {
    let empty = match v {
        Value::Text(x) | Value::Number(x) => x.is_empty(),
        Value::Bytes(b) => b.is_empty(),
        other => other.is_null(),
    };
    if empty && !ty.is_lob() {
        return Some(Value::Null); // Oracle stores '' as NULL
    }
    use ColumnType as T;
    match ty {
        T::Bfile | T::Vector { .. } | T::Xmltype | T::Boolean => None,
        T::Clob | T::Nclob if place == Place::Values => Some(Value::Text(Default::default())),
        T::Blob if place == Place::Values => Some(Value::Bytes(vec![])),
        // `/* JSON */ EMPTY_BLOB()`: the document follows in the statement's later rows.
        T::Json if place == Place::Values => Some(Value::Json(Default::default())),
        _ => Some(v.clone()),
    }
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::BinaryFloat(x), Value::BinaryFloat(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Value::BinaryDouble(x), Value::BinaryDouble(y)) => x == y || (x.is_nan() && y.is_nan()),
        _ => a == b,
    }
}

type Row = Vec<(String, ColumnType, Value)>;

fn check(got: &[(String, Literal)], row: &Row, place: Place) -> Result<(), TestCaseError> {
    let in_where = |t: &ColumnType| !t.is_lob() && *t != ColumnType::Json && !t.is_extended();
    let want: Vec<_> = row
        .iter()
        .filter(|(_, t, _)| place != Place::Where || in_where(t))
        .collect();
    prop_assert_eq!(got.len(), want.len());
    for ((name, lit), (n, t, v)) in got.iter().zip(want) {
        prop_assert_eq!(name, n);
        match expected(t, v, place) {
            None => prop_assert_eq!(lit, &Literal::Unsupported),
            Some(e) => {
                let value = to_value(lit, t).map_err(TestCaseError::fail)?;
                prop_assert_eq!(
                    into_value(lit.clone(), t),
                    Ok(value.clone()),
                    "moved as copied"
                );
                prop_assert!(
                    same(&value, &e),
                    "{:?} {:?} came back as {:?} via {:?}",
                    t,
                    v,
                    value,
                    lit
                );
            }
        }
    }
    Ok(())
}

fn typed_value(long: bool) -> impl Strategy<Value = (ColumnType, Value)> {
    use ColumnType as T;
    let text = || "[ -~é阿😀\n\t]{0,24}";
    let dt =
        "[12][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]) ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]";
    let frac = || proptest::string::string_regex(&format!("{dt}\\.[0-9]{{9}}")).unwrap();
    let mut arms: Vec<BoxedStrategy<(T, Value)>> = vec![
        text()
            .prop_map(|x| (T::varchar2(4000), Value::Text(x.into())))
            .boxed(),
        text()
            .prop_map(|x| (T::Nvarchar2 { length: 2000 }, Value::Text(x.into())))
            .boxed(),
        "[a-z' ]{0,8}"
            .prop_map(|x| (T::char(8), Value::Text(format!("{x:<8}").into())))
            .boxed(),
        "[a-zé]{0,3}"
            .prop_map(|x| {
                (
                    T::Nchar { length: 3 },
                    Value::Text(format!("{x:<3}").into()),
                )
            })
            .boxed(),
        (
            any::<bool>(),
            "([1-9][0-9]{0,20})?",
            "([0-9]{0,12}[1-9])?",
            "(E[+-][1-9][0-9])?",
        )
            .prop_map(|(neg, i, f, e)| {
                let mut n = if i.is_empty() && f.is_empty() {
                    "0".to_string()
                } else {
                    format!("{i}{}{f}", if f.is_empty() { "" } else { "." })
                };
                if !e.is_empty() && n != "0" {
                    n = format!("{}{e}", n.trim_start_matches('.'));
                }
                if neg && n != "0" {
                    n.insert(0, '-');
                }
                (
                    T::Number {
                        precision: None,
                        scale: None,
                    },
                    Value::Number(n.into()),
                )
            })
            .boxed(),
        any::<f32>()
            .prop_map(|v| (T::BinaryFloat, Value::BinaryFloat(v)))
            .boxed(),
        any::<f64>()
            .prop_map(|v| (T::BinaryDouble, Value::BinaryDouble(v)))
            .boxed(),
        dt.prop_map(|x| (T::Date, Value::Date(x.into()))).boxed(),
        frac()
            .prop_map(|x| (T::Timestamp { fsp: 9 }, Value::Timestamp(x.into())))
            .boxed(),
        (frac(), "[+-](0[0-9]|1[0-4]):[0-5][0-9]")
            .prop_map(|(x, z)| {
                (
                    T::TimestampTz { fsp: 9 },
                    Value::TimestampTz(format!("{x} {z}").into()),
                )
            })
            .boxed(),
        frac()
            .prop_map(|x| {
                (
                    T::TimestampLtz { fsp: 9 },
                    Value::TimestampTz(format!("{x} +00:00").into()),
                )
            })
            .boxed(),
        "[+-][0-9]{2}-(0[0-9]|1[01])"
            .prop_map(|x| (T::IntervalYm { precision: 2 }, Value::IntervalYm(x.into())))
            .boxed(),
        "[+-][0-9]{3} [0-2][0-9]:[0-5][0-9]:[0-5][0-9]\\.[0-9]{6}"
            .prop_map(|x| {
                (
                    T::IntervalDs {
                        precision: 3,
                        fsp: 6,
                    },
                    Value::IntervalDs(x.into()),
                )
            })
            .boxed(),
        prop::collection::vec(any::<u8>(), 0..24)
            .prop_map(|b| (T::Raw { length: 2000 }, Value::Bytes(b)))
            .boxed(),
        prop::collection::vec(any::<u8>(), 0..24)
            .prop_map(|b| (T::Blob, Value::Bytes(b)))
            .boxed(),
        text()
            .prop_map(|x| (T::Clob, Value::Text(x.into())))
            .boxed(),
        text()
            .prop_map(|x| (T::Nclob, Value::Text(x.into())))
            .boxed(),
        text()
            .prop_map(|x| (T::Long, Value::Text(x.into())))
            .boxed(),
        "\\{\"[a-z]{1,5}\":[0-9]{1,3}\\}"
            .prop_map(|x| (T::Json, Value::Json(x.into())))
            .boxed(),
        any::<bool>()
            .prop_map(|b| (T::Boolean, Value::Boolean(b)))
            .boxed(),
        Just((
            T::Vector {
                dimensions: Some(2),
            },
            Value::Vector(vec![1.0, 2.5]),
        ))
        .boxed(),
        Just((T::Bfile, Value::bfile("D", "f"))).boxed(),
        text()
            .prop_map(|x| (T::Xmltype, Value::Text(format!("<a>{x}</a>").into())))
            .boxed(),
        Just((T::Date, Value::Null)).boxed(),
    ];
    if long {
        let long_text = ("[a-z'é\\\\]{1,3}", 1500usize..2500).prop_map(|(x, n)| x.repeat(n));
        arms.push(
            long_text
                .clone()
                .prop_map(|x| (T::varchar2(32767), Value::Text(x.into())))
                .boxed(),
        );
        arms.push(
            long_text
                .prop_map(|x| (T::Nvarchar2 { length: 32767 }, Value::Text(x.into())))
                .boxed(),
        );
    }
    Union::new(arms)
}

fn row(long: bool) -> impl Strategy<Value = Row> {
    prop::collection::vec(typed_value(long), 1..8).prop_map(|cols| {
        let name = |i: usize| {
            if i % 3 == 2 {
                format!("COL {i}")
            } else {
                format!("C{i}")
            }
        };
        cols.into_iter()
            .enumerate()
            .map(|(i, (t, v))| (name(i), t, v))
            .collect()
    })
}

fn cols(row: &Row) -> Vec<(&str, &ColumnType, &Value)> {
    row.iter().map(|(n, t, v)| (n.as_str(), t, v)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn rendered_rows_parse_back_to_their_values(row in row(true)) {
        let t = TableName::new(None, "O", "T 1");
        let c = cols(&row);
        let ins = parse_dml(&insert(&t, &c)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!((ins.kind, ins.owner.as_str(), ins.table.as_str()), (DmlKind::Insert, "O", "T 1"));
        check(&ins.new, &row, Place::Values)?;
        let upd = parse_dml(&update(&t, &c, &c)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        check(&upd.new, &row, Place::Set)?;
        check(&upd.old, &row, Place::Where)?;
        let del = parse_dml(&delete(&t, &c)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(del.new.is_empty());
        check(&del.old, &row, Place::Where)?;
    }

    /// The moving fast path types exactly as the copying one, canonical text or not.
    #[test]
    fn into_value_types_as_to_value(
        number in "[-+ ]?0{0,2}[0-9]{0,3}(\\.[0-9]{0,3}0{0,2})?([eE][-+]?[0-9])? ?",
        date in "[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:[0-9]{2}:[0-9]{2})? ?",
        text in "[ -~é]{0,8}",
    ) {
        let num = ColumnType::parse("NUMBER(10,2)").unwrap();
        for lit in [Literal::Bare(number.clone()), Literal::Str(number)] {
            prop_assert_eq!(into_value(lit.clone(), &num), to_value(&lit, &num), "{:?}", lit);
        }
        for lit in [Literal::ToDate(date.clone()), Literal::Str(date)] {
            prop_assert_eq!(into_value(lit.clone(), &ColumnType::Date), to_value(&lit, &ColumnType::Date), "{:?}", lit);
        }
        let vc = ColumnType::parse("VARCHAR2(20)").unwrap();
        for (ty, lit) in [(&vc, Literal::Str(text.clone())), (&ColumnType::Json, Literal::Unistr(text.clone())), (&num, Literal::Str(text))] {
            prop_assert_eq!(into_value(lit.clone(), ty), to_value(&lit, ty), "{:?}", lit);
        }
    }

    #[test]
    fn lob_writes_parse_back(key in row(false), text in "[ -~é😀\n]{0,40}", bytes in prop::collection::vec(any::<u8>(), 0..40)) {
        let t = TableName::new(None, "O", "T");
        let key: Row = key.into_iter().filter(|(_, t, _)| !t.is_lob() && *t != ColumnType::Json && !t.is_extended()).collect();
        for (ty, v) in [(ColumnType::Clob, Value::Text(text.clone().into())), (ColumnType::Nclob, Value::Text(text.clone().into())), (ColumnType::Blob, Value::Bytes(bytes.clone()))] {
            let w = parse_lob_write(&lob_write_as(&t, "L", &ty, &cols(&key), &v)).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!((w.column.as_str(), w.offset), ("L", 1));
            prop_assert_eq!(to_value(&w.data, &ty), Ok(v));
            check(&w.key, &key, Place::Where)?;
        }
    }

    #[test]
    fn every_cut_of_a_statement_is_an_error_or_a_statement(row in row(false), which in 0..4usize) {
        let t = TableName::new(None, "O", "T");
        let c = cols(&row);
        let sql = match which {
            0 => insert(&t, &c),
            1 => update(&t, &c, &c),
            2 => delete(&t, &c),
            _ => lob_write_as(&t, "L", &ColumnType::Clob, &c, &Value::Text("x".into())),
        };
        for cut in (0..=sql.len()).filter(|&i| sql.is_char_boundary(i)) {
            let _ = parse_dml(&sql[..cut]);
            let _ = parse_lob_write(&sql[..cut]);
        }
        match which {
            3 => prop_assert!(parse_lob_write(&sql).is_ok()),
            _ => prop_assert!(parse_dml(&sql).is_ok()),
        }
    }

    #[test]
    fn arbitrary_text_never_panics(sql in "(insert|update|delete|DECLARE|BEGIN|END|into|from|set|where|values|and|IS|NULL|ROWID|HEXTORAW|UNISTR|TO_DATE|XMLType|Unsupported|[ \"'(),.;=|:/*\\\\0-9a-fA-Z_é])*") {
        let _ = parse_dml(&sql);
        let _ = parse_lob_write(&sql);
    }
}
