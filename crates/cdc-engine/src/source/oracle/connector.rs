//! [`OracleConnector`]: the settings of one database and user, checked before anything is
//! contacted, and each connection opened with the session set up as oracle-facts §5 says.

use super::connect::Password;
use super::driver::{self, Driver};
use super::{setup_session, OracleSession};
use crate::errors::{CdcError, Code, Result};
use crate::settings::DatabaseUrl;
use cdc_core::model::Dictionary;
use cdc_core::session::{Connector, Session};
use std::collections::HashMap;
use std::fmt;

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
    /// `cdc.database.sdu`: the session data unit asked for (the database may answer less).
    sdu: u32,
    /// `cdc.mining.idle.thread.ms`: how long a redo thread's written position must stand
    /// still for the thread to count as idle.
    idle_thread_ms: u64,
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
    /// From `cdc.database.url`, `cdc.database.user`, `cdc.database.password` and
    /// `cdc.database.driver`. Nothing is contacted yet; a missing client library (thick mode)
    /// shows on the first `connect()`.
    pub fn from_settings(settings: &crate::settings::Settings) -> Result<Self> {
        let connect = DatabaseUrl::oracle_connect(settings.database_url())?;
        Self::source_on(settings, connect)
    }

    /// [`OracleConnector::from_settings`] for the connect string of a `cdc.database.url`
    /// already parsed (a [`DatabaseUrl::Oracle`]).
    pub(crate) fn source_on(settings: &crate::settings::Settings, connect: String) -> Result<Self> {
        let password = settings
            .database_password()
            .map(|s| Password::new(s.expose()));
        let mut c = Self::checked(connect, settings.database_user(), password)?;
        c.configure(settings);
        Ok(c)
    }

    /// The mining (downstream) database of `cdc.mining.database.url`, with
    /// `cdc.mining.database.user`/`password` (else those of `cdc.database.*`).
    pub fn mining_from_settings(settings: &crate::settings::Settings, url: &str) -> Result<Self> {
        Self::mining_on(settings, DatabaseUrl::oracle_connect(url)?)
    }

    /// [`OracleConnector::mining_from_settings`] for the connect string of a
    /// `cdc.mining.database.url` already parsed (a [`DatabaseUrl::Oracle`]).
    pub(crate) fn mining_on(settings: &crate::settings::Settings, connect: String) -> Result<Self> {
        let password = settings
            .mining_password()
            .map(|s| Password::new(s.expose()));
        let mut c = Self::checked(connect, settings.mining_user(), password)?;
        c.mining = true;
        c.configure(settings);
        Ok(c)
    }

    /// The settings a source and a mining connector share.
    fn configure(&mut self, settings: &crate::settings::Settings) {
        self.dictionary = settings.mining_dictionary;
        self.driver = settings.database_driver;
        self.call_timeout = settings.call_timeout;
        self.sdu = settings.database_sdu;
        self.idle_thread_ms = settings.idle_thread_ms;
    }

    /// The same checks as [`OracleConnector::from_settings`], from plain values.
    pub fn new(url: &str, user: Option<&str>, password: Option<Password>) -> Result<Self> {
        Self::checked(DatabaseUrl::oracle_connect(url)?, user, password)
    }

    /// A connector for a connect string already checked ([`DatabaseUrl::oracle_connect`]):
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
            sdu: crate::settings::DEFAULT_SDU,
            idle_thread_ms: crate::settings::DEFAULT_IDLE_THREAD_MS,
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

    /// The driver its connections use.
    pub fn driver(&self) -> Driver {
        self.driver
    }

    /// Open a session without boxing it.
    pub fn open(&self) -> Result<OracleSession> {
        let conn = driver::open(self.driver, &self.url, self.sdu, &self.user, &self.password)?;
        if self.call_timeout.is_some() {
            conn.set_call_timeout(self.call_timeout).map_err(|e| {
                e.runtime(&super::connect::CallContext {
                    operation: "setting the call timeout",
                    ..Default::default()
                })
            })?;
        }
        setup_session(&*conn)?;
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

impl Connector for OracleConnector {
    fn connect(&self) -> Result<Box<dyn Session>> {
        Ok(Box::new(self.open()?))
    }

    fn describe(&self) -> String {
        format!("Oracle {} as {}", self.url, self.user)
    }
}
