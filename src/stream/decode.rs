//! A committed transaction's LogMiner rows → row changes with typed before/after images,
//! decoded with each table's columns as of the change's SCN (the schema history).

use super::buffer::Committed;
use super::parse::{parse_dml, parse_lob_write, to_value, DmlKind, Literal};
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::source::model::{op, ColumnInfo, LogMinerRow, Scn, TableInfo};
use crate::types::Value;
use std::collections::HashMap;

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
    pub tables: HashMap<TableName, TableSchema>,
}

impl Catalog {
    pub fn table_of(&self, row: &LogMinerRow) -> Option<&TableSchema> {
        let owner = row.seg_owner.as_deref()?;
        let table = row.table_name.as_deref()?;
        let pdb = self.cdb.then_some(row.src_con_name.as_str());
        self.tables.get(&TableName::new(pdb, owner, table))
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

fn typed(
    t: &TableSchema,
    cols: &[ColumnInfo],
    items: &[(String, Literal)],
    row: &LogMinerRow,
    xid: &str,
) -> Result<Vec<(String, Value)>> {
    let mut out: Vec<(String, Value)> = Vec::with_capacity(items.len());
    for (name, lit) in items {
        // Excluded columns are never published. LogMiner cannot render some types (VECTOR,
        // BOOLEAN before 23ai's support, BFILE, XMLTYPE in-line…): their value is unavailable
        // in the redo, so the column is left out of the image rather than guessed.
        if t.excluded.iter().any(|e| e == name) || matches!(lit, Literal::Unsupported) {
            continue;
        }
        let Some(col) = cols.iter().find(|c| &c.name == name) else {
            return Err(CdcError::RedoParse {
                scn: row.scn,
                xid: xid.to_string(),
                table: t.name.to_string(),
                message: format!("column {name} is not in the table's columns at this SCN"),
            });
        };
        let v = to_value(lit, &col.data_type).map_err(|message| CdcError::RedoParse {
            scn: row.scn,
            xid: xid.to_string(),
            table: t.name.to_string(),
            message: format!("column {name}: {message}"),
        })?;
        out.push((name.clone(), v));
    }
    // Table column order, whatever order the statement used.
    out.sort_by_key(|(n, _)| cols.iter().position(|c| &c.name == n).unwrap_or(usize::MAX));
    Ok(out)
}

fn overlay(
    base: &[(String, Value)],
    set: &[(String, Value)],
    cols: &[ColumnInfo],
) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = base.to_vec();
    for (n, v) in set {
        match out.iter_mut().find(|(m, _)| m == n) {
            Some(slot) => slot.1 = v.clone(),
            None => out.push((n.clone(), v.clone())),
        }
    }
    out.sort_by_key(|(n, _)| cols.iter().position(|c| &c.name == n).unwrap_or(usize::MAX));
    out
}

/// Decode a committed transaction; rows of tables not captured are skipped. A row that cannot
/// be decoded is an error carrying its SCN and XID (the caller decides fail or dead-letter).
pub fn decode(tx: &Committed, catalog: &Catalog) -> Vec<Result<Event>> {
    let mut out: Vec<Result<Event>> = Vec::new();
    let parse_err =
        |row: &LogMinerRow, t: &TableSchema, e: super::parse::ParseError| CdcError::RedoParse {
            scn: row.scn,
            xid: tx.xid.clone(),
            table: t.name.to_string(),
            message: e.to_string(),
        };
    for row in &tx.rows {
        let Some(t) = catalog.table_of(row) else {
            continue;
        };
        let cols = t.columns_at(row.scn);
        match row.operation_code {
            op::DDL => out.push(Ok(Event::Ddl {
                table: t.name.clone(),
                scn: row.scn,
                sql: row.sql_redo.clone(),
            })),
            op::LOB_WRITE => {
                // Merge the LOB's content into the change of the same row just before it.
                let lob = match parse_lob_write(&row.sql_redo) {
                    Ok(l) => l,
                    Err(e) => {
                        out.push(Err(parse_err(row, t, e)));
                        continue;
                    }
                };
                if t.excluded.iter().any(|e| e == &lob.column) {
                    continue;
                }
                let Some(col) = cols.iter().find(|c| c.name == lob.column) else {
                    continue;
                };
                let value = match to_value(&lob.data, &col.data_type) {
                    Ok(v) => v,
                    Err(message) => {
                        out.push(Err(CdcError::RedoParse {
                            scn: row.scn,
                            xid: tx.xid.clone(),
                            table: t.name.to_string(),
                            message,
                        }));
                        continue;
                    }
                };
                let target = out.iter_mut().rev().find_map(|e| match e {
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
            op::INSERT | op::UPDATE | op::DELETE => {
                let dml = match parse_dml(&row.sql_redo) {
                    Ok(d) => d,
                    Err(e) => {
                        out.push(Err(parse_err(row, t, e)));
                        continue;
                    }
                };
                let images = (|| -> Result<(Option<Image>, Option<Image>)> {
                    Ok(match dml.kind {
                        DmlKind::Insert => (None, Some(typed(t, cols, &dml.new, row, &tx.xid)?)),
                        DmlKind::Delete => (Some(typed(t, cols, &dml.old, row, &tx.xid)?), None),
                        DmlKind::Update => {
                            let before = typed(t, cols, &dml.old, row, &tx.xid)?;
                            let set = typed(t, cols, &dml.new, row, &tx.xid)?;
                            let after = overlay(&before, &set, cols);
                            (Some(before), Some(after))
                        }
                    })
                })();
                match images {
                    Err(e) => out.push(Err(e)),
                    Ok((before, after)) => out.push(Ok(Event::Change(Change {
                        table: t.name.clone(),
                        op: match dml.kind {
                            DmlKind::Insert => ChangeOp::Create,
                            DmlKind::Update => ChangeOp::Update,
                            DmlKind::Delete => ChangeOp::Delete,
                        },
                        before,
                        after,
                        scn: row.scn,
                        rs_id: row.rs_id.clone(),
                        ssn: row.ssn,
                        row_id: row.row_id.clone(),
                        user: row.username.clone(),
                        timestamp: row.timestamp.clone(),
                    }))),
                }
            }
            _ => {}
        }
    }
    out
}
