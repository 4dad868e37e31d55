//! Typing SQL_REDO literals by their column's type ([`to_value`]).

mod number_fit;

/// A literal as written in SQL_REDO, before typing by the column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Literal {
    Null,
    /// Quotes undoubled; ` || `-joined pieces concatenated.
    Str(String),
    HexToRaw(Vec<u8>),
    ToDate(String),
    ToTimestamp(String),
    ToTimestampTz(String),
    ToYmInterval(String),
    ToDsInterval(String),
    /// Decoded text (pieces joined, escapes resolved).
    Unistr(String),
    EmptyClob,
    EmptyBlob,
    /// `Unsupported Type` or `XMLType(:1)`: LogMiner did not write the value.
    Unsupported,
    /// An unquoted token, e.g. a number.
    Bare(String),
}

use crate::charset::Charsets;
use crate::types::{ColumnType, Value};

/// [`to_value_in`] for an AL32UTF8 database with AL16UTF16 national text (Oracle's defaults).
pub fn to_value(lit: &Literal, ty: &ColumnType) -> Result<Value, String> {
    to_value_in(lit, ty, Charsets::default())
}

/// [`into_value_in`] for an AL32UTF8 database with AL16UTF16 national text.
pub fn into_value(lit: Literal, ty: &ColumnType) -> Result<Value, String> {
    into_value_in(lit, ty, Charsets::default())
}

/// Type a literal for a column, giving the canonical texts of [`Value`]: numbers as Oracle
/// prints them (`.15`, `-.5`), DATE `YYYY-MM-DD HH24:MI:SS`, timestamps with nine fraction
/// digits, zones as `±HH:MM`. HEXTORAW (all LogMiner writes without a dictionary) is decoded
/// from Oracle's storage formats: NUMBER, binary floats, DATE, TIMESTAMP, RAW, and text in the
/// database's character set (`charsets.database`; national text in `charsets.national`):
/// bytes that are not text of that set are an error, never a replacement character. Quoted and
/// UNISTR text is already characters (the driver converted SQL_REDO). `Unsupported Type`
/// carries no value, so it is an error here: callers that can do without the value check for
/// [`Literal::Unsupported`] first.
pub fn to_value_in(lit: &Literal, ty: &ColumnType, charsets: Charsets) -> Result<Value, String> {
    use ColumnType as T;
    use Literal as L;
    Ok(match (ty, lit) {
        (_, L::Null) => Value::Null,
        (T::Other { name }, _) => return Err(format!("type {name} has no record mapping")),
        (_, L::Unsupported) => return Err("LogMiner wrote `Unsupported Type` for the value".into()),
        (T::Number { .. } | T::Float { .. }, L::Str(s) | L::Bare(s)) => {
            Value::Number(fitting(number_text(s)?, ty)?.into())
        }
        (T::Number { .. } | T::Float { .. }, L::HexToRaw(b)) => {
            Value::Number(fitting(stored_number(b)?, ty)?.into())
        }
        (T::BinaryFloat, L::Str(s) | L::Bare(s)) => Value::BinaryFloat(float(s)?),
        (T::BinaryDouble, L::Str(s) | L::Bare(s)) => Value::BinaryDouble(float(s)?),
        (T::BinaryFloat, L::HexToRaw(b)) => {
            Value::BinaryFloat(f32::from_bits(stored_float_bits(b, 4)? as u32))
        }
        (T::BinaryDouble, L::HexToRaw(b)) => {
            Value::BinaryDouble(f64::from_bits(stored_float_bits(b, 8)?))
        }
        (T::Date, L::ToDate(s) | L::Str(s)) => Value::Date(date_text(s)?.into()),
        (T::Date, L::HexToRaw(b)) => Value::Date(stored_date(b)?.into()),
        (T::Timestamp { .. }, L::ToTimestamp(s) | L::ToDate(s) | L::Str(s)) => {
            Value::Timestamp(timestamp_text(s)?.into())
        }
        (T::Timestamp { .. }, L::HexToRaw(b)) => Value::Timestamp(stored_timestamp(b)?.into()),
        (T::TimestampTz { .. } | T::TimestampLtz { .. }, L::ToTimestampTz(s) | L::Str(s)) => {
            Value::TimestampTz(tz_text(s)?.into())
        }
        (T::TimestampTz { .. }, L::HexToRaw(b)) => {
            Value::TimestampTz(stored_timestamp_tz(b)?.into())
        }
        // LTZ shown in the session time zone, which the LogMiner session sets to 00:00.
        (T::TimestampLtz { .. }, L::ToTimestamp(s)) => {
            Value::TimestampTz(format!("{} +00:00", timestamp_text(s)?).into())
        }
        (T::IntervalYm { .. }, L::ToYmInterval(s) | L::Str(s)) => {
            Value::IntervalYm(interval(s, false)?.into())
        }
        (T::IntervalDs { .. }, L::ToDsInterval(s) | L::Str(s)) => {
            Value::IntervalDs(interval(s, true)?.into())
        }
        (T::IntervalYm { .. }, L::HexToRaw(b)) => Value::IntervalYm(stored_interval_ym(b)?.into()),
        (T::IntervalDs { .. }, L::HexToRaw(b)) => Value::IntervalDs(stored_interval_ds(b)?.into()),
        (T::Raw { .. } | T::LongRaw | T::Blob, L::HexToRaw(b)) => Value::Bytes(b.clone()),
        (T::Blob, L::EmptyBlob) => Value::Bytes(Vec::new()),
        (T::Clob | T::Nclob, L::EmptyClob) => Value::Text(Default::default()),
        (T::Json, L::Str(s) | L::Unistr(s)) => Value::Json(s.as_str().into()),
        // `/* JSON */ HEXTORAW('ff4a5a…')`: the binary OSON image (see `crate::oson`).
        (T::Json, L::HexToRaw(b)) => Value::Json(crate::oson::decode(b)?.into()),
        // `/* JSON */ EMPTY_BLOB()` in an INSERT: the document follows in later rows of the
        // statement; the decoder fills it in (or reports that it never came).
        (T::Json, L::EmptyClob | L::EmptyBlob) => Value::Json(Default::default()),
        (T::Boolean, L::Str(s) | L::Bare(s)) => Value::Boolean(boolean(s)?),
        (T::Vector { .. }, L::Str(s)) => Value::Vector(vector(s)?),
        (t, L::Str(s) | L::Unistr(s)) if is_text(t) => Value::Text(s.as_str().into()),
        (t, L::HexToRaw(b)) if is_text(t) => Value::Text(stored_text(b, t, charsets)?.into()),
        (t, l) => {
            return Err(format!(
                "{} cannot be a {} value",
                describe(l),
                t.sql_name()
            ))
        }
    })
}

