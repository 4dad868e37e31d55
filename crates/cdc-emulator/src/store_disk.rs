//! Reads of rows a checkpoint left on disk, without loading the table: a chunk's rows are read
//! from the checkpoint file ([`super::super::rowfile`], found through its row directory) and
//! merged with the versions committed after the checkpoint, which the replica keeps in the
//! table's `rows` and `key_index` meanwhile. A reader's memory then grows with a chunk and
//! the changes since the checkpoint, not with the table: a 10M-row export no longer builds a
//! 10M-row map first.
//!
//! What a read sees is what it would see with the rows loaded: the file's versions of a row
//! come before the newer ones (every commit after the checkpoint has a higher SCN), the version
//! visible at the SCN is the newest at or below it, and a row is found under a key only when
//! its visible version has that key. The checks before a read (ORA-08181, ORA-01466, ORA-01555
//! from the undo retention and the table's commits) are [`Replica::flashback_table`]'s, made
//! before any of this. Reads in key order from the file need a key-ordered table (one key per
//! row, keys rising with the ROWID: see [`super::super::rowfile`]); for any other table with a
//! primary key the session loads the rows first ([`Replica::disk_serves_reads`]).

use super::super::rowfile::{row_key, DirEntry, RawRow, ROWS_START};
use super::*;
use std::cmp::Ordering;

/// A row a read sees: decoded from the file for this read alone (its values can be moved into
/// the fetched row), or shared with the versions the replica holds.
pub(crate) enum SeenRow {
    File(Vec<Value>),
    Shared(Arc<[Value]>),
}

impl std::ops::Deref for SeenRow {
    type Target = [Value];
    fn deref(&self) -> &[Value] {
        match self {
            SeenRow::File(v) => v,
            SeenRow::Shared(a) => a,
        }
    }
}

impl SeenRow {
    /// The values at positions `select`: moved out when they are the whole row in order.
    pub(crate) fn select(self, select: &[usize]) -> Vec<Value> {
        match self {
            SeenRow::File(v)
                if select.len() == v.len() && select.iter().enumerate().all(|(a, &b)| a == b) =>
            {
                v
            }
            row => select.iter().map(|&i| row[i].clone()).collect(),
        }
    }
}

/// A row read from the file or the changes since, with its visible version.
pub(crate) type ReadRow = (RowId, SeenRow);

/// What a key scan hands each row: its ROWID, visible version and key; false stops the scan.
pub(crate) type KeyedRow<'a> = &'a mut dyn FnMut(RowId, SeenRow, &[Value]) -> Result<bool>;

impl Unloaded {
    fn dir(&self, i: usize) -> Result<&[DirEntry]> {
        let Some(lock) = self.dirs.get(i) else {
            return Ok(&[]);
        };
        if let Some(d) = lock.get() {
            return Ok(d);
        }
        let d = self.disk.read_dir(i)?;
        let _ = lock.set(d);
        Ok(lock.get().map_or(&[], |d| d.as_slice()))
    }

    fn reshapes(&self, i: usize) -> &[Option<usize>] {
        self.reshapes.get(i).map_or(&[][..], |r| r.as_slice())
    }

    /// Table `i`'s rows from byte `from` to `to` of its section, reshaped to today's columns.
    fn scan(
        &self,
        i: usize,
        from: u64,
        to: Option<u64>,
        each: &mut dyn FnMut(RowId, Vec<Version>) -> Result<bool>,
    ) -> Result<()> {
        self.disk.scan_raw(i, from, to, &mut |raw| {
            each(raw.rid, self.versions(i, raw)?)
        })
    }

    /// Every version of a row of table `i`, reshaped to today's columns.
    fn versions(&self, i: usize, raw: &RawRow<'_>) -> Result<Vec<Version>> {
        let mut versions = raw.versions().map_err(|m| self.disk.damaged(i, m))?;
        for d in self.reshapes(i) {
            reshape_versions(&mut versions, *d);
        }
        Ok(versions)
    }

    /// The version of a row of table `i` visible at `scn`, reshaped to today's columns.
    fn visible(&self, i: usize, raw: &RawRow<'_>, scn: Scn) -> Result<Option<Vec<Value>>> {
        let mut row = raw.visible(scn).map_err(|m| self.disk.damaged(i, m))?;
        if let Some(r) = row.as_mut() {
            for d in self.reshapes(i) {
                reshape_row(r, *d);
            }
        }
        Ok(row)
    }
}

/// The visible version at `scn` of a row with `base` versions in the file and `delta` since.
fn merged_visible(delta: Option<&Vec<Version>>, base: &[Version], scn: Scn) -> Option<SeenRow> {
    if let Some(d) = delta {
        if d.first().is_some_and(|v| v.scn <= scn) {
            return visible_version(d, scn).cloned().map(SeenRow::Shared);
        }
    }
    visible_version(base, scn).cloned().map(SeenRow::Shared)
}

