//! Opening a connection, and turning Oracle's errors into the project's catalog.
//!
//! The mapping is a pure function of (ORA-/DPI- code, message text) so it can be tested without
//! a database, and it is the same for both drivers: `driver/` turns each driver's errors into a
//! code and a message first (the thin driver's own errors get the code the thick one reports for
//! the same condition). The tests that touch the real drivers expect "no listener" from the thin
//! driver and DPI-1047 from the thick one on machines without Instant Client. The password is
//! held in [`Password`], whose `Debug` is redacted, and every message built from an Oracle error
//! passes through [`redact`] first.

use crate::errors::{CdcError, Code};
use std::fmt;

/// A password that never prints.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    pub fn new(p: impl Into<String>) -> Self {
        Password(p.into())
    }

    /// Only for the login call.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// Replace every occurrence of the password in a message. Oracle does not echo passwords, but
/// a connect string or a driver message could; this is the last line of defence.
pub fn redact(message: &str, password: &str) -> String {
    if password.is_empty() {
        message.to_string()
    } else {
        message.replace(password, "<redacted>")
    }
}

/// An Oracle error number by its prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OraCode {
    /// `ORA-NNNNN`: the database (or OCI/Net) error.
    Ora(i32),
    /// `DPI-NNNN`: ODPI-C, the layer under the `oracle` crate.
    Dpi(i32),
}

impl fmt::Display for OraCode {
    /// `ORA-03113`, `DPI-1047`: as Oracle prints them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OraCode::Ora(n) => write!(f, "ORA-{n:05}"),
            OraCode::Dpi(n) => write!(f, "DPI-{n:04}"),
        }
    }
}

/// The first `ORA-NNNNN` or `DPI-NNNN` in a message.
pub fn code_in_message(message: &str) -> Option<OraCode> {
    for (prefix, make) in [
        ("ORA-", OraCode::Ora as fn(i32) -> OraCode),
        ("DPI-", OraCode::Dpi),
    ] {
        if let Some(at) = message.find(prefix) {
            let digits: String = message[at + prefix.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if let Ok(n) = digits.parse::<i32>() {
                return Some(make(n));
            }
        }
    }
    None
}

/// ORA-00604 "error occurred at recursive SQL level %s": Oracle's own SQL run for the call
/// (dictionary reads, LogMiner's internal statements, a logon trigger) failed, and the error
/// it met follows in the message. The code alone says nothing (Debezium's handler retries
/// every ORA-00604); the error under it decides, so a snapshot too old, a lost session or a
/// session limit met by recursive SQL is handled as itself.
pub const RECURSIVE_SQL: i32 = 604;

/// ORA-06512 "at line": a PL/SQL backtrace line, never the error itself.
const BACKTRACE: i32 = 6512;

/// ORA-02063 "preceding line from <dblink>": the error above it came from another database,
/// over a database link (a logon trigger's, say); it says nothing of this session.
const FROM_DBLINK: &str = "ORA-02063";

/// The code that decides how an error is handled: `code`, or, for ORA-00604 (at any
/// recursive level, nested or not), the first error under it: the first `ORA-NNNNN` that
/// starts a line of `message` (or follows `; `, as [`crate::driver::first_line`] joins them)
/// and is neither another ORA-00604 nor a backtrace line (ORA-06512). An ORA-00604 with
/// nothing under it, or whose error came over a database link (ORA-02063), stays itself.
pub fn deciding_code(code: Option<OraCode>, message: &str) -> Option<OraCode> {
    if code != Some(OraCode::Ora(RECURSIVE_SQL)) || message.contains(FROM_DBLINK) {
        return code;
    }
    message
        .split(['\n', ';'])
        .filter_map(|part| part.trim().strip_prefix("ORA-"))
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse::<i32>().ok()
        })
        .find(|n| *n != RECURSIVE_SQL && *n != BACKTRACE)
        .map(OraCode::Ora)
        .or(code)
}

const CLIENT_FIX: &str = "thick mode (cdc.database.driver=thick) needs them: use the thin driver \
(cdc.database.driver=thin, the default, needs no client libraries) or install Oracle Instant Client (Basic or Basic Light, 19c or later) and \
make it findable (Linux: ldconfig or LD_LIBRARY_PATH; macOS: DYLD_LIBRARY_PATH or ~/lib; \
Windows: PATH; Debian also needs libaio1). Without a database, cdc.database.url: emulator:DIR \
runs on the embedded emulator. `oracle-cdc explain CDC-2001` has the steps";

/// Login errors a later attempt may not see (Database Error Messages): ORA-01033 "ORACLE
/// initialization or shutdown in progress", ORA-01034 "ORACLE not available", ORA-01089
/// "immediate shutdown or close in progress", ORA-12516 / ORA-12520 "listener could not find
/// available handler", ORA-12528 "all appropriate instances are blocking new connections",
/// ORA-12537 "connection closed", ORA-12547 "lost contact", ORA-12170 "connect timeout
/// occurred", ORA-03113 "end-of-file on communication channel", ORA-03114 "not connected",
/// ORA-03135 "connection lost contact", ORA-12543 "TNS:destination host unreachable" (a route
/// down for a while: Debezium's OracleErrorHandler retries it; a reconnect during a network
/// outage meets it).
pub const TRANSIENT_AT_LOGIN: &[i32] = &[
    1033, 1034, 1089, 12516, 12520, 12528, 12537, 12547, 12170, 12543, 3113, 3114, 3135,
    // SSL connection closed: the TLS form of ORA-03113.
    28865,
];

