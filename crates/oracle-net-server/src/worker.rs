//! The thread that calls the backend.
//!
//! [`ServerSession`] calls may block (a slow statement is a fault drill the emulator runs on
//! purpose), yet a client whose call timeout expires sends a break that must be answered at
//! once. So the session lives on a worker thread that runs one job at a time, while the
//! connection thread keeps reading the socket; a job's result comes back as an event on the
//! connection's channel, tagged with the job's id so the result of a job the client gave up on
//! (after a break) is recognised and dropped. A panicking backend call fails that call with
//! ORA-00600 instead of taking the connection's threads down.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Sender};
use std::thread;

use oracle_datum::{Datum, OraError};

use crate::conn::Event;
use crate::{Bind, Outcome, RowSource, ServerSession};

/// Rows pulled for one fetch.
pub struct FetchBatch {
    pub rows: Vec<Vec<Datum>>,
    /// The source again, with the row after the batch (if any) read ahead.
    pub source: Box<dyn RowSource>,
    pub peeked: Option<Vec<Datum>>,
    /// No rows remain.
    pub end: bool,
    /// The source failed after `rows`.
    pub error: Option<OraError>,
}

/// What a job produced.
pub enum JobOutput {
    /// One outcome per bind row (array DML runs the statement once per row, stopping at an error),
    /// and the container the statement ran in (the one its cursor now belongs to).
    Executed {
        results: Vec<Result<Outcome, OraError>>,
        container: Option<String>,
    },
    Fetched(FetchBatch),
    Done(Result<(), OraError>),
}

type JobFn = Box<dyn FnOnce(&mut dyn ServerSession) -> JobOutput + Send>;

/// The handle the connection thread sends jobs through.
pub struct Worker {
    jobs: Sender<(u64, JobFn)>,
    next_id: u64,
}

fn internal_error(what: &str) -> OraError {
    OraError::new(
        600,
        format!("internal error code, arguments: [oracle-net-server], [{what}]"),
    )
}

impl Worker {
    /// Starts the worker thread owning `session`; results go to `events`.
    pub fn start(
        mut session: Box<dyn ServerSession>,
        events: Sender<Event>,
    ) -> std::io::Result<Worker> {
        let (jobs, rx) = channel::<(u64, JobFn)>();
        thread::Builder::new()
            .name("oracle-net-backend".into())
            .spawn(move || {
                for (id, job) in rx {
                    let out = catch_unwind(AssertUnwindSafe(|| job(session.as_mut())))
                        .unwrap_or_else(|_| {
                            JobOutput::Done(Err(internal_error("backend call panicked")))
                        });
                    if events.send(Event::Job(id, out)).is_err() {
                        break;
                    }
                }
                // The connection ended (logoff or the client went away): roll back what is open.
                let _ = catch_unwind(AssertUnwindSafe(|| session.close()));
            })?;
        Ok(Worker { jobs, next_id: 0 })
    }

    /// Queues a job; its id tags the result event.
    pub fn submit(
        &mut self,
        job: impl FnOnce(&mut dyn ServerSession) -> JobOutput + Send + 'static,
    ) -> Option<u64> {
        self.next_id += 1;
        self.jobs.send((self.next_id, Box::new(job))).ok()?;
        Some(self.next_id)
    }
}

/// ORA-65108: a cursor used outside the container it was parsed in.
fn other_container() -> OraError {
    OraError::new(
        65108,
        "invalid use of a cursor belonging to another container",
    )
}

/// Runs a statement once per bind row (then commits, for an autocommit execute). `parsed_in`:
/// for a cursor executed again without a parse, the container it was parsed in (`None` for a
/// parse).
pub fn execute_job(
    sql: String,
    rows: Vec<Vec<Bind>>,
    commit: bool,
    parsed_in: Option<Option<String>>,
) -> impl FnOnce(&mut dyn ServerSession) -> JobOutput + Send {
    move |session| {
        let container = session.container();
        if parsed_in.as_ref().is_some_and(|p| *p != container) {
            return JobOutput::Executed {
                results: vec![Err(other_container())],
                container,
            };
        }
        let mut out = Vec::with_capacity(rows.len().max(1));
        if rows.is_empty() {
            out.push(session.execute(&sql, &[]));
        }
        for binds in &rows {
            let result = session.execute(&sql, binds);
            let failed = result.is_err();
            out.push(result);
            if failed {
                break;
            }
        }
        if commit && out.iter().all(Result::is_ok) {
            if let Err(e) = session.commit() {
                out.push(Err(e));
            }
        }
        JobOutput::Executed {
            results: out,
            container,
        }
    }
}

/// Pulls up to `n` rows (and one more, read ahead, to know whether the source is done).
/// `parsed_in`: the container the cursor was parsed in.
pub fn fetch_job(
    mut source: Box<dyn RowSource>,
    peeked: Option<Vec<Datum>>,
    n: usize,
    parsed_in: Option<Option<String>>,
) -> impl FnOnce(&mut dyn ServerSession) -> JobOutput + Send {
    move |session| {
        if parsed_in.is_some_and(|p| p != session.container()) {
            return JobOutput::Fetched(FetchBatch {
                rows: Vec::new(),
                source,
                peeked,
                end: false,
                error: Some(other_container()),
            });
        }
        let mut rows = Vec::with_capacity(n.min(10_000));
        let mut pending = peeked;
        let mut error = None;
        let mut end = false;
        while rows.len() < n {
            let next = match pending.take() {
                Some(row) => Ok(Some(row)),
                None => source.next_row(),
            };
            match next {
                Ok(Some(row)) => rows.push(row),
                Ok(None) => {
                    end = true;
                    break;
                }
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        let mut peeked = None;
        if !end && error.is_none() {
            match source.next_row() {
                Ok(Some(row)) => peeked = Some(row),
                Ok(None) => end = true,
                // Report it with the next fetch, after the rows already pulled.
                Err(e) if rows.is_empty() => error = Some(e),
                Err(e) => {
                    let failed: Box<dyn RowSource> = Box::new(Failed(Some(e)));
                    source = failed;
                }
            }
        }
        JobOutput::Fetched(FetchBatch {
            rows,
            source,
            peeked,
            end,
            error,
        })
    }
}

/// A row source whose next pull fails (an error read ahead).
struct Failed(Option<OraError>);

impl RowSource for Failed {
    fn next_row(&mut self) -> Result<Option<Vec<Datum>>, OraError> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(None),
        }
    }
}
