//! Recursive-descent parser: statements (`stmt.rs`), queries (`query.rs`), conditions and
//! expressions (`expr.rs`), PL/SQL blocks (`plsql.rs`). Errors are Oracle's, with the byte
//! offset of the token they point at (converted to characters at the API boundary).
//!
//! Placeholders are numbered here because the numbering depends on the statement kind: in SQL
//! each occurrence takes the next positional bind (what OCI and the thin drivers send for a
//! repeated name), in a PL/SQL block each distinct name takes one.

mod expr;
mod plsql;
mod query;
mod special;
mod stmt;
mod types;

use crate::ast::{Ident, Statement};
use crate::lex::{lex, Tok, Token};
use crate::OraError;

/// A parsed statement and its placeholders' names, by bind index.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub stmt: Statement,
    pub binds: Vec<String>,
    /// The text names ROWID somewhere (the pseudo-column, or anything so named). A query that
    /// does not never reads a ROWID, so its scans need not make them.
    pub names_rowid: bool,
    /// The names the text writes (unquoted words upper-cased, quoted ones as written), or
    /// `None` when it selects `*` or `t.*` somewhere: a superset of the columns it references.
    pub names: Option<Vec<String>>,
}

/// How deep parentheses, subqueries and calls may nest: keeps recursion (here and in the
/// evaluator) far from the stack's end on any input.
const MAX_DEPTH: usize = 96;

/// Words that cannot be identifiers (Oracle's reserved words, less the pseudo-columns and
/// niladic functions that are parsed as names and resolved later).
const RESERVED: &[&str] = &[
    "ACCESS",
    "ADD",
    "ALL",
    "ALTER",
    "AND",
    "ANY",
    "AS",
    "ASC",
    "AUDIT",
    "BETWEEN",
    "BY",
    "CHAR",
    "CHECK",
    "CLUSTER",
    "COLUMN",
    "COMMENT",
    "COMPRESS",
    "CONNECT",
    "CREATE",
    "CURRENT",
    "DATE",
    "DECIMAL",
    "DEFAULT",
    "DELETE",
    "DESC",
    "DISTINCT",
    "DROP",
    "ELSE",
    "EXCLUSIVE",
    "EXISTS",
    "FILE",
    "FLOAT",
    "FOR",
    "FROM",
    "GRANT",
    "GROUP",
    "HAVING",
    "IDENTIFIED",
    "IMMEDIATE",
    "IN",
    "INCREMENT",
    "INDEX",
    "INITIAL",
    "INSERT",
    "INTEGER",
    "INTERSECT",
    "INTO",
    "IS",
    "LIKE",
    "LOCK",
    "LONG",
    "MAXEXTENTS",
    "MINUS",
    "MLSLABEL",
    "MODE",
    "MODIFY",
    "NOAUDIT",
    "NOCOMPRESS",
    "NOT",
    "NOWAIT",
    "NULL",
    "NUMBER",
    "OF",
    "OFFLINE",
    "ON",
    "ONLINE",
    "OPTION",
    "OR",
    "ORDER",
    "PCTFREE",
    "PRIOR",
    "PUBLIC",
    "RAW",
    "RENAME",
    "RESOURCE",
    "REVOKE",
    "ROW",
    "ROWS",
    "SELECT",
    "SESSION",
    "SET",
    "SHARE",
    "SIZE",
    "SMALLINT",
    "START",
    "SUCCESSFUL",
    "SYNONYM",
    "TABLE",
    "THEN",
    "TO",
    "TRIGGER",
    "UNION",
    "UNIQUE",
    "UPDATE",
    "VALIDATE",
    "VALUES",
    "VARCHAR",
    "VARCHAR2",
    "VIEW",
    "WHENEVER",
    "WHERE",
    "WITH",
];

pub fn is_reserved(word: &str) -> bool {
    RESERVED.contains(&word)
}

pub struct Parser<'a> {
    text: &'a str,
    toks: Vec<Token>,
    i: usize,
    /// Number binds by distinct name (PL/SQL) rather than by occurrence (SQL).
    plsql: bool,
    binds: Vec<String>,
    depth: usize,
}

/// Parse one statement (SQL or a PL/SQL block) as a client sends it.
pub fn parse(text: &str) -> Result<Parsed, OraError> {
    let toks = lex(text)?;
    let names_rowid = toks
        .iter()
        .any(|t| matches!(&t.tok, Tok::Word(w) | Tok::Quoted(w) if w == "ROWID"));
    let names = written_names(&toks);
    let plsql = matches!(&toks[0].tok, Tok::Word(w) if w == "BEGIN" || w == "DECLARE");
    let mut p = Parser {
        text,
        toks,
        i: 0,
        plsql,
        binds: Vec::new(),
        depth: 0,
    };
    let stmt = if plsql {
        p.block_statement()?
    } else {
        let s = p.statement()?;
        p.end_of_sql()?;
        s
    };
    Ok(Parsed {
        stmt,
        binds: p.binds,
        names_rowid,
        names,
    })
}

