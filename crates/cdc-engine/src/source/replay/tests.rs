use super::*;
use crate::errors::Code;

const SCHEMA: &str = "
database:
  name: PROD
  dbid: 77
tables:
  - name: APP.ITEMS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
    primary_key: [ID]
    rows: 1000
";

const EXPORT: &str = "\"SCN\",\"XID\",\"OPERATION_CODE\",\"SEG_OWNER\",\"TABLE_NAME\",\"DATA_OBJ#\",\"SQL_REDO\"
50,\"05000600FFFFFFFF\",1,\"APP\",\"ITEMS\",7301,\"insert into \"\"APP\"\".\"\"ITEMS\"\"(\"\"ID\"\") values ('9');\"
51,\"0200030004000000\",6,,,,
52,\"0200030004000000\",1,\"APP\",\"ITEMS\",7301,\"insert into \"\"APP\"\".\"\"ITEMS\"\"(\"\"ID\"\") values ('1');\"
53,\"0200030004000000\",7,,,,
54,\"0300010002000000\",6,,,,
55,\"0400010002000000\",6,,,,
56,\"0400010002000000\",36,,,,
57,\"0500060007000000\",7,,,,
";

fn replay(export: &str) -> (tempfile::TempDir, Result<ReplayConnector>) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(SCHEMA_FILE), SCHEMA).unwrap();
    std::fs::write(dir.path().join(EXPORT_FILE), export).unwrap();
    let c = ReplayConnector::open(dir.path());
    (dir, c)
}

#[test]
fn catalog_scns_logs_and_open_transactions_come_from_the_export() {
    let (dir, c) = replay(EXPORT);
    let mut s = c.unwrap().replay_session();
    let db = s.database().unwrap();
    assert_eq!((db.dbid, db.name.as_str(), db.cdb), (77, "PROD", false));
    let tables = s.tables().unwrap();
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0].name.to_string(), "APP.ITEMS");
    assert_eq!(tables[0].data_object_id, 7301);
    assert_eq!(
        tables[0].primary_key.as_ref().unwrap().columns,
        vec!["ID".to_string()]
    );
    assert_eq!(s.current_scn().unwrap(), 57);
    let logs = s.logs().unwrap();
    assert_eq!(logs.len(), 1);
    assert_eq!((logs[0].first_scn, logs[0].next_scn), (50, Some(58)));
    assert!(logs[0].archived);
    assert_eq!(
        logs[0].name,
        dir.path().join(EXPORT_FILE).display().to_string()
    );
    // 0300… started and never ended; 0200… committed, 0400… rolled back; 0500… started before
    // the export.
    let open = s.open_transactions().unwrap();
    assert_eq!(
        open,
        vec![OpenTransaction {
            xid: "0300010002000000".into(),
            start_scn: 54,
            thread: 1
        }]
    );
}

#[test]
fn mine_returns_the_rows_of_the_range_in_file_order() {
    let (_dir, c) = replay(EXPORT);
    let mut s = c.unwrap().replay_session();
    let mut scns = Vec::new();
    s.mine(51, 53, &Default::default(), &mut |r| {
        scns.push((r.scn, r.operation_code));
        Ok(())
    })
    .unwrap();
    assert_eq!(scns, vec![(51, 6), (52, 1), (53, 7)]);
    let mut n = 0;
    s.mine(0, 1000, &Default::default(), &mut |_| {
        n += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(n, 8);
    assert!(matches!(
        s.mine(10, 9, &Default::default(), &mut |_| Ok(())),
        Err(CdcError::InvalidScnRange { .. })
    ));
}

#[test]
fn snapshot_reads_fail_with_cdc_2008() {
    let (_dir, c) = replay(EXPORT);
    let mut s = c.unwrap().replay_session();
    let t: TableName = "APP.ITEMS".parse().unwrap();
    let q = FlashbackQuery {
        table: t.clone(),
        columns: vec!["ID".into()],
        key_columns: vec!["ID".into()],
        scn: 53,
        range: ChunkRange::Whole,
        filter: None,
        row_ids: true,
    };
    let errors = [
        s.read_as_of(&q, &mut |_| Ok(())).unwrap_err(),
        s.key_range(&t, "ID", Some(53)).unwrap_err(),
        s.key_boundaries(&BoundaryQuery {
            table: t.clone(),
            key_columns: vec!["ID".into()],
            scn: 53,
            lower: None,
            step: 10,
            count: 2,
        })
        .unwrap_err(),
        s.extents(&t).unwrap_err(),
    ];
    for e in errors {
        assert_eq!(e.code(), Code::Cdc2008, "{e}");
        assert!(e.to_string().contains("cdc.snapshot.mode=none"), "{e}");
    }
}

#[test]
fn bad_exports_and_missing_files_are_clear_errors() {
    let (_dir, c) = replay("\"SCN\",\"XID\",\"OPERATION_CODE\"\n");
    let e = c.err().unwrap();
    assert_eq!(e.code(), Code::Cdc6002);
    assert!(e.to_string().contains("no rows"), "{e}");

    let (dir, c) =
        replay("SCN,XID,OPERATION_CODE\n10,0200030004000000,6\nabc,0200030004000000,7\n");
    let e = c.err().unwrap();
    assert_eq!(e.code(), Code::Cdc6002);
    let path = dir.path().join(EXPORT_FILE);
    assert!(
        e.to_string()
            .contains(&format!("{} line 3 column SCN", path.display())),
        "{e}"
    );

    let empty = tempfile::tempdir().unwrap();
    let e = ReplayConnector::open(empty.path()).err().unwrap();
    assert_eq!(e.code(), Code::Cdc6001);
    assert!(e.to_string().contains("schema.yaml"), "{e}");
    std::fs::write(empty.path().join(SCHEMA_FILE), SCHEMA).unwrap();
    let e = ReplayConnector::open(empty.path()).err().unwrap();
    assert_eq!(e.code(), Code::Cdc6001);
    assert!(e.to_string().contains("logmnr.csv"), "{e}");
    let e = ReplayConnector::open(&empty.path().join("nope"))
        .err()
        .unwrap();
    assert!(e.to_string().contains("no such directory"), "{e}");
}
