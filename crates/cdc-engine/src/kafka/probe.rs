//! `doctor`'s look at the Kafka sink: a bootstrap broker answers over the configured security
//! (TLS, SASL), the cluster's brokers are listed, and the transactional id's coordinator is
//! found. No producer id is asked for: InitProducerId with the capture's transactional id would
//! fence a capture that is running with it and abort its open transaction.
//!
//! Then, on the same connection, the topics capture will write: one Metadata request naming
//! them (with their authorized operations where the broker's Metadata version has them), and
//! for those that do not exist the CreateTopics capture would send, with validate_only, which
//! checks the principal's CREATE authorization and the cluster's topic policy and creates
//! nothing. Nothing is produced: no Produce, no CreateTopics without validate_only.

use super::client::{caps, connect_any, ClientOptions, Conn};
use super::KafkaError;
use crate::settings::{redact_broker, KafkaSettings};
use kafka_protocol::messages::{
    metadata_request::MetadataRequestTopic, CreateTopicsRequest, FindCoordinatorRequest,
    MetadataRequest, TopicName,
};
use kafka_protocol::protocol::StrBytes;
use std::time::Duration;

/// Kafka's `AclOperation` codes, as bits of a Metadata topic's `topic_authorized_operations`
/// (bit `1 << code`).
pub mod acl {
    pub const ALL: i32 = 2;
    pub const READ: i32 = 3;
    pub const WRITE: i32 = 4;

    /// Whether the bitfield `ops` allows `op` (ALL allows every operation; brokers expand it,
    /// but a bitfield with it set is taken at its word).
    pub fn allows(ops: i32, op: i32) -> bool {
        ops & (1 << op) != 0 || ops & (1 << ALL) != 0
    }
}

/// What a Metadata topic's `topic_authorized_operations` holds when the broker did not compute
/// it (not asked for, or a broker that does not fill it in).
pub const OPERATIONS_UNKNOWN: i32 = i32::MIN;

/// Bits Kafka's authorizer never sets in an authorized-operations bitfield: UNKNOWN (0), ANY
/// (1), and those past the last operation (DESCRIBE_TOKENS, 14), the sign bit among them.
const NOT_OPERATIONS: i32 = 0b11 | !((1 << 15) - 1);

/// The authorized operations a Metadata answer holds, if it computed them: asked for (`asked`),
/// not [`OPERATIONS_UNKNOWN`], and a bitfield Kafka's authorizer could have written (tansu 0.6
/// answers -1, every bit set, for the cluster whatever the principal may do).
fn reported_operations(asked: bool, ops: i32) -> Option<i32> {
    (asked && ops != OPERATIONS_UNKNOWN && ops & NOT_OPERATIONS == 0).then_some(ops)
}

/// A topic capture writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicUse {
    pub name: String,
    /// What capture writes there, as a finding names it (`table HR.EMP`, `ops events`).
    pub role: String,
    /// Whether capture also reads it (the transactional sink reads its offsets topic's last
    /// committed document at start).
    pub read: bool,
}

/// What a CreateTopics with validate_only said of a missing topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Creation {
    /// Accepted: capture's CreateTopics would be allowed (authorization and policy).
    Validated,
    /// Refused with this error code (and the broker's message, if any).
    Refused { code: i16, message: Option<String> },
    /// Not asked, and why (a broker without validate_only: asking would create the topic).
    NotValidated(String),
    /// Accepted, but the broker created it although asked only to validate (it exists now).
    CreatedAnyway,
}

/// What the broker said of one topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TopicState {
    /// It exists; `operations`: the principal's authorized operations on it (a bitfield of
    /// [`acl`] codes), `None` when the broker did not report them.
    Exists {
        partitions: usize,
        operations: Option<i32>,
    },
    /// UNKNOWN_TOPIC_OR_PARTITION: capture would create it.
    Missing(Creation),
    /// Another error code for the topic in the Metadata answer (TOPIC_AUTHORIZATION_FAILED: the
    /// principal may not even describe it).
    Error(i16),
}

/// One topic as the probe found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicFound {
    pub topic: TopicUse,
    pub state: TopicState,
}

