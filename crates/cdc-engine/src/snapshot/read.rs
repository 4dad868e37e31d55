//! Reading chunks: up to `cdc.snapshot.threads` at once, each on a session of its own, all at
//! one SCN taken before them (the first wave's while the table is planned, each later wave's
//! while the wave before it is read, on a session of its own: [`Waves::next_scn`]); failed
//! chunks retried with a fresh SCN, chunks whose undo is gone halved down to exactly 1,000 rows
//! (a half below that is read at 1,000), then CDC-8001. The next wave is read while the last one
//! is published, within `cdc.snapshot.max.pending.chunks` ([`Reader::read_table`]).

use super::plan::{Chunk, Planner};
use super::target::{Strategy, TableTarget};
use crate::crashpoint::Point;
use crate::errors::{CdcError, Code, Result};
use crate::ops::{OpsLog, SnapshotMetrics};
use crate::settings::Settings;
use crate::source::{login_unless_stopped, Login, Stop};
use cdc_core::model::{ColumnInfo, FetchedRow, FlashbackQuery, Scn};
use cdc_core::session::prelude::*;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

mod call_limit;
mod last;
mod moved;
mod retry;
mod room;
mod scn;
use scn::{take_next_scn, take_scn, wave_scn};

/// Smallest chunk the ORA-01555 halving goes down to.
pub const MIN_HALVED_ROWS: u64 = 1000;

/// What the reader tells its caller, in order.
#[derive(Debug)]
pub enum ReaderEvent<'a> {
    /// The next wave is due and no chunk waits to be published: its SCN is taken when this
    /// returns (a throttle waits here, and may stream meanwhile).
    Pace,
    /// The next wave could be read now, while chunks of the last one are still to be
    /// published: set `false` to have it wait until they are (then `Pace` comes first).
    Overlap(&'a mut bool),
    /// A wave of chunks read (or about to be read) at this SCN comes next: the changes committed
    /// before it go first. The caller may say which columns the table has at it (from the
    /// change stream's schema history, streamed up to it); left `None`, the dictionary's stand.
    Wave(Scn, &'a mut Option<Vec<ColumnInfo>>),
    /// A chunk was read.
    Chunk(ReadChunk),
}

/// A chunk waiting to be read, with what its earlier attempts did.
#[derive(Debug, Clone)]
struct Pending {
    chunk: Chunk,
    /// Rows it is counted at (halved after ORA-01555).
    rows: u64,
    attempts: u32,
    retries: u32,
    /// Reads again after ORA-01466 (counted apart: each is a new DDL).
    ddl_retries: u32,
}

impl Pending {
    fn new(chunk: Chunk, rows: u64) -> Pending {
        Pending {
            chunk,
            rows,
            attempts: 0,
            retries: 0,
            ddl_retries: 0,
        }
    }
}

/// A chunk read at one SCN.
#[derive(Debug, Clone)]
pub struct ReadChunk {
    pub chunk: Chunk,
    pub scn: Scn,
    pub rows: Vec<FetchedRow>,
    /// The columns read, in the rows' order: the table's at `scn` (an ADD, DROP or RENAME
    /// COLUMN since the snapshot began shows here), cdc.columns.exclude left out.
    pub columns: Vec<ColumnInfo>,
    /// Reads it took (1 when the first one succeeded).
    pub attempts: u32,
    /// The table's last chunk.
    pub is_final: bool,
    /// No chunk of the table after this one has rows: its last row is the table's last record
    /// (a chunk with rows; set only where the caller asked for it, [`Reader::marks`]). The
    /// table's last chunks may be empty (ROWID ranges past the rows, a filter), so this is
    /// not [`ReadChunk::is_final`].
    pub last_rows: bool,
    /// Chunks of the same wave, read already, that come right after this one (0 for the
    /// wave's last): the caller may make them durable and acknowledge them together.
    pub wave_rest: usize,
}

pub struct Reader<'a> {
    pub connector: &'a dyn Connector,
    pub settings: &'a Settings,
    pub ops: &'a OpsLog,
    pub metrics: Arc<Mutex<SnapshotMetrics>>,
    /// Every wave at this SCN (a blocking snapshot) instead of the current one.
    pub pin_scn: Option<Scn>,
    /// Find the chunk holding each table's last record ([`ReadChunk::last_rows`]): the sink
    /// marks it (Debezium's `last` / `last_in_data_collection`). Before the last chunk with
    /// rows of a wave is handed over, the reader looks past the wave for rows: in the next
    /// wave (read meanwhile, and read on at its SCN while its chunks are all empty), or, when
    /// no wave is read ahead, in the next chunks read at this wave's SCN.
    pub marks: bool,
    /// Read each row's ROWID (the sink writes it: a record's `row_id`).
    pub row_ids: bool,
    /// The sink has each row once (the export, [`super::ChunkSink::each_row_once`]): a table
    /// whose segment moved after chunks of it were published stops (read/moved.rs).
    pub each_row_once: bool,
    /// The whole run told to stop (see [`super::Snapshot::shutdown`]): a login being retried
    /// gives up at once, with [`CdcError::StoppedReconnecting`].
    pub shutdown: Option<Stop<'a>>,
    /// Waves are published in step with a change stream ([`super::ChunkSink::in_step_with_stream`]):
    /// each wave's SCN is [`Session::stream_read_scn`], which on a standby is where the stream
    /// can mine to, not the applied SCN it would wait a log switch for. A retry after a failed
    /// read (ORA-01555 at that older SCN among them) takes the current SCN.
    pub in_step: bool,
    /// The wave SCNs [`Session::stream_read_scn`] gave, below the current SCN then (those not
    /// older than the wave being read): a chunk whose undo is gone there is read again at
    /// the current SCN as it is, not halved as after an ORA-01555 at a current SCN.
    behind: Arc<Mutex<std::collections::BTreeSet<Scn>>>,
    /// The sessions it reads with, moved whole into the thread that reads the next wave and
    /// back.
    pool: Pool,
}

