//! Kafka, client side: a small synchronous client ([`client`]), an idempotent (optionally
//! transactional) producer ([`producer`]) and a read-committed reader ([`consumer`]), which the
//! Kafka sink (`crate::sink::kafka`) writes through. No async runtime: one request in flight at
//! a time.

pub mod client;
pub mod consumer;
#[cfg(test)]
pub(crate) mod mock_tests;
pub mod probe;
pub mod producer;
pub mod sasl;
pub mod tls;
#[cfg(test)]
mod wait_tests;

use crate::errors::{CdcError, Code};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Set when capture is told to stop: every Kafka wait (a retry's backoff, the next broker of
/// the bootstrap list, an answer that is late) checks it and gives up, so a stop is not held up
/// by a broker that does not answer. Nothing unacknowledged is stored in the offsets, so what
/// was cut short is sent again at the next start.
pub type StopFlag = Arc<AtomicBool>;

/// Whether `stop` was raised.
pub fn stopping(stop: &StopFlag) -> bool {
    stop.load(Ordering::SeqCst)
}

// Broker items are checked when settings load; the parser is theirs.
pub use crate::settings::broker::parse_broker;

/// What went wrong talking to a broker, before it becomes a [`CdcError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KafkaError {
    /// The connection could not be made or broke (retried with backoff).
    Network(String),
    /// The broker answered with an error code.
    Broker {
        request: String,
        code: i16,
        detail: String,
    },
    /// No common version, or an answer that cannot be decoded.
    Protocol(String),
    /// Capture was told to stop while this waited (never retried).
    Stopped(String),
    /// No bootstrap broker's name resolves (at start; never retried, as in Kafka's client).
    Unresolvable(String),
    /// The TLS handshake failed: a certificate not trusted or not for the broker's name, a
    /// listener that does not speak TLS (never retried: the same handshake fails again).
    Tls(String),
    /// SASL authentication failed: a wrong user or password, a mechanism the broker does not
    /// enable, a broker whose SCRAM signature is wrong (never retried: the same credentials
    /// fail again). The message names the broker and mechanism, never the password.
    Auth(String),
}

impl std::fmt::Display for KafkaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KafkaError::Network(m) => write!(f, "network: {m}"),
            KafkaError::Broker {
                request,
                code,
                detail,
            } => write!(f, "{request} ({detail}): {}", error_name(*code)),
            KafkaError::Protocol(m) => write!(f, "protocol: {m}"),
            KafkaError::Stopped(m) => write!(f, "stopped while waiting: {m}"),
            KafkaError::Unresolvable(m) => write!(f, "network: {m}"),
            KafkaError::Tls(m) => write!(f, "tls: {m}"),
            KafkaError::Auth(m) => write!(f, "authentication: {m}"),
        }
    }
}

impl KafkaError {
    /// Whether waiting and sending again can help.
    pub fn retriable(&self) -> bool {
        match self {
            KafkaError::Network(_) => true,
            KafkaError::Broker { code, .. } => retriable_code(*code),
            KafkaError::Protocol(_)
            | KafkaError::Stopped(_)
            | KafkaError::Unresolvable(_)
            | KafkaError::Tls(_)
            | KafkaError::Auth(_) => false,
        }
    }

    pub fn into_cdc(self) -> CdcError {
        if let KafkaError::Stopped(waiting) = self {
            return CdcError::StoppedWaitingForKafka { waiting };
        }
        let code = match &self {
            KafkaError::Network(_) | KafkaError::Unresolvable(_) => Code::Cdc6202,
            KafkaError::Broker { code, .. } if *code == PRODUCER_FENCED || *code == 47 => {
                Code::Cdc6205
            }
            KafkaError::Broker { .. } => Code::Cdc6203,
            KafkaError::Protocol(_) => Code::Cdc6204,
            KafkaError::Tls(_) => Code::Cdc6207,
            KafkaError::Auth(_) => Code::Cdc6208,
            KafkaError::Stopped(_) => Code::Cdc6202,
        };
        CdcError::kafka(code, self.to_string())
    }
}

pub const UNKNOWN_TOPIC_OR_PARTITION: i16 = 3;
pub const DUPLICATE_SEQUENCE_NUMBER: i16 = 46;
pub const OUT_OF_ORDER_SEQUENCE_NUMBER: i16 = 45;
pub const UNKNOWN_PRODUCER_ID: i16 = 59;
pub const TOPIC_ALREADY_EXISTS: i16 = 36;
pub const PRODUCER_FENCED: i16 = 90;
pub const TOPIC_AUTHORIZATION_FAILED: i16 = 29;
pub const CLUSTER_AUTHORIZATION_FAILED: i16 = 31;

