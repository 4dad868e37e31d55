//! sink.*: what capture writes to, when that is not a directory. The Kafka sink's brokers are
//! probed only here, when the check runs (`Facts::kafka`), and without a producer id: asking for
//! one with the capture's transactional id would fence a capture running with it.

use super::facts::Facts;
use super::Finding;
use crate::errors::Code;
use crate::kafka::probe::{acl, Creation, Probe, TopicFound, TopicState, TopicUse, Topics};
use crate::settings::{keys, OnDecodeError, OnUnsupportedRedo, SinkType};

/// The probe of the brokers and of the topics capture writes: run once, by whichever of
/// sink.kafka and sink.kafka.topics comes first.
fn probed(f: &Facts) -> &Result<Probe, (Code, String)> {
    f.kafka.get_or_init(|| {
        let (topics, _) = topics_written(f);
        crate::kafka::probe::probe(&f.settings.sink.kafka, &topics).map_err(|e| {
            let e = e.into_cdc();
            (e.code(), e.to_string())
        })
    })
}

/// The topics capture writes with these settings, each named as capture names it, and why
/// the captured tables' topics are not among them (the tables could not be resolved).
pub(super) fn topics_written(f: &Facts) -> (Vec<TopicUse>, Option<String>) {
    use crate::record::envelope;
    let s = &f.settings;
    let k = &s.sink.kafka;
    let prefix = &s.sink.topic_prefix;
    let mut out: Vec<TopicUse> = Vec::new();
    let mut add = |name: String, role: String, read: bool| {
        match out.iter_mut().find(|t| t.name == name) {
            // Two uses of one topic (a prefix equal to a table's topic): one check, both uses.
            Some(t) => {
                t.role = format!("{}, {role}", t.role);
                t.read |= read;
            }
            None => out.push(TopicUse { name, role, read }),
        }
    };
    let unchecked = match &f.captured {
        Ok(_) => {
            let tables: Vec<&crate::names::TableName> =
                f.targets().into_iter().map(|t| &t.info.name).collect();
            // The naming stored with the offsets at the first start, else the settings'
            // (what capture's start settles on, `capture::topics`).
            let stored = f
                .offsets
                .as_ref()
                .ok()
                .and_then(|o| o.as_ref())
                .and_then(|o| o.topics.as_ref());
            let naming = crate::capture::topics::wanted(s, tables.iter().copied(), stored);
            for t in tables {
                add(
                    crate::capture::records::topic_of(&naming.prefix, t, naming.pdb),
                    format!("table {t}"),
                    false,
                );
            }
            None
        }
        Err(why) => Some(why.clone()),
    };
    if f.streams() {
        if s.record.schema_changes {
            add(
                envelope::schema_change_topic(prefix),
                "schema changes".into(),
                false,
            );
        }
        if s.record.transaction_metadata {
            add(
                envelope::transaction_topic(prefix, &s.record.transaction_topic),
                "transaction events".into(),
                false,
            );
        }
        if s.stream.heartbeat_ms > 0 {
            add(
                envelope::heartbeat_topic(prefix),
                "heartbeats".into(),
                false,
            );
        }
    }
    // The sink forwards every ops event (sink::kafka, forward_ops).
    add(k.topic_ops.clone(), "ops events".into(), false);
    // Dead letters are published when a setting sends a change there, and for a signal table
    // row that is not a signal (capture::pipeline::unusual).
    let dlq = s.on_decode_error == OnDecodeError::Dlq
        || s.on_unsupported_redo == OnUnsupportedRedo::Dlq
        || (s.signal.source && s.signal.data_collection.is_some());
    if f.streams() && dlq {
        add(k.topic_dlq.clone(), "dead letters".into(), false);
    }
    // Only a transactional sink commits its offsets to Kafka, and it reads the last committed
    // document back at start (KafkaSink::open_with_stop).
    if k.transactional_id.is_some() {
        add(k.topic_offsets.clone(), "offsets".into(), true);
    }
    (out, unchecked)
}

