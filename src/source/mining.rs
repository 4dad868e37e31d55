//! Downstream capture: mining on one database, everything else on another.
//!
//! With `cdc.mining.database.url` set, a [`DownstreamConnector`] opens sessions whose log list
//! and LogMiner calls (`logs`, `mine`, `mining_limit`) go to the mining (downstream) database,
//! while SCNs, the catalog, open transactions and snapshot reads go to the source
//! (`cdc.database.url`, the primary or its standby). The mining connection is opened on first
//! use, and then refused unless its redo is the source's (same DBID: CDC-2202).

use super::model::*;
use super::{Connector, Session};
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use std::sync::Arc;

pub struct DownstreamConnector {
    source: Box<dyn Connector>,
    mining: Arc<dyn Connector>,
}

impl DownstreamConnector {
    pub fn new(source: Box<dyn Connector>, mining: Box<dyn Connector>) -> Self {
        DownstreamConnector {
            source,
            mining: Arc::from(mining),
        }
    }

    /// The mining database, for `doctor`.
    pub fn mining(&self) -> &dyn Connector {
        &*self.mining
    }
}

impl Connector for DownstreamConnector {
    fn connect(&self) -> Result<Box<dyn Session>> {
        Ok(Box::new(DownstreamSession {
            source: self.source.connect()?,
            source_name: self.source.describe(),
            mining_connector: self.mining.clone(),
            mining: None,
        }))
    }

    fn describe(&self) -> String {
        format!(
            "{} (mining on {})",
            self.source.describe(),
            self.mining.describe()
        )
    }
}

/// The DBIDs of the redo a mining database holds that are not `source_dbid`. A log whose
/// DBID the database does not report (`None`) is not judged.
pub fn foreign_dbids(logs: &[LogFile], source_dbid: u64) -> Vec<u64> {
    let mut out: Vec<u64> = logs
        .iter()
        .filter_map(|l| l.dbid)
        .filter(|d| *d != source_dbid)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

struct DownstreamSession {
    source: Box<dyn Session>,
    source_name: String,
    mining_connector: Arc<dyn Connector>,
    mining: Option<Box<dyn Session>>,
}

impl DownstreamSession {
    /// The mining session, connected (and checked to hold the source's redo) on first use.
    fn mining(&mut self) -> Result<&mut Box<dyn Session>> {
        if self.mining.is_none() {
            let mut m = self.mining_connector.connect()?;
            let source_dbid = self.source.database()?.dbid;
            let logs = m.logs()?;
            if let Some(other) = foreign_dbids(&logs, source_dbid).first() {
                return Err(CdcError::MiningOtherDatabase {
                    mining: self.mining_connector.describe(),
                    mining_dbid: *other,
                    source_url: self.source_name.clone(),
                    source_dbid,
                });
            }
            self.mining = Some(m);
        }
        match self.mining.as_mut() {
            Some(m) => Ok(m),
            None => Err(CdcError::Database("mining session not connected".into())),
        }
    }

    /// A lost mining connection is opened again on next use.
    fn on_mining<T>(&mut self, f: impl FnOnce(&mut dyn Session) -> Result<T>) -> Result<T> {
        let describe = self.mining_connector.describe();
        let m = self.mining()?;
        let out = f(&mut **m);
        match out {
            Err(CdcError::ConnectionLost(e)) => {
                self.mining = None;
                Err(CdcError::ConnectionLost(e))
            }
            // ORA-01291 on the mining database: it lacks a log the window needs.
            Err(CdcError::MissingLogFile { scn, oldest }) => Err(CdcError::MiningLogMissing {
                mining: describe,
                scn,
                sequence: None,
                oldest: Some(oldest),
            }),
            other => other,
        }
    }
}

impl Session for DownstreamSession {
    fn database(&mut self) -> Result<DatabaseInfo> {
        self.source.database()
    }
    fn container(&mut self) -> Result<Option<String>> {
        self.source.container()
    }
    fn set_container(&mut self, name: &str) -> Result<()> {
        self.source.set_container(name)
    }
    fn privileges(&mut self) -> Result<Privileges> {
        self.source.privileges()
    }
    fn tables(&mut self) -> Result<Vec<TableInfo>> {
        self.source.tables()
    }
    fn extents(&mut self, table: &TableName) -> Result<Vec<Extent>> {
        self.source.extents(table)
    }
    fn table_columns(&mut self, table: &TableName) -> Result<Option<Vec<ColumnInfo>>> {
        self.source.table_columns(table)
    }
    fn current_scn(&mut self) -> Result<Scn> {
        self.source.current_scn()
    }
    fn open_transactions(&mut self) -> Result<Vec<OpenTransaction>> {
        self.source.open_transactions()
    }
    fn read_as_of(
        &mut self,
        query: &FlashbackQuery,
        row: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        self.source.read_as_of(query, row)
    }
    fn check_condition(&mut self, table: &TableName, condition: &str) -> Result<()> {
        self.source.check_condition(table, condition)
    }
    fn key_range(
        &mut self,
        table: &TableName,
        key_column: &str,
        scn: Option<Scn>,
    ) -> Result<Option<(crate::types::Value, crate::types::Value)>> {
        self.source.key_range(table, key_column, scn)
    }
    fn key_boundaries(&mut self, q: &BoundaryQuery) -> Result<Vec<Vec<crate::types::Value>>> {
        self.source.key_boundaries(q)
    }
    fn scn_to_time(&mut self, scn: Scn) -> Result<Option<String>> {
        self.source.scn_to_time(scn)
    }
    fn logs(&mut self) -> Result<Vec<LogFile>> {
        self.on_mining(|m| m.logs())
    }
    fn instance_config(&mut self) -> Result<InstanceConfig> {
        self.source.instance_config()
    }
    fn charsets(&mut self) -> Result<crate::charset::Charsets> {
        self.source.charsets()
    }
    fn table_charsets(&mut self, table: &TableName) -> Result<crate::charset::Charsets> {
        self.source.table_charsets(table)
    }
    fn insert_signal(&mut self, table: &TableName, row: &SignalRow) -> Result<()> {
        self.source.insert_signal(table, row)
    }
    fn redo_threads(&mut self) -> Result<Vec<RedoThread>> {
        self.source.redo_threads()
    }
    fn dictionary_builds(&mut self) -> Result<Vec<DictionaryBuild>> {
        self.on_mining(|m| m.dictionary_builds())
    }
    /// On the source: the redo (and so the build) is generated there and shipped.
    fn build_dictionary(&mut self) -> Result<()> {
        self.source.build_dictionary()
    }
    /// The source host's: the redo (and so LogMiner's TIMESTAMP columns) carries its clock.
    fn host_utc_offset(&mut self) -> Result<Option<i32>> {
        self.source.host_utc_offset()
    }
    /// Both limits: the redo shipped to the mining database, and what the source's LGWR has
    /// written (real-time shipping sends only written redo, and the source's V$THREAD says how
    /// far that is).
    fn mining_limit(&mut self) -> Result<Option<Scn>> {
        let shipped = self.on_mining(|m| m.mining_limit())?;
        let written = self.source.mining_limit()?;
        Ok(match (shipped, written) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        })
    }
    fn mine(
        &mut self,
        start: Scn,
        end: Scn,
        filter: &crate::source::MiningFilter,
        row: &mut dyn FnMut(LogMinerRow) -> Result<()>,
    ) -> Result<()> {
        self.on_mining(|m| m.mine(start, end, filter, row))
    }
}
