//! The recursive-descent parser: conditions, predicates and operands, with literals folded and
//! each comparison typed at compile time.
use super::datetime::{ansi_literal, parse_dt, parse_format, DATE_FMT, TS_FMT};
use super::lex::{lex, Tok};
use super::like::{like_pattern, like_refusal};
use super::number::{negate, parse_float, to_number};
use super::typing::{column_ty, domain, to_domain, Domain, Lit, Ty, K};
use super::{fail, unimpl, Node, Operand, Rel, BAD_NUMBER, MISSING_EXPR};
use crate::errors::{CdcError, Result};
use cdc_core::model::ColumnInfo;

/// Parse and type `text` (a WHERE clause without `WHERE`) against the table's columns.
pub(super) fn parse(text: &str, columns: &[ColumnInfo]) -> Result<Node> {
    let toks = lex(text)?;
    let mut p = Parser {
        text,
        toks,
        i: 0,
        cols: columns,
    };
    let root = p.or()?;
    match p.peek() {
        Tok::End => Ok(root),
        // The stray `)` closes Oracle's own parenthesis; whatever else follows is inside it.
        Tok::Op(")") => Err(p.err("ORA-00933: SQL command not properly ended")),
        _ => Err(p.err("ORA-00907: missing right parenthesis")),
    }
}

/// An operand as parsed: a column or a typed literal, with its position for errors.
#[derive(Debug, Clone)]
struct Expr {
    src: Src,
    pos: usize,
}

#[derive(Debug, Clone)]
enum Src {
    Col(usize),
    Lit(Ty, Lit),
}

/// Reserved words that cannot start an operand.
const RESERVED: [&str; 8] = ["AND", "OR", "NOT", "IN", "IS", "LIKE", "BETWEEN", "DATE"];
/// Pseudo-columns, niladic functions and query syntax Oracle accepts here.
const UNSUPPORTED_WORDS: [&str; 19] = [
    "ROWID",
    "ROWNUM",
    "ORA_ROWSCN",
    "LEVEL",
    "SYSDATE",
    "SYSTIMESTAMP",
    "CURRENT_DATE",
    "CURRENT_TIMESTAMP",
    "LOCALTIMESTAMP",
    "USER",
    "UID",
    "DBTIMEZONE",
    "SESSIONTIMEZONE",
    "TRUE",
    "FALSE",
    "SELECT",
    "WITH",
    "CASE",
    "PRIOR",
];

struct Parser<'a> {
    text: &'a str,
    toks: Vec<(Tok, usize)>,
    i: usize,
    cols: &'a [ColumnInfo],
}

