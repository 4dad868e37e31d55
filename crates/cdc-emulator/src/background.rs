//! What a database writes into its redo besides the application's changes, so the emulated
//! V$LOGMNR_CONTENTS holds what a real one does (oracle-facts §8, "Filtering"): recursive SYS
//! transactions on the dictionary, Oracle's internal DDL, materialized view log rows, and other
//! users' transactions on their own schemas.
//!
//! Shapes, as LogMiner shows them with NO_ROWID_IN_STMT and the session NLS of oracle-facts §5:
//! - SYS dictionary DML runs in transactions of its own with USERNAME `SYS`, SEG_OWNER `SYS`:
//!   a sequence cache refill updates `SYS.SEQ$.HIGHWATER`; DML monitoring (flushed by SMON
//!   every 15 minutes, or by `DBMS_STATS.FLUSH_DATABASE_MONITORING_INFO`) inserts and updates
//!   `SYS.MON_MODS_ALL$` (OBJ#, INSERTS, UPDATES, DELETES, TIMESTAMP, FLAGS, DROP_SEGMENTS);
//!   column usage monitoring updates `SYS.COL_USAGE$` (OBJ#, INTCOL#, EQUALITY_PREDS, …,
//!   TIMESTAMP). In a CDB each container has its own dictionary: the SYS transaction runs in
//!   the PDB of the object it is about (SRC_CON_NAME). Object numbers of the SYS tables are
//!   plausible, not taken from a real dictionary; nothing reads them.
//! - Internal DDL: a DDL row (OPERATION_CODE 5) whose INFO starts with `INTERNAL DDL` (user DDL
//!   has `USER DDL (PlSql=0 RecDep=0)`, oracle-facts §6; Debezium skips rows whose INFO starts
//!   with `INTERNAL DDL`, in its query and again in its DDL handling). The text after the prefix
//!   is not confirmed; this emulator writes `INTERNAL DDL (PlSql=0 RecDep=0)`. The statements:
//!   an automatic index Oracle creates on a schema table (SEG_OWNER/TABLE_NAME the table's) and
//!   the temporary table `SYS.ORA_TEMP_1_DS_<n>` statistics gathering creates and drops
//!   (Debezium once kept `ORA_TEMP_%` DDL out of its query for that reason).
//! - A materialized view log (`CREATE MATERIALIZED VIEW LOG ON t WITH PRIMARY KEY`, or WITH
//!   ROWID on a table without a key) is the table `MLOG$_<t>` in t's schema; each change to t
//!   inserts one row in the same transaction: the key (or `M_ROW$$`, the ROWID),
//!   `SNAPTIME$$` = 4000-01-01 until a refresh, `DMLTYPE$$` I/U/D, `OLD_NEW$$` N/U/O,
//!   `CHANGE_VECTOR$$` and `XID$$` (the transaction id as a number).
//! - Other users: a table with `background_transactions: N` gets N transactions of its owner
//!   (USERNAME = the owner) per workload transaction, on that table alone.
//!
//! The draws use a generator of their own, so a workload seed makes the same application
//! transactions with or without background activity.

use super::redo::Xid;
use super::schema::BackgroundSpec;
use super::sql_redo::{self, Col};
use super::store::TableState;
use super::writer::Writer;
use crate::errors::Result;
use crate::names::TableName;
use crate::types::{ColumnType, Value};
use cdc_core::model::{op, Organization};
use cdc_core::rowid::RowId;
use cdc_core::types::ToCompactString;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A change Oracle makes itself (written as `Redo::Other`).
#[derive(Debug, Clone)]
pub struct OtherChange {
    pub op: u32,
    pub owner: String,
    pub table: String,
    pub pdb: Option<String>,
    pub obj: u32,
    pub rid: String,
    pub sql: String,
    pub info: Option<String>,
}

/// INFO of Oracle's own DDL rows (prefix as Debezium tests it; the rest is the user DDL form).
pub const INTERNAL_DDL_INFO: &str = "INTERNAL DDL (PlSql=0 RecDep=0)";

/// SYS tables the background changes, with a data object number each.
const SEQ: (&str, u32) = ("SEQ$", 74);
const MON_MODS: (&str, u32) = ("MON_MODS_ALL$", 472);
const COL_USAGE: (&str, u32) = ("COL_USAGE$", 456);

/// Data object numbers of materialized view logs start here (after the schema's tables).
const MLOG_OBJECT_BASE: u32 = 90_000;

fn number(n: u64) -> Value {
    Value::Number(n.to_compact_string())
}

