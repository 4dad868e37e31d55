//! One "connection" to the emulated database: a user in a container (see [`super::access`]),
//! making the checks Oracle makes on every call.
//!
//! A statement names a table as `"OWNER"."TABLE"`; which table that is depends on the
//! session's container, exactly as on Oracle: the `pdb` part of a [`TableName`] the engine
//! passes is not trusted, the session's container decides. In CDB$ROOT there are no user
//! tables (ORA-00942); in a PDB only that PDB's.

use super::access::{self, User, ROOT};
use super::store::Replica;
use super::{poisoned, topology, writer, MineFault, Shared};
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use cdc_core::model::*;
use cdc_core::session::prelude::*;
use rand::Rng;
use std::sync::Arc;

pub struct EmulatorSession {
    pub(super) shared: Arc<Shared>,
    /// Its place among the user's open sessions (SESSIONS_PER_USER).
    pub(super) slot: Arc<crate::session_limit::SessionSlot>,
    pub(super) dropped: bool,
    /// The database's restart count when the session was opened (the restart drill).
    pub(super) epoch: u64,
    /// When the session last made a call (the idle-time drill).
    pub(super) last_call: std::time::Instant,
    /// When it logged in (the connect-time drill).
    pub(super) logged_in: std::time::Instant,
    pub(super) user: User,
    /// `None` outside a CDB; else `CDB$ROOT` or a PDB.
    pub(super) container: Option<String>,
    /// The dictionary this session's LogMiner sessions use, where START_LOGMNR's options chose
    /// one (sessions over Oracle Net); `None`: the connector's (`cdc.mining.dictionary`).
    pub(super) dictionary: Option<Dictionary>,
    /// On a downstream: whose redo capture mines (`Session::mine_redo_of`).
    pub(super) shipped_from: Option<RedoSource>,
    /// The user's LOGICAL_READS_PER_CALL where RESOURCE_LIMIT enforces it.
    pub(super) reads_per_call: Option<u64>,
    /// ROW ARCHIVAL VISIBILITY = ALL: archived rows of tables with ROW ARCHIVAL are visible to
    /// its queries. Oracle's default is ACTIVE (VLDB and Partitioning Guide, "Using In-Database
    /// Archiving"): a session over Oracle Net starts so, until its ALTER SESSION. An in-process
    /// session stands for the Oracle adapter's, whose setup sets ALL at every connect and
    /// container switch (`sql::session_setup`): it starts with ALL.
    pub(super) archived_visible: bool,
}

/// The major release of a version text (`19.22.0.0.0` → 19).
pub(super) fn major(version: &str) -> u32 {
    version
        .split('.')
        .next()
        .and_then(|m| m.trim().parse().ok())
        .unwrap_or(0)
}

impl EmulatorSession {
    /// Latency, dropped connections; then the replica brought up to date.
    pub(super) fn call(&mut self) -> Result<()> {
        if self.dropped {
            return Err(CdcError::ConnectionLost(
                "ORA-03114: not connected to ORACLE".into(),
            ));
        }
        let idle = std::mem::replace(&mut self.last_call, std::time::Instant::now()).elapsed();
        let (latency, drop, slow, kill, dead_ms) = {
            let mut f = self.shared.faults.lock().map_err(|_| poisoned())?;
            if f.restarts != self.epoch {
                // The instance this session ran in has gone (a restart since it logged in).
                self.dropped = true;
                return Err(CdcError::ConnectionLost(
                    "ORA-03113: end-of-file on communication channel (the database restarted)"
                        .into(),
                ));
            }
            let connect_limit = f.faults.settings.connect_time_ms;
            let connected = self.logged_in.elapsed();
            if connect_limit > 0 && connected.as_millis() > u128::from(connect_limit) {
                // The profile's CONNECT_TIME: the session is ended however busy it is; its next
                // call learns it.
                self.dropped = true;
                return Err(CdcError::ConnectionLost(format!(
                    "ORA-02399: exceeded maximum connect time, you are being logged off (connected {} ms, fault drill: {connect_limit} ms)",
                    connected.as_millis()
                )));
            }
            let idle_limit = f.faults.settings.idle_timeout_ms;
            if idle_limit > 0 && idle.as_millis() > u128::from(idle_limit) {
                // The profile's IDLE_TIME: PMON ended the session while it was idle; its next
                // call learns it.
                self.dropped = true;
                return Err(CdcError::ConnectionLost(format!(
                    "ORA-02396: exceeded maximum idle time, please connect again (idle {} ms, fault drill: {idle_limit} ms)",
                    idle.as_millis()
                )));
            }
            f.calls += 1;
            let n = f.calls;
            let s = &f.faults.settings;
            let every = |k: u32| k > 0 && n % u64::from(k) == 0;
            if every(s.restart_every) {
                // SHUTDOWN IMMEDIATE: this call fails, every session ends, logins are refused
                // until the database is open again.
                let down_ms = s.restart_ms;
                let every = s.restart_every;
                f.restarts += 1;
                f.down_until =
                    Some(std::time::Instant::now() + std::time::Duration::from_millis(down_ms));
                self.dropped = true;
                return Err(CdcError::ConnectionLost(format!(
                    "ORA-01089: immediate shutdown or close in progress - no operations are permitted (fault drill: a restart every {every}th call, down {down_ms} ms)"
                )));
            }
            let slow = every(s.slow_call_every).then_some(s.slow_call_ms);
            let kill = every(s.kill_session_every).then_some(s.kill_session_every);
            let (per_mille, latency) = (s.drop_per_mille, s.call_latency_ms);
            let dead_ms = s.dead_connection_ms;
            let drop = per_mille > 0 && f.rng.gen_range(0..1000) < per_mille;
            (latency, drop, slow, kill, dead_ms)
        };
        let wait = latency + slow.unwrap_or(0);
        if wait > 0 {
            std::thread::sleep(std::time::Duration::from_millis(wait));
        }
        if let Some(every) = kill {
            // ALTER SYSTEM KILL SESSION: this call fails, the session is gone.
            self.dropped = true;
            return Err(CdcError::ConnectionLost(format!(
                "ORA-00028: your session has been killed (fault drill: every {every}th call)"
            )));
        }
        if drop {
            self.dropped = true;
            // The connection is cut, not logged off: the database keeps the session until it
            // notices (cdc.emulator.fault.dead.connection.ms).
            self.slot.outlive_connection(dead_ms);
            return Err(CdcError::ConnectionLost(
                "ORA-03113: end-of-file on communication channel (fault drill)".into(),
            ));
        }
        self.shared.refresh()
    }

