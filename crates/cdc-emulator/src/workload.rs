//! The emulator's workload: seeded transactions with the shapes CDC must survive.

use super::generate::ColumnGen;
use super::redo::{DdlChange, Xid};
use super::writer::Writer;
use crate::errors::{CdcError, Result};
use crate::types::{ColumnType, Value};
use cdc_core::model::{ColumnInfo, Scn};
use cdc_core::rowid::RowId;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// The key value of row `serial` in a key column of `table` (see [`super::key_gen`]); a type
/// with no room left for another key is CDC-4006, naming the column.
pub fn key_value(w: &Writer, table: usize, col: &ColumnInfo, serial: u64) -> Result<Value> {
    super::key_gen::key_value(&col.data_type, serial).map_err(|e| {
        CdcError::Workload(format!(
            "{}.{}: {e}",
            w.replica().tables[table].def.name,
            col.name
        ))
    })
}

pub(super) fn gen_for(w: &Writer, table: usize, col: &ColumnInfo) -> ColumnGen {
    let def = &w.replica().tables[table].def;
    def.columns
        .iter()
        .position(|c| c.name == col.name && c.data_type == col.data_type)
        .map(|i| def.generators[i].clone())
        .unwrap_or_else(|| ColumnGen::by_type(&col.data_type))
}

pub(super) fn is_key(w: &Writer, table: usize, col: &str) -> bool {
    let def = &w.replica().tables[table].def;
    def.primary_key.iter().any(|k| k == col)
        || def.unique_keys.iter().any(|u| u.iter().any(|k| k == col))
        || def
            .unique_indexes
            .iter()
            .any(|u| u.iter().any(|k| k == col))
}

/// A new row for `table` with serial `serial`: key columns (primary and unique) from the
/// serial, the others from their generators.
pub fn new_row(w: &Writer, table: usize, rng: &mut ChaCha8Rng, serial: u64) -> Result<Vec<Value>> {
    w.columns(table)
        .iter()
        .map(|c| {
            if is_key(w, table, &c.name) {
                key_value(w, table, c, serial)
            } else {
                let v = gen_for(w, table, c).value(rng, serial);
                if v.is_null() && !c.nullable {
                    Ok(ColumnGen::by_type(&c.data_type).value(rng, serial))
                } else {
                    Ok(v)
                }
            }
        })
        .collect()
}

