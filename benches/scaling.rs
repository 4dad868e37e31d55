//! Scaling: snapshot rows/s with 1, 2 and 4 threads against the emulator with a fixed latency
//! on every database call (`cdc.emulator.fault.call.latency.ms`), like a network round trip.
//! With small chunks most of the time is waiting; parallel chunk reads must overlap it, so
//! rows/s should grow close to linearly with the threads even on a 2-core machine.

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use oracle_cdc::export::{ExportFormat, ExportSink};
use oracle_cdc::offsets::SnapshotState;
use oracle_cdc::ops::OpsLog;
use oracle_cdc::settings::Settings;
use oracle_cdc::snapshot::target::resolve;
use oracle_cdc::snapshot::{NoProgress, Snapshot};
use oracle_cdc::source::emulator::{clock, init, EmulatorConnector, Faults};
use oracle_cdc::source::Connector;
use std::time::Duration;

const ROWS: u64 = 40_000;
const CHUNK_ROWS: u64 = 2_000;
const LATENCY_MS: u64 = 20;

#[path = "support/table.rs"]
mod bench_table;

fn snapshot(conn: &EmulatorConnector, settings: &Settings, dir: &std::path::Path) {
    let mut s = conn.connect().expect("connect");
    let db = s.database().expect("db");
    let decisions = resolve(settings, s.tables().expect("tables"), &[]).expect("resolve");
    let ops = OpsLog::discard();
    let run = Snapshot {
        connector: conn,
        settings,
        ops: &ops,
        progress: &NoProgress,
        metrics: Default::default(),
        pin_scn: None,
        signal: None,
    };
    let mut sink = ExportSink::new(dir, ExportFormat::Jsonl, "bench", &db.name);
    run.run(
        &decisions,
        &mut SnapshotState::default(),
        &mut |_| Ok(()),
        &mut sink,
        &|| false,
    )
    .expect("snapshot");
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let schema_path = dir.path().join("schema.yaml");
    std::fs::write(&schema_path, bench_table::schema(ROWS)).expect("schema");
    let db = dir.path().join("db");
    init(&db, &schema_path, None, clock::system()).expect("init");

    let mut g = c.benchmark_group("scaling");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(15))
        .throughput(Throughput::Elements(ROWS));
    for threads in [1u32, 2, 4] {
        let settings = Settings::from_pairs(&[
            &format!("cdc.snapshot.chunk.rows={CHUNK_ROWS}"),
            &format!("cdc.snapshot.threads={threads}"),
            &format!("cdc.emulator.fault.call.latency.ms={LATENCY_MS}"),
        ])
        .expect("settings");
        let conn = EmulatorConnector::open(&db, Faults::from_settings(&settings)).expect("open");
        g.bench_with_input(BenchmarkId::new("threads", threads), &threads, |b, _| {
            b.iter_batched(
                || tempfile::tempdir().expect("out"),
                |out| snapshot(&conn, &settings, out.path()),
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
