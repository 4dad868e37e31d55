//! sink.kafka.topics against the scripted topics broker (`kafka::mock_tests::topics_broker`):
//! the topics capture writes for the healthy emulated database (HR.EMP, HR.DEPT), what the
//! broker says of each, and the requests doctor sent, which never create or produce anything.

use super::tests::{get, Db};
use super::*;
use crate::kafka::mock_tests::{topics_broker, Log, ScriptedTopic, TopicsScript};
use std::collections::BTreeMap;

const EMP: &str = "oracle-cdc.HR.EMP";
const DEPT: &str = "oracle-cdc.HR.DEPT";
const SCHEMA_CHANGES: &str = "oracle-cdc";
const OPS: &str = "oracle-cdc.ops";
const OFFSETS: &str = "oracle-cdc.offsets";

/// Kafka's bitfield of `ops` (AclOperation codes: READ 3, WRITE 4, CREATE 5, DESCRIBE 8).
fn bits(ops: &[i32]) -> i32 {
    ops.iter().fold(0, |b, o| b | (1 << o))
}
const READ: i32 = 3;
const WRITE: i32 = 4;
const CREATE: i32 = 5;
const DESCRIBE: i32 = 8;

/// Every topic but DEPT exists, writable (the offsets topic readable too); DEPT is missing and
/// may be created; the cluster's operations are reported as Kafka reports them.
fn healthy_topics() -> BTreeMap<String, ScriptedTopic> {
    let rw = ScriptedTopic::Exists {
        operations: bits(&[READ, WRITE, DESCRIBE]),
    };
    [EMP, SCHEMA_CHANGES, OPS, OFFSETS]
        .into_iter()
        .map(|t| (t.to_string(), rw))
        .chain([(DEPT.to_string(), ScriptedTopic::Missing { create: 0 })])
        .collect()
}

fn script(topics: BTreeMap<String, ScriptedTopic>) -> TopicsScript {
    TopicsScript {
        topics,
        cluster: bits(&[CREATE, DESCRIBE]),
        metadata_max: 12,
        validates: true,
    }
}

/// sink.kafka.topics for `db` with the Kafka sink (transactional) on the broker at `port`.
fn check(db: &Db, port: u16, extra: &[&str]) -> CheckResult {
    let mut pairs = vec![
        "cdc.sink.type=kafka".to_string(),
        format!("cdc.sink.kafka.brokers=127.0.0.1:{port}"),
        "cdc.sink.kafka.transactional.id=tx1".to_string(),
        "cdc.sink.kafka.topic.partitions=3".to_string(),
        "cdc.sink.kafka.producer.request.timeout.ms=5000".to_string(),
    ];
    pairs.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = pairs.iter().map(String::as_str).collect();
    let r = run(
        &db.settings(&refs),
        &Selection {
            only: vec!["sink.kafka.topics".into()],
            skip: Vec::new(),
        },
    );
    get(&r, "sink.kafka.topics").clone()
}

/// Whatever the broker said: no CreateTopics without validate_only (nothing created), no
/// Produce, no InitProducerId (which would fence a running capture); Metadata never lets the
/// broker create a topic.
fn assert_nothing_written(log: &Log) -> Vec<String> {
    let seen = log.lock().unwrap().clone();
    for l in &seen {
        assert!(!l.starts_with("CREATED"), "{seen:#?}");
        assert!(!l.starts_with("unexpected"), "{seen:#?}");
        assert!(
            !l.starts_with("create-topics") || l.contains("validate_only=true"),
            "{seen:#?}"
        );
        assert!(
            !l.starts_with("metadata") || l.contains("auto-create=false"),
            "{seen:#?}"
        );
    }
    seen
}

#[test]
fn every_topic_writable_or_creatable_passes_and_counts_them() {
    let db = Db::healthy();
    let (port, log) = topics_broker(script(healthy_topics()));
    let c = check(&db, port, &[]);
    assert_eq!(c.severity, Severity::Pass, "{c:#?}");
    assert_eq!(
        c.found,
        "5 topic(s) capture writes: 4 exist, 1 will be created (validated)"
    );
    let seen = assert_nothing_written(&log);
    // One Metadata naming them all with their authorized operations, then capture's own
    // CreateTopics (its partitions, the cluster's replication factor) for DEPT alone.
    assert!(
        seen.iter()
            .any(|l| l.starts_with("metadata v10 topic-ops=true")
                && [EMP, DEPT, SCHEMA_CHANGES, OPS, OFFSETS]
                    .iter()
                    .all(|t| l.contains(&format!("\"{t}\"")))),
        "{seen:#?}"
    );
    let creates: Vec<&String> = seen
        .iter()
        .filter(|l| l.starts_with("create-topics"))
        .collect();
    assert_eq!(
        creates,
        vec![&format!(
            "create-topics v7 validate_only=true {DEPT} partitions=3 replication=-1"
        )],
        "{seen:#?}"
    );
}

