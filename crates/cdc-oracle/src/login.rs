//! A login bounded in time (`cdc.database.connect.timeout.ms`): the TCP connect, Oracle Net's
//! connect, the TLS handshake, authentication and the session setup, together.
//!
//! Why a thread of its own: the thin driver (`oracledb` 26.0.0-beta.5) bounds only the TCP
//! connect (`Config::set_transport_connect_timeout`). Its transport clears the socket's read
//! timeout on every new connection, so the NS connect, the handshake and both authentication
//! round trips wait as long as the server takes, and the socket is out of reach from outside the
//! crate. A listener or instance that accepts the connection and never answers (a hung
//! instance, logins stuck behind a full archiver, a firewall dropping all but the TCP
//! handshake) would hold the caller, and with it capture, for ever: no error, no event, past
//! `cdc.database.reconnect.max.ms` and deaf to a stop, which the login loops only look at
//! between tries. So the login runs on a thread of its own and the caller waits for it until
//! the deadline, then reports a connect timeout (ORA-12170, CDC-2010), which those loops retry
//! and between whose tries they see a stop. The same holds for the thick driver, whose login
//! OCI bounds only where sqlnet.ora or the descriptor says so.
//!
//! The thread is left to finish on its own: it ends when the database answers or the
//! connection closes (or the process exits). A session it still gets after the caller gave up
//! is logged off there, never handed to anyone.

use crate::connect::{OraCode, Password};
use crate::driver::DriverError;
use crate::errors::{CdcError, Code};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What became of work run by [`until`].
#[derive(Debug)]
pub(crate) enum Waited<T> {
    /// It ended in time with this.
    Done(T),
    /// The deadline passed first: the work goes on without anyone waiting for it.
    TimedOut,
    /// Its thread ended without a result (it panicked).
    Vanished,
}

/// Run `work` on a thread of its own and wait for it until `deadline`. A result that comes
/// after the caller stopped waiting is dropped on that thread (a session logged off there, not
/// on the caller's). Err: no thread could be started.
pub(crate) fn until<T: Send + 'static>(
    deadline: Instant,
    work: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<Waited<T>> {
    // No buffer: a result is handed over only to a caller still waiting in `recv_timeout`, so a
    // late one comes back to the sending thread as the send's error, never into a buffer the
    // caller's thread would free (and close a session in).
    let (tx, rx) = mpsc::sync_channel(0);
    std::thread::Builder::new()
        .name("oracle-login".into())
        .spawn(move || {
            let result = work();
            if let Err(mpsc::SendError(late)) = tx.send(result) {
                drop(late);
            }
        })?;
    let left = deadline.saturating_duration_since(Instant::now());
    Ok(match rx.recv_timeout(left) {
        Ok(result) => Waited::Done(result),
        Err(RecvTimeoutError::Timeout) => Waited::TimedOut,
        Err(RecvTimeoutError::Disconnected) => Waited::Vanished,
    })
}

/// A login given up at its bound: the connect timeout Oracle's client reports (ORA-12170
/// "TNS:Connect timeout occurred"), so it maps like the TCP connect timeout does (CDC-2010,
/// retried by the login loops).
pub(crate) fn timed_out(limit: Duration, password: &Password, url: &str) -> CdcError {
    DriverError::new(
        Some(OraCode::Ora(12170)),
        format!(
            "no answer to the login within {} ms (cdc.database.connect.timeout.ms): given up \
             (similar to ORA-12170)",
            limit.as_millis()
        ),
    )
    .at_login(password, url)
}

/// A login whose thread ended without an answer, or could not be started.
pub(crate) fn no_thread(url: &str, why: &str) -> CdcError {
    CdcError::Connect {
        code: Code::Cdc2006,
        message: format!("{url}: the login's thread {why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a login's thread hands back; when dropped it tells on which thread.
    struct Noted(mpsc::Sender<Option<String>>);

    impl Drop for Noted {
        fn drop(&mut self) {
            let _ = self
                .0
                .send(std::thread::current().name().map(str::to_string));
        }
    }

    /// A result in time is handed over; one that comes after the caller gave up is dropped on
    /// the login's own thread (where a session's logoff would run), not handed to anyone.
    #[test]
    fn a_late_result_is_dropped_on_the_login_thread() {
        let r = until(Instant::now() + Duration::from_secs(5), || 7);
        assert!(matches!(r, Ok(Waited::Done(7))));
        let (tx, rx) = mpsc::channel();
        let r = until(Instant::now() + Duration::from_millis(50), move || {
            std::thread::sleep(Duration::from_millis(300));
            Noted(tx)
        });
        assert!(matches!(r, Ok(Waited::TimedOut)));
        assert_eq!(
            rx.recv_timeout(Duration::from_secs(5)),
            Ok(Some("oracle-login".to_string()))
        );
    }
}
