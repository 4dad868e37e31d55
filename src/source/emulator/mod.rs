//! The embedded emulated Oracle database.
//!
//! A directory holds `schema.yaml` (the schema file it was made from) and `redo.log`, an
//! append-only file of every change (see [`redo`]). Every process that opens the directory
//! replays the redo into a multi-version [`store::Replica`] and tails it for new records, so
//! readers in other processes see commits as the one [`writer::Writer`] makes them.

pub mod clock;
pub mod condition;
pub mod conform;
pub mod generate;
pub mod key_gen;
pub mod key_index;
pub mod logminer;
pub mod logs;
pub mod redo;
pub mod schema;
pub mod sql_redo;
pub mod store;
pub mod supplemental;
pub mod topology;
pub mod workload;
pub mod writer;

use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::settings::{FaultSettings, Settings};
use crate::source::model::*;
use crate::source::{Connector, Session};
use clock::Clock;
use rand::{Rng, SeedableRng};
use redo::RedoTail;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use store::Replica;

pub const SCHEMA_FILE: &str = "schema.yaml";

/// Read and validate the schema of a database directory, as the database shows it: a
/// standby directory's is its primary's, open READ ONLY WITH APPLY (see [`topology`]).
pub fn read_schema(dir: &Path) -> Result<schema::SchemaFile> {
    Ok(topology::resolve(dir)?.schema)
}

/// The schema of a directory made by `emulator init` (a primary).
pub(crate) fn read_primary_schema(dir: &Path) -> Result<schema::SchemaFile> {
    let path = dir.join(SCHEMA_FILE);
    if !dir.is_dir() {
        return Err(CdcError::EmulatorNotFound {
            path: dir.to_path_buf(),
            reason: "no such directory".into(),
        });
    }
    if !path.is_file() || !dir.join(redo::REDO_FILE).is_file() {
        return Err(CdcError::EmulatorNotFound {
            path: dir.to_path_buf(),
            reason: format!("it has no {SCHEMA_FILE} and {}", redo::REDO_FILE),
        });
    }
    schema::SchemaFile::read(&path)
}

/// Create a database in `dir` from a schema file and load its initial rows.
pub fn init(
    dir: &Path,
    schema_path: &Path,
    seed: Option<u64>,
    clock: Arc<dyn Clock>,
) -> Result<InitSummary> {
    let text = std::fs::read_to_string(schema_path).map_err(|e| CdcError::EmulatorSchema {
        path: schema_path.to_path_buf(),
        message: e.to_string(),
    })?;
    let mut schema = schema::SchemaFile::parse(schema_path, &text)?;
    if let Some(s) = seed {
        schema.seed = s;
    }
    ensure_new_dir(dir)?;
    std::fs::create_dir_all(dir).map_err(|e| CdcError::io(dir, e))?;
    let stored = serde_yaml::to_string(&schema).map_err(|e| CdcError::EmulatorSchema {
        path: schema_path.to_path_buf(),
        message: e.to_string(),
    })?;
    let schema_out = dir.join(SCHEMA_FILE);
    std::fs::write(&schema_out, stored).map_err(|e| CdcError::io(&schema_out, e))?;
    let redo_path = dir.join(redo::REDO_FILE);
    std::fs::File::create(&redo_path).map_err(|e| CdcError::io(&redo_path, e))?;
    let seed = schema.seed;
    let mut w = writer::Writer::open_unchecked(dir, schema, clock, true)?;
    w.set_batching(true);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut rows_total = 0;
    for ti in 0..w.replica().tables.len() {
        let target = w.replica().tables[ti].def.rows;
        let mut done = 0;
        while done < target {
            let xid = w.begin()?;
            let batch = (target - done).min(1000);
            for _ in 0..batch {
                let serial = w.serials[ti] + 1;
                w.serials[ti] = serial;
                let row = workload::new_row(&w, ti, &mut rng, serial)?;
                w.insert(xid, ti, row)?;
            }
            w.commit(&[xid])?;
            done += batch;
        }
        rows_total += done;
        if w.replica().tables[ti].def.statistics != schema::StatsSpec::Missing {
            w.gather_stats(ti)?;
        }
    }
    w.flush()?;
    Ok(InitSummary {
        tables: w.replica().tables.len(),
        rows: rows_total,
        scn: w.replica().current_scn,
    })
}

#[derive(Debug, Clone)]
pub struct InitSummary {
    pub tables: usize,
    pub rows: u64,
    pub scn: Scn,
}

