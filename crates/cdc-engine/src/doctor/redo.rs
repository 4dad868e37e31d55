//! redo.* and supplemental.*: archiving, force logging, archive destinations, online log layout
//! and switch rate, retained logs vs the stored resume position, supplemental logging.

use super::facts::Facts;
use super::{list, Finding};
use crate::names::TableName;
use std::collections::{BTreeMap, BTreeSet};

/// More log switches than this in one hour is a WARN (one every five minutes).
pub const MAX_SWITCHES_PER_HOUR: u64 = 12;
/// What larger logs are sized for: about one switch every 15 minutes.
const TARGET_SWITCHES_PER_HOUR: u64 = 4;
/// Fewer online groups per thread than this is a WARN.
pub const MIN_REDO_GROUPS: usize = 3;

fn not_needed(f: &Facts, found: &str) -> Finding {
    Finding::pass(format!(
        "{found} (not needed: {} does not stream)",
        f.mode()
    ))
}

pub(super) fn archivelog(f: &Facts) -> Finding {
    let db = match &f.db {
        Ok(db) => db,
        Err(e) => return Finding::skip(e.clone()),
    };
    match (db.archivelog, f.streams()) {
        (true, _) => Finding::pass("ARCHIVELOG"),
        (false, false) => not_needed(f, "NOARCHIVELOG"),
        (false, true) => Finding::fail(
            "NOARCHIVELOG: online logs are overwritten and never archived",
            "-- as SYSDBA (SQL*Plus); the database restarts\nSHUTDOWN IMMEDIATE\nSTARTUP MOUNT\nALTER DATABASE ARCHIVELOG;\nALTER DATABASE OPEN;",
        ),
    }
}

pub(super) fn force_logging(f: &Facts) -> Finding {
    let db = match &f.db {
        Ok(db) => db,
        Err(e) => return Finding::skip(e.clone()),
    };
    match (db.force_logging, f.streams()) {
        (true, _) => Finding::pass("FORCE LOGGING is on"),
        (false, false) => not_needed(f, "FORCE LOGGING is off"),
        (false, true) => Finding::warn("FORCE LOGGING is off", "ALTER DATABASE FORCE LOGGING;"),
    }
}

pub(super) fn archive_dest(f: &Facts) -> Finding {
    let db = match &f.db {
        Ok(db) => db,
        Err(e) => return Finding::skip(e.clone()),
    };
    if !f.streams() {
        return not_needed(f, "archive destinations not checked");
    }
    if !db.archivelog {
        return Finding::skip("NOARCHIVELOG: nothing is archived (see redo.archivelog)");
    }
    let dests = match f.config.as_ref().map(|c| c.archive_destinations.as_ref()) {
        Err(e) => return Finding::skip(e.clone()),
        Ok(None) => return Finding::skip(
            "V$ARCHIVE_DEST_STATUS cannot be read (SELECT on SYS.V_$ARCHIVE_DEST_STATUS and SYS.V_$ARCHIVE_DEST, or SELECT_CATALOG_ROLE, lets doctor see it)",
        ),
        Ok(Some(d)) => d,
    };
    let describe = |d: &cdc_core::model::ArchiveDestination| {
        format!("{} → {} ({}, {})", d.name, d.destination, d.status, d.kind)
    };
    let valid: Vec<String> = dests
        .iter()
        .filter(|d| d.is_valid_local())
        .map(describe)
        .collect();
    let broken: Vec<&cdc_core::model::ArchiveDestination> = dests
        .iter()
        .filter(|d| {
            d.kind == "LOCAL"
                && matches!(
                    d.status.as_str(),
                    "ERROR" | "DISABLED" | "BAD PARAM" | "FULL"
                )
        })
        .collect();
    if valid.is_empty() {
        let configured: Vec<String> = dests.iter().map(describe).collect();
        return Finding::fail(
            format!(
                "no VALID LOCAL archive destination (configured: {})",
                if configured.is_empty() {
                    "none".to_string()
                } else {
                    configured.join("; ")
                }
            ),
            "ALTER SYSTEM SET LOG_ARCHIVE_DEST_1='LOCATION=USE_DB_RECOVERY_FILE_DEST' SCOPE=BOTH;\nALTER SYSTEM SET LOG_ARCHIVE_DEST_STATE_1=ENABLE SCOPE=BOTH;",
        );
    }
    if !broken.is_empty() {
        let names: Vec<String> = broken.iter().map(|d| describe(d)).collect();
        let fix: Vec<String> = broken
            .iter()
            .map(|d| {
                format!(
                    "-- repair {} (alert log, free space), or stop archiving there:\nALTER SYSTEM SET LOG_ARCHIVE_DEST_STATE_{}=DEFER SCOPE=BOTH;",
                    d.name, d.dest_id
                )
            })
            .collect();
        return Finding::warn(
            format!("archiving works ({}), but {} fails", valid.join("; "), names.join("; ")),
            fix.join("\n"),
        )
        .because("a failing local destination keeps the archiver retrying; if it is MANDATORY, log switches wait for it and the database stalls");
    }
    let note = if valid.len() > 1 {
        "; each log is mined from the lowest DEST_ID that still has it"
    } else {
        ""
    };
    Finding::pass(format!("{}{note}", valid.join("; ")))
}

