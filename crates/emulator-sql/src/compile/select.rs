//! Query blocks: FROM, WHERE (split between scans, joins and the filter), ROWNUM, GROUP BY
//! and aggregates (ORA-00937 / ORA-00979 for columns outside them), analytic functions, the
//! select list and its names, ORDER BY (positions, aliases, expressions; skipped when the
//! rows already come in its order), OFFSET / FETCH, and UNION ALL.

use super::from::{Part, Wanted};
use super::{and_all, conjuncts, same, Block, Clause, Compiler, Scope, Typed};
use crate::ast::{CmpOp, Expr, ExprKind, OrderItem, Query, Select, SelectItem, SetExpr};
use crate::ex::{map, map_children, walk, Ex};
use crate::plan::{Body, From, Join, QueryPlan, Rownum, SelectPlan, SortKey, Stop, WindowSpec, WinKind};
use crate::types::{family, Family};
use crate::{Column, OraError, OraType};
use std::cell::RefCell;
use std::sync::Arc;

type Params = Vec<(Ex, OraType)>;

/// A select-list column being built.
struct Item {
    ex: Ex,
    ty: OraType,
    name: String,
    nullable: bool,
    pos: usize,
}

/// Whether `e` (not looking into subqueries) names ROWNUM.
fn mentions_rownum(e: &Expr) -> bool {
    use ExprKind::*;
    let any = |v: &[&Expr]| v.iter().any(|x| mentions_rownum(x));
    match &e.kind {
        Name(p) => p.len() == 1 && !p[0].quoted && p[0].name == "ROWNUM",
        Neg(x) | Cast(x, _) | Not(x) | IsNull(x, _) => mentions_rownum(x),
        Arith(_, a, b) | Concat(a, b) | Cmp(_, a, b) => any(&[a, b]),
        And(v) | Or(v) => v.iter().any(mentions_rownum),
        Call(c) => c.args.iter().any(|a| mentions_rownum(&a.value)),
        Case {
            operand,
            whens,
            otherwise,
        } => {
            operand.as_deref().is_some_and(mentions_rownum)
                || whens.iter().any(|(w, t)| mentions_rownum(w) || mentions_rownum(t))
                || otherwise.as_deref().is_some_and(mentions_rownum)
        }
        Like {
            expr,
            pattern,
            escape,
            ..
        } => any(&[expr, pattern]) || escape.as_deref().is_some_and(mentions_rownum),
        Between { expr, low, high, .. } => any(&[expr, low, high]),
        InList { expr, list, .. } => mentions_rownum(expr) || list.iter().any(mentions_rownum),
        InQuery { expr, .. } => mentions_rownum(expr),
        Trim { set, from, .. } => mentions_rownum(from) || set.as_deref().is_some_and(mentions_rownum),
        Extract { from, .. } => mentions_rownum(from),
        Serialize { arg, .. } => mentions_rownum(arg),
        _ => false,
    }
}

fn slots(e: &Ex) -> Vec<usize> {
    let mut v = Vec::new();
    walk(e, &mut |x| {
        if let Ex::Col(s) = x {
            v.push(*s);
        }
    });
    v
}

fn shift(e: Ex, by: usize) -> Result<Ex, OraError> {
    map(e, &mut |x| {
        Ok(match x {
            Ex::Col(s) => Ex::Col(s - by),
            other => other,
        })
    })
}

