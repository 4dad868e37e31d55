//! The emulator against oracle-facts: AS OF SCN visibility, flashback errors, ROWIDs and row
//! movement, LogMiner rows and SQL_REDO text, rollbacks, logs, read-only standbys.

use super::redo::DdlChange;
use super::writer::Writer;
use super::*;
use crate::names::TableName;
use crate::types::Value;
use cdc_core::rowid::RowId;

// The fixture (a database in a temporary directory on a manual clock) is `crate::testing`.
pub(super) use crate::testing::*;

fn num(n: i64) -> Value {
    Value::Number(n.to_string().into())
}

fn text(s: &str) -> Value {
    Value::Text(s.to_string().into())
}

fn names(rows: &[FetchedRow]) -> Vec<String> {
    rows.iter().map(|r| r.values[1].to_string()).collect()
}

#[test]
fn as_of_scn_sees_exactly_what_was_committed() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let t1 = w.begin().unwrap();
    let rid = w.insert(t1, 0, emp_row(1, "a")).unwrap();
    let s1 = w.commit(&[t1]).unwrap();
    let t2 = w.begin().unwrap();
    w.update(t2, 0, rid, emp_row(1, "b")).unwrap();
    let reader = db.connector();
    let mut s = reader.connect().unwrap();
    let during = s.current_scn().unwrap();
    assert!(during > s1);
    assert_eq!(
        names(&read(&mut *s, "HR.EMP", during).unwrap()),
        ["a"],
        "uncommitted change visible"
    );
    let s2 = w.commit(&[t2]).unwrap();
    assert_eq!(names(&read(&mut *s, "HR.EMP", s1).unwrap()), ["a"]);
    assert_eq!(names(&read(&mut *s, "HR.EMP", s2 - 1).unwrap()), ["a"]);
    assert_eq!(names(&read(&mut *s, "HR.EMP", s2).unwrap()), ["b"]);
    assert!(read(&mut *s, "HR.EMP", s1 - 1).unwrap().is_empty());

    // Two transactions committing at one SCN: both or neither.
    let a = w.begin().unwrap();
    w.insert(a, 0, emp_row(2, "c")).unwrap();
    let b = w.begin().unwrap();
    w.insert(b, 0, emp_row(3, "d")).unwrap();
    let s3 = w.commit(&[a, b]).unwrap();
    assert_eq!(read(&mut *s, "HR.EMP", s3 - 1).unwrap().len(), 1);
    assert_eq!(
        names(&read(&mut *s, "HR.EMP", s3).unwrap()),
        ["b", "c", "d"]
    );
}

#[test]
fn reads_at_one_scn_stay_the_same_while_commits_continue() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let reader = db.connector();
    let mut s = reader.connect().unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let opts = workload::WorkloadOptions {
                transactions: Some(600),
                rate: 0,
                tx_size: (1, 4),
                rollback_pct: 10,
                savepoint_pct: 10,
                key_update_pct: 5,
                row_move_pct: 0,
                long_every: 20,
                long_span: 10,
                shared_commit_pct: 10,
                seed: 11,
                lob_pct: 0,
                ..workload::WorkloadOptions::default()
            };
            workload::Workload::new(&mut w, opts)
                .unwrap()
                .run(&|| false)
                .unwrap();
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        let mut checks = 0;
        while !stop.load(std::sync::atomic::Ordering::SeqCst) || checks < 3 {
            let scn = s.current_scn().unwrap();
            let first = read(&mut *s, "HR.EMP", scn).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(5));
            let again = read(&mut *s, "HR.EMP", scn).unwrap();
            assert_eq!(
                first, again,
                "AS OF SCN {scn} changed under concurrent commits"
            );
            checks += 1;
        }
    });
}

#[test]
fn flashback_errors_match_oracle() {
    let db = Db::new(EMP);
    let reader = db.connector();
    let mut s = reader.connect().unwrap();
    let now = s.current_scn().unwrap();
    let e = read(&mut *s, "HR.EMP", now + 10).unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc5002, "{e}");
    assert!(e.to_string().contains("ORA-08181"));
    let e = read(&mut *s, "HR.EMP", 4999).unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc5002, "{e}");

    // Undo older than UNDO_RETENTION is gone once the table changed after the SCN.
    let old = now;
    db.clock.advance(901_000);
    let mut w = db.writer();
    let t = w.begin().unwrap();
    w.insert(t, 0, emp_row(9, "late")).unwrap();
    w.commit(&[t]).unwrap();
    // The change is recent: its undo is still there, so the old SCN can be read.
    assert_eq!(read(&mut *s, "HR.EMP", old).unwrap().len(), 0);
    db.clock.advance(901_000);
    let e = read(&mut *s, "HR.EMP", old).unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc5001, "{e}");
    assert!(e.to_string().contains("ORA-01555"));
    // HR.OTHER did not change since: its old blocks need no undo.
    assert_eq!(read(&mut *s, "HR.OTHER", old).unwrap().len(), 3);

    // Reads before a table's last DDL fail with ORA-01466.
    let before_ddl = s.current_scn().unwrap();
    w.ddl(
        0,
        DdlChange::AddColumn {
            column: ColumnInfo {
                name: "EXTRA".into(),
                data_type: crate::types::ColumnType::varchar2(5),
                nullable: true,
                virtual_column: false,
                hidden: false,
            },
        },
    )
    .unwrap();
    let e = read(&mut *s, "HR.EMP", before_ddl).unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc5003, "{e}");
    assert!(e.to_string().contains("ORA-01466"));
    let after = s.current_scn().unwrap();
    let rows = read(&mut *s, "HR.EMP", after).unwrap();
    assert_eq!(rows[0].values.len(), 6, "the added column is read");
    assert_eq!(rows[0].values[5], Value::Null);
}

/// Two tables stored in one cluster and a table of their own: ORDERS (keyed) and LINES (no key)
/// in ORDERS_CLU, PLAIN beside them.
const CLUSTERED: &str = r#"
tables:
  - name: HR.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: CUSTOMER, type: VARCHAR2(20) }
    primary_key: [ID]
    cluster: ORDERS_CLU
    rows: 300
  - name: HR.LINES
    columns:
      - { name: ORDER_ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20) }
    cluster: orders_clu
    rows: 500
  - name: HR.PLAIN
    columns:
      - { name: A, type: NUMBER(10) }
    rows: 30
"#;

