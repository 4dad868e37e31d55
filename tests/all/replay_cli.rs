//! `oracle-cdc capture` on a replay source (`cdc.database.url=replay:DIR`): hand-written CSV
//! exports of V$LOGMNR_CONTENTS, as SQL*Plus `SET MARKUP CSV ON QUOTE ON` writes them, decoded
//! into the exact records expected; and the errors a bad export or setting gives.

use assert_cmd::cargo::cargo_bin;
use serde_json::{json, Value as Json};
use std::path::Path;
use std::process::{Command, Output};

const SCHEMA: &str = r#"
database:
  name: PROD
  dbid: 4242
tables:
  - name: APP.ITEMS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(40) }
      - { name: QTY, type: NUMBER(5) }
      - { name: NOTES, type: CLOB }
    primary_key: [ID]
    supplemental_logging: all
  - name: APP.OTHER
    columns:
      - { name: K, type: NUMBER(10), nullable: false }
    primary_key: [K]
"#;

/// Columns in an order of their own, an extra column (SQL_UNDO), several optional ones left out
/// (STATUS, INFO, DATA_OBJ#, XIDUSN…). Transactions:
/// - 05000600…: started before the export (its rows carry XID sequence ffffffff), commits at 120;
/// - 02000300…: an insert with a LOB_WRITE, an insert split by CSF; commits at 104;
/// - 03000100…: an update, an insert undone by a ROLLBACK=1 row (savepoint); commits at 109;
/// - 04000200…: rolled back whole;
/// - 06000100…: ALTER TABLE … ADD COLUMN; then 07000100… uses the new column;
/// - 08000100…: still open at the end of the export.
const EXPORT: &str = r##""SCN","START_SCN","COMMIT_SCN","TIMESTAMP","COMMIT_TIMESTAMP","XID","OPERATION_CODE","OPERATION","SEG_OWNER","TABLE_NAME","ROW_ID","CSF","ROLLBACK","RS_ID","SSN","THREAD#","SEQUENCE#","USERNAME","SQL_REDO","SQL_UNDO"
100,,,"2024-05-01 10:00:00",,"05000600FFFFFFFF",3,"UPDATE","APP","ITEMS","AAAR0oAAEAAAACAAAJ",0,0," 0x000011.00000002.0010 ",1,1,17,"SCOTT","update ""APP"".""ITEMS"" set ""QTY"" = '5' where ""ID"" = '9' and ""NAME"" = 'old' and ""QTY"" = '1';","update ""APP"".""ITEMS"" set ""QTY"" = '1' where ""ID"" = '9';"
101,,,"2024-05-01 10:00:01",,"0200030004000000",6,"START",,,"AAAAAAAAAAAAAAAAAA",0,0," 0x000011.00000003.0010 ",0,1,17,"SCOTT","set transaction read write;",
102,,,"2024-05-01 10:00:02",,"0200030004000000",1,"INSERT","APP","ITEMS","AAAR0oAAEAAAACAAAA",0,0," 0x000011.00000004.0010 ",1,1,17,"SCOTT","insert into ""APP"".""ITEMS""(""ID"",""NAME"",""QTY"",""NOTES"") values ('1','O''Brien','3',EMPTY_CLOB());","delete from ""APP"".""ITEMS"" where ""ID"" = '1';"
102,,,"2024-05-01 10:00:02",,"0200030004000000",10,"LOB_WRITE","APP","ITEMS","AAAR0oAAEAAAACAAAA",0,0," 0x000011.00000005.0010 ",1,1,17,"SCOTT","DECLARE 
 loc_c CLOB; 
 buf_c VARCHAR2(6156); 
 loc_b BLOB; 
 buf_b RAW(6156); 
 loc_nc NCLOB; 
 buf_nc NVARCHAR2(6156); 
 e_len NUMBER; 
BEGIN
 select ""NOTES"" into loc_c from ""APP"".""ITEMS"" where ""ID"" = '1' for update;

 buf_c := 'hello, ""lob""'; 
  dbms_lob.write(loc_c, 13, 1, buf_c);
