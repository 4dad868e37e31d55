//! Oracle NUMBER on the wire, exactly: base-100 digits, never through a float.
//!
//! Layout (what python-oracledb's `decode_number` / `encode_number` read and write): an exponent
//! byte, then up to 20 mantissa bytes, each a base-100 digit. A positive number has the high bit
//! of the exponent set (`0xC1 + e` for a value `0.d1d2… × 100^(e+1)`) and digits stored as
//! `d + 1`; a negative one has the exponent byte inverted, digits stored as `101 - d` and, when
//! it has fewer than 20 mantissa bytes, a trailing 102. Zero is the single byte 0x80.
//! Binary floats and doubles use Oracle's sortable form: the sign bit flipped for positive
//! values, every bit inverted for negative ones.

use oracle_datum::{canonical_number, is_canonical_number, OraError};
use std::borrow::Cow;

/// Mantissa bytes a NUMBER may have.
const MAX_MANTISSA: usize = 20;

fn invalid_number(text: &str) -> OraError {
    OraError::new(1722, format!("invalid number ({text})"))
}

fn overflow() -> OraError {
    OraError::new(1426, "numeric overflow")
}

/// Splits canonical decimal text into (negative, significant digits, decimal point index), the
/// point index counting digits before the point (negative for leading fractional zeros).
fn split_digits(canonical: &str) -> (bool, Vec<u8>, i64) {
    let (neg, body) = match canonical.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, canonical),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
    let mut point = int.len() as i64;
    let lead = digits.iter().take_while(|&&d| d == 0).count();
    digits.drain(..lead);
    point -= lead as i64;
    while digits.last() == Some(&0) {
        digits.pop();
    }
    (neg, digits, point)
}

/// Rounds base-100 pairs to at most 20, half up. Returns the carry into a new leading pair.
fn round_pairs(pairs: &mut Vec<u8>) -> bool {
    if pairs.len() <= MAX_MANTISSA {
        return false;
    }
    let round_up = pairs[MAX_MANTISSA] >= 50;
    pairs.truncate(MAX_MANTISSA);
    if !round_up {
        return false;
    }
    for p in pairs.iter_mut().rev() {
        if *p == 99 {
            *p = 0;
        } else {
            *p += 1;
            return false;
        }
    }
    true
}

/// A NUMBER's wire bytes, held in place: an exponent byte, at most 20 mantissa bytes and a
/// negative number's terminator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberBytes {
    bytes: [u8; MAX_MANTISSA + 2],
    len: usize,
}

impl std::ops::Deref for NumberBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl NumberBytes {
    fn of(bytes: &[u8]) -> NumberBytes {
        let mut out = NumberBytes {
            bytes: [0; MAX_MANTISSA + 2],
            len: bytes.len(),
        };
        out.bytes[..bytes.len()].copy_from_slice(bytes);
        out
    }
}

/// The wire bytes of a NUMBER given as decimal text. Canonical text of at most 40 significant
/// digits (every stored NUMBER's, which needs no rounding) is encoded on the stack; anything
/// else through the general encoding (with its allocations: four a number, a tenth of a served
/// fetch's CPU when every number took it).
pub fn encode_number(text: &str) -> Result<NumberBytes, OraError> {
    if let Some(bytes) = encode_plain_integer(text) {
        return Ok(bytes);
    }
    if is_canonical_number(text) {
        if let Some(bytes) = encode_canonical_short(text) {
            return Ok(bytes);
        }
    }
    encode_number_general(text).map(|v| NumberBytes::of(&v))
}

