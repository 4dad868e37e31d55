use super::*;
use crate::stream::buffer::TxBuffer;

fn col(name: &str, data_type: ColumnType) -> ColumnInfo {
    ColumnInfo {
        name: name.into(),
        data_type,
        nullable: true,
        virtual_column: false,
        hidden: false,
    }
}

fn catalog() -> Catalog {
    let name = TableName::new(None, "O", "T");
    let cols = vec![
        col(
            "ID",
            ColumnType::Number {
                precision: None,
                scale: None,
            },
        ),
        col("C", ColumnType::Clob),
    ];
    let mut c = Catalog::default();
    c.tables.insert(
        name.clone(),
        TableSchema {
            name,
            history: vec![(0, cols)],
            key: vec!["ID".into()],
            excluded: vec![],
        },
    );
    c
}

/// A DDL seen again (a restart mines it once more) leaves the history as once (simulation
/// seed 83: an ADD COLUMN re-applied on top of itself gave the column three times).
#[test]
fn a_ddl_seen_again_is_applied_once() {
    let mut c = catalog();
    let t = TableName::new(None, "O", "T");
    let sql = "ALTER TABLE \"O\".\"T\" ADD (X VARCHAR2(30))";
    assert!(c.apply_ddl(&t, 50, sql, None));
    assert!(!c.apply_ddl(&t, 50, sql, None));
    assert!(!c.apply_ddl(&t, 50, sql, None));
    let names: Vec<&str> = c.tables[&t]
        .columns_at(60)
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, ["ID", "C", "X"]);
    assert_eq!(c.tables[&t].history.len(), 2);
}

fn row(code: u32, scn: Scn, rid: &str, sql: &str) -> LogMinerRow {
    LogMinerRow {
        scn,
        commit_scn: (code == op::COMMIT).then_some(scn),
        start_scn: None,
        timestamp: String::new(),
        commit_timestamp: None,
        xid: "0200030004000000".into(),
        xidusn: 0,
        xidslt: 0,
        xidsqn: 0,
        operation_code: code,
        operation: op::name(code).into(),
        seg_owner: Some("O".into()),
        table_name: Some("T".into()),
        row_id: rid.into(),
        sql_redo: sql.into(),
        csf: 0,
        rollback: 0,
        rs_id: String::new(),
        ssn: 0,
        thread: 1,
        sequence: 1,
        status: 0,
        info: None,
        src_con_name: String::new(),
        username: String::new(),
        data_obj: 0,
    }
}

fn insert(id: u64, c: &str) -> String {
    format!("insert into \"O\".\"T\"(\"ID\",\"C\") values ('{id}',{c});")
}

const LOB: &str = "DECLARE \n loc_c CLOB; \nBEGIN\n select \"C\" into loc_c from \"O\".\"T\" where \"ID\" = '1' and ROWID = 'A' for update;\n dbms_lob.write(loc_c, 5, 1, 'Test2');\nEND;";

fn changes(events: Vec<Result<Event>>) -> Vec<Change> {
    events
        .into_iter()
        .map(|e| match e {
            Ok(Event::Change(c)) => c,
            other => panic!("{other:?}"),
        })
        .collect()
}

