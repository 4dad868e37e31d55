//! `doctor`'s look at the Kafka sink: a bootstrap broker answers over the configured security
//! (TLS, SASL), the cluster's brokers are listed, and the transactional id's coordinator is
//! found. No producer id is asked for: InitProducerId with the capture's transactional id would
//! fence a capture that is running with it and abort its open transaction.

use super::client::{caps, connect_any, ClientOptions};
use super::KafkaError;
use crate::settings::{redact_broker, KafkaSettings};
use kafka_protocol::messages::{FindCoordinatorRequest, MetadataRequest};
use kafka_protocol::protocol::StrBytes;
use std::time::Duration;

/// What the probe found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The bootstrap broker that answered, as messages show it.
    pub answered: String,
    /// The cluster's brokers (`host:port`), as its metadata lists them.
    pub brokers: Vec<String>,
    /// The transactional id's coordinator (`host:port`), when the sink is transactional.
    pub coordinator: Option<String>,
}

/// Probe the brokers `cfg` names, within one request's timeout a step.
pub fn probe(cfg: &KafkaSettings) -> Result<Probe, KafkaError> {
    let client = ClientOptions::of(cfg);
    let timeout = Duration::from_millis(cfg.request_timeout_ms.max(100));
    let mut next = 0;
    let mut conn = connect_any(&cfg.brokers, &client, timeout, None, &mut next)?;
    let answered = cfg
        .brokers
        .get(next)
        .map(|b| redact_broker(b))
        .unwrap_or_default();
    // No topics: the brokers alone.
    let meta = conn.call(
        &MetadataRequest::default()
            .with_topics(Some(Vec::new()))
            .with_allow_auto_topic_creation(false),
        caps::METADATA,
    )?;
    let brokers = meta
        .brokers
        .iter()
        .map(|b| format!("{}:{}", b.host.as_str(), b.port))
        .collect();
    let coordinator = match &cfg.transactional_id {
        None => None,
        Some(id) => {
            let resp = conn.call(
                &FindCoordinatorRequest::default()
                    .with_key(StrBytes::from_string(id.clone()))
                    .with_key_type(1),
                caps::FIND_COORDINATOR,
            )?;
            if resp.error_code != 0 {
                return Err(KafkaError::Broker {
                    request: "FindCoordinator".into(),
                    code: resp.error_code,
                    detail: format!("the coordinator of transactional id {id}"),
                });
            }
            Some(format!("{}:{}", resp.host.as_str(), resp.port))
        }
    };
    Ok(Probe {
        answered,
        brokers,
        coordinator,
    })
}
