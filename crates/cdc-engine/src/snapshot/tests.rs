//! Snapshot engine on the emulator: plans cover every row exactly once, chunks equal the table
//! as of their SCN under a concurrent workload, ORA-01555 halves chunks, CDC-8001 ends it.

use super::plan::{Chunk, Planner};
use super::read::ReadChunk;
use super::target::{resolve, Decision, TableTarget};
use super::*;
use crate::offsets::{DatabaseIdentity, Offsets};
use crate::source::emulator::{clock, init, workload, writer::Writer, EmulatorConnector, Faults};
use crate::types::{compare_keys, Value};
use cdc_core::model::{ChunkRange, FetchedRow, FlashbackQuery, Scn};
use cdc_core::rowid::RowId;
use proptest::prelude::*;

fn make_db(schema: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let schema_path = dir.path().join("schema.yaml");
    std::fs::write(&schema_path, schema).unwrap();
    let db = dir.path().join("db");
    init(&db, &schema_path, None, clock::system()).unwrap();
    (dir, db)
}

fn schema(rows: u64, key: &str, extra: &str) -> String {
    format!(
        r#"
tables:
  - name: APP.T
    columns:
      - {{ name: A, type: NUMBER(10), nullable: false }}
      - {{ name: B, type: VARCHAR2(12), nullable: false }}
      - {{ name: C, type: VARCHAR2(20) }}
{key}
{extra}
    rows: {rows}
"#
    )
}

fn targets(settings: &Settings, conn: &EmulatorConnector) -> Vec<TableTarget> {
    let mut s = conn.connect().unwrap();
    resolve(settings, s.tables().unwrap(), &[])
        .unwrap()
        .into_iter()
        .map(|d| match d {
            Decision::Capture(t) => *t,
            Decision::Skip { reason, .. } => panic!("{reason}"),
        })
        .collect()
}

fn read(conn: &EmulatorConnector, t: &TableTarget, scn: u64, range: ChunkRange) -> Vec<FetchedRow> {
    let mut s = conn.connect().unwrap();
    let q = FlashbackQuery {
        table: t.info.name.clone(),
        columns: t.columns.iter().map(|c| c.name.clone()).collect(),
        key_columns: match &t.strategy {
            target::Strategy::Key(k) => k.clone(),
            _ => vec![],
        },
        scn,
        range,
        filter: None,
        row_ids: true,
    };
    let mut rows = Vec::new();
    s.read_as_of(&q, &mut |r| {
        rows.push(r);
        Ok(())
    })
    .unwrap();
    rows
}

fn full_plan(
    conn: &EmulatorConnector,
    t: &TableTarget,
    chunk_rows: u64,
) -> (Planner, Vec<Chunk>, u64) {
    let mut s = conn.connect().unwrap();
    let scn = s.current_scn().unwrap();
    let mut p = Planner::new(t, chunk_rows, None, s.as_mut()).unwrap();
    let mut all = Vec::new();
    while !p.is_done() {
        let next = p.next(s.as_mut(), scn, 3).unwrap();
        assert!(!next.is_empty() || p.is_done());
        all.extend(next);
    }
    (p, all, scn)
}

/// Every row of the table appears in exactly one chunk.
fn assert_exact_cover(
    conn: &EmulatorConnector,
    t: &TableTarget,
    chunks: &[Chunk],
    scn: u64,
) -> Vec<usize> {
    let whole = read(conn, t, scn, ChunkRange::Whole);
    let mut seen: Vec<String> = Vec::new();
    let mut sizes = Vec::new();
    for c in chunks {
        let rows = read(conn, t, scn, c.range());
        sizes.push(rows.len());
        seen.extend(rows.into_iter().map(|r| r.rowid.to_string()));
    }
    let mut expected: Vec<String> = whole.into_iter().map(|r| r.rowid.to_string()).collect();
    let total = seen.len();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), total, "a row was in two chunks");
    expected.sort();
    assert_eq!(seen, expected, "chunks do not cover the table exactly");
    sizes
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    #[test]
    fn key_plans_cover_every_row_once_with_sizes_near_the_target(rows in 0u64..400, chunk in 7u64..120, composite in any::<bool>()) {
        let key = if composite { "    primary_key: [B, A]" } else { "    primary_key: [A]" };
        let (_d, db) = make_db(&schema(rows, key, "    statistics: missing"));
        let conn = EmulatorConnector::open(&db, Faults::default()).unwrap();
        let settings = Settings::from_pairs(&[format!("cdc.snapshot.chunk.rows={chunk}")]).unwrap();
        let t = &targets(&settings, &conn)[0];
        let (_p, chunks, scn) = full_plan(&conn, t, chunk);
        let sizes = assert_exact_cover(&conn, t, &chunks, scn);
        // Index probes cut exactly every `chunk` keys; only the last chunk may be smaller.
        if let Some((last, full)) = sizes.split_last() {
            prop_assert!(full.iter().all(|&n| n as u64 == chunk), "{sizes:?}");
            prop_assert!(*last as u64 <= chunk);
        }
        // Boundaries increase strictly.
        let uppers: Vec<Vec<Value>> = chunks.iter().filter_map(|c| match c { Chunk::Key { upper, .. } => upper.clone(), _ => None }).collect();
        prop_assert!(uppers.windows(2).all(|w| compare_keys(&w[0], &w[1]).is_lt()));
    }

    #[test]
    fn even_split_and_rowid_plans_cover_every_row_once(rows in 1u64..400, chunk in 10u64..150) {
        let (_d, db) = make_db(&schema(rows, "    primary_key: [A]", ""));
        let conn = EmulatorConnector::open(&db, Faults::default()).unwrap();
        let settings = Settings::from_pairs(&[format!("cdc.snapshot.chunk.rows={chunk}")]).unwrap();
        let t = &targets(&settings, &conn)[0];
        let (p, chunks, scn) = full_plan(&conn, t, chunk);
        prop_assert!(matches!(p.method, plan::Method::EvenSplit { .. }), "{}", p.describe());
        prop_assert_eq!(chunks.len() as u64, rows.div_ceil(chunk).max(1));
        let sizes = assert_exact_cover(&conn, t, &chunks, scn);
        prop_assert!(sizes.iter().all(|&n| (n as u64) <= chunk + 1), "{:?}", sizes);

        // The same table without a key: ROWID ranges over its extents.
        let (_d2, db2) = make_db(&schema(rows, "", ""));
        let conn2 = EmulatorConnector::open(&db2, Faults::default()).unwrap();
        let t2 = &targets(&settings, &conn2)[0];
        prop_assert_eq!(&t2.strategy, &target::Strategy::Rowid);
        let (_p, chunks2, scn2) = full_plan(&conn2, t2, chunk);
        assert_exact_cover(&conn2, t2, &chunks2, scn2);
        // Ranges are disjoint and cover every extent.
        let mut s = conn2.connect().unwrap();
        let extents = s.extents(&t2.info.name).unwrap();
        let ranges: Vec<(RowId, RowId)> = chunks2.iter().map(|c| match c {
            Chunk::Rowid { start, end, .. } => (RowId::decode(start).unwrap(), RowId::decode(end).unwrap()),
            other => panic!("{other:?}"),
        }).collect();
        prop_assert!(ranges.windows(2).all(|w| w[0].1 < w[1].0));
        for e in &extents {
            for b in e.block_id..e.block_id + e.blocks {
                let probe = RowId { data_object: e.data_object_id as u32, relative_fno: e.rowid_fno(), block: b as u32, slot: 0 };
                prop_assert_eq!(ranges.iter().filter(|(a, z)| *a <= probe && probe <= *z).count(), 1);
            }
        }
    }
}

