//! The one printer: results to stdout (tables or JSON), messages to stderr, colour decided once.

use super::args::ColorChoice;
use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};
use std::io::{self, IsTerminal, Write};

/// Whether to colour a stream: `--color always|never`, else (auto) when it is a terminal and
/// NO_COLOR is unset or empty. The tables (stdout) and the logs (stderr) decide alike.
pub fn use_color(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && terminal,
    }
}

pub struct Printer {
    pub quiet: bool,
    pub color: bool,
    stdout: io::Stdout,
}

impl Printer {
    pub fn new(choice: ColorChoice, quiet: bool) -> Printer {
        let color = use_color(choice, io::stdout().is_terminal());
        Printer {
            quiet,
            color,
            stdout: io::stdout(),
        }
    }

    /// Write a result line to stdout.
    pub fn line(&self, text: &str) -> io::Result<()> {
        let mut out = self.stdout.lock();
        out.write_all(text.as_bytes())?;
        out.write_all(b"\n")
    }

    /// stdout, for a command whose results stream (`emulator dump`).
    pub fn stdout_lock(&self) -> io::StdoutLock<'static> {
        self.stdout.lock()
    }

    /// Write raw result bytes to stdout.
    pub fn raw(&self, bytes: &[u8]) -> io::Result<()> {
        self.stdout.lock().write_all(bytes)
    }

    pub fn json(&self, value: &serde_json::Value) -> io::Result<()> {
        let text = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
        self.line(&text)
    }

    /// A table for humans. Colour only when stdout is a terminal or --color=always.
    pub fn table(&self, header: &[&str], rows: Vec<Vec<String>>) -> io::Result<()> {
        let mut t = Table::new();
        t.load_preset(UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_header(header.to_vec());
        if !self.color {
            t.force_no_tty();
        }
        if !io::stdout().is_terminal() {
            // Keep tables readable in files and pipes; --format json is there for programs.
            t.set_width(120);
        }
        for r in rows {
            t.add_row(r);
        }
        self.line(&t.to_string())
    }

    /// A table of styled cells (e.g. coloured by severity). Styles show only with colour on
    /// (`--color always` styles even into a pipe; `never` and NO_COLOR never do).
    pub fn styled_table(
        &self,
        header: Vec<comfy_table::Cell>,
        rows: Vec<Vec<comfy_table::Cell>>,
    ) -> io::Result<()> {
        let mut t = Table::new();
        t.load_preset(UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_header(header);
        if self.color {
            t.enforce_styling();
        } else {
            t.force_no_tty();
        }
        if !io::stdout().is_terminal() {
            t.set_width(120);
        }
        for r in rows {
            t.add_row(r);
        }
        self.line(&t.to_string())
    }

    /// What a command that changes something did ("created demo-db: …"), on stdout; hidden
    /// with --quiet, which leaves only results (what a command is run to show) and errors.
    pub fn outcome(&self, text: &str) -> io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        self.line(text)
    }

    /// A note for the operator on stderr (hidden with --quiet).
    pub fn note(&self, text: &str) {
        if !self.quiet {
            super::stderr::line(text);
        }
    }

    pub fn flush(&self) -> io::Result<()> {
        self.stdout.lock().flush()
    }
}
