//! Cutting a table into chunks, incrementally: the first chunks are read before a large
//! table's whole plan exists, and no method reads the table itself to plan.
//!
//! Methods: an even split of an integer key between MIN and MAX when statistics are fresh;
//! index boundary probes (every `chunk.rows`-th key) otherwise; extents for ROWID ranges.

use super::target::{Strategy, TableTarget};
use crate::errors::{CdcError, Code, Result};
use crate::offsets::ResumePoint;
use crate::types::{compare_keys_in, ColumnType, KeyOrder, Value};
use cdc_core::model::{BoundaryQuery, ChunkRange, Extent, Scn};
use cdc_core::rowid::RowId;
use cdc_core::session::prelude::*;
use cdc_core::types::ToCompactString;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Highest row slot in a block (oracle-facts §3).
const MAX_SLOT: u32 = 32767;
/// Rows per block assumed when statistics cannot tell.
const DEFAULT_ROWS_PER_BLOCK: f64 = 50.0;

/// One chunk of a table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Chunk {
    /// `lower <= key < upper`; `None` is unbounded.
    Key {
        lower: Option<Vec<Value>>,
        upper: Option<Vec<Value>>,
    },
    /// `ROWID BETWEEN start AND end`.
    Rowid {
        start: String,
        end: String,
        blocks: u64,
    },
    Whole,
}

impl Chunk {
    pub fn range(&self) -> ChunkRange {
        match self {
            Chunk::Key { lower, upper } => ChunkRange::Key {
                lower: lower.clone(),
                upper: upper.clone(),
            },
            Chunk::Rowid { start, end, .. } => ChunkRange::Rowid {
                start: start.clone(),
                end: end.clone(),
            },
            Chunk::Whole => ChunkRange::Whole,
        }
    }

    /// Where the next chunk starts once this one is acknowledged (`None`: nothing follows).
    pub fn resume_after(&self) -> Option<ResumePoint> {
        match self {
            Chunk::Key { upper, .. } => upper.clone().map(ResumePoint::Key),
            Chunk::Rowid { end, .. } => RowId::decode(end).ok().map(|r| {
                ResumePoint::Rowid(
                    RowId {
                        block: r.block + 1,
                        slot: 0,
                        ..r
                    }
                    .encode(),
                )
            }),
            Chunk::Whole => None,
        }
    }

    /// Short text for events and plans.
    pub fn describe(&self) -> String {
        let key = |k: &Option<Vec<Value>>| match k {
            None => "∞".to_string(),
            Some(v) => v
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(","),
        };
        match self {
            Chunk::Key { lower, upper } => format!(
                "[{}, {})",
                if lower.is_none() {
                    "-∞".into()
                } else {
                    key(lower)
                },
                key(upper)
            ),
            Chunk::Rowid { start, end, .. } => format!("{start}..{end}"),
            Chunk::Whole => "whole table".into(),
        }
    }
}

/// A run of blocks of one data object in one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Segment {
    object: u32,
    fno: u32,
    block: u32,
    blocks: u32,
}

impl Segment {
    fn first(&self) -> RowId {
        RowId {
            data_object: self.object,
            relative_fno: self.fno,
            block: self.block,
            slot: 0,
        }
    }
    fn last(&self) -> RowId {
        RowId {
            data_object: self.object,
            relative_fno: self.fno,
            block: self.block + self.blocks.saturating_sub(1),
            slot: MAX_SLOT,
        }
    }
}

#[derive(Debug, Clone)]
pub enum Method {
    EvenSplit {
        min: i128,
        max: i128,
        chunks: u64,
    },
    IndexProbes,
    /// ROWID ranges over the table's extents, or over its cluster's (`cluster`), whose blocks
    /// the cluster's other tables share.
    Extents {
        extents: usize,
        rows_per_block: f64,
        cluster: Option<String>,
    },
    Whole,
}

/// Produces a table's chunks on demand.
pub struct Planner {
    table: crate::names::TableName,
    key: Vec<String>,
    chunk_rows: u64,
    pub method: Method,
    done: bool,
    next_lower: Option<Vec<Value>>,
    queued: VecDeque<Chunk>,
    segments: VecDeque<Segment>,
    all_segments: Vec<Segment>,
    blocks_per_chunk: u64,
    /// How the key orders (the BINARY order of its text columns' character sets), for the
    /// comparisons the planner makes itself.
    order: KeyOrder,
    /// Planned from a resume point: chunks of the table were published by an earlier run.
    resumed: bool,
}