/// [`to_value_in`] taking the literal: where the literal's text already is the value's
/// canonical text (most numbers, dates and every string), it moves into the value instead of
/// being copied (the stream path types every column of every row).
pub fn into_value_in(lit: Literal, ty: &ColumnType, charsets: Charsets) -> Result<Value, String> {
    use ColumnType as T;
    use Literal as L;
    Ok(match (ty, lit) {
        (T::Number { .. } | T::Float { .. }, L::Str(s) | L::Bare(s))
            if crate::types::is_oracle_number_text(&s) =>
        {
            Value::Number(fitting(s, ty)?.into())
        }
        (T::Date, L::ToDate(s) | L::Str(s)) if shape(&s, "dddd-dd-dd dd:dd:dd") => {
            Value::Date(s.into())
        }
        (T::Raw { .. } | T::LongRaw | T::Blob, L::HexToRaw(b)) => Value::Bytes(b),
        (T::Json, L::Str(s) | L::Unistr(s)) => Value::Json(s.into()),
        (t, L::Str(s) | L::Unistr(s)) if is_text(t) => Value::Text(s.into()),
        (ty, lit) => return to_value_in(&lit, ty, charsets),
    })
}

/// `text` when it can be a value of its column (see [`number_fit`]).
fn fitting(text: String, ty: &ColumnType) -> Result<String, String> {
    number_fit::check(&text, ty)?;
    Ok(text)
}

fn is_text(ty: &ColumnType) -> bool {
    use ColumnType as T;
    matches!(
        ty,
        T::Varchar2 { .. }
            | T::Nvarchar2 { .. }
            | T::Char { .. }
            | T::Nchar { .. }
            | T::Long
            | T::Clob
            | T::Nclob
            | T::Rowid
            | T::Urowid
            | T::Xmltype
    )
}

