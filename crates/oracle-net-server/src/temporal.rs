//! DATE, TIMESTAMP (WITH (LOCAL) TIME ZONE) and INTERVAL values on the wire.
//!
//! Layouts (python-oracledb's `decode_date` / `decode_interval_*`):
//! - DATE, 7 bytes: century + 100, year of century + 100, month, day, hour + 1, minute + 1,
//!   second + 1.
//! - TIMESTAMP, 11 bytes: a DATE then nanoseconds as a big-endian u32.
//! - TIMESTAMP WITH TIME ZONE, 13 bytes: the TIMESTAMP in UTC, then the offset's hours + 20 and
//!   minutes + 60 (both carrying the offset's sign). Clients add the offset back, so the offset
//!   a value was stored with comes back to them.
//! - INTERVAL YEAR TO MONTH, 5 bytes: years + 2^31 (big-endian u32), months + 60.
//! - INTERVAL DAY TO SECOND, 11 bytes: days + 2^31, hours + 60, minutes + 60, seconds + 60,
//!   nanoseconds + 2^31; every field carries the interval's sign.

use oracle_datum::{DateTime, OraError};

const TZ_HOUR_OFFSET: i32 = 20;
const TZ_MINUTE_OFFSET: i32 = 60;
const DURATION_MID: i64 = 0x8000_0000;
const DURATION_OFFSET: i32 = 60;
const NANOS_PER_DAY: i128 = 86_400 * 1_000_000_000;

fn invalid_date(dt: &DateTime) -> OraError {
    OraError::new(
        1841,
        format!(
            "(full) year must be between -4713 and +9999, and not be 0 ({})",
            dt.year
        ),
    )
}

fn valid(dt: &DateTime) -> bool {
    (-4712..=9999).contains(&dt.year)
        && (1..=12).contains(&dt.month)
        && (1..=31).contains(&dt.day)
        && dt.hour < 24
        && dt.minute < 60
        && dt.second < 60
        && dt.nanosecond < 1_000_000_000
}

/// DATE bytes (fractional seconds dropped).
pub fn encode_date(dt: &DateTime) -> Result<[u8; 7], OraError> {
    if !valid(dt) {
        return Err(invalid_date(dt));
    }
    // Truncating division keeps BC years decodable by the clients' formula
    // `(b0 - 100) * 100 + b1 - 100`.
    Ok([
        (dt.year / 100 + 100) as u8,
        (dt.year % 100 + 100) as u8,
        dt.month,
        dt.day,
        dt.hour + 1,
        dt.minute + 1,
        dt.second + 1,
    ])
}

/// TIMESTAMP bytes.
pub fn encode_timestamp(dt: &DateTime) -> Result<[u8; 11], OraError> {
    let date = encode_date(dt)?;
    let mut out = [0u8; 11];
    out[..7].copy_from_slice(&date);
    out[7..].copy_from_slice(&dt.nanosecond.to_be_bytes());
    Ok(out)
}

/// TIMESTAMP WITH TIME ZONE bytes for local fields at `offset_minutes` east of UTC.
pub fn encode_timestamp_tz(local: &DateTime, offset_minutes: i16) -> Result<[u8; 13], OraError> {
    if offset_minutes.unsigned_abs() > 15 * 60 {
        return Err(OraError::new(
            1874,
            "time zone hour must be between -15 and 15",
        ));
    }
    let utc = shift_minutes(local, -i64::from(offset_minutes));
    let ts = encode_timestamp(&utc)?;
    let mut out = [0u8; 13];
    out[..11].copy_from_slice(&ts);
    let offset = i32::from(offset_minutes);
    out[11] = (offset / 60 + TZ_HOUR_OFFSET) as u8;
    out[12] = (offset % 60 + TZ_MINUTE_OFFSET) as u8;
    Ok(out)
}

/// The fields of DATE / TIMESTAMP bytes (7 or 11 bytes; 13 gives the UTC fields).
pub fn decode_datetime(b: &[u8]) -> Option<DateTime> {
    if !matches!(b.len(), 7 | 11 | 13) {
        return None;
    }
    let dt = DateTime {
        year: (i32::from(b[0]) - 100) * 100 + i32::from(b[1]) - 100,
        month: b[2],
        day: b[3],
        hour: b[4].checked_sub(1)?,
        minute: b[5].checked_sub(1)?,
        second: b[6].checked_sub(1)?,
        nanosecond: match b.get(7..11) {
            Some(n) => u32::from_be_bytes([n[0], n[1], n[2], n[3]]),
            None => 0,
        },
    };
    valid(&dt).then_some(dt)
}

