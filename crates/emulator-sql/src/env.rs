//! What a statement's evaluation reads besides rows: the session's NLS settings as they were
//! when it started, the statement's clock (SYSDATE and friends are constant within a
//! statement, as Oracle's are), and the answers of the database's functions.
//!
//! An [`Env`] is owned by the statement's row iterator (behind an `Arc`), so rows can be
//! fetched after `execute` returned without borrowing the session or the database.

use crate::compare::CharsetOrder;
use crate::nls::Nls;
use crate::{DateTime, Datum, OraError};
use std::collections::HashMap;
use std::sync::Mutex;

/// The statement's time: the database host's local time and its offset from UTC.
#[derive(Debug, Clone, Copy, Default)]
pub struct Now {
    pub host: DateTime,
    pub host_offset: i16,
}

/// Database function results, by name and arguments, and the calls a run needed but did not
/// find (see `exec::eager`).
#[derive(Debug, Default)]
pub struct Memo {
    pub done: HashMap<String, Result<Datum, OraError>>,
    pub missing: Vec<(String, Vec<Datum>)>,
}

pub fn memo_key(name: &str, args: &[Datum]) -> String {
    format!("{name}\u{1}{args:?}")
}

#[derive(Debug)]
pub struct Env {
    pub nls: Nls,
    pub now: Now,
    pub memo: Mutex<Memo>,
    /// How the database's character set orders text ([`crate::Database::charset_order`]).
    pub database_order: CharsetOrder,
}

impl Env {
    pub fn new(nls: Nls, now: Now, database_order: CharsetOrder) -> Env {
        Env {
            nls,
            now,
            memo: Mutex::new(Memo::default()),
            database_order,
        }
    }

    pub fn decimal(&self) -> char {
        self.nls.decimal()
    }

    /// The session time zone's offset in minutes.
    pub fn offset(&self) -> Result<i16, OraError> {
        self.nls.offset()
    }

    /// A database function's answer if known; otherwise the call is noted as missing and
    /// `None` returned (the caller evaluates on with NULL and the run is repeated).
    pub fn db_function(&self, name: &str, args: &[Datum]) -> Option<Result<Datum, OraError>> {
        let key = memo_key(name, args);
        let mut memo = self.memo.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(r) = memo.done.get(&key) {
            return Some(r.clone());
        }
        memo.missing.push((name.to_string(), args.to_vec()));
        None
    }
}
