//! `oracle-cdc signal send`: check a signal, put it in the running capture's spool, and with
//! `--wait` follow the ops events until it is accepted, rejected or done.

use super::args::{
    GlobalArgs, SignalChannelArg, SignalSendArgs, SignalSnapshotType, SignalType, TableFormat,
};
use super::Printer;
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::offsets::Offsets;
use crate::settings::Settings;
use crate::signal::spool::Spool;
use crate::signal::{Action, Signal, SnapshotKind};
use crate::state::StateDir;
use serde_json::Value as Json;
use std::io::{BufRead, Seek};
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub fn send(a: SignalSendArgs, global: &GlobalArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let settings = super::load_settings(global)?;
    let signal = build(&a)?;
    let state = StateDir::new(a.dir.as_ref().unwrap_or(&settings.state_dir));
    let source = a.channel == SignalChannelArg::Source;
    // The source channel needs no state directory unless --wait follows the ops events.
    if !state.path.is_dir() && (!source || a.wait) {
        return Err(CdcError::NoStateDir { path: state.path }.into());
    }
    if source {
        check_source_channel(&settings)?;
    } else if !settings.signal.file {
        return Err(CdcError::SignalChannel(format!(
            "the file channel is not enabled ({}={}): add `file`, or insert the signal into the signal table {}",
            crate::settings::keys::SIGNAL_CHANNELS,
            if settings.signal.source { "source" } else { "" },
            settings
                .signal
                .data_collection
                .as_ref()
                .map_or("(cdc.signal.data.collection)".to_string(), |t| t.to_string())
        ))
        .into());
    }
    check_tables(&signal, &settings)?;
    let spool = Spool::new(&state.path);
    let offsets = Offsets::load(&state.offsets())?;
    let used = spool.known_ids()?.iter().any(|k| k == &signal.id)
        || offsets.as_ref().is_some_and(|o| {
            o.signals.iter().any(|g| g.id == signal.id)
                || o.signal_history.iter().any(|h| h.id == signal.id)
        });
    if used {
        return Err(CdcError::SignalIdUsed(signal.id).into());
    }
    // Events from before this signal are not its outcome.
    let ops_path = state.ops();
    let ops_start = std::fs::metadata(&ops_path).map(|m| m.len()).unwrap_or(0);
    if source {
        insert_row(&signal, &settings)?;
    } else {
        let file = spool.send(&signal)?;
        tracing::info!("signal written to {}", file.display());
    }
    let json_out = a.format == TableFormat::Json;
    let sent = || {
        let mut v = signal.to_json();
        v["channel"] = Json::from(if source { "source" } else { "file" });
        v
    };
    if !json_out {
        printer.line(&signal.id)?;
    }
    if !source && state.holder().is_none() {
        printer.note(
            "no capture runs with this state directory now: the signal waits in the spool until one starts",
        );
    }
    if !a.wait {
        if json_out {
            let mut v = sent();
            v["outcome"] = Json::Null;
            printer.json(&v)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let runs = matches!(signal.action, Action::ExecuteSnapshot { .. });
    let event = wait(
        &ops_path,
        ops_start,
        &signal.id,
        runs,
        Duration::from_secs(a.timeout),
    )?;
    let name = event.get("event").and_then(Json::as_str).unwrap_or("");
    let detail = ["action", "reason", "rows"]
        .iter()
        .find_map(|k| {
            event
                .get(*k)
                .map(|v| format!("{k}: {}", v.as_str().map_or(v.to_string(), str::to_string)))
        })
        .unwrap_or_default();
    printer.note(&format!("{}: {name} {detail}", signal.id));
    if json_out {
        // The ops event as written, so a script reads the same fields ops.jsonl has.
        let mut v = sent();
        v["outcome"] = event.clone();
        printer.json(&v)?;
    }
    Ok(match name {
        "signal-rejected" | "signal-stopped" | "signal-failed" => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

/// The source channel can be used: enabled, with its table, and the database writable.
fn check_source_channel(settings: &Settings) -> Result<()> {
    let key = crate::settings::keys::SIGNAL_CHANNELS;
    if !settings.signal.source {
        return Err(CdcError::SignalChannel(format!(
            "the source channel is not enabled ({key} does not list `source`): a running capture would never read the row"
        )));
    }
    if settings.read_only {
        return Err(CdcError::SignalChannel(format!(
            "{}=true forbids writing the signal row: use the file channel (--channel file)",
            crate::settings::keys::DATABASE_READ_ONLY
        )));
    }
    Ok(())
}

/// Insert the signal into the signal table (after checking the database takes writes).
fn insert_row(signal: &Signal, settings: &Settings) -> Result<()> {
    let Some(table) = settings.signal.data_collection.as_ref() else {
        return Err(CdcError::SignalChannel(format!(
            "no signal table: set {}",
            crate::settings::keys::SIGNAL_DATA_COLLECTION
        )));
    };
    let mut session = crate::source::open(settings)?.connect()?;
    let db = session.database()?;
    let writable = db.role == crate::source::DatabaseRole::Primary
        && db.open_mode == crate::source::OpenMode::ReadWrite;
    if !writable {
        return Err(CdcError::SignalChannel(format!(
            "the database is read-only (V$DATABASE.DATABASE_ROLE {}, OPEN_MODE {}): nothing is written to it; use the file channel (--channel file)",
            db.role.as_oracle(),
            db.open_mode.as_oracle()
        )));
    }
    let json = signal.to_json();
    let data = match &json["data"] {
        Json::Null => None,
        d => Some(d.to_string()),
    };
    session.insert_signal(
        table,
        &crate::source::SignalRow {
            id: signal.id.clone(),
            kind: signal.type_name().to_string(),
            data,
        },
    )
}

/// The signal the arguments describe, checked (everything but the database).
fn build(a: &SignalSendArgs) -> Result<Signal> {
    let id = match &a.id {
        Some(id) => {
            crate::signal::check_id(id)?;
            id.clone()
        }
        None => crate::signal::new_id(),
    };
    // Debezium's regular expressions (`SALES\\..*`) go as they are: capture matches them.
    let patterns: Vec<String> = a
        .tables
        .iter()
        .map(|t| t.trim())
        .filter(|t| crate::signal::collections::is_pattern(t))
        .map(String::from)
        .collect();
    let tables: Vec<TableName> = a
        .tables
        .iter()
        .map(|t| t.trim())
        .filter(|t| !t.is_empty() && !crate::signal::collections::is_pattern(t))
        .map(|t| {
            t.parse::<TableName>()
                .map_err(|e| CdcError::InvalidSignal(format!("--tables: {e}")))
        })
        .collect::<Result<_>>()?;
    let only_snapshot =
        |what: &str| CdcError::InvalidSignal(format!("{what} is only for execute-snapshot"));
    if a.signal != SignalType::ExecuteSnapshot {
        if !a.filters.is_empty() {
            return Err(only_snapshot("--filter"));
        }
        if a.snapshot_type != SignalSnapshotType::Incremental {
            return Err(only_snapshot("--type"));
        }
    }
    let action = match a.signal {
        SignalType::ExecuteSnapshot => {
            if tables.is_empty() && patterns.is_empty() {
                return Err(CdcError::InvalidSignal(
                    "execute-snapshot needs --tables: name the tables to snapshot".into(),
                ));
            }
            let mut filters: Vec<(String, String)> = Vec::new();
            for f in &a.filters {
                let Some((t, cond)) = f.split_once('=') else {
                    return Err(CdcError::InvalidSignal(format!(
                        "--filter `{f}`: expected TABLE=CONDITION"
                    )));
                };
                let t = t.trim();
                let table = if crate::signal::collections::is_pattern(t) {
                    t.to_string()
                } else {
                    t.parse::<TableName>()
                        .map_err(|e| CdcError::InvalidSignal(format!("--filter `{f}`: {e}")))?
                        .to_string()
                };
                filters.push((table, cond.to_string()));
            }
            let data = serde_json::json!({
                "data-collections": tables.iter().map(|t| t.to_string()).chain(patterns.iter().cloned()).collect::<Vec<_>>(),
                "type": match a.snapshot_type {
                    SignalSnapshotType::Incremental => "INCREMENTAL",
                    SignalSnapshotType::Blocking => "BLOCKING",
                },
                "additional-conditions": filters.iter().map(|(t, f)| serde_json::json!({"data-collection": t, "filter": f})).collect::<Vec<_>>(),
            });
            // One parser checks every channel's signals (filters included).
            return Signal::from_json(
                &serde_json::json!({"id": id, "type": "execute-snapshot", "data": data}),
            );
        }
        SignalType::PauseSnapshot => {
            if !tables.is_empty() || !patterns.is_empty() {
                return Err(CdcError::InvalidSignal(
                    "pause-snapshot pauses the running snapshot; it takes no --tables".into(),
                ));
            }
            Action::PauseSnapshot
        }
        SignalType::ResumeSnapshot => {
            if !tables.is_empty() || !patterns.is_empty() {
                return Err(CdcError::InvalidSignal(
                    "resume-snapshot resumes the paused snapshot; it takes no --tables".into(),
                ));
            }
            Action::ResumeSnapshot
        }
        SignalType::StopSnapshot => Action::StopSnapshot { tables },
        SignalType::SetThrottle => Action::SetThrottle {
            rows_per_second: a.rows_per_second.ok_or_else(|| {
                CdcError::InvalidSignal(
                    "set-throttle needs --rows-per-second N (0: no limit)".into(),
                )
            })?,
            tables,
        },
    };
    if a.rows_per_second.is_some() && a.signal != SignalType::SetThrottle {
        return Err(CdcError::InvalidSignal(
            "--rows-per-second is only for set-throttle".into(),
        ));
    }
    Ok(Signal {
        id,
        action,
        patterns: crate::signal::Patterns {
            tables: patterns,
            conditions: Vec::new(),
        },
    })
}

/// The named tables must be captured per the settings and, when the database answers, exist.
fn check_tables(signal: &Signal, settings: &Settings) -> Result<()> {
    if signal.tables().is_empty() && signal.patterns.is_empty() {
        return Ok(());
    }
    let mut session = crate::source::open(settings).and_then(|c| c.connect());
    // Debezium's `DATABASE.SCHEMA.TABLE` of a non-CDB's table is checked as `SCHEMA.TABLE`
    // (capture resolves it the same way), and its patterns are matched against the captured
    // tables (capture matches them again against its own).
    let database = match &mut session {
        Ok(s) => s.database().ok(),
        Err(_) => None,
    };
    let resolved = match &mut session {
        Ok(s) if !signal.patterns.is_empty() => {
            let captured: Vec<crate::names::TableName> = s
                .tables()?
                .into_iter()
                .map(|k| k.name)
                .filter(|t| {
                    settings.is_captured(t) && settings.signal.data_collection.as_ref() != Some(t)
                })
                .collect();
            signal.expanded(
                &captured,
                database.as_ref().map(|d| (d.name.as_str(), d.cdb)),
            )?
        }
        _ => match &database {
            Some(d) => signal.resolved(&d.name, d.cdb),
            None => signal.clone(),
        },
    };
    let signal = &resolved;
    let tables = signal.tables();
    for t in tables {
        if settings.signal.data_collection.as_ref() == Some(t) {
            return Err(CdcError::SignalTable(format!(
                "{t} is the signal table ({}); it is not snapshotted",
                crate::settings::keys::SIGNAL_DATA_COLLECTION
            )));
        }
        if !settings.is_captured(t) {
            return Err(CdcError::SignalTable(format!(
                "{t} is not captured: cdc.tables.include / cdc.tables.exclude leave it out"
            )));
        }
    }
    let known = match &mut session {
        Ok(s) => s.tables(),
        Err(e) => Err(CdcError::Database(e.to_string())),
    };
    match known {
        Ok(known) => {
            for t in tables {
                if !known.iter().any(|k| &k.name == t) {
                    let wanted = t.to_string();
                    let hint = known
                        .iter()
                        .map(|k| k.name.to_string())
                        .map(|k| (strsim::jaro_winkler(&wanted, &k), k))
                        .filter(|(score, _)| *score > 0.85)
                        .max_by(|a, b| a.0.total_cmp(&b.0))
                        .map(|(_, c)| format!(" (did you mean {c}?)"))
                        .unwrap_or_default();
                    return Err(CdcError::SignalTable(format!(
                        "the database has no table {t}{hint}"
                    )));
                }
            }
        }
        // The signal can still be checked by capture; say the database was not asked.
        Err(e) => tracing::warn!("could not check that the tables exist: {e}"),
    }
    // Each filter parsed by the database against its table's columns, so a bad one is refused
    // here, not by capture (which checks again before it accepts the signal).
    if let (Action::ExecuteSnapshot { filters, .. }, Ok(session)) = (&signal.action, &mut session) {
        for (table, filter) in filters {
            if let Err(e) = session.check_condition(table, filter) {
                return Err(CdcError::coded(
                    crate::errors::Code::Cdc8107,
                    format!(
                        "the filter for {table} (`{}`) is refused by the database: {e}",
                        crate::errors::shown(filter, 200)
                    ),
                ));
            }
        }
    }
    if let Action::ExecuteSnapshot { kind, .. } = &signal.action {
        if *kind == SnapshotKind::Blocking {
            tracing::info!("a blocking snapshot pauses streaming while it reads");
        }
    }
    Ok(())
}

/// Follow the ops events (from `from` bytes on) until one tells the signal's outcome.
fn wait(
    path: &std::path::Path,
    from: u64,
    id: &str,
    runs: bool,
    timeout: Duration,
) -> Result<Json> {
    let started = Instant::now();
    let mut offset = from;
    let mut partial = String::new();
    loop {
        if let Ok(mut f) = std::fs::File::open(path) {
            let len = f.metadata().map(|m| m.len()).unwrap_or(0);
            if len < offset {
                offset = 0; // the ops file was replaced
            }
            f.seek(std::io::SeekFrom::Start(offset))
                .map_err(|e| CdcError::io(path, e))?;
            let mut reader = std::io::BufReader::new(f);
            let mut line = String::new();
            loop {
                line.clear();
                let n = reader
                    .read_line(&mut line)
                    .map_err(|e| CdcError::io(path, e))?;
                if n == 0 {
                    break;
                }
                offset += n as u64;
                if !line.ends_with('\n') {
                    partial.push_str(&line);
                    continue;
                }
                let text = std::mem::take(&mut partial) + &line;
                let Ok(event) = serde_json::from_str::<Json>(&text) else {
                    continue;
                };
                if event.get("signal").and_then(Json::as_str) != Some(id) {
                    continue;
                }
                let name = event.get("event").and_then(Json::as_str).unwrap_or("");
                let final_event = match name {
                    "signal-rejected" | "signal-duplicate" | "signal-done" | "signal-stopped"
                    | "signal-failed" => true,
                    "signal-accepted" => !runs,
                    _ => false,
                };
                if final_event {
                    return Ok(event);
                }
            }
        }
        if started.elapsed() >= timeout {
            return Err(CdcError::SignalWait(format!(
                "no outcome for signal {id} in {} after {}s",
                path.display(),
                timeout.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}
