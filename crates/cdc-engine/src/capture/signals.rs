//! Signals inside capture: take them from the spool, apply them to the offsets (a new signal
//! snapshot, pause, resume, stop), and record each outcome in the ops events and the offsets'
//! signal history before the spool file is moved away — so a crash at any point neither loses
//! a signal nor runs one twice.

use crate::errors::Result;
use crate::names::TableName;
use crate::offsets::{Offsets, SignalOutcome, SignalSnapshot, SIGNAL_HISTORY};
use crate::ops::OpsLog;
use crate::settings::Settings;
use crate::signal::spool::{Outcome, Spool};
use crate::signal::{Action, Signal};
use crate::snapshot::target::Decision;
use serde_json::json;
use std::cell::Cell;
use std::time::{Duration, Instant};

pub struct SignalDesk<'a> {
    pub spool: Spool,
    settings: &'a Settings,
    ops: &'a OpsLog,
    last_poll: Cell<Option<Instant>>,
    /// A signal was seen waiting: `waiting` says so until `take` handles it (callers may ask
    /// more than once before they stop).
    seen: Cell<bool>,
    /// Where `set-throttle` puts the snapshot throttle.
    status: Option<super::status::Status>,
    /// The database that checks a signal's filters before it is accepted, and what ends the
    /// login's retries (capture's stop).
    connector: Option<&'a dyn cdc_core::session::Connector>,
    stop: Option<crate::source::Stop<'a>>,
    /// The database name and whether it is a CDB (`with_database`).
    database: Option<(String, bool)>,
}

/// What applying a signal did.
enum Applied {
    /// Took effect; the text says how (for the ops event), and which signal snapshots it
    /// stopped.
    Accepted(String, Vec<String>),
    Rejected(String),
    /// Its id was handled before (a file seen again after a crash).
    Duplicate,
}

impl<'a> SignalDesk<'a> {
    pub fn new(state_dir: &std::path::Path, settings: &'a Settings, ops: &'a OpsLog) -> Self {
        SignalDesk {
            spool: Spool::new(state_dir),
            settings,
            ops,
            last_poll: Cell::new(None),
            seen: Cell::new(false),
            status: None,
            connector: None,
            stop: None,
            database: None,
        }
    }

    /// The database's name and whether it is a CDB, for Debezium's `DATABASE.SCHEMA.TABLE`
    /// names of a non-CDB's tables ([`Signal::resolved`]).
    pub fn with_database(mut self, name: &str, cdb: bool) -> Self {
        self.database = Some((name.to_string(), cdb));
        self
    }

    /// Filters of `execute-snapshot` signals are checked against this database's tables
    /// (parsed there, their columns resolved) before a signal is accepted.
    pub fn with_connector(
        mut self,
        connector: &'a dyn cdc_core::session::Connector,
        stop: crate::source::Stop<'a>,
    ) -> Self {
        self.connector = Some(connector);
        self.stop = Some(stop);
        self
    }

    /// Why the database refuses one of the signal's filters, if it does. An error that says
    /// nothing about the filter (a lost connection) is returned: the signal stays in the spool
    /// and is checked again by the next start.
    fn filter_problem(&self, signal: &Signal) -> Result<Option<String>> {
        let (Action::ExecuteSnapshot { filters, .. }, Some(connector)) =
            (&signal.action, self.connector)
        else {
            return Ok(None);
        };
        if filters.is_empty() {
            return Ok(None);
        }
        let login = crate::source::Login::First;
        let policy = &self.settings.connect;
        let mut session =
            match crate::source::login_unless_stopped(connector, policy, login, self.stop) {
                Ok(s) => s,
                // No session to check them with at the user's session limit: the signal is
                // refused (send it again when there is room), capture goes on.
                Err(
                    e @ crate::errors::CdcError::Connect {
                        code: crate::errors::Code::Cdc2011,
                        ..
                    },
                ) => {
                    return Ok(Some(format!(
                        "its filters cannot be checked: no session for it ({e})"
                    )))
                }
                Err(e) => return Err(e),
            };
        for (table, filter) in filters {
            match session.check_condition(table, filter) {
                Ok(()) => {}
                Err(e) if refuses_filter(&e) => {
                    return Ok(Some(format!("the filter for {table} is refused: {e}")))
                }
                Err(e) => return Err(e),
            }
        }
        Ok(None)
    }

