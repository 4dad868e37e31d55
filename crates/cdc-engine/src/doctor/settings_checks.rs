//! settings.*: what the settings validation cannot see alone, because it needs the database
//! or the stored offsets: the mode vs the offsets, threads vs free sessions, per-table settings
//! that name nothing. Memory of pending chunks (settings.memory) is judged in
//! [`super::sizing`], with the other sizes.

use super::facts::Facts;
use super::Finding;
use crate::names::TableName;
use crate::settings::SnapshotMode;
use cdc_core::model::{ResourceUse, SessionsPerUser, TableInfo};

pub(super) fn mode(f: &Facts) -> Finding {
    let offsets = match &f.offsets {
        Ok(o) => o,
        Err(e) => return Finding::skip(format!("the stored offsets cannot be read: {e}")),
    };
    let stored = match offsets {
        None => "no stored offsets".to_string(),
        Some(o) => {
            let mut parts = Vec::new();
            match &o.snapshot {
                Some(s) if s.completed => parts.push("a finished snapshot".to_string()),
                Some(_) => {
                    parts.push("an unfinished snapshot (it resumes in every mode)".to_string())
                }
                None => {}
            }
            if let Some(s) = &o.stream {
                parts.push(format!("a stream position at SCN {}", s.resume_scn));
            }
            if parts.is_empty() {
                "offsets without snapshot or stream progress".to_string()
            } else {
                format!("offsets with {}", parts.join(" and "))
            }
        }
    };
    let found = format!("{}; {stored} in {}", f.mode(), f.offsets_path.display());
    let streamed = offsets.as_ref().is_some_and(|o| o.stream.is_some());
    if f.settings.snapshot.mode == SnapshotMode::SnapshotOnly && streamed {
        return Finding::warn(
            format!("{found}: snapshot_only never streams, so the stored stream position falls behind until its redo is gone"),
            format!(
                "cdc.snapshot.mode: initial  # keeps streaming from the stored position; or, if streaming is over, move {} away",
                f.settings.state_dir.display()
            ),
        );
    }
    Finding::pass(found)
}

/// Sessions one capture holds at most: every snapshot reader, the snapshot's coordinating
/// session (it plans the chunks) and the one that takes each next wave's SCN, and the mining
/// session (the session that read the catalog goes on as it, in every mode:
/// capture/session_tests.rs).
/// A signal snapshot (or one of a table created while capture runs) holds the snapshot's
/// sessions in every `cdc.snapshot.mode`, `none` too.
pub fn sessions_needed(f: &Facts) -> u64 {
    u64::from(f.settings.snapshot.threads) + 3
}