/// A clustered table as Oracle stores it: ALL_TABLES.CLUSTER_NAME names the cluster; no extent
/// under the table's name; the cluster's extents (SEGMENT_TYPE CLUSTER) hold the rows of all its
/// tables, whose ROWIDs and DATA_OBJECT_ID are the cluster's data object number (Concepts,
/// "Rowid Format": "schema objects in the same segment, such as a table cluster, have the same
/// data object number"), each table keeping an object number of its own. A ROWID range over
/// the cluster's blocks read from one table returns that table's rows alone; new rows of either
/// table, by a writer opened again, take ROWIDs no row of the cluster holds; TRUNCATE TABLE of a
/// clustered table is ORA-03292.
#[test]
fn clustered_tables_keep_their_rows_in_their_clusters_segment() {
    let db = Db::new(CLUSTERED);
    let reader = db.connector();
    let mut s = reader.connect().unwrap();
    let tables = s.tables().unwrap();
    let info = |name: &str| {
        tables
            .iter()
            .find(|t| t.name.table == name)
            .cloned()
            .unwrap()
    };
    let (orders, lines, plain) = (info("ORDERS"), info("LINES"), info("PLAIN"));
    assert_eq!(orders.cluster.as_deref(), Some("ORDERS_CLU"));
    assert_eq!(lines.cluster.as_deref(), Some("ORDERS_CLU"), "upper-cased");
    assert_eq!(plain.cluster, None);
    let cluster = orders.data_object_id;
    assert_eq!(lines.data_object_id, cluster);
    assert_ne!(plain.data_object_id, cluster);
    let ids = [orders.object_id, lines.object_id, cluster];
    assert!(
        ids[0] != ids[1] && ids[0] != ids[2] && ids[1] != ids[2],
        "{ids:?}"
    );

    assert!(s.extents(&orders.name).unwrap().is_empty());
    assert!(s.extents(&lines.name).unwrap().is_empty());
    assert!(!s.extents(&plain.name).unwrap().is_empty());
    assert!(s
        .cluster_extents(&lines.name, "NO_SUCH_CLU")
        .unwrap()
        .is_empty());
    let extents = s.cluster_extents(&lines.name, "ORDERS_CLU").unwrap();
    assert_eq!(
        extents,
        s.cluster_extents(&orders.name, "ORDERS_CLU").unwrap()
    );
    assert!(extents.len() > 1, "{extents:?}");
    assert!(extents
        .iter()
        .all(|e| e.data_object_id == cluster && e.partition.is_none()));
    assert!(extents.windows(2).all(|w| w[0].block_id < w[1].block_id));

    let scn = s.current_scn().unwrap();
    let inside = |rid: &RowId| {
        u64::from(rid.data_object) == cluster
            && extents.iter().any(|e| {
                u64::from(rid.block) >= e.block_id && u64::from(rid.block) < e.block_id + e.blocks
            })
    };
    let mut taken = std::collections::BTreeSet::new();
    for (name, count) in [("HR.ORDERS", 300), ("HR.LINES", 500)] {
        let rows = read(&mut *s, name, scn).unwrap();
        assert_eq!(rows.len(), count, "{name}");
        for r in &rows {
            let rid = RowId::decode(&r.rowid).unwrap();
            assert!(
                inside(&rid),
                "{name} row {} outside the cluster's extents",
                r.rowid
            );
            taken.insert(rid);
        }
    }

    // The cluster's whole span, read from LINES: LINES' rows and none of ORDERS'.
    let first = &extents[0];
    let last = &extents[extents.len() - 1];
    let lo = RowId::extent_bounds(cluster as u32, first.rowid_fno(), first.block_id as u32, 1).0;
    let hi = RowId::extent_bounds(
        cluster as u32,
        last.rowid_fno(),
        last.block_id as u32,
        last.blocks as u32,
    )
    .1;
    let q = FlashbackQuery {
        table: lines.name.clone(),
        columns: vec!["ORDER_ID".into(), "ITEM".into()],
        key_columns: vec![],
        scn,
        range: ChunkRange::Rowid {
            start: lo.encode(),
            end: hi.encode(),
        },
        filter: None,
        row_ids: true,
    };
    let mut got = Vec::new();
    s.read_as_of(&q, &mut |r| {
        got.push(r);
        Ok(())
    })
    .unwrap();
    assert_eq!(got, read(&mut *s, "HR.LINES", scn).unwrap());

    // A writer opened again goes on in the cluster's segment after every row of both tables.
    let mut w = db.writer();
    let x = w.begin().unwrap();
    let a = w.insert(x, 1, vec![num(9_000), text("new line")]).unwrap();
    let b = w.insert(x, 0, vec![num(9_000), text("new order")]).unwrap();
    w.commit(&[x]).unwrap();
    for rid in [a, b] {
        assert_eq!(u64::from(rid.data_object), cluster);
        assert!(!taken.contains(&rid), "{} reused", rid.encode());
    }
    assert_ne!(a, b);
    let e = w.truncate(1).unwrap_err();
    assert!(e.to_string().contains("ORA-03292"), "{e}");
}

/// `cluster` is refused where Oracle refuses it: with partitions (ORA-14026), on an
/// index-organised table, under a table's name, and across tablespaces.
#[test]
fn a_cluster_is_refused_where_oracle_refuses_it() {
    let table = |name: &str, extra: &str| {
        format!(
            "  - name: {name}\n    columns:\n      - {{ name: A, type: NUMBER(10), nullable: false }}\n    primary_key: [A]\n{extra}"
        )
    };
    for (tables, want) in [
        (
            table(
                "HR.T",
                "    cluster: C\n    partitions: { column: A, list: [{ name: P }] }\n",
            ),
            "ORA-14026",
        ),
        (
            table(
                "HR.T",
                "    cluster: C\n    organization: index_organized\n",
            ),
            "index-organised",
        ),
        (
            table("HR.T", "    cluster: U\n") + &table("HR.U", ""),
            "ORA-00955",
        ),
        (
            table("HR.T", "    cluster: C\n")
                + &table("HR.U", "    cluster: C\n    tablespace: DATA\n"),
            "tablespace",
        ),
    ] {
        let text = format!("tables:\n{tables}");
        let e = schema::SchemaFile::parse(std::path::Path::new("s.yaml"), &text).unwrap_err();
        assert!(e.to_string().contains(want), "{want}: {e}");
    }
    // Another schema's table of the cluster's name is no clash; nor is its own cluster.
    let text = format!(
        "tables:\n{}{}",
        table("HR.T", "    cluster: C\n"),
        table("APP.C", "")
    );
    schema::SchemaFile::parse(std::path::Path::new("s.yaml"), &text).unwrap();
}

const PARTED: &str = r#"
tables:
  - name: HR.LOG
    columns:
      - { name: REGION, type: VARCHAR2(8), nullable: false, generate: { choice: [EMEA, APAC] } }
      - { name: MSG, type: VARCHAR2(20) }
    row_movement: true
    partitions:
      column: REGION
      list:
        - { name: P_EMEA, values: [EMEA] }
        - { name: P_APAC, values: [APAC] }
    rows: 120
"#;