fn num_type() -> ColumnType {
    ColumnType::Number {
        precision: None,
        scale: None,
    }
}

/// `"MLOG$_<TABLE>"`: Oracle keeps the first 20 characters of the master's name.
pub fn mview_log_name(table: &str) -> String {
    let short: String = table.chars().take(20).collect();
    format!("{}_{short}", cdc_core::filter::MVIEW_LOG_PREFIX)
}

/// The `MLOG$_<table>` row of one change to `t` (table number `tab`, redo record `n`).
pub fn mview_log_row(
    t: &TableState,
    tab: usize,
    n: u64,
    xid: Xid,
    rid: RowId,
    row: &[Value],
    dml: char,
) -> OtherChange {
    let name = TableName {
        pdb: t.def.name.pdb.clone(),
        owner: t.def.name.owner.clone(),
        table: mview_log_name(&t.def.name.table),
    };
    let date = ColumnType::Date;
    let v1 = ColumnType::varchar2(1);
    let raw = ColumnType::Raw { length: 255 };
    let rowid_type = ColumnType::varchar2(255);
    let num = num_type();
    let snaptime = Value::Date("4000-01-01 00:00:00".into());
    let kind = Value::Text(dml.to_compact_string());
    let old_new = Value::Text(
        match dml {
            'I' => "N",
            'D' => "O",
            _ => "U",
        }
        .into(),
    );
    let vector = Value::Bytes(vec![0xfe]);
    let xid_number =
        number((u64::from(xid.usn) << 48) | (u64::from(xid.slot) << 32) | u64::from(xid.sqn));
    let rowid_text = Value::Text(rid.encode().into());
    let cols = t.columns_at(u64::MAX);
    let mut items: Vec<Col> = Vec::new();
    if t.def.primary_key.is_empty() {
        items.push(("M_ROW$$", &rowid_type, &rowid_text));
    } else {
        for k in &t.def.primary_key {
            if let Some(i) = cols.iter().position(|c| &c.name == k) {
                if let Some(v) = row.get(i) {
                    items.push((k.as_str(), &cols[i].data_type, v));
                }
            }
        }
    }
    items.push(("SNAPTIME$$", &date, &snaptime));
    items.push(("DMLTYPE$$", &v1, &kind));
    items.push(("OLD_NEW$$", &v1, &old_new));
    items.push(("CHANGE_VECTOR$$", &raw, &vector));
    items.push(("XID$$", &num, &xid_number));
    let obj = MLOG_OBJECT_BASE + tab as u32;
    OtherChange {
        op: op::INSERT,
        sql: sql_redo::insert(&name, &items),
        owner: name.owner,
        table: name.table,
        pdb: name.pdb,
        obj,
        rid: system_rowid(obj, 4, n),
        info: None,
    }
}

/// A ROWID in the segment of object `obj` in file `fno`, distinct per redo record `n`.
fn system_rowid(obj: u32, fno: u32, n: u64) -> String {
    RowId {
        data_object: obj,
        relative_fno: fno,
        block: 1_000 + (n / 50) as u32,
        slot: (n % 50) as u32,
    }
    .encode()
}

/// Drives the background activity, one step per workload transaction.
pub struct Background {
    spec: BackgroundSpec,
    rng: ChaCha8Rng,
    transactions: u64,
    /// Sequence high-water mark, DML monitoring counts, column usage counts.
    highwater: u64,
    monitored: std::collections::HashMap<u32, (u64, u64, u64)>,
    predicates: std::collections::HashMap<(u32, u32), u64>,
    temp_tables: u64,
}

