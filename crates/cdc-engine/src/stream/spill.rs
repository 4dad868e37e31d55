//! Spill files of the transaction buffer: one file per spilled transaction, holding its oldest
//! rows as length-framed records (`u32 len | row | u32 len`, little-endian; the row in a compact
//! binary form, [`encode`]), so the file reads forward on COMMIT and backward when a
//! `ROLLBACK=1` undo row looks for its change.
//! Files are created with mode 0600 and removed when dropped (commit, rollback, shutdown).

use crate::errors::{CdcError, Result};
use cdc_core::model::LogMinerRow;
use std::collections::HashSet;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Create the spill directory (mode 0700) and remove the spill files an earlier run left in
/// it. A link (the directory or an entry) is refused, never followed; entries that are not
/// spill files (`tx-*.spill`, capture's `window-*.spill`) are left alone.
pub fn prepare_dir(dir: &Path) -> Result<()> {
    crate::localfs::ensure_dir(dir)?;
    for entry in std::fs::read_dir(dir).map_err(|e| CdcError::io(dir, e))? {
        let entry = entry.map_err(|e| CdcError::io(dir, e))?;
        let name = entry.file_name();
        let ours = name.to_str().is_some_and(|n| {
            (n.starts_with("tx-") || n.starts_with("window-")) && n.ends_with(".spill")
        });
        if ours {
            crate::localfs::remove_file(&entry.path())?;
        } else {
            tracing::warn!("{}: not a spill file; left alone", entry.path().display());
        }
    }
    Ok(())
}

/// A row's binary form: every field in declaration order; numbers as little-endian u64,
/// strings as `u32 len | UTF-8`, options as a 0/1 byte before the value.
pub fn encode(row: &LogMinerRow, out: &mut Vec<u8>) {
    // Destructured so a new field cannot be forgotten here.
    let LogMinerRow {
        scn,
        commit_scn,
        start_scn,
        timestamp,
        commit_timestamp,
        xid,
        xidusn,
        xidslt,
        xidsqn,
        operation_code,
        operation,
        seg_owner,
        table_name,
        row_id,
        sql_redo,
        csf,
        rollback,
        rs_id,
        ssn,
        thread,
        sequence,
        status,
        info,
        src_con_name,
        username,
        data_obj,
    } = row;
    fn n(out: &mut Vec<u8>, v: u64) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    fn s(out: &mut Vec<u8>, v: &str) {
        out.extend_from_slice(&(v.len() as u32).to_le_bytes());
        out.extend_from_slice(v.as_bytes());
    }
    fn on(out: &mut Vec<u8>, v: &Option<u64>) {
        out.push(v.is_some() as u8);
        if let Some(v) = v {
            n(out, *v);
        }
    }
    fn os(out: &mut Vec<u8>, v: &Option<String>) {
        out.push(v.is_some() as u8);
        if let Some(v) = v {
            s(out, v);
        }
    }
    n(out, *scn);
    on(out, commit_scn);
    on(out, start_scn);
    s(out, timestamp);
    os(out, commit_timestamp);
    s(out, xid);
    n(out, *xidusn as u64);
    n(out, *xidslt as u64);
    n(out, *xidsqn as u64);
    n(out, *operation_code as u64);
    s(out, operation);
    os(out, seg_owner);
    os(out, table_name);
    s(out, row_id);
    s(out, sql_redo);
    n(out, *csf as u64);
    n(out, *rollback as u64);
    s(out, rs_id);
    n(out, *ssn);
    n(out, *thread as u64);
    n(out, *sequence);
    n(out, *status as i64 as u64);
    os(out, info);
    s(out, src_con_name);
    s(out, username);
    n(out, *data_obj);
}

struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    fn take(&mut self, k: usize) -> Option<&[u8]> {
        if self.0.len() < k {
            return None;
        }
        let (a, b) = self.0.split_at(k);
        self.0 = b;
        Some(a)
    }
    fn n(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn n32(&mut self) -> Option<u32> {
        u32::try_from(self.n()?).ok()
    }
    fn s(&mut self) -> Option<String> {
        let len = u32::from_le_bytes(self.take(4)?.try_into().ok()?) as usize;
        String::from_utf8(self.take(len)?.to_vec()).ok()
    }
    fn flag(&mut self) -> Option<bool> {
        match self.take(1)? {
            [0] => Some(false),
            [1] => Some(true),
            _ => None,
        }
    }
    fn on(&mut self) -> Option<Option<u64>> {
        Some(if self.flag()? { Some(self.n()?) } else { None })
    }
    fn os(&mut self) -> Option<Option<String>> {
        Some(if self.flag()? { Some(self.s()?) } else { None })
    }
}

/// The row [`encode`] wrote; `None` when the bytes are not one.
pub fn decode(bytes: &[u8]) -> Option<LogMinerRow> {
    let mut c = Cursor(bytes);
    let row = LogMinerRow {
        scn: c.n()?,
        commit_scn: c.on()?,
        start_scn: c.on()?,
        timestamp: c.s()?,
        commit_timestamp: c.os()?,
        xid: c.s()?,
        xidusn: c.n32()?,
        xidslt: c.n32()?,
        xidsqn: c.n32()?,
        operation_code: c.n32()?,
        operation: c.s()?,
        seg_owner: c.os()?,
        table_name: c.os()?,
        row_id: c.s()?,
        sql_redo: c.s()?,
        csf: u8::try_from(c.n()?).ok()?,
        rollback: u8::try_from(c.n()?).ok()?,
        rs_id: c.s()?,
        ssn: c.n()?,
        thread: c.n32()?,
        sequence: c.n()?,
        status: i32::try_from(c.n()? as i64).ok()?,
        info: c.os()?,
        src_con_name: c.s()?,
        username: c.s()?,
        data_obj: c.n()?,
    };
    c.0.is_empty().then_some(row)
}

fn from_bytes(path: &Path, bytes: &[u8]) -> Result<LogMinerRow> {
    decode(bytes).ok_or_else(|| corrupt(path, "a spill record is not a LogMiner row"))
}

fn corrupt(path: &Path, message: impl Into<String>) -> CdcError {
    CdcError::io(
        path,
        std::io::Error::new(std::io::ErrorKind::InvalidData, message.into()),
    )
}

/// One transaction's spilled rows.
#[derive(Debug)]
pub struct SpillFile {
    path: PathBuf,
    file: File,
    /// Bytes of live records (the file is truncated to it when its tail is cancelled).
    end: u64,
    /// Offsets of records cancelled by undo rows (not at the tail).
    cancelled: HashSet<u64>,
    /// Records written and not cancelled.
    live: u64,
}

