//! Oracle's built-in data types as values ([`Datum`]), column types ([`OraType`]), result
//! columns ([`Column`]) and errors ([`OraError`]).
//!
//! The one vocabulary shared by the emulator's SQL engine (`emulator-sql`, which computes
//! values) and the Oracle Net server (`oracle-net-server`, which encodes them on the wire): a
//! value here is what Oracle holds, not a text form of it, so each side does its own job
//! (Oracle semantics there, wire encodings here) without depending on the other.
//!
//! Conventions:
//! - NUMBER is exact decimal text without exponent, leading `+` or superfluous zeros
//!   (`-1.5`, `0.15`, `7`, `0`); FLOAT is a NUMBER too. [`canonical_number`] makes that form.
//! - Character data (VARCHAR2, CHAR, NVARCHAR2, NCHAR, LONG, CLOB, NCLOB) is a Rust `String`;
//!   which of them a value is comes from its column's [`OraType`]. Oracle's empty string is NULL.
//! - Binary data (RAW, LONG RAW, BLOB) is bytes.
//! - DATE, TIMESTAMP and TIMESTAMP WITH (LOCAL) TIME ZONE carry their fields; a TIMESTAMP WITH
//!   TIME ZONE keeps its offset from UTC in minutes, its fields being local time at that offset.

use std::fmt;

/// Calendar date and time of day, nanoseconds included (DATE ignores them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct DateTime {
    /// -4712..=9999 (BC years are negative, as Oracle's signed year).
    pub year: i32,
    pub month: u8,
    pub day: u8,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    pub nanosecond: u32,
}

impl DateTime {
    pub fn date(year: i32, month: u8, day: u8) -> Self {
        DateTime {
            year,
            month,
            day,
            ..DateTime::default()
        }
    }

    /// `YYYY-MM-DD HH24:MI:SS`.
    pub fn date_text(&self) -> String {
        format!(
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }

    /// `YYYY-MM-DD HH24:MI:SS.FF9`.
    pub fn timestamp_text(&self) -> String {
        format!("{}.{:09}", self.date_text(), self.nanosecond)
    }

    /// Parses `YYYY-MM-DD[ HH24:MI:SS[.F…]]` (the forms the project's texts use).
    pub fn parse(text: &str) -> Option<DateTime> {
        if let Some(d) = Self::parse_fixed(text.as_bytes()) {
            return d;
        }
        let text = text.trim();
        let (date, time) = match text.split_once([' ', 'T']) {
            Some((d, t)) => (d, Some(t)),
            None => (text, None),
        };
        let (neg, date) = match date.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, date),
        };
        let mut d = date.splitn(3, '-');
        let year: i32 = d.next()?.parse().ok()?;
        let month: u8 = d.next()?.parse().ok()?;
        let day: u8 = d.next()?.parse().ok()?;
        let mut out = DateTime::date(if neg { -year } else { year }, month, day);
        if let Some(time) = time {
            let (hms, frac) = match time.split_once('.') {
                Some((a, b)) => (a, Some(b)),
                None => (time, None),
            };
            let mut t = hms.splitn(3, ':');
            out.hour = t.next()?.parse().ok()?;
            out.minute = t.next()?.parse().ok()?;
            out.second = t.next()?.parse().ok()?;
            if let Some(frac) = frac {
                if frac.is_empty() || frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let digits: u32 = frac.parse().ok()?;
                out.nanosecond = digits * 10u32.pow(9 - frac.len() as u32);
            }
        }
        out.valid()
    }

    fn valid(self) -> Option<DateTime> {
        let valid = (1..=12).contains(&self.month)
            && (1..=31).contains(&self.day)
            && self.hour < 24
            && self.minute < 60
            && self.second < 60;
        valid.then_some(self)
    }

    /// [`DateTime::parse`] of the form nearly every stored DATE and TIMESTAMP has,
    /// `YYYY-MM-DD HH24:MI:SS[.F…]` with digits in place, read by position (parsed by splits, each
    /// value's date was a twentieth of a served fetch's CPU); `None` for any other form, left
    /// to the general parse.
    fn parse_fixed(b: &[u8]) -> Option<Option<DateTime>> {
        if b.len() < 19 || !b.is_ascii() {
            return None;
        }
        let (head, frac) = b.split_at(19);
        let digit = |i: usize| head[i].is_ascii_digit().then(|| head[i] - b'0');
        let two = |i: usize| Some(digit(i)? * 10 + digit(i + 1)?);
        let seps = [(4, b'-'), (7, b'-'), (10, b' '), (13, b':'), (16, b':')];
        if seps.iter().any(|&(i, c)| head[i] != c) {
            return None;
        }
        let year = (0..4).try_fold(0i32, |y, i| Some(y * 10 + i32::from(digit(i)?)))?;
        let nanosecond = match frac {
            [] => 0,
            [b'.', f @ ..] if (1..=9).contains(&f.len()) && f.iter().all(u8::is_ascii_digit) => {
                let digits = f.iter().fold(0u32, |n, &c| n * 10 + u32::from(c - b'0'));
                digits * 10u32.pow(9 - f.len() as u32)
            }
            _ => return None,
        };
        let out = DateTime {
            year,
            month: two(5)?,
            day: two(8)?,
            hour: two(11)?,
            minute: two(14)?,
            second: two(17)?,
            nanosecond,
        };
        Some(out.valid())
    }
}