fn integral_key(t: &TableTarget, key: &[String]) -> bool {
    let [k] = key else { return false };
    matches!(
        t.info.column(k).map(|c| &c.data_type),
        Some(ColumnType::Number { scale: Some(s), .. }) if *s <= 0
    )
}

fn as_int(v: &Value) -> Option<i128> {
    match v {
        Value::Number(n) => n.parse().ok(),
        _ => None,
    }
}

impl Planner {
    /// Start planning `t` from `resume` (or the beginning) with `session`: an even split asks
    /// the current MIN and MAX of the key, no SCN (the bounds need no read consistency).
    pub fn new(
        t: &TableTarget,
        chunk_rows: u64,
        resume: Option<&ResumePoint>,
        session: &mut dyn Session,
    ) -> Result<Planner> {
        let mut p = Planner {
            table: t.info.name.clone(),
            key: Vec::new(),
            chunk_rows: chunk_rows.max(1),
            method: Method::Whole,
            done: false,
            next_lower: None,
            queued: VecDeque::new(),
            segments: VecDeque::new(),
            all_segments: Vec::new(),
            blocks_per_chunk: 1,
            order: KeyOrder::default(),
            resumed: resume.is_some(),
        };
        match &t.strategy {
            Strategy::Key(key) => {
                p.key = key.clone();
                let types: Vec<ColumnType> = key
                    .iter()
                    .map(|k| t.info.column(k).map(|c| c.data_type.clone()))
                    .collect::<Option<_>>()
                    .unwrap_or_default();
                if types.iter().any(|ty| ty.is_text()) {
                    // The table's PDB's sets: its BINARY order is theirs.
                    p.order = KeyOrder::new(session.table_charsets(&t.info.name)?, &types);
                }
                p.next_lower = match resume {
                    Some(ResumePoint::Key(k)) => Some(k.clone()),
                    _ => None,
                };
                p.method = Method::IndexProbes;
                let fresh = t.info.stats.num_rows.filter(|_| !t.info.stats.stale);
                if let (true, Some(rows)) = (integral_key(t, key), fresh) {
                    if let Some((lo, hi)) = session.key_range(&t.info.name, &key[0], None)? {
                        if let (Some(min), Some(max)) = (as_int(&lo), as_int(&hi)) {
                            let chunks = rows.div_ceil(p.chunk_rows).max(1);
                            p.method = Method::EvenSplit { min, max, chunks };
                            p.queue_even_split(min, max, chunks);
                        }
                    }
                }
            }
            Strategy::Rowid => {
                // A clustered table has no segment of its own, so nothing in DBA_EXTENTS under
                // its name: its rows are in its cluster's blocks (SEGMENT_TYPE 'CLUSTER'), which
                // the cluster's other tables share. Its ROWIDs carry the cluster's data object
                // number: "schema objects in the same segment, such as a table cluster, have
                // the same data object number" (Oracle Database Concepts, "Rowid Format"), and
                // DBA_OBJECTS.DATA_OBJECT_ID is the "dictionary object number of the segment
                // that contains the object" (Reference, ALL_OBJECTS). So ranges over the
                // cluster's extents cover the table, and each, a query `FROM` the table, returns
                // that table's rows alone, whoever else's rows its blocks hold (SQL Reference,
                // ROWID pseudocolumn: rows of different tables stored together in one cluster
                // can even have the same ROWID).
                let extents = match &t.info.cluster {
                    Some(c) => session.cluster_extents(&t.info.name, c)?,
                    None => session.extents(&t.info.name)?,
                };
                if extents.is_empty() && t.info.cluster.is_some() {
                    // Unlike a table with a deferred segment, a clustered table without a listed
                    // extent is not known to be empty: its rows are wherever the cluster's
                    // segment is, and the dictionary did not show it. One read of the whole
                    // table, never zero chunks, which would publish it complete and empty.
                    p.method = Method::Whole;
                    p.queued.push_back(Chunk::Whole);
                    return Ok(p);
                }
                let rpb = match (t.info.stats.num_rows, t.info.stats.blocks) {
                    (Some(r), Some(b)) if r > 0 && b > 0 => r as f64 / b as f64,
                    _ => DEFAULT_ROWS_PER_BLOCK,
                };
                p.blocks_per_chunk = ((p.chunk_rows as f64 / rpb).ceil() as u64).max(1);
                p.all_segments = segments(&extents);
                p.segments = p.all_segments.iter().copied().collect();
                if let Some(ResumePoint::Rowid(next)) = resume {
                    if let Ok(next) = RowId::decode(next) {
                        p.skip_before(next);
                    }
                }
                p.method = Method::Extents {
                    extents: extents.len(),
                    rows_per_block: rpb,
                    cluster: t.info.cluster.clone(),
                };
            }
            Strategy::Single => {
                p.method = Method::Whole;
                p.queued.push_back(Chunk::Whole);
            }
        }
        Ok(p)
    }

