//! Connect retries: real connects fail transiently (a listener restarting, a dropped network,
//! a database still opening), so capture tries again with a growing wait instead of giving up
//! on the first refusal. Only transient failures are retried: a wrong password, a locked
//! account or a missing client library fails the same way every time.

use super::{Connector, Session};
use crate::errors::{CdcError, Code, Result};
use crate::settings::ConnectRetry;
use std::time::Duration;

// The classing of a failed connect is the core's (the Oracle adapter's tests use it too).
pub use cdc_core::errors::is_transient;

/// The wait before retry number `n` (1-based): the first wait doubled `n - 1` times, capped.
pub fn backoff(policy: &ConnectRetry, n: u32) -> Duration {
    let factor = 1u64.checked_shl(n.saturating_sub(1)).unwrap_or(u64::MAX);
    Duration::from_millis(
        policy
            .backoff_ms
            .saturating_mul(factor)
            .min(policy.backoff_max_ms),
    )
}

/// Whether a failed connect may succeed if tried again, when it replaces a connection that
/// worked: then also ORA-12514 (CDC-2004), which a restarted listener answers until the
/// database has registered its services with it (LREG does within a minute; Debezium's error
/// handler retries it too). On a first connect ORA-12514 is a wrong service name, not retried.
pub fn is_transient_after_loss(e: &CdcError) -> bool {
    is_transient(e)
        || matches!(
            e,
            CdcError::Connect {
                code: Code::Cdc2004,
                ..
            }
        )
}

/// Whether a failed connect may succeed if tried again, when it replaces a session whose
/// connection was lost (not one given up): also the session limit (CDC-2011, ORA-02391), as
/// the database may still count the lost session until it notices its client gone (dead
/// connection detection, SQLNET.EXPIRE_TIME, or TCP keepalive: minutes after a network
/// partition). Any other connect past the limit is not retried: nothing frees the room.
pub fn is_transient_replacing_lost(e: &CdcError) -> bool {
    is_transient_after_loss(e)
        || matches!(
            e,
            CdcError::Connect {
                code: Code::Cdc2011,
                ..
            }
        )
}

/// Errors of a call that a new session may not meet: the connection lost (ORA-03113,
/// ORA-00028, ORA-01089 shutting down, ORA-02396 idle time, … — CDC-5007), a log switched or
/// purged under LogMiner (ORA-00310 / ORA-01368, ORA-01284 / ORA-00308), redo LogMiner could
/// not read (ORA-01343, a log missing from the list or damaged; CDC-5013), LogMiner's internal
/// errors a new session gets past (ORA-00600 [krvrdGetUID] and two more; CDC-5016), the database out of memory
/// for the call (ORA-04030 / ORA-04036, CDC-5014: a new session's predecessor frees its memory),
/// the LogMiner session gone (ORA-01307), and ORA-01291 for a hole within the retained logs (a log being archived
/// or shipped while the list was read; redo older than the oldest log is gone for good). The
/// adapter types them from the ORA code (`oracle::connect::runtime_error`).
pub fn is_transient_call(e: &CdcError) -> bool {
    matches!(
        e,
        CdcError::ConnectionLost(_)
            | CdcError::LogOverwritten(_)
            | CdcError::LogStreamCorrupt(_)
            | CdcError::LogMinerInternal(_)
            | CdcError::OutOfCallMemory(_)
            | CdcError::LogUnavailable(_)
            | CdcError::NoLogMinerSession(_)
    ) || e.is_log_gap()
}

/// What caused a retry, for the metric's label and the ops event: the Oracle error the message
/// carries (`ORA-03113`), else the catalog code.
pub fn retry_cause(e: &CdcError) -> String {
    use crate::source::oracle::connect::{code_in_message, deciding_code};
    let text = e.to_string();
    // Under ORA-00604 the error it wraps is the cause.
    deciding_code(code_in_message(&text), &text)
        .map_or_else(|| e.code().info().code.to_string(), |c| c.to_string())
}

/// The databases (by [`Connector::describe`]) this process has had a session with: a later
/// connect to one of them is a reconnect, whatever part of the tool makes it (a snapshot
/// reader thread opening its session while the database restarts is no first connect).
static WORKED: std::sync::Mutex<std::collections::BTreeSet<String>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

fn worked_before(connector: &dyn Connector) -> bool {
    WORKED
        .lock()
        .map(|w| w.contains(&connector.describe()))
        .unwrap_or(false)
}