/// [`Parsed::names`]: a `*` after SELECT (DISTINCT, UNIQUE, ALL), `.` or `,` is a wildcard;
/// after anything else it multiplies, or counts (`COUNT(*)`), and references no column.
fn written_names(toks: &[Token]) -> Option<Vec<String>> {
    let mut names: Vec<String> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match &t.tok {
            Tok::Word(w) | Tok::Quoted(w) => names.push(w.clone()),
            Tok::Op("*") if i > 0 => {
                let wildcard = match &toks[i - 1].tok {
                    Tok::Word(w) => matches!(w.as_str(), "SELECT" | "DISTINCT" | "UNIQUE" | "ALL"),
                    Tok::Op(o) => matches!(*o, "." | ","),
                    _ => false,
                };
                if wildcard {
                    return None;
                }
            }
            _ => {}
        }
    }
    names.sort();
    names.dedup();
    Some(names)
}

impl<'a> Parser<'a> {
    fn tok(&self) -> &Tok {
        &self.at(0).tok
    }

    fn at(&self, k: usize) -> &Token {
        // The list always ends with End; reading never passes it.
        let last = self.toks.len() - 1;
        &self.toks[(self.i + k).min(last)]
    }

    fn pos(&self) -> usize {
        self.at(0).pos
    }

    /// End of the previous token (where an expression that just ended ends).
    fn prev_end(&self) -> usize {
        if self.i == 0 {
            0
        } else {
            self.toks[(self.i - 1).min(self.toks.len() - 1)].end
        }
    }

    fn advance(&mut self) {
        if self.i + 1 < self.toks.len() {
            self.i += 1;
        }
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.tok(), Tok::Word(x) if x == w)
    }

    fn is_word_at(&self, k: usize, w: &str) -> bool {
        matches!(&self.at(k).tok, Tok::Word(x) if x == w)
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(self.tok(), Tok::Op(o) if *o == op)
    }

    fn eat_word(&mut self, w: &str) -> bool {
        let hit = self.is_word(w);
        if hit {
            self.advance();
        }
        hit
    }

    fn eat_op(&mut self, op: &str) -> bool {
        let hit = self.is_op(op);
        if hit {
            self.advance();
        }
        hit
    }

    fn err(&self, code: u32, text: &str) -> OraError {
        OraError::new(code, text).at(self.pos())
    }

    fn expect_word(&mut self, w: &str, code: u32, text: &str) -> Result<(), OraError> {
        if self.eat_word(w) {
            Ok(())
        } else {
            Err(self.err(code, text))
        }
    }

    fn expect_op(&mut self, op: &str, code: u32, text: &str) -> Result<(), OraError> {
        if self.eat_op(op) {
            Ok(())
        } else {
            Err(self.err(code, text))
        }
    }

    fn close_paren(&mut self) -> Result<(), OraError> {
        self.expect_op(")", 907, "missing right parenthesis")
    }

    fn unimplemented(&self, what: &str) -> OraError {
        crate::unimplemented(what).at(self.pos())
    }

    fn enter(&mut self) -> Result<(), OraError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.unimplemented("statements nested more than 96 levels deep"));
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// An identifier that is not a reserved word (or any quoted one).
    fn ident(&mut self) -> Option<Ident> {
        let pos = self.pos();
        let id = match self.tok() {
            Tok::Word(w) if !is_reserved(w) => Ident {
                name: w.clone(),
                quoted: false,
                pos,
            },
            Tok::Quoted(q) => Ident {
                name: q.clone(),
                quoted: true,
                pos,
            },
            _ => return None,
        };
        self.advance();
        Some(id)
    }

    /// A dotted name `a[.b[.c]]` (reserved words allowed after a dot, as `t.ROWID`).
    fn dotted(&mut self) -> Option<Vec<Ident>> {
        let first = self.ident()?;
        let mut parts = vec![first];
        while self.is_op(".") {
            let pos = self.at(1).pos;
            let next = match &self.at(1).tok {
                Tok::Word(w) => Ident {
                    name: w.clone(),
                    quoted: false,
                    pos,
                },
                Tok::Quoted(q) => Ident {
                    name: q.clone(),
                    quoted: true,
                    pos,
                },
                _ => break,
            };
            self.advance();
            self.advance();
            parts.push(next);
        }
        Some(parts)
    }

    /// A placeholder: its bind index, numbered the SQL or the PL/SQL way.
    fn bind_index(&mut self, name: &str) -> usize {
        if self.plsql {
            if let Some(i) = self.binds.iter().position(|n| n == name) {
                return i;
            }
        }
        self.binds.push(name.to_string());
        self.binds.len() - 1
    }

    /// After a SQL statement: the end, or ORA-00911 for a `;` (clients strip it; Oracle's
    /// SQL has no statement terminator) and ORA-00933 for anything else.
    fn end_of_sql(&self) -> Result<(), OraError> {
        match self.tok() {
            Tok::End => Ok(()),
            Tok::Op(";") => Err(self.err(911, "invalid character")),
            _ => Err(self.err(933, "SQL command not properly ended")),
        }
    }

    /// The statement's text of a span with whitespace and comments outside quotes removed
    /// and letters outside quotes upper-cased: the name Oracle gives an unaliased column.
    fn column_text(&self, from: usize, to: usize) -> String {
        crate::names::expression_name(&self.text[from..to.min(self.text.len())])
    }
}