impl SpillFile {
    pub fn create(path: PathBuf) -> Result<SpillFile> {
        let mut o = std::fs::OpenOptions::new();
        o.read(true).write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600);
        }
        let file = o.open(&path).map_err(|e| CdcError::io(&path, e))?;
        Ok(SpillFile {
            path,
            file,
            end: 0,
            cancelled: HashSet::new(),
            live: 0,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn live_rows(&self) -> u64 {
        self.live
    }

    pub fn bytes(&self) -> u64 {
        self.end
    }

    /// Append rows (in redo order) at the end.
    pub fn append<'r>(&mut self, rows: impl IntoIterator<Item = &'r LogMinerRow>) -> Result<()> {
        let path = self.path.clone();
        let io = |e| CdcError::io(&path, e);
        self.file.seek(SeekFrom::Start(self.end)).map_err(io)?;
        let mut w = BufWriter::with_capacity(1 << 16, &mut self.file);
        let mut written = 0u64;
        let mut n = 0u64;
        let mut bytes = Vec::new();
        for row in rows {
            bytes.clear();
            encode(row, &mut bytes);
            let len = u32::try_from(bytes.len())
                .map_err(|_| corrupt(&path, "a row larger than 4 GiB"))?
                .to_le_bytes();
            w.write_all(&len).map_err(io)?;
            w.write_all(&bytes).map_err(io)?;
            w.write_all(&len).map_err(io)?;
            written += 8 + bytes.len() as u64;
            n += 1;
        }
        w.flush().map_err(io)?;
        self.end += written;
        self.live += n;
        Ok(())
    }

    fn read_at(&mut self, offset: u64, len: u32) -> Result<LogMinerRow> {
        let path = self.path.clone();
        self.file
            .seek(SeekFrom::Start(offset + 4))
            .map_err(|e| CdcError::io(&path, e))?;
        let mut buf = vec![0u8; len as usize];
        self.file
            .read_exact(&mut buf)
            .map_err(|e| CdcError::io(&path, e))?;
        from_bytes(&path, &buf)
    }

    /// The record that ends at `end`: its offset and length.
    fn before(&mut self, end: u64) -> Result<(u64, u32)> {
        let path = self.path.clone();
        if end < 8 {
            return Err(corrupt(&path, "truncated spill record"));
        }
        self.file
            .seek(SeekFrom::Start(end - 4))
            .map_err(|e| CdcError::io(&path, e))?;
        let mut len = [0u8; 4];
        self.file
            .read_exact(&mut len)
            .map_err(|e| CdcError::io(&path, e))?;
        let len = u32::from_le_bytes(len);
        let start = end
            .checked_sub(8 + len as u64)
            .ok_or_else(|| corrupt(&path, "bad spill record length"))?;
        Ok((start, len))
    }

    /// Cancel the newest live record accepted by `target`, and the records right after it that
    /// `follower` accepts (LOB writes of the undone change). Returns `None` when none is found,
    /// else whether every live record after it was a follower (so followers may continue in
    /// memory). Reads backward from the end: undoing the newest changes costs one read each.
    pub fn cancel_newest(
        &mut self,
        target: impl Fn(&LogMinerRow) -> bool,
        follower: impl Fn(&LogMinerRow) -> bool,
        leader: impl Fn(&LogMinerRow) -> bool,
    ) -> Result<Option<bool>> {
        let mut end = self.end;
        // Live records after the target, oldest first, for the followers.
        let mut after: Vec<(u64, bool)> = Vec::new();
        let mut found = None;
        while end > 0 {
            let (start, len) = self.before(end)?;
            end = start;
            if self.cancelled.contains(&start) {
                continue;
            }
            let row = self.read_at(start, len)?;
            if target(&row) {
                found = Some(start);
                break;
            }
            after.push((start, follower(&row)));
        }
        let Some(start) = found else {
            return Ok(None);
        };
        self.cancel(start);
        // The live records right before it that `leader` accepts go too.
        let mut back = start;
        while back > 0 {
            let (s, len) = self.before(back)?;
            back = s;
            if self.cancelled.contains(&s) {
                continue;
            }
            if !leader(&self.read_at(s, len)?) {
                break;
            }
            self.cancel(s);
        }
        let mut to_end = true;
        for (off, follows) in after.into_iter().rev() {
            if !follows {
                to_end = false;
                break;
            }
            self.cancel(off);
        }
        self.trim_tail()?;
        Ok(Some(to_end))
    }

    /// Cancel the newest live records while `leader` accepts them (the start of a statement
    /// whose end was cancelled in memory).
    pub fn cancel_trailing(&mut self, leader: impl Fn(&LogMinerRow) -> bool) -> Result<()> {
        let mut end = self.end;
        while end > 0 {
            let (start, len) = self.before(end)?;
            end = start;
            if self.cancelled.contains(&start) {
                continue;
            }
            if !leader(&self.read_at(start, len)?) {
                break;
            }
            self.cancel(start);
        }
        self.trim_tail()
    }

    fn cancel(&mut self, offset: u64) {
        if self.cancelled.insert(offset) {
            self.live = self.live.saturating_sub(1);
        }
    }

    /// Cut cancelled records off the end of the file.
    fn trim_tail(&mut self) -> Result<()> {
        let old = self.end;
        while self.end > 0 {
            let (start, _) = self.before(self.end)?;
            if !self.cancelled.remove(&start) {
                break;
            }
            self.end = start;
        }
        if self.end != old {
            self.file
                .set_len(self.end)
                .map_err(|e| CdcError::io(&self.path, e))?;
        }
        Ok(())
    }

    /// Read the live records forward, in the order written; the file is removed when the
    /// reader is dropped.
    pub fn into_reader(mut self) -> Result<SpillReader> {
        self.file
            .seek(SeekFrom::Start(0))
            .map_err(|e| CdcError::io(&self.path, e))?;
        let file = self
            .file
            .try_clone()
            .map_err(|e| CdcError::io(&self.path, e))?;
        Ok(SpillReader {
            reader: BufReader::with_capacity(1 << 16, file),
            pos: 0,
            failed: false,
            spill: self,
        })
    }
}

