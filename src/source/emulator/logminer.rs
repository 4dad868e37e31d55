//! V$LOGMNR_CONTENTS rendered from the emulated redo, as LogMiner would show it with
//! DICT_FROM_ONLINE_CATALOG + NO_ROWID_IN_STMT and the NLS settings of oracle-facts §5.

use super::redo::{Redo, Xid};
use super::redo_faults::{self, RedoFaults};
use super::sql_redo::{self, Col, CSF_PIECE_BYTES};
use super::store::{Replica, TableState};
use super::supplemental;
use crate::errors::{CdcError, Result};
use crate::source::filter::MiningFilter;
use crate::source::model::{op, ColumnInfo, LogMinerRow, Scn};
use crate::source::rowid::{RowId, LOB_ROWID};
use crate::types::{ColumnType, Value};

/// Rows with `start <= SCN <= end` that `filter` keeps, in redo order: only redo LGWR has
/// written at `now_ms` (see [`super::lgwr`]); what is still in a log buffer is not in the log
/// files LogMiner reads. The filter is the query's WHERE clause: a row it drops is never built
/// (its SQL_REDO never rendered).
pub fn mine(
    replica: &Replica,
    start: Scn,
    end: Scn,
    now_ms: i64,
    filter: &MiningFilter,
) -> Result<Vec<LogMinerRow>> {
    mine_with_faults(replica, start, end, now_ms, filter, &RedoFaults::default())
}

/// [`mine`], with the SQL_REDO faults `faults` asks for (see [`super::redo_faults`]).
pub fn mine_with_faults(
    replica: &Replica,
    start: Scn,
    end: Scn,
    now_ms: i64,
    filter: &MiningFilter,
    faults: &RedoFaults,
) -> Result<Vec<LogMinerRow>> {
    if end < start {
        return Err(CdcError::InvalidScnRange { start, end });
    }
    let retained = replica.retained_logs();
    for thread_logs in replica.logs.iter() {
        let Some(first) = thread_logs.first() else {
            continue;
        };
        let thread_oldest = retained
            .iter()
            .filter(|l| {
                thread_logs
                    .iter()
                    .any(|t| t.sequence == l.sequence && t.first_record == l.first_record)
            })
            .map(|l| l.first_scn)
            .min()
            .unwrap_or(first.first_scn);
        if start < thread_oldest {
            return Err(CdcError::MissingLogFile {
                scn: start,
                oldest: thread_oldest,
            });
        }
    }
    let first_kept = replica
        .records
        .front()
        .map(|r| r.scn())
        .unwrap_or(replica.current_scn);
    if replica.records_base > 0 && start < first_kept {
        return Err(CdcError::MissingLogFile {
            scn: start,
            oldest: first_kept,
        });
    }
    let from = replica.records.partition_point(|r| r.scn() < start);
    let mut out = Vec::new();
    let mut renderer = Renderer {
        replica,
        out: &mut out,
        window_start: start,
        filter,
        faults,
    };
    let written = replica.written(now_ms);
    for (i, rec) in replica.records.iter().enumerate().skip(from) {
        if rec.scn() > end {
            break;
        }
        let n = replica.records_base + i as u64;
        if replica.is_written(&written, n, rec) {
            renderer.record(n, rec)?;
        }
    }
    Ok(out)
}

struct Renderer<'a> {
    replica: &'a Replica,
    out: &'a mut Vec<LogMinerRow>,
    window_start: Scn,
    filter: &'a MiningFilter,
    faults: &'a RedoFaults,
}

fn timestamp(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.format("%Y-%m-%d %H:%M:%S").to_string())
        .unwrap_or_default()
}

impl Replica {
    /// A moment as the database host's clock shows it, `YYYY-MM-DD HH24:MI:SS` (the DATE
    /// columns LogMiner and V$THREAD fill from the host's time).
    pub fn host_time(&self, ms: i64) -> String {
        timestamp(ms + i64::from(self.schema.database.host_offset_secs()) * 1000)
    }
}

