//! The replica every process builds from the redo: committed data as versions by commit SCN
//! (what `AS OF SCN` reads), open transactions, schema history, extents, logs. Rows are in
//! memory, or, for a replica opened from a checkpoint, in its file with the changes since in
//! memory on top (`store_disk.rs` reads them).

use super::key_index::KeyIndex;
use super::redo::{DdlChange, Redo, Xid};
use super::redo_index::RedoIndex;
use super::schema::{SchemaFile, StatsSpec, TableDef};
use crate::errors::{CdcError, Result};
use crate::types::{compare_keys_in, ColumnType, KeyOrder, Value};
use cdc_core::model::*;
use cdc_core::rowid::RowId;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;

#[path = "store_bulk.rs"]
mod bulk;
#[path = "store_disk.rs"]
mod disk;
#[path = "store_flashback.rs"]
mod flashback;
#[path = "store_records.rs"]
mod records;
#[path = "store_undo.rs"]
mod undo;

/// A committed version of a row: its values from `scn` on, or deleted (`None`).
#[derive(Debug, Clone)]
pub struct Version {
    pub scn: Scn,
    pub row: Option<Arc<[Value]>>,
}

#[derive(Debug, Clone)]
pub struct TableState {
    pub def: TableDef,
    /// Columns now (after DDL).
    pub columns: Vec<ColumnInfo>,
    /// Column layouts by the SCN they took effect at, oldest first.
    pub history: Vec<(Scn, Vec<ColumnInfo>)>,
    pub last_ddl_scn: Scn,
    /// The newest commit that changed the table.
    pub last_change_scn: Scn,
    pub rows: BTreeMap<RowId, Vec<Version>>,
    /// `rows` ordered by primary key (none without one); kept in step with `rows`.
    pub key_index: Option<KeyIndex>,
    /// Extents with the partition index they belong to.
    pub extents: Vec<(Option<u32>, Extent)>,
    pub data_object_id: u32,
    /// Data object id of each partition (index as in the schema's list).
    pub partition_objects: Vec<u32>,
    /// DBA_OBJECTS.OBJECT_ID of the table and of each partition: fixed when it is made, while
    /// a TRUNCATE gives a segment a new data object id (0 / empty: the same numbers as
    /// `data_object_id` / `partition_objects`, as for every table before its first TRUNCATE).
    pub object_id: u32,
    pub partition_ids: Vec<u32>,
    /// (data object id, object id) of each segment a TRUNCATE replaced: the ROWIDs of rows
    /// written before it still name the old one.
    pub former_segments: Vec<(u32, u32)>,
    /// (num_rows, blocks) at the last statistics gathering, and changes since.
    pub stats: Option<(u64, u64)>,
    pub changes_since_stats: u64,
    pub live_rows: u64,
    /// (commit SCN, commit time) of the commits that changed the table, oldest first; the
    /// ones older than the undo retention are cut down to the newest of them.
    pub change_commits: Vec<(Scn, i64)>,
    /// The highest row serial the redo has used: one per insert, and every key value made
    /// from a serial (see [`super::key_gen`]), so a writer opened later never repeats a key.
    pub serial_high: u64,
    /// CREATE TABLE's schema entry, for a table made after `emulator init` (a checkpoint
    /// rebuilds its definition from it).
    pub created_spec: Option<serde_json::Value>,
}

/// Changes a replica keeps waiting for its rows before it reads them (see
/// [`Replica::pending_changes`]).
pub const PENDING_LIMIT: usize = if cfg!(test) { 16 } else { 1_000_000 };

/// A table's rows: every retained version by ROWID.
pub type Rows = BTreeMap<RowId, Vec<Version>>;

/// Rows still in a checkpoint file. Changes committed after the checkpoint are in the tables'
/// `rows` (and `key_index`) meanwhile, on top of the file's: reads merge the two
/// ([`Replica::load_rows`] does so for good).
#[derive(Debug)]
struct Unloaded {
    disk: super::checkpoint::RowsOnDisk,
    /// Changes committed since the checkpoint.
    pending: usize,
    /// Columns added (`None`) and dropped (`Some(i)`) since, per table: applied to the file's
    /// rows as they are read.
    reshapes: Vec<Vec<Option<usize>>>,
    /// Each table's row directory, read on first use.
    dirs: Vec<std::sync::OnceLock<Vec<super::rowfile::DirEntry>>>,
}

/// Positions of a table's primary key columns now (`None` without a primary key, or when a key
/// column was dropped).
pub fn key_positions(t: &TableState) -> Option<Vec<usize>> {
    if t.def.primary_key.is_empty() {
        return None;
    }
    t.def
        .primary_key
        .iter()
        .map(|k| t.columns.iter().position(|c| &c.name == k))
        .collect()
}

impl TableState {
    /// How a key of the columns at `positions` orders: text by its character set's bytes.
    pub fn key_order_at(&self, positions: &[usize]) -> KeyOrder {
        let other = ColumnType::Date;
        KeyOrder::new(
            self.def.charsets,
            positions
                .iter()
                .map(|&i| self.columns.get(i).map_or(&other, |c| &c.data_type)),
        )
    }

    /// How the primary key orders.
    pub fn pk_order(&self) -> KeyOrder {
        key_positions(self).map_or_else(KeyOrder::default, |p| self.key_order_at(&p))
    }

