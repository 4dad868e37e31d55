//! The connections capture holds: the session of its start-up reads goes on as the miner's, so
//! streaming holds one connection, not that one idle beside it for as long as capture runs.

use crate::capture::{Capture, CaptureEnd};
use crate::errors::Result;
use crate::settings::Settings;
use crate::snapshot::NoProgress;
use crate::source::emulator::testing::{Db, EMP};
use crate::source::emulator::EmulatorConnector;
use cdc_core::session::{Admin, Catalog, Connector, Flashback, Miner, Session};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Counts the sessions it opens, and those open now.
struct Tracked {
    inner: EmulatorConnector,
    opened: Arc<AtomicUsize>,
    open: Arc<AtomicUsize>,
}

impl Connector for Tracked {
    fn connect(&self) -> Result<Box<dyn Session>> {
        let inner = self.inner.connect()?;
        self.opened.fetch_add(1, Ordering::SeqCst);
        self.open.fetch_add(1, Ordering::SeqCst);
        Ok(Box::new(TrackedSession {
            inner,
            open: self.open.clone(),
        }))
    }
    fn describe(&self) -> String {
        self.inner.describe()
    }
}

struct TrackedSession {
    inner: Box<dyn Session>,
    open: Arc<AtomicUsize>,
}

impl Drop for TrackedSession {
    fn drop(&mut self) {
        self.open.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Catalog for TrackedSession {
    cdc_core::forward_catalog!(inner);
}
impl Flashback for TrackedSession {
    cdc_core::forward_flashback!(inner);
}
impl Miner for TrackedSession {
    cdc_core::forward_miner!(inner);
}
impl Admin for TrackedSession {
    cdc_core::forward_admin!(inner);
}

#[test]
fn streaming_holds_the_start_up_session_as_the_miners_and_no_other() {
    // HR.EMP (empty) and HR.OTHER (3 rows), on a manual clock.
    let db = Db::new(EMP);
    let (opened, open) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let conn = Tracked {
        inner: db.connector(),
        opened: opened.clone(),
        open: open.clone(),
    };
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
    let before = opened.load(Ordering::SeqCst);
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
    assert_eq!(opened.load(Ordering::SeqCst) - before, 3);
    assert_eq!(
        open.load(Ordering::SeqCst),
        0,
        "every session closed at the end"
    );
}
