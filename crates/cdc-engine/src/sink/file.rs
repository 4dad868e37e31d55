//! Where capture's records go: JSON-lines segment files (exactly once across kill -9: the
//! offsets hold the acknowledged position, and a restart cuts everything after it) or stdout.

pub mod owner;

use crate::crashpoint::Point;
use crate::errors::{CdcError, Result};
use crate::offsets::SinkPosition;
use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

pub trait RecordSink {
    /// Queue one record (a JSON line without its newline).
    fn write(&mut self, line: &[u8]) -> Result<()>;
    /// Make everything queued durable and return the position to acknowledge.
    fn commit(&mut self) -> Result<SinkPosition>;
}

/// JSON-lines segment files `segment-000001.jsonl`, … rotated by size.
pub struct FileSink {
    dir: PathBuf,
    segment_bytes: u64,
    index: u64,
    file: File,
    bytes: u64,
    records: u64,
    buf: Vec<u8>,
}

/// Records are queued up to this many bytes before they are written.
const BUFFER: usize = 1 << 20;
/// The page size the writes are aligned to (4 KiB on every Linux target; a larger page only
/// makes the alignment partial, never wrong).
const PAGE: u64 = 4096;

enum Flush {
    All,
    WholePages,
}

// The segment files' names and listing are their own module (offsets edit reads them too).
pub use crate::segments::{segment_index, segment_name, segments};

/// On a capture's first start: refuse a file sink directory that already holds segments
/// (CDC-8005) and acknowledge the empty start (segment 1, 0 bytes) in `offsets`, to be stored
/// before anything is written. Without it a crash after the first write but before the first
/// acknowledgement left segments the offsets did not know, and every restart refused them
/// (found by the simulation, seed 2; `tests/all/sim.rs` keeps it).
pub fn claim_fresh(
    settings: &crate::settings::Settings,
    offsets: &mut crate::offsets::Offsets,
) -> Result<()> {
    if settings.sink.kind != crate::settings::SinkType::File || offsets.sink.is_some() {
        return Ok(());
    }
    let dir = &settings.sink.dir;
    if !segments(dir)?.is_empty() {
        return Err(CdcError::OtherExport {
            path: dir.to_path_buf(),
            reason: "it holds segment files that the stored offsets do not know (another capture's output?)".into(),
        });
    }
    offsets.sink = Some(SinkPosition {
        segment: segment_name(1),
        bytes: 0,
        records: 0,
    });
    Ok(())
}

impl FileSink {
    /// Open at the acknowledged `position`: later segments are removed and the current one cut
    /// back, so nothing written after the last acknowledgement survives a restart.
    pub fn open(
        dir: &Path,
        segment_bytes: u64,
        position: Option<&SinkPosition>,
    ) -> Result<FileSink> {
        // Not a link, not another user's, not writable by others (created 0700 when missing).
        crate::localfs::ensure_dir(dir)?;
        let existing = segments(dir)?;
        let (index, bytes, records) = match position {
            Some(p) => {
                let index = segment_index(&p.segment).ok_or_else(|| CdcError::OffsetsDamaged {
                    path: dir.join(&p.segment),
                    message: format!(
                        "sink segment name `{}` is not segment-NNNNNN.jsonl",
                        p.segment
                    ),
                })?;
                (index, p.bytes, p.records)
            }
            None => {
                // Empty segments hold nothing to lose (a start stopped before its first commit).
                let holds = |p: &PathBuf| std::fs::metadata(p).map_or(true, |m| m.len() > 0);
                if existing.iter().any(|(_, p)| holds(p)) {
                    return Err(CdcError::OtherExport {
                        path: dir.to_path_buf(),
                        reason: "it holds segment files that the stored offsets do not know (another capture's output?)".into(),
                    });
                }
                (1, 0, 0)
            }
        };
        let path = dir.join(segment_name(index));
        let mut file = crate::localfs::read_write(&path, crate::localfs::Kind::Data)?;
        let len = file.metadata().map_err(|e| CdcError::io(&path, e))?.len();
        if len < bytes {
            return Err(CdcError::OffsetsDamaged {
                path: path.clone(),
                message: format!(
                    "the segment has {len} bytes but the offsets acknowledge {bytes}{}",
                    record_ends_hint(&mut file, len.min(bytes))
                ),
            });
        }
        // Capture acknowledges whole records only: a length inside one was edited by hand, and
        // cutting there would leave a torn record.
        if bytes > 0 && byte_at(&mut file, bytes - 1).map_err(|e| CdcError::io(&path, e))? != b'\n'
        {
            return Err(CdcError::coded(
                crate::errors::Code::Cdc7010,
                format!(
                    "{}: the offsets acknowledge {bytes} bytes (sink.bytes), which is inside a record, not at its end: cutting the segment there would leave a torn record{}",
                    path.display(),
                    record_ends_hint(&mut file, bytes)
                ),
            ));
        }
        // Only after the position is known to be sound: later segments go.
        for (i, p) in &existing {
            if *i > index {
                crate::localfs::remove_file(p)?;
            }
        }
        if len > bytes {
            tracing::info!(
                "{}: cutting {} unacknowledged bytes",
                path.display(),
                len - bytes
            );
        }
        file.set_len(bytes).map_err(|e| CdcError::io(&path, e))?;
        file.seek(SeekFrom::Start(bytes))
            .map_err(|e| CdcError::io(&path, e))?;
        file.sync_all().map_err(|e| CdcError::io(&path, e))?;
        Ok(FileSink {
            dir: dir.to_path_buf(),
            segment_bytes,
            index,
            file,
            bytes,
            records,
            buf: Vec::with_capacity(BUFFER + PAGE as usize),
        })
    }

