//! Redo logs, open transactions and LogMiner sessions.
//!
//! A mining call adds exactly the logs that cover its SCN window (from [`logs_for_window`],
//! pure and tested), starts LogMiner with the online catalog as dictionary, streams
//! V$LOGMNR_CONTENTS and always ends the LogMiner session, also when the stream fails.
//! In a CDB this must run in CDB$ROOT (see `sql.rs`).

use super::connect::{CallContext, OraCode};
use super::driver::{DbSession, FetchOptions};
use super::fetch::{self, Bind, Cols};
use super::sql;
use super::types_map;
use crate::errors::{CdcError, Result};
use cdc_core::filter::MiningFilter;
use cdc_core::model::{
    dictionary_for, op, Dictionary, DictionaryBuild, LogFile, LogMinerRow, OpenTransaction,
    RedoSource, RedoThread, Scn,
};
use std::collections::{BTreeMap, BTreeSet};

/// Archived logs first (an archive cannot be overwritten under the reader), then the online
/// logs whose sequence has no archive yet; one entry per (thread, sequence), sorted.
pub fn merge_logs(archived: Vec<LogFile>, online: Vec<LogFile>) -> Vec<LogFile> {
    let mut by_seq: BTreeMap<(u32, u64), LogFile> = BTreeMap::new();
    for log in archived.into_iter().chain(online) {
        by_seq.entry((log.thread, log.sequence)).or_insert(log);
    }
    by_seq.into_values().collect()
}

/// The logs LogMiner needs for `start <= SCN <= end`, thread by thread in sequence order.
/// Refuses (ORA-01291's CDC-5004) a window older than the oldest available log, and a window
/// that falls into a gap in a thread's sequences.
pub fn logs_for_window(logs: &[LogFile], start: Scn, end: Scn) -> Result<Vec<LogFile>> {
    let oldest = logs.iter().map(|l| l.first_scn).min().unwrap_or(0);
    if logs.is_empty() || start < oldest {
        return Err(CdcError::MissingLogFile { scn: start, oldest });
    }
    let mut threads: BTreeMap<u32, Vec<&LogFile>> = BTreeMap::new();
    for log in logs {
        threads.entry(log.thread).or_default().push(log);
    }
    let mut chosen = Vec::new();
    for (_, mut thread_logs) in threads {
        thread_logs.sort_by_key(|l| l.sequence);
        let sequences: BTreeSet<u64> = thread_logs.iter().map(|l| l.sequence).collect();
        let selected: Vec<&LogFile> = thread_logs
            .iter()
            .copied()
            .filter(|l| l.first_scn <= end && l.next_scn.is_none_or(|n| n > start))
            .collect();
        let missing = CdcError::MissingLogFile { scn: start, oldest };
        if let Some(first) = selected.first() {
            // The first log starts after the window: the log before it must be there (and so
            // end before the window), unless nothing older of this thread exists at all.
            let has_older = thread_logs.iter().any(|l| l.sequence < first.sequence);
            if first.first_scn > start
                && has_older
                && !sequences.contains(&first.sequence.saturating_sub(1))
            {
                return Err(missing);
            }
        }
        for pair in selected.windows(2) {
            if pair[1].sequence != pair[0].sequence + 1 {
                return Err(missing);
            }
        }
        chosen.extend(selected.into_iter().cloned());
    }
    Ok(chosen)
}

/// [`logs_for_window`], and every redo thread's logs from the window on (`threads`: V$THREAD;
/// empty: not judged, as on a downstream whose own V$THREAD is not the source's): a RAC thread
/// whose older logs are gone while another thread's keep the oldest SCN low is CDC-5203, not
/// a window mined without that instance's changes.
pub fn window_logs(
    logs: &[LogFile],
    threads: &[RedoThread],
    start: Scn,
    end: Scn,
) -> Result<Vec<LogFile>> {
    let chosen = logs_for_window(logs, start, end)?;
    cdc_core::threads::check_thread_logs(threads, logs, start)?;
    Ok(chosen)
}