pub(super) fn kafka(f: &Facts) -> Finding {
    match f.settings.sink.kind {
        SinkType::Kafka => {}
        SinkType::File => {
            return Finding::pass(format!(
                "not used: records are written as files to {} ({} is file)",
                f.settings.sink.dir.display(),
                keys::SINK_TYPE
            ))
        }
        SinkType::Stdout => {
            return Finding::pass(format!(
                "not used: records are written to standard output ({} is stdout)",
                keys::SINK_TYPE
            ))
        }
    }
    let cfg = &f.settings.sink.kafka;
    let how = match (&cfg.tls, &cfg.sasl) {
        (None, None) => "PLAINTEXT".to_string(),
        (Some(_), None) => "SSL".to_string(),
        (None, Some(s)) => format!("SASL_PLAINTEXT ({})", s.mechanism.name()),
        (Some(_), Some(s)) => format!("SASL_SSL ({})", s.mechanism.name()),
    };
    match probed(f) {
        Ok(p) => {
            let coordinator = match (&cfg.transactional_id, &p.coordinator) {
                (Some(id), Some(c)) => format!("; transactional id {id}: coordinator {c}"),
                _ => "; not transactional".to_string(),
            };
            Finding::pass(format!(
                "{} answered over {how}; {} broker(s): {}{coordinator}",
                p.answered,
                p.brokers.len(),
                super::list(&p.brokers, 5)
            ))
        }
        Err((code, message)) => {
            let fix = match code {
                Code::Cdc6207 => format!(
                    "{}: the PEM file of the CA that signed the brokers' certificates (the Mozilla roots without it); the broker's name as listed in {} must be one its certificate names",
                    keys::KAFKA_SSL_CA_LOCATION,
                    keys::KAFKA_BROKERS
                ),
                Code::Cdc6208 => format!(
                    "{}, {} and {}: the credentials and mechanism the brokers' SASL listener takes (a SCRAM user is created on the cluster: kafka-configs --alter --add-config 'SCRAM-SHA-256=[password=…]' --entity-type users --entity-name USER)",
                    keys::KAFKA_SASL_USERNAME,
                    keys::KAFKA_SASL_PASSWORD,
                    keys::KAFKA_SASL_MECHANISM
                ),
                Code::Cdc6203 => format!(
                    "the broker refused a request (the message names it): for FindCoordinator, the capture user's ACLs must allow the transactional id ({}), and the cluster's transaction state log must be available",
                    keys::KAFKA_TRANSACTIONAL_ID
                ),
                _ => format!(
                    "{}: host:port items of brokers this machine can reach (name resolution, routes, firewalls), on the listener {} speaks",
                    keys::KAFKA_BROKERS,
                    keys::KAFKA_SECURITY_PROTOCOL
                ),
            };
            Finding::fail(format!("over {how}: {message}"), fix)
        }
    }
}

/// One topic at fault and what fixes it.
struct Fault {
    topic: String,
    /// What is wrong, for `found`.
    what: String,
    /// The fix's line for it.
    fix: String,
}

/// The commands that fix a topic at fault, for the cluster `bootstrap` names and the
/// principal capture authenticates as.
struct Fixes {
    /// `kafka-acls`/`kafka-topics` name the cluster by one of its brokers.
    bootstrap: String,
    principal: String,
    partitions: u32,
}

impl Fixes {
    fn of(cfg: &crate::settings::KafkaSettings) -> Fixes {
        Fixes {
            bootstrap: cfg
                .brokers
                .first()
                .map(|b| crate::settings::redact_broker(b))
                .unwrap_or_default(),
            principal: match &cfg.sasl {
                Some(s) => format!("User:{}", s.username),
                None => "User:PRINCIPAL".to_string(),
            },
            partitions: cfg.topic_partitions,
        }
    }

    fn grant(&self, op: &str, topic: &str) -> String {
        format!(
            "kafka-acls --bootstrap-server {} --add --allow-principal {} --operation {op} --topic {topic}",
            self.bootstrap, self.principal
        )
    }

    fn create(&self, topic: &str) -> String {
        format!(
            "kafka-topics --bootstrap-server {} --create --topic {topic} --partitions {} (or a topic of your own making: capture uses the partitions it finds)",
            self.bootstrap, self.partitions
        )
    }

