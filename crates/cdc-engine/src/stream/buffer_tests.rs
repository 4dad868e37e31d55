//! The transaction buffer: commit and rollback, undo rows, CSF pieces and partial XIDs,
//! spilling over the memory limit.

use super::*;

fn row(code: u32, scn: Scn, xid: &str, rid: &str, sql: &str) -> LogMinerRow {
    LogMinerRow {
        scn,
        commit_scn: (code == op::COMMIT).then_some(scn),
        start_scn: None,
        timestamp: String::new(),
        commit_timestamp: None,
        xid: xid.into(),
        xidusn: 0,
        xidslt: 0,
        xidsqn: 0,
        operation_code: code,
        operation: op::name(code).into(),
        seg_owner: None,
        table_name: None,
        row_id: rid.into(),
        sql_redo: sql.into(),
        csf: 0,
        rollback: 0,
        rs_id: String::new(),
        ssn: 0,
        thread: 1,
        sequence: 1,
        status: 0,
        info: None,
        src_con_name: String::new(),
        username: String::new(),
        data_obj: 0,
    }
}

const X: &str = "0200030004000000";

#[test]
fn commit_returns_changes_rollback_drops_them() {
    let mut b = TxBuffer::default();
    assert!(b.push(row(op::START, 10, X, "", "")).unwrap().is_none());
    b.push(row(op::INSERT, 11, X, "R1", "i1")).unwrap();
    assert_eq!(b.oldest_start(), Some(10));
    let c = b.push(row(op::COMMIT, 12, X, "", "")).unwrap().unwrap();
    let rows = c.rows.collect_vec().unwrap();
    assert_eq!(
        (c.start, c.commit_scn, rows.len()),
        (TxStart::Seen(10), 12, 1)
    );
    assert_eq!(b.open_transactions(), 0);
    b.push(row(op::START, 13, X, "", "")).unwrap();
    b.push(row(op::INSERT, 14, X, "R2", "i2")).unwrap();
    assert!(b.push(row(op::ROLLBACK, 15, X, "", "")).unwrap().is_none());
    assert_eq!(b.open_transactions(), 0);
}

#[test]
fn undo_rows_cancel_the_newest_change_of_their_row() {
    let mut b = TxBuffer::default();
    b.push(row(op::START, 1, X, "", "")).unwrap();
    b.push(row(op::INSERT, 2, X, "A", "insert a")).unwrap();
    b.push(row(op::UPDATE, 3, X, "A", "update a")).unwrap();
    b.push(row(op::INSERT, 4, X, "B", "insert b")).unwrap();
    let mut undo_b = row(op::DELETE, 5, X, "B", "");
    undo_b.rollback = 1;
    let mut undo_a = row(op::UPDATE, 6, X, "A", "");
    undo_a.rollback = 1;
    b.push(undo_b).unwrap();
    b.push(undo_a).unwrap();
    let c = b.push(row(op::COMMIT, 7, X, "", "")).unwrap().unwrap();
    let rows = c.rows.collect_vec().unwrap();
    let sql: Vec<&str> = rows.iter().map(|r| r.sql_redo.as_str()).collect();
    assert_eq!(sql, vec!["insert a"]);
}

#[test]
fn csf_pieces_are_joined_and_partial_xids_matched() {
    let mut b = TxBuffer::default();
    let mut p1 = row(
        op::INSERT,
        2,
        "02000300ffffffff",
        "A",
        "insert into \"O\".\"T\"(\"C\") values ('ab",
    );
    p1.csf = 1;
    b.push(p1).unwrap();
    b.push(row(op::INSERT, 2, "02000300ffffffff", "A", "cd');"))
        .unwrap();
    b.push(row(op::UPDATE, 3, "02000300ffffffff", "A", "update"))
        .unwrap();
    let c = b
        .push(row(op::COMMIT, 4, "0200030004000000", "", ""))
        .unwrap()
        .unwrap();
    let (start, rows) = (c.start, c.rows.collect_vec().unwrap());
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows[0].sql_redo,
        "insert into \"O\".\"T\"(\"C\") values ('abcd');"
    );
    assert_eq!(
        start,
        TxStart::Unseen { reported: None },
        "seen from its middle: its START was not mined"
    );
    assert_eq!(b.open_transactions(), 0);
}

