//! `SELECT MIN(c), MAX(c) FROM t [AS OF SCN x]` from an index: Oracle reads the two ends of an
//! index on `c` (INDEX FULL SCAN (MIN/MAX)) instead of the table, and a snapshot planner asks
//! exactly this of every table it splits; reading a large table whole for it would cost more
//! than the chunks it plans. When the statement is that shape — only MIN and MAX of one
//! column of one table, no WHERE, GROUP BY, ORDER BY or row limit — the engine asks
//! [`Database::min_max`]; when the database cannot answer that way, the statement runs as any.

use crate::ast::{ExprKind, Query, SelectItem, SetExpr, TableExpr};
use crate::names::object_name;
use crate::{Database, Datum, OraError, Outcome};

enum End {
    Min,
    Max,
}

/// The answer from the index, or `None` for the general path.
pub(crate) fn answer(
    db: &mut dyn Database,
    q: &Query,
    binds: &[Datum],
) -> Option<Result<Outcome, OraError>> {
    if !q.order_by.is_empty() || q.offset.is_some() || q.fetch.is_some() {
        return None;
    }
    let SetExpr::Select(sel) = &q.body else {
        return None;
    };
    if sel.distinct || sel.where_.is_some() || !sel.group_by.is_empty() || sel.having.is_some() {
        return None;
    }
    let [TableExpr::Table {
        name, as_of, alias, ..
    }] = sel.from.as_slice()
    else {
        return None;
    };
    let scn = match as_of.as_ref().map(|e| &e.kind) {
        None => None,
        Some(ExprKind::Bind(i)) => match binds.get(*i) {
            Some(Datum::Number(n) | Datum::Text(n)) => Some(n.trim().parse::<u64>().ok()?),
            _ => return None,
        },
        Some(ExprKind::Num(n)) => Some(n.parse::<u64>().ok()?),
        Some(_) => return None,
    };
    let mut column: Option<String> = None;
    let mut ends = Vec::new();
    for item in &sel.items {
        let SelectItem::Expr {
            expr,
            alias: item_alias,
            text,
        } = item
        else {
            return None;
        };
        let ExprKind::Call(call) = &expr.kind else {
            return None;
        };
        if call.distinct
            || call.star
            || call.over.is_some()
            || call.args.len() != 1
            || call.name.len() != 1
        {
            return None;
        }
        let end = match call.name[0].name.as_str() {
            "MIN" if !call.name[0].quoted => End::Min,
            "MAX" if !call.name[0].quoted => End::Max,
            _ => return None,
        };
        let ExprKind::Name(parts) = &call.args[0].value.kind else {
            return None;
        };
        let col = match parts.as_slice() {
            [c] => c,
            [q, c]
                if alias
                    .as_ref()
                    .map_or(name.last().is_some_and(|n| n.name == q.name), |a| {
                        a.name == q.name
                    }) =>
            {
                c
            }
            _ => return None,
        };
        if column.as_ref().is_some_and(|c| c != &col.name) {
            return None;
        }
        column = Some(col.name.clone());
        let label = item_alias
            .as_ref()
            .map_or_else(|| text.clone(), |a| a.name.clone());
        ends.push((end, label));
    }
    let column = column?;
    let table = object_name(name);
    // The result columns are typed as the column is; an unknown table or column falls back to
    // the general path, which raises the error at its place in the statement.
    let columns = db.columns(&table).ok()?;
    let described = columns.iter().find(|c| c.name == column)?.clone();
    let (min, max) = match db.min_max(&table, &column, scn)? {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    let mut out_columns = Vec::with_capacity(ends.len());
    let mut row = Vec::with_capacity(ends.len());
    for (end, label) in ends {
        let mut c = described.clone();
        c.name = label;
        c.nullable = true;
        out_columns.push(c);
        row.push(match end {
            End::Min => min.clone(),
            End::Max => max.clone(),
        });
    }
    Some(Ok(Outcome::Rows {
        columns: out_columns,
        rows: Box::new(std::iter::once(Ok(row))),
    }))
}
