//! `emulator init`'s load of the schema's initial rows: transactions of 1,000 inserts per
//! table, as the general writer made them (the same rows from the same seed, the same SCNs,
//! XIDs, ROWIDs, times and redo records), without its per-row work.
//!
//! What each row skips, and why that is safe:
//! - The unique-key check, row locks and the transaction's overlay: the tables start empty, a
//!   row's key columns are made from its serial ([`super::key_gen`], distinct for distinct
//!   serials) and the loader holds one transaction at a time.
//! - Most of [`super::conform`]: a value the generators made that is already in the column's
//!   stored form (text within its length, a normalized NUMBER within its precision and scale, a
//!   DATE) is kept as it is; anything else goes through `conform` as before, with its errors.
//! - The general path's copies: values are generated into one reused row
//!   ([`super::generate::ColumnGen::value_into`]), the redo line is encoded into a reused
//!   buffer in the compact form ([`super::redo::compact`]), and the replica keeps no record
//!   ([`super::store::Replica::bulk_insert`]).
//!
//! A table with a materialized view log (a log row with each insert) goes through the general
//! writer, as every table did before.

use super::conform::{conform_in, Refused};
use super::generate::ColumnGen;
use super::writer::{EncodedRow, Writer};
use crate::errors::{CdcError, Result};
use crate::types::{ColumnType, Value};
use rand_chacha::ChaCha8Rng;

/// Inserts per transaction of the load.
const TX_ROWS: u64 = 1000;

/// Load every table's `rows` (`bulk`: through [`Writer::bulk_insert`] where the table allows);
/// the number of rows loaded.
pub(super) fn load(w: &mut Writer, rng: &mut ChaCha8Rng, bulk: bool) -> Result<u64> {
    let mut rows_total = 0;
    for ti in 0..w.replica().tables.len() {
        let target = w.replica().tables[ti].def.rows;
        if bulk && w.bulk_eligible(ti) {
            load_table(w, ti, target, rng)?;
        } else {
            load_table_general(w, ti, target, rng)?;
        }
        rows_total += target;
        if w.replica().tables[ti].def.statistics != super::schema::StatsSpec::Missing {
            w.gather_stats(ti)?;
        }
    }
    Ok(rows_total)
}

/// Through the general writer, row by row.
fn load_table_general(w: &mut Writer, ti: usize, target: u64, rng: &mut ChaCha8Rng) -> Result<()> {
    let mut done = 0;
    while done < target {
        let xid = w.begin()?;
        let batch = (target - done).min(TX_ROWS);
        for _ in 0..batch {
            let serial = w.serials[ti] + 1;
            w.serials[ti] = serial;
            let row = super::workload::new_row(w, ti, rng, serial)?;
            w.insert(xid, ti, row)?;
        }
        w.commit(&[xid])?;
        done += batch;
    }
    Ok(())
}

/// Tables with more rows than this get their values made by a second thread while the first
/// writes (a test's small tables take the one-thread path, the pinned ones both).
const THREADED_FROM: u64 = 2 * TX_ROWS;

fn load_table(w: &mut Writer, ti: usize, target: u64, rng: &mut ChaCha8Rng) -> Result<()> {
    let plan = RowPlan::new(w, ti);
    if target > THREADED_FROM {
        return load_table_threaded(w, ti, target, rng, &plan);
    }
    let mut row = vec![Value::Null; plan.columns.len()];
    let mut enc = EncodedRow::default();
    let mut line = Vec::with_capacity(512);
    let mut done = 0;
    while done < target {
        let mut tx = w.bulk_begin(ti)?;
        let batch = (target - done).min(TX_ROWS);
        for _ in 0..batch {
            let serial = w.serials[ti] + 1;
            w.serials[ti] = serial;
            plan.fill(&mut row, rng, serial)?;
            plan.conform(&mut row)?;
            enc.encode(&row);
            w.bulk_insert(&mut tx, serial, &row, &enc, &mut line)?;
        }
        w.bulk_commit(tx)?;
        done += batch;
    }
    Ok(())
}

/// One transaction's rows, made ahead by the generating thread.
struct Batch {
    rows: Vec<(Vec<Value>, EncodedRow)>,
    /// Rows made (the rest of `rows` are buffers kept for reuse).
    len: usize,
    /// Why the row after the last one made could not be made.
    failed: Option<CdcError>,
}

