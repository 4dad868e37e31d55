//! Reads of rows still in the checkpoint file equal reads of the same rows loaded into memory,
//! at every SCN and for every kind of chunk, and take the same flashback errors.

use crate::errors::CdcError;
use crate::redo::DdlChange;
use crate::tests::{emp_row, Db, EMP};
use crate::types::Value;
use crate::EmulatorConnector;
use cdc_core::model::*;
use cdc_core::session::prelude::*;

fn emp() -> crate::names::TableName {
    "HR.EMP".parse().unwrap()
}

fn query(s: &mut dyn Session, scn: Scn, range: ChunkRange) -> FlashbackQuery {
    let info = s
        .tables()
        .unwrap()
        .into_iter()
        .find(|t| t.name == emp())
        .unwrap();
    FlashbackQuery {
        table: emp(),
        columns: info.columns.iter().map(|c| c.name.clone()).collect(),
        key_columns: vec!["ID".into()],
        scn,
        range,
        filter: None,
        row_ids: true,
    }
}

fn fetch(s: &mut dyn Session, q: &FlashbackQuery) -> String {
    let mut rows = Vec::new();
    match s.read_as_of(q, &mut |r| {
        rows.push(r);
        Ok(())
    }) {
        Ok(_) => format!("{rows:?}"),
        Err(e) => format!("error: {e}"),
    }
}

fn key(n: i64) -> Option<Vec<Value>> {
    Some(vec![Value::Number(n.to_string().into())])
}

/// What a snapshot asks of the table at `scn`: the whole table, key chunks, ROWID chunks, the
/// key range and boundary probes, as text.
fn reads(c: &EmulatorConnector, scn: Scn) -> String {
    let mut s = c.emulator_session().unwrap();
    let whole = query(&mut s, scn, ChunkRange::Whole);
    let mut out = format!("{scn} whole: {}\n", fetch(&mut s, &whole));
    let bounds = [
        None,
        key(0),
        key(3),
        key(4),
        key(7),
        key(12),
        key(22),
        key(50),
        key(99),
        None,
    ];
    for w in bounds.windows(2) {
        let q = query(
            &mut s,
            scn,
            ChunkRange::Key {
                lower: w[0].clone(),
                upper: w[1].clone(),
            },
        );
        out += &format!("key {:?}..{:?}: {}\n", w[0], w[1], fetch(&mut s, &q));
    }
    // ROWID ranges between the ROWIDs of the rows visible now, and one of no rows.
    let mut rowids: Vec<String> = Vec::new();
    s.read_as_of(&whole, &mut |r| {
        rowids.push(r.rowid.to_string());
        Ok(())
    })
    .unwrap();
    rowids.sort_by_key(|r| cdc_core::rowid::RowId::decode(r).unwrap());
    for (a, b) in [(0, 2), (1, 5), (3, 3), (2, 1)] {
        if let (Some(start), Some(end)) = (rowids.get(a), rowids.get(b)) {
            let q = query(
                &mut s,
                scn,
                ChunkRange::Rowid {
                    start: start.clone(),
                    end: end.clone(),
                },
            );
            out += &format!("rowid {a}..{b}: {}\n", fetch(&mut s, &q));
        }
    }
    out += &format!("range: {:?}\n", s.key_range(&emp(), "ID", Some(scn)));
    for (lower, step) in [(None, 1), (None, 3), (key(5), 2), (key(60), 1)] {
        let q = BoundaryQuery {
            table: emp(),
            key_columns: vec!["ID".into()],
            scn,
            lower: lower.clone(),
            step,
            count: 4,
        };
        out += &format!("bounds {lower:?}/{step}: {:?}\n", s.key_boundaries(&q));
    }
    out
}

fn loaded(c: &EmulatorConnector) -> bool {
    c.with_replica_meta(|r, _| r.rows_loaded()).unwrap()
}

