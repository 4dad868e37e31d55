//! The connections capture holds: the session of its start-up reads goes on as the miner's, so
//! streaming holds one connection, not that one idle beside it for as long as capture runs.

use crate::capture::{Capture, CaptureEnd};
use crate::settings::Settings;
use crate::snapshot::NoProgress;
use crate::source::emulator::testing::{Db, EMP};
use crate::source::tracked::Tracked;
use cdc_core::session::Connector;
use std::sync::atomic::Ordering;
use std::sync::Arc;

#[test]
fn streaming_holds_the_start_up_session_as_the_miners_and_no_other() {
    // HR.EMP (empty) and HR.OTHER (3 rows), on a manual clock.
    let db = Db::new(EMP);
    let conn = Tracked::new(db.connector());
    let open = conn.open_count();
    let clock = db.clock.clone();
    let settings = Settings::from_pairs(&[
        format!("cdc.database.url=emulator:{}", db.path().display()),
        format!("cdc.state.dir={}", db.dir.path().join("state").display()),
        format!("cdc.sink.dir={}", db.dir.path().join("out").display()),
        "cdc.stream.poll.ms=10".into(),
        "cdc.heartbeat.interval.ms=0".into(),
        "cdc.metrics.interval.ms=0".into(),
    ])
    .unwrap();
    // Each time streaming saves its offsets: the sessions open then.
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let (s, o) = (seen.clone(), open.clone());
    let _armed = crate::crashpoint::arm(move |point| {
        match point {
            crate::crashpoint::Point::CaptureOffsetsSaved => {
                s.lock().unwrap().push(o.load(Ordering::SeqCst))
            }
            // Time passes while capture waits for LGWR to write the redo.
            crate::crashpoint::Point::PublisherWaitingForRedo => clock.advance(3_000),
            _ => {}
        }
        Ok(())
    });
    let stop_at = conn.connect().unwrap().current_scn().unwrap();
    let before = conn.opened();
    let (end, summary) = Capture {
        connector: &conn,
        settings: &settings,
        progress: &NoProgress,
        stop: &|| false,
        stop_at: Some(stop_at),
    }
    .run()
    .unwrap();
    assert!(matches!(end, CaptureEnd::ReachedScn(_)));
    assert_eq!(summary.snapshot_rows, 3);
    let seen = seen.lock().unwrap().clone();
    assert!(!seen.is_empty(), "streaming saved its offsets");
    assert!(
        seen.iter().all(|&n| n == 1),
        "sessions open while streaming: {seen:?} (the miner's alone)"
    );
    // The miner's session is the start-up one: the snapshot's coordinator and its reader are
    // the only other logins.
    assert_eq!(conn.opened() - before, 3);
    assert_eq!(
        open.load(Ordering::SeqCst),
        0,
        "every session closed at the end"
    );
}
