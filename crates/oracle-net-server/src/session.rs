//! One client connection from ACCEPT to goodbye: negotiation, login, then calls.
//!
//! The login follows O5LOGON (see `auth`): phase one answers with the challenge, phase two
//! checks the client's proof, opens the backend session and answers with the session's
//! identity. Every failure the client should see (wrong password, the backend's ORA-01045 /
//! ORA-28000 / ORA-28001 / ORA-01109 …) is sent as the login's error; the connection then
//! closes. A warning the session has for its login (ORA-28002) goes with the answer. After
//! login each request is one call (see `exec` for execute and fetch), answered in full before
//! the next request is read.

use crate::transport::Stream;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use oracle_datum::{AfterError, OraError};

use crate::auth::{self, Challenge, FN_AUTH_PHASE_ONE, FN_AUTH_PHASE_TWO};
use crate::conn::{End, Io};
use crate::connect::Accepted;
use crate::exec::Cursors;
use crate::lob::LobStore;
use crate::negotiate::{self, ClientProtocol};
use crate::response::{write_parameters, write_status, write_warning, Status};
use crate::ttc::{self, Call, ParseContext, Piggyback, Request};
use crate::wire::{malformed, Reader, WireResult, Writer};
use crate::worker::{JobOutput, Worker};
use crate::{Backend, Login};

static NEXT_SESSION_ID: AtomicU32 = AtomicU32::new(100);

/// A logged-in connection's state.
pub struct Session {
    pub(crate) io: Io,
    pub(crate) info: crate::ServerInfo,
    /// The client is JDBC thin (some strings travel without their length byte).
    pub(crate) jdbc: bool,
    pub(crate) worker: Worker,
    pub(crate) cursors: Cursors,
    pub(crate) lobs: LobStore,
}

fn invalid_login() -> OraError {
    OraError::new(1017, "invalid credential or not authorized; logon denied")
}

/// Upper-cases a user name unless it was quoted.
fn normalize_user(raw: &str) -> String {
    let t = raw.trim();
    match t.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        Some(quoted) => quoted.to_string(),
        None => t.to_uppercase(),
    }
}

/// A login message: the function header, then the auth body.
fn parse_login(
    payload: &[u8],
    jdbc: bool,
    field_version: u8,
) -> WireResult<(u8, u8, auth::AuthRequest)> {
    let mut r = Reader::new(payload);
    // Piggybacks are not expected before login; a function message is.
    if r.u8()? != ttc::MSG_FUNCTION {
        return malformed("expected a login function");
    }
    let code = r.u8()?;
    let seq = r.u8()?;
    if field_version >= negotiate::FIELD_VERSION_23_1_EXT_1 {
        r.ub8()?;
    }
    if code != FN_AUTH_PHASE_ONE && code != FN_AUTH_PHASE_TWO {
        return malformed(format!("expected a login function, got {code}"));
    }
    let rest = &payload[r.pos()..];
    Ok((code, seq, auth::parse_auth(rest, jdbc)?))
}

fn version_text(v: (u8, u8, u8, u8, u8)) -> String {
    format!("{}.{}.{}.{}.{}", v.0, v.1, v.2, v.3, v.4)
}

fn version_number(v: (u8, u8, u8, u8, u8)) -> u32 {
    (u32::from(v.0) << 24)
        | (u32::from(v.1) << 16)
        | (u32::from(v.2 & 0x0f) << 12)
        | (u32::from(v.3) << 4)
        | u32::from(v.4 & 0x0f)
}