/// The snapshot's sessions and what the session limit left of them.
#[derive(Default)]
struct Pool {
    /// The coordinating session, then one per reading thread.
    sessions: Vec<Option<Box<dyn Session>>>,
    /// Reading sessions in use: `cdc.snapshot.threads`, fewer once the database refused one
    /// (the session limit, [`room`]); the slots past it stay empty.
    readers: usize,
    /// The session that takes the next wave's SCN while a wave is read (see
    /// [`Waves::next_scn`]).
    clock: Option<Box<dyn Session>>,
    /// The clock given up after the database refused a session: each wave then takes its SCN
    /// on the coordinating session (a round trip more, a reader kept).
    clock_off: bool,
    /// By slot (0: the coordinating session): its session's connection was lost and no new one
    /// has logged in yet. The database may count a lost session until it notices its client
    /// gone, so where no room can be made its replacement waits out the session limit
    /// ([`room`]).
    lost: Vec<bool>,
    /// The reading sessions are out in their threads (a wave is being read): slots look empty
    /// that are not.
    readers_out: bool,
}

impl Pool {
    /// Sessions for `threads` readers and the coordinating one, none connected yet.
    fn new(threads: usize) -> Pool {
        Pool {
            sessions: (0..=threads).map(|_| None).collect(),
            readers: threads,
            clock: None,
            clock_off: false,
            lost: vec![false; threads + 1],
            readers_out: false,
        }
    }
}

fn query(
    t: &TableTarget,
    columns: &[ColumnInfo],
    chunk: &Chunk,
    scn: Scn,
    row_ids: bool,
) -> FlashbackQuery {
    FlashbackQuery {
        table: t.info.name.clone(),
        columns: columns.iter().map(|c| c.name.clone()).collect(),
        key_columns: match &t.strategy {
            Strategy::Key(k) => k.clone(),
            _ => Vec::new(),
        },
        scn,
        range: chunk.range(),
        filter: t.filter.clone(),
        row_ids,
    }
}

/// A snapshot's own login refused at the session limit is [`CdcError::SnapshotSessionRefused`]
/// (room is made among the snapshot's sessions, and a signal snapshot refused one for good
/// ends alone).
fn snapshot_login(e: CdcError) -> CdcError {
    match e {
        CdcError::Connect {
            code: Code::Cdc2011,
            message,
        } => CdcError::SnapshotSessionRefused(message),
        other => other,
    }
}

/// Whether a session that failed with `e` is given up: a lost connection is gone; one whose
/// process ran out of memory (ORA-04030, ORA-04036) too, so the retry's new session starts
/// with its memory freed.
fn gives_up_session(e: &CdcError) -> bool {
    matches!(
        e,
        CdcError::ConnectionLost(_) | CdcError::OutOfCallMemory(_)
    )
}

/// Read one chunk on `slot`'s session (connecting one if it has none); the session comes back
/// unless its connection was lost.
fn read_in(
    connector: &dyn Connector,
    policy: &crate::settings::ConnectRetry,
    shutdown: Option<Stop>,
    slot: Option<Box<dyn Session>>,
    q: &FlashbackQuery,
    rows_hint: usize,
) -> (Option<Box<dyn Session>>, Result<Vec<FetchedRow>>) {
    let mut s = match slot {
        Some(s) => s,
        // Readers connect after the coordinating session did: an unknown service now is a
        // listener restarted under the snapshot (a login again waits for it).
        None => match login_unless_stopped(connector, policy, Login::Again, shutdown) {
            Ok(s) => s,
            Err(e) => return (None, Err(snapshot_login(e))),
        },
    };
    // The filter read, and the table's whole name, for the message (a source may not know).
    let r = read_on(s.as_mut(), q, rows_hint).map_err(|e| match e {
        CdcError::FilterFailed { message, .. } => CdcError::FilterFailed {
            table: q.table.to_string(),
            filter: q.filter.clone(),
            message,
        },
        other => other,
    });
    let keep = !r.as_ref().is_err_and(gives_up_session);
    (keep.then_some(s), r)
}

