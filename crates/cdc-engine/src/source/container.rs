//! Multitenant capture: which container each call runs in.
//!
//! In a CDB the catalog views and `AS OF` reads of a PDB's tables work only in a session inside
//! that PDB, while LogMiner (V$LOGMNR_CONTENTS, DBMS_LOGMNR.ADD_LOGFILE) works only in
//! CDB$ROOT (oracle-facts §8 "Containers"). [`ContainerConnector`] wraps any source so the
//! engine never has to know:
//!
//! - **Root mode** — the session lands in CDB$ROOT (a common user `C##…` on the CDB's service):
//!   mining, log lists, SCNs and open transactions in the root; before a call about a table the
//!   session moves into its PDB with `ALTER SESSION SET CONTAINER` (privilege SET CONTAINER);
//!   the catalog is read PDB by PDB, in the PDBs the settings can capture from. This is how
//!   Debezium's connector works (it connects to the root and switches container for a PDB's
//!   catalog and reads).
//! - **Per-PDB mode** — the session lands in a PDB (a user local to it, or any user on the PDB's
//!   service): everything runs there; from 19c LogMiner mines that PDB's own redo by SCN range
//!   without ADD_LOGFILE (Utilities 19c, 23.12.1), before 19c it refuses (ORA-65040, CDC-2302).
//!   Tables of other PDBs cannot be reached (CDC-2301).
//! - Outside a CDB the session is used as it is.
//!
//! The session keeps track of where it is, so a container is switched only when the next call
//! needs another one.
//!
//! In root mode the catalog is read only in the PDBs the settings can capture from
//! ([`WantedPdbs`]): a common user need not be allowed into every PDB (SET CONTAINER held in
//! some PDBs only, a PDB open RESTRICTED), and a PDB capture does not want must not stop it.

use super::model::*;
use super::{Admin, Catalog, Connector, Flashback, Miner, Session};
use crate::errors::{CdcError, Result};
use crate::names::{PdbReach, TableName, TablePatterns};
use crate::types::Value;
use std::sync::Arc;

/// How a session reaches a CDB's containers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Not a multitenant database.
    NonCdb,
    /// In CDB$ROOT, switching into PDBs for their tables.
    Root,
    /// Inside one PDB, which it never leaves.
    Pdb(String),
}

impl Mode {
    /// The mode of a session that landed in `container`.
    pub fn of(container: Option<&str>) -> Mode {
        match container {
            None => Mode::NonCdb,
            Some(ROOT_CONTAINER) => Mode::Root,
            Some(pdb) => Mode::Pdb(pdb.to_string()),
        }
    }

    /// For messages and `doctor`.
    pub fn describe(&self) -> String {
        match self {
            Mode::NonCdb => "not a container database".into(),
            Mode::Root => "root mode: mining in CDB$ROOT, each PDB's catalog and reads after ALTER SESSION SET CONTAINER".into(),
            Mode::Pdb(p) => format!("per-PDB mode: every call inside {p}, mining {p}'s own redo (19c and later)"),
        }
    }
}

/// The PDBs whose tables the settings can capture, which root mode enters to list them.
///
/// Oracle lets a common user into a PDB only where it holds SET CONTAINER, granted commonly or
/// inside that PDB (Security Guide, "How the Oracle Multitenant Option Affects Privileges"), and
/// into a PDB open RESTRICTED only with RESTRICTED SESSION (ORA-01035): a user may be kept out
/// of PDBs it has no business in. So a PDB is entered only when the settings reach into it
/// ([`PdbReach`]), and a refusal means what the reach says:
/// - **named** (`PDB2.HR.*` in `cdc.tables.include`, or the signal table's PDB): the settings
///   want its tables, and a refusal stops the caller with the error, which names the PDB;
/// - **wildcard only** (`PDB*.HR.*`, `*.HR.*`, a two-part `HR.*`, no patterns at all): the
///   pattern is a way of naming every PDB where such tables are, not a demand on this one; a
///   refusal leaves the PDB out, with a warning that names it and why;
/// - **none**: not entered at all.
#[derive(Debug, Clone)]
pub struct WantedPdbs {
    /// `cdc.tables.include`; `None`: no patterns, so every table of every PDB.
    include: Option<TablePatterns>,
    /// The source channel's signal table (`cdc.signal.data.collection` with the source channel
    /// on), read whatever the patterns say: in its PDB, or in any PDB when named without one.
    signal: Option<TableName>,
    /// `cdc.database.user`: whom a remedy's GRANT names.
    user: Option<String>,
}

