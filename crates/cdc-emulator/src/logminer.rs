//! V$LOGMNR_CONTENTS rendered from the emulated redo, as LogMiner would show it with
//! DICT_FROM_ONLINE_CATALOG + NO_ROWID_IN_STMT and the NLS settings of oracle-facts §5.

use super::lob_redo;
use super::redo::{Redo, Xid};
use super::redo_faults::{self, RedoFaults};
use super::sql_redo::{self, Col, CSF_PIECE_BYTES};
use super::store::{Replica, TableState};
use super::supplemental;
use crate::errors::{CdcError, Result};
use cdc_core::filter::MiningFilter;
use cdc_core::model::{op, ColumnInfo, LogMinerRow, Scn};
use cdc_core::rowid::{RowId, LOB_ROWID};

/// SQL_REDO of an UNSUPPORTED row (see `push_unsupported`).
pub const UNSUPPORTED_SQL: &str = "Unsupported";
use crate::types::LogMinerSupport;

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
    let first_kept = replica.first_kept_scn();
    if replica.index.first > 0 && start < first_kept {
        return Err(CdcError::MissingLogFile {
            scn: start,
            oldest: first_kept,
        });
    }
    let mut out = Vec::new();
    let mut renderer = Renderer {
        replica,
        out: &mut out,
        window_start: start,
        filter,
        faults,
    };
    let written = replica.written(now_ms);
    replica.each_record(start, end, |n, rec| {
        if replica.is_written(&written, n, rec) {
            renderer.record(n, rec)?;
        }
        Ok(())
    })?;
    Ok(out)
}

/// How many redo records mining `start..=end` reads: every written one in the window, whichever
/// schema or container wrote it (the profile's LOGICAL_READS_PER_CALL counts them).
pub fn records_read(replica: &Replica, start: Scn, end: Scn, now_ms: i64) -> Result<u64> {
    let written = replica.written(now_ms);
    let mut read = 0u64;
    replica.each_record(start, end, |n, rec| {
        if replica.is_written(&written, n, rec) {
            read += 1;
        }
        Ok(())
    })?;
    Ok(read)
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
    /// A moment as the database's own DATEs show it, `YYYY-MM-DD HH24:MI:SS` (the columns
    /// LogMiner and V$THREAD fill, SCN_TO_TIMESTAMP): the host's clock, or the database time
    /// zone's with TIME_AT_DBTIMEZONE=DATABASE.
    pub fn host_time(&self, ms: i64) -> String {
        timestamp(ms + i64::from(self.schema.database.date_clock_offset_secs()) * 1000)
    }
}