    /// `set-throttle` signals change the throttle on this status board.
    pub fn with_status(mut self, status: super::status::Status) -> Self {
        self.status = Some(status);
        self
    }

    /// Whether a signal waits in the spool; looks at most every cdc.signal.poll.ms (snapshots
    /// ask between waves and stop to let it be applied).
    pub fn waiting(&self) -> bool {
        if self.seen.get() {
            return true;
        }
        let due = self
            .last_poll
            .get()
            .is_none_or(|t| t.elapsed() >= Duration::from_millis(self.settings.signal.poll_ms));
        if !due {
            return false;
        }
        self.last_poll.set(Some(Instant::now()));
        let waiting = self.spool.pending().is_ok_and(|p| !p.is_empty());
        self.seen.set(waiting);
        waiting
    }

    /// Apply every waiting signal in order; `save` makes the offsets durable before each file
    /// leaves the spool. Returns how many were handled.
    pub fn take(
        &self,
        offsets: &mut Offsets,
        decisions: &[Decision],
        save: &mut dyn FnMut(&Offsets) -> Result<()>,
    ) -> Result<usize> {
        self.seen.set(false);
        let pending = self.spool.pending()?;
        let n = pending.len();
        let captured: Vec<TableName> = decisions
            .iter()
            .filter_map(|d| match d {
                Decision::Capture(c) => Some(c.name().clone()),
                Decision::Skip { .. } => None,
            })
            .filter(|t| self.settings.signal.data_collection.as_ref() != Some(t))
            .collect();
        for p in pending {
            // Debezium's forms resolved: DATABASE.SCHEMA.TABLE names, patterns matched against
            // the captured tables (a pattern refused is the signal rejected).
            let (signal, refused) = match &p.signal {
                Ok(s) => match s.expanded(
                    &captured,
                    self.database.as_ref().map(|(n, c)| (n.as_str(), *c)),
                ) {
                    Ok(x) => (x, None),
                    Err(e) => (s.clone(), Some(e.to_string())),
                },
                Err(e) => {
                    self.ops.emit(
                        "signal-rejected",
                        json!({"file": p.path.display().to_string(), "code": e.code().info().code, "reason": e.to_string()}),
                    )?;
                    tracing::warn!("signal file {} rejected: {e}", p.path.display());
                    self.spool.finish(&p, Outcome::Rejected)?;
                    continue;
                }
            };
            let signal = &signal;
            let outcome = if is_duplicate(signal, offsets) {
                Applied::Duplicate
            } else if let Some(why) = refused {
                Applied::Rejected(why)
            } else if let Some(why) = self.filter_problem(signal)? {
                Applied::Rejected(why)
            } else {
                apply(signal, offsets, decisions, self.settings)
            };
            if let (
                Applied::Accepted(..),
                Action::SetThrottle {
                    rows_per_second,
                    tables,
                },
                Some(status),
            ) = (&outcome, &signal.action, &self.status)
            {
                let mut b = status.board();
                if tables.is_empty() {
                    b.throttle.max_rows_per_second = *rows_per_second;
                }
                for t in tables {
                    b.throttle
                        .table_max_rows_per_second
                        .insert(t.to_string(), *rows_per_second);
                }
            }
            let (event, reason, file_outcome) = match &outcome {
                Applied::Accepted(how, _) => ("signal-accepted", how.clone(), Outcome::Processed),
                Applied::Rejected(why) => ("signal-rejected", why.clone(), Outcome::Rejected),
                Applied::Duplicate => (
                    "signal-duplicate",
                    "this id was handled before; not applied again".to_string(),
                    Outcome::Processed,
                ),
            };
            // A snapshot signal's outcome comes when it ends; the others' now.
            let runs = matches!(outcome, Applied::Accepted(..))
                && matches!(signal.action, Action::ExecuteSnapshot { .. });
            if !runs && !matches!(outcome, Applied::Duplicate) {
                record(
                    offsets,
                    signal,
                    match outcome {
                        Applied::Rejected(_) => "rejected",
                        _ => "applied",
                    },
                    &reason,
                );
            }
            save(offsets)?;
            let field = if matches!(outcome, Applied::Accepted(..)) {
                "action"
            } else {
                "reason"
            };
            self.ops.emit(
                event,
                json!({"signal": signal.id, "type": signal.type_name(), "tables": signal.tables().iter().map(|t| t.to_string()).collect::<Vec<_>>(), field: reason}),
            )?;
            if let Applied::Accepted(_, stopped) = &outcome {
                for id in stopped {
                    self.ops.emit(
                        "signal-stopped",
                        json!({"signal": id, "reason": format!("stop-snapshot signal {}", signal.id)}),
                    )?;
                }
            }
            match outcome {
                Applied::Rejected(_) => tracing::warn!("signal {} rejected: {reason}", signal.id),
                _ => tracing::info!("signal {} ({}): {reason}", signal.id, signal.type_name()),
            }
            self.spool.finish(&p, file_outcome)?;
        }
        Ok(n)
    }
}