END;",
103,,,"2024-05-01 10:00:03",,"0200030004000000",1,"INSERT","APP","ITEMS","AAAR0oAAEAAAACAAAB",1,0," 0x000011.00000006.0010 ",1,1,17,"SCOTT","insert into ""APP"".""ITEMS""(""ID"",""NAME"",""QTY"") values ('2','long na",
103,,,"2024-05-01 10:00:03",,"0200030004000000",1,"INSERT","APP","ITEMS","AAAR0oAAEAAAACAAAB",0,0," 0x000011.00000006.0010 ",1,1,17,"SCOTT","me','7');",
104,101,104,"2024-05-01 10:00:04","2024-05-01 10:00:04","0200030004000000",7,"COMMIT",,,"AAAAAAAAAAAAAAAAAA",0,0," 0x000011.00000007.0010 ",0,1,17,"SCOTT","commit;",
105,,,"2024-05-01 10:00:05",,"0300010002000000",6,"START",,,"AAAAAAAAAAAAAAAAAA",0,0," 0x000011.00000008.0010 ",0,1,17,"SCOTT","set transaction read write;",
106,,,"2024-05-01 10:00:06",,"0300010002000000",3,"UPDATE","APP","ITEMS","AAAR0oAAEAAAACAAAA",0,0," 0x000011.00000009.0010 ",1,1,17,"SCOTT","update ""APP"".""ITEMS"" set ""QTY"" = '4' where ""ID"" = '1' and ""NAME"" = 'O''Brien' and ""QTY"" = '3';",
107,,,"2024-05-01 10:00:07",,"0300010002000000",1,"INSERT","APP","ITEMS","AAAR0oAAEAAAACAAAC",0,0," 0x000011.0000000a.0010 ",1,1,17,"SCOTT","insert into ""APP"".""ITEMS""(""ID"",""NAME"",""QTY"") values ('3','temp','1');",
108,,,"2024-05-01 10:00:08",,"0300010002000000",2,"DELETE","APP","ITEMS","AAAR0oAAEAAAACAAAC",0,1," 0x000011.0000000b.0010 ",0,1,17,"SCOTT",,
109,105,109,"2024-05-01 10:00:09","2024-05-01 10:00:09","0300010002000000",7,"COMMIT",,,"AAAAAAAAAAAAAAAAAA",0,0," 0x000011.0000000c.0010 ",0,1,17,"SCOTT","commit;",
110,,,"2024-05-01 10:00:10",,"0400020003000000",6,"START",,,"AAAAAAAAAAAAAAAAAA",0,0," 0x000011.0000000d.0010 ",0,1,17,"SCOTT","set transaction read write;",
111,,,"2024-05-01 10:00:11",,"0400020003000000",1,"INSERT","APP","ITEMS","AAAR0oAAEAAAACAAAD",0,0," 0x000011.0000000e.0010 ",1,1,17,"SCOTT","insert into ""APP"".""ITEMS""(""ID"",""NAME"",""QTY"") values ('4','gone','1');",
112,,,"2024-05-01 10:00:12",,"0400020003000000",36,"ROLLBACK",,,"AAAAAAAAAAAAAAAAAA",0,0," 0x000011.0000000f.0010 ",0,1,17,"SCOTT","rollback;",
113,,,"2024-05-01 10:00:13",,"0600010001000000",6,"START",,,"AAAAAAAAAAAAAAAAAA",0,0," 0x000011.00000010.0010 ",0,1,17,"SCOTT","set transaction read write;",
114,,,"2024-05-01 10:00:14",,"0600010001000000",5,"DDL","APP","ITEMS","AAAAAAAAAAAAAAAAAA",0,0," 0x000011.00000011.0010 ",0,1,17,"SCOTT","ALTER TABLE APP.ITEMS ADD (COLOR VARCHAR2(10))",
115,113,115,"2024-05-01 10:00:15","2024-05-01 10:00:15","0600010001000000",7,"COMMIT",,,"AAAAAAAAAAAAAAAAAA",0,0," 0x000011.00000012.0010 ",0,1,17,"SCOTT","commit;",
116,,,"2024-05-01 10:00:16",,"0700010001000000",6,"START",,,"AAAAAAAAAAAAAAAAAA",0,0," 0x000011.00000013.0010 ",0,1,17,"SCOTT","set transaction read write;",
117,,,"2024-05-01 10:00:17",,"0700010001000000",1,"INSERT","APP","ITEMS","AAAR0oAAEAAAACAAAE",0,0," 0x000011.00000014.0010 ",1,1,17,"SCOTT","insert into ""APP"".""ITEMS""(""ID"",""NAME"",""QTY"",""NOTES"",""COLOR"") values ('5','e','1',NULL,'red');",
118,,,"2024-05-01 10:00:18",,"0700010001000000",2,"DELETE","APP","ITEMS","AAAR0oAAEAAAACAAAB",0,0," 0x000011.00000015.0010 ",1,1,17,"SCOTT","delete from ""APP"".""ITEMS"" where ""ID"" = '2' and ""NAME"" = 'long name' and ""QTY"" = '7' and ""COLOR"" IS NULL;",
119,116,119,"2024-05-01 10:00:19","2024-05-01 10:00:19","0700010001000000",7,"COMMIT",,,"AAAAAAAAAAAAAAAAAA",0,0," 0x000011.00000016.0010 ",0,1,17,"SCOTT","commit;",
120,90,120,"2024-05-01 10:00:20","2024-05-01 10:00:20","0500060007000000",7,"COMMIT",,,"AAAAAAAAAAAAAAAAAA",0,0," 0x000011.00000017.0010 ",0,1,17,"SCOTT","commit;",
121,,,"2024-05-01 10:00:21",,"0800010001000000",6,"START",,,"AAAAAAAAAAAAAAAAAA",0,0," 0x000011.00000018.0010 ",0,1,17,"SCOTT","set transaction read write;",
122,,,"2024-05-01 10:00:22",,"0800010001000000",1,"INSERT","APP","ITEMS","AAAR0oAAEAAAACAAAF",0,0," 0x000011.00000019.0010 ",1,1,17,"SCOTT","insert into ""APP"".""ITEMS""(""ID"",""NAME"",""QTY"") values ('6','open','1');",
"##;

