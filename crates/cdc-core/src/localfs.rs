//! Files and directories oracle-cdc writes: the state directory (offsets, lock, ops events,
//! signal spool, spill files), the file sink's segments, exports and the emulator's files.
//!
//! - **No symbolic links.** Every such path is opened with `O_NOFOLLOW` (and directories are
//!   looked at with `lstat`): a link planted at `capture.lock`, `spill/` or a segment could
//!   otherwise make capture truncate, chmod or delete a file elsewhere. A link is refused with
//!   CDC-6301 naming the path, never followed.
//! - **No directory another user controls** (ssh's StrictModes rule): an existing directory must
//!   belong to this user (or root) and must not be writable by group or others (CDC-6302,
//!   CDC-6303). Anyone able to create files in it could plant links or files there first.
//! - **Regular files only**: a FIFO, device or directory where a file is expected is refused
//!   (CDC-6304) instead of blocking on it or reading it.
//! - **Private modes whatever the umask**: data files 0600 and directories 0700, or 0640/0750
//!   with `cdc.files.group.readable=true` (set once per process by [`set_group_readable`]);
//!   state files (offsets, lock, events) are always 0600. The mode is passed to `open` and set
//!   again with `fchmod`, so neither a umask of 000 nor a file left by an older version widens it.
//! - Deletions happen only inside such a checked directory, and only of entries whose names the
//!   caller recognises (segments, spill files, Parquet parts).

use crate::errors::{CdcError, Code, Result};
use std::fs::{File, OpenOptions};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

static GROUP_READABLE: AtomicBool = AtomicBool::new(false);

/// `cdc.files.group.readable`: data files 0640 and created directories 0750 instead of 0600
/// and 0700, for the rest of the process.
pub fn set_group_readable(on: bool) {
    GROUP_READABLE.store(on, Ordering::SeqCst);
}

/// What a file holds: state files stay private whatever the setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Offsets, locks, ops events, spill files, signal files.
    State,
    /// Sink segments, exports, dead letters, the emulator's files.
    Data,
}

impl Kind {
    pub fn mode(self) -> u32 {
        match (self, GROUP_READABLE.load(Ordering::SeqCst)) {
            (Kind::Data, true) => 0o640,
            _ => 0o600,
        }
    }
}

fn dir_mode() -> u32 {
    if GROUP_READABLE.load(Ordering::SeqCst) {
        0o750
    } else {
        0o700
    }
}

fn refused(code: Code, path: &Path, message: impl Into<String>) -> CdcError {
    CdcError::LocalPath {
        code,
        path: path.to_path_buf(),
        message: message.into(),
    }
}

fn symlink_error(path: &Path) -> CdcError {
    let target = std::fs::read_link(path)
        .map(|t| format!(" (it points to {})", t.display()))
        .unwrap_or_default();
    refused(
        Code::Cdc6301,
        path,
        format!(
            "is a symbolic link{target}; oracle-cdc never writes through one: remove it and name the real directory"
        ),
    )
}

#[cfg(unix)]
fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// This process's effective user id (`None` where there is none): for names of directories
/// each user keeps apart in a shared place (the temporary directory).
pub fn user_id() -> Option<u32> {
    #[cfg(unix)]
    return Some(euid());
    #[cfg(not(unix))]
    return None;
}

