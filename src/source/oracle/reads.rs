//! Table reads: flashback reads of one chunk and the key probes that plan chunks.
//!
//! Kept apart from the catalog reads in `mod.rs` because these are the statements whose select
//! list depends on the table's column types ([`column_access`]): both go through the same rule,
//! so a key value reads the same whichever statement returned it, on either driver.

use super::connect::CallContext;
use super::driver::FetchOptions;
use super::fetch::{self, Bind, Fetch};
use super::{column_access, key_access, sql, OracleSession, FETCH_ROWS};
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::source::model::{BoundaryQuery, FetchedRow, FlashbackQuery, Scn};
use crate::types::Value;

/// A generated statement's binds, converted for the driver.
fn statement_binds<'s>(statement: &'s sql::Statement, what: &str) -> Result<Vec<(&'s str, Bind)>> {
    statement
        .binds
        .iter()
        .map(|(name, v)| Ok((name.as_str(), Bind::from_value(v)?)))
        .collect::<std::result::Result<Vec<_>, String>>()
        .map_err(|e| CdcError::Database(format!("{what}: {e}")))
}

pub(super) fn read_as_of(
    s: &mut OracleSession,
    query: &FlashbackQuery,
    row: &mut dyn FnMut(FetchedRow) -> Result<()>,
) -> Result<u64> {
    let c = CallContext {
        table: Some(query.table.owner_table()),
        scn: Some(query.scn),
        operation: "flashback read",
        ..CallContext::default()
    };
    let types = s.table_column_types(&query.table, &query.columns)?;
    let mut items = Vec::with_capacity(query.columns.len());
    let mut hows = Vec::with_capacity(query.columns.len());
    for column in &query.columns {
        let data_type = types.get(column).map(String::as_str).unwrap_or("");
        let (item, how) = column_access(&query.table, column, data_type)?;
        items.push(item);
        hows.push(how);
    }
    let what = format!("flashback read of {}", query.table);
    let statement = sql::flashback_select(
        &query.table,
        &items,
        &query.key_columns,
        query.scn,
        &query.range,
        query.filter.as_deref(),
    )
    .map_err(|e| CdcError::Database(format!("{what}: {e}")))?;
    let binds = statement_binds(&statement, &what)?;
    // LOBs are read whole with the row (both drivers' default).
    let rows = s
        .conn
        .query(&statement.text, &binds, FetchOptions::rows(FETCH_ROWS))
        .map_err(|e| e.runtime(&c))?;
    let mut count = 0u64;
    for r in rows {
        let mut cells = r.map_err(|e| e.runtime(&c))?.into_iter();
        let rowid = match cells.next() {
            Some(cell) => match fetch::value(cell, Fetch::Native, "ROWID", &c)? {
                Value::Text(t) => t,
                Value::Null => String::new(),
                other => {
                    return Err(CdcError::Database(format!(
                        "{what}: ROWID came as {other:?}"
                    )))
                }
            },
            None => String::new(),
        };
        let mut out = Vec::with_capacity(hows.len());
        for (i, how) in hows.iter().enumerate() {
            let cell = cells
                .next()
                .ok_or_else(|| CdcError::Database(format!("{what}: short row")))?;
            out.push(fetch::value(cell, *how, &query.columns[i], &c)?);
        }
        row(FetchedRow { rowid, values: out })?;
        count += 1;
    }
    Ok(count)
}

pub(super) fn key_range(
    s: &mut OracleSession,
    table: &TableName,
    key_column: &str,
    scn: Option<Scn>,
) -> Result<Option<(Value, Value)>> {
    let c = CallContext {
        table: Some(table.owner_table()),
        scn,
        operation: "key range probe",
        ..CallContext::default()
    };
    let types = s.table_column_types(table, &[key_column.to_string()])?;
    let data_type = types.get(key_column).map(String::as_str).unwrap_or("");
    let (item, how) = key_access(table, key_column, data_type)?;
    let what = format!("key range of {table}");
    let statement = sql::key_range_select(table, item, scn)
        .map_err(|e| CdcError::Database(format!("{what}: {e}")))?;
    let binds = statement_binds(&statement, &what)?;
    let row = s
        .conn
        .query_row(&statement.text, &binds)
        .map_err(|e| e.runtime(&c))?;
    let mut cells = row.into_iter();
    let (Some(min), Some(max)) = (cells.next(), cells.next()) else {
        return Err(CdcError::Database(format!("{what}: short row")));
    };
    let min = fetch::value(min, how, key_column, &c)?;
    let max = fetch::value(max, how, key_column, &c)?;
    // Both are NULL together: no row, or no non-NULL key (MIN and MAX skip NULLs).
    Ok(match (min, max) {
        (Value::Null, _) | (_, Value::Null) => None,
        (min, max) => Some((min, max)),
    })
}

pub(super) fn key_boundaries(s: &mut OracleSession, q: &BoundaryQuery) -> Result<Vec<Vec<Value>>> {
    let c = CallContext {
        table: Some(q.table.owner_table()),
        scn: Some(q.scn),
        operation: "key boundary probe",
        ..CallContext::default()
    };
    let (items, hows): (Vec<_>, Vec<_>) = s
        .key_accesses(&q.table, &q.key_columns)?
        .into_iter()
        .unzip();
    let what = format!("key boundaries of {}", q.table);
    // As the emulator: a step of 0 rows means 1.
    let statement = sql::key_boundaries_select(
        &q.table,
        &items,
        q.scn,
        q.lower.as_deref(),
        q.step.max(1),
        q.count,
    )
    .map_err(|e| CdcError::Database(format!("{what}: {e}")))?;
    let binds = statement_binds(&statement, &what)?;
    let rows = s
        .conn
        .query(&statement.text, &binds, FetchOptions::rows(FETCH_ROWS))
        .map_err(|e| e.runtime(&c))?;
    let mut out = Vec::new();
    for r in rows {
        let mut cells = r.map_err(|e| e.runtime(&c))?.into_iter();
        let mut key = Vec::with_capacity(hows.len());
        for (i, how) in hows.iter().enumerate() {
            let cell = cells
                .next()
                .ok_or_else(|| CdcError::Database(format!("{what}: short row")))?;
            key.push(fetch::value(cell, *how, &q.key_columns[i], &c)?);
        }
        out.push(key);
    }
    Ok(out)
}
