//! Snapshot progress on stderr: bars on a terminal (per table with rows/s and ETA from
//! statistics, and overall), plain periodic lines otherwise, nothing with --quiet.

use crate::snapshot::Progress;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub enum SnapshotProgress {
    Bars {
        multi: MultiProgress,
        overall: ProgressBar,
        tables: Mutex<HashMap<String, ProgressBar>>,
    },
    Lines {
        every: Duration,
        state: Mutex<LineState>,
    },
    Quiet,
}

pub struct LineState {
    last: Instant,
    rows: HashMap<String, (u64, Option<u64>)>,
    started: Instant,
}

impl SnapshotProgress {
    pub fn new(quiet: bool, tables: u64) -> SnapshotProgress {
        if quiet {
            return SnapshotProgress::Quiet;
        }
        if !std::io::stderr().is_terminal() {
            return SnapshotProgress::Lines {
                every: Duration::from_secs(10),
                state: Mutex::new(LineState {
                    last: Instant::now(),
                    rows: HashMap::new(),
                    started: Instant::now(),
                }),
            };
        }
        let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
        let overall = multi.add(ProgressBar::new(tables));
        overall.set_style(
            ProgressStyle::with_template("{prefix:>12} [{bar:30}] {pos}/{len} tables  {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        overall.set_prefix("snapshot");
        SnapshotProgress::Bars {
            multi,
            overall,
            tables: Mutex::new(HashMap::new()),
        }
    }

    pub fn finish(&self) {
        if let SnapshotProgress::Bars { overall, .. } = self {
            overall.finish_and_clear();
        }
    }
}

impl Progress for SnapshotProgress {
    fn table_started(&self, table: &str, estimated_rows: Option<u64>, rows_done: u64) {
        match self {
            SnapshotProgress::Bars { multi, tables, .. } => {
                let bar = multi.add(ProgressBar::new(estimated_rows.unwrap_or(0).max(rows_done)));
                let template = if estimated_rows.is_some() {
                    "{prefix:>12} [{bar:30}] {human_pos}/~{human_len} rows  {per_sec}  ETA {eta}"
                } else {
                    "{prefix:>12} {spinner} {human_pos} rows  {per_sec}"
                };
                bar.set_style(
                    ProgressStyle::with_template(template)
                        .unwrap_or_else(|_| ProgressStyle::default_bar())
                        .progress_chars("=> "),
                );
                bar.set_prefix(table.to_string());
                bar.set_position(rows_done);
                if let Ok(mut t) = tables.lock() {
                    t.insert(table.to_string(), bar);
                }
            }
            SnapshotProgress::Lines { state, .. } => {
                if let Ok(mut s) = state.lock() {
                    s.rows
                        .insert(table.to_string(), (rows_done, estimated_rows));
                }
                eprintln!(
                    "snapshot: {table} started (about {} rows)",
                    estimated_rows
                        .map(|n| n.to_string())
                        .unwrap_or_else(|| "?".into())
                );
            }
            SnapshotProgress::Quiet => {}
        }
    }

    fn rows_read(&self, table: &str, rows: u64) {
        match self {
            SnapshotProgress::Bars { tables, .. } => {
                if let Ok(t) = tables.lock() {
                    if let Some(b) = t.get(table) {
                        b.inc(rows);
                        if b.position() > b.length().unwrap_or(0) {
                            b.set_length(b.position());
                        }
                    }
                }
            }
            SnapshotProgress::Lines { every, state } => {
                if let Ok(mut s) = state.lock() {
                    let e = s.rows.entry(table.to_string()).or_insert((0, None));
                    e.0 += rows;
                    let (done, est) = *e;
                    if s.last.elapsed() >= *every {
                        s.last = Instant::now();
                        let secs = s.started.elapsed().as_secs_f64().max(0.001);
                        eprintln!(
                            "snapshot: {table} {done}/{} rows ({:.0} rows/s)",
                            est.map(|n| n.to_string()).unwrap_or_else(|| "?".into()),
                            done as f64 / secs
                        );
                    }
                }
            }
            SnapshotProgress::Quiet => {}
        }
    }

    fn table_finished(&self, table: &str, rows: u64) {
        match self {
            SnapshotProgress::Bars {
                overall, tables, ..
            } => {
                if let Ok(mut t) = tables.lock() {
                    if let Some(b) = t.remove(table) {
                        b.finish_and_clear();
                    }
                }
                overall.inc(1);
            }
            SnapshotProgress::Lines { .. } => eprintln!("snapshot: {table} done, {rows} rows"),
            SnapshotProgress::Quiet => {}
        }
    }
}
