use super::*;
use crate::schema::SchemaFile;
use cdc_core::rowid::LOB_ROWID;

const SCHEMA: &str = r#"
database: { max_string_size: extended, goldengate_replication: true }
tables:
  - name: DEBEZIUM.CLOB_TEST
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: VAL_DATA, type: VARCHAR2(20) }
      - { name: VAL_CLOB, type: CLOB }
      - { name: VAL_BLOB, type: BLOB }
      - { name: DOC, type: XMLTYPE }
      - { name: J, type: JSON }
      - { name: EXT, type: VARCHAR2(8000) }
    primary_key: [ID]
    supplemental_logging: all
"#;

fn def() -> TableDef {
    let s = SchemaFile::parse(std::path::Path::new("t.yaml"), SCHEMA).unwrap();
    s.tables(std::path::Path::new("t.yaml")).unwrap().remove(0)
}

fn row(clob: Value, blob: Value, doc: Value, json: Value, ext: Value) -> Vec<Value> {
    vec![
        Value::Number("2".into()),
        Value::Text("Test2".into()),
        clob,
        blob,
        doc,
        json,
        ext,
    ]
}

fn codes(p: &[Piece]) -> Vec<(u32, bool)> {
    p.iter().map(|p| (p.code, p.own_rid)).collect()
}

/// The locator row of Debezium's SelectLobParserTest (DBZ-2948), with 19c's buffer size.
#[test]
fn the_locator_row_is_the_published_preamble() {
    let d = def();
    let logging = SupplementalSpec::default();
    let s = Stmt {
        table: &d.name,
        def: &d,
        cols: &d.columns,
        logging: logging.clone(),
        charsets: Default::default(),
    };
    let r = row(
        Value::Null,
        Value::Null,
        Value::Null,
        Value::Null,
        Value::Null,
    );
    assert_eq!(
        s.locator("VAL_CLOB", &ColumnType::Clob, &r),
        "DECLARE \n loc_c CLOB; \n buf_c VARCHAR2(6156); \n loc_b BLOB; \n buf_b RAW(6156); \n loc_nc NCLOB; \n buf_nc NVARCHAR2(6156); \nBEGIN\n select \"VAL_CLOB\" into loc_c from \"DEBEZIUM\".\"CLOB_TEST\" where \"ID\" = '2' and \"VAL_DATA\" = 'Test2' for update;"
    );
    assert!(s
        .locator("VAL_BLOB", &ColumnType::Blob, &r)
        .contains(" select \"VAL_BLOB\" into loc_b from"));
    assert_eq!(
        lob_write(&ColumnType::Clob, &Value::Text("it's".into()), 4001),
        " buf_c := 'it''s'; \n  dbms_lob.write(loc_c, 4, 4001, buf_c);"
    );
    assert_eq!(lob_trim(&ColumnType::Blob, 7), " dbms_lob.trim(loc_b, 7);");
    assert_eq!(
        xml_begin(&d.name, "DOC", &["\"ID\" = '1'".to_string()]),
        "XML DOC BEGIN:  select \"DOC\" from \"DEBEZIUM\".\"CLOB_TEST\" where \"ID\" = '1'"
    );
    assert_eq!(
        extended_begin(&d.name, "EXT", &["\"ID\" = '1'".to_string()]),
        "DECLARE\n TempLob CLOB;\n buf_c   VARCHAR2(32767);\n Stmt    CLOB;\nBEGIN\n DBMS_LOB.CreateTemporary(TempLob, FALSE);\n Stmt := 'update \"DEBEZIUM\".\"CLOB_TEST\" a set a.\"EXT\" = :EXT where a.\"ID\" = ''1'';';"
    );
}

