//! The sessions each user holds open, for its profile's SESSIONS_PER_USER: a login past the
//! limit fails with ORA-02391, as Oracle's does while RESOURCE_LIMIT is TRUE. A session counts
//! from its login until it is dropped (over Oracle Net: until its connection ends); the
//! sessions a database restart ended count no more, though their holders still have them.

use crate::errors::{CdcError, Code, Result};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Open sessions by user and by the database's restart count at their login.
#[derive(Default)]
pub(crate) struct SessionCounts(Mutex<HashMap<(String, u64), u32>>);

/// One open session's place in the count, given back when the last holder drops it (a
/// session's reader thread holds it too: it is the same Oracle session).
pub(crate) struct SessionSlot {
    counts: Arc<SessionCounts>,
    key: (String, u64),
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
        let mut open = self
            .0
            .lock()
            .map_err(|_| CdcError::Database("the session count's lock was poisoned".into()))?;
        let key = (user.to_string(), epoch);
        let n = open.entry(key.clone()).or_default();
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
        }))
    }

    /// The sessions `user` holds that were opened after `epoch` restarts.
    #[cfg(test)]
    pub(crate) fn held(&self, user: &str, epoch: u64) -> u32 {
        self.0
            .lock()
            .map(|m| m.get(&(user.to_string(), epoch)).copied().unwrap_or(0))
            .unwrap_or(0)
    }
}

impl Drop for SessionSlot {
    fn drop(&mut self) {
        if let Ok(mut open) = self.counts.0.lock() {
            if let Some(n) = open.get_mut(&self.key) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    open.remove(&self.key);
                }
            }
        }
    }
}
