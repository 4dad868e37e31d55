//! Hand-built offsets of every phase, for the tests.

use super::inspect::Live;
use super::*;
use cdc_core::model::{DatabaseInfo, DatabaseRole, LogFile, OpenMode};
use cdc_core::types::ToCompactString;

pub const XID_A: &str = "0a001b00c3010000";
pub const XID_B: &str = "0b000200d4020000";

pub fn identity() -> DatabaseIdentity {
    DatabaseIdentity {
        dbid: 4242,
        incarnation: 1000000,
        name: "SHOP".into(),
    }
}

pub fn settings() -> crate::settings::Settings {
    crate::settings::Settings::from_pairs(&["cdc.tables.include=SALES.*"]).unwrap()
}

pub fn key(n: i64) -> Option<ResumePoint> {
    Some(ResumePoint::Key(vec![Value::Number(n.to_compact_string())]))
}

/// Capture started, nothing read or streamed yet.
pub fn fresh() -> Offsets {
    Offsets::new(identity())
}

/// The initial snapshot half way: ORDERS in progress (next key 6), EVENTS not started.
pub fn mid_snapshot() -> Offsets {
    let mut o = fresh();
    o.snapshot = Some(SnapshotState {
        order: vec!["SALES.ORDERS".into(), "SALES.EVENTS".into()],
        tables: BTreeMap::from([
            (
                "SALES.ORDERS".to_string(),
                TableProgress {
                    state: TableState::InProgress,
                    next: key(6),
                    chunks: 1,
                    rows: 5,
                    chunk_scns: vec![1000021],
                    ..TableProgress::new("key")
                },
            ),
            ("SALES.EVENTS".to_string(), TableProgress::new("rowid")),
        ]),
        records: 5,
        completed: false,
        skipped: vec![],
        ..Default::default()
    });
    o.stream = Some(StreamPosition {
        resume_scn: 1000021,
        commit_scn: 1000020,
        commit_xids: vec![],
        threads: BTreeMap::new(),
    });
    o
}

/// Snapshot done; streaming at commit SCN 1000120 with XID_A published there.
pub fn streaming() -> Offsets {
    let mut o = fresh();
    let done = |strategy: &str, rows: u64| TableProgress {
        state: TableState::Done,
        chunks: 1,
        rows,
        chunk_scns: vec![1000021],
        ..TableProgress::new(strategy)
    };
    o.snapshot = Some(SnapshotState {
        order: vec!["SALES.ORDERS".into(), "SALES.EVENTS".into()],
        tables: BTreeMap::from([
            ("SALES.ORDERS".to_string(), done("key", 12)),
            ("SALES.EVENTS".to_string(), done("rowid", 4)),
        ]),
        records: 16,
        completed: true,
        skipped: vec![],
        ..Default::default()
    });
    o.stream = Some(StreamPosition {
        resume_scn: 1000090,
        commit_scn: 1000120,
        commit_xids: vec![XID_A.into()],
        threads: BTreeMap::from([(1, 1000120)]),
    });
    o.sink = Some(SinkPosition::File {
        segment: "00000001.jsonl".into(),
        bytes: 40960,
        records: 96,
    });
    o.schema_history = Some(SchemaHistoryPosition { entries: 2 });
    o
}

/// Streaming, with an incremental signal snapshot of ORDERS (in progress) and EVENTS (not
/// started).
pub fn mid_signal() -> Offsets {
    let mut o = streaming();
    o.signals.push(SignalSnapshot {
        id: "sig-1".into(),
        kind: "incremental".into(),
        tables: vec!["SALES.ORDERS".into(), "SALES.EVENTS".into()],
        paused: false,
        progress: BTreeMap::from([(
            "SALES.ORDERS".to_string(),
            TableProgress {
                state: TableState::InProgress,
                next: key(9),
                chunks: 2,
                rows: 8,
                chunk_scns: vec![1000130, 1000131],
                ..TableProgress::new("key")
            },
        )]),
        ..Default::default()
    });
    o
}

/// The database of [`identity`] at `current` SCN, its one redo thread's logs from `oldest`.
pub fn live(current: Scn, oldest: Scn) -> Live {
    Live {
        database: DatabaseInfo {
            dbid: 4242,
            name: "SHOP".into(),
            version: "19.22.0.0.0".into(),
            edition: String::new(),
            cdb: false,
            pdbs: vec![],
            restricted_pdbs: vec![],
            resetlogs_scn: 1000000,
            role: DatabaseRole::Primary,
            open_mode: OpenMode::ReadWrite,
            archivelog: true,
            force_logging: false,
            supplemental_min: true,
            supplemental_all: false,
            undo_retention_secs: 900,
            undo_guarantee: false,
        },
        current_scn: current,
        logs: vec![LogFile {
            name: "1_7.arc".into(),
            thread: 1,
            sequence: 7,
            first_scn: oldest,
            next_scn: None,
            archived: false,
            dbid: None,
            ..LogFile::default()
        }],
        scn_times: Default::default(),
        tables: None,
    }
}