    pub(super) fn replica(&self) -> Result<std::sync::RwLockReadGuard<'_, Replica>> {
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

    /// The PDB this session is in (`None` in CDB$ROOT and outside a CDB).
    pub(super) fn pdb(&self) -> Option<&str> {
        self.container.as_deref().filter(|c| *c != ROOT)
    }

    pub(super) fn in_root(&self) -> bool {
        self.container.as_deref() == Some(ROOT)
    }

    /// The table `"OWNER"."TABLE"` names in this session's container.
    pub(super) fn here(&self, table: &TableName) -> TableName {
        TableName::new(self.pdb(), &table.owner, &table.table)
    }

    /// Name resolution of `"OWNER"."TABLE"` for a query: without any privilege on it the table
    /// does not exist for the user; in CDB$ROOT no user table does.
    pub(super) fn resolve(&self, table: &TableName, operation: &str) -> Result<TableName> {
        self.no_tables(table)?;
        let name = self.here(table);
        let missing = || {
            CdcError::Database(format!(
                "ORA-00942: table or view does not exist: {operation}: {} in {}",
                table.quoted(),
                self.container.as_deref().unwrap_or("the database")
            ))
        };
        if self.in_root() {
            return Err(missing());
        }
        if !self.user.sees_table(&name) {
            return Err(CdcError::Privilege {
                operation: operation.into(),
                message: format!(
                    "ORA-00942: table or view does not exist ({} is not visible to {})",
                    table.quoted(),
                    self.user.name
                ),
            });
        }
        if self.replica()?.table_index(&name).is_none() {
            return Err(missing());
        }
        Ok(name)
    }

    /// A flashback read's checks: the table exists here, SELECT and FLASHBACK on it.
    pub(super) fn flashback_table(&self, table: &TableName) -> Result<TableName> {
        let name = self.resolve(table, &format!("flashback read of {}", table.owner_table()))?;
        self.user.flashback(&name)?;
        Ok(name)
    }

    /// The row DBA_SUPPLEMENTAL_LOGGING shows in this session's container (SELECT on it, else
    /// ORA-00942). In a PDB: the levels the PDB enabled itself
    /// ([`super::schema::DatabaseSpec::pdb_supplemental`]); whether Oracle's view there also
    /// reflects CDB$ROOT's levels is not confirmed by a primary source, so the emulator shows the
    /// PDB's own and a reader counts the root's from V$DATABASE. Elsewhere (CDB$ROOT, a
    /// non-CDB): V$DATABASE's levels, also unconfirmed.
    pub(super) fn supplemental_logging_view(&self) -> Result<PdbSupplementalLogging> {
        self.user.read_dictionary(
            "DBA_SUPPLEMENTAL_LOGGING",
            "reading DBA_SUPPLEMENTAL_LOGGING",
        )?;
        let r = self.replica()?;
        let d = &r.schema.database;
        let shown = match self.pdb() {
            Some(pdb) => {
                d.pdb_supplemental(pdb)
                    .cloned()
                    .unwrap_or(super::schema::SupplementalSpec {
                        min: false,
                        all: false,
                        primary_key: false,
                    })
            }
            None => d.supplemental_logging.clone(),
        };
        Ok(PdbSupplementalLogging {
            minimal: shown.minimal(),
            primary_key: shown.primary_key,
            unique_index: false,
            foreign_key: false,
            all_column: shown.all,
        })
    }

    pub(super) fn version_major(&self) -> Result<u32> {
        Ok(major(&self.replica()?.schema.database.version))
    }

    /// Where START_LOGMNR's dictionary makes LogMiner read from for a window starting at
    /// `start`: the online catalog decodes only this database's own redo (a downstream:
    /// CDC-5301, where Oracle would decode the foreign object numbers to `"UNKNOWN"."OBJ# n"`);
    /// a dictionary in the redo must be whole before the window, and LogMiner reads on from the
    /// log it begins in (else ORA-01371, CDC-5302).
    fn dictionary_from(&self, start: Scn) -> Result<Scn> {
        let dictionary = match self.dictionary {
            Some(d) => d,
            None => *self.shared.dictionary.lock().map_err(|_| poisoned())?,
        };
        match dictionary {
            Dictionary::OnlineCatalog if self.shared.downstream() => {
                Err(CdcError::DownstreamOnlineCatalog {
                    mining: self.shared.describe(),
                })
            }
            Dictionary::OnlineCatalog => Ok(start),
            Dictionary::RedoLogs => {
                let builds = self.builds()?;
                match dictionary_for(&builds, start) {
                    Some(b) => Ok(b.begin_scn.min(start)),
                    None => Err(CdcError::NoDictionaryInRedo {
                        mining: self.shared.describe(),
                        scn: start,
                        builds: builds.iter().map(|b| b.end_next_scn).collect(),
                    }),
                }
            }
        }
    }

    /// The dictionary builds in the logs this database holds.
    fn builds(&self) -> Result<Vec<DictionaryBuild>> {
        let logs = match self.shared.downstream() {
            true => {
                let r = self.replica()?;
                topology::downstream_logs(&self.shared.role, &r, self.shared.clock.now_ms())
            }
            false => self.own_log_files()?,
        };
        Ok(self.replica()?.dictionary_builds_in(&logs))
    }

    /// The logs the adapter lists here outside a downstream: V$LOG and V$ARCHIVED_LOG on a
    /// primary, the archived logs alone on a standby (`topology::standby_logs`).
    pub(super) fn own_log_files(&self) -> Result<Vec<LogFile>> {
        let r = self.replica()?;
        Ok(match self.shared.role {
            topology::Role::Standby { .. } => topology::standby_logs(&r),
            _ => r.log_files(),
        })
    }

    /// The views a downstream's received log list is read from.
    pub(super) fn read_shipped_views(&self) -> Result<()> {
        for view in ["V_$FOREIGN_ARCHIVED_LOG", "V_$STANDBY_LOG", "V_$LOGFILE"] {
            self.user
                .read_dictionary(view, "reading the received redo log list")?;
        }
        Ok(())
    }