/// How a fault drill fails a LogMiner window.
#[derive(Debug, Clone, Copy)]
enum MineFault {
    Ora00310,
    Ora01284,
    Ora00308,
    Ora01307,
}

/// Fault drills, switched on per run by settings (`cdc.emulator.fault.*`).
#[derive(Debug, Clone, Default)]
pub struct Faults {
    pub settings: FaultSettings,
}

impl Faults {
    pub fn from_settings(s: &Settings) -> Self {
        Faults {
            settings: s.faults.clone(),
        }
    }
}

struct FaultState {
    faults: Faults,
    rng: rand_chacha::ChaCha8Rng,
    connects: u64,
    reads: u64,
    mines: u64,
}

struct Shared {
    /// The directory opened (a primary, or a standby/downstream directory).
    dir: PathBuf,
    /// What it is; a standby's and a downstream's redo is read from the primary's directory.
    role: topology::Role,
    /// A standby's redo received but not applied yet (beyond its applied SCN).
    held: Mutex<Held>,
    replica: RwLock<Replica>,
    tail: Mutex<RedoTail>,
    clock: Arc<dyn Clock>,
    faults: Mutex<FaultState>,
}

#[derive(Default)]
struct Held {
    pending: std::collections::VecDeque<redo::Redo>,
    /// The highest SCN of the primary's redo seen.
    primary_scn: Scn,
}

impl Shared {
    /// Apply records other processes appended since the last look. A standby applies them
    /// only up to its applied SCN (the primary's SCN minus the apply lag), which is then its
    /// current SCN.
    fn refresh(&self) -> Result<()> {
        let mut tail = self.tail.lock().map_err(|_| poisoned())?;
        if !tail.has_more() {
            return Ok(());
        }
        let mut replica = self.replica.write().map_err(|_| poisoned())?;
        match self.role {
            topology::Role::Standby { apply_lag_scn } => {
                let mut held = self.held.lock().map_err(|_| poisoned())?;
                let held = &mut *held;
                held.primary_scn = held.primary_scn.max(replica.current_scn);
                tail.read_new(|r| {
                    held.primary_scn = held.primary_scn.max(r.scn());
                    held.pending.push_back(r);
                    Ok(())
                })?;
                let applied = held.primary_scn.saturating_sub(apply_lag_scn);
                while held.pending.front().is_some_and(|r| r.scn() <= applied) {
                    if let Some(r) = held.pending.pop_front() {
                        replica.apply(r)?;
                    }
                }
                replica.current_scn = replica.current_scn.max(applied);
            }
            _ => tail.read_new(|r| replica.apply(r))?,
        }
        replica.prune(self.clock.now_ms());
        Ok(())
    }

    fn describe(&self) -> String {
        format!("emulator:{}", self.dir.display())
    }

    fn downstream(&self) -> bool {
        matches!(self.role, topology::Role::Downstream { .. })
    }
}

fn poisoned() -> CdcError {
    CdcError::Database("emulator state lock poisoned by a panicked thread".into())
}

/// Opens sessions on an emulated database directory.
#[derive(Clone)]
pub struct EmulatorConnector {
    shared: Arc<Shared>,
}

impl EmulatorConnector {
    pub fn open(dir: &Path, faults: Faults) -> Result<Self> {
        Self::open_with_clock(dir, faults, clock::system())
    }