#[test]
fn a_refused_creation_fails_naming_the_topic_the_error_and_the_grant() {
    let db = Db::healthy();
    for (code, name, remedy) in [
        (
            29,
            "TOPIC_AUTHORIZATION_FAILED (29)",
            format!("--operation Create --topic {DEPT}"),
        ),
        (
            31,
            "CLUSTER_AUTHORIZATION_FAILED (31)",
            "--operation Create --cluster".to_string(),
        ),
        (
            44,
            "POLICY_VIOLATION (44)",
            "kafka-topics --bootstrap-server 127.0.0.1:".to_string(),
        ),
    ] {
        let mut topics = healthy_topics();
        topics.insert(DEPT.into(), ScriptedTopic::Missing { create: code });
        let (port, log) = topics_broker(script(topics));
        let c = check(&db, port, &[]);
        assert_eq!(c.severity, Severity::Fail, "{c:#?}");
        assert!(
            c.found.contains(&format!(
                "{DEPT} (table HR.DEPT): does not exist, and creating it is refused: {name} (scripted refusal)"
            )),
            "{}",
            c.found
        );
        let fix = c.fix.clone().unwrap_or_default();
        assert!(fix.contains(&remedy), "{fix}");
        assert!(
            fix.contains(&format!("--create --topic {DEPT} --partitions 3")),
            "{fix}"
        );
        assert_eq!(c.objects, vec![DEPT.to_string()]);
        assert_nothing_written(&log);
    }
}

#[test]
fn an_existing_topic_without_write_or_the_offsets_topic_without_read_fails() {
    let db = Db::healthy();
    let mut topics = healthy_topics();
    topics.insert(
        EMP.into(),
        ScriptedTopic::Exists {
            operations: bits(&[READ, DESCRIBE]),
        },
    );
    topics.insert(
        OFFSETS.into(),
        ScriptedTopic::Exists {
            operations: bits(&[WRITE, DESCRIBE]),
        },
    );
    let (port, log) = topics_broker(script(topics));
    let c = check(&db, port, &[]);
    assert_eq!(c.severity, Severity::Fail, "{c:#?}");
    assert!(
        c.found
            .starts_with("2 of the 5 topic(s) capture writes cannot be written"),
        "{}",
        c.found
    );
    assert!(
        c.found.contains(&format!(
            "{EMP} (table HR.EMP): exists, but the principal is not authorized to WRITE"
        )),
        "{}",
        c.found
    );
    assert!(
        c.found.contains(&format!(
            "{OFFSETS} (offsets): exists, but the principal is not authorized to READ"
        )),
        "{}",
        c.found
    );
    let fix = c.fix.clone().unwrap_or_default();
    assert!(
        fix.contains(&format!(
            "kafka-acls --bootstrap-server 127.0.0.1:{port} --add --allow-principal User:PRINCIPAL --operation Write --topic {EMP}"
        )),
        "{fix}"
    );
    assert!(
        fix.contains(&format!("--operation Read --topic {OFFSETS}")),
        "{fix}"
    );
    assert_eq!(c.objects, vec![EMP.to_string(), OFFSETS.to_string()]);
    assert_nothing_written(&log);
}

