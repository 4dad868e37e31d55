//! Hand edits (`--interactive`) are weighed like operations: every way to skip data is caught.

use super::*;
use crate::offsets::fixtures::*;
use crate::offsets::{ResumePoint, SchemaHistoryPosition, SinkPosition};

fn weigh(old: &Offsets, edit: impl FnOnce(&mut Offsets)) -> Analysis {
    let mut new = old.clone();
    edit(&mut new);
    analyze(Some(old), &new, &settings())
}

#[test]
fn an_unchanged_file_loses_nothing() {
    for o in [fresh(), mid_snapshot(), streaming(), mid_signal()] {
        assert_eq!(weigh(&o, |_| {}), Analysis::default());
    }
}

#[test]
fn stream_edits() {
    let old = streaming();
    let a = weigh(&old, |n| n.stream = None);
    assert!(
        a.losses[0].starts_with("the stream position (commit SCN 1000120) is removed"),
        "{a:?}"
    );
    // Moving mining's start forward loses the early changes of open transactions.
    let a = weigh(&old, |n| {
        if let Some(s) = n.stream.as_mut() {
            s.resume_scn = 1000100;
        }
    });
    assert_eq!(
        a.losses,
        vec!["mining restarts at SCN 1000100 instead of 1000090: the changes a transaction still open at the stored position made at SCNs 1000090 to 1000099 are never published"]
    );
    // Forgetting the XIDs at the commit SCN counts every transaction there as published.
    let a = weigh(&old, |n| {
        if let Some(s) = n.stream.as_mut() {
            s.commit_xids.clear();
        }
    });
    assert_eq!(
        a.losses,
        vec![format!(
            "the transactions committed at SCN 1000120 other than {XID_A} are never published"
        )]
    );
    // Moving back to mine earlier loses nothing.
    let a = weigh(&old, |n| {
        if let Some(s) = n.stream.as_mut() {
            s.resume_scn = 1000000;
        }
    });
    assert!(a.losses.is_empty(), "{a:?}");
}

#[test]
fn a_first_stream_position_skips_the_initial_snapshot() {
    let old = fresh();
    let a = weigh(&old, |n| {
        n.stream = Some(StreamPosition {
            resume_scn: 1000500,
            commit_scn: 1000499,
            commit_xids: vec![],
            threads: Default::default(),
        })
    });
    assert!(a.losses[0].starts_with("no initial snapshot"), "{a:?}");
    assert!(a.losses[0].contains("before SCN 1000500"), "{a:?}");
    let none = crate::settings::Settings::from_pairs(&["cdc.snapshot.mode=none"]).unwrap();
    let mut new = old.clone();
    new.stream = Some(StreamPosition {
        resume_scn: 1000500,
        commit_scn: 1000499,
        commit_xids: vec![],
        threads: Default::default(),
    });
    let a = analyze(Some(&old), &new, &none);
    assert!(a.losses.is_empty(), "{a:?}");
}

#[test]
fn snapshot_edits() {
    let old = mid_snapshot();
    // The next chunk moved forward by hand.
    let a = weigh(&old, |n| {
        if let Some(p) = n
            .snapshot
            .as_mut()
            .and_then(|s| s.tables.get_mut("SALES.ORDERS"))
        {
            p.next = key(11);
        }
    });
    assert_eq!(
        a.losses,
        vec!["SALES.ORDERS: its next chunk moves from key (6) to key (11): the rows in between are never read"]
    );
    // A not-started table given a start point.
    let a = weigh(&old, |n| {
        if let Some(p) = n
            .snapshot
            .as_mut()
            .and_then(|s| s.tables.get_mut("SALES.EVENTS"))
        {
            p.state = TableState::InProgress;
            p.next = Some(ResumePoint::Rowid("AAAR0pAAEAAAACQAAA".into()));
        }
    });
    assert!(
        a.losses[0].contains("moves from its first row to ROWID AAAR0pAAEAAAACQAAA"),
        "{a:?}"
    );
    // The whole snapshot removed, or marked complete.
    let a = weigh(&old, |n| n.snapshot = None);
    assert_eq!(a.losses.len(), 2, "{a:?}");
    let a = weigh(&old, |n| {
        if let Some(s) = n.snapshot.as_mut() {
            s.tables.remove("SALES.EVENTS");
            s.order.retain(|t| t != "SALES.EVENTS");
            s.completed = true;
            if let Some(p) = s.tables.get_mut("SALES.ORDERS") {
                p.state = TableState::Done;
            }
        }
    });
    assert_eq!(a.losses.len(), 2, "{a:?}");
    assert!(
        a.losses[0].starts_with("SALES.EVENTS leaves the snapshot unfinished: none of its rows")
    );
    // Moving a resume point back reads rows again: no loss.
    let a = weigh(&old, |n| {
        if let Some(p) = n
            .snapshot
            .as_mut()
            .and_then(|s| s.tables.get_mut("SALES.ORDERS"))
        {
            p.next = None;
        }
    });
    assert!(a.losses.is_empty(), "{a:?}");
}

#[test]
fn signal_sink_and_schema_history_edits() {
    let old = mid_signal();
    let a = weigh(&old, |n| {
        if let Some(p) = n.signals[0].progress.get_mut("SALES.ORDERS") {
            p.state = TableState::Done;
        }
    });
    assert_eq!(a.losses.len(), 1, "{a:?}");
    assert!(a.losses[0].starts_with("SALES.ORDERS counts as done in signal snapshot sig-1"));
    let a = weigh(&old, |n| n.signals[0].paused = true);
    assert!(a.losses.is_empty(), "pausing loses nothing: {a:?}");
    let a = weigh(&old, |n| {
        n.sink = Some(SinkPosition::File {
            segment: "00000001.jsonl".into(),
            bytes: 0,
            records: 0,
        })
    });
    assert!(a.losses[0].starts_with("the sink position changes (00000001.jsonl at byte 40960, 96 records → 00000001.jsonl at byte 0, 0 records)"), "{a:?}");
    let a = weigh(&old, |n| {
        n.schema_history = Some(SchemaHistoryPosition { entries: 1 })
    });
    assert!(a.losses[0].contains("(2 entries → 1 entries)"), "{a:?}");
}
