//! ALTER TABLE … MOVE of a table while `oracle-cdc snapshot` reads it by ROWID ranges (it has
//! no key). A move gives the segment a new data object number, which every ROWID carries, so
//! the ranges planned before it hold nothing after it; the read AS OF an SCN before the move
//! fails with ORA-01466, and its retry at a fresh SCN read the old, empty ranges: the export
//! finished, complete and short of rows, and no row change in the redo would bring them. Now
//! the reader sees the new data objects before each wave and, chunks of the table published
//! already, stops the table with CDC-8009 (before any, it plans the table again: the engine's
//! `snapshot::ddl_tests` show it deterministically).

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use std::process::Command;
use std::time::Duration;

const SCHEMA: &str = r#"
seed: 41
tables:
  - name: APP.LOG
    columns:
      - { name: AT, type: NUMBER(12) }
      - { name: MSG, type: VARCHAR2(30) }
    supplemental_logging: all
    rows: 400
"#;

#[test]
fn an_export_of_a_table_moved_while_it_is_read_stops_with_cdc_8009_not_short() {
    let Emulated { dir, db, .. } = emulated(SCHEMA);
    let export = dir.path().join("export");
    // A MOVE every 20 transactions at 100 a second (every ~200 ms, for 4 s); the export reads
    // 20 waves of one 20-row chunk, each at least 60 ms: moves meet it after chunks of it
    // were published.
    let w = workload(
        &db,
        &[
            "--transactions",
            "400",
            "--rate",
            "100",
            "--move-every",
            "20",
            "--seed",
            "41",
        ],
    );
    std::thread::sleep(Duration::from_millis(300));
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "--set",
            &format!("cdc.database.url=emulator:{}", db.display()),
            "--set",
            "cdc.snapshot.chunk.rows=20",
            "--set",
            "cdc.snapshot.threads=1",
            "--set",
            "cdc.emulator.fault.read.delay.ms=60",
            "-q",
            "snapshot",
            "--out",
            export.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    finish(w);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success(),
        "the export finished although the table moved under it (its ROWID ranges read the old segment): {stderr}"
    );
    assert!(stderr.contains("CDC-8009"), "{stderr}");
    assert!(stderr.contains("APP.LOG"), "{stderr}");
    let failed = events(&export)
        .into_iter()
        .filter(|e| e["event"] == "snapshot-chunk-failed" && e["code"] == "CDC-8009")
        .count();
    assert_eq!(failed, 1, "one snapshot-chunk-failed event");

    // Resumed into the same --out, the table's resume point names the old segment: read whole
    // from the new one, the rows written before the move would be written twice. It stops.
    let base = [
        "--set".to_string(),
        format!("cdc.database.url=emulator:{}", db.display()),
        "--set".into(),
        "cdc.snapshot.chunk.rows=20".into(),
        "-q".into(),
        "snapshot".into(),
        "--out".into(),
    ];
    let again = Command::new(cargo_bin("oracle-cdc"))
        .args(&base)
        .arg(&export)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(
        !again.status.success() && stderr.contains("CDC-8009"),
        "resumed past the move: {stderr}"
    );
    // Into a new --out, the table now still: every row once, as `emulator dump` has them.
    let fresh = dir.path().join("fresh");
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&base)
        .arg(&fresh)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sorted = |text: String| {
        let mut l: Vec<String> = text.lines().map(str::to_string).collect();
        l.sort();
        l
    };
    let exported = sorted(std::fs::read_to_string(fresh.join("APP.LOG.jsonl")).unwrap());
    let dumped = run(&[
        "emulator",
        "dump",
        db.to_str().unwrap(),
        "--table",
        "APP.LOG",
    ]);
    assert_eq!(exported, sorted(String::from_utf8(dumped.stdout).unwrap()));
}

