//! The emulator must never be what a benchmark measures: a flashback read of 100k rows and the
//! rendering of 100k LogMiner rows each take well under a second.

use criterion::{criterion_group, criterion_main, Criterion};
use oracle_cdc::source::emulator::{clock, init, EmulatorConnector, Faults};
use oracle_cdc::source::model::{ChunkRange, FlashbackQuery};
use oracle_cdc::source::Connector;
use std::time::Duration;

#[path = "support/table.rs"]
mod bench_table;

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let schema = dir.path().join("schema.yaml");
    std::fs::write(&schema, bench_table::schema(100_000)).expect("schema");
    let db = dir.path().join("db");
    init(&db, &schema, None, clock::system()).expect("init");
    let conn = EmulatorConnector::open(&db, Faults::default()).expect("open");
    let mut s = conn.connect().expect("connect");
    let scn = s.current_scn().expect("scn");
    let query = FlashbackQuery {
        table: "BENCH.T".parse().expect("name"),
        columns: ["ID", "NAME", "AMOUNT", "CREATED", "NOTE"]
            .map(String::from)
            .to_vec(),
        key_columns: vec!["ID".into()],
        scn,
        range: ChunkRange::Whole,
        filter: None,
        row_ids: true,
    };
    let mut g = c.benchmark_group("emulator");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("flashback read 100k rows", |b| {
        b.iter(|| {
            let mut n = 0u64;
            s.read_as_of(&query, &mut |_| {
                n += 1;
                Ok(())
            })
            .expect("read");
            assert_eq!(n, 100_000);
        })
    });
    g.bench_function("logminer 100k rows", |b| {
        b.iter(|| {
            let mut n = 0u64;
            s.mine(1_000_000, scn, &Default::default(), &mut |r| {
                n += u64::from(r.operation_code == 1);
                Ok(())
            })
            .expect("mine");
            assert_eq!(n, 100_000);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
