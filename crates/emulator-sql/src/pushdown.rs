//! Bounds a WHERE clause implies for one relation's columns, so the database can read less
//! (a key range, a ROWID range) and the executor can stop reading rows that come ordered.
//!
//! Conjuncts `col op constant` (either side), `col BETWEEN a AND b` and `col IN (constants)`
//! give ranges; AND tightens them, and OR keeps, for each column every disjunct bounds, the
//! loosest: so each disjunct of the flashback read's expansion `("K1" > :l1) OR ("K1" = :l1
//! AND "K2" >= :l2)` implies `K1 >= :l1`, and the chunk's rows are read as a range of K1
//! instead of the whole table per chunk. NOT and anything else imply nothing. The WHERE
//! clause is still evaluated on every row, but for the conjuncts a bound the database reports
//! applied decides (`Relation::exact_bounds`).

use crate::ast::{CmpOp, Expr, ExprKind, Ident};
use crate::compare::{compare, TextCmp};
use crate::env::Env;
use crate::types::{family, Family};
use crate::{Bound, Column, Datum, OraType};
use std::cmp::Ordering;

/// One end of a range: the value and whether it is included.
type End = Option<(Datum, bool)>;

#[derive(Debug, Clone, Default)]
struct Range {
    lo: End,
    hi: End,
}

/// Implied ranges by column name.
type Ranges = Vec<(String, Range)>;

pub struct Deriver<'a> {
    /// The column name a reference means in this relation, if it is one of its columns.
    pub column: &'a dyn Fn(&[Ident]) -> Option<String>,
    /// The value of an expression without column references, if it is one.
    pub constant: &'a mut dyn FnMut(&Expr) -> Option<Datum>,
    /// Whether a column (by name) holds national text: its bounds order in that set.
    pub national: &'a dyn Fn(&str) -> bool,
    pub env: &'a Env,
}

fn cmp(a: &Datum, b: &Datum, how: TextCmp, env: &Env) -> Option<Ordering> {
    compare(a, b, how, env).ok().flatten()
}

impl Deriver<'_> {
    /// The bounds `e` implies, as (column, op, value).
    pub fn derive(&mut self, e: &Expr) -> Vec<(String, CmpOp, Datum)> {
        let mut out = Vec::new();
        for (col, r) in self.ranges(e) {
            let how = self.how(&col);
            match (&r.lo, &r.hi) {
                (Some((a, true)), Some((b, true)))
                    if cmp(a, b, how, self.env) == Some(Ordering::Equal) =>
                {
                    out.push((col, CmpOp::Eq, a.clone()));
                    continue;
                }
                _ => {}
            }
            if let Some((v, incl)) = r.lo {
                out.push((col.clone(), if incl { CmpOp::Ge } else { CmpOp::Gt }, v));
            }
            if let Some((v, incl)) = r.hi {
                out.push((col, if incl { CmpOp::Le } else { CmpOp::Lt }, v));
            }
        }
        out
    }

    /// How `column`'s bounds compare.
    fn how(&self, column: &str) -> TextCmp {
        TextCmp {
            padded: false,
            national: (self.national)(column),
        }
    }

    fn col_const(&mut self, a: &Expr, b: &Expr) -> Option<(String, Datum)> {
        let ExprKind::Name(parts) = &a.kind else {
            return None;
        };
        let col = (self.column)(parts)?;
        let v = (self.constant)(b)?;
        (!crate::ex::is_null(&v)).then_some((col, v))
    }

    fn ranges(&mut self, e: &Expr) -> Ranges {
        match &e.kind {
            ExprKind::And(v) => {
                let mut acc: Ranges = Vec::new();
                for c in v {
                    for (col, r) in self.ranges(c) {
                        let how = self.how(&col);
                        match acc.iter_mut().find(|(k, _)| *k == col) {
                            Some((_, existing)) => {
                                *existing = tighten(existing.clone(), r, how, self.env)
                            }
                            None => acc.push((col, r)),
                        }
                    }
                }
                acc
            }
            ExprKind::Or(v) => {
                let mut acc: Option<Ranges> = None;
                for d in v {
                    let r = self.ranges(d);
                    acc = Some(match acc {
                        None => r,
                        Some(prev) => prev
                            .into_iter()
                            .filter_map(|(col, a)| {
                                let (_, b) = r.iter().find(|(k, _)| *k == col)?;
                                loosen(a, b.clone(), self.how(&col), self.env).map(|x| (col, x))
                            })
                            .collect(),
                    });
                }
                acc.unwrap_or_default()
            }
            _ => self.leaf(e).into_iter().collect(),
        }
    }

    /// The range one predicate puts on a column: `col op constant` either way round,
    /// `col BETWEEN a AND b`, `col IN (constants)`.
    fn leaf(&mut self, e: &Expr) -> Option<(String, Range)> {
        match &e.kind {
            ExprKind::Cmp(op, a, b) => {
                let ((col, v), op) = match self.col_const(a, b) {
                    Some(x) => (x, *op),
                    None => (self.col_const(b, a)?, op.flip()),
                };
                let r = match op {
                    CmpOp::Eq => Range {
                        lo: Some((v.clone(), true)),
                        hi: Some((v, true)),
                    },
                    CmpOp::Gt | CmpOp::Ge => Range {
                        lo: Some((v, op == CmpOp::Ge)),
                        hi: None,
                    },
                    CmpOp::Lt | CmpOp::Le => Range {
                        lo: None,
                        hi: Some((v, op == CmpOp::Le)),
                    },
                    CmpOp::Ne => return None,
                };
                Some((col, r))
            }
            ExprKind::Between {
                expr,
                low,
                high,
                negated: false,
            } => {
                let (col, lo) = self.col_const(expr, low)?;
                let (_, hi) = self.col_const(expr, high)?;
                Some((
                    col,
                    Range {
                        lo: Some((lo, true)),
                        hi: Some((hi, true)),
                    },
                ))
            }
            ExprKind::InList {
                expr,
                list,
                negated: false,
            } => {
                let mut r: Option<(String, Range)> = None;
                for item in list {
                    let (col, v) = self.col_const(expr, item)?;
                    let one = Range {
                        lo: Some((v.clone(), true)),
                        hi: Some((v, true)),
                    };
                    r = Some(match r {
                        None => (col, one),
                        Some((c, acc)) => {
                            let how = self.how(&c);
                            (c, loosen(acc, one, how, self.env)?)
                        }
                    });
                }
                r
            }
            _ => None,
        }
    }
}