/// The order the query wants its rows in, when a scan could deliver it: ascending plain
/// columns of ORDER BY (by name, position or alias), or of a lone ROW_NUMBER's window.
fn wanted_order(sel: &Select, order_by: &[OrderItem]) -> Wanted {
    let plain = |e: &Expr| -> Option<(Option<String>, String)> {
        match &e.kind {
            ExprKind::Name(p) if p.len() == 1 => Some((None, p[0].name.clone())),
            ExprKind::Name(p) if p.len() == 2 => Some((Some(p[0].name.clone()), p[1].name.clone())),
            _ => None,
        }
    };
    let item_expr = |k: usize| match sel.items.get(k) {
        Some(SelectItem::Expr { expr, .. }) => plain(expr),
        _ => None,
    };
    let ascending = |it: &OrderItem| !it.desc && it.nulls_first != Some(true);
    if !order_by.is_empty() {
        return order_by
            .iter()
            .map(|it| {
                if !ascending(it) {
                    return None;
                }
                match &it.expr.kind {
                    ExprKind::Num(n) => item_expr(n.parse::<usize>().ok()?.checked_sub(1)?),
                    ExprKind::Name(p) if p.len() == 1 => {
                        let aliased = sel.items.iter().position(|i| {
                            matches!(i, SelectItem::Expr { alias: Some(a), .. } if a.name == p[0].name)
                        });
                        match aliased {
                            Some(k) => item_expr(k),
                            None => plain(&it.expr),
                        }
                    }
                    _ => plain(&it.expr),
                }
            })
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default();
    }
    if !sel.group_by.is_empty() || sel.distinct {
        return Vec::new();
    }
    let windows: Vec<&crate::ast::Window> = sel
        .items
        .iter()
        .filter_map(|i| match i {
            SelectItem::Expr { expr, .. } => match &expr.kind {
                ExprKind::Call(c) if c.over.is_some() => c.over.as_ref(),
                _ => None,
            },
            _ => None,
        })
        .collect();
    match windows.as_slice() {
        [w] if w.partition_by.is_empty() => w
            .order_by
            .iter()
            .map(|it| if ascending(it) { plain(&it.expr) } else { None })
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// Rewrites an expression of the source rows into one of the group rows: GROUP BY
/// expressions and aggregates become their slots; any other column is an error.
fn to_group(e: Ex, keys: &[Ex], nkeys: usize, code: u32, pos: usize) -> Result<Ex, OraError> {
    if let Some(i) = keys.iter().position(|k| same(k, &e)) {
        return Ok(Ex::Col(i));
    }
    match e {
        Ex::Agg(j) => Ok(Ex::Col(nkeys + j)),
        Ex::Col(_) => Err(OraError::new(
            code,
            if code == 937 {
                "not a single-group group function"
            } else {
                "not a GROUP BY expression"
            },
        )
        .at(pos)),
        other => map_children(other, &mut |c| to_group(c, keys, nkeys, code, pos)),
    }
}

fn const_u64(c: &mut Compiler<'_>, e: Option<&Expr>) -> Result<Option<u64>, OraError> {
    let Some(e) = e else { return Ok(None) };
    let v = c.value(e)?;
    let n = crate::convert::to_dec(&v, &c.env)?;
    Ok(Some(match n {
        None => 0,
        Some(d) if d.is_negative() => 0,
        Some(d) => d.trunc().to_i128().map_or(u64::MAX, |n| u64::try_from(n).unwrap_or(u64::MAX)),
    }))
}

impl Compiler<'_> {
    /// A query (a block or a UNION ALL), and the references it makes to `parent`'s columns.
    pub fn query(&mut self, q: &Query, parent: Option<&Scope>) -> Result<(QueryPlan, Params), OraError> {
        match &q.body {
            SetExpr::Select(sel) => self.select(sel, &q.order_by, q.offset.as_ref(), q.fetch.as_ref(), parent),
            SetExpr::Nested(inner) if q.order_by.is_empty() && q.offset.is_none() && q.fetch.is_none() => {
                self.query(inner, parent)
            }
            _ => self.union(q, parent),
        }
    }

    fn union(&mut self, q: &Query, parent: Option<&Scope>) -> Result<(QueryPlan, Params), OraError> {
        fn leaves<'a>(s: &'a SetExpr, out: &mut Vec<&'a SetExpr>) {
            match s {
                SetExpr::UnionAll(a, b) => {
                    leaves(a, out);
                    leaves(b, out);
                }
                other => out.push(other),
            }
        }
        let mut ls = Vec::new();
        leaves(&q.body, &mut ls);
        let mut parts: Vec<Arc<QueryPlan>> = Vec::new();
        for leaf in ls {
            let (plan, params) = match leaf {
                SetExpr::Select(sel) => self.select(sel, &[], None, None, parent)?,
                SetExpr::Nested(inner) => self.query(inner, parent)?,
                SetExpr::UnionAll(..) => return Err(crate::unimplemented("nested UNION ALL")),
            };
            if !params.is_empty() {
                return Err(crate::unimplemented("correlated UNION ALL subqueries"));
            }
            if let Some(first) = parts.first() {
                if first.columns.len() != plan.columns.len() {
                    return Err(OraError::new(1789, "query block has incorrect number of result columns").at(q.pos));
                }
                for (a, b) in first.columns.iter().zip(&plan.columns) {
                    let g = |t: &OraType| match family(t) {
                        Family::Num | Family::Float => 0,
                        Family::Char | Family::Lob | Family::Long => 1,
                        Family::Date | Family::Ts | Family::Tstz => 2,
                        f => 3 + f as u8,
                    };
                    let null = |t: &OraType| *t == OraType::Varchar2(0);
                    if g(&a.ora_type) != g(&b.ora_type) && !null(&a.ora_type) && !null(&b.ora_type) {
                        return Err(OraError::new(1790, "expression must have same datatype as corresponding expression").at(q.pos));
                    }
                }
            }
            parts.push(Arc::new(plan));
        }
        let columns = parts.first().map(|p| p.columns.clone()).unwrap_or_default();
        let mut sort = Vec::new();
        for it in &q.order_by {
            let idx = match &it.expr.kind {
                ExprKind::Num(n) => n.parse::<usize>().ok().filter(|k| (1..=columns.len()).contains(k)).map(|k| k - 1),
                ExprKind::Name(p) if p.len() == 1 => columns.iter().position(|c| c.name == p[0].name),
                _ => None,
            }
            .ok_or_else(|| {
                OraError::new(1785, "ORDER BY item must be the number of a SELECT-list expression").at(it.expr.pos)
            })?;
            sort.push(SortKey {
                idx,
                desc: it.desc,
                nulls_first: it.nulls_first.unwrap_or(it.desc),
            });
        }
        let order: Vec<usize> = sort.iter().take_while(|k| !k.desc && !k.nulls_first).map(|k| k.idx).collect();
        let offset = const_u64(self, q.offset.as_ref())?.unwrap_or(0);
        let fetch = const_u64(self, q.fetch.as_ref())?;
        Ok((
            QueryPlan {
                columns,
                body: Body::Union {
                    parts,
                    sort,
                    offset,
                    fetch,
                },
                orders: if order.is_empty() { Vec::new() } else { vec![order] },
            },
            Vec::new(),
        ))
    }

    fn select(
        &mut self,
        sel: &Select,
        order_by: &[OrderItem],
        offset: Option<&Expr>,
        fetch: Option<&Expr>,
        parent: Option<&Scope>,
    ) -> Result<(QueryPlan, Params), OraError> {
        let uses_rownum = sel.where_.as_ref().is_some_and(mentions_rownum)
            || sel.items.iter().any(|i| matches!(i, SelectItem::Expr { expr, .. } if mentions_rownum(expr)))
            || order_by.iter().any(|o| mentions_rownum(&o.expr));
        let wanted = wanted_order(sel, order_by);
        let parts = self.from_clause(&sel.from, sel.where_.as_ref(), parent.is_none(), &wanted)?;
        let mut width: usize = parts.iter().map(|p| p.info.width()).sum();
        let rownum = uses_rownum.then(|| {
            width += 1;
            width - 1
        });
        let scope = Scope {
            sources: parts.iter().map(|p| p.info.clone()).collect(),
            rownum,
            parent,
            params: RefCell::new(Vec::new()),
        };
        let saved = self.block.replace(Block::default());
        let r = self.block_plan(sel, order_by, offset, fetch, &scope, parts, width);
        self.block = saved;
        let plan = r?;
        Ok((plan, scope.params.into_inner()))
    }

    /// The WHERE conjuncts over the FROM items: at their scan, at their join, or in the filter.
    fn join_tree(&mut self, parts: Vec<Part<'_>>, filters: &mut Vec<Ex>, scope: &Scope) -> Result<From, OraError> {
        let n = parts.len();
        let mut ons: Vec<Vec<Ex>> = (0..n).map(|_| Vec::new()).collect();
        let mut scans: Vec<Vec<Ex>> = (0..n).map(|_| Vec::new()).collect();
        let mut end = 0;
        for (k, p) in parts.iter().enumerate() {
            end += p.info.width();
            if let Some(on) = p.on {
                let c = self.cond(on, scope, Clause::On)?;
                if slots(&c).iter().any(|s| *s >= end) {
                    return Err(OraError::new(904, "invalid identifier").at(on.pos));
                }
                ons[k] = conjuncts(c);
            }
        }
        let kind = |k: usize| parts[k].kind.unwrap_or(crate::ast::JoinKind::Cross);
        let is_scan = |k: usize| matches!(parts[k].from, From::Source(_));
        let mut keep = Vec::new();
        for c in filters.drain(..) {
            let srcs: Vec<usize> = slots(&c).iter().filter_map(|s| scope.source_of(*s)).collect();
            let Some(&k) = srcs.iter().max() else {
                keep.push(c);
                continue;
            };
            let only = srcs.iter().all(|s| *s == k);
            let inner = k == 0 || kind(k) != crate::ast::JoinKind::Left;
            if only && inner && is_scan(k) {
                scans[k].push(shift(c, parts[k].info.offset)?);
            } else if k >= 1 && inner {
                ons[k].push(c);
            } else {
                keep.push(c);
            }
        }
        *filters = keep;
        let mut it = parts.into_iter();
        let Some(first) = it.next() else {
            return Ok(From::Dual);
        };
        let mut cur = with_filter(first.from, std::mem::take(&mut scans[0]));
        let mut left_width = first.info.width();
        for (k, p) in it.enumerate().map(|(i, p)| (i + 1, p)) {
            let right_width = p.info.width();
            let kind = p.kind.unwrap_or(crate::ast::JoinKind::Cross);
            let on = std::mem::take(&mut ons[k]);
            let keys = hash_keys(&on, left_width, right_width, scope);
            cur = From::Join(Arc::new(Join {
                left: cur,
                right: with_filter(p.from, std::mem::take(&mut scans[k])),
                kind,
                on: and_all(on),
                left_width,
                right_width,
                keys,
            }));
            left_width += right_width;
        }
        Ok(cur)
    }

    #[allow(clippy::too_many_arguments)]
    fn block_plan(
        &mut self,
        sel: &Select,
        order_by: &[OrderItem],
        offset: Option<&Expr>,
        fetch: Option<&Expr>,
        scope: &Scope,
        mut parts: Vec<Part<'_>>,
        width: usize,
    ) -> Result<QueryPlan, OraError> {
        let mut filters = Vec::new();
        let mut rn_conds = Vec::new();
        if let Some(w) = &sel.where_ {
            let c = self.cond(w, scope, Clause::Where)?;
            for cj in conjuncts(c) {
                if scope.rownum.is_some_and(|r| slots(&cj).contains(&r)) {
                    rn_conds.push(cj);
                } else {
                    filters.push(cj);
                }
            }
        }
        let (from, input_order, stops) = if parts.len() == 1 {
            let p = parts.remove(0);
            let stops = stops_of(&p, &self.env);
            (p.from, p.orders, stops)
        } else {
            let orders = parts.first().map(|p| p.orders.clone()).unwrap_or_default();
            (self.join_tree(parts, &mut filters, scope)?, orders, Vec::new())
        };
        let rownum = scope.rownum.map(|slot| Rownum {
            slot,
            stop_on_fail: rn_conds.iter().all(|c| slots(c).iter().all(|s| *s == slot)),
            conds: rn_conds,
        });
        let keys: Vec<Typed> = sel
            .group_by
            .iter()
            .map(|g| self.expr(g, scope, Clause::GroupBy))
            .collect::<Result<_, _>>()?;
        let mut items = self.select_items(sel, scope)?;
        let mut having = match &sel.having {
            Some(h) => Some(self.cond(h, scope, Clause::Having)?),
            None => None,
        };
        let (mut sort, mut hidden) = self.order_by(order_by, &items, scope)?;
        if sel.distinct && !hidden.is_empty() {
            return Err(OraError::new(1791, "not a SELECTed expression").at(order_by[0].expr.pos));
        }
        let block = self.block.take().unwrap_or_default();
        let is_agg = !keys.is_empty() || !block.aggs.is_empty() || having.is_some();
        let nkeys = keys.len();
        let stage_b = if is_agg { nkeys + block.aggs.len() } else { width };
        let mut wins = block.wins;
        if is_agg {
            let code = if sel.group_by.is_empty() { 937 } else { 979 };
            let key_ex: Vec<Ex> = keys.iter().map(|k| k.ex.clone()).collect();
            for it in &mut items {
                it.ex = to_group(std::mem::replace(&mut it.ex, Ex::Truth(None)), &key_ex, nkeys, code, it.pos)?;
            }
            for h in &mut hidden {
                *h = to_group(std::mem::replace(h, Ex::Truth(None)), &key_ex, nkeys, code, sel.pos)?;
            }
            having = having.map(|h| to_group(h, &key_ex, nkeys, code, sel.pos)).transpose()?;
            for w in &mut wins {
                for p in &mut w.partition {
                    *p = to_group(std::mem::replace(p, Ex::Truth(None)), &key_ex, nkeys, code, sel.pos)?;
                }
                for (o, _, _) in &mut w.order {
                    *o = to_group(std::mem::replace(o, Ex::Truth(None)), &key_ex, nkeys, code, sel.pos)?;
                }
            }
        }
        let order_b: Vec<Vec<usize>> = if is_agg { Vec::new() } else { input_order };
        let prefix_of = |keys: &[usize]| {
            !keys.is_empty() && order_b.iter().any(|o| keys.len() <= o.len() && keys == &o[..keys.len()])
        };
        let windows: Vec<WindowSpec> = wins
            .into_iter()
            .map(|w| {
                let plain: Option<Vec<usize>> = w
                    .order
                    .iter()
                    .map(|(e, desc, nf)| match e {
                        Ex::Col(s) if !desc && !nf => Some(*s),
                        _ => None,
                    })
                    .collect();
                let streaming = w.partition.is_empty()
                    && w.kind == WinKind::RowNumber
                    && plain.is_some_and(|p| prefix_of(&p));
                WindowSpec {
                    kind: w.kind,
                    partition: w.partition,
                    order: w.order,
                    streaming,
                }
            })
            .collect();
        let rn_slot = windows.iter().position(|w| w.streaming).map(|w| stage_b + w);
        let place = |e: Ex| -> Result<Ex, OraError> {
            map(e, &mut |x| {
                Ok(match x {
                    Ex::Win(w) => Ex::Col(stage_b + w),
                    Ex::Agg(_) => return Err(OraError::new(934, "group function is not allowed here")),
                    other => other,
                })
            })
        };
        let visible = items.len();
        let mut project = Vec::with_capacity(visible + hidden.len());
        let mut columns = Vec::with_capacity(visible);
        for it in items {
            columns.push(Column {
                name: it.name,
                ora_type: it.ty,
                nullable: it.nullable,
            });
            project.push(place(it.ex)?);
        }
        for h in hidden {
            project.push(place(h)?);
        }
        // Rows that already come in the ORDER BY's order need no sort.
        let key_slots: Option<Vec<usize>> = sort
            .iter()
            .map(|k| match project.get(k.idx) {
                Some(Ex::Col(s)) if !k.desc && !k.nulls_first => Some(*s),
                _ => None,
            })
            .collect();
        let already = key_slots.is_some_and(|ks| prefix_of(&ks) || (ks.len() == 1 && Some(ks[0]) == rn_slot));
        let orders = output_orders(&sort, &project, visible, &order_b, rn_slot);
        if already {
            sort.clear();
        }
        let group = is_agg.then(|| crate::plan::Group {
            keys: keys.into_iter().map(|k| k.ex).collect(),
            aggs: block.aggs,
            having,
        });
        let offset = const_u64(self, offset)?.unwrap_or(0);
        let fetch = const_u64(self, fetch)?;
        let plan = SelectPlan {
            from,
            filter: and_all(filters),
            stops,
            rownum,
            group,
            windows,
            project,
            visible,
            distinct: sel.distinct,
            sort,
            offset,
            fetch,
        };
        Ok(QueryPlan {
            columns,
            body: Body::Select(Arc::new(plan)),
            orders,
        })
    }

    fn select_items(&mut self, sel: &Select, scope: &Scope) -> Result<Vec<Item>, OraError> {
        let mut items = Vec::new();
        let all_columns = |s: &super::scope::SourceInfo, items: &mut Vec<Item>, pos: usize| {
            for (i, c) in s.columns.iter().enumerate() {
                items.push(Item {
                    ex: Ex::Col(s.offset + i),
                    ty: c.ora_type.clone(),
                    name: c.name.clone(),
                    nullable: c.nullable,
                    pos,
                });
            }
        };
        for item in &sel.items {
            match item {
                SelectItem::Wildcard(pos) => {
                    for s in &scope.sources {
                        all_columns(s, &mut items, *pos);
                    }
                }
                SelectItem::QualifiedWildcard(q, pos) => {
                    let found = scope.sources.iter().find(|s| match q.as_slice() {
                        [t] => s.named(t),
                        [sch, t] => s.named_full(sch, t),
                        _ => false,
                    });
                    match found {
                        Some(s) => all_columns(s, &mut items, *pos),
                        None => return Err(super::scope::invalid_identifier(q)),
                    }
                }
                SelectItem::Expr { expr, alias, text } => {
                    let t = self.expr(expr, scope, Clause::Select)?;
                    let name = match (alias, &expr.kind) {
                        (Some(a), _) => a.name.clone(),
                        (None, ExprKind::Name(p)) => p.last().map_or_else(|| text.clone(), |l| l.name.clone()),
                        _ => text.clone(),
                    };
                    let nullable = match &t.ex {
                        Ex::Col(s) => scope.slot_column(*s).is_none_or(|c| c.nullable),
                        _ => true,
                    };
                    items.push(Item {
                        ex: t.ex,
                        ty: t.ty,
                        name,
                        nullable,
                        pos: expr.pos,
                    });
                }
            }
        }
        Ok(items)
    }

    /// ORDER BY keys over the projected row, and the expressions it needs beyond the select
    /// list.
    fn order_by(&mut self, order_by: &[OrderItem], items: &[Item], scope: &Scope) -> Result<(Vec<SortKey>, Vec<Ex>), OraError> {
        let mut sort = Vec::with_capacity(order_by.len());
        let mut hidden: Vec<Ex> = Vec::new();
        for it in order_by {
            let idx = match &it.expr.kind {
                ExprKind::Num(n) => {
                    let k = n.parse::<usize>().ok().filter(|k| (1..=items.len()).contains(k));
                    k.ok_or_else(|| {
                        OraError::new(1785, "ORDER BY item must be the number of a SELECT-list expression")
                            .at(it.expr.pos)
                    })? - 1
                }
                ExprKind::Name(p) if p.len() == 1 && items.iter().filter(|i| i.name == p[0].name).count() == 1 && !matches!(scope.resolve(p), Ok(Some(_))) => {
                    items.iter().position(|i| i.name == p[0].name).unwrap_or(0)
                }
                _ => {
                    let t = self.expr(&it.expr, scope, Clause::OrderBy)?;
                    match items.iter().position(|i| same(&i.ex, &t.ex)) {
                        Some(i) => i,
                        None => match hidden.iter().position(|h| same(h, &t.ex)) {
                            Some(h) => items.len() + h,
                            None => {
                                hidden.push(t.ex);
                                items.len() + hidden.len() - 1
                            }
                        },
                    }
                }
            };
            sort.push(SortKey {
                idx,
                desc: it.desc,
                nulls_first: it.nulls_first.unwrap_or(it.desc),
            });
        }
        Ok((sort, hidden))
    }
}

