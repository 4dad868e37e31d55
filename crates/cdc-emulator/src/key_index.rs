//! An ordered index of a table's rows by primary key, so key-range reads `AS OF SCN` touch only
//! the rows in range instead of scanning and sorting the whole table.
//!
//! A row's key can change over its versions (key updates), and a read at an old SCN must find the
//! row under the key it had then: the index holds every key any retained version of a row has,
//! with the rows that had it. A reader takes the entries in range and keeps a row only when its
//! version visible at the SCN has exactly that entry's key, so each visible row is found once.

use super::store::{visible_version, TableState, Version};
use crate::errors::{CdcError, Result};
use crate::types::{compare, compare_keys_in, KeyOrder, Value};
use cdc_core::model::{ChunkRange, ColumnInfo, FlashbackQuery, Scn};
use cdc_core::rowid::RowId;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Arc;

/// Key values ordered as [`compare_keys_in`] orders them in the index's order (every key of
/// one index carries the same).
#[derive(Debug, Clone)]
pub struct IndexKey(pub Box<[Value]>, pub KeyOrder);

impl Ord for IndexKey {
    fn cmp(&self, other: &Self) -> Ordering {
        compare_keys_in(&self.0, &other.0, self.1)
    }
}

impl PartialOrd for IndexKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for IndexKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for IndexKey {}

#[derive(Debug, Clone, Default)]
pub struct KeyIndex {
    /// Positions of the primary key columns in the table's current column layout.
    positions: Vec<usize>,
    /// Every key of a retained version → the rows that had it (sorted ROWIDs).
    map: BTreeMap<IndexKey, Vec<RowId>>,
    /// How the key orders: text by the bytes of its character set's encoding.
    order: KeyOrder,
}

impl KeyIndex {
    /// The index of a table with primary key `pk` (none without one, or when a key column is
    /// missing from `columns`), built from its versions; text keys ordered as the BINARY order
    /// of `charsets`.
    pub fn for_table(
        pk: &[String],
        columns: &[ColumnInfo],
        rows: &BTreeMap<RowId, Vec<Version>>,
        charsets: crate::charset::Charsets,
    ) -> Option<KeyIndex> {
        if pk.is_empty() {
            return None;
        }
        let positions = pk
            .iter()
            .map(|k| columns.iter().position(|c| &c.name == k))
            .collect::<Option<Vec<usize>>>()?;
        let order = KeyOrder::new(charsets, positions.iter().map(|&i| &columns[i].data_type));
        let mut ix = KeyIndex {
            positions,
            map: BTreeMap::new(),
            order,
        };
        for (rid, versions) in rows {
            for row in versions.iter().filter_map(|v| v.row.as_ref()) {
                ix.insert(row, *rid);
            }
        }
        Some(ix)
    }

    fn key_of(&self, row: &[Value]) -> Option<IndexKey> {
        self.positions
            .iter()
            .map(|&i| row.get(i).cloned())
            .collect::<Option<Vec<Value>>>()
            .map(|k| IndexKey(k.into_boxed_slice(), self.order))
    }

    /// Whether `row`'s key is `key`.
    fn has_key(&self, row: &[Value], key: &[Value]) -> bool {
        self.positions.len() == key.len()
            && self.positions.iter().zip(key).all(|(&i, k)| {
                row.get(i)
                    .is_some_and(|v| v == k || compare(v, k) == Ordering::Equal)
            })
    }

    /// Record that a version of `rid` has `row`.
    pub fn insert(&mut self, row: &[Value], rid: RowId) {
        let Some(key) = self.key_of(row) else { return };
        let rids = self.map.entry(key).or_default();
        if let Err(i) = rids.binary_search(&rid) {
            rids.insert(i, rid);
        }
    }

    /// `rid` lost a version with `row`: drop its entry unless one of `remaining` has the same key.
    pub fn forget(&mut self, row: &[Value], rid: RowId, remaining: &[Version]) {
        let Some(key) = self.key_of(row) else { return };
        if remaining
            .iter()
            .filter_map(|v| v.row.as_ref())
            .any(|r| self.has_key(r, &key.0))
        {
            return;
        }
        if let Some(rids) = self.map.get_mut(&key) {
            if let Ok(i) = rids.binary_search(&rid) {
                rids.remove(i);
            }
            if rids.is_empty() {
                self.map.remove(&key);
            }
        }
    }

    /// The rows any retained version of which has `row`'s key.
    pub fn rows_with_key(&self, row: &[Value]) -> &[RowId] {
        self.key_of(row)
            .and_then(|k| self.map.get(&k))
            .map_or(&[], |v| v.as_slice())
    }

    /// Whether the index orders reads by `key_columns` (the primary key, in its order).
    pub fn serves(&self, pk: &[String], key_columns: &[String]) -> bool {
        !key_columns.is_empty() && pk == key_columns
    }

