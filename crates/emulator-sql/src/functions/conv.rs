//! Choices among values (NVL, NVL2, COALESCE, NULLIF, DECODE, GREATEST, LEAST) and
//! conversions (TO_CHAR, TO_NUMBER, TO_DATE, TO_TIMESTAMP[_TZ], CHARTOROWID, ROWIDTOCHAR,
//! HEXTORAW, RAWTOHEX, TO_CLOB, the *SERIALIZE functions, NUMTODSINTERVAL, NUMTOYMINTERVAL).

use super::{arg, dec_arg, text_arg, Aux, Builtin, FuncCall};
use crate::compare::{compare, same};
use crate::convert::{hex_upper, parse_hex, parse_rowid, to_dec, to_text};
use crate::dtfmt::{self, render::Zone, El, Item, Model, Target};
use crate::ex::{is_null, Cx};
use crate::numfmt;
use crate::{Datum, OraError, OraType};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::Arc;

/// The widest text a datetime model prints (the TO_CHAR result's described length).
pub fn model_width(m: &Model) -> u32 {
    m.items
        .iter()
        .map(|i| match i {
            Item::Lit(s) => s.chars().count() as u32,
            Item::El { el, .. } => match el {
                El::Month | El::Day => 9,
                El::Y(n) | El::Iy(n) | El::Rr(n) => u32::from(*n),
                El::YComma | El::SignedYear => 5,
                El::Ff(n) => {
                    if *n == 0 {
                        9
                    } else {
                        u32::from(*n)
                    }
                }
                El::Tzr => 32,
                El::Tzd => 5,
                El::Tzh => 3,
                El::J => 7,
                El::Sssss => 5,
                El::Ddd | El::Mon | El::Dy => 3,
                El::Meridian { dots: true } | El::Era { dots: true } => 4,
                El::Rm => 4,
                El::D | El::Q | El::W | El::X => 1,
                _ => 2,
            },
        })
        .sum::<u32>()
        .max(1)
}

pub fn choice(f: &FuncCall, cx: &Cx<'_>) -> Result<Datum, OraError> {
    use Builtin::*;
    let pick = |i: usize| -> Result<Datum, OraError> {
        let v = arg(f, i, cx)?;
        Ok(crate::ex::conform(v, &f.ty, cx.env)?.into_owned())
    };
    match f.f {
        Nvl => {
            let a = arg(f, 0, cx)?;
            if is_null(&a) {
                pick(1)
            } else {
                Ok(crate::ex::conform(a, &f.ty, cx.env)?.into_owned())
            }
        }
        Nvl2 => {
            let a = arg(f, 0, cx)?;
            pick(if is_null(&a) { 2 } else { 1 })
        }
        Coalesce => {
            for i in 0..f.args.len() {
                let v = arg(f, i, cx)?;
                if !is_null(&v) {
                    return Ok(crate::ex::conform(v, &f.ty, cx.env)?.into_owned());
                }
            }
            Ok(Datum::Null)
        }
        Nullif => {
            let a = arg(f, 0, cx)?;
            let b = arg(f, 1, cx)?;
            if compare(&a, &b, Default::default(), cx.env)? == Some(Ordering::Equal) {
                Ok(Datum::Null)
            } else {
                Ok(a.into_owned())
            }
        }
        Decode => {
            let subject = arg(f, 0, cx)?;
            let n = f.args.len();
            let mut i = 1;
            while i + 1 < n {
                let search = arg(f, i, cx)?;
                if same(&subject, &search, cx.env)? {
                    return pick(i + 1);
                }
                i += 2;
            }
            if i < n {
                pick(i)
            } else {
                Ok(Datum::Null)
            }
        }
        Greatest | Least => {
            let mut best = arg(f, 0, cx)?;
            if is_null(&best) {
                return Ok(Datum::Null);
            }
            // The others are converted to the first one's type, and compare in its set.
            let how = f
                .hints
                .first()
                .map(crate::compare::TextCmp::within)
                .unwrap_or_default();
            for i in 1..f.args.len() {
                let v = arg(f, i, cx)?;
                match compare(&v, &best, how, cx.env)? {
                    None => return Ok(Datum::Null),
                    Some(o) => {
                        let better = if f.f == Greatest {
                            o == Ordering::Greater
                        } else {
                            o == Ordering::Less
                        };
                        if better {
                            best = v;
                        }
                    }
                }
            }
            Ok(crate::ex::conform(best, &f.ty, cx.env)?.into_owned())
        }
        _ => Ok(Datum::Null),
    }
}

