//! A replica keeps only the newest redo records in memory; LogMiner still renders every record
//! of a mined range, read back from the redo file.

use super::redo::{Redo, RedoTail};
use super::redo_index::CACHE;
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
