//! UNION ALL: the parts' columns must agree in number (ORA-01789) and kind (ORA-01790); the
//! whole may be ordered by position or by the first part's column names, then limited.

use super::select::Params;
use super::{Compiler, Scope};
use crate::ast::{ExprKind, Query, SetExpr};
use crate::plan::{Body, QueryPlan, SortKey};
use crate::types::{family, Family};
use crate::{OraError, OraType};
use std::sync::Arc;

impl Compiler<'_> {
    pub(super) fn union(
        &mut self,
        q: &Query,
        parent: Option<&Scope>,
    ) -> Result<(QueryPlan, Params), OraError> {
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
                    return Err(OraError::new(
                        1789,
                        "query block has incorrect number of result columns",
                    )
                    .at(q.pos));
                }
                for (a, b) in first.columns.iter().zip(&plan.columns) {
                    let g = |t: &OraType| match family(t) {
                        Family::Num | Family::Float => 0,
                        Family::Char | Family::Lob | Family::Long => 1,
                        Family::Date | Family::Ts | Family::Tstz => 2,
                        f => 3 + f as u8,
                    };
                    let null = |t: &OraType| *t == OraType::Varchar2(0);
                    if g(&a.ora_type) != g(&b.ora_type) && !null(&a.ora_type) && !null(&b.ora_type)
                    {
                        return Err(OraError::new(
                            1790,
                            "expression must have same datatype as corresponding expression",
                        )
                        .at(q.pos));
                    }
                }
            }
            parts.push(Arc::new(plan));
        }
        let columns = parts.first().map(|p| p.columns.clone()).unwrap_or_default();
        let sort = union_sort(q, &columns)?;
        let order: Vec<usize> = sort
            .iter()
            .take_while(|k| !k.desc && !k.nulls_first)
            .map(|k| k.idx)
            .collect();
        let offset = super::const_u64(self, q.offset.as_ref())?.unwrap_or(0);
        let fetch = super::const_u64(self, q.fetch.as_ref())?;
        Ok((
            QueryPlan {
                columns,
                body: Body::Union {
                    parts,
                    sort,
                    offset,
                    fetch,
                },
                orders: if order.is_empty() {
                    Vec::new()
                } else {
                    vec![order]
                },
            },
            Vec::new(),
        ))
    }
}

/// The ORDER BY of a UNION ALL: positions or the first part's column names.
fn union_sort(q: &Query, columns: &[crate::Column]) -> Result<Vec<SortKey>, OraError> {
    let mut sort = Vec::new();
    for it in &q.order_by {
        let idx = match &it.expr.kind {
            ExprKind::Num(n) => n
                .parse::<usize>()
                .ok()
                .filter(|k| (1..=columns.len()).contains(k))
                .map(|k| k - 1),
            ExprKind::Name(p) if p.len() == 1 => columns.iter().position(|c| c.name == p[0].name),
            _ => None,
        }
        .ok_or_else(|| {
            OraError::new(
                1785,
                "ORDER BY item must be the number of a SELECT-list expression",
            )
            .at(it.expr.pos)
        })?;
        sort.push(SortKey {
            idx,
            desc: it.desc,
            nulls_first: it.nulls_first.unwrap_or(it.desc),
            national: crate::compare::is_national(&columns[idx].ora_type),
        });
    }
    Ok(sort)
}
