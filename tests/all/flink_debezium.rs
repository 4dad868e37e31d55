//! A Debezium-format consumer that is not ours: Apache Flink's `debezium-json` format (PyFlink,
//! Flink SQL over a filesystem source) reads the file sink's record values as Debezium's JSON
//! converter with schemas would put them on Kafka (a tombstone is an empty message), and the
//! table it materializes from the changelog equals `emulator dump`.
//!
//! PyFlink comes from the project's test setup: `.ci/run` installs `apache-flink` into its own
//! virtual environment, target/flinkvenv (its pyarrow pin differs from tests/all/parquet_readers.rs'),
//! and sets ORACLE_CDC_TEST_FLINK_PYTHON and ORACLE_CDC_TEST_REQUIRE_FLINK=1. Elsewhere the test
//! looks for that environment and says it is skipped when there is none (or no Java).

use crate::capture_support;

use capture_support::*;
use serde_json::Value as Json;
use std::path::PathBuf;
use std::process::Command;

const SCHEMA: &str = r#"
seed: 11
database:
  name: SHOPDB
tables:
  - name: APP.ACCOUNTS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
    primary_key: [ID]
    supplemental_logging: all
    rows: 50
"#;

fn python() -> Option<PathBuf> {
    [
        std::env::var_os("ORACLE_CDC_TEST_FLINK_PYTHON").map(PathBuf::from),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/flinkvenv/bin/python")),
    ]
    .into_iter()
    .flatten()
    .find(|p| {
        Command::new(p)
            .args(["-c", "import pyflink.table"])
            .output()
            .is_ok_and(|o| o.status.success())
            && Command::new("java")
                .arg("-version")
                .output()
                .is_ok_and(|o| o.status.success())
    })
}

/// Flink reads the values as a changelog (+I, -U, +U, -D); the table it leaves is printed, the
/// decimal (Debezium's precise mode: unscaled big-endian bytes, base64 in JSON) decoded with the
/// schema's scale.
const READ: &str = r#"
import json, sys
from decimal import Decimal
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.common.types import RowKind
t = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t.get_config().set("parallelism.default", "1")
t.execute_sql(f"""CREATE TABLE accounts (ID BIGINT, OWNER STRING, BALANCE BYTES) WITH (
  'connector' = 'filesystem', 'path' = '{sys.argv[1]}', 'format' = 'debezium-json',
  'debezium-json.schema-include' = 'true')""")
rows = {}
with t.execute_sql("SELECT ID, OWNER, BALANCE FROM accounts").collect() as results:
    for r in results:
        if r.get_row_kind() in (RowKind.INSERT, RowKind.UPDATE_AFTER):
            b = r[2]
            bal = None if b is None else str(Decimal(int.from_bytes(b, "big", signed=True)).scaleb(-2))
            rows[r[0]] = {"ID": r[0], "OWNER": r[1], "BALANCE": bal}
        else:
            rows.pop(r[0], None)
print(json.dumps(sorted(rows.values(), key=lambda r: r["ID"])))
"#;

fn same_number(have: &Json, want: &Json) -> bool {
    let f = |v: &Json| {
        v.as_str()
            .map_or_else(|| v.to_string(), str::to_string)
            .parse::<f64>()
            .ok()
    };
    same_value(have, want) || (f(have).is_some() && f(have) == f(want))
}

#[test]
fn flinks_debezium_json_format_reads_the_records_and_converges_to_the_dump() {
    let Some(py) = python() else {
        assert!(
            std::env::var_os("ORACLE_CDC_TEST_REQUIRE_FLINK").is_none(),
            "ORACLE_CDC_TEST_REQUIRE_FLINK is set but no PyFlink (or no Java) was found"
        );
        eprintln!("skipped: no PyFlink with Java (run .ci/run, or python3 -m venv target/flinkvenv && target/flinkvenv/bin/pip install apache-flink==2.3.0)");
        return;
    };
    let e = emulated(SCHEMA);
    let a: Vec<String> = [
        format!("cdc.database.url=emulator:{}", e.db.display()),
        format!("cdc.state.dir={}", e.state.display()),
        format!("cdc.sink.dir={}", e.out.display()),
        "cdc.stream.poll.ms=50".into(),
    ]
    .into_iter()
    .flat_map(|s| ["--set".to_string(), s])
    .chain(["-q".to_string()])
    .collect();
    let capture = |scn: u64| {
        let mut all = a.clone();
        all.extend(["capture".into(), "--stop-at-scn".into(), scn.to_string()]);
        run(&all.iter().map(String::as_str).collect::<Vec<_>>());
    };
    capture(current_scn(&e.db));
    run(&[
        "emulator",
        "workload",
        e.db.to_str().unwrap(),
        "--transactions",
        "60",
        "--seed",
        "5",
    ]);
    let end = current_scn(&e.db);
    capture(end);
    let recs = records(&e.out);
    let mine: Vec<&Json> = recs
        .iter()
        .filter(|r| r["topic"] == "oracle-cdc.APP.ACCOUNTS")
        .collect();
    assert!(
        mine.iter().any(|r| r["value"].is_null()),
        "the workload deletes: tombstones"
    );
    assert!(
        mine.iter().any(|r| payload(&r["value"])["op"] == "u"),
        "and updates"
    );
    // One message a line, as on the topic; a tombstone is Kafka's empty message.
    let values: String = mine
        .iter()
        .map(|r| match &r["value"] {
            Json::Null => "\n".to_string(),
            v => format!("{v}\n"),
        })
        .collect();
    let file = e.dir.path().join("accounts.json");
    std::fs::write(&file, values).unwrap();
    let out = Command::new(&py)
        .args(["-c", READ])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "PyFlink: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let flink: Vec<Json> = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let rows = dump(&e.db, "APP.ACCOUNTS", end);
    assert!(!rows.is_empty());
    assert_eq!(flink.len(), rows.len(), "Flink's table has the dump's rows");
    for (got, want) in flink.iter().zip(&rows) {
        for (col, w) in want {
            assert!(
                same_number(&got[col.as_str()], w),
                "row {}: {col}: Flink {} dump {w}",
                want["ID"],
                got[col.as_str()]
            );
        }
    }
}
