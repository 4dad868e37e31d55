//! Writing an edited offsets file: a timestamped backup of the old bytes first, then the new
//! content atomically (temp file, fsync, rename, directory fsync). A failure or crash at any
//! step leaves either the old file or the new one, never a mix, and the backup is durable before
//! the old file can be replaced.

use super::{set_private, write_atomically_with, WriteStep};
use crate::errors::{CdcError, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A step of [`commit`], reported to its hook after it is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The backup is written and fsynced (and its directory entry too).
    BackedUp,
    /// A step of the atomic write.
    Write(WriteStep),
}

impl Step {
    /// Every step, in order.
    pub const ALL: [Step; 5] = [
        Step::BackedUp,
        Step::Write(WriteStep::TempWritten),
        Step::Write(WriteStep::TempSynced),
        Step::Write(WriteStep::Renamed),
        Step::Write(WriteStep::DirSynced),
    ];

    /// `after-backup`, `after-temp-write`, `after-temp-sync`, `after-rename`, `after-dir-sync`.
    pub fn name(self) -> &'static str {
        match self {
            Step::BackedUp => "after-backup",
            Step::Write(WriteStep::TempWritten) => "after-temp-write",
            Step::Write(WriteStep::TempSynced) => "after-temp-sync",
            Step::Write(WriteStep::Renamed) => "after-rename",
            Step::Write(WriteStep::DirSynced) => "after-dir-sync",
        }
    }
}

/// `offsets.json.bak-20250131T142501Z` for `offsets.json` at that UTC time.
pub fn backup_name(path: &Path, now: chrono::DateTime<chrono::Utc>) -> String {
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| crate::state::OFFSETS_FILE.to_string());
    format!("{file}.bak-{}", now.format("%Y%m%dT%H%M%SZ"))
}

/// Back `old` up next to `path` (when there is an old file), then replace `path` with `new`
/// atomically. `after` runs after each step; an error from it stops there. Returns the backup.
pub fn commit(
    path: &Path,
    old: Option<&[u8]>,
    new: &[u8],
    now: chrono::DateTime<chrono::Utc>,
    after: &mut dyn FnMut(Step) -> Result<()>,
) -> Result<Option<PathBuf>> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let backup = match old {
        Some(bytes) => {
            let backup = write_backup(&dir, &backup_name(path, now), bytes)?;
            after(Step::BackedUp)?;
            Some(backup)
        }
        None => None,
    };
    write_atomically_with(path, new, &mut |s| after(Step::Write(s)))?;
    Ok(backup)
}

/// Write `bytes` to a new file `name` in `dir` (`name-2`, `name-3`, … when it exists), mode
/// 0600, fsynced with its directory.
fn write_backup(dir: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf> {
    let mut n = 1;
    let (path, mut file) = loop {
        let candidate = if n == 1 {
            dir.join(name)
        } else {
            dir.join(format!("{name}-{n}"))
        };
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(f) => break (candidate, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(e) => return Err(CdcError::io(&candidate, e)),
        }
    };
    set_private(&path)?;
    file.write_all(bytes).map_err(|e| CdcError::io(&path, e))?;
    file.sync_all().map_err(|e| CdcError::io(&path, e))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::offsets::{DatabaseIdentity, Offsets, StreamPosition};
    use chrono::TimeZone;

    fn offsets(commit_scn: u64) -> Offsets {
        let mut o = Offsets::new(DatabaseIdentity {
            dbid: 7,
            incarnation: 1,
            name: "DB".into(),
        });
        o.stream = Some(StreamPosition {
            resume_scn: commit_scn,
            commit_scn,
            commit_xids: vec![],
            threads: Default::default(),
        });
        o
    }

    fn now() -> chrono::DateTime<chrono::Utc> {
        chrono::Utc
            .with_ymd_and_hms(2025, 1, 31, 14, 25, 1)
            .unwrap()
    }

    #[test]
    fn backup_then_new_content() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("offsets.json");
        let old = offsets(100).to_bytes().unwrap();
        std::fs::write(&path, &old).unwrap();
        let new = offsets(200).to_bytes().unwrap();
        let backup = commit(&path, Some(&old), &new, now(), &mut |_| Ok(()))
            .unwrap()
            .unwrap();
        assert_eq!(
            backup.file_name().unwrap(),
            "offsets.json.bak-20250131T142501Z"
        );
        assert_eq!(std::fs::read(&backup).unwrap(), old);
        assert_eq!(std::fs::read(&path).unwrap(), new);
        // A second edit in the same second keeps both backups.
        let second = commit(&path, Some(&new), &old, now(), &mut |_| Ok(()))
            .unwrap()
            .unwrap();
        assert_eq!(
            second.file_name().unwrap(),
            "offsets.json.bak-20250131T142501Z-2"
        );
        assert_eq!(std::fs::read(&second).unwrap(), new);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&backup).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
    }

    /// A failure injected after each step leaves a valid file: the old one before the rename,
    /// the new one after it; the backup always holds the old bytes.
    #[test]
    fn a_failure_between_any_two_steps_leaves_a_valid_file() {
        for (i, fail_at) in Step::ALL.iter().enumerate() {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("offsets.json");
            let old = offsets(100).to_bytes().unwrap();
            std::fs::write(&path, &old).unwrap();
            let new = offsets(200).to_bytes().unwrap();
            let e = commit(&path, Some(&old), &new, now(), &mut |s| {
                if s == *fail_at {
                    Err(CdcError::io(&path, std::io::Error::other("injected")))
                } else {
                    Ok(())
                }
            })
            .unwrap_err();
            assert!(e.to_string().contains("injected"), "{e}");
            let renamed = i >= 3;
            let now_there = std::fs::read(&path).unwrap();
            assert_eq!(
                now_there,
                if renamed { new.clone() } else { old.clone() },
                "{fail_at:?}"
            );
            let loaded = Offsets::load(&path).unwrap().unwrap();
            let expect = if renamed { 200 } else { 100 };
            assert_eq!(loaded.stream.unwrap().commit_scn, expect, "{fail_at:?}");
            let backup = dir.path().join("offsets.json.bak-20250131T142501Z");
            assert_eq!(std::fs::read(&backup).unwrap(), old, "{fail_at:?}");
            let names: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            assert_eq!(names.len(), 2, "no temp file left: {names:?}");
        }
    }

    #[test]
    fn no_backup_without_an_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("offsets.json");
        let new = offsets(5).to_bytes().unwrap();
        assert!(commit(&path, None, &new, now(), &mut |_| Ok(()))
            .unwrap()
            .is_none());
        assert_eq!(std::fs::read(&path).unwrap(), new);
    }
}