    /// The views the adapter's log list reads (V$LOG, V$LOGFILE, V$ARCHIVED_LOG …).
    pub(super) fn read_log_views(&self) -> Result<()> {
        for view in [
            "V_$LOG",
            "V_$LOGFILE",
            "V_$ARCHIVED_LOG",
            "V_$DATABASE",
            "V_$ARCHIVE_DEST_STATUS",
        ] {
            self.user
                .read_dictionary(view, "reading the redo log list")?;
        }
        Ok(())
    }
}

impl EmulatorSession {
    /// A session for a reader thread: the same user, container and database, its own
    /// connection state (a cursor's rows are read while the session answers other calls).
    pub(super) fn reader(&self) -> EmulatorSession {
        EmulatorSession {
            shared: self.shared.clone(),
            slot: Arc::clone(&self.slot),
            dropped: false,
            epoch: self.epoch,
            last_call: std::time::Instant::now(),
            logged_in: self.logged_in,
            user: self.user.clone(),
            container: self.container.clone(),
            dictionary: self.dictionary,
            shipped_from: self.shipped_from,
            reads_per_call: self.reads_per_call,
            archived_visible: self.archived_visible,
        }
    }

    /// The user tables of this session's container the user may see (ALL_TABLES), without
    /// the DBA_OBJECTS check [`Session::tables`] makes for the adapter's catalog join.
    pub(super) fn visible_tables(&self) -> Result<Vec<TableInfo>> {
        if self.shared.downstream() || self.in_root() {
            return Ok(Vec::new());
        }
        let pdb = self.pdb().map(str::to_string);
        let r = self.replica()?;
        Ok(r.tables
            .iter()
            .filter(|t| t.def.name.pdb == pdb && self.user.sees_table(&t.def.name))
            .map(|t| t.info())
            .collect())
    }

    /// A read of a table's rows: AS OF an SCN (`flashback`: SELECT and FLASHBACK on it) or of
    /// its current rows (SELECT only), with the fault drills of a flashback read.
    /// `refs`: the columns the statement references (for column-level VPD policies); `None`
    /// for a read whose statement is the query itself (its select list, key and condition).
    pub(super) fn read_rows(
        &mut self,
        query: &FlashbackQuery,
        flashback: bool,
        refs: Option<&crate::policies::References>,
        row: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        self.call()?;
        self.shared.refresh_rows()?;
        let name = if flashback {
            self.flashback_table(&query.table)?
        } else {
            let name = self.resolve(
                &query.table,
                &format!("read of {}", query.table.owner_table()),
            )?;
            self.user.select(&name)?;
            name
        };
        self.read_checked(name, query, refs, row)
    }

    /// V$DATABASE as this session sees it: a downstream shows its own identity, V$PDBS from a
    /// PDB only that PDB, and only where the user may read them (the views' grants).
    pub(super) fn database_view(&self) -> Result<DatabaseInfo> {
        let mut info = self.replica()?.database_info();
        if !self.user.may_read_dictionary("V_$PDBS") {
            info.pdbs.clear();
        }
        if !self.user.may_read_dictionary("DBA_TABLESPACES") {
            info.undo_guarantee = false;
        }
        if let Some(pdb) = self.pdb() {
            info.pdbs.retain(|p| p == pdb);
        }
        // From CDB$ROOT, V$PDBS shows the PDBs the user's CONTAINER_DATA covers.
        if self.in_root() {
            if let Some(cd) = &self.user.privileges.container_data {
                info.pdbs.retain(|p| cd.covers(p));
            }
        }
        if let topology::Role::Downstream { name, dbid, .. } = &self.shared.role {
            info.name = name.clone();
            info.dbid = *dbid;
            info.pdbs.clear();
            info.role = DatabaseRole::Primary;
            info.open_mode = OpenMode::ReadWrite;
        }
        // RESTRICTED is a column of the same V$PDBS rows.
        let shown = info.pdbs.clone();
        info.restricted_pdbs.retain(|p| shown.contains(p));
        Ok(info)
    }

    /// V$DATABASE.CURRENT_SCN (a downstream's own; see [`Replica::current_scn_view`]).
    pub(super) fn scn_view(&self) -> Result<Scn> {
        if let topology::Role::Downstream { scn, .. } = &self.shared.role {
            return Ok(*scn);
        }
        Ok(self.replica()?.current_scn_view())
    }

    /// The fault drills of a read, then the rows, under the replica's read lock.
    fn read_checked(
        &mut self,
        name: TableName,
        query: &FlashbackQuery,
        refs: Option<&crate::policies::References>,
        row: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        let (fail, lob_fail, memory_fail, delay) = {
            let mut f = self.shared.faults.lock().map_err(|_| poisoned())?;
            f.reads += 1;
            let n = f.reads;
            (
                f.faults.settings.ora01555_reads.contains(&n),
                f.faults.settings.ora22924_reads.contains(&n),
                f.faults.settings.ora04030_reads.contains(&n),
                f.faults.settings.read_delay_ms,
            )
        };
        if memory_fail {
            return Err(CdcError::OutOfCallMemory(format!(
                "flashback read of {}: ORA-04030: out of process memory when trying to allocate 1048576 bytes (sort subheap,sort key)",
                query.table
            )));
        }
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
        // Rows go to the caller as they are read, under the replica's read lock (as a cursor
        // hands rows over while the server reads).
        let r = self.replica()?;
        let mut q = query.clone();
        q.table = name;
        // What Oracle's security features and In-Database Archiving do to this query: hidden
        // rows as conditions ANDed to the query's, columns nulled where an ALL_ROWS policy's
        // predicate fails, masked columns by select-list position.
        let (hidden, nulled, masked) = match crate::policies::table_spec(&r.schema, &q.table) {
            Some(spec) => {
                let own = crate::policies::References::of_query(query);
                let refs = refs.unwrap_or(&own);
                (
                    crate::policies::hidden_rows(spec, &self.user, self.archived_visible, refs),
                    crate::policies::nulled_columns(spec, &self.user, refs),
                    crate::policies::masked_columns(
                        spec,
                        &self.policy_reader(&r),
                        &q.columns,
                        &r,
                        &q.table,
                    ),
                )
            }
            None => (Vec::new(), Vec::new(), Vec::new()),
        };
        if !hidden.is_empty() {
            q.filter = Some(crate::policies::and_all(q.filter.as_deref(), &hidden));
        }
        let mut masking;
        let row: &mut dyn FnMut(FetchedRow) -> Result<()> = if masked.is_empty() {
            row
        } else {
            masking = move |mut fetched: FetchedRow| {
                crate::policies::mask(&mut fetched, &masked);
                row(fetched)
            };
            &mut masking
        };
        let now = self.shared.clock.now_ms();
        let Some(max) = self.reads_per_call else {
            return r.read_as_of_each_nulling(&q, now, &nulled, row);
        };
        // The profile's LOGICAL_READS_PER_CALL: the call ends once it has read more.
        let mut read = 0u64;
        r.read_as_of_each_nulling(&q, now, &nulled, &mut |fetched| {
            read += 1;
            if read > max {
                return Err(CdcError::CallLimit(format!(
                    "flashback read of {}: ORA-02395: exceeded call limit on IO usage (LOGICAL_READS_PER_CALL {max})",
                    query.table
                )));
            }
            row(fetched)
        })
    }
}

