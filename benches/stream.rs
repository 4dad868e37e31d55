//! Stream path on one core: V$LOGMNR_CONTENTS rows of committed transactions (SQL_REDO rendered
//! by the emulator's renderer) → transaction buffer → decode (parse + typed images) → change
//! records → a JSONL file, in events/s. Goal: ≥ 500,000 events/s (50× what one LogMiner session
//! delivers). Timed in CPU time by default (see `support/clock.rs`): the rate on one core.
//!
//! The records are written as capture writes them (`capture::records::TxRecordWriter`), into
//! capture's file sink.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oracle_cdc::capture::records::TxRecordWriter;
use oracle_cdc::names::TableName;
use oracle_cdc::sink::{segment_name, FileSink, RecordSink};
use oracle_cdc::source::emulator::sql_redo;
use oracle_cdc::source::model::{op, ColumnInfo, LogMinerRow};
use oracle_cdc::stream::buffer::TxBuffer;
use oracle_cdc::stream::decode::{Catalog, Decoder, Event, TableSchema};
use oracle_cdc::types::{ColumnType, Value};
use std::io::Write;
use std::time::Duration;

// Shared by the benches; each uses part of it.
#[allow(dead_code)]
#[path = "support/clock.rs"]
mod bench_clock;

/// Transactions, changes per transaction, transactions open at once (their rows interleave).
const TXS: u64 = 10_000;
const CHANGES: u64 = 10;
const OPEN: u64 = 4;
const EVENTS: u64 = TXS * CHANGES;

fn columns() -> Vec<ColumnInfo> {
    [
        ("ID", "NUMBER(10)"),
        ("NAME", "VARCHAR2(50)"),
        ("AMOUNT", "NUMBER(10,2)"),
        ("CREATED", "DATE"),
        ("NOTE", "VARCHAR2(50)"),
    ]
    .iter()
    .map(|(n, t)| ColumnInfo {
        name: n.to_string(),
        data_type: ColumnType::parse(t).expect("type"),
        nullable: *n != "ID",
        virtual_column: false,
        hidden: false,
    })
    .collect()
}

fn values(id: u64, version: u64) -> Vec<Value> {
    vec![
        Value::Number(id.to_string()),
        Value::Text(format!("customer name {id:08} v{version}")),
        Value::Number(format!("{}.{:02}", (id * 37 + version) % 100_000, id % 100)),
        Value::Date(format!(
            "2026-{:02}-{:02} 12:34:56",
            id % 12 + 1,
            id % 28 + 1
        )),
        if id.is_multiple_of(5) {
            Value::Null
        } else {
            Value::Text(format!("note with 'quotes' {version}"))
        },
    ]
}

fn base(scn: u64, tx: u64, code: u32) -> LogMinerRow {
    let (usn, slot, sqn) = ((tx % 10) as u16 + 1, (tx % 1000) as u16, tx as u32 + 1);
    LogMinerRow {
        scn,
        commit_scn: None,
        start_scn: None,
        timestamp: "2026-11-29 12:00:00".into(),
        commit_timestamp: None,
        xid: sql_redo::xid(usn, slot, sqn),
        xidusn: u32::from(usn),
        xidslt: u32::from(slot),
        xidsqn: sqn,
        operation_code: code,
        operation: op::name(code).into(),
        seg_owner: None,
        table_name: None,
        row_id: "AAAAAAAAAAAAAAAAAA".into(),
        sql_redo: String::new(),
        csf: 0,
        rollback: 0,
        rs_id: sql_redo::rs_id(1, scn, 0x10),
        ssn: 0,
        thread: 1,
        sequence: 1,
        status: 0,
        info: None,
        src_con_name: "BENCH".into(),
        username: "APP".into(),
        data_obj: 73_000,
    }
}

/// The mined rows: START, CHANGES changes (6 inserts, 3 updates, 1 delete of the inserted
/// rows), COMMIT per transaction; OPEN transactions at a time with their rows interleaved.
fn mined(table: &TableName, cols: &[ColumnInfo]) -> Vec<LogMinerRow> {
    let col = |vals: &'_ [Value], which: &[usize]| -> Vec<(String, ColumnType, Value)> {
        which
            .iter()
            .map(|&i| {
                (
                    cols[i].name.clone(),
                    cols[i].data_type.clone(),
                    vals[i].clone(),
                )
            })
            .collect()
    };
    let all = [0, 1, 2, 3, 4];
    let mut out = Vec::with_capacity((TXS * (CHANGES + 2)) as usize);
    let mut scn = 1_000_000u64;
    for group in (0..TXS).step_by(OPEN as usize) {
        let txs: Vec<u64> = (group..(group + OPEN).min(TXS)).collect();
        let mut per_tx: Vec<Vec<LogMinerRow>> = Vec::new();
        for &tx in &txs {
            let mut rows = Vec::new();
            scn += 1;
            rows.push(base(scn, tx, op::START));
            for c in 0..CHANGES {
                scn += 1;
                let id = tx * 100 + c.min(5);
                let (code, sql) = match c {
                    0..=5 => {
                        let v = col(&values(id, 0), &all);
                        (op::INSERT, sql_redo::insert(table, &borrow(&v)))
                    }
                    6..=8 => {
                        let before = col(&values(id - (8 - c), 0), &all);
                        let after = col(&values(id - (8 - c), 1), &[1, 2]);
                        (
                            op::UPDATE,
                            sql_redo::update(table, &borrow(&after), &borrow(&before)),
                        )
                    }
                    _ => {
                        let before = col(&values(tx * 100 + 4, 0), &all);
                        (op::DELETE, sql_redo::delete(table, &borrow(&before)))
                    }
                };
                let mut r = base(scn, tx, code);
                r.seg_owner = Some(table.owner.clone());
                r.table_name = Some(table.table.clone());
                r.sql_redo = sql;
                r.ssn = c;
                rows.push(r);
            }
            per_tx.push(rows);
        }
        // Interleave the open transactions' rows, then commit them in order.
        for i in 0..=CHANGES as usize {
            for rows in &per_tx {
                out.push(rows[i].clone());
            }
        }
        for &tx in &txs {
            scn += 1;
            let mut c = base(scn, tx, op::COMMIT);
            c.commit_scn = Some(scn);
            c.commit_timestamp = Some("2026-11-29 12:00:01".into());
            out.push(c);
        }
    }
    out
}

