//! The file sink: JSON-lines segment files, exactly once across kill -9 (the offsets hold the
//! acknowledged position, and a restart cuts everything after it).

use super::RecordSink;
use crate::crashpoint::Point;
use crate::errors::{CdcError, Result};
use crate::offsets::SinkPosition;
use crate::record::{LineWriter, Record, RecordParts};
use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// JSON-lines segment files `segment-000001.jsonl`, … rotated by size.
pub struct FileSink {
    dir: PathBuf,
    segment_bytes: u64,
    index: u64,
    file: File,
    bytes: u64,
    records: u64,
    buf: Vec<u8>,
    lines: LineWriter,
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

use crate::segments::{segment_index, segment_name, segments};

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
    offsets.sink = Some(SinkPosition::File {
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
            Some(SinkPosition::File {
                segment,
                bytes,
                records,
            }) => {
                let index = segment_index(segment).ok_or_else(|| CdcError::OffsetsDamaged {
                    path: dir.join(segment),
                    message: format!("sink segment name `{segment}` is not segment-NNNNNN.jsonl"),
                })?;
                (index, *bytes, *records)
            }
            Some(other) => {
                return Err(CdcError::OffsetsDamaged {
                    path: dir.to_path_buf(),
                    message: format!(
                        "the offsets hold another sink's position ({other}), not a file sink's: cdc.sink.type changed since they were written"
                    ),
                })
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
            lines: LineWriter::default(),
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
    fn write(&mut self, record: &Record) -> Result<u64> {
        crate::crashpoint::hit(Point::SinkWrite)?;
        let from = self.buf.len();
        self.lines.write(record, &mut self.buf);
        self.end_line(from)
    }

    fn write_parts(&mut self, parts: RecordParts<'_, '_>, _scratch: &mut Vec<u8>) -> Result<u64> {
        crate::crashpoint::hit(Point::SinkWrite)?;
        let from = self.buf.len();
        self.lines.write_with(
            parts.topic,
            &parts.headers,
            &mut self.buf,
            parts.key,
            parts.value,
        );
        self.end_line(from)
    }

    fn commit(&mut self) -> Result<SinkPosition> {
        self.flush_buf(Flush::All)?;
        crate::crashpoint::hit(Point::SinkCommitFlushed)?;
        let path = self.dir.join(segment_name(self.index));
        self.file.sync_data().map_err(|e| CdcError::io(&path, e))?;
        crate::crashpoint::hit(Point::SinkCommitSynced)?;
        Ok(SinkPosition::File {
            segment: segment_name(self.index),
            bytes: self.bytes,
            records: self.records,
        })
    }
}

impl FileSink {
    /// End the line written into the buffer from `from` on: its newline, the segment closed
    /// first when the line would take it past its size, the buffer flushed when full.
    fn end_line(&mut self, from: usize) -> Result<u64> {
        self.buf.push(b'\n');
        let n = self.buf.len() - from;
        // A segment that would grow past its size is closed first (unless it is empty: a
        // record larger than a segment gets one of its own).
        if self.bytes + from as u64 > 0 && self.bytes + self.buf.len() as u64 > self.segment_bytes {
            let line = self.buf.split_off(from);
            self.rotate()?;
            self.buf.extend_from_slice(&line);
        }
        self.records += 1;
        if self.buf.len() > BUFFER {
            self.flush_buf(Flush::WholePages)?;
        }
        Ok(n as u64)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::OwnedRecord;

    fn rec(value: &str) -> OwnedRecord {
        OwnedRecord {
            topic: "t".into(),
            key: None,
            value: Some(value.as_bytes().to_vec()),
            headers: Vec::new(),
        }
    }

    fn line(value: &str) -> String {
        format!("{{\"topic\":\"t\",\"key\":null,\"value\":{value},\"headers\":{{}}}}\n")
    }

    #[test]
    fn restart_cuts_unacknowledged_output_and_rotates_by_size() {
        let dir = tempfile::tempdir().unwrap();
        let one = line("{\"n\":1}").len() as u64;
        // Two records fit a segment, not three.
        let mut s = FileSink::open(dir.path(), 2 * one + 1, None).unwrap();
        assert_eq!(s.write(&rec("{\"n\":1}").as_record()).unwrap(), one);
        s.write(&rec("{\"n\":2}").as_record()).unwrap();
        let acked = s.commit().unwrap();
        assert_eq!(
            acked,
            SinkPosition::File {
                segment: "segment-000001.jsonl".into(),
                bytes: 2 * one,
                records: 2
            }
        );
        for i in 3..10 {
            s.write(&rec(&format!("{{\"n\":{i}}}")).as_record())
                .unwrap();
        }
        s.commit().unwrap();
        assert_eq!(
            segments(dir.path()).unwrap().len(),
            5,
            "two records a segment"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("segment-000002.jsonl")).unwrap(),
            line("{\"n\":3}") + &line("{\"n\":4}")
        );
        drop(s);
        // Restart at the first acknowledgement: later output is gone.
        let mut s = FileSink::open(dir.path(), 2 * one + 1, Some(&acked)).unwrap();
        assert_eq!(segments(dir.path()).unwrap().len(), 1);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("segment-000001.jsonl")).unwrap(),
            line("{\"n\":1}") + &line("{\"n\":2}")
        );
        s.write(&rec("{\"n\":3}").as_record()).unwrap();
        assert_eq!(s.commit().unwrap().records(), 3);
        // Files the offsets do not know are not overwritten.
        assert_eq!(
            FileSink::open(dir.path(), 30, None).err().unwrap().code(),
            crate::errors::Code::Cdc8005
        );
    }

    #[test]
    fn another_sinks_position_is_refused_naming_the_sink_type() {
        let dir = tempfile::tempdir().unwrap();
        let kafka = SinkPosition::Kafka {
            transactions: 3,
            records: 40,
        };
        let e = FileSink::open(dir.path(), 100, Some(&kafka)).err().unwrap();
        assert!(matches!(e, CdcError::OffsetsDamaged { .. }), "{e:?}");
        let text = e.to_string();
        assert!(
            text.contains("Kafka, 3 transactions committed, 40 records")
                && text.contains("cdc.sink.type changed"),
            "{text}"
        );
        // Nothing was written or cut.
        assert!(segments(dir.path()).unwrap().is_empty());
    }

    #[test]
    fn a_record_larger_than_a_segment_gets_one_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = FileSink::open(dir.path(), 10, None).unwrap();
        s.write(&rec("{\"n\":1}").as_record()).unwrap();
        s.write(&rec("{\"n\":2}").as_record()).unwrap();
        let pos = s.commit().unwrap();
        let one = line("{\"n\":2}").len() as u64;
        assert_eq!(
            pos,
            SinkPosition::File {
                segment: "segment-000002.jsonl".into(),
                bytes: one,
                records: 2
            }
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("segment-000001.jsonl")).unwrap(),
            line("{\"n\":1}")
        );
    }

    #[test]
    fn writes_between_commits_end_on_page_boundaries_and_lose_no_byte() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = FileSink::open(dir.path(), u64::MAX, None).unwrap();
        // An odd start (a commit of one record), then records that overflow the buffer
        // several times.
        s.write(&rec("{\"n\":0}").as_record()).unwrap();
        s.commit().unwrap();
        let mut expected = line("{\"n\":0}").into_bytes();
        let mut flushed_at = Vec::new();
        for i in 1..60_000u32 {
            let value = format!(
                "{{\"n\":{i},\"pad\":\"{}\"}}",
                "x".repeat((i % 97) as usize)
            );
            s.write(&rec(&value).as_record()).unwrap();
            expected.extend_from_slice(line(&value).as_bytes());
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
        assert!(
            matches!(pos, SinkPosition::File { bytes, records: 60_000, .. } if bytes == expected.len() as u64),
            "{pos:?}"
        );
        let path = dir.path().join("segment-000001.jsonl");
        assert_eq!(std::fs::read(path).unwrap(), expected);
    }

    /// A record written in place (`write_parts`) gives the file the same bytes, segments and
    /// positions as the record made first and written; so does the default `write_parts` a
    /// sink without its own has (the record made in the scratch buffer).
    #[test]
    fn records_written_in_place_equal_records_written_whole() {
        use crate::record::{HeaderValue, Headers};
        struct Whole(FileSink);
        impl RecordSink for Whole {
            fn write(&mut self, record: &Record) -> Result<u64> {
                self.0.write(record)
            }
            fn commit(&mut self) -> Result<SinkPosition> {
                self.0.commit()
            }
        }
        let records: Vec<(Option<&str>, Option<&str>, &str)> = vec![
            (Some("{\"ID\":1}"), Some("{\"after\":{\"ID\":1}}"), "first"),
            (None, Some("{\"after\":{\"N\":\"x\"}}"), "true"),
            (Some("{\"ID\":2}"), None, "true"),
            (
                Some("{\"ID\":3}"),
                Some("{\"pad\":\"ppppppppppppppppppppp\"}"),
                "last",
            ),
        ];
        let (whole, in_place, default) = (
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
            tempfile::tempdir().unwrap(),
        );
        // Small segments: the records rotate them.
        let mut a = FileSink::open(whole.path(), 250, None).unwrap();
        let mut b = FileSink::open(in_place.path(), 250, None).unwrap();
        let mut c = Whole(FileSink::open(default.path(), 250, None).unwrap());
        let mut scratch = Vec::new();
        for (key, value, marker) in &records {
            let headers = || -> Headers {
                let mut h = Headers::new();
                h.push(("cdc.snapshot", HeaderValue::Text(marker)));
                h
            };
            let n = a
                .write(&Record {
                    topic: "cdc.HR.EMP",
                    key: key.map(str::as_bytes),
                    value: value.map(str::as_bytes),
                    headers: headers(),
                })
                .unwrap();
            fn part(p: Option<&str>) -> impl FnMut(&mut Vec<u8>) -> bool + '_ {
                move |out: &mut Vec<u8>| {
                    out.extend_from_slice(p.unwrap_or_default().as_bytes());
                    p.is_some()
                }
            }
            for sink in [&mut b as &mut dyn RecordSink, &mut c] {
                let parts = RecordParts {
                    topic: "cdc.HR.EMP",
                    headers: headers(),
                    key: &mut part(*key),
                    value: &mut part(*value),
                };
                assert_eq!(sink.write_parts(parts, &mut scratch).unwrap(), n);
            }
        }
        let pos = a.commit().unwrap();
        assert_eq!(b.commit().unwrap(), pos);
        assert_eq!(c.commit().unwrap(), pos);
        let files = |d: &Path| -> Vec<(String, String)> {
            segments(d)
                .unwrap()
                .into_iter()
                .map(|(_, p)| {
                    let name = p.file_name().unwrap().to_string_lossy().into_owned();
                    (name, std::fs::read_to_string(&p).unwrap())
                })
                .collect()
        };
        let want = files(whole.path());
        assert!(want.len() > 1, "the records rotate the segments: {want:?}");
        assert!(
            want.iter().any(|(_, t)| t.contains("\"key\":null")),
            "{want:?}"
        );
        assert!(want.iter().any(|(_, t)| t.lines().count() == 2), "{want:?}");
        assert_eq!(files(in_place.path()), want);
        assert_eq!(files(default.path()), want);
    }
}
