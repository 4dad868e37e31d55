//! SQL_REDO rendering (being written).
