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
    let (end, summary) = capture.run()?;
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
