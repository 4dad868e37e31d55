//! The cost of a busy uncaptured schema, with and without the mining filter: one window over an
//! emulated database whose captured table takes the workload while another user's schema is
//! five times as busy (and SYS writes its dictionary), mined → transaction buffer → decode →
//! records → capture's JSONL file sink, as the publisher does. Three cases:
//! - `quiet`: the same workload on the captured table, no other schema, no SYS activity;
//! - `busy, unfiltered`: V$LOGMNR_CONTENTS as an SCN range only (the query before the filter);
//! - `busy, filtered`: with capture's mining filter (`capture::filter`).
//!
//! Each case is timed twice: `mine` (the emulator renders the rows the query returns, as
//! LogMiner builds them on a real database, and evaluates the filter on every redo record) and
//! `mine and capture` (the same, then capture's whole path); the difference is capture's own
//! cost. Timed in CPU time (`support/clock.rs`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oracle_cdc::capture::records::TxRecordWriter;
use oracle_cdc::names::TableName;
use oracle_cdc::sink::{FileSink, RecordSink};
use oracle_cdc::source::emulator::workload::{Workload, WorkloadOptions};
use oracle_cdc::source::emulator::writer::Writer;
use oracle_cdc::source::emulator::{clock, init, EmulatorConnector, Faults};
use oracle_cdc::source::model::LogMinerRow;
use oracle_cdc::source::{MiningFilter, Session};
use oracle_cdc::stream::buffer::TxBuffer;
use oracle_cdc::stream::decode::{Catalog, Decoder, Event, TableSchema};
use std::time::Duration;

#[allow(dead_code)]
#[path = "support/clock.rs"]
mod bench_clock;

const TRANSACTIONS: u64 = 2_000;

fn schema(busy: bool) -> String {
    let (background, batch) = if busy {
        ("{ sys_every: 4, internal_ddl_every: 50 }", 5)
    } else {
        ("{ sys_every: 0, internal_ddl_every: 0 }", 0)
    };
    format!(
        r#"
seed: 1
database:
  workload_user: APP
  background: {background}
tables:
  - name: APP.ORDERS
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: CUSTOMER, type: VARCHAR2(40) }}
      - {{ name: AMOUNT, type: "NUMBER(10,2)" }}
      - {{ name: PLACED, type: DATE }}
    primary_key: [ID]
    supplemental_logging: all
    rows: 1000
  - name: BATCH.JOBS
    columns:
      - {{ name: ID, type: NUMBER(12), nullable: false }}
      - {{ name: STATE, type: VARCHAR2(10), generate: {{ choice: [queued, running, done] }} }}
      - {{ name: PAYLOAD, type: VARCHAR2(200) }}
    primary_key: [ID]
    background_transactions: {batch}
    rows: 1000
"#
    )
}

/// A database made from `schema(busy)` with the workload run on APP.ORDERS; its directory and
/// the SCN range to mine.
fn database(busy: bool) -> (tempfile::TempDir, EmulatorConnector, u64, u64) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("schema.yaml");
    std::fs::write(&path, schema(busy)).expect("schema");
    let db = dir.path().join("db");
    let start = init(&db, &path, None, clock::system()).expect("init").scn + 1;
    let mut w = Writer::open(&db, clock::system(), false).expect("writer");
    let o = WorkloadOptions {
        transactions: Some(TRANSACTIONS),
        rate: 0,
        key_update_pct: 0,
        row_move_pct: 0,
        long_every: 0,
        shared_commit_pct: 0,
        tables: vec!["APP.ORDERS".parse().expect("name")],
        seed: 9,
        lob_pct: 0,
        ..WorkloadOptions::default()
    };
    let end = Workload::new(&mut w, o)
        .expect("workload")
        .run(&|| false)
        .expect("run")
        .last_scn;
    drop(w);
    let conn = EmulatorConnector::open(&db, Faults::default()).expect("open");
    (dir, conn, start, end)
}

