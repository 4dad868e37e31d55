//! [`ColumnGen::value`] into a value slot that is reused row after row (a bulk load makes
//! millions): the same value from the same draws of the generator, its text written into the
//! slot's buffer instead of `format!`-ed into a new string. Generators and types without a fast
//! form here take [`ColumnGen::value`]'s own path.

use super::{ColumnGen, Generator, WORDS};
use crate::types::{ColumnType, Str, Value};
use rand::Rng;
use std::fmt::Write;

/// The text buffer of `out` as a value of kind `make` (emptied), reused when `out` is one.
pub(crate) fn text_slot(out: &mut Value, make: fn(Str) -> Value) -> &mut Str {
    let same = matches!(
        (&*out, make(Str::default())),
        (Value::Number(_), Value::Number(_))
            | (Value::Text(_), Value::Text(_))
            | (Value::Date(_), Value::Date(_))
    );
    if !same {
        *out = make(Str::default());
    }
    match out {
        Value::Number(s) | Value::Text(s) | Value::Date(s) => {
            s.clear();
            s
        }
        _ => unreachable!("text_slot makes only Number, Text and Date values"),
    }
}

pub(crate) use cdc_core::civil::push_digits;

/// [`crate::types::oracle_number_text`] of `s`, in place.
pub(crate) fn normalize_in_place(s: &mut Str) {
    let b = s.as_bytes();
    let plain = !b.is_empty()
        && b.len() <= 64
        && b.iter()
            .enumerate()
            .all(|(i, c)| c.is_ascii_digit() || *c == b'.' || (i == 0 && *c == b'-'));
    if !plain {
        *s = crate::types::oracle_number_text(s).into();
        return;
    }
    let neg = b[0] == b'-';
    let digits = &b[usize::from(neg)..];
    let (int, frac) = match digits.iter().position(|c| *c == b'.') {
        Some(p) => (&digits[..p], &digits[p + 1..]),
        None => (digits, &digits[digits.len()..]),
    };
    if frac.contains(&b'.') {
        *s = crate::types::oracle_number_text(s).into();
        return;
    }
    let int = &int[int.iter().take_while(|c| **c == b'0').count()..];
    let frac = &frac[..frac.len() - frac.iter().rev().take_while(|c| **c == b'0').count()];
    let mut out = [0u8; 66];
    let mut n = 0;
    if int.is_empty() && frac.is_empty() {
        out[0] = b'0';
        n = 1;
    } else {
        if neg {
            out[0] = b'-';
            n = 1;
        }
        out[n..n + int.len()].copy_from_slice(int);
        n += int.len();
        if !frac.is_empty() {
            out[n] = b'.';
            out[n + 1..n + 1 + frac.len()].copy_from_slice(frac);
            n += 1 + frac.len();
        }
    }
    s.clear();
    // ASCII digits, `-` and `.` only.
    s.push_str(std::str::from_utf8(&out[..n]).unwrap_or("0"));
}

impl ColumnGen {
    /// [`ColumnGen::value`] into `out` (whose buffer is reused): the same value, the same
    /// draws of `rng`.
    pub fn value_into(&self, rng: &mut impl Rng, serial: u64, out: &mut Value) {
        if self.null_pct > 0 && rng.gen_range(0..100) < self.null_pct {
            *out = Value::Null;
            return;
        }
        if !self.draw_into(rng, serial, out) {
            *out = self.draw(rng, serial);
        }
    }

    /// The fast forms; `false` (and nothing drawn) for the others.
    fn draw_into(&self, rng: &mut impl Rng, serial: u64, out: &mut Value) -> bool {
        let number = matches!(
            self.ty,
            ColumnType::Number { .. } | ColumnType::Float { .. }
        );
        match (&self.gen, &self.ty) {
            (Some(Generator::Sequence), _) if number => {
                self.number_into(serial as f64, 0, out);
            }
            (Some(Generator::Int { min, max }), _) if number => {
                self.number_into(rng.gen_range(*min..=*max) as f64, 0, out);
            }
            (Some(Generator::Decimal { min, max, scale }), _) if number => {
                let v = if min == max {
                    *min
                } else {
                    rng.gen_range(*min..*max)
                };
                self.number_into(v, *scale, out);
            }
            (Some(Generator::Text { min, max }), ColumnType::Varchar2 { .. }) => {
                let n = rng.gen_range(*min..=*max);
                let s = text_slot(out, Value::Text);
                for _ in 0..n {
                    s.push(rng.gen_range(b'a'..=b'z') as char);
                }
                // ASCII: bytes are characters.
                s.truncate(self.ty.max_chars().unwrap_or(0) as usize);
            }
            (
                Some(Generator::Choice(_) | Generator::Constant(_)),
                ColumnType::Varchar2 { .. }
                | ColumnType::Nvarchar2 { .. }
                | ColumnType::Char { .. }
                | ColumnType::Nchar { .. }
                | ColumnType::Date,
            ) => {
                let s = match &self.gen {
                    Some(Generator::Choice(v)) => &v[rng.gen_range(0..v.len())],
                    Some(Generator::Constant(c)) => c,
                    _ => return false,
                };
                let make = if self.ty == ColumnType::Date {
                    Value::Date
                } else {
                    Value::Text
                };
                text_slot(out, make).push_str(s);
            }
            (None, ColumnType::Date) => {
                // date_time's draws: i32 ranges, as its format! arguments are.
                let s = text_slot(out, Value::Date);
                push_digits(s, rng.gen_range(2000..2030i32) as u64, 4);
                s.push('-');
                push_digits(s, rng.gen_range(1..=12i32) as u64, 2);
                s.push('-');
                push_digits(s, rng.gen_range(1..=28i32) as u64, 2);
                s.push(' ');
                push_digits(s, rng.gen_range(0..24i32) as u64, 2);
                s.push(':');
                push_digits(s, rng.gen_range(0..60i32) as u64, 2);
                s.push(':');
                push_digits(s, rng.gen_range(0..60i32) as u64, 2);
            }
            (None, ColumnType::Varchar2 { .. }) => {
                let length = self.ty.max_chars().unwrap_or(0);
                let word = |rng: &mut dyn rand::RngCore| WORDS[rng.gen_range(0..WORDS.len())];
                let s = text_slot(out, Value::Text);
                if rng.gen_range(0..20) == 0 {
                    s.push_str("O'");
                    s.push_str(word(rng));
                } else {
                    s.push_str(word(rng));
                    s.push(' ');
                    s.push_str(word(rng));
                }
                // ASCII words.
                s.truncate((length as usize).max(1).min(length as usize));
            }
            (None, ColumnType::Number { precision, scale }) => {
                let p = i32::from(precision.unwrap_or(9));
                let sc = i32::from(scale.unwrap_or(0));
                let e = sc.min(4);
                if e > 0 {
                    return false;
                }
                let digits = (p - sc + e).min(6 + e).clamp(0, 9) as u32;
                let k = rng.gen_range(0..10u64.pow(digits));
                let negative = k > 0 && rng.gen_range(0..10) == 0;
                let s = text_slot(out, Value::Number);
                if negative {
                    s.push('-');
                }
                // shift_point(k, e <= 0): k and -e zeros, as Oracle prints it.
                push_digits(s, k, 1);
                if k > 0 {
                    for _ in 0..(-e) {
                        s.push('0');
                    }
                }
            }
            _ => return false,
        }
        true
    }

