//! Columns declared with character length semantics (`VARCHAR2(n CHAR)`, `CHAR(n CHAR)`) and
//! extended strings. In an AL32UTF8 database such a column holds n characters of up to 4 bytes
//! each: ALL_TAB_COLS shows CHAR_LENGTH n, DATA_LENGTH 4n (at most the type's maximum: 4,000
//! bytes, 32,767 with MAX_STRING_SIZE=EXTENDED, 2,000 for CHAR) and CHAR_USED 'C'. Sizes that
//! matter are bytes: a VARCHAR2(1500 CHAR) of an EXTENDED database is 6,000 bytes, an extended
//! string, which LogMiner treats as a LOB (never in an UPDATE's WHERE).

use crate::capture_support;

use capture_support::*;
use serde_json::{json, Value as Json};

const SCHEMA: &str = r#"
seed: 3
database: { name: CHARS, max_string_size: extended }
tables:
  - name: APP.NAMES
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(4 CHAR), generate: { choice: ["Жжжж", "日本語字", "ab", "O'Ñé"] } }
      - { name: CODE, type: CHAR(3 CHAR), generate: { choice: ["é", "ñño", "x"] } }
      - { name: NOTE, type: VARCHAR2(1500 CHAR), null_pct: 20 }
    primary_key: [ID]
    supplemental_logging: all
    rows: 30
"#;

fn capture(e: &Emulated, to: u64) {
    let args: Vec<String> = [
        format!("cdc.database.url=emulator:{}", e.db.display()),
        format!("cdc.state.dir={}", e.state.display()),
        format!("cdc.sink.dir={}", e.out.display()),
        "cdc.stream.poll.ms=20".into(),
        "cdc.on.decode.error=dlq".into(),
    ]
    .into_iter()
    .flat_map(|s| ["--set".to_string(), s])
    .chain(["-q", "capture", "--stop-at-scn"].map(String::from))
    .chain([to.to_string()])
    .collect();
    run(&args.iter().map(String::as_str).collect::<Vec<_>>());
}