fn describe(lit: &Literal) -> &'static str {
    match lit {
        Literal::Null => "NULL",
        Literal::Str(_) => "a quoted string",
        Literal::HexToRaw(_) => "HEXTORAW(…)",
        Literal::ToDate(_) => "TO_DATE(…)",
        Literal::ToTimestamp(_) => "TO_TIMESTAMP(…)",
        Literal::ToTimestampTz(_) => "TO_TIMESTAMP_TZ(…)",
        Literal::ToYmInterval(_) => "TO_YMINTERVAL(…)",
        Literal::ToDsInterval(_) => "TO_DSINTERVAL(…)",
        Literal::Unistr(_) => "UNISTR(…)",
        Literal::EmptyClob => "EMPTY_CLOB()",
        Literal::EmptyBlob => "EMPTY_BLOB()",
        Literal::Unsupported => "Unsupported Type",
        Literal::Bare(_) => "an unquoted token",
    }
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `t` matches `pattern`, where `d` stands for any digit.
fn shape(t: &str, pattern: &str) -> bool {
    t.len() == pattern.len()
        && t.bytes().zip(pattern.bytes()).all(|(c, p)| {
            if p == b'd' {
                c.is_ascii_digit()
            } else {
                c == p
            }
        })
}

/// Oracle's NUMBER text: no `+`, no leading zeros (`.15`, `-.5`), no trailing fraction zeros;
/// exponent forms (`1E+40`) kept, upper case, as Oracle prints numbers over 40 digits.
fn number_text(s: &str) -> Result<String, String> {
    let t = s.trim();
    let bad = || format!("`{s}` is not a number");
    let body = t.strip_prefix(['-', '+']).unwrap_or(t);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits_or_empty = |x: &str| x.bytes().all(|b| b.is_ascii_digit());
    if !digits_or_empty(int) || !digits_or_empty(frac) || (int.is_empty() && frac.is_empty()) {
        return Err(bad());
    }
    if let Some(e) = exponent {
        if !all_digits(e.strip_prefix(['+', '-']).unwrap_or(e)) {
            return Err(bad());
        }
    }
    // Validated: the shared normalisation does the rest.
    Ok(crate::types::oracle_number_text(t))
}

/// Oracle's NUMBER storage: an exponent byte, then base-100 digits (d + 1 for positives,
/// 101 − d for negatives, which end with a 102 byte).
pub fn stored_number(b: &[u8]) -> Result<String, String> {
    let bad = || "HEXTORAW is not an Oracle NUMBER".to_string();
    let (&e, rest) = b.split_first().ok_or_else(bad)?;
    if e == 0x80 {
        return if rest.is_empty() {
            Ok("0".into())
        } else {
            Err(bad())
        };
    }
    let neg = e < 0x80;
    let (exp, rest) = match neg {
        true => (
            0x3E - i32::from(e),
            rest.strip_suffix(&[102]).unwrap_or(rest),
        ),
        false => (i32::from(e) - 0xC1, rest),
    };
    if rest.is_empty() || rest.len() > 21 {
        return Err(bad());
    }
    let mut digits = String::with_capacity(2 * rest.len());
    for &x in rest {
        let d = if neg {
            101 - i32::from(x)
        } else {
            i32::from(x) - 1
        };
        if !(0..=99).contains(&d) {
            return Err(bad());
        }
        digits.push(char::from(b'0' + (d / 10) as u8));
        digits.push(char::from(b'0' + (d % 10) as u8));
    }
    // The value is 0.<digits> × 100^(exp + 1): the point goes after 2 × (exp + 1) digits.
    let point = 2 * (exp + 1);
    let sign = if neg { "-" } else { "" };
    let text = if point <= 0 {
        format!(
            "{sign}.{}{digits}",
            "0".repeat(point.unsigned_abs() as usize)
        )
    } else if point as usize >= digits.len() {
        format!(
            "{sign}{digits}{}",
            "0".repeat(point as usize - digits.len())
        )
    } else {
        format!(
            "{sign}{}.{}",
            &digits[..point as usize],
            &digits[point as usize..]
        )
    };
    number_text(&text)
}

fn float<F: std::str::FromStr>(s: &str) -> Result<F, String> {
    // Rust reads Oracle's `2.5E+000`, `Nan`, `Inf` and `-Inf` as they are.
    s.trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a binary float"))
}

/// Undo Oracle's binary float storage: big-endian IEEE 754 with the sign bit set for positives
/// and every bit inverted for negatives (so the bytes sort as the numbers do).
pub fn stored_float_bits(b: &[u8], n: usize) -> Result<u64, String> {
    if b.len() != n {
        return Err(format!(
            "a {n}-byte binary float was expected, not {} bytes",
            b.len()
        ));
    }
    let v = b.iter().fold(0u64, |a, &x| (a << 8) | u64::from(x));
    let sign = 1u64 << (8 * n - 1);
    let mask = u64::MAX >> (64 - 8 * n);
    Ok(if v & sign != 0 { v & !sign } else { !v & mask })
}