    /// A new table without rows.
    pub fn empty(def: TableDef, created_spec: Option<serde_json::Value>) -> TableState {
        TableState {
            columns: def.columns.clone(),
            history: Vec::new(),
            last_ddl_scn: 0,
            last_change_scn: 0,
            rows: BTreeMap::new(),
            key_index: KeyIndex::for_table(
                &def.primary_key,
                &def.columns,
                &BTreeMap::new(),
                def.charsets,
            ),
            extents: Vec::new(),
            data_object_id: 0,
            partition_objects: Vec::new(),
            object_id: 0,
            partition_ids: Vec::new(),
            former_segments: Vec::new(),
            stats: None,
            changes_since_stats: 0,
            live_rows: 0,
            change_commits: Vec::new(),
            serial_high: 0,
            created_spec,
            def,
        }
    }

    /// Add (`None`) or drop (`Some(i)`) a column in every version.
    fn reshape_rows(&mut self, drop: Option<usize>) {
        for versions in self.rows.values_mut() {
            reshape_versions(versions, drop);
        }
    }

    /// Count a written row image (`insert`: a new row) toward [`TableState::serial_high`].
    fn note_serial(&mut self, row: &[Value], insert: bool) {
        let mut high = self.serial_high + u64::from(insert);
        let keys = self
            .def
            .primary_key
            .iter()
            .chain(self.def.unique_keys.iter().flatten())
            .chain(self.def.unique_indexes.iter().flatten());
        for k in keys {
            if let Some(i) = self.columns.iter().position(|c| &c.name == k) {
                if let Some(s) = row
                    .get(i)
                    .and_then(|v| super::key_gen::serial_of(&self.columns[i].data_type, v))
                {
                    high = high.max(s);
                }
            }
        }
        self.serial_high = high;
    }

    /// The column layout in force at `scn`.
    pub fn columns_at(&self, scn: Scn) -> &[ColumnInfo] {
        self.history
            .iter()
            .rev()
            .find(|(s, _)| *s <= scn)
            .map(|(_, c)| c.as_slice())
            .unwrap_or(&self.columns)
    }

    /// DBA_OBJECTS.OBJECT_ID of the table.
    pub fn table_object_id(&self) -> u32 {
        if self.object_id == 0 {
            self.data_object_id
        } else {
            self.object_id
        }
    }

    /// DBA_OBJECTS.OBJECT_ID of partition `i`.
    pub fn partition_object_id(&self, i: usize) -> u32 {
        self.partition_ids
            .get(i)
            .or(self.partition_objects.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// The object id of the segment a ROWID's data object number names: the table's or a
    /// partition's, now or before a TRUNCATE (LogMiner's DATA_OBJ#).
    pub fn object_of_segment(&self, data_object: u32) -> u32 {
        if data_object == self.data_object_id {
            return self.table_object_id();
        }
        if let Some(i) = self
            .partition_objects
            .iter()
            .position(|o| *o == data_object)
        {
            return self.partition_object_id(i);
        }
        self.former_segments
            .iter()
            .find(|(d, _)| *d == data_object)
            .map_or(data_object, |(_, o)| *o)
    }

    /// The data object ids of the table's segments: its own, or its partitions'.
    pub fn segment_objects(&self) -> Vec<u32> {
        if self.partition_objects.is_empty() {
            vec![self.data_object_id]
        } else {
            self.partition_objects.clone()
        }
    }

    /// Every object and data object number the table uses or used.
    fn numbers(&self) -> impl Iterator<Item = u32> + '_ {
        [self.data_object_id, self.object_id]
            .into_iter()
            .chain(self.partition_objects.iter().copied())
            .chain(self.partition_ids.iter().copied())
            .chain(self.former_segments.iter().map(|(d, _)| *d))
    }

    /// The committed row at `rid` as of `scn`.
    pub fn visible(&self, rid: &RowId, scn: Scn) -> Option<&Arc<[Value]>> {
        self.rows.get(rid).and_then(|v| visible_version(v, scn))
    }

    pub fn info(&self) -> TableInfo {
        let d = &self.def;
        let stale = match (self.stats, d.statistics) {
            (Some((n, _)), _) => self.changes_since_stats * 10 > n.max(1),
            _ => false,
        };
        let (primary_key, unique_keys) = d.constraints();
        let iot = d.organization == Organization::IndexOrganized;
        let segmentless = d.partitions.is_some() || iot;
        // An index-organised table's primary key index is its `IOT - TOP` segment, not one of
        // the NORMAL unique indexes ALL_INDEXES lists beside it.
        let pk_name = primary_key.as_ref().map(|k| k.name.clone());
        let unique_indexes = d
            .indexes()
            .into_iter()
            .filter(|k| !(iot && Some(&k.name) == pk_name.as_ref()))
            .collect();
        TableInfo {
            name: d.name.clone(),
            columns: self.columns.clone(),
            primary_key,
            unique_keys,
            unique_indexes,
            organization: d.organization,
            cluster: d.cluster.clone(),
            row_movement: d.row_movement,
            // A clustered table's segment is its cluster's: `data_object_id` is the cluster's
            // and `object_id` its own (see `Replica::new`).
            // A partitioned table has no segment of its own, nor has an index-organised one (its
            // segment is its primary key index): DBA_OBJECTS.DATA_OBJECT_ID is NULL for them, so
            // the catalog query that reads segments leaves them out; their rows are in their
            // partitions' or their index's segment. A TRUNCATE gives a segment a new data
            // object id; the object id stays.
            data_object_id: if segmentless {
                0
            } else {
                u64::from(self.data_object_id)
            },
            object_id: if segmentless {
                0
            } else {
                u64::from(self.table_object_id())
            },
            partitions: d
                .partitions
                .iter()
                .flat_map(|p| p.list.iter())
                .zip(&self.partition_objects)
                .enumerate()
                .map(|(i, (p, id))| PartitionInfo {
                    name: p.name.clone(),
                    data_object_id: u64::from(*id),
                    object_id: u64::from(self.partition_object_id(i)),
                })
                .collect(),
            stats: TableStats {
                num_rows: self.stats.map(|s| s.0),
                blocks: self.stats.map(|s| s.1),
                last_analyzed: self.stats.map(|_| "gathered".to_string()),
                stale,
            },
            supplemental_all_columns: d.logging == super::schema::TableLogging::All,
        }
    }
}

/// Two tables of one schema (owner and container): a cluster is named within one.
fn same_schema(a: &crate::names::TableName, b: &crate::names::TableName) -> bool {
    a.owner == b.owner && a.pdb == b.pdb
}

/// Add (`None`) or drop (`Some(i)`) a column in a row's versions.
fn reshape_versions(versions: &mut [Version], drop: Option<usize>) {
    for v in versions.iter_mut() {
        if let Some(row) = &v.row {
            let mut r = row.to_vec();
            reshape_row(&mut r, drop);
            v.row = Some(r.into());
        }
    }
}

/// A row of the columns before a column was added (`None`: NULL at the end) or dropped (`Some(i)`).
fn reshape_row(r: &mut Vec<Value>, drop: Option<usize>) {
    match drop {
        None => r.push(Value::Null),
        Some(i) if i < r.len() => {
            r.remove(i);
        }
        Some(_) => {}
    }
}

pub(super) fn visible_version(versions: &[Version], scn: Scn) -> Option<&Arc<[Value]>> {
    let idx = versions.partition_point(|v| v.scn <= scn);
    if idx == 0 {
        return None;
    }
    versions[idx - 1].row.as_ref()
}

#[derive(Debug, Clone)]
pub struct OpenTx {
    pub start_scn: Scn,
    pub thread: u32,
    /// Record numbers of the changes not undone, in redo order.
    pub changes: Vec<u64>,
    /// Those changes' records (a commit applies them; they are not read back from the file).
    pub records: Vec<Arc<Redo>>,
}

/// One redo log of a thread.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct LogSeq {
    pub sequence: u64,
    pub first_scn: Scn,
    pub first_record: u64,
    /// When the switch into this log happened (ms); `None` for a thread's first log.
    pub first_ts: Option<i64>,
}

