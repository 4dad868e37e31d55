//! A value as Oracle stores it in a column, or the error Oracle refuses it with. The writer puts
//! every row through this; schema files' constants and choices are checked with it too.
//! Checked with the search tool against Oracle's Error Messages and SQL Language Reference:
//! - ORA-12899 "value too large for column %s (actual: %s, maximum: %s)": widths in bytes for
//!   byte semantics (VARCHAR2, CHAR and RAW), in characters for character semantics
//!   (`VARCHAR2(n CHAR)`, `CHAR(n CHAR)`: at most n characters, and at most the column's bytes,
//!   bytes in the database character set), NVARCHAR2 and NCHAR.
//! - Text of the database character set (VARCHAR2, CHAR, LONG, CLOB, XMLTYPE) holds only the
//!   characters that set has: a WE8MSWIN1252 or WE8ISO8859P1 database stores any other as its
//!   replacement character '¿' (0xBF), as Oracle converts client text it cannot map
//!   (Globalization Support Guide, "Character Set Conversion Between Clients and the Server":
//!   "replacement characters"). The national sets (AL16UTF16, UTF8) hold every character.
//! - ORA-01438 "value larger than specified precision allowed for this column" (19c wording):
//!   NUMBER(p,s) holds values below 10^(p-s) after rounding to s digits after the point (a
//!   negative s rounds left of it); more fraction digits than s are rounded, not refused.
//! - ORA-01873 "the leading precision of the interval is too small".
//! - CHAR and NCHAR values are blank-padded to the column's length (in characters for
//!   `CHAR(n CHAR)`); a zero-length VARCHAR2, CHAR or RAW value is NULL (so NOT NULL refuses it
//!   with ORA-01400).

use crate::charset::{Charset, Charsets};
use crate::types::{ColumnType, Value};

/// Why Oracle refuses a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// ORA-12899, with the value's width and the column's.
    TooLarge { actual: usize, maximum: usize },
    /// ORA-01438.
    Precision,
    /// ORA-01873.
    LeadingPrecision,
}

impl Refused {
    /// The error as Oracle words it for column `"OWNER"."TABLE"."COLUMN"`.
    pub fn message(&self, owner: &str, table: &str, column: &str) -> String {
        match self {
            Refused::TooLarge { actual, maximum } => format!(
                "ORA-12899: value too large for column \"{owner}\".\"{table}\".\"{column}\" (actual: {actual}, maximum: {maximum})"
            ),
            Refused::Precision => {
                "ORA-01438: value larger than specified precision allowed for this column".into()
            }
            Refused::LeadingPrecision => {
                "ORA-01873: the leading precision of the interval is too small".into()
            }
        }
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::TooLarge { actual, maximum } => write!(
                f,
                "ORA-12899: value too large for column (actual: {actual}, maximum: {maximum})"
            ),
            other => f.write_str(&other.message("", "", "")),
        }
    }
}

/// `v` as a column of type `ty` stores it in an AL32UTF8 / AL16UTF16 database.
pub fn conform(ty: &ColumnType, v: Value) -> Result<Value, Refused> {
    conform_in(ty, v, Charsets::default())
}