pub(super) fn sessions(f: &Facts) -> Finding {
    let config = match &f.config {
        Ok(c) => c,
        Err(e) => return Finding::skip(e.clone()),
    };
    let needed = sessions_needed(f);
    let threads = f.settings.snapshot.threads;
    let describe = |what: &str, r: &ResourceUse| match r.limit {
        Some(l) => format!("{} of {l} {what} free", l.saturating_sub(r.current)),
        None => format!("{what} unlimited"),
    };
    let mut known = Vec::new();
    let mut short = Vec::new();
    // The fewest sessions left to this job by any limit.
    let mut room: Option<u64> = None;
    for (what, param, r) in [
        ("sessions", "SESSIONS", config.sessions),
        ("processes", "PROCESSES", config.processes),
    ] {
        let Some(r) = r else { continue };
        known.push(describe(what, &r));
        if let (Some(free), Some(limit)) = (r.free(), r.limit) {
            room = Some(room.map_or(free, |x| x.min(free)));
            if needed > free {
                short.push(format!(
                    "ALTER SYSTEM SET {param} = {} SCOPE=SPFILE;  -- takes effect at the next restart",
                    limit + needed - free + needed
                ));
            }
        }
    }
    let user = f.grantee();
    if let Some(per_user) = config.sessions_per_user {
        let enforced = config.resource_limit != Some(false);
        match per_user {
            SessionsPerUser::Unlimited => known.push("SESSIONS_PER_USER unlimited".into()),
            SessionsPerUser::Limit(n) if !enforced => known.push(format!(
                "SESSIONS_PER_USER {n} (not enforced: RESOURCE_LIMIT is FALSE)"
            )),
            SessionsPerUser::Limit(n) => {
                // Other sessions of the same user (another capture, a tool) count too; doctor
                // cannot see them without V$SESSION.
                known.push(format!(
                    "SESSIONS_PER_USER {n} for {user} (its other sessions count too)"
                ));
                room = Some(room.map_or(n, |x| x.min(n)));
                if needed > n {
                    short.push(profile_fix(&user, needed + needed.div_ceil(2)));
                }
            }
        }
    }
    const UNREAD: &str = "V$RESOURCE_LIMIT cannot be read (it needs SELECT on SYS.V_$RESOURCE_LIMIT and answers only in CDB$ROOT or a non-CDB)";
    if known.is_empty() {
        return Finding::skip(format!("{UNREAD}, nor USER_RESOURCE_LIMITS"));
    }
    let instance_unknown = config.sessions.is_none() && config.processes.is_none();
    let found = format!(
        "capture needs up to {needed} sessions ({threads} snapshot readers, cdc.snapshot.threads={threads}, plus the snapshot's coordinator and SCN session, and mining, which the catalog's session goes on as; a signal snapshot holds them in every cdc.snapshot.mode); {}",
        known.join(", ")
    );
    if short.is_empty() {
        // What was read fits; SESSIONS and PROCESSES are still unchecked.
        if instance_unknown {
            return Finding::skip(format!("{found}; {UNREAD}"));
        }
        return Finding::pass(found);
    }
    // A snapshot makes do with the sessions the database lets in (read/room.rs): it gives up
    // the SCN session, then readers, down to one beside its coordinating session. Capture
    // holds the mining session beside it (the catalog's session goes on as it, streaming or
    // not: snapshot_only opens the miner too).
    let fixed = 2;
    let readers = room
        .unwrap_or(0)
        .saturating_sub(fixed)
        .min(u64::from(threads));
    if readers >= 1 {
        // Threads with which every session fits, the SCN session too.
        let all_fit = room.unwrap_or(0).saturating_sub(fixed + 1);
        let mut fix = vec![match all_fit {
            0 => "cdc.snapshot.threads: 1  -- the most that fits (without the SCN session)"
                .to_string(),
            n => format!("cdc.snapshot.threads: {n}  -- every session fits, the SCN session too"),
        }];
        fix.push("-- or make room:".into());
        fix.extend(short);
        return Finding::warn(
            format!(
                "{found}: not all of them fit; a snapshot makes do with fewer (the logins the database refuses are CDC-2011: the SCN session is given up first, then readers), about {readers} of {threads} readers"
            ),
            fix.join("\n"),
        );
    }
    // Room for the mining session alone: streaming runs, a snapshot cannot.
    if !f.snapshots() && room.unwrap_or(0) >= 1 {
        return Finding::warn(
            format!("{found}: streaming fits, a snapshot does not: a signal snapshot would end signal-failed (CDC-2011)"),
            short.join("\n"),
        );
    }
    Finding::fail(format!("{found}: not enough"), short.join("\n"))
}

/// A profile that lets `user` hold `sessions` at once. A common user (`C##…`) of a CDB needs
/// a common profile, made in CDB$ROOT with a common name (ORA-65140 otherwise) and given in
/// every container.
fn profile_fix(user: &str, sessions: u64) -> String {
    if user.to_ascii_uppercase().starts_with("C##") {
        format!(
            "CREATE PROFILE C##CDC_PROFILE LIMIT SESSIONS_PER_USER {sessions} CONTAINER=ALL;  -- in CDB$ROOT; or ALTER PROFILE on {user}'s profile\nALTER USER {user} PROFILE C##CDC_PROFILE CONTAINER=ALL;"
        )
    } else {
        format!(
            "CREATE PROFILE cdc_profile LIMIT SESSIONS_PER_USER {sessions};  -- or ALTER PROFILE on {user}'s profile\nALTER USER {user} PROFILE cdc_profile;"
        )
    }
}

/// The capture user's per-call limits (USER_RESOURCE_LIMITS): WARN while one is enforced, as
/// mining windows and chunks then pass it on a busy database (CDC-5017) and capture reads
/// less at a time.
pub(super) fn call_limits(f: &Facts) -> Finding {
    let config = match &f.config {
        Ok(c) => c,
        Err(e) => return Finding::skip(e.clone()),
    };
    let Some(limits) = config.call_limits else {
        return Finding::skip(
            "USER_RESOURCE_LIMITS cannot be read, or does not give CPU_PER_CALL and LOGICAL_READS_PER_CALL as numbers or UNLIMITED",
        );
    };
    let user = f.grantee();
    let set: Vec<String> = [
        (
            "CPU_PER_CALL",
            limits.cpu_per_call,
            "hundredths of a second",
        ),
        (
            "LOGICAL_READS_PER_CALL",
            limits.logical_reads_per_call,
            "blocks",
        ),
    ]
    .into_iter()
    .filter_map(|(name, limit, unit)| limit.map(|n| format!("{name} {n} ({unit})")))
    .collect();
    if set.is_empty() {
        return Finding::pass(format!(
            "CPU_PER_CALL and LOGICAL_READS_PER_CALL unlimited for {user}"
        ));
    }
    if config.resource_limit == Some(false) {
        return Finding::pass(format!(
            "{} for {user} (not enforced: RESOURCE_LIMIT is FALSE)",
            set.join(", ")
        ));
    }
    let profile = match user.to_ascii_uppercase().starts_with("C##") {
        true => format!("CREATE PROFILE C##CDC_CALLS LIMIT CPU_PER_CALL UNLIMITED LOGICAL_READS_PER_CALL UNLIMITED CONTAINER=ALL;  -- in CDB$ROOT; or ALTER PROFILE on {user}'s profile\nALTER USER {user} PROFILE C##CDC_CALLS CONTAINER=ALL;"),
        false => format!("CREATE PROFILE cdc_calls LIMIT CPU_PER_CALL UNLIMITED LOGICAL_READS_PER_CALL UNLIMITED;  -- or ALTER PROFILE on {user}'s profile\nALTER USER {user} PROFILE cdc_calls;"),
    };
    Finding::warn(
        format!(
            "{} for {user}: a mining window or snapshot chunk whose fetch uses more is ended (ORA-02393 / ORA-02395, CDC-5017), and capture reads less at a time: smaller windows and chunks, slower, stopping where one SCN or 1,000 rows still pass it (LogMiner reads every schema's redo, so a busy schema outside capture counts too)",
            set.join(", ")
        ),
        profile,
    )
}

