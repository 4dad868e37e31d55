//! Waves in step with a change stream (capture, [`ChunkSink::in_step_with_stream`]) are read
//! at [`Flashback::stream_read_scn`], the SCN the stream can mine to (on a standby, where its
//! archived logs end); other waves (the export) at the current SCN. A wave that cannot be read
//! at the stream's SCN any more (ORA-01555) is read again at the current SCN.

use super::read::ReadChunk;
use super::target::{resolve, TableTarget};
use super::*;
use crate::errors::CdcError;
use crate::names::TableName;
use crate::source::emulator::{clock, init, workload, writer::Writer, EmulatorConnector};
use crate::types::Value;
use cdc_core::model::*;
use cdc_core::session::prelude::*;

/// Sessions whose stream can mine only to `stream_scn`; with `refuse_there`, every read AS OF
/// that SCN fails as an undo gone would (ORA-01555).
struct Behind {
    inner: EmulatorConnector,
    stream_scn: Scn,
    refuse_there: bool,
}

impl cdc_core::session::Connector for Behind {
    fn connect(&self) -> Result<Box<dyn Session>> {
        Ok(Box::new(BehindSession {
            inner: self.inner.connect()?,
            stream_scn: self.stream_scn,
            refuse_there: self.refuse_there,
        }))
    }
    fn describe(&self) -> String {
        self.inner.describe()
    }
}

struct BehindSession {
    inner: Box<dyn Session>,
    stream_scn: Scn,
    refuse_there: bool,
}

impl Catalog for BehindSession {
    cdc_core::forward_catalog!(inner);
}

impl Flashback for BehindSession {
    fn current_scn(&mut self) -> Result<Scn> {
        self.inner.current_scn()
    }

    fn stream_read_scn(&mut self) -> Result<Option<Scn>> {
        Ok(Some(self.stream_scn))
    }

    fn read_as_of(
        &mut self,
        q: &FlashbackQuery,
        row: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        if self.refuse_there && q.scn == self.stream_scn {
            return Err(CdcError::SnapshotTooOld {
                table: q.table.owner_table(),
                scn: q.scn,
            });
        }
        self.inner.read_as_of(q, row)
    }

    fn check_condition(&mut self, table: &TableName, condition: &str) -> Result<()> {
        self.inner.check_condition(table, condition)
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
        self.inner.key_boundaries(q)
    }

    fn scn_to_time(&mut self, scn: Scn) -> Result<Option<String>> {
        self.inner.scn_to_time(scn)
    }
}

impl Miner for BehindSession {
    cdc_core::forward_miner!(inner);
}

impl Admin for BehindSession {
    cdc_core::forward_admin!(inner);
}

/// Records each chunk's SCN and key.
struct Sink {
    in_step: bool,
    chunk_scns: Vec<Scn>,
    keys: Vec<Value>,
}

impl Sink {
    fn take(&mut self, c: &ReadChunk) {
        self.chunk_scns.push(c.scn);
        self.keys.extend(c.rows.iter().map(|r| r.values[0].clone()));
    }
}

impl ChunkSink for Sink {
    fn in_step_with_stream(&self) -> bool {
        self.in_step
    }

    fn publish(
        &mut self,
        _t: &TableTarget,
        c: &mut ReadChunk,
        _first: bool,
        _last: bool,
        _p: &mut crate::offsets::TableProgress,
    ) -> Result<()> {
        self.take(c);
        Ok(())
    }

    fn publish_unsynced(
        &mut self,
        _t: &TableTarget,
        c: &mut ReadChunk,
        _first: bool,
        _last: bool,
        _p: &mut crate::offsets::TableProgress,
    ) -> Result<()> {
        self.take(c);
        Ok(())
    }
}

