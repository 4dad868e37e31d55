//! DDL while a table's chunks are read (issue 35, item 13), made deterministic: a connector
//! whose sessions run an ADD or DROP COLUMN just before chosen calls, so a read AS OF the SCN
//! taken before it fails with ORA-01466 as Oracle's does. The chunk (or the key boundaries of
//! the next ones) is read again at a fresh SCN, counted apart from `cdc.snapshot.chunk.retries`
//! and bounded by `cdc.snapshot.chunk.ddl.retries`; a blocking snapshot stops with the reason.

use super::read::ReadChunk;
use super::target::{resolve, TableTarget};
use super::*;
use crate::names::TableName;
use crate::source::emulator::redo::DdlChange;
use crate::source::emulator::{clock, init, writer::Writer, EmulatorConnector};
use crate::types::{ColumnType, Value};
use cdc_core::model::*;
use cdc_core::session::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs a DDL on the table before the calls it is told to (numbered from 1 per kind).
struct Hook {
    writer: Mutex<Writer>,
    boundaries: AtomicUsize,
    reads: AtomicUsize,
    ddl_before_boundaries: Vec<usize>,
    ddl_before_reads: Vec<usize>,
    /// The table's layouts after each DDL, from its SCN on.
    layouts: Mutex<Vec<(Scn, Vec<ColumnInfo>)>>,
    /// ALTER TABLE … MOVE in place of the ADD / DROP COLUMN.
    moves: bool,
    /// The sink has each row once, as the export ([`ChunkSink::each_row_once`]).
    once: bool,
}

impl Hook {
    /// ADD COLUMN X when the table has no X, DROP COLUMN X when it has.
    fn ddl(&self) -> Result<()> {
        let mut w = self
            .writer
            .lock()
            .map_err(|_| CdcError::Database("poisoned".into()))?;
        if self.moves {
            w.move_segment(0, None)?;
            return Ok(());
        }
        let has = w.columns(0).iter().any(|c| c.name == "X");
        let change = match has {
            true => DdlChange::DropColumn { name: "X".into() },
            false => DdlChange::AddColumn {
                column: ColumnInfo {
                    name: "X".into(),
                    data_type: ColumnType::Varchar2 {
                        length: 8,
                        chars: None,
                    },
                    nullable: true,
                    virtual_column: false,
                    hidden: false,
                },
            },
        };
        let scn = w.ddl(0, change)?;
        let now = w.columns(0).to_vec();
        if let Ok(mut l) = self.layouts.lock() {
            l.push((scn, now));
        }
        Ok(())
    }
}

use crate::errors::CdcError;

struct Hooked {
    inner: EmulatorConnector,
    hook: Arc<Hook>,
}

impl Connector for Hooked {
    fn connect(&self) -> Result<Box<dyn Session>> {
        Ok(Box::new(HookedSession {
            inner: self.inner.connect()?,
            hook: self.hook.clone(),
        }))
    }
    fn describe(&self) -> String {
        self.inner.describe()
    }
}

struct HookedSession {
    inner: Box<dyn Session>,
    hook: Arc<Hook>,
}

impl Catalog for HookedSession {
    cdc_core::forward_catalog!(inner);
}

impl Flashback for HookedSession {
    fn current_scn(&mut self) -> Result<Scn> {
        self.inner.current_scn()
    }

    fn read_as_of(
        &mut self,
        q: &FlashbackQuery,
        row: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        let n = self.hook.reads.fetch_add(1, Ordering::SeqCst) + 1;
        if self.hook.ddl_before_reads.contains(&n) {
            self.hook.ddl()?;
        }
        self.inner.read_as_of(q, row)
    }

    fn key_range(
        &mut self,
        table: &TableName,
        key_column: &str,
        scn: Option<Scn>,
    ) -> Result<Option<(Value, Value)>> {
        self.inner.key_range(table, key_column, scn)
    }

    fn key_boundaries(&mut self, q: &BoundaryQuery) -> Result<Vec<Vec<Value>>> {
        let n = self.hook.boundaries.fetch_add(1, Ordering::SeqCst) + 1;
        if self.hook.ddl_before_boundaries.contains(&n) {
            self.hook.ddl()?;
        }
        self.inner.key_boundaries(q)
    }

