use super::*;
use crate::errors::Code;
use crate::offsets::fixtures::*;
use crate::offsets::losses::analyze;
use crate::offsets::{validate, ExportSpec, ResumePoint};
use crate::types::Value;
use chrono::TimeZone;

fn now() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc
        .with_ymd_and_hms(2025, 1, 31, 14, 25, 1)
        .unwrap()
}

fn run(op: Operation, old: &Offsets) -> Result<Applied> {
    let settings = settings();
    let ctx = Context {
        settings: &settings,
        live: None,
        now: now(),
    };
    let applied = apply(&op, Some(old), &ctx)?;
    validate::check(&applied.offsets, Some(old), &settings)?;
    Ok(applied)
}

fn run_live(op: Operation, old: Option<&Offsets>, live: &Live) -> Result<Applied> {
    let settings = settings();
    let ctx = Context {
        settings: &settings,
        live: Some(live),
        now: now(),
    };
    apply(&op, old, &ctx)
}

fn set_scn(scn: Scn) -> Operation {
    Operation::SetScn {
        scn,
        resume_scn: None,
        skip_xids: vec![],
    }
}

fn losses(old: &Offsets, new: &Offsets) -> Vec<String> {
    analyze(Some(old), new, &settings()).losses
}

#[test]
fn set_scn_forward_keeps_open_transactions_whole_and_names_the_skipped_commits() {
    let old = streaming();
    let new = run(set_scn(1000200), &old).unwrap().offsets;
    let s = new.stream.clone().unwrap();
    assert_eq!(
        s.resume_scn, 1000090,
        "mining still starts at the stored resume SCN"
    );
    assert_eq!(s.commit_scn, 1000199);
    assert!(s.commit_xids.is_empty());
    assert_eq!(s.threads.get(&1), Some(&1000199));
    assert_eq!(
        losses(&old, &new),
        vec![format!(
            "every transaction committed at SCNs 1000120 to 1000199 (at SCN 1000120 all but {XID_A}, already published) is never published"
        )]
    );
}

#[test]
fn set_scn_back_publishes_again_and_loses_nothing() {
    let old = streaming();
    let new = run(set_scn(1000050), &old).unwrap().offsets;
    let s = new.stream.clone().unwrap();
    assert_eq!((s.resume_scn, s.commit_scn), (1000050, 1000049));
    let a = analyze(Some(&old), &new, &settings());
    assert!(a.losses.is_empty(), "{a:?}");
    assert!(
        a.notes[0].contains("SCNs 1000050 to 1000120 are published again"),
        "{a:?}"
    );
}

#[test]
fn set_scn_skip_xid_skips_exactly_that_transaction() {
    let old = streaming();
    let op = Operation::SetScn {
        scn: 1000120,
        resume_scn: None,
        skip_xids: vec![XID_B.to_ascii_uppercase()],
    };
    let new = run(op, &old).unwrap().offsets;
    let s = new.stream.clone().unwrap();
    assert_eq!(s.commit_scn, 1000120);
    assert_eq!(s.commit_xids, vec![XID_A.to_string(), XID_B.to_string()]);
    assert_eq!(
        losses(&old, &new),
        vec![format!(
            "transaction {XID_B} committed at SCN 1000120 is never published"
        )]
    );
    // A poison transaction further on: everything before it and it are skipped.
    let op = Operation::SetScn {
        scn: 1000150,
        resume_scn: Some(1000150),
        skip_xids: vec![XID_B.into()],
    };
    let new = run(op, &old).unwrap().offsets;
    let l = losses(&old, &new);
    assert_eq!(l.len(), 3, "{l:?}");
    assert!(l[0].contains("SCNs 1000120 to 1000149"));
    assert!(l[1].contains(XID_B));
    assert!(l[2].contains("mining restarts at SCN 1000150 instead of 1000090"));
}

