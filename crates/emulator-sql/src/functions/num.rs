//! Numeric functions on exact NUMBERs (BINARY_FLOAT / BINARY_DOUBLE arguments stay binary):
//! MOD, TRUNC, ROUND, ABS, SIGN, FLOOR, CEIL, POWER, BITAND.

use super::{arg, dec_arg, int_arg, Builtin, FuncCall};
use crate::ex::Cx;
use crate::number::Dec;
use crate::{Datum, OraError};

fn number(d: Dec) -> Result<Datum, OraError> {
    Ok(Datum::Number(d.fit()?.to_canonical().into()))
}

fn float_call(f: &FuncCall, x: f64, cx: &Cx<'_>) -> Result<Option<f64>, OraError> {
    use Builtin::*;
    let y = || -> Result<Option<f64>, OraError> {
        let v = arg(f, 1, cx)?;
        crate::convert::to_f64(&v, cx.env)
    };
    Ok(Some(match f.f {
        Abs => x.abs(),
        Sign => {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }
        }
        Floor => x.floor(),
        Ceil => x.ceil(),
        Trunc if f.args.len() == 1 => x.trunc(),
        Round if f.args.len() == 1 => x.round(),
        Mod => match y()? {
            None => return Ok(None),
            Some(0.0) => x,
            Some(y) => x % y,
        },
        Power => match y()? {
            None => return Ok(None),
            Some(y) => x.powf(y),
        },
        _ => return Ok(None),
    }))
}

pub fn call(f: &FuncCall, cx: &Cx<'_>) -> Result<Datum, OraError> {
    use Builtin::*;
    let first = arg(f, 0, cx)?;
    match first.as_ref() {
        Datum::BinaryDouble(x) => {
            if let Some(r) = float_call(f, *x, cx)? {
                return Ok(Datum::BinaryDouble(r));
            }
        }
        Datum::BinaryFloat(x) => {
            if let Some(r) = float_call(f, f64::from(*x), cx)? {
                return Ok(Datum::BinaryFloat(r as f32));
            }
        }
        _ => {}
    }
    let Some(x) = crate::convert::to_dec(&first, cx.env)? else {
        return Ok(Datum::Null);
    };
    match f.f {
        Abs => number(x.abs()),
        Sign => Ok(Datum::int(if x.is_zero() {
            0
        } else if x.is_negative() {
            -1
        } else {
            1
        })),
        Floor => number(x.floor()),
        Ceil => number(x.ceil()),
        Mod => {
            let second = arg(f, 1, cx)?;
            let (Some(a), Some(b)) = (
                crate::convert::to_number(&first, cx.env)?,
                crate::convert::to_number(&second, cx.env)?,
            ) else {
                return Ok(Datum::Null);
            };
            Ok(Datum::Number(crate::number::modulo(&a, &b)?.into()))
        }
        Trunc | Round => {
            let scale = if f.args.len() > 1 {
                match int_arg(f, 1, cx)? {
                    None => return Ok(Datum::Null),
                    Some(s) => s.clamp(-200, 200) as i32,
                }
            } else {
                0
            };
            number(if f.f == Trunc {
                x.trunc_scale(scale)
            } else {
                x.round_scale(scale)
            })
        }
        Power => {
            let Some(e) = dec_arg(f, 1, cx)? else {
                return Ok(Datum::Null);
            };
            power(&x, &e)
        }
        Bitand => {
            let Some(y) = dec_arg(f, 1, cx)? else {
                return Ok(Datum::Null);
            };
            let (Some(a), Some(b)) = (x.trunc().to_i128(), y.trunc().to_i128()) else {
                return Err(crate::number::overflow());
            };
            Ok(Datum::Number((a & b).to_string().into()))
        }
        _ => Ok(Datum::Null),
    }
}

/// POWER: exact for integer exponents, binary floating point (rounded to a NUMBER) else.
fn power(x: &Dec, e: &Dec) -> Result<Datum, OraError> {
    if let Some(n) = e.to_i128().filter(|n| n.abs() <= 1000) {
        let mut acc = Dec::from_i128(1);
        for _ in 0..n.unsigned_abs() {
            acc = acc.mul(x).fit()?;
        }
        if n < 0 {
            acc = Dec::from_i128(1).div(&acc)?;
        }
        return number(acc);
    }
    if x.is_negative() {
        return Err(OraError::new(1428, "argument is out of range"));
    }
    let r = x.to_f64().powf(e.to_f64());
    if !r.is_finite() {
        return Err(crate::number::overflow());
    }
    let d = Dec::parse(&format!("{r:e}")).unwrap_or_else(Dec::zero);
    number(d.round_digits(15))
}