/// `YYYY-MM-DD HH24:MI:SS`; a date alone gets midnight.
fn date_text(s: &str) -> Result<String, String> {
    let t = s.trim();
    if shape(t, "dddd-dd-dd dd:dd:dd") {
        Ok(t.to_string())
    } else if shape(t, "dddd-dd-dd") {
        Ok(format!("{t} 00:00:00"))
    } else if let Some(e) = default_nls(t, Nls::Date) {
        Err(e)
    } else {
        Err(format!("`{s}` is not a date as YYYY-MM-DD HH24:MI:SS"))
    }
}

/// The three datetime formats of a LogMiner session.
#[derive(Clone, Copy)]
enum Nls {
    Date,
    Timestamp,
    TimestampTz,
}

/// Why a datetime text in Oracle's default NLS format (`15-MAY-21`, `15-MAY-21 01.02.03.123456
/// PM`, the same with a zone) cannot be read, or `None` for any other text. The defaults
/// (NLS_TERRITORY AMERICA: NLS_DATE_FORMAT `DD-MON-RR`, NLS_TIMESTAMP_FORMAT `DD-MON-RR
/// HH.MI.SSXFF AM`, NLS_TIMESTAMP_TZ_FORMAT `DD-MON-RR HH.MI.SSXFF AM TZR`; Database
/// Globalization Support Guide, "Datetime Formats") leave out the century (`RR` is two
/// digits), and the DATE one the time of day too: LogMiner writes SQL_REDO's values in its
/// session's formats, so a session that did not set them (a replay export taken from one) has
/// lost what no reading can restore. Debezium sets the same formats on its mining session.
fn default_nls(t: &str, kind: Nls) -> Option<String> {
    let b = t.as_bytes();
    let date = b.len() >= 9
        && b[..2].iter().all(u8::is_ascii_digit)
        && b[2] == b'-'
        && b[3..6].iter().all(u8::is_ascii_alphabetic)
        && b[6] == b'-'
        && b[7..9].iter().all(u8::is_ascii_digit)
        && (b.len() == 9 || b[9] == b' ');
    if !date {
        return None;
    }
    let (parameter, format, lost, fix) = match kind {
        Nls::Date => (
            "NLS_DATE_FORMAT",
            "DD-MON-RR",
            "the century and the time of day",
            "YYYY-MM-DD HH24:MI:SS",
        ),
        Nls::Timestamp => (
            "NLS_TIMESTAMP_FORMAT",
            "DD-MON-RR HH.MI.SSXFF AM",
            "the century",
            "YYYY-MM-DD HH24:MI:SS.FF9",
        ),
        Nls::TimestampTz => (
            "NLS_TIMESTAMP_TZ_FORMAT",
            "DD-MON-RR HH.MI.SSXFF AM TZR",
            "the century",
            "YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM",
        ),
    };
    Some(format!(
        "`{t}` is in Oracle's default {parameter} ({format}), which leaves out {lost}: LogMiner writes SQL_REDO in its session's formats, so mine in a session that ran ALTER SESSION SET {parameter}='{fix}' (capture's own LogMiner session does; a replay export must come from such a session)"
    ))
}

/// `YYYY-MM-DD HH24:MI:SS.FF9`: the fraction padded to nine digits.
fn timestamp_text(s: &str) -> Result<String, String> {
    let t = s.trim();
    if let Some(e) = default_nls(t, Nls::Timestamp) {
        return Err(e);
    }
    let (date_time, frac) = t.split_once('.').unwrap_or((t, ""));
    if frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("`{s}` has no valid fraction of a second"));
    }
    Ok(format!("{}.{frac:0<9}", date_text(date_time)?))
}

/// `YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM`.
fn tz_text(s: &str) -> Result<String, String> {
    if let Some(e) = default_nls(s.trim(), Nls::TimestampTz) {
        return Err(e);
    }
    let bad = || format!("`{s}` is not a timestamp with a ±HH:MM zone");
    let (local, zone) = s.trim().rsplit_once(' ').ok_or_else(bad)?;
    let hm = zone.strip_prefix(['+', '-']).ok_or_else(bad)?;
    let hm = match (shape(hm, "dd:dd"), shape(hm, "d:dd")) {
        (true, _) => hm.to_string(),
        (_, true) => format!("0{hm}"),
        _ => return Err(bad()),
    };
    Ok(format!("{} {}{hm}", timestamp_text(local)?, &zone[..1]))
}