#[test]
fn set_scn_refuses_bad_arguments() {
    let old = streaming();
    for (op, needle) in [
        (set_scn(0), "SCNs start at 1"),
        (
            Operation::SetScn {
                scn: 1000200,
                resume_scn: Some(1000201),
                skip_xids: vec![],
            },
            "--resume-scn 1000201 is after SCN 1000200",
        ),
        (
            Operation::SetScn {
                scn: 1000200,
                resume_scn: None,
                skip_xids: vec!["0A00".into()],
            },
            "--skip-xid `0A00` is not a transaction id",
        ),
    ] {
        let e = run(op, &old).unwrap_err();
        assert_eq!(e.code(), Code::Cdc7008);
        assert!(e.to_string().contains(needle), "{e}");
    }
}

#[test]
fn set_scn_with_the_database_checks_the_retained_logs() {
    let old = streaming();
    let live = live(1000300, 1000080);
    assert!(run_live(set_scn(1000250), Some(&old), &live).is_ok());
    let e = run_live(set_scn(1000301), Some(&old), &live).unwrap_err();
    assert_eq!(e.code(), Code::Cdc7007);
    assert!(
        e.to_string()
            .contains("after the database's current SCN 1000300"),
        "{e}"
    );
    let e = run_live(set_scn(1000070), Some(&old), &live).unwrap_err();
    assert!(
        e.to_string()
            .contains("older than the oldest retained redo log (first SCN 1000080)"),
        "{e}"
    );
    // The stored resume SCN is gone: say which --resume-scn would do.
    let live = self::live(1000300, 1000100);
    let e = run_live(set_scn(1000250), Some(&old), &live).unwrap_err();
    assert_eq!(e.code(), Code::Cdc7007);
    assert!(e.to_string().contains("pass --resume-scn 1000100"), "{e}");
}

#[test]
fn set_scn_starts_offsets_only_with_the_database() {
    let live = live(1000300, 1000000);
    let a = run_live(set_scn(1000250), None, &live).unwrap();
    assert_eq!(a.offsets.database, identity());
    let s = a.offsets.stream.unwrap();
    assert_eq!((s.resume_scn, s.commit_scn), (1000250, 1000249));
    let settings = settings();
    let ctx = Context {
        settings: &settings,
        live: None,
        now: now(),
    };
    let e = apply(&set_scn(1000250), None, &ctx).unwrap_err();
    assert_eq!(e.code(), Code::Cdc7008);
    let e = apply(&Operation::ResetTable("SALES.ORDERS".into()), None, &ctx).unwrap_err();
    assert!(e.to_string().contains("no offsets"), "{e}");
}

#[test]
fn reset_table_reads_exactly_that_table_again() {
    let old = streaming();
    let a = run(Operation::ResetTable("sales.orders".into()), &old).unwrap();
    let s = a.offsets.snapshot.clone().unwrap();
    assert_eq!(s.tables["SALES.ORDERS"], TableProgress::new("key"));
    assert_eq!(
        s.tables["SALES.EVENTS"],
        old.snapshot.as_ref().unwrap().tables["SALES.EVENTS"]
    );
    assert!(!s.completed);
    assert_eq!(s.records, 4);
    assert_eq!(
        a.offsets.stream, old.stream,
        "streaming goes on where it was"
    );
    assert!(losses(&old, &a.offsets).is_empty());
    // Held by a signal snapshot: that one reads it again, the completed snapshot stays so.
    let old = mid_signal();
    let a = run(Operation::ResetTable("SALES.ORDERS".into()), &old).unwrap();
    assert_eq!(
        a.offsets.signals[0].progress["SALES.ORDERS"],
        TableProgress::new("key")
    );
    assert_eq!(a.offsets.snapshot, old.snapshot);
    // … but an unfinished snapshot starts it over too.
    let mut old = mid_snapshot();
    old.signals = mid_signal().signals;
    let a = run(Operation::ResetTable("SALES.ORDERS".into()), &old).unwrap();
    assert_eq!(
        a.offsets.snapshot.as_ref().unwrap().tables["SALES.ORDERS"],
        TableProgress::new("key")
    );
    assert_eq!(
        a.offsets.signals[0].progress["SALES.ORDERS"],
        TableProgress::new("key")
    );
}