/// The session identity sent at the end of a successful login.
fn session_pairs(
    backend: &dyn Backend,
    accepted: &Accepted,
    combo: &[u8; 32],
) -> Vec<(String, String, u32)> {
    let info = backend.info();
    let sid = NEXT_SESSION_ID.fetch_add(1, Ordering::Relaxed);
    let version = version_number(info.version);
    let pairs: Vec<(&str, String)> = vec![
        ("AUTH_VERSION_NO", version.to_string()),
        ("AUTH_VERSION_STRING", info.banner.clone()),
        ("AUTH_VERSION_SQL", "19".into()),
        ("AUTH_SESSION_ID", sid.to_string()),
        ("AUTH_SERIAL_NUM", (sid % 60_000 + 1).to_string()),
        ("AUTH_SC_SERVICE_NAME", accepted.service.clone()),
        ("AUTH_SC_DBUNIQUE_NAME", info.db_name.clone()),
        ("AUTH_SC_REAL_DBUNIQUE_NAME", info.db_name.clone()),
        ("AUTH_DBNAME", info.db_name.clone()),
        ("AUTH_INSTANCENAME", info.instance_name.clone()),
        ("AUTH_SC_INSTANCE_NAME", info.instance_name.clone()),
        ("AUTH_INSTANCE_NO", "1".into()),
        ("AUTH_SC_DB_DOMAIN", info.db_domain.clone()),
        ("AUTH_MAX_OPEN_CURSORS", "1000".into()),
        ("AUTH_MAX_IDEN_LENGTH", "128".into()),
        ("AUTH_NLS_LXCCHARSET", "AL32UTF8".into()),
        ("AUTH_NLS_LXCNCHARSET", "AL16UTF16".into()),
        ("AUTH_SERVER_PID", std::process::id().to_string()),
    ];
    let mut out = vec![(
        "AUTH_SVR_RESPONSE".to_string(),
        auth::server_response(combo),
        0,
    )];
    out.extend(pairs.into_iter().map(|(k, v)| (k.to_string(), v, 0)));
    out
}

/// Negotiation and login. `Ok((worker, jdbc))` (the worker runs the backend session) once
/// logged in.
fn login(
    io: &mut Io,
    backend: &Arc<dyn Backend>,
    accepted: &Accepted,
) -> Result<(Worker, bool), End> {
    let client: ClientProtocol = io.next_message(negotiate::parse_protocol)?;
    tracing::debug!(driver = %client.driver, "protocol negotiation");
    io.send(&negotiate::protocol_response())?;
    let types = io.next_message(negotiate::parse_data_types)?;
    let field_version = types.field_version;
    io.field_version = field_version;
    io.sb1_universal = types.sb1_universal;
    tracing::debug!(field_version, "data types negotiation");
    io.send(&negotiate::data_types_response(types))?;

    let jdbc = client.is_jdbc();
    let (code, seq, phase_one) = io.next_message(|p| parse_login(p, jdbc, field_version))?;
    io.call_seq = seq;
    if code != FN_AUTH_PHASE_ONE {
        return Err(End::Broken("login without phase one".into()));
    }
    let user = normalize_user(&phase_one.user);
    tracing::debug!(%user, "login phase one");
    let (challenge, pairs) = Challenge::new(backend.verifier(&user), &user);
    let mut w = Writer::new();
    write_parameters(&mut w, &pairs);
    write_status(&mut w, &Status::ok(0, 0), field_version, io.call_seq);
    io.send(w.as_slice())?;

    let (code, seq, phase_two) = io.next_message(|p| parse_login(p, jdbc, field_version))?;
    io.call_seq = seq;
    if code != FN_AUTH_PHASE_TWO {
        return Err(End::Broken("expected login phase two".into()));
    }
    let Some(combo) = challenge.verify(&phase_two) else {
        tracing::debug!(%user, "login refused: ORA-01017");
        io.send_error(&invalid_login(), 0)?;
        return Err(End::Close);
    };
    let login = Login {
        user,
        service: accepted.service.clone(),
        program: phase_one
            .get("AUTH_PROGRAM_NM")
            .unwrap_or_default()
            .to_string(),
        machine: phase_one
            .get("AUTH_MACHINE")
            .unwrap_or_default()
            .to_string(),
        driver: phase_two
            .get("SESSION_CLIENT_DRIVER_NAME")
            .unwrap_or(&client.driver)
            .to_string(),
    };
    let backend_session = match backend.open(&login) {
        Ok(s) => s,
        Err(e) => {
            tracing::debug!(user = %login.user, code = e.code, "login refused by the backend");
            io.send_error(&e, 0)?;
            return Err(End::Close);
        }
    };
    // Read before the session moves to its worker: the warning goes with the login's answer.
    let warning = backend_session.login_warning();
    let mut worker = Worker::start(backend_session, io.sender())?;
    if let Some(alter) = phase_two.get("AUTH_ALTER_SESSION") {
        run_alter_session(io, &mut worker, alter.trim_end_matches('\0').to_string())?;
    }
    let mut w = Writer::new();
    write_parameters(&mut w, &session_pairs(backend.as_ref(), accepted, &combo));
    if let Some(warning) = &warning {
        tracing::debug!(user = %login.user, code = warning.code, "login warning");
        write_warning(&mut w, warning);
    }
    write_status(&mut w, &Status::ok(0, 0), field_version, io.call_seq);
    io.send(w.as_slice())?;
    tracing::debug!(user = %login.user, driver = %login.driver, "logged in");
    Ok((worker, jdbc))
}

