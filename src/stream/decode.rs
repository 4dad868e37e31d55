//! A committed transaction's LogMiner rows → row changes with typed before/after images,
//! decoded with each table's columns as of the change's SCN (the schema history).

use super::buffer::{Committed, TxRows};
use super::parse::{into_value, parse_dml, parse_lob_write, to_value, DmlKind, Literal};
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::source::model::{op, ColumnInfo, LogMinerRow, Scn, TableInfo};
use crate::types::Value;
use std::collections::{HashMap, VecDeque};

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

/// The typed image of a statement's items (taken, so their names move into it).
fn typed(
    t: &TableSchema,
    cols: &[ColumnInfo],
    items: Vec<(String, Literal)>,
    row: &LogMinerRow,
    xid: &str,
) -> Result<Image> {
    let mut out: Image = Vec::with_capacity(items.len());
    let mut last = 0;
    let mut in_order = true;
    for (name, lit) in items {
        // Excluded columns are never published. LogMiner cannot render some types (VECTOR,
        // BOOLEAN before 23ai's support, BFILE, XMLTYPE in-line…): their value is unavailable
        // in the redo, so the column is left out of the image rather than guessed.
        if t.excluded.contains(&name) || matches!(lit, Literal::Unsupported) {
            continue;
        }
        let Some(i) = cols.iter().position(|c| c.name == name) else {
            let message = format!("column {name} is not in the table's columns at this SCN");
            return Err(redo_error(row, t, xid, message));
        };
        let v = into_value(lit, &cols[i].data_type)
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
        }
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
                let dml = match parse_dml(&row.sql_redo) {
                    Ok(d) => d,
                    Err(e) => {
                        self.pending
                            .push_back(Err(parse_err(&row, t, &self.xid, e)));
                        return;
                    }
                };
                let kind = dml.kind;
                let images = (|| -> Result<(Option<Image>, Option<Image>)> {
                    let xid = self.xid.as_str();
                    Ok(match kind {
                        DmlKind::Insert => (None, Some(typed(t, cols, dml.new, &row, xid)?)),
                        DmlKind::Delete => (Some(typed(t, cols, dml.old, &row, xid)?), None),
                        DmlKind::Update => {
                            let before = typed(t, cols, dml.old, &row, xid)?;
                            let set = typed(t, cols, dml.new, &row, xid)?;
                            let after = overlay(&before, set, cols);
                            (Some(before), Some(after))
                        }
                    })
                })();
                match images {
                    Err(e) => self.pending.push_back(Err(e)),
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
    use crate::types::ColumnType;

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
}
