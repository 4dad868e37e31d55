//! `oracle-cdc capture` on replay exports holding statements LogMiner writes wrong: string
//! values with their quotes not doubled (Debezium DBZ-8034, DBZ-8200, DBZ-8869) and `"COL n"`
//! names after a dictionary mismatch (Oracle Utilities, "LogMiner Configuration" and
//! "DDL_DICT_TRACKING and Supplemental Logging Settings"). Read where the table's columns
//! allow exactly one reading, each with a `redo-recovered` ops event; otherwise CDC-3020 /
//! CDC-3021 with the SCN and XID. (On main each of these stopped capture with CDC-3002.)

use crate::capture_support;
use capture_support::{afters, replay_capture};
use serde_json::Value as Json;
use std::path::Path;
use std::process::Output;

const SCHEMA: &str = r#"
database:
  name: PROD
  dbid: 4242
tables:
  - name: APP.NOTES
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: TITLE, type: VARCHAR2(40) }
      - { name: CODE, type: VARCHAR2(3) }
      - { name: BODY, type: VARCHAR2(4000) }
    primary_key: [ID]
    supplemental_logging: all
"#;

const HEADER: &str = r#""SCN","START_SCN","COMMIT_SCN","TIMESTAMP","COMMIT_TIMESTAMP","XID","OPERATION_CODE","OPERATION","SEG_OWNER","TABLE_NAME","ROW_ID","CSF","ROLLBACK","RS_ID","SSN","THREAD#","SEQUENCE#","USERNAME","STATUS","INFO","SQL_REDO""#;

/// One transaction `xid` at SCNs `scn`.. holding `changes` (operation code, STATUS, INFO,
/// SQL_REDO as SQL*Plus quotes it), then its commit.
fn tx(xid: &str, scn: u64, changes: &[(u32, i32, &str, &str)]) -> String {
    let mut out = format!(
        "{scn},,,\"2024-05-01 10:00:00\",,\"{xid}\",6,\"START\",,,\"AAAAAAAAAAAAAAAAAA\",0,0,\" 0x000011.00000001.0010 \",0,1,17,\"SCOTT\",0,,\"set transaction read write;\"\n"
    );
    let mut s = scn;
    for (i, (code, status, info, sql)) in changes.iter().enumerate() {
        s += 1;
        let op = match code {
            1 => "INSERT",
            2 => "DELETE",
            _ => "UPDATE",
        };
        let info = if info.is_empty() {
            String::new()
        } else {
            format!("\"{info}\"")
        };
        out += &format!(
            "{s},,,\"2024-05-01 10:00:00\",,\"{xid}\",{code},\"{op}\",\"APP\",\"NOTES\",\"AAAR0oAAEAAAACAAA{}\",0,0,\" 0x000011.00000002.0010 \",1,1,17,\"SCOTT\",{status},{info},\"{}\"\n",
            (b'A' + i as u8) as char,
            sql.replace('"', "\"\"")
        );
    }
    s += 1;
    out += &format!(
        "{s},{scn},{s},\"2024-05-01 10:00:00\",\"2024-05-01 10:00:00\",\"{xid}\",7,\"COMMIT\",,,\"AAAAAAAAAAAAAAAAAA\",0,0,\" 0x000011.00000003.0010 \",0,1,17,\"SCOTT\",0,,\"commit;\"\n"
    );
    out
}

fn export(txs: &[String]) -> String {
    format!("{HEADER}\n{}", txs.concat())
}

fn run(root: &Path, export: &str, extra: &[&str]) -> Output {
    replay_capture(root, SCHEMA, export, extra)
}

fn events(root: &Path, name: &str) -> Vec<Json> {
    let text = std::fs::read_to_string(root.join("state").join("ops.jsonl")).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .filter(|e| e["event"] == name)
        .collect()
}

