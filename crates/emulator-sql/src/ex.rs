//! Compiled expressions and conditions, and their evaluation against one row.
//!
//! An [`Ex`] refers to its row by slot, to the values of an enclosing query's row by
//! parameter (a correlated subquery's), and holds its constants already converted. Values
//! come back as `Cow`: a column or a constant is borrowed, so filtering and projecting a row
//! allocates only for what is computed. Conditions evaluate to TRUE / FALSE / UNKNOWN
//! (`Option<bool>`), AND and OR stopping at the first FALSE / TRUE.

use crate::ast::{ArithOp, CmpOp};
use crate::compare::{compare, push_key, TextCmp};
use crate::convert::to_text;
use crate::env::Env;
use crate::functions::FuncCall;
use crate::like::{self, Pat};
use crate::plan::QueryPlan;
use crate::{Datum, OraError, OraType};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashSet;
use std::sync::Arc;

/// What a row's expressions are evaluated with.
pub struct Cx<'a> {
    pub row: &'a [Datum],
    pub params: &'a [Datum],
    pub env: &'a Arc<Env>,
}

#[derive(Debug, Clone)]
pub enum LikePat {
    /// Compiled from constants; `None` when the pattern or escape is NULL (always UNKNOWN).
    Fixed(Option<Vec<Pat>>),
    Dynamic {
        pattern: Box<Ex>,
        escape: Option<Box<Ex>>,
    },
}

#[derive(Debug, Clone)]
pub enum SubKind {
    Exists,
    /// `x IN (subquery)`.
    In(Box<Ex>),
    Scalar,
}

/// A correlated subquery: run per row with the values of `args` as its parameters.
#[derive(Debug, Clone)]
pub struct SubCall {
    pub kind: SubKind,
    pub args: Vec<Ex>,
    pub plan: Arc<QueryPlan>,
}

#[derive(Debug, Clone)]
pub enum Ex {
    Const(Datum),
    Col(usize),
    Param(usize),
    Neg(Box<Ex>),
    Arith(ArithOp, Box<Ex>, Box<Ex>),
    /// `a || b` with the operands' static types (for their text forms).
    Concat(Box<Ex>, Box<Ex>, Box<[OraType; 2]>),
    Func(Box<FuncCall>),
    /// A database function with row-dependent arguments (answered from the memo).
    Db {
        name: String,
        args: Vec<Ex>,
    },
    Case {
        operand: Option<Box<Ex>>,
        whens: Vec<(Ex, Ex)>,
        otherwise: Option<Box<Ex>>,
        ty: OraType,
    },
    Cast(Box<Ex>, OraType),
    Cmp {
        op: CmpOp,
        l: Box<Ex>,
        r: Box<Ex>,
        how: TextCmp,
    },
    And(Vec<Ex>),
    Or(Vec<Ex>),
    Not(Box<Ex>),
    IsNull(Box<Ex>, bool),
    Like {
        x: Box<Ex>,
        hint: OraType,
        pat: LikePat,
        negated: bool,
    },
    InList {
        x: Box<Ex>,
        list: Vec<Ex>,
        how: TextCmp,
    },
    /// `x IN (constants)` of one kind: a hash lookup.
    InSet {
        x: Box<Ex>,
        keys: Arc<HashSet<Vec<u8>>>,
        has_null: bool,
    },
    Sub(Box<SubCall>),
    Truth(Option<bool>),
    /// An aggregate of the block, before grouping gives it a slot.
    Agg(usize),
    /// An analytic function of the block, before it gets a slot.
    Win(usize),
}

fn null<'a>() -> Cow<'a, Datum> {
    Cow::Owned(Datum::Null)
}

pub fn is_null(d: &Datum) -> bool {
    match d {
        Datum::Null => true,
        Datum::Text(s) => s.is_empty(),
        Datum::Bytes(b) => b.is_empty(),
        _ => false,
    }
}

impl Ex {
    pub fn is_const(&self) -> bool {
        matches!(self, Ex::Const(_))
    }

