//! SQL conditions evaluated by the emulator: the extra condition of a snapshot read
//! (`cdc.snapshot.select.override.*`, a signal's `additional-conditions`), with Oracle's typing,
//! implicit conversions and three-valued logic.
//!
//! Oracle runs `… WHERE <range> AND (<condition>)`, so syntax errors are the ones Oracle reports
//! for text inside those parentheses. The session is the one [`Value`]'s texts assume:
//! NLS_DATE_FORMAT `YYYY-MM-DD HH24:MI:SS`, NLS_TIMESTAMP_FORMAT `…SS.FF9`, NLS_TIMESTAMP_TZ_FORMAT
//! `…SS.FF9 TZH:TZM`, NLS_COMP=BINARY, time zone UTC, character sets AL32UTF8 / AL16UTF16.
//! What Oracle accepts but the emulator cannot evaluate fails with ORA-03001 (unimplemented
//! feature), never with a silently different answer.
//!
//! [`compile`] lexes (`lex.rs`), parses and types (`parse.rs`, `typing.rs`) the text, folding
//! literals (`number.rs`, `datetime.rs`) and LIKE patterns (`like.rs`);
//! [`Condition::try_matches`] evaluates the resulting tree (below) against a row.
use crate::errors::{CdcError, Result};
use crate::types::Value;
use cdc_core::model::ColumnInfo;
use like::{like, Pat};
use typing::{compare, to_domain, view, Domain, Lit, K};

mod datetime;
mod lex;
mod like;
mod number;
mod parse;
#[cfg(test)]
mod tests;
mod typing;

/// A compiled condition over one table's columns.
#[derive(Debug, Clone)]
pub struct Condition {
    /// The source text, for errors raised while evaluating a row.
    text: String,
    root: Node,
}

/// Compile `text` (a WHERE clause without `WHERE`) against the table's columns.
pub fn compile(text: &str, columns: &[ColumnInfo]) -> Result<Condition> {
    Ok(Condition {
        text: text.to_string(),
        root: parse::parse(text, columns)?,
    })
}

impl Condition {
    /// Whether `row` satisfies the condition (only TRUE does; FALSE and UNKNOWN do not), or the
    /// error Oracle raises fetching it: a row value that fails its implicit conversion, such as
    /// `varchar_col = 10` on 'ten' (ORA-01722). Operands are evaluated left to right and AND/OR
    /// stop at the first FALSE/TRUE, so a later operand's error is not raised then (Oracle does
    /// not promise an order of evaluation either).
    pub fn try_matches(&self, row: &[Value]) -> Result<bool> {
        Ok(self.eval(row)? == Some(true))
    }

    /// TRUE, FALSE or UNKNOWN (`None`), or the conversion error.
    fn eval(&self, row: &[Value]) -> Result<Option<bool>> {
        self.root
            .eval(row)
            .map_err(|(pos, msg)| fail(&self.text, pos, msg))
    }
}

const UNIMPLEMENTED: &str = "ORA-03001: unimplemented feature";
const BAD_NUMBER: &str = "ORA-01722: invalid number";
const MISSING_EXPR: &str = "ORA-00936: missing expression";

fn unimpl(what: &str) -> String {
    format!("{UNIMPLEMENTED} (the emulator does not evaluate {what})")
}

fn fail(text: &str, pos: usize, msg: &str) -> CdcError {
    let pos = pos.min(text.len());
    let near: String = text[pos..].chars().take(24).collect();
    CdcError::Database(if near.trim().is_empty() {
        format!("{msg} at the end of condition `{text}`")
    } else {
        let at = text[..pos].chars().count() + 1;
        format!("{msg} at position {at} (`{near}`) of condition `{text}`")
    })
}

// ---------------------------------------------------------------- tree

#[derive(Debug, Clone, Copy, PartialEq)]
enum Rel {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone)]
enum Operand {
    Col(usize),
    Lit(Lit),
}

impl Operand {
    fn get<'a>(&'a self, row: &'a [Value]) -> K<'a> {
        match self {
            Operand::Col(i) => row.get(*i).map_or(K::Null, view),
            Operand::Lit(l) => l.view(),
        }
    }
}

/// An error raised evaluating a row: the position of the operand in the text and the ORA text.
type Fault = (usize, &'static str);

#[derive(Debug, Clone)]
enum Node {
    And(Vec<Node>),
    Or(Vec<Node>),
    Not(Box<Node>),
    Cmp {
        op: Rel,
        dom: Domain,
        l: Operand,
        r: Operand,
        /// Positions of `l` and `r` in the text.
        at: [usize; 2],
    },
    /// `IS NULL`; `empty`: an empty value is NULL (not for LOBs, where it is EMPTY_LOB()).
    IsNull {
        x: Operand,
        empty: bool,
    },
    /// `None` pattern: NULL pattern or escape, always UNKNOWN.
    Like {
        x: Operand,
        pat: Option<Vec<Pat>>,
    },
}

impl Node {
    fn eval(&self, row: &[Value]) -> std::result::Result<Option<bool>, Fault> {
        Ok(match self {
            Node::And(v) => {
                let mut acc = Some(true);
                for n in v {
                    match n.eval(row)? {
                        Some(false) => return Ok(Some(false)),
                        None => acc = None,
                        Some(true) => {}
                    }
                }
                acc
            }
            Node::Or(v) => {
                let mut acc = Some(false);
                for n in v {
                    match n.eval(row)? {
                        Some(true) => return Ok(Some(true)),
                        None => acc = None,
                        Some(false) => {}
                    }
                }
                acc
            }
            Node::Not(n) => n.eval(row)?.map(|b| !b),
            Node::Cmp { op, dom, l, r, at } => {
                // A row value that fails its implicit conversion raises the error, as Oracle's
                // fetch does.
                let a = to_domain(*dom, l.get(row)).map_err(|m| (at[0], m))?;
                let b = to_domain(*dom, r.get(row)).map_err(|m| (at[1], m))?;
                compare(*dom, &a, &b).map(|o| match op {
                    Rel::Eq => o.is_eq(),
                    Rel::Ne => o.is_ne(),
                    Rel::Lt => o.is_lt(),
                    Rel::Le => o.is_le(),
                    Rel::Gt => o.is_gt(),
                    Rel::Ge => o.is_ge(),
                })
            }
            Node::IsNull { x, empty } => Some(match x {
                Operand::Lit(l) => matches!(l, Lit::Null),
                Operand::Col(i) => match row.get(*i) {
                    None | Some(Value::Null) => true,
                    Some(Value::Text(s)) => *empty && s.is_empty(),
                    Some(Value::Bytes(b)) => *empty && b.is_empty(),
                    _ => false,
                },
            }),
            Node::Like { x, pat } => {
                let Some(pat) = pat else { return Ok(None) };
                let text = match x {
                    Operand::Col(i) => match row.get(*i) {
                        Some(
                            Value::Text(s)
                            | Value::Number(s)
                            | Value::Date(s)
                            | Value::Timestamp(s)
                            | Value::TimestampTz(s),
                        ) => s.as_str(),
                        _ => return Ok(None),
                    },
                    Operand::Lit(Lit::Text(s) | Lit::Num(s)) => s.as_str(),
                    Operand::Lit(_) => return Ok(None),
                };
                (!text.is_empty()).then(|| like(text, pat))
            }
        })
    }
}
