//! Estimates from sizes and rates: undo retention vs the longest chunk read (`undo.retention`),
//! the snapshot's size and duration (`tables.estimate`) and the memory of pending chunks
//! (`settings.memory`).
//!
//! Assumptions (documented in commands/doctor.md): one reader reads `cdc.doctor.read.rate`
//! rows per second; a block is 8 KiB; without RETENTION GUARANTEE a chunk read should take at
//! most half of UNDO_RETENTION, because Oracle may keep less undo under space pressure.

use super::facts::Facts;
use super::{list, Finding};
use crate::snapshot::read::MIN_HALVED_ROWS;
use crate::snapshot::target::{Strategy, TableTarget};

/// Bytes per block used for size estimates (the default DB_BLOCK_SIZE).
pub const BLOCK_BYTES: u64 = 8192;
/// Pending chunks may use this much memory before `settings.memory` warns.
pub const PENDING_MEMORY_WARN: u64 = 2 * 1024 * 1024 * 1024;

/// `≈ 12 s`, `≈ 4 min`, `≈ 2.5 h`, `under 1 s`.
pub fn duration(secs: f64) -> String {
    if secs < 1.0 {
        "under 1 s".into()
    } else if secs < 120.0 {
        format!("≈ {} s", secs.ceil() as u64)
    } else if secs < 7200.0 {
        format!("≈ {} min", (secs / 60.0).ceil() as u64)
    } else {
        format!("≈ {:.1} h", secs / 3600.0)
    }
}

/// `820 KB`, `12.3 MB`, `1.5 GB`.
pub fn bytes(n: u64) -> String {
    let n = n as f64;
    if n < 1024.0 * 1024.0 {
        format!("{} KB", (n / 1024.0).ceil() as u64)
    } else if n < 1024.0 * 1024.0 * 1024.0 {
        format!("{:.1} MB", n / 1024.0 / 1024.0)
    } else {
        format!("{:.1} GB", n / 1024.0 / 1024.0 / 1024.0)
    }
}

/// Average on-disk row size from statistics, when known.
fn row_bytes(t: &TableTarget) -> Option<u64> {
    match (t.info.stats.num_rows, t.info.stats.blocks) {
        (Some(rows), Some(blocks)) if rows > 0 => Some((blocks * BLOCK_BYTES).div_ceil(rows)),
        _ => None,
    }
}

pub(super) fn undo(f: &Facts) -> Finding {
    if !f.snapshots() {
        return Finding::pass(format!("not needed: {} takes no snapshot", f.mode()));
    }
    let db = match &f.db {
        Ok(db) => db,
        Err(e) => return Finding::skip(e.clone()),
    };
    let rate = f.settings.doctor_read_rate.max(1) as f64;
    let chunk = f.settings.snapshot.chunk_rows;
    let retention = db.undo_retention_secs as f64;
    // Without RETENTION GUARANTEE, UNDO_RETENTION is a floor Oracle may not honour.
    let budget = if db.undo_guarantee {
        retention
    } else {
        retention / 2.0
    };
    let safe = (budget * rate).floor() as u64;
    let longest = chunk as f64 / rate;
    let tablespace = f
        .config
        .as_ref()
        .ok()
        .and_then(|c| c.undo_tablespace.clone())
        .unwrap_or_else(|| "UNDOTBS1".into());
    let factor = if db.undo_guarantee { 1.0 } else { 2.0 };
    let raise = |secs: f64| {
        let need = (secs * factor).ceil().max(retention + 1.0) as u64;
        let mut sql = format!("ALTER SYSTEM SET UNDO_RETENTION = {need} SCOPE=BOTH;");
        if !db.undo_guarantee {
            sql.push_str(&format!("\nALTER TABLESPACE {tablespace} RETENTION GUARANTEE;  -- optional: makes UNDO_RETENTION a promise (DML fails instead when undo is full)"));
        }
        sql
    };
    let found = format!(
        "UNDO_RETENTION {} s ({}); a {chunk}-row chunk takes {} at {} rows/s (cdc.doctor.read.rate); chunks of up to {safe} rows are safe",
        db.undo_retention_secs,
        if db.undo_guarantee {
            "RETENTION GUARANTEE"
        } else {
            "no RETENTION GUARANTEE, so at most half of it is counted on"
        },
        duration(longest),
        f.settings.doctor_read_rate
    );
    // Single-chunk tables cannot be halved: their whole read must fit.
    let single: Vec<(String, f64)> = f
        .targets()
        .iter()
        .filter(|t| t.strategy == Strategy::Single)
        .filter_map(|t| {
            let rows = t.info.stats.num_rows?;
            let secs = rows as f64 / rate;
            (secs > budget).then(|| (t.name().to_string(), secs))
        })
        .collect();
    if let Some((_, secs)) = single.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
        let names: Vec<String> = single
            .iter()
            .map(|(n, s)| format!("{n} ({})", duration(*s)))
            .collect();
        return Finding::fail(
            format!(
                "{found}; but {} read in one chunk, which cannot be halved",
                list(&names, 5)
            ),
            format!(
                "{}\n-- or give each table a usable key (see tables.iot-key)",
                raise(*secs)
            ),
        );
    }
    if MIN_HALVED_ROWS as f64 / rate > budget {
        return Finding::fail(
            format!(
                "{found}; even a {MIN_HALVED_ROWS}-row chunk (the smallest halving goes to) takes {}",
                duration(MIN_HALVED_ROWS as f64 / rate)
            ),
            raise(MIN_HALVED_ROWS as f64 / rate),
        );
    }
    if chunk > safe {
        return Finding::warn(
            format!("{found}: chunks of {chunk} rows would fail with ORA-01555 and be halved, again and again"),
            format!(
                "cdc.snapshot.chunk.rows: {safe}\n-- or keep the chunk size and raise the retention:\n{}",
                raise(longest)
            ),
        );
    }
    Finding::pass(found)
}