    pub fn open_with_clock(dir: &Path, faults: Faults, clock: Arc<dyn Clock>) -> Result<Self> {
        let resolved = topology::resolve(dir)?;
        let schema = resolved.schema;
        let defs = schema.tables(&resolved.data_dir.join(SCHEMA_FILE))?;
        let seed = faults.settings.seed;
        let shared = Shared {
            dir: dir.to_path_buf(),
            role: resolved.role,
            held: Mutex::new(Held::default()),
            replica: RwLock::new(Replica::new(schema, defs)),
            tail: Mutex::new(RedoTail::new(&resolved.data_dir)),
            clock,
            faults: Mutex::new(FaultState {
                faults,
                rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed),
                connects: 0,
                reads: 0,
                mines: 0,
            }),
        };
        shared.refresh()?;
        Ok(EmulatorConnector {
            shared: Arc::new(shared),
        })
    }

    /// Run `f` on the up-to-date replica (for `emulator status`/`dump` and tests).
    pub fn with_replica<T>(&self, f: impl FnOnce(&Replica, i64) -> T) -> Result<T> {
        self.shared.refresh()?;
        let r = self.shared.replica.read().map_err(|_| poisoned())?;
        Ok(f(&r, self.shared.clock.now_ms()))
    }

    /// A downstream mining database (see [`topology`]).
    pub fn is_downstream(&self) -> bool {
        self.shared.downstream()
    }

    /// What the directory is, for `emulator status`: `{"kind": "primary"}`, a standby's apply
    /// lag and the primary SCN it has seen, or a downstream's shipping.
    pub fn topology_json(&self) -> serde_json::Value {
        match &self.shared.role {
            topology::Role::Primary => serde_json::json!({"kind": "primary"}),
            topology::Role::Standby { apply_lag_scn } => {
                let primary_scn = self.shared.held.lock().map(|h| h.primary_scn).ok();
                serde_json::json!({"kind": "physical_standby", "apply_lag_scn": apply_lag_scn, "primary_scn": primary_scn})
            }
            topology::Role::Downstream {
                shipping,
                from_sequence,
                missing_sequences,
                ..
            } => serde_json::json!({
                "kind": "downstream",
                "shipping": shipping,
                "from_sequence": from_sequence,
                "missing_sequences": missing_sequences,
                "source_dbid": self.shared.replica.read().map(|r| r.schema.database.dbid).ok(),
            }),
        }
    }

    pub fn emulator_session(&self) -> Result<EmulatorSession> {
        let mut f = self.shared.faults.lock().map_err(|_| poisoned())?;
        f.connects += 1;
        let every = f.faults.settings.connect_fail_every;
        if every > 0 && f.connects % u64::from(every) == 0 {
            return Err(CdcError::ConnectionLost(format!(
                "ORA-12537: TNS:connection closed (fault drill: every {every}th connection fails)"
            )));
        }
        Ok(EmulatorSession {
            shared: self.shared.clone(),
            dropped: false,
        })
    }
}

impl Connector for EmulatorConnector {
    fn connect(&self) -> Result<Box<dyn Session>> {
        Ok(Box::new(self.emulator_session()?))
    }

    fn describe(&self) -> String {
        self.shared.describe()
    }
}

/// One "connection" to the emulated database.
pub struct EmulatorSession {
    shared: Arc<Shared>,
    dropped: bool,
}

impl EmulatorSession {
    /// Latency, dropped connections; then the replica brought up to date.
    fn call(&mut self) -> Result<()> {
        if self.dropped {
            return Err(CdcError::ConnectionLost(
                "ORA-03114: not connected to ORACLE".into(),
            ));
        }
        let (latency, drop) = {
            let mut f = self.shared.faults.lock().map_err(|_| poisoned())?;
            let per_mille = f.faults.settings.drop_per_mille;
            let drop = per_mille > 0 && f.rng.gen_range(0..1000) < per_mille;
            (f.faults.settings.call_latency_ms, drop)
        };
        if latency > 0 {
            std::thread::sleep(std::time::Duration::from_millis(latency));
        }
        if drop {
            self.dropped = true;
            return Err(CdcError::ConnectionLost(
                "ORA-03113: end-of-file on communication channel (fault drill)".into(),
            ));
        }
        self.shared.refresh()
    }

    fn replica(&self) -> Result<std::sync::RwLockReadGuard<'_, Replica>> {
        self.shared.replica.read().map_err(|_| poisoned())
    }

    /// On a downstream the source's tables do not exist: ORA-00942.
    fn no_tables(&self, table: &TableName) -> Result<()> {
        if self.shared.downstream() {
            return Err(CdcError::Database(format!(
                "ORA-00942: table or view does not exist: {table} (on the downstream mining database {})",
                self.shared.describe()
            )));
        }
        Ok(())
    }
}

impl Session for EmulatorSession {
    fn database(&mut self) -> Result<DatabaseInfo> {
        self.call()?;
        let mut info = self.replica()?.database_info();
        if let topology::Role::Downstream { name, dbid, .. } = &self.shared.role {
            // Another database: its own identity, open read write, with none of the
            // source's PDBs.
            info.name = name.clone();
            info.dbid = *dbid;
            info.pdbs.clear();
            info.role = DatabaseRole::Primary;
            info.open_mode = OpenMode::ReadWrite;
        }
        Ok(info)
    }

    fn privileges(&mut self) -> Result<Privileges> {
        self.call()?;
        Ok(self.replica()?.schema.database.granted())
    }

    fn tables(&mut self) -> Result<Vec<TableInfo>> {
        self.call()?;
        if self.shared.downstream() {
            return Ok(Vec::new());
        }
        Ok(self.replica()?.tables.iter().map(|t| t.info()).collect())
    }