impl EmulatorSession {
    /// This session as a Data Redaction policy expression sees it.
    fn policy_reader(&self, r: &Replica) -> crate::redaction_expr::Reader<'_> {
        let db = &r.schema.database;
        crate::redaction_expr::Reader {
            user: &self.user,
            con_name: self.container.clone().unwrap_or_else(|| db.name.clone()),
            db_name: db.name.clone(),
            host_time: crate::redaction_expr::host_time(
                self.shared.clock.now_ms(),
                db.sql_clock_offset_secs(),
            ),
        }
    }

    /// The keys (`key`, from `lower` inclusive) of the rows a query of those columns sees, in
    /// key order, a key with a NULL (a column an ALL_ROWS policy nulls) left out; `None` when no
    /// VPD policy or ROW ARCHIVAL changes such a query for this session (the key index holds the
    /// answer then).
    fn visible_keys(
        &self,
        r: &Replica,
        table: &TableName,
        key: &[String],
        lower: Option<Vec<crate::types::Value>>,
        scn: Scn,
        now: i64,
    ) -> Result<Option<Vec<Vec<crate::types::Value>>>> {
        let Some(spec) = crate::policies::table_spec(&r.schema, table) else {
            return Ok(None);
        };
        let refs = crate::policies::References::Named(key.to_vec());
        let hidden = crate::policies::hidden_rows(spec, &self.user, self.archived_visible, &refs);
        let nulled = crate::policies::nulled_columns(spec, &self.user, &refs);
        if hidden.is_empty() && nulled.is_empty() {
            return Ok(None);
        }
        let q = FlashbackQuery {
            table: table.clone(),
            columns: key.to_vec(),
            key_columns: key.to_vec(),
            scn,
            range: match lower {
                Some(l) => cdc_core::model::ChunkRange::Key {
                    lower: Some(l),
                    upper: None,
                },
                None => cdc_core::model::ChunkRange::Whole,
            },
            filter: (!hidden.is_empty()).then(|| crate::policies::and_all(None, &hidden)),
            row_ids: false,
        };
        let mut keys = Vec::new();
        r.read_as_of_each_nulling(&q, now, &nulled, &mut |row| {
            if !row.values.iter().any(|v| v.is_null()) {
                keys.push(row.values);
            }
            Ok(())
        })?;
        Ok(Some(keys))
    }

    /// ALTER SESSION SET ROW ARCHIVAL VISIBILITY = ALL (`true`) or ACTIVE (`false`).
    pub fn set_archived_visible(&mut self, all: bool) {
        self.archived_visible = all;
    }

    /// On a standby, where its archived logs end for mining from `from`, as the adapter bounds
    /// it (`topology::standby_logs`; no archived log yet: `from` − 1, nothing minable).
    fn archived_end(&mut self, from: Scn) -> Result<Option<Scn>> {
        self.read_log_views()?;
        let r = self.replica()?;
        let logs = topology::standby_logs(&r);
        let threads = r.redo_threads(self.shared.clock.now_ms());
        if logs.is_empty() {
            return Ok(Some(from.saturating_sub(1)));
        }
        Ok(cdc_core::threads::shipped_end_for(&logs, &threads, from))
    }
}

impl Catalog for EmulatorSession {
    /// ORA-28002 while the user's password is in its grace period, as every login then gets.
    fn login_warning(&mut self) -> Result<Option<LoginWarning>> {
        Ok(self.user.password.login_warning().map(LoginWarning::new))
    }

    fn database(&mut self) -> Result<DatabaseInfo> {
        self.call()?;
        self.user
            .read_dictionary("V_$DATABASE", "reading V$DATABASE")?;
        self.user
            .read_dictionary("V_$PARAMETER", "reading V$PARAMETER")?;
        // The adapter reads V$PDBS and DBA_TABLESPACES with a warning when it may not; from a
        // PDB V$PDBS shows that PDB only; a downstream is another database, open read write,
        // with none of the source's PDBs.
        self.database_view()
    }

    fn container(&mut self) -> Result<Option<String>> {
        self.call()?;
        Ok(self.container.clone())
    }

    fn set_container(&mut self, name: &str) -> Result<()> {
        self.call()?;
        let target = match name
            .trim()
            .strip_prefix('"')
            .and_then(|n| n.strip_suffix('"'))
        {
            Some(quoted) => quoted.to_string(),
            None => name.trim().to_ascii_uppercase(),
        };
        let statement = format!("ALTER SESSION SET CONTAINER = {target}");
        let (multitenant, pdbs) = {
            let r = self.replica()?;
            (r.schema.database.multitenant, access::pdbs(&r.schema))
        };
        if !multitenant || self.container.is_none() {
            return Err(CdcError::Database(format!(
                "ORA-65090: operation only allowed in a container database ({statement})"
            )));
        }
        if target != ROOT {
            let downstream = self.shared.downstream();
            match pdbs.iter().find(|(p, _)| *p == target) {
                Some(_) if downstream => {
                    return Err(CdcError::ContainerUnreachable(format!(
                        "ORA-65011: Pluggable database {target} does not exist ({statement} on the downstream mining database {})",
                        self.shared.describe()
                    )))
                }
                None => {
                    return Err(CdcError::ContainerUnreachable(format!(
                        "ORA-65011: Pluggable database {target} does not exist ({statement})"
                    )))
                }
                Some((_, mode)) if !mode.is_open() => {
                    return Err(CdcError::ContainerUnreachable(format!(
                        "ORA-01109: database not open ({statement}: PDB {target} is MOUNTED)"
                    )))
                }
                Some(_) => {}
            }
        }
        self.user.set_container(&target)?;
        if target != ROOT {
            let r = self.replica()?;
            self.user.enter_restricted(&r.schema, &target)?;
        }
        // What the user may do is now what it holds there (common and local grants).
        self.user.enter(Some(&target));
        self.container = Some(target);
        Ok(())
    }