impl Renderer<'_> {
    fn base(&self, n: u64, scn: Scn, ts: i64, xid: Xid, code: u32) -> LogMinerRow {
        let thread = self.replica.xid_thread.get(&xid).copied().unwrap_or(1);
        let sequence = self.replica.sequence_of(thread, n);
        // A transaction whose START lies before the mining window is seen from its middle:
        // LogMiner cannot tell its sequence and shows ffffffff there until its COMMIT/ROLLBACK.
        let partial = code != op::COMMIT
            && code != op::ROLLBACK
            && self
                .replica
                .xid_start
                .get(&xid)
                .is_some_and(|s| *s < self.window_start);
        let (xid_text, xidsqn) = if partial {
            (super::sql_redo::xid(xid.usn, xid.slot, u32::MAX), u32::MAX)
        } else {
            (xid.hex(), xid.sqn)
        };
        let first = self
            .replica
            .logs
            .get(thread as usize - 1)
            .and_then(|l| l.iter().rev().find(|s| s.sequence == sequence))
            .map(|s| s.first_record)
            .unwrap_or(0);
        LogMinerRow {
            scn,
            commit_scn: None,
            start_scn: None,
            timestamp: self.replica.host_time(ts),
            commit_timestamp: None,
            xid: xid_text,
            xidusn: u32::from(xid.usn),
            xidslt: u32::from(xid.slot),
            xidsqn,
            operation_code: code,
            operation: op::name(code).to_string(),
            seg_owner: None,
            table_name: None,
            row_id: LOB_ROWID.to_string(),
            sql_redo: String::new(),
            csf: 0,
            rollback: 0,
            rs_id: sql_redo::rs_id(sequence, n.saturating_sub(first) + 2, 0x10),
            ssn: 0,
            thread,
            sequence,
            status: 0,
            info: None,
            src_con_name: self.con_name(xid),
            username: self
                .replica
                .xid_user
                .get(&xid)
                .unwrap_or(&self.replica.schema.database.workload_user)
                .clone(),
            data_obj: 0,
        }
    }

    /// SRC_CON_NAME: the PDB of the transaction; NULL (empty here) outside a CDB (Utilities
    /// 12.1, "The V$LOGMNR_CONTENTS View in a CDB": "When mining takes place in a non-CDB, the
    /// SRC_CON_xxx columns are NULL").
    fn con_name(&self, xid: Xid) -> String {
        self.con_name_ref(xid).to_string()
    }

    fn con_name_ref(&self, xid: Xid) -> &str {
        if !self.replica.schema.database.multitenant {
            return "";
        }
        self.replica
            .xid_pdb
            .get(&xid)
            .map_or("CDB$ROOT", String::as_str)
    }

    /// Whether the query's WHERE drops a change row of `t` (known before the row is built, so
    /// a dropped row costs no rendering).
    fn drops(&self, code: u32, xid: Xid, t: &TableState) -> bool {
        !self.filter.is_everything()
            && !self.filter.keeps_parts(
                code,
                None,
                Some(&t.def.name.owner),
                Some(&t.def.name.table),
                self.con_name_ref(xid),
            )
    }

    /// Whether the query's WHERE keeps a row with these columns.
    fn keeps(&self, row: &LogMinerRow) -> bool {
        self.filter.keeps(row)
    }

    /// A change's statement from its two column lists (`render`), with the faults asked for
    /// on its table: `COL n` names and storage bytes with STATUS 2 (when every value has a
    /// storage format the emulator writes), quotes not doubled.
    fn statement(
        &self,
        mut row: LogMinerRow,
        t: &TableState,
        cols: &[ColumnInfo],
        a: &[Col],
        b: &[Col],
        render: impl Fn(&[Col], &[Col]) -> String,
    ) -> (LogMinerRow, String) {
        let positional = |items: &[Col]| {
            let with_pos: Option<Vec<_>> = items
                .iter()
                .map(|(n, ty, v)| {
                    let i = cols
                        .iter()
                        .filter(|c| !c.virtual_column)
                        .position(|c| c.name == *n)?;
                    Some((i, *ty, *v))
                })
                .collect();
            redo_faults::positional(&with_pos?)
        };
        let mut sql = None;
        if self.faults.mismatch(&t.def.name) {
            if let (Some(pa), Some(pb)) = (positional(a), positional(b)) {
                let raw = redo_faults::raw();
                let ca: Vec<Col> = pa.iter().map(|(n, v)| (n.as_str(), &raw, v)).collect();
                let cb: Vec<Col> = pb.iter().map(|(n, v)| (n.as_str(), &raw, v)).collect();
                row.status = redo_faults::STATUS_INVALID;
                row.info = Some(redo_faults::DICTIONARY_MISMATCH.into());
                sql = Some(render(&ca, &cb));
            }
        }
        let mut sql = sql.unwrap_or_else(|| render(a, b));
        if self.faults.quotes(&t.def.name) {
            sql = redo_faults::undouble(&sql);
        }
        (row, sql)
    }

    /// Push a statement, cut into CSF pieces.
    fn push_sql(&mut self, row: LogMinerRow, sql: String) {
        let pieces = sql_redo::split_csf(&sql, CSF_PIECE_BYTES);
        let last = pieces.len().saturating_sub(1);
        if pieces.is_empty() {
            self.out.push(row);
            return;
        }
        for (i, piece) in pieces.into_iter().enumerate() {
            let mut r = row.clone();
            r.sql_redo = piece;
            r.csf = u8::from(i < last);
            self.out.push(r);
        }
    }

    fn with_table(&self, mut row: LogMinerRow, t: &TableState, rid: &str) -> LogMinerRow {
        row.seg_owner = Some(t.def.name.owner.clone());
        row.table_name = Some(t.def.name.table.clone());
        row.row_id = rid.to_string();
        row.data_obj = RowId::decode(rid)
            .map(|r| u64::from(r.data_object))
            .unwrap_or(u64::from(t.data_object_id));
        row.ssn = 1;
        (row.status, row.info) =
            supplemental::dml_status(&self.replica.schema.database.supplemental_logging);
        row
    }

    /// The row of a change Oracle made itself (`Redo::Other`), as operation `code`, without
    /// SQL_REDO.
    fn other_row(&self, n: u64, rec: &Redo, scn: Scn, ts: i64, code: u32) -> LogMinerRow {
        let Redo::Other {
            xid,
            owner,
            table,
            obj,
            rid,
            info,
            ..
        } = rec
        else {
            return self.base(n, scn, ts, Xid::default(), code);
        };
        let mut row = self.base(n, scn, ts, *xid, code);
        row.seg_owner = Some(owner.clone());
        row.table_name = Some(table.clone());
        row.data_obj = u64::from(*obj);
        row.info = info.clone();
        if code != op::DDL {
            row.row_id = rid.clone();
            row.ssn = 1;
        }
        row
    }

    fn record(&mut self, n: u64, rec: &Redo) -> Result<()> {
        match rec {
            Redo::Begin { scn, xid, ts, .. } => {
                let row = self.base(n, *scn, *ts, *xid, op::START);
                if self.keeps(&row) {
                    self.push_sql(row, "set transaction read write;".into());
                }
            }
            Redo::Insert {
                scn,
                xid,
                tab,
                rid,
                after,
                ts,
            } => {
                let t = &self.replica.tables[*tab as usize];
                // Its LOB_WRITE rows follow it: nothing to render only if both are dropped.
                if self.drops(op::INSERT, *xid, t) && self.drops(op::LOB_WRITE, *xid, t) {
                    return Ok(());
                }
                let cols = t.columns_at(*scn);
                let row = self.with_table(self.base(n, *scn, *ts, *xid, op::INSERT), t, rid);
                if self.keeps(&row) {
                    let items: Vec<Col> = cols
                        .iter()
                        .zip(after)
                        .filter(|(c, _)| !c.virtual_column)
                        .map(|(c, v)| (c.name.as_str(), &c.data_type, v))
                        .collect();
                    let (row, sql) = self.statement(row.clone(), t, cols, &items, &[], |a, _| {
                        sql_redo::insert(&t.def.name, a)
                    });
                    self.push_sql(row, sql);
                }
                self.lob_writes(row, t, cols, after);
            }
            Redo::Update {
                scn,
                xid,
                tab,
                rid,
                before,
                after,
                cols: set_cols,
                ts,
            } => {
                let t = &self.replica.tables[*tab as usize];
                if self.drops(op::UPDATE, *xid, t) {
                    return Ok(());
                }
                let cols = t.columns_at(*scn);
                let row = self.with_table(self.base(n, *scn, *ts, *xid, op::UPDATE), t, rid);
                if !self.keeps(&row) {
                    return Ok(());
                }
                let mut changed: Vec<usize> = if set_cols.is_empty() {
                    (0..cols.len())
                        .filter(|&i| !cols[i].virtual_column && before.get(i) != after.get(i))
                        .collect()
                } else {
                    let mut c: Vec<usize> = set_cols
                        .iter()
                        .map(|&i| i as usize)
                        .filter(|&i| i < cols.len())
                        .collect();
                    c.sort_unstable();
                    c.dedup();
                    c
                };
                if changed.is_empty() {
                    // An UPDATE that set columns to their own values still names them.
                    changed = (0..cols.len())
                        .filter(|&i| {
                            !cols[i].virtual_column && !t.def.primary_key.contains(&cols[i].name)
                        })
                        .take(1)
                        .collect();
                }
                let set: Vec<Col> = changed
                    .iter()
                    .filter_map(|&i| {
                        Some((cols[i].name.as_str(), &cols[i].data_type, after.get(i)?))
                    })
                    .collect();
                let logging = &self.replica.schema.database.supplemental_logging;
                let wh: Vec<Col> = supplemental::update_where(logging, &t.def, cols, &changed)
                    .into_iter()
                    .filter_map(|i| {
                        Some((cols[i].name.as_str(), &cols[i].data_type, before.get(i)?))
                    })
                    .collect();
                let (row, sql) = self.statement(row, t, cols, &set, &wh, |a, b| {
                    sql_redo::update(&t.def.name, a, b)
                });
                self.push_sql(row, sql);
            }
            Redo::Delete {
                scn,
                xid,
                tab,
                rid,
                before,
                ts,
            } => {
                let t = &self.replica.tables[*tab as usize];
                if self.drops(op::DELETE, *xid, t) {
                    return Ok(());
                }
                let cols = t.columns_at(*scn);
                let row = self.with_table(self.base(n, *scn, *ts, *xid, op::DELETE), t, rid);
                if !self.keeps(&row) {
                    return Ok(());
                }
                // The undo of a delete holds the whole row, so every column is in the WHERE.
                let wh: Vec<Col> = cols
                    .iter()
                    .zip(before)
                    .filter(|(c, _)| !c.virtual_column)
                    .map(|(c, v)| (c.name.as_str(), &c.data_type, v))
                    .collect();
                let (row, sql) = self.statement(row, t, cols, &wh, &[], |a, _| {
                    sql_redo::delete(&t.def.name, a)
                });
                self.push_sql(row, sql);
            }
            Redo::Undo { scn, xid, of, ts } => {
                let Some(undone) = self.replica.record(*of) else {
                    return Ok(());
                };
                let (tab, rid, code) = match &**undone {
                    Redo::Insert { tab, rid, .. } => (*tab, rid, op::DELETE),
                    Redo::Update { tab, rid, .. } => (*tab, rid, op::UPDATE),
                    Redo::Delete { tab, rid, .. } => (*tab, rid, op::INSERT),
                    Redo::Other {
                        op: code @ (op::INSERT | op::UPDATE | op::DELETE),
                        ..
                    } => {
                        let inverse = match *code {
                            op::INSERT => op::DELETE,
                            op::DELETE => op::INSERT,
                            _ => op::UPDATE,
                        };
                        let mut row = self.other_row(n, undone, *scn, *ts, inverse);
                        row.rollback = 1;
                        row.ssn = 0;
                        if self.keeps(&row) {
                            self.out.push(row);
                        }
                        return Ok(());
                    }
                    _ => return Ok(()),
                };
                let t = &self.replica.tables[tab as usize];
                let mut row = self.with_table(self.base(n, *scn, *ts, *xid, code), t, rid);
                row.rollback = 1;
                row.ssn = 0;
                // With NO_ROWID_IN_STMT an undo row's SQL_REDO (only a ROWID predicate) is empty.
                if self.keeps(&row) {
                    self.out.push(row);
                }
            }
            Redo::Commit { scn, xids, ts } => {
                for xid in xids {
                    let mut row = self.base(n, *scn, *ts, *xid, op::COMMIT);
                    row.commit_scn = Some(*scn);
                    row.commit_timestamp = Some(self.replica.host_time(*ts));
                    row.start_scn = self.replica.xid_start.get(xid).copied();
                    if self.keeps(&row) {
                        self.push_sql(row, "commit;".into());
                    }
                }
            }
            Redo::Rollback { scn, xid, ts } => {
                let mut row = self.base(n, *scn, *ts, *xid, op::ROLLBACK);
                row.start_scn = self.replica.xid_start.get(xid).copied();
                if self.keeps(&row) {
                    self.push_sql(row, "rollback;".into());
                }
            }
            Redo::Ddl {
                scn,
                xid,
                tab,
                sql,
                ts,
                ..
            } => {
                let t = &self.replica.tables[*tab as usize];
                let mut row = self.base(n, *scn, *ts, *xid, op::DDL);
                row.seg_owner = Some(t.def.name.owner.clone());
                row.table_name = Some(t.def.name.table.clone());
                row.data_obj = u64::from(t.data_object_id);
                row.info = Some("USER DDL (PlSql=0 RecDep=0)".into());
                if self.keeps(&row) {
                    self.push_sql(row, sql.clone());
                }
            }
            Redo::Other {
                scn,
                ts,
                op,
                sql,
                xid,
                owner,
                table,
                info,
                ..
            } => {
                if !self.filter.keeps_parts(
                    *op,
                    info.as_deref(),
                    Some(owner),
                    Some(table),
                    self.con_name_ref(*xid),
                ) {
                    return Ok(());
                }
                let row = self.other_row(n, rec, *scn, *ts, *op);
                if self.keeps(&row) {
                    self.push_sql(row, sql.clone());
                }
            }
            // The build's rows are LogMiner's own dictionary tables: the tool never asks for them.
            Redo::Extent { .. }
            | Redo::Stats { .. }
            | Redo::LogSwitch { .. }
            | Redo::DictionaryBuild { .. } => {}
        }
        Ok(())
    }

    /// LOB values arrive as LOB_WRITE rows after the INSERT that wrote EMPTY_CLOB()/EMPTY_BLOB().
    fn lob_writes(
        &mut self,
        row: LogMinerRow,
        t: &TableState,
        cols: &[crate::source::model::ColumnInfo],
        after: &[Value],
    ) {
        let key: Vec<Col> = cols
            .iter()
            .zip(after)
            .filter(|(c, _)| {
                if t.def.primary_key.is_empty() {
                    !c.data_type.is_lob() && !c.virtual_column && c.data_type != ColumnType::Json
                } else {
                    t.def.primary_key.contains(&c.name)
                }
            })
            .map(|(c, v)| (c.name.as_str(), &c.data_type, v))
            .collect();
        for (c, v) in cols.iter().zip(after) {
            let is_lob = matches!(
                c.data_type,
                ColumnType::Clob | ColumnType::Nclob | ColumnType::Blob
            );
            let empty = match v {
                Value::Null => true,
                Value::Text(s) => s.is_empty(),
                Value::Bytes(b) => b.is_empty(),
                _ => false,
            };
            if !is_lob || empty {
                continue;
            }
            let mut r = row.clone();
            r.operation_code = op::LOB_WRITE;
            r.operation = op::name(op::LOB_WRITE).to_string();
            if !self.keeps(&r) {
                continue;
            }
            let sql = sql_redo::lob_write_as(&t.def.name, &c.name, &c.data_type, &key, v);
            self.push_sql(r, sql);
        }
    }
}