    fn extents(&mut self, table: &TableName) -> Result<Vec<Extent>> {
        self.call()?;
        self.no_tables(table)?;
        let r = self.replica()?;
        let t = r.table(table)?;
        // An index-organised table's segment is its primary key index: DBA_EXTENTS has
        // nothing under the table's name.
        if t.def.organization == Organization::IndexOrganized {
            return Ok(Vec::new());
        }
        let mut out: Vec<Extent> = t.extents.iter().map(|(_, e)| e.clone()).collect();
        out.sort_by_key(|e| (e.data_object_id, e.relative_fno, e.block_id));
        Ok(out)
    }

    fn current_scn(&mut self) -> Result<Scn> {
        self.call()?;
        if let topology::Role::Downstream { scn, .. } = &self.shared.role {
            return Ok(*scn);
        }
        Ok(self.replica()?.current_scn)
    }

    fn open_transactions(&mut self) -> Result<Vec<OpenTransaction>> {
        self.call()?;
        if self.shared.downstream() {
            return Ok(Vec::new());
        }
        let r = self.replica()?;
        let mut out: Vec<OpenTransaction> = r
            .open
            .iter()
            .map(|(xid, t)| OpenTransaction {
                xid: xid.hex(),
                start_scn: t.start_scn,
                thread: t.thread,
            })
            .collect();
        out.sort_by_key(|t| t.start_scn);
        Ok(out)
    }

    fn read_as_of(
        &mut self,
        query: &FlashbackQuery,
        row: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        self.call()?;
        self.no_tables(&query.table)?;
        let (fail, lob_fail, delay) = {
            let mut f = self.shared.faults.lock().map_err(|_| poisoned())?;
            f.reads += 1;
            let n = f.reads;
            (
                f.faults.settings.ora01555_reads.contains(&n),
                f.faults.settings.ora22924_reads.contains(&n),
                f.faults.settings.read_delay_ms,
            )
        };
        if fail {
            return Err(CdcError::SnapshotTooOld {
                table: query.table.to_string(),
                scn: query.scn,
            });
        }
        if lob_fail {
            return Err(CdcError::LobSnapshotTooOld {
                table: query.table.to_string(),
                scn: query.scn,
            });
        }
        if delay > 0 {
            std::thread::sleep(std::time::Duration::from_millis(delay));
        }
        let rows = {
            let r = self.replica()?;
            r.read_as_of(query, self.shared.clock.now_ms())?
        };
        let n = rows.len() as u64;
        for r in rows {
            row(r)?;
        }
        Ok(n)
    }

    fn key_range(
        &mut self,
        table: &TableName,
        key_column: &str,
        scn: Scn,
    ) -> Result<Option<(crate::types::Value, crate::types::Value)>> {
        self.call()?;
        self.no_tables(table)?;
        self.replica()?
            .key_range(table, key_column, scn, self.shared.clock.now_ms())
    }

    fn key_boundaries(&mut self, q: &BoundaryQuery) -> Result<Vec<Vec<crate::types::Value>>> {
        self.call()?;
        self.no_tables(&q.table)?;
        self.replica()?
            .key_boundaries(q, self.shared.clock.now_ms())
    }

    fn scn_to_time(&mut self, scn: Scn) -> Result<Option<String>> {
        self.call()?;
        if self.shared.downstream() {
            // The source's SCNs are not this database's.
            return Ok(None);
        }
        let r = self.replica()?;
        if scn < r.schema.database.start_scn || scn > r.current_scn {
            return Ok(None);
        }
        Ok(r.time_of(scn).and_then(|ms| {
            chrono::DateTime::from_timestamp_millis(ms)
                .map(|t| t.format("%Y-%m-%d %H:%M:%S").to_string())
        }))
    }

    fn logs(&mut self) -> Result<Vec<LogFile>> {
        self.call()?;
        let r = self.replica()?;
        if self.shared.downstream() {
            return Ok(topology::downstream_logs(&self.shared.role, &r));
        }
        Ok(r.log_files())
    }

    fn mining_limit(&mut self) -> Result<Option<Scn>> {
        // Only a downstream holds less redo than it mines; elsewhere no round trip (and no
        // fault drill is consumed).
        if !self.shared.downstream() {
            return Ok(None);
        }
        self.call()?;
        Ok(topology::downstream_limit(
            &self.shared.role,
            &*self.replica()?,
        ))
    }

