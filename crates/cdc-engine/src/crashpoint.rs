//! Named crash points for fault drills. The write paths call [`hit`] at the moments where a
//! crash is most likely to lose or repeat data (between a sink write and its acknowledgement,
//! between the steps of an atomic offsets write, …). Nothing happens unless a simulation has
//! armed a hook on the calling thread: then the hook may run other work there (the simulated
//! workload) and may return an error, which the engine propagates like a crash. The engine's
//! state is then dropped and only what reached disk survives.
//!
//! A point is a [`Point`], not a string: a misspelt point does not compile, and a hook's
//! `match` on points is checked by the compiler. [`Point::name`] gives each its dotted name
//! (`sink.write`, …), the one reports, error texts and docs show.
//!
//! The hooks exist with the feature `sim` (the simulation's, on in tests, examples and benches):
//! a build without it (the binary users install) compiles [`hit`] to nothing.

use crate::errors::Result;
#[cfg(any(test, feature = "sim"))]
use std::cell::{Cell, RefCell};

/// A place in the write path where [`hit`] is called. Declared in data-path order, the order of
/// [`Point::ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Point {
    SinkWrite,
    SinkCommitFlushed,
    SinkCommitSynced,
    AtomicWriteTempWritten,
    AtomicWriteTempSynced,
    AtomicWriteRenamed,
    AtomicWriteDirSynced,
    PublisherWave,
    PublisherWindowMined,
    /// A chunk written but not committed: more of its wave follow, the last one commits them all.
    PublisherChunkWritten,
    PublisherChunkCommitted,
    SnapshotChunkPublished,
    /// The next wave's reads have begun while chunks of the last one are still to be published.
    SnapshotWaveOverlapped,
    CaptureOffsetsSaved,
    ExportChunkSynced,
    /// Not a crash point: capture waits for redo LGWR has not written yet (the simulation moves
    /// its clock on here, as time passes for a real database's log writer).
    PublisherWaitingForRedo,
    /// Not a crash point: the chunk published next has no rows (it holds no memory; the
    /// simulation's bound on the chunks a wave holds counts those with rows).
    PublisherChunkEmpty,
}

impl Point {
    /// Every point, in data-path order (the order the string list had before points were an
    /// enum; the docs' table follows it).
    pub const ALL: &'static [Point] = &[
        Point::SinkWrite,
        Point::SinkCommitFlushed,
        Point::SinkCommitSynced,
        Point::AtomicWriteTempWritten,
        Point::AtomicWriteTempSynced,
        Point::AtomicWriteRenamed,
        Point::AtomicWriteDirSynced,
        Point::PublisherWave,
        Point::PublisherWindowMined,
        Point::PublisherChunkWritten,
        Point::PublisherChunkCommitted,
        Point::SnapshotChunkPublished,
        Point::SnapshotWaveOverlapped,
        Point::CaptureOffsetsSaved,
        Point::ExportChunkSynced,
        Point::PublisherWaitingForRedo,
        Point::PublisherChunkEmpty,
    ];

    /// The dotted name reports, error texts (CDC-9001) and docs show; stable, since a seed's
    /// printed report names the points it crashed at.
    pub fn name(self) -> &'static str {
        match self {
            Point::SinkWrite => "sink.write",
            Point::SinkCommitFlushed => "sink.commit.flushed",
            Point::SinkCommitSynced => "sink.commit.synced",
            Point::AtomicWriteTempWritten => "atomic_write.temp_written",
            Point::AtomicWriteTempSynced => "atomic_write.temp_synced",
            Point::AtomicWriteRenamed => "atomic_write.renamed",
            Point::AtomicWriteDirSynced => "atomic_write.dir_synced",
            Point::PublisherWave => "publisher.wave",
            Point::PublisherWindowMined => "publisher.window.mined",
            Point::PublisherChunkWritten => "publisher.chunk.written",
            Point::PublisherChunkCommitted => "publisher.chunk.committed",
            Point::SnapshotChunkPublished => "snapshot.chunk.published",
            Point::SnapshotWaveOverlapped => "snapshot.wave.overlapped",
            Point::CaptureOffsetsSaved => "capture.offsets.saved",
            Point::ExportChunkSynced => "export.chunk.synced",
            Point::PublisherWaitingForRedo => "publisher.waiting.for.redo",
            Point::PublisherChunkEmpty => "publisher.chunk.empty",
        }
    }
}

/// The dotted [`Point::name`], so `format!("crash at {point}")` reads as it did with strings.
impl std::fmt::Display for Point {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Ordering rules a test may break on purpose to show the simulation catches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Publish the changes committed before a wave's SCN before its chunks.
    WaveCatchUp,
}

#[cfg(any(test, feature = "sim"))]
type Hook = Box<dyn FnMut(Point) -> Result<()>>;

#[cfg(any(test, feature = "sim"))]
thread_local! {
    static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
    static BROKEN: Cell<Option<Rule>> = const { Cell::new(None) };
}

