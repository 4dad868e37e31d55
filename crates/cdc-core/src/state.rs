//! The state directory (`cdc.state.dir`): offsets, schema history, signal spool, ops events.
//! A running capture holds its lock; tools that change state refuse while it does.

use crate::errors::{CdcError, Result};
use std::fs::File;
use std::path::{Path, PathBuf};

pub const OFFSETS_FILE: &str = "offsets.json";
pub const LOCK_FILE: &str = "capture.lock";
/// The lock an export (`oracle-cdc snapshot --out DIR`) holds in its directory.
pub const EXPORT_LOCK_FILE: &str = "export.lock";
pub const OPS_FILE: &str = "ops.jsonl";

#[derive(Debug, Clone)]
pub struct StateDir {
    pub path: PathBuf,
}

/// The held lock; released when dropped (or when the process dies). A clean release removes
/// the lock file, so none is left behind once its holder is gone.
pub struct StateLock {
    file: Option<File>,
    path: PathBuf,
}

impl StateLock {
    /// The lock [`lock_with_pid`] took on `path`, removed on release like the state
    /// directory's.
    pub fn held(file: File, path: PathBuf) -> StateLock {
        StateLock {
            file: Some(file),
            path,
        }
    }
}

impl Drop for StateLock {
    fn drop(&mut self) {
        // Unlinked while still held: a process that opened the old path and locks it after we
        // let go finds the path gone or another inode and takes the lock again
        // ([`lock_with_pid`]), so two holders never meet. A failed unlink leaves a file that
        // the next holder reuses.
        let _ = std::fs::remove_file(&self.path);
        drop(self.file.take());
    }
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
        self.lock_named(LOCK_FILE)
    }

    /// Take an export directory's lock ([`EXPORT_LOCK_FILE`]), or say which process holds it.
    pub fn lock_export(&self) -> Result<StateLock> {
        self.lock_named(EXPORT_LOCK_FILE)
    }

    fn lock_named(&self, name: &str) -> Result<StateLock> {
        self.create()?;
        let path = self.path.join(name);
        match lock_with_pid(&path)? {
            Ok(file) => Ok(StateLock::held(file, path)),
            Err(pid) => Err(CdcError::StateBusy {
                path: self.path.clone(),
                pid,
            }),
        }
    }

    /// The pid of the process holding the capture lock (or, in an export's directory, the
    /// export lock), if one does.
    pub fn holder(&self) -> Option<String> {
        [LOCK_FILE, EXPORT_LOCK_FILE].iter().find_map(|name| {
            let path = self.path.join(name);
            let file = File::open(&path).ok()?;
            match file.try_lock_shared() {
                Ok(()) => None,
                Err(_) => std::fs::read_to_string(&path)
                    .ok()
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty()),
            }
        })
    }
}

/// How many times [`lock_with_pid`] opens the path again after locking a file no longer there.
const LOCK_ATTEMPTS: u32 = 100;

/// Take an exclusive lock on `path` and write our pid into it; `Ok(Err(pid))` names the process
/// that holds it. The lock lasts as long as the returned file (or the process). A link at
/// `path` is refused, never followed (the pid write truncates the file).
///
/// A holder may unlink the file on release ([`StateLock`]); the lock taken here then counts only
/// if `path` still names the very file locked, else the open and lock are tried again.
pub fn lock_with_pid(path: &Path) -> Result<std::result::Result<File, String>> {
    use std::io::{Seek, Write};
    let mut attempts = 0u32;
    let mut file = loop {
        let file = crate::localfs::read_write(path, crate::localfs::Kind::State)?;
        match file.try_lock() {
            Ok(()) if same_file(&file, path)? => break file,
            // Locked an inode its last holder unlinked: open the path anew. Each retry follows
            // another holder's release; a path that never names what was opened (a filesystem
            // whose inode numbers are not stable) is an error, not a loop without end.
            Ok(()) if attempts < LOCK_ATTEMPTS => attempts += 1,
            Ok(()) => {
                return Err(CdcError::io(
                    path,
                    std::io::Error::other(format!(
                        "the lock file was replaced {LOCK_ATTEMPTS} times while being locked"
                    )),
                ))
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Ok(Err(std::fs::read_to_string(path)
                    .map(|s| s.trim().to_string())
                    .ok()
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "unknown".into())))
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(CdcError::io(path, e)),
        }
    };
    file.set_len(0).map_err(|e| CdcError::io(path, e))?;
    file.seek(std::io::SeekFrom::Start(0))
        .map_err(|e| CdcError::io(path, e))?;
    write!(file, "{}", std::process::id()).map_err(|e| CdcError::io(path, e))?;
    file.sync_all().map_err(|e| CdcError::io(path, e))?;
    Ok(Ok(file))
}

/// Whether `path` names the open `file` now (same device and inode); a missing path does not.
fn same_file(file: &File, path: &Path) -> Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let open = file.metadata().map_err(|e| CdcError::io(path, e))?;
    match std::fs::symlink_metadata(path) {
        Ok(named) => Ok(named.dev() == open.dev() && named.ino() == open.ino()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(CdcError::io(path, e)),
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

    #[test]
    fn a_released_lock_leaves_no_file_and_a_second_holder_is_refused_meanwhile() {
        let dir = tempfile::tempdir().unwrap();
        let s = StateDir::new(dir.path());
        let lock = s.lock_export().unwrap();
        assert!(dir.path().join(EXPORT_LOCK_FILE).exists());
        assert_eq!(s.holder(), Some(std::process::id().to_string()));
        let e = s.lock_export().err().unwrap();
        assert_eq!(e.code(), crate::errors::Code::Cdc7004);
        drop(lock);
        assert!(!dir.path().join(EXPORT_LOCK_FILE).exists());
        let lock = s.lock().unwrap();
        drop(lock);
        assert!(!dir.path().join(LOCK_FILE).exists());
    }

    #[test]
    fn a_lock_on_an_unlinked_file_is_not_taken_for_the_paths() {
        // A process that opened the lock file before its holder unlinked it must not count a
        // lock on that orphan inode: another holder could lock the new file at the same path.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(LOCK_FILE);
        let orphan = File::create(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        orphan.lock().unwrap();
        let held = lock_with_pid(&path).unwrap().unwrap();
        assert!(same_file(&held, &path).unwrap());
        // The path's file is what is locked: a second taker is refused with our pid.
        let refused = lock_with_pid(&path).unwrap().err().unwrap();
        assert_eq!(refused, std::process::id().to_string());
        // And an unlinked file is never taken as the path's.
        assert!(!same_file(&orphan, &path).unwrap());
    }
}