/// A random row of `table` visible to `xid` and not locked by another transaction.
pub(super) fn pick_row(w: &Writer, rng: &mut ChaCha8Rng, xid: Xid, table: usize) -> Option<RowId> {
    for _ in 0..8 {
        let t = &w.replica().tables[table];
        // A clustered table's rows are in its cluster's extents.
        let extents = &w.replica().tables[w.replica().segment_table(table)].extents;
        if extents.is_empty() {
            return None;
        }
        let (_, e) = &extents[rng.gen_range(0..extents.len())];
        let probe = RowId {
            data_object: e.data_object_id as u32,
            relative_fno: e.rowid_fno(),
            block: (e.block_id + rng.gen_range(0..e.blocks)) as u32,
            slot: 0,
        };
        let found =
            t.rows.range(probe..).map(|(r, _)| *r).take(64).find(|r| {
                w.row(Some(xid), table, *r).is_some() && !w.locked_by_other(xid, table, *r)
            });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// New values for one to three columns of `row` that are neither key nor partition key;
/// `false` when the table has no such column.
pub(super) fn change_some_columns(
    w: &Writer,
    rng: &mut ChaCha8Rng,
    table: usize,
    row: &mut [Value],
) -> bool {
    let cols = w.columns(table);
    let part_col = w.replica().tables[table]
        .def
        .partitions
        .as_ref()
        .map(|p| p.column.clone());
    let candidates: Vec<usize> = (0..cols.len())
        .filter(|&i| !is_key(w, table, &cols[i].name) && Some(&cols[i].name) != part_col.as_ref())
        .collect();
    if candidates.is_empty() {
        return false;
    }
    let n = rng.gen_range(1..=candidates.len().min(3));
    for _ in 0..n {
        let ci = candidates[rng.gen_range(0..candidates.len())];
        let serial = w.serials[table];
        let v = gen_for(w, table, &cols[ci]).value(rng, serial);
        if let Some(slot) = row.get_mut(ci) {
            *slot = if v.is_null() && !cols[ci].nullable {
                slot.clone()
            } else {
                v
            };
        }
    }
    true
}

/// What a workload writes. [`Default`] is what `oracle-cdc emulator workload` runs with when no
/// flag is given, so a test or bench names only what it changes (`..WorkloadOptions::default()`)
/// and a new option is added in two places, not at every caller.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadOptions {
    pub transactions: Option<u64>,
    pub duration: Option<Duration>,
    pub rate: u32,
    pub mix: (u32, u32, u32),
    pub tx_size: (u32, u32),
    pub rollback_pct: u8,
    pub savepoint_pct: u8,
    pub key_update_pct: u8,
    pub row_move_pct: u8,
    pub long_every: u64,
    pub long_span: u64,
    pub ddl_every: u64,
    /// CREATE TABLE every N transactions (0: never): a copy of the first table's layout,
    /// named `<TABLE>_NEW<k>`, that later transactions change too.
    pub create_table_every: u64,
    /// TRUNCATE TABLE of one of the tables every N transactions (0: never).
    pub truncate_every: u64,
    /// ALTER TABLE … MOVE of one of the tables (MOVE PARTITION of one partition of a
    /// partitioned one) every N transactions (0: never): its rows get ROWIDs with a new data
    /// object number.
    pub move_every: u64,
    pub shared_commit_pct: u8,
    pub tables: Vec<crate::names::TableName>,
    pub seed: u64,
    /// Percent of the LOB-like values written (CLOB, NCLOB, BLOB, JSON, XMLTYPE, extended
    /// VARCHAR2) made longer than a row keeps: written out of line, in LOB_WRITE (XML DOC
    /// WRITE, 32K_WRITE) rows. Drawn from a random source of its own, so the other choices of
    /// a seed stay the same.
    pub lob_pct: u8,
    /// Percent of updates of a row with a CLOB or BLOB value that change it piece by piece
    /// through its locator (DBMS_LOB.WRITE at an offset, ERASE, TRIM) instead of an UPDATE:
    /// LogMiner's rows then lack the LOB's earlier content, and capture reports CDC-3005.
    pub lob_edit_pct: u8,
    /// Every N transactions (0: never) the next begins after the database's SCN was raised by
    /// `scn_jump` SCNs, as a database link to a database further ahead raises it
    /// ([`crate::writer::Writer::raise_scn`]): a range of SCNs with no redo.
    pub scn_jump_every: u64,
    pub scn_jump: u64,
}

/// The CLI's defaults (`EmulatorWorkloadArgs` in src/cli/args.rs; a test there checks they
/// agree). No transaction count and no duration: the workload runs until its stop closure says
/// so (the CLI asks for one of them).
impl Default for WorkloadOptions {
    fn default() -> Self {
        WorkloadOptions {
            transactions: None,
            duration: None,
            rate: 100,
            mix: (40, 45, 15),
            tx_size: (1, 5),
            rollback_pct: 5,
            savepoint_pct: 5,
            key_update_pct: 2,
            row_move_pct: 5,
            long_every: 50,
            long_span: 20,
            ddl_every: 0,
            create_table_every: 0,
            truncate_every: 0,
            move_every: 0,
            shared_commit_pct: 3,
            tables: Vec::new(),
            seed: 1,
            lob_pct: 10,
            lob_edit_pct: 0,
            scn_jump_every: 0,
            scn_jump: 1_000_000_000,
        }
    }
}

impl WorkloadOptions {
    /// Parse `insert=40,update=45,delete=15`.
    pub fn parse_mix(text: &str) -> Result<(u32, u32, u32)> {
        let mut mix = (0, 0, 0);
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| CdcError::Workload(format!("--mix `{part}` is not OP=WEIGHT")))?;
            let v: u32 = v.trim().parse().map_err(|_| {
                CdcError::Workload(format!("--mix weight `{v}` is not a whole number"))
            })?;
            match k.trim() {
                "insert" => mix.0 = v,
                "update" => mix.1 = v,
                "delete" => mix.2 = v,
                other => {
                    return Err(CdcError::Workload(format!(
                        "--mix names `{other}`; use insert, update and delete"
                    )))
                }
            }
        }
        if mix.0 + mix.1 + mix.2 == 0 {
            return Err(CdcError::Workload("--mix weights sum to zero".into()));
        }
        Ok(mix)
    }

    /// Parse `1..5`.
    pub fn parse_range(text: &str) -> Result<(u32, u32)> {
        let (a, b) = text.split_once("..").unwrap_or((text, text));
        let a: u32 = a
            .trim()
            .parse()
            .map_err(|_| CdcError::Workload(format!("--tx-size `{text}` is not MIN..MAX")))?;
        let b: u32 = b
            .trim()
            .parse()
            .map_err(|_| CdcError::Workload(format!("--tx-size `{text}` is not MIN..MAX")))?;
        if a == 0 || a > b {
            return Err(CdcError::Workload(format!(
                "--tx-size `{text}` needs 1 <= MIN <= MAX"
            )));
        }
        Ok((a, b))
    }
}

