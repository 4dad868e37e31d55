//! Parquet export next to JSONL on the same table: emulator chunk rows → Arrow record batches →
//! zstd (or uncompressed) Parquet row groups, through the real snapshot engine, in rows/s.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use oracle_cdc::export::{ExportFormat, ExportSink, ParquetCompression, ParquetOptions};
use oracle_cdc::offsets::SnapshotState;
use oracle_cdc::ops::OpsLog;
use oracle_cdc::settings::Settings;
use oracle_cdc::snapshot::target::resolve;
use oracle_cdc::snapshot::{NoProgress, Snapshot};
use oracle_cdc::source::emulator::{clock, init, EmulatorConnector, Faults};
use oracle_cdc::source::Connector;
use std::time::Duration;

const ROWS: u64 = 200_000;

#[path = "support/table.rs"]
mod bench_table;

fn export(
    conn: &EmulatorConnector,
    settings: &Settings,
    format: ExportFormat,
    compression: ParquetCompression,
    dir: &std::path::Path,
) {
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
        shutdown: None,
    };
    let mut sink =
        ExportSink::new(dir, format, "bench", &db.name).with_parquet_options(ParquetOptions {
            file_rows: 0,
            compression,
        });
    run.run(
        &decisions,
        &mut SnapshotState::default(),
        &mut |_| Ok(()),
        &mut sink,
        &|| false,
    )
    .expect("snapshot");
    sink.finish().expect("finish");
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let schema_path = dir.path().join("schema.yaml");
    std::fs::write(&schema_path, bench_table::schema(ROWS)).expect("schema");
    let db = dir.path().join("db");
    init(&db, &schema_path, None, clock::system()).expect("init");
    let conn = EmulatorConnector::open(&db, Faults::default()).expect("open");
    let settings =
        Settings::from_pairs(&["cdc.snapshot.chunk.rows=50000", "cdc.snapshot.threads=2"])
            .expect("settings");

    let mut g = c.benchmark_group("parquet");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .throughput(Throughput::Elements(ROWS));
    for (name, format, compression) in [
        (
            "emulator to JSONL",
            ExportFormat::Jsonl,
            ParquetCompression::Zstd,
        ),
        (
            "emulator to Parquet zstd",
            ExportFormat::Parquet,
            ParquetCompression::Zstd,
        ),
        (
            "emulator to Parquet uncompressed",
            ExportFormat::Parquet,
            ParquetCompression::None,
        ),
    ] {
        g.bench_function(name, |b| {
            b.iter_batched(
                || tempfile::tempdir().expect("out"),
                |out| export(&conn, &settings, format, compression, out.path()),
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
