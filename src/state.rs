//! The state directory (`cdc.state.dir`): offsets, schema history, signal spool, ops events.
//! A running capture holds its lock; tools that change state refuse while it does.

use crate::errors::{CdcError, Result};
use std::fs::File;
use std::path::{Path, PathBuf};

pub const OFFSETS_FILE: &str = "offsets.json";
pub const LOCK_FILE: &str = "capture.lock";
pub const OPS_FILE: &str = "ops.jsonl";

#[derive(Debug, Clone)]
pub struct StateDir {
    pub path: PathBuf,
}

/// The held lock; released when dropped (or when the process dies).
pub struct StateLock {
    _file: File,
}

impl StateDir {
    pub fn new(path: &Path) -> StateDir {
        StateDir {
            path: path.to_path_buf(),
        }
    }

    /// Create the directory (mode 0700) if needed; an existing one must not be a link, another
    /// user's or writable by others ([`crate::localfs::check_dir`]).
    pub fn create(&self) -> Result<()> {
        crate::localfs::ensure_dir(&self.path)
    }

    pub fn offsets(&self) -> PathBuf {
        self.path.join(OFFSETS_FILE)
    }

    pub fn ops(&self) -> PathBuf {
        self.path.join(OPS_FILE)
    }

    /// Take the capture lock, or say which process holds it.
    pub fn lock(&self) -> Result<StateLock> {
        self.create()?;
        let path = self.path.join(LOCK_FILE);
        match lock_with_pid(&path)? {
            Ok(file) => Ok(StateLock { _file: file }),
            Err(pid) => Err(CdcError::StateBusy {
                path: self.path.clone(),
                pid,
            }),
        }
    }

    /// The pid of the process holding the lock, if one does.
    pub fn holder(&self) -> Option<String> {
        let path = self.path.join(LOCK_FILE);
        let file = File::open(&path).ok()?;
        match file.try_lock_shared() {
            Ok(()) => None,
            Err(_) => std::fs::read_to_string(&path)
                .ok()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty()),
        }
    }
}

/// Take an exclusive lock on `path` and write our pid into it; `Ok(Err(pid))` names the process
/// that holds it. The lock lasts as long as the returned file (or the process). A link at
/// `path` is refused, never followed (the pid write truncates the file).
pub fn lock_with_pid(path: &Path) -> Result<std::result::Result<File, String>> {
    use std::io::{Seek, Write};
    let mut file = crate::localfs::read_write(path, crate::localfs::Kind::State)?;
    match file.try_lock() {
        Ok(()) => {
            file.set_len(0).map_err(|e| CdcError::io(path, e))?;
            file.seek(std::io::SeekFrom::Start(0))
                .map_err(|e| CdcError::io(path, e))?;
            write!(file, "{}", std::process::id()).map_err(|e| CdcError::io(path, e))?;
            file.sync_all().map_err(|e| CdcError::io(path, e))?;
            Ok(Ok(file))
        }
        Err(std::fs::TryLockError::WouldBlock) => Ok(Err(std::fs::read_to_string(path)
            .map(|s| s.trim().to_string())
            .ok()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "unknown".into()))),
        Err(std::fs::TryLockError::Error(e)) => Err(CdcError::io(path, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_holder_at_a_time_and_the_holder_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let s = StateDir::new(&dir.path().join("state"));
        assert!(s.holder().is_none());
        let lock = s.lock().unwrap();
        assert_eq!(s.holder(), Some(std::process::id().to_string()));
        let e = s.lock().err().unwrap();
        assert_eq!(e.code(), crate::errors::Code::Cdc7004);
        assert!(e.to_string().contains(&std::process::id().to_string()));
        drop(lock);
        assert!(s.holder().is_none());
        assert!(s.lock().is_ok());
    }
}
