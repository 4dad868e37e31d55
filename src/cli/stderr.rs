//! Every write to stderr goes through here: a reader of the logs that went away (stderr a
//! closed pipe, `2>&1 | head` after `head` exited) must not stop the work. `eprintln!` panics
//! on a failed write (a panic in a snapshot worker left capture waiting forever for it) and
//! tracing-subscriber reports a failed write with `eprintln!` of its own; here a failed write
//! is dropped, and after a broken pipe nothing more is tried (each attempt would fail alike).

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Set at the first broken pipe on stderr: the reader is gone for good.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether this process's last write to stderr ended a line (a `[y/N] ` question does not).
static AT_LINE_START: AtomicBool = AtomicBool::new(true);

/// Clears the terminal line the cursor is on and returns to its start.
const CLEAR_LINE: &str = "\r\x1b[2K";

/// Write `text` to stderr; a failure is dropped (there is nowhere left to say it).
pub fn write(text: &str) {
    AT_LINE_START.store(text.ends_with('\n'), Ordering::Relaxed);
    let _ = Stderr.write_all(text.as_bytes());
}

/// Write `text` and a newline to stderr, as one write (lines from threads do not interleave),
/// on a line of its own (see [`line_start`]).
pub fn line(text: &str) {
    let start = line_start();
    let mut s = String::with_capacity(start.len() + text.len() + 1);
    s.push_str(start);
    s.push_str(text);
    s.push('\n');
    write(&s);
}

/// What a message starts with so that it stands on a line of its own on a terminal: there the
/// cursor may sit at the end of a progress line (another process's, as the README's capture
/// whose status line a background workload writes under, or this one's spinner), and a message
/// written there runs on from it. Clearing that line first puts the message at its start; the
/// progress line is redrawn below on its next tick. Nothing off a terminal (a file or pipe
/// keeps the bytes as written), on a `TERM=dumb` one, or after this process's own unfinished
/// line (the answer to a `[y/N] ` question stays beside it).
fn line_start() -> &'static str {
    static ON_TERMINAL: OnceLock<bool> = OnceLock::new();
    let on_terminal = *ON_TERMINAL.get_or_init(|| {
        io::stderr().is_terminal() && std::env::var("TERM").map_or(true, |t| t != "dumb")
    });
    if on_terminal && AT_LINE_START.load(Ordering::Relaxed) {
        CLEAR_LINE
    } else {
        ""
    }
}

/// Whether stderr was found to be a closed pipe.
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// stderr as a writer that never fails: what cannot be written is dropped.
#[derive(Clone, Copy, Default)]
pub struct Stderr;

impl Write for Stderr {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !closed() {
            if let Err(e) = io::stderr().write_all(buf) {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    CLOSED.store(true, Ordering::Relaxed);
                }
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !closed() {
            let _ = io::stderr().flush();
        }
        Ok(())
    }
}

/// The writer of the logs: each event is one formatted line, written with [`line`] (on a line
/// of its own), or above the progress bars while they are drawn.
#[derive(Default)]
pub struct LogLine(Vec<u8>);

impl Write for LogLine {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for LogLine {
    fn drop(&mut self) {
        if self.0.is_empty() {
            return;
        }
        let text = String::from_utf8_lossy(&self.0);
        super::progress::note(text.strip_suffix('\n').unwrap_or(&text));
    }
}

/// Makes a [`LogLine`] per event.
#[derive(Clone, Copy, Default)]
pub struct Logs;

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Logs {
    type Writer = LogLine;

    fn make_writer(&'a self) -> Self::Writer {
        LogLine::default()
    }
}
