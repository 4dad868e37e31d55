//! Stored offsets: where capture or an export is, as versioned, human-readable JSON.
//!
//! Written atomically (temp file in the same directory, fsync, rename, directory fsync) with
//! mode 0600, so a crash at any point leaves either the old file or the new one. Offsets carry
//! the database's DBID and incarnation; offsets of another database are refused.

use crate::errors::{CdcError, Result};
use crate::types::Value;
use cdc_core::model::{DatabaseInfo, Scn};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub mod commit;
pub mod diff;
pub mod edit;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod inspect;
pub mod losses;
pub mod startup;
pub mod validate;

/// The format this build writes. Older versions are read and upgraded on the next write.
pub const FORMAT_VERSION: u32 = 1;

/// The oldest format version this build reads (and upgrades).
pub const OLDEST_FORMAT_VERSION: u32 = 1;

/// Upgrade the JSON of format `from` one version at a time up to [`FORMAT_VERSION`], so a file
/// of any supported older version is read, and written back in the current format.
fn upgrade(raw: serde_json::Value, from: u32) -> std::result::Result<serde_json::Value, String> {
    let mut raw = raw;
    for version in from..FORMAT_VERSION {
        raw = upgrade_step(version, raw)?;
    }
    Ok(raw)
}

/// One step: the JSON of format `version` to format `version + 1`. Format 1 is the first; each
/// format bump adds its step here (`1 => fill the new field, set "format": 2`) with a test that
/// reads a file of the old version.
fn upgrade_step(
    version: u32,
    raw: serde_json::Value,
) -> std::result::Result<serde_json::Value, String> {
    drop(raw);
    Err(format!("no upgrade from format version {version}"))
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Offsets {
    /// Format version of this file.
    pub format: u32,
    pub database: DatabaseIdentity,
    /// Snapshot progress (initial, snapshot_only, or a `snapshot` export).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<SnapshotState>,
    /// What an export to files was asked to produce (only `oracle-cdc snapshot`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export: Option<ExportSpec>,
    /// Where the change stream resumes (capture).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<StreamPosition>,
    /// How much of the sink's output is acknowledged (capture's file sink).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sink: Option<SinkPosition>,
    /// The id this capture claimed its file sink directory with (`.sink-owner.json` there holds
    /// the same): a capture whose offsets hold another id, or none, is refused there (CDC-6401).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sink_owner: Option<String>,
    /// The topic names chosen at the first start, kept: a change of the topic settings (or
    /// of how many PDBs are captured, under `cdc.topic.include.pdb=auto`) would move records
    /// to other topics under consumers' feet, so it is an operator's edit
    /// (`offsets edit set-topic-naming`), not a side effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topics: Option<TopicNaming>,
    /// How many schema-history entries are acknowledged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema_history: Option<SchemaHistoryPosition>,
    /// Snapshots started by signals that are not finished (incremental or blocking).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub signals: Vec<SignalSnapshot>,
    /// The latest signals' outcomes (at most [`SIGNAL_HISTORY`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub signal_history: Vec<SignalOutcome>,
}

/// Where streaming resumes. Several transactions can commit at one SCN, so the position is the
/// commit SCN plus the transactions already published at it, not a bare SCN.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamPosition {
    /// Mining restarts at this SCN: the oldest START SCN of the transactions still in flight when
    /// the position was written (or just after the last commit when none were).
    pub resume_scn: Scn,
    /// The last published commit SCN.
    pub commit_scn: Scn,
    /// Transactions (XIDs) published at `commit_scn`: skipped when seen again after a restart.
    #[serde(default)]
    pub commit_xids: Vec<String>,
    /// Last commit SCN published per redo thread.
    #[serde(default)]
    pub threads: BTreeMap<u32, Scn>,
}