pub struct Replica {
    pub schema: SchemaFile,
    pub tables: Vec<TableState>,
    pub open: BTreeMap<Xid, OpenTx>,
    /// The newest redo records, kept parsed for mining, from record number `records_base` on
    /// (at most [`super::redo_index::CACHE`] when the replica reads a redo file).
    pub records: VecDeque<Arc<Redo>>,
    pub records_base: u64,
    /// Where older retained records are in the redo file.
    pub index: RedoIndex,
    /// Thread of every transaction seen (for THREAD# of its rows).
    pub xid_thread: HashMap<Xid, u32>,
    /// START SCN of every transaction seen (COMMIT rows carry it).
    pub xid_start: HashMap<Xid, Scn>,
    /// PDB of every transaction's first change (SRC_CON_NAME of its START/COMMIT rows).
    pub xid_pdb: HashMap<Xid, String>,
    /// User of every transaction that does not run as the workload user (USERNAME).
    pub xid_user: HashMap<Xid, String>,
    /// (scn, ts) of records with a timestamp: maps SCNs to time.
    pub scn_times: Vec<(Scn, i64)>,
    /// Logs per thread (index thread-1), oldest first.
    pub logs: Vec<Vec<LogSeq>>,
    /// LogMiner dictionary builds in the redo: (thread, the sequence of the log it is in, SCN).
    pub dictionary_builds: Vec<(u32, u64, Scn)>,
    pub current_scn: Scn,
    /// The SCN of the newest record that took an SCN of its own: every record but a log
    /// switch, statistics and an extent, which carry the SCN the next record will have
    /// (`Replica::current_scn_view`). 0: not known (a checkpoint written before it was kept).
    pub own_scn: Scn,
    /// Which redo each thread's LGWR has written (what LogMiner can see).
    pub lgwr: super::lgwr::LogWriters,
    commits_since_prune: u64,
    /// Time of the commit being applied.
    commit_ts: i64,
    /// Opened from a checkpoint whose rows are not read yet.
    unloaded: Option<Unloaded>,
    /// A bulk load's committed rows, written to files instead of kept (see
    /// [`Replica::spill_rows`]), and the first thing that went wrong doing so.
    bulk: Option<(Vec<super::rowfile::RowSpill>, Option<String>)>,
}

