//! Snapshot path: emulator chunk rows → records → JSONL and CSV files, in rows/s, next to the
//! time a plain buffered writer takes to write the same bytes (the ratio is what matters).
//! Timed in CPU time by default (see `support/clock.rs`): the export's reader threads add up, so the
//! ratio is the export's whole cost against the plain write's.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oracle_cdc::export::{ExportFormat, ExportSink};
use oracle_cdc::offsets::SnapshotState;
use oracle_cdc::ops::OpsLog;
use oracle_cdc::settings::Settings;
use oracle_cdc::snapshot::target::resolve;
use oracle_cdc::snapshot::{NoProgress, Snapshot};
use oracle_cdc::source::emulator::{clock, init, EmulatorConnector, Faults};
use oracle_cdc::source::Connector;
use std::io::Write;
use std::time::Duration;

#[path = "support/clock.rs"]
mod bench_clock;

const ROWS: u64 = 200_000;

fn schema() -> String {
    format!(
        r#"
tables:
  - name: BENCH.T
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: NAME, type: VARCHAR2(50) }}
      - {{ name: AMOUNT, type: "NUMBER(10,2)" }}
      - {{ name: CREATED, type: DATE }}
      - {{ name: NOTE, type: VARCHAR2(50) }}
    primary_key: [ID]
    rows: {ROWS}
"#
    )
}

fn export(
    conn: &EmulatorConnector,
    settings: &Settings,
    format: ExportFormat,
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
    };
    let mut sink = ExportSink::new(dir, format, "bench", &db.name);
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
    std::fs::write(&schema_path, schema()).expect("schema");
    let db = dir.path().join("db");
    init(&db, &schema_path, None, clock::system()).expect("init");
    let conn = EmulatorConnector::open(&db, Faults::default()).expect("open");
    let settings =
        Settings::from_pairs(&["cdc.snapshot.chunk.rows=50000", "cdc.snapshot.threads=2"])
            .expect("settings");

    // For profilers (`perf stat`, callgrind): export n times to each format, without criterion.
    if let Some(n) = bench_clock::repeat() {
        for format in [ExportFormat::Jsonl, ExportFormat::Csv] {
            for _ in 0..n {
                let out = tempfile::tempdir().expect("out");
                export(&conn, &settings, format, out.path());
            }
        }
        return;
    }
    let clock = bench_clock::Clock::from_env();
    let mut g = c.benchmark_group("snapshot");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .throughput(Throughput::Elements(ROWS));
    for (name, format) in [
        ("emulator to JSONL", ExportFormat::Jsonl),
        ("emulator to CSV", ExportFormat::Csv),
    ] {
        g.bench_function(format!("{name} ({} time)", clock.name()), |b| {
            b.iter_custom(|iters| {
                clock.time(
                    iters,
                    || tempfile::tempdir().expect("out"),
                    // The directory is removed after the clock stops.
                    |out| {
                        export(&conn, &settings, format, out.path());
                        out
                    },
                )
            })
        });
    }
    // The same bytes through a plain buffered writer, for the ratio.
    for (name, format, ext) in [
        (
            "plain write of the JSONL bytes",
            ExportFormat::Jsonl,
            "jsonl",
        ),
        ("plain write of the CSV bytes", ExportFormat::Csv, "csv"),
    ] {
        let out = tempfile::tempdir().expect("out");
        export(&conn, &settings, format, out.path());
        let bytes = std::fs::read(out.path().join(format!("BENCH.T.{ext}"))).expect("read");
        g.bench_function(format!("{name} ({} time)", clock.name()), |b| {
            b.iter_custom(|iters| {
                clock.time(
                    iters,
                    || tempfile::tempdir().expect("out"),
                    |o| {
                        let f = std::fs::File::create(o.path().join("plain")).expect("create");
                        let mut w = std::io::BufWriter::new(f);
                        for line in bytes.split_inclusive(|&b| b == b'\n') {
                            w.write_all(line).expect("write");
                        }
                        let f = w.into_inner().expect("flush");
                        f.sync_data().expect("sync");
                        o
                    },
                )
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
