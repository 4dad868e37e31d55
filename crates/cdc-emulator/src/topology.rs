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
use cdc_core::model::{LogFile, RedoThread, Scn};
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

/// Every log the source wrote, per thread and sequence, with NEXT_CHANGE# (None: current), as
/// a downstream would hold it at `now_ms`: a whole log as a foreign archived log
/// (V$FOREIGN_ARCHIVED_LOG, with the source's DBID and RESETLOGS_CHANGE#), the current one as
/// the standby redo log real-time shipping writes (V$STANDBY_LOG, the source's DBID, no
/// incarnation column). Real-time shipping sends what the source's LGWR writes as it writes
/// it, so a standby redo log holds its thread's redo up to the thread's newest written record
/// (LAST_CHANGE# one past it), from its first SCN on: an idle thread's stands still as its
/// V$THREAD position does.
fn all_logs(replica: &Replica, now_ms: i64) -> Vec<LogFile> {
    let d = &replica.schema.database;
    let written = replica.written(now_ms);
    let mut out = Vec::new();
    for (i, logs) in replica.logs.iter().enumerate() {
        let thread = i as u32 + 1;
        let last_written = written.get(i).and_then(|w| w.last).map(|(scn, _)| scn);
        for (j, l) in logs.iter().enumerate() {
            let next = logs.get(j + 1).map(|n| n.first_scn);
            out.push(LogFile {
                name: match next {
                    Some(_) => format!(
                        "/u01/downstream/foreign/{thread}_{}_1000000001.arc",
                        l.sequence
                    ),
                    None => format!("/u01/downstream/standby/srl_t{thread}.log"),
                },
                thread,
                sequence: l.sequence,
                first_scn: l.first_scn,
                next_scn: next,
                archived: next.is_some(),
                dbid: Some(d.dbid),
                resetlogs_scn: next.map(|_| d.start_scn),
                received_to: match next {
                    Some(_) => None,
                    None => Some(last_written.unwrap_or(0).max(l.first_scn)),
                },
            });
        }
    }
    out
}

/// The logs LogMiner is given on a physical standby: the primary's logs it received whole,
/// archived there (V$ARCHIVED_LOG). The redo of each thread's current log reaches the standby
/// in a standby redo log as the primary writes it, and real-time apply applies it from there
/// ("apply services can apply redo data as it is received, without waiting for the current
/// standby redo log file to be archived", Data Guard Concepts, Apply Services), so the applied
/// SCN (CURRENT_SCN) runs ahead of these logs; the standby redo log is not in V$ARCHIVED_LOG
/// until it is archived after the primary's log switch, and the standby's own online logs
/// (V$LOG) are not written while it is a standby. The adapter mines these logs only. (The
/// standby archives to the destinations of the primary's schema: without a VALID LOCAL one
/// it holds no archived log.)
pub fn standby_logs(replica: &Replica) -> Vec<LogFile> {
    replica
        .log_files()
        .into_iter()
        .filter(|l| l.archived)
        .collect()
}

/// A downstream's own redo thread (V$THREAD there): it takes no transactions, so its thread
/// wrote last when the database was made, at its own SCN. `None` off a downstream.
pub fn own_thread(role: &Role) -> Option<RedoThread> {
    let Role::Downstream { scn, .. } = role else {
        return None;
    };
    Some(RedoThread {
        thread: 1,
        status: "OPEN".into(),
        enabled: "PUBLIC".into(),
        sequence: 1,
        last_redo_scn: *scn,
        last_redo_time: None,
        last_redo_sequence: Some(1),
        last_redo_block: Some(0),
        enabled_scn: Some(*scn),
    })
}

/// A downstream's own redo logs (V$LOG, V$LOGFILE): one current online log of its own thread,
/// from its own SCN on; it has archived none (V$ARCHIVED_LOG is empty). Not the source's redo.
pub fn own_logs(role: &Role) -> Vec<LogFile> {
    let Role::Downstream { name, scn, .. } = role else {
        return Vec::new();
    };
    vec![LogFile {
        name: format!("/u01/oradata/{name}/redo01.log"),
        thread: 1,
        sequence: 1,
        first_scn: *scn,
        next_scn: None,
        ..LogFile::default()
    }]
}

/// The logs a downstream holds at `now_ms` (the source's redo shipped to it), carrying the
/// source's DBID.
pub fn downstream_logs(role: &Role, replica: &Replica, now_ms: i64) -> Vec<LogFile> {
    all_logs(replica, now_ms)
        .into_iter()
        .filter(|l| role.shipped(l))
        .collect()
}

/// Where the source's redo a downstream holds ends at `now_ms` (per thread from its oldest
/// log on without a gap; the lowest over threads, `source::threads::shipped_end`), as the
/// adapter reads it from V$FOREIGN_ARCHIVED_LOG and V$STANDBY_LOG. `None` off a downstream,
/// or with nothing received.
pub fn downstream_limit(role: &Role, replica: &Replica, now_ms: i64, from: Scn) -> Option<Scn> {
    let Role::Downstream { .. } = role else {
        return None;
    };
    cdc_core::threads::shipped_end(&downstream_logs(role, replica, now_ms), from)
}

/// Before mining `start..=end` on a downstream: every log of the source the window touches
/// must have been shipped, else ORA-01291 (the mining database lacks the log).
pub fn check_window(
    role: &Role,
    replica: &Replica,
    (start, end): (Scn, Scn),
    describe: &str,
    now_ms: i64,
) -> Result<()> {
    let Role::Downstream { .. } = role else {
        return Ok(());
    };
    let logs = all_logs(replica, now_ms);
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
