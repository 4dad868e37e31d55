//! GROUP BY and the aggregate functions COUNT(*), COUNT, MIN, MAX, SUM, AVG (with DISTINCT):
//! NULLs are ignored, SUM and AVG are exact, an aggregate without GROUP BY gives one row even
//! over no rows. Groups come out in the order their first row arrived; HAVING filters them.

use crate::compare::{compare, push_key};
use crate::convert::{to_dec, to_f64};
use crate::env::Env;
use crate::ex::{is_null, Cx};
use crate::exec::RowIter;
use crate::number::Dec;
use crate::plan::{AggKind, AggSpec, Group};
use crate::{Datum, OraError};
use oracle_datum::ToCompactString;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

enum Sum {
    None,
    Exact(Dec),
    Float(f64, bool),
}

struct Acc {
    count: u64,
    best: Option<Datum>,
    sum: Sum,
    seen: Option<HashSet<Vec<u8>>>,
}

impl Acc {
    fn new(spec: &AggSpec) -> Acc {
        Acc {
            count: 0,
            best: None,
            sum: Sum::None,
            seen: spec.distinct.then(HashSet::new),
        }
    }

    fn add(
        &mut self,
        spec: &AggSpec,
        v: Option<Cow<'_, Datum>>,
        env: &Arc<Env>,
    ) -> Result<(), OraError> {
        let Some(v) = v else {
            // COUNT(*): every row counts.
            self.count += 1;
            return Ok(());
        };
        if is_null(&v) {
            return Ok(());
        }
        if let Some(seen) = &mut self.seen {
            let mut k = Vec::new();
            push_key(&v, env, &mut k);
            if !seen.insert(k) {
                return Ok(());
            }
        }
        self.count += 1;
        match spec.kind {
            AggKind::Min | AggKind::Max => {
                let better = match &self.best {
                    None => true,
                    Some(b) => {
                        let o = compare(&v, b, spec.how, env)?;
                        if spec.kind == AggKind::Min {
                            o == Some(Ordering::Less)
                        } else {
                            o == Some(Ordering::Greater)
                        }
                    }
                };
                if better {
                    self.best = Some(v.into_owned());
                }
            }
            AggKind::Sum | AggKind::Avg => self.sum(&v, env)?,
            AggKind::Count | AggKind::CountStar => {}
        }
        Ok(())
    }

    fn sum(&mut self, v: &Datum, env: &Arc<Env>) -> Result<(), OraError> {
        let float = matches!(v, Datum::BinaryFloat(_) | Datum::BinaryDouble(_));
        let double = matches!(v, Datum::BinaryDouble(_));
        self.sum = match std::mem::replace(&mut self.sum, Sum::None) {
            Sum::Float(s, d) => Sum::Float(s + to_f64(v, env)?.unwrap_or(0.0), d || double),
            Sum::Exact(s) if float => {
                Sum::Float(s.to_f64() + to_f64(v, env)?.unwrap_or(0.0), double)
            }
            Sum::None if float => Sum::Float(to_f64(v, env)?.unwrap_or(0.0), double),
            Sum::Exact(s) => Sum::Exact(s.add(&to_dec(v, env)?.unwrap_or_else(Dec::zero)).fit()?),
            Sum::None => Sum::Exact(to_dec(v, env)?.unwrap_or_else(Dec::zero)),
        };
        Ok(())
    }

    fn result(self, spec: &AggSpec) -> Result<Datum, OraError> {
        Ok(match spec.kind {
            AggKind::CountStar | AggKind::Count => Datum::Number(self.count.to_compact_string()),
            AggKind::Min | AggKind::Max => self.best.unwrap_or(Datum::Null),
            AggKind::Sum => match self.sum {
                Sum::None => Datum::Null,
                Sum::Exact(d) => Datum::Number(d.fit()?.to_canonical().into()),
                Sum::Float(f, true) => Datum::BinaryDouble(f),
                Sum::Float(f, false) => Datum::BinaryFloat(f as f32),
            },
            AggKind::Avg => match self.sum {
                Sum::None => Datum::Null,
                Sum::Exact(d) => {
                    let n = Dec::from_i128(i128::from(self.count));
                    Datum::Number(d.div(&n)?.fit()?.to_canonical().into())
                }
                Sum::Float(f, true) => Datum::BinaryDouble(f / self.count as f64),
                Sum::Float(f, false) => Datum::BinaryFloat((f / self.count as f64) as f32),
            },
        })
    }
}

/// Groups `rows`: one row per group, its key values then its aggregates' values, HAVING
/// applied.
pub fn group(
    rows: RowIter,
    g: &Group,
    env: &Arc<Env>,
    params: &Arc<[Datum]>,
) -> Result<Vec<Vec<Datum>>, OraError> {
    let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut groups: Vec<(Vec<Datum>, Vec<Acc>)> = Vec::new();
    if g.keys.is_empty() {
        groups.push((Vec::new(), g.aggs.iter().map(Acc::new).collect()));
        index.insert(Vec::new(), 0);
    }
    for row in rows {
        let row = row?;
        let cx = Cx {
            row: &row,
            params,
            env,
        };
        let mut key = Vec::new();
        let mut values = Vec::with_capacity(g.keys.len());
        for k in &g.keys {
            let v = k.eval(&cx)?;
            push_key(&v, env, &mut key);
            values.push(v.into_owned());
        }
        let gi = match index.get(&key) {
            Some(&i) => i,
            None => {
                groups.push((values, g.aggs.iter().map(Acc::new).collect()));
                index.insert(key, groups.len() - 1);
                groups.len() - 1
            }
        };
        let accs = &mut groups[gi].1;
        for (spec, acc) in g.aggs.iter().zip(accs.iter_mut()) {
            let v = match &spec.arg {
                Some(a) => Some(a.eval(&cx)?),
                None => None,
            };
            acc.add(spec, v, env)?;
        }
    }
    let mut out = Vec::with_capacity(groups.len());
    for (mut values, accs) in groups {
        for (spec, acc) in g.aggs.iter().zip(accs) {
            values.push(acc.result(spec)?);
        }
        if let Some(h) = &g.having {
            let cx = Cx {
                row: &values,
                params,
                env,
            };
            if h.test(&cx)? != Some(true) {
                continue;
            }
        }
        out.push(values);
    }
    Ok(out)
}
