//! `oracle-cdc snapshot --format parquet` on the emulator: every value read back with the parquet
//! crate equals `emulator dump`, files roll over every `cdc.snapshot.parquet.file.rows` rows, and
//! a kill -9 (or offsets older than the files) never duplicates nor loses a row.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Decimal128Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType,
};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, TimeUnit};
use assert_cmd::cargo::cargo_bin;
use base64::Engine;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::{json, Map, Value as Json};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const SCHEMA: &str = r#"
seed: 5
database:
  multitenant: true
tables:
  - name: PDB1.APP.ALLTYPES
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: SMALL, type: NUMBER(5) }
      - { name: BIG, type: NUMBER(30) }
      - { name: AMOUNT, type: "NUMBER(10,2)" }
      - { name: ANYNUM, type: NUMBER }
      - { name: FL, type: FLOAT(63) }
      - { name: BF, type: BINARY_FLOAT }
      - { name: BD, type: BINARY_DOUBLE }
      - { name: NAME, type: VARCHAR2(30) }
      - { name: NNAME, type: NVARCHAR2(30) }
      - { name: CH, type: CHAR(5) }
      - { name: D, type: DATE }
      - { name: TS3, type: TIMESTAMP(3) }
      - { name: TS6, type: TIMESTAMP(6) }
      - { name: TS9, type: TIMESTAMP(9) }
      - { name: TSTZ, type: TIMESTAMP(6) WITH TIME ZONE }
      - { name: TSLTZ, type: TIMESTAMP(6) WITH LOCAL TIME ZONE }
      - { name: IYM, type: INTERVAL YEAR(2) TO MONTH }
      - { name: IDS, type: INTERVAL DAY(2) TO SECOND(6) }
      - { name: R, type: RAW(8) }
      - { name: B, type: BLOB }
      - { name: C, type: CLOB }
      - { name: NC, type: NCLOB }
      - { name: OK, type: BOOLEAN }
      - { name: DOC, type: JSON }
      - { name: V, type: VECTOR(3) }
      - { name: F, type: BFILE }
      - { name: RID, type: ROWID }
      - { name: X, type: XMLTYPE }
    primary_key: [ID]
    rows: 300
  - name: PDB1.APP.EVENTS
    columns:
      - { name: KIND, type: VARCHAR2(10), generate: { choice: [view, "it's", click] } }
      - { name: AT, type: DATE }
    rows: 200
  - name: PDB1.APP.EMPTY
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
    primary_key: [ID]
    rows: 0
"#;

const TABLES: [&str; 3] = ["PDB1.APP.ALLTYPES", "PDB1.APP.EVENTS", "PDB1.APP.EMPTY"];

fn ok(out: Output) -> Output {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, SCHEMA).unwrap();
    let db = dir.path().join("db");
    ok(Command::new(cargo_bin("oracle-cdc"))
        .args(["emulator", "init", db.to_str().unwrap(), "--schema"])
        .arg(&schema)
        .output()
        .unwrap());
    (dir, db)
}

fn cli(db: &Path, out: &Path, settings: &[&str]) -> Command {
    let mut c = Command::new(cargo_bin("oracle-cdc"));
    c.arg("--set")
        .arg(format!("cdc.database.url=emulator:{}", db.display()));
    for s in settings {
        c.args(["--set", s]);
    }
    c.args(["-q", "snapshot", "--format", "parquet", "--out"])
        .arg(out);
    c
}