    /// Write the buffer out: all of it (`Flush::All`, before a sync), or only up to the last
    /// page boundary of the file (`Flush::WholePages`, when the buffer is full). A write that
    /// ends inside a page makes the kernel zero the rest of that new page before the next write
    /// fills it: a tenth of the stream's time went there (benches/README.md).
    fn flush_buf(&mut self, how: Flush) -> Result<()> {
        let n = match how {
            Flush::All => self.buf.len(),
            Flush::WholePages => {
                let end = self.bytes + self.buf.len() as u64;
                self.buf.len() - (end % PAGE) as usize
            }
        };
        if n == 0 {
            return Ok(());
        }
        let path = self.dir.join(segment_name(self.index));
        self.file
            .write_all(&self.buf[..n])
            .map_err(|e| CdcError::io(&path, e))?;
        self.bytes += n as u64;
        self.buf.drain(..n);
        Ok(())
    }

    fn rotate(&mut self) -> Result<()> {
        self.flush_buf(Flush::All)?;
        let path = self.dir.join(segment_name(self.index));
        self.file.sync_data().map_err(|e| CdcError::io(&path, e))?;
        self.index += 1;
        let next = self.dir.join(segment_name(self.index));
        self.file = crate::localfs::create(&next, crate::localfs::Kind::Data)?;
        self.bytes = 0;
        Ok(())
    }
}

impl RecordSink for FileSink {
    fn write(&mut self, line: &[u8]) -> Result<()> {
        crate::crashpoint::hit(Point::SinkWrite)?;
        if self.bytes + self.buf.len() as u64 > 0
            && self.bytes + (self.buf.len() + line.len() + 1) as u64 > self.segment_bytes
        {
            self.rotate()?;
        }
        self.buf.extend_from_slice(line);
        self.buf.push(b'\n');
        self.records += 1;
        if self.buf.len() > BUFFER {
            self.flush_buf(Flush::WholePages)?;
        }
        Ok(())
    }

    fn commit(&mut self) -> Result<SinkPosition> {
        self.flush_buf(Flush::All)?;
        crate::crashpoint::hit(Point::SinkCommitFlushed)?;
        let path = self.dir.join(segment_name(self.index));
        self.file.sync_data().map_err(|e| CdcError::io(&path, e))?;
        crate::crashpoint::hit(Point::SinkCommitSynced)?;
        Ok(SinkPosition {
            segment: segment_name(self.index),
            bytes: self.bytes,
            records: self.records,
        })
    }
}

fn byte_at(file: &mut File, at: u64) -> std::io::Result<u8> {
    use std::io::Read;
    let mut b = [0u8; 1];
    file.seek(SeekFrom::Start(at))?;
    file.read_exact(&mut b)?;
    Ok(b[0])
}

