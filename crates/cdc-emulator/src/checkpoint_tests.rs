//! Checkpoints: a database opens from its checkpoint and replays only the redo after it, with
//! the rows read only when something reads rows; what it shows is what a full replay shows.

use super::checkpoint::CHECKPOINT_FILE;
use super::redo::DdlChange;
use super::tests::{emp_row, mine, read, Db, EMP};
use super::*;
use crate::types::Value;

/// Reads at several SCNs and the whole LogMiner view, as one string to compare.
fn everything(db: &Db, scns: &[Scn]) -> String {
    let c = db.connector();
    let mut s = c.emulator_session().unwrap();
    let mut out = String::new();
    for &scn in scns {
        out += &format!(
            "{scn}: {:?}\n",
            read(&mut s, "HR.EMP", scn).map(|r| r.len())
        );
        out += &format!("{:?}\n", read(&mut s, "HR.EMP", scn));
        out += &format!("{:?}\n", read(&mut s, "HR.OTHER", scn));
    }
    let start = c.with_replica(|r, _| r.schema.database.start_scn).unwrap();
    let now = s.current_scn().unwrap();
    out += &format!("{:?}", mine(&mut s, start, now));
    out
}

/// Changes after the checkpoint: inserts, updates, deletes, a DDL, and a transaction left open.
fn work_after_checkpoint(db: &Db) -> Vec<Scn> {
    let mut w = db.writer();
    let mut scns = vec![w.replica().current_scn];
    let x = w.begin().unwrap();
    let a = w.insert(x, 0, emp_row(1, "ann")).unwrap();
    let b = w.insert(x, 0, emp_row(2, "bob")).unwrap();
    scns.push(w.commit(&[x]).unwrap());
    db.clock.advance(1000);
    let x = w.begin().unwrap();
    w.update(x, 0, a, emp_row(1, "anne")).unwrap();
    w.delete(x, 0, b).unwrap();
    scns.push(w.commit(&[x]).unwrap());
    db.clock.advance(1000);
    scns.push(
        w.ddl(
            0,
            DdlChange::AddColumn {
                column: cdc_core::model::ColumnInfo {
                    name: "EXTRA".into(),
                    ..w.columns(0)[1].clone()
                },
            },
        )
        .unwrap(),
    );
    let x = w.begin().unwrap();
    let mut row = emp_row(3, "cy");
    row.push(Value::Text("e".into()));
    w.insert(x, 0, row).unwrap();
    scns.push(w.commit(&[x]).unwrap());
    let open = w.begin().unwrap();
    let mut row = emp_row(4, "dee");
    row.push(Value::Null);
    w.insert(open, 0, row).unwrap();
    w.flush().unwrap();
    // The writer goes away with the transaction open (as if killed: no rollback written).
    drop(w);
    scns
}

#[test]
fn init_leaves_a_checkpoint_whose_rows_are_read_from_the_file_when_rows_are_read() {
    let db = Db::new(EMP);
    assert!(db.path().join(CHECKPOINT_FILE).is_file());
    let c = db.connector();
    let (loaded, rows) = c
        .with_replica_meta(|r, _| (r.rows_loaded(), r.tables[1].live_rows))
        .unwrap();
    assert!(!loaded, "opening read the rows");
    assert_eq!(rows, 3);
    let mut s = c.emulator_session().unwrap();
    let scn = s.current_scn().unwrap();
    assert_eq!(read(&mut s, "HR.OTHER", scn).unwrap().len(), 3);
    // Read from the file, not loaded into memory; what reads them directly loads them.
    assert!(!c.with_replica_meta(|r, _| r.rows_loaded()).unwrap());
    c.with_replica(|_, _| ()).unwrap();
    assert!(c.with_replica_meta(|r, _| r.rows_loaded()).unwrap());
}