fn make(dir: &Path, export: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("schema.yaml"), SCHEMA).unwrap();
    std::fs::write(dir.join("logmnr.csv"), export).unwrap();
}

fn capture(root: &Path, mode: &str, stop_at: Option<u64>) -> Output {
    capture_with(root, mode, stop_at, &[])
}

fn capture_with(root: &Path, mode: &str, stop_at: Option<u64>, extra: &[&str]) -> Output {
    let mut args: Vec<String> = [
        format!("cdc.database.url=replay:{}", root.join("export").display()),
        format!("cdc.state.dir={}", root.join("state").display()),
        format!("cdc.sink.dir={}", root.join("out").display()),
        format!("cdc.snapshot.mode={mode}"),
        "cdc.stream.poll.ms=10".into(),
    ]
    .into_iter()
    .chain(extra.iter().map(|s| s.to_string()))
    .flat_map(|s| ["--set".to_string(), s])
    .collect();
    args.push("capture".into());
    if let Some(n) = stop_at {
        args.push("--stop-at-scn".into());
        args.push(n.to_string());
    }
    Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap()
}

/// The records written under `cdc.sink.dir`, reduced to the fields compared.
fn records(out: &Path) -> Vec<Json> {
    let mut files: Vec<_> = std::fs::read_dir(out)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let mut recs = Vec::new();
    for f in files {
        for line in std::fs::read_to_string(f).unwrap().lines() {
            let r: Json = serde_json::from_str(line).unwrap();
            if r["topic"] == "oracle-cdc" {
                // A schema change event (the export's ADD COLUMN): checked on its own.
                continue;
            }
            // Debezium's JsonConverter wrapper: the payloads are compared.
            let key = &r["key"]["payload"];
            if r["value"].is_null() {
                // A tombstone follows its delete, with the same key.
                let last: &Json = recs.last().expect("a tombstone first");
                assert_eq!((&last["op"], &last["key"]), (&json!("d"), key), "{r}");
                continue;
            }
            let v = &r["value"]["payload"];
            recs.push(json!({
                "topic": r["topic"],
                "key": key,
                "op": v["op"],
                "before": v["before"],
                "after": v["after"],
                "scn": v["source"]["scn"],
                "commit_scn": v["source"]["commit_scn"],
                "txId": v["source"]["txId"],
                "row_id": v["source"]["row_id"],
                "user": v["source"]["user_name"],
            }));
        }
    }
    recs
}

