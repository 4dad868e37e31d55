//! Numbers: TO_NUMBER of text (exact, rounded like NUMBER) and BINARY_FLOAT/DOUBLE parsing.
use super::typing::K;
use super::BAD_NUMBER;

/// Sign, integer digits, fraction digits and exponent of a TO_NUMBER-able text.
pub(super) fn split_number(s: &str) -> Option<(bool, &str, &str, i64)> {
    // Implicit TO_NUMBER ignores surrounding blanks.
    let t = s.trim_matches(' ');
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let digits = |x: &str| x.bytes().all(|c| c.is_ascii_digit());
    if int.len() + frac.len() == 0 || !digits(int) || !digits(frac) {
        return None;
    }
    let exp = match exp {
        None => 0,
        Some(e) => {
            let (neg, d) = match e.as_bytes().first() {
                Some(b'-') => (true, &e[1..]),
                Some(b'+') => (false, &e[1..]),
                _ => (false, e),
            };
            if d.is_empty() || !digits(d) {
                return None;
            }
            let v = d
                .bytes()
                .fold(0i64, |a, c| (a * 10 + i64::from(c - b'0')).min(1 << 40));
            if neg {
                -v
            } else {
                v
            }
        }
    };
    Some((neg, int, frac, exp))
}

/// TO_NUMBER: exact decimal text as Oracle prints it (`-1.5`, `.5`), rounded like NUMBER.
pub(super) fn to_number(s: &str) -> std::result::Result<String, &'static str> {
    let (neg, int, frac, exp) = split_number(s).ok_or(BAD_NUMBER)?;
    let all: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
    let lead = all.iter().take_while(|&&c| c == b'0').count();
    let mut d: Vec<u8> = all[lead..].to_vec();
    while d.last() == Some(&b'0') {
        d.pop();
    }
    if d.is_empty() {
        return Ok("0".into());
    }
    // Digits before the decimal point, counted from the first significant digit.
    let mut point = int.len() as i64 - lead as i64 + exp;
    // NUMBER keeps 20 base-100 digits aligned on the decimal point: 40 significant decimal
    // digits when the first pair is full, 39 when it holds one digit.
    let keep = if point.rem_euclid(2) == 0 { 40 } else { 39 };
    if d.len() > keep {
        let up = d[keep] >= b'5';
        d.truncate(keep);
        if up {
            let mut k = keep;
            loop {
                if k == 0 {
                    d.insert(0, b'1');
                    point += 1;
                    break;
                }
                k -= 1;
                if d[k] == b'9' {
                    d[k] = b'0';
                } else {
                    d[k] += 1;
                    break;
                }
            }
        }
        while d.last() == Some(&b'0') {
            d.pop();
        }
    }
    if point > 126 {
        return Err("ORA-01426: numeric overflow");
    }
    if point < -129 {
        return Ok("0".into());
    }
    let digits: String = d.iter().map(|&c| char::from(c)).collect();
    let (n, p) = (digits.len(), point.unsigned_abs() as usize);
    let body = if point <= 0 {
        format!(".{}{digits}", "0".repeat(p))
    } else if p >= n {
        format!("{digits}{}", "0".repeat(p - n))
    } else {
        format!("{}.{}", &digits[..p], &digits[p..])
    };
    Ok(if neg { format!("-{body}") } else { body })
}

pub(super) fn negate(s: String) -> String {
    match s.strip_prefix('-') {
        Some(r) => r.to_string(),
        None if s == "0" => s,
        None => format!("-{s}"),
    }
}

pub(super) fn parse_float(s: &str, single: bool) -> std::result::Result<K<'static>, &'static str> {
    let t = s.trim_matches(' ');
    // Parsing straight to f32 rounds once, as TO_BINARY_FLOAT does.
    let v = if single {
        t.parse::<f32>().map(f64::from).ok()
    } else {
        t.parse::<f64>().ok()
    };
    v.map(K::F).ok_or(BAD_NUMBER)
}
