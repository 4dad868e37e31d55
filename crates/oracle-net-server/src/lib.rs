//! The server side of Oracle Net: a listener that unmodified thin clients (python-oracledb,
//! node oracledb, the Rust `oracledb` crate, Oracle's JDBC thin driver) connect to, log in to
//! with the 12c password verifier, and run statements on. What the statements mean is the
//! [`Backend`]'s business; this crate speaks the protocol only.
//!
//! API contract (the emulator implements [`Backend`]; see `crates/cdc-emulator/src/net/`):
//! - [`Backend::service`] decides which SERVICE_NAMEs exist (unknown: REFUSE with ORA-12514).
//! - [`Backend::verifier`] gives a user's 12c verifier (salt and hash, never a password).
//! - [`Backend::open`] makes a session after a successful login.
//! - [`ServerSession::execute`] runs one statement with its positional binds.
//!
//! [`Listener::bind`] serves a backend on an address. Module map: `packet` (TNS framing),
//! `connect` (CONNECT / ACCEPT / REFUSE), `negotiate` (protocol and data types messages), `auth`
//! (O5LOGON, 12c verifier), `session` (login and the call loop), `conn` (reader thread, request
//! assembly, breaks), `worker` (the thread that calls the backend), `ttc` (requests), `exec`
//! (cursors, execute, fetch), `transport` (TCP or TLS), `binds` (bind metadata and values), `codec` (values as wire
//! types), `number` / `temporal` / `rowid` (value encodings), `lob` (locators and LOB
//! operations), `response` (messages sent), `wire` (TTC integers and byte strings).

mod auth;
mod binds;
mod codec;
mod conn;
mod connect;
mod exec;
mod listener;
mod lob;
mod negotiate;
mod number;
mod packet;
mod response;
mod rowid;
mod session;
mod temporal;
mod transport;
mod ttc;
mod wire;
mod worker;

pub use listener::{tls_config, Listener};
pub use oracle_datum::{canonical_number, AfterError, Column, DateTime, Datum, OraError, OraType};
/// What [`tls_config`] makes and [`Listener::bind_tls`] takes.
pub use rustls::ServerConfig as TlsServerConfig;

/// Wire encodings exposed for tests and tools: Oracle NUMBER, DATE / TIMESTAMP, INTERVAL and
/// binary float bytes, and packet parsing, as the server reads and writes them.
pub mod encoding {
    pub use crate::number::{
        decode_binary_double, decode_binary_float, decode_number, encode_binary_double,
        encode_binary_float, encode_number,
    };
    pub use crate::packet::{read_packet, Packet};
    pub use crate::temporal::{
        decode_datetime, decode_interval_ds, decode_interval_ym, decode_timestamp_tz, encode_date,
        encode_interval_ds, encode_interval_ym, encode_timestamp, encode_timestamp_tz,
    };

    /// Parses a request payload as the session loop would (no cursors, no LOBs), for fuzzing:
    /// whatever the bytes, an answer and never a panic.
    pub fn parse_request_bytes(payload: &[u8]) -> Result<(), String> {
        let lobs = crate::lob::LobStore::default();
        let none = |_: u16| None;
        let ctx = crate::ttc::ParseContext {
            field_version: crate::negotiate::SERVER_FIELD_VERSION,
            raw_sql: false,
            sb1_universal: false,
            lobs: &lobs,
            cursor_binds: &none,
        };
        crate::ttc::parse_request(payload, &ctx)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Parses a login message body (after its function header), JDBC's form or the thin drivers'.
    pub fn parse_login_bytes(body: &[u8]) -> Result<String, String> {
        crate::auth::parse_auth(body, false)
            .map(|r| r.user)
            .map_err(|e| e.to_string())
    }
}

/// What the server stores for a user: the 12c (`T:`) verifier, never the password.
/// Make one with [`Verifier::new`] (random salt), [`Verifier::from_password`] (given salt) or
/// [`Verifier::from_parts`] (stored salt and hash).
#[derive(Clone, PartialEq, Eq)]
pub struct Verifier {
    /// 16 random bytes.
    pub salt: Vec<u8>,
    /// SHA-512(PBKDF2-SHA512(password, salt ‖ "AUTH_PBKDF2_SPEEDY_KEY", 4096, 64) ‖ salt).
    pub hash: [u8; 64],
}

impl std::fmt::Debug for Verifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Verifier(<redacted>)")
    }
}