    fn check_condition(&mut self, table: &TableName, condition: &str) -> Result<()> {
        self.inner.check_condition(table, condition)
    }

    fn scn_to_time(&mut self, scn: Scn) -> Result<Option<String>> {
        self.inner.scn_to_time(scn)
    }
}

impl Miner for HookedSession {
    cdc_core::forward_miner!(inner);
}

impl Admin for HookedSession {
    cdc_core::forward_admin!(inner);
}

/// Records what it is given: `wave SCN` and `chunk SCN` in order, and each chunk. Like
/// capture's, it knows the table's layout at each SCN (the hook's DDLs), so the reader does not
/// ask the dictionary beside the reads, whose DDLs the hook makes.
struct Sink {
    events: Vec<(&'static str, Scn)>,
    chunks: Vec<ReadChunk>,
    hook: Arc<Hook>,
}

impl ChunkSink for Sink {
    fn columns(&mut self, t: &TableTarget, scn: Scn) -> Option<Vec<ColumnInfo>> {
        let layouts = self.hook.layouts.lock().ok()?;
        let at = layouts.iter().rev().find(|(s, _)| *s <= scn);
        Some(at.map_or_else(|| t.columns.clone(), |(_, c)| c.clone()))
    }

    fn wave(&mut self, scn: Scn) -> Result<()> {
        self.events.push(("wave", scn));
        Ok(())
    }

    fn each_row_once(&self) -> bool {
        self.hook.once
    }

    fn publish(
        &mut self,
        _t: &TableTarget,
        c: &mut ReadChunk,
        _first: bool,
        _last: bool,
        _p: &mut crate::offsets::TableProgress,
    ) -> Result<()> {
        self.events.push(("chunk", c.scn));
        self.chunks.push(c.clone());
        Ok(())
    }
}

/// 200 rows with stale statistics: the key is cut by boundary probes AS OF each wave's SCN.
fn table() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(
        &schema,
        r#"
tables:
  - name: APP.T
    columns:
      - { name: A, type: NUMBER(10), nullable: false }
      - { name: B, type: VARCHAR2(12) }
    primary_key: [A]
    statistics: stale
    rows: 200
"#,
    )
    .unwrap();
    let db = dir.path().join("db");
    init(&db, &schema, None, clock::system()).unwrap();
    (dir, db)
}

struct Run {
    out: Result<Outcome>,
    sink: Sink,
    events: Vec<serde_json::Value>,
    retries: u64,
}

fn snapshot(
    db: &std::path::Path,
    pairs: &[&str],
    ddl_before_boundaries: &[usize],
    ddl_before_reads: &[usize],
    pin: bool,
) -> Run {
    run(
        db,
        pairs,
        ddl_before_boundaries,
        ddl_before_reads,
        pin,
        false,
        false,
    )
}

fn run(
    db: &std::path::Path,
    pairs: &[&str],
    ddl_before_boundaries: &[usize],
    ddl_before_reads: &[usize],
    pin: bool,
    moves: bool,
    once: bool,
) -> Run {
    let settings = Settings::from_pairs(pairs).unwrap();
    let hook = Arc::new(Hook {
        writer: Mutex::new(Writer::open(db, clock::system(), false).unwrap()),
        boundaries: AtomicUsize::new(0),
        reads: AtomicUsize::new(0),
        ddl_before_boundaries: ddl_before_boundaries.to_vec(),
        ddl_before_reads: ddl_before_reads.to_vec(),
        layouts: Mutex::new(Vec::new()),
        moves,
        once,
    });
    let conn = Hooked {
        inner: EmulatorConnector::open(db, settings.emulator_faults()).unwrap(),
        hook: hook.clone(),
    };
    let mut s = conn.connect().unwrap();
    let decisions = resolve(&settings, s.tables().unwrap(), &[]).unwrap();
    let pin_scn = pin.then(|| s.current_scn().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let ops_path = dir.path().join("ops.jsonl");
    let ops = OpsLog::to_file(&ops_path).unwrap();
    let metrics: Arc<Mutex<SnapshotMetrics>> = Default::default();
    let mut sink = Sink {
        events: Vec::new(),
        chunks: Vec::new(),
        hook: conn.hook.clone(),
    };
    let out = Snapshot {
        connector: &conn,
        settings: &settings,
        ops: &ops,
        progress: &NoProgress,
        metrics: metrics.clone(),
        pin_scn,
        signal: None,
        shutdown: None,
    }
    .run(
        &decisions,
        &mut SnapshotState::default(),
        &mut |_| Ok(()),
        &mut sink,
        &|| false,
    );
    let events = std::fs::read_to_string(&ops_path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let retries = metrics.lock().unwrap().retries;
    Run {
        out,
        sink,
        events,
        retries,
    }
}

fn retries_of<'a>(run: &'a Run, action: &str) -> Vec<&'a serde_json::Value> {
    run.events
        .iter()
        .filter(|e| e["event"] == "snapshot-chunk-retry" && e["action"] == action)
        .collect()
}

