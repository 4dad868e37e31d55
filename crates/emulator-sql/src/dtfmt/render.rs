//! TO_CHAR of a datetime: each element of the model printed from the value's fields.

use super::{cased, not_recognized, Case, El, Item, Model, DAYS, MONTHS};
use crate::datetime::{day_of_year, days_from_civil, offset_text, weekday};
use crate::{DateTime, OraError};
use std::fmt::Write;

/// The value's time zone, for TZ elements: offset in minutes and the region name if the value
/// carries one.
#[derive(Debug, Clone, Copy)]
pub struct Zone<'a> {
    pub offset: i16,
    pub region: Option<&'a str>,
}

/// Render `dt` with `model`. `zone` is `None` for a DATE or TIMESTAMP (TZ elements are then
/// ORA-01821), `precision` the value's fractional-seconds precision (`None` for a DATE: FF is
/// then ORA-01821).
pub fn render(
    dt: &DateTime,
    zone: Option<Zone<'_>>,
    precision: Option<u8>,
    model: &Model,
    decimal: char,
) -> Result<String, OraError> {
    let mut out = String::with_capacity(32);
    for item in &model.items {
        match item {
            Item::Lit(s) => out.push_str(s),
            Item::El { el, case, fm, .. } => {
                element(&mut out, dt, zone, precision, *el, *case, *fm, decimal)?;
            }
        }
    }
    Ok(out)
}

/// A month's name; three blanks for a month outside 1..=12 (a value no valid DATE has).
fn month_name(month: u8) -> &'static str {
    MONTHS
        .get(usize::from(month.wrapping_sub(1)))
        .copied()
        .unwrap_or("   ")
}

fn num(out: &mut String, v: i64, width: usize, fm: bool) {
    if fm {
        let _ = write!(out, "{v}");
    } else {
        let _ = write!(out, "{v:0width$}");
    }
}

fn padded(out: &mut String, s: &str, width: usize, fm: bool) {
    out.push_str(s);
    if !fm {
        for _ in s.chars().count()..width {
            out.push(' ');
        }
    }
}

/// ISO 8601 week-numbering year and week of `dt`.
fn iso_week(dt: &DateTime) -> (i64, i64) {
    let days = days_from_civil(dt.year, dt.month, dt.day);
    // Monday = 0.
    let wd = (days + 3).rem_euclid(7);
    let thursday = days - wd + 3;
    let (y, _, _) = crate::datetime::civil_from_days(thursday);
    let jan1 = days_from_civil(y as i32, 1, 1);
    (y, (thursday - jan1) / 7 + 1)
}

#[allow(clippy::too_many_arguments)]
fn element(
    out: &mut String,
    dt: &DateTime,
    zone: Option<Zone<'_>>,
    precision: Option<u8>,
    el: El,
    case: Case,
    fm: bool,
    decimal: char,
) -> Result<(), OraError> {
    if !date_element(out, dt, el, case, fm) {
        time_element(out, dt, zone, precision, el, case, fm, decimal)?;
    }
    Ok(())
}

/// Year, month, week and day elements; `false` for any other.
fn date_element(out: &mut String, dt: &DateTime, el: El, case: Case, fm: bool) -> bool {
    let year = i64::from(dt.year);
    let abs_year = year.abs();
    match el {
        El::Y(n) => {
            let m = 10i64.pow(u32::from(n));
            num(out, abs_year % m, usize::from(n), fm);
        }
        El::Rr(n) => {
            let m = 10i64.pow(u32::from(n));
            num(out, abs_year % m, usize::from(n), fm);
        }
        El::YComma => {
            let _ = write!(out, "{},{:03}", abs_year / 1000, abs_year % 1000);
        }
        El::SignedYear => {
            if year < 0 {
                out.push('-');
            } else if !fm {
                out.push(' ');
            }
            num(out, abs_year, 4, fm);
        }
        El::Iy(n) => {
            let (y, _) = iso_week(dt);
            let m = 10i64.pow(u32::from(n));
            num(out, y.abs() % m, usize::from(n), fm);
        }
        El::Iw => num(out, iso_week(dt).1, 2, fm),
        El::Cc { signed } => {
            if signed && year < 0 {
                out.push('-');
            }
            num(out, (abs_year + 99) / 100, 2, fm);
        }
        El::Q => num(out, i64::from(dt.month.saturating_sub(1) / 3 + 1), 1, fm),
        El::Mm => num(out, i64::from(dt.month), 2, fm),
        El::Mon => {
            let name = &month_name(dt.month)[..3];
            out.push_str(&cased(name, case));
        }
        El::Month => {
            let name = cased(month_name(dt.month), case);
            padded(out, &name, 9, fm);
        }
        El::Rm => {
            const ROMAN: [&str; 12] = [
                "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII",
            ];
            let r = ROMAN
                .get(usize::from(dt.month.wrapping_sub(1)))
                .copied()
                .unwrap_or("");
            let r = if case == Case::Lower {
                r.to_lowercase()
            } else {
                r.to_string()
            };
            padded(out, &r, 4, fm);
        }
        El::Ww => num(out, (i64::from(day_of_year(dt)) - 1) / 7 + 1, 2, fm),
        El::W => num(out, (i64::from(dt.day) - 1) / 7 + 1, 1, fm),
        El::Ddd => num(out, i64::from(day_of_year(dt)), 3, fm),
        El::Dd => num(out, i64::from(dt.day), 2, fm),
        El::D => num(out, i64::from(weekday(dt)), 1, fm),
        El::Day => {
            let name = cased(DAYS[usize::from(weekday(dt) - 1)], case);
            padded(out, &name, 9, fm);
        }
        El::Dy => {
            let name = &DAYS[usize::from(weekday(dt) - 1)][..3];
            out.push_str(&cased(name, case));
        }
        El::J => num(
            out,
            days_from_civil(dt.year, dt.month, dt.day) + 2_440_588,
            7,
            fm,
        ),
        _ => return false,
    }
    true
}

