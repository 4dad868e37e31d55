//! Orders and early stops: which order a block asks its scan for (ORDER BY's plain columns,
//! or a lone ROW_NUMBER's window), which orders its result comes in for a parent query, and
//! the upper bounds that end reading rows that come ordered.

use super::from::{scan_applied, Part, Wanted};
use crate::ast::{CmpOp, Expr, ExprKind, OrderItem, Select, SelectItem};
use crate::ex::Ex;
use crate::plan::{SortKey, Stop};

/// Whether `e` (not looking into subqueries) names ROWNUM.
pub(super) fn mentions_rownum(e: &Expr) -> bool {
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
                || whens
                    .iter()
                    .any(|(w, t)| mentions_rownum(w) || mentions_rownum(t))
                || otherwise.as_deref().is_some_and(mentions_rownum)
        }
        Like {
            expr,
            pattern,
            escape,
            ..
        } => any(&[expr, pattern]) || escape.as_deref().is_some_and(mentions_rownum),
        Between {
            expr, low, high, ..
        } => any(&[expr, low, high]),
        InList { expr, list, .. } => mentions_rownum(expr) || list.iter().any(mentions_rownum),
        InQuery { expr, .. } => mentions_rownum(expr),
        Trim { set, from, .. } => {
            mentions_rownum(from) || set.as_deref().is_some_and(mentions_rownum)
        }
        Extract { from, .. } => mentions_rownum(from),
        Serialize { arg, .. } => mentions_rownum(arg),
        _ => false,
    }
}

/// The order the query wants its rows in, when a scan could deliver it: ascending plain
/// columns of ORDER BY (by name, position or alias), or of a lone ROW_NUMBER's window.
pub(super) fn wanted_order(sel: &Select, order_by: &[OrderItem]) -> Wanted {
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

/// Stops for a single FROM item: upper bounds the WHERE clause puts on the first column of
/// an order its rows come in. Not a bound the scan applied itself ([`Part::applied`]): its
/// read ends at that bound as an index range scan ends at its stop key, so checking each row
/// against it again would only cost.
pub(super) fn stops_of(p: &Part<'_>, env: &crate::env::Env) -> Vec<Stop> {
    let mut out = Vec::new();
    for order in &p.orders {
        let Some(&slot) = order.first() else { continue };
        let upper = |op: &CmpOp| matches!(op, CmpOp::Lt | CmpOp::Le | CmpOp::Eq);
        if p.info.rowid == Some(slot) {
            for (c, op, v) in &p.derived {
                if let (true, true, crate::Datum::Rowid(s) | crate::Datum::Text(s)) =
                    (c == "ROWID", upper(op), v)
                {
                    out.push(Stop {
                        slot,
                        bound: crate::Datum::Rowid(s.clone()),
                        inclusive: *op != CmpOp::Lt,
                        how: Default::default(),
                    });
                }
            }
            continue;
        }
        let Some(col) = p.info.columns.get(slot - p.info.offset) else {
            continue;
        };
        for (c, op, v) in &p.derived {
            if *c == col.name && upper(op) {
                let Some(bound) = crate::pushdown::convert(v, &col.ora_type, env) else {
                    continue;
                };
                if !scan_applied(&p.applied, &col.name, *op, &bound, env) {
                    out.push(Stop {
                        slot,
                        bound,
                        inclusive: *op != CmpOp::Lt,
                        how: crate::compare::TextCmp::within(&col.ora_type),
                    });
                }
            }
        }
    }
    out
}

/// The orders the result comes in (for a parent query): the sort's, or the input's orders
/// as far as the select list keeps their columns, and a streamed ROW_NUMBER's.
pub(super) fn output_orders(
    sort: &[SortKey],
    project: &[Ex],
    visible: usize,
    order_b: &[Vec<usize>],
    rn_slot: Option<usize>,
) -> Vec<Vec<usize>> {
    let find = |slot: usize| {
        project[..visible]
            .iter()
            .position(|e| matches!(e, Ex::Col(s) if *s == slot))
    };
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
