//! What the reader does when a read fails: a chunk goes back to the front of the queue (its
//! halves after ORA-01555) to be read at a fresh SCN, within its bounds; the key boundaries of
//! the next chunks, asked AS OF the wave's SCN, are asked again at a fresh one. Each retry is a
//! `snapshot-chunk-retry` ops event and one more in the snapshot's retry metric.

use super::{Pending, Waves, MIN_HALVED_ROWS};
use crate::errors::{CdcError, Code, Result};
use cdc_core::model::Scn;
use serde_json::json;

/// An error that says the SCN read at can no longer be read, where a fresh SCN can: the table's
/// definition changed since (ORA-01466), its undo is gone (ORA-01555, ORA-22924), or it is not a
/// valid SCN any more (ORA-08181).
pub(super) fn scn_unreadable(e: &CdcError) -> bool {
    matches!(
        e,
        CdcError::TableDefinitionChanged { .. }
            | CdcError::SnapshotTooOld { .. }
            | CdcError::LobSnapshotTooOld { .. }
            | CdcError::InvalidScn { .. }
    )
}

/// Why a blocking snapshot cannot go on after a DDL of its table: every chunk is read at the
/// SCN streaming paused at, which the table's definition is now newer than.
const PINNED_DDL: &str = "a blocking snapshot reads every chunk at the SCN streaming paused at, and the table's definition changed after it; send the signal again (its chunks are then read at an SCN after the change)";

impl<'a> Waves<'a> {
    /// Up to `want` more chunks from the planner at `scn`. The planner asks key boundaries AS OF
    /// the SCN, which fails like a chunk read when the SCN cannot be read any more (a DDL since,
    /// most often: the SCN may have been taken while the last wave was read); it is asked again
    /// at a fresh SCN, up to `cdc.snapshot.chunk.ddl.retries` times after ORA-01466 and
    /// `cdc.snapshot.chunk.retries` times otherwise. A key probe past a per-call limit of the
    /// database (CDC-5017: it reads the rows of every chunk it bounds in one call) is asked
    /// again for half the chunks (the wave's are then planned in several probes), down to one,
    /// then for chunks of half the rows, down to the chunks' floor; the table is planned that
    /// way from then on. Returns the chunks, each with the rows it was planned at, and the SCN
    /// they were planned at, which the wave is read at.
    pub(super) fn plan_next(
        &mut self,
        mut scn: Scn,
        want: usize,
        table: &str,
    ) -> Result<(Vec<(super::Chunk, u64)>, Scn)> {
        let (mut ddl, mut other) = (0u32, 0u32);
        let mut chunks = Vec::new();
        loop {
            let ask = want
                .saturating_sub(chunks.len())
                .min(self.probe_chunks)
                .max(1);
            // The size they are planned at (less after a probe past a per-call limit).
            let rows = self.planner.chunk_rows();
            let planner = &mut self.planner;
            let e = match self.reader.on_main(|s| planner.next(s, scn, ask)) {
                Ok(more) => {
                    let got = more.len();
                    chunks.extend(more.into_iter().map(|c| (c, rows)));
                    if chunks.len() >= want || got < ask || self.planner.is_done() {
                        return Ok((chunks, scn));
                    }
                    continue;
                }
                Err(e @ CdcError::CallLimit(_)) => {
                    self.plan_smaller(e, ask, table)?;
                    continue;
                }
                Err(e) if scn_unreadable(&e) => e,
                Err(e) => return Err(e),
            };
            let from = self.planner.next_start();
            let ddl_error = matches!(e, CdcError::TableDefinitionChanged { .. });
            let settings = &self.reader.settings.snapshot;
            let (tries, limit) = match ddl_error {
                true => (&mut ddl, settings.chunk_ddl_retries),
                false => (&mut other, settings.chunk_retries),
            };
            *tries += 1;
            let pinned = self.reader.pin_scn.is_some();
            if pinned || *tries > limit {
                let reason = match (pinned && ddl_error, pinned) {
                    (true, _) => format!("{e}; {PINNED_DDL}"),
                    (false, true) => format!("{e}; a blocking snapshot cannot read at another SCN"),
                    (false, false) => format!("{e}; gave up after {limit} retries at fresh SCNs"),
                };
                return Err(self.planning_failed(&e, from, table, reason)?);
            }
            self.reader.count_retry();
            let fresh = self.reader.on_main(|s| s.current_scn())?;
            self.reader.ops.emit(
                "snapshot-chunk-retry",
                json!({"table": table, "chunk": from, "code": e.code().info().code, "action": "replan", "retry": *tries, "scn": scn, "at_scn": fresh}),
            )?;
            tracing::info!("{table}: the key boundaries of the chunks from {from} could not be read at SCN {scn} ({e}); asked again at SCN {fresh}");
            scn = fresh;
        }
    }