/// Both ranges hold: the higher low end, the lower high end.
fn tighten(a: Range, b: Range, how: TextCmp, env: &Env) -> Range {
    let pick = |x: End, y: End, want: Ordering| -> End {
        match (x, y) {
            (None, e) | (e, None) => e,
            (Some((p, pi)), Some((q, qi))) => match cmp(&p, &q, how, env) {
                Some(Ordering::Equal) => Some((p, pi && qi)),
                Some(o) if o == want => Some((p, pi)),
                Some(_) => Some((q, qi)),
                None => Some((p, pi)),
            },
        }
    };
    Range {
        lo: pick(a.lo, b.lo, Ordering::Greater),
        hi: pick(a.hi, b.hi, Ordering::Less),
    }
}

/// One of the ranges holds: the lower low end, the higher high end; an end only one side
/// has is dropped. `None` when nothing is left.
fn loosen(a: Range, b: Range, how: TextCmp, env: &Env) -> Option<Range> {
    let pick = |x: End, y: End, want: Ordering| -> End {
        match (x, y) {
            (Some((p, pi)), Some((q, qi))) => match cmp(&p, &q, how, env)? {
                Ordering::Equal => Some((p, pi || qi)),
                o if o == want => Some((p, pi)),
                _ => Some((q, qi)),
            },
            _ => None,
        }
    };
    let r = Range {
        lo: pick(a.lo, b.lo, Ordering::Less),
        hi: pick(a.hi, b.hi, Ordering::Greater),
    };
    (r.lo.is_some() || r.hi.is_some()).then_some(r)
}

/// A bound's value in the column's own type when comparing in that type orders as the
/// condition does (`None` otherwise: a NUMBER compared with a VARCHAR2 column converts the
/// column, not the value; CHAR columns compare blank-padded).
pub fn convert(value: &Datum, column: &OraType, env: &Env) -> Option<Datum> {
    use Datum as D;
    match (family(column), value) {
        (Family::Num, D::Number(_)) => Some(value.clone()),
        (Family::Num, D::Text(_)) => crate::convert::to_number(value, env)
            .ok()
            .flatten()
            .map(|n| D::Number(n.into_owned().into())),
        (Family::Char, D::Text(_)) if !crate::types::is_fixed(column) => Some(value.clone()),
        (Family::Date, D::Date(_)) => Some(value.clone()),
        (Family::Date, D::Timestamp(t)) if t.nanosecond == 0 => Some(D::Date(*t)),
        (Family::Date, D::Text(_)) => crate::convert::to_date(value, env)
            .ok()
            .flatten()
            .map(D::Date),
        (Family::Ts, D::Timestamp(_)) => Some(value.clone()),
        (Family::Ts, D::Date(t)) => Some(D::Timestamp(*t)),
        (Family::Ts, D::Text(_)) => crate::convert::to_timestamp(value, env)
            .ok()
            .flatten()
            .map(D::Timestamp),
        (Family::Tstz, D::TimestampTz { .. }) => Some(value.clone()),
        (Family::Raw, D::Bytes(_)) => Some(value.clone()),
        _ => None,
    }
}

/// A comparison's operator as a bound's; `<>` bounds nothing.
pub fn bound_op(op: CmpOp) -> Option<crate::CmpOp> {
    Some(match op {
        CmpOp::Eq => crate::CmpOp::Eq,
        CmpOp::Lt => crate::CmpOp::Lt,
        CmpOp::Le => crate::CmpOp::Le,
        CmpOp::Gt => crate::CmpOp::Gt,
        CmpOp::Ge => crate::CmpOp::Ge,
        CmpOp::Ne => return None,
    })
}

/// The database's bounds of a relation with `columns`, and its ROWID range, from derived
/// (column, op, value) triples.
pub fn bounds(
    derived: &[(String, CmpOp, Datum)],
    columns: &[Column],
    env: &Env,
) -> (Vec<Bound>, Option<(String, String)>) {
    let mut out = Vec::new();
    let (mut lo, mut hi) = (None, None);
    for (col, op, v) in derived {
        if col == "ROWID" {
            let text = match v {
                Datum::Rowid(s) | Datum::Text(s) => s.clone(),
                _ => continue,
            };
            match op {
                CmpOp::Ge => lo = Some(text),
                CmpOp::Le => hi = Some(text),
                CmpOp::Eq => {
                    lo = Some(text.clone());
                    hi = Some(text);
                }
                _ => {}
            }
            continue;
        }
        let Some(c) = columns.iter().find(|c| c.name == *col) else {
            continue;
        };
        let Some(value) = convert(v, &c.ora_type, env) else {
            continue;
        };
        let Some(op) = bound_op(*op) else {
            continue;
        };
        out.push(Bound {
            column: col.clone(),
            op,
            value,
        });
    }
    (out, lo.zip(hi).map(|(l, h)| (l.to_string(), h.to_string())))
}