/// Text held inline up to 24 bytes: numbers, ROWIDs and most short texts of a fetch make no
/// allocation on their way to the wire.
pub type Str = compact_str::CompactString;
pub use compact_str::ToCompactString;

/// A value of one of Oracle's built-in types.
#[derive(Debug, Clone, PartialEq)]
pub enum Datum {
    Null,
    /// NUMBER / FLOAT: canonical exact decimal text (see [`canonical_number`]).
    Number(Str),
    /// Character data of any character type (the column's [`OraType`] says which).
    Text(Str),
    /// Binary data: RAW, LONG RAW, BLOB.
    Bytes(Vec<u8>),
    BinaryFloat(f32),
    BinaryDouble(f64),
    Date(DateTime),
    Timestamp(DateTime),
    /// Local fields at `offset_minutes` east of UTC.
    TimestampTz {
        at: DateTime,
        offset_minutes: i16,
    },
    /// INTERVAL YEAR TO MONTH: total months, signed.
    IntervalYm(i64),
    /// INTERVAL DAY TO SECOND: total nanoseconds, signed.
    IntervalDs(i128),
    /// A ROWID (extended, 18 characters) or UROWID, as its text.
    Rowid(Str),
    Boolean(bool),
}

impl Datum {
    pub fn is_null(&self) -> bool {
        matches!(self, Datum::Null)
    }

    /// Text, NULL for the empty string (Oracle does not keep empty strings).
    pub fn text(s: impl Into<Str>) -> Datum {
        let s = s.into();
        if s.is_empty() {
            Datum::Null
        } else {
            Datum::Text(s)
        }
    }

    /// A NUMBER from an integer.
    pub fn int(n: impl Into<i128>) -> Datum {
        Datum::Number(n.into().to_string().into())
    }
}

/// A column's (or bind's, or expression's) Oracle type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OraType {
    /// Maximum size in bytes.
    Varchar2(u32),
    /// Maximum size in characters.
    NVarchar2(u32),
    /// Fixed size in bytes (blank-padded).
    Char(u32),
    NChar(u32),
    /// Precision 0 / scale -127: an unconstrained NUMBER, as Oracle describes one.
    Number {
        precision: u8,
        scale: i8,
    },
    Float(u8),
    BinaryFloat,
    BinaryDouble,
    Date,
    Timestamp(u8),
    TimestampTz(u8),
    TimestampLtz(u8),
    IntervalYm(u8),
    /// Day precision, fractional seconds precision.
    IntervalDs(u8, u8),
    Raw(u32),
    Long,
    LongRaw,
    Clob,
    NClob,
    Blob,
    Rowid,
    Urowid,
    Boolean,
}

impl OraType {
    /// An unconstrained NUMBER (what `COUNT(*)`, SCN columns and arithmetic describe as).
    pub const NUMBER: OraType = OraType::Number {
        precision: 0,
        scale: -127,
    };

