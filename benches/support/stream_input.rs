//! The stream path's input and run, shared by `benches/stream.rs` and the golden test
//! (`tests/all/stream_golden.rs`), so the bench measures exactly the path whose bytes the test pins:
//! V$LOGMNR_CONTENTS rows of committed transactions (SQL_REDO rendered by the emulator's
//! renderer) → transaction buffer → decode → change records → capture's JSONL file sink.

use oracle_cdc::capture::records::TxRecordWriter;
use oracle_cdc::names::TableName;
use oracle_cdc::record::format::Format;
use oracle_cdc::sink::{FileSink, RecordSink};
use oracle_cdc::source::emulator::sql_redo;
use oracle_cdc::source::model::{op, ColumnInfo, LogMinerRow};
use oracle_cdc::stream::buffer::TxBuffer;
use oracle_cdc::stream::decode::{Catalog, Decoder, Event, TableSchema};
use oracle_cdc::types::{ColumnType, ToCompactString, Value};

/// Changes per transaction, transactions open at once (their rows interleave).
pub const CHANGES: u64 = 10;
pub const OPEN: u64 = 4;

fn info(cols: &[(&str, &str)], key: &str) -> Vec<ColumnInfo> {
    cols.iter()
        .map(|(n, t)| ColumnInfo {
            name: n.to_string(),
            data_type: ColumnType::parse(t).expect("type"),
            nullable: *n != key,
            virtual_column: false,
            hidden: false,
        })
        .collect()
}

/// The bench's table `BENCH.T`: five columns, key ID.
pub fn columns() -> Vec<ColumnInfo> {
    info(
        &[
            ("ID", "NUMBER(10)"),
            ("NAME", "VARCHAR2(50)"),
            ("AMOUNT", "NUMBER(10,2)"),
            ("CREATED", "DATE"),
            ("NOTE", "VARCHAR2(50)"),
        ],
        "ID",
    )
}

/// A second table of other types, for the golden test: `BENCH."V x"`.
pub fn varied_columns() -> Vec<ColumnInfo> {
    info(
        &[
            ("K", "NUMBER(10)"),
            ("TS", "TIMESTAMP(6)"),
            ("TZ", "TIMESTAMP(9) WITH TIME ZONE"),
            ("R", "RAW(8)"),
            ("N", "NUMBER"),
            ("BD", "BINARY_DOUBLE"),
            ("NV", "NVARCHAR2(20)"),
            ("CH", "CHAR(4)"),
            ("DS", "INTERVAL DAY(3) TO SECOND(6)"),
            ("YM", "INTERVAL YEAR(2) TO MONTH"),
            ("Odd name", "VARCHAR2(30)"),
        ],
        "K",
    )
}

fn values(id: u64, version: u64) -> Vec<Value> {
    vec![
        Value::Number(id.to_compact_string()),
        Value::Text(format!("customer name {id:08} v{version}").into()),
        Value::Number(format!("{}.{:02}", (id * 37 + version) % 100_000, id % 100).into()),
        Value::Date(format!("2026-{:02}-{:02} 12:34:56", id % 12 + 1, id % 28 + 1).into()),
        if id.is_multiple_of(5) {
            Value::Null
        } else {
            Value::Text(format!("note with 'quotes' {version}").into())
        },
    ]
}