    fn privileges(&mut self) -> Result<Privileges> {
        self.call()?;
        // SESSION_PRIVS, SESSION_ROLES and ALL_TAB_PRIVS of this container.
        let mut p = self.user.privileges.clone();
        // DBA_CONTAINER_DATA is read in CDB$ROOT, where the attribute applies.
        if !self.in_root() {
            p.container_data = None;
        }
        // USER_GOLDENGATE_PRIVILEGES is read inside a PDB (per-PDB mining's requirement).
        match self.pdb() {
            Some(_) => {
                p.goldengate.get_or_insert_with(Vec::new);
            }
            None => p.goldengate = None,
        }
        Ok(p)
    }

    fn pdb_supplemental_logging(&mut self) -> Result<Option<PdbSupplementalLogging>> {
        self.call()?;
        if self.pdb().is_none() {
            return Ok(None);
        }
        self.supplemental_logging_view().map(Some)
    }

    fn read_policies(&mut self, table: &TableName) -> Result<ReadPolicies> {
        self.call()?;
        let name = self.resolve(
            table,
            &format!("reading the policies of {}", table.owner_table()),
        )?;
        let r = self.replica()?;
        Ok(crate::policies::read_policies(
            crate::policies::table_spec(&r.schema, &name),
            &self.policy_reader(&r),
            crate::schema::release(&r.schema.database.version),
        ))
    }

    fn tables(&mut self) -> Result<Vec<TableInfo>> {
        self.call()?;
        if self.shared.downstream() || self.in_root() {
            return Ok(Vec::new());
        }
        // The catalog statements join DBA_OBJECTS (data object ids).
        self.user
            .read_dictionary("DBA_OBJECTS", "reading DBA_OBJECTS")?;
        self.visible_tables()
    }

    fn extents(&mut self, table: &TableName) -> Result<Vec<Extent>> {
        self.call()?;
        self.no_tables(table)?;
        self.user
            .read_dictionary("DBA_EXTENTS", "reading DBA_EXTENTS")?;
        self.user
            .read_dictionary("DBA_OBJECTS", "reading DBA_OBJECTS")?;
        let name = self.here(table);
        let r = self.replica()?;
        // DBA_EXTENTS simply has no rows for a segment that is not there.
        let Some(i) = r.table_index(&name).filter(|_| !self.in_root()) else {
            return Ok(Vec::new());
        };
        let t = &r.tables[i];
        // An index-organised table's segment is its primary key index, a clustered table's its
        // cluster: DBA_EXTENTS has nothing under the table's name.
        if t.def.organization == Organization::IndexOrganized || t.def.cluster.is_some() {
            return Ok(Vec::new());
        }
        let mut out: Vec<Extent> = t.extents.iter().map(|(_, e)| e.clone()).collect();
        // The order of the adapter's DBA_EXTENTS query (ORDER BY RELATIVE_FNO, BLOCK_ID).
        out.sort_by_key(|e| (e.relative_fno, e.block_id));
        Ok(out)
    }

    /// DBA_EXTENTS under the cluster's name (SEGMENT_TYPE 'CLUSTER') in the table's schema and
    /// this container: the blocks every table of the cluster has its rows in. As the view, it
    /// asks nothing of the table itself.
    fn cluster_extents(&mut self, table: &TableName, cluster: &str) -> Result<Vec<Extent>> {
        self.call()?;
        self.no_tables(table)?;
        self.user
            .read_dictionary("DBA_EXTENTS", "reading DBA_EXTENTS")?;
        self.user
            .read_dictionary("DBA_OBJECTS", "reading DBA_OBJECTS")?;
        if self.in_root() {
            return Ok(Vec::new());
        }
        let pdb = self.pdb().map(str::to_string);
        Ok(self
            .replica()?
            .cluster_extents(pdb.as_deref(), &table.owner, cluster))
    }

    fn host_utc_offset(&mut self) -> Result<Option<i32>> {
        // The source's host on a downstream too: the redo's times are the source's. The clock
        // LogMiner's DATEs are in: the host's, the database time zone's with
        // TIME_AT_DBTIMEZONE=DATABASE.
        self.call()?;
        Ok(Some(
            self.replica()?.schema.database.date_clock_offset_secs(),
        ))
    }

    fn instance_config(&mut self) -> Result<InstanceConfig> {
        self.call()?;
        let replica = self.replica()?;
        let mut config = replica.instance_config(self.shared.clock.now_ms());
        // NLS_DATABASE_PARAMETERS is the container's: a PDB may have a set of its own.
        let sets = replica.schema.database.charsets_in(self.pdb());
        drop(replica);
        config.character_set = Some(sets.database.name().into());
        config.national_character_set = Some(sets.national.name().into());
        config.container = self.container.clone();
        config.sessions_per_user = Some(self.user.sessions_per_user());
        config.call_limits = Some(cdc_core::model::CallLimits {
            cpu_per_call: None,
            logical_reads_per_call: self.user.reads_per_call,
        });
        Ok(config)
    }
}

impl Flashback for EmulatorSession {
    fn current_scn(&mut self) -> Result<Scn> {
        self.call()?;
        self.user
            .read_dictionary("V_$DATABASE", "reading the current SCN")?;
        self.scn_view()
    }

