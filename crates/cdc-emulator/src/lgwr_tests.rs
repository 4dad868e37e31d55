//! LGWR and the host's clock in the emulator: LogMiner returns only written redo, V$THREAD shows
//! how far each thread is written (see `lgwr.rs`), and the DATEs they show are the host's time.

use super::tests::{emp_row, mine, Db, EMP};
use super::*;

fn ops(rows: &[LogMinerRow]) -> Vec<(String, String)> {
    rows.iter()
        .map(|r| (r.operation.clone(), r.xid.clone()))
        .collect()
}

#[test]
fn logminer_returns_only_written_redo_and_v_thread_shows_it() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let reader = db.connector();
    let mut s = reader.connect().unwrap();
    // After the load no transaction is open: CURRENT_SCN is past its last record, the SCN the
    // next redo carries at least (`Replica::current_scn_view`).
    let before = s.current_scn().unwrap();
    assert_eq!(
        before,
        reader.with_replica_meta(|r, _| r.own_scn + 1).unwrap()
    );
    // Idle: everything written; V$THREAD shows the thread's newest written record.
    let threads = s.redo_threads().unwrap();
    assert_eq!(threads.len(), 1);
    assert_eq!(
        (
            threads[0].thread,
            threads[0].status.as_str(),
            threads[0].enabled.as_str()
        ),
        (1, "OPEN", "PUBLIC")
    );
    let written = threads[0].last_redo_scn;
    assert!(written < before, "{written} {before}");
    assert_eq!(threads[0].enabled_scn, Some(5000));
    // At the first look only the written redo bounds mining; once the thread's position stood
    // still for LGWR's period, that look's SCN does (`source::threads`).
    assert_eq!(s.mining_limit(0).unwrap(), Some(written - 1));
    db.clock.advance(3_000);
    assert_eq!(s.redo_threads().unwrap()[0].last_redo_scn, written);
    assert_eq!(s.mining_limit(0).unwrap(), Some(before - 1));

    let t1 = w.begin().unwrap();
    w.insert(t1, 0, emp_row(1, "a")).unwrap();
    let now = s.current_scn().unwrap();
    assert!(
        now > before,
        "the database has the change (CURRENT_SCN moved)"
    );
    assert!(s
        .open_transactions()
        .unwrap()
        .iter()
        .any(|t| t.xid == t1.hex()));
    // In the log buffer: not in V$LOGMNR_CONTENTS, and V$THREAD stays where it was.
    assert!(mine(&mut *s, before, now).is_empty());
    let t = &s.redo_threads().unwrap()[0];
    assert_eq!(t.last_redo_scn, written, "{t:?} (current {now})");
    assert!(t.last_redo_time.is_some());
    // The position has not moved, but the look that found the thread idle was taken before
    // the START (which carries the SCN that look read): the bound stays below it.
    let limit = s.mining_limit(0).unwrap().unwrap();
    assert!(limit < before, "limit {limit} reaches the unwritten START");

    // LGWR's timed write: three seconds later the records are written.
    db.clock.advance(2_999);
    assert!(mine(&mut *s, before, now).is_empty());
    assert!(s.mining_limit(0).unwrap().unwrap() < before);
    db.clock.advance(1);
    let rows = mine(&mut *s, before, now);
    assert_eq!(
        ops(&rows),
        vec![("START".into(), t1.hex()), ("INSERT".into(), t1.hex())]
    );
    let t = &s.redo_threads().unwrap()[0];
    assert_eq!(t.last_redo_scn, now, "the INSERT, written");
    assert!(t.last_redo_block.unwrap() > threads[0].last_redo_block.unwrap());
    // The thread wrote: bounded by what it wrote. While t1 is open its COMMIT may come next,
    // so CURRENT_SCN stays at the INSERT and the bound one below, however long it waits.
    assert_eq!(s.mining_limit(0).unwrap(), Some(now - 1));
    db.clock.advance(3_000);
    assert_eq!(s.mining_limit(0).unwrap(), Some(now - 1));
    // Committed: written at once; a quiet LGWR period later the commit is minable.
    let c = w.commit(&[t1]).unwrap();
    assert_eq!(s.current_scn().unwrap(), c + 1);
    assert_eq!(s.mining_limit(0).unwrap(), Some(c - 1));
    db.clock.advance(3_000);
    assert_eq!(s.mining_limit(0).unwrap(), Some(c));
}