#[test]
fn rowids_are_extended_rowids_inside_extents_and_move_with_rows() {
    let db = Db::new(PARTED);
    let reader = db.connector();
    let mut s = reader.connect().unwrap();
    let table: TableName = "HR.LOG".parse().unwrap();
    let info = s.tables().unwrap().remove(0);
    let extents = s.extents(&table).unwrap();
    assert!(!extents.is_empty());
    let parts: Vec<u64> = info.partitions.iter().map(|p| p.data_object_id).collect();
    assert_eq!(parts.len(), 2);
    let scn = s.current_scn().unwrap();
    let rows = read(&mut *s, "HR.LOG", scn).unwrap();
    assert_eq!(rows.len(), 120);
    let alphabet = |c: char| c.is_ascii_alphanumeric() || c == '+' || c == '/';
    for r in &rows {
        assert_eq!(r.rowid.len(), 18);
        assert!(r.rowid.chars().all(alphabet), "{}", r.rowid);
        let rid = RowId::decode(&r.rowid).unwrap();
        let region = r.values[0].to_string();
        let expected_part = if region == "EMEA" { parts[0] } else { parts[1] };
        assert_eq!(
            u64::from(rid.data_object),
            expected_part,
            "row of {region} in the wrong partition"
        );
        assert!(
            extents
                .iter()
                .any(|e| e.data_object_id == u64::from(rid.data_object)
                    && u64::from(rid.block) >= e.block_id
                    && u64::from(rid.block) < e.block_id + e.blocks),
            "{} outside every extent",
            r.rowid
        );
    }
    // The ROWID range of one extent returns exactly the rows inside it.
    let e = &extents[0];
    let (lo, hi) = RowId::extent_bounds(
        e.data_object_id as u32,
        e.rowid_fno(),
        e.block_id as u32,
        e.blocks as u32,
    );
    let q = FlashbackQuery {
        table: table.clone(),
        columns: vec!["REGION".into()],
        key_columns: vec![],
        scn,
        range: ChunkRange::Rowid {
            start: lo.encode(),
            end: hi.encode(),
        },
        filter: None,
        row_ids: true,
    };
    let mut in_range = 0;
    s.read_as_of(&q, &mut |_| {
        in_range += 1;
        Ok(())
    })
    .unwrap();
    let expected = rows
        .iter()
        .filter(|r| {
            let rid = RowId::decode(&r.rowid).unwrap();
            rid >= lo && rid <= hi
        })
        .count();
    assert_eq!(in_range, expected);
    assert!(in_range > 0);

    // A partition-key update relocates the row: new ROWID in the other partition's object.
    let mut w = db.writer();
    let victim = rows.iter().find(|r| r.values[0] == text("EMEA")).unwrap();
    let old = RowId::decode(&victim.rowid).unwrap();
    let x = w.begin().unwrap();
    let new = w
        .update(x, 0, old, vec![text("APAC"), victim.values[1].clone()])
        .unwrap();
    let moved_at = w.commit(&[x]).unwrap();
    assert_ne!(new, old);
    assert_eq!(u64::from(new.data_object), parts[1]);
    let after = read(&mut *s, "HR.LOG", moved_at).unwrap();
    assert_eq!(after.len(), 120);
    assert!(!after.iter().any(|r| r.rowid == victim.rowid));
    assert!(after.iter().any(|r| r.rowid == new.encode()));
    // LogMiner shows the move as a DELETE at the old ROWID and an INSERT at the new one.
    let ops: Vec<(u32, String)> = mine(&mut *s, moved_at - 3, moved_at)
        .into_iter()
        .filter(|r| r.operation_code == op::DELETE || r.operation_code == op::INSERT)
        .map(|r| (r.operation_code, r.row_id))
        .collect();
    assert_eq!(
        ops,
        vec![
            (op::DELETE, victim.rowid.to_string()),
            (op::INSERT, new.encode())
        ]
    );
}

#[test]
fn sql_redo_text_matches_logminer() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    let rid = w.insert(x, 0, emp_row(7, "O'Brien")).unwrap();
    w.update_set(x, 0, rid, &[(1, text("Bob")), (4, Value::Null)])
        .unwrap();
    w.delete(x, 0, rid).unwrap();
    let c = w.commit(&[x]).unwrap();
    let mut s = db.connector().connect().unwrap();
    let rows = mine(&mut *s, c - 4, c);
    let sql: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r.operation.as_str(), r.sql_redo.as_str()))
        .collect();
    assert_eq!(
        sql,
        vec![
            ("START", "set transaction read write;"),
            ("INSERT", "insert into \"HR\".\"EMP\"(\"ID\",\"NAME\",\"HIRED\",\"PHOTO\",\"NOTE\") values ('7','O''Brien',TO_DATE('2020-01-01 00:00:00', 'YYYY-MM-DD HH24:MI:SS'),HEXTORAW('0a0b'),NULL);"),
            ("UPDATE", "update \"HR\".\"EMP\" set \"NAME\" = 'Bob', \"NOTE\" = NULL where \"ID\" = '7' and \"NAME\" = 'O''Brien' and \"NOTE\" IS NULL;"),
            ("DELETE", "delete from \"HR\".\"EMP\" where \"ID\" = '7' and \"NAME\" = 'Bob' and \"HIRED\" = TO_DATE('2020-01-01 00:00:00', 'YYYY-MM-DD HH24:MI:SS') and \"PHOTO\" = HEXTORAW('0a0b') and \"NOTE\" IS NULL;"),
            ("COMMIT", "commit;"),
        ]
    );
    let commit = rows.last().unwrap();
    assert_eq!(commit.commit_scn, Some(c));
    assert_eq!(commit.start_scn, Some(rows[0].scn));
    assert!(rows
        .iter()
        .all(|r| r.xid == rows[0].xid && r.xid.len() == 16));
    assert_eq!(rows[1].row_id, rid.encode());
    assert_eq!(
        (rows[1].seg_owner.as_deref(), rows[1].table_name.as_deref()),
        (Some("HR"), Some("EMP"))
    );
    assert_eq!(rows[1].src_con_name, "", "NULL outside a CDB");
    assert!(
        rows[1].scn < rows[2].scn && rows[2].scn < rows[3].scn,
        "every DML has its own SCN"
    );
    assert!(rows[1].rs_id.starts_with(" 0x") && rows[1].rs_id.ends_with(' '));
}