    /// For a validate-only creation the broker refused with `code`.
    fn refused_creation(&self, code: i16, topic: &str) -> String {
        match code {
            crate::kafka::TOPIC_AUTHORIZATION_FAILED => format!(
                "{}\nor create it beforehand: {}",
                self.grant("Create", topic),
                self.create(topic)
            ),
            crate::kafka::CLUSTER_AUTHORIZATION_FAILED => format!(
                "kafka-acls --bootstrap-server {} --add --allow-principal {} --operation Create --cluster\nor create it beforehand: {}",
                self.bootstrap,
                self.principal,
                self.create(topic)
            ),
            _ => format!(
                "create it beforehand as the cluster's policy allows ({}: the partitions capture asks for; the replication factor is the cluster's default): {}",
                keys::KAFKA_TOPIC_PARTITIONS,
                self.create(topic)
            ),
        }
    }
}

/// What the probe found of each topic, sorted by what the finding makes of it.
#[derive(Default)]
struct Tally {
    exist: usize,
    /// Missing, their creation validated.
    created: usize,
    faults: Vec<Fault>,
    /// Topics the broker answered with a retriable error for (`name: ERROR`).
    transient: Vec<String>,
    /// Existing topics whose authorized operations the broker did not report.
    unreported: Vec<String>,
    /// Missing topics whose creation was not validated, and why.
    not_validated: Vec<(String, String)>,
    /// Missing topics the broker created although asked only to validate.
    created_anyway: Vec<String>,
}

impl Tally {
    fn of(topics: &Topics, fixes: &Fixes) -> Tally {
        let mut t = Tally::default();
        for found in &topics.found {
            t.add(found, fixes);
        }
        t
    }

    fn add(&mut self, t: &TopicFound, fixes: &Fixes) {
        let name = &t.topic.name;
        let shown = format!("{name} ({})", t.topic.role);
        match &t.state {
            TopicState::Exists { operations, .. } => {
                self.exist += 1;
                let Some(ops) = operations else {
                    self.unreported.push(name.clone());
                    return;
                };
                let mut need = vec![(acl::WRITE, "Write")];
                if t.topic.read {
                    need.push((acl::READ, "Read"));
                }
                for (op, op_name) in need {
                    if !acl::allows(*ops, op) {
                        self.faults.push(Fault {
                            topic: name.clone(),
                            what: format!(
                                "{shown}: exists, but the principal is not authorized to {}",
                                op_name.to_uppercase()
                            ),
                            fix: fixes.grant(op_name, name),
                        });
                    }
                }
            }
            TopicState::Missing(Creation::Validated) => self.created += 1,
            TopicState::Missing(Creation::CreatedAnyway) => self.created_anyway.push(name.clone()),
            TopicState::Missing(Creation::NotValidated(why)) => {
                self.not_validated.push((name.clone(), why.clone()));
            }
            TopicState::Missing(Creation::Refused { code, message }) => {
                let said = message
                    .as_ref()
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default();
                self.faults.push(Fault {
                    topic: name.clone(),
                    what: format!(
                        "{shown}: does not exist, and creating it is refused: {}{said}",
                        crate::kafka::error_name(*code)
                    ),
                    fix: fixes.refused_creation(*code, name),
                });
            }
            TopicState::Error(code) if crate::kafka::retriable_code(*code) => {
                self.transient
                    .push(format!("{name}: {}", crate::kafka::error_name(*code)));
            }
            TopicState::Error(code) => {
                let unauthorized = *code == crate::kafka::TOPIC_AUTHORIZATION_FAILED;
                self.faults.push(Fault {
                    topic: name.clone(),
                    what: format!(
                        "{shown}: Metadata answers {}{}",
                        crate::kafka::error_name(*code),
                        if unauthorized {
                            ": the principal may not even describe it"
                        } else {
                            ""
                        }
                    ),
                    fix: if unauthorized {
                        // WRITE implies DESCRIBE in Kafka's authorizer.
                        fixes.grant("Write", name)
                    } else {
                        format!(
                            "the broker's error for {name}: see its log (capture sends the same Metadata request)"
                        )
                    },
                });
            }
        }
    }

