//! What supplemental logging puts in the redo, as LogMiner then shows it. Checked against Oracle
//! Database Utilities 12.1 with the search tool:
//! - "Database-Level Supplemental Logging": minimal logging (`ALTER DATABASE ADD SUPPLEMENTAL LOG
//!   DATA`) is what LogMiner needs to identify, group and merge the redo of DML; identification
//!   key logging (`… (ALL) COLUMNS`, `… (PRIMARY KEY) COLUMNS`) implies it (V$DATABASE shows
//!   SUPPLEMENTAL_LOG_DATA_MIN = IMPLICIT). ALL logs "all columns of that row (except for LOBs,
//!   LONGs, and ADTs)" whenever a row is updated; PRIMARY KEY logs the key columns, or for a table
//!   without one "one or more non-null unique index key constraints or index keys" (a unique
//!   key, or a unique index of its own), or for a table with neither every column but LONGs and
//!   LOBs, "similar to specifying ALL".
//! - "Table-Level Identification Key Logging": the same options for one table; statements are
//!   cumulative; for a table without any, "only the changed column" is in the redo.
//! - "DDL_DICT_TRACKING and Supplemental Logging Settings": without DDL_DICT_TRACKING (as with
//!   DICT_FROM_ONLINE_CATALOG) and without supplemental logging, LogMiner builds SQL_REDO from its
//!   dictionary and a DML row has STATUS 3 ("the SQL is not guaranteed to be accurate") and INFO
//!   'no supplemental log data found'.
//!
//! An UPDATE's WHERE is therefore the before values of the changed columns (from undo) and the
//! columns of the table's unconditional log groups; a DELETE's WHERE is the whole row its undo
//! holds (minus LOBs, which `sql_redo` never puts in a WHERE). Not confirmed by a primary source:
//! whether table-level log groups still add their columns while database-level minimal logging is
//! off; the emulator adds them (the rows are STATUS 3 either way, so a reader cannot rely on them).

use super::schema::{SupplementalSpec, TableDef, TableLogging};
use cdc_core::model::ColumnInfo;

/// V$LOGMNR_CONTENTS.STATUS of a DML row written without supplemental logging.
pub const STATUS_NOT_GUARANTEED: i32 = 3;
/// Its INFO.
pub const INFO_NO_SUPPLEMENTAL: &str = "no supplemental log data found";

/// STATUS and INFO of a DML row (INSERT, UPDATE, DELETE, LOB_WRITE) of a database with this
/// database-level logging.
pub fn dml_status(db: &SupplementalSpec) -> (i32, Option<String>) {
    if db.minimal() {
        (0, None)
    } else {
        (
            STATUS_NOT_GUARANTEED,
            Some(INFO_NO_SUPPLEMENTAL.to_string()),
        )
    }
}

/// Columns supplemental logging adds to every UPDATE of the table (unconditional log groups):
/// indexes into `cols`, in table column order.
pub fn logged_columns(db: &SupplementalSpec, def: &TableDef, cols: &[ColumnInfo]) -> Vec<usize> {
    let all_but_lobs = || -> Vec<usize> {
        (0..cols.len())
            .filter(|&i| {
                !cols[i].virtual_column && !cols[i].data_type.never_supplementally_logged()
            })
            .collect()
    };
    if db.all || def.logging == TableLogging::All {
        return all_but_lobs();
    }
    if !(db.primary_key || def.logging == TableLogging::PrimaryKey) {
        return Vec::new();
    }
    let not_null = |c: &String| cols.iter().any(|k| &k.name == c && !k.nullable);
    let key = if def.primary_key.is_empty() {
        def.unique_keys
            .iter()
            .chain(def.unique_indexes.iter())
            .find(|u| !u.is_empty() && u.iter().all(not_null))
    } else {
        Some(&def.primary_key)
    };
    match key {
        Some(key) => (0..cols.len())
            .filter(|&i| key.contains(&cols[i].name))
            .collect(),
        None => all_but_lobs(),
    }
}

/// The columns whose before values an UPDATE's SQL_REDO WHERE holds: the changed ones and the
/// logged ones, in table column order.
pub fn update_where(
    db: &SupplementalSpec,
    def: &TableDef,
    cols: &[ColumnInfo],
    changed: &[usize],
) -> Vec<usize> {
    let logged = logged_columns(db, def, cols);
    (0..cols.len())
        .filter(|i| !cols[*i].virtual_column && (changed.contains(i) || logged.contains(i)))
        .collect()
}

#[cfg(test)]
#[path = "supplemental_tests.rs"]
mod tests;