#[test]
fn nullable_keys_fall_back_and_index_organised_tables_are_one_chunk() {
    let s = r#"
tables:
  - name: APP.NK
    columns:
      - { name: A, type: NUMBER(10), nullable: false }
      - { name: E, type: VARCHAR2(20) }
    rows: 30
  - name: APP.IOT
    columns:
      - { name: K, type: NUMBER(10), nullable: false }
      - { name: V, type: VARCHAR2(20) }
    primary_key: [K]
    organization: index_organized
    rows: 30
"#;
    let (_d, db) = make_db(s);
    let conn = EmulatorConnector::open(&db, Faults::default()).unwrap();
    let settings = Settings::from_pairs(&[
        "cdc.key.APP.NK=E",
        "cdc.key.APP.IOT=V",
        // Neither is unique: taken on the operator's word, to see what the reader makes of them.
        "cdc.key.unchecked=APP.NK,APP.IOT",
        "cdc.snapshot.chunk.rows=5",
    ])
    .unwrap();
    let ts = targets(&settings, &conn);
    let iot = ts.iter().find(|t| t.info.name.table == "IOT").unwrap();
    assert_eq!(iot.strategy, target::Strategy::Single);
    let (_p, chunks, scn) = full_plan(&conn, iot, 5);
    assert_eq!(chunks, vec![Chunk::Whole]);
    assert_exact_cover(&conn, iot, &chunks, scn);
    let nk = ts.iter().find(|t| t.info.name.table == "NK").unwrap();
    assert_eq!(nk.strategy, target::Strategy::Rowid);
    assert_eq!(nk.reason, "ROWID ranges: key column E is nullable");
}

/// A table in a bigfile tablespace: DBA_EXTENTS shows RELATIVE_FNO 1024 while its ROWIDs carry
/// the block number in the nine characters after the object number. The ROWID-chunked snapshot
/// reads every row exactly once (before: ranges built with file 1024 held no row at all).
#[test]
fn a_rowid_chunked_snapshot_of_a_bigfile_table_reads_every_row_once() {
    let s = r#"
database:
  bigfile_tablespaces: [USERS]
tables:
  - name: APP.LOG
    columns:
      - { name: A, type: NUMBER(10), nullable: false }
      - { name: R, type: VARCHAR2(4), nullable: false, generate: { choice: [EMEA, APAC] } }
      - { name: C, type: VARCHAR2(20) }
    rows: 2500
  - name: APP.PARTED
    columns:
      - { name: A, type: NUMBER(10), nullable: false }
      - { name: R, type: VARCHAR2(4), nullable: false, generate: { choice: [EMEA, APAC] } }
    partitions:
      column: R
      list:
        - { name: P_EMEA, values: [EMEA] }
        - { name: P_REST }
    rows: 900
  - name: APP.SMALL
    tablespace: DATA
    columns:
      - { name: A, type: NUMBER(10), nullable: false }
    rows: 900
"#;
    let (_d, db) = make_db(s);
    // Updates and deletes pick rows by their ROWIDs in the extents too.
    let mut w = Writer::open(&db, clock::system(), false).unwrap();
    let opts = plain_workload((20, 50, 30), vec![], 3);
    let summary = workload::Workload::new(&mut w, opts)
        .unwrap()
        .run(&|| false)
        .unwrap();
    assert!(summary.updates > 100 && summary.deletes > 50, "{summary:?}");
    drop(w);
    let conn = EmulatorConnector::open(&db, Faults::default()).unwrap();
    let settings = Settings::from_pairs(&["cdc.snapshot.chunk.rows=100"]).unwrap();
    for t in targets(&settings, &conn) {
        assert_eq!(t.strategy, target::Strategy::Rowid);
        let mut s = conn.connect().unwrap();
        let extents = s.extents(&t.info.name).unwrap();
        let bigfile = t.info.name.table != "SMALL";
        assert!(extents.len() > 1);
        for e in &extents {
            assert_eq!(e.bigfile, bigfile, "{e:?}");
            assert_eq!(e.relative_fno == 1024, bigfile, "{e:?}");
        }
        let whole = read(&conn, &t, s.current_scn().unwrap(), ChunkRange::Whole);
        assert!(whole.len() > 200, "{}", whole.len());
        for r in &whole {
            // Bigfile: `AAA` where a smallfile ROWID has its relative file.
            assert_eq!(&r.rowid[6..9] == "AAA", bigfile, "{}", r.rowid);
        }
        let (_p, chunks, scn) = full_plan(&conn, &t, 100);
        assert!(chunks.len() > 2, "{} chunks", chunks.len());
        assert_exact_cover(&conn, &t, &chunks, scn);
    }
}

/// A table stored in a cluster has no segment, so no extent, of its own: its rows are in the
/// cluster's blocks, beside those of the cluster's other tables (a workload interleaves them),
/// and carry the cluster's data object number. Planned by ROWID ranges over the cluster's
/// extents, the keyless LINES is read whole and alone; before, its extents were looked for
/// under its own name, none were found, and zero chunks published it complete and empty. A
/// cluster that lists no extent is read in one chunk, never in none; a table without a cluster
/// and without extents (no segment yet) stays zero chunks.
/// 300 transactions of 1 to 4 inserts, updates and deletes (`mix`), on `tables` (empty: all),
/// nothing else: no rollbacks, key updates, row movement, long transactions, DDL or LOBs.
pub(super) fn plain_workload(
    mix: (u32, u32, u32),
    tables: Vec<crate::names::TableName>,
    seed: u64,
) -> workload::WorkloadOptions {
    workload::WorkloadOptions {
        transactions: Some(300),
        rate: 0,
        mix,
        tx_size: (1, 4),
        rollback_pct: 0,
        savepoint_pct: 0,
        key_update_pct: 0,
        row_move_pct: 0,
        long_every: 0,
        shared_commit_pct: 0,
        tables,
        seed,
        lob_pct: 0,
        ..workload::WorkloadOptions::default()
    }
}

