//! SQL conditions evaluated by the emulator (being written).
use crate::errors::{CdcError, Result};
use crate::source::model::ColumnInfo;
use crate::types::Value;

/// A compiled condition over one table's columns.
#[derive(Debug, Clone)]
pub struct Condition;

/// Compile `text` (a WHERE clause without `WHERE`) against the table's columns.
pub fn compile(text: &str, _columns: &[ColumnInfo]) -> Result<Condition> {
    Err(CdcError::Database(format!(
        "ORA-00920: invalid relational operator in `{text}`"
    )))
}

impl Condition {
    pub fn matches(&self, _row: &[Value]) -> bool {
        false
    }
}
