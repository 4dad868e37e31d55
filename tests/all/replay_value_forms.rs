//! `oracle-cdc capture` on replay exports of value forms a real LogMiner writes and the emulator
//! does not (issue 35, item 9): datetimes in Oracle's default NLS formats, which a LogMiner
//! session that never ran capture's ALTER SESSION writes (`TO_TIMESTAMP('15-MAY-21
//! 01.02.03.123456 PM')`, `TO_DATE('15-MAY-21', 'DD-MON-RR')`: the century, and a DATE's time
//! of day, are gone), and native JSON documents holding scalars of Oracle's own types (DATE,
//! TIMESTAMP, TIMESTAMP WITH TIME ZONE, RAW, INTERVAL), whose OSON node types python-oracledb's
//! `oson.pyx` reads.

use crate::capture_support;
use capture_support::{afters, replay_capture};
use std::path::Path;
use std::process::Output;

const SCHEMA: &str = r#"
database:
  name: PROD
  dbid: 4242
  goldengate_replication: true
tables:
  - name: APP.EVENTS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: AT, type: TIMESTAMP(6) }
      - { name: ON_DAY, type: DATE }
      - { name: DOC, type: JSON }
    primary_key: [ID]
    supplemental_logging: all
"#;

const HEADER: &str = r#""SCN","START_SCN","COMMIT_SCN","TIMESTAMP","COMMIT_TIMESTAMP","XID","OPERATION_CODE","OPERATION","SEG_OWNER","TABLE_NAME","ROW_ID","CSF","ROLLBACK","RS_ID","SSN","THREAD#","SEQUENCE#","USERNAME","STATUS","INFO","SQL_REDO""#;

