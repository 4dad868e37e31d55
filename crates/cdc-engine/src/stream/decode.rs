//! A committed transaction's LogMiner rows → row changes with typed before/after images,
//! decoded with each table's columns as of the change's SCN (the schema history).

use super::buffer::{Committed, TxRows};
use super::parse::{
    into_value_in, parse_dml, parse_extended_begin, parse_extended_write, parse_lob_row,
    parse_xml_begin, parse_xml_write, to_value_in, DmlKind, Literal,
};
use super::statement::Build;
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::types::{ColumnType, Value};
use cdc_core::model::{op, ColumnInfo, LogMinerRow, Scn};
use cdc_core::rowid::LOB_ROWID;
use std::collections::VecDeque;

pub use super::catalog::{Catalog, TableSchema};
pub use super::handling::{
    handled_codes, is_create_table, is_create_table_sql, is_truncate_table_sql, Handling,
    PieceKind, HANDLING,
};
pub use super::lenient::{Recovery, RecoveryKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeOp {
    Create,
    Update,
    Delete,
    /// TRUNCATE TABLE: every row of the table is gone (no images, no key).
    Truncate,
}

impl ChangeOp {
    pub fn code(self) -> &'static str {
        match self {
            ChangeOp::Create => "c",
            ChangeOp::Update => "u",
            ChangeOp::Delete => "d",
            ChangeOp::Truncate => "t",
        }
    }
}

/// Column → value pairs of a before or after image.
pub type Image = Vec<(String, Value)>;

/// One row change, ready to become a record.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub table: TableName,
    pub op: ChangeOp,
    /// Column → value, in table column order; only the columns the redo holds.
    pub before: Option<Vec<(String, Value)>>,
    pub after: Option<Vec<(String, Value)>>,
    pub scn: Scn,
    pub rs_id: String,
    pub ssn: u64,
    pub row_id: String,
    pub user: String,
    pub timestamp: String,
}

/// What a committed transaction carries.
#[derive(Debug, Clone)]
pub enum Event {
    Change(Change),
    /// DDL on a captured table at this SCN.
    Ddl {
        table: TableName,
        scn: Scn,
        sql: String,
    },
}

/// V$LOGMNR_CONTENTS.STATUS 3: "the SQL is not guaranteed to be accurate" (Utilities,
/// "DDL_DICT_TRACKING and Supplemental Logging Settings": redo written without supplemental
/// logging, INFO 'no supplemental log data found').
const NOT_GUARANTEED: i32 = 3;

/// Where `name` is in the table's columns (images are kept in that order).
fn position(cols: &[ColumnInfo], name: &str) -> usize {
    cols.iter()
        .position(|c| c.name == name)
        .unwrap_or(usize::MAX)
}

pub(super) fn redo_error(
    row: &LogMinerRow,
    t: &TableSchema,
    xid: &str,
    message: String,
) -> CdcError {
    CdcError::RedoParse {
        scn: row.scn,
        xid: xid.to_string(),
        table: t.name.to_string(),
        message,
    }
}

/// What a column whose value the redo does not hold is published as: Debezium's default
/// `unavailable.value.placeholder`, as text (as bytes in binary columns, so base64 in a record).
pub const UNAVAILABLE_VALUE: &str = "__debezium_unavailable_value";

/// [`UNAVAILABLE_VALUE`] as a value of a column of type `ty`.
pub fn unavailable(ty: &ColumnType) -> Value {
    match ty {
        ColumnType::Blob | ColumnType::LongRaw | ColumnType::Raw { .. } => {
            Value::Bytes(UNAVAILABLE_VALUE.as_bytes().to_vec())
        }
        _ => Value::Text(UNAVAILABLE_VALUE.to_string().into()),
    }
}