/// Called by the write paths; inert (returns `Ok`) unless a hook is armed on this thread.
#[cfg(any(test, feature = "sim"))]
pub fn hit(point: Point) -> Result<()> {
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

/// Whether a test has broken `rule` on this thread (always false otherwise).
#[cfg(any(test, feature = "sim"))]
pub fn broken(rule: Rule) -> bool {
    BROKEN.with(|b| b.get() == Some(rule))
}

/// The SCN a wave's catch-up publishes up to: the wave's own, or nothing at all while a test
/// has broken [`Rule::WaveCatchUp`].
pub fn wave_catch_up_to(scn: cdc_core::model::Scn) -> cdc_core::model::Scn {
    if broken(Rule::WaveCatchUp) {
        0
    } else {
        scn
    }
}

/// Arms `hook` on this thread until the guard drops.
#[cfg(any(test, feature = "sim"))]
pub fn arm(hook: impl FnMut(Point) -> Result<()> + 'static) -> Armed {
    HOOK.with(|h| *h.borrow_mut() = Some(Box::new(hook)));
    Armed {
        _not_send: std::marker::PhantomData,
    }
}

/// Breaks `rule` on this thread until the guard drops.
#[cfg(any(test, feature = "sim"))]
pub fn break_rule(rule: Rule) -> Broken {
    BROKEN.with(|b| b.set(Some(rule)));
    Broken {
        _not_send: std::marker::PhantomData,
    }
}

#[cfg(any(test, feature = "sim"))]
pub struct Armed {
    _not_send: std::marker::PhantomData<*const ()>,
}

#[cfg(any(test, feature = "sim"))]
impl Drop for Armed {
    fn drop(&mut self) {
        HOOK.with(|h| *h.borrow_mut() = None);
    }
}

#[cfg(any(test, feature = "sim"))]
pub struct Broken {
    _not_send: std::marker::PhantomData<*const ()>,
}

#[cfg(any(test, feature = "sim"))]
impl Drop for Broken {
    fn drop(&mut self) {
        BROKEN.with(|b| b.set(None));
    }
}

/// Without the simulation nothing can be armed: every point passes.
#[cfg(not(any(test, feature = "sim")))]
#[inline(always)]
pub fn hit(_point: Point) -> Result<()> {
    Ok(())
}

/// Without the simulation no rule can be broken.
#[cfg(not(any(test, feature = "sim")))]
#[inline(always)]
pub fn broken(_rule: Rule) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::CdcError;

    #[test]
    fn inert_until_armed_and_disarmed_by_the_guard() {
        assert!(hit(Point::SinkWrite).is_ok());
        let seen = std::rc::Rc::new(RefCell::new(Vec::new()));
        let s = seen.clone();
        let guard = arm(move |p| {
            s.borrow_mut().push(p);
            if p == Point::SinkCommitSynced {
                return Err(CdcError::SimulatedCrash {
                    point: p.name().into(),
                });
            }
            Ok(())
        });
        assert!(hit(Point::SinkWrite).is_ok());
        let e = hit(Point::SinkCommitSynced).unwrap_err();
        assert_eq!(e.code(), crate::errors::Code::Cdc9001);
        assert_eq!(
            e.to_string(),
            "CDC-9001: simulated crash at crash point sink.commit.synced"
        );
        drop(guard);
        assert!(hit(Point::SinkCommitSynced).is_ok());
        assert_eq!(*seen.borrow(), [Point::SinkWrite, Point::SinkCommitSynced]);
        assert!(!broken(Rule::WaveCatchUp));
        let b = break_rule(Rule::WaveCatchUp);
        assert!(broken(Rule::WaveCatchUp));
        drop(b);
        assert!(!broken(Rule::WaveCatchUp));
    }

    /// The names reports, error texts and docs show are the ones the points had as strings, in
    /// the same order: a renamed or reordered point fails here, not in a seed's report.
    #[test]
    fn every_point_keeps_its_dotted_name_in_data_path_order() {
        // The string list (`POINTS`) this enum replaced, verbatim.
        let before = [
            "sink.write",
            "sink.commit.flushed",
            "sink.commit.synced",
            "atomic_write.temp_written",
            "atomic_write.temp_synced",
            "atomic_write.renamed",
            "atomic_write.dir_synced",
            "publisher.wave",
            "publisher.window.mined",
            "publisher.chunk.written",
            "publisher.chunk.committed",
            "snapshot.chunk.published",
            "snapshot.wave.overlapped",
            "capture.offsets.saved",
            "export.chunk.synced",
            "publisher.waiting.for.redo",
            "publisher.chunk.empty",
        ];
        let names: Vec<&str> = Point::ALL.iter().map(|p| p.name()).collect();
        assert_eq!(names, before);
        for p in Point::ALL {
            assert_eq!(p.to_string(), p.name());
        }
        let unique: std::collections::BTreeSet<&str> = names.iter().copied().collect();
        assert_eq!(
            unique.len(),
            names.len(),
            "two points share a name: {names:?}"
        );
    }

    /// `ALL` lists every variant once, in declaration order. The match has no `_` arm, so a new
    /// variant does not compile until it is added here (and the length check then wants it in
    /// `ALL` too).
    #[test]
    fn all_lists_every_point_once_in_declaration_order() {
        let listed = |p: Point| match p {
            Point::SinkWrite
            | Point::SinkCommitFlushed
            | Point::SinkCommitSynced
            | Point::AtomicWriteTempWritten
            | Point::AtomicWriteTempSynced
            | Point::AtomicWriteRenamed
            | Point::AtomicWriteDirSynced
            | Point::PublisherWave
            | Point::PublisherWindowMined
            | Point::PublisherChunkWritten
            | Point::PublisherChunkCommitted
            | Point::SnapshotChunkPublished
            | Point::SnapshotWaveOverlapped
            | Point::CaptureOffsetsSaved
            | Point::ExportChunkSynced
            | Point::PublisherWaitingForRedo
            | Point::PublisherChunkEmpty => Point::ALL.contains(&p),
        };
        assert_eq!(Point::ALL.len(), 17);
        for (i, p) in Point::ALL.iter().enumerate() {
            assert!(listed(*p));
            assert_eq!(*p as usize, i, "{p} is out of declaration order in ALL");
        }
    }
}
