//! Live conformance of the real Oracle adapter.
//!
//! Against a real database when `ORACLE_CDC_TEST_URL` (and `ORACLE_CDC_TEST_USER`,
//! `ORACLE_CDC_TEST_PASSWORD`) name one, on the thin driver unless
//! `ORACLE_CDC_TEST_DRIVER=thick` (which needs the Oracle Client libraries installed);
//! otherwise against the example schema's emulated CDB served over Oracle Net (`emulator
//! serve`) with a workload writing to it: never skipped. The user needs the capture
//! privileges of oracle-facts §7 (SELECT_CATALOG_ROLE, FLASHBACK ANY TABLE, SELECT ANY TABLE,
//! LOGMINING …).

use oracle_cdc::errors::CdcError;
use oracle_cdc::settings::Settings;
use oracle_cdc::source::{
    BoundaryQuery, ChunkRange, Connector, FlashbackQuery, Session, TableInfo,
};
use oracle_cdc::types::{compare, ColumnType, Value};
use std::time::{Duration, Instant};

struct Live {
    url: String,
    user: String,
    password: String,
}

/// The database the live suite runs against: `ORACLE_CDC_TEST_URL` (with `…_USER` and
/// `…_PASSWORD`) when set, a real Oracle database; else the example schema's emulated CDB served
/// over Oracle Net by `emulator serve` in this process, with a workload writing to it, reached
/// through the same thin driver and the same statements.
fn live() -> Option<Live> {
    match std::env::var("ORACLE_CDC_TEST_URL") {
        Ok(u) if !u.trim().is_empty() => Some(Live {
            url: u,
            user: std::env::var("ORACLE_CDC_TEST_USER").unwrap_or_default(),
            password: std::env::var("ORACLE_CDC_TEST_PASSWORD").unwrap_or_default(),
        }),
        _ => Some(served()),
    }
}

/// One served emulated database for the whole binary, and its workload (both end with it).
fn served() -> Live {
    use oracle_cdc::source::emulator::{self, clock, net, workload, writer::Writer, Faults};
    static SERVED: std::sync::OnceLock<(String, tempfile::TempDir, net::Served)> =
        std::sync::OnceLock::new();
    let (url, _, _) = SERVED.get_or_init(|| {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("db");
        let schema =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/emulator-schema.yaml");
        emulator::init(&dir, &schema, Some(3), clock::system()).expect("emulator init");
        let served = net::serve(
            &dir,
            &net::ServeOptions {
                listen: "127.0.0.1:0".into(),
                faults: Faults::default(),
                sdu: None,
                tls: None,
            },
        )
        .expect("emulator serve");
        let writer_dir = dir.clone();
        std::thread::spawn(move || {
            let mut w = Writer::open(&writer_dir, clock::system(), true).expect("writer");
            let options = workload::WorkloadOptions {
                duration: Some(Duration::from_secs(600)),
                rate: 20,
                tx_size: (1, 4),
                key_update_pct: 0,
                row_move_pct: 0,
                long_every: 0,
                shared_commit_pct: 0,
                seed: 3,
                lob_pct: 0,
                ..workload::WorkloadOptions::default()
            };
            let _ = workload::Workload::new(&mut w, options).and_then(|wl| wl.run(&|| false));
        });
        println!(
            "oracle_live: no ORACLE_CDC_TEST_URL: running against `emulator serve` at {}",
            served.url("DEMO")
        );
        (served.url("DEMO"), tmp, served)
    });
    Live {
        url: url.clone(),
        user: "C##CDC".into(),
        password: emulator::net::DEFAULT_PASSWORD.into(),
    }
}

fn settings(live: &Live) -> Settings {
    let mut pairs = vec![
        format!("cdc.database.url={}", live.url),
        format!("cdc.database.user={}", live.user),
        format!("cdc.database.password={}", live.password),
    ];
    // thin (the default) or thick.
    if let Ok(driver) = std::env::var("ORACLE_CDC_TEST_DRIVER") {
        pairs.push(format!("cdc.database.driver={driver}"));
    }
    Settings::from_pairs(&pairs).unwrap_or_else(|e| panic!("settings: {e}"))
}