    /// Oracle's name of the type, as `ALL_TAB_COLS.DATA_TYPE` gives it.
    pub fn name(&self) -> String {
        match self {
            OraType::Varchar2(_) => "VARCHAR2".into(),
            OraType::NVarchar2(_) => "NVARCHAR2".into(),
            OraType::Char(_) => "CHAR".into(),
            OraType::NChar(_) => "NCHAR".into(),
            OraType::Number { .. } => "NUMBER".into(),
            OraType::Float(_) => "FLOAT".into(),
            OraType::BinaryFloat => "BINARY_FLOAT".into(),
            OraType::BinaryDouble => "BINARY_DOUBLE".into(),
            OraType::Date => "DATE".into(),
            OraType::Timestamp(p) => format!("TIMESTAMP({p})"),
            OraType::TimestampTz(p) => format!("TIMESTAMP({p}) WITH TIME ZONE"),
            OraType::TimestampLtz(p) => format!("TIMESTAMP({p}) WITH LOCAL TIME ZONE"),
            OraType::IntervalYm(p) => format!("INTERVAL YEAR({p}) TO MONTH"),
            OraType::IntervalDs(d, s) => format!("INTERVAL DAY({d}) TO SECOND({s})"),
            OraType::Raw(_) => "RAW".into(),
            OraType::Long => "LONG".into(),
            OraType::LongRaw => "LONG RAW".into(),
            OraType::Clob => "CLOB".into(),
            OraType::NClob => "NCLOB".into(),
            OraType::Blob => "BLOB".into(),
            OraType::Rowid => "ROWID".into(),
            OraType::Urowid => "UROWID".into(),
            OraType::Boolean => "BOOLEAN".into(),
        }
    }

    /// A national character type (NCHAR, NVARCHAR2, NCLOB): encoded in the national
    /// character set (AL16UTF16) on the wire.
    pub fn is_national(&self) -> bool {
        matches!(
            self,
            OraType::NVarchar2(_) | OraType::NChar(_) | OraType::NClob
        )
    }

    /// Character data of any kind.
    pub fn is_character(&self) -> bool {
        matches!(
            self,
            OraType::Varchar2(_)
                | OraType::NVarchar2(_)
                | OraType::Char(_)
                | OraType::NChar(_)
                | OraType::Long
                | OraType::Clob
                | OraType::NClob
        )
    }

    pub fn is_lob(&self) -> bool {
        matches!(self, OraType::Clob | OraType::NClob | OraType::Blob)
    }
}

/// One column of a query's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// As Oracle names it: the column name, the alias, or the expression's text upper-cased
    /// (`MIN("K")`, `SYS_CONTEXT('USERENV','CON_NAME')`).
    pub name: String,
    pub ora_type: OraType,
    pub nullable: bool,
}

impl Column {
    pub fn new(name: impl Into<String>, ora_type: OraType) -> Self {
        Column {
            name: name.into(),
            ora_type,
            nullable: true,
        }
    }
}

/// What the server does with the connection after reporting an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AfterError {
    /// Report it; the session goes on (almost every error).
    #[default]
    Continue,
    /// Report it, then close the connection (ORA-00028 "your session has been killed").
    Close,
    /// Close the connection at once without a word (the client sees ORA-03113 / ORA-03135):
    /// a network failure or a crashed server process.
    Drop,
}

/// An Oracle error: `ORA-NNNNN: text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OraError {
    pub code: u32,
    /// The whole message as Oracle shows it, starting with `ORA-NNNNN: `.
    pub message: String,
    /// The 0-based character offset in the statement the error points at, where Oracle gives
    /// one (parse errors).
    pub position: Option<u32>,
    pub after: AfterError,
}

impl OraError {
    /// `ORA-{code:05}: {text}`.
    pub fn new(code: u32, text: impl fmt::Display) -> Self {
        OraError {
            code,
            message: format!("ORA-{code:05}: {text}"),
            position: None,
            after: AfterError::Continue,
        }
    }

    pub fn at(mut self, position: usize) -> Self {
        self.position = Some(u32::try_from(position).unwrap_or(u32::MAX));
        self
    }

    pub fn then(mut self, after: AfterError) -> Self {
        self.after = after;
        self
    }

    /// ORA-00942: table or view does not exist.
    pub fn no_table(name: &str) -> Self {
        OraError::new(942, format!("table or view \"{name}\" does not exist"))
    }

