//! When the database refuses one more session (CDC-2011: the user's SESSIONS_PER_USER, the
//! instance's SESSIONS or PROCESSES), the snapshot makes do with fewer instead of stopping: it
//! gives up the session that takes each next wave's SCN ahead first (a round trip a wave), then
//! reading sessions one at a time, each a warning, a `snapshot-readers-reduced` ops event and
//! the `snapshot_readers` gauge, down to one reader beside the coordinating session. Refused
//! there too, it stops with CDC-2011, unless the refused login replaces a session whose
//! connection was lost: the database may count that one until it notices its client gone
//! (dead connection detection), so the login waits it out within cdc.database.reconnect.max.ms.
//! Otherwise waiting would not help: the sessions that take the room (the capture's mining
//! session, other programs of the same user) stay.

use super::Reader;
use crate::errors::{CdcError, Result};
use cdc_core::session::Session;
use serde_json::json;

/// What was given up to make room for a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Room {
    /// The session that took each next wave's SCN ahead.
    Clock,
    /// A reading session: the snapshot reads one chunk fewer at a time.
    Reader,
}

impl Reader<'_> {
    /// Whether a refused session can be made room for: the clock holds one, or more than one
    /// reader is in use.
    pub(super) fn can_make_room(&self) -> bool {
        self.pool.clock.is_some() || self.pool.readers > 1
    }

    /// Room for a reader whose login was refused: the clock's session, else one reader fewer
    /// (the last slot goes; an empty slot, the refused reader's, takes its session first).
    /// Called between waves, when every reading session is back in its slot.
    pub(super) fn room_for_reader(&mut self) -> Option<Room> {
        self.pool.clock_off = true;
        if self.pool.clock.take().is_some() {
            return Some(Room::Clock);
        }
        if self.pool.readers <= 1 {
            return None;
        }
        let empty = (1..self.pool.readers).find(|i| self.pool.sessions[*i].is_none());
        self.one_reader_fewer(empty.unwrap_or(self.pool.readers));
        Some(Room::Reader)
    }

    /// One reader fewer, the one in `slot` given up: the last slot's session (and its lost
    /// flag) moves into it, and the last slot stays empty from now on.
    fn one_reader_fewer(&mut self, slot: usize) {
        self.pool.sessions.swap(slot, self.pool.readers);
        self.pool.lost.swap(slot, self.pool.readers);
        self.pool.sessions[self.pool.readers] = None;
        self.pool.lost[self.pool.readers] = false;
        self.pool.readers -= 1;
    }

    /// Room for the coordinating session, whose login after a lost connection was refused: a
    /// session held now is given up so the login can take its place (the clock's, else the
    /// last reader's that holds one; a reader whose session is out reading keeps it).
    pub(super) fn room_for_main(&mut self) -> Option<Room> {
        if self.pool.clock.take().is_some() {
            self.pool.clock_off = true;
            return Some(Room::Clock);
        }
        let held = (2..=self.pool.readers)
            .rev()
            .find(|i| self.pool.sessions.get(*i).is_some_and(Option::is_some))?;
        self.pool.clock_off = true;
        self.one_reader_fewer(held);
        Some(Room::Reader)
    }

    /// A reading slot whose session was lost and not yet replaced.
    pub(super) fn lost_reader(&self) -> Option<usize> {
        (1..=self.pool.readers).find(|i| self.pool.sessions[*i].is_none() && self.pool.lost[*i])
    }

    /// Log in in place of the lost reader's session, waiting out the session limit for
    /// cdc.database.reconnect.max.ms ([`Reader::replace_lost`]).
    pub(super) fn replace_lost_reader(&mut self) -> Result<()> {
        if let Some(slot) = self.lost_reader() {
            self.pool.sessions[slot] = Some(self.replace_lost()?);
            self.pool.lost[slot] = false;
        }
        Ok(())
    }

    /// A session in place of a lost one, where no other can make room: the database may count
    /// the lost session until it notices its client gone (dead connection detection), so the
    /// session limit is retried with the restart's backoff and budget.
    pub(super) fn replace_lost(&self) -> Result<Box<dyn Session>> {
        tracing::info!(
            "the database refused a session in place of a lost one (the session limit) and none can be given up; waiting for it to let the lost one go"
        );
        crate::source::login_unless_stopped(
            self.connector,
            &self.settings.connect,
            crate::source::Login::ReplacingLost,
            self.shutdown,
        )
        .map_err(super::snapshot_login)
    }

    /// Say what was given up: a warning, a `snapshot-readers-reduced` ops event (`gave_up`
    /// `clock` or `reader`, the `readers` in use now) and the readers gauge.
    pub(super) fn made_room(&self, room: Room, e: &CdcError, table: Option<&str>) -> Result<()> {
        let readers = self.pool.readers;
        let what = match room {
            Room::Clock => {
                "the session that took each next wave's SCN ahead is given up (each wave takes its own SCN)".to_string()
            }
            Room::Reader => format!("the snapshot reads on with {readers} reading session(s)"),
        };
        let at = table.map(|t| format!("{t}: ")).unwrap_or_default();
        tracing::warn!(
            "{at}the database refused another session ({}); {what}. `oracle-cdc doctor --check settings.sessions` says how many the job needs",
            crate::errors::shown(&e.to_string(), 300)
        );
        if let Ok(mut m) = self.metrics.lock() {
            m.readers = readers as u64;
        }
        self.ops.emit(
            "snapshot-readers-reduced",
            json!({
                "table": table,
                "code": e.code().info().code,
                "gave_up": match room { Room::Clock => "clock", Room::Reader => "reader" },
                "readers": readers,
                "message": crate::errors::shown(&e.to_string(), 500),
            }),
        )
    }
}
