//! [`OracleConnector`]: the settings of one database and user, checked before anything is
//! contacted, and each connection opened with the session set up as oracle-facts §5 says.

use super::connect::Password;
use super::driver::{self, Driver};
use super::{setup_session, OracleSession};
use crate::errors::{CdcError, Code, Result};
use crate::login::Waited;
use cdc_core::model::{Dictionary, LoginWarning};
use cdc_core::session::prelude::*;
use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};

/// `cdc.database.sdu`'s default: the session data unit asked for, a 23ai database's own default
/// (a 19c database answers with its 8192).
pub const DEFAULT_SDU: u32 = 65_536;
/// `cdc.mining.idle.thread.ms`'s default.
pub const DEFAULT_IDLE_THREAD_MS: u64 = 5_000;
/// `cdc.database.connect.timeout.ms`'s default: the longest one login may take.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How a connector's sessions are set up: the settings the engine reads for it.
#[derive(Debug, Clone)]
pub struct Options {
    /// `cdc.mining.dictionary`: the dictionary LogMiner sessions start with.
    pub dictionary: Dictionary,
    /// `cdc.database.driver`.
    pub driver: Driver,
    /// `cdc.database.call.timeout.ms`: the longest round trip; `None`: no limit.
    pub call_timeout: Option<std::time::Duration>,
    /// `cdc.database.connect.timeout.ms`: the longest one login may take.
    pub connect_timeout: Duration,
    /// `cdc.database.sdu`.
    pub sdu: u32,
    /// `cdc.mining.idle.thread.ms`.
    pub idle_thread_ms: u64,
    /// `cdc.database.wallet.location` and `.password`: a tcps connection's certificates.
    pub wallet: Option<driver::Wallet>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            dictionary: Dictionary::OnlineCatalog,
            driver: Driver::default(),
            call_timeout: None,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            sdu: DEFAULT_SDU,
            idle_thread_ms: DEFAULT_IDLE_THREAD_MS,
            wallet: None,
        }
    }
}

/// The connect string of an Oracle URL, trimmed: refused when empty (the URL is not set) or when
/// it holds spaces (no EZConnect string or alias does; a descriptor must be written without
/// them).
pub fn connect_string(text: &str) -> Result<String> {
    let url = text.trim();
    if url.is_empty() {
        return Err(CdcError::settings(
            Code::Cdc2007,
            "cdc.database.url is not set: give an EZConnect string (host[:port]/service), \
             a TNS alias, or emulator:DIR",
        ));
    }
    if url.chars().any(char::is_whitespace) {
        return Err(CdcError::settings(
            Code::Cdc2007,
            format!(
                "cdc.database.url `{url}` contains spaces: use host[:port]/service or a TNS \
                 alias (write a connect descriptor without spaces)"
            ),
        ));
    }
    Ok(url.to_string())
}

/// Connects to one Oracle database as one user.
pub struct OracleConnector {
    url: String,
    user: String,
    password: Password,
    /// A downstream mining database (`cdc.mining.database.url`): its own V$THREAD says nothing
    /// of the source's redo it mines.
    mining: bool,
    /// `cdc.mining.dictionary`: the dictionary LogMiner sessions start with.
    dictionary: Dictionary,
    /// `cdc.database.driver`: thin (the default) or thick.
    driver: Driver,
    /// `cdc.database.call.timeout.ms`: the longest round trip; `None`: no limit.
    call_timeout: Option<std::time::Duration>,
    /// `cdc.database.connect.timeout.ms`: the longest one login may take, from the TCP
    /// connect to the end of the session setup.
    connect_timeout: Duration,
    /// `cdc.database.sdu`: the session data unit asked for (the database may answer less).
    sdu: u32,
    /// `cdc.mining.idle.thread.ms`: how long a redo thread's written position must stand
    /// still for the thread to count as idle.
    idle_thread_ms: u64,
    /// `cdc.database.wallet.*`: a tcps connection's certificates.
    wallet: Option<driver::Wallet>,
    /// The looks at V$THREAD of every session this connector opens (`source::threads`).
    looks: cdc_core::threads::SharedLooks,
}

