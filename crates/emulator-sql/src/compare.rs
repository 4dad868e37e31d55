//! Comparing values as Oracle does: NULL (and the empty string) make a comparison UNKNOWN;
//! text meets NUMBER as a number, a datetime as that datetime (with the session's NLS
//! format), RAW as its hex text, ROWID as a ROWID; DATE and TIMESTAMP compare with TIMESTAMP
//! WITH TIME ZONE as instants in the session's zone; character data compares binary
//! (NLS_COMP / NLS_SORT BINARY): by the bytes of its character set's encoding, the database's
//! ([`Env::database_order`]) or the national one (UTF-16 code units, see [`TextCmp`]),
//! blank-padded between two fixed-length values.
//!
//! Also the total order ORDER BY, MIN / MAX and ROW_NUMBER sort by, and the equality keys
//! GROUP BY and DISTINCT hash.

use crate::convert::{instant, rowid_digit, to_number};
use crate::env::Env;
use crate::number::cmp_text;
use crate::types::{datum_type, inconsistent, is_fixed, label};
use crate::{Datum, OraError, OraType};
use std::cmp::Ordering;

fn is_null(d: &Datum) -> bool {
    match d {
        Datum::Null => true,
        Datum::Text(s) => s.is_empty(),
        Datum::Bytes(b) => b.is_empty(),
        _ => false,
    }
}

/// How two texts compare: blank-padded (both fixed-length, CHAR or NCHAR) or not, and in the
/// national character set (either side NCHAR, NVARCHAR2 or NCLOB: Oracle converts the other
/// side to it) or the database's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextCmp {
    pub padded: bool,
    pub national: bool,
}

impl TextCmp {
    /// How values of types `a` and `b` compare.
    pub fn of(a: &OraType, b: &OraType) -> TextCmp {
        TextCmp {
            padded: is_fixed(a) && is_fixed(b),
            national: is_national(a) || is_national(b),
        }
    }

    /// How values of one type compare with each other (a sort key, MIN / MAX).
    pub fn within(t: &OraType) -> TextCmp {
        TextCmp {
            padded: false,
            national: is_national(t),
        }
    }
}

/// Whether values of `t` are text in the national character set.
pub fn is_national(t: &OraType) -> bool {
    matches!(
        t,
        OraType::NVarchar2(_) | OraType::NChar(_) | OraType::NClob
    )
}

/// The BINARY order of a character set: the order of its encoded bytes.
#[derive(Debug, Clone, Copy, Default)]
pub enum CharsetOrder {
    /// AL32UTF8's: the UTF-8 bytes, which order as code points; also the order of a set whose
    /// bytes are its characters' code points (WE8ISO8859P1).
    #[default]
    Utf8,
    /// UTF-16 code units: AL16UTF16's, and UTF8's (CESU-8 encodes each code unit in UTF-8's
    /// order-keeping form). A supplementary character (a surrogate pair, D800..DFFF) sorts
    /// before U+E000..U+FFFF, unlike in UTF-8.
    Utf16,
    /// Another set's byte order, as the database that knows the set compares (WE8MSWIN1252:
    /// '€' is 0x80, before 'é' 0xE9).
    Bytes(fn(&str, &str) -> Ordering),
}

/// `a` and `b` compared as `how` says, in the session's sets.
pub fn text_order(a: &str, b: &str, how: TextCmp, env: &Env) -> Ordering {
    // ASCII is the same bytes in every set, and sorts before every other character in each:
    // only two non-ASCII characters at the first difference can order differently.
    if a.is_ascii() || b.is_ascii() {
        return text_cmp(a, b, how.padded);
    }
    let order = if how.national {
        CharsetOrder::Utf16
    } else {
        env.database_order
    };
    match order {
        CharsetOrder::Utf8 => text_cmp(a, b, how.padded),
        CharsetOrder::Utf16 => units_cmp(a.encode_utf16(), b.encode_utf16(), how.padded, 0x20),
        CharsetOrder::Bytes(cmp) if how.padded => {
            let (na, nb) = (a.chars().count(), b.chars().count());
            let pad = |s: &str, n: usize, to: usize| {
                let mut p = s.to_string();
                p.extend(std::iter::repeat_n(' ', to.saturating_sub(n)));
                p
            };
            let to = na.max(nb);
            cmp(&pad(a, na, to), &pad(b, nb, to))
        }
        CharsetOrder::Bytes(cmp) => cmp(a, b),
    }
}

