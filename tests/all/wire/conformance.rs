//! Every call of the source interface, answered by the adapter over the wire (thin driver,
//! `sql.rs` statements, Oracle's views) and by the emulator in-process: the same answers.

use super::fixture::*;
use cdc_core::rowid::RowId;
use oracle_cdc::names::TableName;
use oracle_cdc::settings::Settings;
use oracle_cdc::source::emulator::{self, clock, topology, writer::Writer, EmulatorSession};
use oracle_cdc::source::mining::DownstreamConnector;
use oracle_cdc::source::model::RedoSource;
use oracle_cdc::source::oracle::{connect::Password, OracleConnector};
use oracle_cdc::source::Connector;
use oracle_cdc::source::{
    BoundaryQuery, Catalog, ChunkRange, Flashback, FlashbackQuery, Miner, MiningFilter, Session,
    TableInfo,
};

/// A session on a downstream mining database over Oracle Net, as `cdc.mining.database.url`
/// opens it.
fn wire_mining(url: &str) -> Box<dyn Session> {
    let settings = Settings::from_pairs(&[
        &format!("cdc.database.url={url}"),
        &format!("cdc.database.user={USER}"),
        &format!("cdc.database.password={PASSWORD}"),
    ])
    .expect("settings");
    let c = oracle_cdc::source::oracle_mining(&settings, url).expect("connector");
    Box::new(c.open().expect("connect over Oracle Net"))
}

/// A downstream of `source` in `dir` (real-time shipping, every log received).
fn downstream_of(source: &std::path::Path, dir: &std::path::Path, dbid: u64) {
    topology::create(
        dir,
        &topology::TopologyFile::Downstream {
            source: source.to_path_buf(),
            name: "DOWNSTRM".into(),
            dbid,
            scn: 77,
            shipping: topology::Shipping::RealTime,
            from_sequence: 1,
            missing_sequences: Vec::new(),
        },
    )
    .expect("downstream");
}

/// A dictionary build and its log switch, so a whole log is there to ship.
fn build_dictionary(dir: &std::path::Path) {
    let mut w = Writer::open(dir, clock::system(), true).expect("writer");
    w.build_dictionary().expect("dictionary build");
}

fn wire(url: &str) -> Box<dyn Session> {
    let c =
        OracleConnector::new(url, Some(USER), Some(Password::new(PASSWORD))).expect("connector");
    Box::new(c.open().expect("connect over Oracle Net"))
}

fn local(s: &Served, service: Option<&str>) -> EmulatorSession {
    in_process(&s.dir, service)
        .emulator_session()
        .expect("in-process session")
}

/// TableInfo as both sides know it: the view's LAST_ANALYZED is a date, the in-process one a
/// word; only whether statistics were gathered is compared.
/// Tables in name order and partitions in name order (the catalog queries' ORDER BY; the
/// emulator lists them as declared).
fn comparable(mut t: Vec<TableInfo>) -> Vec<TableInfo> {
    for i in &mut t {
        i.stats.last_analyzed = i.stats.last_analyzed.as_ref().map(|_| "gathered".into());
        i.partitions.sort_by(|a, b| a.name.cmp(&b.name));
    }
    t.sort_by(|a, b| a.name.cmp(&b.name));
    t
}

#[test]
fn root_calls_answer_as_in_process() {
    let s = serve_example();
    let mut w = wire(&s.url("DEMO"));
    let mut l = local(&s, None);
    assert_eq!(w.container().unwrap(), l.container().unwrap());
    assert_eq!(w.database().unwrap(), l.database().unwrap());
    assert_eq!(w.privileges().unwrap(), l.privileges().unwrap());
    assert_eq!(w.current_scn().unwrap(), l.current_scn().unwrap());
    assert_eq!(w.logs().unwrap(), l.logs().unwrap());
    assert_eq!(w.redo_threads().unwrap(), l.redo_threads().unwrap());
    assert_eq!(w.mining_limit(0).unwrap(), l.mining_limit(0).unwrap());
    assert_eq!(
        w.dictionary_builds().unwrap(),
        l.dictionary_builds().unwrap()
    );
    assert_eq!(w.host_utc_offset().unwrap(), l.host_utc_offset().unwrap());
    assert_eq!(w.instance_config().unwrap(), l.instance_config().unwrap());
    assert_eq!(
        w.open_transactions().unwrap(),
        l.open_transactions().unwrap()
    );
    // CDB$ROOT has no user tables.
    assert_eq!(w.tables().unwrap(), Vec::<TableInfo>::new());
}

