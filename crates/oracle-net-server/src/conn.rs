//! One connection's transport after ACCEPT: a reader thread, request assembly, breaks.
//!
//! A reader thread turns the socket into packet events on a channel that also carries the
//! backend worker's results, so the connection thread can wait for "a packet or a result" in
//! one place: while a backend call runs it still sees a client's break. Break handling follows
//! what the thin clients expect of a server without out-of-band breaks: a BREAK or INTERRUPT
//! marker during a call is answered with a BREAK marker; the client then sends RESET, answered
//! with RESET and an ORA-01013 status. The abandoned call's result is dropped when it arrives
//! (the backend call itself runs to its end; the next call waits for it). A RESET between calls
//! is answered the same way; a break between calls needs no answer.
//!
//! Requests are not length-prefixed: a request is complete when it parses. A packet shorter
//! than the SDU (or flagged end-of-request, as JDBC does) ends one; after a full-size packet
//! more usually follow, so the parse waits briefly for them before trying.

use crate::transport::Stream;
use std::collections::VecDeque;
use std::io;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use oracle_datum::OraError;

use crate::packet::{self, Packet};
use crate::response::{write_status, Status};
use crate::wire::{WireError, WireResult, Writer};
use crate::worker::JobOutput;

/// What the connection thread waits for.
pub enum Event {
    Packet(Packet),
    /// The reader stopped: the peer closed or sent something that is not a packet.
    Closed(String),
    Job(u64, JobOutput),
}

/// Why a connection ends.
#[derive(Debug)]
pub enum End {
    /// The client logged off or closed the socket.
    Client(String),
    /// Malformed input or an I/O error.
    Broken(String),
    /// The backend asked for the connection to close (after its error was sent).
    Close,
    /// The backend asked for the connection to drop without a word.
    Drop,
}

impl From<io::Error> for End {
    fn from(e: io::Error) -> End {
        End::Broken(format!("I/O error: {e}"))
    }
}

/// How long to wait for the client's RESET after answering its break, before sending the BREAK
/// again, and how many times.
const BREAK_RESEND: Duration = Duration::from_secs(1);
const BREAK_RESENDS: u32 = 5;
/// A pause before answering a break (see `wait_job`).
const BREAK_ANSWER_DELAY: Duration = Duration::from_millis(50);

/// The largest request accepted (a peer must not make the server buffer without bound).
const MAX_REQUEST: usize = 1 << 30;

/// How long to wait for the rest of a request after a full-size packet before parsing anyway.
const CONTINUATION_WAIT: Duration = Duration::from_millis(20);

/// The connection's transport.
pub struct Io {
    stream: Stream,
    pub sdu: usize,
    pub large: bool,
    pub field_version: u8,
    /// The sequence number of the call being answered.
    pub call_seq: u8,
    /// The client reads SB1 values as universal integers.
    pub sb1_universal: bool,
    /// Packet contents may be traced (not during login: they carry the password proof).
    pub trace_payloads: bool,
    events: Receiver<Event>,
    sender: Sender<Event>,
    pending: VecDeque<Packet>,
}

fn cancelled() -> OraError {
    OraError::new(1013, "user requested cancel of current operation")
}

impl Io {
    /// Starts the reader thread over a clone of `stream`.
    pub fn start(stream: Stream, sdu: usize, large: bool) -> io::Result<Io> {
        let (sender, events) = std::sync::mpsc::channel();
        let mut read_half = stream.try_clone()?;
        let tx = sender.clone();
        thread::Builder::new()
            .name("oracle-net-reader".into())
            .spawn(move || loop {
                match packet::read_packet(&mut read_half, large) {
                    Ok(Some(p)) => {
                        if tx.send(Event::Packet(p)).is_err() {
                            break;
                        }
                    }
                    Ok(None) => {
                        let _ = tx.send(Event::Closed("client closed the connection".into()));
                        break;
                    }
                    Err(e) => {
                        let _ = tx.send(Event::Closed(format!("read failed: {e}")));
                        break;
                    }
                }
            })?;
        Ok(Io {
            stream,
            sdu,
            large,
            field_version: crate::negotiate::SERVER_FIELD_VERSION,
            call_seq: 0,
            sb1_universal: false,
            trace_payloads: false,
            events,
            sender,
            pending: VecDeque::new(),
        })
    }

    /// A sender for the worker's results.
    pub fn sender(&self) -> Sender<Event> {
        self.sender.clone()
    }

    pub fn send(&mut self, payload: &[u8]) -> io::Result<()> {
        tracing::debug!(
            bytes = payload.len(),
            first = payload.first().copied(),
            "sending response"
        );
        packet::write_data(&mut self.stream, payload, 0, self.sdu, self.large)
    }

    /// Sends just a closing status for `err`.
    pub fn send_error(&mut self, err: &OraError, cursor_id: u16) -> io::Result<()> {
        let mut w = Writer::new();
        write_status(
            &mut w,
            &Status::error(err, cursor_id, 0),
            self.field_version,
            self.call_seq,
        );
        self.send(w.as_slice())
    }

    fn send_marker(&mut self, marker: u8) -> io::Result<()> {
        packet::write_marker(&mut self.stream, marker, self.large)
    }

    /// Answers a RESET: RESET, then ORA-01013.
    fn answer_reset(&mut self) -> io::Result<()> {
        self.send_marker(packet::MARKER_RESET)?;
        self.send_error(&cancelled(), 0)
    }

