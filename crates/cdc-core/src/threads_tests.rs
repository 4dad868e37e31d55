use super::*;
use crate::errors::Code;

fn thread(n: u32, last: Scn, block: u64) -> RedoThread {
    RedoThread {
        thread: n,
        status: "OPEN".into(),
        enabled: "PUBLIC".into(),
        sequence: 1,
        last_redo_scn: last,
        last_redo_time: None,
        last_redo_sequence: Some(1),
        last_redo_block: Some(block),
        enabled_scn: Some(100),
    }
}

fn sample(at_ms: i64, scn: Scn, threads: Vec<RedoThread>) -> RedoSample {
    RedoSample {
        at_ms,
        scn,
        threads,
    }
}

#[test]
fn an_idle_thread_holds_the_bound_until_its_position_stood_still_for_the_quiet_period() {
    let mut idle = IdleThreads::new(5_000);
    // Thread 1 writes on; thread 2 wrote last at SCN 150 and stands still.
    let t2 = thread(2, 150, 7);
    assert_eq!(
        idle.bound(sample(0, 400, vec![thread(1, 390, 10), t2.clone()])),
        Some(149),
        "at first only the written redo is known: the frozen thread holds the bound"
    );
    assert_eq!(
        idle.bound(sample(1_000, 500, vec![thread(1, 490, 20), t2.clone()])),
        Some(149)
    );
    assert_eq!(
        idle.bound(sample(4_999, 800, vec![thread(1, 790, 30), t2.clone()])),
        Some(149),
        "not yet a quiet period since the first look"
    );
    // Five seconds after the look at SCN 400 thread 2 has not moved: its log buffer was empty
    // then, and what it writes later carries an SCN of at least 400.
    assert_eq!(
        idle.bound(sample(5_000, 900, vec![thread(1, 890, 40), t2.clone()])),
        Some(399)
    );
    // From the look at SCN 500 on, a second later.
    assert_eq!(
        idle.bound(sample(6_500, 950, vec![thread(1, 940, 50), t2.clone()])),
        Some(499)
    );
    // Both idle now: the newest look at least 5 s old (SCN 950) bounds both.
    assert_eq!(
        idle.bound(sample(20_000, 2_000, vec![thread(1, 940, 50), t2.clone()])),
        Some(949)
    );
    assert_eq!(
        idle.bound(sample(26_000, 2_100, vec![thread(1, 940, 50), t2])),
        Some(1_999)
    );
}

#[test]
fn a_thread_whose_position_moves_is_never_taken_for_idle() {
    let mut idle = IdleThreads::new(3_000);
    // Thread 2 keeps LAST_REDO_CHANGE# but LGWR writes more blocks of it (several changes
    // share an SCN): it is writing, its buffer may hold more at that SCN.
    for (i, at) in [0i64, 2_000, 4_000, 6_000, 8_000].iter().enumerate() {
        let b = idle.bound(sample(
            *at,
            1_000 + i as u64,
            vec![
                thread(1, 999 + i as u64, i as u64),
                thread(2, 300, i as u64),
            ],
        ));
        assert_eq!(b, Some(299), "look {i}");
    }
    // A closed thread and a PRIVATE one do not count.
    let mut closed = thread(2, 10, 1);
    closed.status = "CLOSED".into();
    let mut private = thread(3, 20, 1);
    private.enabled = "PRIVATE".into();
    assert_eq!(
        IdleThreads::new(3_000).bound(sample(0, 500, vec![thread(1, 480, 1), closed, private])),
        Some(479)
    );
    assert_eq!(IdleThreads::new(3_000).bound(sample(0, 500, vec![])), None);
}

#[test]
fn without_a_quiet_period_one_look_is_enough_and_a_clock_going_back_forgets() {
    let mut now = IdleThreads::new(0);
    assert_eq!(now.bound(sample(10, 77, vec![thread(1, 70, 3)])), Some(76));
    let mut idle = IdleThreads::new(1_000);
    idle.bound(sample(5_000, 100, vec![thread(1, 90, 3)]));
    // The clock went back: the look at 5 000 ms says nothing about the stretch to 5 500.
    assert_eq!(
        idle.bound(sample(4_000, 101, vec![thread(1, 90, 3)])),
        Some(89)
    );
    assert_eq!(
        idle.bound(sample(5_500, 102, vec![thread(1, 90, 3)])),
        Some(100)
    );
}