/// The schema change events (Debezium's, on the topic named by the prefix alone).
fn schema_changes(out: &Path) -> Vec<Json> {
    let mut files: Vec<_> = std::fs::read_dir(out)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<Json>(l).unwrap())
                .collect::<Vec<_>>()
        })
        .filter(|r| r["topic"] == "oracle-cdc")
        .collect()
}

/// A record as compared: `at` is (SCN, commit SCN, XID); the key is the image's ID.
fn rec(op: &str, before: Json, after: Json, at: (u64, u64, &str), row: &str) -> Json {
    let (scn, commit, tx) = at;
    let id = if after.is_null() {
        before["ID"].clone()
    } else {
        after["ID"].clone()
    };
    json!({
        "topic": "oracle-cdc.APP.ITEMS",
        "key": {"ID": id},
        "op": op,
        "before": before,
        "after": after,
        "scn": scn.to_string(),
        "commit_scn": commit.to_string(),
        "txId": tx,
        "row_id": format!("AAAR0oAAEAAAACAAA{row}"),
        "user": "SCOTT",
    })
}

/// A CLOB an UPDATE leaves alone, or a DELETE's: never in the redo (commands/capture.md).
const UNAVAILABLE: &str = "__debezium_unavailable_value";

fn expected() -> Vec<Json> {
    let t1 = "0200030004000000";
    vec![
        rec(
            "c",
            Json::Null,
            json!({"ID": 1, "NAME": "O'Brien", "QTY": 3, "NOTES": "hello, \"lob\""}),
            (102, 104, t1),
            "A",
        ),
        rec(
            "c",
            Json::Null,
            json!({"ID": 2, "NAME": "long name", "QTY": 7}),
            (103, 104, t1),
            "B",
        ),
        rec(
            "u",
            json!({"ID": 1, "NAME": "O'Brien", "QTY": 3, "NOTES": UNAVAILABLE}),
            json!({"ID": 1, "NAME": "O'Brien", "QTY": 4, "NOTES": UNAVAILABLE}),
            (106, 109, "0300010002000000"),
            "A",
        ),
        rec(
            "c",
            Json::Null,
            json!({"ID": 5, "NAME": "e", "QTY": 1, "NOTES": null, "COLOR": "red"}),
            (117, 119, "0700010001000000"),
            "E",
        ),
        rec(
            "d",
            json!({"ID": 2, "NAME": "long name", "QTY": 7, "NOTES": UNAVAILABLE, "COLOR": null}),
            Json::Null,
            (118, 119, "0700010001000000"),
            "B",
        ),
        rec(
            "u",
            json!({"ID": 9, "NAME": "old", "QTY": 1, "NOTES": UNAVAILABLE}),
            json!({"ID": 9, "NAME": "old", "QTY": 5, "NOTES": UNAVAILABLE}),
            (100, 120, "0500060007000000"),
            "J",
        ),
    ]
}

fn ok(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "capture failed: {stderr}");
    stderr
}