fn note_worked(connector: &dyn Connector) {
    if let Ok(mut w) = WORKED.lock() {
        w.insert(connector.describe());
    }
}

/// A login in place of a session given up, or to a database this process had a session with:
/// [`is_transient_after_loss`] failures are retried until the waits add up to
/// `policy.reconnect_max_ms` (a database restarting takes minutes), or `policy.retries` times
/// when that is 0, each wait through `sleep`, giving up (with the last error) once
/// `keep_going` says no: capture told to stop does not wait out the budget.
fn reconnect_with(
    connector: &dyn Connector,
    policy: &ConnectRetry,
    sleep: &mut dyn FnMut(Duration),
    keep_going: &dyn Fn() -> bool,
) -> Result<Box<dyn Session>> {
    let budget = reconnect_budget(policy);
    let transient = is_transient_after_loss;
    connect_loop(connector, policy, sleep, keep_going, transient, budget)
}

/// [`reconnect_with`] for a session whose connection was lost: the session limit is retried
/// too, within the same budget ([`is_transient_replacing_lost`]).
fn replace_lost_with(
    connector: &dyn Connector,
    policy: &ConnectRetry,
    sleep: &mut dyn FnMut(Duration),
    keep_going: &dyn Fn() -> bool,
) -> Result<Box<dyn Session>> {
    let budget = reconnect_budget(policy);
    let transient = is_transient_replacing_lost;
    connect_loop(connector, policy, sleep, keep_going, transient, budget)
}

/// A reconnect's budget: `policy.reconnect_max_ms` of waits, or `policy.retries` tries when
/// that is 0.
fn reconnect_budget(policy: &ConnectRetry) -> Budget {
    match policy.reconnect_max_ms {
        0 => Budget::Tries(policy.retries),
        ms => Budget::Waits(Duration::from_millis(ms)),
    }
}

/// What says a whole run was told to stop (capture's Ctrl-C, SIGTERM, `--stop-at-scn`; the
/// export's Ctrl-C): asked from the reading threads too.
pub type Stop<'a> = &'a (dyn Fn() -> bool + Sync);

/// Wait `d`, in slices, ending early once `stop` says so (Ctrl-C during a backoff).
pub fn sleep_unless_stopped(d: Duration, stop: Option<Stop>) {
    let slice = Duration::from_millis(100);
    let until = std::time::Instant::now() + d;
    loop {
        let now = std::time::Instant::now();
        if now >= until || stop.is_some_and(|s| s()) {
            return;
        }
        std::thread::sleep(slice.min(until - now));
    }
}

/// Which login a [`login_unless_stopped`] is, and so what it retries and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Login {
    /// Possibly the first to this database: transient failures retried `policy.retries`
    /// times with bounded exponential backoff, each retry logged ([`connect_with`]); to a
    /// database this process had a session with already, as [`Login::Again`].
    First,
    /// In place of a session given up, or to a database this process had a session with:
    /// as [`reconnect_with`].
    Again,
    /// In place of a session whose connection was lost: as [`replace_lost_with`].
    ReplacingLost,
}

/// Log in as `login` says, each wait between tries cut short once `stop` says to stop; told to
/// stop meanwhile, it gives up with [`CdcError::StoppedReconnecting`], which capture and the
/// export end as a stop (a reconnect may otherwise wait out `cdc.database.reconnect.max.ms`,
/// ten minutes by default, before a Ctrl-C is seen).
pub fn login_unless_stopped(
    connector: &dyn Connector,
    policy: &ConnectRetry,
    login: Login,
    stop: Option<Stop>,
) -> Result<Box<dyn Session>> {
    let stopping = || stop.is_some_and(|s| s());
    let sleep = &mut |d| sleep_unless_stopped(d, stop);
    let keep_going = &|| !stopping();
    let login = match login {
        Login::First if worked_before(connector) => Login::Again,
        other => other,
    };
    let (r, transient): (_, fn(&CdcError) -> bool) = match login {
        Login::First => (
            connect_with(connector, policy, sleep, keep_going),
            is_transient,
        ),
        Login::Again => (
            reconnect_with(connector, policy, sleep, keep_going),
            is_transient_after_loss,
        ),
        Login::ReplacingLost => (
            replace_lost_with(connector, policy, sleep, keep_going),
            is_transient_replacing_lost,
        ),
    };
    match r {
        // A failure that would have been retried: the stop ended the retries. One that would
        // not (a wrong password) is that failure, stop or not.
        Err(e) if stopping() && transient(&e) => Err(CdcError::StoppedReconnecting {
            waiting: e.to_string(),
        }),
        other => other,
    }
}