fn ctx(operation: &'static str, start: Scn, end: Scn, oldest: Option<Scn>) -> CallContext {
    CallContext {
        scn: Some(start),
        end_scn: Some(end),
        oldest_scn: oldest,
        operation,
        ..CallContext::default()
    }
}

/// Online and archived logs still available for mining.
pub fn read_logs(conn: &dyn DbSession) -> Result<Vec<LogFile>> {
    let c = CallContext {
        operation: "reading V$LOG",
        ..CallContext::default()
    };
    let online = fetch::query_all(
        conn,
        sql::ONLINE_LOGS,
        &[],
        FetchOptions::default(),
        &c,
        |r| {
            let current = r.string(5)? == "CURRENT";
            Ok(LogFile {
                name: r.string(0)?,
                thread: r.u32(1)?,
                sequence: r.u64(2)?,
                first_scn: r.u64(3)?,
                // The current log's NEXT_CHANGE# is a "maximum SCN" sentinel, not a real bound.
                next_scn: if current { None } else { r.opt_u64(4)? },
                archived: false,
                dbid: None,
                ..LogFile::default()
            })
        },
    )?;
    Ok(merge_logs(read_archived_logs(conn)?, online))
}

/// The archived logs alone (V$ARCHIVED_LOG, [`sql::ARCHIVED_LOGS`]). On a physical standby they
/// are all the redo LogMiner is given: what the standby receives and applies in real time is in
/// the standby redo log being written, which neither V$LOG nor V$ARCHIVED_LOG lists (its own
/// online logs are not written while it is a standby); see `OracleSession::mining_limit`.
pub fn read_archived_logs(conn: &dyn DbSession) -> Result<Vec<LogFile>> {
    let c = CallContext {
        operation: "reading V$ARCHIVED_LOG",
        ..CallContext::default()
    };
    fetch::query_all(
        conn,
        sql::ARCHIVED_LOGS,
        &[],
        FetchOptions::default(),
        &c,
        |r| {
            Ok(LogFile {
                name: r.string(0)?,
                thread: r.u32(1)?,
                sequence: r.u64(2)?,
                first_scn: r.u64(3)?,
                next_scn: r.opt_u64(4)?,
                archived: true,
                dbid: None,
                ..LogFile::default()
            })
        },
    )
}

/// V$THREAD: every redo thread and the SCN of the last redo LGWR wrote for it.
pub fn read_threads(conn: &dyn DbSession) -> Result<Vec<RedoThread>> {
    let c = CallContext {
        operation: "reading V$THREAD",
        ..CallContext::default()
    };
    fetch::query_all(
        conn,
        sql::REDO_THREADS,
        &[],
        FetchOptions::default(),
        &c,
        |r| {
            Ok(RedoThread {
                thread: r.u32(0)?,
                status: r.string(1)?,
                enabled: r.string(2)?,
                sequence: r.u64(3)?,
                last_redo_scn: r.u64(4)?,
                last_redo_time: r.opt_string(5)?,
                last_redo_sequence: r.opt_u64(6)?,
                last_redo_block: r.opt_u64(7)?,
                enabled_scn: r.opt_u64(8)?,
            })
        },
    )
}

/// The lowest current SCN over the instances (GV$DATABASE).
pub fn lowest_instance_scn(conn: &dyn DbSession) -> Result<Scn> {
    let c = CallContext {
        operation: "reading GV$DATABASE",
        ..CallContext::default()
    };
    fetch::query_one(conn, sql::LOWEST_INSTANCE_SCN, &[], &c, |r| r.u64(0))
}

/// V$STANDBY_LOG.DBID is text: the primary's DBID, or `UNASSIGNED`.
fn standby_dbid(text: Option<String>) -> Option<u64> {
    text.and_then(|t| t.trim().parse().ok())
}

