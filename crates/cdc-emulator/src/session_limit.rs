//! The sessions each user holds open, for its profile's SESSIONS_PER_USER: a login past the
//! limit fails with ORA-02391, as Oracle's does while RESOURCE_LIMIT is TRUE. A session counts
//! from its login until it is dropped (over Oracle Net: until its connection ends); the
//! sessions a database restart ended count no more, though their holders still have them.
//!
//! The count spans every process that opens the database, as Oracle's does: capture, a
//! `snapshot` beside it, `signal send`, `emulator serve` each hold their sessions in one
//! registry. Each session is a file there that its process holds locked (an exclusive advisory
//! lock, which the operating system releases when the process ends, as a client's connection
//! closing ends its session); a file whose lock is free was left by a process that ended, and
//! is swept. The registry lives in the temporary directory, not in the database's: a read-only
//! standby's directory is never written. The last process to let the database go removes it;
//! one left behind (its processes killed) is swept once its database directory is gone.
//! Only users with a limit are counted: the sessions of the others touch no file.
//!
//! A session whose connection a drill cut (a network partition: `cdc.emulator.fault.drop.per.mille`
//! with `….dead.connection.ms`) counts on after its holder drops it, until the database would
//! notice the client gone: Oracle keeps such a session until dead connection detection
//! (SQLNET.EXPIRE_TIME) or TCP keepalive finds the peer gone, and it counts towards the limit
//! meanwhile. Its file stays locked until then (or until its process ends).

use crate::errors::{CdcError, Code, Result};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The registry of one database's open sessions.
pub(crate) struct SessionCounts {
    pub(crate) dir: PathBuf,
    /// The database's directory, written in the registry's lock file: a registry whose
    /// database is gone (a test's temporary one, whose last process was killed) is swept.
    database: PathBuf,
}

/// Registries of databases that are gone are swept once a process (see [`sweep_orphans`]).
static SWEPT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Numbers this process's session files (one count for the process: it may open the same
/// database more than once).
static NEXT_FILE: AtomicU64 = AtomicU64::new(0);

/// One session's file, locked while the session counts; removed when it ends.
struct SessionFile {
    path: PathBuf,
    file: Option<File>,
}

impl Drop for SessionFile {
    fn drop(&mut self) {
        // Unlocked first (closed), then removed: a process counting meanwhile finds it free
        // and sweeps it, which is the same end.
        drop(self.file.take());
        let _ = std::fs::remove_file(&self.path);
    }
}

/// One open session's place in the count, given back when the last holder drops it (a
/// session's reader thread holds it too: it is the same Oracle session), or, once its
/// connection was cut, when the database would notice.
pub(crate) struct SessionSlot {
    /// `None` for a user without a limit (not counted).
    file: Mutex<Option<SessionFile>>,
    /// The registry outlives its sessions (its removal, with the last, sees none left).
    _counts: Option<Arc<SessionCounts>>,
    /// How long the session outlives its holders (0: not at all): set when a drill cuts its
    /// connection without a logoff.
    dead_for_ms: AtomicU64,
}

/// Where this user's registries are: in the temporary directory, one directory a user (each
/// private: another user could otherwise plant files in it, or keep this one from making it).
pub(crate) fn registries() -> PathBuf {
    std::env::temp_dir().join(match cdc_core::localfs::user_id() {
        Some(uid) => format!("oracle-cdc-emulator-sessions-{uid}"),
        None => "oracle-cdc-emulator-sessions".to_string(),
    })
}

/// The registry directory of the database at `canonical`: one per database (by its canonical
/// path), among this user's.
fn registry_of(canonical: &Path) -> PathBuf {
    // FNV-1a: a stable name for the path (std's hasher is not stable across releases).
    let hash = canonical
        .to_string_lossy()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    registries().join(format!("{hash:016x}"))
}

/// The start of the file names of `user`'s sessions opened after `epoch` restarts (the name in
/// hex: any character a user name may hold is safe in a file name so).
pub(crate) fn prefix(user: &str, epoch: u64) -> String {
    let hex: String = user.bytes().map(|b| format!("{b:02x}")).collect();
    format!("{hex}.{epoch}.")
}

fn io(path: &Path, e: std::io::Error) -> CdcError {
    CdcError::io(path, e)
}

