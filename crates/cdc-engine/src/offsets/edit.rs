//! The edit operations: each turns the stored offsets into new ones, or says exactly why it
//! cannot. Nothing here writes: the caller validates ([`super::validate`]), weighs what would be
//! skipped ([`super::losses`]), shows the diff ([`super::diff`]) and commits
//! ([`super::commit`]).

use super::inspect::Live;
use super::{DatabaseIdentity, Offsets, SignalSnapshot, StreamPosition, TableProgress, TableState};
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::settings::Settings;
use cdc_core::model::Scn;

/// One operation of `oracle-cdc offsets edit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operation {
    /// Stream from commit SCN `scn`: every transaction committing at or after it is published
    /// (`skip_xids`: except these, which committed at `scn`). Mining restarts at `resume_scn`
    /// (default: `scn`, or the stored resume SCN when that is older).
    SetScn {
        scn: Scn,
        resume_scn: Option<Scn>,
        skip_xids: Vec<String>,
    },
    /// Snapshot the table again from its start on the next start.
    ResetTable(String),
    /// Count the table's snapshot as done without reading the rest of it.
    MarkDone(String),
    /// Remove everything the offsets hold about the table.
    ForgetTable(String),
    /// Remove a signal snapshot.
    DropSignal(String),
    /// The file sink's acknowledged length of the current segment (or of `segment`).
    SetSink { bytes: u64, segment: Option<String> },
    /// Store the topic naming the settings ask for (`pdb`: whether topics name the PDB, when
    /// `cdc.topic.include.pdb` is `auto`).
    SetTopicNaming { pdb: Option<bool> },
}

impl Operation {
    /// `set-scn 1000500`, `reset-table SALES.ORDERS`, … for messages and the ops log.
    pub fn describe(&self) -> String {
        match self {
            Operation::SetScn {
                scn,
                resume_scn,
                skip_xids,
            } => {
                let mut s = format!("set-scn {scn}");
                if let Some(r) = resume_scn {
                    s.push_str(&format!(" --resume-scn {r}"));
                }
                for x in skip_xids {
                    s.push_str(&format!(" --skip-xid {x}"));
                }
                s
            }
            Operation::ResetTable(t) => format!("reset-table {t}"),
            Operation::MarkDone(t) => format!("mark-done {t}"),
            Operation::ForgetTable(t) => format!("forget-table {t}"),
            Operation::DropSignal(id) => format!("drop-signal {id}"),
            Operation::SetSink { bytes, segment } => match segment {
                Some(seg) => format!("set-sink {bytes} --segment {seg}"),
                None => format!("set-sink {bytes}"),
            },
            Operation::SetTopicNaming { pdb } => match pdb {
                Some(p) => format!("set-topic-naming --pdb {p}"),
                None => "set-topic-naming".to_string(),
            },
        }
    }
}

/// What an operation needs to know besides the offsets.
pub struct Context<'a> {
    pub settings: &'a Settings,
    /// The database, when reachable.
    pub live: Option<&'a Live>,
    /// Names signal snapshots that `reset-table` adds.
    pub now: chrono::DateTime<chrono::Utc>,
}

/// The result of an operation: the new offsets and what was done, in words.
#[derive(Debug, Clone)]
pub struct Applied {
    pub offsets: Offsets,
    pub notes: Vec<String>,
}

