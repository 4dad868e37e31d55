//! Types of operands and the implicit conversions and ordering of a comparison.
use super::datetime::{parse_dt, Dt, Fmt, DATE_FMT, TSTZ_FMT, TS_FMT};
use super::number::{parse_float, split_number, to_number};
use super::{unimpl, BAD_NUMBER};
use crate::types::{compare_decimal, ColumnType, Value};
use std::borrow::Cow;
use std::cmp::Ordering;

/// Static SQL type of an operand, for the types that can be compared.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Ty {
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
pub(super) fn column_ty(t: &ColumnType) -> std::result::Result<Ty, String> {
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

/// What two operands are compared as, after Oracle's implicit conversions.
#[derive(Debug, Clone, Copy)]
pub(super) enum Domain {
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

pub(super) fn domain(l: Ty, r: Ty) -> std::result::Result<Domain, String> {
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

/// A value on its way to a comparison; borrows the row so most rows allocate nothing.
#[derive(Debug, Clone)]
pub(super) enum K<'a> {
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
pub(super) enum Lit {
    Null,
    Num(String),
    F(f64),
    Text(String),
    Dt(Dt),
}

impl Lit {
    pub(super) fn view(&self) -> K<'_> {
        match self {
            Lit::Null => K::Null,
            Lit::Num(s) => K::Num(Cow::Borrowed(s)),
            Lit::F(f) => K::F(*f),
            Lit::Text(s) => K::Text(s),
            Lit::Dt(d) => K::Dt(*d),
        }
    }

    pub(super) fn from_key(k: K<'_>) -> Lit {
        match k {
            K::Num(s) => Lit::Num(s.into_owned()),
            K::F(f) => Lit::F(f),
            K::Text(s) => Lit::Text(s.to_string()),
            K::Dt(d) => Lit::Dt(d),
            K::Null | K::DtText(_) | K::Bytes(_) => Lit::Null,
        }
    }
}

pub(super) fn view(v: &Value) -> K<'_> {
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
pub(super) fn to_domain(d: Domain, k: K<'_>) -> std::result::Result<K<'_>, &'static str> {
    match (d, k) {
        // NULL on either side: the comparison is UNKNOWN whatever the other value.
        (_, K::Null) | (Domain::Never, _) => Ok(K::Null),
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

pub(super) fn compare(d: Domain, a: &K<'_>, b: &K<'_>) -> Option<Ordering> {
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