impl Replica {
    pub fn new(schema: SchemaFile, defs: Vec<TableDef>) -> Replica {
        let start = schema.database.start_scn;
        let threads = schema.database.redo_threads.max(1) as usize;
        let mut next_object = 73_000u32;
        // A cluster is numbered as CREATE CLUSTER numbers it, before its first table: the
        // cluster's segment has that data object id, and so has every table stored in it (each
        // with an object id of its own).
        let mut clusters: HashMap<(Option<String>, String, String), u32> = HashMap::new();
        let tables = defs
            .into_iter()
            .map(|def| {
                let cluster = def.cluster.as_ref().map(|c| {
                    let key = (def.name.pdb.clone(), def.name.owner.clone(), c.clone());
                    *clusters.entry(key).or_insert_with(|| {
                        next_object += 1;
                        next_object - 1
                    })
                });
                let data_object_id = next_object;
                next_object += 1;
                let parts = def.partitions.as_ref().map(|p| p.list.len()).unwrap_or(0);
                let partition_objects = (0..parts as u32)
                    .map(|i| next_object + i)
                    .collect::<Vec<_>>();
                next_object += parts as u32;
                let mut t = TableState::empty(def, None);
                t.history = vec![(start, t.columns.clone())];
                t.last_ddl_scn = start;
                t.last_change_scn = start;
                t.data_object_id = data_object_id;
                t.partition_objects = partition_objects;
                if let Some(segment) = cluster {
                    t.object_id = data_object_id;
                    t.data_object_id = segment;
                }
                t
            })
            .collect();
        Replica {
            schema,
            tables,
            open: BTreeMap::new(),
            records: VecDeque::new(),
            records_base: 0,
            index: RedoIndex::new(None),
            xid_thread: HashMap::new(),
            xid_start: HashMap::new(),
            xid_pdb: HashMap::new(),
            xid_user: HashMap::new(),
            scn_times: Vec::new(),
            logs: (0..threads)
                .map(|_| {
                    vec![LogSeq {
                        sequence: 1,
                        first_scn: start,
                        first_record: 0,
                        first_ts: None,
                    }]
                })
                .collect(),
            current_scn: start,
            own_scn: 0,
            dictionary_builds: Vec::new(),
            lgwr: super::lgwr::LogWriters::new(threads),
            commits_since_prune: 0,
            commit_ts: 0,
            unloaded: None,
            bulk: None,
        }
    }

    pub(super) fn commits_since_prune(&self) -> u64 {
        self.commits_since_prune
    }

    pub(super) fn commit_ts(&self) -> i64 {
        self.commit_ts
    }

    /// State restored from a checkpoint taken before record `next_record`.
    pub(super) fn restore_counters(&mut self, commits: u64, commit_ts: i64, next_record: u64) {
        self.commits_since_prune = commits;
        self.commit_ts = commit_ts;
        self.records.clear();
        self.records_base = next_record;
    }

    /// The tables' rows are in a checkpoint file, read on first use.
    pub(super) fn rows_on_disk(&mut self, disk: super::checkpoint::RowsOnDisk) {
        self.unloaded = Some(Unloaded {
            dirs: (0..disk.sections.len())
                .map(|_| std::sync::OnceLock::new())
                .collect(),
            disk,
            pending: 0,
            reshapes: Vec::new(),
        });
    }

    /// Changes waiting for the rows to be read: past [`PENDING_LIMIT`] the owner reads them
    /// (a reader that never reads rows, such as a capture that only streams, would otherwise
    /// keep every change since the checkpoint, unpruned).
    pub fn pending_changes(&self) -> usize {
        self.unloaded.as_ref().map_or(0, |u| u.pending)
    }

    /// Whether every table's rows are in memory.
    pub fn rows_loaded(&self) -> bool {
        self.unloaded.is_none()
    }

    /// Read the rows a checkpoint left on disk, under the changes committed since.
    pub fn load_rows(&mut self) -> Result<()> {
        let Some(u) = self.unloaded.take() else {
            return Ok(());
        };
        let mut base = Vec::with_capacity(self.tables.len());
        for i in 0..self.tables.len() {
            match u.disk.read(i) {
                Ok(rows) => base.push(rows),
                Err(e) => {
                    self.unloaded = Some(u);
                    return Err(e);
                }
            }
        }
        for (i, (t, mut rows)) in self.tables.iter_mut().zip(base).enumerate() {
            for d in u.reshapes.get(i).into_iter().flatten() {
                for versions in rows.values_mut() {
                    reshape_versions(versions, *d);
                }
            }
            // Every change since is newer than the checkpoint's versions of its row.
            for (rid, versions) in std::mem::take(&mut t.rows) {
                rows.entry(rid).or_default().extend(versions);
            }
            t.rows = rows;
            t.key_index =
                KeyIndex::for_table(&t.def.primary_key, &t.columns, &t.rows, t.def.charsets);
        }
        Ok(())
    }

    /// A bulk load into empty tables (`emulator init`): from now on committed inserts go to a
    /// file per table in `dir` (in the checkpoint's row form) instead of into the replica, and
    /// no row is kept; [`Replica::take_spills`] hands them to the checkpoint. The replica then
    /// holds no rows: only the loader, which never reads them back, may do this.
    pub fn spill_rows(&mut self, dir: &std::path::Path) -> Result<()> {
        let spills = self
            .tables
            .iter()
            .map(|t| {
                super::rowfile::RowSpill::new(
                    dir,
                    key_positions(t).unwrap_or_default(),
                    t.pk_order(),
                )
                .map_err(|e| CdcError::io(dir, e))
            })
            .collect::<Result<_>>()?;
        self.bulk = Some((spills, None));
        Ok(())
    }

    /// The rows a bulk load spilled, per table.
    pub fn take_spills(&mut self) -> Result<Vec<Option<super::rowfile::SpilledRows>>> {
        let Some((spills, failed)) = self.bulk.take() else {
            return Ok(Vec::new());
        };
        if let Some(why) = failed {
            return Err(CdcError::Database(format!("emulator bulk load: {why}")));
        }
        spills
            .into_iter()
            .map(|s| {
                s.finish()
                    .map(Some)
                    .map_err(|e| CdcError::Database(format!("emulator bulk load: {e}")))
            })
            .collect()
    }

    /// Number of the next record to be applied.
    pub fn next_record(&self) -> u64 {
        self.records_base + self.records.len() as u64
    }

    /// Replay the redo file at `path`: records older than the cache are read back from it.
    pub fn backed_by(mut self, path: std::path::PathBuf) -> Replica {
        self.index = RedoIndex::new(Some(path));
        self
    }