/// Time of day, fractional seconds, meridian and era indicators, the decimal character and
/// time zone elements.
#[allow(clippy::too_many_arguments)]
fn time_element(
    out: &mut String,
    dt: &DateTime,
    zone: Option<Zone<'_>>,
    precision: Option<u8>,
    el: El,
    case: Case,
    fm: bool,
    decimal: char,
) -> Result<(), OraError> {
    let year = i64::from(dt.year);
    let hour12 = match dt.hour % 12 {
        0 => 12,
        h => h,
    };
    match el {
        El::Hh12 => num(out, i64::from(hour12), 2, fm),
        El::Hh24 => num(out, i64::from(dt.hour), 2, fm),
        El::Mi => num(out, i64::from(dt.minute), 2, fm),
        El::Ss => num(out, i64::from(dt.second), 2, fm),
        El::Sssss => num(
            out,
            i64::from(dt.hour) * 3600 + i64::from(dt.minute) * 60 + i64::from(dt.second),
            5,
            fm,
        ),
        El::Ff(n) => {
            let p = precision.ok_or_else(not_recognized)?;
            let digits = if n == 0 { p } else { n };
            let all = format!("{:09}", dt.nanosecond);
            out.push_str(&all[..usize::from(digits.min(9))]);
        }
        El::Meridian { dots } => {
            let pm = dt.hour >= 12;
            let s = match (pm, dots) {
                (false, false) => "AM",
                (true, false) => "PM",
                (false, true) => "A.M.",
                (true, true) => "P.M.",
            };
            out.push_str(&if case == Case::Lower {
                s.to_lowercase()
            } else {
                s.to_string()
            });
        }
        El::Era { dots } => {
            let bc = year < 0;
            let s = match (bc, dots) {
                (false, false) => "AD",
                (true, false) => "BC",
                (false, true) => "A.D.",
                (true, true) => "B.C.",
            };
            out.push_str(&if case == Case::Lower {
                s.to_lowercase()
            } else {
                s.to_string()
            });
        }
        El::X => out.push(decimal),
        El::Tzh => {
            let z = zone.ok_or_else(not_recognized)?;
            let sign = if z.offset < 0 { '-' } else { '+' };
            out.push(sign);
            num(out, i64::from(z.offset.unsigned_abs() / 60), 2, fm);
        }
        El::Tzm => {
            let z = zone.ok_or_else(not_recognized)?;
            num(out, i64::from(z.offset.unsigned_abs() % 60), 2, fm);
        }
        El::Tzr => {
            let z = zone.ok_or_else(not_recognized)?;
            match z.region {
                Some(r) => out.push_str(r),
                None => out.push_str(&offset_text(z.offset)),
            }
        }
        El::Tzd => {
            let z = zone.ok_or_else(not_recognized)?;
            // An offset has no daylight-saving abbreviation; a UTC region has `UTC`.
            if let Some(r) = z.region {
                if crate::datetime::utc_alias(r) {
                    out.push_str("UTC");
                }
            }
        }
        _ => {}
    }
    Ok(())
}
