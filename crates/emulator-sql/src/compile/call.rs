//! Calls: built-in functions (argument counts, result types, constant folding), aggregates
//! and analytic functions (collected for the block, which gives them slots once it knows
//! whether it groups), and the database's functions (`SYS_CONTEXT`, `SCN_TO_TIMESTAMP` …),
//! called now when their arguments are constant.

use super::{Clause, Compiler, Scope, Typed, WinDraft};
use crate::ast::{Call, OrderItem};
use crate::ex::Ex;
use crate::functions::{self, Builtin, FuncCall};
use crate::plan::{AggKind, AggSpec, WinKind};
use crate::types::{datum_type, family, inconsistent, label, numeric_result, Family};
use crate::{OraError, OraType};

fn arg_count() -> OraError {
    OraError::new(909, "invalid number of arguments")
}

/// Result types of the database functions the emulator knows to be the database's.
fn db_function_type(name: &str) -> Option<OraType> {
    Some(match name {
        "SYS_CONTEXT" => OraType::Varchar2(256),
        "SCN_TO_TIMESTAMP" => OraType::Timestamp(9),
        "TIMESTAMP_TO_SCN" => OraType::NUMBER,
        "USERENV" => OraType::Varchar2(256),
        _ => return None,
    })
}

impl Compiler<'_> {
    pub(super) fn call(&mut self, c: &Call, s: &Scope, cl: Clause) -> Result<Typed, OraError> {
        let name = c
            .name
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(".");
        if c.name.len() == 1 {
            let agg = match name.as_str() {
                "COUNT" => Some(AggKind::Count),
                "MIN" => Some(AggKind::Min),
                "MAX" => Some(AggKind::Max),
                "SUM" => Some(AggKind::Sum),
                "AVG" => Some(AggKind::Avg),
                _ => None,
            };
            let win = match name.as_str() {
                "ROW_NUMBER" => Some(WinKind::RowNumber),
                "RANK" => Some(WinKind::Rank),
                "DENSE_RANK" => Some(WinKind::DenseRank),
                _ => None,
            };
            if let Some(kind) = win {
                return self.window(kind, c, s, cl);
            }
            if c.over.is_some() {
                return Err(crate::unimplemented(&format!(
                    "the analytic function {name} (only ROW_NUMBER, RANK and DENSE_RANK)"
                )));
            }
            if let Some(kind) = agg {
                return self.aggregate(kind, c, s, cl);
            }
            if c.distinct || c.star {
                return Err(OraError::new(
                    30482,
                    "DISTINCT option not allowed for this function",
                ));
            }
            if c.args.iter().any(|a| a.name.is_some()) {
                return Err(crate::unimplemented(
                    "named arguments in SQL function calls",
                ));
            }
            match name.as_str() {
                "CURRENT_TIMESTAMP" | "LOCALTIMESTAMP" | "SYSTIMESTAMP" if c.args.len() <= 1 => {
                    let p = match c.args.first() {
                        Some(a) => {
                            let v = self.value(&a.value)?;
                            let n =
                                crate::convert::to_dec(&v, &self.env)?.and_then(|d| d.to_i128());
                            match n {
                                Some(n @ 0..=9) => Some(n as u8),
                                _ => {
                                    return Err(OraError::new(
                                        30088,
                                        "datetime/interval precision is out of range",
                                    ))
                                }
                            }
                        }
                        None => None,
                    };
                    return self.niladic(&name, p);
                }
                _ => {}
            }
            if let Some((f, min, max)) = functions::lookup(&name) {
                if c.args.len() < min || c.args.len() > max {
                    return Err(arg_count());
                }
                let mut args = Vec::with_capacity(c.args.len());
                for a in &c.args {
                    args.push(self.expr(&a.value, s, cl)?);
                }
                return self.builtin(f, args);
            }
            if functions::known_unsupported(&name) {
                return Err(crate::unimplemented(&format!("the function {name}")));
            }
        }
        self.db_call(&name, c, s, cl)
    }

    /// A built-in call over compiled arguments, folded when they are constants.
    pub(super) fn builtin(&mut self, f: Builtin, args: Vec<Typed>) -> Result<Typed, OraError> {
        let hints: Vec<OraType> = args.iter().map(|a| a.ty.clone()).collect();
        let exs: Vec<Ex> = args.into_iter().map(|a| a.ex).collect();
        let aux = functions::precompile(f, &exs, &hints)?;
        // DECODE returns its first result's type (later results are converted to it), NVL
        // its first argument's; COALESCE and CASE refuse to mix kinds (ORA-00932).
        let ty = match f {
            Builtin::Decode => {
                let mut results: Vec<&OraType> = hints.iter().skip(2).step_by(2).collect();
                if hints.len().is_multiple_of(2) {
                    results.extend(hints.last());
                }
                results
                    .into_iter()
                    .find(|t| **t != OraType::Varchar2(0))
                    .cloned()
                    .unwrap_or(OraType::Varchar2(0))
            }
            Builtin::Coalesce => {
                let results: Vec<(OraType, usize)> = hints.iter().map(|t| (t.clone(), 0)).collect();
                super::expr::unify(&results)?
            }
            _ => functions::result_type(f, &hints, &aux),
        };
        let call = FuncCall {
            f,
            args: exs,
            hints,
            aux,
            ty: ty.clone(),
        };
        Ok(Typed {
            ex: self.fold(Ex::Func(Box::new(call))),
            ty,
        })
    }

    /// A database function: called now with constant arguments, per row otherwise.
    fn db_call(&mut self, name: &str, c: &Call, s: &Scope, cl: Clause) -> Result<Typed, OraError> {
        if c.distinct || c.star {
            return Err(OraError::new(
                30482,
                "DISTINCT option not allowed for this function",
            ));
        }
        let mut args = Vec::with_capacity(c.args.len());
        for a in &c.args {
            args.push(self.expr(&a.value, s, cl)?);
        }
        let consts: Option<Vec<crate::Datum>> = args
            .iter()
            .map(|a| match &a.ex {
                Ex::Const(d) => Some(d.clone()),
                _ => None,
            })
            .collect();
        let pos = c.name.first().map_or(0, |p| p.pos);
        let unknown = || {
            OraError::new(
                904,
                format!("{}: invalid identifier", quoted_dotted(&c.name)),
            )
            .at(pos)
        };
        match consts {
            Some(values) => match self.db.function(name, &values) {
                None => Err(unknown()),
                Some(r) => {
                    let v = r?;
                    let ty = db_function_type(name).unwrap_or_else(|| datum_type(&v));
                    Ok(Typed {
                        ex: crate::ex::Ex::Const(v),
                        ty,
                    })
                }
            },
            None => {
                self.needs_db = true;
                Ok(Typed {
                    ex: Ex::Db {
                        name: name.to_string(),
                        args: args.into_iter().map(|a| a.ex).collect(),
                    },
                    ty: db_function_type(name).unwrap_or(OraType::Varchar2(4000)),
                })
            }
        }
    }

    fn aggregate(
        &mut self,
        kind: AggKind,
        c: &Call,
        s: &Scope,
        cl: Clause,
    ) -> Result<Typed, OraError> {
        if !cl.allows_aggregates() || self.block.is_none() {
            let code = if cl == Clause::AggArg { 935 } else { 934 };
            let text = if code == 935 {
                "group function is nested too deeply"
            } else {
                "group function is not allowed here"
            };
            return Err(OraError::new(code, text));
        }
        let (kind, arg) = if c.star {
            if kind != AggKind::Count {
                return Err(OraError::new(936, "missing expression"));
            }
            (AggKind::CountStar, None)
        } else {
            if c.args.len() != 1 {
                return Err(arg_count());
            }
            (kind, Some(self.expr(&c.args[0].value, s, Clause::AggArg)?))
        };
        let ty = match (&kind, &arg) {
            (AggKind::Count | AggKind::CountStar, _) => OraType::NUMBER,
            (AggKind::Min | AggKind::Max, Some(a)) => {
                if matches!(family(&a.ty), Family::Lob | Family::Long) {
                    return Err(inconsistent("-", label(&a.ty)));
                }
                a.ty.clone()
            }
            (_, Some(a)) => match family(&a.ty) {
                Family::Num | Family::Float | Family::Char => {
                    numeric_result(&a.ty, &OraType::NUMBER)
                }
                _ => return Err(inconsistent("NUMBER", label(&a.ty))),
            },
            _ => OraType::NUMBER,
        };
        let block = self
            .block
            .as_mut()
            .ok_or_else(|| OraError::new(934, "group function is not allowed here"))?;
        let how = arg
            .as_ref()
            .map(|a| crate::compare::TextCmp::within(&a.ty))
            .unwrap_or_default();
        block.aggs.push(AggSpec {
            kind,
            arg: arg.map(|a| a.ex),
            distinct: c.distinct,
            how,
        });
        Ok(Typed {
            ex: Ex::Agg(block.aggs.len() - 1),
            ty,
        })
    }

    fn window(
        &mut self,
        kind: WinKind,
        c: &Call,
        s: &Scope,
        cl: Clause,
    ) -> Result<Typed, OraError> {
        let Some(w) = &c.over else {
            return Err(OraError::new(
                30484,
                "missing window specification for this function",
            ));
        };
        if !cl.allows_windows() || self.block.is_none() {
            return Err(OraError::new(
                30483,
                "window  functions are not allowed here",
            ));
        }
        if !c.args.is_empty() || c.star || c.distinct {
            return Err(arg_count());
        }
        if kind != WinKind::RowNumber && w.order_by.is_empty() {
            return Err(OraError::new(
                30485,
                "missing ORDER BY expression in the window specification",
            ));
        }
        let mut partition = Vec::with_capacity(w.partition_by.len());
        for p in &w.partition_by {
            partition.push(self.expr(p, s, Clause::Having)?.ex);
        }
        let order = self.window_order(&w.order_by, s)?;
        let block = self
            .block
            .as_mut()
            .ok_or_else(|| OraError::new(30483, "window  functions are not allowed here"))?;
        block.wins.push(WinDraft {
            kind,
            partition,
            order,
        });
        Ok(Typed {
            ex: Ex::Win(block.wins.len() - 1),
            ty: OraType::NUMBER,
        })
    }

    fn window_order(
        &mut self,
        items: &[OrderItem],
        s: &Scope,
    ) -> Result<Vec<crate::plan::WinOrder>, OraError> {
        let mut out = Vec::with_capacity(items.len());
        for it in items {
            let e = self.expr(&it.expr, s, Clause::Having)?;
            out.push(crate::plan::WinOrder {
                national: crate::compare::is_national(&e.ty),
                ex: e.ex,
                desc: it.desc,
                nulls_first: it.nulls_first.unwrap_or(it.desc),
            });
        }
        Ok(out)
    }
}

fn quoted_dotted(parts: &[crate::ast::Ident]) -> String {
    parts
        .iter()
        .map(|p| format!("\"{}\"", p.name))
        .collect::<Vec<_>>()
        .join(".")
}
