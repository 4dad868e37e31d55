//! The captured tables as the stream decodes them: each table's column layouts over time (its
//! schema history, moved on by DDL in the redo) and the lookup of a mined row's table.

use crate::names::TableName;
use cdc_core::model::{ColumnInfo, LogMinerRow, Scn, TableInfo};
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
    /// ENABLE_GOLDENGATE_REPLICATION, for the reason an UNSUPPORTED row gives.
    pub goldengate_replication: bool,
    /// MAX_STRING_SIZE=EXTENDED: the size of a character-semantics column a DDL statement
    /// declares (`VARCHAR2(1500 CHAR)` is 6,000 bytes, an extended string, else 4,000).
    pub extended_strings: bool,
    /// NLS_CHARACTERSET and NLS_NCHAR_CHARACTERSET where capture mines (CDB$ROOT in root
    /// mode): what text LogMiner writes as bytes (`HEXTORAW('…')`, XML documents) is decoded
    /// with, unless the row's PDB has sets of its own in `pdb_charsets`.
    pub charsets: crate::charset::Charsets,
    /// The sets of each captured PDB, by name (read inside it): an AL32UTF8 CDB may hold PDBs
    /// of another database character set, and in root mode LogMiner returns every PDB's rows
    /// with their text in their own PDB's set.
    pub pdb_charsets: HashMap<String, crate::charset::Charsets, foldhash::fast::RandomState>,
    pub tables: HashMap<TableName, TableSchema, foldhash::fast::RandomState>,
    /// Captured tables by object number, for rows LogMiner could not name (`unknown`).
    pub objects: HashMap<u64, Vec<TableName>, foldhash::fast::RandomState>,
}

impl Catalog {
    /// The character sets a row's text bytes are in: its PDB's (SRC_CON_NAME) in a CDB, else
    /// the database's.
    pub fn charsets_of(&self, row: &LogMinerRow) -> crate::charset::Charsets {
        match self.cdb {
            true => self
                .pdb_charsets
                .get(row.src_con_name.as_str())
                .copied()
                .unwrap_or(self.charsets),
            false => self.charsets,
        }
    }

    /// The table of a row; `last` keeps the previous row's table name, so rows of the same
    /// table (most of a transaction's) are looked up without building a name.
    pub(super) fn table_of(
        &self,
        row: &LogMinerRow,
        last: &mut Option<TableName>,
    ) -> Option<&TableSchema> {
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
        // The layout just before the DDL: seen again (a restart, a rewind to an open
        // transaction's start) it is applied to what it changed, not on top of itself.
        let current = t.columns_at(scn.saturating_sub(1)).to_vec();
        let Some(next) = super::ddl::apply(&current, sql, self.extended_strings)
            .or_else(|| dictionary.map(|i| i.columns.clone()))
        else {
            return false;
        };
        if next == current || t.history.iter().any(|(s, c)| *s == scn && *c == next) {
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