fn files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

fn sqls(c: Committed) -> Vec<String> {
    c.rows
        .collect_vec()
        .unwrap()
        .into_iter()
        .map(|r| r.sql_redo)
        .collect()
}

fn undo(code: u32, scn: Scn, xid: &str, rid: &str) -> LogMinerRow {
    let mut r = row(code, scn, xid, rid, "");
    r.rollback = 1;
    r
}

/// A limit a few rows fit in.
const TINY: u64 = 2_000;

#[test]
fn over_the_limit_the_largest_transaction_spills_and_comes_back_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let spill = dir.path().join("spill");
    std::fs::create_dir_all(&spill).unwrap();
    std::fs::write(spill.join("tx-1-leftover.spill"), b"old").unwrap();
    let mut b = TxBuffer::new(TINY, spill.clone()).unwrap();
    assert!(files(&spill).is_empty(), "cleaned at startup");
    const Y: &str = "0300040005000000";
    b.push(row(op::START, 1, X, "", "")).unwrap();
    b.push(row(op::START, 1, Y, "", "")).unwrap();
    b.push(row(op::INSERT, 2, Y, "Y1", "y1")).unwrap();
    for i in 0..40u64 {
        b.push(row(
            op::INSERT,
            3 + i,
            X,
            &format!("R{i}"),
            &format!("x{i}"),
        ))
        .unwrap();
        assert!(b.memory_bytes() <= TINY, "{}", b.memory_bytes());
    }
    assert_eq!(b.buffered_rows(), 41);
    assert!(b.spilled_bytes() > 0);
    let on_disk = files(&spill);
    assert_eq!(on_disk.len(), 1, "only the large transaction spilled");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&on_disk[0]).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let c = b.push(row(op::COMMIT, 50, X, "", "")).unwrap().unwrap();
    assert_eq!(c.start, TxStart::Seen(1));
    let want: Vec<String> = (0..40).map(|i| format!("x{i}")).collect();
    assert_eq!(sqls(c), want);
    assert!(files(&spill).is_empty(), "removed once read");
    // A rolled-back spilled transaction leaves no file behind either.
    for i in 0..40u64 {
        b.push(row(op::INSERT, 60 + i, Y, "Y2", "y")).unwrap();
    }
    assert_eq!(files(&spill).len(), 1);
    b.push(row(op::ROLLBACK, 200, Y, "", "")).unwrap();
    assert!(files(&spill).is_empty());
    assert_eq!((b.open_transactions(), b.memory_bytes()), (0, 0));
}

#[test]
fn undo_rows_cancel_changes_across_the_spill_boundary() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = TxBuffer::new(TINY, dir.path().join("spill")).unwrap();
    b.push(row(op::START, 1, X, "", "")).unwrap();
    b.push(row(op::INSERT, 2, X, "A", "insert a")).unwrap();
    b.push(row(op::UPDATE, 3, X, "A", "update a")).unwrap();
    b.push(row(op::LOB_WRITE, 3, X, "A", "lob a")).unwrap();
    b.push(row(op::INSERT, 4, X, "C", "insert c")).unwrap();
    for i in 0..20u64 {
        b.push(row(
            op::INSERT,
            5 + i,
            X,
            &format!("F{i}"),
            &format!("f{i}"),
        ))
        .unwrap();
    }
    // A row over the limit spills everything before it.
    let big = "x".repeat(TINY as usize);
    b.push(row(op::INSERT, 29, X, "BIG", &big)).unwrap();
    assert_eq!(b.memory_bytes(), 0, "everything is on disk");
    let before = b.spilled_bytes();
    b.push(row(op::INSERT, 30, X, "B", "insert b")).unwrap();
    // Newest first: B (in memory), then BIG and the newest F (on disk, at the tail).
    b.push(undo(op::DELETE, 31, X, "B")).unwrap();
    b.push(undo(op::DELETE, 32, X, "BIG")).unwrap();
    assert!(b.spilled_bytes() < before, "a cancelled tail is cut off");
    b.push(undo(op::DELETE, 32, X, "F19")).unwrap();
    // A's update and its LOB write, in the middle of the file.
    b.push(undo(op::UPDATE, 33, X, "A")).unwrap();
    b.push(undo(op::DELETE, 34, X, "NOT-THERE")).unwrap();
    assert_eq!(b.buffered_rows(), 21);
    let c = b.push(row(op::COMMIT, 40, X, "", "")).unwrap().unwrap();
    let mut want = vec!["insert a".to_string(), "insert c".to_string()];
    want.extend((0..19).map(|i| format!("f{i}")));
    assert_eq!(sqls(c), want);
}

