//! What an edit would skip: data that the old offsets still promised to deliver and the new
//! ones do not. Every edit — an operation or a hand edit — is weighed the same way, by comparing
//! the two offsets; anything listed here needs `--force`.
//!
//! The stream position (c, X) counts a transaction committed at SCN t with XID x as published
//! when t < c, or t = c and (X is empty or x ∈ X) — the rule capture applies on a restart.

use super::inspect::{remaining_text, resume_text};
use super::{Offsets, SnapshotState, StreamPosition, TableProgress, TableState};
use crate::settings::{Settings, SnapshotMode};

/// The outcome of weighing an edit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Analysis {
    /// Data that would never be delivered: each needs `--force`.
    pub losses: Vec<String>,
    /// Consequences worth knowing that lose nothing (data delivered again, …).
    pub notes: Vec<String>,
}

/// Weigh the edit from `old` (`None`: no offsets yet) to `new`.
pub fn analyze(old: Option<&Offsets>, new: &Offsets, settings: &Settings) -> Analysis {
    let mut a = Analysis::default();
    let empty = Offsets::new(new.database.clone());
    let old = old.unwrap_or(&empty);
    stream(old, new, settings, &mut a);
    snapshot(
        old.snapshot.as_ref(),
        new.snapshot.as_ref(),
        settings,
        &mut a,
    );
    signals(old, new, &mut a);
    let forward = match (&old.sink, &new.sink) {
        (Some(o), Some(n)) => n.is_at_or_after(o),
        _ => false,
    };
    if old.sink != new.sink && forward {
        a.notes.push(format!(
            "the sink position moves forward ({} → {}): records after the old position are kept, and streaming (which resumes at the stored stream position) may publish them again",
            sink_text(old.sink.as_ref()),
            sink_text(new.sink.as_ref())
        ));
    } else if old.sink != new.sink {
        a.losses.push(format!(
            "the sink position changes ({} → {}): on the next start capture cuts its output back to the new position, so records after it are lost, or keeps records it will write again",
            sink_text(old.sink.as_ref()),
            sink_text(new.sink.as_ref())
        ));
    }
    if old.schema_history != new.schema_history {
        a.losses.push(format!(
            "the schema history position changes ({} → {}): changes may be decoded with the wrong table definitions",
            old.schema_history
                .as_ref()
                .map_or("none".to_string(), |h| format!("{} entries", h.entries)),
            new.schema_history
                .as_ref()
                .map_or("none".to_string(), |h| format!("{} entries", h.entries)),
        ));
    }
    a
}

fn sink_text(s: Option<&super::SinkPosition>) -> String {
    s.map_or("none".into(), ToString::to_string)
}

/// SCN ranges and XIDs as text: `SCN 101`, `SCNs 101 to 199`.
fn scns(lo: u64, hi: u64) -> String {
    if lo == hi {
        format!("SCN {lo}")
    } else {
        format!("SCNs {lo} to {hi}")
    }
}

fn stream(old: &Offsets, new: &Offsets, settings: &Settings, a: &mut Analysis) {
    match (&old.stream, &new.stream) {
        (Some(o), Some(n)) => position(o, n, a),
        (Some(o), None) => a.losses.push(format!(
            "the stream position (commit SCN {}) is removed: the next start begins as a first start, from the current SCN, and the changes committed after SCN {} are never published",
            o.commit_scn, o.commit_scn
        )),
        (None, Some(n)) => {
            let first = first_published(n);
            if old.snapshot.is_none()
                && matches!(
                    settings.snapshot.mode,
                    SnapshotMode::Initial | SnapshotMode::SnapshotOnly
                )
            {
                a.losses.push(format!(
                    "no initial snapshot: with a stream position stored, capture does not take the snapshot cdc.snapshot.mode asks for, so rows committed before SCN {first} are never read"
                ));
            } else {
                a.notes.push(format!(
                    "streaming starts with the transactions committed at SCN {first}"
                ));
            }
        }
        (None, None) => {}
    }
}

/// The first commit SCN a position publishes everything at.
fn first_published(p: &StreamPosition) -> u64 {
    if p.commit_xids.is_empty() {
        p.commit_scn + 1
    } else {
        p.commit_scn
    }
}

