//! Thin mode (`cdc.database.driver=thin`, the default): the pure-Rust `oracledb` crate (pinned
//! `=26.0.0-beta.5`), which speaks Oracle Net itself, so nothing but this binary is needed.
//!
//! What this module makes up for, from the beta's source:
//! - It panics where it meets what it does not implement: a server that requires native network
//!   encryption (an unimplemented-feature panic on the ACCEPT packet), an account with only an 11G verifier (an
//!   `unwrap()` on the missing PBKDF2 parameters), batch errors. Every call runs inside
//!   [`guard`], which turns a panic into a [`DriverError`] marked `thin_limit` (CDC-2009 at
//!   login) and keeps the panic message off stderr. After a panic inside a call the connection's
//!   state is unknown (the driver's lock may be poisoned): the session gives it up, later calls
//!   fail as "not connected" (ORA-03114, CDC-5007) and capture reconnects.
//! - It decodes character data strictly (`from_utf8`, no lossy option) and, meeting a value
//!   not valid AL32UTF8 or anything else of an answer it cannot parse, returns from the middle
//!   of the answer without reading the rest of its packets. Before 23ai the database marks no
//!   end of an answer, so the rest stays on the connection and the next call would read it as
//!   its own. Such an error ([`Failure::leaves_answer_unread`]) gives the session up as a
//!   panic does, and maps to CDC-3009 (not retried: the same row fails again), naming the call.
//! - Its errors without an ORA number (a refused TCP connection, the listener's refusal, the
//!   network closing the connection, a call timeout) get the number the thick driver reports for
//!   the same condition (see [`error`]), so both drivers map to the same CDC codes.
//! - TIMESTAMP WITH TIME ZONE arrives in UTC without its offset: the adapter selects such columns
//!   as `TO_CHAR(…, 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM')` on both drivers (`sql::SelectItem::
//!   TimestampTz`); a plain TSTZ (none is selected so) would come as UTC (`+00:00`).
//! - TIMESTAMP WITH LOCAL TIME ZONE arrives in the session's time zone, which the session setup
//!   makes UTC, as on thick.
//! - NUMBER arrives as `OracleNumber`, whose text has every digit (no float in between); binds
//!   are parsed into one from the exact decimal text.
//! - LOBs are read whole (the crate fetches CLOB/NCLOB/BLOB as LONG/LONG RAW unless asked for
//!   locators). There is no cancel call; a call timeout sends a break and resets the connection.
//! - Of a login it bounds only the TCP connect (set here from `cdc.database.connect.timeout.ms`):
//!   the rest runs without a read timeout, so `OracleConnector::open` waits for the whole login
//!   on a thread of its own until its deadline (`crate::login`).
//! - A login's warning (ORA-28002, the password in its grace period) is the connection's
//!   `last_warning` until a later one replaces it: it is read right after the login and kept
//!   (`DbSession::login_warning`).
//! - Dropping a connection logs off and waits for the answer without a limit: a session given
//!   up after a call failed below the database (a call timeout, a lost connection) is dropped on
//!   a thread of its own.

use super::{Cell, DbResult, DbSession, Driver, DriverError, FetchOptions, Rows, Unread};
use crate::connect::{OraCode, Password};
use crate::errors::CdcError;
use crate::fetch::Bind;
use crate::types_map::{self, DateTimeParts};
use cdc_core::stack_text::StackText;
use cdc_core::types::Str;
use oracledb::{
    Config, Connection, Cursor, ErrorKind, OracleIntervalDS, OracleIntervalYM, OracleNumber,
    OracleTimestamp, Row, ToDbValue,
};
use std::cell::{Cell as StdCell, RefCell};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once};
use std::time::Duration;

thread_local! {
    /// Set while this thread runs a [`guard`]ed call: the panic hook then keeps quiet.
    static QUIET: StdCell<bool> = const { StdCell::new(false) };
    /// The last quiet panic's message and location.
    static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// A panic hook that records panics inside [`guard`] instead of printing them, and hands every
/// other panic to the hook that was there before.
fn install_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(StdCell::get) {
                let text = payload_text(info.payload());
                let text = match info.location() {
                    // The crate's own path, from `oracledb-<version>/` on.
                    Some(l) => {
                        let file = l.file();
                        let file = file.find("oracledb-").map_or(file, |at| &file[at..]);
                        format!("{text} at {file}:{}", l.line())
                    }
                    None => text,
                };
                PANIC.with(|p| *p.borrow_mut() = Some(text));
            } else {
                previous(info);
            }
        }));
    });
}

/// Run `f`, turning a panic into `Err` with its message (the driver's panics on what it does
/// not support: unimplemented features, `unwrap()`s on missing parameters).
pub fn guard<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    let was = QUIET.with(|q| q.replace(true));
    let result = std::panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    result.map_err(|payload| {
        let recorded = PANIC.with(|p| p.borrow_mut().take());
        recorded.unwrap_or_else(|| payload_text(&*payload))
    })
}

/// A panic's message (`panic!` with a literal or a formatted text).
fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
}

/// A panic inside a driver call.
fn panicked(message: String) -> DriverError {
    DriverError {
        thin_limit: true,
        ..DriverError::new(None, format!("the driver panicked: {message}"))
    }
}

/// [`guard`] for a call that returns a driver result; a panic sets `broken`.
fn call_marking<T>(broken: &AtomicBool, f: impl FnOnce() -> DbResult<T>) -> DbResult<T> {
    guard(f).unwrap_or_else(|m| {
        broken.store(true, Ordering::Relaxed);
        Err(panicked(m))
    })
}

