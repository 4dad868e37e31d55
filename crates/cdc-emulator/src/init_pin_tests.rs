//! `emulator init` pinned against what the general writer's load made (before the bulk
//! loader replaced it): the same seed and clock give the same rows, ROWIDs, SCNs, XIDs, commit
//! times, LogMiner rows (SQL_REDO, RS_ID, timestamps), logs and metadata, read through a
//! checkpoint and through a replay of the whole redo. The digests were taken from the old path
//! (commit d945148) with the clock below; a change to what init makes must change them on
//! purpose.

use super::tests::{mine, read};
use super::*;
use std::sync::atomic::{AtomicI64, Ordering};

/// A clock one millisecond later every seventh look: records get times in order, several to a
/// millisecond, as a real load's do; the same calls give the same times.
struct Ticking(AtomicI64);

const T0: i64 = 1_700_000_000_000;

impl clock::Clock for Ticking {
    fn now_ms(&self) -> i64 {
        T0 + self.0.fetch_add(1, Ordering::SeqCst) / 7
    }
}

/// The scale bench's table, a partitioned one (rows in two segments' order), a table with a
/// materialized view log, and one of many types with a unique key: two redo threads, logs
/// that switch inside transactions.
const PLAIN: &str = r#"
seed: 11
database:
  start_scn: 5000
  undo_retention: 900
  redo_threads: 2
  log_size: 700
tables:
  - name: APP.T
    columns:
      - { name: ID, type: NUMBER(12), nullable: false }
      - { name: NAME, type: VARCHAR2(40), generate: { text: { min: 3, max: 12 } } }
      - { name: REGION, type: VARCHAR2(8), generate: { choice: [EMEA, APAC, AMER] } }
      - { name: AMOUNT, type: "NUMBER(9,2)", generate: { decimal: { min: 1, max: 9000, scale: 2 } } }
      - { name: CREATED, type: DATE }
    primary_key: [ID]
    rows: 2300
  - name: APP.LOG
    columns:
      - { name: REGION, type: VARCHAR2(8), nullable: false, generate: { choice: [EMEA, APAC] } }
      - { name: MSG, type: VARCHAR2(20) }
    partitions:
      column: REGION
      list:
        - { name: P_EMEA, values: [EMEA] }
        - { name: P_APAC, values: [APAC] }
    rows: 300
  - name: APP.MV
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: V, type: VARCHAR2(20) }
    primary_key: [ID]
    materialized_view_log: true
    rows: 40
  - name: APP.MIX
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: CODE, type: CHAR(6), nullable: false }
      - { name: NAME, type: VARCHAR2(30), null_pct: 20 }
      - { name: UNAME, type: NVARCHAR2(20) }
      - { name: PRICE, type: "NUMBER(8,3)", generate: { decimal: { min: -50, max: 50, scale: 3 } } }
      - { name: QTY, type: NUMBER(5), generate: { int: { min: 0, max: 99999 } } }
      - { name: SEQ, type: VARCHAR2(12), generate: sequence }
      - { name: FIXED, type: VARCHAR2(12), generate: { constant: "a\tb\\c" } }
      - { name: F, type: BINARY_FLOAT }
      - { name: TS, type: TIMESTAMP(6) }
      - { name: TZ, type: TIMESTAMP(3) WITH TIME ZONE }
      - { name: RAWV, type: RAW(8) }
      - { name: C, type: CLOB }
      - { name: AMT, type: NUMBER }
      - { name: N, type: "NUMBER(6,2)" }
      - { name: D, type: DATE, null_pct: 10 }
    primary_key: [ID]
    unique_keys: [[CODE]]
    statistics: stale
    rows: 1200
"#;

/// A CDB: tables in two PDBs, the workload user's transactions carry their container.
const CDB: &str = r#"
seed: 4
database:
  multitenant: true
  start_scn: 9000
  log_size: 1500
tables:
  - name: PDB1.APP.A
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: V, type: VARCHAR2(20) }
      - { name: W, type: "NUMBER(7,1)" }
    primary_key: [ID]
    supplemental_logging: all
    rows: 1100
  - name: PDB2.APP.B
    columns:
      - { name: K, type: VARCHAR2(12), nullable: false }
      - { name: NAME, type: VARCHAR2(20), generate: { text: { min: 1, max: 20 } } }
    primary_key: [K]
    statistics: missing
    rows: 250
"#;