/// The logs a downstream mining database received: its foreign archived logs and its standby
/// redo logs holding redo, each with the DBID (and where known the incarnation) of the
/// database that wrote it, one per (DBID, thread, sequence), archives first.
pub fn read_shipped_logs(conn: &dyn DbSession) -> Result<Vec<LogFile>> {
    let c = CallContext {
        operation: "reading V$FOREIGN_ARCHIVED_LOG",
        ..CallContext::default()
    };
    let foreign = fetch::query_all(
        conn,
        sql::FOREIGN_LOGS,
        &[],
        FetchOptions::default(),
        &c,
        |r| {
            Ok(LogFile {
                name: r.string(0)?,
                thread: r.u32(1)?,
                sequence: r.u64(2)?,
                first_scn: r.u64(3)?,
                next_scn: r.opt_u64(4)?,
                archived: true,
                dbid: r.opt_u64(5)?,
                resetlogs_scn: r.opt_u64(6)?,
                received_to: None,
            })
        },
    )?;
    let c = CallContext {
        operation: "reading V$STANDBY_LOG",
        ..CallContext::default()
    };
    let standby = fetch::query_all(
        conn,
        sql::STANDBY_LOGS,
        &[],
        FetchOptions::default(),
        &c,
        |r| {
            let next = r.opt_u64(4)?;
            Ok(LogFile {
                name: r.string(0)?,
                thread: r.u32(1)?,
                sequence: r.u64(2)?,
                first_scn: r.u64(3)?,
                next_scn: next,
                archived: false,
                dbid: standby_dbid(r.opt_string(6)?),
                resetlogs_scn: None,
                // LAST_CHANGE#: the redo in the log is below it.
                received_to: match next {
                    Some(_) => None,
                    None => r.opt_u64(5)?.map(|l| l.saturating_sub(1)),
                },
            })
        },
    )?;
    let mut by_seq: BTreeMap<(Option<u64>, u32, u64), LogFile> = BTreeMap::new();
    for log in foreign.into_iter().chain(standby) {
        by_seq
            .entry((log.dbid, log.thread, log.sequence))
            .or_insert(log);
    }
    Ok(by_seq.into_values().collect())
}

/// The dictionary builds among a downstream's foreign archived logs of `source`.
pub fn read_shipped_dictionary_builds(
    conn: &dyn DbSession,
    source: Option<RedoSource>,
) -> Result<Vec<DictionaryBuild>> {
    let c = CallContext {
        operation: "reading V$FOREIGN_ARCHIVED_LOG dictionary builds",
        ..CallContext::default()
    };
    let rows = fetch::query_all(
        conn,
        sql::FOREIGN_DICTIONARY_LOGS,
        &[],
        FetchOptions::default(),
        &c,
        |r| {
            let log = LogFile {
                dbid: r.opt_u64(6)?,
                resetlogs_scn: r.opt_u64(7)?,
                ..LogFile::default()
            };
            let row: DictionaryLog = (
                r.u32(0)?,
                r.u64(1)?,
                r.u64(2)?,
                r.opt_u64(3)?,
                r.string(4)? == "YES",
                r.string(5)? == "YES",
            );
            Ok((log, row))
        },
    )?;
    Ok(pair_builds(
        rows.into_iter()
            .filter(|(log, _)| source.is_none_or(|s| s.holds(log)))
            .map(|(_, row)| row)
            .collect(),
    ))
}

/// One row of [`sql::DICTIONARY_LOGS`]: (THREAD#, SEQUENCE#, FIRST_CHANGE#, NEXT_CHANGE#,
/// DICTIONARY_BEGIN = 'YES', DICTIONARY_END = 'YES').
pub type DictionaryLog = (u32, u64, Scn, Option<Scn>, bool, bool);