    /// What the finding cannot vouch for, said rather than passed over.
    fn caveats(&self, topics: &Topics, unchecked: Option<&str>) -> Vec<String> {
        let mut caveats: Vec<String> = Vec::new();
        if let Some(why) = unchecked {
            caveats.push(format!(
                "the captured tables' topics were not checked (the tables could not be read: {why})"
            ));
        }
        if !self.unreported.is_empty() {
            caveats.push(if topics.metadata_version < 8 {
                format!(
                    "the broker's Metadata is v{}, which has no authorized operations: WRITE on the {} existing topic(s) was not checked",
                    topics.metadata_version,
                    self.unreported.len()
                )
            } else {
                format!(
                    "the broker did not report the principal's authorized operations: WRITE on {} was not checked",
                    super::list(&self.unreported, 5)
                )
            });
        }
        if let Some((_, why)) = self.not_validated.first() {
            let names: Vec<String> = self.not_validated.iter().map(|(n, _)| n.clone()).collect();
            caveats.push(format!(
                "creating {} was not validated: {why}",
                super::list(&names, 5)
            ));
        }
        if !self.created_anyway.is_empty() {
            caveats.push(format!(
                "the broker created {} although asked only to validate its creation (it ignores CreateTopics' validate_only)",
                super::list(&self.created_anyway, 5)
            ));
        }
        caveats
    }
}

/// sink.kafka.topics: capture can write (and, for the offsets topic, read) every topic it
/// needs, or create the ones missing, as the brokers' Metadata and a validate-only
/// CreateTopics say (`kafka::probe`).
pub(super) fn kafka_topics(f: &Facts) -> Finding {
    if f.settings.sink.kind != SinkType::Kafka {
        return Finding::pass(format!("not used: {} is not kafka", keys::SINK_TYPE));
    }
    let (wanted, unchecked) = topics_written(f);
    let probe = match probed(f) {
        Ok(p) => p,
        Err((_, message)) => {
            return Finding::skip(format!(
                "not checked: the brokers did not answer (see sink.kafka): {message}"
            ))
        }
    };
    let topics = match &probe.topics {
        Ok(t) => t,
        Err(e) => {
            let e = e.clone().into_cdc();
            return Finding::fail(
                format!(
                    "the brokers answered, but asking about the {} topics capture writes failed: {e}",
                    wanted.len()
                ),
                "the message names the request and the broker's error; capture sends the same Metadata and CreateTopics requests when it first writes each topic",
            );
        }
    };
    let tally = Tally::of(topics, &Fixes::of(&f.settings.sink.kafka));
    let caveats = tally.caveats(topics, unchecked.as_deref());
    let counts = format!(
        "{} topic(s) capture writes: {} exist, {} will be created (validated){}",
        topics.found.len(),
        tally.exist,
        tally.created,
        if tally.not_validated.is_empty() {
            String::new()
        } else {
            format!(
                ", {} missing (creation not validated)",
                tally.not_validated.len()
            )
        }
    );
    let caveat = if caveats.is_empty() {
        String::new()
    } else {
        format!("; {}", caveats.join("; "))
    };
    if !tally.faults.is_empty() {
        let mut objects: Vec<String> = tally.faults.iter().map(|x| x.topic.clone()).collect();
        objects.dedup();
        let found = format!(
            "{} of the {} topic(s) capture writes cannot be written (capture stops with CDC-6203 at its first record for them): {}{caveat}",
            objects.len(),
            topics.found.len(),
            tally
                .faults
                .iter()
                .map(|x| x.what.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        );
        let fix = tally
            .faults
            .iter()
            .map(|x| x.fix.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        return Finding::fail(found, fix).on(objects);
    }
    if !tally.transient.is_empty() {
        return Finding::warn(
            format!(
                "{counts}; the broker answered with a retriable error for {}{caveat}",
                tally.transient.join(", ")
            ),
            format!("capture retries these for {}; if doctor still says so later, the broker's log says why (a topic being created or moved, a broker down)", keys::KAFKA_PRODUCER_DELIVERY_TIMEOUT_MS),
        );
    }
    Finding::pass(format!("{counts}{caveat}"))
}
