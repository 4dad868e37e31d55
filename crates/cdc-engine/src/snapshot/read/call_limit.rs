//! Reads past a per-call limit of the database (CDC-5017: the profile's CPU_PER_CALL or
//! LOGICAL_READS_PER_CALL, a Resource Manager CANCEL_SQL switch): the database ends the call
//! and keeps the session, and the same call would be ended again, so the snapshot reads less
//! in one call. A chunk is cut in two and the table's later chunks are planned at the size
//! that was cut off; a key probe asks for fewer chunks, then smaller ones. Each step is a
//! `snapshot-chunk-retry` event; where nothing smaller can be read, the table fails with
//! CDC-8001 naming the limit.

use super::{Pending, Waves, MIN_HALVED_ROWS};
use crate::errors::{CdcError, Result};
use crate::snapshot::plan::Chunk;
use serde_json::json;

/// How a chunk read past a limit was cut.
enum Cut {
    /// In two: the first part with the rows it was cut after, the rest.
    Parts(Pending, Pending),
    /// A DDL since refused the probe that finds the cut (ORA-01466): the same range is read
    /// again at a fresh SCN, counted at half.
    Same(Pending),
    /// Nothing smaller can be read: a ROWID range of one block, a table read whole, or a key
    /// range whose first rows at the floor still pass the limit.
    Uncut,
}

/// A `snapshot-chunk-failed` event and the error that ends the table with it.
pub(super) type Failed = (serde_json::Value, CdcError);

impl Waves<'_> {
    /// The chunk `item` was read past a per-call limit (`e`): its parts to read instead, or
    /// the failure that ends the table.
    pub(super) fn read_past_limit(
        &mut self,
        item: Pending,
        e: CdcError,
        table: &str,
    ) -> Result<std::result::Result<Vec<Pending>, Failed>> {
        let floor = MIN_HALVED_ROWS
            .min(self.reader.settings.snapshot.chunk_rows)
            .max(1);
        let code = e.code().info().code;
        let cause = crate::source::retry_cause(&e);
        let failed = |reason: String| -> Failed {
            let event = json!({"table": table, "chunk": item.chunk.describe(), "code": code, "reason": e.to_string()});
            let error = CdcError::ChunkFailed {
                table: table.to_string(),
                chunk: item.chunk.describe(),
                reason: format!("{e}; {reason}"),
            };
            (event, error)
        };
        if item.rows <= floor {
            return Ok(Err(failed(format!(
                "the chunk cannot be read in pieces below {floor} rows"
            ))));
        }
        let (parts, rows): (Vec<Pending>, u64) = match self.cut_under_limit(&item, floor)? {
            Cut::Parts(a, b) => {
                let first = a.rows;
                // The table's chunks after it are planned at the size that was cut off.
                self.planner.shrink_to(first);
                (vec![a, b], first)
            }
            Cut::Same(again) => {
                let rows = again.rows;
                (vec![again], rows)
            }
            Cut::Uncut => {
                return Ok(Err(failed(
                    "the chunk cannot be cut into smaller reads (a single block, a table read whole, or its first rows at the floor still pass the limit)".into(),
                )))
            }
        };
        let into: Vec<String> = parts.iter().map(|p| p.chunk.describe()).collect();
        self.reader.ops.emit(
            "snapshot-chunk-retry",
            json!({"table": table, "chunk": item.chunk.describe(), "code": code, "cause": cause, "action": "halve", "rows": rows, "into": into}),
        )?;
        Ok(Ok(parts))
    }

    /// Cut `item` in two. A key range is cut after half its rows, or fewer: the probe that
    /// finds the cut reads those rows in one call, and may pass the limit itself (or find fewer
    /// rows than that, the chunk's count being an estimate), so it is asked again for half as
    /// many, down to `floor`. A ROWID range is cut between its blocks.
    fn cut_under_limit(&mut self, item: &Pending, floor: u64) -> Result<Cut> {
        let mut first = (item.rows / 2).max(floor);
        loop {
            let planner = &self.planner;
            let chunk = &item.chunk;
            let split = self.reader.on_main(|s| {
                let scn = s.current_scn()?;
                planner.split(chunk, first, s, scn)
            });
            let keyed = matches!(item.chunk, Chunk::Key { .. });
            match split {
                Ok(Some((a, b))) => {
                    let (a_rows, b_rows) = match keyed {
                        true => (first, item.rows.saturating_sub(first).max(1)),
                        false => (item.rows / 2, item.rows - item.rows / 2),
                    };
                    let part = |chunk, rows| Pending {
                        chunk,
                        rows,
                        ..item.clone()
                    };
                    return Ok(Cut::Parts(part(a, a_rows), part(b, b_rows)));
                }
                Ok(None) | Err(CdcError::CallLimit(_)) if keyed && first > floor => {
                    first = (first / 2).max(floor);
                }
                Ok(None) | Err(CdcError::CallLimit(_)) => return Ok(Cut::Uncut),
                Err(e) if super::retry::scn_unreadable(&e) => {
                    return Ok(Cut::Same(Pending {
                        rows: (item.rows / 2).max(floor),
                        ..item.clone()
                    }))
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The planner's probe for `asked` chunks passed a per-call limit (`e`): probes ask for
    /// half as many chunks, or, asking for one, chunks of half the rows; a
    /// `snapshot-chunk-retry` event (action `plan-fewer` or `plan-smaller`). At one chunk of
    /// the floor's rows, the table fails with CDC-8001 naming `e`.
    pub(super) fn plan_smaller(&mut self, e: CdcError, asked: usize, table: &str) -> Result<()> {
        let settings = &self.reader.settings.snapshot;
        let floor = MIN_HALVED_ROWS.min(settings.chunk_rows).max(1);
        let rows = self.planner.chunk_rows();
        let from = self.planner.next_start();
        self.reader.count_retry();
        let code = e.code().info().code;
        let cause = crate::source::retry_cause(&e);
        if asked > 1 {
            self.probe_chunks = asked / 2;
            self.reader.ops.emit(
                "snapshot-chunk-retry",
                json!({"table": table, "chunk": from, "code": code, "cause": cause, "action": "plan-fewer", "chunks": self.probe_chunks}),
            )?;
            tracing::info!("{table}: a key probe for {asked} chunks from {from} passed a per-call limit of the database ({e}); probing for {} at a time", self.probe_chunks);
            return Ok(());
        }
        if rows <= floor {
            let reason = format!("{e}; the chunks cannot be planned below {floor} rows");
            return Err(self.planning_failed(&e, from, table, reason)?);
        }
        let half = (rows / 2).max(floor);
        self.planner.shrink_to(half);
        self.reader.ops.emit(
            "snapshot-chunk-retry",
            json!({"table": table, "chunk": from, "code": code, "cause": cause, "action": "plan-smaller", "rows": half}),
        )?;
        tracing::info!("{table}: planning the chunks from {from} passed a per-call limit of the database ({e}); planning chunks of {half} rows");
        Ok(())
    }
}