/// The record ends around byte `at` of a segment, as `offsets edit set-sink` commands: the last
/// one at or before it (cuts what follows: --force) and the next one (keeps every record).
fn record_ends_hint(file: &mut File, at: u64) -> String {
    use std::io::Read;
    let mut text = Vec::new();
    if file.seek(SeekFrom::Start(0)).is_err() || file.read_to_end(&mut text).is_err() {
        return String::new();
    }
    let at = (at as usize).min(text.len());
    let before = text[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let after = text[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map(|i| at + i + 1);
    let mut out = format!(
        "; `oracle-cdc offsets edit set-sink {before} --force` acknowledges the records up to byte {before} (the records after it are cut)"
    );
    if let Some(a) = after {
        out.push_str(&format!(
            ", `oracle-cdc offsets edit set-sink {a}` keeps every record up to byte {a}"
        ));
    }
    out
}

/// Records to stdout (no exactly-once: a restart repeats what was not acknowledged).
pub struct StdoutSink {
    out: std::io::BufWriter<std::io::Stdout>,
    records: u64,
    /// Records flushed to the reader at the last commit.
    acknowledged: u64,
}

impl StdoutSink {
    pub fn new(position: Option<&SinkPosition>) -> StdoutSink {
        let records = position.map(|p| p.records).unwrap_or(0);
        StdoutSink {
            out: std::io::BufWriter::new(std::io::stdout()),
            records,
            acknowledged: records,
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
    fn write(&mut self, line: &[u8]) -> Result<()> {
        self.out
            .write_all(line)
            .and_then(|_| self.out.write_all(b"\n"))
            .map_err(|e| self.failed(e))?;
        self.records += 1;
        Ok(())
    }

    fn commit(&mut self) -> Result<SinkPosition> {
        self.out.flush().map_err(|e| self.failed(e))?;
        self.acknowledged = self.records;
        Ok(SinkPosition {
            segment: "stdout".into(),
            bytes: 0,
            records: self.records,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restart_cuts_unacknowledged_output_and_rotates_by_size() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = FileSink::open(dir.path(), 30, None).unwrap();
        s.write(b"{\"n\":1}").unwrap();
        s.write(b"{\"n\":2}").unwrap();
        let acked = s.commit().unwrap();
        assert_eq!(
            (acked.segment.as_str(), acked.bytes, acked.records),
            ("segment-000001.jsonl", 16, 2)
        );
        for i in 3..10 {
            s.write(format!("{{\"n\":{i}}}").as_bytes()).unwrap();
        }
        s.commit().unwrap();
        assert!(
            segments(dir.path()).unwrap().len() > 1,
            "rotated past 30 bytes"
        );
        drop(s);
        // Restart at the first acknowledgement: later output is gone.
        let mut s = FileSink::open(dir.path(), 30, Some(&acked)).unwrap();
        assert_eq!(segments(dir.path()).unwrap().len(), 1);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("segment-000001.jsonl")).unwrap(),
            "{\"n\":1}\n{\"n\":2}\n"
        );
        s.write(b"{\"n\":3}").unwrap();
        assert_eq!(s.commit().unwrap().records, 3);
        // Files the offsets do not know are not overwritten.
        assert_eq!(
            FileSink::open(dir.path(), 30, None).err().unwrap().code(),
            crate::errors::Code::Cdc8005
        );
    }

    #[test]
    fn writes_between_commits_end_on_page_boundaries_and_lose_no_byte() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = FileSink::open(dir.path(), u64::MAX, None).unwrap();
        // An odd start (a commit of 8 bytes), then lines that overflow the buffer several times.
        s.write(b"{\"n\":0}").unwrap();
        s.commit().unwrap();
        let mut expected = b"{\"n\":0}\n".to_vec();
        let mut flushed_at = Vec::new();
        for i in 1..60_000u32 {
            let line = format!(
                "{{\"n\":{i},\"pad\":\"{}\"}}",
                "x".repeat((i % 97) as usize)
            );
            s.write(line.as_bytes()).unwrap();
            expected.extend_from_slice(line.as_bytes());
            expected.push(b'\n');
            if flushed_at.last() != Some(&s.bytes) {
                flushed_at.push(s.bytes);
            }
        }
        assert!(
            flushed_at.len() > 2,
            "the buffer was written out between commits"
        );
        for at in &flushed_at[1..] {
            assert_eq!(
                at % PAGE,
                0,
                "a write between commits ends on a page boundary"
            );
        }
        let pos = s.commit().unwrap();
        assert_eq!(pos.bytes, expected.len() as u64);
        assert_eq!(pos.records, 60_000);
        let path = dir.path().join("segment-000001.jsonl");
        assert_eq!(std::fs::read(path).unwrap(), expected);
    }
}