/// Two sequences of code units in order; `padded`: the shorter as if padded with `blank`.
fn units_cmp<T: Ord + Copy>(
    mut a: impl Iterator<Item = T>,
    mut b: impl Iterator<Item = T>,
    padded: bool,
    blank: T,
) -> Ordering {
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => {}
            (Some(x), Some(y)) => return x.cmp(&y),
            (None, None) => return Ordering::Equal,
            (Some(x), None) if padded => {
                return std::iter::once(x)
                    .chain(a)
                    .find(|u| *u != blank)
                    .map_or(Ordering::Equal, |u| u.cmp(&blank))
            }
            (None, Some(y)) if padded => {
                return std::iter::once(y)
                    .chain(b)
                    .find(|u| *u != blank)
                    .map_or(Ordering::Equal, |u| blank.cmp(&u))
            }
            (Some(_), None) => return Ordering::Greater,
            (None, Some(_)) => return Ordering::Less,
        }
    }
}

/// Binary text order; `padded` compares as if the shorter were padded with blanks.
pub fn text_cmp(a: &str, b: &str, padded: bool) -> Ordering {
    if !padded {
        return a.as_bytes().cmp(b.as_bytes());
    }
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let n = x.len().min(y.len());
    match x[..n].cmp(&y[..n]) {
        Ordering::Equal => {}
        o => return o,
    }
    let blank_order = |rest: &[u8]| {
        rest.iter()
            .find(|&&c| c != b' ')
            .map_or(Ordering::Equal, |&c| c.cmp(&b' '))
    };
    match x.len().cmp(&y.len()) {
        Ordering::Greater => blank_order(&x[n..]),
        Ordering::Less => blank_order(&y[n..]).reverse(),
        Ordering::Equal => Ordering::Equal,
    }
}

/// ROWIDs order by their bytes: their characters' places in the base-64 alphabet.
pub fn rowid_cmp(a: &str, b: &str) -> Ordering {
    let key = |s: &str| -> Vec<u8> { s.bytes().map(|c| rowid_digit(c).unwrap_or(64)).collect() };
    key(a).cmp(&key(b))
}

fn float_cmp(x: f64, y: f64) -> Ordering {
    // NaN equals NaN and sorts above everything; -0 equals 0.
    match (x.is_nan(), y.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
    }
}

fn as_float(d: &Datum, env: &Env) -> Result<Option<f64>, OraError> {
    crate::convert::to_f64(d, env)
}

/// `a` compared with `b`: `None` when either is NULL.
pub fn compare(
    a: &Datum,
    b: &Datum,
    how: TextCmp,
    env: &Env,
) -> Result<Option<Ordering>, OraError> {
    use Datum::*;
    if is_null(a) || is_null(b) {
        return Ok(None);
    }
    Ok(Some(match (a, b) {
        (Number(x), Number(y)) => cmp_text(x, y),
        (Text(x), Text(y)) => text_order(x, y, how, env),
        (Number(_), Text(_)) | (Text(_), Number(_)) => {
            let (x, y) = (to_number(a, env)?, to_number(b, env)?);
            match (x, y) {
                (Some(x), Some(y)) => cmp_text(&x, &y),
                _ => return Ok(None),
            }
        }
        (
            BinaryFloat(_) | BinaryDouble(_),
            Number(_) | Text(_) | BinaryFloat(_) | BinaryDouble(_),
        )
        | (Number(_) | Text(_), BinaryFloat(_) | BinaryDouble(_)) => {
            match (as_float(a, env)?, as_float(b, env)?) {
                (Some(x), Some(y)) => float_cmp(x, y),
                _ => return Ok(None),
            }
        }
        (Date(x) | Timestamp(x), Date(y) | Timestamp(y)) => x.cmp(y),
        (
            Date(_) | Timestamp(_) | TimestampTz { .. },
            Date(_) | Timestamp(_) | TimestampTz { .. },
        ) => match (instant(a, env)?, instant(b, env)?) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => return Ok(None),
        },
        (Date(_), Text(_)) | (Text(_), Date(_)) => {
            let (x, y) = (date_of(a, env)?, date_of(b, env)?);
            x.cmp(&y)
        }
        (Timestamp(_), Text(_)) | (Text(_), Timestamp(_)) => {
            let (x, y) = (ts_of(a, env)?, ts_of(b, env)?);
            x.cmp(&y)
        }
        (TimestampTz { .. }, Text(_)) | (Text(_), TimestampTz { .. }) => {
            let (x, y) = (instant(a, env)?, instant(b, env)?);
            x.cmp(&y)
        }
        (Bytes(x), Bytes(y)) => x.cmp(y),
        (Bytes(x), Text(y)) => crate::convert::hex_upper(x).as_str().cmp(y.as_str()),
        (Text(x), Bytes(y)) => x.as_str().cmp(crate::convert::hex_upper(y).as_str()),
        (Rowid(x), Rowid(y)) => rowid_cmp(x, y),
        (Rowid(x), Text(y)) => rowid_cmp(x, &crate::convert::parse_rowid(y)?),
        (Text(x), Rowid(y)) => rowid_cmp(&crate::convert::parse_rowid(x)?, y),
        (IntervalYm(x), IntervalYm(y)) => x.cmp(y),
        (IntervalDs(x), IntervalDs(y)) => x.cmp(y),
        (IntervalYm(x), Text(y)) => x.cmp(&crate::literal::interval_ym(y)?),
        (Text(x), IntervalYm(y)) => crate::literal::interval_ym(x)?.cmp(y),
        (IntervalDs(x), Text(y)) => x.cmp(&crate::literal::interval_ds(y)?),
        (Text(x), IntervalDs(y)) => crate::literal::interval_ds(x)?.cmp(y),
        (Boolean(x), Boolean(y)) => x.cmp(y),
        _ => return Err(inconsistent(label(&datum_type(a)), label(&datum_type(b)))),
    }))
}