fn log(thread: u32, sequence: u64, first: Scn, next: Option<Scn>) -> LogFile {
    LogFile {
        name: format!("/arch/{thread}_{sequence}.arc"),
        thread,
        sequence,
        first_scn: first,
        next_scn: next,
        archived: next.is_some(),
        ..LogFile::default()
    }
}

#[test]
fn each_thread_needs_its_logs_from_the_window_on() {
    let threads = vec![thread(1, 900, 1), thread(2, 900, 1)];
    let whole = vec![
        log(1, 1, 100, Some(300)),
        log(1, 2, 300, Some(600)),
        log(1, 3, 600, None),
        log(2, 1, 100, Some(800)),
        log(2, 2, 800, None),
    ];
    assert!(check_thread_logs(&threads, &whole, 250).is_ok());
    assert!(check_thread_logs(&threads, &whole, 650).is_ok());
    // Thread 1's sequence 1 (100..300) is gone: a window from 250 lacks its redo, although
    // thread 2's older log keeps the oldest SCN of the list low.
    let gone: Vec<LogFile> = whole.iter().skip(1).cloned().collect();
    let e = check_thread_logs(&threads, &gone, 250).unwrap_err();
    assert_eq!(e.code(), Code::Cdc5203);
    let text = e.to_string();
    assert!(
        text.contains("thread 1") && text.contains("sequence 2") && text.contains("250"),
        "{text}"
    );
    assert!(check_thread_logs(&threads, &gone, 300).is_ok());
    // A gap in the middle.
    let gap: Vec<LogFile> = whole
        .iter()
        .filter(|l| !(l.thread == 1 && l.sequence == 2))
        .cloned()
        .collect();
    let e = check_thread_logs(&threads, &gap, 250).unwrap_err();
    assert!(e.to_string().contains("sequence 2 is missing"), "{e}");
    // An open thread without any log.
    let one: Vec<LogFile> = whole.iter().filter(|l| l.thread == 1).cloned().collect();
    assert_eq!(
        check_thread_logs(&threads, &one, 250).unwrap_err().code(),
        Code::Cdc5203
    );
}

#[test]
fn a_thread_enabled_later_or_closed_before_the_window_needs_no_older_logs() {
    // Thread 2 was enabled at SCN 700: its first log starts there.
    let mut late = thread(2, 900, 1);
    late.enabled_scn = Some(700);
    let logs = vec![
        log(1, 1, 100, Some(600)),
        log(1, 2, 600, None),
        log(2, 1, 700, None),
    ];
    assert!(check_thread_logs(&[thread(1, 900, 1), late.clone()], &logs, 200).is_ok());
    // Enabled at 700 but its log from 700 is gone (it starts at 750).
    let moved = vec![logs[0].clone(), logs[1].clone(), log(2, 2, 750, None)];
    assert!(check_thread_logs(&[thread(1, 900, 1), late], &moved, 200).is_err());
    // A closed thread whose last redo is before the window has nothing in it.
    let mut closed = thread(2, 150, 1);
    closed.status = "CLOSED".into();
    assert!(check_thread_logs(&[thread(1, 900, 1), closed.clone()], &logs[..2], 200).is_ok());
    // One whose last redo is in the window needs its logs up to there.
    closed.last_redo_scn = 650;
    closed.enabled_scn = Some(100);
    assert!(check_thread_logs(&[thread(1, 900, 1), closed.clone()], &logs[..2], 200).is_err());
    let with = vec![
        logs[0].clone(),
        logs[1].clone(),
        log(2, 1, 100, Some(400)),
        log(2, 2, 400, Some(660)),
    ];
    assert!(check_thread_logs(&[thread(1, 900, 1), closed.clone()], &with, 200).is_ok());
    let short = vec![logs[0].clone(), logs[1].clone(), log(2, 1, 100, Some(400))];
    let e = check_thread_logs(&[thread(1, 900, 1), closed], &short, 200).unwrap_err();
    assert!(e.to_string().contains("sequence 2"), "{e}");
}