impl Drop for SpillFile {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_file(&self.path) {
            tracing::warn!("could not remove spill file {}: {e}", self.path.display());
        }
    }
}

/// Forward reader of a spill file's live records.
#[derive(Debug)]
pub struct SpillReader {
    reader: BufReader<File>,
    pos: u64,
    failed: bool,
    spill: SpillFile,
}

impl SpillReader {
    fn read_one(&mut self) -> Result<Option<(u64, Vec<u8>)>> {
        let path = &self.spill.path;
        if self.pos >= self.spill.end {
            return Ok(None);
        }
        let mut len = [0u8; 4];
        self.reader
            .read_exact(&mut len)
            .map_err(|e| CdcError::io(path, e))?;
        let len = u32::from_le_bytes(len);
        let mut buf = vec![0u8; len as usize];
        self.reader
            .read_exact(&mut buf)
            .map_err(|e| CdcError::io(path, e))?;
        let mut trailer = [0u8; 4];
        self.reader
            .read_exact(&mut trailer)
            .map_err(|e| CdcError::io(path, e))?;
        if u32::from_le_bytes(trailer) != len {
            return Err(corrupt(path, "spill record framing does not match"));
        }
        let at = self.pos;
        self.pos += 8 + len as u64;
        Ok(Some((at, buf)))
    }
}

impl Iterator for SpillReader {
    type Item = Result<LogMinerRow>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            match self.read_one() {
                Ok(None) => return None,
                Ok(Some((at, _))) if self.spill.cancelled.contains(&at) => continue,
                Ok(Some((_, buf))) => {
                    let row = from_bytes(&self.spill.path, &buf);
                    self.failed = row.is_err();
                    return Some(row);
                }
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spill directory goes through `localfs`: a link in its place is refused and what
    /// it points at is left alone (`localfs`'s own tests cover its files).
    #[cfg(unix)]
    #[test]
    fn a_spill_directory_that_is_a_link_is_refused_and_nothing_outside_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("elsewhere");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("tx-1-a.spill"), b"x").unwrap();
        let spill = dir.path().join("spill");
        std::os::unix::fs::symlink(&target, &spill).unwrap();
        let e = prepare_dir(&spill).unwrap_err();
        assert_eq!(e.code(), crate::errors::Code::Cdc6301, "{e}");
        assert!(
            target.join("tx-1-a.spill").exists(),
            "nothing deleted outside"
        );
    }

    #[test]
    fn rows_survive_the_binary_form_and_damage_is_detected() {
        let row = LogMinerRow {
            scn: 7,
            commit_scn: Some(9),
            start_scn: None,
            timestamp: "2026-01-01 00:00:00".into(),
            commit_timestamp: None,
            xid: "0200030004000000".into(),
            xidusn: 2,
            xidslt: 3,
            xidsqn: 4,
            operation_code: 1,
            operation: "INSERT".into(),
            seg_owner: Some("HR".into()),
            table_name: Some("EMP".into()),
            row_id: "AAAR0AAAEAAAAGFAAA".into(),
            sql_redo: "insert into \"HR\".\"EMP\" values ('é');".into(),
            csf: 0,
            rollback: 1,
            rs_id: " 0x1 ".into(),
            ssn: 3,
            thread: 2,
            sequence: 11,
            status: -1,
            info: None,
            src_con_name: "PDB1".into(),
            username: "U".into(),
            data_obj: 77,
        };
        let mut b = Vec::new();
        encode(&row, &mut b);
        assert_eq!(decode(&b), Some(row));
        assert_eq!(decode(&b[..b.len() - 1]), None);
        b.push(0);
        assert_eq!(decode(&b), None);
    }
}
