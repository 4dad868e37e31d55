//! FROM clauses: each table is scanned with the [`ScanRequest`] the statement implies (its AS
//! OF SCN, the bounds its WHERE clause puts on the table's columns, the ROWID range, the
//! order the query wants), DUAL is the engine's own, inline views are compiled queries.
//! Joins are assembled in `select.rs` once the WHERE clause is compiled.

use super::scope::SourceInfo;
use super::{Clause, Compiler, Scope};
use crate::ast::{CmpOp, Expr, ExprKind, Ident, JoinKind, TableExpr};
use crate::compile::expr::at;
use crate::env::Env;
use crate::ex::Ex;
use crate::names::object_name;
use crate::plan::{From, Source, SourceData, SourceState};
use crate::pushdown::{bounds, Deriver};
use crate::{Bound, Column, Datum, ObjectName, OraError, OraType, ScanRequest};
use oracle_datum::ToCompactString;
use std::sync::{Arc, Mutex};

/// One FROM item, scanned.
pub struct Part<'q> {
    pub info: SourceInfo,
    pub from: From,
    /// How it joins the items before it (`None` for the first; a comma is a cross join).
    pub kind: Option<JoinKind>,
    pub on: Option<&'q Expr>,
    /// Orders its rows come in, as lists of slots.
    pub orders: Vec<Vec<usize>>,
    /// Bounds the WHERE clause implies on its columns (column, op, value).
    pub derived: Vec<(String, CmpOp, Datum)>,
    /// The bounds its database scan reports every row satisfies ([`Relation::exact_bounds`](crate::Relation::exact_bounds)).
    pub applied: Vec<Bound>,
}

/// `(qualifier, column)` of an ORDER BY the scan is asked to deliver.
pub type Wanted = Vec<(Option<String>, String)>;

fn flatten<'q>(
    t: &'q TableExpr,
    kind: Option<JoinKind>,
    on: Option<&'q Expr>,
    out: &mut Vec<(&'q TableExpr, Option<JoinKind>, Option<&'q Expr>)>,
) {
    match t {
        TableExpr::Join {
            left,
            right,
            kind: k,
            on: o,
            ..
        } => {
            flatten(left, kind, on, out);
            flatten(right, Some(*k), o.as_ref(), out);
        }
        primary => out.push((primary, kind, on)),
    }
}

fn is_dual(name: &ObjectName) -> bool {
    name.name == "DUAL" && matches!(name.schema.as_deref(), None | Some("SYS") | Some("PUBLIC"))
}

/// NLS_SESSION_PARAMETERS: the session's own NLS settings, which only the engine knows.
fn is_session_view(name: &ObjectName) -> bool {
    name.name == "NLS_SESSION_PARAMETERS"
        && matches!(name.schema.as_deref(), None | Some("SYS") | Some("PUBLIC"))
}

/// An expression without column references: literals, binds, built-in calls of them.
fn is_constant_ast(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Num(_)
        | ExprKind::BinNum(..)
        | ExprKind::Str { .. }
        | ExprKind::Null
        | ExprKind::Bind(_)
        | ExprKind::DateLit(_)
        | ExprKind::TimestampLit(_)
        | ExprKind::IntervalLit { .. } => true,
        ExprKind::Neg(x) | ExprKind::Cast(x, _) => is_constant_ast(x),
        ExprKind::Arith(_, a, b) | ExprKind::Concat(a, b) => {
            is_constant_ast(a) && is_constant_ast(b)
        }
        ExprKind::Call(c) => {
            c.name.len() == 1
                && c.over.is_none()
                && crate::functions::lookup(&c.name[0].name).is_some()
                && c.args
                    .iter()
                    .all(|a| a.name.is_none() && is_constant_ast(&a.value))
        }
        _ => false,
    }
}

/// Words that are never column names of a relation.
fn pseudo(id: &Ident) -> bool {
    !id.quoted
        && matches!(
            id.name.as_str(),
            "ROWNUM" | "SYSDATE" | "USER" | "UID" | "LEVEL"
        )
}

