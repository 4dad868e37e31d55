//! What stored offsets say, in words and numbers: the phase (fresh, snapshotting, streaming, a
//! signal snapshot running), each table's progress, and — when the database is reachable — the
//! lag in SCNs and whether the resume SCN is still in the retained redo logs.

use super::{Offsets, ResumePoint, SignalSnapshot, TableProgress, TableState};
use crate::settings::Settings;
use crate::types::Value;
use cdc_core::model::{DatabaseInfo, LogFile, Scn};
use serde_json::{json, Value as Json};

/// What the database says now.
#[derive(Debug, Clone)]
pub struct Live {
    pub database: DatabaseInfo,
    pub current_scn: Scn,
    pub logs: Vec<LogFile>,
    /// Times of the SCNs asked for (`SCN_TO_TIMESTAMP`), where the database still maps them.
    pub scn_times: std::collections::BTreeMap<Scn, String>,
    /// The database's tables, when it listed them (`offsets edit` refuses names it lacks).
    pub tables: Option<Vec<crate::names::TableName>>,
}

impl Live {
    /// The oldest SCN mining can start from: every redo thread must still have a log at or
    /// before it, so the latest of the threads' oldest first SCNs.
    pub fn oldest_scn(&self) -> Option<Scn> {
        let mut oldest: std::collections::BTreeMap<u32, Scn> = Default::default();
        for l in &self.logs {
            let e = oldest.entry(l.thread).or_insert(l.first_scn);
            *e = (*e).min(l.first_scn);
        }
        oldest.values().copied().max()
    }

    /// Whether mining can start at `scn`: not before the oldest retained log, not after the
    /// current SCN plus one (a resume SCN is "just after the last commit").
    pub fn retains(&self, scn: Scn) -> bool {
        self.oldest_scn().is_some_and(|o| scn >= o) && scn <= self.current_scn.saturating_add(1)
    }
}

/// Whether and how the database was reached.
#[derive(Debug, Clone)]
pub enum Reach {
    /// `cdc.database.url` is not set.
    NotConfigured,
    /// `--offline`.
    Offline,
    /// Connecting or asking failed; the error text (never a secret).
    Unreachable(String),
    Reachable(Box<Live>),
}

impl Reach {
    pub fn live(&self) -> Option<&Live> {
        match self {
            Reach::Reachable(l) => Some(l),
            _ => None,
        }
    }

    /// Why nothing was checked against the database, for warnings.
    pub fn why_not(&self) -> Option<String> {
        match self {
            Reach::NotConfigured => Some("no database configured (cdc.database.url)".into()),
            Reach::Offline => Some("--offline".into()),
            Reach::Unreachable(e) => Some(format!("database not reachable: {e}")),
            Reach::Reachable(_) => None,
        }
    }
}

/// Connect and read the identity, the current SCN, the retained logs and the times of `scns`.
/// Never fails: an error becomes [`Reach::Unreachable`].
pub fn probe(settings: &Settings, scns: &[Scn]) -> Reach {
    if settings.database_url().trim().is_empty() {
        return Reach::NotConfigured;
    }
    let attempt = || -> crate::errors::Result<Live> {
        let connector = crate::source::open(settings)?;
        let mut s = connector.connect()?;
        let database = s.database()?;
        let current_scn = s.current_scn()?;
        let logs = s.logs()?;
        let mut scn_times = std::collections::BTreeMap::new();
        for &scn in scns {
            if let Some(t) = s.scn_to_time(scn)? {
                scn_times.insert(scn, t);
            }
        }
        let tables = s
            .tables()
            .ok()
            .map(|t| t.into_iter().map(|t| t.name).collect());
        Ok(Live {
            database,
            current_scn,
            logs,
            scn_times,
            tables,
        })
    };
    match attempt() {
        Ok(l) => Reach::Reachable(Box::new(l)),
        Err(e) => Reach::Unreachable(e.to_string()),
    }
}