fn mb(bytes: u64) -> u64 {
    bytes.div_ceil(1024 * 1024)
}

pub(super) fn log_size(f: &Facts) -> Finding {
    let groups = match f.config.as_ref().map(|c| c.redo_groups.as_ref()) {
        Err(e) => return Finding::skip(e.clone()),
        Ok(None) => {
            return Finding::skip("V$LOG cannot be read (SELECT on SYS.V_$LOG lets doctor see it)")
        }
        Ok(Some(g)) => g,
    };
    let mut threads: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
    for g in groups {
        threads.entry(g.thread).or_default().push(g.bytes);
    }
    let describe = |t: u32, sizes: &[u64]| {
        let min = sizes.iter().copied().min().unwrap_or(0);
        let max = sizes.iter().copied().max().unwrap_or(0);
        let size = if min == max {
            format!("{} MB", mb(min))
        } else {
            format!("{}–{} MB", mb(min), mb(max))
        };
        format!("thread {t}: {} groups of {size}", sizes.len())
    };
    let found: Vec<String> = threads.iter().map(|(t, s)| describe(*t, s)).collect();
    if threads.is_empty() {
        return Finding::skip("V$LOG lists no online redo log groups");
    }
    let few: Vec<(u32, u64)> = threads
        .iter()
        .filter(|(_, s)| s.len() < MIN_REDO_GROUPS)
        .map(|(t, s)| (*t, mb(s.iter().copied().max().unwrap_or(0)).max(1)))
        .collect();
    if few.is_empty() {
        return Finding::pass(found.join("; "));
    }
    if !f.streams() {
        return not_needed(f, &found.join("; "));
    }
    let fix: Vec<String> = few
        .iter()
        .map(|(t, size)| format!("ALTER DATABASE ADD LOGFILE THREAD {t} SIZE {size}M;"))
        .collect();
    Finding::warn(
        format!("{}: fewer than {MIN_REDO_GROUPS} groups", found.join("; ")),
        format!(
            "{}\n-- with Oracle-managed files; otherwise name the member: ADD LOGFILE THREAD n ('/path/redoNN.log') SIZE …",
            fix.join("\n")
        ),
    )
}

pub(super) fn switch_rate(f: &Facts) -> Finding {
    let config = match &f.config {
        Ok(c) => c,
        Err(e) => return Finding::skip(e.clone()),
    };
    let Some(hours) = &config.log_switches else {
        return Finding::skip(
            "V$LOG_HISTORY cannot be read (SELECT on SYS.V_$LOG_HISTORY lets doctor see it)",
        );
    };
    let total: u64 = hours.iter().map(|h| h.switches).sum();
    let Some(peak) = hours
        .iter()
        .max_by_key(|h| (h.switches, std::cmp::Reverse(h.hour.clone())))
    else {
        return Finding::pass("no log switches in the last 24 hours");
    };
    let found = format!(
        "at most {} log switches in one hour (thread {}, {}:00), {total} in the last 24 hours",
        peak.switches, peak.thread, peak.hour
    );
    if peak.switches <= MAX_SWITCHES_PER_HOUR {
        return Finding::pass(found);
    }
    if !f.streams() {
        return not_needed(f, &found);
    }
    let current = config.redo_groups.as_ref().and_then(|g| {
        g.iter()
            .filter(|g| g.thread == peak.thread)
            .map(|g| g.bytes)
            .max()
    });
    let size = match current {
        Some(bytes) => {
            let want = mb(bytes) * peak.switches / TARGET_SWITCHES_PER_HOUR;
            format!("{}M", want.div_ceil(100).max(1) * 100)
        }
        None => "<4 × the current size>".to_string(),
    };
    Finding::warn(
        format!("{found}: more than {MAX_SWITCHES_PER_HOUR} an hour"),
        format!(
            "-- larger online logs, for about {TARGET_SWITCHES_PER_HOUR} switches an hour at this peak: add new groups,\n-- then drop each old group once V$LOG shows it INACTIVE\nALTER DATABASE ADD LOGFILE THREAD {} SIZE {size};\nALTER DATABASE DROP LOGFILE GROUP <old group#>;",
            peak.thread
        ),
    )
}