/// A 26ai database (release update 23.26, "Oracle AI Database 26ai" in PRODUCT_COMPONENT_VERSION):
/// the adapter reads its edition as in-process. (Before, `LIKE 'Oracle Database%'` found no row
/// and the edition was empty.)
#[test]
fn a_26ai_database_answers_as_in_process() {
    let tmp = tempfile::tempdir().unwrap();
    let schema = tmp.path().join("schema.yaml");
    let text = std::fs::read_to_string(example_schema()).unwrap();
    std::fs::write(&schema, text.replace("19.22.0.0.0", "23.26.0.0.0")).unwrap();
    let s = serve_schema(&schema, Default::default());
    let mut w = wire(&s.url("DEMO"));
    let mut l = local(&s, None);
    let (wd, ld) = (w.database().unwrap(), l.database().unwrap());
    assert_eq!(wd, ld);
    assert_eq!(wd.edition, "Enterprise Edition");
}

/// Each PDB after ALTER SESSION SET CONTAINER (root mode) and through its own service
/// (per-PDB mode): the catalog, every table's reads and probes.
#[test]
fn pdb_catalog_and_reads_answer_as_in_process() {
    let s = serve_example();
    for pdb in ["PDB1", "PDB2"] {
        let mut root = wire(&s.url("DEMO"));
        root.set_container(pdb).unwrap();
        let mut own = wire(&s.url(pdb));
        let mut l = local(&s, Some(pdb));
        let want = comparable(l.tables().unwrap());
        assert!(!want.is_empty(), "{pdb} has tables");
        for w in [&mut root, &mut own] {
            assert_eq!(w.container().unwrap(), Some(pdb.to_string()));
            // The grants in effect in the PDB (common and local), as SESSION_PRIVS,
            // ALL_TAB_PRIVS and USER_GOLDENGATE_PRIVILEGES show them there.
            assert_eq!(w.privileges().unwrap(), l.privileges().unwrap(), "{pdb}");
            assert_eq!(comparable(w.tables().unwrap()), want, "{pdb}");
            let scn = l.current_scn().unwrap();
            for t in &want {
                same_table_answers(w.as_mut(), &mut l, t, scn);
            }
        }
    }
}

/// A WE8MSWIN1252 PDB in the AL32UTF8 CDB: NLS_DATABASE_PARAMETERS over the wire answers the
/// root's sets in CDB$ROOT and the PDB's inside it (after ALTER SESSION SET CONTAINER and on the
/// PDB's service), as in-process; the national set is the CDB's.
#[test]
fn a_pdbs_own_character_set_answers_as_in_process() {
    use oracle_cdc::charset::{Charset, Charsets};
    let tmp = tempfile::tempdir().unwrap();
    let schema = tmp.path().join("schema.yaml");
    let text = std::fs::read_to_string(example_schema()).unwrap();
    let text = text.replace(
        "    - { name: PDB3, open_mode: mounted }",
        "    - { name: PDB3, open_mode: mounted }\n    - { name: PDB2, character_set: WE8MSWIN1252 }",
    );
    std::fs::write(&schema, text).unwrap();
    let s = serve_schema(&schema, Default::default());
    let we8 = Charsets {
        database: Charset::We8MsWin1252,
        national: Charset::Al16Utf16,
    };
    let mut root = wire(&s.url("DEMO"));
    assert_eq!(root.charsets().unwrap(), Charsets::default());
    assert_eq!(local(&s, None).charsets().unwrap(), Charsets::default());
    for (pdb, want) in [("PDB2", we8), ("PDB1", Charsets::default())] {
        root.set_container(pdb).unwrap();
        assert_eq!(root.charsets().unwrap(), want, "{pdb}");
        assert_eq!(wire(&s.url(pdb)).charsets().unwrap(), want, "{pdb}");
        assert_eq!(local(&s, Some(pdb)).charsets().unwrap(), want, "{pdb}");
    }
}

