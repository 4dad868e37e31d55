//! Runs a [`QueryPlan`]: a chain of iterators, each stage pulling rows from the one before.
//! Scans, filters, projections, DISTINCT and OFFSET/FETCH stream; joins read their right
//! side into memory, grouping, analytic functions without a usable input order and sorts read
//! their input whole. A query over one table without ORDER BY (or whose order the table's rows
//! already come in) therefore never holds more than a row at a time.

use crate::compare::{compare, order_cmp, push_key};
use crate::env::Env;
use crate::ex::{is_null, Cx, Ex};
use crate::plan::{Body, From, Join, QueryPlan, SelectPlan, SortKey, Source, SourceState};
use crate::{Database, Datum, OraError, Row};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

pub type RowIter = Box<dyn Iterator<Item = Result<Vec<Datum>, OraError>> + Send>;

/// The rows of `plan`, with `params` as the values of its correlated references.
pub fn run(
    plan: &Arc<QueryPlan>,
    env: &Arc<Env>,
    params: Arc<[Datum]>,
) -> Result<RowIter, OraError> {
    match &plan.body {
        Body::Select(sp) => select(sp.clone(), env.clone(), params),
        Body::Union {
            parts,
            sort,
            offset,
            fetch,
        } => {
            let mut iters = Vec::with_capacity(parts.len());
            for p in parts {
                iters.push(run(p, env, params.clone())?);
            }
            let rows: RowIter = Box::new(iters.into_iter().flatten());
            let rows = if sort.is_empty() {
                rows
            } else {
                sorted(rows, sort.clone(), usize::MAX, env.clone())?
            };
            Ok(limit(rows, *offset, *fetch))
        }
    }
}

fn limit(rows: RowIter, offset: u64, fetch: Option<u64>) -> RowIter {
    let rows: RowIter = if offset > 0 {
        Box::new(rows.skip(usize::try_from(offset).unwrap_or(usize::MAX)))
    } else {
        rows
    };
    match fetch {
        Some(n) => Box::new(rows.take(usize::try_from(n).unwrap_or(usize::MAX))),
        None => rows,
    }
}

fn select(sp: Arc<SelectPlan>, env: Arc<Env>, params: Arc<[Datum]>) -> Result<RowIter, OraError> {
    let mut rows = from_rows(&sp.from, &env, &params)?;
    if sp.filter.is_some() || !sp.stops.is_empty() || sp.rownum.is_some() {
        rows = Box::new(Filter {
            input: rows,
            plan: sp.clone(),
            env: env.clone(),
            params: params.clone(),
            count: 0,
            done: false,
        });
    }
    if let Some(g) = &sp.group {
        let groups = crate::agg::group(rows, g, &env, &params)?;
        rows = Box::new(groups.into_iter().map(Ok));
    }
    if !sp.windows.is_empty() {
        rows = crate::window::apply(rows, sp.clone(), env.clone(), params.clone())?;
    }
    rows = project(rows, sp.clone(), env.clone(), params.clone());
    if sp.distinct {
        let mut seen = HashSet::new();
        let visible = sp.visible;
        let env2 = env.clone();
        rows = Box::new(rows.filter(move |r| match r {
            Ok(row) => {
                let mut key = Vec::new();
                for d in &row[..visible.min(row.len())] {
                    push_key(d, &env2, &mut key);
                }
                seen.insert(key)
            }
            Err(_) => true,
        }));
    }
    if !sp.sort.is_empty() {
        rows = sorted(rows, sp.sort.clone(), sp.visible, env.clone())?;
    } else if sp.project.len() > sp.visible {
        let visible = sp.visible;
        rows = Box::new(rows.map(move |r| {
            r.map(|mut row| {
                row.truncate(visible);
                row
            })
        }));
    }
    Ok(limit(rows, sp.offset, sp.fetch))
}