/// The client libraries' errors of a failed TLS handshake or wallet, which a later try would
/// meet again: ORA-29024 certificate validation failure, ORA-28759 failure to open file,
/// ORA-28860 fatal SSL error, ORA-29106 cannot import PKCS #12 wallet, ORA-29113 cannot access
/// attributes from a PKCS #12 key bag, ORA-28791 certificate verification failure, ORA-28862
/// SSL connection failed, ORA-29002 SSL transport detected invalid or obsolete server
/// certificate, ORA-29003 SSL transport detected mismatched server certificate, ORA-28868
/// peer certificate chain check failed. The thin driver's TLS failures carry ORA-29024
/// (`driver::thin`).
pub const TLS_AT_LOGIN: &[i32] = &[
    29024, 28759, 28860, 29106, 29113, 28791, 28862, 29002, 29003, 28868,
];

/// A URL or descriptor that connects with TLS (`tcps://…`, `(PROTOCOL=TCPS)`).
pub fn is_tcps(url: &str) -> bool {
    let u = url.trim().to_ascii_uppercase();
    u.starts_with("TCPS://") || u.contains("PROTOCOL=TCPS")
}

/// A failed login, mapped to CDC-2001..2006 and CDC-2010..2013. `message` is redacted here.
pub fn connect_error(code: Option<OraCode>, message: &str, password: &str, url: &str) -> CdcError {
    let text = redact(message.trim(), password);
    let (code, message) = match deciding_code(code, message) {
        Some(OraCode::Dpi(1047)) => (
            Code::Cdc2001,
            format!("the Oracle Client library could not be loaded ({text}); {CLIENT_FIX}"),
        ),
        Some(OraCode::Ora(1017)) => (
            Code::Cdc2002,
            format!("{url}: the database rejected the user name or password ({text})"),
        ),
        Some(OraCode::Ora(12541)) => (
            Code::Cdc2003,
            format!("{url}: no listener at this host and port ({text})"),
        ),
        Some(OraCode::Ora(12514)) => (
            Code::Cdc2004,
            format!("{url}: the listener does not know this service ({text})"),
        ),
        Some(OraCode::Ora(28000)) => (
            Code::Cdc2005,
            format!("{url}: the account is locked ({text})"),
        ),
        // The password's grace period is over (ORA-28001); ORA-28002, its warning, only if a
        // database ever refuses a login with it. Not retried: nothing changes until a DBA sets
        // a new password (CDC-2013).
        Some(OraCode::Ora(28001 | 28002)) => (
            Code::Cdc2013,
            format!(
                "{url}: the user's password has expired ({text}); a DBA sets a new one with \
                 ALTER USER … IDENTIFIED BY …, and a profile with PASSWORD_LIFE_TIME UNLIMITED \
                 keeps the capture user's from expiring again (oracle-cdc explain CDC-2013)"
            ),
        ),
        // The user's profile (SESSIONS_PER_USER) or the instance (SESSIONS, PROCESSES) has no
        // room for one more session: not retried, the job needs fewer (CDC-2011).
        Some(OraCode::Ora(2391 | 18 | 20)) => (
            Code::Cdc2011,
            format!("{url}: the database refused one more session ({text}); `oracle-cdc doctor --check settings.sessions` compares the sessions this job needs with the limits"),
        ),
        // TLS before the login: the certificate, the wallet, or a plain-TCP port (CDC-2012, not
        // retried).
        Some(OraCode::Ora(c)) if TLS_AT_LOGIN.contains(&c) => (
            Code::Cdc2012,
            format!("{url}: the TLS (tcps) connection failed ({text}); the CA certificate that signed the database's certificate goes into the wallet in cdc.database.wallet.location (oracle-cdc explain CDC-2012)"),
        ),
        Some(OraCode::Ora(1045)) => (
            Code::Cdc2401,
            format!("{url}: the user may not log in ({text}): GRANT CREATE SESSION"),
        ),
        // The database starting or shutting down, handlers busy or blocked, the connection
        // closed or timed out on the way: a later try may get in (CDC-2010, retried).
        Some(OraCode::Ora(c)) if TRANSIENT_AT_LOGIN.contains(&c) => (
            Code::Cdc2010,
            format!(
                "{url}: the database is not accepting connections now ({text}){}",
                if is_tcps(url) && matches!(c, 3113 | 12537 | 12547) {
                    "; a tcps:// URL whose port speaks plain TCP is closed this way too: check \
                     the port is the listener's TCPS one"
                } else {
                    ""
                }
            ),
        ),
        _ => (Code::Cdc2006, format!("{url}: {text}")),
    };
    CdcError::Connect { code, message }
}

/// What a failed call was doing, for the typed runtime errors.
#[derive(Debug, Clone, Default)]
pub struct CallContext {
    /// `OWNER.TABLE` of a flashback read.
    pub table: Option<String>,
    /// The SCN read at, or the start of a mining window.
    pub scn: Option<u64>,
    /// The end of a mining window.
    pub end_scn: Option<u64>,
    /// The oldest SCN still in the available logs (ORA-01291).
    pub oldest_scn: Option<u64>,
    /// A short name of the call, e.g. `flashback read` or `LogMiner start`.
    pub operation: &'static str,
}

