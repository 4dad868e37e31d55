//! Named crash points for fault drills. The write paths call [`hit`] at the moments where a
//! crash is most likely to lose or repeat data (between a sink write and its acknowledgement,
//! between the steps of an atomic offsets write, …). Nothing happens unless a simulation has
//! armed a hook on the calling thread: then the hook may run other work there (the simulated
//! workload) and may return an error, which the engine propagates like a crash. The engine's
//! state is then dropped and only what reached disk survives.

use crate::errors::Result;
use std::cell::{Cell, RefCell};

/// Every crash point, in data-path order. A call with a name not listed here is a bug.
pub const POINTS: &[&str] = &[
    "sink.write",
    "sink.commit.flushed",
    "sink.commit.synced",
    "atomic_write.temp_written",
    "atomic_write.temp_synced",
    "atomic_write.renamed",
    "atomic_write.dir_synced",
    "publisher.wave",
    "publisher.window.mined",
    // A chunk written but not committed: more of its wave follow, the last one commits them all.
    "publisher.chunk.written",
    "publisher.chunk.committed",
    "snapshot.chunk.published",
    // The next wave's reads have begun while chunks of the last one are still to be published.
    "snapshot.wave.overlapped",
    "capture.offsets.saved",
    "export.chunk.synced",
    // Not a crash point: capture waits for redo LGWR has not written yet (the simulation moves
    // its clock on here, as time passes for a real database's log writer).
    "publisher.waiting.for.redo",
    // Not a crash point: the chunk published next has no rows (it holds no memory; the
    // simulation's bound on the chunks a wave holds counts those with rows).
    "publisher.chunk.empty",
];

/// Ordering rules a test may break on purpose to show the simulation catches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Publish the changes committed before a wave's SCN before its chunks.
    WaveCatchUp,
}

type Hook = Box<dyn FnMut(&'static str) -> Result<()>>;

thread_local! {
    static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
    static BROKEN: Cell<Option<Rule>> = const { Cell::new(None) };
}

/// Called by the write paths; inert (returns `Ok`) unless a hook is armed on this thread.
pub fn hit(point: &'static str) -> Result<()> {
    debug_assert!(POINTS.contains(&point), "unlisted crash point {point}");
    // Taken out while it runs, so a hook that reaches another crash point does not re-enter.
    let Some(mut hook) = HOOK.with(|h| h.borrow_mut().take()) else {
        return Ok(());
    };
    let r = hook(point);
    HOOK.with(|h| {
        let mut slot = h.borrow_mut();
        if slot.is_none() {
            *slot = Some(hook);
        }
    });
    r
}

/// [`hit`] for the steps of [`crate::offsets::write_atomically`].
pub fn atomic_write_step(step: crate::offsets::WriteStep) -> Result<()> {
    use crate::offsets::WriteStep as S;
    hit(match step {
        S::TempWritten => "atomic_write.temp_written",
        S::TempSynced => "atomic_write.temp_synced",
        S::Renamed => "atomic_write.renamed",
        S::DirSynced => "atomic_write.dir_synced",
    })
}

/// Whether a test has broken `rule` on this thread (always false otherwise).
pub fn broken(rule: Rule) -> bool {
    BROKEN.with(|b| b.get() == Some(rule))
}

/// The SCN a wave's catch-up publishes up to: the wave's own, or nothing at all while a test
/// has broken [`Rule::WaveCatchUp`].
pub fn wave_catch_up_to(scn: crate::source::model::Scn) -> crate::source::model::Scn {
    if broken(Rule::WaveCatchUp) {
        0
    } else {
        scn
    }
}

/// Arms `hook` on this thread until the guard drops.
pub fn arm(hook: impl FnMut(&'static str) -> Result<()> + 'static) -> Armed {
    HOOK.with(|h| *h.borrow_mut() = Some(Box::new(hook)));
    Armed {
        _not_send: std::marker::PhantomData,
    }
}

/// Breaks `rule` on this thread until the guard drops.
pub fn break_rule(rule: Rule) -> Broken {
    BROKEN.with(|b| b.set(Some(rule)));
    Broken {
        _not_send: std::marker::PhantomData,
    }
}

pub struct Armed {
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Drop for Armed {
    fn drop(&mut self) {
        HOOK.with(|h| *h.borrow_mut() = None);
    }
}

pub struct Broken {
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Drop for Broken {
    fn drop(&mut self) {
        BROKEN.with(|b| b.set(None));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::CdcError;

    #[test]
    fn inert_until_armed_and_disarmed_by_the_guard() {
        assert!(hit("sink.write").is_ok());
        let seen = std::rc::Rc::new(RefCell::new(Vec::new()));
        let s = seen.clone();
        let guard = arm(move |p| {
            s.borrow_mut().push(p);
            if p == "sink.commit.synced" {
                return Err(CdcError::SimulatedCrash { point: p.into() });
            }
            Ok(())
        });
        assert!(hit("sink.write").is_ok());
        let e = hit("sink.commit.synced").unwrap_err();
        assert_eq!(e.code(), crate::errors::Code::Cdc9001);
        drop(guard);
        assert!(hit("sink.commit.synced").is_ok());
        assert_eq!(*seen.borrow(), ["sink.write", "sink.commit.synced"]);
        assert!(!broken(Rule::WaveCatchUp));
        let b = break_rule(Rule::WaveCatchUp);
        assert!(broken(Rule::WaveCatchUp));
        drop(b);
        assert!(!broken(Rule::WaveCatchUp));
    }
}
