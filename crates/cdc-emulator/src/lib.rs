//! The embedded emulated Oracle database.
//!
//! A directory holds `schema.yaml` (the schema file it was made from), `redo.log`, an
//! append-only file of every change (see [`redo`]), and `checkpoint.dat`, the state at a point
//! of the redo (see [`checkpoint`]). Every process that opens the directory starts from the
//! checkpoint, replays the redo after it into a multi-version [`store::Replica`] and tails it
//! for new records, so readers in other processes see commits as the one [`writer::Writer`]
//! makes them. Flashback reads take rows from the checkpoint file chunk by chunk, under the
//! changes since; old redo records are read back from the file when mined ([`redo_index`]).
//!
//! Its own crate: it depends on the core (values, names, the error catalog, the source trait it
//! implements) and on the listener's crates, never on the engine, which uses it as one of its
//! sources. `emulator serve` answers any Oracle client from it ([`net`]).

// The core's modules under the names the emulator has always used for them.
pub(crate) use cdc_core::{charset, errors, localfs, names, oson, state, types};

pub mod access;
pub mod background;
mod bulk_load;
pub mod checkpoint;
pub mod checkpoint_pages;
pub mod clock;
pub mod condition;
pub mod conform;
pub mod generate;
pub mod key_gen;
pub mod key_index;
pub mod lgwr;
pub mod lob_edit;
pub mod lob_redo;
pub mod logminer;
pub mod logs;
pub mod net;
pub mod policies;
pub mod redaction_expr;
pub mod redo;
pub mod redo_faults;
pub mod redo_index;
pub mod rowfile;
pub mod schema;
mod session;
mod session_limit;
pub mod sql_redo;
pub mod store;
pub mod supplemental;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod topology;
pub mod workload;
pub mod writer;

use crate::errors::{CdcError, Result};
use cdc_core::model::*;
use cdc_core::session::prelude::*;
use clock::Clock;
use rand::SeedableRng;
use redo::RedoTail;
pub use session::EmulatorSession;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use store::Replica;

pub const SCHEMA_FILE: &str = "schema.yaml";
/// How `cdc.database.url` names an emulated database: `emulator:DIR[?service=NAME]`.
pub const URL_PREFIX: &str = "emulator:";

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
    init_with(dir, schema_path, seed, clock, true)
}

/// [`init`]; `bulk`: through the bulk loader where a table allows (else every row through the
/// general writer, as before it: tests compare the two).
fn init_with(
    dir: &Path,
    schema_path: &Path,
    seed: Option<u64>,
    clock: Arc<dyn Clock>,
    bulk: bool,
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
    crate::localfs::ensure_dir(dir)?;
    // The directory keeps each user's password verifier, never the password.
    access::seal_passwords(&mut schema.database.users);
    let stored = serde_yaml::to_string(&schema).map_err(|e| CdcError::EmulatorSchema {
        path: schema_path.to_path_buf(),
        message: e.to_string(),
    })?;
    let schema_out = dir.join(SCHEMA_FILE);
    crate::localfs::write(&schema_out, stored.as_bytes(), crate::localfs::Kind::Data)?;
    let redo_path = dir.join(redo::REDO_FILE);
    crate::localfs::create(&redo_path, crate::localfs::Kind::Data)?;
    let seed = schema.seed;
    // Not synced at every commit: a load cut short leaves no usable database either way; the
    // redo is synced once, before the checkpoint that ends the load.
    let mut w = writer::Writer::open_unchecked(dir, schema, clock, false)?;
    w.set_batching(true);
    w.start_bulk_load()?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let rows_total = bulk_load::load(&mut w, &mut rng, bulk)?;
    w.flush()?;
    let summary = InitSummary {
        tables: w.replica().tables.len(),
        rows: rows_total,
        scn: w.replica().current_scn,
    };
    w.finish_bulk_load()?;
    Ok(summary)
}

#[derive(Debug, Clone)]
pub struct InitSummary {
    pub tables: usize,
    pub rows: u64,
    pub scn: Scn,
}

