//! Parquet exports as other readers see them: pyarrow reads the files' own Parquet schema (the
//! logical types in the footer, which duckdb, Spark and pandas go by) and the values, and both
//! must match the Oracle types and `emulator dump`. Also CSV exports as a CSV reader sees them:
//! ISO-8601 times and exact decimals.
//!
//! pyarrow comes from the project's test setup: `.ci/run` installs it into a virtual
//! environment under target/ and sets ORACLE_CDC_TEST_PYTHON and
//! ORACLE_CDC_TEST_REQUIRE_PYARROW=1. Elsewhere the test looks for that environment, then for a
//! python3 that has pyarrow, and says it is skipped when there is none.

use assert_cmd::cargo::cargo_bin;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SCHEMA: &str = r#"
seed: 9
database:
  multitenant: true
tables:
  - name: PDB1.APP.TIMES
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: D, type: DATE }
      - { name: TS0, type: TIMESTAMP(0) }
      - { name: TS3, type: TIMESTAMP(3) }
      - { name: TS6, type: TIMESTAMP(6) }
      - { name: TS9, type: TIMESTAMP(9) }
      - { name: TSTZ, type: TIMESTAMP(6) WITH TIME ZONE }
      - { name: AMOUNT, type: "NUMBER(12,2)" }
      - { name: BIG, type: NUMBER(30) }
      - { name: ANYNUM, type: NUMBER }
    primary_key: [ID]
    rows: 60
"#;

fn ok(out: Output) -> Output {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn setup() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, SCHEMA).unwrap();
    let db = dir.path().join("db");
    ok(Command::new(cargo_bin("oracle-cdc"))
        .args(["-q", "emulator", "init", db.to_str().unwrap(), "--schema"])
        .arg(&schema)
        .output()
        .unwrap());
    (dir, db)
}

fn export(db: &Path, out: &Path, args: &[&str]) {
    ok(Command::new(cargo_bin("oracle-cdc"))
        .arg("--set")
        .arg(format!("cdc.database.url=emulator:{}", db.display()))
        .args([
            "--set",
            "cdc.snapshot.chunk.rows=25",
            "-q",
            "snapshot",
            "--out",
        ])
        .arg(out)
        .args(args)
        .output()
        .unwrap());
}

fn dump(db: &Path) -> Vec<Json> {
    let out = ok(Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "dump",
            db.to_str().unwrap(),
            "--table",
            "PDB1.APP.TIMES",
        ])
        .output()
        .unwrap());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A Python with pyarrow: the project's venv, else python3 if it has pyarrow.
