//! The sessions each user holds open, for its profile's SESSIONS_PER_USER: a login past the
//! limit fails with ORA-02391, as Oracle's does while RESOURCE_LIMIT is TRUE. A session counts
//! from its login until it is dropped (over Oracle Net: until its connection ends); the
//! sessions a database restart ended count no more, though their holders still have them.
//!
//! A session whose connection a drill cut (a network partition: `cdc.emulator.fault.drop.per.mille`
//! with `….dead.connection.ms`) counts on after its holder drops it, until the database would
//! notice the client gone: Oracle keeps such a session until dead connection detection
//! (SQLNET.EXPIRE_TIME) or TCP keepalive finds the peer gone, and it counts towards the limit
//! meanwhile.

use crate::errors::{CdcError, Code, Result};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A user's sessions, by name and by the database's restart count at their login.
type Key = (String, u64);

/// Open sessions by user and restart count, and the dead ones still counted until their time.
#[derive(Default)]
pub(crate) struct SessionCounts(Mutex<Counts>);

#[derive(Default)]
struct Counts {
    open: HashMap<Key, u32>,
    /// Sessions whose client vanished, counted in `open` until this instant.
    dead: Vec<(Instant, Key)>,
}

impl Counts {
    fn release(&mut self, key: &Key) {
        if let Some(n) = self.open.get_mut(key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.open.remove(key);
            }
        }
    }

    /// The dead sessions whose time is up are found gone.
    fn sweep(&mut self, now: Instant) {
        let (gone, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.dead)
            .into_iter()
            .partition(|(until, _)| *until <= now);
        self.dead = kept;
        for (_, key) in gone {
            self.release(&key);
        }
    }
}

/// One open session's place in the count, given back when the last holder drops it (a
/// session's reader thread holds it too: it is the same Oracle session), or, once its
/// connection was cut, when the database would notice.
pub(crate) struct SessionSlot {
    counts: Arc<SessionCounts>,
    key: Key,
    /// How long the session outlives its holders (0: not at all): set when a drill cuts its
    /// connection without a logoff.
    dead_for_ms: AtomicU64,
}

impl SessionCounts {
    /// Count one more session of `user`, opened after `epoch` restarts; ORA-02391 when it
    /// already holds `limit` (`None`: unlimited).
    pub(crate) fn open(
        self: &Arc<Self>,
        user: &str,
        epoch: u64,
        limit: Option<u32>,
    ) -> Result<Arc<SessionSlot>> {
        let mut counts = self
            .0
            .lock()
            .map_err(|_| CdcError::Database("the session count's lock was poisoned".into()))?;
        counts.sweep(Instant::now());
        let key = (user.to_string(), epoch);
        let n = counts.open.entry(key.clone()).or_default();
        if limit.is_some_and(|l| *n >= l) {
            return Err(CdcError::Connect {
                code: Code::Cdc2011,
                message: format!(
                    "ORA-02391: exceeded simultaneous SESSIONS_PER_USER limit ({user} holds {n} sessions, its profile's limit)"
                ),
            });
        }
        *n += 1;
        Ok(Arc::new(SessionSlot {
            counts: Arc::clone(self),
            key,
            dead_for_ms: AtomicU64::new(0),
        }))
    }

    /// The sessions `user` holds that were opened after `epoch` restarts (dead ones whose
    /// time is not up included).
    #[cfg(test)]
    pub(crate) fn held(&self, user: &str, epoch: u64) -> u32 {
        self.0
            .lock()
            .map(|mut c| {
                c.sweep(Instant::now());
                c.open.get(&(user.to_string(), epoch)).copied().unwrap_or(0)
            })
            .unwrap_or(0)
    }
}

impl SessionSlot {
    /// The session's connection was cut without a logoff: it counts on for `ms` after its
    /// holders drop it (0: it ends with them).
    pub(crate) fn outlive_connection(&self, ms: u64) {
        self.dead_for_ms.store(ms, Ordering::Relaxed);
    }
}

impl Drop for SessionSlot {
    fn drop(&mut self) {
        if let Ok(mut counts) = self.counts.0.lock() {
            match self.dead_for_ms.load(Ordering::Relaxed) {
                0 => counts.release(&self.key),
                ms => {
                    let until = Instant::now() + Duration::from_millis(ms);
                    counts.dead.push((until, self.key.clone()));
                }
            }
        }
    }
}