/// Interval text as Oracle prints it (`-03-06`, `+001 02:03:04.560000`); a missing sign is `+`.
fn interval(s: &str, day_to_second: bool) -> Result<String, String> {
    let t = s.trim();
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    let ok = match (
        day_to_second,
        body.split_once(if day_to_second { ' ' } else { '-' }),
    ) {
        (true, Some((days, time))) => {
            let (hms, frac) = time.split_once('.').unwrap_or((time, "0"));
            all_digits(days) && shape(hms, "dd:dd:dd") && all_digits(frac)
        }
        (false, Some((years, months))) => {
            all_digits(years) && all_digits(months) && months.len() <= 2
        }
        (_, None) => false,
    };
    match (ok, body.len() == t.len()) {
        (false, _) => Err(format!("`{s}` is not an interval")),
        (true, true) => Ok(format!("+{t}")),
        (true, false) => Ok(t.to_string()),
    }
}

/// DATE storage: century + 100, year + 100, month, day, hour + 1, minute + 1, second + 1.
fn stored_date(b: &[u8]) -> Result<String, String> {
    match b {
        [c @ 100..=255, y @ 100..=255, mo, d, h @ 1..=255, mi @ 1..=255, s @ 1..=255] => {
            Ok(format!(
                "{:02}{:02}-{mo:02}-{d:02} {:02}:{:02}:{:02}",
                c - 100,
                y - 100,
                h - 1,
                mi - 1,
                s - 1
            ))
        }
        _ => Err("HEXTORAW is not an Oracle DATE (AD, 7 bytes)".into()),
    }
}

/// TIMESTAMP WITH TIME ZONE storage (13 bytes): the date and time in UTC as DATE bytes, the
/// nanoseconds as a big-endian u32, then the zone: hours + 20 and minutes + 60, or, with the
/// high bit of the first zone byte set, a time zone region id (OpenLogReplicator's
/// `Builder::processValue`, TIMESTAMP_WITH_TZ; python-oracledb's thin decoder reads the same
/// 13 bytes). Shown, as the LogMiner session's NLS_TIMESTAMP_TZ_FORMAT would, in the value's
/// own offset: `YYYY-MM-DD HH24:MI:SS.FF9 ±HH:MM`.
fn stored_timestamp_tz(b: &[u8]) -> Result<String, String> {
    let [date @ .., n0, n1, n2, n3, zh, zm] = b else {
        return Err("HEXTORAW is not an Oracle TIMESTAMP WITH TIME ZONE (13 bytes)".into());
    };
    if date.len() != 7 {
        return Err("HEXTORAW is not an Oracle TIMESTAMP WITH TIME ZONE (13 bytes)".into());
    }
    if zh & 0x80 != 0 {
        let id = u16::from_be_bytes([*zh & 0x7f, *zm]);
        return Err(format!(
            "the TIMESTAMP WITH TIME ZONE value is in a named time zone region (id {id}), which its storage bytes do not resolve to an offset"
        ));
    }
    let offset = (i32::from(*zh) - 20) * 60 + (i32::from(*zm) - 60);
    if !(-15 * 60..=15 * 60).contains(&offset) {
        return Err(
            "HEXTORAW is not an Oracle TIMESTAMP WITH TIME ZONE (zone out of range)".into(),
        );
    }
    let nanos = u32::from_be_bytes([*n0, *n1, *n2, *n3]);
    let utc = chrono::NaiveDateTime::parse_from_str(&stored_date(date)?, "%Y-%m-%d %H:%M:%S")
        .map_err(|_| "HEXTORAW is not an Oracle TIMESTAMP WITH TIME ZONE (no such date)")?;
    let local = utc + chrono::Duration::minutes(i64::from(offset));
    let sign = if offset < 0 { '-' } else { '+' };
    let abs = offset.unsigned_abs();
    Ok(format!(
        "{}.{nanos:09} {sign}{:02}:{:02}",
        local.format("%Y-%m-%d %H:%M:%S"),
        abs / 60,
        abs % 60
    ))
}

/// A signed field of interval storage: a big-endian u32 offset by 2^31.
fn excess_u32(b: [u8; 4]) -> i64 {
    i64::from(u32::from_be_bytes(b)) - 0x8000_0000
}

