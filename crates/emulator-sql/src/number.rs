//! NUMBER arithmetic, exact as Oracle's: decimal digits, never binary floating point.
//!
//! A [`Dec`] is `±0.d1d2…dn × 10^exp`. Results are rounded as a NUMBER holds them: 20
//! base-100 digits aligned on the decimal point, so 40 significant decimal digits when the
//! first pair is full and 39 when it holds one digit (`1/3` = `.333…3` with 40 threes,
//! `10/3` = `3.33…3` with 39 digits); an exponent past 10^126 is ORA-01426, below 10^-130
//! the value is 0. Integers of up to 36 digits take an `i128` fast path (the common
//! `RN - 1`, `MOD(RN - 1, :step)` of key probes), with the same results.

use crate::OraError;
use std::cmp::Ordering;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dec {
    neg: bool,
    /// Significant digits 0..=9, no leading or trailing zeros; empty for zero.
    digits: Vec<u8>,
    /// Digits before the decimal point: value = 0.digits × 10^exp.
    exp: i32,
}

pub fn overflow() -> OraError {
    OraError::new(1426, "numeric overflow")
}

pub fn invalid_number() -> OraError {
    OraError::new(1722, "invalid number")
}

/// Integers of up to 36 digits as `i128` (exact, and products of two stay in range).
fn small_int(s: &str) -> Option<i128> {
    let d = s.strip_prefix('-').unwrap_or(s);
    if d.is_empty() || d.len() > 18 || !d.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

const SMALL_LIMIT: i128 = 10i128.pow(36);

impl Dec {
    pub fn zero() -> Dec {
        Dec {
            neg: false,
            digits: Vec::new(),
            exp: 0,
        }
    }

    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    pub fn is_negative(&self) -> bool {
        self.neg
    }

    /// Decimal text: optional sign, digits with an optional `.` fraction, optional exponent
    /// (`-1.5`, `.5`, `1e3`, `1.`). No blanks.
    pub fn parse(text: &str) -> Option<Dec> {
        let (neg, t) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let (mant, exp) = match t.find(['e', 'E']) {
            Some(i) => {
                let e = &t[i + 1..];
                let (eneg, ed) = match e.as_bytes().first() {
                    Some(b'-') => (true, &e[1..]),
                    Some(b'+') => (false, &e[1..]),
                    _ => (false, e),
                };
                if ed.is_empty() || !ed.bytes().all(|c| c.is_ascii_digit()) {
                    return None;
                }
                let v = ed
                    .bytes()
                    .fold(0i64, |a, c| (a * 10 + i64::from(c - b'0')).min(1 << 20));
                (&t[..i], if eneg { -v } else { v })
            }
            None => (t, 0),
        };
        let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
        if int.len() + frac.len() == 0
            || !int.bytes().all(|c| c.is_ascii_digit())
            || !frac.bytes().all(|c| c.is_ascii_digit())
        {
            return None;
        }
        let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|c| c - b'0').collect();
        let exp = i64::try_from(int.len()).ok()? + exp;
        let lead = digits.iter().take_while(|&&d| d == 0).count();
        digits.drain(..lead);
        let exp = exp - i64::try_from(lead).ok()?;
        let mut d = Dec {
            neg,
            digits,
            exp: i32::try_from(exp.clamp(-1_000_000, 1_000_000)).ok()?,
        };
        d.trim();
        Some(d)
    }

    pub fn from_i128(v: i128) -> Dec {
        let s = v.to_string();
        Dec::parse(&s).unwrap_or_else(Dec::zero)
    }

    fn trim(&mut self) {
        let lead = self.digits.iter().take_while(|&&d| d == 0).count();
        if lead > 0 {
            self.digits.drain(..lead);
            self.exp -= lead as i32;
        }
        while self.digits.last() == Some(&0) {
            self.digits.pop();
        }
        if self.digits.is_empty() {
            self.neg = false;
            self.exp = 0;
        }
    }

    /// Rounds to what a NUMBER holds (see the module doc); ORA-01426 past 10^126.
    pub fn fit(mut self) -> Result<Dec, OraError> {
        if self.is_zero() {
            return Ok(self);
        }
        let keep = if self.exp.rem_euclid(2) == 0 { 40 } else { 39 };
        self = self.round_digits(keep);
        if self.exp > 126 {
            return Err(overflow());
        }
        if self.exp < -129 {
            return Ok(Dec::zero());
        }
        Ok(self)
    }

    /// Rounded (half away from zero) to `keep` significant digits.
    pub fn round_digits(mut self, keep: usize) -> Dec {
        if self.digits.len() <= keep {
            return self;
        }
        let up = self.digits[keep] >= 5;
        self.digits.truncate(keep);
        if up {
            let mut k = keep;
            loop {
                if k == 0 {
                    self.digits.insert(0, 1);
                    self.exp += 1;
                    break;
                }
                k -= 1;
                if self.digits[k] == 9 {
                    self.digits[k] = 0;
                } else {
                    self.digits[k] += 1;
                    break;
                }
            }
        }
        self.trim();
        self
    }

    /// Canonical text (`-1.5`, `0.15`, `7`, `0`), as [`oracle_datum::Datum::Number`] holds it.
    pub fn to_canonical(&self) -> String {
        self.render('.', true)
    }

    /// Text as Oracle's TO_CHAR without a format gives it: no zero before the point
    /// (`.5`, `-.5`), the session's decimal character, scientific past 40 characters.
    pub fn to_oracle_text(&self, decimal: char) -> String {
        let plain = self.render(decimal, false);
        if plain.len() <= 40 {
            return plain;
        }
        let mut m = String::new();
        if self.neg {
            m.push('-');
        }
        m.push(char::from(b'0' + self.digits[0]));
        m.push(decimal);
        let mut frac: String = self.digits[1..]
            .iter()
            .map(|d| char::from(b'0' + d))
            .collect();
        while frac.len() < 4 {
            frac.push('0');
        }
        let e = self.exp - 1;
        let tail = format!("E{}{:02}", if e < 0 { '-' } else { '+' }, e.abs());
        let room = 40usize.saturating_sub(m.len() + tail.len());
        if frac.len() > room {
            let rounded = self.clone().round_digits(room + 1);
            if rounded.exp != self.exp {
                return rounded.to_oracle_text(decimal);
            }
            frac = rounded.digits[1..]
                .iter()
                .map(|d| char::from(b'0' + d))
                .collect();
            while frac.len() < 4.min(room) {
                frac.push('0');
            }
        }
        format!("{m}{frac}{tail}")
    }

    fn render(&self, decimal: char, leading_zero: bool) -> String {
        if self.is_zero() {
            return "0".into();
        }
        let mut out = String::with_capacity(self.digits.len() + 4);
        if self.neg {
            out.push('-');
        }
        let ds = |r: &[u8], out: &mut String| {
            for d in r {
                out.push(char::from(b'0' + d));
            }
        };
        let n = self.digits.len() as i64;
        let e = i64::from(self.exp);
        if e <= 0 {
            if leading_zero {
                out.push('0');
            }
            out.push(decimal);
            for _ in 0..-e {
                out.push('0');
            }
            ds(&self.digits, &mut out);
        } else if e >= n {
            ds(&self.digits, &mut out);
            for _ in 0..e - n {
                out.push('0');
            }
        } else {
            let p = e as usize;
            ds(&self.digits[..p], &mut out);
            out.push(decimal);
            ds(&self.digits[p..], &mut out);
        }
        out
    }

    /// The integer coefficient and its power of ten: value = coef × 10^shift.
    fn coef(&self) -> (&[u8], i64) {
        (&self.digits, i64::from(self.exp) - self.digits.len() as i64)
    }

    fn from_coef(neg: bool, coef: Vec<u8>, shift: i64) -> Dec {
        let exp = shift + coef.len() as i64;
        let mut d = Dec {
            neg,
            digits: coef,
            exp: i32::try_from(exp.clamp(-1_000_000, 1_000_000)).unwrap_or(0),
        };
        d.trim();
        d
    }

    pub fn cmp_abs(&self, other: &Dec) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        self.exp
            .cmp(&other.exp)
            .then_with(|| self.digits.cmp(&other.digits))
    }

    pub fn cmp(&self, other: &Dec) -> Ordering {
        match (self.neg, other.neg) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_abs(other),
            (true, true) => other.cmp_abs(self),
        }
    }

    pub fn negate(mut self) -> Dec {
        if !self.is_zero() {
            self.neg = !self.neg;
        }
        self
    }

    pub fn abs(mut self) -> Dec {
        self.neg = false;
        self
    }

    pub fn add(&self, other: &Dec) -> Dec {
        if self.is_zero() {
            return other.clone();
        }
        if other.is_zero() {
            return self.clone();
        }
        let (a, sa) = self.coef();
        let (b, sb) = other.coef();
        let shift = sa.min(sb);
        let a = scaled(a, sa - shift);
        let b = scaled(b, sb - shift);
        if self.neg == other.neg {
            return Dec::from_coef(self.neg, add_mag(&a, &b), shift);
        }
        match cmp_mag(&a, &b) {
            Ordering::Equal => Dec::zero(),
            Ordering::Greater => Dec::from_coef(self.neg, sub_mag(&a, &b), shift),
            Ordering::Less => Dec::from_coef(other.neg, sub_mag(&b, &a), shift),
        }
    }

    pub fn sub(&self, other: &Dec) -> Dec {
        self.add(&other.clone().negate())
    }

    pub fn mul(&self, other: &Dec) -> Dec {
        if self.is_zero() || other.is_zero() {
            return Dec::zero();
        }
        let (a, sa) = self.coef();
        let (b, sb) = other.coef();
        Dec::from_coef(self.neg != other.neg, mul_mag(a, b), sa + sb)
    }

    /// Quotient to 42 significant digits (rounded to a NUMBER by [`Dec::fit`]).
    pub fn div(&self, other: &Dec) -> Result<Dec, OraError> {
        if other.is_zero() {
            return Err(OraError::new(1476, "divisor is equal to zero"));
        }
        if self.is_zero() {
            return Ok(Dec::zero());
        }
        let (a, sa) = self.coef();
        let (b, sb) = other.coef();
        let k = (44 + b.len() as i64 - a.len() as i64).max(0);
        let num = scaled(a, k);
        let (q, _) = divmod_mag(&num, b);
        Ok(Dec::from_coef(self.neg != other.neg, q, sa - sb - k))
    }

    /// The integer part (toward zero).
    pub fn trunc(&self) -> Dec {
        self.trunc_scale(0)
    }

    /// Truncated to `scale` digits after the point (negative: before it).
    pub fn trunc_scale(&self, scale: i32) -> Dec {
        let keep = i64::from(self.exp) + i64::from(scale);
        if keep <= 0 {
            return Dec::zero();
        }
        let mut d = self.clone();
        if (keep as usize) < d.digits.len() {
            d.digits.truncate(keep as usize);
            d.trim();
        }
        d
    }

    /// Rounded half away from zero to `scale` digits after the point.
    pub fn round_scale(&self, scale: i32) -> Dec {
        let keep = i64::from(self.exp) + i64::from(scale);
        if keep < 0 || self.is_zero() {
            return Dec::zero();
        }
        if keep == 0 {
            // 0.5 × 10^-scale or more rounds up to one unit of that scale.
            return if self.digits[0] >= 5 {
                Dec {
                    neg: self.neg,
                    digits: vec![1],
                    exp: 1 - scale,
                }
            } else {
                Dec::zero()
            };
        }
        self.clone().round_digits(keep as usize)
    }

    pub fn floor(&self) -> Dec {
        let t = self.trunc();
        if self.neg && t.cmp(self) != Ordering::Equal {
            t.sub(&Dec::from_i128(1))
        } else {
            t
        }
    }

    pub fn ceil(&self) -> Dec {
        let t = self.trunc();
        if !self.neg && t.cmp(self) != Ordering::Equal {
            t.add(&Dec::from_i128(1))
        } else {
            t
        }
    }

    /// `MOD(self, n)`: `self - n × TRUNC(self / n)`, exact; `self` when n is 0.
    pub fn modulo(&self, n: &Dec) -> Dec {
        if n.is_zero() || self.is_zero() {
            return self.clone();
        }
        let (a, sa) = self.coef();
        let (b, sb) = n.coef();
        let shift = sa.min(sb);
        let a = scaled(a, sa - shift);
        let b = scaled(b, sb - shift);
        let (_, r) = divmod_mag(&a, &b);
        Dec::from_coef(self.neg, r, shift)
    }

    /// Integral and within i128.
    pub fn to_i128(&self) -> Option<i128> {
        if self.is_zero() {
            return Some(0);
        }
        if self.exp < self.digits.len() as i32 || self.exp > 38 {
            return None;
        }
        let mut v: i128 = 0;
        for i in 0..self.exp as usize {
            v = v
                .checked_mul(10)?
                .checked_add(i128::from(*self.digits.get(i).unwrap_or(&0)))?;
        }
        Some(if self.neg { -v } else { v })
    }

    pub fn to_f64(&self) -> f64 {
        self.to_canonical().parse().unwrap_or(0.0)
    }

    pub fn significant(&self) -> &[u8] {
        &self.digits
    }

    pub fn exponent(&self) -> i32 {
        self.exp
    }
}

