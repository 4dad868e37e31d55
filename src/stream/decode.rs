//! A committed transaction's LogMiner rows → row changes with typed before/after images,
//! decoded with each table's columns as of the change's SCN (the schema history).

use super::buffer::{Committed, TxRows};
use super::parse::{into_value, parse_dml, parse_lob_write, to_value, DmlKind, Literal};
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::source::model::{op, ColumnInfo, LogMinerRow, Scn, TableInfo};
use crate::types::{ColumnType, Value};
use std::collections::{HashMap, VecDeque};

pub use super::lenient::{Recovery, RecoveryKind};

/// A captured table's schema over time.
#[derive(Debug, Clone)]
pub struct TableSchema {
    pub name: TableName,
    /// Column layouts by the SCN they took effect at, oldest first (never empty).
    pub history: Vec<(Scn, Vec<ColumnInfo>)>,
    /// Record key columns.
    pub key: Vec<String>,
    /// cdc.columns.exclude: never published.
    pub excluded: Vec<String>,
}

impl TableSchema {
    pub fn columns_at(&self, scn: Scn) -> &[ColumnInfo] {
        self.history
            .iter()
            .rev()
            .find(|(s, _)| *s <= scn)
            .or(self.history.first())
            .map(|(_, c)| c.as_slice())
            .unwrap_or(&[])
    }
}

/// The captured tables, looked up by LogMiner's (SRC_CON_NAME, SEG_OWNER, TABLE_NAME).
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// A multitenant database: SRC_CON_NAME is the PDB part of table names.
    pub cdb: bool,
    pub tables: HashMap<TableName, TableSchema, foldhash::fast::RandomState>,
}

impl Catalog {
    /// The table of a row; `last` keeps the previous row's table name, so rows of the same
    /// table (most of a transaction's) are looked up without building a name.
    fn table_of(&self, row: &LogMinerRow, last: &mut Option<TableName>) -> Option<&TableSchema> {
        let pdb = self.cdb.then_some(row.src_con_name.as_str());
        let same = last.as_ref().is_some_and(|n| {
            row.table_name.as_deref() == Some(n.table.as_str())
                && row.seg_owner.as_deref() == Some(n.owner.as_str())
                && n.pdb.as_deref() == pdb
        });
        if !same {
            *last = Some(self.name_of(row)?);
        }
        self.tables.get(last.as_ref()?)
    }

    /// The table a row is about (PDB from SRC_CON_NAME in a CDB).
    pub fn name_of(&self, row: &LogMinerRow) -> Option<TableName> {
        let owner = row.seg_owner.as_deref()?;
        let table = row.table_name.as_deref()?;
        let pdb = self.cdb.then_some(row.src_con_name.as_str());
        Some(TableName::new(pdb, owner, table))
    }

    /// A table's definition changed at `scn`: the layout after `sql` (ADD/DROP/RENAME COLUMN
    /// read from the statement), or the dictionary's when the statement says nothing about
    /// columns it understands. Returns whether the layout changed.
    pub fn apply_ddl(
        &mut self,
        table: &TableName,
        scn: Scn,
        sql: &str,
        dictionary: Option<&TableInfo>,
    ) -> bool {
        let Some(t) = self.tables.get_mut(table) else {
            return false;
        };
        let current = t.columns_at(scn).to_vec();
        let Some(next) =
            super::ddl::apply(&current, sql).or_else(|| dictionary.map(|i| i.columns.clone()))
        else {
            return false;
        };
        if next == current {
            return false;
        }
        // Seen again after a restart: the same SCN replaces, never duplicates.
        t.history.retain(|(s, _)| *s != scn);
        let at = t.history.partition_point(|(s, _)| *s < scn);
        t.history.insert(at, (scn, next));
        true
    }

