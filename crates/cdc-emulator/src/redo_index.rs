//! Where a replica finds the redo records it no longer keeps in memory.
//!
//! LogMiner must be able to render every record of a mined range (V$LOGMNR_CONTENTS reads the
//! logs, not a cache), but a replica that kept every record it replayed grew with the redo: a
//! 1M-row database held 1M parsed records. A replica keeps only the newest [`CACHE`] records
//! ([`super::store::Replica::records`]); older ones are read back from the redo file by byte
//! offset. The index is sparse: the number, SCN and offset of every [`MARK_EVERY`]-th record
//! (16 bytes per 256 records), and a read starts at the mark before the wanted record; the
//! lines on the way to it are checked, only the wanted one parsed. Records of open
//! transactions stay in memory with their transaction (a commit applies them), so only mining
//! and undo rendering ever read the file.

use super::redo::Redo;
use crate::errors::{CdcError, Result};
use cdc_core::model::Scn;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::PathBuf;

/// Records kept parsed in memory, newest last (few in unit tests, so that every LogMiner test
/// also reads records back from the file).
pub const CACHE: usize = if cfg!(test) { 48 } else { 65_536 };
/// One mark per this many records.
pub const MARK_EVERY: u64 = if cfg!(test) { 16 } else { 256 };

/// A record's number, SCN and byte offset in the redo file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    pub n: u64,
    pub scn: Scn,
    pub offset: u64,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RedoIndex {
    /// The redo file; `None`: records are applied without a file (tests), and none is evicted.
    #[serde(skip)]
    pub path: Option<PathBuf>,
    /// The first record still retained (older ones were pruned with their logs).
    pub first: u64,
    /// SCN of record `first`, once there is one.
    pub first_scn: Option<Scn>,
    marks: Vec<Mark>,
    /// Every record from `first` on came with its offset, so any of them can be read back.
    file_backed: bool,
}

impl RedoIndex {
    pub fn new(path: Option<PathBuf>) -> RedoIndex {
        RedoIndex {
            file_backed: path.is_some(),
            path,
            ..RedoIndex::default()
        }
    }

    /// Note record `n` (at `offset` in the file, when known).
    pub fn note(&mut self, n: u64, scn: Scn, offset: Option<u64>) {
        if self.first_scn.is_none() {
            self.first = n;
            self.first_scn = Some(scn);
        }
        match offset {
            Some(offset) if self.file_backed => {
                if self.marks.last().is_none_or(|m| n >= m.n + MARK_EVERY) {
                    self.marks.push(Mark { n, scn, offset });
                }
            }
            _ => self.file_backed = false,
        }
    }

    /// Whether records older than the cache can be dropped from memory (read back instead).
    pub fn can_evict(&self) -> bool {
        self.file_backed && self.path.is_some()
    }

    /// Forget records before `keep_from` (whose SCN is `scn`).
    pub fn prune(&mut self, keep_from: u64, scn: Scn) {
        if keep_from <= self.first {
            return;
        }
        self.first = keep_from;
        self.first_scn = Some(scn);
        // Keep the mark at or before `keep_from`: reads start there.
        let i = self.marks.partition_point(|m| m.n <= keep_from);
        if i > 1 {
            self.marks.drain(..i - 1);
        }
    }

    /// The mark to start a read at for the first record with SCN >= `scn`.
    pub fn start_for_scn(&self, scn: Scn) -> Option<Mark> {
        let i = self.marks.partition_point(|m| m.scn < scn);
        self.marks.get(i.saturating_sub(1)).copied()
    }

    /// The mark to start a read at for record `n`.
    pub fn start_for(&self, n: u64) -> Option<Mark> {
        let i = self.marks.partition_point(|m| m.n <= n);
        i.checked_sub(1).map(|i| self.marks[i])
    }

    /// Record `n`, read from the file starting at mark `from` (at or before it). The lines
    /// before it are checked ([`super::redo::check_line`]: a changed or merged line is still
    /// CDC-4004 naming it, never another record taken for `n`) but not parsed: parsing each,
    /// half a mark's worth a lookup on average, was most of a stream's CPU in process.
    pub fn read_one(&self, from: Mark, n: u64) -> Result<Option<Redo>> {
        let mut found = None;
        self.lines(from, n + 1, |at, line| {
            if at < n {
                super::redo::check_line(line)?;
                return Ok(true);
            }
            found = Some(super::redo::parse_line(line)?);
            Ok(false)
        })?;
        Ok(found)
    }

    /// Read records `from.n` up to `until` (exclusive) from the file, in order, until `each`
    /// says stop (returns false).
    pub fn read(
        &self,
        from: Mark,
        until: u64,
        mut each: impl FnMut(u64, Redo) -> Result<bool>,
    ) -> Result<()> {
        self.lines(from, until, |n, line| {
            let record = super::redo::parse_line(line)?;
            each(n, record).map_err(LineError::Stop)
        })
    }

    /// The lines (without their newlines) of records `from.n` up to `until` (exclusive), in
    /// order, until `each` says stop; a line `each` finds damaged (`Err(message)`) is
    /// CDC-4004 naming it.
    fn lines(
        &self,
        from: Mark,
        until: u64,
        mut each: impl FnMut(u64, &[u8]) -> std::result::Result<bool, LineError>,
    ) -> Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let mut file = std::fs::File::open(path).map_err(|e| CdcError::io(path, e))?;
        file.seek(SeekFrom::Start(from.offset))
            .map_err(|e| CdcError::io(path, e))?;
        let mut reader = BufReader::with_capacity(1 << 16, file);
        let mut buf = Vec::with_capacity(512);
        let mut n = from.n;
        while n < until {
            buf.clear();
            let got = reader
                .read_until(b'\n', &mut buf)
                .map_err(|e| CdcError::io(path, e))?;
            if got == 0 || buf.last() != Some(&b'\n') {
                return Err(CdcError::RedoDamaged {
                    path: path.clone(),
                    line: n + 1,
                    message: "the redo file ends before a record the replica has applied (was it replaced?)".into(),
                });
            }
            match each(n, &buf[..got - 1]) {
                Ok(true) => {}
                Ok(false) => break,
                Err(LineError::Damaged(message)) => {
                    return Err(CdcError::RedoDamaged {
                        path: path.clone(),
                        line: n + 1,
                        message,
                    })
                }
                Err(LineError::Stop(e)) => return Err(e),
            }
            n += 1;
        }
        Ok(())
    }
}

/// Why a line's reader stopped with an error: the line is damaged (its message), or the
/// caller's own error.
enum LineError {
    Damaged(String),
    Stop(CdcError),
}

impl From<String> for LineError {
    fn from(message: String) -> LineError {
        LineError::Damaged(message)
    }
}