/// A log a downstream never received before where mining goes on from (`from`) holds nothing
/// back: before, the shipped end stopped at that old gap, so a capture resuming past it waited
/// for redo it did not need and stopped with CDC-5201 after the gap timeout. A log missing
/// right at `from` (the one holding it) is still a gap.
#[test]
fn a_gap_before_where_mining_goes_on_is_no_gap() {
    let logs = vec![
        log(1, 2, 200, Some(300)),
        // sequence 3 (300..400) never received
        log(1, 4, 400, Some(500)),
        log(1, 5, 500, Some(600)),
        log(1, 6, 600, None),
    ];
    // From the start: the old gap bounds everything.
    assert_eq!(shipped_end(&logs, 0), Some(299));
    assert_eq!(shipping_gaps(&logs, 0).len(), 1);
    // Mining goes on from 450 (in sequence 4) or from 500 (sequence 5's first SCN): sequence 3
    // is not needed.
    for from in [450, 500, 599] {
        assert_eq!(shipped_end(&logs, from), Some(599), "from {from}");
        assert!(shipping_gaps(&logs, from).is_empty(), "from {from}");
        assert_eq!(shipped_end_for(&logs, &[], from), Some(599), "from {from}");
    }
    // From 350, inside the missing sequence 3: it is needed, and a gap.
    assert_eq!(shipped_end(&logs, 350), Some(299));
    assert_eq!(
        shipping_gaps(&logs, 350),
        vec![ShippingGap {
            thread: 1,
            missing: 3,
            received_to: 299
        }]
    );
    // From 300 exactly (sequence 3's first SCN): still needed.
    assert_eq!(shipped_end(&logs, 300), Some(299));
}

#[test]
fn shipped_redo_ends_at_the_first_gap_or_the_log_still_being_written() {
    let mut current = log(1, 4, 400, None);
    let logs = vec![
        log(1, 2, 200, Some(300)),
        log(1, 3, 300, Some(400)),
        current.clone(),
        log(2, 7, 150, Some(350)),
        log(2, 8, 350, Some(500)),
    ];
    // Thread 1's log 4 is being written and nothing says how far: up to its start.
    assert_eq!(shipped_end(&logs, 0), Some(399));
    current.received_to = Some(450);
    let mut with = logs.clone();
    with[2] = current;
    assert_eq!(shipped_end(&with, 0), Some(450));
    // A gap in thread 2 (sequence 8 missing, 9 there).
    let gap = vec![
        log(1, 2, 200, Some(300)),
        log(2, 7, 150, Some(350)),
        log(2, 9, 500, Some(600)),
    ];
    assert_eq!(shipped_end(&gap, 0), Some(299));
    assert_eq!(shipped_end(&[], 0), None);
    assert_eq!(
        shipping_gaps(&gap, 0),
        vec![ShippingGap {
            thread: 2,
            missing: 8,
            received_to: 349
        }]
    );
    assert!(
        shipping_gaps(&logs, 0).is_empty(),
        "a log being written is no gap"
    );
}

