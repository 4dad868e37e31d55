//! An in-memory [`Database`] for the engine's tests: tables with ROWIDs and AS OF SCN
//! versions, catalog-like views, packaged constants, database functions, and a record of
//! every scan request, procedure call, session parameter and write.
#![allow(dead_code)]

pub mod catalog;
pub mod logs;

use emulator_sql::{
    Argument, Bound, CmpOp, Column, Database, DateTime, Datum, ObjectName, OraError, OraType,
    Outcome, Relation, Row, ScanRequest, SqlSession,
};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

pub fn n(v: i64) -> Datum {
    Datum::Number(v.to_string().into())
}
pub fn num(s: &str) -> Datum {
    Datum::Number(s.to_string().into())
}
pub fn t(s: &str) -> Datum {
    Datum::text(s)
}
pub const NULL: Datum = Datum::Null;
pub fn date(s: &str) -> Datum {
    Datum::Date(DateTime::parse(s).expect("date"))
}
pub fn ts(s: &str) -> Datum {
    Datum::Timestamp(DateTime::parse(s).expect("timestamp"))
}

pub fn num_col(name: &str) -> Column {
    Column::new(name, OraType::NUMBER)
}
pub fn text_col(name: &str, n: u32) -> Column {
    Column::new(name, OraType::Varchar2(n))
}

/// A row as stored: its ROWID (tables) and values.
pub type Stored = (Option<String>, Vec<Datum>);
/// Makes the row of an index, for relations generated as they are read.
pub type Generator = fn(usize) -> Vec<Datum>;
/// An UPDATE as the database saw it: table, ROWID, changes.
pub type Change = (ObjectName, String, Vec<(String, Datum)>);

/// A relation: columns, rows (ROWID for tables), versions by SCN.
#[derive(Clone, Default)]
pub struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Stored>,
    /// (SCN, rows as of it), ascending.
    pub versions: Vec<(u64, Vec<Stored>)>,
    /// Declared stored order (the order rows are kept in), as a scan reports it.
    pub ordered_by: Vec<String>,
    /// Rows generated on the fly: (count, generator) instead of `rows`.
    pub generated: Option<(usize, Generator)>,
}

/// Every call the engine made.
#[derive(Default, Debug)]
pub struct Log {
    pub scans: Vec<(ObjectName, ScanRequest)>,
    pub calls: Vec<(Vec<String>, Vec<Argument>)>,
    pub alter: Vec<(String, String)>,
    pub inserts: Vec<(ObjectName, Vec<String>, Vec<Vec<Datum>>)>,
    pub updates: Vec<Change>,
    pub deletes: Vec<(ObjectName, String)>,
    pub tx: Vec<String>,
    pub functions: Vec<(String, Vec<Datum>)>,
}

