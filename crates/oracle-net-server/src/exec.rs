//! Cursors, and the calls that run statements and fetch their rows.
//!
//! The server numbers cursors; the client names one in later calls (re-execute, fetch, define,
//! close). A query's rows stay in its [`RowSource`] until fetched, `n` per call with one row
//! read ahead so the last batch can carry ORA-01403 and spare the client a round trip.
//!
//! Describe info goes out when a statement is parsed or its columns changed. A query with LOB
//! columns returns no rows until the client has defined its columns: the thin drivers answer
//! such a describe by re-sending the execute with defines (LONG to get whole values, or the LOB
//! type to get locators) and decode rows with the defined types, so rows sent before would be
//! read with the wrong ones.

use std::collections::HashMap;

use oracle_datum::{Column, Datum, OraError};

use crate::binds::{BindMeta, BindValue};
use crate::codec::{column_wire_type, encode_value, WireType};
use crate::conn::End;
use crate::lob::LobStore;
use crate::response::{
    write_describe, write_dml_row_counts, write_io_vector, write_row_header, write_status, Status,
    BIND_DIR_INPUT, BIND_DIR_INPUT_OUTPUT, MSG_ROW_DATA,
};
use crate::session::Session;
use crate::ttc::{self, Execute};
use crate::wire::Writer;
use crate::worker::{execute_job, fetch_job, JobOutput};
use crate::{Bind, Outcome, RowSource};

/// Rows sent for one fetch at most, whatever the client asks (it fetches again for more).
const MAX_ROWS_PER_FETCH: usize = 65_536;

/// Where a cursor's rows are.
#[derive(Default)]
enum Rows {
    /// Not executed, or its rows were lost to a cancelled fetch.
    #[default]
    None,
    Open {
        source: Box<dyn RowSource>,
        peeked: Option<Vec<Datum>>,
    },
    Done,
}

#[derive(Default)]
struct Cursor {
    sql: String,
    plsql: bool,
    bind_metas: Vec<BindMeta>,
    columns: Option<Vec<Column>>,
    defines: Option<Vec<WireType>>,
    rows: Rows,
    fetched: u64,
    /// The container the cursor was parsed in (`None` until it first runs).
    container: Option<Option<String>>,
}

/// The open cursors of a session.
#[derive(Default)]
pub struct Cursors {
    map: HashMap<u16, Cursor>,
}

impl Cursors {
    /// A cursor's bind metadata and whether it is PL/SQL (to decode a re-execute's binds).
    pub fn bind_info(&self, id: u16) -> Option<(Vec<BindMeta>, bool)> {
        self.map.get(&id).map(|c| (c.bind_metas.clone(), c.plsql))
    }

    pub fn close(&mut self, ids: &[u16]) {
        for id in ids {
            self.map.remove(id);
        }
    }

    fn allocate(&mut self) -> Option<u16> {
        (1..=u16::MAX).find(|id| !self.map.contains_key(id))
    }
}

/// A statement as logged: not at all if it may carry a password (`… IDENTIFIED BY …`).
fn loggable(sql: &str) -> String {
    let upper = sql.to_ascii_uppercase();
    if upper.contains("IDENTIFIED") || upper.contains("PASSWORD") {
        return "<statement with a password, not logged>".into();
    }
    sql.chars().take(200).collect()
}

fn invalid_cursor() -> OraError {
    OraError::new(1001, "invalid cursor")
}

fn out_of_sequence() -> OraError {
    OraError::new(1002, "fetch out of sequence")
}

fn has_lob(columns: &[Column]) -> bool {
    columns.iter().any(|c| c.ora_type.is_lob())
}

/// Bind rows as the backend takes them; the first undecodable value fails the statement.
fn to_binds(
    metas: &[BindMeta],
    plsql: bool,
    rows: Vec<Vec<BindValue>>,
) -> Result<Vec<Vec<Bind>>, OraError> {
    rows.into_iter()
        .map(|row| {
            row.into_iter()
                .zip(metas)
                .map(|(v, m)| {
                    Ok(Bind {
                        value: v?,
                        ora_type: m.ora_type_in(plsql),
                    })
                })
                .collect()
        })
        .collect()
}