fn date_of(d: &Datum, env: &Env) -> Result<crate::DateTime, OraError> {
    crate::convert::to_date(d, env)?.ok_or_else(|| {
        OraError::new(
            1858,
            "a non-numeric character was found where a numeric was expected",
        )
    })
}

fn ts_of(d: &Datum, env: &Env) -> Result<crate::DateTime, OraError> {
    crate::convert::to_timestamp(d, env)?.ok_or_else(|| {
        OraError::new(
            1858,
            "a non-numeric character was found where a numeric was expected",
        )
    })
}

/// Equality as DECODE sees it: two NULLs are equal.
pub fn same(a: &Datum, b: &Datum, env: &Env) -> Result<bool, OraError> {
    match (is_null(a), is_null(b)) {
        (true, true) => Ok(true),
        (true, false) | (false, true) => Ok(false),
        _ => Ok(compare(a, b, TextCmp::default(), env)? == Some(Ordering::Equal)),
    }
}

/// The total order of sorts: NULLs handled by the caller, values of one column compared as
/// [`compare`] does, incomparable ones equal.
pub fn sort_cmp(a: &Datum, b: &Datum, how: TextCmp, env: &Env) -> Ordering {
    compare(a, b, how, env)
        .ok()
        .flatten()
        .unwrap_or(Ordering::Equal)
}

/// ORDER BY's comparison of one key: `desc` reverses, NULLs first or last as asked; `national`:
/// the key is national text.
pub fn order_cmp(
    a: &Datum,
    b: &Datum,
    desc: bool,
    nulls_first: bool,
    national: bool,
    env: &Env,
) -> Ordering {
    match (is_null(a), is_null(b)) {
        (true, true) => Ordering::Equal,
        (true, false) => {
            if nulls_first {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        }
        (false, true) => {
            if nulls_first {
                Ordering::Greater
            } else {
                Ordering::Less
            }
        }
        _ => {
            let how = TextCmp {
                padded: false,
                national,
            };
            let o = sort_cmp(a, b, how, env);
            if desc {
                o.reverse()
            } else {
                o
            }
        }
    }
}

/// Appends a key of `d` such that two values have the same key exactly when Oracle's GROUP
/// BY / DISTINCT puts them together (NULLs together, `1.0` with `1`, one instant in two
/// zones together).
pub fn push_key(d: &Datum, env: &Env, out: &mut Vec<u8>) {
    let mut part = |tag: u8, bytes: &[u8]| {
        out.push(tag);
        out.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
        out.extend_from_slice(bytes);
    };
    if is_null(d) {
        part(0, &[]);
        return;
    }
    match d {
        Datum::Number(n) if crate::number::is_canonical(n) => part(1, n.as_bytes()),
        Datum::Number(n) => match crate::number::Dec::parse(n) {
            Some(x) => part(1, x.to_canonical().as_bytes()),
            None => part(1, n.as_bytes()),
        },
        Datum::Text(s) | Datum::Rowid(s) => part(2, s.as_bytes()),
        Datum::TimestampTz { .. } => {
            let n = instant(d, env).ok().flatten().unwrap_or(0);
            part(3, &n.to_be_bytes());
        }
        Datum::Date(x) | Datum::Timestamp(x) => {
            part(4, &crate::datetime::to_nanos(x).to_be_bytes());
        }
        Datum::Bytes(b) => part(5, b),
        Datum::BinaryFloat(f) => part(6, &f64::from(*f).to_bits().to_be_bytes()),
        Datum::BinaryDouble(f) => part(6, &f.to_bits().to_be_bytes()),
        Datum::IntervalYm(m) => part(7, &m.to_be_bytes()),
        Datum::IntervalDs(n) => part(8, &n.to_be_bytes()),
        Datum::Boolean(b) => part(9, &[u8::from(*b)]),
        Datum::Null => part(0, &[]),
    }
}