impl Compiler<'_> {
    pub(crate) fn scan_from<'q>(
        &mut self,
        items: &'q [TableExpr],
        where_: Option<&Expr>,
        top: bool,
        wanted: &Wanted,
    ) -> Result<Vec<Part<'q>>, OraError> {
        let mut flat = Vec::new();
        for (i, item) in items.iter().enumerate() {
            flatten(item, (i > 0).then_some(JoinKind::Cross), None, &mut flat);
        }
        let single = flat.len() == 1;
        let mut parts = Vec::with_capacity(flat.len());
        let mut offset = 0;
        for (t, kind, on) in flat {
            let unqualified = single && top;
            let wanted = if single { wanted.as_slice() } else { &[] };
            let mut part = match t {
                TableExpr::Table {
                    name,
                    as_of,
                    alias,
                    pos,
                } => self.table(
                    name,
                    as_of.as_ref(),
                    alias.as_ref(),
                    *pos,
                    where_,
                    unqualified,
                    wanted,
                    offset,
                )?,
                TableExpr::Subquery { query, alias, .. } => {
                    let (plan, _) = self.query(query, None)?;
                    let alias_name = alias.as_ref().map(|a| a.name.clone());
                    let info = SourceInfo {
                        alias: alias_name,
                        table: None,
                        columns: plan.columns.clone(),
                        offset,
                        rowid: None,
                        rowid_type: OraType::Rowid,
                    };
                    let derived = match where_ {
                        Some(w) => self.derive(w, &info, unqualified),
                        None => Vec::new(),
                    };
                    let orders = plan
                        .orders
                        .iter()
                        .map(|o| o.iter().map(|i| offset + i).collect())
                        .collect();
                    Part {
                        info,
                        from: From::View(Arc::new(plan)),
                        kind: None,
                        on: None,
                        orders,
                        derived,
                        applied: Vec::new(),
                    }
                }
                TableExpr::Join { .. } => return Err(crate::unimplemented("nested joins")),
            };
            if kind == Some(JoinKind::Left) {
                for c in &mut part.info.columns {
                    c.nullable = true;
                }
            }
            part.kind = kind;
            part.on = on;
            offset += part.info.width();
            parts.push(part);
        }
        Ok(parts)
    }

    /// The bounds `where_` implies on `info`'s columns.
    fn derive(
        &mut self,
        where_: &Expr,
        info: &SourceInfo,
        unqualified: bool,
    ) -> Vec<(String, CmpOp, Datum)> {
        let matcher = |parts: &[Ident]| -> Option<String> {
            match parts {
                [c] if unqualified && !pseudo(c) => Some(c.name.clone()),
                [q, c] if info.named(q) => Some(c.name.clone()),
                [s, t, c] if info.named_full(s, t) => Some(c.name.clone()),
                _ => None,
            }
        };
        let env = self.env.clone();
        let mut konst = |e: &Expr| -> Option<Datum> {
            if !is_constant_ast(e) {
                return None;
            }
            let scope = Scope::empty();
            match self.expr(e, &scope, Clause::Value) {
                Ok(super::Typed {
                    ex: Ex::Const(d), ..
                }) => Some(d),
                _ => None,
            }
        };
        let national = |name: &str| {
            info.columns
                .iter()
                .any(|c| c.name == name && crate::compare::is_national(&c.ora_type))
        };
        let mut d = Deriver {
            column: &matcher,
            constant: &mut konst,
            national: &national,
            env: &env,
        };
        d.derive(where_)
    }

    fn scn(&mut self, e: &Expr) -> Result<u64, OraError> {
        let v = self.value(e)?;
        let d = crate::convert::to_dec(&v, &self.env)?;
        d.and_then(|d| d.to_i128())
            .and_then(|n| u64::try_from(n).ok())
            .ok_or_else(|| {
                OraError::new(8181, "specified number is not a valid system change number")
                    .at(e.pos)
            })
    }

    #[allow(clippy::too_many_arguments)]
    fn table<'q>(
        &mut self,
        name: &[Ident],
        as_of: Option<&Expr>,
        alias: Option<&Ident>,
        pos: usize,
        where_: Option<&Expr>,
        unqualified: bool,
        wanted: &[(Option<String>, String)],
        offset: usize,
    ) -> Result<Part<'q>, OraError> {
        let obj = object_name(name);
        let alias = alias.map(|a| a.name.clone());
        if is_dual(&obj) && as_of.is_none() {
            let info = SourceInfo {
                alias,
                table: Some(obj),
                columns: vec![Column::new("DUMMY", OraType::Varchar2(1))],
                offset,
                rowid: None,
                rowid_type: OraType::Rowid,
            };
            return Ok(Part {
                info,
                from: From::Dual,
                kind: None,
                on: None,
                orders: Vec::new(),
                derived: Vec::new(),
                applied: Vec::new(),
            });
        }
        if is_session_view(&obj) && as_of.is_none() {
            return Ok(self.session_view(obj, alias, offset));
        }
        let scn = as_of.map(|e| self.scn(e)).transpose()?;
        let mut info = SourceInfo {
            alias,
            table: Some(obj.clone()),
            columns: Vec::new(),
            offset,
            rowid: None,
            rowid_type: OraType::Rowid,
        };
        let derived = match where_ {
            Some(w) => self.derive(w, &info, unqualified),
            None => Vec::new(),
        };
        let request = self.request(&obj, &info, scn, &derived, wanted);
        let rel = self.db.scan(&obj, &request).map_err(at(pos))?;
        let applied = rel
            .exact_bounds
            .iter()
            .filter_map(|&i| request.bounds.get(i).cloned())
            .collect();
        let n = rel.columns.len();
        let order: Vec<usize> = rel
            .ordered_by
            .iter()
            .map_while(|c| {
                if c == "ROWID" {
                    Some(offset + n)
                } else {
                    rel.columns
                        .iter()
                        .position(|x| x.name == *c)
                        .map(|i| offset + i)
                }
            })
            .collect();
        info.columns = rel.columns;
        info.rowid = Some(offset + n);
        info.rowid_type = rel.rowid_type;
        Ok(Part {
            info,
            from: From::Source(Source {
                data: SourceData(Mutex::new(SourceState::Stream(rel.rows))),
                width: n + 1,
                filter: None,
            }),
            kind: None,
            on: None,
            orders: if order.is_empty() {
                Vec::new()
            } else {
                vec![order]
            },
            derived,
            applied,
        })
    }

    /// What a scan of `obj` is asked for: its SCN, the bounds and ROWID range the WHERE
    /// clause implies, the order the query wants.
    fn request(
        &mut self,
        obj: &ObjectName,
        info: &SourceInfo,
        scn: Option<u64>,
        derived: &[(String, CmpOp, Datum)],
        wanted: &[(Option<String>, String)],
    ) -> ScanRequest {
        let (bounds, rowid_between) = if derived.is_empty() {
            (Vec::new(), None)
        } else {
            // The columns' types decide which bounds order as the condition does; a
            // relation the database cannot describe gets none (its scan reports the error).
            let columns = self.db.columns(obj).unwrap_or_default();
            bounds(derived, &columns, &self.env)
        };
        let wanted_order: Vec<String> = wanted
            .iter()
            .map(|(q, c)| match q {
                Some(q)
                    if !info.named(&Ident {
                        name: q.clone(),
                        quoted: true,
                        pos: 0,
                    }) =>
                {
                    None
                }
                _ => Some(c.clone()),
            })
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default();
        ScanRequest {
            as_of_scn: scn,
            bounds,
            rowid_between,
            wanted_order,
            skip_rowids: self.skip_rowids,
            references: self.references.clone(),
            for_change: self.for_change,
        }
    }

    /// NLS_SESSION_PARAMETERS (PARAMETER, VALUE) from the session's settings.
    fn session_view<'q>(&self, obj: ObjectName, alias: Option<String>, offset: usize) -> Part<'q> {
        let nls = &self.env.nls;
        let rows: Vec<crate::Row> = crate::nls::Nls::SESSION_PARAMETERS
            .iter()
            .map(|p| crate::Row {
                rowid: None,
                values: vec![
                    Datum::Text(p.to_compact_string()),
                    nls.parameter(p).map_or(Datum::Null, Datum::text),
                ],
            })
            .collect();
        let info = SourceInfo {
            alias,
            table: Some(obj),
            columns: vec![
                Column::new("PARAMETER", OraType::Varchar2(30)),
                Column::new("VALUE", OraType::Varchar2(64)),
            ],
            offset,
            rowid: Some(offset + 2),
            rowid_type: OraType::Rowid,
        };
        Part {
            info,
            from: From::Source(Source {
                data: SourceData(Mutex::new(SourceState::Mat(Arc::new(rows)))),
                width: 3,
                filter: None,
            }),
            kind: None,
            on: None,
            orders: Vec::new(),
            derived: Vec::new(),
            applied: Vec::new(),
        }
    }
}