/// Everything a reader of the database shows of the load, as text.
fn shown(dir: &Path) -> String {
    let conn = EmulatorConnector::open_with_clock(
        dir,
        Faults::default(),
        Arc::new(clock::ManualClock::new(T0 + 60_000)),
    )
    .unwrap()
    .sysdba();
    let mut s = conn.emulator_session().unwrap();
    let mut out = String::new();
    let (start, end, mid) = conn
        .with_replica_meta(|r, _| {
            let first = r.schema.database.start_scn;
            // An SCN inside the load: a flashback read there sees the first commits only.
            let mid = r.tables[0]
                .change_commits
                .get(1)
                .map(|c| c.0)
                .unwrap_or(r.current_scn);
            (first, r.current_scn, mid)
        })
        .unwrap();
    let tables = s.tables().unwrap();
    for t in &tables {
        let name = t.name.to_string();
        out += &format!("table {name}: {t:?}\n");
        for scn in [end, mid] {
            for row in read(&mut s, &name, scn).unwrap() {
                out += &format!("{scn} {row:?}\n");
            }
        }
    }
    for row in mine(&mut s, start, end) {
        out += &format!("{row:?}\n");
    }
    // From the middle: the redo index finds where to start in the file.
    for row in mine(&mut s, mid, mid + 300) {
        out += &format!("mid {row:?}\n");
    }
    out
}

/// The replica's metadata after the load (what `emulator status` and a checkpoint hold), the
/// redo index's byte offsets left out.
fn metadata(dir: &Path) -> String {
    let conn = EmulatorConnector::open_with_clock(
        dir,
        Faults::default(),
        Arc::new(clock::ManualClock::new(T0 + 60_000)),
    )
    .unwrap();
    conn.with_replica_meta(|r, _| {
        let mut out = format!(
            "scn {} next {} logs {:?} builds {:?} scn_times {:?} lgwr {:?} index {} {:?} open {}\n",
            r.current_scn,
            r.next_record(),
            r.logs,
            r.dictionary_builds,
            r.scn_times,
            r.lgwr,
            r.index.first,
            r.index.first_scn,
            r.open.len(),
        );
        let sorted = |m: Vec<String>| {
            let mut m = m;
            m.sort();
            m.join(",")
        };
        out += &sorted(r.xid_thread.iter().map(|(k, v)| format!("{k}={v}")).collect());
        out += "\n";
        out += &sorted(r.xid_start.iter().map(|(k, v)| format!("{k}={v}")).collect());
        out += "\n";
        out += &sorted(r.xid_pdb.iter().map(|(k, v)| format!("{k}={v}")).collect());
        out += "\n";
        for t in &r.tables {
            out += &format!(
                "{} live {} extents {:?} stats {:?} since {} commits {:?} serial {} last {} ddl {} history {}\n",
                t.def.name,
                t.live_rows,
                t.extents,
                t.stats,
                t.changes_since_stats,
                t.change_commits,
                t.serial_high,
                t.last_change_scn,
                t.last_ddl_scn,
                t.history.len()
            );
        }
        out
    })
    .unwrap()
}

