//! Pure conversions between Oracle's catalog and wire forms and the project's own types:
//! `ALL_TAB_COLS` → [`ColumnType`], fetched components → the canonical value texts of
//! [`Value`], XIDs, SCN halves, version banners. No database needed to test any of it.

use crate::civil::push_digits;
use crate::types::ColumnType;

/// `ALL_TAB_COLS` (DATA_TYPE, DATA_TYPE_OWNER, DATA_PRECISION, DATA_SCALE, CHAR_LENGTH,
/// DATA_LENGTH) → the column's type. `Err` names a type the project has no mapping for (object
/// types, SDO_GEOMETRY, ANYDATA, collections …).
pub fn column_type(
    data_type: &str,
    data_type_owner: Option<&str>,
    precision: Option<i64>,
    scale: Option<i64>,
    char_length: Option<i64>,
    data_length: Option<i64>,
) -> Result<ColumnType, String> {
    let data_type = data_type.trim();
    // National character lengths: CHAR_LENGTH, their characters (DATA_LENGTH, the bytes, is
    // the fallback).
    let chars = || {
        char_length
            .filter(|n| *n > 0)
            .or(data_length)
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or(0)
    };
    let bytes = || data_length.and_then(|n| u32::try_from(n).ok()).unwrap_or(0);
    // VARCHAR2 and CHAR are sized by DATA_LENGTH, their bytes, whatever the declaration's unit:
    // a `VARCHAR2(1500 CHAR)` of an AL32UTF8 database is 6,000 bytes, an extended string.
    // CHAR_LENGTH below DATA_LENGTH is a character-semantics column (CHAR_USED 'C'; with byte
    // semantics the two are equal): its characters are a limit of their own.
    let sized = || {
        let length = bytes();
        let declared = char_length.and_then(|n| u32::try_from(n).ok());
        let chars = declared.filter(|n| *n > 0 && *n < length);
        match data_length {
            Some(_) => (length, chars),
            None => (declared.unwrap_or(0), None),
        }
    };
    let owner = data_type_owner.map(str::trim).filter(|o| !o.is_empty());
    if let Some(owner) = owner {
        // XMLTYPE is SYS.XMLTYPE (DATA_TYPE_OWNER 'SYS' or 'PUBLIC'); every other owned type is
        // a user-defined or spatial object type.
        if data_type.eq_ignore_ascii_case("XMLTYPE") && matches!(owner, "SYS" | "PUBLIC") {
            return Ok(ColumnType::Xmltype);
        }
        return Err(format!("{owner}.{data_type}"));
    }
    Ok(match data_type {
        "VARCHAR2" | "VARCHAR" => {
            let (length, chars) = sized();
            ColumnType::Varchar2 { length, chars }
        }
        "NVARCHAR2" => ColumnType::Nvarchar2 { length: chars() },
        "CHAR" => {
            let (length, chars) = sized();
            ColumnType::Char { length, chars }
        }
        "NCHAR" => ColumnType::Nchar { length: chars() },
        "NUMBER" => {
            let precision = match precision {
                None => None,
                Some(p) => Some(
                    u8::try_from(p)
                        .ok()
                        .filter(|p| (1..=38).contains(p))
                        .ok_or_else(|| format!("NUMBER precision {p}"))?,
                ),
            };
            let scale = match scale {
                None if precision.is_some() => Some(0),
                None => None,
                Some(s) => Some(i8::try_from(s).map_err(|_| format!("NUMBER scale {s}"))?),
            };
            ColumnType::Number { precision, scale }
        }
        // FLOAT(b): DATA_PRECISION is the binary precision (1..126).
        "FLOAT" => ColumnType::Float {
            precision: precision
                .and_then(|p| u8::try_from(p).ok())
                .unwrap_or(126)
                .min(126),
        },
        "BINARY_FLOAT" => ColumnType::BinaryFloat,
        "BINARY_DOUBLE" => ColumnType::BinaryDouble,
        "DATE" => ColumnType::Date,
        "RAW" => ColumnType::Raw { length: bytes() },
        "LONG" => ColumnType::Long,
        "LONG RAW" => ColumnType::LongRaw,
        "CLOB" => ColumnType::Clob,
        "NCLOB" => ColumnType::Nclob,
        "BLOB" => ColumnType::Blob,
        "BFILE" => ColumnType::Bfile,
        "ROWID" => ColumnType::Rowid,
        "UROWID" => ColumnType::Urowid,
        "XMLTYPE" => ColumnType::Xmltype,
        "BOOLEAN" => ColumnType::Boolean,
        "JSON" => ColumnType::Json,
        // ALL_TAB_COLS has no portable dimension count before 23ai; VECTOR(*) is assumed.
        "VECTOR" => ColumnType::Vector { dimensions: None },
        // DATA_TYPE carries the precisions: `TIMESTAMP(6) WITH TIME ZONE`,
        // `INTERVAL DAY(2) TO SECOND(6)`, `INTERVAL YEAR(2) TO MONTH`.
        t if t.starts_with("TIMESTAMP") || t.starts_with("INTERVAL") => ColumnType::parse(t)?,
        other => return Err(other.to_string()),
    })
}