/// The sink's acknowledged output, one form per sink.
///
/// Stored as it always was, `{"segment", "bytes", "records"}`: the file sink's segment name,
/// `"kafka"` or `"stdout"` (so offsets files written before stay readable and the format
/// commands/offsets.md documents holds).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "StoredSinkPosition", into = "StoredSinkPosition")]
pub enum SinkPosition {
    /// The file sink: the current segment file (relative to the sink directory) and its
    /// acknowledged length (a restart cuts everything after it), and the records acknowledged
    /// in all segments.
    File {
        segment: String,
        bytes: u64,
        records: u64,
    },
    /// The stdout sink: the records flushed to the reader.
    Stdout { records: u64 },
    /// The Kafka sink: the Kafka transactions committed with offsets (0 without
    /// transactions), and the records the broker acknowledged.
    Kafka { transactions: u64, records: u64 },
}

/// The segment name the Kafka sink's position is stored under.
pub const KAFKA_SEGMENT: &str = "kafka";
/// The segment name the stdout sink's position is stored under.
pub const STDOUT_SEGMENT: &str = "stdout";

impl SinkPosition {
    /// The records acknowledged in all.
    pub fn records(&self) -> u64 {
        match self {
            SinkPosition::File { records, .. }
            | SinkPosition::Stdout { records }
            | SinkPosition::Kafka { records, .. } => *records,
        }
    }

    /// Whether `self` is `old` or further on the same output (a file sink's same segment, at
    /// or past its length; the Kafka sink at or past its transaction).
    pub fn is_at_or_after(&self, old: &SinkPosition) -> bool {
        match (old, self) {
            (
                SinkPosition::File {
                    segment: a,
                    bytes: x,
                    ..
                },
                SinkPosition::File {
                    segment: b,
                    bytes: y,
                    ..
                },
            ) => a == b && y >= x,
            (
                SinkPosition::Kafka {
                    transactions: x, ..
                },
                SinkPosition::Kafka {
                    transactions: y, ..
                },
            ) => y >= x,
            (SinkPosition::Stdout { .. }, SinkPosition::Stdout { .. }) => true,
            _ => false,
        }
    }
}

impl std::fmt::Display for SinkPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SinkPosition::File {
                segment,
                bytes,
                records,
            } => write!(f, "{segment} at byte {bytes}, {records} records"),
            SinkPosition::Stdout { records } => write!(f, "stdout, {records} records"),
            SinkPosition::Kafka {
                transactions,
                records,
            } => write!(
                f,
                "Kafka, {transactions} transactions committed, {records} records"
            ),
        }
    }
}

/// [`SinkPosition`] as the offsets file stores it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoredSinkPosition {
    segment: String,
    bytes: u64,
    records: u64,
}

impl From<StoredSinkPosition> for SinkPosition {
    fn from(s: StoredSinkPosition) -> SinkPosition {
        match s.segment.as_str() {
            KAFKA_SEGMENT => SinkPosition::Kafka {
                transactions: s.bytes,
                records: s.records,
            },
            // The stdout sink stored 0 bytes; a hand edit's other number has no meaning there.
            STDOUT_SEGMENT => SinkPosition::Stdout { records: s.records },
            _ => SinkPosition::File {
                segment: s.segment,
                bytes: s.bytes,
                records: s.records,
            },
        }
    }
}

impl From<SinkPosition> for StoredSinkPosition {
    fn from(p: SinkPosition) -> StoredSinkPosition {
        let (segment, bytes, records) = match p {
            SinkPosition::File {
                segment,
                bytes,
                records,
            } => (segment, bytes, records),
            SinkPosition::Stdout { records } => (STDOUT_SEGMENT.to_string(), 0, records),
            SinkPosition::Kafka {
                transactions,
                records,
            } => (KAFKA_SEGMENT.to_string(), transactions, records),
        };
        StoredSinkPosition {
            segment,
            bytes,
            records,
        }
    }
}

/// How record topics are named: `PREFIX.[PDB.]OWNER.TABLE`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicNaming {
    /// `cdc.sink.topic.prefix`.
    pub prefix: String,
    /// Whether topics name the PDB.
    pub pdb: bool,
}