/// How a fault drill fails a LogMiner window.
#[derive(Debug, Clone, Copy)]
pub(crate) enum MineFault {
    Ora00310,
    Ora01284,
    Ora00308,
    Ora01307,
    Ora01368,
    Ora01291,
    Ora01343,
    Ora04030,
    Ora00600,
}

/// Fault drills, switched on per run by settings (`cdc.emulator.fault.*`).
#[derive(Debug, Clone, Default)]
pub struct Faults {
    pub settings: FaultSettings,
}

/// Fault drills of the embedded emulator, as `cdc.emulator.fault.*` sets them.
#[derive(Debug, Clone, Default)]
pub struct FaultSettings {
    pub seed: u64,
    pub connect_fail_every: u32,
    pub drop_per_mille: u32,
    pub ora01555_reads: Vec<u64>,
    pub ora00310_mines: Vec<u64>,
    pub ora01284_mines: Vec<u64>,
    pub ora00308_mines: Vec<u64>,
    pub ora01307_mines: Vec<u64>,
    pub ora22924_reads: Vec<u64>,
    /// cdc.emulator.fault.ora04030.reads: reads failing with ORA-04030 (out of process memory).
    pub ora04030_reads: Vec<u64>,
    pub read_delay_ms: u64,
    pub call_latency_ms: u64,
    /// cdc.emulator.fault.slow.call.every / .ms: every Nth call of a session stalls.
    pub slow_call_every: u32,
    pub slow_call_ms: u64,
    /// cdc.emulator.fault.kill.session.every: every Nth call finds its session killed.
    pub kill_session_every: u32,
    /// cdc.emulator.fault.restart.every / .ms: every Nth call the database restarts and is
    /// down this long.
    pub restart_every: u32,
    pub restart_ms: u64,
    /// cdc.emulator.fault.idle.timeout.ms: a session idle longer is ended (ORA-02396).
    pub idle_timeout_ms: u64,
    /// cdc.emulator.fault.connect.time.ms: a session logged in longer is ended (ORA-02399).
    pub connect_time_ms: u64,
    /// cdc.emulator.fault.dead.connection.ms: a session whose connection a drop cut still
    /// counts towards SESSIONS_PER_USER this long after its holder lets it go.
    pub dead_connection_ms: u64,
    pub ora01368_mines: Vec<u64>,
    pub ora01291_mines: Vec<u64>,
    /// cdc.emulator.fault.ora01343.mines / .ora04030.mines: windows failing half-way with
    /// LogMiner's corruption error / out of process memory.
    pub ora01343_mines: Vec<u64>,
    pub ora04030_mines: Vec<u64>,
    /// cdc.emulator.fault.ora00600.mines: windows failing half-way with ORA-00600
    /// [krvrdGetUID], LogMiner's internal error a new session gets past.
    pub ora00600_mines: Vec<u64>,
    /// cdc.emulator.fault.ora01327.builds: dictionary builds (DBMS_LOGMNR_D.BUILD) failing
    /// with ORA-01327, as while DDL holds the dictionary.
    pub ora01327_builds: Vec<u64>,
    /// cdc.emulator.fault.ora00604.mines: windows whose drill error comes under ORA-00604
    /// (error occurred at recursive SQL level 1).
    pub ora00604_mines: Vec<u64>,
    /// cdc.emulator.fault.register.delay.ms: services unregistered after `emulator serve`
    /// starts.
    pub register_delay_ms: u64,
    /// cdc.emulator.fault.sink.delay.ms: a slow sink, on purpose.
    pub sink_delay_ms: u64,
    /// Table patterns whose SQL_REDO is rendered with undoubled quotes / as after a
    /// dictionary mismatch (`COL n`).
    pub unescaped_quotes_tables: Vec<String>,
    pub dictionary_mismatch_tables: Vec<String>,
    /// Table patterns LogMiner renders as objects its dictionary does not know
    /// (`UNKNOWN`.`OBJ# n`).
    pub unknown_objects_tables: Vec<String>,
}