/// `v` as a column of type `ty` stores it in a database of these character sets.
pub fn conform_in(ty: &ColumnType, v: Value, charsets: Charsets) -> Result<Value, Refused> {
    let set = charsets.database;
    // Characters the database set cannot hold become its replacement character.
    let v = match (ty, v) {
        (
            ColumnType::Varchar2 { .. }
            | ColumnType::Char { .. }
            | ColumnType::Long
            | ColumnType::Clob
            | ColumnType::Xmltype,
            Value::Text(s),
        ) if set.is_single_byte() => Value::Text(set.conform(s.to_string()).into()),
        (_, v) => v,
    };
    let bytes = |s: &str| -> usize {
        if set == Charset::Al32Utf8 {
            s.len()
        } else {
            set.byte_len(s)
        }
    };
    let too_large = |actual: usize, maximum: u32| -> Result<(), Refused> {
        if actual > maximum as usize {
            Err(Refused::TooLarge {
                actual,
                maximum: maximum as usize,
            })
        } else {
            Ok(())
        }
    };
    Ok(match (ty, v) {
        (
            ColumnType::Varchar2 { .. }
            | ColumnType::Nvarchar2 { .. }
            | ColumnType::Char { .. }
            | ColumnType::Nchar { .. }
            | ColumnType::Long,
            Value::Text(s),
        ) if s.is_empty() => Value::Null,
        (ColumnType::Raw { .. } | ColumnType::LongRaw, Value::Bytes(b)) if b.is_empty() => {
            Value::Null
        }
        (ColumnType::Varchar2 { length, chars }, Value::Text(s)) => {
            if let Some(n) = chars {
                too_large(s.chars().count(), *n)?;
            }
            too_large(bytes(&s), *length)?;
            Value::Text(s)
        }
        (ColumnType::Nvarchar2 { length }, Value::Text(s)) => {
            too_large(s.chars().count(), *length)?;
            Value::Text(s)
        }
        (
            ColumnType::Char {
                length,
                chars: Some(n),
            },
            Value::Text(mut s),
        ) => {
            let count = s.chars().count();
            too_large(count, *n)?;
            s.extend(std::iter::repeat_n(' ', *n as usize - count));
            too_large(bytes(&s), *length)?;
            Value::Text(s)
        }
        (ColumnType::Char { length, .. }, Value::Text(mut s)) => {
            let used = bytes(&s);
            too_large(used, *length)?;
            let pad = *length as usize - used;
            s.extend(std::iter::repeat_n(' ', pad));
            Value::Text(s)
        }
        (ColumnType::Nchar { length }, Value::Text(mut s)) => {
            let n = s.chars().count();
            too_large(n, *length)?;
            s.extend(std::iter::repeat_n(' ', *length as usize - n));
            Value::Text(s)
        }
        (ColumnType::Raw { length }, Value::Bytes(b)) => {
            too_large(b.len(), *length)?;
            Value::Bytes(b)
        }
        (ColumnType::Number { precision, scale }, Value::Number(n))
            if precision.is_some() || scale.is_some() =>
        {
            let p = i32::from(precision.unwrap_or(38));
            let s = i32::from(scale.unwrap_or(0));
            match round(&n, s) {
                // Exponent forms and anything else not plain decimal text: as given.
                None => Value::Number(n),
                Some((text, exponent)) => {
                    if exponent.is_some_and(|e| e >= p - s) {
                        return Err(Refused::Precision);
                    }
                    Value::Number(text.into())
                }
            }
        }
        (ColumnType::IntervalYm { precision }, Value::IntervalYm(s)) => {
            leading(&s, '-', *precision)?;
            Value::IntervalYm(s)
        }
        (ColumnType::IntervalDs { precision, .. }, Value::IntervalDs(s)) => {
            leading(&s, ' ', *precision)?;
            Value::IntervalDs(s)
        }
        (_, v) => v,
    })
}

/// The leading field of an interval text (`+YY-MM`, `+DDD HH:MI:SS.F`) fits `precision` digits.
fn leading(s: &str, end: char, precision: u8) -> Result<(), Refused> {
    let field = s.trim_start_matches(['+', '-']);
    let field = field
        .split(end)
        .next()
        .unwrap_or("")
        .trim_start_matches('0');
    if field.len() > usize::from(precision) {
        Err(Refused::LeadingPrecision)
    } else {
        Ok(())
    }
}