    /// The value of the expression (a condition gives BOOLEAN or NULL).
    pub fn eval<'a>(&'a self, cx: &Cx<'a>) -> Result<Cow<'a, Datum>, OraError> {
        Ok(match self {
            Ex::Const(d) => Cow::Borrowed(d),
            Ex::Col(i) => match cx.row.get(*i) {
                Some(d) => Cow::Borrowed(d),
                None => null(),
            },
            Ex::Param(i) => match cx.params.get(*i) {
                Some(d) => Cow::Borrowed(d),
                None => null(),
            },
            Ex::Neg(x) => {
                let v = x.eval(cx)?;
                Cow::Owned(crate::arith::negate(&v, cx.env)?)
            }
            Ex::Arith(op, a, b) => {
                let x = a.eval(cx)?;
                let y = b.eval(cx)?;
                Cow::Owned(crate::arith::arith(*op, &x, &y, cx.env)?)
            }
            Ex::Concat(a, b, hints) => {
                let x = a.eval(cx)?;
                let y = b.eval(cx)?;
                let xs = to_text(&x, cx.env, Some(&hints[0]))?;
                let ys = to_text(&y, cx.env, Some(&hints[1]))?;
                match (xs, ys) {
                    (None, None) => null(),
                    (Some(s), None) | (None, Some(s)) => {
                        Cow::Owned(Datum::Text(s.into_owned().into()))
                    }
                    (Some(s), Some(t)) => {
                        let mut out = String::with_capacity(s.len() + t.len());
                        out.push_str(&s);
                        out.push_str(&t);
                        Cow::Owned(Datum::Text(out.into()))
                    }
                }
            }
            Ex::Func(f) => Cow::Owned(crate::functions::call(f, cx)?),
            Ex::Db { name, args } => {
                let vals: Vec<Datum> = args
                    .iter()
                    .map(|a| a.eval(cx).map(Cow::into_owned))
                    .collect::<Result<_, _>>()?;
                match cx.env.db_function(name, &vals) {
                    Some(r) => Cow::Owned(r?),
                    None => null(),
                }
            }
            Ex::Case {
                operand,
                whens,
                otherwise,
                ty,
            } => self.case(operand.as_deref(), whens, otherwise.as_deref(), ty, cx)?,
            Ex::Cast(x, t) => {
                let v = x.eval(cx)?;
                Cow::Owned(crate::convert::to_type(&v, t, cx.env)?)
            }
            Ex::Sub(s) if matches!(s.kind, SubKind::Scalar) => Cow::Owned(scalar_sub(s, cx)?),
            Ex::Agg(_) | Ex::Win(_) => {
                return Err(OraError::new(934, "group function is not allowed here"))
            }
            _ => match self.test(cx)? {
                None => null(),
                Some(b) => Cow::Owned(Datum::Boolean(b)),
            },
        })
    }

