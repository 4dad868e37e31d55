//! The LogMiner dictionary on the emulator: a downstream cannot decode the source's redo with
//! the online catalog; with the dictionary in the redo it needs a build (`emulator
//! build-dictionary`) whole before the window, and every log from the build on.

use super::tests::{emp_row, mine, Db, EMP};
use super::*;
use crate::errors::Code;

fn commit_rows(w: &mut writer::Writer, ids: std::ops::Range<i64>) {
    for id in ids {
        let x = w.begin().unwrap();
        w.insert(x, 0, emp_row(id, "n")).unwrap();
        w.commit(&[x]).unwrap();
    }
}

fn downstream(db: &Db, name: &str, missing: Vec<u64>) -> EmulatorConnector {
    let dir = db.dir.path().join(name);
    topology::create(
        &dir,
        &topology::TopologyFile::Downstream {
            source: db.path(),
            name: "DOWN".into(),
            dbid: 7,
            scn: 1,
            shipping: topology::Shipping::RealTime,
            from_sequence: 1,
            missing_sequences: missing,
        },
    )
    .unwrap();
    EmulatorConnector::open_with_clock(&dir, Faults::default(), Arc::new(db.clock.clone())).unwrap()
}

fn err(s: &mut dyn Session, start: Scn, end: Scn) -> CdcError {
    s.mine(
        start,
        end,
        &cdc_core::filter::MiningFilter::default(),
        &mut |_| Ok(()),
    )
    .unwrap_err()
}

#[test]
fn a_downstream_mines_only_with_a_whole_dictionary_from_the_redo() {
    let db = Db::new(&EMP.replace(
        "  undo_retention: 900",
        "  undo_retention: 900\n  log_size: 10",
    ));
    let mut w = db.writer();
    commit_rows(&mut w, 1..3);
    let ds = downstream(&db, "ds", Vec::new());
    let mut s = ds.connect().unwrap();
    let now = db.connector().connect().unwrap().current_scn().unwrap();

    // The online catalog is the downstream's own dictionary: refused.
    let e = err(&mut *s, now - 2, now);
    assert_eq!(e.code(), Code::Cdc5301, "{e}");

    // From the redo: nothing built yet.
    ds.set_dictionary(Dictionary::RedoLogs).unwrap();
    assert!(s.dictionary_builds().unwrap().is_empty());
    let e = err(&mut *s, now - 2, now);
    assert_eq!(e.code(), Code::Cdc5302, "{e}");
    assert!(e.to_string().contains("ORA-01371"), "{e}");

    // DBMS_LOGMNR_D.BUILD, then ARCHIVE LOG CURRENT: the build's log is archived.
    let (built, sequence) = w.build_dictionary().unwrap();
    commit_rows(&mut w, 3..6);
    let builds = s.dictionary_builds().unwrap();
    assert_eq!(builds.len(), 1);
    let b = &builds[0];
    assert_eq!(
        (b.thread, b.begin_sequence, b.end_sequence),
        (1, sequence, sequence)
    );
    assert!(b.begin_scn <= built && built < b.end_next_scn, "{b:?}");
    let end = db.connector().connect().unwrap().current_scn().unwrap();
    let rows = mine(&mut *s, b.end_next_scn, end);
    assert_eq!(rows.iter().filter(|r| r.operation == "INSERT").count(), 3);
    // A window starting before the build is whole cannot be decoded.
    let e = err(&mut *s, b.end_next_scn - 1, end);
    assert_eq!(e.code(), Code::Cdc5302, "{e}");
    assert!(
        e.to_string()
            .contains(&format!("end at SCN {}", b.end_next_scn)),
        "{e}"
    );

    // LogMiner reads from the build on: a log lost between it and the window is ORA-01291.
    let gap = downstream(&db, "gap", vec![sequence + 1]);
    gap.set_dictionary(Dictionary::RedoLogs).unwrap();
    let mut g = gap.connect().unwrap();
    let e = err(&mut *g, end, end);
    assert_eq!(e.code(), Code::Cdc5201, "{e}");
    assert!(
        e.to_string()
            .contains(&format!("sequence {}", sequence + 1)),
        "{e}"
    );
}