/// ODPI-C prints a NUMBER as `0.15`, `-0.5`, `7`; the canonical text (the form LogMiner shows
/// in SQL_REDO, see `Value::Number`) has no zero before the point: `.15`, `-.5`.
pub fn canonical_number(odpi_text: &str) -> String {
    crate::types::oracle_number_text(odpi_text)
}

/// The reverse for binding: the `oracle` crate only accepts a digit before the point.
pub fn number_for_bind(text: &str) -> String {
    let t = text.trim();
    if let Some(rest) = t.strip_prefix("-.") {
        format!("-0.{rest}")
    } else if let Some(rest) = t.strip_prefix('.') {
        format!("0.{rest}")
    } else if let Some(rest) = t.strip_prefix('+') {
        rest.to_string()
    } else {
        t.to_string()
    }
}

/// A number's decimal text without an exponent, for drivers that parse only plain decimals
/// (the thin driver's `OracleNumber`): `1.5E+3` → `1500`, `-2E-3` → `-0.002`, `.5` → `0.5`.
/// An exponent beyond ±200 is left as it is (no NUMBER has one; the bind then fails).
pub fn plain_decimal(text: &str) -> String {
    let t = number_for_bind(text);
    let Some(at) = t.find(['e', 'E']) else {
        return t;
    };
    let Ok(exponent) = t[at + 1..].parse::<i32>() else {
        return t;
    };
    if exponent.abs() > 200 {
        return t;
    }
    let mantissa = &t[..at];
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    // Where the point goes in `digits`.
    let point = i32::try_from(int.len()).unwrap_or(0) + exponent;
    let mut out = if point <= 0 {
        format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else if point as usize >= digits.len() {
        format!("{digits}{}", "0".repeat(point as usize - digits.len()))
    } else {
        format!(
            "{}.{}",
            &digits[..point as usize],
            &digits[point as usize..]
        )
    };
    let trimmed = out.trim_start_matches('0');
    out = if trimmed.is_empty() || trimmed.starts_with('.') {
        format!("0{trimmed}")
    } else {
        trimmed.to_string()
    };
    if negative {
        format!("-{out}")
    } else {
        out
    }
}

/// Calendar and clock fields of a fetched DATE or TIMESTAMP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTimeParts {
    pub year: i32,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub nanosecond: u32,
    /// Offset from UTC in minutes (TIMESTAMP WITH [LOCAL] TIME ZONE only).
    pub offset_minutes: i32,
}

fn date_part(p: &DateTimeParts) -> String {
    let mut out = String::with_capacity(36);
    push_date_part(&mut out, p);
    out
}

/// `YYYY-MM-DD HH24:MI:SS` onto `out`. Fields out of their printed width (a year BC, what no
/// DATE holds in the others) go through `format!`, which prints them as before.
fn push_date_part(out: &mut impl std::fmt::Write, p: &DateTimeParts) {
    // Writing to a string cannot fail.
    match date_bytes(p) {
        Some(bytes) => {
            // Only ASCII digits and separators were written.
            let _ = out.write_str(std::str::from_utf8(&bytes).unwrap_or_default());
        }
        None => {
            let _ = write!(
                out,
                "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
                p.year, p.month, p.day, p.hour, p.minute, p.second
            );
        }
    }
}