/// `a` and `b` are the same text; else the first line where they differ.
fn same_lines(a: &str, b: &str, what: &str) {
    if a == b {
        return;
    }
    let (la, lb) = (a.lines().count(), b.lines().count());
    let at = a.lines().zip(b.lines()).position(|(x, y)| x != y);
    match at {
        Some(i) => panic!(
            "{what} differ at line {i} ({la} and {lb} lines):\n{}\n{}",
            a.lines().nth(i).unwrap_or(""),
            b.lines().nth(i).unwrap_or("")
        ),
        None => panic!("{what}: {la} and {lb} lines, the same as far as both go"),
    }
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Init `schema` with the ticking clock (`bulk`: through the bulk loader, else the general
/// writer); the digests of what readers show through the checkpoint (the same through a replay
/// of the whole redo without it) and of the metadata.
fn digests(schema: &str, bulk: bool) -> (u64, u64, String) {
    let dir = tempfile::tempdir().unwrap();
    let schema_path = dir.path().join("in.yaml");
    std::fs::write(&schema_path, schema).unwrap();
    let db = dir.path().join("db");
    init_with(
        &db,
        &schema_path,
        None,
        Arc::new(Ticking(AtomicI64::new(0))),
        bulk,
    )
    .unwrap();
    let through_checkpoint = shown(&db);
    let meta = metadata(&db);
    // The same database without its checkpoint: every reader replays the redo from the start
    // (as a standby does).
    let replayed = dir.path().join("replayed");
    std::fs::create_dir(&replayed).unwrap();
    for f in [SCHEMA_FILE, redo::REDO_FILE] {
        std::fs::copy(db.join(f), replayed.join(f)).unwrap();
    }
    let through_replay = shown(&replayed);
    if std::env::var_os("INIT_PIN_PRINT").is_some() {
        let out = std::env::temp_dir().join(format!("init-pin-{}-{bulk}", fnv(schema)));
        std::fs::write(
            out.with_extension("ckpt"),
            format!("{through_checkpoint}\n{meta}"),
        )
        .unwrap();
        std::fs::write(out.with_extension("replay"), &through_replay).unwrap();
    }
    same_lines(
        &through_checkpoint,
        &through_replay,
        "a checkpoint and a replay of the redo",
    );
    same_lines(
        &meta,
        &metadata(&replayed),
        "the metadata through a checkpoint and a replay",
    );
    (fnv(&through_checkpoint), fnv(&meta), meta)
}

/// The digests the general writer's load gave at d945148, before the bulk loader; PLAIN's table
/// digest since the catalog answers as Oracle's views do (a partitioned or index-organised
/// table has no segment of its own; an IOT's key index is not a NORMAL unique index): the rows,
/// the redo and the metadata digest are unchanged. PLAIN's again since VARCHAR2 and CHAR types
/// carry their character-semantics length: the tables' debug text shows `chars: None` (without
/// it the digest is the one before, 13881002398937628718). The metadata digests since LGWR's
/// state keeps each thread's last written record (V$THREAD.LAST_REDO_BLOCK): without that
/// field they are the ones pinned before (3_690_424_788_351_474_095 and
/// 14_936_188_168_633_129_994).
/// The table digests again since a COMMIT or ROLLBACK row mined from after its transaction's
/// START has START_SCN NULL (the mining "from the middle" below; before: 11_733_529_196_022_492_645
/// and 3_472_650_776_511_618_672), the metadata digests unchanged. PLAIN's table digest again
/// since TableInfo has the table's cluster: its debug text shows `cluster: None` (without it the
/// digest is the one before, 16_262_030_531_499_067_137).
const PINNED: [(u64, u64); 2] = [
    (6_245_231_324_625_682_111, 4_343_950_620_858_267_431),
    (13_239_156_145_789_645_435, 15_283_940_568_438_260_276),
];

#[test]
fn a_seeded_init_shows_what_the_general_writers_load_showed() {
    let mut got = Vec::new();
    for schema in [PLAIN, CDB] {
        let (rows, meta, text) = digests(schema, true);
        assert!(text.contains(" live "), "{text}");
        let general = digests(schema, false);
        got.push(((rows, meta), (general.0, general.1)));
    }
    eprintln!("digests (bulk, general): {got:?}");
    for (((bulk, general), pinned), schema) in got.into_iter().zip(PINNED).zip(["PLAIN", "CDB"]) {
        assert_eq!(
            general, pinned,
            "{schema}: the general writer's load changed"
        );
        assert_eq!(
            bulk, pinned,
            "{schema}: the bulk load shows another database"
        );
    }
}

/// A load that fails part-way fails the same way through either path, on one thread or two
/// (a key type that runs out of room; an empty text in a NOT NULL column).
#[test]
fn a_load_that_fails_fails_with_the_general_writers_error() {
    let schemas = [
        // NUMBER(3) has room for 999 keys: row 1,000 fails, in the threaded path.
        r#"
tables:
  - name: APP.K
    columns:
      - { name: ID, type: NUMBER(3), nullable: false }
      - { name: V, type: VARCHAR2(10) }
    primary_key: [ID]
    rows: 2500
"#,
        // An empty text is NULL: ORA-01400 at the first empty one, on one thread.
        r#"
tables:
  - name: APP.E
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: V, type: VARCHAR2(10), nullable: false, generate: { text: { min: 0, max: 3 } } }
    primary_key: [ID]
    rows: 900
"#,
        r#"
tables:
  - name: APP.E
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: V, type: VARCHAR2(10), nullable: false, generate: { text: { min: 0, max: 90 } } }
    primary_key: [ID]
    rows: 90000
"#,
    ];
    for schema in schemas {
        let error = |bulk: bool| {
            let dir = tempfile::tempdir().unwrap();
            let schema_path = dir.path().join("in.yaml");
            std::fs::write(&schema_path, schema).unwrap();
            init_with(
                &dir.path().join("db"),
                &schema_path,
                None,
                Arc::new(Ticking(AtomicI64::new(0))),
                bulk,
            )
            .unwrap_err()
            .to_string()
        };
        let general = error(false);
        assert!(
            general.contains("ORA-01400") || general.contains("room for 999"),
            "{general}"
        );
        assert_eq!(error(true), general);
    }
}