/// `text` rounded half away from zero to `scale` digits after the point (negative: left of it),
/// as Oracle prints it, with the power of ten of its most significant digit (`None` for zero);
/// `None` when `text` is not plain decimal text.
fn round(text: &str, scale: i32) -> Option<(String, Option<i32>)> {
    let t = text.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
    // The point sits after `point` digits.
    let mut point = int.len() as i64;
    let keep = point + i64::from(scale);
    let round_up = keep >= 0 && digits.get(keep as usize).is_some_and(|d| *d >= 5);
    digits.truncate(keep.max(0) as usize);
    while (digits.len() as i64) < keep {
        digits.push(0);
    }
    if round_up {
        let mut i = digits.len();
        loop {
            if i == 0 {
                digits.insert(0, 1);
                point += 1;
                break;
            }
            i -= 1;
            if digits[i] == 9 {
                digits[i] = 0;
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    // Digits left of position `point` are the integer part; a negative scale leaves zeros.
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    let point = point.max(0) as usize;
    for (i, d) in digits.iter().enumerate() {
        if i == point {
            s.push('.');
        }
        s.push(char::from(b'0' + d));
    }
    for _ in digits.len()..point {
        s.push('0');
    }
    let exponent = digits
        .iter()
        .position(|d| *d != 0)
        .map(|i| point as i32 - 1 - i as i32);
    Some((crate::types::oracle_number_text(&s), exponent))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(t: &str, v: &str) -> Result<Value, Refused> {
        conform(&ColumnType::parse(t).unwrap(), Value::Number(v.into()))
    }

    #[test]
    fn a_single_byte_database_counts_its_bytes_and_replaces_what_it_cannot_hold() {
        let we8 = Charsets {
            database: Charset::We8MsWin1252,
            national: Charset::Utf8,
        };
        let t = |ty: &str, v: &str, cs: Charsets| {
            conform_in(&ColumnType::parse(ty).unwrap(), Value::Text(v.into()), cs)
        };
        let text = |s: &str| Ok(Value::Text(s.into()));
        // 'é' and '€' are one byte each in WE8MSWIN1252, two and three in AL32UTF8.
        assert_eq!(t("VARCHAR2(2)", "é€", we8), text("é€"));
        assert_eq!(
            t("VARCHAR2(2)", "é€", Charsets::default()),
            Err(Refused::TooLarge {
                actual: 5,
                maximum: 2
            })
        );
        assert_eq!(t("CHAR(3)", "é", we8), text("é  "));
        // 'Ā' is not in WE8MSWIN1252: stored as '¿'; national text keeps it.
        assert_eq!(t("VARCHAR2(5)", "aĀ", we8), text("a¿"));
        assert_eq!(t("NVARCHAR2(5)", "aĀ", we8), text("aĀ"));
        assert_eq!(t("VARCHAR2(5)", "aĀ", Charsets::default()), text("aĀ"));
    }

    #[test]
    fn numbers_round_to_the_scale_and_refuse_what_exceeds_the_precision() {
        let n = |s: &str| Ok(Value::Number(s.into()));
        assert_eq!(num("NUMBER(9,2)", "1.005"), n("1.01"));
        assert_eq!(num("NUMBER(9,2)", "-1.005"), n("-1.01"));
        assert_eq!(num("NUMBER(5)", "12345.4"), n("12345"));
        assert_eq!(num("NUMBER(5)", "99999.5"), Err(Refused::Precision));
        assert_eq!(num("NUMBER(3,2)", "123.89"), Err(Refused::Precision));
        assert_eq!(num("NUMBER(3,2)", "3.89"), n("3.89"));
        assert_eq!(num("NUMBER(5,-2)", "12345"), n("12300"));
        assert_eq!(num("NUMBER(5,-2)", "9999999"), Err(Refused::Precision));
        assert_eq!(num("NUMBER(2,5)", ".00099"), n(".00099"));
        assert_eq!(num("NUMBER(2,5)", ".001"), Err(Refused::Precision));
        assert_eq!(num("NUMBER(4,1)", ".05"), n(".1"));
        assert_eq!(num("NUMBER(2)", "0"), n("0"));
        assert_eq!(num("NUMBER", "123456789.123"), n("123456789.123"));
    }

    #[test]
    fn text_and_raw_widths_pad_and_empty_values() {
        let t = |ty: &str, v: &str| conform(&ColumnType::parse(ty).unwrap(), Value::Text(v.into()));
        assert_eq!(t("CHAR(5)", "ab"), Ok(Value::Text("ab   ".into())));
        assert_eq!(t("NCHAR(3)", "é"), Ok(Value::Text("é  ".into())));
        // VARCHAR2 counts bytes: é is two in UTF-8; NVARCHAR2 counts characters.
        assert_eq!(
            t("VARCHAR2(3)", "éé"),
            Err(Refused::TooLarge {
                actual: 4,
                maximum: 3
            })
        );
        assert_eq!(t("NVARCHAR2(3)", "ééé"), Ok(Value::Text("ééé".into())));
        assert_eq!(t("VARCHAR2(3)", ""), Ok(Value::Null));
        // Character semantics count characters: 3 of up to 4 bytes each; CHAR pads to 3
        // characters (`é` plus two blanks, four bytes).
        assert_eq!(
            t("VARCHAR2(3 CHAR)", "日本語"),
            Ok(Value::Text("日本語".into()))
        );
        assert_eq!(
            t("VARCHAR2(3 CHAR)", "日本語字"),
            Err(Refused::TooLarge {
                actual: 4,
                maximum: 3
            })
        );
        assert_eq!(t("CHAR(3 CHAR)", "é"), Ok(Value::Text("é  ".into())));
        assert_eq!(t("CHAR(3 BYTE)", "é"), Ok(Value::Text("é ".into())));
        assert_eq!(
            t("CHAR(2 CHAR)", "ñño"),
            Err(Refused::TooLarge {
                actual: 3,
                maximum: 2
            })
        );
        // And bytes where the type's maximum caps them: 1,500 characters in 4,000 bytes.
        assert!(t("VARCHAR2(1500 CHAR)", &"é".repeat(1500)).is_ok());
        assert_eq!(
            t("VARCHAR2(1500 CHAR)", &"日".repeat(1500)),
            Err(Refused::TooLarge {
                actual: 4500,
                maximum: 4000
            })
        );
        let raw = conform(
            &ColumnType::parse("RAW(2)").unwrap(),
            Value::Bytes(vec![1, 2, 3]),
        );
        assert_eq!(
            raw.unwrap_err().message("HR", "EMP", "PHOTO"),
            "ORA-12899: value too large for column \"HR\".\"EMP\".\"PHOTO\" (actual: 3, maximum: 2)"
        );
        let ym = ColumnType::parse("INTERVAL YEAR(1) TO MONTH").unwrap();
        assert_eq!(
            conform(&ym, Value::IntervalYm("+12-01".into())),
            Err(Refused::LeadingPrecision)
        );
        assert!(conform(&ym, Value::IntervalYm("+09-11".into())).is_ok());
    }
}
