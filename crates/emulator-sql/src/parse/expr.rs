//! Conditions (OR, AND, NOT, predicates) and expressions (arithmetic, `||`, literals, names,
//! calls, CASE, CAST and the functions with their own syntax), with Oracle's precedence.

use super::Parser;
use crate::ast::{Arg, ArithOp, Call, CmpOp, Expr, ExprKind, OrderItem, Window};
use crate::lex::Tok;
use crate::OraError;

/// Oracle's limit on an expression list (ORA-01795).
const MAX_LIST: usize = 1000;

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl Parser<'_> {
    pub(super) fn mk(&self, kind: ExprKind, pos: usize) -> Expr {
        Expr {
            kind,
            pos,
            end: self.prev_end(),
        }
    }

    pub(super) fn condition(&mut self) -> Result<Expr, OraError> {
        self.enter()?;
        let r = self.or_condition();
        self.leave();
        r
    }

    fn or_condition(&mut self) -> Result<Expr, OraError> {
        let pos = self.pos();
        let mut v = vec![self.and_condition()?];
        while self.eat_word("OR") {
            v.push(self.and_condition()?);
        }
        Ok(if v.len() == 1 {
            v.remove(0)
        } else {
            self.mk(ExprKind::Or(v), pos)
        })
    }

    fn and_condition(&mut self) -> Result<Expr, OraError> {
        let pos = self.pos();
        let mut v = vec![self.not_condition()?];
        while self.eat_word("AND") {
            v.push(self.not_condition()?);
        }
        Ok(if v.len() == 1 {
            v.remove(0)
        } else {
            self.mk(ExprKind::And(v), pos)
        })
    }

    fn not_condition(&mut self) -> Result<Expr, OraError> {
        let pos = self.pos();
        if self.eat_word("NOT") {
            self.enter()?;
            let inner = self.not_condition();
            self.leave();
            return Ok(self.mk(ExprKind::Not(boxed(inner?)), pos));
        }
        if self.eat_word("EXISTS") {
            self.expect_op("(", 906, "missing left parenthesis")?;
            let q = self.subquery()?;
            self.close_paren()?;
            return Ok(self.mk(ExprKind::Exists(Box::new(q)), pos));
        }
        let starts_query = self.is_word_at(1, "SELECT") || self.is_word_at(1, "WITH");
        if self.is_op("(") && !starts_query {
            // `(a) = 1` parenthesises an operand, `(a = 1)` a condition: try the operand.
            let save = (self.i, self.binds.len());
            match self.expr() {
                Ok(x) if self.starts_predicate() => return self.predicate(x),
                // What the emulator does not evaluate (or nesting too deep) stays so.
                Err(e) if e.code == 3001 => return Err(e),
                _ => {}
            }
            self.i = save.0;
            self.binds.truncate(save.1);
            self.advance();
            let inner = self.condition()?;
            if self.is_op(",") {
                return Err(self.unimplemented("expression lists such as (a, b) IN (…)"));
            }
            self.close_paren()?;
            return Ok(inner);
        }
        let x = self.expr()?;
        self.predicate(x)
    }

    fn starts_predicate(&self) -> bool {
        match self.tok() {
            Tok::Op(o) => matches!(*o, "=" | "<>" | "<" | "<=" | ">" | ">="),
            Tok::Word(w) => matches!(w.as_str(), "IS" | "NOT" | "IN" | "BETWEEN" | "LIKE"),
            _ => false,
        }
    }

    fn predicate(&mut self, x: Expr) -> Result<Expr, OraError> {
        let pos = x.pos;
        let op = match self.tok() {
            Tok::Op("=") => Some(CmpOp::Eq),
            Tok::Op("<>") => Some(CmpOp::Ne),
            Tok::Op("<") => Some(CmpOp::Lt),
            Tok::Op("<=") => Some(CmpOp::Le),
            Tok::Op(">") => Some(CmpOp::Gt),
            Tok::Op(">=") => Some(CmpOp::Ge),
            _ => None,
        };
        if let Some(op) = op {
            self.advance();
            if ["ANY", "SOME", "ALL"].iter().any(|w| self.is_word(w)) {
                return Err(self.unimplemented("ANY / SOME / ALL comparisons"));
            }
            let y = self.expr()?;
            return Ok(self.mk(ExprKind::Cmp(op, boxed(x), boxed(y)), pos));
        }
        if self.eat_word("IS") {
            let negated = self.eat_word("NOT");
            if !self.eat_word("NULL") {
                return Err(self.err(908, "missing NULL keyword"));
            }
            return Ok(self.mk(ExprKind::IsNull(boxed(x), negated), pos));
        }
        let negated = self.eat_word("NOT");
        if self.eat_word("IN") {
            return self.in_predicate(x, negated, pos);
        }
        if self.eat_word("BETWEEN") {
            let low = self.expr()?;
            self.expect_word("AND", 905, "missing keyword")?;
            let high = self.expr()?;
            let kind = ExprKind::Between {
                expr: boxed(x),
                low: boxed(low),
                high: boxed(high),
                negated,
            };
            return Ok(self.mk(kind, pos));
        }
        if self.eat_word("LIKE") {
            let pattern = self.expr()?;
            let escape = if self.eat_word("ESCAPE") {
                Some(boxed(self.expr()?))
            } else {
                None
            };
            let kind = ExprKind::Like {
                expr: boxed(x),
                pattern: boxed(pattern),
                escape,
                negated,
            };
            return Ok(self.mk(kind, pos));
        }
        Err(self.err(920, "invalid relational operator"))
    }

    fn in_predicate(&mut self, x: Expr, negated: bool, pos: usize) -> Result<Expr, OraError> {
        self.expect_op("(", 906, "missing left parenthesis")?;
        if self.is_word("SELECT") || self.is_word("WITH") {
            let q = self.subquery()?;
            self.close_paren()?;
            let kind = ExprKind::InQuery {
                expr: boxed(x),
                query: Box::new(q),
                negated,
            };
            return Ok(self.mk(kind, pos));
        }
        let mut list = Vec::new();
        loop {
            if list.len() == MAX_LIST {
                return Err(self.err(1795, "maximum number of expressions in a list is 1000"));
            }
            list.push(self.expr()?);
            if !self.eat_op(",") {
                break;
            }
        }
        self.close_paren()?;
        let kind = ExprKind::InList {
            expr: boxed(x),
            list,
            negated,
        };
        Ok(self.mk(kind, pos))
    }

    /// A value expression: terms joined by `+`, `-` and `||`.
    pub(super) fn expr(&mut self) -> Result<Expr, OraError> {
        self.enter()?;
        let r = self.additive();
        self.leave();
        r
    }

    fn additive(&mut self) -> Result<Expr, OraError> {
        let pos = self.pos();
        let mut left = self.term()?;
        loop {
            let kind = match self.tok() {
                Tok::Op("+") => Some(ArithOp::Add),
                Tok::Op("-") => Some(ArithOp::Sub),
                Tok::Op("||") => None,
                _ => return Ok(left),
            };
            self.advance();
            let right = self.term()?;
            let k = match kind {
                Some(op) => ExprKind::Arith(op, boxed(left), boxed(right)),
                None => ExprKind::Concat(boxed(left), boxed(right)),
            };
            left = self.mk(k, pos);
        }
    }

    fn term(&mut self) -> Result<Expr, OraError> {
        let pos = self.pos();
        let mut left = self.unary()?;
        loop {
            let op = match self.tok() {
                Tok::Op("*") => ArithOp::Mul,
                Tok::Op("/") => ArithOp::Div,
                Tok::Op("**") => return Err(self.unimplemented("the ** operator")),
                _ => return Ok(left),
            };
            self.advance();
            let right = self.unary()?;
            left = self.mk(ExprKind::Arith(op, boxed(left), boxed(right)), pos);
        }
    }

    fn unary(&mut self) -> Result<Expr, OraError> {
        let pos = self.pos();
        if self.eat_op("-") {
            self.enter()?;
            let inner = self.unary();
            self.leave();
            return Ok(self.mk(ExprKind::Neg(boxed(inner?)), pos));
        }
        if self.eat_op("+") {
            self.enter()?;
            let inner = self.unary();
            self.leave();
            return inner;
        }
        if self.is_word("PRIOR") || self.is_word("CONNECT_BY_ROOT") {
            return Err(self.unimplemented("hierarchical queries"));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, OraError> {
        let pos = self.pos();
        let tok = self.tok().clone();
        match tok {
            Tok::Num(s) => {
                self.advance();
                Ok(self.mk(ExprKind::Num(s), pos))
            }
            Tok::BinNum(s, double) => {
                self.advance();
                Ok(self.mk(ExprKind::BinNum(s, double), pos))
            }
            Tok::Str(text, national) => {
                self.advance();
                Ok(self.mk(ExprKind::Str { text, national }, pos))
            }
            Tok::Bind(name) => {
                self.advance();
                let i = self.bind_index(&name);
                Ok(self.mk(ExprKind::Bind(i), pos))
            }
            Tok::Op("(") => {
                self.advance();
                if self.is_word("SELECT") || self.is_word("WITH") {
                    let q = self.subquery()?;
                    self.close_paren()?;
                    return Ok(self.mk(ExprKind::Subquery(Box::new(q)), pos));
                }
                let mut inner = self.expr()?;
                if self.is_op(",") {
                    return Err(self.unimplemented("expression lists such as (a, b) IN (…)"));
                }
                self.close_paren()?;
                inner.pos = pos;
                inner.end = self.prev_end();
                Ok(inner)
            }
            Tok::Word(w) => self.word_primary(&w, pos),
            Tok::Quoted(_) => self.name_or_call(pos),
            _ => Err(self.err(936, "missing expression")),
        }
    }

    fn word_primary(&mut self, w: &str, pos: usize) -> Result<Expr, OraError> {
        let next_is_str = matches!(self.at(1).tok, Tok::Str(..));
        match w {
            "NULL" => {
                self.advance();
                Ok(self.mk(ExprKind::Null, pos))
            }
            "DATE" | "TIMESTAMP" if next_is_str => {
                self.advance();
                let Tok::Str(s, _) = self.tok().clone() else {
                    return Err(self.err(936, "missing expression"));
                };
                self.advance();
                let kind = if w == "DATE" {
                    ExprKind::DateLit(s)
                } else {
                    ExprKind::TimestampLit(s)
                };
                Ok(self.mk(kind, pos))
            }
            "INTERVAL" if next_is_str => self.interval_literal(pos),
            "CASE" => self.case_expr(pos),
            "CAST" if self.at(1).tok == Tok::Op("(") => self.cast(pos),
            "TRIM" if self.at(1).tok == Tok::Op("(") => self.trim(pos),
            "EXTRACT" if self.at(1).tok == Tok::Op("(") => self.extract(pos),
            "JSON_SERIALIZE" | "VECTOR_SERIALIZE" | "XMLSERIALIZE"
                if self.at(1).tok == Tok::Op("(") =>
            {
                self.serialize(pos)
            }
            "ROWID" | "ROWNUM" | "SYSDATE" | "USER" | "UID" | "LEVEL" => self.name_or_call(pos),
            _ if super::is_reserved(w) => Err(self.err(936, "missing expression")),
            _ => self.name_or_call(pos),
        }
    }

    /// A (dotted) name, or a call when `(` follows.
    fn name_or_call(&mut self, pos: usize) -> Result<Expr, OraError> {
        let name = self
            .dotted_any()
            .ok_or_else(|| self.err(936, "missing expression"))?;
        if self.is_op("(") {
            return self.call(name, pos);
        }
        Ok(self.mk(ExprKind::Name(name), pos))
    }

    /// A dotted name whose first part may be a pseudo-column word (`ROWID`).
    fn dotted_any(&mut self) -> Option<Vec<crate::ast::Ident>> {
        let pos = self.pos();
        let first = match self.tok() {
            Tok::Word(w) => crate::ast::Ident {
                name: w.clone(),
                quoted: false,
                pos,
            },
            Tok::Quoted(q) => crate::ast::Ident {
                name: q.clone(),
                quoted: true,
                pos,
            },
            _ => return None,
        };
        self.advance();
        let mut parts = vec![first];
        while self.is_op(".") && matches!(self.at(1).tok, Tok::Word(_) | Tok::Quoted(_)) {
            self.advance();
            let p = self.pos();
            let (name, quoted) = match self.tok() {
                Tok::Word(w) => (w.clone(), false),
                Tok::Quoted(q) => (q.clone(), true),
                _ => return None,
            };
            self.advance();
            parts.push(crate::ast::Ident {
                name,
                quoted,
                pos: p,
            });
        }
        Some(parts)
    }

    fn call(&mut self, name: Vec<crate::ast::Ident>, pos: usize) -> Result<Expr, OraError> {
        self.enter()?;
        let r = self.call_inner(name, pos);
        self.leave();
        r
    }

    fn call_inner(&mut self, name: Vec<crate::ast::Ident>, pos: usize) -> Result<Expr, OraError> {
        self.advance(); // (
        let mut call = Call {
            name,
            args: Vec::new(),
            distinct: false,
            star: false,
            over: None,
        };
        if self.is_op("*") && self.at(1).tok == Tok::Op(")") {
            self.advance();
            call.star = true;
        } else if !self.is_op(")") {
            if self.eat_word("DISTINCT") || self.eat_word("UNIQUE") {
                call.distinct = true;
            } else {
                self.eat_word("ALL");
            }
            loop {
                let named = matches!(self.tok(), Tok::Word(_) | Tok::Quoted(_))
                    && self.at(1).tok == Tok::Op("=>");
                let arg_name = if named {
                    let id = self.dotted_any().and_then(|mut v| v.pop());
                    self.advance(); // =>
                    id
                } else {
                    None
                };
                let value = self.expr()?;
                call.args.push(Arg {
                    name: arg_name,
                    value,
                });
                if !self.eat_op(",") {
                    break;
                }
            }
        }
        self.close_paren()?;
        if self.is_word("WITHIN") || self.is_word("KEEP") {
            return Err(self.unimplemented("WITHIN GROUP / KEEP aggregates"));
        }
        if self.eat_word("OVER") {
            call.over = Some(self.window()?);
        }
        Ok(self.mk(ExprKind::Call(Box::new(call)), pos))
    }

    fn window(&mut self) -> Result<Window, OraError> {
        self.expect_op("(", 906, "missing left parenthesis")?;
        let mut w = Window {
            partition_by: Vec::new(),
            order_by: Vec::new(),
        };
        if self.eat_word("PARTITION") {
            self.expect_word("BY", 924, "missing BY keyword")?;
            loop {
                w.partition_by.push(self.expr()?);
                if !self.eat_op(",") {
                    break;
                }
            }
        }
        if self.eat_word("ORDER") {
            self.expect_word("BY", 924, "missing BY keyword")?;
            w.order_by = self.order_items()?;
        }
        if self.is_word("ROWS") || self.is_word("RANGE") || self.is_word("GROUPS") {
            return Err(self.unimplemented("analytic windowing clauses"));
        }
        self.close_paren()?;
        Ok(w)
    }

    pub(super) fn order_items(&mut self) -> Result<Vec<OrderItem>, OraError> {
        let mut items = Vec::new();
        loop {
            let expr = self.expr()?;
            let desc = if self.eat_word("DESC") {
                true
            } else {
                self.eat_word("ASC");
                false
            };
            let nulls_first = if self.eat_word("NULLS") {
                if self.eat_word("FIRST") {
                    Some(true)
                } else if self.eat_word("LAST") {
                    Some(false)
                } else {
                    return Err(self.err(905, "missing keyword"));
                }
            } else {
                None
            };
            items.push(OrderItem {
                expr,
                desc,
                nulls_first,
            });
            if !self.eat_op(",") {
                return Ok(items);
            }
        }
    }

    fn case_expr(&mut self, pos: usize) -> Result<Expr, OraError> {
        self.advance(); // CASE
        self.enter()?;
        let operand = if self.is_word("WHEN") {
            None
        } else {
            Some(boxed(self.expr()?))
        };
        let mut whens = Vec::new();
        while self.eat_word("WHEN") {
            let cond = if operand.is_some() {
                self.expr()?
            } else {
                self.condition()?
            };
            self.expect_word("THEN", 905, "missing keyword")?;
            whens.push((cond, self.expr()?));
        }
        if whens.is_empty() {
            return Err(self.err(905, "missing keyword"));
        }
        let otherwise = if self.eat_word("ELSE") {
            Some(boxed(self.expr()?))
        } else {
            None
        };
        self.expect_word("END", 905, "missing keyword")?;
        self.leave();
        let kind = ExprKind::Case {
            operand,
            whens,
            otherwise,
        };
        Ok(self.mk(kind, pos))
    }
}
