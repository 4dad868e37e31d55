//! What the writer refuses, as Oracle refuses it: a row that does not fit its columns
//! ([`super::super::conform`]: ORA-12899, ORA-01438, ORA-01873), NULL in a NOT NULL column
//! (ORA-01400 on INSERT, ORA-01407 on UPDATE), and a duplicate primary or unique key
//! (ORA-00001 "unique constraint (%s.%s) violated", 19c wording, checked with the search tool).

use super::super::conform::conform_in;
use super::Writer;
use crate::errors::{CdcError, Result};
use crate::types::{compare, Value};
use cdc_core::rowid::RowId;
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
        // Its container's sets: a PDB may have a database character set of its own.
        let charsets = t.def.charsets;
        let mut out = Vec::with_capacity(row.len());
        for (c, v) in t.columns.iter().zip(row) {
            let v = conform_in(&c.data_type, v, charsets)
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
            // Rows some open transaction wrote: their image there is the one that counts. Only
            // a transaction that ever wrote an equal key can hold one (scanning every image of
            // every open transaction made a bulk load quadratic in its transaction size).
            let fingerprint = key_fingerprint(table, &c.name, &key);
            let mut conflict = self.txs.values().any(|tx| {
                tx.keys_seen.contains(&fingerprint)
                    && tx.overlay.iter().any(|((tb, r), img)| {
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

    /// Remember the key fingerprints of an image `xid` puts in its overlay.
    pub(super) fn note_keys(&mut self, xid: super::Xid, table: usize, row: &[Value]) -> Result<()> {
        let t = &self.replica.tables[table];
        let (pk, uks) = t.def.constraints();
        let mut prints = Vec::new();
        for c in pk.iter().chain(uks.iter()) {
            let Some(key) = c
                .columns
                .iter()
                .map(|k| {
                    t.columns
                        .iter()
                        .position(|col| &col.name == k)
                        .and_then(|p| row.get(p))
                })
                .collect::<Option<Vec<&Value>>>()
            else {
                continue;
            };
            prints.push(key_fingerprint(table, &c.name, &key));
        }
        self.tx(xid)?.keys_seen.extend(prints);
        Ok(())
    }
}

/// A hash of a key such that keys the unique check finds equal (`==`, or [`compare`] equal,
/// also across value kinds by their text) hash the same: numbers and decimal-looking text by
/// their value, everything else by its text.
pub(super) fn key_fingerprint(table: usize, constraint: &str, key: &[&Value]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (table, constraint).hash(&mut h);
    for v in key {
        match v {
            Value::Null => 0u8.hash(&mut h),
            Value::Number(s) => decimal_parts(s).hash(&mut h),
            other => {
                let text = other.to_string();
                let t = text.trim();
                let decimal = !t.is_empty()
                    && t.trim_start_matches(['-', '+'])
                        .chars()
                        .all(|c| c.is_ascii_digit() || c == '.');
                if decimal {
                    decimal_parts(&text).hash(&mut h)
                } else {
                    text.hash(&mut h)
                }
            }
        }
        0xffu8.hash(&mut h);
    }
    h.finish()
}

/// The value of a decimal text as [`crate::types::compare_decimal`] sees it.
fn decimal_parts(s: &str) -> (bool, &str, &str) {
    let s = s.trim();
    let (neg, d) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (i, f) = d.split_once('.').unwrap_or((d, ""));
    let i = i.trim_start_matches('0');
    let f = f.trim_end_matches('0');
    let zero = i.is_empty() && f.is_empty();
    (neg && !zero, i, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_the_unique_check_finds_equal_have_one_fingerprint() {
        let n = |s: &str| Value::Number(s.into());
        let t = |s: &str| Value::Text(s.into());
        let fp = |v: &[Value]| key_fingerprint(0, "PK", &v.iter().collect::<Vec<_>>());
        for (a, b) in [
            (vec![n("1")], vec![n("1.0")]),
            (vec![n("-0")], vec![n("0")]),
            (vec![n("007.50")], vec![n("7.5")]),
            (vec![n("5")], vec![t("5")]),
            (vec![n("1"), t("x")], vec![n("1.00"), t("x")]),
            (vec![Value::Null, t("x")], vec![Value::Null, t("x")]),
        ] {
            assert!(
                a.iter()
                    .zip(&b)
                    .all(|(x, y)| x == y || compare(x, y) == Ordering::Equal),
                "{a:?} {b:?}"
            );
            assert_eq!(fp(&a), fp(&b), "{a:?} {b:?}");
        }
        assert_ne!(fp(&[n("1")]), fp(&[n("2")]));
        assert_ne!(fp(&[t("a")]), fp(&[t("b")]));
        assert_ne!(
            key_fingerprint(0, "PK", &[&n("1")]),
            key_fingerprint(0, "UK", &[&n("1")])
        );
    }
}
