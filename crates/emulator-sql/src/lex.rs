//! Tokens of a statement, each with its byte span, and the errors Oracle's lexer raises
//! (unterminated quotes and comments, invalid characters, over-long identifiers).
//!
//! Unquoted identifiers are upper-cased here, as Oracle folds them; quoted ones keep their
//! case. Bind placeholders keep their name (upper-cased unless quoted) so the parser can number
//! them the SQL way (every occurrence) or the PL/SQL way (every distinct name).

use crate::OraError;

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// Unquoted identifier or keyword, upper-cased.
    Word(String),
    /// `"quoted identifier"`, as written.
    Quoted(String),
    /// Numeric literal as written (`1`, `.5`, `1e3`).
    Num(String),
    /// `1.5f` / `1.5d`: the text and whether it is a BINARY_DOUBLE.
    BinNum(String, bool),
    /// String literal, quotes removed; `national` for `N'…'`.
    Str(String, bool),
    /// `:name` / `:1`: the name as Oracle compares it.
    Bind(String),
    /// Operators and punctuation; `!=`, `^=` and `~=` arrive as `<>`.
    Op(&'static str),
    End,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    /// Byte offset of the first character.
    pub pos: usize,
    /// Byte offset just past the last character.
    pub end: usize,
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '$' | '#')
}

/// Oracle's longest identifier (12.2 and later), in bytes.
const MAX_IDENT: usize = 128;

pub fn lex(text: &str) -> Result<Vec<Token>, OraError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let rest = &text[i..];
        let Some(ch) = rest.chars().next() else { break };
        if ch.is_whitespace() {
            i += ch.len_utf8();
            continue;
        }
        if rest.starts_with("--") {
            i = rest.find('\n').map_or(b.len(), |n| i + n);
            continue;
        }
        if let Some(body) = rest.strip_prefix("/*") {
            let n = body
                .find("*/")
                .ok_or_else(|| OraError::new(1742, "comment not properly terminated").at(i))?;
            i += n + 4;
            continue;
        }
        let tok = if let Some((tok, len)) = string_literal(text, i)? {
            i += len;
            tok
        } else if ch == '"' {
            let n = rest[1..].find('"').ok_or_else(|| {
                OraError::new(1740, "missing double quote in identifier").at(start)
            })?;
            if n == 0 {
                return Err(OraError::new(1741, "illegal zero-length identifier").at(start));
            }
            i += n + 2;
            Tok::Quoted(rest[1..=n].to_string())
        } else if ch.is_ascii_digit() || (ch == '.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let (tok, len) = number(rest);
            i += len;
            tok
        } else if ch.is_alphabetic() {
            let n = rest
                .char_indices()
                .find(|&(_, c)| !is_ident_char(c))
                .map_or(rest.len(), |(n, _)| n);
            i += n;
            Tok::Word(rest[..n].to_uppercase())
        } else if ch == ':' && !rest.starts_with(":=") {
            let (tok, len) = bind(text, i)?;
            i += len;
            tok
        } else {
            let (op, n) =
                operator(rest).ok_or_else(|| OraError::new(911, "invalid character").at(start))?;
            i += n;
            Tok::Op(op)
        };
        if let Tok::Word(w) | Tok::Quoted(w) = &tok {
            if w.len() > MAX_IDENT {
                return Err(OraError::new(972, "identifier is too long").at(start));
            }
        }
        out.push(Token {
            tok,
            pos: start,
            end: i,
        });
    }
    out.push(Token {
        tok: Tok::End,
        pos: text.len(),
        end: text.len(),
    });
    Ok(out)
}

/// `'…'`, `N'…'`, `q'[…]'`, `Nq'…'` at `i`: the token and its length in bytes.
fn string_literal(text: &str, i: usize) -> Result<Option<(Tok, usize)>, OraError> {
    let b = text.as_bytes();
    let upper = |k: usize| b.get(i + k).map(u8::to_ascii_uppercase);
    let (national, q, skip) = match (upper(0), upper(1), upper(2)) {
        (Some(b'\''), _, _) => (false, false, 1),
        (Some(b'N'), Some(b'\''), _) => (true, false, 2),
        (Some(b'Q'), Some(b'\''), _) => (false, true, 2),
        (Some(b'N'), Some(b'Q'), Some(b'\'')) => (true, true, 3),
        _ => return Ok(None),
    };
    // A word ending in N or Q (`AN'x'`) is not a prefix: only a token start can be.
    if skip > 1 && i > 0 {
        let prev = text[..i].chars().next_back().unwrap_or(' ');
        if is_ident_char(prev) {
            return Ok(None);
        }
    }
    let unterminated = || OraError::new(1756, "quoted string not properly terminated").at(i);
    let body_start = i + skip;
    if q {
        let open = text[body_start..].chars().next().ok_or_else(unterminated)?;
        if open.is_whitespace() {
            return Err(unterminated());
        }
        let close = match open {
            '[' => ']',
            '{' => '}',
            '(' => ')',
            '<' => '>',
            c => c,
        };
        let inner = body_start + open.len_utf8();
        let mut pat = String::new();
        pat.push(close);
        pat.push('\'');
        let n = text[inner..].find(&pat).ok_or_else(unterminated)?;
        let s = text[inner..inner + n].to_string();
        return Ok(Some((Tok::Str(s, national), inner + n + pat.len() - i)));
    }
    let mut s = String::new();
    let mut j = body_start;
    loop {
        let n = text[j..].find('\'').ok_or_else(unterminated)?;
        s.push_str(&text[j..j + n]);
        j += n + 1;
        if b.get(j) != Some(&b'\'') {
            break;
        }
        s.push('\'');
        j += 1;
    }
    Ok(Some((Tok::Str(s, national), j - i)))
}

