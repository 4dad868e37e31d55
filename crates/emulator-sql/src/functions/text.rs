//! Character functions: UPPER, LOWER, INITCAP, LENGTH[B], SUBSTR, INSTR, LTRIM, RTRIM, TRIM,
//! LPAD, RPAD, REPLACE, TRANSLATE, CONCAT, CHR, ASCII, UNISTR. Positions and lengths count
//! characters; a result of no characters is NULL, as Oracle keeps no empty strings.

use super::{int_arg, text_arg, Builtin, FuncCall};
use crate::ex::Cx;
use crate::{Datum, OraError};
use oracle_datum::ToCompactString;

fn text(s: String) -> Datum {
    Datum::text(s)
}

fn num(n: i64) -> Datum {
    Datum::Number(n.to_compact_string())
}

pub fn call(f: &FuncCall, cx: &Cx<'_>) -> Result<Datum, OraError> {
    use Builtin::*;
    if f.f == Concat {
        let a = text_arg(f, 0, cx)?.unwrap_or_default();
        let b = text_arg(f, 1, cx)?.unwrap_or_default();
        return Ok(text(a + &b));
    }
    if f.f == Chr {
        return Ok(match int_arg(f, 0, cx)? {
            None => Datum::Null,
            Some(n) => {
                let c = u32::try_from(n.rem_euclid(1 << 21))
                    .ok()
                    .and_then(char::from_u32)
                    .unwrap_or('\u{FFFD}');
                Datum::Text(c.to_compact_string())
            }
        });
    }
    let Some(s) = text_arg(f, 0, cx)? else {
        return Ok(Datum::Null);
    };
    Ok(match f.f {
        Upper => text(s.to_uppercase()),
        Lower => text(s.to_lowercase()),
        Initcap => text(initcap(&s)),
        Length => num(s.chars().count() as i64),
        Lengthb => num(s.len() as i64),
        Ascii => match s.chars().next() {
            Some(c) => num(i64::from(u32::from(c))),
            None => Datum::Null,
        },
        Unistr => text(unistr(&s)?),
        Substr => substr(f, &s, cx)?,
        Instr => instr(f, &s, cx)?,
        Ltrim | Rtrim | Trim(_) => trim(f, &s, cx)?,
        Lpad | Rpad => pad(f, s, cx)?,
        Replace => {
            let from = text_arg(f, 1, cx)?;
            let to = text_arg(f, 2, cx)?.unwrap_or_default();
            match from {
                None => text(s),
                Some(from) => text(s.replace(&from, &to)),
            }
        }
        Translate => {
            let (Some(from), Some(to)) = (text_arg(f, 1, cx)?, text_arg(f, 2, cx)?) else {
                return Ok(Datum::Null);
            };
            let from: Vec<char> = from.chars().collect();
            let to: Vec<char> = to.chars().collect();
            let out: String = s
                .chars()
                .filter_map(|c| match from.iter().position(|x| *x == c) {
                    Some(i) => to.get(i).copied(),
                    None => Some(c),
                })
                .collect();
            text(out)
        }
        _ => Datum::Null,
    })
}

fn initcap(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut start = true;
    for c in s.chars() {
        if c.is_alphanumeric() {
            if start {
                out.extend(c.to_uppercase());
            } else {
                out.extend(c.to_lowercase());
            }
            start = false;
        } else {
            out.push(c);
            start = true;
        }
    }
    out
}

/// SUBSTR(s, position[, length]): position 0 is 1, a negative one counts from the end.
fn substr(f: &FuncCall, s: &str, cx: &Cx<'_>) -> Result<Datum, OraError> {
    let Some(pos) = int_arg(f, 1, cx)? else {
        return Ok(Datum::Null);
    };
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len() as i64;
    let start = match pos {
        0 => 0,
        p if p > 0 => p - 1,
        p => n + p,
    };
    if start < 0 || start >= n {
        return Ok(Datum::Null);
    }
    let len = if f.args.len() > 2 {
        match int_arg(f, 2, cx)? {
            None => return Ok(Datum::Null),
            Some(l) if l < 1 => return Ok(Datum::Null),
            Some(l) => l,
        }
    } else {
        n
    };
    let end = start.saturating_add(len).min(n);
    Ok(text(chars[start as usize..end as usize].iter().collect()))
}

/// INSTR(s, sub[, position[, occurrence]]): 1-based, 0 when not found; a negative position
/// searches backwards from that many characters before the end.
fn instr(f: &FuncCall, s: &str, cx: &Cx<'_>) -> Result<Datum, OraError> {
    let Some(sub) = text_arg(f, 1, cx)? else {
        return Ok(Datum::Null);
    };
    let pos = if f.args.len() > 2 {
        match int_arg(f, 2, cx)? {
            None => return Ok(Datum::Null),
            Some(p) => p,
        }
    } else {
        1
    };
    let occ = if f.args.len() > 3 {
        match int_arg(f, 3, cx)? {
            None => return Ok(Datum::Null),
            Some(o) if o < 1 => {
                return Err(OraError::new(
                    1428,
                    format!("argument '{o}' is out of range"),
                ))
            }
            Some(o) => o,
        }
    } else {
        1
    };
    if pos == 0 {
        return Ok(num(0));
    }
    let hay: Vec<char> = s.chars().collect();
    let needle: Vec<char> = sub.chars().collect();
    let n = hay.len() as i64;
    let m = needle.len() as i64;
    let at = |i: i64| i >= 0 && i + m <= n && hay[i as usize..(i + m) as usize] == needle[..];
    let mut found = 0;
    if pos > 0 {
        let mut i = pos - 1;
        while i + m <= n {
            if at(i) {
                found += 1;
                if found == occ {
                    return Ok(num(i + 1));
                }
            }
            i += 1;
        }
    } else {
        let mut i = n + pos;
        if i + m > n {
            i = n - m;
        }
        while i >= 0 {
            if at(i) {
                found += 1;
                if found == occ {
                    return Ok(num(i + 1));
                }
            }
            i -= 1;
        }
    }
    Ok(num(0))
}

