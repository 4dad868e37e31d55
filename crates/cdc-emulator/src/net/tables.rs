//! User tables over the wire: reads (current rows, or AS OF an SCN) streamed from a reader
//! thread as the client fetches, and writes (INSERT / UPDATE / DELETE, COMMIT, ROLLBACK,
//! SAVEPOINT) through the emulator's one writer, into the redo like a workload's changes, so
//! capture streams them.
//!
//! A read runs the in-process read path ([`EmulatorSession::read_rows`]): the same privilege
//! checks, fault drills (ORA-01555, dropped connections, latency), undo limits and row order.
//! The SQL engine passes down what the WHERE clause implies for the first key column and the
//! ROWID range, so a chunk read touches its chunk, not the table. The bounds a chunk reads
//! exactly (a NUMBER key's `>=` and `<`, the flashback read's own range) are reported applied,
//! and the engine does not check those conjuncts again, as Oracle does not re-check an index
//! range's access predicates; it checks the rest of the WHERE clause on every row.
//!
//! Writes take the directory's writer lock for the length of a transaction (its first change to
//! its COMMIT or ROLLBACK): while another process writes (an `emulator workload`), a change
//! waits up to [`LOCK_WAIT`] and then fails with ORA-00054, as a DML statement waiting on a
//! lock does. A session does not see its own uncommitted changes in its queries (the emulator
//! applies a transaction's changes at its commit); the change itself is checked and stored.

use super::ora_error;
use super::values::{into_datum, ora_type, to_value};
use crate::errors::CdcError;
use crate::names::TableName;
use crate::redo::Xid;
use crate::types::{ColumnType, Value};
use crate::writer::{Savepoint, Writer};
use crate::EmulatorSession;
use cdc_core::model::{ChunkRange, FetchedRow, FlashbackQuery};
use cdc_core::rowid::RowId;
use emulator_sql::{Bound, CmpOp, ObjectName, Relation, Row, ScanRequest};
use oracle_datum::{Column, Datum, OraError};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a change waits for the writer lock another process holds.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

/// Rows handed from the reader thread at a time.
const BATCH: usize = 256;

/// `"OWNER"."TABLE"` as the session's container names it; an unqualified name is the
/// session's current schema.
pub(super) fn table_name(name: &ObjectName, current_schema: &str) -> TableName {
    TableName::new(
        None,
        name.schema.as_deref().unwrap_or(current_schema),
        &name.name,
    )
}

/// The columns of a table the session may see (ORA-00942 otherwise).
pub(super) fn columns(
    s: &mut EmulatorSession,
    table: &TableName,
) -> Result<(TableName, Vec<cdc_core::model::ColumnInfo>), OraError> {
    let name = s
        .resolve(table, &format!("read of {}", table.owner_table()))
        .map_err(ora_error)?;
    let r = s.replica().map_err(ora_error)?;
    let t = r.table(&name).map_err(ora_error)?;
    Ok((name, t.columns.clone()))
}

/// A bound's value as the key column's stored value, where the two are of one kind (a
/// comparison across kinds converts, which only the engine's full WHERE clause decides).
fn bound_value(b: &Bound, t: &ColumnType) -> Option<Value> {
    let fits = matches!(
        (&b.value, t),
        (
            Datum::Number(_),
            ColumnType::Number { .. } | ColumnType::Float { .. }
        ) | (
            Datum::Text(_),
            ColumnType::Varchar2 { .. } | ColumnType::Nvarchar2 { .. }
        ) | (Datum::Date(_), ColumnType::Date)
            | (Datum::Timestamp(_), ColumnType::Timestamp { .. })
            | (Datum::TimestampTz { .. }, ColumnType::TimestampTz { .. })
            | (Datum::Bytes(_), ColumnType::Raw { .. })
    );
    fits.then(|| to_value(&b.value, t).ok()).flatten()
}

