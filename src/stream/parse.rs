//! SQL_REDO parsing (being written).