/// Apply `op` to `old` (`None`: there is no offsets file yet; only `set-scn` with the database
/// reachable can start one).
pub fn apply(op: &Operation, old: Option<&Offsets>, ctx: &Context) -> Result<Applied> {
    let mut notes = Vec::new();
    let mut o = match (old, op, ctx.live) {
        (Some(o), _, _) => o.clone(),
        (None, Operation::SetScn { .. }, Some(live)) => {
            notes.push(format!(
                "new offsets for database {} (DBID {}, incarnation {})",
                live.database.name, live.database.dbid, live.database.resetlogs_scn
            ));
            Offsets::new(DatabaseIdentity::of(&live.database))
        }
        (None, Operation::SetScn { .. }, None) => {
            return Err(CdcError::InvalidEdit(
                "there are no offsets yet: set-scn can start them only with the database reachable (its DBID and incarnation go into the offsets)".into(),
            ))
        }
        (None, _, _) => {
            return Err(CdcError::InvalidEdit(format!(
                "there are no offsets: nothing to {}",
                op.describe()
            )))
        }
    };
    match op {
        Operation::SetScn {
            scn,
            resume_scn,
            skip_xids,
        } => set_scn(&mut o, *scn, *resume_scn, skip_xids, ctx, &mut notes)?,
        Operation::ResetTable(t) => reset_table(&mut o, t, ctx, &mut notes)?,
        Operation::MarkDone(t) => mark_done(&mut o, t, ctx, &mut notes)?,
        Operation::ForgetTable(t) => forget_table(&mut o, t, ctx, &mut notes)?,
        Operation::DropSignal(id) => drop_signal(&mut o, id, &mut notes)?,
        Operation::SetSink { bytes, segment } => {
            set_sink(&mut o, *bytes, segment.as_deref(), ctx, &mut notes)?
        }
        Operation::SetTopicNaming { pdb } => set_topic_naming(&mut o, *pdb, ctx, &mut notes)?,
    }
    Ok(Applied { offsets: o, notes })
}

/// 16 hex digits, as V$LOGMNR_CONTENTS.XID shows a transaction.
pub fn is_xid(x: &str) -> bool {
    x.len() == 16 && x.chars().all(|c| c.is_ascii_hexdigit())
}

fn set_scn(
    o: &mut Offsets,
    scn: Scn,
    resume: Option<Scn>,
    skip_xids: &[String],
    ctx: &Context,
    notes: &mut Vec<String>,
) -> Result<()> {
    if scn == 0 {
        return Err(CdcError::InvalidEdit("set-scn 0: SCNs start at 1".into()));
    }
    if o.export.is_some() {
        return Err(CdcError::InvalidEdit(
            "these are the offsets of an export (`oracle-cdc snapshot --out`): it reads tables at an SCN of its own and has no stream position to set".into(),
        ));
    }
    let mut xids: Vec<String> = Vec::new();
    for x in skip_xids {
        if !is_xid(x) {
            return Err(CdcError::InvalidEdit(format!(
                "--skip-xid `{x}` is not a transaction id: expected 16 hex digits as V$LOGMNR_CONTENTS.XID shows it, e.g. 0a001b00c3010000"
            )));
        }
        // One case everywhere: lower, as capture stores them and records carry them.
        let x = x.to_ascii_lowercase();
        if !xids.contains(&x) {
            xids.push(x);
        }
    }
    let old = o.stream.clone();
    // Skipping more transactions at the stored commit SCN keeps those published there.
    if let Some(s) = old
        .as_ref()
        .filter(|s| s.commit_scn == scn && !xids.is_empty())
    {
        let mut all: Vec<String> = s
            .commit_xids
            .iter()
            .map(|x| x.to_ascii_lowercase())
            .collect();
        for x in xids {
            if !all.contains(&x) {
                all.push(x);
            }
        }
        xids = all;
    }
    let resume_scn = match (resume, &old) {
        (Some(r), _) if r > scn => {
            return Err(CdcError::InvalidEdit(format!(
                "--resume-scn {r} is after SCN {scn}: mining must start at or before the first commit it publishes"
            )))
        }
        (Some(r), _) => r,
        // Transactions in flight at the stored position started at or after its resume SCN:
        // mining from there keeps every transaction committing from `scn` on whole.
        (None, Some(s)) => s.resume_scn.min(scn),
        (None, None) => scn,
    };
    // Everything committed before `scn` counts as published; at `scn` only the skipped XIDs.
    let commit_scn = if xids.is_empty() { scn - 1 } else { scn };
    let threads = old
        .as_ref()
        .map(|s| s.threads.keys().map(|t| (*t, commit_scn)).collect())
        .unwrap_or_default();
    o.stream = Some(StreamPosition {
        resume_scn,
        commit_scn,
        commit_xids: xids.clone(),
        threads,
    });
    let from = if xids.is_empty() {
        format!("streaming resumes with the transactions committed at SCN {scn}")
    } else {
        format!(
            "streaming resumes at SCN {scn}, skipping transaction{} {} there",
            if xids.len() == 1 { "" } else { "s" },
            xids.join(", ")
        )
    };
    notes.push(format!("{from}; mining restarts at SCN {resume_scn}"));
    if let Some(live) = ctx.live {
        if scn > live.current_scn {
            return Err(CdcError::ScnNotRetained(format!(
                "SCN {scn} is after the database's current SCN {}",
                live.current_scn
            )));
        }
        let oldest = live.oldest_scn().unwrap_or(live.current_scn);
        if scn < oldest {
            return Err(CdcError::ScnNotRetained(format!(
                "SCN {scn} is older than the oldest retained redo log (first SCN {oldest}): capture could not mine from there"
            )));
        }
        if resume_scn < oldest {
            return Err(CdcError::ScnNotRetained(format!(
                "mining would restart at SCN {resume_scn} (the stored resume SCN, where transactions still open at the stored position started), older than the oldest retained redo log (first SCN {oldest}); pass --resume-scn {oldest} (or later, up to {scn}) and --force to accept losing the earlier changes of transactions open there"
            )));
        }
    }
    Ok(())
}

