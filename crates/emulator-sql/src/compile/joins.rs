//! Joins: the FROM items in a left-deep tree, each WHERE conjunct applied as early as it
//! can be without changing the result (at the scan of the one item it reads, at the inner
//! join that completes its items, otherwise after the joins), and hash join keys taken from
//! equalities between the two sides.

use super::from::Part;
use super::{and_all, conjuncts, Clause, Compiler, Scope};
use crate::ast::{CmpOp, JoinKind};
use crate::ex::{map, walk, Ex};
use crate::plan::{From, Join};
use crate::types::{family, Family};
use crate::OraError;
use std::sync::Arc;

pub(super) fn slots(e: &Ex) -> Vec<usize> {
    let mut v = Vec::new();
    walk(e, &mut |x| {
        if let Ex::Col(s) = x {
            v.push(*s);
        }
    });
    v
}

pub(super) fn shift(e: Ex, by: usize) -> Result<Ex, OraError> {
    map(e, &mut |x| {
        Ok(match x {
            Ex::Col(s) => Ex::Col(s - by),
            other => other,
        })
    })
}

impl Compiler<'_> {
    /// The WHERE conjuncts over the FROM items: at their scan, at their join, or in the filter.
    pub(super) fn join_tree(
        &mut self,
        parts: Vec<Part<'_>>,
        filters: &mut Vec<Ex>,
        scope: &Scope,
    ) -> Result<From, OraError> {
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
        let kind = |k: usize| parts[k].kind.unwrap_or(JoinKind::Cross);
        let is_scan = |k: usize| matches!(parts[k].from, From::Source(_));
        let mut keep = Vec::new();
        for c in filters.drain(..) {
            let srcs: Vec<usize> = slots(&c)
                .iter()
                .filter_map(|s| scope.source_of(*s))
                .collect();
            let Some(&k) = srcs.iter().max() else {
                keep.push(c);
                continue;
            };
            let only = srcs.iter().all(|s| *s == k);
            let inner = k == 0 || kind(k) != JoinKind::Left;
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
            let kind = p.kind.unwrap_or(JoinKind::Cross);
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
            how: crate::compare::TextCmp { padded: false, .. },
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
            && matches!(
                family(&ta),
                Family::Num
                    | Family::Char
                    | Family::Date
                    | Family::Ts
                    | Family::Raw
                    | Family::Rowid
            )
            && !crate::types::is_fixed(&ta)
            && !crate::types::is_fixed(&tb);
        if exact {
            keys.push((a, b - left));
        }
    }
    keys
}