/// The typed image of a statement's items (taken, so their names move into it); `seen` marks
/// the columns the statement names.
fn typed(
    t: &TableSchema,
    cols: &[ColumnInfo],
    items: Vec<(String, Literal)>,
    row: &LogMinerRow,
    xid: &str,
    seen: &mut [bool],
    charsets: crate::charset::Charsets,
) -> Result<Image> {
    let mut out: Image = Vec::with_capacity(items.len());
    let mut last = 0;
    let mut in_order = true;
    for (name, lit) in items {
        // Excluded columns are never published.
        if t.excluded.contains(&name) {
            continue;
        }
        let Some(i) = cols.iter().position(|c| c.name == name) else {
            let message = format!("column {name} is not in the table's columns at this SCN");
            return Err(redo_error(row, t, xid, message));
        };
        seen[i] = true;
        // `Unsupported Type`: LogMiner did not write the value (Debezium LogMinerDmlParserTest,
        // DBZ-3078). Never published as a guess or a placeholder: CDC-3005.
        if matches!(lit, Literal::Unsupported) {
            return Err(CdcError::ValueNotInRedo {
                scn: row.scn,
                xid: xid.to_string(),
                table: t.name.to_string(),
                column: name,
                message: "LogMiner wrote `Unsupported Type` in its place".into(),
            });
        }
        let v = into_value_in(lit, &cols[i].data_type, charsets)
            .map_err(|message| redo_error(row, t, xid, format!("column {name}: {message}")))?;
        in_order &= out.is_empty() || i > last;
        last = i;
        out.push((name, v));
    }
    // Table column order, whatever order the statement used.
    if !in_order {
        out.sort_by_key(|(n, _)| position(cols, n));
    }
    Ok(out)
}

/// `base` with the values of `set` (taken) put over it, in table column order.
fn overlay(base: &[(String, Value)], set: Image, cols: &[ColumnInfo]) -> Image {
    let mut out: Image = base.to_vec();
    let mut added = false;
    for (n, v) in set {
        match out.iter_mut().find(|(m, _)| *m == n) {
            Some(slot) => slot.1 = v,
            None => {
                out.push((n, v));
                added = true;
            }
        }
    }
    // `base` is in column order already; only added columns can be out of place.
    if added {
        out.sort_by_key(|(n, _)| position(cols, n));
    }
    out
}

/// The published columns a change's statement names no value for (`seen` marks the ones it
/// names), as indexes into `cols`: first the LOB-like ones, which supplemental logging never logs
/// ([`ColumnType::never_supplementally_logged`]), then the others, which it would have logged
/// with ALL COLUMNS logging on. Virtual and excluded columns are never published.
fn unlogged(t: &TableSchema, cols: &[ColumnInfo], seen: &[bool]) -> (Vec<usize>, Vec<usize>) {
    let mut lobs = Vec::new();
    let mut missing = Vec::new();
    for (i, c) in cols.iter().enumerate() {
        if seen.get(i).copied().unwrap_or(true) || c.virtual_column || t.excluded.contains(&c.name)
        {
            continue;
        }
        if c.data_type.never_supplementally_logged() {
            lobs.push(i);
        } else {
            missing.push(i);
        }
    }
    (lobs, missing)
}

/// `image` with the placeholder for each of `lobs` (indexes into `cols`), in column order.
fn with_unavailable(image: &mut Image, cols: &[ColumnInfo], lobs: &[usize]) {
    for &i in lobs {
        image.push((cols[i].name.clone(), unavailable(&cols[i].data_type)));
    }
    image.sort_by_key(|(n, _)| position(cols, n));
}

/// The statement being put together: the last change in `pending`, which rows after its DML
/// (LOB, XML and extended-string rows, the statement's last UPDATE or INTERNAL row) still add
/// to.
#[derive(Debug)]
struct Open {
    table: TableName,
    /// Its row with the real ROW_ID came: only a LOB row in the combined form (preamble and
    /// write in one LOB_WRITE, the change's own ROW_ID) may still add to it.
    closed: bool,
    /// The value being rebuilt, with its column.
    build: Option<Build>,
    /// The LOB columns whose values the statement's rows rebuilt so far.
    built: Vec<String>,
}