/// `YYYY-MM-DD HH24:MI:SS` in 19 bytes, each digit stored at its place; `None` for a field out
/// of its printed width. A fetched DATE is formatted once per row of every snapshot over a
/// driver: pushed a piece at a time through `fmt::Write` it took more instructions than the
/// driver's whole decoding of the value (825 a date, against about 170 now with the inline
/// text made from these bytes).
fn date_bytes(p: &DateTimeParts) -> Option<[u8; 19]> {
    let year = u32::try_from(p.year).ok().filter(|y| *y <= 9999)?;
    let two = [p.month, p.day, p.hour, p.minute, p.second];
    if two.iter().any(|&v| v > 99) {
        return None;
    }
    let mut b = *b"0000-00-00 00:00:00";
    b[0] += (year / 1000) as u8;
    b[1] += (year / 100 % 10) as u8;
    b[2] += (year / 10 % 10) as u8;
    b[3] += (year % 10) as u8;
    for (at, v) in [5, 8, 11, 14, 17].into_iter().zip(two) {
        b[at] += (v / 10) as u8;
        b[at + 1] += (v % 10) as u8;
    }
    Some(b)
}

/// [`format_date`] as the inline text a value holds (its 19 characters need no allocation).
pub fn format_date_str(p: &DateTimeParts) -> crate::types::Str {
    match date_bytes(p) {
        Some(bytes) => crate::types::Str::from(std::str::from_utf8(&bytes).unwrap_or_default()),
        None => date_part(p).into(),
    }
}

/// DATE: `YYYY-MM-DD HH24:MI:SS`.
pub fn format_date(p: &DateTimeParts) -> String {
    date_part(p)
}

/// TIMESTAMP: `YYYY-MM-DD HH24:MI:SS.FF9` (always nine fraction digits, as FF9 prints).
pub fn format_timestamp(p: &DateTimeParts) -> String {
    let mut out = date_part(p);
    if p.nanosecond < 1_000_000_000 {
        out.push('.');
        push_digits(&mut out, u64::from(p.nanosecond), 9);
    } else {
        out.push_str(&format!(".{:09}", p.nanosecond));
    }
    out
}

/// TIMESTAMP WITH TIME ZONE: `YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM`, e.g. `… +01:00`, `… -03:30`.
pub fn format_timestamp_tz(p: &DateTimeParts) -> String {
    let sign = if p.offset_minutes < 0 { '-' } else { '+' };
    let abs = p.offset_minutes.unsigned_abs();
    format!(
        "{} {sign}{:02}:{:02}",
        format_timestamp(p),
        abs / 60,
        abs % 60
    )
}

/// The reverse of [`format_timestamp_tz`], for the `TO_CHAR(…, 'YYYY-MM-DD HH24:MI:SS.FF9
/// TZH:TZM')` text flashback reads select (`sql::SelectItem::TimestampTz`): the offset may be
/// negative under an hour (`-00:30`); up to nine fraction digits.
pub fn parse_timestamp_tz(text: &str) -> Result<DateTimeParts, String> {
    let t = text.trim();
    let bad = || {
        format!(
            "`{}` is not a YYYY-MM-DD HH24:MI:SS.FF TZH:TZM timestamp",
            abbreviate(t)
        )
    };
    let number = |s: &str| -> Result<u32, String> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        s.parse::<u32>().map_err(|_| bad())
    };
    let mut fields = t.split(' ');
    let (Some(date), Some(time), Some(offset), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err(bad());
    };
    let date: Vec<&str> = date.split('-').collect();
    let time: Vec<&str> = time.split(':').collect();
    let ([year, month, day], [hour, minute, second]) = (date.as_slice(), time.as_slice()) else {
        return Err(bad());
    };
    let (second, fraction) = second.split_once('.').unwrap_or((second, ""));
    if fraction.len() > 9 {
        return Err(bad());
    }
    let nanosecond = if fraction.is_empty() {
        0
    } else {
        number(fraction)? * 10u32.pow(9 - fraction.len() as u32)
    };
    let (sign, offset) = match offset.split_at_checked(1) {
        Some(("+", rest)) => (1, rest),
        Some(("-", rest)) => (-1, rest),
        _ => return Err(bad()),
    };
    let (tzh, tzm) = offset.split_once(':').ok_or_else(bad)?;
    let (tzh, tzm) = (number(tzh)?, number(tzm)?);
    let p = DateTimeParts {
        year: i32::try_from(number(year)?).map_err(|_| bad())?,
        month: number(month)?,
        day: number(day)?,
        hour: number(hour)?,
        minute: number(minute)?,
        second: number(second)?,
        nanosecond,
        offset_minutes: sign * i32::try_from(tzh * 60 + tzm).map_err(|_| bad())?,
    };
    let valid = (1..=12).contains(&p.month)
        && (1..=31).contains(&p.day)
        && p.hour < 24
        && p.minute < 60
        && p.second < 60
        && tzh < 24
        && tzm < 60;
    if valid {
        Ok(p)
    } else {
        Err(bad())
    }
}