    fn queue_even_split(&mut self, min: i128, max: i128, chunks: u64) {
        let span = max - min + 1;
        let n = i128::from(chunks).min(span.max(1));
        let mut bounds: Vec<i128> = (1..n).map(|i| min + span * i / n).collect();
        bounds.dedup();
        let mut lower: Option<Vec<Value>> = None;
        let mut all = Vec::new();
        for b in bounds {
            let upper = Some(vec![Value::Number(b.to_compact_string())]);
            all.push(Chunk::Key {
                lower: lower.take(),
                upper: upper.clone(),
            });
            lower = upper;
        }
        all.push(Chunk::Key { lower, upper: None });
        // After a restart, chunks wholly before the resume point are done; the first one left
        // starts exactly there.
        if let Some(r) = self.next_lower.take() {
            all.retain(|c| match c {
                Chunk::Key { upper: Some(u), .. } => compare_keys_in(u, &r, self.order).is_gt(),
                _ => true,
            });
            if let Some(Chunk::Key { lower, .. }) = all.first_mut() {
                *lower = Some(r);
            }
        }
        self.queued.extend(all);
    }

    fn skip_before(&mut self, next: RowId) {
        while let Some(s) = self.segments.front().copied() {
            if s.last() < next {
                self.segments.pop_front();
            } else if s.first() < next && next.data_object == s.object && next.relative_fno == s.fno
            {
                let skip = next.block.saturating_sub(s.block);
                self.segments[0] = Segment {
                    block: s.block + skip,
                    blocks: s.blocks - skip.min(s.blocks),
                    ..s
                };
                if self.segments[0].blocks == 0 {
                    self.segments.pop_front();
                }
                break;
            } else {
                break;
            }
        }
    }

    pub fn describe(&self) -> String {
        match &self.method {
            Method::EvenSplit { min, max, chunks } => format!(
                "even split of {} between MIN {min} and MAX {max} into {chunks} ranges (fresh statistics)",
                self.key.join(",")
            ),
            Method::IndexProbes => format!(
                "index boundary probes on ({}) every {} keys",
                self.key.join(","),
                self.chunk_rows
            ),
            Method::Extents {
                extents,
                rows_per_block,
                cluster,
            } => format!(
                "ROWID ranges over {extents} extents{}, about {rows_per_block:.0} rows per block, {} blocks per chunk",
                cluster
                    .as_ref()
                    .map(|c| format!(" of cluster {c} (shared with its other tables)"))
                    .unwrap_or_default(),
                self.blocks_per_chunk
            ),
            Method::Whole => "one read of the whole table".into(),
        }
    }

    /// Where the chunks [`Planner::next`] gives next start, for events: `[lower, …)`.
    pub fn next_start(&self) -> String {
        match self.queued.front() {
            Some(c) => c.describe(),
            None => match &self.next_lower {
                Some(k) => format!(
                    "[{}, …)",
                    k.iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                ),
                None => "[-∞, …)".into(),
            },
        }
    }

    /// The data object numbers the ROWID ranges were planned over (`None`: not planned by
    /// ROWID ranges). A ROWID carries the data object number of its segment (Concepts, "Rowid
    /// Format"), so a range names its segment; a segment moved since (a new DATA_OBJECT_ID)
    /// has none of the rows the range held.
    pub fn data_objects(&self) -> Option<std::collections::BTreeSet<u32>> {
        match self.method {
            Method::Extents { .. } => Some(self.all_segments.iter().map(|s| s.object).collect()),
            _ => None,
        }
    }

    /// Planned from a resume point (chunks of the table published by an earlier run).
    pub fn resumed(&self) -> bool {
        self.resumed
    }