/// A LOB row without its SEL_LOB_LOCATOR that came before the DML of its statement (BASICFILE
/// storage out of row), held for the table's next INSERT or UPDATE.
#[derive(Debug)]
struct Unlocated {
    table: TableName,
    row: LogMinerRow,
    kind: Option<super::parse::LobKind>,
    piece: super::parse::LobPiece,
}

/// Decodes a committed transaction's rows as they stream in, holding back only the statement
/// being put together. The catalog is passed per call so DDL events can be applied between
/// calls.
pub struct Decoder {
    rows: TxRows,
    xid: String,
    pending: VecDeque<Result<Event>>,
    done: bool,
    /// The table of the last row decoded (see `Catalog::table_of`).
    last_table: Option<TableName>,
    /// Rows of captured tables decoded.
    captured: u64,
    /// Which columns the row being decoded names (see `typed`).
    seen: Vec<bool>,
    open: Option<Open>,
    /// Changes read by a recovery (undoubled quotes, `COL n` names), for the caller to report.
    recovered: Vec<Recovery>,
    /// Rows of objects LogMiner's dictionary did not know (`unknown`).
    unknown: super::unknown::UnknownRows,
    /// LOB rows waiting for their statement's DML (see [`Unlocated`]).
    unlocated: Vec<Unlocated>,
    /// The character sets of the current row's container (see `Catalog::charsets_of`), for
    /// text written as bytes.
    charsets: crate::charset::Charsets,
}

/// Whether a table has columns whose values LogMiner writes in rows after the DML.
fn has_pieces(cols: &[ColumnInfo]) -> bool {
    cols.iter().any(|c| {
        c.data_type.is_lob() || c.data_type == ColumnType::Json || c.data_type.is_extended()
    })
}

impl Decoder {
    /// Takes the transaction's rows; its other fields stay with the caller.
    pub fn new(tx: &mut Committed) -> Decoder {
        Decoder {
            rows: std::mem::take(&mut tx.rows),
            xid: tx.xid.clone(),
            // Room for a small transaction's changes without regrowing.
            pending: VecDeque::with_capacity(16),
            done: false,
            last_table: None,
            captured: 0,
            seen: Vec::new(),
            open: None,
            recovered: Vec::new(),
            unknown: Default::default(),
            unlocated: Vec::new(),
            charsets: Default::default(),
        }
    }

    /// The rows of unknown objects seen since the last call, by outcome (see `unknown`).
    pub fn take_unknown(&mut self) -> super::unknown::UnknownRows {
        std::mem::take(&mut self.unknown)
    }

    /// The changes read by a recovery since the last call (see [`Recovery`]).
    pub fn take_recovered(&mut self) -> Vec<Recovery> {
        std::mem::take(&mut self.recovered)
    }

    /// The next event, decoded with `catalog`; `None` at the end of the transaction. Rows of
    /// tables not captured are skipped. A row that cannot be decoded is an error carrying its
    /// SCN and XID (the caller decides fail or dead-letter); so is a spill file that cannot be
    /// read, after which the stream ends.
    pub fn next_event(&mut self, catalog: &Catalog) -> Option<Result<Event>> {
        loop {
            let held = usize::from(self.open.is_some());
            if self.pending.len() > held {
                return self.pending.pop_front();
            }
            if self.done {
                return self.pending.pop_front();
            }
            match self.rows.next() {
                None => {
                    self.release(catalog);
                    self.unlocated_left();
                    self.done = true;
                }
                Some(Err(e)) => {
                    self.release(catalog);
                    self.pending.push_back(Err(e));
                }
                Some(Ok(row)) => self.decode_row(row, catalog),
            }
        }
    }

    /// Rows of captured tables decoded so far (changes, LOB writes and DDL).
    pub fn captured_rows(&self) -> u64 {
        self.captured
    }

    /// The open statement's change, if it is still a change (not an error).
    fn open_change(&mut self) -> Option<&mut Change> {
        self.open.as_ref()?;
        match self.pending.back_mut() {
            Some(Ok(Event::Change(c))) => Some(c),
            _ => None,
        }
    }