/// A session, or `None` when it could not be connected (the read that needs it connects again
/// and reports why).
fn connect_retrying_ok(
    connector: &dyn Connector,
    policy: &crate::settings::ConnectRetry,
    shutdown: Option<Stop>,
) -> Option<Box<dyn Session>> {
    match login_unless_stopped(connector, policy, Login::Again, shutdown) {
        Ok(s) => Some(s),
        Err(e) => {
            tracing::debug!(
                "a reading session connected ahead failed ({e}); its read connects again"
            );
            None
        }
    }
}

/// Read one chunk, its rows' vector made for `rows_hint` rows at once (growing it by doubling
/// copied and faulted in a chunk's worth of memory several times over).
fn read_on(
    session: &mut dyn Session,
    q: &FlashbackQuery,
    rows_hint: usize,
) -> Result<Vec<FetchedRow>> {
    let mut rows = Vec::with_capacity(rows_hint);
    session.read_as_of(q, &mut |r| {
        rows.push(r);
        Ok(())
    })?;
    Ok(rows)
}

impl<'a> Reader<'a> {
    pub fn new(
        connector: &'a dyn Connector,
        settings: &'a Settings,
        ops: &'a OpsLog,
        metrics: Arc<Mutex<SnapshotMetrics>>,
    ) -> Reader<'a> {
        let threads = settings.snapshot.threads.max(1) as usize;
        Reader {
            connector,
            settings,
            ops,
            metrics,
            pin_scn: None,
            marks: false,
            row_ids: true,
            each_row_once: false,
            shutdown: None,
            in_step: false,
            behind: Default::default(),
            pool: Pool::new(threads),
        }
    }

    /// The coordinating session (planning, SCNs, retries).
    fn main(&mut self) -> Result<&mut dyn Session> {
        if self.pool.sessions[0].is_none() {
            let policy = &self.settings.connect;
            self.pool.sessions[0] = Some(
                login_unless_stopped(self.connector, policy, Login::First, self.shutdown)
                    .map_err(snapshot_login)?,
            );
            self.pool.lost[0] = false;
        }
        match self.pool.sessions[0].as_deref_mut() {
            Some(s) => Ok(s),
            None => Err(CdcError::ConnectionLost("no session".into())),
        }
    }

    /// Run `f` on the coordinating session, reconnecting after a lost connection (up to
    /// `cdc.snapshot.chunk.retries` times).
    fn on_main<T>(&mut self, mut f: impl FnMut(&mut dyn Session) -> Result<T>) -> Result<T> {
        let mut lost = 0u32;
        loop {
            let r = match self.main() {
                Ok(s) => f(s),
                Err(e) => Err(e),
            };
            match r {
                Err(CdcError::ConnectionLost(m)) if lost < self.settings.snapshot.chunk_retries => {
                    lost += 1;
                    self.count_retry();
                    tracing::warn!("connection lost ({m}); reconnecting ({lost})");
                    // Each retry an ops event (CDC-5007), as a chunk's or a mining call's is.
                    let e = CdcError::ConnectionLost(m);
                    self.ops.emit(
                        "source-retry",
                        serde_json::json!({
                            "cause": crate::source::retry_cause(&e),
                            "code": e.code().info().code,
                            "operation": "the snapshot's planning and SCNs",
                            "attempt": lost,
                            "wait_ms": 0,
                            "message": crate::errors::shown(&e.to_string(), 500),
                        }),
                    )?;
                    self.pool.sessions[0] = None;
                    self.pool.lost[0] = true;
                }
                // The coordinating session's login again (after a lost connection) refused at
                // the session limit: a session the snapshot holds gives it room.
                Err(e @ CdcError::SnapshotSessionRefused(_)) if self.pool.sessions[0].is_none() => {
                    match self.room_for_main() {
                        Some(room) => self.made_room(room, &e, None)?,
                        // Nothing to give up: a lost session the database still counts is
                        // waited out, as a restart is; not while the readers are out reading
                        // (the caller asks again once they are back, and one makes room).
                        None if self.pool.lost[0] && !self.pool.readers_out => {
                            self.pool.sessions[0] = Some(self.replace_lost()?);
                            self.pool.lost[0] = false;
                        }
                        None => return Err(e),
                    }
                }
                other => return other,
            }
        }
    }

    /// Whether `scn` was a wave's SCN taken behind the current one, in step with a stream;
    /// those older are forgotten.
    fn was_behind(&self, scn: Scn) -> bool {
        match self.behind.lock() {
            Ok(mut b) => {
                *b = b.split_off(&scn);
                b.contains(&scn)
            }
            Err(_) => false,
        }
    }

    fn count_retry(&self) {
        if let Ok(mut m) = self.metrics.lock() {
            m.retries += 1;
        }
    }

    /// Start planning a table, and take its first wave's SCN meanwhile on a reading session
    /// (one round trip fewer a table: the planner's key range or extents are asked without an
    /// SCN, so the two need not follow each other). Call it only when [`ReaderEvent::Pace`]
    /// would be answered (nothing waits to be published; capture has streamed as far as it
    /// goes): the SCN it takes is then no older than what streaming has published. `None`
    /// for the SCN when the reading session could not take it (the first wave takes its own).
    ///
    /// The other reading sessions the first wave will use are connected meanwhile too (a
    /// connection is several round trips on Oracle, and the container check one more): as
    /// many as the table's statistics say it has chunks, up to a wave. One that fails to
    /// connect is left to the read, which connects again with its retries and reports it.
    pub fn planner(
        &mut self,
        t: &TableTarget,
        resume: Option<&crate::offsets::ResumePoint>,
    ) -> Result<(Planner, Option<Scn>)> {
        // Nothing of a table is read before its policies are checked (CDC-2206, CDC-2207).
        let (settings, ops) = (self.settings, self.ops);
        self.on_main(|s| super::policies::check(s, t, settings, ops))?;
        let rows = self.settings.snapshot.chunk_rows;
        if self.pin_scn.is_some() || self.pool.sessions.len() < 2 {
            return Ok((self.on_main(|s| Planner::new(t, rows, resume, s))?, None));
        }
        // The coordinating session first: at a session limit the reading sessions connected
        // meanwhile must not take its place (a reader refused is made do without; it is not).
        self.main()?;
        let connector = self.connector;
        let policy = &self.settings.connect;
        let shutdown = self.shutdown;
        let step = (self.in_step, self.behind.clone());
        let slot = self.pool.sessions[1].take();
        let ahead = self.sessions_ahead(t);
        std::thread::scope(|scope| {
            let scn = scope.spawn(move || {
                take_scn(slot, step, || {
                    login_unless_stopped(connector, policy, Login::Again, shutdown).ok()
                })
            });
            let connects: Vec<_> = (2..=ahead)
                .filter(|i| self.pool.sessions[*i].is_none())
                .map(|i| {
                    let h = scope.spawn(move || connect_retrying_ok(connector, policy, shutdown));
                    (i, h)
                })
                .collect();
            // The reading sessions are out (being connected, taking the SCN) meanwhile.
            self.pool.readers_out = true;
            let planner = self.on_main(|s| Planner::new(t, rows, resume, s));
            self.pool.readers_out = false;
            for (i, h) in connects {
                if let Ok(Some(s)) = h.join() {
                    self.pool.sessions[i] = Some(s);
                }
            }
            // Fewer readers since (the coordinating session needed the room): not held idle.
            self.pool
                .sessions
                .iter_mut()
                .skip(self.pool.readers + 1)
                .for_each(|s| *s = None);
            let scn = match scn.join() {
                Ok((slot, scn)) => {
                    self.pool.sessions[1] = slot;
                    scn
                }
                Err(_) => None,
            };
            // The coordinating session refused while they were out: asked again now they are
            // back, so one can make room.
            let planner = match planner {
                Err(CdcError::SnapshotSessionRefused(_)) => {
                    self.on_main(|s| Planner::new(t, rows, resume, s))
                }
                other => other,
            };
            Ok((planner?, scn))
        })
    }

    /// How many reading sessions the table's first wave will use: a wave, or fewer when the
    /// statistics say the table has fewer chunks (a table without them: a wave).
    fn sessions_ahead(&self, t: &TableTarget) -> usize {
        let wave = self.wave_size();
        let rows = self.settings.snapshot.chunk_rows.max(1);
        match t.info.stats.num_rows {
            Some(n) => (n.div_ceil(rows).max(1) as usize).min(wave),
            None => wave,
        }
    }

    /// Chunks read in one wave: `cdc.snapshot.threads`, capped by
    /// `cdc.snapshot.max.pending.chunks`.
    fn wave_size(&self) -> usize {
        self.pool
            .readers
            .max(1)
            .min(self.settings.snapshot.max_pending_chunks.max(1) as usize)
    }

    /// Read the table's chunks from the planner, handing each to `emit` in chunk order, and
    /// telling it each wave's SCN before the wave's chunks (capture streams up to it first).
    /// Returns false when `stop` said to stop before the table was done.
    ///
    /// Waves overlap: while one wave's chunks are published, a thread of its own takes the next
    /// wave's SCN, plans it, asks the dictionary for its columns and reads it, once the chunks
    /// held (read or being read, not yet published) leave room for a whole wave under
    /// `cdc.snapshot.max.pending.chunks` and the caller agrees ([`ReaderEvent::Overlap`]; not
    /// while a throttle would wait, as its wait streams). Its `Wave` comes only after the last
    /// chunk before it is published: the changes committed between the two SCNs still go
    /// between the two waves' chunks. Its columns are the dictionary's after its SCN (a DDL
    /// newer than the SCN fails the read with ORA-01466); when the caller names others at
    /// `Wave` (capture's schema history, streamed up to the SCN by then), the wave is dropped
    /// and read again the way a wave that does not overlap is: SCN, `Wave`, the caller's
    /// columns, then the reads.
    ///
    /// A failed chunk goes back to the front of the queue with the chunks after it (their reads
    /// are dropped), so every chunk is published right after the changes committed before its
    /// SCN: a retry never lets a chunk read at an older SCN follow newer changes.
    pub fn read_table(
        &mut self,
        t: &TableTarget,
        (planner, first_scn): (Planner, Option<Scn>),
        stop: &dyn Fn() -> bool,
        emit: &mut dyn FnMut(ReaderEvent) -> Result<()>,
    ) -> Result<bool> {
        if let Ok(mut m) = self.metrics.lock() {
            m.readers = self.pool.readers as u64;
        }
        // Kept if the reader thread is lost (a panic): a new pool of as many readers.
        let (threads, readers, clock_off) = (
            self.pool.sessions.len() - 1,
            self.pool.readers,
            self.pool.clock_off,
        );
        let reader = Reader {
            connector: self.connector,
            settings: self.settings,
            ops: self.ops,
            metrics: self.metrics.clone(),
            pin_scn: self.pin_scn,
            marks: self.marks,
            row_ids: self.row_ids,
            each_row_once: self.each_row_once,
            shutdown: self.shutdown,
            in_step: self.in_step,
            behind: self.behind.clone(),
            pool: std::mem::take(&mut self.pool),
        };
        let mut w = Some(Waves {
            reader,
            planner,
            pending: VecDeque::new(),
            dictionary_columns: t.columns.clone(),
            first_scn,
            next_scn: None,
            current_next: false,
            probe_chunks: usize::MAX,
        });
        let r = std::thread::scope(|scope| {
            let mut next = None;
            let r = read_waves(scope, t, stop, emit, &mut w, &mut next);
            // A wave still being read when the table ends early (a stop, an error): its reads
            // are dropped, its sessions kept.
            if let Some(Ahead::Reading(h)) = next.take() {
                if let Ok((back, _)) = h.join() {
                    w = Some(back);
                }
            }
            r
        });
        self.pool = match w {
            Some(w) => w.reader.pool,
            None => Pool {
                readers,
                clock_off,
                ..Pool::new(threads)
            },
        };
        r
    }

    /// The table's columns from the dictionary now, read after the wave's SCN was taken: if
    /// its DDL is newer than that SCN the read fails with ORA-01466 and the chunks are read
    /// again at a fresh SCN, so the columns a successful read selects are the ones at its SCN.
    /// Columns cdc.columns.exclude names stay out; a table the dictionary no longer has keeps
    /// the columns it was planned with (its read fails on its own).
    fn columns_now(&mut self, t: &TableTarget) -> Result<Vec<ColumnInfo>> {
        let name = t.info.name.clone();
        let now = self.on_main(|s| s.table_columns(&name))?;
        Ok(match now {
            Some(cols) => t.read_columns(&cols),
            None => t.columns.clone(),
        })
    }
}