/// Where an error happened: a login maps some conditions differently (a timeout while
/// connecting is ORA-12170, during a call DPI-1067 as on thick).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Connect,
    Call,
}

/// A socket error's equivalent ORA- number, from the I/O error text in the driver's message
/// (the crate keeps the `io::Error` private).
pub fn io_code(text: &str, phase: Phase) -> Option<OraCode> {
    let t = text.to_ascii_lowercase();
    // rustls's errors at the login, which the TLS stream hands on as I/O errors: the handshake
    // happens on the connection's first write, so a bad certificate shows as a failed send.
    // (During a call such an error is a broken connection, below, which capture reconnects.)
    if phase == Phase::Connect
        && [
            "certificate",
            "peer sent no certificates",
            "received fatal alert",
            "peer is incompatible",
            "peer misbehaved",
            "corrupt message",
            "cannot decrypt peer",
            "received unexpected message",
            "handshake",
        ]
        .iter()
        .any(|m| t.contains(m))
    {
        return Some(OraCode::Ora(29024));
    }
    if t.contains("refused") {
        // ECONNREFUSED: nothing listens there (thick: ORA-12541).
        return Some(OraCode::Ora(12541));
    }
    if [
        "lookup",
        "name or service not known",
        "nodename nor servname",
        "no such host",
    ]
    .iter()
    .any(|m| t.contains(m))
    {
        return Some(OraCode::Ora(12545));
    }
    // EHOSTUNREACH / ENETUNREACH at a connect: no route to the database now (thick:
    // ORA-12543, retried: a reconnect during a network outage meets it). The texts differ
    // (libc's "No route to host" and "Network is unreachable", musl's "Network unreachable",
    // Rust's own "host unreachable"); all but the first say unreachable. During a call the
    // connection is gone, as below.
    if phase == Phase::Connect && (t.contains("unreachable") || t.contains("no route to host")) {
        return Some(OraCode::Ora(12543));
    }
    match phase {
        // Reset, broken pipe, end of file: the connection is gone (thick: ORA-03113).
        Phase::Call => Some(OraCode::Ora(3113)),
        Phase::Connect
            if ["reset", "broken pipe", "aborted", "end of file"]
                .iter()
                .any(|m| t.contains(m)) =>
        {
            Some(OraCode::Ora(3113))
        }
        Phase::Connect => None,
    }
}

/// What a thin error is, for the mapping: the crate's `ErrorKind` reduced to what decides a
/// code (the crate's errors cannot be built outside it, this can: the mapping is tested).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// ORA-01403 from a single-row query.
    NoDataFound,
    /// The listener refused the connection with this ORA- number.
    Refused(usize),
    /// The listener does not know the service (its text says "Similar to ORA-12514").
    UnknownService,
    /// The listener does not know the SID (ORA-12505).
    UnknownSid,
    /// The database or network closed the connection, or it could not recover from an
    /// interrupted call.
    Closed,
    /// Not connected any more (or its lock poisoned by a panic in an earlier call).
    NotConnected,
    /// The call timeout (or, while connecting, the TCP connect timeout) passed.
    Timeout,
    /// A socket error; its text says which.
    Stream,
    /// Something the thin driver does not do (server release, feature).
    Unsupported,
    /// TLS (tcps): the handshake failed (a certificate not trusted or not for this host, a
    /// plain-TCP port), or the wallet could not be read or decrypted.
    Tls,
    /// A character value of the answer is not valid in the character set the driver declares
    /// (AL32UTF8, AL16UTF16): the crate decodes strictly and stops reading the answer there.
    Encoding,
    /// A part of the answer the crate cannot parse, where it stops reading the answer.
    Protocol,
    /// Anything else (a bad connect string, a conversion): no code.
    Other,
}

impl Failure {
    fn of(kind: &ErrorKind) -> Failure {
        match kind {
            ErrorKind::NoDataFound => Failure::NoDataFound,
            ErrorKind::ListenerRefusedConnection(_, _, _, n) => Failure::Refused(*n),
            ErrorKind::InvalidServiceName(..) => Failure::UnknownService,
            ErrorKind::InvalidSid(..) => Failure::UnknownSid,
            ErrorKind::DeadConnection | ErrorKind::UnableToRecover => Failure::Closed,
            ErrorKind::NotConnected | ErrorKind::LockPoisoned => Failure::NotConnected,
            ErrorKind::CallTimeoutExceeded => Failure::Timeout,
            ErrorKind::TlsOperation
            | ErrorKind::PemFileOperation
            | ErrorKind::WalletPasswordMissingOrInvalid(..)
            | ErrorKind::WalletPrivateKeyInvalid(_)
            | ErrorKind::WalletUnreadable(_) => Failure::Tls,
            ErrorKind::StreamOperation => Failure::Stream,
            ErrorKind::ServerVersionNotSupported
            | ErrorKind::NotImplemented(_)
            | ErrorKind::UnsupportedDeepDataSecurityFeature => Failure::Unsupported,
            // `from_utf8` / `from_utf16` on a value, a name or a message of the answer.
            ErrorKind::InvalidEncodedString => Failure::Encoding,
            // What the crate returns from the middle of reading an answer (response/, read_buffer,
            // db_value, vector, json, dbobject): `receive_response` gives up on the answer there,
            // reading no more of its packets. (ParseError is the connect string parser's, before
            // any connection: Other.)
            ErrorKind::UnknownTtcMessageType(..)
            | ErrorKind::UnknownServerSidePiggyback(_)
            | ErrorKind::UnexpectedResult
            | ErrorKind::OutOfData
            | ErrorKind::IntegerTooLarge(..)
            | ErrorKind::UnexpectedNegativeInteger
            | ErrorKind::UnsupportedDbType(_)
            | ErrorKind::InvalidEncodedVector
            | ErrorKind::UnsupportedVectorFormat(_)
            | ErrorKind::UnsupportedVectorVersion(_)
            | ErrorKind::InvalidOsonEncodedBytes
            | ErrorKind::UnsupportedOsonNodeType(_)
            | ErrorKind::UnsupportedOsonVersion(_)
            | ErrorKind::UnsupportedTdsType(_)
            | ErrorKind::UnsupportedObjectMetadataType(_) => Failure::Protocol,
            _ => Failure::Other,
        }
    }

