//! The source boundary: the only way the engine sees a database.
//!
//! Three implementations: [`oracle`] (a real database through the thin `oracledb` or the thick
//! `oracle` crate, `cdc.database.driver`, every SQL statement in `oracle::sql`), [`emulator`] (the embedded, file-backed emulated database) and
//! [`replay`] (a CSV export of V$LOGMNR_CONTENTS, for reproducing decoding problems).
//! A [`Connector`] opens [`Session`]s; each snapshot reader has a session of its own, as it has
//! a connection of its own against Oracle.

pub use cdc_core::{filter, model, rowid, threads};

pub mod container;
// The embedded emulator is its own crate (crates/cdc-emulator); the engine opens it as a source.
pub use cdc_emulator as emulator;
#[cfg(test)]
mod emulator_tests;
pub mod mining;
#[cfg(test)]
mod oracle_filter_tests;
#[cfg(test)]
mod oracle_tests;
// The Oracle adapter is its own crate (crates/cdc-oracle), the only one that names a driver.
pub use cdc_oracle as oracle;
pub mod replay;
mod retry;
#[cfg(test)]
pub(crate) mod tracked;
mod warm;

pub use retry::{
    backoff, is_transient, is_transient_after_loss, is_transient_call, login_unless_stopped,
    retry_cause, sleep_unless_stopped, Login, Reconnecting, Stop,
};
pub use warm::WarmConnector;

pub use filter::MiningFilter;
pub use model::*;
// The source trait is the core's: the emulator implements it without seeing the engine.
pub use cdc_core::session::{Admin, Catalog, Connector, Flashback, Miner, Session};

use crate::errors::{CdcError, Code, Result};

/// Open the database named by `cdc.database.url`; with `cdc.mining.database.url` set, a
/// [`mining::DownstreamConnector`] that mines there (downstream capture).
pub fn open(settings: &crate::settings::Settings) -> Result<Box<dyn Connector>> {
    let Some(url) = settings.mining_url() else {
        return open_source(settings);
    };
    let mining = open_mining(settings, url)?;
    Ok(Box::new(mining::DownstreamConnector::new(
        open_source(settings)?,
        mining,
        std::time::Duration::from_millis(settings.gap_timeout_ms),
    )))
}

/// The mining (downstream) database of `cdc.mining.database.url`.
pub fn open_mining(settings: &crate::settings::Settings, url: &str) -> Result<Box<dyn Connector>> {
    use crate::settings::{DatabaseUrl, Scheme};
    let refuse = |why: String| Err(CdcError::settings(Code::Cdc2201, why));
    let not_a_replay = || {
        refuse("cdc.mining.database.url cannot be a replay: a replay is a source of its own".into())
    };
    if url == settings.database_url().trim() {
        return refuse(format!(
            "cdc.mining.database.url `{url}` is cdc.database.url itself: remove it to mine on the source"
        ));
    }
    // By the scheme, before parsing: `replay:` without a directory is no mining database
    // either, and is refused as a replay.
    if Scheme::of(url) == Scheme::Replay {
        return not_a_replay();
    }
    let (dir, service) = match DatabaseUrl::parse(url)? {
        DatabaseUrl::Emulator { dir, service } => (dir, service),
        DatabaseUrl::Replay { .. } => return not_a_replay(),
        DatabaseUrl::Oracle { connect } => {
            return Ok(Box::new(container::ContainerConnector::new(
                Box::new(oracle_mining_on(settings, connect)?),
                container::WantedPdbs::of(settings),
            )))
        }
    };
    let dir = dir.as_path();
    let resolved = emulator::topology::resolve(dir)?;
    let emulator::topology::Role::Downstream { .. } = resolved.role else {
        return refuse(format!(
            "cdc.mining.database.url `{url}` is not an emulated downstream: make one with `oracle-cdc emulator create DIR --downstream-of SOURCE_DIR`"
        ));
    };
    // The emulated source must be the database the downstream receives redo from (a
    // standby of it shares its redo).
    if let Some(DatabaseUrl::Emulator { dir: src, .. }) =
        DatabaseUrl::parse_if(settings.database_url(), Scheme::Emulator)?
    {
        let source = emulator::topology::resolve(&src)?;
        let same =
            |a: &std::path::Path, b: &std::path::Path| match (a.canonicalize(), b.canonicalize()) {
                (Ok(a), Ok(b)) => a == b,
                _ => a == b,
            };
        if !same(&source.data_dir, &resolved.data_dir) {
            return Err(CdcError::MiningOtherDatabase {
                mining: DatabaseUrl::Emulator {
                    dir: dir.to_path_buf(),
                    service: None,
                }
                .to_string(),
                mining_dbid: resolved.schema.database.dbid,
                source_url: settings.database_url().to_string(),
                source_dbid: source.schema.database.dbid,
            });
        }
    }
    let faults = settings.emulator_faults();
    let connector = emulator::EmulatorConnector::open(dir, faults)?
        .with_login(settings.mining_user(), service.as_deref());
    connector.set_dictionary(settings.mining_dictionary)?;
    Ok(Box::new(container::ContainerConnector::new(
        Box::new(connector),
        container::WantedPdbs::of(settings),
    )))
}