/// An error during a call on an open connection, mapped to the 5xxx codes.
pub fn runtime_error(code: Option<OraCode>, message: &str, ctx: &CallContext) -> CdcError {
    let text = message.trim().to_string();
    let table = || ctx.table.clone().unwrap_or_default();
    let scn = ctx.scn.unwrap_or(0);
    // A mining call's error says its window (Oracle's names no log).
    let in_window = || {
        format!(
            "{} (mining SCN {scn} to {}): {text}",
            ctx.operation,
            ctx.end_scn.unwrap_or(scn)
        )
    };
    match deciding_code(code, message) {
        Some(OraCode::Ora(1555)) => CdcError::SnapshotTooOld {
            table: table(),
            scn,
        },
        Some(OraCode::Ora(8181)) => CdcError::InvalidScn { scn, reason: text },
        // Oracle does not say when the DDL happened; 0 stands for "unknown".
        Some(OraCode::Ora(1466)) => CdcError::TableDefinitionChanged {
            table: table(),
            scn,
            ddl_scn: None,
        },
        Some(OraCode::Ora(1291)) => CdcError::MissingLogFile {
            scn,
            oldest: ctx.oldest_scn.unwrap_or(0),
        },
        // A log was archived and reused while it was read (ORA-00310 "archived log contains
        // sequence"; ORA-01368 "redo log file header mismatch for thread# sequence#": the
        // online file now holds a later sequence): a new session mines it again.
        Some(OraCode::Ora(310 | 1368)) => {
            CdcError::LogOverwritten(format!("{}: {text}", ctx.operation))
        }
        // "LogMiner encountered corruption in the logstream": a damaged log, or a log list
        // that lacks one LogMiner needs (Debezium met it with a RAC thread's logs missing,
        // DBZ-4850, and retries it). A new session on the log list as it is now mines the
        // window again; a damaged log keeps failing. Oracle names no log: the window does.
        Some(OraCode::Ora(1343)) => CdcError::LogStreamCorrupt(in_window()),
        // ORA-04030 "out of process memory when trying to allocate"; ORA-04036 "PGA memory used
        // by the instance exceeds PGA_AGGREGATE_LIMIT" (the call with the most untunable memory
        // is ended): a new session, its predecessor's memory freed, makes the call again.
        Some(OraCode::Ora(4030 | 4036)) => {
            CdcError::OutOfCallMemory(format!("{}: {text}", ctx.operation))
        }
        // LogMiner's internal errors Debezium's handler retries (its RETRIABLE_ORA600_ERROR_
        // MESSAGES): a new LogMiner session gets past them. Any other ORA-00600 is not retried.
        Some(OraCode::Ora(600)) if LOGMINER_ORA600_PASSING.iter().any(|a| text.contains(a)) => {
            CdcError::LogMinerInternal(in_window())
        }
        // DBMS_LOGMNR_D.BUILD while DDL holds the dictionary (ORA-01327 "failed to
        // exclusively lock system dictionary as required BUILD"): a later build gets it.
        Some(OraCode::Ora(1327)) => {
            CdcError::DictionaryLocked(format!("{}: {text}", ctx.operation))
        }
        // A log file could not be opened (ORA-01284 "file cannot be opened": the file or its
        // directory does not exist or is inaccessible; ORA-00308 "cannot open archived log"):
        // a log purged or switched since the log list was read. A new session on the list as it
        // is now mines the window again.
        Some(OraCode::Ora(1284 | 308)) => {
            CdcError::LogUnavailable(format!("{}: {text}", ctx.operation))
        }
        // "no LogMiner session is currently active": the session ended under the query.
        Some(OraCode::Ora(1307)) => {
            CdcError::NoLogMinerSession(format!("{}: {text}", ctx.operation))
        }
        // "snapshot too old" for a LOB: its old version (kept in the LOB segment, not in undo)
        // is gone; the chunk is read again like an ORA-01555.
        Some(OraCode::Ora(22924)) => CdcError::LobSnapshotTooOld {
            table: table(),
            scn,
        },
        Some(OraCode::Ora(16000)) => CdcError::ReadOnly {
            operation: format!("{}: {text}", ctx.operation),
        },
        Some(OraCode::Ora(1281)) => CdcError::InvalidScnRange {
            start: scn,
            end: ctx.end_scn.unwrap_or(0),
        },
        // The dictionary in the redo is not (wholly) in the log list, none was built, or none
        // is old enough for the start SCN (DICT_FROM_REDO_LOGS).
        Some(OraCode::Ora(1371 | 1333 | 1321)) => CdcError::NoDictionaryInRedo {
            mining: format!("{}: {text}", ctx.operation),
            scn,
            builds: Vec::new(),
        },
        // End of file on the channel, not connected, lost contact; DPI-1080 "connection was
        // closed by ORA-%d"; DPI-1010 "not connected". ORA-00028 "your session has been killed"
        // and ORA-01012 "not logged on" after it; a call over cdc.database.call.timeout.ms
        // (DPI-1067 "call timeout of %u ms exceeded with ORA-%d", ORA-03156 "OCI call timed
        // out"), whose connection is reset. ORA-01089 "immediate shutdown or close in
        // progress": the instance is going down and ends the session; ORA-02396 "exceeded
        // maximum idle time, please connect again": the profile's IDLE_TIME ended it; the
        // profile's session limits end it too, "you are being logged off": ORA-02399 maximum
        // connect time (CONNECT_TIME, however busy the session), ORA-02392 CPU_PER_SESSION,
        // ORA-02394 LOGICAL_READS_PER_SESSION, ORA-02390 COMPOSITE_LIMIT; so does a Resource
        // Manager plan's KILL_SESSION switch: ORA-00041 (SWITCH_TIME), ORA-56723
        // (SWITCH_IO_REQS), ORA-56734 (SWITCH_IO_LOGICAL), "session terminated". A new session
        // (once the database is back) reads or mines it again.
        Some(
            OraCode::Ora(
                3113 | 3114 | 3135 | 28 | 1012 | 3156 | 1089 | 2396 | 2399 | 2392 | 2394 | 2390
                | 41 | 56723 | 56734,
            )
            | OraCode::Dpi(1080 | 1010 | 1067),
        ) => CdcError::ConnectionLost(format!("{}: {text}", ctx.operation)),
        // One call past a per-call limit, the session kept: the profile's CPU_PER_CALL
        // (ORA-02393 "exceeded call limit on CPU usage") or LOGICAL_READS_PER_CALL (ORA-02395
        // "exceeded call limit on IO usage"), a Resource Manager CANCEL_SQL switch (ORA-00040
        // "active time limit exceeded - call aborted", ORA-56722 I/O requests, ORA-56733
        // logical I/O), or MAX_EST_EXEC_TIME (ORA-07455 "estimated execution time … exceeds
        // limit"). Smaller reads pass: the caller reads or mines less at a time.
        Some(OraCode::Ora(2393 | 2395 | 40 | 56722 | 56733 | 7455)) => {
            CdcError::CallLimit(format!("{}: {text}", ctx.operation))
        }
        // LogMiner from inside a PDB before 19c (and ADD_LOGFILE there on any release).
        Some(OraCode::Ora(65040)) => CdcError::PdbMining(format!(
            "{}: {text} (LogMiner runs in CDB$ROOT: connect the capture user to the root \
             container's service)",
            ctx.operation
        )),
        // A missing grant: insufficient privileges, a view or table the user may not see (or
        // that does not exist), a package it may not execute (PLS-00201 inside ORA-06550).
        Some(OraCode::Ora(1031 | 942)) => CdcError::Privilege {
            operation: ctx.operation.to_string(),
            message: text,
        },
        Some(OraCode::Ora(6550)) if text.contains(PLS_NOT_DECLARED) => CdcError::Privilege {
            operation: ctx.operation.to_string(),
            message: text,
        },
        // A value the statement converts and cannot: an invalid number, a text that is no
        // date. The tool's own statements bind every value with its type, so only a snapshot
        // filter (cdc.snapshot.select.override, a signal's additional-conditions) converts
        // row values: a row fails the filter, which no retry can change (CDC-8107).
        Some(OraCode::Ora(
            1722 | 1830 | 1840 | 1841 | 1843 | 1847 | 1850 | 1851 | 1852 | 1858 | 1861 | 1874
            | 1875,
        )) => CdcError::FilterFailed {
            table: table(),
            filter: None,
            message: text,
        },
        // ALTER SESSION SET CONTAINER into a PDB that does not exist, or is not open; or one
        // open RESTRICTED, which only a user holding RESTRICTED SESSION there may enter
        // (ORA-01035 "ORACLE only available to users with RESTRICTED SESSION privilege"; on an
        // open connection only a container switch meets it).
        Some(OraCode::Ora(65011 | 1109 | 1035)) => {
            CdcError::ContainerUnreachable(format!("{}: {text}", ctx.operation))
        }
        _ => CdcError::Database(format!("{}: {text}", ctx.operation)),
    }
}

