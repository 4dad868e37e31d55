//! INSERT, UPDATE and DELETE. Values are converted to their column's type as Oracle stores
//! them (ORA-01722 for text that is not a number, ORA-12899 for a value longer than its
//! column, ORA-01438 for a number beyond its precision, ORA-01400 / ORA-01407 for NULL in a
//! NOT NULL column). UPDATE and DELETE find their rows with a scan of the table's current
//! data (with the bounds their WHERE clause implies), read every matching row first, then
//! change them by ROWID: what a statement changes never feeds back into what it reads.

use crate::ast::{Delete, Expr, Ident, Insert, InsertSource, TableExpr, Update};
use crate::compile::{Clause, Compiler, Scope};
use crate::convert::{to_text, to_type};
use crate::env::Env;
use crate::ex::{is_null, Cx, Ex};
use crate::names::{object_name, quoted_object};
use crate::plan::From;
use crate::session::SqlSession;
use crate::{Column, Database, Datum, ObjectName, OraError, OraType};
use std::cell::RefCell;
use std::sync::Arc;

#[derive(Clone, Copy, PartialEq)]
enum Verb {
    Insert,
    Update,
}

fn column_path(table: &ObjectName, col: &str) -> String {
    format!("{}.\"{col}\"", quoted_object(table))
}

/// A value as `col` stores it.
fn column_value(
    d: Datum,
    col: &Column,
    table: &ObjectName,
    env: &Env,
    verb: Verb,
) -> Result<Datum, OraError> {
    if is_null(&d) {
        if !col.nullable {
            let path = column_path(table, &col.name);
            return Err(match verb {
                Verb::Insert => OraError::new(1400, format!("cannot insert NULL into ({path})")),
                Verb::Update => OraError::new(1407, format!("cannot update ({path}) to NULL")),
            });
        }
        return Ok(Datum::Null);
    }
    let too_long = |actual: usize, max: u32| {
        OraError::new(
            12899,
            format!(
                "value too large for column {} (actual: {actual}, maximum: {max})",
                column_path(table, &col.name)
            ),
        )
    };
    Ok(match &col.ora_type {
        OraType::Varchar2(n) | OraType::Char(n) | OraType::NVarchar2(n) | OraType::NChar(n) => {
            let Some(text) = to_text(&d, env, None)? else {
                return Ok(Datum::Null);
            };
            let national = col.ora_type.is_national();
            let len = if national {
                text.chars().count()
            } else {
                text.len()
            };
            if len > *n as usize {
                return Err(too_long(len, *n));
            }
            match &col.ora_type {
                OraType::Char(_) | OraType::NChar(_) => {
                    let pad = (*n as usize).saturating_sub(len);
                    Datum::Text(format!("{text}{}", " ".repeat(pad)).into())
                }
                _ => Datum::Text(text.into_owned().into()),
            }
        }
        OraType::Raw(n) => match to_type(&d, &col.ora_type, env)? {
            Datum::Bytes(b) if b.len() > *n as usize => return Err(too_long(b.len(), *n)),
            other => other,
        },
        t => to_type(&d, t, env)?,
    })
}

/// The scan of a DML statement's table, with its scope.
struct Target {
    from: From,
    scope_sources: Vec<crate::compile::scope::SourceInfo>,
}

fn open(
    c: &mut Compiler<'_>,
    name: &[Ident],
    alias: Option<&Ident>,
    where_: Option<&Expr>,
    pos: usize,
) -> Result<Target, OraError> {
    let item = [TableExpr::Table {
        name: name.to_vec(),
        as_of: None,
        alias: alias.cloned(),
        pos,
    }];
    // The target's scan only: subqueries of the statement are queries.
    c.for_change = true;
    let parts = c.scan_from(&item, where_, true, &Vec::new());
    c.for_change = false;
    let mut parts = parts?;
    let part = parts.remove(0);
    if !matches!(part.from, From::Source(_)) {
        return Err(
            OraError::new(1732, "data manipulation operation not legal on this view").at(pos),
        );
    }
    Ok(Target {
        scope_sources: vec![part.info],
        from: part.from,
    })
}

