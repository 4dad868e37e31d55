//! Civil time as LogMiner and the flashback reads write it (`YYYY-MM-DD HH24:MI:SS[.FF]`,
//! proleptic Gregorian, UTC) to epoch numbers, by hand: it is on the export's and the stream's
//! hot paths, where a general date parser cost a measurable share of a DATE column.

/// Epoch time of `YYYY-MM-DD HH24:MI:SS[.FF]` in milliseconds (3), micro- (6) or nanoseconds (9).
pub fn epoch(s: &str, unit: u32) -> Option<i64> {
    // The canonical text has fixed positions: parse it by hand (this is the export's hot path).
    // `trim` only when needed: it is a measurable share of a DATE column's export.
    let digit = |c: Option<&u8>| c.is_some_and(u8::is_ascii_digit);
    let b = match digit(s.as_bytes().first()) && digit(s.as_bytes().last()) {
        true => s.as_bytes(),
        false => s.trim().as_bytes(),
    };
    let (head, frac) = b.split_at_checked(19)?;
    let secs = civil_seconds(head)?;
    let mut nanos = 0i64;
    if let Some((&dot, frac)) = frac.split_first() {
        if dot != b'.' || frac.is_empty() || frac.len() > 9 || !frac.iter().all(u8::is_ascii_digit)
        {
            return None;
        }
        for i in 0..9 {
            nanos = nanos * 10 + frac.get(i).map(|c| i64::from(c - b'0')).unwrap_or(0);
        }
    }
    match unit {
        3 => Some(secs * 1000 + nanos / 1_000_000),
        6 => Some(secs * 1_000_000 + nanos / 1000),
        _ => secs.checked_mul(1_000_000_000)?.checked_add(nanos),
    }
}