    /// CREATE TABLE: a new, empty table from its schema entry, with data object ids after
    /// every existing one. Reading it AS OF an SCN before its creation fails with ORA-01466.
    fn create_table(
        &mut self,
        n: u64,
        tab: u32,
        scn: Scn,
        xid: Xid,
        spec: &serde_json::Value,
    ) -> Result<()> {
        if tab as usize != self.tables.len() {
            return Err(self.damaged(
                n,
                format!(
                    "CREATE TABLE as table {tab}, expected {}",
                    self.tables.len()
                ),
            ));
        }
        let spec_json = spec.clone();
        let spec: super::schema::TableSpec = serde_json::from_value(spec.clone())
            .map_err(|e| self.damaged(n, format!("CREATE TABLE: {e}")))?;
        let def = self
            .schema
            .created_table(&spec)
            .map_err(|e| self.damaged(n, format!("CREATE TABLE: {e}")))?;
        if self.table_index(&def.name).is_some() {
            return Err(self.damaged(n, format!("CREATE TABLE {}: the name is taken", def.name)));
        }
        if let Some(pdb) = &def.name.pdb {
            self.xid_pdb.entry(xid).or_insert_with(|| pdb.clone());
        }
        let next_object = self.next_object_number();
        let parts = def.partitions.as_ref().map(|p| p.list.len()).unwrap_or(0) as u32;
        // The DDL record's own handling adds (scn, columns) to its history.
        let mut t = TableState::empty(def, Some(spec_json));
        t.last_ddl_scn = scn;
        t.last_change_scn = scn;
        t.data_object_id = next_object;
        t.partition_objects = (1..=parts).map(|i| next_object + i).collect();
        self.tables.push(t);
        Ok(())
    }

    /// The next unused object number: above every object and data object number of every
    /// table, as Oracle numbers a new object (CREATE TABLE) or a new segment (TRUNCATE).
    pub fn next_object_number(&self) -> u32 {
        self.tables
            .iter()
            .flat_map(|t| t.numbers())
            .max()
            .map_or(73_000, |m| m + 1)
    }

    /// The table whose segment holds table `ti`'s rows: itself, or for a clustered table the
    /// first table of its cluster, whose extents are the cluster's (DBA_EXTENTS lists them
    /// once, under the cluster's name).
    pub fn segment_table(&self, ti: usize) -> usize {
        let Some(t) = self.tables.get(ti) else {
            return ti;
        };
        if t.def.cluster.is_none() {
            return ti;
        }
        self.tables
            .iter()
            .position(|o| o.def.cluster == t.def.cluster && same_schema(&o.def.name, &t.def.name))
            .unwrap_or(ti)
    }

    /// The extents of cluster `cluster` of schema `owner` in container `pdb`, in the order
    /// DBA_EXTENTS is read (file, block); none when there is no such cluster.
    pub fn cluster_extents(&self, pdb: Option<&str>, owner: &str, cluster: &str) -> Vec<Extent> {
        let mut out: Vec<Extent> = self
            .tables
            .iter()
            .filter(|t| {
                t.def.cluster.as_deref() == Some(cluster)
                    && t.def.name.owner == owner
                    && t.def.name.pdb.as_deref() == pdb
            })
            .flat_map(|t| t.extents.iter().map(|(_, e)| e.clone()))
            .collect();
        out.sort_by_key(|e| (e.relative_fno, e.block_id));
        out
    }

    pub fn table_index(&self, name: &crate::names::TableName) -> Option<usize> {
        self.tables.iter().position(|t| &t.def.name == name)
    }

