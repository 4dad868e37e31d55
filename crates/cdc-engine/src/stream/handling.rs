//! What capture does with each V$LOGMNR_CONTENTS OPERATION_CODE: one table the transaction
//! buffer, the decoder and the mining filter all read.

use cdc_core::model::{op, LogMinerRow};

/// What capture does with a V$LOGMNR_CONTENTS row, by OPERATION_CODE: the one table the
/// transaction buffer and the decoder dispatch on ([`HANDLING`]). The mining filter's operation
/// codes are derived from it ([`handled_codes`]): every code with a decision other than
/// [`Handling::Ignored`] is mined, so the query never leaves out a row capture acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handling {
    /// A transaction starts (buffer).
    Start,
    /// It commits: the buffer hands it to the decoder.
    Commit,
    /// It rolled back: the buffer drops it.
    Rollback,
    /// INSERT, UPDATE, DELETE (and their undo rows, ROLLBACK = 1).
    Dml,
    /// A row of a value written apart from its statement's DML: merged into that change.
    Piece(PieceKind),
    /// INTERNAL: with the row's own ROW_ID it ends a statement whose other rows carried
    /// `AAAAAAAAAAAAAAAAAA` (and marks where an undone statement starts); others are dropped.
    StatementEnd,
    /// DDL of a captured table (a TRUNCATE TABLE is a truncate change), or a CREATE TABLE.
    Ddl,
    /// Changes no data capture publishes: not mined.
    Ignored,
    /// LogMiner could not give the change (UNSUPPORTED), lost redo (MISSING_SCN), or wrote a
    /// code no table entry knows: counted, an `unsupported-redo` ops event, and
    /// `cdc.on.unsupported.redo` decides (stop, skip or dead-letter).
    Reported,
}

/// The rows of a value written apart from its statement's DML.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PieceKind {
    /// SEL_LOB_LOCATOR: the row and column of the LOB the next rows write.
    LobLocator,
    LobWrite,
    LobTrim,
    LobErase,
    XmlBegin,
    XmlWrite,
    XmlEnd,
    ExtendedBegin,
    ExtendedWrite,
    ExtendedEnd,
}

/// Every OPERATION_CODE with a decision, and why. Oracle documents 0–7, 9–11, 25, 29, 34,
/// 36, 68, 70, 71 and 255 (Reference, V$LOGMNR_CONTENTS.OPERATION); 27 and 91–93 are in real
/// output (Debezium `EventType`). Any other code gets [`Handling::Reported`] and is not mined.
pub const HANDLING: &[(u32, Handling, &str)] = &[
    (
        op::INTERNAL,
        Handling::StatementEnd,
        "the end of a statement whose LOB, XML or extended-string rows came first",
    ),
    (op::INSERT, Handling::Dml, "a row inserted"),
    (op::DELETE, Handling::Dml, "a row deleted"),
    (op::UPDATE, Handling::Dml, "a row updated"),
    (
        op::DDL,
        Handling::Ddl,
        "a captured table's definition changed or it was truncated, or a table was created",
    ),
    (op::START, Handling::Start, "a transaction starts"),
    (op::COMMIT, Handling::Commit, "a transaction commits"),
    (
        op::SELECT_LOB_LOCATOR,
        Handling::Piece(PieceKind::LobLocator),
        "which row and LOB column the next LOB rows write",
    ),
    (
        op::LOB_WRITE,
        Handling::Piece(PieceKind::LobWrite),
        "DBMS_LOB.WRITE of part of a LOB",
    ),
    (
        op::LOB_TRIM,
        Handling::Piece(PieceKind::LobTrim),
        "DBMS_LOB.TRIM of a LOB",
    ),
    (
        op::SELECT_FOR_UPDATE,
        Handling::Ignored,
        "a row locked by SELECT … FOR UPDATE: no change",
    ),
    (
        op::REPLICATION_MARKER,
        Handling::Ignored,
        "GoldenGate's replication marker: no change",
    ),
    (
        op::LOB_ERASE,
        Handling::Piece(PieceKind::LobErase),
        "DBMS_LOB.ERASE of part of a LOB",
    ),
    (
        op::MISSING_SCN,
        Handling::Reported,
        "LogMiner found a gap in the redo (CDC-3004)",
    ),
    (op::ROLLBACK, Handling::Rollback, "a transaction rolls back"),
    (
        op::XML_BEGIN,
        Handling::Piece(PieceKind::XmlBegin),
        "which row and XMLTYPE column the next XML rows write",
    ),
    (
        op::XML_WRITE,
        Handling::Piece(PieceKind::XmlWrite),
        "part of an XML document",
    ),
    (
        op::XML_END,
        Handling::Piece(PieceKind::XmlEnd),
        "the end of an XML document",
    ),
    (
        op::EXTENDED_STRING_BEGIN,
        Handling::Piece(PieceKind::ExtendedBegin),
        "which row and column a VARCHAR2 value over 4,000 bytes is written to",
    ),
    (
        op::EXTENDED_STRING_WRITE,
        Handling::Piece(PieceKind::ExtendedWrite),
        "part of a VARCHAR2 value over 4,000 bytes",
    ),
    (
        op::EXTENDED_STRING_END,
        Handling::Piece(PieceKind::ExtendedEnd),
        "the end of a VARCHAR2 value over 4,000 bytes",
    ),
    (
        op::UNSUPPORTED,
        Handling::Reported,
        "a change LogMiner cannot build (CDC-3003)",
    ),
];

impl Handling {
    /// The decision for a code ([`HANDLING`]); [`Handling::Reported`] for a code it lacks.
    pub fn of(code: u32) -> Handling {
        HANDLING
            .iter()
            .find(|(c, _, _)| *c == code)
            .map_or(Handling::Reported, |(_, h, _)| *h)
    }

    /// Whether the transaction buffer keeps rows of this kind until their commit.
    pub fn is_buffered(self) -> bool {
        matches!(
            self,
            Handling::Dml
                | Handling::Piece(_)
                | Handling::StatementEnd
                | Handling::Ddl
                | Handling::Reported
        )
    }
}

/// Every OPERATION_CODE capture mines, ascending: the codes of [`HANDLING`] but the ignored.
pub fn handled_codes() -> Vec<u32> {
    let mut codes: Vec<u32> = HANDLING
        .iter()
        .filter(|(_, h, _)| *h != Handling::Ignored)
        .map(|(c, _, _)| *c)
        .collect();
    codes.sort_unstable();
    codes
}

/// A DDL row creating a table (`CREATE TABLE`, any case; `CREATE GLOBAL TEMPORARY` tables are
/// never captured, so not those).
pub fn is_create_table(row: &LogMinerRow) -> bool {
    row.operation_code == cdc_core::model::op::DDL && is_create_table_sql(&row.sql_redo)
}

/// Whether DDL text is a `CREATE TABLE`.
pub fn is_create_table_sql(sql: &str) -> bool {
    sql.trim_start()
        .get(..12)
        .is_some_and(|p| p.eq_ignore_ascii_case("create table"))
}

/// Whether DDL text is a `TRUNCATE TABLE` (any case, any spacing; its options, such as
/// `REUSE STORAGE` or `PURGE MATERIALIZED VIEW LOG`, change nothing capture publishes).
/// `ALTER TABLE … TRUNCATE PARTITION` is not: it empties one partition.
pub fn is_truncate_table_sql(sql: &str) -> bool {
    let mut words = sql.split_whitespace();
    words
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("truncate"))
        && words
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("table"))
}
