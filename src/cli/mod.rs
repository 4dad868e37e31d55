//! The command-line edge: parse, load settings, dispatch, print errors with their codes.
//! `anyhow` is used here and only here.

pub mod args;
mod capture;
pub mod complete;
pub mod docs;
pub mod doctor;
mod emulator;
mod explain;
mod live;
mod offsets;
mod printer;
mod progress;
mod signal;
mod snapshot;
pub(crate) mod stderr;

use crate::errors::{CdcError, Code};
use crate::settings::{LoadOptions, Settings};
use args::{Cli, Command};
use clap::{CommandFactory, Parser};
pub use printer::Printer;
use std::process::ExitCode;

/// Run the binary with these arguments; returns the process exit code.
pub fn run<I, T>(argv: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let argv: Vec<std::ffi::OsString> = argv.into_iter().map(Into::into).collect();
    // The completion scripts' hook: before clap (it is no command of the help or the man
    // pages) and before logging (a TAB shows no warnings).
    if argv.get(1).is_some_and(|a| a == complete::HOOK) {
        return complete::run(&argv[2..]);
    }
    let argv = help_command(argv);
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => return clap_error(e),
    };
    init_logging(&cli.global);
    let printer = Printer::new(cli.global.color, cli.global.quiet);
    match dispatch(cli, &printer).and_then(|code| {
        printer.flush()?;
        Ok(code)
    }) {
        Ok(code) => code,
        Err(e) => report(e),
    }
}

/// `oracle-cdc [GLOBAL…] help [COMMAND…]` is `oracle-cdc [GLOBAL…] [COMMAND…] --help`, as in
/// git, cargo and kubectl. (clap's own `help` subcommand is off: it would add a `help` command
/// to every command group's man pages and completions.)
fn help_command(mut argv: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    // The global options that take a separate value.
    const WITH_VALUE: &[&str] = &["-c", "--config", "--set", "--color"];
    let mut i = 1;
    while let Some(arg) = argv.get(i).and_then(|a| a.to_str()) {
        if arg == "--" {
            return argv;
        }
        if arg.starts_with('-') {
            i += if WITH_VALUE.contains(&arg) { 2 } else { 1 };
            continue;
        }
        if arg == "help" {
            argv.remove(i);
            argv.push("--help".into());
        }
        return argv;
    }
    argv
}

fn clap_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Help and version go to stdout; a closed pipe is fine.
            let _ = e.print();
            ExitCode::SUCCESS
        }
        _ => {
            let text = e.render().to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            stderr::write(&format!("{}: {text}", Code::Cdc1006));
            ExitCode::from(2)
        }
    }
}

fn init_logging(global: &args::GlobalArgs) {
    let quiet = format!("error,{}=warn", crate::ops::STALL_LOG_TARGET);
    let level = if global.quiet {
        quiet.as_str()
    } else {
        match global.verbose {
            0 => "warn",
            1 => "info",
            2 => "debug",
            _ => "trace",
        }
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("ORACLE_CDC_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    use std::io::IsTerminal;
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(printer::use_color(
            global.color,
            std::io::stderr().is_terminal(),
        ))
        .with_writer(stderr::Logs)
        // Its own report of a failed write is an `eprintln!`, which panics on a closed stderr.
        .log_internal_errors(false)
        .with_target(false)
        .try_init();
}

/// Load settings from the global options and the process environment.
pub fn load_settings(global: &args::GlobalArgs) -> Result<Settings, CdcError> {
    for warning in crate::settings::secrets_on_command_line(&global.set) {
        tracing::warn!("{warning}");
    }
    let s = Settings::load(
        &LoadOptions {
            config: global.config.clone(),
            sets: global.set.clone(),
            env: Vec::new(),
            strict: global.strict,
        }
        .with_process_env(),
    )?;
    crate::localfs::set_group_readable(s.files_group_readable);
    Ok(s)
}

fn dispatch(cli: Cli, printer: &Printer) -> anyhow::Result<ExitCode> {
    if cli.global.print_settings {
        let settings = load_settings(&cli.global)?;
        let rows = settings
            .effective()
            .into_iter()
            .map(|(k, v, o)| vec![k, v, o])
            .collect();
        printer.table(&["key", "value", "origin"], rows)?;
        return Ok(ExitCode::SUCCESS);
    }
    let Some(command) = cli.command else {
        let mut cmd = Cli::command();
        stderr::line(&cmd.render_help().to_string());
        return Ok(ExitCode::from(2));
    };
    match command {
        Command::Explain(a) => explain::run(&a, printer),
        Command::Completions(a) => {
            printer.raw(&docs::completion(a.shell, "oracle-cdc"))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Man(a) => man(&a, printer),
        Command::Emulator(c) => emulator::run(c, &cli.global, printer),
        Command::Capture(a) => capture::run(a, &cli.global, printer),
        Command::Snapshot(a) => snapshot::snapshot(a, &cli.global, printer),
        Command::PlanChunks(a) => snapshot::plan_chunks(a, &cli.global, printer),
        Command::Doctor(a) => doctor::run(a, &cli.global, printer),
        Command::Offsets(c) => offsets::run(c, &cli.global, printer),
        Command::Signal(args::SignalCommand::Send(a)) => signal::send(a, &cli.global, printer),
    }
}

fn man(a: &args::ManArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let pages = docs::man_pages()?;
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir).map_err(|e| CdcError::io(dir, e))?;
        for (name, text) in &pages {
            let path = dir.join(name);
            std::fs::write(&path, text).map_err(|e| CdcError::io(&path, e))?;
        }
        printer.note(&format!(
            "wrote {} man pages to {}",
            pages.len(),
            dir.display()
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let mut name = String::from("oracle-cdc");
    for part in &a.command {
        for p in part.split([' ', '-']).filter(|p| !p.is_empty()) {
            name.push('-');
            name.push_str(p);
        }
    }
    match pages.get(&format!("{name}.1")) {
        Some(page) => {
            printer.raw(page)?;
            Ok(ExitCode::SUCCESS)
        }
        None => Err(CdcError::Argument(format!(
            "no man page for `{}`; pages: {}",
            a.command.join(" "),
            pages
                .keys()
                .map(|k| k.trim_end_matches(".1"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .into()),
    }
}

/// Print an error (starting with its code) and its remedy; choose the exit code.
fn report(e: anyhow::Error) -> ExitCode {
    if let Some(io) = e.downcast_ref::<std::io::Error>() {
        if io.kind() == std::io::ErrorKind::BrokenPipe {
            return ExitCode::SUCCESS;
        }
    }
    match e.downcast_ref::<CdcError>() {
        Some(cdc) => {
            if let CdcError::Io { source, .. } = cdc {
                if source.kind() == std::io::ErrorKind::BrokenPipe {
                    return ExitCode::SUCCESS;
                }
            }
            let info = cdc.code().info();
            stderr::line(&format!(
                "{cdc}\n  remedy: {}\n  more: oracle-cdc explain {}",
                info.remedy, info.code
            ));
            ExitCode::from(cdc.exit_code())
        }
        None => {
            stderr::line(&format!("{}: {e:#}", Code::Cdc6001));
            ExitCode::from(1)
        }
    }
}
