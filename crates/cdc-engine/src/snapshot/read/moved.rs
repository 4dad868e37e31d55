//! A table read by ROWID ranges whose segment got a new data object number while it was read
//! (ALTER TABLE … MOVE, partition maintenance, TRUNCATE).
//!
//! A ROWID carries the data object number of its segment ("a data object number is assigned
//! to every database segment", Oracle Database Concepts, "Rowid Format"), and "moving a table
//! changes the rowids of the rows in the table" (Administrator's Guide, Moving a Table to a
//! New Segment or Tablespace); MOVE PARTITION drops the partition's old segment and creates a
//! new one (VLDB and Partitioning Guide, Moving Partitions). A range planned from the old
//! extents then holds no row, and a read of it at an SCN after the move returns nothing
//! without an error: a read AS OF an SCN before the move fails with ORA-01466 ("unable to
//! read data - table definition has changed"), and the retry at a fresh SCN would read the
//! old, empty ranges. A MOVE logs no row change (LogMiner shows one DDL row), so the change
//! stream does not bring the rows either.
//!
//! So before every wave, once its SCN is taken, the table's data objects now
//! ([`cdc_core::session::Catalog::data_object_ids`]: ALL_OBJECTS on Oracle, not the
//! DBA_EXTENTS the plan read once, which can take minutes on a large database) are compared
//! with the plan's. Data
//! object numbers only grow, so if every planned one is still there now, no move happened
//! before the wave's SCN; a move after it fails the wave's reads with ORA-01466, and their
//! retry is checked again before it is read. One round trip a wave, for ROWID-range tables
//! only.
//!
//! What then: such a table has no usable key (that is why it is read by ROWID), and a moved
//! segment keeps no map from old ROWIDs to new, so the rows still to read cannot be told apart
//! from the rows already published. Before any chunk of the table is published (this run, not
//! resumed) the table is planned again from its new extents: nothing was read, nothing is
//! read twice. After, re-reading the table would publish rows twice in an export, whose
//! contract is each row once; the export's table stops with CDC-8009 instead of finishing
//! short. Capture plans the table again all the same: each chunk it publishes is a read of the
//! table at its SCN, placed in the stream right there, so a row read again is the table's state
//! again, not a second row (the chunks before the move said what the table held at theirs);
//! what it cannot do is drop the rows it published under the old ROWIDs, which no consumer
//! keyed by ROWID can match with the new ones — nor could it from the stream, which a MOVE
//! leaves without a row change. Both at most `cdc.snapshot.chunk.ddl.retries` times a table.

use super::{Pending, Waves};
use crate::errors::{CdcError, Result};
use crate::snapshot::plan::Planner;
use crate::snapshot::target::TableTarget;
use serde_json::json;
use std::collections::BTreeSet;

fn list(objects: &BTreeSet<u32>) -> String {
    let all: Vec<String> = objects.iter().map(|o| o.to_string()).collect();
    format!("[{}]", all.join(", "))
}

impl<'a> Waves<'a> {
    /// Err([`CdcError::SegmentsMoved`]) when a data object the ROWID
    /// ranges were planned over is no longer one of the table's (asked after the wave's SCN
    /// was taken). A segment only added (a new partition's) is no move: the planned ranges
    /// still hold their rows.
    pub(super) fn check_segments(&mut self, t: &TableTarget) -> Result<()> {
        let Some(planned) = self.planner.data_objects() else {
            return Ok(());
        };
        let name = t.info.name.clone();
        let cluster = t.info.cluster.clone();
        let ids = self
            .reader
            .on_main(|s| s.data_object_ids(&name, cluster.as_deref()))?;
        let now: BTreeSet<u32> = ids.iter().map(|&id| id as u32).collect();
        if planned.is_subset(&now) {
            return Ok(());
        }
        Err(CdcError::SegmentsMoved {
            table: name.to_string(),
            planned: list(&planned),
            now: list(&now),
        })
    }

    /// The table's segment moved (`e`, from [`Waves::check_segments`]) with `published`
    /// chunks of it published this run: planned again from its new extents when none was
    /// (nor by an earlier run) or the sink may have rows again (capture), at most
    /// `cdc.snapshot.chunk.ddl.retries` times (each is a new DDL); else the error that ends
    /// the table, with its `snapshot-chunk-failed` event.
    pub(super) fn moved(
        &mut self,
        t: &TableTarget,
        e: CdcError,
        published: u64,
        replans: &mut u32,
    ) -> Result<()> {
        let CdcError::SegmentsMoved {
            table,
            planned,
            now,
            ..
        } = e
        else {
            return Err(e);
        };
        let limit = self.reader.settings.snapshot.chunk_ddl_retries;
        let resumed = self.planner.resumed();
        let nothing_published = published == 0 && !resumed;
        if (nothing_published || !self.reader.each_row_once) && *replans < limit {
            *replans += 1;
            self.reader.count_retry();
            self.reader.ops.emit(
                "snapshot-chunk-retry",
                json!({"table": table, "chunk": "whole table", "code": "CDC-8009", "action": "replan", "reason": "segment moved", "planned": planned, "now": now, "published": published, "retry": *replans}),
            )?;
            tracing::info!("{table}: its segment was moved (data objects {planned}, now {now}; {published} chunks published this run); planned again from its new extents");
            let rows = self.reader.settings.snapshot.chunk_rows;
            self.planner = self.reader.on_main(|s| Planner::new(t, rows, None, s))?;
            self.pending.clear();
            self.first_scn = None;
            self.next_scn = None;
            return Ok(());
        }
        let e = CdcError::SegmentsMoved {
            table: table.clone(),
            planned,
            now,
        };
        self.reader.ops.emit(
            "snapshot-chunk-failed",
            json!({"table": table, "chunk": self.pending.front().map(|p: &Pending| p.chunk.describe()), "code": "CDC-8009", "reason": e.to_string()}),
        )?;
        Err(e)
    }
}
