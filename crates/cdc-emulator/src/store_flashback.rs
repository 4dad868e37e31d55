//! Flashback reads of the replica: the checks Oracle makes before an `AS OF SCN` read
//! (ORA-08181, ORA-01466, ORA-01555) and the reads themselves (rows, key ranges, boundaries).

use super::*;

impl Replica {
    /// V$DATABASE.CURRENT_SCN. Oracle's SCN is not a count of redo: it moves on while nothing
    /// is written (the database takes SCNs for its own work), a commit takes an SCN above every
    /// one handed out before, and redo made later carries the SCN of that moment, which several
    /// changes may share. The emulator's SCN moves only with its records, so it shows what that
    /// means for its own next record: on a primary with no transaction open, the SCN after the
    /// newest record that took one of its own ([`Replica::own_scn`]). The next record carries
    /// at least that SCN (a log switch, statistics or an extent share the next record's), and
    /// no commit can take it: a transaction's START comes first. A read `AS OF` it therefore
    /// sees every record so far and stays the same whatever commits later, and an idle
    /// database's last commit lies below an SCN the database has reached, as on Oracle (the
    /// mining bound of an idle redo thread needs that, `source::threads`). While a
    /// transaction is open its commit may come next, so CURRENT_SCN is the newest record's
    /// SCN. A standby's is the SCN redo apply has reached.
    pub fn current_scn_view(&self) -> Scn {
        let primary = self.schema.database.role == crate::schema::RoleSpec::Primary;
        match primary && self.open.is_empty() && self.own_scn > 0 {
            true => self.current_scn.max(self.own_scn + 1),
            false => self.current_scn,
        }
    }

    /// The SCN of the newest change: the newest record that took an SCN of its own (a log
    /// switch, statistics or an extent carry the next record's), the SCN a capture of a quiet
    /// database can reach (`emulator status`).
    pub fn newest_change_scn(&self) -> Scn {
        match self.own_scn {
            0 => self.current_scn,
            own => own,
        }
    }

    /// The checks Oracle makes before any `AS OF SCN` read of a table.
    pub(super) fn flashback_table(
        &self,
        table: &crate::names::TableName,
        scn: Scn,
        now_ms: i64,
    ) -> Result<&TableState> {
        let t = self.table(table)?;
        let current = self.current_scn_view();
        if scn > current {
            return Err(CdcError::InvalidScn {
                scn,
                reason: format!("after the current SCN {current}"),
            });
        }
        if scn < self.schema.database.start_scn {
            return Err(CdcError::InvalidScn {
                scn,
                reason: format!(
                    "before the database's oldest flashback SCN {}",
                    self.schema.database.start_scn
                ),
            });
        }
        if scn < t.last_ddl_scn {
            return Err(CdcError::TableDefinitionChanged {
                table: table.to_string(),
                scn,
                ddl_scn: Some(t.last_ddl_scn),
            });
        }
        // Reading at an old SCN needs the undo of every later change to the table; undo of
        // changes committed longer ago than UNDO_RETENTION may be overwritten (and here is).
        if self.undo_expired(t, scn, now_ms) {
            return Err(CdcError::SnapshotTooOld {
                table: table.to_string(),
                scn,
            });
        }
        Ok(t)
    }