/// The chunk of the table the request's bounds allow: rows from the first key column's lower
/// bound (inclusive; a prefix of the key compares below every longer key with it), and below
/// a one-column key's strict upper bound; or the ROWID range.
///
/// With it, the bounds the chunk applies exactly (indices into the request's): a `>=` lower
/// end and a one-column key's `<` upper end, of a NUMBER compared with a NUMBER key column
/// that is never NULL (the read's key order is then the engine's numeric order, and no NULL
/// key sorts into the range). A `>` or `=` is read from its value on, a superset, and text,
/// dates and nullable columns are left to the engine's WHERE clause.
fn chunk(
    req: &ScanRequest,
    key: &[String],
    columns: &[cdc_core::model::ColumnInfo],
) -> (ChunkRange, Vec<usize>) {
    if let Some((start, end)) = &req.rowid_between {
        let range = ChunkRange::Rowid {
            start: start.clone(),
            end: end.clone(),
        };
        return (range, Vec::new());
    }
    let Some(first) = key.first() else {
        return (ChunkRange::Whole, Vec::new());
    };
    let Some(column) = columns.iter().find(|c| &c.name == first) else {
        return (ChunkRange::Whole, Vec::new());
    };
    let ty = &column.data_type;
    let exact_kind = !column.nullable && matches!(ty, ColumnType::Number { .. });
    let mut lower = None;
    let mut upper = None;
    let (mut lower_exact, mut upper_exact) = (None, None);
    for (i, b) in req.bounds.iter().enumerate() {
        if &b.column != first {
            continue;
        }
        let Some(v) = bound_value(b, ty) else {
            continue;
        };
        let number = exact_kind && matches!(b.value, Datum::Number(_));
        match b.op {
            CmpOp::Ge | CmpOp::Gt | CmpOp::Eq => {
                lower = Some(vec![v]);
                lower_exact = (number && b.op == CmpOp::Ge).then_some(i);
            }
            CmpOp::Lt if key.len() == 1 => {
                upper = Some(vec![v]);
                upper_exact = number.then_some(i);
            }
            _ => {}
        }
    }
    if lower.is_none() && upper.is_none() {
        return (ChunkRange::Whole, Vec::new());
    }
    let exact = lower_exact.into_iter().chain(upper_exact).collect();
    (ChunkRange::Key { lower, upper }, exact)
}