/// Seconds since the epoch of exactly `YYYY-MM-DD HH24:MI:SS` (19 bytes, no fraction, no
/// blanks), or `None` when `b` is not that text with a month, day and time in range.
#[inline]
pub fn civil_seconds(b: &[u8]) -> Option<i64> {
    let b: &[u8; 19] = b.try_into().ok()?;
    // The text as three overlapping words, `YYYY-MM-`, `DD HH:MI` and `HH:MI:SS`, each checked
    // in a few word operations (a byte-by-byte check was most of a DATE cell's cost).
    let word = |i: usize| {
        u64::from_le_bytes([
            b[i],
            b[i + 1],
            b[i + 2],
            b[i + 3],
            b[i + 4],
            b[i + 5],
            b[i + 6],
            b[i + 7],
        ])
    };
    // Per word: which bytes are digits, and what the others must be.
    const DIGITS: [u64; 3] = [
        0x00ff_ff00_ffff_ffff,
        0xffff_00ff_ff00_ffff,
        0xffff_00ff_ff00_ffff,
    ];
    const SEPARATORS: [u64; 3] = [
        0x2d00_002d_0000_0000,
        0x0000_3a00_0020_0000,
        0x0000_3a00_003a_0000,
    ];
    let mut bad = 0;
    for (w, (digits, separators)) in [word(0), word(8), word(11)]
        .into_iter()
        .zip(DIGITS.into_iter().zip(SEPARATORS))
    {
        let high = digits & 0xf0f0_f0f0_f0f0_f0f0;
        let threes = digits & 0x3030_3030_3030_3030;
        // A digit is `0x3_` with a low half below 10: adding 6 keeps the high half at 3.
        bad |= (w & !digits) ^ separators;
        bad |= (w & high) ^ threes;
        bad |= (w.wrapping_add(digits & 0x0606_0606_0606_0606) & high) ^ threes;
    }
    if bad != 0 {
        return None;
    }
    let d = |i: usize| u32::from(b[i] - b'0');
    let y = d(0) * 1000 + d(1) * 100 + d(2) * 10 + d(3);
    let (m, day) = (d(5) * 10 + d(6), d(8) * 10 + d(9));
    let (hh, mi, ss) = (d(11) * 10 + d(12), d(14) * 10 + d(15), d(17) * 10 + d(18));
    if !(1..=12).contains(&m) || !(1..=31).contains(&day) || hh > 23 || mi > 59 || ss > 60 {
        return None;
    }
    let secs = i64::from(hh * 3600 + mi * 60 + ss);
    Some(days_from_civil_0_9999(y, m, day) * 86_400 + secs)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`)
/// of a year 0 to 9999 (what 4 digits hold), in unsigned arithmetic: the
/// years counted from 400 years earlier, so that none is negative (an era is 146,097 days).
#[inline]
pub fn days_from_civil_0_9999(y: u32, m: u32, d: u32) -> i64 {
    let y = y + 400 - u32::from(m <= 2);
    let era = y / 400;
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    i64::from(era) * 146_097 + i64::from(doe) - 719_468 - 146_097
}

/// Milliseconds since the epoch of a `YYYY-MM-DD HH24:MI:SS[.FF]` text (UTC).
pub fn epoch_ms(s: &str) -> Option<i64> {
    epoch(s, 3)
}

/// Push `n`'s decimal digits, at least `width` of them (zero-padded).
pub fn push_digits(s: &mut impl std::fmt::Write, mut n: u64, width: usize) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 && buf.len() - i >= width {
            break;
        }
    }
    // SAFETY: `buf[i..]` holds only ASCII digits, and ASCII is valid UTF-8 (validating them
    // again was a fortieth of a fetched row's cost). Writing to a string cannot fail.
    let _ = s.write_str(unsafe { std::str::from_utf8_unchecked(&buf[i..]) });
}

/// [`now_ms`] from the kernel's coarse clock, which moves once a tick (1–4 ms): for a marker
/// set around every record written (the sink's busy-since time, checked against 200 ms), where
/// the precise clock was a twelfth of a snapshot's user time. [`now_ms`] elsewhere than Linux.
pub fn now_ms_coarse() -> i64 {
    #[cfg(target_os = "linux")]
    if let Some((secs, nanos)) = kernel_clock(libc::CLOCK_REALTIME_COARSE) {
        return secs * 1000 + nanos / 1_000_000;
    }
    now_ms()
}

/// The wall clock in nanoseconds since the epoch (0 for a clock set before it), read from the
/// kernel's clock directly: Debezium's `ts_ms`/`ts_us`/`ts_ns` of every record, where
/// `SystemTime`'s checked subtraction and 128-bit nanoseconds were a third of the clock's cost.
pub fn now_ns() -> i64 {
    #[cfg(target_os = "linux")]
    if let Some((secs, nanos)) = kernel_clock(libc::CLOCK_REALTIME) {
        return (secs * 1_000_000_000 + nanos).max(0);
    }
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0)
}

/// The seconds and nanoseconds of the kernel's clock `clock`; `None` if the call fails.
#[cfg(target_os = "linux")]
fn kernel_clock(clock: libc::clockid_t) -> Option<(i64, i64)> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec the call writes; CLOCK_REALTIME and
    // CLOCK_REALTIME_COARSE (since Linux 2.6.32) exist.
    if unsafe { libc::clock_gettime(clock, &mut ts) } != 0 {
        return None;
    }
    // time_t and c_long are 32 bits on 32-bit Linux.
    #[allow(clippy::unnecessary_cast)]
    Some((ts.tv_sec as i64, ts.tv_nsec as i64))
}

/// The wall clock in milliseconds since the epoch (0 for a clock set before it).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The coarse clock is the wall clock a tick behind at most (a wrong clock id or unit
    /// would put it seconds or years away), and it does not go back.
    #[test]
    fn the_coarse_clock_keeps_to_the_wall_clock() {
        let mut last = now_ms_coarse();
        for _ in 0..200 {
            let (before, coarse, after) = (now_ms(), now_ms_coarse(), now_ms());
            assert!(
                coarse >= before - 50 && coarse <= after + 1,
                "{before} {coarse} {after}"
            );
            assert!(coarse >= last, "went back from {last} to {coarse}");
            last = coarse;
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
    }

    /// The nanosecond clock read from the kernel lies between two readings of the standard
    /// library's.
    #[test]
    fn the_nanosecond_clock_is_the_wall_clock() {
        let std_ns = || {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as i64
        };
        for _ in 0..100 {
            let (before, ns, after) = (std_ns(), now_ns(), std_ns());
            assert!(before <= ns && ns <= after, "{before} {ns} {after}");
        }
    }
}