/// PLS-00201 "identifier must be declared": inside ORA-06550, a package the user may not execute.
const PLS_NOT_DECLARED: &str = "PLS-00201";

/// ORA-00600's first arguments that LogMiner gives and a new session gets past: [krvrdGetUID]
/// (an object's identifier changed under LogMiner), [krvrdccs10], [krvrdccs30].
const LOGMINER_ORA600_PASSING: &[&str] = &["krvrdGetUID", "krvrdccs10", "krvrdccs30"];

/// Texts a message may carry that change how its code is mapped (see [`runtime_error`]).
fn message_qualifiers() -> impl Iterator<Item = &'static str> {
    std::iter::once(PLS_NOT_DECLARED).chain(LOGMINER_ORA600_PASSING.iter().copied())
}

/// What the tool makes of one Oracle error: the catalog code it becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OracleErrorHandling {
    /// A wrapper ([`RECURSIVE_SQL`]): handled as the error under it in its message.
    pub wrapper: bool,
    /// The code when a login fails with it ([`connect_error`]); `None`: the general CDC-2006.
    pub at_login: Option<Code>,
    /// The code when a call on an open connection fails with it ([`runtime_error`]), and the
    /// message text that decides it, if any; empty: the general CDC-5006.
    pub in_calls: Vec<(Code, Option<&'static str>)>,
}