/// Read a table: AS OF the request's SCN (SELECT and FLASHBACK on it) or its current rows
/// (SELECT), in the order the request wants when it names columns of the table, else by the
/// primary key (ROWID without one). Rows stream from a reader thread.
pub(super) fn scan(
    s: &mut EmulatorSession,
    table: &TableName,
    req: &ScanRequest,
) -> Result<Relation, OraError> {
    let (name, cols) = columns(s, table)?;
    let flashback = req.as_of_scn.is_some();
    if flashback {
        s.user.flashback(&name).map_err(ora_error)?;
    } else {
        s.user.select(&name).map_err(ora_error)?;
    }
    let (pk, scn, iot) = {
        let r = s.replica().map_err(ora_error)?;
        let t = r.table(&name).map_err(ora_error)?;
        let iot = t.def.organization == cdc_core::model::Organization::IndexOrganized;
        (
            t.def.primary_key.clone(),
            req.as_of_scn.unwrap_or(r.current_scn),
            iot,
        )
    };
    let orderable = !req.wanted_order.is_empty()
        && req
            .wanted_order
            .iter()
            .all(|c| cols.iter().any(|x| &x.name == c));
    let key = if orderable {
        req.wanted_order.clone()
    } else {
        pk
    };
    let mut types = Vec::with_capacity(cols.len());
    for c in &cols {
        types.push(ora_type(&c.data_type).map_err(|ty| {
            OraError::new(
                3001,
                format!(
                    "unimplemented feature (column {} of type {ty} is not served)",
                    c.name
                ),
            )
        })?);
    }
    let (range, mut exact_bounds) = chunk(req, &key, &cols);
    // The columns the statement references decide which column-level VPD policies apply.
    let refs = match (&req.references, req.for_change) {
        (_, true) => crate::policies::References::Change,
        (Some(names), false) => crate::policies::References::Named(names.clone()),
        (None, false) => crate::policies::References::All,
    };
    {
        let r = s.replica().map_err(ora_error)?;
        let nulling = crate::policies::table_spec(&r.schema, &name)
            .is_some_and(|spec| !crate::policies::nulled_columns(spec, &s.user, &refs).is_empty());
        // An ALL_ROWS policy nulls columns after the range is taken on the stored keys: the
        // statement's own condition is evaluated again, on the values as read.
        if nulling {
            exact_bounds.clear();
        }
    }
    let query = FlashbackQuery {
        table: TableName::new(None, &name.owner, &name.table),
        columns: cols.iter().map(|c| c.name.clone()).collect(),
        key_columns: key.clone(),
        scn,
        range,
        filter: None,
        // A statement that names no ROWID reads none: the row file's place is not made into
        // text for it.
        row_ids: !req.skip_rowids,
    };
    let ordered_by = if key.is_empty() {
        vec!["ROWID".to_string()]
    } else {
        key
    };
    let columns: Vec<Column> = cols
        .iter()
        .zip(&types)
        .map(|(c, t)| Column {
            name: c.name.clone(),
            ora_type: t.clone(),
            nullable: c.nullable,
        })
        .collect();
    let (sender, receiver) = mpsc::sync_channel::<Result<Vec<Row>, OraError>>(4);
    let mut reader = s.reader();
    std::thread::Builder::new()
        .name("emulator-net-read".into())
        .spawn(move || read_into(&mut reader, &query, flashback, &refs, &types, &sender))
        .map_err(|e| {
            OraError::new(
                600,
                format!("internal error code, arguments: [reader thread: {e}]"),
            )
        })?;
    Ok(Relation {
        columns,
        rows: Box::new(Batches {
            receiver,
            batch: Vec::new().into_iter(),
        }),
        ordered_by,
        // An index-organised table's ROWIDs are logical (UROWID), as Oracle describes them.
        rowid_type: if iot {
            oracle_datum::OraType::Urowid
        } else {
            oracle_datum::OraType::Rowid
        },
        exact_bounds,
    })
}

/// The reader thread: rows in batches; a send that fails means the cursor was closed, which
/// ends the read.
fn read_into(
    s: &mut EmulatorSession,
    query: &FlashbackQuery,
    flashback: bool,
    refs: &crate::policies::References,
    types: &[oracle_datum::OraType],
    sender: &mpsc::SyncSender<Result<Vec<Row>, OraError>>,
) {
    let mut batch = Vec::with_capacity(BATCH);
    let closed = || CdcError::Database("the cursor was closed".into());
    let result = s.read_rows(query, flashback, Some(refs), &mut |row: FetchedRow| {
        // One more: the SQL layer appends the ROWID pseudo-column to each row (a vector sized
        // to the values alone was grown, so copied, once a row).
        let mut values = Vec::with_capacity(row.values.len() + 1);
        for (v, t) in row.values.into_iter().zip(types) {
            // Matched in place: `map_err` into the engine's error (a large enum) moved every
            // value through a result of that size, 4 % of a served export.
            match into_datum(v, t) {
                Ok(d) => values.push(d),
                Err(e) => return Err(CdcError::Database(e.message)),
            }
        }
        batch.push(Row {
            rowid: query.row_ids.then_some(row.rowid),
            values,
        });
        if batch.len() == BATCH {
            sender
                .send(Ok(std::mem::replace(&mut batch, Vec::with_capacity(BATCH))))
                .map_err(|_| closed())?;
        }
        Ok(())
    });
    if !batch.is_empty() {
        let _ = sender.send(Ok(batch));
    }
    if let Err(e) = result {
        let _ = sender.send(Err(ora_error(e)));
    }
}