/// A numeric literal at the start of `rest`: digits, an optional fraction and exponent, and
/// an optional `f`/`d` suffix (BINARY_FLOAT / BINARY_DOUBLE).
fn number(rest: &str) -> (Tok, usize) {
    let b = rest.as_bytes();
    let digits = |mut j: usize| {
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        j
    };
    let mut i = digits(0);
    if b.get(i) == Some(&b'.') && b.get(i + 1) != Some(&b'.') {
        i = digits(i + 1);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let j = i + 1 + usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        if b.get(j).is_some_and(u8::is_ascii_digit) {
            i = digits(j);
        }
    }
    let lit = rest[..i].to_string();
    match (b.get(i), b.get(i + 1)) {
        (Some(s @ (b'f' | b'F' | b'd' | b'D')), next)
            if !next
                .is_some_and(|n| n.is_ascii_alphanumeric() || matches!(n, b'_' | b'$' | b'#')) =>
        {
            (Tok::BinNum(lit, matches!(s, b'd' | b'D')), i + 1)
        }
        _ => (Tok::Num(lit), i),
    }
}

/// `:name`, `:1`, `:"Name"` at `i`.
fn bind(text: &str, i: usize) -> Result<(Tok, usize), OraError> {
    let rest = &text[i + 1..];
    let bad = || OraError::new(1036, "illegal variable name/number").at(i);
    if let Some(q) = rest.strip_prefix('"') {
        let n = q.find('"').ok_or_else(bad)?;
        if n == 0 {
            return Err(bad());
        }
        return Ok((Tok::Bind(q[..n].to_string()), n + 3));
    }
    let n = rest
        .char_indices()
        .find(|&(_, c)| !is_ident_char(c))
        .map_or(rest.len(), |(n, _)| n);
    if n == 0 {
        return Err(bad());
    }
    let name = &rest[..n];
    let numeric = name.bytes().all(|c| c.is_ascii_digit());
    let alpha_start = name.chars().next().is_some_and(char::is_alphabetic);
    if !numeric && !alpha_start {
        return Err(bad());
    }
    Ok((Tok::Bind(name.to_uppercase()), n + 1))
}

fn operator(rest: &str) -> Option<(&'static str, usize)> {
    const TWO: [(&str, &str); 11] = [
        ("<>", "<>"),
        ("!=", "<>"),
        ("^=", "<>"),
        ("~=", "<>"),
        ("<=", "<="),
        (">=", ">="),
        ("||", "||"),
        (":=", ":="),
        ("=>", "=>"),
        ("..", ".."),
        ("**", "**"),
    ];
    if let Some((_, op)) = TWO.iter().find(|(k, _)| rest.starts_with(k)) {
        return Some((op, 2));
    }
    let op = match rest.as_bytes().first()? {
        b'=' => "=",
        b'<' => "<",
        b'>' => ">",
        b'(' => "(",
        b')' => ")",
        b',' => ",",
        b'+' => "+",
        b'-' => "-",
        b'*' => "*",
        b'/' => "/",
        b'.' => ".",
        b';' => ";",
        b'@' => "@",
        b'%' => "%",
        b'|' => "|",
        _ => return None,
    };
    Some((op, 1))
}

/// The character offset of byte offset `byte` in `text` (Oracle reports character positions).
pub fn char_offset(text: &str, byte: usize) -> usize {
    let byte = byte.min(text.len());
    let mut b = byte;
    while b > 0 && !text.is_char_boundary(b) {
        b -= 1;
    }
    text[..b].chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn literals_and_words() {
        assert_eq!(
            toks("select 'it''s', q'[a ' b]', N'x', nq'{y}', 1.5, .5, 1e3, 2f, x$#_"),
            vec![
                Tok::Word("SELECT".into()),
                Tok::Str("it's".into(), false),
                Tok::Op(","),
                Tok::Str("a ' b".into(), false),
                Tok::Op(","),
                Tok::Str("x".into(), true),
                Tok::Op(","),
                Tok::Str("y".into(), true),
                Tok::Op(","),
                Tok::Num("1.5".into()),
                Tok::Op(","),
                Tok::Num(".5".into()),
                Tok::Op(","),
                Tok::Num("1e3".into()),
                Tok::Op(","),
                Tok::BinNum("2".into(), false),
                Tok::Op(","),
                Tok::Word("X$#_".into()),
                Tok::End,
            ]
        );
    }

    #[test]
    fn binds_comments_and_operators() {
        assert_eq!(
            toks("a != :x1 -- c\n/* d */ :1 := => :\"q\""),
            vec![
                Tok::Word("A".into()),
                Tok::Op("<>"),
                Tok::Bind("X1".into()),
                Tok::Bind("1".into()),
                Tok::Op(":="),
                Tok::Op("=>"),
                Tok::Bind("q".into()),
                Tok::End,
            ]
        );
    }

    #[test]
    fn errors_carry_positions() {
        assert_eq!(lex("select 'x").unwrap_err().code, 1756);
        assert_eq!(lex("a /* x").unwrap_err().code, 1742);
        assert_eq!(lex("a \"x").unwrap_err().code, 1740);
        assert_eq!(lex("a \"\"").unwrap_err().code, 1741);
        let e = lex("a ? b").unwrap_err();
        assert_eq!((e.code, e.position), (911, Some(2)));
        assert_eq!(lex(&"x".repeat(129)).unwrap_err().code, 972);
        assert_eq!(lex(": x").unwrap_err().code, 1036);
    }
}
