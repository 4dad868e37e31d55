//! Issue 37's done-when for the exports: pyarrow and DuckDB read every column of the example
//! schema's all-types table exactly (helpers from the parent: the Python, the export, the
//! interval parsers).

use super::*;

/// Every column of the example schema's PDB2.SALES.ALL_TYPES as pyarrow and DuckDB read it,
/// each in one canonical form (timestamps as the epoch nanoseconds of their unit, binaries as
/// base64, the rest as the reader gives them).
const READ_ALL_TYPES: &str = r#"
import json, sys, glob, base64
import pyarrow as pa, pyarrow.parquet as pq
pattern = sys.argv[1] + "/PDB2.SALES.ALL_TYPES.*.parquet"
t = pa.concat_tables([pq.read_table(f) for f in sorted(glob.glob(pattern))])
scale = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
cols = {}
for f in t.schema:
    c = t.column(f.name)
    if pa.types.is_timestamp(f.type):
        cols[f.name] = [None if v is None else v * scale[f.type.unit] for v in c.cast(pa.int64()).to_pylist()]
    elif pa.types.is_binary(f.type) or pa.types.is_large_binary(f.type):
        cols[f.name] = [None if v is None else base64.b64encode(v).decode() for v in c.to_pylist()]
    else:
        cols[f.name] = c.to_pylist()
out = {"arrow": {f.name: str(f.type) for f in t.schema},
       "pyarrow": [dict(zip(cols, r)) for r in zip(*cols.values())]}
try:
    import duckdb
except ImportError:
    duckdb = None
if duckdb is not None:
    con = duckdb.connect()
    src = "read_parquet('" + pattern + "')"
    rel = con.sql("select * from " + src)
    types = dict(zip(rel.columns, [str(x) for x in rel.types]))
    def expr(c):
        ty = types[c]
        if ty == "BLOB":
            return "to_base64(" + c + ")"
        if ty.startswith("TIMESTAMP"):
            return "epoch_ns(" + c + ")"
        return c
    q = "select " + ", ".join(expr(c) for c in rel.columns) + " from " + src
    out["duckdb_types"] = types
    out["duckdb"] = [dict(zip(rel.columns, r)) for r in con.sql(q).fetchall()]
    # DuckDB's own cast of the interval texts: months and microseconds.
    ym, ds = "cast(C_IYM as interval)", "cast(C_IDS as interval)"
    q = ("select K, datepart('year', " + ym + ") * 12 + datepart('month', " + ym + "), "
         "datepart('day', " + ds + ")::BIGINT * 86400000000 + datepart('hour', " + ds + ")::BIGINT * 3600000000"
         " + datepart('minute', " + ds + ")::BIGINT * 60000000 + datepart('microseconds', " + ds + ") from " + src)
    out["duckdb_intervals"] = {k: [m, us] for k, m, us in con.sql(q).fetchall()}
print(json.dumps(out))
"#;

