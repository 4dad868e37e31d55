//! A file sink directory belongs to one capture. Two captures with different state directories
//! on one `cdc.sink.dir` would both acknowledge `segment-000001.jsonl`, and a restart of one
//! cuts the segment back to its own acknowledged length, destroying records the other had
//! acknowledged. So a capture holds `.sink.lock` while it runs, and its first start claims the
//! directory with a random id kept twice: in its offsets (`sink_owner`) and in
//! `.sink-owner.json` there (with its state directory and database, for the operator). A
//! capture whose offsets hold another id, or none, is refused before anything is written or cut
//! (CDC-6401). The id, not the path, decides: a state and sink directory moved or restored
//! together stay one capture's. Both files are hidden, so `out/*` globs see only segments.

use crate::errors::{CdcError, Code, Result};
use crate::offsets::Offsets;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub const OWNER_FILE: &str = ".sink-owner.json";
pub const LOCK_FILE: &str = ".sink.lock";

/// Who owns a sink directory: the capture whose offsets hold `id`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SinkOwner {
    /// The id the owning capture's offsets hold as `sink_owner`.
    pub id: String,
    /// The owning capture's state directory when it claimed the sink, as an absolute path.
    pub state_dir: PathBuf,
    /// The database it captures (name and DBID).
    pub database: String,
}

/// The held sink lock; released when dropped (or when the process dies), its file removed on
/// a clean release as the state directory's is ([`crate::state::StateLock`]).
pub struct SinkLock {
    _lock: crate::state::StateLock,
}

/// An owner record is a few hundred bytes; anything larger is not one.
const OWNER_LIMIT: u64 = 64 * 1024;

/// Take the sink directory `dir` for the capture with `offsets` (stored at `offsets_path` in
/// `state_dir`): hold its lock, and claim the directory when no capture has (a first start, or
/// output written before sink owners existed), saving the new id in the offsets first. Refused
/// (CDC-6401) while another process holds the lock, or when the directory's owner is not this
/// capture.
pub fn claim(
    dir: &Path,
    state_dir: &Path,
    offsets: &mut Offsets,
    offsets_path: &Path,
) -> Result<SinkLock> {
    crate::localfs::ensure_dir(dir)?;
    let lock_path = dir.join(LOCK_FILE);
    let file = match crate::state::lock_with_pid(&lock_path)? {
        Ok(file) => crate::state::StateLock::held(file, lock_path),
        Err(pid) => {
            return Err(CdcError::coded(
                Code::Cdc6401,
                format!(
                    "sink directory {} is in use by another capture (pid {pid} holds {LOCK_FILE}); each capture needs its own cdc.sink.dir",
                    dir.display()
                ),
            ))
        }
    };
    let state_dir = std::fs::canonicalize(state_dir).map_err(|e| CdcError::io(state_dir, e))?;
    let database = format!("{} (DBID {})", offsets.database.name, offsets.database.dbid);
    let owner_path = dir.join(OWNER_FILE);
    let record = read(&owner_path)?;
    let id = match (&record, &offsets.sink_owner) {
        // The record keeps the state directory it was claimed from: a pair moved together is
        // still this capture's, and a start that is refused later changes nothing here.
        (Some(r), Some(ours)) if &r.id == ours => return Ok(SinkLock { _lock: file }),
        (Some(r), _) => {
            return Err(CdcError::coded(
                Code::Cdc6401,
                format!(
                    "sink directory {} belongs to another capture (state directory {} when it claimed the sink, database {}): this capture's offsets in {} {}; its restart would cut back records the other acknowledged",
                    dir.display(),
                    r.state_dir.display(),
                    r.database,
                    state_dir.display(),
                    match &offsets.sink_owner {
                        Some(_) => "hold another sink owner id",
                        None => "hold no sink owner id",
                    }
                ),
            ))
        }
        (None, Some(ours)) => ours.clone(),
        // Segments no capture claimed, and these offsets acknowledge none of them: another
        // capture's output (from before sink owners existed). Claiming them would lock that
        // capture out of its own directory.
        (None, None) if offsets.sink.is_none() && !super::segments(dir)?.is_empty() => {
            return Err(CdcError::coded(
                Code::Cdc6401,
                format!(
                    "sink directory {} holds segment files that this capture's offsets (in {}) do not know: another capture's output; give this capture its own cdc.sink.dir",
                    dir.display(),
                    state_dir.display()
                ),
            ))
        }
        (None, None) => {
            let id = new_id();
            offsets.sink_owner = Some(id.clone());
            // The offsets first: a crash before the record is written leaves an id the next
            // start writes the record with, never a record no offsets name.
            offsets.save(offsets_path)?;
            id
        }
    };
    let owner = SinkOwner {
        id,
        state_dir,
        database,
    };
    let bytes = serde_json::to_vec_pretty(&owner)
        .map_err(|e| CdcError::io(&owner_path, std::io::Error::other(e)))?;
    crate::atomic_file::write_atomically(&owner_path, &bytes)?;
    Ok(SinkLock { _lock: file })
}

