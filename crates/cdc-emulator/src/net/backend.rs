//! The emulated database as an Oracle Net [`Backend`]: its services, its users' 12c
//! verifiers, and a session per login (the SQL engine over a [`WireDatabase`]).
//!
//! Services are named as Oracle names them: the database's own (`database.name`, whose
//! sessions land in CDB$ROOT in a CDB) and each open PDB's (its name); a MOUNTED PDB's service
//! is not registered (ORA-12514), nor is any PDB on a downstream mining database. Logins are
//! checked by the same rules as in-process connections (`access::login`: common and local
//! users, CREATE SESSION), after the password checked out against the user's verifier.

use super::database::WireDatabase;
use crate::errors::Result;
use crate::{access, EmulatorConnector};
use oracle_datum::{Datum, OraError};
use oracle_net_server::{
    Backend, Bind, Login, Outcome, RowSource, ServerInfo, ServerSession, ServiceAnswer, Verifier,
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};

/// The password of a user the schema file gives none (`database.users[].password`).
pub const DEFAULT_PASSWORD: &str = "emulator";

/// The database behind a listener.
pub struct EmulatorBackend {
    connector: EmulatorConnector,
    /// Upper-cased user name → verifier; the implicit user of a schema without
    /// `database.users` takes any name, with [`DEFAULT_PASSWORD`].
    verifiers: HashMap<String, Verifier>,
    implicit: Option<Verifier>,
    next_sid: AtomicU32,
    /// Until then the services are not registered (the register-delay drill).
    registered_at: std::time::Instant,
    /// The largest SDU the server allows: `emulator serve --sdu`, else Oracle's default for
    /// the release the database claims ([`default_sdu`]).
    sdu: u32,
}

/// Oracle's default server SDU (DEFAULT_SDU_SIZE) for a release: 8192 bytes for a dedicated
/// server before 23ai, 65536 from 23ai (Net Services Administrator's Guide, "Configuring Session
/// Data Unit", 19c and 23ai editions).
pub fn default_sdu(version: &str) -> u32 {
    let major = version
        .split('.')
        .next()
        .and_then(|m| m.trim().parse::<u32>().ok())
        .unwrap_or(19);
    if major >= 23 {
        65_536
    } else {
        8_192
    }
}

impl EmulatorBackend {
    /// A backend whose services register `register_delay` after now (0: at once).
    pub fn new(connector: EmulatorConnector) -> Result<Self> {
        Self::registering_after(connector, std::time::Duration::ZERO)
    }

    pub fn registering_after(
        connector: EmulatorConnector,
        register_delay: std::time::Duration,
    ) -> Result<Self> {
        let (users, implicit, version) = connector.with_replica_meta(|r, _| {
            let d = &r.schema.database;
            let specs: Vec<_> = d.users.clone();
            (specs, d.users.is_empty(), d.version.clone())
        })?;
        let mut verifiers = HashMap::new();
        for u in users {
            verifiers.insert(u.name.to_ascii_uppercase(), user_verifier(&u)?);
        }
        Ok(EmulatorBackend {
            connector,
            verifiers,
            implicit: implicit.then(|| Verifier::new(DEFAULT_PASSWORD)),
            next_sid: AtomicU32::new(17),
            registered_at: std::time::Instant::now() + register_delay,
            sdu: default_sdu(&version),
        })
    }

    /// The server's SDU (`emulator serve --sdu`, Oracle's DEFAULT_SDU_SIZE) instead of the
    /// release's default.
    pub fn with_sdu(mut self, sdu: Option<u32>) -> Self {
        if let Some(sdu) = sdu {
            self.sdu = sdu;
        }
        self
    }

    /// The largest SDU a connection gets.
    pub fn sdu(&self) -> u32 {
        self.sdu
    }

    /// The service names clients can connect to, the database's own first.
    pub fn services(&self) -> Result<Vec<String>> {
        self.connector.with_replica_meta(|r, _| {
            let d = &r.schema.database;
            let mut out = vec![d.name.clone()];
            if !self.connector.is_downstream() {
                out.extend(
                    access::pdbs(&r.schema)
                        .into_iter()
                        .filter(|(_, mode)| mode.is_open())
                        .map(|(p, _)| p),
                );
            }
            out
        })
    }
}

/// A user's stored verifier (`T:` form, set by `emulator init`), or one made from a password
/// still in the schema (older databases: the default when none).
fn user_verifier(u: &access::UserSpec) -> Result<Verifier> {
    if let Some(stored) = &u.password_verifier {
        return access::parse_verifier(stored).map_err(|e| {
            crate::errors::CdcError::coded(
                crate::errors::Code::Cdc4007,
                format!("database.users: {}: password_verifier: {e}", u.name),
            )
        });
    }
    Ok(Verifier::new(
        u.password.as_deref().unwrap_or(DEFAULT_PASSWORD),
    ))
}