    /// The open statement is done: its value in progress goes into the change, a JSON
    /// document that never came is reported.
    fn release(&mut self, catalog: &Catalog) {
        self.finish_build(catalog);
        let Some(open) = self.open.take() else {
            return;
        };
        let xid = self.xid.clone();
        let Some(Ok(Event::Change(c))) = self.pending.back() else {
            return;
        };
        let Some(t) = catalog.tables.get(&open.table) else {
            return;
        };
        let cols = t.columns_at(c.scn);
        let missing = c.after.as_ref().and_then(|a| {
            a.iter().find(|(n, v)| {
                matches!(v, Value::Json(j) if j.is_empty())
                    && cols
                        .iter()
                        .any(|col| &col.name == n && col.data_type == ColumnType::Json)
            })
        });
        if let Some((column, _)) = missing {
            let e = CdcError::ValueNotInRedo {
                scn: c.scn,
                xid,
                table: t.name.to_string(),
                column: column.clone(),
                message: "the INSERT named `/* JSON */ EMPTY_BLOB()` and no row of the statement wrote the document".into(),
            };
            if let Some(last) = self.pending.back_mut() {
                *last = Err(e);
            }
        }
    }

    /// The value being rebuilt is complete: into the open change (or its error in place of
    /// the change).
    fn finish_build(&mut self, catalog: &Catalog) {
        let Some(build) = self.open.as_mut().and_then(|o| o.build.take()) else {
            return;
        };
        let Some(table) = self.open.as_ref().map(|o| o.table.clone()) else {
            return;
        };
        let xid = self.xid.clone();
        let Some(Ok(Event::Change(c))) = self.pending.back_mut() else {
            return;
        };
        let Some(t) = catalog.tables.get(&table) else {
            return;
        };
        let column = build.column.clone();
        if let Some(o) = self.open.as_mut() {
            o.built.push(column.clone());
        }
        if t.excluded.contains(&column) {
            return;
        }
        let cols = t.columns_at(c.scn);
        let (scn, name) = (c.scn, t.name.to_string());
        match build.finish() {
            Ok(v) => {
                if let Some(after) = c.after.as_mut() {
                    match after.iter_mut().find(|(n, _)| *n == column) {
                        Some(slot) => slot.1 = v,
                        None => after.push((column, v)),
                    }
                    after.sort_by_key(|(n, _)| position(cols, n));
                }
            }
            Err((unsupported, message)) => {
                let e = if unsupported {
                    CdcError::ValueNotInRedo {
                        scn,
                        xid,
                        table: name,
                        column,
                        message,
                    }
                } else {
                    CdcError::RedoParse {
                        scn,
                        xid,
                        table: name,
                        message: format!("column {column}: {message}"),
                    }
                };
                if let Some(last) = self.pending.back_mut() {
                    *last = Err(e);
                }
            }
        }
    }

    /// Decode one row (taken: its strings move into the change); a row LogMiner could not
    /// name (`UNKNOWN`.`OBJ# n`) as its captured table's, its errors as CDC-3050.
    fn decode_row(&mut self, mut row: LogMinerRow, catalog: &Catalog) {
        use super::unknown::Resolution;
        // Per row: in root mode a transaction's rows may come from PDBs of different sets.
        self.charsets = catalog.charsets_of(&row);
        match super::unknown::resolve(&mut row, catalog) {
            Resolution::Named => self.decode_named(row, catalog),
            // Another table's row: as any row of a table not captured.
            Resolution::NotCaptured => {
                self.unknown.not_captured(&row);
                self.decode_named(row, catalog)
            }
            Resolution::Captured(object) => {
                self.unknown.resolved += 1;
                let from = self.pending.len();
                self.decode_named(row, catalog);
                super::unknown::name_errors(&mut self.pending, from, object);
            }
        }
    }