#[test]
fn sql_redo_for_every_value_form() {
    let schema = r#"
tables:
  - name: HR.ALLT
    columns:
      - { name: K, type: NUMBER(5), nullable: false }
      - { name: TS, type: TIMESTAMP(9) }
      - { name: TZ, type: TIMESTAMP(9) WITH TIME ZONE }
      - { name: YM, type: INTERVAL YEAR(2) TO MONTH }
      - { name: DS, type: INTERVAL DAY(3) TO SECOND(6) }
      - { name: N, type: "NUMBER(5,2)" }
      - { name: NV, type: NVARCHAR2(10) }
      - { name: C, type: CLOB }
      - { name: B, type: BLOB }
      - { name: BF, type: BINARY_FLOAT }
      - { name: CH, type: CHAR(4) }
    primary_key: [K]
"#;
    let db = Db::new(schema);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    w.insert(
        x,
        0,
        vec![
            num(1),
            Value::Timestamp("2020-02-01 00:00:00.123456789".into()),
            Value::TimestampTz("2024-02-14 10:58:02.202590000 +01:00".into()),
            Value::IntervalYm("-03-06".into()),
            Value::IntervalDs("+001 02:03:04.560000".into()),
            Value::Number("-.5".into()),
            text("é"),
            text("hello"),
            Value::Null,
            Value::BinaryFloat(2.5),
            text("ab  "),
        ],
    )
    .unwrap();
    let c = w.commit(&[x]).unwrap();
    let mut s = db.connector().connect().unwrap();
    let rows = mine(&mut *s, c - 3, c);
    let insert = rows
        .iter()
        .find(|r| r.operation_code == op::INSERT)
        .unwrap();
    assert_eq!(
        insert.sql_redo,
        "insert into \"HR\".\"ALLT\"(\"K\",\"TS\",\"TZ\",\"YM\",\"DS\",\"N\",\"NV\",\"C\",\"B\",\"BF\",\"CH\") values \
('1',TO_TIMESTAMP('2020-02-01 00:00:00.123456789'),TO_TIMESTAMP_TZ('2024-02-14 10:58:02.202590000 +01:00'),\
TO_YMINTERVAL('-03-06'),TO_DSINTERVAL('+001 02:03:04.560000'),'-.5',UNISTR('\\00E9'),EMPTY_CLOB(),NULL,'2.5E+000',\
'ab  ');"
    );
    // The small CLOB is kept in the row: the INSERT has the empty ROW_ID, the statement's
    // last row is an UPDATE with the row's own that sets it.
    assert_eq!(insert.row_id, cdc_core::rowid::LOB_ROWID);
    let set = rows
        .iter()
        .find(|r| r.operation_code == op::UPDATE)
        .unwrap();
    assert_eq!(
        set.sql_redo, "update \"HR\".\"ALLT\" set \"C\" = 'hello';",
        "no WHERE: the table has no supplemental log groups"
    );
    assert_ne!(set.row_id, cdc_core::rowid::LOB_ROWID);
    assert!(rows.iter().all(|r| r.operation_code != op::LOB_WRITE));
}

#[test]
fn long_statements_continue_in_csf_rows() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    let mut row = emp_row(1, &"n".repeat(40));
    row[4] = text(&format!("{}'{}", "x".repeat(2500), "y".repeat(1450)));
    w.insert(x, 0, row).unwrap();
    let c = w.commit(&[x]).unwrap();
    let mut s = db.connector().connect().unwrap();
    let pieces: Vec<LogMinerRow> = mine(&mut *s, c - 2, c)
        .into_iter()
        .filter(|r| r.operation_code == op::INSERT)
        .collect();
    assert_eq!(pieces.len(), 2, "a statement over 4000 bytes is cut in two");
    assert_eq!((pieces[0].csf, pieces[1].csf), (1, 0));
    assert!(pieces[0].sql_redo.len() <= 4000);
    assert_eq!(
        (pieces[0].scn, &pieces[0].rs_id, pieces[0].ssn),
        (pieces[1].scn, &pieces[1].rs_id, pieces[1].ssn)
    );
    let joined = format!("{}{}", pieces[0].sql_redo, pieces[1].sql_redo);
    assert!(
        joined.starts_with("insert into \"HR\".\"EMP\"(\"ID\",") && joined.ends_with("yy');"),
        "{joined}"
    );
    assert!(
        joined.contains(&format!("'{}''{}'", "x".repeat(2500), "y".repeat(1450))),
        "one literal, quote doubled"
    );
}

#[test]
fn rollbacks_show_undo_rows_and_leave_nothing_committed() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    let a = w.insert(x, 0, emp_row(1, "a")).unwrap();
    let sp = w.savepoint(x).unwrap();
    w.update(x, 0, a, emp_row(1, "a2")).unwrap();
    let b = w.insert(x, 0, emp_row(2, "b")).unwrap();
    w.rollback_to(x, sp).unwrap();
    let c = w.commit(&[x]).unwrap();
    let y = w.begin().unwrap();
    let gone = w.insert(y, 0, emp_row(3, "never")).unwrap();
    w.rollback(y).unwrap();
    let end = db.connector().connect().unwrap().current_scn().unwrap();

    let mut s = db.connector().connect().unwrap();
    assert_eq!(names(&read(&mut *s, "HR.EMP", end).unwrap()), ["a"]);
    let start = mine(&mut *s, 5000, end)
        .iter()
        .find(|r| r.xid == x.hex())
        .unwrap()
        .scn;
    let rows = mine(&mut *s, start, end);
    let shape: Vec<(String, u8, String)> = rows
        .iter()
        .map(|r| {
            (
                r.operation.clone(),
                r.rollback,
                if r.operation_code == op::START
                    || r.operation_code == op::COMMIT
                    || r.operation_code == op::ROLLBACK
                {
                    String::new()
                } else {
                    r.row_id.clone()
                },
            )
        })
        .collect();
    let s_ = |o: &str, rb: u8, rid: &RowId| (o.to_string(), rb, rid.encode());
    let e = |o: &str| (o.to_string(), 0u8, String::new());
    assert_eq!(
        shape,
        vec![
            e("START"),
            s_("INSERT", 0, &a),
            s_("UPDATE", 0, &a),
            s_("INSERT", 0, &b),
            s_("DELETE", 1, &b),
            s_("UPDATE", 1, &a),
            e("COMMIT"),
            e("START"),
            s_("INSERT", 0, &gone),
            s_("DELETE", 1, &gone),
            e("ROLLBACK"),
        ]
    );
    assert!(rows
        .iter()
        .filter(|r| r.rollback == 1)
        .all(|r| r.sql_redo.is_empty() && r.ssn == 0));
    assert_eq!(
        rows.iter()
            .find(|r| r.operation == "COMMIT")
            .unwrap()
            .commit_scn,
        Some(c)
    );
}

#[test]
fn open_transactions_and_ddl_rows() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    w.insert(x, 0, emp_row(1, "a")).unwrap();
    let mut s = db.connector().connect().unwrap();
    let open = s.open_transactions().unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].xid, x.hex());
    w.commit(&[x]).unwrap();
    assert!(s.open_transactions().unwrap().is_empty());
    let d = w
        .ddl(1, DdlChange::DropColumn { name: "ID".into() })
        .unwrap_err();
    assert!(d.to_string().contains("ORA-12992"), "{d}");
    let before = s.current_scn().unwrap();
    let scn = w
        .ddl(
            0,
            DdlChange::AddColumn {
                column: ColumnInfo {
                    name: "EXTRA".into(),
                    data_type: crate::types::ColumnType::Number {
                        precision: Some(5),
                        scale: Some(0),
                    },
                    nullable: true,
                    virtual_column: false,
                    hidden: false,
                },
            },
        )
        .unwrap();
    let ddl: Vec<LogMinerRow> = mine(&mut *s, before, scn)
        .into_iter()
        .filter(|r| r.operation_code == op::DDL)
        .collect();
    assert_eq!(ddl.len(), 1);
    assert_eq!(
        ddl[0].sql_redo,
        "ALTER TABLE \"HR\".\"EMP\" ADD (EXTRA NUMBER(5,0))"
    );
    assert_eq!(ddl[0].info.as_deref(), Some("USER DDL (PlSql=0 RecDep=0)"));
    assert_eq!(
        ddl[0].src_con_name, "",
        "outside multitenant: NULL (Utilities, V$LOGMNR_CONTENTS in a CDB)"
    );
}