/// `pattern` names `table`: the same name, or a two-part name of the same owner and table.
fn names(pattern: &TableName, table: &TableName) -> bool {
    pattern == table
        || (pattern.pdb.is_none() && pattern.owner == table.owner && pattern.table == table.table)
}

pub(super) fn references(f: &Facts) -> Finding {
    let all = match &f.tables {
        Ok(t) => t,
        Err(e) => return Finding::skip(e.clone()),
    };
    let s = &f.settings;
    let captured: Vec<&TableInfo> = all.iter().filter(|t| s.is_captured(&t.name)).collect();
    let find = |p: &TableName| captured.iter().copied().find(|t| names(p, &t.name));
    let (mut warn, mut fail, mut fixes) = (Vec::new(), Vec::new(), Vec::new());
    // The settings keys at fault, each once.
    let mut objects: Vec<String> = Vec::new();
    let mut on = |key: String| {
        if !objects.contains(&key) {
            objects.push(key);
        }
    };
    let mut count = 0;
    for (table, cols) in &s.keys {
        count += 1;
        match find(table) {
            None => {
                warn.push(format!("cdc.key.{table} names no captured table"));
                on(format!("cdc.key.{table}"));
                fixes.push(format!("remove cdc.key.{table}, or capture the table"));
            }
            Some(t) => {
                for c in cols.iter().filter(|c| t.column(c).is_none()) {
                    fail.push(format!(
                        "cdc.key.{table} names column {c}, which {} does not have: the snapshot refuses to start (CDC-1002)",
                        t.name
                    ));
                    on(format!("cdc.key.{table}"));
                    let have: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
                    fixes.push(format!(
                        "cdc.key.{table}: <columns of {}: {}>",
                        t.name,
                        have.join(", ")
                    ));
                }
            }
        }
    }
    for table in s.snapshot.select_overrides.keys() {
        count += 1;
        if find(table).is_none() {
            warn.push(format!(
                "cdc.snapshot.select.override.{table} names no captured table"
            ));
            on(format!("cdc.snapshot.select.override.{table}"));
            fixes.push(format!("remove cdc.snapshot.select.override.{table}"));
        }
    }
    for table in &s.snapshot.tables_order {
        count += 1;
        if find(table).is_none() {
            warn.push(format!(
                "cdc.snapshot.tables.order lists {table}, which is not captured"
            ));
            on("cdc.snapshot.tables.order".to_string());
            fixes.push(format!("remove {table} from cdc.snapshot.tables.order"));
        }
    }
    for c in &s.columns_exclude {
        count += 1;
        match find(&c.table) {
            None => {
                warn.push(format!(
                    "cdc.columns.exclude lists {}.{}, but {} is not captured",
                    c.table, c.column, c.table
                ));
                on("cdc.columns.exclude".to_string());
                fixes.push(format!(
                    "remove {}.{} from cdc.columns.exclude",
                    c.table, c.column
                ));
            }
            Some(t) if t.column(&c.column).is_none() => {
                warn.push(format!(
                    "cdc.columns.exclude lists {}.{}, but {} has no such column",
                    c.table, c.column, t.name
                ));
                on("cdc.columns.exclude".to_string());
                fixes.push(format!(
                    "remove {}.{} from cdc.columns.exclude",
                    c.table, c.column
                ));
            }
            Some(_) => {}
        }
    }
    if warn.is_empty() && fail.is_empty() {
        return Finding::pass(if count == 0 {
            "no per-table settings".to_string()
        } else {
            format!("all {count} per-table settings name captured tables and their columns")
        });
    }
    let failed = !fail.is_empty();
    fail.extend(warn);
    if failed {
        Finding::fail(fail.join("\n"), fixes.join("\n")).on(objects)
    } else {
        Finding::warn(fail.join("\n"), fixes.join("\n")).on(objects)
    }
}
