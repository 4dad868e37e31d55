//! `oracle-cdc doctor` and the `oracle-cdc-doctor` binary: run the pre-flight checks
//! (`crate::doctor`) and print them, grouped by area, coloured by severity, then a summary line.

use super::args::{
    DoctorArgs, GlobalArgs, TableFormat, DOCTOR_ABOUT, DOCTOR_EXIT_CODES, DOCTOR_LONG_ABOUT,
};
use super::Printer;
use crate::doctor::{self, Area, CheckResult, Report, Selection, Severity};
use crate::errors::CdcError;
use clap::Parser;
use comfy_table::{Attribute, Cell, Color};
use crossterm::style::Stylize;
use serde_json::json;
use std::process::ExitCode;

/// The `oracle-cdc-doctor` command line: the global options and doctor's own, nothing else.
#[derive(Debug, Parser)]
#[command(
    name = "oracle-cdc-doctor",
    version,
    about = DOCTOR_ABOUT,
    long_about = DOCTOR_LONG_ABOUT,
    after_long_help = DOCTOR_EXIT_CODES,
    disable_help_subcommand = true
)]
pub struct DoctorCli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(flatten)]
    pub args: DoctorArgs,
}

/// `main` of the `oracle-cdc-doctor` binary: the same options, output and exit codes as
/// `oracle-cdc doctor`.
pub fn main<I, T>(argv: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match DoctorCli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => return super::clap_error(e),
    };
    super::init_logging(&cli.global);
    let printer = Printer::new(cli.global.color, cli.global.quiet);
    let outcome = if cli.global.print_settings {
        print_settings(&cli.global, &printer)
    } else {
        run(cli.args, &cli.global, &printer)
    };
    match outcome.and_then(|code| {
        printer.flush()?;
        Ok(code)
    }) {
        Ok(code) => code,
        Err(e) => super::report(e),
    }
}

/// `--print-settings`, as `oracle-cdc` prints it.
fn print_settings(global: &GlobalArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let settings = super::load_settings(global)?;
    let rows = settings
        .effective()
        .into_iter()
        .map(|(k, v, o)| vec![k, v, o])
        .collect();
    printer.table(&["key", "value", "origin"], rows)?;
    Ok(ExitCode::SUCCESS)
}

pub fn run(a: DoctorArgs, global: &GlobalArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let settings = super::load_settings(global)?;
    let selection = Selection {
        only: a.check,
        skip: a.skip,
    };
    let unknown = selection.unknown();
    if !unknown.is_empty() {
        return Err(CdcError::Argument(format!(
            "unknown check {}; checks and areas: {}",
            unknown.join(", "),
            doctor::selectors().join(", ")
        ))
        .into());
    }
    let report = doctor::run(&settings, &selection);
    let strict = global.strict || a.fail_on == Some(super::args::FailOn::Warn);
    let code = report.exit_code(strict);
    match a.format {
        TableFormat::Json => printer.json(&to_json(&report, strict))?,
        TableFormat::Table => print_tables(&report, strict, printer)?,
    }
    Ok(ExitCode::from(code))
}

/// The report for programs: the same content as the tables, with what produced it and when.
pub fn to_json(report: &Report, strict: bool) -> serde_json::Value {
    json!({
        "tool": { "name": "oracle-cdc", "version": env!("CARGO_PKG_VERSION") },
        "checked_at": report.checked_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "target": report.target,
        "database": report.database,
        "summary": report.summary(),
        "strict": strict,
        "exit_code": report.exit_code(strict),
        "checks": report.results,
    })
}

fn severity_cell(s: Severity) -> Cell {
    let cell = Cell::new(s.as_str());
    match s {
        Severity::Pass => cell.fg(Color::Green),
        Severity::Warn => cell.fg(Color::Yellow).add_attribute(Attribute::Bold),
        Severity::Fail => cell.fg(Color::Red).add_attribute(Attribute::Bold),
        Severity::Skip => cell.fg(Color::DarkGrey),
    }
}