impl OracleErrorHandling {
    /// Whether the tool handles the error in a way of its own (not only the general codes).
    pub fn is_specific(&self) -> bool {
        self.wrapper || self.at_login.is_some() || !self.in_calls.is_empty()
    }
}

/// How [`connect_error`] and [`runtime_error`] treat `code`, found by running them (for
/// `oracle-cdc explain ORA-NNNNN`): the mapping above is the one source, never a list kept
/// beside it.
pub fn handling_of(code: OraCode) -> OracleErrorHandling {
    let name = code.to_string();
    let at_login = connect_error(Some(code), &name, "", "db").code();
    let mut in_calls = Vec::new();
    let ctx = CallContext::default();
    let general = runtime_error(None, &name, &ctx).code();
    let plain = runtime_error(Some(code), &name, &ctx).code();
    if plain != general {
        in_calls.push((plain, None));
    }
    for q in message_qualifiers() {
        let c = runtime_error(Some(code), &format!("{name}: {q}"), &ctx).code();
        if c != plain && c != general {
            in_calls.push((c, Some(q)));
        }
    }
    OracleErrorHandling {
        wrapper: code == OraCode::Ora(RECURSIVE_SQL),
        at_login: (at_login != connect_error(None, &name, "", "db").code()).then_some(at_login),
        in_calls,
    }
}

