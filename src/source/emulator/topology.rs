//! Emulated topologies: an Active Data Guard standby that applies a primary's redo with a lag,
//! and a downstream mining database that holds only the redo shipped to it.
//!
//! Such a directory holds one file, `topology.yaml`, naming the primary directory (made by
//! `emulator init`) whose redo it receives. Nothing is ever written to it: opening it reads the
//! primary's `schema.yaml` and `redo.log` (the redo the primary ships), and
//!
//! - a **physical standby** applies every redo record up to its *applied SCN*, the primary's
//!   SCN minus `apply_lag_scn`: its V$DATABASE.CURRENT_SCN is that applied SCN, reads `AS OF`
//!   an SCN beyond it fail with ORA-08181 (as on a standby, where later SCNs do not exist yet),
//!   reads at or below it see the primary's data as of that SCN, and it is open READ ONLY WITH
//!   APPLY (every write fails with ORA-16000);
//! - a **downstream** database is another database (its own name and DBID) that received the
//!   source's redo logs: the logs shipped are listed (with the source's DBID), LogMiner mines
//!   them, a window needing a log that is not there fails with ORA-01291, and the source's
//!   tables are not there (flashback reads fail with ORA-00942).

use super::schema::{OpenModeSpec, RoleSpec, SchemaFile};
use super::store::Replica;
use crate::errors::{CdcError, Result};
use crate::source::model::{LogFile, Scn};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub const TOPOLOGY_FILE: &str = "topology.yaml";

/// How a downstream receives the source's redo.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shipping {
    /// Real-time downstream capture: redo arrives in standby redo logs as the source writes
    /// it, so the current log is minable too.
    RealTime,
    /// Archived-log downstream capture: only archived logs are copied; the source's current
    /// log is not there until it is archived (a log switch).
    Archived,
}

/// The content of `topology.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TopologyFile {
    PhysicalStandby {
        /// The primary's directory (relative paths are taken from this directory).
        primary: PathBuf,
        /// How many SCNs redo apply runs behind the primary.
        #[serde(default)]
        apply_lag_scn: u64,
    },
    Downstream {
        /// The source database's directory whose redo is shipped here.
        source: PathBuf,
        /// The downstream database's own DB_NAME and DBID.
        name: String,
        dbid: u64,
        /// Its own CURRENT_SCN (it takes no transactions in the emulator, so it stays).
        scn: Scn,
        shipping: Shipping,
        /// Logs with a lower SEQUENCE# (on every thread) were never shipped here.
        #[serde(default = "one")]
        from_sequence: u64,
        /// Sequences (on every thread) lost on the way: a gap in redo transport.
        #[serde(default)]
        missing_sequences: Vec<u64>,
    },
}

fn one() -> u64 {
    1
}

/// What an emulated directory is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    Primary,
    Standby {
        apply_lag_scn: u64,
    },
    Downstream {
        name: String,
        dbid: u64,
        scn: Scn,
        shipping: Shipping,
        from_sequence: u64,
        missing_sequences: Vec<u64>,
    },
}

/// An opened directory: where its redo and schema are, what it is.
pub struct Resolved {
    /// The directory holding `schema.yaml` and `redo.log` (the primary's for a topology).
    pub data_dir: PathBuf,
    pub role: Role,
    /// The schema as this database shows it (a standby's role and open mode set).
    pub schema: SchemaFile,
}

fn bad(dir: &Path, reason: impl Into<String>) -> CdcError {
    CdcError::EmulatorTopology {
        path: dir.to_path_buf(),
        reason: reason.into(),
    }
}

/// Whether `dir` is a standby or downstream directory.
pub fn is_topology(dir: &Path) -> bool {
    dir.join(TOPOLOGY_FILE).is_file()
}

pub fn read_file(dir: &Path) -> Result<TopologyFile> {
    let path = dir.join(TOPOLOGY_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| CdcError::io(&path, e))?;
    serde_yaml::from_str(&text).map_err(|e| bad(dir, format!("{TOPOLOGY_FILE}: {e}")))
}

fn primary_dir(dir: &Path, named: &Path) -> Result<PathBuf> {
    let p = if named.is_relative() {
        dir.join(named)
    } else {
        named.to_path_buf()
    };
    if is_topology(&p) {
        return Err(bad(
            dir,
            format!(
                "{} is itself a standby or downstream; name the primary directory made by `emulator init`",
                p.display()
            ),
        ));
    }
    Ok(p)
}

/// Resolve a directory: a primary made by `emulator init`, or a topology directory.
pub fn resolve(dir: &Path) -> Result<Resolved> {
    if !is_topology(dir) {
        return Ok(Resolved {
            data_dir: dir.to_path_buf(),
            role: Role::Primary,
            schema: super::read_primary_schema(dir)?,
        });
    }
    match read_file(dir)? {
        TopologyFile::PhysicalStandby {
            primary,
            apply_lag_scn,
        } => {
            let data_dir = primary_dir(dir, &primary)?;
            let mut schema = super::read_primary_schema(&data_dir)
                .map_err(|e| bad(dir, format!("its primary: {e}")))?;
            schema.database.role = RoleSpec::PhysicalStandby;
            schema.database.open_mode = OpenModeSpec::ReadOnlyWithApply;
            Ok(Resolved {
                data_dir,
                role: Role::Standby { apply_lag_scn },
                schema,
            })
        }
        TopologyFile::Downstream {
            source,
            name,
            dbid,
            scn,
            shipping,
            from_sequence,
            missing_sequences,
        } => {
            let data_dir = primary_dir(dir, &source)?;
            let schema = super::read_primary_schema(&data_dir)
                .map_err(|e| bad(dir, format!("its source: {e}")))?;
            if dbid == schema.database.dbid {
                return Err(bad(
                    dir,
                    format!("a downstream is another database: its DBID must differ from the source's ({dbid})"),
                ));
            }
            Ok(Resolved {
                data_dir,
                role: Role::Downstream {
                    name,
                    dbid,
                    scn,
                    shipping,
                    from_sequence,
                    missing_sequences,
                },
                schema,
            })
        }
    }
}

