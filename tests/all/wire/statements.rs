//! Every statement `sql.rs` defines, constant or built, run over Oracle Net against the served
//! emulator: each must be answered (rows, or the error Oracle gives for that database state),
//! never ORA-00900 / ORA-00942 / ORA-00904 / ORA-03001 for want of an answer. The list is
//! checked against `sql.rs` itself, so a statement added there without an answer here fails.

use super::fixture::*;
use oracle_cdc::names::TableName;
use oracle_cdc::source::emulator::{clock, writer::Writer};
use oracle_cdc::source::oracle::connect::Password;
use oracle_cdc::source::oracle::driver::{self, Cell, DbSession, Driver, FetchOptions};
use oracle_cdc::source::oracle::fetch::Bind;
use oracle_cdc::source::oracle::sql::{self, SelectItem, Statement};
use oracle_cdc::source::{filter::Owners, ChunkRange, MiningFilter};
use oracle_cdc::types::Value;
use std::collections::BTreeSet;

/// Names in `sql.rs` that are not statements.
const NOT_STATEMENTS: &[(&str, &str)] = &[
    ("quote_ident", "quotes a name"),
    ("quote_table", "quotes a name"),
    ("filter_condition", "checks a user condition"),
    ("TIMESTAMP_TZ_FORMAT", "a format model"),
];

fn session(url: &str) -> Box<dyn DbSession> {
    driver::open(
        Driver::Thin,
        url,
        65536,
        None,
        USER,
        &Password::new(PASSWORD),
        None,
    )
    .expect("connect")
}

fn binds(st: &Statement) -> Vec<(String, Bind)> {
    st.binds
        .iter()
        .map(|(n, v)| (n.clone(), Bind::from_value(v).expect("bind")))
        .collect()
}

fn rows(s: &dyn DbSession, name: &str, text: &str, b: &[(String, Bind)]) -> Vec<Vec<Cell>> {
    let named: Vec<(&str, Bind)> = b.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
    let out: Result<Vec<_>, _> = s
        .query(text, &named, FetchOptions::rows(100))
        .and_then(|r| r.collect());
    out.unwrap_or_else(|e| panic!("{name}: {text}: {e:?}"))
}

fn exec(s: &dyn DbSession, name: &str, text: &str, b: &[(String, Bind)]) {
    let named: Vec<(&str, Bind)> = b.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
    s.execute(text, &named)
        .unwrap_or_else(|e| panic!("{name}: {text}: {e:?}"));
}

fn text(c: &Cell) -> String {
    match c {
        Cell::Text(t) => t.clone(),
        Cell::Number(t) => t.to_string(),
        other => panic!("not text: {other:?}"),
    }
}

fn plain(text: &str) -> Vec<(String, Bind)> {
    let _ = text;
    Vec::new()
}

fn named(pairs: &[(&str, Value)]) -> Vec<(String, Bind)> {
    pairs
        .iter()
        .map(|(n, v)| (n.to_string(), Bind::from_value(v).expect("bind")))
        .collect()
}