/// A PDB open RESTRICTED: V$PDBS.RESTRICTED over the wire says so as in-process, and
/// ALTER SESSION SET CONTAINER into it by a user without RESTRICTED SESSION fails with ORA-01035,
/// which the adapter maps to CDC-2301 as the in-process session reports it.
#[test]
fn a_restricted_pdb_answers_as_in_process() {
    let tmp = tempfile::tempdir().unwrap();
    let schema = tmp.path().join("schema.yaml");
    let text = std::fs::read_to_string(example_schema()).unwrap();
    let text = text.replace(
        "    - { name: PDB3, open_mode: mounted }",
        "    - { name: PDB3, open_mode: mounted }\n    - { name: PDB2, restricted: true }",
    );
    std::fs::write(&schema, text).unwrap();
    let s = serve_schema(&schema, Default::default());
    let mut w = wire(&s.url("DEMO"));
    let mut l = local(&s, None);
    let (wd, ld) = (w.database().unwrap(), l.database().unwrap());
    assert_eq!(wd, ld);
    assert_eq!(wd.restricted_pdbs, ["PDB2"]);
    let refused = |r: oracle_cdc::errors::Result<()>| match r {
        Ok(()) => panic!("entered a restricted PDB"),
        Err(e) => (e.code(), e.to_string().contains("ORA-01035")),
    };
    let code = (oracle_cdc::errors::Code::Cdc2301, true);
    assert_eq!(refused(w.set_container("PDB2")), code);
    assert_eq!(refused(l.set_container("PDB2")), code);
    w.set_container("PDB1").unwrap();
}

/// Two tables of PDB1 stored in one cluster, appended to the example's tables: ORDERS with a
/// key, LINES without.
const CLUSTERED_TABLES: &str = r#"
  - name: PDB1.APP.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: CUSTOMER, type: VARCHAR2(20) }
    primary_key: [ID]
    cluster: ORDERS_CLU
    supplemental_logging: all
    rows: 300
  - name: PDB1.APP.LINES
    columns:
      - { name: ORDER_ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20) }
    cluster: ORDERS_CLU
    supplemental_logging: all
    rows: 500
"#;

