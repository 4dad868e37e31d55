//! `oracle-cdc snapshot` and `oracle-cdc plan-chunks`.

use super::args::{
    CsvTimesArg, ExportFormatArg, GlobalArgs, PlanChunksArgs, SnapshotArgs, TableFormat,
};
use super::progress::{SnapshotProgress, Spinner};
use super::Printer;
use crate::errors::CdcError;
use crate::export::{
    ExportFormat, ExportSink, ParquetCompression, ParquetOptions, MANIFEST_FILE, OFFSETS_FILE,
    OPS_FILE,
};
use crate::names::TableName;
use crate::offsets::{DatabaseIdentity, ExportSpec, Offsets, SnapshotState, TableState};
use crate::ops::{OpsLog, SnapshotMetrics};
use crate::snapshot::plan::Chunk;
use crate::snapshot::target::{self, Decision};
use crate::snapshot::{Outcome, Snapshot};
use crate::source::{self, Connector};
use serde_json::json;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

fn parse_tables(list: &[String]) -> Result<Vec<TableName>, CdcError> {
    list.iter()
        .map(|t| {
            t.parse::<TableName>()
                .map_err(|e| CdcError::Argument(format!("--tables: {e}")))
        })
        .collect()
}

/// Open the database of the settings and resolve the tables to read, saying so on a spinner
/// (opening a large emulated database, or connecting to Oracle, can take a while).
fn open_and_resolve(
    settings: &crate::settings::Settings,
    only: &[TableName],
    quiet: bool,
) -> anyhow::Result<(
    Box<dyn Connector>,
    crate::source::model::DatabaseInfo,
    Vec<Decision>,
)> {
    let spinner = Spinner::new(
        quiet,
        &format!(
            "opening {}",
            crate::settings::redact_url(settings.database_url())
        ),
    );
    let connector = source::open(settings)?;
    spinner.say(&format!("connecting to {}", connector.describe()));
    // A dropped connection is reconnected, as capture does.
    let mut s = source::Reconnecting::new(connector.as_ref(), &settings.connect);
    let db = s.call(|s| s.database())?;
    let container = s.call(|s| s.container())?;
    source::container::check_reachable(container.as_deref(), settings, only)?;
    spinner.say(&format!("reading the catalog of {}", db.name));
    let tables = s.call(|s| s.tables())?;
    // The session goes on to the engine's first connect: one login fewer (a tenth of a second
    // or more on a remote database).
    let idle = s.into_session();
    let connector: Box<dyn Connector> = Box::new(source::WarmConnector::new(connector, idle));
    spinner.say(&format!("planning {} tables", tables.len()));
    let decisions = target::resolve(settings, tables, only)?;
    Ok((connector, db, decisions))
}

/// What the first Ctrl-C does to an export: the chunks in flight are finished.
pub(super) const SNAPSHOT_STOP_MESSAGE: &str =
    "stopping after the chunks being read; Ctrl-C again to stop at once";

/// Ctrl-C asks the snapshot to stop after the chunks in flight; a second one exits at once.
pub(super) fn stop_flag() -> Arc<AtomicBool> {
    stop_flag_saying(|| SNAPSHOT_STOP_MESSAGE)
}

/// Ctrl-C asks to stop, and `message` (asked when it comes) says what is finished first; a
/// second one exits at once.
pub(super) fn stop_flag_saying(
    message: impl Fn() -> &'static str + Send + 'static,
) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let s = stop.clone();
    let _ = ctrlc::set_handler(move || {
        if s.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        super::progress::note(message());
    });
    stop
}

