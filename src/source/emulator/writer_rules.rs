//! What the writer refuses, as Oracle refuses it: a row that does not fit its columns
//! ([`super::super::conform`]: ORA-12899, ORA-01438, ORA-01873), NULL in a NOT NULL column
//! (ORA-01400 on INSERT, ORA-01407 on UPDATE), and a duplicate primary or unique key
//! (ORA-00001 "unique constraint (%s.%s) violated", 19c wording, checked with the search tool).

use super::super::conform::conform;
use super::Writer;
use crate::errors::{CdcError, Result};
use crate::source::rowid::RowId;
use crate::types::{compare, Value};
use std::cmp::Ordering;

impl Writer {
    /// `row` as the table stores it (CHAR padded, NUMBER rounded to its scale, empty strings
    /// NULL), or the error Oracle gives.
    pub(super) fn conform_row(
        &self,
        table: usize,
        row: Vec<Value>,
        update: bool,
    ) -> Result<Vec<Value>> {
        let t = &self.replica.tables[table];
        if row.len() != t.columns.len() {
            return Err(CdcError::Workload(format!(
                "{}: {} values for {} columns",
                t.def.name,
                row.len(),
                t.columns.len()
            )));
        }
        let (owner, name) = (&t.def.name.owner, &t.def.name.table);
        let mut out = Vec::with_capacity(row.len());
        for (c, v) in t.columns.iter().zip(row) {
            let v = conform(&c.data_type, v)
                .map_err(|r| CdcError::Database(r.message(owner, name, &c.name)))?;
            if !c.nullable && v.is_null() {
                return Err(CdcError::Database(if update {
                    format!(
                        "ORA-01407: cannot update (\"{owner}\".\"{name}\".\"{}\") to NULL",
                        c.name
                    )
                } else {
                    format!(
                        "ORA-01400: cannot insert NULL into (\"{owner}\".\"{name}\".\"{}\")",
                        c.name
                    )
                }));
            }
            out.push(v);
        }
        Ok(out)
    }

    /// ORA-00001 when `row` (written at `rid`, `None` for an insert) has the primary
    /// or a unique key of another row: a committed one no transaction has changed since, or one
    /// an open transaction wrote (Oracle would make the writer wait for that transaction, and
    /// fail the same way once it commits). Keys whose columns are all NULL are not compared.
    pub(super) fn check_unique(
        &self,
        table: usize,
        rid: Option<RowId>,
        row: &[Value],
    ) -> Result<()> {
        let t = &self.replica.tables[table];
        let (pk, uks) = t.def.constraints();
        // A unique index without a constraint is enforced the same way; ORA-00001 names it.
        let own = t.def.own_indexes();
        for (i, c) in pk.iter().chain(uks.iter()).chain(own.iter()).enumerate() {
            let Some(pos) = c
                .columns
                .iter()
                .map(|k| t.columns.iter().position(|col| &col.name == k))
                .collect::<Option<Vec<usize>>>()
            else {
                continue;
            };
            let key: Vec<&Value> = pos.iter().map(|&p| &row[p]).collect();
            if key.iter().all(|v| v.is_null()) {
                continue;
            }
            let same = |other: &[Value]| {
                pos.iter().zip(&key).all(|(&p, k)| {
                    other
                        .get(p)
                        .is_some_and(|o| o == *k || compare(o, k) == Ordering::Equal)
                })
            };
            // Rows some open transaction wrote: their image there is the one that counts.
            let mut conflict = self.txs.values().any(|tx| {
                tx.overlay.iter().any(|((tb, r), img)| {
                    *tb == table && Some(*r) != rid && img.as_deref().is_some_and(same)
                })
            });
            if !conflict {
                let open = |r: &RowId| {
                    self.txs
                        .values()
                        .any(|tx| tx.overlay.contains_key(&(table, *r)))
                };
                let committed = |r: &RowId| {
                    Some(*r) != rid
                        && !open(r)
                        && t.visible(r, self.replica.current_scn)
                            .is_some_and(|v| same(v))
                };
                conflict = match (&t.key_index, i) {
                    // The primary key: only the rows its index lists under this key.
                    (Some(ix), 0) if pk.is_some() => ix.rows_with_key(row).iter().any(committed),
                    _ => t.rows.keys().any(committed),
                };
            }
            if conflict {
                return Err(CdcError::Database(format!(
                    "ORA-00001: unique constraint ({}.{}) violated",
                    t.def.name.owner, c.name
                )));
            }
        }
        Ok(())
    }
}
