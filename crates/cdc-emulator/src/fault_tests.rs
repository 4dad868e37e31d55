//! The mining and LOB fault drills fail where Oracle fails: ORA-01284 (a purged log added) and
//! ORA-01307 (no session) before the first row, ORA-00308 part-way through the window, ORA-22924
//! on a chosen flashback read; and each maps to the code capture retries.

use super::clock::ManualClock;
use super::*;
use crate::errors::Code;

fn db() -> (tempfile::TempDir, Arc<ManualClock>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.yaml");
    std::fs::write(
        &path,
        "tables:\n  - name: HR.T\n    columns:\n      - { name: ID, type: NUMBER(5), nullable: false }\n      - { name: C, type: CLOB }\n    primary_key: [ID]\n    rows: 40\n",
    )
    .unwrap();
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    init(&dir.path().join("db"), &path, None, clock.clone()).unwrap();
    (dir, clock)
}

#[test]
fn mining_fault_drills_fail_where_oracle_does() {
    let (dir, clock) = db();
    let mut f = Faults::default();
    f.settings.ora01284_mines = vec![1];
    f.settings.ora00308_mines = vec![2];
    f.settings.ora01307_mines = vec![3];
    let c = EmulatorConnector::open_with_clock(&dir.path().join("db"), f, clock).unwrap();
    let mut s = c.connect().unwrap();
    let end = s.current_scn().unwrap();
    let start = end - 30;
    let mine = |s: &mut dyn Session| {
        let mut n = 0;
        let r = s.mine(
            start,
            end,
            &cdc_core::filter::MiningFilter::default(),
            &mut |_| {
                n += 1;
                Ok(())
            },
        );
        (r, n)
    };
    let (whole, all) = {
        // The same window without drills: every row.
        let c2 = EmulatorConnector::open(&dir.path().join("db"), Faults::default()).unwrap();
        let mut s2 = c2.connect().unwrap();
        mine(&mut *s2)
    };
    assert!(whole.is_ok() && all > 10);
    let (r, n) = mine(&mut *s);
    let e = r.unwrap_err();
    assert_eq!((e.code(), n), (Code::Cdc5010, 0), "{e}");
    assert!(e.to_string().contains("ORA-01284: file /u01/arch/"), "{e}");
    let (r, n) = mine(&mut *s);
    let e = r.unwrap_err();
    assert_eq!(e.code(), Code::Cdc5010);
    assert!(
        e.to_string()
            .contains("ORA-00308: cannot open archived log"),
        "{e}"
    );
    assert!(n > 0 && n < all, "part-way: {n} of {all} rows");
    let (r, n) = mine(&mut *s);
    let e = r.unwrap_err();
    assert_eq!((e.code(), n), (Code::Cdc5011, 0), "{e}");
    assert!(e
        .to_string()
        .contains("ORA-01307: no LogMiner session is currently active"));
    let (r, n) = mine(&mut *s);
    assert!(r.is_ok());
    assert_eq!(n, all);
}

#[test]
fn the_ora22924_drill_fails_the_chosen_read() {
    let (dir, clock) = db();
    let mut f = Faults::default();
    f.settings.ora22924_reads = vec![2];
    let c = EmulatorConnector::open_with_clock(&dir.path().join("db"), f, clock).unwrap();
    let mut s = c.connect().unwrap();
    let scn = s.current_scn().unwrap();
    let q = FlashbackQuery {
        table: "HR.T".parse().unwrap(),
        columns: vec!["ID".into(), "C".into()],
        key_columns: vec!["ID".into()],
        scn,
        range: ChunkRange::Whole,
        filter: None,
        row_ids: true,
    };
    let mut read = || s.read_as_of(&q, &mut |_| Ok(()));
    assert_eq!(read().unwrap(), 40);
    let e = read().unwrap_err();
    assert_eq!(e.code(), Code::Cdc5012);
    assert!(e.to_string().contains("ORA-22924"), "{e}");
    assert_eq!(read().unwrap(), 40);
}