/// Reads `rows` whole and sorts them (stable, Oracle's NULL placement), keeping `visible`
/// columns.
fn sorted(
    rows: RowIter,
    keys: Vec<SortKey>,
    visible: usize,
    env: Arc<Env>,
) -> Result<RowIter, OraError> {
    let mut all: Vec<Vec<Datum>> = rows.collect::<Result<_, _>>()?;
    all.sort_by(|a, b| {
        for k in &keys {
            let (x, y) = (
                a.get(k.idx).unwrap_or(&Datum::Null),
                b.get(k.idx).unwrap_or(&Datum::Null),
            );
            let o = order_cmp(x, y, k.desc, k.nulls_first, k.national, &env);
            if o != std::cmp::Ordering::Equal {
                return o;
            }
        }
        std::cmp::Ordering::Equal
    });
    Ok(Box::new(all.into_iter().map(move |mut r| {
        r.truncate(visible);
        Ok(r)
    })))
}

fn project(rows: RowIter, sp: Arc<SelectPlan>, env: Arc<Env>, params: Arc<[Datum]>) -> RowIter {
    // A column that no other projected expression reads moves out of the row instead of
    // being cloned; the others are evaluated first, while the row is whole.
    let mut reads: Vec<usize> = Vec::new();
    for e in &sp.project {
        if !matches!(e, Ex::Col(_)) {
            crate::ex::walk(e, &mut |x| {
                if let Ex::Col(s) = x {
                    reads.push(*s);
                }
            });
        }
    }
    let mut moves: Vec<Option<usize>> = Vec::with_capacity(sp.project.len());
    for e in &sp.project {
        moves.push(match e {
            Ex::Col(s) if !reads.contains(s) && !moves.contains(&Some(*s)) => Some(*s),
            _ => None,
        });
    }
    // Each column moved to its own place (`SELECT` of the leading columns in their order, as
    // a flashback read's list is): the row is the projection once cut to length, with no new
    // vector made and freed a row.
    let in_place = moves.iter().enumerate().all(|(i, m)| *m == Some(i));
    let width = sp.project.len();
    Box::new(rows.map(move |r| {
        let mut row = r?;
        if in_place && row.len() >= width {
            row.truncate(width);
            return Ok(row);
        }
        let mut out: Vec<Datum> = Vec::with_capacity(sp.project.len());
        {
            let cx = Cx {
                row: &row,
                params: &params,
                env: &env,
            };
            for (e, m) in sp.project.iter().zip(&moves) {
                out.push(match m {
                    Some(_) => Datum::Null,
                    None => e.eval(&cx)?.into_owned(),
                });
            }
        }
        for (o, m) in out.iter_mut().zip(&moves) {
            if let Some(slot) = m {
                if let Some(d) = row.get_mut(*slot) {
                    *o = std::mem::replace(d, Datum::Null);
                }
            }
        }
        Ok(out)
    }))
}

/// The WHERE stage: early stops on ordered input, the filter, then ROWNUM.
struct Filter {
    input: RowIter,
    plan: Arc<SelectPlan>,
    env: Arc<Env>,
    params: Arc<[Datum]>,
    count: u64,
    done: bool,
}

impl Filter {
    fn stopped(&self, row: &[Datum]) -> Result<bool, OraError> {
        for s in &self.plan.stops {
            let v = row.get(s.slot).unwrap_or(&Datum::Null);
            if is_null(v) {
                return Ok(true);
            }
            match compare(v, &s.bound, s.how, &self.env) {
                Ok(Some(std::cmp::Ordering::Greater)) => return Ok(true),
                Ok(Some(std::cmp::Ordering::Equal)) if !s.inclusive => return Ok(true),
                _ => {}
            }
        }
        Ok(false)
    }
}