/// The connector capture uses: the adapter behind the container logic (root or per-PDB mode
/// in a CDB, the session as it is outside one).
fn connector(live: &Live) -> Box<dyn Connector> {
    // The same path as the CLI: --set-style pairs through the settings loader.
    oracle_cdc::source::open_source(&settings(live)).unwrap_or_else(|e| panic!("connector: {e}"))
}

/// A table every column of which the adapter can fetch, smallest first by statistics.
fn readable_table(tables: &[TableInfo]) -> Option<&TableInfo> {
    let fetchable = |t: &&TableInfo| {
        !t.columns.is_empty()
            && t.columns
                .iter()
                .all(|c| !matches!(c.data_type, ColumnType::Bfile))
    };
    tables
        .iter()
        .filter(fetchable)
        .min_by_key(|t| t.stats.num_rows.unwrap_or(u64::MAX))
}

#[test]
fn live_conformance() {
    let Some(live) = live() else {
        return;
    };
    let connector = connector(&live);
    assert!(!connector.describe().contains(&live.password) || live.password.is_empty());
    let mut session = connector
        .connect()
        .unwrap_or_else(|e| panic!("connect to {}: {e}", connector.describe()));

    // database(): identity and settings look like a real database.
    let db = session
        .database()
        .unwrap_or_else(|e| panic!("database(): {e}"));
    assert!(db.dbid > 0, "{db:?}");
    assert!(!db.name.is_empty(), "{db:?}");
    assert!(
        db.version
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit()),
        "{db:?}"
    );
    assert!(db.resetlogs_scn > 0, "{db:?}");
    println!(
        "oracle_live: {} {} {} ({}), cdb={} pdbs={:?}",
        db.name,
        db.version,
        db.edition,
        db.role.as_oracle(),
        db.cdb,
        db.pdbs
    );

    // current_scn(): moves forward (background activity advances it within seconds).
    let first = session
        .current_scn()
        .unwrap_or_else(|e| panic!("current_scn(): {e}"));
    assert!(first > 0);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let next = session
            .current_scn()
            .unwrap_or_else(|e| panic!("current_scn(): {e}"));
        assert!(next >= first, "SCN went back: {first} -> {next}");
        if next > first {
            break;
        }
        assert!(Instant::now() < deadline, "SCN stayed at {first} for 30 s");
        std::thread::sleep(Duration::from_millis(500));
    }

    // privileges() and open_transactions() answer.
    let privileges = session
        .privileges()
        .unwrap_or_else(|e| panic!("privileges(): {e}"));
    assert!(
        privileges.system.contains("CREATE SESSION"),
        "{privileges:?}"
    );
    session
        .open_transactions()
        .unwrap_or_else(|e| panic!("open_transactions(): {e}"));

    // tables(): something is there.
    let tables = session.tables().unwrap_or_else(|e| panic!("tables(): {e}"));
    assert!(!tables.is_empty(), "tables() listed nothing");

    // A flashback read at the current SCN works (stopped after 100 rows).
    let table = readable_table(&tables).unwrap_or_else(|| panic!("no readable table"));
    let scn = session
        .current_scn()
        .unwrap_or_else(|e| panic!("current_scn(): {e}"));
    let query = FlashbackQuery {
        table: table.name.clone(),
        columns: table.columns.iter().map(|c| c.name.clone()).collect(),
        key_columns: table
            .primary_key
            .as_ref()
            .map(|k| k.columns.clone())
            .unwrap_or_default(),
        scn,
        range: ChunkRange::Whole,
        filter: None,
        row_ids: true,
    };
    let mut seen = 0usize;
    let result = session.read_as_of(&query, &mut |row| {
        assert_eq!(row.values.len(), query.columns.len());
        assert!(!row.rowid.is_empty());
        seen += 1;
        if seen >= 100 {
            return Err(CdcError::Argument("enough rows".into()));
        }
        Ok(())
    });
    match result {
        Ok(_) => {}
        Err(CdcError::Argument(m)) if m == "enough rows" => {}
        Err(e) => panic!("read_as_of({}): {e}", table.name),
    }
    println!(
        "oracle_live: read {seen} rows of {} AS OF SCN {scn}",
        table.name
    );

    // logs(): redo is available.
    let logs = session.logs().unwrap_or_else(|e| panic!("logs(): {e}"));
    assert!(!logs.is_empty(), "logs() listed nothing");
    assert!(
        logs.iter().any(|l| l.next_scn.is_none()),
        "no current log: {logs:?}"
    );

    // redo_threads(): at least one OPEN thread, written no further than the current SCN; the
    // mining bound is below it. host_utc_offset() and dictionary_builds() answer.
    let threads = session
        .redo_threads()
        .unwrap_or_else(|e| panic!("redo_threads(): {e}"));
    let now = session
        .current_scn()
        .unwrap_or_else(|e| panic!("current_scn(): {e}"));
    assert!(threads.iter().any(|t| t.is_open()), "{threads:?}");
    // An idle thread's position stands still (V$THREAD, on Oracle and in the emulator): no
    // thread has written past the SCN read after it.
    assert!(
        threads.iter().all(|t| t.last_redo_scn <= now),
        "{threads:?} (current {now})"
    );
    let bound = session
        .mining_limit(0)
        .unwrap_or_else(|e| panic!("mining_limit(): {e}"));
    // A workload writes meanwhile: the bound is compared with the SCN read after it.
    let now = session
        .current_scn()
        .unwrap_or_else(|e| panic!("current_scn(): {e}"));
    if db.role.as_oracle() == "PRIMARY" {
        assert!(bound.is_some_and(|b| b < now), "{bound:?} (current {now})");
    }
    let offset = session
        .host_utc_offset()
        .unwrap_or_else(|e| panic!("host_utc_offset(): {e}"));
    assert!(offset.is_some());
    let builds = session
        .dictionary_builds()
        .unwrap_or_else(|e| panic!("dictionary_builds(): {e}"));
    println!(
        "oracle_live: threads {threads:?}, mining bound {bound:?}, host offset {offset:?}s, {} dictionary builds",
        builds.len()
    );
}