/// Kafka's retriable error codes (plus UNKNOWN_TOPIC_OR_PARTITION while a topic is created).
pub fn retriable_code(code: i16) -> bool {
    matches!(
        code,
        3 | 5 | 6 | 7 | 13 | 14 | 15 | 16 | 19 | 20 | 51 | 56 | 72 | 89
    )
}

/// The name of a Kafka error code, for messages.
pub fn error_name(code: i16) -> String {
    let name = match code {
        -1 => "UNKNOWN_SERVER_ERROR",
        1 => "OFFSET_OUT_OF_RANGE",
        2 => "CORRUPT_MESSAGE",
        3 => "UNKNOWN_TOPIC_OR_PARTITION",
        5 => "LEADER_NOT_AVAILABLE",
        6 => "NOT_LEADER_OR_FOLLOWER",
        7 => "REQUEST_TIMED_OUT",
        10 => "MESSAGE_TOO_LARGE",
        13 => "NETWORK_EXCEPTION",
        14 => "COORDINATOR_LOAD_IN_PROGRESS",
        15 => "COORDINATOR_NOT_AVAILABLE",
        16 => "NOT_COORDINATOR",
        17 => "INVALID_TOPIC_EXCEPTION",
        29 => "TOPIC_AUTHORIZATION_FAILED",
        30 => "GROUP_AUTHORIZATION_FAILED",
        31 => "CLUSTER_AUTHORIZATION_FAILED",
        33 => "UNSUPPORTED_SASL_MECHANISM",
        34 => "ILLEGAL_SASL_STATE",
        35 => "UNSUPPORTED_VERSION",
        36 => "TOPIC_ALREADY_EXISTS",
        37 => "INVALID_PARTITIONS",
        38 => "INVALID_REPLICATION_FACTOR",
        39 => "INVALID_REPLICA_ASSIGNMENT",
        40 => "INVALID_CONFIG",
        41 => "NOT_CONTROLLER",
        42 => "INVALID_REQUEST",
        44 => "POLICY_VIOLATION",
        45 => "OUT_OF_ORDER_SEQUENCE_NUMBER",
        46 => "DUPLICATE_SEQUENCE_NUMBER",
        47 => "INVALID_PRODUCER_EPOCH",
        48 => "INVALID_TXN_STATE",
        49 => "INVALID_PRODUCER_ID_MAPPING",
        51 => "CONCURRENT_TRANSACTIONS",
        53 => "TRANSACTIONAL_ID_AUTHORIZATION_FAILED",
        58 => "SASL_AUTHENTICATION_FAILED",
        59 => "UNKNOWN_PRODUCER_ID",
        90 => "PRODUCER_FENCED",
        _ => "",
    };
    if name.is_empty() {
        format!("error code {code}")
    } else {
        format!("{name} ({code})")
    }
}

/// Kafka's default partitioner hash (murmur2, as the Java client computes it), so a key lands
/// on the partition any Kafka client would pick.
pub fn murmur2(data: &[u8]) -> u32 {
    const M: u32 = 0x5bd1_e995;
    const R: u32 = 24;
    let seed: u32 = 0x9747_b28c;
    let len = data.len();
    let mut h: u32 = seed ^ (len as u32);
    let mut chunks = data.chunks_exact(4);
    for c in &mut chunks {
        let mut k = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        k = k.wrapping_mul(M);
        k ^= k >> R;
        k = k.wrapping_mul(M);
        h = h.wrapping_mul(M);
        h ^= k;
    }
    let rest = chunks.remainder();
    if rest.len() >= 3 {
        h ^= (rest[2] as u32) << 16;
    }
    if rest.len() >= 2 {
        h ^= (rest[1] as u32) << 8;
    }
    if !rest.is_empty() {
        h ^= rest[0] as u32;
        h = h.wrapping_mul(M);
    }
    h ^= h >> 13;
    h = h.wrapping_mul(M);
    h ^= h >> 15;
    h
}

