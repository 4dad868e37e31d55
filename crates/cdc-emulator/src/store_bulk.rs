//! A bulk load's inserts applied without their records (`emulator init`, see
//! [`super::super::bulk_load`]): what [`Replica::apply_at`] does with an insert and its commit,
//! less what a load of empty tables does not need. The record itself is not kept (nothing reads
//! it back during the load, and later readers read it from the redo file by the index), and the
//! row goes to its table's spill file, its commit SCN written at commit.

use super::*;

impl Replica {
    /// Apply insert record number `n` (at byte `offset` of the redo file) of `xid`: row `row`
    /// (its values encoded as [`super::super::rowfile::encode_values`] does in `values`) with
    /// serial `serial` at `rid` of table `tab`, at `scn` and time `ts`. Needs
    /// [`Replica::spill_rows`] first.
    pub(crate) fn bulk_insert(
        &mut self,
        (n, offset): (u64, u64),
        (scn, ts): (Scn, i64),
        xid: Xid,
        (tab, rid, serial): (usize, RowId, u64),
        row: &[Value],
        values: &[u8],
    ) -> Result<()> {
        if n != self.next_record() {
            return Err(self.damaged(n, format!("bulk insert as record {n}")));
        }
        if tab >= self.tables.len() {
            return Err(self.damaged(n, format!("table number {tab} does not exist")));
        }
        if !self.open.contains_key(&xid) {
            return Err(self.damaged(n, format!("change of transaction {xid}, which is not open")));
        }
        if !self.index.can_evict() {
            // Every record must be readable back from the file: none is kept here.
            return Err(CdcError::Database(
                "emulator bulk load: the replica has no redo file".into(),
            ));
        }
        self.current_scn = self.current_scn.max(scn);
        self.index.note(n, scn, Some(offset));
        self.note_time(scn, ts);
        let t = &mut self.tables[tab];
        // What note_serial finds: one more insert, and the row's keys, made from `serial`
        // (key_gen reads them back as it).
        t.serial_high = (t.serial_high + 1).max(serial);
        if let Some(pdb) = &t.def.name.pdb {
            self.xid_pdb.entry(xid).or_insert_with(|| pdb.clone());
        }
        // The cache holds records from `records_base` on without gaps: this one is not in it,
        // so it starts after it (the records dropped are in the file, as every record is).
        self.records_base += self.records.len() as u64 + 1;
        self.records.clear();
        // LGWR: the record waits in the log buffer of its thread until the commit writes it,
        // which empties that buffer; nothing looks at the buffer in between.
        match &mut self.bulk {
            Some((spills, _)) => match spills.get_mut(tab) {
                Some(spill) => {
                    spill.push_encoded(rid, row, values);
                    Ok(())
                }
                None => Err(CdcError::Database(format!(
                    "emulator bulk load: no spill for table {tab}"
                ))),
            },
            None => Err(CdcError::Database(
                "emulator bulk load: inserts without spill files".into(),
            )),
        }
    }

    /// The commit (already applied, at `scn`) of the transaction whose [`Replica::bulk_insert`]s
    /// are pending: their rows committed, as [`Replica::apply_at`] commits a change.
    pub(crate) fn bulk_commit(&mut self, scn: Scn) -> Result<()> {
        let commit_ts = self.commit_ts;
        let Some((spills, _)) = &mut self.bulk else {
            return Ok(());
        };
        for (t, spill) in self.tables.iter_mut().zip(spills.iter_mut()) {
            if spill.pending() == 0 {
                continue;
            }
            let rows = spill
                .commit_pending(scn)
                .map_err(|e| CdcError::Database(format!("emulator bulk load: {e}")))?;
            t.live_rows += rows;
            t.last_change_scn = t.last_change_scn.max(scn);
            if t.change_commits.last().map(|c| c.0) != Some(scn) {
                t.change_commits.push((scn, commit_ts));
            }
            t.changes_since_stats += rows;
            if let Some(u) = &mut self.unloaded {
                u.pending += rows as usize;
            }
        }
        Ok(())
    }
}