/// Runs every statement; returns the names run.
fn walk(served: &Served) -> BTreeSet<String> {
    let mut ran = BTreeSet::new();
    let mut mark = |n: &str| {
        ran.insert(n.to_string());
    };
    let root = session(&served.url("DEMO"));
    let root = root.as_ref();
    for (name, text) in [
        ("SESSION_NLS", sql::SESSION_NLS),
        ("SESSION_TIME_ZONE", sql::SESSION_TIME_ZONE),
        ("SESSION_BINARY_SORT", sql::SESSION_BINARY_SORT),
        ("SESSION_ROW_ARCHIVAL", sql::SESSION_ROW_ARCHIVAL),
    ] {
        exec(root, name, text, &[]);
        mark(name);
    }
    exec(root, "session_setup", &sql::session_setup(), &[]);
    mark("session_setup");
    let scn: u64 = text(&rows(root, "CURRENT_SCN", sql::CURRENT_SCN, &[])[0][0])
        .parse()
        .unwrap();
    mark("CURRENT_SCN");
    for (name, text) in [
        ("DATABASE_INFO", sql::DATABASE_INFO),
        ("PRODUCT_VERSION", sql::PRODUCT_VERSION),
        ("UNDO_PARAMETERS", sql::UNDO_PARAMETERS),
        ("OPEN_PDBS", sql::OPEN_PDBS),
        ("CONTAINER_NAME", sql::CONTAINER_NAME),
        ("SESSION_PRIVILEGES", sql::SESSION_PRIVILEGES),
        ("SESSION_ROLES", sql::SESSION_ROLES),
        ("OBJECT_PRIVILEGES", sql::OBJECT_PRIVILEGES),
        ("OPEN_TRANSACTIONS", sql::OPEN_TRANSACTIONS),
        ("ONLINE_LOGS", sql::ONLINE_LOGS),
        ("ARCHIVED_LOGS", sql::ARCHIVED_LOGS),
        ("HOST_UTC_OFFSET", sql::HOST_UTC_OFFSET),
        ("DATE_CLOCK", sql::DATE_CLOCK),
        ("REDO_THREADS", sql::REDO_THREADS),
        ("INSTANCE_PARAMETERS", sql::INSTANCE_PARAMETERS),
        ("CHARACTER_SETS", sql::CHARACTER_SETS),
        ("RESOURCE_LIMITS", sql::RESOURCE_LIMITS),
        ("SESSIONS_PER_USER", sql::SESSIONS_PER_USER),
        ("CALL_LIMITS", sql::CALL_LIMITS),
        ("ARCHIVE_DESTINATIONS", sql::ARCHIVE_DESTINATIONS),
        ("REDO_GROUPS", sql::REDO_GROUPS),
        ("LOG_SWITCHES", sql::LOG_SWITCHES),
        ("DICTIONARY_LOGS", sql::DICTIONARY_LOGS),
        ("CONTAINER_DATA", sql::CONTAINER_DATA),
        ("LOWEST_INSTANCE_SCN", sql::LOWEST_INSTANCE_SCN),
        ("FOREIGN_LOGS", sql::FOREIGN_LOGS),
        ("STANDBY_LOGS", sql::STANDBY_LOGS),
        ("FOREIGN_DICTIONARY_LOGS", sql::FOREIGN_DICTIONARY_LOGS),
    ] {
        let got = rows(root, name, text, &plain(text));
        // A new database has no open transaction, no archive and no dictionary build yet; a
        // primary received no other database's redo (a downstream's walk is below).
        let empty_is_right = matches!(
            name,
            "OPEN_TRANSACTIONS"
                | "OBJECT_PRIVILEGES"
                | "ARCHIVED_LOGS"
                | "DICTIONARY_LOGS"
                | "LOG_SWITCHES"
                | "FOREIGN_LOGS"
                | "STANDBY_LOGS"
                | "FOREIGN_DICTIONARY_LOGS"
        );
        assert!(empty_is_right || !got.is_empty(), "{name}: no rows");
        mark(name);
    }
    rows(
        root,
        "UNDO_RETENTION_MODE",
        sql::UNDO_RETENTION_MODE,
        &named(&[("tablespace_name", Value::Text("UNDOTBS1".into()))]),
    );
    mark("UNDO_RETENTION_MODE");
    let t = rows(
        root,
        "SCN_TO_TIME",
        sql::SCN_TO_TIME,
        &named(&[("scn", Value::Number(scn.to_string().into()))]),
    );
    assert_eq!(t.len(), 1);
    mark("SCN_TO_TIME");
    // 19c (the example schema): no such parameter, no row.
    assert!(rows(root, "TIME_AT_DBTIMEZONE", sql::TIME_AT_DBTIMEZONE, &[]).is_empty());
    mark("TIME_AT_DBTIMEZONE");

    // LogMiner in CDB$ROOT: the logs covering the newest SCNs, then the window.
    let logs = rows(root, "ONLINE_LOGS", sql::ONLINE_LOGS, &[]);
    let current = logs
        .iter()
        .find(|r| text(&r[5]) == "CURRENT")
        .expect("a CURRENT log");
    let (log, first): (String, u64) = (text(&current[0]), text(&current[3]).parse().unwrap());
    exec(
        root,
        "ADD_FIRST_LOGFILE",
        sql::ADD_FIRST_LOGFILE,
        &named(&[("logfilename", Value::Text(log.clone().into()))]),
    );
    mark("ADD_FIRST_LOGFILE");
    let archived = rows(root, "ARCHIVED_LOGS", sql::ARCHIVED_LOGS, &[]);
    if let Some(a) = archived.last() {
        exec(
            root,
            "ADD_LOGFILE",
            sql::ADD_LOGFILE,
            &named(&[("logfilename", Value::Text(text(&a[0]).into()))]),
        );
    }
    mark("ADD_LOGFILE");
    let window = named(&[
        ("startscn", Value::Number(first.to_string().into())),
        ("endscn", Value::Number(scn.to_string().into())),
    ]);
    exec(root, "START_LOGMNR", sql::START_LOGMNR, &window);
    mark("START_LOGMNR");
    rows(root, "LOGMNR_CONTENTS", sql::LOGMNR_CONTENTS, &window);
    mark("LOGMNR_CONTENTS");
    let filter = MiningFilter {
        operation_codes: vec![1, 2, 3, 6, 7, 36],
        skip_internal_ddl: true,
        skip_mview_logs: true,
        internal_with_row_id: true,
        owners: Owners::NotOracle,
        unknown_objects: true,
        tables: vec![("HR".into(), "SIGNALS".into())],
        pdbs: None,
    };
    let st = sql::logmnr_contents(&filter, first, scn);
    rows(root, "logmnr_contents", &st.text, &binds(&st));
    mark("logmnr_contents");
    exec(root, "END_LOGMNR", sql::END_LOGMNR, &[]);
    mark("END_LOGMNR");

    // The dictionary in the redo: a build, then a window starting after it.
    let mut w = Writer::open(&served.dir, clock::system(), true).expect("writer");
    let (built, _) = w.build_dictionary().expect("dictionary build");
    drop(w);
    let after = built + 1;
    let logs = rows(root, "ARCHIVED_LOGS", sql::ARCHIVED_LOGS, &[]);
    for (i, l) in logs.iter().enumerate() {
        let which = if i == 0 {
            sql::ADD_FIRST_LOGFILE
        } else {
            sql::ADD_LOGFILE
        };
        exec(
            root,
            "ADD_LOGFILE",
            which,
            &named(&[("logfilename", Value::Text(text(&l[0]).into()))]),
        );
    }
    let online = rows(root, "ONLINE_LOGS", sql::ONLINE_LOGS, &[]);
    if let Some(cur) = online.iter().find(|r| text(&r[5]) == "CURRENT") {
        exec(
            root,
            "ADD_LOGFILE",
            sql::ADD_LOGFILE,
            &named(&[("logfilename", Value::Text(text(&cur[0]).into()))]),
        );
    }
    let now: u64 = text(&rows(root, "CURRENT_SCN", sql::CURRENT_SCN, &[])[0][0])
        .parse()
        .unwrap();
    let window = named(&[
        ("startscn", Value::Number(after.max(now).to_string().into())),
        ("endscn", Value::Number(now.to_string().into())),
    ]);
    exec(
        root,
        "START_LOGMNR_REDO_DICTIONARY",
        sql::START_LOGMNR_REDO_DICTIONARY,
        &window,
    );
    mark("START_LOGMNR_REDO_DICTIONARY");
    exec(root, "END_LOGMNR", sql::END_LOGMNR, &[]);
    downstream_walk(served);

    // Capture's own build (into the current log; the emulator's tests follow it into
    // V$ARCHIVED_LOG).
    exec(root, "BUILD_DICTIONARY", sql::BUILD_DICTIONARY, &[]);
    mark("BUILD_DICTIONARY");

    // A PDB: the catalog, the reads, the probes, the signal insert.
    exec(
        root,
        "set_container",
        &sql::set_container("PDB1").unwrap(),
        &[],
    );
    mark("set_container");
    for (name, text) in [
        ("TABLES", sql::TABLES),
        ("STALE_STATS", sql::STALE_STATS),
        ("COLUMNS", sql::COLUMNS),
        ("KEYS", sql::KEYS),
        ("UNIQUE_INDEXES", sql::UNIQUE_INDEXES),
        ("DATA_OBJECTS", sql::DATA_OBJECTS),
        ("ALL_COLUMN_LOG_GROUPS", sql::ALL_COLUMN_LOG_GROUPS),
    ] {
        assert!(
            !rows(root, name, text, &[]).is_empty(),
            "{name}: no rows in PDB1"
        );
        mark(name);
    }
    // Read inside a PDB: the user's GoldenGate administrator grants (none for C##CDC here).
    rows(
        root,
        "GOLDENGATE_PRIVILEGES",
        sql::GOLDENGATE_PRIVILEGES,
        &[],
    );
    mark("GOLDENGATE_PRIVILEGES");
    // Read inside a PDB (12.2+): the levels the PDB enabled itself, one row.
    assert_eq!(
        rows(
            root,
            "PDB_SUPPLEMENTAL_LOGGING",
            sql::PDB_SUPPLEMENTAL_LOGGING,
            &[]
        )
        .len(),
        1,
        "PDB_SUPPLEMENTAL_LOGGING: one row in PDB1"
    );
    mark("PDB_SUPPLEMENTAL_LOGGING");
    let emp: TableName = "HR.EMPLOYEES".parse().unwrap();
    let owner_table = named(&[
        ("owner", Value::Text("HR".into())),
        ("table_name", Value::Text("EMPLOYEES".into())),
    ]);
    for (name, text) in [
        ("TABLE_COLUMNS", sql::TABLE_COLUMNS),
        ("TABLE_COLUMN_TYPES", sql::TABLE_COLUMN_TYPES),
        ("EXTENTS", sql::EXTENTS),
    ] {
        assert!(
            !rows(root, name, text, &owner_table).is_empty(),
            "{name}: no rows for HR.EMPLOYEES"
        );
        mark(name);
    }
    // The table's data objects now: the ones its extents carry (one segment, no partition).
    let ids: BTreeSet<String> = rows(
        root,
        "TABLE_DATA_OBJECTS",
        sql::TABLE_DATA_OBJECTS,
        &owner_table,
    )
    .iter()
    .map(|r| text(&r[0]))
    .collect();
    let extent_ids: BTreeSet<String> = rows(root, "EXTENTS", sql::EXTENTS, &owner_table)
        .iter()
        .map(|r| text(&r[1]))
        .collect();
    assert!(
        !ids.is_empty() && ids == extent_ids,
        "{ids:?} vs {extent_ids:?}"
    );
    mark("TABLE_DATA_OBJECTS");
    // The example's tables have no VPD or redaction policy: answered with no row
    // (snapshot_policies.rs and the emulator's policies_tests read policies); the capture user
    // has neither exemption.
    for (name, text) in [
        ("ROW_ACCESS_POLICIES", sql::ROW_ACCESS_POLICIES),
        ("SEC_RELEVANT_COLUMNS", sql::SEC_RELEVANT_COLUMNS),
        ("REDACTION_POLICIES", sql::REDACTION_POLICIES),
        ("REDACTION_COLUMNS", sql::REDACTION_COLUMNS),
        ("REDACTION_EXPRESSIONS", sql::REDACTION_EXPRESSIONS),
    ] {
        assert!(rows(root, name, text, &owner_table).is_empty(), "{name}");
        mark(name);
    }
    // A policy expression, TRUE and FALSE for this session (wire/policies.rs evaluates real
    // policies' expressions).
    for (expression, holds) in [
        ("1=1", "1"),
        ("SYS_CONTEXT('USERENV','SESSION_USER') <> USER", "0"),
        (
            "SYS_CONTEXT('SYS_SESSION_ROLES','SELECT_CATALOG_ROLE') = 'TRUE'",
            "1",
        ),
    ] {
        let statement = sql::redaction_expression_holds(expression);
        let r = rows(root, "redaction_expression_holds", &statement, &[]);
        assert_eq!(r.len(), 1, "{expression}");
        assert_eq!(text(&r[0][0]), holds, "{expression}");
    }
    mark("redaction_expression_holds");
    assert!(rows(root, "POLICY_EXEMPTIONS", sql::POLICY_EXEMPTIONS, &[]).is_empty());
    mark("POLICY_EXEMPTIONS");
    // The example has no cluster: answered with no row (conformance.rs reads a cluster's).
    let no_cluster = named(&[
        ("owner", Value::Text("HR".into())),
        ("cluster_name", Value::Text("EMPLOYEES".into())),
    ]);
    assert!(rows(root, "CLUSTER_EXTENTS", sql::CLUSTER_EXTENTS, &no_cluster).is_empty());
    mark("CLUSTER_EXTENTS");
    let key = [SelectItem::Plain("ID")];
    let items = [
        SelectItem::Plain("ID"),
        SelectItem::Plain("NAME"),
        SelectItem::Plain("UPDATED_AT"),
    ];
    for range in [
        ChunkRange::Whole,
        ChunkRange::Key {
            lower: Some(vec![Value::Number("10".into())]),
            upper: Some(vec![Value::Number("20".into())]),
        },
    ] {
        let st = sql::flashback_select(&emp, &items, &key, scn, &range, Some("SALARY > 0"), true)
            .unwrap();
        rows(root, "flashback_select", &st.text, &binds(&st));
    }
    // A national key's bounds as UNISTR of escaped text (the walk's table has no national
    // column; the form is what is walked): 'Ā…' sorts after every ASCII name.
    let national = [SelectItem::National("NAME")];
    let range = ChunkRange::Key {
        lower: Some(vec![Value::Text("A".into())]),
        upper: Some(vec![Value::Text("Ā\\😀".into())]),
    };
    let st = sql::flashback_select(&emp, &items, &national, scn, &range, None, true).unwrap();
    assert!(st.text.contains("< UNISTR(:u1)"), "{}", st.text);
    assert!(!rows(root, "flashback_select", &st.text, &binds(&st)).is_empty());
    // A keyless table in ROWID ranges, its TIMESTAMP WITH TIME ZONE column as text.
    let audit: TableName = "HR.AUDIT_LOG".parse().unwrap();
    let items = [SelectItem::TimestampTz("AT"), SelectItem::Plain("REGION")];
    let st =
        sql::flashback_select(&audit, &items, &[], scn, &ChunkRange::Whole, None, true).unwrap();
    let all = rows(root, "flashback_select", &st.text, &binds(&st));
    assert!(all.len() > 2);
    let range = ChunkRange::Rowid {
        start: text(&all[0][0]),
        end: text(&all[all.len() / 2][0]),
    };
    let st = sql::flashback_select(&audit, &items, &[], scn, &range, None, true).unwrap();
    assert!(!rows(root, "flashback_select", &st.text, &binds(&st)).is_empty());
    mark("flashback_select");
    let st = sql::key_range_select(&emp, SelectItem::Plain("ID"), Some(scn)).unwrap();
    assert_eq!(
        rows(root, "key_range_select", &st.text, &binds(&st)).len(),
        1
    );
    let st = sql::key_range_select(&emp, SelectItem::Plain("ID"), None).unwrap();
    assert_eq!(
        rows(root, "key_range_select", &st.text, &binds(&st)).len(),
        1
    );
    mark("key_range_select");
    let st = sql::key_boundaries_select(
        &emp,
        &[SelectItem::Plain("ID")],
        scn,
        Some(&[Value::Number("5".into())]),
        10,
        3,
    )
    .unwrap();
    assert_eq!(
        rows(root, "key_boundaries_select", &st.text, &binds(&st)).len(),
        3
    );
    mark("key_boundaries_select");
    let text = sql::condition_check(&emp, "REGION = 'EMEA'").unwrap();
    assert!(rows(root, "condition_check", &text, &[]).is_empty());
    mark("condition_check");
    let signals: TableName = "HR.SIGNALS".parse().unwrap();
    let text = sql::insert_signal(&signals).unwrap();
    let b = named(&[
        ("signal_id", Value::Text("walk-1".into())),
        ("signal_type", Value::Text("log".into())),
        ("signal_data", Value::Text("{\"message\":\"hello\"}".into())),
    ]);
    exec(root, "insert_signal", &text, &b);
    root.commit().expect("commit");
    mark("insert_signal");
    ran
}