#[test]
fn a_database_opened_from_its_checkpoint_shows_what_a_full_replay_shows() {
    let db = Db::new(EMP);
    let scns = work_after_checkpoint(&db);
    let from_checkpoint = everything(&db, &scns);
    // A second checkpoint, taken by a writer that rolled back the open transaction.
    let mut w = db.writer();
    w.checkpoint().unwrap();
    drop(w);
    let after_second = everything(&db, &scns);
    std::fs::remove_file(db.path().join(CHECKPOINT_FILE)).unwrap();
    let replayed = everything(&db, &scns);
    assert_eq!(after_second, replayed);
    // Before the rollback the open transaction's insert was not visible either; only the
    // LogMiner view (its ROLLBACK) differs.
    assert_eq!(
        from_checkpoint
            .lines()
            .take(scns.len() * 3)
            .collect::<Vec<_>>(),
        replayed.lines().take(scns.len() * 3).collect::<Vec<_>>()
    );
}

#[test]
fn a_checkpoint_that_does_not_match_the_redo_is_ignored() {
    let db = Db::new(EMP);
    let scns = work_after_checkpoint(&db);
    let mut w = db.writer();
    w.checkpoint().unwrap();
    drop(w);
    let want = everything(&db, &scns);
    let cp = db.path().join(CHECKPOINT_FILE);
    let good = std::fs::read(&cp).unwrap();
    // A cut file and garbage are ignored, and the redo replayed.
    for bad in [good[..good.len() - 1].to_vec(), b"junk".to_vec()] {
        std::fs::write(&cp, &bad).unwrap();
        assert_eq!(everything(&db, &scns), want);
    }
    // Damaged rows are found when they are read: the read fails rather than lose rows. The
    // last table's last row ends with a name's text; its directory comes after it.
    let header = header_of(&good);
    let section = |key: &str| {
        let s = &header[key][1];
        (s[0].as_u64().unwrap() + s[1].as_u64().unwrap()) as usize
    };
    for at in [section("rows") - 2, section("dirs") - 2] {
        let mut damaged = good.clone();
        damaged[at] = 0xff;
        std::fs::write(&cp, &damaged).unwrap();
        let c = db.connector();
        let mut s = c.emulator_session().unwrap();
        let e = read(&mut s, "HR.OTHER", scns[0]).unwrap_err();
        assert!(e.to_string().contains(CHECKPOINT_FILE), "{e}");
    }
    // Loading every row reads the rows sections, not the directories.
    let mut damaged = good.clone();
    damaged[section("rows") - 2] = 0xff;
    std::fs::write(&cp, &damaged).unwrap();
    let e = db.connector().with_replica(|_, _| ()).unwrap_err();
    assert!(e.to_string().contains(CHECKPOINT_FILE), "{e}");
    // The redo rewritten before the checkpoint's point (another database in the directory).
    std::fs::write(&cp, &good).unwrap();
    let redo = db.path().join(redo::REDO_FILE);
    let text = std::fs::read_to_string(&redo).unwrap();
    // The record changed with its checksum made again: the redo is whole, but other.
    let mut changed = String::new();
    for line in text.lines() {
        if line.contains("dee") {
            let payload = line[..line.len() - 9].replace("dee", "dea");
            let sum = redo::line_sum(payload.as_bytes());
            changed += &payload;
            changed += std::str::from_utf8(&sum).unwrap();
        } else {
            changed += line;
        }
        changed.push('\n');
    }
    std::fs::write(&redo, &changed).unwrap();
    let c = db.connector();
    assert!(
        c.with_replica_meta(|r, _| r.rows_loaded()).unwrap(),
        "the checkpoint of other redo was used"
    );
}

/// The JSON of a checkpoint's header line (without the checksum that ends it).
fn header_of(file: &[u8]) -> serde_json::Value {
    let line = file.split(|b| *b == b'\n').nth(1).unwrap();
    let line = std::str::from_utf8(line).unwrap();
    serde_json::from_str(line.split(" crc32c=").next().unwrap()).unwrap()
}

