//! SQL conditions evaluated by the emulator: the extra condition of a snapshot read
//! (`cdc.snapshot.select.override.*`, a signal's `additional-conditions`), with Oracle's typing,
//! implicit conversions and three-valued logic.
//!
//! Oracle runs `… WHERE <range> AND (<condition>)`, so syntax errors are the ones Oracle reports
//! for text inside those parentheses. The session is the one [`Value`]'s texts assume:
//! NLS_DATE_FORMAT `YYYY-MM-DD HH24:MI:SS`, NLS_TIMESTAMP_FORMAT `…SS.FF9`, NLS_TIMESTAMP_TZ_FORMAT
//! `…SS.FF9 TZH:TZM`, NLS_COMP=BINARY, time zone UTC, character sets AL32UTF8 / AL16UTF16.
//! What Oracle accepts but the emulator cannot evaluate fails with ORA-03001 (unimplemented
//! feature), never with a silently different answer.
use crate::errors::{CdcError, Result};
use crate::source::model::ColumnInfo;
use crate::types::{compare_decimal, ColumnType, Value};
use std::borrow::Cow;
use std::cmp::Ordering;

/// A compiled condition over one table's columns.
#[derive(Debug, Clone)]
pub struct Condition {
    root: Node,
}

/// Compile `text` (a WHERE clause without `WHERE`) against the table's columns.
pub fn compile(text: &str, columns: &[ColumnInfo]) -> Result<Condition> {
    let toks = lex(text)?;
    let mut p = Parser {
        text,
        toks,
        i: 0,
        cols: columns,
    };
    let root = p.or()?;
    match p.peek() {
        Tok::End => Ok(Condition { root }),
        // The stray `)` closes Oracle's own parenthesis; whatever else follows is inside it.
        Tok::Op(")") => Err(p.err("ORA-00933: SQL command not properly ended")),
        _ => Err(p.err("ORA-00907: missing right parenthesis")),
    }
}

impl Condition {
    pub fn matches(&self, row: &[Value]) -> bool {
        self.eval(row) == Some(true)
    }

    /// TRUE, FALSE or UNKNOWN (`None`).
    fn eval(&self, row: &[Value]) -> Option<bool> {
        self.root.eval(row)
    }
}

const UNIMPLEMENTED: &str = "ORA-03001: unimplemented feature";
const BAD_NUMBER: &str = "ORA-01722: invalid number";
const MISSING_EXPR: &str = "ORA-00936: missing expression";

fn unimpl(what: &str) -> String {
    format!("{UNIMPLEMENTED} (the emulator does not evaluate {what})")
}

fn fail(text: &str, pos: usize, msg: &str) -> CdcError {
    let pos = pos.min(text.len());
    let near: String = text[pos..].chars().take(24).collect();
    CdcError::Database(if near.trim().is_empty() {
        format!("{msg} at the end of condition `{text}`")
    } else {
        let at = text[..pos].chars().count() + 1;
        format!("{msg} at position {at} (`{near}`) of condition `{text}`")
    })
}

// ---------------------------------------------------------------- tokens

#[derive(Debug, Clone, PartialEq)]
enum Tok {
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

fn lex(text: &str) -> Result<Vec<(Tok, usize)>> {
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

// ---------------------------------------------------------------- typing

/// Static SQL type of an operand, for the types that can be compared.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ty {
    Null,
    Num,
    BinF,
    BinD,
    /// `fixed`: CHAR/NCHAR or a text literal (blank-padded comparison between two of them).
    Chr {
        fixed: bool,
        national: bool,
    },
    Date,
    Ts,
    Tstz,
    Raw,
}

impl Ty {
    /// As ORA-00932 names it.
    fn name(self) -> &'static str {
        match self {
            Ty::Null => "-",
            Ty::Num => "NUMBER",
            Ty::BinF => "BINARY_FLOAT",
            Ty::BinD => "BINARY_DOUBLE",
            Ty::Chr { .. } => "CHAR",
            Ty::Date => "DATE",
            Ty::Ts => "TIMESTAMP",
            Ty::Tstz => "TIMESTAMP WITH TIME ZONE",
            Ty::Raw => "BINARY",
        }
    }
}

/// A column's type in comparisons, or the error Oracle raises for comparing it.
fn column_ty(t: &ColumnType) -> std::result::Result<Ty, String> {
    let inconsistent =
        |got: &str| format!("ORA-00932: inconsistent datatypes: expected - got {got}");
    Ok(match t {
        ColumnType::Varchar2 { .. } => Ty::Chr {
            fixed: false,
            national: false,
        },
        ColumnType::Nvarchar2 { .. } => Ty::Chr {
            fixed: false,
            national: true,
        },
        ColumnType::Char { .. } => Ty::Chr {
            fixed: true,
            national: false,
        },
        ColumnType::Nchar { .. } => Ty::Chr {
            fixed: true,
            national: true,
        },
        ColumnType::Number { .. } | ColumnType::Float { .. } => Ty::Num,
        ColumnType::BinaryFloat => Ty::BinF,
        ColumnType::BinaryDouble => Ty::BinD,
        ColumnType::Date => Ty::Date,
        ColumnType::Timestamp { .. } => Ty::Ts,
        ColumnType::TimestampTz { .. } | ColumnType::TimestampLtz { .. } => Ty::Tstz,
        ColumnType::Raw { .. } => Ty::Raw,
        ColumnType::Clob => return Err(inconsistent("CLOB")),
        ColumnType::Nclob => return Err(inconsistent("NCLOB")),
        ColumnType::Blob => return Err(inconsistent("BLOB")),
        ColumnType::Bfile => return Err(inconsistent("BFILE")),
        ColumnType::Xmltype => return Err(inconsistent("-")),
        ColumnType::Long | ColumnType::LongRaw => {
            return Err("ORA-00997: illegal use of LONG datatype".into())
        }
        ColumnType::Json => {
            return Err("ORA-40796: invalid comparison operation involving JSON type value".into())
        }
        ColumnType::Vector { .. } => {
            return Err("ORA-22848: cannot use VECTOR type as comparison key".into())
        }
        other => {
            return Err(unimpl(&format!(
                "comparisons of {} columns",
                other.sql_name()
            )))
        }
    })
}

/// Why LIKE cannot take this column, if it cannot (LIKE reads it as text: TO_CHAR for numbers
/// and datetimes, the LOB itself for CLOB).
fn like_refusal(t: &ColumnType) -> Option<String> {
    match t {
        ColumnType::Varchar2 { .. }
        | ColumnType::Nvarchar2 { .. }
        | ColumnType::Char { .. }
        | ColumnType::Nchar { .. }
        | ColumnType::Number { .. }
        | ColumnType::Float { .. }
        | ColumnType::Date
        | ColumnType::Timestamp { .. }
        | ColumnType::TimestampTz { .. }
        | ColumnType::Clob
        | ColumnType::Nclob => None,
        ColumnType::Blob
        | ColumnType::Bfile
        | ColumnType::Xmltype
        | ColumnType::Long
        | ColumnType::LongRaw
        | ColumnType::Json
        | ColumnType::Vector { .. } => column_ty(t).err(),
        other => Some(unimpl(&format!("LIKE on {} columns", other.sql_name()))),
    }
}

