//! The replay source (`cdc.database.url: replay:DIR`): a CSV export of V$LOGMNR_CONTENTS
//! (`DIR/logmnr.csv`, see [`csv`]) and the tables it touches (`DIR/schema.yaml`, the emulator's
//! schema format; its `rows` are ignored), served through the same [`Session`] as a database,
//! so capture runs the same buffer, decoder and records over a production export.
//!
//! A replay holds no table data: snapshot reads fail with CDC-2008 (`cdc.snapshot.mode=none`).
//! Its one "archived log" spans the export; `current_scn()` is the export's last SCN.

pub mod csv;

use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::source::emulator::schema::{self, SchemaFile, TableDef};
use crate::types::Value;
use cdc_core::model::*;
use cdc_core::session::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const EXPORT_FILE: &str = "logmnr.csv";
pub const SCHEMA_FILE: &str = "schema.yaml";
struct Loaded {
    dir: PathBuf,
    export: csv::Export,
    schema: SchemaFile,
    defs: Vec<TableDef>,
    first_scn: Scn,
    last_scn: Scn,
}

/// Opens sessions on a replay directory (read once, shared by every session).
#[derive(Clone)]
pub struct ReplayConnector {
    loaded: Arc<Loaded>,
}

impl ReplayConnector {
    pub fn open(dir: &Path) -> Result<Self> {
        if !dir.is_dir() {
            return Err(CdcError::io(
                dir,
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    format!(
                        "no such directory (a replay directory holds {EXPORT_FILE} and {SCHEMA_FILE})"
                    ),
                ),
            ));
        }
        let schema_path = dir.join(SCHEMA_FILE);
        if !schema_path.is_file() {
            return Err(CdcError::io(
                &schema_path,
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "missing: a replay needs the tables' definitions in the emulator schema format (examples/emulator-schema.yaml)",
                ),
            ));
        }
        let schema = SchemaFile::read(&schema_path)?;
        let defs = schema.tables(&schema_path)?;
        let export = csv::read(&dir.join(EXPORT_FILE))?;
        let Some((first_scn, last_scn)) = csv::scn_span(&export.rows) else {
            return Err(CdcError::ReplayFormat {
                path: export.path.clone(),
                line: 1,
                column: "-".into(),
                message: "the export has a header but no rows".into(),
            });
        };
        Ok(ReplayConnector {
            loaded: Arc::new(Loaded {
                dir: dir.to_path_buf(),
                export,
                schema,
                defs,
                first_scn,
                last_scn,
            }),
        })
    }

    pub fn replay_session(&self) -> ReplaySession {
        ReplaySession {
            loaded: self.loaded.clone(),
        }
    }
}

impl Connector for ReplayConnector {
    fn connect(&self) -> Result<Box<dyn Session>> {
        Ok(Box::new(self.replay_session()))
    }

    fn describe(&self) -> String {
        crate::settings::DatabaseUrl::Replay {
            dir: self.loaded.dir.clone(),
        }
        .to_string()
    }
}

/// One "connection" to a replay.
pub struct ReplaySession {
    loaded: Arc<Loaded>,
}

impl ReplaySession {
    fn no_data(&self, operation: &str) -> CdcError {
        CdcError::ReplayHasNoData {
            source_dir: self.loaded.dir.clone(),
            operation: operation.to_string(),
        }
    }

    fn table_info(&self, d: &TableDef) -> TableInfo {
        // DATA_OBJ# of the table's rows in the export, where it has any.
        let data_object_id = self
            .loaded
            .export
            .rows
            .iter()
            .find(|r| {
                r.data_obj != 0
                    && r.table_name.as_deref() == Some(d.name.table.as_str())
                    && r.seg_owner.as_deref() == Some(d.name.owner.as_str())
            })
            .map_or(0, |r| r.data_obj);
        let (primary_key, unique_keys) = d.constraints();
        TableInfo {
            name: d.name.clone(),
            columns: d.columns.clone(),
            primary_key,
            unique_keys,
            unique_indexes: d.indexes(),
            organization: d.organization,
            cluster: d.cluster.clone(),
            row_movement: d.row_movement,
            data_object_id,
            // DATA_OBJ# is the object number (OBJECT_ID); a replay has no other.
            object_id: data_object_id,
            partitions: d
                .partitions
                .iter()
                .flat_map(|p| p.list.iter())
                .map(|p| PartitionInfo {
                    name: p.name.clone(),
                    data_object_id: 0,
                    object_id: 0,
                })
                .collect(),
            stats: TableStats::default(),
            supplemental_all_columns: d.logging == schema::TableLogging::All,
        }
    }
}

impl Catalog for ReplaySession {
    fn database(&mut self) -> Result<DatabaseInfo> {
        let d = &self.loaded.schema.database;
        let pdbs: BTreeSet<String> = self
            .loaded
            .defs
            .iter()
            .filter_map(|t| t.name.pdb.clone())
            .collect();
        Ok(DatabaseInfo {
            dbid: d.dbid,
            name: d.name.clone(),
            version: d.version.clone(),
            edition: d.edition.clone(),
            cdb: d.multitenant,
            pdbs: pdbs.into_iter().collect(),
            restricted_pdbs: Vec::new(),
            resetlogs_scn: d.start_scn,
            role: d.role.into(),
            open_mode: d.open_mode.into(),
            archivelog: d.archivelog,
            force_logging: d.force_logging,
            supplemental_min: d.supplemental_logging.minimal(),
            supplemental_all: d.supplemental_logging.all,
            undo_retention_secs: d.undo_retention,
            undo_guarantee: d.undo_guarantee,
        })
    }