/// Find `wanted` among offsets table names: the exact name, or `OWNER.TABLE` naming exactly one
/// `PDB.OWNER.TABLE`.
pub fn find_table<'a>(
    names: impl IntoIterator<Item = &'a String>,
    wanted: &TableName,
) -> Result<Option<String>> {
    let names: Vec<&String> = names.into_iter().collect();
    let text = wanted.to_string();
    if let Some(n) = names.iter().find(|n| ***n == text) {
        return Ok(Some((*n).clone()));
    }
    let parsed: Vec<(&String, TableName)> = names
        .iter()
        .filter_map(|n| n.parse::<TableName>().ok().map(|t| (*n, t)))
        .collect();
    if let Some((n, _)) = parsed.iter().find(|(_, t)| t == wanted) {
        return Ok(Some((*n).clone()));
    }
    if wanted.pdb.is_none() {
        let same: Vec<&String> = parsed
            .iter()
            .filter(|(_, t)| t.owner == wanted.owner && t.table == wanted.table)
            .map(|(n, _)| *n)
            .collect();
        match same.as_slice() {
            [] => {}
            [one] => return Ok(Some((*one).clone())),
            many => {
                return Err(CdcError::InvalidEdit(format!(
                    "{wanted} is ambiguous: the offsets hold {}; name the PDB",
                    many.iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            }
        }
    }
    Ok(None)
}

fn parse_table(text: &str) -> Result<TableName> {
    text.parse::<TableName>()
        .map_err(|e| CdcError::InvalidEdit(format!("table {e}")))
}

fn require_captured(t: &TableName, settings: &Settings) -> Result<()> {
    if settings.is_captured(t) {
        return Ok(());
    }
    let mut why = Vec::new();
    if !settings.include.is_empty() {
        why.push(format!(
            "cdc.tables.include is {}",
            settings.include.patterns().join(", ")
        ));
    }
    if !settings.exclude.is_empty() {
        why.push(format!(
            "cdc.tables.exclude is {}",
            settings.exclude.patterns().join(", ")
        ));
    }
    Err(CdcError::InvalidEdit(format!(
        "{t} is not captured by the settings ({})",
        why.join("; ")
    )))
}

/// Every table name the offsets hold, for messages.
fn known_tables(o: &Offsets) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    if let Some(s) = &o.snapshot {
        all.extend(s.tables.keys().cloned());
    }
    for sig in &o.signals {
        all.extend(sig.tables.iter().cloned());
    }
    all.sort();
    all.dedup();
    all
}

fn not_in_offsets(t: &TableName, o: &Offsets) -> CdcError {
    let known = known_tables(o);
    CdcError::InvalidEdit(format!(
        "{t} is in no snapshot of these offsets ({})",
        if known.is_empty() {
            "they hold no table".to_string()
        } else {
            format!("tables: {}", known.join(", "))
        }
    ))
}

fn signal_id(o: &Offsets, now: chrono::DateTime<chrono::Utc>) -> String {
    let base = format!("offsets-edit-{}", now.format("%Y%m%dT%H%M%SZ"));
    let mut id = base.clone();
    let mut n = 1;
    while o.signals.iter().any(|s| s.id == id) {
        n += 1;
        id = format!("{base}-{n}");
    }
    id
}

fn reset_table(o: &mut Offsets, table: &str, ctx: &Context, notes: &mut Vec<String>) -> Result<()> {
    let wanted = parse_table(table)?;
    require_captured(&wanted, ctx.settings)?;
    let mut found = false;
    let mut in_signal = false;
    for sig in &o.signals {
        in_signal |= find_table(sig.tables.iter(), &wanted)?.is_some();
    }
    if let Some(s) = o.snapshot.as_mut() {
        let name = find_table(s.tables.keys(), &wanted)?;
        // A signal snapshot of it reads it again: a completed snapshot is left alone, so the
        // table is not read twice.
        if let Some(name) = name.filter(|_| !(in_signal && s.completed)) {
            found = true;
            if let Some(p) = s.tables.get_mut(&name) {
                s.records = s.records.saturating_sub(p.rows);
                *p = TableProgress::new(&p.strategy);
            }
            s.completed = false;
            notes.push(format!(
                "{name} is snapshotted again from its first row on the next start"
            ));
        }
    }
    for sig in o.signals.iter_mut() {
        if let Some(name) = find_table(sig.tables.iter(), &wanted)? {
            found = true;
            if let Some(p) = sig.progress.get_mut(&name) {
                *p = TableProgress::new(&p.strategy);
            }
            notes.push(format!(
                "{name} starts again from its first row in signal snapshot {}",
                sig.id
            ));
        }
    }
    if found {
        return Ok(());
    }
    if let Some(export) = &o.export {
        return Err(CdcError::InvalidEdit(format!(
            "{wanted} is not part of this export (tables: {}); export it into another --out directory",
            export.tables.join(", ")
        )));
    }
    // Not snapshotted here yet: an incremental snapshot of it, as a signal would start — of a
    // table the database has (capture refuses offsets naming one it never knew, CDC-7011).
    if let Some(tables) = ctx.live.and_then(|l| l.tables.as_ref()) {
        if !tables.contains(&wanted) {
            return Err(CdcError::InvalidEdit(format!(
                "the database has no table {wanted}, and the offsets do not hold it: nothing to snapshot again"
            )));
        }
    } else {
        notes.push(format!(
            "the database was not asked whether {wanted} exists: capture refuses the offsets (CDC-7011) if it does not"
        ));
    }
    let id = signal_id(o, ctx.now);
    notes.push(format!(
        "{wanted} is not in the offsets' snapshots: an incremental snapshot of it (signal {id}) runs while streaming on the next start"
    ));
    o.signals.push(SignalSnapshot {
        id,
        kind: "incremental".into(),
        tables: vec![wanted.to_string()],
        paused: false,
        progress: Default::default(),
        ..Default::default()
    });
    Ok(())
}

fn mark_done(o: &mut Offsets, table: &str, ctx: &Context, notes: &mut Vec<String>) -> Result<()> {
    let wanted = parse_table(table)?;
    require_captured(&wanted, ctx.settings)?;
    let mut found = false;
    if let Some(s) = o.snapshot.as_mut() {
        if let Some(name) = find_table(s.tables.keys(), &wanted)? {
            found = true;
            if let Some(p) = s.tables.get_mut(&name) {
                if p.state == TableState::Done {
                    notes.push(format!("{name} is already done in the snapshot"));
                } else {
                    p.state = TableState::Done;
                    p.next = None;
                    notes.push(format!(
                        "{name} counts as done: the next start does not read the rest of it"
                    ));
                }
            }
        }
    }
    let mut emptied = Vec::new();
    for sig in o.signals.iter_mut() {
        let Some(name) = find_table(sig.tables.iter(), &wanted)? else {
            continue;
        };
        found = true;
        match sig.progress.get_mut(&name) {
            Some(p) if p.state == TableState::Done => notes.push(format!(
                "{name} is already done in signal snapshot {}",
                sig.id
            )),
            Some(p) => {
                p.state = TableState::Done;
                p.next = None;
                notes.push(format!(
                    "{name} counts as done in signal snapshot {}",
                    sig.id
                ));
            }
            None => {
                // Not started: leaving it out of the signal is the same as done.
                sig.tables.retain(|t| t != &name);
                notes.push(format!(
                    "{name} had not started in signal snapshot {}: it is left out of it",
                    sig.id
                ));
                if sig.tables.is_empty() {
                    emptied.push(sig.id.clone());
                }
            }
        }
    }
    drop_emptied(o, &emptied, notes);
    if !found {
        return Err(not_in_offsets(&wanted, o));
    }
    Ok(())
}

fn drop_emptied(o: &mut Offsets, emptied: &[String], notes: &mut Vec<String>) {
    for id in emptied {
        notes.push(format!(
            "signal snapshot {id} has no table left: it is removed"
        ));
    }
    o.signals.retain(|s| !emptied.contains(&s.id));
}

fn forget_table(
    o: &mut Offsets,
    table: &str,
    ctx: &Context,
    notes: &mut Vec<String>,
) -> Result<()> {
    let wanted = parse_table(table)?;
    let mut found = false;
    if let Some(s) = o.snapshot.as_mut() {
        let names = s
            .tables
            .keys()
            .chain(s.order.iter())
            .chain(s.skipped.iter().map(|k| &k.table));
        if let Some(name) = find_table(names, &wanted)? {
            found = true;
            if let Some(p) = s.tables.remove(&name) {
                s.records = s.records.saturating_sub(p.rows);
            }
            s.order.retain(|t| t != &name);
            s.skipped.retain(|k| k.table != name);
            notes.push(format!("{name} is removed from the snapshot"));
        }
    }
    let mut emptied = Vec::new();
    for sig in o.signals.iter_mut() {
        if let Some(name) = find_table(sig.tables.iter(), &wanted)? {
            found = true;
            sig.tables.retain(|t| t != &name);
            sig.progress.remove(&name);
            notes.push(format!("{name} is removed from signal snapshot {}", sig.id));
            if sig.tables.is_empty() {
                emptied.push(sig.id.clone());
            }
        }
    }
    drop_emptied(o, &emptied, notes);
    if let Some(export) = o.export.as_mut() {
        if let Some(name) = find_table(export.tables.iter(), &wanted)? {
            found = true;
            export.tables.retain(|t| t != &name);
            notes.push(format!(
                "{name} is no longer part of the export: resume it with --tables {}",
                export.tables.join(",")
            ));
        }
    }
    if !found {
        return Err(not_in_offsets(&wanted, o));
    }
    if o.export.is_none() && ctx.settings.is_captured(&wanted) {
        notes.push(format!(
            "{wanted} is still captured by the settings: its changes keep streaming, and an unfinished snapshot reads it again from its first row"
        ));
    }
    Ok(())
}

fn drop_signal(o: &mut Offsets, id: &str, notes: &mut Vec<String>) -> Result<()> {
    let before = o.signals.len();
    o.signals.retain(|s| s.id != id);
    if o.signals.len() == before {
        let ids: Vec<&str> = o.signals.iter().map(|s| s.id.as_str()).collect();
        return Err(CdcError::InvalidEdit(format!(
            "no signal snapshot `{id}` in the offsets ({})",
            if ids.is_empty() {
                "they hold none".to_string()
            } else {
                format!("signals: {}", ids.join(", "))
            }
        )));
    }
    notes.push(format!("signal snapshot {id} is removed"));
    Ok(())
}

/// `set-sink`: the file sink's acknowledged length, checked against the segment files in
/// cdc.sink.dir (it must end on a record), with the record count counted again from them.
fn set_sink(
    o: &mut Offsets,
    bytes: u64,
    segment: Option<&str>,
    ctx: &Context,
    notes: &mut Vec<String>,
) -> Result<()> {
    let old_segment = match &o.sink {
        None => {
            return Err(CdcError::InvalidEdit(
                "these offsets have no sink position (an export, or a capture that never started): nothing to set".into(),
            ))
        }
        Some(super::SinkPosition::File { segment, .. }) => segment.clone(),
        Some(super::SinkPosition::Kafka { .. }) => {
            return Err(CdcError::InvalidEdit(
                "the sink is kafka: set-sink is for the file sink's segments".into(),
            ))
        }
        Some(super::SinkPosition::Stdout { .. }) => {
            return Err(CdcError::InvalidEdit(
                "the sink is stdout: set-sink is for the file sink's segments".into(),
            ))
        }
    };
    let name = segment.unwrap_or(&old_segment).to_string();
    let dir = &ctx.settings.sink.dir;
    let segments = crate::segments::segments(dir)?;
    let Some(index) = crate::segments::segment_index(&name) else {
        return Err(CdcError::InvalidEdit(format!(
            "--segment `{name}` is not a segment name (segment-NNNNNN.jsonl)"
        )));
    };
    let mut records = 0u64;
    let mut found = false;
    for (i, path) in &segments {
        if *i > index {
            continue;
        }
        let text = std::fs::read(path).map_err(|e| CdcError::io(path, e))?;
        if *i < index {
            records += text.iter().filter(|&&b| b == b'\n').count() as u64;
            continue;
        }
        found = true;
        if bytes > text.len() as u64 {
            return Err(CdcError::InvalidEdit(format!(
                "{} has {} bytes: set-sink {bytes} is past its end",
                path.display(),
                text.len()
            )));
        }
        let upto = &text[..bytes as usize];
        if bytes > 0 && upto.last() != Some(&b'\n') {
            let before = upto.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            let after = text[bytes as usize..]
                .iter()
                .position(|&b| b == b'\n')
                .map(|p| bytes as usize + p + 1);
            return Err(CdcError::InvalidEdit(format!(
                "byte {bytes} of {} is inside a record: the records around it end at byte {before}{}",
                path.display(),
                after.map(|a| format!(" and byte {a}")).unwrap_or_default()
            )));
        }
        records += upto.iter().filter(|&&b| b == b'\n').count() as u64;
    }
    if !found && bytes > 0 {
        return Err(CdcError::InvalidEdit(format!(
            "{} has no segment {name}",
            dir.display()
        )));
    }
    o.sink = Some(super::SinkPosition::File {
        segment: name.clone(),
        bytes,
        records,
    });
    notes.push(format!(
        "the sink acknowledges {name} up to byte {bytes} ({records} records in all); the next start cuts what follows"
    ));
    Ok(())
}

#[cfg(test)]
#[path = "edit_tests.rs"]
mod tests;

/// `set-topic-naming`: the naming the settings ask for, stored so capture publishes there.
fn set_topic_naming(
    o: &mut Offsets,
    pdb: Option<bool>,
    ctx: &Context,
    notes: &mut Vec<String>,
) -> Result<()> {
    use crate::settings::record_format::PdbInTopic;
    let key = crate::settings::keys::TOPIC_INCLUDE_PDB;
    let pdb = match (pdb, ctx.settings.record.pdb_in_topic) {
        (Some(p), PdbInTopic::Auto) => p,
        (Some(p), setting) if p == (setting == PdbInTopic::Always) => p,
        (Some(p), _) => {
            return Err(CdcError::InvalidEdit(format!(
                "--pdb {p} contradicts {key}={}: capture would refuse it; change the setting or leave --pdb out",
                !p
            )))
        }
        (None, PdbInTopic::Always) => true,
        (None, PdbInTopic::Never) => false,
        (None, PdbInTopic::Auto) => {
            return Err(CdcError::InvalidEdit(format!(
                "{key} is auto, which decides only at a first start: say --pdb true (PREFIX.PDB.OWNER.TABLE) or --pdb false (PREFIX.OWNER.TABLE)"
            )))
        }
    };
    let new = super::TopicNaming {
        prefix: ctx.settings.sink.topic_prefix.clone(),
        pdb,
    };
    match &o.topics {
        Some(old) if *old == new => notes.push(format!("topics are {new} already")),
        Some(old) => notes.push(format!(
            "topics move from {old} to {new} on the next start: records already published stay in the old topics; move the consumers to the new ones"
        )),
        None => notes.push(format!("topics are {new} from the next start")),
    }
    o.topics = Some(new);
    Ok(())
}