/// Whether `row`'s key (at `pk`) is `key`.
fn has_key(row: &[Value], pk: &[usize], key: &[Value]) -> bool {
    pk.len() == key.len()
        && pk.iter().zip(key).all(|(&i, k)| {
            row.get(i)
                .is_some_and(|v| v == k || crate::types::compare(v, k) == Ordering::Equal)
        })
}

impl Replica {
    /// Whether the rows a checkpoint left on disk are still there and every read can be served
    /// from the file (tables with a primary key key-ordered); otherwise reads load them first.
    pub fn disk_serves_reads(&self) -> bool {
        let Some(u) = &self.unloaded else {
            return false;
        };
        self.tables.iter().enumerate().all(|(i, t)| {
            t.key_index.is_none() || u.disk.key_ordered.get(i).copied().unwrap_or(true)
        })
    }

    fn disk_table(&self, t: &TableState) -> Option<(&Unloaded, usize)> {
        let u = self.unloaded.as_ref()?;
        let i = self.tables.iter().position(|x| std::ptr::eq(x, t))?;
        Some((u, i))
    }

    /// The rows of `t` visible at `scn` with a ROWID in `range` (all without one), in ROWID
    /// order; `None` when its rows are in memory.
    pub(super) fn disk_rowid_rows(
        &self,
        t: &TableState,
        range: Option<(RowId, RowId)>,
        scn: Scn,
    ) -> Result<Option<Vec<ReadRow>>> {
        let Some((u, i)) = self.disk_table(t) else {
            return Ok(None);
        };
        let dir = u.dir(i)?;
        let from = match range {
            Some((s, _)) => {
                let j = dir.partition_point(|e| e.rid <= s);
                j.checked_sub(1).map_or(ROWS_START, |j| dir[j].offset)
            }
            None => ROWS_START,
        };
        let mut out = Vec::new();
        // The file's ROWIDs, when changes since may have added rows among them.
        let mut seen: Vec<RowId> = Vec::new();
        let note = !t.rows.is_empty();
        u.disk.scan_raw(i, from, None, &mut |raw| {
            let rid = raw.rid;
            if let Some((s, e)) = range {
                if rid < s {
                    return Ok(true);
                }
                if rid > e {
                    return Ok(false);
                }
            }
            if note {
                seen.push(rid);
            }
            let row = match t.rows.get(&rid) {
                Some(delta) => merged_visible(Some(delta), &u.versions(i, raw)?, scn),
                // Unchanged since the checkpoint: only the version seen is decoded.
                None => u.visible(i, raw, scn)?.map(SeenRow::File),
            };
            if let Some(row) = row {
                out.push((rid, row));
            }
            Ok(true)
        })?;
        let delta = match range {
            Some((s, e)) => t.rows.range(s..=e),
            None => t.rows.range(..),
        };
        let mut added: Vec<ReadRow> = delta
            .filter(|(rid, _)| seen.binary_search(rid).is_err())
            .filter_map(|(rid, v)| {
                visible_version(v, scn).map(|r| (*rid, SeenRow::Shared(r.clone())))
            })
            .collect();
        if !added.is_empty() {
            out.append(&mut added);
            out.sort_by_key(|(r, _)| *r);
        }
        Ok(Some(out))
    }

