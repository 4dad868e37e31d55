//! Queries: SELECT blocks, UNION ALL, ORDER BY, OFFSET / FETCH FIRST, FROM lists with joins,
//! inline views and `AS OF SCN`.

use super::Parser;
use crate::ast::{Ident, JoinKind, Query, Select, SelectItem, SetExpr, TableExpr};
use crate::lex::Tok;
use crate::OraError;

/// Words that end a table reference where an alias could stand.
const NOT_ALIAS: &[&str] = &[
    "JOIN",
    "INNER",
    "LEFT",
    "RIGHT",
    "FULL",
    "CROSS",
    "NATURAL",
    "OUTER",
    "FETCH",
    "OFFSET",
    "PIVOT",
    "UNPIVOT",
    "MODEL",
    "PARTITION",
    "SAMPLE",
    "VERSIONS",
    "RETURNING",
    "RETURN",
    "LOG",
    "APPLY",
    "USING",
    "LIMIT",
];

impl Parser<'_> {
    /// A query in parentheses or after IN / EXISTS: one nesting level deeper.
    pub(super) fn subquery(&mut self) -> Result<Query, OraError> {
        self.enter()?;
        let q = self.query();
        self.leave();
        q
    }

    pub(super) fn query(&mut self) -> Result<Query, OraError> {
        let pos = self.pos();
        if self.is_word("WITH") {
            return Err(self.unimplemented("WITH (subquery factoring)"));
        }
        let body = self.set_expr()?;
        let mut q = Query {
            body,
            order_by: Vec::new(),
            offset: None,
            fetch: None,
            pos,
        };
        if self.eat_word("ORDER") {
            if self.is_word("SIBLINGS") {
                return Err(self.unimplemented("ORDER SIBLINGS BY"));
            }
            self.expect_word("BY", 924, "missing BY keyword")?;
            q.order_by = self.order_items()?;
        }
        if self.eat_word("OFFSET") {
            q.offset = Some(self.expr()?);
            if !(self.eat_word("ROWS") || self.eat_word("ROW")) {
                return Err(self.err(905, "missing keyword"));
            }
        }
        if self.eat_word("FETCH") {
            if !(self.eat_word("FIRST") || self.eat_word("NEXT")) {
                return Err(self.err(905, "missing keyword"));
            }
            let n = if self.is_word("ROW") || self.is_word("ROWS") {
                None
            } else {
                Some(self.expr()?)
            };
            if self.is_word("PERCENT") {
                return Err(self.unimplemented("FETCH … PERCENT"));
            }
            if !(self.eat_word("ROWS") || self.eat_word("ROW")) {
                return Err(self.err(905, "missing keyword"));
            }
            if self.is_word("WITH") {
                return Err(self.unimplemented("FETCH … WITH TIES"));
            }
            self.expect_word("ONLY", 905, "missing keyword")?;
            q.fetch = Some(n.unwrap_or_else(|| crate::ast::Expr {
                kind: crate::ast::ExprKind::Num("1".into()),
                pos: self.pos(),
                end: self.pos(),
            }));
        }
        if self.is_word("FOR") {
            return Err(self.unimplemented("SELECT … FOR UPDATE"));
        }
        Ok(q)
    }

    fn set_expr(&mut self) -> Result<SetExpr, OraError> {
        let mut left = self.set_primary()?;
        loop {
            let pos = self.pos();
            if self.eat_word("UNION") {
                if !self.eat_word("ALL") {
                    return Err(
                        OraError::new(3001, "unimplemented feature (UNION without ALL)").at(pos),
                    );
                }
                let right = self.set_primary()?;
                left = SetExpr::UnionAll(Box::new(left), Box::new(right));
            } else if self.is_word("INTERSECT") || self.is_word("MINUS") || self.is_word("EXCEPT") {
                return Err(self.unimplemented("INTERSECT / MINUS"));
            } else {
                return Ok(left);
            }
        }
    }

    fn set_primary(&mut self) -> Result<SetExpr, OraError> {
        if self.is_op("(") {
            self.advance();
            let q = self.subquery()?;
            self.close_paren()?;
            return Ok(SetExpr::Nested(Box::new(q)));
        }
        if !self.is_word("SELECT") {
            return Err(self.err(928, "missing SELECT keyword"));
        }
        Ok(SetExpr::Select(Box::new(self.select()?)))
    }

    fn select(&mut self) -> Result<Select, OraError> {
        let pos = self.pos();
        self.advance(); // SELECT
        let distinct = if self.eat_word("DISTINCT") || self.eat_word("UNIQUE") {
            true
        } else {
            self.eat_word("ALL");
            false
        };
        let mut items = Vec::new();
        loop {
            items.push(self.select_item()?);
            if !self.eat_op(",") {
                break;
            }
        }
        if self.is_word("INTO") {
            return Err(self.unimplemented("SELECT … INTO"));
        }
        self.expect_word("FROM", 923, "FROM keyword not found where expected")?;
        let mut from = Vec::new();
        loop {
            from.push(self.table_ref()?);
            if !self.eat_op(",") {
                break;
            }
        }
        let mut s = Select {
            distinct,
            items,
            from,
            where_: None,
            group_by: Vec::new(),
            having: None,
            pos,
        };
        if self.eat_word("WHERE") {
            s.where_ = Some(self.condition()?);
        }
        if self.is_word("CONNECT") || self.is_word("START") {
            return Err(self.unimplemented("hierarchical queries (CONNECT BY)"));
        }
        if self.eat_word("GROUP") {
            self.expect_word("BY", 924, "missing BY keyword")?;
            if ["ROLLUP", "CUBE", "GROUPING"]
                .iter()
                .any(|w| self.is_word(w))
            {
                return Err(self.unimplemented("ROLLUP / CUBE / GROUPING SETS"));
            }
            loop {
                s.group_by.push(self.expr()?);
                if !self.eat_op(",") {
                    break;
                }
            }
        }
        if self.eat_word("HAVING") {
            s.having = Some(self.condition()?);
        }
        if self.is_word("MODEL") || self.is_word("WINDOW") || self.is_word("QUALIFY") {
            return Err(self.unimplemented("this query clause"));
        }
        Ok(s)
    }

    fn select_item(&mut self) -> Result<SelectItem, OraError> {
        let pos = self.pos();
        if self.eat_op("*") {
            return Ok(SelectItem::Wildcard(pos));
        }
        // `t.*` / `s.t.*`.
        let name_tok = |t: &Tok| matches!(t, Tok::Word(_) | Tok::Quoted(_));
        for parts in [1usize, 2] {
            let k = parts * 2;
            let shape = (0..parts)
                .all(|j| name_tok(&self.at(2 * j).tok) && self.at(2 * j + 1).tok == Tok::Op("."));
            if shape && self.at(k).tok == Tok::Op("*") {
                let mut q = Vec::new();
                for _ in 0..parts {
                    let Some(id) = self.dotted_part() else {
                        return Err(self.err(936, "missing expression"));
                    };
                    q.push(id);
                    self.advance(); // .
                }
                self.advance(); // *
                return Ok(SelectItem::QualifiedWildcard(q, pos));
            }
        }
        let expr = self.expr()?;
        let text = self.column_text(expr.pos, expr.end);
        let alias = if self.eat_word("AS") {
            Some(
                self.ident()
                    .ok_or_else(|| self.err(923, "FROM keyword not found where expected"))?,
            )
        } else {
            self.ident()
        };
        Ok(SelectItem::Expr { expr, alias, text })
    }

    /// One part of a name, reserved words allowed (`t` of `t.*`).
    fn dotted_part(&mut self) -> Option<Ident> {
        let pos = self.pos();
        let id = match self.tok() {
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
            _ => return None,
        };
        self.advance();
        Some(id)
    }

    fn table_ref(&mut self) -> Result<TableExpr, OraError> {
        let mut left = self.table_primary()?;
        loop {
            let kind = if self.eat_word("JOIN") {
                JoinKind::Inner
            } else if self.is_word("INNER") && self.is_word_at(1, "JOIN") {
                self.advance();
                self.advance();
                JoinKind::Inner
            } else if self.eat_word("LEFT") {
                self.eat_word("OUTER");
                self.expect_word("JOIN", 905, "missing keyword")?;
                JoinKind::Left
            } else if self.is_word("CROSS") && self.is_word_at(1, "JOIN") {
                self.advance();
                self.advance();
                JoinKind::Cross
            } else if ["RIGHT", "FULL", "NATURAL", "CROSS", "OUTER"]
                .iter()
                .any(|w| self.is_word(w))
            {
                return Err(self.unimplemented("RIGHT, FULL, NATURAL joins and APPLY"));
            } else {
                return Ok(left);
            };
            let right = self.table_primary()?;
            let on = if kind == JoinKind::Cross {
                None
            } else if self.eat_word("ON") {
                Some(self.condition()?)
            } else if self.is_word("USING") {
                return Err(self.unimplemented("JOIN … USING"));
            } else {
                return Err(self.err(905, "missing keyword"));
            };
            left = TableExpr::Join {
                left: Box::new(left),
                right: Box::new(right),
                kind,
                on,
            };
        }
    }

    fn table_primary(&mut self) -> Result<TableExpr, OraError> {
        let pos = self.pos();
        if self.is_op("(") {
            if !(self.is_word_at(1, "SELECT")
                || self.is_word_at(1, "WITH")
                || self.at(1).tok == Tok::Op("("))
            {
                return Err(self.unimplemented("parenthesised joins"));
            }
            self.advance();
            let query = self.subquery()?;
            self.close_paren()?;
            let alias = self.table_alias();
            return Ok(TableExpr::Subquery {
                query: Box::new(query),
                alias,
            });
        }
        if self.is_word("TABLE")
            || self.is_word("LATERAL")
            || self.is_word("JSON_TABLE")
            || self.is_word("XMLTABLE")
        {
            return Err(self.unimplemented("table collection expressions and LATERAL views"));
        }
        let Some(name) = self.dotted() else {
            return Err(self.err(903, "invalid table name"));
        };
        if name.len() > 2 {
            return Err(OraError::new(933, "SQL command not properly ended").at(name[2].pos - 1));
        }
        if self.is_op("@") {
            return Err(self.unimplemented("database links"));
        }
        let mut as_of = None;
        if self.is_word("AS") {
            if !self.is_word_at(1, "OF") {
                return Err(self.err(933, "SQL command not properly ended"));
            }
            self.advance();
            self.advance();
            if self.eat_word("SCN") {
                as_of = Some(self.expr()?);
            } else if self.is_word("TIMESTAMP") || self.is_word("PERIOD") {
                return Err(self.unimplemented("AS OF TIMESTAMP"));
            } else {
                return Err(self.err(905, "missing keyword"));
            }
        }
        if self.is_word("VERSIONS")
            || self.is_word("PARTITION")
            || self.is_word("SAMPLE")
            || self.is_word("SUBPARTITION")
        {
            return Err(self.unimplemented("VERSIONS, PARTITION and SAMPLE clauses"));
        }
        let alias = self.table_alias();
        Ok(TableExpr::Table {
            name,
            as_of,
            alias,
            pos,
        })
    }

    fn table_alias(&mut self) -> Option<Ident> {
        if let Tok::Word(w) = self.tok() {
            if NOT_ALIAS.contains(&w.as_str()) {
                return None;
            }
        }
        self.ident()
    }
}
