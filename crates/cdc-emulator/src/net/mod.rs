//! The emulated database behind an Oracle Net listener (`oracle-cdc emulator serve`): any thin
//! client — the project's own Oracle adapter, python-oracledb, node oracledb, JDBC thin —
//! connects, logs in and runs SQL, answered from the same emulator state the in-process
//! sessions use.
//!
//! The layers: `oracle-net-server` speaks the protocol (packets, login, encodings);
//! `emulator-sql` parses and evaluates the SQL; this module is the database under both:
//! - [`backend`]: services (the CDB's and each open PDB's), users and their 12c verifiers,
//!   sessions at login;
//! - [`database`]: one session's [`emulator_sql::Database`]: which relation a name is (a
//!   catalog view, a V$ view, a user table), functions, DBMS_LOGMNR, ALTER SESSION, writes;
//! - [`catalog_views`], [`account_views`], [`dynamic_views`]: ALL_/DBA_ and V$ views built from the same
//!   [`EmulatorSession`](super::EmulatorSession) answers the engine gets in-process, with the
//!   same privilege checks, so the two ways into the database cannot disagree;
//! - [`tables`]: user tables read AS OF an SCN (streamed from a reader thread) and written
//!   through the emulator's one writer; [`logminer`]: a LogMiner session per connection;
//! - [`values`]: stored values as Oracle's typed values and back.

mod account_views;
pub mod backend;
mod catalog_views;
mod database;
mod dynamic_views;
mod logminer;
mod policy_views;
mod relation;
mod tables;
pub mod values;

pub use backend::{serve, EmulatorBackend, ServeOptions, Served, TlsFiles, DEFAULT_PASSWORD};

use crate::errors::CdcError;
use oracle_datum::{AfterError, OraError};

/// An emulator error as the Oracle error a client sees: the `ORA-NNNNN` its message carries,
/// with the text from there; a lost connection drops the connection (the client sees
/// ORA-03113); anything without an ORA code is ORA-00600, Oracle's "internal error", with the
/// emulator's message, so nothing fails silently or unexplained.
pub(crate) fn ora_error(e: CdcError) -> OraError {
    let drop = matches!(e, CdcError::ConnectionLost(_));
    let text = e.to_string();
    let mut out = match text.find("ORA-") {
        Some(at) => {
            let digits: String = text[at + 4..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            match digits.parse::<u32>() {
                Ok(code) => OraError {
                    code,
                    message: text[at..].to_string(),
                    position: None,
                    after: AfterError::Continue,
                },
                Err(_) => OraError::new(600, format!("internal error code, arguments: [{text}]")),
            }
        }
        None => OraError::new(600, format!("internal error code, arguments: [{text}]")),
    };
    if drop {
        // A killed session, one ended by a shutdown or by its profile's IDLE_TIME or
        // CONNECT_TIME hears why before its connection closes; a lost one hears nothing.
        out.after = if matches!(out.code, 28 | 1089 | 2396 | 2399) {
            AfterError::Close
        } else {
            AfterError::Drop
        };
    }
    out
}