    /// ORA-00900: invalid SQL statement.
    pub fn invalid_statement(what: &str) -> Self {
        OraError::new(900, format!("invalid SQL statement ({what})"))
    }

    /// ORA-01403: no data found (ends a fetch).
    pub fn no_data_found() -> Self {
        OraError::new(1403, "no data found")
    }
}

impl fmt::Display for OraError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OraError {}

/// Whether `text` is already in [`canonical_number`]'s form (then it is its own canonical text):
/// an optional `-`, digits without a leading zero (or one `0`), and an optional fraction that
/// does not end in `0`; not `-0`.
pub fn is_canonical_number(text: &str) -> bool {
    // One pass over the bytes (finding the point with a string search first was, with the
    // date parse, a tenth of a served fetch's CPU: every NUMBER is checked).
    let b = text.as_bytes();
    let t = b.strip_prefix(b"-").unwrap_or(b);
    let mut point = None;
    for (i, &c) in t.iter().enumerate() {
        match c {
            b'0'..=b'9' => {}
            b'.' if point.is_none() => point = Some(i),
            _ => return false,
        }
    }
    let int = &t[..point.unwrap_or(t.len())];
    if int.is_empty() || (int.len() > 1 && int[0] == b'0') {
        return false;
    }
    match point {
        Some(at) => t.len() > at + 1 && t[t.len() - 1] != b'0',
        // `-0` is `0`.
        None => !(int == b"0" && t.len() != b.len()),
    }
}

