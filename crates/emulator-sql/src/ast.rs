//! The parsed statement: what was written, with byte positions for errors and for Oracle's
//! result column names. Nothing here is resolved yet (names, types and binds' values come in
//! the compiler), so a tree is the same for every database and session.

/// One part of a dotted name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    /// Upper-cased when unquoted, as written when quoted.
    pub name: String,
    pub quoted: bool,
    pub pos: usize,
}

#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    /// Byte span in the statement text.
    pub pos: usize,
    pub end: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    /// `a op b` ⇔ `b flip(op) a`.
    pub fn flip(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            other => other,
        }
    }
}

/// Units of an INTERVAL literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntervalUnit {
    YearToMonth,
    Year,
    Month,
    DayToSecond,
    Day,
    DayToHour,
    DayToMinute,
    Hour,
    HourToMinute,
    HourToSecond,
    Minute,
    MinuteToSecond,
    Second,
}

/// A type as written in CAST (`NUMBER(10,2)`, `VARCHAR2(20 CHAR)`, `TIMESTAMP WITH TIME ZONE`).
#[derive(Debug, Clone, PartialEq)]
pub struct TypeName {
    pub ora: oracle_datum::OraType,
    pub pos: usize,
}

#[derive(Debug, Clone)]
pub enum ExprKind {
    /// `a`, `t.a`, `s.t.a`, also niladic functions and pseudo-columns (`SYSDATE`, `ROWID`).
    Name(Vec<Ident>),
    Num(String),
    /// BINARY_FLOAT / BINARY_DOUBLE literal: text, is_double.
    BinNum(String, bool),
    Str {
        text: String,
        national: bool,
    },
    Null,
    /// A placeholder, by its index into the statement's bind values.
    Bind(usize),
    DateLit(String),
    TimestampLit(String),
    IntervalLit {
        text: String,
        unit: IntervalUnit,
    },
    Neg(Box<Expr>),
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    Concat(Box<Expr>, Box<Expr>),
    Call(Box<Call>),
    Case {
        operand: Option<Box<Expr>>,
        whens: Vec<(Expr, Expr)>,
        otherwise: Option<Box<Expr>>,
    },
    Cast(Box<Expr>, TypeName),
    /// `TRIM([LEADING|TRAILING|BOTH] [set] FROM x)`: mode 'L', 'T' or 'B'.
    Trim {
        mode: char,
        set: Option<Box<Expr>>,
        from: Box<Expr>,
    },
    /// `EXTRACT(field FROM x)`.
    Extract {
        field: String,
        from: Box<Expr>,
    },
    /// `JSON_SERIALIZE(x RETURNING CLOB)`, `VECTOR_SERIALIZE(…)`, `XMLSERIALIZE(CONTENT x AS
    /// CLOB)`: the function name and the type it returns.
    Serialize {
        arg: Box<Expr>,
        returning: oracle_datum::OraType,
    },
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Not(Box<Expr>),
    IsNull(Box<Expr>, bool),
    Like {
        expr: Box<Expr>,
        pattern: Box<Expr>,
        escape: Option<Box<Expr>>,
        negated: bool,
    },
    Between {
        expr: Box<Expr>,
        low: Box<Expr>,
        high: Box<Expr>,
        negated: bool,
    },
    InList {
        expr: Box<Expr>,
        list: Vec<Expr>,
        negated: bool,
    },
    InQuery {
        expr: Box<Expr>,
        query: Box<Query>,
        negated: bool,
    },
    Exists(Box<Query>),
    Subquery(Box<Query>),
}

#[derive(Debug, Clone)]
pub struct Call {
    pub name: Vec<Ident>,
    pub args: Vec<Arg>,
    /// `COUNT(DISTINCT x)`.
    pub distinct: bool,
    /// `COUNT(*)`.
    pub star: bool,
    /// `… OVER (…)`.
    pub over: Option<Window>,
}

#[derive(Debug, Clone)]
pub struct Arg {
    /// `NAME => value` (PL/SQL calls).
    pub name: Option<Ident>,
    pub value: Expr,
}