#[test]
fn lob_writes_of_an_undone_spilled_change_are_cancelled_in_memory_too() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = TxBuffer::new(TINY, dir.path().join("spill")).unwrap();
    for i in 0..10u64 {
        b.push(row(
            op::INSERT,
            1 + i,
            X,
            &format!("F{i}"),
            &format!("f{i}"),
        ))
        .unwrap();
    }
    b.push(row(op::INSERT, 20, X, "A", "insert a")).unwrap();
    // Enough to spill everything so far; the LOB write lands in memory afterwards.
    let big = "x".repeat(TINY as usize);
    b.push(row(op::INSERT, 21, X, "BIG", &big)).unwrap();
    assert_eq!(b.memory_bytes(), 0);
    b.push(undo(op::DELETE, 22, X, "BIG")).unwrap();
    b.push(row(op::LOB_WRITE, 23, X, "A", "lob a")).unwrap();
    b.push(undo(op::DELETE, 24, X, "A")).unwrap();
    let c = b.push(row(op::COMMIT, 30, X, "", "")).unwrap().unwrap();
    let want: Vec<String> = (0..10).map(|i| format!("f{i}")).collect();
    assert_eq!(sqls(c), want);
}

#[test]
fn partial_xid_rows_merge_by_scn_when_both_parts_spilled() {
    let dir = tempfile::tempdir().unwrap();
    let spill = dir.path().join("spill");
    let mut b = TxBuffer::new(TINY, spill.clone()).unwrap();
    const P: &str = "02000300ffffffff";
    for i in 0..20u64 {
        b.push(row(op::INSERT, 2 * i, P, "P", &format!("p{i}")))
            .unwrap();
    }
    b.push(row(op::START, 40, X, "", "")).unwrap();
    for i in 20..40u64 {
        // Later partial-XID rows join the full XID once it is known.
        let xid = if i % 2 == 0 { P } else { X };
        b.push(row(op::INSERT, 2 * i, xid, "Q", &format!("q{i}")))
            .unwrap();
    }
    assert!(!files(&spill).is_empty());
    let c = b.push(row(op::COMMIT, 100, X, "", "")).unwrap().unwrap();
    assert_eq!(c.start, TxStart::Seen(40));
    let mut want: Vec<String> = (0..20).map(|i| format!("p{i}")).collect();
    want.extend((20..40).map(|i| format!("q{i}")));
    assert_eq!(sqls(c), want);
    assert_eq!(b.open_transactions(), 0);
    assert!(files(&spill).is_empty());
}

#[test]
fn csf_pieces_are_joined_with_a_tiny_limit() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = TxBuffer::new(1, dir.path().join("spill")).unwrap();
    for i in 0..5u64 {
        let mut p1 = row(op::INSERT, 2 + i, X, "A", &format!("insert {i} ('ab"));
        p1.csf = 1;
        b.push(p1).unwrap();
        let mut p2 = row(op::INSERT, 2 + i, X, "A", "cd");
        p2.csf = 1;
        b.push(p2).unwrap();
        b.push(row(op::INSERT, 2 + i, X, "A", "ef');")).unwrap();
        assert_eq!(b.memory_bytes(), 0, "every row spills at once");
    }
    b.push(undo(op::DELETE, 9, X, "A")).unwrap();
    let c = b.push(row(op::COMMIT, 10, X, "", "")).unwrap().unwrap();
    let want: Vec<String> = (0..4).map(|i| format!("insert {i} ('abcdef');")).collect();
    assert_eq!(sqls(c), want);
}