#[test]
fn a_source_thread_that_received_all_it_wrote_does_not_hold_the_shipped_end() {
    // Thread 1 busy, its standby redo log written up to 900; thread 2 idle at 420, its
    // standby redo log (sequence 3) holding everything up to 420.
    let mut t1_log = log(1, 5, 800, None);
    t1_log.received_to = Some(900);
    let mut t2_log = log(2, 3, 400, None);
    t2_log.received_to = Some(420);
    let logs = vec![
        log(1, 4, 700, Some(800)),
        t1_log,
        log(2, 2, 300, Some(400)),
        t2_log,
    ];
    let mut busy = thread(1, 950, 40);
    busy.last_redo_sequence = Some(5);
    let mut idle = thread(2, 420, 7);
    idle.last_redo_sequence = Some(3);
    // Without the source's threads the idle one holds the end at 420.
    assert_eq!(shipped_end(&logs, 0), Some(420));
    // With them, thread 2 has received what it wrote: thread 1's end bounds (its LGWR wrote up
    // to 950, the downstream has 900).
    assert_eq!(
        shipped_end_for(&logs, &[busy.clone(), idle.clone()], 0),
        Some(900)
    );
    // Thread 2 wrote more (at 430) than arrived: it bounds again.
    let mut wrote = idle.clone();
    wrote.last_redo_scn = 430;
    assert_eq!(shipped_end_for(&logs, &[busy.clone(), wrote], 0), Some(420));
    // Or its LGWR is on a later log than the one received.
    let mut switched = idle.clone();
    switched.last_redo_sequence = Some(4);
    assert_eq!(
        shipped_end_for(&logs, &[busy.clone(), switched], 0),
        Some(420)
    );
    // Both caught up: nothing bounds beyond the source's own bound.
    let mut caught = busy.clone();
    caught.last_redo_scn = 900;
    assert_eq!(shipped_end_for(&logs, &[caught, idle.clone()], 0), None);
    // A CLOSED thread whose last log arrived whole does not hold it either; one whose redo
    // runs past what arrived does.
    let mut closed = thread(2, 390, 1);
    closed.status = "CLOSED".into();
    let archived_only = vec![log(1, 4, 700, Some(800)), log(2, 2, 300, Some(400))];
    assert_eq!(
        shipped_end_for(&archived_only, &[busy.clone(), closed.clone()], 0),
        Some(799)
    );
    closed.last_redo_scn = 450;
    assert_eq!(
        shipped_end_for(&archived_only, &[busy, closed], 0),
        Some(399)
    );
}

#[test]
fn a_quiet_database_is_known_committed_through_the_look_once_every_thread_stood_still() {
    let mut idle = IdleThreads::new(3_000);
    // One thread, its last commit written at 500; the database's SCN is 501 (one past).
    let t1 = thread(1, 500, 9);
    assert_eq!(idle.bound(sample(0, 501, vec![t1.clone()])), Some(499));
    assert_eq!(idle.quiet_through(), None, "not idle yet");
    assert_eq!(idle.bound(sample(3_000, 501, vec![t1.clone()])), Some(500));
    // Everything written is below the look's SCN 501 and later commits take a higher one:
    // with the redo mined up to 500, everything committed up to 501 is.
    assert_eq!(idle.quiet_through(), Some(501));
    // A second thread still busy: nothing more known than the bound.
    let mut idle = IdleThreads::new(3_000);
    for at in [0, 3_000] {
        idle.bound(sample(
            at,
            501,
            vec![t1.clone(), thread(2, 480 + at as u64, at as u64)],
        ));
    }
    assert_eq!(idle.quiet_through(), None);
    // Redo written at the look's SCN (a transaction open there, CURRENT_SCN its newest
    // change): a commit may be at that SCN, not mined below it.
    let mut idle = IdleThreads::new(3_000);
    let at_look = thread(1, 501, 9);
    idle.bound(sample(0, 501, vec![at_look.clone()]));
    assert_eq!(idle.bound(sample(3_000, 501, vec![at_look])), Some(500));
    assert_eq!(idle.quiet_through(), None);
}

#[test]
fn looks_shared_by_a_connectors_sessions_outlive_a_lost_connection() {
    // A session's looks, then a new session (after a reconnect) taking the next one: the
    // thread stood still across both, so it is idle as if one session had taken them.
    let looks = SharedLooks::default();
    let t1 = thread(1, 500, 9);
    let first = looks.clone();
    assert_eq!(
        first.bound(3_000, Some(0), 501, vec![t1.clone()]),
        Some(499)
    );
    drop(first);
    let second = looks.clone();
    assert_eq!(second.bound(3_000, Some(3_000), 501, vec![t1]), Some(500));
    assert_eq!(looks.quiet_through(), Some(501));
}