#[test]
fn reset_table_of_a_table_never_snapshotted_starts_an_incremental_signal_snapshot() {
    let old = streaming();
    let a = run(Operation::ResetTable("SALES.REFUNDS".into()), &old).unwrap();
    let sig = &a.offsets.signals[0];
    assert_eq!(sig.id, "offsets-edit-20250131T142501Z");
    assert_eq!(sig.kind, "incremental");
    assert_eq!(sig.tables, vec!["SALES.REFUNDS".to_string()]);
    // Not in an export: an export only holds its own tables.
    let mut export = streaming();
    export.stream = None;
    export.export = Some(ExportSpec {
        format: "jsonl".into(),
        tables: vec!["SALES.EVENTS".into(), "SALES.ORDERS".into()],
    });
    let e = run(Operation::ResetTable("SALES.REFUNDS".into()), &export).unwrap_err();
    assert!(e.to_string().contains("not part of this export"), "{e}");
    let e = run(set_scn(1000200), &export).unwrap_err();
    assert!(e.to_string().contains("no stream position to set"), "{e}");
    // Not captured: refused, naming the settings.
    let e = run(Operation::ResetTable("HR.EMP".into()), &old).unwrap_err();
    assert_eq!(e.code(), Code::Cdc7008);
    assert!(
        e.to_string()
            .contains("HR.EMP is not captured by the settings (cdc.tables.include is SALES.*)"),
        "{e}"
    );
}

#[test]
fn mark_done_skips_the_unread_rows_and_says_from_where() {
    let old = mid_snapshot();
    let a = run(Operation::MarkDone("SALES.ORDERS".into()), &old).unwrap();
    let p = &a.offsets.snapshot.as_ref().unwrap().tables["SALES.ORDERS"];
    assert_eq!(
        (p.state, p.rows, p.next.clone()),
        (TableState::Done, 5, None)
    );
    assert_eq!(
        losses(&old, &a.offsets),
        vec!["SALES.ORDERS counts as snapshotted, but the rows from key (6) on are not read yet (5 rows in 1 chunk are): they are never read"]
    );
    // Already done: nothing changes.
    let again = run(Operation::MarkDone("SALES.ORDERS".into()), &a.offsets).unwrap();
    assert_eq!(again.offsets, a.offsets);
    assert!(again.notes[0].contains("already done"));
    // In a signal snapshot: a table not started there leaves it.
    let old = mid_signal();
    let a = run(Operation::MarkDone("SALES.EVENTS".into()), &old).unwrap();
    assert_eq!(
        a.offsets.signals[0].tables,
        vec!["SALES.ORDERS".to_string()]
    );
    assert_eq!(
        losses(&old, &a.offsets),
        vec!["SALES.EVENTS leaves signal snapshot sig-1: none of its rows are read yet, and they are never read"]
    );
    let e = run(Operation::MarkDone("SALES.REFUNDS".into()), &old).unwrap_err();
    assert!(
        e.to_string().contains(
            "SALES.REFUNDS is in no snapshot of these offsets (tables: SALES.EVENTS, SALES.ORDERS)"
        ),
        "{e}"
    );
}

