//! A replica keeps only the newest redo records in memory; LogMiner still renders every record
//! of a mined range, read back from the redo file.

use super::redo::{Redo, RedoTail};
use super::redo_index::{CACHE, MARK_EVERY};
use super::store::Replica;
use super::tests::{Db, EMP};
use super::*;
use crate::types::Value;
use cdc_core::filter::MiningFilter;

fn emp(id: i64) -> Vec<Value> {
    vec![
        Value::Number(id.to_string().into()),
        Value::Text(format!("n{id}").into()),
        Value::Null,
        Value::Null,
        Value::Null,
    ]
}

/// Every record of the file replayed into a replica without a file: everything in memory.
fn in_memory(db: &Db) -> Replica {
    let schema = read_schema(&db.path()).unwrap();
    let defs = schema.tables(&db.path().join(SCHEMA_FILE)).unwrap();
    let mut r = Replica::new(schema, defs);
    RedoTail::new(&db.path())
        .read_new(|rec| r.apply(rec))
        .unwrap();
    r
}

#[test]
fn mining_renders_records_older_than_the_cache_from_the_file() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let mut ids = 100;
    // Enough transactions that most records fall out of the cache; one stays open across them.
    let long = w.begin().unwrap();
    w.insert(long, 0, emp(1)).unwrap();
    for _ in 0..60 {
        let x = w.begin().unwrap();
        for _ in 0..3 {
            ids += 1;
            w.insert(x, 0, emp(ids)).unwrap();
        }
        w.commit(&[x]).unwrap();
        db.clock.advance(1_000);
    }
    w.commit(&[long]).unwrap();
    w.flush().unwrap();
    db.clock.advance(10_000);
    let conn = EmulatorConnector::open_with_clock(
        &db.path(),
        Faults::default(),
        Arc::new(db.clock.clone()),
    )
    .unwrap();
    let all = in_memory(&db);
    let now = db.clock.now_ms();
    let filter = MiningFilter::default();
    conn.with_replica(|r, _| {
        assert!(
            r.records.len() <= CACHE,
            "{} records in memory",
            r.records.len()
        );
        assert!(r.next_record() > 3 * CACHE as u64);
        assert_eq!(r.next_record(), all.next_record());
        let start = r.schema.database.start_scn;
        // The whole redo, and windows starting before, at and after the cache's first record.
        let first_cached = r.records.front().map(|x| x.scn()).unwrap();
        for (a, b) in [
            (start, r.current_scn),
            (start + 40, start + 90),
            (first_cached - 1, first_cached + 5),
            (first_cached, r.current_scn),
        ] {
            let got = logminer::mine(r, a, b, now, &filter).unwrap();
            let want = logminer::mine(&all, a, b, now, &filter).unwrap();
            assert!(!want.is_empty());
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "window {a}..={b}");
        }
        // A record older than the cache, read by number.
        let old = r.record(5).unwrap().unwrap();
        assert_eq!(*old, *all.record(5).unwrap().unwrap());
        assert!(
            matches!(*r.record(1).unwrap().unwrap(), Redo::Insert { .. }) || r.record(1).is_ok()
        );
    })
    .unwrap();
}

/// A record read back by number is the record at that place, and the lines read past on the
/// way to it (checked, not parsed) are still whole: a changed byte, or two lines made one, is
/// CDC-4004 naming the line, never another record taken for the one asked.
#[test]
fn a_record_read_by_number_checks_the_lines_before_it() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    for id in 0..40 {
        let x = w.begin().unwrap();
        w.insert(x, 0, emp(id)).unwrap();
        w.commit(&[x]).unwrap();
    }
    w.flush().unwrap();
    let all = in_memory(&db);
    let path = db.path().join(redo::REDO_FILE);
    let open = || {
        EmulatorConnector::open_with_clock(
            &db.path(),
            Faults::default(),
            Arc::new(db.clock.clone()),
        )
        .unwrap()
    };
    let conn = open();
    let evicted = conn
        .with_replica(|r, _| {
            let evicted = r.records_base;
            assert!(evicted > 3 * MARK_EVERY, "{evicted} records read back");
            for n in 0..evicted {
                let got = r.record(n).unwrap();
                assert_eq!(got, all.record(n).unwrap(), "record {n}");
            }
            evicted
        })
        .unwrap();
    // The record 3 past a mark, and the line of the one before it.
    let n = 2 * MARK_EVERY + 3;
    assert!(n < evicted);
    let text = std::fs::read(&path).unwrap();
    let line_start = |i: u64| -> usize {
        let mut at = 0;
        for _ in 0..i {
            at += text[at..].iter().position(|&b| b == b'\n').unwrap() + 1;
        }
        at
    };
    let damaged = n - 1;
    let (start, end) = (line_start(damaged), line_start(damaged + 1) - 1);
    // A byte changed inside the record's JSON.
    let mut changed = text.clone();
    let digit = start
        + changed[start..end]
            .iter()
            .position(|b| b.is_ascii_digit())
            .unwrap();
    changed[digit] = if changed[digit] == b'9' {
        b'1'
    } else {
        changed[digit] + 1
    };
    // The line and the next made one.
    let mut merged = text.clone();
    merged[end] = b' ';
    for bad in [changed, merged] {
        std::fs::write(&path, &bad).unwrap();
        let e = conn
            .with_replica(|r, _| r.record(n).map(|_| ()))
            .unwrap()
            .unwrap_err();
        match &e {
            CdcError::RedoDamaged { line, .. } => assert_eq!(*line, damaged + 1, "{e}"),
            other => panic!("{other}"),
        }
        // A record before the damage, from the same mark, is read as it was.
        let before = conn.with_replica(|r, _| r.record(n - 2)).unwrap().unwrap();
        assert_eq!(before, all.record(n - 2).unwrap());
    }
    std::fs::write(&path, &text).unwrap();
}
