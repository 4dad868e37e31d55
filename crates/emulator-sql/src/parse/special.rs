//! Expressions with their own syntax (CAST, TRIM, EXTRACT, the *SERIALIZE functions, INTERVAL
//! literals) and the type names CAST takes.

use super::Parser;
use crate::ast::{Expr, ExprKind, IntervalUnit};
use crate::lex::Tok;
use crate::OraError;
use oracle_datum::OraType;

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl Parser<'_> {
    pub(super) fn cast(&mut self, pos: usize) -> Result<Expr, OraError> {
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

    pub(super) fn trim(&mut self, pos: usize) -> Result<Expr, OraError> {
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

    pub(super) fn extract(&mut self, pos: usize) -> Result<Expr, OraError> {
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
    pub(super) fn serialize(&mut self, pos: usize) -> Result<Expr, OraError> {
        let function: &'static str = match self.tok() {
            Tok::Word(w) if w == "JSON_SERIALIZE" => "JSON_SERIALIZE",
            Tok::Word(w) if w == "VECTOR_SERIALIZE" => "VECTOR_SERIALIZE",
            _ => "XMLSERIALIZE",
        };
        self.advance();
        self.advance(); // (
        if function == "XMLSERIALIZE" && !(self.eat_word("CONTENT") || self.eat_word("DOCUMENT")) {
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

    pub(super) fn interval_literal(&mut self, pos: usize) -> Result<Expr, OraError> {
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
    pub(super) fn precision(&mut self) -> Result<Vec<i64>, OraError> {
        let mut out = Vec::new();
        if !self.eat_op("(") {
            return Ok(out);
        }
        loop {
            let neg = self.eat_op("-");
            let n = match self.tok() {
                Tok::Num(s) => s.parse::<i64>().map_err(|_| {
                    self.err(
                        1727,
                        "numeric precision specifier is out of range (1 to 38)",
                    )
                })?,
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

    pub(super) fn skip_precision(&mut self) -> Result<(), OraError> {
        self.precision().map(|_| ())
    }
}
