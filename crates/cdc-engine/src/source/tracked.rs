//! Tests' connector that counts the sessions another one opens, and those still open: what
//! the tests of logins saved (the warm connector, capture's miner) assert on.

use super::{Admin, Catalog, Connector, Flashback, Miner, Session};
use crate::errors::Result;
use cdc_core::model::Scn;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// `inner`, counting its logins and its sessions not dropped yet.
pub struct Tracked<C> {
    inner: C,
    opened: Arc<AtomicUsize>,
    open: Arc<AtomicUsize>,
}

impl<C: Connector> Tracked<C> {
    pub fn new(inner: C) -> Self {
        Tracked {
            inner,
            opened: Arc::default(),
            open: Arc::default(),
        }
    }

    /// Sessions opened so far.
    pub fn opened(&self) -> usize {
        self.opened.load(Ordering::SeqCst)
    }

    /// The count of sessions open now, to read while another thread runs.
    pub fn open_count(&self) -> Arc<AtomicUsize> {
        self.open.clone()
    }
}

impl<C: Connector> Connector for Tracked<C> {
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
    fn stream_read_scn(&mut self) -> Result<Option<Scn>> {
        self.inner.stream_read_scn()
    }
}
impl Miner for TrackedSession {
    cdc_core::forward_miner!(inner);
}
impl Admin for TrackedSession {
    cdc_core::forward_admin!(inner);
}