#[test]
fn a_hand_written_export_decodes_to_the_exact_records() {
    let root = tempfile::tempdir().unwrap();
    make(&root.path().join("export"), EXPORT);
    let err = ok(&capture(root.path(), "none", Some(122)));
    // Six change records, the tombstone after the delete and the ADD COLUMN's schema change.
    assert!(err.contains("reached SCN 122: 8 records"), "{err}");
    let changes = schema_changes(&root.path().join("out"));
    assert_eq!(changes.len(), 1, "{changes:#?}");
    let v = &changes[0]["value"]["payload"];
    assert!(
        v["ddl"].as_str().unwrap().to_uppercase().contains("COLOR"),
        "{v}"
    );
    assert_eq!(v["tableChanges"][0]["type"], "ALTER");
    let columns: Vec<&str> = v["tableChanges"][0]["table"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(columns.last(), Some(&"COLOR"), "the layout after the DDL");
    let got = records(&root.path().join("out"));
    let want = expected();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "record {i}");
    }
    assert_eq!(got.len(), want.len(), "{got:#?}");
    // The transaction still open at the end is where a restart resumes.
    assert!(err.contains("resume at SCN 121"), "{err}");
}

/// The export with transaction 03000100…'s UPDATE (SCN 106) cut off mid-statement.
fn export_with_a_cut_update() -> String {
    let cut = r#""update ""APP"".""ITEMS"" set ""QTY"" = '4' where ""ID"" = '1' and ""NAME"" = 'O''Brien' and ""QTY"" = '3';""#;
    assert!(EXPORT.contains(cut));
    EXPORT.replacen(
        cut,
        r#""update ""APP"".""ITEMS"" set ""QTY"" = '4' where ""ID"" = ""#,
        1,
    )
}

#[test]
fn a_transaction_that_cannot_be_decoded_stops_capture_or_goes_to_the_dead_letter_file() {
    // cdc.on.decode.error=fail (the default): capture stops at the transaction, naming it.
    let root = tempfile::tempdir().unwrap();
    make(&root.path().join("export"), &export_with_a_cut_update());
    let out = capture(root.path(), "none", Some(122));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("CDC-3002"), "{err}");
    assert!(err.contains("0300010002000000"), "{err}");

    // dlq: the transaction goes to STATE/dlq.jsonl with its error; every other one is published.
    let root = tempfile::tempdir().unwrap();
    make(&root.path().join("export"), &export_with_a_cut_update());
    ok(&capture_with(
        root.path(),
        "none",
        Some(122),
        &["cdc.on.decode.error=dlq"],
    ));
    let dlq = std::fs::read_to_string(root.path().join("state").join("dlq.jsonl")).unwrap();
    let letters: Vec<Json> = dlq
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(letters.len(), 1, "{dlq}");
    assert_eq!(letters[0]["xid"], "0300010002000000");
    assert_eq!(letters[0]["commit_scn"], 109);
    assert_eq!(letters[0]["code"], "CDC-3002");
    let got = records(&root.path().join("out"));
    let want: Vec<Json> = expected()
        .into_iter()
        .filter(|r| r["txId"] != "0300010002000000")
        .collect();
    assert!(want.len() < expected().len(), "the transaction had records");
    assert_eq!(got, want);
}

/// Every line of the files under `out` (records as written, for what must not be in them).
fn published(out: &Path) -> String {
    let Ok(entries) = std::fs::read_dir(out) else {
        return String::new();
    };
    entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect()
}

#[test]
fn a_number_that_does_not_fit_its_column_stops_capture_or_goes_to_the_dead_letter_file() {
    // Transaction 07000100…'s insert with a NUMBER(10) key of 1E999999: no Oracle NUMBER, and
    // not one of NUMBER(10) either; it used to be published as that text under an int64 schema.
    let fit = r#"values ('5','e','1',NULL,'red');"#;
    assert!(EXPORT.contains(fit));
    let export = EXPORT.replacen(fit, r#"values ('1E999999','e','1',NULL,'red');"#, 1);
    let root = tempfile::tempdir().unwrap();
    make(&root.path().join("export"), &export);
    let out = capture(root.path(), "none", Some(122));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("CDC-3002: "), "{err}");
    for part in [
        "SCN 117",
        "0700010001000000",
        "APP.ITEMS",
        "column ID",
        "1E999999",
    ] {
        assert!(err.contains(part), "{part} missing: {err}");
    }
    assert!(!published(&root.path().join("out")).contains("1E999999"));

    // dlq: that change goes to the dead-letter file with its reason; every other is published.
    let root = tempfile::tempdir().unwrap();
    make(&root.path().join("export"), &export);
    ok(&capture_with(
        root.path(),
        "none",
        Some(122),
        &["cdc.on.decode.error=dlq"],
    ));
    let dlq = std::fs::read_to_string(root.path().join("state").join("dlq.jsonl")).unwrap();
    let letters: Vec<Json> = dlq
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(letters.len(), 1, "{dlq}");
    assert_eq!(letters[0]["xid"], "0700010001000000");
    assert_eq!(letters[0]["code"], "CDC-3002");
    assert!(dlq.contains("1E999999"), "{dlq}");
    assert!(!published(&root.path().join("out")).contains("1E999999"));
    let want: Vec<Json> = expected()
        .into_iter()
        .filter(|r| !(r["op"] == "c" && r["key"]["ID"] == 5))
        .collect();
    assert_eq!(want.len() + 1, expected().len(), "the insert had a record");
    assert_eq!(records(&root.path().join("out")), want);
}