/// One transaction `xid` at SCNs `scn`.. holding the statements `sql` (each with its own
/// ROW_ID), then its commit.
fn tx(xid: &str, scn: u64, sql: &[(u32, &str)]) -> String {
    let mut out = format!(
        "{scn},,,\"2024-05-01 10:00:00\",,\"{xid}\",6,\"START\",,,\"AAAAAAAAAAAAAAAAAA\",0,0,\" 0x000011.00000001.0010 \",0,1,17,\"SCOTT\",0,,\"set transaction read write;\"\n"
    );
    let mut s = scn;
    for (i, (code, sql)) in sql.iter().enumerate() {
        s += 1;
        let op = match code {
            1 => "INSERT",
            2 => "DELETE",
            _ => "UPDATE",
        };
        out += &format!(
            "{s},,,\"2024-05-01 10:00:00\",,\"{xid}\",{code},\"{op}\",\"APP\",\"EVENTS\",\"AAAR0oAAEAAAACAAA{}\",0,0,\" 0x000011.00000002.0010 \",1,1,17,\"SCOTT\",0,,\"{}\"\n",
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

fn run(root: &Path, txs: &[String], extra: &[&str]) -> Output {
    replay_capture(root, SCHEMA, &format!("{HEADER}\n{}", txs.concat()), extra)
}

/// A default-NLS TIMESTAMP or DATE stops capture with CDC-3002 naming the NLS parameter to
/// set and its value, never "no valid fraction of a second"; with cdc.on.decode.error=dlq the
/// change is a dead letter with that reason and the next one is published. (Before, the
/// TIMESTAMP was "… has no valid fraction of a second", the DATE "… is not a date as
/// YYYY-MM-DD HH24:MI:SS".)
#[test]
fn default_nls_datetimes_name_the_setting_that_avoids_them() {
    let cases = [
        (
            r#"insert into "APP"."EVENTS"("ID","AT","ON_DAY","DOC") values ('1',TO_TIMESTAMP('15-MAY-21 01.02.03.123456 PM'),NULL,NULL);"#,
            "NLS_TIMESTAMP_FORMAT='YYYY-MM-DD HH24:MI:SS.FF9'",
        ),
        (
            r#"insert into "APP"."EVENTS"("ID","AT","ON_DAY","DOC") values ('1',NULL,TO_DATE('15-MAY-21', 'DD-MON-RR'),NULL);"#,
            "NLS_DATE_FORMAT='YYYY-MM-DD HH24:MI:SS'",
        ),
    ];
    for (sql, setting) in cases {
        let root = tempfile::tempdir().unwrap();
        let good = r#"insert into "APP"."EVENTS"("ID","AT","ON_DAY","DOC") values ('2',TO_TIMESTAMP('2021-05-15 13:02:03.123456000'),TO_DATE('2021-05-15 00:00:00', 'YYYY-MM-DD HH24:MI:SS'),NULL);"#;
        let txs = [
            tx("0200030004000000", 100, &[(1, sql)]),
            tx("0300010002000000", 110, &[(1, good)]),
        ];
        let out = run(root.path(), &txs, &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{err}");
        assert!(
            err.contains("CDC-3002")
                && err.contains("Oracle's default")
                && err.contains(setting)
                && !err.contains("fraction"),
            "{err}"
        );
        let root = tempfile::tempdir().unwrap();
        let out = run(root.path(), &txs, &["cdc.on.decode.error=dlq"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dlq = std::fs::read_to_string(root.path().join("state/dlq.jsonl")).unwrap();
        assert_eq!(dlq.lines().count(), 1, "{dlq}");
        assert!(dlq.contains(setting.split('=').next().unwrap()), "{dlq}");
        let got = afters(&root.path().join("out"));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0]["ID"], 2);
    }
}

/// `{"k": <scalar>}` as OSON, with the scalar's node (`node`, then `body`) written in place
/// of a string of as many bytes (1 + `body.len()` of them).
fn oson_with(node: u8, body: &[u8]) -> Vec<u8> {
    let doc = serde_json::json!({ "k": "x".repeat(body.len()) });
    let mut b = oracle_cdc::oson::encode(&doc).unwrap();
    let at = b.len() - body.len() - 1;
    assert_eq!(usize::from(b[at]), body.len());
    b[at] = node;
    b[at + 1..].copy_from_slice(body);
    b
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A JSON document holding DATE, TIMESTAMP, TIMESTAMP WITH TIME ZONE, INTERVAL and RAW
/// scalars (node types 0x3c, 0x39, 0x7c, 0x3d/0x3e, 0x7e) is published with each as the string
/// Oracle's serializer writes: ISO 8601 times, ISO 8601 durations, base 16. (Before, capture
/// stopped with CDC-3002 "OSON node type 0x3c is not supported".)
#[test]
fn oson_scalars_of_oracle_types_are_published_as_iso_strings() {
    let docs = [
        (0x3c, vec![120, 121, 5, 15, 14, 3, 4], "2021-05-15T13:02:03"),
        (
            0x39,
            vec![120, 121, 5, 15, 14, 3, 4, 0x07, 0x5b, 0xca, 0x00],
            "2021-05-15T13:02:03.123456",
        ),
        (
            0x7c,
            vec![120, 121, 5, 15, 12, 3, 4, 0, 0, 0, 0, 22, 60],
            "2021-05-15T13:02:03+02:00",
        ),
        (0x3d, vec![0x80, 0, 0, 1, 62], "P1Y2M"),
        (0x3e, vec![0x80, 0, 0, 0, 61, 60, 60, 0x80, 0, 0, 0], "PT1H"),
        (0x7e, vec![2, 0xca, 0xfe], "CAFE"),
    ];
    let mut statements = Vec::new();
    for (i, (node, body, _)) in docs.iter().enumerate() {
        // (An identifier, 0x7e, carries its length byte in its body.)
        let image = oson_with(*node, body);
        statements.push(format!(
            r#"update "APP"."EVENTS" set "DOC" = /* JSON */ HEXTORAW('{}') where "ID" = '{}' and "AT" IS NULL and "ON_DAY" IS NULL;"#,
            hex(&image),
            i + 1
        ));
    }
    let txs: Vec<String> = statements
        .iter()
        .enumerate()
        .map(|(i, s)| {
            tx(
                &format!("02000300{:02x}000000", i + 4),
                100 + 10 * i as u64,
                &[(3, s)],
            )
        })
        .collect();
    let root = tempfile::tempdir().unwrap();
    let out = run(root.path(), &txs, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = afters(&root.path().join("out"));
    assert_eq!(got.len(), docs.len());
    for (after, (_, _, want)) in got.iter().zip(docs) {
        let doc: serde_json::Value = serde_json::from_str(after["DOC"].as_str().unwrap()).unwrap();
        assert_eq!(doc, serde_json::json!({ "k": want }), "{after}");
    }
}