    /// A table was created at `scn` with `columns` (read from its CREATE TABLE): its layout from
    /// then on, until a later DDL. Returns whether the history changed.
    pub fn apply_create(&mut self, table: &TableName, scn: Scn, columns: Vec<ColumnInfo>) -> bool {
        let Some(t) = self.tables.get_mut(table) else {
            return false;
        };
        if t.history.iter().any(|(s, c)| *s == scn && *c == columns) {
            return false;
        }
        t.history.retain(|(s, _)| *s != scn);
        let at = t.history.partition_point(|(s, _)| *s < scn);
        t.history.insert(at, (scn, columns));
        true
    }

    /// The history of every table, for the state directory.
    pub fn history(&self) -> std::collections::BTreeMap<String, Vec<(Scn, Vec<ColumnInfo>)>> {
        self.tables
            .iter()
            .map(|(n, t)| (n.to_string(), t.history.clone()))
            .collect()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeOp {
    Create,
    Update,
    Delete,
}

impl ChangeOp {
    pub fn code(self) -> &'static str {
        match self {
            ChangeOp::Create => "c",
            ChangeOp::Update => "u",
            ChangeOp::Delete => "d",
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

/// What capture does with a V$LOGMNR_CONTENTS row, by OPERATION_CODE: the one table the
/// transaction buffer and the decoder dispatch on. The mining filter's operation codes are
/// derived from it ([`handled_codes`]), so the query never leaves out a row they handle; a
/// code handled here is mined from then on.
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
    /// A LOB's content, merged into the change it follows.
    LobWrite,
    /// DDL of a captured table, or a CREATE TABLE.
    Ddl,
}

impl Handling {
    /// `None`: capture has no use for the code.
    pub fn of(code: u32) -> Option<Handling> {
        Some(match code {
            op::START => Handling::Start,
            op::COMMIT => Handling::Commit,
            op::ROLLBACK => Handling::Rollback,
            op::INSERT | op::UPDATE | op::DELETE => Handling::Dml,
            op::LOB_WRITE => Handling::LobWrite,
            op::DDL => Handling::Ddl,
            _ => return None,
        })
    }
}

/// Every OPERATION_CODE capture handles (LogMiner's codes are 0..=255), ascending.
pub fn handled_codes() -> Vec<u32> {
    (0..=255).filter(|c| Handling::of(*c).is_some()).collect()
}

/// A DDL row creating a table (`CREATE TABLE`, any case; `CREATE GLOBAL TEMPORARY` tables are
/// never captured, so not those).
pub fn is_create_table(row: &LogMinerRow) -> bool {
    row.operation_code == crate::source::model::op::DDL && is_create_table_sql(&row.sql_redo)
}

/// Whether DDL text is a `CREATE TABLE`.
pub fn is_create_table_sql(sql: &str) -> bool {
    sql.trim_start()
        .get(..12)
        .is_some_and(|p| p.eq_ignore_ascii_case("create table"))
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

fn redo_error(row: &LogMinerRow, t: &TableSchema, xid: &str, message: String) -> CdcError {
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
        ColumnType::Blob | ColumnType::LongRaw => {
            Value::Bytes(UNAVAILABLE_VALUE.as_bytes().to_vec())
        }
        _ => Value::Text(UNAVAILABLE_VALUE.to_string()),
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
        // LogMiner cannot render some types (VECTOR, BOOLEAN before 23ai's support, BFILE,
        // XMLTYPE in-line…): the redo holds no value for them, so the placeholder, never a guess.
        let v = if matches!(lit, Literal::Unsupported) {
            unavailable(&cols[i].data_type)
        } else {
            into_value(lit, &cols[i].data_type)
                .map_err(|message| redo_error(row, t, xid, format!("column {name}: {message}")))?
        };
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

/// Changes kept back so a LOB_WRITE can still merge into the change it belongs to.
const LOB_LOOKBACK: usize = 64;

/// Decodes a committed transaction's rows as they stream in, holding back only the last few
/// changes (a LOB_WRITE merges into the latest change of the same row among them). The catalog
/// is passed per call so DDL events can be applied between calls.
pub struct Decoder {
    rows: TxRows,
    xid: String,
    pending: VecDeque<Result<Event>>,
    /// Events at the front of `pending` to hand out before decoding more rows.
    flush: usize,
    done: bool,
    /// The table of the last row decoded (see `Catalog::table_of`).
    last_table: Option<TableName>,
    /// Rows of captured tables decoded.
    captured: u64,
    /// Which columns the row being decoded names (see `typed`).
    seen: Vec<bool>,
    /// Changes read by a recovery (undoubled quotes, `COL n` names), for the caller to report.
    recovered: Vec<Recovery>,
}

impl Decoder {
    /// Takes the transaction's rows; its other fields stay with the caller.
    pub fn new(tx: &mut Committed) -> Decoder {
        Decoder {
            rows: std::mem::take(&mut tx.rows),
            xid: tx.xid.clone(),
            // Room for a small transaction's changes without regrowing.
            pending: VecDeque::with_capacity(16),
            flush: 0,
            done: false,
            last_table: None,
            captured: 0,
            seen: Vec::new(),
            recovered: Vec::new(),
        }
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
            if self.flush > 0 || self.done || self.pending.len() > LOB_LOOKBACK {
                self.flush = self.flush.saturating_sub(1);
                if let Some(e) = self.pending.pop_front() {
                    return Some(e);
                }
                if self.done {
                    return None;
                }
            }
            match self.rows.next() {
                None => self.done = true,
                Some(Err(e)) => {
                    self.pending.push_back(Err(e));
                    self.flush = self.pending.len();
                }
                Some(Ok(row)) => self.decode_row(row, catalog),
            }
        }
    }

    /// Rows of captured tables decoded so far (changes, LOB writes and DDL).
    pub fn captured_rows(&self) -> u64 {
        self.captured
    }

    /// Decode one row (taken: its strings move into the change).
    fn decode_row(&mut self, row: LogMinerRow, catalog: &Catalog) {
        // Oracle's own DDL (INFO `INTERNAL DDL…`) changes nothing capture tracks; the mining
        // filter leaves it out too.
        if crate::source::filter::is_internal_ddl(&row) {
            return;
        }
        let Some(t) = catalog.table_of(&row, &mut self.last_table) else {
            // A table created while capture runs: the publisher decides whether it is captured.
            if let Some(table) = catalog.name_of(&row).filter(|_| is_create_table(&row)) {
                self.pending.push_back(Ok(Event::Ddl {
                    table,
                    scn: row.scn,
                    sql: row.sql_redo,
                }));
                self.flush = self.pending.len();
            }
            return;
        };
        let parse_err =
            |row: &LogMinerRow, t: &TableSchema, xid: &str, e: super::parse::ParseError| {
                redo_error(row, t, xid, e.to_string())
            };
        let cols = t.columns_at(row.scn);
        self.captured += 1;
        match Handling::of(row.operation_code) {
            Some(Handling::Ddl) => {
                self.pending.push_back(Ok(Event::Ddl {
                    table: t.name.clone(),
                    scn: row.scn,
                    sql: row.sql_redo.clone(),
                }));
                // Published (and applied to the catalog) before later rows are decoded.
                self.flush = self.pending.len();
            }
            Some(Handling::Dml | Handling::LobWrite) if row.status == NOT_GUARANTEED => {
                // Written without minimal supplemental logging: LogMiner guessed the SQL.
                self.pending.push_back(Err(CdcError::NoSupplementalLogging {
                    scn: row.scn,
                    xid: self.xid.clone(),
                    table: t.name.to_string(),
                    status: row.status,
                    info: row.info.clone().unwrap_or_default(),
                }));
            }
            Some(Handling::LobWrite) => {
                // Merge the LOB's content into the change of the same row just before it.
                let lob = match parse_lob_write(&row.sql_redo) {
                    Ok(l) => l,
                    Err(e) => {
                        self.pending
                            .push_back(Err(parse_err(&row, t, &self.xid, e)));
                        return;
                    }
                };
                if t.excluded.iter().any(|e| e == &lob.column) {
                    return;
                }
                let Some(col) = cols.iter().find(|c| c.name == lob.column) else {
                    return;
                };
                let value = match to_value(&lob.data, &col.data_type) {
                    Ok(v) => v,
                    Err(message) => {
                        self.pending.push_back(Err(CdcError::RedoParse {
                            scn: row.scn,
                            xid: self.xid.clone(),
                            table: t.name.to_string(),
                            message,
                        }));
                        return;
                    }
                };
                let target = self.pending.iter_mut().rev().find_map(|e| match e {
                    Ok(Event::Change(c))
                        if c.table == t.name && c.row_id == row.row_id && c.after.is_some() =>
                    {
                        Some(c)
                    }
                    _ => None,
                });
                if let Some(c) = target {
                    if let Some(after) = c.after.as_mut() {
                        match after.iter_mut().find(|(n, _)| n == &lob.column) {
                            Some(slot) => slot.1 = value,
                            None => after.push((lob.column.clone(), value)),
                        }
                        after.sort_by_key(|(n, _)| {
                            cols.iter().position(|c| &c.name == n).unwrap_or(usize::MAX)
                        });
                    }
                }
            }
            Some(Handling::Dml) => {
                // What LogMiner writes wrong (undoubled quotes, `COL n` names) is read where
                // the table's columns make it certain (see `lenient`), else an error.
                let rec = &mut self.recovered;
                let dml = parse_dml(&row.sql_redo)
                    .or_else(|e| super::lenient::reread(&row, t, cols, &self.xid, e, rec))
                    .and_then(|d| super::lenient::named(d, &row, t, cols, &self.xid, rec));
                let dml = match dml {
                    Ok(d) => d,
                    Err(e) => {
                        self.pending.push_back(Err(e));
                        return;
                    }
                };
                let kind = dml.kind;
                let recovered_before = self.recovered.len();
                // One buffer for every row's columns named (no allocation per change).
                let mut seen = std::mem::take(&mut self.seen);
                seen.clear();
                seen.resize(cols.len(), false);
                let images = (|| -> Result<(Option<Image>, Option<Image>)> {
                    let xid = self.xid.as_str();
                    Ok(match kind {
                        DmlKind::Insert => {
                            (None, Some(typed(t, cols, dml.new, &row, xid, &mut seen)?))
                        }
                        DmlKind::Delete => {
                            let mut before = typed(t, cols, dml.old, &row, xid, &mut seen)?;
                            let (lobs, _) = unlogged(t, cols, &seen);
                            if !lobs.is_empty() {
                                with_unavailable(&mut before, cols, &lobs);
                            }
                            (Some(before), None)
                        }
                        DmlKind::Update => {
                            let mut before = typed(t, cols, dml.old, &row, xid, &mut seen)?;
                            let set = typed(t, cols, dml.new, &row, xid, &mut seen)?;
                            let (lobs, missing) = unlogged(t, cols, &seen);
                            if !missing.is_empty() {
                                let names: Vec<&str> =
                                    missing.iter().map(|&i| cols[i].name.as_str()).collect();
                                return Err(CdcError::IncompleteChange {
                                    scn: row.scn,
                                    xid: xid.to_string(),
                                    table: t.name.to_string(),
                                    columns: names.join(", "),
                                });
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
                    Ok((before, after)) => self.pending.push_back(Ok(Event::Change(Change {
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
                    }))),
                }
            }
            _ => {}
        }
    }
}

/// Decode a whole committed transaction at once (small transactions, tests); see [`Decoder`].
pub fn decode(tx: &mut Committed, catalog: &Catalog) -> Vec<Result<Event>> {
    let mut d = Decoder::new(tx);
    std::iter::from_fn(|| d.next_event(catalog)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::buffer::TxBuffer;

    fn col(name: &str, data_type: ColumnType) -> ColumnInfo {
        ColumnInfo {
            name: name.into(),
            data_type,
            nullable: true,
            virtual_column: false,
            hidden: false,
        }
    }

    fn catalog() -> Catalog {
        let name = TableName::new(None, "O", "T");
        let cols = vec![
            col(
                "ID",
                ColumnType::Number {
                    precision: None,
                    scale: None,
                },
            ),
            col("C", ColumnType::Clob),
        ];
        let mut c = Catalog::default();
        c.tables.insert(
            name.clone(),
            TableSchema {
                name,
                history: vec![(0, cols)],
                key: vec!["ID".into()],
                excluded: vec![],
            },
        );
        c
    }

    fn row(code: u32, scn: Scn, rid: &str, sql: &str) -> LogMinerRow {
        LogMinerRow {
            scn,
            commit_scn: (code == op::COMMIT).then_some(scn),
            start_scn: None,
            timestamp: String::new(),
            commit_timestamp: None,
            xid: "0200030004000000".into(),
            xidusn: 0,
            xidslt: 0,
            xidsqn: 0,
            operation_code: code,
            operation: op::name(code).into(),
            seg_owner: Some("O".into()),
            table_name: Some("T".into()),
            row_id: rid.into(),
            sql_redo: sql.into(),
            csf: 0,
            rollback: 0,
            rs_id: String::new(),
            ssn: 0,
            thread: 1,
            sequence: 1,
            status: 0,
            info: None,
            src_con_name: String::new(),
            username: String::new(),
            data_obj: 0,
        }
    }

    fn insert(id: u64, c: &str) -> String {
        format!("insert into \"O\".\"T\"(\"ID\",\"C\") values ('{id}',{c});")
    }

    const LOB: &str = "DECLARE \n loc_c CLOB; \nBEGIN\n select \"C\" into loc_c from \"O\".\"T\" where \"ID\" = '1' and ROWID = 'A' for update;\n dbms_lob.write(loc_c, 5, 1, 'Test2');\nEND;";

    fn changes(events: Vec<Result<Event>>) -> Vec<Change> {
        events
            .into_iter()
            .map(|e| match e {
                Ok(Event::Change(c)) => c,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn lob_writes_merge_into_their_change_when_the_transaction_streams_from_disk() {
        let rows: Vec<LogMinerRow> =
            std::iter::once(row(op::INSERT, 1, "A", &insert(1, "EMPTY_CLOB()")))
                .chain(std::iter::once(row(op::LOB_WRITE, 2, "A", LOB)))
                .chain(
                    (0..200)
                        .map(|i| row(op::INSERT, 3 + i, &format!("R{i}"), &insert(100 + i, "'x'"))),
                )
                .chain(std::iter::once(row(
                    op::INSERT,
                    300,
                    "Z",
                    &insert(2, "'Test2'"),
                )))
                .collect();
        let dir = tempfile::tempdir().unwrap();
        let mut b = TxBuffer::new(4096, dir.path().join("spill")).unwrap();
        for r in rows.iter().cloned() {
            assert!(b.push(r).unwrap().is_none());
        }
        assert!(b.spilled_bytes() > 0);
        let mut tx = b.push(row(op::COMMIT, 400, "", "")).unwrap().unwrap();
        let streamed = changes(decode(&mut tx, &catalog()));
        // The same rows decoded from memory give the same changes.
        let mut whole = Committed {
            xid: tx.xid.clone(),
            start_scn: 1,
            commit_scn: 400,
            thread: 1,
            commit_timestamp: String::new(),
            rows: TxRows::from_vec(rows),
        };
        assert_eq!(changes(decode(&mut whole, &catalog())), streamed);
        assert_eq!(streamed.len(), 202, "the LOB write is no change of its own");
        let c_of = |c: &Change| {
            c.after
                .as_ref()
                .and_then(|a| a.iter().find(|(n, _)| n == "C").map(|(_, v)| v.clone()))
        };
        assert_eq!(streamed[0].row_id, "A");
        assert_eq!(c_of(&streamed[0]), c_of(&streamed[201]), "merged: 'Test2'");
        assert!(c_of(&streamed[0]).is_some());
    }

    /// Oracle's own DDL on a captured table (INFO `INTERNAL DDL…`) is no schema change and
    /// no CREATE TABLE; user DDL is.
    #[test]
    fn internal_ddl_is_skipped_and_user_ddl_is_not() {
        let ddl = |info: &str, sql: &str, table: &str| {
            let mut r = row(op::DDL, 5, "", sql);
            r.info = Some(info.into());
            r.table_name = Some(table.into());
            r
        };
        let internal = "INTERNAL DDL (PlSql=0 RecDep=0)";
        let user = "USER DDL (PlSql=0 RecDep=0)";
        let rows = vec![
            ddl(
                internal,
                "CREATE INDEX \"O\".\"SYS_AI_1\" ON \"O\".\"T\"(\"C\")",
                "T",
            ),
            ddl(internal, "create table \"O\".\"TMP\" (\"X\" NUMBER)", "TMP"),
            ddl(user, "alter table \"O\".\"T\" add (\"D\" DATE)", "T"),
            ddl(user, "create table \"O\".\"NEW\" (\"X\" NUMBER)", "NEW"),
        ];
        let mut tx = Committed {
            xid: "0200030004000000".into(),
            start_scn: 1,
            commit_scn: 10,
            thread: 1,
            commit_timestamp: String::new(),
            rows: TxRows::from_vec(rows),
        };
        let mut d = Decoder::new(&mut tx);
        let mut got = Vec::new();
        while let Some(e) = d.next_event(&catalog()) {
            match e {
                Ok(Event::Ddl { table, .. }) => got.push(table.table),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(got, ["T", "NEW"]);
        assert_eq!(d.captured_rows(), 1, "the user DDL of the captured table");
    }

    /// The mining filter's operation codes are exactly those the buffer and decoder act on.
    #[test]
    fn handled_codes_are_the_dispatch_table() {
        assert_eq!(handled_codes(), [1, 2, 3, 5, 6, 7, 10, 36]);
        for code in 0..=255 {
            let buffered = matches!(
                Handling::of(code),
                Some(Handling::Dml | Handling::LobWrite | Handling::Ddl)
            );
            assert_eq!(
                buffered,
                matches!(
                    code,
                    op::INSERT | op::UPDATE | op::DELETE | op::LOB_WRITE | op::DDL
                ),
                "{code}"
            );
        }
    }

    /// Rows of two captured tables and an uncaptured one, interleaved in one transaction: each
    /// change is of its own row's table (the decoder remembers the last table it looked up).
    #[test]
    fn interleaved_tables_decode_to_their_own_table() {
        let mut cat = catalog();
        let u = TableName::new(None, "O", "U");
        let mut schema = cat.tables[&TableName::new(None, "O", "T")].clone();
        schema.name = u.clone();
        cat.tables.insert(u.clone(), schema);
        let on = |table: &str, id: u64| {
            let mut r = row(
                op::INSERT,
                id,
                "A",
                &insert(id, "'x'").replace("\"T\"", &format!("\"{table}\"")),
            );
            r.table_name = Some(table.into());
            r
        };
        let rows = vec![
            on("T", 1),
            on("U", 2),
            on("U", 3),
            on("V", 4),
            on("T", 5),
            on("U", 6),
        ];
        let mut tx = Committed {
            xid: "0200030004000000".into(),
            start_scn: 1,
            commit_scn: 10,
            thread: 1,
            commit_timestamp: String::new(),
            rows: TxRows::from_vec(rows),
        };
        let got: Vec<(String, u64)> = changes(decode(&mut tx, &cat))
            .into_iter()
            .map(|c| (c.table.table.clone(), c.scn))
            .collect();
        let want = [("T", 1), ("U", 2), ("U", 3), ("T", 5), ("U", 6)];
        assert_eq!(got, want.map(|(t, s)| (t.to_string(), s)));
    }

    /// O.T with ID, A and a CLOB C; `excluded` columns are never published.
    fn catalog_with_a(excluded: &[&str]) -> Catalog {
        let mut c = catalog();
        let t = c.tables.values_mut().next().unwrap();
        t.history[0]
            .1
            .insert(1, col("A", ColumnType::Varchar2 { length: 10 }));
        t.excluded = excluded.iter().map(|e| e.to_string()).collect();
        c
    }

    fn decode_one(cat: &Catalog, r: LogMinerRow) -> Result<Event> {
        let mut tx = Committed {
            xid: "0200030004000000".into(),
            start_scn: 1,
            commit_scn: 10,
            thread: 1,
            commit_timestamp: String::new(),
            rows: TxRows::from_vec(vec![r]),
        };
        decode(&mut tx, cat).pop().unwrap()
    }

    #[test]
    fn an_update_without_a_columns_old_value_is_cdc_3201_naming_it() {
        // Minimal logging only: the WHERE holds the changed column, not A.
        let r = row(
            op::UPDATE,
            5,
            "A",
            "update \"O\".\"T\" set \"ID\" = '2' where \"ID\" = '1';",
        );
        match decode_one(&catalog_with_a(&[]), r.clone()) {
            Err(e @ CdcError::IncompleteChange { .. }) => {
                assert_eq!(e.code(), crate::errors::Code::Cdc3201);
                assert!(e.to_string().contains("no value for A:"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        // An excluded column is never published, so nothing is missing.
        assert!(decode_one(&catalog_with_a(&["A"]), r).is_ok());
    }

    #[test]
    fn a_lob_an_update_leaves_alone_is_the_unavailable_placeholder() {
        let image = |e: Result<Event>| match e {
            Ok(Event::Change(c)) => (c.before.unwrap(), c.after.unwrap()),
            other => panic!("{other:?}"),
        };
        let ph = Value::Text(UNAVAILABLE_VALUE.into());
        let (before, after) = image(decode_one(
            &catalog_with_a(&[]),
            row(
                op::UPDATE,
                5,
                "A",
                "update \"O\".\"T\" set \"A\" = 'y' where \"ID\" = '1' and \"A\" = 'x';",
            ),
        ));
        let text = |s: &str| Value::Text(s.into());
        let id = Value::Number("1".into());
        assert_eq!(
            before,
            vec![
                ("ID".into(), id.clone()),
                ("A".into(), text("x")),
                ("C".into(), ph.clone())
            ]
        );
        assert_eq!(
            after,
            vec![
                ("ID".into(), id.clone()),
                ("A".into(), text("y")),
                ("C".into(), ph.clone())
            ]
        );
        // Set in the statement: its value.
        let (_, after) = image(decode_one(
            &catalog_with_a(&[]),
            row(
                op::UPDATE,
                5,
                "A",
                "update \"O\".\"T\" set \"C\" = 'new' where \"ID\" = '1' and \"A\" = 'x';",
            ),
        ));
        assert_eq!(after[2], ("C".into(), text("new")));
        assert_eq!(
            unavailable(&ColumnType::Blob),
            Value::Bytes(UNAVAILABLE_VALUE.into())
        );
    }

    #[test]
    fn a_row_logminer_marks_status_3_is_cdc_3202() {
        let mut r = row(op::INSERT, 5, "A", &insert(1, "'x'"));
        r.status = 3;
        r.info = Some("no supplemental log data found".into());
        match decode_one(&catalog(), r) {
            Err(e @ CdcError::NoSupplementalLogging { .. }) => {
                assert_eq!(e.code(), crate::errors::Code::Cdc3202);
                assert!(
                    e.to_string().contains("no supplemental log data found"),
                    "{e}"
                );
            }
            other => panic!("{other:?}"),
        }
    }
}
