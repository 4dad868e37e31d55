//! Progress on stderr: on a terminal, bars (per table with rows/s and ETA from statistics, and
//! overall), a spinner through long opens, and capture's one-line live status; plain periodic
//! lines when stderr is not a terminal; nothing with --quiet. The text comes from `live.rs`.

use super::{live, stderr};
use crate::capture::status::Board;
use crate::snapshot::Progress;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often bars redraw on their own, so elapsed time and ETA move while a chunk is read.
const TICK: Duration = Duration::from_millis(250);
/// How often the live status' records/s is measured.
const RATE_EVERY: Duration = Duration::from_secs(1);

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key("took", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&live::duration(s.elapsed()));
        })
        .with_key(
            "tables",
            |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&live::tables(s.pos(), s.len().unwrap_or(0)));
            },
        )
        .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&live::rate(s.per_sec(), "rows"));
        })
        .progress_chars("=> ")
}

/// The bar templates (kept here so the tmux test and the docs can name them).
pub const OVERALL_TEMPLATE: &str = "{prefix:>12} [{bar:30}] {tables}  {took}";
pub const TABLE_TEMPLATE: &str =
    "{prefix:>12} [{bar:30}] {human_pos}/~{human_len} rows  {rate}  ETA {eta}";
pub const TABLE_UNKNOWN_TEMPLATE: &str = "{prefix:>12} {spinner} {human_pos} rows  {rate}";

/// The bars being drawn, if any: a note printed meanwhile goes above them rather than through
/// them (a line written straight to stderr leaves a stale copy of the bars behind).
static DRAWING: Mutex<Option<MultiProgress>> = Mutex::new(None);

/// A line for the operator on stderr, above the bars when they are drawn.
pub fn note(text: &str) {
    let drawing = DRAWING.lock().ok().and_then(|d| d.clone());
    match drawing {
        // Not `suspend`: it unwraps the clearing and redrawing of the bars, a panic when the
        // terminal has gone away (EIO); `println` returns the error, which is dropped.
        Some(multi) => {
            let _ = multi.println(text);
        }
        None => stderr::line(text),
    }
}