/// A first login ([`Login::First`]): transient failures retried `policy.retries` times, each
/// wait through `sleep` (tests record it instead of sleeping), until `keep_going` says no.
fn connect_with(
    connector: &dyn Connector,
    policy: &ConnectRetry,
    sleep: &mut dyn FnMut(Duration),
    keep_going: &dyn Fn() -> bool,
) -> Result<Box<dyn Session>> {
    let tries = Budget::Tries(policy.retries);
    connect_loop(connector, policy, sleep, keep_going, is_transient, tries)
}

/// How long a connect loop keeps trying.
#[derive(Debug, Clone, Copy)]
enum Budget {
    /// This many retries.
    Tries(u32),
    /// Until the waits between tries add up to this (counted, not timed, so a test's injected
    /// sleep sees the same tries).
    Waits(Duration),
}

fn connect_loop(
    connector: &dyn Connector,
    policy: &ConnectRetry,
    sleep: &mut dyn FnMut(Duration),
    keep_going: &dyn Fn() -> bool,
    transient: fn(&CdcError) -> bool,
    budget: Budget,
) -> Result<Box<dyn Session>> {
    let mut tried = 0u32;
    let mut waited = Duration::ZERO;
    loop {
        match connector.connect() {
            Ok(session) => {
                note_worked(connector);
                return Ok(session);
            }
            Err(e) if transient(&e) => {
                let wait = backoff(policy, tried + 1);
                let more = keep_going()
                    && match budget {
                        Budget::Tries(n) => tried < n,
                        Budget::Waits(max) => waited < max,
                    };
                if !more {
                    return Err(e);
                }
                tried += 1;
                let wait = match budget {
                    Budget::Tries(_) => wait,
                    // The last wait ends at the budget, not beyond it.
                    Budget::Waits(max) => wait.min(max - waited).max(Duration::from_millis(1)),
                };
                waited += wait;
                let of = match budget {
                    Budget::Tries(n) => format!("retry {tried} of {n}"),
                    Budget::Waits(max) => format!(
                        "retry {tried}, {} of {} s waited",
                        waited.as_secs(),
                        max.as_secs()
                    ),
                };
                tracing::warn!(
                    target: crate::ops::STALL_LOG_TARGET,
                    "connecting to {} failed ({e}); {of}, next in {} ms",
                    connector.describe(),
                    wait.as_millis()
                );
                sleep(wait);
            }
            other => return other,
        }
    }
}

/// A session that comes back: each [`Reconnecting::call`] runs on it, and a connection lost
/// during the call (ORA-03113 and the like, CDC-5007) is replaced by a new session (with the
/// connect retries above) and the call made again, up to `policy.retries` times in a row. For
/// the catalog and planning calls of capture and the `snapshot` export; the calls are reads,
/// so making one again changes nothing.
pub struct Reconnecting<'c> {
    connector: &'c dyn Connector,
    policy: ConnectRetry,
    session: Option<Box<dyn Session>>,
    /// A session was lost: the next connect replaces it ([`replace_lost_with`]).
    lost_one: bool,
    /// Told of each lost connection before the reconnect (the error, the retry number): capture
    /// counts it and writes its `source-retry` event.
    on_lost: Option<LostObserver<'c>>,
    /// Ends a login's retries ([`login_unless_stopped`]).
    stop: Option<Stop<'c>>,
}

/// See [`Reconnecting::observed`].
type LostObserver<'c> = Box<dyn FnMut(&CdcError, u32) -> Result<()> + 'c>;

