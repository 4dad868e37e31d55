//! [`SqlSession`]: one Oracle session's SQL. It parses a statement, checks its binds against
//! its placeholders, and runs it: queries compile to plans whose rows stream from the
//! returned iterator; DML, transaction control and ALTER SESSION run at once; PL/SQL blocks
//! run statement by statement. The session keeps the NLS parameters and TIME_ZONE (ALTER
//! SESSION), and passes the database's session parameters (CONTAINER, CURRENT_SCHEMA …) on.

use crate::ast::{Query, Setting, Statement};
use crate::compile::Compiler;
use crate::env::{Env, Now};
use crate::exec::{self, RowIter};
use crate::nls::Nls;
use crate::{Database, Datum, OraError, Outcome};
use std::sync::Arc;

/// Session parameters that are the database's (passed to [`Database::alter_session`]).
const DATABASE_PARAMETERS: &[&str] = &[
    "CONTAINER",
    "CURRENT_SCHEMA",
    "ROW ARCHIVAL VISIBILITY",
    "EDITION",
    "ISOLATION_LEVEL",
    "STATISTICS_LEVEL",
    "SQL_TRACE",
    "TRACEFILE_IDENTIFIER",
    "EVENTS",
    "DDL_LOCK_TIMEOUT",
    "COMMIT_WRITE",
    "COMMIT_LOGGING",
    "COMMIT_WAIT",
    "SKIP_UNUSABLE_INDEXES",
    "CURSOR_SHARING",
    "WORKAREA_SIZE_POLICY",
    "SORT_AREA_SIZE",
    "SORT_AREA_RETAINED_SIZE",
    "HASH_AREA_SIZE",
    "DB_FILE_MULTIBLOCK_READ_COUNT",
    "RECYCLEBIN",
    "GLOBAL_NAMES",
    "QUERY_REWRITE_ENABLED",
    "QUERY_REWRITE_INTEGRITY",
    "RESULT_CACHE_MODE",
    "STAR_TRANSFORMATION_ENABLED",
    "ROW_ARCHIVAL_VISIBILITY",
    "USE_STORED_OUTLINES",
    "MAX_DUMP_FILE_SIZE",
    "SESSION_CACHED_CURSORS",
    "CONSTRAINTS",
    "FLAGGER",
    "ERROR_ON_OVERLAP_TIME",
    "DEFAULT_COLLATION",
    "CELL_OFFLOAD_PROCESSING",
    "DB_BLOCK_CHECKING",
    "DB_BLOCK_CHECKSUM",
    "TIMED_STATISTICS",
    "WRITE_ACCESS",
    "CONTAINER_DATA",
];

fn database_parameter(name: &str) -> bool {
    DATABASE_PARAMETERS.contains(&name)
        || ["OPTIMIZER_", "PLSQL_", "PARALLEL_", "_"]
            .iter()
            .any(|p| name.starts_with(p))
}

/// The SQL of one session: NLS state and statement execution.
#[derive(Debug, Clone, Default)]
pub struct SqlSession {
    nls: Nls,
}

/// The database host's clock, once per statement.
pub(crate) fn now(db: &mut dyn Database) -> Now {
    let (host, host_offset) = db.host_time();
    Now { host, host_offset }
}

impl SqlSession {
    pub fn new() -> SqlSession {
        SqlSession { nls: Nls::new() }
    }

    /// The session's NLS parameters and time zone.
    pub fn nls(&self) -> &Nls {
        &self.nls
    }

    pub fn nls_date_format(&self) -> &str {
        self.nls.date_format()
    }
    pub fn nls_timestamp_format(&self) -> &str {
        self.nls.timestamp_format()
    }
    pub fn nls_timestamp_tz_format(&self) -> &str {
        self.nls.timestamp_tz_format()
    }
    pub fn nls_numeric_characters(&self) -> &str {
        self.nls.numeric_characters()
    }
    pub fn nls_sort(&self) -> &str {
        self.nls.sort()
    }
    pub fn nls_comp(&self) -> &str {
        self.nls.comp()
    }
    /// TIME_ZONE as SESSIONTIMEZONE reports it.
    pub fn time_zone(&self) -> &str {
        self.nls.time_zone()
    }