/// The login's ALTER SESSION (the client's time zone): the backend runs it like any statement;
/// a backend that does not understand it does not fail the login for it.
fn run_alter_session(io: &mut Io, worker: &mut Worker, sql: String) -> Result<(), End> {
    let Some(id) = worker.submit(crate::worker::execute_job(sql, Vec::new(), false, None)) else {
        return Err(End::Broken("backend worker stopped".into()));
    };
    match io.wait_job(id) {
        Ok(JobOutput::Executed { results, .. }) => {
            if let Some(Err(e)) = results.into_iter().next() {
                tracing::debug!(error = %e, "login ALTER SESSION not applied");
            }
            Ok(())
        }
        Ok(_) | Err(None) => Ok(()),
        Err(Some(end)) => Err(end),
    }
}

/// Serves one accepted connection until it ends.
pub fn serve(stream: Stream, backend: Arc<dyn Backend>, accepted: Accepted) {
    let mut io = match Io::start(stream, accepted.sdu, accepted.large) {
        Ok(io) => io,
        Err(e) => {
            tracing::debug!(error = %e, "could not start the connection's reader");
            return;
        }
    };
    let end = match login(&mut io, &backend, &accepted) {
        Ok((worker, jdbc)) => {
            // Logged in: calls may be as far apart as the client likes.
            let _ = io.clear_read_timeout();
            io.trace_payloads = true;
            let mut session = Session {
                io,
                info: backend.info(),
                jdbc,
                worker,
                cursors: Cursors::default(),
                lobs: LobStore::default(),
            };
            let end = session.run();
            session.io.shutdown();
            end
        }
        Err(end) => {
            io.shutdown();
            end
        }
    };
    match end {
        End::Client(why) => tracing::debug!(%why, "connection ended by the client"),
        End::Broken(why) => tracing::info!(%why, "connection closed: protocol error"),
        End::Close => tracing::debug!("connection closed by the server"),
        End::Drop => tracing::debug!("connection dropped by the server"),
    }
}

impl Session {
    /// Serves calls until the connection ends.
    fn run(&mut self) -> End {
        loop {
            let request = {
                let cursors = &self.cursors;
                let lobs = &self.lobs;
                let lookup = |id: u16| cursors.bind_info(id);
                let ctx = ParseContext {
                    field_version: self.io.field_version,
                    raw_sql: self.jdbc,
                    sb1_universal: self.io.sb1_universal,
                    lobs,
                    cursor_binds: &lookup,
                };
                self.io.next_message(|p| ttc::parse_request(p, &ctx))
            };
            let request = match request {
                Ok(r) => r,
                Err(end) => return end,
            };
            self.io.call_seq = request.seq;
            if let Err(end) = self.handle(request) {
                return end;
            }
        }
    }

