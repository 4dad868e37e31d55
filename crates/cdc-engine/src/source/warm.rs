//! A connector that hands out a session already open before it opens new ones.
//!
//! The CLI opens a session to resolve the tables of an export or a chunk plan, and capture one
//! for its start-up reads; the engine then opened its own first session (capture's miner), a
//! second login right after the first, while the first sat idle or was closed. A login is
//! several round trips and the 12c verifier's key derivation on both sides (about 37 M
//! instructions on the thin client alone), so on a remote database each one is a tenth of a
//! second or more of the operator's wait. [`WarmConnector`] gives that first session to the engine's first connect.
//! It is the session the wrapped connector made, so it is as good as a new one: a container
//! session keeps track of the container it is in and moves where each call needs it.

use super::{Connector, Session};
use crate::errors::Result;
use std::sync::Mutex;

/// `inner`, with one open session handed out before `inner` is asked for another.
pub struct WarmConnector<'c> {
    inner: Inner<'c>,
    idle: Mutex<Option<Box<dyn Session>>>,
}

enum Inner<'c> {
    Owned(Box<dyn Connector>),
    Borrowed(&'c dyn Connector),
}

impl WarmConnector<'static> {
    /// `idle`: a session `inner` opened (none: every connect opens one).
    pub fn new(inner: Box<dyn Connector>, idle: Option<Box<dyn Session>>) -> Self {
        WarmConnector {
            inner: Inner::Owned(inner),
            idle: Mutex::new(idle),
        }
    }
}

impl<'c> WarmConnector<'c> {
    /// [`WarmConnector::new`] of a connector borrowed for as long as this one lives.
    pub fn borrowing(inner: &'c dyn Connector, idle: Option<Box<dyn Session>>) -> Self {
        WarmConnector {
            inner: Inner::Borrowed(inner),
            idle: Mutex::new(idle),
        }
    }

    fn inner(&self) -> &dyn Connector {
        match &self.inner {
            Inner::Owned(c) => c.as_ref(),
            Inner::Borrowed(c) => *c,
        }
    }
}

impl Connector for WarmConnector<'_> {
    fn connect(&self) -> Result<Box<dyn Session>> {
        // A poisoned lock (a panic elsewhere while taking it) only loses the idle session.
        let idle = self.idle.lock().ok().and_then(|mut s| s.take());
        match idle {
            Some(session) => Ok(session),
            None => self.inner().connect(),
        }
    }

    fn describe(&self) -> String {
        self.inner().describe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::emulator::testing::{Db, EMP};
    use crate::source::tracked::Tracked;
    use std::sync::Arc;

    /// The idle session is the first one given out, once; every later connect opens a new one.
    #[test]
    fn the_open_session_is_handed_out_first_and_once() {
        let db = Db::new(EMP);
        let tracked = Arc::new(Tracked::new(db.connector()));
        let mut idle = tracked.connect().unwrap();
        idle.current_scn().unwrap();
        let at = |s: &dyn Session| s as *const dyn Session as *const u8;
        let idle_at = at(idle.as_ref());
        let warm = WarmConnector::borrowing(tracked.as_ref(), Some(idle));
        assert_eq!(tracked.opened(), 1);
        let mut first = warm.connect().unwrap();
        assert_eq!(at(first.as_ref()), idle_at, "the idle session itself");
        assert_eq!(tracked.opened(), 1, "no login for it");
        first.current_scn().unwrap();
        let _second = warm.connect().unwrap();
        let _third = warm.connect().unwrap();
        assert_eq!(tracked.opened(), 3);
    }
}