/// Whether `path` still names the very file `file` is (the last process may have removed the
/// registry's lock file while this one waited for its lock).
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &File, path: &Path) -> bool {
    path.exists()
}

/// Options to write a file only this user may read (mode 0600), as every file the tool makes.
fn private(o: &mut std::fs::OpenOptions) -> &mut std::fs::OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    o.write(true)
}

/// The registry's lock file.
const GUARD: &str = ".count.lock";

/// How many times the registry's lock file is opened again after it was removed under a wait.
const GUARD_ATTEMPTS: u32 = 100;

impl SessionCounts {
    /// The session registry of the database whose data directory is `data_dir`.
    pub(crate) fn for_database(data_dir: &Path) -> SessionCounts {
        let database = data_dir
            .canonicalize()
            .unwrap_or_else(|_| data_dir.to_path_buf());
        SessionCounts {
            dir: registry_of(&database),
            database,
        }
    }

    /// Count one more session of `user`, opened after `epoch` restarts; ORA-02391 when it
    /// already holds `limit` in any process. A user without a limit is not counted (nothing
    /// would read the count): its sessions touch no file.
    pub(crate) fn open(
        self: &Arc<Self>,
        user: &str,
        epoch: u64,
        limit: Option<u32>,
    ) -> Result<Arc<SessionSlot>> {
        let Some(limit) = limit else {
            return Ok(Arc::new(SessionSlot {
                file: Mutex::new(None),
                _counts: None,
                dead_for_ms: AtomicU64::new(0),
            }));
        };
        // One count at a time across processes: counted and added under this lock, so two
        // logins never both take the last place, and a file is never seen before it is locked.
        let guard = self.guard()?;
        let prefix = prefix(user, epoch);
        let n = self.live(&prefix)?;
        if n >= limit {
            return Err(CdcError::Connect {
                code: Code::Cdc2011,
                message: format!(
                    "ORA-02391: exceeded simultaneous SESSIONS_PER_USER limit ({user} holds {n} sessions, its profile's limit)"
                ),
            });
        }
        // A new file, never another's: create_new refuses a name in use (a process that ended
        // with this pid may have left one), and the next number is tried.
        let (path, file) = loop {
            let path = self.dir.join(format!(
                "{prefix}{}.{}",
                std::process::id(),
                NEXT_FILE.fetch_add(1, Ordering::Relaxed)
            ));
            match private(std::fs::OpenOptions::new().create_new(true)).open(&path) {
                Ok(file) => break (path, file),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(io(&path, e)),
            }
        };
        let session = SessionFile {
            path: path.clone(),
            file: Some(file),
        };
        if let Some(f) = &session.file {
            f.try_lock().map_err(|e| {
                io(
                    &path,
                    std::io::Error::other(format!("a new session file was locked already: {e}")),
                )
            })?;
        }
        drop(guard);
        Ok(Arc::new(SessionSlot {
            file: Mutex::new(Some(session)),
            _counts: Some(Arc::clone(self)),
            dead_for_ms: AtomicU64::new(0),
        }))
    }

    /// The registry's lock, held (the registry made first where the last process to let the
    /// database go removed it).
    fn guard(&self) -> Result<File> {
        let path = self.dir.join(GUARD);
        for _ in 0..GUARD_ATTEMPTS {
            // Private directories (0700, this user's, no link): made, or checked.
            cdc_core::localfs::ensure_dir(&registries())?;
            cdc_core::localfs::ensure_dir(&self.dir)?;
            let guard = match private(std::fs::OpenOptions::new().create(true).truncate(false))
                .open(&path)
            {
                Ok(g) => g,
                // The last process to let the database go removed the registry meanwhile.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(io(&path, e)),
            };
            guard.lock().map_err(|e| io(&path, e))?;
            if same_file(&guard, &path) {
                if guard.metadata().is_ok_and(|m| m.len() == 0) {
                    use std::io::Write;
                    let _ = (&guard).write_all(self.database.to_string_lossy().as_bytes());
                }
                if !SWEPT.swap(true, Ordering::Relaxed) {
                    sweep_orphans(&self.dir);
                }
                return Ok(guard);
            }
        }
        Err(io(
            &path,
            std::io::Error::other(
                "the session registry was removed under every attempt to lock it",
            ),
        ))
    }

