//! The writer's side of a bulk load (`emulator init`, see [`super::super::bulk_load`]): an
//! insert into an empty table written and applied without the general path's per-row work
//! (unique-key check, row lock, transaction overlay, the record kept in memory), its redo in the
//! compact line form ([`super::super::redo::compact`]). The loader's keys are made from distinct
//! serials, so none can repeat, and it holds one transaction at a time, so no row is locked by
//! another; the redo records, SCNs, ROWIDs, XIDs and times are those [`Writer::insert`] gives.

use super::super::redo::compact;
use super::*;

impl Writer {
    /// Whether the rows of `table` can go through [`Writer::bulk_insert`]: a table with a
    /// materialized view log gets a log row with each insert, which the general path writes.
    pub(crate) fn bulk_eligible(&self, table: usize) -> bool {
        self.batching && !self.replica.tables[table].def.materialized_view_log
    }

    /// Insert `row` (conformed to its columns by the caller) into `table` in `xid`, as
    /// [`Writer::insert`] does in a bulk load; `line` is a reused buffer.
    pub(crate) fn bulk_insert(
        &mut self,
        xid: Xid,
        table: usize,
        row: &[Value],
        line: &mut Vec<u8>,
    ) -> Result<()> {
        if !self.bulk_eligible(table) {
            return Err(CdcError::Workload(format!(
                "{} takes no bulk insert",
                self.replica.tables[table].def.name
            )));
        }
        let part = self.partition_of(table, row);
        let rid = self.allocate(table, part)?;
        let scn = self.scn();
        let ts = self.now();
        let thread = self.thread_of(xid);
        let rid_text = rid.encode();
        line.clear();
        if !compact::encode_insert(line, scn, xid, table as u32, &rid_text, ts, row) {
            let record = Redo::Insert {
                scn,
                xid,
                tab: table as u32,
                rid: rid_text,
                after: row.to_vec(),
                ts,
            };
            serde_json::to_writer(&mut *line, &record)
                .map_err(|e| CdcError::Workload(format!("an insert's redo: {e}")))?;
            line.push(b'\n');
        }
        let n = self.replica.next_record();
        let at = self.redo.position();
        self.redo.append_line(line)?;
        self.replica
            .bulk_insert(n, at, scn, ts, xid, table, rid, row)?;
        self.count_record(thread)
    }

    /// Commit a transaction of [`Writer::bulk_insert`]s.
    pub(crate) fn bulk_commit(&mut self, xid: Xid) -> Result<Scn> {
        let scn = self.commit(&[xid])?;
        self.replica.bulk_commit(scn)?;
        Ok(scn)
    }
}