/// TIMESTAMP WITH TIME ZONE bytes as (local fields, offset in minutes). Shorter forms (a client
/// may send a DATE or TIMESTAMP for one) are at offset zero; named time zone regions are not
/// understood (`None`).
pub fn decode_timestamp_tz(b: &[u8]) -> Option<(DateTime, i16)> {
    let utc = decode_datetime(b)?;
    if b.len() < 13 || b[11] == 0 || b[12] == 0 {
        return Some((utc, 0));
    }
    if b[11] & 0x80 != 0 {
        return None;
    }
    let offset = (i32::from(b[11]) - TZ_HOUR_OFFSET) * 60 + i32::from(b[12]) - TZ_MINUTE_OFFSET;
    let offset = i16::try_from(offset)
        .ok()
        .filter(|o| o.unsigned_abs() <= 15 * 60)?;
    Some((shift_minutes(&utc, i64::from(offset)), offset))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = if month > 2 { month - 3 } else { month + 9 };
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month as u8, day as u8)
}

/// The same instant's fields `minutes` later.
pub fn shift_minutes(dt: &DateTime, minutes: i64) -> DateTime {
    if minutes == 0 {
        return *dt;
    }
    let days = days_from_civil(i64::from(dt.year), i64::from(dt.month), i64::from(dt.day));
    let total = days * 1440 + i64::from(dt.hour) * 60 + i64::from(dt.minute) + minutes;
    let (year, month, day) = civil_from_days(total.div_euclid(1440));
    let in_day = total.rem_euclid(1440);
    DateTime {
        year: year as i32,
        month,
        day,
        hour: (in_day / 60) as u8,
        minute: (in_day % 60) as u8,
        second: dt.second,
        nanosecond: dt.nanosecond,
    }
}

fn interval_overflow() -> OraError {
    OraError::new(1873, "the leading precision of the interval is too small")
}

/// INTERVAL YEAR TO MONTH bytes of a signed number of months.
pub fn encode_interval_ym(months: i64) -> Result<[u8; 5], OraError> {
    let years = months / 12;
    let rest = (months % 12) as i32;
    if years.abs() > 999_999_999 {
        return Err(interval_overflow());
    }
    let mut out = [0u8; 5];
    out[..4].copy_from_slice(&((years + DURATION_MID) as u32).to_be_bytes());
    out[4] = (rest + DURATION_OFFSET) as u8;
    Ok(out)
}

pub fn decode_interval_ym(b: &[u8]) -> Option<i64> {
    let b: &[u8; 5] = b.try_into().ok()?;
    let years = i64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]])) - DURATION_MID;
    let months = i64::from(b[4]) - i64::from(DURATION_OFFSET);
    (months.abs() < 12).then_some(years * 12 + months)
}

/// INTERVAL DAY TO SECOND bytes of a signed number of nanoseconds.
pub fn encode_interval_ds(nanos: i128) -> Result<[u8; 11], OraError> {
    let days = nanos / NANOS_PER_DAY;
    if days.abs() > 999_999_999 {
        return Err(interval_overflow());
    }
    let rest = nanos % NANOS_PER_DAY;
    let seconds_total = rest / 1_000_000_000;
    let frac = (rest % 1_000_000_000) as i64;
    let hours = (seconds_total / 3600) as i32;
    let minutes = (seconds_total / 60 % 60) as i32;
    let seconds = (seconds_total % 60) as i32;
    let mut out = [0u8; 11];
    out[..4].copy_from_slice(&((days as i64 + DURATION_MID) as u32).to_be_bytes());
    out[4] = (hours + DURATION_OFFSET) as u8;
    out[5] = (minutes + DURATION_OFFSET) as u8;
    out[6] = (seconds + DURATION_OFFSET) as u8;
    out[7..].copy_from_slice(&((frac + DURATION_MID) as u32).to_be_bytes());
    Ok(out)
}

