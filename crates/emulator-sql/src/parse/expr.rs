//! Conditions (OR, AND, NOT, predicates) and expressions (arithmetic, `||`, literals, names,
//! calls, CASE, CAST and the functions with their own syntax), with Oracle's precedence.

use super::Parser;
use crate::ast::{
    ArithOp, Arg, Call, CmpOp, Expr, ExprKind, IntervalUnit, OrderItem, TypeName, Window,
};
use crate::lex::Tok;
use crate::OraError;
use oracle_datum::OraType;

/// Oracle's limit on an expression list (ORA-01795).
const MAX_LIST: usize = 1000;

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl Parser<'_> {
    fn mk(&self, kind: ExprKind, pos: usize) -> Expr {
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
            let inner = self.not_condition()?;
            return Ok(self.mk(ExprKind::Not(boxed(inner)), pos));
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
                Err(e) if self.is_op(",") && e.code == 3001 => return Err(e),
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

    fn cast(&mut self, pos: usize) -> Result<Expr, OraError> {
        self.advance();
        self.advance(); // CAST (
        if self.is_word("MULTISET") {
            return Err(self.unimplemented("CAST(MULTISET …)"));
        }
        let x = self.expr()?;
        self.expect_word("AS", 905, "missing keyword")?;
        let ty = self.type_name()?;
        self.close_paren()?;
        Ok(self.mk(ExprKind::Cast(boxed(x), ty), pos))
    }

    fn trim(&mut self, pos: usize) -> Result<Expr, OraError> {
        self.advance();
        self.advance(); // TRIM (
        let mode = if self.eat_word("LEADING") {
            Some('L')
        } else if self.eat_word("TRAILING") {
            Some('T')
        } else if self.eat_word("BOTH") {
            Some('B')
        } else {
            None
        };
        let (set, from) = if mode.is_some() && self.eat_word("FROM") {
            (None, self.expr()?)
        } else {
            let first = self.expr()?;
            if self.eat_word("FROM") {
                (Some(boxed(first)), self.expr()?)
            } else if mode.is_some() {
                return Err(self.err(905, "missing keyword"));
            } else {
                (None, first)
            }
        };
        self.close_paren()?;
        let kind = ExprKind::Trim {
            mode: mode.unwrap_or('B'),
            set,
            from: boxed(from),
        };
        Ok(self.mk(kind, pos))
    }

    fn extract(&mut self, pos: usize) -> Result<Expr, OraError> {
        self.advance();
        self.advance(); // EXTRACT (
        let field = match self.tok() {
            Tok::Word(w) => w.clone(),
            _ => return Err(self.err(905, "missing keyword")),
        };
        const FIELDS: [&str; 10] = [
            "YEAR",
            "MONTH",
            "DAY",
            "HOUR",
            "MINUTE",
            "SECOND",
            "TIMEZONE_HOUR",
            "TIMEZONE_MINUTE",
            "TIMEZONE_REGION",
            "TIMEZONE_ABBR",
        ];
        if !FIELDS.contains(&field.as_str()) {
            return Err(self.err(907, "missing right parenthesis"));
        }
        self.advance();
        self.expect_word("FROM", 923, "FROM keyword not found where expected")?;
        let from = self.expr()?;
        self.close_paren()?;
        Ok(self.mk(
            ExprKind::Extract {
                field,
                from: boxed(from),
            },
            pos,
        ))
    }

    /// JSON_SERIALIZE / VECTOR_SERIALIZE (`x [RETURNING type]`) and XMLSERIALIZE
    /// (`CONTENT|DOCUMENT x [AS type]`).
    fn serialize(&mut self, pos: usize) -> Result<Expr, OraError> {
        let function: &'static str = match self.tok() {
            Tok::Word(w) if w == "JSON_SERIALIZE" => "JSON_SERIALIZE",
            Tok::Word(w) if w == "VECTOR_SERIALIZE" => "VECTOR_SERIALIZE",
            _ => "XMLSERIALIZE",
        };
        self.advance();
        self.advance(); // (
        if function == "XMLSERIALIZE" && !(self.eat_word("CONTENT") || self.eat_word("DOCUMENT"))
        {
            return Err(self.err(905, "missing keyword"));
        }
        let arg = self.expr()?;
        let keyword = if function == "XMLSERIALIZE" {
            "AS"
        } else {
            "RETURNING"
        };
        let returning = if self.eat_word(keyword) {
            let t = self.type_name()?;
            match t.ora {
                OraType::Clob | OraType::Varchar2(_) | OraType::Blob | OraType::NClob => t.ora,
                _ => return Err(OraError::new(902, "invalid datatype").at(t.pos)),
            }
        } else if function == "XMLSERIALIZE" {
            OraType::Clob
        } else {
            OraType::Varchar2(4000)
        };
        if !self.is_op(")") {
            return Err(self.unimplemented(&format!("{function} options")));
        }
        self.close_paren()?;
        let kind = ExprKind::Serialize {
            arg: boxed(arg),
            returning,
        };
        Ok(self.mk(kind, pos))
    }

    fn interval_literal(&mut self, pos: usize) -> Result<Expr, OraError> {
        self.advance(); // INTERVAL
        let Tok::Str(text, _) = self.tok().clone() else {
            return Err(self.err(936, "missing expression"));
        };
        self.advance();
        let lead = match self.tok() {
            Tok::Word(w) => w.clone(),
            _ => return Err(self.err(905, "missing keyword")),
        };
        self.advance();
        self.skip_precision()?;
        let unit = if self.eat_word("TO") {
            let to = match self.tok() {
                Tok::Word(w) => w.clone(),
                _ => return Err(self.err(905, "missing keyword")),
            };
            self.advance();
            self.skip_precision()?;
            match (lead.as_str(), to.as_str()) {
                ("YEAR", "MONTH") => IntervalUnit::YearToMonth,
                ("DAY", "SECOND") => IntervalUnit::DayToSecond,
                ("DAY", "HOUR") => IntervalUnit::DayToHour,
                ("DAY", "MINUTE") => IntervalUnit::DayToMinute,
                ("HOUR", "MINUTE") => IntervalUnit::HourToMinute,
                ("HOUR", "SECOND") => IntervalUnit::HourToSecond,
                ("MINUTE", "SECOND") => IntervalUnit::MinuteToSecond,
                _ => return Err(self.err(905, "missing keyword")),
            }
        } else {
            match lead.as_str() {
                "YEAR" => IntervalUnit::Year,
                "MONTH" => IntervalUnit::Month,
                "DAY" => IntervalUnit::Day,
                "HOUR" => IntervalUnit::Hour,
                "MINUTE" => IntervalUnit::Minute,
                "SECOND" => IntervalUnit::Second,
                _ => return Err(self.err(905, "missing keyword")),
            }
        };
        Ok(self.mk(ExprKind::IntervalLit { text, unit }, pos))
    }

    /// `(p)` or `(p, s)` after a type word: the numbers.
    fn precision(&mut self) -> Result<Vec<i64>, OraError> {
        let mut out = Vec::new();
        if !self.eat_op("(") {
            return Ok(out);
        }
        loop {
            let neg = self.eat_op("-");
            let n = match self.tok() {
                Tok::Num(s) => s
                    .parse::<i64>()
                    .map_err(|_| self.err(1727, "numeric precision specifier is out of range (1 to 38)"))?,
                Tok::Op("*") => 38,
                _ => return Err(self.err(936, "missing expression")),
            };
            self.advance();
            out.push(if neg { -n } else { n });
            // `VARCHAR2(10 CHAR)`.
            let _ = self.eat_word("CHAR") || self.eat_word("BYTE");
            if !self.eat_op(",") {
                break;
            }
        }
        self.close_paren()?;
        Ok(out)
    }

    fn skip_precision(&mut self) -> Result<(), OraError> {
        self.precision().map(|_| ())
    }

    /// A type name as CAST and the *SERIALIZE functions take it.
    pub(super) fn type_name(&mut self) -> Result<TypeName, OraError> {
        let pos = self.pos();
        let word = match self.tok() {
            Tok::Word(w) => w.clone(),
            _ => return Err(self.err(902, "invalid datatype")),
        };
        self.advance();
        let size = |v: &[i64], default: i64| -> u32 {
            u32::try_from(v.first().copied().unwrap_or(default)).unwrap_or(0)
        };
        let ora = match word.as_str() {
            "NUMBER" | "NUMERIC" | "DECIMAL" | "DEC" => {
                let p = self.precision()?;
                let precision = p.first().map_or(Ok(0), |&x| {
                    u8::try_from(x).ok().filter(|x| (1..=38).contains(x)).ok_or_else(|| {
                        OraError::new(1727, "numeric precision specifier is out of range (1 to 38)").at(pos)
                    })
                })?;
                let scale = match p.get(1) {
                    Some(&s) => i8::try_from(s).ok().filter(|s| (-84..=127).contains(s)).ok_or_else(|| {
                        OraError::new(1728, "numeric scale specifier is out of range (-84 to 127)").at(pos)
                    })?,
                    None if precision == 0 => -127,
                    None => 0,
                };
                OraType::Number { precision, scale }
            }
            "INTEGER" | "INT" | "SMALLINT" => OraType::Number {
                precision: 38,
                scale: 0,
            },
            "FLOAT" => {
                let p = self.precision()?;
                OraType::Float(u8::try_from(p.first().copied().unwrap_or(126)).unwrap_or(126))
            }
            "BINARY_FLOAT" => OraType::BinaryFloat,
            "BINARY_DOUBLE" => OraType::BinaryDouble,
            "VARCHAR2" | "VARCHAR" | "NVARCHAR2" | "RAW" => {
                if !self.is_op("(") {
                    return Err(self.err(906, "missing left parenthesis"));
                }
                let p = self.precision()?;
                let n = size(&p, 1);
                if n == 0 || n > 32767 {
                    return Err(OraError::new(910, "specified length too long for its datatype").at(pos));
                }
                match word.as_str() {
                    "NVARCHAR2" => OraType::NVarchar2(n),
                    "RAW" => OraType::Raw(n),
                    _ => OraType::Varchar2(n),
                }
            }
            "CHAR" | "NCHAR" => {
                let p = self.precision()?;
                let n = size(&p, 1);
                if word == "CHAR" {
                    OraType::Char(n)
                } else {
                    OraType::NChar(n)
                }
            }
            "DATE" => OraType::Date,
            "TIMESTAMP" => {
                let p = self.precision()?;
                let fs = u8::try_from(p.first().copied().unwrap_or(6)).unwrap_or(6).min(9);
                if self.eat_word("WITH") {
                    let local = self.eat_word("LOCAL");
                    self.expect_word("TIME", 905, "missing keyword")?;
                    self.expect_word("ZONE", 905, "missing keyword")?;
                    if local {
                        OraType::TimestampLtz(fs)
                    } else {
                        OraType::TimestampTz(fs)
                    }
                } else {
                    OraType::Timestamp(fs)
                }
            }
            "INTERVAL" => {
                let lead = match self.tok() {
                    Tok::Word(w) => w.clone(),
                    _ => return Err(self.err(902, "invalid datatype")),
                };
                self.advance();
                let p = self.precision()?;
                self.expect_word("TO", 905, "missing keyword")?;
                self.advance();
                let q = self.precision()?;
                let lead_p = u8::try_from(p.first().copied().unwrap_or(2)).unwrap_or(2);
                match lead.as_str() {
                    "YEAR" => OraType::IntervalYm(lead_p),
                    "DAY" => OraType::IntervalDs(
                        lead_p,
                        u8::try_from(q.first().copied().unwrap_or(6)).unwrap_or(6),
                    ),
                    _ => return Err(OraError::new(902, "invalid datatype").at(pos)),
                }
            }
            "CLOB" => OraType::Clob,
            "NCLOB" => OraType::NClob,
            "BLOB" => OraType::Blob,
            "ROWID" => OraType::Rowid,
            "UROWID" => {
                self.skip_precision()?;
                OraType::Urowid
            }
            "BOOLEAN" => OraType::Boolean,
            "LONG" => {
                if self.eat_word("RAW") {
                    OraType::LongRaw
                } else {
                    OraType::Long
                }
            }
            _ => return Err(OraError::new(902, "invalid datatype").at(pos)),
        };
        Ok(TypeName { ora, pos })
    }
}