#[test]
fn a_clustered_table_is_chunked_over_its_clusters_extents() {
    let s = r#"
tables:
  - name: APP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: C, type: VARCHAR2(20) }
    primary_key: [ID]
    cluster: ORDERS_CLU
    rows: 700
  - name: APP.LINES
    columns:
      - { name: ORDER_ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20) }
    cluster: ORDERS_CLU
    rows: 900
  - name: APP.QUIET
    columns:
      - { name: A, type: NUMBER(10) }
    cluster: QUIET_CLU
    rows: 0
  - name: APP.UNUSED
    columns:
      - { name: A, type: NUMBER(10) }
    rows: 0
"#;
    let (_d, db) = make_db(s);
    let mut w = Writer::open(&db, clock::system(), false).unwrap();
    let opts = plain_workload(
        (60, 25, 15),
        vec!["APP.ORDERS".parse().unwrap(), "APP.LINES".parse().unwrap()],
        5,
    );
    let summary = workload::Workload::new(&mut w, opts)
        .unwrap()
        .run(&|| false)
        .unwrap();
    assert!(summary.inserts > 200 && summary.deletes > 20, "{summary:?}");
    drop(w);
    let conn = EmulatorConnector::open(&db, Faults::default()).unwrap();
    let settings = Settings::from_pairs(&["cdc.snapshot.chunk.rows=100"]).unwrap();
    let ts = targets(&settings, &conn);
    let t = |name: &str| ts.iter().find(|t| t.info.name.table == name).unwrap();
    let (orders, lines) = (t("ORDERS"), t("LINES"));
    assert_eq!(lines.strategy, target::Strategy::Rowid);
    assert_eq!(lines.info.cluster.as_deref(), Some("ORDERS_CLU"));
    let mut s = conn.connect().unwrap();
    assert!(s.extents(&lines.info.name).unwrap().is_empty());
    let scn = s.current_scn().unwrap();
    // The workload's inserts share blocks between the two tables.
    let block = |r: &FetchedRow| RowId::decode(&r.rowid).map(|r| r.block).unwrap();
    let order_blocks: std::collections::BTreeSet<u32> = read(&conn, orders, scn, ChunkRange::Whole)
        .iter()
        .map(block)
        .collect();
    let whole = read(&conn, lines, scn, ChunkRange::Whole);
    assert!(whole.len() > 900, "{}", whole.len());
    assert!(whole.iter().any(|r| order_blocks.contains(&block(r))));

    let (p, chunks, scn) = full_plan(&conn, lines, 100);
    assert!(
        p.describe().contains("extents of cluster ORDERS_CLU"),
        "{}",
        p.describe()
    );
    assert!(chunks.len() > 5, "{} chunks", chunks.len());
    assert!(chunks.iter().all(|c| matches!(c, Chunk::Rowid { .. })));
    assert_exact_cover(&conn, lines, &chunks, scn);
    let (_p, chunks, scn) = full_plan(&conn, orders, 100);
    assert_exact_cover(&conn, orders, &chunks, scn);

    let (p, chunks, _) = full_plan(&conn, t("QUIET"), 100);
    assert_eq!(chunks, vec![Chunk::Whole], "{}", p.describe());
    let (_p, chunks, _) = full_plan(&conn, t("UNUSED"), 100);
    assert_eq!(chunks, Vec::<Chunk>::new());
}

/// A sink that keeps what it was given.
#[derive(Default)]
struct Collect {
    chunks: Vec<(String, ReadChunk, bool, bool)>,
    /// Say the sink writes no ROWIDs (an export of plain rows).
    no_row_ids: bool,
}

impl ChunkSink for Collect {
    fn marks_last(&self) -> bool {
        true
    }

    fn writes_row_ids(&self) -> bool {
        !self.no_row_ids
    }

    fn publish(
        &mut self,
        t: &TableTarget,
        c: &mut ReadChunk,
        first: bool,
        last: bool,
        _p: &mut crate::offsets::TableProgress,
    ) -> Result<()> {
        self.chunks
            .push((t.info.name.to_string(), c.clone(), first, last));
        Ok(())
    }
}

fn run_snapshot(
    db: &std::path::Path,
    pairs: &[&str],
    sink: &mut Collect,
    ops: &OpsLog,
) -> Result<Outcome> {
    run_snapshot_as(db, None, pairs, sink, ops, Default::default(), None)
}

/// [`run_snapshot`] logged in as `user`, with the metrics it updates.
fn run_snapshot_as(
    db: &std::path::Path,
    user: Option<&str>,
    pairs: &[&str],
    sink: &mut Collect,
    ops: &OpsLog,
    metrics: Arc<Mutex<crate::ops::SnapshotMetrics>>,
    shutdown: Option<crate::source::Stop>,
) -> Result<Outcome> {
    let settings = Settings::from_pairs(pairs).unwrap();
    let conn = EmulatorConnector::open(db, settings.emulator_faults())
        .unwrap()
        .with_login(user, None);
    let mut s = EmulatorConnector::open(db, Faults::default())
        .unwrap()
        .connect()
        .unwrap();
    let dbinfo = s.database().unwrap();
    let decisions = resolve(&settings, s.tables().unwrap(), &[]).unwrap();
    // Not held through the run: it is a session of the database's first user, which counts
    // towards that user's SESSIONS_PER_USER in every connector (as in every process).
    drop(s);
    let mut offsets = Offsets::new(DatabaseIdentity::of(&dbinfo));
    let snap = Snapshot {
        connector: &conn,
        settings: &settings,
        ops,
        progress: &NoProgress,
        metrics,
        pin_scn: None,
        signal: None,
        shutdown,
    };
    let mut state = offsets.snapshot.take().unwrap_or_default();
    let out = snap.run(&decisions, &mut state, &mut |_| Ok(()), sink, &|| false);
    offsets.snapshot = Some(state);
    out
}

