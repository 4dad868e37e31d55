//! `TRUNCATE TABLE` of a captured table, replayed from a V$LOGMNR_CONTENTS export as Oracle
//! writes it: one DDL row (OPERATION_CODE 5, SQL_REDO the statement as typed, INFO `USER DDL`,
//! ROW_ID `AAAAAAAAAAAAAAAAAA`) in a transaction of its own, and no DELETE rows. Debezium's
//! Oracle connector publishes it as a truncate record (`op` `t`: `before` and `after` null, no
//! key; `BaseChangeRecordEmitter.emitTruncateRecord`, `Envelope.truncate`) in the DDL's
//! transaction and no schema change event (`OracleSchemaChangeEventEmitter` hands a
//! TRUNCATE_TABLE event to its truncate receiver instead), and skips it by default
//! (`skipped.operations=t`).

use crate::capture_support;
use capture_support::{latest_per_key, replay_capture};
use serde_json::{json, Value as Json};
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
    primary_key: [JOB_ID]
    supplemental_logging: all
"#;

const HEADER: &str = r#""SCN","START_SCN","COMMIT_SCN","TIMESTAMP","COMMIT_TIMESTAMP","XID","OPERATION_CODE","OPERATION","SEG_OWNER","TABLE_NAME","ROW_ID","CSF","ROLLBACK","RS_ID","SSN","THREAD#","SEQUENCE#","USERNAME","STATUS","INFO","DATA_OBJ#","SQL_REDO""#;

/// One transaction `xid` at SCNs `scn`..: its START, `rows` (operation code, ROW_ID, INFO,
/// SQL_REDO), its COMMIT.
fn tx(xid: &str, scn: u64, rows: &[(u32, &str, &str, &str)]) -> String {
    let mut out = format!(
        "{scn},,,\"2024-05-01 10:00:00\",,\"{xid}\",6,\"START\",,,\"AAAAAAAAAAAAAAAAAA\",0,0,\" 0x000011.00000001.0010 \",0,1,17,\"HR\",0,,0,\"set transaction read write;\"\n"
    );
    let mut s = scn;
    for (code, rid, info, sql) in rows {
        s += 1;
        let (op, ssn) = match code {
            1 => ("INSERT", 1),
            5 => ("DDL", 0),
            _ => ("UPDATE", 1),
        };
        out += &format!(
            "{s},,,\"2024-05-01 10:00:00\",,\"{xid}\",{code},\"{op}\",\"HR\",\"JOBS\",\"{rid}\",0,0,\" 0x000011.0000000{}.0010 \",{ssn},1,17,\"HR\",0,{},45522,\"{}\"\n",
            s % 10,
            if info.is_empty() {
                String::new()
            } else {
                format!("\"{info}\"")
            },
            sql.replace('"', "\"\"")
        );
    }
    s += 1;
    out += &format!(
        "{s},{scn},{s},\"2024-05-01 10:00:00\",\"2024-05-01 10:00:00\",\"{xid}\",7,\"COMMIT\",,,\"AAAAAAAAAAAAAAAAAA\",0,0,\" 0x000011.00000003.0010 \",0,1,17,\"HR\",0,,0,\"commit;\"\n"
    );
    out
}