fn print_tables(report: &Report, strict: bool, printer: &Printer) -> std::io::Result<()> {
    printer.line(&format!("oracle-cdc doctor: {}", report.target))?;
    for area in Area::ALL {
        let results: Vec<_> = report.results.iter().filter(|r| r.area == *area).collect();
        if results.is_empty() {
            continue;
        }
        let rows = results
            .iter()
            .map(|r| {
                let details = match r.severity {
                    Severity::Warn | Severity::Fail => format!("{}\nwhy: {}", r.found, r.why),
                    _ => r.found.clone(),
                };
                vec![
                    Cell::new(r.id),
                    severity_cell(r.severity),
                    Cell::new(details),
                    Cell::new(fix_kinds(r)),
                ]
            })
            .collect();
        let header = [area.name(), "result", "found", "fix"]
            .into_iter()
            .map(Cell::new)
            .collect();
        printer.styled_table(header, rows)?;
        // Fixes go below the table, unwrapped, so each block can be copied whole.
        for line in fix_blocks(&results) {
            printer.line(&line)?;
        }
    }
    let s = report.summary();
    let mut parts = vec![
        paint(printer, format!("{} FAIL", s.fail), Severity::Fail, s.fail),
        paint(printer, format!("{} WARN", s.warn), Severity::Warn, s.warn),
        paint(printer, format!("{} PASS", s.pass), Severity::Pass, s.pass),
    ];
    if s.skip > 0 {
        parts.push(paint(
            printer,
            format!("{} SKIP", s.skip),
            Severity::Skip,
            s.skip,
        ));
    }
    let verdict = match (s.fail, s.warn, strict) {
        (0, 0, _) => "ready".to_string(),
        (0, _, false) => "ready, with warnings".to_string(),
        (0, _, true) => "not ready: warnings fail with --fail-on warn".to_string(),
        _ => "not ready: fix the FAIL rows first".to_string(),
    };
    printer.line(&format!("summary: {} — {verdict}", parts.join(", ")))
}

/// Where `part` starts in the whole fix: blocks are listed in the order the fix gives them
/// (the first alternative first).
fn position(r: &CheckResult, part: &str) -> usize {
    let first = part.lines().next().unwrap_or_default();
    r.fix.as_deref().and_then(|f| f.find(first)).unwrap_or(0)
}

/// The fix's parts that are there, in the fix's order, with the name of each kind.
fn parts(r: &CheckResult) -> Vec<(&'static str, &str)> {
    let mut parts: Vec<(&'static str, &str)> = [
        ("SQL", &r.fix_sql),
        ("settings", &r.fix_settings),
        ("steps", &r.fix_steps),
    ]
    .into_iter()
    .filter_map(|(kind, part)| part.as_deref().map(|p| (kind, p)))
    .collect();
    parts.sort_by_key(|(_, p)| position(r, p));
    parts
}

/// What the fix column says: which blocks below the table hold the fix.
fn fix_kinds(r: &CheckResult) -> String {
    let kinds: Vec<&str> = parts(r).into_iter().map(|(kind, _)| kind).collect();
    if kinds.is_empty() {
        String::new()
    } else {
        format!("{} below", kinds.join(", "))
    }
}

/// The fixes of `results`, as blocks to copy: SQL under a `--` heading, settings lines under a
/// `#` heading (each heading a comment of its own language, so copying it along is harmless),
/// steps as a list. Every block is preceded by a blank line.
pub fn fix_blocks(results: &[&CheckResult]) -> Vec<String> {
    let mut out = Vec::new();
    for r in results {
        let sev = r.severity.as_str();
        for (kind, part) in parts(r) {
            out.push(String::new());
            match kind {
                "SQL" => {
                    out.push(format!("-- fix {} ({sev}): SQL, as a DBA", r.id));
                    out.extend(part.lines().map(str::to_string));
                }
                "settings" => {
                    out.push(format!("# fix {} ({sev}): settings file lines", r.id));
                    out.extend(part.lines().map(str::to_string));
                }
                _ => {
                    out.push(format!("fix {} ({sev}):", r.id));
                    out.extend(part.lines().map(|l| format!("  - {l}")));
                }
            }
        }
    }
    if !out.is_empty() {
        out.push(String::new());
    }
    out
}

/// A summary count, coloured by its severity when it is not zero and colour is on.
fn paint(printer: &Printer, text: String, s: Severity, n: usize) -> String {
    if !printer.color || n == 0 {
        return text;
    }
    match s {
        Severity::Pass => text.green().to_string(),
        Severity::Warn => text.yellow().bold().to_string(),
        Severity::Fail => text.red().bold().to_string(),
        Severity::Skip => text.dark_grey().to_string(),
    }
}