fn scope(t: &Target) -> Scope<'static> {
    Scope {
        sources: t.scope_sources.clone(),
        rownum: None,
        parent: None,
        params: RefCell::new(Vec::new()),
    }
}

pub fn insert(
    session: &SqlSession,
    db: &mut dyn Database,
    ins: &Insert,
    binds: &[Datum],
) -> Result<u64, OraError> {
    let table = object_name(&ins.table);
    let table_pos = ins.table.first().map_or(ins.pos, |t| t.pos);
    let cols = db.columns(&table).map_err(crate::compile::at(table_pos))?;
    let targets: Vec<usize> = match &ins.columns {
        None => (0..cols.len()).collect(),
        Some(list) => {
            let mut v: Vec<usize> = Vec::with_capacity(list.len());
            for id in list {
                let i = cols.iter().position(|c| c.name == id.name).ok_or_else(|| {
                    crate::compile::scope::invalid_identifier(std::slice::from_ref(id))
                })?;
                if v.contains(&i) {
                    return Err(OraError::new(957, "duplicate column name").at(id.pos));
                }
                v.push(i);
            }
            v
        }
    };
    let env = session.env(db);
    let rows: Vec<Vec<Datum>> = match &ins.source {
        InsertSource::Values(values) => {
            if values.len() < targets.len() {
                return Err(OraError::new(947, "not enough values").at(ins.pos));
            }
            if values.len() > targets.len() {
                return Err(OraError::new(913, "too many values").at(values[targets.len()].pos));
            }
            let (exs, needs) = {
                let mut c = Compiler::new(&mut *db, env.clone(), binds);
                let s = Scope::empty();
                let exs: Vec<Ex> = values
                    .iter()
                    .map(|e| c.expr(e, &s, Clause::Value).map(|t| t.ex))
                    .collect::<Result<_, _>>()?;
                (exs, c.needs_db)
            };
            let eval = || -> Result<Vec<Datum>, OraError> {
                let cx = Cx {
                    row: &[],
                    params: &[],
                    env: &env,
                };
                exs.iter()
                    .map(|e| e.eval(&cx).map(|v| v.into_owned()))
                    .collect()
            };
            vec![if needs {
                crate::exec::with_functions(&env, db, eval)?
            } else {
                eval()?
            }]
        }
        InsertSource::Query(q) => {
            let (plan, needs) = {
                let mut c = Compiler::new(&mut *db, env.clone(), binds);
                let (plan, _) = c.query(q, None)?;
                (Arc::new(plan), c.needs_db)
            };
            if plan.columns.len() < targets.len() {
                return Err(OraError::new(947, "not enough values").at(q.pos));
            }
            if plan.columns.len() > targets.len() {
                return Err(OraError::new(913, "too many values").at(q.pos));
            }
            if needs {
                crate::exec::eager(&plan, &env, db)?
            } else {
                crate::exec::run(&plan, &env, Arc::from(Vec::new()))?.collect::<Result<_, _>>()?
            }
        }
    };
    let names: Vec<String> = targets.iter().map(|&i| cols[i].name.clone()).collect();
    let mut converted = Vec::with_capacity(rows.len());
    for r in rows {
        let mut row = Vec::with_capacity(r.len());
        for (d, &i) in r.into_iter().zip(&targets) {
            row.push(column_value(d, &cols[i], &table, &env, Verb::Insert)?);
        }
        converted.push(row);
    }
    if converted.is_empty() {
        return Ok(0);
    }
    db.insert(&table, &names, converted)
}