fn synthetic(i: u64, xid: &str) -> LogMinerRow {
    let mut r = row(
        op::INSERT,
        100 + i,
        xid,
        "AAAR0AAAEAAAAGFAAA",
        &format!(
            "insert into \"HR\".\"EVENTS\"(\"ID\",\"NAME\",\"AMOUNT\") values ('{i}','event number {i}','{}');",
            i % 1000
        ),
    );
    r.seg_owner = Some("HR".into());
    r.table_name = Some("EVENTS".into());
    r.timestamp = "2026-01-01 00:00:00".into();
    r.rs_id = " 0x000001.00000002.0010 ".into();
    r.ssn = i;
    r
}

/// Push `n` rows of one transaction under `limit`; check memory after every push, then
/// read everything back in order. Returns the peak of memory_bytes().
fn one_big_transaction(n: u64, limit: u64) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let mut b = TxBuffer::new(limit, dir.path().join("spill")).unwrap();
    b.push(row(op::START, 99, X, "", "")).unwrap();
    let mut peak = 0;
    for i in 0..n {
        b.push(synthetic(i, X)).unwrap();
        peak = peak.max(b.memory_bytes());
        assert!(b.memory_bytes() <= limit, "row {i}: {}", b.memory_bytes());
    }
    assert_eq!(b.buffered_rows() as u64, n);
    let c = b
        .push(row(op::COMMIT, 100 + n, X, "", ""))
        .unwrap()
        .unwrap();
    let mut seen = 0u64;
    for r in c.rows {
        let r = r.unwrap();
        assert_eq!((r.scn, r.ssn), (100 + seen, seen));
        seen += 1;
    }
    assert_eq!(seen, n);
    assert!(files(&dir.path().join("spill")).is_empty());
    peak
}

#[test]
fn two_million_changes_of_one_transaction_stay_under_the_limit() {
    let limit = 4 << 20;
    let peak = one_big_transaction(2_000_000, limit);
    assert!(peak > limit / 2, "the limit was used: {peak}");
}

/// Memory benchmark: peak RSS while buffering and reading back a 10M-change transaction
/// under the default limit (or `ORACLE_CDC_STREAM_BUFFER_MEMORY_BYTES`):
/// `cargo test --release --lib peak_rss -- --ignored --nocapture`
#[test]
#[ignore]
fn peak_rss_of_a_ten_million_change_transaction() {
    fn hwm_kib() -> u64 {
        std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmHWM:"))
                    .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
            })
            .unwrap_or(0)
    }
    // The setting's environment variable overrides the default limit for this measurement.
    let limit: u64 = std::env::var("ORACLE_CDC_STREAM_BUFFER_MEMORY_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(268_435_456);
    let start = std::time::Instant::now();
    let before = hwm_kib();
    one_big_transaction(10_000_000, limit);
    let after = hwm_kib();
    println!(
        "10M changes, limit {} MiB: VmHWM {} MiB before, {} MiB after, {:.1} s",
        limit >> 20,
        before >> 10,
        after >> 10,
        start.elapsed().as_secs_f64()
    );
    assert!(
        after * 1024 < limit * 3 + (64 << 20),
        "peak RSS {after} KiB"
    );
}

