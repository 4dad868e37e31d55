//! Reading text with a datetime format model (TO_DATE, TO_TIMESTAMP[_TZ], implicit
//! conversion with the session's NLS formats).
//!
//! Without FX Oracle is lenient, and so is this: punctuation in the text may differ from the
//! model's, numbers may have fewer digits, blanks are free, and text that ends early leaves
//! the remaining fields at their defaults (the current year and month, day 1, midnight, the
//! session's time zone). With FX the text must match the model exactly.

use super::{El, Item, Model, DAYS, MONTHS};
use crate::datetime::{days_in_month, parse_offset, utc_alias};
use crate::{DateTime, OraError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Date,
    Timestamp,
    TimestampTz,
}

/// What the text gave: the fields, and the time zone if it named one.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub at: DateTime,
    pub offset: Option<i16>,
    pub region: Option<String>,
}

#[derive(Default)]
struct Fields {
    year: Option<i64>,
    /// A year of fewer digits than the full one: (value, digits, RR rule).
    short_year: Option<(i64, u8, bool)>,
    bc: bool,
    month: Option<u8>,
    day: Option<i64>,
    day_of_year: Option<i64>,
    julian: Option<i64>,
    hour24: Option<i64>,
    hour12: Option<i64>,
    pm: Option<bool>,
    minute: Option<i64>,
    second: Option<i64>,
    sssss: Option<i64>,
    nanos: u32,
    tzh: Option<i64>,
    tzm: Option<i64>,
    offset: Option<i16>,
    region: Option<String>,
}

fn e(code: u32, text: &str) -> OraError {
    OraError::new(code, text)
}

fn mismatch() -> OraError {
    e(1861, "literal does not match format string")
}

struct Cursor<'a> {
    s: &'a str,
    i: usize,
}

impl Cursor<'_> {
    fn rest(&self) -> &str {
        &self.s[self.i..]
    }

    fn skip_blanks(&mut self) {
        while self.rest().starts_with([' ', '\t', '\n', '\r']) {
            self.i += 1;
        }
    }

    fn at_end(&self) -> bool {
        self.i >= self.s.len()
    }

    /// Up to `max` digits; `Err` when there is none.
    fn digits(&mut self, max: usize, exact: bool) -> Result<i64, OraError> {
        let b = self.rest().as_bytes();
        let n = b
            .iter()
            .take(max)
            .take_while(|c| c.is_ascii_digit())
            .count();
        if n == 0 {
            return Err(e(
                1858,
                "a non-numeric character was found where a numeric was expected",
            ));
        }
        if exact && n != max {
            return Err(e(
                1862,
                "the numeric value does not match the length of the format item",
            ));
        }
        let v = b[..n]
            .iter()
            .fold(0i64, |a, c| a * 10 + i64::from(c - b'0'));
        self.i += n;
        Ok(v)
    }

    fn word(&mut self) -> &str {
        let start = self.i;
        let n = self
            .rest()
            .char_indices()
            .find(|&(_, c)| !(c.is_alphabetic() || c == '.'))
            .map_or(self.rest().len(), |(n, _)| n);
        self.i += n;
        &self.s[start..self.i]
    }

    /// Consume `lit` case-insensitively if the text starts with it.
    fn eat(&mut self, lit: &str) -> bool {
        let r = self.rest();
        if r.len() >= lit.len()
            && r.is_char_boundary(lit.len())
            && r[..lit.len()].eq_ignore_ascii_case(lit)
        {
            self.i += lit.len();
            true
        } else {
            false
        }
    }
}

/// Read `text` with `model` into a value of `target`'s type. `now` supplies the default year
/// and month.
pub fn read(text: &str, model: &Model, target: Target, now: &DateTime) -> Result<Parsed, OraError> {
    if target == Target::Date && model.has_timestamp_parts() {
        return Err(super::not_recognized());
    }
    if target == Target::Timestamp && model.has_zone() {
        return Err(super::not_recognized());
    }
    let mut c = Cursor { s: text, i: 0 };
    let mut f = Fields::default();
    for (k, item) in model.items.iter().enumerate() {
        match item {
            Item::Lit(lit) => {
                let next_signed = matches!(
                    model.items.get(k + 1),
                    Some(Item::El {
                        el: El::Tzh | El::SignedYear,
                        ..
                    })
                );
                literal(&mut c, lit, next_signed)?;
            }
            Item::El { el, fx, .. } => {
                c.skip_blanks();
                if c.at_end() {
                    break;
                }
                element(&mut c, &mut f, *el, *fx)?;
            }
        }
    }
    c.skip_blanks();
    if !c.at_end() {
        return Err(e(
            1830,
            "date format picture ends before converting entire input string",
        ));
    }
    resolve(f, now)
}