/// Clustered tables over the wire as in-process: ALL_TABLES.CLUSTER_NAME and the cluster's
/// DATA_OBJECT_ID in the catalog, no DBA_EXTENTS row under a clustered table's name, the
/// cluster's extents (SEGMENT_TYPE CLUSTER) alike, and the tables' reads, ROWID ranges over the
/// cluster's blocks included; in the PDB through its service and after SET CONTAINER.
#[test]
fn clustered_tables_answer_as_in_process() {
    let tmp = tempfile::tempdir().unwrap();
    let schema = tmp.path().join("schema.yaml");
    let text = std::fs::read_to_string(example_schema()).unwrap();
    std::fs::write(&schema, format!("{}{CLUSTERED_TABLES}", text.trim_end())).unwrap();
    let s = serve_schema(&schema, Default::default());
    let mut l = local(&s, Some("PDB1"));
    let want = comparable(l.tables().unwrap());
    let find = |name: &str| {
        want.iter()
            .find(|t| t.name.to_string() == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} listed"))
    };
    let (orders, lines) = (find("PDB1.APP.ORDERS"), find("PDB1.APP.LINES"));
    assert_eq!(lines.cluster.as_deref(), Some("ORDERS_CLU"));
    assert_eq!(orders.cluster.as_deref(), Some("ORDERS_CLU"));
    assert_eq!(orders.data_object_id, lines.data_object_id);
    assert!(want
        .iter()
        .filter(|t| t.name.owner != "APP")
        .all(|t| t.cluster.is_none()));
    let extents = l.cluster_extents(&lines.name, "ORDERS_CLU").unwrap();
    assert!(extents.len() > 1, "{extents:?}");
    assert!(extents
        .iter()
        .all(|e| e.data_object_id == lines.data_object_id));
    let scn = l.current_scn().unwrap();
    let mut root = wire(&s.url("DEMO"));
    root.set_container("PDB1").unwrap();
    let mut own = wire(&s.url("PDB1"));
    for w in [&mut root, &mut own] {
        assert_eq!(comparable(w.tables().unwrap()), want);
        assert_eq!(
            w.cluster_extents(&lines.name, "ORDERS_CLU").unwrap(),
            extents
        );
        for t in [&orders, &lines] {
            assert_eq!(w.extents(&t.name).unwrap(), Vec::new(), "{}", t.name);
            same_table_answers(w.as_mut(), &mut l, t, scn);
        }
        // The cluster's whole span read from LINES: LINES' rows alone, as in-process.
        let (first, last) = (&extents[0], &extents[extents.len() - 1]);
        let obj = lines.data_object_id as u32;
        let lo = RowId::extent_bounds(obj, first.rowid_fno(), first.block_id as u32, 1).0;
        let hi = RowId::extent_bounds(
            obj,
            last.rowid_fno(),
            last.block_id as u32,
            last.blocks as u32,
        )
        .1;
        let q = FlashbackQuery {
            table: lines.name.clone(),
            columns: vec!["ORDER_ID".into(), "ITEM".into()],
            key_columns: Vec::new(),
            scn,
            range: ChunkRange::Rowid {
                start: lo.encode(),
                end: hi.encode(),
            },
            filter: None,
            row_ids: true,
        };
        let read = |s: &mut dyn Session| {
            let mut n = 0u64;
            s.read_as_of(&q, &mut |_| {
                n += 1;
                Ok(())
            })
            .unwrap()
        };
        assert_eq!(read(w.as_mut()), 500);
        assert_eq!(read(&mut l), 500);
    }
}