/// A sink that writes no ROWIDs gets the same rows without them; one that does gets each
/// row's own (a record's `row_id`).
#[test]
fn rows_carry_their_rowids_only_for_a_sink_that_writes_them() {
    let (_d, db) = make_db(&schema(300, "    primary_key: [A]", ""));
    let pairs = ["cdc.tables.include=APP.T", "cdc.snapshot.chunk.rows=100"];
    let rows_of = |no_row_ids: bool| {
        let mut sink = Collect {
            no_row_ids,
            ..Collect::default()
        };
        run_snapshot(&db, &pairs, &mut sink, &OpsLog::discard()).unwrap();
        sink.chunks
            .into_iter()
            .flat_map(|c| c.1.rows)
            .collect::<Vec<_>>()
    };
    let with = rows_of(false);
    let without = rows_of(true);
    assert_eq!(with.len(), 300);
    let mut rowids: Vec<_> = with.iter().map(|r| r.rowid.to_string()).collect();
    assert!(rowids.iter().all(|r| r.len() == 18), "{rowids:?}");
    rowids.sort();
    rowids.dedup();
    assert_eq!(rowids.len(), 300, "each row its own ROWID");
    assert!(without.iter().all(|r| r.rowid.is_empty()));
    let values = |rows: &[FetchedRow]| rows.iter().map(|r| r.values.clone()).collect::<Vec<_>>();
    assert_eq!(values(&with), values(&without));
}

#[test]
fn chunks_equal_the_table_as_of_their_scn_under_a_concurrent_workload() {
    let (_d, db) = make_db(&schema(
        600,
        "    primary_key: [A]",
        "    statistics: missing",
    ));
    let mut w = Writer::open(&db, clock::system(), false).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut sink = Collect::default();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let opts = workload::WorkloadOptions {
                transactions: Some(100_000),
                duration: Some(std::time::Duration::from_secs(20)),
                rate: 0,
                mix: (30, 50, 20),
                tx_size: (1, 3),
                rollback_pct: 10,
                savepoint_pct: 10,
                key_update_pct: 10,
                row_move_pct: 0,
                long_every: 10,
                shared_commit_pct: 10,
                seed: 5,
                lob_pct: 0,
                ..workload::WorkloadOptions::default()
            };
            workload::Workload::new(&mut w, opts)
                .unwrap()
                .run(&|| stop.load(std::sync::atomic::Ordering::SeqCst))
                .unwrap();
        });
        let pairs = [
            "cdc.snapshot.chunk.rows=40",
            "cdc.snapshot.threads=3",
            "cdc.emulator.fault.read.delay.ms=5",
        ];
        let out = run_snapshot(&db, &pairs, &mut sink, &OpsLog::discard());
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
        assert_eq!(out.unwrap(), Outcome::Completed);
    });
    let conn = EmulatorConnector::open(&db, Faults::default()).unwrap();
    let settings = Settings::from_pairs(&["cdc.snapshot.chunk.rows=40"]).unwrap();
    let t = &targets(&settings, &conn)[0];
    let scns: std::collections::BTreeSet<u64> = sink.chunks.iter().map(|c| c.1.scn).collect();
    assert!(
        scns.len() > 3,
        "chunks were read at several SCNs while commits went on"
    );
    for (_, c, _, _) in &sink.chunks {
        let expected = read(&conn, t, c.scn, c.chunk.range());
        assert_eq!(
            c.rows,
            expected,
            "chunk {} read at SCN {} differs from the table as of that SCN",
            c.chunk.describe(),
            c.scn
        );
    }
    // Consecutive key ranges: each chunk starts where the previous one ended.
    let ranges: Vec<&Chunk> = sink.chunks.iter().map(|c| &c.1.chunk).collect();
    for w in ranges.windows(2) {
        match (w[0], w[1]) {
            (Chunk::Key { upper: Some(u), .. }, Chunk::Key { lower: Some(l), .. }) => {
                assert_eq!(u, l)
            }
            other => panic!("not consecutive: {other:?}"),
        }
    }
    assert!(matches!(
        ranges.last(),
        Some(Chunk::Key { upper: None, .. })
    ));
    assert!(
        sink.chunks.first().unwrap().2,
        "the first chunk carries the first record"
    );
    // The last chunk with rows carries the last record (the last chunks may be empty), and
    // only it.
    let last = sink
        .chunks
        .iter()
        .rposition(|c| !c.1.rows.is_empty())
        .unwrap();
    let marked: Vec<usize> = (0..sink.chunks.len())
        .filter(|&i| sink.chunks[i].3)
        .collect();
    assert_eq!(
        marked,
        [last],
        "the last chunk with rows carries the last record"
    );
}

#[test]
fn ora_01555_halves_the_chunk_and_gives_up_with_cdc_8001() {
    let (_d, db) = make_db(&schema(
        3000,
        "    primary_key: [A]",
        "    statistics: missing",
    ));
    let dir = tempfile::tempdir().unwrap();
    let ops_path = dir.path().join("ops.jsonl");
    let ops = OpsLog::to_file(&ops_path).unwrap();
    let mut sink = Collect::default();
    // Chunks of 2000 rows can be halved; the first read fails once.
    let out = run_snapshot(
        &db,
        &[
            "cdc.snapshot.chunk.rows=2000",
            "cdc.snapshot.threads=1",
            "cdc.emulator.fault.ora01555.reads=1",
        ],
        &mut sink,
        &ops,
    )
    .unwrap();
    assert_eq!(out, Outcome::Completed);
    let events = crate::ops::read_events(&ops_path).unwrap();
    let halve = events
        .iter()
        .find(|e| e["event"] == "snapshot-chunk-retry")
        .unwrap();
    assert_eq!(halve["action"], "halve");
    assert_eq!(halve["code"], "CDC-5001");
    assert_eq!(halve["rows"], 1000);
    let sizes: Vec<usize> = sink.chunks.iter().map(|c| c.1.rows.len()).collect();
    assert_eq!(
        sizes,
        vec![1000, 1000, 1000],
        "the failed 2000-row chunk was read again as two halves"
    );
    let attempts: Vec<u32> = sink.chunks.iter().map(|c| c.1.attempts).collect();
    assert_eq!(attempts, vec![2, 2, 1]);
    assert!(sink.chunks[0].1.scn <= sink.chunks[1].1.scn);

    // At 1,000 rows a chunk cannot be halved again: CDC-8001.
    let mut sink = Collect::default();
    let e = run_snapshot(
        &db,
        &[
            "cdc.snapshot.chunk.rows=1000",
            "cdc.snapshot.threads=1",
            "cdc.emulator.fault.ora01555.reads=1,2,3",
        ],
        &mut sink,
        &OpsLog::discard(),
    )
    .unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc8001, "{e}");
    assert!(e.to_string().contains("ORA-01555"), "{e}");
}