/// The epoch nanoseconds and the offset in minutes of a dumped `…+05:30` / `…Z` timestamp.
fn instant(s: &str) -> (i64, i64) {
    let t = chrono::DateTime::parse_from_rfc3339(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    (
        t.timestamp_nanos_opt().unwrap(),
        i64::from(t.offset().local_minus_utc() / 60),
    )
}

/// One reader's value of `col` compared with the dump's: exactly, in the column's own terms.
fn assert_reads_exactly(reader: &str, col: &str, got: &Json, row: &Json, want: &Json) {
    let at = || format!("{reader} {col} of {}", want["K"]);
    if want[col].is_null() {
        assert!(got[col].is_null(), "{}: {}", at(), got[col]);
        return;
    }
    match col {
        "C_TS_TZ" => {
            let (nanos, offset) = instant(want[col].as_str().unwrap());
            assert_eq!(got[col].as_i64(), Some(nanos), "{}", at());
            assert_eq!(row["C_TS_TZ_TZ_OFFSET"].as_i64(), Some(offset), "{}", at());
        }
        "C_TS_LTZ" => {
            let (nanos, _) = instant(want[col].as_str().unwrap());
            assert_eq!(got[col].as_i64(), Some(nanos), "{}", at());
        }
        "C_IYM" | "C_IDS" => assert_eq!(
            interval_text(got[col].as_str().unwrap()),
            iso_duration(want[col].as_str().unwrap()),
            "{}",
            at()
        ),
        "C_JSON" => assert_eq!(
            serde_json::from_str::<Json>(got[col].as_str().unwrap()).unwrap(),
            want[col],
            "{}",
            at()
        ),
        // BINARY_FLOAT and BINARY_DOUBLE: the same IEEE value (the dump writes a float's
        // exact value as a double).
        "C_BINARY_FLOAT" | "C_BINARY_DOUBLE" => {
            assert_eq!(got[col].as_f64(), want[col].as_f64(), "{}", at())
        }
        _ => assert_eq!(got[col], want[col], "{}", at()),
    }
}

/// Issue 37's done-when: DuckDB and pyarrow read every column of the all-types example
/// (`examples/emulator-schema.yaml`, its rows and a workload's changes) exactly as `emulator
/// dump` shows the table: the exact decimal texts of NUMBER and FLOAT, the float and double
/// values, timestamps to the nanosecond with a TIMESTAMP WITH TIME ZONE's offset, interval
/// texts (DuckDB casting them to the same months and microseconds), RAW and BLOB bytes, the
/// text types, ROWIDs, XML and JSON documents. The LONG column is read too: the export reads
/// it, capture does not stream it.
#[test]
fn pyarrow_and_duckdb_read_every_column_of_the_all_types_example_exactly() {
    let Some(python) = python_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/emulator-schema.yaml");
    let oracle_cdc = |args: &[&str]| {
        ok(Command::new(cargo_bin("oracle-cdc"))
            .args(args)
            .output()
            .unwrap())
    };
    let db_arg = db.to_str().unwrap();
    let table = "PDB2.SALES.ALL_TYPES";
    let example = example.to_str().unwrap();
    oracle_cdc(&["-q", "emulator", "init", db_arg, "--schema", example]);
    // The example's rows, and a workload's inserts, updates and deletes on top.
    oracle_cdc(&[
        "-q",
        "emulator",
        "workload",
        db_arg,
        "--tables",
        table,
        "--transactions",
        "60",
        "--rate",
        "0",
        "--seed",
        "5",
    ]);
    let out = dir.path().join("out");
    export(&db, &out, &["--format", "parquet", "--tables", table]);
    let mut dumped: Vec<Json> =
        String::from_utf8(oracle_cdc(&["emulator", "dump", db_arg, "--table", table]).stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
    dumped.sort_by(|a, b| a["K"].as_str().cmp(&b["K"].as_str()));
    let o = ok(Command::new(&python)
        .args(["-c", READ_ALL_TYPES])
        .arg(&out)
        .output()
        .unwrap());
    let v: Json = serde_json::from_slice(&o.stdout).unwrap();
    let columns: Vec<String> = dumped[0].as_object().unwrap().keys().cloned().collect();
    assert_eq!(columns.len(), 21, "{columns:?}");
    let mut readers = vec![("pyarrow", v["pyarrow"].as_array().unwrap().clone())];
    match v["duckdb"].as_array() {
        Some(rows) => readers.push(("DuckDB", rows.clone())),
        None => duckdb_missing(),
    }
    for (reader, mut rows) in readers {
        rows.sort_by(|a, b| a["K"].as_str().cmp(&b["K"].as_str()));
        assert_eq!(rows.len(), dumped.len(), "{reader}");
        for (got, want) in rows.iter().zip(&dumped) {
            for col in &columns {
                assert_reads_exactly(reader, col, got, got, want);
            }
        }
    }
    // DuckDB's cast of the interval texts gives the dump's months and microseconds.
    if let Some(intervals) = v["duckdb_intervals"].as_object() {
        for want in &dumped {
            let got = &intervals[want["K"].as_str().unwrap()];
            let (months, _) = iso_duration(want["C_IYM"].as_str().unwrap());
            let (_, nanos) = iso_duration(want["C_IDS"].as_str().unwrap());
            assert_eq!(got[0].as_i64().map(i128::from), Some(months), "{want}");
            assert_eq!(
                got[1].as_i64().map(|us| i128::from(us) * 1000),
                Some(nanos),
                "{want}"
            );
        }
    }
}
