//! The one writer of an emulated database: allocates SCNs, XIDs and ROWIDs, appends redo,
//! keeps row locks, and applies its own records to its replica once they are written.

use super::clock::Clock;
use super::redo::{Redo, RedoTail, RedoWriter, Xid};
use super::schema::{SchemaFile, TableDef};
use super::store::Replica;
use crate::errors::{CdcError, Result};
use crate::types::Value;
use cdc_core::model::{ColumnInfo, Organization, Scn};
use cdc_core::rowid::RowId;
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[path = "writer_bulk.rs"]
mod bulk;
pub(crate) use bulk::EncodedRow;
#[path = "writer_ddl.rs"]
mod ddl;
#[path = "writer_rules.rs"]
mod rules;
#[path = "writer_space.rs"]
mod space;

pub const LOCK_FILE: &str = "writer.lock";

/// Rows per block: an 8K block holds about this many rows of a typical width.
const ROWS_PER_BLOCK: u32 = 50;

/// DBA_EXTENTS.RELATIVE_FNO of every extent in a bigfile tablespace ("In a bigfile tablespace,
/// the relative file number is always 1024", Administrator's Guide, data file numbers).
const BIGFILE_FNO: u32 = 1024;

/// Where the next row of a segment goes.
#[derive(Debug, Clone, Default)]
struct Segment {
    /// (block_id, blocks) of each extent, in allocation order.
    extents: Vec<(u32, u32)>,
    extent: usize,
    block_in_extent: u32,
    slot: u32,
}

/// An open transaction of this writer.
#[derive(Debug, Default)]
struct TxState {
    /// Record numbers of its changes, for savepoints.
    changes: Vec<u64>,
    /// Rows it changed: (table, rowid) → its current image (None: deleted by it).
    overlay: HashMap<(usize, RowId), Option<Vec<Value>>>,
    /// Fingerprints of the keys of every image it ever put in `overlay` (a superset of those
    /// there now): a key not among them is in none of its images, so the unique-key check
    /// need not scan them (see [`Writer::note_keys`]).
    keys_seen: std::collections::HashSet<u64>,
}

/// A savepoint: the number of changes made before it.
#[derive(Debug, Clone, Copy)]
pub struct Savepoint(usize);

pub struct Writer {
    dir: PathBuf,
    replica: Replica,
    redo: RedoWriter,
    /// Redo offset of the last checkpoint (0: none).
    checkpoint_at: u64,
    _lock: File,
    clock: Arc<dyn Clock>,
    next_scn: Scn,
    next_sqn: u32,
    next_slot: u16,
    segments: Vec<Vec<Segment>>,
    next_block: u32,
    /// Records in the current log of each thread.
    log_fill: Vec<u64>,
    txs: BTreeMap<Xid, TxState>,
    locks: HashMap<(usize, RowId), Xid>,
    /// Highest serial used per table (for sequence-generated keys).
    pub serials: Vec<u64>,
    /// While loading initial rows, records reach the file at commit only.
    batching: bool,
}

impl Writer {
    /// Open an existing database for writing. Fails with ORA-16000 on a read-only standby and
    /// with CDC-4003 while another writer holds the lock.
    pub fn open(dir: &Path, clock: Arc<dyn Clock>, durable: bool) -> Result<Writer> {
        // A downstream mining database holds only the source's shipped redo.
        if let Ok(super::topology::TopologyFile::Downstream { .. }) =
            super::topology::read_file(dir)
        {
            return Err(CdcError::DownstreamNoWrites {
                path: dir.to_path_buf(),
                operation: "a transaction".into(),
            });
        }
        let schema = super::read_schema(dir)?;
        let d = &schema.database;
        if d.role != super::schema::RoleSpec::Primary
            || d.open_mode != super::schema::OpenModeSpec::ReadWrite
        {
            return Err(CdcError::ReadOnly {
                operation: format!(
                    "{} is a {} open {}; it takes no transactions",
                    dir.display(),
                    cdc_core::model::DatabaseRole::from(d.role).as_oracle(),
                    cdc_core::model::OpenMode::from(d.open_mode).as_oracle()
                ),
            });
        }
        Writer::open_unchecked(dir, schema, clock, durable)
    }

