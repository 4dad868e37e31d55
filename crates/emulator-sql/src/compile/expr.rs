//! Expressions and conditions: AST → [`Ex`] with static types. Names resolve to columns,
//! pseudo-columns or statement constants (SYSDATE …); literals and binds become constants,
//! converted at once to the type they are compared with (as Oracle converts a literal, not
//! the column); comparisons are type-checked (ORA-00932); subqueries run now when they are
//! uncorrelated and become per-row calls when they are not.

use super::scope::invalid_identifier;
use super::{Clause, Compiler, Scope, Typed};
use crate::ast::{ArithOp, CmpOp, Expr, ExprKind, Ident};
use crate::convert::to_type;
use crate::ex::{is_null, Ex};
use crate::types::{
    check_comparable, datum_type, family, inconsistent, is_fixed, label, numeric_result,
    text_length, Family,
};
use crate::{Datum, OraError, OraType};

/// Sets the error's position if it has none.
pub fn at(pos: usize) -> impl Fn(OraError) -> OraError {
    move |e| {
        if e.position.is_some() {
            e
        } else {
            e.at(pos)
        }
    }
}

pub(super) fn typed(ex: Ex, ty: OraType) -> Typed {
    Typed { ex, ty }
}

impl Compiler<'_> {
    /// A value expression.
    pub fn expr(&mut self, e: &Expr, s: &Scope, cl: Clause) -> Result<Typed, OraError> {
        let t = self.expr_inner(e, s, cl).map_err(at(e.pos))?;
        Ok(Typed {
            ex: self.fold(t.ex),
            ty: t.ty,
        })
    }

    fn expr_inner(&mut self, e: &Expr, s: &Scope, cl: Clause) -> Result<Typed, OraError> {
        if let Some(t) = self.literal(&e.kind)? {
            return Ok(t);
        }
        Ok(match &e.kind {
            ExprKind::Name(parts) => self.name(parts, s)?,
            ExprKind::Neg(x) => {
                let t = self.expr(x, s, cl)?;
                match family(&t.ty) {
                    Family::Num | Family::Float | Family::Char | Family::Iym | Family::Ids => {}
                    _ => return Err(inconsistent("NUMBER", label(&t.ty))),
                }
                let ty = match family(&t.ty) {
                    Family::Char => OraType::NUMBER,
                    _ => t.ty.clone(),
                };
                typed(Ex::Neg(Box::new(t.ex)), ty)
            }
            ExprKind::Arith(op, a, b) => {
                let (a, b) = (self.expr(a, s, cl)?, self.expr(b, s, cl)?);
                let ty = arith_type(*op, &a.ty, &b.ty)?;
                typed(Ex::Arith(*op, Box::new(a.ex), Box::new(b.ex)), ty)
            }
            ExprKind::Concat(a, b) => {
                let (a, b) = (self.expr(a, s, cl)?, self.expr(b, s, cl)?);
                for t in [&a.ty, &b.ty] {
                    if family(t) == Family::Long {
                        return Err(OraError::new(997, "illegal use of LONG datatype"));
                    }
                }
                let lob = family(&a.ty) == Family::Lob || family(&b.ty) == Family::Lob;
                let ty = if lob {
                    OraType::Clob
                } else {
                    crate::types::varchar(
                        text_length(&a.ty)
                            .saturating_add(text_length(&b.ty))
                            .min(32767),
                    )
                };
                let hints = Box::new([a.ty, b.ty]);
                typed(Ex::Concat(Box::new(a.ex), Box::new(b.ex), hints), ty)
            }
            ExprKind::Call(c) => self.call(c, s, cl)?,
            ExprKind::Case {
                operand,
                whens,
                otherwise,
            } => self.case(operand.as_deref(), whens, otherwise.as_deref(), s, cl)?,
            ExprKind::Cast(x, t) => {
                let v = self.expr(x, s, cl)?;
                if family(&v.ty) == Family::Lob
                    && family(&t.ora) != Family::Lob
                    && family(&t.ora) != Family::Char
                {
                    return Err(inconsistent(label(&t.ora), label(&v.ty)));
                }
                typed(Ex::Cast(Box::new(v.ex), t.ora.clone()), t.ora.clone())
            }
            ExprKind::Trim { mode, set, from } => {
                let mut args = vec![self.expr(from, s, cl)?];
                if let Some(set) = set {
                    args.push(self.expr(set, s, cl)?);
                }
                self.builtin(crate::functions::Builtin::Trim(*mode), args)?
            }
            ExprKind::Extract { field, from } => {
                let x = self.expr(from, s, cl)?;
                let f: &'static str = match field.as_str() {
                    "YEAR" => "YEAR",
                    "MONTH" => "MONTH",
                    "DAY" => "DAY",
                    "HOUR" => "HOUR",
                    "MINUTE" => "MINUTE",
                    "SECOND" => "SECOND",
                    "TIMEZONE_HOUR" => "TIMEZONE_HOUR",
                    "TIMEZONE_MINUTE" => "TIMEZONE_MINUTE",
                    "TIMEZONE_REGION" => "TIMEZONE_REGION",
                    _ => "TIMEZONE_ABBR",
                };
                self.builtin(crate::functions::Builtin::Extract(f), vec![x])?
            }
            ExprKind::Serialize { arg, returning, .. } => {
                let x = self.expr(arg, s, cl)?;
                let mut t = self.builtin(crate::functions::Builtin::Serialize, vec![x])?;
                t.ty = returning.clone();
                t
            }
            ExprKind::Subquery(q) => self.scalar_subquery(q, s)?,
            _ => typed(self.cond(e, s, cl)?, OraType::Boolean),
        })
    }

    /// A literal or bind: a constant of the type it describes as.
    fn literal(&self, kind: &ExprKind) -> Result<Option<Typed>, OraError> {
        Ok(Some(match kind {
            ExprKind::Num(n) => {
                let d = crate::number::Dec::parse(n).ok_or_else(crate::number::invalid_number)?;
                typed(
                    Ex::Const(Datum::Number(d.fit()?.to_canonical().into())),
                    OraType::NUMBER,
                )
            }
            ExprKind::BinNum(n, double) => {
                let f: f64 = n.parse().map_err(|_| crate::number::invalid_number())?;
                if *double {
                    typed(Ex::Const(Datum::BinaryDouble(f)), OraType::BinaryDouble)
                } else {
                    typed(
                        Ex::Const(Datum::BinaryFloat(f as f32)),
                        OraType::BinaryFloat,
                    )
                }
            }
            ExprKind::Str { text, national } => {
                let ty = if *national {
                    OraType::NChar(text.chars().count() as u32)
                } else {
                    OraType::Char(text.len() as u32)
                };
                typed(Ex::Const(Datum::text(text.clone())), ty)
            }
            ExprKind::Null => typed(Ex::Const(Datum::Null), OraType::Varchar2(0)),
            ExprKind::Bind(i) => {
                let v = self
                    .binds
                    .get(*i)
                    .cloned()
                    .ok_or_else(|| OraError::new(1008, "not all variables bound"))?;
                let ty = datum_type(&v);
                typed(Ex::Const(v), ty)
            }
            ExprKind::DateLit(t) => typed(
                Ex::Const(Datum::Date(crate::literal::date_literal(t)?)),
                OraType::Date,
            ),
            ExprKind::TimestampLit(t) => {
                let v = crate::literal::timestamp_literal(t)?;
                let ty = match v {
                    Datum::TimestampTz { .. } => OraType::TimestampTz(9),
                    _ => OraType::Timestamp(9),
                };
                typed(Ex::Const(v), ty)
            }
            ExprKind::IntervalLit { text, unit } => {
                let v = crate::literal::interval(text, *unit)?;
                let ty = match v {
                    Datum::IntervalYm(m) => OraType::IntervalYm(digits(i128::from(m / 12)).max(2)),
                    Datum::IntervalDs(n) => {
                        OraType::IntervalDs(digits(n / 86_400_000_000_000).max(2), 6)
                    }
                    _ => OraType::IntervalDs(9, 9),
                };
                typed(Ex::Const(v), ty)
            }
            _ => return Ok(None),
        }))
    }

    /// A name: pseudo-column, column (here or in an enclosing block), statement constant,
    /// or (in PL/SQL) a packaged constant.
    fn name(&mut self, parts: &[Ident], s: &Scope) -> Result<Typed, OraError> {
        if let [id] = parts {
            if !id.quoted {
                match id.name.as_str() {
                    "SYSDATE" | "USER" | "UID" => return self.niladic(&id.name, None),
                    "LEVEL" | "CONNECT_BY_ISLEAF" => {
                        return Err(crate::unimplemented("hierarchical queries (LEVEL)"))
                    }
                    "ROWNUM" if s.rownum.is_none() => {
                        return Err(OraError::new(
                            976,
                            "Specified pseudocolumn or operator not allowed here.",
                        ))
                    }
                    _ => {}
                }
            }
        }
        if let Some((ex, ty)) = s.resolve(parts)? {
            return Ok(typed(ex, ty));
        }
        if let [id] = parts {
            if !id.quoted {
                match id.name.as_str() {
                    "CURRENT_DATE" | "CURRENT_TIMESTAMP" | "LOCALTIMESTAMP" | "SYSTIMESTAMP"
                    | "SESSIONTIMEZONE" | "DBTIMEZONE" => return self.niladic(&id.name, None),
                    "ORA_ROWSCN" | "VERSIONS_STARTSCN" | "VERSIONS_ENDSCN" => {
                        return Err(crate::unimplemented(&format!(
                            "the pseudo-column {}",
                            id.name
                        )))
                    }
                    _ => {}
                }
            }
        }
        if self.plsql {
            let names: Vec<String> = parts.iter().map(|p| p.name.clone()).collect();
            return match self.db.constant(&names) {
                Some(d) => {
                    let ty = datum_type(&d);
                    Ok(typed(Ex::Const(d), ty))
                }
                None => Err(OraError::new(
                    6550,
                    format!(
                        "PLS-00201: identifier '{}' must be declared",
                        crate::names::dotted_text(parts)
                    ),
                )
                .at(parts[0].pos)),
            };
        }
        Err(invalid_identifier(parts))
    }

    /// SYSDATE, SYSTIMESTAMP, CURRENT_DATE, CURRENT_TIMESTAMP, LOCALTIMESTAMP,
    /// SESSIONTIMEZONE, DBTIMEZONE, USER, UID: constant within a statement.
    pub(super) fn niladic(&mut self, name: &str, precision: Option<u8>) -> Result<Typed, OraError> {
        use crate::datetime::shift_zone;
        let now = self.env.now;
        let p = precision.unwrap_or(6).min(9);
        let micro = |dt: crate::DateTime| crate::convert::round_fraction(dt, p);
        Ok(match name {
            "SYSDATE" => typed(
                Ex::Const(Datum::Date(crate::DateTime {
                    nanosecond: 0,
                    ..now.host
                })),
                OraType::Date,
            ),
            "SYSTIMESTAMP" => typed(
                Ex::Const(Datum::TimestampTz {
                    at: micro(now.host)?,
                    offset_minutes: now.host_offset,
                }),
                OraType::TimestampTz(p),
            ),
            "CURRENT_DATE" | "CURRENT_TIMESTAMP" | "LOCALTIMESTAMP" => {
                let off = self.env.offset()?;
                let local = micro(shift_zone(&now.host, now.host_offset, off)?)?;
                match name {
                    "CURRENT_DATE" => typed(
                        Ex::Const(Datum::Date(crate::DateTime {
                            nanosecond: 0,
                            ..local
                        })),
                        OraType::Date,
                    ),
                    "CURRENT_TIMESTAMP" => typed(
                        Ex::Const(Datum::TimestampTz {
                            at: local,
                            offset_minutes: off,
                        }),
                        OraType::TimestampTz(p),
                    ),
                    _ => typed(Ex::Const(Datum::Timestamp(local)), OraType::Timestamp(p)),
                }
            }
            "SESSIONTIMEZONE" => typed(
                Ex::Const(Datum::Text(self.env.nls.time_zone().to_string().into())),
                OraType::Varchar2(75),
            ),
            "DBTIMEZONE" => {
                let v = match self.db.function("DBTIMEZONE", &[]) {
                    Some(r) => r?,
                    None => Datum::Text("+00:00".into()),
                };
                typed(Ex::Const(v), OraType::Varchar2(6))
            }
            _ => {
                let v = match self.db.function(name, &[]) {
                    Some(r) => r?,
                    None => {
                        return Err(OraError::new(
                            904,
                            format!("\"{name}\": invalid identifier"),
                        ))
                    }
                };
                let ty = if name == "UID" {
                    OraType::NUMBER
                } else {
                    OraType::Varchar2(128)
                };
                typed(Ex::Const(v), ty)
            }
        })
    }

    fn case(
        &mut self,
        operand: Option<&Expr>,
        whens: &[(Expr, Expr)],
        otherwise: Option<&Expr>,
        s: &Scope,
        cl: Clause,
    ) -> Result<Typed, OraError> {
        let subject = match operand {
            Some(o) => Some(self.expr(o, s, cl)?),
            None => None,
        };
        let mut arms = Vec::with_capacity(whens.len());
        let mut result_types: Vec<(OraType, usize)> = Vec::new();
        for (w, t) in whens {
            let when = match &subject {
                Some(sub) => {
                    let v = self.expr(w, s, cl)?;
                    check_comparable(&sub.ty, &v.ty).map_err(at(w.pos))?;
                    v.ex
                }
                None => self.cond(w, s, cl)?,
            };
            let then = self.expr(t, s, cl)?;
            result_types.push((then.ty.clone(), t.pos));
            arms.push((when, then.ex));
        }
        let other = match otherwise {
            Some(o) => {
                let v = self.expr(o, s, cl)?;
                result_types.push((v.ty.clone(), o.pos));
                Some(Box::new(v.ex))
            }
            None => None,
        };
        let ty = unify(&result_types)?;
        Ok(typed(
            Ex::Case {
                operand: subject.map(|t| Box::new(t.ex)),
                whens: arms,
                otherwise: other,
                ty: ty.clone(),
            },
            ty,
        ))
    }

    /// A condition.
    pub fn cond(&mut self, e: &Expr, s: &Scope, cl: Clause) -> Result<Ex, OraError> {
        let ex = self.cond_inner(e, s, cl).map_err(at(e.pos))?;
        Ok(self.fold(ex))
    }

    fn cond_inner(&mut self, e: &Expr, s: &Scope, cl: Clause) -> Result<Ex, OraError> {
        Ok(match &e.kind {
            ExprKind::Cmp(op, a, b) => {
                let (x, y) = (self.expr(a, s, cl)?, self.expr(b, s, cl)?);
                self.compare(*op, x, y, a.pos, b.pos)?
            }
            ExprKind::And(v) => self.and(v, s, cl)?,
            ExprKind::Or(v) => {
                let mut out = Vec::with_capacity(v.len());
                for c in v {
                    match self.cond(c, s, cl)? {
                        Ex::Or(inner) => out.extend(inner),
                        other => out.push(other),
                    }
                }
                Ex::Or(out)
            }
            ExprKind::Not(x) => Ex::Not(Box::new(self.cond(x, s, cl)?)),
            ExprKind::IsNull(x, negated) => {
                let v = self.expr(x, s, cl)?;
                Ex::IsNull(Box::new(v.ex), *negated)
            }
            ExprKind::Like {
                expr,
                pattern,
                escape,
                negated,
            } => self.like(expr, pattern, escape.as_deref(), *negated, s, cl)?,
            ExprKind::Between {
                expr,
                low,
                high,
                negated,
            } => {
                let x = self.expr(expr, s, cl)?;
                let lo = self.expr(low, s, cl)?;
                let hi = self.expr(high, s, cl)?;
                let ge = self.compare(CmpOp::Ge, x.clone(), lo, expr.pos, low.pos)?;
                let le = self.compare(CmpOp::Le, x, hi, expr.pos, high.pos)?;
                negate(Ex::And(vec![ge, le]), *negated)
            }
            ExprKind::InList {
                expr,
                list,
                negated,
            } => negate(self.in_list_cond(expr, list, s, cl)?, *negated),
            ExprKind::InQuery {
                expr,
                query,
                negated,
            } => {
                let x = self.expr(expr, s, cl)?;
                negate(self.in_query(x, query, s)?, *negated)
            }
            ExprKind::Exists(q) => self.exists(q, s)?,
            _ => {
                let v = self.expr(e, s, cl)?;
                if v.ty != OraType::Boolean {
                    return Err(OraError::new(920, "invalid relational operator").at(e.end));
                }
                v.ex
            }
        })
    }

    fn and(&mut self, v: &[Expr], s: &Scope, cl: Clause) -> Result<Ex, OraError> {
        let mut out = Vec::with_capacity(v.len());
        for c in v {
            match self.cond(c, s, cl)? {
                Ex::Truth(Some(true)) => {}
                Ex::And(inner) => out.extend(inner),
                other => out.push(other),
            }
        }
        Ok(if out.iter().any(|c| matches!(c, Ex::Truth(Some(false)))) {
            Ex::Truth(Some(false))
        } else {
            super::and_all(out).unwrap_or(Ex::Truth(Some(true)))
        })
    }

    fn in_list_cond(
        &mut self,
        expr: &Expr,
        list: &[Expr],
        s: &Scope,
        cl: Clause,
    ) -> Result<Ex, OraError> {
        let x = self.expr(expr, s, cl)?;
        let mut items = Vec::with_capacity(list.len());
        for item in list {
            let v = self.expr(item, s, cl)?;
            check_comparable(&x.ty, &v.ty).map_err(at(item.pos))?;
            let padded = is_fixed(&x.ty) && is_fixed(&v.ty);
            items.push((
                self.coerce_const(v.ex, &x.ty).map_err(at(item.pos))?,
                padded,
            ));
        }
        Ok(self.in_list(x, items))
    }

    /// `a op b`, type-checked, constants converted to the other side's type.
    pub fn compare(
        &mut self,
        op: CmpOp,
        a: Typed,
        b: Typed,
        apos: usize,
        bpos: usize,
    ) -> Result<Ex, OraError> {
        check_comparable(&a.ty, &b.ty).map_err(at(apos))?;
        let how = crate::compare::TextCmp::of(&a.ty, &b.ty);
        let l = self.coerce_const(a.ex, &b.ty).map_err(at(apos))?;
        let r = self.coerce_const(b.ex, &a.ty).map_err(at(bpos))?;
        Ok(Ex::Cmp {
            op,
            l: Box::new(l),
            r: Box::new(r),
            how,
        })
    }

    /// A constant compared with a value of `other`'s type, converted once as Oracle
    /// converts it (text to NUMBER or to a datetime with the session's format …).
    pub fn coerce_const(&self, ex: Ex, other: &OraType) -> Result<Ex, OraError> {
        let Ex::Const(d) = &ex else {
            return Ok(ex);
        };
        if is_null(d) {
            return Ok(ex);
        }
        let target = match (family(other), d) {
            (Family::Num, Datum::Text(_)) => OraType::NUMBER,
            (Family::Float, Datum::Text(_) | Datum::Number(_)) => other.clone(),
            (Family::Date, Datum::Text(_)) => OraType::Date,
            (Family::Ts, Datum::Text(_)) => OraType::Timestamp(9),
            (Family::Tstz, Datum::Text(_)) => OraType::TimestampTz(9),
            (Family::Rowid, Datum::Text(_)) => OraType::Rowid,
            (Family::Iym, Datum::Text(_)) => OraType::IntervalYm(9),
            (Family::Ids, Datum::Text(_)) => OraType::IntervalDs(9, 9),
            _ => return Ok(ex),
        };
        Ok(Ex::Const(to_type(d, &target, &self.env)?))
    }
}

