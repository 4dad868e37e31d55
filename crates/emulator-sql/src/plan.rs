//! A compiled query: what `exec.rs` runs. Built by the compiler during `execute` (which reads
//! every relation's columns and opens every scan there), it owns everything it needs, so its
//! rows can be pulled after `execute` returned.
//!
//! Rows flow through stages: the FROM clause's rows (each source's columns then its ROWID,
//! a ROWNUM slot last when the query uses it), the WHERE filter, grouping (rows become
//! group keys then aggregate values), analytic functions (appended), the projection (select
//! list, then hidden ORDER BY keys), DISTINCT, ORDER BY, OFFSET / FETCH.

use crate::ast::JoinKind;
use crate::ex::Ex;
use crate::{Column, Datum, Row, Rows};
use std::sync::{Arc, Mutex};

pub struct QueryPlan {
    pub columns: Vec<Column>,
    pub body: Body,
    /// Orders the rows come in, each a list of output columns (ascending, NULLs last): a
    /// parent query may skip sorting by one or stop reading at an upper bound of its first
    /// column. Several can hold at once (a key, and the ROW_NUMBER numbering by it).
    pub orders: Vec<Vec<usize>>,
}

impl std::fmt::Debug for QueryPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryPlan")
            .field("columns", &self.columns)
            .field("body", &self.body)
            .finish()
    }
}

#[derive(Debug)]
pub enum Body {
    Select(Arc<SelectPlan>),
    /// UNION ALL of the parts, then the ORDER BY / OFFSET / FETCH of the whole.
    Union {
        parts: Vec<Arc<QueryPlan>>,
        sort: Vec<SortKey>,
        offset: u64,
        fetch: Option<u64>,
    },
}

#[derive(Debug)]
pub struct SelectPlan {
    pub from: From,
    /// The WHERE conjuncts not applied earlier (at a scan or a join).
    pub filter: Option<Ex>,
    pub stops: Vec<Stop>,
    pub rownum: Option<Rownum>,
    pub group: Option<Group>,
    pub windows: Vec<WindowSpec>,
    /// Select list then hidden sort keys.
    pub project: Vec<Ex>,
    pub visible: usize,
    pub distinct: bool,
    /// Empty when no sort is needed (no ORDER BY, or the rows already come in its order).
    pub sort: Vec<SortKey>,
    pub offset: u64,
    pub fetch: Option<u64>,
}

/// Rows come ordered by `slot`: once it passes `bound` (or is NULL, NULLs coming last) no
/// later row can satisfy the WHERE clause, which implies `slot <= bound` (`<` when not
/// inclusive).
#[derive(Debug, Clone)]
pub struct Stop {
    pub slot: usize,
    pub bound: Datum,
    pub inclusive: bool,
    /// How the slot's values compare (in its column's character set).
    pub how: crate::compare::TextCmp,
}

/// ROWNUM: the slot it is written to, and the WHERE conjuncts that read it (checked with the
/// candidate number after the rest of the WHERE clause passed).
#[derive(Debug)]
pub struct Rownum {
    pub slot: usize,
    pub conds: Vec<Ex>,
    /// The conjuncts read only ROWNUM and constants: once one fails, every later row fails.
    pub stop_on_fail: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AggKind {
    CountStar,
    Count,
    Min,
    Max,
    Sum,
    Avg,
}

#[derive(Debug)]
pub struct AggSpec {
    pub kind: AggKind,
    pub arg: Option<Ex>,
    pub distinct: bool,
    /// How MIN and MAX compare the argument's values (in its character set).
    pub how: crate::compare::TextCmp,
}

#[derive(Debug)]
pub struct Group {
    pub keys: Vec<Ex>,
    pub aggs: Vec<AggSpec>,
    pub having: Option<Ex>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WinKind {
    RowNumber,
    Rank,
    DenseRank,
}

/// One key of an analytic function's ORDER BY.
#[derive(Debug)]
pub struct WinOrder {
    pub ex: Ex,
    pub desc: bool,
    pub nulls_first: bool,
    /// The key is national text (it orders by UTF-16 code units).
    pub national: bool,
}

#[derive(Debug)]
pub struct WindowSpec {
    pub kind: WinKind,
    pub partition: Vec<Ex>,
    pub order: Vec<WinOrder>,
    /// The input already comes in the window's order (no partitions): number as rows pass.
    pub streaming: bool,
}

#[derive(Debug, Clone, Copy)]
pub struct SortKey {
    pub idx: usize,
    pub desc: bool,
    pub nulls_first: bool,
    /// The key is national text (it orders by UTF-16 code units).
    pub national: bool,
}

#[derive(Debug)]
pub enum From {
    Dual,
    Source(Source),
    View(Arc<QueryPlan>),
    Join(Arc<Join>),
}

#[derive(Debug)]
pub struct Join {
    pub left: From,
    pub right: From,
    pub kind: JoinKind,
    pub on: Option<Ex>,
    pub left_width: usize,
    pub right_width: usize,
    /// Equality keys (left slot, right slot within the right row) for a hash join.
    pub keys: Vec<(usize, usize)>,
}

/// A table or view as scanned: its rows, plus a ROWID slot after the columns.
#[derive(Debug)]
pub struct Source {
    pub data: SourceData,
    pub width: usize,
    /// WHERE conjuncts over this source only, in its own slots.
    pub filter: Option<Arc<Ex>>,
}

/// A scan's rows: streamed once (a top-level query), or read into memory when the plan must
/// run more than once (a correlated subquery, a query whose database functions are answered
/// between runs).
pub struct SourceData(pub Mutex<SourceState>);

pub enum SourceState {
    Stream(Rows),
    Mat(Arc<Vec<Row>>),
    Taken,
}

impl std::fmt::Debug for SourceData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &*self.0.lock().unwrap_or_else(|p| p.into_inner()) {
            SourceState::Stream(_) => f.write_str("Stream"),
            SourceState::Mat(rows) => write!(f, "Mat({})", rows.len()),
            SourceState::Taken => f.write_str("Taken"),
        }
    }
}