/// A table with a primary key whose columns bind and compare simply (numbers, character, dates,
/// timestamps, RAW), smallest first by statistics.
fn keyed_table(tables: &[TableInfo]) -> Option<&TableInfo> {
    let simple = |t: &TableInfo, c: &String| {
        t.column(c).is_some_and(|c| {
            matches!(
                c.data_type,
                ColumnType::Number { .. }
                    | ColumnType::Varchar2 { .. }
                    | ColumnType::Char { .. }
                    | ColumnType::Date
                    | ColumnType::Timestamp { .. }
                    | ColumnType::Raw { .. }
            )
        })
    };
    tables
        .iter()
        .filter(|t| {
            t.primary_key
                .as_ref()
                .is_some_and(|k| !k.columns.is_empty() && k.columns.iter().all(|c| simple(t, c)))
        })
        // Non-empty first (by statistics), then smallest.
        .min_by_key(|t| match t.stats.num_rows {
            Some(0) => (1, 0),
            Some(n) => (0, n),
            None => (2, 0),
        })
}

/// Keys read by a flashback read ordered by the key (at most `limit`), and whether that was all.
fn read_keys(
    session: &mut dyn Session,
    table: &TableInfo,
    key: &[String],
    scn: u64,
    filter: Option<&str>,
    limit: usize,
) -> (Vec<Vec<Value>>, bool) {
    let query = FlashbackQuery {
        table: table.name.clone(),
        columns: key.to_vec(),
        key_columns: key.to_vec(),
        scn,
        range: ChunkRange::Whole,
        filter: filter.map(str::to_string),
        row_ids: true,
    };
    let mut keys = Vec::new();
    let result = session.read_as_of(&query, &mut |row| {
        keys.push(row.values);
        if keys.len() >= limit {
            return Err(CdcError::Argument("enough rows".into()));
        }
        Ok(())
    });
    match result {
        Ok(_) => (keys, true),
        Err(CdcError::Argument(m)) if m == "enough rows" => (keys, false),
        Err(e) => panic!("read_as_of({}, filter {filter:?}): {e}", table.name),
    }
}

