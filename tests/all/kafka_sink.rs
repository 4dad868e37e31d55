//! `cdc.sink.type=kafka` against a real Kafka-compatible broker (tansu, started by each test on
//! a free loopback port): capture under a live workload, killed with SIGKILL and restarted,
//! ends with topics whose latest record per key equals `emulator dump`, each table's records in
//! SCN order (so per key), and with transactions no record twice for a `read_committed`
//! consumer; the broker going away mid-snapshot and mid-stream is waited out.
//!
//! Without a `tansu` binary (PATH, ~/.cargo/bin or $TANSU_BIN) the tests print
//! "skipped: tansu not found" and pass, unless ORACLE_CDC_TEST_REQUIRE_KAFKA=1 (CI) makes that fail.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use oracle_cdc::kafka::consumer::Consumer;
use serde_json::{json, Value as Json};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const SCHEMA: &str = r#"
seed: 12
database:
  multitenant: true
tables:
  - name: PDB1.SHOP.ACCOUNTS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: OWNER, type: VARCHAR2(30) }
      - { name: BALANCE, type: "NUMBER(12,2)" }
      - { name: NOTE, type: VARCHAR2(100), null_pct: 20 }
    primary_key: [ID]
    supplemental_logging: all
    rows: 300
  - name: PDB1.SHOP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20) }
      - { name: AT, type: TIMESTAMP(6) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 300
"#;

const TABLES: [&str; 2] = ["PDB1.SHOP.ACCOUNTS", "PDB1.SHOP.ORDERS"];

fn tansu_bin() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TANSU_BIN") {
        return Some(PathBuf::from(p));
    }
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(Path::new(&home).join(".cargo/bin"));
    }
    dirs.into_iter()
        .map(|d| d.join("tansu"))
        .find(|p| p.is_file())
}