    pub fn is_done(&self) -> bool {
        self.queued.is_empty()
            && (self.done || !matches!(self.method, Method::IndexProbes))
            && self.segments.is_empty()
    }

    /// Rows the chunks still to plan are planned at.
    pub fn chunk_rows(&self) -> u64 {
        self.chunk_rows
    }

    /// Plan the chunks still to plan at `rows`, when fewer than now: a chunk read past a
    /// per-call limit (CDC-5017) means a chunk of its size would be again. An even split's
    /// chunks are all planned at the start and keep their size (each is cut as it fails), so
    /// they are counted at the size they were planned at.
    pub fn shrink_to(&mut self, rows: u64) {
        let rows = rows.max(1);
        let planned = matches!(self.method, Method::EvenSplit { .. } | Method::Whole);
        if rows >= self.chunk_rows || planned {
            return;
        }
        self.blocks_per_chunk =
            (self.blocks_per_chunk.saturating_mul(rows) / self.chunk_rows).max(1);
        self.chunk_rows = rows;
    }

    /// A boundary the probe found must come after the lower bound it was asked from (and the
    /// boundary before it): rows numbered from a bound on cannot end at or before it. One that
    /// does means the database compared another bound than the one sent: text bound in the
    /// database character set is converted to it first, and a character that set lacks becomes
    /// a replacement ('¿'), so the probe starts over from there each time. The Oracle adapter
    /// binds national key bounds as escaped UNISTR for that reason (`sql::SelectItem::National`);
    /// this guard is for a source that still converts. Planning would never end (each chunk
    /// empty); stop it instead.
    fn check_progress(&self, boundary: &[Value]) -> Result<()> {
        let Some(lower) = &self.next_lower else {
            return Ok(());
        };
        if compare_keys_in(boundary, lower, self.order).is_gt() {
            return Ok(());
        }
        Err(CdcError::coded(
            Code::Cdc8010,
            format!(
                "snapshot of {}: the key boundary probe after key {} answered {}, not past its \
                 lower bound: the database compared a converted bound (text bound in a \
                 character set that lacks the key's characters becomes '¿'), so chunking by \
                 this key would never end. Choose another key for the table \
                 (cdc.key.{}) or exclude it",
                self.table,
                shown_key(lower),
                shown_key(boundary),
                self.table
            ),
        ))
    }

    /// Up to `n` more chunks; empty when the table is covered.
    pub fn next(&mut self, session: &mut dyn Session, scn: Scn, n: usize) -> Result<Vec<Chunk>> {
        let mut out = Vec::new();
        while out.len() < n {
            if let Some(c) = self.queued.pop_front() {
                out.push(c);
                continue;
            }
            if !self.segments.is_empty() {
                out.push(self.next_rowid_chunk());
                continue;
            }
            if matches!(self.method, Method::IndexProbes) && !self.done {
                let want = (n - out.len()) as u32;
                let q = BoundaryQuery {
                    table: self.table.clone(),
                    key_columns: self.key.clone(),
                    scn,
                    lower: self.next_lower.clone(),
                    step: self.chunk_rows,
                    count: want,
                };
                let bounds = session.key_boundaries(&q)?;
                let found = bounds.len();
                for b in &bounds {
                    self.check_progress(b)?;
                }
                for b in bounds {
                    out.push(Chunk::Key {
                        lower: self.next_lower.take(),
                        upper: Some(b.clone()),
                    });
                    self.next_lower = Some(b);
                }
                if found < want as usize {
                    out.push(Chunk::Key {
                        lower: self.next_lower.take(),
                        upper: None,
                    });
                    self.done = true;
                }
                continue;
            }
            break;
        }
        Ok(out)
    }

    fn next_rowid_chunk(&mut self) -> Chunk {
        let mut taken: Vec<Segment> = Vec::new();
        let mut blocks = 0u64;
        while let Some(s) = self.segments.front().copied() {
            let room = self.blocks_per_chunk - blocks;
            if room == 0 {
                break;
            }
            if u64::from(s.blocks) <= room {
                taken.push(s);
                blocks += u64::from(s.blocks);
                self.segments.pop_front();
            } else {
                let part = Segment {
                    blocks: room as u32,
                    ..s
                };
                taken.push(part);
                blocks += room;
                self.segments[0] = Segment {
                    block: s.block + room as u32,
                    blocks: s.blocks - room as u32,
                    ..s
                };
            }
        }
        rowid_chunk(&taken, blocks)
    }

