//! Statements: which one the first words name, DML (INSERT, UPDATE, DELETE), transaction
//! control (COMMIT, ROLLBACK, SAVEPOINT) and ALTER SESSION SET.

use super::Parser;
use crate::ast::{Delete, Ident, Insert, InsertSource, Setting, Statement, Update};
use crate::lex::Tok;
use crate::OraError;

/// Statements Oracle has that the emulator does not run: ORA-03001 naming them, not
/// ORA-00900 (which says Oracle itself would not know them).
const KNOWN_ELSEWHERE: &[&str] = &[
    "CREATE",
    "DROP",
    "MERGE",
    "GRANT",
    "REVOKE",
    "TRUNCATE",
    "LOCK",
    "EXPLAIN",
    "CALL",
    "ANALYZE",
    "AUDIT",
    "NOAUDIT",
    "COMMENT",
    "RENAME",
    "FLASHBACK",
    "PURGE",
    "SET",
    "ASSOCIATE",
    "DISASSOCIATE",
    "ADMINISTER",
    "UPSERT",
];

impl Parser<'_> {
    pub(super) fn statement(&mut self) -> Result<Statement, OraError> {
        let word = match self.tok() {
            Tok::Word(w) => w.clone(),
            Tok::Op("(") => return Ok(Statement::Query(self.query()?)),
            _ => return Err(self.err(900, "invalid SQL statement")),
        };
        match word.as_str() {
            "SELECT" | "WITH" => Ok(Statement::Query(self.query()?)),
            "INSERT" => self.insert(),
            "UPDATE" => self.update(),
            "DELETE" => self.delete(),
            "COMMIT" => {
                self.advance();
                self.eat_word("WORK");
                if self.is_word("WRITE") || self.is_word("COMMENT") || self.is_word("FORCE") {
                    return Err(self.unimplemented("COMMIT options"));
                }
                Ok(Statement::Commit)
            }
            "ROLLBACK" => {
                self.advance();
                self.eat_word("WORK");
                if self.eat_word("TO") {
                    self.eat_word("SAVEPOINT");
                    let name = self
                        .ident()
                        .ok_or_else(|| self.err(905, "missing keyword"))?;
                    return Ok(Statement::Rollback(Some(name)));
                }
                Ok(Statement::Rollback(None))
            }
            "SAVEPOINT" => {
                self.advance();
                let name = self
                    .ident()
                    .ok_or_else(|| self.err(905, "missing keyword"))?;
                Ok(Statement::Savepoint(name))
            }
            "ALTER" => self.alter(),
            w if KNOWN_ELSEWHERE.contains(&w) => {
                Err(self.unimplemented(&format!("{w} statements")))
            }
            _ => Err(self.err(900, "invalid SQL statement")),
        }
    }

    fn table_name(&mut self) -> Result<Vec<Ident>, OraError> {
        let name = self
            .dotted()
            .ok_or_else(|| self.err(903, "invalid table name"))?;
        if name.len() > 2 {
            return Err(OraError::new(933, "SQL command not properly ended").at(name[2].pos - 1));
        }
        if self.is_op("@") {
            return Err(self.unimplemented("database links"));
        }
        Ok(name)
    }

    fn dml_alias(&mut self) -> Option<Ident> {
        match self.tok() {
            Tok::Word(w) if ["RETURNING", "RETURN", "LOG", "VALUES"].contains(&w.as_str()) => None,
            _ => self.ident(),
        }
    }

    fn insert(&mut self) -> Result<Statement, OraError> {
        let pos = self.pos();
        self.advance();
        if self.is_word("ALL") || self.is_word("FIRST") {
            return Err(self.unimplemented("multitable INSERT"));
        }
        self.expect_word("INTO", 925, "missing INTO keyword")?;
        if self.is_op("(") {
            return Err(self.unimplemented("INSERT into a subquery"));
        }
        let table = self.table_name()?;
        let _alias = self.dml_alias();
        let columns =
            if self.is_op("(") && !(self.is_word_at(1, "SELECT") || self.is_word_at(1, "WITH")) {
                self.advance();
                let mut cols = Vec::new();
                loop {
                    let id = self
                        .dotted()
                        .and_then(|mut v| v.pop())
                        .ok_or_else(|| self.err(928, "missing SELECT keyword"))?;
                    cols.push(id);
                    if self.eat_op(",") {
                        continue;
                    }
                    if self.is_op(")") {
                        break;
                    }
                    return Err(self.err(917, "missing comma"));
                }
                self.close_paren()?;
                Some(cols)
            } else {
                None
            };
        let source = if self.eat_word("VALUES") {
            self.expect_op("(", 906, "missing left parenthesis")?;
            let mut values = Vec::new();
            loop {
                values.push(self.expr()?);
                if self.eat_op(",") {
                    continue;
                }
                if self.is_op(")") {
                    break;
                }
                return Err(self.err(917, "missing comma"));
            }
            self.close_paren()?;
            if self.is_op(",") {
                return Err(self.err(933, "SQL command not properly ended"));
            }
            InsertSource::Values(values)
        } else if self.is_word("SELECT") || self.is_word("WITH") || self.is_op("(") {
            InsertSource::Query(Box::new(self.query()?))
        } else {
            return Err(self.err(926, "missing VALUES keyword"));
        };
        self.no_returning()?;
        Ok(Statement::Insert(Insert {
            table,
            columns,
            source,
            pos,
        }))
    }

    fn no_returning(&self) -> Result<(), OraError> {
        if self.is_word("RETURNING") || self.is_word("RETURN") {
            return Err(self.unimplemented("RETURNING … INTO"));
        }
        if self.is_word("LOG") {
            return Err(self.unimplemented("DML error logging"));
        }
        Ok(())
    }

    fn update(&mut self) -> Result<Statement, OraError> {
        let pos = self.pos();
        self.advance();
        if self.is_op("(") {
            return Err(self.unimplemented("UPDATE of a subquery"));
        }
        let table = self.table_name()?;
        let alias = match self.tok() {
            Tok::Word(w) if w == "SET" => None,
            _ => self.dml_alias(),
        };
        self.expect_word("SET", 971, "missing SET keyword")?;
        let mut sets = Vec::new();
        loop {
            if self.is_op("(") {
                return Err(self.unimplemented("UPDATE … SET (columns) = (subquery)"));
            }
            let col = self
                .dotted()
                .and_then(|mut v| v.pop())
                .ok_or_else(|| self.err(904, "invalid identifier"))?;
            self.expect_op("=", 927, "missing equal sign")?;
            let value = self.expr()?;
            sets.push((col, value));
            if !self.eat_op(",") {
                break;
            }
        }
        let where_ = if self.eat_word("WHERE") {
            Some(self.condition()?)
        } else {
            None
        };
        self.no_returning()?;
        Ok(Statement::Update(Update {
            table,
            alias,
            sets,
            where_,
            pos,
        }))
    }

    fn delete(&mut self) -> Result<Statement, OraError> {
        let pos = self.pos();
        self.advance();
        self.eat_word("FROM");
        if self.is_op("(") {
            return Err(self.unimplemented("DELETE from a subquery"));
        }
        let table = self.table_name()?;
        let alias = match self.tok() {
            Tok::Word(w) if w == "WHERE" => None,
            _ => self.dml_alias(),
        };
        let where_ = if self.eat_word("WHERE") {
            Some(self.condition()?)
        } else {
            None
        };
        self.no_returning()?;
        Ok(Statement::Delete(Delete {
            table,
            alias,
            where_,
            pos,
        }))
    }

    fn alter(&mut self) -> Result<Statement, OraError> {
        self.advance(); // ALTER
        if !self.eat_word("SESSION") {
            return match self.tok() {
                Tok::Word(w) => {
                    let what = format!("ALTER {w}");
                    Err(self.unimplemented(&what))
                }
                _ => Err(self.err(940, "invalid ALTER command")),
            };
        }
        if !self.eat_word("SET") {
            return match self.tok() {
                Tok::Word(w)
                    if [
                        "ENABLE", "DISABLE", "FORCE", "ADVISE", "CLOSE", "SYNC", "SWITCH",
                    ]
                    .contains(&w.as_str()) =>
                {
                    Err(self.unimplemented(&format!("ALTER SESSION {w}")))
                }
                _ => Err(self.err(2248, "invalid option for ALTER SESSION")),
            };
        }
        let mut settings = Vec::new();
        loop {
            let pos = self.pos();
            let name = match self.tok() {
                Tok::Word(w) => w.clone(),
                Tok::End if !settings.is_empty() => break,
                _ => return Err(self.err(2248, "invalid option for ALTER SESSION")),
            };
            self.advance();
            // The one three-word clause (SQL Reference, ALTER SESSION, 12.1 and later):
            // `ROW ARCHIVAL VISIBILITY = { ACTIVE | ALL }`.
            let name = if name == "ROW" {
                if !(self.eat_word("ARCHIVAL") && self.eat_word("VISIBILITY")) {
                    return Err(self.err(2248, "invalid option for ALTER SESSION"));
                }
                "ROW ARCHIVAL VISIBILITY".to_string()
            } else {
                name
            };
            self.expect_op("=", 2248, "invalid option for ALTER SESSION")?;
            let neg = self.eat_op("-");
            let value = match self.tok() {
                Tok::Str(s, _) => s.clone(),
                Tok::Num(n) => format!("{}{n}", if neg { "-" } else { "" }),
                Tok::Word(w) if !neg => w.clone(),
                Tok::Quoted(q) if !neg => q.clone(),
                _ => return Err(self.err(922, "missing or invalid option")),
            };
            self.advance();
            settings.push(Setting { name, value, pos });
            if matches!(self.tok(), Tok::End | Tok::Op(";")) {
                break;
            }
        }
        Ok(Statement::AlterSession(settings))
    }
}
