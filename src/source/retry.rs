//! Connect retries: real connects fail transiently (a listener restarting, a dropped network,
//! a database still opening), so capture tries again with a growing wait instead of giving up
//! on the first refusal. Only transient failures are retried: a wrong password, a locked
//! account or a missing client library fails the same way every time.

use super::{Connector, Session};
use crate::errors::{CdcError, Code, Result};
use crate::settings::ConnectRetry;
use std::time::Duration;

/// Oracle errors at connect time that a later attempt may not see: end of file on the channel,
/// not connected, connection closed or timed out, lost contact, handlers blocked or busy while
/// the database starts, initialization or shutdown in progress, instance not available.
const TRANSIENT_ORA: &[&str] = &[
    "ORA-03113",
    "ORA-03114",
    "ORA-03135",
    "ORA-12170",
    "ORA-12537",
    "ORA-12547",
    "ORA-12516",
    "ORA-12520",
    "ORA-12528",
    "ORA-01033",
    "ORA-01034",
    "ORA-01089",
];

/// Whether a failed connect may succeed if tried again.
pub fn is_transient(e: &CdcError) -> bool {
    match e {
        CdcError::ConnectionLost(_) => true,
        // ORA-12541: no listener (yet), as while the database host restarts.
        CdcError::Connect {
            code: Code::Cdc2003,
            ..
        } => true,
        CdcError::Connect {
            code: Code::Cdc2006,
            message,
        } => TRANSIENT_ORA.iter().any(|c| message.contains(c)),
        _ => false,
    }
}

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

/// Open a session, retrying transient failures up to `policy.retries` times with bounded
/// exponential backoff; each retry is logged.
pub fn connect_retrying(
    connector: &dyn Connector,
    policy: &ConnectRetry,
) -> Result<Box<dyn Session>> {
    connect_with(connector, policy, &mut std::thread::sleep)
}

/// [`connect_retrying`] for a session that replaces a lost one ([`is_transient_after_loss`]).
pub fn reconnect_retrying(
    connector: &dyn Connector,
    policy: &ConnectRetry,
) -> Result<Box<dyn Session>> {
    connect_loop(
        connector,
        policy,
        &mut std::thread::sleep,
        is_transient_after_loss,
    )
}

/// [`connect_retrying`] with the wait injected (tests record it instead of sleeping).
pub fn connect_with(
    connector: &dyn Connector,
    policy: &ConnectRetry,
    sleep: &mut dyn FnMut(Duration),
) -> Result<Box<dyn Session>> {
    connect_loop(connector, policy, sleep, is_transient)
}

fn connect_loop(
    connector: &dyn Connector,
    policy: &ConnectRetry,
    sleep: &mut dyn FnMut(Duration),
    transient: fn(&CdcError) -> bool,
) -> Result<Box<dyn Session>> {
    let mut tried = 0u32;
    loop {
        match connector.connect() {
            Err(e) if tried < policy.retries && transient(&e) => {
                tried += 1;
                let wait = backoff(policy, tried);
                tracing::warn!(
                    "connecting to {} failed ({e}); retry {tried} of {} in {} ms",
                    connector.describe(),
                    policy.retries,
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
    /// A session was lost: the next connect replaces it ([`reconnect_retrying`]).
    lost_one: bool,
}

impl<'c> Reconnecting<'c> {
    /// Nothing is opened until the first call.
    pub fn new(connector: &'c dyn Connector, policy: &ConnectRetry) -> Reconnecting<'c> {
        Reconnecting {
            connector,
            policy: *policy,
            session: None,
            lost_one: false,
        }
    }

    /// Run `f` on the session, reconnecting after a lost connection.
    pub fn call<T>(&mut self, mut f: impl FnMut(&mut dyn Session) -> Result<T>) -> Result<T> {
        let mut lost = 0u32;
        loop {
            let session = match self.session.as_mut() {
                Some(s) => s,
                None if self.lost_one => self
                    .session
                    .insert(reconnect_retrying(self.connector, &self.policy)?),
                None => self
                    .session
                    .insert(connect_retrying(self.connector, &self.policy)?),
            };
            match f(session.as_mut()) {
                Err(CdcError::ConnectionLost(m)) if lost < self.policy.retries => {
                    lost += 1;
                    tracing::warn!(
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
            code: Code::Cdc2006,
            message: "db: ORA-12537: TNS:connection closed".into(),
        };
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
        let r = connect_with(&always, &policy(3), &mut |d| waits.push(d.as_millis()));
        assert!(matches!(r, Err(CdcError::ConnectionLost(_))));
        assert_eq!(waits, [100, 200, 400]);
        // Every second connect fails: the first fails, the retry gets a working session.
        let (_dir2, every2) = drill(2);
        let mut first = every2.connect().unwrap();
        first.current_scn().unwrap();
        let mut waits = Vec::new();
        let mut s = connect_with(&every2, &policy(3), &mut |d| waits.push(d.as_millis())).unwrap();
        s.current_scn().unwrap();
        assert_eq!(waits, [100]);
        // No retries: the first failure is the answer.
        let mut waits = Vec::new();
        let r = connect_with(&always, &policy(0), &mut |d| waits.push(d.as_millis()));
        assert!(r.is_err() && waits.is_empty());
    }
}