struct FaultState {
    faults: Faults,
    rng: rand_chacha::ChaCha8Rng,
    connects: u64,
    reads: u64,
    mines: u64,
    /// DBMS_LOGMNR_D.BUILD calls (the ORA-01327 drill counts them).
    builds: u64,
    /// Calls of every session (the slow-call and killed-session drills count them).
    calls: u64,
    /// Restarts of the database so far (the restart drill): a session opened before the
    /// latest one is gone.
    restarts: u64,
    /// While the database is down (the restart drill): until when.
    down_until: Option<std::time::Instant>,
}

impl FaultState {
    /// Whether the database is down now (a restart drill in progress).
    fn down(&self) -> bool {
        self.down_until
            .is_some_and(|t| std::time::Instant::now() < t)
    }
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
    /// The dictionary LogMiner sessions use (`cdc.mining.dictionary`).
    dictionary: Mutex<Dictionary>,
    /// The looks at V$THREAD of every session, as the adapter's connector keeps them.
    looks: cdc_core::threads::SharedLooks,
    /// The sessions each user holds (SESSIONS_PER_USER).
    sessions: Arc<session_limit::SessionCounts>,
}

#[derive(Default)]
struct Held {
    /// With each record's byte offset in the redo file.
    pending: std::collections::VecDeque<(redo::Redo, u64)>,
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
                tail.read_new_at(|r, at| {
                    held.primary_scn = held.primary_scn.max(r.scn());
                    held.pending.push_back((r, at));
                    Ok(())
                })?;
                let applied = held.primary_scn.saturating_sub(apply_lag_scn);
                while held.pending.front().is_some_and(|r| r.0.scn() <= applied) {
                    if let Some((r, at)) = held.pending.pop_front() {
                        replica.apply_at(r, Some(at))?;
                    }
                }
                replica.current_scn = replica.current_scn.max(applied);
            }
            _ => tail.read_new_at(|r, at| replica.apply_at(r, Some(at)))?,
        }
        if replica.pending_changes() > store::PENDING_LIMIT {
            replica.load_rows()?;
        }
        replica.prune(self.clock.now_ms());
        Ok(())
    }

    /// [`Shared::refresh`], and every table's rows in memory (for what reads them directly).
    fn refresh_all_rows(&self) -> Result<()> {
        self.refresh()?;
        if !self.replica.read().map_err(|_| poisoned())?.rows_loaded() {
            self.replica.write().map_err(|_| poisoned())?.load_rows()?;
        }
        Ok(())
    }

    /// [`Shared::refresh`] before a flashback read: the rows a checkpoint left on disk stay
    /// there when reads can take them from the file, and are loaded otherwise.
    fn refresh_rows(&self) -> Result<()> {
        self.refresh()?;
        let r = self.replica.read().map_err(|_| poisoned())?;
        // Rows in a key-ordered checkpoint are read from it chunk by chunk.
        if !r.rows_loaded() && !r.disk_serves_reads() {
            drop(r);
            self.replica.write().map_err(|_| poisoned())?.load_rows()?;
        }
        Ok(())
    }

    fn describe(&self) -> String {
        format!("{URL_PREFIX}{}", self.dir.display())
    }

    fn downstream(&self) -> bool {
        matches!(self.role, topology::Role::Downstream { .. })
    }
}

fn poisoned() -> CdcError {
    CdcError::Database("emulator state lock poisoned by a panicked thread".into())
}

/// Opens sessions on an emulated database directory, as one user to one service.
#[derive(Clone)]
pub struct EmulatorConnector {
    shared: Arc<Shared>,
    /// `cdc.database.user`; unset: the schema's first user.
    user: Option<String>,
    /// Log in as SYS AS SYSDBA (the emulator's own commands: status, create).
    sysdba: bool,
    /// The service connected to: a PDB's name, or unset for the database's own (CDB$ROOT).
    service: Option<String>,
}

impl EmulatorConnector {
    pub fn open(dir: &Path, faults: Faults) -> Result<Self> {
        Self::open_with_clock(dir, faults, clock::system())
    }