/// An INSERT with a small CLOB: the INSERT names the empty locator and has the empty ROW_ID,
/// an UPDATE with the row's ROW_ID sets the value (Debezium TransactionCommitConsumer's
/// example); with a large one, locator and writes, then an INTERNAL row.
#[test]
fn inserts_of_small_and_large_lobs() {
    let d = def();
    let logging = SupplementalSpec::default();
    let s = Stmt {
        table: &d.name,
        def: &d,
        cols: &d.columns,
        logging: logging.clone(),
        charsets: Default::default(),
    };
    let small = s.insert(&row(
        Value::Text("some clob data".into()),
        Value::Null,
        Value::Null,
        Value::Null,
        Value::Null,
    ));
    assert_eq!(codes(&small), [(op::INSERT, false), (op::UPDATE, true)]);
    assert_eq!(
        small[0].sql,
        "insert into \"DEBEZIUM\".\"CLOB_TEST\"(\"ID\",\"VAL_DATA\",\"VAL_CLOB\",\"VAL_BLOB\",\"J\",\"EXT\") values ('2','Test2',EMPTY_CLOB(),NULL,NULL,NULL);"
    );
    assert_eq!(
        small[1].sql,
        "update \"DEBEZIUM\".\"CLOB_TEST\" set \"VAL_CLOB\" = 'some clob data' where \"ID\" = '2' and \"VAL_DATA\" = 'Test2';"
    );
    let big = "x".repeat(4500);
    let large = s.insert(&row(
        Value::Text(big.clone().into()),
        Value::Null,
        Value::Text("<a>1</a>".into()),
        Value::Json("{\"n\":1}".into()),
        Value::Text("e".repeat(5000).into()),
    ));
    assert_eq!(
        codes(&large),
        [
            (op::INSERT, false),
            (op::SELECT_LOB_LOCATOR, false),
            (op::LOB_WRITE, false),
            (op::LOB_WRITE, false),
            (op::LOB_WRITE, false),
            (op::EXTENDED_STRING_BEGIN, false),
            (op::EXTENDED_STRING_WRITE, false),
            (op::EXTENDED_STRING_WRITE, false),
            (op::EXTENDED_STRING_END, false),
            (op::XML_BEGIN, false),
            (op::XML_WRITE, false),
            (op::XML_END, false),
            (op::UPDATE, true),
        ]
    );
    // XMLTYPE and the extended string are left out of the INSERT; JSON names its empty BLOB.
    assert!(large[0].sql.ends_with(
        "(\"ID\",\"VAL_DATA\",\"VAL_CLOB\",\"VAL_BLOB\",\"J\") values ('2','Test2',EMPTY_CLOB(),NULL,/* JSON */ EMPTY_BLOB());"
    ), "{}", large[0].sql);
    assert!(large[2]
        .sql
        .contains("dbms_lob.write(loc_c, 2000, 1, buf_c);"));
    assert!(large[4]
        .sql
        .contains("dbms_lob.write(loc_c, 500, 4001, buf_c);"));
    assert_eq!(large[10].sql, "XML_REDO := HEXTORAW('3c613e313c2f613e'):8");
    // The small JSON document is set inline as OSON.
    assert!(
        large[12].sql.starts_with(
            "update \"DEBEZIUM\".\"CLOB_TEST\" set \"J\" = /* JSON */ HEXTORAW('ff4a5a01"
        ),
        "{}",
        large[12].sql
    );
    let only_large = s.insert(&row(
        Value::Text(big.into()),
        Value::Null,
        Value::Null,
        Value::Null,
        Value::Null,
    ));
    assert_eq!(
        only_large.last().map(|p| (p.code, p.own_rid, p.named)),
        Some((op::INTERNAL, true, false))
    );
    let plain = s.insert(&row(
        Value::Null,
        Value::Null,
        Value::Null,
        Value::Null,
        Value::Null,
    ));
    assert_eq!(codes(&plain), [(op::INSERT, true)]);
    assert_ne!(LOB_ROWID, "");
}

/// An UPDATE that only rewrites an out-of-line LOB has no UPDATE row (SecureFile): locator,
/// writes, the TRIM to the new length, INTERNAL.
#[test]
fn updates_of_out_of_line_lobs() {
    let d = def();
    let logging = SupplementalSpec::default();
    let s = Stmt {
        table: &d.name,
        def: &d,
        cols: &d.columns,
        logging: logging.clone(),
        charsets: Default::default(),
    };
    let before = row(
        Value::Text("a".repeat(5000).into()),
        Value::Null,
        Value::Null,
        Value::Null,
        Value::Null,
    );
    let mut after = before.clone();
    after[2] = Value::Text("b".repeat(4100).into());
    let p = s.update(&before, &after, &[2], &[0, 1]);
    assert_eq!(
        codes(&p),
        [
            (op::SELECT_LOB_LOCATOR, false),
            (op::LOB_WRITE, false),
            (op::LOB_WRITE, false),
            (op::LOB_WRITE, false),
            (op::LOB_TRIM, false),
            (op::INTERNAL, true)
        ]
    );
    assert_eq!(p[4].sql, " dbms_lob.trim(loc_c, 4100);");
    after[1] = Value::Text("new".into());
    let p = s.update(&before, &after, &[1, 2], &[0, 1]);
    assert_eq!((p[0].code, p[0].own_rid), (op::UPDATE, false));
    assert_eq!(
        p[0].sql,
        "update \"DEBEZIUM\".\"CLOB_TEST\" set \"VAL_DATA\" = 'new' where \"ID\" = '2' and \"VAL_DATA\" = 'Test2';"
    );
    let mut nulled = before.clone();
    nulled[4] = Value::Null;
    let x = s.update(&before, &nulled, &[4], &[0, 1]);
    assert_eq!(x[1].sql, "XML_REDO := NULL");
}

#[test]
fn dbms_lob_calls_behave_as_documented() {
    let clob = ColumnType::Clob;
    let t = Value::Text("abcdef".into());
    let w = |offset, d: &str| LobOp::Write {
        col: 0,
        offset,
        data: Value::Text(d.into()),
    };
    assert_eq!(
        apply(&t, &clob, &w(3, "XY")).unwrap(),
        Value::Text("abXYef".into())
    );
    // Past the end: padded with spaces.
    assert_eq!(
        apply(&t, &clob, &w(9, "Z")).unwrap(),
        Value::Text("abcdef  Z".into())
    );
    assert_eq!(
        apply(
            &t,
            &clob,
            &LobOp::Erase {
                col: 0,
                offset: 2,
                amount: 3
            }
        )
        .unwrap(),
        Value::Text("a   ef".into())
    );
    assert_eq!(
        apply(&t, &clob, &LobOp::Trim { col: 0, len: 2 }).unwrap(),
        Value::Text("ab".into())
    );
    assert!(apply(&t, &clob, &LobOp::Trim { col: 0, len: 9 }).is_err());
    let b = Value::Bytes(vec![1, 2, 3]);
    assert_eq!(
        apply(
            &b,
            &ColumnType::Blob,
            &LobOp::Erase {
                col: 0,
                offset: 2,
                amount: 9
            }
        )
        .unwrap(),
        Value::Bytes(vec![1, 0, 0])
    );
}