/// Dictionary builds from the logs marked DICTIONARY_BEGIN/END: each BEGIN pairs with the first
/// END at or after it on its thread (a log archived to several destinations counts once); a
/// BEGIN without its END yet is not whole and left out.
pub fn pair_builds(mut rows: Vec<DictionaryLog>) -> Vec<DictionaryBuild> {
    rows.sort_by_key(|r| (r.0, r.1));
    rows.dedup_by_key(|r| (r.0, r.1));
    let mut out = Vec::new();
    for (i, b) in rows.iter().enumerate().filter(|(_, r)| r.4) {
        let end = rows[i..].iter().find(|r| r.0 == b.0 && r.5);
        if let Some((_, seq, _, Some(next), _, _)) = end {
            out.push(DictionaryBuild {
                thread: b.0,
                begin_sequence: b.1,
                begin_scn: b.2,
                end_sequence: *seq,
                end_next_scn: *next,
            });
        }
    }
    out
}

/// The dictionary builds the database's archived logs hold.
pub fn read_dictionary_builds(conn: &dyn DbSession) -> Result<Vec<DictionaryBuild>> {
    let c = CallContext {
        operation: "reading V$ARCHIVED_LOG dictionary builds",
        ..CallContext::default()
    };
    let rows = fetch::query_all(
        conn,
        sql::DICTIONARY_LOGS,
        &[],
        FetchOptions::default(),
        &c,
        |r| {
            Ok((
                r.u32(0)?,
                r.u64(1)?,
                r.u64(2)?,
                r.opt_u64(3)?,
                r.string(4)? == "YES",
                r.string(5)? == "YES",
            ))
        },
    )?;
    Ok(pair_builds(rows))
}

/// Transactions open now on any instance, oldest first.
pub fn open_transactions(conn: &dyn DbSession) -> Result<Vec<OpenTransaction>> {
    let c = CallContext {
        operation: "reading V$TRANSACTION",
        ..CallContext::default()
    };
    let mut out = fetch::query_all(
        conn,
        sql::OPEN_TRANSACTIONS,
        &[],
        FetchOptions::default(),
        &c,
        |r| {
            Ok(OpenTransaction {
                xid: types_map::xid_hex(r.u32(0)?, r.u32(1)?, r.u32(2)?),
                start_scn: types_map::scn_from_parts(r.u64(4)?, r.u64(3)?),
                thread: r.u32(5)?,
            })
        },
    )?;
    out.sort_by_key(|t| t.start_scn);
    Ok(out)
}

/// One V$LOGMNR_CONTENTS row, columns in `sql::LOGMNR_CONTENTS` order.
fn contents_row(r: &Cols) -> Result<LogMinerRow> {
    let scn = r.u64(0)?;
    let operation_code = r.u32(9)?;
    let (usn, slt, sqn) = (r.u32(6)?, r.u32(7)?, r.u32(8)?);
    let xid = match r.opt_bytes(5)? {
        Some(raw) if raw.len() == 8 => crate::types::hex(&raw),
        _ => types_map::xid_hex(usn, slt, sqn),
    };
    // COMMIT_SCN is documented for COMMITTED_DATA_ONLY only; a COMMIT row's own SCN is the
    // commit SCN either way.
    let commit_scn = match r.opt_u64(1)? {
        Some(c) => Some(c),
        None if operation_code == op::COMMIT => Some(scn),
        None => None,
    };
    Ok(LogMinerRow {
        scn,
        commit_scn,
        start_scn: r.opt_u64(2)?,
        timestamp: r.string(3)?,
        commit_timestamp: r.opt_string(4)?,
        xid,
        xidusn: usn,
        xidslt: slt,
        xidsqn: sqn,
        operation_code,
        operation: r.string(10)?,
        seg_owner: r.opt_string(11)?,
        table_name: r.opt_string(12)?,
        row_id: r.string(13)?,
        sql_redo: r.string(14)?,
        csf: u8::from(r.u64(15)? != 0),
        rollback: u8::from(r.u64(16)? != 0),
        rs_id: r.string(17)?,
        ssn: r.u64(18)?,
        thread: r.u32(19)?,
        sequence: r.u64(20)?,
        status: i32::try_from(r.opt_i64(21)?.unwrap_or(0)).unwrap_or(i32::MAX),
        info: r.opt_string(22)?,
        src_con_name: r.string(23)?,
        username: r.string(24)?,
        data_obj: r.u64(25)?,
    })
}