#[test]
fn lob_writes_merge_into_their_change_when_the_transaction_streams_from_disk() {
    let rows: Vec<LogMinerRow> =
        std::iter::once(row(op::INSERT, 1, "A", &insert(1, "EMPTY_CLOB()")))
            .chain(std::iter::once(row(op::LOB_WRITE, 2, "A", LOB)))
            .chain(
                (0..200).map(|i| row(op::INSERT, 3 + i, &format!("R{i}"), &insert(100 + i, "'x'"))),
            )
            .chain(std::iter::once(row(
                op::INSERT,
                300,
                "Z",
                &insert(2, "'Test2'"),
            )))
            .collect();
    let dir = tempfile::tempdir().unwrap();
    let mut b = TxBuffer::new(4096, dir.path().join("spill")).unwrap();
    for r in rows.iter().cloned() {
        assert!(b.push(r).unwrap().is_none());
    }
    assert!(b.spilled_bytes() > 0);
    let mut tx = b.push(row(op::COMMIT, 400, "", "")).unwrap().unwrap();
    let streamed = changes(decode(&mut tx, &catalog()));
    // The same rows decoded from memory give the same changes.
    let mut whole = Committed {
        xid: tx.xid.clone(),
        start: crate::stream::buffer::TxStart::Seen(1),
        commit_scn: 400,
        thread: 1,
        commit_timestamp: String::new(),
        rows: TxRows::from_vec(rows),
    };
    assert_eq!(changes(decode(&mut whole, &catalog())), streamed);
    assert_eq!(streamed.len(), 202, "the LOB write is no change of its own");
    let c_of = |c: &Change| {
        c.after
            .as_ref()
            .and_then(|a| a.iter().find(|(n, _)| n == "C").map(|(_, v)| v.clone()))
    };
    assert_eq!(streamed[0].row_id, "A");
    assert_eq!(c_of(&streamed[0]), c_of(&streamed[201]), "merged: 'Test2'");
    assert!(c_of(&streamed[0]).is_some());
}

