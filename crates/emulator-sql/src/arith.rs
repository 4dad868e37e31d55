//! `+ - * /` and unary minus on values: exact NUMBER arithmetic, BINARY_FLOAT/DOUBLE in
//! IEEE, DATE ± days, DATE − DATE (days), TIMESTAMP − TIMESTAMP (INTERVAL DAY TO SECOND),
//! datetimes ± intervals, intervals ± intervals and × / a number. Text converts to NUMBER
//! (ORA-01722 when it is not one); other mixes are ORA-00932.

use crate::ast::ArithOp;
use crate::convert::{instant, to_dec, to_f64, to_number};
use crate::datetime::{date_plus_days, days_between, from_nanos, plus_months_strict, to_nanos};
use crate::env::Env;
use crate::ex::is_null;
use crate::number::{self, Dec};
use crate::types::{datum_type, inconsistent, label};
use crate::{DateTime, Datum, OraError};

fn mismatch(a: &Datum, b: &Datum) -> OraError {
    inconsistent(label(&datum_type(a)), label(&datum_type(b)))
}

pub fn negate(v: &Datum, env: &Env) -> Result<Datum, OraError> {
    Ok(match v {
        d if is_null(d) => Datum::Null,
        Datum::BinaryFloat(f) => Datum::BinaryFloat(-f),
        Datum::BinaryDouble(f) => Datum::BinaryDouble(-f),
        Datum::IntervalYm(m) => Datum::IntervalYm(m.checked_neg().ok_or_else(number::overflow)?),
        Datum::IntervalDs(n) => Datum::IntervalDs(n.checked_neg().ok_or_else(number::overflow)?),
        other => match to_number(other, env)? {
            None => Datum::Null,
            Some(n) => Datum::Number(number::negate(&n).into()),
        },
    })
}

fn is_float(d: &Datum) -> bool {
    matches!(d, Datum::BinaryFloat(_) | Datum::BinaryDouble(_))
}

fn is_datetime(d: &Datum) -> bool {
    matches!(
        d,
        Datum::Date(_) | Datum::Timestamp(_) | Datum::TimestampTz { .. }
    )
}

pub fn arith(op: ArithOp, a: &Datum, b: &Datum, env: &Env) -> Result<Datum, OraError> {
    if is_null(a) || is_null(b) {
        return Ok(Datum::Null);
    }
    if is_datetime(a) || is_datetime(b) {
        return datetime_arith(op, a, b, env);
    }
    if let (Datum::IntervalYm(_) | Datum::IntervalDs(_), _)
    | (_, Datum::IntervalYm(_) | Datum::IntervalDs(_)) = (a, b)
    {
        return interval_arith(op, a, b, env);
    }
    if is_float(a) || is_float(b) {
        let (Some(x), Some(y)) = (to_f64(a, env)?, to_f64(b, env)?) else {
            return Ok(Datum::Null);
        };
        let r = match op {
            ArithOp::Add => x + y,
            ArithOp::Sub => x - y,
            ArithOp::Mul => x * y,
            ArithOp::Div => x / y,
        };
        let double = matches!(a, Datum::BinaryDouble(_)) || matches!(b, Datum::BinaryDouble(_));
        return Ok(if double {
            Datum::BinaryDouble(r)
        } else {
            Datum::BinaryFloat(r as f32)
        });
    }
    let (Some(x), Some(y)) = (to_number(a, env)?, to_number(b, env)?) else {
        return Ok(Datum::Null);
    };
    Ok(Datum::Number(match op {
        ArithOp::Add => number::add(&x, &y)?.into(),
        ArithOp::Sub => number::sub(&x, &y)?.into(),
        ArithOp::Mul => number::mul(&x, &y)?.into(),
        ArithOp::Div => number::div(&x, &y)?.into(),
    }))
}

fn fields(d: &Datum) -> Option<DateTime> {
    match d {
        Datum::Date(x) | Datum::Timestamp(x) => Some(*x),
        Datum::TimestampTz { at, .. } => Some(*at),
        _ => None,
    }
}

/// The same kind of datetime as `like`, with new fields.
fn rebuild(like: &Datum, at: DateTime) -> Datum {
    match like {
        Datum::Date(_) => Datum::Date(DateTime {
            nanosecond: 0,
            ..at
        }),
        Datum::TimestampTz { offset_minutes, .. } => Datum::TimestampTz {
            at,
            offset_minutes: *offset_minutes,
        },
        _ => Datum::Timestamp(at),
    }
}