/// How a session mines: its LogMiner dictionary, whether it is inside a PDB (per-PDB
/// mining, 19c+: no log is added, START_LOGMNR finds them by SCN), and on a downstream mining
/// database whose redo (its dictionary builds are among the foreign archived logs of it).
#[derive(Debug, Clone, Copy)]
pub struct How {
    pub dictionary: Dictionary,
    pub in_pdb: bool,
    pub shipped_from: Option<RedoSource>,
    /// A downstream mining database (the logs are the ones it received).
    pub downstream: bool,
}

/// Add the logs, start LogMiner, stream the window, end LogMiner. With the dictionary in the
/// redo the logs run from the newest build whole before the window (LogMiner reads from it).
pub fn mine(
    conn: &dyn DbSession,
    (logs, threads): (&[LogFile], &[RedoThread]),
    how: How,
    (start, end): (Scn, Scn),
    filter: &MiningFilter,
    row: &mut dyn FnMut(LogMinerRow) -> Result<()>,
) -> Result<()> {
    if start > end {
        return Err(CdcError::InvalidScnRange { start, end });
    }
    let oldest = logs.iter().map(|l| l.first_scn).min();
    // The window's own logs first: a missing one is ORA-01291 whatever the dictionary, a
    // thread without its logs CDC-5203.
    window_logs(logs, threads, start, end)?;
    let How {
        dictionary,
        in_pdb,
        shipped_from,
        downstream,
    } = how;
    let (from, start_statement) = match dictionary {
        Dictionary::OnlineCatalog => (start, sql::START_LOGMNR),
        Dictionary::RedoLogs => {
            let builds = match downstream {
                true => read_shipped_dictionary_builds(conn, shipped_from)?,
                false => read_dictionary_builds(conn)?,
            };
            let Some(b) = dictionary_for(&builds, start) else {
                return Err(CdcError::NoDictionaryInRedo {
                    mining: "the mining database".into(),
                    scn: start,
                    builds: builds.iter().map(|b| b.end_next_scn).collect(),
                });
            };
            (b.begin_scn.min(start), sql::START_LOGMNR_REDO_DICTIONARY)
        }
    };
    let chosen = window_logs(logs, threads, from, end)?;
    let add = ctx("LogMiner ADD_LOGFILE", start, end, oldest);
    for (i, log) in chosen.iter().enumerate().filter(|_| !in_pdb) {
        let statement = if i == 0 {
            sql::ADD_FIRST_LOGFILE
        } else {
            sql::ADD_LOGFILE
        };
        conn.execute(statement, &[("logfilename", Bind::Text(log.name.clone()))])
            .map_err(|e| e.runtime(&add))?;
    }
    tracing::debug!(start, end, logs = chosen.len(), "LogMiner session starting");
    let result = stream(conn, start_statement, start, end, oldest, filter, row);
    // Always end the session: it holds PGA memory and the log list until then. One already
    // gone (ORA-01307: no LogMiner session is currently active) is ended (as Debezium does).
    let ended = match conn.execute(sql::END_LOGMNR, &[]) {
        Err(e) if e.code == Some(OraCode::Ora(1307)) => Ok(()),
        other => other.map_err(|e| e.runtime(&ctx("LogMiner END_LOGMNR", start, end, oldest))),
    };
    match (result, ended) {
        (Err(e), _) => Err(e),
        // ORA-01307 from END_LOGMNR: the session is closed already, nothing is left to end
        // (Debezium's LogMinerSessionContext takes it the same way); the window was read whole.
        (Ok(()), Err(CdcError::NoLogMinerSession(m))) => {
            tracing::debug!("END_LOGMNR: {m}");
            Ok(())
        }
        (Ok(()), Err(e)) => Err(e),
        (Ok(()), Ok(())) => Ok(()),
    }
}

