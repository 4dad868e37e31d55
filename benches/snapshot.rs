//! Snapshot path: emulator chunk rows → records → JSONL and CSV files, in rows/s, next to the
//! time a plain buffered writer takes to write the same bytes (the ratio is what matters).
//! Timed in CPU time by default (see `support/clock.rs`): the export's reader threads add up, so the
//! ratio is the export's whole cost against the plain write's.
//!
//! Two measurements per format:
//! - `chunk rows to …`: the engine's part. The chunks' rows, as the source hands them over
//!   (read once from the emulator beforehand), go through the export sink: records encoded,
//!   written, synced per chunk, and the rows freed. This is what the goal (≤ 2× / ≤ 1.5× the
//!   plain write) is about: against a real database the rows arrive from the driver.
//! - `emulator to …`: the whole `snapshot` run, planning and the emulator's flashback reads
//!   included; the emulator stands in for the database, so its share is reported, not a goal.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oracle_cdc::export::{ExportFormat, ExportSink};
use oracle_cdc::offsets::SnapshotState;
use oracle_cdc::offsets::TableProgress;
use oracle_cdc::ops::OpsLog;
use oracle_cdc::settings::Settings;
use oracle_cdc::snapshot::read::ReadChunk;
use oracle_cdc::snapshot::target::{resolve, TableTarget};
use oracle_cdc::snapshot::{ChunkSink, NoProgress, Snapshot};
use oracle_cdc::source::emulator::{clock, init, EmulatorConnector, Faults};
use oracle_cdc::source::Connector;
use std::io::Write;
use std::time::Duration;

#[path = "support/clock.rs"]
mod bench_clock;

const ROWS: u64 = 200_000;
/// The emulator's database name (in the records' `source.db`).
const DB: &str = "EMU";

#[path = "support/table.rs"]
mod bench_table;

/// Keeps every chunk the snapshot reads, for the engine-only measurement.
#[derive(Default)]
struct Collect {
    chunks: Vec<(TableTarget, ReadChunk)>,
}

impl ChunkSink for Collect {
    fn publish(
        &mut self,
        t: &TableTarget,
        chunk: &mut ReadChunk,
        _first_record: bool,
        _last_record: bool,
        _progress: &mut TableProgress,
    ) -> oracle_cdc::errors::Result<()> {
        self.chunks.push((t.clone(), chunk.clone()));
        Ok(())
    }
}

/// The engine's part: the chunks through the export sink, and the rows freed (by the sink as
/// it writes them, or after it, as in `Snapshot::run`).
fn publish_chunks(
    chunks: Vec<(TableTarget, ReadChunk)>,
    format: ExportFormat,
    dir: &std::path::Path,
) {
    let mut sink = ExportSink::new(dir, format, "bench", DB);
    let mut progress = TableProgress::new("key");
    let n = chunks.len();
    for (i, (t, mut chunk)) in chunks.into_iter().enumerate() {
        sink.publish(&t, &mut chunk, i == 0, i + 1 == n, &mut progress)
            .expect("publish");
    }
}

fn export(
    conn: &EmulatorConnector,
    settings: &Settings,
    format: ExportFormat,
    dir: &std::path::Path,
) {
    run_snapshot(
        conn,
        settings,
        &mut ExportSink::new(dir, format, "bench", DB),
    );
}

fn run_snapshot(conn: &EmulatorConnector, settings: &Settings, sink: &mut dyn ChunkSink) {
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
    assert_eq!(
        db.name, DB,
        "the sinks are made before the run, with this name"
    );
    run.run(
        &decisions,
        &mut SnapshotState::default(),
        &mut |_| Ok(()),
        sink,
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
    let conn = EmulatorConnector::open(&db, Faults::default()).expect("open");
    let settings =
        Settings::from_pairs(&["cdc.snapshot.chunk.rows=50000", "cdc.snapshot.threads=2"])
            .expect("settings");

    let mut collect = Collect::default();
    run_snapshot(&conn, &settings, &mut collect);
    let rows: usize = collect.chunks.iter().map(|(_, c)| c.rows.len()).sum();
    assert_eq!(rows as u64, ROWS, "the snapshot reads every row");

    // For profilers (`perf stat`, callgrind): n times each, without criterion.
    // `ORACLE_CDC_BENCH_REPEAT=n` the engine's part only; add `ORACLE_CDC_BENCH_WHOLE=1` for the
    // whole run with the emulator's reads, `ORACLE_CDC_BENCH_FORMAT=csv` (or `jsonl`) for one
    // format's profile.
    if let Some(n) = bench_clock::repeat() {
        let whole = std::env::var_os("ORACLE_CDC_BENCH_WHOLE").is_some();
        let only = std::env::var("ORACLE_CDC_BENCH_FORMAT").ok();
        for format in [ExportFormat::Jsonl, ExportFormat::Csv] {
            if only.as_deref().is_some_and(|f| f != format.name()) {
                continue;
            }
            for _ in 0..n {
                let out = tempfile::tempdir().expect("out");
                match whole {
                    true => export(&conn, &settings, format, out.path()),
                    false => publish_chunks(collect.chunks.clone(), format, out.path()),
                }
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
        ("chunk rows to JSONL", ExportFormat::Jsonl),
        ("chunk rows to CSV", ExportFormat::Csv),
    ] {
        g.bench_function(format!("{name} ({} time)", clock.name()), |b| {
            b.iter_custom(|iters| {
                clock.time(
                    iters,
                    || (collect.chunks.clone(), tempfile::tempdir().expect("out")),
                    // The rows are freed inside the timed part (the engine frees them too).
                    |(chunks, out)| {
                        publish_chunks(chunks, format, out.path());
                        out
                    },
                )
            })
        });
    }
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
    let mut plain_bytes = Vec::new();
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
                        plain_write(&bytes, o.path());
                        o
                    },
                )
            })
        });
        plain_bytes.push((format, bytes));
    }
    g.finish();
    // The goal's ratio, from back-to-back pairs (see `Clock::ratios`).
    for (format, bytes) in &plain_bytes {
        let ratios = clock.ratios(
            || {
                clock.once(
                    || (collect.chunks.clone(), tempfile::tempdir().expect("out")),
                    |(chunks, out)| {
                        publish_chunks(chunks, *format, out.path());
                        out
                    },
                )
            },
            || {
                clock.once(
                    || tempfile::tempdir().expect("out"),
                    |o| {
                        plain_write(bytes, o.path());
                        o
                    },
                )
            },
        );
        let name = match format {
            ExportFormat::Csv => "CSV",
            _ => "JSONL",
        };
        bench_clock::record_ratio(
            &format!("snapshot/chunk rows to {name} ({} time)", clock.name()),
            &ratios,
        );
    }
}

/// What any writer of these bytes pays: a buffered write line by line, synced once.
fn plain_write(bytes: &[u8], dir: &std::path::Path) {
    let f = std::fs::File::create(dir.join("plain")).expect("create");
    let mut w = std::io::BufWriter::new(f);
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        w.write_all(line).expect("write");
    }
    let f = w.into_inner().expect("flush");
    f.sync_data().expect("sync");
}

criterion_group!(benches, bench);
criterion_main!(benches);