/// Check an existing directory: not a link, a directory, owned by this user or root, not
/// writable by group or others.
pub fn check_dir(path: &Path) -> Result<()> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| CdcError::io(path, e))?;
    if meta.file_type().is_symlink() {
        return Err(symlink_error(path));
    }
    if !meta.is_dir() {
        return Err(refused(
            Code::Cdc6304,
            path,
            "is not a directory: remove it or name another path",
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = euid();
        if meta.uid() != me && meta.uid() != 0 {
            return Err(refused(
                Code::Cdc6302,
                path,
                format!(
                    "belongs to user id {}, not to this user (id {me}): another user could plant files in it; `chown {me} {}` if it is yours, or use a directory of your own",
                    meta.uid(),
                    path.display()
                ),
            ));
        }
        let mode = meta.mode() & 0o7777;
        if mode & 0o022 != 0 {
            return Err(refused(
                Code::Cdc6303,
                path,
                format!(
                    "is writable by {} (mode {mode:04o}): other users could plant files or links in it; `chmod go-w {}`",
                    match (mode & 0o020 != 0, mode & 0o002 != 0) {
                        (true, true) => "group and others",
                        (true, false) => "its group",
                        _ => "others",
                    },
                    path.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Make sure `path` is a directory oracle-cdc may write in: created (mode 0700, parents as
/// needed) when missing, else checked ([`check_dir`]).
pub fn ensure_dir(path: &Path) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(_) => return check_dir(path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(CdcError::io(path, e)),
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| CdcError::io(parent, e))?;
    }
    let mut b = std::fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(dir_mode());
    }
    match b.create(path) {
        Ok(()) => {}
        // Created meanwhile (another process): checked like any existing directory.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return check_dir(path),
        Err(e) => return Err(CdcError::io(path, e)),
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The umask may have taken bits away from what is asked; never adds any.
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(dir_mode()))
            .map_err(|e| CdcError::io(path, e))?;
    }
    Ok(())
}

/// Open a file to write without following a link at its last component, refusing anything
/// but a regular file, with `kind`'s mode (also set on an existing file).
pub fn open(path: &Path, opts: &mut OpenOptions, kind: Kind) -> Result<File> {
    open_as(path, opts, Some(kind))
}

/// `mode`: set it (a file to write), or leave the file's own (a file only read).
fn open_as(path: &Path, opts: &mut OpenOptions, kind: Option<Kind>) -> Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: a FIFO planted here must not block the open (it is refused below).
        opts.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .mode(kind.unwrap_or(Kind::State).mode());
    }
    #[cfg(not(unix))]
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(symlink_error(path));
    }
    let file = match opts.open(path) {
        Ok(f) => f,
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(symlink_error(path)),
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
            return Err(refused(
                Code::Cdc6304,
                path,
                "is a FIFO or a socket, not a regular file: remove it",
            ))
        }
        Err(e) => return Err(CdcError::io(path, e)),
    };
    let meta = file.metadata().map_err(|e| CdcError::io(path, e))?;
    if !meta.is_file() {
        return Err(refused(
            Code::Cdc6304,
            path,
            "is not a regular file (a directory, FIFO or device): remove it",
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        use std::os::unix::io::AsRawFd;
        // Back to blocking I/O (no effect on regular files, but say what is meant).
        // SAFETY: fcntl on a file descriptor this function owns.
        unsafe {
            let fd = file.as_raw_fd();
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
            }
        }
        if let Some(mode) = kind.map(Kind::mode) {
            if meta.mode() & 0o7777 != mode && (meta.uid() == euid() || euid() == 0) {
                file.set_permissions(std::fs::Permissions::from_mode(mode))
                    .map_err(|e| CdcError::io(path, e))?;
            }
        }
    }
    Ok(file)
}

/// Open for appending (created when missing).
pub fn append(path: &Path, kind: Kind) -> Result<File> {
    open(path, OpenOptions::new().create(true).append(true), kind)
}

/// Open for reading and writing, created when missing, never truncated here.
pub fn read_write(path: &Path, kind: Kind) -> Result<File> {
    open(
        path,
        OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false),
        kind,
    )
}

/// Create (or empty) a file to write.
pub fn create(path: &Path, kind: Kind) -> Result<File> {
    open(
        path,
        OpenOptions::new().write(true).create(true).truncate(true),
        kind,
    )
}

/// Write a whole file (created or replaced in place) with `kind`'s mode.
pub fn write(path: &Path, bytes: &[u8], kind: Kind) -> Result<()> {
    use std::io::Write;
    create(path, kind)?
        .write_all(bytes)
        .map_err(|e| CdcError::io(path, e))
}

/// Remove a file oracle-cdc wrote in a checked directory: a link there is refused (its target
/// is never touched), anything but a regular file too.
pub fn remove_file(path: &Path) -> Result<()> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(CdcError::io(path, e)),
    };
    if meta.file_type().is_symlink() {
        return Err(symlink_error(path));
    }
    if !meta.is_file() {
        return Err(refused(
            Code::Cdc6304,
            path,
            "is not a regular file; oracle-cdc removes only the files it wrote: remove it by hand",
        ));
    }
    std::fs::remove_file(path).map_err(|e| CdcError::io(path, e))
}

/// Before anything else is written: `path`, when it exists, must be a regular file, not a link.
pub fn check_file(path: &Path) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(symlink_error(path)),
        Ok(m) if !m.is_file() => Err(refused(
            Code::Cdc6304,
            path,
            "is not a regular file (a directory, FIFO or device): remove it",
        )),
        _ => Ok(()),
    }
}

/// Read a file of at most `limit` bytes without following a link or blocking on a FIFO: the
/// size is looked at before anything is read.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let file = open_as(path, OpenOptions::new().read(true), None)?;
    let len = file.metadata().map_err(|e| CdcError::io(path, e))?.len();
    if len > limit {
        return Err(refused(
            Code::Cdc6305,
            path,
            format!("holds {len} bytes, more than the {limit} bytes allowed here"),
        ));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CdcError::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(refused(
            Code::Cdc6305,
            path,
            format!("grew past the {limit} bytes allowed here while it was read"),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests;
