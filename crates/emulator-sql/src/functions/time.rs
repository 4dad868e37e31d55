//! Datetime functions: TRUNC / ROUND of a datetime (to a DATE), ADD_MONTHS, LAST_DAY,
//! MONTHS_BETWEEN, SYS_EXTRACT_UTC, FROM_TZ, EXTRACT.

use super::{arg, int_arg, text_arg, Builtin, FuncCall};
use crate::convert::{to_date, to_tstz};
use crate::datetime::{
    add_months, days_from_civil, days_in_month, from_seconds, parse_offset, shift_zone, to_seconds,
    utc_alias, weekday,
};
use crate::ex::{is_null, Cx};
use crate::number::Dec;
use crate::{DateTime, Datum, OraError};

fn bad_precision() -> OraError {
    OraError::new(1899, "bad precision specifier")
}

/// The start of the unit a TRUNC / ROUND format names.
fn unit_start(dt: &DateTime, unit: &str) -> Result<DateTime, OraError> {
    let day = |d: &DateTime| DateTime::date(d.year, d.month, d.day);
    Ok(match unit {
        "DD" | "DDD" | "J" => day(dt),
        "HH" | "HH12" | "HH24" => DateTime {
            minute: 0,
            second: 0,
            nanosecond: 0,
            ..*dt
        },
        "MI" => DateTime {
            second: 0,
            nanosecond: 0,
            ..*dt
        },
        "MM" | "MON" | "MONTH" | "RM" => DateTime::date(dt.year, dt.month, 1),
        "YYYY" | "SYYYY" | "YEAR" | "SYEAR" | "YYY" | "YY" | "Y" | "RRRR" | "RR" => {
            DateTime::date(dt.year, 1, 1)
        }
        "Q" => DateTime::date(dt.year, dt.month.saturating_sub(1) / 3 * 3 + 1, 1),
        "DAY" | "DY" | "D" => {
            let back = i64::from(weekday(dt)) - 1;
            let d = days_from_civil(dt.year, dt.month, dt.day) - back;
            from_seconds(d * 86_400, 0)?
        }
        "IW" => {
            // ISO weeks start on Monday.
            let back = (i64::from(weekday(dt)) + 5) % 7;
            let d = days_from_civil(dt.year, dt.month, dt.day) - back;
            from_seconds(d * 86_400, 0)?
        }
        "WW" | "W" => {
            let first = if unit == "WW" {
                DateTime::date(dt.year, 1, 1)
            } else {
                DateTime::date(dt.year, dt.month, 1)
            };
            let delta = days_from_civil(dt.year, dt.month, dt.day)
                - days_from_civil(first.year, first.month, first.day);
            let d = days_from_civil(first.year, first.month, first.day) + delta / 7 * 7;
            from_seconds(d * 86_400, 0)?
        }
        "CC" | "SCC" => {
            let y = i64::from(dt.year);
            let start = (y - 1).div_euclid(100) * 100 + 1;
            DateTime::date(start as i32, 1, 1)
        }
        _ => return Err(bad_precision()),
    })
}

/// The start of the next unit (for ROUND's halfway point).
fn unit_next(start: &DateTime, unit: &str) -> Result<DateTime, OraError> {
    let secs = to_seconds(start);
    Ok(match unit {
        "DD" | "DDD" | "J" => from_seconds(secs + 86_400, 0)?,
        "HH" | "HH12" | "HH24" => from_seconds(secs + 3_600, 0)?,
        "MI" => from_seconds(secs + 60, 0)?,
        "MM" | "MON" | "MONTH" | "RM" => add_months(start, 1)?,
        "Q" => add_months(start, 3)?,
        "YYYY" | "SYYYY" | "YEAR" | "SYEAR" | "YYY" | "YY" | "Y" | "RRRR" | "RR" => {
            add_months(start, 12)?
        }
        "DAY" | "DY" | "D" | "IW" | "WW" | "W" => from_seconds(secs + 7 * 86_400, 0)?,
        "CC" | "SCC" => add_months(start, 1200)?,
        _ => return Err(bad_precision()),
    })
}

pub fn trunc_round(f: &FuncCall, v: &Datum, cx: &Cx<'_>) -> Result<Datum, OraError> {
    let Some(dt) = to_date(v, cx.env)? else {
        return Ok(Datum::Null);
    };
    let unit = if f.args.len() > 1 {
        match text_arg(f, 1, cx)? {
            None => return Ok(Datum::Null),
            Some(u) => u.trim().to_ascii_uppercase(),
        }
    } else {
        "DD".to_string()
    };
    let start = unit_start(&dt, &unit)?;
    if f.f == Builtin::Trunc {
        return Ok(Datum::Date(start));
    }
    let next = unit_next(&start, &unit)?;
    // ROUND goes up from the unit's midpoint on (noon, the 16th, July 1st …).
    let (s, n, x) = (to_seconds(&start), to_seconds(&next), to_seconds(&dt));
    let up = match unit.as_str() {
        "MM" | "MON" | "MONTH" | "RM" => dt.day >= 16,
        "YYYY" | "SYYYY" | "YEAR" | "SYEAR" | "YYY" | "YY" | "Y" | "RRRR" | "RR" => dt.month >= 7,
        // A quarter rounds up from the 16th day of its second month.
        "Q" => {
            let m = dt.month.saturating_sub(1) % 3;
            m == 2 || (m == 1 && dt.day >= 16)
        }
        _ => (x - s) * 2 >= n - s,
    };
    Ok(Datum::Date(if up { next } else { start }))
}

