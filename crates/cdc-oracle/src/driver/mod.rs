//! One small database-session interface, [`DbSession`], and its two implementations: [`thin`]
//! (the pure-Rust `oracledb` crate, which speaks Oracle Net itself) and [`thick`] (the `oracle`
//! crate: ODPI-C and the Oracle Client libraries loaded at run time).
//!
//! Why an interface: the thick driver needs Instant Client on every machine that connects, the
//! thin one needs nothing but is a beta with known gaps (no native network encryption, no 11G
//! verifiers, no external authentication, TIMESTAMP WITH TIME ZONE without its offset). Both are
//! compiled in and `cdc.database.driver` picks one per connection. Everything above this module
//! (the session in `mod.rs`, `logminer`, `instance`) is written once against [`DbSession`]:
//! statements come from `sql.rs` whatever the driver, every fetched column arrives as a
//! driver-neutral [`Cell`] that `fetch::value` turns into a [`Value`](crate::types::Value), and
//! every error as a [`DriverError`] (the ORA-/DPI- code, the message) that `connect.rs` maps to
//! the catalog. So values and error codes are the same on both drivers, and the conversions are
//! tested once, without a database. No code outside this module names either driver crate.

pub mod thick;
pub mod thin;

use super::connect::{self, CallContext, OraCode, Password};
use super::fetch::Bind;
use super::types_map::DateTimeParts;
use crate::errors::{CdcError, Code};
use crate::types::Str;
use std::time::Duration;

/// `cdc.database.driver`: which driver the adapter opens its sessions with. No other part of
/// the house knows either driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Driver {
    /// The pure-Rust `oracledb` crate: Oracle Net spoken by the process itself.
    #[default]
    Thin,
    /// The `oracle` crate: ODPI-C and the Oracle Client libraries (Instant Client).
    Thick,
}

impl Driver {
    /// The setting's value: `thin` or `thick`.
    pub fn name(self) -> &'static str {
        match self {
            Driver::Thin => "thin",
            Driver::Thick => "thick",
        }
    }
}

/// One fetched column, whatever the driver: the database type's value in the form both drivers
/// can give exactly (NUMBER as decimal text, never through a float).
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Null,
    /// VARCHAR2, NVARCHAR2, CHAR, NCHAR, LONG, CLOB, NCLOB (read whole), ROWID, UROWID.
    Text(String),
    /// NUMBER and FLOAT: the exact decimal text in Oracle's form (`.15`, `-7`; `1E+125` never
    /// occurs: both drivers print every digit), which each driver makes.
    Number(Str),
    /// A NUMBER holding +infinity or -infinity (Oracle's `~`, `-~`), which no record value
    /// carries: the driver's decoders print them as finite numbers (see each driver's
    /// `number`), so each recognises its own text of them. `or_1e125`: the thin driver's text of
    /// +infinity is that of the NUMBER 1E125 too.
    NumberInfinity {
        negative: bool,
        or_1e125: bool,
    },
    BinaryFloat(f32),
    BinaryDouble(f64),
    Date(DateTimeParts),
    Timestamp(DateTimeParts),
    /// TIMESTAMP WITH TIME ZONE (with the offset the driver knows) and WITH LOCAL TIME ZONE (in
    /// the session's time zone, UTC).
    TimestampTz(DateTimeParts),
    IntervalYm {
        years: i32,
        months: i32,
    },
    IntervalDs {
        days: i32,
        hours: i32,
        minutes: i32,
        seconds: i32,
        nanoseconds: i32,
        /// The column's fractional seconds precision.
        fsp: u8,
    },
    /// RAW, LONG RAW, BLOB (read whole).
    Bytes(Vec<u8>),
    Boolean(bool),
    /// A type this adapter does not fetch, by the driver's name for it.
    Unsupported(String),
}

/// A failed driver call: what the catalog mapping in `connect.rs` needs, nothing driver-specific.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverError {
    /// The ORA-/DPI- number. A thin error without one gets the number the thick driver reports
    /// for the same condition (no listener: ORA-12541; connection closed: ORA-03113; …).
    pub code: Option<OraCode>,
    /// The driver's message, first line (plus a PLS- line); passwords are redacted later.
    pub message: String,
    /// A single-row query found no row (ORA-01403).
    pub no_data_found: bool,
    /// The thin driver met something it cannot do (it panicked, or refused the server): thick
    /// mode may work where thin does not (CDC-2009 at login).
    pub thin_limit: bool,
    /// The thin driver stopped reading the database's answer part way (CDC-3009 in a call):
    /// what it could not decode.
    pub unread: Option<Unread>,
}

/// Why the thin driver stopped reading an answer before its end. Before 23ai the database marks
/// no end of an answer, so the rest of it is still on the connection: the session that met
/// this is given up (`thin::ThinSession`), never asked again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unread {
    /// A character value whose bytes are not valid in the character set the driver declares
    /// (AL32UTF8; AL16UTF16 for national types): the driver decodes strictly.
    Encoding,
    /// A part of the answer the driver cannot parse (an unknown message, an integer wider than
    /// the protocol allows, a VECTOR or JSON image).
    Protocol,
}