    fn decode_named(&mut self, row: LogMinerRow, catalog: &Catalog) {
        // Oracle's own DDL (INFO `INTERNAL DDL…`) changes nothing capture tracks; the mining
        // filter leaves it out too.
        if cdc_core::filter::is_internal_ddl(&row) {
            return;
        }
        let handling = Handling::of(row.operation_code);
        match handling {
            Handling::Start | Handling::Commit | Handling::Rollback | Handling::Ignored => return,
            Handling::StatementEnd => {
                // No table names on these rows: it ends whatever statement is open.
                if row.row_id != LOB_ROWID {
                    self.finish_build(catalog);
                    let rid = row.row_id;
                    if let Some(c) = self.open_change() {
                        if c.row_id == LOB_ROWID {
                            c.row_id = rid;
                        }
                    }
                    if let Some(o) = self.open.as_mut() {
                        o.closed = true;
                    }
                }
                return;
            }
            _ => {}
        }
        let Some(t) = catalog.table_of(&row, &mut self.last_table) else {
            // Another table's statement: the open one is over.
            if matches!(handling, Handling::Dml | Handling::Ddl) {
                self.release(catalog);
            }
            // A table created while capture runs: the publisher decides whether it is captured.
            if let Some(table) = catalog.name_of(&row).filter(|_| is_create_table(&row)) {
                self.pending.push_back(Ok(Event::Ddl {
                    table,
                    scn: row.scn,
                    sql: row.sql_redo,
                }));
            }
            return;
        };
        self.captured += 1;
        let cols = t.columns_at(row.scn);
        match handling {
            Handling::Ddl if is_truncate_table_sql(&row.sql_redo) => {
                self.release(catalog);
                // Every row is gone: a change of the whole table, published at its place in
                // the transaction as Debezium does (a truncate record, op `t`); the layout
                // stays.
                self.pending.push_back(Ok(Event::Change(Change {
                    table: t.name.clone(),
                    op: ChangeOp::Truncate,
                    before: None,
                    after: None,
                    scn: row.scn,
                    rs_id: row.rs_id,
                    ssn: row.ssn,
                    row_id: row.row_id,
                    user: row.username,
                    timestamp: row.timestamp,
                })));
            }
            Handling::Ddl => {
                self.release(catalog);
                // Published (and applied to the catalog) before later rows are decoded.
                self.pending.push_back(Ok(Event::Ddl {
                    table: t.name.clone(),
                    scn: row.scn,
                    sql: row.sql_redo,
                }));
            }
            Handling::Dml | Handling::Piece(_) if row.status == NOT_GUARANTEED => {
                // Written without minimal supplemental logging: LogMiner guessed the SQL.
                self.release(catalog);
                self.pending.push_back(Err(CdcError::NoSupplementalLogging {
                    scn: row.scn,
                    xid: self.xid.clone(),
                    table: t.name.to_string(),
                    status: row.status,
                    info: row.info.clone().unwrap_or_default(),
                }));
            }
            Handling::Reported => {
                self.release(catalog);
                let e = if row.operation_code == op::UNSUPPORTED {
                    let gg = catalog.goldengate_replication;
                    let reason = cols
                        .iter()
                        .find_map(|c| match c.data_type.logminer_support(gg) {
                            crate::types::LogMinerSupport::TableUnsupported(why) => {
                                Some(format!(": column {} — {why}", c.name))
                            }
                            _ => None,
                        })
                        .unwrap_or_default();
                    CdcError::UnsupportedRow {
                        scn: row.scn,
                        xid: self.xid.clone(),
                        table: t.name.to_string(),
                        row_id: row.row_id,
                        reason,
                    }
                } else if row.operation_code == op::MISSING_SCN {
                    CdcError::MissingScn {
                        scn: row.scn,
                        thread: row.thread,
                    }
                } else {
                    CdcError::UnknownOperation {
                        scn: row.scn,
                        xid: self.xid.clone(),
                        table: t.name.to_string(),
                        code: row.operation_code,
                        operation: row.operation,
                    }
                };
                self.pending.push_back(Err(e));
            }
            // The schema is borrowed from the catalog, not cloned (a clone per row was a tenth
            // of decoding).
            Handling::Piece(kind) => self.piece(kind, row, t, catalog),
            Handling::Dml => self.dml(row, t, catalog),
            _ => {}
        }
    }

