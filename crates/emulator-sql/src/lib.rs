//! The emulated Oracle's SQL: parses the statements it answers and evaluates them with
//! Oracle's semantics over a [`Database`] that holds the data (the emulator's tables, its
//! catalog and V$ views, its LogMiner sessions).
//!
//! The engine owns what is the same for every database: the grammar, expressions, functions,
//! three-valued logic, implicit conversions, joins, grouping, ordering, ROW_NUMBER, the NLS
//! session settings and the result columns' names and types. The [`Database`] owns what is
//! data: which relations exist and for whom, their rows as of an SCN, procedures
//! (DBMS_LOGMNR), writes, transactions.
//!
//! A statement outside the subset is an Oracle error naming it (ORA-00900 invalid SQL
//! statement, ORA-00942 for an unknown relation, ORA-00904 for an unknown column, ORA-03001
//! for a feature Oracle has and the emulator does not evaluate): never a panic, never a
//! silently different answer.
//!
//! Entry point: [`SqlSession::execute`] runs one statement with its positional binds (in SQL
//! every placeholder occurrence takes the next bind, in a PL/SQL block every distinct name
//! one, as Oracle Net carries them). Queries return a `Send + 'static` row iterator that
//! reads the database's scans as it is pulled.
//!
//! Layout: `lex` → `parse` (→ `ast`) → `compile` (names, types, subqueries, scan requests
//! with `pushdown`'s bounds; → `plan`, `ex`) → `exec` (with `agg`, `window`); values through
//! `convert`, `compare`, `arith`, `number` (exact decimals), `datetime`, `dtfmt` and `numfmt`
//! (format models), `literal`, `like`, `functions`; statements in `dml`, `plsql`, `session`
//! (with `nls`, `env`); result column names in `names`. No dependency beyond
//! `oracle-datum`.

pub use oracle_datum::{AfterError, Column, DateTime, Datum, OraError, OraType, Str};

mod agg;
mod arith;
mod ast;
mod compare;
mod compile;
mod convert;
mod datetime;
mod dml;
mod dtfmt;
mod env;
mod ex;
mod exec;
mod functions;
mod lex;
mod like;
mod literal;
mod minmax;
mod names;
mod nls;
mod number;
mod numfmt;
mod parse;
mod plan;
mod plsql;
mod pushdown;
mod session;
mod types;
mod window;

pub use compare::CharsetOrder;
pub use nls::Nls;
pub use session::SqlSession;

/// ORA-03001 for SQL Oracle has and the emulator does not evaluate, naming it.
pub(crate) fn unimplemented(what: &str) -> OraError {
    OraError::new(
        3001,
        format!("unimplemented feature (the emulator does not evaluate {what})"),
    )
}

/// A possibly schema-qualified name as written, normalised: unquoted parts upper-cased,
/// quoted ones kept as written (`hr.emp` → `HR`, `EMP`; `"Hr"."x"` → `Hr`, `x`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ObjectName {
    pub schema: Option<String>,
    pub name: String,
}

/// Comparison operators of pushed-down bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

/// `column op value`, implied by the statement's WHERE clause for every row it keeps: the
/// database may use it to read less (a key range), never needs to. The engine evaluates the
/// whole WHERE clause on every row the database returns, except the conjuncts a bound the
/// database reports as applied ([`Relation::exact_bounds`]) already decides.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    /// Column name as the relation names it.
    pub column: String,
    pub op: CmpOp,
    /// Never NULL, and of the column's own type (a NUMBER for a NUMBER column, a DATE for a
    /// DATE column …): the engine only pushes bounds whose comparison in that type orders
    /// rows as the statement's condition does (not, say, a NUMBER against a VARCHAR2
    /// column, nor anything against a CHAR column).
    pub value: Datum,
}