struct Batches {
    receiver: mpsc::Receiver<Result<Vec<Row>, OraError>>,
    batch: std::vec::IntoIter<Row>,
}

impl Iterator for Batches {
    type Item = Result<Row, OraError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(row) = self.batch.next() {
                return Some(Ok(row));
            }
            match self.receiver.recv() {
                Ok(Ok(rows)) => self.batch = rows.into_iter(),
                Ok(Err(e)) => return Some(Err(e)),
                Err(_) => return None,
            }
        }
    }
}

/// An open transaction of a session: the writer (and its lock) from its first change on.
pub(super) struct Transaction {
    writer: Writer,
    xid: Xid,
    savepoints: Vec<(String, Savepoint)>,
}

/// The session's transaction, begun at its first change.
fn transaction<'a>(
    s: &EmulatorSession,
    tx: &'a mut Option<Transaction>,
) -> Result<&'a mut Transaction, OraError> {
    if tx.is_none() {
        let started = Instant::now();
        let writer = loop {
            match Writer::open(&s.shared.dir, s.shared.clock.clone(), true) {
                Ok(w) => break w,
                Err(CdcError::EmulatorBusy { .. }) if started.elapsed() < LOCK_WAIT => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                Err(CdcError::EmulatorBusy { .. }) => {
                    return Err(OraError::new(
                        54,
                        format!(
                            "resource busy and acquire with NOWAIT specified or timeout expired (another process, such as `emulator workload`, is writing to {} ; waited {} s)",
                            s.shared.dir.display(),
                            LOCK_WAIT.as_secs()
                        ),
                    ))
                }
                Err(e) => return Err(ora_error(e)),
            }
        };
        let mut writer = writer;
        let xid = writer.begin_as(Some(&s.user.name)).map_err(ora_error)?;
        *tx = Some(Transaction {
            writer,
            xid,
            savepoints: Vec::new(),
        });
    }
    tx.as_mut()
        .ok_or_else(|| OraError::new(600, "internal error code, arguments: [no transaction]"))
}

/// The writer's index of a table and its columns.
fn target(
    t: &Transaction,
    name: &TableName,
) -> Result<(usize, Vec<cdc_core::model::ColumnInfo>), OraError> {
    t.writer
        .table_defs()
        .iter()
        .position(|d| &d.name == name)
        .map(|i| (i, t.writer.columns(i).to_vec()))
        .ok_or_else(|| OraError::no_table(&name.owner_table()))
}

fn stored(d: &Datum, c: &cdc_core::model::ColumnInfo) -> Result<Value, OraError> {
    if c.virtual_column && !d.is_null() {
        return Err(OraError::new(
            54013,
            format!(
                "INSERT operation disallowed on virtual columns (\"{}\")",
                c.name
            ),
        ));
    }
    to_value(d, &c.data_type)
}

pub(super) fn insert(
    s: &mut EmulatorSession,
    tx: &mut Option<Transaction>,
    table: &TableName,
    columns: &[String],
    rows: Vec<Vec<Datum>>,
) -> Result<u64, OraError> {
    let name = s
        .resolve(table, &format!("insert into {}", table.owner_table()))
        .map_err(ora_error)?;
    s.user.insert(&name).map_err(ora_error)?;
    let t = transaction(s, tx)?;
    let (index, cols) = target(t, &name)?;
    let mut count = 0;
    for values in rows {
        let mut row = vec![Value::Null; cols.len()];
        for (column, d) in columns.iter().zip(&values) {
            let i = cols
                .iter()
                .position(|c| &c.name == column)
                .ok_or_else(|| OraError::new(904, format!("\"{column}\": invalid identifier")))?;
            row[i] = stored(d, &cols[i])?;
        }
        for (c, v) in cols.iter().zip(&row) {
            if !c.nullable && v.is_null() && !c.virtual_column {
                return Err(OraError::new(
                    1400,
                    format!(
                        "cannot insert NULL into (\"{}\".\"{}\".\"{}\")",
                        name.owner, name.table, c.name
                    ),
                ));
            }
        }
        t.writer.insert(t.xid, index, row).map_err(ora_error)?;
        count += 1;
    }
    Ok(count)
}