/// How a statement's results are sent.
struct RunOpts {
    describe: bool,
    /// Rows to send with the execute, if any.
    fetch: Option<u32>,
    describe_only: bool,
    dml_row_counts: bool,
    commit: bool,
}

/// The type a column's values are sent as. A define changes only LOB columns (to LONG / LONG
/// RAW for whole values, or LOB locators): the thin drivers decode every other column with its
/// described type whatever they defined it as (python-oracledb defines ROWIDs as VARCHAR and
/// still reads them as ROWIDs).
fn fetch_wire_type(column: &Column, defines: Option<&[WireType]>, i: usize) -> WireType {
    let described = column_wire_type(&column.ora_type);
    match defines.and_then(|d| d.get(i)) {
        Some(defined) if described.is_lob() && (defined.is_lob() || defined.is_long()) => *defined,
        _ => described,
    }
}

/// Writes rows; on an encoding failure, the rows before it and the error.
fn encode_rows(
    w: &mut Writer,
    rows: &[Vec<Datum>],
    columns: &[Column],
    defines: Option<&[WireType]>,
    lobs: &mut LobStore,
) -> Result<(), (usize, OraError)> {
    if !rows.is_empty() {
        write_row_header(w);
    }
    let wires: Vec<WireType> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| fetch_wire_type(c, defines, i))
        .collect();
    for (n, row) in rows.iter().enumerate() {
        if row.len() != columns.len() {
            let e = OraError::new(
                600,
                format!("row of {} values for {} columns", row.len(), columns.len()),
            );
            return Err((n, e));
        }
        // Written in place; a value that cannot be encoded takes its row's bytes back out, so
        // the rows before it go out whole with the error.
        let start = w.len();
        w.u8(MSG_ROW_DATA);
        for (value, wire) in row.iter().zip(&wires) {
            if let Err(e) = encode_value(w, value, wire, lobs) {
                w.truncate(start);
                return Err((n, e));
            }
            if wire.is_long() {
                w.ub(0); // indicator
                w.ub(0); // return code
            }
        }
        if n == 0 {
            // The first row's size times the batch: one growth of the buffer, not a doubling
            // series (a fetch is hundreds of rows).
            w.reserve((w.len() - start) * rows.len());
        }
    }
    Ok(())
}