/// Every key once, in order; every chunk right after the `wave` of its SCN.
fn assert_whole_and_ordered(sink: &Sink, rows: usize) {
    let keys: Vec<Value> = sink
        .chunks
        .iter()
        .flat_map(|c| c.rows.iter().map(|r| r.values[0].clone()))
        .collect();
    assert_eq!(keys.len(), rows, "rows published");
    for w in keys.windows(2) {
        assert!(
            crate::types::compare_keys(&[w[0].clone()], &[w[1].clone()]).is_lt(),
            "{:?} then {:?}",
            w[0],
            w[1]
        );
    }
    let mut wave = None;
    for (what, scn) in &sink.events {
        match *what {
            "wave" => wave = Some(*scn),
            _ => assert_eq!(Some(*scn), wave, "a chunk read at {scn} after another wave"),
        }
    }
}

#[test]
fn key_boundaries_a_ddl_refuses_are_asked_again_at_a_fresh_scn() {
    let (_d, db) = table();
    // The 2nd and 3rd probes come after a DDL newer than their SCN: both fail with ORA-01466.
    let run = snapshot(
        &db,
        &[
            "cdc.snapshot.chunk.rows=40",
            "cdc.snapshot.threads=1",
            "cdc.snapshot.max.pending.chunks=1",
            "cdc.snapshot.chunk.retries=0",
        ],
        &[2, 3],
        &[],
        false,
    );
    assert_eq!(*run.out.as_ref().unwrap(), Outcome::Completed);
    let replans = retries_of(&run, "replan");
    assert_eq!(replans.len(), 2, "{:#?}", run.events);
    for r in &replans {
        assert_eq!(r["code"], "CDC-5003");
        assert!(r["at_scn"].as_u64().unwrap() > r["scn"].as_u64().unwrap());
    }
    assert_eq!(run.retries, 2, "one retry in the metric each");
    assert_whole_and_ordered(&run.sink, 200);
}

#[test]
fn a_chunk_a_ddl_fails_is_read_again_at_a_fresh_scn_with_the_new_layout() {
    let (_d, db) = table();
    // cdc.snapshot.chunk.retries=0: the two reads ORA-01466 fails are retried all the same.
    let run = snapshot(
        &db,
        &[
            "cdc.snapshot.chunk.rows=40",
            "cdc.snapshot.threads=1",
            "cdc.snapshot.max.pending.chunks=1",
            "cdc.snapshot.chunk.retries=0",
        ],
        &[],
        &[2, 3],
        false,
    );
    assert_eq!(*run.out.as_ref().unwrap(), Outcome::Completed);
    let rereads = retries_of(&run, "retry");
    assert_eq!(rereads.len(), 2, "{:#?}", run.events);
    assert!(rereads
        .iter()
        .all(|r| r["code"] == "CDC-5003"
            && r["ddl_scn"].as_u64().unwrap() > r["scn"].as_u64().unwrap()));
    assert_eq!(run.retries, 2);
    assert_whole_and_ordered(&run.sink, 200);
    // The first chunk was read before the ADD; the second, read again after the ADD and the
    // DROP that failed it twice, has the layout it had at its fresh SCN: A, B again.
    let layout = |c: &ReadChunk| c.columns.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    assert!(run.sink.chunks.iter().all(|c| layout(c) == ["A", "B"]));
    assert_eq!(run.sink.chunks[1].attempts, 3, "read three times");
}