/// 128 random bits, hex: two captures never draw the same.
fn new_id() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The owner record of a sink directory, if it has one.
pub fn read(path: &Path) -> Result<Option<SinkOwner>> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CdcError::io(path, e)),
        Ok(_) => {}
    }
    let bytes = crate::localfs::read_limited(path, OWNER_LIMIT)?;
    serde_json::from_slice(&bytes).map(Some).map_err(|e| {
        CdcError::coded(
            Code::Cdc6401,
            format!(
                "{} is not a sink owner record ({e}): the directory's owner is unknown, so its segments are not touched",
                path.display()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offsets() -> Offsets {
        Offsets::new(crate::offsets::DatabaseIdentity {
            dbid: 42,
            incarnation: 1,
            name: "ORCL".into(),
        })
    }

    struct Capture {
        state: PathBuf,
        offsets: Offsets,
    }

    impl Capture {
        fn new(root: &Path, name: &str) -> Capture {
            let state = root.join(name);
            std::fs::create_dir(&state).unwrap();
            Capture {
                state,
                offsets: offsets(),
            }
        }

        fn claim(&mut self, sink: &Path) -> Result<SinkLock> {
            let path = self.state.join("offsets.json");
            claim(sink, &self.state, &mut self.offsets, &path)
        }
    }

    #[test]
    fn one_capture_per_sink_directory_by_lock_and_by_owner() {
        let root = tempfile::tempdir().unwrap();
        let sink = root.path().join("out");
        let mut a = Capture::new(root.path(), "a");
        let mut b = Capture::new(root.path(), "b");
        let held = a.claim(&sink).unwrap();
        // The id is in A's stored offsets before the record names it.
        let stored = Offsets::load(&a.state.join("offsets.json"))
            .unwrap()
            .unwrap();
        assert_eq!(stored.sink_owner, a.offsets.sink_owner);
        assert!(a.offsets.sink_owner.is_some());
        // While A runs, B is refused by the lock, naming the holder.
        let e = b.claim(&sink).err().unwrap();
        assert_eq!(e.code(), Code::Cdc6401);
        assert!(e.to_string().contains(&std::process::id().to_string()));
        drop(held);
        // A stopped: B is refused by the owner record, which names A's state directory.
        let e = b.claim(&sink).err().unwrap();
        assert_eq!(e.code(), Code::Cdc6401);
        let a_abs = std::fs::canonicalize(&a.state).unwrap();
        assert!(e.to_string().contains(&a_abs.display().to_string()), "{e}");
        assert!(e.to_string().contains("ORCL (DBID 42)"), "{e}");
        assert_eq!(b.offsets.sink_owner, None, "B claimed nothing");
        // So is B with an id of its own (another capture's offsets).
        b.offsets.sink_owner = Some("0123".into());
        assert_eq!(b.claim(&sink).err().unwrap().code(), Code::Cdc6401);
        // A itself comes back.
        drop(a.claim(&sink).unwrap());
    }

    #[test]
    fn a_state_and_sink_moved_together_stay_one_captures() {
        let root = tempfile::tempdir().unwrap();
        let mut a = Capture::new(root.path(), "a");
        drop(a.claim(&root.path().join("out")).unwrap());
        std::fs::rename(root.path().join("out"), root.path().join("out2")).unwrap();
        std::fs::rename(&a.state, root.path().join("a2")).unwrap();
        a.state = root.path().join("a2");
        drop(a.claim(&root.path().join("out2")).unwrap());
        let owner = read(&root.path().join("out2").join(OWNER_FILE))
            .unwrap()
            .unwrap();
        assert_eq!(Some(owner.id), a.offsets.sink_owner);
    }

    #[test]
    fn unclaimed_segments_are_claimed_only_by_the_offsets_that_acknowledge_them() {
        let root = tempfile::tempdir().unwrap();
        let sink = root.path().join("out");
        std::fs::create_dir(&sink).unwrap();
        std::fs::write(sink.join("segment-000001.jsonl"), b"{}\n").unwrap();
        // A fresh capture: refused, and nothing claimed for it.
        let mut b = Capture::new(root.path(), "b");
        assert_eq!(b.claim(&sink).err().unwrap().code(), Code::Cdc6401);
        assert!(read(&sink.join(OWNER_FILE)).unwrap().is_none());
        // The capture whose offsets acknowledge them (written before owners existed) claims them.
        let mut a = Capture::new(root.path(), "a");
        a.offsets.sink = Some(crate::offsets::SinkPosition::File {
            segment: "segment-000001.jsonl".into(),
            bytes: 3,
            records: 1,
        });
        drop(a.claim(&sink).unwrap());
        assert_eq!(
            read(&sink.join(OWNER_FILE)).unwrap().map(|o| o.id),
            a.offsets.sink_owner
        );
    }

    #[test]
    fn a_damaged_owner_record_is_refused_not_replaced() {
        let root = tempfile::tempdir().unwrap();
        let sink = root.path().join("out");
        std::fs::create_dir(&sink).unwrap();
        std::fs::write(sink.join(OWNER_FILE), b"{not json").unwrap();
        let mut a = Capture::new(root.path(), "a");
        assert_eq!(a.claim(&sink).err().unwrap().code(), Code::Cdc6401);
        assert_eq!(
            std::fs::read(sink.join(OWNER_FILE)).unwrap(),
            b"{not json",
            "the record is left for the operator"
        );
    }
}