#[test]
fn chunks_read_from_the_checkpoint_file_equal_the_loaded_rows_at_every_scn() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let mut scns = vec![w.replica().current_scn];
    let x = w.begin().unwrap();
    let rids: Vec<_> = (1..=20)
        .map(|id| w.insert(x, 0, emp_row(id, &format!("name {id}"))).unwrap())
        .collect();
    scns.push(w.commit(&[x]).unwrap());
    db.clock.advance(1000);
    let x = w.begin().unwrap();
    w.update(x, 0, rids[1], emp_row(2, "two")).unwrap();
    w.delete(x, 0, rids[5]).unwrap();
    scns.push(w.commit(&[x]).unwrap());
    w.checkpoint().unwrap();
    // A reader opened from this checkpoint, its rows on disk; it tails what follows.
    let reader = db.connector();
    assert!(!loaded(&reader));
    db.clock.advance(1000);
    let x = w.begin().unwrap();
    for id in 21..=24 {
        w.insert(x, 0, emp_row(id, "new")).unwrap();
    }
    w.update(x, 0, rids[2], emp_row(3, "three")).unwrap();
    w.update(x, 0, rids[2], emp_row(3, "three again")).unwrap();
    w.delete(x, 0, rids[3]).unwrap();
    // A key update: the row moves to the end of the key order.
    w.update(x, 0, rids[4], emp_row(50, "was five")).unwrap();
    scns.push(w.commit(&[x]).unwrap());
    db.clock.advance(1000);
    let x = w.begin().unwrap();
    // Another row takes the key the moved one had.
    w.insert(x, 0, emp_row(5, "new five")).unwrap();
    w.update(x, 0, rids[1], emp_row(2, "two again")).unwrap();
    scns.push(w.commit(&[x]).unwrap());
    // An open transaction's changes are seen by nobody.
    let open = w.begin().unwrap();
    w.update(open, 0, rids[0], emp_row(1, "uncommitted"))
        .unwrap();
    w.flush().unwrap();
    drop(w);
    let from_disk: Vec<String> = scns.iter().map(|&scn| reads(&reader, scn)).collect();
    assert!(!loaded(&reader), "the reads loaded the rows");
    assert!(from_disk[4].contains("was five") && from_disk[4].contains("new five"));
    // The same reader with its rows loaded, and a database replayed from its redo.
    reader.with_replica(|_, _| ()).unwrap();
    assert!(loaded(&reader));
    for (scn, want) in scns.iter().zip(&from_disk) {
        assert_eq!(&reads(&reader, *scn), want, "at {scn}");
    }
    std::fs::remove_file(
        db.path()
            .join(super::super::super::checkpoint::CHECKPOINT_FILE),
    )
    .unwrap();
    let replayed = db.connector();
    for (scn, want) in scns.iter().zip(&from_disk) {
        assert_eq!(&reads(&replayed, *scn), want, "replayed, at {scn}");
    }
}

#[test]
fn a_column_added_after_the_checkpoint_is_null_in_the_rows_read_from_the_file() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    for id in 1..=5 {
        w.insert(x, 0, emp_row(id, "before")).unwrap();
    }
    w.commit(&[x]).unwrap();
    w.checkpoint().unwrap();
    let reader = db.connector();
    let column = ColumnInfo {
        name: "EXTRA".into(),
        ..w.columns(0)[1].clone()
    };
    w.ddl(0, DdlChange::AddColumn { column }).unwrap();
    let x = w.begin().unwrap();
    let mut row = emp_row(6, "after");
    row.push(Value::Text("x".into()));
    w.insert(x, 0, row).unwrap();
    let scn = w.commit(&[x]).unwrap();
    w.flush().unwrap();
    drop(w);
    let got = reads(&reader, scn);
    assert!(!loaded(&reader));
    assert!(
        got.contains("Text(\"x\")") && got.matches("Null]").count() >= 5,
        "{got}"
    );
    reader.with_replica(|_, _| ()).unwrap();
    assert_eq!(reads(&reader, scn), got);
}

#[test]
fn a_read_of_the_file_at_an_scn_whose_undo_is_gone_fails_with_ora_01555() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    let rid = w.insert(x, 0, emp_row(1, "a")).unwrap();
    let old = w.commit(&[x]).unwrap();
    db.clock.advance(1000);
    let x = w.begin().unwrap();
    w.update(x, 0, rid, emp_row(1, "b")).unwrap();
    let new = w.commit(&[x]).unwrap();
    w.checkpoint().unwrap();
    drop(w);
    let reader = db.connector();
    let mut s = reader.emulator_session().unwrap();
    let q = query(&mut s, old, ChunkRange::Whole);
    assert!(fetch(&mut s, &q).contains("\"a\""), "within the retention");
    // UNDO_RETENTION is 900 s: the update's undo is gone.
    db.clock.advance(901_000);
    let e = s.read_as_of(&q, &mut |_| Ok(())).unwrap_err();
    assert!(matches!(e, CdcError::SnapshotTooOld { .. }), "{e}");
    let e = s.key_range(&emp(), "ID", Some(old)).unwrap_err();
    assert!(matches!(e, CdcError::SnapshotTooOld { .. }), "{e}");
    let q = query(&mut s, new, ChunkRange::Whole);
    assert!(fetch(&mut s, &q).contains("\"b\""));
    assert!(!loaded(&reader));
}

#[test]
fn a_table_whose_keys_left_rowid_order_before_the_checkpoint_is_read_loaded() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    let rids: Vec<_> = (1..=6)
        .map(|id| w.insert(x, 0, emp_row(id, "r")).unwrap())
        .collect();
    w.commit(&[x]).unwrap();
    let x = w.begin().unwrap();
    w.update(x, 0, rids[0], emp_row(90, "moved")).unwrap();
    let scn = w.commit(&[x]).unwrap();
    w.checkpoint().unwrap();
    drop(w);
    let reader = db.connector();
    assert!(!reader
        .with_replica_meta(|r, _| r.disk_serves_reads())
        .unwrap());
    let got = reads(&reader, scn);
    assert!(loaded(&reader));
    std::fs::remove_file(
        db.path()
            .join(super::super::super::checkpoint::CHECKPOINT_FILE),
    )
    .unwrap();
    assert_eq!(reads(&db.connector(), scn), got);
    assert!(got.contains("moved"));
}