    /// Whether the answer was left unread part way: before 23ai the rest of it stays on the
    /// connection, and the next call would read it as its own answer.
    fn leaves_answer_unread(self) -> bool {
        matches!(self, Failure::Encoding | Failure::Protocol)
    }
}

/// An error the database returned (ORA-`code`).
pub fn db_error(code: usize, message: &str) -> DriverError {
    DriverError {
        no_data_found: code == 1403,
        ..DriverError::new(
            i32::try_from(code).ok().map(OraCode::Ora),
            super::first_line(message),
        )
    }
}

/// A thin error without an ORA number as a [`DriverError`]: the code is the one the thick
/// driver reports for the same condition, and is named in the message (`… (similar to
/// ORA-03113)`) so that message-based checks (connect retries) see it too.
pub fn failure(f: Failure, text: &str, phase: Phase) -> DriverError {
    let code = match f {
        Failure::NoDataFound => return db_error(1403, "ORA-01403: no data found"),
        Failure::Refused(n) => i32::try_from(n).ok().map(OraCode::Ora),
        Failure::UnknownService => Some(OraCode::Ora(12514)),
        Failure::UnknownSid => Some(OraCode::Ora(12505)),
        Failure::Closed => Some(OraCode::Ora(3113)),
        Failure::NotConnected => Some(OraCode::Ora(3114)),
        Failure::Timeout => Some(match phase {
            Phase::Connect => OraCode::Ora(12170),
            Phase::Call => OraCode::Dpi(1067),
        }),
        // As Oracle's client libraries report a failed certificate validation; during a call
        // the TLS session broke, which is a lost connection.
        Failure::Tls => Some(OraCode::Ora(match phase {
            Phase::Connect => 29024,
            Phase::Call => 3113,
        })),
        Failure::Stream => io_code(text, phase),
        Failure::Unsupported | Failure::Encoding | Failure::Protocol | Failure::Other => None,
    };
    let message = match code {
        Some(c) if !text.contains(&c.to_string()) => format!("{text} (similar to {c})"),
        _ => text.to_string(),
    };
    DriverError {
        thin_limit: f == Failure::Unsupported,
        unread: match f {
            Failure::Encoding => Some(Unread::Encoding),
            Failure::Protocol => Some(Unread::Protocol),
            _ => None,
        },
        ..DriverError::new(code, super::first_line(&message))
    }
}

/// An `oracledb` error as the interface's [`DriverError`].
pub fn error(e: &oracledb::Error, phase: Phase) -> DriverError {
    match e.kind() {
        ErrorKind::DbError(d) => db_error(d.code(), d.message()),
        // At a login the crate's one timeout is the TCP connect's (set_transport_connect_
        // timeout), which it words as a call timeout: say what it was.
        ErrorKind::CallTimeoutExceeded if phase == Phase::Connect => {
            failure(Failure::Timeout, "the TCP connect timed out", phase)
        }
        kind => failure(Failure::of(kind), &e.to_string(), phase),
    }
}

/// A bind converted to the value the crate sends: a NUMBER from the exact decimal text.
enum Owned {
    Number(OracleNumber),
    Text(String),
    Raw(Vec<u8>),
    Float(f32),
    Double(f64),
}

/// A NUMBER bind from its exact decimal text (an exponent is expanded first: the crate parses
/// plain decimals only).
pub fn number_bind(text: &str) -> DbResult<OracleNumber> {
    let plain = types_map::plain_decimal(text);
    let bad = |why: String| {
        DriverError::new(None, format!("`{text}` cannot be bound as a NUMBER: {why}"))
    };
    match guard(|| plain.parse::<OracleNumber>()) {
        Ok(Ok(n)) => Ok(n),
        Ok(Err(e)) => Err(bad(e.to_string())),
        Err(panic) => Err(bad(panic)),
    }
}

impl Owned {
    fn from_bind(b: &Bind) -> DbResult<Owned> {
        Ok(match b {
            Bind::Number(s) => Owned::Number(number_bind(s)?),
            Bind::Text(s) => Owned::Text(s.clone()),
            Bind::Raw(b) => Owned::Raw(b.clone()),
            Bind::BinaryFloat(f) => Owned::Float(*f),
            Bind::BinaryDouble(f) => Owned::Double(*f),
        })
    }

    fn as_db(&self) -> &dyn ToDbValue {
        match self {
            Owned::Number(n) => n,
            Owned::Text(s) => s,
            Owned::Raw(b) => b,
            Owned::Float(f) => f,
            Owned::Double(f) => f,
        }
    }
}

fn owned_binds<'b>(binds: &[(&'b str, Bind)]) -> DbResult<Vec<(&'b str, Owned)>> {
    binds
        .iter()
        .map(|(n, b)| Ok((*n, Owned::from_bind(b)?)))
        .collect()
}