    /// Cut a chunk in two for an ORA-01555 retry: a key chunk after its first `first_rows`
    /// rows, a ROWID chunk in two halves of its blocks.
    pub fn split(
        &self,
        chunk: &Chunk,
        first_rows: u64,
        session: &mut dyn Session,
        scn: Scn,
    ) -> Result<Option<(Chunk, Chunk)>> {
        match chunk {
            Chunk::Key { lower, upper } => {
                let q = BoundaryQuery {
                    table: self.table.clone(),
                    key_columns: self.key.clone(),
                    scn,
                    lower: lower.clone(),
                    step: first_rows.max(1),
                    count: 1,
                };
                let Some(mid) = session.key_boundaries(&q)?.into_iter().next() else {
                    return Ok(None);
                };
                if upper
                    .as_ref()
                    .is_some_and(|u| !compare_keys_in(&mid, u, self.order).is_lt())
                {
                    return Ok(None);
                }
                Ok(Some((
                    Chunk::Key {
                        lower: lower.clone(),
                        upper: Some(mid.clone()),
                    },
                    Chunk::Key {
                        lower: Some(mid),
                        upper: upper.clone(),
                    },
                )))
            }
            Chunk::Rowid { start, end, .. } => {
                let (Ok(s), Ok(e)) = (RowId::decode(start), RowId::decode(end)) else {
                    return Ok(None);
                };
                let mut segs: Vec<Segment> = Vec::new();
                for seg in &self.all_segments {
                    if seg.last() < s || seg.first() > e {
                        continue;
                    }
                    let from = if seg.first() < s { s.block } else { seg.block };
                    let to = if seg.last() > e {
                        e.block
                    } else {
                        seg.block + seg.blocks - 1
                    };
                    if to >= from {
                        segs.push(Segment {
                            block: from,
                            blocks: to - from + 1,
                            ..*seg
                        });
                    }
                }
                let total: u64 = segs.iter().map(|s| u64::from(s.blocks)).sum();
                if total < 2 {
                    return Ok(None);
                }
                let half = total / 2;
                let (mut a, mut b, mut acc) = (Vec::new(), Vec::new(), 0u64);
                for seg in segs {
                    let n = u64::from(seg.blocks);
                    if acc >= half {
                        b.push(seg);
                    } else if acc + n <= half {
                        a.push(seg);
                    } else {
                        let k = (half - acc) as u32;
                        a.push(Segment { blocks: k, ..seg });
                        b.push(Segment {
                            block: seg.block + k,
                            blocks: seg.blocks - k,
                            ..seg
                        });
                    }
                    acc += n;
                }
                let ab: u64 = a.iter().map(|s| u64::from(s.blocks)).sum();
                Ok(Some((rowid_chunk(&a, ab), rowid_chunk(&b, total - ab))))
            }
            Chunk::Whole => Ok(None),
        }
    }
}

fn rowid_chunk(segs: &[Segment], blocks: u64) -> Chunk {
    let start = segs.first().map(|s| s.first().encode()).unwrap_or_default();
    let end = segs.last().map(|s| s.last().encode()).unwrap_or_default();
    Chunk::Rowid { start, end, blocks }
}

/// Extents in ROWID order, merged where one continues the other.
fn segments(extents: &[Extent]) -> Vec<Segment> {
    let mut segs: Vec<Segment> = extents
        .iter()
        .map(|e| Segment {
            object: e.data_object_id as u32,
            // As the extent's ROWIDs encode the file (0 in a bigfile tablespace).
            fno: e.rowid_fno(),
            block: e.block_id as u32,
            blocks: e.blocks as u32,
        })
        .collect();
    segs.sort_by_key(|s| (s.object, s.fno, s.block));
    let mut merged: Vec<Segment> = Vec::new();
    for s in segs {
        match merged.last_mut() {
            Some(m) if m.object == s.object && m.fno == s.fno && m.block + m.blocks == s.block => {
                m.blocks += s.blocks
            }
            _ => merged.push(s),
        }
    }
    merged
}

/// A key as messages show it: its values' text, cut short.
fn shown_key(key: &[Value]) -> String {
    let parts: Vec<String> = key
        .iter()
        .map(|v| crate::errors::shown(&format!("{v:?}"), 60))
        .collect();
    format!("({})", parts.join(", "))
}