/// Who logged in, to what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Login {
    /// Upper-cased unless the client sent it quoted.
    pub user: String,
    /// The SERVICE_NAME of the connect descriptor, as the backend accepted it.
    pub service: String,
    /// What the client says of itself (AUTH_PROGRAM_NM, AUTH_MACHINE, the driver name), for
    /// V$SESSION-like views and logs.
    pub program: String,
    pub machine: String,
    pub driver: String,
}

/// The server's identity, as clients see it at login.
#[derive(Debug, Clone)]
pub struct ServerInfo {
    /// Release, e.g. (19, 22, 0, 0, 0).
    pub version: (u8, u8, u8, u8, u8),
    /// AUTH_VERSION_STRING's tail, e.g. `- Production`.
    pub banner: String,
    pub db_name: String,
    pub instance_name: String,
    pub db_domain: String,
    /// The largest session data unit this server allows (its DEFAULT_SDU_SIZE): a connection
    /// gets the smaller of this and what the client asks for.
    pub sdu: u32,
}

/// Answer to a CONNECT for a service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServiceAnswer {
    Accept,
    /// ORA-12514: the listener does not know the service.
    Unknown,
    /// Any other refusal, e.g. ORA-12528 (instance blocking new connections).
    Refuse(u32),
}

/// The database behind the listener.
pub trait Backend: Send + Sync + 'static {
    fn info(&self) -> ServerInfo;
    fn service(&self, name: &str) -> ServiceAnswer;
    /// `None`: no such user (the login still runs both phases and fails with ORA-01017, so
    /// a client cannot tell a missing user from a wrong password).
    fn verifier(&self, user: &str) -> Option<Verifier>;
    /// After the password checked out: a new session, or the error the login ends with
    /// (ORA-01045 without CREATE SESSION, ORA-28000 locked account, ORA-01109 PDB not open …).
    /// The new session's first statement is the `ALTER SESSION SET TIME_ZONE=…` the client
    /// sends with its login (an error from it is ignored, the login goes on).
    fn open(&self, login: &Login) -> Result<Box<dyn ServerSession>, OraError>;
}

/// One bind value as the client sent it (positional: the protocol carries no names).
#[derive(Debug, Clone, PartialEq)]
pub struct Bind {
    pub value: Datum,
    /// The type the client bound it as.
    pub ora_type: OraType,
}

/// Result of one statement.
pub enum Outcome {
    /// A query: its columns and its rows, pulled as the client fetches.
    Rows {
        columns: Vec<Column>,
        rows: Box<dyn RowSource>,
    },
    /// DML or DDL: rows affected.
    Done { row_count: u64 },
    /// A PL/SQL block: the values of its OUT / IN OUT binds, by position (IN binds: `None`).
    PlSql { out: Vec<Option<Datum>> },
}

/// Rows of a query, pulled one at a time.
pub trait RowSource: Send {
    /// The next row (one value per column), `Ok(None)` at the end. An error mid-fetch is sent
    /// to the client in place of the rest (with its [`AfterError`]).
    fn next_row(&mut self) -> Result<Option<Vec<Datum>>, OraError>;
}

/// One logged-in session. Calls come one at a time, from the connection's thread.
pub trait ServerSession: Send {
    /// Run `sql` with its binds. Rows of a query are pulled later, as the client fetches.
    fn execute(&mut self, sql: &str, binds: &[Bind]) -> Result<Outcome, OraError>;
    fn commit(&mut self) -> Result<(), OraError>;
    fn rollback(&mut self) -> Result<(), OraError>;
    /// The connection ended (logoff, or the client went away): roll back what is open.
    fn close(&mut self);
    /// A warning the login that opened this session ends with, sent in the login's answer
    /// (e.g. ORA-28002 "the password will expire within 7 days", the password's grace
    /// period); the login still succeeds.
    fn login_warning(&self) -> Option<OraError> {
        None
    }
    /// The container the session is in now (`ALTER SESSION SET CONTAINER` moves it); `None`
    /// outside a multitenant database. A cursor belongs to the container it was parsed in:
    /// executing or fetching it in another is ORA-65108 "invalid use of a cursor belonging to
    /// another container" (Database Error Messages: "Parse, execute, fetch, and close a cursor
    /// only all in the same container"), which a client's statement cache meets when it
    /// re-executes a cached cursor after a container switch.
    fn container(&self) -> Option<String> {
        None
    }
}
