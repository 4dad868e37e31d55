//! Running an anonymous PL/SQL block: procedure calls (arguments evaluated, packaged
//! constants from [`Database::constant`], then [`Database::call`]), EXECUTE IMMEDIATE of any
//! statement the session runs (its binds from USING), static DML and transaction control,
//! `:bind := expr` (the block's OUT values), nested blocks. An error inside the block is
//! reported as Oracle does, with `ORA-06512: at line n` naming the statement's line.

use crate::ast::{Block, Expr, PlKind, PlStmt};
use crate::compile::Compiler;
use crate::session::SqlSession;
use crate::{Argument, Database, Datum, OraError, Outcome};

struct Run<'a> {
    session: &'a mut SqlSession,
    db: &'a mut dyn Database,
    vals: Vec<Datum>,
    out: Vec<Option<Datum>>,
    text: &'a str,
}

pub fn run(
    session: &mut SqlSession,
    db: &mut dyn Database,
    block: &Block,
    nbinds: usize,
    binds: &[Datum],
    text: &str,
) -> Result<Outcome, OraError> {
    let mut r = Run {
        session,
        db,
        vals: binds.to_vec(),
        out: vec![None; nbinds],
        text,
    };
    r.block(block)?;
    Ok(Outcome::PlSql { out: r.out })
}

impl Run<'_> {
    fn block(&mut self, b: &Block) -> Result<(), OraError> {
        for st in &b.body {
            self.statement(st).map_err(|e| self.stack(e, st.pos))?;
        }
        Ok(())
    }

    /// The error as raised at line `pos` of the block.
    fn stack(&self, mut e: OraError, pos: usize) -> OraError {
        if e.code == 6550 && e.message.starts_with("ORA-06550: line") {
            return e;
        }
        if !e.message.contains("ORA-06512") {
            let (line, _) = crate::names::line_column(self.text, pos);
            e.message.push_str(&format!("\nORA-06512: at line {line}"));
        }
        e.position = None;
        e
    }

    fn eval(&mut self, e: &Expr) -> Result<Datum, OraError> {
        let env = self.session.env(self.db);
        let mut c = Compiler::new(&mut *self.db, env, &self.vals);
        c.plsql = true;
        let v = c.value(e)?;
        if c.needs_db {
            return Err(crate::unimplemented("database functions of PL/SQL values"));
        }
        Ok(v)
    }

    fn statement(&mut self, st: &PlStmt) -> Result<(), OraError> {
        match &st.kind {
            PlKind::Null => Ok(()),
            PlKind::Sql(s) => {
                let vals = self.vals.clone();
                self.session.statement(self.db, s, &vals).map(drop)
            }
            PlKind::ExecuteImmediate { sql, using } => {
                let text = match self.eval(sql)? {
                    Datum::Text(t) if !t.is_empty() => t.to_string(),
                    Datum::Null => {
                        return Err(OraError::new(
                            6535,
                            "statement string in EXECUTE IMMEDIATE is NULL or 0 length",
                        ))
                    }
                    other => {
                        let env = self.session.env(self.db);
                        crate::convert::to_text(&other, &env, None)?
                            .map(|c| c.into_owned())
                            .unwrap_or_default()
                    }
                };
                let mut args = Vec::with_capacity(using.len());
                for u in using {
                    args.push(self.eval(u)?);
                }
                // Positions of a dynamic statement's errors are in its own text, not the
                // block's.
                self.session
                    .run(self.db, &text, &args)
                    .map(drop)
                    .map_err(|mut e| {
                        e.position = None;
                        e
                    })
            }
            PlKind::Call { name, args } => {
                let parts: Vec<String> = name.iter().map(|p| p.name.clone()).collect();
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(Argument {
                        name: a.name.as_ref().map(|n| n.name.clone()),
                        value: self.eval(&a.value)?,
                    });
                }
                self.db.call(&parts, &values)
            }
            PlKind::Assign { bind, value } => {
                let v = self.eval(value)?;
                if let Some(slot) = self.vals.get_mut(*bind) {
                    *slot = v.clone();
                }
                if let Some(slot) = self.out.get_mut(*bind) {
                    *slot = Some(v);
                }
                Ok(())
            }
            PlKind::Block(b) => self.block(b),
        }
    }
}