/// What two operands are compared as, after Oracle's implicit conversions.
#[derive(Debug, Clone, Copy)]
enum Domain {
    /// One side is NULL: always UNKNOWN.
    Never,
    Dec,
    Float {
        single: bool,
    },
    Text {
        padded: bool,
        national: bool,
    },
    Raw,
    /// Datetimes; text converts with this NLS format.
    Dt(&'static Fmt),
}

fn domain(l: Ty, r: Ty) -> std::result::Result<Domain, String> {
    let numeric = |t| match t {
        Ty::Num => Some(0),
        Ty::BinF => Some(1),
        Ty::BinD => Some(2),
        _ => None,
    };
    let nls = |t| match t {
        Ty::Date => Some(DATE_FMT),
        Ty::Ts => Some(TS_FMT),
        Ty::Tstz => Some(TSTZ_FMT),
        _ => None,
    };
    let chr = |t| matches!(t, Ty::Chr { .. });
    Ok(match (l, r) {
        (Ty::Null, _) | (_, Ty::Null) => Domain::Never,
        (
            Ty::Chr {
                fixed: a,
                national: x,
            },
            Ty::Chr {
                fixed: b,
                national: y,
            },
        ) => Domain::Text {
            padded: a && b,
            national: x || y,
        },
        // Character data converts to the other side's numeric type; numbers convert upwards
        // NUMBER < BINARY_FLOAT < BINARY_DOUBLE.
        _ if (numeric(l).is_some() || chr(l)) && (numeric(r).is_some() || chr(r)) => {
            match numeric(l).max(numeric(r)) {
                Some(2) => Domain::Float { single: false },
                Some(1) => Domain::Float { single: true },
                _ => Domain::Dec,
            }
        }
        // DATE and TIMESTAMP compare as TIMESTAMP WITH TIME ZONE in the (UTC) session zone.
        _ if nls(l).is_some() && nls(r).is_some() => Domain::Dt(TSTZ_FMT),
        (t, Ty::Chr { .. }) | (Ty::Chr { .. }, t) if nls(t).is_some() => {
            Domain::Dt(nls(t).unwrap_or(TSTZ_FMT))
        }
        (Ty::Raw, Ty::Raw) => Domain::Raw,
        // RAW meets text as RAWTOHEX(raw): upper-case hex, a VARCHAR2 (so 'abc' never matches).
        (Ty::Raw, Ty::Chr { national, .. }) | (Ty::Chr { national, .. }, Ty::Raw) => Domain::Text {
            padded: false,
            national,
        },
        _ => {
            return Err(format!(
                "ORA-00932: inconsistent datatypes: expected {} got {}",
                l.name(),
                r.name()
            ))
        }
    })
}

// ---------------------------------------------------------------- values

/// A value on its way to a comparison; borrows the row so most rows allocate nothing.
#[derive(Debug, Clone)]
enum K<'a> {
    Null,
    Num(Cow<'a, str>),
    F(f64),
    Text(&'a str),
    Bytes(&'a [u8]),
    Dt(Dt),
    /// A stored DATE/TIMESTAMP/TIMESTAMP WITH TIME ZONE text, parsed only when compared.
    DtText(&'a str),
}

/// A literal, kept in the form its comparison needs.
#[derive(Debug, Clone)]
enum Lit {
    Null,
    Num(String),
    F(f64),
    Text(String),
    Dt(Dt),
}

impl Lit {
    fn view(&self) -> K<'_> {
        match self {
            Lit::Null => K::Null,
            Lit::Num(s) => K::Num(Cow::Borrowed(s)),
            Lit::F(f) => K::F(*f),
            Lit::Text(s) => K::Text(s),
            Lit::Dt(d) => K::Dt(*d),
        }
    }

    fn from_key(k: K<'_>) -> Lit {
        match k {
            K::Num(s) => Lit::Num(s.into_owned()),
            K::F(f) => Lit::F(f),
            K::Text(s) => Lit::Text(s.to_string()),
            K::Dt(d) => Lit::Dt(d),
            K::Null | K::DtText(_) | K::Bytes(_) => Lit::Null,
        }
    }
}

fn view(v: &Value) -> K<'_> {
    match v {
        Value::Number(s) => K::Num(Cow::Borrowed(s)),
        // Oracle stores '' as NULL; an empty text here can only mean NULL.
        Value::Text(s) if !s.is_empty() => K::Text(s),
        Value::BinaryFloat(f) => K::F(f64::from(*f)),
        Value::BinaryDouble(f) => K::F(*f),
        Value::Date(s) | Value::Timestamp(s) | Value::TimestampTz(s) => K::DtText(s),
        Value::Bytes(b) if !b.is_empty() => K::Bytes(b),
        _ => K::Null,
    }
}

/// Oracle's implicit conversion of `k` into the comparison's domain; the error is the ORA text.
fn to_domain(d: Domain, k: K<'_>) -> std::result::Result<K<'_>, &'static str> {
    match (d, k) {
        (_, K::Null) => Ok(K::Null),
        (Domain::Dec, k @ K::Num(_)) => Ok(k),
        (Domain::Dec, K::Text(s)) => to_number(s).map(|n| K::Num(Cow::Owned(n))),
        (Domain::Float { single }, K::F(f)) => Ok(K::F(if single { f as f32 as f64 } else { f })),
        (Domain::Float { single }, K::Num(s)) => parse_float(&s, single),
        (Domain::Float { single }, K::Text(s)) => split_number(s)
            .ok_or(BAD_NUMBER)
            .and_then(|_| parse_float(s, single)),
        (Domain::Text { .. }, k @ K::Text(_)) => Ok(k),
        (Domain::Raw | Domain::Text { .. }, k @ K::Bytes(_)) => Ok(k),
        (Domain::Dt(_), k @ K::Dt(_)) => Ok(k),
        (Domain::Dt(_), K::DtText(s)) => parse_dt(s, TSTZ_FMT).map(|(d, _)| K::Dt(d)),
        (Domain::Dt(fmt), K::Text(s)) => parse_dt(s, fmt).map(|(d, _)| K::Dt(d)),
        _ => Err("ORA-00932: inconsistent datatypes"),
    }
}

fn compare(d: Domain, a: &K<'_>, b: &K<'_>) -> Option<Ordering> {
    match (a, b) {
        (K::Num(x), K::Num(y)) => Some(compare_decimal(x, y)),
        // IEEE order except that NaN equals NaN and sorts above +Inf, and -0 equals 0.
        (K::F(x), K::F(y)) => Some(match (x.is_nan(), y.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        }),
        (K::Text(_) | K::Bytes(_), K::Text(_) | K::Bytes(_)) if !matches!(d, Domain::Raw) => {
            let Domain::Text { padded, national } = d else {
                return None;
            };
            Some(text_order(a, b, padded, national))
        }
        (K::Bytes(x), K::Bytes(y)) => Some(x.cmp(y)),
        (K::Dt(x), K::Dt(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

/// Character comparison of text and RAWTOHEX'd bytes. NCHAR data is AL16UTF16, so national
/// comparisons order by UTF-16 code units (hex digits are the same in both).
fn text_order(a: &K<'_>, b: &K<'_>, padded: bool, national: bool) -> Ordering {
    fn hex(b: &[u8]) -> impl Iterator<Item = u8> + '_ {
        const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
        b.iter()
            .flat_map(|x| [DIGITS[usize::from(x >> 4)], DIGITS[usize::from(x & 15)]])
    }
    match (a, b) {
        (K::Text(x), K::Text(y)) if national => units(x.encode_utf16(), y.encode_utf16(), padded),
        (K::Text(x), K::Text(y)) => units(x.bytes(), y.bytes(), padded),
        (K::Bytes(x), K::Text(y)) if national => {
            units(hex(x).map(u16::from), y.encode_utf16(), false)
        }
        (K::Bytes(x), K::Text(y)) => units(hex(x), y.bytes(), false),
        (K::Text(_), K::Bytes(_)) => text_order(b, a, padded, national).reverse(),
        _ => Ordering::Equal,
    }
}

/// Binary comparison; `padded` compares as if the shorter value were padded with blanks.
fn units<T: Into<u32>>(
    a: impl Iterator<Item = T>,
    b: impl Iterator<Item = T>,
    padded: bool,
) -> Ordering {
    let (mut a, mut b) = (a.map(Into::<u32>::into), b.map(Into::<u32>::into));
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => {}
            (Some(x), Some(y)) => return x.cmp(&y),
            (None, None) => return Ordering::Equal,
            (Some(x), None) if padded => return blank_order(x, a),
            (None, Some(y)) if padded => return blank_order(y, b).reverse(),
            (Some(_), None) => return Ordering::Greater,
            (None, Some(_)) => return Ordering::Less,
        }
    }
}

/// How the rest of the longer value orders against blanks.
fn blank_order(first: u32, rest: impl Iterator<Item = u32>) -> Ordering {
    std::iter::once(first)
        .chain(rest)
        .find(|&u| u != 0x20)
        .map_or(Ordering::Equal, |u| u.cmp(&0x20))
}

// ---------------------------------------------------------------- numbers

/// Sign, integer digits, fraction digits and exponent of a TO_NUMBER-able text.
fn split_number(s: &str) -> Option<(bool, &str, &str, i64)> {
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
fn to_number(s: &str) -> std::result::Result<String, &'static str> {
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

fn negate(s: String) -> String {
    match s.strip_prefix('-') {
        Some(r) => r.to_string(),
        None if s == "0" => s,
        None => format!("-{s}"),
    }
}

fn parse_float(s: &str, single: bool) -> std::result::Result<K<'static>, &'static str> {
    let t = s.trim_matches(' ');
    // Parsing straight to f32 rounds once, as TO_BINARY_FLOAT does.
    let v = if single {
        t.parse::<f32>().map(f64::from).ok()
    } else {
        t.parse::<f64>().ok()
    };
    v.map(K::F).ok_or(BAD_NUMBER)
}

// ---------------------------------------------------------------- datetimes

/// A point in time: seconds since 0000-03-01 UTC (proleptic Gregorian) and nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Dt {
    secs: i64,
    nanos: u32,
}

/// Datetime format elements the emulator knows.
#[derive(Debug, Clone, Copy, PartialEq)]
enum El {
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
type Fmt = [(u8, El)];

const TSTZ_FMT: &Fmt = &[
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
const TS_FMT: &Fmt = TSTZ_FMT.split_at(7).0;
const DATE_FMT: &Fmt = TSTZ_FMT.split_at(6).0;

/// TO_DATE/TO_TIMESTAMP without FX: any punctuation may separate fields, numbers may have fewer
/// digits, and a text that ends early leaves the rest at their defaults (day 1, time 0, the
/// session zone). Returns the value and a bit per element read.
fn parse_dt(s: &str, fmt: &Fmt) -> std::result::Result<(Dt, u16), &'static str> {
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
fn parse_format(f: &str, timestamp: bool) -> std::result::Result<Vec<(u8, El)>, String> {
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

// ---------------------------------------------------------------- LIKE

#[derive(Debug, Clone, Copy, PartialEq)]
enum Pat {
    Lit(char),
    One,
    Any,
}

fn like_pattern(p: &str, escape: Option<char>) -> std::result::Result<Vec<Pat>, &'static str> {
    let mut out = Vec::new();
    let mut it = p.chars();
    while let Some(c) = it.next() {
        if Some(c) == escape {
            match it.next() {
                Some(n) if n == '%' || n == '_' || Some(n) == escape => out.push(Pat::Lit(n)),
                _ => {
                    return Err(
                        "ORA-01424: missing or illegal character following the escape character",
                    )
                }
            }
        } else if c == '%' {
            if out.last() != Some(&Pat::Any) {
                out.push(Pat::Any);
            }
        } else {
            out.push(if c == '_' { Pat::One } else { Pat::Lit(c) });
        }
    }
    Ok(out)
}

/// Wildcard match by characters, backtracking only to the last `%`.
fn like(s: &str, p: &[Pat]) -> bool {
    let (mut si, mut pi, mut star) = (0, 0, None);
    loop {
        let c = s[si..].chars().next();
        match (p.get(pi), c) {
            (Some(Pat::Any), _) => {
                pi += 1;
                star = Some((pi, si));
            }
            (Some(Pat::One), Some(ch)) => (pi, si) = (pi + 1, si + ch.len_utf8()),
            (Some(Pat::Lit(x)), Some(ch)) if *x == ch => (pi, si) = (pi + 1, si + ch.len_utf8()),
            (None, None) => return true,
            _ => {
                let Some((sp, ss)) = star else { return false };
                let Some(ch) = s[ss..].chars().next() else {
                    return false;
                };
                star = Some((sp, ss + ch.len_utf8()));
                (pi, si) = (sp, ss + ch.len_utf8());
            }
        }
    }
}

// ---------------------------------------------------------------- tree

#[derive(Debug, Clone, Copy, PartialEq)]
enum Rel {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone)]
enum Operand {
    Col(usize),
    Lit(Lit),
}

impl Operand {
    fn get<'a>(&'a self, row: &'a [Value]) -> K<'a> {
        match self {
            Operand::Col(i) => row.get(*i).map_or(K::Null, view),
            Operand::Lit(l) => l.view(),
        }
    }
}

#[derive(Debug, Clone)]
enum Node {
    And(Vec<Node>),
    Or(Vec<Node>),
    Not(Box<Node>),
    Cmp {
        op: Rel,
        dom: Domain,
        l: Operand,
        r: Operand,
    },
    /// `IS NULL`; `empty`: an empty value is NULL (not for LOBs, where it is EMPTY_LOB()).
    IsNull {
        x: Operand,
        empty: bool,
    },
    /// `None` pattern: NULL pattern or escape, always UNKNOWN.
    Like {
        x: Operand,
        pat: Option<Vec<Pat>>,
    },
}

impl Node {
    fn eval(&self, row: &[Value]) -> Option<bool> {
        match self {
            Node::And(v) => v
                .iter()
                .try_fold(Some(true), |acc, n| match n.eval(row) {
                    Some(false) => Err(()),
                    None => Ok(None),
                    Some(true) => Ok(acc),
                })
                .unwrap_or(Some(false)),
            Node::Or(v) => v
                .iter()
                .try_fold(Some(false), |acc, n| match n.eval(row) {
                    Some(true) => Err(()),
                    None => Ok(None),
                    Some(false) => Ok(acc),
                })
                .unwrap_or(Some(true)),
            Node::Not(n) => n.eval(row).map(|b| !b),
            Node::Cmp { op, dom, l, r } => {
                // A value that fails its implicit conversion would make Oracle raise the error
                // at fetch; `matches` cannot, so the row is UNKNOWN.
                let a = to_domain(*dom, l.get(row)).ok()?;
                let b = to_domain(*dom, r.get(row)).ok()?;
                let o = compare(*dom, &a, &b)?;
                Some(match op {
                    Rel::Eq => o.is_eq(),
                    Rel::Ne => o.is_ne(),
                    Rel::Lt => o.is_lt(),
                    Rel::Le => o.is_le(),
                    Rel::Gt => o.is_gt(),
                    Rel::Ge => o.is_ge(),
                })
            }
            Node::IsNull { x, empty } => Some(match x {
                Operand::Lit(l) => matches!(l, Lit::Null),
                Operand::Col(i) => match row.get(*i) {
                    None | Some(Value::Null) => true,
                    Some(Value::Text(s)) => *empty && s.is_empty(),
                    Some(Value::Bytes(b)) => *empty && b.is_empty(),
                    _ => false,
                },
            }),
            Node::Like { x, pat } => {
                let pat = pat.as_ref()?;
                let text = match x {
                    Operand::Col(i) => match row.get(*i)? {
                        Value::Text(s)
                        | Value::Number(s)
                        | Value::Date(s)
                        | Value::Timestamp(s)
                        | Value::TimestampTz(s) => s.as_str(),
                        _ => return None,
                    },
                    Operand::Lit(Lit::Text(s) | Lit::Num(s)) => s.as_str(),
                    Operand::Lit(_) => return None,
                };
                (!text.is_empty()).then(|| like(text, pat))
            }
        }
    }
}

// ---------------------------------------------------------------- parser

/// An operand as parsed: a column or a typed literal, with its position for errors.
#[derive(Debug, Clone)]
struct Expr {
    src: Src,
    pos: usize,
}

#[derive(Debug, Clone)]
enum Src {
    Col(usize),
    Lit(Ty, Lit),
}

/// Reserved words that cannot start an operand.
const RESERVED: [&str; 8] = ["AND", "OR", "NOT", "IN", "IS", "LIKE", "BETWEEN", "DATE"];
/// Pseudo-columns, niladic functions and query syntax Oracle accepts here.
const UNSUPPORTED_WORDS: [&str; 19] = [
    "ROWID",
    "ROWNUM",
    "ORA_ROWSCN",
    "LEVEL",
    "SYSDATE",
    "SYSTIMESTAMP",
    "CURRENT_DATE",
    "CURRENT_TIMESTAMP",
    "LOCALTIMESTAMP",
    "USER",
    "UID",
    "DBTIMEZONE",
    "SESSIONTIMEZONE",
    "TRUE",
    "FALSE",
    "SELECT",
    "WITH",
    "CASE",
    "PRIOR",
];

struct Parser<'a> {
    text: &'a str,
    toks: Vec<(Tok, usize)>,
    i: usize,
    cols: &'a [ColumnInfo],
}

impl Parser<'_> {
    fn at(&self, k: usize) -> &(Tok, usize) {
        // The list always ends with `End`, and reading never goes past it.
        &self.toks[(self.i + k).min(self.toks.len() - 1)]
    }
    fn peek(&self) -> &Tok {
        &self.at(0).0
    }
    fn pos(&self) -> usize {
        self.at(0).1
    }
    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }
    fn eat_kw(&mut self, kw: &str) -> bool {
        let hit = matches!(self.peek(), Tok::Word(w) if w == kw);
        self.i += usize::from(hit);
        hit
    }
    fn err(&self, msg: &str) -> CdcError {
        fail(self.text, self.pos(), msg)
    }
    fn close(&mut self) -> Result<()> {
        if !self.is_op(")") {
            return Err(self.err("ORA-00907: missing right parenthesis"));
        }
        self.i += 1;
        Ok(())
    }

    fn or(&mut self) -> Result<Node> {
        let mut v = vec![self.and()?];
        while self.eat_kw("OR") {
            v.push(self.and()?);
        }
        Ok(if v.len() == 1 {
            v.remove(0)
        } else {
            Node::Or(v)
        })
    }

    fn and(&mut self) -> Result<Node> {
        let mut v = vec![self.not()?];
        while self.eat_kw("AND") {
            v.push(self.not()?);
        }
        Ok(if v.len() == 1 {
            v.remove(0)
        } else {
            Node::And(v)
        })
    }

    fn not(&mut self) -> Result<Node> {
        if self.eat_kw("NOT") {
            return Ok(Node::Not(Box::new(self.not()?)));
        }
        if self.is_op("(") {
            // `(a) = 1` parenthesises an operand, `(a = 1)` a condition: try the operand first.
            let save = self.i;
            match self.operand() {
                Ok(x) if self.starts_predicate() => return self.predicate(x),
                // `(a, b) IN …`: the operand reading already names the refusal.
                Err(e) if self.is_op(",") => return Err(e),
                _ => {}
            }
            self.i = save + 1;
            let inner = self.or()?;
            if self.is_op(",") {
                return Err(self.err(&unimpl("expression lists")));
            }
            self.close()?;
            return Ok(inner);
        }
        let x = self.operand()?;
        self.predicate(x)
    }

    fn starts_predicate(&self) -> bool {
        match self.peek() {
            Tok::Op(o) => matches!(*o, "=" | "<>" | "<" | "<=" | ">" | ">="),
            Tok::Word(w) => matches!(w.as_str(), "IS" | "NOT" | "IN" | "BETWEEN" | "LIKE"),
            _ => false,
        }
    }

    fn predicate(&mut self, x: Expr) -> Result<Node> {
        let rel = match self.peek() {
            Tok::Op("=") => Some(Rel::Eq),
            Tok::Op("<>") => Some(Rel::Ne),
            Tok::Op("<") => Some(Rel::Lt),
            Tok::Op("<=") => Some(Rel::Le),
            Tok::Op(">") => Some(Rel::Gt),
            Tok::Op(">=") => Some(Rel::Ge),
            _ => None,
        };
        if let Some(op) = rel {
            self.i += 1;
            let y = self.operand()?;
            return self.compare(op, &x, &y);
        }
        if self.eat_kw("IS") {
            let negated = self.eat_kw("NOT");
            if !self.eat_kw("NULL") {
                return Err(self.err("ORA-00908: missing NULL keyword"));
            }
            let (x, empty) = match x.src {
                Src::Col(i) => (Operand::Col(i), !self.cols[i].data_type.is_lob()),
                Src::Lit(_, l) => (Operand::Lit(l), true),
            };
            let node = Node::IsNull { x, empty };
            return Ok(if negated {
                Node::Not(Box::new(node))
            } else {
                node
            });
        }
        let negated = self.eat_kw("NOT");
        let node = if self.eat_kw("IN") {
            if !self.is_op("(") {
                return Err(self.err("ORA-00906: missing left parenthesis"));
            }
            self.i += 1;
            let mut any = vec![];
            loop {
                let y = self.operand()?;
                any.push(self.compare(Rel::Eq, &x, &y)?);
                if !self.is_op(",") {
                    break;
                }
                self.i += 1;
            }
            self.close()?;
            Node::Or(any)
        } else if self.eat_kw("BETWEEN") {
            let low = self.operand()?;
            if !self.eat_kw("AND") {
                return Err(self.err("ORA-00905: missing keyword"));
            }
            let high = self.operand()?;
            Node::And(vec![
                self.compare(Rel::Ge, &x, &low)?,
                self.compare(Rel::Le, &x, &high)?,
            ])
        } else if self.eat_kw("LIKE") {
            let pattern = self.operand()?;
            let escape = if self.eat_kw("ESCAPE") {
                Some(self.operand()?)
            } else {
                None
            };
            self.like(&x, &pattern, escape.as_ref())?
        } else {
            return Err(self.err("ORA-00920: invalid relational operator"));
        };
        Ok(if negated {
            Node::Not(Box::new(node))
        } else {
            node
        })
    }

    fn ty(&self, e: &Expr) -> Result<Ty> {
        match &e.src {
            Src::Col(i) => {
                column_ty(&self.cols[*i].data_type).map_err(|m| fail(self.text, e.pos, &m))
            }
            Src::Lit(t, _) => Ok(*t),
        }
    }

    fn compare(&self, op: Rel, l: &Expr, r: &Expr) -> Result<Node> {
        let dom = domain(self.ty(l)?, self.ty(r)?).map_err(|m| fail(self.text, l.pos, &m))?;
        // Literals convert once here, so a bad constant fails now, as Oracle's would.
        let bind = |e: &Expr| -> Result<Operand> {
            Ok(match &e.src {
                Src::Col(i) => Operand::Col(*i),
                Src::Lit(..) if matches!(dom, Domain::Never) => Operand::Lit(Lit::Null),
                Src::Lit(_, lit) => Operand::Lit(Lit::from_key(
                    to_domain(dom, lit.view()).map_err(|m| fail(self.text, e.pos, m))?,
                )),
            })
        };
        Ok(Node::Cmp {
            op,
            dom,
            l: bind(l)?,
            r: bind(r)?,
        })
    }

    fn like(&self, x: &Expr, pattern: &Expr, escape: Option<&Expr>) -> Result<Node> {
        let x = match &x.src {
            Src::Col(i) => match like_refusal(&self.cols[*i].data_type) {
                Some(m) => return Err(fail(self.text, x.pos, &m)),
                None => Operand::Col(*i),
            },
            Src::Lit(_, l @ (Lit::Null | Lit::Text(_) | Lit::Num(_))) => Operand::Lit(l.clone()),
            Src::Lit(..) => {
                return Err(fail(
                    self.text,
                    x.pos,
                    &unimpl("LIKE on a datetime literal"),
                ))
            }
        };
        let text_of = |e: &Expr| match &e.src {
            Src::Lit(_, Lit::Null) => Ok(None),
            Src::Lit(_, Lit::Text(s) | Lit::Num(s)) => Ok(Some(s.clone())),
            _ => Err(fail(
                self.text,
                e.pos,
                &unimpl("LIKE patterns other than text literals"),
            )),
        };
        let escape = match escape {
            None => Some(None),
            Some(e) => text_of(e)?
                .map(|s| {
                    let mut it = s.chars();
                    match (it.next(), it.next()) {
                        (Some(c), None) => Ok(Some(c)),
                        _ => Err(fail(
                            self.text,
                            e.pos,
                            "ORA-01425: escape character must be character string of length 1",
                        )),
                    }
                })
                .transpose()?,
        };
        let pat = match (text_of(pattern)?, escape) {
            (Some(p), Some(esc)) => {
                Some(like_pattern(&p, esc).map_err(|m| fail(self.text, pattern.pos, m))?)
            }
            _ => None,
        };
        Ok(Node::Like { x, pat })
    }

    fn operand(&mut self) -> Result<Expr> {
        let pos = self.pos();
        let mut sign = None;
        while let Tok::Op(s @ ("-" | "+")) = self.peek() {
            sign = Some(sign.unwrap_or(false) ^ (*s == "-"));
            self.i += 1;
        }
        let e = self.primary()?;
        if let Tok::Op("+" | "-" | "*" | "/" | "||") = self.peek() {
            return Err(self.err(&unimpl("arithmetic or `||`")));
        }
        let Some(minus) = sign else { return Ok(e) };
        // A sign makes the operand a number: text converts (ORA-01722 if it cannot).
        let (ty, lit) = match e.src {
            Src::Lit(_, Lit::Null) => (Ty::Num, Lit::Null),
            Src::Lit(_, Lit::Num(s) | Lit::Text(s)) => {
                let n = to_number(&s).map_err(|m| fail(self.text, e.pos, m))?;
                (Ty::Num, Lit::Num(if minus { negate(n) } else { n }))
            }
            Src::Lit(t, Lit::F(f)) => (t, Lit::F(if minus { -f } else { f })),
            _ => {
                return Err(fail(
                    self.text,
                    pos,
                    &unimpl("a sign before a column or datetime"),
                ))
            }
        };
        Ok(Expr {
            src: Src::Lit(ty, lit),
            pos,
        })
    }

    fn primary(&mut self) -> Result<Expr> {
        let pos = self.pos();
        let lit = |t, l| {
            Ok(Expr {
                src: Src::Lit(t, l),
                pos,
            })
        };
        let (tok, next) = (self.peek().clone(), self.at(1).0.clone());
        self.i += 1;
        match tok {
            Tok::Num(s, suffix) => {
                let bad = |m| fail(self.text, pos, m);
                match suffix {
                    None => lit(Ty::Num, Lit::Num(to_number(&s).map_err(bad)?)),
                    Some('f') => match parse_float(&s, true).map_err(bad)? {
                        K::F(f) => lit(Ty::BinF, Lit::F(f)),
                        _ => Err(bad(BAD_NUMBER)),
                    },
                    Some(_) => match parse_float(&s, false).map_err(bad)? {
                        K::F(f) => lit(Ty::BinD, Lit::F(f)),
                        _ => Err(bad(BAD_NUMBER)),
                    },
                }
            }
            // '' is NULL, but still typed as text for the comparison's type check.
            Tok::Str(s, national) => lit(
                Ty::Chr {
                    fixed: true,
                    national,
                },
                if s.is_empty() {
                    Lit::Null
                } else {
                    Lit::Text(s)
                },
            ),
            Tok::Op("(") => {
                let e = self.operand()?;
                if self.is_op(",") {
                    return Err(self.err(&unimpl("expression lists")));
                }
                self.close()?;
                Ok(Expr { pos, ..e })
            }
            Tok::Word(w) => match (w.as_str(), &next) {
                ("NULL", _) => lit(Ty::Null, Lit::Null),
                ("DATE" | "TIMESTAMP", Tok::Str(s, _)) => {
                    self.i += 1;
                    let (t, l) =
                        ansi_literal(w == "TIMESTAMP", s).map_err(|m| fail(self.text, pos, m))?;
                    lit(t, l)
                }
                ("TO_DATE" | "TO_TIMESTAMP", Tok::Op("(")) => {
                    self.i += 1;
                    self.datetime_function(w == "TO_TIMESTAMP", pos)
                }
                ("INTERVAL", Tok::Str(..)) => {
                    Err(fail(self.text, pos, &unimpl("INTERVAL literals")))
                }
                (_, Tok::Op("(")) => {
                    Err(fail(self.text, pos, &unimpl(&format!("the function {w}"))))
                }
                (w, _) if RESERVED.contains(&w) => Err(fail(self.text, pos, MISSING_EXPR)),
                _ => self.column(w, false, pos),
            },
            Tok::Quoted(w) => self.column(w, true, pos),
            _ => {
                self.i -= 1;
                Err(self.err(MISSING_EXPR))
            }
        }
    }

    fn column(&mut self, name: String, quoted: bool, pos: usize) -> Result<Expr> {
        if self.is_op(".") {
            return Err(fail(self.text, pos, &unimpl("qualified column names")));
        }
        if let Some(i) = self.cols.iter().position(|c| c.name == name) {
            return Ok(Expr {
                src: Src::Col(i),
                pos,
            });
        }
        if !quoted && UNSUPPORTED_WORDS.contains(&name.as_str()) {
            return Err(fail(self.text, pos, &unimpl(&name)));
        }
        Err(CdcError::Database(format!(
            "ORA-00904: \"{name}\": invalid identifier"
        )))
    }

    /// `TO_DATE(text[, format])` / `TO_TIMESTAMP(…)` of literals, folded now.
    fn datetime_function(&mut self, timestamp: bool, pos: usize) -> Result<Expr> {
        let arg = self.operand()?;
        let format = if self.is_op(",") {
            self.i += 1;
            Some(self.operand()?)
        } else {
            None
        };
        if self.is_op(",") {
            return Err(self.err(&unimpl("the NLS parameter of TO_DATE")));
        }
        self.close()?;
        let text = match arg.src {
            Src::Lit(_, Lit::Null) => None,
            Src::Lit(_, Lit::Text(s) | Lit::Num(s)) => Some(s),
            _ => {
                return Err(fail(
                    self.text,
                    arg.pos,
                    &unimpl("TO_DATE of a column or datetime"),
                ))
            }
        };
        let fmt = match format.map(|f| (f.src, f.pos)) {
            None => Some(if timestamp {
                TS_FMT.to_vec()
            } else {
                DATE_FMT.to_vec()
            }),
            Some((Src::Lit(_, Lit::Null), _)) => None,
            Some((Src::Lit(_, Lit::Text(f)), p)) => {
                Some(parse_format(&f, timestamp).map_err(|m| fail(self.text, p, &m))?)
            }
            Some((_, p)) => {
                return Err(fail(
                    self.text,
                    p,
                    &unimpl("formats other than text literals"),
                ))
            }
        };
        let value = match (text, fmt) {
            (Some(t), Some(f)) => {
                Lit::Dt(parse_dt(&t, &f).map_err(|m| fail(self.text, arg.pos, m))?.0)
            }
            _ => Lit::Null,
        };
        Ok(Expr {
            src: Src::Lit(if timestamp { Ty::Ts } else { Ty::Date }, value),
            pos,
        })
    }
}

/// `DATE 'YYYY-MM-DD'` and `TIMESTAMP 'YYYY-MM-DD HH24:MI:SS[.FF][ TZH:TZM]'`: every field up to
/// the seconds must be there, and a mismatch is ORA-01861 rather than TO_DATE's errors.
fn ansi_literal(timestamp: bool, s: &str) -> std::result::Result<(Ty, Lit), &'static str> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn table() -> Vec<ColumnInfo> {
        [
            ("ID", "NUMBER"),
            ("NAME", "VARCHAR2(20)"),
            ("CODE", "CHAR(5)"),
            ("NC", "NCHAR(3)"),
            ("NV", "NVARCHAR2(10)"),
            ("F", "BINARY_DOUBLE"),
            ("BF", "BINARY_FLOAT"),
            ("HIRED", "DATE"),
            ("TS", "TIMESTAMP(9)"),
            ("TZ", "TIMESTAMP(9) WITH TIME ZONE"),
            ("R", "RAW(4)"),
            ("DOC", "CLOB"),
            ("BL", "BLOB"),
            ("L", "LONG"),
            ("J", "JSON"),
            ("IV", "INTERVAL DAY(2) TO SECOND(6)"),
            ("Mixed", "VARCHAR2(5)"),
        ]
        .iter()
        .map(|(n, t)| ColumnInfo {
            name: n.to_string(),
            data_type: ColumnType::parse(t).unwrap(),
            nullable: true,
            virtual_column: false,
            hidden: false,
        })
        .collect()
    }

    /// A row of `table()` with the named values, NULL elsewhere.
    fn row(vals: &[(&str, Value)]) -> Vec<Value> {
        table()
            .iter()
            .map(|c| {
                vals.iter()
                    .find(|(n, _)| *n == c.name)
                    .map_or(Value::Null, |(_, v)| v.clone())
            })
            .collect()
    }

    fn num(s: &str) -> Value {
        Value::Number(s.into())
    }
    fn text(s: &str) -> Value {
        Value::Text(s.into())
    }

    fn eval(cond: &str, r: &[Value]) -> Option<bool> {
        compile(cond, &table())
            .unwrap_or_else(|e| panic!("{cond}: {e}"))
            .eval(r)
    }

    fn error(cond: &str) -> String {
        match compile(cond, &table()) {
            Ok(c) => panic!("{cond} compiled: {c:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[track_caller]
    fn check(r: &[Value], cases: &[(&str, Option<bool>)]) {
        for (cond, want) in cases {
            assert_eq!(eval(cond, r), *want, "{cond}");
        }
    }

    const T: Option<bool> = Some(true);
    const F: Option<bool> = Some(false);
    const U: Option<bool> = None;

    #[test]
    fn comparisons_and_logic() {
        let r = row(&[
            ("ID", num("42")),
            ("NAME", text("O'Brien")),
            ("Mixed", text("x")),
        ]);
        check(
            &r,
            &[
                ("id = 42", T),
                ("ID <> 42", F),
                ("id != 41", T),
                ("id ^= 42", F),
                ("id < 42.5", T),
                ("id <= 42", T),
                ("id > -1.5", T),
                ("id >= .5e2", F),
                ("42 = id", T),
                ("(id) = (42)", T),
                ("name = 'O''Brien'", T),
                ("\"Mixed\" = 'x'", T),
                ("id = 1 or id = 42 and name = 'x'", F),
                ("(id = 1 or id = 42) and not name = 'x'", T),
                ("NOT NOT id = 42", T),
                ("((id = 42))", T),
                ("id = - -42", T),
                ("id = -'-42'", T),
                ("1 = 1", T),
                ("id = 42 /* note */ -- trailing\n", T),
            ],
        );
    }

    #[test]
    fn three_valued_logic() {
        let r = row(&[("ID", num("1"))]);
        check(
            &r,
            &[
                ("name = 'a'", U),
                ("NOT name = 'a'", U),
                ("name <> 'a'", U),
                ("id = NULL", U),
                ("id <> NULL", U),
                ("id = 1 AND name = 'a'", U),
                ("id = 2 AND name = 'a'", F),
                ("id = 1 OR name = 'a'", T),
                ("id = 2 OR name = 'a'", U),
                ("name IS NULL", T),
                ("name IS NOT NULL", F),
                ("id IS NOT NULL", T),
                ("NULL IS NULL", T),
                ("'' IS NULL", T),
                ("id = ''", U),
                ("id IN (1, NULL)", T),
                ("id IN (2, NULL)", U),
                ("id NOT IN (2, NULL)", U),
                ("id NOT IN (1, NULL)", F),
                ("id NOT IN (2, 3)", T),
                ("id BETWEEN 0 AND 2", T),
                ("id BETWEEN NULL AND 2", U),
                ("id BETWEEN NULL AND 0", F),
                ("id NOT BETWEEN NULL AND 0", T),
                ("id NOT BETWEEN 2 AND 3", T),
                ("name LIKE '%'", U),
                ("id LIKE NULL", U),
            ],
        );
        // An empty text is NULL, as Oracle stores it.
        assert_eq!(eval("name IS NULL", &row(&[("NAME", text(""))])), T);
        assert!(!compile("name = 'a'", &table()).unwrap().matches(&r));
    }

    #[test]
    fn char_columns_compare_blank_padded() {
        let r = row(&[
            ("CODE", text("ab   ")),
            ("NAME", text("ab ")),
            ("NC", text("é  ")),
        ]);
        check(
            &r,
            &[
                ("code = 'ab'", T),
                ("code = 'ab   '", T),
                ("code = 'ab      '", T),
                ("code > 'ab'", F),
                // With padding 'ab' + blanks sorts after 'ab' + TAB.
                ("code > 'ab\t'", T),
                ("name = 'ab'", F),
                ("name = 'ab '", T),
                ("name > 'ab'", T),
                ("code = name", F),
                ("code IN ('x', 'ab')", T),
                ("nc = N'é'", T),
                ("code LIKE 'ab'", F),
                ("code LIKE 'ab%'", T),
                ("code LIKE 'ab___'", T),
            ],
        );
    }

    #[test]
    fn national_text_orders_by_utf16() {
        // U+FF21 sorts after U+1F600 in UTF-16 (surrogates) but before it in UTF-8.
        let r = row(&[("NV", text("\u{FF21}")), ("NAME", text("\u{FF21}"))]);
        check(&r, &[("nv > '\u{1F600}'", T), ("name > '\u{1F600}'", F)]);
    }

    #[test]
    fn numbers_and_implicit_conversion() {
        let r = row(&[
            ("ID", num("1.5")),
            ("NAME", text(" 010 ")),
            ("F", Value::BinaryDouble(0.1)),
        ]);
        check(
            &r,
            &[
                ("id = '1.5'", T),
                ("id = ' +1.50 '", T),
                ("id = '15e-1'", T),
                ("id < '2'", T),
                ("id IN ('1.5', '2' )", T),
                ("name = 10", T),
                ("name > 9", T),
                ("name = '10'", F),
                ("f = 0.1", T),
                ("f = '0.1'", T),
                ("f > 0.1f", F),
                ("f = 1e-1d", T),
                ("id = 1.49999999999999999999999999999999999999999", T),
            ],
        );
        // A text that is not a number makes the row UNKNOWN (Oracle raises ORA-01722 at fetch).
        assert_eq!(eval("name = 10", &row(&[("NAME", text("ten"))])), U);
        let r = row(&[("BF", Value::BinaryFloat(0.1))]);
        check(&r, &[("bf = 0.1", T), ("bf = 0.1d", F), ("bf = '0.1'", T)]);
        for bad in [
            "id = 'x'",
            "id IN (1, '1x')",
            "'a' = 1",
            "id = '1 2'",
            "id = -'a'",
        ] {
            assert!(error(bad).contains("ORA-01722: invalid number"), "{bad}");
        }
        assert!(error("id = 1e130").contains("ORA-01426"));
        assert_eq!(to_number("-0.500").unwrap(), "-.5");
        assert_eq!(to_number("1.5e3").unwrap(), "1500");
        assert_eq!(to_number("-0").unwrap(), "0");
        assert_eq!(to_number(&format!("1.{}", "9".repeat(45))).unwrap(), "2");
    }

    #[test]
    fn datetimes() {
        let r = row(&[
            ("HIRED", Value::Date("2020-03-01 10:00:00".into())),
            (
                "TS",
                Value::Timestamp("2020-03-01 10:00:00.500000000".into()),
            ),
            (
                "TZ",
                Value::TimestampTz("2020-03-01 12:00:00.000000000 +02:00".into()),
            ),
            ("NAME", text("2020-03-01")),
        ]);
        check(
            &r,
            &[
                ("hired > DATE '2020-03-01'", T),
                ("hired < date '2020-3-2'", T),
                ("hired = TIMESTAMP '2020-03-01 10:00:00'", T),
                ("hired < TIMESTAMP '2020-03-01 10:00:00.1'", T),
                (
                    "hired = TO_DATE('2020-03-01 10:00:00', 'YYYY-MM-DD HH24:MI:SS')",
                    T,
                ),
                ("hired > to_date('2020-03-01', 'yyyy-mm-dd')", T),
                ("hired > TO_DATE('01/03/2020', 'DD/MM/YYYY')", T),
                ("hired = TO_DATE('20200301100000', 'YYYYMMDDHH24MISS')", T),
                ("hired = '2020-03-01 10:00:00'", T),
                ("hired > '2020-03-01'", T),
                ("hired BETWEEN '2020-01-01' AND '2020-12-31'", T),
                ("ts > hired", T),
                ("ts = TIMESTAMP '2020-03-01 10:00:00.5'", T),
                ("ts = '2020-03-01 10:00:00.5'", T),
                (
                    "ts = TO_TIMESTAMP('2020-03-01 10:00:00.500', 'YYYY-MM-DD HH24:MI:SS.FF3')",
                    T,
                ),
                ("tz = hired", T),
                ("tz = TIMESTAMP '2020-03-01 11:00:00 +01:00'", T),
                ("tz < ts", T),
                ("name = DATE '2020-03-01'", T),
                ("hired LIKE '2020-03-01 %'", T),
                ("hired = TO_DATE(NULL, 'YYYY')", U),
                (
                    "hired = TO_DATE(' 2020/03/01 10.00.00 ', 'YYYY-MM-DD HH24:MI:SS')",
                    T,
                ),
                ("hired = TO_DATE('1.3.2020 10:0', 'DD.MM.YYYY HH24:MI')", T),
            ],
        );
        for (bad, code) in [
            (
                "hired = 5",
                "ORA-00932: inconsistent datatypes: expected DATE got NUMBER",
            ),
            (
                "id = DATE '2020-01-01'",
                "ORA-00932: inconsistent datatypes: expected NUMBER got DATE",
            ),
            ("hired = DATE '2020-13-01'", "ORA-01843"),
            ("hired = DATE '2021-02-29'", "ORA-01847"),
            ("hired = DATE '2020-01-01 10:00:00'", "ORA-01861"),
            ("hired = TIMESTAMP '2020-01-01'", "ORA-01861"),
            ("hired = TIMESTAMP '2020-01-01 24:00:00'", "ORA-01850"),
            ("hired = '2020-01-01 10:00:00.5'", "ORA-01830"),
            ("hired = 'yesterday'", "ORA-01858"),
            ("hired = '2020--03-01'", "ORA-01861"),
            ("hired = '2020-03-01T10:00:00'", "ORA-01858"),
            (
                "hired = TO_DATE('2020-01-01', 'YYYY-MM-DD HH24:MI:SS.FF')",
                "ORA-01821",
            ),
            ("hired = TO_DATE('2020-01-01', 'DD-MON-YYYY')", "ORA-03001"),
            ("hired = TO_DATE('10:00', 'HH24:MI')", "ORA-03001"),
        ] {
            assert!(error(bad).contains(code), "{bad}: {}", error(bad));
        }
    }

    #[test]
    fn like_with_escape() {
        let r = row(&[
            ("NAME", text("50%_off")),
            ("ID", num("-1.5")),
            ("DOC", text("a long text")),
        ]);
        check(
            &r,
            &[
                ("name LIKE '50%'", T),
                ("name LIKE '5_\\%%' ESCAPE '\\'", T),
                ("name LIKE '%\\_off' ESCAPE '\\'", T),
                ("name LIKE '%!%!_%' ESCAPE '!'", T),
                ("name LIKE '50!%' ESCAPE '!'", F),
                ("name NOT LIKE '%off'", F),
                ("name LIKE '%O%'", F),
                ("name LIKE '_0%_o_f'", T),
                ("name LIKE '%' ESCAPE ''", U),
                ("id LIKE '-1._'", T),
                ("doc LIKE '%long%'", T),
            ],
        );
        assert!(error("name LIKE 'a\\b' ESCAPE '\\'").contains("ORA-01424"));
        assert!(error("name LIKE 'a\\' ESCAPE '\\'").contains("ORA-01424"));
        assert!(error("name LIKE 'a' ESCAPE 'ab'").contains("ORA-01425"));
        assert!(error("bl LIKE 'a'").contains("ORA-00932"));
        assert!(like("ab", &like_pattern("%%b", None).unwrap()));
        assert!(!like("ab", &like_pattern("a_b", None).unwrap()));
        assert!(like("éa", &like_pattern("_a", None).unwrap()));
    }

    #[test]
    fn raw_and_refused_types() {
        let r = row(&[
            ("R", Value::Bytes(vec![0x0a, 0xbc])),
            ("L", text("x")),
            ("NAME", text("0ABC")),
        ]);
        check(
            &r,
            &[
                ("r = '0ABC'", T),
                ("r = '0abc'", F),
                ("r = 'abc'", F),
                ("r = 'xyz'", F),
                ("r < 'FF'", T),
                ("r > '0AB'", T),
                ("r = name", T),
                ("r = N'0ABC'", T),
                ("l IS NOT NULL", T),
            ],
        );
        for (bad, code) in [
            (
                "r = 1",
                "ORA-00932: inconsistent datatypes: expected BINARY got NUMBER",
            ),
            (
                "doc = 'a'",
                "ORA-00932: inconsistent datatypes: expected - got CLOB",
            ),
            (
                "bl IS NULL OR bl = NULL",
                "ORA-00932: inconsistent datatypes: expected - got BLOB",
            ),
            ("l = 'x'", "ORA-00997"),
            ("j = 'x'", "ORA-40796"),
            ("iv = '1 00:00:00'", "ORA-03001"),
        ] {
            assert!(error(bad).contains(code), "{bad}: {}", error(bad));
        }
    }

    #[test]
    fn syntax_errors_name_oracle_codes_and_positions() {
        for (bad, code) in [
            ("", "ORA-00936: missing expression"),
            ("   ", "ORA-00936"),
            ("id =", "ORA-00936"),
            ("id = 1 AND", "ORA-00936"),
            ("id IN ()", "ORA-00936"),
            ("= 1", "ORA-00936"),
            ("id", "ORA-00920: invalid relational operator"),
            ("id 1", "ORA-00920"),
            ("(id)", "ORA-00920"),
            ("id NOT 1", "ORA-00920"),
            ("(id = 1", "ORA-00907: missing right parenthesis"),
            ("id IN (1, 2", "ORA-00907"),
            ("id IN (1 2)", "ORA-00907"),
            ("id = 1 name = 'x'", "ORA-00907"),
            ("id = 1 ORDER BY id", "ORA-00907"),
            ("id = 1)", "ORA-00933: SQL command not properly ended"),
            ("id = 1) OR (1 = 1", "ORA-00933"),
            ("id = 1;", "ORA-00911: invalid character"),
            ("id BETWEEN 1 OR 2", "ORA-00905: missing keyword"),
            ("id IS 1", "ORA-00908: missing NULL keyword"),
            ("id IN 1", "ORA-00906: missing left parenthesis"),
            ("name = 'abc", "ORA-01756"),
            ("\"id\" = 1", "ORA-00904: \"id\": invalid identifier"),
            ("id = :x", "ORA-01008"),
            ("id + 1 = 2", "ORA-03001"),
            ("UPPER(name) = 'X'", "ORA-03001"),
            ("t.id = 1", "ORA-03001"),
            ("sysdate > hired", "ORA-03001"),
            ("(id, name) IN ((1, 'a'))", "ORA-03001"),
        ] {
            let e = error(bad);
            assert!(e.contains(code), "{bad}: {e}");
        }
        assert_eq!(
            compile("nope = 1", &table()).unwrap_err().to_string(),
            "CDC-5006: ORA-00904: \"NOPE\": invalid identifier"
        );
        let e = error("id = 1 AND name ~ 'x'");
        assert!(e.contains("at position 17 (`~ 'x'`)"), "{e}");
        assert!(error("id =").contains("at the end of condition `id =`"));
    }

    // ------------------------------------------------ negation consistency

    fn small() -> Vec<ColumnInfo> {
        [
            ("N", "NUMBER"),
            ("V", "VARCHAR2(5)"),
            ("C", "CHAR(3)"),
            ("D", "DATE"),
        ]
        .iter()
        .map(|(n, t)| ColumnInfo {
            name: n.to_string(),
            data_type: ColumnType::parse(t).unwrap(),
            nullable: true,
            virtual_column: false,
            hidden: false,
        })
        .collect()
    }

    fn small_rows() -> Vec<Vec<Value>> {
        let ns = [Value::Null, num("-1"), num("0"), num("1.5"), num("2")];
        let vs = [
            Value::Null,
            text("a"),
            text("b "),
            text("ab"),
            text("1.5"),
            text("B"),
        ];
        let cs = [Value::Null, text("a  "), text("b  ")];
        let ds = [
            "2020-01-01 00:00:00",
            "2020-03-01 10:00:00",
            "2021-01-01 00:00:00",
        ]
        .map(|d| Value::Date(d.into()));
        let mut out = vec![];
        for n in &ns {
            for v in &vs {
                for c in &cs {
                    for d in ds.iter().chain([&Value::Null]) {
                        out.push(vec![n.clone(), v.clone(), c.clone(), d.clone()]);
                    }
                }
            }
        }
        out
    }

    fn atom() -> impl Strategy<Value = String> {
        let op = prop::sample::select(vec!["=", "<>", "<", "<=", ">", ">="]);
        prop_oneof![
            (
                op.clone(),
                prop::sample::select(vec!["-1", "0", "1.5", "'2'", "NULL", "' 1 '"])
            )
                .prop_map(|(o, v)| format!("N {o} {v}")),
            (
                op.clone(),
                prop::sample::select(vec!["'a'", "'b  '", "'ab'", "''", "NULL", "N"])
            )
                .prop_map(|(o, v)| format!("V {o} {v}")),
            (op, prop::sample::select(vec!["'a'", "'b  '", "V", "'a '"]))
                .prop_map(|(o, v)| format!("C {o} {v}")),
            prop::sample::select(vec![
                "N IS NULL",
                "V IS NOT NULL",
                "N IN (0, 1.5)",
                "N NOT IN (0, NULL)",
                "N IN (NULL, -1)",
                "N BETWEEN 0 AND 2",
                "N NOT BETWEEN NULL AND 1",
                "V LIKE 'a%'",
                "V NOT LIKE '_'",
                "C LIKE 'a%'",
                "D > DATE '2020-01-01'",
                "D <= TO_DATE('2020-06-01', 'YYYY-MM-DD')",
                "D = '2020-03-01 10:00:00'",
            ])
            .prop_map(String::from),
        ]
    }

    fn condition() -> impl Strategy<Value = String> {
        atom().prop_recursive(4, 32, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) AND ({b})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} OR {b}")),
                inner.clone().prop_map(|a| format!("NOT ({a})")),
                inner.prop_map(|a| format!("NOT {a}")),
            ]
        })
    }

    proptest! {
        /// NOT c holds exactly where c is FALSE; UNKNOWN stays UNKNOWN; De Morgan holds.
        #[test]
        fn negation_is_three_valued(a in condition(), b in condition()) {
            let cols = small();
            let c = |t: &str| compile(t, &cols).unwrap_or_else(|e| panic!("{t}: {e}"));
            let (ca, cb) = (c(&a), c(&b));
            let not_a = c(&format!("NOT ({a})"));
            let excluded_middle = c(&format!("({a}) OR NOT ({a})"));
            let not_and = c(&format!("NOT (({a}) AND ({b}))"));
            let or_not = c(&format!("NOT ({a}) OR NOT ({b})"));
            let not_or = c(&format!("NOT (({a}) OR ({b}))"));
            let and_not = c(&format!("NOT ({a}) AND NOT ({b})"));
            for r in small_rows() {
                let va = ca.eval(&r);
                prop_assert_eq!(not_a.eval(&r), va.map(|x| !x), "{} on {:?}", a, r);
                prop_assert_eq!(not_a.matches(&r), va == Some(false));
                prop_assert_eq!(ca.matches(&r), va == Some(true));
                prop_assert_eq!(excluded_middle.eval(&r), va.map(|_| true));
                prop_assert_eq!(not_and.eval(&r), or_not.eval(&r));
                prop_assert_eq!(not_or.eval(&r), and_not.eval(&r));
                let vb = cb.eval(&r);
                let and = match (va, vb) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                };
                prop_assert_eq!(not_and.eval(&r), and.map(|x| !x));
            }
        }
    }
}
