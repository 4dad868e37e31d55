//! Parquet exports as other readers see them: pyarrow reads the files' own Parquet schema (the
//! logical types in the footer, which duckdb, Spark and pandas go by) and the values, and both
//! must match the Oracle types and `emulator dump`. Also CSV exports as a CSV reader sees them:
//! ISO-8601 times and exact decimals. And FLOAT(126) and INTERVAL columns as pyarrow and DuckDB
//! read them: every digit a double or a millisecond interval would drop.
//!
//! pyarrow and duckdb come from the project's test setup: `.ci/run` installs them into a virtual
//! environment under target/ and sets ORACLE_CDC_TEST_PYTHON and
//! ORACLE_CDC_TEST_REQUIRE_PYARROW=1. Elsewhere the test looks for that environment, then for a
//! python3 that has pyarrow, and says it is skipped when there is none.

#[path = "parquet_readers/all_types.rs"]
mod all_types;

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

/// [`python`], or None after saying the test is skipped (a failure when the project's test
/// setup requires pyarrow: ORACLE_CDC_TEST_REQUIRE_PYARROW).
fn python_or_skip() -> Option<PathBuf> {
    let found = python();
    if found.is_none() {
        assert!(
            std::env::var_os("ORACLE_CDC_TEST_REQUIRE_PYARROW").is_none(),
            "ORACLE_CDC_TEST_REQUIRE_PYARROW is set but no Python with pyarrow was found"
        );
        println!(
            "skipped: no Python with pyarrow (run .ci/run, or python3 -m venv target/pyvenv && target/pyvenv/bin/pip install pyarrow)"
        );
    }
    found
}