pub fn call(f: &FuncCall, cx: &Cx<'_>) -> Result<Datum, OraError> {
    use Builtin::*;
    let v = arg(f, 0, cx)?;
    if is_null(&v) {
        return Ok(Datum::Null);
    }
    match f.f {
        AddMonths => {
            let Some(dt) = to_date(&v, cx.env)? else {
                return Ok(Datum::Null);
            };
            let Some(n) = int_arg(f, 1, cx)? else {
                return Ok(Datum::Null);
            };
            Ok(Datum::Date(add_months(&dt, n)?))
        }
        LastDay => {
            let Some(dt) = to_date(&v, cx.env)? else {
                return Ok(Datum::Null);
            };
            Ok(Datum::Date(DateTime {
                day: days_in_month(dt.year, dt.month),
                ..dt
            }))
        }
        MonthsBetween => {
            let w = arg(f, 1, cx)?;
            let (Some(a), Some(b)) = (to_date(&v, cx.env)?, to_date(&w, cx.env)?) else {
                return Ok(Datum::Null);
            };
            months_between(&a, &b)
        }
        SysExtractUtc => {
            let Some((at, off)) = to_tstz(&v, cx.env)? else {
                return Ok(Datum::Null);
            };
            Ok(Datum::Timestamp(shift_zone(&at, off, 0)?))
        }
        FromTz => {
            let Some(zone) = text_arg(f, 1, cx)? else {
                return Ok(Datum::Null);
            };
            let off = match parse_offset(&zone) {
                Some(o) => o,
                None if utc_alias(&zone) => 0,
                None => {
                    return Err(crate::unimplemented(&format!(
                        "the time zone region {zone} (only offsets and UTC)"
                    )))
                }
            };
            let at = match v.as_ref() {
                Datum::Timestamp(t) | Datum::Date(t) => *t,
                _ => return Err(crate::types::inconsistent("TIMESTAMP", "CHAR")),
            };
            Ok(Datum::TimestampTz {
                at,
                offset_minutes: off,
            })
        }
        Extract(field) => extract(field, &v, cx),
        _ => Ok(Datum::Null),
    }
}

/// Oracle's MONTHS_BETWEEN: whole months when the days match or both are month ends,
/// otherwise the difference in days over 31 added.
fn months_between(a: &DateTime, b: &DateTime) -> Result<Datum, OraError> {
    let months =
        (i64::from(a.year) - i64::from(b.year)) * 12 + i64::from(a.month) - i64::from(b.month);
    let a_end = a.day == days_in_month(a.year, a.month);
    let b_end = b.day == days_in_month(b.year, b.month);
    if a.day == b.day || (a_end && b_end) {
        return Ok(Datum::int(months));
    }
    let secs_a = i64::from(a.day) * 86_400
        + i64::from(a.hour) * 3600
        + i64::from(a.minute) * 60
        + i64::from(a.second);
    let secs_b = i64::from(b.day) * 86_400
        + i64::from(b.hour) * 3600
        + i64::from(b.minute) * 60
        + i64::from(b.second);
    let frac = Dec::from_i128(i128::from(secs_a - secs_b)).div(&Dec::from_i128(31 * 86_400))?;
    let total = Dec::from_i128(i128::from(months)).add(&frac);
    Ok(Datum::Number(total.fit()?.to_canonical().into()))
}

fn extract(field: &str, v: &Datum, cx: &Cx<'_>) -> Result<Datum, OraError> {
    let invalid = || OraError::new(30076, "invalid extract field for extract source");
    match v {
        Datum::IntervalYm(m) => {
            return Ok(match field {
                "YEAR" => Datum::int(m / 12),
                "MONTH" => Datum::int(m % 12),
                _ => return Err(invalid()),
            })
        }
        Datum::IntervalDs(n) => {
            let secs = n / 1_000_000_000;
            return Ok(match field {
                "DAY" => Datum::int(secs / 86_400),
                "HOUR" => Datum::int(secs % 86_400 / 3600),
                "MINUTE" => Datum::int(secs % 3600 / 60),
                "SECOND" => {
                    let s =
                        Dec::from_i128(n % 60_000_000_000).div(&Dec::from_i128(1_000_000_000))?;
                    Datum::Number(s.fit()?.to_canonical().into())
                }
                _ => return Err(invalid()),
            });
        }
        _ => {}
    }
    let (at, off, has_time, has_zone) = match v {
        Datum::Date(d) => (*d, 0, false, false),
        Datum::Timestamp(d) => (*d, 0, true, false),
        Datum::TimestampTz { at, offset_minutes } => {
            // Fields of a TIMESTAMP WITH TIME ZONE are extracted in UTC.
            (
                shift_zone(at, *offset_minutes, 0)?,
                *offset_minutes,
                true,
                true,
            )
        }
        other => match to_date(other, cx.env)? {
            Some(d) => (d, 0, false, false),
            None => return Ok(Datum::Null),
        },
    };
    Ok(match field {
        "YEAR" => Datum::int(at.year),
        "MONTH" => Datum::int(at.month),
        "DAY" => Datum::int(at.day),
        "HOUR" if has_time => Datum::int(at.hour),
        "MINUTE" if has_time => Datum::int(at.minute),
        "SECOND" if has_time => {
            let s =
                Dec::from_i128(i128::from(at.second) * 1_000_000_000 + i128::from(at.nanosecond))
                    .div(&Dec::from_i128(1_000_000_000))?;
            Datum::Number(s.fit()?.to_canonical().into())
        }
        "TIMEZONE_HOUR" if has_zone => Datum::int(off / 60),
        "TIMEZONE_MINUTE" if has_zone => Datum::int(off % 60),
        "TIMEZONE_REGION" | "TIMEZONE_ABBR" if has_zone => Datum::Text("UNKNOWN".into()),
        _ => return Err(invalid()),
    })
}