    /// [`ColumnGen::number_value`] of a NUMBER or FLOAT column into `out`.
    fn number_into(&self, v: f64, scale: u8, out: &mut Value) {
        let s = text_slot(out, Value::Number);
        let _ = write!(s, "{v:.*}", scale as usize);
        normalize_in_place(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn values_into_a_reused_slot_are_the_values_and_draws_of_value() {
        let gens: Vec<(&str, Option<Generator>, u8)> = vec![
            ("NUMBER(12)", Some(Generator::Sequence), 0),
            (
                "NUMBER(9,2)",
                Some(Generator::Decimal {
                    min: 1.0,
                    max: 9000.0,
                    scale: 2,
                }),
                0,
            ),
            (
                "NUMBER(9,3)",
                Some(Generator::Decimal {
                    min: -5.0,
                    max: 5.0,
                    scale: 3,
                }),
                30,
            ),
            (
                "NUMBER",
                Some(Generator::Decimal {
                    min: 2.5,
                    max: 2.5,
                    scale: 1,
                }),
                0,
            ),
            (
                "NUMBER(5)",
                Some(Generator::Int {
                    min: -99,
                    max: 99999,
                }),
                0,
            ),
            ("FLOAT(10)", Some(Generator::Int { min: 0, max: 9 }), 0),
            ("VARCHAR2(40)", Some(Generator::Text { min: 0, max: 12 }), 0),
            ("VARCHAR2(5)", Some(Generator::Text { min: 3, max: 12 }), 10),
            (
                "VARCHAR2(8)",
                Some(Generator::Choice(vec![
                    "EMEA".into(),
                    "APAC".into(),
                    "AMER".into(),
                ])),
                0,
            ),
            (
                "CHAR(8)",
                Some(Generator::Choice(vec!["x".into(), "yy".into()])),
                0,
            ),
            ("NVARCHAR2(8)", Some(Generator::Constant("é".into())), 5),
            (
                "DATE",
                Some(Generator::Constant("2020-01-01 00:00:00".into())),
                0,
            ),
            ("DATE", None, 0),
            ("DATE", None, 40),
            ("VARCHAR2(40)", None, 0),
            ("VARCHAR2(3)", None, 0),
            ("VARCHAR2(1)", None, 0),
            ("NUMBER", None, 0),
            ("NUMBER(3)", None, 0),
            ("NUMBER(5,-2)", None, 0),
            ("NUMBER(6,2)", None, 0),
            ("NUMBER(12,6)", None, 0),
            ("TIMESTAMP(6)", None, 0),
            ("CHAR(6)", None, 0),
            ("RAW(8)", None, 20),
        ];
        for (ty, gen, null_pct) in gens {
            let t = ColumnType::parse(ty).unwrap();
            let g = ColumnGen::new(&t, gen.clone(), null_pct, true).unwrap();
            let mut a = rand_chacha::ChaCha8Rng::seed_from_u64(5);
            let mut b = rand_chacha::ChaCha8Rng::seed_from_u64(5);
            // A slot holding the last row's value, of whatever kind it was.
            let mut slot = Value::Text("left over".into());
            for serial in 1..3000 {
                let want = g.value(&mut a, serial);
                g.value_into(&mut b, serial, &mut slot);
                assert_eq!(slot, want, "{ty} {gen:?} serial {serial}");
            }
            assert_eq!(
                rand::RngCore::next_u64(&mut a),
                rand::RngCore::next_u64(&mut b),
                "{ty}: the same draws"
            );
        }
    }

    #[test]
    fn numbers_normalize_in_place_as_oracle_prints_them() {
        for t in [
            "0", "-0", "0.00", "-0.50", "007.500", "12", "-12.30", ".5", "5.", "1e5", "+3", "",
            "1.2.3", "inf", "-", "000", "100", "-100.000",
        ] {
            let mut s = Str::from(t);
            normalize_in_place(&mut s);
            assert_eq!(s, crate::types::oracle_number_text(t), "{t}");
        }
    }
}