    fn privileges(&mut self) -> Result<Privileges> {
        Ok(self.loaded.schema.database.granted())
    }

    fn tables(&mut self) -> Result<Vec<TableInfo>> {
        Ok(self
            .loaded
            .defs
            .iter()
            .map(|d| self.table_info(d))
            .collect())
    }

    fn extents(&mut self, _table: &TableName) -> Result<Vec<Extent>> {
        Err(self.no_data("list extents (DBA_EXTENTS)"))
    }

    fn cluster_extents(&mut self, _table: &TableName, _cluster: &str) -> Result<Vec<Extent>> {
        Err(self.no_data("list extents (DBA_EXTENTS)"))
    }

    /// The exporting database host's, as `database.host_utc_offset` of the replay's
    /// `schema.yaml` gives it (default `+00:00`): the export's TIMESTAMP columns are its clock.
    fn host_utc_offset(&mut self) -> Result<Option<i32>> {
        Ok(Some(self.loaded.schema.database.date_clock_offset_secs()))
    }

    /// The sets the exported schema gives the table's PDB (a replay has no containers to enter).
    fn table_charsets(&mut self, table: &TableName) -> Result<crate::charset::Charsets> {
        Ok(self
            .loaded
            .schema
            .database
            .charsets_in(table.pdb.as_deref()))
    }

    fn instance_config(&mut self) -> Result<InstanceConfig> {
        let d = &self.loaded.schema.database;
        Ok(InstanceConfig {
            container: d.multitenant.then(|| "CDB$ROOT".to_string()),
            compatible: Some(d.compatible.clone()),
            goldengate_replication: Some(d.goldengate_replication),
            max_string_size: Some(d.max_string_size.parameter().into()),
            character_set: Some(d.character_set.name().into()),
            national_character_set: Some(d.national_character_set.name().into()),
            ..InstanceConfig::default()
        })
    }
}

impl Flashback for ReplaySession {
    fn current_scn(&mut self) -> Result<Scn> {
        Ok(self.loaded.last_scn)
    }

    fn read_as_of(
        &mut self,
        query: &FlashbackQuery,
        _row: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        Err(self.no_data(&format!("read {} AS OF SCN {}", query.table, query.scn)))
    }

    fn key_range(
        &mut self,
        table: &TableName,
        _key_column: &str,
        _scn: Option<Scn>,
    ) -> Result<Option<(Value, Value)>> {
        Err(self.no_data(&format!("read the key range of {table}")))
    }

    fn key_boundaries(&mut self, q: &BoundaryQuery) -> Result<Vec<Vec<Value>>> {
        Err(self.no_data(&format!("probe the key boundaries of {}", q.table)))
    }

    fn scn_to_time(&mut self, scn: Scn) -> Result<Option<String>> {
        let l = &self.loaded;
        if scn < l.first_scn || scn > l.last_scn {
            return Ok(None);
        }
        Ok(l.export
            .rows
            .iter()
            .filter(|r| r.scn <= scn && !r.timestamp.is_empty())
            .max_by_key(|r| r.scn)
            .map(|r| r.timestamp.clone()))
    }
}

impl Miner for ReplaySession {
    fn open_transactions(&mut self) -> Result<Vec<OpenTransaction>> {
        // Transactions whose START is in the export and that end in it: neither COMMIT nor
        // ROLLBACK. Keyed by undo segment and slot, as a later partial XID would be.
        let mut open: BTreeMap<String, OpenTransaction> = BTreeMap::new();
        for r in &self.loaded.export.rows {
            let key = r.xid.to_ascii_lowercase();
            let key = key.get(..8).unwrap_or(&key).to_string();
            match r.operation_code {
                op::START => {
                    open.insert(
                        key,
                        OpenTransaction {
                            xid: r.xid.to_ascii_lowercase(),
                            start_scn: r.scn,
                            thread: r.thread,
                        },
                    );
                }
                op::COMMIT | op::ROLLBACK => {
                    open.remove(&key);
                }
                _ => {}
            }
        }
        let mut out: Vec<OpenTransaction> = open.into_values().collect();
        out.sort_by_key(|t| t.start_scn);
        Ok(out)
    }

    fn logs(&mut self) -> Result<Vec<LogFile>> {
        let l = &self.loaded;
        let first = l.export.rows.iter().find(|r| r.scn == l.first_scn);
        Ok(vec![LogFile {
            name: l.export.path.display().to_string(),
            thread: first.map_or(1, |r| r.thread),
            sequence: first.map_or(1, |r| r.sequence),
            first_scn: l.first_scn,
            next_scn: Some(l.last_scn.saturating_add(1)),
            archived: true,
            dbid: None,
            ..LogFile::default()
        }])
    }

    /// The exported rows in the window, unfiltered: the export is what a query returned
    /// back then, and its columns (SRC_CON_NAME, INFO) may be blank where the exporting
    /// query did not select them, so a filter could drop rows the export means.
    fn mine(
        &mut self,
        start: Scn,
        end: Scn,
        _filter: &cdc_core::filter::MiningFilter,
        row: &mut dyn FnMut(LogMinerRow) -> Result<()>,
    ) -> Result<()> {
        if end < start {
            return Err(CdcError::InvalidScnRange { start, end });
        }
        for r in self
            .loaded
            .export
            .rows
            .iter()
            .filter(|r| r.scn >= start && r.scn <= end)
        {
            row(r.clone())?;
        }
        Ok(())
    }
}

impl Admin for ReplaySession {
    fn insert_signal(&mut self, _table: &TableName, _row: &SignalRow) -> Result<()> {
        Err(self.no_data("insert a signal row (a replay is an export, not a database)"))
    }
}

#[cfg(test)]
mod tests;
