//! Analytic functions ROW_NUMBER, RANK and DENSE_RANK `OVER ([PARTITION BY …] ORDER BY …)`,
//! computed after WHERE and GROUP BY and appended to each row. When the rows already come in
//! the window's order (no partitions: the compiler asked the scan for that order and got it)
//! ROW_NUMBER is counted as rows pass, so a key probe over a large table streams and its
//! `RN <= n` filter can stop the scan; otherwise the rows are read, sorted and numbered.

use crate::compare::{order_cmp, push_key};
use crate::env::Env;
use crate::ex::Cx;
use crate::exec::RowIter;
use crate::plan::{SelectPlan, WinKind, WindowSpec};
use crate::{Datum, OraError};
use oracle_datum::ToCompactString;
use std::cmp::Ordering;
use std::sync::Arc;

pub fn apply(
    rows: RowIter,
    sp: Arc<SelectPlan>,
    env: Arc<Env>,
    params: Arc<[Datum]>,
) -> Result<RowIter, OraError> {
    if sp
        .windows
        .iter()
        .all(|w| w.streaming && w.kind == WinKind::RowNumber)
    {
        let mut n: u64 = 0;
        let count = sp.windows.len();
        return Ok(Box::new(rows.map(move |r| {
            r.map(|mut row| {
                n += 1;
                for _ in 0..count {
                    row.push(Datum::Number(n.to_compact_string()));
                }
                row
            })
        })));
    }
    let mut all: Vec<Vec<Datum>> = rows.collect::<Result<_, _>>()?;
    let mut columns = Vec::with_capacity(sp.windows.len());
    for w in &sp.windows {
        columns.push(numbers(&all, w, &env, &params)?);
    }
    for (i, row) in all.iter_mut().enumerate() {
        for col in &columns {
            row.push(Datum::Number(col[i].to_string().into()));
        }
    }
    Ok(Box::new(all.into_iter().map(Ok)))
}

/// The window function's value for each row.
fn numbers(
    rows: &[Vec<Datum>],
    w: &WindowSpec,
    env: &Arc<Env>,
    params: &Arc<[Datum]>,
) -> Result<Vec<u64>, OraError> {
    let mut parts: Vec<Vec<u8>> = Vec::with_capacity(rows.len());
    let mut orders: Vec<Vec<Datum>> = Vec::with_capacity(rows.len());
    for row in rows {
        let cx = Cx { row, params, env };
        let mut key = Vec::new();
        for p in &w.partition {
            let v = p.eval(&cx)?;
            push_key(&v, env, &mut key);
        }
        parts.push(key);
        let mut ord = Vec::with_capacity(w.order.len());
        for o in &w.order {
            ord.push(o.ex.eval(&cx)?.into_owned());
        }
        orders.push(ord);
    }
    let cmp_order = |a: usize, b: usize| -> Ordering {
        for (k, key) in w.order.iter().enumerate() {
            let o = order_cmp(
                &orders[a][k],
                &orders[b][k],
                key.desc,
                key.nulls_first,
                key.national,
                env,
            );
            if o != Ordering::Equal {
                return o;
            }
        }
        Ordering::Equal
    };
    let mut idx: Vec<usize> = (0..rows.len()).collect();
    idx.sort_by(|&a, &b| parts[a].cmp(&parts[b]).then_with(|| cmp_order(a, b)));
    let mut out = vec![0u64; rows.len()];
    let (mut n, mut rank, mut dense) = (0u64, 0u64, 0u64);
    for (pos, &i) in idx.iter().enumerate() {
        let new_part = pos == 0 || parts[idx[pos - 1]] != parts[i];
        if new_part {
            n = 0;
            rank = 0;
            dense = 0;
        }
        n += 1;
        let tie = !new_part && cmp_order(idx[pos - 1], i) == Ordering::Equal;
        if !tie {
            rank = n;
            dense += 1;
        }
        out[i] = match w.kind {
            WinKind::RowNumber => n,
            WinKind::Rank => rank,
            WinKind::DenseRank => dense,
        };
    }
    Ok(out)
}
