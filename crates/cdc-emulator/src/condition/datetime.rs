//! Datetimes: the session's NLS formats, TO_DATE/TO_TIMESTAMP parsing and format models,
//! and ANSI `DATE`/`TIMESTAMP` literals.
use super::typing::{Lit, Ty};
use super::unimpl;

/// A point in time: seconds since 0000-03-01 UTC (proleptic Gregorian) and nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Dt {
    secs: i64,
    nanos: u32,
}

/// Datetime format elements the emulator knows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum El {
    Y,
    Mo,
    D,
    H,
    Mi,
    S,
    Ff,
    Tzh,
    Tzm,
}

/// A format model: each element with the length of the punctuation before it (blanks aside).
pub(super) type Fmt = [(u8, El)];

pub(super) const TSTZ_FMT: &Fmt = &[
    (0, El::Y),
    (1, El::Mo),
    (1, El::D),
    (0, El::H),
    (1, El::Mi),
    (1, El::S),
    (1, El::Ff),
    (0, El::Tzh),
    (1, El::Tzm),
];
pub(super) const TS_FMT: &Fmt = TSTZ_FMT.split_at(7).0;
pub(super) const DATE_FMT: &Fmt = TSTZ_FMT.split_at(6).0;

/// TO_DATE/TO_TIMESTAMP without FX: any punctuation may separate fields, numbers may have fewer
/// digits, and a text that ends early leaves the rest at their defaults (day 1, time 0, the
/// session zone). Returns the value and a bit per element read.
pub(super) fn parse_dt(s: &str, fmt: &Fmt) -> std::result::Result<(Dt, u16), &'static str> {
    let b = s.as_bytes();
    let (mut i, mut v, mut seen, mut tz_neg) = (0, [0i64; 9], 0u16, false);
    v[El::D as usize] = 1;
    for &(punct, el) in fmt {
        let sep = i;
        while i < b.len()
            && !b[i].is_ascii_alphanumeric()
            && !(el == El::Tzh && matches!(b[i], b'+' | b'-'))
        {
            i += 1;
        }
        if i == b.len() {
            break;
        }
        // Fractional seconds only follow a decimal separator; otherwise the element is absent.
        if el == El::Ff && !matches!(&s[sep..i], "." | ",") {
            i = sep;
            continue;
        }
        // Blanks are free, other punctuation must be as long as the format's (or absent).
        let got = s[sep..i].bytes().filter(|c| *c != b' ').count();
        if got != 0 && got != usize::from(punct) {
            return Err("ORA-01861: literal does not match format string");
        }
        if el == El::Tzh && matches!(b[i], b'+' | b'-') {
            tz_neg = b[i] == b'-';
            i += 1;
        }
        let max = match el {
            El::Y => 4,
            El::Ff => 9,
            _ => 2,
        };
        let start = i;
        while i < b.len() && i - start < max && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return Err(
                "ORA-01858: a non-numeric character was found where a numeric was expected",
            );
        }
        let mut x = b[start..i]
            .iter()
            .fold(0i64, |a, c| a * 10 + i64::from(c - b'0'));
        if el == El::Ff {
            x *= 10i64.pow((9 - (i - start)) as u32);
        }
        v[el as usize] = x;
        seen |= 1 << el as u16;
    }
    if !s[i..].trim_matches(' ').is_empty() {
        return Err("ORA-01830: date format picture ends before converting entire input string");
    }
    if seen & 0b11 != 0b11 {
        // Oracle would take the current year or month: the emulator has no such clock here.
        return Err("ORA-03001: unimplemented feature (the emulator needs the year and month of a datetime)");
    }
    let [y, mo, d, h, mi, sec, ns, tzh, tzm] = v;
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days_in = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if y == 0 {
        return Err("ORA-01841: (full) year must be between -4713 and +9999, and not be 0");
    }
    if !(1..=12).contains(&mo) {
        return Err("ORA-01843: not a valid month");
    }
    if d < 1 || d > days_in[(mo - 1) as usize] {
        return Err("ORA-01847: day of month must be between 1 and last day of month");
    }
    if h > 23 {
        return Err("ORA-01850: hour must be between 0 and 23");
    }
    if mi > 59 {
        return Err("ORA-01851: minutes must be between 0 and 59");
    }
    if sec > 59 {
        return Err("ORA-01852: seconds must be between 0 and 59");
    }
    if tzh > 15 {
        return Err("ORA-01874: time zone hour must be between -15 and 15");
    }
    if tzm > 59 {
        return Err("ORA-01875: time zone minute must be between -59 and 59");
    }
    // Days from civil (H. Hinnant), counted from 0000-03-01.
    let yy = if mo <= 2 { y - 1 } else { y };
    let (era, yoe) = (yy.div_euclid(400), yy.rem_euclid(400));
    let doy = (153 * ((mo + 9) % 12) + 2) / 5 + d - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let offset = (tzh * 60 + tzm) * if tz_neg { -60 } else { 60 };
    let secs = days * 86_400 + h * 3600 + mi * 60 + sec - offset;
    Ok((
        Dt {
            secs,
            nanos: ns as u32,
        },
        seen,
    ))
}

