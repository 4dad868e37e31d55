//! LOGICAL_READS_PER_CALL: a call of the user that reads more than its profile allows fails
//! with ORA-02395 (CDC-5017), its session kept; before 12.1.0.2 (RESOURCE_LIMIT FALSE by
//! default) it is not enforced.

use crate::errors::{CdcError, Code};
use crate::testing::{emp_row, mine, read, Db, EMP};
use cdc_core::session::prelude::*;

/// EMP with CDC limited to `reads` reads a call, and 30 rows of HR.EMP inserted in three
/// transactions (each insert and commit a redo record).
fn limited(reads: u64, version: &str) -> Db {
    let schema = EMP.replacen(
        "database:\n",
        &format!(
            "database:\n  version: \"{version}\"\n  users:\n    - {{ name: CDC, logical_reads_per_call: {reads} }}\n    - {{ name: OTHER }}\n"
        ),
        1,
    );
    let db = Db::new(&schema);
    let mut w = db.writer();
    for t in 0..3 {
        let x = w.begin().unwrap();
        for i in 0..10 {
            let id = t * 10 + i;
            w.insert(x, 0, emp_row(id, &format!("e{id}"))).unwrap();
        }
        w.commit(&[x]).unwrap();
        w.flush().unwrap();
    }
    db.clock.advance(10_000);
    db
}

/// A session of CDC, the limited user.
fn as_cdc(db: &Db) -> crate::session::EmulatorSession {
    db.connector()
        .with_login(Some("CDC"), None)
        .emulator_session()
        .unwrap()
}

#[test]
fn a_call_reading_past_logical_reads_per_call_is_ora_02395_and_the_session_goes_on() {
    let db = limited(20, "19.22.0.0.0");
    let mut s = as_cdc(&db);
    let scn = s.current_scn().unwrap();
    // 30 rows in one read: past the 20.
    let e = read(&mut s, "HR.EMP", scn).unwrap_err();
    assert!(matches!(e, CdcError::CallLimit(_)), "{e}");
    assert_eq!(e.code(), Code::Cdc5017);
    assert!(e.to_string().contains("ORA-02395"), "{e}");
    // The session goes on: a read within the limit, and the limit as the view shows it.
    assert_eq!(read(&mut s, "HR.OTHER", scn).unwrap().len(), 3);
    // Mining the whole history reads every record (30 inserts, their commits, the rest):
    // past the limit; a window of the last transaction's records alone is within it.
    let start = 5000;
    let mut rows = Vec::new();
    let e = s
        .mine(start, scn, &Default::default(), &mut |r| {
            rows.push(r);
            Ok(())
        })
        .unwrap_err();
    assert!(matches!(e, CdcError::CallLimit(_)), "{e}");
    assert!(e.to_string().contains("ORA-02395"), "{e}");
    let other = db.connector().with_login(Some("OTHER"), None);
    let last = mine(&mut other.emulator_session().unwrap(), start, scn);
    let tail: Vec<u64> = last.iter().rev().take(11).map(|r| r.scn).collect();
    let from = *tail.iter().min().unwrap();
    assert_eq!(mine(&mut s, from, scn).len(), tail.len());
}

#[test]
fn before_12_1_0_2_the_limit_is_not_enforced() {
    let db = limited(20, "11.2.0.4.0");
    let mut s = as_cdc(&db);
    let scn = s.current_scn().unwrap();
    assert_eq!(read(&mut s, "HR.EMP", scn).unwrap().len(), 30);
}