fn dump(db: &Path, table: &str) -> Vec<Json> {
    let out = ok(Command::new(cargo_bin("oracle-cdc"))
        .arg("--set")
        .arg(format!("cdc.database.url=emulator:{}", db.display()))
        .args(["emulator", "dump", "--table", table])
        .output()
        .unwrap());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Exact decimal text of an unscaled value (`-150` at scale 2 → `-1.5`), as records write it.
fn decimal_text(units: i128, scale: i8) -> String {
    let digits = units.unsigned_abs().to_string();
    let scale = scale.max(0) as usize;
    let digits = format!("{digits:0>width$}", width = scale + 1);
    let (int, frac) = digits.split_at(digits.len() - scale);
    let frac = frac.trim_end_matches('0');
    let sign = if units < 0 { "-" } else { "" };
    if frac.is_empty() {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
}

/// The Parquet text of an INTERVAL (`-3 years -6 months`, `-1 day -02:03:04.560000`) as the
/// ISO-8601 duration records write (`P-3Y-6M`, `P-1DT-2H-3M-4.56S`).
fn interval_iso(text: &str) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    match words.as_slice() {
        [y, _, m, _] => format!(
            "P{}Y{}M",
            y.parse::<i64>().unwrap(),
            m.parse::<i64>().unwrap()
        ),
        [d, _, time] => {
            // The text signs the days and the time; records sign every part, zeros too.
            let (neg, hms) = time.strip_prefix('-').map_or((false, *time), |r| (true, r));
            let m = if neg { "-" } else { "" };
            let d = d.trim_start_matches('-').parse::<i64>().unwrap();
            let mut parts = hms.split(':');
            let h: i64 = parts.next().unwrap().parse().unwrap();
            let mi: i64 = parts.next().unwrap().parse().unwrap();
            let sec = parts.next().unwrap();
            let sec = if sec.contains('.') {
                sec.trim_end_matches('0').trim_end_matches('.')
            } else {
                sec
            };
            let sec = sec.trim_start_matches('0');
            let sec = if sec.is_empty() || sec.starts_with('.') {
                format!("0{sec}")
            } else {
                sec.to_string()
            };
            format!("P{m}{d}DT{m}{h}H{m}{mi}M{m}{sec}S")
        }
        _ => panic!("not an interval text: {text}"),
    }
}

fn rfc3339(at: chrono::DateTime<chrono::FixedOffset>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
}

/// Row `i` of a batch as the record value `emulator dump` prints for it (Debezium's mapping).
fn row_json(batch: &RecordBatch, i: usize) -> Json {
    let schema = batch.schema();
    let mut obj = Map::new();
    for (c, field) in schema.fields().iter().enumerate() {
        if field.metadata().contains_key("oracle.offset.of") {
            continue; // read with its timestamp column
        }
        let oracle = field.metadata()["oracle.type"].as_str();
        let a = batch.column(c);
        let v =
            if a.is_null(i) {
                Json::Null
            } else {
                match field.data_type() {
                    DataType::Int32 => json!(a.as_primitive::<Int32Type>().value(i)),
                    DataType::Int64 => json!(a.as_primitive::<Int64Type>().value(i)),
                    DataType::Decimal128(_, s) => {
                        json!(decimal_text(
                            a.as_primitive::<Decimal128Type>().value(i),
                            *s
                        ))
                    }
                    DataType::Float32 => {
                        json!(f64::from(a.as_primitive::<Float32Type>().value(i)))
                    }
                    DataType::Float64 => json!(a.as_primitive::<Float64Type>().value(i)),
                    DataType::Timestamp(unit, None) => match unit {
                        TimeUnit::Second => {
                            json!(a.as_primitive::<TimestampSecondType>().value(i) * 1000)
                        }
                        TimeUnit::Millisecond => {
                            json!(a.as_primitive::<TimestampMillisecondType>().value(i))
                        }
                        TimeUnit::Microsecond => {
                            json!(a.as_primitive::<TimestampMicrosecondType>().value(i))
                        }
                        TimeUnit::Nanosecond => {
                            json!(a.as_primitive::<TimestampNanosecondType>().value(i))
                        }
                    },
                    DataType::Timestamp(TimeUnit::Microsecond, Some(tz)) => {
                        assert_eq!(tz.as_ref(), "UTC");
                        let micros = a.as_primitive::<TimestampMicrosecondType>().value(i);
                        let utc = chrono::DateTime::from_timestamp_micros(micros).unwrap();
                        let offset = schema
                            .index_of(&format!("{}_TZ_OFFSET", field.name()))
                            .ok()
                            .map(|o| batch.column(o).as_primitive::<Int16Type>().value(i));
                        match offset {
                            Some(minutes) => {
                                let zone =
                                    chrono::FixedOffset::east_opt(i32::from(minutes) * 60).unwrap();
                                json!(rfc3339(utc.with_timezone(&zone)))
                            }
                            None => json!(rfc3339(utc.fixed_offset())),
                        }
                    }
                    DataType::Utf8 => {
                        let s = a.as_string::<i32>().value(i);
                        if oracle == "JSON" || oracle == "BFILE" {
                            serde_json::from_str(s).unwrap()
                        } else if oracle.starts_with("INTERVAL") {
                            json!(interval_iso(s))
                        } else {
                            json!(s)
                        }
                    }
                    DataType::Binary => json!(base64::engine::general_purpose::STANDARD
                        .encode(a.as_binary::<i32>().value(i))),
                    DataType::Boolean => json!(a.as_boolean().value(i)),
                    DataType::List(_) => {
                        let items = a.as_list::<i32>().value(i);
                        let items = items.as_primitive::<Float32Type>();
                        json!(items
                            .values()
                            .iter()
                            .map(|f| f64::from(*f))
                            .collect::<Vec<_>>())
                    }
                    other => panic!("{}: unexpected type {other}", field.name()),
                }
            };
        obj.insert(field.name().clone(), v);
    }
    Json::Object(obj)
}

/// Every row of the table's files, in file order; the files must be complete Parquet files.
fn read_rows(out: &Path, table: &str) -> (Vec<Json>, usize) {
    let manifest: Json =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    let entry = manifest["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["table"] == table)
        .unwrap();
    let files: Vec<&str> = entry["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    // What a reader globbing `TABLE.*.parquet` finds is what the manifest lists.
    let mut found: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&format!("{table}.")) && n.ends_with(".parquet"))
        .collect();
    found.sort();
    assert_eq!(found, files, "{table}: files");
    let mut rows = Vec::new();
    for f in &files {
        let file = std::fs::File::open(out.join(f)).unwrap();
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap();
        for batch in reader {
            let batch = batch.unwrap();
            for i in 0..batch.num_rows() {
                // Through JSON text like the dump, so floats parse the same way on both sides.
                let text = row_json(&batch, i).to_string();
                rows.push(serde_json::from_str(&text).unwrap());
            }
        }
    }
    (rows, files.len())
}

fn assert_equals_dump(db: &Path, out: &Path) -> Vec<usize> {
    let mut counts = Vec::new();
    for table in TABLES {
        let (rows, files) = read_rows(out, table);
        let want = dump(db, table);
        assert_eq!(rows.len(), want.len(), "{table}: row count");
        for (got, want) in rows.iter().zip(&want) {
            assert_eq!(got, want, "{table}");
        }
        counts.push(files);
    }
    let leftovers: Vec<String> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".footer"))
        .collect();
    assert!(leftovers.is_empty(), "sidecars left: {leftovers:?}");
    counts
}