#[test]
fn ora_01555_on_a_chunk_between_1000_and_2000_rows_reads_it_again_at_1000() {
    let (_d, db) = make_db(&schema(
        3000,
        "    primary_key: [A]",
        "    statistics: missing",
    ));
    let dir = tempfile::tempdir().unwrap();
    let ops_path = dir.path().join("ops.jsonl");
    let ops = OpsLog::to_file(&ops_path).unwrap();
    let mut sink = Collect::default();
    // A 1,500-row chunk fails once: read again as 1,000 rows and the 500 after them.
    let out = run_snapshot(
        &db,
        &[
            "cdc.snapshot.chunk.rows=1500",
            "cdc.snapshot.threads=1",
            "cdc.emulator.fault.ora01555.reads=1",
        ],
        &mut sink,
        &ops,
    )
    .unwrap();
    assert_eq!(out, Outcome::Completed);
    let events = crate::ops::read_events(&ops_path).unwrap();
    let halve = events
        .iter()
        .find(|e| e["event"] == "snapshot-chunk-retry")
        .unwrap();
    assert_eq!(halve["action"], "halve");
    assert_eq!(halve["rows"], 1000);
    let sizes: Vec<usize> = sink.chunks.iter().map(|c| c.1.rows.len()).collect();
    assert_eq!(sizes, vec![1000, 500, 1500]);
    let rows: std::collections::BTreeSet<String> = sink
        .chunks
        .iter()
        .flat_map(|c| c.1.rows.iter().map(|r| r.rowid.to_string()))
        .collect();
    assert_eq!(rows.len(), 3000, "every row read once");

    // The 1,000-row re-read fails too: that one is at the floor, CDC-8001.
    let mut sink = Collect::default();
    let dir = tempfile::tempdir().unwrap();
    let ops_path = dir.path().join("ops.jsonl");
    let e = run_snapshot(
        &db,
        &[
            "cdc.snapshot.chunk.rows=1500",
            "cdc.snapshot.threads=1",
            "cdc.emulator.fault.ora01555.reads=1,2",
        ],
        &mut sink,
        &OpsLog::to_file(&ops_path).unwrap(),
    )
    .unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc8001, "{e}");
    assert!(e.to_string().contains("below 1000 rows"), "{e}");
    let events = crate::ops::read_events(&ops_path).unwrap();
    let retries: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| e["event"] == "snapshot-chunk-retry")
        .collect();
    assert_eq!(retries.len(), 1, "{retries:?}");
    assert_eq!(retries[0]["rows"], 1000);
}

#[test]
fn dropped_connections_are_retried_up_to_the_limit() {
    let (_d, db) = make_db(&schema(50, "    primary_key: [A]", ""));
    let mut sink = Collect::default();
    let out = run_snapshot(
        &db,
        &[
            "cdc.snapshot.chunk.rows=10",
            "cdc.snapshot.threads=2",
            "cdc.emulator.fault.drop.per.mille=150",
            "cdc.emulator.fault.seed=4",
            "cdc.snapshot.chunk.retries=50",
        ],
        &mut sink,
        &OpsLog::discard(),
    );
    assert_eq!(out.unwrap(), Outcome::Completed);
    let rows: usize = sink.chunks.iter().map(|c| c.1.rows.len()).sum();
    assert_eq!(rows, 50);
    let mut sink = Collect::default();
    let e = run_snapshot(
        &db,
        &[
            "cdc.snapshot.chunk.rows=10",
            "cdc.snapshot.threads=1",
            "cdc.emulator.fault.drop.per.mille=1000",
            "cdc.snapshot.chunk.retries=2",
        ],
        &mut sink,
        &OpsLog::discard(),
    )
    .unwrap_err();
    assert!(
        matches!(
            e.code(),
            crate::errors::Code::Cdc8001 | crate::errors::Code::Cdc5007
        ),
        "{e}"
    );
}

/// The rows the sink got, and how many of them are distinct (by ROWID).
fn rows_and_distinct(sink: &Collect) -> (usize, usize) {
    let rows: Vec<String> = sink
        .chunks
        .iter()
        .flat_map(|c| c.1.rows.iter().map(|r| r.rowid.to_string()))
        .collect();
    let distinct: std::collections::BTreeSet<&String> = rows.iter().collect();
    (rows.len(), distinct.len())
}

/// A 200-row APP.T in a database whose users are `users` (YAML list items, one a line).
fn db_with_users(users: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    make_db(&format!(
        "database:\n  users:\n{users}{}",
        schema(200, "    primary_key: [A]", "")
    ))
}

/// What a snapshot as `user` with `pairs` did: its outcome, what the sink got, the ops events
/// and the readers gauge at the end.
struct LimitedRun {
    out: Result<Outcome>,
    sink: Collect,
    events: Vec<serde_json::Value>,
    readers: u64,
}

impl LimitedRun {
    fn of(db: &std::path::Path, user: &str, pairs: &[&str]) -> LimitedRun {
        LimitedRun::stopped_by(db, user, pairs, None)
    }

    /// [`LimitedRun::of`], the whole run told to stop once `shutdown` says so.
    fn stopped_by(
        db: &std::path::Path,
        user: &str,
        pairs: &[&str],
        shutdown: Option<crate::source::Stop>,
    ) -> LimitedRun {
        let dir = tempfile::tempdir().unwrap();
        let ops_path = dir.path().join("ops.jsonl");
        let metrics: Arc<Mutex<crate::ops::SnapshotMetrics>> = Default::default();
        let mut sink = Collect::default();
        let out = run_snapshot_as(
            db,
            Some(user),
            pairs,
            &mut sink,
            &OpsLog::to_file(&ops_path).unwrap(),
            metrics.clone(),
            shutdown,
        );
        let events = crate::ops::read_events(&ops_path).unwrap();
        let readers = metrics.lock().unwrap().readers;
        LimitedRun {
            out,
            sink,
            events,
            readers,
        }
    }

    /// The `snapshot-readers-reduced` events.
    fn reduced(&self) -> Vec<&serde_json::Value> {
        self.events
            .iter()
            .filter(|e| e["event"] == "snapshot-readers-reduced")
            .collect()
    }
}

/// A user whose profile allows 3 sessions at once (SESSIONS_PER_USER) and 4 reading threads:
/// the reads the database refuses (ORA-02391, CDC-2011) are read again with fewer sessions, so
/// the snapshot completes with the coordinating session and two readers, every row once, each
/// reduction a `snapshot-readers-reduced` event and the readers gauge at 2. With room for the
/// coordinating session alone, no reader can read: CDC-2011, as before.
#[test]
fn a_snapshot_at_the_users_session_limit_reads_on_with_fewer_sessions() {
    let (_d, db) = db_with_users(
        "    - { name: CDC, sessions_per_user: 3 }\n    - { name: ONE, sessions_per_user: 1 }\n",
    );
    let pairs = [
        "cdc.snapshot.chunk.rows=10",
        "cdc.snapshot.threads=4",
        "cdc.snapshot.chunk.retries=0",
    ];
    let run = LimitedRun::of(&db, "CDC", &pairs);
    assert_eq!(run.out.as_ref().unwrap(), &Outcome::Completed);
    assert_eq!(rows_and_distinct(&run.sink), (200, 200), "every row once");
    let (events, reduced) = (&run.events, run.reduced());
    assert!(!reduced.is_empty(), "{events:?}");
    for e in &reduced {
        assert_eq!(e["code"], "CDC-2011", "{e}");
        assert_eq!(e["table"], "APP.T", "{e}");
        assert!(e["message"].as_str().unwrap().contains("ORA-02391"), "{e}");
    }
    let last = reduced.last().unwrap();
    assert_eq!(
        (last["gave_up"].as_str(), last["readers"].as_u64()),
        (Some("reader"), Some(2)),
        "{last}"
    );
    assert_eq!(run.readers, 2);
    assert!(
        !events.iter().any(|e| e["event"] == "snapshot-chunk-failed"),
        "{events:?}"
    );

    // Room for one session: the coordinating one holds it, and no reader can have one.
    let run = LimitedRun::of(&db, "ONE", &pairs);
    let e = run.out.unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc2011, "{e}");
    assert!(run.sink.chunks.is_empty());
}