pub struct MemDb {
    pub tables: BTreeMap<(String, String), Table>,
    pub schema: String,
    pub log: Log,
    /// Apply pushed-down bounds (as a key-range read would).
    pub honor_bounds: bool,
    /// Return rows in `wanted_order` when asked (and say so).
    pub sort_on_request: bool,
    /// Report every bound a scan is asked for as applied ([`Relation::exact_bounds`]): true
    /// of what it returns with `honor_bounds`; without, a database breaking the promise, which
    /// shows the conjuncts the engine no longer checks.
    pub exact_bounds: bool,
    /// Rows handed out by scans so far.
    pub produced: Arc<AtomicUsize>,
    /// MIN and MAX of (table, column) as an index would give them (`Database::min_max`).
    pub index_ends: BTreeMap<(String, String), (Datum, Datum)>,
    next_rowid: u64,
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// An 18-character ROWID whose base-64 value grows with `i`.
pub fn rowid(i: u64) -> String {
    let mut s = vec![b'A'; 18];
    let mut v = i;
    for k in (0..18).rev() {
        s[k] = B64[(v % 64) as usize];
        v /= 64;
    }
    // A fixed object number prefix, as real ROWIDs of one table share one.
    s[3] = b'R';
    String::from_utf8(s).unwrap_or_default()
}

fn b64_key(s: &str) -> Vec<u8> {
    s.bytes()
        .map(|c| B64.iter().position(|&x| x == c).unwrap_or(64) as u8)
        .collect()
}

/// Compare two values of one column (enough for the fixtures' types).
pub fn cmp_datum(a: &Datum, b: &Datum) -> std::cmp::Ordering {
    use std::cmp::Ordering::*;
    match (a, b) {
        (Datum::Null, Datum::Null) => Equal,
        (Datum::Null, _) => Greater,
        (_, Datum::Null) => Less,
        (Datum::Number(x), Datum::Number(y)) => {
            let fx: f64 = x.parse().unwrap_or(0.0);
            let fy: f64 = y.parse().unwrap_or(0.0);
            fx.partial_cmp(&fy).unwrap_or(Equal)
        }
        (Datum::Text(x), Datum::Text(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Datum::Date(x) | Datum::Timestamp(x), Datum::Date(y) | Datum::Timestamp(y)) => x.cmp(y),
        (Datum::Rowid(x), Datum::Rowid(y)) => b64_key(x).cmp(&b64_key(y)),
        _ => Equal,
    }
}

fn satisfies(v: &Datum, b: &Bound) -> bool {
    if v.is_null() {
        return false;
    }
    let o = cmp_datum(v, &b.value);
    match b.op {
        CmpOp::Eq => o.is_eq(),
        CmpOp::Lt => o.is_lt(),
        CmpOp::Le => o.is_le(),
        CmpOp::Gt => o.is_gt(),
        CmpOp::Ge => o.is_ge(),
    }
}

impl Default for MemDb {
    fn default() -> Self {
        MemDb::new()
    }
}

impl MemDb {
    /// The bounds a scan reports applied: all of them, when told to.
    fn applied(&self, request: &ScanRequest) -> Vec<usize> {
        if self.exact_bounds {
            (0..request.bounds.len()).collect()
        } else {
            Vec::new()
        }
    }

    pub fn new() -> MemDb {
        MemDb {
            tables: BTreeMap::new(),
            schema: "SCOTT".into(),
            log: Log::default(),
            honor_bounds: true,
            sort_on_request: true,
            exact_bounds: false,
            produced: Arc::new(AtomicUsize::new(0)),
            index_ends: BTreeMap::new(),
            next_rowid: 1000,
        }
    }

    /// A table (with ROWIDs) in `schema`.
    pub fn table(&mut self, schema: &str, name: &str, columns: Vec<Column>, rows: Vec<Vec<Datum>>) {
        let rows = rows
            .into_iter()
            .map(|r| {
                self.next_rowid += 1;
                (Some(rowid(self.next_rowid)), r)
            })
            .collect();
        self.tables.insert(
            (schema.into(), name.into()),
            Table {
                columns,
                rows,
                ..Table::default()
            },
        );
    }

    /// A view (no ROWIDs) visible from every schema.
    pub fn view(&mut self, name: &str, columns: Vec<Column>, rows: Vec<Vec<Datum>>) {
        self.tables.insert(
            ("SYS".into(), name.into()),
            Table {
                columns,
                rows: rows.into_iter().map(|r| (None, r)).collect(),
                ..Table::default()
            },
        );
    }

    /// Records the table's current rows as its version at `scn`.
    pub fn snapshot(&mut self, schema: &str, name: &str, scn: u64) {
        if let Some(tb) = self.tables.get_mut(&(schema.to_string(), name.to_string())) {
            let rows = tb.rows.clone();
            tb.versions.push((scn, rows));
        }
    }

    fn key(&self, name: &ObjectName) -> Option<(String, String)> {
        let schema = name.schema.clone().unwrap_or_else(|| self.schema.clone());
        let k = (schema, name.name.clone());
        if self.tables.contains_key(&k) {
            return Some(k);
        }
        if name.schema.is_none() {
            let public = ("SYS".to_string(), name.name.clone());
            if self.tables.contains_key(&public) {
                return Some(public);
            }
        }
        None
    }

    fn table_mut(&mut self, name: &ObjectName) -> Result<&mut Table, OraError> {
        let k = self
            .key(name)
            .ok_or_else(|| OraError::no_table(&name.name))?;
        self.tables
            .get_mut(&k)
            .ok_or_else(|| OraError::no_table(&name.name))
    }
}

impl Database for MemDb {
    fn scan(&mut self, name: &ObjectName, request: &ScanRequest) -> Result<Relation, OraError> {
        self.log.scans.push((name.clone(), request.clone()));
        let skip_rowids = request.skip_rowids;
        let k = self
            .key(name)
            .ok_or_else(|| OraError::no_table(&name.name))?;
        let tb = self.tables[&k].clone();
        let counter = self.produced.clone();
        if let Some((count, generator)) = tb.generated {
            // Rows made as they are pulled: nothing is held here.
            let bounds = if self.honor_bounds {
                request.bounds.clone()
            } else {
                Vec::new()
            };
            let columns = tb.columns.clone();
            let rows = (0..count).filter_map(move |i| {
                let values = generator(i);
                let keep = bounds.iter().all(|b| {
                    let idx = columns.iter().position(|c| c.name == b.column);
                    idx.is_none_or(|i| satisfies(&values[i], b))
                });
                keep.then(|| {
                    counter.fetch_add(1, Ordering::SeqCst);
                    Ok(Row {
                        rowid: (!skip_rowids).then(|| rowid(i as u64).into()),
                        values,
                    })
                })
            });
            return Ok(Relation {
                columns: tb.columns,
                rows: Box::new(rows),
                ordered_by: tb.ordered_by,
                rowid_type: OraType::Rowid,
                exact_bounds: self.applied(request),
            });
        }
        let mut rows = match request.as_of_scn {
            None => tb.rows.clone(),
            Some(scn) => match tb.versions.iter().rev().find(|(s, _)| *s <= scn) {
                Some((_, r)) => r.clone(),
                None if tb.versions.is_empty() => tb.rows.clone(),
                None => {
                    return Err(OraError::new(
                        1466,
                        "unable to read data - table definition has changed",
                    ))
                }
            },
        };
        if self.honor_bounds {
            rows.retain(|(rid, values)| {
                let in_bounds = request.bounds.iter().all(|b| {
                    match tb.columns.iter().position(|c| c.name == b.column) {
                        Some(i) => satisfies(&values[i], b),
                        None => true,
                    }
                });
                let in_rowids = match (&request.rowid_between, rid) {
                    (Some((lo, hi)), Some(r)) => {
                        b64_key(r) >= b64_key(lo) && b64_key(r) <= b64_key(hi)
                    }
                    _ => true,
                };
                in_bounds && in_rowids
            });
        }
        let mut ordered_by = tb.ordered_by.clone();
        if self.sort_on_request && !request.wanted_order.is_empty() {
            let idx: Vec<Option<usize>> = request
                .wanted_order
                .iter()
                .map(|w| tb.columns.iter().position(|c| c.name == *w))
                .collect();
            rows.sort_by(|a, b| {
                for (w, i) in request.wanted_order.iter().zip(&idx) {
                    let o = match i {
                        Some(i) => cmp_datum(&a.1[*i], &b.1[*i]),
                        None if w == "ROWID" => b64_key(a.0.as_deref().unwrap_or(""))
                            .cmp(&b64_key(b.0.as_deref().unwrap_or(""))),
                        None => std::cmp::Ordering::Equal,
                    };
                    if o.is_ne() {
                        return o;
                    }
                }
                std::cmp::Ordering::Equal
            });
            ordered_by = request.wanted_order.clone();
        }
        let rows = rows.into_iter().map(move |(rowid, values)| {
            counter.fetch_add(1, Ordering::SeqCst);
            Ok(Row {
                // Asked to skip them, none: the engine must not need them.
                rowid: rowid.filter(|_| !skip_rowids).map(Into::into),
                values,
            })
        });
        Ok(Relation {
            columns: tb.columns,
            rows: Box::new(rows),
            ordered_by,
            rowid_type: OraType::Rowid,
            exact_bounds: self.applied(request),
        })
    }

    fn columns(&mut self, table: &ObjectName) -> Result<Vec<Column>, OraError> {
        Ok(self.table_mut(table)?.columns.clone())
    }

    fn function(&mut self, name: &str, args: &[Datum]) -> Option<Result<Datum, OraError>> {
        self.log.functions.push((name.to_string(), args.to_vec()));
        Some(Ok(match (name, args) {
            ("USER", []) => t("SCOTT"),
            ("UID", []) => n(42),
            ("DBTIMEZONE", []) => t("+00:00"),
            ("SYS_CONTEXT", [ns, key]) => match (ns, key) {
                (Datum::Text(a), Datum::Text(b)) if a.eq_ignore_ascii_case("USERENV") => {
                    match b.to_ascii_uppercase().as_str() {
                        "CON_NAME" => t("PDB1"),
                        "CON_ID" => t("3"),
                        "CURRENT_SCHEMA" => t(&self.schema),
                        _ => NULL,
                    }
                }
                _ => NULL,
            },
            ("SCN_TO_TIMESTAMP", [Datum::Number(s)]) => {
                let scn: i64 = s.parse().unwrap_or(0);
                if scn < 100 {
                    return Some(Err(OraError::new(
                        8181,
                        "specified number is not a valid system change number",
                    )));
                }
                let secs = scn % 86_400;
                Datum::Timestamp(DateTime {
                    hour: (secs / 3600) as u8,
                    minute: (secs % 3600 / 60) as u8,
                    second: (secs % 60) as u8,
                    ..DateTime::date(2026, 1, 1)
                })
            }
            _ => return None,
        }))
    }

    fn constant(&mut self, name: &[String]) -> Option<Datum> {
        let full = name.join(".");
        let short = full.strip_prefix("SYS.").unwrap_or(&full);
        Some(n(match short {
            "DBMS_LOGMNR.NEW" => 1,
            "DBMS_LOGMNR.REMOVEFILE" => 2,
            "DBMS_LOGMNR.ADDFILE" => 3,
            "DBMS_LOGMNR.DDL_DICT_TRACKING" => 2,
            "DBMS_LOGMNR.DICT_FROM_REDO_LOGS" => 8,
            "DBMS_LOGMNR.DICT_FROM_ONLINE_CATALOG" => 16,
            "DBMS_LOGMNR.NO_ROWID_IN_STMT" => 2048,
            _ => return None,
        }))
    }

    fn call(&mut self, procedure: &[String], args: &[Argument]) -> Result<(), OraError> {
        self.log.calls.push((procedure.to_vec(), args.to_vec()));
        if procedure.last().is_some_and(|p| p == "FAIL") {
            return Err(OraError::new(1284, "file /x cannot be opened"));
        }
        Ok(())
    }

    fn alter_session(&mut self, name: &str, value: &str) -> Result<(), OraError> {
        self.log.alter.push((name.into(), value.into()));
        if name == "CURRENT_SCHEMA" {
            self.schema = value.to_string();
        }
        Ok(())
    }

    fn insert(
        &mut self,
        table: &ObjectName,
        columns: &[String],
        rows: Vec<Vec<Datum>>,
    ) -> Result<u64, OraError> {
        self.log
            .inserts
            .push((table.clone(), columns.to_vec(), rows.clone()));
        let n = rows.len() as u64;
        self.next_rowid += 1;
        let mut next = self.next_rowid;
        let tb = self.table_mut(table)?;
        for r in rows {
            let mut full = vec![Datum::Null; tb.columns.len()];
            for (c, v) in columns.iter().zip(r) {
                if let Some(i) = tb.columns.iter().position(|x| x.name == *c) {
                    full[i] = v;
                }
            }
            next += 1;
            tb.rows.push((Some(rowid(next)), full));
        }
        self.next_rowid = next;
        Ok(n)
    }

    fn update(
        &mut self,
        table: &ObjectName,
        rowid: &str,
        changes: Vec<(String, Datum)>,
    ) -> Result<(), OraError> {
        self.log
            .updates
            .push((table.clone(), rowid.to_string(), changes.clone()));
        let tb = self.table_mut(table)?;
        let cols = tb.columns.clone();
        if let Some((_, row)) = tb
            .rows
            .iter_mut()
            .find(|(r, _)| r.as_deref() == Some(rowid))
        {
            for (c, v) in changes {
                if let Some(i) = cols.iter().position(|x| x.name == c) {
                    row[i] = v;
                }
            }
        }
        Ok(())
    }

    fn delete(&mut self, table: &ObjectName, rowid: &str) -> Result<(), OraError> {
        self.log.deletes.push((table.clone(), rowid.to_string()));
        let tb = self.table_mut(table)?;
        tb.rows.retain(|(r, _)| r.as_deref() != Some(rowid));
        Ok(())
    }

    fn commit(&mut self) -> Result<(), OraError> {
        self.log.tx.push("COMMIT".into());
        Ok(())
    }
    fn rollback(&mut self) -> Result<(), OraError> {
        self.log.tx.push("ROLLBACK".into());
        Ok(())
    }
    fn savepoint(&mut self, name: &str) -> Result<(), OraError> {
        self.log.tx.push(format!("SAVEPOINT {name}"));
        Ok(())
    }
    fn rollback_to(&mut self, name: &str) -> Result<(), OraError> {
        if !self.log.tx.contains(&format!("SAVEPOINT {name}")) {
            return Err(OraError::new(
                1086,
                format!("savepoint '{name}' never established in this session or is invalid"),
            ));
        }
        self.log.tx.push(format!("ROLLBACK TO {name}"));
        Ok(())
    }

    fn host_time(&mut self) -> (DateTime, i16) {
        (
            DateTime::parse("2026-12-04 10:05:09.123456789").unwrap_or_default(),
            120,
        )
    }

    fn min_max(
        &mut self,
        table: &ObjectName,
        column: &str,
        _as_of_scn: Option<u64>,
    ) -> Option<Result<(Datum, Datum), OraError>> {
        self.index_ends
            .get(&(table.name.clone(), column.to_string()))
            .cloned()
            .map(Ok)
    }
}

/// Runs a query: its columns and all its rows.
pub fn query(
    db: &mut MemDb,
    s: &mut SqlSession,
    sql: &str,
    binds: &[Datum],
) -> Result<(Vec<Column>, Vec<Vec<Datum>>), OraError> {
    match s.execute(db, sql, binds)? {
        Outcome::Rows { columns, rows } => Ok((columns, rows.collect::<Result<_, _>>()?)),
        other => panic!("{sql}: not a query: {other:?}"),
    }
}

/// The rows of a query with a fresh session, panicking with the error.
#[track_caller]
pub fn rows(db: &mut MemDb, sql: &str, binds: &[Datum]) -> Vec<Vec<Datum>> {
    let mut s = SqlSession::new();
    match query(db, &mut s, sql, binds) {
        Ok((_, r)) => r,
        Err(e) => panic!("{sql}: {e} at {:?}", e.position),
    }
}

/// The error a statement raises with a fresh session.
#[track_caller]
pub fn error(db: &mut MemDb, sql: &str, binds: &[Datum]) -> OraError {
    let mut s = SqlSession::new();
    match s.execute(db, sql, binds) {
        Ok(Outcome::Rows { rows, .. }) => {
            for r in rows {
                if let Err(e) = r {
                    return e;
                }
            }
            panic!("{sql}: no error")
        }
        Ok(other) => panic!("{sql}: no error: {other:?}"),
        Err(e) => e,
    }
}

/// The single value of a one-row, one-column query.
#[track_caller]
pub fn value(db: &mut MemDb, sql: &str) -> Datum {
    let r = rows(db, sql, &[]);
    assert_eq!(r.len(), 1, "{sql}: {r:?}");
    r[0][0].clone()
}