fn catalog(s: &mut dyn Session) -> Catalog {
    let table: TableName = "APP.ORDERS".parse().expect("name");
    let info = s
        .tables()
        .expect("tables")
        .into_iter()
        .find(|t| t.name == table)
        .expect("ORDERS");
    let mut c = Catalog::default();
    c.tables.insert(
        table.clone(),
        TableSchema {
            name: table,
            history: vec![(0, info.columns)],
            key: vec!["ID".into()],
            excluded: Vec::new(),
        },
    );
    c
}

/// One window's rows as the session returns them.
fn mine(s: &mut dyn Session, (start, end): (u64, u64), filter: &MiningFilter) -> Vec<LogMinerRow> {
    let mut rows = Vec::new();
    s.mine(start, end, filter, &mut |r| {
        rows.push(r);
        Ok(())
    })
    .expect("mine");
    rows
}

/// One window, mined → buffer → decode → records → sink; returns (rows mined, events).
fn run(
    s: &mut dyn Session,
    range: (u64, u64),
    filter: &MiningFilter,
    catalog: &Catalog,
    dir: &std::path::Path,
) -> (u64, u64) {
    let rows = mine(s, range, filter);
    let mined = rows.len() as u64;
    let schema = catalog.tables.values().next().expect("table");
    let fmt = oracle_cdc::record::format::Format::default();
    let mut buffer = TxBuffer::default();
    let mut sink = FileSink::open(dir, u64::MAX, None).expect("sink");
    let mut events = 0u64;
    for row in rows {
        let Some(mut tx) = buffer.push(row).expect("push") else {
            continue;
        };
        let mut decoder = Decoder::new(&mut tx);
        let mut records = TxRecordWriter::new("bench", "BENCH", &tx, 0, &fmt, false);
        while let Some(event) = decoder.next_event(catalog) {
            let Event::Change(change) = event.expect("decode") else {
                continue;
            };
            for record in records.records(schema, &change) {
                sink.write(&record).expect("write");
                events += 1;
            }
        }
    }
    sink.commit().expect("commit");
    (mined, events)
}

/// A case's name, its session, its SCN range and its filter.
type Case<'a> = (&'a str, &'a mut dyn Session, (u64, u64), &'a MiningFilter);

fn bench(c: &mut Criterion) {
    let settings =
        oracle_cdc::settings::Settings::from_pairs(&["cdc.tables.include=APP.*"]).expect("set");
    let filtered = oracle_cdc::capture::filter::mining_filter(&settings, false);
    let unfiltered = MiningFilter::default();
    let (_quiet_dir, quiet, qs, qe) = database(false);
    let (_busy_dir, busy, bs, be) = database(true);
    let mut quiet_s = quiet.emulator_session().expect("session");
    let mut busy_s = busy.emulator_session().expect("session");
    let cat = catalog(&mut busy_s);
    let fresh = || tempfile::tempdir().expect("tempdir");
    let cases: [Case; 3] = [
        ("quiet", &mut quiet_s, (qs, qe), &filtered),
        ("busy, unfiltered", &mut busy_s, (bs, be), &unfiltered),
        (
            "busy, filtered",
            &mut busy.emulator_session().expect("session"),
            (bs, be),
            &filtered,
        ),
    ];
    let mut g = c.benchmark_group("filter");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    let clock = bench_clock::Clock::from_env();
    for (name, s, range, filter) in cases {
        let (mined, events) = run(s, range, filter, &cat, fresh().path());
        eprintln!("filter/{name}: {mined} rows mined, {events} events");
        g.throughput(Throughput::Elements(events));
        g.bench_function(format!("{name}: mine ({} time)", clock.name()), |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| clock.once(|| (), |()| mine(s, range, filter)))
                    .sum()
            })
        });
        g.bench_function(
            format!("{name}: mine and capture ({} time)", clock.name()),
            |b| {
                b.iter_custom(|iters| {
                    (0..iters)
                        .map(|_| {
                            clock.once(fresh, |dir| {
                                run(s, range, filter, &cat, dir.path());
                                dir
                            })
                        })
                        .sum()
                })
            },
        );
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