/// The Python has no duckdb: the DuckDB part is skipped (a failure when the test setup
/// requires it).
fn duckdb_missing() {
    assert!(
        std::env::var_os("ORACLE_CDC_TEST_REQUIRE_PYARROW").is_none(),
        "ORACLE_CDC_TEST_REQUIRE_PYARROW is set but the Python has no duckdb"
    );
    println!("DuckDB part skipped: the Python has no duckdb");
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
    let Some(python) = python_or_skip() else {
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

/// FLOAT(126) values a double cannot hold, and intervals down to the nanosecond.
const EXACT_SCHEMA: &str = r#"
seed: 11
database:
  multitenant: true
tables:
  - name: PDB1.APP.EXACT
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - name: F
        type: FLOAT(126)
        generate:
          choice:
            - "0.1234567890123456789012345678901234567"
            - "12345678901234567890.123"
            - "-98765432109876543210987654321098765.43"
            - "0.000000000000000000000000000000012345678901234567"
            - "2.5"
      - { name: F63, type: FLOAT(63) }
      - { name: BD, type: BINARY_DOUBLE }
      - { name: IYM, type: INTERVAL YEAR(2) TO MONTH }
      - { name: IDS6, type: INTERVAL DAY(3) TO SECOND(6) }
      - { name: IDS9, type: INTERVAL DAY(2) TO SECOND(9) }
    primary_key: [ID]
    rows: 80
"#;

/// pyarrow's view of the export, and DuckDB's when the Python has it: the types, the values, and
/// the intervals as DuckDB casts them (months; microseconds of DAY TO SECOND(6)).
const READ_EXACT: &str = r#"
import json, sys, glob
import pyarrow as pa, pyarrow.parquet as pq
files = sorted(glob.glob(sys.argv[1] + "/PDB1.APP.EXACT*.parquet"))
t = pa.concat_tables([pq.read_table(f) for f in files])
out = {"arrow": {f.name: str(f.type) for f in t.schema}, "rows": t.to_pylist()}
try:
    import duckdb
except ImportError:
    duckdb = None
if duckdb is not None:
    con = duckdb.connect()
    src = "read_parquet('" + sys.argv[1] + "/PDB1.APP.EXACT.*.parquet')"
    rel = con.sql("select * from " + src)
    out["duckdb_types"] = dict(zip(rel.columns, [str(x) for x in rel.types]))
    ym = "cast(IYM as interval)"
    ds = "cast(IDS6 as interval)"
    q = ("select ID, F, F63, IDS9, "
         f"datepart('year', {ym}) * 12 + datepart('month', {ym}), "
         f"datepart('day', {ds})::BIGINT * 86400000000 + datepart('hour', {ds})::BIGINT * 3600000000"
         f" + datepart('minute', {ds})::BIGINT * 60000000 + datepart('microseconds', {ds}) "
         "from " + src)
    names = ["ID", "F", "F63", "IDS9", "IYM_MONTHS", "IDS6_MICROS"]
    out["duckdb"] = [dict(zip(names, r)) for r in con.sql(q).fetchall()]
print(json.dumps(out))
"#;

/// A decimal text of seconds (`-4.56`, `0.000000001`) in nanoseconds.
fn nanos_of_seconds(s: &str) -> i128 {
    let (neg, body) = s.strip_prefix('-').map_or((false, s), |r| (true, r));
    let (whole, fraction) = body.split_once('.').unwrap_or((body, ""));
    assert!(fraction.len() <= 9, "more than 9 fractional digits: {s}");
    let n = whole.parse::<i128>().unwrap() * 1_000_000_000
        + format!("{fraction:0<9}").parse::<i128>().unwrap();
    if neg {
        -n
    } else {
        n
    }
}

/// The records' ISO-8601 duration (`P-3Y-6M`, `P-1DT-2H-3M-4.56S`): months and nanoseconds.
fn iso_duration(s: &str) -> (i128, i128) {
    let body = s
        .strip_prefix('P')
        .unwrap_or_else(|| panic!("not ISO-8601: {s}"));
    let (date, time) = body.split_once('T').unwrap_or((body, ""));
    let (mut months, mut nanos) = (0i128, 0i128);
    let mut number = String::new();
    for c in date.chars() {
        match c {
            'Y' => months += 12 * number.parse::<i128>().unwrap(),
            'M' => months += number.parse::<i128>().unwrap(),
            'D' => nanos += 86_400_000_000_000 * number.parse::<i128>().unwrap(),
            _ => {
                number.push(c);
                continue;
            }
        }
        number.clear();
    }
    for c in time.chars() {
        match c {
            'H' => nanos += 3_600_000_000_000 * number.parse::<i128>().unwrap(),
            'M' => nanos += 60_000_000_000 * number.parse::<i128>().unwrap(),
            'S' => nanos += nanos_of_seconds(&number),
            _ => {
                number.push(c);
                continue;
            }
        }
        number.clear();
    }
    (months, nanos)
}

/// The Parquet text of an INTERVAL (`-3 years -6 months`, `-1 day -02:03:04.560000000`):
/// months and nanoseconds.
fn interval_text(s: &str) -> (i128, i128) {
    let words: Vec<&str> = s.split(' ').collect();
    match words.as_slice() {
        [y, years, m, months] if years.starts_with("year") && months.starts_with("month") => (
            12 * y.parse::<i128>().unwrap() + m.parse::<i128>().unwrap(),
            0,
        ),
        [d, days, time] if days.starts_with("day") => {
            let (neg, hms) = time.strip_prefix('-').map_or((false, *time), |r| (true, r));
            let mut parts = hms.split(':');
            let h: i128 = parts.next().unwrap().parse().unwrap();
            let mi: i128 = parts.next().unwrap().parse().unwrap();
            let sec = nanos_of_seconds(parts.next().unwrap());
            let t = h * 3_600_000_000_000 + mi * 60_000_000_000 + sec;
            (
                0,
                86_400_000_000_000 * d.parse::<i128>().unwrap() + if neg { -t } else { t },
            )
        }
        _ => panic!("not an interval text: {s}"),
    }
}

#[test]
fn float_and_interval_columns_read_back_exactly_in_pyarrow_and_duckdb() {
    let Some(python) = python_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, EXACT_SCHEMA).unwrap();
    let db = dir.path().join("db");
    ok(Command::new(cargo_bin("oracle-cdc"))
        .args(["-q", "emulator", "init", db.to_str().unwrap(), "--schema"])
        .arg(&schema)
        .output()
        .unwrap());
    let out = dir.path().join("out");
    export(&db, &out, &["--format", "parquet"]);
    let o = ok(Command::new(&python)
        .args(["-c", READ_EXACT])
        .arg(&out)
        .output()
        .unwrap());
    let v: Json = serde_json::from_slice(&o.stdout).unwrap();
    for col in ["F", "F63", "IYM", "IDS6", "IDS9"] {
        assert_eq!(v["arrow"][col], "string", "{col}");
    }
    // IEEE floats stay floats.
    assert_eq!(v["arrow"]["BD"], "double");
    let dumped = {
        let o = ok(Command::new(cargo_bin("oracle-cdc"))
            .args(["emulator", "dump", db.to_str().unwrap(), "--table"])
            .arg("PDB1.APP.EXACT")
            .output()
            .unwrap());
        let mut rows: Vec<Json> = String::from_utf8(o.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        rows.sort_by_key(|r| r["ID"].as_i64());
        rows
    };
    let mut rows: Vec<Json> = v["rows"].as_array().unwrap().clone();
    rows.sort_by_key(|r| r["ID"].as_i64());
    assert_eq!(rows.len(), 80);
    assert_eq!(rows.len(), dumped.len());
    let mut beyond_double = 0;
    let mut sub_microsecond = 0;
    for (got, want) in rows.iter().zip(&dumped) {
        for col in ["F", "F63"] {
            assert_eq!(got[col], want[col], "{col} of {want}");
        }
        let f = want["F"].as_str().unwrap();
        if f.parse::<f64>().unwrap().to_string() != f {
            beyond_double += 1;
        }
        assert_eq!(got["BD"], want["BD"], "BD of {want}");
        for col in ["IYM", "IDS6", "IDS9"] {
            let Some(text) = got[col].as_str() else {
                assert!(want[col].is_null(), "{col} of {want}");
                continue;
            };
            let want_iso = want[col].as_str().unwrap();
            assert_eq!(
                interval_text(text),
                iso_duration(want_iso),
                "{col}: {text} vs {want_iso}"
            );
            if col == "IDS9" && iso_duration(want_iso).1 % 1000 != 0 {
                sub_microsecond += 1;
            }
        }
    }
    // The values that a double or a millisecond interval would have changed are there.
    assert!(
        beyond_double >= 10,
        "{beyond_double} FLOAT values beyond a double"
    );
    assert!(
        sub_microsecond >= 10,
        "{sub_microsecond} DAY TO SECOND(9) values with nanoseconds"
    );

    let Some(duck) = v["duckdb"].as_array() else {
        duckdb_missing();
        return;
    };
    assert_eq!(v["duckdb_types"]["F"], "VARCHAR");
    assert_eq!(v["duckdb_types"]["BD"], "DOUBLE");
    let mut duck = duck.clone();
    duck.sort_by_key(|r| r["ID"].as_i64());
    assert_eq!(duck.len(), dumped.len());
    for (got, want) in duck.iter().zip(&dumped) {
        for col in ["F", "F63"] {
            assert_eq!(got[col], want[col], "DuckDB {col} of {want}");
        }
        assert_eq!(
            got["IDS9"].as_str().map(interval_text),
            want["IDS9"].as_str().map(iso_duration),
            "DuckDB IDS9 of {want}"
        );
        // DuckDB's cast of the interval text: the same months and microseconds.
        match want["IYM"].as_str() {
            Some(iso) => assert_eq!(
                got["IYM_MONTHS"].as_i64().map(i128::from),
                Some(iso_duration(iso).0)
            ),
            None => assert!(got["IYM_MONTHS"].is_null()),
        }
        match want["IDS6"].as_str() {
            Some(iso) => assert_eq!(
                got["IDS6_MICROS"].as_i64().map(|us| i128::from(us) * 1000),
                Some(iso_duration(iso).1),
                "DuckDB IDS6 of {want}"
            ),
            None => assert!(got["IDS6_MICROS"].is_null()),
        }
    }
}

/// DuckDB and pyarrow reading a CSV export with the column types commands/snapshot.md gives
/// ("CSV"): the decimals and TIMESTAMP(9) nanoseconds of the dump, exactly.
const READ_CSV: &str = r#"
import json, sys
import pyarrow as pa, pyarrow.csv as pcsv
path = sys.argv[1] + "/PDB1.APP.TIMES.csv"
opts = pcsv.ConvertOptions(column_types={"TS9": pa.timestamp("ns"), "AMOUNT": pa.decimal128(12, 2),
                                         "BIG": pa.decimal128(30, 0), "ANYNUM": pa.string()})
t = pcsv.read_csv(path, convert_options=opts)
ts9 = t.column("TS9").cast(pa.int64()).to_pylist()
out = {"pyarrow": [{"ID": i, "TS9": n, "AMOUNT": None if a is None else str(a), "BIG": None if b is None else str(b), "ANYNUM": x}
                   for i, n, a, b, x in zip(t.column("ID").to_pylist(), ts9, t.column("AMOUNT").to_pylist(),
                                            t.column("BIG").to_pylist(), t.column("ANYNUM").to_pylist())]}
try:
    import duckdb
except ImportError:
    duckdb = None
if duckdb is not None:
    q = ("select ID, epoch_ns(TS9), AMOUNT::VARCHAR, BIG::VARCHAR, ANYNUM from read_csv('" + path + "', "
         "types = {'TS9': 'TIMESTAMP_NS', 'AMOUNT': 'DECIMAL(12,2)', 'BIG': 'DECIMAL(30,0)', 'ANYNUM': 'VARCHAR'})")
    out["duckdb"] = [dict(zip(["ID", "TS9", "AMOUNT", "BIG", "ANYNUM"], r)) for r in duckdb.sql(q).fetchall()]
print(json.dumps(out))
"#;

#[test]
fn csv_reader_settings_of_snapshot_md_keep_decimals_and_nanoseconds_exact() {
    let Some(python) = python_or_skip() else {
        return;
    };
    let (dir, db) = setup();
    let out = dir.path().join("csv");
    export(&db, &out, &["--format", "csv"]);
    let o = ok(Command::new(&python)
        .args(["-c", READ_CSV])
        .arg(&out)
        .output()
        .unwrap());
    let v: Json = serde_json::from_slice(&o.stdout).unwrap();
    let mut want = dump(&db);
    want.sort_by_key(|r| r["ID"].as_i64());
    let mut readers = vec![("pyarrow", v["pyarrow"].clone())];
    match v.get("duckdb") {
        Some(d) => readers.push(("DuckDB", d.clone())),
        None => duckdb_missing(),
    }
    for (reader, rows) in readers {
        let mut rows = rows.as_array().unwrap().clone();
        rows.sort_by_key(|r| r["ID"].as_i64());
        assert_eq!(rows.len(), want.len(), "{reader}");
        for (got, w) in rows.iter().zip(&want) {
            assert_eq!(got["TS9"], w["TS9"], "{reader} TS9 of {w}");
            for col in ["AMOUNT", "BIG"] {
                assert_eq!(
                    got[col].as_str().map(decimal),
                    w[col].as_str().map(decimal),
                    "{reader} {col} of {w}"
                );
            }
            assert_eq!(got["ANYNUM"], w["ANYNUM"], "{reader} ANYNUM of {w}");
        }
    }
}