#[test]
fn forget_table_removes_it_everywhere() {
    let old = mid_signal();
    let a = run(Operation::ForgetTable("SALES.ORDERS".into()), &old).unwrap();
    let s = a.offsets.snapshot.as_ref().unwrap();
    assert!(!s.tables.contains_key("SALES.ORDERS") && s.order == vec!["SALES.EVENTS"]);
    assert_eq!(s.records, 4);
    assert_eq!(
        a.offsets.signals[0].tables,
        vec!["SALES.EVENTS".to_string()]
    );
    assert!(!a.offsets.signals[0].progress.contains_key("SALES.ORDERS"));
    // Done in the snapshot (nothing lost there), unfinished in the signal (lost).
    assert_eq!(
        losses(&old, &a.offsets),
        vec!["SALES.ORDERS leaves signal snapshot sig-1: the rows from key (9) on are not read yet (8 rows in 2 chunks are), and they are never read"]
    );
    // Forgetting a table of an unfinished snapshot reads it again: nothing lost.
    let old = mid_snapshot();
    let a = run(Operation::ForgetTable("SALES.ORDERS".into()), &old).unwrap();
    let an = analyze(Some(&old), &a.offsets, &settings());
    assert!(an.losses.is_empty(), "{an:?}");
    assert!(
        an.notes[0].contains("read again from its first row"),
        "{an:?}"
    );
    // The last table of a signal snapshot takes the signal with it.
    let mut old = mid_signal();
    old.signals[0].tables.retain(|t| t == "SALES.ORDERS");
    let a = run(Operation::ForgetTable("SALES.ORDERS".into()), &old).unwrap();
    assert!(a.offsets.signals.is_empty());
}

#[test]
fn drop_signal_names_what_it_leaves_unread() {
    let old = mid_signal();
    let a = run(Operation::DropSignal("sig-1".into()), &old).unwrap();
    assert!(a.offsets.signals.is_empty());
    let l = losses(&old, &a.offsets);
    assert_eq!(l.len(), 2, "{l:?}");
    assert!(l[0].starts_with(
        "signal snapshot sig-1 (incremental) is dropped: for SALES.ORDERS the rows from key (9) on"
    ));
    assert!(l[1].contains("for SALES.EVENTS none of its rows are read yet"));
    let e = run(Operation::DropSignal("sig-2".into()), &old).unwrap_err();
    assert!(
        e.to_string()
            .contains("no signal snapshot `sig-2` in the offsets (signals: sig-1)"),
        "{e}"
    );
}

#[test]
fn owner_table_names_find_their_pdb_table_unless_ambiguous() {
    let names = vec!["PDB1.APP.ORDERS".to_string(), "PDB1.APP.EVENTS".to_string()];
    let t: crate::names::TableName = "app.orders".parse().unwrap();
    assert_eq!(
        find_table(&names, &t).unwrap().as_deref(),
        Some("PDB1.APP.ORDERS")
    );
    let names = vec!["PDB1.APP.ORDERS".to_string(), "PDB2.APP.ORDERS".to_string()];
    let e = find_table(&names, &t).unwrap_err();
    assert!(e.to_string().contains("ambiguous"), "{e}");
    let t: crate::names::TableName = "pdb2.app.orders".parse().unwrap();
    assert_eq!(
        find_table(&names, &t).unwrap().as_deref(),
        Some("PDB2.APP.ORDERS")
    );
}

#[test]
fn resume_points_survive_edits_untouched() {
    let old = mid_snapshot();
    let a = run(Operation::MarkDone("SALES.EVENTS".into()), &old).unwrap();
    assert_eq!(
        a.offsets.snapshot.as_ref().unwrap().tables["SALES.ORDERS"].next,
        Some(ResumePoint::Key(vec![Value::Number("6".into())]))
    );
}

#[test]
fn xids_are_stored_in_one_case() {
    // Upper case typed on the command line is stored as capture stores XIDs: lower case.
    let old = streaming();
    let op = Operation::SetScn {
        scn: 1000120,
        resume_scn: None,
        skip_xids: vec!["0B000200D4020000".into()],
    };
    let new = run(op, &old).unwrap().offsets;
    assert_eq!(
        new.stream.unwrap().commit_xids,
        vec![XID_A.to_string(), "0b000200d4020000".to_string()]
    );
    // A file with upper-case XIDs (a hand edit, an older oracle-cdc) is read in lower case.
    let mut upper = streaming();
    upper.stream.as_mut().unwrap().commit_xids = vec!["0A001B00C3010000".into()];
    let text = String::from_utf8(upper.to_bytes().unwrap()).unwrap();
    let (read, _) = Offsets::parse(std::path::Path::new("o.json"), &text).unwrap();
    assert_eq!(read.stream.unwrap().commit_xids, vec![XID_A.to_string()]);
}