    /// The rows visible at `scn` with `lower <= key < upper`, in key order (ROWID order among
    /// equal keys), each with its key.
    pub fn visible<'a>(
        &'a self,
        rows: &'a BTreeMap<RowId, Vec<Version>>,
        scn: Scn,
        lower: Option<&[Value]>,
        upper: Option<&[Value]>,
    ) -> impl DoubleEndedIterator<Item = (RowId, &'a Arc<[Value]>, &'a [Value])> + 'a {
        let lo = lower.map(|l| IndexKey(l.to_vec().into_boxed_slice(), self.order));
        let hi = upper.map(|u| IndexKey(u.to_vec().into_boxed_slice(), self.order));
        let empty = matches!((&lo, &hi), (Some(l), Some(h)) if l >= h);
        let range = if empty {
            None
        } else {
            let start = lo.map_or(Bound::Unbounded, Bound::Included);
            let end = hi.map_or(Bound::Unbounded, Bound::Excluded);
            Some(self.map.range((start, end)))
        };
        range
            .into_iter()
            .flatten()
            .flat_map(|(key, rids)| rids.iter().map(move |rid| (*rid, &key.0)))
            .filter_map(move |(rid, key)| {
                let versions = rows.get(&rid)?;
                let row = visible_version(versions, scn)?;
                // A row with one version is listed under that version's key only.
                (versions.len() == 1 || self.has_key(row, key)).then_some((rid, row, &key[..]))
            })
    }
}

/// The rows a flashback read of `t` looks at (visible at `q.scn`), and whether they come in key
/// order already: reads by the primary key walk the index over the key range only.
#[allow(clippy::type_complexity)]
pub(super) fn rows_to_read<'a>(
    t: &'a TableState,
    q: &'a FlashbackQuery,
    iot: bool,
) -> Result<(
    Box<dyn Iterator<Item = (RowId, &'a Arc<[Value]>)> + 'a>,
    bool,
)> {
    let scn = q.scn;
    let scan = |r: std::collections::btree_map::Range<'a, RowId, Vec<Version>>| {
        r.filter_map(move |(rid, versions)| visible_version(versions, scn).map(|row| (*rid, row)))
    };
    let index = t
        .key_index
        .as_ref()
        .filter(|ix| ix.serves(&t.def.primary_key, &q.key_columns));
    Ok(match (&q.range, index) {
        (ChunkRange::Rowid { start, end }, _) => {
            if iot {
                return Err(CdcError::Database(
                    "ORA-01410: invalid ROWID (an index-organized table has no physical ROWID ranges)".into(),
                ));
            }
            let bad = |e| CdcError::Database(format!("ORA-01410: invalid ROWID: {e}"));
            let s = RowId::decode(start).map_err(bad)?;
            let e = RowId::decode(end).map_err(bad)?;
            if s > e {
                (Box::new(std::iter::empty()), false)
            } else {
                (Box::new(scan(t.rows.range(s..=e))), false)
            }
        }
        (range, Some(ix)) => {
            let (lower, upper) = match range {
                ChunkRange::Key { lower, upper } => (lower.as_deref(), upper.as_deref()),
                _ => (None, None),
            };
            let rows = ix.visible(&t.rows, scn, lower, upper);
            (Box::new(rows.map(|(rid, row, _)| (rid, row))), true)
        }
        (_, None) => (Box::new(scan(t.rows.range(..))), false),
    })
}

/// A logical ROWID of an index-organised row: `*` and its primary key, as UROWID text.
pub(super) fn logical_rowid(
    _key: &[Value],
    row: &[Value],
    pk: &[String],
    columns: &[ColumnInfo],
) -> String {
    // A header byte, then each key column's text with its length (Oracle keeps a block guess
    // and the key in its internal form; what clients see is the same shape of text).
    let mut bytes = vec![4u8];
    for k in pk {
        if let Some(i) = columns.iter().position(|c| &c.name == k) {
            let text = row[i].to_string();
            let b = text.as_bytes();
            bytes.push(u8::try_from(b.len().min(255)).unwrap_or(u8::MAX));
            bytes.extend_from_slice(&b[..b.len().min(255)]);
        }
    }
    logical_rowid_text(&bytes)
}

/// `*` and the bytes of a logical ROWID in ROWID base 64 (`A-Z a-z 0-9 + /`): three bytes to four
/// characters, a last one or two to two or three, as Oracle prints a UROWID (and as the thin
/// drivers turn its bytes on the wire back into text, so the text survives the round trip).
pub fn logical_rowid_text(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(1 + bytes.len() * 4 / 3 + 3);
    out.push('*');
    for chunk in bytes.chunks(3) {
        let mut value = chunk.iter().fold(0u32, |v, b| v << 8 | u32::from(*b));
        let chars = chunk.len() + 1;
        value <<= match chunk.len() {
            1 => 4,
            2 => 2,
            _ => 0,
        };
        for i in (0..chars).rev() {
            out.push(char::from(ALPHABET[((value >> (6 * i)) & 0x3f) as usize]));
        }
    }
    out
}

#[cfg(test)]
#[path = "key_index_tests.rs"]
mod tests;