    pub(super) fn open_unchecked(
        dir: &Path,
        schema: SchemaFile,
        clock: Arc<dyn Clock>,
        durable: bool,
    ) -> Result<Writer> {
        let lock = lock_dir(dir)?;
        let defs = schema.tables(&dir.join(super::SCHEMA_FILE))?;
        let threads = schema.database.redo_threads as usize;
        let start = schema.database.start_scn;
        // The writer cuts a torn record before anyone reads it.
        let redo = RedoWriter::open(dir, durable)?;
        let redo_path = dir.join(super::redo::REDO_FILE);
        let fresh = || Replica::new(schema.clone(), defs.clone()).backed_by(redo_path.clone());
        let (mut replica, mut tail, checkpoint_at) = match super::checkpoint::open(dir, fresh) {
            (r, Some((offset, line))) => {
                let last = r.current_scn;
                (r, RedoTail::starting_at(dir, offset, line, last), offset)
            }
            (r, None) => (r, RedoTail::new(dir), 0),
        };
        // The writer checks keys and picks rows: it works on every row.
        replica.load_rows()?;
        tail.read_new_at(|r, at| replica.apply_at(r, Some(at)))?;
        // The schema's tables and those CREATE TABLE made since.
        let table_count = replica.tables.len();
        let mut w = Writer {
            dir: dir.to_path_buf(),
            next_scn: replica.current_scn.max(start) + 1,
            next_sqn: 1,
            next_slot: 0,
            segments: vec![Vec::new(); table_count],
            next_block: 128,
            log_fill: vec![0; threads],
            txs: BTreeMap::new(),
            locks: HashMap::new(),
            serials: vec![0; table_count],
            batching: false,
            redo,
            checkpoint_at,
            _lock: lock,
            clock,
            replica,
        };
        w.recover()?;
        Ok(w)
    }

