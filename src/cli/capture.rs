//! `oracle-cdc capture`.

use super::args::{CaptureArgs, GlobalArgs};
use super::progress::{SnapshotProgress, Spinner};
use super::Printer;
use crate::capture::status::{Board, State};
use crate::capture::{Capture, CaptureEnd};
use crate::snapshot::Progress;
use crate::source;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// What the first Ctrl-C does in capture's `state` (`None`: no state shown yet), said truly:
/// a snapshot finishes the chunks it reads; streaming finishes the call that mines up to the
/// SCN it aimed at (every LogMiner window to it, their transactions published, offsets saved),
/// since the stop is looked at between those calls; a wait for redo or an idle loop ends at once.
pub(super) fn stop_message(state: Option<State>) -> &'static str {
    match state {
        Some(State::Snapshotting) => super::snapshot::SNAPSHOT_STOP_MESSAGE,
        Some(State::Mining | State::Paused) => {
            "stopping after the redo being mined is published and its offsets saved; Ctrl-C again to stop at once"
        }
        Some(State::PausedForFlowControl) => {
            "stopping: the offsets keep what the sink has acknowledged, nothing more is sent (a Kafka broker that does not answer is not waited for); Ctrl-C again to stop at once"
        }
        Some(State::WaitingForRedo | State::Idle) => {
            "stopping: nothing is being read, the offsets are saved as they are; Ctrl-C again to stop at once"
        }
        Some(State::Starting | State::Stopping) | None => {
            "stopping once the start is done, before anything is read; Ctrl-C again to stop at once"
        }
    }
}

/// Capture's progress, keeping the state the status board shows for the stop message.
struct PhaseWatch<'a> {
    progress: &'a SnapshotProgress,
    phase: Arc<Mutex<Option<State>>>,
}

impl Progress for PhaseWatch<'_> {
    fn tables_planned(&self, total: u64, done: u64) {
        self.progress.tables_planned(total, done);
    }
    fn table_started(&self, table: &str, estimated_rows: Option<u64>, rows_done: u64) {
        self.progress
            .table_started(table, estimated_rows, rows_done);
    }
    fn rows_read(&self, table: &str, rows: u64) {
        self.progress.rows_read(table, rows);
    }
    fn table_finished(&self, table: &str, rows: u64) {
        self.progress.table_finished(table, rows);
    }
    fn capture_status(&self, board: &Board) {
        if let Ok(mut p) = self.phase.lock() {
            *p = Some(board.state);
        }
        self.progress.capture_status(board);
    }
}

pub fn run(a: CaptureArgs, global: &GlobalArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let settings = super::load_settings(global)?;
    crate::capture::check_source(&settings)?;
    let connector = {
        let _opening = Spinner::new(
            printer.quiet,
            &format!(
                "opening {}",
                crate::settings::redact_url(settings.database_url())
            ),
        );
        source::open(&settings)?
    };
    // The state the status board showed last: the stop message says what that state finishes.
    let phase: Arc<Mutex<Option<State>>> = Arc::default();
    let stop = {
        let phase = phase.clone();
        super::snapshot::stop_flag_saying(move || stop_message(phase.lock().ok().and_then(|p| *p)))
    };
    let progress = SnapshotProgress::capture(printer.quiet);
    let watched = PhaseWatch {
        progress: &progress,
        phase,
    };
    let capture = Capture {
        connector: connector.as_ref(),
        settings: &settings,
        progress: &watched,
        stop: &|| stop.load(Ordering::SeqCst),
        stop_at: a.stop_at_scn,
    };
    let (end, summary) = capture
        .run()
        .map_err(|e| with_snapshot_state(e, &settings))?;
    progress.finish();
    // stdout may be the sink: the summary goes to stderr.
    let position = summary
        .position
        .as_ref()
        .map(|p| {
            format!(
                "published through commit SCN {}, resume at SCN {}",
                p.commit_scn, p.resume_scn
            )
        })
        .unwrap_or_else(|| "nothing published yet".into());
    printer.note(&format!(
        "{}: {} records ({} snapshot rows, {} transactions) this run, {}; {position}",
        match end {
            CaptureEnd::Stopped => "stopped".to_string(),
            CaptureEnd::ReachedScn(s) => format!("reached SCN {s}"),
        },
        summary.records,
        summary.snapshot_rows,
        summary.transactions,
        super::live::capture_destination(&settings.sink),
    ));
    Ok(ExitCode::SUCCESS)
}

/// The stdout sink's reader went away: say where the snapshot stands, from the offsets the
/// last acknowledgement stored, so the operator knows whether a start must finish it.
fn with_snapshot_state(
    e: crate::errors::CdcError,
    settings: &crate::settings::Settings,
) -> crate::errors::CdcError {
    let crate::errors::CdcError::Coded {
        code: crate::errors::Code::Cdc6402,
        message,
    } = &e
    else {
        return e;
    };
    let path = crate::state::StateDir::new(&settings.state_dir).offsets();
    let state = match crate::offsets::Offsets::load(&path) {
        Ok(Some(o)) => match o.snapshot {
            Some(s) if s.completed => "the snapshot was finished".to_string(),
            Some(s) => format!(
                "the snapshot was not finished ({} snapshot records acknowledged; the next start resumes it)",
                s.records
            ),
            None => "no snapshot was running".to_string(),
        },
        _ => return e,
    };
    crate::errors::CdcError::coded(crate::errors::Code::Cdc6402, format!("{message}; {state}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stop_message_says_what_each_state_finishes() {
        // Issue 37: streaming was told "after the chunks being read", which only a snapshot reads.
        for state in State::ALL {
            let m = stop_message(Some(*state));
            assert!(
                m.ends_with("Ctrl-C again to stop at once"),
                "{state:?}: {m}"
            );
            assert_eq!(
                m.contains("chunks"),
                *state == State::Snapshotting,
                "{state:?}: {m}"
            );
        }
        assert!(stop_message(Some(State::Mining)).contains("redo being mined is published"));
        assert!(stop_message(Some(State::WaitingForRedo)).contains("nothing is being read"));
        assert!(stop_message(None).contains("before anything is read"));
    }
}
