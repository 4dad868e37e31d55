//! `oracle-cdc capture`.

use super::args::{CaptureArgs, GlobalArgs};
use super::progress::{SnapshotProgress, Spinner};
use super::Printer;
use crate::capture::{Capture, CaptureEnd};
use crate::source;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

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
    let stop = super::snapshot::stop_flag();
    let progress = SnapshotProgress::capture(printer.quiet);
    let capture = Capture {
        connector: connector.as_ref(),
        settings: &settings,
        progress: &progress,
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
        .unwrap_or_default();
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