/// INTERVAL YEAR TO MONTH: `+YY-MM` (years at least two digits), e.g. `-03-06`.
pub fn format_interval_ym(years: i32, months: i32) -> String {
    let sign = if years < 0 || months < 0 { '-' } else { '+' };
    format!(
        "{sign}{:02}-{:02}",
        years.unsigned_abs(),
        months.unsigned_abs()
    )
}

/// INTERVAL DAY TO SECOND: `+DDD HH:MI:SS.FF…` with days at least three digits and as many
/// fraction digits as the column's fractional seconds precision (at least one), the form the
/// emulator and SQL_REDO's `TO_DSINTERVAL('+001 02:03:04.560000')` use for DAY(3) TO SECOND(6).
pub fn format_interval_ds(
    days: i32,
    hours: i32,
    minutes: i32,
    seconds: i32,
    nanos: i32,
    fsp: u8,
) -> String {
    let negative = days < 0 || hours < 0 || minutes < 0 || seconds < 0 || nanos < 0;
    let sign = if negative { '-' } else { '+' };
    let digits = usize::from(fsp.clamp(1, 9));
    let fraction = format!("{:09}", nanos.unsigned_abs());
    format!(
        "{sign}{:03} {:02}:{:02}:{:02}.{}",
        days.unsigned_abs(),
        hours.unsigned_abs(),
        minutes.unsigned_abs(),
        seconds.unsigned_abs(),
        &fraction[..digits]
    )
}

/// The 16-hex-digit XID LogMiner shows: undo segment (2 bytes), slot (2), sequence (4), each
/// little-endian (oracle-facts §6), e.g. (2, 10, 823) → `02000a0037030000`.
pub fn xid_hex(usn: u32, slot: u32, sqn: u32) -> String {
    let mut bytes = Vec::with_capacity(8);
    bytes.extend_from_slice(&(usn as u16).to_le_bytes());
    bytes.extend_from_slice(&(slot as u16).to_le_bytes());
    bytes.extend_from_slice(&sqn.to_le_bytes());
    crate::types::hex(&bytes)
}

/// An SCN from V$TRANSACTION's wrap and base halves: wrap * 2^32 + base.
pub fn scn_from_parts(wrap: u64, base: u64) -> u64 {
    (wrap << 32) + base
}

/// The edition in a PRODUCT_COMPONENT_VERSION product name:
/// `Oracle Database 19c Enterprise Edition ` → `Enterprise Edition`, `Oracle Database 23ai Free`
/// → `Free`.
pub fn edition_from_product(product: &str) -> String {
    let rest = product.trim();
    // 26ai renamed the product: `Oracle AI Database 26ai Enterprise Edition `.
    let rest = ["Oracle AI Database", "Oracle Database"]
        .iter()
        .find_map(|p| rest.strip_prefix(p))
        .unwrap_or(rest)
        .trim_start();
    // Skip the release label (`19c`, `23ai`, `12c`) when there is one.
    let rest = match rest.split_once(' ') {
        Some((first, tail)) if first.starts_with(|c: char| c.is_ascii_digit()) => tail,
        None if rest.starts_with(|c: char| c.is_ascii_digit()) => "",
        _ => rest,
    };
    // Older banners continue with `Release 12.1.0.2.0 - 64bit Production`.
    let rest = rest.split(" Release ").next().unwrap_or(rest);
    rest.trim().to_string()
}

