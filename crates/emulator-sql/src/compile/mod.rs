//! The compiler: a parsed statement and its bind values become plans and compiled
//! expressions. `expr.rs` compiles expressions and conditions, `call.rs` function calls,
//! aggregates and analytic functions, `sub.rs` subqueries, IN lists and LIKE; `select.rs`
//! plans query blocks over the scans `from.rs` opens, with `joins.rs` placing WHERE
//! conjuncts, `group.rs` rewriting grouped expressions, `order.rs` choosing scan orders and
//! early stops; `union.rs` plans UNION ALL; `scope.rs` resolves names.
//!
//! Compilation is where the database is read: relations are scanned (with the bounds and
//! order the statement implies), uncorrelated subqueries run and become constants,
//! correlated ones have their relations read into memory, and database functions with
//! constant arguments are called.

mod call;
mod expr;
mod from;
mod group;
mod joins;
mod order;
pub mod scope;
mod select;
mod sub;
mod union;

use crate::env::Env;
use crate::ex::{walk, Cx, Ex};
use crate::plan::{AggSpec, WinKind};
use crate::{Database, Datum, OraError, OraType};
pub use expr::at;
pub use scope::Scope;
use std::sync::Arc;

/// An expression with the type it describes as.
#[derive(Debug, Clone)]
pub struct Typed {
    pub ex: Ex,
    pub ty: OraType,
}

/// Where an expression stands, which decides what it may contain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clause {
    Where,
    On,
    GroupBy,
    Select,
    Having,
    OrderBy,
    /// Inside an aggregate's argument.
    AggArg,
    /// Anywhere else: AS OF, DML values, OFFSET/FETCH, PL/SQL.
    Value,
}

impl Clause {
    fn allows_aggregates(self) -> bool {
        matches!(self, Clause::Select | Clause::Having | Clause::OrderBy)
    }

    fn allows_windows(self) -> bool {
        matches!(self, Clause::Select | Clause::OrderBy)
    }
}

/// An analytic function met in a select list or ORDER BY, before the block knows whether it
/// groups.
#[derive(Debug)]
pub struct WinDraft {
    pub kind: WinKind,
    pub partition: Vec<Ex>,
    pub order: Vec<crate::plan::WinOrder>,
}

/// Aggregates and analytic functions of the block being compiled.
#[derive(Debug, Default)]
pub struct Block {
    pub aggs: Vec<AggSpec>,
    pub wins: Vec<WinDraft>,
}

pub struct Compiler<'d> {
    pub db: &'d mut dyn Database,
    pub env: Arc<Env>,
    pub binds: &'d [Datum],
    /// Some expression calls a database function with row values: run the query eagerly.
    pub needs_db: bool,
    /// Names that resolve to no column are packaged constants (PL/SQL).
    pub plsql: bool,
    pub block: Option<Block>,
    /// The statement never reads a ROWID: its scans are asked not to make them
    /// ([`ScanRequest::skip_rowids`](crate::ScanRequest::skip_rowids)).
    pub skip_rowids: bool,
    /// The names the statement writes, `None` for every column
    /// ([`ScanRequest::references`](crate::ScanRequest::references)).
    pub references: Option<Vec<String>>,
    /// The scans being compiled find a change's rows
    /// ([`ScanRequest::for_change`](crate::ScanRequest::for_change)).
    pub for_change: bool,
}

/// Whether two compiled expressions are the same (GROUP BY matching).
pub fn same(a: &Ex, b: &Ex) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// Whether an expression reads no row, parameter or database state: it can be folded.
pub fn constant(e: &Ex) -> bool {
    let mut ok = true;
    walk(e, &mut |x| {
        if matches!(
            x,
            Ex::Col(_) | Ex::Param(_) | Ex::Agg(_) | Ex::Win(_) | Ex::Sub(_) | Ex::Db { .. }
        ) {
            ok = false;
        }
    });
    ok
}

/// The conjuncts of a condition.
pub fn conjuncts(e: Ex) -> Vec<Ex> {
    match e {
        Ex::And(v) => v.into_iter().flat_map(conjuncts).collect(),
        Ex::Truth(Some(true)) => Vec::new(),
        other => vec![other],
    }
}

pub fn and_all(mut v: Vec<Ex>) -> Option<Ex> {
    match v.len() {
        0 => None,
        1 => v.pop(),
        _ => Some(Ex::And(v)),
    }
}

impl<'d> Compiler<'d> {
    pub fn new(db: &'d mut dyn Database, env: Arc<Env>, binds: &'d [Datum]) -> Self {
        Compiler {
            db,
            env,
            binds,
            needs_db: false,
            plsql: false,
            block: None,
            skip_rowids: false,
            references: None,
            for_change: false,
        }
    }

    /// Evaluates a constant expression now (a failure leaves it to fail per row, as Oracle
    /// raises errors of expressions when it evaluates them).
    pub fn fold(&self, e: Ex) -> Ex {
        if matches!(e, Ex::Const(_) | Ex::Truth(_)) || !constant(&e) {
            return e;
        }
        let cx = Cx {
            row: &[],
            params: &[],
            env: &self.env,
        };
        let condition = matches!(
            e,
            Ex::Cmp { .. }
                | Ex::And(_)
                | Ex::Or(_)
                | Ex::Not(_)
                | Ex::IsNull(..)
                | Ex::Like { .. }
                | Ex::InList { .. }
                | Ex::InSet { .. }
        );
        if condition {
            return match e.test(&cx) {
                Ok(t) => Ex::Truth(t),
                Err(_) => e,
            };
        }
        match e.eval(&cx) {
            Ok(v) => Ex::Const(v.into_owned()),
            Err(_) => e,
        }
    }

    /// Evaluates an expression that must be constant (AS OF, OFFSET, EXECUTE IMMEDIATE's
    /// text), raising its error.
    pub fn value(&mut self, e: &crate::ast::Expr) -> Result<Datum, OraError> {
        let scope = Scope::empty();
        let t = self.expr(e, &scope, Clause::Value)?;
        let cx = Cx {
            row: &[],
            params: &[],
            env: &self.env,
        };
        Ok(t.ex.eval(&cx)?.into_owned())
    }
}

pub(super) fn const_u64(
    c: &mut Compiler<'_>,
    e: Option<&crate::ast::Expr>,
) -> Result<Option<u64>, OraError> {
    let Some(e) = e else { return Ok(None) };
    let v = c.value(e)?;
    let n = crate::convert::to_dec(&v, &c.env)?;
    Ok(Some(match n {
        None => 0,
        Some(d) if d.is_negative() => 0,
        Some(d) => d
            .trunc()
            .to_i128()
            .map_or(u64::MAX, |n| u64::try_from(n).unwrap_or(u64::MAX)),
    }))
}
