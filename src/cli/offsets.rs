//! `oracle-cdc offsets inspect` (here) and `oracle-cdc offsets edit` ([`edit`]).

mod edit;

use super::args::{GlobalArgs, OffsetsCommand, OffsetsInspectArgs, TableFormat};
use super::Printer;
use crate::offsets::inspect::{self, Reach};
use crate::offsets::{Offsets, SinkPosition, TableProgress, FORMAT_VERSION};
use crate::state::StateDir;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(c: OffsetsCommand, global: &GlobalArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    match c {
        OffsetsCommand::Inspect(a) => inspect(a, global, printer),
        OffsetsCommand::Edit(a) => edit::run(a, global, printer),
        OffsetsCommand::Reset(a) => edit::reset(a, global, printer),
    }
}

/// The directory holding the offsets: `--dir`, else `cdc.state.dir`.
fn state_dir(dir: Option<PathBuf>, settings: &crate::settings::Settings) -> StateDir {
    StateDir::new(&dir.unwrap_or_else(|| settings.state_dir.clone()))
}

fn inspect(
    a: OffsetsInspectArgs,
    global: &GlobalArgs,
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    let settings = super::load_settings(global)?;
    let state = state_dir(a.dir, &settings);
    let path = state.offsets();
    let loaded = Offsets::load_versioned(&path)?;
    let scns: Vec<u64> = loaded
        .as_ref()
        .and_then(|(o, _)| o.stream.as_ref())
        .map(|s| vec![s.commit_scn, s.resume_scn])
        .unwrap_or_default();
    let reach = if a.offline {
        Reach::Offline
    } else {
        inspect::probe(&settings, &scns)
    };
    let mismatch = match (&loaded, reach.live()) {
        (Some((o, _)), Some(l)) => o.check_database(&path, &l.database).err(),
        _ => None,
    };
    let mismatch_text = mismatch.as_ref().map(|e| e.to_string());
    let offsets = loaded.as_ref().map(|(o, _)| o);
    let holder = state.holder();
    match a.format {
        TableFormat::Json => {
            let report = json!({
                "file": path.display().to_string(),
                "exists": loaded.is_some(),
                "file_format": loaded.as_ref().map(|(_, v)| *v),
                "format": FORMAT_VERSION,
                "phase": offsets.map_or("fresh".to_string(), inspect::phase),
                "capture_pid": holder,
                "offsets": offsets,
                "live": inspect::live_json(offsets, &reach, mismatch_text.as_deref()),
            });
            printer.json(&report)?;
        }
        TableFormat::Table => {
            let file_format = loaded.as_ref().map(|(_, v)| *v);
            summary(
                printer,
                &path,
                offsets,
                file_format,
                &reach,
                mismatch_text.as_deref(),
                holder,
            )?;
            if let Some(o) = offsets {
                tables(printer, o)?;
            }
        }
    }
    match mismatch {
        Some(e) => Err(e.into()),
        None => Ok(ExitCode::SUCCESS),
    }
}

