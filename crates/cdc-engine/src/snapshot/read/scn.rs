//! Where a wave's SCN comes from: the current SCN, or, in step with a change stream, the SCN
//! the stream can mine up to when that is lower ([`Flashback::stream_read_scn`]: a standby's
//! archived logs' end), noted so a chunk whose undo is gone there is read again at the current
//! SCN as it is ([`super::Reader::in_step`]). The next wave's SCN is taken on a session of its
//! own while a wave is read (the clock).

use super::{gives_up_session, Reader};
use crate::errors::{CdcError, Code, Result};
use cdc_core::model::Scn;
use cdc_core::session::prelude::*;
use std::sync::{Arc, Mutex};

/// The clock's session (unless lost), the SCN it took, and the error of a login the database
/// refused at its session limit (CDC-2011).
pub(super) type Clock<'s> =
    std::thread::ScopedJoinHandle<'s, (Option<Box<dyn Session>>, Option<Scn>, Option<CdcError>)>;

/// Take the next wave's SCN on the clock session (connected the first time), beside the reads;
/// `None` when it could not be taken (the next wave takes its own then, as before).
pub(super) fn take_next_scn<'s, 'e, 'a: 's>(
    scope: &'s std::thread::Scope<'s, 'e>,
    r: &mut Reader<'a>,
) -> Clock<'s> {
    let connector: &'a dyn Connector = r.connector;
    let slot = r.pool.clock.take();
    let step = (r.in_step, r.behind.clone());
    scope.spawn(move || {
        // One attempt: a refused connect only means the next wave takes its own SCN, and the
        // reads must not wait for retries.
        let mut refused = None;
        let (slot, scn) = take_scn(slot, step, || match connector.connect() {
            Ok(s) => Some(s),
            Err(
                e @ CdcError::Connect {
                    code: Code::Cdc2011,
                    ..
                },
            ) => {
                refused = Some(e);
                None
            }
            Err(e) => {
                tracing::debug!("the session for the next wave's SCN did not connect ({e})");
                None
            }
        });
        (slot, scn, refused)
    })
}

/// Whether and where a wave's SCN is taken in step with a stream: [`Reader::in_step`] and
/// [`Reader::behind`].
pub(super) type Step = (bool, Arc<Mutex<std::collections::BTreeSet<Scn>>>);

/// A wave's SCN on `s`: the current SCN, or in step with a stream the one it can mine up to
/// when that is lower ([`Reader::in_step`]), noted in [`Reader::behind`].
pub(super) fn wave_scn(s: &mut dyn Session, (in_step, behind): &Step) -> Result<Scn> {
    if *in_step {
        if let Some(scn) = s.stream_read_scn()? {
            if let Ok(mut b) = behind.lock() {
                b.insert(scn);
            }
            return Ok(scn);
        }
    }
    s.current_scn()
}

/// A wave's SCN ([`wave_scn`]) on `slot`'s session (connected by `connect` when it has none):
/// the session comes back unless its connection was lost; the SCN is `None` when it could not
/// be taken.
pub(super) fn take_scn(
    slot: Option<Box<dyn Session>>,
    step: Step,
    connect: impl FnOnce() -> Option<Box<dyn Session>>,
) -> (Option<Box<dyn Session>>, Option<Scn>) {
    let Some(mut s) = slot.or_else(connect) else {
        return (None, None);
    };
    let scn = wave_scn(&mut *s, &step);
    let keep = !scn.as_ref().is_err_and(gives_up_session);
    (keep.then_some(s), scn.ok())
}