    pub fn open_with_clock(dir: &Path, faults: Faults, clock: Arc<dyn Clock>) -> Result<Self> {
        let resolved = topology::resolve(dir)?;
        let schema = resolved.schema;
        let defs = schema.tables(&resolved.data_dir.join(SCHEMA_FILE))?;
        let redo_path = resolved.data_dir.join(redo::REDO_FILE);
        let fresh = || Replica::new(schema.clone(), defs.clone()).backed_by(redo_path.clone());
        // A primary starts from its checkpoint; a standby or downstream applies the primary's
        // redo its own way, from the start.
        let (replica, tail) = match resolved.role {
            topology::Role::Primary => match checkpoint::open(&resolved.data_dir, fresh) {
                (r, Some((offset, line))) => {
                    let last = r.current_scn;
                    (
                        r,
                        RedoTail::starting_at(&resolved.data_dir, offset, line, last),
                    )
                }
                (r, None) => (r, RedoTail::new(&resolved.data_dir)),
            },
            _ => (fresh(), RedoTail::new(&resolved.data_dir)),
        };
        let seed = faults.settings.seed;
        let shared = Shared {
            dir: dir.to_path_buf(),
            role: resolved.role,
            held: Mutex::new(Held::default()),
            replica: RwLock::new(replica),
            tail: Mutex::new(tail),
            clock,
            faults: Mutex::new(FaultState {
                faults,
                rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed),
                connects: 0,
                reads: 0,
                mines: 0,
                builds: 0,
                calls: 0,
                restarts: 0,
                down_until: None,
            }),
            dictionary: Mutex::new(Dictionary::OnlineCatalog),
            looks: Default::default(),
            // A standby is an instance of its own: its directory, not its primary's data.
            sessions: Arc::new(session_limit::SessionCounts::for_database(dir)),
        };
        shared.refresh()?;
        Ok(EmulatorConnector {
            shared: Arc::new(shared),
            user: None,
            service: None,
            sysdba: false,
        })
    }

    /// Sessions as SYS AS SYSDBA in CDB$ROOT: every privilege (for the emulator's own
    /// commands, which look at the database as its administrator does).
    pub fn sysdba(mut self) -> Self {
        self.sysdba = true;
        self
    }

    /// Log in as `user` (unset: the schema's first user) to `service` (unset: the database's
    /// own service, CDB$ROOT in a CDB). Checked at each connect, as Oracle does.
    pub fn with_login(mut self, user: Option<&str>, service: Option<&str>) -> Self {
        self.user = user.map(str::to_string);
        self.service = service.map(str::to_string);
        self
    }

    /// Run `f` on the up-to-date replica, its rows read (for `emulator dump` and tests).
    pub fn with_replica<T>(&self, f: impl FnOnce(&Replica, i64) -> T) -> Result<T> {
        self.shared.refresh_all_rows()?;
        let r = self.shared.replica.read().map_err(|_| poisoned())?;
        Ok(f(&r, self.shared.clock.now_ms()))
    }

    /// A flashback read as the emulator's own commands make it (`emulator dump`: no session,
    /// no grants): each row handed to `each` as it is read, the rows a checkpoint left on disk
    /// read from it rather than loaded, so memory stays flat in the table's size.
    pub fn read_as_of_each(
        &self,
        q: &FlashbackQuery,
        each: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        self.shared.refresh_rows()?;
        let r = self.shared.replica.read().map_err(|_| poisoned())?;
        r.read_as_of_each(q, self.shared.clock.now_ms(), each)
    }

    /// [`EmulatorConnector::with_replica`] for what needs no table rows (`emulator status`):
    /// rows a checkpoint left on disk stay there.
    pub fn with_replica_meta<T>(&self, f: impl FnOnce(&Replica, i64) -> T) -> Result<T> {
        self.shared.refresh()?;
        let r = self.shared.replica.read().map_err(|_| poisoned())?;
        Ok(f(&r, self.shared.clock.now_ms()))
    }

    /// The dictionary its LogMiner sessions start with (`cdc.mining.dictionary`; default the
    /// online catalog).
    pub fn set_dictionary(&self, d: Dictionary) -> Result<()> {
        *self.shared.dictionary.lock().map_err(|_| poisoned())? = d;
        Ok(())
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

    /// Whether the database's services are missing from the listener because of a restart
    /// drill: while it is down, and cdc.emulator.fault.register.delay.ms after it is open
    /// again (LREG registers them then).
    pub fn unregistered_by_restart(&self) -> bool {
        self.shared
            .faults
            .lock()
            .map(|f| {
                let delay = std::time::Duration::from_millis(f.faults.settings.register_delay_ms);
                f.down_until
                    .is_some_and(|t| std::time::Instant::now() < t + delay)
            })
            .unwrap_or(false)
    }

    pub fn emulator_session(&self) -> Result<EmulatorSession> {
        let mut f = self.shared.faults.lock().map_err(|_| poisoned())?;
        if f.down() {
            // SHUTDOWN and STARTUP in progress: a login is refused until the database is open.
            return Err(CdcError::Connect {
                code: crate::errors::Code::Cdc2010,
                message: format!(
                    "{}: the database is not accepting connections now (ORA-01033: ORACLE initialization or shutdown in progress)",
                    self.shared.describe()
                ),
            });
        }
        let epoch = f.restarts;
        f.connects += 1;
        let every = f.faults.settings.connect_fail_every;
        if every > 0 && f.connects % u64::from(every) == 0 {
            return Err(CdcError::ConnectionLost(format!(
                "ORA-12537: TNS:connection closed (fault drill: every {every}th connection fails)"
            )));
        }
        drop(f);
        let (login, enforced) = {
            let r = self.shared.replica.read().map_err(|_| poisoned())?;
            let enforced = schema::resource_limit(&r.schema.database.version);
            let mut schema = r.schema.clone();
            if self.shared.downstream() {
                // Another database: none of the source's PDBs.
                schema.tables.clear();
                schema.database.pdbs.clear();
            }
            let login = if self.sysdba {
                access::sysdba(&schema)
            } else {
                access::login(&schema, self.user.as_deref(), self.service.as_deref())?
            };
            (login, enforced)
        };
        let limit = login.user.session_limit.filter(|_| enforced);
        let slot = self.shared.sessions.open(&login.user.name, epoch, limit)?;
        let reads_per_call = login.user.reads_per_call.filter(|_| enforced);
        Ok(EmulatorSession {
            slot,
            shared: self.shared.clone(),
            dropped: false,
            epoch,
            last_call: std::time::Instant::now(),
            logged_in: std::time::Instant::now(),
            user: login.user,
            container: login.container,
            dictionary: None,
            shipped_from: None,
            reads_per_call,
            // The adapter's session setup (see the field); a session over Oracle Net is given
            // Oracle's default by the listener (`net::backend`).
            archived_visible: true,
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

#[cfg(test)]
mod checkpoint_tests;
#[cfg(test)]
mod dictionary_tests;
#[cfg(test)]
mod lgwr_tests;
#[cfg(test)]
mod policies_tests;
#[cfg(test)]
mod redaction_expr_tests;
#[cfg(test)]
mod redo_index_tests;
#[cfg(test)]
mod tests;
// The tests of what the engine builds on the emulator (containers, the planner, the SQL_REDO
// parser, capture's filter) are the engine's: crates/cdc-engine/src/source/emulator_tests/.

#[cfg(test)]
mod call_limit_tests;
#[cfg(test)]
mod fault_tests;
#[cfg(test)]
mod init_pin_tests;
#[cfg(test)]
mod redo_fault_tests;
#[cfg(test)]
mod session_limit_tests;
#[cfg(test)]
mod value_forms_tests;

/// An emulated database (or topology) goes into a new or empty directory only.
pub(crate) fn ensure_new_dir(dir: &Path) -> Result<()> {
    if dir.exists() {
        let empty = std::fs::read_dir(dir)
            .map_err(|e| CdcError::io(dir, e))?
            .next()
            .is_none();
        if !empty {
            return Err(CdcError::Argument(format!(
                "{} exists and is not empty; choose a new directory (or, to keep the emulated database already there, add --if-missing)",
                dir.display()
            )));
        }
    }
    Ok(())
}