/// [`load_table`]'s loop with the values made on a second thread, a transaction ahead: the
/// same draws of `rng` in the same order (only that thread draws), the rows written in order.
fn load_table_threaded(
    w: &mut Writer,
    ti: usize,
    target: u64,
    rng: &mut ChaCha8Rng,
    plan: &RowPlan,
) -> Result<()> {
    use std::sync::mpsc;
    let first = w.serials[ti] + 1;
    let width = plan.columns.len();
    let (full_tx, full_rx) = mpsc::sync_channel::<Batch>(2);
    let (empty_tx, empty_rx) = mpsc::channel::<Batch>();
    std::thread::scope(|scope| {
        // Owned here, so that a writer stopping early drops them before the scope waits for
        // the making thread (whose next send then fails).
        let (full_rx, empty_tx) = (full_rx, empty_tx);
        scope.spawn(move || {
            let mut made = 0u64;
            while made < target {
                let n = (target - made).min(TX_ROWS) as usize;
                let mut b = empty_rx.try_recv().unwrap_or_else(|_| Batch {
                    rows: Vec::new(),
                    len: 0,
                    failed: None,
                });
                b.len = 0;
                b.failed = None;
                b.rows.resize_with(n.max(b.rows.len()), || {
                    (vec![Value::Null; width], EncodedRow::default())
                });
                for (row, enc) in b.rows.iter_mut().take(n) {
                    let serial = first + made + b.len as u64;
                    let r = plan.fill(row, rng, serial).and_then(|_| plan.conform(row));
                    if let Err(e) = r {
                        b.failed = Some(e);
                        break;
                    }
                    enc.encode(row);
                    b.len += 1;
                }
                made += n as u64;
                let stop = b.failed.is_some();
                // The writer stopped (and says why): nothing more to make.
                if full_tx.send(b).is_err() || stop {
                    return;
                }
            }
        });
        let mut line = Vec::with_capacity(512);
        let mut done = 0;
        while done < target {
            let Ok(mut b) = full_rx.recv() else {
                return Err(CdcError::Database(
                    "emulator bulk load: the thread making rows stopped".into(),
                ));
            };
            let mut tx = w.bulk_begin(ti)?;
            for (row, enc) in &b.rows[..b.len] {
                let serial = w.serials[ti] + 1;
                w.serials[ti] = serial;
                w.bulk_insert(&mut tx, serial, row, enc, &mut line)?;
            }
            if let Some(e) = b.failed.take() {
                return Err(e);
            }
            w.bulk_commit(tx)?;
            done += b.len as u64;
            // The making thread may have finished: then the buffers are not needed.
            let _ = empty_tx.send(b);
        }
        Ok(())
    })
}

/// How each column of a table gets its value: [`super::workload::new_row`]'s choices, made
/// once per table.
struct RowPlan {
    /// The table's name as errors show it.
    name: String,
    owner: String,
    table: String,
    columns: Vec<ColumnPlan>,
    charsets: crate::charset::Charsets,
}

struct ColumnPlan {
    name: String,
    ty: ColumnType,
    nullable: bool,
    /// `None`: a key column, made from the row's serial.
    gen: Option<ColumnGen>,
}

impl RowPlan {
    fn new(w: &Writer, ti: usize) -> RowPlan {
        let def = &w.replica().tables[ti].def;
        let columns = w
            .columns(ti)
            .iter()
            .map(|c| ColumnPlan {
                name: c.name.clone(),
                ty: c.data_type.clone(),
                nullable: c.nullable,
                gen: (!super::workload::is_key(w, ti, &c.name))
                    .then(|| super::workload::gen_for(w, ti, c)),
            })
            .collect();
        RowPlan {
            name: def.name.to_string(),
            owner: def.name.owner.clone(),
            table: def.name.table.clone(),
            columns,
            charsets: def.charsets,
        }
    }

    /// Row `serial`'s values, drawn from `rng` as [`super::workload::new_row`] draws them.
    fn fill(&self, row: &mut [Value], rng: &mut ChaCha8Rng, serial: u64) -> Result<()> {
        for (c, slot) in self.columns.iter().zip(row.iter_mut()) {
            match &c.gen {
                None => super::key_gen::key_value_into(&c.ty, serial, slot)
                    .map_err(|e| CdcError::Workload(format!("{}.{}: {e}", self.name, c.name)))?,
                Some(g) => {
                    g.value_into(rng, serial, slot);
                    if slot.is_null() && !c.nullable {
                        *slot = ColumnGen::by_type(&c.ty).value(rng, serial);
                    }
                }
            }
        }
        Ok(())
    }