/// Every Oracle error with handling of its own (ORA-00000..ORA-99999, DPI-0000..DPI-9999), in
/// code order.
pub fn handled_codes() -> Vec<(OraCode, OracleErrorHandling)> {
    (0..=99_999)
        .map(OraCode::Ora)
        .chain((0..=9_999).map(OraCode::Dpi))
        .map(|c| (c, handling_of(c)))
        .filter(|(_, h)| h.is_specific())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_codes_in_messages() {
        assert_eq!(
            code_in_message("ORA-01017: invalid username/password; logon denied"),
            Some(OraCode::Ora(1017))
        );
        assert_eq!(
            code_in_message("DPI-1047: Cannot locate a 64-bit Oracle Client library"),
            Some(OraCode::Dpi(1047))
        );
        assert_eq!(
            code_in_message("OCI Error: ORA-12541: TNS:no listener"),
            Some(OraCode::Ora(12541))
        );
        assert_eq!(code_in_message("something else"), None);
        assert_eq!(code_in_message("ORA-xyz"), None);
    }

    #[test]
    fn maps_connect_errors_to_the_catalog() {
        let cases = [
            (OraCode::Dpi(1047), Code::Cdc2001),
            (OraCode::Ora(1017), Code::Cdc2002),
            (OraCode::Ora(12541), Code::Cdc2003),
            (OraCode::Ora(12514), Code::Cdc2004),
            (OraCode::Ora(28000), Code::Cdc2005),
            (OraCode::Ora(28001), Code::Cdc2013),
            (OraCode::Ora(2391), Code::Cdc2011),
            (OraCode::Ora(18), Code::Cdc2011),
            (OraCode::Ora(20), Code::Cdc2011),
            (OraCode::Ora(12170), Code::Cdc2010),
            (OraCode::Ora(12543), Code::Cdc2010),
            (OraCode::Ora(1033), Code::Cdc2010),
            (OraCode::Ora(1034), Code::Cdc2010),
            (OraCode::Ora(1089), Code::Cdc2010),
            (OraCode::Ora(12528), Code::Cdc2010),
            (OraCode::Ora(3113), Code::Cdc2010),
            (OraCode::Dpi(1010), Code::Cdc2006),
        ];
        for (code, want) in cases {
            let e = connect_error(Some(code), "ORA-12345: text", "pw", "db:1521/X");
            assert_eq!(e.code(), want, "{code:?}");
        }
        // Classed by the code the driver gives, never by the text: without one it is general.
        let other = connect_error(None, "ORA-12170: TNS:Connect timeout occurred", "pw", "h/s");
        assert_eq!(other.code(), Code::Cdc2006);
        assert!(other.to_string().contains("ORA-12170"), "{other}");
    }

    /// A password past its grace period (ORA-28001) is CDC-2013 naming the remedy, not the
    /// general CDC-2006; so is the grace period's ORA-28002 should a login fail with it. Not
    /// a transient failure: no retry makes the password valid again.
    #[test]
    fn an_expired_password_is_cdc_2013_with_the_remedy() {
        for (code, text) in [
            (28001, "ORA-28001: the password has expired"),
            (28002, "ORA-28002: the password will expire within 7 days"),
        ] {
            let e = connect_error(Some(OraCode::Ora(code)), text, "pw", "db:1521/X");
            assert_eq!(e.code(), Code::Cdc2013, "{e}");
            let shown = e.to_string();
            for needed in [
                "db:1521/X",
                text,
                "ALTER USER",
                "IDENTIFIED BY",
                "PASSWORD_LIFE_TIME UNLIMITED",
            ] {
                assert!(shown.contains(needed), "{needed}: {shown}");
            }
            assert!(!cdc_core::errors::is_transient(&e), "{e}");
        }
    }

    #[test]
    fn dpi_1047_message_names_the_library_and_the_fix() {
        let text = "DPI-1047: Cannot locate a 64-bit Oracle Client library: \"libclntsh.so: \
                    cannot open shared object file: No such file or directory\"";
        let e = connect_error(code_in_message(text), text, "pw", "db/x");
        let shown = e.to_string();
        assert!(shown.starts_with("CDC-2001: "), "{shown}");
        assert!(
            shown.contains("Oracle Client library could not be loaded"),
            "{shown}"
        );
        assert!(shown.contains("libclntsh.so"), "{shown}");
        assert!(shown.contains("Instant Client"), "{shown}");
        assert!(shown.contains("LD_LIBRARY_PATH"), "{shown}");
    }

    #[test]
    fn messages_never_carry_the_password() {
        let password = "S3cret-Tiger!";
        let text = format!("ORA-01017: invalid username/password {password}; logon denied");
        let e = connect_error(code_in_message(&text), &text, password, "db/x");
        assert!(!e.to_string().contains(password));
        assert!(!format!("{e:?}").contains(password));
        assert!(!format!("{:?}", Password::new(password)).contains(password));
    }

    #[test]
    fn explain_finds_what_the_mapping_does() {
        let h = handling_of(OraCode::Ora(1555));
        assert_eq!(h.at_login, None);
        assert_eq!(h.in_calls, vec![(Code::Cdc5001, None)]);
        let h = handling_of(OraCode::Ora(1017));
        assert_eq!(h.at_login, Some(Code::Cdc2002));
        assert!(h.in_calls.is_empty());
        // Only with PLS-00201 in the message is ORA-06550 a missing grant.
        let h = handling_of(OraCode::Ora(6550));
        assert_eq!(h.in_calls, vec![(Code::Cdc2401, Some("PLS-00201"))]);
        assert!(!handling_of(OraCode::Ora(12345)).is_specific());
        let all = handled_codes();
        for c in [1555, 1291, 310, 3113, 942, 1017] {
            assert!(
                all.iter().any(|(k, _)| *k == OraCode::Ora(c)),
                "ORA-{c} not listed"
            );
        }
        assert!(all.iter().any(|(k, _)| *k == OraCode::Dpi(1047)));
    }

    #[test]
    fn recursive_sql_errors_are_handled_as_the_error_under_them() {
        let ctx = CallContext {
            table: Some("HR.EMPLOYEES".into()),
            scn: Some(1000),
            operation: "flashback read",
            ..CallContext::default()
        };
        let call = |text: &str| runtime_error(code_in_message(text), text, &ctx);
        // Snapshot too old in the dictionary SQL of a flashback read: read again (CDC-5001).
        let e = call("ORA-00604: error occurred at recursive SQL level 1\nORA-01555: snapshot too old: rollback segment number 7 with name \"_SYSSMU7$\" too small");
        assert_eq!(e.code(), Code::Cdc5001, "{e}");
        // Nested levels, then a lost session: a new session (CDC-5007).
        let e = call("ORA-00604: error occurred at recursive SQL level 2\nORA-00604: error occurred at recursive SQL level 1\nORA-00028: your session has been killed");
        assert_eq!(e.code(), Code::Cdc5007, "{e}");
        // Out of process memory under LogMiner's recursive SQL (CDC-5014), the whole text kept.
        let text = "ORA-00604: error occurred at recursive SQL level 1\nORA-04030: out of process memory when trying to allocate 4194328 bytes";
        let e = call(text);
        assert_eq!(e.code(), Code::Cdc5014, "{e}");
        assert!(e.to_string().contains(text), "{e}");
        // The dictionary build's lock under the wrapper (Debezium met it nested, DBZ-6610): CDC-5015.
        assert_eq!(
            call("ORA-00604: error occurred at recursive SQL level 1\nORA-01327: failed to exclusively lock system dictionary as required BUILD").code(),
            Code::Cdc5015
        );
        // A backtrace line is not the error; an ORA- code inside a line's text is not either.
        assert_eq!(
            call("ORA-00604: error occurred at recursive SQL level 1\nORA-06512: at line 5").code(),
            Code::Cdc5006
        );
        assert_eq!(
            call("ORA-00604: error occurred at recursive SQL level 1\nORA-20001: not after ORA-01555 here")
                .code(),
            Code::Cdc5006
        );
        // The lines as the driver keeps them (joined by "; ").
        assert_eq!(
            call("ORA-00604: error occurred at recursive SQL level 1; ORA-01555: snapshot too old")
                .code(),
            Code::Cdc5001
        );
        // An error that came over a database link says nothing of this session.
        let login_via_link = connect_error(
            code_in_message("ORA-00604: error occurred at recursive SQL level 1\nORA-01017: invalid username/password; logon denied\nORA-02063: preceding line from AUDITDB"),
            "ORA-00604: error occurred at recursive SQL level 1\nORA-01017: invalid username/password; logon denied\nORA-02063: preceding line from AUDITDB",
            "pw",
            "db/x",
        );
        assert_eq!(login_via_link.code(), Code::Cdc2006);
        // Nothing under it: the general code, as any error without handling of its own.
        assert_eq!(
            call("ORA-00604: error occurred at recursive SQL level 1").code(),
            Code::Cdc5006
        );
        // At a login: a logon trigger's session over the instance's limit is CDC-2011, an
        // error of the trigger's own the general CDC-2006.
        let login = |text: &str| connect_error(code_in_message(text), text, "pw", "db/x");
        let e = login("ORA-00604: error occurred at recursive SQL level 1\nORA-00018: maximum number of sessions exceeded");
        assert_eq!(e.code(), Code::Cdc2011, "{e}");
        let e = login("ORA-00604: error occurred at recursive SQL level 1\nORA-20001: logins closed for maintenance\nORA-06512: at line 5");
        assert_eq!(e.code(), Code::Cdc2006, "{e}");
        // explain says it is a wrapper.
        let h = handling_of(OraCode::Ora(604));
        assert!(h.wrapper && h.is_specific() && h.at_login.is_none() && h.in_calls.is_empty());
    }

    /// A call mining the window 1000..=1500.
    fn mining_window() -> CallContext {
        CallContext {
            scn: Some(1000),
            end_scn: Some(1500),
            operation: "reading V$LOGMNR_CONTENTS",
            ..CallContext::default()
        }
    }

    /// ORA-00600 with an argument Debezium retries is CDC-5016 with the window; any other is
    /// the general CDC-5006; explain lists the arguments.
    #[test]
    fn logminer_internal_errors_that_pass_are_told_from_the_rest() {
        let ctx = mining_window();
        let text = "ORA-00600: internal error code, arguments: [krvrdGetUID], [1], [], [], [], [], [], [], [], [], [], []";
        let e = runtime_error(code_in_message(text), text, &ctx);
        assert_eq!(e.code(), Code::Cdc5016, "{e}");
        assert!(e.to_string().contains("(mining SCN 1000 to 1500)"), "{e}");
        for arg in ["krvrdccs10", "krvrdccs30"] {
            let text = format!("ORA-00600: internal error code, arguments: [{arg}], [], []");
            assert_eq!(
                runtime_error(code_in_message(&text), &text, &ctx).code(),
                Code::Cdc5016
            );
        }
        let other = "ORA-00600: internal error code, arguments: [kcbz_check_objd_typ_3], [0]";
        assert_eq!(
            runtime_error(code_in_message(other), other, &ctx).code(),
            Code::Cdc5006
        );
        let h = handling_of(OraCode::Ora(600));
        assert!(h.in_calls.contains(&(Code::Cdc5016, Some("krvrdGetUID"))));
    }

    /// Oracle's ORA-01343 names no log: the error says the window, where the operator looks.
    #[test]
    fn corruption_in_the_logstream_says_the_window() {
        let ctx = mining_window();
        let e = runtime_error(
            Some(OraCode::Ora(1343)),
            "ORA-01343: LogMiner encountered corruption in the logstream",
            &ctx,
        );
        assert_eq!(e.code(), Code::Cdc5013);
        assert!(
            e.to_string()
                .contains("reading V$LOGMNR_CONTENTS (mining SCN 1000 to 1500): ORA-01343"),
            "{e}"
        );
    }

    #[test]
    fn maps_runtime_errors_to_the_catalog() {
        let ctx = CallContext {
            table: Some("HR.EMP".into()),
            scn: Some(100),
            end_scn: Some(200),
            oldest_scn: Some(50),
            operation: "test",
        };
        let cases = [
            (OraCode::Ora(1555), Code::Cdc5001),
            (OraCode::Ora(8181), Code::Cdc5002),
            (OraCode::Ora(1466), Code::Cdc5003),
            (OraCode::Ora(1722), Code::Cdc8107),
            (OraCode::Ora(1858), Code::Cdc8107),
            (OraCode::Ora(1291), Code::Cdc5004),
            (OraCode::Ora(16000), Code::Cdc5005),
            (OraCode::Ora(942), Code::Cdc2401),
            (OraCode::Ora(1031), Code::Cdc2401),
            (OraCode::Ora(65040), Code::Cdc2302),
            (OraCode::Ora(65011), Code::Cdc2301),
            (OraCode::Ora(1109), Code::Cdc2301),
            (OraCode::Ora(1035), Code::Cdc2301),
            (OraCode::Ora(3113), Code::Cdc5007),
            (OraCode::Ora(3114), Code::Cdc5007),
            (OraCode::Ora(3135), Code::Cdc5007),
            (OraCode::Ora(28), Code::Cdc5007),
            (OraCode::Ora(1012), Code::Cdc5007),
            (OraCode::Ora(3156), Code::Cdc5007),
            (OraCode::Ora(1089), Code::Cdc5007),
            (OraCode::Ora(2396), Code::Cdc5007),
            (OraCode::Ora(2399), Code::Cdc5007),
            (OraCode::Ora(2392), Code::Cdc5007),
            (OraCode::Ora(2394), Code::Cdc5007),
            (OraCode::Ora(2390), Code::Cdc5007),
            (OraCode::Ora(41), Code::Cdc5007),
            (OraCode::Ora(56723), Code::Cdc5007),
            (OraCode::Ora(56734), Code::Cdc5007),
            (OraCode::Ora(2393), Code::Cdc5017),
            (OraCode::Ora(2395), Code::Cdc5017),
            (OraCode::Ora(40), Code::Cdc5017),
            (OraCode::Ora(56722), Code::Cdc5017),
            (OraCode::Ora(56733), Code::Cdc5017),
            (OraCode::Ora(7455), Code::Cdc5017),
            (OraCode::Ora(1368), Code::Cdc5009),
            (OraCode::Ora(1343), Code::Cdc5013),
            (OraCode::Ora(4030), Code::Cdc5014),
            (OraCode::Ora(4036), Code::Cdc5014),
            (OraCode::Ora(1327), Code::Cdc5015),
            (OraCode::Dpi(1067), Code::Cdc5007),
            (OraCode::Dpi(1080), Code::Cdc5007),
            (OraCode::Ora(1281), Code::Cdc5008),
            (OraCode::Ora(310), Code::Cdc5009),
            (OraCode::Ora(1284), Code::Cdc5010),
            (OraCode::Ora(308), Code::Cdc5010),
            (OraCode::Ora(1307), Code::Cdc5011),
            (OraCode::Ora(22924), Code::Cdc5012),
            (OraCode::Ora(1371), Code::Cdc5302),
            (OraCode::Ora(1333), Code::Cdc5302),
            (OraCode::Ora(1321), Code::Cdc5302),
        ];
        for (code, want) in cases {
            assert_eq!(
                runtime_error(Some(code), "x", &ctx).code(),
                want,
                "{code:?}"
            );
        }
        match runtime_error(Some(OraCode::Ora(1555)), "x", &ctx) {
            CdcError::SnapshotTooOld { table, scn } => {
                assert_eq!((table.as_str(), scn), ("HR.EMP", 100))
            }
            other => panic!("{other:?}"),
        }
        match runtime_error(Some(OraCode::Ora(22924)), "x", &ctx) {
            CdcError::LobSnapshotTooOld { table, scn } => {
                assert_eq!((table.as_str(), scn), ("HR.EMP", 100))
            }
            other => panic!("{other:?}"),
        }
        match runtime_error(Some(OraCode::Ora(1291)), "x", &ctx) {
            CdcError::MissingLogFile { scn, oldest } => assert_eq!((scn, oldest), (100, 50)),
            other => panic!("{other:?}"),
        }
        match runtime_error(Some(OraCode::Ora(1281)), "x", &ctx) {
            CdcError::InvalidScnRange { start, end } => assert_eq!((start, end), (100, 200)),
            other => panic!("{other:?}"),
        }
        assert_eq!(runtime_error(None, "boom", &ctx).code(), Code::Cdc5006);
        // ORA-06550 is any PL/SQL error; only PLS-00201 (an identifier the user may not see)
        // is a missing grant.
        let pls =
            "ORA-06550: line 1, column 7: PLS-00201: identifier 'SYS.DBMS_LOGMNR' must be declared";
        assert_eq!(
            runtime_error(Some(OraCode::Ora(6550)), pls, &ctx).code(),
            Code::Cdc2401
        );
        let other = "ORA-06550: line 1, column 7: PLS-00306: wrong number or types of arguments";
        assert_eq!(
            runtime_error(Some(OraCode::Ora(6550)), other, &ctx).code(),
            Code::Cdc5006
        );
        assert_eq!(
            connect_error(Some(OraCode::Ora(1045)), "ORA-01045: x", "pw", "db/x").code(),
            Code::Cdc2401
        );
    }

    fn refused(driver: super::super::driver::Driver, password: &Password) -> CdcError {
        match super::super::driver::open(
            driver,
            "localhost:1/NOPE",
            8192,
            None,
            "cdc_test",
            password,
            None,
        ) {
            Ok(_) => panic!("connected to localhost:1?"),
            Err(e) => e,
        }
    }

    /// The thin driver (the default) on a port where nothing listens: "no listener" (CDC-2003,
    /// as ORA-12541 is), without the password.
    #[test]
    fn real_thin_connect_to_a_closed_port_is_cdc_2003() {
        let password = Password::new("Known-Pa55word-Xyzzy");
        let e = refused(super::super::driver::Driver::Thin, &password);
        let (shown, debug) = (e.to_string(), format!("{e:?}"));
        assert!(!shown.contains("Known-Pa55word-Xyzzy"), "{shown}");
        assert!(!debug.contains("Known-Pa55word-Xyzzy"), "{debug}");
        assert_eq!(e.code(), Code::Cdc2003, "{shown}");
        assert!(shown.contains("no listener"), "{shown}");
        assert!(shown.contains("ORA-12541"), "{shown}");
    }

    /// The thick driver on a machine without Instant Client: DPI-1047 → CDC-2001, with the fix
    /// in the message and without the password. A machine set up for the live suite
    /// (`ORACLE_CDC_TEST_URL` set) has a client library, so there the connect fails for another
    /// reason (nothing listens on port 1) and only the redaction is checked.
    #[test]
    fn real_thick_connect_without_client_library_is_cdc_2001() {
        let password = Password::new("Known-Pa55word-Xyzzy");
        let e = refused(super::super::driver::Driver::Thick, &password);
        let shown = e.to_string();
        let debug = format!("{e:?}");
        assert!(!shown.contains("Known-Pa55word-Xyzzy"), "{shown}");
        assert!(!debug.contains("Known-Pa55word-Xyzzy"), "{debug}");
        if std::env::var_os("ORACLE_CDC_TEST_URL").is_some() {
            return;
        }
        assert_eq!(e.code(), Code::Cdc2001, "{shown}");
        assert!(shown.contains("DPI-1047"), "{shown}");
        assert!(
            shown.contains("Oracle Client library could not be loaded"),
            "{shown}"
        );
        assert!(shown.contains("Instant Client"), "{shown}");
        assert!(shown.contains("cdc.database.driver=thin"), "{shown}");
        assert!(shown.contains("emulator:"), "{shown}");
    }
}