/// A broker that does not report authorized operations (i32::MIN for the topics; for the
/// cluster i32::MIN, or tansu's -1, no bitfield Kafka writes) gets no CreateTopics at all, and
/// the PASS says what it did not check rather than vouching for the ACLs; an old broker
/// (Metadata v7) likewise, naming its version.
#[test]
fn operations_not_reported_are_said_and_no_creation_is_asked() {
    let db = Db::healthy();
    for (cluster, metadata_max, says) in [
        (
            i32::MIN,
            12,
            "the broker did not report the principal's authorized operations: WRITE on oracle-cdc.HR.EMP, oracle-cdc, oracle-cdc.ops, oracle-cdc.offsets was not checked",
        ),
        (
            -1,
            12,
            "the broker did not report the principal's authorized operations: WRITE on",
        ),
        (
            bits(&[CREATE]),
            7,
            "the broker's Metadata is v7, which has no authorized operations: WRITE on the 4 existing topic(s) was not checked",
        ),
    ] {
        let topics = healthy_topics()
            .into_iter()
            .map(|(n, t)| match t {
                ScriptedTopic::Exists { .. } => (
                    n,
                    ScriptedTopic::Exists {
                        operations: i32::MIN,
                    },
                ),
                other => (n, other),
            })
            .collect();
        let (port, log) = topics_broker(TopicsScript {
            topics,
            cluster,
            metadata_max,
            validates: true,
        });
        let c = check(&db, port, &[]);
        assert_eq!(c.severity, Severity::Pass, "{c:#?}");
        assert!(c.found.contains(says), "{}", c.found);
        assert!(
            c.found
                .contains(&format!("creating {DEPT} was not validated")),
            "{}",
            c.found
        );
        assert!(
            c.found.starts_with(
                "5 topic(s) capture writes: 4 exist, 0 will be created (validated), 1 missing (creation not validated);"
            ),
            "{}",
            c.found
        );
        let seen = assert_nothing_written(&log);
        assert!(
            !seen.iter().any(|l| l.starts_with("create-topics")),
            "{seen:#?}"
        );
    }
}

#[test]
fn a_topic_the_principal_may_not_describe_fails() {
    let db = Db::healthy();
    let mut topics = healthy_topics();
    topics.insert(OPS.into(), ScriptedTopic::Error(29));
    let (port, log) = topics_broker(script(topics));
    let c = check(&db, port, &[]);
    assert_eq!(c.severity, Severity::Fail, "{c:#?}");
    assert!(
        c.found.contains(&format!(
            "{OPS} (ops events): Metadata answers TOPIC_AUTHORIZATION_FAILED (29): the principal may not even describe it"
        )),
        "{}",
        c.found
    );
    assert!(
        c.fix
            .as_deref()
            .unwrap_or_default()
            .contains(&format!("--operation Write --topic {OPS}")),
        "{c:#?}"
    );
    assert_nothing_written(&log);
}

/// Without the database the captured tables are unknown: the fixed topics are checked and the
/// finding says the tables' were not. Without a transactional id there is no offsets topic; the
/// dead-letter topic is checked when a setting sends changes there.
#[test]
fn without_the_tables_only_the_fixed_topics_are_checked_and_that_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let (port, log) = topics_broker(script(healthy_topics()));
    let s = Settings::from_pairs(&[
        format!(
            "cdc.database.url=emulator:{}",
            dir.path().join("none").display()
        ),
        format!("cdc.state.dir={}", dir.path().join("state").display()),
        "cdc.sink.type=kafka".into(),
        format!("cdc.sink.kafka.brokers=127.0.0.1:{port}"),
        "cdc.on.decode.error=dlq".into(),
    ])
    .unwrap();
    let r = run(
        &s,
        &Selection {
            only: vec!["sink.kafka.topics".into()],
            skip: Vec::new(),
        },
    );
    let c = get(&r, "sink.kafka.topics");
    assert_eq!(c.severity, Severity::Pass, "{c:#?}");
    assert!(
        c.found.starts_with(
            "3 topic(s) capture writes: 2 exist, 1 will be created (validated); the captured tables' topics were not checked"
        ),
        "{}",
        c.found
    );
    let seen = assert_nothing_written(&log);
    assert!(
        seen.iter().any(|l| l.starts_with("metadata v10")
            && l.ends_with(&format!(
                "[\"{SCHEMA_CHANGES}\", \"{OPS}\", \"oracle-cdc.dlq\"]"
            ))),
        "{seen:#?}"
    );
}

/// A broker that reports authorized operations but creates what it was asked only to validate:
/// the finding says it did (a second Metadata sees the topic), rather than counting the topic
/// as one capture will create.
#[test]
fn a_broker_that_creates_on_validate_only_is_named() {
    let db = Db::healthy();
    let (port, log) = topics_broker(TopicsScript {
        validates: false,
        ..script(healthy_topics())
    });
    let c = check(&db, port, &[]);
    assert_eq!(c.severity, Severity::Pass, "{c:#?}");
    assert_eq!(
        c.found,
        format!(
            "5 topic(s) capture writes: 4 exist, 0 will be created (validated); the broker created {DEPT} although asked only to validate its creation (it ignores CreateTopics' validate_only)"
        )
    );
    let seen = log.lock().unwrap().clone();
    assert!(
        seen.contains(&format!(
            "create-topics v7 validate_only=true {DEPT} partitions=3 replication=-1"
        )),
        "{seen:#?}"
    );
}