/// TRUNCATE TABLE: one DDL row in the redo (no DELETEs), every row gone at its SCN, reads
/// before it ORA-01466; a segment that held rows becomes a new one with a new data object id
/// (later ROWIDs carry it; the object id stays, and LogMiner's DATA_OBJ# with it), one that never
/// did keeps its id; a transaction holding a row makes it ORA-00054.
#[test]
fn truncate_empties_the_table_in_one_ddl_row_and_gives_it_a_new_segment() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let mut s = db.connector().connect().unwrap();
    let table: TableName = "HR.EMP".parse().unwrap();
    let info = |s: &mut dyn Session| {
        s.tables()
            .unwrap()
            .into_iter()
            .find(|t| t.name.table == "EMP")
            .unwrap()
    };
    let first = info(&mut *s);
    assert_eq!(first.object_id, first.data_object_id);
    // Never a row: the segment stays.
    w.truncate(0).unwrap();
    assert_eq!(info(&mut *s).data_object_id, first.data_object_id);

    let t = w.begin().unwrap();
    w.insert(t, 0, emp_row(1, "a")).unwrap();
    w.insert(t, 0, emp_row(2, "b")).unwrap();
    w.commit(&[t]).unwrap();
    // A transaction holding a row: ORA-00054.
    let held = w.begin().unwrap();
    let rid = w.insert(held, 0, emp_row(3, "c")).unwrap();
    let e = w.truncate(0).unwrap_err();
    assert!(e.to_string().contains("ORA-00054"), "{e}");
    w.rollback(held).unwrap();
    assert_eq!(u64::from(rid.data_object), first.data_object_id);

    let before = s.current_scn().unwrap();
    let scn = w.truncate(0).unwrap();
    let after = s.current_scn().unwrap();
    assert!(read(&mut *s, "HR.EMP", after).unwrap().is_empty());
    let e = read(&mut *s, "HR.EMP", before).unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc5003, "{e}");
    assert!(e.to_string().contains("ORA-01466"), "{e}");
    assert_eq!(read(&mut *s, "HR.OTHER", before).unwrap().len(), 3);
    let now = info(&mut *s);
    assert_eq!(
        now.object_id, first.object_id,
        "the object keeps its number"
    );
    assert!(
        now.data_object_id > first.data_object_id,
        "a new segment: {} after {}",
        now.data_object_id,
        first.data_object_id
    );

    let rows = mine(&mut *s, before + 1, after);
    let changes: Vec<&LogMinerRow> = rows
        .iter()
        .filter(|r| r.seg_owner.as_deref() == Some("HR"))
        .collect();
    assert_eq!(changes.len(), 1, "{rows:#?}");
    let ddl = changes[0];
    assert_eq!(
        (ddl.operation_code, ddl.operation.as_str(), ddl.scn),
        (op::DDL, "DDL", scn - 1)
    );
    assert_eq!(ddl.sql_redo, "truncate table \"HR\".\"EMP\"");
    assert_eq!(ddl.table_name.as_deref(), Some("EMP"));
    assert_eq!(ddl.info.as_deref(), Some("USER DDL (PlSql=0 RecDep=0)"));
    assert_eq!(ddl.data_obj, first.object_id);

    // Rows written since carry the new data object number; LogMiner still names the object.
    let t = w.begin().unwrap();
    let rid = w.insert(t, 0, emp_row(4, "d")).unwrap();
    let done = w.commit(&[t]).unwrap();
    assert_eq!(u64::from(rid.data_object), now.data_object_id);
    let insert = mine(&mut *s, after, done)
        .into_iter()
        .find(|r| r.operation_code == op::INSERT)
        .unwrap();
    assert_eq!(insert.row_id, rid.encode());
    assert_eq!(insert.data_obj, first.object_id);
    let extents = s.extents(&table).unwrap();
    assert_eq!(extents.len(), 1, "DROP STORAGE keeps the first extent");
    assert_eq!(extents[0].data_object_id, now.data_object_id);
    assert_eq!(names(&read(&mut *s, "HR.EMP", done).unwrap()), ["d"]);

    // Another process replaying the redo, and one opening a checkpoint, agree.
    drop(w);
    let mut w = db.writer();
    let t = w.begin().unwrap();
    let rid = w.insert(t, 0, emp_row(5, "e")).unwrap();
    w.commit(&[t]).unwrap();
    assert_eq!(u64::from(rid.data_object), now.data_object_id);
    w.checkpoint().unwrap();
    let mut fresh = db.connector().connect().unwrap();
    let again = info(&mut *fresh);
    assert_eq!(
        (again.object_id, again.data_object_id),
        (now.object_id, now.data_object_id)
    );
    let end = fresh.current_scn().unwrap();
    assert_eq!(
        names(&read(&mut *fresh, "HR.EMP", end).unwrap()),
        ["d", "e"]
    );
}

#[test]
fn mining_below_the_oldest_retained_log_fails_with_ora_01291() {
    let schema = r#"
database:
  log_size: 40
  archived_logs_kept: 2
tables:
  - name: HR.T
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
    primary_key: [ID]
    rows: 500
"#;
    let db = Db::new(schema);
    let mut s = db.connector().connect().unwrap();
    let logs = s.logs().unwrap();
    assert_eq!(logs.len(), 3, "{logs:?}");
    assert!(logs[..2].iter().all(|l| l.archived) && !logs[2].archived);
    assert!(logs
        .windows(2)
        .all(|w| w[0].next_scn == Some(w[1].first_scn) && w[1].sequence == w[0].sequence + 1));
    let end = s.current_scn().unwrap();
    let e = s
        .mine(5000, end, &Default::default(), &mut |_| Ok(()))
        .unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc5004, "{e}");
    assert!(e.to_string().contains("ORA-01291"));
    assert!(!mine(&mut *s, logs[0].first_scn, end).is_empty());
    let e = s
        .mine(end, end - 1, &Default::default(), &mut |_| Ok(()))
        .unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc5008);
}

#[test]
fn a_read_only_standby_rejects_writes_with_ora_16000() {
    let schema = EMP.replace(
        "  undo_retention: 900",
        "  undo_retention: 900\n  role: physical_standby\n  open_mode: read_only_with_apply",
    );
    let db = Db::new(&schema);
    let e = Writer::open(&db.path(), Arc::new(db.clock.clone()), false)
        .err()
        .unwrap();
    assert_eq!(e.code(), crate::errors::Code::Cdc5005);
    assert!(e.to_string().contains("ORA-16000"));
    let mut s = db.connector().connect().unwrap();
    let info = s.database().unwrap();
    assert_eq!(
        (info.role, info.open_mode),
        (DatabaseRole::PhysicalStandby, OpenMode::ReadOnlyWithApply)
    );
    let scn = s.current_scn().unwrap();
    assert_eq!(
        read(&mut *s, "HR.OTHER", scn).unwrap().len(),
        3,
        "a standby still answers reads"
    );
}

