//! Replacing a file atomically: a temp file beside it, fsynced, renamed over it, the directory
//! fsynced, so that a crash leaves the old content or the new, never a mix. Offsets, the sink's
//! owner file, the signal spool, the snapshot history and Parquet sidecars are written so. Each
//! step is a crash point ([`crate::crashpoint`]) the simulation can stop at.

use crate::crashpoint::{hit, Point};
use crate::errors::{CdcError, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Replace `path` with `bytes` so that a crash leaves the old or the new content, never a mix.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomically_with(path, bytes, &mut crash_point)
}

/// The steps of [`write_atomically`], in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteStep {
    /// The new content is in a temp file next to the target (not yet synced).
    TempWritten,
    /// The temp file is fsynced.
    TempSynced,
    /// The temp file was renamed over the target.
    Renamed,
    /// The directory is fsynced: the rename is durable.
    DirSynced,
}

/// [`write_atomically`], calling `after` after each step; an error from it stops the write
/// there (tests inject failures this way).
pub fn write_atomically_with(
    path: &Path,
    bytes: &[u8],
    after: &mut dyn FnMut(WriteStep) -> Result<()>,
) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".offsets-")
        .tempfile_in(&dir)
        .map_err(|e| CdcError::io(&dir, e))?;
    set_private(tmp.path())?;
    tmp.write_all(bytes)
        .map_err(|e| CdcError::io(tmp.path(), e))?;
    after(WriteStep::TempWritten)?;
    tmp.as_file()
        .sync_all()
        .map_err(|e| CdcError::io(tmp.path(), e))?;
    after(WriteStep::TempSynced)?;
    tmp.persist(path).map_err(|e| CdcError::io(path, e.error))?;
    after(WriteStep::Renamed)?;
    if let Ok(d) = std::fs::File::open(&dir) {
        // The rename is durable once the directory is.
        let _ = d.sync_all();
    }
    after(WriteStep::DirSynced)?;
    Ok(())
}

/// Mode 0600 for state files.
pub fn set_private(path: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| CdcError::io(path, e))?;
    }
    Ok(())
}

/// [`hit`] for each step of [`write_atomically`], as its own point.
fn crash_point(step: WriteStep) -> Result<()> {
    hit(match step {
        WriteStep::TempWritten => Point::AtomicWriteTempWritten,
        WriteStep::TempSynced => Point::AtomicWriteTempSynced,
        WriteStep::Renamed => Point::AtomicWriteRenamed,
        WriteStep::DirSynced => Point::AtomicWriteDirSynced,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crashpoint::arm;
    use std::cell::RefCell;

    /// Each step of an atomic write reaches the hook as its own point, in order.
    #[test]
    fn atomic_write_steps_hit_their_points() {
        use WriteStep as S;
        let seen = std::rc::Rc::new(RefCell::new(Vec::new()));
        let s = seen.clone();
        let _guard = arm(move |p| {
            s.borrow_mut().push(p);
            Ok(())
        });
        for step in [S::TempWritten, S::TempSynced, S::Renamed, S::DirSynced] {
            assert!(crash_point(step).is_ok());
        }
        assert_eq!(
            *seen.borrow(),
            [
                Point::AtomicWriteTempWritten,
                Point::AtomicWriteTempSynced,
                Point::AtomicWriteRenamed,
                Point::AtomicWriteDirSynced,
            ]
        );
    }
}