#[test]
fn a_commit_below_its_own_scn_is_an_invalid_export_not_a_dropped_transaction() {
    // Transaction 07000100…'s COMMIT at SCN 119 saying COMMIT_SCN 118: it used to be taken for a
    // commit already delivered, its insert and delete dropped and capture exiting 0.
    let commit = r#"119,116,119,"2024-05-01 10:00:19""#;
    assert!(EXPORT.contains(commit));
    let export = EXPORT.replacen(commit, r#"119,116,118,"2024-05-01 10:00:19""#, 1);
    let root = tempfile::tempdir().unwrap();
    make(&root.path().join("export"), &export);
    let out = capture(root.path(), "none", Some(122));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("CDC-6002: "), "{err}");
    for part in [
        "logmnr.csv",
        "COMMIT_SCN",
        "118",
        "SCN 119",
        "0700010001000000",
    ] {
        assert!(err.contains(part), "{part} missing: {err}");
    }
    assert_eq!(published(&root.path().join("out")), "");
}

#[test]
fn stop_at_scn_inside_the_export_and_resume() {
    let root = tempfile::tempdir().unwrap();
    make(&root.path().join("export"), EXPORT);
    let err = ok(&capture(root.path(), "none", Some(110)));
    assert!(err.contains("reached SCN 110: 3 records"), "{err}");
    assert_eq!(records(&root.path().join("out")), expected()[..3].to_vec());
    // A second run continues where the first stopped; without --stop-at-scn a replay ends at
    // the export's last SCN.
    let err = ok(&capture(root.path(), "none", None));
    // Three change records, the tombstone after the delete and the ADD COLUMN's schema change.
    assert!(err.contains("reached SCN 122: 5 records"), "{err}");
    assert_eq!(records(&root.path().join("out")), expected());
}

#[test]
fn minimal_columns_in_any_order_with_unquoted_values() {
    // SQLcl-style: only what is needed, numbers unquoted, lowercase names, CRLF line ends.
    let export = "\"OPERATION_CODE\",\"sql_redo\",\"scn\",\"xid\",\"table_name\",\"seg_owner\",\"commit_scn\"\r\n\
6,,10,\"0a00010001000000\",,,\r\n\
1,\"insert into \"\"APP\"\".\"\"OTHER\"\"(\"\"K\"\") values ('7');\",11,\"0a00010001000000\",\"OTHER\",\"APP\",\r\n\
7,,12,\"0a00010001000000\",,,12\r\n";
    let root = tempfile::tempdir().unwrap();
    make(&root.path().join("export"), export);
    ok(&capture(root.path(), "none", None));
    let got = records(&root.path().join("out"));
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(got[0]["after"], json!({"K": 7}));
    assert_eq!(got[0]["op"], "c");
    assert_eq!(got[0]["scn"], "11");
    assert_eq!(got[0]["commit_scn"], "12");
    assert_eq!(got[0]["txId"], "0a00010001000000");
}