/// A table of 120 rows, its SCN after creation, then a workload (the current SCN moves on).
fn table() -> (tempfile::TempDir, std::path::PathBuf, Scn) {
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
    rows: 120
"#,
    )
    .unwrap();
    let db = dir.path().join("db");
    init(&db, &schema, None, clock::system()).unwrap();
    let created = EmulatorConnector::open(&db, Default::default())
        .unwrap()
        .connect()
        .unwrap()
        .current_scn()
        .unwrap();
    let mut w = Writer::open(&db, clock::system(), false).unwrap();
    // Updates only, 50 transactions of 1 to 3.
    let opts = workload::WorkloadOptions {
        transactions: Some(50),
        tx_size: (1, 3),
        ..super::tests::plain_workload((0, 100, 0), vec![], 5)
    };
    workload::Workload::new(&mut w, opts)
        .unwrap()
        .run(&|| false)
        .unwrap();
    (dir, db, created)
}

/// Snapshot APP.T in chunks of 20 rows, two at a time, through [`Behind`] sessions.
fn snapshot(db: &std::path::Path, stream_scn: Scn, refuse_there: bool, in_step: bool) -> Sink {
    let settings =
        Settings::from_pairs(&["cdc.snapshot.chunk.rows=20", "cdc.snapshot.threads=2"]).unwrap();
    let conn = Behind {
        inner: EmulatorConnector::open(db, settings.emulator_faults()).unwrap(),
        stream_scn,
        refuse_there,
    };
    let sink = run(&conn, &settings, in_step);
    // Each row once, in key order (the rows the table had at the SCN read: the workload
    // inserts some too).
    for w in sink.keys.windows(2) {
        assert_eq!(
            crate::types::compare_keys(&[w[0].clone()], &[w[1].clone()]),
            std::cmp::Ordering::Less,
            "{:?} then {:?}",
            w[0],
            w[1]
        );
    }
    assert!(sink.keys.len() >= 100, "{} rows", sink.keys.len());
    sink
}

/// Snapshot every table `conn` has with a [`Sink`], to completion.
fn run(conn: &dyn cdc_core::session::Connector, settings: &Settings, in_step: bool) -> Sink {
    let decisions = {
        let mut s = conn.connect().unwrap();
        resolve(settings, s.tables().unwrap(), &[]).unwrap()
    };
    let mut sink = Sink {
        in_step,
        chunk_scns: Vec::new(),
        keys: Vec::new(),
    };
    let ops = OpsLog::discard();
    let out = Snapshot {
        connector: conn,
        settings,
        ops: &ops,
        progress: &NoProgress,
        metrics: Default::default(),
        pin_scn: None,
        signal: None,
        shutdown: None,
    }
    .run(
        &decisions,
        &mut SnapshotState::default(),
        &mut |_| Ok(()),
        &mut sink,
        &|| false,
    )
    .unwrap();
    assert_eq!(out, Outcome::Completed);
    sink
}

fn current(db: &std::path::Path) -> Scn {
    EmulatorConnector::open(db, Default::default())
        .unwrap()
        .connect()
        .unwrap()
        .current_scn()
        .unwrap()
}

#[test]
fn waves_in_step_with_a_stream_are_read_at_its_scn_others_at_the_current_one() {
    let (_d, db, created) = table();
    let now = current(&db);
    assert!(now > created);
    let in_step = snapshot(&db, created, false, true);
    assert!(in_step.chunk_scns.len() >= 6, "{:?}", in_step.chunk_scns);
    assert!(
        in_step.chunk_scns.iter().all(|s| *s == created),
        "{:?}",
        in_step.chunk_scns
    );
    let export = snapshot(&db, created, false, false);
    assert!(
        export.chunk_scns.iter().all(|s| *s == now),
        "{:?}",
        export.chunk_scns
    );
}

/// Before, the chunk was halved as after an ORA-01555 at a current SCN, read again at the
/// stream's SCN, and gave up at the halving floor (CDC-8001): at once for chunks of
/// `cdc.snapshot.chunk.rows` up to 1,000, where the floor is the chunk itself.
#[test]
fn a_wave_unreadable_at_the_streams_scn_is_read_again_at_the_current_one() {
    let (_d, db, created) = table();
    let now = current(&db);
    let sink = snapshot(&db, created, true, true);
    assert!(!sink.chunk_scns.is_empty());
    assert!(
        sink.chunk_scns.iter().all(|s| *s == now),
        "{:?}",
        sink.chunk_scns
    );
}