impl DriverError {
    pub fn new(code: Option<OraCode>, message: impl Into<String>) -> DriverError {
        DriverError {
            code,
            message: message.into(),
            no_data_found: false,
            thin_limit: false,
            unread: None,
        }
    }

    /// The error of a call on an open session, in the catalog ([`connect::runtime_error`]).
    pub fn runtime(&self, ctx: &CallContext) -> CdcError {
        if let Some(unread) = self.unread {
            return unread_answer(unread, &self.message, ctx);
        }
        if self.thin_limit {
            return CdcError::Database(format!(
                "{}: the thin driver failed ({}); cdc.database.driver=thick (with Oracle Instant \
                 Client) does not have this limit",
                ctx.operation, self.message
            ));
        }
        connect::runtime_error(self.code, &self.message, ctx)
    }

    /// The error of a failed login ([`connect::connect_error`], or CDC-2009 for a thin limit).
    pub fn at_login(&self, password: &Password, url: &str) -> CdcError {
        if self.thin_limit {
            return thin_limit_error(&self.message, password.expose(), url);
        }
        connect::connect_error(self.code, &self.message, password.expose(), url)
    }

    /// A missing view or privilege (ORA-00942, ORA-01031, ORA-01039).
    pub fn is_missing_privilege(&self) -> bool {
        matches!(self.code, Some(OraCode::Ora(942 | 1031 | 1039)))
    }
}

/// CDC-3009: the thin driver could not read the answer to `ctx`'s call (`detail`: its message).
/// Not a lost connection (CDC-5007) although the session is given up: the same row read again
/// fails again, so the engine must stop on it rather than reconnect and retry.
fn unread_answer(unread: Unread, detail: &str, ctx: &CallContext) -> CdcError {
    let (what, remedy) = match unread {
        Unread::Encoding => (
            "a value in the database's answer is not valid in the character set the thin driver \
             declares (AL32UTF8; AL16UTF16 for NVARCHAR2 and NCHAR): it was stored without \
             conversion or is damaged, and every read of it fails alike",
            "repair the value (`SELECT ROWID, DUMP(col, 1016) FROM …` shows its bytes), or read \
             it with cdc.database.driver=thick, which replaces each invalid byte with U+FFFD",
        ),
        Unread::Protocol => (
            "the thin driver cannot parse the database's answer",
            "cdc.database.driver=thick (with Oracle Instant Client) reads it",
        ),
    };
    let table = ctx
        .table
        .as_deref()
        .map(|t| format!(" of {t}"))
        .unwrap_or_default();
    CdcError::coded(
        Code::Cdc3009,
        format!(
            "{}{table}: {what} ({detail}); the session is given up. {remedy} (oracle-cdc explain \
             CDC-3009)",
            ctx.operation
        ),
    )
}

/// CDC-2009: the thin driver stopped at a feature it does not support; the remedy names thick
/// mode. `detail` is the driver's message (or its panic), redacted here.
pub fn thin_limit_error(detail: &str, password: &str, url: &str) -> CdcError {
    let detail = connect::redact(detail.trim(), password);
    CdcError::Connect {
        code: Code::Cdc2009,
        message: format!(
            "{url}: the thin driver cannot log in to this database ({detail}): it does not \
             support native network encryption or checksumming required by the server, accounts \
             with only an 11G password verifier, external (Kerberos) authentication or \
             password-store wallets; set cdc.database.driver=thick and install Oracle Instant \
             Client (oracle-cdc explain CDC-2009)"
        ),
    }
}

pub type DbResult<T> = std::result::Result<T, DriverError>;

/// Fetch tuning of one query; 0 leaves the driver's default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FetchOptions {
    /// Rows per fetch round trip.
    pub array_size: u32,
    /// Rows returned with the execute itself.
    pub prefetch: u32,
}

impl FetchOptions {
    /// `rows` per round trip, the first batch with the execute.
    pub fn rows(rows: u32) -> FetchOptions {
        FetchOptions {
            array_size: rows,
            prefetch: rows,
        }
    }
}

/// The rows of a query, each a [`Cell`] per select-list column.
pub type Rows<'s> = Box<dyn Iterator<Item = DbResult<Vec<Cell>>> + 's>;

/// One connection, as the adapter uses it. Binds are named (`:scn` ↔ `("scn", …)`).
pub trait DbSession: Send {
    /// Which driver this is.
    fn driver(&self) -> Driver;

    /// A statement without result rows: DML, ALTER SESSION, a PL/SQL block.
    fn execute(&self, sql: &str, binds: &[(&str, Bind)]) -> DbResult<()>;

    /// A query's rows, fetched as `fetch` says.
    fn query(&self, sql: &str, binds: &[(&str, Bind)], fetch: FetchOptions) -> DbResult<Rows<'_>>;