/// The topics step's findings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topics {
    pub found: Vec<TopicFound>,
    /// The Metadata version the topics were asked at; authorized operations exist from v8.
    pub metadata_version: i16,
    /// The principal's authorized operations on the cluster, when the broker reported them
    /// (Metadata v8 to v10).
    pub cluster_operations: Option<i32>,
}

impl Topics {
    /// Whether the broker computes authorized operations (KIP-430) at all: it reported them for
    /// the cluster or for a topic.
    pub fn reports_operations(&self) -> bool {
        self.cluster_operations.is_some()
            || self.found.iter().any(|f| {
                matches!(
                    f.state,
                    TopicState::Exists {
                        operations: Some(_),
                        ..
                    }
                )
            })
    }
}

/// The highest Metadata version with the cluster's authorized operations (v8 to v10; v11 moved
/// them to DescribeCluster).
const METADATA_WITH_CLUSTER_OPERATIONS: i16 = 10;

/// What the probe found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The bootstrap broker that answered, as messages show it.
    pub answered: String,
    /// The cluster's brokers (`host:port`), as its metadata lists them.
    pub brokers: Vec<String>,
    /// The transactional id's coordinator (`host:port`), when the sink is transactional.
    pub coordinator: Option<String>,
    /// The topics asked about, or why the topics step failed (the brokers part stands).
    pub topics: Result<Topics, KafkaError>,
}

/// Probe the brokers `cfg` names and the `topics` capture will write, within one request's
/// timeout a step.
pub fn probe(cfg: &KafkaSettings, topics: &[TopicUse]) -> Result<Probe, KafkaError> {
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
    let topics = check_topics(&mut conn, cfg, topics);
    Ok(Probe {
        answered,
        brokers,
        coordinator,
        topics,
    })
}

fn topic_name(name: &str) -> TopicName {
    TopicName(StrBytes::from_string(name.to_string()))
}

/// The topics step: Metadata for `wanted`, then a validate-only CreateTopics for those missing.
fn check_topics(
    conn: &mut Conn,
    cfg: &KafkaSettings,
    wanted: &[TopicUse],
) -> Result<Topics, KafkaError> {
    // At most v10, where the cluster's authorized operations still are (they tell whether the
    // broker computes authorization at all); a broker without v10 at its highest.
    let v = conn
        .version::<MetadataRequest>(METADATA_WITH_CLUSTER_OPERATIONS)
        .or_else(|_| conn.version::<MetadataRequest>(caps::METADATA))?;
    if wanted.is_empty() {
        return Ok(Topics {
            found: Vec::new(),
            metadata_version: v,
            cluster_operations: None,
        });
    }
    // Authorized operations came with Metadata v8 (KIP-430); at an earlier version the fields
    // do not exist and setting them would not encode.
    let ask_operations = v >= 8;
    let meta = conn.call_at(
        &metadata_request(wanted.iter().map(|t| t.name.as_str()), v),
        v,
    )?;
    let reported = |ops: i32| reported_operations(ask_operations, ops);
    let cluster_operations = if v <= METADATA_WITH_CLUSTER_OPERATIONS {
        reported(meta.cluster_authorized_operations)
    } else {
        None
    };
    let found: Vec<TopicFound> = wanted
        .iter()
        .map(|t| {
            let answer = meta
                .topics
                .iter()
                .find(|m| m.name.as_ref().map(|n| n.0.as_str()) == Some(t.name.as_str()));
            let missing = TopicState::Missing(Creation::NotValidated(String::new()));
            let state = match answer {
                // As the producer takes it: no answer, or no partitions, is a topic to create.
                None => missing,
                Some(m) if m.error_code == super::UNKNOWN_TOPIC_OR_PARTITION => missing,
                Some(m) if m.error_code != 0 => TopicState::Error(m.error_code),
                Some(m) if m.partitions.is_empty() => missing,
                Some(m) => TopicState::Exists {
                    partitions: m.partitions.len(),
                    operations: reported(m.topic_authorized_operations),
                },
            };
            TopicFound {
                topic: t.clone(),
                state,
            }
        })
        .collect();
    let mut topics = Topics {
        found,
        metadata_version: v,
        cluster_operations,
    };
    let missing: Vec<String> = topics
        .found
        .iter()
        .filter(|f| matches!(f.state, TopicState::Missing(_)))
        .map(|f| f.topic.name.clone())
        .collect();
    if missing.is_empty() {
        return Ok(topics);
    }
    // A broker that does not compute authorized operations is not Apache Kafka's authorizer,
    // and such a broker may not honour validate_only either: tansu 0.6 creates the topics a
    // validate-only CreateTopics names. Doctor must create nothing, so it does not ask one.
    let answers = if topics.reports_operations() {
        validate_creation(conn, cfg, &missing)?
    } else if !ask_operations {
        Err(format!(
            "the broker's Metadata is v{v}, which predates authorized operations (KIP-430); doctor sends a validate-only CreateTopics only to a broker that reports them, as one that does not may create the topics anyway"
        ))
    } else {
        Err("the broker does not report authorized operations as Kafka does (KIP-430), so it is not Apache Kafka's authorizer; doctor sends a validate-only CreateTopics only to a broker that reports them, as one that does not may create the topics anyway (tansu 0.6 does)".into())
    };
    for f in &mut topics.found {
        if let TopicState::Missing(c) = &mut f.state {
            *c = match &answers {
                Err(why) => Creation::NotValidated(why.clone()),
                Ok(list) => list
                    .iter()
                    .find(|(name, _)| *name == f.topic.name)
                    .map(|(_, c)| c.clone())
                    .unwrap_or_else(|| {
                        Creation::NotValidated(
                            "the broker's CreateTopics answer did not name it".into(),
                        )
                    }),
            };
        }
    }
    // A broker that created what it was asked only to validate is said to have done so.
    if answers.is_ok() {
        let after = conn.call_at(&metadata_request(missing.iter().map(String::as_str), v), v)?;
        for f in &mut topics.found {
            let created = after.topics.iter().any(|m| {
                m.name.as_ref().map(|n| n.0.as_str()) == Some(f.topic.name.as_str())
                    && m.error_code == 0
                    && !m.partitions.is_empty()
            });
            if created && matches!(f.state, TopicState::Missing(_)) {
                f.state = TopicState::Missing(Creation::CreatedAnyway);
            }
        }
    }
    Ok(topics)
}