#[test]
fn a_changed_byte_in_a_stored_value_is_cdc_4004_naming_the_file_table_and_bytes_never_data() {
    let db = Db::new(EMP);
    let scns = work_after_checkpoint(&db);
    let mut w = db.writer();
    w.checkpoint().unwrap();
    drop(w);
    let want = everything(&db, &scns);
    let cp = db.path().join(CHECKPOINT_FILE);
    let good = std::fs::read(&cp).unwrap();
    let body_start = header_of(&good)["body_start"].as_u64().unwrap() as usize;
    // "anne" as a stored value (a row of HR.EMP), turned into "bnne": the rows still decode,
    // so only a checksum can tell.
    let at = body_start
        + good[body_start..]
            .windows(4)
            .position(|w| w == b"anne")
            .unwrap();
    let mut damaged = good.clone();
    damaged[at] = b'b';
    std::fs::write(&cp, &damaged).unwrap();
    let c = db.connector();
    let mut s = c.emulator_session().unwrap();
    for e in [
        read(&mut s, "HR.EMP", *scns.last().unwrap()).unwrap_err(),
        c.with_replica(|_, _| ()).unwrap_err(),
    ] {
        assert_eq!(e.code(), crate::errors::Code::Cdc4004, "{e}");
        let text = e.to_string();
        for part in [CHECKPOINT_FILE, "HR.EMP", "checksum", "bytes "] {
            assert!(text.contains(part), "{part} missing: {text}");
        }
        assert!(!text.contains("bnne"), "{text}");
    }
    // The other table's pages are whole: its rows are served.
    assert_eq!(read(&mut s, "HR.OTHER", scns[0]).unwrap().len(), 3);
    // A changed byte in the header line or the metadata: that checkpoint is not used, and the
    // redo replayed shows the same rows.
    for needle in [&b"redo_offset"[..], b"\"EXTRA\""] {
        let mut damaged = good.clone();
        let at = damaged
            .windows(needle.len())
            .position(|w| w == needle)
            .unwrap();
        assert!(at < body_start);
        damaged[at + 1] ^= 0x01;
        std::fs::write(&cp, &damaged).unwrap();
        let c = db.connector();
        assert!(
            c.with_replica_meta(|r, _| r.rows_loaded()).unwrap(),
            "a damaged checkpoint was used"
        );
        assert_eq!(everything(&db, &scns), want);
    }
}

#[test]
fn a_checkpoint_of_the_version_before_checksums_is_replaced_by_a_replay_of_the_redo() {
    let db = Db::new(EMP);
    let scns = work_after_checkpoint(&db);
    let want = everything(&db, &scns);
    let cp = db.path().join(CHECKPOINT_FILE);
    let mut old = std::fs::read(&cp).unwrap();
    let magic = b"oracle-cdc emulator checkpoint 3\n";
    assert!(old.starts_with(magic));
    old[magic.len() - 2] = b'2';
    std::fs::write(&cp, &old).unwrap();
    assert!(db
        .connector()
        .with_replica_meta(|r, _| r.rows_loaded())
        .unwrap());
    assert_eq!(everything(&db, &scns), want);
}

#[test]
fn a_reader_keeps_reading_the_checkpoint_it_opened_after_a_newer_one_replaces_it() {
    let db = Db::new(EMP);
    // A reader opened from init's checkpoint, its rows not read yet.
    let reader = db.connector();
    assert!(!reader.with_replica_meta(|r, _| r.rows_loaded()).unwrap());
    let scns = work_after_checkpoint(&db);
    // The writer's new checkpoint replaces the file; a half-written one of a killed writer
    // stays behind as checkpoint.tmp and changes nothing.
    let mut w = db.writer();
    w.checkpoint().unwrap();
    drop(w);
    std::fs::write(
        db.path().join("checkpoint.tmp"),
        b"oracle-cdc emulator checkpoint 1\n{",
    )
    .unwrap();
    let mut s = reader.emulator_session().unwrap();
    let mut got = String::new();
    for &scn in &scns {
        got += &format!("{:?}\n", read(&mut s, "HR.EMP", scn));
    }
    std::fs::remove_file(db.path().join(CHECKPOINT_FILE)).unwrap();
    let c = db.connector();
    let mut s = c.emulator_session().unwrap();
    let mut want = String::new();
    for &scn in &scns {
        want += &format!("{:?}\n", read(&mut s, "HR.EMP", scn));
    }
    assert_eq!(got, want);
    assert!(want.contains("anne"));
}