pub fn decode_interval_ds(b: &[u8]) -> Option<i128> {
    let b: &[u8; 11] = b.try_into().ok()?;
    let days = i128::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]])) - i128::from(DURATION_MID);
    let hours = i128::from(b[4]) - 60;
    let minutes = i128::from(b[5]) - 60;
    let seconds = i128::from(b[6]) - 60;
    let frac = i128::from(u32::from_be_bytes([b[7], b[8], b[9], b[10]])) - i128::from(DURATION_MID);
    if hours.abs() > 23 || minutes.abs() > 59 || seconds.abs() > 59 || frac.abs() >= 1_000_000_000 {
        return None;
    }
    Some(days * NANOS_PER_DAY + ((hours * 60 + minutes) * 60 + seconds) * 1_000_000_000 + frac)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dt(y: i32, mo: u8, d: u8, h: u8, mi: u8, s: u8, ns: u32) -> DateTime {
        DateTime {
            year: y,
            month: mo,
            day: d,
            hour: h,
            minute: mi,
            second: s,
            nanosecond: ns,
        }
    }

    #[test]
    fn dates_match_known_encodings() {
        let d = dt(2026, 12, 4, 10, 5, 9, 0);
        assert_eq!(encode_date(&d).unwrap(), [120, 126, 12, 4, 11, 6, 10]);
        assert_eq!(decode_datetime(&[120, 126, 12, 4, 11, 6, 10]), Some(d));
        let bc = dt(-4712, 1, 1, 0, 0, 0, 0);
        assert_eq!(decode_datetime(&encode_date(&bc).unwrap()), Some(bc));
        assert!(encode_date(&dt(10000, 1, 1, 0, 0, 0, 0)).is_err());
        assert_eq!(decode_datetime(&[120, 126, 13, 4, 11, 6, 10]), None);
    }

    #[test]
    fn timestamps_carry_nanoseconds() {
        let d = dt(1999, 12, 31, 23, 59, 59, 123_456_789);
        let b = encode_timestamp(&d).unwrap();
        assert_eq!(b, [119, 199, 12, 31, 24, 60, 60, 0x07, 0x5b, 0xcd, 0x15]);
        assert_eq!(decode_datetime(&b), Some(d));
    }

    #[test]
    fn time_zones_keep_their_offset() {
        // 2026-03-01 01:30 at -05:30 is 2026-03-01 07:00 UTC.
        let local = dt(2026, 3, 1, 1, 30, 0, 5);
        let b = encode_timestamp_tz(&local, -330).unwrap();
        assert_eq!(&b[..7], &[120, 126, 3, 1, 8, 1, 1]);
        assert_eq!(&b[11..], &[15, 30]);
        assert_eq!(decode_timestamp_tz(&b), Some((local, -330)));
        // Crossing a day and a leap day backwards.
        let local = dt(2024, 3, 1, 0, 15, 0, 0);
        let b = encode_timestamp_tz(&local, 120).unwrap();
        assert_eq!(&b[..7], &[120, 124, 2, 29, 23, 16, 1]);
        assert_eq!(decode_timestamp_tz(&b), Some((local, 120)));
    }

    #[test]
    fn day_arithmetic_matches_the_calendar() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11017);
        for days in [-800_000i64, -1, 0, 59, 10_957, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, i64::from(m), i64::from(d)), days);
        }
    }

    #[test]
    fn intervals_match_known_encodings() {
        assert_eq!(encode_interval_ym(14).unwrap(), [0x80, 0, 0, 1, 62]);
        assert_eq!(
            encode_interval_ym(-14).unwrap(),
            [0x7f, 0xff, 0xff, 0xff, 58]
        );
        for m in [0i64, 14, -14, 11, -999_999_999 * 12] {
            assert_eq!(decode_interval_ym(&encode_interval_ym(m).unwrap()), Some(m));
        }
        let n: i128 = (((24 + 2) * 60 + 3) * 60 + 4) * 1_000_000_000 + 5; // 1 day 02:03:04.000000005
        assert_eq!(
            encode_interval_ds(n).unwrap(),
            [0x80, 0, 0, 1, 62, 63, 64, 0x80, 0, 0, 5]
        );
        for v in [0i128, n, -n, -1, NANOS_PER_DAY * 99] {
            assert_eq!(decode_interval_ds(&encode_interval_ds(v).unwrap()), Some(v));
        }
        assert_eq!(decode_interval_ds(&[0; 11]), None);
    }
}
