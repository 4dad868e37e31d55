//! `oracle-cdc capture` on a replay export holding rows of an object LogMiner's dictionary
//! does not know, written from Oracle's own example (Utilities, "LogMiner Configuration": the
//! INSERT into HR.JOBS "without the dictionary" is `insert into "UNKNOWN"."OBJ# 45522"("COL
//! 1","COL 2","COL 3","COL 4") values (HEXTORAW('45465f4748'),
//! HEXTORAW('546563686e6963616c20577269746572'), HEXTORAW('c229'),HEXTORAW('c3020b'))`; the
//! first value's bytes spell `EF_GH`, not the `IT_WT` of the statement it stands for).
//! DATA_OBJ# 45522 is HR.JOBS's (its named rows in the export carry it): the row is published
//! as HR.JOBS's; a row of another object number is not, and is counted; an UPDATE whose value
//! is not a NUMBER's bytes is CDC-3050 naming the object number.

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
  - name: HR.JOBS
    columns:
      - { name: JOB_ID, type: VARCHAR2(10), nullable: false }
      - { name: JOB_TITLE, type: VARCHAR2(35) }
      - { name: MIN_SALARY, type: NUMBER(6) }
      - { name: MAX_SALARY, type: NUMBER(6) }
    primary_key: [JOB_ID]
    supplemental_logging: all
"#;

const HEADER: &str = r#""SCN","START_SCN","COMMIT_SCN","TIMESTAMP","COMMIT_TIMESTAMP","XID","OPERATION_CODE","OPERATION","SEG_OWNER","TABLE_NAME","ROW_ID","CSF","ROLLBACK","RS_ID","SSN","THREAD#","SEQUENCE#","USERNAME","STATUS","INFO","DATA_OBJ#","SQL_REDO""#;

/// One transaction `xid` at SCNs `scn`.. holding `changes` (operation code, SEG_OWNER,
/// TABLE_NAME, DATA_OBJ#, SQL_REDO), then its commit.
fn tx(xid: &str, scn: u64, changes: &[(u32, &str, &str, u64, &str)]) -> String {
    let mut out = format!(
        "{scn},,,\"2024-05-01 10:00:00\",,\"{xid}\",6,\"START\",,,\"AAAAAAAAAAAAAAAAAA\",0,0,\" 0x000011.00000001.0010 \",0,1,17,\"HR\",0,,0,\"set transaction read write;\"\n"
    );
    let mut s = scn;
    for (i, (code, owner, table, obj, sql)) in changes.iter().enumerate() {
        s += 1;
        let op = match code {
            1 => "INSERT",
            2 => "DELETE",
            _ => "UPDATE",
        };
        out += &format!(
            "{s},,,\"2024-05-01 10:00:00\",,\"{xid}\",{code},\"{op}\",\"{owner}\",\"{table}\",\"AAALHSAAEAAAACAAA{}\",0,0,\" 0x000011.00000002.0010 \",1,1,17,\"HR\",0,,{obj},\"{}\"\n",
            (b'A' + i as u8) as char,
            sql.replace('"', "\"\"")
        );
    }
    s += 1;
    out += &format!(
        "{s},{scn},{s},\"2024-05-01 10:00:00\",\"2024-05-01 10:00:00\",\"{xid}\",7,\"COMMIT\",,,\"AAAAAAAAAAAAAAAAAA\",0,0,\" 0x000011.00000003.0010 \",0,1,17,\"HR\",0,,0,\"commit;\"\n"
    );
    out
}

fn run(root: &Path, export: &str) -> Output {
    replay_capture(root, SCHEMA, export, &["cdc.on.decode.error=dlq"])
}

fn lines(path: &Path) -> Vec<Json> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[test]
fn oracles_unknown_object_example_is_published_as_its_table() {
    let export = format!(
        "{HEADER}\n{}{}{}{}",
        tx(
            "0200030004000000",
            100,
            &[(
                1,
                "HR",
                "JOBS",
                45522,
                r#"insert into "HR"."JOBS"("JOB_ID","JOB_TITLE","MIN_SALARY","MAX_SALARY") values ('AD_PRES','President','20080','40000');"#,
            )],
        ),
        tx(
            "0300010002000000",
            110,
            &[(
                1,
                "UNKNOWN",
                "OBJ# 45522",
                45522,
                r#"insert into "UNKNOWN"."OBJ# 45522"("COL 1","COL 2","COL 3","COL 4") values (HEXTORAW('45465f4748'),HEXTORAW('546563686e6963616c20577269746572'),HEXTORAW('c229'),HEXTORAW('c3020b'));"#,
            )],
        ),
        // Another object's row: counted, not published.
        tx(
            "0400010001000000",
            120,
            &[(
                1,
                "UNKNOWN",
                "OBJ# 51000",
                51000,
                r#"insert into "UNKNOWN"."OBJ# 51000"("COL 1") values (HEXTORAW('c102'));"#,
            )],
        ),
        // MIN_SALARY's bytes are no NUMBER (0xff): CDC-3050, a dead letter.
        tx(
            "0500010001000000",
            130,
            &[(
                3,
                "UNKNOWN",
                "OBJ# 45522",
                45522,
                r#"update "UNKNOWN"."OBJ# 45522" set "COL 3" = HEXTORAW('ff') where "COL 1" = HEXTORAW('45465f4748');"#,
            )],
        ),
    );
    let root = tempfile::tempdir().unwrap();
    let out = run(root.path(), &export);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        afters(&root.path().join("out")),
        vec![
            serde_json::json!({"JOB_ID": "AD_PRES", "JOB_TITLE": "President", "MIN_SALARY": 20080, "MAX_SALARY": 40000}),
            serde_json::json!({"JOB_ID": "EF_GH", "JOB_TITLE": "Technical Writer", "MIN_SALARY": 4000, "MAX_SALARY": 11000}),
        ]
    );
    let state = root.path().join("state");
    let letters = lines(&state.join("dlq.jsonl"));
    assert_eq!(letters.len(), 1, "{letters:?}");
    assert_eq!(letters[0]["code"], "CDC-3050");
    let text = letters[0]["error"].as_str().unwrap();
    assert!(
        text.starts_with("CDC-3050: HR.JOBS (LogMiner's \"UNKNOWN\".\"OBJ# 45522\") changed at SCN 131 (XID 0500010001000000)")
            && text.contains("cdc.mining.dictionary=redo_logs"),
        "{text}"
    );
    let named: Vec<Json> = lines(&state.join("ops.jsonl"))
        .into_iter()
        .filter(|e| e["event"] == "unknown-object")
        .collect();
    assert_eq!(named.len(), 1, "{named:?}");
    assert_eq!(named[0]["object"], 51000);
    let metrics = lines(&state.join("ops.jsonl"))
        .into_iter()
        .rev()
        .find(|e| e["event"] == "capture-metrics")
        .unwrap();
    assert_eq!(
        metrics["unknown_object_rows"],
        serde_json::json!({"resolved": 2, "not-captured": 1}),
        "{metrics}"
    );
}