fn scaled(d: &[u8], zeros: i64) -> Vec<u8> {
    let mut v = Vec::with_capacity(d.len() + zeros.max(0) as usize);
    v.extend_from_slice(d);
    v.extend(std::iter::repeat_n(0, zeros.max(0) as usize));
    v
}

fn cmp_mag(a: &[u8], b: &[u8]) -> Ordering {
    let a = strip(a);
    let b = strip(b);
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

fn strip(a: &[u8]) -> &[u8] {
    let lead = a.iter().take_while(|&&d| d == 0).count();
    &a[lead..]
}

fn add_mag(a: &[u8], b: &[u8]) -> Vec<u8> {
    let n = a.len().max(b.len());
    let mut out = vec![0u8; n + 1];
    let mut carry = 0u8;
    for i in 0..n {
        let x = if i < a.len() { a[a.len() - 1 - i] } else { 0 };
        let y = if i < b.len() { b[b.len() - 1 - i] } else { 0 };
        let s = x + y + carry;
        out[n - i] = s % 10;
        carry = s / 10;
    }
    out[0] = carry;
    out
}

/// a - b for a >= b.
fn sub_mag(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = a.to_vec();
    let mut borrow = 0i8;
    for i in 0..out.len() {
        let idx = out.len() - 1 - i;
        let y = if i < b.len() {
            b[b.len() - 1 - i] as i8
        } else {
            0
        };
        let mut x = out[idx] as i8 - y - borrow;
        if x < 0 {
            x += 10;
            borrow = 1;
        } else {
            borrow = 0;
        }
        out[idx] = x as u8;
    }
    out
}

fn mul_mag(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut acc = vec![0u32; a.len() + b.len()];
    for (i, &x) in a.iter().enumerate().rev() {
        for (j, &y) in b.iter().enumerate().rev() {
            acc[i + j + 1] += u32::from(x) * u32::from(y);
        }
    }
    for k in (1..acc.len()).rev() {
        let carry = acc[k] / 10;
        acc[k] %= 10;
        acc[k - 1] += carry;
    }
    acc.into_iter().map(|d| d as u8).collect()
}

/// Integer division of digit vectors: quotient and remainder.
fn divmod_mag(num: &[u8], den: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let den = strip(den);
    let mut q = Vec::with_capacity(num.len());
    let mut r: Vec<u8> = Vec::with_capacity(den.len() + 1);
    for &d in num {
        r.push(d);
        let lead = r.iter().take_while(|&&x| x == 0).count();
        r.drain(..lead);
        let mut digit = 0u8;
        while cmp_mag(&r, den) != Ordering::Less {
            r = sub_mag(&r, den);
            let lead = r.iter().take_while(|&&x| x == 0).count();
            r.drain(..lead);
            digit += 1;
        }
        q.push(digit);
    }
    (q, r)
}

// ------------------------------------------------------------------ text-level operations

fn dec(s: &str) -> Result<Dec, OraError> {
    Dec::parse(s).ok_or_else(invalid_number)
}

fn out(d: Dec) -> Result<String, OraError> {
    Ok(d.fit()?.to_canonical())
}

pub fn add(a: &str, b: &str) -> Result<String, OraError> {
    if let (Some(x), Some(y)) = (small_int(a), small_int(b)) {
        return Ok((x + y).to_string());
    }
    out(dec(a)?.add(&dec(b)?))
}

pub fn sub(a: &str, b: &str) -> Result<String, OraError> {
    if let (Some(x), Some(y)) = (small_int(a), small_int(b)) {
        return Ok((x - y).to_string());
    }
    out(dec(a)?.sub(&dec(b)?))
}

pub fn mul(a: &str, b: &str) -> Result<String, OraError> {
    if let (Some(x), Some(y)) = (small_int(a), small_int(b)) {
        let p = x * y;
        if p.abs() < SMALL_LIMIT {
            return Ok(p.to_string());
        }
    }
    out(dec(a)?.mul(&dec(b)?))
}

pub fn div(a: &str, b: &str) -> Result<String, OraError> {
    if let (Some(x), Some(y)) = (small_int(a), small_int(b)) {
        if y != 0 && x % y == 0 {
            return Ok((x / y).to_string());
        }
    }
    out(dec(a)?.div(&dec(b)?)?)
}

pub fn modulo(a: &str, b: &str) -> Result<String, OraError> {
    if let (Some(x), Some(y)) = (small_int(a), small_int(b)) {
        return Ok(if y == 0 { x } else { x % y }.to_string());
    }
    out(dec(a)?.modulo(&dec(b)?))
}

pub fn negate(a: &str) -> String {
    match a.strip_prefix('-') {
        Some(r) => r.to_string(),
        None if a == "0" => a.to_string(),
        None => format!("-{a}"),
    }
}

/// Compare two decimal texts without allocating (canonical or not: signs, leading and
/// trailing zeros are understood).
pub fn cmp_text(a: &str, b: &str) -> Ordering {
    fn parts(s: &str) -> (bool, &str, &str) {
        let (neg, d) = match s.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, s.strip_prefix('+').unwrap_or(s)),
        };
        let (i, f) = d.split_once('.').unwrap_or((d, ""));
        let i = i.trim_start_matches('0');
        let f = f.trim_end_matches('0');
        (neg && !(i.is_empty() && f.is_empty()), i, f)
    }
    // Plain integers (no sign, no leading zero), as keys mostly are: their length, then their
    // digits (a chunk's range, checked on every row it reads, was a tenth of a served read).
    let plain =
        |s: &str| !s.starts_with('0') && !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if plain(a) && plain(b) {
        return a
            .len()
            .cmp(&b.len())
            .then_with(|| a.as_bytes().cmp(b.as_bytes()));
    }
    if a.contains(['e', 'E']) || b.contains(['e', 'E']) {
        return match (Dec::parse(a), Dec::parse(b)) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => a.cmp(b),
        };
    }
    let (na, ia, fa) = parts(a);
    let (nb, ib, fb) = parts(b);
    let mag = ia
        .len()
        .cmp(&ib.len())
        .then_with(|| ia.cmp(ib))
        .then_with(|| fa.cmp(fb));
    match (na, nb) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => mag,
        (true, true) => mag.reverse(),
    }
}

