//! Whether edited offsets make sense: each problem names the field at fault and why.
//!
//! Only problems an edit introduces count: a rule the stored offsets already break (say, a table
//! the settings stopped capturing) is not held against an unrelated edit.

use super::{Offsets, ResumePoint, SinkPosition, TableProgress, TableState};
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::settings::Settings;
use serde_json::Value as Json;
use std::collections::BTreeSet;

/// Refuse `new` with every problem it has that `old` did not have (CDC-7008).
pub fn check(new: &Offsets, old: Option<&Offsets>, settings: &Settings) -> Result<()> {
    let before: BTreeSet<String> = old.map(problems).unwrap_or_default().into_iter().collect();
    let mut found: Vec<String> = problems(new)
        .into_iter()
        .filter(|p| !before.contains(p))
        .collect();
    if let Some(old) = old {
        if old.database != new.database {
            found.insert(
                0,
                format!(
                    "database: the identity cannot be edited (DBID {} incarnation {} {} → DBID {} incarnation {} {}); offsets of another database start from a fresh state directory",
                    old.database.dbid,
                    old.database.incarnation,
                    old.database.name,
                    new.database.dbid,
                    new.database.incarnation,
                    new.database.name
                ),
            );
        }
    }
    found.extend(uncaptured(new, old, settings));
    refuse(found)
}

/// At most this many problems are listed.
const SHOWN: usize = 20;

/// CDC-7008 listing `problems`, or Ok when there are none.
pub fn refuse(problems: Vec<String>) -> Result<()> {
    match problems.len() {
        0 => Ok(()),
        1 => Err(CdcError::InvalidEdit(format!(
            "the edited offsets are not valid: {}",
            crate::errors::shown(&problems[0], 300)
        ))),
        _ => {
            // Bounded: a hand-edited document may break a rule ten thousand times.
            Err(CdcError::InvalidEdit(format!(
                "the edited offsets are not valid:\n  - {}",
                crate::errors::shown_items(&problems, SHOWN, 300).join("\n  - ")
            )))
        }
    }
}

/// Fields of `raw` that the offsets format does not have (a typo such as `pasued` would
/// otherwise be dropped without a word).
pub fn unknown_fields(raw: &Json, parsed: &Offsets) -> Vec<String> {
    let Ok(known) = serde_json::to_value(parsed) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    walk("", raw, &known, &mut out);
    out
}

fn walk(path: &str, raw: &Json, known: &Json, out: &mut Vec<String>) {
    match (raw, known) {
        (Json::Object(r), Json::Object(k)) => {
            for (key, v) in r {
                let p = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                match k.get(key) {
                    Some(kv) => walk(&p, v, kv, out),
                    // Left out when written: empty or default values.
                    None if is_default(v) => {}
                    None => out.push(format!("{p}: unknown field")),
                }
            }
        }
        (Json::Array(r), Json::Array(k)) if r.len() == k.len() => {
            for (i, (rv, kv)) in r.iter().zip(k).enumerate() {
                walk(&format!("{path}[{i}]"), rv, kv, out);
            }
        }
        _ => {}
    }
}