fn summary(
    printer: &Printer,
    path: &std::path::Path,
    o: Option<&Offsets>,
    file_format: Option<u32>,
    reach: &Reach,
    mismatch: Option<&str>,
    holder: Option<String>,
) -> anyhow::Result<()> {
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut row = |k: &str, v: String| rows.push(vec![k.to_string(), v]);
    match (o, file_format) {
        (Some(o), Some(v)) => {
            row(
                "format",
                if v < FORMAT_VERSION {
                    format!("{v} (upgraded to {FORMAT_VERSION} on the next write)")
                } else {
                    v.to_string()
                },
            );
            row(
                "database",
                format!(
                    "{} (DBID {}, incarnation {})",
                    o.database.name, o.database.dbid, o.database.incarnation
                ),
            );
            row("phase", inspect::phase(o));
        }
        _ => row(
            "phase",
            "fresh: no offsets file (capture starts from scratch)".into(),
        ),
    }
    row(
        "capture",
        match holder {
            Some(pid) => format!("running (pid {pid} holds the state directory)"),
            None => "not running".into(),
        },
    );
    let live = reach.live().filter(|_| mismatch.is_none());
    if let Some(s) = o.and_then(|o| o.stream.as_ref()) {
        let retained = match live {
            Some(l) if l.retains(s.resume_scn) => " (in the retained logs)".to_string(),
            Some(l) => format!(
                " (NOT in the retained logs: the oldest starts at SCN {}; capture cannot resume here)",
                l.oldest_scn().map_or("?".to_string(), |s| s.to_string())
            ),
            None => String::new(),
        };
        row("resume SCN", format!("{}{retained}", s.resume_scn));
        let xids = if s.commit_xids.is_empty() {
            "every transaction there published".to_string()
        } else {
            format!("published there: {}", s.commit_xids.join(", "))
        };
        let at = live
            .and_then(|l| l.scn_times.get(&s.commit_scn))
            .map(|t| format!(", at {t}"))
            .unwrap_or_default();
        row("commit SCN", format!("{} ({xids}{at})", s.commit_scn));
        if !s.threads.is_empty() {
            row(
                "redo threads",
                s.threads
                    .iter()
                    .map(|(t, scn)| format!("thread {t}: {scn}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
            );
        }
    }
    match (reach, live) {
        (_, Some(l)) => {
            let lag = o
                .and_then(|o| o.stream.as_ref())
                .map(|s| match l.current_scn.checked_sub(s.commit_scn) {
                    Some(lag) => format!(" (lag {})", inspect::plural(lag, "SCN")),
                    None => format!(
                        " (BEHIND the offsets' commit SCN {}: a restored or flashed-back database?)",
                        s.commit_scn
                    ),
                })
                .unwrap_or_default();
            row("current SCN", format!("{}{lag}", l.current_scn));
            row(
                "retained logs",
                match l.oldest_scn() {
                    Some(s) => format!(
                        "{}, the oldest from SCN {s}",
                        inspect::plural(l.logs.len() as u64, "log")
                    ),
                    None => "none".into(),
                },
            );
        }
        (Reach::Reachable(_), None) => row("database check", mismatch.unwrap_or("").to_string()),
        (r, None) => row(
            "database check",
            format!(
                "not checked: {} — no lag or retained-log check",
                r.why_not().unwrap_or_default()
            ),
        ),
    }
    if let Some(o) = o {
        if let Some(s) = &o.snapshot {
            let done = s
                .tables
                .values()
                .filter(|p| p.state == crate::offsets::TableState::Done)
                .count();
            row(
                "snapshot",
                format!(
                    "{}: {done} of {} tables done, {} records{}",
                    if s.completed {
                        "complete"
                    } else {
                        "unfinished"
                    },
                    s.tables.len(),
                    s.records,
                    if s.skipped.is_empty() {
                        String::new()
                    } else {
                        format!(", {} skipped", s.skipped.len())
                    }
                ),
            );
        }
        if let Some(e) = &o.export {
            row("export", format!("{} of {}", e.format, e.tables.join(", ")));
        }
        if let Some(s) = &o.sink {
            row("sink", sink_text(s));
        }
        if let Some(t) = &o.topics {
            row("topics", format!("{t} (kept since the first start)"));
        }
        if let Some(h) = &o.schema_history {
            row(
                "schema history",
                format!("{} entries acknowledged", h.entries),
            );
        }
    }
    printer.table(&["offsets", &path.display().to_string()], rows)?;
    Ok(())
}

/// The sink row of `offsets inspect`: what each sink acknowledges.
fn sink_text(s: &SinkPosition) -> String {
    match s {
        SinkPosition::File {
            segment,
            bytes,
            records,
        } => format!("{segment} acknowledged to byte {bytes}; {records} records"),
        SinkPosition::Stdout { records } => format!("stdout; {records} records flushed to the reader"),
        SinkPosition::Kafka {
            transactions,
            records,
        } => format!(
            "kafka; {records} records acknowledged by the broker, {transactions} transactions committed with offsets"
        ),
    }
}

fn progress_row(name: &str, p: &TableProgress) -> Vec<String> {
    vec![
        name.to_string(),
        inspect::state_text(p.state).to_string(),
        p.strategy.clone(),
        p.chunks.to_string(),
        p.rows.to_string(),
        match (p.state, &p.next) {
            (crate::offsets::TableState::Done, _) => String::new(),
            (_, Some(n)) => inspect::resume_text(n),
            (_, None) => "first row".into(),
        },
    ]
}

fn tables(printer: &Printer, o: &Offsets) -> anyhow::Result<()> {
    if let Some(s) = &o.snapshot {
        let mut rows = Vec::new();
        let mut names: Vec<&String> = s.order.iter().collect();
        names.extend(s.tables.keys().filter(|k| !s.order.contains(k)));
        for name in names {
            if let Some(p) = s.tables.get(name) {
                rows.push(progress_row(name, p));
            }
        }
        for k in &s.skipped {
            rows.push(vec![
                k.table.clone(),
                format!("skipped: {}", k.reason),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ]);
        }
        if !rows.is_empty() {
            printer.table(
                &[
                    "snapshot table",
                    "state",
                    "strategy",
                    "chunks",
                    "rows",
                    "next chunk",
                ],
                rows,
            )?;
        }
    }
    if !o.signals.is_empty() {
        let mut rows = Vec::new();
        for sig in &o.signals {
            for (t, p) in inspect::signal_tables(sig) {
                let mut r = match p {
                    Some(p) => progress_row(&t, p),
                    None => vec![
                        t.clone(),
                        "not started".into(),
                        String::new(),
                        "0".into(),
                        "0".into(),
                        "first row".into(),
                    ],
                };
                r.insert(
                    0,
                    format!(
                        "{}\n{}{}",
                        sig.id,
                        sig.kind,
                        if sig.paused { ", paused" } else { "" }
                    ),
                );
                rows.push(r);
            }
        }
        printer.table(
            &[
                "signal",
                "table",
                "state",
                "strategy",
                "chunks",
                "rows",
                "next chunk",
            ],
            rows,
        )?;
    }
    Ok(())
}
