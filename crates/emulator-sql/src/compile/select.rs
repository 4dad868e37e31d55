//! Query blocks: FROM, WHERE (split between scans, joins and the filter by `joins.rs`),
//! ROWNUM, GROUP BY and aggregates (`group.rs`), analytic functions, the select list and
//! its names, ORDER BY (positions, aliases, expressions; skipped when the rows already come
//! in its order, `order.rs`), OFFSET / FETCH. UNION ALL is in `union.rs`.

use super::from::{decided_by_scan, Part};
use super::group::to_group;
use super::joins::slots;
use super::order::{mentions_rownum, output_orders, stops_of, wanted_order};
use super::{and_all, conjuncts, same, Block, Clause, Compiler, Scope, Typed, WinDraft};
use crate::ast::{Expr, ExprKind, OrderItem, Query, Select, SelectItem, SetExpr};
use crate::ex::{map, Ex};
use crate::plan::{Body, Group, QueryPlan, Rownum, SelectPlan, SortKey, Stop, WinKind, WindowSpec};
use crate::{Column, OraError, OraType};
use std::cell::RefCell;
use std::sync::Arc;

pub(super) type Params = Vec<(Ex, OraType)>;

/// A select-list column being built.
struct Item {
    ex: Ex,
    ty: OraType,
    name: String,
    /// The name is an alias the statement gave.
    aliased: bool,
    nullable: bool,
    pos: usize,
}

/// The select-list item an unqualified ORDER BY name means: an alias first (Oracle resolves
/// ORDER BY names against the select list's aliases before the FROM clause's columns), else
/// an item's derived name when no column has it.
fn by_alias(items: &[Item], name: &crate::ast::Ident, column: bool) -> Option<usize> {
    let aliased: Vec<usize> = (0..items.len())
        .filter(|&i| items[i].aliased && items[i].name == name.name)
        .collect();
    if let [i] = aliased.as_slice() {
        return Some(*i);
    }
    let named: Vec<usize> = (0..items.len())
        .filter(|&i| items[i].name == name.name)
        .collect();
    match named.as_slice() {
        [i] if !column => Some(*i),
        _ => None,
    }
}

/// A block's parts, compiled over its source rows, before grouping and placement.
struct Draft {
    items: Vec<Item>,
    hidden: Vec<Ex>,
    having: Option<Ex>,
    keys: Vec<Typed>,
    sort: Vec<SortKey>,
    block: Block,
}

/// Whether a list of slots is a prefix of one of the orders rows come in.
fn prefix_of(orders: &[Vec<usize>], keys: &[usize]) -> bool {
    !keys.is_empty()
        && orders
            .iter()
            .any(|o| keys.len() <= o.len() && keys == &o[..keys.len()])
}