impl std::fmt::Display for TopicNaming {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.pdb {
            true => write!(f, "{}.PDB.OWNER.TABLE", self.prefix),
            false => write!(f, "{}.OWNER.TABLE", self.prefix),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchemaHistoryPosition {
    pub entries: u64,
}

/// A snapshot started by a signal. The first one in `Offsets::signals` runs; the others wait
/// their turn (cdc.signal.concurrent=queue).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SignalSnapshot {
    pub id: String,
    /// `incremental` or `blocking`.
    pub kind: String,
    pub tables: Vec<String>,
    #[serde(default)]
    pub paused: bool,
    /// Per table progress, like the initial snapshot's.
    #[serde(default)]
    pub progress: BTreeMap<String, TableProgress>,
    /// `additional-conditions`: the SQL condition narrowing a table's rows.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub filters: BTreeMap<String, String>,
    /// Records published so far.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub records: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// How a signal ended; the offsets keep the latest ones so an id is never used twice and a
/// signal file seen again after a crash is not run twice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignalOutcome {
    pub id: String,
    /// `execute-snapshot`, `pause-snapshot`, …
    #[serde(rename = "type")]
    pub kind: String,
    /// `done`, `stopped`, `failed` (reading it failed), `rejected` or `applied`.
    pub outcome: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    pub ts_ms: i64,
}

/// How many signal outcomes the offsets keep.
pub const SIGNAL_HISTORY: usize = 200;

/// Which database the offsets belong to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatabaseIdentity {
    pub dbid: u64,
    /// V$DATABASE.RESETLOGS_CHANGE#: a new incarnation after RESETLOGS.
    pub incarnation: Scn,
    pub name: String,
}