fn pad(f: &FuncCall, s: String, cx: &Cx<'_>) -> Result<Datum, OraError> {
    let Some(n) = int_arg(f, 1, cx)? else {
        return Ok(Datum::Null);
    };
    if n < 1 {
        return Ok(Datum::Null);
    }
    let n = n.min(32767) as usize;
    let fill: Vec<char> = if f.args.len() > 2 {
        match text_arg(f, 2, cx)? {
            None => return Ok(Datum::Null),
            Some(p) => p.chars().collect(),
        }
    } else {
        vec![' ']
    };
    let chars: Vec<char> = s.chars().collect();
    if chars.len() >= n {
        return Ok(text(chars[..n].iter().collect()));
    }
    let padding: String = fill.iter().cycle().take(n - chars.len()).collect();
    Ok(text(if f.f == Builtin::Lpad {
        padding + &s
    } else {
        s + &padding
    }))
}

/// LTRIM / RTRIM (a set of characters, blank by default) and TRIM (one character).
fn trim(f: &FuncCall, s: &str, cx: &Cx<'_>) -> Result<Datum, OraError> {
    use Builtin::*;
    Ok(match f.f {
        Ltrim | Rtrim => {
            let set: Vec<char> = match f.args.len() {
                1 => vec![' '],
                _ => match text_arg(f, 1, cx)? {
                    None => return Ok(Datum::Null),
                    Some(t) => t.chars().collect(),
                },
            };
            let r = if f.f == Ltrim {
                s.trim_start_matches(|c| set.contains(&c))
            } else {
                s.trim_end_matches(|c| set.contains(&c))
            };
            text(r.to_string())
        }
        Trim(mode) => {
            let ch = match f.args.len() {
                1 => ' ',
                _ => match text_arg(f, 1, cx)? {
                    None => return Ok(Datum::Null),
                    Some(t) => {
                        let mut it = t.chars();
                        match (it.next(), it.next()) {
                            (Some(c), None) => c,
                            _ => {
                                return Err(OraError::new(
                                    30001,
                                    "trim set should have only one character",
                                ))
                            }
                        }
                    }
                },
            };
            let r = match mode {
                'L' => s.trim_start_matches(ch),
                'T' => s.trim_end_matches(ch),
                _ => s.trim_matches(ch),
            };
            text(r.to_string())
        }
        _ => Datum::Null,
    })
}

/// UNISTR's argument with its escapes resolved (SQL Language Reference, UNISTR): `\xxxx` is
/// a UTF-16 code unit in hex, a supplementary character two of them (a high then a low
/// surrogate), `\\` a backslash; other characters are kept. Any other backslash is ORA-30186.
/// Oracle's national text can hold a lone surrogate; the emulator's text is Unicode scalar
/// values and cannot, so that is ORA-03001 rather than a different character.
fn unistr(s: &str) -> Result<String, OraError> {
    let bad_escape = || {
        OraError::new(
            30186,
            "'\\' must be followed by four hexadecimal characters or another '\\'",
        )
    };
    let lone = || crate::unimplemented("UNISTR of a lone UTF-16 surrogate");
    let mut out = String::with_capacity(s.len());
    let mut high: Option<u16> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        let unit = if c == '\\' {
            let rest = chars.as_str();
            if let Some(after) = rest.strip_prefix('\\') {
                chars = after.chars();
                None
            } else {
                let hex = rest
                    .get(..4)
                    .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
                let unit = hex
                    .and_then(|h| u16::from_str_radix(h, 16).ok())
                    .ok_or_else(bad_escape)?;
                chars = rest[4..].chars();
                Some(unit)
            }
        } else {
            None
        };
        let plain = if unit.is_none() { Some(c) } else { None };
        match (high.take(), unit) {
            (Some(h), Some(lo @ 0xDC00..=0xDFFF)) => {
                let code = 0x10000 + ((u32::from(h) - 0xD800) << 10) + (u32::from(lo) - 0xDC00);
                out.push(char::from_u32(code).ok_or_else(lone)?);
            }
            (Some(_), _) => return Err(lone()),
            (None, Some(u @ 0xD800..=0xDBFF)) => high = Some(u),
            (None, Some(u)) => out.push(char::from_u32(u32::from(u)).ok_or_else(lone)?),
            (None, None) => out.push(plain.unwrap_or('\\')),
        }
    }
    if high.is_some() {
        return Err(lone());
    }
    Ok(out)
}