/// Whether progress is drawn on this terminal: stderr is one and --quiet is not given.
fn drawn(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// A spinner naming what a long step is doing (opening an emulated database, connecting,
/// planning); nothing when stderr is not a terminal or with --quiet.
pub struct Spinner(Option<ProgressBar>);

impl Spinner {
    pub fn new(quiet: bool, what: &str) -> Spinner {
        if !drawn(quiet) {
            return Spinner(None);
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(style("{spinner} {msg}  {took}"));
        bar.set_message(what.to_string());
        bar.enable_steady_tick(Duration::from_millis(100));
        Spinner(Some(bar))
    }

    /// The next step.
    pub fn say(&self, what: &str) {
        if let Some(b) = &self.0 {
            b.set_message(what.to_string());
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

/// The records/s of the live status: two readings of the running total at least
/// [`RATE_EVERY`] apart.
pub struct Meter {
    started: Instant,
    last: (u64, Duration),
    rate: f64,
}

pub enum SnapshotProgress {
    Bars {
        multi: MultiProgress,
        /// Added when the snapshot says how many tables it reads.
        overall: Mutex<Option<ProgressBar>>,
        tables: Mutex<HashMap<String, ProgressBar>>,
        /// Capture's live status line (capture only).
        status: Option<(ProgressBar, Mutex<Meter>)>,
    },
    Lines {
        every: Duration,
        state: Mutex<LineState>,
    },
    Quiet,
}

pub struct LineState {
    last: Instant,
    /// Rows read, estimated rows and when each table started.
    rows: HashMap<String, (u64, Option<u64>, Instant)>,
}

impl SnapshotProgress {
    /// Progress of `oracle-cdc snapshot`.
    pub fn new(quiet: bool) -> SnapshotProgress {
        SnapshotProgress::make(quiet, false)
    }

    /// Progress of `oracle-cdc capture`: the snapshot's bars and the live status line.
    pub fn capture(quiet: bool) -> SnapshotProgress {
        SnapshotProgress::make(quiet, true)
    }

    fn make(quiet: bool, with_status: bool) -> SnapshotProgress {
        if quiet {
            return SnapshotProgress::Quiet;
        }
        if !std::io::stderr().is_terminal() {
            return SnapshotProgress::Lines {
                every: Duration::from_secs(10),
                state: Mutex::new(LineState {
                    last: Instant::now(),
                    rows: HashMap::new(),
                }),
            };
        }
        let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
        if let Ok(mut d) = DRAWING.lock() {
            *d = Some(multi.clone());
        }
        let status = with_status.then(|| {
            let bar = multi.add(ProgressBar::new_spinner());
            bar.set_style(style("{spinner} {msg}"));
            bar.enable_steady_tick(TICK);
            let meter = Meter {
                started: Instant::now(),
                last: (0, Duration::ZERO),
                rate: 0.0,
            };
            (bar, Mutex::new(meter))
        });
        SnapshotProgress::Bars {
            multi,
            overall: Mutex::new(None),
            tables: Mutex::new(HashMap::new()),
            status,
        }
    }

    pub fn finish(&self) {
        if let Ok(mut d) = DRAWING.lock() {
            *d = None;
        }
        if let SnapshotProgress::Bars {
            overall,
            tables,
            status,
            ..
        } = self
        {
            if let Ok(mut t) = tables.lock() {
                for (_, b) in t.drain() {
                    b.finish_and_clear();
                }
            }
            if let Some(b) = overall.lock().ok().and_then(|mut o| o.take()) {
                b.finish_and_clear();
            }
            if let Some((b, _)) = status {
                b.finish_and_clear();
            }
        }
    }
}

impl Progress for SnapshotProgress {
    fn tables_planned(&self, total: u64, done: u64) {
        match self {
            SnapshotProgress::Bars { multi, overall, .. } => {
                let Ok(mut o) = overall.lock() else { return };
                let bar = o.get_or_insert_with(|| {
                    let bar = multi.insert(0, ProgressBar::new(total));
                    bar.set_style(style(OVERALL_TEMPLATE));
                    bar.set_prefix("snapshot");
                    bar.enable_steady_tick(TICK);
                    bar
                });
                bar.set_length(total);
                bar.set_position(done);
            }
            SnapshotProgress::Lines { .. } if done > 0 => {
                stderr::line(&format!(
                    "snapshot: {}, resuming",
                    live::tables(done, total)
                ));
            }
            _ => {}
        }
    }

    fn table_started(&self, table: &str, estimated_rows: Option<u64>, rows_done: u64) {
        match self {
            SnapshotProgress::Bars { multi, tables, .. } => {
                let bar = multi.add(ProgressBar::new(estimated_rows.unwrap_or(0).max(rows_done)));
                bar.set_style(style(if estimated_rows.is_some() {
                    TABLE_TEMPLATE
                } else {
                    TABLE_UNKNOWN_TEMPLATE
                }));
                bar.set_prefix(table.to_string());
                bar.set_position(rows_done);
                bar.enable_steady_tick(TICK);
                if let Ok(mut t) = tables.lock() {
                    t.insert(table.to_string(), bar);
                }
            }
            SnapshotProgress::Lines { state, .. } => {
                if let Ok(mut s) = state.lock() {
                    s.rows.insert(
                        table.to_string(),
                        (rows_done, estimated_rows, Instant::now()),
                    );
                }
                stderr::line(&match estimated_rows {
                    Some(n) => format!("snapshot: {table} started (about {} rows)", live::count(n)),
                    // NUM_ROWS is NULL until the table's statistics are gathered.
                    None => format!(
                        "snapshot: {table} started (no row estimate: the table has no optimizer statistics)"
                    ),
                });
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
                    let e = s
                        .rows
                        .entry(table.to_string())
                        .or_insert((0, None, Instant::now()));
                    e.0 += rows;
                    let (done, est, started) = *e;
                    if s.last.elapsed() >= *every {
                        s.last = Instant::now();
                        let secs = started.elapsed().as_secs_f64().max(0.001);
                        stderr::line(&rows_line(table, done, est, done as f64 / secs));
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
                if let Ok(mut o) = overall.lock() {
                    if let Some(b) = o.as_ref() {
                        b.inc(1);
                        // The snapshot is over: its bar makes way for the status line.
                        if b.position() >= b.length().unwrap_or(0) {
                            b.finish_and_clear();
                            *o = None;
                        }
                    }
                }
            }
            SnapshotProgress::Lines { .. } => stderr::line(&format!(
                "snapshot: {table} done, {} rows",
                live::count(rows)
            )),
            SnapshotProgress::Quiet => {}
        }
    }

    fn capture_status(&self, board: &Board) {
        let SnapshotProgress::Bars {
            status: Some((bar, meter)),
            ..
        } = self
        else {
            return;
        };
        let Ok(mut m) = meter.lock() else { return };
        let total = board.stream.change_records + board.stream.snapshot_records;
        let now = m.started.elapsed();
        if now.saturating_sub(m.last.1) >= RATE_EVERY {
            m.rate = live::rate_between(m.last, (total, now));
            m.last = (total, now);
        }
        bar.set_message(live::capture_line(board, m.rate));
    }
}

/// A table's rows read so far, against the estimate where there is one (`NUM_ROWS` is NULL
/// until the table's statistics are gathered: no `/?`).
fn rows_line(table: &str, done: u64, estimate: Option<u64>, per_second: f64) -> String {
    let of = estimate.map_or_else(String::new, |n| format!("/{}", live::count(n)));
    format!(
        "snapshot: {table} {}{of} rows ({})",
        live::count(done),
        live::rate(per_second, "rows")
    )
}

#[cfg(test)]
mod tests {
    use super::rows_line;

    #[test]
    fn a_rows_line_shows_the_estimate_only_where_there_is_one() {
        let with = rows_line("HR.EMP", 500, Some(1000), 250.0);
        let without = rows_line("HR.EMP", 500, None, 250.0);
        assert!(
            with.starts_with("snapshot: HR.EMP 500/1,000 rows ("),
            "{with}"
        );
        assert!(
            without.starts_with("snapshot: HR.EMP 500 rows ("),
            "{without}"
        );
        assert!(!without.contains('?'), "{without}");
    }
}