pub(super) fn retention(f: &Facts) -> Finding {
    if !f.streams() {
        return not_needed(f, "stored resume position not checked");
    }
    let path = f.offsets_path.display();
    let offsets = match &f.offsets {
        Err(e) => return Finding::fail(e.to_string(), e.code().info().remedy),
        Ok(o) => o,
    };
    let oldest = |logs: &[cdc_core::model::LogFile]| {
        logs.iter().map(|l| l.first_scn).min().map(|o| {
            let n = logs.len();
            format!(
                "the oldest retained log starts at SCN {o} ({n} log{})",
                if n == 1 { "" } else { "s" }
            )
        })
    };
    let Some(offsets) = offsets else {
        let tail = match &f.logs {
            Ok(logs) => oldest(logs).map(|o| format!("; {o}")).unwrap_or_default(),
            Err(_) => String::new(),
        };
        return Finding::pass(format!(
            "no stored offsets in {path}: capture starts at the current SCN{tail}"
        ));
    };
    let db = match &f.db {
        Ok(db) => db,
        Err(e) => return Finding::skip(e.clone()),
    };
    if let Err(e) = offsets.check_database(&f.offsets_path, db) {
        return Finding::fail(e.to_string(), e.code().info().remedy);
    }
    let Some(stream) = &offsets.stream else {
        return Finding::pass(format!("the offsets in {path} hold no stream position yet"));
    };
    let (logs, current) = match (&f.logs, &f.current_scn) {
        (Ok(l), Ok(c)) => (l, *c),
        (Err(e), _) | (_, Err(e)) => return Finding::skip(e.clone()),
    };
    let resume = stream.resume_scn;
    let covered = oldest(logs).unwrap_or_else(|| "no log is retained".into());
    // On RAC each thread's logs count on their own (CDC-5203): say what each holds.
    let covered = match per_thread(logs) {
        Some(each) => format!("{covered}: {each}"),
        None => covered,
    };
    // A downstream holds redo only up to what was shipped: mining waits beyond that.
    let limit = f
        .mining
        .as_ref()
        .and_then(|m| m.limit.as_ref().ok().copied().flatten());
    let current = limit.map_or(current, |l| current.min(l));
    // A sequence the downstream never received while it holds later ones: capture waits at
    // it, then stops (cdc.mining.gap.timeout.ms).
    if f.mining.is_some() {
        let gap = cdc_core::threads::shipping_gaps(logs, resume)
            .into_iter()
            .filter(|g| g.received_to + 1 >= resume)
            .min_by_key(|g| g.received_to);
        if let Some(g) = gap {
            return Finding::fail(
                format!(
                    "the stream resumes at SCN {resume}, but the mining database has not received sequence {} of redo thread {} while it holds later ones (a gap in redo transport; {covered}): capture waits at SCN {}, then stops with CDC-5201 after cdc.mining.gap.timeout.ms",
                    g.missing,
                    g.thread,
                    g.received_to + 1
                ),
                crate::errors::Code::Cdc5201.info().remedy,
            );
        }
    }
    if limit.is_some_and(|l| resume > l) && logs.iter().any(|l| l.first_scn <= resume) {
        return Finding::pass(format!(
            "the stream resumes at SCN {resume}; the mining database has redo up to SCN {current} so far ({covered}): capture waits for the next logs"
        ));
    }
    // Every thread's logs from the resume position on (V$THREAD; unknown: not judged).
    let threads = f.threads.as_deref().unwrap_or_default();
    let window =
        crate::source::oracle::logminer::logs_for_window(logs, resume, current.max(resume))
            .and_then(|_| cdc_core::threads::check_thread_logs(threads, logs, resume));
    match window {
        Ok(_) => Finding::pass(format!(
            "the stream resumes at SCN {resume}; {covered}, and the logs from there on are complete"
        )),
        Err(e @ crate::errors::CdcError::ThreadLogsMissing { .. }) if f.mining.is_some() => {
            Finding::fail(
                format!(
                    "the stream resumes at SCN {resume}, but on the mining database {covered}: {e} (capture stops with CDC-5201)"
                ),
                crate::errors::Code::Cdc5201.info().remedy,
            )
        }
        Err(e @ crate::errors::CdcError::ThreadLogsMissing { .. }) => Finding::fail(
            format!("the stream resumes at SCN {resume}, but {covered}: {e}"),
            crate::errors::Code::Cdc5203.info().remedy,
        )
        .because(crate::errors::Code::Cdc5203.info().explanation),
        Err(_) if f.mining.is_some() => Finding::fail(
            format!(
                "the stream resumes at SCN {resume}, but on the mining database {covered}: it lacks redo the offsets need (capture stops with CDC-5201)"
            ),
            crate::errors::Code::Cdc5201.info().remedy,
        ),
        Err(_) => Finding::fail(
            format!("the stream resumes at SCN {resume}, but {covered}: the redo in between is gone"),
            format!(
                "-- in RMAN (rman target /), before capture starts: restore the archived logs from backup\nRESTORE ARCHIVELOG FROM SCN {resume};\nor start over with a new snapshot: move {} away",
                f.settings.state_dir.display()
            ),
        ),
    }
}