/// A downstream of the served database, served too: the logs it received from the source (a
/// dictionary build's among them) answer with the source's DBID and incarnation, and its own
/// V$LOG holds its own redo only.
fn downstream_walk(served: &Served) {
    use oracle_cdc::source::emulator::{net, topology};
    let root = session(&served.url("DEMO"));
    let source: Vec<String> = rows(
        root.as_ref(),
        "DATABASE_INFO",
        "SELECT DBID, RESETLOGS_CHANGE# FROM V$DATABASE",
        &[],
    )[0]
    .iter()
    .map(text)
    .collect();
    let dir = served._tmp.path().join("downstream");
    topology::create(
        &dir,
        &topology::TopologyFile::Downstream {
            source: served.dir.clone(),
            name: "DOWNSTRM".into(),
            dbid: 424_242,
            scn: 77,
            shipping: topology::Shipping::RealTime,
            from_sequence: 1,
            missing_sequences: Vec::new(),
        },
    )
    .expect("downstream");
    let ds = net::serve(
        &dir,
        &net::ServeOptions {
            listen: "127.0.0.1:0".into(),
            faults: Default::default(),
            sdu: None,
            tls: None,
        },
    )
    .expect("serve the downstream");
    let m = session(&ds.url("DEMO"));
    let m = m.as_ref();
    let foreign = rows(m, "FOREIGN_LOGS", sql::FOREIGN_LOGS, &[]);
    assert!(!foreign.is_empty(), "the source's archived logs arrived");
    for r in &foreign {
        assert_eq!(
            (text(&r[5]), text(&r[6])),
            (source[0].clone(), source[1].clone()),
            "SOURCE_DBID and RESETLOGS_CHANGE# are the source's: {r:?}"
        );
    }
    let standby = rows(m, "STANDBY_LOGS", sql::STANDBY_LOGS, &[]);
    assert!(
        !standby.is_empty(),
        "real-time shipping writes a standby redo log"
    );
    for r in &standby {
        assert_eq!(text(&r[6]), source[0], "V$STANDBY_LOG.DBID: {r:?}");
        assert!(matches!(r[4], Cell::Null), "being written: {r:?}");
    }
    let builds = rows(
        m,
        "FOREIGN_DICTIONARY_LOGS",
        sql::FOREIGN_DICTIONARY_LOGS,
        &[],
    );
    assert!(
        builds.iter().any(|r| text(&r[4]) == "YES"),
        "the dictionary build arrived: {builds:?}"
    );
    // Its own V$LOG: one log of its own, none of the source's.
    let own = rows(m, "ONLINE_LOGS", sql::ONLINE_LOGS, &[]);
    assert_eq!(own.len(), 1, "{own:?}");
    assert!(rows(m, "ARCHIVED_LOGS", sql::ARCHIVED_LOGS, &[]).is_empty());
}