/// What reads waves: the sessions, the planner and the queue of chunks. It moves into the
/// thread that reads the next wave while the last one is published, and back.
struct Waves<'a> {
    reader: Reader<'a>,
    planner: Planner,
    pending: VecDeque<Pending>,
    /// The columns the dictionary gave last (at first, those the table was planned with): the
    /// next wave is read with them while the dictionary is asked again.
    dictionary_columns: Vec<ColumnInfo>,
    /// The first wave's SCN, taken while the table was planned (after the pace).
    first_scn: Option<Scn>,
    /// The next wave's SCN, taken while the last wave was read (one round trip fewer a wave).
    /// It is newer than that wave's, and streaming moves only when a wave is announced or a
    /// pace waits: dropped before a pace (whose wait may stream past it) and after a failed
    /// read (a retry takes a fresh SCN), it is never older than what streaming has published.
    next_scn: Option<Scn>,
    /// The last wave's SCN could not be read any more (ORA-01555, ORA-01466, …): the next wave
    /// takes the current SCN even when in step with a stream ([`Reader::in_step`]), whose SCN
    /// (on a standby, the end of its archived logs) may be the one that failed.
    current_next: bool,
    /// Most chunks one key probe asks for: fewer once a probe passed a per-call limit of the
    /// database ([`Waves::plan_next`]).
    probe_chunks: usize,
}