    /// As the adapter: on a standby, one past where its archived logs end when that is below
    /// the applied SCN (the logs read after the SCN, with the same views and grants).
    fn stream_read_scn(&mut self) -> Result<Option<Scn>> {
        if !matches!(self.shared.role, topology::Role::Standby { .. }) {
            return Ok(None);
        }
        let current = self.current_scn()?;
        self.user.read_dictionary("V_$THREAD", "reading V$THREAD")?;
        Ok(self
            .archived_end(current)?
            .map(|end| end.saturating_add(1))
            .filter(|s| *s < current))
    }

    /// As Oracle parses `SELECT … WHERE (condition)`: the table must be readable by the user,
    /// the condition must compile against its columns (the emulator's condition compiler, which
    /// also refuses with ORA-03001 what it could not evaluate).
    fn check_condition(&mut self, table: &TableName, condition: &str) -> Result<()> {
        self.call()?;
        let name = self.flashback_table(table)?;
        let r = self.replica()?;
        let t = r.table(&name)?;
        super::condition::compile(condition, &t.columns).map(drop)
    }

    fn read_as_of(
        &mut self,
        query: &FlashbackQuery,
        row: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        self.read_rows(query, true, None, row)
    }

    fn key_range(
        &mut self,
        table: &TableName,
        key_column: &str,
        scn: Option<Scn>,
    ) -> Result<Option<(crate::types::Value, crate::types::Value)>> {
        self.call()?;
        self.shared.refresh_rows()?;
        // Without an SCN, a plain SELECT of the current rows (as of the newest SCN: no undo
        // needed, no FLASHBACK privilege).
        let name = match scn {
            Some(_) => self.flashback_table(table)?,
            None => {
                let name = self.resolve(table, &format!("read of {}", table.owner_table()))?;
                self.user.select(&name)?;
                name
            }
        };
        let r = self.replica()?;
        let scn = scn.unwrap_or(r.current_scn);
        let now = self.shared.clock.now_ms();
        // A VPD policy or ROW ARCHIVAL that hides rows of a query of the key (or nulls it):
        // the range is of the rows the session sees, as `SELECT MIN(k), MAX(k)` answers.
        let key = [key_column.to_string()];
        match self.visible_keys(&r, &name, &key, None, scn, now)? {
            None => r.key_range(&name, key_column, scn, now),
            Some(keys) => {
                let first = keys.first().and_then(|k| k.first()).cloned();
                let last = keys.last().and_then(|k| k.first()).cloned();
                Ok(first.zip(last))
            }
        }
    }

    fn key_boundaries(&mut self, q: &BoundaryQuery) -> Result<Vec<Vec<crate::types::Value>>> {
        self.call()?;
        self.shared.refresh_rows()?;
        let name = self.flashback_table(&q.table)?;
        let mut q = q.clone();
        q.table = name;
        let r = self.replica()?;
        let now = self.shared.clock.now_ms();
        // Under a policy or ROW ARCHIVAL that hides rows: every step-th key the session sees,
        // as the probe's query answers (the index's keys otherwise).
        let (bounds, read) =
            match self.visible_keys(&r, &q.table, &q.key_columns, q.lower.clone(), q.scn, now)? {
                None => r.key_boundaries_read(&q, now)?,
                Some(keys) => {
                    let step = q.step.max(1) as usize;
                    let bounds = keys
                        .iter()
                        .skip(step)
                        .step_by(step)
                        .take(q.count as usize)
                        .cloned()
                        .collect();
                    (bounds, keys.len() as u64)
                }
            };
        match self.reads_per_call {
            // The profile's LOGICAL_READS_PER_CALL: the probe reads its rows in one call.
            Some(max) if read > max => Err(CdcError::CallLimit(format!(
                "key boundary probe of {}: ORA-02395: exceeded call limit on IO usage (LOGICAL_READS_PER_CALL {max})",
                q.table
            ))),
            _ => Ok(bounds),
        }
    }

    fn scn_to_time(&mut self, scn: Scn) -> Result<Option<String>> {
        self.call()?;
        if self.shared.downstream() {
            // The source's SCNs are not this database's.
            return Ok(None);
        }
        let r = self.replica()?;
        if scn < r.schema.database.start_scn || scn > r.current_scn_view() {
            return Ok(None);
        }
        // SCN_TO_TIMESTAMP answers in the clock of LogMiner's DATEs. On Oracle the current
        // SCN moves on while the database is idle (its background work) and maps to the time
        // now; the emulator's stands still while idle, so its current SCN maps to now too.
        if scn == r.current_scn {
            return Ok(Some(r.host_time(self.shared.clock.now_ms())));
        }
        Ok(r.time_of(scn).map(|ms| r.host_time(ms)))
    }
}

impl Miner for EmulatorSession {
    fn open_transactions(&mut self) -> Result<Vec<OpenTransaction>> {
        self.call()?;
        for view in ["GV_$TRANSACTION", "GV_$INSTANCE"] {
            self.user.read_dictionary(view, "reading V$TRANSACTION")?;
        }
        if self.shared.downstream() {
            return Ok(Vec::new());
        }
        let pdb = self.pdb().map(str::to_string);
        let r = self.replica()?;
        // From CDB$ROOT, the transactions of the containers the user's CONTAINER_DATA covers
        // (the root's own always).
        let seen =
            |x: &crate::redo::Xid| match (&self.user.privileges.container_data, r.xid_pdb.get(x)) {
                (Some(cd), Some(p)) if self.in_root() => cd.covers(p),
                _ => true,
            };
        let mut out: Vec<OpenTransaction> = r
            .open
            .iter()
            // From a PDB, V$TRANSACTION shows that PDB's transactions.
            .filter(|(xid, _)| pdb.is_none() || r.xid_pdb.get(xid) == pdb.as_ref())
            .filter(|(xid, _)| seen(xid))
            .map(|(xid, t)| OpenTransaction {
                xid: xid.hex(),
                start_scn: t.start_scn,
                thread: t.thread,
            })
            .collect();
        out.sort_by_key(|t| t.start_scn);
        Ok(out)
    }

    /// The logs the adapter reads: a downstream's received ones (V$FOREIGN_ARCHIVED_LOG,
    /// V$STANDBY_LOG), else V$LOG/V$ARCHIVED_LOG.
    fn logs(&mut self) -> Result<Vec<LogFile>> {
        self.call()?;
        if self.shared.downstream() {
            self.read_shipped_views()?;
            let r = self.replica()?;
            let now = self.shared.clock.now_ms();
            return Ok(topology::downstream_logs(&self.shared.role, &r, now));
        }
        self.read_log_views()?;
        self.own_log_files()
    }