/// `pub const NAME` and `pub fn name` of `sql.rs`, and its `pub use` re-exports.
fn defined() -> BTreeSet<String> {
    let source = include_str!("../../../crates/cdc-oracle/src/sql.rs");
    let mut out = BTreeSet::new();
    for line in source.lines() {
        let name = line
            .strip_prefix("pub const ")
            .or_else(|| line.strip_prefix("pub fn "))
            .map(|rest| {
                rest.split([':', '(', '<', ' '])
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
            .or_else(|| {
                line.strip_prefix("pub use ").and_then(|r| {
                    r.trim_end_matches(';')
                        .rsplit("::")
                        .next()
                        .map(str::to_string)
                })
            });
        if let Some(n) = name.filter(|n| !n.is_empty()) {
            out.insert(n);
        }
    }
    out
}

#[test]
fn every_sql_rs_statement_is_answered_over_the_wire() {
    let served = serve_schema(&signal_schema(), Default::default());
    let ran = walk(&served);
    let defined = defined();
    assert!(defined.len() > 40, "sql.rs parsed: {defined:?}");
    let exempt: BTreeSet<String> = NOT_STATEMENTS.iter().map(|(n, _)| n.to_string()).collect();
    let missing: Vec<&String> = defined
        .iter()
        .filter(|n| !ran.contains(*n) && !exempt.contains(*n))
        .collect();
    assert!(
        missing.is_empty(),
        "statements of sql.rs without a served answer in this walk: {missing:?}"
    );
    let unknown: Vec<&String> = ran
        .union(&exempt)
        .filter(|n| !defined.contains(*n))
        .collect();
    assert!(
        unknown.is_empty(),
        "walked names sql.rs no longer defines: {unknown:?}"
    );
}

/// The example schema with a signal table in PDB1 (Debezium's layout).
fn signal_schema() -> std::path::PathBuf {
    let text = std::fs::read_to_string(example_schema()).expect("example schema");
    let signal = "  - name: PDB1.HR.SIGNALS\n    columns:\n      - { name: ID, type: VARCHAR2(64), nullable: false }\n      - { name: TYPE, type: VARCHAR2(32), nullable: false }\n      - { name: DATA, type: VARCHAR2(2048) }\n    primary_key: [ID]\n    rows: 1\n";
    let out = text
        .replacen("tables:\n", &format!("tables:\n{signal}"), 1)
        .replacen(
            "- { name: C##CDC, container_data: all }",
            "- { name: C##CDC, container_data: all, privileges: [all, \"PDB1.HR.SIGNALS:INSERT\"] }",
            1,
        );
    assert_ne!(out, text, "the example schema has a tables: list");
    let dir = std::env::temp_dir().join(format!("oracle-cdc-walk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("schema.yaml");
    std::fs::write(&path, out).expect("write schema");
    path
}