impl Iterator for Filter {
    type Item = Result<Vec<Datum>, OraError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let mut row = match self.input.next()? {
                Ok(r) => r,
                Err(e) => return Some(Err(e)),
            };
            match self.stopped(&row) {
                Ok(true) => {
                    self.done = true;
                    return None;
                }
                Ok(false) => {}
                Err(e) => return Some(Err(e)),
            }
            if let Some(f) = &self.plan.filter {
                let cx = Cx {
                    row: &row,
                    params: &self.params,
                    env: &self.env,
                };
                match f.test(&cx) {
                    Ok(Some(true)) => {}
                    Ok(_) => continue,
                    Err(e) => return Some(Err(e)),
                }
            }
            let Some(rn) = &self.plan.rownum else {
                return Some(Ok(row));
            };
            // The ROWNUM slot follows the FROM clause's columns.
            if row.len() <= rn.slot {
                row.resize(rn.slot + 1, Datum::Null);
            }
            row[rn.slot] = Datum::Number((self.count + 1).to_string().into());
            let cx = Cx {
                row: &row,
                params: &self.params,
                env: &self.env,
            };
            let mut pass = true;
            for c in &rn.conds {
                match c.test(&cx) {
                    Ok(Some(true)) => {}
                    Ok(_) => {
                        pass = false;
                        break;
                    }
                    Err(e) => return Some(Err(e)),
                }
            }
            if pass {
                self.count += 1;
                return Some(Ok(row));
            }
            if rn.stop_on_fail {
                self.done = true;
            }
        }
        None
    }
}

pub(crate) fn from_rows(
    from: &From,
    env: &Arc<Env>,
    params: &Arc<[Datum]>,
) -> Result<RowIter, OraError> {
    Ok(match from {
        From::Dual => Box::new(std::iter::once(Ok(vec![Datum::Text("X".into())]))),
        From::Source(src) => source_rows(src, env, params)?,
        From::View(plan) => run(plan, env, Arc::from(Vec::new()))?,
        From::Join(j) => join_rows(j.clone(), env, params)?,
    })
}

fn flatten(r: Row, width: usize) -> Vec<Datum> {
    let mut v = r.values;
    v.resize(width.saturating_sub(1), Datum::Null);
    v.push(r.rowid.map_or(Datum::Null, Datum::Rowid));
    v
}

fn source_rows(src: &Source, env: &Arc<Env>, params: &Arc<[Datum]>) -> Result<RowIter, OraError> {
    let width = src.width;
    let base: RowIter = {
        let mut state = src.data.0.lock().unwrap_or_else(|p| p.into_inner());
        match std::mem::replace(&mut *state, SourceState::Taken) {
            SourceState::Stream(rows) => Box::new(rows.map(move |r| r.map(|r| flatten(r, width)))),
            SourceState::Mat(v) => {
                *state = SourceState::Mat(v.clone());
                Box::new((0..v.len()).map(move |i| Ok(flatten(v[i].clone(), width))))
            }
            SourceState::Taken => {
                return Err(crate::unimplemented("reading a streamed relation twice"))
            }
        }
    };
    let Some(f) = src.filter.clone() else {
        return Ok(base);
    };
    let (env, params) = (env.clone(), params.clone());
    Ok(Box::new(base.filter_map(move |r| match r {
        Ok(row) => {
            let cx = Cx {
                row: &row,
                params: &params,
                env: &env,
            };
            match f.test(&cx) {
                Ok(Some(true)) => Some(Ok(row)),
                Ok(_) => None,
                Err(e) => Some(Err(e)),
            }
        }
        Err(e) => Some(Err(e)),
    })))
}

fn key_of(row: &[Datum], slots: impl Iterator<Item = usize>, env: &Env) -> Option<Vec<u8>> {
    let mut key = Vec::new();
    for s in slots {
        let d = row.get(s).unwrap_or(&Datum::Null);
        if is_null(d) {
            return None;
        }
        push_key(d, env, &mut key);
    }
    Some(key)
}