    /// The sorted keys of the rows visible at `scn` with key >= `lower`.
    pub(super) fn sorted_keys<'a>(
        &'a self,
        table: &crate::names::TableName,
        key_columns: &[String],
        scn: Scn,
        lower: Option<&[Value]>,
        now_ms: i64,
    ) -> Result<Box<dyn Iterator<Item = Vec<Value>> + 'a>> {
        let t = self.flashback_table(table, scn, now_ms)?;
        if let Some(ix) = t.key_index.as_ref() {
            if ix.serves(&t.def.primary_key, key_columns) {
                let mut keys = Vec::new();
                if self.disk_key_scan(t, scn, lower, None, &mut |_, _, k| {
                    keys.push(k.to_vec());
                    Ok(true)
                })? {
                    return Ok(Box::new(keys.into_iter()));
                }
                let keys = ix.visible(&t.rows, scn, lower, None);
                return Ok(Box::new(keys.map(|(_, _, key)| key.to_vec())));
            }
        }
        let idx: Vec<usize> = key_columns
            .iter()
            .map(|c| {
                t.columns.iter().position(|x| &x.name == c).ok_or_else(|| {
                    CdcError::Database(format!("ORA-00904: \"{c}\": invalid identifier"))
                })
            })
            .collect::<Result<_>>()?;
        let key_of = |row: &[Value]| idx.iter().map(|&i| row[i].clone()).collect::<Vec<_>>();
        let mut keys: Vec<Vec<Value>> = match self.disk_rowid_rows(t, None, scn)? {
            Some(rows) => rows.iter().map(|(_, row)| key_of(row)).collect(),
            None => t
                .rows
                .values()
                .filter_map(|v| visible_version(v, scn))
                .map(|row| key_of(row))
                .collect(),
        };
        let order = t.key_order_at(&idx);
        keys.retain(|k| lower.is_none_or(|l| !compare_keys_in(k, l, order).is_lt()));
        keys.sort_by(|a, b| compare_keys_in(a, b, order));
        Ok(Box::new(keys.into_iter()))
    }

    /// MIN and MAX of a one-column key as of `scn`.
    pub fn key_range(
        &self,
        table: &crate::names::TableName,
        column: &str,
        scn: Scn,
        now_ms: i64,
    ) -> Result<Option<(Value, Value)>> {
        let t = self.flashback_table(table, scn, now_ms)?;
        let column = [column.to_string()];
        if let Some(ix) = t.key_index.as_ref() {
            if ix.serves(&t.def.primary_key, &column) {
                if let Some(max) = self.disk_max_key(t, scn)? {
                    let mut min = None;
                    self.disk_key_scan(t, scn, None, None, &mut |_, _, k| {
                        min = (!k[0].is_null()).then(|| k[0].clone());
                        Ok(min.is_none())
                    })?;
                    let max = max.and_then(|k| (!k[0].is_null()).then(|| k[0].clone()));
                    return Ok(min.zip(max));
                }
                let first = |(_, _, k): (_, _, &[Value])| (!k[0].is_null()).then(|| k[0].clone());
                let min = ix.visible(&t.rows, scn, None, None).find_map(first);
                let max = ix.visible(&t.rows, scn, None, None).rev().find_map(first);
                return Ok(min.zip(max));
            }
        }
        let keys: Vec<Vec<Value>> = self
            .sorted_keys(table, &column, scn, None, now_ms)?
            .collect();
        let non_null: Vec<&Value> = keys
            .iter()
            .map(|k| &k[0])
            .filter(|v| !v.is_null())
            .collect();
        Ok(match (non_null.first(), non_null.last()) {
            (Some(a), Some(b)) => Some(((*a).clone(), (*b).clone())),
            _ => None,
        })
    }

    /// Index boundary probes (see [`cdc_core::session::Flashback::key_boundaries`]).
    pub fn key_boundaries(&self, q: &BoundaryQuery, now_ms: i64) -> Result<Vec<Vec<Value>>> {
        Ok(self.key_boundaries_read(q, now_ms)?.0)
    }

    /// [`Replica::key_boundaries`], and how many rows the probe read to find them (the rows
    /// from `lower` up to the last boundary, or to the table's end when it has fewer).
    pub fn key_boundaries_read(
        &self,
        q: &BoundaryQuery,
        now_ms: i64,
    ) -> Result<(Vec<Vec<Value>>, u64)> {
        let step = q.step.max(1) as usize;
        let t = self.flashback_table(&q.table, q.scn, now_ms)?;
        if t.key_index
            .as_ref()
            .is_some_and(|ix| ix.serves(&t.def.primary_key, &q.key_columns))
        {
            // Every step-th key after `lower`, reading no further than the last one.
            let (mut seen, mut out) = (0usize, Vec::new());
            let disk = self.disk_key_scan(t, q.scn, q.lower.as_deref(), None, &mut |_, _, k| {
                if seen >= step && (seen - step).is_multiple_of(step) {
                    out.push(k.to_vec());
                }
                seen += 1;
                Ok(out.len() < q.count as usize)
            })?;
            if disk {
                return Ok((out, seen as u64));
            }
        }
        let keys = self.sorted_keys(&q.table, &q.key_columns, q.scn, q.lower.as_deref(), now_ms)?;
        let (mut seen, mut out) = (0u64, Vec::new());
        for k in keys {
            seen += 1;
            let i = seen as usize - 1;
            if i >= step && (i - step).is_multiple_of(step) {
                out.push(k);
                if out.len() >= q.count as usize {
                    break;
                }
            }
        }
        Ok((out, seen))
    }

    /// [`super::super::key_index::rows_to_read`] for rows still in the checkpoint file: hands
    /// `each` the rows the read looks at and whether they come in key order; false when they
    /// are in memory.
    fn disk_read(
        &self,
        t: &TableState,
        q: &FlashbackQuery,
        iot: bool,
        each: &mut dyn FnMut(RowId, disk::SeenRow, bool) -> Result<()>,
    ) -> Result<bool> {
        if self.unloaded.is_none() {
            return Ok(false);
        }
        let by_key = t
            .key_index
            .as_ref()
            .is_some_and(|ix| ix.serves(&t.def.primary_key, &q.key_columns));
        let rows = match &q.range {
            ChunkRange::Rowid { start, end } => {
                if iot {
                    return Err(CdcError::Database(
                        "ORA-01410: invalid ROWID (an index-organized table has no physical ROWID ranges)".into(),
                    ));
                }
                let bad = |e| CdcError::Database(format!("ORA-01410: invalid ROWID: {e}"));
                let s = RowId::decode(start).map_err(bad)?;
                let e = RowId::decode(end).map_err(bad)?;
                if s > e {
                    return Ok(true);
                }
                self.disk_rowid_rows(t, Some((s, e)), q.scn)?
            }
            range if by_key => {
                let (lower, upper) = match range {
                    ChunkRange::Key { lower, upper } => (lower.as_deref(), upper.as_deref()),
                    _ => (None, None),
                };
                // In key order as read: each row goes on as it is read.
                return self.disk_key_scan(t, q.scn, lower, upper, &mut |rid, row, _| {
                    each(rid, row, true)?;
                    Ok(true)
                });
            }
            _ => self.disk_rowid_rows(t, None, q.scn)?,
        };
        let Some(rows) = rows else {
            return Ok(false);
        };
        for (rid, row) in rows {
            each(rid, row, false)?;
        }
        Ok(true)
    }

    /// Whether a read of `t` at `scn` needs undo older than the retention.
    pub fn undo_expired(&self, t: &TableState, scn: Scn, now_ms: i64) -> bool {
        let limit = now_ms - (self.schema.database.undo_retention as i64) * 1000;
        let i = t.change_commits.partition_point(|(_, ts)| *ts < limit);
        i > 0 && t.change_commits[i - 1].0 > scn
    }

    /// A flashback read: the checks Oracle makes, then the rows as committed at `q.scn`.
    pub fn read_as_of(&self, q: &FlashbackQuery, now_ms: i64) -> Result<Vec<FetchedRow>> {
        let mut rows = Vec::new();
        self.read_as_of_each(q, now_ms, &mut |r| {
            rows.push(r);
            Ok(())
        })?;
        Ok(rows)
    }

    /// [`Replica::read_as_of`] handing each row to `each`, in the read's order: as it is read
    /// when the rows come in key order and no condition applies, otherwise once all are read
    /// (then they are sorted, and a condition's error is the one the lowest failing ROWID
    /// raises, before any row). Returns how many rows it handed over.
    pub fn read_as_of_each(
        &self,
        q: &FlashbackQuery,
        now_ms: i64,
        each: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        self.read_as_of_each_nulling(q, now_ms, &[], each)
    }

    /// [`Replica::read_as_of_each`] under column-level VPD policies with ALL_ROWS: in a row
    /// where a policy's predicate is not TRUE its columns read as NULL, in the select list and
    /// for the query's condition alike (the range is compared on the stored keys).
    pub fn read_as_of_each_nulling(
        &self,
        q: &FlashbackQuery,
        now_ms: i64,
        nulls: &[crate::policies::NullWhere],
        each: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        let t = self.flashback_table(&q.table, q.scn, now_ms)?;
        let nulls: Vec<(super::super::condition::Condition, Vec<usize>)> = nulls
            .iter()
            .map(|n| {
                let positions = t
                    .columns
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| n.columns.contains(&c.name))
                    .map(|(i, _)| i)
                    .collect();
                Ok((
                    super::super::condition::compile(&n.condition, &t.columns)?,
                    positions,
                ))
            })
            .collect::<Result<_>>()?;
        let col_index = |name: &str| -> Result<usize> {
            t.columns
                .iter()
                .position(|c| c.name == name)
                .ok_or_else(|| {
                    CdcError::Database(format!("ORA-00904: \"{name}\": invalid identifier"))
                })
        };
        let select: Vec<usize> = q
            .columns
            .iter()
            .map(|c| col_index(c))
            .collect::<Result<_>>()?;
        let key: Vec<usize> = q
            .key_columns
            .iter()
            .map(|c| col_index(c))
            .collect::<Result<_>>()?;
        let order = t.key_order_at(&key);
        let iot = t.def.organization == Organization::IndexOrganized;
        // A row value the condition cannot convert (ORA-01722 …): the filter's fault, as the
        // Oracle adapter reports it (`oracle::connect::runtime_error`).
        let row_fails_filter = |e: CdcError| match e {
            CdcError::Database(message) => CdcError::FilterFailed {
                table: q.table.to_string(),
                filter: q.filter.clone(),
                message,
            },
            other => other,
        };
        let filter = match &q.filter {
            Some(text) => Some(super::super::condition::compile(text, &t.columns)?),
            None => None,
        };
        // A scan in ROWID order fails on the first row the condition cannot evaluate; an
        // ordered read reports the same one: the failing row with the lowest ROWID.
        let mut failed: Option<(RowId, CdcError)> = None;
        // Rows held back: read out of key order (with each one's key, to sort by), or under a
        // condition that may still fail.
        let mut held: Vec<FetchedRow> = Vec::new();
        let mut keys: Vec<Vec<Value>> = Vec::new();
        let mut unordered = false;
        let mut count = 0u64;
        {
            let mut take = |rid: RowId, row: disk::SeenRow, ordered: bool| -> Result<()> {
                // In key order already: no key to compare or sort by.
                let key_values: Vec<Value> = match ordered {
                    true => Vec::new(),
                    false => key.iter().map(|&i| row[i].clone()).collect(),
                };
                if let (ChunkRange::Key { lower, upper }, false) = (&q.range, ordered) {
                    if let Some(l) = lower {
                        if compare_keys_in(&key_values, l, order).is_lt() {
                            return Ok(());
                        }
                    }
                    if let Some(u) = upper {
                        if !compare_keys_in(&key_values, u, order).is_lt() {
                            return Ok(());
                        }
                    }
                }
                let row = match nulls.is_empty() {
                    true => row,
                    false => null_where_hidden(row, &nulls)?,
                };
                // Oracle runs `WHERE <range> AND (<condition>)`: rows outside the chunk never
                // reach the condition, so they cannot raise its conversion errors.
                if let Some(f) = &filter {
                    match f.try_matches(&row).map_err(row_fails_filter) {
                        Ok(true) => {}
                        Ok(false) => return Ok(()),
                        Err(e) if ordered => {
                            if failed.as_ref().is_none_or(|(r, _)| rid < *r) {
                                failed = Some((rid, e));
                            }
                            return Ok(());
                        }
                        Err(e) => return Err(e),
                    }
                }
                let rowid = if !q.row_ids {
                    Default::default()
                } else if iot {
                    super::super::key_index::logical_rowid(
                        &key_values,
                        &row,
                        &t.def.primary_key,
                        &t.columns,
                    )
                    .into()
                } else {
                    rid.encode_inline()
                };
                let fetched = FetchedRow {
                    rowid,
                    values: row.select(&select),
                };
                count += 1;
                if ordered && filter.is_none() {
                    return each(fetched);
                }
                held.push(fetched);
                if !ordered {
                    unordered = true;
                    keys.push(key_values);
                }
                Ok(())
            };
            // Reads by the primary key walk the key index over the range only, already in
            // order; rows still in the checkpoint file are read from it, chunk by chunk.
            if !self.disk_read(t, q, iot, &mut take)? {
                let (rows, ordered) = super::super::key_index::rows_to_read(t, q, iot)?;
                for (rid, row) in rows {
                    take(rid, disk::SeenRow::Shared(row.clone()), ordered)?;
                }
            }
        }
        if let Some((_, e)) = failed {
            return Err(e);
        }
        if !key.is_empty() && unordered {
            let mut keyed: Vec<(Vec<Value>, FetchedRow)> = keys.into_iter().zip(held).collect();
            keyed.sort_by(|a, b| compare_keys_in(&a.0, &b.0, order));
            held = keyed.into_iter().map(|(_, r)| r).collect();
        }
        for r in held {
            each(r)?;
        }
        Ok(count)
    }
}

/// A row with the columns of each ALL_ROWS policy whose predicate is not TRUE of it (on its
/// stored values) set to NULL.
fn null_where_hidden(
    row: disk::SeenRow,
    nulls: &[(super::super::condition::Condition, Vec<usize>)],
) -> Result<disk::SeenRow> {
    let mut hidden: Vec<usize> = Vec::new();
    for (condition, positions) in nulls {
        if !condition.try_matches(&row)? {
            hidden.extend(positions);
        }
    }
    if hidden.is_empty() {
        return Ok(row);
    }
    let mut values = row.to_vec();
    for i in hidden {
        values[i] = Value::Null;
    }
    Ok(disk::SeenRow::File(values))
}