fn named<'o>(owned: &'o [(&'o str, Owned)]) -> Vec<(&'o str, &'o dyn ToDbValue)> {
    owned.iter().map(|(n, o)| (*n, o.as_db())).collect()
}

/// One thin-mode connection.
pub struct ThinSession {
    conn: Option<Connection>,
    /// Set when a call panicked (the connection's state is unknown) or the crate stopped
    /// reading an answer part way ([`Failure::leaves_answer_unread`]: the rest of it may still
    /// be on the connection): it is not used again.
    broken: Arc<AtomicBool>,
    /// Set when a call failed below the database ([`unanswered`]): the session is dropped
    /// without waiting for its logoff's answer (see its `Drop`).
    unanswered: Arc<AtomicBool>,
    /// The login's warning (`Connection::last_warning` right after it).
    warning: Option<String>,
}

/// Whether a call's failure says the database or the network may answer nothing more: the
/// call timed out, the connection closed, broke or was reset, its TLS session broke. Such a
/// session is given up (DPI-1067, ORA-03113: CDC-5007); an error the database answered with
/// (an ORA- error) says it still answers.
fn unanswered(kind: &ErrorKind) -> bool {
    matches!(
        Failure::of(kind),
        Failure::Timeout | Failure::Closed | Failure::NotConnected | Failure::Stream | Failure::Tls
    )
}

/// Marks what a call's failure of `kind` says of the session: `unanswered` when the database
/// may answer nothing more ([`unanswered`]), `broken` when the crate left the answer unread
/// part way (the next call would read the rest of it as its own answer: wrong rows or a
/// protocol error; it fails as not connected instead, and the engine reconnects).
fn mark(broken: &AtomicBool, unanswered_flag: &AtomicBool, kind: &ErrorKind) {
    if unanswered(kind) {
        unanswered_flag.store(true, Ordering::Relaxed);
    }
    if Failure::of(kind).leaves_answer_unread() {
        broken.store(true, Ordering::Relaxed);
    }
}

/// A call's error as [`error`] maps it, the session's flags marked ([`mark`]).
fn call_error(broken: &AtomicBool, unanswered: &AtomicBool, e: &oracledb::Error) -> DriverError {
    mark(broken, unanswered, e.kind());
    error(e, Phase::Call)
}

impl ThinSession {
    pub fn open(
        target: super::Target<'_>,
        user: &str,
        password: &Password,
    ) -> Result<ThinSession, CdcError> {
        let conn = login(target.url, password, || {
            let mut config = Config::default()
                .set_credentials(user, password.expose())
                .set_connect_string(target.connect)?
                .set_driver_name("oracle-cdc")
                // No statement cache: a cached statement is executed again by its cursor, and
                // a cursor belongs to the container it was parsed in; after ALTER SESSION SET
                // CONTAINER (root mode moves between CDB$ROOT and the PDBs) executing it is
                // ORA-65108 (Database Error Messages: "Parse, execute, fetch, and close a cursor
                // only all in the same container"). Uncached, every statement is parsed where it
                // runs and its cursor closed (piggybacked on the next call, so before a switch).
                .set_stmtcachesize(0)
                // Without it a TCP connect to a host that drops the SYN waits for the system's
                // limit (minutes), on a login thread the caller gave up on long before.
                .set_transport_connect_timeout(target.connect_timeout);
            // The CA certificates (and for mutual TLS the client's key) of a tcps connection:
            // ewallet.pem in that directory, as python-oracledb's thin mode reads it.
            if let Some(wallet) = target.wallet {
                config = config.set_wallet_location(wallet.location.as_str());
                if let Some(p) = &wallet.password {
                    config = config.set_wallet_password(p.expose());
                }
            }
            oracledb::connect(config)
        })?;
        // The warning of the login's answer (ORA-28002 in the password's grace period), which
        // the crate keeps as the connection's last one; a later warning would replace it. Not
        // readable (its lock poisoned): none.
        let warning = guard(|| conn.last_warning().ok().flatten())
            .ok()
            .flatten()
            .filter(|w| !w.trim().is_empty());
        Ok(ThinSession {
            conn: Some(conn),
            broken: Arc::new(AtomicBool::new(false)),
            unanswered: Arc::new(AtomicBool::new(false)),
            warning,
        })
    }

    fn conn(&self) -> DbResult<&Connection> {
        if self.broken.load(Ordering::Relaxed) {
            return Err(DriverError::new(
                Some(OraCode::Ora(3114)),
                "not connected: the connection was given up after the thin driver panicked in a \
                 call or could not read an answer to its end (similar to ORA-03114)",
            ));
        }
        self.conn
            .as_ref()
            .ok_or_else(|| DriverError::new(Some(OraCode::Ora(3114)), "not connected"))
    }

    /// [`call`], marking the session broken when the driver panics.
    fn call<T>(&self, f: impl FnOnce() -> DbResult<T>) -> DbResult<T> {
        call_marking(&self.broken, f)
    }
}

/// Run a login, guarded: its error mapped by [`connect::connect_error`], a panic (what the driver
/// does on native network encryption and 11G verifiers) turned into CDC-2009, which names thick
/// mode; neither message contains the password.
///
/// [`connect::connect_error`]: crate::connect::connect_error
pub fn login<T>(
    url: &str,
    password: &Password,
    f: impl FnOnce() -> Result<T, oracledb::Error>,
) -> Result<T, CdcError> {
    match guard(f) {
        Ok(Ok(conn)) => Ok(conn),
        Ok(Err(e)) => Err(error(&e, Phase::Connect).at_login(password, url)),
        Err(panic) => Err(panicked(panic).at_login(password, url)),
    }
}

impl Drop for ThinSession {
    /// Closing sends a logoff and waits for its answer however long it takes (the driver clears
    /// the call timeout first). A session that panicked or whose call failed below the
    /// database ([`unanswered`]: a call timeout, a connection lost) is one capture gives up, on
    /// a database that may answer nothing more (a hung instance that still answered the break,
    /// a network gone dark): its logoff runs on a thread of its own, left to end when an answer
    /// or the connection's end comes, so that giving the session up never blocks the caller. A
    /// healthy session is logged off here, as before.
    fn drop(&mut self) {
        let Some(conn) = self.conn.take() else {
            return;
        };
        let closing = Closing(Some(conn));
        if self.broken.load(Ordering::Relaxed) || self.unanswered.load(Ordering::Relaxed) {
            // Without a thread the closure, and the connection in it, is dropped right here:
            // the logoff waited for as before.
            let _ = std::thread::Builder::new()
                .name("oracle-logoff".into())
                .spawn(move || drop(closing));
        } else {
            drop(closing);
        }
    }
}

/// A connection logged off when dropped, guarded: after a panic the driver's lock is poisoned
/// and its own drop code would panic again.
struct Closing(Option<Connection>);

impl Drop for Closing {
    fn drop(&mut self) {
        if let Some(conn) = self.0.take() {
            let _ = guard(move || drop(conn));
        }
    }
}

/// The rows of one query; each fetch round trip runs guarded, and so does dropping the cursor.
struct ThinRows {
    cursor: Option<Cursor>,
    /// The session's flag: a panic here gives the connection up too.
    broken: Arc<AtomicBool>,
    /// The session's flag: a fetch that failed below the database marks it too.
    unanswered: Arc<AtomicBool>,
    /// Each column's kind, from the first row's description (the same for every row): the
    /// driver's type compared once per column, not once per cell.
    kinds: Vec<(Kind, i8)>,
}

impl Iterator for ThinRows {
    type Item = DbResult<Vec<Cell>>;

    fn next(&mut self) -> Option<Self::Item> {
        let cursor = self.cursor.as_mut()?;
        match guard(|| cursor.next()) {
            Ok(None) => None,
            Ok(Some(Ok(row))) => {
                let kinds = &mut self.kinds;
                Some(call_marking(&self.broken, || cells(row, kinds)))
            }
            Ok(Some(Err(e))) => {
                let e = call_error(&self.broken, &self.unanswered, &e);
                if self.broken.load(Ordering::Relaxed) {
                    // As after a panic: no more fetches on a connection given up.
                    self.cursor = None;
                }
                Some(Err(e))
            }
            Err(panic) => {
                // Neither the cursor nor the connection is used after that.
                self.cursor = None;
                self.broken.store(true, Ordering::Relaxed);
                Some(Err(panicked(panic)))
            }
        }
    }
}

impl Drop for ThinRows {
    fn drop(&mut self) {
        if let Some(cursor) = self.cursor.take() {
            let _ = guard(move || drop(cursor));
        }
    }
}

impl DbSession for ThinSession {
    fn driver(&self) -> Driver {
        Driver::Thin
    }

    fn execute(&self, sql: &str, binds: &[(&str, Bind)]) -> DbResult<()> {
        let conn = self.conn()?;
        let owned = owned_binds(binds)?;
        self.call(|| {
            conn.execute_named(sql, &named(&owned))
                .map(|_| ())
                .map_err(|e| call_error(&self.broken, &self.unanswered, &e))
        })
    }

    fn query(&self, sql: &str, binds: &[(&str, Bind)], fetch: FetchOptions) -> DbResult<Rows<'_>> {
        let conn = self.conn()?;
        let owned = owned_binds(binds)?;
        let cursor = self.call(|| {
            let e = |e: oracledb::Error| call_error(&self.broken, &self.unanswered, &e);
            let mut builder = conn.statement(sql).map_err(e)?;
            if fetch.array_size > 0 {
                builder = builder.fetch_array_size(fetch.array_size);
            }
            if fetch.prefetch > 0 {
                builder = builder.prefetch_rows(fetch.prefetch);
            }
            builder
                .build()
                .and_then(|s| s.query_named(&named(&owned)))
                .map_err(e)
        })?;
        Ok(Box::new(ThinRows {
            cursor: Some(cursor),
            broken: Arc::clone(&self.broken),
            unanswered: Arc::clone(&self.unanswered),
            kinds: Vec::new(),
        }))
    }

    fn commit(&self) -> DbResult<()> {
        let conn = self.conn()?;
        self.call(|| {
            conn.commit()
                .map_err(|e| call_error(&self.broken, &self.unanswered, &e))
        })
    }

    fn server_version(&self) -> DbResult<String> {
        let conn = self.conn()?;
        self.call(|| {
            conn.version()
                .map(|v| v.to_string())
                .map_err(|e| call_error(&self.broken, &self.unanswered, &e))
        })
    }

    fn set_call_timeout(&self, timeout: Option<Duration>) -> DbResult<()> {
        let conn = self.conn()?;
        self.call(|| {
            conn.set_call_timeout(timeout)
                .map_err(|e| call_error(&self.broken, &self.unanswered, &e))
        })
    }

    fn login_warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }
}