fn literal(c: &mut Cursor<'_>, lit: &str, next_signed: bool) -> Result<(), OraError> {
    if lit.chars().any(char::is_alphanumeric) {
        c.skip_blanks();
        let want = lit.trim();
        if !c.eat(want) {
            return Err(mismatch());
        }
        return Ok(());
    }
    // Any run of punctuation and blanks stands for the model's punctuation, except a sign
    // that belongs to the next element.
    while let Some(ch) = c.rest().chars().next() {
        if ch.is_alphanumeric() || (next_signed && (ch == '+' || ch == '-')) {
            break;
        }
        c.i += ch.len_utf8();
    }
    Ok(())
}

fn element(c: &mut Cursor<'_>, f: &mut Fields, el: El, fx: bool) -> Result<(), OraError> {
    if numeric(c, f, el, fx)? {
        return Ok(());
    }
    match el {
        El::Dy | El::Day => {
            let w = c.word().to_ascii_uppercase();
            if !DAYS
                .iter()
                .any(|name| w == *name || (w.len() == 3 && name.starts_with(&w)))
            {
                return Err(e(1846, "not a valid day of the week"));
            }
        }
        El::Mon | El::Month => {
            let w = c.word().to_ascii_uppercase();
            let m = MONTHS
                .iter()
                .position(|name| w == *name || (w.len() == 3 && name.starts_with(&w)))
                .ok_or_else(|| e(1843, "not a valid month"))?;
            f.month = Some(m as u8 + 1);
        }
        El::Rm => {
            const ROMAN: [&str; 12] = [
                "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII",
            ];
            let w = c.word().to_ascii_uppercase();
            let m = ROMAN
                .iter()
                .position(|r| *r == w)
                .ok_or_else(|| e(1843, "not a valid month"))?;
            f.month = Some(m as u8 + 1);
        }
        El::Meridian { .. } => {
            f.pm = Some(if c.eat("AM") || c.eat("A.M.") {
                false
            } else if c.eat("PM") || c.eat("P.M.") {
                true
            } else {
                return Err(e(1855, "AM/A.M. or PM/P.M. required"));
            });
        }
        El::Era { .. } => {
            f.bc = if c.eat("AD") || c.eat("A.D.") {
                false
            } else if c.eat("BC") || c.eat("B.C.") {
                true
            } else {
                return Err(e(1856, "BC/B.C. or AD/A.D. required"));
            };
        }
        El::X if !(c.eat(".") || c.eat(",")) => return Err(mismatch()),
        El::Tzr => zone_region(c, f)?,
        El::Tzd => {
            c.word();
        }
        El::Cc { .. } | El::Iw | El::Iy(_) | El::Ww | El::W | El::Q => {
            return Err(e(1820, "format code cannot appear in date input format"));
        }
        _ => {}
    }
    Ok(())
}

/// The numeric elements; `false` for any other.
fn numeric(c: &mut Cursor<'_>, f: &mut Fields, el: El, fx: bool) -> Result<bool, OraError> {
    match el {
        El::Y(4) => f.year = Some(c.digits(4, fx)?),
        El::Y(n) => f.short_year = Some((c.digits(usize::from(n), fx)?, n, false)),
        El::Rr(n) => {
            let start = c.i;
            let v = c.digits(4, fx && n == 4)?;
            let got = c.i - start;
            if got > 2 {
                f.year = Some(v);
            } else {
                f.short_year = Some((v, 2, true));
            }
        }
        El::SignedYear => {
            let neg = c.eat("-");
            if !neg {
                c.eat("+");
            }
            let v = c.digits(4, fx)?;
            f.year = Some(if neg { -v } else { v });
        }
        El::YComma => {
            let a = c.digits(1, fx)?;
            c.eat(",");
            let b = c.digits(3, fx)?;
            f.year = Some(a * 1000 + b);
        }
        El::Mm => f.month = Some(month_number(c.digits(2, fx)?)?),
        El::Dd => f.day = Some(c.digits(2, fx)?),
        El::Ddd => f.day_of_year = Some(c.digits(3, fx)?),
        El::D => {
            let d = c.digits(1, fx)?;
            if !(1..=7).contains(&d) {
                return Err(e(1846, "not a valid day of the week"));
            }
        }
        El::J => f.julian = Some(c.digits(7, fx)?),
        El::Hh12 => f.hour12 = Some(c.digits(2, fx)?),
        El::Hh24 => f.hour24 = Some(c.digits(2, fx)?),
        El::Mi => f.minute = Some(c.digits(2, fx)?),
        El::Ss => f.second = Some(c.digits(2, fx)?),
        El::Sssss => f.sssss = Some(c.digits(5, fx)?),
        El::Ff(_) => {
            let start = c.i;
            let v = c.digits(9, false)?;
            let n = c.i - start;
            f.nanos = (v * 10i64.pow(9 - n as u32)) as u32;
        }
        El::Tzh => {
            let neg = c.eat("-");
            if !neg {
                c.eat("+");
            }
            let h = c.digits(2, fx)?;
            f.tzh = Some(if neg { -h } else { h });
        }
        El::Tzm => f.tzm = Some(c.digits(2, fx)?),
        _ => return Ok(false),
    }
    Ok(true)
}

