//! Calendar arithmetic on [`DateTime`]: days and seconds since the epoch, DATE ± days,
//! DATE − DATE, TIMESTAMP ± INTERVAL, ADD_MONTHS, time zone offsets and interval texts.
//!
//! The calendar is the proleptic Gregorian one (Oracle switches to the Julian calendar before
//! 1582-10-15; the emulator does not). Oracle's years have no year 0: year −1 is 1 BC, which
//! is astronomical year 0 here.

use crate::number::Dec;
use crate::{DateTime, OraError};

pub const NANOS_PER_SEC: i128 = 1_000_000_000;
pub const SECS_PER_DAY: i64 = 86_400;

pub fn year_error() -> OraError {
    OraError::new(
        1841,
        "(full) year must be between -4713 and +9999, and not be 0",
    )
}

fn astronomical(year: i32) -> i64 {
    if year < 0 {
        i64::from(year) + 1
    } else {
        i64::from(year)
    }
}

fn oracle_year(astro: i64) -> i64 {
    if astro <= 0 {
        astro - 1
    } else {
        astro
    }
}

pub fn is_leap(year: i32) -> bool {
    let y = astronomical(year);
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

pub fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(year) => 29,
        _ => 28,
    }
}

/// Days since 1970-01-01 (H. Hinnant's algorithm).
pub fn days_from_civil(year: i32, month: u8, day: u8) -> i64 {
    let y = astronomical(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(month);
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date `days` after 1970-01-01: Oracle year, month, day.
pub fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (oracle_year(y), m, d)
}

/// Seconds since 1970-01-01 00:00:00 of the fields (no time zone applied).
pub fn to_seconds(dt: &DateTime) -> i64 {
    days_from_civil(dt.year, dt.month, dt.day) * SECS_PER_DAY
        + i64::from(dt.hour) * 3600
        + i64::from(dt.minute) * 60
        + i64::from(dt.second)
}

/// Nanoseconds since the epoch.
pub fn to_nanos(dt: &DateTime) -> i128 {
    i128::from(to_seconds(dt)) * NANOS_PER_SEC + i128::from(dt.nanosecond)
}

/// The fields of `secs` since the epoch; ORA-01841 outside Oracle's years.
pub fn from_seconds(secs: i64, nanosecond: u32) -> Result<DateTime, OraError> {
    let days = secs.div_euclid(SECS_PER_DAY);
    let rem = secs.rem_euclid(SECS_PER_DAY);
    let (year, month, day) = civil_from_days(days);
    if !(-4712..=9999).contains(&year) {
        return Err(year_error());
    }
    Ok(DateTime {
        year: year as i32,
        month,
        day,
        hour: (rem / 3600) as u8,
        minute: (rem % 3600 / 60) as u8,
        second: (rem % 60) as u8,
        nanosecond,
    })
}

pub fn from_nanos(n: i128) -> Result<DateTime, OraError> {
    let secs = n.div_euclid(NANOS_PER_SEC);
    let ns = n.rem_euclid(NANOS_PER_SEC) as u32;
    let secs = i64::try_from(secs).map_err(|_| year_error())?;
    from_seconds(secs, ns)
}

/// Validates fields (month, day, hour …) as a constructed value must be.
pub fn valid(dt: &DateTime) -> bool {
    (-4712..=9999).contains(&dt.year)
        && dt.year != 0
        && (1..=12).contains(&dt.month)
        && dt.day >= 1
        && dt.day <= days_in_month(dt.year, dt.month)
        && dt.hour < 24
        && dt.minute < 60
        && dt.second < 60
        && dt.nanosecond < 1_000_000_000
}

/// DATE + n days (n exact; the result rounded to the second, as a DATE holds it).
pub fn date_plus_days(dt: &DateTime, days: &Dec) -> Result<DateTime, OraError> {
    let secs = days
        .mul(&Dec::from_i128(i128::from(SECS_PER_DAY)))
        .round_scale(0);
    let secs = secs.to_i128().ok_or_else(year_error)?;
    let base = i128::from(to_seconds(dt));
    let total = i64::try_from(base + secs).map_err(|_| year_error())?;
    from_seconds(total, 0)
}

/// DATE − DATE in days, exact (`1/24` for an hour).
pub fn days_between(a: &DateTime, b: &DateTime) -> Result<String, OraError> {
    let secs = to_seconds(a) - to_seconds(b);
    let d = Dec::from_i128(i128::from(secs)).div(&Dec::from_i128(i128::from(SECS_PER_DAY)))?;
    Ok(d.fit()?.to_canonical())
}

/// ADD_MONTHS: the same day `months` later, the last day when `dt` is a month's last day or
/// the target month is shorter.
/// Months since year 0 of `dt` plus `months`, ORA-01841 when out of any valid range.
fn month_index(dt: &DateTime, months: i64) -> Result<i64, OraError> {
    (astronomical(dt.year) * 12 + i64::from(dt.month) - 1)
        .checked_add(months)
        .filter(|t| t.abs() < 1_000_000)
        .ok_or_else(year_error)
}

pub fn add_months(dt: &DateTime, months: i64) -> Result<DateTime, OraError> {
    let total = month_index(dt, months)?;
    let year = oracle_year(total.div_euclid(12));
    let month = (total.rem_euclid(12) + 1) as u8;
    if !(-4712..=9999).contains(&year) {
        return Err(year_error());
    }
    let year = year as i32;
    let last = days_in_month(year, month);
    let day = if dt.day >= days_in_month(dt.year, dt.month) {
        last
    } else {
        dt.day.min(last)
    };
    Ok(DateTime {
        year,
        month,
        day,
        ..*dt
    })
}

/// DATETIME ± INTERVAL YEAR TO MONTH: the same day (ORA-01839 when it does not exist).
pub fn plus_months_strict(dt: &DateTime, months: i64) -> Result<DateTime, OraError> {
    let total = month_index(dt, months)?;
    let year = oracle_year(total.div_euclid(12));
    let month = (total.rem_euclid(12) + 1) as u8;
    if !(-4712..=9999).contains(&year) {
        return Err(year_error());
    }
    let year = year as i32;
    if dt.day > days_in_month(year, month) {
        return Err(OraError::new(1839, "date not valid for month specified"));
    }
    Ok(DateTime { year, month, ..*dt })
}

/// Day of the week, 1 = Sunday (the AMERICA territory's first day).
pub fn weekday(dt: &DateTime) -> u8 {
    // 1970-01-01 was a Thursday (5 counting from Sunday = 1).
    ((days_from_civil(dt.year, dt.month, dt.day) + 4).rem_euclid(7) + 1) as u8
}

pub fn day_of_year(dt: &DateTime) -> u16 {
    (days_from_civil(dt.year, dt.month, dt.day) - days_from_civil(dt.year, 1, 1) + 1) as u16
}

/// `+hh:mm` of an offset in minutes.
pub fn offset_text(minutes: i16) -> String {
    let sign = if minutes < 0 { '-' } else { '+' };
    let m = minutes.unsigned_abs();
    format!("{sign}{:02}:{:02}", m / 60, m % 60)
}

/// `[+|-]hh:mm` (also `hh:mm`, `+h`), as TIME_ZONE and TZH:TZM take it: minutes east of UTC.
pub fn parse_offset(text: &str) -> Option<i16> {
    let t = text.trim();
    let (neg, rest) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let (h, m) = rest.split_once(':').unwrap_or((rest, "0"));
    if h.is_empty() || h.len() > 2 || m.is_empty() || m.len() > 2 {
        return None;
    }
    let h: i16 = h.parse().ok()?;
    let m: i16 = m.parse().ok()?;
    if h > 14 || m > 59 || (h == 14 && m > 0) {
        return None;
    }
    let v = h * 60 + m;
    Some(if neg { -v } else { v })
}

/// Zone names that mean UTC (the emulator has no time zone database beyond them).
pub fn utc_alias(name: &str) -> bool {
    matches!(
        name.to_ascii_uppercase().as_str(),
        "UTC"
            | "GMT"
            | "Z"
            | "ZULU"
            | "UCT"
            | "UNIVERSAL"
            | "GREENWICH"
            | "ETC/UTC"
            | "ETC/GMT"
            | "ETC/UCT"
            | "ETC/UNIVERSAL"
            | "ETC/ZULU"
            | "ETC/GREENWICH"
            | "GMT0"
            | "ETC/GMT0"
    )
}

/// Local fields at `offset` minutes east of UTC → the same instant at `to` minutes.
pub fn shift_zone(at: &DateTime, from: i16, to: i16) -> Result<DateTime, OraError> {
    let n = to_nanos(at) + i128::from(i64::from(to) - i64::from(from)) * 60 * NANOS_PER_SEC;
    from_nanos(n)
}

/// INTERVAL DAY TO SECOND as Oracle prints it: `+DD HH:MI:SS.FFFFFF` with the type's
/// precisions.
pub fn interval_ds_text(nanos: i128, day_precision: u8, frac_precision: u8) -> String {
    let sign = if nanos < 0 { '-' } else { '+' };
    let n = nanos.unsigned_abs();
    let secs = n / 1_000_000_000;
    let frac = n % 1_000_000_000;
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let mut out = format!(
        "{sign}{:0width$} {:02}:{:02}:{:02}",
        days,
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        width = usize::from(day_precision.max(1))
    );
    if frac_precision > 0 {
        let digits = format!("{frac:09}");
        out.push('.');
        out.push_str(&digits[..usize::from(frac_precision.min(9))]);
    }
    out
}

/// INTERVAL YEAR TO MONTH as Oracle prints it: `+YY-MM`.
pub fn interval_ym_text(months: i64, year_precision: u8) -> String {
    let sign = if months < 0 { '-' } else { '+' };
    let m = months.unsigned_abs();
    format!(
        "{sign}{:0width$}-{:02}",
        m / 12,
        m % 12,
        width = usize::from(year_precision.max(1))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trip() {
        for (y, m, d) in [
            (1970, 1, 1),
            (2000, 2, 29),
            (-4712, 1, 1),
            (9999, 12, 31),
            (1, 1, 1),
            (-1, 12, 31),
        ] {
            let days = days_from_civil(y, m, d);
            assert_eq!(civil_from_days(days), (i64::from(y), m, d));
        }
        // 1 BC's last day is the day before AD 1's first.
        assert_eq!(days_from_civil(-1, 12, 31) + 1, days_from_civil(1, 1, 1));
        assert_eq!(weekday(&DateTime::date(2024, 1, 7)), 1); // a Sunday
    }

    #[test]
    fn date_arithmetic() {
        let d = DateTime::parse("2024-01-31 12:00:00").unwrap();
        let plus = date_plus_days(&d, &Dec::parse("1.5").unwrap()).unwrap();
        assert_eq!(plus.date_text(), "2024-02-02 00:00:00");
        assert_eq!(
            add_months(&d, 1).unwrap().date_text(),
            "2024-02-29 12:00:00"
        );
        assert_eq!(plus_months_strict(&d, 1).unwrap_err().code, 1839);
        let a = DateTime::parse("2024-01-01 01:00:00").unwrap();
        let b = DateTime::parse("2024-01-01 00:00:00").unwrap();
        assert_eq!(
            days_between(&a, &b).unwrap(),
            format!("0.041{}7", "6".repeat(36))
        );
        assert_eq!(parse_offset("00:00"), Some(0));
        assert_eq!(parse_offset("-05:30"), Some(-330));
        assert_eq!(parse_offset("+15:00"), None);
        assert_eq!(
            interval_ds_text(90_061_500_000_000, 2, 6),
            "+01 01:01:01.500000"
        );
        assert_eq!(interval_ym_text(-14, 2), "-01-02");
    }
}