fn failure(root: &Path, mode: &str) -> (i32, String) {
    let out = capture(root, mode, Some(200));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn a_snapshot_mode_other_than_none_is_refused_before_anything() {
    let root = tempfile::tempdir().unwrap();
    make(&root.path().join("export"), EXPORT);
    for mode in ["initial", "snapshot_only", "on_signal"] {
        let (code, err) = failure(root.path(), mode);
        assert_eq!(code, 2, "{err}");
        assert!(err.starts_with("CDC-2008"), "{err}");
        assert!(err.contains("cdc.snapshot.mode=none"), "{err}");
        assert!(err.contains(mode), "{err}");
    }
    assert!(!root.path().join("state").exists(), "nothing was written");
    assert!(!root.path().join("out").exists(), "nothing was written");
}

#[test]
fn bad_exports_name_file_line_and_column() {
    let header = "\"SCN\",\"XID\",\"OPERATION_CODE\",\"SQL_REDO\"\n";
    let cases = [
        (
            "10,\"0200030004000000\",6,\n11,\"0200030004000000\",99,\n",
            "line 3 column OPERATION_CODE: unknown operation code 99",
        ),
        (
            "10,\"0200030004000000\",6,\n1O,\"0200030004000000\",7,\n",
            "line 3 column SCN: `1O` is not a non-negative whole number",
        ),
        (
            "10,\"0200030004000000\",6,\n11,\"0200030004000000\",1,\"insert into\n\"\"APP\"\".\"\"OTHER\"\"\n",
            "line 3 column field 4: unterminated quoted field",
        ),
    ];
    for (rows, message) in cases {
        let root = tempfile::tempdir().unwrap();
        make(&root.path().join("export"), &format!("{header}{rows}"));
        let (code, err) = failure(root.path(), "none");
        assert_eq!(code, 2, "{err}");
        let file = root.path().join("export").join("logmnr.csv");
        assert!(
            err.starts_with(&format!("CDC-6002: {} {message}", file.display())),
            "{err}"
        );
    }
}

#[test]
fn a_missing_replay_directory_or_file_is_named() {
    let root = tempfile::tempdir().unwrap();
    let (code, err) = failure(root.path(), "none");
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("CDC-6001"), "{err}");
    assert!(err.contains("no such directory"), "{err}");
    std::fs::create_dir_all(root.path().join("export")).unwrap();
    std::fs::write(root.path().join("export").join("schema.yaml"), SCHEMA).unwrap();
    let (_, err) = failure(root.path(), "none");
    assert!(err.starts_with("CDC-6001"), "{err}");
    assert!(err.contains("logmnr.csv"), "{err}");
}

/// The export's TIMESTAMP columns are its database host's clock: `database.host_utc_offset` in
/// the replay's schema.yaml says how far from UTC it was; `source.commit_ts_ms` is the commit's
/// instant in UTC and `source.ts_ms` the change's (Debezium's `setCommitTime` and
/// `setSourceTime`, both less the database's offset).
#[test]
fn commit_times_are_converted_from_the_exporting_hosts_offset() {
    let ts_ms = |schema: &str| {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("export");
        make(&dir, EXPORT);
        std::fs::write(dir.join("schema.yaml"), schema).unwrap();
        ok(&capture(root.path(), "none", Some(122)));
        let line = std::fs::read_dir(root.path().join("out"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .map(|p| std::fs::read_to_string(p).unwrap())
            .unwrap();
        let first: Json = serde_json::from_str(line.lines().next().unwrap()).unwrap();
        let s = &first["value"]["payload"]["source"];
        (
            s["commit_ts_ms"].as_i64().unwrap(),
            s["ts_ms"].as_i64().unwrap(),
        )
    };
    // Changed at 10:00:02 and committed at 2024-05-01 10:00:04 on the host's clock.
    assert_eq!(
        ts_ms(SCHEMA),
        (1_714_557_604_000, 1_714_557_602_000),
        "+00:00 when not given"
    );
    let east = SCHEMA.replace(
        "  dbid: 4242\n",
        "  dbid: 4242\n  host_utc_offset: \"+02:00\"\n",
    );
    assert_eq!(
        ts_ms(&east),
        (1_714_550_404_000, 1_714_550_402_000),
        "08:00:04 UTC"
    );
}