impl Session {
    pub(crate) fn execute(&mut self, ex: Execute) -> Result<(), End> {
        let id = match (ex.cursor_id, &ex.sql) {
            (0, None) => return self.report(Writer::new(), &invalid_cursor(), 0, 0),
            (0, Some(_)) => match self.cursors.allocate() {
                Some(id) => id,
                None => {
                    return self.report(
                        Writer::new(),
                        &OraError::new(1000, "maximum open cursors exceeded"),
                        0,
                        0,
                    )
                }
            },
            (id, None) if !self.cursors.map.contains_key(&id) => {
                return self.report(Writer::new(), &invalid_cursor(), 0, 0);
            }
            (id, _) => id,
        };
        let cursor = self.cursors.map.entry(id).or_default();
        let reparsed = ex.sql.as_ref().is_some_and(|s| *s != cursor.sql);
        if ex.options & ttc::OPT_PARSE != 0 {
            // Parsed (again) here: the cursor now belongs to the session's container.
            cursor.container = None;
        }
        if let Some(sql) = ex.sql.clone() {
            if reparsed {
                *cursor = Cursor {
                    sql,
                    ..Cursor::default()
                };
            }
        }
        tracing::debug!(cursor = id, options = ex.options, sql = %loggable(&cursor.sql), binds = ex.bind_metas.len(), "execute");
        if !ex.bind_metas.is_empty() {
            cursor.bind_metas = ex.bind_metas.clone();
            cursor.plsql = ex.options & ttc::OPT_NOT_PLSQL == 0;
        }
        if ex.options & ttc::OPT_DEFINE != 0 {
            cursor.defines = Some(ex.defines.iter().map(|m| m.wire).collect());
        }
        let runs = ex.options & (ttc::OPT_EXECUTE | ttc::OPT_DESCRIBE) != 0;
        if !runs {
            // A define (or a bare parse): nothing to run; rows only if asked and there.
            if ex.options & ttc::OPT_FETCH != 0 && matches!(cursor.rows, Rows::Open { .. }) {
                return self.fetch_into(Writer::new(), id, ex.fetch_rows());
            }
            let fetched = cursor.fetched;
            return self.send_status(&Status::ok(id, fetched));
        }
        let sql = cursor.sql.clone();
        let metas = cursor.bind_metas.clone();
        let plsql = cursor.plsql;
        let parsed_in = cursor.container.clone();
        let dml_row_counts = ex.exec_flags() & ttc::EXEC_FLAG_DML_ROWCOUNTS != 0;
        let fetch_rows = ex.fetch_rows();
        let binds = match to_binds(&metas, plsql, ex.bind_rows) {
            Ok(b) => b,
            Err(e) => return self.report(Writer::new(), &e, id, 0),
        };
        let describe_only = ex.options & ttc::OPT_EXECUTE == 0;
        let opts = RunOpts {
            describe: ex.options & (ttc::OPT_PARSE | ttc::OPT_DESCRIBE) != 0,
            fetch: (ex.options & ttc::OPT_FETCH != 0 && !describe_only).then_some(fetch_rows),
            describe_only,
            dml_row_counts,
            commit: ex.options & ttc::OPT_COMMIT != 0,
        };
        self.run_statement(id, sql, binds, opts, parsed_in)
    }

    pub(crate) fn reexecute(
        &mut self,
        fetch: bool,
        id: u16,
        num_iters: u32,
        commit: bool,
        bind_rows: Vec<Vec<BindValue>>,
    ) -> Result<(), End> {
        let Some(cursor) = self.cursors.map.get(&id) else {
            return self.report(Writer::new(), &invalid_cursor(), id, 0);
        };
        tracing::debug!(cursor = id, fetch, sql = %loggable(&cursor.sql), "re-execute");
        let sql = cursor.sql.clone();
        let parsed_in = cursor.container.clone();
        let binds = match to_binds(&cursor.bind_metas, cursor.plsql, bind_rows) {
            Ok(b) => b,
            Err(e) => return self.report(Writer::new(), &e, id, 0),
        };
        let opts = RunOpts {
            describe: false,
            fetch: fetch.then_some(num_iters),
            describe_only: false,
            dml_row_counts: false,
            commit,
        };
        self.run_statement(id, sql, binds, opts, parsed_in)
    }

    fn run_statement(
        &mut self,
        id: u16,
        sql: String,
        binds: Vec<Vec<Bind>>,
        opts: RunOpts,
        parsed_in: Option<Option<String>>,
    ) -> Result<(), End> {
        let checked = parsed_in.is_some();
        let Some(JobOutput::Executed {
            mut results,
            container,
        }) = self.job(execute_job(sql, binds, opts.commit, parsed_in))?
        else {
            return Ok(()); // cancelled by the client (already answered)
        };
        if !checked {
            if let Some(cursor) = self.cursors.map.get_mut(&id) {
                cursor.container = Some(container);
            }
        }
        if results.len() > 1 || matches!(results.first(), Some(Ok(Outcome::Done { .. }))) {
            return self.send_dml(id, results, opts.dml_row_counts);
        }
        match results.pop() {
            Some(Ok(Outcome::Rows { columns, rows })) => self.send_query(id, columns, rows, &opts),
            Some(Ok(Outcome::PlSql { out })) => self.send_plsql(id, out),
            Some(Ok(Outcome::Done { .. })) | None => self.send_status(&Status::ok(id, 0)),
            Some(Err(e)) => self.report(Writer::new(), &e, id, 0),
        }
    }