/// Capture's initial snapshot of a keyless table the workload moves while it is read: each
/// move seen before a wave plans the table again from its new extents and reads it whole
/// (capture publishes each chunk as a read of the table at its SCN, so a row read again is no
/// second row); before, the snapshot finished with the rows of the ranges read after a move
/// missing, and the stream never brought them (a MOVE logs no row change). Every row the table
/// has at the end is in the records (a record with its values: a snapshot read or a stream
/// change). No consumer can converge by ROWID here (every ROWID changed without a row change),
/// so what is checked is that no row is lost.
#[test]
fn capture_of_a_table_moved_during_its_snapshot_loses_no_row() {
    let Emulated {
        dir: _dir,
        db,
        state,
        out,
    } = emulated(&SCHEMA.replace("rows: 400", "rows: 1000"));
    let args: Vec<String> = [
        format!("cdc.database.url=emulator:{}", db.display()),
        format!("cdc.state.dir={}", state.display()),
        format!("cdc.sink.dir={}", out.display()),
        "cdc.snapshot.chunk.rows=50".into(),
        "cdc.snapshot.threads=1".into(),
        "cdc.emulator.fault.read.delay.ms=60".into(),
        "cdc.stream.poll.ms=50".into(),
    ]
    .into_iter()
    .flat_map(|s| ["--set".to_string(), s])
    .collect();
    let w = workload(
        &db,
        &[
            "--transactions",
            "300",
            "--rate",
            "75",
            "--tx-size",
            "1..1",
            "--move-every",
            "15",
            "--seed",
            "42",
        ],
    );
    std::thread::sleep(Duration::from_millis(300));
    let mut c = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .args(["-q", "capture"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Until it stops, or its snapshot is complete (as it was before, short of rows).
    let started = std::time::Instant::now();
    let stopped = loop {
        if let Some(st) = c.try_wait().unwrap() {
            break Some(st);
        }
        if events(&state)
            .iter()
            .any(|e| e["event"] == "snapshot-complete")
        {
            let _ = c.kill();
            let _ = c.wait();
            break None;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "capture neither stopped nor finished its snapshot in 120 s (a watchdog)"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    if let Some(mut e) = c.stderr.take() {
        std::io::Read::read_to_string(&mut e, &mut err).unwrap();
    }
    finish(w);
    if let Some(status) = stopped {
        assert!(
            !status.success() && err.contains("CDC-8009"),
            "capture stopped otherwise than with CDC-8009 ({status}): {err}"
        );
    }
    assert!(
        events(&state)
            .iter()
            .any(|e| e["code"] == "CDC-8009" || e["code"] == "CDC-5003"),
        "no move met the snapshot"
    );
    // (Left short before, it is completed by the run below, which also streams to the end.)
    let end = current_scn(&db);
    let mut last = args.clone();
    last.extend(["-q".into(), "capture".into(), "--stop-at-scn".into()]);
    last.push(end.to_string());
    run(&last.iter().map(String::as_str).collect::<Vec<_>>());

    let recs = records(&out);
    let seen: Vec<serde_json::Map<String, serde_json::Value>> = recs
        .iter()
        .filter(|r| is_change(r))
        .filter(|r| matches!(payload(&r["value"])["op"].as_str(), Some("r" | "c" | "u")))
        .map(decoded_after)
        .collect();
    let rows = dump(&db, "APP.LOG", end);
    assert!(rows.len() > 900, "{} rows", rows.len());
    let missing: Vec<_> = rows
        .iter()
        .filter(|row| {
            !seen.iter().any(|h| {
                row.iter()
                    .all(|(c, v)| same_value(h.get(c).unwrap_or(&serde_json::Value::Null), v))
            })
        })
        .take(3)
        .collect();
    assert!(missing.is_empty(), "rows in no record: {missing:#?}");
    assert!(
        events(&state)
            .iter()
            .any(|e| e["event"] == "snapshot-chunk-retry"
                && e["code"] == "CDC-8009"
                && e["action"] == "replan"),
        "the moved table was not planned again"
    );
}