/// Write `topology.yaml` into a new (or empty) directory.
pub fn create(dir: &Path, file: &TopologyFile) -> Result<()> {
    super::ensure_new_dir(dir)?;
    // Check it opens before anything is written.
    let named = match file {
        TopologyFile::PhysicalStandby { primary, .. } => primary,
        TopologyFile::Downstream { source, .. } => source,
    };
    if is_topology(named) {
        return Err(bad(
            dir,
            format!(
                "{} is itself a standby or downstream; name the primary directory made by `emulator init`",
                named.display()
            ),
        ));
    }
    super::read_primary_schema(named)?;
    crate::localfs::ensure_dir(dir)?;
    let text = serde_yaml::to_string(file).map_err(|e| bad(dir, e.to_string()))?;
    let path = dir.join(TOPOLOGY_FILE);
    crate::localfs::write(&path, text.as_bytes(), crate::localfs::Kind::Data)
}

impl Role {
    /// Whether a log of the source reached this downstream (always true off a downstream).
    fn shipped(&self, log: &LogFile) -> bool {
        match self {
            Role::Downstream {
                shipping,
                from_sequence,
                missing_sequences,
                ..
            } => {
                log.sequence >= *from_sequence
                    && !missing_sequences.contains(&log.sequence)
                    && (*shipping == Shipping::RealTime || log.next_scn.is_some())
            }
            _ => true,
        }
    }
}

/// Every log the source wrote, per thread and sequence, with NEXT_CHANGE# (None: current).
fn all_logs(replica: &Replica) -> Vec<LogFile> {
    let mut out = Vec::new();
    for (i, logs) in replica.logs.iter().enumerate() {
        let thread = i as u32 + 1;
        for (j, l) in logs.iter().enumerate() {
            let next = logs.get(j + 1).map(|n| n.first_scn);
            out.push(LogFile {
                name: format!(
                    "/u01/downstream/foreign/{thread}_{}_1000000001.arc",
                    l.sequence
                ),
                thread,
                sequence: l.sequence,
                first_scn: l.first_scn,
                next_scn: next,
                archived: next.is_some(),
                dbid: Some(replica.schema.database.dbid),
            });
        }
    }
    out
}

/// The logs a downstream holds (the source's redo shipped to it), carrying the source's DBID.
pub fn downstream_logs(role: &Role, replica: &Replica) -> Vec<LogFile> {
    all_logs(replica)
        .into_iter()
        .filter(|l| role.shipped(l))
        .collect()
}

/// The highest SCN a downstream's redo covers without a gap (from its oldest log on, per
/// thread; the lowest over threads). `None` off a downstream.
pub fn downstream_limit(role: &Role, replica: &Replica) -> Option<Scn> {
    let Role::Downstream { .. } = role else {
        return None;
    };
    let logs = all_logs(replica);
    let threads = replica.logs.len().max(1) as u32;
    let mut limit: Option<Scn> = None;
    for t in 1..=threads {
        let mut thread_limit: Option<Scn> = None;
        let mut started = false;
        for l in logs.iter().filter(|l| l.thread == t) {
            if role.shipped(l) {
                started = true;
                thread_limit = Some(match l.next_scn {
                    Some(n) => n.saturating_sub(1),
                    None => replica.current_scn,
                });
            } else if started {
                break;
            }
        }
        let tl = thread_limit.unwrap_or(0);
        limit = Some(limit.map_or(tl, |l| l.min(tl)));
    }
    // Redo up to the source's current SCN: no limit beyond the caller's own end.
    limit.filter(|l| *l < replica.current_scn)
}

/// Before mining `start..=end` on a downstream: every log of the source the window touches
/// must have been shipped, else ORA-01291 (the mining database lacks the log).
pub fn check_window(
    role: &Role,
    replica: &Replica,
    start: Scn,
    end: Scn,
    describe: &str,
) -> Result<()> {
    let Role::Downstream { .. } = role else {
        return Ok(());
    };
    let logs = all_logs(replica);
    let oldest = logs
        .iter()
        .filter(|l| role.shipped(l))
        .map(|l| l.first_scn)
        .min();
    for l in &logs {
        let touches = l.first_scn <= end && l.next_scn.is_none_or(|n| n > start);
        if touches && !role.shipped(l) {
            return Err(CdcError::MiningLogMissing {
                mining: describe.to_string(),
                scn: start.max(l.first_scn),
                sequence: Some((l.thread, l.sequence)),
                oldest,
            });
        }
    }
    Ok(())
}