/// A plain integer (an optional `-`, then 1 to 19 digits without a leading zero), checked as
/// it is read into a `u64` and encoded from its base-100 digits; `None` for any other text.
/// Keys and integer columns are most of a served fetch's numbers, and the canonical check
/// before the general digit walk cost them twice the work.
fn encode_plain_integer(text: &str) -> Option<NumberBytes> {
    let (neg, body) = match text.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        all => (false, all),
    };
    if body.is_empty() || body.len() > 19 || body[0] == b'0' {
        return None;
    }
    let mut v = 0u64;
    for &c in body {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        // 19 digits stay below 2^64.
        v = v * 10 + u64::from(d);
    }
    // Base-100 digits, the least significant first: at most 10.
    let mut pairs = [0u8; 10];
    let mut n = 0;
    while v > 0 {
        pairs[n] = (v % 100) as u8;
        v /= 100;
        n += 1;
    }
    let mut out = NumberBytes {
        bytes: [0; MAX_MANTISSA + 2],
        len: 0,
    };
    // `0.d1d2… × 100^n`: the exponent byte is 0xC0 + n.
    let exp_byte = 192 + n as u8;
    out.bytes[0] = if neg { !exp_byte } else { exp_byte };
    // Trailing zero pairs are not sent (the value is not zero: one pair is not).
    let low = pairs[..n].iter().position(|&p| p != 0).unwrap_or(0);
    let mut len = 1;
    for &pair in pairs[low..n].iter().rev() {
        out.bytes[len] = if neg { 101 - pair } else { pair + 1 };
        len += 1;
    }
    if neg {
        // Fewer than 20 mantissa bytes: the terminator.
        out.bytes[len] = 102;
        len += 1;
    }
    out.len = len;
    Some(out)
}

/// Canonical `text` (see [`is_canonical_number`]) of at most 40 significant digits, encoded
/// without allocating; `None` for longer text.
fn encode_canonical_short(text: &str) -> Option<NumberBytes> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest.as_bytes()),
        None => (false, text.as_bytes()),
    };
    if body == b"0" {
        return Some(NumberBytes::of(&[0x80]));
    }
    // The significant digits, with one leading 0 of room for aligning the point to a pair.
    let mut digits = [0u8; 2 * MAX_MANTISSA + 2];
    let (mut n, mut point, mut seen_point) = (1usize, 0i64, false);
    for &c in body {
        if c == b'.' {
            seen_point = true;
            continue;
        }
        let d = c - b'0';
        if n == 1 && d == 0 {
            // A leading zero (canonical text has them only as `0.` and after it).
            if seen_point {
                point -= 1;
            }
            continue;
        }
        if n == digits.len() {
            return None;
        }
        digits[n] = d;
        n += 1;
        if !seen_point {
            point += 1;
        }
    }
    // Canonical text has no trailing fractional zeros, but an integer may end in zeros.
    while n > 1 && digits[n - 1] == 0 {
        n -= 1;
    }
    let mut first = 1;
    if point.rem_euclid(2) == 1 {
        first = 0;
        point += 1;
    }
    let count = n - first;
    let pairs_len = count.div_ceil(2);
    if pairs_len > MAX_MANTISSA {
        return None;
    }
    let exponent = point / 2;
    if !(-63..=63).contains(&exponent) {
        return None;
    }
    let mut out = NumberBytes {
        bytes: [0; MAX_MANTISSA + 2],
        len: 0,
    };
    let exp_byte = (exponent + 192) as u8;
    out.bytes[0] = if neg { !exp_byte } else { exp_byte };
    let mut len = 1;
    let mut last_nonzero = 1;
    for p in 0..pairs_len {
        let hi = digits[first + 2 * p];
        let lo = if first + 2 * p + 1 < n {
            digits[first + 2 * p + 1]
        } else {
            0
        };
        let pair = hi * 10 + lo;
        out.bytes[len] = if neg { 101 - pair } else { pair + 1 };
        len += 1;
        if pair != 0 {
            last_nonzero = len;
        }
    }
    // Trailing zero pairs are not sent.
    len = last_nonzero;
    if neg && len - 1 < MAX_MANTISSA {
        out.bytes[len] = 102;
        len += 1;
    }
    out.len = len;
    Some(out)
}

