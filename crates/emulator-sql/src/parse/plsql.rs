//! Anonymous PL/SQL blocks without declarations: `BEGIN … END;` holding procedure calls with
//! positional or named arguments, `EXECUTE IMMEDIATE`, `:bind := expr`, static DML, COMMIT /
//! ROLLBACK / SAVEPOINT, `NULL;` and nested blocks. A syntax error is ORA-06550 with the
//! line and column, as Oracle reports PL/SQL compilation errors.

use super::Parser;
use crate::ast::{Arg, Block, PlKind, PlStmt, Statement};
use crate::lex::Tok;
use crate::OraError;

/// PL/SQL statements the emulator does not run (ORA-03001 naming them).
const CONTROL: &[&str] = &[
    "IF", "LOOP", "WHILE", "FOR", "FORALL", "CASE", "RETURN", "RAISE", "GOTO", "EXIT", "CONTINUE",
    "OPEN", "FETCH", "CLOSE", "PIPE", "DECLARE", "PRAGMA", "MERGE", "LOCK", "SET",
];

impl Parser<'_> {
    pub(super) fn block_statement(&mut self) -> Result<Statement, OraError> {
        let r = self.top_block();
        r.map_err(|e| self.pls_error(e))
    }

    fn top_block(&mut self) -> Result<Statement, OraError> {
        if self.is_word("DECLARE") {
            return Err(self.unimplemented("PL/SQL declarations (DECLARE)"));
        }
        let b = self.block()?;
        // SQL*Plus's `/` terminator is not part of a statement; tolerate it at the end.
        if self.is_op("/") && self.at(1).tok == Tok::End {
            self.advance();
        }
        if self.tok() != &Tok::End {
            return Err(self.err(6550, "encountered text after END;"));
        }
        Ok(Statement::Block(b))
    }

    fn block(&mut self) -> Result<Block, OraError> {
        self.enter()?;
        self.expect_word("BEGIN", 6550, "expected BEGIN")?;
        let mut body = Vec::new();
        while !self.is_word("END") {
            if self.is_word("EXCEPTION") {
                return Err(self.unimplemented("PL/SQL exception handlers"));
            }
            if self.tok() == &Tok::End {
                return Err(self.err(6550, "expected END"));
            }
            body.push(self.pl_statement()?);
        }
        if body.is_empty() {
            return Err(self.err(6550, "a block needs at least one statement"));
        }
        self.advance(); // END
        if let Tok::Word(_) | Tok::Quoted(_) = self.tok() {
            self.advance(); // the block's label
        }
        self.expect_op(";", 6550, "expected ;")?;
        self.leave();
        Ok(Block { body })
    }

    fn pl_statement(&mut self) -> Result<PlStmt, OraError> {
        let pos = self.pos();
        let kind = match self.tok().clone() {
            Tok::Word(w) => match w.as_str() {
                "NULL" => {
                    self.advance();
                    PlKind::Null
                }
                "BEGIN" => {
                    return Ok(PlStmt {
                        kind: PlKind::Block(self.block()?),
                        pos,
                    })
                }
                "EXECUTE" if self.is_word_at(1, "IMMEDIATE") => self.execute_immediate()?,
                "COMMIT" | "ROLLBACK" | "SAVEPOINT" | "INSERT" | "UPDATE" | "DELETE" => {
                    PlKind::Sql(self.statement()?)
                }
                "SELECT" | "WITH" => {
                    let _ = self.statement()?;
                    return Err(OraError::new(
                        6550,
                        "PLS-00428: an INTO clause is expected in this SELECT statement",
                    )
                    .at(pos));
                }
                w if CONTROL.contains(&w) => {
                    return Err(self.unimplemented(&format!("the PL/SQL {w} statement")))
                }
                _ => self.call_statement()?,
            },
            Tok::Quoted(_) => self.call_statement()?,
            Tok::Bind(name) => {
                self.advance();
                let bind = self.bind_index(&name);
                self.expect_op(":=", 6550, "expected :=")?;
                let value = self.expr()?;
                PlKind::Assign { bind, value }
            }
            _ => return Err(self.err(6550, "expected a statement")),
        };
        self.expect_op(";", 6550, "expected ;")?;
        Ok(PlStmt { kind, pos })
    }

    fn execute_immediate(&mut self) -> Result<PlKind, OraError> {
        self.advance();
        self.advance(); // EXECUTE IMMEDIATE
        let sql = self.expr()?;
        if self.is_word("INTO") || self.is_word("BULK") {
            return Err(self.unimplemented("EXECUTE IMMEDIATE … INTO"));
        }
        let mut using = Vec::new();
        if self.eat_word("USING") {
            loop {
                if self.is_word("OUT") || (self.is_word("IN") && self.is_word_at(1, "OUT")) {
                    return Err(self.unimplemented("OUT arguments of EXECUTE IMMEDIATE"));
                }
                self.eat_word("IN");
                using.push(self.expr()?);
                if !self.eat_op(",") {
                    break;
                }
            }
        }
        if self.is_word("RETURNING") || self.is_word("RETURN") {
            return Err(self.unimplemented("EXECUTE IMMEDIATE … RETURNING"));
        }
        Ok(PlKind::ExecuteImmediate { sql, using })
    }

    fn call_statement(&mut self) -> Result<PlKind, OraError> {
        let pos = self.pos();
        let name = self
            .dotted_any_pub()
            .ok_or_else(|| self.err(6550, "expected a statement"))?;
        if self.is_op(":=") {
            let full: Vec<&str> = name.iter().map(|i| i.name.as_str()).collect();
            return Err(OraError::new(
                6550,
                format!(
                    "PLS-00201: identifier '{}' must be declared",
                    full.join(".")
                ),
            )
            .at(pos));
        }
        let mut args = Vec::new();
        if self.eat_op("(") {
            if !self.is_op(")") {
                loop {
                    let named = matches!(self.tok(), Tok::Word(_) | Tok::Quoted(_))
                        && self.at(1).tok == Tok::Op("=>");
                    let arg_name = if named {
                        let id = self.dotted_any_pub().and_then(|mut v| v.pop());
                        self.advance(); // =>
                        id
                    } else {
                        None
                    };
                    let value = self.expr()?;
                    args.push(Arg {
                        name: arg_name,
                        value,
                    });
                    if !self.eat_op(",") {
                        break;
                    }
                }
            }
            self.close_paren()?;
        }
        Ok(PlKind::Call { name, args })
    }

    fn dotted_any_pub(&mut self) -> Option<Vec<crate::ast::Ident>> {
        let mut parts = Vec::new();
        loop {
            let pos = self.pos();
            let (name, quoted) = match self.tok() {
                Tok::Word(w) => (w.clone(), false),
                Tok::Quoted(q) => (q.clone(), true),
                _ => return None,
            };
            self.advance();
            parts.push(crate::ast::Ident { name, quoted, pos });
            if !(self.is_op(".") && matches!(self.at(1).tok, Tok::Word(_) | Tok::Quoted(_))) {
                return Some(parts);
            }
            self.advance();
        }
    }

    /// A syntax error inside a block, as PL/SQL reports it: ORA-06550 with the line and
    /// column, then the PLS error (ORA-03001 for what the emulator does not run stays itself).
    fn pls_error(&self, e: OraError) -> OraError {
        if e.code == 3001 || e.message.starts_with("ORA-06550: line") {
            return e;
        }
        let at = e
            .position
            .map_or(self.text.len(), |p| p as usize)
            .min(self.text.len());
        let (line, column) = crate::names::line_column(self.text, at);
        let symbol = self
            .toks
            .iter()
            .find(|t| t.pos >= at)
            .map(|t| match t.tok {
                Tok::End => "end-of-file".to_string(),
                _ => self.text[t.pos..t.end].to_string(),
            })
            .unwrap_or_else(|| "end-of-file".into());
        let detail = e
            .message
            .split_once(": ")
            .map_or(e.message.as_str(), |(_, d)| d);
        let text = if detail.starts_with("PLS-") {
            format!("line {line}, column {column}:\n{detail}")
        } else {
            format!(
                "line {line}, column {column}:\nPLS-00103: Encountered the symbol \"{symbol}\" ({detail})"
            )
        };
        OraError::new(6550, text).at(at)
    }
}