impl Backend for EmulatorBackend {
    fn info(&self) -> ServerInfo {
        let (name, version) = self
            .connector
            .with_replica_meta(|r, _| {
                (
                    r.schema.database.name.clone(),
                    r.schema.database.version.clone(),
                )
            })
            .unwrap_or_else(|_| ("EMU".into(), "19.0.0.0.0".into()));
        let mut parts = version
            .split('.')
            .map(|p| p.trim().parse::<u8>().unwrap_or(0));
        let mut next = || parts.next().unwrap_or(0);
        ServerInfo {
            version: (next(), next(), next(), next(), next()),
            banner: "- Production (oracle-cdc emulator)".into(),
            db_name: name.clone(),
            instance_name: format!("{}1", name.to_ascii_lowercase()),
            db_domain: String::new(),
            sdu: self.sdu,
        }
    }

    fn service(&self, name: &str) -> ServiceAnswer {
        if std::time::Instant::now() < self.registered_at
            || self.connector.unregistered_by_restart()
        {
            // LREG has not registered the services with the listener yet (after `serve`
            // started, or the database restarted: its services left with it).
            return ServiceAnswer::Unknown;
        }
        match self.services() {
            Ok(list) if list.iter().any(|s| s.eq_ignore_ascii_case(name)) => ServiceAnswer::Accept,
            Ok(_) => ServiceAnswer::Unknown,
            Err(e) => {
                tracing::warn!("listing services: {e}");
                ServiceAnswer::Refuse(12528)
            }
        }
    }

    fn verifier(&self, user: &str) -> Option<Verifier> {
        self.verifiers
            .get(&user.to_ascii_uppercase())
            .cloned()
            .or_else(|| self.implicit.clone())
    }

    fn open(&self, login: &Login) -> std::result::Result<Box<dyn ServerSession>, OraError> {
        let db_name = self.info().db_name;
        let service =
            (!login.service.eq_ignore_ascii_case(&db_name)).then_some(login.service.as_str());
        let mut session = self
            .connector
            .clone()
            .with_login(Some(&format!("\"{}\"", login.user)), service)
            .emulator_session()
            .map_err(super::ora_error)?;
        // A client's session starts with Oracle's default ROW ARCHIVAL VISIBILITY = ACTIVE.
        session.set_archived_visible(false);
        let sid = self.next_sid.fetch_add(1, Ordering::Relaxed);
        tracing::debug!(user = %login.user, service = %login.service, sid, "session opened");
        Ok(Box::new(NetSession {
            sql: emulator_sql::SqlSession::new(),
            db: WireDatabase::new(session, &login.service, sid),
        }))
    }
}

/// One logged-in session: the SQL engine over the session's database.
struct NetSession {
    sql: emulator_sql::SqlSession,
    db: WireDatabase,
}

struct Rows(Box<dyn Iterator<Item = std::result::Result<Vec<Datum>, OraError>> + Send>);

impl RowSource for Rows {
    fn next_row(&mut self) -> std::result::Result<Option<Vec<Datum>>, OraError> {
        self.0.next().transpose()
    }
}

impl ServerSession for NetSession {
    fn execute(&mut self, sql: &str, binds: &[Bind]) -> std::result::Result<Outcome, OraError> {
        let values = self
            .db
            .bound_values(binds.iter().map(|b| (&b.value, &b.ora_type)))?;
        let sql = self.db.statement_text(sql)?;
        Ok(match self.sql.execute(&mut self.db, &sql, &values)? {
            emulator_sql::Outcome::Rows { columns, rows } => Outcome::Rows {
                columns,
                rows: Box::new(Rows(rows)),
            },
            emulator_sql::Outcome::Done { row_count } => Outcome::Done { row_count },
            emulator_sql::Outcome::PlSql { out } => Outcome::PlSql { out },
        })
    }

    fn commit(&mut self) -> std::result::Result<(), OraError> {
        emulator_sql::Database::commit(&mut self.db)
    }

    fn rollback(&mut self) -> std::result::Result<(), OraError> {
        emulator_sql::Database::rollback(&mut self.db)
    }

    fn close(&mut self) {
        self.db.close();
    }

    fn container(&self) -> Option<String> {
        self.db.session.container.clone()
    }

    fn login_warning(&self) -> Option<OraError> {
        let message = self.db.session.user.password.login_warning()?;
        Some(OraError {
            code: 28002,
            message,
            position: None,
            after: Default::default(),
        })
    }
}