#[test]
fn fault_drills_drop_connections_and_fail_chosen_reads() {
    let db = Db::new(EMP);
    let mut f = Faults::default();
    f.settings.connect_fail_every = 2;
    f.settings.ora01555_reads = vec![2];
    let c = db.connector_with(f);
    let mut s = c.connect().unwrap();
    assert_eq!(
        c.connect().err().unwrap().code(),
        crate::errors::Code::Cdc5007
    );
    let scn = s.current_scn().unwrap();
    assert!(read(&mut *s, "HR.OTHER", scn).is_ok());
    assert_eq!(
        read(&mut *s, "HR.OTHER", scn).unwrap_err().code(),
        crate::errors::Code::Cdc5001
    );
    assert!(read(&mut *s, "HR.OTHER", scn).is_ok());

    let mut f = Faults::default();
    f.settings.drop_per_mille = 1000;
    let mut s = db.connector_with(f).connect().unwrap();
    assert_eq!(
        s.current_scn().unwrap_err().code(),
        crate::errors::Code::Cdc5007
    );
    assert_eq!(
        s.current_scn().unwrap_err().code(),
        crate::errors::Code::Cdc5007,
        "a dropped connection stays dropped"
    );
}

#[test]
fn one_writer_at_a_time_and_restart_continues_where_it_was() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let busy = Writer::open(&db.path(), Arc::new(db.clock.clone()), false)
        .err()
        .unwrap();
    assert_eq!(busy.code(), crate::errors::Code::Cdc4003);
    assert!(busy.to_string().contains(&std::process::id().to_string()));
    let x = w.begin().unwrap();
    w.insert(x, 0, emp_row(1, "kept")).unwrap();
    let c = w.commit(&[x]).unwrap();
    let open = w.begin().unwrap();
    w.insert(open, 0, emp_row(2, "lost")).unwrap();
    drop(w); // like a killed writer: the open transaction never committed
    let mut w = db.writer();
    let mut s = db.connector().connect().unwrap();
    assert!(
        s.open_transactions().unwrap().is_empty(),
        "recovery rolled the orphan back"
    );
    let now = s.current_scn().unwrap();
    assert_eq!(names(&read(&mut *s, "HR.EMP", now).unwrap()), ["kept"]);
    let y = w.begin().unwrap();
    let rid = w.insert(y, 0, emp_row(3, "after")).unwrap();
    let c2 = w.commit(&[y]).unwrap();
    assert!(c2 > c);
    assert_eq!(
        names(&read(&mut *s, "HR.EMP", c2).unwrap()),
        ["kept", "after"]
    );
    assert!(s.tables().unwrap()[0].columns.len() == 5);
    let _ = rid;
}

#[test]
fn a_transaction_seen_from_its_middle_has_an_unknown_xid_sequence() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    w.insert(x, 0, emp_row(1, "early")).unwrap();
    let mut s = db.connector().connect().unwrap();
    let window = s.current_scn().unwrap() + 1;
    w.insert(x, 0, emp_row(2, "late")).unwrap();
    let c = w.commit(&[x]).unwrap();
    let rows = mine(&mut *s, window, c);
    assert_eq!(rows.len(), 2);
    let full = x.hex();
    assert_eq!(rows[0].operation, "INSERT");
    assert_eq!(
        &rows[0].xid[..8],
        &full[..8],
        "undo segment and slot stay known"
    );
    assert_eq!(&rows[0].xid[8..], "ffffffff");
    assert_eq!(rows[0].xidsqn, u32::MAX);
    assert_eq!(
        (rows[1].operation.as_str(), rows[1].xid.as_str()),
        ("COMMIT", full.as_str())
    );
    // Mined from its START, the same transaction shows its whole XID everywhere.
    assert!(mine(&mut *s, 5000, c)
        .iter()
        .filter(|r| r.xid.starts_with(&full[..8]))
        .all(|r| r.xid == full));
}

#[test]
fn the_same_seed_and_schema_give_the_same_database_and_workload() {
    let run = || {
        let db = Db::new(EMP.replace("    rows: 3", "    rows: 40").as_str());
        let mut w = db.writer();
        let opts = workload::WorkloadOptions {
            transactions: Some(150),
            rate: 0,
            tx_size: (1, 4),
            rollback_pct: 10,
            savepoint_pct: 10,
            key_update_pct: 5,
            long_every: 10,
            long_span: 5,
            ddl_every: 40,
            shared_commit_pct: 10,
            seed: 77,
            lob_pct: 0,
            ..workload::WorkloadOptions::default()
        };
        workload::Workload::new(&mut w, opts)
            .unwrap()
            .run(&|| false)
            .unwrap();
        drop(w);
        std::fs::read_to_string(db.path().join(redo::REDO_FILE)).unwrap()
    };
    let (a, b) = (run(), run());
    assert!(a.lines().count() > 500);
    assert_eq!(a, b, "same seed, schema and clock must give the same redo");
}

