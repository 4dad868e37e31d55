//! ANSI datetime and interval literals: `DATE '2020-01-31'`, `TIMESTAMP '2020-01-31
//! 10:00:00.5 +02:00'`, `INTERVAL '1 02:03:04.5' DAY TO SECOND`, `INTERVAL '1-6' YEAR TO
//! MONTH`. Their shapes are fixed (no NLS format applies); a mismatch is ORA-01861 for
//! datetimes and ORA-01867 for intervals.

use crate::ast::IntervalUnit;
use crate::datetime::{parse_offset, utc_alias, valid, NANOS_PER_SEC};
use crate::{DateTime, Datum, OraError};

fn mismatch() -> OraError {
    OraError::new(1861, "literal does not match format string")
}

fn bad_interval() -> OraError {
    OraError::new(1867, "the interval is invalid")
}

fn num<T: std::str::FromStr>(s: &str) -> Option<T> {
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn date_part(s: &str) -> Result<DateTime, OraError> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let mut it = body.splitn(3, '-');
    let y: i32 = it.next().and_then(num).ok_or_else(mismatch)?;
    let m: u8 = it.next().and_then(num).ok_or_else(mismatch)?;
    let d: u8 = it.next().and_then(num).ok_or_else(mismatch)?;
    let dt = DateTime::date(if neg { -y } else { y }, m, d);
    check(dt)
}

fn check(dt: DateTime) -> Result<DateTime, OraError> {
    if dt.year == 0 || !(-4712..=9999).contains(&dt.year) {
        return Err(crate::datetime::year_error());
    }
    if !(1..=12).contains(&dt.month) {
        return Err(OraError::new(1843, "not a valid month"));
    }
    if !valid(&dt) {
        return Err(OraError::new(
            1847,
            "day of month must be between 1 and last day of month",
        ));
    }
    Ok(dt)
}

pub fn date_literal(s: &str) -> Result<DateTime, OraError> {
    date_part(s.trim())
}

/// `TIMESTAMP '…'`: a TIMESTAMP, or a TIMESTAMP WITH TIME ZONE when a zone follows.
pub fn timestamp_literal(s: &str) -> Result<Datum, OraError> {
    let t = s.trim();
    let (date, rest) = t.split_once(' ').ok_or_else(mismatch)?;
    let mut dt = date_part(date)?;
    let rest = rest.trim_start();
    let (time, zone) = match rest.split_once(' ') {
        Some((a, b)) => (a, Some(b.trim())),
        None => match rest.find(['+', '-']) {
            Some(i) => (&rest[..i], Some(&rest[i..])),
            None => (rest, None),
        },
    };
    let (hms, frac) = time.split_once('.').unwrap_or((time, ""));
    let mut it = hms.splitn(3, ':');
    dt.hour = it.next().and_then(num).ok_or_else(mismatch)?;
    dt.minute = it.next().and_then(num).ok_or_else(mismatch)?;
    dt.second = it.next().and_then(num).ok_or_else(mismatch)?;
    if !frac.is_empty() {
        if frac.len() > 9 || !frac.bytes().all(|c| c.is_ascii_digit()) {
            return Err(mismatch());
        }
        let v: u32 = frac.parse().map_err(|_| mismatch())?;
        dt.nanosecond = v * 10u32.pow(9 - frac.len() as u32);
    }
    if dt.hour > 23 {
        return Err(OraError::new(1850, "hour must be between 0 and 23"));
    }
    if dt.minute > 59 {
        return Err(OraError::new(1851, "minutes must be between 0 and 59"));
    }
    if dt.second > 59 {
        return Err(OraError::new(1852, "seconds must be between 0 and 59"));
    }
    Ok(match zone {
        None | Some("") => Datum::Timestamp(dt),
        Some(z) => {
            let off = if utc_alias(z) {
                0
            } else {
                parse_offset(z).ok_or_else(|| {
                    if z.contains('/') {
                        crate::unimplemented(&format!(
                            "the time zone region {z} (only offsets and UTC)"
                        ))
                    } else {
                        OraError::new(1882, "timezone region not found")
                    }
                })?
            };
            Datum::TimestampTz {
                at: dt,
                offset_minutes: off,
            }
        }
    })
}

/// `[+|-]years[-months]` (or by unit): total months.
pub fn interval_ym(s: &str) -> Result<i64, OraError> {
    interval_months(s, IntervalUnit::YearToMonth)
}

/// `[+|-]days [hh[:mi[:ss[.f]]]]`: total nanoseconds.
pub fn interval_ds(s: &str) -> Result<i128, OraError> {
    interval_nanos(s, IntervalUnit::DayToSecond)
}

fn sign(s: &str) -> (bool, &str) {
    let t = s.trim();
    match t.strip_prefix('-') {
        Some(r) => (true, r.trim_start()),
        None => (false, t.strip_prefix('+').unwrap_or(t).trim_start()),
    }
}