#[test]
fn a_reader_that_never_reads_rows_reads_them_once_too_many_changes_wait() {
    let db = Db::new(EMP);
    let reader = db.connector();
    let mut w = db.writer();
    let x = w.begin().unwrap();
    for id in 0..store::PENDING_LIMIT as i64 + 1 {
        w.insert(x, 0, emp_row(100 + id, "p")).unwrap();
    }
    w.commit(&[x]).unwrap();
    w.flush().unwrap();
    let (loaded, pending) = reader
        .with_replica_meta(|r, _| (r.rows_loaded(), r.pending_changes()))
        .unwrap();
    assert!(loaded, "{pending} changes wait for rows never read");
    assert_eq!(pending, 0);
}

/// A bulk load's tables: one with a key, a partitioned one without (its rows come in the order
/// of two segments), and one with a compound key.
const LOADED: &str = r#"
seed: 9
database:
  start_scn: 5000
tables:
  - name: APP.T
    columns:
      - { name: ID, type: NUMBER(12), nullable: false }
      - { name: NAME, type: VARCHAR2(40), generate: { text: { min: 3, max: 30 } } }
    primary_key: [ID]
    rows: 130
  - name: APP.LOG
    columns:
      - { name: REGION, type: VARCHAR2(8), nullable: false, generate: { choice: [EMEA, APAC] } }
      - { name: MSG, type: VARCHAR2(20) }
    partitions:
      column: REGION
      list:
        - { name: P_EMEA, values: [EMEA] }
        - { name: P_APAC, values: [APAC] }
    rows: 70
  - name: APP.PAIR
    columns:
      - { name: A, type: VARCHAR2(10), nullable: false }
      - { name: B, type: NUMBER(5), nullable: false }
    primary_key: [A, B]
    rows: 40
"#;

#[test]
fn a_bulk_loads_checkpoint_reads_as_its_replayed_redo_and_the_loader_kept_no_rows() {
    let db = Db::new(LOADED);
    let tables = ["APP.T", "APP.LOG", "APP.PAIR"];
    let reads = |c: &EmulatorConnector| -> Vec<String> {
        let mut s = c.emulator_session().unwrap();
        let scn = s.current_scn().unwrap();
        tables
            .iter()
            .map(|t| format!("{:?}", read(&mut s, t, scn).unwrap()))
            .collect()
    };
    let from_checkpoint = db.connector();
    let got = reads(&from_checkpoint);
    assert!(!from_checkpoint
        .with_replica_meta(|r, _| r.rows_loaded())
        .unwrap());
    let counts: Vec<usize> = got
        .iter()
        .map(|r| r.matches("FetchedRow").count())
        .collect();
    assert_eq!(counts, [130, 70, 40]);
    std::fs::remove_file(db.path().join(CHECKPOINT_FILE)).unwrap();
    assert_eq!(reads(&db.connector()), got);
    // The loader's replica holds none of the rows it loaded.
    let dir = tempfile::tempdir().unwrap();
    let schema = schema::SchemaFile::parse(std::path::Path::new("t.yaml"), LOADED).unwrap();
    std::fs::write(
        dir.path().join(SCHEMA_FILE),
        serde_yaml::to_string(&schema).unwrap(),
    )
    .unwrap();
    std::fs::write(dir.path().join(redo::REDO_FILE), b"").unwrap();
    let mut w =
        writer::Writer::open_unchecked(dir.path(), schema, Arc::new(db.clock.clone()), false)
            .unwrap();
    w.start_bulk_load().unwrap();
    let x = w.begin().unwrap();
    w.insert(
        x,
        0,
        vec![Value::Number("1".into()), Value::Text("a".into())],
    )
    .unwrap();
    w.commit(&[x]).unwrap();
    assert!(w.replica().tables[0].rows.is_empty());
    assert_eq!(w.replica().tables[0].live_rows, 1);
    w.finish_bulk_load().unwrap();
    let c = EmulatorConnector::open_with_clock(
        dir.path(),
        Faults::default(),
        Arc::new(db.clock.clone()),
    )
    .unwrap();
    let mut s = c.emulator_session().unwrap();
    let scn = s.current_scn().unwrap();
    assert_eq!(read(&mut s, "APP.T", scn).unwrap().len(), 1);
}