/// The phase the offsets are in, in words: `fresh`, `snapshotting`, `streaming`,
/// `snapshot complete`, followed by `, N signal snapshot(s) running` when there are some.
pub fn phase(o: &Offsets) -> String {
    let snapshotting = o.snapshot.as_ref().is_some_and(|s| !s.completed);
    let mut p = match (snapshotting, &o.stream, &o.snapshot) {
        (true, Some(_), _) => "snapshotting while streaming".to_string(),
        (true, None, _) => "snapshotting".to_string(),
        (false, Some(_), _) => "streaming".to_string(),
        (false, None, Some(_)) => "snapshot complete".to_string(),
        (false, None, None) => "fresh".to_string(),
    };
    match o.signals.len() {
        0 => {}
        1 => p.push_str(", 1 signal snapshot running"),
        n => p.push_str(&format!(", {n} signal snapshots running")),
    }
    p
}

/// A key value as an operator reads it: numbers bare, text quoted, NULL.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Number(n) => n.to_string(),
        Value::Text(t)
        | Value::Date(t)
        | Value::Timestamp(t)
        | Value::TimestampTz(t)
        | Value::IntervalYm(t)
        | Value::IntervalDs(t)
        | Value::Json(t) => format!("'{}'", t.replace('\'', "''")),
        Value::Bytes(b) => format!("HEXTORAW('{}')", crate::types::hex(b)),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// `key (17)`, `key (17, 'EMEA')`, `ROWID AAAR3sAAEAAAACXAAA`.
pub fn resume_text(r: &ResumePoint) -> String {
    match r {
        ResumePoint::Key(values) => format!(
            "key ({})",
            values.iter().map(value_text).collect::<Vec<_>>().join(", ")
        ),
        ResumePoint::Rowid(r) => format!("ROWID {r}"),
    }
}

pub fn state_text(s: TableState) -> &'static str {
    match s {
        TableState::NotStarted => "not started",
        TableState::InProgress => "in progress",
        TableState::Done => "done",
    }
}

/// A table's progress in one line: `in progress: 5 chunks, 25 rows; next chunk at key (26)`.
pub fn progress_text(p: &TableProgress) -> String {
    match p.state {
        TableState::NotStarted => "not started".into(),
        TableState::Done => format!("done: {} chunks, {} rows", p.chunks, p.rows),
        TableState::InProgress => {
            let next = p
                .next
                .as_ref()
                .map(|n| format!("; next chunk at {}", resume_text(n)))
                .unwrap_or_else(|| "; next chunk: the first".into());
            format!("in progress: {} chunks, {} rows{next}", p.chunks, p.rows)
        }
    }
}

/// What is not read yet of a table, for warnings: `none of its rows`, `the rows from key (26)
/// on (25 rows in 5 chunks are read)`; `None` when it is done.
pub fn remaining_text(p: Option<&TableProgress>) -> Option<String> {
    match p {
        None => Some("none of its rows are read yet".into()),
        Some(p) => match (p.state, &p.next) {
            (TableState::Done, _) => None,
            (TableState::NotStarted, _) => Some("none of its rows are read yet".into()),
            (TableState::InProgress, None) if p.chunks == 0 => {
                Some("none of its rows are read yet".into())
            }
            (TableState::InProgress, None) => Some(format!(
                "the rows after the {} read ({} rows) are not read yet",
                plural(p.chunks, "chunk"),
                p.rows
            )),
            (TableState::InProgress, Some(n)) => Some(format!(
                "the rows from {} on are not read yet ({} rows in {} are)",
                resume_text(n),
                p.rows,
                plural(p.chunks, "chunk")
            )),
        },
    }
}

pub fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// A signal snapshot's tables with their progress (tables without progress have not started).
pub fn signal_tables(s: &SignalSnapshot) -> Vec<(String, Option<&TableProgress>)> {
    s.tables
        .iter()
        .map(|t| (t.clone(), s.progress.get(t)))
        .collect()
}