/// A DATE or TIMESTAMP's fields. The driver keeps no offset: TIMESTAMP WITH [LOCAL] TIME ZONE
/// values are in UTC (TSTZ) or the session's zone, UTC (LTZ), so the offset is 0.
pub fn parts(ts: &OracleTimestamp) -> DateTimeParts {
    DateTimeParts {
        year: i32::from(ts.year()),
        month: u32::from(ts.month()),
        day: u32::from(ts.day()),
        hour: u32::from(ts.hour()),
        minute: u32::from(ts.minute()),
        second: u32::from(ts.second()),
        nanosecond: ts.nanoseconds(),
        offset_minutes: 0,
    }
}

/// A NUMBER in Oracle's text form (`.15`, `-7`, `1200`): the crate's exact decimal text with
/// the zero before a point left out. The driver prints it a character at a time, into a buffer
/// on the stack, then copied once into the inline text a value holds (`to_string` made a
/// growing heap string a number; the inline text written a character at a time cost more
/// still). Its digits are the significant ones only (no trailing zero in a fraction, no
/// leading zero but that one), so that is Oracle's form and no second pass checks it.
pub fn number(n: &OracleNumber) -> Cell {
    use std::fmt::Write as _;
    // Up to 64 bytes (every NUMBER but the longest fractions) on the stack.
    let mut text = StackText::<64>::default();
    // Writing to either buffer cannot fail.
    let _ = write!(text, "{n}");
    number_text(text)
}