    /// Run one statement (SQL without a trailing `;`, or a PL/SQL block) with its binds by
    /// position. Errors carry the character offset Oracle reports for them.
    pub fn execute(
        &mut self,
        db: &mut dyn Database,
        sql: &str,
        binds: &[Datum],
    ) -> Result<Outcome, OraError> {
        self.run(db, sql, binds).map_err(|mut e| {
            e.position = e.position.map(|p| {
                u32::try_from(crate::lex::char_offset(sql, p as usize)).unwrap_or(u32::MAX)
            });
            e
        })
    }

    pub(crate) fn run(
        &mut self,
        db: &mut dyn Database,
        sql: &str,
        binds: &[Datum],
    ) -> Result<Outcome, OraError> {
        let parsed = crate::parse::parse(sql)?;
        if binds.len() < parsed.binds.len() {
            return Err(OraError::new(1008, "not all variables bound"));
        }
        if binds.len() > parsed.binds.len() {
            return Err(OraError::new(1036, "illegal variable name/number"));
        }
        match &parsed.stmt {
            Statement::Block(b) => crate::plsql::run(self, db, b, parsed.binds.len(), binds, sql),
            // A query whose text names no ROWID never reads one: its scans need not make them.
            Statement::Query(q) => self.query(db, q, binds, !parsed.names_rowid, parsed.names),
            s => self.statement(db, s, binds),
        }
    }

    pub(crate) fn env(&self, db: &mut dyn Database) -> Arc<Env> {
        Arc::new(Env::new(self.nls.clone(), now(db), db.charset_order()))
    }

    /// A query's columns and rows; `skip_rowids`: its scans are asked not to make ROWIDs (the
    /// query reads none).
    fn query(
        &mut self,
        db: &mut dyn Database,
        q: &Query,
        binds: &[Datum],
        skip_rowids: bool,
        references: Option<Vec<String>>,
    ) -> Result<Outcome, OraError> {
        if let Some(answer) = crate::minmax::answer(db, q, binds) {
            return answer;
        }
        let env = self.env(db);
        let (plan, needs) = {
            let mut c = Compiler::new(&mut *db, env.clone(), binds);
            c.skip_rowids = skip_rowids;
            c.references = references;
            let (plan, _) = c.query(q, None)?;
            (Arc::new(plan), c.needs_db)
        };
        let columns = plan.columns.clone();
        let rows: RowIter = if needs {
            Box::new(exec::eager(&plan, &env, db)?.into_iter().map(Ok))
        } else {
            exec::run(&plan, &env, Arc::from(Vec::new()))?
        };
        Ok(Outcome::Rows { columns, rows })
    }

    pub(crate) fn statement(
        &mut self,
        db: &mut dyn Database,
        s: &Statement,
        binds: &[Datum],
    ) -> Result<Outcome, OraError> {
        let done = |row_count: u64| Ok(Outcome::Done { row_count });
        match s {
            // Inside PL/SQL: ROWIDs made as ever.
            Statement::Query(q) => self.query(db, q, binds, false, None),
            Statement::Insert(i) => done(crate::dml::insert(self, db, i, binds)?),
            Statement::Update(u) => done(crate::dml::update(self, db, u, binds)?),
            Statement::Delete(d) => done(crate::dml::delete(self, db, d, binds)?),
            Statement::Commit => {
                db.commit()?;
                done(0)
            }
            Statement::Rollback(None) => {
                db.rollback()?;
                done(0)
            }
            Statement::Rollback(Some(name)) => {
                db.rollback_to(&name.name)?;
                done(0)
            }
            Statement::Savepoint(name) => {
                db.savepoint(&name.name)?;
                done(0)
            }
            Statement::AlterSession(settings) => {
                self.alter(db, settings)?;
                done(0)
            }
            Statement::Block(b) => crate::plsql::run(self, db, b, binds.len(), binds, ""),
        }
    }

    fn alter(&mut self, db: &mut dyn Database, settings: &[Setting]) -> Result<(), OraError> {
        for s in settings {
            let name = s.name.as_str();
            if Nls::owns(name) {
                let db_zone =
                    if name == "TIME_ZONE" && s.value.trim().eq_ignore_ascii_case("DBTIMEZONE") {
                        match db.function("DBTIMEZONE", &[]) {
                            Some(Ok(Datum::Text(t))) => t.to_string(),
                            _ => "+00:00".to_string(),
                        }
                    } else {
                        "+00:00".to_string()
                    };
                self.nls.set(name, &s.value, &db_zone)?;
            } else if database_parameter(name) {
                db.alter_session(name, &s.value)?;
            } else {
                return Err(OraError::new(2248, "invalid option for ALTER SESSION").at(s.pos));
            }
        }
        Ok(())
    }
}
