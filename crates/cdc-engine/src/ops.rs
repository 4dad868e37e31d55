//! Operational events (JSON lines: `snapshot-chunk-done`, `snapshot-complete`, …) and the
//! Snapshot* metrics.

use crate::errors::{CdcError, Result};
use serde::Serialize;
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The log target of warnings that say the work is held up by something outside it (a Kafka
/// broker not answering, a database not reachable, a redo log not yet shipped). `--quiet`
/// shows these too, though it otherwise leaves only errors: a capture waiting in silence
/// looks like one that works.
pub const STALL_LOG_TARGET: &str = "oracle_cdc::stall";

/// Where ops events go: a file of JSON lines (appended, flushed per event), or nowhere.
pub struct OpsLog {
    path: Option<PathBuf>,
    file: Mutex<Option<std::fs::File>>,
}

impl OpsLog {
    pub fn to_file(path: &Path) -> Result<OpsLog> {
        let file = crate::localfs::append(path, crate::localfs::Kind::State)?;
        Ok(OpsLog {
            path: Some(path.to_path_buf()),
            file: Mutex::new(Some(file)),
        })
    }

    pub fn discard() -> OpsLog {
        OpsLog {
            path: None,
            file: Mutex::new(None),
        }
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Append `{"event": name, "ts_ms": …, …fields}`.
    pub fn emit(&self, event: &str, fields: Json) -> Result<()> {
        let mut obj = Map::new();
        obj.insert("event".into(), Json::String(event.into()));
        obj.insert("ts_ms".into(), Json::from(cdc_core::civil::now_ms()));
        if let Json::Object(f) = fields {
            obj.extend(f);
        }
        tracing::debug!(target: "ops", "{}", Json::Object(obj.clone()));
        let mut guard = self
            .file
            .lock()
            .map_err(|_| CdcError::Database("ops log lock poisoned".into()))?;
        if let (Some(f), Some(p)) = (guard.as_mut(), self.path.as_ref()) {
            let mut line = serde_json::to_vec(&Json::Object(obj)).unwrap_or_default();
            line.push(b'\n');
            f.write_all(&line).map_err(|e| CdcError::io(p, e))?;
            f.flush().map_err(|e| CdcError::io(p, e))?;
        }
        Ok(())
    }
}

/// The Snapshot* metrics: what a snapshot is doing now.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SnapshotMetrics {
    pub running: bool,
    pub paused: bool,
    pub tables_total: u64,
    pub tables_remaining: u64,
    pub rows_scanned: BTreeMap<String, u64>,
    pub chunks_done: u64,
    pub retries: u64,
    /// Reading sessions the snapshot uses: cdc.snapshot.threads, fewer after the database
    /// refused one (the session limit).
    pub readers: u64,
    pub duration_ms: u64,
}

/// Read the events of an ops file (tests, `--wait`-style followers).
pub fn read_events(path: &Path) -> Result<Vec<Json>> {
    let text = std::fs::read_to_string(path).map_err(|e| CdcError::io(path, e))?;
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect())
}