fn join_rows(j: Arc<Join>, env: &Arc<Env>, params: &Arc<[Datum]>) -> Result<RowIter, OraError> {
    let left = from_rows(&j.left, env, params)?;
    let right: Vec<Vec<Datum>> = from_rows(&j.right, env, params)?.collect::<Result<_, _>>()?;
    let index: Option<HashMap<Vec<u8>, Vec<usize>>> = if j.keys.is_empty() {
        None
    } else {
        let mut m: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
        for (i, r) in right.iter().enumerate() {
            if let Some(k) = key_of(r, j.keys.iter().map(|k| k.1), env) {
                m.entry(k).or_default().push(i);
            }
        }
        Some(m)
    };
    let (env, params) = (env.clone(), params.clone());
    let all: Vec<usize> = (0..right.len()).collect();
    Ok(Box::new(left.flat_map(
        move |l| -> Vec<Result<Vec<Datum>, OraError>> {
            let l = match l {
                Ok(l) => l,
                Err(e) => return vec![Err(e)],
            };
            let candidates: &[usize] = match &index {
                None => &all,
                Some(m) => match key_of(&l, j.keys.iter().map(|k| k.0), &env) {
                    Some(k) => m.get(&k).map_or(&[], Vec::as_slice),
                    None => &[],
                },
            };
            let mut out = Vec::new();
            for &c in candidates {
                let mut row = Vec::with_capacity(j.left_width + j.right_width);
                row.extend_from_slice(&l);
                row.extend_from_slice(&right[c]);
                if let Some(on) = &j.on {
                    let cx = Cx {
                        row: &row,
                        params: &params,
                        env: &env,
                    };
                    match on.test(&cx) {
                        Ok(Some(true)) => {}
                        Ok(_) => continue,
                        Err(e) => return vec![Err(e)],
                    }
                }
                out.push(Ok(row));
            }
            if out.is_empty() && j.kind == crate::ast::JoinKind::Left {
                let mut row = l;
                row.resize(j.left_width + j.right_width, Datum::Null);
                out.push(Ok(row));
            }
            out
        },
    )))
}

/// Reads every streamed scan of a FROM item into memory, so it can be read again.
pub fn materialise_from(f: &From) -> Result<(), OraError> {
    match f {
        From::Dual => Ok(()),
        From::Source(s) => {
            let mut state = s.data.0.lock().unwrap_or_else(|p| p.into_inner());
            if let SourceState::Stream(rows) = std::mem::replace(&mut *state, SourceState::Taken) {
                let v: Vec<Row> = rows.collect::<Result<_, _>>()?;
                *state = SourceState::Mat(Arc::new(v));
            } else if let SourceState::Taken = &*state {
                return Err(crate::unimplemented("reading a streamed relation twice"));
            }
            Ok(())
        }
        From::View(p) => materialise(p),
        From::Join(j) => {
            materialise_from(&j.left)?;
            materialise_from(&j.right)
        }
    }
}

/// Reads every streamed scan of `plan` into memory, so the plan can run again.
pub fn materialise(plan: &QueryPlan) -> Result<(), OraError> {
    match &plan.body {
        Body::Select(sp) => materialise_from(&sp.from),
        Body::Union { parts, .. } => parts.iter().try_for_each(|p| materialise(p)),
    }
}

/// Runs `f` until every database function it called with row values has an answer: each
/// run notes the calls it could not answer (evaluating on with NULL), the database answers
/// them, and `f` runs again; the last run's result is final.
pub fn with_functions<T>(
    env: &Arc<Env>,
    db: &mut dyn Database,
    mut f: impl FnMut() -> Result<T, OraError>,
) -> Result<T, OraError> {
    for _ in 0..64 {
        let result = f();
        let missing = {
            let mut memo = env.memo.lock().unwrap_or_else(|p| p.into_inner());
            std::mem::take(&mut memo.missing)
        };
        if missing.is_empty() {
            return result;
        }
        for (name, args) in missing {
            let key = crate::env::memo_key(&name, &args);
            if env
                .memo
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .done
                .contains_key(&key)
            {
                continue;
            }
            let answer = match db.function(&name, &args) {
                Some(r) => r,
                None => Err(OraError::new(
                    904,
                    format!("\"{name}\": invalid identifier"),
                )),
            };
            env.memo
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .done
                .insert(key, answer);
        }
    }
    Err(crate::unimplemented(
        "database functions whose arguments keep changing between runs",
    ))
}

/// Runs a plan whose expressions call database functions with row values, to completion.
pub fn eager(
    plan: &Arc<QueryPlan>,
    env: &Arc<Env>,
    db: &mut dyn Database,
) -> Result<Vec<Vec<Datum>>, OraError> {
    materialise(plan)?;
    with_functions(env, db, || {
        run(plan, env, Arc::from(Vec::new()))?.collect::<Result<Vec<_>, _>>()
    })
}