fn datetime_arith(op: ArithOp, a: &Datum, b: &Datum, env: &Env) -> Result<Datum, OraError> {
    match (op, a, b) {
        // Two datetimes: DATE − DATE in days, otherwise an interval.
        (ArithOp::Sub, x, y) if is_datetime(x) && is_datetime(y) => {
            if let (Datum::Date(p), Datum::Date(q)) = (x, y) {
                return Ok(Datum::Number(days_between(p, q)?.into()));
            }
            let (Some(p), Some(q)) = (instant(x, env)?, instant(y, env)?) else {
                return Ok(Datum::Null);
            };
            Ok(Datum::IntervalDs(p - q))
        }
        (ArithOp::Add | ArithOp::Sub, x, Datum::IntervalDs(n))
        | (ArithOp::Add, Datum::IntervalDs(n), x)
            if is_datetime(x) =>
        {
            let n = if op == ArithOp::Sub {
                n.checked_neg().ok_or_else(number::overflow)?
            } else {
                *n
            };
            let at = fields(x).ok_or_else(|| mismatch(a, b))?;
            let total = to_nanos(&at)
                .checked_add(n)
                .ok_or_else(crate::datetime::year_error)?;
            let mut r = from_nanos(total)?;
            if matches!(x, Datum::Date(_)) {
                r.nanosecond = 0;
            }
            Ok(rebuild(x, r))
        }
        (ArithOp::Add | ArithOp::Sub, x, Datum::IntervalYm(m))
        | (ArithOp::Add, Datum::IntervalYm(m), x)
            if is_datetime(x) =>
        {
            let m = if op == ArithOp::Sub {
                m.checked_neg().ok_or_else(number::overflow)?
            } else {
                *m
            };
            let at = fields(x).ok_or_else(|| mismatch(a, b))?;
            Ok(rebuild(x, plus_months_strict(&at, m)?))
        }
        // Datetime ± number of days: a DATE (a TIMESTAMP is converted to one first).
        (ArithOp::Add | ArithOp::Sub, x, n) | (ArithOp::Add, n, x) if is_datetime(x) => {
            if is_datetime(n) {
                return Err(mismatch(a, b));
            }
            let Some(days) = to_dec(n, env)? else {
                return Ok(Datum::Null);
            };
            let days = if op == ArithOp::Sub {
                days.negate()
            } else {
                days
            };
            let at = fields(x).ok_or_else(|| mismatch(a, b))?;
            let at = DateTime {
                nanosecond: 0,
                ..at
            };
            Ok(Datum::Date(date_plus_days(&at, &days)?))
        }
        _ => Err(mismatch(a, b)),
    }
}

fn interval_arith(op: ArithOp, a: &Datum, b: &Datum, env: &Env) -> Result<Datum, OraError> {
    let overflow = crate::number::overflow;
    match (op, a, b) {
        (ArithOp::Add, Datum::IntervalDs(x), Datum::IntervalDs(y)) => {
            Ok(Datum::IntervalDs(x.checked_add(*y).ok_or_else(overflow)?))
        }
        (ArithOp::Sub, Datum::IntervalDs(x), Datum::IntervalDs(y)) => {
            Ok(Datum::IntervalDs(x.checked_sub(*y).ok_or_else(overflow)?))
        }
        (ArithOp::Add, Datum::IntervalYm(x), Datum::IntervalYm(y)) => {
            Ok(Datum::IntervalYm(x.checked_add(*y).ok_or_else(overflow)?))
        }
        (ArithOp::Sub, Datum::IntervalYm(x), Datum::IntervalYm(y)) => {
            Ok(Datum::IntervalYm(x.checked_sub(*y).ok_or_else(overflow)?))
        }
        (ArithOp::Mul | ArithOp::Div, Datum::IntervalDs(x), n)
        | (ArithOp::Mul, n, Datum::IntervalDs(x)) => {
            let Some(f) = to_dec(n, env)? else {
                return Ok(Datum::Null);
            };
            let x = Dec::from_i128(*x);
            let r = if op == ArithOp::Div {
                x.div(&f)?
            } else {
                x.mul(&f)
            };
            Ok(Datum::IntervalDs(
                r.round_scale(0).to_i128().ok_or_else(overflow)?,
            ))
        }
        (ArithOp::Mul | ArithOp::Div, Datum::IntervalYm(x), n)
        | (ArithOp::Mul, n, Datum::IntervalYm(x)) => {
            let Some(f) = to_dec(n, env)? else {
                return Ok(Datum::Null);
            };
            let x = Dec::from_i128(i128::from(*x));
            let r = if op == ArithOp::Div {
                x.div(&f)?
            } else {
                x.mul(&f)
            };
            let m = r.trunc().to_i128().ok_or_else(overflow)?;
            Ok(Datum::IntervalYm(i64::try_from(m).map_err(|_| overflow())?))
        }
        _ => Err(mismatch(a, b)),
    }
}
