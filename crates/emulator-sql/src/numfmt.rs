//! Number format models: TO_CHAR(n, '990.99') and TO_NUMBER(text, '9G999D99').
//!
//! Elements: `9` `0` `,` `.` `G` `D` `$` `S` (leading or trailing) `MI` `PR` `B` `FM` `V`
//! `EEEE` `X` and `TM`/`TM9`/`TME`. A value too wide for the model prints as `#`s, as
//! Oracle's does. `L`, `C`, `U` and `RN` (locale currency, roman numerals) are ORA-03001;
//! anything else is ORA-01481.

use crate::number::{invalid_number, Dec};
use crate::OraError;

fn bad_model() -> OraError {
    OraError::new(1481, "invalid number format model")
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct NumModel {
    fm: bool,
    dollar: bool,
    blank_zero: bool,
    lead_sign: bool,
    trail_sign: bool,
    trail_minus: bool,
    brackets: bool,
    sci: bool,
    hex: Option<bool>,
    /// `TM`, `TM9` or `TME` (`true`: scientific).
    text_min: Option<bool>,
    /// Integer positions left to right: `'9'`, `'0'` or a group separator `','`.
    int: Vec<char>,
    /// Fraction positions: `'9'` or `'0'`.
    frac: Vec<char>,
    has_point: bool,
    shift: u32,
}

pub fn parse_model(fmt: &str) -> Result<NumModel, OraError> {
    let u = fmt.to_ascii_uppercase();
    let mut m = NumModel::default();
    if let Some(rest) = u.strip_prefix("TM") {
        m.text_min = match rest {
            "" | "9" => Some(false),
            "E" => Some(true),
            _ => return Err(bad_model()),
        };
        return Ok(m);
    }
    let b = u.as_bytes();
    let mut i = 0;
    let mut after_point = false;
    while i < b.len() {
        let rest = &u[i..];
        match b[i] {
            b'F' if rest.starts_with("FM") => {
                m.fm = true;
                i += 2;
            }
            b'$' => {
                m.dollar = true;
                i += 1;
            }
            b'B' => {
                m.blank_zero = true;
                i += 1;
            }
            b'S' => {
                if m.int.is_empty() && m.frac.is_empty() && !m.has_point {
                    m.lead_sign = true;
                } else {
                    m.trail_sign = true;
                }
                i += 1;
            }
            b'M' if rest.starts_with("MI") => {
                m.trail_minus = true;
                i += 2;
            }
            b'P' if rest.starts_with("PR") => {
                m.brackets = true;
                i += 2;
            }
            b'E' if rest.starts_with("EEEE") => {
                m.sci = true;
                i += 4;
            }
            b'X' => {
                m.hex = Some(fmt.as_bytes()[i] == b'X');
                m.int.push('9');
                i += 1;
            }
            b'9' | b'0' => {
                if after_point {
                    m.frac.push(char::from(b[i]));
                } else {
                    m.int.push(char::from(b[i]));
                }
                i += 1;
            }
            b',' | b'G' => {
                if after_point {
                    return Err(bad_model());
                }
                m.int.push(',');
                i += 1;
            }
            b'.' | b'D' => {
                if after_point {
                    return Err(bad_model());
                }
                after_point = true;
                m.has_point = true;
                i += 1;
            }
            b'V' => {
                let n = rest[1..]
                    .bytes()
                    .take_while(|c| *c == b'9' || *c == b'0')
                    .count();
                if n > 30 {
                    return Err(bad_model());
                }
                m.shift = n as u32;
                m.int.extend(std::iter::repeat_n('9', n));
                i += 1 + n;
            }
            b'L' | b'C' | b'U' => {
                return Err(crate::unimplemented(
                    "currency elements L, C and U of number formats",
                ))
            }
            b'R' if rest.starts_with("RN") => {
                return Err(crate::unimplemented("roman numeral number formats"))
            }
            _ => return Err(bad_model()),
        }
    }
    Ok(m)
}

impl NumModel {
    fn width(&self) -> usize {
        let digits = self.int.len() + self.frac.len() + usize::from(self.has_point);
        digits
            + usize::from(self.dollar)
            + if self.brackets { 2 } else { 1 }
            + if self.sci { 4 } else { 0 }
    }

    fn overflow(&self) -> String {
        "#".repeat(self.width().max(2))
    }
}

/// TO_CHAR(n, model): `decimal` and `group` are the session's characters.
pub fn format(n: &Dec, m: &NumModel, decimal: char, group: char) -> Result<String, OraError> {
    if let Some(sci) = m.text_min {
        return Ok(if sci {
            scientific(n, n.significant().len().saturating_sub(1), decimal)
        } else {
            n.to_oracle_text(decimal)
        });
    }
    if let Some(upper) = m.hex {
        return Ok(hex(n, m, upper));
    }
    let mut n = n.clone();
    if m.shift > 0 {
        n = n.mul(&Dec::from_i128(10i128.pow(m.shift))).round_scale(0);
    }
    let neg = n.is_negative();
    let abs = n.clone().abs();
    if m.sci {
        let body = scientific(&abs, m.frac.len(), decimal);
        return Ok(signed(body, neg, m));
    }
    let rounded = abs.round_scale(m.frac.len() as i32);
    if m.blank_zero && rounded.is_zero() {
        return Ok(if m.fm {
            String::new()
        } else {
            " ".repeat(m.width())
        });
    }
    let text = rounded.to_canonical();
    let (int_txt, frac_txt) = text.split_once('.').unwrap_or((&text, ""));
    let int_txt = if int_txt == "0" { "" } else { int_txt };
    let slots = m.int.iter().filter(|c| **c != ',').count();
    if int_txt.len() > slots {
        return Ok(m.overflow());
    }
    let first_zero = m.int.iter().position(|c| *c == '0');
    // Integer part, right to left.
    let mut int_out: Vec<char> = Vec::with_capacity(m.int.len());
    let digits: Vec<char> = int_txt.chars().collect();
    let mut k = digits.len();
    for (pos, slot) in m.int.iter().enumerate().rev() {
        let zero_fill = first_zero.is_some_and(|z| pos >= z);
        match slot {
            ',' => int_out.push(if k > 0 || zero_fill { group } else { ' ' }),
            _ if k > 0 => {
                k -= 1;
                int_out.push(digits[k]);
            }
            _ if zero_fill => int_out.push('0'),
            _ => int_out.push(' '),
        }
    }
    int_out.reverse();
    let mut body: String = int_out.into_iter().collect();
    // Oracle prints a lone 0 for a zero integer part when the model has no fraction digits.
    if int_txt.is_empty() && !body.ends_with('0') && m.frac.is_empty() && !m.int.is_empty() {
        body.pop();
        body.push('0');
    }
    if m.has_point {
        body.push(decimal);
        let fd: Vec<char> = frac_txt.chars().collect();
        let mut frac: String = (0..m.frac.len())
            .map(|j| fd.get(j).copied().unwrap_or('0'))
            .collect();
        if m.fm {
            // Fill mode drops trailing zeros of 9 positions.
            while frac.ends_with('0') && m.frac.get(frac.len() - 1) == Some(&'9') {
                frac.pop();
            }
        }
        body.push_str(&frac);
    }
    let body = if m.fm {
        body.trim_start().to_string()
    } else {
        body
    };
    let body = if m.dollar {
        let lead = body.len() - body.trim_start().len();
        format!("{}${}", &body[..lead], body.trim_start())
    } else {
        body
    };
    Ok(signed(body, neg, m))
}

/// Puts the sign where the model says: leading `-` before the first digit (blank when
/// positive), `S`, `MI` or `PR`.
fn signed(body: String, neg: bool, m: &NumModel) -> String {
    if m.brackets {
        return if neg {
            format!("<{}>", body.trim_start())
        } else if m.fm {
            body.trim_start().to_string()
        } else {
            format!(" {body} ")
        };
    }
    if m.lead_sign || m.trail_sign {
        let s = if neg { '-' } else { '+' };
        let t = body.trim_start();
        let pad = &body[..body.len() - t.len()];
        return if m.lead_sign {
            format!("{pad}{s}{t}")
        } else {
            format!("{body}{s}")
        };
    }
    if m.trail_minus {
        let s = if neg {
            "-"
        } else if m.fm {
            ""
        } else {
            " "
        };
        return format!("{body}{s}");
    }
    let t = body.trim_start();
    let pad = &body[..body.len() - t.len()];
    match (neg, m.fm) {
        (true, _) => format!("{pad}-{t}"),
        (false, true) => t.to_string(),
        (false, false) => format!("{pad} {t}"),
    }
}

fn scientific(n: &Dec, frac_digits: usize, decimal: char) -> String {
    if n.is_zero() {
        return format!("0{decimal}{}E+00", "0".repeat(frac_digits));
    }
    let r = n.clone().abs().round_digits(frac_digits + 1);
    let d = r.significant();
    let mut s = String::new();
    if n.is_negative() {
        s.push('-');
    }
    s.push(char::from(b'0' + d[0]));
    if frac_digits > 0 {
        s.push(decimal);
        for j in 1..=frac_digits {
            s.push(char::from(b'0' + d.get(j).copied().unwrap_or(0)));
        }
    }
    let e = r.exponent() - 1;
    s.push_str(&format!("E{}{:02}", if e < 0 { '-' } else { '+' }, e.abs()));
    s
}

fn hex(n: &Dec, m: &NumModel, upper: bool) -> String {
    let v = n.round_scale(0);
    let Some(v) = v.to_i128().filter(|v| *v >= 0) else {
        return m.overflow();
    };
    let h = if upper {
        format!("{v:X}")
    } else {
        format!("{v:x}")
    };
    let slots = m.int.len();
    if h.len() > slots {
        return m.overflow();
    }
    if m.fm {
        return h;
    }
    format!(" {h:>slots$}")
}

/// TO_NUMBER(text, model): the text read as the model lays it out.
pub fn parse(text: &str, m: &NumModel, decimal: char, group: char) -> Result<Dec, OraError> {
    let t = text.trim();
    if m.text_min.is_some() {
        return Dec::parse(&t.replace(decimal, ".")).ok_or_else(invalid_number);
    }
    if let Some(_upper) = m.hex {
        if t.is_empty() || t.len() > m.int.len() {
            return Err(invalid_number());
        }
        let v = u128::from_str_radix(t, 16).map_err(|_| invalid_number())?;
        return Ok(Dec::parse(&v.to_string()).unwrap_or_else(Dec::zero));
    }
    let mut s = t.to_string();
    let mut neg = false;
    if m.brackets && s.starts_with('<') && s.ends_with('>') {
        neg = true;
        s = s[1..s.len() - 1].to_string();
    }
    if m.trail_minus || m.trail_sign {
        if let Some(r) = s.strip_suffix('-') {
            neg = true;
            s = r.to_string();
        } else if let Some(r) = s.strip_suffix('+') {
            s = r.to_string();
        }
    }
    let st = s.trim_start();
    if let Some(r) = st.strip_prefix('-') {
        neg = true;
        s = r.to_string();
    } else if let Some(r) = st.strip_prefix('+') {
        s = r.to_string();
    }
    if m.dollar {
        s = s
            .trim_start()
            .strip_prefix('$')
            .ok_or_else(invalid_number)?
            .to_string();
    }
    let s: String = s
        .trim()
        .chars()
        .filter(|c| *c != group || !m.int.contains(&','))
        .collect();
    let (int, frac) = match s.split_once(decimal) {
        Some((a, b)) if m.has_point => (a.to_string(), b.to_string()),
        Some(_) => return Err(invalid_number()),
        None => (s.clone(), String::new()),
    };
    let slots = m.int.iter().filter(|c| **c != ',').count();
    if int.len() > slots || frac.len() > m.frac.len() || (int.is_empty() && frac.is_empty()) {
        return Err(invalid_number());
    }
    if !int.bytes().chain(frac.bytes()).all(|c| c.is_ascii_digit()) {
        return Err(invalid_number());
    }
    let mut d = Dec::parse(&format!(
        "{}.{}",
        if int.is_empty() { "0" } else { &int },
        frac
    ))
    .ok_or_else(invalid_number)?;
    if m.shift > 0 {
        d = d.div(&Dec::from_i128(10i128.pow(m.shift)))?;
    }
    Ok(if neg { d.negate() } else { d })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(n: &str, fmt: &str) -> String {
        format(
            &Dec::parse(n).unwrap(),
            &parse_model(fmt).unwrap(),
            '.',
            ',',
        )
        .unwrap()
    }

    #[test]
    fn formats_like_oracle() {
        assert_eq!(f("1234.5", "9,999.99"), " 1,234.50");
        assert_eq!(f("-1234.5", "9,999.99"), "-1,234.50");
        assert_eq!(f("0.5", "990.99"), "   0.50");
        assert_eq!(f("0.5", "999.99"), "    .50");
        assert_eq!(f("0", "999"), "   0");
        assert_eq!(f("5", "FM999"), "5");
        assert_eq!(f("1.5", "FM999.99"), "1.5");
        assert_eq!(f("1.5", "FM990.00"), "1.50");
        assert_eq!(f("12345", "999"), "####");
        assert_eq!(f("42", "S999"), " +42");
        assert_eq!(f("-42", "999MI"), " 42-");
        assert_eq!(f("-42", "999PR"), "<42>");
        assert_eq!(f("255", "XX"), " FF");
        assert_eq!(f("1234", "9.99EEEE"), " 1.23E+03");
        assert_eq!(f("12", "$999"), "  $12");
        assert_eq!(f("0.5", "TM9"), ".5");
        assert_eq!(f("1.5", "99V9"), "  15");
        assert_eq!(parse_model("9Q9").unwrap_err().code, 1481);
    }

    #[test]
    fn parses_with_models() {
        let p = |t: &str, fmt: &str| {
            parse(t, &parse_model(fmt).unwrap(), '.', ',').map(|d| d.to_canonical())
        };
        assert_eq!(p("1,234.50", "9,999.99").unwrap(), "1234.5");
        assert_eq!(p("-42", "999").unwrap(), "-42");
        assert_eq!(p("42-", "999MI").unwrap(), "-42");
        assert_eq!(p("FF", "XX").unwrap(), "255");
        assert_eq!(p("12345", "999").unwrap_err().code, 1722);
        assert_eq!(p("1x", "99").unwrap_err().code, 1722);
    }
}