/// Counts the container switches of the sessions under a root-mode container session.
struct Switches {
    inner: EmulatorConnector,
    count: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl cdc_core::session::Connector for Switches {
    fn connect(&self) -> Result<Box<dyn Session>> {
        Ok(Box::new(SwitchesSession {
            inner: self.inner.connect()?,
            count: self.count.clone(),
        }))
    }
    fn describe(&self) -> String {
        self.inner.describe()
    }
}

struct SwitchesSession {
    inner: Box<dyn Session>,
    count: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Catalog for SwitchesSession {
    fn database(&mut self) -> Result<DatabaseInfo> {
        self.inner.database()
    }
    fn container(&mut self) -> Result<Option<String>> {
        self.inner.container()
    }
    fn set_container(&mut self, name: &str) -> Result<()> {
        self.count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.inner.set_container(name)
    }
    fn privileges(&mut self) -> Result<Privileges> {
        self.inner.privileges()
    }
    fn tables(&mut self) -> Result<Vec<TableInfo>> {
        self.inner.tables()
    }
    fn table_columns(&mut self, table: &TableName) -> Result<Option<Vec<ColumnInfo>>> {
        self.inner.table_columns(table)
    }
    fn extents(&mut self, table: &TableName) -> Result<Vec<Extent>> {
        self.inner.extents(table)
    }
    fn cluster_extents(&mut self, table: &TableName, cluster: &str) -> Result<Vec<Extent>> {
        self.inner.cluster_extents(table, cluster)
    }
    fn instance_config(&mut self) -> Result<InstanceConfig> {
        self.inner.instance_config()
    }
    fn read_policies(&mut self, table: &TableName) -> Result<ReadPolicies> {
        self.inner.read_policies(table)
    }
}

impl Flashback for SwitchesSession {
    cdc_core::forward_flashback!(inner);
    fn stream_read_scn(&mut self) -> Result<Option<Scn>> {
        self.inner.stream_read_scn()
    }
}

impl Miner for SwitchesSession {
    cdc_core::forward_miner!(inner);
}

impl Admin for SwitchesSession {
    cdc_core::forward_admin!(inner);
}

/// A root-mode session of a primary answers the in-step SCN without leaving the PDB it reads
/// in: a snapshot in step with a stream switches containers as often as the export does.
/// Before, each answer entered CDB$ROOT first, and the reads went back into the PDB (the
/// reading session that takes the second table's first SCN: two switches more).
#[test]
fn in_step_waves_of_a_primarys_pdb_switch_containers_no_more_than_the_export() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    std::fs::write(
        &schema,
        r#"
database:
  multitenant: true
tables:
  - name: PDB1.APP.T
    columns:
      - { name: A, type: NUMBER(10), nullable: false }
      - { name: B, type: VARCHAR2(12) }
    primary_key: [A]
    rows: 200
  - name: PDB1.APP.U
    columns:
      - { name: A, type: NUMBER(10), nullable: false }
    primary_key: [A]
    rows: 100
"#,
    )
    .unwrap();
    let db = dir.path().join("db");
    init(&db, &schema, None, clock::system()).unwrap();
    let switches = |in_step: bool| {
        let settings =
            Settings::from_pairs(&["cdc.snapshot.chunk.rows=20", "cdc.snapshot.threads=2"])
                .unwrap();
        let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let conn = crate::source::container::ContainerConnector::new(
            Box::new(Switches {
                inner: EmulatorConnector::open(&db, settings.emulator_faults()).unwrap(),
                count: count.clone(),
            }),
            crate::source::container::WantedPdbs::every(),
        );
        let sink = run(&conn, &settings, in_step);
        assert_eq!(sink.keys.len(), 300);
        count.load(std::sync::atomic::Ordering::SeqCst)
    };
    let export = switches(false);
    let in_step = switches(true);
    assert!(export > 0, "the reads enter PDB1");
    assert_eq!(in_step, export, "container switches in step / export");
}