fn python() -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = [
        std::env::var_os("ORACLE_CDC_TEST_PYTHON").map(PathBuf::from),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/pyvenv/bin/python")),
        Some(PathBuf::from("python3")),
    ]
    .into_iter()
    .flatten()
    .collect();
    candidates.into_iter().find(|p| {
        Command::new(p)
            .args(["-c", "import pyarrow.parquet"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

const READ: &str = r#"
import json, sys, glob
import pyarrow as pa, pyarrow.parquet as pq, pyarrow.compute as pc
files = sorted(glob.glob(sys.argv[1] + "/PDB1.APP.TIMES*.parquet"))
pf = pq.ParquetFile(files[0])
logical = {pf.schema.column(i).name: str(pf.schema.column(i).logical_type) for i in range(len(pf.schema))}
physical = {pf.schema.column(i).name: pf.schema.column(i).physical_type for i in range(len(pf.schema))}
t = pa.concat_tables([pq.read_table(f) for f in files])
arrow = {f.name: str(f.type) for f in t.schema}
rows = []
for i in range(t.num_rows):
    r = {}
    for name in t.column_names:
        v = t.column(name)[i]
        if pa.types.is_timestamp(v.type):
            r[name] = None if not v.is_valid else pc.cast(pa.array([v.value]), pa.int64())[0].as_py()
        elif pa.types.is_decimal(v.type):
            r[name] = None if not v.is_valid else str(v.as_py())
        else:
            r[name] = v.as_py()
    rows.append(r)
print(json.dumps({"logical": logical, "physical": physical, "arrow": arrow, "rows": rows}))
"#;

#[test]
fn pyarrow_reads_timestamp_and_decimal_logical_types() {
    let Some(python) = python() else {
        assert!(
            std::env::var_os("ORACLE_CDC_TEST_REQUIRE_PYARROW").is_none(),
            "ORACLE_CDC_TEST_REQUIRE_PYARROW is set but no Python with pyarrow was found"
        );
        println!(
            "skipped: no Python with pyarrow (run .ci/run, or python3 -m venv target/pyvenv && target/pyvenv/bin/pip install pyarrow)"
        );
        return;
    };
    let (dir, db) = setup();
    let out = dir.path().join("out");
    export(&db, &out, &["--format", "parquet"]);
    let o = ok(Command::new(&python)
        .args(["-c", READ])
        .arg(&out)
        .output()
        .unwrap());
    let v: Json = serde_json::from_slice(&o.stdout).unwrap();
    // The footer's logical types: what every Parquet reader goes by.
    let logical = |c: &str| v["logical"][c].as_str().unwrap().to_string();
    for (col, unit) in [
        ("D", "milliseconds"),
        ("TS0", "milliseconds"),
        ("TS3", "milliseconds"),
        ("TS6", "microseconds"),
        ("TS9", "nanoseconds"),
    ] {
        let l = logical(col);
        assert!(
            l.starts_with("Timestamp(isAdjustedToUTC=false") && l.contains(unit),
            "{col}: {l}"
        );
    }
    let tz = logical("TSTZ");
    assert!(
        tz.starts_with("Timestamp(isAdjustedToUTC=true"),
        "TSTZ: {tz}"
    );
    assert_eq!(logical("AMOUNT"), "Decimal(precision=12, scale=2)");
    assert_eq!(logical("BIG"), "Decimal(precision=30, scale=0)");
    assert_eq!(logical("ANYNUM"), "String");
    // And as pyarrow types.
    assert_eq!(v["arrow"]["D"], "timestamp[ms]");
    assert_eq!(v["arrow"]["TS6"], "timestamp[us]");
    assert_eq!(v["arrow"]["TSTZ"], "timestamp[us, tz=UTC]");
    assert_eq!(v["arrow"]["AMOUNT"], "decimal128(12, 2)");
    // The values: the same instants and digits as the records' encoding (emulator dump).
    let mut rows: Vec<Json> = v["rows"].as_array().unwrap().clone();
    rows.sort_by_key(|r| r["ID"].as_i64());
    let mut expected = dump(&db);
    expected.sort_by_key(|r| r["ID"].as_i64());
    assert_eq!(rows.len(), expected.len());
    assert_eq!(rows.len(), 60);
    for (got, want) in rows.iter().zip(&expected) {
        for col in ["ID", "D", "TS0", "TS3", "TS6", "TS9"] {
            assert_eq!(got[col], want[col], "{col} of {want}");
        }
        for col in ["AMOUNT", "BIG"] {
            let w = match &want[col] {
                Json::String(s) => Some(decimal(s)),
                Json::Number(n) => Some(n.to_string()),
                _ => None,
            };
            assert_eq!(got[col].as_str().map(decimal), w, "{col} of {want}");
        }
    }
}

/// A decimal's text without trailing fractional zeros (pyarrow prints a Decimal(12,2) value
/// with both digits, the records as Oracle does, without them).
fn decimal(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// `2024-02-14T10:58:02.202590` (or without a fraction) → epoch in units of 10^-`digits` s.
fn iso_epoch(s: &str, digits: u32) -> i64 {
    let t = chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f")
        .unwrap_or_else(|e| panic!("`{s}` is not ISO-8601: {e}"))
        .and_utc();
    match digits {
        3 => t.timestamp_millis(),
        6 => t.timestamp_micros(),
        _ => t.timestamp_nanos_opt().unwrap(),
    }
}

#[test]
fn csv_exports_write_iso_times_and_exact_decimals_unless_epoch_is_asked() {
    let (dir, db) = setup();
    let expected = dump(&db);
    let read = |out: &Path| -> Vec<csv::StringRecord> {
        let file = out.join("PDB1.APP.TIMES.csv");
        let mut r = csv::Reader::from_path(&file).unwrap();
        let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
        assert_eq!(header[..3], ["ID", "D", "TS0"]);
        let mut rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        rows.sort_by_key(|r| r[0].parse::<i64>().unwrap());
        rows
    };
    let mut want = expected.clone();
    want.sort_by_key(|r| r["ID"].as_i64());
    let iso = dir.path().join("iso");
    export(&db, &iso, &["--format", "csv"]);
    let rows = read(&iso);
    assert_eq!(rows.len(), want.len());
    for (got, w) in rows.iter().zip(&want) {
        // D (DATE): no fraction; TS0: none either; TS3/6/9: the column's digits.
        for (i, col, digits, fraction) in [
            (1, "D", 3, 0),
            (2, "TS0", 3, 0),
            (3, "TS3", 3, 3),
            (4, "TS6", 6, 6),
            (5, "TS9", 9, 9),
        ] {
            let cell = &got[i];
            if w[col].is_null() {
                assert_eq!(cell, "", "{col}");
                continue;
            }
            assert_eq!(&cell[10..11], "T", "{col}: {cell}");
            let frac = cell.split('.').nth(1).map_or(0, str::len);
            assert_eq!(frac, fraction, "{col}: {cell}");
            assert_eq!(
                iso_epoch(cell, digits),
                w[col].as_i64().unwrap(),
                "{col}: {cell} vs {w}"
            );
        }
        // TIMESTAMP WITH TIME ZONE keeps its offset; decimals are the exact text.
        assert_eq!(&got[6], w["TSTZ"].as_str().unwrap_or(""), "TSTZ");
        assert_eq!(&got[7], w["AMOUNT"].as_str().unwrap_or(""), "AMOUNT");
        assert_eq!(&got[8], w["BIG"].as_str().unwrap_or(""), "BIG");
        assert_eq!(&got[9], w["ANYNUM"].as_str().unwrap_or(""), "ANYNUM");
    }
    // --csv-times epoch: the integers records carry.
    let epoch = dir.path().join("epoch");
    export(&db, &epoch, &["--format", "csv", "--csv-times", "epoch"]);
    let rows = read(&epoch);
    for (got, w) in rows.iter().zip(&want) {
        for (i, col) in [(1, "D"), (4, "TS6"), (5, "TS9")] {
            match w[col].as_i64() {
                Some(n) => assert_eq!(got[i].parse::<i64>().unwrap(), n, "{col}"),
                None => assert_eq!(&got[i], ""),
            }
        }
    }
    // A resumed export keeps its encoding: asking for the other one is refused (CDC-8005).
    let o = Command::new(cargo_bin("oracle-cdc"))
        .arg("--set")
        .arg(format!("cdc.database.url=emulator:{}", db.display()))
        .args(["snapshot", "--format", "csv", "--out"])
        .arg(&epoch)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("CDC-8005"));
}