/// Add a finished signal to the offsets' history (newest last, bounded).
pub fn record(offsets: &mut Offsets, signal: &Signal, outcome: &str, reason: &str) {
    record_id(offsets, &signal.id, signal.type_name(), outcome, reason);
}

pub fn record_id(offsets: &mut Offsets, id: &str, kind: &str, outcome: &str, reason: &str) {
    offsets.signal_history.push(SignalOutcome {
        id: id.to_string(),
        kind: kind.to_string(),
        outcome: outcome.to_string(),
        reason: reason.to_string(),
        ts_ms: cdc_core::civil::now_ms(),
    });
    let extra = offsets.signal_history.len().saturating_sub(SIGNAL_HISTORY);
    offsets.signal_history.drain(..extra);
}

fn initial_running(o: &Offsets) -> bool {
    o.snapshot.as_ref().is_some_and(|s| !s.completed)
}

/// What the database says about a filter itself (not about reaching it).
pub(super) fn refuses_filter(e: &crate::errors::CdcError) -> bool {
    use crate::errors::CdcError as E;
    matches!(
        e,
        E::Database(_)
            | E::FilterFailed { .. }
            | E::UnknownTable { .. }
            | E::Privilege { .. }
            | E::ContainerUnreachable(_)
            | E::Settings { .. }
    )
}

fn is_duplicate(signal: &Signal, o: &Offsets) -> bool {
    o.signals.iter().any(|x| x.id == signal.id)
        || o.signal_history.iter().any(|x| x.id == signal.id)
}