fn interval_months(s: &str, unit: IntervalUnit) -> Result<i64, OraError> {
    let (neg, body) = sign(s);
    let months = match unit {
        IntervalUnit::YearToMonth => {
            let (y, m) = body.split_once('-').unwrap_or((body, "0"));
            let y: i64 = num(y)
                .filter(|y| *y < 1_000_000_000)
                .ok_or_else(bad_interval)?;
            let m: i64 = num(m).ok_or_else(bad_interval)?;
            if m > 11 {
                return Err(OraError::new(1843, "not a valid month"));
            }
            y * 12 + m
        }
        IntervalUnit::Year => {
            num::<i64>(body)
                .filter(|y| *y < 1_000_000_000)
                .ok_or_else(bad_interval)?
                * 12
        }
        _ => num::<i64>(body).ok_or_else(bad_interval)?,
    };
    Ok(if neg { -months } else { months })
}

/// Interval fields beyond this many units are invalid (Oracle's precision is 9 digits).
const LIMIT: i128 = 1_000_000_000_000;

fn seconds_part(s: &str) -> Result<i128, OraError> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    let w: i128 = num(whole).filter(|w| *w < LIMIT).ok_or_else(bad_interval)?;
    let mut n = w * NANOS_PER_SEC;
    if !frac.is_empty() {
        if frac.len() > 9 || !frac.bytes().all(|c| c.is_ascii_digit()) {
            return Err(bad_interval());
        }
        let f: i128 = frac.parse().map_err(|_| bad_interval())?;
        n += f * 10i128.pow(9 - frac.len() as u32);
    }
    Ok(n)
}

fn interval_nanos(s: &str, unit: IntervalUnit) -> Result<i128, OraError> {
    use IntervalUnit::*;
    let (neg, body) = sign(s);
    let (day, time) = match unit {
        DayToSecond | DayToHour | DayToMinute | Day => match body.split_once(' ') {
            Some((d, t)) => (Some(d), Some(t.trim())),
            None if unit == Day => (Some(body), None),
            None if body.contains(':') => (None, Some(body)),
            None => (Some(body), None),
        },
        _ => (None, Some(body)),
    };
    let mut n: i128 = 0;
    if let Some(d) = day {
        n += num::<i128>(d)
            .filter(|d| *d < LIMIT)
            .ok_or_else(bad_interval)?
            * 86_400
            * NANOS_PER_SEC;
    }
    if let Some(t) = time {
        let parts: Vec<&str> = t.split(':').collect();
        // Which units the parts stand for, from the leading field.
        let lead: u8 = match unit {
            Minute | MinuteToSecond => 1,
            Second => 2,
            _ => 0,
        };
        for (k, p) in parts.iter().enumerate() {
            let field = lead as usize + k;
            let part = |p: &str| {
                num::<i128>(p)
                    .filter(|v| *v < LIMIT)
                    .ok_or_else(bad_interval)
            };
            n += match field {
                0 => part(p)? * 3600 * NANOS_PER_SEC,
                1 => part(p)? * 60 * NANOS_PER_SEC,
                2 => seconds_part(p)?,
                _ => return Err(bad_interval()),
            };
        }
    }
    Ok(if neg { -n } else { n })
}

/// `INTERVAL '…' unit`.
pub fn interval(s: &str, unit: IntervalUnit) -> Result<Datum, OraError> {
    use IntervalUnit::*;
    Ok(match unit {
        YearToMonth | Year | Month => Datum::IntervalYm(interval_months(s, unit)?),
        _ => Datum::IntervalDs(interval_nanos(s, unit)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(
            date_literal("2020-01-31").unwrap().date_text(),
            "2020-01-31 00:00:00"
        );
        assert_eq!(date_literal("2020-02-30").unwrap_err().code, 1847);
        assert_eq!(date_literal("20200101").unwrap_err().code, 1861);
        assert_eq!(
            timestamp_literal("2020-01-31 10:00:00.5").unwrap(),
            Datum::Timestamp(DateTime::parse("2020-01-31 10:00:00.5").unwrap())
        );
        assert!(matches!(
            timestamp_literal("2020-01-31 10:00:00 +02:00").unwrap(),
            Datum::TimestampTz {
                offset_minutes: 120,
                ..
            }
        ));
        assert_eq!(
            interval("1-6", IntervalUnit::YearToMonth).unwrap(),
            Datum::IntervalYm(18)
        );
        assert_eq!(
            interval("1 02:03:04.5", IntervalUnit::DayToSecond).unwrap(),
            Datum::IntervalDs(((86_400 + 7_384) * 1_000_000_000) + 500_000_000)
        );
        assert_eq!(
            interval("90", IntervalUnit::Minute).unwrap(),
            Datum::IntervalDs(5_400 * 1_000_000_000)
        );
        assert_eq!(interval("x", IntervalUnit::Day).unwrap_err().code, 1867);
    }
}