/// [`number`] from the crate's text of the `OracleNumber` (its `Display`): the encodings with no
/// public constructor (negative infinity) are tested through this.
pub(super) fn number_text(text: StackText<64>) -> Cell {
    let t = text.as_str();
    // The infinities, as the crate's `OracleNumber::from_buf` decodes them: +infinity (0xFF
    // 0x65, a base-100 digit of 100) becomes the digits 1, 0 at the highest exponent, printed
    // as 1E125, whose own encoding (0xFF 0x0B) prints the same: the value cannot tell them
    // apart, so 1E125 is refused too rather than +infinity published as it. -infinity (the one
    // byte 0x00) has no digits and prints as a minus sign and 126 zeros; no number does.
    if t.len() == 126 && t.as_bytes()[0] == b'1' && t.bytes().skip(1).all(|b| b == b'0') {
        return Cell::NumberInfinity {
            negative: false,
            or_1e125: true,
        };
    }
    if let Some(rest) = t.strip_prefix('-') {
        if !rest.is_empty() && rest.bytes().all(|b| b == b'0') {
            return Cell::NumberInfinity {
                negative: true,
                or_1e125: false,
            };
        }
    }
    Cell::Number(if t.starts_with("0.") {
        Str::from(&t[1..])
    } else if t.starts_with("-0.") {
        let mut s = Str::from("-");
        s.push_str(&t[2..]);
        s
    } else {
        text.into_str()
    })
}

pub fn interval_ym(i: &OracleIntervalYM) -> Cell {
    Cell::IntervalYm {
        years: i.years(),
        months: i32::from(i.months()),
    }
}

/// An INTERVAL DAY TO SECOND of a column with `fsp` fractional digits (the column's scale).
pub fn interval_ds(i: &OracleIntervalDS, fsp: u8) -> Cell {
    Cell::IntervalDs {
        days: i.days(),
        hours: i32::from(i.hours()),
        minutes: i32::from(i.minutes()),
        seconds: i32::from(i.seconds()),
        nanoseconds: i.nanoseconds(),
        fsp,
    }
}

/// Column `i` of `row`, moved out of it (no copy of a text or bytes value).
fn take<T: for<'r> oracledb::FromDbValue<'r>>(
    row: &mut Row,
    i: usize,
    f: impl FnOnce(T) -> Cell,
) -> DbResult<Cell> {
    row.take::<Option<T>>(i)
        .map(|v| v.map_or(Cell::Null, f))
        // A conversion of a value already read whole: nothing of the answer is left unread,
        // whatever the kind says.
        .map_err(|e| DriverError {
            unread: None,
            ..error(&e, Phase::Call)
        })
}

/// What a column holds, by the type the driver describes: how its cells are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Number,
    Text,
    Bytes,
    Date,
    Timestamp,
    TimestampTz,
    IntervalYm,
    IntervalDs,
    BinaryFloat,
    BinaryDouble,
    Boolean,
    /// A type no cell holds.
    Unsupported,
}

impl Kind {
    fn of(t: &'static oracledb::DbType) -> Kind {
        use oracledb as o;
        let is = |types: &[&oracledb::DbType]| types.contains(&t);
        if is(&[o::DB_TYPE_NUMBER, o::DB_TYPE_BINARY_INTEGER]) {
            Kind::Number
        } else if is(&[
            o::DB_TYPE_VARCHAR,
            o::DB_TYPE_NVARCHAR,
            o::DB_TYPE_CHAR,
            o::DB_TYPE_NCHAR,
            o::DB_TYPE_LONG,
            o::DB_TYPE_LONG_NVARCHAR,
            o::DB_TYPE_CLOB,
            o::DB_TYPE_NCLOB,
            o::DB_TYPE_ROWID,
            o::DB_TYPE_UROWID,
        ]) {
            Kind::Text
        } else if is(&[o::DB_TYPE_RAW, o::DB_TYPE_LONG_RAW, o::DB_TYPE_BLOB]) {
            Kind::Bytes
        } else if is(&[o::DB_TYPE_DATE]) {
            Kind::Date
        } else if is(&[o::DB_TYPE_TIMESTAMP]) {
            Kind::Timestamp
        } else if is(&[o::DB_TYPE_TIMESTAMP_TZ, o::DB_TYPE_TIMESTAMP_LTZ]) {
            Kind::TimestampTz
        } else if is(&[o::DB_TYPE_INTERVAL_YM]) {
            Kind::IntervalYm
        } else if is(&[o::DB_TYPE_INTERVAL_DS]) {
            Kind::IntervalDs
        } else if is(&[o::DB_TYPE_BINARY_FLOAT]) {
            Kind::BinaryFloat
        } else if is(&[o::DB_TYPE_BINARY_DOUBLE]) {
            Kind::BinaryDouble
        } else if is(&[o::DB_TYPE_BOOLEAN]) {
            Kind::Boolean
        } else {
            Kind::Unsupported
        }
    }
}