#[derive(Debug, Clone)]
pub struct Window {
    pub partition_by: Vec<Expr>,
    pub order_by: Vec<OrderItem>,
}

#[derive(Debug, Clone)]
pub struct OrderItem {
    pub expr: Expr,
    pub desc: bool,
    /// `NULLS FIRST` (true) / `NULLS LAST` (false); Oracle's default is NULLs last ascending,
    /// first descending.
    pub nulls_first: Option<bool>,
}

#[derive(Debug, Clone)]
pub struct Query {
    pub body: SetExpr,
    pub order_by: Vec<OrderItem>,
    pub offset: Option<Expr>,
    pub fetch: Option<Expr>,
    pub pos: usize,
}

#[derive(Debug, Clone)]
pub enum SetExpr {
    Select(Box<Select>),
    UnionAll(Box<SetExpr>, Box<SetExpr>),
    /// `( query )` used as a set operand.
    Nested(Box<Query>),
}

#[derive(Debug, Clone)]
pub struct Select {
    pub distinct: bool,
    pub items: Vec<SelectItem>,
    pub from: Vec<TableExpr>,
    pub where_: Option<Expr>,
    pub group_by: Vec<Expr>,
    pub having: Option<Expr>,
    pub pos: usize,
}

#[derive(Debug, Clone)]
pub enum SelectItem {
    Wildcard(usize),
    /// `t.*`.
    QualifiedWildcard(Vec<Ident>, usize),
    Expr {
        expr: Expr,
        alias: Option<Ident>,
        /// The name Oracle gives the column without an alias.
        text: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinKind {
    Inner,
    Left,
    Cross,
}

#[derive(Debug, Clone)]
pub enum TableExpr {
    Table {
        name: Vec<Ident>,
        as_of: Option<Expr>,
        alias: Option<Ident>,
        pos: usize,
    },
    Subquery {
        query: Box<Query>,
        alias: Option<Ident>,
    },
    Join {
        left: Box<TableExpr>,
        right: Box<TableExpr>,
        kind: JoinKind,
        on: Option<Expr>,
    },
}

#[derive(Debug, Clone)]
pub enum InsertSource {
    Values(Vec<Expr>),
    Query(Box<Query>),
}

#[derive(Debug, Clone)]
pub struct Insert {
    pub table: Vec<Ident>,
    pub columns: Option<Vec<Ident>>,
    pub source: InsertSource,
    pub pos: usize,
}

#[derive(Debug, Clone)]
pub struct Update {
    pub table: Vec<Ident>,
    pub alias: Option<Ident>,
    pub sets: Vec<(Ident, Expr)>,
    pub where_: Option<Expr>,
    pub pos: usize,
}

#[derive(Debug, Clone)]
pub struct Delete {
    pub table: Vec<Ident>,
    pub alias: Option<Ident>,
    pub where_: Option<Expr>,
    pub pos: usize,
}

/// `name = value` of ALTER SESSION SET.
#[derive(Debug, Clone)]
pub struct Setting {
    pub name: String,
    /// String literal content, a number as written, or an identifier (upper-cased unless
    /// quoted).
    pub value: String,
    pub pos: usize,
}

#[derive(Debug, Clone)]
pub enum Statement {
    Query(Query),
    Insert(Insert),
    Update(Update),
    Delete(Delete),
    Commit,
    Rollback(Option<Ident>),
    Savepoint(Ident),
    AlterSession(Vec<Setting>),
    Block(Block),
}

#[derive(Debug, Clone)]
pub struct Block {
    pub body: Vec<PlStmt>,
}

#[derive(Debug, Clone)]
pub struct PlStmt {
    pub kind: PlKind,
    pub pos: usize,
}

#[derive(Debug, Clone)]
pub enum PlKind {
    Null,
    ExecuteImmediate {
        sql: Expr,
        using: Vec<Expr>,
    },
    Call {
        name: Vec<Ident>,
        args: Vec<Arg>,
    },
    /// `:bind := expr`: by the bind's index.
    Assign {
        bind: usize,
        value: Expr,
    },
    Sql(Statement),
    Block(Block),
}