    fn instance_config(&mut self) -> Result<InstanceConfig> {
        self.call()?;
        Ok(self.replica()?.instance_config(self.shared.clock.now_ms()))
    }

    fn insert_signal(&mut self, table: &TableName, row: &SignalRow) -> Result<()> {
        self.call()?;
        self.no_tables(table)?;
        // The emulator's writer: a standby refuses it with ORA-16000, as Oracle does.
        let mut w = writer::Writer::open(&self.shared.dir, self.shared.clock.clone(), true)?;
        let (index, def) = w
            .table_defs()
            .iter()
            .enumerate()
            .find(|(_, d)| &d.name == table)
            .map(|(i, d)| (i, (*d).clone()))
            .ok_or_else(|| CdcError::UnknownTable {
                table: table.to_string(),
                hint: String::new(),
            })?;
        let values = def
            .columns
            .iter()
            .map(|c| {
                let text = match c.name.as_str() {
                    "ID" => Some(row.id.clone()),
                    "TYPE" => Some(row.kind.clone()),
                    "DATA" => row.data.clone(),
                    _ => None,
                };
                text.map_or(crate::types::Value::Null, crate::types::Value::Text)
            })
            .collect();
        let xid = w.begin()?;
        w.insert(xid, index, values)?;
        w.commit(&[xid])?;
        w.flush()
    }

    fn mine(
        &mut self,
        start: Scn,
        end: Scn,
        row: &mut dyn FnMut(LogMinerRow) -> Result<()>,
    ) -> Result<()> {
        self.call()?;
        let fault = {
            let mut f = self.shared.faults.lock().map_err(|_| poisoned())?;
            f.mines += 1;
            let n = f.mines;
            let s = &f.faults.settings;
            if s.ora00310_mines.contains(&n) {
                Some(MineFault::Ora00310)
            } else if s.ora01284_mines.contains(&n) {
                Some(MineFault::Ora01284)
            } else if s.ora00308_mines.contains(&n) {
                Some(MineFault::Ora00308)
            } else if s.ora01307_mines.contains(&n) {
                Some(MineFault::Ora01307)
            } else {
                None
            }
        };
        topology::check_window(
            &self.shared.role,
            &*self.replica()?,
            start,
            end,
            &self.shared.describe(),
        )?;
        let (sequence, log) = {
            let r = self.replica()?;
            let seq = r
                .logs
                .first()
                .and_then(|l| l.last())
                .map_or(1, |s| s.sequence);
            (
                seq,
                format!("/u01/arch/1_{seq}_{}.arc", r.schema.database.dbid),
            )
        };
        // ORA-01284 (ADD_LOGFILE of a purged log) and ORA-01307 (the query without a session)
        // come before any row; ORA-00310 and ORA-00308 part-way through the window, when
        // LogMiner reaches the log: some rows were already handed over.
        let window = format!("mining SCN {start} to {end}");
        let err = match fault {
            None => None,
            Some(MineFault::Ora01284) => {
                return Err(CdcError::LogUnavailable(format!(
                    "ORA-01284: file {log} cannot be opened ({window})"
                )))
            }
            Some(MineFault::Ora01307) => {
                return Err(CdcError::NoLogMinerSession(format!(
                    "ORA-01307: no LogMiner session is currently active ({window})"
                )))
            }
            Some(MineFault::Ora00310) => Some(CdcError::LogOverwritten(format!(
                "ORA-00310: archived log contains sequence {}; sequence {sequence} required ({window})",
                sequence + 1
            ))),
            Some(MineFault::Ora00308) => Some(CdcError::LogUnavailable(format!(
                "ORA-00308: cannot open archived log '{log}' ({window})"
            ))),
        };
        let rows = logminer::mine(&*self.replica()?, start, end)?;
        let stop_at = if err.is_some() {
            rows.len() / 2
        } else {
            rows.len()
        };
        for r in rows.into_iter().take(stop_at) {
            row(r)?;
        }
        match err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fault_tests;

/// An emulated database (or topology) goes into a new or empty directory only.
pub(crate) fn ensure_new_dir(dir: &Path) -> Result<()> {
    if dir.exists() {
        let empty = std::fs::read_dir(dir)
            .map_err(|e| CdcError::io(dir, e))?
            .next()
            .is_none();
        if !empty {
            return Err(CdcError::Argument(format!(
                "{} exists and is not empty; choose a new directory",
                dir.display()
            )));
        }
    }
    Ok(())
}
