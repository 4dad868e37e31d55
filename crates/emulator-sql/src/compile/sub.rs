//! Subqueries and the conditions over lists: IN lists (a hash lookup over constants of the
//! compared type), IN / EXISTS / scalar subqueries (run now when uncorrelated, per row with
//! their correlated values as parameters otherwise), and LIKE patterns (compiled once when
//! constant).

use super::expr::{at, typed};
use super::{Clause, Compiler, Scope, Typed};
use crate::ast::{Expr, Query};
use crate::compare::push_key;
use crate::ex::{is_null, Ex, LikePat, SubCall, SubKind};
use crate::plan::QueryPlan;
use crate::types::{check_comparable, family, is_fixed, Family};
use crate::{Datum, OraError, OraType};
use std::collections::HashSet;
use std::sync::Arc;

impl Compiler<'_> {
    pub(super) fn exists(&mut self, q: &Query, s: &Scope) -> Result<Ex, OraError> {
        let (plan, params, needs) = self.subquery(q, s)?;
        if params.is_empty() {
            let rows = self.run_now(&plan, needs)?;
            return Ok(Ex::Truth(Some(!rows.is_empty())));
        }
        Ok(Ex::Sub(Box::new(SubCall {
            kind: SubKind::Exists,
            args: params.into_iter().map(|(e, _)| e).collect(),
            plan,
        })))
    }

    /// `x IN (items)`: a hash lookup when the items are constants of the type `x` compares
    /// in without conversion.
    pub(super) fn in_list(&self, x: Typed, items: Vec<(Ex, bool)>) -> Ex {
        let all_const = items.iter().all(|(e, _)| e.is_const());
        let fam = family(&x.ty);
        let hashable = all_const
            && !is_fixed(&x.ty)
            && items.iter().all(|(e, _)| {
                matches!(
                    (e, fam),
                    (Ex::Const(Datum::Null), _)
                        | (Ex::Const(Datum::Number(_)), Family::Num)
                        | (Ex::Const(Datum::Text(_)), Family::Char)
                        | (Ex::Const(Datum::Date(_)), Family::Date)
                )
            });
        if hashable && items.len() > 3 {
            let mut keys = HashSet::new();
            let mut has_null = false;
            for (e, _) in &items {
                if let Ex::Const(d) = e {
                    if is_null(d) {
                        has_null = true;
                    } else {
                        let mut k = Vec::new();
                        push_key(d, &self.env, &mut k);
                        keys.insert(k);
                    }
                }
            }
            return Ex::InSet {
                x: Box::new(x.ex),
                keys: Arc::new(keys),
                has_null,
            };
        }
        // IN asks for equality, which every character set's order agrees on: only blank
        // padding matters.
        let padded = items.iter().all(|(_, p)| *p) && !items.is_empty();
        Ex::InList {
            x: Box::new(x.ex),
            list: items.into_iter().map(|(e, _)| e).collect(),
            how: crate::compare::TextCmp {
                padded,
                national: false,
            },
        }
    }

    pub(super) fn in_query(&mut self, x: Typed, q: &Query, s: &Scope) -> Result<Ex, OraError> {
        let (plan, params, needs) = self.subquery(q, s)?;
        if plan.columns.len() != 1 {
            return Err(OraError::new(913, "too many values").at(q.pos));
        }
        check_comparable(&x.ty, &plan.columns[0].ora_type).map_err(at(q.pos))?;
        if !params.is_empty() {
            return Ok(Ex::Sub(Box::new(SubCall {
                kind: SubKind::In(Box::new(x.ex)),
                args: params.into_iter().map(|(e, _)| e).collect(),
                plan,
            })));
        }
        let rows = self.run_now(&plan, needs)?;
        if rows.is_empty() {
            return Ok(Ex::Truth(Some(false)));
        }
        let col_ty = plan.columns[0].ora_type.clone();
        let mut items = Vec::with_capacity(rows.len());
        for r in rows {
            let v = r.into_iter().next().unwrap_or(Datum::Null);
            let padded = is_fixed(&x.ty) && is_fixed(&col_ty);
            items.push((self.coerce_const(Ex::Const(v), &x.ty)?, padded));
        }
        Ok(self.in_list(x, items))
    }

    pub(super) fn scalar_subquery(&mut self, q: &Query, s: &Scope) -> Result<Typed, OraError> {
        let (plan, params, needs) = self.subquery(q, s)?;
        if plan.columns.len() != 1 {
            return Err(OraError::new(913, "too many values").at(q.pos));
        }
        let ty = plan.columns[0].ora_type.clone();
        if !params.is_empty() {
            return Ok(typed(
                Ex::Sub(Box::new(SubCall {
                    kind: SubKind::Scalar,
                    args: params.into_iter().map(|(e, _)| e).collect(),
                    plan,
                })),
                ty,
            ));
        }
        let mut rows = self.run_now(&plan, needs)?.into_iter();
        let v = match (rows.next(), rows.next()) {
            (None, _) => Datum::Null,
            (Some(r), None) => r.into_iter().next().unwrap_or(Datum::Null),
            (Some(_), Some(_)) => {
                return Err(OraError::new(
                    1427,
                    "single-row subquery returns more than one row",
                ))
            }
        };
        Ok(typed(Ex::Const(v), ty))
    }

    /// Compiles a subquery of a block whose scope is `s`: its plan (read into memory when it
    /// is correlated), its correlated references, and whether it calls database functions
    /// with row values.
    #[allow(clippy::type_complexity)]
    pub(super) fn subquery(
        &mut self,
        q: &Query,
        s: &Scope,
    ) -> Result<(Arc<QueryPlan>, Vec<(Ex, OraType)>, bool), OraError> {
        let saved_block = self.block.take();
        let saved_needs = std::mem::replace(&mut self.needs_db, false);
        let r = self.query(q, Some(s));
        self.block = saved_block;
        let needs = self.needs_db;
        self.needs_db = saved_needs || needs;
        let (plan, params) = r?;
        let plan = Arc::new(plan);
        if !params.is_empty() {
            crate::exec::materialise(&plan)?;
        }
        Ok((plan, params, needs))
    }

    /// Runs an uncorrelated subquery now.
    pub(super) fn run_now(
        &mut self,
        plan: &Arc<QueryPlan>,
        needs_db: bool,
    ) -> Result<Vec<Vec<Datum>>, OraError> {
        if needs_db {
            return crate::exec::eager(plan, &self.env, &mut *self.db);
        }
        crate::exec::run(plan, &self.env, Arc::from(Vec::new()))?.collect()
    }

    pub(super) fn like(
        &mut self,
        x: &Expr,
        pattern: &Expr,
        escape: Option<&Expr>,
        negated: bool,
        s: &Scope,
        cl: Clause,
    ) -> Result<Ex, OraError> {
        let v = self.expr(x, s, cl)?;
        if family(&v.ty) == Family::Long {
            return Err(OraError::new(997, "illegal use of LONG datatype").at(x.pos));
        }
        let p = self.expr(pattern, s, cl)?;
        let esc = match escape {
            Some(e) => Some((self.expr(e, s, cl)?, e.pos)),
            None => None,
        };
        let fixed = p.ex.is_const() && esc.as_ref().is_none_or(|(e, _)| e.ex.is_const());
        let pat = if fixed {
            let text = |ex: &Ex| -> Result<Option<String>, OraError> {
                match ex {
                    Ex::Const(d) => {
                        Ok(crate::convert::to_text(d, &self.env, None)?.map(|c| c.into_owned()))
                    }
                    _ => Ok(None),
                }
            };
            let esc_char = match &esc {
                None => Some(None),
                Some((e, pos)) => match text(&e.ex)? {
                    None => None,
                    Some(t) => Some(Some(crate::like::escape_char(&t).map_err(at(*pos))?)),
                },
            };
            match (text(&p.ex)?, esc_char) {
                (Some(pt), Some(ec)) => LikePat::Fixed(Some(
                    crate::like::compile(&pt, ec).map_err(at(pattern.pos))?,
                )),
                _ => LikePat::Fixed(None),
            }
        } else {
            LikePat::Dynamic {
                pattern: Box::new(p.ex),
                escape: esc.map(|(e, _)| Box::new(e.ex)),
            }
        };
        Ok(Ex::Like {
            x: Box::new(v.ex),
            hint: v.ty,
            pat,
            negated,
        })
    }
}