fn is_default(v: &Json) -> bool {
    match v {
        Json::Null | Json::Bool(false) => true,
        Json::Array(a) => a.is_empty(),
        Json::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// Tables an edit adds or changes must be captured by the settings.
fn uncaptured(new: &Offsets, old: Option<&Offsets>, settings: &Settings) -> Vec<String> {
    let mut out = Vec::new();
    let mut check = |where_: String, name: &str| {
        if let Ok(t) = name.parse::<TableName>() {
            if !settings.is_captured(&t) {
                out.push(format!(
                    "{where_}: {name} is not captured by the settings (cdc.tables.include / cdc.tables.exclude)"
                ));
            }
        }
    };
    if let Some(s) = &new.snapshot {
        let before = old.and_then(|o| o.snapshot.as_ref());
        for (name, p) in &s.tables {
            if before.and_then(|b| b.tables.get(name)) != Some(p) {
                check(format!("snapshot.tables[\"{name}\"]"), name);
            }
        }
    }
    for (i, sig) in new.signals.iter().enumerate() {
        let before = old.and_then(|o| o.signals.iter().find(|s| s.id == sig.id));
        for t in &sig.tables {
            if before.is_none_or(|b| !b.tables.contains(t)) {
                check(format!("signals[{i}].tables"), t);
            }
        }
    }
    out
}

/// Every rule `o` breaks, each naming its field.
pub fn problems(o: &Offsets) -> Vec<String> {
    let mut out = stream_problems(o);
    out.extend(structure_problems(o));
    out
}

/// Rules of the stream position an edit must keep. Capture's own position may break the first
/// (it moves `resume_scn` on past commits of tables it does not capture), so only edits are
/// held to these; capture's start checks the XIDs itself (CDC-7012).
fn stream_problems(o: &Offsets) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(s) = &o.stream {
        if s.resume_scn > s.commit_scn.saturating_add(1) {
            out.push(format!(
                "stream.resume_scn {} is after stream.commit_scn {} + 1: changes committed in between would never be mined",
                s.resume_scn, s.commit_scn
            ));
        }
        let mut seen = BTreeSet::new();
        for x in &s.commit_xids {
            if !super::edit::is_xid(x) {
                out.push(format!(
                    "stream.commit_xids: `{x}` is not a transaction id (16 hex digits)"
                ));
            }
            if !seen.insert(x.to_ascii_lowercase()) {
                out.push(format!("stream.commit_xids: {x} is listed twice"));
            }
        }
        for (thread, scn) in &s.threads {
            if *scn > s.commit_scn {
                out.push(format!(
                    "stream.threads.{thread} {scn} is after stream.commit_scn {}",
                    s.commit_scn
                ));
            }
        }
    }
    out
}

/// The rules between the other fields (snapshot, signals, sink, export): capture writes nothing
/// that breaks them, so its start refuses offsets that do ([`super::startup::check`]).
pub fn structure_problems(o: &Offsets) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(s) = &o.snapshot {
        let mut seen = BTreeSet::new();
        for name in &s.order {
            if !seen.insert(name) {
                out.push(format!("snapshot.order: {name} is listed twice"));
            }
            if !s.tables.contains_key(name) {
                out.push(format!(
                    "snapshot.order: {name} has no entry in snapshot.tables"
                ));
            }
        }
        for (name, p) in &s.tables {
            let at = format!("snapshot.tables[\"{name}\"]");
            if !s.order.contains(name) {
                out.push(format!("{at}: the table is missing from snapshot.order"));
            }
            table_name(&at, name, &mut out);
            progress(&at, p, &mut out);
            if s.skipped.iter().any(|k| &k.table == name) {
                out.push(format!("{at}: the table is also in snapshot.skipped"));
            }
        }
        if s.completed {
            for (name, p) in &s.tables {
                if p.state != TableState::Done {
                    out.push(format!(
                        "snapshot.completed is true but {name} is {}: a completed snapshot is never resumed",
                        super::inspect::state_text(p.state)
                    ));
                }
            }
        }
    }
    let mut ids = BTreeSet::new();
    for (i, sig) in o.signals.iter().enumerate() {
        let at = format!("signals[{i}]");
        if sig.id.trim().is_empty() {
            out.push(format!("{at}.id is empty"));
        } else if let Err(e) = crate::signal::check_id(&sig.id) {
            // The rule `signal send` and capture hold ids to (they name spool files).
            out.push(format!("{at}.id: {e}"));
        } else if !ids.insert(&sig.id) {
            out.push(format!("{at}.id {} is used twice", sig.id));
        }
        for (t, condition) in &sig.filters {
            // The check every signal's additional-conditions passes before capture runs it.
            if let Err(why) = crate::sql_condition::filter_condition(condition) {
                out.push(format!(
                    "{at}.filters[\"{}\"]: {why}",
                    crate::errors::shown(t, 80)
                ));
            }
        }
        if !matches!(sig.kind.as_str(), "incremental" | "blocking") {
            out.push(format!(
                "{at}.kind `{}` is not incremental or blocking",
                sig.kind
            ));
        }
        if sig.tables.is_empty() {
            out.push(format!("{at}.tables is empty"));
        }
        for t in &sig.tables {
            table_name(&format!("{at}.tables"), t, &mut out);
        }
        for (t, p) in &sig.progress {
            let pat = format!("{at}.progress[\"{t}\"]");
            if !sig.tables.contains(t) {
                out.push(format!("{pat}: the table is not in {at}.tables"));
            }
            progress(&pat, p, &mut out);
        }
    }
    if let Some(SinkPosition::File { segment, .. }) = &o.sink {
        if segment.trim().is_empty() {
            out.push("sink.segment is empty".into());
        }
    }
    if let Some(e) = &o.export {
        if !matches!(
            e.format.as_str(),
            "jsonl" | "csv" | "csv-epoch" | "records" | "parquet"
        ) {
            out.push(format!(
                "export.format `{}` is not jsonl, csv, csv-epoch, records or parquet",
                e.format
            ));
        }
        if let Some(s) = &o.snapshot {
            for t in &e.tables {
                if !s.tables.contains_key(t) {
                    out.push(format!(
                        "export.tables: {t} has no entry in snapshot.tables"
                    ));
                }
            }
        }
    }
    out
}

