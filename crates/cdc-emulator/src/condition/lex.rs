//! Tokens of a condition: words, quoted identifiers, numbers, strings and operators, with
//! the errors Oracle's lexer raises (unterminated quotes and comments, bind variables).
use super::{fail, unimpl};
use crate::errors::Result;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    /// Unquoted identifier or keyword, upper-cased.
    Word(String),
    Quoted(String),
    /// Literal text and a `f`/`d` suffix (BINARY_FLOAT / BINARY_DOUBLE literal).
    Num(String, Option<char>),
    /// Text and whether it is national (`N'…'`).
    Str(String, bool),
    /// Operators and punctuation; `!=` and `^=` arrive as `<>`.
    Op(&'static str),
    End,
}

pub(super) fn lex(text: &str) -> Result<Vec<(Tok, usize)>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let (start, rest, c) = (i, &text[i..], b[i]);
        let ch = rest.chars().next().unwrap_or(' ');
        let tok = if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if rest.starts_with("--") {
            i = rest.find('\n').map_or(b.len(), |n| i + n);
            continue;
        } else if let Some(body) = rest.strip_prefix("/*") {
            let n = body
                .find("*/")
                .ok_or_else(|| fail(text, i, "ORA-01742: comment not properly terminated"))?;
            i += n + 4;
            continue;
        } else if c == b'\'' || (matches!(c, b'n' | b'N') && b.get(i + 1) == Some(&b'\'')) {
            let national = c != b'\'';
            i += 1 + usize::from(national);
            let mut s = String::new();
            loop {
                let n = text[i..].find('\'').ok_or_else(|| {
                    fail(
                        text,
                        start,
                        "ORA-01756: quoted string not properly terminated",
                    )
                })?;
                s.push_str(&text[i..i + n]);
                i += n + 1;
                if b.get(i) != Some(&b'\'') {
                    break;
                }
                s.push('\'');
                i += 1;
            }
            Tok::Str(s, national)
        } else if c == b'"' {
            let n = rest[1..]
                .find('"')
                .ok_or_else(|| fail(text, i, "ORA-01740: missing double quote in identifier"))?;
            if n == 0 {
                return Err(fail(text, i, "ORA-01741: illegal zero-length identifier"));
            }
            i += n + 2;
            Tok::Quoted(rest[1..=n].to_string())
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let digits = |mut j: usize| {
                while b.get(j).is_some_and(u8::is_ascii_digit) {
                    j += 1;
                }
                j
            };
            i = digits(i);
            if b.get(i) == Some(&b'.') {
                i = digits(i + 1);
            }
            if matches!(b.get(i), Some(b'e' | b'E')) {
                let j = i + 1 + usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
                if b.get(j).is_some_and(u8::is_ascii_digit) {
                    i = digits(j);
                }
            }
            let lit = text[start..i].to_string();
            let suffix = match (b.get(i), b.get(i + 1)) {
                (Some(s @ (b'f' | b'F' | b'd' | b'D')), next)
                    if !next.is_some_and(|n| n.is_ascii_alphanumeric() || *n == b'_') =>
                {
                    i += 1;
                    Some(s.to_ascii_lowercase() as char)
                }
                _ => None,
            };
            Tok::Num(lit, suffix)
        } else if ch.is_alphabetic() {
            let n = rest
                .char_indices()
                .find(|&(_, ch)| !(ch.is_alphanumeric() || matches!(ch, '_' | '$' | '#')))
                .map_or(rest.len(), |(n, _)| n);
            i += n;
            let word = rest[..n].to_uppercase();
            if (word == "Q" || word == "NQ") && b.get(i) == Some(&b'\'') {
                return Err(fail(text, start, &unimpl("q'…' quoting")));
            }
            Tok::Word(word)
        } else {
            let (op, n) = match rest.get(..2) {
                Some("<>" | "!=" | "^=") => ("<>", 2),
                Some("<=") => ("<=", 2),
                Some(">=") => (">=", 2),
                Some("||") => ("||", 2),
                _ => match c {
                    b'=' => ("=", 1),
                    b'<' => ("<", 1),
                    b'>' => (">", 1),
                    b'(' => ("(", 1),
                    b')' => (")", 1),
                    b',' => (",", 1),
                    b'+' => ("+", 1),
                    b'-' => ("-", 1),
                    b'*' => ("*", 1),
                    b'/' => ("/", 1),
                    b'.' => (".", 1),
                    // A bind variable: the condition is pasted as text, so nothing binds it.
                    b':' => return Err(fail(text, i, "ORA-01008: not all variables bound")),
                    // `;` included: OCI sends one statement, the lexer knows no `;`.
                    _ => return Err(fail(text, i, "ORA-00911: invalid character")),
                },
            };
            i += n;
            Tok::Op(op)
        };
        if let Tok::Word(w) | Tok::Quoted(w) = &tok {
            if w.len() > 128 {
                return Err(fail(text, start, "ORA-00972: identifier is too long"));
            }
        }
        out.push((tok, start));
    }
    out.push((Tok::End, text.len()));
    Ok(out)
}