/// `e`, or NOT `e`.
fn negate(e: Ex, negated: bool) -> Ex {
    if negated {
        Ex::Not(Box::new(e))
    } else {
        e
    }
}

fn digits(n: i128) -> u8 {
    n.unsigned_abs().to_string().len().min(9) as u8
}

/// The type of `a op b` (ORA-00932 for operands arithmetic does not take).
pub fn arith_type(op: ArithOp, a: &OraType, b: &OraType) -> Result<OraType, OraError> {
    use Family::*;
    let (x, y) = (family(a), family(b));
    let numeric = |f: Family| matches!(f, Num | Float | Char);
    let datetime = |f: Family| matches!(f, Date | Ts | Tstz);
    Ok(match (op, x, y) {
        (_, p, q) if numeric(p) && numeric(q) => numeric_result(a, b),
        (ArithOp::Add, p, q) if datetime(p) && datetime(q) => {
            return Err(OraError::new(975, "date + date not allowed"))
        }
        (ArithOp::Sub, Date, Date) => OraType::NUMBER,
        (ArithOp::Sub, p, q) if datetime(p) && datetime(q) => OraType::IntervalDs(9, 9),
        (ArithOp::Add | ArithOp::Sub, p, q) if datetime(p) && numeric(q) => OraType::Date,
        (ArithOp::Add, p, q) if numeric(p) && datetime(q) => OraType::Date,
        (ArithOp::Add | ArithOp::Sub, p, Iym | Ids) if datetime(p) => a.clone(),
        (ArithOp::Add, Iym | Ids, q) if datetime(q) => b.clone(),
        (ArithOp::Add | ArithOp::Sub, Ids, Ids) => OraType::IntervalDs(9, 9),
        (ArithOp::Add | ArithOp::Sub, Iym, Iym) => OraType::IntervalYm(9),
        (ArithOp::Mul | ArithOp::Div, Iym | Ids, q) if numeric(q) => a.clone(),
        (ArithOp::Mul, p, Iym | Ids) if numeric(p) => b.clone(),
        (_, p, _) if !numeric(p) => return Err(inconsistent("NUMBER", label(a))),
        _ => return Err(inconsistent("NUMBER", label(b))),
    })
}

/// The type of CASE / DECODE results: the first non-NULL one's; ORA-00932 when results of
/// other kinds mix in.
pub fn unify(types: &[(OraType, usize)]) -> Result<OraType, OraError> {
    let known: Vec<&(OraType, usize)> = types
        .iter()
        .filter(|(t, _)| *t != OraType::Varchar2(0))
        .collect();
    let Some((first, _)) = known.first() else {
        return Ok(OraType::Varchar2(0));
    };
    let group = |t: &OraType| match family(t) {
        Family::Num | Family::Float => 0,
        Family::Char | Family::Lob | Family::Long => 1,
        Family::Date | Family::Ts | Family::Tstz => 2,
        f => 3 + f as u8,
    };
    for (t, pos) in &known[1..] {
        if group(t) != group(first) {
            return Err(inconsistent(label(first), label(t)).at(*pos));
        }
    }
    // A character result is as long as the longest.
    if family(first) == Family::Char {
        let n = known.iter().map(|(t, _)| text_length(t)).max().unwrap_or(1);
        return Ok(crate::types::varchar(n));
    }
    Ok((*first).clone())
}