/// INTERVAL YEAR TO MONTH storage (5 bytes): years as a big-endian u32 offset by 2^31, then
/// months offset by 60 (OpenLogReplicator's `Builder::processValue`, INTERVAL_YEAR_TO_MONTH).
/// Shown as `±YY-MM`.
fn stored_interval_ym(b: &[u8]) -> Result<String, String> {
    let [y0, y1, y2, y3, m] = b else {
        return Err("HEXTORAW is not an Oracle INTERVAL YEAR TO MONTH (5 bytes)".into());
    };
    let years = excess_u32([*y0, *y1, *y2, *y3]);
    let months = i64::from(*m) - 60;
    if years.abs() > 999_999_999
        || months.abs() > 11
        || (years < 0 && months > 0)
        || (years > 0 && months < 0)
    {
        return Err("HEXTORAW is not an Oracle INTERVAL YEAR TO MONTH".into());
    }
    let sign = if years < 0 || months < 0 { '-' } else { '+' };
    Ok(format!("{sign}{:02}-{:02}", years.abs(), months.abs()))
}

/// INTERVAL DAY TO SECOND storage (11 bytes): days as a big-endian u32 offset by 2^31, hours,
/// minutes and seconds + 60, nanoseconds as a big-endian u32 offset by 2^31, every field
/// carrying the sign (OpenLogReplicator's `Builder::processValue`, INTERVAL_DAY_TO_SECOND).
/// Shown as `±DDD HH:MI:SS.FFFFFFFFF`.
fn stored_interval_ds(b: &[u8]) -> Result<String, String> {
    let [d0, d1, d2, d3, h, mi, s, f0, f1, f2, f3] = b else {
        return Err("HEXTORAW is not an Oracle INTERVAL DAY TO SECOND (11 bytes)".into());
    };
    let days = excess_u32([*d0, *d1, *d2, *d3]);
    let nanos = excess_u32([*f0, *f1, *f2, *f3]);
    let [h, mi, s] = [h, mi, s].map(|x| i64::from(*x) - 60);
    let fields = [days, h, mi, s, nanos];
    let negative = fields.iter().any(|f| *f < 0);
    if (negative && fields.iter().any(|f| *f > 0))
        || days.abs() > 999_999_999
        || h.abs() > 23
        || mi.abs() > 59
        || s.abs() > 59
        || nanos.abs() > 999_999_999
    {
        return Err("HEXTORAW is not an Oracle INTERVAL DAY TO SECOND".into());
    }
    let sign = if negative { '-' } else { '+' };
    Ok(format!(
        "{sign}{:03} {:02}:{:02}:{:02}.{:09}",
        days.abs(),
        h.abs(),
        mi.abs(),
        s.abs(),
        nanos.abs()
    ))
}

/// TIMESTAMP storage: the DATE bytes, then nanoseconds as a big-endian u32 (left out when 0).
fn stored_timestamp(b: &[u8]) -> Result<String, String> {
    let (date, nanos) = b.split_at(b.len().min(7));
    let nanos = match nanos {
        [] => 0,
        [a, b, c, d] => u32::from_be_bytes([*a, *b, *c, *d]),
        _ => return Err("HEXTORAW is not an Oracle TIMESTAMP".into()),
    };
    Ok(format!("{}.{nanos:09}", stored_date(date)?))
}

/// A text column's storage bytes in its character set.
fn stored_text(b: &[u8], ty: &ColumnType, charsets: Charsets) -> Result<String, String> {
    let (set, which) = if ty.is_national() {
        (
            charsets.national,
            "national character set (NLS_NCHAR_CHARACTERSET)",
        )
    } else {
        (
            charsets.database,
            "database character set (NLS_CHARACTERSET)",
        )
    };
    set.decode(b)
        .map_err(|why| format!("HEXTORAW text is not text of the {which}: {why}"))
}

fn boolean(s: &str) -> Result<bool, String> {
    match s.trim() {
        "1" => Ok(true),
        "0" => Ok(false),
        t if t.eq_ignore_ascii_case("true") => Ok(true),
        t if t.eq_ignore_ascii_case("false") => Ok(false),
        _ => Err(format!("`{s}` is not a BOOLEAN")),
    }
}

/// `[1.5,2,3.0E+000]`.
fn vector(s: &str) -> Result<Vec<f32>, String> {
    let t = s.trim();
    let inner = t.strip_prefix('[').and_then(|r| r.strip_suffix(']'));
    let inner = inner.ok_or_else(|| format!("`{s}` is not a VECTOR"))?;
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    inner.split(',').map(float).collect()
}