impl Renderer<'_> {
    /// START_SCN of a COMMIT or ROLLBACK row: the transaction's START when the LogMiner
    /// session's range holds it, NULL when it began before (Reference 19c, V$LOGMNR_CONTENTS:
    /// "may also be NULL if the query is run over a time/SCN range that does not contain the
    /// start of the transaction"), so capture never learns from it where such a transaction
    /// began.
    fn start_in_window(&self, xid: &Xid) -> Option<Scn> {
        self.replica
            .xid_start
            .get(xid)
            .copied()
            .filter(|s| *s >= self.window_start)
    }

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
        // Rendered as an unknown object: the built row's names decide (`keeps`).
        !self.filter.is_everything()
            && !self.faults.unknown(&t.def.name)
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
            redo_faults::positional(&with_pos?, t.def.charsets)
        };
        let unknown = self.faults.unknown(&t.def.name);
        let mut sql = None;
        if self.faults.mismatch(&t.def.name) || unknown {
            if let (Some(pa), Some(pb)) = (positional(a), positional(b)) {
                let raw = redo_faults::raw();
                let ca: Vec<Col> = pa.iter().map(|(n, v)| (n.as_str(), &raw, v)).collect();
                let cb: Vec<Col> = pb.iter().map(|(n, v)| (n.as_str(), &raw, v)).collect();
                if !unknown {
                    row.status = redo_faults::STATUS_INVALID;
                    row.info = Some(redo_faults::DICTIONARY_MISMATCH.into());
                }
                sql = Some(render(&ca, &cb));
            }
        }
        if unknown {
            let Some(sql) = sql else {
                return Self::unreadable(row);
            };
            // The statement names the object as the row does.
            let name = format!(
                "\"{}\".\"{}\"",
                row.seg_owner.as_deref().unwrap_or_default(),
                row.table_name.as_deref().unwrap_or_default()
            );
            return (row, sql.replacen(&t.def.name.quoted(), &name, 1));
        }
        let mut sql = sql.unwrap_or_else(|| render(a, b));
        if self.faults.quotes(&t.def.name) {
            sql = redo_faults::undouble(&sql);
        }
        (row, sql)
    }

    /// A change LogMiner's dictionary cannot render: STATUS 2, INFO `Dictionary Mismatch`,
    /// SQL_REDO `Dictionary Version Mismatch` (see `redo_faults`).
    fn unreadable(mut row: LogMinerRow) -> (LogMinerRow, String) {
        row.status = redo_faults::STATUS_INVALID;
        row.info = Some(redo_faults::DICTIONARY_MISMATCH.into());
        (row, redo_faults::VERSION_MISMATCH.into())
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
        // DATA_OBJ# is the object's number (see `capture.md`, unknown objects): a segment a
        // TRUNCATE made has a new data object number in its ROWIDs, the same object number.
        row.data_obj = RowId::decode(rid)
            .map(|r| u64::from(t.object_of_segment(r.data_object)))
            .unwrap_or(u64::from(t.table_object_id()));
        row.ssn = 1;
        (row.status, row.info) =
            supplemental::dml_status(&self.replica.schema.database.supplemental_logging);
        if self.faults.unknown(&t.def.name) {
            row.seg_owner = Some(cdc_core::filter::UNKNOWN_OWNER.into());
            row.table_name = Some(format!(
                "{}{}",
                cdc_core::filter::UNKNOWN_TABLE_PREFIX,
                row.data_obj
            ));
        }
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
                let cols = t.columns_at(*scn);
                let base = self.base(n, *scn, *ts, *xid, op::INSERT);
                if self.unsupported(t, cols) {
                    self.push_unsupported(base, t, rid);
                    return Ok(());
                }
                let stmt = self.stmt(t, cols);
                if stmt.is_plain() {
                    if self.drops(op::INSERT, *xid, t) {
                        return Ok(());
                    }
                    let row = self.with_table(base, t, rid);
                    if self.keeps(&row) {
                        let items: Vec<Col> = cols
                            .iter()
                            .zip(after)
                            .filter(|(c, _)| !c.virtual_column)
                            .map(|(c, v)| (c.name.as_str(), &c.data_type, v))
                            .collect();
                        let (row, sql) = self.statement(row, t, cols, &items, &[], |a, _| {
                            sql_redo::insert(&t.def.name, a)
                        });
                        self.push_sql(row, sql);
                    }
                    return Ok(());
                }
                let pieces = stmt.insert(after);
                self.push_pieces(base, t, rid, pieces);
            }
            Redo::Update {
                scn,
                xid,
                tab,
                rid,
                before,
                after,
                cols: set_cols,
                lob_ops,
                ts,
            } => {
                let t = &self.replica.tables[*tab as usize];
                let cols = t.columns_at(*scn);
                let base = self.base(n, *scn, *ts, *xid, op::UPDATE);
                if self.unsupported(t, cols) {
                    self.push_unsupported(base, t, rid);
                    return Ok(());
                }
                let stmt = self.stmt(t, cols);
                if let Some(first) = lob_ops.first() {
                    let pieces = stmt.lob_edit(after, first.col(), lob_ops);
                    self.push_pieces(base, t, rid, pieces);
                    return Ok(());
                }
                let plain = stmt.is_plain();
                if plain && self.drops(op::UPDATE, *xid, t) {
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
                            !cols[i].virtual_column
                                && !t.def.primary_key.contains(&cols[i].name)
                                && !cols[i].data_type.never_supplementally_logged()
                        })
                        .take(1)
                        .collect();
                }
                // The PDB's own levels count for its tables.
                let logging =
                    (self.replica.schema.database).supplemental_in(t.def.name.pdb.as_deref());
                let where_cols = supplemental::update_where(&logging, &t.def, cols, &changed);
                if plain {
                    let row = self.with_table(base, t, rid);
                    if !self.keeps(&row) {
                        return Ok(());
                    }
                    let set: Vec<Col> = changed
                        .iter()
                        .filter_map(|&i| {
                            Some((cols[i].name.as_str(), &cols[i].data_type, after.get(i)?))
                        })
                        .collect();
                    let wh: Vec<Col> = where_cols
                        .into_iter()
                        .filter_map(|i| {
                            Some((cols[i].name.as_str(), &cols[i].data_type, before.get(i)?))
                        })
                        .collect();
                    let (row, sql) = self.statement(row, t, cols, &set, &wh, |a, b| {
                        sql_redo::update(&t.def.name, a, b)
                    });
                    self.push_sql(row, sql);
                    return Ok(());
                }
                let pieces = stmt.update(before, after, &changed, &where_cols);
                self.push_pieces(base, t, rid, pieces);
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
                let cols = t.columns_at(*scn);
                if self.unsupported(t, cols) {
                    let base = self.base(n, *scn, *ts, *xid, op::DELETE);
                    self.push_unsupported(base, t, rid);
                    return Ok(());
                }
                if self.drops(op::DELETE, *xid, t) {
                    return Ok(());
                }
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
                let Some(undone) = self.replica.record(*of)? else {
                    return Ok(());
                };
                let (tab, rid, code) = match &*undone {
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
                        let mut row = self.other_row(n, &undone, *scn, *ts, inverse);
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
                let code = if self.unsupported(t, t.columns_at(*scn)) {
                    op::UNSUPPORTED
                } else {
                    code
                };
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
                    row.start_scn = self.start_in_window(xid);
                    if self.keeps(&row) {
                        self.push_sql(row, "commit;".into());
                    }
                }
            }
            Redo::Rollback { scn, xid, ts } => {
                let mut row = self.base(n, *scn, *ts, *xid, op::ROLLBACK);
                row.start_scn = self.start_in_window(xid);
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
                row.data_obj = u64::from(t.table_object_id());
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

    /// Whether LogMiner writes this table's changes as UNSUPPORTED rows (a column type it
    /// ignores, see [`ColumnType::logminer_support`]).
    fn unsupported(&self, _t: &TableState, cols: &[ColumnInfo]) -> bool {
        let gg = self.replica.schema.database.goldengate_replication;
        cols.iter().any(|c| {
            matches!(
                c.data_type.logminer_support(gg),
                LogMinerSupport::TableUnsupported(_)
            )
        })
    }

    /// One OPERATION_CODE 255 row for a change: the table and the ROW_ID, and SQL_REDO
    /// `Unsupported` in place of a statement (a public capture of such rows shows OPERATION
    /// `UNSUPPORTED`, SQL_REDO and SQL_UNDO `Unsupported`: kkempf.wordpress.com, "archive log"
    /// tag; "it returns absolutely nothing about the event, not even the other columns",
    /// Debezium's maintainers on such rows, debezium/debezium#6721). 23ai writes every change
    /// of a table with a BOOLEAN or VECTOR column so (Debezium's oracle.adoc lists both as
    /// unsupported; an OpenLogReplicator fixture on 23ai Free, mined for INSERT/UPDATE/DELETE
    /// only, found no statement for its BOOLEAN table), and BFILE tables are "ignored by
    /// LogMiner" (Utilities, "Unsupported Data Types and Table Storage Attributes").
    fn push_unsupported(&mut self, mut base: LogMinerRow, t: &TableState, rid: &str) {
        base.operation_code = op::UNSUPPORTED;
        base.operation = op::name(op::UNSUPPORTED).to_string();
        let row = self.with_table(base, t, rid);
        if self.keeps(&row) {
            self.push_sql(row, UNSUPPORTED_SQL.to_string());
        }
    }

    fn stmt<'s>(&'s self, t: &'s TableState, cols: &'s [ColumnInfo]) -> lob_redo::Stmt<'s> {
        lob_redo::Stmt {
            table: &t.def.name,
            def: &t.def,
            cols,
            logging: (self.replica.schema.database).supplemental_in(t.def.name.pdb.as_deref()),
            // The table's PDB's sets: its text and XML are stored in them.
            charsets: t.def.charsets,
        }
    }

    /// The rows of one statement ([`lob_redo`]): each with the row's ROW_ID or the empty one,
    /// the table's names (none on an INTERNAL row), its own operation code.
    fn push_pieces(
        &mut self,
        base: LogMinerRow,
        t: &TableState,
        rid: &str,
        pieces: Vec<lob_redo::Piece>,
    ) {
        let mut named = self.with_table(base, t, rid);
        if self.faults.unknown(&t.def.name) {
            // The statement's rows as the one row LogMiner cannot render.
            let (row, sql) = Self::unreadable(named);
            if self.keeps(&row) {
                self.push_sql(row, sql);
            }
            return;
        }
        for p in pieces {
            let mut row = named.clone();
            row.operation_code = p.code;
            row.operation = op::name(p.code).to_string();
            if !p.own_rid {
                row.row_id = LOB_ROWID.to_string();
            }
            if !p.named {
                row.seg_owner = None;
                row.table_name = None;
                row.status = 0;
                row.info = None;
            } else if let Some(info) = p.info {
                row.info = Some(info.to_string());
            }
            if self.keeps(&row) {
                self.push_sql(row, p.sql);
            }
        }
        named.sql_redo.clear();
    }
}