#[test]
fn a_commit_writes_its_own_threads_redo_and_no_other_threads() {
    let db = Db::new(&EMP.replace("start_scn: 5000", "start_scn: 5000\n  redo_threads: 2"));
    let mut w = db.writer();
    let reader = db.connector();
    let mut s = reader.connect().unwrap();
    let before = s.current_scn().unwrap();
    let t1 = w.begin().unwrap();
    w.insert(t1, 0, emp_row(1, "a")).unwrap();
    let t2 = w.begin().unwrap();
    w.insert(t2, 0, emp_row(2, "b")).unwrap();
    let thread = |s: &mut dyn Session, x: &super::redo::Xid| {
        s.open_transactions()
            .unwrap()
            .into_iter()
            .find(|t| t.xid == x.hex())
            .map(|t| t.thread)
            .unwrap()
    };
    let (a, b) = (thread(&mut *s, &t1), thread(&mut *s, &t2));
    assert_ne!(a, b, "two transactions in a row run on two threads");
    let c2 = w.commit(&[t2]).unwrap();
    // t2's thread is written up to its commit; t1's redo is still in its thread's buffer.
    assert_eq!(
        ops(&mine(&mut *s, before, c2)),
        vec![
            ("START".into(), t2.hex()),
            ("INSERT".into(), t2.hex()),
            ("COMMIT".into(), t2.hex()),
        ]
    );
    let threads = s.redo_threads().unwrap();
    let of = |t: u32| {
        threads
            .iter()
            .find(|r| r.thread == t)
            .unwrap()
            .last_redo_scn
    };
    assert_eq!(of(b), c2, "written up to its commit");
    assert!(
        of(a) <= before,
        "thread {a} wrote nothing since SCN {before}"
    );
    assert!(s.mining_limit(0).unwrap().unwrap() < before);
    // However long t1's thread stands still, its unwritten START holds the bound (it has
    // stood still since the first look, taken after the START).
    db.clock.advance(2_000);
    assert!(s.mining_limit(0).unwrap().unwrap() < before);

    // A commit on t1's thread writes everything before it there, t1's open change too.
    let t3 = w.begin().unwrap();
    assert_eq!(thread(&mut *s, &t3), a);
    w.insert(t3, 0, emp_row(3, "c")).unwrap();
    let c3 = w.commit(&[t3]).unwrap();
    let t1_rows: Vec<_> = ops(&mine(&mut *s, before, c3))
        .into_iter()
        .filter(|(_, x)| *x == t1.hex())
        .collect();
    assert_eq!(
        t1_rows,
        vec![("START".into(), t1.hex()), ("INSERT".into(), t1.hex())]
    );
    // Both threads written up to their commits: a quiet LGWR period later the SCN read after
    // the last commit bounds both, one below it (t1 is still open: its COMMIT may come next
    // and take the SCN after c3, so CURRENT_SCN stays at c3).
    assert!(s.mining_limit(0).unwrap().unwrap() < c3);
    db.clock.advance(3_000);
    assert_eq!(s.mining_limit(0).unwrap(), Some(c3 - 1));
    // t1 commits (written at once): a quiet period after a look that saw it, everything is
    // minable.
    let c1 = w.commit(&[t1]).unwrap();
    assert!(s.mining_limit(0).unwrap().unwrap() < c1);
    db.clock.advance(3_000);
    assert_eq!(s.mining_limit(0).unwrap(), Some(c1));
}

#[test]
fn without_a_write_delay_every_record_is_minable_at_once() {
    let db = Db::new(&EMP.replace(
        "start_scn: 5000",
        "start_scn: 5000\n  redo_write_delay_ms: 0",
    ));
    let mut w = db.writer();
    let mut s = db.connector().connect().unwrap();
    let before = s.current_scn().unwrap();
    let t1 = w.begin().unwrap();
    w.insert(t1, 0, emp_row(1, "a")).unwrap();
    let now = s.current_scn().unwrap();
    assert_eq!(mine(&mut *s, before, now).len(), 2);
    // No timed write to wait for: an idle thread is bounded by the SCN at once (one below it:
    // with t1 open its COMMIT may take the next SCN), and its commit is minable at once.
    assert_eq!(s.mining_limit(0).unwrap(), Some(now - 1));
    let c = w.commit(&[t1]).unwrap();
    assert_eq!(s.mining_limit(0).unwrap(), Some(c));
}

#[test]
fn logminer_dates_and_scn_to_timestamp_are_the_hosts_local_time() {
    let db = Db::new(&EMP.replace(
        "start_scn: 5000",
        "start_scn: 5000\n  host_utc_offset: \"-07:00\"",
    ));
    let mut w = db.writer();
    let mut s = db.connector().connect().unwrap();
    assert_eq!(s.host_utc_offset().unwrap(), Some(-7 * 3600));
    let before = s.current_scn().unwrap();
    // 2023-11-14 22:13:20 UTC is 15:13:20 on a host at -07:00.
    let t1 = w.begin().unwrap();
    w.insert(t1, 0, emp_row(1, "a")).unwrap();
    let c = w.commit(&[t1]).unwrap();
    let rows = mine(&mut *s, before, c);
    assert!(
        rows.iter().all(|r| r.timestamp == "2023-11-14 15:13:20"),
        "{rows:?}"
    );
    let commit = rows.iter().find(|r| r.operation == "COMMIT").unwrap();
    assert_eq!(
        commit.commit_timestamp.as_deref(),
        Some("2023-11-14 15:13:20")
    );
    assert_eq!(
        s.scn_to_time(c).unwrap().as_deref(),
        Some("2023-11-14 15:13:20")
    );
    // LAST_REDO_TIME is the time of the thread's last redo: idle, it stands still.
    db.clock.advance(60_000);
    assert_eq!(
        s.redo_threads().unwrap()[0].last_redo_time.as_deref(),
        Some("2023-11-14 15:13:20")
    );
}

#[test]
fn a_host_offset_must_be_plus_or_minus_hours_and_minutes() {
    for bad in ["UTC", "+5", "+05:3", "+15:00", "-12:30", "05:30"] {
        let text = EMP.replace(
            "start_scn: 5000",
            &format!("start_scn: 5000\n  host_utc_offset: \"{bad}\""),
        );
        let e = schema::SchemaFile::parse(std::path::Path::new("s.yaml"), &text).unwrap_err();
        assert!(e.to_string().contains("host_utc_offset"), "{bad}: {e}");
    }
    for good in ["+00:00", "-12:00", "+14:00", "+05:45", "-03:30"] {
        let text = EMP.replace(
            "start_scn: 5000",
            &format!("start_scn: 5000\n  host_utc_offset: \"{good}\""),
        );
        assert!(schema::SchemaFile::parse(std::path::Path::new("s.yaml"), &text).is_ok());
    }
}