    /// Planning the chunks from `from` failed with `e` for good: the `snapshot-chunk-failed`
    /// event, and the error (CDC-8001, `reason`) that ends the table.
    pub(super) fn planning_failed(
        &self,
        e: &CdcError,
        from: String,
        table: &str,
        reason: String,
    ) -> Result<CdcError> {
        self.reader.ops.emit(
            "snapshot-chunk-failed",
            json!({"table": table, "chunk": from, "code": e.code().info().code, "reason": e.to_string()}),
        )?;
        Ok(CdcError::ChunkFailed {
            table: table.to_string(),
            chunk: from,
            reason,
        })
    }

    /// Put the `i`-th chunk of a wave that failed with `e` back at the front of the queue (its
    /// halves after ORA-01555), with the chunks read after it. A chunk that cannot be read
    /// (halved to the floor, or out of retries) gives the `snapshot-chunk-failed` event and
    /// the error to end the table with, once the chunks before it are published.
    ///
    /// `behind`: the wave was read in step with a stream at an SCN below the current one (a
    /// standby's archived logs' end): a chunk whose undo is gone there is read again as it is
    /// at the current SCN (the next wave takes it), not halved.
    pub(super) fn retry(
        &mut self,
        wave: &mut [Pending],
        i: usize,
        e: CdcError,
        table: &str,
        behind: bool,
    ) -> Result<Option<(serde_json::Value, CdcError)>> {
        let retries = self.reader.settings.snapshot.chunk_retries;
        let ddl_retries = self.reader.settings.snapshot.chunk_ddl_retries;
        let min_rows = MIN_HALVED_ROWS.min(self.reader.settings.snapshot.chunk_rows);
        let table = table.to_string();
        self.reader.count_retry();
        let planner = &self.planner;
        let mut item = wave[i].clone();
        let mut back: Vec<Pending> = Vec::new();
        let undo_gone = matches!(
            e,
            CdcError::SnapshotTooOld { .. }
                | CdcError::LobSnapshotTooOld { .. }
                | CdcError::InvalidScn { .. }
        );
        // Counted as a retry (cdc.snapshot.chunk.retries), so that it cannot go on for ever
        // should the next wave be behind again.
        if behind && undo_gone && item.retries < retries {
            item.retries += 1;
            self.reader.ops.emit(
                "snapshot-chunk-retry",
                json!({"table": table, "chunk": item.chunk.describe(), "code": e.code().info().code, "cause": crate::source::retry_cause(&e), "action": "current-scn", "retry": item.retries}),
            )?;
            back.push(item);
            back.extend(wave[i + 1..].iter().cloned());
            for p in back.into_iter().rev() {
                self.pending.push_front(p);
            }
            return Ok(None);
        }
        let give_up = |item: &Pending,
                       e: &CdcError,
                       reason: String|
         -> Result<Option<(serde_json::Value, CdcError)>> {
            let event = json!({"table": table, "chunk": item.chunk.describe(), "code": e.code().info().code, "reason": e.to_string()});
            Ok(Some((
                event,
                CdcError::ChunkFailed {
                    table: table.clone(),
                    chunk: item.chunk.describe(),
                    reason,
                },
            )))
        };
        match e {
            // Its undo gone (ORA-01555, ORA-22924, ORA-08181): a smaller chunk reads in less
            // time.
            CdcError::SnapshotTooOld { .. }
            | CdcError::LobSnapshotTooOld { .. }
            | CdcError::InvalidScn { .. } => {
                // Halved, but never below the floor: a 1,500-row chunk is read again at
                // 1,000 rows; only a chunk already at the floor gives up.
                let half = (item.rows / 2).max(min_rows);
                if item.rows <= min_rows {
                    let reason = format!("{e}; the chunk cannot be halved below {min_rows} rows");
                    return give_up(&item, &e, reason);
                }
                // The cut is asked AS OF a fresh SCN, which a DDL since can refuse too: then
                // the same range is read again, counted at half the size.
                let split = self
                    .reader
                    .on_main(|s| {
                        let scn = s.current_scn()?;
                        planner.split(&item.chunk, half, s, scn)
                    })
                    .or_else(|e| match scn_unreadable(&e) {
                        true => Ok(None),
                        false => Err(e),
                    })?;
                let into: Vec<String> = match &split {
                    Some((a, b)) => vec![a.describe(), b.describe()],
                    None => vec![item.chunk.describe()],
                };
                self.reader.ops.emit(
                    "snapshot-chunk-retry",
                    json!({"table": table, "chunk": item.chunk.describe(), "code": e.code().info().code, "cause": crate::source::retry_cause(&e), "action": "halve", "rows": half, "into": into}),
                )?;
                match split {
                    Some((a, b)) => {
                        back.push(Pending {
                            chunk: a,
                            rows: half,
                            ..item.clone()
                        });
                        back.push(Pending {
                            chunk: b,
                            rows: half,
                            ..item
                        });
                    }
                    // Fewer rows than a half: the same range again, counted at half the size.
                    None => back.push(Pending { rows: half, ..item }),
                }
            }
            // One call of its read past a per-call limit (CDC-5017: CPU_PER_CALL,
            // LOGICAL_READS_PER_CALL, …): read in smaller pieces, or given up when it cannot be
            // cut.
            CdcError::CallLimit(_) => match self.read_past_limit(item, e, &table)? {
                Ok(parts) => back = parts,
                Err(failed) => return Ok(Some(failed)),
            },
            // The table's definition changed after the chunk's SCN (an ADD or DROP COLUMN while
            // it was read): read again at a fresh SCN, newer than the DDL, with the columns the
            // table has there. Counted apart: each time it is a new DDL, not a failing read.
            CdcError::TableDefinitionChanged { scn, ddl_scn, .. } => {
                if self.reader.pin_scn.is_some() {
                    return give_up(&item, &e, format!("{e}; {PINNED_DDL}"));
                }
                item.ddl_retries += 1;
                if item.ddl_retries > ddl_retries {
                    let reason = format!(
                        "{e}; read again at a fresh SCN {ddl_retries} times, and the table's definition changed under every read (cdc.snapshot.chunk.ddl.retries)"
                    );
                    return give_up(&item, &e, reason);
                }
                self.reader.ops.emit(
                    "snapshot-chunk-retry",
                    json!({"table": table, "chunk": item.chunk.describe(), "code": e.code().info().code, "action": "retry", "retry": item.ddl_retries, "scn": scn, "ddl_scn": ddl_scn}),
                )?;
                back.push(item);
            }
            // What a retry cannot change: a missing grant, a container out of reach, a row the
            // filter cannot be evaluated on or a NUMBER infinity (CDC-3011) in it (the same row
            // is read again).
            CdcError::UnknownTable { .. }
            | CdcError::FilterFailed { .. }
            | CdcError::Settings { .. }
            | CdcError::UnsupportedType { .. }
            | CdcError::Coded {
                code: Code::Cdc3011,
                ..
            }
            | CdcError::Privilege { .. }
            | CdcError::ContainerUnreachable(_)
            // Told to stop while its session logged in again: the run ends as a stop.
            | CdcError::StoppedReconnecting { .. } => return Err(e),
            // The database refused the reader's session (the session limit): the chunk is read
            // again with the clock's session, or one reader, given up to make room.
            e @ CdcError::SnapshotSessionRefused(_) if self.reader.can_make_room() => {
                match self.reader.room_for_reader() {
                    Some(room) => {
                        self.reader.made_room(room, &e, Some(&table))?;
                        back.push(item);
                    }
                    None => return Err(e),
                }
            }
            // Refused with no room to make, where the reader's session was lost: the database
            // may count the lost one until it notices its client gone, so its replacement
            // waits that out, as a restart is (cdc.database.reconnect.max.ms).
            CdcError::SnapshotSessionRefused(_) if self.reader.lost_reader().is_some() => {
                self.reader.replace_lost_reader()?;
                back.push(item);
            }
            CdcError::SnapshotSessionRefused(_) => return Err(e),
            // A login refused for good (the session limit, credentials, a locked account, no
            // CREATE SESSION, no client library): every retry is refused the same way. A login
            // failing for another reason (CDC-2006: a handler or DNS failing for a moment)
            // is retried as a failed read.
            CdcError::Connect {
                code: Code::Cdc2011 | Code::Cdc2002 | Code::Cdc2005 | Code::Cdc2401 | Code::Cdc2001,
                ..
            } => return Err(e),
            other => {
                item.retries += 1;
                if item.retries > retries {
                    let reason = format!("{other}; gave up after {retries} retries");
                    return give_up(&item, &other, reason);
                }
                self.reader.ops.emit(
                    "snapshot-chunk-retry",
                    json!({"table": table, "chunk": item.chunk.describe(), "code": other.code().info().code, "cause": crate::source::retry_cause(&other), "action": "retry", "retry": item.retries}),
                )?;
                back.push(item);
            }
        }
        // The failed chunk (or its halves) first, then the rest of the wave, then the queue.
        back.extend(wave[i + 1..].iter().cloned());
        for p in back.into_iter().rev() {
            self.pending.push_front(p);
        }
        Ok(None)
    }
}
