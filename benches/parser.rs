//! SQL_REDO parser throughput. Goal: ≥ 400 MB/s on a 10-column UPDATE of 50-character values
//! that sets every column and repeats them all in its WHERE (`update/10 cols`).
//!
//! Each case parses a corpus of ~2 MB of statements rendered by the emulator's SQL_REDO renderer
//! (the same text shapes as LogMiner), twice: once with `Throughput::Bytes` (MB/s) and once with
//! `Throughput::Elements` (statements/s).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use oracle_cdc::names::TableName;
use oracle_cdc::source::emulator::sql_redo::{delete, insert, update};
use oracle_cdc::stream::parse::parse_dml;
use oracle_cdc::types::{ColumnType, ToCompactString, Value};
use std::hint::black_box;
use std::time::Duration;

const CORPUS_BYTES: usize = 2 << 20;

/// A fixed pseudo-random sequence (xorshift), so every run parses the same corpus.
struct Rng(u64);
impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn table() -> TableName {
    TableName::new(None, "BENCH", "WIDE_TABLE")
}

/// Statements of `columns` VARCHAR2 columns holding 50-character values.
fn wide(kind: &str, columns: usize) -> Vec<String> {
    let ty = ColumnType::varchar2(50);
    let names: Vec<String> = (0..columns).map(|c| format!("COLUMN_{c:02}")).collect();
    let mut out = Vec::new();
    let mut bytes = 0;
    for row in 0.. {
        let values: Vec<Value> = (0..columns)
            .map(|c| {
                Value::Text(
                    format!("{:<50}", format!("row {row} column {c} value"))
                        .replace(' ', "x")
                        .into(),
                )
            })
            .collect();
        let cols: Vec<_> = names
            .iter()
            .zip(&values)
            .map(|(n, v)| (n.as_str(), &ty, v))
            .collect();
        let sql = match kind {
            "insert" => insert(&table(), &cols),
            "update" => update(&table(), &cols, &cols),
            _ => delete(&table(), &cols),
        };
        bytes += sql.len();
        out.push(sql);
        if bytes >= CORPUS_BYTES {
            break;
        }
    }
    out
}

/// A realistic mix on an 8-column table: 50% INSERT, 35% UPDATE (ALL COLUMNS logging), 15%
/// DELETE, with numbers, dates, timestamps, NULLs, RAW and quotes to escape.
fn mixed() -> Vec<String> {
    let types = [
        (
            "ID",
            ColumnType::Number {
                precision: Some(10),
                scale: Some(0),
            },
        ),
        ("NAME", ColumnType::varchar2(40)),
        (
            "AMOUNT",
            ColumnType::Number {
                precision: Some(12),
                scale: Some(2),
            },
        ),
        ("HIRED", ColumnType::Date),
        ("UPDATED", ColumnType::Timestamp { fsp: 6 }),
        ("NOTE", ColumnType::varchar2(200)),
        ("PHOTO", ColumnType::Raw { length: 16 }),
        ("STATUS", ColumnType::char(3)),
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    let mut bytes = 0;
    for id in 0.. {
        let (old, new) = (mixed_row(id, &mut rng), mixed_row(id, &mut rng));
        let (o, n) = (cols(&types, &old), cols(&types, &new));
        let sql = match rng.next(20) {
            0..=9 => insert(&table(), &n),
            10..=16 => update(&table(), &n[1..6], &o),
            _ => delete(&table(), &o),
        };
        bytes += sql.len();
        out.push(sql);
        if bytes >= CORPUS_BYTES {
            break;
        }
    }
    out
}

fn mixed_row(id: u64, rng: &mut Rng) -> Vec<Value> {
    let names = ["Smith", "O'Brien", "Müller", "D'Arcy", "Nguyen", "Okafor"];
    vec![
        Value::Number(id.to_compact_string()),
        Value::Text(format!("{} {}", names[rng.next(6) as usize], rng.next(1000)).into()),
        Value::Number(format!("{}.{:02}", rng.next(100_000), 1 + rng.next(99)).into()),
        Value::Date(
            format!(
                "20{:02}-{:02}-{:02} 00:00:00",
                rng.next(25),
                1 + rng.next(12),
                1 + rng.next(28)
            )
            .into(),
        ),
        Value::Timestamp(
            format!(
                "2024-05-{:02} 10:{:02}:00.{:06}",
                1 + rng.next(28),
                rng.next(60),
                rng.next(1_000_000)
            )
            .into(),
        ),
        match rng.next(3) {
            0 => Value::Null,
            _ => Value::Text(format!("note {}: it's fine; (see ||)", rng.next(1_000_000)).into()),
        },
        Value::Bytes((0..8).map(|_| rng.next(256) as u8).collect()),
        Value::Text(["NEW", "OK ", "X  "][rng.next(3) as usize].into()),
    ]
}

fn cols<'a>(
    types: &'a [(&'a str, ColumnType)],
    values: &'a [Value],
) -> Vec<(&'a str, &'a ColumnType, &'a Value)> {
    types
        .iter()
        .zip(values)
        .map(|((n, t), v)| (*n, t, v))
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    for kind in ["insert", "update", "delete"] {
        for columns in [1, 10, 50] {
            cases.push((format!("{kind}/{columns} cols"), wide(kind, columns)));
        }
    }
    cases.push(("mixed".into(), mixed()));
    let mut g = c.benchmark_group("parser");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (name, corpus) in &cases {
        for s in corpus {
            parse_dml(s).expect("the corpus parses");
        }
        let bytes: usize = corpus.iter().map(String::len).sum();
        for (unit, throughput) in [
            ("bytes", Throughput::Bytes(bytes as u64)),
            ("statements", Throughput::Elements(corpus.len() as u64)),
        ] {
            g.throughput(throughput);
            g.bench_with_input(
                BenchmarkId::new(name.as_str(), unit),
                corpus,
                |b, corpus| {
                    b.iter(|| {
                        for s in corpus {
                            black_box(parse_dml(black_box(s)).expect("parses"));
                        }
                    })
                },
            );
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
