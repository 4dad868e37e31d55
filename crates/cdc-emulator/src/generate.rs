//! Value generators for the emulator's initial rows and workload, seeded and deterministic.

use crate::types::{ColumnType, Value};
use cdc_core::types::ToCompactString;
use rand::Rng;
use serde::{Deserialize, Serialize};

#[path = "generate_fast.rs"]
mod fast;
pub(crate) use fast::{push_digits, text_slot};

/// How a column's values are made (schema file `generate:`): `sequence`, or a map with one of
/// `int: {min, max}`, `decimal: {min, max, scale}`, `text: {min, max}`, `choice: [..]`,
/// `constant: VALUE`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "GeneratorRepr", into = "GeneratorRepr")]
pub enum Generator {
    /// 1, 2, 3, … (character columns get the number as text).
    Sequence,
    /// A whole number in `[min, max]`.
    Int { min: i64, max: i64 },
    /// A decimal in `[min, max]` with `scale` digits after the point.
    Decimal { min: f64, max: f64, scale: u8 },
    /// Letters, `min`..`max` characters.
    Text { min: usize, max: usize },
    /// One of these values (as text; typed by the column).
    Choice(Vec<String>),
    /// Always this value (as text).
    Constant(String),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range<T> {
    pub min: T,
    pub max: T,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecimalRange {
    pub min: f64,
    pub max: f64,
    #[serde(default)]
    pub scale: u8,
}

/// The YAML shape of a generator (serde_yaml wants tags for enums; a plain map reads better).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GeneratorRepr {
    Word(String),
    Map(GeneratorMap),
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratorMap {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub int: Option<Range<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decimal: Option<DecimalRange>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<Range<usize>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constant: Option<String>,
}

impl TryFrom<GeneratorRepr> for Generator {
    type Error = String;
    fn try_from(r: GeneratorRepr) -> Result<Self, String> {
        match r {
            GeneratorRepr::Word(w) if w == "sequence" => Ok(Generator::Sequence),
            GeneratorRepr::Word(w) => Err(format!(
                "unknown generator `{w}`: use sequence, or a map with int, decimal, text, choice or constant"
            )),
            GeneratorRepr::Map(m) => {
                let mut found = Vec::new();
                if let Some(r) = m.int {
                    found.push(Generator::Int { min: r.min, max: r.max });
                }
                if let Some(d) = m.decimal {
                    found.push(Generator::Decimal { min: d.min, max: d.max, scale: d.scale });
                }
                if let Some(r) = m.text {
                    found.push(Generator::Text { min: r.min, max: r.max });
                }
                if let Some(c) = m.choice {
                    found.push(Generator::Choice(c));
                }
                if let Some(c) = m.constant {
                    found.push(Generator::Constant(c));
                }
                match found.len() {
                    1 => Ok(found.remove(0)),
                    0 => Err("a generator map needs one of int, decimal, text, choice, constant".into()),
                    _ => Err("a generator map takes exactly one of int, decimal, text, choice, constant".into()),
                }
            }
        }
    }
}

impl From<Generator> for GeneratorRepr {
    fn from(g: Generator) -> Self {
        let mut m = GeneratorMap::default();
        match g {
            Generator::Sequence => return GeneratorRepr::Word("sequence".into()),
            Generator::Int { min, max } => m.int = Some(Range { min, max }),
            Generator::Decimal { min, max, scale } => {
                m.decimal = Some(DecimalRange { min, max, scale })
            }
            Generator::Text { min, max } => m.text = Some(Range { min, max }),
            Generator::Choice(c) => m.choice = Some(c),
            Generator::Constant(c) => m.constant = Some(c),
        }
        GeneratorRepr::Map(m)
    }
}

/// A column's generator, checked against its type.
#[derive(Debug, Clone)]
pub struct ColumnGen {
    ty: ColumnType,
    gen: Option<Generator>,
    null_pct: u8,
}

const WORDS: &[&str] = &[
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
];

impl ColumnGen {
    pub fn new(
        ty: &ColumnType,
        gen: Option<Generator>,
        null_pct: u8,
        nullable: bool,
    ) -> Result<ColumnGen, String> {
        if null_pct > 100 {
            return Err(format!("null_pct {null_pct} is over 100"));
        }
        if null_pct > 0 && !nullable {
            return Err("null_pct on a NOT NULL column".into());
        }
        match (&gen, ty) {
            (Some(Generator::Int { min, max }), _) if min > max => {
                return Err(format!("int min {min} is over max {max}"))
            }
            (Some(Generator::Decimal { min, max, .. }), _) if min > max => {
                return Err(format!("decimal min {min} is over max {max}"))
            }
            (Some(Generator::Text { min, max }), _) if min > max || *max == 0 => {
                return Err(format!("text min {min} / max {max} are not a range"))
            }
            (Some(Generator::Choice(v)), _) if v.is_empty() => {
                return Err("choice needs at least one value".into())
            }
            (Some(Generator::Text { .. }), t)
                if !matches!(
                    t,
                    ColumnType::Varchar2 { .. }
                        | ColumnType::Nvarchar2 { .. }
                        | ColumnType::Char { .. }
                        | ColumnType::Nchar { .. }
                        | ColumnType::Long
                        | ColumnType::Clob
                        | ColumnType::Nclob
                ) =>
            {
                return Err(format!(
                    "a text generator does not fit type {}",
                    t.sql_name()
                ))
            }
            (Some(Generator::Int { .. } | Generator::Decimal { .. } | Generator::Sequence), t)
                if !matches!(
                    t,
                    ColumnType::Number { .. }
                        | ColumnType::Float { .. }
                        | ColumnType::BinaryFloat
                        | ColumnType::BinaryDouble
                        | ColumnType::Varchar2 { .. }
                        | ColumnType::Nvarchar2 { .. }
                        | ColumnType::Char { .. }
                        | ColumnType::Nchar { .. }
                ) =>
            {
                return Err(format!(
                    "a numeric generator does not fit type {}",
                    t.sql_name()
                ))
            }
            _ => {}
        }
        let g = ColumnGen {
            ty: ty.clone(),
            gen,
            null_pct,
        };
        // Constants, choices and range ends must parse and fit the column now (as Oracle would
        // take them: ORA-12899, ORA-01438), not fail mid-workload.
        let fits = |what: &str, v: Value| -> Result<(), String> {
            super::conform::conform(ty, v)
                .map(|_| ())
                .map_err(|r| format!("{what} does not fit {}: {r}", ty.sql_name()))
        };
        match &g.gen {
            Some(Generator::Choice(v)) => {
                for s in v {
                    fits(&format!("choice `{s}`"), g.typed(s)?)?;
                }
            }
            Some(Generator::Constant(s)) => fits(&format!("constant `{s}`"), g.typed(s)?)?,
            Some(Generator::Int { min, max }) => {
                for n in [min, max] {
                    fits(&format!("int {n}"), g.number_value(*n as f64, 0))?;
                }
            }
            Some(Generator::Decimal { min, max, scale }) => {
                for n in [min, max] {
                    fits(&format!("decimal {n}"), g.number_value(*n, *scale))?;
                }
            }
            _ => {}
        }
        Ok(g)
    }

    /// Values by type alone, never NULL.
    pub fn by_type(ty: &ColumnType) -> ColumnGen {
        ColumnGen {
            ty: ty.clone(),
            gen: None,
            null_pct: 0,
        }
    }

    /// A value for the row with serial number `serial` (1-based, unique per table).
    pub fn value(&self, rng: &mut impl Rng, serial: u64) -> Value {
        if self.null_pct > 0 && rng.gen_range(0..100) < self.null_pct {
            return Value::Null;
        }
        self.draw(rng, serial)
    }

    /// [`ColumnGen::value`] after its NULL draw.
    fn draw(&self, rng: &mut impl Rng, serial: u64) -> Value {
        match &self.gen {
            Some(Generator::Sequence) => self.number_value(serial as f64, 0),
            Some(Generator::Int { min, max }) => {
                self.number_value(rng.gen_range(*min..=*max) as f64, 0)
            }
            Some(Generator::Decimal { min, max, scale }) => {
                let v = if min == max {
                    *min
                } else {
                    rng.gen_range(*min..*max)
                };
                self.number_value(v, *scale)
            }
            Some(Generator::Text { min, max }) => {
                let n = rng.gen_range(*min..=*max);
                self.text_value((0..n).map(|_| rng.gen_range(b'a'..=b'z') as char).collect())
            }
            Some(Generator::Choice(v)) => {
                let s = &v[rng.gen_range(0..v.len())];
                self.typed(s).unwrap_or(Value::Null)
            }
            Some(Generator::Constant(s)) => self.typed(s).unwrap_or(Value::Null),
            None => self.default_value(rng, serial),
        }
    }

    fn number_value(&self, v: f64, scale: u8) -> Value {
        let text = format!("{v:.*}", scale as usize);
        match &self.ty {
            ColumnType::BinaryFloat => Value::BinaryFloat(v as f32),
            ColumnType::BinaryDouble => Value::BinaryDouble(v),
            ColumnType::Number { .. } | ColumnType::Float { .. } => {
                Value::Number(normalize_number(&text).into())
            }
            _ => self.text_value(text),
        }
    }

    /// Text cut to the column's length (bytes for VARCHAR2 and CHAR, and characters too where
    /// declared in characters; characters for NVARCHAR2 and NCHAR) and blank-padded in CHAR and
    /// NCHAR (to the characters of a `CHAR(n CHAR)`), as Oracle stores it.
    fn text_value(&self, mut s: String) -> Value {
        let bytes = |s: &mut String, n: usize| {
            let mut end = n.min(s.len());
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            s.truncate(end);
        };
        let chars = |s: &mut String, n: u32| {
            if let Some((end, _)) = s.char_indices().nth(n as usize) {
                s.truncate(end);
            }
        };
        match &self.ty {
            ColumnType::Char {
                length,
                chars: Some(n),
            } => {
                chars(&mut s, *n);
                let pad = *n as usize - s.chars().count();
                s.extend(std::iter::repeat_n(' ', pad));
                // Within the bytes too: the last characters give way to blanks.
                while s.len() > *length as usize {
                    s.pop();
                }
                s.extend(std::iter::repeat_n(' ', *n as usize - s.chars().count()));
                Value::Text(s.into())
            }
            ColumnType::Char { length, .. } => {
                bytes(&mut s, *length as usize);
                s.extend(std::iter::repeat_n(' ', *length as usize - s.len()));
                Value::Text(s.into())
            }
            ColumnType::Nchar { length } => {
                let mut s: String = s.chars().take(*length as usize).collect();
                while s.chars().count() < *length as usize {
                    s.push(' ');
                }
                Value::Text(s.into())
            }
            ColumnType::Varchar2 { length, chars: n } => {
                if let Some(n) = n {
                    chars(&mut s, *n);
                }
                bytes(&mut s, *length as usize);
                Value::Text(s.into())
            }
            ColumnType::Nvarchar2 { length } => {
                Value::Text(s.chars().take(*length as usize).collect())
            }
            _ => Value::Text(s.into()),
        }
    }

    /// A value from its text in the canonical forms of [`Value`].
    pub fn typed(&self, s: &str) -> Result<Value, String> {
        Ok(match &self.ty {
            ColumnType::Number { .. } | ColumnType::Float { .. } => {
                s.parse::<f64>()
                    .map_err(|_| format!("`{s}` is not a number"))?;
                Value::Number(normalize_number(s).into())
            }
            ColumnType::BinaryFloat => {
                Value::BinaryFloat(s.parse().map_err(|_| format!("`{s}` is not a number"))?)
            }
            ColumnType::BinaryDouble => {
                Value::BinaryDouble(s.parse().map_err(|_| format!("`{s}` is not a number"))?)
            }
            ColumnType::Date => Value::Date(s.to_compact_string()),
            ColumnType::Timestamp { .. } => Value::Timestamp(s.to_compact_string()),
            ColumnType::TimestampTz { .. } | ColumnType::TimestampLtz { .. } => {
                Value::TimestampTz(s.to_compact_string())
            }
            ColumnType::Boolean => Value::Boolean(matches!(
                s.to_ascii_lowercase().as_str(),
                "true" | "1" | "yes"
            )),
            ColumnType::Json => Value::Json(s.to_compact_string()),
            ColumnType::Raw { .. } | ColumnType::Blob | ColumnType::LongRaw => {
                Value::Bytes(s.as_bytes().to_vec())
            }
            // As given: the writer pads a CHAR, and a value too long is ORA-12899, not cut.
            _ => Value::Text(s.to_compact_string()),
        })
    }

    fn default_value(&self, rng: &mut impl Rng, serial: u64) -> Value {
        let word = |rng: &mut dyn rand::RngCore| WORDS[rng.gen_range(0..WORDS.len())];
        match &self.ty {
            ColumnType::Varchar2 { .. } | ColumnType::Char { .. } => {
                // Now and then a quote, so SQL_REDO escaping is always exercised. ASCII: as
                // many characters as bytes.
                let mut s = if rng.gen_range(0..20) == 0 {
                    format!("O'{}", word(rng))
                } else {
                    format!("{} {}", word(rng), word(rng))
                };
                s.truncate((self.ty.max_chars().unwrap_or(1) as usize).max(1));
                self.text_value(s)
            }
            ColumnType::Nvarchar2 { .. } | ColumnType::Nchar { .. } => {
                self.text_value(format!("{}é{}", word(rng), rng.gen_range(0..100)))
            }
            ColumnType::Number { precision, scale } => {
                // k × 10^-e, at most four digits after the point and below a million where the
                // column allows; never more than p digits, never at or above 10^(p-s).
                let p = i32::from(precision.unwrap_or(9));
                let s = i32::from(scale.unwrap_or(0));
                let e = s.min(4);
                let digits = (p - s + e).min(6 + e).clamp(0, 9) as u32;
                let k = rng.gen_range(0..10u64.pow(digits));
                let text = super::key_gen::shift_point(&k.to_string(), e);
                Value::Number(if k > 0 && rng.gen_range(0..10) == 0 {
                    format!("-{text}").into()
                } else {
                    text.into()
                })
            }
            ColumnType::Float { .. } => Value::Number(
                normalize_number(&format!("{:.3}", rng.gen_range(-1000.0..1000.0))).into(),
            ),
            ColumnType::BinaryFloat => Value::BinaryFloat(rng.gen_range(-1000.0f32..1000.0)),
            ColumnType::BinaryDouble => Value::BinaryDouble(rng.gen_range(-1.0e6..1.0e6)),
            ColumnType::Date => Value::Date(date_time(rng).into()),
            ColumnType::Timestamp { fsp } => {
                Value::Timestamp(format!("{}.{}", date_time(rng), fraction(rng, *fsp)).into())
            }
            ColumnType::TimestampTz { fsp } => {
                let offsets = ["+00:00", "+01:00", "-05:00", "+05:30"];
                Value::TimestampTz(
                    format!(
                        "{}.{} {}",
                        date_time(rng),
                        fraction(rng, *fsp),
                        offsets[rng.gen_range(0..offsets.len())]
                    )
                    .into(),
                )
            }
            ColumnType::TimestampLtz { fsp } => Value::TimestampTz(
                format!("{}.{} +00:00", date_time(rng), fraction(rng, *fsp)).into(),
            ),
            ColumnType::IntervalYm { precision } => {
                let sign = if rng.gen_bool(0.2) { '-' } else { '+' };
                // The years fit the leading precision (ORA-01873 otherwise).
                let years = 10u64.pow(u32::from(*precision).min(9)).min(20);
                Value::IntervalYm(
                    format!(
                        "{sign}{:02}-{:02}",
                        rng.gen_range(0..years),
                        rng.gen_range(0..12)
                    )
                    .into(),
                )
            }
            ColumnType::IntervalDs { precision, fsp } => {
                let sign = if rng.gen_bool(0.2) { '-' } else { '+' };
                let frac = &fraction(rng, *fsp)[..(*fsp as usize).max(1)];
                let days = 10u64.pow(u32::from(*precision).min(9)).min(100);
                Value::IntervalDs(
                    format!(
                        "{sign}{:03} {:02}:{:02}:{:02}.{frac}",
                        rng.gen_range(0..days),
                        rng.gen_range(0..24),
                        rng.gen_range(0..60),
                        rng.gen_range(0..60)
                    )
                    .into(),
                )
            }
            ColumnType::Raw { length } => {
                let n = (*length as usize).clamp(1, 16);
                Value::Bytes((0..n).map(|_| rng.gen()).collect())
            }
            ColumnType::LongRaw | ColumnType::Blob => {
                Value::Bytes((0..rng.gen_range(1..64)).map(|_| rng.gen()).collect())
            }
            ColumnType::Long => Value::Text(format!("long text {serial}").into()),
            ColumnType::Clob => {
                // Occasionally longer than a SQL_REDO piece, to exercise CSF continuation.
                let n = if rng.gen_range(0..50) == 0 {
                    300
                } else {
                    rng.gen_range(1..8)
                };
                Value::Text(
                    (0..n)
                        .map(|_| word(rng))
                        .collect::<Vec<_>>()
                        .join(" ")
                        .into(),
                )
            }
            ColumnType::Nclob => Value::Text(format!("{} ünïcode {serial}", word(rng)).into()),
            ColumnType::Bfile => Value::bfile("DATA_DIR", format!("doc{serial}.pdf")),
            ColumnType::Rowid | ColumnType::Urowid => Value::Text(
                cdc_core::rowid::RowId {
                    data_object: 70000 + rng.gen_range(0..100),
                    relative_fno: 4,
                    block: rng.gen_range(100..10_000),
                    slot: rng.gen_range(0..100),
                }
                .encode()
                .into(),
            ),
            ColumnType::Xmltype => {
                Value::Text(format!("<doc><n>{serial}</n><w>{}</w></doc>", word(rng)).into())
            }
            ColumnType::Boolean => Value::Boolean(rng.gen_bool(0.5)),
            ColumnType::Json => Value::Json(
                format!(
                    "{{\"n\":{},\"tag\":\"{}\",\"ok\":{}}}",
                    rng.gen_range(0..1000),
                    word(rng),
                    rng.gen_bool(0.5)
                )
                .into(),
            ),
            // Object types: the emulator stores no attribute values, only NULL.
            ColumnType::Other { .. } => Value::Null,
            ColumnType::Vector { dimensions } => {
                // A VECTOR(n) value has exactly n dimensions.
                let d = dimensions.unwrap_or(3).max(1) as usize;
                Value::Vector(
                    (0..d)
                        .map(|_| (rng.gen_range(-100..100) as f32) / 8.0)
                        .collect(),
                )
            }
        }
    }
}

fn date_time(rng: &mut impl Rng) -> String {
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        rng.gen_range(2000..2030),
        rng.gen_range(1..=12),
        rng.gen_range(1..=28),
        rng.gen_range(0..24),
        rng.gen_range(0..60),
        rng.gen_range(0..60)
    )
}

/// Nine fraction digits, zero past the column's precision (what Oracle stores).
fn fraction(rng: &mut impl Rng, fsp: u8) -> String {
    let digits: String = (0..9)
        .map(|i| {
            if i < fsp {
                char::from(b'0' + rng.gen_range(0..10u8))
            } else {
                '0'
            }
        })
        .collect();
    digits
}

/// Oracle's number text (see [`crate::types::oracle_number_text`]).
pub fn normalize_number(text: &str) -> String {
    crate::types::oracle_number_text(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn numbers_normalize_like_oracle() {
        assert_eq!(normalize_number("0.15"), ".15");
        assert_eq!(normalize_number("-0.50"), "-.5");
        assert_eq!(normalize_number("7.000"), "7");
        assert_eq!(normalize_number("-0"), "0");
        assert_eq!(normalize_number("0012.30"), "12.3");
    }

    #[test]
    fn generation_is_deterministic_and_fits_the_type() {
        let ty = ColumnType::parse("CHAR(6)").unwrap();
        let g = ColumnGen::new(&ty, None, 0, false).unwrap();
        let mut a = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let mut b = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        for serial in 1..50 {
            let v = g.value(&mut a, serial);
            assert_eq!(v, g.value(&mut b, serial));
            match v {
                Value::Text(s) => assert_eq!(s.chars().count(), 6, "CHAR keeps its padding"),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn generators_are_checked_against_types() {
        let date = ColumnType::Date;
        assert!(ColumnGen::new(&date, Some(Generator::Sequence), 0, true).is_err());
        let num = ColumnType::parse("NUMBER(5)").unwrap();
        assert!(ColumnGen::new(&num, Some(Generator::Choice(vec!["x".into()])), 0, true).is_err());
        assert!(ColumnGen::new(&num, None, 10, false).is_err());
        let g = ColumnGen::new(&num, Some(Generator::Sequence), 0, false).unwrap();
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        assert_eq!(g.value(&mut r, 42), Value::Number("42".into()));
    }
}