    fn handle(&mut self, req: Request) -> Result<(), End> {
        for p in req.piggybacks {
            match p {
                Piggyback::CloseCursors(ids) => self.cursors.close(&ids),
                Piggyback::FreeTempLobs(locators) => self.lobs.free(&locators),
                Piggyback::Ignored(code) => tracing::trace!(code, "piggyback"),
            }
        }
        let fv = self.io.field_version;
        let seq = self.io.call_seq;
        match req.call {
            Call::Execute(ex) => self.execute(ex),
            Call::ReExecute {
                fetch,
                cursor_id,
                num_iters,
                commit,
                bind_rows,
            } => self.reexecute(fetch, cursor_id, num_iters, commit, bind_rows),
            Call::Fetch { cursor_id, rows } => self.fetch(cursor_id, rows),
            Call::Commit => self.simple_job(|s| JobOutput::Done(s.commit())),
            Call::Rollback => self.simple_job(|s| JobOutput::Done(s.rollback())),
            Call::Ping => self.send_status(&Status::ok(0, 0)),
            Call::Version => {
                let info = self.info.clone();
                let banner = format!(
                    "Oracle Database {}\nVersion {}",
                    info.banner,
                    version_text(info.version)
                );
                let mut w = Writer::new();
                w.u8(crate::response::MSG_PARAMETER);
                w.ub(banner.len() as u64);
                w.raw(banner.as_bytes());
                w.ub(u64::from(version_number(info.version)));
                write_status(&mut w, &Status::ok(0, 0), fv, seq);
                self.io.send(w.as_slice()).map_err(End::from)
            }
            Call::Logoff => {
                self.send_status(&Status::ok(0, 0))?;
                Err(End::Client("logoff".into()))
            }
            Call::LobOp(op) => {
                let mut w = Writer::new();
                match self.lobs.perform(&op, &mut w) {
                    Ok(()) => write_status(&mut w, &Status::ok(0, 0), fv, seq),
                    Err(e) => {
                        w = Writer::new();
                        write_status(&mut w, &Status::error(&e, 0, 0), fv, seq);
                    }
                }
                self.io.send(w.as_slice()).map_err(End::from)
            }
            Call::Unsupported(code) => {
                tracing::debug!(code, "unsupported function");
                let e = OraError::new(
                    3115,
                    format!("unsupported network datatype or representation (function {code})"),
                );
                self.send_status(&Status::error(&e, 0, 0))
            }
        }
    }

    pub(crate) fn send_status(&mut self, s: &Status) -> Result<(), End> {
        let mut w = Writer::new();
        write_status(&mut w, s, self.io.field_version, self.io.call_seq);
        self.io.send(w.as_slice()).map_err(End::from)
    }

    /// Sends a backend error as it asks: reported, reported then closed, or dropped.
    pub(crate) fn report(
        &mut self,
        mut w: Writer,
        err: &OraError,
        cursor_id: u16,
        row_count: u64,
    ) -> Result<(), End> {
        if err.after == AfterError::Drop {
            return Err(End::Drop);
        }
        write_status(
            &mut w,
            &Status::error(err, cursor_id, row_count),
            self.io.field_version,
            self.io.call_seq,
        );
        self.io.send(w.as_slice())?;
        match err.after {
            AfterError::Close => Err(End::Close),
            _ => Ok(()),
        }
    }

    /// Runs a job; `Ok(None)` when the client broke the call (already answered).
    pub(crate) fn job(
        &mut self,
        job: impl FnOnce(&mut dyn crate::ServerSession) -> JobOutput + Send + 'static,
    ) -> Result<Option<JobOutput>, End> {
        let Some(id) = self.worker.submit(job) else {
            return Err(End::Broken("backend worker stopped".into()));
        };
        match self.io.wait_job(id) {
            Ok(out) => Ok(Some(out)),
            Err(None) => Ok(None),
            Err(Some(end)) => Err(end),
        }
    }

    fn simple_job(
        &mut self,
        job: impl FnOnce(&mut dyn crate::ServerSession) -> JobOutput + Send + 'static,
    ) -> Result<(), End> {
        match self.job(job)? {
            Some(JobOutput::Done(Ok(()))) => self.send_status(&Status::ok(0, 0)),
            Some(JobOutput::Done(Err(e))) => self.report(Writer::new(), &e, 0, 0),
            Some(_) => self.send_status(&Status::ok(0, 0)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_names_fold_unless_quoted() {
        assert_eq!(normalize_user("cdc"), "CDC");
        assert_eq!(normalize_user("\"cdc\""), "cdc");
    }

    #[test]
    fn versions_pack_as_18c_and_later_clients_read_them() {
        let n = version_number((19, 22, 0, 0, 0));
        assert_eq!(
            (
                n >> 24,
                (n >> 16) & 0xff,
                (n >> 12) & 0xf,
                (n >> 4) & 0xff,
                n & 0xf
            ),
            (19, 22, 0, 0, 0)
        );
    }
}