/// A FROM item with the WHERE conjuncts that read only it applied at its scan.
fn with_filter(from: From, conds: Vec<Ex>) -> From {
    match (from, and_all(conds)) {
        (From::Source(mut s), Some(f)) => {
            s.filter = Some(Arc::new(f));
            From::Source(s)
        }
        (other, _) => other,
    }
}

/// Equalities between a column of the left rows and one of the right row of comparable,
/// exactly-compared types: hash join keys.
fn hash_keys(on: &[Ex], left: usize, right: usize, scope: &Scope) -> Vec<(usize, usize)> {
    let mut keys = Vec::new();
    for c in on {
        let Ex::Cmp {
            op: CmpOp::Eq,
            l,
            r,
            padded: false,
        } = c
        else {
            continue;
        };
        let (Ex::Col(a), Ex::Col(b)) = (l.as_ref(), r.as_ref()) else {
            continue;
        };
        let (a, b) = if *a < left { (*a, *b) } else { (*b, *a) };
        if a >= left || b < left || b >= left + right {
            continue;
        }
        let (Some(ta), Some(tb)) = (scope.slot_type(a), scope.slot_type(b)) else {
            continue;
        };
        let exact = family(&ta) == family(&tb)
            && matches!(family(&ta), Family::Num | Family::Char | Family::Date | Family::Ts | Family::Raw | Family::Rowid)
            && !crate::types::is_fixed(&ta)
            && !crate::types::is_fixed(&tb);
        if exact {
            keys.push((a, b - left));
        }
    }
    keys
}