/// key_range(), key_boundaries() and the flashback filter agree with a plain ordered flashback
/// read of the same table at the same SCN (the emulator's semantics: boundaries are the keys of
/// rows step, 2*step, … from the lower bound, 0-based).
#[test]
fn live_key_probes_and_filter() {
    let Some(live) = live() else {
        return;
    };
    let connector = connector(&live);
    let mut session = connector
        .connect()
        .unwrap_or_else(|e| panic!("connect to {}: {e}", connector.describe()));
    let tables = session.tables().unwrap_or_else(|e| panic!("tables(): {e}"));
    let Some(table) = keyed_table(&tables) else {
        println!("oracle_live: key probes skipped: no table with a simple primary key is visible");
        return;
    };
    let key = table
        .primary_key
        .as_ref()
        .map(|k| k.columns.clone())
        .unwrap_or_default();
    let scn = session
        .current_scn()
        .unwrap_or_else(|e| panic!("current_scn(): {e}"));
    const LIMIT: usize = 2_000;
    let (keys, complete) = read_keys(session.as_mut(), table, &key, scn, None, LIMIT);
    println!(
        "oracle_live: key probes on {} ({:?}), {} keys read{}",
        table.name,
        key,
        keys.len(),
        if complete { "" } else { " (first ones)" }
    );

    // Filters: an always-false one reads nothing, an always-true one changes nothing.
    let (none, _) = read_keys(session.as_mut(), table, &key, scn, Some("1 = 0"), LIMIT);
    assert!(none.is_empty(), "filter 1 = 0 read {} rows", none.len());
    let (all, _) = read_keys(
        session.as_mut(),
        table,
        &key,
        scn,
        Some("1 = 1 AND (2 > 1)"),
        LIMIT,
    );
    assert_eq!(all, keys, "filter 1 = 1 changed the rows");

    // key_range(): MIN and MAX of a one-column key.
    if key.len() == 1 {
        let range = session
            .key_range(&table.name, &key[0], Some(scn))
            .unwrap_or_else(|e| panic!("key_range({}): {e}", table.name));
        match (&range, keys.first(), keys.last()) {
            (None, None, _) => {}
            (Some((min, max)), Some(first), Some(last)) => {
                assert_eq!(min, &first[0], "MIN vs first key read");
                if complete {
                    assert_eq!(max, &last[0], "MAX vs last key read");
                }
                assert!(compare(min, max).is_le(), "MIN {min:?} > MAX {max:?}");
            }
            other => panic!("key_range {range:?} vs keys read: {other:?}"),
        }
    }

    // key_boundaries(): from the start, and from a lower bound taken from the keys.
    let expected = |from: usize, step: usize, count: usize| -> Vec<Vec<Value>> {
        keys[from..]
            .iter()
            .skip(step)
            .step_by(step)
            .take(count)
            .cloned()
            .collect()
    };
    let step = (keys.len() / 12).max(1);
    let count = 5u32;
    // Only what the keys read can vouch for: the probe must not need rows past them.
    let checkable = |from: usize| complete || from + step * (count as usize) < keys.len();
    let mut lowers = vec![(0usize, None)];
    if keys.len() > 2 {
        let from = keys.len() / 3;
        lowers.push((from, Some(keys[from].clone())));
    }
    for (from, lower) in lowers {
        let q = BoundaryQuery {
            table: table.name.clone(),
            key_columns: key.clone(),
            scn,
            lower: lower.clone(),
            step: step as u64,
            count,
        };
        let got = session
            .key_boundaries(&q)
            .unwrap_or_else(|e| panic!("key_boundaries({q:?}): {e}"));
        assert!(got.len() <= count as usize, "{got:?}");
        if checkable(from) {
            assert_eq!(got, expected(from, step, count as usize), "lower {lower:?}");
        }
        println!(
            "oracle_live: key_boundaries step {step} from {lower:?}: {} boundaries",
            got.len()
        );
    }
}