/// VECTOR_SERIALIZE text (`[1.0E+000,2.5E+000]`) → the dense vector. Sparse vectors
/// (`[5,[2,4],[1.0,2.0]]`) have no mapping.
pub fn parse_vector(text: &str) -> Result<Vec<f32>, String> {
    let t = text.trim();
    let inner = t
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(|| format!("`{}` is not a serialised vector", abbreviate(t)))?;
    if inner.contains('[') {
        return Err("sparse VECTOR values are not supported".into());
    }
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    inner
        .split(',')
        .map(|n| {
            n.trim()
                .parse::<f32>()
                .map_err(|_| format!("`{}` is not a vector element", n.trim()))
        })
        .collect()
}

fn abbreviate(s: &str) -> String {
    s.chars().take(40).collect()
}

/// A BOOLEAN fetched by a client that does not know the type arrives as a number or text.
pub fn parse_boolean(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_uppercase().as_str() {
        "1" | "TRUE" | "T" | "Y" | "YES" => Ok(true),
        "0" | "FALSE" | "F" | "N" | "NO" => Ok(false),
        other => Err(format!("`{other}` is not a BOOLEAN value")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ct(
        t: &str,
        p: Option<i64>,
        s: Option<i64>,
        c: Option<i64>,
        d: Option<i64>,
    ) -> Result<ColumnType, String> {
        column_type(t, None, p, s, c, d)
    }

    /// VARCHAR2 and CHAR by their bytes (DATA_LENGTH), with the characters of a
    /// character-semantics column (CHAR_LENGTH below DATA_LENGTH) beside them; national types
    /// by their characters.
    #[test]
    fn maps_character_types_by_their_bytes() {
        assert_eq!(
            ct("VARCHAR2", None, None, Some(40), Some(160)),
            Ok(ColumnType::Varchar2 {
                length: 160,
                chars: Some(40)
            })
        );
        assert_eq!(
            ct("VARCHAR2", None, None, Some(40), Some(40)),
            Ok(ColumnType::varchar2(40))
        );
        // VARCHAR2(1500 CHAR) with MAX_STRING_SIZE=EXTENDED: an extended string by its bytes.
        let ext = ct("VARCHAR2", None, None, Some(1500), Some(6000)).unwrap();
        assert!(ext.is_extended(), "{ext:?}");
        assert_eq!(ext.declared_length(), Some(1500));
        // The same declaration in a STANDARD database: capped at 4,000 bytes, not extended.
        assert!(!ct("VARCHAR2", None, None, Some(1500), Some(4000))
            .unwrap()
            .is_extended());
        assert_eq!(
            ct("CHAR", None, None, Some(10), Some(40)),
            Ok(ColumnType::Char {
                length: 40,
                chars: Some(10)
            })
        );
        assert_eq!(
            ct("NVARCHAR2", None, None, Some(20), Some(40)),
            Ok(ColumnType::Nvarchar2 { length: 20 })
        );
        assert_eq!(
            ct("CHAR", None, None, Some(3), Some(3)),
            Ok(ColumnType::char(3))
        );
        assert_eq!(
            ct("NCHAR", None, None, None, Some(2)),
            Ok(ColumnType::Nchar { length: 2 })
        );
        assert_eq!(
            ct("RAW", None, None, Some(0), Some(16)),
            Ok(ColumnType::Raw { length: 16 })
        );
    }

    #[test]
    fn maps_numbers() {
        assert_eq!(
            ct("NUMBER", None, None, Some(0), Some(22)),
            Ok(ColumnType::Number {
                precision: None,
                scale: None
            })
        );
        assert_eq!(
            ct("NUMBER", Some(10), Some(2), None, Some(22)),
            Ok(ColumnType::Number {
                precision: Some(10),
                scale: Some(2)
            })
        );
        assert_eq!(
            ct("NUMBER", Some(10), None, None, Some(22)),
            Ok(ColumnType::Number {
                precision: Some(10),
                scale: Some(0)
            })
        );
        // INTEGER: DATA_PRECISION NULL, DATA_SCALE 0.
        assert_eq!(
            ct("NUMBER", None, Some(0), None, Some(22)),
            Ok(ColumnType::Number {
                precision: None,
                scale: Some(0)
            })
        );
        assert_eq!(
            ct("NUMBER", Some(5), Some(-2), None, Some(22)),
            Ok(ColumnType::Number {
                precision: Some(5),
                scale: Some(-2)
            })
        );
        assert_eq!(
            ct("FLOAT", Some(63), None, None, Some(22)),
            Ok(ColumnType::Float { precision: 63 })
        );
        assert_eq!(
            ct("FLOAT", None, None, None, Some(22)),
            Ok(ColumnType::Float { precision: 126 })
        );
        assert_eq!(
            ct("BINARY_FLOAT", None, None, None, Some(4)),
            Ok(ColumnType::BinaryFloat)
        );
        assert_eq!(
            ct("BINARY_DOUBLE", None, None, None, Some(8)),
            Ok(ColumnType::BinaryDouble)
        );
        assert!(ct("NUMBER", Some(99), None, None, None).is_err());
    }

    #[test]
    fn maps_datetime_types_from_their_data_type_text() {
        assert_eq!(ct("DATE", None, None, None, Some(7)), Ok(ColumnType::Date));
        assert_eq!(
            ct("TIMESTAMP(6)", None, Some(6), None, Some(11)),
            Ok(ColumnType::Timestamp { fsp: 6 })
        );
        assert_eq!(
            ct("TIMESTAMP(9) WITH TIME ZONE", None, Some(9), None, Some(13)),
            Ok(ColumnType::TimestampTz { fsp: 9 })
        );
        assert_eq!(
            ct(
                "TIMESTAMP(3) WITH LOCAL TIME ZONE",
                None,
                Some(3),
                None,
                Some(11)
            ),
            Ok(ColumnType::TimestampLtz { fsp: 3 })
        );
        assert_eq!(
            ct("INTERVAL YEAR(2) TO MONTH", Some(2), Some(0), None, Some(5)),
            Ok(ColumnType::IntervalYm { precision: 2 })
        );
        assert_eq!(
            ct(
                "INTERVAL DAY(3) TO SECOND(6)",
                Some(3),
                Some(6),
                None,
                Some(11)
            ),
            Ok(ColumnType::IntervalDs {
                precision: 3,
                fsp: 6
            })
        );
    }

    #[test]
    fn maps_lobs_and_newer_types() {
        for (t, want) in [
            ("LONG", ColumnType::Long),
            ("LONG RAW", ColumnType::LongRaw),
            ("CLOB", ColumnType::Clob),
            ("NCLOB", ColumnType::Nclob),
            ("BLOB", ColumnType::Blob),
            ("BFILE", ColumnType::Bfile),
            ("ROWID", ColumnType::Rowid),
            ("UROWID", ColumnType::Urowid),
            ("BOOLEAN", ColumnType::Boolean),
            ("JSON", ColumnType::Json),
            ("VECTOR", ColumnType::Vector { dimensions: None }),
        ] {
            assert_eq!(ct(t, None, None, None, None), Ok(want), "{t}");
        }
        assert_eq!(
            column_type("XMLTYPE", Some("SYS"), None, None, None, Some(2000)),
            Ok(ColumnType::Xmltype)
        );
        assert_eq!(
            column_type("SDO_GEOMETRY", Some("MDSYS"), None, None, None, Some(1)),
            Err("MDSYS.SDO_GEOMETRY".into())
        );
        assert_eq!(
            column_type("ADDRESS_T", Some("HR"), None, None, None, Some(1)),
            Err("HR.ADDRESS_T".into())
        );
        assert!(ct("UNDEFINED", None, None, None, None).is_err());
    }

    #[test]
    fn numbers_drop_and_regain_the_leading_zero() {
        assert_eq!(canonical_number("0.15"), ".15");
        assert_eq!(canonical_number("-0.5"), "-.5");
        assert_eq!(canonical_number("0"), "0");
        assert_eq!(canonical_number("-1.5"), "-1.5");
        assert_eq!(canonical_number("10.05"), "10.05");
        assert_eq!(number_for_bind(".15"), "0.15");
        assert_eq!(number_for_bind("-.5"), "-0.5");
        assert_eq!(number_for_bind("7"), "7");
        assert_eq!(number_for_bind("+7"), "7");
    }

    fn parts(nanosecond: u32, offset_minutes: i32) -> DateTimeParts {
        DateTimeParts {
            year: 2020,
            month: 2,
            day: 1,
            hour: 3,
            minute: 4,
            second: 5,
            nanosecond,
            offset_minutes,
        }
    }

    #[test]
    fn formats_datetimes_canonically() {
        assert_eq!(format_date(&parts(0, 0)), "2020-02-01 03:04:05");
        assert_eq!(
            format_timestamp(&parts(123_456_789, 0)),
            "2020-02-01 03:04:05.123456789"
        );
        assert_eq!(
            format_timestamp(&parts(5_000, 0)),
            "2020-02-01 03:04:05.000005000"
        );
        assert_eq!(
            format_timestamp_tz(&parts(202_590_000, 60)),
            "2020-02-01 03:04:05.202590000 +01:00"
        );
        assert_eq!(
            format_timestamp_tz(&parts(0, -210)),
            "2020-02-01 03:04:05.000000000 -03:30"
        );
        assert_eq!(
            format_timestamp_tz(&parts(0, 0)),
            "2020-02-01 03:04:05.000000000 +00:00"
        );
    }

    /// The digits pushed by hand are `format!`'s, in and out of each field's printed width.
    #[test]
    fn hand_formatted_datetimes_equal_format() {
        let reference = |p: &DateTimeParts| {
            format!(
                "{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:09}",
                p.year, p.month, p.day, p.hour, p.minute, p.second, p.nanosecond
            )
        };
        let mut seed = 0x9e37_79b9_u32;
        let mut next = |m: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % m
        };
        let mut cases = vec![];
        for year in [
            -4712, -1, 0, 1, 9, 10, 99, 100, 999, 1000, 2024, 9999, 10000,
        ] {
            for field in [0, 1, 9, 10, 59, 99, 100] {
                for nanosecond in [0, 1, 999_999_999, 1_000_000_000] {
                    cases.push(DateTimeParts {
                        year,
                        month: field,
                        day: 31,
                        hour: 23,
                        minute: field,
                        second: 59,
                        nanosecond,
                        offset_minutes: 0,
                    });
                }
            }
        }
        for _ in 0..2000 {
            cases.push(DateTimeParts {
                year: i32::try_from(next(12000)).unwrap_or(0) - 2000,
                month: next(13),
                day: next(32),
                hour: next(24),
                minute: next(60),
                second: next(60),
                nanosecond: next(1_000_000_000),
                offset_minutes: 0,
            });
        }
        for p in &cases {
            let full = reference(p);
            assert_eq!(format_timestamp(p), full, "{p:?}");
            assert_eq!(format_date(p), full[..full.rfind('.').unwrap()], "{p:?}");
            assert_eq!(format_date_str(p), format_date(p), "{p:?}");
        }
    }

    #[test]
    fn timestamp_tz_text_parses_back_to_the_same_form() {
        for text in [
            "2020-02-01 03:04:05.202590000 +01:00",
            "2020-02-01 03:04:05.000000000 -03:30",
            "2020-02-01 03:04:05.000000000 +00:00",
            "0001-01-01 00:00:00.000000001 -00:30",
            "9999-12-31 23:59:59.999999999 +14:00",
        ] {
            let p = parse_timestamp_tz(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(format_timestamp_tz(&p), text);
        }
        let p = parse_timestamp_tz("2020-02-01 03:04:05.5 -00:30").unwrap();
        assert_eq!((p.nanosecond, p.offset_minutes), (500_000_000, -30));
        assert_eq!(
            p,
            parse_timestamp_tz(" 2020-02-01 03:04:05.500000000 -00:30 ").unwrap()
        );
        for bad in [
            "",
            "2020-02-01 03:04:05",
            "2020-02-01 03:04:05.1 01:00",
            "2020-13-01 03:04:05.1 +01:00",
            "2020-02-01 03:04:05.1234567891 +01:00",
            "2020-02-01 3:04:05.x +01:00",
            "2020-02-01T03:04:05.1 +01:00",
        ] {
            assert!(parse_timestamp_tz(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn plain_decimals_expand_exponents() {
        assert_eq!(plain_decimal("1.5E+3"), "1500");
        assert_eq!(plain_decimal("-2E-3"), "-0.002");
        assert_eq!(plain_decimal("1.25e1"), "12.5");
        assert_eq!(plain_decimal("1E+125").len(), 126);
        assert_eq!(plain_decimal(".5"), "0.5");
        assert_eq!(plain_decimal("-.5"), "-0.5");
        assert_eq!(
            plain_decimal("12345678901234567890123"),
            "12345678901234567890123"
        );
        assert_eq!(plain_decimal("1E+999"), "1E+999");
    }

    #[test]
    fn formats_intervals_canonically() {
        assert_eq!(format_interval_ym(-3, -6), "-03-06");
        assert_eq!(format_interval_ym(3, 6), "+03-06");
        assert_eq!(format_interval_ym(123, 0), "+123-00");
        assert_eq!(
            format_interval_ds(1, 2, 3, 4, 560_000_000, 6),
            "+001 02:03:04.560000"
        );
        assert_eq!(
            format_interval_ds(0, -2, 0, 0, 0, 6),
            "-000 02:00:00.000000"
        );
        assert_eq!(
            format_interval_ds(0, 0, 0, 0, 1, 9),
            "+000 00:00:00.000000001"
        );
        assert_eq!(
            format_interval_ds(1, 2, 3, 4, 560_000_000, 2),
            "+001 02:03:04.56"
        );
        assert_eq!(format_interval_ds(1234, 0, 0, 0, 0, 0), "+1234 00:00:00.0");
    }

    #[test]
    fn xids_and_scns() {
        assert_eq!(xid_hex(2, 10, 0x337), "02000a0037030000");
        assert_eq!(xid_hex(0xffff, 0xffff, u32::MAX), "ffffffffffffffff");
        assert_eq!(scn_from_parts(0, 1234), 1234);
        assert_eq!(scn_from_parts(1, 0), 1 << 32);
        assert_eq!(
            scn_from_parts(1683, 4_117_418_604),
            1683 * (1 << 32) + 4_117_418_604
        );
    }

    #[test]
    fn editions_from_product_names() {
        assert_eq!(
            edition_from_product("Oracle Database 19c Enterprise Edition "),
            "Enterprise Edition"
        );
        assert_eq!(edition_from_product("Oracle Database 23ai Free"), "Free");
        assert_eq!(
            edition_from_product("Oracle AI Database 26ai Enterprise Edition "),
            "Enterprise Edition"
        );
        assert_eq!(edition_from_product("Oracle AI Database 26ai Free"), "Free");
        assert_eq!(
            edition_from_product("Oracle Database 21c Express Edition "),
            "Express Edition"
        );
        assert_eq!(
            edition_from_product(
                "Oracle Database 12c Standard Edition Release 12.1.0.2.0 - 64bit Production"
            ),
            "Standard Edition"
        );
        assert_eq!(edition_from_product("Oracle Database 19c"), "");
    }

    #[test]
    fn vectors_and_booleans() {
        assert_eq!(parse_vector("[1.0E+000,2.5E+000]"), Ok(vec![1.0, 2.5]));
        assert_eq!(parse_vector("[]"), Ok(vec![]));
        assert!(parse_vector("[5,[2,4],[1.0,2.0]]").is_err());
        assert!(parse_vector("1,2").is_err());
        assert_eq!(parse_boolean("1"), Ok(true));
        assert_eq!(parse_boolean("false"), Ok(false));
        assert!(parse_boolean("2").is_err());
    }
}