/// The database named by `cdc.database.url` alone, behind the container logic of
/// [`container::ContainerConnector`] (a no-op outside a CDB), which in root mode lists the
/// tables of the PDBs the settings reach into.
pub fn open_source(settings: &crate::settings::Settings) -> Result<Box<dyn Connector>> {
    Ok(Box::new(container::ContainerConnector::new(
        open_raw(settings)?,
        container::WantedPdbs::of(settings),
    )))
}

/// The database of `cdc.database.url` as its adapter opens it, sessions unwrapped.
fn open_raw(settings: &crate::settings::Settings) -> Result<Box<dyn Connector>> {
    use crate::settings::DatabaseUrl;
    Ok(match settings.database()? {
        DatabaseUrl::Emulator { dir, service } => {
            let faults = settings.emulator_faults();
            let connector = emulator::EmulatorConnector::open(&dir, faults)?
                .with_login(settings.database_user(), service.as_deref());
            connector.set_dictionary(settings.mining_dictionary)?;
            Box::new(connector)
        }
        DatabaseUrl::Replay { dir } => Box::new(replay::ReplayConnector::open(&dir)?),
        DatabaseUrl::Oracle { connect } => Box::new(oracle_source_on(settings, connect)?),
    })
}

/// The Oracle adapter's session setup from settings: `cdc.mining.dictionary`,
/// `cdc.database.driver`, `cdc.database.call.timeout.ms`, `cdc.database.connect.timeout.ms`,
/// `cdc.database.sdu`, `cdc.database.wallet.*` and `cdc.mining.idle.thread.ms`.
pub fn oracle_options(settings: &crate::settings::Settings) -> oracle::Options {
    oracle::Options {
        dictionary: settings.mining_dictionary,
        driver: settings.database_driver,
        call_timeout: settings.call_timeout,
        connect_timeout: settings.connect_timeout,
        sdu: settings.database_sdu,
        idle_thread_ms: settings.idle_thread_ms,
        wallet: settings
            .wallet_location
            .as_ref()
            .map(|dir| oracle::driver::Wallet {
                location: dir.display().to_string(),
                password: settings
                    .wallet_password()
                    .map(|s| oracle::connect::Password::new(s.expose())),
            }),
    }
}

/// The Oracle source of `cdc.database.url`, `cdc.database.user` and `cdc.database.password`.
/// Nothing is contacted yet; a missing client library (thick mode) shows on the first connect.
pub fn oracle_source(settings: &crate::settings::Settings) -> Result<oracle::OracleConnector> {
    let connect = crate::settings::DatabaseUrl::oracle_connect(settings.database_url())?;
    oracle_source_on(settings, connect)
}

/// [`oracle_source`] for the connect string of a `cdc.database.url` already parsed.
fn oracle_source_on(
    settings: &crate::settings::Settings,
    connect: String,
) -> Result<oracle::OracleConnector> {
    let password = settings
        .database_password()
        .map(|s| oracle::connect::Password::new(s.expose()));
    oracle::OracleConnector::source(
        connect,
        settings.database_user(),
        password,
        oracle_options(settings),
    )
}

/// The mining (downstream) database of `cdc.mining.database.url` (`url`), with
/// `cdc.mining.database.user`/`password` (else those of `cdc.database.*`).
pub fn oracle_mining(
    settings: &crate::settings::Settings,
    url: &str,
) -> Result<oracle::OracleConnector> {
    oracle_mining_on(settings, crate::settings::DatabaseUrl::oracle_connect(url)?)
}

/// [`oracle_mining`] for a connect string already parsed.
fn oracle_mining_on(
    settings: &crate::settings::Settings,
    connect: String,
) -> Result<oracle::OracleConnector> {
    let password = settings
        .mining_password()
        .map(|s| oracle::connect::Password::new(s.expose()));
    oracle::OracleConnector::mining(
        connect,
        settings.mining_user(),
        password,
        oracle_options(settings),
    )
}