#[test]
fn the_source_itself_may_mine_with_the_dictionary_in_the_redo_once_built() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let conn = db.connector();
    conn.set_dictionary(Dictionary::RedoLogs).unwrap();
    let mut s = conn.connect().unwrap();
    commit_rows(&mut w, 1..2);
    let now = s.current_scn().unwrap();
    assert_eq!(err(&mut *s, now, now).code(), Code::Cdc5302);
    w.build_dictionary().unwrap();
    let from = s.current_scn().unwrap();
    commit_rows(&mut w, 2..4);
    let end = s.current_scn().unwrap();
    let with_build = mine(&mut *s, from, end);
    let online = mine(&mut *db.connector().connect().unwrap(), from, end);
    assert_eq!(with_build, online);
    assert_eq!(
        with_build
            .iter()
            .filter(|r| r.operation == "COMMIT")
            .count(),
        2
    );
}

#[test]
fn a_dictionary_build_needs_archivelog_mode_and_a_primary() {
    let db = Db::new(&EMP.replace(
        "  undo_retention: 900",
        "  undo_retention: 900\n  archivelog: false",
    ));
    let e = db.writer().build_dictionary().unwrap_err();
    assert!(e.to_string().contains("ORA-01325"), "{e}");
    let primary = Db::new(EMP);
    let ds = primary.dir.path().join("ds");
    downstream(&primary, "ds", Vec::new());
    let e = writer::Writer::open(&ds, Arc::new(primary.clock.clone()), false)
        .err()
        .unwrap();
    assert_eq!(e.code(), Code::Cdc2204);
}

#[test]
fn a_session_builds_into_the_current_log_listed_once_it_is_archived() {
    let db = Db::new(&EMP.replace(
        "  undo_retention: 900",
        "  undo_retention: 900\n  log_size: 10",
    ));
    let conn = db.connector();
    let mut s = conn.connect().unwrap();
    assert!(s.dictionary_builds().unwrap().is_empty());
    s.build_dictionary().unwrap();
    // In the current log: not listed until a switch archives it.
    assert!(s.dictionary_builds().unwrap().is_empty());
    commit_rows(&mut db.writer(), 1..8);
    let builds = s.dictionary_builds().unwrap();
    assert_eq!(builds.len(), 1, "{builds:?}");
    // Usable from the end of its log on.
    let now = s.current_scn().unwrap();
    assert!(builds[0].end_next_scn <= now);
    conn.set_dictionary(Dictionary::RedoLogs).unwrap();
    s.mine(
        builds[0].end_next_scn,
        now,
        &cdc_core::filter::MiningFilter::default(),
        &mut |_| Ok(()),
    )
    .unwrap();
}

#[test]
fn a_build_needs_execute_on_dbms_logmnr_d_and_a_writable_primary() {
    let lacking = Db::new(&EMP.replace(
        "  undo_retention: 900",
        "  undo_retention: 900\n  privileges: [CREATE SESSION, LOGMINING]",
    ));
    let e = lacking
        .connector()
        .connect()
        .unwrap()
        .build_dictionary()
        .unwrap_err();
    assert_eq!(e.code(), Code::Cdc2401, "{e}");
    assert!(e.to_string().contains("DBMS_LOGMNR_D"), "{e}");
    let standby = Db::new(&EMP.replace(
        "  undo_retention: 900",
        "  undo_retention: 900\n  role: physical_standby\n  open_mode: read_only",
    ));
    let e = standby
        .connector()
        .connect()
        .unwrap()
        .build_dictionary()
        .unwrap_err();
    assert_eq!(e.code(), Code::Cdc5005, "{e}");
}