#[test]
fn every_value_read_back_equals_the_dump_and_files_roll_over() {
    let (dir, db) = setup();
    let out = dir.path().join("one");
    ok(cli(&db, &out, &["cdc.snapshot.chunk.rows=64"])
        .output()
        .unwrap());
    assert_eq!(assert_equals_dump(&db, &out), [1, 1, 1]);
    // The Arrow schema travels in the file: readers see the Oracle types' Arrow types.
    let file = std::fs::File::open(out.join("PDB1.APP.ALLTYPES.00000.parquet")).unwrap();
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let schema = builder.schema().clone();
    assert_eq!(
        schema.field_with_name("AMOUNT").unwrap().data_type(),
        &DataType::Decimal128(10, 2)
    );
    assert_eq!(
        schema.field_with_name("TS9").unwrap().data_type(),
        &DataType::Timestamp(TimeUnit::Nanosecond, None)
    );
    assert!(!schema.field_with_name("ID").unwrap().is_nullable());
    let meta = builder.metadata();
    assert_eq!(meta.num_row_groups(), 5, "one row group per chunk");
    assert_eq!(
        meta.row_group(0).column(0).compression(),
        parquet::basic::Compression::ZSTD(Default::default())
    );

    let out = dir.path().join("rolled");
    // A file of an export whose offsets are gone is not taken for part of this one.
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("PDB1.APP.ALLTYPES.00007.parquet"), b"stale").unwrap();
    ok(cli(
        &db,
        &out,
        &[
            "cdc.snapshot.chunk.rows=50",
            "cdc.snapshot.parquet.file.rows=120",
            "cdc.snapshot.parquet.compression=none",
        ],
    )
    .output()
    .unwrap());
    // 300 rows in chunks of 50: a new file after 150 rows.
    assert_eq!(assert_equals_dump(&db, &out)[0], 2);
}