/// How a relation is to be read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScanRequest {
    /// `AS OF SCN n` on the table reference.
    pub as_of_scn: Option<u64>,
    /// Bounds implied by the WHERE clause (see [`Bound`]).
    pub bounds: Vec<Bound>,
    /// `ROWID BETWEEN CHARTOROWID(a) AND CHARTOROWID(b)` in the WHERE clause (or `ROWID >= a
    /// AND ROWID <= b`): both inclusive.
    pub rowid_between: Option<(String, String)>,
    /// The order the statement wants its rows in (column names, or `ROWID`), ascending, when
    /// the ORDER BY is plain columns of this one relation: a database that returns rows in
    /// that order says so in [`Relation::ordered_by`] and the engine does not sort.
    pub wanted_order: Vec<String>,
    /// The statement never reads this relation's ROWID (its text names no ROWID): the
    /// database may leave [`Row::rowid`] `None` rather than make each row's. False (the
    /// default) when it might.
    pub skip_rowids: bool,
    /// The names the statement writes, a superset of the columns of this relation it
    /// references anywhere (select list, WHERE, ORDER BY …); `None`: every column (it selects
    /// `*`, or the engine cannot say). A database enforces column-level VPD policies by it.
    pub references: Option<Vec<String>>,
    /// The scan finds the rows an UPDATE or DELETE changes (not a query's rows).
    pub for_change: bool,
}

/// One row of a relation: its ROWID (tables have one; views none) and its values.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub rowid: Option<Str>,
    pub values: Vec<Datum>,
}

/// Rows, pulled one at a time; owned, so they can be fetched after the call returned.
pub type Rows = Box<dyn Iterator<Item = Result<Row, OraError>> + Send>;

/// A relation as read: its columns and rows.
pub struct Relation {
    pub columns: Vec<Column>,
    pub rows: Rows,
    /// The order its rows come in (column names or `ROWID`, ascending, NULLs last), if any.
    /// Ascending means as the engine compares: numbers by value, text by its bytes (BINARY),
    /// datetimes in time, ROWIDs by their bytes, i.e. by each character's place in the
    /// base-64 alphabet `A-Z a-z 0-9 + /` (not by the text's ASCII order).
    pub ordered_by: Vec<String>,
    /// The type its ROWID pseudo-column is described as: ROWID for heap tables (physical
    /// ROWIDs), UROWID for an index-organised table's logical ones (`*…`), as Oracle describes
    /// `SELECT ROWID` of each.
    pub rowid_type: OraType,
    /// The request's bounds (by index into [`ScanRequest::bounds`]) that every row of this
    /// relation satisfies, its column never NULL in them: the read was a range of exactly
    /// those values, as an index range scan's access predicates are on Oracle. The engine
    /// does not evaluate again a WHERE conjunct that says no more than one of them (`column op
    /// value` on the same column, with the same operator and, in the column's type, an equal
    /// value), as Oracle does not re-check access predicates; every other conjunct it does.
    /// Empty (always correct): the engine checks the whole WHERE clause.
    pub exact_bounds: Vec<usize>,
}

/// A procedure argument: `NAME => value` or positional.
#[derive(Debug, Clone, PartialEq)]
pub struct Argument {
    pub name: Option<String>,
    pub value: Datum,
}

/// The data behind the SQL: one session's view of one database.
pub trait Database {
    /// Read a table or view. Errors as Oracle raises them: ORA-00942 for an object that does
    /// not exist or that the user may not see, ORA-01031 for AS OF without FLASHBACK,
    /// ORA-01555 for an SCN older than undo keeps, ORA-08181 for an SCN in the future,
    /// ORA-01466 for a table defined after the SCN.
    fn scan(&mut self, name: &ObjectName, request: &ScanRequest) -> Result<Relation, OraError>;

    /// The columns of a table (INSERT's target columns and their types). Also asked, before
    /// a scan, for any relation whose WHERE clause implies bounds: the bounds are then given
    /// in the column's own type; an error here only means no bounds are pushed.
    fn columns(&mut self, table: &ObjectName) -> Result<Vec<Column>, OraError>;

    /// A function the database answers (`SYS_CONTEXT`, `SCN_TO_TIMESTAMP`, `USER`, …):
    /// `None` when it knows no such function (the engine then raises ORA-00904).
    /// Arguments are evaluated first; the engine calls this once per distinct argument list
    /// of a statement (it folds calls whose arguments are constant).
    fn function(&mut self, name: &str, args: &[Datum]) -> Option<Result<Datum, OraError>>;