/// A wave read: its SCN and columns, its chunks and what each read returned.
struct ReadWave {
    scn: Scn,
    columns: Vec<ColumnInfo>,
    /// `Wave` was emitted before the reads began (the wave did not overlap another).
    announced: bool,
    wave: Vec<Pending>,
    results: Vec<Result<Vec<FetchedRow>>>,
}

type Background<'s, 'a> = std::thread::ScopedJoinHandle<'s, (Waves<'a>, Result<Option<ReadWave>>)>;

/// The next wave, read while the last one is published: still being read, or read (taken
/// early to see whether it has rows, [`Reader::marks`]).
enum Ahead<'s, 'a> {
    Reading(Background<'s, 'a>),
    Read(Result<Option<ReadWave>>),
}

/// Where the reader's events go.
type Emit<'e> = &'e mut dyn FnMut(ReaderEvent) -> Result<()>;

fn gone() -> CdcError {
    CdcError::Database("a snapshot wave reader thread panicked (or the reader went missing)".into())
}

fn read_waves<'s, 'e, 'a: 's>(
    scope: &'s std::thread::Scope<'s, 'e>,
    t: &'s TableTarget,
    stop: &dyn Fn() -> bool,
    emit: &mut dyn FnMut(ReaderEvent) -> Result<()>,
    w: &mut Option<Waves<'a>>,
    next: &mut Option<Ahead<'s, 'a>>,
) -> Result<bool> {
    let table = t.info.name.to_string();
    // Chunks of the table published, and plans made again after its segment moved.
    let (mut published, mut replans) = (0u64, 0u32);
    loop {
        if stop() {
            return Ok(false);
        }
        let read = match next.take() {
            Some(Ahead::Reading(h)) => {
                let (back, r) = h.join().map_err(|_| gone())?;
                *w = Some(back);
                r
            }
            Some(Ahead::Read(r)) => r,
            None => {
                if w.as_ref().is_some_and(Waves::is_done) {
                    return Ok(true);
                }
                // Nothing waits to be published: the throttle may wait (and stream), then the
                // SCN is taken with streaming caught up to the last wave (the first wave's was
                // taken so, before the table was planned).
                let ws = w.as_mut().ok_or_else(gone)?;
                if ws.first_scn.is_none() {
                    ws.next_scn = None;
                    emit(ReaderEvent::Pace)?;
                    if stop() {
                        return Ok(false);
                    }
                }
                ws.next_wave(scope, t, Some(&mut *emit), None)
            }
        };
        let read = match read {
            // Its segment moved: planned again, or the table ends (read/moved.rs).
            Err(e @ CdcError::SegmentsMoved { .. }) => {
                w.as_mut()
                    .ok_or_else(gone)?
                    .moved(t, e, published, &mut replans)?;
                continue;
            }
            other => other?,
        };
        let Some(read) = read else {
            return Ok(true);
        };
        let ws = w.as_mut().ok_or_else(gone)?;
        let ReadWave {
            scn,
            mut columns,
            announced,
            mut wave,
            results,
        } = read;
        if !announced {
            let mut known = None;
            emit(ReaderEvent::Wave(scn, &mut known))?;
            if let Some(c) = known {
                if column_names(&c) != column_names(&columns) {
                    tracing::debug!(
                        "{table}: the columns at SCN {scn} are not the dictionary's; the wave is read again"
                    );
                    for p in wave.into_iter().rev() {
                        ws.pending.push_front(p);
                    }
                    continue;
                }
                // The caller's, for the records (the same names).
                columns = c;
            }
        }
        let last_wave = ws.planner.is_done() && ws.pending.is_empty();
        let count = wave.len();
        let mut chunks: Vec<ReadChunk> = Vec::new();
        let mut failed = None;
        for (i, result) in results.into_iter().enumerate() {
            wave[i].attempts += 1;
            match result {
                Ok(rows) => chunks.push(ReadChunk {
                    chunk: wave[i].chunk.clone(),
                    scn,
                    rows,
                    columns: columns.clone(),
                    attempts: wave[i].attempts,
                    is_final: last_wave && i + 1 == count,
                    last_rows: false,
                    wave_rest: 0,
                }),
                Err(e) => {
                    failed = Some((i, e));
                    break;
                }
            }
        }
        // Requeued before the next wave is planned; a chunk that gives up fails the table after
        // the chunks read before it are published.
        let fatal = match failed {
            Some((i, e)) => {
                ws.next_scn = None;
                ws.current_next = retry::scn_unreadable(&e);
                let behind = ws.reader.was_behind(scn);
                ws.retry(&mut wave, i, e, &table, behind)?
            }
            None => None,
        };
        let ops = ws.reader.ops;
        let size = ws.reader.wave_size();
        let max_pending = ws.reader.settings.snapshot.max_pending_chunks.max(1) as usize;
        let pinned = ws.reader.pin_scn.is_some();
        // The chunk with the table's last record: known now when this wave ends the table,
        // else once past the wave is looked at, just before it is handed over.
        let mut undecided = None;
        let marks = ws.reader.marks && fatal.is_none();
        if let (true, Some(x)) = (marks, chunks.iter().rposition(|c| !c.rows.is_empty())) {
            match chunks.len() == count && last_wave {
                true => chunks[x].last_rows = true,
                false => undecided = Some(x),
            }
        }
        let mut queue: VecDeque<ReadChunk> = chunks.into();
        let mut asked = fatal.is_some();
        let mut j = 0;
        while let Some(mut rc) = queue.pop_front() {
            if !asked && queue.len() + 1 + size <= max_pending {
                asked = true;
                let mut may = !stop();
                if may {
                    emit(ReaderEvent::Overlap(&mut may))?;
                }
                if let Some(mut moved) = if may { w.take() } else { None } {
                    // A blocking snapshot reads every wave at one SCN: with the same columns.
                    let reuse = pinned.then(|| columns.clone());
                    *next = Some(Ahead::Reading(scope.spawn(move || {
                        let r = moved.next_wave(scope, t, None, reuse);
                        (moved, r)
                    })));
                    crate::crashpoint::hit(Point::SnapshotWaveOverlapped)?;
                }
            }
            if undecided == Some(j) {
                rc.last_rows = last::nothing_after(w, next, t, &mut rc, &mut queue)?;
            }
            rc.wave_rest = queue.len();
            emit(ReaderEvent::Chunk(rc))?;
            published += 1;
            j += 1;
        }
        if let Some((event, e)) = fatal {
            ops.emit("snapshot-chunk-failed", event)?;
            return Err(e);
        }
    }
}