fn position(o: &StreamPosition, n: &StreamPosition, a: &mut Analysis) {
    let (c0, c1) = (o.commit_scn, n.commit_scn);
    let x0: Vec<String> = o
        .commit_xids
        .iter()
        .map(|x| x.to_ascii_lowercase())
        .collect();
    let x1: Vec<String> = n
        .commit_xids
        .iter()
        .map(|x| x.to_ascii_lowercase())
        .collect();
    if c1 > c0 {
        // Lost: what the old position had not published, up to what the new one counts as
        // published.
        let (lo, partial_at_c0) = if x0.is_empty() {
            (c0 + 1, false)
        } else {
            (c0, true)
        };
        let hi = if x1.is_empty() { c1 } else { c1 - 1 };
        if lo <= hi {
            let except = if partial_at_c0 {
                format!(
                    " (at SCN {c0} all but {}, already published)",
                    x0.join(", ")
                )
            } else {
                String::new()
            };
            a.losses.push(format!(
                "every transaction committed at {}{except} is never published",
                scns(lo, hi)
            ));
        }
        if !x1.is_empty() {
            a.losses.push(format!(
                "transaction{} {} committed at SCN {c1} {} never published",
                if x1.len() == 1 { "" } else { "s" },
                x1.join(", "),
                if x1.len() == 1 { "is" } else { "are" }
            ));
        }
    } else if c1 == c0 {
        if !x0.is_empty() && x1.is_empty() {
            a.losses.push(format!(
                "the transactions committed at SCN {c0} other than {} are never published",
                x0.join(", ")
            ));
        } else if !x0.is_empty() {
            let added: Vec<&String> = x1.iter().filter(|x| !x0.contains(x)).collect();
            if !added.is_empty() {
                a.losses.push(format!(
                    "transaction{} {} committed at SCN {c1} {} never published",
                    if added.len() == 1 { "" } else { "s" },
                    added
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    if added.len() == 1 { "is" } else { "are" }
                ));
            }
        }
    } else {
        a.notes.push(format!(
            "the transactions committed at {} are published again (the consumer sees them twice)",
            scns(first_published(n), c0)
        ));
    }
    if n.resume_scn > o.resume_scn {
        a.losses.push(format!(
            "mining restarts at SCN {} instead of {}: the changes a transaction still open at the stored position made at {} are never published",
            n.resume_scn,
            o.resume_scn,
            scns(o.resume_scn, n.resume_scn - 1)
        ));
    }
}

fn captured(name: &str, settings: &Settings) -> bool {
    name.parse()
        .map(|t| settings.is_captured(&t))
        .unwrap_or(false)
}

/// Whether `new` keeps reading a table that was not done, from where it was or earlier.
fn moved(old: &TableProgress, new: &TableProgress) -> Option<String> {
    match (new.state, &new.next) {
        (TableState::Done, _) => None,
        (_, None) => None,
        (_, Some(n)) if old.next.as_ref() == Some(n) => None,
        (_, Some(n)) => Some(format!(
            "its next chunk moves from {} to {}: the rows in between are never read",
            old.next
                .as_ref()
                .map_or("its first row".to_string(), resume_text),
            resume_text(n)
        )),
    }
}

fn snapshot(
    old: Option<&SnapshotState>,
    new: Option<&SnapshotState>,
    settings: &Settings,
    a: &mut Analysis,
) {
    let Some(old) = old else { return };
    // An unfinished snapshot re-adds captured tables it lacks, from their first row.
    let reread = new.is_some_and(|n| !n.completed);
    for (name, p) in &old.tables {
        let Some(left) = remaining_text(Some(p)) else {
            continue;
        };
        match new.and_then(|n| n.tables.get(name)) {
            Some(np) if np.state == TableState::Done => a.losses.push(format!(
                "{name} counts as snapshotted, but {left}: they are never read"
            )),
            Some(np) => {
                if let Some(m) = moved(p, np) {
                    a.losses.push(format!("{name}: {m}"));
                }
            }
            None if !captured(name, settings) => a.notes.push(format!(
                "{name} leaves the snapshot unfinished; it is not captured by the settings any more"
            )),
            None if reread => a.notes.push(format!(
                "{name} is read again from its first row by the unfinished snapshot"
            )),
            None => a.losses.push(format!(
                "{name} leaves the snapshot unfinished: {left}, and they are never read"
            )),
        }
    }
    if let Some(new) = new {
        for (name, np) in &new.tables {
            let Some(op) = old.tables.get(name) else {
                continue;
            };
            if op.state == TableState::Done && np.state != TableState::Done {
                a.notes.push(format!(
                    "{name} is snapshotted again: the {} rows read before are delivered again",
                    op.rows
                ));
            }
        }
    }
}

fn signals(old: &Offsets, new: &Offsets, a: &mut Analysis) {
    for os in &old.signals {
        let ns = new.signals.iter().find(|s| s.id == os.id);
        for t in &os.tables {
            let op = os.progress.get(t);
            let Some(left) = remaining_text(op) else {
                continue;
            };
            let np = ns.and_then(|s| s.tables.contains(t).then(|| s.progress.get(t)));
            match (ns, np) {
                (None, _) => a.losses.push(format!(
                    "signal snapshot {} ({}) is dropped: for {t} {left}, and they are never read",
                    os.id, os.kind
                )),
                (Some(_), None) => a.losses.push(format!(
                    "{t} leaves signal snapshot {}: {left}, and they are never read",
                    os.id
                )),
                (Some(_), Some(Some(np))) if np.state == TableState::Done => {
                    a.losses.push(format!(
                        "{t} counts as done in signal snapshot {}, but {left}: they are never read",
                        os.id
                    ))
                }
                (Some(_), Some(Some(np))) => {
                    let from = op
                        .cloned()
                        .unwrap_or_else(|| TableProgress::new(&np.strategy));
                    if let Some(m) = moved(&from, np) {
                        a.losses
                            .push(format!("{t} in signal snapshot {}: {m}", os.id));
                    }
                }
                (Some(_), Some(None)) => {}
            }
        }
    }
    for ns in &new.signals {
        if !old.signals.iter().any(|s| s.id == ns.id) {
            a.notes.push(format!(
                "signal snapshot {} ({}) of {} runs on the next start",
                ns.id,
                ns.kind,
                ns.tables.join(", ")
            ));
        }
    }
}

#[cfg(test)]
#[path = "losses_tests.rs"]
mod tests;