/// Each thread's retained logs, when there is more than one thread: "thread 1: sequences 3-7
/// from SCN 1200; thread 2: sequence 1 from SCN 1000".
fn per_thread(logs: &[cdc_core::model::LogFile]) -> Option<String> {
    let mut threads: BTreeMap<u32, Vec<&cdc_core::model::LogFile>> = BTreeMap::new();
    for l in logs {
        threads.entry(l.thread).or_default().push(l);
    }
    if threads.len() < 2 {
        return None;
    }
    let each: Vec<String> = threads
        .iter()
        .map(|(t, ls)| {
            let first = ls.iter().map(|l| l.sequence).min().unwrap_or(0);
            let last = ls.iter().map(|l| l.sequence).max().unwrap_or(0);
            let from = ls.iter().map(|l| l.first_scn).min().unwrap_or(0);
            match first == last {
                true => format!("thread {t}: sequence {first} from SCN {from}"),
                false => format!("thread {t}: sequences {first}-{last} from SCN {from}"),
            }
        })
        .collect();
    Some(each.join("; "))
}

pub(super) fn supplemental_database(f: &Facts) -> Finding {
    let db = match &f.db {
        Ok(db) => db,
        Err(e) => return Finding::skip(e.clone()),
    };
    match (db.supplemental_min, db.supplemental_all, f.streams()) {
        (true, true, _) => {
            Finding::pass("minimal and (ALL) COLUMNS supplemental logging are on database-wide")
        }
        (true, false, _) => Finding::pass("minimal supplemental logging is on"),
        (false, _, false) => not_needed(f, "minimal supplemental logging is off"),
        (false, _, true) => Finding::fail(
            format!(
                "minimal supplemental logging is off: capture stops with {} at the first change",
                crate::errors::Code::Cdc3202
            ),
            if db.cdb {
                "-- in CDB$ROOT\nALTER DATABASE ADD SUPPLEMENTAL LOG DATA;"
            } else {
                "ALTER DATABASE ADD SUPPLEMENTAL LOG DATA;"
            },
        ),
    }
}