    /// The rows of `t` visible at `scn` with `lower <= key < upper`, in primary key order
    /// (ROWID order among equal keys), until `each` says stop; `Ok(false)` when its rows are
    /// in memory or it has no primary key index.
    pub(super) fn disk_key_scan(
        &self,
        t: &TableState,
        scn: Scn,
        lower: Option<&[Value]>,
        upper: Option<&[Value]>,
        each: KeyedRow<'_>,
    ) -> Result<bool> {
        let (Some((u, i)), Some(ix), Some(pk)) =
            (self.disk_table(t), t.key_index.as_ref(), key_positions(t))
        else {
            return Ok(false);
        };
        let order = t.pk_order();
        let compare_keys = |a: &[Value], b: &[Value]| compare_keys_in(a, b, order);
        if matches!((lower, upper), (Some(l), Some(h)) if !compare_keys(l, h).is_lt()) {
            return Ok(true);
        }
        let dir = u.dir(i)?;
        let from = match lower {
            Some(l) => {
                let j = dir
                    .partition_point(|e| e.key.as_ref().is_none_or(|k| compare_keys(k, l).is_lt()));
                j.checked_sub(1).map_or(ROWS_START, |j| dir[j].offset)
            }
            None => ROWS_START,
        };
        // Rows changed since the checkpoint, under the keys their versions since have.
        let mut delta = ix.visible(&t.rows, scn, lower, upper).peekable();
        let mut stopped = false;
        // The file is in key order: once a row is at or past `lower`, every later one is, and
        // only `upper` is compared (each comparison was a fiftieth of a snapshot row's cost).
        let mut below_lower = lower;
        {
            let mut base = |raw: &RawRow<'_>| -> Result<bool> {
                let rid = raw.rid;
                let one_key: [Value; 1];
                let many_keys: Vec<Value>;
                let (key, row): (&[Value], Option<SeenRow>) = match t.rows.get(&rid) {
                    Some(since) => {
                        let versions = u.versions(i, raw)?;
                        let Ok(Some(key)) = row_key(&versions, &pk) else {
                            return Ok(true);
                        };
                        let row = merged_visible(Some(since), &versions, scn)
                            .filter(|row| has_key(row, &pk, &key));
                        many_keys = key;
                        (&many_keys, row)
                    }
                    // Unchanged since the checkpoint: only the version seen is decoded, and a
                    // key-ordered row has one key in every version: the one seen has it. A row
                    // with none seen is passed over (the next one seen stops the scan as well).
                    None => {
                        let Some(row) = u.visible(i, raw, scn)? else {
                            return Ok(true);
                        };
                        if let [k] = pk.as_slice() {
                            one_key = [row.get(*k).cloned().unwrap_or(Value::Null)];
                            (&one_key, Some(SeenRow::File(row)))
                        } else {
                            many_keys = pk
                                .iter()
                                .map(|&k| row.get(k).cloned().unwrap_or(Value::Null))
                                .collect();
                            (&many_keys, Some(SeenRow::File(row)))
                        }
                    }
                };
                if let Some(l) = below_lower {
                    if compare_keys(key, l).is_lt() {
                        return Ok(true);
                    }
                    below_lower = None;
                }
                if upper.is_some_and(|h| !compare_keys(key, h).is_lt()) {
                    return Ok(false);
                }
                while let Some((drid, drow, dkey)) = delta.peek() {
                    match compare_keys(dkey, key).then(drid.cmp(&rid)) {
                        Ordering::Less => {
                            if !each(*drid, SeenRow::Shared((*drow).clone()), dkey)? {
                                stopped = true;
                                return Ok(false);
                            }
                            delta.next();
                        }
                        // This row under this key: its merged versions decide below.
                        Ordering::Equal => {
                            delta.next();
                            break;
                        }
                        Ordering::Greater => break,
                    }
                }
                if let Some(row) = row {
                    if !each(rid, row, key)? {
                        stopped = true;
                        return Ok(false);
                    }
                }
                Ok(true)
            };
            u.disk.scan_raw(i, from, None, &mut base)?;
        }
        if !stopped {
            for (rid, row, key) in delta {
                if !each(rid, SeenRow::Shared(row.clone()), key)? {
                    break;
                }
            }
        }
        Ok(true)
    }

    /// The highest primary key of `t` visible at `scn`, read backwards through the file's
    /// directory; `None` inside when there is none, `None` outside when its rows are in memory.
    pub(super) fn disk_max_key(
        &self,
        t: &TableState,
        scn: Scn,
    ) -> Result<Option<Option<Vec<Value>>>> {
        let (Some((u, i)), Some(ix), Some(pk)) =
            (self.disk_table(t), t.key_index.as_ref(), key_positions(t))
        else {
            return Ok(None);
        };
        let order = t.pk_order();
        let compare_keys = |a: &[Value], b: &[Value]| compare_keys_in(a, b, order);
        let dir = u.dir(i)?;
        let mut best: Option<Vec<Value>> = None;
        for j in (0..dir.len()).rev() {
            let to = dir.get(j + 1).map(|e| e.offset);
            u.scan(i, dir[j].offset, to, &mut |rid, versions| {
                let Ok(Some(key)) = row_key(&versions, &pk) else {
                    return Ok(true);
                };
                if let Some(row) = merged_visible(t.rows.get(&rid), &versions, scn) {
                    if has_key(&row, &pk, &key) {
                        best = Some(key);
                    }
                }
                Ok(true)
            })?;
            if best.is_some() {
                break;
            }
        }
        let since = ix
            .visible(&t.rows, scn, None, None)
            .next_back()
            .map(|(_, _, k)| k.to_vec());
        Ok(Some(match (best, since) {
            (Some(a), Some(b)) => Some(if compare_keys(&a, &b).is_lt() { b } else { a }),
            (a, b) => a.or(b),
        }))
    }
}

#[cfg(test)]
#[path = "store_disk_tests.rs"]
mod tests;