#[test]
fn a_chunk_read_after_an_add_column_selects_it() {
    let (_d, db) = table();
    let run = snapshot(
        &db,
        &[
            "cdc.snapshot.chunk.rows=40",
            "cdc.snapshot.threads=1",
            "cdc.snapshot.max.pending.chunks=1",
        ],
        &[],
        &[2],
        false,
    );
    assert_eq!(*run.out.as_ref().unwrap(), Outcome::Completed);
    let layout = |c: &ReadChunk| c.columns.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
    assert_eq!(layout(&run.sink.chunks[0]), ["A", "B"]);
    assert!(run.sink.chunks[1..]
        .iter()
        .all(|c| layout(c) == ["A", "B", "X"] && c.rows.iter().all(|r| r.values.len() == 3)));
    assert_whole_and_ordered(&run.sink, 200);
}

#[test]
fn ddl_retries_are_bounded_by_chunk_ddl_retries() {
    let (_d, db) = table();
    let run = snapshot(
        &db,
        &[
            "cdc.snapshot.chunk.rows=40",
            "cdc.snapshot.threads=1",
            "cdc.snapshot.max.pending.chunks=1",
            "cdc.snapshot.chunk.retries=5",
            "cdc.snapshot.chunk.ddl.retries=1",
        ],
        &[],
        &[2, 3],
        false,
    );
    let e = run.out.as_ref().unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc8001, "{e}");
    assert!(
        e.to_string().contains("cdc.snapshot.chunk.ddl.retries"),
        "{e}"
    );
    assert!(run
        .events
        .iter()
        .any(|e| e["event"] == "snapshot-chunk-failed" && e["code"] == "CDC-5003"));
}

#[test]
fn a_blocking_snapshot_stops_at_a_ddl_of_its_table_and_says_why() {
    let (_d, db) = table();
    // Every chunk at one SCN: the DDL made before the second read is newer than all of them.
    let run = snapshot(
        &db,
        &["cdc.snapshot.chunk.rows=40", "cdc.snapshot.threads=1"],
        &[],
        &[2],
        true,
    );
    let e = run.out.as_ref().unwrap_err();
    assert_eq!(e.code(), crate::errors::Code::Cdc8001, "{e}");
    assert!(e.to_string().contains("blocking snapshot"), "{e}");
    assert!(retries_of(&run, "retry").is_empty(), "nothing to retry");
}

/// 200 rows of a table without a key: read by ROWID ranges.
fn keyless() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(
        &schema,
        r#"
tables:
  - name: APP.K
    columns:
      - { name: A, type: NUMBER(10) }
      - { name: B, type: VARCHAR2(12) }
    rows: 200
"#,
    )
    .unwrap();
    let db = dir.path().join("db");
    init(&db, &schema, None, clock::system()).unwrap();
    (dir, db)
}

/// The values of column A published, sorted.
fn published(run: &Run) -> Vec<String> {
    let mut all: Vec<String> = run
        .sink
        .chunks
        .iter()
        .flat_map(|c| c.rows.iter().map(|r| r.values[0].to_string()))
        .collect();
    all.sort();
    all
}

const MOVING: &[&str] = &[
    "cdc.snapshot.chunk.rows=20",
    "cdc.snapshot.threads=1",
    "cdc.snapshot.max.pending.chunks=1",
];