pub(super) fn estimate(f: &Facts) -> Finding {
    // Like every tables.* check, SKIPped without the captured tables.
    if let Err(e) = &f.captured {
        return Finding::skip(e.clone());
    }
    let targets = f.targets();
    let rate = f.settings.doctor_read_rate.max(1) as f64;
    let threads = u64::from(f.settings.snapshot.threads.max(1));
    let chunk = f.settings.snapshot.chunk_rows.max(1);
    let (mut rows, mut size, mut secs) = (0u64, 0u64, 0f64);
    let (mut unknown, mut stale, mut fix) = (Vec::new(), Vec::new(), Vec::new());
    for t in &targets {
        let name = t.name();
        match t.info.stats.num_rows {
            Some(n) => {
                rows += n;
                size += t.info.stats.blocks.unwrap_or(0) * BLOCK_BYTES;
                let chunks = match t.strategy {
                    Strategy::Single => 1,
                    _ => n.div_ceil(chunk).max(1),
                };
                secs += n as f64 / (rate * chunks.min(threads) as f64);
                if t.info.stats.stale {
                    stale.push(name.to_string());
                }
            }
            None => unknown.push(name.to_string()),
        }
        if t.info.stats.num_rows.is_none() || t.info.stats.stale {
            let prefix = name
                .pdb
                .as_ref()
                .map(|p| format!("ALTER SESSION SET CONTAINER = {p};\n"))
                .unwrap_or_default();
            fix.push(format!(
                "{prefix}EXEC DBMS_STATS.GATHER_TABLE_STATS('{}', '{}');",
                name.owner, name.table
            ));
        }
    }
    let mut found = format!(
        "≈ {rows} rows (≈ {}) in {} tables, read in {} at {} rows/s per reader, up to {threads} readers per table",
        bytes(size),
        targets.len(),
        duration(secs),
        f.settings.doctor_read_rate
    );
    if unknown.is_empty() && stale.is_empty() {
        return Finding::pass(found);
    }
    if !unknown.is_empty() {
        found.push_str(&format!(
            "; no statistics for {} (not counted)",
            list(&unknown, 5)
        ));
    }
    if !stale.is_empty() {
        found.push_str(&format!("; stale statistics for {}", list(&stale, 5)));
    }
    let mut objects = unknown;
    objects.extend(stale);
    Finding::warn(found, fix.join("\n")).on(objects)
}

pub(super) fn memory(f: &Facts) -> Finding {
    if !(f.snapshots() && f.streams()) {
        return Finding::pass(format!(
            "not needed: chunks wait for streaming only when both run ({})",
            f.mode()
        ));
    }
    if let Err(e) = &f.captured {
        return Finding::skip(e.clone());
    }
    let s = &f.settings.snapshot;
    let rows = s.chunk_rows.saturating_mul(u64::from(s.max_pending_chunks));
    // Pending chunks of a table hold at most the whole table: the largest such amount.
    let largest = f
        .targets()
        .into_iter()
        .filter_map(|t| {
            let per_row = row_bytes(t)?;
            let held = rows.min(t.info.stats.num_rows.unwrap_or(rows));
            Some((held.saturating_mul(per_row), per_row, t.name().to_string()))
        })
        .max();
    let Some((total, per_row, table)) = largest else {
        return Finding::pass(format!(
            "up to {} pending chunks of {} rows = {rows} rows in memory (row sizes unknown: no statistics)",
            s.max_pending_chunks, s.chunk_rows
        ));
    };
    let found = format!(
        "up to {} pending chunks of {} rows = {rows} rows; at most ≈ {} for {table} ({per_row} bytes per row on disk)",
        s.max_pending_chunks,
        s.chunk_rows,
        bytes(total)
    );
    if total <= PENDING_MEMORY_WARN {
        return Finding::pass(found);
    }
    let fit = (PENDING_MEMORY_WARN / per_row.max(1) / s.chunk_rows.max(1)).max(1);
    Finding::warn(
        format!("{found}: more than {}", bytes(PENDING_MEMORY_WARN)),
        format!("cdc.snapshot.max.pending.chunks: {fit}  # or lower cdc.snapshot.chunk.rows"),
    )
}