impl<'a> Waves<'a> {
    /// The table is planned to its end and no chunk is left: no wave, so no SCN to take (a
    /// round trip) and no pace to wait for.
    fn is_done(&self) -> bool {
        self.pending.is_empty() && self.planner.is_done()
    }

    /// Take the next wave's SCN, plan its chunks and read them, each on a session of its own;
    /// `None` when the table has no chunk left. `announce`: nothing waits to be published, so
    /// `Wave` is emitted before the reads and the caller may give the columns; else they are
    /// `reuse`, or the dictionary's.
    fn next_wave<'s, 'e>(
        &mut self,
        scope: &'s std::thread::Scope<'s, 'e>,
        t: &TableTarget,
        announce: Option<Emit<'_>>,
        reuse: Option<Vec<ColumnInfo>>,
    ) -> Result<Option<ReadWave>>
    where
        'a: 's,
    {
        if self.is_done() {
            return Ok(None);
        }
        let size = self.reader.wave_size();
        let mut scn = match (
            self.reader.pin_scn,
            self.first_scn.take(),
            self.next_scn.take(),
        ) {
            (Some(pinned), _, _) => pinned,
            (None, Some(first), _) => first,
            (None, None, Some(next)) => next,
            (None, None, None) => {
                let in_step = self.reader.in_step && !std::mem::take(&mut self.current_next);
                let step = (in_step, self.reader.behind.clone());
                self.reader.on_main(|s| wave_scn(s, &step))?
            }
        };
        let want = size.saturating_sub(self.pending.len());
        if want > 0 && !self.planner.is_done() {
            // Planned at a fresh SCN when the one taken cannot be read any more (a DDL since).
            let (more, planned_at) = self.plan_next(scn, want, &t.info.name.to_string())?;
            scn = planned_at;
            self.pending.extend(
                more.into_iter()
                    .map(|(chunk, rows)| Pending::new(chunk, rows)),
            );
        }
        if self.pending.is_empty() {
            return Ok(None);
        }
        // The ROWID ranges still name the table's segments (asked now the SCN is taken).
        self.check_segments(t)?;
        let r = &mut self.reader;
        let mut known = None;
        let announced = announce.is_some();
        if let Some(emit) = announce {
            emit(ReaderEvent::Wave(scn, &mut known))?;
        }
        // Planning may have given up a reader (the coordinating session took its room).
        let n = r.wave_size().min(self.pending.len());
        let wave: Vec<Pending> = self.pending.drain(..n).collect();
        // Another wave follows: its SCN is taken while this one is read.
        let more = !self.pending.is_empty() || !self.planner.is_done();
        let clock =
            (r.pin_scn.is_none() && more && !r.pool.clock_off).then(|| take_next_scn(scope, r));
        let (columns, mut results) = match known.or(reuse) {
            Some(c) => {
                let results = read_wave(scope, r, t, &wave, &c, scn, false).0;
                (c, results)
            }
            None => {
                // The dictionary is asked after the SCN, as the reads run with the columns it
                // gave last (one round trip fewer a wave). Columns other than those read (a
                // DDL before the SCN) read the wave again with them; a DDL after the SCN fails
                // the reads with ORA-01466 and the wave is retried at a fresh SCN.
                let guess = std::mem::take(&mut self.dictionary_columns);
                let (results, now) = read_wave(scope, r, t, &wave, &guess, scn, true);
                // The coordinating session's login refused while the readers held their
                // sessions: asked again now they are back, so one can make room.
                let now = match now {
                    Some(Err(CdcError::SnapshotSessionRefused(_))) => Some(r.columns_now(t)),
                    other => other,
                };
                let now = now.unwrap_or_else(|| Ok(guess.clone()))?;
                self.dictionary_columns = now.clone();
                if column_names(&now) == column_names(&guess) {
                    (now, results)
                } else {
                    tracing::debug!(
                        "{}: the dictionary's columns changed before SCN {scn}; the wave is read again with them",
                        t.info.name
                    );
                    let results = read_wave(scope, r, t, &wave, &now, scn, false).0;
                    (now, results)
                }
            }
        };
        if let Some(h) = clock {
            let (slot, next, refused) = h.join().unwrap_or((None, None, None));
            // Refused at the session limit: no clock from now on (each wave takes its own
            // SCN), not a refused login a wave.
            if let Some(e) = refused {
                r.pool.clock_off = true;
                r.made_room(room::Room::Clock, &e, Some(&t.info.name.to_string()))?;
            }
            // Given up meanwhile (room made for the coordinating session): not held idle.
            r.pool.clock = if r.pool.clock_off { None } else { slot };
            // Newer than this wave's, so a retry or a wave read again keeps the order.
            self.next_scn = next.filter(|n| *n >= scn);
        }
        let mut wave = wave;
        self.read_on_while_empty(scope, t, scn, &columns, &mut wave, &mut results);
        Ok(Some(ReadWave {
            scn,
            columns,
            announced,
            wave,
            results,
        }))
    }
}