/// The model of a format argument: the precompiled one, or parsed now.
fn date_model<'a>(f: &'a FuncCall, fmt: &str) -> Result<Cow<'a, Model>, OraError> {
    match &f.aux {
        Aux::Date(m) => Ok(Cow::Borrowed(m.as_ref())),
        _ => Ok(Cow::Owned(dtfmt::parse_model(fmt)?)),
    }
}

fn num_model(f: &FuncCall, fmt: &str) -> Result<Arc<numfmt::NumModel>, OraError> {
    match &f.aux {
        Aux::Num(m) => Ok(m.clone()),
        _ => Ok(Arc::new(numfmt::parse_model(fmt)?)),
    }
}

/// The decimal and group characters of an NLS parameter argument (`NLS_NUMERIC_CHARACTERS =
/// ',.'`), or the session's.
fn nls_param(f: &FuncCall, cx: &Cx<'_>) -> Result<(char, char), OraError> {
    let default = (cx.env.nls.decimal(), cx.env.nls.group());
    if f.args.len() < 3 {
        return Ok(default);
    }
    let Some(p) = text_arg(f, 2, cx)? else {
        return Ok(default);
    };
    let upper = p.to_ascii_uppercase();
    if let Some(at) = upper.find("NLS_NUMERIC_CHARACTERS") {
        let rest = &p[at..];
        if let Some(q) = rest.find('\'') {
            let cs: Vec<char> = rest[q + 1..].chars().take(2).collect();
            if cs.len() == 2 {
                return Ok((cs[0], cs[1]));
            }
        }
        return Err(OraError::new(
            12702,
            "invalid NLS parameter string used in SQL function",
        ));
    }
    if upper.contains("NLS_DATE_LANGUAGE")
        && !(upper.contains("AMERICAN") || upper.contains("ENGLISH"))
    {
        return Err(crate::unimplemented(
            "NLS_DATE_LANGUAGE other than AMERICAN",
        ));
    }
    Ok(default)
}

fn precision_of(t: Option<&OraType>) -> u8 {
    match t {
        Some(OraType::Timestamp(p) | OraType::TimestampTz(p) | OraType::TimestampLtz(p)) => *p,
        _ => 9,
    }
}

fn to_char(f: &FuncCall, cx: &Cx<'_>) -> Result<Datum, OraError> {
    let v = arg(f, 0, cx)?;
    if is_null(&v) {
        return Ok(Datum::Null);
    }
    if f.args.len() == 1 {
        return Ok(to_text(&v, cx.env, f.hints.first())?
            .map_or(Datum::Null, |s| Datum::Text(s.into_owned().into())));
    }
    let Some(fmt) = text_arg(f, 1, cx)? else {
        return Ok(Datum::Null);
    };
    let (decimal, group) = nls_param(f, cx)?;
    let out = match v.as_ref() {
        Datum::Date(dt) => dtfmt::render(dt, None, None, &*date_model(f, &fmt)?, decimal)?,
        Datum::Timestamp(dt) => {
            let p = precision_of(f.hints.first());
            dtfmt::render(dt, None, Some(p), &*date_model(f, &fmt)?, decimal)?
        }
        Datum::TimestampTz { at, offset_minutes } => {
            let p = precision_of(f.hints.first());
            let zone = Zone {
                offset: *offset_minutes,
                region: None,
            };
            dtfmt::render(at, Some(zone), Some(p), &*date_model(f, &fmt)?, decimal)?
        }
        Datum::IntervalDs(_) | Datum::IntervalYm(_) | Datum::Rowid(_) | Datum::Bytes(_) => {
            to_text(&v, cx.env, f.hints.first())?
                .map(Cow::into_owned)
                .unwrap_or_default()
        }
        other => {
            let Some(n) = to_dec(other, cx.env)? else {
                return Ok(Datum::Null);
            };
            numfmt::format(&n, &*num_model(f, &fmt)?, decimal, group)?
        }
    };
    Ok(Datum::text(out))
}

fn to_datetime(f: &FuncCall, target: Target, cx: &Cx<'_>) -> Result<Datum, OraError> {
    let v = arg(f, 0, cx)?;
    if is_null(&v) {
        return Ok(Datum::Null);
    }
    // A datetime argument without a format is converted, not re-read.
    if f.args.len() == 1 && !matches!(v.as_ref(), Datum::Text(_) | Datum::Number(_)) {
        let t = match target {
            Target::Date => OraType::Date,
            Target::Timestamp => OraType::Timestamp(9),
            Target::TimestampTz => OraType::TimestampTz(9),
        };
        return crate::convert::to_type(&v, &t, cx.env);
    }
    let Some(text) = to_text(&v, cx.env, f.hints.first())? else {
        return Ok(Datum::Null);
    };
    let owned;
    let model: &Model = if f.args.len() > 1 {
        let Some(fmt) = text_arg(f, 1, cx)? else {
            return Ok(Datum::Null);
        };
        owned = date_model(f, &fmt)?;
        &owned
    } else {
        match target {
            Target::Date => cx.env.nls.date_model(),
            Target::Timestamp => cx.env.nls.ts_model(),
            Target::TimestampTz => cx.env.nls.tstz_model(),
        }
    };
    nls_param(f, cx)?;
    let p = dtfmt::read(&text, model, target, &cx.env.now.host)?;
    Ok(match target {
        Target::Date => Datum::Date(p.at),
        Target::Timestamp => Datum::Timestamp(p.at),
        Target::TimestampTz => Datum::TimestampTz {
            at: p.at,
            offset_minutes: match p.offset {
                Some(o) => o,
                None => cx.env.offset()?,
            },
        },
    })
}