    /// The row as the table stores it, or the error Oracle gives (as the writer's
    /// `conform_row` does for an insert).
    fn conform(&self, row: &mut [Value]) -> Result<()> {
        for (c, slot) in self.columns.iter().zip(row.iter_mut()) {
            if !stored_as_is(&c.ty, slot, self.charsets) {
                let v = std::mem::replace(slot, Value::Null);
                *slot = conform_in(&c.ty, v, self.charsets).map_err(|r: Refused| {
                    CdcError::Database(r.message(&self.owner, &self.table, &c.name))
                })?;
            }
            if !c.nullable && slot.is_null() {
                return Err(CdcError::Database(format!(
                    "ORA-01400: cannot insert NULL into (\"{}\".\"{}\".\"{}\")",
                    self.owner, self.table, c.name
                )));
            }
        }
        Ok(())
    }
}

/// Whether `conform` would keep `v` in a column of type `ty` as it is (`false`: ask it).
fn stored_as_is(ty: &ColumnType, v: &Value, charsets: crate::charset::Charsets) -> bool {
    match (ty, v) {
        (_, Value::Null) => true,
        // Other character sets count other bytes, and may replace characters.
        (_, Value::Text(s))
            if charsets.database != crate::charset::Charset::Al32Utf8 && !s.is_ascii() =>
        {
            false
        }
        (ColumnType::Varchar2 { length, chars }, Value::Text(s)) => {
            !s.is_empty()
                && s.len() <= *length as usize
                && chars.is_none_or(|n| s.chars().count() <= n as usize)
        }
        (ColumnType::Number { precision, scale }, Value::Number(n)) => match (precision, scale) {
            (None, None) => true,
            _ => number_fits(
                n,
                i32::from(precision.unwrap_or(38)),
                i32::from(scale.unwrap_or(0)),
            ),
        },
        (ColumnType::Date, Value::Date(_)) => true,
        _ => false,
    }
}

/// Whether `n` is a NUMBER text as Oracle prints it (no `+`, no leading or trailing zeros)
/// that NUMBER(p,s) holds without rounding: then `conform` returns it unchanged.
fn number_fits(n: &str, p: i32, s: i32) -> bool {
    if s < 0 || p - s < 1 {
        return false;
    }
    let body = n.strip_prefix('-').unwrap_or(n);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || !digits(frac) || (body.contains('.') && frac.is_empty()) {
        return false;
    }
    let normalized = if int.is_empty() {
        !frac.is_empty()
    } else if int == "0" {
        frac.is_empty() && body.len() == n.len()
    } else {
        !int.starts_with('0')
    } && !frac.ends_with('0');
    normalized && frac.len() as i32 <= s && int.len() as i32 <= p - s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_kept_as_it_is_is_what_conform_keeps() {
        let types = [
            "NUMBER(9,2)",
            "NUMBER(5)",
            "NUMBER(3,2)",
            "NUMBER(2,5)",
            "NUMBER(5,-2)",
            "NUMBER",
            "VARCHAR2(4)",
            "DATE",
        ];
        let numbers = [
            "0",
            "-0",
            "1",
            "-1",
            "12",
            "123",
            "1234",
            "12345",
            "123456",
            ".5",
            "-.5",
            ".05",
            "0.5",
            "1.5",
            "1.50",
            "1.25",
            "1.255",
            "99.99",
            "999.99",
            "9999999.99",
            "10000000",
            "007",
            "1.",
            ".",
            "-",
            "",
            "1e5",
            "+1",
            "1.2.3",
            "12a",
        ];
        let texts = ["", "a", "abcd", "abcde", "é", "éé", "ééé"];
        for t in types {
            let ty = ColumnType::parse(t).unwrap();
            let values = numbers
                .iter()
                .map(|n| Value::Number((*n).into()))
                .chain(texts.iter().map(|s| Value::Text((*s).into())))
                .chain([Value::Null, Value::Date("2020-01-01 00:00:00".into())]);
            for v in values {
                for cs in [
                    crate::charset::Charsets::default(),
                    crate::charset::Charsets {
                        database: crate::charset::Charset::We8Iso8859P1,
                        national: crate::charset::Charset::Utf8,
                    },
                ] {
                    if stored_as_is(&ty, &v, cs) {
                        assert_eq!(conform_in(&ty, v.clone(), cs), Ok(v.clone()), "{t} {v:?}");
                    }
                }
            }
        }
        assert!(number_fits("1234.56", 9, 2));
        assert!(!number_fits("12345678.5", 9, 2));
    }
}