#[test]
fn undoubled_quotes_are_read_where_the_columns_allow_one_reading() {
    let root = tempfile::tempdir().unwrap();
    let e = export(&[
        tx(
            "0200030004000000",
            100,
            &[
                // DBZ-8034's shape: a lone quote inside each value.
                (
                    1,
                    0,
                    "",
                    r#"insert into "APP"."NOTES"("ID","TITLE","CODE","BODY") values ('1','C'est la vie','abc','l'eau');"#,
                ),
                // TITLE "a', 'b" and CODE "x", or TITLE "a" and CODE "b', 'x": CODE holds 3.
                (
                    1,
                    0,
                    "",
                    r#"insert into "APP"."NOTES"("ID","TITLE","CODE","BODY") values ('2','a', 'b','x',NULL);"#,
                ),
            ],
        ),
        // DBZ-8869's shape: an apostrophe before a comma inside a SET value.
        tx(
            "0300010002000000",
            110,
            &[(
                3,
                0,
                "",
                r#"update "APP"."NOTES" set "BODY" = 'attivita', del liquido', "TITLE" = 'Another field', does it work?' where "ID" = '1' and "TITLE" = 'C'est la vie' and "CODE" = 'abc' and "BODY" = 'l'eau';"#,
            )],
        ),
    ]);
    let out = run(root.path(), &e, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let got = afters(&root.path().join("out"));
    assert_eq!(
        got,
        vec![
            serde_json::json!({"ID": 1, "TITLE": "C'est la vie", "CODE": "abc", "BODY": "l'eau"}),
            serde_json::json!({"ID": 2, "TITLE": "a', 'b", "CODE": "x", "BODY": null}),
            serde_json::json!({"ID": 1, "TITLE": "Another field', does it work?", "CODE": "abc", "BODY": "attivita', del liquido"}),
        ]
    );
    let ev = events(root.path(), "redo-recovered");
    assert_eq!(ev.len(), 3, "{ev:?}");
    assert!(
        ev.iter()
            .all(|e| e["kind"] == "unescaped-quotes" && e["table"] == "APP.NOTES"),
        "{ev:?}"
    );
    assert_eq!(ev[2]["scn"], 111);
    assert_eq!(ev[2]["xid"], "0300010002000000");
}

#[test]
fn undoubled_quotes_that_read_two_ways_stop_with_cdc_3020_or_go_to_the_dead_letters() {
    // TITLE "a', 'b" and BODY "x", or TITLE "a" and BODY "b', 'x": both fit.
    let e = export(&[tx(
        "0400010001000000",
        200,
        &[(
            1,
            0,
            "",
            r#"insert into "APP"."NOTES"("ID","TITLE","BODY") values ('7','a', 'b','x');"#,
        )],
    )]);
    let root = tempfile::tempdir().unwrap();
    let out = run(root.path(), &e, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("CDC-3020"), "{err}");
    assert!(
        err.contains("SCN 201")
            && err.contains("XID 0400010001000000")
            && err.contains("APP.NOTES"),
        "{err}"
    );
    let root = tempfile::tempdir().unwrap();
    let out = run(root.path(), &e, &["cdc.on.decode.error=dlq"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dlq = std::fs::read_to_string(root.path().join("state").join("dlq.jsonl")).unwrap();
    assert!(dlq.contains("\"code\":\"CDC-3020\""), "{dlq}");
}

#[test]
fn col_n_names_are_read_by_position_when_the_table_agrees() {
    let root = tempfile::tempdir().unwrap();
    let e = export(&[tx(
        "0500010001000000",
        300,
        &[
            // ID 3 (NUMBER c104), TITLE "O'Neil" as its bytes, CODE and BODY null.
            (
                1,
                2,
                "Dictionary Mismatch",
                r#"insert into "APP"."NOTES"("COL 1","COL 2","COL 3","COL 4") values (HEXTORAW('c104'),HEXTORAW('4f274e65696c'),NULL,NULL);"#,
            ),
            (
                3,
                2,
                "Dictionary Mismatch",
                r#"update "APP"."NOTES" set "COL 3" = HEXTORAW('616263') where "COL 1" = HEXTORAW('c104') and "COL 2" = HEXTORAW('4f274e65696c') and "COL 3" IS NULL and "COL 4" IS NULL;"#,
            ),
        ],
    )]);
    let out = run(root.path(), &e, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        afters(&root.path().join("out")),
        vec![
            serde_json::json!({"ID": 3, "TITLE": "O'Neil", "CODE": null, "BODY": null}),
            serde_json::json!({"ID": 3, "TITLE": "O'Neil", "CODE": "abc", "BODY": null}),
        ]
    );
    let ev = events(root.path(), "redo-recovered");
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert!(ev.iter().all(|e| e["kind"] == "column-positions"), "{ev:?}");
}

#[test]
fn col_n_names_the_table_cannot_hold_stop_with_cdc_3021_naming_the_dictionary() {
    for (status, info, sql) in [
        // Three stored columns: the redo is of another version of the table.
        (
            2,
            "Dictionary Mismatch",
            r#"insert into "APP"."NOTES"("COL 1","COL 2","COL 3") values (HEXTORAW('c104'),NULL,NULL);"#,
        ),
        // No statement at all.
        (2, "Dictionary Mismatch", "Dictionary Version Mismatch"),
    ] {
        let root = tempfile::tempdir().unwrap();
        let e = export(&[tx("0600010001000000", 400, &[(1, status, info, sql)])]);
        let out = run(root.path(), &e, &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.starts_with("CDC-3021"), "{err}");
        assert!(
            err.contains("SCN 401")
                && err.contains("XID 0600010001000000")
                && err.contains("cdc.mining.dictionary=redo_logs"),
            "{err}"
        );
    }
}

/// Rows with an all-zero XID, as LogMiner has been seen to write (Debezium dbz#2683): a START
/// at `scn` that no COMMIT ends, and an INSERT of APP.NOTES (ID 9) at `scn + 1`.
fn no_transaction_rows(scn: u64) -> String {
    let xid = "0000000000000000";
    format!(
        "{scn},,,\"2024-05-01 10:00:00\",,\"{xid}\",6,\"START\",,,\"AAAAAAAAAAAAAAAAAA\",0,0,\" 0x000012.00000001.0010 \",0,1,17,\"SCOTT\",0,,\"set transaction read write;\"\n\
         {},,,\"2024-05-01 10:00:00\",,\"{xid}\",1,\"INSERT\",\"APP\",\"NOTES\",\"AAAR0oAAEAAAACAAAZ\",0,0,\" 0x000012.00000002.0010 \",1,1,17,\"SCOTT\",0,,\"insert into \"\"APP\"\".\"\"NOTES\"\"(\"\"ID\"\",\"\"TITLE\"\",\"\"CODE\"\",\"\"BODY\"\") values ('9','zero',NULL,NULL);\"\n",
        scn + 1
    )
}

/// A change with an all-zero XID belongs to no transaction: no COMMIT will end it. It stops
/// capture with CDC-3010 naming the table and the SCN, or with cdc.on.unsupported.redo=skip is
/// counted and reported while the transactions around it are published; the START with that
/// XID is passed over. Neither is left open: before, both opened a transaction that never
/// ended (open_transactions 1 at the end, the restart SCN held at it), and by default capture
/// went on as if nothing happened.
#[test]
fn a_change_with_no_transaction_stops_with_cdc_3010_or_is_reported_and_left_out() {
    let insert = |id: u32| {
        (
            1,
            0,
            "",
            format!(
                r#"insert into "APP"."NOTES"("ID","TITLE","CODE","BODY") values ('{id}','t',NULL,NULL);"#
            ),
        )
    };
    let one = insert(1);
    let two = insert(2);
    let e = export(&[
        tx(
            "0200030004000000",
            100,
            &[(one.0, one.1, one.2, one.3.as_str())],
        ),
        no_transaction_rows(120),
        tx(
            "0300010002000000",
            130,
            &[(two.0, two.1, two.2, two.3.as_str())],
        ),
    ]);

    let root = tempfile::tempdir().unwrap();
    let out = run(root.path(), &e, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("CDC-3010"), "{err}");
    assert!(
        err.contains("APP.NOTES") && err.contains("SCN 121"),
        "{err}"
    );

    let root = tempfile::tempdir().unwrap();
    let out = run(root.path(), &e, &["cdc.on.unsupported.redo=skip"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let ids: Vec<Json> = afters(&root.path().join("out"))
        .iter()
        .map(|a| a["ID"].clone())
        .collect();
    assert_eq!(ids, [1, 2]);
    let ev = events(root.path(), "unsupported-redo");
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(ev[0]["code"], "CDC-3010");
    let metrics = events(root.path(), "capture-metrics");
    let last = metrics.last().expect("capture-metrics");
    assert_eq!(last["open_transactions"], 0, "{last}");
}