    /// Lifts the login's read timeout (the reader thread shares the socket).
    pub fn clear_read_timeout(&self) -> io::Result<()> {
        self.stream.set_read_timeout(None)
    }

    /// Closes the socket (both directions): the reader thread ends too.
    pub fn shutdown(&self) {
        self.stream.shutdown();
    }

    fn next_event(&mut self, timeout: Option<Duration>) -> Result<Option<Event>, End> {
        if let Some(p) = self.pending.pop_front() {
            return Ok(Some(Event::Packet(p)));
        }
        match timeout {
            None => self
                .events
                .recv()
                .map(Some)
                .map_err(|_| End::Broken("event channel closed".into())),
            Some(t) => match self.events.recv_timeout(t) {
                Ok(e) => Ok(Some(e)),
                Err(RecvTimeoutError::Timeout) => Ok(None),
                Err(RecvTimeoutError::Disconnected) => {
                    Err(End::Broken("event channel closed".into()))
                }
            },
        }
    }

    /// Handles a marker that arrives between calls: breaks are moot, a reset is answered.
    fn idle_marker(&mut self, p: &Packet) -> Result<(), End> {
        tracing::debug!(marker = ?p.marker_type(), "marker between calls");
        if p.marker_type() == Some(packet::MARKER_RESET) {
            self.answer_reset()?;
        }
        Ok(())
    }

    /// Reads the next request: DATA packets until `parse` accepts their payloads.
    pub fn next_message<T>(
        &mut self,
        mut parse: impl FnMut(&[u8]) -> WireResult<T>,
    ) -> Result<T, End> {
        let mut acc: Vec<u8> = Vec::new();
        let mut wait = None;
        loop {
            let event = match self.next_event(wait)? {
                Some(e) => e,
                None => {
                    // A full packet was last and nothing followed: the request may be complete.
                    wait = None;
                    match parse(&acc) {
                        Ok(v) => return Ok(v),
                        Err(WireError::NeedMore) => continue,
                        Err(WireError::Malformed(why)) => return Err(End::Broken(why)),
                    }
                }
            };
            let p = match event {
                Event::Packet(p) => p,
                Event::Closed(why) => return Err(End::Client(why)),
                Event::Job(..) => continue, // a call the client abandoned
            };
            match p.ptype {
                packet::MARKER => {
                    self.idle_marker(&p)?;
                    acc.clear();
                    continue;
                }
                packet::CONTROL => continue,
                packet::DATA => {}
                other => return Err(End::Broken(format!("unexpected packet type {other}"))),
            }
            let flags = p.data_flags();
            if flags & packet::DATA_FLAG_EOF != 0 {
                return Err(End::Client("client sent EOF".into()));
            }
            if self.trace_payloads {
                tracing::trace!(flags, len = p.wire_len(), payload = %crate::auth::hex_upper(p.payload()), "DATA packet");
            } else {
                tracing::trace!(flags, len = p.wire_len(), "DATA packet");
            }
            if acc.len() + p.payload().len() > MAX_REQUEST {
                return Err(End::Broken("request larger than 1 GiB".into()));
            }
            acc.extend_from_slice(p.payload());
            let last = flags & packet::DATA_FLAG_END_OF_REQUEST != 0 || p.wire_len() < self.sdu;
            if !last {
                wait = Some(CONTINUATION_WAIT);
                continue;
            }
            wait = None;
            match parse(&acc) {
                Ok(v) => return Ok(v),
                Err(WireError::NeedMore) => continue,
                Err(WireError::Malformed(why)) => return Err(End::Broken(why)),
            }
        }
    }

    /// Waits for job `id`, answering breaks meanwhile. `Err(None)`: the client broke the call
    /// and has been answered; `Err(Some(end))`: the connection is over.
    pub fn wait_job(&mut self, id: u64) -> Result<JobOutput, Option<End>> {
        let mut broken = false;
        let mut resent = 0;
        loop {
            let wait = broken.then_some(BREAK_RESEND);
            match self.next_event(wait).map_err(Some)? {
                Some(Event::Job(jid, out)) if jid == id && !broken => return Ok(out),
                Some(Event::Job(..)) => continue,
                Some(Event::Closed(why)) => return Err(Some(End::Client(why))),
                Some(Event::Packet(p)) if p.ptype == packet::MARKER => match p.marker_type() {
                    Some(packet::MARKER_RESET) => {
                        tracing::debug!("reset during a call: cancelled");
                        self.answer_reset().map_err(|e| Some(e.into()))?;
                        return Err(None);
                    }
                    _ if !broken => {
                        tracing::debug!("break during a call");
                        broken = true;
                        // JDBC thin sends its break from another thread, which must be done
                        // writing before the reading thread can answer our BREAK with RESET.
                        std::thread::sleep(BREAK_ANSWER_DELAY);
                        self.send_marker(packet::MARKER_BREAK)
                            .map_err(|e| Some(e.into()))?;
                    }
                    _ => {}
                },
                Some(Event::Packet(p)) => self.pending.push_back(p),
                None if resent < BREAK_RESENDS => {
                    // JDBC thin now and then misses the BREAK (a race in its break handling)
                    // and waits on; another one is harmless to clients that did see the first.
                    resent += 1;
                    tracing::debug!(resent, "no reset after the break: sending it again");
                    self.send_marker(packet::MARKER_BREAK)
                        .map_err(|e| Some(e.into()))?;
                }
                None => {}
            }
        }
    }
}
