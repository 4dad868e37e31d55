//! Capture in production: its states and metrics scraped from the Prometheus endpoint of a
//! running capture, and SIGTERM (graceful stop) in the middle of a snapshot, resumed cleanly.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const SCHEMA: &str = r#"
seed: 7
tables:
  - name: SHOP.ITEMS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(30) }
      - { name: PRICE, type: "NUMBER(12,2)" }
    primary_key: [ID]
    supplemental_logging: all
    rows: 400
"#;

struct Env {
    _dir: tempfile::TempDir,
    db: PathBuf,
    state: PathBuf,
    out: PathBuf,
}

fn env() -> Env {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, SCHEMA).unwrap();
    let db = dir.path().join("db");
    run(&[
        "emulator",
        "init",
        db.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
    ]);
    Env {
        state: dir.path().join("state"),
        out: dir.path().join("out"),
        db,
        _dir: dir,
    }
}

impl Env {
    fn args(&self, extra: &[&str]) -> Vec<String> {
        [
            format!("cdc.database.url=emulator:{}", self.db.display()),
            format!("cdc.state.dir={}", self.state.display()),
            format!("cdc.sink.dir={}", self.out.display()),
            "cdc.snapshot.chunk.rows=40".into(),
            "cdc.snapshot.threads=1".into(),
            "cdc.stream.poll.ms=50".into(),
            "cdc.signal.poll.ms=50".into(),
        ]
        .into_iter()
        .chain(extra.iter().map(|s| s.to_string()))
        .flat_map(|s| ["--set".to_string(), s])
        .chain(["-q".to_string(), "capture".to_string()])
        .collect()
    }