fn rowid(text: &str) -> Result<RowId, OraError> {
    RowId::decode(text).map_err(|e| OraError::new(1410, format!("invalid ROWID ({e})")))
}

pub(super) fn update(
    s: &mut EmulatorSession,
    tx: &mut Option<Transaction>,
    table: &TableName,
    rid: &str,
    changes: Vec<(String, Datum)>,
) -> Result<(), OraError> {
    let name = s
        .resolve(table, &format!("update of {}", table.owner_table()))
        .map_err(ora_error)?;
    s.user.update(&name).map_err(ora_error)?;
    let t = transaction(s, tx)?;
    let (index, cols) = target(t, &name)?;
    let mut set = Vec::with_capacity(changes.len());
    for (column, d) in &changes {
        let i = cols
            .iter()
            .position(|c| &c.name == column)
            .ok_or_else(|| OraError::new(904, format!("\"{column}\": invalid identifier")))?;
        if cols[i].virtual_column {
            return Err(OraError::new(
                54017,
                format!("UPDATE operation disallowed on virtual columns (\"{column}\")"),
            ));
        }
        set.push((i, stored(d, &cols[i])?));
    }
    t.writer
        .update_set(t.xid, index, rowid(rid)?, &set)
        .map_err(ora_error)?;
    Ok(())
}

pub(super) fn delete(
    s: &mut EmulatorSession,
    tx: &mut Option<Transaction>,
    table: &TableName,
    rid: &str,
) -> Result<(), OraError> {
    let name = s
        .resolve(table, &format!("delete from {}", table.owner_table()))
        .map_err(ora_error)?;
    s.user.delete(&name).map_err(ora_error)?;
    let t = transaction(s, tx)?;
    let (index, _) = target(t, &name)?;
    t.writer
        .delete(t.xid, index, rowid(rid)?)
        .map_err(ora_error)
}

/// COMMIT: the transaction's changes at one commit SCN, durable before this returns; the
/// writer lock is released.
pub(super) fn commit(tx: &mut Option<Transaction>) -> Result<(), OraError> {
    if let Some(mut t) = tx.take() {
        t.writer.commit(&[t.xid]).map_err(ora_error)?;
        t.writer.flush().map_err(ora_error)?;
    }
    Ok(())
}

pub(super) fn rollback(tx: &mut Option<Transaction>) -> Result<(), OraError> {
    if let Some(mut t) = tx.take() {
        t.writer.rollback(t.xid).map_err(ora_error)?;
        t.writer.flush().map_err(ora_error)?;
    }
    Ok(())
}

pub(super) fn savepoint(
    s: &EmulatorSession,
    tx: &mut Option<Transaction>,
    name: &str,
) -> Result<(), OraError> {
    let t = transaction(s, tx)?;
    let sp = t.writer.savepoint(t.xid).map_err(ora_error)?;
    t.savepoints.retain(|(n, _)| n != name);
    t.savepoints.push((name.to_string(), sp));
    Ok(())
}

pub(super) fn rollback_to(tx: &mut Option<Transaction>, name: &str) -> Result<(), OraError> {
    let never = || {
        OraError::new(
            1086,
            format!("savepoint '{name}' never established in this session or is invalid"),
        )
    };
    let t = tx.as_mut().ok_or_else(never)?;
    let at = t
        .savepoints
        .iter()
        .rposition(|(n, _)| n == name)
        .ok_or_else(never)?;
    let sp = t.savepoints[at].1;
    t.savepoints.truncate(at + 1);
    t.writer.rollback_to(t.xid, sp).map_err(ora_error)
}