fn varied_values(id: u64, version: u64) -> Vec<Value> {
    let texts = [
        "plain",
        "tab\there",
        "quote \" and \\ back",
        "é ü ß 東京",
        "ctl \u{1} \u{1f}",
        "",
    ];
    let pick = |i: u64| texts[(i % texts.len() as u64) as usize].to_string();
    vec![
        Value::Number(id.to_compact_string()),
        Value::Timestamp(
            format!(
                "20{:02}-{:02}-{:02} {:02}:{:02}:{:02}.{:06}000",
                id % 100,
                id % 12 + 1,
                id % 28 + 1,
                id % 24,
                id % 60,
                (id * 7) % 60,
                id * 997 % 1_000_000
            )
            .into(),
        ),
        if id.is_multiple_of(3) {
            Value::Null
        } else {
            Value::TimestampTz(
                format!(
                    "2024-02-14 10:58:02.{:09} {}{:02}:{:02}",
                    id * 31 % 1_000_000_000,
                    if id.is_multiple_of(2) { "+" } else { "-" },
                    id % 14,
                    (id % 4) * 15
                )
                .into(),
            )
        },
        Value::Bytes((0..(id % 8 + 1)).map(|b| (id * 13 + b) as u8).collect()),
        Value::Number(match id % 5 {
            0 => format!("-{}.{}", id, version + 1).into(),
            1 => format!(".{:03}", id % 1000).into(),
            2 => format!("{}E+20", id % 9 + 1).into(),
            3 => "0".into(),
            _ => format!("{}{}", id, version).into(),
        }),
        Value::BinaryDouble(match id % 4 {
            0 => id as f64 / 7.0,
            1 => -(id as f64) * 1e-5,
            2 => 0.0,
            _ => 1e300,
        }),
        Value::Text(pick(id + version).into()),
        Value::Text(format!("{:<4}", &"abcd"[..(id % 4) as usize + 1]).into()),
        Value::IntervalDs(
            format!(
                "{}{:03} {:02}:{:02}:{:02}.{:06}",
                if id.is_multiple_of(2) { "+" } else { "-" },
                id % 999,
                id % 24,
                id % 60,
                (id * 3) % 60,
                id * 11 % 1_000_000
            )
            .into(),
        ),
        Value::IntervalYm(
            format!(
                "{}{:02}-{:02}",
                if id.is_multiple_of(3) { "-" } else { "+" },
                id % 99,
                id % 12
            )
            .into(),
        ),
        if id.is_multiple_of(4) {
            Value::Null
        } else {
            Value::Text(pick(id * 5 + version).into())
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

fn borrow(v: &[(String, ColumnType, Value)]) -> Vec<sql_redo::Col<'_>> {
    v.iter().map(|(n, t, x)| (n.as_str(), t, x)).collect()
}

/// The bench's catalog: `BENCH.T` only, or with `varied` also `BENCH."V x"`.
pub fn catalog(varied: bool) -> Catalog {
    let mut catalog = Catalog::default();
    let mut add = |table: TableName, cols: Vec<ColumnInfo>, key: &str| {
        catalog.tables.insert(
            table.clone(),
            TableSchema {
                name: table,
                history: vec![(0, cols)],
                key: vec![key.into()],
                excluded: Vec::new(),
            },
        );
    };
    add(table(), columns(), "ID");
    if varied {
        add(varied_table(), varied_columns(), "K");
    }
    catalog
}

pub fn table() -> TableName {
    "BENCH.T".parse().expect("name")
}

pub fn varied_table() -> TableName {
    "BENCH.\"V x\"".parse().expect("name")
}

/// A table's generated values of row `id` in version `version`.
type Values = fn(u64, u64) -> Vec<Value>;

/// The mined rows of `txs` transactions: START, CHANGES changes (6 inserts, 3 updates, 1 delete
/// of the inserted rows), COMMIT per transaction; OPEN transactions at a time with their rows
/// interleaved. With `varied`, every third transaction changes `BENCH."V x"` instead, and its
/// last update changes the key.
pub fn mined(txs: u64, varied: bool) -> Vec<LogMinerRow> {
    let (plain_t, plain_c) = (table(), columns());
    let (varied_t, varied_c) = (varied_table(), varied_columns());
    let col = |cols: &[ColumnInfo],
               vals: &'_ [Value],
               which: &[usize]|
     -> Vec<(String, ColumnType, Value)> {
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
    let mut out = Vec::with_capacity((txs * (CHANGES + 2)) as usize);
    let mut scn = 1_000_000u64;
    for group in (0..txs).step_by(OPEN as usize) {
        let group_txs: Vec<u64> = (group..(group + OPEN).min(txs)).collect();
        let mut per_tx: Vec<Vec<LogMinerRow>> = Vec::new();
        for &tx in &group_txs {
            let other = varied && tx % 3 == 1;
            let (table, cols, vals): (&TableName, &[ColumnInfo], Values) = if other {
                (&varied_t, &varied_c, varied_values)
            } else {
                (&plain_t, &plain_c, values)
            };
            let all: Vec<usize> = (0..cols.len()).collect();
            let set: &[usize] = if other { &[1, 2, 4, 6, 10] } else { &[1, 2] };
            let mut rows = Vec::new();
            scn += 1;
            rows.push(base(scn, tx, op::START));
            for c in 0..CHANGES {
                scn += 1;
                let id = tx * 100 + c.min(5);
                let (code, sql) = match c {
                    0..=5 => {
                        let v = col(cols, &vals(id, 0), &all);
                        (op::INSERT, sql_redo::insert(table, &borrow(&v)))
                    }
                    8 if other => {
                        // The key changes: SET names the key column too.
                        let before = col(cols, &vals(id, 0), &all);
                        let mut after = col(cols, &vals(id + 50, 1), &[0, 1]);
                        after[0].2 = Value::Number((id + 50).to_string().into());
                        (
                            op::UPDATE,
                            sql_redo::update(table, &borrow(&after), &borrow(&before)),
                        )
                    }
                    6..=8 => {
                        let before = col(cols, &vals(id - (8 - c), 0), &all);
                        let after = col(cols, &vals(id - (8 - c), 1), set);
                        (
                            op::UPDATE,
                            sql_redo::update(table, &borrow(&after), &borrow(&before)),
                        )
                    }
                    _ => {
                        let before = col(cols, &vals(tx * 100 + 4, 0), &all);
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
        for &tx in &group_txs {
            scn += 1;
            let mut c = base(scn, tx, op::COMMIT);
            c.commit_scn = Some(scn);
            c.commit_timestamp = Some("2026-11-29 12:00:01".into());
            out.push(c);
        }
    }
    out
}

/// What a run wrote: change events, record lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    pub events: u64,
    pub lines: u64,
}

/// Rows → buffer → decode → records → capture's JSONL file sink (one segment, made durable at
/// the end), as the publisher does it.
pub fn run(
    rows: Vec<LogMinerRow>,
    catalog: &Catalog,
    fmt: &Format,
    dir: &std::path::Path,
) -> Written {
    let mut buffer = TxBuffer::default();
    let mut sink = FileSink::open(dir, u64::MAX, None).expect("sink");
    let mut written = Written {
        events: 0,
        lines: 0,
    };
    for row in rows {
        let Some(mut tx) = buffer.push(row).expect("push") else {
            continue;
        };
        // As the publisher does: decoded as the rows stream out of the buffer.
        let mut decoder = Decoder::new(&mut tx);
        let mut records = TxRecordWriter::new("bench", "BENCH", &tx, 0, fmt, false);
        while let Some(event) = decoder.next_event(catalog) {
            let Event::Change(change) = event.expect("decode") else {
                continue;
            };
            let Some(schema) = catalog.tables.get(&change.table) else {
                continue;
            };
            written.events += 1;
            for record in records.records(schema, &change) {
                sink.write(&record).expect("write");
                written.lines += 1;
            }
        }
        if let Some(record) = records.end_record() {
            sink.write(&record).expect("write");
            written.lines += 1;
        };
    }
    sink.commit().expect("commit");
    written
}

/// One transaction of `changes` changes of `BENCH.T` (the bench's pattern of 6 inserts,
/// 3 updates and 1 delete in every 10), made row by row as the buffer takes them (10M rows held
/// at once would be the generator's memory, not the path's).
pub fn one_transaction(changes: u64) -> impl Iterator<Item = LogMinerRow> {
    let (t, cols) = (table(), columns());
    let all: Vec<usize> = (0..cols.len()).collect();
    let col = move |vals: Vec<Value>, which: &[usize]| -> Vec<(String, ColumnType, Value)> {
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
    let scn0 = 1_000_000u64;
    (0..changes + 2).map(move |i| {
        let scn = scn0 + i;
        if i == 0 {
            return base(scn, 1, op::START);
        }
        if i == changes + 1 {
            let mut c = base(scn, 1, op::COMMIT);
            c.commit_scn = Some(scn);
            c.commit_timestamp = Some("2026-11-29 12:00:01".into());
            return c;
        }
        let n = i - 1;
        let (group, c) = (n / CHANGES, n % CHANGES);
        let id = group * 100 + c.min(5);
        let (code, sql) = match c {
            0..=5 => (
                op::INSERT,
                sql_redo::insert(&t, &borrow(&col(values(id, 0), &all))),
            ),
            6..=8 => {
                let before = col(values(id - (8 - c), 0), &all);
                let after = col(values(id - (8 - c), 1), &[1, 2]);
                (
                    op::UPDATE,
                    sql_redo::update(&t, &borrow(&after), &borrow(&before)),
                )
            }
            _ => (
                op::DELETE,
                sql_redo::delete(&t, &borrow(&col(values(group * 100 + 4, 0), &all))),
            ),
        };
        let mut r = base(scn, 1, code);
        r.seg_owner = Some(t.owner.clone());
        r.table_name = Some(t.table.clone());
        r.sql_redo = sql;
        r.ssn = n;
        r
    })
}

/// A sink that makes each record's line, counts its bytes and drops it: the big-transaction
/// runs would otherwise write 3.8 KB a change to disk (38 GB for 10M changes).
#[derive(Default)]
pub struct Counting {
    pub bytes: u64,
    line: Vec<u8>,
    lines: oracle_cdc::record::LineWriter,
}

impl RecordSink for Counting {
    fn write(&mut self, record: &oracle_cdc::record::Record) -> oracle_cdc::errors::Result<u64> {
        self.line.clear();
        self.lines.write(record, &mut self.line);
        let n = self.line.len() as u64 + 1;
        self.bytes += n;
        Ok(n)
    }

    fn commit(&mut self) -> oracle_cdc::errors::Result<oracle_cdc::offsets::SinkPosition> {
        Ok(oracle_cdc::offsets::SinkPosition::File {
            segment: String::new(),
            bytes: self.bytes,
            records: 0,
        })
    }
}

/// `rows` through a buffer that keeps at most `limit` bytes of rows in memory (spilling the
/// rest to files in `spill`, as capture's default does), decode and records, into `sink`.
pub fn run_buffered(
    rows: impl Iterator<Item = LogMinerRow>,
    catalog: &Catalog,
    fmt: &Format,
    limit: u64,
    spill: &std::path::Path,
    sink: &mut dyn RecordSink,
) -> Written {
    let mut buffer = TxBuffer::new(limit, spill.to_path_buf()).expect("buffer");
    let mut written = Written {
        events: 0,
        lines: 0,
    };
    for row in rows {
        let Some(mut tx) = buffer.push(row).expect("push") else {
            continue;
        };
        let mut decoder = Decoder::new(&mut tx);
        let mut records = TxRecordWriter::new("bench", "BENCH", &tx, 0, fmt, false);
        while let Some(event) = decoder.next_event(catalog) {
            let Event::Change(change) = event.expect("decode") else {
                continue;
            };
            let Some(schema) = catalog.tables.get(&change.table) else {
                continue;
            };
            written.events += 1;
            for record in records.records(schema, &change) {
                sink.write(&record).expect("write");
                written.lines += 1;
            }
        }
    }
    sink.commit().expect("commit");
    written
}