/// Room for the coordinating session and the readers, not the clock: its login is refused
/// once (a `snapshot-readers-reduced` event, `gave_up` `clock`), and not again each wave; the
/// readers all read.
#[test]
fn a_clock_refused_at_the_session_limit_is_given_up_once() {
    let (_d, db) = db_with_users("    - { name: CDC, sessions_per_user: 3 }\n");
    let run = LimitedRun::of(
        &db,
        "CDC",
        &["cdc.snapshot.chunk.rows=10", "cdc.snapshot.threads=2"],
    );
    assert_eq!(run.out.as_ref().unwrap(), &Outcome::Completed);
    let rows: usize = run.sink.chunks.iter().map(|c| c.1.rows.len()).sum();
    assert_eq!(rows, 200);
    let reduced = run.reduced();
    assert_eq!(reduced.len(), 1, "{reduced:?}");
    assert_eq!(reduced[0]["gave_up"], "clock");
    assert_eq!(reduced[0]["readers"], 2);
    assert_eq!(run.readers, 2);
}

/// A reader's connection cut where no session can be given up (one reader beside the
/// coordinating one, the user's whole SESSIONS_PER_USER): the database counts the lost session
/// a while (`cdc.emulator.fault.dead.connection.ms`), and the new login waits that out instead
/// of stopping the snapshot with CDC-2011. Every row is read once.
#[test]
fn a_lost_reader_at_the_session_limit_waits_for_its_place() {
    let (_d, db) = db_with_users("    - { name: CDC, sessions_per_user: 2 }\n");
    let run = LimitedRun::of(
        &db,
        "CDC",
        &[
            "cdc.snapshot.chunk.rows=10",
            "cdc.snapshot.threads=1",
            "cdc.snapshot.chunk.retries=50",
            "cdc.database.connect.backoff.ms=10",
            "cdc.database.connect.backoff.max.ms=50",
            "cdc.emulator.fault.seed=5",
            "cdc.emulator.fault.drop.per.mille=100",
            "cdc.emulator.fault.dead.connection.ms=150",
        ],
    );
    assert_eq!(run.out.unwrap(), Outcome::Completed);
    assert_eq!(rows_and_distinct(&run.sink), (200, 200), "every row once");
}

/// As above, but the database counts the lost session for ten minutes, and the run is told to
/// stop (capture's Ctrl-C) while the new login waits that out: the login gives up at once with
/// CDC-5007 "stopped while reconnecting", which capture and the export end as a stop with the
/// state as last saved. Before, the stop was not seen until cdc.database.reconnect.max.ms had
/// passed (ten minutes by default; here a minute), and the snapshot then failed with CDC-2011.
#[test]
fn a_stop_ends_a_login_waiting_out_the_session_limit() {
    let (_d, db) = db_with_users("    - { name: CDC, sessions_per_user: 2 }\n");
    let started = std::time::Instant::now();
    // Told to stop a moment after the reads began (the moment does not matter much: the lost
    // session counts far longer).
    let shutdown = || started.elapsed() > std::time::Duration::from_millis(300);
    let run = LimitedRun::stopped_by(
        &db,
        "CDC",
        &[
            "cdc.snapshot.chunk.rows=10",
            "cdc.snapshot.threads=1",
            "cdc.snapshot.chunk.retries=50",
            "cdc.database.connect.backoff.ms=10",
            "cdc.database.connect.backoff.max.ms=50",
            "cdc.database.reconnect.max.ms=60000",
            "cdc.emulator.fault.seed=5",
            "cdc.emulator.fault.drop.per.mille=100",
            "cdc.emulator.fault.dead.connection.ms=600000",
        ],
        Some(&shutdown),
    );
    let took = started.elapsed();
    let e = run.out.unwrap_err();
    assert!(
        matches!(e, crate::errors::CdcError::StoppedReconnecting { .. }),
        "{e}"
    );
    assert!(e.to_string().contains("ORA-02391"), "{e}");
    assert!(
        took < std::time::Duration::from_secs(30),
        "the stop was seen after {took:?}"
    );
    // What was read before is published once; the rest waits for the next run.
    let (rows, distinct) = rows_and_distinct(&run.sink);
    assert!(
        rows < 200 && rows == distinct,
        "{rows} rows, {distinct} distinct"
    );
}

/// A database of APP.T with `rows` rows and key `key`, whose users CDC and LOW may read 1,500
/// and 500 rows in one call (LOGICAL_READS_PER_CALL).
fn db_with_call_limits(key: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    make_db(&format!(
        "database:\n  users:\n    - {{ name: CDC, logical_reads_per_call: 1500 }}\n    - {{ name: LOW, logical_reads_per_call: 500 }}\n{}",
        schema(6000, key, "")
    ))
}

/// The `snapshot-chunk-retry` events of a run: their action, and rows or chunks.
fn retries(run: &LimitedRun) -> Vec<(String, u64)> {
    run.events
        .iter()
        .filter(|e| e["event"] == "snapshot-chunk-retry")
        .map(|e| {
            assert_eq!(e["code"], "CDC-5017", "{e}");
            let n = e["rows"].as_u64().or(e["chunks"].as_u64()).unwrap_or(0);
            (e["action"].as_str().unwrap_or_default().to_string(), n)
        })
        .collect()
}