/// Whether `s` is already in the canonical form of [`Dec::to_canonical`] (what a NUMBER
/// column holds), so keys and comparisons need not normalise it.
/// The datum crate's check: one form, one rule.
pub fn is_canonical(s: &str) -> bool {
    oracle_datum::is_canonical_number(s)
}

/// Text to NUMBER as implicit conversion and TO_NUMBER without a format read it: blanks
/// around, a sign, digits with the session's decimal character, an exponent.
pub fn parse_text(s: &str, decimal: char) -> Result<String, OraError> {
    let t = s.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\n' || c == '\r');
    let normal;
    let t = if decimal != '.' {
        if t.contains('.') {
            return Err(invalid_number());
        }
        normal = t.replace(decimal, ".");
        normal.as_str()
    } else {
        t
    };
    if t.is_empty() || t.contains(' ') {
        return Err(invalid_number());
    }
    out(dec(t)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> String {
        Dec::parse(s).unwrap().to_canonical()
    }

    #[test]
    fn parse_and_render() {
        assert_eq!(c("007.500"), "7.5");
        assert_eq!(c(".05"), "0.05");
        assert_eq!(c("-0"), "0");
        assert_eq!(c("1e3"), "1000");
        assert_eq!(c("1.5e-3"), "0.0015");
        assert_eq!(Dec::parse("-0.5").unwrap().to_oracle_text('.'), "-.5");
        assert_eq!(Dec::parse("12.5").unwrap().to_oracle_text(','), "12,5");
        assert!(Dec::parse("1.2.3").is_none());
        assert!(Dec::parse("").is_none());
        assert!(Dec::parse(".").is_none());
    }

    #[test]
    fn arithmetic_is_exact() {
        assert_eq!(add("0.1", "0.2").unwrap(), "0.3");
        assert_eq!(sub("1", "0.9").unwrap(), "0.1");
        assert_eq!(mul("1.1", "1.1").unwrap(), "1.21");
        assert_eq!(div("1", "8").unwrap(), "0.125");
        assert_eq!(div("1", "3").unwrap(), format!("0.{}", "3".repeat(40)));
        assert_eq!(div("10", "3").unwrap(), format!("3.{}", "3".repeat(38)));
        assert_eq!(div("2", "3").unwrap(), format!("0.{}7", "6".repeat(39)));
        assert_eq!(
            add("99999999999999999999999999999999999999", "1").unwrap(),
            "100000000000000000000000000000000000000"
        );
        assert_eq!(div("1", "0").unwrap_err().code, 1476);
        assert_eq!(mul("1e100", "1e100").unwrap_err().code, 1426);
        assert_eq!(
            mul("123456789012345678", "1000000000000000000").unwrap(),
            "123456789012345678000000000000000000"
        );
    }

    #[test]
    fn modulo_rounding_and_comparison() {
        assert_eq!(modulo("11", "4").unwrap(), "3");
        assert_eq!(modulo("-11", "4").unwrap(), "-3");
        assert_eq!(modulo("11", "0").unwrap(), "11");
        assert_eq!(modulo("5.5", "2").unwrap(), "1.5");
        assert_eq!(modulo("1e30", "7").unwrap(), "1");
        let d = Dec::parse("2.5").unwrap();
        assert_eq!(d.round_scale(0).to_canonical(), "3");
        assert_eq!(
            Dec::parse("-2.5").unwrap().round_scale(0).to_canonical(),
            "-3"
        );
        assert_eq!(
            Dec::parse("1234.5678")
                .unwrap()
                .round_scale(-2)
                .to_canonical(),
            "1200"
        );
        assert_eq!(
            Dec::parse("0.4").unwrap().round_scale(0).to_canonical(),
            "0"
        );
        assert_eq!(
            Dec::parse("1234.5678")
                .unwrap()
                .trunc_scale(2)
                .to_canonical(),
            "1234.56"
        );
        assert_eq!(Dec::parse("-1.5").unwrap().floor().to_canonical(), "-2");
        assert_eq!(Dec::parse("1.5").unwrap().ceil().to_canonical(), "2");
        assert_eq!(cmp_text("10", "9"), Ordering::Greater);
        assert_eq!(cmp_text("-10", "-9"), Ordering::Less);
        assert_eq!(cmp_text("1.50", "1.5"), Ordering::Equal);
        assert_eq!(cmp_text("0.001", "-0"), Ordering::Greater);
        // Every pair, plain integers and the rest, orders as the exact decimals do.
        let texts = [
            "0",
            "-0",
            "7",
            "10",
            "9",
            "99",
            "100",
            "0100",
            "007",
            "-7",
            "-10",
            "1.5",
            "1.50",
            "-1.5",
            ".5",
            "0.5",
            "1e2",
            "1E3",
            "100.0",
            "12345678901234567890",
            "12345678901234567891",
            "2",
            "+7",
        ];
        for a in texts {
            for b in texts {
                let (x, y) = (Dec::parse(a).unwrap(), Dec::parse(b).unwrap());
                assert_eq!(cmp_text(a, b), x.cmp(&y), "{a} {b}");
            }
        }
        assert_eq!(parse_text(" 1,5 ", ',').unwrap(), "1.5");
        for ok in ["0", "7", "-7", "0.5", "-0.05", "10", "12.34"] {
            assert!(is_canonical(ok), "{ok}");
        }
        for bad in ["-0", "01", "1.50", ".5", "1.", "", "1e3", "+1", "0.0"] {
            assert!(!is_canonical(bad), "{bad}");
        }
        assert_eq!(parse_text("1.5", ',').unwrap_err().code, 1722);
        assert_eq!(parse_text("abc", '.').unwrap_err().code, 1722);
    }
}
