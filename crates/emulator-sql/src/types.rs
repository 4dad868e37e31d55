//! Static types of expressions: the type a value of each [`Datum`] kind describes as, the
//! families Oracle's implicit conversions work between, and the compile-time checks that
//! raise ORA-00932 (inconsistent datatypes) before a row is read.

use crate::{Datum, OraError, OraType};

/// What an expression's values are compared and converted as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Num,
    /// BINARY_FLOAT / BINARY_DOUBLE.
    Float,
    Char,
    Date,
    Ts,
    Tstz,
    Iym,
    Ids,
    Raw,
    Rowid,
    Bool,
    /// CLOB, NCLOB, BLOB.
    Lob,
    /// LONG, LONG RAW.
    Long,
}

pub fn family(t: &OraType) -> Family {
    match t {
        OraType::Number { .. } | OraType::Float(_) => Family::Num,
        OraType::BinaryFloat | OraType::BinaryDouble => Family::Float,
        OraType::Varchar2(_) | OraType::NVarchar2(_) | OraType::Char(_) | OraType::NChar(_) => {
            Family::Char
        }
        OraType::Date => Family::Date,
        OraType::Timestamp(_) => Family::Ts,
        OraType::TimestampTz(_) | OraType::TimestampLtz(_) => Family::Tstz,
        OraType::IntervalYm(_) => Family::Iym,
        OraType::IntervalDs(..) => Family::Ids,
        OraType::Raw(_) => Family::Raw,
        OraType::Rowid | OraType::Urowid => Family::Rowid,
        OraType::Boolean => Family::Bool,
        OraType::Clob | OraType::NClob | OraType::Blob => Family::Lob,
        OraType::Long | OraType::LongRaw => Family::Long,
    }
}

/// The type a value describes as when nothing else says (binds, folded constants).
pub fn datum_type(d: &Datum) -> OraType {
    match d {
        Datum::Null => OraType::Varchar2(0),
        Datum::Number(_) => OraType::NUMBER,
        Datum::Text(s) => OraType::Varchar2(u32::try_from(s.len().clamp(1, 32767)).unwrap_or(4000)),
        Datum::Bytes(b) => OraType::Raw(u32::try_from(b.len().clamp(1, 32767)).unwrap_or(2000)),
        Datum::BinaryFloat(_) => OraType::BinaryFloat,
        Datum::BinaryDouble(_) => OraType::BinaryDouble,
        Datum::Date(_) => OraType::Date,
        Datum::Timestamp(_) => OraType::Timestamp(9),
        Datum::TimestampTz { .. } => OraType::TimestampTz(9),
        Datum::IntervalYm(_) => OraType::IntervalYm(9),
        Datum::IntervalDs(_) => OraType::IntervalDs(9, 9),
        Datum::Rowid(_) => OraType::Rowid,
        Datum::Boolean(_) => OraType::Boolean,
    }
}

/// The type name ORA-00932 uses.
pub fn label(t: &OraType) -> &'static str {
    match family(t) {
        Family::Num => "NUMBER",
        Family::Float => match t {
            OraType::BinaryFloat => "BINARY_FLOAT",
            _ => "BINARY_DOUBLE",
        },
        Family::Char => "CHAR",
        Family::Date => "DATE",
        Family::Ts => "TIMESTAMP",
        Family::Tstz => "TIMESTAMP WITH TIME ZONE",
        Family::Iym => "INTERVAL YEAR TO MONTH",
        Family::Ids => "INTERVAL DAY TO SECOND",
        Family::Raw => "BINARY",
        Family::Rowid => "ROWID",
        Family::Bool => "BOOLEAN",
        Family::Lob => match t {
            OraType::Blob => "BLOB",
            OraType::NClob => "NCLOB",
            _ => "CLOB",
        },
        Family::Long => "LONG",
    }
}

pub fn inconsistent(expected: &str, got: &str) -> OraError {
    OraError::new(
        932,
        format!("inconsistent datatypes: expected {expected} got {got}"),
    )
}

/// Blank-padded comparison applies between two fixed-length character values (CHAR, NCHAR
/// and text literals, which are CHAR).
pub fn is_fixed(t: &OraType) -> bool {
    matches!(t, OraType::Char(_) | OraType::NChar(_))
}

/// Whether `l` and `r` may be compared, per Oracle's implicit conversion rules.
pub fn check_comparable(l: &OraType, r: &OraType) -> Result<(), OraError> {
    use Family::*;
    let (a, b) = (family(l), family(r));
    let ok = match (a, b) {
        (Long, _) | (_, Long) => {
            return Err(OraError::new(997, "illegal use of LONG datatype"));
        }
        (Lob, _) | (_, Lob) => false,
        _ if a == b => true,
        (Num | Float, Num | Float) => true,
        (Char, Num | Float | Date | Ts | Tstz | Raw | Rowid | Iym | Ids)
        | (Num | Float | Date | Ts | Tstz | Raw | Rowid | Iym | Ids, Char) => true,
        (Date | Ts | Tstz, Date | Ts | Tstz) => true,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(inconsistent(label(l), label(r)))
    }
}

/// The numeric type two operands' arithmetic gives.
pub fn numeric_result(l: &OraType, r: &OraType) -> OraType {
    match (l, r) {
        (OraType::BinaryDouble, _) | (_, OraType::BinaryDouble) => OraType::BinaryDouble,
        (OraType::BinaryFloat, _) | (_, OraType::BinaryFloat) => OraType::BinaryFloat,
        _ => OraType::NUMBER,
    }
}

/// The maximum length in characters of a value of `t` as text (for result descriptions).
pub fn text_length(t: &OraType) -> u32 {
    match t {
        OraType::Varchar2(n) | OraType::NVarchar2(n) | OraType::Char(n) | OraType::NChar(n) => *n,
        OraType::Number { .. } | OraType::Float(_) => 40,
        OraType::BinaryFloat | OraType::BinaryDouble => 40,
        OraType::Date => 75,
        OraType::Timestamp(_) | OraType::TimestampTz(_) | OraType::TimestampLtz(_) => 75,
        OraType::IntervalYm(_) | OraType::IntervalDs(..) => 75,
        OraType::Raw(n) => n.saturating_mul(2),
        OraType::Rowid | OraType::Urowid => 18,
        OraType::Boolean => 5,
        _ => 4000,
    }
}

/// The VARCHAR2 a character result of up to `n` characters describes as.
pub fn varchar(n: u32) -> OraType {
    OraType::Varchar2(n.clamp(1, 32767))
}
