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
use crate::types::Value;
use cdc_core::model::{BoundaryQuery, FetchedRow, FlashbackQuery, Scn};

/// A generated statement's binds, converted for the driver.
fn statement_binds<'s>(statement: &'s sql::Statement, what: &str) -> Result<Vec<(&'s str, Bind)>> {
    statement
        .binds
        .iter()
        .map(|(name, v)| Ok((name.as_str(), Bind::from_value(v)?)))
        .collect::<std::result::Result<Vec<_>, String>>()
        .map_err(|e| CdcError::Database(format!("{what}: {e}")))
}

/// The bytes a fetch is sized to: the SDU oracle-cdc asks for by default (`cdc.database.sdu`),
/// so at that SDU a fetch is one packet. The thin driver parses a response again from its start
/// as each packet arrives (see `descriptor.rs`): 500 rows of 1 KB, half a megabyte, cost it five
/// times the CPU at a 19c server's 8 KB packets (61 of them) than at 64 KB. Fewer rows a fetch
/// cost round trips instead, which is why narrow rows still fetch 500.
const FETCH_BYTES: u64 = 65_536;
/// The fewest rows a fetch asks for, however wide they are.
const MIN_FETCH_ROWS: u32 = 16;

/// Rows a flashback read of a table fetches a round trip, given the bytes its rows took in an
/// earlier read on this session (`None`: not read yet, [`FETCH_ROWS`]).
pub(super) fn fetch_rows(row_bytes: Option<u64>) -> u32 {
    match row_bytes {
        Some(b) if b > 0 => {
            let rows = (FETCH_BYTES / b).min(u64::from(FETCH_ROWS));
            u32::try_from(rows)
                .unwrap_or(FETCH_ROWS)
                .max(MIN_FETCH_ROWS)
        }
        _ => FETCH_ROWS,
    }
}

/// Rows of a read whose sizes make the table's row size ([`fetch_rows`]).
const SIZE_SAMPLE_ROWS: u64 = 1024;

/// About the bytes a value takes on the wire: its text or bytes, or a fixed size for the
/// fixed-width types (NUMBER up to 22, DATE 7, TIMESTAMP 11, …), plus a length byte.
fn wire_bytes(v: &Value) -> u64 {
    let n = match v {
        Value::Null => 0,
        Value::Text(s) | Value::Json(s) | Value::Number(s) => s.len(),
        Value::Bytes(b) => b.len(),
        _ => 12,
    };
    n as u64 + 1
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
    let keys: Vec<_> = s
        .key_accesses(&query.table, &query.key_columns)?
        .into_iter()
        .map(|(item, _)| item)
        .collect();
    let what = format!("flashback read of {}", query.table);
    let statement = sql::flashback_select(
        &query.table,
        &items,
        &keys,
        query.scn,
        &query.range,
        query.filter.as_deref(),
        query.row_ids,
    )
    .map_err(|e| CdcError::Database(format!("{what}: {e}")))?;
    let binds = statement_binds(&statement, &what)?;
    // LOBs are read whole with the row (both drivers' default).
    let fetch = fetch_rows(s.row_bytes.get(&query.table).copied());
    let rows = s
        .conn
        .query(&statement.text, &binds, FetchOptions::rows(fetch))
        .map_err(|e| e.runtime(&c))?;
    let mut count = 0u64;
    // The size a row takes on the wire, for the next read's fetch size: the first rows tell it
    // well enough, and summing every value's size was a fiftieth of a thin client's export.
    let mut bytes = 0u64;
    let mut sampled = 0u64;
    for r in rows {
        let mut cells = r.map_err(|e| e.runtime(&c))?.into_iter();
        let first = if query.row_ids { cells.next() } else { None };
        let rowid = match first {
            Some(cell) => match fetch::value(cell, Fetch::Native, "ROWID", &c)? {
                Value::Text(t) => t,
                Value::Null => Default::default(),
                other => {
                    return Err(CdcError::Database(format!(
                        "{what}: ROWID came as {other:?}"
                    )))
                }
            },
            None => Default::default(),
        };
        let mut out = Vec::with_capacity(hows.len());
        for (i, how) in hows.iter().enumerate() {
            let cell = cells
                .next()
                .ok_or_else(|| CdcError::Database(format!("{what}: short row")))?;
            out.push(fetch::value(cell, *how, &query.columns[i], &c)?);
        }
        if sampled < SIZE_SAMPLE_ROWS {
            bytes += rowid.len() as u64 + out.iter().map(wire_bytes).sum::<u64>();
            sampled += 1;
        }
        row(FetchedRow { rowid, values: out })?;
        count += 1;
    }
    if let Some(per_row) = bytes.checked_div(sampled) {
        s.row_bytes.insert(query.table.clone(), per_row);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Narrow rows fetch the most rows a round trip; wide ones as many as fill the bytes a
    /// fetch is sized to, and never fewer than the floor.
    #[test]
    fn fetches_are_sized_by_the_bytes_rows_took() {
        assert_eq!(fetch_rows(None), FETCH_ROWS);
        assert_eq!(fetch_rows(Some(0)), FETCH_ROWS);
        assert_eq!(fetch_rows(Some(60)), FETCH_ROWS);
        assert_eq!(fetch_rows(Some(131)), FETCH_ROWS);
        assert_eq!(fetch_rows(Some(1_024)), 64);
        assert_eq!(fetch_rows(Some(2_000)), 32);
        assert_eq!(fetch_rows(Some(1_000_000)), MIN_FETCH_ROWS);
    }

    #[test]
    fn wire_bytes_count_texts_and_fixed_widths() {
        assert_eq!(wire_bytes(&Value::Null), 1);
        assert_eq!(wire_bytes(&Value::Text("abc".into())), 4);
        assert_eq!(wire_bytes(&Value::Bytes(vec![0; 10])), 11);
        assert_eq!(wire_bytes(&Value::Number("12.5".into())), 5);
        assert_eq!(wire_bytes(&Value::Date("2024-01-01 00:00:00".into())), 13);
    }
}