fn month_number(v: i64) -> Result<u8, OraError> {
    if (1..=12).contains(&v) {
        Ok(v as u8)
    } else {
        Err(e(1843, "not a valid month"))
    }
}

fn zone_region(c: &mut Cursor<'_>, f: &mut Fields) -> Result<(), OraError> {
    let start = c.i;
    let n = c
        .rest()
        .char_indices()
        .find(|&(_, ch)| !(ch.is_alphanumeric() || matches!(ch, '/' | '_' | '+' | '-' | ':')))
        .map_or(c.rest().len(), |(n, _)| n);
    c.i += n;
    let word = &c.s[start..c.i];
    if let Some(off) = parse_offset(word) {
        f.offset = Some(off);
    } else if utc_alias(word) {
        f.offset = Some(0);
        f.region = Some(word.to_ascii_uppercase());
    } else if word.contains('/') {
        return Err(crate::unimplemented(&format!(
            "the time zone region {word} (only offsets and UTC)"
        )));
    } else {
        return Err(e(1882, "timezone region not found"));
    }
    Ok(())
}

fn resolve(f: Fields, now: &DateTime) -> Result<Parsed, OraError> {
    let cy = i64::from(now.year);
    let mut year = match (f.year, f.short_year) {
        (Some(y), _) => y,
        (None, Some((v, 2, true))) => {
            let century = cy - cy.rem_euclid(100);
            let low_now = cy.rem_euclid(100) < 50;
            match (v < 50, low_now) {
                (true, true) | (false, false) => century + v,
                (true, false) => century + 100 + v,
                (false, true) => century - 100 + v,
            }
        }
        (None, Some((v, n, _))) => {
            let m = 10i64.pow(u32::from(n));
            cy - cy.rem_euclid(m) + v
        }
        (None, None) => cy,
    };
    if f.bc {
        year = -year;
    }
    if year == 0 || !(-4712..=9999).contains(&year) {
        return Err(crate::datetime::year_error());
    }
    let year = year as i32;
    let (mut month, mut day) = (f.month.unwrap_or(now.month), f.day.unwrap_or(1));
    if let Some(j) = f.julian {
        let (y, m, d) = crate::datetime::civil_from_days(j - 2_440_588);
        let dt = DateTime::date(y as i32, m, d);
        return finish(dt, &f);
    }
    if let Some(doy) = f.day_of_year {
        let days_in_year = if crate::datetime::is_leap(year) {
            366
        } else {
            365
        };
        if !(1..=days_in_year).contains(&doy) {
            return Err(e(
                1848,
                "day of year must be between 1 and 365 (366 for leap year)",
            ));
        }
        let base = crate::datetime::days_from_civil(year, 1, 1) + doy - 1;
        let (_, m, d) = crate::datetime::civil_from_days(base);
        month = m;
        day = i64::from(d);
    }
    if day < 1 || day > i64::from(days_in_month(year, month)) {
        return Err(e(
            1847,
            "day of month must be between 1 and last day of month",
        ));
    }
    finish(DateTime::date(year, month, day as u8), &f)
}

fn finish(mut dt: DateTime, f: &Fields) -> Result<Parsed, OraError> {
    let mut hour = f.hour24.unwrap_or(0);
    if let Some(h) = f.hour24 {
        if h > 23 {
            return Err(e(1850, "hour must be between 0 and 23"));
        }
    }
    if let Some(h) = f.hour12 {
        if !(1..=12).contains(&h) {
            return Err(e(1849, "hour must be between 1 and 12"));
        }
        hour = match (h, f.pm.unwrap_or(false)) {
            (12, false) => 0,
            (12, true) => 12,
            (h, true) => h + 12,
            (h, false) => h,
        };
    }
    let (mut minute, mut second) = (f.minute.unwrap_or(0), f.second.unwrap_or(0));
    if let Some(s) = f.sssss {
        if s > 86_399 {
            return Err(e(1853, "seconds in day must be between 0 and 86399"));
        }
        hour = s / 3600;
        minute = s % 3600 / 60;
        second = s % 60;
    }
    if minute > 59 {
        return Err(e(1851, "minutes must be between 0 and 59"));
    }
    if second > 59 {
        return Err(e(1852, "seconds must be between 0 and 59"));
    }
    dt.hour = hour as u8;
    dt.minute = minute as u8;
    dt.second = second as u8;
    dt.nanosecond = f.nanos;
    let mut offset = f.offset;
    if f.tzh.is_some() || f.tzm.is_some() {
        let h = f.tzh.unwrap_or(0);
        let m = f.tzm.unwrap_or(0);
        if !(-15..=15).contains(&h) {
            return Err(e(1874, "time zone hour must be between -15 and 15"));
        }
        if m > 59 {
            return Err(e(1875, "time zone minute must be between -59 and 59"));
        }
        let total = h.abs() * 60 + m;
        let neg = h < 0 || (h == 0 && f.tzh.is_some_and(|x| x < 0));
        offset = Some((if neg { -total } else { total }) as i16);
    }
    Ok(Parsed {
        at: dt,
        offset,
        region: f.region.clone(),
    })
}