fn illegal_argument() -> OraError {
    OraError::new(1760, "illegal argument for function")
}

pub fn call(f: &FuncCall, cx: &Cx<'_>) -> Result<Datum, OraError> {
    use Builtin::*;
    match f.f {
        ToChar => to_char(f, cx),
        ToDate => to_datetime(f, Target::Date, cx),
        ToTimestamp => to_datetime(f, Target::Timestamp, cx),
        ToTimestampTz => to_datetime(f, Target::TimestampTz, cx),
        ToNumber => {
            let v = arg(f, 0, cx)?;
            if f.args.len() == 1 || !matches!(v.as_ref(), Datum::Text(_)) {
                return Ok(to_dec(&v, cx.env)?
                    .map_or(Datum::Null, |d| Datum::Number(d.to_canonical().into())));
            }
            let (Some(text), Some(fmt)) = (text_arg(f, 0, cx)?, text_arg(f, 1, cx)?) else {
                return Ok(Datum::Null);
            };
            let (decimal, group) = nls_param(f, cx)?;
            let d = numfmt::parse(&text, &*num_model(f, &fmt)?, decimal, group)?;
            Ok(Datum::Number(d.fit()?.to_canonical().into()))
        }
        Chartorowid => Ok(match text_arg(f, 0, cx)? {
            None => Datum::Null,
            Some(s) => Datum::Rowid(parse_rowid(&s)?.into()),
        }),
        Rowidtochar | ToClob => {
            Ok(text_arg(f, 0, cx)?.map_or(Datum::Null, |t| Datum::Text(t.into())))
        }
        Serialize => {
            let v = arg(f, 0, cx)?;
            Ok(match v.as_ref() {
                Datum::Bytes(b) => match std::str::from_utf8(b) {
                    Ok(s) => Datum::text(s),
                    Err(_) => Datum::text(hex_upper(b)),
                },
                other => to_text(other, cx.env, None)?
                    .map_or(Datum::Null, |s| Datum::Text(s.into_owned().into())),
            })
        }
        Hextoraw => Ok(match text_arg(f, 0, cx)? {
            None => Datum::Null,
            Some(s) => Datum::Bytes(parse_hex(&s)?),
        }),
        Rawtohex => {
            let v = arg(f, 0, cx)?;
            Ok(match v.as_ref() {
                d if is_null(d) => Datum::Null,
                Datum::Bytes(b) => Datum::Text(hex_upper(b).into()),
                other => match to_text(other, cx.env, None)? {
                    None => Datum::Null,
                    Some(s) => Datum::text(hex_upper(&parse_hex(&s)?)),
                },
            })
        }
        NumToDsInterval | NumToYmInterval => {
            let (Some(n), Some(unit)) = (dec_arg(f, 0, cx)?, text_arg(f, 1, cx)?) else {
                return Ok(Datum::Null);
            };
            let unit = unit.trim().to_ascii_uppercase();
            if f.f == NumToYmInterval {
                let months = match unit.as_str() {
                    "YEAR" => n.mul(&crate::number::Dec::from_i128(12)),
                    "MONTH" => n,
                    _ => return Err(illegal_argument()),
                };
                let m = months
                    .round_scale(0)
                    .to_i128()
                    .ok_or_else(crate::number::overflow)?;
                return Ok(Datum::IntervalYm(
                    i64::try_from(m).map_err(|_| crate::number::overflow())?,
                ));
            }
            let unit_nanos: i128 = match unit.as_str() {
                "DAY" => 86_400_000_000_000,
                "HOUR" => 3_600_000_000_000,
                "MINUTE" => 60_000_000_000,
                "SECOND" => 1_000_000_000,
                _ => return Err(illegal_argument()),
            };
            Ok(Datum::IntervalDs(crate::convert::days_to_nanos(
                &n, unit_nanos,
            )?))
        }
        _ => Ok(Datum::Null),
    }
}