/// The general encoding: any decimal text, rounded to 20 base-100 digits.
fn encode_number_general(text: &str) -> Result<Vec<u8>, OraError> {
    // A stored NUMBER's text is canonical already: no copy (this runs for every fetched number).
    let canonical = if is_canonical_number(text) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(canonical_number(text).ok_or_else(|| invalid_number(text))?)
    };
    let (neg, mut digits, mut point) = split_digits(&canonical);
    if digits.is_empty() {
        return Ok(vec![0x80]);
    }
    if point.rem_euclid(2) == 1 {
        digits.insert(0, 0);
        point += 1;
    }
    if digits.len() % 2 == 1 {
        digits.push(0);
    }
    let mut pairs: Vec<u8> = digits.chunks(2).map(|p| p[0] * 10 + p[1]).collect();
    let mut exponent = point / 2;
    if round_pairs(&mut pairs) {
        pairs.insert(0, 1);
        pairs.truncate(MAX_MANTISSA);
        exponent += 1;
    }
    while pairs.last() == Some(&0) {
        pairs.pop();
    }
    if exponent > 63 {
        return Err(overflow());
    }
    if exponent < -63 || pairs.is_empty() {
        // Below Oracle's smallest magnitude: the value rounds to zero.
        return Ok(vec![0x80]);
    }
    let exp_byte = (exponent + 192) as u8;
    let mut out = Vec::with_capacity(pairs.len() + 2);
    if neg {
        out.push(!exp_byte);
        out.extend(pairs.iter().map(|d| 101 - d));
        if pairs.len() < MAX_MANTISSA {
            out.push(102);
        }
    } else {
        out.push(exp_byte);
        out.extend(pairs.iter().map(|d| d + 1));
    }
    Ok(out)
}

/// Canonical decimal text of NUMBER wire bytes. `None` for bytes no NUMBER has.
pub fn decode_number(bytes: &[u8]) -> Option<String> {
    let (&first, rest) = bytes.split_first()?;
    if rest.len() > MAX_MANTISSA + 1 {
        return None;
    }
    let positive = first & 0x80 != 0;
    if rest.is_empty() {
        // 0x80 is zero; a lone negative exponent byte is Oracle's -1E126, not representable here.
        return positive.then(|| "0".to_string());
    }
    let exponent = if positive {
        i64::from(first) - 193
    } else {
        62 - i64::from(first)
    };
    let mantissa = if !positive && rest.last() == Some(&102) {
        &rest[..rest.len() - 1]
    } else {
        rest
    };
    let mut text = String::with_capacity(mantissa.len() * 2 + 4);
    for &b in mantissa {
        let d = if positive {
            b.checked_sub(1)?
        } else {
            101u8.checked_sub(b)?
        };
        if d > 99 {
            return None;
        }
        text.push(char::from(b'0' + d / 10));
        text.push(char::from(b'0' + d % 10));
    }
    let point = (exponent + 1) * 2;
    let len = text.len() as i64;
    let mut out = String::with_capacity(text.len() + 8);
    if !positive {
        out.push('-');
    }
    if point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', usize::try_from(-point).ok()?));
        out.push_str(&text);
    } else if point >= len {
        out.push_str(&text);
        out.extend(std::iter::repeat_n('0', usize::try_from(point - len).ok()?));
    } else {
        let p = usize::try_from(point).ok()?;
        out.push_str(&text[..p]);
        out.push('.');
        out.push_str(&text[p..]);
    }
    canonical_number(&out)
}

/// BINARY_FLOAT wire bytes.
pub fn encode_binary_float(v: f32) -> [u8; 4] {
    let bits = v.to_bits();
    let bits = if bits & 0x8000_0000 == 0 {
        bits | 0x8000_0000
    } else {
        !bits
    };
    bits.to_be_bytes()
}

pub fn decode_binary_float(b: &[u8]) -> Option<f32> {
    let bits = u32::from_be_bytes(b.try_into().ok()?);
    let bits = if bits & 0x8000_0000 != 0 {
        bits & 0x7fff_ffff
    } else {
        !bits
    };
    Some(f32::from_bits(bits))
}

/// BINARY_DOUBLE wire bytes.
pub fn encode_binary_double(v: f64) -> [u8; 8] {
    let bits = v.to_bits();
    let bits = if bits & 0x8000_0000_0000_0000 == 0 {
        bits | 0x8000_0000_0000_0000
    } else {
        !bits
    };
    bits.to_be_bytes()
}