#[test]
fn create_table_adds_an_empty_table_with_a_ddl_row_and_survives_a_reopen() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let before = w.replica().current_scn;
    let spec = super::schema::TableSpec {
        name: "HR.EMP_NEW1".into(),
        rows: 0,
        ..w.replica().schema.tables[0].clone()
    };
    let tab = w.create_table(&spec).unwrap();
    assert_eq!(tab, 2);
    let again = w.create_table(&spec).unwrap_err();
    assert!(again.to_string().contains("ORA-00955"), "{again}");
    let x = w.begin().unwrap();
    w.insert(x, tab, emp_row(7, "new")).unwrap();
    let commit = w.commit(&[x]).unwrap();
    drop(w);

    // Another process (a fresh connector) replays the redo: the table is there.
    let mut s = db.connector().connect().unwrap();
    let info = s
        .tables()
        .unwrap()
        .into_iter()
        .find(|t| t.name.to_string() == "HR.EMP_NEW1")
        .expect("the created table is in the catalog");
    assert_eq!(info.columns.len(), 5);
    assert_eq!(read(&mut *s, "HR.EMP_NEW1", commit).unwrap().len(), 1);
    // Before it existed: ORA-01466, as Oracle answers.
    let e = read(&mut *s, "HR.EMP_NEW1", before).unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc5003, "{e}");
    let rows = mine(&mut *s, before, commit);
    let ddl = rows
        .iter()
        .find(|r| r.operation_code == cdc_core::model::op::DDL)
        .expect("a DDL row");
    assert_eq!(ddl.table_name.as_deref(), Some("EMP_NEW1"));
    assert!(
        ddl.sql_redo
            .starts_with(r#"create table "HR"."EMP_NEW1" ("ID" NUMBER(10,0) NOT NULL"#)
            && ddl.sql_redo.ends_with(r#"PRIMARY KEY ("ID"))"#),
        "{}",
        ddl.sql_redo
    );
    assert!(rows
        .iter()
        .any(|r| r.table_name.as_deref() == Some("EMP_NEW1") && r.sql_redo.starts_with("insert")));
}

#[test]
fn a_standby_applies_the_primarys_redo_up_to_its_lag_and_nothing_beyond() {
    let db = primary_with_logs();
    let sb = db.dir.path().join("sb");
    topology::create(
        &sb,
        &topology::TopologyFile::PhysicalStandby {
            primary: db.path(),
            apply_lag_scn: 7,
        },
    )
    .unwrap();
    let primary = db.connector();
    let standby =
        EmulatorConnector::open_with_clock(&sb, Faults::default(), Arc::new(db.clock.clone()))
            .unwrap();
    let mut p = primary.connect().unwrap();
    let mut s = standby.connect().unwrap();
    let applied = s.current_scn().unwrap();
    // The primary's newest record less the lag (its CURRENT_SCN is one past that record while
    // no transaction is open).
    let newest = || primary.with_replica_meta(|r, _| r.current_scn).unwrap();
    assert_eq!(applied, newest() - 7);
    let info = s.database().unwrap();
    assert_eq!(
        info.dbid,
        p.database().unwrap().dbid,
        "a physical standby keeps the DBID"
    );
    assert_eq!(
        (info.role, info.open_mode),
        (DatabaseRole::PhysicalStandby, OpenMode::ReadOnlyWithApply)
    );
    assert_eq!(
        names(&read(&mut *s, "HR.EMP", applied).unwrap()),
        names(&read(&mut *p, "HR.EMP", applied).unwrap())
    );
    let p_now = p.current_scn().unwrap();
    assert!(
        read(&mut *s, "HR.EMP", applied).unwrap().len()
            < read(&mut *p, "HR.EMP", p_now).unwrap().len(),
        "the lag hides the newest rows (applied {applied}, primary {p_now})"
    );
    let e = read(&mut *s, "HR.EMP", applied + 1).unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc5002, "{e}");
    // Mining on the standby sees only applied redo.
    assert!(mine(&mut *s, 5000, applied)
        .iter()
        .all(|r| r.scn <= applied));
    // The primary goes on: the standby follows at its lag.
    let mut w = db.writer();
    let x = w.begin().unwrap();
    w.insert(x, 0, emp_row(99, "late")).unwrap();
    let commit = w.commit(&[x]).unwrap();
    w.flush().unwrap();
    drop(w);
    let applied2 = s.current_scn().unwrap();
    assert_eq!(applied2, newest() - 7);
    assert!(applied2 < commit);
    assert!(!names(&read(&mut *s, "HR.EMP", applied2).unwrap()).contains(&"late".to_string()));
    let e = Writer::open(&sb, Arc::new(db.clock.clone()), false)
        .err()
        .unwrap();
    assert_eq!(e.code(), crate::errors::Code::Cdc5005);
}

/// With real-time apply the standby applies the redo of the primary's current log from the
/// standby redo log being written, which neither V$LOG nor V$ARCHIVED_LOG lists there: it
/// lists its archived logs alone, LogMiner there returns only their redo (not the applied
/// commits past them), and its mining bound is where they end, until the primary's next log
/// switch reaches it.
#[test]
fn a_standby_mines_only_its_archived_logs_and_is_bounded_by_them() {
    let db = primary_with_logs();
    let sb = db.dir.path().join("sb");
    topology::create(
        &sb,
        &topology::TopologyFile::PhysicalStandby {
            primary: db.path(),
            apply_lag_scn: 0,
        },
    )
    .unwrap();
    let standby =
        EmulatorConnector::open_with_clock(&sb, Faults::default(), Arc::new(db.clock.clone()))
            .unwrap();
    let mut p = db.connector().connect().unwrap();
    let mut s = standby.connect().unwrap();
    let applied = s.current_scn().unwrap();
    let logs = s.logs().unwrap();
    assert!(
        !logs.is_empty() && logs.iter().all(|l| l.archived && l.next_scn.is_some()),
        "a standby lists its archived logs alone: {logs:?}"
    );
    let newest = logs.iter().max_by_key(|l| l.sequence).unwrap();
    let (from, end) = (newest.first_scn, newest.next_scn.unwrap() - 1);
    // Commits the standby applied past its archived logs.
    let past: Vec<Scn> = mine(&mut *p, end + 1, applied)
        .iter()
        .filter(|r| r.operation_code == cdc_core::model::op::COMMIT)
        .map(|r| r.scn)
        .collect();
    assert!(!past.is_empty() && end < applied, "{past:?}");
    assert_eq!(s.mining_limit(from).unwrap(), Some(end));
    let rows = mine(&mut *s, from, applied);
    assert!(rows.iter().all(|r| r.scn <= end), "{rows:?}");

    // The primary switches logs; the standby archives the log it was receiving.
    db.writer().build_dictionary().unwrap();
    let limit = s.mining_limit(from).unwrap().unwrap();
    assert!(limit >= applied, "bound {limit}, applied {applied}");
    let rows = mine(&mut *s, from, applied);
    for scn in past {
        assert!(
            rows.iter()
                .any(|r| r.scn == scn && r.operation_code == cdc_core::model::op::COMMIT),
            "the commit at {scn} is mined once archived"
        );
    }
}

#[test]
fn a_downstream_holds_only_shipped_logs_and_a_gap_is_ora_01291() {
    let db = primary_with_logs();
    let mut p = db.connector().connect().unwrap();
    let source = p.database().unwrap();
    let (conn, ds) = downstream_of(&db, vec![4]);
    let mut s = conn.connect().unwrap();
    let info = s.database().unwrap();
    assert_eq!((info.name.as_str(), info.dbid), ("DOWN", 7));
    assert!(
        s.tables().unwrap().is_empty(),
        "the source's tables are not there"
    );
    let q = FlashbackQuery {
        table: "HR.EMP".parse().unwrap(),
        columns: vec!["ID".into()],
        key_columns: vec!["ID".into()],
        scn: 5000,
        range: ChunkRange::Whole,
        filter: None,
        row_ids: true,
    };
    let e = s.read_as_of(&q, &mut |_| Ok(())).unwrap_err();
    assert!(e.to_string().contains("ORA-00942"), "{e}");
    let all = p.logs().unwrap();
    assert!(all.len() > 5, "{all:?}");
    let logs = s.logs().unwrap();
    assert!(logs
        .iter()
        .all(|l| l.archived && l.dbid == Some(source.dbid)));
    assert!(logs.iter().all(|l| l.sequence != 4));
    assert!(
        logs.len() < all.len(),
        "the current log is not shipped with archived-log shipping"
    );
    // Redo up to the gap: logs 1..=3 without a hole.
    let seq3 = logs.iter().find(|l| l.sequence == 3).unwrap();
    let limit = s.mining_limit(0).unwrap().unwrap();
    assert_eq!(Some(limit + 1), seq3.next_scn);
    // What it mines is what the source's LogMiner shows for the same window (from the end of
    // the dictionary build's log on).
    let from = logs[1].first_scn;
    let ours: Vec<_> = mine(&mut *s, from, limit)
        .iter()
        .map(|r| r.sql_redo.clone())
        .collect();
    let theirs: Vec<_> = mine(&mut *p, from, limit)
        .iter()
        .map(|r| r.sql_redo.clone())
        .collect();
    assert!(!ours.is_empty());
    assert_eq!(ours, theirs);
    let e = s
        .mine(limit, limit + 2, &Default::default(), &mut |_| Ok(()))
        .unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc5201, "{e}");
    assert!(
        e.to_string().contains("sequence 4") && e.to_string().contains("ORA-01291"),
        "{e}"
    );
    let e = Writer::open(&ds, Arc::new(db.clock.clone()), false)
        .err()
        .unwrap();
    assert_eq!(e.code(), crate::errors::Code::Cdc2204);
}