/// The live part of a report: status, current SCN, lag, retained logs.
pub fn live_json(o: Option<&Offsets>, reach: &Reach, mismatch: Option<&str>) -> Json {
    match reach {
        Reach::NotConfigured => json!({"status": "not configured"}),
        Reach::Offline => json!({"status": "offline"}),
        Reach::Unreachable(e) => json!({"status": "unreachable", "error": e}),
        Reach::Reachable(l) => {
            let stream = o.and_then(|o| o.stream.as_ref());
            let mut v = json!({
                "status": if mismatch.is_some() { "other database" } else { "reachable" },
                "database": l.database.name,
                "dbid": l.database.dbid,
                "incarnation": l.database.resetlogs_scn,
                "current_scn": l.current_scn,
                "oldest_retained_scn": l.oldest_scn(),
                "retained_logs": l.logs.len(),
            });
            if let Some(m) = mismatch {
                v["error"] = json!(m);
            } else if let Some(s) = stream {
                v["lag_scns"] = json!(l.current_scn.saturating_sub(s.commit_scn));
                // A database behind its offsets was restored or flashed back.
                v["database_behind_offsets"] = json!(l.current_scn < s.commit_scn);
                v["resume_in_retained_logs"] = json!(l.retains(s.resume_scn));
                v["commit_scn_time"] = json!(l.scn_times.get(&s.commit_scn));
                v["resume_scn_time"] = json!(l.scn_times.get(&s.resume_scn));
            }
            v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::offsets::{DatabaseIdentity, SnapshotState, StreamPosition};

    fn log(thread: u32, first: Scn) -> LogFile {
        LogFile {
            name: format!("{thread}_{first}"),
            thread,
            sequence: first,
            first_scn: first,
            next_scn: None,
            archived: true,
            dbid: None,
            ..LogFile::default()
        }
    }

    #[test]
    fn oldest_scn_is_the_latest_of_the_threads_oldest() {
        let db = cdc_core::model::DatabaseInfo {
            dbid: 1,
            name: "D".into(),
            version: String::new(),
            edition: String::new(),
            cdb: false,
            pdbs: vec![],
            restricted_pdbs: vec![],
            resetlogs_scn: 1,
            role: cdc_core::model::DatabaseRole::Primary,
            open_mode: cdc_core::model::OpenMode::ReadWrite,
            archivelog: true,
            force_logging: false,
            supplemental_min: true,
            supplemental_all: false,
            undo_retention_secs: 900,
            undo_guarantee: false,
        };
        let live = Live {
            database: db,
            current_scn: 500,
            logs: vec![log(1, 100), log(1, 200), log(2, 150), log(2, 300)],
            scn_times: Default::default(),
            tables: None,
        };
        assert_eq!(live.oldest_scn(), Some(150));
        assert!(!live.retains(149));
        assert!(live.retains(150) && live.retains(501));
        assert!(!live.retains(502));
    }

    #[test]
    fn phases() {
        let mut o = Offsets::new(DatabaseIdentity {
            dbid: 1,
            incarnation: 1,
            name: "D".into(),
        });
        assert_eq!(phase(&o), "fresh");
        o.snapshot = Some(SnapshotState {
            order: vec![],
            tables: Default::default(),
            records: 0,
            completed: false,
            skipped: vec![],
            ..Default::default()
        });
        assert_eq!(phase(&o), "snapshotting");
        o.stream = Some(StreamPosition {
            resume_scn: 1,
            commit_scn: 1,
            commit_xids: vec![],
            threads: Default::default(),
        });
        assert_eq!(phase(&o), "snapshotting while streaming");
        if let Some(s) = o.snapshot.as_mut() {
            s.completed = true;
        }
        assert_eq!(phase(&o), "streaming");
        o.signals.push(SignalSnapshot {
            id: "s".into(),
            kind: "incremental".into(),
            tables: vec![],
            paused: false,
            progress: Default::default(),
            ..Default::default()
        });
        assert_eq!(phase(&o), "streaming, 1 signal snapshot running");
        o.stream = None;
        assert_eq!(phase(&o), "snapshot complete, 1 signal snapshot running");
    }

    #[test]
    fn key_values_read_like_sql() {
        let r = ResumePoint::Key(vec![
            Value::Number("17".into()),
            Value::Text("O'Hara".into()),
            Value::Null,
        ]);
        assert_eq!(resume_text(&r), "key (17, 'O''Hara', NULL)");
        assert_eq!(
            resume_text(&ResumePoint::Rowid("AAAR3sAAEAAAACXAAA".into())),
            "ROWID AAAR3sAAEAAAACXAAA"
        );
    }
}