fn table_name(at: &str, name: &str, out: &mut Vec<String>) {
    if let Err(e) = name.parse::<TableName>() {
        out.push(format!("{at}: {e}"));
    }
}

fn progress(at: &str, p: &TableProgress, out: &mut Vec<String>) {
    if !matches!(p.strategy.as_str(), "key" | "rowid" | "single") {
        out.push(format!(
            "{at}.strategy `{}` is not key, rowid or single",
            p.strategy
        ));
    }
    match (&p.next, p.strategy.as_str()) {
        (Some(ResumePoint::Key(_)), "rowid" | "single")
        | (Some(ResumePoint::Rowid(_)), "key" | "single") => out.push(format!(
            "{at}.next is a {} but the table is read by {}",
            match p.next {
                Some(ResumePoint::Key(_)) => "key",
                _ => "ROWID",
            },
            p.strategy
        )),
        (Some(ResumePoint::Rowid(r)), _) => {
            if let Err(e) = cdc_core::rowid::RowId::decode(r) {
                out.push(format!("{at}.next: {e}"));
            }
        }
        (Some(ResumePoint::Key(k)), _) if k.is_empty() => {
            out.push(format!("{at}.next.key is empty"));
        }
        _ => {}
    }
    if p.state == TableState::NotStarted && (p.chunks > 0 || p.rows > 0 || p.next.is_some()) {
        out.push(format!(
            "{at}: not_started but it has chunks, rows or a next chunk; use in_progress, or reset chunks, rows and next"
        ));
    }
    if p.chunk_scns.len() as u64 != p.chunks {
        out.push(format!(
            "{at}.chunks is {} but chunk_scns lists {} SCNs",
            p.chunks,
            p.chunk_scns.len()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::offsets::{DatabaseIdentity, SnapshotState, StreamPosition};
    use std::collections::BTreeMap;

    fn base() -> Offsets {
        let mut o = Offsets::new(DatabaseIdentity {
            dbid: 9,
            incarnation: 1,
            name: "SHOP".into(),
        });
        o.snapshot = Some(SnapshotState {
            order: vec!["SALES.ORDERS".into()],
            tables: BTreeMap::from([("SALES.ORDERS".to_string(), TableProgress::new("key"))]),
            records: 0,
            completed: false,
            skipped: vec![],
            ..Default::default()
        });
        o.stream = Some(StreamPosition {
            resume_scn: 100,
            commit_scn: 120,
            commit_xids: vec!["0a001b00c3010000".into()],
            threads: BTreeMap::from([(1, 120)]),
        });
        o
    }

    #[test]
    fn each_rule_names_its_field() {
        let settings = Settings::from_pairs(&["cdc.tables.include=SALES.*"]).unwrap();
        let old = base();
        assert!(check(&old, Some(&old), &settings).is_ok());
        let mut new = old.clone();
        if let Some(s) = new.stream.as_mut() {
            s.resume_scn = 500;
            s.commit_xids.push("xyz".into());
        }
        if let Some(s) = new.snapshot.as_mut() {
            s.completed = true;
            if let Some(p) = s.tables.get_mut("SALES.ORDERS") {
                p.chunks = 2;
            }
            s.tables
                .insert("HR.EMP".into(), TableProgress::new("diagonal"));
        }
        new.database.dbid = 10;
        let e = check(&new, Some(&old), &settings).unwrap_err();
        assert_eq!(e.code(), crate::errors::Code::Cdc7008);
        let text = e.to_string();
        for needle in [
            "database: the identity cannot be edited (DBID 9",
            "stream.resume_scn 500 is after stream.commit_scn 120 + 1",
            "stream.commit_xids: `xyz` is not a transaction id",
            "snapshot.tables[\"SALES.ORDERS\"]: not_started but it has chunks",
            "snapshot.tables[\"SALES.ORDERS\"].chunks is 2 but chunk_scns lists 0 SCNs",
            "snapshot.tables[\"HR.EMP\"]: the table is missing from snapshot.order",
            "snapshot.tables[\"HR.EMP\"].strategy `diagonal` is not key, rowid or single",
            "snapshot.completed is true but SALES.ORDERS is not started",
            "snapshot.tables[\"HR.EMP\"]: HR.EMP is not captured by the settings",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in\n{text}");
        }
    }

    #[test]
    fn problems_the_stored_offsets_already_have_are_not_held_against_an_edit() {
        let settings = Settings::from_pairs::<&str>(&[]).unwrap();
        let mut old = base();
        if let Some(s) = old.snapshot.as_mut() {
            s.completed = true; // e.g. a table dropped from the settings never finished
        }
        let mut new = old.clone();
        if let Some(s) = new.stream.as_mut() {
            s.commit_scn = 130;
        }
        assert!(check(&new, Some(&old), &settings).is_ok());
        assert!(check(&new, None, &settings).is_err());
    }

    #[test]
    fn unknown_fields_are_named() {
        let o = base();
        let mut raw = serde_json::to_value(&o).unwrap();
        raw["stream"]["resume_scm"] = serde_json::json!(5);
        raw["signals"] = serde_json::json!([]);
        raw["snapshot"]["tables"]["SALES.ORDERS"]["pasued"] = serde_json::json!(true);
        assert_eq!(
            unknown_fields(&raw, &o),
            vec![
                "snapshot.tables.SALES.ORDERS.pasued: unknown field",
                "stream.resume_scm: unknown field",
            ]
        );
    }

    #[test]
    fn signal_ids_and_filters_follow_the_signal_rules_and_refusals_are_bounded() {
        let mut o = base();
        o.signals = vec![crate::offsets::SignalSnapshot {
            id: "x".repeat(100_000),
            kind: "incremental".into(),
            tables: (0..5_000).map(|i| format!("A..B{i}")).collect(),
            filters: BTreeMap::from([("APP.T".to_string(), "1 = 1; DROP TABLE X".to_string())]),
            ..Default::default()
        }];
        let p = problems(&o);
        assert!(p.iter().any(|p| p.starts_with("signals[0].id")), "{p:?}");
        assert!(
            p.iter().any(|p| p.starts_with("signals[0].filters")),
            "{p:?}"
        );
        let e = refuse(p).unwrap_err().to_string();
        assert!(e.len() < 20_000, "{} bytes", e.len());
        assert!(e.contains("more"), "{e}");
    }
}
