//! The source boundary: the one way the engine sees a database. A [`Connector`] opens
//! [`Session`]s; each snapshot reader has a session of its own, as it has a connection of its
//! own against Oracle. The engine's adapters (Oracle, replay) and the emulator implement it;
//! it lives in the core so that the emulator needs nothing of the engine to do so.

use crate::charset;
use crate::errors::{CdcError, Result};
use crate::filter::MiningFilter;
use crate::model::*;
use crate::names::TableName;
use crate::types::Value;

/// Opens sessions ("connections") to one database.
pub trait Connector: Send + Sync {
    fn connect(&self) -> Result<Box<dyn Session>>;
    /// What this connects to, for messages; never contains a password.
    fn describe(&self) -> String;
}

/// One connection. Every method is one round trip (or a short series) against the database.
pub trait Session: Send {
    /// V$DATABASE and friends: identity, role, open mode, redo and supplemental logging, undo.
    fn database(&mut self) -> Result<DatabaseInfo>;
    /// The container this session is in (`SYS_CONTEXT('USERENV', 'CON_NAME')`): `CDB$ROOT` or a
    /// PDB; `None` outside a multitenant database. Catalog views, flashback reads and the signal
    /// insert see only this container's tables; LogMiner runs in CDB$ROOT (or, from 19c, mines a
    /// PDB's own redo from inside it).
    fn container(&mut self) -> Result<Option<String>> {
        Ok(None)
    }
    /// `ALTER SESSION SET CONTAINER = name` (privilege SET CONTAINER). Outside a CDB: ORA-65090.
    fn set_container(&mut self, name: &str) -> Result<()> {
        Err(CdcError::Database(format!(
            "ORA-65090: operation only allowed in a container database (ALTER SESSION SET CONTAINER = {name})"
        )))
    }
    /// What the connected user may do (SESSION_PRIVS, SESSION_ROLES, USER_TAB_PRIVS).
    fn privileges(&mut self) -> Result<Privileges>;
    /// DBA_SUPPLEMENTAL_LOGGING of the PDB this session is in (12.2+): the supplemental logging
    /// the PDB enabled itself. `None` in CDB$ROOT and outside a CDB, where V$DATABASE says all.
    fn pdb_supplemental_logging(&mut self) -> Result<Option<PdbSupplementalLogging>> {
        Ok(None)
    }
    /// Every user table: columns, keys, organisation, row movement, partitions, statistics.
    fn tables(&mut self) -> Result<Vec<TableInfo>>;
    /// One table's columns as the dictionary has them now (`None`: no such table); what a
    /// snapshot chunk selects when no change stream tells the table's layout.
    fn table_columns(&mut self, table: &TableName) -> Result<Option<Vec<ColumnInfo>>> {
        Ok(self
            .tables()?
            .into_iter()
            .find(|t| &t.name == table)
            .map(|t| t.columns))
    }
    /// The table's extents (DBA_EXTENTS joined with its data object ids), in file/block order.
    fn extents(&mut self, table: &TableName) -> Result<Vec<Extent>>;
    /// `SELECT CURRENT_SCN FROM V$DATABASE`.
    fn current_scn(&mut self) -> Result<Scn>;
    /// Transactions open now (V$TRANSACTION), oldest first.
    fn open_transactions(&mut self) -> Result<Vec<OpenTransaction>>;
    /// `SELECT cols FROM t AS OF SCN s WHERE <range>` ordered by the key (or ROWID); each row is
    /// handed to `row` as it arrives. Returns the number of rows read.
    fn read_as_of(
        &mut self,
        query: &FlashbackQuery,
        row: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64>;
    /// Whether the database accepts `condition` (a snapshot filter, a signal's
    /// additional-conditions) as the WHERE condition of a read of `table`: parsed, its columns
    /// resolved, nothing fetched. An error here is the database's own (ORA-00904 for an
    /// unknown column, ORA-00920 and the like for syntax). A source that cannot tell says yes;
    /// the first chunk read then fails that signal, never capture.
    fn check_condition(&mut self, _table: &TableName, _condition: &str) -> Result<()> {
        Ok(())
    }
    /// `SELECT MIN(k), MAX(k)` of a single-column key, `AS OF SCN` with `scn`, of the current
    /// rows without (what planning asks: chunk bounds need no read consistency, and so no SCN
    /// taken first); `None` for an empty table.
    fn key_range(
        &mut self,
        table: &TableName,
        key_column: &str,
        scn: Option<Scn>,
    ) -> Result<Option<(Value, Value)>>;
    /// Index boundary probes: with the table's rows ordered by key from `q.lower` on, the keys of
    /// rows number `step`, `2*step`, … (0-based), at most `q.count` of them. Fewer means the
    /// rows ran out: what follows the last boundary is the final chunk.
    fn key_boundaries(&mut self, q: &BoundaryQuery) -> Result<Vec<Vec<Value>>>;
    /// The time an SCN maps to (`SCN_TO_TIMESTAMP`), as `YYYY-MM-DD HH24:MI:SS` in the database
    /// host's time (see [`Session::host_utc_offset`]); `None` when the database no longer (or
    /// not yet) maps it (ORA-08181).
    fn scn_to_time(&mut self, scn: Scn) -> Result<Option<String>>;
    /// Redo logs still available for mining (V$LOG/V$ARCHIVED_LOG), by thread and sequence.
    fn logs(&mut self) -> Result<Vec<LogFile>>;
    /// Instance parameters and redo layout for pre-flight checks (`doctor`): container,
    /// COMPATIBLE, processes/sessions use, archive destinations, redo groups, log switches.
    fn instance_config(&mut self) -> Result<InstanceConfig>;
    /// The database's character sets (NLS_DATABASE_PARAMETERS): the snapshot planner orders
    /// text keys as their BINARY order. Unknown parts are Oracle's defaults.
    fn charsets(&mut self) -> Result<charset::Charsets> {
        Ok(self.instance_config()?.charsets())
    }
    /// The character sets of `table`'s container: in a CDB a PDB may have a database character
    /// set of its own (an AL32UTF8 CDB holds PDBs of any set), and its text, XML and key order
    /// are in it. Outside a CDB, the database's.
    fn table_charsets(&mut self, table: &TableName) -> Result<charset::Charsets> {
        let _ = table;
        self.charsets()
    }
    /// `INSERT INTO <signal table> (ID, TYPE, DATA) VALUES (…)` and COMMIT: the source signal
    /// channel's one write, made only by `signal send --channel source` (never by capture,
    /// snapshots or doctor). A read-only database refuses it with ORA-16000.
    fn insert_signal(&mut self, table: &TableName, row: &SignalRow) -> Result<()>;
    /// The database host's offset from UTC in seconds (SYSTIMESTAMP's): V$LOGMNR_CONTENTS's
    /// TIMESTAMP and COMMIT_TIMESTAMP are DATEs in the host's time, whatever the session's
    /// time zone. `None`: unknown (taken as UTC).
    fn host_utc_offset(&mut self) -> Result<Option<i32>> {
        Ok(None)
    }
    /// The LogMiner dictionaries `DBMS_LOGMNR_D.BUILD` put into the redo this database holds
    /// (V$ARCHIVED_LOG.DICTIONARY_BEGIN/DICTIONARY_END), for `cdc.mining.dictionary=redo_logs`.
    fn dictionary_builds(&mut self) -> Result<Vec<DictionaryBuild>> {
        Ok(Vec::new())
    }
    /// `DBMS_LOGMNR_D.BUILD(OPTIONS => DBMS_LOGMNR_D.STORE_IN_REDO_LOGS)` on the database that
    /// generates the redo: a new LogMiner dictionary in the current online log. A source
    /// without one (a replay) refuses.
    fn build_dictionary(&mut self) -> Result<()> {
        Err(CdcError::Database(
            "this source has no redo to build a LogMiner dictionary into".into(),
        ))
    }
    /// V$THREAD: the redo threads and how far LGWR has written each. Empty where the source
    /// has no redo threads of its own to report (a replay).
    fn redo_threads(&mut self) -> Result<Vec<RedoThread>> {
        Ok(Vec::new())
    }
    /// The highest SCN a mining window may end at: LogMiner returns only redo LGWR has
    /// written, so no further than [`written_bound`] of [`Session::redo_threads`]; and a
    /// downstream mining database has only the redo shipped to it (with archived-log
    /// shipping, not the source's current log). `from`: the SCN mining goes on from; redo
    /// before it is not needed (a log a downstream never received before it holds nothing
    /// back; 0: every log counts). `None`: no limit known.
    fn mining_limit(&mut self, _from: Scn) -> Result<Option<Scn>> {
        Ok(written_bound(&self.redo_threads()?))
    }
    /// After [`Session::mining_limit`]: the SCN everything committed is known to be written
    /// through, one past that limit, where its last look found every open thread idle with
    /// no redo written at that SCN (the engine's `source::threads::IdleThreads::quiet_through`). `None`: not known,
    /// only the limit counts.
    fn quiet_through(&mut self) -> Option<Scn> {
        None
    }
    /// On a downstream mining database: mine only `source`'s redo (its DBID, its current
    /// incarnation) among the logs received there, which may hold other databases' too. Where
    /// the session mines the database's own redo, nothing to do.
    fn mine_redo_of(&mut self, source: RedoSource) -> Result<()> {
        let _ = source;
        Ok(())
    }
    /// V$LOGMNR_CONTENTS rows with `start <= SCN <= end` that `filter` keeps (the query's
    /// WHERE clause; see [`crate::filter`]), in redo order.
    fn mine(
        &mut self,
        start: Scn,
        end: Scn,
        filter: &MiningFilter,
        row: &mut dyn FnMut(LogMinerRow) -> Result<()>,
    ) -> Result<()>;
}