    fn case<'a>(
        &'a self,
        operand: Option<&'a Ex>,
        whens: &'a [(Ex, Ex)],
        otherwise: Option<&'a Ex>,
        ty: &OraType,
        cx: &Cx<'a>,
    ) -> Result<Cow<'a, Datum>, OraError> {
        let subject = match operand {
            Some(o) => Some(o.eval(cx)?),
            None => None,
        };
        for (when, then) in whens {
            let hit = match &subject {
                Some(s) => {
                    let w = when.eval(cx)?;
                    compare(s, &w, TextCmp::default(), cx.env)? == Some(Ordering::Equal)
                }
                None => when.test(cx)? == Some(true),
            };
            if hit {
                return conform(then.eval(cx)?, ty, cx.env);
            }
        }
        match otherwise {
            Some(o) => conform(o.eval(cx)?, ty, cx.env),
            None => Ok(null()),
        }
    }

    /// The truth of a condition: `Some(true)`, `Some(false)` or UNKNOWN (`None`).
    pub fn test(&self, cx: &Cx<'_>) -> Result<Option<bool>, OraError> {
        Ok(match self {
            Ex::Truth(t) => *t,
            Ex::And(v) => {
                let mut acc = Some(true);
                for e in v {
                    match e.test(cx)? {
                        Some(false) => return Ok(Some(false)),
                        None => acc = None,
                        Some(true) => {}
                    }
                }
                acc
            }
            Ex::Or(v) => {
                let mut acc = Some(false);
                for e in v {
                    match e.test(cx)? {
                        Some(true) => return Ok(Some(true)),
                        None => acc = None,
                        Some(false) => {}
                    }
                }
                acc
            }
            Ex::Not(e) => e.test(cx)?.map(|b| !b),
            Ex::Cmp { op, l, r, how } => {
                let a = l.eval(cx)?;
                let b = r.eval(cx)?;
                compare(&a, &b, *how, cx.env)?.map(|o| match op {
                    CmpOp::Eq => o == Ordering::Equal,
                    CmpOp::Ne => o != Ordering::Equal,
                    CmpOp::Lt => o == Ordering::Less,
                    CmpOp::Le => o != Ordering::Greater,
                    CmpOp::Gt => o == Ordering::Greater,
                    CmpOp::Ge => o != Ordering::Less,
                })
            }
            Ex::IsNull(x, negated) => {
                let v = x.eval(cx)?;
                Some(is_null(&v) != *negated)
            }
            Ex::Like {
                x,
                hint,
                pat,
                negated,
            } => like_test(x, hint, pat, cx)?.map(|b| b != *negated),
            Ex::InList { x, list, how } => {
                let v = x.eval(cx)?;
                if is_null(&v) {
                    return Ok(None);
                }
                let mut unknown = false;
                for item in list {
                    let w = item.eval(cx)?;
                    match compare(&v, &w, *how, cx.env)? {
                        Some(Ordering::Equal) => return Ok(Some(true)),
                        None => unknown = true,
                        Some(_) => {}
                    }
                }
                if unknown {
                    None
                } else {
                    Some(false)
                }
            }
            Ex::InSet { x, keys, has_null } => {
                let v = x.eval(cx)?;
                if is_null(&v) {
                    return Ok(None);
                }
                let mut k = Vec::with_capacity(32);
                push_key(&v, cx.env, &mut k);
                if keys.contains(&k) {
                    Some(true)
                } else if *has_null {
                    None
                } else {
                    Some(false)
                }
            }
            Ex::Sub(s) => sub_test(s, cx)?,
            other => match other.eval(cx)?.as_ref() {
                Datum::Boolean(b) => Some(*b),
                Datum::Null => None,
                _ => return Err(OraError::new(920, "invalid relational operator")),
            },
        })
    }
}

/// A CASE / DECODE result converted to the type of the first result, as Oracle returns it.
pub(crate) fn conform<'a>(
    v: Cow<'a, Datum>,
    ty: &OraType,
    env: &Env,
) -> Result<Cow<'a, Datum>, OraError> {
    use crate::types::{family, Family};
    let fits = matches!(
        (family(ty), v.as_ref()),
        (_, Datum::Null)
            | (Family::Num, Datum::Number(_))
            | (Family::Char | Family::Lob | Family::Long, Datum::Text(_))
            | (Family::Date, Datum::Date(_))
            | (Family::Ts, Datum::Timestamp(_))
            | (Family::Tstz, Datum::TimestampTz { .. })
            | (
                Family::Float,
                Datum::BinaryDouble(_) | Datum::BinaryFloat(_)
            )
            | (Family::Raw, Datum::Bytes(_))
            | (Family::Rowid, Datum::Rowid(_))
    );
    if fits {
        return Ok(v);
    }
    let target = match ty {
        OraType::Char(_) | OraType::NChar(_) => OraType::Varchar2(32767),
        OraType::Varchar2(_) | OraType::NVarchar2(_) => OraType::Varchar2(32767),
        OraType::Timestamp(_) => OraType::Timestamp(9),
        OraType::TimestampTz(_) => OraType::TimestampTz(9),
        t => t.clone(),
    };
    Ok(Cow::Owned(crate::convert::to_type(&v, &target, env)?))
}