/// Oracle's own DDL on a captured table (INFO `INTERNAL DDL…`) is no schema change and
/// no CREATE TABLE; user DDL is.
#[test]
fn internal_ddl_is_skipped_and_user_ddl_is_not() {
    let ddl = |info: &str, sql: &str, table: &str| {
        let mut r = row(op::DDL, 5, "", sql);
        r.info = Some(info.into());
        r.table_name = Some(table.into());
        r
    };
    let internal = "INTERNAL DDL (PlSql=0 RecDep=0)";
    let user = "USER DDL (PlSql=0 RecDep=0)";
    let rows = vec![
        ddl(
            internal,
            "CREATE INDEX \"O\".\"SYS_AI_1\" ON \"O\".\"T\"(\"C\")",
            "T",
        ),
        ddl(internal, "create table \"O\".\"TMP\" (\"X\" NUMBER)", "TMP"),
        ddl(user, "alter table \"O\".\"T\" add (\"D\" DATE)", "T"),
        ddl(user, "create table \"O\".\"NEW\" (\"X\" NUMBER)", "NEW"),
    ];
    let mut tx = Committed {
        xid: "0200030004000000".into(),
        start: crate::stream::buffer::TxStart::Seen(1),
        commit_scn: 10,
        thread: 1,
        commit_timestamp: String::new(),
        rows: TxRows::from_vec(rows),
    };
    let mut d = Decoder::new(&mut tx);
    let mut got = Vec::new();
    while let Some(e) = d.next_event(&catalog()) {
        match e {
            Ok(Event::Ddl { table, .. }) => got.push(table.table),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(got, ["T", "NEW"]);
    assert_eq!(d.captured_rows(), 1, "the user DDL of the captured table");
}

/// The mining filter's operation codes are exactly those the table decides about, but the
/// ignored ones; every code Oracle documents has an entry.
#[test]
fn handled_codes_are_the_dispatch_table() {
    assert_eq!(
        handled_codes(),
        [0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 29, 34, 36, 68, 70, 71, 91, 92, 93, 255]
    );
    // V$LOGMNR_CONTENTS.OPERATION (Reference): each documented operation has a decision.
    for code in [
        0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 25, 29, 34, 36, 68, 70, 71, 255,
    ] {
        assert!(HANDLING.iter().any(|(c, _, _)| *c == code), "{code}");
    }
    for code in 0..=255 {
        let buffered = Handling::of(code).is_buffered();
        assert_eq!(
            buffered,
            !matches!(
                code,
                op::START
                    | op::COMMIT
                    | op::ROLLBACK
                    | op::SELECT_FOR_UPDATE
                    | op::REPLICATION_MARKER
            ),
            "{code}"
        );
    }
    assert_eq!(Handling::of(200), Handling::Reported);
}

/// Rows of two captured tables and an uncaptured one, interleaved in one transaction: each
/// change is of its own row's table (the decoder remembers the last table it looked up).
#[test]
fn interleaved_tables_decode_to_their_own_table() {
    let mut cat = catalog();
    let u = TableName::new(None, "O", "U");
    let mut schema = cat.tables[&TableName::new(None, "O", "T")].clone();
    schema.name = u.clone();
    cat.tables.insert(u.clone(), schema);
    let on = |table: &str, id: u64| {
        let mut r = row(
            op::INSERT,
            id,
            "A",
            &insert(id, "'x'").replace("\"T\"", &format!("\"{table}\"")),
        );
        r.table_name = Some(table.into());
        r
    };
    let rows = vec![
        on("T", 1),
        on("U", 2),
        on("U", 3),
        on("V", 4),
        on("T", 5),
        on("U", 6),
    ];
    let mut tx = Committed {
        xid: "0200030004000000".into(),
        start: crate::stream::buffer::TxStart::Seen(1),
        commit_scn: 10,
        thread: 1,
        commit_timestamp: String::new(),
        rows: TxRows::from_vec(rows),
    };
    let got: Vec<(String, u64)> = changes(decode(&mut tx, &cat))
        .into_iter()
        .map(|c| (c.table.table.clone(), c.scn))
        .collect();
    let want = [("T", 1), ("U", 2), ("U", 3), ("T", 5), ("U", 6)];
    assert_eq!(got, want.map(|(t, s)| (t.to_string(), s)));
}

/// O.T with ID, A and a CLOB C; `excluded` columns are never published.
fn catalog_with_a(excluded: &[&str]) -> Catalog {
    let mut c = catalog();
    let t = c.tables.values_mut().next().unwrap();
    t.history[0].1.insert(1, col("A", ColumnType::varchar2(10)));
    t.excluded = excluded.iter().map(|e| e.to_string()).collect();
    c
}

fn decode_one(cat: &Catalog, r: LogMinerRow) -> Result<Event> {
    let mut tx = Committed {
        xid: "0200030004000000".into(),
        start: crate::stream::buffer::TxStart::Seen(1),
        commit_scn: 10,
        thread: 1,
        commit_timestamp: String::new(),
        rows: TxRows::from_vec(vec![r]),
    };
    decode(&mut tx, cat).pop().unwrap()
}

#[test]
fn an_update_without_a_columns_old_value_is_cdc_3201_naming_it() {
    // Minimal logging only: the WHERE holds the changed column, not A.
    let r = row(
        op::UPDATE,
        5,
        "A",
        "update \"O\".\"T\" set \"ID\" = '2' where \"ID\" = '1';",
    );
    match decode_one(&catalog_with_a(&[]), r.clone()) {
        Err(e @ CdcError::IncompleteChange { .. }) => {
            assert_eq!(e.code(), crate::errors::Code::Cdc3201);
            assert!(e.to_string().contains("no value for A:"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // An excluded column is never published, so nothing is missing.
    assert!(decode_one(&catalog_with_a(&["A"]), r).is_ok());
}

#[test]
fn a_lob_an_update_leaves_alone_is_the_unavailable_placeholder() {
    let image = |e: Result<Event>| match e {
        Ok(Event::Change(c)) => (c.before.unwrap(), c.after.unwrap()),
        other => panic!("{other:?}"),
    };
    let ph = Value::Text(UNAVAILABLE_VALUE.into());
    let (before, after) = image(decode_one(
        &catalog_with_a(&[]),
        row(
            op::UPDATE,
            5,
            "A",
            "update \"O\".\"T\" set \"A\" = 'y' where \"ID\" = '1' and \"A\" = 'x';",
        ),
    ));
    let text = |s: &str| Value::Text(s.into());
    let id = Value::Number("1".into());
    assert_eq!(
        before,
        vec![
            ("ID".into(), id.clone()),
            ("A".into(), text("x")),
            ("C".into(), ph.clone())
        ]
    );
    assert_eq!(
        after,
        vec![
            ("ID".into(), id.clone()),
            ("A".into(), text("y")),
            ("C".into(), ph.clone())
        ]
    );
    // Set in the statement: its value.
    let (_, after) = image(decode_one(
        &catalog_with_a(&[]),
        row(
            op::UPDATE,
            5,
            "A",
            "update \"O\".\"T\" set \"C\" = 'new' where \"ID\" = '1' and \"A\" = 'x';",
        ),
    ));
    assert_eq!(after[2], ("C".into(), text("new")));
    assert_eq!(
        unavailable(&ColumnType::Blob),
        Value::Bytes(UNAVAILABLE_VALUE.into())
    );
    // An extended RAW (never supplementally logged) is binary too: base64 in a record.
    assert_eq!(
        unavailable(&ColumnType::Raw { length: 32767 }),
        Value::Bytes(UNAVAILABLE_VALUE.into())
    );
}

#[test]
fn a_row_logminer_marks_status_3_is_cdc_3202() {
    let mut r = row(op::INSERT, 5, "A", &insert(1, "'x'"));
    r.status = 3;
    r.info = Some("no supplemental log data found".into());
    match decode_one(&catalog(), r) {
        Err(e @ CdcError::NoSupplementalLogging { .. }) => {
            assert_eq!(e.code(), crate::errors::Code::Cdc3202);
            assert!(
                e.to_string().contains("no supplemental log data found"),
                "{e}"
            );
        }
        other => panic!("{other:?}"),
    }
}

/// A captured LONG column: every change of its table is CDC-3008, never published with the
/// column's text (LogMiner writes 'LONG DATA' in place of a long value); with the column
/// excluded, the rest of the row streams. (Before, `'LONG DATA'` was published as the value.)
#[test]
fn a_captured_long_column_is_reported_never_published() {
    let name = TableName::new(None, "O", "L");
    let number = ColumnType::Number {
        precision: None,
        scale: None,
    };
    let mut c = Catalog::default();
    c.tables.insert(
        name.clone(),
        TableSchema {
            name: name.clone(),
            history: vec![(0, vec![col("ID", number), col("BODY", ColumnType::Long)])],
            key: vec!["ID".into()],
            excluded: vec![],
        },
    );
    let mut r = row(
        op::INSERT,
        1,
        "R1",
        "insert into \"O\".\"L\"(\"ID\",\"BODY\") values ('1','LONG DATA');",
    );
    r.table_name = Some("L".into());
    let tx = |rows: Vec<LogMinerRow>| Committed {
        xid: "0200030004000000".into(),
        start: crate::stream::buffer::TxStart::Seen(1),
        commit_scn: 10,
        thread: 1,
        commit_timestamp: String::new(),
        rows: TxRows::from_vec(rows),
    };
    let got = decode(&mut tx(vec![r.clone()]), &c);
    match &got[..] {
        [Err(e @ CdcError::ColumnNotStreamed { column, .. })] => {
            assert_eq!(column, "BODY");
            assert_eq!(e.code(), crate::errors::Code::Cdc3008);
            assert!(e.is_unsupported_redo());
            assert!(e.to_string().contains("cdc.columns.exclude"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    c.tables.get_mut(&name).unwrap().excluded = vec!["BODY".into()];
    let got = changes(decode(&mut tx(vec![r]), &c));
    assert_eq!(
        got[0].after,
        Some(vec![("ID".to_string(), Value::Number("1".into()))])
    );
}

fn committed(rows: Vec<LogMinerRow>) -> Committed {
    Committed {
        xid: "0200030004000000".into(),
        start: crate::stream::buffer::TxStart::Seen(1),
        commit_scn: 100,
        thread: 1,
        commit_timestamp: String::new(),
        rows: TxRows::from_vec(rows),
    }
}

fn c_after(c: &Change) -> Option<Value> {
    c.after
        .as_ref()
        .and_then(|a| a.iter().find(|(n, _)| n == "C").map(|(_, v)| v.clone()))
}

const AAA: &str = "AAAAAAAAAAAAAAAAAA";

fn write_c(text: &str, offset: u64) -> String {
    format!(
        " buf_c := '{text}'; \n  dbms_lob.write(loc_c, {}, {offset}, buf_c);",
        text.len()
    )
}

/// BASICFILE LOBs stored out of row: LOB rows without their SEL_LOB_LOCATOR, before the
/// INSERT they belong to or after the UPDATE that starts the value (`EMPTY_CLOB()`, LOB_TRIM
/// 0), decode into that change; rows no DML follows are CDC-3005, and a row whose column the
/// table does not settle is CDC-3005 naming the candidates, never a guess. (Before, each was
/// "a LOB row without its SEL_LOB_LOCATOR", CDC-3005.)
#[test]
fn lob_rows_without_their_locator_go_to_their_statement() {
    // Writes first, then the INSERT (redpanda-data/connect#4574).
    let got = changes(decode(
        &mut committed(vec![
            row(op::LOB_WRITE, 1, AAA, &write_c("hello", 1)),
            row(op::LOB_WRITE, 2, AAA, &write_c(" world", 6)),
            row(op::INSERT, 3, "R1", &insert(1, "EMPTY_CLOB()")),
            row(op::INSERT, 4, "R2", &insert(2, "'plain'")),
        ]),
        &catalog(),
    ));
    assert_eq!(got.len(), 2);
    assert_eq!(c_after(&got[0]), Some(Value::Text("hello world".into())));
    assert_eq!(c_after(&got[1]), Some(Value::Text("plain".into())));
    // The UPDATE that empties the value, then trim and writes (#4430's BASICFILE).
    let update = "update \"O\".\"T\" set \"C\" = EMPTY_CLOB() where \"ID\" = '1';";
    let got = changes(decode(
        &mut committed(vec![
            row(op::UPDATE, 1, AAA, update),
            row(op::LOB_TRIM, 2, AAA, " dbms_lob.trim(loc_c, 0);"),
            row(op::LOB_WRITE, 3, AAA, &write_c("abc", 1)),
            row(op::INTERNAL, 4, "R1", ""),
        ]),
        &catalog(),
    ));
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].op, ChangeOp::Update);
    assert_eq!(c_after(&got[0]), Some(Value::Text("abc".into())));
    // Writes that no INSERT or UPDATE follows.
    let got = decode(
        &mut committed(vec![row(op::LOB_WRITE, 1, AAA, &write_c("x", 1))]),
        &catalog(),
    );
    match &got[..] {
        [Err(CdcError::ValueNotInRedo { message, .. })] => {
            assert!(message.contains("no INSERT or UPDATE"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    // Two CLOB columns: which one is not in the redo.
    let mut c = catalog();
    let t = c.tables.values_mut().next().unwrap();
    t.history[0].1.push(col("D", ColumnType::Clob));
    let got = decode(
        &mut committed(vec![
            row(op::LOB_WRITE, 1, AAA, &write_c("x", 1)),
            row(
                op::INSERT,
                2,
                "R1",
                "insert into \"O\".\"T\"(\"ID\",\"C\",\"D\") values ('1',EMPTY_CLOB(),EMPTY_CLOB());",
            ),
        ]),
        &c,
    );
    match &got[..] {
        [Err(CdcError::ValueNotInRedo { message, .. })] => {
            assert!(message.contains("any of C, D"), "{message}")
        }
        other => panic!("{other:?}"),
    }
}

/// The one-variable preamble (`DECLARE lob_1 CLOB; lob_1_f BOOLEAN; BEGIN select … into
/// lob_1 … for update; lob_1_f := dbms_lob.isopen(lob_1) = 0; if lob_1_f then
/// dbms_lob.open(…); end if; END;`, redpanda-data/connect's lob_parser_test.go) and a CLOB
/// write as HEXTORAW decode into the row's value. (Before, the preamble was "expected a value"
/// and the write "a CLOB write without text".)
#[test]
fn the_lob_1_preamble_and_a_clob_written_as_hextoraw_decode() {
    let preamble = "DECLARE lob_1 CLOB; lob_1_f BOOLEAN; BEGIN select \"C\" into lob_1 from \"O\".\"T\" where \"ID\" = '1' and ROWID = 'AAAXxxx' for update; lob_1_f := dbms_lob.isopen(lob_1) = 0; if lob_1_f then dbms_lob.open(lob_1, dbms_lob.lob_readwrite); end if; END;";
    let got = changes(decode(
        &mut committed(vec![
            row(op::INSERT, 1, AAA, &insert(1, "EMPTY_CLOB()")),
            row(op::SELECT_LOB_LOCATOR, 2, AAA, preamble),
            row(
                op::LOB_WRITE,
                3,
                AAA,
                " buf_b := HEXTORAW('00006162'); \n  dbms_lob.write(lob_1, 4, 1, buf_b);",
            ),
            row(op::LOB_WRITE, 4, AAA, &write_c("cd", 5)),
            row(op::INTERNAL, 5, "R1", ""),
        ]),
        &catalog(),
    ));
    assert_eq!(got.len(), 1);
    assert_eq!(c_after(&got[0]), Some(Value::Text("\0\0abcd".into())));
    let lob = crate::stream::parse::parse_lob_row(preamble).unwrap();
    assert_eq!(lob.locator.unwrap().column, "C");
    assert!(lob.piece.is_none());
    assert_eq!(lob.kind, None, "no DBMS_LOB call: no locator variable");
}

/// A TRUNCATE TABLE of a captured table is a change of the whole table, op `t`, with the DDL
/// row's position; other DDL stays DDL (`ALTER TABLE … TRUNCATE PARTITION` included).
#[test]
fn a_truncate_table_is_a_truncate_change() {
    for (sql, truncate) in [
        ("truncate table \"O\".\"T\"", true),
        ("TRUNCATE  TABLE\n o.t REUSE STORAGE", true),
        ("Truncate Table T drop all storage cascade", true),
        ("alter table o.t truncate partition p1", false),
        ("truncate cluster o.c", false),
        ("truncated table", false),
    ] {
        assert_eq!(is_truncate_table_sql(sql), truncate, "{sql}");
    }
    let mut ddl = row(
        op::DDL,
        7,
        "AAAAAAAAAAAAAAAAAA",
        "truncate table \"O\".\"T\"",
    );
    ddl.info = Some("USER DDL (PlSql=0 RecDep=0)".into());
    ddl.username = "APP".into();
    let mut tx = Committed {
        xid: "0200030004000000".into(),
        start: crate::stream::buffer::TxStart::Seen(1),
        commit_scn: 10,
        thread: 1,
        commit_timestamp: String::new(),
        rows: TxRows::from_vec(vec![ddl]),
    };
    let events = decode(&mut tx, &catalog());
    assert_eq!(events.len(), 1);
    match &events[0] {
        Ok(Event::Change(c)) => {
            assert_eq!(
                (c.op, c.scn, c.row_id.as_str(), c.user.as_str()),
                (ChangeOp::Truncate, 7, "AAAAAAAAAAAAAAAAAA", "APP")
            );
            assert!(c.before.is_none() && c.after.is_none());
        }
        other => panic!("{other:?}"),
    }
}
