//! What the capture tests share: running the binary, reading the file sink's records, and the
//! checks (exactly once, SCN order, latest record per key equal to `emulator dump`).
#![allow(dead_code)]

use assert_cmd::cargo::cargo_bin;
use serde_json::{Map, Value as Json};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

pub fn run(args: &[&str]) -> Output {
    let out = Command::new(cargo_bin("oracle-cdc"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

pub fn current_scn(db: &Path) -> u64 {
    emulator_status(db)["current_scn"].as_u64().unwrap()
}

/// `emulator status DB --format json`.
pub fn emulator_status(db: &Path) -> Json {
    let out = run(&[
        "emulator",
        "status",
        db.to_str().unwrap(),
        "--format",
        "json",
    ]);
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Wait until `ok`, looking every 50 ms; after `secs` seconds fail, naming `what`.
pub fn wait_for(what: &str, secs: u64, mut ok: impl FnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(secs);
    while !ok() {
        assert!(Instant::now() < until, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Every record of the file sink's segments, in order (the directory also holds the sink's
/// lock and its `.sink-owner.json`, which are no records).
pub fn records(out: &Path) -> Vec<Json> {
    let Ok(dir) = std::fs::read_dir(out) else {
        return Vec::new();
    };
    // The segments (`.sink-owner.json` and `.sink.lock` are the capture's own).
    let mut files: Vec<_> = dir
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

/// Capture, once through, from a replay export (`schema` and `export` written as
/// `root/export/schema.yaml` and `logmnr.csv`), into `root/out` with its state in `root/state`:
/// no snapshot, and the values as such (no JSON converter schemas, no tombstones: the record
/// contract has its own tests in debezium_records.rs and record::value). `extra`: more settings.
pub fn replay_capture(root: &Path, schema: &str, export: &str, extra: &[&str]) -> Output {
    let dir = root.join("export");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("schema.yaml"), schema).unwrap();
    std::fs::write(dir.join("logmnr.csv"), export).unwrap();
    let mut args: Vec<String> = [
        format!("cdc.database.url=replay:{}", dir.display()),
        format!("cdc.state.dir={}", root.join("state").display()),
        format!("cdc.sink.dir={}", root.join("out").display()),
        "cdc.snapshot.mode=none".into(),
        "cdc.stream.poll.ms=10".into(),
        "cdc.value.converter.schemas.enable=false".into(),
        "cdc.key.converter.schemas.enable=false".into(),
        "cdc.tombstones.on.delete=false".into(),
    ]
    .into_iter()
    .chain(extra.iter().map(|s| s.to_string()))
    .flat_map(|s| ["--set".to_string(), s])
    .collect();
    args.push("capture".into());
    Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap()
}

/// The `after` images the file sink's segments hold, in order.
pub fn afters(out: &Path) -> Vec<Json> {
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
                .map(|l| serde_json::from_str::<Json>(l).unwrap()["value"]["after"].clone())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The ops events of a state directory.
pub fn events(state: &Path) -> Vec<Json> {
    std::fs::read_to_string(state.join("ops.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Wait until an ops event matches (panics after `secs`).
pub fn wait_for_event(state: &Path, secs: u64, what: &str, pred: impl Fn(&Json) -> bool) -> Json {
    let started = Instant::now();
    loop {
        if let Some(e) = events(state).into_iter().find(&pred) {
            return e;
        }
        assert!(
            started.elapsed() < Duration::from_secs(secs),
            "no ops event {what} within {secs}s; events: {:#?}",
            events(state).iter().rev().take(15).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A record's value or key payload, as a consumer of Kafka Connect's JsonConverter reads it
/// (inside `{"schema":…,"payload":…}` when schemas are on).
pub fn payload(v: &Json) -> &Json {
    match v.get("payload") {
        Some(p) if v.get("schema").is_some() => p,
        _ => v,
    }
}

/// Whether a record's topic is the table's: `oracle-cdc.OWNER.TABLE` (Debezium's topic, when
/// the capture spans one PDB) or `oracle-cdc.PDB.OWNER.TABLE` (when it spans several).
pub fn topic_matches(topic: &str, table: &str) -> bool {
    let t = topic.trim_start_matches("oracle-cdc.");
    t == table || table.ends_with(&format!(".{t}")) && table.split('.').count() == 3
}

/// The topic of a table of a capture that spans one PDB (or none): `oracle-cdc.OWNER.TABLE`.
pub fn topic_of(table: &str) -> String {
    let parts: Vec<&str> = table.split('.').collect();
    format!(
        "oracle-cdc.{}",
        parts[parts.len().saturating_sub(2)..].join(".")
    )
}

/// A change or snapshot record (not a tombstone, heartbeat or transaction event).
pub fn is_change(r: &Json) -> bool {
    payload(&r["value"])["op"].is_string()
}

/// No record is published twice.
pub fn assert_exactly_once(recs: &[Json]) {
    let mut seen = HashSet::new();
    for r in recs.iter().filter(|r| is_change(r)) {
        let v = payload(&r["value"]);
        let id = format!(
            "{}|{}|{}|{}|{}|{}|{}",
            v["op"],
            v["source"]["scn"],
            v["source"]["txId"],
            v["source"]["rs_id"],
            v["source"]["row_id"],
            v["source"]["snapshot"],
            payload(&r["key"])
        );
        assert!(seen.insert(id.clone()), "record published twice: {id}");
    }
}

fn commit_of(r: &Json) -> Option<u64> {
    payload(&r["value"])["source"]["commit_scn"]
        .as_str()
        .and_then(|s| s.parse::<u64>().ok())
}

/// Change records by commit SCN; a snapshot record read at s after every change committed
/// before s and before every change committed at or after s.
pub fn assert_scn_order(recs: &[Json]) {
    scn_order(recs, false)
}

/// [`assert_scn_order`], except that a change committed exactly at a chunk's SCN may come
/// before it: on an idle emulator the current SCN is the last commit's (Oracle's SCN moves on),
/// so a chunk read AS OF it contains that commit, already published. Convergence is unaffected.
pub fn assert_scn_order_idle(recs: &[Json]) {
    scn_order(recs, true)
}

fn scn_order(recs: &[Json], idle: bool) {
    let mut last_commit = 0u64;
    for (i, r) in recs.iter().enumerate() {
        if payload(&r["value"])["source"].is_null() {
            continue; // a heartbeat, a tombstone
        }
        if let Some(c) = commit_of(r) {
            assert!(
                c >= last_commit,
                "record {i}: commit SCN {c} after {last_commit}"
            );
            last_commit = c;
        } else {
            let s: u64 = payload(&r["value"])["source"]["scn"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            assert!(
                last_commit < s || (idle && last_commit == s),
                "record {i}: snapshot chunk at SCN {s} after a change committed at {last_commit}"
            );
            if let Some(next) = recs[i + 1..].iter().find_map(commit_of) {
                assert!(
                    next >= s,
                    "record {i}: change committed at {next} after a chunk read at {s}"
                );
            }
        }
    }
}

/// The latest record per (table, key): what a consumer written for Debezium's Oracle connector
/// with its default settings holds. It reads the JsonConverter envelope (`schema`, `payload`),
/// takes `payload.after`, forgets a key at its delete or tombstone, forgets every key of the
/// table at a truncate record (`op` `t`, no key), and decodes each field by its Connect schema
/// into the value `emulator dump` prints ([`decode`]).
pub fn latest_per_key(recs: &[Json]) -> BTreeMap<(String, String), Map<String, Json>> {
    let mut latest: BTreeMap<(String, String), Map<String, Json>> = BTreeMap::new();
    for r in recs {
        let Some(topic) = r["topic"].as_str() else {
            continue;
        };
        let table = topic.trim_start_matches("oracle-cdc.").to_string();
        let key = payload(&r["key"]).to_string();
        if r["value"].is_null() {
            // A tombstone: the key is gone.
            latest.remove(&(table, key));
            continue;
        }
        let v = payload(&r["value"]);
        let Some(op) = v["op"].as_str() else {
            continue;
        };
        match op {
            "d" => {
                latest.remove(&(table, key));
            }
            "t" => latest.retain(|(t, _), _| *t != table),
            _ => {
                let mut after = decoded_after(r);
                // A LOB the change left alone: the consumer keeps the value it holds.
                if let Some(old) = latest.get(&(table.clone(), key.clone())) {
                    for (col, v) in after.iter_mut() {
                        if is_unavailable(v) {
                            *v = old.get(col).cloned().unwrap_or(Json::Null);
                        }
                    }
                }
                latest.insert((table, key), after);
            }
        }
    }
    latest
}

/// A record's `payload.after`, each field decoded by its schema ([`decode`]).
pub fn decoded_after(r: &Json) -> Map<String, Json> {
    let fields = after_schema(&r["value"]);
    let mut after = Map::new();
    if let Some(image) = payload(&r["value"])["after"].as_object() {
        for (col, value) in image {
            let schema = fields.and_then(|f| f.iter().find(|f| f["field"] == col.as_str()));
            after.insert(col.clone(), decode(value, schema));
        }
    }
    after
}

/// The fields of the `after` struct in a record value's schema.
fn after_schema(value: &Json) -> Option<&Vec<Json>> {
    value["schema"]["fields"]
        .as_array()?
        .iter()
        .find(|f| f["field"] == "after")?["fields"]
        .as_array()
}

/// `BigDecimal(new BigInteger(bytes), scale).toPlainString()`, trailing zeros dropped, as
/// Oracle prints a NUMBER (`0.5`, `-12`).
fn decimal_text(b64: &str, scale: i64) -> String {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap();
    let neg = bytes.first().is_some_and(|b| b & 0x80 != 0);
    // Magnitude of the two's complement value, as decimal digits.
    let mut mag: Vec<u8> = if neg {
        let mut m: Vec<u8> = bytes.iter().map(|b| !b).collect();
        for b in m.iter_mut().rev() {
            let (v, c) = b.overflowing_add(1);
            *b = v;
            if !c {
                break;
            }
        }
        m
    } else {
        bytes
    };
    let mut digits = Vec::new();
    while mag.iter().any(|b| *b != 0) {
        let mut rem = 0u32;
        for b in mag.iter_mut() {
            let cur = rem * 256 + u32::from(*b);
            *b = (cur / 10) as u8;
            rem = cur % 10;
        }
        digits.push(b'0' + rem as u8);
    }
    if digits.is_empty() {
        digits.push(b'0');
    }
    digits.reverse();
    let mut d = String::from_utf8(digits).unwrap();
    if scale < 0 {
        d.push_str(&"0".repeat((-scale) as usize));
    }
    let s = scale.max(0) as usize;
    if d.len() <= s {
        d = format!("{}{d}", "0".repeat(s + 1 - d.len()));
    }
    let (int, frac) = d.split_at(d.len() - s);
    let frac = frac.trim_end_matches('0');
    let mut out = if neg && !d.trim_matches('0').is_empty() {
        "-".to_string()
    } else {
        String::new()
    };
    out.push_str(int);
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// Debezium's placeholder for a value the redo does not hold.
pub const UNAVAILABLE: &str = "__debezium_unavailable_value";

/// A field's value decoded by its Connect schema into what `emulator dump` prints: precise
/// decimals to their exact text (an integer's stays a number), JSON documents parsed. What
/// has no inverse (microsecond durations, zoned timestamps with padded fractions) is compared
/// by [`same_value`].
pub fn decode(v: &Json, schema: Option<&Json>) -> Json {
    let Some(schema) = schema else {
        return v.clone();
    };
    if v.is_null() {
        return Json::Null;
    }
    match schema["name"].as_str() {
        Some("org.apache.kafka.connect.data.Decimal") => {
            let scale: i64 = schema["parameters"]["scale"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            Json::String(decimal_text(v.as_str().unwrap(), scale))
        }
        Some("io.debezium.data.VariableScaleDecimal") => {
            let text = decimal_text(v["value"].as_str().unwrap(), v["scale"].as_i64().unwrap());
            Json::String(text)
        }
        // A document the change left alone is the placeholder, which is no JSON.
        Some("io.debezium.data.Json") => match v.as_str() {
            Some(UNAVAILABLE) => v.clone(),
            Some(text) => serde_json::from_str(text).unwrap(),
            None => v.clone(),
        },
        _ => v.clone(),
    }
}

/// Whether a decoded record value is the dump's: the same JSON, or the same duration in
/// microseconds (Debezium's `MicroDuration`: a month is 365.25 / 12 days), or the same instant
/// and offset of a zoned timestamp, or a decimal dump prints as an integer.
pub fn same_value(have: &Json, want: &Json) -> bool {
    if have == want {
        return true;
    }
    match (have, want) {
        (Json::Number(n), Json::String(iso)) if iso.starts_with('P') || iso.starts_with("-P") => {
            iso_micros(iso) == n.as_i64()
        }
        (Json::String(a), Json::String(b)) => {
            let p = |s: &str| {
                chrono::DateTime::parse_from_rfc3339(s)
                    .ok()
                    .map(|t| (t, t.offset().local_minus_utc()))
            };
            p(a).is_some() && p(a) == p(b)
        }
        (Json::String(a), Json::Number(b)) => a == &b.to_string(),
        _ => false,
    }
}

/// `P-3Y-6M` / `P1DT2H3M4.56S` (what `emulator dump` prints) in Debezium's microseconds.
fn iso_micros(iso: &str) -> Option<i64> {
    let body = iso.strip_prefix('P')?;
    let (date, time) = body.split_once('T').unwrap_or((body, ""));
    let mut months = 0f64;
    let mut days = 0f64;
    let mut secs = 0f64;
    let mut num = String::new();
    for c in date.chars() {
        match c {
            'Y' => {
                months += num.parse::<f64>().ok()? * 12.0;
                num.clear();
            }
            'M' => {
                months += num.parse::<f64>().ok()?;
                num.clear();
            }
            'D' => {
                days += num.parse::<f64>().ok()?;
                num.clear();
            }
            _ => num.push(c),
        }
    }
    for c in time.chars() {
        match c {
            'H' => {
                secs += num.parse::<f64>().ok()? * 3600.0;
                num.clear();
            }
            'M' => {
                secs += num.parse::<f64>().ok()? * 60.0;
                num.clear();
            }
            'S' => {
                secs += num.parse::<f64>().ok()?;
                num.clear();
            }
            _ => num.push(c),
        }
    }
    let d = months * (365.25 / 12.0) + days;
    Some(((d * 86_400.0 + secs) * 1e6).round() as i64)
}

/// Debezium's placeholder for a value the redo does not hold (text, or base64 of its bytes).
pub fn is_unavailable(v: &Json) -> bool {
    matches!(
        v.as_str(),
        Some("__debezium_unavailable_value" | "X19kZWJleml1bV91bmF2YWlsYWJsZV92YWx1ZQ==")
    )
}

/// A table's rows at an SCN, from `emulator dump`.
pub fn dump(db: &Path, table: &str, scn: u64) -> Vec<Map<String, Json>> {
    let out = run(&[
        "emulator",
        "dump",
        db.to_str().unwrap(),
        "--table",
        table,
        "--scn",
        &scn.to_string(),
    ]);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Json>(l)
                .unwrap()
                .as_object()
                .unwrap()
                .clone()
        })
        .collect()
}

/// The latest record per key of `table` equals its rows (by ID) at `scn`.
pub fn assert_converges(db: &Path, recs: &[Json], table: &str, scn: u64) {
    let latest = latest_per_key(recs);
    let rows = dump(db, table, scn);
    let mine: BTreeMap<String, &Map<String, Json>> = latest
        .iter()
        .filter(|((t, _), _)| topic_matches(t, table))
        .map(|(_, v)| (id_text(&v["ID"]), v))
        .collect();
    assert_eq!(mine.len(), rows.len(), "{table}: row count");
    for row in &rows {
        let got = mine
            .get(&id_text(&row["ID"]))
            .unwrap_or_else(|| panic!("{table}: row {} missing", row["ID"]));
        for (col, want) in row {
            // A column added after the row's last change is absent from its record: NULL.
            let have = got.get(col).unwrap_or(&Json::Null);
            assert!(
                same_value(have, want),
                "{table} row {} column {col}: {have} in the records, {want} in the dump",
                row["ID"]
            );
        }
    }
}

/// An ID as text, whether a number or a decoded decimal's string.
fn id_text(v: &Json) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// A fresh emulated database made from `schema` (YAML), with a state and an output directory
/// beside it (none created yet).
pub struct Emulated {
    pub dir: tempfile::TempDir,
    pub db: std::path::PathBuf,
    pub state: std::path::PathBuf,
    pub out: std::path::PathBuf,
}

pub fn emulated(schema: &str) -> Emulated {
    let dir = tempfile::tempdir().unwrap();
    let schema_path = dir.path().join("schema.yaml");
    std::fs::write(&schema_path, schema).unwrap();
    let db = dir.path().join("db");
    run(&[
        "emulator",
        "init",
        db.to_str().unwrap(),
        "--schema",
        schema_path.to_str().unwrap(),
    ]);
    Emulated {
        state: dir.path().join("state"),
        out: dir.path().join("out"),
        db,
        dir,
    }
}

/// The latest record per key of `table` equals its rows at `scn`, whatever its key (the rows
/// compared as a multiset; a column missing from a record is NULL).
pub fn assert_table_converges(db: &Path, recs: &[Json], table: &str, scn: u64) {
    assert_table_converges_without(db, recs, table, scn, &[]);
}

/// [`assert_table_converges`] for a capture that excludes `excluded` (cdc.columns.exclude):
/// those columns are left out of the table's rows before they are compared.
pub fn assert_table_converges_without(
    db: &Path,
    recs: &[Json],
    table: &str,
    scn: u64,
    excluded: &[&str],
) {
    let mut rows = dump(db, table, scn);
    for r in &mut rows {
        for c in excluded {
            r.remove(*c);
        }
    }
    let columns: Vec<String> = rows
        .first()
        .map(|r| r.keys().cloned().collect())
        .unwrap_or_default();
    let shape = |r: &Map<String, Json>| -> String {
        let mut o = Map::new();
        for c in &columns {
            o.insert(c.clone(), r.get(c).cloned().unwrap_or(Json::Null));
        }
        Json::Object(o).to_string()
    };
    // Each record row is matched to one table row whose every column has the same value
    // (`same_value`: the dump's ISO durations and zoned times against Debezium's encodings).
    let have_rows = latest_per_row(recs, table);
    let same_row = |h: &Map<String, Json>, w: &Map<String, Json>| {
        columns.iter().all(|c| {
            same_value(
                h.get(c).unwrap_or(&Json::Null),
                w.get(c).unwrap_or(&Json::Null),
            )
        })
    };
    let mut unmatched: Vec<&Map<String, Json>> = rows.iter().collect();
    let mut extra = Vec::new();
    for h in &have_rows {
        match unmatched.iter().position(|w| same_row(h, w)) {
            Some(i) => {
                unmatched.swap_remove(i);
            }
            None => extra.push(shape(h)),
        }
    }
    let missing: Vec<String> = unmatched.iter().take(3).map(|w| shape(w)).collect();
    extra.truncate(3);
    assert!(
        unmatched.is_empty() && extra.is_empty() && rows.len() == have_rows.len(),
        "{table}: {} rows in the table, {} in the records; rows not in the records (first 3): {missing:#?}; records not in the table: {extra:#?}",
        rows.len(),
        have_rows.len()
    );
}

/// The latest record of each row of `table`: by its key, or, for a table without one (its
/// records' key is null), by `source.row_id`; a delete removes the row, a truncate record
/// (`op` `t`) every row.
pub fn latest_per_row(recs: &[Json], table: &str) -> Vec<Map<String, Json>> {
    let mut latest: std::collections::BTreeMap<String, Map<String, Json>> =
        std::collections::BTreeMap::new();
    for r in recs {
        let topic = r["topic"].as_str().unwrap_or_default();
        if !topic_matches(topic, table) || !is_change(r) {
            continue;
        }
        let v = payload(&r["value"]);
        let id = match payload(&r["key"]) {
            Json::Null => v["source"]["row_id"].to_string(),
            k => k.to_string(),
        };
        match v["op"].as_str() {
            Some("d") => {
                latest.remove(&id);
            }
            Some("t") => latest.clear(),
            Some(_) => {
                let mut after = decoded_after(r);
                // Debezium's placeholder for a LOB an UPDATE left alone: the consumer keeps
                // what it holds.
                if let Some(prev) = latest.get(&id) {
                    for (c, val) in after.iter_mut() {
                        if is_unavailable(val) {
                            *val = prev.get(c).cloned().unwrap_or(Json::Null);
                        }
                    }
                }
                latest.insert(id, after);
            }
            None => {}
        }
    }
    latest.into_values().collect()
}

/// `oracle-cdc -q emulator workload DB EXTRA…` in the background.
pub fn workload(db: &Path, extra: &[&str]) -> std::process::Child {
    Command::new(cargo_bin("oracle-cdc"))
        .args(["-q", "emulator", "workload", db.to_str().unwrap()])
        .args(extra)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for a [`workload`], which must have succeeded.
pub fn finish(w: std::process::Child) {
    let o = w.wait_with_output().unwrap();
    assert!(
        o.status.success(),
        "workload: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `oracle-cdc ARGS capture` with no stop SCN, made to mine: once the snapshot it takes is
/// complete (its `snapshot-complete` ops event in `state`), a workload of three transactions
/// commits on `db`, and the next window has changes to mine. A capture that started at the
/// database's current SCN has nothing to mine before then: the emulator's SCN, unlike
/// Oracle's, stands still while nothing is written. Expected to fail: returns the exit code
/// and stderr; panics if capture still runs after `secs`.
pub fn capture_mining_fails(args: &[String], db: &Path, state: &Path, secs: u64) -> (i32, String) {
    use std::process::Stdio;
    let seen = events(state).len();
    let mut child = Command::new(cargo_bin("oracle-cdc"))
        .args(args)
        .args(["-q", "capture"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let mut wrote = false;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                std::io::Read::read_to_string(&mut e, &mut err).unwrap();
            }
            return (status.code().unwrap_or(-1), err);
        }
        if !wrote
            && events(state)
                .iter()
                .skip(seen)
                .any(|e| e["event"] == "snapshot-complete")
        {
            run(&[
                "emulator",
                "workload",
                db.to_str().unwrap(),
                "--transactions",
                "3",
                "--rate",
                "0",
                "--seed",
                "11",
            ]);
            wrote = true;
        }
        if started.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            panic!("capture still runs after {secs}s (workload written: {wrote})");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Wait for `c` to end, at most `secs` (a watchdog for hangs, not a timing assertion).
pub fn wait_at_most(
    c: &mut std::process::Child,
    secs: u64,
    what: &str,
) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(st) = c.try_wait().unwrap() {
            return st;
        }
        if started.elapsed() > Duration::from_secs(secs) {
            let _ = c.kill();
            let _ = c.wait();
            panic!("{what}: still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