/// A chunk read past the capture user's LOGICAL_READS_PER_CALL (ORA-02395, CDC-5017) is read
/// again in halves, as after ORA-01555, and the chunks planned after it are planned at the
/// size that passed (a table read by ROWID ranges: extents are planned as they are read), so
/// the snapshot completes with every row once, each halving a `snapshot-chunk-retry` event.
#[test]
fn chunks_read_past_a_per_call_limit_are_read_in_halves_and_planned_smaller() {
    let (_d, db) = db_with_call_limits("");
    let pairs = ["cdc.snapshot.chunk.rows=4000", "cdc.snapshot.threads=1"];
    let run = LimitedRun::of(&db, "CDC", &pairs);
    assert_eq!(run.out.as_ref().unwrap(), &Outcome::Completed);
    assert_eq!(rows_and_distinct(&run.sink), (6000, 6000), "every row once");
    let halved = retries(&run);
    // The first chunk (about 4,000 rows) and both its halves (2,000) pass the limit; the
    // extents after them are planned 1,000 rows a chunk and pass. Planned at 4,000, the rest
    // of the table would fail twice more.
    assert_eq!(
        halved,
        [
            ("halve".to_string(), 2000),
            ("halve".into(), 1000),
            ("halve".into(), 1000)
        ]
    );
    assert!(run.sink.chunks.iter().all(|c| c.1.rows.len() <= 1500));

    // Below the smallest chunk (1,000 rows): CDC-8001, naming ORA-02395.
    let run = LimitedRun::of(&db, "LOW", &pairs);
    let e = run.out.unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc8001, "{e}");
    assert!(
        e.to_string().contains("ORA-02395") && e.to_string().contains("1000 rows"),
        "{e}"
    );
}

/// Chunks of an even split (an integral key with statistics: planned all at once) read past
/// the limit are cut where the probe that finds the cut passes the limit too: asked for the
/// first half (2,000 rows) it reads 2,001 rows, past the 1,500, and is asked again for 1,000.
/// Before, that probe's CDC-5017 stopped the snapshot. Every row is read once.
#[test]
fn an_even_split_chunk_past_a_per_call_limit_is_cut_where_the_cut_fits() {
    let (_d, db) = db_with_call_limits("    primary_key: [A]");
    let run = LimitedRun::of(
        &db,
        "CDC",
        &["cdc.snapshot.chunk.rows=4000", "cdc.snapshot.threads=1"],
    );
    assert_eq!(run.out.as_ref().unwrap(), &Outcome::Completed);
    assert_eq!(rows_and_distinct(&run.sink), (6000, 6000), "every row once");
    let cuts = retries(&run);
    assert!(
        !cuts.is_empty() && cuts.iter().all(|(a, _)| a == "halve"),
        "{cuts:?}"
    );
    assert!(run.sink.chunks.iter().all(|c| c.1.rows.len() <= 1500));
}

/// A key probe reads the rows of every chunk it bounds in one call: past the capture user's
/// LOGICAL_READS_PER_CALL, probes ask for fewer chunks (a wave is then planned in several),
/// down to one, then for chunks of half the rows, down to 1,000; each step a
/// `snapshot-chunk-retry` event (`plan-fewer`, `plan-smaller`). Every row is read once.
#[test]
fn key_probes_past_a_per_call_limit_ask_for_fewer_then_smaller_chunks() {
    // A text key: chunks are planned as they are read (key probes), not all at once.
    let (_d, db) = db_with_call_limits("    primary_key: [B]");
    // Four chunks of 1,000 rows a wave: a probe reads 4,001 rows, then 2,001, then 1,001.
    let run = LimitedRun::of(
        &db,
        "CDC",
        &["cdc.snapshot.chunk.rows=1000", "cdc.snapshot.threads=4"],
    );
    assert_eq!(run.out.as_ref().unwrap(), &Outcome::Completed);
    assert_eq!(rows_and_distinct(&run.sink), (6000, 6000), "every row once");
    assert_eq!(
        retries(&run),
        [("plan-fewer".to_string(), 2), ("plan-fewer".into(), 1)]
    );
    assert!(run.sink.chunks.iter().all(|c| c.1.rows.len() <= 1000));
    // One chunk of 4,000 rows a probe: 2,000, then 1,000.
    let run = LimitedRun::of(
        &db,
        "CDC",
        &["cdc.snapshot.chunk.rows=4000", "cdc.snapshot.threads=1"],
    );
    assert_eq!(run.out.as_ref().unwrap(), &Outcome::Completed);
    assert_eq!(rows_and_distinct(&run.sink), (6000, 6000), "every row once");
    assert_eq!(
        retries(&run),
        [
            ("plan-smaller".to_string(), 2000),
            ("plan-smaller".into(), 1000)
        ]
    );
    // No probe fits LOW's 500: CDC-8001 naming ORA-02395.
    let run = LimitedRun::of(&db, "LOW", &["cdc.snapshot.chunk.rows=4000"]);
    let e = run.out.unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc8001, "{e}");
    assert!(e.to_string().contains("ORA-02395"), "{e}");
}