/// Whether the scan behind `info` already decides WHERE conjunct `c` for every row it returns:
/// `c` is `column op constant` (either way round, not blank-padded) and `applied` has a bound
/// of that column with the same operator and, in the column's type, an equal value. Such a
/// conjunct is true of every row the scan gives (the database's
/// [`Relation::exact_bounds`](crate::Relation::exact_bounds) promise), so evaluating it again would only cost.
pub(super) fn decided_by_scan(c: &Ex, info: &SourceInfo, applied: &[Bound], env: &Env) -> bool {
    if applied.is_empty() {
        return false;
    }
    let Ex::Cmp {
        op,
        l,
        r,
        how: crate::compare::TextCmp { padded: false, .. },
    } = c
    else {
        return false;
    };
    let (slot, value, op) = match (&**l, &**r) {
        (Ex::Col(s), Ex::Const(v)) => (*s, v, *op),
        (Ex::Const(v), Ex::Col(s)) => (*s, v, op.flip()),
        _ => return false,
    };
    let Some(column) = slot
        .checked_sub(info.offset)
        .and_then(|i| info.columns.get(i))
    else {
        return false;
    };
    let Some(value) = crate::pushdown::convert(value, &column.ora_type, env) else {
        return false;
    };
    scan_applied(applied, &column.name, op, &value, env)
}

/// Whether `applied` (the bounds a scan reports every row it returns satisfies) has `column op
/// value`, with an equal value in the column's type (`<>` is never a bound).
pub(super) fn scan_applied(
    applied: &[Bound],
    column: &str,
    op: CmpOp,
    value: &Datum,
    env: &Env,
) -> bool {
    let Some(op) = crate::pushdown::bound_op(op) else {
        return false;
    };
    applied.iter().any(|b| {
        b.column == column
            && b.op == op
            && crate::compare::compare(&b.value, value, Default::default(), env)
                .ok()
                .flatten()
                == Some(std::cmp::Ordering::Equal)
    })
}