impl<'c> Reconnecting<'c> {
    /// Nothing is opened until the first call.
    pub fn new(connector: &'c dyn Connector, policy: &ConnectRetry) -> Reconnecting<'c> {
        Reconnecting {
            connector,
            policy: *policy,
            session: None,
            lost_one: false,
            on_lost: None,
            stop: None,
        }
    }

    /// A login retried while `stop` says to stop gives up: [`CdcError::StoppedReconnecting`].
    pub fn stopped_by(mut self, stop: Stop<'c>) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Tell `on_lost` of every lost connection before it is replaced.
    pub fn observed(mut self, on_lost: impl FnMut(&CdcError, u32) -> Result<()> + 'c) -> Self {
        self.on_lost = Some(Box::new(on_lost));
        self
    }

    /// The open session, for a [`WarmConnector`](super::WarmConnector) to hand on (none when
    /// no call was made, or the last connection was lost).
    pub fn into_session(self) -> Option<Box<dyn Session>> {
        self.session
    }

    /// Run `f` on the session, reconnecting after a lost connection.
    pub fn call<T>(&mut self, mut f: impl FnMut(&mut dyn Session) -> Result<T>) -> Result<T> {
        let mut lost = 0u32;
        loop {
            let session = match self.session.as_mut() {
                Some(s) => s,
                None => {
                    let login = match self.lost_one {
                        true => Login::ReplacingLost,
                        false => Login::First,
                    };
                    let s = login_unless_stopped(self.connector, &self.policy, login, self.stop)?;
                    self.session.insert(s)
                }
            };
            match f(session.as_mut()) {
                Err(CdcError::ConnectionLost(m)) if lost < self.policy.retries => {
                    lost += 1;
                    if let Some(tell) = self.on_lost.as_mut() {
                        tell(&CdcError::ConnectionLost(m.clone()), lost)?;
                    }
                    tracing::warn!(
                        target: crate::ops::STALL_LOG_TARGET,
                        "connection to {} lost ({m}); reconnecting ({lost} of {})",
                        self.connector.describe(),
                        self.policy.retries
                    );
                    self.session = None;
                    self.lost_one = true;
                }
                other => return other,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::emulator::{EmulatorConnector, Faults};

    fn policy(retries: u32) -> ConnectRetry {
        ConnectRetry {
            retries,
            backoff_ms: 100,
            backoff_max_ms: 1000,
            reconnect_max_ms: 0,
        }
    }

    #[test]
    fn waits_double_up_to_the_cap() {
        let waits: Vec<u64> = (1..=6)
            .map(|n| backoff(&policy(9), n).as_millis() as u64)
            .collect();
        assert_eq!(waits, [100, 200, 400, 800, 1000, 1000]);
        assert_eq!(backoff(&policy(9), 200).as_millis(), 1000);
    }

    #[test]
    fn only_transient_failures_are_retried() {
        let lost = CdcError::ConnectionLost("ORA-03113".into());
        let refused = CdcError::Connect {
            code: Code::Cdc2003,
            message: "no listener".into(),
        };
        let closed = CdcError::Connect {
            code: Code::Cdc2010,
            message: "db: the database is not accepting connections now (ORA-12537: TNS:connection closed)".into(),
        };
        // Classed by the code the login mapping gave, not the text: a general CDC-2006 whose
        // message happens to name a transient ORA error is not retried.
        let general = CdcError::Connect {
            code: Code::Cdc2006,
            message: "db: ORA-12537: TNS:connection closed".into(),
        };
        assert!(!is_transient(&general));
        let auth = CdcError::Connect {
            code: Code::Cdc2002,
            message: "ORA-01017: invalid username/password".into(),
        };
        let other = CdcError::Connect {
            code: Code::Cdc2006,
            message: "db: ORA-12154: could not resolve the connect identifier".into(),
        };
        assert!(is_transient(&lost) && is_transient(&refused) && is_transient(&closed));
        assert!(!is_transient(&auth) && !is_transient(&other));
        assert!(!is_transient(&CdcError::settings(Code::Cdc2007, "bad url")));
        // An unknown service: a typo at first, a listener not yet told of the service after a
        // restart.
        let unknown = CdcError::Connect {
            code: Code::Cdc2004,
            message: "ORA-12514: TNS:listener does not currently know of service".into(),
        };
        assert!(!is_transient(&unknown) && is_transient_after_loss(&unknown));
        assert!(!is_transient_after_loss(&auth));
        // The session limit: waited out only by a login in place of a lost session (the
        // database may count it until it notices its client gone).
        let limit = CdcError::Connect {
            code: Code::Cdc2011,
            message: "ORA-02391: exceeded simultaneous SESSIONS_PER_USER limit".into(),
        };
        assert!(!is_transient(&limit) && !is_transient_after_loss(&limit));
        assert!(is_transient_replacing_lost(&limit) && is_transient_replacing_lost(&unknown));
        assert!(!is_transient_replacing_lost(&auth));
    }

    #[test]
    fn calls_are_retried_for_passing_failures_only() {
        for e in [
            CdcError::ConnectionLost("ORA-01089: immediate shutdown".into()),
            CdcError::LogOverwritten("ORA-01368".into()),
            CdcError::LogStreamCorrupt("ORA-01343".into()),
            CdcError::OutOfCallMemory("ORA-04036".into()),
            CdcError::LogMinerInternal("ORA-00600: [krvrdGetUID]".into()),
            CdcError::LogUnavailable("ORA-00308".into()),
            CdcError::NoLogMinerSession("ORA-01307".into()),
            // A hole in the list within the retained logs.
            CdcError::MissingLogFile {
                scn: 500,
                oldest: 100,
            },
        ] {
            assert!(is_transient_call(&e), "{e}");
        }
        for e in [
            // Redo older than the oldest log: gone for good.
            CdcError::MissingLogFile {
                scn: 50,
                oldest: 100,
            },
            CdcError::MissingLogFile { scn: 50, oldest: 0 },
            CdcError::SnapshotTooOld {
                table: "HR.T".into(),
                scn: 1,
            },
            CdcError::Database("ORA-00600".into()),
            // A build's lock is deferred to the next log switch, not retried as a call.
            CdcError::DictionaryLocked("ORA-01327".into()),
            // A value the thin driver cannot decode: its session is given up, but a new one
            // reads the same value again.
            CdcError::coded(
                Code::Cdc3009,
                "flashback read: a value … not valid AL32UTF8",
            ),
        ] {
            assert!(!is_transient_call(&e), "{e}");
        }
        assert_eq!(
            retry_cause(&CdcError::ConnectionLost(
                "reading: ORA-02396: exceeded maximum idle time".into()
            )),
            "ORA-02396"
        );
        assert_eq!(
            retry_cause(&CdcError::ConnectionLost("the call timed out".into())),
            "CDC-5007"
        );
    }

    #[test]
    fn a_lost_connection_is_reconnected_until_the_waits_reach_the_budget() {
        // Every connect fails: with a budget of 2.5 s the waits are 100, 200, 400, 800, 1000,
        // then the rest of the budget; the tries stop there.
        let (_dir, always) = drill(1);
        let mut p = policy(3);
        p.reconnect_max_ms = 2_500;
        let mut waits = Vec::new();
        let r = reconnect_with(&always, &p, &mut |d| waits.push(d.as_millis()), &|| true);
        assert!(matches!(r, Err(CdcError::ConnectionLost(_))));
        assert_eq!(waits, [100, 200, 400, 800, 1000]);
        assert_eq!(waits.iter().sum::<u128>(), 2_500);
        // Budget 0: the count of a first connect.
        p.reconnect_max_ms = 0;
        let mut waits = Vec::new();
        let r = reconnect_with(&always, &p, &mut |d| waits.push(d.as_millis()), &|| true);
        assert!(r.is_err());
        assert_eq!(waits, [100, 200, 400]);
    }

    /// A reconnect told to stop gives up with the last error instead of waiting out its budget.
    #[test]
    fn a_reconnect_told_to_stop_gives_up() {
        let (_dir, always) = drill(1);
        let mut p = policy(3);
        p.reconnect_max_ms = 600_000;
        let mut waits = Vec::new();
        let stop_after_two = std::cell::Cell::new(0);
        let keep_going = || {
            stop_after_two.set(stop_after_two.get() + 1);
            stop_after_two.get() <= 2
        };
        let r = reconnect_with(&always, &p, &mut |d| waits.push(d.as_millis()), &keep_going);
        assert!(matches!(r, Err(CdcError::ConnectionLost(_))));
        assert_eq!(waits, [100, 200], "two waits, then the stop");
    }

    /// A login of any kind told to stop while it waits between tries gives up within a slice
    /// of its wait (not the 30 s wait, nor the ten minutes of its budget), as a stop.
    #[test]
    fn a_login_told_to_stop_gives_up_as_a_stop() {
        let (_dir, always) = drill(1);
        let p = ConnectRetry {
            retries: 10,
            backoff_ms: 30_000,
            backoff_max_ms: 30_000,
            reconnect_max_ms: 600_000,
        };
        for login in [Login::First, Login::Again, Login::ReplacingLost] {
            let started = std::time::Instant::now();
            let stop = || started.elapsed() > Duration::from_millis(200);
            let r = login_unless_stopped(&always, &p, login, Some(&stop));
            let took = started.elapsed();
            match r {
                Err(CdcError::StoppedReconnecting { waiting }) => {
                    assert!(waiting.contains("ORA-12537"), "{login:?}: {waiting}")
                }
                Err(e) => panic!("{login:?}: {e}"),
                Ok(_) => panic!("{login:?}: a session"),
            }
            assert!(took < Duration::from_secs(10), "{login:?}: {took:?}");
        }
        // Not told to stop, a login that fails for good is that failure.
        let r = login_unless_stopped(&always, &policy(0), Login::First, None);
        assert!(matches!(r, Err(CdcError::ConnectionLost(_))));
    }

    /// A login of any kind hung at a listener that accepts the connection and never answers
    /// (a hung instance, logins stuck behind a full archiver): told to stop meanwhile, the
    /// login loop ends as a stop once the login's bound (cdc.database.connect.timeout.ms)
    /// passes, not after the 30 s backoff nor the ten minutes of its budget (before: the login
    /// never returned, so neither the budget nor the stop was ever looked at).
    #[test]
    fn a_login_hung_at_a_silent_listener_gives_up_as_a_stop() {
        use crate::source::oracle::{connect::Password, OracleConnector};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            // Held open and never answered.
            let held: Vec<_> = listener.incoming().flatten().collect();
            drop(held);
        });
        let p = ConnectRetry {
            retries: 10,
            backoff_ms: 30_000,
            backoff_max_ms: 30_000,
            reconnect_max_ms: 600_000,
        };
        for login in [Login::First, Login::Again, Login::ReplacingLost] {
            let connector = OracleConnector::new(
                &format!("{addr}/EMU"),
                Some("cdc"),
                Some(Password::new("pw")),
            )
            .unwrap()
            .with_connect_timeout(Duration::from_millis(1000));
            let (tx, rx) = std::sync::mpsc::channel();
            let started = std::time::Instant::now();
            std::thread::spawn(move || {
                let stop = || started.elapsed() > Duration::from_millis(200);
                let r = login_unless_stopped(&connector, &p, login, Some(&stop));
                let _ = tx.send(r.map(|_| ()));
            });
            let r = rx
                .recv_timeout(Duration::from_secs(10))
                .unwrap_or_else(|_| {
                    panic!("{login:?}: the login loop still ran 10 s after a stop")
                });
            match r {
                Err(CdcError::StoppedReconnecting { waiting }) => {
                    assert!(waiting.contains("ORA-12170"), "{login:?}: {waiting}")
                }
                Err(e) => panic!("{login:?}: {e}"),
                Ok(()) => panic!("{login:?}: a session"),
            }
        }
    }

    /// Connectors whose every `every`-th connect fails (the emulator's drill), counted.
    fn drill(every: u32) -> (tempfile::TempDir, EmulatorConnector) {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("db");
        let schema = dir.path().join("schema.yaml");
        std::fs::write(
            &schema,
            "tables:\n  - name: HR.T\n    columns:\n      - { name: ID, type: NUMBER(10), nullable: false }\n    primary_key: [ID]\n    rows: 1\n",
        )
        .unwrap();
        crate::source::emulator::init(
            &db,
            &schema,
            Some(1),
            std::sync::Arc::new(crate::source::emulator::clock::ManualClock::new(0)),
        )
        .unwrap();
        let mut faults = Faults::default();
        faults.settings.connect_fail_every = every;
        let c = EmulatorConnector::open(&db, faults).unwrap();
        (dir, c)
    }

    #[test]
    fn a_refused_connect_is_tried_again_after_a_wait() {
        // Every connect fails: the retries run out and the last error is returned.
        let (_dir, always) = drill(1);
        let mut waits = Vec::new();
        let r = connect_with(
            &always,
            &policy(3),
            &mut |d| waits.push(d.as_millis()),
            &|| true,
        );
        assert!(matches!(r, Err(CdcError::ConnectionLost(_))));
        assert_eq!(waits, [100, 200, 400]);
        // Every second connect fails: the first fails, the retry gets a working session.
        let (_dir2, every2) = drill(2);
        let mut first = every2.connect().unwrap();
        first.current_scn().unwrap();
        let mut waits = Vec::new();
        let mut s = connect_with(
            &every2,
            &policy(3),
            &mut |d| waits.push(d.as_millis()),
            &|| true,
        )
        .unwrap();
        s.current_scn().unwrap();
        assert_eq!(waits, [100]);
        // No retries: the first failure is the answer.
        let mut waits = Vec::new();
        let r = connect_with(
            &always,
            &policy(0),
            &mut |d| waits.push(d.as_millis()),
            &|| true,
        );
        assert!(r.is_err() && waits.is_empty());
    }
}