pub(super) fn supplemental_table(f: &Facts) -> Finding {
    let db = match &f.db {
        Ok(db) => db,
        Err(e) => return Finding::skip(e.clone()),
    };
    if !f.streams() {
        return not_needed(f, "table-level supplemental logging not checked");
    }
    if db.supplemental_all {
        return Finding::pass("(ALL) COLUMNS supplemental logging is on database-wide");
    }
    if let Err(e) = &f.captured {
        return Finding::skip(e.clone());
    }
    let targets = f.targets();
    // A table is covered by its own log group or by its PDB's ALL COLUMN logging (12.2+,
    // DBA_SUPPLEMENTAL_LOGGING read inside the PDB); a PDB whose level could not be read
    // leaves its tables without a log group unknown, not failed.
    let mut missing: Vec<&TableName> = Vec::new();
    let mut unknown: BTreeMap<&str, (String, Vec<&TableName>)> = BTreeMap::new();
    let mut by_pdb_level: BTreeSet<&str> = BTreeSet::new();
    for t in &targets {
        if t.info.supplemental_all_columns {
            continue;
        }
        let pdb = t.name().pdb.as_deref();
        match (f.pdb_supplemental_in(pdb), pdb) {
            (Ok(Some(s)), Some(p)) if s.all_column => {
                by_pdb_level.insert(p);
            }
            (Err(e), Some(p)) => unknown.entry(p).or_insert((e, Vec::new())).1.push(t.name()),
            _ => missing.push(t.name()),
        }
    }
    if missing.is_empty() && unknown.is_empty() {
        let via: Vec<String> = by_pdb_level
            .iter()
            .map(|p| format!("PDB-level (ALL) COLUMNS logging in {p}"))
            .collect();
        return Finding::pass(if via.is_empty() {
            format!(
                "ALL COLUMNS logging is on for all {} captured tables",
                targets.len()
            )
        } else {
            format!(
                "ALL COLUMNS logging is on for all {} captured tables (table-level, or {})",
                targets.len(),
                via.join(", ")
            )
        });
    }
    let mut by_pdb: BTreeMap<Option<&str>, Vec<&TableName>> = BTreeMap::new();
    for t in missing.iter().chain(unknown.values().flat_map(|(_, l)| l)) {
        by_pdb.entry(t.pdb.as_deref()).or_default().push(t);
    }
    // A PDB of a 12.2+ CDB can log all columns of all its tables itself (f.pdb_supplemental
    // holds the PDBs read where that exists).
    let mut fix = Vec::new();
    for (pdb, tables) in by_pdb {
        let pdb_level = pdb.is_some_and(|p| f.pdb_supplemental.contains_key(p));
        if let Some(p) = pdb {
            fix.push(format!("ALTER SESSION SET CONTAINER = {p};"));
        }
        if pdb_level {
            fix.push("ALTER PLUGGABLE DATABASE ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;".into());
            fix.push("-- or table by table:".into());
        }
        for t in tables {
            fix.push(format!(
                "{}ALTER TABLE {} ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;",
                if pdb_level { "-- " } else { "" },
                t.quoted()
            ));
        }
    }
    fix.push(
        "-- or for every table at once: ALTER DATABASE ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS;"
            .into(),
    );
    let unread: Vec<String> = unknown
        .iter()
        .map(|(p, (e, l))| {
            format!(
                "{} tables of {p}, whose PDB-level logging is unknown ({e})",
                l.len()
            )
        })
        .collect();
    if missing.is_empty() {
        let names: Vec<String> = unknown
            .values()
            .flat_map(|(_, l)| l.iter().map(|t| t.to_string()))
            .collect();
        return Finding::warn(
            format!(
                "no table-level ALL COLUMNS logging on {}: {}",
                unread.join("; "),
                list(&names, 8)
            ),
            fix.join("\n"),
        )
        .on(names);
    }
    let names: Vec<String> = missing.iter().map(|t| t.to_string()).collect();
    let mut found = format!(
        "{} of {} captured tables have no ALL COLUMNS logging (capture stops with {} at an UPDATE that leaves a column out): {}",
        missing.len(),
        targets.len(),
        crate::errors::Code::Cdc3201,
        list(&names, 8)
    );
    if !unread.is_empty() {
        found.push_str(&format!(
            "; no table-level ALL COLUMNS logging on {}",
            unread.join("; ")
        ));
    }
    Finding::fail(found, fix.join("\n")).on(names)
}
