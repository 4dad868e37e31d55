//! The stdout sink: JSON lines to a reader (no exactly-once: a restart repeats what was not
//! acknowledged, that is flushed to the reader).

use super::RecordSink;
use crate::errors::{CdcError, Result};
use crate::offsets::SinkPosition;
use crate::record::{LineWriter, Record, RecordParts};
use std::io::Write;

/// Records to stdout (no exactly-once: a restart repeats what was not acknowledged).
pub struct StdoutSink {
    out: std::io::BufWriter<std::io::Stdout>,
    records: u64,
    /// Records flushed to the reader at the last commit.
    acknowledged: u64,
    /// The record being written, as its line.
    line: Vec<u8>,
    lines: LineWriter,
}

impl StdoutSink {
    pub fn new(position: Option<&SinkPosition>) -> StdoutSink {
        let records = position.map_or(0, SinkPosition::records);
        StdoutSink {
            out: std::io::BufWriter::new(std::io::stdout()),
            records,
            acknowledged: records,
            line: Vec::with_capacity(4096),
            lines: LineWriter::default(),
        }
    }

    /// A closed pipe is the reader gone, not the end of the work: capture must not exit as if
    /// it had finished (the CLI treats a broken pipe on stdout as a quiet end elsewhere).
    fn failed(&self, e: std::io::Error) -> CdcError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            reader_gone(self.acknowledged)
        } else {
            CdcError::io("<stdout>", e)
        }
    }
}

/// CDC-6402 with how much the reader had acknowledged.
pub fn reader_gone(acknowledged: u64) -> CdcError {
    CdcError::coded(
        crate::errors::Code::Cdc6402,
        format!(
            "the reader of the stdout sink went away (a closed pipe): {acknowledged} records in all were acknowledged (flushed to it); records written since are written again at the next start"
        ),
    )
}

impl RecordSink for StdoutSink {
    fn write(&mut self, record: &Record) -> Result<u64> {
        self.line.clear();
        self.lines.write(record, &mut self.line);
        self.send_line()
    }

    fn write_parts(&mut self, parts: RecordParts<'_, '_>, _scratch: &mut Vec<u8>) -> Result<u64> {
        self.line.clear();
        self.lines.write_with(
            parts.topic,
            &parts.headers,
            &mut self.line,
            parts.key,
            parts.value,
        );
        self.send_line()
    }

    fn commit(&mut self) -> Result<SinkPosition> {
        self.out.flush().map_err(|e| self.failed(e))?;
        self.acknowledged = self.records;
        Ok(SinkPosition::Stdout {
            records: self.records,
        })
    }
}

impl StdoutSink {
    /// The record written into `line`, with its newline, to stdout.
    fn send_line(&mut self) -> Result<u64> {
        self.line.push(b'\n');
        if let Err(e) = self.out.write_all(&self.line) {
            return Err(self.failed(e));
        }
        self.records += 1;
        Ok(self.line.len() as u64)
    }
}