/// The partition of a key among `partitions` (Kafka's `toPositive(murmur2(key)) % n`).
pub fn partition_for(key: &[u8], partitions: usize) -> usize {
    ((murmur2(key) & 0x7fff_ffff) as usize) % partitions.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn murmur2_matches_the_java_client() {
        // Values of org.apache.kafka.common.utils.Utils.murmur2 (as signed ints in Java).
        assert_eq!(murmur2(b"21") as i32, -973_932_308);
        assert_eq!(murmur2(b"foobar") as i32, -790_332_482);
        assert_eq!(murmur2(b"a-little-bit-long-string") as i32, -985_981_536);
        assert_eq!(murmur2(b"abc") as i32, 479_470_107);
    }

    #[test]
    fn errors_map_to_their_codes() {
        let fenced = KafkaError::Broker {
            request: "EndTxn".into(),
            code: PRODUCER_FENCED,
            detail: "t".into(),
        };
        assert!(!fenced.retriable());
        assert_eq!(fenced.into_cdc().code(), Code::Cdc6205);
        assert!(KafkaError::Network("x".into()).retriable());
        assert_eq!(
            KafkaError::Protocol("x".into()).into_cdc().code(),
            Code::Cdc6204
        );
    }
}

#[cfg(test)]
mod settings_tests {
    use crate::errors::Code;
    use crate::settings::Settings;

    #[test]
    fn kafka_settings_are_checked() {
        let err = |pairs: &[&str]| {
            Settings::from_pairs(pairs)
                .err()
                .map(|e| (e.code(), e.to_string()))
        };
        let (code, msg) = err(&["cdc.sink.type=kafka"]).unwrap();
        assert_eq!(code, Code::Cdc6201);
        assert!(msg.contains("cdc.sink.kafka.brokers"), "{msg}");
        let (code, msg) =
            err(&["cdc.sink.type=kafka", "cdc.sink.kafka.brokers=localhost"]).unwrap();
        assert_eq!(code, Code::Cdc6201);
        assert!(msg.contains("host:port"), "{msg}");
        let (code, msg) = err(&["cdc.sink.kafka.producer.linger.ms=5"]).unwrap();
        assert_eq!(code, Code::Cdc6201);
        assert!(msg.contains("request.timeout.ms"), "{msg}");
        assert_eq!(
            err(&["cdc.sink.kafka.producer.acks=1"]).map(|e| e.0),
            Some(Code::Cdc1002)
        );
        // Malformed items are refused naming the item, its password never shown.
        for (item, why) in [
            ("[::1", "not closed"),
            ("[::1]", "no `:port`"),
            ("[::1]9092", "no `:port`"),
            ("[zz]:9092", "not an IPv6 address"),
            ("::1:9092", "in brackets"),
            (":9092", "host is empty"),
            ("kafka:0", "1 to 65535"),
            ("kafka:65536", "1 to 65535"),
            ("kafka:", "1 to 65535"),
            ("ka fka:9092", "cannot"),
            ("user:hunter2@[::1", "not closed"),
        ] {
            let (code, msg) = err(&[
                "cdc.sink.type=kafka",
                &format!("cdc.sink.kafka.brokers=ok:9092,{item}"),
            ])
            .unwrap();
            assert_eq!(code, Code::Cdc6201, "{item}: {msg}");
            assert!(msg.contains(why), "{item}: {msg}");
            assert!(!msg.contains("hunter2"), "{item}: {msg}");
            assert!(
                msg.contains(&crate::settings::redact_broker(item)),
                "{item}: {msg}"
            );
        }
        let s = Settings::from_pairs(&[
            "cdc.sink.type=kafka",
            "cdc.sink.kafka.brokers=[::1]:9092,user:pw@[fe80::1]:1,h.example:65535",
        ])
        .unwrap();
        assert_eq!(s.sink.kafka.brokers.len(), 3);
        let s = Settings::from_pairs(&[
            "cdc.sink.type=kafka",
            "cdc.sink.kafka.brokers=a:9092,b:9093",
            "cdc.sink.topic.prefix=shop",
        ])
        .unwrap();
        let k = &s.sink.kafka;
        assert_eq!(k.brokers, vec!["a:9092", "b:9093"]);
        assert_eq!(
            (
                k.topic_ops.as_str(),
                k.topic_dlq.as_str(),
                k.topic_offsets.as_str()
            ),
            ("shop.ops", "shop.dlq", "shop.offsets")
        );
        assert_eq!(k.transactional_id, None);
    }
}
