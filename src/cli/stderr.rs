//! Every write to stderr goes through here: a reader of the logs that went away (stderr a
//! closed pipe, `2>&1 | head` after `head` exited) must not stop the work. `eprintln!` panics
//! on a failed write (a panic in a snapshot worker left capture waiting forever for it) and
//! tracing-subscriber reports a failed write with `eprintln!` of its own; here a failed write
//! is dropped, and after a broken pipe nothing more is tried (each attempt would fail alike).

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set at the first broken pipe on stderr: the reader is gone for good.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Write `text` to stderr; a failure is dropped (there is nowhere left to say it).
pub fn write(text: &str) {
    let _ = Stderr.write_all(text.as_bytes());
}

/// Write `text` and a newline to stderr, as one write (lines from threads do not interleave).
pub fn line(text: &str) {
    let mut s = String::with_capacity(text.len() + 1);
    s.push_str(text);
    s.push('\n');
    write(&s);
}

/// Whether stderr was found to be a closed pipe.
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// stderr as a writer that never fails: what cannot be written is dropped. The writer of the
/// logs (tracing) and of the progress lines.
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

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Stderr {
    type Writer = Stderr;

    fn make_writer(&'a self) -> Self::Writer {
        Stderr
    }
}
