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

/// The source traits in one import: a concrete session's role methods (`tables()`,
/// `read_as_of()` …) are callable where their role trait is in scope.
pub mod prelude {
    pub use super::{Admin, Catalog, Connector, Flashback, Miner, Session};
}

/// Opens sessions ("connections") to one database.
pub trait Connector: Send + Sync {
    fn connect(&self) -> Result<Box<dyn Session>>;
    /// What this connects to, for messages; never contains a password.
    fn describe(&self) -> String;
}

/// One connection. Every method is one round trip (or a short series) against the database.
/// Its methods are grouped by role ([`Catalog`], [`Flashback`], [`Miner`], [`Admin`]), so a
/// wrapper writes the roles it changes and forwards the others whole with
/// [`forward_catalog!`](crate::forward_catalog) and its siblings: a method added to a role
/// reaches every wrapper, none is left on its default by a forgotten forward.
pub trait Session: Catalog + Flashback + Miner + Admin + Send {}

impl<T: Catalog + Flashback + Miner + Admin + Send> Session for T {}

/// What a session reads of the database and its dictionary: identity, containers, grants,
/// tables, extents, instance parameters, character sets, the host's clock.
pub trait Catalog {
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
    /// The warning the database gave with this session's login, if any (ORA-28002: the
    /// password is in its grace period). A session that has none, or a source without logins,
    /// says `None`.
    fn login_warning(&mut self) -> Result<Option<LoginWarning>> {
        Ok(None)
    }
    /// The policies that change what this session's queries of `table` return (row access
    /// policies of VPD / OLS, Data Redaction policies) and whether the session's user is exempt
    /// from each kind, read where the table is. A source without such policies (a replay) says
    /// none; a view the user cannot read is `None` in its field, not an error.
    fn read_policies(&mut self, _table: &TableName) -> Result<ReadPolicies> {
        Ok(ReadPolicies::none())
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
    /// A clustered table has none of its own: see [`Catalog::cluster_extents`].
    fn extents(&mut self, table: &TableName) -> Result<Vec<Extent>>;
    /// The extents of `cluster`, the index or hash cluster `table` is stored in
    /// ([`crate::model::TableInfo::cluster`], in the table's schema and container):
    /// DBA_EXTENTS rows with SEGMENT_NAME the cluster and SEGMENT_TYPE 'CLUSTER', with the
    /// cluster's data object id, in file/block order. The blocks hold the rows of every table
    /// of the cluster; a ROWID range over them read from `table` returns that table's rows.
    fn cluster_extents(&mut self, table: &TableName, cluster: &str) -> Result<Vec<Extent>>;
    /// The data object numbers of the segments that hold `table`'s rows now: its own (each
    /// partition's), or its cluster's when `cluster` names it. A snapshot read by ROWID ranges
    /// asks before every wave whether its segments moved. By default from the extents; the
    /// Oracle adapter asks ALL_OBJECTS instead, since DBA_EXTENTS (built on the datafile
    /// headers' extent maps) can take seconds to minutes on a large database.
    fn data_object_ids(&mut self, table: &TableName, cluster: Option<&str>) -> Result<Vec<u64>> {
        let extents = match cluster {
            Some(c) => self.cluster_extents(table, c)?,
            None => self.extents(table)?,
        };
        let mut ids: Vec<u64> = extents.iter().map(|e| e.data_object_id).collect();
        ids.sort_unstable();
        ids.dedup();
        Ok(ids)
    }
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
    /// The database host's offset from UTC in seconds (SYSTIMESTAMP's): V$LOGMNR_CONTENTS's
    /// TIMESTAMP and COMMIT_TIMESTAMP are DATEs in the host's time, whatever the session's
    /// time zone. `None`: unknown (taken as UTC).
    fn host_utc_offset(&mut self) -> Result<Option<i32>> {
        Ok(None)
    }
}

/// Reads at an SCN: the current SCN, `AS OF SCN` reads, key ranges and boundaries for
/// planning chunks, and SCN times.
pub trait Flashback {
    /// `SELECT CURRENT_SCN FROM V$DATABASE`.
    fn current_scn(&mut self) -> Result<Scn>;
    /// An SCN below the current one for capture to read a snapshot wave at, in step with the
    /// change stream (before a wave read at SCN s, every change committed before s is
    /// published, so the stream must be able to mine up to s − 1), where the stream can mine
    /// only to an earlier SCN for a long time; `None`: the current SCN. On a physical standby
    /// the stream mines only the archived logs (the standby redo log being written is not
    /// given to LogMiner), so a wave read at the applied SCN waits for the primary's next log
    /// switch, each wave: hours on a quiet primary. There it is one past where the archived
    /// logs end (per thread, the lowest; the end of the newest log whatever gaps lie before
    /// it: a gap holds the stream back, and the wave waits for it as at the applied SCN):
    /// never below anything the stream has mined, since the stream mines no further than
    /// those logs. Reading that far back may meet ORA-01555 where the undo does not reach it;
    /// the chunk is then read again at the current SCN, and waits for the switch.
    fn stream_read_scn(&mut self) -> Result<Option<Scn>> {
        Ok(None)
    }
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
    /// host's time (see [`Catalog::host_utc_offset`]); `None` when the database no longer (or
    /// not yet) maps it (ORA-08181).
    fn scn_to_time(&mut self, scn: Scn) -> Result<Option<String>>;
}

/// The redo side: open transactions, logs, redo threads, LogMiner dictionaries and mining.
pub trait Miner {
    /// Transactions open now (V$TRANSACTION), oldest first.
    fn open_transactions(&mut self) -> Result<Vec<OpenTransaction>>;
    /// Redo logs still available for mining (V$LOG/V$ARCHIVED_LOG), by thread and sequence.
    fn logs(&mut self) -> Result<Vec<LogFile>>;
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
    /// written, so no further than [`written_bound`] of [`Miner::redo_threads`]; and a
    /// downstream mining database has only the redo shipped to it (with archived-log
    /// shipping, not the source's current log). `from`: the SCN mining goes on from; redo
    /// before it is not needed (a log a downstream never received before it holds nothing
    /// back; 0: every log counts). `None`: no limit known.
    fn mining_limit(&mut self, _from: Scn) -> Result<Option<Scn>> {
        Ok(written_bound(&self.redo_threads()?))
    }
    /// After [`Miner::mining_limit`]: the SCN everything committed is known to be written
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

/// The one write capture's tooling makes to the database: the source signal channel's insert.
pub trait Admin {
    /// `INSERT INTO <signal table> (ID, TYPE, DATA) VALUES (…)` and COMMIT: the source signal
    /// channel's one write, made only by `signal send --channel source` (never by capture,
    /// snapshots or doctor). A read-only database refuses it with ORA-16000.
    fn insert_signal(&mut self, table: &TableName, row: &SignalRow) -> Result<()>;
}

/// Inside `impl Catalog for W { … }`: every [`Catalog`] method forwarded to `self.FIELD`
/// (for a wrapper that changes nothing of the catalog).
#[macro_export]
macro_rules! forward_catalog {
    ($($field:tt)+) => {
        fn database(&mut self) -> $crate::errors::Result<$crate::model::DatabaseInfo> {
            self.$($field)+.database()
        }
        fn container(&mut self) -> $crate::errors::Result<Option<String>> {
            self.$($field)+.container()
        }
        fn set_container(&mut self, name: &str) -> $crate::errors::Result<()> {
            self.$($field)+.set_container(name)
        }
        fn privileges(&mut self) -> $crate::errors::Result<$crate::model::Privileges> {
            self.$($field)+.privileges()
        }
        fn pdb_supplemental_logging(
            &mut self,
        ) -> $crate::errors::Result<Option<$crate::model::PdbSupplementalLogging>> {
            self.$($field)+.pdb_supplemental_logging()
        }
        fn login_warning(
            &mut self,
        ) -> $crate::errors::Result<Option<$crate::model::LoginWarning>> {
            self.$($field)+.login_warning()
        }
        fn read_policies(
            &mut self,
            table: &$crate::names::TableName,
        ) -> $crate::errors::Result<$crate::model::ReadPolicies> {
            self.$($field)+.read_policies(table)
        }
        fn tables(&mut self) -> $crate::errors::Result<Vec<$crate::model::TableInfo>> {
            self.$($field)+.tables()
        }
        fn table_columns(
            &mut self,
            table: &$crate::names::TableName,
        ) -> $crate::errors::Result<Option<Vec<$crate::model::ColumnInfo>>> {
            self.$($field)+.table_columns(table)
        }
        fn extents(
            &mut self,
            table: &$crate::names::TableName,
        ) -> $crate::errors::Result<Vec<$crate::model::Extent>> {
            self.$($field)+.extents(table)
        }
        fn cluster_extents(
            &mut self,
            table: &$crate::names::TableName,
            cluster: &str,
        ) -> $crate::errors::Result<Vec<$crate::model::Extent>> {
            self.$($field)+.cluster_extents(table, cluster)
        }
        fn data_object_ids(
            &mut self,
            table: &$crate::names::TableName,
            cluster: Option<&str>,
        ) -> $crate::errors::Result<Vec<u64>> {
            self.$($field)+.data_object_ids(table, cluster)
        }
        fn instance_config(&mut self) -> $crate::errors::Result<$crate::model::InstanceConfig> {
            self.$($field)+.instance_config()
        }
        fn charsets(&mut self) -> $crate::errors::Result<$crate::charset::Charsets> {
            self.$($field)+.charsets()
        }
        fn table_charsets(
            &mut self,
            table: &$crate::names::TableName,
        ) -> $crate::errors::Result<$crate::charset::Charsets> {
            self.$($field)+.table_charsets(table)
        }
        fn host_utc_offset(&mut self) -> $crate::errors::Result<Option<i32>> {
            self.$($field)+.host_utc_offset()
        }
    };
}

/// Inside `impl Flashback for W { … }`: every [`Flashback`] method forwarded to `self.FIELD`,
/// but [`Flashback::stream_read_scn`], which stays the current SCN unless the wrapper forwards
/// it too: a wrapper whose stream is mined elsewhere (a downstream database) must not take the
/// source's bound.
#[macro_export]
macro_rules! forward_flashback {
    ($($field:tt)+) => {
        fn current_scn(&mut self) -> $crate::errors::Result<$crate::model::Scn> {
            self.$($field)+.current_scn()
        }
        fn read_as_of(
            &mut self,
            query: &$crate::model::FlashbackQuery,
            row: &mut dyn FnMut($crate::model::FetchedRow) -> $crate::errors::Result<()>,
        ) -> $crate::errors::Result<u64> {
            self.$($field)+.read_as_of(query, row)
        }
        fn check_condition(
            &mut self,
            table: &$crate::names::TableName,
            condition: &str,
        ) -> $crate::errors::Result<()> {
            self.$($field)+.check_condition(table, condition)
        }
        fn key_range(
            &mut self,
            table: &$crate::names::TableName,
            key_column: &str,
            scn: Option<$crate::model::Scn>,
        ) -> $crate::errors::Result<Option<($crate::types::Value, $crate::types::Value)>> {
            self.$($field)+.key_range(table, key_column, scn)
        }
        fn key_boundaries(
            &mut self,
            q: &$crate::model::BoundaryQuery,
        ) -> $crate::errors::Result<Vec<Vec<$crate::types::Value>>> {
            self.$($field)+.key_boundaries(q)
        }
        fn scn_to_time(
            &mut self,
            scn: $crate::model::Scn,
        ) -> $crate::errors::Result<Option<String>> {
            self.$($field)+.scn_to_time(scn)
        }
    };
}

/// Inside `impl Miner for W { … }`: every [`Miner`] method forwarded to `self.FIELD`.
#[macro_export]
macro_rules! forward_miner {
    ($($field:tt)+) => {
        fn open_transactions(
            &mut self,
        ) -> $crate::errors::Result<Vec<$crate::model::OpenTransaction>> {
            self.$($field)+.open_transactions()
        }
        fn logs(&mut self) -> $crate::errors::Result<Vec<$crate::model::LogFile>> {
            self.$($field)+.logs()
        }
        fn dictionary_builds(
            &mut self,
        ) -> $crate::errors::Result<Vec<$crate::model::DictionaryBuild>> {
            self.$($field)+.dictionary_builds()
        }
        fn build_dictionary(&mut self) -> $crate::errors::Result<()> {
            self.$($field)+.build_dictionary()
        }
        fn redo_threads(&mut self) -> $crate::errors::Result<Vec<$crate::model::RedoThread>> {
            self.$($field)+.redo_threads()
        }
        fn mining_limit(
            &mut self,
            from: $crate::model::Scn,
        ) -> $crate::errors::Result<Option<$crate::model::Scn>> {
            self.$($field)+.mining_limit(from)
        }
        fn quiet_through(&mut self) -> Option<$crate::model::Scn> {
            self.$($field)+.quiet_through()
        }
        fn mine_redo_of(&mut self, source: $crate::model::RedoSource) -> $crate::errors::Result<()> {
            self.$($field)+.mine_redo_of(source)
        }
        fn mine(
            &mut self,
            start: $crate::model::Scn,
            end: $crate::model::Scn,
            filter: &$crate::filter::MiningFilter,
            row: &mut dyn FnMut($crate::model::LogMinerRow) -> $crate::errors::Result<()>,
        ) -> $crate::errors::Result<()> {
            self.$($field)+.mine(start, end, filter, row)
        }
    };
}

/// Inside `impl Admin for W { … }`: every [`Admin`] method forwarded to `self.FIELD`.
#[macro_export]
macro_rules! forward_admin {
    ($($field:tt)+) => {
        fn insert_signal(
            &mut self,
            table: &$crate::names::TableName,
            row: &$crate::model::SignalRow,
        ) -> $crate::errors::Result<()> {
            self.$($field)+.insert_signal(table, row)
        }
    };
}