/// Stops for a single FROM item: upper bounds the WHERE clause puts on the first column of
/// an order its rows come in.
fn stops_of(p: &Part<'_>, env: &crate::env::Env) -> Vec<Stop> {
    let mut out = Vec::new();
    for order in &p.orders {
        let Some(&slot) = order.first() else { continue };
        let upper = |op: &CmpOp| matches!(op, CmpOp::Lt | CmpOp::Le | CmpOp::Eq);
        if p.info.rowid == Some(slot) {
            for (c, op, v) in &p.derived {
                if let (true, true, crate::Datum::Rowid(s) | crate::Datum::Text(s)) = (c == "ROWID", upper(op), v) {
                    out.push(Stop {
                        slot,
                        bound: crate::Datum::Rowid(s.clone()),
                        inclusive: *op != CmpOp::Lt,
                    });
                }
            }
            continue;
        }
        let Some(col) = p.info.columns.get(slot - p.info.offset) else { continue };
        for (c, op, v) in &p.derived {
            if *c == col.name && upper(op) {
                if let Some(bound) = crate::pushdown::convert(v, &col.ora_type, env) {
                    out.push(Stop {
                        slot,
                        bound,
                        inclusive: *op != CmpOp::Lt,
                    });
                }
            }
        }
    }
    out
}

/// The orders the result comes in (for a parent query): the sort's, or the input's orders
/// as far as the select list keeps their columns, and a streamed ROW_NUMBER's.
fn output_orders(sort: &[SortKey], project: &[Ex], visible: usize, order_b: &[Vec<usize>], rn_slot: Option<usize>) -> Vec<Vec<usize>> {
    let find = |slot: usize| project[..visible].iter().position(|e| matches!(e, Ex::Col(s) if *s == slot));
    let mut out: Vec<Vec<usize>> = Vec::new();
    if !sort.is_empty() {
        let keys: Vec<usize> = sort
            .iter()
            .take_while(|k| !k.desc && !k.nulls_first && k.idx < visible)
            .map(|k| k.idx)
            .collect();
        if !keys.is_empty() {
            out.push(keys);
        }
        return out;
    }
    for o in order_b {
        let mapped: Vec<usize> = o.iter().map_while(|s| find(*s)).collect();
        if !mapped.is_empty() {
            out.push(mapped);
        }
    }
    if let Some(i) = rn_slot.and_then(find) {
        out.push(vec![i]);
    }
    out
}
