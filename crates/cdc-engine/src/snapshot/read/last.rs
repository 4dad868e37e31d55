//! Which chunk holds a table's last record ([`ReadChunk::last_rows`], for Debezium's `last` and
//! `last_in_data_collection` markers). A table's last chunks can be empty — ROWID ranges of
//! extents past its rows, key ranges a filter leaves empty, rows deleted since the plan — so
//! the last chunk with rows is known only once every chunk after it is known to be empty. A
//! chunk read at SCN *s* must be published before any change committed at or after *s*, so it
//! cannot wait for later waves; the reader looks before handing it over:
//!
//! - a wave read while this one is published (the default) is taken as soon as it is read:
//!   any of its chunks with rows, and this one is not the last; and a wave whose chunks are
//!   all empty reads on at its SCN until one has rows or the table ends
//!   ([`Waves::read_on_while_empty`]), so all empty means nothing after;
//! - else (a throttle, `cdc.snapshot.max.pending.chunks` below two waves) the next chunks are
//!   read at this wave's SCN, one at a time: the empty ones join the wave (they are reads at
//!   its SCN like the others), the first with rows is put back to be read with the next wave.

use super::{gone, query, read_wave, Ahead, Pending, ReadChunk, ReadWave, Waves};
use crate::errors::Result;
use crate::snapshot::target::TableTarget;
use cdc_core::model::{ColumnInfo, FetchedRow, Scn};
use std::collections::VecDeque;

/// Whether no chunk after `rc` (the last of its wave with rows; `queue`: the empty ones of the
/// wave after it) will have rows.
pub(super) fn nothing_after<'s, 'a>(
    w: &mut Option<Waves<'a>>,
    next: &mut Option<Ahead<'s, 'a>>,
    t: &TableTarget,
    rc: &mut ReadChunk,
    queue: &mut VecDeque<ReadChunk>,
) -> Result<bool> {
    let read = match next.take() {
        Some(Ahead::Reading(h)) => {
            let (back, r) = h.join().map_err(|_| gone())?;
            *w = Some(back);
            r
        }
        Some(Ahead::Read(r)) => r,
        None => {
            return match w.as_mut() {
                Some(ws) => ws.probe(t, rc, queue),
                None => Ok(false),
            }
        }
    };
    let last = match &read {
        // The table had no chunk left.
        Ok(None) => true,
        Ok(Some(ReadWave { results, .. })) => {
            results
                .iter()
                .all(|r| matches!(r, Ok(rows) if rows.is_empty()))
                && w.as_ref().is_some_and(Waves::is_done)
        }
        // Read again later, at another SCN: the next chunks are not known.
        Err(_) => false,
    };
    *next = Some(Ahead::Read(read));
    Ok(last)
}

fn all_empty(results: &[Result<Vec<FetchedRow>>]) -> bool {
    results
        .iter()
        .all(|r| matches!(r, Ok(rows) if rows.is_empty()))
}

impl<'a> Waves<'a> {
    /// A wave whose chunks are all empty reads on at its SCN, a wave at a time, until a chunk
    /// has rows or the table ends: the wave before it then knows, from this one alone,
    /// whether its last chunk with rows holds the table's last record. The chunks read so
    /// join the wave (reads at its SCN); a read or a plan that fails ends it there (the
    /// failed chunk is read again as any other).
    pub(super) fn read_on_while_empty<'s, 'e>(
        &mut self,
        scope: &'s std::thread::Scope<'s, 'e>,
        t: &TableTarget,
        scn: Scn,
        columns: &[ColumnInfo],
        wave: &mut Vec<Pending>,
        results: &mut Vec<Result<Vec<FetchedRow>>>,
    ) where
        'a: 's,
    {
        let chunk_rows = self.planner.chunk_rows();
        while self.reader.marks && !self.is_done() && all_empty(results) {
            // Asked each round: planning may give up a reader (room for the coordinating
            // session).
            let want = self.reader.wave_size().saturating_sub(self.pending.len());
            if want > 0 && !self.planner.is_done() {
                let planner = &mut self.planner;
                match self.reader.on_main(|s| planner.next(s, scn, want)) {
                    Ok(more) => self
                        .pending
                        .extend(more.into_iter().map(|c| Pending::new(c, chunk_rows))),
                    Err(e) => {
                        tracing::debug!("{}: planning on at SCN {scn}: {e}", t.info.name);
                        return;
                    }
                }
            }
            let n = self.reader.wave_size().min(self.pending.len());
            if n == 0 {
                return;
            }
            let more: Vec<Pending> = self.pending.drain(..n).collect();
            let (read, _) = read_wave(scope, &mut self.reader, t, &more, columns, scn, false);
            wave.extend(more);
            results.extend(read);
        }
    }

    /// No wave is read ahead: read the chunks after `rc`'s wave at its SCN, one at a time, on
    /// the coordinating session, counting their rows. An empty one joins the wave (`queue`);
    /// the first with rows (or one that fails) goes back to the front of the queue, its read
    /// dropped, and says `rc` is not the last; the table's end says it is.
    fn probe(
        &mut self,
        t: &TableTarget,
        rc: &mut ReadChunk,
        queue: &mut VecDeque<ReadChunk>,
    ) -> Result<bool> {
        let scn = rc.scn;
        let chunk_rows = self.planner.chunk_rows();
        loop {
            if self.pending.is_empty() {
                if self.planner.is_done() {
                    match queue.back_mut() {
                        Some(c) => c.is_final = true,
                        None => rc.is_final = true,
                    }
                    return Ok(true);
                }
                let planner = &mut self.planner;
                match self.reader.on_main(|s| planner.next(s, scn, 1)) {
                    Ok(more) => self
                        .pending
                        .extend(more.into_iter().map(|c| Pending::new(c, chunk_rows))),
                    Err(e) => {
                        tracing::debug!("{}: planning past SCN {scn}: {e}", t.info.name);
                        return Ok(false);
                    }
                }
                continue;
            }
            let Some(p) = self.pending.pop_front() else {
                continue;
            };
            let q = query(t, &rc.columns, &p.chunk, scn, self.reader.row_ids);
            let mut rows = 0u64;
            let read = self.reader.on_main(|s| {
                rows = 0;
                s.read_as_of(&q, &mut |_| {
                    rows += 1;
                    Ok(())
                })
            });
            match read {
                Ok(_) if rows == 0 => queue.push_back(ReadChunk {
                    chunk: p.chunk,
                    scn,
                    rows: Vec::new(),
                    columns: rc.columns.clone(),
                    attempts: p.attempts + 1,
                    is_final: false,
                    last_rows: false,
                    wave_rest: 0,
                }),
                other => {
                    if let Err(e) = other {
                        tracing::debug!("{}: a chunk past SCN {scn}: {e}", t.info.name);
                    }
                    self.pending.push_front(p);
                    return Ok(false);
                }
            }
        }
    }
}