    fn send_dml(
        &mut self,
        id: u16,
        results: Vec<Result<Outcome, OraError>>,
        row_counts: bool,
    ) -> Result<(), End> {
        let mut counts = Vec::with_capacity(results.len());
        for r in results {
            match r {
                Ok(Outcome::Done { row_count }) => counts.push(row_count),
                Ok(_) => counts.push(0),
                Err(e) => {
                    let total = counts.iter().sum();
                    return self.report(Writer::new(), &e, id, total);
                }
            }
        }
        let mut w = Writer::new();
        if row_counts {
            write_dml_row_counts(&mut w, &counts, id);
        }
        write_status(
            &mut w,
            &Status::ok(id, counts.iter().sum()),
            self.io.field_version,
            self.io.call_seq,
        );
        self.io.send(w.as_slice()).map_err(End::from)
    }

    fn send_query(
        &mut self,
        id: u16,
        columns: Vec<Column>,
        rows: Box<dyn RowSource>,
        opts: &RunOpts,
    ) -> Result<(), End> {
        let mut w = Writer::new();
        let Some(cursor) = self.cursors.map.get_mut(&id) else {
            return self.report(w, &invalid_cursor(), id, 0);
        };
        let changed = cursor.columns.as_ref() != Some(&columns);
        if changed {
            cursor.defines = None;
        }
        if opts.describe || changed {
            write_describe(
                &mut w,
                &columns,
                self.io.field_version,
                self.io.sb1_universal,
            );
        }
        let needs_define = has_lob(&columns) && cursor.defines.is_none();
        cursor.columns = Some(columns);
        cursor.fetched = 0;
        cursor.rows = if opts.describe_only {
            Rows::None
        } else {
            Rows::Open {
                source: rows,
                peeked: None,
            }
        };
        match opts.fetch {
            Some(n) if !needs_define && !opts.describe_only => self.fetch_into(w, id, n),
            _ => {
                write_status(
                    &mut w,
                    &Status::ok(id, 0),
                    self.io.field_version,
                    self.io.call_seq,
                );
                self.io.send(w.as_slice()).map_err(End::from)
            }
        }
    }

    fn send_plsql(&mut self, id: u16, out: Vec<Option<Datum>>) -> Result<(), End> {
        let metas = self
            .cursors
            .map
            .get(&id)
            .map(|c| c.bind_metas.clone())
            .unwrap_or_default();
        let mut w = Writer::new();
        if !metas.is_empty() {
            let is_out = |i: usize| matches!(out.get(i), Some(Some(_)));
            let dirs: Vec<u8> = (0..metas.len())
                .map(|i| {
                    if is_out(i) {
                        BIND_DIR_INPUT_OUTPUT
                    } else {
                        BIND_DIR_INPUT
                    }
                })
                .collect();
            write_io_vector(&mut w, &dirs);
            if dirs.contains(&BIND_DIR_INPUT_OUTPUT) {
                w.u8(MSG_ROW_DATA);
                for (i, meta) in metas.iter().enumerate() {
                    if let Some(Some(value)) = out.get(i) {
                        if let Err(e) = encode_value(&mut w, value, &meta.wire, &mut self.lobs) {
                            return self.report(Writer::new(), &e, id, 0);
                        }
                        w.sb(0); // actual length: not truncated
                    }
                }
            }
        }
        write_status(
            &mut w,
            &Status::ok(id, 0),
            self.io.field_version,
            self.io.call_seq,
        );
        self.io.send(w.as_slice()).map_err(End::from)
    }

    pub(crate) fn fetch(&mut self, id: u16, n: u32) -> Result<(), End> {
        let Some(cursor) = self.cursors.map.get(&id) else {
            return self.report(Writer::new(), &invalid_cursor(), id, 0);
        };
        match cursor.rows {
            Rows::Open { .. } => self.fetch_into(Writer::new(), id, n),
            Rows::Done => {
                let e = OraError::no_data_found();
                let fetched = cursor.fetched;
                self.report(Writer::new(), &e, id, fetched)
            }
            Rows::None => self.report(Writer::new(), &out_of_sequence(), id, 0),
        }
    }