    /// Rebuild allocation state from the replayed redo, and roll back transactions a killed
    /// writer left open (as instance recovery does).
    fn recover(&mut self) -> Result<()> {
        let mut all: Vec<Vec<Segment>> = Vec::with_capacity(self.replica.tables.len());
        for t in &self.replica.tables {
            let parts = t.partition_objects.len().max(1);
            let mut segs = vec![Segment::default(); parts];
            for (part, ext) in &t.extents {
                let p = part.unwrap_or(0) as usize;
                if let Some(s) = segs.get_mut(p) {
                    s.extents.push((ext.block_id as u32, ext.blocks as u32));
                }
                self.next_block = self.next_block.max((ext.block_id + ext.blocks) as u32);
            }
            all.push(segs);
        }
        for (ti, t) in self.replica.tables.iter().enumerate() {
            // A clustered table's rows are in its cluster's segment, kept with the cluster's
            // first table: every table of the cluster moves that one's position on.
            let segs = &mut all[self.replica.segment_table(ti)];
            // Continue after the highest ROWID used in each segment.
            // Rows of a segment a TRUNCATE replaced are in no segment of today's.
            for rid in t.rows.keys() {
                let p = if rid.data_object == t.data_object_id {
                    0
                } else {
                    match t
                        .partition_objects
                        .iter()
                        .position(|o| *o == rid.data_object)
                    {
                        Some(p) => p,
                        None => continue,
                    }
                };
                if let Some(s) = segs.get_mut(p) {
                    if let Some(ei) = s
                        .extents
                        .iter()
                        .position(|(b, n)| rid.block >= *b && rid.block < b + n)
                    {
                        let pos = (ei, rid.block - s.extents[ei].0, rid.slot + 1);
                        if (pos.0, pos.1, pos.2) > (s.extent, s.block_in_extent, s.slot) {
                            s.extent = pos.0;
                            s.block_in_extent = pos.1;
                            s.slot = pos.2;
                        }
                    }
                }
            }
            self.serials[ti] = t.serial_high;
        }
        self.segments = all;
        let max_sqn = self
            .replica
            .xid_thread
            .keys()
            .map(|x| x.sqn)
            .max()
            .unwrap_or(0);
        self.next_sqn = max_sqn + 1;
        for (i, logs) in self.replica.logs.iter().enumerate() {
            let first = logs.last().map(|l| l.first_record).unwrap_or(0);
            self.log_fill[i] = self.replica.next_record().saturating_sub(first);
        }
        let orphans: Vec<Xid> = self.replica.open.keys().copied().collect();
        for xid in orphans {
            tracing::info!("rolling back transaction {xid} left open by a killed writer");
            let changes = self
                .replica
                .open
                .get(&xid)
                .map(|t| t.changes.clone())
                .unwrap_or_default();
            self.txs.insert(
                xid,
                TxState {
                    changes,
                    overlay: HashMap::new(),
                    keys_seen: Default::default(),
                },
            );
            self.rollback(xid)?;
        }
        Ok(())
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn replica(&self) -> &Replica {
        &self.replica
    }

    pub fn now(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Raise the database's SCN by `by`, as a database link to a database further ahead does:
    /// the SCNs of the nodes are coordinated when a connection over a link is made, a
    /// distributed statement runs or a distributed transaction commits, the lower raised to the
    /// higher (Distributed Systems, "Coordination of System Change Numbers"). Nothing is
    /// written: the next change carries the raised SCN, and the SCNs between have no redo.
    pub fn raise_scn(&mut self, by: u64) {
        self.next_scn = self.next_scn.saturating_add(by);
    }

    fn scn(&mut self) -> Scn {
        let s = self.next_scn;
        self.next_scn += 1;
        s
    }

    /// Append a record and apply it to our replica (the file is the source of truth).
    fn write(&mut self, record: Redo, thread: u32) -> Result<u64> {
        let n = self.replica.next_record();
        let at = self.redo.position();
        self.redo.append(&record)?;
        self.replica.apply_at(record, Some(at))?;
        self.count_record(thread)?;
        if !self.batching {
            self.redo.publish()?;
        }
        Ok(n)
    }

    /// A record of `thread` was written: its log switches when full.
    fn count_record(&mut self, thread: u32) -> Result<()> {
        let t = (thread as usize)
            .saturating_sub(1)
            .min(self.log_fill.len() - 1);
        self.log_fill[t] += 1;
        if self.log_fill[t] >= self.replica.schema.database.log_size {
            self.log_fill[t] = 0;
            let scn = self.next_scn;
            let ts = self.now();
            let sw = Redo::LogSwitch {
                scn,
                thread: t as u32 + 1,
                ts,
            };
            let at = self.redo.position();
            self.redo.append(&sw)?;
            self.replica.apply_at(sw, Some(at))?;
        }
        Ok(())
    }

    fn thread_of(&self, xid: Xid) -> u32 {
        self.replica.xid_thread.get(&xid).copied().unwrap_or(1)
    }

    /// Start a transaction; it is written (START) with its first change, as in Oracle.
    pub fn begin(&mut self) -> Result<Xid> {
        self.begin_as(None)
    }

    /// Start a transaction run by `user` (V$LOGMNR_CONTENTS.USERNAME); `None`: the
    /// database's workload user.
    pub fn begin_as(&mut self, user: Option<&str>) -> Result<Xid> {
        // Round the threads whose instance takes transactions (not the idle ones).
        let d = &self.replica.schema.database;
        let busy: Vec<u32> = (1..=d.redo_threads.max(1))
            .filter(|t| !d.idle_threads.contains(t))
            .collect();
        self.next_slot = self.next_slot.wrapping_add(1);
        let xid = Xid {
            usn: (self.next_sqn % 10) as u16 + 1,
            slot: self.next_slot % 48,
            sqn: self.next_sqn,
        };
        self.next_sqn += 1;
        let thread = match busy.len() {
            0 => 1,
            n => busy[(self.next_sqn as usize) % n],
        };
        let scn = self.scn();
        let ts = self.now();
        self.write(
            Redo::Begin {
                scn,
                xid,
                thread,
                ts,
                user: user.map(str::to_string),
            },
            thread,
        )?;
        self.txs.insert(xid, TxState::default());
        Ok(xid)
    }

    fn tx(&mut self, xid: Xid) -> Result<&mut TxState> {
        self.txs
            .get_mut(&xid)
            .ok_or_else(|| CdcError::Workload(format!("transaction {xid} is not open")))
    }

    /// A transaction stays in the container of its first change: Oracle refuses to switch
    /// container with a transaction open (ORA-65023), so no transaction spans two PDBs.
    fn check_container(&self, xid: Xid, table: usize) -> Result<()> {
        let pdb = &self.replica.tables[table].def.name.pdb;
        // A PDB that is not open READ WRITE takes no changes (the initial load excepted).
        if let Some(p) = pdb.as_deref().filter(|_| !self.batching) {
            match super::access::pdb_mode(&self.replica.schema, p) {
                super::access::PdbOpenMode::ReadWrite => {}
                super::access::PdbOpenMode::ReadOnly => {
                    return Err(CdcError::ReadOnly {
                        operation: format!("PDB {p} is open READ ONLY"),
                    })
                }
                super::access::PdbOpenMode::Mounted => {
                    return Err(CdcError::Workload(format!(
                        "ORA-01109: database not open (PDB {p} is MOUNTED)"
                    )))
                }
            }
        }
        match (self.replica.xid_pdb.get(&xid), pdb) {
            (Some(held), Some(wanted)) if held != wanted => Err(CdcError::Workload(format!(
                "ORA-65023: active transaction exists in container {held}: transaction {xid} cannot change {} in {wanted}",
                self.replica.tables[table].def.name
            ))),
            _ => Ok(()),
        }
    }

    /// The row as transaction `xid` sees it.
    pub fn row(&self, xid: Option<Xid>, table: usize, rid: RowId) -> Option<Vec<Value>> {
        if let Some(x) = xid {
            if let Some(img) = self.txs.get(&x).and_then(|t| t.overlay.get(&(table, rid))) {
                return img.clone();
            }
        }
        let t = &self.replica.tables[table];
        t.visible(&rid, self.replica.current_scn)
            .map(|r| r.to_vec())
    }

    /// Whether another transaction holds the row.
    pub fn locked_by_other(&self, xid: Xid, table: usize, rid: RowId) -> bool {
        self.locks
            .get(&(table, rid))
            .is_some_and(|holder| *holder != xid)
    }

    fn lock(&mut self, xid: Xid, table: usize, rid: RowId) -> Result<()> {
        match self.locks.get(&(table, rid)) {
            Some(h) if *h != xid => Err(CdcError::Workload(format!(
                "row {} is locked by transaction {h}",
                rid.encode()
            ))),
            _ => {
                self.locks.insert((table, rid), xid);
                Ok(())
            }
        }
    }

    pub fn insert(&mut self, xid: Xid, table: usize, row: Vec<Value>) -> Result<RowId> {
        self.check_container(xid, table)?;
        let row = self.conform_row(table, row, false)?;
        self.check_unique(table, None, &row)?;
        let part = self.partition_of(table, &row);
        let rid = self.allocate(table, part)?;
        self.lock(xid, table, rid)?;
        let scn = self.scn();
        let ts = self.now();
        let n = self.write(
            Redo::Insert {
                scn,
                xid,
                tab: table as u32,
                rid: rid.encode(),
                after: row.clone(),
                ts,
            },
            self.thread_of(xid),
        )?;
        self.note_keys(xid, table, &row)?;
        let tx = self.tx(xid)?;
        tx.changes.push(n);
        tx.overlay.insert((table, rid), Some(row.clone()));
        self.mview_log(xid, table, rid, &row, 'I')?;
        Ok(rid)
    }

    /// Update a row. When its partition key moves it to another partition of a table with row
    /// movement, the row is deleted and inserted at a new ROWID (returned).
    pub fn update(
        &mut self,
        xid: Xid,
        table: usize,
        rid: RowId,
        after: Vec<Value>,
    ) -> Result<RowId> {
        self.update_columns(xid, table, rid, after, Vec::new())
    }

    /// `UPDATE … SET <these columns> = …`: like [`Writer::update`], naming the SET columns
    /// (a column set to the value it had still appears in SQL_REDO's SET).
    pub fn update_set(
        &mut self,
        xid: Xid,
        table: usize,
        rid: RowId,
        set: &[(usize, Value)],
    ) -> Result<RowId> {
        let mut after = self
            .row(Some(xid), table, rid)
            .ok_or_else(|| CdcError::Workload(format!("no row at {}", rid.encode())))?;
        for (i, v) in set {
            if let Some(slot) = after.get_mut(*i) {
                *slot = v.clone();
            }
        }
        let cols = set.iter().map(|(i, _)| *i as u32).collect();
        self.update_columns(xid, table, rid, after, cols)
    }

    /// DBMS_LOB calls on one LOB column of a row through its locator (`SELECT … FOR UPDATE`,
    /// then WRITE / ERASE / TRIM in order): the column's new value is what they leave. A write
    /// past the end pads with spaces (zero bytes for a BLOB), as DBMS_LOB.WRITE does; ORA-22922
    /// for a NULL LOB (no locator to write through), ORA-21560 for a TRIM past the end.
    pub fn lob_edit(
        &mut self,
        xid: Xid,
        table: usize,
        rid: RowId,
        col: usize,
        ops: Vec<super::redo::LobOp>,
    ) -> Result<RowId> {
        let before = self
            .row(Some(xid), table, rid)
            .ok_or_else(|| CdcError::Workload(format!("no row at {}", rid.encode())))?;
        let ty = self
            .columns(table)
            .get(col)
            .map(|c| c.data_type.clone())
            .ok_or_else(|| CdcError::Workload(format!("no column {col}")))?;
        let mut value = match before.get(col) {
            Some(Value::Null) | None => {
                return Err(CdcError::Workload(
                    "ORA-22922: nonexistent LOB value (the column is NULL)".into(),
                ))
            }
            Some(v) => v.clone(),
        };
        for op in &ops {
            if op.col() != col {
                return Err(CdcError::Workload("a LOB edit names another column".into()));
            }
            value = super::lob_redo::apply(&value, &ty, op).map_err(CdcError::Workload)?;
        }
        let mut after = before;
        after[col] = value;
        self.update_with(xid, table, rid, after, vec![col as u32], ops)
    }

    fn update_columns(
        &mut self,
        xid: Xid,
        table: usize,
        rid: RowId,
        after: Vec<Value>,
        cols: Vec<u32>,
    ) -> Result<RowId> {
        self.update_with(xid, table, rid, after, cols, Vec::new())
    }

    fn update_with(
        &mut self,
        xid: Xid,
        table: usize,
        rid: RowId,
        after: Vec<Value>,
        cols: Vec<u32>,
        lob_ops: Vec<super::redo::LobOp>,
    ) -> Result<RowId> {
        self.check_container(xid, table)?;
        let after = self.conform_row(table, after, true)?;
        let before = self
            .row(Some(xid), table, rid)
            .ok_or_else(|| CdcError::Workload(format!("no row at {}", rid.encode())))?;
        self.check_unique(table, Some(rid), &after)?;
        self.lock(xid, table, rid)?;
        let t = &self.replica.tables[table];
        let old_part = self.partition_of(table, &before);
        let new_part = self.partition_of(table, &after);
        if old_part != new_part {
            if !t.def.row_movement {
                return Err(CdcError::Workload(
                    "ORA-14402: updating partition key column would cause a partition change"
                        .into(),
                ));
            }
            self.delete(xid, table, rid)?;
            return self.insert(xid, table, after);
        }
        let scn = self.scn();
        let ts = self.now();
        let n = self.write(
            Redo::Update {
                scn,
                xid,
                tab: table as u32,
                rid: rid.encode(),
                before,
                after: after.clone(),
                cols,
                lob_ops,
                ts,
            },
            self.thread_of(xid),
        )?;
        self.note_keys(xid, table, &after)?;
        let tx = self.tx(xid)?;
        tx.changes.push(n);
        tx.overlay.insert((table, rid), Some(after.clone()));
        self.mview_log(xid, table, rid, &after, 'U')?;
        Ok(rid)
    }

    pub fn delete(&mut self, xid: Xid, table: usize, rid: RowId) -> Result<()> {
        self.check_container(xid, table)?;
        let before = self
            .row(Some(xid), table, rid)
            .ok_or_else(|| CdcError::Workload(format!("no row at {}", rid.encode())))?;
        let logged = before.clone();
        self.lock(xid, table, rid)?;
        let scn = self.scn();
        let ts = self.now();
        let n = self.write(
            Redo::Delete {
                scn,
                xid,
                tab: table as u32,
                rid: rid.encode(),
                before,
                ts,
            },
            self.thread_of(xid),
        )?;
        let tx = self.tx(xid)?;
        tx.changes.push(n);
        tx.overlay.insert((table, rid), None);
        self.mview_log(xid, table, rid, &logged, 'D')
    }

    /// A change Oracle makes itself in transaction `xid` ([`Redo::Other`]).
    pub fn other(&mut self, xid: Xid, c: super::background::OtherChange) -> Result<()> {
        let scn = self.scn();
        let ts = self.now();
        let n = self.write(
            Redo::Other {
                scn,
                xid,
                op: c.op,
                owner: c.owner,
                table: c.table,
                pdb: c.pdb,
                obj: c.obj,
                rid: c.rid,
                sql: c.sql,
                info: c.info,
                ts,
            },
            self.thread_of(xid),
        )?;
        self.tx(xid)?.changes.push(n);
        Ok(())
    }

    /// The materialized view log row of a change to `table`, when it has one (`I`nsert,
    /// `U`pdate, `D`elete), in the same transaction.
    fn mview_log(
        &mut self,
        xid: Xid,
        table: usize,
        rid: RowId,
        row: &[Value],
        dml: char,
    ) -> Result<()> {
        let t = &self.replica.tables[table];
        if !t.def.materialized_view_log {
            return Ok(());
        }
        let change = super::background::mview_log_row(
            t,
            table,
            self.replica.next_record(),
            xid,
            rid,
            row,
            dml,
        );
        self.other(xid, change)
    }

    pub fn savepoint(&mut self, xid: Xid) -> Result<Savepoint> {
        Ok(Savepoint(self.tx(xid)?.changes.len()))
    }

    /// Undo the changes after the savepoint, newest first (undo records, ROLLBACK=1 in LogMiner).
    pub fn rollback_to(&mut self, xid: Xid, sp: Savepoint) -> Result<()> {
        let undone: Vec<u64> = {
            let tx = self.tx(xid)?;
            tx.changes.split_off(sp.0.min(tx.changes.len()))
        };
        for of in undone.into_iter().rev() {
            let scn = self.scn();
            let ts = self.now();
            self.write(Redo::Undo { scn, xid, of, ts }, self.thread_of(xid))?;
        }
        self.rebuild_overlay(xid)
    }

    /// The transaction's view after undo: replay its remaining changes.
    fn rebuild_overlay(&mut self, xid: Xid) -> Result<()> {
        let changes = self.tx(xid)?.changes.clone();
        let mut overlay = HashMap::new();
        for n in changes {
            let Some(rec) = self.replica.record(n)? else {
                continue;
            };
            match &*rec {
                Redo::Insert {
                    tab, rid, after, ..
                }
                | Redo::Update {
                    tab, rid, after, ..
                } => {
                    if let Ok(r) = RowId::decode(rid) {
                        overlay.insert((*tab as usize, r), Some(after.clone()));
                    }
                }
                Redo::Delete { tab, rid, .. } => {
                    if let Ok(r) = RowId::decode(rid) {
                        overlay.insert((*tab as usize, r), None);
                    }
                }
                _ => {}
            }
        }
        self.tx(xid)?.overlay = overlay;
        Ok(())
    }

    fn release(&mut self, xid: Xid) {
        self.txs.remove(&xid);
        self.locks.retain(|_, holder| *holder != xid);
    }

    /// Commit transactions together at one commit SCN; durable before this returns.
    pub fn commit(&mut self, xids: &[Xid]) -> Result<Scn> {
        for x in xids {
            self.tx(*x)?;
        }
        let scn = self.scn();
        let ts = self.now();
        let thread = xids.first().map(|x| self.thread_of(*x)).unwrap_or(1);
        self.write(
            Redo::Commit {
                scn,
                xids: xids.to_vec(),
                ts,
            },
            thread,
        )?;
        self.redo.flush()?;
        for x in xids {
            self.release(*x);
        }
        Ok(scn)
    }

    /// Roll back: undo every change, newest first, then the ROLLBACK record.
    pub fn rollback(&mut self, xid: Xid) -> Result<()> {
        self.rollback_to(xid, Savepoint(0))?;
        let scn = self.scn();
        let ts = self.now();
        self.write(Redo::Rollback { scn, xid, ts }, self.thread_of(xid))?;
        self.redo.flush()?;
        self.release(xid);
        Ok(())
    }

    /// The PDB a transaction works in (that of its first change), if it changed anything yet.
    pub fn container_of(&self, xid: Xid) -> Option<&str> {
        self.replica.xid_pdb.get(&xid).map(String::as_str)
    }

    /// Whether any open transaction holds rows of the table (DDL would wait: ORA-00054).
    pub fn table_busy(&self, table: usize) -> bool {
        self.locks.keys().any(|(t, _)| *t == table)
    }

    pub fn flush(&mut self) -> Result<()> {
        self.redo.flush()
    }

    /// Write a checkpoint of the database as of the redo written so far (see
    /// [`super::checkpoint`]): the redo is flushed and synced first, so the checkpoint never
    /// stands past what a crash keeps.
    pub fn checkpoint(&mut self) -> Result<()> {
        self.redo.publish()?;
        self.redo.sync()?;
        super::checkpoint::write(&self.dir, &self.replica, self.redo.position())?;
        self.checkpoint_at = self.redo.position();
        Ok(())
    }

    /// Start a bulk load of empty tables (`emulator init`): committed rows go to files, not
    /// into the replica ([`Replica::spill_rows`]). The unique-key check then sees no committed
    /// row: the loader's keys are made from distinct serials ([`super::key_gen`]), so none can
    /// repeat. Ends with [`Writer::finish_bulk_load`], after which the writer is gone.
    pub fn start_bulk_load(&mut self) -> Result<()> {
        if self.replica.tables.iter().any(|t| t.live_rows > 0) {
            return Err(CdcError::Workload(
                "a bulk load is only for empty tables".into(),
            ));
        }
        let dir = self.dir.clone();
        self.replica.spill_rows(&dir)
    }

    /// The checkpoint of a bulk load, its rows copied from the files they were spilled to.
    pub fn finish_bulk_load(mut self) -> Result<()> {
        self.redo.publish()?;
        self.redo.sync()?;
        let spills = self.replica.take_spills()?;
        super::checkpoint::write_with(&self.dir, &self.replica, self.redo.position(), spills)
    }

    /// A checkpoint once the redo after the last one is long enough to slow opening down
    /// ([`CHECKPOINT_AFTER_BYTES`]); at the end of a workload run.
    pub fn checkpoint_if_due(&mut self) -> Result<()> {
        if self.redo.position().saturating_sub(self.checkpoint_at) >= CHECKPOINT_AFTER_BYTES {
            self.checkpoint()?;
        }
        Ok(())
    }

    /// Bulk loading: hand records to the file at commit only (`emulator init`).
    pub fn set_batching(&mut self, on: bool) {
        self.batching = on;
    }

    pub fn open_transactions(&self) -> Vec<Xid> {
        self.txs.keys().copied().collect()
    }

    pub fn table_defs(&self) -> Vec<&TableDef> {
        self.replica.tables.iter().map(|t| &t.def).collect()
    }

    pub fn columns(&self, table: usize) -> &[ColumnInfo] {
        &self.replica.tables[table].columns
    }

    pub fn is_iot(&self, table: usize) -> bool {
        self.replica.tables[table].def.organization == Organization::IndexOrganized
    }
}

/// Take the directory's writer lock (one writer at a time, like one instance).
/// Redo bytes after a checkpoint that make the next one due (about 250k rows of redo: a
/// second of replay).
pub const CHECKPOINT_AFTER_BYTES: u64 = 64 << 20;

fn lock_dir(dir: &Path) -> Result<File> {
    crate::state::lock_with_pid(&dir.join(LOCK_FILE))?.map_err(|pid| CdcError::EmulatorBusy {
        path: dir.to_path_buf(),
        pid,
    })
}