impl Parser<'_> {
    fn at(&self, k: usize) -> &(Tok, usize) {
        // The list always ends with `End`, and reading never goes past it.
        &self.toks[(self.i + k).min(self.toks.len() - 1)]
    }
    fn peek(&self) -> &Tok {
        &self.at(0).0
    }
    fn pos(&self) -> usize {
        self.at(0).1
    }
    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }
    fn eat_kw(&mut self, kw: &str) -> bool {
        let hit = matches!(self.peek(), Tok::Word(w) if w == kw);
        self.i += usize::from(hit);
        hit
    }
    fn err(&self, msg: &str) -> CdcError {
        fail(self.text, self.pos(), msg)
    }
    fn close(&mut self) -> Result<()> {
        if !self.is_op(")") {
            return Err(self.err("ORA-00907: missing right parenthesis"));
        }
        self.i += 1;
        Ok(())
    }

    fn or(&mut self) -> Result<Node> {
        let mut v = vec![self.and()?];
        while self.eat_kw("OR") {
            v.push(self.and()?);
        }
        Ok(if v.len() == 1 {
            v.remove(0)
        } else {
            Node::Or(v)
        })
    }

    fn and(&mut self) -> Result<Node> {
        let mut v = vec![self.not()?];
        while self.eat_kw("AND") {
            v.push(self.not()?);
        }
        Ok(if v.len() == 1 {
            v.remove(0)
        } else {
            Node::And(v)
        })
    }

    fn not(&mut self) -> Result<Node> {
        if self.eat_kw("NOT") {
            return Ok(Node::Not(Box::new(self.not()?)));
        }
        if self.is_op("(") {
            // `(a) = 1` parenthesises an operand, `(a = 1)` a condition: try the operand first.
            let save = self.i;
            match self.operand() {
                Ok(x) if self.starts_predicate() => return self.predicate(x),
                // `(a, b) IN …`: the operand reading already names the refusal.
                Err(e) if self.is_op(",") => return Err(e),
                _ => {}
            }
            self.i = save + 1;
            let inner = self.or()?;
            if self.is_op(",") {
                return Err(self.err(&unimpl("expression lists")));
            }
            self.close()?;
            return Ok(inner);
        }
        let x = self.operand()?;
        self.predicate(x)
    }

    fn starts_predicate(&self) -> bool {
        match self.peek() {
            Tok::Op(o) => matches!(*o, "=" | "<>" | "<" | "<=" | ">" | ">="),
            Tok::Word(w) => matches!(w.as_str(), "IS" | "NOT" | "IN" | "BETWEEN" | "LIKE"),
            _ => false,
        }
    }

    fn predicate(&mut self, x: Expr) -> Result<Node> {
        let rel = match self.peek() {
            Tok::Op("=") => Some(Rel::Eq),
            Tok::Op("<>") => Some(Rel::Ne),
            Tok::Op("<") => Some(Rel::Lt),
            Tok::Op("<=") => Some(Rel::Le),
            Tok::Op(">") => Some(Rel::Gt),
            Tok::Op(">=") => Some(Rel::Ge),
            _ => None,
        };
        if let Some(op) = rel {
            self.i += 1;
            let y = self.operand()?;
            return self.compare(op, &x, &y);
        }
        if self.eat_kw("IS") {
            let negated = self.eat_kw("NOT");
            if !self.eat_kw("NULL") {
                return Err(self.err("ORA-00908: missing NULL keyword"));
            }
            let (x, empty) = match x.src {
                Src::Col(i) => (Operand::Col(i), !self.cols[i].data_type.is_lob()),
                Src::Lit(_, l) => (Operand::Lit(l), true),
            };
            let node = Node::IsNull { x, empty };
            return Ok(if negated {
                Node::Not(Box::new(node))
            } else {
                node
            });
        }
        let negated = self.eat_kw("NOT");
        let node = if self.eat_kw("IN") {
            if !self.is_op("(") {
                return Err(self.err("ORA-00906: missing left parenthesis"));
            }
            self.i += 1;
            let mut any = vec![];
            loop {
                let y = self.operand()?;
                any.push(self.compare(Rel::Eq, &x, &y)?);
                if !self.is_op(",") {
                    break;
                }
                self.i += 1;
            }
            self.close()?;
            Node::Or(any)
        } else if self.eat_kw("BETWEEN") {
            let low = self.operand()?;
            if !self.eat_kw("AND") {
                return Err(self.err("ORA-00905: missing keyword"));
            }
            let high = self.operand()?;
            Node::And(vec![
                self.compare(Rel::Ge, &x, &low)?,
                self.compare(Rel::Le, &x, &high)?,
            ])
        } else if self.eat_kw("LIKE") {
            let pattern = self.operand()?;
            let escape = if self.eat_kw("ESCAPE") {
                Some(self.operand()?)
            } else {
                None
            };
            self.like(&x, &pattern, escape.as_ref())?
        } else {
            return Err(self.err("ORA-00920: invalid relational operator"));
        };
        Ok(if negated {
            Node::Not(Box::new(node))
        } else {
            node
        })
    }

    fn ty(&self, e: &Expr) -> Result<Ty> {
        match &e.src {
            Src::Col(i) => {
                column_ty(&self.cols[*i].data_type).map_err(|m| fail(self.text, e.pos, &m))
            }
            Src::Lit(t, _) => Ok(*t),
        }
    }

    fn compare(&self, op: Rel, l: &Expr, r: &Expr) -> Result<Node> {
        let dom = domain(self.ty(l)?, self.ty(r)?).map_err(|m| fail(self.text, l.pos, &m))?;
        // Literals convert once here, so a bad constant fails now, as Oracle's would.
        let bind = |e: &Expr| -> Result<Operand> {
            Ok(match &e.src {
                Src::Col(i) => Operand::Col(*i),
                Src::Lit(..) if matches!(dom, Domain::Never) => Operand::Lit(Lit::Null),
                Src::Lit(_, lit) => Operand::Lit(Lit::from_key(
                    to_domain(dom, lit.view()).map_err(|m| fail(self.text, e.pos, m))?,
                )),
            })
        };
        Ok(Node::Cmp {
            op,
            dom,
            l: bind(l)?,
            r: bind(r)?,
            at: [l.pos, r.pos],
        })
    }

    fn like(&self, x: &Expr, pattern: &Expr, escape: Option<&Expr>) -> Result<Node> {
        let x = match &x.src {
            Src::Col(i) => match like_refusal(&self.cols[*i].data_type) {
                Some(m) => return Err(fail(self.text, x.pos, &m)),
                None => Operand::Col(*i),
            },
            Src::Lit(_, l @ (Lit::Null | Lit::Text(_) | Lit::Num(_))) => Operand::Lit(l.clone()),
            Src::Lit(..) => {
                return Err(fail(
                    self.text,
                    x.pos,
                    &unimpl("LIKE on a datetime literal"),
                ))
            }
        };
        let text_of = |e: &Expr| match &e.src {
            Src::Lit(_, Lit::Null) => Ok(None),
            Src::Lit(_, Lit::Text(s) | Lit::Num(s)) => Ok(Some(s.clone())),
            _ => Err(fail(
                self.text,
                e.pos,
                &unimpl("LIKE patterns other than text literals"),
            )),
        };
        let escape = match escape {
            None => Some(None),
            Some(e) => text_of(e)?
                .map(|s| {
                    let mut it = s.chars();
                    match (it.next(), it.next()) {
                        (Some(c), None) => Ok(Some(c)),
                        _ => Err(fail(
                            self.text,
                            e.pos,
                            "ORA-01425: escape character must be character string of length 1",
                        )),
                    }
                })
                .transpose()?,
        };
        let pat = match (text_of(pattern)?, escape) {
            (Some(p), Some(esc)) => {
                Some(like_pattern(&p, esc).map_err(|m| fail(self.text, pattern.pos, m))?)
            }
            _ => None,
        };
        Ok(Node::Like { x, pat })
    }

    fn operand(&mut self) -> Result<Expr> {
        let pos = self.pos();
        let mut sign = None;
        while let Tok::Op(s @ ("-" | "+")) = self.peek() {
            sign = Some(sign.unwrap_or(false) ^ (*s == "-"));
            self.i += 1;
        }
        let e = self.primary()?;
        if let Tok::Op("+" | "-" | "*" | "/" | "||") = self.peek() {
            return Err(self.err(&unimpl("arithmetic or `||`")));
        }
        let Some(minus) = sign else { return Ok(e) };
        // A sign makes the operand a number: text converts (ORA-01722 if it cannot).
        let (ty, lit) = match e.src {
            Src::Lit(_, Lit::Null) => (Ty::Num, Lit::Null),
            Src::Lit(_, Lit::Num(s) | Lit::Text(s)) => {
                let n = to_number(&s).map_err(|m| fail(self.text, e.pos, m))?;
                (Ty::Num, Lit::Num(if minus { negate(n) } else { n }))
            }
            Src::Lit(t, Lit::F(f)) => (t, Lit::F(if minus { -f } else { f })),
            _ => {
                return Err(fail(
                    self.text,
                    pos,
                    &unimpl("a sign before a column or datetime"),
                ))
            }
        };
        Ok(Expr {
            src: Src::Lit(ty, lit),
            pos,
        })
    }

    fn primary(&mut self) -> Result<Expr> {
        let pos = self.pos();
        let lit = |t, l| {
            Ok(Expr {
                src: Src::Lit(t, l),
                pos,
            })
        };
        let (tok, next) = (self.peek().clone(), self.at(1).0.clone());
        self.i += 1;
        match tok {
            Tok::Num(s, suffix) => {
                let bad = |m| fail(self.text, pos, m);
                match suffix {
                    None => lit(Ty::Num, Lit::Num(to_number(&s).map_err(bad)?)),
                    Some('f') => match parse_float(&s, true).map_err(bad)? {
                        K::F(f) => lit(Ty::BinF, Lit::F(f)),
                        _ => Err(bad(BAD_NUMBER)),
                    },
                    Some(_) => match parse_float(&s, false).map_err(bad)? {
                        K::F(f) => lit(Ty::BinD, Lit::F(f)),
                        _ => Err(bad(BAD_NUMBER)),
                    },
                }
            }
            // '' is NULL, but still typed as text for the comparison's type check.
            Tok::Str(s, national) => lit(
                Ty::Chr {
                    fixed: true,
                    national,
                },
                if s.is_empty() {
                    Lit::Null
                } else {
                    Lit::Text(s)
                },
            ),
            Tok::Op("(") => {
                let e = self.operand()?;
                if self.is_op(",") {
                    return Err(self.err(&unimpl("expression lists")));
                }
                self.close()?;
                Ok(Expr { pos, ..e })
            }
            Tok::Word(w) => match (w.as_str(), &next) {
                ("NULL", _) => lit(Ty::Null, Lit::Null),
                ("DATE" | "TIMESTAMP", Tok::Str(s, _)) => {
                    self.i += 1;
                    let (t, l) =
                        ansi_literal(w == "TIMESTAMP", s).map_err(|m| fail(self.text, pos, m))?;
                    lit(t, l)
                }
                ("TO_DATE" | "TO_TIMESTAMP", Tok::Op("(")) => {
                    self.i += 1;
                    self.datetime_function(w == "TO_TIMESTAMP", pos)
                }
                ("INTERVAL", Tok::Str(..)) => {
                    Err(fail(self.text, pos, &unimpl("INTERVAL literals")))
                }
                (_, Tok::Op("(")) => {
                    Err(fail(self.text, pos, &unimpl(&format!("the function {w}"))))
                }
                (w, _) if RESERVED.contains(&w) => Err(fail(self.text, pos, MISSING_EXPR)),
                _ => self.column(w, false, pos),
            },
            Tok::Quoted(w) => self.column(w, true, pos),
            _ => {
                self.i -= 1;
                Err(self.err(MISSING_EXPR))
            }
        }
    }

    fn column(&mut self, name: String, quoted: bool, pos: usize) -> Result<Expr> {
        if self.is_op(".") {
            return Err(fail(self.text, pos, &unimpl("qualified column names")));
        }
        if let Some(i) = self.cols.iter().position(|c| c.name == name) {
            return Ok(Expr {
                src: Src::Col(i),
                pos,
            });
        }
        if !quoted && UNSUPPORTED_WORDS.contains(&name.as_str()) {
            return Err(fail(self.text, pos, &unimpl(&name)));
        }
        Err(CdcError::Database(format!(
            "ORA-00904: \"{name}\": invalid identifier"
        )))
    }

    /// `TO_DATE(text[, format])` / `TO_TIMESTAMP(…)` of literals, folded now.
    fn datetime_function(&mut self, timestamp: bool, pos: usize) -> Result<Expr> {
        let arg = self.operand()?;
        let format = if self.is_op(",") {
            self.i += 1;
            Some(self.operand()?)
        } else {
            None
        };
        if self.is_op(",") {
            return Err(self.err(&unimpl("the NLS parameter of TO_DATE")));
        }
        self.close()?;
        let text = match arg.src {
            Src::Lit(_, Lit::Null) => None,
            Src::Lit(_, Lit::Text(s) | Lit::Num(s)) => Some(s),
            _ => {
                return Err(fail(
                    self.text,
                    arg.pos,
                    &unimpl("TO_DATE of a column or datetime"),
                ))
            }
        };
        let fmt = match format.map(|f| (f.src, f.pos)) {
            None => Some(if timestamp {
                TS_FMT.to_vec()
            } else {
                DATE_FMT.to_vec()
            }),
            Some((Src::Lit(_, Lit::Null), _)) => None,
            Some((Src::Lit(_, Lit::Text(f)), p)) => {
                Some(parse_format(&f, timestamp).map_err(|m| fail(self.text, p, &m))?)
            }
            Some((_, p)) => {
                return Err(fail(
                    self.text,
                    p,
                    &unimpl("formats other than text literals"),
                ))
            }
        };
        let value = match (text, fmt) {
            (Some(t), Some(f)) => {
                Lit::Dt(parse_dt(&t, &f).map_err(|m| fail(self.text, arg.pos, m))?.0)
            }
            _ => Lit::Null,
        };
        Ok(Expr {
            src: Src::Lit(if timestamp { Ty::Ts } else { Ty::Date }, value),
            pos,
        })
    }
}