impl WantedPdbs {
    /// Every PDB, by wildcard: what a caller without settings lists.
    pub fn every() -> Self {
        WantedPdbs {
            include: None,
            signal: None,
            user: None,
        }
    }

    /// The PDBs `settings` can capture from.
    pub fn of(settings: &crate::settings::Settings) -> Self {
        WantedPdbs {
            include: (!settings.include.is_empty()).then(|| settings.include.clone()),
            signal: settings
                .signal
                .data_collection
                .clone()
                .filter(|_| settings.signal.source),
            user: settings
                .database_user()
                .map(str::trim)
                .filter(|u| !u.is_empty())
                .map(str::to_string),
        }
    }

    /// The user a remedy's GRANT or ALTER USER names.
    fn grantee(&self) -> &str {
        self.user.as_deref().unwrap_or("<capture user>")
    }

    /// How far the settings reach into PDB `pdb` (its V$PDBS name).
    pub fn reach(&self, pdb: &str) -> PdbReach {
        let include = match &self.include {
            None => PdbReach::Wildcard,
            Some(patterns) => patterns.pdb_reach(pdb),
        };
        let signal = match self.signal.as_ref().map(|t| t.pdb.as_deref()) {
            None => PdbReach::None,
            Some(None) => PdbReach::Wildcard,
            Some(Some(p)) if p == pdb => PdbReach::Named,
            Some(Some(_)) => PdbReach::None,
        };
        include.max(signal)
    }

    /// What reaches into `pdb` by name, for an error that stops the caller.
    fn naming(&self, pdb: &str) -> String {
        let mut by = Vec::new();
        if let Some(patterns) = &self.include {
            if patterns.pdb_reach(pdb) == PdbReach::Named {
                by.push("cdc.tables.include names it".to_string());
            }
        }
        if let Some(t) = self
            .signal
            .as_ref()
            .filter(|t| t.pdb.as_deref() == Some(pdb))
        {
            by.push(format!("the signal table {t} is in it"));
        }
        by.join(", ")
    }
}

/// Whether `e`, from `ALTER SESSION SET CONTAINER`, is the database keeping the user out of the
/// container (a missing grant, a PDB closed or open RESTRICTED since V$PDBS was read), not a
/// failure of the session (a lost connection is retried by the caller, never skipped).
fn refused_entry(e: &CdcError) -> bool {
    matches!(
        e,
        CdcError::Privilege { .. } | CdcError::ContainerUnreachable(_)
    )
}

/// A refused switch into `container`, with what it takes: Oracle's ORA-01031 and ORA-01035 name
/// neither the container nor the grant.
fn entry_refused(container: &str, e: CdcError, grantee: &str) -> CdcError {
    match e {
        CdcError::Privilege { message, .. } => CdcError::Privilege {
            operation: format!("ALTER SESSION SET CONTAINER = {container}"),
            message: format!(
                "{message}; SET CONTAINER must be held commonly or inside {container}: as a DBA in CDB$ROOT, GRANT SET CONTAINER TO {grantee} CONTAINER=ALL; or only for {container}: ALTER SESSION SET CONTAINER = {container}; GRANT SET CONTAINER TO {grantee};"
            ),
        },
        CdcError::ContainerUnreachable(m) if m.contains("ORA-01035") => {
            CdcError::ContainerUnreachable(format!(
                "{m}; {container} is open RESTRICTED (V$PDBS.RESTRICTED): lift it, in {container}: ALTER SYSTEM DISABLE RESTRICTED SESSION; or let the capture user in: GRANT RESTRICTED SESSION TO {grantee} CONTAINER=ALL; (in CDB$ROOT, or without CONTAINER=ALL inside {container})"
            ))
        }
        other => other,
    }
}