fn apply(signal: &Signal, o: &mut Offsets, decisions: &[Decision], s: &Settings) -> Applied {
    if is_duplicate(signal, o) {
        return Applied::Duplicate;
    }
    match &signal.action {
        Action::ExecuteSnapshot {
            tables,
            kind,
            filters,
        } => {
            for t in tables {
                if s.signal.data_collection.as_ref() == Some(t) {
                    return Applied::Rejected(format!("{t} is the signal table"));
                }
                match decisions.iter().find_map(|d| match d {
                    Decision::Capture(c) if c.name() == t => Some(Ok(())),
                    Decision::Skip { table, reason } if table == t => Some(Err(reason.clone())),
                    _ => None,
                }) {
                    Some(Ok(())) => {}
                    Some(Err(reason)) => {
                        return Applied::Rejected(format!("{t} is not snapshotted: {reason}"))
                    }
                    None => {
                        return Applied::Rejected(format!(
                            "{t} is not captured (cdc.tables.include / cdc.tables.exclude, or no such table)"
                        ))
                    }
                }
            }
            let busy = if initial_running(o) {
                Some("the initial snapshot".to_string())
            } else {
                o.signals
                    .first()
                    .map(|r| format!("signal snapshot {}", r.id))
            };
            if let Some(running) = &busy {
                if !s.signal.queue {
                    return Applied::Rejected(format!(
                        "{running} is running (cdc.signal.concurrent=reject; set it to queue to run snapshots one after the other)"
                    ));
                }
            }
            o.signals.push(SignalSnapshot {
                id: signal.id.clone(),
                kind: kind.as_str().to_string(),
                tables: tables.iter().map(|t| t.to_string()).collect(),
                filters: filters
                    .iter()
                    .map(|(t, f)| (t.to_string(), f.clone()))
                    .collect(),
                ..Default::default()
            });
            Applied::Accepted(
                match busy {
                    Some(running) => format!("queued after {running}"),
                    None => format!("{} snapshot started", kind.as_str()),
                },
                Vec::new(),
            )
        }
        Action::PauseSnapshot => {
            if initial_running(o) {
                if let Some(st) = o.snapshot.as_mut() {
                    if st.paused {
                        return Applied::Rejected("the initial snapshot is already paused".into());
                    }
                    st.paused = true;
                }
                return Applied::Accepted("paused the initial snapshot".into(), Vec::new());
            }
            match o.signals.first_mut() {
                Some(r) if r.paused => {
                    Applied::Rejected(format!("signal snapshot {} is already paused", r.id))
                }
                Some(r) => {
                    r.paused = true;
                    Applied::Accepted(format!("paused signal snapshot {}", r.id), Vec::new())
                }
                None => Applied::Rejected("no snapshot is running".into()),
            }
        }
        // Debezium's `Log` action: the message, at INFO (the ops event carries it too).
        Action::Log { message } => {
            let message = crate::signal::loggable(message);
            tracing::info!("signal {}: {message}", signal.id);
            Applied::Accepted(format!("logged: {message}"), Vec::new())
        }
        Action::ResumeSnapshot => {
            if let Some(st) = o.snapshot.as_mut().filter(|s| !s.completed && s.paused) {
                st.paused = false;
                return Applied::Accepted("resumed the initial snapshot".into(), Vec::new());
            }
            match o.signals.first_mut() {
                Some(r) if r.paused => {
                    r.paused = false;
                    Applied::Accepted(format!("resumed signal snapshot {}", r.id), Vec::new())
                }
                _ => Applied::Rejected("no snapshot is paused".into()),
            }
        }
        Action::SetThrottle {
            rows_per_second,
            tables,
        } => {
            for t in tables {
                if !decisions
                    .iter()
                    .any(|d| matches!(d, Decision::Capture(c) if c.name() == t))
                {
                    return Applied::Rejected(format!("{t} is not a snapshotted table"));
                }
            }
            let rate = match rows_per_second {
                0 => "no limit".to_string(),
                n => format!("{n} rows per second"),
            };
            let which = match tables.is_empty() {
                true => "snapshot throttle".to_string(),
                false => format!(
                    "snapshot throttle of {}",
                    tables
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            Applied::Accepted(
                format!("{which}: {rate} (until capture restarts)"),
                Vec::new(),
            )
        }
        Action::StopSnapshot { tables } => {
            if o.signals.is_empty() {
                return Applied::Rejected(
                    "no signal snapshot is running (the initial snapshot is not stopped by signals: pause it, or use `offsets edit mark-done`)"
                        .into(),
                );
            }
            let mut stopped = Vec::new();
            let mut narrowed = Vec::new();
            let names: Vec<String> = tables.iter().map(|t| t.to_string()).collect();
            for r in o.signals.iter_mut() {
                if names.is_empty() {
                    stopped.push(r.id.clone());
                    continue;
                }
                let before = r.tables.len();
                r.tables.retain(|t| !names.contains(t));
                r.progress.retain(|t, _| !names.contains(t));
                if r.tables.is_empty() {
                    stopped.push(r.id.clone());
                } else if r.tables.len() != before {
                    narrowed.push(r.id.clone());
                }
            }
            if stopped.is_empty() && narrowed.is_empty() {
                return Applied::Rejected(format!("no signal snapshot reads {}", names.join(", ")));
            }
            let gone: Vec<SignalSnapshot> = o
                .signals
                .iter()
                .filter(|r| stopped.contains(&r.id))
                .cloned()
                .collect();
            o.signals.retain(|r| !stopped.contains(&r.id));
            for r in gone {
                record_id(
                    o,
                    &r.id,
                    "execute-snapshot",
                    "stopped",
                    &format!("stop-snapshot signal {}", signal.id),
                );
            }
            let mut how = Vec::new();
            if !stopped.is_empty() {
                how.push(format!("stopped {}", stopped.join(", ")));
            }
            if !narrowed.is_empty() {
                how.push(format!(
                    "removed {} from {}",
                    names.join(", "),
                    narrowed.join(", ")
                ));
            }
            Applied::Accepted(how.join("; "), stopped)
        }
    }
}