fn stream(
    conn: &dyn DbSession,
    start_statement: &str,
    start: Scn,
    end: Scn,
    oldest: Option<Scn>,
    filter: &MiningFilter,
    row: &mut dyn FnMut(LogMinerRow) -> Result<()>,
) -> Result<()> {
    let binds = [
        ("startscn", Bind::Number(start.to_string())),
        ("endscn", Bind::Number(end.to_string())),
    ];
    let started = ctx("LogMiner START_LOGMNR", start, end, oldest);
    conn.execute(start_statement, &binds)
        .map_err(|err| err.runtime(&started))?;
    let read = ctx("reading V$LOGMNR_CONTENTS", start, end, oldest);
    let contents = sql::logmnr_contents(filter, start, end);
    let values = contents
        .binds
        .iter()
        .map(|(name, v)| Ok((name.as_str(), Bind::from_value(v)?)))
        .collect::<std::result::Result<Vec<_>, String>>()
        .map_err(|e| CdcError::Database(format!("V$LOGMNR_CONTENTS binds: {e}")))?;
    let rows = conn
        .query(&contents.text, &values, FetchOptions::rows(1000))
        .map_err(|err| err.runtime(&read))?;
    for r in rows {
        let r = r.map_err(|err| err.runtime(&read))?;
        row(contents_row(&Cols {
            row: &r,
            ctx: &read,
        })?)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(thread: u32, sequence: u64, first: Scn, next: Option<Scn>, archived: bool) -> LogFile {
        LogFile {
            name: format!(
                "/redo/t{thread}_{sequence}{}",
                if archived { ".arc" } else { ".log" }
            ),
            thread,
            sequence,
            first_scn: first,
            next_scn: next,
            archived,
            dbid: None,
            ..LogFile::default()
        }
    }

    #[test]
    fn a_rac_thread_whose_older_logs_are_gone_is_cdc_5203_not_a_silent_gap() {
        // Thread 1 (busy) switched logs and its sequences 1..=2 were deleted; thread 2 (idle)
        // still has its first log from SCN 100, so the list's oldest SCN is low.
        let logs = vec![
            log(1, 3, 500, Some(700), true),
            log(1, 4, 700, None, false),
            log(2, 1, 100, None, false),
        ];
        let thread = |n: u32| RedoThread {
            thread: n,
            status: "OPEN".into(),
            enabled: "PUBLIC".into(),
            sequence: 1,
            last_redo_scn: 800,
            enabled_scn: Some(100),
            ..RedoThread::default()
        };
        let threads = [thread(1), thread(2)];
        // The log list alone takes thread 1's logs from 500 for a window from 300: thread 1's
        // changes from 300 to 499 would be skipped without a word.
        let chosen = logs_for_window(&logs, 300, 750).unwrap();
        assert_eq!(chosen.len(), 3);
        let e = window_logs(&logs, &threads, 300, 750).unwrap_err();
        assert_eq!(e.code(), crate::errors::Code::Cdc5203, "{e}");
        assert!(e.to_string().contains("redo thread 1"), "{e}");
        // From 500 on every thread's logs are there.
        assert_eq!(window_logs(&logs, &threads, 500, 750).unwrap().len(), 3);
    }

    #[test]
    fn merge_prefers_archives_and_sorts() {
        let merged = merge_logs(
            vec![
                log(1, 10, 100, Some(200), true),
                log(1, 10, 100, Some(200), true),
            ],
            vec![
                log(1, 11, 200, None, false),
                log(1, 10, 100, Some(200), false),
                log(2, 5, 150, None, false),
            ],
        );
        let keys: Vec<(u32, u64, bool)> = merged
            .iter()
            .map(|l| (l.thread, l.sequence, l.archived))
            .collect();
        assert_eq!(keys, [(1, 10, true), (1, 11, false), (2, 5, false)]);
    }

    #[test]
    fn window_takes_overlapping_logs_per_thread() {
        let logs = vec![
            log(1, 9, 50, Some(100), true),
            log(1, 10, 100, Some(200), true),
            log(1, 11, 200, Some(300), true),
            log(1, 12, 300, None, false),
            log(2, 4, 60, Some(250), true),
            log(2, 5, 250, None, false),
        ];
        let chosen = logs_for_window(&logs, 150, 250).unwrap();
        let keys: Vec<(u32, u64)> = chosen.iter().map(|l| (l.thread, l.sequence)).collect();
        assert_eq!(keys, [(1, 10), (1, 11), (2, 4), (2, 5)]);
        // NEXT_CHANGE# is exclusive: a log ending at 200 does not hold SCN 200.
        let at_boundary = logs_for_window(&logs, 200, 200).unwrap();
        let keys: Vec<(u32, u64)> = at_boundary.iter().map(|l| (l.thread, l.sequence)).collect();
        assert_eq!(keys, [(1, 11), (2, 4)]);
        let current = logs_for_window(&logs, 400, 500).unwrap();
        let keys: Vec<(u32, u64)> = current.iter().map(|l| (l.thread, l.sequence)).collect();
        assert_eq!(keys, [(1, 12), (2, 5)]);
    }

    #[test]
    fn window_refuses_missing_redo() {
        let logs = vec![
            log(1, 10, 100, Some(200), true),
            log(1, 12, 300, None, false),
        ];
        match logs_for_window(&logs, 50, 150) {
            Err(CdcError::MissingLogFile { scn, oldest }) => assert_eq!((scn, oldest), (50, 100)),
            other => panic!("{other:?}"),
        }
        // Sequence 11 (SCN 200..300) is gone.
        assert!(matches!(
            logs_for_window(&logs, 150, 350),
            Err(CdcError::MissingLogFile { .. })
        ));
        assert!(matches!(
            logs_for_window(&logs, 250, 350),
            Err(CdcError::MissingLogFile { .. })
        ));
        assert!(matches!(
            logs_for_window(&[], 1, 2),
            Err(CdcError::MissingLogFile { .. })
        ));
        assert!(logs_for_window(&logs, 120, 180).is_ok());
    }

    #[test]
    fn dictionary_builds_pair_begin_and_end_logs_and_the_newest_whole_one_is_used() {
        let rows = vec![
            // Thread 1: a build over sequences 5..6, archived twice (two destinations).
            (1, 5, 500, Some(600), true, false),
            (1, 6, 600, Some(700), false, true),
            (1, 5, 500, Some(600), true, false),
            // A build in one log (sequence 9).
            (1, 9, 900, Some(1000), true, true),
            // A build begun in sequence 12 whose end is not archived yet.
            (1, 12, 1200, Some(1300), true, false),
        ];
        let builds = pair_builds(rows);
        let spans: Vec<_> = builds
            .iter()
            .map(|b| {
                (
                    b.begin_sequence,
                    b.begin_scn,
                    b.end_sequence,
                    b.end_next_scn,
                )
            })
            .collect();
        assert_eq!(spans, vec![(5, 500, 6, 700), (9, 900, 9, 1000)]);
        // The end log must be over before the window starts.
        assert!(dictionary_for(&builds, 699).is_none());
        assert_eq!(dictionary_for(&builds, 700).map(|b| b.begin_scn), Some(500));
        assert_eq!(dictionary_for(&builds, 999).map(|b| b.begin_scn), Some(500));
        assert_eq!(
            dictionary_for(&builds, 5000).map(|b| b.begin_scn),
            Some(900)
        );
    }
}