pub fn decode_binary_double(b: &[u8]) -> Option<f64> {
    let bits = u64::from_be_bytes(b.try_into().ok()?);
    let bits = if bits & 0x8000_0000_0000_0000 != 0 {
        bits & 0x7fff_ffff_ffff_ffff
    } else {
        !bits
    };
    Some(f64::from_bits(bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Byte strings as python-oracledb's encoder writes them (and Oracle stores them).
    #[test]
    fn numbers_match_known_encodings() {
        for (text, bytes) in [
            ("0", vec![0x80]),
            ("1", vec![0xc1, 2]),
            ("7", vec![0xc1, 8]),
            ("100", vec![0xc2, 2]),
            ("123", vec![0xc2, 2, 24]),
            ("0.5", vec![0xc0, 51]),
            ("1.5", vec![0xc1, 2, 51]),
            ("-1", vec![0x3e, 100, 102]),
            ("-1.5", vec![0x3e, 100, 51, 102]),
            ("-123", vec![0x3d, 100, 78, 102]),
            ("0.0001", vec![0xbf, 2]),
            (
                "12345678901234567890123",
                vec![0xcc, 2, 24, 46, 68, 90, 2, 24, 46, 68, 90, 2, 24],
            ),
        ] {
            assert_eq!(encode_number(text).unwrap().to_vec(), bytes, "{text}");
            assert_eq!(decode_number(&bytes).as_deref(), Some(text), "{bytes:?}");
        }
    }

    /// The encoding on the stack gives the general encoding's bytes, for every canonical shape:
    /// signs, leading fractional zeros, odd and even point positions, trailing zeros of an
    /// integer, up to 40 digits and past them (left to the general encoding), the exponent's
    /// ends.
    #[test]
    fn short_canonical_numbers_encode_as_the_general_way() {
        let mut texts: Vec<String> = vec![
            "0".into(),
            "1".into(),
            "10".into(),
            "100".into(),
            "1000".into(),
            "0.1".into(),
            "0.01".into(),
            "0.001".into(),
            "1.01".into(),
            "10.1".into(),
            "99.99".into(),
            "1234.56".into(),
            "9".repeat(38),
            "9".repeat(39),
            "9".repeat(40),
            "9".repeat(41),
            format!("0.{}", "9".repeat(40)),
            format!("0.{}1", "0".repeat(120)),
            format!("0.{}1", "0".repeat(126)),
            format!("1{}", "0".repeat(125)),
            format!("1{}", "0".repeat(126)),
            format!("12{}", "0".repeat(124)),
        ];
        let mut seed = 7u64;
        for _ in 0..3000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let int = seed % 1_000_000_007;
            let frac = (seed >> 20) % 1000;
            let text = match seed % 4 {
                0 => format!("{int}"),
                1 => format!("{int}.{frac:03}"),
                2 => format!("0.{:0width$}", frac, width = (seed % 9) as usize + 3),
                _ => format!("{int}{}", "0".repeat((seed % 30) as usize)),
            };
            texts.push(text);
        }
        let mut on_the_stack = 0;
        for t in texts {
            for text in [t.clone(), format!("-{t}")] {
                let Some(canonical) = canonical_number(&text) else {
                    continue;
                };
                let general = encode_number_general(&canonical);
                let got = encode_number(&canonical);
                match (got, general) {
                    (Ok(a), Ok(b)) => assert_eq!(a.to_vec(), b, "{canonical}"),
                    (Err(a), Err(b)) => assert_eq!(a.code, b.code, "{canonical}"),
                    (a, b) => panic!("{canonical}: {a:?} against {b:?}"),
                }
                if let Some(short) = encode_canonical_short(&canonical) {
                    assert_eq!(Ok(short.to_vec()), general_bytes(&canonical), "{canonical}");
                    on_the_stack += 1;
                }
            }
        }
        // The random numbers (6,000 with their negatives) all take the stack's way.
        assert!(on_the_stack >= 6000, "{on_the_stack}");
        // Plain integers take the integer way, and it gives the general way's bytes.
        let mut integers = 0;
        let mut seed = 11u64;
        let mut ints: Vec<String> = [
            "1",
            "9",
            "10",
            "99",
            "100",
            "101",
            "10000",
            "1000000000000000000",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        ints.push("9".repeat(19));
        ints.push(u64::MAX.to_string()[..19].to_string());
        for _ in 0..3000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let digits = (seed % 19) as u32 + 1;
            let v = (seed >> 7) % 10u64.pow(digits.min(19) - 1).max(1) * 10 + (seed >> 3) % 10;
            ints.push(format!("{}", v.max(1)));
        }
        for t in ints {
            for text in [t.clone(), format!("-{t}")] {
                let plain = encode_plain_integer(&text)
                    .unwrap_or_else(|| panic!("{text} is a plain integer"));
                assert_eq!(Ok(plain.to_vec()), general_bytes(&text), "{text}");
                integers += 1;
            }
        }
        assert!(integers >= 6000, "{integers}");
        // Anything else is left to the other ways.
        for text in [
            "0",
            "-0",
            "01",
            "1.5",
            "12345678901234567890",
            "",
            "-",
            "1e3",
            "+1",
            " 1",
        ] {
            assert!(encode_plain_integer(text).is_none(), "{text}");
        }
        fn general_bytes(text: &str) -> Result<Vec<u8>, u32> {
            encode_number_general(text).map_err(|e| e.code)
        }
    }

    #[test]
    fn thirty_eight_digits_survive() {
        for text in [
            "99999999999999999999999999999999999999",
            "-12345678901234567890123456789012345678",
            "0.12345678901234567890123456789012345678",
            "123456789012345678901234567890.12345678",
        ] {
            assert_eq!(
                decode_number(&encode_number(text).unwrap()).as_deref(),
                Some(text)
            );
        }
    }

    #[test]
    fn more_than_forty_digits_round() {
        let text = "1234567890123456789012345678901234567890123";
        let back = decode_number(&encode_number(text).unwrap()).unwrap();
        assert_eq!(back, "1234567890123456789012345678901234567890000");
        let nines = "9".repeat(45);
        let back = decode_number(&encode_number(&nines).unwrap()).unwrap();
        assert_eq!(back, format!("1{}", "0".repeat(45)));
    }

    #[test]
    fn bad_numbers_are_errors() {
        assert_eq!(encode_number("abc").unwrap_err().code, 1722);
        assert_eq!(encode_number("1e200").unwrap_err().code, 1722);
        assert_eq!(
            encode_number(&format!("1{}", "0".repeat(130)))
                .unwrap_err()
                .code,
            1426
        );
        assert_eq!(decode_number(&[]), None);
        assert_eq!(decode_number(&[0xc1, 0]), None);
        assert_eq!(decode_number(&[0xc1, 200]), None);
    }

    #[test]
    fn binary_floats_sort_and_round_trip() {
        assert_eq!(encode_binary_float(1.0), [0xbf, 0x80, 0, 0]);
        assert_eq!(encode_binary_float(-1.0), [0x40, 0x7f, 0xff, 0xff]);
        assert_eq!(encode_binary_double(1.0), [0xbf, 0xf0, 0, 0, 0, 0, 0, 0]);
        for v in [
            0.0f32,
            -0.0,
            1.5,
            -2.25,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ] {
            assert_eq!(
                decode_binary_float(&encode_binary_float(v))
                    .unwrap()
                    .to_bits(),
                v.to_bits()
            );
        }
        assert!(decode_binary_float(&encode_binary_float(f32::NAN))
            .unwrap()
            .is_nan());
        for v in [0.1f64, -1e300, f64::INFINITY, f64::MIN_POSITIVE] {
            assert_eq!(decode_binary_double(&encode_binary_double(v)).unwrap(), v);
        }
        assert!(encode_binary_float(-1.0) < encode_binary_float(0.0));
        assert!(encode_binary_float(0.0) < encode_binary_float(2.0));
        assert_eq!(decode_binary_float(&[1, 2]), None);
    }
}
