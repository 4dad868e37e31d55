//! The file channel: `signal send` drops one JSON file per signal into `STATE/signals/`; a
//! running capture picks them up in the order they were sent, and moves each one to
//! `signals/processed/` (or `signals/rejected/`) once its outcome is in the offsets and the ops
//! events. It needs nothing but the local state directory, so it works against a read-only
//! database.

use super::Signal;
use crate::errors::{CdcError, Result};
use std::path::{Path, PathBuf};

pub const DIR: &str = "signals";
pub const PROCESSED: &str = "processed";
pub const REJECTED: &str = "rejected";

/// The largest signal file read: a signal is a small JSON document (Debezium's signal table
/// holds its data in a VARCHAR2(2048)); a larger file is refused before anything is read.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

pub struct Spool {
    pub dir: PathBuf,
}

/// A signal file waiting in the spool.
#[derive(Debug)]
pub struct Pending {
    pub path: PathBuf,
    /// The parsed signal, or why the file is not one.
    pub signal: Result<Signal>,
}

/// Where a handled signal file goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Processed,
    Rejected,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CdcError + '_ {
    move |e| CdcError::io(path, e)
}

impl Spool {
    pub fn new(state_dir: &Path) -> Spool {
        Spool {
            dir: state_dir.join(DIR),
        }
    }

    /// The spool and its two outcome directories (mode 0700); links and other users'
    /// directories are refused ([`crate::localfs::ensure_dir`]).
    fn create_dirs(&self) -> Result<()> {
        for d in [
            self.dir.clone(),
            self.dir.join(PROCESSED),
            self.dir.join(REJECTED),
        ] {
            crate::localfs::ensure_dir(&d)?;
        }
        Ok(())
    }

    /// Put a signal in the spool, atomically (a hidden temp file renamed into place, mode
    /// 0600), so capture never reads half a signal. Returns the file.
    pub fn send(&self, signal: &Signal) -> Result<PathBuf> {
        self.create_dirs()?;
        let name = format!("{:013}-{}.json", self.next_millis()?, signal.id);
        let path = self.dir.join(&name);
        let mut text = serde_json::to_vec_pretty(&signal.to_json())
            .map_err(|e| CdcError::io(&path, std::io::Error::other(e)))?;
        text.push(b'\n');
        crate::atomic_file::write_atomically(&path, &text)?;
        Ok(path)
    }

    /// The `<millis>` of the next signal's name: now, or one past the newest waiting signal's
    /// when that is not earlier. Signals are taken in name order, and the source channel spools
    /// the rows of one transaction (a script's stop-snapshot then execute-snapshot, committed
    /// together) within one millisecond: named by the clock alone they would be taken in the
    /// order of their ids, and a stop meant to end the old snapshot would end the new one too
    /// (Debezium takes them in the order they were streamed). A clock stepped back cannot put a
    /// signal before one already waiting either.
    fn next_millis(&self) -> Result<u64> {
        let now = u64::try_from(cdc_core::civil::now_ms()).unwrap_or(0);
        let rd = match std::fs::read_dir(&self.dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(now),
            Err(e) => return Err(CdcError::io(&self.dir, e)),
        };
        let newest = rd
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.split_once('-')?.0.parse::<u64>().ok()
            })
            .max();
        Ok(newest.map_or(now, |n| now.max(n.saturating_add(1))))
    }

    /// The entries waiting, oldest first: every entry of the spool but its two outcome
    /// directories and hidden files (a `signal send` writing its temp file). Each is checked
    /// before it is read — its name (`<millis>-<id>.json`), that it is a regular file and not a
    /// link, its size — and an entry that fails is a [`Pending`] with the reason, so it gets
    /// an outcome (rejected) like any bad signal instead of waiting there forever.
    pub fn pending(&self) -> Result<Vec<Pending>> {
        let mut names: Vec<PathBuf> = match std::fs::read_dir(&self.dir) {
            Ok(rd) => rd
                .filter_map(|e| e.ok())
                .filter(|e| {
                    let n = e.file_name();
                    let n = n.to_string_lossy();
                    let outcome_dir = (n == PROCESSED || n == REJECTED)
                        && e.file_type().is_ok_and(|t| t.is_dir());
                    !outcome_dir && !n.starts_with('.')
                })
                .map(|e| e.path())
                .collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(CdcError::io(&self.dir, e)),
        };
        names.sort();
        Ok(names
            .into_iter()
            .map(|path| {
                let signal = check_name(&path)
                    .and_then(|()| crate::localfs::read_limited(&path, MAX_FILE_BYTES))
                    .and_then(|bytes| {
                        let v: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
                            CdcError::InvalidSignal(format!("{}: not JSON: {e}", path.display()))
                        })?;
                        Signal::from_json(&v)
                    });
                Pending { path, signal }
            })
            .collect())
    }

    /// Move a handled signal file out of the way.
    pub fn finish(&self, p: &Pending, outcome: Outcome) -> Result<()> {
        self.create_dirs()?;
        let sub = match outcome {
            Outcome::Processed => PROCESSED,
            Outcome::Rejected => REJECTED,
        };
        let Some(name) = p.path.file_name() else {
            return Ok(());
        };
        // A name already there (a file sent twice by hand) gets a suffix: nothing is replaced.
        let mut to = self.dir.join(sub).join(name);
        let mut n = 1;
        while std::fs::symlink_metadata(&to).is_ok() {
            n += 1;
            to = self
                .dir
                .join(sub)
                .join(format!("{}.{n}", name.to_string_lossy()));
        }
        // rename moves a link or a directory itself, never what it points to.
        std::fs::rename(&p.path, &to).map_err(io(&p.path))
    }

    /// Ids already used by a file in the spool (waiting, processed or rejected).
    pub fn known_ids(&self) -> Result<Vec<String>> {
        let mut ids = Vec::new();
        for d in [
            self.dir.clone(),
            self.dir.join(PROCESSED),
            self.dir.join(REJECTED),
        ] {
            let rd = match std::fs::read_dir(&d) {
                Ok(rd) => rd,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(CdcError::io(&d, e)),
            };
            for e in rd.filter_map(|e| e.ok()) {
                let name = e.file_name().to_string_lossy().to_string();
                // `<millis>-<id>.json`
                if let Some(id) = name
                    .strip_suffix(".json")
                    .and_then(|n| n.split_once('-'))
                    .map(|(_, id)| id.to_string())
                {
                    ids.push(id);
                }
            }
        }
        Ok(ids)
    }
}

/// A spool entry's name must be what `signal send` writes: `<millis>-<id>.json`.
fn check_name(path: &Path) -> Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id = name
        .strip_suffix(".json")
        .and_then(|n| n.split_once('-'))
        .filter(|(ms, _)| !ms.is_empty() && ms.bytes().all(|b| b.is_ascii_digit()))
        .map(|(_, id)| id);
    match id {
        Some(id) if super::check_id(id).is_ok() => Ok(()),
        _ => Err(CdcError::InvalidSignal(format!(
            "{}: not a signal file name (`signal send` writes <millis>-<id>.json)",
            path.display()
        ))),
    }
}