/// `e` with `context` before what it says, its code kept.
fn in_context(context: &str, e: CdcError) -> CdcError {
    match e {
        CdcError::Privilege { operation, message } => CdcError::Privilege {
            operation: format!("{context}: {operation}"),
            message,
        },
        CdcError::ContainerUnreachable(m) => {
            CdcError::ContainerUnreachable(format!("{context}: {m}"))
        }
        other => other,
    }
}

/// Opens sessions of `inner` that put each call in the container it needs.
pub struct ContainerConnector {
    inner: Box<dyn Connector>,
    /// The PDBs whose catalog root mode reads; shared by every session.
    wanted: Arc<WantedPdbs>,
}

impl ContainerConnector {
    pub fn new(inner: Box<dyn Connector>, wanted: WantedPdbs) -> Self {
        ContainerConnector {
            inner,
            wanted: Arc::new(wanted),
        }
    }
}

impl Connector for ContainerConnector {
    fn connect(&self) -> Result<Box<dyn Session>> {
        let mut session = self.inner.connect()?;
        let landed = session.container()?;
        Ok(match Mode::of(landed.as_deref()) {
            Mode::NonCdb => session,
            mode => Box::new(ContainerSession {
                here: landed.unwrap_or_default(),
                mode,
                inner: session,
                wanted: self.wanted.clone(),
                standby: None,
            }),
        })
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }
}

/// Why a session in PDB `home` cannot reach `container` (CDC-2301).
fn unreachable_from(home: &str, container: &str) -> String {
    format!(
        "the session is in PDB {home} (per-PDB mode: its service is the PDB's), {container} cannot be reached from it; connect a common user (C##…) to the CDB's root service to capture several PDBs, or capture {home}'s tables only"
    )
}