impl DatabaseIdentity {
    pub fn of(db: &DatabaseInfo) -> Self {
        DatabaseIdentity {
            dbid: db.dbid,
            incarnation: db.resetlogs_scn,
            name: db.name.clone(),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SnapshotState {
    /// Tables in reading order.
    pub order: Vec<String>,
    pub tables: BTreeMap<String, TableProgress>,
    /// Records published so far (the first one carries `snapshot: first`).
    pub records: u64,
    pub completed: bool,
    /// Tables left out, with the reason (cdc.key.missing=skip, cdc.on.decode.error=dlq).
    #[serde(default)]
    pub skipped: Vec<Skipped>,
    /// Paused by a `pause-snapshot` signal: no chunk is read until `resume-snapshot`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paused: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub table: String,
    pub reason: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableState {
    NotStarted,
    InProgress,
    Done,
}

/// Where a table's next chunk starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResumePoint {
    /// The next chunk's inclusive lower key.
    Key(Vec<Value>),
    /// The next chunk's first ROWID.
    Rowid(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableProgress {
    pub state: TableState,
    /// `key`, `rowid` or `single`.
    pub strategy: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<ResumePoint>,
    /// Chunks read and acknowledged by the sink.
    pub chunks: u64,
    pub rows: u64,
    /// SCN of every acknowledged chunk, in order.
    #[serde(default)]
    pub chunk_scns: Vec<Scn>,
    /// The export file and how many bytes of it are acknowledged (Parquet: the table's latest
    /// file, its row groups' bytes without the footer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<FileProgress>,
}

impl TableProgress {
    pub fn new(strategy: &str) -> Self {
        TableProgress {
            state: TableState::NotStarted,
            strategy: strategy.to_string(),
            next: None,
            chunks: 0,
            rows: 0,
            chunk_scns: Vec::new(),
            file: None,
        }
    }

    /// After the table's last chunk: done in the same save that acknowledges the chunk. The
    /// last chunk has no resume point, so a crash before a later save re-read the whole table
    /// (found by the simulation, seed 27; `tests/all/sim.rs` keeps it).
    pub fn done_after(&mut self, last_chunk: bool) {
        if last_chunk {
            self.state = TableState::Done;
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileProgress {
    pub name: String,
    pub bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportSpec {
    /// `jsonl`, `csv`, `records` or `parquet`.
    pub format: String,
    pub tables: Vec<String>,
}

impl Offsets {
    pub fn new(identity: DatabaseIdentity) -> Self {
        Offsets {
            format: FORMAT_VERSION,
            database: identity,
            snapshot: None,
            export: None,
            stream: None,
            sink: None,
            sink_owner: None,
            topics: None,
            schema_history: None,
            signals: Vec::new(),
            signal_history: Vec::new(),
        }
    }

    /// Read an offsets file; `Ok(None)` when there is none. A file of an older format version
    /// is upgraded in memory (and written in the current format by the next save).
    pub fn load(path: &Path) -> Result<Option<Offsets>> {
        Ok(Offsets::load_versioned(path)?.map(|(o, _)| o))
    }

    /// [`Offsets::load`], also returning the format version the file was written in.
    pub fn load_versioned(path: &Path) -> Result<Option<(Offsets, u32)>> {
        let text = match std::fs::read(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(CdcError::io(path, e)),
        };
        let text = String::from_utf8(text).map_err(|e| CdcError::OffsetsDamaged {
            path: path.to_path_buf(),
            message: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        })?;
        Offsets::parse(path, &text).map(Some)
    }

    /// Parse offsets JSON (`path` is named in errors): refuses damaged text (CDC-7002, with the
    /// line and column) and newer format versions (CDC-7003); upgrades older ones. Returns the
    /// offsets, in the current format, and the version the text was written in.
    pub fn parse(path: &Path, text: &str) -> Result<(Offsets, u32)> {
        let damaged = |message: String| CdcError::OffsetsDamaged {
            path: path.to_path_buf(),
            message,
        };
        // serde_json's messages end with the line and column.
        let raw: serde_json::Value =
            serde_json::from_str(text).map_err(|e| damaged(e.to_string()))?;
        if !raw.is_object() {
            return Err(damaged("not a JSON object".into()));
        }
        let format = raw
            .get("format")
            .and_then(|f| f.as_u64())
            .ok_or_else(|| damaged("no `format` version number".into()))?;
        if format > u64::from(FORMAT_VERSION) {
            return Err(CdcError::OffsetsTooNew {
                path: path.to_path_buf(),
                found: u32::try_from(format).unwrap_or(u32::MAX),
                supported: FORMAT_VERSION,
            });
        }
        let format = format as u32;
        if format < OLDEST_FORMAT_VERSION {
            return Err(damaged(format!(
                "format version {format} was never written by oracle-cdc (versions {OLDEST_FORMAT_VERSION} to {FORMAT_VERSION} are read)"
            )));
        }
        let mut offsets: Offsets = if format == FORMAT_VERSION {
            // From the text, so type errors carry their line and column.
            serde_json::from_str(text).map_err(|e| damaged(e.to_string()))?
        } else {
            let raw = upgrade(raw, format).map_err(damaged)?;
            serde_json::from_value(raw).map_err(|e| damaged(e.to_string()))?
        };
        offsets.format = FORMAT_VERSION;
        // One XID case everywhere (lower, as capture writes them and records carry them): a
        // hand-edited or older file's upper-case XIDs are lowered as they are read.
        if let Some(s) = offsets.stream.as_mut() {
            for x in &mut s.commit_xids {
                x.make_ascii_lowercase();
            }
        }
        Ok((offsets, format))
    }

    /// The file's bytes: pretty JSON and a final newline.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut text = serde_json::to_vec_pretty(self).map_err(|e| CdcError::OffsetsDamaged {
            path: PathBuf::from(crate::state::OFFSETS_FILE),
            message: e.to_string(),
        })?;
        text.push(b'\n');
        Ok(text)
    }

    /// Refuse offsets of another database or incarnation.
    pub fn check_database(&self, path: &Path, db: &DatabaseInfo) -> Result<()> {
        if self.database.dbid != db.dbid || self.database.incarnation != db.resetlogs_scn {
            return Err(CdcError::OffsetsOtherDatabase {
                path: path.to_path_buf(),
                found_dbid: self.database.dbid,
                found_incarnation: self.database.incarnation,
                dbid: db.dbid,
                incarnation: db.resetlogs_scn,
            });
        }
        Ok(())
    }

    /// Write atomically: temp file, fsync, rename, directory fsync. Mode 0600.
    pub fn save(&self, path: &Path) -> Result<()> {
        let bytes = self.to_bytes()?;
        run_save_hook(path, &bytes)?;
        write_atomically(path, &bytes)
    }
}

/// What runs before offsets are written to a path: the Kafka sink's transactions commit the
/// records with the offsets document there (then the local write follows).
type SaveHook = Box<dyn FnMut(&[u8]) -> Result<()> + Send>;

/// The hooks by offsets path. One per path: two sinks in one process (the simulation's and the
/// tests' parallel captures) each keep their own, and dropping one guard removes only its hook.
static SAVE_HOOKS: std::sync::Mutex<Vec<(PathBuf, SaveHook)>> = std::sync::Mutex::new(Vec::new());

fn save_hooks() -> std::sync::MutexGuard<'static, Vec<(PathBuf, SaveHook)>> {
    SAVE_HOOKS.lock().unwrap_or_else(|p| p.into_inner())
}

/// Run `hook` with the document before every [`Offsets::save`] to `path`, until the guard drops.
pub fn set_save_hook(path: &Path, hook: SaveHook) -> SaveHookGuard {
    let mut h = save_hooks();
    h.retain(|(p, _)| p != path);
    h.push((path.to_path_buf(), hook));
    SaveHookGuard {
        path: path.to_path_buf(),
    }
}

/// Removes its path's save hook when dropped.
pub struct SaveHookGuard {
    path: PathBuf,
}

impl Drop for SaveHookGuard {
    fn drop(&mut self) {
        save_hooks().retain(|(p, _)| p != &self.path);
    }
}

fn run_save_hook(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut h = save_hooks();
    match h.iter_mut().find(|(p, _)| p == path) {
        Some((_, hook)) => hook(bytes),
        None => Ok(()),
    }
}

#[cfg(test)]
mod save_hook_tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// Two sinks' hooks live side by side: each save runs its own path's hook, and dropping one
    /// guard leaves the other (one global slot let a second sink's guard remove the first's,
    /// so the Kafka mock test lost its offsets transaction when tests ran in parallel).
    #[test]
    fn hooks_are_per_path_and_a_guard_removes_only_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
        let (na, nb) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let (ca, cb) = (na.clone(), nb.clone());
        let ga = set_save_hook(
            &a,
            Box::new(move |_| {
                ca.fetch_add(1, Ordering::SeqCst);
                Ok(())
            }),
        );
        let gb = set_save_hook(
            &b,
            Box::new(move |_| {
                cb.fetch_add(1, Ordering::SeqCst);
                Ok(())
            }),
        );
        run_save_hook(&a, b"{}").unwrap();
        drop(gb);
        run_save_hook(&a, b"{}").unwrap();
        run_save_hook(&b, b"{}").unwrap();
        assert_eq!(na.load(Ordering::SeqCst), 2);
        assert_eq!(nb.load(Ordering::SeqCst), 0);
        drop(ga);
        run_save_hook(&a, b"{}").unwrap();
        assert_eq!(na.load(Ordering::SeqCst), 2);
    }
}

// The atomic replace of a file is its own module; offsets and the CLI name it from here too.
pub use crate::atomic_file::{set_private, write_atomically, write_atomically_with, WriteStep};

#[cfg(test)]
mod tests {
    use super::*;

    /// Each sink's position is stored in the one shape offsets files always had (so files
    /// written before load, and commands/offsets.md's `sink.*` fields hold), and read back as
    /// the same sink's.
    #[test]
    fn sink_positions_keep_their_stored_shape_per_sink() {
        let cases = [
            (
                SinkPosition::File {
                    segment: "segment-000003.jsonl".into(),
                    bytes: 4096,
                    records: 12,
                },
                serde_json::json!({"segment": "segment-000003.jsonl", "bytes": 4096, "records": 12}),
            ),
            (
                SinkPosition::Kafka {
                    transactions: 7,
                    records: 90,
                },
                serde_json::json!({"segment": "kafka", "bytes": 7, "records": 90}),
            ),
            (
                SinkPosition::Stdout { records: 5 },
                serde_json::json!({"segment": "stdout", "bytes": 0, "records": 5}),
            ),
        ];
        for (position, stored) in cases {
            assert_eq!(serde_json::to_value(&position).unwrap(), stored);
            let back: SinkPosition = serde_json::from_value(stored).unwrap();
            assert_eq!(back, position);
        }
        let file = |segment: &str, bytes| SinkPosition::File {
            segment: segment.into(),
            bytes,
            records: 0,
        };
        assert!(file("a", 10).is_at_or_after(&file("a", 9)));
        assert!(!file("a", 8).is_at_or_after(&file("a", 9)));
        assert!(!file("b", 10).is_at_or_after(&file("a", 9)));
        assert!(!SinkPosition::Stdout { records: 1 }.is_at_or_after(&file("a", 0)));
    }

    fn identity() -> DatabaseIdentity {
        DatabaseIdentity {
            dbid: 42,
            incarnation: 1000,
            name: "DB".into(),
        }
    }

    #[test]
    fn round_trip_is_private_and_atomic() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("offsets.json");
        let mut o = Offsets::new(identity());
        o.snapshot = Some(SnapshotState {
            order: vec!["HR.EMP".into()],
            tables: BTreeMap::from([(
                "HR.EMP".into(),
                TableProgress {
                    next: Some(ResumePoint::Key(vec![Value::Number("17".into())])),
                    ..TableProgress::new("key")
                },
            )]),
            records: 3,
            completed: false,
            skipped: vec![],
            ..Default::default()
        });
        o.save(&path).unwrap();
        assert_eq!(Offsets::load(&path).unwrap().unwrap(), o);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temp file left behind");
    }

    #[test]
    fn format_versions_are_reported_checked_and_written_current() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("offsets.json");
        Offsets::new(identity()).save(&path).unwrap();
        let (o, v) = Offsets::load_versioned(&path).unwrap().unwrap();
        assert_eq!((o.format, v), (FORMAT_VERSION, FORMAT_VERSION));
        let text = std::fs::read_to_string(&path).unwrap();
        let e = Offsets::parse(&path, &text.replace("\"format\": 1", "\"format\": 0")).unwrap_err();
        assert_eq!(e.code(), crate::errors::Code::Cdc7002);
        assert!(
            e.to_string().contains("format version 0 was never written"),
            "{e}"
        );
        let e = Offsets::parse(&path, &text.replace("\"format\": 1", "\"format\": 2")).unwrap_err();
        assert!(
            e.to_string()
                .contains("format version 2; this oracle-cdc reads up to version 1"),
            "{e}"
        );
        // Type errors carry their position.
        let e =
            Offsets::parse(&path, &text.replace("\"dbid\": 42", "\"dbid\": \"42\"")).unwrap_err();
        assert!(e.to_string().contains("at line 4 column"), "{e}");
        assert!(Offsets::parse(&path, "[1]")
            .unwrap_err()
            .to_string()
            .contains("not a JSON object"));
        assert_eq!(
            upgrade(serde_json::json!({}), FORMAT_VERSION).unwrap(),
            serde_json::json!({})
        );
    }

    #[test]
    fn damaged_newer_and_foreign_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("offsets.json");
        std::fs::write(&path, "{\"format\": 1, \"database\": ").unwrap();
        assert_eq!(
            Offsets::load(&path).unwrap_err().code(),
            crate::errors::Code::Cdc7002
        );
        std::fs::write(&path, "{\"format\": 9, \"database\": {}}").unwrap();
        assert_eq!(
            Offsets::load(&path).unwrap_err().code(),
            crate::errors::Code::Cdc7003
        );
        std::fs::write(&path, "{\"database\": {}}").unwrap();
        assert_eq!(
            Offsets::load(&path).unwrap_err().code(),
            crate::errors::Code::Cdc7002
        );
        assert!(Offsets::load(&dir.path().join("none.json"))
            .unwrap()
            .is_none());
        let o = Offsets::new(identity());
        let db = DatabaseInfo {
            dbid: 43,
            name: "DB".into(),
            version: String::new(),
            edition: String::new(),
            cdb: false,
            pdbs: vec![],
            restricted_pdbs: vec![],
            resetlogs_scn: 1000,
            role: cdc_core::model::DatabaseRole::Primary,
            open_mode: cdc_core::model::OpenMode::ReadWrite,
            archivelog: true,
            force_logging: false,
            supplemental_min: true,
            supplemental_all: false,
            undo_retention_secs: 900,
            undo_guarantee: false,
        };
        let e = o.check_database(&path, &db).unwrap_err();
        assert_eq!(e.code(), crate::errors::Code::Cdc7001);
        assert!(
            e.to_string().contains("DBID 42") && e.to_string().contains("DBID 43"),
            "{e}"
        );
    }
}