    fn dictionary_builds(&mut self) -> Result<Vec<DictionaryBuild>> {
        self.call()?;
        match self.shared.downstream() {
            true => self
                .user
                .read_dictionary("V_$FOREIGN_ARCHIVED_LOG", "reading V$FOREIGN_ARCHIVED_LOG")?,
            false => self
                .user
                .read_dictionary("V_$ARCHIVED_LOG", "reading V$ARCHIVED_LOG")?,
        }
        self.builds()
    }

    fn redo_threads(&mut self) -> Result<Vec<RedoThread>> {
        self.call()?;
        self.user.read_dictionary("V_$THREAD", "reading V$THREAD")?;
        if let Some(own) = topology::own_thread(&self.shared.role) {
            // A downstream's own thread, which writes nothing of the shipped redo.
            return Ok(vec![own]);
        }
        Ok(self.replica()?.redo_threads(self.shared.clock.now_ms()))
    }

    /// As the adapter bounds mining (`source::threads`): the written redo of every open
    /// thread, an idle one bounded by the SCN once it stood still for the LGWR period (this
    /// database's LGWR writes by the same clock, so no margin is needed). A standby is not
    /// capped by its threads (its redo was written by the primary) but by where its archived
    /// logs end, all its LogMiner is given (`topology::standby_logs`), as the adapter does;
    /// a downstream only by the redo shipped there (real-time shipping sends the source's
    /// written redo, archived-log shipping only whole logs): the source's own V$THREAD bounds
    /// what its LGWR wrote (`source::mining`).
    fn mining_limit(&mut self, from: Scn) -> Result<Option<Scn>> {
        self.call()?;
        self.user.read_dictionary("V_$THREAD", "reading V$THREAD")?;
        match &self.shared.role {
            topology::Role::Standby { .. } => return self.archived_end(from),
            topology::Role::Downstream { .. } => {
                self.read_shipped_views()?;
                let r = self.replica()?;
                let now = self.shared.clock.now_ms();
                return Ok(topology::downstream_limit(&self.shared.role, &r, now, from));
            }
            topology::Role::Primary => {}
        }
        self.user
            .read_dictionary("GV_$DATABASE", "reading GV$DATABASE")?;
        let now = self.shared.clock.now_ms();
        let (scn, threads, delay) = {
            let r = self.replica()?;
            (
                r.current_scn_view(),
                r.redo_threads(now),
                r.schema.database.redo_write_delay_ms,
            )
        };
        Ok(self.shared.looks.bound(delay, Some(now), scn, threads))
    }

    fn quiet_through(&mut self) -> Option<Scn> {
        match self.shared.role {
            topology::Role::Primary => self.shared.looks.quiet_through(),
            _ => None,
        }
    }

    fn mine_redo_of(&mut self, source: RedoSource) -> Result<()> {
        self.shipped_from = Some(source);
        Ok(())
    }

    fn build_dictionary(&mut self) -> Result<()> {
        self.call()?;
        self.user.build_dictionary()?;
        if let Some(pdb) = self.pdb() {
            // The dictionary of the whole CDB is built from the root; LogMiner cannot use one
            // from inside a PDB (ORA-01371 there).
            return Err(CdcError::PdbMining(format!(
                "ORA-65040: operation not allowed from within a pluggable database (DBMS_LOGMNR_D.BUILD in PDB {pdb})"
            )));
        }
        // DDL holding the dictionary (the drill): the build cannot lock it.
        {
            let mut f = self.shared.faults.lock().map_err(|_| poisoned())?;
            f.builds += 1;
            if f.faults.settings.ora01327_builds.contains(&f.builds) {
                return Err(CdcError::DictionaryLocked(
                    "ORA-01327: failed to exclusively lock system dictionary as required BUILD"
                        .to_string(),
                ));
            }
        }
        // The emulator's writer: a standby or read-only database refuses it (ORA-16000), a
        // downstream has no redo of its own to build into, another writer makes it wait.
        let mut w = writer::Writer::open(&self.shared.dir, self.shared.clock.clone(), true)?;
        w.build_dictionary_in_redo()?;
        Ok(())
    }

