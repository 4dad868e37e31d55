//! Every Kafka wait is bounded and ends on a stop (issue 36 item 10): a bootstrap pass over
//! brokers that do not resolve or do not answer, the retries of a producer that cannot reach
//! any, and a stop while it waits.

use super::client::{connect_any, ClientOptions};
use super::producer::Producer;
use super::StopFlag;
use crate::errors::{CdcError, Code};
use std::net::TcpListener;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// A loopback port with nothing listening (bound, then released).
fn closed_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// `f` on a thread, its result within `secs` (a watchdog for hangs, not a timing assertion).
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("still waiting after {secs} s"))
}

#[test]
fn a_bootstrap_pass_counts_what_it_tried_and_why_each_failed() {
    let port = closed_port();
    let mut brokers: Vec<String> = (0..5)
        .map(|i| format!("b{i}.nonexistent.invalid:9092"))
        .collect();
    brokers.push(format!("127.0.0.1:{port}"));
    brokers.push(format!("user:hunter2@127.0.0.1:{port}"));
    let mut next = 0;
    let e = within(120, move || {
        let r = connect_any(
            &brokers,
            &ClientOptions::plaintext("t"),
            Duration::from_secs(30),
            None,
            &mut next,
        );
        (r.err().map(|e| e.to_string()), next)
    });
    let (msg, next) = (e.0.unwrap_or_default(), e.1);
    assert!(
        msg.contains("none of the 7 bootstrap brokers answered"),
        "{msg}"
    );
    assert!(msg.contains("7 tried in this pass"), "{msg}");
    assert!(msg.contains("5 could not be resolved, 2 refused"), "{msg}");
    assert!(!msg.contains("hunter2"), "{msg}");
    // The next pass starts after the last one tried (the list came round to the first).
    assert_eq!(next, 0);
}

#[test]
fn a_stopped_bootstrap_pass_ends_at_the_next_broker() {
    let brokers: Vec<String> = (0..50)
        .map(|i| format!("b{i}.nonexistent.invalid:9092"))
        .collect();
    let stop = StopFlag::default();
    stop.store(true, Ordering::SeqCst);
    let mut next = 0;
    let r = connect_any(
        &brokers,
        &ClientOptions::plaintext("t"),
        Duration::from_secs(30),
        Some(&stop),
        &mut next,
    );
    let msg = r.err().map(|e| e.to_string()).unwrap_or_default();
    // One broker is tried whatever the stop (a stop never cuts a healthy first connection).
    assert!(msg.contains("1 of 50 tried"), "{msg}");
    assert_eq!(next, 1);
}

#[test]
fn unresolvable_brokers_are_refused_and_retries_end_at_the_delivery_timeout() {
    let brokers: String = (0..200)
        .map(|i| format!("b{i}.nonexistent.invalid:9092"))
        .collect::<Vec<_>>()
        .join(",");
    let s = crate::settings::Settings::from_pairs(&[
        "cdc.sink.type=kafka".to_string(),
        format!("cdc.sink.kafka.brokers={brokers}"),
        "cdc.sink.kafka.producer.request.timeout.ms=3000".to_string(),
    ])
    .unwrap();
    // None resolves: refused at once, as Kafka's client refuses "No resolvable bootstrap
    // urls" (the delivery timeout is the default 120 s; only that refusal beats the watchdog).
    let e = within(100, move || Producer::connect(&s.sink.kafka).err());
    let e = e.expect("no broker resolves, yet the producer connected");
    assert_eq!(e.code(), Code::Cdc6202, "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("none of the 200 bootstrap brokers resolves: "),
        "{msg}"
    );
    // Every name tried, or those a slow resolver left untried counted as such.
    let counted = |label: &str| -> usize {
        msg.split(label)
            .next()
            .and_then(|t| t.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let failed = counted(" could not be resolved");
    let untried = if msg.contains(" not tried within") {
        counted(" not tried within")
    } else {
        0
    };
    assert!(failed >= 1 && failed + untried == 200, "{msg}");
    // One resolves (a loopback address with nothing listening): retried, then given up at the
    // delivery timeout, the attempts and each pass's failures counted.
    let brokers = format!("127.0.0.1:{},{brokers}", closed_port());
    let s = crate::settings::Settings::from_pairs(&[
        "cdc.sink.type=kafka".to_string(),
        format!("cdc.sink.kafka.brokers={brokers}"),
        "cdc.sink.kafka.producer.delivery.timeout.ms=300".to_string(),
        "cdc.sink.kafka.producer.retry.backoff.ms=20".to_string(),
    ])
    .unwrap();
    let e = within(100, move || Producer::connect(&s.sink.kafka).err());
    let e = e.expect("no broker answers, yet the producer connected");
    assert_eq!(e.code(), Code::Cdc6202, "{e}");
    let msg = e.to_string();
    assert!(msg.contains("InitProducerId: gave up after"), "{msg}");
    assert!(msg.contains("delivery.timeout.ms=300"), "{msg}");
    assert!(
        msg.contains("none of the 201 bootstrap brokers answered"),
        "{msg}"
    );
    let attempts: u64 = msg
        .split("gave up after ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(attempts >= 1, "{msg}");
}

#[test]
fn the_default_delivery_timeout_is_kafkas_and_finite() {
    let s = crate::settings::Settings::from_pairs(&["cdc.sink.kafka.brokers=k:9092"]).unwrap();
    assert_eq!(s.sink.kafka.delivery_timeout_ms, 120_000);
    let e =
        crate::settings::Settings::from_pairs(&["cdc.sink.kafka.producer.delivery.timeout.ms=0"])
            .err()
            .map(|e| e.code());
    assert_eq!(e, Some(Code::Cdc1002));
}

#[test]
fn a_stop_ends_the_retries_of_an_unreachable_broker() {
    let s = crate::settings::Settings::from_pairs(&[
        "cdc.sink.type=kafka".to_string(),
        format!("cdc.sink.kafka.brokers=127.0.0.1:{}", closed_port()),
        "cdc.sink.kafka.producer.retry.backoff.ms=50".to_string(),
    ])
    .unwrap();
    let stop = StopFlag::default();
    let stopper = stop.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        stopper.store(true, Ordering::SeqCst);
    });
    // The delivery timeout is the default 120 s: only the stop ends this before the watchdog.
    let r = within(60, move || {
        Producer::connect_with_stop(&s.sink.kafka, stop).err()
    });
    match r {
        Some(CdcError::StoppedWaitingForKafka { waiting }) => {
            assert!(waiting.contains("InitProducerId"), "{waiting}")
        }
        other => panic!("not a stop: {other:?}"),
    }
}