/// An XID is matched whatever its case, on the borrowed, lowered and (too long for the
/// scratch buffer) allocated paths alike.
#[test]
fn xids_match_in_any_case() {
    let long = "0A000B00C3010000".repeat(3);
    let long_lower = long.to_ascii_lowercase();
    for (upper, lower) in [
        ("0A000B00C3010000", "0a000b00c3010000"),
        (long.as_str(), long_lower.as_str()),
    ] {
        let mut b = TxBuffer::default();
        b.push(row(op::START, 1, upper, "", "")).unwrap();
        b.push(row(op::INSERT, 2, lower, "R1", "i1")).unwrap();
        b.push(row(op::INSERT, 3, upper, "R2", "i2")).unwrap();
        assert_eq!(b.open_transactions(), 1);
        let c = b.push(row(op::COMMIT, 4, upper, "", "")).unwrap().unwrap();
        assert_eq!((c.xid.as_str(), c.start), (lower, TxStart::Seen(1)));
        assert_eq!(c.rows.collect_vec().unwrap().len(), 2);
        assert_eq!(b.open_transactions(), 0);
    }
}

/// The START this run mined decides where a transaction began; the COMMIT row's START_SCN
/// (documented for COMMITTED_DATA_ONLY only, seen 0 by Debezium) never overrides it, and
/// counts for an unmined START only when it is an SCN before the commit.
#[test]
fn a_commit_rows_start_scn_never_overrides_the_mined_start() {
    let commit = |start_scn: Option<Scn>| {
        let mut r = row(op::COMMIT, 50, X, "", "");
        r.start_scn = start_scn;
        r
    };
    for reported in [None, Some(0), Some(1), Some(10), Some(45), Some(99)] {
        let mut b = TxBuffer::default();
        b.push(row(op::START, 40, X, "", "")).unwrap();
        b.push(row(op::INSERT, 41, X, "R1", "i1")).unwrap();
        let c = b.push(commit(reported)).unwrap().unwrap();
        assert_eq!(c.start, TxStart::Seen(40), "START_SCN {reported:?}");
    }
    for (reported, usable) in [
        (None, None),
        (Some(0), None),
        (Some(1), None),
        (Some(51), None),
        (Some(30), Some(30)),
        (Some(50), Some(50)),
    ] {
        let mut b = TxBuffer::default();
        b.push(row(op::INSERT, 41, X, "R1", "i1")).unwrap();
        let c = b.push(commit(reported)).unwrap().unwrap();
        assert_eq!(
            c.start,
            TxStart::Unseen { reported: usable },
            "START_SCN {reported:?}"
        );
    }
}

/// A COMMIT whose XID LogMiner could not complete (ffffffff) is published under the full XID
/// of the transaction it ends, as a run that mined its START names it.
#[test]
fn a_partial_commit_xid_is_published_under_the_full_one() {
    let mut b = TxBuffer::default();
    b.push(row(op::START, 40, X, "", "")).unwrap();
    b.push(row(op::INSERT, 41, X, "R1", "i1")).unwrap();
    let c = b
        .push(row(op::COMMIT, 50, "02000300FFFFFFFF", "", ""))
        .unwrap()
        .unwrap();
    assert_eq!(c.xid, X);
    assert_eq!(c.start, TxStart::Seen(40));
    assert_eq!(c.rows.collect_vec().unwrap().len(), 1);
}

/// A transaction that only STARTed (the mined rows hold no change of it) does not hold the
/// restart SCN back; once it changes a mined table it does, from its START.
#[test]
fn only_transactions_with_changes_hold_the_restart_back() {
    const Y: &str = "0300040005000000";
    let mut b = TxBuffer::default();
    b.push(row(op::START, 10, X, "", "")).unwrap();
    b.push(row(op::START, 20, Y, "", "")).unwrap();
    assert_eq!(b.oldest_start(), None);
    assert_eq!(b.open_transactions(), 2);
    b.push(row(op::INSERT, 30, Y, "R1", "i1")).unwrap();
    assert_eq!(b.oldest_start(), Some(20));
    b.push(row(op::INSERT, 40, X, "R2", "i2")).unwrap();
    assert_eq!(b.oldest_start(), Some(10));
    // A change undone since still counts: the transaction changed the table.
    let mut undo = row(op::DELETE, 41, X, "R2", "");
    undo.rollback = 1;
    b.push(undo).unwrap();
    assert_eq!(b.oldest_start(), Some(10));
}