/// How `emulator serve` runs.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// `ADDR:PORT`; loopback by default (`127.0.0.1:1521`).
    pub listen: String,
    pub faults: crate::Faults,
    /// `--sdu`: the server's DEFAULT_SDU_SIZE; `None`: the release's default ([`default_sdu`]).
    pub sdu: Option<u32>,
    /// `--tls-cert` and `--tls-key`: serve TCPS with this certificate chain and key (PEM).
    pub tls: Option<TlsFiles>,
}

/// The PEM files a TCPS listener presents: the certificate chain (the server's first) and its
/// private key; and the CAs whose client certificates it requires (mutual TLS), if any.
#[derive(Debug, Clone)]
pub struct TlsFiles {
    pub cert: std::path::PathBuf,
    pub key: std::path::PathBuf,
    pub client_ca: Option<std::path::PathBuf>,
}

impl TlsFiles {
    /// The TLS server configuration, or an error naming the file at fault.
    fn config(&self) -> Result<std::sync::Arc<oracle_net_server::TlsServerConfig>> {
        let read = |path: &std::path::Path, flag: &str| {
            std::fs::read(path).map_err(|e| {
                crate::errors::CdcError::Argument(format!(
                    "{flag} {}: cannot read it: {e}",
                    path.display()
                ))
            })
        };
        let cert = read(&self.cert, "--tls-cert")?;
        let key = read(&self.key, "--tls-key")?;
        let client_ca = match &self.client_ca {
            Some(path) => Some(read(path, "--tls-client-ca")?),
            None => None,
        };
        oracle_net_server::tls_config(&cert, &key, client_ca.as_deref()).map_err(|e| {
            crate::errors::CdcError::Argument(format!(
                "--tls-cert {} / --tls-key {}{}: {e}",
                self.cert.display(),
                self.key.display(),
                self.client_ca
                    .as_ref()
                    .map(|p| format!(" / --tls-client-ca {}", p.display()))
                    .unwrap_or_default()
            ))
        })
    }
}

/// A database being served: its listener (stopped when dropped) and its services.
pub struct Served {
    pub listener: oracle_net_server::Listener,
    pub services: Vec<String>,
    /// The largest SDU a connection gets.
    pub sdu: u32,
    /// Served over TLS (TCPS).
    pub tls: bool,
}

impl Served {
    pub fn local_addr(&self) -> std::net::SocketAddr {
        self.listener.local_addr()
    }

    /// `host:port/service`, the EZConnect URL of a service (`tcps://host:port/service` over
    /// TLS).
    pub fn url(&self, service: &str) -> String {
        let scheme = if self.tls { "tcps://" } else { "" };
        format!("{scheme}{}/{service}", self.local_addr())
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.listener.stop();
    }
}

/// Open the database in `dir` and serve it on `options.listen`.
pub fn serve(dir: &std::path::Path, options: &ServeOptions) -> Result<Served> {
    let connector = EmulatorConnector::open(dir, options.faults.clone())?;
    let delay = std::time::Duration::from_millis(options.faults.settings.register_delay_ms);
    let backend = EmulatorBackend::registering_after(connector, delay)?.with_sdu(options.sdu);
    let services = backend.services()?;
    let sdu = backend.sdu();
    let backend = std::sync::Arc::new(backend);
    let listener = match &options.tls {
        None => oracle_net_server::Listener::bind(options.listen.as_str(), backend),
        Some(files) => {
            oracle_net_server::Listener::bind_tls(options.listen.as_str(), backend, files.config()?)
        }
    }
    .map_err(|e| {
            crate::errors::CdcError::Argument(format!(
                "cannot listen on {}: {e} (is another listener on that port? choose another with --listen ADDR:PORT)",
                options.listen
            ))
        })?;
    Ok(Served {
        listener,
        services,
        sdu,
        tls: options.tls.is_some(),
    })
}

#[cfg(test)]
mod sdu_tests {
    /// Oracle's default DEFAULT_SDU_SIZE by release: 8 KB before 23ai, 64 KB from it.
    #[test]
    fn the_default_sdu_follows_the_release() {
        assert_eq!(super::default_sdu("19.0.0.0.0"), 8_192);
        assert_eq!(super::default_sdu("12.2.0.1.0"), 8_192);
        assert_eq!(super::default_sdu("21.3.0.0.0"), 8_192);
        assert_eq!(super::default_sdu("23.4.0.24.5"), 65_536);
        assert_eq!(super::default_sdu("26.1.0.0.0"), 65_536);
        assert_eq!(super::default_sdu(""), 8_192);
    }
}