    pub fn table(&self, name: &crate::names::TableName) -> Result<&TableState> {
        self.table_index(name)
            .map(|i| &self.tables[i])
            .ok_or_else(|| CdcError::UnknownTable {
                table: name.to_string(),
                hint: format!(
                    " (tables: {})",
                    self.tables
                        .iter()
                        .map(|t| t.def.name.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })
    }

    fn damaged(&self, n: u64, message: String) -> CdcError {
        CdcError::RedoDamaged {
            path: super::redo::REDO_FILE.into(),
            line: n + 1,
            message,
        }
    }

    /// Apply one record (not read from a file: it stays in memory).
    pub fn apply(&mut self, record: Redo) -> Result<()> {
        self.apply_at(record, None)
    }

    /// Apply one record read from the redo file at byte `offset`.
    pub fn apply_at(&mut self, record: Redo, offset: Option<u64>) -> Result<()> {
        let n = self.next_record();
        let record = Arc::new(record);
        self.current_scn = self.current_scn.max(record.scn());
        if !matches!(
            &*record,
            Redo::LogSwitch { .. } | Redo::Stats { .. } | Redo::Extent { .. }
        ) {
            self.own_scn = self.own_scn.max(record.scn());
        }
        self.index.note(n, record.scn(), offset);
        if let Some(ts) = record.ts() {
            self.note_time(record.scn(), ts);
        }
        let table_count = self.tables.len();
        let check_tab = |tab: u32| -> Result<usize> {
            if (tab as usize) < table_count {
                Ok(tab as usize)
            } else {
                Err(CdcError::RedoDamaged {
                    path: super::redo::REDO_FILE.into(),
                    line: n + 1,
                    message: format!("table number {tab} does not exist"),
                })
            }
        };
        match &*record {
            Redo::Begin {
                scn,
                xid,
                thread,
                user,
                ..
            } => {
                if let Some(u) = user {
                    self.xid_user.insert(*xid, u.clone());
                }
                self.open.insert(
                    *xid,
                    OpenTx {
                        start_scn: *scn,
                        thread: *thread,
                        changes: Vec::new(),
                        records: Vec::new(),
                    },
                );
                self.xid_thread.insert(*xid, *thread);
                self.xid_start.insert(*xid, *scn);
            }
            Redo::Insert { xid, tab, .. }
            | Redo::Update { xid, tab, .. }
            | Redo::Delete { xid, tab, .. } => {
                let ti = check_tab(*tab)?;
                match &*record {
                    Redo::Insert { after, .. } => self.tables[ti].note_serial(after, true),
                    Redo::Update { after, .. } => self.tables[ti].note_serial(after, false),
                    _ => {}
                }
                if let Some(pdb) = &self.tables[ti].def.name.pdb {
                    self.xid_pdb.entry(*xid).or_insert_with(|| pdb.clone());
                }
                match self.open.get_mut(xid) {
                    Some(tx) => {
                        tx.changes.push(n);
                        tx.records.push(record.clone());
                    }
                    None => {
                        return Err(self
                            .damaged(n, format!("change of transaction {xid}, which is not open")))
                    }
                }
            }
            Redo::Other { xid, pdb, .. } => {
                if let Some(pdb) = pdb {
                    self.xid_pdb.entry(*xid).or_insert_with(|| pdb.clone());
                }
                match self.open.get_mut(xid) {
                    // Undone like any change; committing it changes no table.
                    Some(tx) => {
                        tx.changes.push(n);
                        tx.records.push(record.clone());
                    }
                    None => {
                        return Err(self
                            .damaged(n, format!("change of transaction {xid}, which is not open")))
                    }
                }
            }
            Redo::Undo { xid, of, .. } => {
                let ok = match self.open.get_mut(xid) {
                    Some(tx) => match tx.changes.iter().rposition(|c| c == of) {
                        Some(i) => {
                            tx.changes.remove(i);
                            tx.records.remove(i);
                            true
                        }
                        None => false,
                    },
                    None => false,
                };
                if !ok {
                    return Err(self.damaged(
                        n,
                        format!("undo of record {of}, not an open change of {xid}"),
                    ));
                }
            }
            Redo::Commit { scn, xids, ts } => {
                self.commit_ts = *ts;
                for xid in xids {
                    let tx = self.open.remove(xid).ok_or_else(|| {
                        self.damaged(n, format!("commit of {xid}, which is not open"))
                    })?;
                    for change in tx.records {
                        self.apply_committed(&change, *scn);
                    }
                }
                self.commits_since_prune += 1;
            }
            Redo::Rollback { xid, .. } => {
                self.open.remove(xid);
            }
            Redo::Ddl {
                scn,
                tab,
                change: DdlChange::Truncate { segments },
                xid,
                ts,
                ..
            } => {
                let ti = check_tab(*tab)?;
                // The DDL runs in the table's PDB: its rows carry that SRC_CON_NAME.
                if let Some(pdb) = &self.tables[ti].def.name.pdb {
                    self.xid_pdb.entry(*xid).or_insert_with(|| pdb.clone());
                }
                self.truncate_table(n, ti, *scn, *ts, segments)?;
            }
            Redo::Ddl {
                scn,
                tab,
                change: DdlChange::Move { partition, segment },
                xid,
                ..
            } => {
                let ti = check_tab(*tab)?;
                if let Some(pdb) = &self.tables[ti].def.name.pdb {
                    self.xid_pdb.entry(*xid).or_insert_with(|| pdb.clone());
                }
                self.move_segment(n, ti, *scn, *partition, *segment)?;
            }
            Redo::Ddl {
                scn,
                tab,
                change,
                xid,
                ..
            } => {
                if let DdlChange::CreateTable { spec } = change {
                    self.create_table(n, *tab, *scn, *xid, spec)?;
                }
                let ti = check_tab(*tab).or_else(|e| match change {
                    // The table this record created.
                    DdlChange::CreateTable { .. } => Ok(*tab as usize),
                    _ => Err(e),
                })?;
                // The DDL runs in the table's PDB: its rows carry that SRC_CON_NAME.
                if let Some(pdb) = &self.tables[ti].def.name.pdb {
                    self.xid_pdb.entry(*xid).or_insert_with(|| pdb.clone());
                }
                let unloaded = self.unloaded.as_mut();
                let t = &mut self.tables[ti];
                let reshape = match change {
                    DdlChange::AddColumn { column } => {
                        t.columns.push(column.clone());
                        Some(None)
                    }
                    DdlChange::DropColumn { name } => {
                        let Some(i) = t.columns.iter().position(|c| &c.name == name) else {
                            return Err(self.damaged(n, format!("drop of unknown column {name}")));
                        };
                        t.columns.remove(i);
                        Some(Some(i))
                    }
                    // Created above with its columns; a TRUNCATE has its own arm.
                    DdlChange::CreateTable { .. }
                    | DdlChange::Truncate { .. }
                    | DdlChange::Move { .. } => None,
                };
                t.last_ddl_scn = *scn;
                t.history.push((*scn, t.columns.clone()));
                if let (Some(u), Some(d)) = (unloaded, reshape) {
                    // The file's rows are reshaped as they are read.
                    if u.reshapes.len() <= ti {
                        u.reshapes.resize(ti + 1, Vec::new());
                    }
                    u.reshapes[ti].push(d);
                }
                if let Some(d) = reshape {
                    t.reshape_rows(d);
                }
                t.key_index =
                    KeyIndex::for_table(&t.def.primary_key, &t.columns, &t.rows, t.def.charsets);
            }
            Redo::Extent { tab, part, ext, .. } => {
                let i = check_tab(*tab)?;
                self.tables[i].extents.push((*part, ext.clone()));
            }
            Redo::Stats {
                tab,
                num_rows,
                blocks,
                ..
            } => {
                let t = &mut self.tables[check_tab(*tab)?];
                t.stats = Some((*num_rows, *blocks));
                t.changes_since_stats = 0;
                if t.def.statistics == StatsSpec::Stale {
                    // The schema asked for stale statistics: pretend many changes since.
                    t.changes_since_stats = num_rows.max(&1) * 2;
                }
            }
            Redo::DictionaryBuild { scn, thread, .. } => {
                let sequence = self.sequence_of(*thread, n);
                self.dictionary_builds.push((*thread, sequence, *scn));
            }
            Redo::LogSwitch { scn, thread, ts } => {
                let logs = self
                    .logs
                    .get_mut((*thread as usize).wrapping_sub(1))
                    .ok_or_else(|| CdcError::RedoDamaged {
                        path: super::redo::REDO_FILE.into(),
                        line: n + 1,
                        message: format!("log switch of unknown thread {thread}"),
                    })?;
                let sequence = logs.last().map(|l| l.sequence + 1).unwrap_or(1);
                logs.push(LogSeq {
                    sequence,
                    first_scn: *scn,
                    first_record: n + 1,
                    first_ts: Some(*ts),
                });
            }
        }
        self.lgwr.record(n, &record, &self.xid_thread);
        self.records.push_back(record);
        // Older records are read back from the file when mined.
        while self.records.len() > super::redo_index::CACHE && self.index.can_evict() {
            self.records.pop_front();
            self.records_base += 1;
        }
        Ok(())
    }

    /// TRUNCATE TABLE at `scn`: every row is deleted at that SCN (reads AS OF an earlier SCN
    /// fail with ORA-01466, as its DDL is newer), and each segment `segments` gives a new data
    /// object id becomes a new segment: the old number is kept for the ROWIDs of the rows it
    /// held, and the segment keeps only its first extent (DROP STORAGE, the default).
    fn truncate_table(
        &mut self,
        n: u64,
        ti: usize,
        scn: Scn,
        ts: i64,
        segments: &[u32],
    ) -> Result<()> {
        let old = self.tables[ti].segment_objects();
        if old.len() != segments.len() {
            return Err(self.damaged(
                n,
                format!(
                    "TRUNCATE of {} segments; the table has {}",
                    segments.len(),
                    old.len()
                ),
            ));
        }
        // Rows a checkpoint left on disk go too.
        self.load_rows()?;
        let t = &mut self.tables[ti];
        let mut deleted = 0u64;
        for versions in t.rows.values_mut() {
            match versions.last_mut() {
                Some(last) if last.row.is_some() && last.scn >= scn => last.row = None,
                Some(last) if last.row.is_some() => versions.push(Version { scn, row: None }),
                _ => continue,
            }
            deleted += 1;
        }
        t.live_rows = 0;
        t.changes_since_stats += deleted;
        t.last_change_scn = t.last_change_scn.max(scn);
        if t.change_commits.last().map(|c| c.0) != Some(scn) {
            t.change_commits.push((scn, ts));
        }
        let partitioned = !t.partition_objects.is_empty();
        if t.object_id == 0 {
            t.object_id = t.data_object_id;
        }
        if t.partition_ids.is_empty() {
            t.partition_ids = t.partition_objects.clone();
        }
        for (i, (&was, &now)) in old.iter().zip(segments).enumerate() {
            if was == now {
                continue;
            }
            let object = if partitioned {
                t.partition_object_id(i)
            } else {
                t.table_object_id()
            };
            t.former_segments.push((was, object));
            let part = partitioned.then_some(i as u32);
            let mut first = true;
            t.extents.retain_mut(|(p, e)| {
                if *p != part || e.data_object_id != u64::from(was) {
                    return true;
                }
                e.data_object_id = u64::from(now);
                std::mem::replace(&mut first, false)
            });
            if partitioned {
                t.partition_objects[i] = now;
            } else {
                t.data_object_id = now;
            }
        }
        t.last_ddl_scn = scn;
        Ok(())
    }

    /// ALTER TABLE … MOVE [PARTITION] at `scn`: the segment (the table's, or partition
    /// `partition`'s) becomes data object `now`. Each row live at `scn` leaves its old ROWID
    /// (a version without a row at `scn`) and is at the same file, block and slot under the
    /// new data object number from `scn` on, with the same values: reads AS OF an earlier SCN
    /// fail with ORA-01466 (its DDL is newer), so no read sees both. The extents carry the new
    /// number; the old one is kept for LogMiner's DATA_OBJ# of the rows written before.
    fn move_segment(
        &mut self,
        n: u64,
        ti: usize,
        scn: Scn,
        partition: Option<u32>,
        now: u32,
    ) -> Result<()> {
        let t = &self.tables[ti];
        let partitioned = !t.partition_objects.is_empty();
        let was =
            match (partitioned, partition) {
                (false, None) => t.data_object_id,
                (true, Some(p)) => match t.partition_objects.get(p as usize) {
                    Some(o) => *o,
                    None => return Err(self.damaged(n, format!("MOVE of unknown partition {p}"))),
                },
                _ => return Err(self.damaged(
                    n,
                    "MOVE of a whole partitioned table, or of a partition of an unpartitioned one"
                        .to_string(),
                )),
            };
        // Rows a checkpoint left on disk move too.
        self.load_rows()?;
        let t = &mut self.tables[ti];
        let old: Vec<RowId> = t
            .rows
            .range(
                RowId {
                    data_object: was,
                    relative_fno: 0,
                    block: 0,
                    slot: 0,
                }..,
            )
            .take_while(|(r, _)| r.data_object == was)
            .map(|(r, _)| *r)
            .collect();
        for rid in old {
            let Some(versions) = t.rows.get_mut(&rid) else {
                continue;
            };
            let row = match versions.last_mut() {
                Some(last) if last.row.is_some() && last.scn >= scn => last.row.take(),
                Some(last) if last.row.is_some() => {
                    let row = last.row.clone();
                    versions.push(Version { scn, row: None });
                    row
                }
                _ => None,
            };
            if let Some(row) = row {
                let moved = RowId {
                    data_object: now,
                    ..rid
                };
                t.rows.insert(
                    moved,
                    vec![Version {
                        scn,
                        row: Some(row),
                    }],
                );
            }
        }
        if t.object_id == 0 {
            t.object_id = t.data_object_id;
        }
        if t.partition_ids.is_empty() {
            t.partition_ids = t.partition_objects.clone();
        }
        let object = match partition {
            Some(p) => t.partition_object_id(p as usize),
            None => t.table_object_id(),
        };
        t.former_segments.push((was, object));
        for (_, e) in t.extents.iter_mut() {
            if e.data_object_id == u64::from(was) {
                e.data_object_id = u64::from(now);
            }
        }
        match partition {
            Some(p) => t.partition_objects[p as usize] = now,
            None => t.data_object_id = now,
        }
        t.last_ddl_scn = scn;
        t.last_change_scn = t.last_change_scn.max(scn);
        t.key_index = KeyIndex::for_table(&t.def.primary_key, &t.columns, &t.rows, t.def.charsets);
        Ok(())
    }

    fn apply_committed(&mut self, change: &Arc<Redo>, commit_scn: Scn) {
        let (tab, delta) = match &**change {
            Redo::Insert { tab, .. } => (*tab, 1i64),
            Redo::Update { tab, .. } => (*tab, 0),
            Redo::Delete { tab, .. } => (*tab, -1),
            _ => return,
        };
        let commit_ts = self.commit_ts;
        let t = &mut self.tables[tab as usize];
        t.live_rows = (t.live_rows as i64 + delta).max(0) as u64;
        t.last_change_scn = t.last_change_scn.max(commit_scn);
        if t.change_commits.last().map(|c| c.0) != Some(commit_scn) {
            t.change_commits.push((commit_scn, commit_ts));
        }
        t.changes_since_stats += 1;
        if let Some(u) = &mut self.unloaded {
            u.pending += 1;
        }
        self.commit_rows(change, commit_scn);
    }

    /// A committed change's new version of its row.
    fn commit_rows(&mut self, change: &Redo, commit_scn: Scn) {
        if let Some((spills, failed)) = &mut self.bulk {
            let why = match change {
                Redo::Insert {
                    tab, rid, after, ..
                } => match (RowId::decode(rid), spills.get_mut(*tab as usize)) {
                    (Ok(rid), Some(spill)) => spill
                        .push(rid, commit_scn, after)
                        .err()
                        .map(|e| e.to_string()),
                    _ => Some(format!("an insert into table {tab} at ROWID {rid}")),
                },
                Redo::Update { .. } | Redo::Delete { .. } => {
                    Some("an update or delete of a loaded row".into())
                }
                _ => None,
            };
            if failed.is_none() {
                *failed = why;
            }
            return;
        }
        let (tab, rid, row) = match change {
            Redo::Insert {
                tab, rid, after, ..
            }
            | Redo::Update {
                tab, rid, after, ..
            } => (*tab, rid, Some(after)),
            Redo::Delete { tab, rid, .. } => (*tab, rid, None),
            _ => return,
        };
        let Ok(rid) = RowId::decode(rid) else { return };
        let t = &mut self.tables[tab as usize];
        let versions = t.rows.entry(rid).or_default();
        let version = Version {
            scn: commit_scn,
            row: row.map(|r| Arc::from(r.clone().into_boxed_slice())),
        };
        if let (Some(ix), Some(r)) = (&mut t.key_index, &version.row) {
            ix.insert(r, rid);
        }
        // Two changes of one transaction to the same row: the later one wins at that SCN.
        match versions.last_mut() {
            Some(last) if last.scn == commit_scn => {
                let old = std::mem::replace(last, version);
                if let (Some(ix), Some(r)) = (&mut t.key_index, &old.row) {
                    ix.forget(r, rid, versions);
                }
            }
            _ => versions.push(version),
        }
    }

    pub fn database_info(&self) -> DatabaseInfo {
        let d = &self.schema.database;
        // V$PDBS: the open PDBs (those the tables name, created ones included, and declared ones).
        let mut pdbs: Vec<String> = self
            .tables
            .iter()
            .filter_map(|t| t.def.name.pdb.clone())
            .chain(
                super::access::pdbs(&self.schema)
                    .into_iter()
                    .map(|(p, _)| p),
            )
            .collect();
        pdbs.sort();
        pdbs.dedup();
        let closed = super::access::closed_pdbs(&self.schema);
        pdbs.retain(|p| !closed.contains(p));
        let restricted_pdbs = super::access::restricted_pdbs(&self.schema);
        DatabaseInfo {
            dbid: d.dbid,
            name: d.name.clone(),
            version: d.version.clone(),
            edition: d.edition.clone(),
            cdb: d.multitenant,
            pdbs,
            restricted_pdbs,
            resetlogs_scn: d.start_scn,
            role: d.role.into(),
            open_mode: d.open_mode.into(),
            archivelog: d.archivelog,
            force_logging: d.force_logging,
            supplemental_min: d.supplemental_logging.minimal(),
            supplemental_all: d.supplemental_logging.all,
            undo_retention_secs: d.undo_retention,
            undo_guarantee: d.undo_guarantee,
        }
    }
}