/// Multitenant (oracle-facts §8): where the session lands decides the mode; in the root the
/// catalog is read PDB by PDB after ALTER SESSION SET CONTAINER, and mining in the root labels
/// rows with their PDB. Skipped outside a CDB.
#[test]
fn live_multitenant() {
    let Some(live) = live() else {
        return;
    };
    let settings = settings(&live);
    let raw =
        oracle_cdc::source::oracle_source(&settings).unwrap_or_else(|e| panic!("connector: {e}"));
    let mut session = raw.connect().unwrap_or_else(|e| panic!("connect: {e}"));
    let landed = session
        .container()
        .unwrap_or_else(|e| panic!("container(): {e}"));
    let db = session
        .database()
        .unwrap_or_else(|e| panic!("database(): {e}"));
    if !db.cdb {
        assert_eq!(landed, None, "a non-CDB session has no container");
        println!("oracle_live: multitenant skipped: {} is not a CDB", db.name);
        return;
    }
    let landed = landed.unwrap_or_else(|| panic!("a CDB session names its container"));
    println!("oracle_live: landed in {landed}; open PDBs {:?}", db.pdbs);
    let mut wrapped = connector(&live)
        .connect()
        .unwrap_or_else(|e| panic!("connect: {e}"));
    let tables = wrapped.tables().unwrap_or_else(|e| panic!("tables(): {e}"));
    for t in &tables {
        let pdb = t
            .name
            .pdb
            .as_deref()
            .unwrap_or_else(|| panic!("{} names no PDB", t.name));
        assert!(
            landed == "CDB$ROOT" && db.pdbs.iter().any(|p| p == pdb) || landed == pdb,
            "{} is not in an open PDB of this session's reach",
            t.name
        );
    }
    if landed == "CDB$ROOT" {
        // The raw session in the root sees no user table; inside a PDB it does.
        assert!(session.tables().unwrap_or_default().is_empty());
        if let Some(pdb) = db.pdbs.first() {
            session
                .set_container(pdb)
                .unwrap_or_else(|e| panic!("ALTER SESSION SET CONTAINER = {pdb}: {e}"));
            assert_eq!(
                session.container().ok().flatten().as_deref(),
                Some(pdb.as_str())
            );
            session
                .set_container("CDB$ROOT")
                .unwrap_or_else(|e| panic!("back to the root: {e}"));
        }
    }
    // A short window mined where the mode mines: every DML row names its PDB.
    let end = wrapped
        .current_scn()
        .unwrap_or_else(|e| panic!("current_scn(): {e}"));
    let start = end.saturating_sub(2000);
    let mut named = 0u64;
    let mined = wrapped.mine(
        start,
        end,
        &oracle_cdc::source::MiningFilter::default(),
        &mut |r| {
            if matches!(r.operation_code, 1..=3) {
                assert!(
                    !r.src_con_name.is_empty(),
                    "a DML row without SRC_CON_NAME: {r:?}"
                );
                if landed != "CDB$ROOT" {
                    assert_eq!(
                        r.src_con_name, landed,
                        "per-PDB mining returned another PDB's row"
                    );
                }
                named += 1;
            }
            Ok(())
        },
    );
    match mined {
        Ok(()) => println!("oracle_live: mined {named} DML rows in {start}..{end}"),
        // The window may be older than the retained redo on a quiet test database.
        Err(e @ CdcError::MissingLogFile { .. }) => println!("oracle_live: not mined: {e}"),
        Err(e) => panic!("mine({start}, {end}): {e}"),
    }
}
