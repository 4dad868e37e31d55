//! A database in a temporary directory on a manual clock, and the reads and mining windows
//! tests take of it: the emulator's own tests use it, and so do the engine's tests of what it
//! builds on the emulator (feature `testing`).

use crate::clock::ManualClock;
use crate::errors::Result;
use crate::names::TableName;
use crate::types::Value;
use crate::writer::Writer;
use crate::{init, EmulatorConnector, Faults};
use cdc_core::model::{ChunkRange, FetchedRow, FlashbackQuery, LogMinerRow, Scn};
use cdc_core::session::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// The manual clock's start (milliseconds since the epoch).
pub const T0: i64 = 1_700_000_000_000;

/// HR.EMP (empty, with a DATE, a RAW and a long VARCHAR2) and HR.OTHER (3 rows).
pub const EMP: &str = r#"
seed: 5
database:
  start_scn: 5000
  undo_retention: 900
tables:
  - name: HR.EMP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
      - { name: HIRED, type: DATE }
      - { name: PHOTO, type: RAW(4) }
      - { name: NOTE, type: VARCHAR2(4000) }
    primary_key: [ID]
    supplemental_logging: primary_key
  - name: HR.OTHER
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
    primary_key: [ID]
    rows: 3
"#;

/// A database made from a schema text in a temporary directory.
pub struct Db {
    pub dir: tempfile::TempDir,
    pub clock: ManualClock,
}

impl Db {
    pub fn new(schema: &str) -> Db {
        let dir = tempfile::tempdir().unwrap();
        let schema_path = dir.path().join("in.yaml");
        std::fs::write(&schema_path, schema).unwrap();
        let clock = ManualClock::new(T0);
        init(
            &dir.path().join("db"),
            &schema_path,
            None,
            Arc::new(clock.clone()),
        )
        .unwrap();
        Db { dir, clock }
    }
    pub fn path(&self) -> PathBuf {
        self.dir.path().join("db")
    }
    pub fn writer(&self) -> Writer {
        Writer::open(&self.path(), Arc::new(self.clock.clone()), false).unwrap()
    }
    pub fn connector(&self) -> EmulatorConnector {
        self.connector_with(Faults::default())
    }
    pub fn connector_with(&self, faults: Faults) -> EmulatorConnector {
        EmulatorConnector::open_with_clock(&self.path(), faults, Arc::new(self.clock.clone()))
            .unwrap()
    }
}

pub fn emp_row(id: i64, name: &str) -> Vec<Value> {
    vec![
        Value::Number(id.to_string().into()),
        Value::Text(name.to_string().into()),
        Value::Date("2020-01-01 00:00:00".into()),
        Value::Bytes(vec![0x0a, 0x0b]),
        Value::Null,
    ]
}

pub fn read(s: &mut dyn Session, table: &str, scn: Scn) -> Result<Vec<FetchedRow>> {
    let table: TableName = table.parse().unwrap();
    let info = s.tables()?.into_iter().find(|t| t.name == table).unwrap();
    let q = FlashbackQuery {
        table,
        columns: info.columns.iter().map(|c| c.name.clone()).collect(),
        key_columns: info.primary_key.map(|k| k.columns).unwrap_or_default(),
        scn,
        range: ChunkRange::Whole,
        filter: None,
        row_ids: true,
    };
    let mut rows = Vec::new();
    s.read_as_of(&q, &mut |r| {
        rows.push(r);
        Ok(())
    })?;
    Ok(rows)
}

/// `columns` of every row of `table` AS OF `scn` as the session reads them, as text, in the
/// order of the first column (the table's key).
pub fn read_text(s: &mut dyn Session, table: &str, columns: &[&str], scn: Scn) -> Vec<Vec<String>> {
    read_text_where(s, table, columns, None, scn)
}

/// [`read_text`] under a condition.
pub fn read_text_where(
    s: &mut dyn Session,
    table: &str,
    columns: &[&str],
    filter: Option<&str>,
    scn: Scn,
) -> Vec<Vec<String>> {
    let q = FlashbackQuery {
        table: table.parse().unwrap(),
        columns: columns.iter().map(|c| c.to_string()).collect(),
        key_columns: columns[..1].iter().map(|c| c.to_string()).collect(),
        scn,
        range: ChunkRange::Whole,
        filter: filter.map(str::to_string),
        row_ids: false,
    };
    let mut rows = Vec::new();
    s.read_as_of(&q, &mut |r| {
        rows.push(r.values.iter().map(Value::to_string).collect());
        Ok(())
    })
    .unwrap();
    rows
}

pub fn mine(s: &mut dyn Session, start: Scn, end: Scn) -> Vec<LogMinerRow> {
    let mut rows = Vec::new();
    s.mine(start, end, &Default::default(), &mut |r| {
        rows.push(r);
        Ok(())
    })
    .unwrap();
    rows
}

/// A primary with a few committed inserts into HR.EMP and small logs (several log switches).
pub fn primary_with_logs() -> Db {
    let db = Db::new(&EMP.replace(
        "  undo_retention: 900",
        "  undo_retention: 900\n  log_size: 10",
    ));
    let mut w = db.writer();
    // A LogMiner dictionary in the redo (sequence 1), for downstream mining.
    w.build_dictionary().unwrap();
    for id in 1..=40 {
        let x = w.begin().unwrap();
        w.insert(x, 0, emp_row(id, "n")).unwrap();
        w.commit(&[x]).unwrap();
    }
    w.flush().unwrap();
    db
}

/// A downstream mining database `ds` beside `db`'s (named DOWN, DBID 7), receiving its archived
/// logs from sequence 1 on except `missing`, opened on `db`'s clock with the LogMiner dictionary
/// from the redo; and its directory.
pub fn downstream_of(db: &Db, missing: Vec<u64>) -> (EmulatorConnector, PathBuf) {
    let ds = db.dir.path().join("ds");
    crate::topology::create(
        &ds,
        &crate::topology::TopologyFile::Downstream {
            source: db.path(),
            name: "DOWN".into(),
            dbid: 7,
            scn: 1,
            shipping: crate::topology::Shipping::Archived,
            from_sequence: 1,
            missing_sequences: missing,
        },
    )
    .unwrap();
    let conn =
        EmulatorConnector::open_with_clock(&ds, Faults::default(), Arc::new(db.clock.clone()))
            .unwrap();
    conn.set_dictionary(cdc_core::model::Dictionary::RedoLogs)
        .unwrap();
    (conn, ds)
}