fn like_test(x: &Ex, hint: &OraType, pat: &LikePat, cx: &Cx<'_>) -> Result<Option<bool>, OraError> {
    let v = x.eval(cx)?;
    let Some(text) = to_text(&v, cx.env, Some(hint))? else {
        return Ok(None);
    };
    match pat {
        LikePat::Fixed(None) => Ok(None),
        LikePat::Fixed(Some(p)) => Ok(Some(like::matches(&text, p))),
        LikePat::Dynamic { pattern, escape } => {
            let p = pattern.eval(cx)?;
            let Some(p) = to_text(&p, cx.env, None)? else {
                return Ok(None);
            };
            let esc = match escape {
                None => None,
                Some(e) => {
                    let e = e.eval(cx)?;
                    match to_text(&e, cx.env, None)? {
                        None => return Ok(None),
                        Some(s) => Some(like::escape_char(&s)?),
                    }
                }
            };
            let compiled = like::compile(&p, esc)?;
            Ok(Some(like::matches(&text, &compiled)))
        }
    }
}

fn sub_params(s: &SubCall, cx: &Cx<'_>) -> Result<Arc<[Datum]>, OraError> {
    let v: Vec<Datum> = s
        .args
        .iter()
        .map(|a| a.eval(cx).map(Cow::into_owned))
        .collect::<Result<_, _>>()?;
    Ok(v.into())
}

fn sub_test(s: &SubCall, cx: &Cx<'_>) -> Result<Option<bool>, OraError> {
    let params = sub_params(s, cx)?;
    let mut rows = crate::exec::run(&s.plan, cx.env, params)?;
    match &s.kind {
        SubKind::Exists => Ok(Some(rows.next().transpose()?.is_some())),
        SubKind::In(x) => {
            let v = x.eval(cx)?;
            if is_null(&v) {
                // x IN (empty) is FALSE even for a NULL x.
                return Ok(match rows.next().transpose()? {
                    None => Some(false),
                    Some(_) => None,
                });
            }
            let mut unknown = false;
            for row in rows {
                let row = row?;
                match compare(
                    &v,
                    row.first().unwrap_or(&Datum::Null),
                    TextCmp::default(),
                    cx.env,
                )? {
                    Some(Ordering::Equal) => return Ok(Some(true)),
                    None => unknown = true,
                    Some(_) => {}
                }
            }
            Ok(if unknown { None } else { Some(false) })
        }
        SubKind::Scalar => Ok(match scalar_sub(s, cx)? {
            Datum::Boolean(b) => Some(b),
            _ => None,
        }),
    }
}

fn scalar_sub(s: &SubCall, cx: &Cx<'_>) -> Result<Datum, OraError> {
    let params = sub_params(s, cx)?;
    let mut rows = crate::exec::run(&s.plan, cx.env, params)?;
    let Some(first) = rows.next().transpose()? else {
        return Ok(Datum::Null);
    };
    if rows.next().transpose()?.is_some() {
        return Err(OraError::new(
            1427,
            "single-row subquery returns more than one row",
        ));
    }
    Ok(first.into_iter().next().unwrap_or(Datum::Null))
}

/// Calls `f` on every sub-expression (for walks that look for columns, subqueries …).
pub fn walk(e: &Ex, f: &mut dyn FnMut(&Ex)) {
    f(e);
    let mut go = |x: &Ex| walk(x, f);
    match e {
        Ex::Neg(a) | Ex::Not(a) | Ex::Cast(a, _) | Ex::IsNull(a, _) => go(a),
        Ex::Arith(_, a, b) | Ex::Concat(a, b, _) => {
            go(a);
            go(b);
        }
        Ex::Cmp { l, r, .. } => {
            go(l);
            go(r);
        }
        Ex::Func(fc) => fc.args.iter().for_each(go),
        Ex::Db { args, .. } => args.iter().for_each(go),
        Ex::Case {
            operand,
            whens,
            otherwise,
            ..
        } => {
            if let Some(o) = operand {
                go(o);
            }
            for (w, t) in whens {
                go(w);
                go(t);
            }
            if let Some(o) = otherwise {
                go(o);
            }
        }
        Ex::And(v) | Ex::Or(v) => v.iter().for_each(go),
        Ex::Like { x, pat, .. } => {
            go(x);
            if let LikePat::Dynamic { pattern, escape } = pat {
                go(pattern);
                if let Some(e) = escape {
                    go(e);
                }
            }
        }
        Ex::InList { x, list, .. } => {
            go(x);
            list.iter().for_each(go);
        }
        Ex::InSet { x, .. } => go(x),
        Ex::Sub(s) => {
            s.args.iter().for_each(&mut go);
            if let SubKind::In(x) = &s.kind {
                go(x);
            }
        }
        Ex::Const(_) | Ex::Col(_) | Ex::Param(_) | Ex::Truth(_) | Ex::Agg(_) | Ex::Win(_) => {}
    }
}