    fn mine(
        &mut self,
        start: Scn,
        end: Scn,
        filter: &cdc_core::filter::MiningFilter,
        row: &mut dyn FnMut(LogMinerRow) -> Result<()>,
    ) -> Result<()> {
        self.call()?;
        let version = self.version_major()?;
        // From a PDB: before 19c DBMS_LOGMNR refuses to run; from 19c START_LOGMNR by SCN
        // range finds the logs itself and the view holds this PDB's redo only.
        let pdb = self.pdb().map(str::to_string);
        if let Some(p) = &pdb {
            if version < 19 {
                return Err(CdcError::PdbMining(format!(
                    "ORA-65040: operation not allowed from within a pluggable database (DBMS_LOGMNR in PDB {p}, release {version})"
                )));
            }
        } else if self.shared.downstream() {
            // The adapter adds the logs received (foreign archived and standby redo logs).
            self.read_shipped_views()?;
        } else {
            // The adapter lists and adds the log files itself in CDB$ROOT and outside a CDB,
            // each thread's from the window on (V$THREAD).
            self.read_log_views()?;
            self.user.read_dictionary("V_$THREAD", "reading V$THREAD")?;
            let r = self.replica()?;
            cdc_core::threads::check_window_logs(
                &r.redo_threads(self.shared.clock.now_ms()),
                &self.own_log_files()?,
                start,
            )?;
        }
        self.user.logmining(version)?;
        let (fault, recursive) = {
            let mut f = self.shared.faults.lock().map_err(|_| poisoned())?;
            f.mines += 1;
            let n = f.mines;
            let s = &f.faults.settings;
            let fault = if s.ora00310_mines.contains(&n) {
                Some(MineFault::Ora00310)
            } else if s.ora01284_mines.contains(&n) {
                Some(MineFault::Ora01284)
            } else if s.ora00308_mines.contains(&n) {
                Some(MineFault::Ora00308)
            } else if s.ora01307_mines.contains(&n) {
                Some(MineFault::Ora01307)
            } else if s.ora01368_mines.contains(&n) {
                Some(MineFault::Ora01368)
            } else if s.ora01291_mines.contains(&n) {
                Some(MineFault::Ora01291)
            } else if s.ora01343_mines.contains(&n) {
                Some(MineFault::Ora01343)
            } else if s.ora04030_mines.contains(&n) {
                Some(MineFault::Ora04030)
            } else if s.ora00600_mines.contains(&n) {
                Some(MineFault::Ora00600)
            } else {
                None
            };
            (fault, s.ora00604_mines.contains(&n))
        };
        // The drill's Oracle error as the call's recursive SQL met it: under ORA-00604.
        let oracle = |text: String| -> String {
            match text.find("ORA-").filter(|_| recursive) {
                Some(at) => format!(
                    "{}ORA-00604: error occurred at recursive SQL level 1\n{}",
                    &text[..at],
                    &text[at..]
                ),
                None => text,
            }
        };
        let now = self.shared.clock.now_ms();
        topology::check_window(
            &self.shared.role,
            &*self.replica()?,
            (start, end),
            &self.shared.describe(),
            now,
        )?;
        let from = self.dictionary_from(start)?;
        if from < start {
            // LogMiner reads on from the dictionary build: those logs must be there too.
            topology::check_window(
                &self.shared.role,
                &*self.replica()?,
                (from, end),
                &self.shared.describe(),
                now,
            )?;
        }
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
                return Err(CdcError::LogUnavailable(oracle(format!(
                    "ORA-01284: file {log} cannot be opened ({window})"
                ))))
            }
            Some(MineFault::Ora01307) => {
                return Err(CdcError::NoLogMinerSession(oracle(format!(
                    "ORA-01307: no LogMiner session is currently active ({window})"
                ))))
            }
            // START_LOGMNR on a log list that lacks a log of the window: one being archived
            // when the list was read (the archiver behind). The oldest log is still there.
            Some(MineFault::Ora01291) => {
                return Err(CdcError::MissingLogFile {
                    scn: start,
                    oldest: self.replica()?.first_kept_scn().min(start),
                })
            }
            Some(MineFault::Ora01368) => Some(CdcError::LogOverwritten(oracle(format!(
                "ORA-01368: Redo log file header mismatch for thread 1 sequence {sequence} ({window})"
            )))),
            Some(MineFault::Ora00310) => Some(CdcError::LogOverwritten(oracle(format!(
                "ORA-00310: archived log contains sequence {}; sequence {sequence} required ({window})",
                sequence + 1
            )))),
            Some(MineFault::Ora00308) => Some(CdcError::LogUnavailable(oracle(format!(
                "ORA-00308: cannot open archived log '{log}' ({window})"
            )))),
            // Part-way too: LogMiner reaches the blocks it cannot read, or its process cannot
            // grow its memory, after handing over some rows.
            // Oracle's message names no log; the window is said first, as the adapter does
            // (over the wire the client hears the ORA- message alone).
            Some(MineFault::Ora01343) => Some(CdcError::LogStreamCorrupt(oracle(format!(
                "{window}: ORA-01343: LogMiner encountered corruption in the logstream"
            )))),
            Some(MineFault::Ora04030) => Some(CdcError::OutOfCallMemory(oracle(format!(
                "{window}: ORA-04030: out of process memory when trying to allocate 4194328 bytes (pga heap,LogMiner buffer)"
            )))),
            Some(MineFault::Ora00600) => Some(CdcError::LogMinerInternal(oracle(format!(
                "{window}: ORA-00600: internal error code, arguments: [krvrdGetUID], [1], [], [], [], [], [], [], [], [], [], []"
            )))),
        };
        let redo_faults = {
            let f = self.shared.faults.lock().map_err(|_| poisoned())?;
            super::redo_faults::RedoFaults::from_settings(&f.faults.settings)
        };
        let mut rows = super::logminer::mine_with_faults(
            &*self.replica()?,
            start,
            end,
            self.shared.clock.now_ms(),
            filter,
            &redo_faults,
        )?;
        if let Some(p) = &pdb {
            rows.retain(|r| &r.src_con_name == p);
        }
        if let topology::Role::Standby { .. } = self.shared.role {
            // LogMiner returns the redo of the logs it was given, and on a standby those are
            // its archived logs: what redo apply has reached beyond them is in the standby
            // redo log being written, which the log views do not list (`standby_logs`).
            let logs = topology::standby_logs(&*self.replica()?);
            rows.retain(|r| {
                logs.iter()
                    .any(|l| l.thread == r.thread && l.sequence == r.sequence)
            });
        }
        // The profile's LOGICAL_READS_PER_CALL: LogMiner reads every record of the window,
        // whichever schema wrote it, and the call ends part-way once it has read more.
        let err = match (err, self.reads_per_call) {
            (None, Some(max)) => {
                let read = super::logminer::records_read(
                    &*self.replica()?,
                    start,
                    end,
                    self.shared.clock.now_ms(),
                )?;
                (read > max).then(|| {
                    CdcError::CallLimit(format!(
                        "{window}: ORA-02395: exceeded call limit on IO usage (LOGICAL_READS_PER_CALL {max}; the window holds {read} redo records)"
                    ))
                })
            }
            (err, _) => err,
        };
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

impl Admin for EmulatorSession {
    fn insert_signal(&mut self, table: &TableName, row: &SignalRow) -> Result<()> {
        self.call()?;
        let name = self.resolve(table, &format!("insert into {}", table.owner_table()))?;
        self.user.insert(&name)?;
        // The emulator's writer: a standby refuses it with ORA-16000, as Oracle does.
        let mut w = writer::Writer::open(&self.shared.dir, self.shared.clock.clone(), true)?;
        let (index, def) = w
            .table_defs()
            .iter()
            .enumerate()
            .find(|(_, d)| d.name == name)
            .map(|(i, d)| (i, (*d).clone()))
            .ok_or_else(|| CdcError::UnknownTable {
                table: name.to_string(),
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
                text.map_or(crate::types::Value::Null, |t| {
                    crate::types::Value::Text(t.into())
                })
            })
            .collect();
        let xid = w.begin()?;
        w.insert(xid, index, values)?;
        w.commit(&[xid])?;
        w.flush()
    }
}