/// Column `i` of a fetched row as a [`Cell`], by its kind (and `scale`, an interval's
/// fractional digits); `None` for a type no cell holds.
fn cell(row: &mut Row, i: usize, kind: Kind, scale: i8) -> DbResult<Cell> {
    Ok(match kind {
        Kind::Number => take(row, i, |n: OracleNumber| number(&n))?,
        Kind::Text => take(row, i, Cell::Text)?,
        Kind::Bytes => take(row, i, Cell::Bytes)?,
        Kind::Date => take(row, i, |ts: OracleTimestamp| Cell::Date(parts(&ts)))?,
        Kind::Timestamp => take(row, i, |ts: OracleTimestamp| Cell::Timestamp(parts(&ts)))?,
        Kind::TimestampTz => take(row, i, |ts: OracleTimestamp| Cell::TimestampTz(parts(&ts)))?,
        Kind::IntervalYm => take(row, i, |v: OracleIntervalYM| interval_ym(&v))?,
        Kind::IntervalDs => {
            let fsp = u8::try_from(scale).unwrap_or(6);
            take(row, i, |v: OracleIntervalDS| interval_ds(&v, fsp))?
        }
        Kind::BinaryFloat => take(row, i, Cell::BinaryFloat)?,
        Kind::BinaryDouble => take(row, i, Cell::BinaryDouble)?,
        Kind::Boolean => take(row, i, Cell::Boolean)?,
        Kind::Unsupported => Cell::Unsupported(row.columns()[i].data_type()),
    })
}

/// Every column of a fetched row, moved out of it; `kinds` is filled from the first row's
/// columns and kept for the rest.
fn cells(mut row: Row, kinds: &mut Vec<(Kind, i8)>) -> DbResult<Vec<Cell>> {
    let n = row.columns().len();
    if kinds.len() != n {
        *kinds = row
            .columns()
            .iter()
            .map(|c| (Kind::of(c.db_type()), c.scale()))
            .collect();
    }
    let mut out = Vec::with_capacity(n);
    for (i, &(kind, scale)) in kinds.iter().enumerate() {
        out.push(cell(&mut row, i, kind, scale)?);
    }
    Ok(out)
}

#[cfg(test)]
mod kind_tests {
    use super::Kind;
    use oracledb as o;

    /// Each type the driver describes takes the kind its cells are read as; the ones no cell
    /// holds (JSON, XMLTYPE, VECTOR, BFILE, objects, cursors: read through other fetches) none.
    #[test]
    fn every_described_type_has_its_kind() {
        let cases: &[(&'static oracledb::DbType, Kind)] = &[
            (o::DB_TYPE_NUMBER, Kind::Number),
            (o::DB_TYPE_BINARY_INTEGER, Kind::Number),
            (o::DB_TYPE_VARCHAR, Kind::Text),
            (o::DB_TYPE_NVARCHAR, Kind::Text),
            (o::DB_TYPE_CHAR, Kind::Text),
            (o::DB_TYPE_NCHAR, Kind::Text),
            (o::DB_TYPE_LONG, Kind::Text),
            (o::DB_TYPE_LONG_NVARCHAR, Kind::Text),
            (o::DB_TYPE_CLOB, Kind::Text),
            (o::DB_TYPE_NCLOB, Kind::Text),
            (o::DB_TYPE_ROWID, Kind::Text),
            (o::DB_TYPE_UROWID, Kind::Text),
            (o::DB_TYPE_RAW, Kind::Bytes),
            (o::DB_TYPE_LONG_RAW, Kind::Bytes),
            (o::DB_TYPE_BLOB, Kind::Bytes),
            (o::DB_TYPE_DATE, Kind::Date),
            (o::DB_TYPE_TIMESTAMP, Kind::Timestamp),
            (o::DB_TYPE_TIMESTAMP_TZ, Kind::TimestampTz),
            (o::DB_TYPE_TIMESTAMP_LTZ, Kind::TimestampTz),
            (o::DB_TYPE_INTERVAL_YM, Kind::IntervalYm),
            (o::DB_TYPE_INTERVAL_DS, Kind::IntervalDs),
            (o::DB_TYPE_BINARY_FLOAT, Kind::BinaryFloat),
            (o::DB_TYPE_BINARY_DOUBLE, Kind::BinaryDouble),
            (o::DB_TYPE_BOOLEAN, Kind::Boolean),
            (o::DB_TYPE_JSON, Kind::Unsupported),
            (o::DB_TYPE_XMLTYPE, Kind::Unsupported),
            (o::DB_TYPE_VECTOR, Kind::Unsupported),
            (o::DB_TYPE_BFILE, Kind::Unsupported),
            (o::DB_TYPE_OBJECT, Kind::Unsupported),
            (o::DB_TYPE_CURSOR, Kind::Unsupported),
        ];
        for (t, kind) in cases {
            assert_eq!(Kind::of(t), *kind, "{t:?}");
        }
    }
}

#[cfg(test)]
mod unread_tests {
    use super::{failure, mark, Failure, Phase};
    use crate::connect::{CallContext, OraCode};
    use crate::errors::Code;
    use oracledb::ErrorKind;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// What the crate returns from the middle of an answer: a value not valid AL32UTF8 is its own
    /// failure, the rest of what it cannot parse another; both leave the answer unread. The
    /// connect string parser's ParseError (before any connection) and a conversion stay Other;
    /// the mappings that were there stay.
    #[test]
    fn errors_from_the_middle_of_an_answer_leave_it_unread() {
        // (UnknownTtcMessageType, what the wire test's leftovers met, holds a location the
        // crate alone can build.)
        let protocol = [
            ErrorKind::UnknownServerSidePiggyback(9),
            ErrorKind::UnexpectedResult,
            ErrorKind::OutOfData,
            ErrorKind::IntegerTooLarge(4, 8),
            ErrorKind::UnexpectedNegativeInteger,
            ErrorKind::UnsupportedDbType(oracledb::DB_TYPE_JSON),
            ErrorKind::InvalidEncodedVector,
            ErrorKind::UnsupportedVectorFormat(9),
            ErrorKind::UnsupportedVectorVersion(9),
            ErrorKind::InvalidOsonEncodedBytes,
            ErrorKind::UnsupportedOsonNodeType(9),
            ErrorKind::UnsupportedOsonVersion(9),
            ErrorKind::UnsupportedTdsType(9),
            ErrorKind::UnsupportedObjectMetadataType("X".into()),
        ];
        for k in &protocol {
            assert_eq!(Failure::of(k), Failure::Protocol, "{k:?}");
            assert!(Failure::of(k).leaves_answer_unread(), "{k:?}");
        }
        assert_eq!(
            Failure::of(&ErrorKind::InvalidEncodedString),
            Failure::Encoding
        );
        assert!(Failure::Encoding.leaves_answer_unread());
        let kept = [
            (ErrorKind::ParseError("x".into(), 1), Failure::Other),
            (
                ErrorKind::UnsupportedConversion("NUMBER".into(), "RAW".into()),
                Failure::Other,
            ),
            (ErrorKind::NoDataFound, Failure::NoDataFound),
            (ErrorKind::DeadConnection, Failure::Closed),
            (ErrorKind::NotConnected, Failure::NotConnected),
            (ErrorKind::CallTimeoutExceeded, Failure::Timeout),
            (ErrorKind::StreamOperation, Failure::Stream),
            (ErrorKind::TlsOperation, Failure::Tls),
            (ErrorKind::NotImplemented("x".into()), Failure::Unsupported),
        ];
        for (k, f) in &kept {
            assert_eq!(Failure::of(k), *f, "{k:?}");
            assert!(!f.leaves_answer_unread(), "{k:?}");
        }
    }