/// ALTER TABLE … MOVE: one DDL row in LogMiner and no row change; every row keeps its values
/// and gets a ROWID with a new data object number, which DBA_OBJECTS and DBA_EXTENTS show; a
/// read AS OF an SCN before it fails with ORA-01466; another process replaying the redo, and
/// one opening a checkpoint, agree.
#[test]
fn move_gives_every_row_a_rowid_in_a_new_segment_and_logs_one_ddl_row() {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let mut s = db.connector().connect().unwrap();
    let table: TableName = "HR.EMP".parse().unwrap();
    let info = |s: &mut dyn Session| {
        s.tables()
            .unwrap()
            .into_iter()
            .find(|t| t.name.table == "EMP")
            .unwrap()
    };
    let t = w.begin().unwrap();
    for i in 1..=5 {
        w.insert(t, 0, emp_row(i, &format!("n{i}"))).unwrap();
    }
    w.commit(&[t]).unwrap();
    let first = info(&mut *s);
    let before = s.current_scn().unwrap();
    let rows_before = read(&mut *s, "HR.EMP", before).unwrap();
    assert_eq!(rows_before.len(), 5);

    // A transaction holding a row: ORA-00054; a partition of an unpartitioned table: ORA-14501.
    let held = w.begin().unwrap();
    w.insert(held, 0, emp_row(9, "held")).unwrap();
    let e = w.move_segment(0, None).unwrap_err();
    assert!(e.to_string().contains("ORA-00054"), "{e}");
    w.rollback(held).unwrap();
    let e = w.move_segment(0, Some(0)).unwrap_err();
    assert!(e.to_string().contains("ORA-14501"), "{e}");

    let quiet = s.current_scn().unwrap();
    let scn = w.move_segment(0, None).unwrap();
    let after = s.current_scn().unwrap();
    let now = info(&mut *s);
    assert_eq!(
        now.object_id, first.object_id,
        "the object keeps its number"
    );
    assert!(now.data_object_id > first.data_object_id);
    let extents = s.extents(&table).unwrap();
    assert!(!extents.is_empty());
    assert!(extents
        .iter()
        .all(|e| e.data_object_id == now.data_object_id));
    let rows_after = read(&mut *s, "HR.EMP", after).unwrap();
    assert_eq!(names(&rows_after), names(&rows_before), "the same rows");
    for r in &rows_after {
        let rid = RowId::decode(&r.rowid).unwrap();
        assert_eq!(
            u64::from(rid.data_object),
            now.data_object_id,
            "{}",
            r.rowid
        );
    }
    // The ROWID range of the old segment's extent now holds nothing.
    let old = RowId::decode(&rows_before[0].rowid).unwrap();
    let q = FlashbackQuery {
        table: table.clone(),
        columns: vec!["NAME".into()],
        key_columns: vec![],
        scn: after,
        range: ChunkRange::Rowid {
            start: RowId {
                block: 0,
                slot: 0,
                ..old
            }
            .encode(),
            end: RowId {
                block: u32::MAX >> 10,
                slot: 32767,
                ..old
            }
            .encode(),
        },
        filter: None,
        row_ids: true,
    };
    let mut n = 0;
    s.read_as_of(&q, &mut |_| {
        n += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(n, 0, "the old data object holds no row");
    // AS OF an SCN before the MOVE: ORA-01466 (its DDL is newer).
    let e = read(&mut *s, "HR.EMP", before).unwrap_err();
    assert!(e.to_string().contains("ORA-01466"), "{e}");

    // LogMiner: the DDL row, no DELETE or INSERT.
    let mined = mine(&mut *s, quiet + 1, after);
    let changes: Vec<&LogMinerRow> = mined
        .iter()
        .filter(|r| r.seg_owner.as_deref() == Some("HR"))
        .collect();
    assert_eq!(changes.len(), 1, "{mined:#?}");
    assert_eq!(
        (changes[0].operation_code, changes[0].scn),
        (op::DDL, scn - 1)
    );
    assert_eq!(changes[0].sql_redo, "alter table \"HR\".\"EMP\" move");

    // Updates after it find the moved rows; another process and a checkpoint agree.
    let t = w.begin().unwrap();
    let rid = w.insert(t, 0, emp_row(6, "n6")).unwrap();
    w.commit(&[t]).unwrap();
    assert_eq!(u64::from(rid.data_object), now.data_object_id);
    drop(w);
    let mut w = db.writer();
    w.checkpoint().unwrap();
    let mut fresh = db.connector().connect().unwrap();
    let again = info(&mut *fresh);
    assert_eq!(again.data_object_id, now.data_object_id);
    let end = fresh.current_scn().unwrap();
    let rows = read(&mut *fresh, "HR.EMP", end).unwrap();
    assert_eq!(rows.len(), 6);
    assert!(rows
        .iter()
        .all(|r| RowId::decode(&r.rowid)
            .is_ok_and(|x| u64::from(x.data_object) == now.data_object_id)));
}

/// MOVE PARTITION: only that partition's segment (and its rows' ROWIDs) changes; a MOVE of
/// the whole partitioned table is refused with ORA-14511.
#[test]
fn move_partition_gives_only_that_partition_a_new_segment() {
    let db = Db::new(PARTED);
    let mut w = db.writer();
    let mut s = db.connector().connect().unwrap();
    let parts = |s: &mut dyn Session| -> Vec<u64> {
        s.tables().unwrap()[0]
            .partitions
            .iter()
            .map(|p| p.data_object_id)
            .collect()
    };
    let was = parts(&mut *s);
    let e = w.move_segment(0, None).unwrap_err();
    assert!(e.to_string().contains("ORA-14511"), "{e}");
    w.move_segment(0, Some(1)).unwrap();
    let now = parts(&mut *s);
    assert_eq!(now[0], was[0]);
    assert!(now[1] > was[1]);
    let scn = s.current_scn().unwrap();
    let rows = read(&mut *s, "HR.LOG", scn).unwrap();
    assert_eq!(rows.len(), 120);
    for r in &rows {
        let obj = u64::from(RowId::decode(&r.rowid).unwrap().data_object);
        let want = if r.values[0].to_string() == "EMEA" {
            now[0]
        } else {
            now[1]
        };
        assert_eq!(obj, want, "{}", r.rowid);
    }
}