/// Metadata naming `topics` at version `v`, creating none, with the authorized operations
/// where `v` has them.
fn metadata_request<'a>(topics: impl Iterator<Item = &'a str>, v: i16) -> MetadataRequest {
    MetadataRequest::default()
        .with_topics(Some(
            topics
                .map(|t| MetadataRequestTopic::default().with_name(Some(topic_name(t))))
                .collect(),
        ))
        .with_allow_auto_topic_creation(false)
        .with_include_topic_authorized_operations(v >= 8)
        .with_include_cluster_authorized_operations(
            (8..=METADATA_WITH_CLUSTER_OPERATIONS).contains(&v),
        )
}

/// Capture's CreateTopics for `missing` ([`super::producer::create_topics`]), with
/// validate_only: per topic what the broker said, or (Err) why it was not asked. Never sent
/// without validate_only: a broker whose CreateTopics has no such field (v0) is not asked.
fn validate_creation(
    conn: &mut Conn,
    cfg: &KafkaSettings,
    missing: &[String],
) -> Result<Result<Vec<(String, Creation)>, String>, KafkaError> {
    let v = match conn.version::<CreateTopicsRequest>(caps::CREATE_TOPICS) {
        Ok(v) => v,
        Err(e) => return Ok(Err(format!("not validated: {e}"))),
    };
    if v < 1 {
        return Ok(Err(
            "not validated: the broker's CreateTopics is v0, which has no validate_only (asking would create the topic)"
                .into(),
        ));
    }
    let req = super::producer::create_topics(cfg, missing.iter().map(String::as_str))
        .with_validate_only(true);
    let resp = conn.call_at(&req, v)?;
    Ok(Ok(resp
        .topics
        .iter()
        .map(|t| {
            let c = match t.error_code {
                // TOPIC_ALREADY_EXISTS: created since the Metadata answer; capture will find it.
                0 | super::TOPIC_ALREADY_EXISTS => Creation::Validated,
                code => Creation::Refused {
                    code,
                    message: t
                        .error_message
                        .as_ref()
                        .map(|m| m.as_str().to_string())
                        .filter(|m| !m.is_empty()),
                },
            };
            (t.name.0.as_str().to_string(), c)
        })
        .collect()))
}