    fn spawn(&self, extra: &[&str]) -> Child {
        Command::new(cargo_bin("oracle-cdc"))
            .args(self.args(extra))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    fn workload(&self, transactions: u32, seed: u32) {
        run(&[
            "emulator",
            "workload",
            self.db.to_str().unwrap(),
            "--transactions",
            &transactions.to_string(),
            "--rate",
            "0",
            "--seed",
            &seed.to_string(),
            "--long-every",
            "0",
        ]);
    }
}

fn sigterm(c: &Child) {
    let ok = Command::new("kill")
        .args(["-TERM", &c.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

/// Wait for the process to exit (panics after `secs`, killing it).
fn wait_exit(mut c: Child, secs: u64) -> std::process::Output {
    let started = Instant::now();
    while c.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(secs) {
            let _ = c.kill();
            panic!("capture did not stop within {secs}s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    c.wait_with_output().unwrap()
}

/// GET /metrics: the samples by `name{labels}`.
fn scrape(addr: &str) -> BTreeMap<String, f64> {
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    write!(c, "GET /metrics HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut text = String::new();
    c.read_to_string(&mut text).unwrap();
    assert!(text.starts_with("HTTP/1.1 200 OK"), "{text}");
    let body = text.split("\r\n\r\n").nth(1).unwrap();
    body.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (name, value) = l.rsplit_once(' ').unwrap();
            (name.to_string(), value.parse().unwrap())
        })
        .collect()
}

/// Scrape until `pred` holds (panics after `secs`).
fn scrape_until(
    addr: &str,
    secs: u64,
    what: &str,
    mut pred: impl FnMut(&BTreeMap<String, f64>) -> bool,
) -> BTreeMap<String, f64> {
    let started = Instant::now();
    loop {
        let m = scrape(addr);
        if pred(&m) {
            return m;
        }
        assert!(
            started.elapsed() < Duration::from_secs(secs),
            "{what} not seen within {secs}s: {m:#?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn state_is(m: &BTreeMap<String, f64>, state: &str) -> bool {
    m.get(&format!("oracle_cdc_capture_state{{state=\"{state}\"}}")) == Some(&1.0)
}

fn states(state: &Path) -> Vec<String> {
    events(state)
        .iter()
        .filter(|e| e["event"] == "capture-state")
        .map(|e| e["state"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn states_and_metrics_are_scraped_from_a_running_capture() {
    let e = env();
    let c = e.spawn(&[
        "cdc.metrics.listen=127.0.0.1:0",
        "cdc.emulator.fault.read.delay.ms=150",
    ]);
    let listening = wait_for_event(&e.state, 60, "metrics-listening", |v| {
        v["event"] == "metrics-listening"
    });
    let addr = listening["address"].as_str().unwrap().to_string();

    // Snapshotting: the table and chunk being read, the Snapshot* numbers.
    let m = scrape_until(&addr, 60, "a second chunk", |m| {
        m.get("oracle_cdc_snapshot_chunk{table=\"SHOP.ITEMS\"}")
            .is_some_and(|c| *c >= 2.0)
    });
    assert!(state_is(&m, "snapshotting"), "{m:#?}");
    assert_eq!(m["oracle_cdc_capture_state{state=\"mining\"}"], 0.0);
    assert_eq!(m["oracle_cdc_snapshot_running"], 1.0);
    assert_eq!(m["oracle_cdc_snapshot_tables_total"], 1.0);
    let rows = m["oracle_cdc_snapshot_rows_scanned_total{table=\"SHOP.ITEMS\"}"];
    let chunks = m["oracle_cdc_snapshot_chunks_total"];
    assert!((40.0..400.0).contains(&rows), "{rows}");
    assert_eq!(rows, chunks * 40.0);
    assert_eq!(
        m["oracle_cdc_snapshot_chunk{table=\"SHOP.ITEMS\"}"],
        chunks + 1.0
    );

    // Then streaming: a workload is published; the scrape shows where it is.
    wait_for_event(&e.state, 60, "snapshot-complete", |v| {
        v["event"] == "snapshot-complete"
    });
    e.workload(6, 3);
    let end = current_scn(&e.db);
    let m = scrape_until(&addr, 60, "the workload published", |m| {
        m["oracle_cdc_stream_published_commit_scn"] == end as f64 && state_is(m, "waiting-for-redo")
    });
    assert_eq!(m["oracle_cdc_snapshot_running"], 0.0);
    assert_eq!(
        m["oracle_cdc_records_published_total{origin=\"snapshot\"}"],
        400.0
    );
    assert_eq!(m["oracle_cdc_stream_transactions_total"], 6.0);
    // Nothing open: V$DATABASE.CURRENT_SCN is one past the newest change (Oracle's SCN moves
    // on while nothing is written), so the lag in SCNs of a caught-up capture is 1, never 0.
    assert_eq!(m["oracle_cdc_stream_current_scn"], (end + 1) as f64);
    assert_eq!(m["oracle_cdc_stream_mined_scn"], end as f64);
    assert_eq!(m["oracle_cdc_stream_lag_scns"], 1.0);
    assert_eq!(m["oracle_cdc_stream_open_transactions"], 0.0);
    assert!(m["oracle_cdc_stream_windows_total"] >= 1.0);
    assert!(m["oracle_cdc_stream_window_end_scn"] <= end as f64);
    assert!(m.contains_key("oracle_cdc_stream_lag_seconds"));

    // What the sink holds is what the metrics say was written.
    let recs = records(&e.out);
    let changes = m["oracle_cdc_records_published_total{origin=\"change\"}"];
    assert_eq!(recs.len() as f64, 400.0 + changes);
    assert_eq!(m["oracle_cdc_sink_records_total"], recs.len() as f64);
    let bytes: u64 = std::fs::read_dir(&e.out)
        .unwrap()
        .flatten()
        .filter(|f| f.path().extension().is_some_and(|x| x == "jsonl"))
        .map(|f| f.metadata().unwrap().len())
        .sum();
    assert_eq!(m["oracle_cdc_sink_bytes_total"], bytes as f64);
    assert!(m["oracle_cdc_sink_commits_total"] >= chunks);
    assert_converges(&e.db, &recs, "SHOP.ITEMS", end);

    // SIGTERM: a clean stop, exit 0, the last state `stopping`.
    sigterm(&c);
    let o = wait_exit(c, 30);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let seen = states(&e.state);
    assert_eq!(seen.first().map(String::as_str), Some("starting"));
    assert_eq!(seen.last().map(String::as_str), Some("stopping"));
    for s in ["snapshotting", "waiting-for-redo"] {
        assert!(seen.iter().any(|x| x == s), "{s} missing from {seen:?}");
    }
    let snap = events(&e.state)
        .into_iter()
        .find(|v| v["event"] == "capture-state" && v["state"] == "snapshotting")
        .unwrap();
    assert_eq!(snap["table"], "SHOP.ITEMS");
    assert_eq!(snap["chunk"], 1);
}

#[test]
fn sigterm_mid_snapshot_stops_cleanly_and_the_next_run_resumes() {
    let e = env();
    let c = e.spawn(&["cdc.emulator.fault.read.delay.ms=100"]);
    wait_for_event(&e.state, 60, "a second chunk", |v| {
        v["event"] == "snapshot-chunk-done" && v["chunk"] == 2
    });
    sigterm(&c);
    let o = wait_exit(c, 30);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let offsets: Json =
        serde_json::from_slice(&std::fs::read(e.state.join("offsets.json")).unwrap()).unwrap();
    let done = offsets["snapshot"]["records"].as_u64().unwrap();
    assert!(
        offsets["snapshot"]["completed"] == false && (80..400).contains(&done),
        "stopped mid-snapshot: {}",
        offsets["snapshot"]
    );
    // Every acknowledged chunk is in the sink, and nothing more.
    assert_eq!(records(&e.out).len() as u64, done);
    assert_eq!(
        states(&e.state).last().map(String::as_str),
        Some("stopping")
    );

    // Changes meanwhile, then the next run finishes the snapshot and streams them.
    e.workload(8, 5);
    let end = current_scn(&e.db);
    let mut args = e.args(&[]);
    args.extend(["--stop-at-scn".to_string(), end.to_string()]);
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let recs = records(&e.out);
    assert_exactly_once(&recs);
    assert_scn_order_idle(&recs);
    // No row read twice by the snapshot (rows the workload inserted meanwhile may be read by
    // the chunks after the restart: there are at least the 400 initial ones).
    let keys: Vec<String> = recs
        .iter()
        .filter(|r| r["value"]["payload"]["op"] == "r")
        .map(|r| r["key"]["payload"].to_string())
        .collect();
    let distinct: std::collections::HashSet<&String> = keys.iter().collect();
    assert_eq!(
        distinct.len(),
        keys.len(),
        "a row read twice by the snapshot"
    );
    assert!(keys.len() >= 400 - 8, "{}", keys.len());
    assert_converges(&e.db, &recs, "SHOP.ITEMS", end);
}

#[test]
fn a_second_sigterm_exits_at_once_and_the_offsets_stay_consistent() {
    let e = env();
    // Chunk reads far slower than the test: the second signal lands while one is in flight.
    let c = e.spawn(&["cdc.emulator.fault.read.delay.ms=4000"]);
    wait_for_event(&e.state, 60, "snapshot-table-started", |v| {
        v["event"] == "snapshot-table-started"
    });
    sigterm(&c);
    wait_for_event(&e.state, 30, "stopping", |v| {
        v["event"] == "capture-state" && v["state"] == "stopping"
    })
    .to_string();
    std::thread::sleep(Duration::from_millis(100));
    sigterm(&c);
    let o = wait_exit(c, 30);
    assert_eq!(o.status.code(), Some(130));
    // The chunk in flight was abandoned: none was acknowledged.
    assert!(!events(&e.state)
        .iter()
        .any(|v| v["event"] == "snapshot-chunk-done"));
    let end = current_scn(&e.db);
    let mut args = e.args(&[]);
    args.extend(["--stop-at-scn".to_string(), end.to_string()]);
    run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let recs = records(&e.out);
    assert_exactly_once(&recs);
    assert_eq!(recs.len(), 400);
    assert_converges(&e.db, &recs, "SHOP.ITEMS", end);
}

#[test]
fn the_snapshot_throttle_holds_its_rate_changes_by_signal_and_lets_streaming_go_on() {
    let e = env();
    let c = e.spawn(&[
        "cdc.metrics.listen=127.0.0.1:0",
        "cdc.snapshot.chunk.rows=10",
        // A ceiling far below what the signal sets: the rows read before the signal (while
        // a loaded machine starts the workload and `signal send`) stay few, and the rate
        // after it is far above the old ceiling however slow the reads.
        "cdc.snapshot.max.rows.per.second=20",
    ]);
    let listening = wait_for_event(&e.state, 60, "metrics-listening", |v| {
        v["event"] == "metrics-listening"
    });
    let addr = listening["address"].as_str().unwrap().to_string();
    wait_for_event(&e.state, 60, "a third chunk", |v| {
        v["event"] == "snapshot-chunk-done" && v["chunk"] == 3
    });
    let m = scrape(&addr);
    assert_eq!(m["oracle_cdc_snapshot_max_rows_per_second"], 20.0);
    assert!(state_is(&m, "snapshotting"), "{m:#?}");

    // Changes committed meanwhile are streamed while the snapshot waits for the throttle.
    e.workload(5, 9);
    let streamed_at = current_scn(&e.db);

    let sent = Command::new(cargo_bin("oracle-cdc"))
        .args(e.args(&[]).iter().take_while(|a| *a != "-q"))
        .args(["signal", "send", "set-throttle", "--rows-per-second", "200"])
        .args(["--id", "faster", "--wait", "--timeout", "60"])
        .output()
        .unwrap();
    assert!(
        sent.status.success(),
        "{}",
        String::from_utf8_lossy(&sent.stderr)
    );
    let accepted = wait_for_event(&e.state, 10, "accepted", |v| {
        v["event"] == "signal-accepted" && v["signal"] == "faster"
    });
    assert_eq!(
        scrape(&addr)["oracle_cdc_snapshot_max_rows_per_second"],
        200.0
    );
    let complete = wait_for_event(&e.state, 60, "snapshot-complete", |v| {
        v["event"] == "snapshot-complete"
    });

    // From the signal on: rows read over the time they took. The throttle promises a ceiling:
    // at most 200 rows/s (10% for the measurement's edges), and well above the old ceiling of
    // 20, which only the signal lifted. How close the rate comes to 200 is the machine's: each
    // 10-row chunk is read, published and synced, which on a loaded 2-core CI run made 120
    // rows/s (a timed lower bound failed there; speed belongs in benchmarks).
    let (from, to) = (
        accepted["ts_ms"].as_i64().unwrap(),
        complete["ts_ms"].as_i64().unwrap(),
    );
    let before: u64 = events(&e.state)
        .iter()
        .filter(|v| v["event"] == "snapshot-chunk-done" && v["ts_ms"].as_i64().unwrap() <= from)
        .map(|v| v["rows"].as_u64().unwrap())
        .sum();
    let total = complete["rows"].as_u64().unwrap();
    let rows = total.checked_sub(before).unwrap_or_else(|| {
        panic!(
            "{before} of {total}: {:#?}",
            events(&e.state)
                .iter()
                .map(|v| (v["event"].clone(), v["ts_ms"].clone(), v["rows"].clone()))
                .collect::<Vec<_>>()
        )
    });
    assert!(
        rows >= 200,
        "too few rows after the signal to measure: {rows}: {:#?}",
        events(&e.state)
            .iter()
            .map(|v| (
                v["event"].clone(),
                v["ts_ms"].clone(),
                v["rows"].clone(),
                v["state"].clone()
            ))
            .collect::<Vec<_>>()
    );
    let rate = rows as f64 * 1000.0 / (to - from) as f64;
    assert!(
        rate > 30.0 && rate <= 220.0,
        "{rows} rows in {} ms: {rate} rows/s",
        to - from
    );
    // The throttle waited, and the metric counts it. How long is the machine's: the slower the
    // reads, the less there is to wait (a loaded run waited 0.29 s where 0.5 s was asked for).
    let m = scrape(&addr);
    assert!(
        m["oracle_cdc_snapshot_throttle_wait_seconds_total"] > 0.0,
        "{m:#?}"
    );

    // The workload's changes came before the snapshot's last rows.
    let recs = records(&e.out);
    let last_snapshot = recs
        .iter()
        .rposition(|r| r["value"]["payload"]["op"] == "r")
        .unwrap();
    let first_change = recs
        .iter()
        .position(|r| r["value"]["payload"]["source"]["commit_scn"].is_string())
        .expect("the workload's changes were published");
    assert!(
        first_change < last_snapshot,
        "streaming waited for the snapshot"
    );
    sigterm(&c);
    let o = wait_exit(c, 30);
    assert!(o.status.success());
    let recs = records(&e.out);
    assert_exactly_once(&recs);
    assert_scn_order_idle(&recs);
    assert_converges(&e.db, &recs, "SHOP.ITEMS", streamed_at);
}

/// Resident memory of a process, in KiB (Linux).
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_slow_sink_pauses_reading_for_flow_control_in_bounded_memory() {
    let e = env();
    let c = e.spawn(&[
        "cdc.metrics.listen=127.0.0.1:0",
        "cdc.snapshot.chunk.rows=100",
        "cdc.stream.window.scn=200",
        "cdc.stream.buffer.memory.bytes=65536",
        "cdc.emulator.fault.sink.delay.ms=400",
    ]);
    let listening = wait_for_event(&e.state, 60, "metrics-listening", |v| {
        v["event"] == "metrics-listening"
    });
    let addr = listening["address"].as_str().unwrap().to_string();
    let paused = wait_for_event(&e.state, 60, "flow control", |v| {
        v["event"] == "capture-state" && v["state"] == "paused-for-flow-control"
    });
    assert!(paused["reason"].as_str().unwrap().contains("sink"));
    // A backlog of changes while the sink is slow: reading waits, memory stays bounded.
    e.workload(300, 11);
    let end = current_scn(&e.db);
    let mut peak_rss = 0;
    let m = scrape_until(&addr, 120, "the backlog published", |m| {
        peak_rss = peak_rss.max(rss_kib(c.id()));
        assert!(
            m["oracle_cdc_stream_buffer_memory_bytes"] <= 65536.0,
            "{m:#?}"
        );
        m["oracle_cdc_stream_published_commit_scn"] == end as f64
    });
    assert!(m["oracle_cdc_sink_flow_control_pauses_total"] >= 1.0);
    assert!(m["oracle_cdc_sink_flow_control_seconds_total"] > 0.0);
    assert!(peak_rss > 0 && peak_rss < 200 * 1024, "{peak_rss} KiB");
    sigterm(&c);
    let o = wait_exit(c, 30);
    assert!(o.status.success());
    let seen = states(&e.state);
    // The state goes back once the sink catches up.
    let i = seen
        .iter()
        .position(|s| s == "paused-for-flow-control")
        .unwrap();
    assert!(
        seen[i + 1..].iter().any(|s| s != "paused-for-flow-control"),
        "{seen:?}"
    );
    let recs = records(&e.out);
    assert_exactly_once(&recs);
    assert_converges(&e.db, &recs, "SHOP.ITEMS", end);
}