    /// The sessions whose files start with `prefix` and are held locked (by this process or
    /// another); the files of processes that ended are removed.
    fn live(&self, prefix: &str) -> Result<u32> {
        let mut n = 0;
        let entries = std::fs::read_dir(&self.dir).map_err(|e| io(&self.dir, e))?;
        for entry in entries.flatten() {
            let name = entry.file_name();
            if name == GUARD || !name.to_string_lossy().starts_with(prefix) {
                continue;
            }
            let path = entry.path();
            let Ok(file) = File::open(&path) else {
                // Removed meanwhile: that session ended.
                continue;
            };
            match file.try_lock() {
                Err(std::fs::TryLockError::WouldBlock) => n += 1,
                // Its process ended without removing it.
                Ok(()) => {
                    drop(file);
                    let _ = std::fs::remove_file(&path);
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(io(&path, e)),
            }
        }
        Ok(n)
    }

    /// The sessions `user` holds that were opened after `epoch` restarts, in any process (dead
    /// ones whose time is not up included).
    #[cfg(test)]
    pub(crate) fn held(&self, user: &str, epoch: u64) -> u32 {
        let Ok(_guard) = self.guard() else { return 0 };
        self.live(&prefix(user, epoch)).unwrap_or(0)
    }
}

/// Remove this user's registries whose database directory is gone and whose sessions all
/// ended (their processes were killed, so none removed it); `except`, the caller's, is left
/// alone. Best effort: a registry in use, or one that cannot be read, stays.
pub(crate) fn sweep_orphans(except: &Path) {
    let Ok(entries) = std::fs::read_dir(registries()) else {
        return;
    };
    for entry in entries.flatten() {
        let dir = entry.path();
        if dir == except {
            continue;
        }
        let guard_path = dir.join(GUARD);
        let Ok(database) = std::fs::read_to_string(&guard_path) else {
            continue;
        };
        if database.is_empty() || Path::new(&database).exists() {
            continue;
        }
        let Ok(guard) = std::fs::OpenOptions::new().write(true).open(&guard_path) else {
            continue;
        };
        if guard.try_lock().is_err() || !same_file(&guard, &guard_path) {
            continue;
        }
        let Ok(files) = std::fs::read_dir(&dir) else {
            continue;
        };
        let files: Vec<PathBuf> = files
            .flatten()
            .map(|e| e.path())
            .filter(|p| p != &guard_path)
            .collect();
        // Each session file free of its lock: no process holds it any more.
        let ended = files
            .iter()
            .all(|f| File::open(f).is_ok_and(|h| h.try_lock().is_ok()));
        if ended {
            for f in files {
                let _ = std::fs::remove_file(f);
            }
            let _ = std::fs::remove_file(&guard_path);
            let _ = std::fs::remove_dir(&dir);
        }
    }
}

impl Drop for SessionCounts {
    /// This process lets the database go: the last process to go removes the registry, so
    /// none is left behind in the temporary directory (a process killed leaves its files,
    /// swept by the next that counts).
    fn drop(&mut self) {
        let path = self.dir.join(GUARD);
        let Ok(guard) = std::fs::OpenOptions::new().write(true).open(&path) else {
            return;
        };
        if guard.lock().is_err() || !same_file(&guard, &path) {
            return;
        }
        // Every session's file, any user's (the files of processes that ended are swept).
        if self.live("").is_ok_and(|n| n == 0) {
            let _ = std::fs::remove_file(&path);
            let _ = std::fs::remove_dir(&self.dir);
        }
    }
}

impl SessionSlot {
    /// The session's connection was cut without a logoff: it counts on for `ms` after its
    /// holders drop it (0: it ends with them).
    pub(crate) fn outlive_connection(&self, ms: u64) {
        self.dead_for_ms.store(ms, Ordering::Relaxed);
    }
}

impl Drop for SessionSlot {
    fn drop(&mut self) {
        let Some(file) = self.file.get_mut().ok().and_then(Option::take) else {
            return;
        };
        match self.dead_for_ms.load(Ordering::Relaxed) {
            0 => drop(file),
            // Held locked that long, whoever counts meanwhile (any process), then let go; the
            // process ending first lets it go too, as a closed connection would.
            ms => {
                // The registry too, so it is not removed while this session still counts.
                let counts = self._counts.take();
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(ms));
                    drop(file);
                    drop(counts);
                });
            }
        }
    }
}