/// The canonical text of a decimal number: no exponent, no `+`, no leading zeros before the
/// integer digit, no trailing fractional zeros, `0` for any zero (`-0.50` → `-0.5`,
/// `.15` → `0.15`, `1E3` → `1000`). `None` for text that is not a decimal number.
pub fn canonical_number(text: &str) -> Option<String> {
    let t = text.trim();
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (mantissa, exp) = match t.find(['e', 'E']) {
        Some(at) => (&t[..at], t[at + 1..].parse::<i64>().ok()?),
        None => (t, 0),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mantissa, ""),
    };
    if (int.is_empty() && frac.is_empty())
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    // digits × 10^(point - digits.len()), point = where the decimal point sits in `digits`.
    let digits: String = format!("{int}{frac}");
    let point = i64::try_from(int.len()).ok()? + exp;
    let first = digits.bytes().position(|b| b != b'0');
    let Some(first) = first else {
        return Some("0".into());
    };
    let last = digits.bytes().rposition(|b| b != b'0').unwrap_or(first);
    let sig = &digits[first..=last];
    // Position of the point relative to the first significant digit.
    let point = point - i64::try_from(first).ok()?;
    if point.abs() > 200 {
        return None;
    }
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    let sig_len = i64::try_from(sig.len()).ok()?;
    if point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', usize::try_from(-point).ok()?));
        out.push_str(sig);
    } else if point >= sig_len {
        out.push_str(sig);
        out.extend(std::iter::repeat_n(
            '0',
            usize::try_from(point - sig_len).ok()?,
        ));
    } else {
        let p = usize::try_from(point).ok()?;
        out.push_str(&sig[..p]);
        out.push('.');
        out.push_str(&sig[p..]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_take_one_form() {
        for (text, want) in [
            ("7", "7"),
            ("-0.50", "-0.5"),
            (".15", "0.15"),
            ("+001.2300", "1.23"),
            ("1E3", "1000"),
            ("1.5e-3", "0.0015"),
            ("-0", "0"),
            ("0.000", "0"),
            ("12345678901234567890123", "12345678901234567890123"),
        ] {
            assert_eq!(canonical_number(text).as_deref(), Some(want), "{text}");
        }
        for bad in ["", ".", "1.2.3", "abc", "1e", "--1", "1e999"] {
            assert_eq!(canonical_number(bad), None, "{bad}");
        }
    }

    #[test]
    fn canonical_texts_are_recognised_as_such() {
        for text in [
            "7",
            "-1.5",
            "0.15",
            "0",
            "12345678901234567890123",
            "-0.001",
        ] {
            assert!(is_canonical_number(text), "{text}");
            assert_eq!(canonical_number(text).as_deref(), Some(text));
        }
        for text in [
            ".15", "-.5", "007", "1.50", "-0", "1e3", "", "1.", "+1", "1.2.3",
        ] {
            assert!(!is_canonical_number(text), "{text}");
        }
    }

    /// The number check in one pass answers as the splitting check it replaced, on every
    /// string of up to four characters over the bytes that matter and on longer shapes.
    #[test]
    fn the_number_check_answers_as_the_split() {
        fn reference(text: &str) -> bool {
            let t = text.strip_prefix('-').unwrap_or(text);
            let (int, frac) = match t.split_once('.') {
                Some((i, f)) => (i, Some(f)),
                None => (t, None),
            };
            let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            if !digits(int) || (int.len() > 1 && int.starts_with('0')) {
                return false;
            }
            match frac {
                Some(f) => digits(f) && !f.ends_with('0'),
                None => !(int == "0" && t.len() != text.len()),
            }
        }
        let alphabet = ["0", "1", "9", ".", "-", "+", "e", " "];
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(longer);
        }
        texts.sort();
        texts.dedup();
        texts.extend(
            [
                "12345678901234567890.0001",
                "-0.000000001",
                "1.20",
                "10",
                "-10.5",
            ]
            .map(String::from),
        );
        for t in &texts {
            assert_eq!(is_canonical_number(t), reference(t), "{t:?}");
        }
    }

    /// The parse by position gives what the general parse gives, for every form it takes and
    /// the near misses it leaves to it.
    #[test]
    fn dates_read_by_position_equal_the_general_parse() {
        fn general(text: &str) -> Option<DateTime> {
            // The general path alone: a form the fixed reader does not take.
            DateTime::parse(&format!(" {text}"))
        }
        let mut texts: Vec<String> = [
            "2026-12-04 10:05:09",
            "2026-12-04 10:05:09.5",
            "2026-12-04 10:05:09.123456789",
            "2026-12-04 10:05:09.1234567890",
            "2026-12-04 10:05:09.",
            "2026-12-04 10:05:09.12a",
            "0000-01-01 00:00:00",
            "9999-12-31 23:59:59",
            "2026-13-04 10:05:09",
            "2026-00-04 10:05:09",
            "2026-12-32 10:05:09",
            "2026-12-00 10:05:09",
            "2026-12-04 24:05:09",
            "2026-12-04 10:60:09",
            "2026-12-04 10:05:60",
            "2026-12-04T10:05:09",
            "2026-12-04 10:05:9",
            "2026-1a-04 10:05:09",
            "2026/12/04 10:05:09",
            "2026-12-04 10:05:09 ",
        ]
        .map(String::from)
        .to_vec();
        for month in 0..14 {
            for day in [0, 1, 28, 31, 32] {
                texts.push(format!("2024-{month:02}-{day:02} 23:59:59.000001"));
            }
        }
        for text in &texts {
            assert_eq!(DateTime::parse(text), general(text), "{text:?}");
        }
        assert!(DateTime::parse_fixed(b"2026-12-04 10:05:09.5").is_some());
        assert!(DateTime::parse_fixed(b"2026-12-04T10:05:09").is_none());
    }

    #[test]
    fn datetimes_parse_the_project_forms() {
        let d = DateTime::parse("2026-12-04 10:05:09.5").unwrap();
        assert_eq!(
            (d.year, d.month, d.day, d.hour, d.minute, d.second),
            (2026, 12, 4, 10, 5, 9)
        );
        assert_eq!(d.nanosecond, 500_000_000);
        assert_eq!(d.timestamp_text(), "2026-12-04 10:05:09.500000000");
        assert_eq!(
            DateTime::parse("2026-02-01").unwrap().date_text(),
            "2026-02-01 00:00:00"
        );
        assert!(DateTime::parse("2026-13-01").is_none());
        assert!(DateTime::parse("2026-01-01 10:00:00.").is_none());
    }

    #[test]
    fn errors_read_as_oracle_prints_them() {
        let e = OraError::new(942, "table or view does not exist");
        assert_eq!(e.to_string(), "ORA-00942: table or view does not exist");
        assert_eq!(OraError::no_data_found().code, 1403);
    }
}