    /// A failure that left the answer unread gives the session up (`broken`: its next call is
    /// "not connected"); one the database answered, or a conversion, keeps it; a timeout or a
    /// lost connection marks it unanswered only, as before.
    #[test]
    fn an_unread_answer_gives_the_session_up() {
        let cases = [
            (ErrorKind::InvalidEncodedString, true, false),
            (ErrorKind::UnknownServerSidePiggyback(9), true, false),
            (ErrorKind::OutOfData, true, false),
            (
                ErrorKind::UnsupportedConversion("NUMBER".into(), "RAW".into()),
                false,
                false,
            ),
            (ErrorKind::NoDataFound, false, false),
            (ErrorKind::CallTimeoutExceeded, false, true),
            (ErrorKind::DeadConnection, false, true),
        ];
        for (kind, gives_up, unanswered) in cases {
            let (broken, silent) = (AtomicBool::new(false), AtomicBool::new(false));
            mark(&broken, &silent, &kind);
            assert_eq!(broken.load(Ordering::Relaxed), gives_up, "{kind:?}");
            assert_eq!(silent.load(Ordering::Relaxed), unanswered, "{kind:?}");
        }
    }

    fn ctx() -> CallContext {
        CallContext {
            table: Some("HR.EMP".into()),
            operation: "flashback read",
            ..CallContext::default()
        }
    }

    /// In a call, a value not valid AL32UTF8 is CDC-3009 naming the call, its table, the
    /// character set and both ways out (repair the value, thick mode); an answer the driver
    /// cannot parse is CDC-3009 naming thick mode. Neither is a lost connection (CDC-5007),
    /// which capture would retry on a new session that reads the same value again.
    #[test]
    fn an_unread_answer_is_cdc_3009_naming_the_call() {
        let text = "invalid encoded string: invalid utf-8 sequence of 1 bytes from index 0";
        let e = failure(Failure::Encoding, text, Phase::Call);
        assert_eq!(e.code, None);
        let mapped = e.runtime(&ctx());
        assert_eq!(mapped.code(), Code::Cdc3009, "{mapped}");
        let shown = mapped.to_string();
        for needed in [
            "CDC-3009: flashback read of HR.EMP:",
            "not valid in the character set",
            "AL32UTF8",
            text,
            "the session is given up",
            "DUMP(col, 1016)",
            "cdc.database.driver=thick",
            "U+FFFD",
        ] {
            assert!(shown.contains(needed), "{needed}: {shown}");
        }
        let e = failure(
            Failure::Protocol,
            "internal error: unknown TTC message type 120 at packet 1, offset 11",
            Phase::Call,
        );
        let mapped = e.runtime(&ctx());
        assert_eq!(mapped.code(), Code::Cdc3009, "{mapped}");
        let shown = mapped.to_string();
        for needed in ["cannot parse", "unknown TTC message type 120", "thick"] {
            assert!(shown.contains(needed), "{needed}: {shown}");
        }
        assert!(!shown.contains("U+FFFD"), "{shown}");
        // At a login the same failure keeps its mapping: CDC-2006 with the driver's text.
        let pw = crate::connect::Password::new("pw");
        let login = failure(Failure::Encoding, text, Phase::Connect).at_login(&pw, "h/s");
        assert_eq!(login.code(), Code::Cdc2006, "{login}");
        // The session given up answers "not connected", a lost connection (CDC-5007).
        let gone = super::super::DriverError::new(Some(OraCode::Ora(3114)), "not connected");
        assert_eq!(gone.runtime(&ctx()).code(), Code::Cdc5007);
    }
}