/// Rewrites every node bottom-up with `f` (slot remapping, placing analytic functions).
pub fn map(e: Ex, f: &mut dyn FnMut(Ex) -> Result<Ex, OraError>) -> Result<Ex, OraError> {
    let e = map_children(e, &mut |c| map(c, f))?;
    f(e)
}

/// Rewrites the direct children of a node with `f`.
pub fn map_children(e: Ex, f: &mut dyn FnMut(Ex) -> Result<Ex, OraError>) -> Result<Ex, OraError> {
    #[allow(clippy::boxed_local)] // children are boxed in the tree; the box is reused.
    fn b(
        mut x: Box<Ex>,
        f: &mut dyn FnMut(Ex) -> Result<Ex, OraError>,
    ) -> Result<Box<Ex>, OraError> {
        let inner = std::mem::replace(x.as_mut(), Ex::Truth(None));
        *x = f(inner)?;
        Ok(x)
    }
    fn all(v: Vec<Ex>, f: &mut dyn FnMut(Ex) -> Result<Ex, OraError>) -> Result<Vec<Ex>, OraError> {
        v.into_iter().map(f).collect()
    }
    Ok(match e {
        Ex::Neg(a) => Ex::Neg(b(a, f)?),
        Ex::Not(a) => Ex::Not(b(a, f)?),
        Ex::Cast(a, t) => Ex::Cast(b(a, f)?, t),
        Ex::IsNull(a, n) => Ex::IsNull(b(a, f)?, n),
        Ex::Arith(op, x, y) => Ex::Arith(op, b(x, f)?, b(y, f)?),
        Ex::Concat(x, y, h) => Ex::Concat(b(x, f)?, b(y, f)?, h),
        Ex::Cmp { op, l, r, how } => Ex::Cmp {
            op,
            l: b(l, f)?,
            r: b(r, f)?,
            how,
        },
        Ex::Func(mut fc) => {
            fc.args = all(std::mem::take(&mut fc.args), f)?;
            Ex::Func(fc)
        }
        Ex::Db { name, args } => Ex::Db {
            name,
            args: all(args, f)?,
        },
        Ex::Case {
            operand,
            whens,
            otherwise,
            ty,
        } => {
            let operand = match operand {
                Some(o) => Some(b(o, f)?),
                None => None,
            };
            let mut ws = Vec::with_capacity(whens.len());
            for (w, t) in whens {
                ws.push((f(w)?, f(t)?));
            }
            let otherwise = match otherwise {
                Some(o) => Some(b(o, f)?),
                None => None,
            };
            Ex::Case {
                operand,
                whens: ws,
                otherwise,
                ty,
            }
        }
        Ex::And(v) => Ex::And(all(v, f)?),
        Ex::Or(v) => Ex::Or(all(v, f)?),
        Ex::Like {
            x,
            hint,
            pat,
            negated,
        } => Ex::Like {
            x: b(x, f)?,
            hint,
            pat: match pat {
                LikePat::Dynamic { pattern, escape } => LikePat::Dynamic {
                    pattern: b(pattern, f)?,
                    escape: match escape {
                        Some(e) => Some(b(e, f)?),
                        None => None,
                    },
                },
                fixed => fixed,
            },
            negated,
        },
        Ex::InList { x, list, how } => Ex::InList {
            x: b(x, f)?,
            list: all(list, f)?,
            how,
        },
        Ex::InSet { x, keys, has_null } => Ex::InSet {
            x: b(x, f)?,
            keys,
            has_null,
        },
        Ex::Sub(mut s) => {
            s.args = all(std::mem::take(&mut s.args), f)?;
            if let SubKind::In(x) = s.kind {
                s.kind = SubKind::In(b(x, f)?);
            }
            Ex::Sub(s)
        }
        leaf => leaf,
    })
}