/// The tansu binary, or None when the test is to be skipped.
fn tansu_or_skip() -> Option<PathBuf> {
    match tansu_bin() {
        Some(p) => Some(p),
        None if std::env::var("ORACLE_CDC_TEST_REQUIRE_KAFKA").as_deref() == Ok("1") => {
            panic!("tansu not found and ORACLE_CDC_TEST_REQUIRE_KAFKA=1")
        }
        None => {
            eprintln!("skipped: tansu not found");
            None
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A tansu broker on a loopback port (killed when dropped).
struct Broker {
    bin: PathBuf,
    port: u16,
    advertised: u16,
    child: Option<Child>,
    log: PathBuf,
}

impl Broker {
    fn start(bin: &Path, dir: &Path) -> Broker {
        Broker::start_advertising(bin, dir, None)
    }

    /// A broker that tells clients to connect to `advertised` (a port in front of it).
    fn start_advertising(bin: &Path, dir: &Path, advertised: Option<u16>) -> Broker {
        Broker::start_on(bin, dir, free_port(), advertised)
    }

    fn start_on(bin: &Path, dir: &Path, port: u16, advertised: Option<u16>) -> Broker {
        let mut b = Broker {
            bin: bin.to_path_buf(),
            port,
            advertised: advertised.unwrap_or(port),
            child: None,
            log: dir.join("tansu.log"),
        };
        b.up();
        b
    }

    fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    fn up(&mut self) {
        let url = format!("tcp://127.0.0.1:{}", self.port);
        let advertised = format!("tcp://127.0.0.1:{}", self.advertised);
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .unwrap();
        let child = Command::new(&self.bin)
            .args([
                "broker",
                "--listener-url",
                &url,
                "--advertised-listener-url",
                &advertised,
                "--storage-engine",
                "memory://tansu/",
            ])
            .env_remove("STORAGE_ENGINE")
            .env("RUST_LOG", "warn")
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        self.child = Some(child);
        let started = Instant::now();
        loop {
            if oracle_cdc::kafka::client::Conn::connect(
                &self.addr(),
                "test",
                Duration::from_secs(2),
            )
            .is_ok()
            {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "tansu did not start: {}",
                std::fs::read_to_string(&self.log).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn down(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        self.down();
    }
}

/// A loopback TCP proxy in front of the broker that can be cut (every connection dropped, new
/// ones closed at once) and restored: the broker unreachable, without it losing anything.
struct Proxy {
    port: u16,
    up: Arc<AtomicBool>,
    live: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    /// Listen now; connections are forwarded to `upstream()` once it is known.
    fn start(listener: TcpListener, upstream: Arc<Mutex<String>>) -> Proxy {
        let port = listener.local_addr().unwrap().port();
        let up = Arc::new(AtomicBool::new(true));
        let live: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let (u, l) = (up.clone(), live.clone());
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                if !u.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let target = upstream.lock().unwrap().clone();
                let Ok(server) = TcpStream::connect(&target) else {
                    continue;
                };
                {
                    let mut live = l.lock().unwrap();
                    live.push(client.try_clone().unwrap());
                    live.push(server.try_clone().unwrap());
                }
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    std::thread::spawn(move || {
                        let mut buf = [0u8; 65536];
                        loop {
                            match from.read(&mut buf) {
                                Ok(0) | Err(_) => break,
                                Ok(n) => {
                                    if to.write_all(&buf[..n]).is_err() {
                                        break;
                                    }
                                }
                            }
                        }
                        let _ = to.shutdown(std::net::Shutdown::Both);
                    });
                }
            }
        });
        Proxy { port, up, live }
    }

    fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        for s in self.live.lock().unwrap().drain(..) {
            let _ = s.shutdown(std::net::Shutdown::Both);
        }
    }

    fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}

fn capture_args(db: &Path, state: &Path, brokers: &str, extra: &[String]) -> Vec<String> {
    let mut sets: Vec<String> = vec![
        format!("cdc.database.url=emulator:{}", db.display()),
        format!("cdc.state.dir={}", state.display()),
        "cdc.sink.type=kafka".into(),
        format!("cdc.sink.kafka.brokers={brokers}"),
        "cdc.snapshot.chunk.rows=40".into(),
        "cdc.snapshot.threads=2".into(),
        "cdc.stream.poll.ms=50".into(),
        "cdc.stream.window.scn=500".into(),
        "cdc.emulator.fault.read.delay.ms=20".into(),
        "cdc.sink.kafka.producer.retry.backoff.max.ms=500".into(),
        "cdc.sink.kafka.producer.request.timeout.ms=5000".into(),
    ];
    sets.extend(extra.iter().cloned());
    sets.into_iter()
        .flat_map(|s| ["--set".to_string(), s])
        .chain(["-q".to_string(), "capture".to_string()])
        .collect()
}

fn workload(db: &Path, transactions: u32, rate: u32, seed: u32) -> Child {
    Command::new(cargo_bin("oracle-cdc"))
        .args([
            "emulator",
            "workload",
            db.to_str().unwrap(),
            "--transactions",
            &transactions.to_string(),
            "--rate",
            &rate.to_string(),
            "--long-every",
            "40",
            "--long-span",
            "60",
            "--rollback-pct",
            "10",
            "--savepoint-pct",
            "10",
            "--key-update-pct",
            "10",
            "--seed",
            &seed.to_string(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn finish_workload(w: Child) {
    let w = w.wait_with_output().unwrap();
    assert!(
        w.status.success(),
        "workload: {}",
        String::from_utf8_lossy(&w.stderr)
    );
}

/// Run capture to `--stop-at-scn` (it must end by itself, successfully).
fn capture_to(args: &[String], end: u64) {
    let mut last = args.to_vec();
    last.extend(["--stop-at-scn".to_string(), end.to_string()]);
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&last)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "final capture: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Every record of a table's topic, as the file sink's JSON shape (topic, key, value, headers).
fn topic_records(brokers: &str, table: &str, committed: bool) -> Vec<Json> {
    let mut c = Consumer::new(&[brokers.to_string()], "test", Duration::from_secs(10));
    let topic = topic_of(table);
    c.read_topic(&topic, committed)
        .unwrap()
        .into_iter()
        .map(|r| {
            let text = |b: &Option<bytes::Bytes>| -> Json {
                b.as_ref()
                    .map(|b| serde_json::from_slice(b).unwrap())
                    .unwrap_or(Json::Null)
            };
            let headers: serde_json::Map<String, Json> = r
                .headers
                .iter()
                .map(|(k, v)| {
                    let v = v
                        .as_ref()
                        .map(|v| String::from_utf8_lossy(v).into_owned())
                        .unwrap_or_default();
                    (k.clone(), Json::String(v))
                })
                .collect();
            json!({"topic": r.topic, "key": text(&r.key), "value": text(&r.value), "headers": headers})
        })
        .collect()
}

/// The checks on what a consumer reads: the latest record per key equal to the table at `end`;
/// with `exactly_once` no record twice and each table in SCN order, else each key in order.
fn check_topics(db: &Path, brokers: &str, end: u64, exactly_once: bool) -> usize {
    let mut all = Vec::new();
    for table in TABLES {
        let recs = topic_records(brokers, table, true);
        assert!(!recs.is_empty(), "{table}: no records");
        // Headers: snapshot records say so, change records carry their source position.
        for r in &recs {
            match r["value"]["payload"]["op"].as_str() {
                Some("r") => assert!(r["headers"]["cdc.snapshot"].is_string(), "{r}"),
                _ => assert!(r["headers"]["cdc.commit_scn"].is_string(), "{r}"),
            }
        }
        if exactly_once {
            assert_scn_order(&recs);
        } else {
            // At least once: a restart re-sends what followed the stored offsets, so the
            // topic's SCN order starts over there; each key's new records still come in order.
            let mut by_key: std::collections::BTreeMap<String, Vec<Json>> = Default::default();
            for r in &recs {
                by_key
                    .entry(r["key"]["payload"].to_string())
                    .or_default()
                    .push(r.clone());
            }
            for recs in by_key.values() {
                per_key_order(recs);
            }
        }
        assert_converges(db, &recs, table, end);
        all.extend(recs);
    }
    if exactly_once {
        assert_exactly_once(&all);
    }
    all.len()
}

fn kill_restart_cycle(args: &[String], pauses: &[u64]) -> u32 {
    let mut kills = 0;
    for ms in pauses {
        let mut c = Command::new(cargo_bin("oracle-cdc"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(*ms));
        if c.try_wait().unwrap().is_none() {
            c.kill().unwrap();
            kills += 1;
        }
        c.wait().unwrap();
    }
    kills
}

#[test]
fn kill_9_under_a_live_workload_converges_with_every_key_in_order() {
    let Some(bin) = tansu_or_skip() else { return };
    let e = emulated(SCHEMA);
    let broker = Broker::start(&bin, e.dir.path());
    let args = capture_args(&e.db, &e.state, &broker.addr(), &[]);
    let w = workload(&e.db, 800, 300, 4);
    let kills = kill_restart_cycle(&args, &[1500, 1200, 900, 1800]);
    assert!(kills >= 3, "capture exited by itself");
    finish_workload(w);
    let end = current_scn(&e.db);
    capture_to(&args, end);
    let n = check_topics(&e.db, &broker.addr(), end, false);
    assert!(n > 600, "{n} records");
    // What the offsets acknowledge is in Kafka: the records counted there are all in the topics
    // (re-sent ones counted again), and heartbeats and ops events have their own topics.
    let local: Json =
        serde_json::from_slice(&std::fs::read(e.state.join("offsets.json")).unwrap()).unwrap();
    assert_eq!(local["sink"]["segment"], "kafka");
    assert!(local["sink"]["records"].as_u64().unwrap() as usize <= n);
    let mut c = Consumer::new(&[broker.addr()], "test", Duration::from_secs(10));
    let ops = c.read_topic("oracle-cdc.ops", false).unwrap();
    let started = ops
        .iter()
        .filter(|r| r.key.as_deref() == Some(&b"\"capture-started\""[..]))
        .count();
    // Forwarded with each commit: a run killed before its first commit forwards none.
    assert!(
        started >= 1,
        "{started} capture-started events on the ops topic"
    );
}

#[test]
fn transactions_are_refused_by_a_broker_without_end_txn() {
    let Some(bin) = tansu_or_skip() else { return };
    let e = emulated(SCHEMA);
    let broker = Broker::start(&bin, e.dir.path());
    let args = capture_args(
        &e.db,
        &e.state,
        &broker.addr(),
        &["cdc.sink.kafka.transactional.id=cdc-test".into()],
    );
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("CDC-6204") && err.contains("EndTxn"), "{err}");
    // Refused before anything was produced.
    let mut c = Consumer::new(&[broker.addr()], "test", Duration::from_secs(10));
    let topics = c.metadata(None).unwrap();
    assert!(
        !topics.keys().any(|t| t.starts_with("oracle-cdc.PDB1")),
        "{topics:?}"
    );
}

#[test]
fn idempotent_producer_converges_across_kills_at_least_once() {
    let Some(bin) = tansu_or_skip() else { return };
    let e = emulated(SCHEMA);
    let broker = Broker::start(&bin, e.dir.path());
    let args = capture_args(
        &e.db,
        &e.state,
        &broker.addr(),
        &[
            "cdc.sink.kafka.topic.partitions=3".into(),
            "cdc.sink.kafka.compression=zstd".into(),
        ],
    );
    let w = workload(&e.db, 400, 300, 7);
    let kills = kill_restart_cycle(&args, &[1200, 1500]);
    assert!(kills >= 1, "capture exited by itself");
    finish_workload(w);
    let end = current_scn(&e.db);
    capture_to(&args, end);
    // Three partitions: order holds per partition, so per key.
    for table in TABLES {
        let recs = topic_records(&broker.addr(), table, false);
        let mut by_key: std::collections::BTreeMap<String, Vec<Json>> = Default::default();
        for r in &recs {
            by_key
                .entry(r["key"]["payload"].to_string())
                .or_default()
                .push(r.clone());
        }
        for recs in by_key.values() {
            per_key_order(recs);
        }
        assert_converges(&e.db, &recs, table, end);
    }
}

/// One key's records in order: each record not seen before comes after every earlier new one
/// (a change committed at c at 2c, a snapshot read at s at 2s-1); a restart may only re-send
/// records already delivered (at least once), never deliver an older one late.
fn per_key_order(recs: &[Json]) {
    let mut seen = std::collections::HashSet::new();
    let mut max = 0u64;
    for r in recs.iter().filter(|r| is_change(r)) {
        let src = &r["value"]["payload"]["source"];
        let num = |k: &str| src[k].as_str().and_then(|s| s.parse::<u64>().ok());
        let pos = match num("commit_scn") {
            Some(c) => 2 * c,
            None => 2 * num("scn").unwrap_or(0) - 1,
        };
        let id = format!(
            "{}|{}|{}|{}",
            r["value"]["payload"]["op"], src["scn"], src["txId"], src["rs_id"]
        );
        if !seen.insert(id) {
            continue;
        }
        // An idle emulator's current SCN is its last commit's: a chunk read at it may follow.
        assert!(pos + 1 >= max, "{} at {pos} after {max}: {r}", r["key"]);
        max = max.max(pos);
    }
}

#[test]
fn a_broker_outage_mid_snapshot_and_mid_stream_is_waited_out() {
    let Some(bin) = tansu_or_skip() else { return };
    let e = emulated(SCHEMA);
    // Clients reach the broker only through the proxy: it is what the broker advertises.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let front = listener.local_addr().unwrap().port();
    let upstream = Arc::new(Mutex::new(String::new()));
    let proxy = Proxy::start(listener, upstream.clone());
    let broker = Broker::start_advertising(&bin, e.dir.path(), Some(front));
    *upstream.lock().unwrap() = broker.addr();
    let args = capture_args(
        &e.db,
        &e.state,
        &proxy.addr(),
        &["cdc.emulator.fault.read.delay.ms=60".into()],
    );
    let mut c = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Mid-snapshot: the broker goes away for a while.
    wait_for_event(&e.state, 60, "snapshotting", |ev| {
        ev["event"] == "capture-state" && ev["state"] == "snapshotting"
    });
    std::thread::sleep(Duration::from_millis(400));
    proxy.cut();
    wait_for_event(&e.state, 30, "paused-for-flow-control", |ev| {
        ev["event"] == "capture-state" && ev["state"] == "paused-for-flow-control"
    });
    std::thread::sleep(Duration::from_millis(1500));
    assert!(c.try_wait().unwrap().is_none(), "capture ended");
    proxy.restore();
    // Mid-stream, with a workload running.
    wait_for_event(&e.state, 120, "snapshot done", |ev| {
        ev["event"] == "snapshot-complete"
    });
    proxy.cut();
    let w = workload(&e.db, 300, 200, 9);
    let paused =
        |ev: &Json| ev["event"] == "capture-state" && ev["state"] == "paused-for-flow-control";
    let started = Instant::now();
    while events(&e.state).iter().filter(|ev| paused(ev)).count() < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no flow-control pause mid-stream"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(1500));
    assert!(c.try_wait().unwrap().is_none(), "capture ended");
    proxy.restore();
    finish_workload(w);
    let end = current_scn(&e.db);
    // Capture catches up by itself after the outages.
    wait_until_published(&e.state, &mut c, end);
    let pauses = events(&e.state)
        .iter()
        .filter(|ev| ev["event"] == "capture-state" && ev["state"] == "paused-for-flow-control")
        .count();
    assert!(
        pauses >= 2,
        "{pauses} flow-control pauses: {:#?}",
        events(&e.state)
            .iter()
            .filter(|ev| ev["event"] == "capture-state")
            .collect::<Vec<_>>()
    );
    // A graceful stop: everything published is acknowledged, so no restart re-sends anything,
    // and requests retried across the outages were not written twice (idempotent producer).
    let term = Command::new("kill")
        .args(["-TERM", &c.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let o = c.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    check_topics(&e.db, &broker.addr(), end, true);
}

/// Wait until capture (still running) stored a stream position past `end`.
fn wait_until_published(state: &Path, c: &mut Child, end: u64) {
    let started = Instant::now();
    loop {
        let offsets: Json =
            serde_json::from_slice(&std::fs::read(state.join("offsets.json")).unwrap()).unwrap();
        if offsets["stream"]["resume_scn"].as_u64().unwrap_or(0) > end {
            return;
        }
        assert!(c.try_wait().unwrap().is_none(), "capture ended");
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "capture did not catch up"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_broker_restart_mid_stream_is_survived() {
    let Some(bin) = tansu_or_skip() else { return };
    let e = emulated(SCHEMA);
    let mut broker = Broker::start(&bin, e.dir.path());
    let args = capture_args(&e.db, &e.state, &broker.addr(), &[]);
    let mut c = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_event(&e.state, 120, "snapshot done", |ev| {
        ev["event"] == "snapshot-complete"
    });
    // tansu's memory storage forgets everything on a restart: capture must wait for the broker,
    // take a new producer id, recreate its topics and go on with what follows. The broker goes
    // down while capture is streaming, and the workload gives it changes to publish meanwhile.
    broker.down();
    let w = workload(&e.db, 300, 200, 11);
    wait_for_event(&e.state, 30, "paused-for-flow-control", |ev| {
        ev["event"] == "capture-state" && ev["state"] == "paused-for-flow-control"
    });
    std::thread::sleep(Duration::from_millis(1000));
    assert!(c.try_wait().unwrap().is_none(), "capture ended");
    broker.up();
    finish_workload(w);
    let end = current_scn(&e.db);
    // Everything committed up to `end` reaches the restarted broker (those after the restart).
    wait_until_published(&e.state, &mut c, end);
    c.kill().unwrap();
    c.wait().unwrap();
    let after: usize = TABLES
        .iter()
        .map(|t| topic_records(&broker.addr(), t, false).len())
        .sum();
    assert!(after > 0, "nothing delivered after the broker restart");
}

#[test]
fn produced_records_read_back_from_every_partition() {
    let Some(bin) = tansu_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let broker = Broker::start(&bin, dir.path());
    let s = oracle_cdc::settings::Settings::from_pairs(&[
        "cdc.sink.type=kafka".to_string(),
        format!("cdc.sink.kafka.brokers={}", broker.addr()),
        "cdc.sink.kafka.topic.partitions=3".to_string(),
    ])
    .unwrap();
    let mut p = oracle_cdc::kafka::producer::Producer::connect(&s.sink.kafka).unwrap();
    let mut sent = std::collections::BTreeMap::new();
    for i in 0..300u32 {
        let key = format!("{{\"ID\":{}}}", i % 50);
        let value = format!("{{\"n\":{i}}}");
        sent.insert(key.clone(), value.clone());
        p.send(
            "t1",
            oracle_cdc::kafka::producer::Rec {
                key: Some(key.into()),
                value: Some(value.into()),
                headers: vec![("h".into(), "v".into())],
                timestamp: 1_700_000_000_000 + i as i64,
            },
        )
        .unwrap();
        if i % 37 == 0 {
            p.flush().unwrap();
        }
    }
    p.flush().unwrap();
    let mut c = Consumer::new(&[broker.addr()], "test", Duration::from_secs(10));
    let got = c.read_topic("t1", false).unwrap();
    assert_eq!(
        got.len(),
        300,
        "{:?}",
        std::fs::read_to_string(dir.path().join("tansu.log"))
    );
    let mut latest = std::collections::BTreeMap::new();
    for r in &got {
        let k = String::from_utf8(r.key.as_ref().unwrap().to_vec()).unwrap();
        let n = oracle_cdc::kafka::partition_for(k.as_bytes(), 3) as i32;
        assert_eq!(r.partition, n, "{k}");
        latest.insert(
            k,
            String::from_utf8(r.value.as_ref().unwrap().to_vec()).unwrap(),
        );
        assert_eq!(r.header("h").as_deref(), Some("v"));
    }
    assert_eq!(latest, sent);
}

/// A transaction that cannot be decoded, with `cdc.on.decode.error=dlq`: its dead letter is on
/// the DLQ topic (and in STATE/dlq.jsonl), the transactions around it on the table's topic.
#[test]
fn an_undecodable_transaction_goes_to_the_dlq_topic() {
    let Some(bin) = tansu_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("export");
    std::fs::create_dir_all(&export).unwrap();
    std::fs::write(
        export.join("schema.yaml"),
        "tables:\n  - name: APP.OTHER\n    columns:\n      - { name: K, type: NUMBER(10), nullable: false }\n    primary_key: [K]\n",
    )
    .unwrap();
    // Three transactions; the second one's INSERT is cut off mid-statement.
    let tx = |xid: &str, scn: u64, k: &str| {
        format!(
            "6,,{scn},\"{xid}\",,,\n1,\"insert into \"\"APP\"\".\"\"OTHER\"\"(\"\"K\"\") values ({k}\",{},\"{xid}\",\"OTHER\",\"APP\",\n7,,{},\"{xid}\",,,{}\n",
            scn + 1,
            scn + 2,
            scn + 2
        )
    };
    let export_csv = format!(
        "\"OPERATION_CODE\",\"SQL_REDO\",\"SCN\",\"XID\",\"TABLE_NAME\",\"SEG_OWNER\",\"COMMIT_SCN\"\n{}{}{}",
        tx("0a00010001000000", 10, "'1');"),
        tx("0a00020001000000", 20, "'2"),
        tx("0a00030001000000", 30, "'3');"),
    );
    std::fs::write(export.join("logmnr.csv"), export_csv).unwrap();
    let broker = Broker::start(&bin, dir.path());
    let state = dir.path().join("state");
    let args: Vec<String> = [
        format!("cdc.database.url=replay:{}", export.display()),
        format!("cdc.state.dir={}", state.display()),
        "cdc.snapshot.mode=none".into(),
        "cdc.on.decode.error=dlq".into(),
        "cdc.sink.type=kafka".into(),
        format!("cdc.sink.kafka.brokers={}", broker.addr()),
        "cdc.sink.kafka.topic.dlq=test-dead-letters".into(),
        "cdc.stream.poll.ms=10".into(),
    ]
    .into_iter()
    .flat_map(|s| ["--set".to_string(), s])
    .chain(["-q", "capture", "--stop-at-scn", "32"].map(String::from))
    .collect();
    let o = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let recs = topic_records(&broker.addr(), "APP.OTHER", false);
    let keys: Vec<&Json> = recs.iter().map(|r| &r["key"]["payload"]["K"]).collect();
    assert_eq!(keys, [&json!(1), &json!(3)], "{recs:#?}");
    let mut c = Consumer::new(&[broker.addr()], "test", Duration::from_secs(10));
    let letters = c.read_topic("test-dead-letters", false).unwrap();
    assert_eq!(letters.len(), 1);
    let value: Json = serde_json::from_slice(letters[0].value.as_ref().unwrap()).unwrap();
    assert_eq!(value["xid"], "0a00020001000000");
    assert_eq!(value["commit_scn"], 22);
    assert_eq!(value["code"], "CDC-3002");
    let file = std::fs::read_to_string(state.join("dlq.jsonl")).unwrap();
    assert_eq!(file.lines().count(), 1, "{file}");
}

/// No broker when capture starts: it waits in `paused-for-flow-control` (not `starting`), and
/// goes on once the broker is up.
#[test]
fn a_broker_down_at_start_is_reported_as_flow_control_and_waited_for() {
    let Some(bin) = tansu_or_skip() else { return };
    let e = emulated(SCHEMA);
    let port = free_port();
    let brokers = format!("127.0.0.1:{port}");
    let args = capture_args(&e.db, &e.state, &brokers, &[]);
    let mut c = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let paused = wait_for_event(&e.state, 30, "paused-for-flow-control", |ev| {
        ev["event"] == "capture-state" && ev["state"] == "paused-for-flow-control"
    });
    assert!(paused["reason"].is_string(), "{paused}");
    assert!(c.try_wait().unwrap().is_none(), "capture ended");
    let _broker = Broker::start_on(&bin, e.dir.path(), port, None);
    wait_for_event(&e.state, 120, "snapshot done", |ev| {
        ev["event"] == "snapshot-complete"
    });
    c.kill().unwrap();
    c.wait().unwrap();
    let delivered: usize = TABLES
        .iter()
        .map(|t| topic_records(&brokers, t, false).len())
        .sum();
    assert!(delivered > 0, "nothing delivered once the broker was up");
}

/// A stop during a broker outage mid-stream (issue 36 item 10): capture ends at once as a stop
/// (exit 0; the delivery timeout is the default 120 s, past the watchdog), the offsets still
/// name exactly what the broker had acknowledged before the outage, and the next run, with
/// the broker back, delivers the rest: every table converges, each key in order.
#[test]
fn a_stop_during_a_broker_outage_keeps_what_was_acknowledged() {
    let Some(bin) = tansu_or_skip() else { return };
    let e = emulated(SCHEMA);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let front = listener.local_addr().unwrap().port();
    let upstream = Arc::new(Mutex::new(String::new()));
    let proxy = Proxy::start(listener, upstream.clone());
    let broker = Broker::start_advertising(&bin, e.dir.path(), Some(front));
    *upstream.lock().unwrap() = broker.addr();
    let args = capture_args(&e.db, &e.state, &proxy.addr(), &[]);
    let mut c = Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_event(&e.state, 120, "snapshot done", |ev| {
        ev["event"] == "snapshot-complete"
    });
    let paused =
        |ev: &Json| ev["event"] == "capture-state" && ev["state"] == "paused-for-flow-control";
    let pauses_before = events(&e.state).iter().filter(|ev| paused(ev)).count();
    proxy.cut();
    let w = workload(&e.db, 200, 200, 4);
    let started = Instant::now();
    while events(&e.state).iter().filter(|ev| paused(ev)).count() <= pauses_before {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no flow-control pause in the outage"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let stored = |what: &str| -> Json {
        let o: Json =
            serde_json::from_slice(&std::fs::read(e.state.join("offsets.json")).unwrap()).unwrap();
        o[what].clone()
    };
    let acknowledged = stored("sink");
    assert!(
        acknowledged["records"].as_u64().unwrap_or(0) > 0,
        "{acknowledged}"
    );
    // SAFETY: kill has no memory-safety preconditions; the pid is our child's.
    unsafe { libc::kill(c.id() as i32, libc::SIGTERM) };
    let st = wait_at_most(&mut c, 90, "capture stopped in a broker outage");
    let mut err = String::new();
    c.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(st.code(), Some(0), "{err}");
    assert_eq!(
        stored("sink"),
        acknowledged,
        "the stored sink position moved"
    );
    proxy.restore();
    finish_workload(w);
    let end = current_scn(&e.db);
    capture_to(&args, end);
    check_topics(&e.db, &broker.addr(), end, false);
}

/// `doctor --check sink.kafka`: against the running broker it PASSes, naming the broker that
/// answered and the transactional id's coordinator (that it asks for no producer id, which
/// would fence a capture running with the id, is the scripted broker's test: tansu has no
/// transactions); against a port nothing listens on it FAILs with CDC-6202 and the settings to
/// fix, exit 1.
#[test]
fn doctor_checks_the_kafka_brokers() {
    let Some(bin) = tansu_or_skip() else { return };
    let e = emulated(SCHEMA);
    let broker = Broker::start(&bin, e.dir.path());
    let doctor = |brokers: &str| {
        let out = Command::new(cargo_bin("oracle-cdc"))
            .args([
                "--set",
                &format!("cdc.database.url=emulator:{}", e.db.display()),
                "--set",
                &format!("cdc.state.dir={}", e.state.display()),
                "--set",
                "cdc.sink.type=kafka",
                "--set",
                &format!("cdc.sink.kafka.brokers={brokers}"),
                "--set",
                "cdc.sink.kafka.transactional.id=doctor-tx",
                "--set",
                "cdc.sink.kafka.producer.request.timeout.ms=5000",
                "doctor",
                "--check",
                "sink.kafka",
                "--format",
                "json",
            ])
            .output()
            .unwrap();
        let v: Json = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|err| panic!("{err}: {}", String::from_utf8_lossy(&out.stdout)));
        (out.status.code(), v["checks"][0].clone())
    };
    let (code, check) = doctor(&broker.addr());
    assert_eq!(code, Some(0), "{check}");
    assert_eq!(check["id"], "sink.kafka");
    assert_eq!(check["severity"], "PASS", "{check}");
    let found = check["found"].as_str().unwrap();
    assert!(found.contains(&broker.addr()), "{found}");
    assert!(found.contains("over PLAINTEXT"), "{found}");
    assert!(
        found.contains("transactional id doctor-tx: coordinator"),
        "{found}"
    );

    let closed = format!("127.0.0.1:{}", free_port());
    let (code, check) = doctor(&closed);
    assert_eq!(code, Some(1), "{check}");
    assert_eq!(check["severity"], "FAIL", "{check}");
    let found = check["found"].as_str().unwrap();
    assert!(found.contains("CDC-6202"), "{found}");
    assert!(
        check["fix"]
            .as_str()
            .unwrap()
            .contains("cdc.sink.kafka.brokers"),
        "{check}"
    );
}

/// `doctor --check sink.kafka.topics` against tansu: it names every topic capture writes (the
/// tables', the ops and offsets topics), asks tansu about them and validates the creation of
/// the missing ones, and creates none (the topics tansu lists are the same before and after).
/// Tansu 0.6 does not compute authorized operations (i32::MIN for topics, -1 for the cluster)
/// and creates the topics a CreateTopics with validate_only names: doctor asks it no
/// CreateTopics, and its PASS says that neither WRITE nor creation was checked rather than
/// vouching for them.
#[test]
fn doctor_checks_the_topics_capture_writes_and_creates_none() {
    let Some(bin) = tansu_or_skip() else { return };
    let e = emulated(SCHEMA);
    let broker = Broker::start(&bin, e.dir.path());
    // One topic that exists already: the ops topic.
    let ops_topic = "oracle-cdc.ops";
    {
        let s = oracle_cdc::settings::Settings::from_pairs(&[
            "cdc.sink.type=kafka".to_string(),
            format!("cdc.sink.kafka.brokers={}", broker.addr()),
        ])
        .unwrap();
        assert_eq!(s.sink.kafka.topic_ops, ops_topic);
        let mut p = oracle_cdc::kafka::producer::Producer::connect(&s.sink.kafka).unwrap();
        assert_eq!(p.partitions(ops_topic).unwrap(), 1);
    }
    let topics = || {
        let mut c = Consumer::new(&[broker.addr()], "test", Duration::from_secs(10));
        c.metadata(None)
            .unwrap()
            .into_keys()
            .collect::<Vec<String>>()
    };
    let before = topics();
    assert_eq!(before, vec![ops_topic.to_string()]);
    let out = Command::new(cargo_bin("oracle-cdc"))
        .args([
            "--set",
            &format!("cdc.database.url=emulator:{}", e.db.display()),
            "--set",
            &format!("cdc.state.dir={}", e.state.display()),
            "--set",
            "cdc.sink.type=kafka",
            "--set",
            &format!("cdc.sink.kafka.brokers={}", broker.addr()),
            "--set",
            "cdc.sink.kafka.transactional.id=doctor-tx",
            "--set",
            "cdc.sink.kafka.producer.request.timeout.ms=5000",
            "doctor",
            "--check",
            "sink.kafka.topics",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let v: Json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|err| panic!("{err}: {}", String::from_utf8_lossy(&out.stdout)));
    let check = &v["checks"][0];
    assert_eq!(out.status.code(), Some(0), "{check}");
    assert_eq!(check["id"], "sink.kafka.topics");
    assert_eq!(check["severity"], "PASS", "{check}");
    let found = check["found"].as_str().unwrap();
    // The tables' topics (one PDB: without it), the schema change, ops and offsets topics.
    assert!(
        found.starts_with("5 topic(s) capture writes: 1 exist, 0 will be created (validated), 4 missing (creation not validated);"),
        "{found}"
    );
    // Honest about what tansu does not tell: no ACLs vouched for, no creation validated
    // (tansu creates the topics a validate-only CreateTopics names, so none is sent).
    assert!(
        found.contains(&format!(
            "the broker did not report the principal's authorized operations: WRITE on {ops_topic} was not checked"
        )),
        "{found}"
    );
    assert!(
        found.contains("creating oracle-cdc.SHOP.ACCOUNTS, oracle-cdc.SHOP.ORDERS, oracle-cdc, oracle-cdc.offsets was not validated: the broker does not report authorized operations as Kafka does (KIP-430)"),
        "{found}"
    );
    assert_eq!(topics(), before, "doctor created a topic: {found}");
}