fn column_names(cs: &[ColumnInfo]) -> Vec<&str> {
    cs.iter().map(|c| c.name.as_str()).collect()
}

/// The result of each chunk read.
type WaveResults = Vec<Result<Vec<FetchedRow>>>;

/// Read `wave`'s chunks at `scn` with `columns`, each on a reading session of its own (the
/// coordinating one, the first, stays free); with `ask_dictionary`, the table's columns are
/// asked on the coordinating session meanwhile.
fn read_wave<'s, 'e, 'a: 's>(
    scope: &'s std::thread::Scope<'s, 'e>,
    r: &mut Reader<'a>,
    t: &TableTarget,
    wave: &[Pending],
    columns: &[ColumnInfo],
    scn: Scn,
    ask_dictionary: bool,
) -> (WaveResults, Option<Result<Vec<ColumnInfo>>>) {
    let connector: &'a dyn Connector = r.connector;
    let settings: &'a Settings = r.settings;
    let shutdown = r.shutdown;
    let handles: Vec<_> = wave
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let q = query(t, columns, &p.chunk, scn, r.row_ids);
            let slot = r.pool.sessions[i + 1].take();
            // A chunk holds about `cdc.snapshot.chunk.rows` rows (a whole-table read may hold
            // more, and grows).
            let hint = settings.snapshot.chunk_rows.min(1 << 20) as usize;
            scope.spawn(move || read_in(connector, &settings.connect, shutdown, slot, &q, hint))
        })
        .collect();
    r.pool.readers_out = true;
    let asked = ask_dictionary.then(|| r.columns_now(t));
    r.pool.readers_out = false;
    let results = handles
        .into_iter()
        .enumerate()
        .map(|(i, h)| match h.join() {
            Ok((slot, res)) => {
                if slot.is_some() {
                    r.pool.lost[i + 1] = false;
                } else if res
                    .as_ref()
                    .is_err_and(|e| matches!(e, CdcError::ConnectionLost(_)))
                {
                    r.pool.lost[i + 1] = true;
                }
                r.pool.sessions[i + 1] = slot;
                res
            }
            Err(_) => Err(CdcError::Database("a chunk reader thread panicked".into())),
        })
        .collect();
    // A reader given up while the wave was read (the coordinating session needed its room):
    // the session it read with goes too.
    r.pool
        .sessions
        .iter_mut()
        .skip(r.pool.readers + 1)
        .for_each(|s| *s = None);
    (results, asked)
}