    /// An INSERT, UPDATE or DELETE. An UPDATE with the row's ROW_ID that follows its own
    /// statement's earlier rows (the in-row LOB values of an INSERT or UPDATE) merges into it.
    fn dml(&mut self, row: LogMinerRow, t: &TableSchema, catalog: &Catalog) {
        let cols = t.columns_at(row.scn);
        // A captured column of a type capture does not stream (LONG, LONG RAW): the change is
        // reported, never published with a value LogMiner may have replaced ('LONG DATA').
        if let Some((c, why)) = cols
            .iter()
            .find_map(|c| match c.data_type.logminer_support(true) {
                crate::types::LogMinerSupport::ColumnNotStreamed(why)
                    if !t.excluded.contains(&c.name) =>
                {
                    Some((c, why))
                }
                _ => None,
            })
        {
            let e = CdcError::ColumnNotStreamed {
                scn: row.scn,
                xid: self.xid.clone(),
                table: t.name.to_string(),
                column: c.name.clone(),
                data_type: if c.data_type == ColumnType::Long {
                    "LONG"
                } else {
                    "LONG RAW"
                },
                reason: why,
            };
            self.release(catalog);
            self.pending.push_back(Err(e));
            return;
        }
        // What LogMiner writes wrong (undoubled quotes, `COL n` names) is read where the
        // table's columns make it certain (see `lenient`), else an error.
        let recovered_before = self.recovered.len();
        let cs = self.charsets;
        let rec = &mut self.recovered;
        let dml = parse_dml(&row.sql_redo)
            .or_else(|e| super::lenient::reread(&row, t, cols, &self.xid, e, rec, cs))
            .and_then(|d| super::lenient::named(d, &row, t, cols, &self.xid, rec, cs));
        let dml = match dml {
            Ok(d) => d,
            Err(e) => {
                self.release(catalog);
                self.pending.push_back(Err(e));
                return;
            }
        };
        let kind = dml.kind;
        let continues = kind == DmlKind::Update
            && row.row_id != LOB_ROWID
            && self
                .open
                .as_ref()
                .is_some_and(|o| !o.closed && o.table == t.name);
        // One buffer for every row's columns named (no allocation per change).
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        seen.resize(cols.len(), false);
        if continues {
            self.finish_build(catalog);
            let set = typed(t, cols, dml.new, &row, &self.xid, &mut seen, self.charsets);
            self.seen = seen;
            let rid = row.row_id;
            match set {
                Ok(set) => {
                    if let Some(c) = self.open_change() {
                        if let Some(after) = c.after.as_mut() {
                            *after = overlay(after, set, cols);
                        }
                        c.row_id = rid;
                    }
                }
                Err(e) => {
                    // Not read after all: an error, not a recovery.
                    self.recovered.truncate(recovered_before);
                    if let Some(last) = self.pending.back_mut() {
                        *last = Err(e);
                    }
                }
            }
            if let Some(o) = self.open.as_mut() {
                o.closed = true;
            }
            return;
        }
        self.release(catalog);
        let images = (|| -> Result<(Option<Image>, Option<Image>)> {
            let xid = self.xid.as_str();
            let cs = self.charsets;
            Ok(match kind {
                DmlKind::Insert => (
                    None,
                    Some(typed(t, cols, dml.new, &row, xid, &mut seen, cs)?),
                ),
                DmlKind::Delete => {
                    let mut before = typed(t, cols, dml.old, &row, xid, &mut seen, cs)?;
                    let (lobs, _) = unlogged(t, cols, &seen);
                    if !lobs.is_empty() {
                        with_unavailable(&mut before, cols, &lobs);
                    }
                    (Some(before), None)
                }
                DmlKind::Update => {
                    let mut before = typed(t, cols, dml.old, &row, xid, &mut seen, cs)?;
                    // The LOB-like columns the WHERE lacks have no old value in the redo, named
                    // in the SET or not: the placeholder in the before image.
                    let (lobs, _) = unlogged(t, cols, &seen);
                    let set = typed(t, cols, dml.new, &row, xid, &mut seen, cs)?;
                    let (_, missing) = unlogged(t, cols, &seen);
                    if !missing.is_empty() {
                        return Err(incomplete(t, cols, &missing, &row, xid));
                    }
                    if !lobs.is_empty() {
                        with_unavailable(&mut before, cols, &lobs);
                    }
                    let after = overlay(&before, set, cols);
                    (Some(before), Some(after))
                }
            })
        })();
        self.seen = seen;
        match images {
            Err(e) => {
                // Not read after all: an error, not a recovery.
                self.recovered.truncate(recovered_before);
                self.pending.push_back(Err(e))
            }
            Ok((before, after)) => {
                let open = row.row_id == LOB_ROWID || (kind != DmlKind::Delete && has_pieces(cols));
                let closed = row.row_id != LOB_ROWID;
                self.pending.push_back(Ok(Event::Change(Change {
                    table: t.name.clone(),
                    op: match kind {
                        DmlKind::Insert => ChangeOp::Create,
                        DmlKind::Update => ChangeOp::Update,
                        DmlKind::Delete => ChangeOp::Delete,
                    },
                    before,
                    after,
                    scn: row.scn,
                    rs_id: row.rs_id,
                    ssn: row.ssn,
                    row_id: row.row_id,
                    user: row.username,
                    timestamp: row.timestamp,
                })));
                if open {
                    self.open = Some(Open {
                        table: t.name.clone(),
                        closed,
                        build: None,
                        built: Vec::new(),
                    });
                }
                if kind != DmlKind::Delete {
                    self.attach_unlocated(t, catalog);
                }
            }
        }
    }