/// Multi-byte text up to the declared characters is stored (CHAR padded to 3 characters, not
/// 3 bytes), snapshotted and streamed, and the records converge to the table; nothing is
/// refused, cut or dead-lettered.
#[test]
fn char_semantics_columns_hold_n_characters_end_to_end() {
    let e = emulated(SCHEMA);
    let start = current_scn(&e.db);
    let rows = dump(&e.db, "APP.NAMES", start);
    assert_eq!(rows.len(), 30);
    for r in &rows {
        let name = r["NAME"].as_str().unwrap();
        assert!(["Жжжж", "日本語字", "ab", "O'Ñé"].contains(&name), "{name}");
        let code = r["CODE"].as_str().unwrap();
        assert_eq!(
            code.chars().count(),
            3,
            "CHAR(3 CHAR) pads to characters: {code:?}"
        );
    }
    capture(&e, start);
    run(&[
        "emulator",
        "workload",
        e.db.to_str().unwrap(),
        "--transactions",
        "60",
        "--rate",
        "0",
        "--lob-pct",
        "30",
        "--seed",
        "9",
    ]);
    let end = current_scn(&e.db);
    capture(&e, end);
    let recs = records(&e.out);
    assert_exactly_once(&recs);
    assert!(
        recs.iter().filter(|r| is_change(r)).count() > 60,
        "{} records",
        recs.len()
    );
    assert_converges(&e.db, &recs, "APP.NAMES", end);
    // NOTE, VARCHAR2(1500 CHAR) of an EXTENDED database, is 6,000 bytes: values over 4,000
    // bytes (an extended string's 32K rows in the redo) within 1,500 characters.
    let long = recs
        .iter()
        .filter_map(|r| payload(&r["value"])["after"]["NOTE"].as_str())
        .filter(|n| n.len() > 4000 && n.chars().count() <= 1500)
        .count();
    assert!(long > 0, "no NOTE over 4,000 bytes was streamed");
    let dlq = std::fs::read_to_string(e.state.join("dlq.jsonl")).unwrap_or_default();
    assert!(dlq.is_empty(), "{dlq}");
    // A value over the declared characters is refused as Oracle refuses it (ORA-12899 at init).
    let bad = emulated_err(&SCHEMA.replace(r#""ab""#, r#""abcde""#));
    assert!(bad.contains("ORA-12899"), "{bad}");
}

/// `emulator init` of `schema`, which must fail: its stderr.
fn emulated_err(schema: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schema.yaml");
    std::fs::write(&path, schema).unwrap();
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "init",
            dir.path().join("db").to_str().unwrap(),
            "--schema",
            path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const HEADER: &str = r#""SCN","START_SCN","COMMIT_SCN","TIMESTAMP","COMMIT_TIMESTAMP","XID","OPERATION_CODE","OPERATION","SEG_OWNER","TABLE_NAME","ROW_ID","CSF","ROLLBACK","RS_ID","SSN","THREAD#","SEQUENCE#","USERNAME","STATUS","INFO","DATA_OBJ#","SQL_REDO""#;

/// A replayed UPDATE of a table whose VARCHAR2(1500 CHAR) column is 6,000 bytes in an EXTENDED
/// database: LogMiner leaves the extended string out of the WHERE (it treats it as a LOB), so
/// the before image has Debezium's placeholder for it. Read as 1,500 (characters taken for
/// bytes) the column would be a standard one the redo must hold: CDC-3201.
#[test]
fn an_extended_char_semantics_column_is_known_by_its_bytes() {
    let schema = r#"
database: { name: PROD, max_string_size: extended }
tables:
  - name: HR.DOCS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: TITLE, type: VARCHAR2(20 CHAR) }
      - { name: BODY, type: VARCHAR2(1500 CHAR) }
    primary_key: [ID]
    supplemental_logging: all
"#;
    let row = |scn: u64, code: u32, op: &str, sql: &str| {
        format!(
            "{scn},,,\"2024-05-01 10:00:00\",,\"0200030004000000\",{code},\"{op}\",\"HR\",\"DOCS\",\"AAALHSAAEAAAACAAAA\",0,0,\" 0x000011.00000002.0010 \",1,1,17,\"HR\",0,,45522,\"{}\"\n",
            sql.replace('"', "\"\"")
        )
    };
    let export = format!(
        "{HEADER}\n100,,,\"2024-05-01 10:00:00\",,\"0200030004000000\",6,\"START\",,,\"AAAAAAAAAAAAAAAAAA\",0,0,\" 0x000011.00000001.0010 \",0,1,17,\"HR\",0,,0,\"set transaction read write;\"\n{}102,100,102,\"2024-05-01 10:00:00\",\"2024-05-01 10:00:00\",\"0200030004000000\",7,\"COMMIT\",,,\"AAAAAAAAAAAAAAAAAA\",0,0,\" 0x000011.00000003.0010 \",0,1,17,\"HR\",0,,0,\"commit;\"\n",
        row(
            101,
            3,
            "UPDATE",
            r#"update "HR"."DOCS" set "TITLE" = 'Ärger über Größe' where "ID" = '7' and "TITLE" = 'Übersicht';"#
        ),
    );
    let root = tempfile::tempdir().unwrap();
    let out = replay_capture(root.path(), schema, &export, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recs = records(&root.path().join("out"));
    assert_eq!(recs.len(), 1, "{recs:#?}");
    let v = &recs[0]["value"];
    assert_eq!(v["op"], "u");
    assert_eq!(
        v["before"],
        json!({"ID": 7, "TITLE": "Übersicht", "BODY": "__debezium_unavailable_value"})
    );
    assert_eq!(v["after"]["TITLE"], "Ärger über Größe");
    assert_eq!(v["after"]["BODY"], "__debezium_unavailable_value");
    let dlq: Vec<Json> = std::fs::read_to_string(root.path().join("state/dlq.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(dlq.is_empty(), "{dlq:?}");
}

/// A schema change event describes an added CHAR-semantics column as Debezium's DDL parser and
/// Oracle's JDBC metadata do: `length` is the declared characters (COLUMN_SIZE is CHAR_LENGTH),
/// not its bytes.
#[test]
fn a_schema_change_gives_the_declared_length_of_a_char_semantics_column() {
    let schema = r#"
database: { name: PROD }
tables:
  - name: HR.DOCS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
    primary_key: [ID]
    supplemental_logging: all
"#;
    let export = format!(
        "{HEADER}\n100,,,\"2024-05-01 10:00:00\",,\"0300030004000000\",6,\"START\",,,\"AAAAAAAAAAAAAAAAAA\",0,0,\" 0x000011.00000001.0010 \",0,1,17,\"HR\",0,,0,\"set transaction read write;\"\n101,,,\"2024-05-01 10:00:00\",,\"0300030004000000\",5,\"DDL\",\"HR\",\"DOCS\",\"AAAAAAAAAAAAAAAAAA\",0,0,\" 0x000011.00000002.0010 \",0,1,17,\"HR\",0,\"USER DDL (PlSql=0 RecDep=0)\",45522,\"alter table hr.docs add (title varchar2(10 char), code char(2 char), raw_title varchar2(10 byte))\"\n102,100,102,\"2024-05-01 10:00:00\",\"2024-05-01 10:00:00\",\"0300030004000000\",7,\"COMMIT\",,,\"AAAAAAAAAAAAAAAAAA\",0,0,\" 0x000011.00000003.0010 \",0,1,17,\"HR\",0,,0,\"commit;\"\n"
    );
    let root = tempfile::tempdir().unwrap();
    let out = replay_capture(root.path(), schema, &export, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recs = records(&root.path().join("out"));
    let event = recs
        .iter()
        .find(|r| r["value"]["ddl"].is_string())
        .unwrap_or_else(|| panic!("no schema change event: {recs:#?}"));
    let columns = event["value"]["tableChanges"][0]["table"]["columns"]
        .as_array()
        .unwrap();
    let col = |name: &str| {
        columns
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("{name}: {columns:#?}"))
    };
    for (name, type_name, length) in [
        ("TITLE", "VARCHAR2", 10),
        ("CODE", "CHAR", 2),
        ("RAW_TITLE", "VARCHAR2", 10),
    ] {
        assert_eq!(
            (col(name)["typeName"].as_str(), col(name)["length"].as_i64()),
            (Some(type_name), Some(length)),
            "{name}"
        );
    }
    assert_eq!(col("TITLE")["typeExpression"], "VARCHAR2(10 CHAR)");
}