impl Compiler<'_> {
    /// A query (a block or a UNION ALL), and the references it makes to `parent`'s columns.
    pub fn query(
        &mut self,
        q: &Query,
        parent: Option<&Scope>,
    ) -> Result<(QueryPlan, Params), OraError> {
        match &q.body {
            SetExpr::Select(sel) => self.select(
                sel,
                &q.order_by,
                q.offset.as_ref(),
                q.fetch.as_ref(),
                parent,
            ),
            SetExpr::Nested(inner)
                if q.order_by.is_empty() && q.offset.is_none() && q.fetch.is_none() =>
            {
                self.query(inner, parent)
            }
            _ => self.union(q, parent),
        }
    }

    pub(super) fn select(
        &mut self,
        sel: &Select,
        order_by: &[OrderItem],
        offset: Option<&Expr>,
        fetch: Option<&Expr>,
        parent: Option<&Scope>,
    ) -> Result<(QueryPlan, Params), OraError> {
        let uses_rownum = sel.where_.as_ref().is_some_and(mentions_rownum)
            || sel
                .items
                .iter()
                .any(|i| matches!(i, SelectItem::Expr { expr, .. } if mentions_rownum(expr)))
            || order_by.iter().any(|o| mentions_rownum(&o.expr));
        let wanted = wanted_order(sel, order_by);
        let parts = self.scan_from(&sel.from, sel.where_.as_ref(), parent.is_none(), &wanted)?;
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
        let (mut filters, rn_conds) = self.where_clause(sel, scope)?;
        let (from, input_order, stops) = if parts.len() == 1 {
            let p = parts.remove(0);
            let env = &self.env;
            filters.retain(|c| !decided_by_scan(c, &p.info, &p.applied, env));
            let stops: Vec<Stop> = stops_of(&p, &self.env);
            (p.from, p.orders, stops)
        } else {
            let orders = parts.first().map(|p| p.orders.clone()).unwrap_or_default();
            (
                self.join_tree(parts, &mut filters, scope)?,
                orders,
                Vec::new(),
            )
        };
        let rownum = scope.rownum.map(|slot| Rownum {
            slot,
            stop_on_fail: rn_conds.iter().all(|c| slots(c).iter().all(|s| *s == slot)),
            conds: rn_conds,
        });
        let mut draft = self.draft(sel, order_by, scope)?;
        let is_agg =
            !draft.keys.is_empty() || !draft.block.aggs.is_empty() || draft.having.is_some();
        if is_agg {
            regroup(&mut draft, sel)?;
        }
        let nkeys = draft.keys.len();
        let stage_b = if is_agg {
            nkeys + draft.block.aggs.len()
        } else {
            width
        };
        let order_b: Vec<Vec<usize>> = if is_agg { Vec::new() } else { input_order };
        let windows = windows(std::mem::take(&mut draft.block.wins), &order_b);
        let rn_slot = windows
            .iter()
            .position(|w| w.streaming)
            .map(|w| stage_b + w);
        let (columns, project, visible) = place(&mut draft, stage_b)?;
        // Rows that already come in the ORDER BY's order need no sort.
        let mut sort = std::mem::take(&mut draft.sort);
        let key_slots: Option<Vec<usize>> = sort
            .iter()
            .map(|k| match project.get(k.idx) {
                Some(Ex::Col(s)) if !k.desc && !k.nulls_first => Some(*s),
                _ => None,
            })
            .collect();
        let already = key_slots.is_some_and(|ks| {
            prefix_of(&order_b, &ks) || (ks.len() == 1 && Some(ks[0]) == rn_slot)
        });
        let orders = output_orders(&sort, &project, visible, &order_b, rn_slot);
        if already {
            sort.clear();
        }
        let group = is_agg.then(|| Group {
            keys: std::mem::take(&mut draft.keys)
                .into_iter()
                .map(|k| k.ex)
                .collect(),
            aggs: std::mem::take(&mut draft.block.aggs),
            having: draft.having.take(),
        });
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
            offset: super::const_u64(self, offset)?.unwrap_or(0),
            fetch: super::const_u64(self, fetch)?,
        };
        Ok(QueryPlan {
            columns,
            body: Body::Select(Arc::new(plan)),
            orders,
        })
    }

    /// The WHERE clause's conjuncts: those ROWNUM reads apart.
    fn where_clause(
        &mut self,
        sel: &Select,
        scope: &Scope,
    ) -> Result<(Vec<Ex>, Vec<Ex>), OraError> {
        let (mut filters, mut rn_conds) = (Vec::new(), Vec::new());
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
        Ok((filters, rn_conds))
    }

    /// GROUP BY, the select list, HAVING and ORDER BY over the source rows.
    fn draft(
        &mut self,
        sel: &Select,
        order_by: &[OrderItem],
        scope: &Scope,
    ) -> Result<Draft, OraError> {
        let keys: Vec<Typed> = sel
            .group_by
            .iter()
            .map(|g| self.expr(g, scope, Clause::GroupBy))
            .collect::<Result<_, _>>()?;
        let items = self.select_items(sel, scope)?;
        let having = match &sel.having {
            Some(h) => Some(self.cond(h, scope, Clause::Having)?),
            None => None,
        };
        let (sort, hidden) = self.order_by(order_by, &items, scope)?;
        if sel.distinct && !hidden.is_empty() {
            return Err(OraError::new(1791, "not a SELECTed expression").at(order_by[0].expr.pos));
        }
        let block = self.block.take().unwrap_or_default();
        Ok(Draft {
            items,
            hidden,
            having,
            keys,
            sort,
            block,
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
                    aliased: false,
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
                        (None, ExprKind::Name(p)) => {
                            p.last().map_or_else(|| text.clone(), |l| l.name.clone())
                        }
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
                        aliased: alias.is_some(),
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
    fn order_by(
        &mut self,
        order_by: &[OrderItem],
        items: &[Item],
        scope: &Scope,
    ) -> Result<(Vec<SortKey>, Vec<Ex>), OraError> {
        let mut sort = Vec::with_capacity(order_by.len());
        let mut hidden: Vec<Ex> = Vec::new();
        for it in order_by {
            let alias = match &it.expr.kind {
                ExprKind::Name(p) if p.len() == 1 => {
                    let column = matches!(scope.resolve(p), Ok(Some(_)));
                    by_alias(items, &p[0], column)
                }
                _ => None,
            };
            let mut hidden_national = None;
            let idx = match (&it.expr.kind, alias) {
                (_, Some(i)) => i,
                (ExprKind::Num(n), None) => {
                    let k = n
                        .parse::<usize>()
                        .ok()
                        .filter(|k| (1..=items.len()).contains(k));
                    k.ok_or_else(|| {
                        OraError::new(
                            1785,
                            "ORDER BY item must be the number of a SELECT-list expression",
                        )
                        .at(it.expr.pos)
                    })? - 1
                }
                _ => {
                    let t = self.expr(&it.expr, scope, Clause::OrderBy)?;
                    hidden_national = Some(crate::compare::is_national(&t.ty));
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
            let national = hidden_national.unwrap_or_else(|| {
                items
                    .get(idx)
                    .is_some_and(|i| crate::compare::is_national(&i.ty))
            });
            sort.push(SortKey {
                idx,
                desc: it.desc,
                nulls_first: it.nulls_first.unwrap_or(it.desc),
                national,
            });
        }
        Ok((sort, hidden))
    }
}

/// Rewrites a grouping block's expressions over its group rows.
fn regroup(d: &mut Draft, sel: &Select) -> Result<(), OraError> {
    let code = if sel.group_by.is_empty() { 937 } else { 979 };
    let keys: Vec<Ex> = d.keys.iter().map(|k| k.ex.clone()).collect();
    let n = keys.len();
    let rewrite = |e: &mut Ex, pos: usize| -> Result<(), OraError> {
        *e = to_group(std::mem::replace(e, Ex::Truth(None)), &keys, n, code, pos)?;
        Ok(())
    };
    for it in &mut d.items {
        rewrite(&mut it.ex, it.pos)?;
    }
    for h in &mut d.hidden {
        rewrite(h, sel.pos)?;
    }
    if let Some(h) = &mut d.having {
        rewrite(h, sel.pos)?;
    }
    for w in &mut d.block.wins {
        for p in &mut w.partition {
            rewrite(p, sel.pos)?;
        }
        for o in &mut w.order {
            rewrite(&mut o.ex, sel.pos)?;
        }
    }
    Ok(())
}

/// The block's analytic functions; ROW_NUMBER streams when the rows already come in its
/// window's order.
fn windows(wins: Vec<WinDraft>, order_b: &[Vec<usize>]) -> Vec<WindowSpec> {
    wins.into_iter()
        .map(|w| {
            let plain: Option<Vec<usize>> = w
                .order
                .iter()
                .map(|o| match &o.ex {
                    Ex::Col(s) if !o.desc && !o.nulls_first => Some(*s),
                    _ => None,
                })
                .collect();
            let streaming = w.partition.is_empty()
                && w.kind == WinKind::RowNumber
                && plain.is_some_and(|p| prefix_of(order_b, &p));
            WindowSpec {
                kind: w.kind,
                partition: w.partition,
                order: w.order,
                streaming,
            }
        })
        .collect()
}

/// The projection (select list, then hidden ORDER BY keys) with analytic functions in their
/// slots after `stage_b`, and the result's columns.
fn place(d: &mut Draft, stage_b: usize) -> Result<(Vec<Column>, Vec<Ex>, usize), OraError> {
    let place = |e: Ex| -> Result<Ex, OraError> {
        map(e, &mut |x| {
            Ok(match x {
                Ex::Win(w) => Ex::Col(stage_b + w),
                Ex::Agg(_) => return Err(OraError::new(934, "group function is not allowed here")),
                other => other,
            })
        })
    };
    let items = std::mem::take(&mut d.items);
    let visible = items.len();
    let mut project = Vec::with_capacity(visible + d.hidden.len());
    let mut columns = Vec::with_capacity(visible);
    for it in items {
        columns.push(Column {
            name: it.name,
            ora_type: it.ty,
            nullable: it.nullable,
        });
        project.push(place(it.ex)?);
    }
    for h in std::mem::take(&mut d.hidden) {
        project.push(place(h)?);
    }
    Ok((columns, project, visible))
}