pub fn snapshot(
    a: SnapshotArgs,
    global: &GlobalArgs,
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    let settings = super::load_settings(global)?;
    let only = parse_tables(&a.tables)?;
    let (connector, db, decisions) = open_and_resolve(&settings, &only, printer.quiet)?;
    let format = match (a.records, a.format) {
        (true, _) => ExportFormat::Records,
        (false, ExportFormatArg::Csv) if a.csv_times == CsvTimesArg::Epoch => {
            ExportFormat::CsvEpoch
        }
        (false, ExportFormatArg::Csv) => ExportFormat::Csv,
        (false, ExportFormatArg::Jsonl) => ExportFormat::Jsonl,
        (false, ExportFormatArg::Parquet) => ExportFormat::Parquet,
    };
    let captured: Vec<String> = decisions
        .iter()
        .filter_map(|d| match d {
            Decision::Capture(t) => Some(t.name().to_string()),
            Decision::Skip { .. } => None,
        })
        .collect();
    check_file_names(&a.out, &decisions)?;
    // Not a link, not another user's, not writable by others (created 0700 when missing).
    crate::localfs::ensure_dir(&a.out)?;
    // One export (or offsets edit) at a time in a directory; the lock file goes with the run.
    let _lock = crate::state::StateDir::new(&a.out).lock_export()?;
    let offsets_path = a.out.join(OFFSETS_FILE);
    let spec = ExportSpec {
        format: format.name().into(),
        tables: captured.clone(),
    };
    let mut offsets = match Offsets::load(&offsets_path)? {
        Some(o) => {
            o.check_database(&offsets_path, &db)?;
            if o.export.as_ref() != Some(&spec) {
                let found = o
                    .export
                    .clone()
                    .map(|e| format!("{} of {}", e.format, e.tables.join(", ")))
                    .unwrap_or_default();
                return Err(CdcError::OtherExport {
                    path: a.out.clone(),
                    reason: format!(
                        "it holds {found}; this run asks for {} of {}",
                        spec.format,
                        spec.tables.join(", ")
                    ),
                }
                .into());
            }
            o
        }
        None => {
            let mut o = Offsets::new(DatabaseIdentity::of(&db));
            o.export = Some(spec);
            o
        }
    };
    let already_done = offsets.snapshot.as_ref().is_some_and(|s| s.completed);
    let mut sink = ExportSink::new(&a.out, format, &settings.sink.topic_prefix, &db.name)
        .with_record_format(
            settings.record.clone(),
            // Topics as a first capture of the same tables names them.
            crate::capture::topics::first_start_pdb(
                &settings,
                decisions.iter().filter_map(|d| match d {
                    Decision::Capture(t) => Some(t.name()),
                    _ => None,
                }),
            ),
        )
        .with_parquet_options(ParquetOptions {
            file_rows: settings.snapshot.parquet_file_rows,
            compression: if settings.snapshot.parquet_zstd {
                ParquetCompression::Zstd
            } else {
                ParquetCompression::None
            },
        });
    // Each table's file is checked before the offsets are first written.
    for d in &decisions {
        if let Decision::Capture(t) = d {
            crate::localfs::check_file(&a.out.join(sink.file_name(t)))?;
        }
    }
    sink.recover(&offsets)?;
    if !already_done {
        if offsets.snapshot.is_some() {
            printer.note(&format!("resuming the export in {}", a.out.display()));
        }
        let ops = OpsLog::to_file(&a.out.join(OPS_FILE))?;
        let metrics = Arc::new(Mutex::new(SnapshotMetrics::default()));
        let progress = SnapshotProgress::new(printer.quiet);
        let stop = stop_flag();
        let stopped = || stop.load(Ordering::SeqCst);
        let run = Snapshot {
            connector: connector.as_ref(),
            settings: &settings,
            ops: &ops,
            progress: &progress,
            metrics: metrics.clone(),
            pin_scn: None,
            signal: None,
            shutdown: Some(&stopped),
        };
        let mut state = offsets.snapshot.clone().unwrap_or_default();
        // The read throttle and its set-throttle signal (from --out's spool).
        let mut paced = crate::export::Paced::new(&mut sink, &settings, &a.out, &ops);
        let outcome = run.run(
            &decisions,
            &mut state,
            &mut |st: &SnapshotState| {
                offsets.snapshot = Some(st.clone());
                offsets.save(&offsets_path)
            },
            &mut paced,
            &stopped,
        );
        if !paced.waited.is_zero() {
            tracing::info!(
                "the read throttle held the export back {:.1}s",
                paced.waited.as_secs_f64()
            );
        }
        drop(paced);
        offsets.snapshot = Some(state);
        progress.finish();
        // Told to stop while a session logged in again (the database restarting): a stop, the
        // offsets as last saved.
        let outcome = match outcome {
            Err(CdcError::StoppedReconnecting { waiting }) => {
                // Told with --quiet too: the reconnect's warnings were, and this is how they ended.
                tracing::warn!(
                    target: crate::ops::STALL_LOG_TARGET,
                    "stopped while reconnecting to the database ({waiting})"
                );
                Ok(Outcome::Stopped)
            }
            other => other,
        };
        if outcome? == Outcome::Stopped {
            printer.note(&format!(
                "stopped; the offsets in {} are saved: run the same command to resume",
                offsets_path.display()
            ));
            return Ok(ExitCode::from(130));
        }
        let m = metrics.lock().map(|m| m.clone()).unwrap_or_default();
        finish_export(&a.out, &mut offsets, &decisions, &mut sink, Some(&m))?;
    } else {
        printer.note(&format!(
            "the export in {} is already complete",
            a.out.display()
        ));
        // A crash may have come between the last chunk and the files' completion.
        finish_export(&a.out, &mut offsets, &decisions, &mut sink, None)?;
    }
    if a.summary_format == TableFormat::Json {
        // One JSON document on stdout: the closing line's facts are in it.
        printer.json(&summary_json(&offsets, &sink, format.name(), &a.out))?;
        return Ok(ExitCode::SUCCESS);
    }
    summary(&offsets, &sink, printer)?;
    if let Some(state) = &offsets.snapshot {
        printer.outcome(&super::live::export_line(
            state.records,
            state.order.len(),
            format.name(),
            &a.out,
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Every captured table gets files of its own: two tables whose names map to one file name
/// (only possible for names shortened with a hash) are refused before anything is written.
fn check_file_names(out: &std::path::Path, decisions: &[Decision]) -> Result<(), CdcError> {
    let mut seen: std::collections::HashMap<String, &TableName> = Default::default();
    for d in decisions {
        if let Decision::Capture(t) = d {
            let stem = t.name().file_stem().to_ascii_lowercase();
            if let Some(other) = seen.insert(stem, t.name()) {
                return Err(CdcError::LocalPath {
                    code: crate::errors::Code::Cdc6306,
                    path: out.join(t.name().file_stem()),
                    message: format!(
                        "tables {other} and {} would share this file name; export them into separate directories (--tables)",
                        t.name()
                    ),
                });
            }
        }
    }
    Ok(())
}

/// Close the open files, give every captured table its file (even an empty one), then save the
/// offsets and write the manifest: always after a run (`metrics`), else only when something was
/// missing.
fn finish_export(
    out: &std::path::Path,
    offsets: &mut Offsets,
    decisions: &[Decision],
    sink: &mut ExportSink,
    metrics: Option<&SnapshotMetrics>,
) -> anyhow::Result<()> {
    sink.finish()?;
    let mut changed = false;
    for d in decisions {
        if let Decision::Capture(t) = d {
            let name = t.name().to_string();
            if let Some(p) = offsets
                .snapshot
                .as_mut()
                .and_then(|s| s.tables.get_mut(&name))
            {
                if p.file.is_none() {
                    sink.ensure(t, p)?;
                    changed = true;
                }
            }
        }
    }
    if metrics.is_none() && !changed && out.join(MANIFEST_FILE).exists() {
        return Ok(());
    }
    offsets.save(&out.join(OFFSETS_FILE))?;
    write_manifest(
        out,
        offsets,
        decisions,
        sink,
        metrics.unwrap_or(&SnapshotMetrics::default()),
    )
}

fn write_manifest(
    out: &std::path::Path,
    offsets: &Offsets,
    decisions: &[Decision],
    sink: &ExportSink,
    metrics: &SnapshotMetrics,
) -> anyhow::Result<()> {
    let Some(state) = &offsets.snapshot else {
        return Ok(());
    };
    let tables: Vec<_> = decisions
        .iter()
        .filter_map(|d| match d {
            Decision::Capture(t) => Some(t),
            Decision::Skip { .. } => None,
        })
        .map(|t| {
            let p = state.tables.get(&t.name().to_string());
            json!({
                "table": t.name().to_string(),
                "file": sink.file_name(t),
                "files": sink.files(t, p),
                "rows": p.map(|p| p.rows).unwrap_or(0),
                "chunks": p.map(|p| p.chunks).unwrap_or(0),
                "chunk_scns": p.map(|p| p.chunk_scns.clone()).unwrap_or_default(),
                "strategy": t.strategy.name(),
                "reason": t.reason,
                "columns": t.columns.iter().map(|c| json!({"name": c.name, "type": c.data_type.sql_name()})).collect::<Vec<_>>(),
            })
        })
        .collect();
    let manifest = json!({
        "database": offsets.database,
        "format": offsets.export.as_ref().map(|e| e.format.clone()),
        "rows": state.records,
        "tables": tables,
        "skipped": state.skipped,
        "metrics": metrics,
        "note": "each chunk is a consistent read AS OF its SCN (chunk_scns, in file order)",
    });
    let path = out.join(MANIFEST_FILE);
    let text = serde_json::to_vec_pretty(&manifest)?;
    crate::offsets::write_atomically(&path, &text)?;
    Ok(())
}

fn state_name(state: TableState) -> &'static str {
    match state {
        TableState::Done => "done",
        TableState::InProgress => "in progress",
        TableState::NotStarted => "not started",
    }
}

/// `--summary-format json`: the summary table's facts, with the SCN range as two numbers and
/// every file named, and the export's totals.
fn summary_json(
    offsets: &Offsets,
    sink: &ExportSink,
    format: &str,
    out: &std::path::Path,
) -> serde_json::Value {
    let empty = SnapshotState::default();
    let state = offsets.snapshot.as_ref().unwrap_or(&empty);
    let tables: Vec<serde_json::Value> = state
        .order
        .iter()
        .filter_map(|name| state.tables.get(name).map(|p| (name, p)))
        .map(|(name, p)| {
            json!({
                "table": name,
                "strategy": p.strategy,
                "chunks": p.chunks,
                "rows": p.rows,
                "min_scn": p.chunk_scns.iter().min(),
                "max_scn": p.chunk_scns.iter().max(),
                "files": sink.files_of(name, Some(p)),
                "state": state_name(p.state),
            })
        })
        .collect();
    json!({
        "out": out.display().to_string(),
        "format": format,
        "rows": state.records,
        "completed": state.completed,
        "tables": tables,
        "skipped": state.skipped,
    })
}

fn summary(offsets: &Offsets, sink: &ExportSink, printer: &Printer) -> anyhow::Result<()> {
    let Some(state) = &offsets.snapshot else {
        return Ok(());
    };
    let mut rows = Vec::new();
    for name in &state.order {
        if let Some(p) = state.tables.get(name) {
            let scns = match (p.chunk_scns.iter().min(), p.chunk_scns.iter().max()) {
                (Some(a), Some(b)) if a == b => a.to_string(),
                (Some(a), Some(b)) => format!("{a}..{b}"),
                _ => String::new(),
            };
            rows.push(vec![
                name.clone(),
                p.strategy.clone(),
                p.chunks.to_string(),
                p.rows.to_string(),
                scns,
                match sink.files_of(name, Some(p)).as_slice() {
                    [] => String::new(),
                    [one] => one.clone(),
                    [first, .., last] => format!("{first} …\n{last}"),
                },
                state_name(p.state).to_string(),
            ]);
        }
    }
    for s in &state.skipped {
        rows.push(vec![
            s.table.clone(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            format!("skipped: {}", s.reason),
        ]);
    }
    printer.table(
        &[
            "table", "strategy", "chunks", "rows", "SCNs", "file", "state",
        ],
        rows,
    )?;
    Ok(())
}

pub fn plan_chunks(
    a: PlanChunksArgs,
    global: &GlobalArgs,
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    let settings = super::load_settings(global)?;
    let only = parse_tables(&a.tables)?;
    let (connector, _db, decisions) = open_and_resolve(&settings, &only, printer.quiet)?;
    let mut session = source::Reconnecting::new(connector.as_ref(), &settings.connect);
    let mut plans = Vec::new();
    for d in &decisions {
        match d {
            Decision::Skip { table, reason } => {
                plans.push(json!({"table": table.to_string(), "skipped": reason}))
            }
            Decision::Capture(t) => {
                let mut planner = session.call(|s| {
                    crate::snapshot::plan::Planner::new(t, settings.snapshot.chunk_rows, None, s)
                })?;
                // Index boundary probes read as of one SCN, so the plan is of one moment.
                let scn = session.call(|s| s.current_scn())?;
                let mut chunks: Vec<Chunk> = Vec::new();
                while !planner.is_done() {
                    let next = session.call(|s| planner.next(s, scn, 1000))?;
                    if next.is_empty() {
                        break;
                    }
                    chunks.extend(next);
                }
                plans.push(json!({
                    "table": t.name().to_string(),
                    "strategy": t.strategy.name(),
                    "why": t.reason,
                    "method": planner.describe(),
                    "chunks": chunks.len(),
                    "estimated_rows": t.info.stats.num_rows,
                    "planned_at_scn": scn,
                    "boundaries": chunks.iter().map(|c| serde_json::to_value(c).unwrap_or_default()).collect::<Vec<_>>(),
                    "ranges": chunks.iter().map(Chunk::describe).collect::<Vec<_>>(),
                    "warnings": t.warnings,
                }));
            }
        }
    }
    match a.format {
        TableFormat::Json => printer.json(&serde_json::Value::Array(plans))?,
        TableFormat::Table => {
            let rows = plans
                .iter()
                .map(|p| {
                    if let Some(reason) = p["skipped"].as_str() {
                        return vec![
                            p["table"].as_str().unwrap_or_default().to_string(),
                            "skipped".into(),
                            reason.to_string(),
                            String::new(),
                            String::new(),
                            String::new(),
                        ];
                    }
                    let ranges: Vec<&str> = p["ranges"]
                        .as_array()
                        .map(|a| a.iter().filter_map(|r| r.as_str()).collect())
                        .unwrap_or_default();
                    let shown = if ranges.len() > 4 {
                        format!(
                            "{}\n{}\n… {} more …\n{}",
                            ranges[0],
                            ranges[1],
                            ranges.len() - 3,
                            ranges[ranges.len() - 1]
                        )
                    } else {
                        ranges.join("\n")
                    };
                    let warnings: Vec<&str> = p["warnings"]
                        .as_array()
                        .map(|a| a.iter().filter_map(|w| w.as_str()).collect())
                        .unwrap_or_default();
                    vec![
                        p["table"].as_str().unwrap_or_default().to_string(),
                        format!(
                            "{}\n{}",
                            p["strategy"].as_str().unwrap_or_default(),
                            p["method"].as_str().unwrap_or_default()
                        ),
                        p["why"].as_str().unwrap_or_default().to_string(),
                        format!(
                            "{} chunks\n~{} rows",
                            p["chunks"],
                            p["estimated_rows"]
                                .as_u64()
                                .map(|n| n.to_string())
                                .unwrap_or_else(|| "?".into())
                        ),
                        shown,
                        warnings.join("\n"),
                    ]
                })
                .collect();
            printer.table(
                &["table", "strategy", "why", "size", "ranges", "warnings"],
                rows,
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