impl fmt::Debug for OracleConnector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OracleConnector")
            .field("url", &self.url)
            .field("user", &self.user)
            .field("password", &self.password)
            .field("driver", &self.driver)
            .finish()
    }
}

impl OracleConnector {
    /// The source database at `connect` (a connect string already checked with
    /// [`connect_string`]) as `user`, set up by `options`. Nothing is contacted yet; a missing
    /// client library (thick mode) shows on the first `connect()`.
    pub fn source(
        connect: String,
        user: Option<&str>,
        password: Option<Password>,
        options: Options,
    ) -> Result<Self> {
        let mut c = Self::checked(connect, user, password)?;
        c.configure(options);
        Ok(c)
    }

    /// A downstream mining database (`cdc.mining.database.url`): as [`OracleConnector::source`],
    /// and its own V$THREAD says nothing of the source's redo it mines.
    pub fn mining(
        connect: String,
        user: Option<&str>,
        password: Option<Password>,
        options: Options,
    ) -> Result<Self> {
        let mut c = Self::source(connect, user, password, options)?;
        c.mining = true;
        Ok(c)
    }

    /// What a source and a mining connector share.
    fn configure(&mut self, o: Options) {
        self.dictionary = o.dictionary;
        self.driver = o.driver;
        self.call_timeout = o.call_timeout;
        self.connect_timeout = o.connect_timeout;
        self.sdu = o.sdu;
        self.idle_thread_ms = o.idle_thread_ms;
        self.wallet = o.wallet;
    }

    /// The same checks as [`OracleConnector::source`], from a plain URL and default options.
    pub fn new(url: &str, user: Option<&str>, password: Option<Password>) -> Result<Self> {
        Self::checked(connect_string(url)?, user, password)
    }

    /// A connector for a connect string already checked ([`connect_string`]):
    /// the user and password must be given.
    fn checked(connect: String, user: Option<&str>, password: Option<Password>) -> Result<Self> {
        let user = match user.map(str::trim) {
            Some(u) if !u.is_empty() => u.to_string(),
            _ => {
                return Err(CdcError::settings(
                    Code::Cdc1002,
                    "cdc.database.user is not set: an Oracle database needs the capture user's name (in the settings file, `--set cdc.database.user=C##CDC`, or ORACLE_CDC_DATABASE_USER)",
                ))
            }
        };
        let password = password.ok_or_else(|| {
            CdcError::settings(
                Code::Cdc1002,
                "cdc.database.password must be set for an Oracle database, e.g. \
                 ${env:ORACLE_CDC_PASSWORD}",
            )
        })?;
        Ok(OracleConnector {
            url: connect,
            user,
            password,
            mining: false,
            dictionary: Dictionary::OnlineCatalog,
            driver: Driver::default(),
            call_timeout: None,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            sdu: DEFAULT_SDU,
            idle_thread_ms: DEFAULT_IDLE_THREAD_MS,
            wallet: None,
            looks: Default::default(),
        })
    }

    /// The same connector with another quiet period for idle redo threads.
    pub fn with_idle_thread_ms(mut self, ms: u64) -> Self {
        self.idle_thread_ms = ms;
        self
    }

    /// The same connector with another driver.
    pub fn with_driver(mut self, driver: Driver) -> Self {
        self.driver = driver;
        self
    }

    /// The same connector with a call timeout on its sessions (`None`: no limit).
    pub fn with_call_timeout(mut self, timeout: Option<std::time::Duration>) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// The same connector with another bound on each login.
    pub fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// The driver its connections use.
    pub fn driver(&self) -> Driver {
        self.driver
    }

