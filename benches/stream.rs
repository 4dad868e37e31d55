//! Stream path on one core: V$LOGMNR_CONTENTS rows of committed transactions (SQL_REDO rendered
//! by the emulator's renderer) → transaction buffer → decode (parse + typed images) → change
//! records → a JSONL file, in events/s. Goal: ≥ 1,000,000 events/s (issue 23; 500,000 in issue 10,
//! when a record was a quarter of today's bytes: Debezium's default JsonConverter schemas make it
//! 3.8 KB). Timed in CPU time by default (see `support/clock.rs`): the rate on one core. A delete
//! is followed by its tombstone, so 100,000 events are 110,000 record lines.
//!
//! The records are written as capture writes them (`capture::records::TxRecordWriter`), into
//! capture's file sink.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oracle_cdc::sink::segment_name;
use std::io::Write;
use std::time::Duration;

// Shared by the benches; each uses part of it.
#[allow(dead_code)]
#[path = "support/clock.rs"]
mod bench_clock;

#[allow(dead_code)]
#[path = "support/stream_input.rs"]
mod input;

/// Transactions of `input::CHANGES` changes each.
const TXS: u64 = 10_000;
const EVENTS: u64 = TXS * input::CHANGES;

/// The same bytes through a plain buffered writer, line by line, synced once: the floor any
/// writer of these records pays (the kernel's copy of ~420 MB into the page cache).
fn plain_write(bytes: &[u8], dir: &std::path::Path) {
    let f = std::fs::File::create(dir.join("plain")).expect("create");
    let mut w = std::io::BufWriter::with_capacity(1 << 16, f);
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        w.write_all(line).expect("write");
    }
    let f = w.into_inner().expect("flush");
    f.sync_data().expect("sync");
}

/// `ORACLE_CDC_BENCH_BIG_TX=N`: one transaction of N changes through capture's default buffer
/// (256 MiB in memory, the rest spilled), decode and records into a counting sink, timed on
/// the wall clock and in CPU time; `benches/scale.sh` runs it under `/usr/bin/time` for the
/// peak RSS. Prints `changes events lines bytes wall_s cpu_s generator_cpu_s`: the rows are
/// made (their SQL_REDO rendered) as the buffer takes them, inside the clock, so the generator
/// alone is timed first and its CPU time printed too; the path's own is the difference.
fn big_transaction(changes: u64) {
    let generator = bench_clock::Clock::Cpu.once(
        || (),
        |()| {
            input::one_transaction(changes)
                .map(|row| std::hint::black_box(row).sql_redo.len() as u64)
                .sum::<u64>()
        },
    );
    let catalog = input::catalog(false);
    let fmt = oracle_cdc::record::format::Format::default();
    let limit = std::env::var("ORACLE_CDC_STREAM_BUFFER_MEMORY_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(268_435_456);
    let dir = tempfile::tempdir().expect("tempdir");
    let mut sink = input::Counting::default();
    let cpu = bench_clock::Clock::Cpu;
    let wall = std::time::Instant::now();
    let mut written = None;
    let took = cpu.once(
        || (),
        |()| {
            written = Some(input::run_buffered(
                input::one_transaction(changes),
                &catalog,
                &fmt,
                limit,
                &dir.path().join("spill"),
                &mut sink,
            ))
        },
    );
    let w = written.expect("ran");
    assert_eq!(w.events, changes, "every change is one event");
    println!(
        "{changes} {} {} {} {:.3} {:.3} {:.3}",
        w.events,
        w.lines,
        sink.bytes,
        wall.elapsed().as_secs_f64(),
        took.as_secs_f64(),
        generator.as_secs_f64()
    );
}

fn bench(c: &mut Criterion) {
    if let Some(n) = std::env::var("ORACLE_CDC_BENCH_BIG_TX")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        return big_transaction(n);
    }
    let catalog = input::catalog(false);
    let rows = input::mined(TXS, false);
    // For profilers (`perf stat`, callgrind): run the path n times, without criterion
    // (`ORACLE_CDC_BENCH_SCHEMAS=off` for the schemas-off records).
    if let Some(n) = bench_clock::repeat() {
        let schemas = std::env::var("ORACLE_CDC_BENCH_SCHEMAS").as_deref() != Ok("off");
        let fmt = format(schemas);
        for _ in 0..n {
            let dir = tempfile::tempdir().expect("tempdir");
            input::run(rows.clone(), &catalog, &fmt, dir.path());
        }
        return;
    }
    let mut g = c.benchmark_group("stream");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(15))
        .throughput(Throughput::Elements(EVENTS));
    let clock = bench_clock::Clock::from_env();
    // Debezium's default records (JsonConverter schemas in every line, 3.8 KB), then the same
    // records with `cdc.{key,value}.converter.schemas.enable=false` (0.5 KB): what a consumer
    // with a schema registry, or none, is sent.
    for (schemas, suffix) in [(true, ""), (false, ", schemas off")] {
        let fmt = format(schemas);
        let run = |rows, dir: &std::path::Path| input::run(rows, &catalog, &fmt, dir).events;
        let fresh = || tempfile::tempdir().expect("tempdir");
        let first = fresh();
        // Every change is one event; a delete is followed by its tombstone (a tenth of the changes).
        assert_eq!(
            input::run(rows.clone(), &catalog, &fmt, first.path()),
            input::Written {
                events: EVENTS,
                lines: EVENTS + TXS
            },
        );
        let bytes = std::fs::read(first.path().join(segment_name(1))).expect("read");
        eprintln!(
            "stream{suffix}: {} bytes in {} lines ({} bytes a line)",
            bytes.len(),
            EVENTS + TXS,
            bytes.len() as u64 / (EVENTS + TXS)
        );
        // Each run writes into a new directory (a capture appends to its segments and never
        // truncates one this size); the previous one is removed outside the clock.
        let engine = || {
            clock.once(
                || (rows.clone(), fresh()),
                |(rows, dir)| (run(rows, dir.path()), dir),
            )
        };
        let plain = || {
            clock.once(fresh, |dir| {
                plain_write(&bytes, dir.path());
                dir
            })
        };
        let name = format!("rows to JSONL{suffix} ({} time)", clock.name());
        g.bench_function(&name, |b| {
            b.iter_custom(|iters| (0..iters).map(|_| engine()).sum())
        });
        g.bench_function(
            format!(
                "plain write of the JSONL bytes{suffix} ({} time)",
                clock.name()
            ),
            |b| b.iter_custom(|iters| (0..iters).map(|_| plain()).sum()),
        );
        bench_clock::record_ratio(&format!("stream/{name}"), &clock.ratios(engine, plain));
    }
    g.finish();
}

/// Debezium's defaults, with or without the JsonConverter schemas of key and value.
fn format(schemas: bool) -> oracle_cdc::record::format::Format {
    oracle_cdc::record::format::Format {
        value_schemas: schemas,
        key_schemas: schemas,
        ..Default::default()
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