    /// Fetches up to `n` rows of cursor `id` into `w` (after whatever it holds) and sends it.
    fn fetch_into(&mut self, mut w: Writer, id: u16, n: u32) -> Result<(), End> {
        let Some(cursor) = self.cursors.map.get_mut(&id) else {
            return self.report(w, &invalid_cursor(), id, 0);
        };
        let Rows::Open { source, peeked } = std::mem::take(&mut cursor.rows) else {
            return self.report(w, &out_of_sequence(), id, 0);
        };
        let parsed_in = cursor.container.clone();
        let Some(JobOutput::Fetched(batch)) = self.job(fetch_job(
            source,
            peeked,
            (n as usize).min(MAX_ROWS_PER_FETCH),
            parsed_in,
        ))?
        else {
            return Ok(()); // cancelled: the rows are gone with the call
        };
        let Some(cursor) = self.cursors.map.get_mut(&id) else {
            return self.report(w, &invalid_cursor(), id, 0);
        };
        let columns = cursor.columns.clone().unwrap_or_default();
        let encoded = encode_rows(
            &mut w,
            &batch.rows,
            &columns,
            cursor.defines.as_deref(),
            &mut self.lobs,
        );
        let sent = match &encoded {
            Ok(()) => batch.rows.len(),
            Err((n, _)) => *n,
        };
        cursor.fetched += sent as u64;
        let fetched = cursor.fetched;
        if let Err((_, e)) = encoded {
            cursor.rows = Rows::Done;
            return self.report(w, &e, id, fetched);
        }
        if let Some(e) = batch.error {
            cursor.rows = Rows::Done;
            return self.report(w, &e, id, fetched);
        }
        if batch.end {
            cursor.rows = Rows::Done;
            return self.report(w, &OraError::no_data_found(), id, fetched);
        }
        cursor.rows = Rows::Open {
            source: batch.source,
            peeked: batch.peeked,
        };
        write_status(
            &mut w,
            &Status::ok(id, fetched),
            self.io.field_version,
            self.io.call_seq,
        );
        self.io.send(w.as_slice()).map_err(End::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracle_datum::OraType;

    fn encoded(rows: &[Vec<Datum>], columns: &[Column]) -> (Vec<u8>, Option<usize>) {
        let mut w = Writer::new();
        let r = encode_rows(&mut w, rows, columns, None, &mut LobStore::default());
        (w.into_inner(), r.err().map(|(n, _)| n))
    }

    /// A row whose value cannot be encoded leaves no byte of itself: the rows before it are
    /// exactly what encoding them alone writes.
    #[test]
    fn a_failing_row_takes_its_bytes_back() {
        let columns = [
            Column::new("ID", OraType::NUMBER),
            Column::new("NAME", OraType::Varchar2(10)),
            Column::new("AMOUNT", OraType::NUMBER),
        ];
        let good = |i: i64| {
            vec![
                Datum::int(i),
                Datum::text(format!("row {i}")),
                Datum::int(i),
            ]
        };
        // Two values written before the third fails.
        let bad = vec![
            Datum::int(3),
            Datum::text("row 3"),
            Datum::Number("not a number".into()),
        ];
        let (before, none) = encoded(&[good(1), good(2)], &columns);
        assert_eq!(none, None);
        let (with_bad, failed_at) = encoded(&[good(1), good(2), bad.clone()], &columns);
        assert_eq!(failed_at, Some(2));
        assert_eq!(with_bad, before);
        let (first_bad, failed_at) = encoded(&[bad, good(1)], &columns);
        assert_eq!(failed_at, Some(0));
        let (header, _) = encoded(&[], &columns);
        assert!(header.is_empty());
        // The row header alone: nothing of the failed row.
        let (one, _) = encoded(&[good(1)], &columns);
        assert!(first_bad.len() < one.len() && one.starts_with(&first_bad));
    }
}