impl Background {
    pub fn new(spec: BackgroundSpec, seed: u64) -> Background {
        Background {
            spec,
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0xBAC6_0000_5EED_0001),
            transactions: 0,
            highwater: 1_000,
            monitored: Default::default(),
            predicates: Default::default(),
            temp_tables: 0,
        }
    }

    /// After each workload transaction: what is due of SYS's work and the other users'.
    pub fn after_transaction(&mut self, w: &mut Writer) -> Result<()> {
        self.transactions += 1;
        let due = |every: u64, n: u64| every > 0 && n.is_multiple_of(every);
        if due(self.spec.sys_every, self.transactions) {
            self.sys_transaction(w)?;
        }
        if due(self.spec.internal_ddl_every, self.transactions) {
            self.internal_ddl(w)?;
        }
        for table in 0..w.replica().tables.len() {
            for _ in 0..w.replica().tables[table].def.background_transactions {
                self.owner_transaction(w, table)?;
            }
        }
        Ok(())
    }

    /// A schema table at random (the object a SYS change is about), if there is one.
    fn some_table(&mut self, w: &Writer) -> Option<usize> {
        let n = w.replica().tables.len();
        (n > 0).then(|| self.rng.gen_range(0..n))
    }

    /// One recursive SYS transaction: a sequence refill, DML monitoring or column usage.
    fn sys_transaction(&mut self, w: &mut Writer) -> Result<()> {
        let table = self.some_table(w);
        let (obj, pdb, columns) = match table {
            Some(t) => {
                let s = &w.replica().tables[t];
                (s.table_object_id(), s.def.name.pdb.clone(), s.columns.len())
            }
            None => (0, None, 0),
        };
        // The PDB's own ALL COLUMN logging counts for its tables.
        let all = (w.replica().schema.database)
            .supplemental_in(pdb.as_deref())
            .all;
        let now = chrono::DateTime::from_timestamp_millis(w.now())
            .map(|t| t.format("%Y-%m-%d %H:%M:%S").to_string())
            .unwrap_or_default();
        let n = w.replica().next_record();
        let num = num_type();
        let date = ColumnType::Date;
        let change = match self.rng.gen_range(0..3) {
            0 => {
                let (before, after) = (self.highwater, self.highwater + 20);
                self.highwater = after;
                let (b, a) = (number(before), number(after));
                let (seq_obj, inc, cache) = (number(u64::from(obj) + 1), number(1), number(20));
                let mut wh: Vec<Col> = Vec::new();
                if all {
                    wh.push(("OBJ#", &num, &seq_obj));
                    wh.push(("INCREMENT$", &num, &inc));
                    wh.push(("CACHE", &num, &cache));
                }
                wh.push(("HIGHWATER", &num, &b));
                let sql = sql_redo::update(&sys(SEQ.0), &[("HIGHWATER", &num, &a)], &wh);
                sys_change(op::UPDATE, SEQ, pdb, n, sql)
            }
            1 => {
                let before = self.monitored.get(&obj).copied();
                let (i, u, d) = before.unwrap_or((0, 0, 0));
                let after = (
                    i + self.rng.gen_range(0..50),
                    u + self.rng.gen_range(0..50),
                    d + self.rng.gen_range(0..10),
                );
                self.monitored.insert(obj, after);
                let (oi, ou, od) = (number(i), number(u), number(d));
                let (ni, nu, nd) = (number(after.0), number(after.1), number(after.2));
                let (o, ts, zero) = (number(u64::from(obj)), Value::Date(now.into()), number(0));
                let sql = if before.is_none() {
                    let cols: Vec<Col> = vec![
                        ("OBJ#", &num, &o),
                        ("INSERTS", &num, &ni),
                        ("UPDATES", &num, &nu),
                        ("DELETES", &num, &nd),
                        ("TIMESTAMP", &date, &ts),
                        ("FLAGS", &num, &zero),
                        ("DROP_SEGMENTS", &num, &zero),
                    ];
                    sql_redo::insert(&sys(MON_MODS.0), &cols)
                } else {
                    let set: Vec<Col> = vec![
                        ("INSERTS", &num, &ni),
                        ("UPDATES", &num, &nu),
                        ("DELETES", &num, &nd),
                        ("TIMESTAMP", &date, &ts),
                    ];
                    let mut wh: Vec<Col> = Vec::new();
                    if all {
                        wh.push(("OBJ#", &num, &o));
                    }
                    wh.extend([
                        ("INSERTS", &num, &oi),
                        ("UPDATES", &num, &ou),
                        ("DELETES", &num, &od),
                    ]);
                    sql_redo::update(&sys(MON_MODS.0), &set, &wh)
                };
                let code = if before.is_none() {
                    op::INSERT
                } else {
                    op::UPDATE
                };
                sys_change(code, MON_MODS, pdb, n, sql)
            }
            _ => {
                let intcol = self.rng.gen_range(1..=columns.max(1)) as u32;
                let count = self.predicates.entry((obj, intcol)).or_insert(0);
                let (before, after) = (*count, *count + 1);
                *count = after;
                let (o, c) = (number(u64::from(obj)), number(u64::from(intcol)));
                let (b, a, ts) = (number(before), number(after), Value::Date(now.into()));
                let mut wh: Vec<Col> = Vec::new();
                if all {
                    wh.push(("OBJ#", &num, &o));
                    wh.push(("INTCOL#", &num, &c));
                }
                wh.push(("EQUALITY_PREDS", &num, &b));
                let set: Vec<Col> = vec![("EQUALITY_PREDS", &num, &a), ("TIMESTAMP", &date, &ts)];
                let sql = sql_redo::update(&sys(COL_USAGE.0), &set, &wh);
                sys_change(op::UPDATE, COL_USAGE, pdb, n, sql)
            }
        };
        let xid = w.begin_as(Some("SYS"))?;
        w.other(xid, change)?;
        w.commit(&[xid]).map(|_| ())
    }

    /// One DDL row of Oracle's own, in a SYS transaction.
    fn internal_ddl(&mut self, w: &mut Writer) -> Result<()> {
        let n = w.replica().next_record();
        let heap = self
            .some_table(w)
            .filter(|&t| w.replica().tables[t].def.organization == Organization::Heap);
        let change = match (heap, self.rng.gen_range(0..2)) {
            (Some(t), 0) => {
                let s = &w.replica().tables[t];
                let column = s
                    .columns
                    .get(self.rng.gen_range(0..s.columns.len().max(1)))
                    .map(|c| c.name.clone())
                    .unwrap_or_default();
                let name = &s.def.name;
                let sql = format!(
                    "CREATE INDEX \"{}\".\"SYS_AI_{:013x}\" ON {}(\"{column}\") TABLESPACE \"USERS\" INVISIBLE UNUSABLE",
                    name.owner,
                    self.rng.gen::<u64>() & 0xf_ffff_ffff_ffff,
                    name.quoted()
                );
                OtherChange {
                    op: op::DDL,
                    owner: name.owner.clone(),
                    table: name.table.clone(),
                    pdb: name.pdb.clone(),
                    obj: s.table_object_id(),
                    rid: cdc_core::rowid::LOB_ROWID.into(),
                    sql,
                    info: Some(INTERNAL_DDL_INFO.into()),
                }
            }
            _ => {
                self.temp_tables += 1;
                let table = format!("ORA_TEMP_1_DS_{}", 3_000 + self.temp_tables);
                let pdb = heap.and_then(|t| w.replica().tables[t].def.name.pdb.clone());
                let sql = if self.rng.gen_bool(0.5) {
                    format!("create global temporary table \"SYS\".\"{table}\" on commit preserve rows cache noparallel as select /*+ no_parallel */ * from dual where 1 = 0")
                } else {
                    format!("drop table \"SYS\".\"{table}\" purge")
                };
                OtherChange {
                    op: op::DDL,
                    owner: "SYS".into(),
                    table,
                    pdb,
                    obj: 95_000 + (n % 1_000) as u32,
                    rid: cdc_core::rowid::LOB_ROWID.into(),
                    sql,
                    info: Some(INTERNAL_DDL_INFO.into()),
                }
            }
        };
        let xid = w.begin_as(Some("SYS"))?;
        w.other(xid, change)?;
        w.commit(&[xid]).map(|_| ())
    }

    /// A transaction of `table`'s owner on that table alone: one to three inserts, updates or
    /// deletes.
    fn owner_transaction(&mut self, w: &mut Writer, table: usize) -> Result<()> {
        let owner = w.replica().tables[table].def.name.owner.clone();
        let xid = w.begin_as(Some(&owner))?;
        for _ in 0..self.rng.gen_range(1..=3) {
            let roll = self.rng.gen_range(0..10);
            let picked = if roll >= 6 {
                super::workload::pick_row(w, &mut self.rng, xid, table)
            } else {
                None
            };
            match picked {
                Some(rid) if roll == 9 => w.delete(xid, table, rid)?,
                Some(rid) => {
                    let Some(mut row) = w.row(Some(xid), table, rid) else {
                        continue;
                    };
                    super::workload::change_some_columns(w, &mut self.rng, table, &mut row);
                    w.update(xid, table, rid, row)?;
                }
                None => {
                    let serial = w.serials[table] + 1;
                    w.serials[table] = serial;
                    let row = super::workload::new_row(w, table, &mut self.rng, serial)?;
                    w.insert(xid, table, row)?;
                }
            }
        }
        w.commit(&[xid]).map(|_| ())
    }
}

fn sys(table: &str) -> TableName {
    TableName::new(None, "SYS", table)
}

fn sys_change(
    code: u32,
    (table, obj): (&str, u32),
    pdb: Option<String>,
    n: u64,
    sql: String,
) -> OtherChange {
    OtherChange {
        op: code,
        owner: "SYS".into(),
        table: table.into(),
        pdb,
        obj,
        // The dictionary lives in the SYSTEM tablespace, relative file 1.
        rid: system_rowid(obj, 1, n),
        sql,
        info: None,
    }
}