/// Two rows inserted, the table truncated (SCN 111, committed at 112), one row inserted.
fn export() -> String {
    let insert = |id: &str, title: &str| {
        format!(r#"insert into "HR"."JOBS"("JOB_ID","JOB_TITLE") values ('{id}','{title}');"#)
    };
    format!(
        "{HEADER}\n{}{}{}",
        tx(
            "0200030004000000",
            100,
            &[
                (1, "AAALHSAAEAAAACAAAA", "", &insert("AD_PRES", "President")),
                (
                    1,
                    "AAALHSAAEAAAACAAAB",
                    "",
                    &insert("IT_PROG", "Programmer")
                ),
            ],
        ),
        tx(
            "0300010002000000",
            110,
            &[(
                5,
                "AAAAAAAAAAAAAAAAAA",
                "USER DDL (PlSql=0 RecDep=0)",
                "truncate table hr.jobs",
            )],
        ),
        tx(
            "0400010001000000",
            120,
            &[(1, "AAALHTAAEAAAACAAAA", "", &insert("ST_CLERK", "Clerk"))],
        ),
    )
}

fn records(out: &Path) -> Vec<Json> {
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
        .collect()
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every record's (topic, op), a schema change event's as `schema-change`.
fn shape(recs: &[Json]) -> Vec<(String, String)> {
    recs.iter()
        .map(|r| {
            let topic = r["topic"].as_str().unwrap_or_default().to_string();
            let op = match r["value"]["op"].as_str() {
                Some(op) => op.to_string(),
                None if r["value"]["ddl"].is_string() => "schema-change".into(),
                None => r["value"]["status"].as_str().unwrap_or("?").to_string(),
            };
            (topic, op)
        })
        .collect()
}

fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
    p.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn a_truncate_is_debeziums_truncate_record_when_not_skipped() {
    let root = tempfile::tempdir().unwrap();
    let out = replay_capture(
        root.path(),
        SCHEMA,
        &export(),
        &["cdc.skipped.operations=none"],
    );
    ok(&out);
    let recs = records(&root.path().join("out"));
    assert_eq!(
        shape(&recs),
        pairs(&[
            ("oracle-cdc.HR.JOBS", "c"),
            ("oracle-cdc.HR.JOBS", "c"),
            ("oracle-cdc.HR.JOBS", "t"),
            ("oracle-cdc.HR.JOBS", "c"),
        ]),
        "{recs:#?}"
    );
    let t = &recs[2];
    assert_eq!(t["key"], Json::Null, "a truncate record has no key");
    let v = &t["value"];
    assert_eq!(v["before"], Json::Null);
    assert_eq!(v["after"], Json::Null);
    assert_eq!(v["transaction"], Json::Null);
    assert!(v["ts_ms"].is_i64() && v["ts_us"].is_i64() && v["ts_ns"].is_i64());
    let src = &v["source"];
    for (field, want) in [
        ("connector", json!("oracle")),
        ("name", json!("oracle-cdc")),
        ("snapshot", json!("false")),
        ("db", json!("PROD")),
        ("schema", json!("HR")),
        ("table", json!("JOBS")),
        ("txId", json!("0300010002000000")),
        ("scn", json!("111")),
        ("commit_scn", json!("112")),
        ("rs_id", json!("0x000011.00000001.0010")),
        ("ssn", json!(0)),
        ("redo_thread", json!(1)),
        ("user_name", json!("HR")),
        ("row_id", json!("AAAAAAAAAAAAAAAAAA")),
        ("start_scn", json!("111")),
        ("txSeq", json!(1)),
    ] {
        assert_eq!(src[field], want, "source.{field} of {t}");
    }
    // A consumer keeping the latest record per key drops the table's rows at the truncate.
    let latest = latest_per_key(&recs);
    let rows: Vec<&Json> = latest.values().map(|m| &m["JOB_ID"]).collect();
    assert_eq!(rows, vec![&json!("ST_CLERK")], "{latest:#?}");
}

#[test]
fn truncates_are_skipped_by_default_and_are_no_schema_change() {
    let root = tempfile::tempdir().unwrap();
    let out = replay_capture(
        root.path(),
        SCHEMA,
        &export(),
        &["cdc.provide.transaction.metadata=true"],
    );
    ok(&out);
    let recs = records(&root.path().join("out"));
    // Neither a truncate record nor a schema change event, and the DDL's transaction, which
    // published nothing, has no BEGIN or END.
    assert_eq!(
        shape(&recs),
        pairs(&[
            ("oracle-cdc.transaction", "BEGIN"),
            ("oracle-cdc.HR.JOBS", "c"),
            ("oracle-cdc.HR.JOBS", "c"),
            ("oracle-cdc.transaction", "END"),
            ("oracle-cdc.transaction", "BEGIN"),
            ("oracle-cdc.HR.JOBS", "c"),
            ("oracle-cdc.transaction", "END"),
        ]),
        "{recs:#?}"
    );
}

#[test]
fn skipped_operations_takes_debeziums_values_only() {
    for bad in ["none,t", "x", "c,truncate"] {
        let root = tempfile::tempdir().unwrap();
        let setting = format!("cdc.skipped.operations={bad}");
        let out = replay_capture(root.path(), SCHEMA, &export(), &[&setting]);
        assert!(!out.status.success(), "{bad} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("CDC-1002") && err.contains("cdc.skipped.operations"),
            "{bad}: {err}"
        );
    }
    // Skipping creates and deletes leaves the truncate record alone, and the other way round.
    let root = tempfile::tempdir().unwrap();
    let out = replay_capture(
        root.path(),
        SCHEMA,
        &export(),
        &["cdc.skipped.operations=c"],
    );
    ok(&out);
    assert_eq!(
        shape(&records(&root.path().join("out"))),
        pairs(&[("oracle-cdc.HR.JOBS", "t")])
    );
}