    /// A packaged constant such as `SYS.DBMS_LOGMNR.NEW` (name parts upper-cased).
    fn constant(&mut self, name: &[String]) -> Option<Datum>;

    /// A PL/SQL procedure call (`SYS.DBMS_LOGMNR.START_LOGMNR(STARTSCN => …)`): name parts
    /// upper-cased. Errors: ORA-06550 with PLS-00201 for one the user may not execute.
    fn call(&mut self, procedure: &[String], args: &[Argument]) -> Result<(), OraError>;

    /// `ALTER SESSION SET name = value` for the parameters that are the database's (CONTAINER,
    /// CURRENT_SCHEMA); NLS parameters and TIME_ZONE are the engine's. `value` as written,
    /// quotes removed for a quoted identifier.
    fn alter_session(&mut self, name: &str, value: &str) -> Result<(), OraError>;

    /// Insert rows (values in `columns` order) into a table; the row count.
    fn insert(
        &mut self,
        table: &ObjectName,
        columns: &[String],
        rows: Vec<Vec<Datum>>,
    ) -> Result<u64, OraError>;

    /// Change the named columns of the row with `rowid` (found by a scan of the same table).
    fn update(
        &mut self,
        table: &ObjectName,
        rowid: &str,
        changes: Vec<(String, Datum)>,
    ) -> Result<(), OraError>;

    fn delete(&mut self, table: &ObjectName, rowid: &str) -> Result<(), OraError>;

    fn commit(&mut self) -> Result<(), OraError>;
    fn rollback(&mut self) -> Result<(), OraError>;
    fn savepoint(&mut self, name: &str) -> Result<(), OraError>;
    /// ORA-01086 for a savepoint never established in this transaction.
    fn rollback_to(&mut self, name: &str) -> Result<(), OraError>;

    /// The database host's clock: local time and its offset from UTC in minutes
    /// (SYSDATE, SYSTIMESTAMP).
    fn host_time(&mut self) -> (DateTime, i16);

    /// How the session's container orders text of its database character set (NLS_SORT
    /// BINARY: by the set's bytes); national text orders by UTF-16 code units in either
    /// national set. The default is AL32UTF8's.
    fn charset_order(&mut self) -> CharsetOrder {
        CharsetOrder::Utf8
    }

    /// The smallest and largest non-NULL value of a column (both NULL for none), when the
    /// database can tell them from an index on it without reading the table, as Oracle's
    /// INDEX FULL SCAN (MIN/MAX) does for `SELECT MIN(c), MAX(c) FROM t`; `None`: it cannot,
    /// and the engine reads the rows. The same checks as [`Database::scan`] apply.
    fn min_max(
        &mut self,
        _table: &ObjectName,
        _column: &str,
        _as_of_scn: Option<u64>,
    ) -> Option<Result<(Datum, Datum), OraError>> {
        None
    }
}

/// What a statement gave.
pub enum Outcome {
    /// A query: its columns (Oracle's names and types) and its rows, values in column order.
    Rows {
        columns: Vec<Column>,
        rows: Box<dyn Iterator<Item = Result<Vec<Datum>, OraError>> + Send>,
    },
    /// INSERT / UPDATE / DELETE (rows affected), COMMIT, ROLLBACK, SAVEPOINT, ALTER SESSION
    /// (0).
    Done { row_count: u64 },
    /// A PL/SQL block: the values of its OUT / IN OUT binds by position (IN binds: `None`).
    PlSql { out: Vec<Option<Datum>> },
}

impl std::fmt::Debug for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Rows { columns, .. } => {
                f.debug_struct("Rows").field("columns", columns).finish()
            }
            Outcome::Done { row_count } => f
                .debug_struct("Done")
                .field("row_count", row_count)
                .finish(),
            Outcome::PlSql { out } => f.debug_struct("PlSql").field("out", out).finish(),
        }
    }
}
