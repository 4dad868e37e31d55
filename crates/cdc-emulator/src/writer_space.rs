//! Where the writer puts a new row: the partition its key falls in, and a ROWID in that
//! segment, with a new extent when the last one is full (as DBA_EXTENTS then shows it).

use super::{Writer, BIGFILE_FNO, ROWS_PER_BLOCK};
use crate::errors::Result;
use crate::redo::Redo;
use crate::types::Value;
use cdc_core::model::Extent;
use cdc_core::rowid::RowId;

impl Writer {
    pub(super) fn partition_of(&self, table: usize, row: &[Value]) -> Option<usize> {
        let t = &self.replica.tables[table];
        let spec = t.def.partitions.as_ref()?;
        let ci = t.columns.iter().position(|c| c.name == spec.column)?;
        let text = row.get(ci).map(|v| v.to_string()).unwrap_or_default();
        spec.list
            .iter()
            .position(|p| p.values.contains(&text))
            .or_else(|| spec.list.iter().position(|p| p.values.is_empty()))
            .or(Some(0))
    }

    /// A new ROWID in the table's (or partition's) segment, allocating an extent when full.
    /// In a bigfile tablespace DBA_EXTENTS shows relative file 1024 and the ROWID's nine
    /// characters after the object number are the block number alone (file part `AAA`).
    /// A clustered table's segment is its cluster's: its rows go in the blocks the rows of the
    /// cluster's other tables go in, with the cluster's data object id, and the extents are
    /// the cluster's (kept with the cluster's first table, see [`Replica::segment_table`]).
    ///
    /// [`Replica::segment_table`]: crate::store::Replica::segment_table
    pub(super) fn allocate(&mut self, table: usize, part: Option<usize>) -> Result<RowId> {
        let p = part.unwrap_or(0);
        let owner = self.replica.segment_table(table);
        let (data_object, fno, bigfile) = {
            let t = &self.replica.tables[table];
            let data_object = match part {
                Some(i) => t.partition_objects[i],
                None => t.data_object_id,
            };
            let fno = match (t.def.bigfile, part) {
                (true, _) => BIGFILE_FNO,
                (false, Some(_)) => 5,
                (false, None) => 4,
            };
            (data_object, fno, t.def.bigfile)
        };
        let rowid_fno = if bigfile { 0 } else { fno };
        let seg = &mut self.segments[owner][p];
        let need_extent = match seg.extents.get(seg.extent) {
            None => true,
            Some((_, blocks)) => seg.block_in_extent >= *blocks,
        };
        if need_extent {
            if seg.extents.get(seg.extent).is_some() {
                seg.extent += 1;
                seg.block_in_extent = 0;
                seg.slot = 0;
            }
            if seg.extent >= seg.extents.len() {
                // Autoallocate: 16 extents of 8 blocks (64K), then 128 blocks (1M).
                let blocks = if seg.extents.len() < 16 { 8 } else { 128 };
                let block_id = self.next_block;
                self.next_block += blocks;
                let seg = &mut self.segments[owner][p];
                seg.extents.push((block_id, blocks));
                let scn = self.next_scn;
                self.write(
                    Redo::Extent {
                        scn,
                        tab: owner as u32,
                        part: part.map(|i| i as u32),
                        ext: Extent {
                            partition: part.and_then(|i| {
                                self.replica.tables[table]
                                    .def
                                    .partitions
                                    .as_ref()
                                    .map(|s| s.list[i].name.clone())
                            }),
                            data_object_id: u64::from(data_object),
                            relative_fno: fno,
                            block_id: u64::from(block_id),
                            blocks: u64::from(blocks),
                            bigfile,
                        },
                    },
                    1,
                )?;
            }
        }
        let seg = &mut self.segments[owner][p];
        let (block_id, _) = seg.extents[seg.extent];
        let rid = RowId {
            data_object,
            relative_fno: rowid_fno,
            block: block_id + seg.block_in_extent,
            slot: seg.slot,
        };
        seg.slot += 1;
        if seg.slot >= ROWS_PER_BLOCK {
            seg.slot = 0;
            seg.block_in_extent += 1;
        }
        Ok(rid)
    }
}