fn same_table_answers(w: &mut dyn Session, l: &mut EmulatorSession, t: &TableInfo, scn: u64) {
    let name = &t.name;
    assert_eq!(
        w.table_columns(name).unwrap(),
        l.table_columns(name).unwrap(),
        "{name}"
    );
    assert_eq!(w.extents(name).unwrap(), l.extents(name).unwrap(), "{name}");
    let columns: Vec<String> = t
        .columns
        .iter()
        .filter(|c| !c.virtual_column)
        .map(|c| c.name.clone())
        .collect();
    let key: Vec<String> = t
        .primary_key
        .as_ref()
        .map(|k| k.columns.clone())
        .unwrap_or_default();
    let read = |s: &mut dyn Session, range: ChunkRange| {
        let q = FlashbackQuery {
            table: name.clone(),
            columns: columns.clone(),
            key_columns: key.clone(),
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
        .unwrap_or_else(|e| panic!("read of {name}: {e}"));
        rows
    };
    let whole = read(l, ChunkRange::Whole);
    assert_eq!(read(w, ChunkRange::Whole), whole, "{name} whole");
    assert!(!whole.is_empty(), "{name} has rows");
    if let Some(k) = key.first() {
        assert_eq!(
            w.key_range(name, k, Some(scn)).unwrap(),
            l.key_range(name, k, Some(scn)).unwrap(),
            "{name} key range"
        );
        let q = BoundaryQuery {
            table: name.clone(),
            key_columns: key.clone(),
            scn,
            lower: None,
            step: 7,
            count: 5,
        };
        let bounds = l.key_boundaries(&q).unwrap();
        assert_eq!(w.key_boundaries(&q).unwrap(), bounds, "{name} boundaries");
        if let [lower, upper, ..] = bounds.as_slice() {
            let range = ChunkRange::Key {
                lower: Some(lower.clone()),
                upper: Some(upper.clone()),
            };
            let chunk = read(l, range.clone());
            assert_eq!(chunk.len(), 7, "{name}: a chunk of one step");
            assert_eq!(read(w, range), chunk, "{name} key chunk");
        }
    } else {
        let first = &whole[0].rowid;
        let last = &whole[whole.len() / 2].rowid;
        let range = ChunkRange::Rowid {
            start: first.to_string(),
            end: last.to_string(),
        };
        assert_eq!(read(w, range.clone()), read(l, range), "{name} ROWID chunk");
    }
}

#[test]
fn mining_answers_as_in_process() {
    let s = serve_example();
    let mut l = local(&s, None);
    let end = l.current_scn().unwrap();
    let start = l.logs().unwrap().iter().map(|x| x.first_scn).min().unwrap();
    let mine = |s: &mut dyn Session| {
        let mut rows = Vec::new();
        s.mine(start, end, &MiningFilter::default(), &mut |r| {
            rows.push(r);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("mining {start}..{end}: {e}"));
        rows
    };
    let want = mine(&mut l);
    assert!(!want.is_empty());
    assert_eq!(mine(wire(&s.url("DEMO")).as_mut()), want, "root mode");
    // Per-PDB mining (19c+): the PDB's own redo.
    let mut lp = local(&s, Some("PDB1"));
    let want = mine(&mut lp);
    assert!(want
        .iter()
        .all(|r| r.src_con_name == "PDB1" || r.src_con_name.is_empty()));
    assert_eq!(mine(wire(&s.url("PDB1")).as_mut()), want, "per-PDB mode");
}

#[test]
fn scn_time_and_conditions_answer_as_in_process() {
    let s = serve_example();
    let mut w = wire(&s.url("PDB1"));
    let mut l = local(&s, Some("PDB1"));
    let scn = l.current_scn().unwrap();
    // Below the current SCN (which maps to the time now, read twice here).
    assert_eq!(
        w.scn_to_time(scn - 1).unwrap(),
        l.scn_to_time(scn - 1).unwrap()
    );
    assert_eq!(
        w.scn_to_time(scn + 1_000_000).unwrap(),
        None,
        "ORA-08181: no time for a future SCN"
    );
    let t: TableName = "PDB1.HR.EMPLOYEES".parse().unwrap();
    w.check_condition(&t, "SALARY > 1000").unwrap();
    let e = w.check_condition(&t, "NO_SUCH_COLUMN = 1").unwrap_err();
    assert!(e.to_string().contains("ORA-00904"), "{e}");
}

/// A downstream's received logs over the wire are V$FOREIGN_ARCHIVED_LOG and V$STANDBY_LOG,
/// with the source's DBID and incarnation, as in-process; so are where they end and the
/// dictionary builds among them. Before, the adapter read the downstream's own V$LOG /
/// V$ARCHIVED_LOG, whose logs say no DBID.
#[test]
fn a_downstream_lists_and_bounds_the_shipped_logs_as_in_process() {
    let s = serve_example();
    build_dictionary(&s.dir);
    let source = local(&s, None).database().unwrap();
    let ds = s._tmp.path().join("downstream");
    downstream_of(&s.dir, &ds, source.dbid + 1);
    let served = serve_dir(&ds);
    let mut w = wire_mining(&served.url("DEMO"));
    let mut l = in_process(&ds, None).emulator_session().unwrap();
    let logs = w.logs().unwrap();
    assert_eq!(logs, l.logs().unwrap());
    assert!(logs.iter().all(|x| x.dbid == Some(source.dbid)), "{logs:?}");
    assert!(
        logs.iter()
            .any(|x| x.archived && x.resetlogs_scn == Some(source.resetlogs_scn)),
        "a foreign archived log of the source's incarnation: {logs:?}"
    );
    assert!(
        logs.iter()
            .any(|x| !x.archived && x.next_scn.is_none() && x.received_to.is_some()),
        "a standby redo log being written: {logs:?}"
    );
    let redo = RedoSource::of(&source);
    w.mine_redo_of(redo).unwrap();
    l.mine_redo_of(redo).unwrap();
    let limit = w.mining_limit(0).unwrap();
    assert!(limit.is_some());
    assert_eq!(limit, l.mining_limit(0).unwrap());
    let builds = w.dictionary_builds().unwrap();
    assert!(!builds.is_empty());
    assert_eq!(builds, l.dictionary_builds().unwrap());
    assert_eq!(w.redo_threads().unwrap(), l.redo_threads().unwrap());
}

/// Mining on a downstream that received only another database's redo is refused (CDC-2202),
/// and one that received only the source's redo of another incarnation too (CDC-2205: here a
/// clone with the same DBID); before, the logs read there carried no DBID and nothing fired.
#[test]
fn a_downstream_of_another_database_or_incarnation_is_refused_over_the_wire() {
    let s = serve_example();
    let source = in_process(&s.dir, None);
    let text = std::fs::read_to_string(example_schema()).unwrap();
    for (name, schema, code) in [
        (
            "other",
            text.replace("dbid: 3141592653", "dbid: 2718281828"),
            oracle_cdc::errors::Code::Cdc2202,
        ),
        (
            "clone",
            text.replace("start_scn: 1000000", "start_scn: 2000000"),
            oracle_cdc::errors::Code::Cdc2205,
        ),
    ] {
        assert_ne!(schema, text);
        let dir = s._tmp.path().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let schema_path = dir.join("schema.yaml");
        std::fs::write(&schema_path, schema).unwrap();
        emulator::init(&dir.join("db"), &schema_path, Some(7), clock::system()).unwrap();
        build_dictionary(&dir.join("db"));
        let ds = dir.join("downstream");
        downstream_of(&dir.join("db"), &ds, 99);
        let served = serve_dir(&ds);
        let url = served.url("DEMO");
        let settings = Settings::from_pairs(&[
            &format!("cdc.database.url={url}"),
            &format!("cdc.database.user={USER}"),
            &format!("cdc.database.password={PASSWORD}"),
        ])
        .unwrap();
        let mining = oracle_cdc::source::oracle_mining(&settings, &url).unwrap();
        let over_the_wire = DownstreamConnector::new(
            Box::new(source.clone()),
            Box::new(mining),
            std::time::Duration::from_secs(300),
        );
        let locally = DownstreamConnector::new(
            Box::new(source.clone()),
            Box::new(in_process(&ds, None)),
            std::time::Duration::from_secs(300),
        );
        for c in [over_the_wire, locally] {
            let mut session = c.connect().unwrap();
            let e = session.logs().unwrap_err();
            assert_eq!(e.code(), code, "{name}: {e}");
        }
    }
}

/// An idle RAC instance over the wire: its V$THREAD position stands still, and the adapter's
/// bound still reaches the last commit once the position stood still for
/// `cdc.mining.idle.thread.ms` (before, the bound stayed below the idle thread's last redo).
/// And a window its busy thread's deleted logs no longer cover is CDC-5203 both ways, though
/// the idle thread's first log keeps the list's oldest SCN low.
#[test]
fn an_idle_rac_thread_over_the_wire() {
    let tmp = tempfile::tempdir().unwrap();
    let schema = tmp.path().join("rac.yaml");
    std::fs::write(
        &schema,
        "seed: 3\ndatabase:\n  name: RAC\n  redo_threads: 2\n  idle_threads: [2]\n  redo_write_delay_ms: 200\n  log_size: 12\n  archived_logs_kept: 1\ntables:\n  - name: APP.T\n    columns:\n      - { name: ID, type: NUMBER(10), nullable: false }\n      - { name: V, type: VARCHAR2(10) }\n    primary_key: [ID]\n    supplemental_logging: all\n    rows: 3\n",
    )
    .unwrap();
    let dir = tmp.path().join("db");
    emulator::init(&dir, &schema, Some(7), clock::system()).unwrap();
    let start = in_process(&dir, None)
        .emulator_session()
        .unwrap()
        .current_scn()
        .unwrap();
    let mut writer = Writer::open(&dir, clock::system(), true).unwrap();
    let mut commit = 0;
    for i in 0..12 {
        let x = writer.begin().unwrap();
        writer
            .insert(
                x,
                0,
                vec![
                    oracle_cdc::types::Value::Number((100 + i).to_string().into()),
                    oracle_cdc::types::Value::Text("v".into()),
                ],
            )
            .unwrap();
        commit = writer.commit(&[x]).unwrap();
    }
    drop(writer);
    let served = serve_dir(&dir);
    let c = OracleConnector::new(
        &served.url("RAC"),
        Some(USER),
        Some(Password::new(PASSWORD)),
    )
    .unwrap()
    .with_idle_thread_ms(400);
    let mut w = c.open().unwrap();
    let threads = w.redo_threads().unwrap();
    let idle = threads.iter().find(|t| t.thread == 2).unwrap().clone();
    assert!(
        idle.last_redo_scn < start,
        "thread 2 wrote nothing: {threads:?}"
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let bound = w.mining_limit(0).unwrap().unwrap();
        if bound >= commit {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the bound stays at {bound}, below the last commit {commit}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let now = w.redo_threads().unwrap();
    assert_eq!(
        now.iter().find(|t| t.thread == 2),
        Some(&idle),
        "the idle thread's position did not move"
    );
    // Thread 1's first logs are gone (one archive kept); thread 2's first log is there.
    let mut l = in_process(&dir, None).emulator_session().unwrap();
    let logs = l.logs().unwrap();
    assert!(
        logs.iter().any(|x| x.thread == 2 && x.first_scn < start),
        "{logs:?}"
    );
    for s in [&mut w as &mut dyn Session, &mut l as &mut dyn Session] {
        let e = s
            .mine(start, commit, &MiningFilter::default(), &mut |_| Ok(()))
            .unwrap_err();
        assert_eq!(e.code(), oracle_cdc::errors::Code::Cdc5203, "{e}");
    }
}

/// A local user made a GoldenGate administrator in its PDB (the example's PDB1CDC): its grants
/// and USER_GOLDENGATE_PRIVILEGES over the wire as in-process.
#[test]
fn a_local_users_grants_answer_as_in_process() {
    let s = serve_example();
    let c = OracleConnector::new(
        &s.url("PDB1"),
        Some("PDB1CDC"),
        Some(Password::new(PASSWORD)),
    )
    .expect("connector");
    let mut w = c.open().expect("connect over Oracle Net");
    let mut l = oracle_cdc::source::emulator::EmulatorConnector::open(
        &s.dir,
        oracle_cdc::source::emulator::Faults::default(),
    )
    .expect("open emulator")
    .with_login(Some("PDB1CDC"), Some("PDB1"))
    .emulator_session()
    .expect("in-process session");
    let p = l.privileges().unwrap();
    assert_eq!(p.goldengate_capture(), Some(true), "{p:?}");
    assert_eq!(w.privileges().unwrap(), p);
}

/// A 26ai database with TIME_AT_DBTIMEZONE set and a database time zone 13:30 from the host's:
/// over the wire SYSTIMESTAMP and DBTIMEZONE answer -08:00 for both values; the adapter reads
/// the parameter and measures the clock of LogMiner's DATEs as the emulator keeps it (USER_SQL:
/// the host's +05:30; DATABASE: -08:00).
#[test]
fn a_26ai_clock_answers_as_in_process() {
    use oracle_cdc::source::oracle::driver::{self, Cell, Driver, FetchOptions};
    for (mode, dates) in [("user_sql", 5 * 3600 + 1800), ("database", -8 * 3600)] {
        let dir = tempfile::tempdir().unwrap();
        let schema = dir.path().join("schema.yaml");
        let text = std::fs::read_to_string(example_schema())
            .unwrap()
            .replacen("  version: 19.22.0.0.0\n", "  version: 23.26.0.0.0\n", 1)
            .replacen(
                "  time_at_dbtimezone: off",
                &format!("  time_at_dbtimezone: {mode}"),
                1,
            )
            .replacen(
                "  db_time_zone: \"+00:00\"",
                "  db_time_zone: \"-08:00\"",
                1,
            )
            .replacen(
                "  host_utc_offset: \"+00:00\"",
                "  host_utc_offset: \"+05:30\"",
                1,
            )
            .replacen("  log_size: 20000", "  log_size: 100", 1);
        std::fs::write(&schema, text).unwrap();
        let s = serve_schema(&schema, Default::default());
        let mut w = wire(&s.url("DEMO"));
        let mut l = local(&s, None);
        assert_eq!(l.host_utc_offset().unwrap(), Some(dates), "{mode}");
        assert_eq!(
            w.host_utc_offset().unwrap(),
            Some(dates),
            "{mode} over the wire"
        );
        // With log switches (V$LOG_HISTORY.FIRST_TIME, hours of the host's clock).
        let lc = l.instance_config().unwrap();
        assert!(
            !lc.log_switches.clone().unwrap_or_default().is_empty(),
            "{lc:?}"
        );
        assert_eq!(w.instance_config().unwrap(), lc, "{mode}");
        let raw = driver::open(
            Driver::Thin,
            &s.url("DEMO"),
            65536,
            None,
            USER,
            &Password::new(PASSWORD),
            None,
        )
        .expect("connect");
        let one = |sql: &str| -> String {
            let rows: Vec<Vec<Cell>> = raw
                .query(sql, &[], FetchOptions::rows(10))
                .and_then(|r| r.collect())
                .unwrap_or_else(|e| panic!("{sql}: {e:?}"));
            match &rows[0][0] {
                Cell::Text(t) => t.clone(),
                other => panic!("{sql}: {other:?}"),
            }
        };
        assert_eq!(
            one("SELECT TO_CHAR(SYSTIMESTAMP, 'TZH:TZM') FROM DUAL"),
            "-08:00"
        );
        assert_eq!(one("SELECT DBTIMEZONE FROM DUAL"), "-08:00");
        assert_eq!(
            one("SELECT VALUE FROM V$PARAMETER WHERE NAME = 'time_at_dbtimezone'"),
            mode.to_ascii_uppercase()
        );
    }
}

/// The log switches of the last day, with TIME_AT_DBTIMEZONE=USER_SQL and a database time zone
/// 13:30 ahead of the host's: V$LOG_HISTORY.FIRST_TIME keeps the host's clock while SYSDATE
/// answers in the database time zone, so `FIRST_TIME > SYSDATE - 1` would miss the switches of
/// 20 hours ago. The day is counted back from SCN_TO_TIMESTAMP of the current SCN, and over the
/// wire the switches are those in-process counts: every one of the last 24 hours, by host hour.
#[test]
fn the_last_days_log_switches_answer_as_in_process_whatever_sysdate_says() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("schema.yaml");
    let text = std::fs::read_to_string(example_schema())
        .unwrap()
        .replacen("  version: 19.22.0.0.0\n", "  version: 23.26.0.0.0\n", 1)
        .replacen(
            "  time_at_dbtimezone: off",
            "  time_at_dbtimezone: user_sql",
            1,
        )
        .replacen(
            "  db_time_zone: \"+00:00\"",
            "  db_time_zone: \"+05:30\"",
            1,
        )
        .replacen(
            "  host_utc_offset: \"+00:00\"",
            "  host_utc_offset: \"-08:00\"",
            1,
        )
        .replacen("  log_size: 20000", "  log_size: 100", 1);
    std::fs::write(&schema, text).unwrap();
    // 20 hours ago on a host at -08:00 (the hour read before and after, an hour may turn).
    let hour = || {
        (chrono::Utc::now() - chrono::Duration::hours(28))
            .format("%Y-%m-%d %H")
            .to_string()
    };
    let before = hour();
    let s = serve_schema_made_ago(&schema, 20 * 3_600_000);
    let mut w = wire(&s.url("DEMO"));
    let mut l = local(&s, None);
    let lc = l.instance_config().unwrap();
    let switches = lc.log_switches.clone().unwrap_or_default();
    let after = hour();
    assert!(
        switches.iter().any(|h| h.hour == before || h.hour == after),
        "{switches:?}, want {before} or {after}"
    );
    assert_eq!(w.instance_config().unwrap().log_switches, lc.log_switches);
}