fn borrow(v: &[(String, ColumnType, Value)]) -> Vec<sql_redo::Col<'_>> {
    v.iter().map(|(n, t, x)| (n.as_str(), t, x)).collect()
}

/// Rows → buffer → decode → records → capture's JSONL file sink (one segment, made durable
/// at the end); returns the events written.
fn run(rows: Vec<LogMinerRow>, catalog: &Catalog, dir: &std::path::Path) -> u64 {
    let schema = catalog.tables.values().next().expect("table");
    let fmt = oracle_cdc::record::format::Format::default();
    let mut buffer = TxBuffer::default();
    let mut sink = FileSink::open(dir, u64::MAX, None).expect("sink");
    let mut events = 0u64;
    for row in rows {
        let Some(mut tx) = buffer.push(row).expect("push") else {
            continue;
        };
        // As the publisher does: decoded as the rows stream out of the buffer.
        let mut decoder = Decoder::new(&mut tx);
        let mut records = TxRecordWriter::new("bench", "BENCH", &tx, 0, &fmt, false);
        while let Some(event) = decoder.next_event(catalog) {
            let Event::Change(change) = event.expect("decode") else {
                continue;
            };
            for line in records.lines(schema, &change) {
                sink.write(line).expect("write");
                events += 1;
            }
        }
    }
    sink.commit().expect("commit");
    events
}

/// The same bytes through a plain buffered writer, line by line, synced once: the floor any
/// writer of these records pays (the kernel's copy of ~90 MB into the page cache).
fn plain_write(bytes: &[u8], dir: &std::path::Path) {
    let f = std::fs::File::create(dir.join("plain")).expect("create");
    let mut w = std::io::BufWriter::with_capacity(1 << 16, f);
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        w.write_all(line).expect("write");
    }
    let f = w.into_inner().expect("flush");
    f.sync_data().expect("sync");
}

fn bench(c: &mut Criterion) {
    let table: TableName = "BENCH.T".parse().expect("name");
    let cols = columns();
    let mut catalog = Catalog::default();
    catalog.tables.insert(
        table.clone(),
        TableSchema {
            name: table.clone(),
            history: vec![(0, cols.clone())],
            key: vec!["ID".into()],
            excluded: Vec::new(),
        },
    );
    let rows = mined(&table, &cols);
    let fresh = || tempfile::tempdir().expect("tempdir");
    let first = fresh();
    assert_eq!(
        run(rows.clone(), &catalog, first.path()),
        EVENTS,
        "every change is one event"
    );
    let bytes = std::fs::read(first.path().join(segment_name(1))).expect("read");

    // For profilers (`perf stat`, callgrind): run the path n times, without criterion.
    if let Some(n) = bench_clock::repeat() {
        for _ in 0..n {
            run(rows.clone(), &catalog, fresh().path());
        }
        return;
    }
    let mut g = c.benchmark_group("stream");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(15))
        .throughput(Throughput::Elements(EVENTS));
    let clock = bench_clock::Clock::from_env();
    // Each run writes into a new directory (a capture appends to its segments and never
    // truncates one this size); the previous one is removed outside the clock.
    let engine = || {
        clock.once(
            || (rows.clone(), fresh()),
            |(rows, dir)| (run(rows, &catalog, dir.path()), dir),
        )
    };
    let plain = || {
        clock.once(fresh, |dir| {
            plain_write(&bytes, dir.path());
            dir
        })
    };
    g.bench_function(format!("rows to JSONL ({} time)", clock.name()), |b| {
        b.iter_custom(|iters| (0..iters).map(|_| engine()).sum())
    });
    g.bench_function(
        format!("plain write of the JSONL bytes ({} time)", clock.name()),
        |b| b.iter_custom(|iters| (0..iters).map(|_| plain()).sum()),
    );
    g.finish();
    bench_clock::record_ratio(
        &format!("stream/rows to JSONL ({} time)", clock.name()),
        &clock.ratios(engine, plain),
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
