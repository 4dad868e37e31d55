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

    fn create_dirs(&self) -> Result<()> {
        for d in [
            self.dir.clone(),
            self.dir.join(PROCESSED),
            self.dir.join(REJECTED),
        ] {
            std::fs::create_dir_all(&d).map_err(io(&d))?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o700))
                    .map_err(io(&d))?;
            }
        }
        Ok(())
    }

    /// Put a signal in the spool, atomically (a hidden temp file renamed into place, mode
    /// 0600), so capture never reads half a signal. Returns the file.
    pub fn send(&self, signal: &Signal) -> Result<PathBuf> {
        self.create_dirs()?;
        let name = format!("{:013}-{}.json", crate::record::now_ms(), signal.id);
        let path = self.dir.join(&name);
        let mut text = serde_json::to_vec_pretty(&signal.to_json())
            .map_err(|e| CdcError::io(&path, std::io::Error::other(e)))?;
        text.push(b'\n');
        crate::offsets::write_atomically(&path, &text)?;
        Ok(path)
    }

    /// The signal files waiting, oldest first.
    pub fn pending(&self) -> Result<Vec<Pending>> {
        let mut names: Vec<PathBuf> = match std::fs::read_dir(&self.dir) {
            Ok(rd) => rd
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| {
                    p.is_file()
                        && p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| !n.starts_with('.') && n.ends_with(".json"))
                })
                .collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(CdcError::io(&self.dir, e)),
        };
        names.sort();
        Ok(names
            .into_iter()
            .map(|path| {
                let signal = std::fs::read(&path)
                    .map_err(|e| CdcError::io(&path, e))
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
        let to = self.dir.join(sub).join(name);
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