/// The PDBs `cdc.tables.include` names by name (the first part of a three-part pattern, when
/// it has no glob syntax: [`PdbReach::Named`]), upper case, sorted, once each.
pub fn named_pdbs(settings: &crate::settings::Settings) -> Vec<String> {
    let mut out: Vec<String> = settings
        .include
        .named_pdbs()
        .into_iter()
        .map(str::to_ascii_uppercase)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Before anything is read: a session that landed in a PDB (per-PDB mode, `container`) reaches
/// that PDB's tables only, so settings that name another PDB's — in `cdc.tables.include`, or
/// `tables` (`snapshot --tables`) — cannot be captured: CDC-2301, as doctor's
/// `connection.multitenant` says, rather than "no table matches" (the tables exist, in a
/// container out of reach). In the root or outside a CDB, nothing to check.
pub fn check_reachable(
    container: Option<&str>,
    settings: &crate::settings::Settings,
    tables: &[TableName],
) -> Result<()> {
    let Mode::Pdb(home) = Mode::of(container) else {
        return Ok(());
    };
    let mut others: Vec<String> = named_pdbs(settings)
        .into_iter()
        .chain(tables.iter().filter_map(|t| t.pdb.clone()))
        .filter(|p| !p.eq_ignore_ascii_case(&home))
        .collect();
    others.sort();
    others.dedup();
    match others.is_empty() {
        true => Ok(()),
        false => Err(CdcError::ContainerUnreachable(format!(
            "the settings name tables of {}: {}",
            others.join(", "),
            unreachable_from(&home, &others.join(", "))
        ))),
    }
}

/// The first release whose LogMiner runs in a session inside a PDB (per-PDB mining: START_LOGMNR
/// by SCN range, no ADD_LOGFILE; Utilities 19c, 23.12.1). Before it, ORA-65040.
pub const PDB_MINING_SINCE: u32 = 19;

/// The major release of a version text (`19` of `19.22.0.0.0`), when it reads as one.
pub fn major_release(version: &str) -> Option<u32> {
    version.split('.').next()?.trim().parse().ok()
}

/// Whether LogMiner runs inside a PDB on a database of major release `major` (unknown: no, as
/// nothing proves it can).
pub fn logminer_runs_in_pdb(major: Option<u32>) -> bool {
    major.is_some_and(|v| v >= PDB_MINING_SINCE)
}

/// Before anything is published: a session in a PDB (per-PDB mode, `container`) of a release
/// before 19c cannot mine (ORA-65040), so a capture that streams would publish its snapshot,
/// mark it complete and then fail at every start (CDC-2302, the check doctor's
/// `connection.multitenant` FAILs on). A snapshot alone (`snapshot_only`) needs no LogMiner.
pub fn check_pdb_mining(container: Option<&str>, version: &str, streams: bool) -> Result<()> {
    let Mode::Pdb(pdb) = Mode::of(container) else {
        return Ok(());
    };
    if !streams || logminer_runs_in_pdb(major_release(version)) {
        return Ok(());
    }
    Err(CdcError::PdbMining(format!(
        "ORA-65040: the session is in PDB {pdb} (per-PDB mode) of Oracle {version}: before {PDB_MINING_SINCE}c LogMiner cannot run inside a PDB, so changes could never be streamed after the snapshot; nothing was published. Connect a common user (C##…) to the service of CDB$ROOT (root mode; for an emulated database, a cdc.database.url without ?service=), or set cdc.snapshot.mode=snapshot_only"
    )))
}

/// A session of a CDB (root or per-PDB mode).
struct ContainerSession {
    inner: Box<dyn Session>,
    mode: Mode,
    /// The container the session is in now.
    here: String,
    /// The PDBs [`Catalog::tables`] enters in root mode.
    wanted: Arc<WantedPdbs>,
    /// Whether the database is a standby, once asked ([`Flashback::stream_read_scn`]).
    standby: Option<bool>,
}

impl ContainerSession {
    /// Move the session into `container` unless it is there already.
    fn enter(&mut self, container: &str) -> Result<()> {
        if self.here == container {
            return Ok(());
        }
        if let Mode::Pdb(home) = &self.mode {
            return Err(CdcError::ContainerUnreachable(unreachable_from(
                home, container,
            )));
        }
        self.inner
            .set_container(container)
            .map_err(|e| entry_refused(container, e, self.wanted.grantee()))?;
        self.here = container.to_string();
        Ok(())
    }

    /// The container of a table: its PDB (a two-part name is the session's own container).
    fn enter_table(&mut self, table: &TableName) -> Result<()> {
        match (&table.pdb, &self.mode) {
            (Some(pdb), _) => self.enter(pdb),
            (None, Mode::Pdb(home)) => {
                let home = home.clone();
                self.enter(&home)
            }
            (None, _) => Err(CdcError::ContainerUnreachable(format!(
                "{table} names no PDB, and in a container database user tables live in PDBs: name it PDB.OWNER.TABLE"
            ))),
        }
    }

    /// In the root no PDB shows: CDC-2303 when that is the user's CONTAINER_DATA attribute (the
    /// root alone, Oracle's default for a common user), not an empty database.
    fn pdbs_hidden(&mut self) -> Result<()> {
        let user_sees = self.inner.privileges()?.container_data;
        match user_sees {
            Some(cd) if !cd.covers_a_pdb() => Err(CdcError::ContainerData(format!(
                "in CDB$ROOT V$PDBS shows this user no PDB: its CONTAINER_DATA attribute is {} (the root's rows only), so no PDB's table can be found and the transactions open in the PDBs would be missed; as a DBA in CDB$ROOT: ALTER USER {} SET CONTAINER_DATA=ALL CONTAINER=CURRENT",
                if cd.containers.is_empty() { "the default".to_string() } else { cd.containers.iter().cloned().collect::<Vec<_>>().join(", ") },
                self.wanted.grantee()
            ))),
            _ => Ok(()),
        }
    }

    /// Where mining, log lists and instance-wide views are read: the root, or the PDB itself.
    fn enter_home(&mut self) -> Result<()> {
        match self.mode.clone() {
            Mode::Pdb(home) => self.enter(&home),
            _ => self.enter(ROOT_CONTAINER),
        }
    }
}

impl Catalog for ContainerSession {
    fn database(&mut self) -> Result<DatabaseInfo> {
        self.enter_home()?;
        self.inner.database()
    }

    fn container(&mut self) -> Result<Option<String>> {
        Ok(Some(self.here.clone()))
    }

    fn set_container(&mut self, name: &str) -> Result<()> {
        self.enter(name)
    }

    /// The grants in effect where the session is now: a user exercises its privileges only in
    /// the current container, those granted commonly and those granted there (Security Guide,
    /// "How the Oracle Multitenant Option Affects Privileges"); `doctor` reads each PDB's after
    /// `set_container`. Read first thing, it is the home container's.
    fn privileges(&mut self) -> Result<Privileges> {
        self.inner.privileges()
    }

    /// Read where the session is now, as the grants are: `doctor` enters each PDB first.
    fn pdb_supplemental_logging(&mut self) -> Result<Option<PdbSupplementalLogging>> {
        self.inner.pdb_supplemental_logging()
    }

    /// The login's, wherever the session is now.
    fn login_warning(&mut self) -> Result<Option<LoginWarning>> {
        self.inner.login_warning()
    }

    /// The tables of every open PDB the settings reach into (root mode, [`WantedPdbs`]), or the
    /// PDB's own.
    fn tables(&mut self) -> Result<Vec<TableInfo>> {
        let pdbs = match &self.mode {
            Mode::Pdb(home) => vec![home.clone()],
            _ => {
                self.enter(ROOT_CONTAINER)?;
                let pdbs = self.inner.database()?.pdbs;
                if pdbs.is_empty() {
                    self.pdbs_hidden()?;
                }
                pdbs
            }
        };
        let root = self.mode == Mode::Root;
        let mut out = Vec::new();
        // Whether a PDB was entered, and the first refusal left out: a user let into none of
        // the PDBs the settings reach into is told why, not that the database has no tables.
        let (mut entered, mut left_out) = (false, None);
        for pdb in pdbs {
            let reach = match root {
                true => self.wanted.reach(&pdb),
                // Per-PDB: the session's own, where it already is.
                false => PdbReach::Named,
            };
            if reach == PdbReach::None {
                continue;
            }
            match self.enter(&pdb) {
                Ok(()) => {}
                Err(e) if refused_entry(&e) && reach == PdbReach::Wildcard => {
                    tracing::warn!(
                        "PDB {pdb} left out of the catalog: the settings reach into it by a wildcard only (cdc.tables.include has no pattern naming it, or none at all), and the capture user may not enter it: {e}. A pattern naming it (PDB.OWNER.TABLE) would make this an error; one whose PDB part does not match it leaves it alone"
                    );
                    left_out.get_or_insert((pdb, e));
                    continue;
                }
                Err(e) if refused_entry(&e) => {
                    let why = format!("PDB {pdb} ({})", self.wanted.naming(&pdb));
                    return Err(in_context(&why, e));
                }
                Err(e) => return Err(e),
            }
            entered = true;
            let mut tables = self.inner.tables()?;
            // The adapter names tables after the container it read them in; make sure.
            for t in &mut tables {
                t.name.pdb = Some(pdb.clone());
            }
            out.extend(tables);
        }
        match (entered, left_out) {
            (false, Some((pdb, e))) => Err(in_context(
                &format!("the capture user may enter none of the PDBs the settings reach into; PDB {pdb}"),
                e,
            )),
            _ => Ok(out),
        }
    }

    fn extents(&mut self, table: &TableName) -> Result<Vec<Extent>> {
        self.enter_table(table)?;
        self.inner.extents(table)
    }

    fn cluster_extents(&mut self, table: &TableName, cluster: &str) -> Result<Vec<Extent>> {
        self.enter_table(table)?;
        self.inner.cluster_extents(table, cluster)
    }

    fn data_object_ids(&mut self, table: &TableName, cluster: Option<&str>) -> Result<Vec<u64>> {
        self.enter_table(table)?;
        self.inner.data_object_ids(table, cluster)
    }

    fn table_columns(&mut self, table: &TableName) -> Result<Option<Vec<ColumnInfo>>> {
        self.enter_table(table)?;
        self.inner.table_columns(table)
    }

    /// In the table's PDB: its policies are that PDB's (ALL_POLICIES and REDACTION_POLICIES show
    /// the current container's objects), and so is the exemption (a privilege holds in the
    /// container it was granted for).
    fn read_policies(&mut self, table: &TableName) -> Result<ReadPolicies> {
        self.enter_table(table)?;
        self.inner.read_policies(table)
    }

    fn instance_config(&mut self) -> Result<InstanceConfig> {
        self.enter_home()?;
        self.inner.instance_config()
    }

    /// The home container's: CDB$ROOT's in root mode, which need not be a PDB's (see
    /// [`Session::table_charsets`]).
    fn charsets(&mut self) -> Result<crate::charset::Charsets> {
        self.enter_home()?;
        self.inner.charsets()
    }

    /// NLS_DATABASE_PARAMETERS read inside the table's PDB: the view shows the container's own
    /// sets, and a PDB of an AL32UTF8 CDB may have another database character set.
    fn table_charsets(&mut self, table: &TableName) -> Result<crate::charset::Charsets> {
        self.enter_table(table)?;
        self.inner.charsets()
    }

    fn host_utc_offset(&mut self) -> Result<Option<i32>> {
        // Read where mining runs: TIME_AT_DBTIMEZONE and DBTIMEZONE may differ per PDB.
        self.enter_home()?;
        self.inner.host_utc_offset()
    }
}

impl Flashback for ContainerSession {
    fn current_scn(&mut self) -> Result<Scn> {
        // V$DATABASE.CURRENT_SCN is the CDB's in every container: no switch needed.
        self.inner.current_scn()
    }

    /// A standby's answer reads its logs from the session's home container, as mining_limit
    /// does; a primary's is none, given without moving the session out of the PDB it reads in
    /// (a container switch and back each wave). The role is asked once.
    fn stream_read_scn(&mut self) -> Result<Option<Scn>> {
        let standby = match self.standby {
            Some(s) => s,
            None => {
                let s = self.database()?.role != DatabaseRole::Primary;
                self.standby = Some(s);
                s
            }
        };
        if !standby {
            return Ok(None);
        }
        self.enter_home()?;
        self.inner.stream_read_scn()
    }

    fn read_as_of(
        &mut self,
        query: &FlashbackQuery,
        row: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        self.enter_table(&query.table)?;
        self.inner.read_as_of(query, row)
    }

    fn check_condition(&mut self, table: &TableName, condition: &str) -> Result<()> {
        self.enter_table(table)?;
        self.inner.check_condition(table, condition)
    }

    fn key_range(
        &mut self,
        table: &TableName,
        key_column: &str,
        scn: Option<Scn>,
    ) -> Result<Option<(Value, Value)>> {
        self.enter_table(table)?;
        self.inner.key_range(table, key_column, scn)
    }

    fn key_boundaries(&mut self, q: &BoundaryQuery) -> Result<Vec<Vec<Value>>> {
        self.enter_table(&q.table)?;
        self.inner.key_boundaries(q)
    }

    fn scn_to_time(&mut self, scn: Scn) -> Result<Option<String>> {
        self.inner.scn_to_time(scn)
    }
}

impl Miner for ContainerSession {
    fn open_transactions(&mut self) -> Result<Vec<OpenTransaction>> {
        self.enter_home()?;
        self.inner.open_transactions()
    }

    fn logs(&mut self) -> Result<Vec<LogFile>> {
        self.enter_home()?;
        self.inner.logs()
    }

    fn mine_redo_of(&mut self, source: RedoSource) -> Result<()> {
        self.inner.mine_redo_of(source)
    }

    fn mining_limit(&mut self, from: Scn) -> Result<Option<Scn>> {
        self.enter_home()?;
        self.inner.mining_limit(from)
    }

    fn quiet_through(&mut self) -> Option<Scn> {
        self.inner.quiet_through()
    }

    fn redo_threads(&mut self) -> Result<Vec<RedoThread>> {
        self.enter_home()?;
        self.inner.redo_threads()
    }

    fn dictionary_builds(&mut self) -> Result<Vec<DictionaryBuild>> {
        self.enter_home()?;
        self.inner.dictionary_builds()
    }

    fn build_dictionary(&mut self) -> Result<()> {
        self.enter_home()?;
        self.inner.build_dictionary()
    }

    fn mine(
        &mut self,
        start: Scn,
        end: Scn,
        filter: &super::MiningFilter,
        row: &mut dyn FnMut(LogMinerRow) -> Result<()>,
    ) -> Result<()> {
        self.enter_home()?;
        self.inner.mine(start, end, filter, row)
    }
}

impl Admin for ContainerSession {
    fn insert_signal(&mut self, table: &TableName, row: &SignalRow) -> Result<()> {
        self.enter_table(table)?;
        self.inner.insert_signal(table, row)
    }
}