    /// The first row of a query; `no_data_found` when there is none.
    fn query_row(&self, sql: &str, binds: &[(&str, Bind)]) -> DbResult<Vec<Cell>> {
        match self.query(sql, binds, FetchOptions::rows(2))?.next() {
            Some(row) => row,
            None => Err(DriverError {
                no_data_found: true,
                ..DriverError::new(Some(OraCode::Ora(1403)), "ORA-01403: no data found")
            }),
        }
    }

    fn commit(&self) -> DbResult<()>;

    /// The server's full release, e.g. `19.22.0.0.0`.
    fn server_version(&self) -> DbResult<String>;

    /// How long one round trip may take (`None`: no limit).
    fn set_call_timeout(&self, timeout: Option<Duration>) -> DbResult<()>;

    /// The warning the database gave with the login (`ORA-28002: the password will expire
    /// within 7 days`), read right after it: both drivers keep only the last warning, which
    /// a later call may replace or clear.
    fn login_warning(&self) -> Option<&str> {
        None
    }
}

/// `cdc.database.wallet.location` and `.password`: where a tcps connection's trust comes from
/// (the CA certificates that signed the database's certificate) and, for mutual TLS, the
/// client's certificate and key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wallet {
    /// A directory: thin reads ewallet.pem there, thick (Oracle's libraries) cwallet.sso.
    pub location: String,
    /// Decrypts an encrypted private key in ewallet.pem (thin).
    pub password: Option<Password>,
}

/// Open one session with `driver`, asking for an SDU of `sdu` bytes (see
/// [`descriptor`](super::descriptor)), trusting `wallet`'s certificates on a tcps connection,
/// each TCP connect of the thin driver given up after `connect_timeout` (`None`: the system's).
/// Nothing here bounds the rest of the login: [`OracleConnector::open`] does.
/// Every failure is a `CdcError::Connect` whose text never contains the password; it names
/// `url` as the operator wrote it.
///
/// [`OracleConnector::open`]: crate::OracleConnector::open
pub fn open(
    driver: Driver,
    url: &str,
    sdu: u32,
    wallet: Option<&Wallet>,
    user: &str,
    password: &Password,
    connect_timeout: Option<Duration>,
) -> Result<Box<dyn DbSession>, CdcError> {
    let mut connect = super::descriptor::with_sdu(url, sdu);
    if let (Driver::Thick, Some(w)) = (driver, wallet) {
        // Oracle's libraries take the wallet from the descriptor, or else from sqlnet.ora.
        match super::descriptor::with_wallet(&connect, &w.location) {
            Some(with) => connect = with,
            None => tracing::warn!(
                url,
                wallet = w.location,
                "cdc.database.wallet.location cannot go into this connect string (a TNS alias \
                 or a multi-host EZConnect URL): the thick driver takes the wallet sqlnet.ora \
                 names (WALLET_LOCATION)"
            ),
        }
    }
    tracing::debug!(
        url,
        connect,
        user,
        driver = driver.name(),
        "connecting to Oracle"
    );
    let target = Target {
        url,
        connect: &connect,
        wallet,
        connect_timeout,
    };
    match driver {
        Driver::Thin => Ok(Box::new(thin::ThinSession::open(target, user, password)?)),
        Driver::Thick => Ok(Box::new(thick::ThickSession::open(target, user, password)?)),
    }
}

/// Where a session connects: the connect string the driver is given, and the URL errors name.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub url: &'a str,
    pub connect: &'a str,
    pub wallet: Option<&'a Wallet>,
    /// The thin driver's TCP connect timeout (the thick one takes Oracle Net's, from
    /// sqlnet.ora or the descriptor).
    pub connect_timeout: Option<Duration>,
}

/// A message's first line, plus the PLS- line of a PL/SQL error (ORA-06550 says what went wrong
/// there) and, under ORA-00604 (recursive SQL), the lines down to the first other ORA- error,
/// the one that decides ([`connect::deciding_code`]), and an ORA-02063 line saying it came over
/// a database link; ORA- texts end with a newline and sometimes an `ORA-06512: at line`
/// backtrace, which is left out.
pub fn first_line(text: &str) -> String {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .peekable();
    let mut first = lines.next().unwrap_or_default().to_string();
    let wrapper = format!("ORA-{:05}", connect::RECURSIVE_SQL);
    if first.starts_with(&wrapper) {
        // Taken while it is still the wrappers' or their error's (a line after that, a PLS-
        // line say, is left for below).
        let mut under = false;
        while let Some(l) =
            lines.next_if(|l| !under || l.starts_with("ORA-02063") || l.starts_with("ORA-06512"))
        {
            if l.starts_with("ORA-06512") {
                continue;
            }
            first.push_str("; ");
            first.push_str(l);
            under = under || !l.starts_with(&wrapper);
        }
    }
    if let Some(pls) = lines.find(|l| l.starts_with("PLS-")) {
        first.push(' ');
        first.push_str(pls);
    }
    first
}

#[cfg(test)]
mod tests;