/// ALTER TABLE … MOVE before the first chunk is read: the read AS OF the wave's SCN fails with
/// ORA-01466, and the retry, at an SCN after the move, would read the old ROWID ranges, which
/// hold nothing now. The segment's new data object is seen before the retry is read: the table
/// is planned again from its new extents and every row is published once.
#[test]
fn a_table_moved_before_its_first_chunk_is_planned_again_and_read_whole() {
    let (_d, db) = keyless();
    // Without a move (its writer let go before the next run opens one).
    let (all, old) = {
        let before = run(&db, MOVING, &[], &[], false, false, true);
        assert_eq!(*before.out.as_ref().unwrap(), Outcome::Completed);
        (published(&before), first_object(&before))
    };
    assert_eq!(all.len(), 200);
    let run = run(&db, MOVING, &[], &[1], false, true, true);
    assert_eq!(*run.out.as_ref().unwrap(), Outcome::Completed);
    assert_eq!(published(&run), all, "every row once, none lost");
    let replans: Vec<_> = retries_of(&run, "replan")
        .into_iter()
        .filter(|e| e["code"] == "CDC-8009")
        .collect();
    assert_eq!(replans.len(), 1, "{:#?}", run.events);
    // Every chunk read names the new segment.
    let now = run.sink.chunks.iter().all(|c| match &c.chunk {
        super::plan::Chunk::Rowid { start, .. } => {
            cdc_core::rowid::RowId::decode(start).is_ok_and(|r| r.data_object != old)
        }
        _ => false,
    });
    assert!(now, "chunks over the old segment after the move");
}

fn first_object(run: &Run) -> u32 {
    match &run.sink.chunks[0].chunk {
        super::plan::Chunk::Rowid { start, .. } => cdc_core::rowid::RowId::decode(start)
            .map(|r| r.data_object)
            .unwrap_or(0),
        _ => 0,
    }
}

/// ALTER TABLE … MOVE after chunks of the table were published to a sink that has each row
/// once (the export): the rows left cannot be told from those published (no key), so the table
/// stops with CDC-8009, never completes short.
#[test]
fn a_table_moved_after_chunks_were_published_stops_with_cdc_8009() {
    let (_d, db) = keyless();
    let run = run(&db, MOVING, &[], &[4], false, true, true);
    let e = run.out.as_ref().expect_err("the table must not complete");
    assert_eq!(e.code(), crate::errors::Code::Cdc8009, "{e}");
    assert!(e.to_string().contains("APP.K"), "{e}");
    let rows = published(&run).len();
    assert!(
        rows > 0 && rows < 200,
        "{rows} rows published before the move"
    );
    assert!(run
        .events
        .iter()
        .any(|e| e["event"] == "snapshot-chunk-failed" && e["code"] == "CDC-8009"));
}

/// The same move with capture's sink (each chunk a read of the table at its SCN): the table is
/// planned again from its new extents and read whole; its last read has every row, under the
/// new data object, and the chunks before the move stay as they were.
#[test]
fn capture_plans_a_table_moved_after_chunks_were_published_again_and_reads_it_whole() {
    let (_d, db) = keyless();
    let (all, old) = {
        let before = run(&db, MOVING, &[], &[], false, false, false);
        (published(&before), first_object(&before))
    };
    let run = run(&db, MOVING, &[], &[4], false, true, false);
    assert_eq!(*run.out.as_ref().unwrap(), Outcome::Completed);
    let replans: Vec<_> = retries_of(&run, "replan")
        .into_iter()
        .filter(|e| e["code"] == "CDC-8009")
        .collect();
    assert_eq!(replans.len(), 1, "{:#?}", run.events);
    assert!(replans[0]["published"].as_u64().unwrap() > 0);
    // The chunks read after the move, all over the new segment, hold every row once.
    let object = |c: &ReadChunk| match &c.chunk {
        super::plan::Chunk::Rowid { start, .. } => cdc_core::rowid::RowId::decode(start)
            .map(|r| r.data_object)
            .unwrap_or(0),
        _ => 0,
    };
    let mut after: Vec<String> = run
        .sink
        .chunks
        .iter()
        .filter(|c| object(c) != old)
        .flat_map(|c| c.rows.iter().map(|r| r.values[0].to_string()))
        .collect();
    after.sort();
    assert_eq!(after, all);
    assert!(run.sink.chunks.iter().any(|c| object(c) == old));
}