#[cfg(test)]
mod chunk_tests {
    use super::chunk;
    use crate::types::{ColumnType, Value};
    use cdc_core::model::{ChunkRange, ColumnInfo};
    use emulator_sql::{Bound, CmpOp, ScanRequest};
    use oracle_datum::Datum;

    fn column(name: &str, ty: &str, nullable: bool) -> ColumnInfo {
        ColumnInfo {
            name: name.into(),
            data_type: ColumnType::parse(ty).unwrap(),
            nullable,
            virtual_column: false,
            hidden: false,
        }
    }

    fn bound(column: &str, op: CmpOp, value: Datum) -> Bound {
        Bound {
            column: column.into(),
            op,
            value,
        }
    }

    fn num(n: i64) -> Datum {
        Datum::Number(n.to_string().into())
    }

    fn request(bounds: Vec<Bound>) -> ScanRequest {
        ScanRequest {
            bounds,
            ..ScanRequest::default()
        }
    }

    /// What the chunk claims applied is what it reads exactly: `>=` and a one-column key's
    /// `<`, of NUMBERs on a NUMBER key that is never NULL; nothing else.
    #[test]
    fn a_chunk_claims_only_the_bounds_it_reads_exactly() {
        let id = column("ID", "NUMBER(12)", false);
        let key = ["ID".to_string()];
        let both = request(vec![
            bound("ID", CmpOp::Ge, num(10)),
            bound("ID", CmpOp::Lt, num(20)),
        ]);
        let (range, exact) = chunk(&both, &key, std::slice::from_ref(&id));
        assert_eq!(
            range,
            ChunkRange::Key {
                lower: Some(vec![Value::Number("10".into())]),
                upper: Some(vec![Value::Number("20".into())]),
            }
        );
        assert_eq!(exact, vec![0, 1]);
        // A bound on another column comes first: the indices are the request's.
        let mut other = both.clone();
        other
            .bounds
            .insert(0, bound("NAME", CmpOp::Eq, Datum::text("x")));
        assert_eq!(chunk(&other, &key, std::slice::from_ref(&id)).1, vec![1, 2]);
        // Read from the value on, a superset: `>` and `=`; `<=` is not read as a range.
        for op in [CmpOp::Gt, CmpOp::Eq, CmpOp::Le] {
            let r = request(vec![bound("ID", op, num(10))]);
            assert!(
                chunk(&r, &key, std::slice::from_ref(&id)).1.is_empty(),
                "{op:?}"
            );
        }
        // A composite key's upper end is not read as a range; its lower end, a prefix, is.
        let key2 = ["ID".to_string(), "SEQ".to_string()];
        let cols2 = [id.clone(), column("SEQ", "NUMBER", false)];
        assert_eq!(chunk(&both, &key2, &cols2).1, vec![0]);
        // A nullable key column (a wanted order, not the primary key): NULLs sort last, into
        // an open upper end.
        let nullable = column("ID", "NUMBER(12)", true);
        assert!(chunk(&both, &key, &[nullable]).1.is_empty());
        // Text and dates are left to the engine's WHERE clause.
        let name = column("NAME", "VARCHAR2(20)", false);
        let text = request(vec![bound("NAME", CmpOp::Ge, Datum::text("m"))]);
        let (range, exact) = chunk(&text, &["NAME".to_string()], &[name]);
        assert!(matches!(range, ChunkRange::Key { .. }));
        assert!(exact.is_empty());
        // A ROWID range applies no bound.
        let mut rowids = both.clone();
        rowids.rowid_between = Some(("AAAR".into(), "AAAS".into()));
        let (range, exact) = chunk(&rowids, &key, &[id]);
        assert!(matches!(range, ChunkRange::Rowid { .. }));
        assert!(exact.is_empty());
    }
}
