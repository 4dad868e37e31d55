//! The writer's side of a bulk load (`emulator init`, see [`super::super::bulk_load`]): an
//! insert into an empty table written and applied without the general path's per-row work
//! (unique-key check, row lock, transaction overlay, the record kept in memory), its redo in the
//! compact line form ([`super::super::redo::compact`]). The loader's keys are made from distinct
//! serials, so none can repeat, and it holds one transaction at a time, so no row is locked by
//! another; the redo records, SCNs, ROWIDs, XIDs and times are those [`Writer::insert`] gives.

use super::super::redo::compact;
use super::*;

/// A row's values encoded ahead, by the thread that made them: the value fields of its compact
/// redo line, and its values in the checkpoint's row form.
#[derive(Debug, Default)]
pub(crate) struct EncodedRow {
    redo: Vec<u8>,
    /// Whether every value has a compact form (else the record is written as JSON).
    compact: bool,
    spill: Vec<u8>,
}

impl EncodedRow {
    pub(crate) fn encode(&mut self, row: &[Value]) {
        self.redo.clear();
        self.compact = compact::encode_values(&mut self.redo, row);
        self.spill.clear();
        super::super::rowfile::encode_values(&mut self.spill, row);
    }
}

/// An open transaction of a bulk load into one table: what each of its insert lines repeats.
pub(crate) struct BulkTx {
    xid: Xid,
    table: usize,
    thread: u32,
    /// The XID and table fields of its compact lines.
    fields: Vec<u8>,
    /// The last time written and its text (times change every millisecond, not every row).
    ts: Option<(i64, Vec<u8>)>,
}

impl Writer {
    /// Whether the rows of `table` can go through [`Writer::bulk_insert`]: a table with a
    /// materialized view log gets a log row with each insert, which the general path writes.
    pub(crate) fn bulk_eligible(&self, table: usize) -> bool {
        self.batching && !self.replica.tables[table].def.materialized_view_log
    }

    /// Begin a transaction of bulk inserts into `table` ([`Writer::begin`]).
    pub(crate) fn bulk_begin(&mut self, table: usize) -> Result<BulkTx> {
        if !self.bulk_eligible(table) {
            return Err(CdcError::Workload(format!(
                "{} takes no bulk insert",
                self.replica.tables[table].def.name
            )));
        }
        let xid = self.begin()?;
        let mut fields = Vec::new();
        compact::encode_tx(&mut fields, xid, table as u32);
        Ok(BulkTx {
            xid,
            table,
            thread: self.thread_of(xid),
            fields,
            ts: None,
        })
    }

    /// Insert `row` (conformed to its columns by the caller, its values encoded in `enc`) with
    /// serial `serial` in `tx`, as [`Writer::insert`] does in a bulk load; `line` is a reused
    /// buffer.
    pub(crate) fn bulk_insert(
        &mut self,
        tx: &mut BulkTx,
        serial: u64,
        row: &[Value],
        enc: &EncodedRow,
        line: &mut Vec<u8>,
    ) -> Result<()> {
        let table = tx.table;
        let part = self.partition_of(table, row);
        let rid = self.allocate(table, part)?;
        let scn = self.scn();
        let ts = self.now();
        line.clear();
        if enc.compact {
            if tx.ts.as_ref().is_none_or(|(t, _)| *t != ts) {
                let mut text = Vec::with_capacity(16);
                compact::put_i64(&mut text, ts);
                tx.ts = Some((ts, text));
            }
            let ts_text = tx
                .ts
                .as_ref()
                .map(|(_, t)| t.as_slice())
                .unwrap_or_default();
            compact::encode_head(line, scn, &tx.fields, &rid, ts_text);
            line.extend_from_slice(&enc.redo);
            line.push(b'\n');
        } else {
            let record = Redo::Insert {
                scn,
                xid: tx.xid,
                tab: table as u32,
                rid: rid.encode(),
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
        self.replica.bulk_insert(
            (n, at),
            (scn, ts),
            tx.xid,
            (table, rid, serial),
            row,
            &enc.spill,
        )?;
        self.count_record(tx.thread)
    }

    /// Commit a transaction of [`Writer::bulk_insert`]s.
    pub(crate) fn bulk_commit(&mut self, tx: BulkTx) -> Result<Scn> {
        let scn = self.commit(&[tx.xid])?;
        self.replica.bulk_commit(scn)?;
        Ok(scn)
    }
}