/// The ROWIDs (and evaluated SET values) of the rows a WHERE clause selects.
#[allow(clippy::type_complexity)]
fn matching(
    db: &mut dyn Database,
    env: &Arc<Env>,
    target: &Target,
    cond: Option<&Ex>,
    sets: &[(usize, Ex)],
    needs: bool,
) -> Result<Vec<(String, Vec<Datum>)>, OraError> {
    let info = &target.scope_sources[0];
    let rowid_slot = info.rowid.unwrap_or(info.columns.len());
    let collect = || -> Result<Vec<(String, Vec<Datum>)>, OraError> {
        let mut out = Vec::new();
        let params: Arc<[Datum]> = Arc::from(Vec::new());
        for row in crate::exec::from_rows(&target.from, env, &params)? {
            let row = row?;
            let cx = Cx {
                row: &row,
                params: &params,
                env,
            };
            if let Some(c) = cond {
                if c.test(&cx)? != Some(true) {
                    continue;
                }
            }
            let rowid = match row.get(rowid_slot) {
                Some(Datum::Rowid(r)) | Some(Datum::Text(r)) => r.clone(),
                _ => {
                    return Err(OraError::new(
                        1732,
                        "data manipulation operation not legal on this view",
                    ))
                }
            };
            let values = sets
                .iter()
                .map(|(_, e)| e.eval(&cx).map(|v| v.into_owned()))
                .collect::<Result<_, _>>()?;
            out.push((rowid.to_string(), values));
        }
        Ok(out)
    };
    if needs {
        crate::exec::materialise_from(&target.from)?;
        crate::exec::with_functions(env, db, collect)
    } else {
        collect()
    }
}

pub fn update(
    session: &SqlSession,
    db: &mut dyn Database,
    upd: &Update,
    binds: &[Datum],
) -> Result<u64, OraError> {
    let table = object_name(&upd.table);
    let env = session.env(db);
    let (target, cond, sets, needs) = {
        let mut c = Compiler::new(&mut *db, env.clone(), binds);
        let target = open(
            &mut c,
            &upd.table,
            upd.alias.as_ref(),
            upd.where_.as_ref(),
            upd.pos,
        )?;
        let s = scope(&target);
        let cond = match &upd.where_ {
            Some(w) => Some(c.cond(w, &s, Clause::Where)?),
            None => None,
        };
        let cols = &target.scope_sources[0].columns;
        let mut sets: Vec<(usize, Ex)> = Vec::with_capacity(upd.sets.len());
        for (id, e) in &upd.sets {
            let i = cols
                .iter()
                .position(|col| col.name == id.name)
                .ok_or_else(|| {
                    crate::compile::scope::invalid_identifier(std::slice::from_ref(id))
                })?;
            if sets.iter().any(|(j, _)| *j == i) {
                return Err(OraError::new(957, "duplicate column name").at(id.pos));
            }
            sets.push((i, c.expr(e, &s, Clause::Value)?.ex));
        }
        (target, cond, sets, c.needs_db)
    };
    let rows = matching(db, &env, &target, cond.as_ref(), &sets, needs)?;
    let cols = target.scope_sources[0].columns.clone();
    let mut n = 0;
    for (rowid, values) in rows {
        let mut changes = Vec::with_capacity(values.len());
        for ((i, _), v) in sets.iter().zip(values) {
            changes.push((
                cols[*i].name.clone(),
                column_value(v, &cols[*i], &table, &env, Verb::Update)?,
            ));
        }
        db.update(&table, &rowid, changes)?;
        n += 1;
    }
    Ok(n)
}

pub fn delete(
    session: &SqlSession,
    db: &mut dyn Database,
    del: &Delete,
    binds: &[Datum],
) -> Result<u64, OraError> {
    let table = object_name(&del.table);
    let env = session.env(db);
    let (target, cond, needs) = {
        let mut c = Compiler::new(&mut *db, env.clone(), binds);
        let target = open(
            &mut c,
            &del.table,
            del.alias.as_ref(),
            del.where_.as_ref(),
            del.pos,
        )?;
        let s = scope(&target);
        let cond = match &del.where_ {
            Some(w) => Some(c.cond(w, &s, Clause::Where)?),
            None => None,
        };
        (target, cond, c.needs_db)
    };
    let rows = matching(db, &env, &target, cond.as_ref(), &[], needs)?;
    let mut n = 0;
    for (rowid, _) in rows {
        db.delete(&table, &rowid)?;
        n += 1;
    }
    Ok(n)
}