/// A TO_DATE/TO_TIMESTAMP format model, restricted to numeric fields.
pub(super) fn parse_format(f: &str, timestamp: bool) -> std::result::Result<Vec<(u8, El)>, String> {
    const SUPPORTED: [(&str, El); 6] = [
        ("YYYY", El::Y),
        ("HH24", El::H),
        ("MM", El::Mo),
        ("DD", El::D),
        ("MI", El::Mi),
        ("SS", El::S),
    ];
    // Valid Oracle elements the emulator does not parse (checked first where they start like a
    // supported one: SSSSS, DDD).
    const OTHER: &str = "SSSSS DDD DAY DY DL DS D MONTH MON RM HH12 HH SYYYY IYYY IYY IY I YYY \
        YY Y RRRR RR AM PM A.M. P.M. AD BC A.D. B.C. FX FM TZH TZM TZR TZD J Q WW IW W SCC CC \
        EE E TS X";
    let u = f.to_uppercase();
    let (mut i, mut out, mut punct) = (0, Vec::new(), 0u8);
    while i < u.len() {
        let r = &u[i..];
        if r.starts_with(['-', '/', ',', '.', ';', ':', ' ']) {
            punct += u8::from(!r.starts_with(' '));
            i += 1;
        } else if timestamp && r.starts_with("FF") {
            i += 2 + usize::from(r[2..].starts_with(|c: char| ('1'..='9').contains(&c)));
            out.push((std::mem::take(&mut punct), El::Ff));
        } else if let Some((k, el)) = SUPPORTED
            .iter()
            .find(|(k, _)| r.starts_with(k) && !r.starts_with("SSSSS") && !r.starts_with("DDD"))
        {
            i += k.len();
            out.push((std::mem::take(&mut punct), *el));
        } else if r.starts_with('"') || OTHER.split(' ').any(|k| r.starts_with(k)) {
            return Err(unimpl(&format!("the format element at `{r}`")));
        } else {
            return Err("ORA-01821: date format not recognized".into());
        }
    }
    Ok(out)
}

/// `DATE 'YYYY-MM-DD'` and `TIMESTAMP 'YYYY-MM-DD HH24:MI:SS[.FF][ TZH:TZM]'`: every field up to
/// the seconds must be there, and a mismatch is ORA-01861 rather than TO_DATE's errors.
pub(super) fn ansi_literal(
    timestamp: bool,
    s: &str,
) -> std::result::Result<(Ty, Lit), &'static str> {
    const MISMATCH: &str = "ORA-01861: literal does not match format string";
    let fmt = if timestamp { TSTZ_FMT } else { &DATE_FMT[..3] };
    let (dt, seen) = parse_dt(s, fmt).map_err(|m| {
        let shape = ["ORA-01858", "ORA-01830", "ORA-03001"];
        if shape.iter().any(|c| m.starts_with(c)) {
            MISMATCH
        } else {
            m
        }
    })?;
    let needed: u16 = if timestamp { 0b11_1111 } else { 0b111 };
    if seen & needed != needed {
        return Err(MISMATCH);
    }
    let ty = match (timestamp, seen & 1 << El::Tzh as u16 != 0) {
        (false, _) => Ty::Date,
        (true, false) => Ty::Ts,
        (true, true) => Ty::Tstz,
    };
    Ok((ty, Lit::Dt(dt)))
}