    /// Open a session without boxing it: log in and set the session up within
    /// `connect_timeout` ([`crate::login`]), else fail as a connect timeout (CDC-2010).
    pub fn open(&self) -> Result<OracleSession> {
        let limit = self.connect_timeout;
        let deadline = Instant::now() + limit;
        let login = Login {
            driver: self.driver,
            url: self.url.clone(),
            sdu: self.sdu,
            wallet: self.wallet.clone(),
            user: self.user.clone(),
            password: self.password.clone(),
            call_timeout: self.call_timeout,
        };
        // The login thread logs into the caller's span (which job, which reader).
        let span = tracing::Span::current();
        let waited = crate::login::until(deadline, move || {
            let _in = span.enter();
            login.run(deadline, limit)
        });
        let conn = match waited {
            Ok(Waited::Done(conn)) => conn?,
            Ok(Waited::TimedOut) => {
                return Err(crate::login::timed_out(limit, &self.password, &self.url))
            }
            Ok(Waited::Vanished) => {
                return Err(crate::login::no_thread(
                    &self.url,
                    "ended without an answer",
                ))
            }
            Err(e) => {
                return Err(crate::login::no_thread(
                    &self.url,
                    &format!("could not be started ({e})"),
                ))
            }
        };
        Ok(OracleSession {
            conn,
            container: None,
            column_types: HashMap::new(),
            row_bytes: HashMap::new(),
            mining: self.mining,
            standby: None,
            dictionary: self.dictionary,
            idle_thread_ms: self.idle_thread_ms,
            looks: self.looks.clone(),
            shipped_from: None,
        })
    }
}

/// What one login needs, owned: it runs on a thread of its own ([`crate::login::until`]).
struct Login {
    driver: Driver,
    url: String,
    sdu: u32,
    wallet: Option<driver::Wallet>,
    user: String,
    password: Password,
    call_timeout: Option<Duration>,
}

impl Login {
    /// Log in, then set the session up with its calls bounded by what is left until
    /// `deadline` (or by the call timeout, when shorter), so that this thread ends too when
    /// the database stops answering; the session leaves with the call timeout configured.
    fn run(self, deadline: Instant, limit: Duration) -> Result<Box<dyn driver::DbSession>> {
        let conn = driver::open(
            self.driver,
            &self.url,
            self.sdu,
            self.wallet.as_ref(),
            &self.user,
            &self.password,
            Some(limit),
        )?;
        if let Some(w) = conn.login_warning() {
            warn_at_login(&self.user, &self.url, &LoginWarning::new(w));
        }
        let set = |timeout| {
            conn.set_call_timeout(timeout).map_err(|e| {
                e.runtime(&super::connect::CallContext {
                    operation: "setting the call timeout",
                    ..Default::default()
                })
            })
        };
        // At least a millisecond: a zero read timeout is refused by the socket.
        let left = deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1));
        let during_setup = self.call_timeout.map_or(left, |t| t.min(left));
        set(Some(during_setup))?;
        setup_session(&*conn)?;
        if self.call_timeout != Some(during_setup) {
            set(self.call_timeout)?;
        }
        Ok(conn)
    }
}

/// The login warnings already logged, by user, URL and text: each is logged once per process,
/// not at every login of every snapshot reader and reconnect (the days it names change daily,
/// so a capture running through the grace period logs each day's once).
static WARNED: std::sync::Mutex<std::collections::BTreeSet<(String, String, String)>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// Log the warning `user`'s login to `url` got: for ORA-28002, that the password is in its
/// grace period and what to do before the login fails (ORA-28001, CDC-2013).
fn warn_at_login(user: &str, url: &str, w: &LoginWarning) {
    let key = (user.to_string(), url.to_string(), w.message.clone());
    let first = WARNED
        .lock()
        .map(|mut seen| seen.insert(key))
        .unwrap_or(true);
    if !first {
        return;
    }
    if w.password_expiring() {
        let days = w
            .days_left()
            .map(|d| format!(" in {d} days"))
            .unwrap_or_else(|| " soon".into());
        tracing::warn!(
            user,
            url,
            days = w.days_left(),
            "the password of {user} expires{days} ({}): then every login fails with ORA-28001 \
             and capture stops (CDC-2013); have a DBA set a new one (ALTER USER {user} \
             IDENTIFIED BY …) and give the user a profile with PASSWORD_LIFE_TIME UNLIMITED",
            w.message
        );
    } else {
        tracing::warn!(
            user,
            url,
            "the login of {user} to {url} warned: {}",
            w.message
        );
    }
}

impl Connector for OracleConnector {
    fn connect(&self) -> Result<Box<dyn Session>> {
        Ok(Box::new(self.open()?))
    }

    fn describe(&self) -> String {
        format!("Oracle {} as {}", self.url, self.user)
    }
}