#[test]
fn killed_or_rewound_exports_resume_with_every_row_exactly_once() {
    let (dir, db) = setup();
    let out = dir.path().join("out");
    let offsets = out.join("offsets.json");
    let settings = [
        "cdc.snapshot.chunk.rows=20",
        "cdc.snapshot.threads=2",
        "cdc.snapshot.parquet.file.rows=100",
        "cdc.emulator.fault.read.delay.ms=40",
    ];
    let acked = |bytes: &[u8]| -> u64 {
        serde_json::from_slice::<Json>(bytes)
            .map_or(0, |o| o["snapshot"]["records"].as_u64().unwrap_or(0))
    };
    let acked_now = || std::fs::read(&offsets).map_or(0, |b| acked(&b));
    // Run, copy the offsets once `copy_at` more rows are acknowledged, kill -9 once 40 more
    // are: going back to the copy means the files hold row groups (and closed files) the
    // offsets never acknowledged, as when a kill lands between a write and the offsets' save.
    let mut kills = 0;
    let mut run = |copy_at: u64| -> Vec<u8> {
        let base = acked_now();
        let mut child = cli(&db, &out, &settings)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let wait_for = |rows: u64, child: &mut std::process::Child| {
            let deadline = std::time::Instant::now() + Duration::from_secs(30);
            while acked_now() < rows && std::time::Instant::now() < deadline {
                assert!(child.try_wait().unwrap().is_none(), "finished too soon");
                std::thread::sleep(Duration::from_millis(5));
            }
        };
        wait_for(base + copy_at, &mut child);
        let copy = std::fs::read(&offsets).unwrap();
        wait_for(acked(&copy) + 40, &mut child);
        child.kill().unwrap();
        child.wait().unwrap();
        kills += 1;
        copy
    };
    // Open files: their sidecar footers are cut back.
    let early = run(40);
    let killed_at = std::fs::read(&offsets).unwrap();
    assert!(acked(&early) >= 40 && acked(&early) < acked(&killed_at));
    std::fs::write(&offsets, &early).unwrap();
    run(20);
    let middle = run(60);
    run(20);
    let killed_at = std::fs::read(&offsets).unwrap();
    assert!(acked(&middle) < acked(&killed_at) && acked(&killed_at) < 500);
    // Closed files: their own footers are cut back.
    std::fs::write(&offsets, &middle).unwrap();
    assert!(kills >= 4, "the export finished too fast to be interrupted");
    ok(cli(&db, &out, &settings).output().unwrap());
    let files = assert_equals_dump(&db, &out);
    assert!(files[0] >= 3, "ALLTYPES continued in new files: {files:?}");
    // A complete export is left alone.
    let before = std::fs::read(out.join("PDB1.APP.ALLTYPES.00000.parquet")).unwrap();
    ok(cli(&db, &out, &settings).output().unwrap());
    assert_eq!(
        std::fs::read(out.join("PDB1.APP.ALLTYPES.00000.parquet")).unwrap(),
        before
    );
    assert_eq!(assert_equals_dump(&db, &out), files);
    // Back to the first run's offsets (as when an offsets backup is restored), one file per
    // table from there: every later file goes, the rest of each table is in one new file.
    std::fs::write(&offsets, &early).unwrap();
    let mut one_file = settings;
    one_file[2] = "cdc.snapshot.parquet.file.rows=0";
    ok(cli(&db, &out, &one_file).output().unwrap());
    assert_eq!(assert_equals_dump(&db, &out), [2, 1, 1]);
}

#[test]
fn damaged_files_of_a_stopped_export_are_refused_with_their_code() {
    let (dir, db) = setup();
    let out = dir.path().join("out");
    let settings = [
        "cdc.snapshot.chunk.rows=20",
        "cdc.snapshot.threads=1",
        "cdc.emulator.fault.read.delay.ms=30",
    ];
    // Ctrl-C once some chunks are acknowledged: the open file keeps its footer sidecar.
    let child = cli(&db, &out, &settings)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let side = out.join(".PDB1.APP.ALLTYPES.00000.parquet.footer");
    while !side.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    assert_eq!(child.wait_with_output().unwrap().status.code(), Some(130));
    let footer = std::fs::read(&side).unwrap();

    std::fs::write(&side, b"not a footer PAR1").unwrap();
    let e = cli(&db, &out, &settings).output().unwrap();
    let err = String::from_utf8_lossy(&e.stderr);
    assert_eq!(e.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("CDC-6102") && err.contains(".PDB1.APP.ALLTYPES.00000.parquet.footer"),
        "{err}"
    );

    std::fs::write(&side, &footer).unwrap();
    let data = out.join("PDB1.APP.ALLTYPES.00000.parquet");
    std::fs::File::options()
        .write(true)
        .open(&data)
        .unwrap()
        .set_len(10)
        .unwrap();
    let e = cli(&db, &out, &settings).output().unwrap();
    let err = String::from_utf8_lossy(&e.stderr);
    assert_eq!(e.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("CDC-7002") && err.contains("PDB1.APP.ALLTYPES.00000.parquet has 10 bytes"),
        "{err}"
    );
}