/// Without a change stream (the export, snapshot_only) the reader asks the dictionary for the
/// table's columns after each wave's SCN is taken: chunks read after an ADD COLUMN have it, and
/// after a DROP COLUMN they no longer select it (before: ORA-00904 until CDC-8001), each equal
/// to the table as of its SCN. cdc.columns.exclude still applies to a column added later.
#[test]
fn without_a_stream_chunks_select_the_columns_the_dictionary_has_at_their_scn() {
    use crate::source::emulator::redo::DdlChange;
    let (_d, db) = make_db(&schema(300, "    primary_key: [A]", ""));
    let mut w = Writer::open(&db, clock::system(), false).unwrap();
    let chunks = std::rc::Rc::new(std::cell::Cell::new(0u32));
    let n = chunks.clone();
    let armed = crate::crashpoint::arm(move |point| {
        if point != crate::crashpoint::Point::SnapshotChunkPublished {
            return Ok(());
        }
        n.set(n.get() + 1);
        let column = |name: &str| cdc_core::model::ColumnInfo {
            name: name.into(),
            data_type: crate::types::ColumnType::varchar2(8),
            nullable: true,
            virtual_column: false,
            hidden: false,
        };
        match n.get() {
            2 => {
                w.ddl(
                    0,
                    DdlChange::AddColumn {
                        column: column("D"),
                    },
                )?;
                w.ddl(
                    0,
                    DdlChange::AddColumn {
                        column: column("SECRET"),
                    },
                )?;
                let rids: Vec<_> = w.replica().tables[0].rows.keys().copied().collect();
                let x = w.begin()?;
                for rid in rids {
                    w.update_set(x, 0, rid, &[(3, Value::Text("d".into()))])?;
                }
                w.commit(&[x])?;
            }
            4 => {
                w.ddl(0, DdlChange::DropColumn { name: "C".into() })?;
            }
            _ => {}
        }
        Ok(())
    });
    let mut sink = Collect::default();
    let out = run_snapshot(
        &db,
        &[
            "cdc.snapshot.chunk.rows=50",
            "cdc.snapshot.threads=1",
            // One chunk held at a time: no wave is read ahead, so each DDL made at a publish
            // comes before the next wave's SCN (read ahead, that wave would rightly select
            // the columns before it).
            "cdc.snapshot.max.pending.chunks=1",
            "cdc.columns.exclude=APP.T.SECRET",
        ],
        &mut sink,
        &OpsLog::discard(),
    );
    drop(armed);
    assert_eq!(out.unwrap(), Outcome::Completed);
    let names = |c: &ReadChunk| c.columns.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    let layouts: Vec<Vec<String>> = sink.chunks.iter().map(|c| names(&c.1)).collect();
    assert_eq!(layouts.len(), 6);
    assert_eq!(layouts[0], ["A", "B", "C"]);
    assert_eq!(layouts[2], ["A", "B", "C", "D"]);
    assert_eq!(layouts[5], ["A", "B", "D"]);
    let conn = EmulatorConnector::open(&db, Faults::default()).unwrap();
    let settings = Settings::from_pairs::<&str>(&[]).unwrap();
    let t = &targets(&settings, &conn)[0];
    let mut checked = 0;
    for (_, c, _, _) in &sink.chunks {
        let mut s = conn.connect().unwrap();
        let q = FlashbackQuery {
            table: t.info.name.clone(),
            columns: names(c),
            key_columns: vec!["A".into()],
            scn: c.scn,
            range: c.chunk.range(),
            filter: None,
            row_ids: true,
        };
        let mut rows = Vec::new();
        // Reads before the last DDL fail now with ORA-01466, as Oracle's do.
        match s.read_as_of(&q, &mut |r| {
            rows.push(r);
            Ok(())
        }) {
            Err(crate::errors::CdcError::TableDefinitionChanged { .. }) => continue,
            other => other.map(|_| ()).unwrap(),
        }
        checked += 1;
        assert_eq!(
            c.rows,
            rows,
            "chunk {} at SCN {}",
            c.chunk.describe(),
            c.scn
        );
    }
    assert!(checked >= 2, "the chunks after the DROP");
    for (_, c, _, _) in &sink.chunks[2..] {
        let d = names(c).iter().position(|n| n == "D").unwrap();
        assert!(c
            .rows
            .iter()
            .all(|r| r.values[d] == Value::Text("d".into())));
    }
}

/// A session whose key boundary probes compare what Oracle compares when an NVARCHAR2 bound is
/// sent as VARCHAR2 to a database whose character set lacks its characters: the bound converted
/// first, each such character a '¿'.
struct ConvertedBounds {
    inner: Box<dyn cdc_core::session::Session>,
}

impl cdc_core::session::Catalog for ConvertedBounds {
    cdc_core::forward_catalog!(inner);
}

impl cdc_core::session::Flashback for ConvertedBounds {
    fn current_scn(&mut self) -> crate::errors::Result<Scn> {
        self.inner.current_scn()
    }
    fn read_as_of(
        &mut self,
        q: &FlashbackQuery,
        row: &mut dyn FnMut(FetchedRow) -> crate::errors::Result<()>,
    ) -> crate::errors::Result<u64> {
        self.inner.read_as_of(q, row)
    }
    fn key_range(
        &mut self,
        table: &crate::names::TableName,
        key_column: &str,
        scn: Option<Scn>,
    ) -> crate::errors::Result<Option<(Value, Value)>> {
        self.inner.key_range(table, key_column, scn)
    }
    fn key_boundaries(
        &mut self,
        q: &cdc_core::model::BoundaryQuery,
    ) -> crate::errors::Result<Vec<Vec<Value>>> {
        let mut q = q.clone();
        if let Some(lower) = q.lower.as_mut() {
            for v in lower.iter_mut() {
                if let Value::Text(t) = v {
                    let converted: String = t
                        .chars()
                        .map(|c| if (c as u32) < 0x100 { c } else { '¿' })
                        .collect();
                    *v = Value::Text(converted.as_str().into());
                }
            }
        }
        self.inner.key_boundaries(&q)
    }
    fn check_condition(
        &mut self,
        table: &crate::names::TableName,
        condition: &str,
    ) -> crate::errors::Result<()> {
        self.inner.check_condition(table, condition)
    }
    fn scn_to_time(&mut self, scn: Scn) -> crate::errors::Result<Option<String>> {
        self.inner.scn_to_time(scn)
    }
}

impl cdc_core::session::Miner for ConvertedBounds {
    cdc_core::forward_miner!(inner);
}

impl cdc_core::session::Admin for ConvertedBounds {
    cdc_core::forward_admin!(inner);
}

/// An NVARCHAR2 key whose characters the database character set lacks, with bounds the database
/// converts: each probe starts over from '¿…', so its boundaries never pass the lower bound.
/// Planning stops with CDC-8001 naming the table and why, instead of planning empty chunks
/// forever (before: 300 rounds of probes and still not done).
#[test]
fn key_probes_that_do_not_pass_their_lower_bound_stop_planning_with_cdc_8001() {
    let (_d, db) = make_db(
        r#"
database:
  character_set: WE8MSWIN1252
  national_character_set: AL16UTF16
tables:
  - name: APP.N
    columns:
      - { name: K, type: NVARCHAR2(10), nullable: false }
      - { name: V, type: NUMBER(10) }
    primary_key: [K]
    rows: 0
"#,
    );
    let mut w = Writer::open(&db, clock::system(), true).unwrap();
    let t = w.begin().unwrap();
    for i in 0..60 {
        let key = format!("日本{i:03}");
        w.insert(
            t,
            0,
            vec![
                Value::Text(key.as_str().into()),
                Value::Number(i.to_string().as_str().into()),
            ],
        )
        .unwrap();
    }
    w.commit(&[t]).unwrap();
    drop(w);
    let conn = EmulatorConnector::open(&db, Faults::default()).unwrap();
    let settings = Settings::from_pairs(&["cdc.tables.include=APP.N".to_string()]).unwrap();
    let target = targets(&settings, &conn).remove(0);
    let mut s = ConvertedBounds {
        inner: conn.connect().unwrap(),
    };
    let scn = cdc_core::session::Flashback::current_scn(&mut s).unwrap();
    let mut p = Planner::new(&target, 5, None, &mut s).unwrap();
    let mut result = Ok(());
    for _ in 0..300 {
        if p.is_done() {
            break;
        }
        if let Err(e) = p.next(&mut s, scn, 3) {
            result = Err(e);
            break;
        }
    }
    let e = result.expect_err("planning stops");
    assert_eq!(e.code(), crate::errors::Code::Cdc8010, "{e}");
    let text = e.to_string();
    assert!(
        text.contains("APP.N") && text.contains("not past its lower bound"),
        "{text}"
    );
}