    /// An error in a row of the open statement: the statement's change becomes that error
    /// (its later rows go with it); without an open statement the error stands alone.
    fn fail_open(&mut self, e: CdcError, catalog: &Catalog) {
        if self.open.is_some() {
            if let Some(o) = self.open.as_mut() {
                o.build = None;
            }
            if let Some(last) = self.pending.back_mut() {
                if last.is_ok() {
                    *last = Err(e);
                }
            }
            return;
        }
        self.release(catalog);
        self.pending.push_back(Err(e));
    }
}

/// An UPDATE's before image made whole: a column neither logged nor set is CDC-3201; LOB-like
/// ones (never supplementally logged) get the placeholder.
fn complete_before(
    t: &TableSchema,
    cols: &[ColumnInfo],
    seen: &[bool],
    row: &LogMinerRow,
    xid: &str,
    before: &mut Image,
) -> Result<()> {
    let (lobs, missing) = unlogged(t, cols, seen);
    if !missing.is_empty() {
        return Err(incomplete(t, cols, &missing, row, xid));
    }
    if !lobs.is_empty() {
        with_unavailable(before, cols, &lobs);
    }
    Ok(())
}

/// CDC-3201 for the columns `missing` (indexes into `cols`).
fn incomplete(
    t: &TableSchema,
    cols: &[ColumnInfo],
    missing: &[usize],
    row: &LogMinerRow,
    xid: &str,
) -> CdcError {
    let names: Vec<&str> = missing.iter().map(|&i| cols[i].name.as_str()).collect();
    CdcError::IncompleteChange {
        scn: row.scn,
        xid: xid.to_string(),
        table: t.name.to_string(),
        columns: names.join(", "),
    }
}

/// Decode a whole committed transaction at once (small transactions, tests); see [`Decoder`].
pub fn decode(tx: &mut Committed, catalog: &Catalog) -> Vec<Result<Event>> {
    let mut d = Decoder::new(tx);
    std::iter::from_fn(|| d.next_event(catalog)).collect()
}

#[path = "decode_pieces.rs"]
mod pieces;

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