#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct WorkloadSummary {
    pub committed: u64,
    pub rolled_back: u64,
    pub inserts: u64,
    pub updates: u64,
    pub deletes: u64,
    pub savepoint_rollbacks: u64,
    pub key_updates: u64,
    pub row_moves: u64,
    pub ddl: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub tables_created: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub truncates: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub moves: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub lob_edits: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub scn_jumps: u64,
    pub long_transactions: u64,
    pub first_scn: Scn,
    pub last_scn: Scn,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

struct Long {
    xid: Xid,
    close_at: u64,
}

pub struct Workload<'a> {
    w: &'a mut Writer,
    o: WorkloadOptions,
    rng: ChaCha8Rng,
    tables: Vec<usize>,
    s: WorkloadSummary,
    /// The LOB choices' own random source (see [`WorkloadOptions::lob_pct`]).
    lob_rng: ChaCha8Rng,
    added_columns: u64,
    /// What Oracle and other users write meanwhile (database.background and the tables'
    /// background_transactions).
    background: super::background::Background,
}

impl<'a> Workload<'a> {
    pub fn new(w: &'a mut Writer, o: WorkloadOptions) -> Result<Workload<'a>> {
        let tables = if o.tables.is_empty() {
            (0..w.replica().tables.len()).collect()
        } else {
            o.tables
                .iter()
                .map(|t| {
                    w.replica()
                        .table_index(t)
                        .ok_or_else(|| CdcError::UnknownTable {
                            table: t.to_string(),
                            hint: String::new(),
                        })
                })
                .collect::<Result<Vec<_>>>()?
        };
        // Only PDBs open READ WRITE take transactions.
        let tables: Vec<usize> = tables
            .into_iter()
            .filter(|&t| {
                w.replica().tables[t]
                    .def
                    .name
                    .pdb
                    .as_deref()
                    .is_none_or(|p| {
                        super::access::pdb_mode(&w.replica().schema, p)
                            == super::access::PdbOpenMode::ReadWrite
                    })
            })
            .collect();
        if tables.is_empty() {
            return Err(CdcError::Workload(
                "the database has no tables open for writing".into(),
            ));
        }
        let rng = ChaCha8Rng::seed_from_u64(o.seed);
        let background = super::background::Background::new(
            w.replica().schema.database.background.clone(),
            o.seed,
        );
        let first = w.replica().current_scn;
        let lob_rng = ChaCha8Rng::seed_from_u64(o.seed ^ 0x10b5_10b5_10b5_10b5);
        Ok(Workload {
            w,
            o,
            rng,
            lob_rng,
            tables,
            s: WorkloadSummary {
                first_scn: first,
                ..Default::default()
            },
            added_columns: 0,
            background,
        })
    }

    /// Run until the count or the duration is reached (or `stop` says so).
    pub fn run(mut self, stop: &dyn Fn() -> bool) -> Result<WorkloadSummary> {
        let start = Instant::now();
        let mut longs: Vec<Long> = Vec::new();
        let mut held: Option<Xid> = None;
        let mut i: u64 = 0;
        loop {
            if stop()
                || self.o.transactions.is_some_and(|n| i >= n)
                || self.o.duration.is_some_and(|d| start.elapsed() >= d)
            {
                break;
            }
            if self.o.rate > 0 {
                let due = Duration::from_secs_f64(i as f64 / f64::from(self.o.rate));
                if let Some(wait) = due.checked_sub(start.elapsed()) {
                    std::thread::sleep(wait);
                }
            }
            i += 1;
            if self.o.long_every > 0 && i.is_multiple_of(self.o.long_every) {
                let xid = self.w.begin()?;
                self.some_changes(xid, 1)?;
                longs.push(Long {
                    xid,
                    close_at: i + self.o.long_span,
                });
                self.s.long_transactions += 1;
            }
            if self.o.ddl_every > 0 && i.is_multiple_of(self.o.ddl_every) {
                self.ddl()?;
            }
            if self.o.create_table_every > 0 && i.is_multiple_of(self.o.create_table_every) {
                self.create_table()?;
            }
            if self.o.truncate_every > 0 && i.is_multiple_of(self.o.truncate_every) {
                self.truncate()?;
            }
            if self.o.scn_jump_every > 0 && i.is_multiple_of(self.o.scn_jump_every) {
                self.w.raise_scn(self.o.scn_jump);
                self.s.scn_jumps += 1;
            }
            if self.o.move_every > 0 && i.is_multiple_of(self.o.move_every) {
                self.move_segment()?;
            }
            // A regular transaction.
            let xid = self.w.begin()?;
            let size = self.rng.gen_range(self.o.tx_size.0..=self.o.tx_size.1);
            if self.rng.gen_range(0..100) < self.o.savepoint_pct {
                let before = size / 2;
                self.some_changes(xid, before.max(1))?;
                let sp = self.w.savepoint(xid)?;
                self.some_changes(xid, (size - before).max(1))?;
                self.w.rollback_to(xid, sp)?;
                self.s.savepoint_rollbacks += 1;
                self.some_changes(xid, 1)?;
            } else {
                self.some_changes(xid, size)?;
            }
            if self.rng.gen_range(0..100) < self.o.rollback_pct {
                self.w.rollback(xid)?;
                self.s.rolled_back += 1;
            } else if let Some(prev) = held.take() {
                self.w.commit(&[prev, xid])?;
                self.s.committed += 2;
            } else if self.rng.gen_range(0..100) < self.o.shared_commit_pct {
                // Commit it together with the next one, at one SCN.
                held = Some(xid);
            } else {
                self.w.commit(&[xid])?;
                self.s.committed += 1;
            }
            self.background.after_transaction(self.w)?;
            // Long transactions keep changing, then end.
            let mut k = 0;
            while k < longs.len() {
                if longs[k].close_at <= i {
                    let l = longs.remove(k);
                    self.end_long(l.xid)?;
                } else {
                    if self.rng.gen_range(0..4) == 0 {
                        let x = longs[k].xid;
                        self.some_changes(x, 1)?;
                    }
                    k += 1;
                }
            }
        }
        if let Some(prev) = held.take() {
            self.w.commit(&[prev])?;
            self.s.committed += 1;
        }
        for l in longs {
            self.end_long(l.xid)?;
        }
        self.w.flush()?;
        self.w.checkpoint_if_due()?;
        self.s.last_scn = self.w.replica().current_scn;
        Ok(self.s)
    }

    fn end_long(&mut self, xid: Xid) -> Result<()> {
        if self.rng.gen_range(0..5) == 0 {
            self.w.rollback(xid)?;
            self.s.rolled_back += 1;
        } else {
            self.w.commit(&[xid])?;
            self.s.committed += 1;
        }
        Ok(())
    }

    /// The tables a transaction may change: those of its PDB (a transaction stays in one
    /// container); a transaction that changed nothing yet picks a PDB first.
    fn tables_for(&mut self, xid: Xid) -> Vec<usize> {
        let pdb_of = |w: &Writer, t: usize| w.replica().tables[t].def.name.pdb.clone();
        let first = self.tables.first().map(|&t| pdb_of(self.w, t));
        if self
            .tables
            .iter()
            .all(|&t| Some(pdb_of(self.w, t)) == first)
        {
            // One container: nothing to choose (and no draw, so seeds replay as before).
            return self.tables.clone();
        }
        let pdb = match self.w.container_of(xid) {
            Some(p) => Some(p.to_string()),
            None => {
                let t = self.tables[self.rng.gen_range(0..self.tables.len())];
                pdb_of(self.w, t)
            }
        };
        let same: Vec<usize> = self
            .tables
            .iter()
            .copied()
            .filter(|&t| pdb_of(self.w, t) == pdb)
            .collect();
        if same.is_empty() {
            self.tables.clone()
        } else {
            same
        }
    }

    fn some_changes(&mut self, xid: Xid, n: u32) -> Result<()> {
        let tables = self.tables_for(xid);
        for _ in 0..n {
            let table = tables[self.rng.gen_range(0..tables.len())];
            let (a, b, c) = self.o.mix;
            let roll = self.rng.gen_range(0..a + b + c);
            if roll >= a {
                if let Some(rid) = self.pick_row(xid, table) {
                    if roll < a + b {
                        self.update(xid, table, rid)?;
                    } else {
                        self.w.delete(xid, table, rid)?;
                        self.s.deletes += 1;
                    }
                    continue;
                }
            }
            let serial = self.w.serials[table] + 1;
            self.w.serials[table] = serial;
            let mut row = new_row(self.w, table, &mut self.rng, serial)?;
            self.enlarge(table, &mut row, None);
            self.w.insert(xid, table, row)?;
            self.s.inserts += 1;
        }
        Ok(())
    }

    /// A random row visible to `xid` and not locked by another transaction.
    fn pick_row(&mut self, xid: Xid, table: usize) -> Option<RowId> {
        pick_row(self.w, &mut self.rng, xid, table)
    }

    fn update(&mut self, xid: Xid, table: usize, rid: RowId) -> Result<()> {
        let Some(mut row) = self.w.row(Some(xid), table, rid) else {
            return Ok(());
        };
        if self.o.lob_edit_pct > 0 && self.lob_rng.gen_range(0..100) < self.o.lob_edit_pct {
            if let Some((col, ops)) =
                super::lob_edit::plan(self.w.columns(table), &row, &mut self.lob_rng)
            {
                self.w.lob_edit(xid, table, rid, col, ops)?;
                self.s.lob_edits += 1;
                self.s.updates += 1;
                return Ok(());
            }
        }
        let original = row.clone();
        let cols: Vec<ColumnInfo> = self.w.columns(table).to_vec();
        let def = self.w.replica().tables[table].def.clone();
        let part_col = def.partitions.as_ref().map(|p| p.column.clone());
        let mut changed = false;
        // Row movement: a partition-key update that moves the row to another partition.
        if def.row_movement && self.rng.gen_range(0..100) < self.o.row_move_pct {
            if let (Some(p), Some(pc)) = (def.partitions.as_ref(), part_col.as_ref()) {
                if let Some(ci) = cols.iter().position(|c| &c.name == pc) {
                    let current = row[ci].to_string();
                    let other: Vec<&String> = p
                        .list
                        .iter()
                        .flat_map(|l| l.values.iter())
                        .filter(|v| **v != current)
                        .collect();
                    if !other.is_empty() {
                        let v = other[self.rng.gen_range(0..other.len())].clone();
                        if let Ok(val) = gen_for(self.w, table, &cols[ci]).typed(&v) {
                            row[ci] = val;
                            changed = true;
                            self.s.row_moves += 1;
                        }
                    }
                }
            }
        }
        if !changed
            && !def.primary_key.is_empty()
            && !self.w.is_iot(table)
            && self.rng.gen_range(0..100) < self.o.key_update_pct
        {
            let serial = self.w.serials[table] + 1;
            self.w.serials[table] = serial;
            for k in &def.primary_key {
                if let Some(ci) = cols.iter().position(|c| &c.name == k) {
                    row[ci] = key_value(self.w, table, &cols[ci], serial)?;
                }
            }
            changed = true;
            self.s.key_updates += 1;
        }
        if !changed && !change_some_columns(self.w, &mut self.rng, table, &mut row) {
            return Ok(());
        }
        self.enlarge(table, &mut row, Some(&original));
        self.w.update(xid, table, rid, row)?;
        self.s.updates += 1;
        Ok(())
    }

    /// Make some LOB-like values of `row` (those that differ from `before`, when given) longer
    /// than a row keeps, by `lob_pct`.
    fn enlarge(&mut self, table: usize, row: &mut [Value], before: Option<&[Value]>) {
        if self.o.lob_pct == 0 {
            return;
        }
        let cols = self.w.columns(table).to_vec();
        for (i, c) in cols.iter().enumerate() {
            let Some(v) = row.get_mut(i) else { continue };
            if v.is_null() || before.is_some_and(|b| b.get(i) == Some(v)) {
                continue;
            }
            if !super::lob_edit::is_lob_like(&c.data_type) {
                continue;
            }
            if self.lob_rng.gen_range(0..100) < self.o.lob_pct {
                *v = super::lob_edit::large(&c.data_type, v, &mut self.lob_rng);
            }
        }
    }

    /// CREATE TABLE `<first table>_NEW<k>` with the first table's layout; from then on the
    /// workload changes it like the others.
    fn create_table(&mut self) -> Result<()> {
        let Some(template) = self.w.replica().schema.tables.first().cloned() else {
            return Ok(());
        };
        let mut name: crate::names::TableName = template
            .name
            .parse()
            .map_err(|e: String| CdcError::Workload(format!("CREATE TABLE: {e}")))?;
        let base = name.table.clone();
        let mut k = self.s.tables_created + 1;
        loop {
            name.table = format!("{base}_NEW{k}");
            if self.w.replica().table_index(&name).is_none() {
                break;
            }
            k += 1;
        }
        let spec = super::schema::TableSpec {
            name: name.to_string(),
            rows: 0,
            // The layout, not the storage: a new table of its own (the writer puts a table in
            // a cluster only at init).
            cluster: None,
            ..template
        };
        let index = self.w.create_table(&spec)?;
        self.tables.push(index);
        self.s.tables_created += 1;
        Ok(())
    }

    /// TRUNCATE TABLE of a table no transaction holds and no cluster stores (Oracle refuses
    /// one table of a cluster, ORA-03292).
    fn truncate(&mut self) -> Result<()> {
        let candidates: Vec<usize> = self
            .tables
            .iter()
            .copied()
            .filter(|&t| !self.w.table_busy(t) && self.w.replica().tables[t].def.cluster.is_none())
            .collect();
        if candidates.is_empty() {
            return Ok(());
        }
        let table = candidates[self.rng.gen_range(0..candidates.len())];
        self.w.truncate(table)?;
        self.s.truncates += 1;
        Ok(())
    }

    /// ALTER TABLE … MOVE of a heap table no transaction holds and no cluster stores (Oracle
    /// refuses a clustered one, ORA-14512), or MOVE PARTITION of one of its partitions (the
    /// whole of a partitioned one is refused, ORA-14511).
    fn move_segment(&mut self) -> Result<()> {
        let candidates: Vec<usize> = self
            .tables
            .iter()
            .copied()
            .filter(|&t| {
                let def = &self.w.replica().tables[t].def;
                !self.w.table_busy(t)
                    && def.cluster.is_none()
                    && def.organization != cdc_core::model::Organization::IndexOrganized
            })
            .collect();
        if candidates.is_empty() {
            return Ok(());
        }
        let table = candidates[self.rng.gen_range(0..candidates.len())];
        let parts = self.w.replica().tables[table].partition_objects.len();
        let partition = (parts > 0).then(|| self.rng.gen_range(0..parts));
        self.w.move_segment(table, partition)?;
        self.s.moves += 1;
        Ok(())
    }

    /// ADD COLUMN, or DROP COLUMN of one the workload added, on a table no transaction holds.
    fn ddl(&mut self) -> Result<()> {
        let candidates: Vec<usize> = self
            .tables
            .iter()
            .copied()
            .filter(|&t| !self.w.table_busy(t))
            .collect();
        if candidates.is_empty() {
            return Ok(());
        }
        let table = candidates[self.rng.gen_range(0..candidates.len())];
        let added = self
            .w
            .columns(table)
            .iter()
            .find(|c| c.name.starts_with("WL_COL_"))
            .map(|c| c.name.clone());
        let change = match added {
            Some(name) => DdlChange::DropColumn { name },
            None => {
                self.added_columns += 1;
                DdlChange::AddColumn {
                    column: ColumnInfo {
                        name: format!("WL_COL_{}", self.added_columns),
                        data_type: ColumnType::varchar2(30),
                        nullable: true,
                        virtual_column: false,
                        hidden: false,
                    },
                }
            }
        };
        self.w.ddl(table, change)?;
        self.s.ddl += 1;
        Ok(())
    }
}

#[cfg(test)]
#[path = "workload_tests.rs"]
mod tests;
