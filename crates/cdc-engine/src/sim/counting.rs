//! A connector that counts the database faults its sessions saw (dropped connections, failed
//! connects, ORA-01555), for the simulation's summary. Everything else passes through.

use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::types::Value;
use cdc_core::model::*;
use cdc_core::session::prelude::*;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

pub type Counts = Arc<Mutex<BTreeMap<String, u64>>>;

fn note<T>(counts: &Counts, r: Result<T>) -> Result<T> {
    let kind = match &r {
        Err(CdcError::ConnectionLost(_)) => "connection lost",
        Err(CdcError::SnapshotTooOld { .. }) => "ORA-01555 on a read",
        Err(CdcError::LobSnapshotTooOld { .. }) => "ORA-22924 on a read",
        _ => return r,
    };
    if let Ok(mut c) = counts.lock() {
        *c.entry(kind.to_string()).or_default() += 1;
    }
    r
}

pub struct Counting<C> {
    pub inner: C,
    pub counts: Counts,
}

impl<C: Connector> Connector for Counting<C> {
    fn connect(&self) -> Result<Box<dyn Session>> {
        let inner = note(&self.counts, self.inner.connect())?;
        Ok(Box::new(CountingSession {
            inner,
            counts: self.counts.clone(),
        }))
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }
}

struct CountingSession {
    inner: Box<dyn Session>,
    counts: Counts,
}

impl Catalog for CountingSession {
    fn database(&mut self) -> Result<DatabaseInfo> {
        note(&self.counts, self.inner.database())
    }

    fn container(&mut self) -> Result<Option<String>> {
        note(&self.counts, self.inner.container())
    }

    fn set_container(&mut self, name: &str) -> Result<()> {
        note(&self.counts, self.inner.set_container(name))
    }

    fn privileges(&mut self) -> Result<Privileges> {
        note(&self.counts, self.inner.privileges())
    }

    fn login_warning(&mut self) -> Result<Option<LoginWarning>> {
        note(&self.counts, self.inner.login_warning())
    }

    fn tables(&mut self) -> Result<Vec<TableInfo>> {
        note(&self.counts, self.inner.tables())
    }

    fn read_policies(&mut self, table: &TableName) -> Result<ReadPolicies> {
        note(&self.counts, self.inner.read_policies(table))
    }

    fn extents(&mut self, table: &TableName) -> Result<Vec<Extent>> {
        note(&self.counts, self.inner.extents(table))
    }

    fn cluster_extents(&mut self, table: &TableName, cluster: &str) -> Result<Vec<Extent>> {
        note(&self.counts, self.inner.cluster_extents(table, cluster))
    }

    fn data_object_ids(&mut self, table: &TableName, cluster: Option<&str>) -> Result<Vec<u64>> {
        note(&self.counts, self.inner.data_object_ids(table, cluster))
    }

    fn table_columns(&mut self, table: &TableName) -> Result<Option<Vec<ColumnInfo>>> {
        note(&self.counts, self.inner.table_columns(table))
    }

    fn instance_config(&mut self) -> Result<InstanceConfig> {
        note(&self.counts, self.inner.instance_config())
    }

    fn host_utc_offset(&mut self) -> Result<Option<i32>> {
        self.inner.host_utc_offset()
    }

    // Forwarded too (a wrapper left them on their defaults: a PDB's own character set read
    // as the CDB's, a dictionary build refused, a PDB's supplemental logging unseen).
    fn pdb_supplemental_logging(&mut self) -> Result<Option<PdbSupplementalLogging>> {
        note(&self.counts, self.inner.pdb_supplemental_logging())
    }

    fn charsets(&mut self) -> Result<crate::charset::Charsets> {
        note(&self.counts, self.inner.charsets())
    }

    fn table_charsets(&mut self, table: &TableName) -> Result<crate::charset::Charsets> {
        note(&self.counts, self.inner.table_charsets(table))
    }
}

impl Flashback for CountingSession {
    fn current_scn(&mut self) -> Result<Scn> {
        note(&self.counts, self.inner.current_scn())
    }

    fn stream_read_scn(&mut self) -> Result<Option<Scn>> {
        note(&self.counts, self.inner.stream_read_scn())
    }

    fn read_as_of(
        &mut self,
        query: &FlashbackQuery,
        row: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        note(&self.counts, self.inner.read_as_of(query, row))
    }

    fn check_condition(&mut self, table: &TableName, condition: &str) -> Result<()> {
        note(&self.counts, self.inner.check_condition(table, condition))
    }

    fn key_range(
        &mut self,
        table: &TableName,
        key_column: &str,
        scn: Option<Scn>,
    ) -> Result<Option<(Value, Value)>> {
        note(&self.counts, self.inner.key_range(table, key_column, scn))
    }

    fn key_boundaries(&mut self, q: &BoundaryQuery) -> Result<Vec<Vec<Value>>> {
        note(&self.counts, self.inner.key_boundaries(q))
    }

    fn scn_to_time(&mut self, scn: Scn) -> Result<Option<String>> {
        note(&self.counts, self.inner.scn_to_time(scn))
    }
}

impl Miner for CountingSession {
    fn open_transactions(&mut self) -> Result<Vec<OpenTransaction>> {
        note(&self.counts, self.inner.open_transactions())
    }

    fn logs(&mut self) -> Result<Vec<LogFile>> {
        note(&self.counts, self.inner.logs())
    }

    fn redo_threads(&mut self) -> Result<Vec<RedoThread>> {
        self.inner.redo_threads()
    }

    fn dictionary_builds(&mut self) -> Result<Vec<DictionaryBuild>> {
        self.inner.dictionary_builds()
    }

    fn build_dictionary(&mut self) -> Result<()> {
        note(&self.counts, self.inner.build_dictionary())
    }

    fn mine_redo_of(&mut self, source: cdc_core::model::RedoSource) -> Result<()> {
        self.inner.mine_redo_of(source)
    }

    fn mining_limit(&mut self, from: Scn) -> Result<Option<Scn>> {
        self.inner.mining_limit(from)
    }

    fn quiet_through(&mut self) -> Option<Scn> {
        self.inner.quiet_through()
    }

    fn mine(
        &mut self,
        start: Scn,
        end: Scn,
        filter: &cdc_core::filter::MiningFilter,
        row: &mut dyn FnMut(LogMinerRow) -> Result<()>,
    ) -> Result<()> {
        note(&self.counts, self.inner.mine(start, end, filter, row))
    }
}

impl Admin for CountingSession {
    fn insert_signal(
        &mut self,
        table: &crate::names::TableName,
        row: &cdc_core::model::SignalRow,
    ) -> Result<()> {
        note(&self.counts, self.inner.insert_signal(table, row))
    }
}
