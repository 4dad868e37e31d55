//! The transactional producer against a scripted in-process broker (no broker on the test
//! machines supports EndTxn): the requests it sends, in order, and what they carry.

use super::producer::{Producer, Rec};
use bytes::{Buf, BufMut, Bytes, BytesMut};
use kafka_protocol::messages::*;
use kafka_protocol::protocol::{decode_request_header_from_buffer, Decodable, Encodable, StrBytes};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

pub(crate) type Log = Arc<Mutex<Vec<String>>>;

/// What the scripted broker's offsets topic holds: one committed record, if any.
type Served = Arc<Mutex<Option<String>>>;

/// A committed transactional record (offset 0) and its COMMIT marker (offset 1).
fn committed_batch(value: &str) -> Bytes {
    use kafka_protocol::records::*;
    let base = Record {
        transactional: true,
        control: false,
        delete_horizon: false,
        partition_leader_epoch: -1,
        producer_id: 42,
        producer_epoch: 3,
        timestamp_type: TimestampType::Creation,
        offset: 0,
        sequence: 0,
        timestamp: 1,
        key: None,
        value: Some(Bytes::from(value.to_string())),
        headers: Default::default(),
    };
    let marker = Record {
        control: true,
        offset: 1,
        sequence: 1,
        key: Some(Bytes::from_static(&[0, 0, 0, 1])),
        value: Some(Bytes::from_static(&[0, 0, 0, 0, 0, 0])),
        ..base.clone()
    };
    let mut buf = BytesMut::new();
    let opts = RecordEncodeOptions {
        version: 2,
        compression: Compression::None,
    };
    RecordBatchEncoder::encode(&mut buf, [base, marker].iter(), &opts).unwrap();
    buf.freeze()
}

fn respond<R: Encodable>(out: &mut impl Write, key: ApiKey, v: i16, corr: i32, resp: R) {
    let mut body = BytesMut::new();
    ResponseHeader::default()
        .with_correlation_id(corr)
        .encode(&mut body, key.response_header_version(v))
        .unwrap();
    resp.encode(&mut body, v).unwrap();
    let mut frame = BytesMut::new();
    frame.put_i32(body.len() as i32);
    frame.put_slice(&body);
    out.write_all(&frame).unwrap();
}

/// What the scripted broker requires before any request but ApiVersions: SASL with one
/// mechanism, for one user.
#[derive(Clone)]
struct SaslScript {
    mechanism: super::sasl::Mechanism,
    user: String,
    password: String,
    /// SCRAM: the broker signs its final message wrongly (it does not know the password).
    forge: bool,
}

/// One connection's SASL state on the scripted broker.
enum SaslState {
    /// Waiting for SaslHandshake (or not required: `None` script).
    Start,
    Plain,
    Scram(super::sasl::tests::ScramServer),
    Done,
}

fn serve(s: impl Read + Write, port: u16, log: Log, served: Served) {
    serve_sasl(s, port, log, served, None)
}

fn serve_sasl(
    mut s: impl Read + Write,
    port: u16,
    log: Log,
    served: Served,
    sasl: Option<SaslScript>,
) {
    let mut state = match sasl {
        Some(_) => SaslState::Start,
        None => SaslState::Done,
    };
    loop {
        let mut len = [0u8; 4];
        if s.read_exact(&mut len).is_err() {
            return;
        }
        let mut buf = vec![0u8; i32::from_be_bytes(len) as usize];
        s.read_exact(&mut buf).unwrap();
        let mut b = Bytes::from(buf);
        let h = decode_request_header_from_buffer(&mut b).unwrap();
        let key = ApiKey::try_from(h.request_api_key).unwrap();
        let (v, corr) = (h.request_api_version, h.correlation_id);
        let authenticating = matches!(
            key,
            ApiKey::ApiVersions | ApiKey::SaslHandshake | ApiKey::SaslAuthenticate
        );
        if !authenticating && !matches!(state, SaslState::Done) {
            // A Kafka broker with a SASL listener closes such a connection.
            log.lock().unwrap().push(format!("unauthenticated {key:?}"));
            return;
        }
        match key {
            ApiKey::SaslHandshake => {
                let r = SaslHandshakeRequest::decode(&mut b, v).unwrap();
                let script = sasl.clone().expect("SASL on a broker without it");
                let enabled = script.mechanism.name();
                let resp = if r.mechanism.as_str() == enabled {
                    state = match script.mechanism {
                        super::sasl::Mechanism::Plain => SaslState::Plain,
                        m => {
                            let mut server =
                                super::sasl::tests::ScramServer::new(m, &script.password);
                            server.forge = script.forge;
                            SaslState::Scram(server)
                        }
                    };
                    SaslHandshakeResponse::default()
                } else {
                    SaslHandshakeResponse::default()
                        .with_error_code(super::sasl::UNSUPPORTED_SASL_MECHANISM)
                };
                log.lock()
                    .unwrap()
                    .push(format!("sasl-handshake v{v} {}", r.mechanism.as_str()));
                respond(
                    &mut s,
                    key,
                    v,
                    corr,
                    resp.with_mechanisms(vec![StrBytes::from_static_str(enabled)]),
                );
            }
            ApiKey::SaslAuthenticate => {
                let r = SaslAuthenticateRequest::decode(&mut b, v).unwrap();
                let script = sasl.clone().expect("SASL on a broker without it");
                let failed = || {
                    SaslAuthenticateResponse::default()
                        .with_error_code(super::sasl::SASL_AUTHENTICATION_FAILED)
                        .with_error_message(Some(StrBytes::from_static_str(
                            "Authentication failed: Invalid username or password",
                        )))
                };
                let resp = match &mut state {
                    SaslState::Plain => {
                        let expected = super::sasl::plain_message(&script.user, &script.password);
                        if r.auth_bytes.as_ref() == expected.as_slice() {
                            state = SaslState::Done;
                            log.lock()
                                .unwrap()
                                .push(format!("authenticated {}", script.user));
                            SaslAuthenticateResponse::default()
                        } else {
                            failed()
                        }
                    }
                    SaslState::Scram(server) => match server.step(&r.auth_bytes) {
                        Ok(answer) => {
                            if answer.starts_with(b"v=") {
                                state = SaslState::Done;
                                log.lock()
                                    .unwrap()
                                    .push(format!("authenticated {}", script.user));
                            }
                            SaslAuthenticateResponse::default().with_auth_bytes(answer.into())
                        }
                        Err(_) => failed(),
                    },
                    _ => SaslAuthenticateResponse::default()
                        .with_error_code(super::sasl::ILLEGAL_SASL_STATE),
                };
                respond(&mut s, key, v, corr, resp);
            }
            ApiKey::ApiVersions => {
                let keys = [0i16, 1, 2, 3, 10, 19, 22, 24, 26, 17, 36]
                    .iter()
                    .map(|k| {
                        api_versions_response::ApiVersion::default()
                            .with_api_key(*k)
                            .with_max_version(match k {
                                17 => 1,
                                36 => 2,
                                _ => 12,
                            })
                    })
                    .collect();
                respond(
                    &mut s,
                    key,
                    v,
                    corr,
                    ApiVersionsResponse::default().with_api_keys(keys),
                );
            }
            ApiKey::FindCoordinator => {
                let r = FindCoordinatorRequest::decode(&mut b, v).unwrap();
                log.lock()
                    .unwrap()
                    .push(format!("find-coordinator {}", r.key.as_str()));
                respond(
                    &mut s,
                    key,
                    v,
                    corr,
                    FindCoordinatorResponse::default()
                        .with_node_id(BrokerId(1))
                        .with_host(StrBytes::from_static_str("127.0.0.1"))
                        .with_port(port as i32),
                );
            }
            ApiKey::InitProducerId => {
                let r = InitProducerIdRequest::decode(&mut b, v).unwrap();
                log.lock().unwrap().push(format!(
                    "init-producer-id {}",
                    r.transactional_id
                        .map(|t| t.0.to_string())
                        .unwrap_or_default()
                ));
                respond(
                    &mut s,
                    key,
                    v,
                    corr,
                    InitProducerIdResponse::default()
                        .with_producer_id(ProducerId(42))
                        .with_producer_epoch(3),
                );
            }
            ApiKey::Metadata => {
                let r = MetadataRequest::decode(&mut b, v).unwrap();
                let topics = r
                    .topics
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(|t| t.name)
                    .map(|n| {
                        metadata_response::MetadataResponseTopic::default()
                            .with_name(Some(n))
                            .with_partitions(vec![
                                metadata_response::MetadataResponsePartition::default()
                                    .with_leader_id(BrokerId(1)),
                            ])
                    })
                    .collect();
                let broker = metadata_response::MetadataResponseBroker::default()
                    .with_node_id(BrokerId(1))
                    .with_host(StrBytes::from_static_str("127.0.0.1"))
                    .with_port(port as i32);
                respond(
                    &mut s,
                    key,
                    v,
                    corr,
                    MetadataResponse::default()
                        .with_brokers(vec![broker])
                        .with_topics(topics),
                );
            }
            ApiKey::AddPartitionsToTxn => {
                let r = AddPartitionsToTxnRequest::decode(&mut b, v).unwrap();
                let mut results = Vec::new();
                for t in &r.v3_and_below_topics {
                    log.lock().unwrap().push(format!(
                        "add-partitions {} {} {:?}",
                        r.v3_and_below_transactional_id.0.as_str(),
                        t.name.0.as_str(),
                        t.partitions
                    ));
                    results.push(
                        add_partitions_to_txn_response::AddPartitionsToTxnTopicResult::default()
                            .with_name(t.name.clone())
                            .with_results_by_partition(
                                t.partitions
                                    .iter()
                                    .map(|p| {
                                        add_partitions_to_txn_response::AddPartitionsToTxnPartitionResult::default()
                                            .with_partition_index(*p)
                                    })
                                    .collect(),
                            ),
                    );
                }
                respond(
                    &mut s,
                    key,
                    v,
                    corr,
                    AddPartitionsToTxnResponse::default()
                        .with_results_by_topic_v3_and_below(results),
                );
            }
            ApiKey::Produce => {
                let r = ProduceRequest::decode(&mut b, v).unwrap();
                let mut responses = Vec::new();
                for t in r.topic_data {
                    let mut parts = Vec::new();
                    for p in t.partition_data {
                        let mut recs = p.records.unwrap();
                        let info = kafka_protocol::records::RecordBatchDecoder::decode_batch_info(
                            &mut recs.clone(),
                        )
                        .unwrap();
                        let set =
                            kafka_protocol::records::RecordBatchDecoder::decode(&mut recs).unwrap();
                        let values: Vec<String> = set
                            .records
                            .iter()
                            .map(|r| String::from_utf8_lossy(r.value.as_ref().unwrap()).into())
                            .collect();
                        log.lock().unwrap().push(format!(
                            "produce {} txn={:?} acks={} pid={} epoch={} seq={} transactional={} {:?}",
                            t.name.0.as_str(),
                            r.transactional_id.as_ref().map(|x| x.0.to_string()),
                            r.acks,
                            info[0].producer_id,
                            info[0].producer_epoch,
                            info[0].base_sequence,
                            info[0].transactional,
                            values
                        ));
                        parts.push(
                            produce_response::PartitionProduceResponse::default()
                                .with_index(p.index),
                        );
                    }
                    responses.push(
                        produce_response::TopicProduceResponse::default()
                            .with_name(t.name)
                            .with_partition_responses(parts),
                    );
                }
                respond(
                    &mut s,
                    key,
                    v,
                    corr,
                    ProduceResponse::default().with_responses(responses),
                );
            }
            ApiKey::Fetch => {
                let r = FetchRequest::decode(&mut b, v).unwrap();
                let responses = r
                    .topics
                    .into_iter()
                    .map(|t| {
                        let doc = served.lock().unwrap().clone();
                        let part = match doc {
                            Some(d) if t.topic.0.as_str().ends_with(".offsets") => {
                                let from = t.partitions[0].fetch_offset;
                                fetch_response::PartitionData::default()
                                    .with_high_watermark(2)
                                    .with_last_stable_offset(2)
                                    .with_records((from == 0).then(|| committed_batch(&d)))
                            }
                            _ => fetch_response::PartitionData::default(),
                        };
                        fetch_response::FetchableTopicResponse::default()
                            .with_topic(t.topic)
                            .with_partitions(vec![part])
                    })
                    .collect();
                respond(
                    &mut s,
                    key,
                    v,
                    corr,
                    FetchResponse::default().with_responses(responses),
                );
            }
            ApiKey::EndTxn => {
                let r = EndTxnRequest::decode(&mut b, v).unwrap();
                log.lock().unwrap().push(format!(
                    "end-txn {} pid={} epoch={} committed={}",
                    r.transactional_id.0.as_str(),
                    r.producer_id.0,
                    r.producer_epoch,
                    r.committed
                ));
                respond(&mut s, key, v, corr, EndTxnResponse::default());
            }
            other => panic!("unexpected {other:?}"),
        }
        assert!(!b.has_remaining() || key == ApiKey::ApiVersions);
    }
}

fn broker() -> (u16, Log) {
    let (port, log, _) = broker_serving(None);
    (port, log)
}

fn broker_serving(doc: Option<String>) -> (u16, Log, Served) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let log: Log = Arc::default();
    let served: Served = Arc::new(Mutex::new(doc));
    let (log2, served2) = (log.clone(), served.clone());
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            let (log, served) = (log2.clone(), served2.clone());
            std::thread::spawn(move || serve(s, port, log, served));
        }
    });
    (port, log, served)
}

/// The scripted broker behind TLS, with the test server certificate (for `localhost` and
/// 127.0.0.1, signed by tests/all/tls/ca.pem).
fn tls_broker() -> (u16, Log) {
    tls_broker_with(None)
}

/// [`tls_broker`], requiring SASL inside TLS as `sasl` says.
fn tls_broker_with(sasl: Option<SaslScript>) -> (u16, Log) {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/all/tls");
    let chain = CertificateDer::pem_file_iter(dir.join("server.pem"))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_file(dir.join("server.key")).unwrap();
    let config = Arc::new(
        rustls::ServerConfig::builder()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .unwrap(),
    );
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let log: Log = Arc::default();
    let log2 = log.clone();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            let (log, config, sasl) = (log2.clone(), config.clone(), sasl.clone());
            std::thread::spawn(move || {
                let conn = rustls::ServerConnection::new(config).unwrap();
                let tls = rustls::StreamOwned::new(conn, s);
                serve_sasl(tls, port, log, Arc::default(), sasl)
            });
        }
    });
    (port, log)
}

fn tls_ca() -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/all/tls/ca.pem")
        .display()
        .to_string()
}

/// cdc.sink.kafka.security.protocol=SSL: every request goes over TLS to a broker whose
/// certificate the CA file vouches for, the advertised node (127.0.0.1, an IP address in the
/// certificate) too; the transaction is the same as over TCP. Without the CA file the
/// certificate is not trusted (the Mozilla roots do not hold the test CA): CDC-6207 at once,
/// not retried.
#[test]
fn over_tls_the_producer_runs_its_transaction_and_an_untrusted_broker_is_cdc_6207() {
    let (port, log) = tls_broker();
    let settings = |extra: &[String]| {
        let mut pairs = vec!["cdc.sink.kafka.security.protocol=ssl".to_string()];
        pairs.extend(extra.iter().cloned());
        broker_settings(port, &pairs)
    };
    let s = settings(&[format!("cdc.sink.kafka.ssl.ca.location={}", tls_ca())]);
    let mut p = Producer::connect(&s.sink.kafka).unwrap();
    p.send("a", rec("1")).unwrap();
    p.commit_transaction().unwrap();
    assert_eq!(
        log.lock().unwrap().clone(),
        vec![
            "find-coordinator tx1",
            "init-producer-id tx1",
            "add-partitions tx1 a [0]",
            "produce a txn=Some(\"tx1\") acks=-1 pid=42 epoch=3 seq=0 transactional=true [\"1\"]",
            "end-txn tx1 pid=42 epoch=3 committed=true",
        ]
    );

    let s = settings(&[]);
    let e = Producer::connect(&s.sink.kafka).err().expect("refused");
    assert_eq!(e.code(), crate::errors::Code::Cdc6207, "{e}");
    assert!(e.to_string().contains(&format!("localhost:{port}")), "{e}");
    assert!(e.to_string().contains("UnknownIssuer"), "{e}");
}

/// The TLS settings are checked at load: a CA file that cannot be read or holds no
/// certificate, or a CA file with PLAINTEXT, is CDC-6201 naming the key.
#[test]
fn kafka_tls_settings_are_checked_at_load() {
    let load = |extra: &[&str]| {
        let mut pairs = vec![
            "cdc.sink.type=kafka".to_string(),
            "cdc.sink.kafka.brokers=localhost:9092".to_string(),
        ];
        pairs.extend(extra.iter().map(|s| s.to_string()));
        crate::settings::Settings::from_pairs(&pairs)
            .err()
            .map(|e| (e.code(), e.to_string()))
    };
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.pem");
    std::fs::write(&empty, "not a certificate\n").unwrap();
    for (extra, code, says) in [
        (
            vec![
                "cdc.sink.kafka.security.protocol=SSL".to_string(),
                format!(
                    "cdc.sink.kafka.ssl.ca.location={}",
                    dir.path().join("gone.pem").display()
                ),
            ],
            crate::errors::Code::Cdc6201,
            "cannot be read",
        ),
        (
            vec![
                "cdc.sink.kafka.security.protocol=SSL".to_string(),
                format!("cdc.sink.kafka.ssl.ca.location={}", empty.display()),
            ],
            crate::errors::Code::Cdc6201,
            "holds no PEM certificate",
        ),
        (
            vec![format!("cdc.sink.kafka.ssl.ca.location={}", tls_ca())],
            crate::errors::Code::Cdc6201,
            "is PLAINTEXT",
        ),
        (
            vec!["cdc.sink.kafka.security.protocol=TLS".to_string()],
            crate::errors::Code::Cdc1002,
            "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL",
        ),
    ] {
        let refs: Vec<&str> = extra.iter().map(String::as_str).collect();
        let (got, message) = load(&refs).expect("refused");
        assert_eq!(got, code, "{message}");
        assert!(message.contains(says), "{message}");
    }
    assert_eq!(load(&["cdc.sink.kafka.security.protocol=SSL"]), None);
    // In any case, as Kafka's clients read it (librdkafka's documentation writes `ssl`).
    assert_eq!(load(&["cdc.sink.kafka.security.protocol=ssl"]), None);
}

/// The scripted broker requiring SASL as `script` says on every connection.
fn sasl_broker(script: SaslScript) -> (u16, Log) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let log: Log = Arc::default();
    let log2 = log.clone();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            let (log, script) = (log2.clone(), script.clone());
            std::thread::spawn(move || serve_sasl(s, port, log, Arc::default(), Some(script)));
        }
    });
    (port, log)
}

/// The Kafka sink's settings for the scripted broker on `port` (transactional id `tx1`), with
/// `pairs` added.
fn broker_settings(port: u16, pairs: &[String]) -> crate::settings::Settings {
    let mut all = vec![
        "cdc.sink.type=kafka".to_string(),
        format!("cdc.sink.kafka.brokers=localhost:{port}"),
        "cdc.sink.kafka.transactional.id=tx1".to_string(),
    ];
    all.extend(pairs.iter().cloned());
    crate::settings::Settings::from_pairs(&all).unwrap()
}

fn sasl_settings(port: u16, mechanism: &str, password: &str) -> crate::settings::Settings {
    broker_settings(
        port,
        &[
            "cdc.sink.kafka.security.protocol=sasl_plaintext".to_string(),
            format!("cdc.sink.kafka.sasl.mechanism={mechanism}"),
            "cdc.sink.kafka.sasl.username=alice".to_string(),
            format!("cdc.sink.kafka.sasl.password={password}"),
        ],
    )
}

/// cdc.sink.kafka.security.protocol=SASL_PLAINTEXT: each connection (the bootstrap one and the
/// coordinator's and leader's, advertised as 127.0.0.1) authenticates with SaslHandshake v1 and
/// SaslAuthenticate before its first request (the scripted broker closes a connection that
/// does not), with PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 alike; then the transaction is the
/// same as without SASL.
#[test]
fn over_sasl_the_producer_authenticates_every_connection_then_runs_its_transaction() {
    use super::sasl::Mechanism;
    for mechanism in [
        Mechanism::Plain,
        Mechanism::ScramSha256,
        Mechanism::ScramSha512,
    ] {
        let (port, log) = sasl_broker(SaslScript {
            mechanism,
            user: "alice".into(),
            password: "pa,ss=word".into(),
            forge: false,
        });
        let s = sasl_settings(port, &mechanism.name().to_lowercase(), "pa,ss=word");
        let mut p = Producer::connect(&s.sink.kafka).unwrap();
        p.send("a", rec("1")).unwrap();
        p.commit_transaction().unwrap();
        let log = log.lock().unwrap().clone();
        let (auth, rest): (Vec<&str>, Vec<&str>) = log
            .iter()
            .map(String::as_str)
            .partition(|l| l.starts_with("sasl-") || l.starts_with("authenticated"));
        assert_eq!(
            rest,
            vec![
                "find-coordinator tx1",
                "init-producer-id tx1",
                "add-partitions tx1 a [0]",
                "produce a txn=Some(\"tx1\") acks=-1 pid=42 epoch=3 seq=0 transactional=true [\"1\"]",
                "end-txn tx1 pid=42 epoch=3 committed=true",
            ],
            "{mechanism:?}"
        );
        // The bootstrap connection and at least one to the advertised node, each authenticated.
        let connections = auth.len() / 2;
        assert!(connections >= 2, "{mechanism:?}: {auth:?}");
        for pair in auth.chunks(2) {
            assert_eq!(
                pair,
                [
                    format!("sasl-handshake v1 {}", mechanism.name()).as_str(),
                    "authenticated alice"
                ],
                "{mechanism:?}: {auth:?}"
            );
        }
    }
}

/// The Kafka sink over SASL: its start (the offsets topic read back by the consumer, then the
/// producer) authenticates every connection too, and a commit runs.
#[test]
fn the_sink_reads_its_offsets_and_commits_over_sasl() {
    use crate::sink::RecordSink;
    let (port, log) = sasl_broker(SaslScript {
        mechanism: super::sasl::Mechanism::ScramSha256,
        user: "alice".into(),
        password: "hunter2".into(),
        forge: false,
    });
    let dir = tempfile::tempdir().unwrap();
    let s = sasl_settings(port, "SCRAM-SHA-256", "hunter2");
    let mut sink = crate::sink::KafkaSink::open(
        &s,
        &dir.path().join("offsets.json"),
        &dir.path().join("ops.jsonl"),
    )
    .unwrap();
    sink.write(&crate::record::Record {
        topic: "t",
        key: Some(br#"{"ID":1}"#),
        value: Some(br#"{"n":1}"#),
        headers: Default::default(),
    })
    .unwrap();
    sink.commit().unwrap();
    let log = log.lock().unwrap().clone();
    assert!(
        !log.iter().any(|l| l.starts_with("unauthenticated")),
        "{log:#?}"
    );
    assert!(log.iter().any(|l| l.starts_with("produce t ")), "{log:#?}");
    assert!(
        log.iter()
            .filter(|l| l.as_str() == "authenticated alice")
            .count()
            >= 2,
        "{log:#?}"
    );
}

/// SASL_SSL: TLS first (the CA file trusted), then SCRAM-SHA-512 inside it on every connection;
/// the transaction runs. Without the CA file it is the TLS failure (CDC-6207), before any SASL.
#[test]
fn over_sasl_ssl_scram_runs_inside_tls() {
    let (port, log) = tls_broker_with(Some(SaslScript {
        mechanism: super::sasl::Mechanism::ScramSha512,
        user: "alice".into(),
        password: "hunter2".into(),
        forge: false,
    }));
    let settings = |extra: &[String]| {
        let mut pairs: Vec<String> = [
            "cdc.sink.kafka.security.protocol=SASL_SSL",
            "cdc.sink.kafka.sasl.mechanism=SCRAM-SHA-512",
            "cdc.sink.kafka.sasl.username=alice",
            "cdc.sink.kafka.sasl.password=hunter2",
        ]
        .map(String::from)
        .to_vec();
        pairs.extend(extra.iter().cloned());
        broker_settings(port, &pairs)
    };
    let s = settings(&[format!("cdc.sink.kafka.ssl.ca.location={}", tls_ca())]);
    let mut p = Producer::connect(&s.sink.kafka).unwrap();
    p.send("a", rec("1")).unwrap();
    p.commit_transaction().unwrap();
    let got = log.lock().unwrap().clone();
    assert!(
        got.starts_with(&[
            "sasl-handshake v1 SCRAM-SHA-512".to_string(),
            "authenticated alice".to_string(),
            "find-coordinator tx1".to_string(),
        ]),
        "{got:?}"
    );
    assert_eq!(
        got.last().map(String::as_str),
        Some("end-txn tx1 pid=42 epoch=3 committed=true"),
        "{got:?}"
    );
    assert!(
        !got.iter().any(|l| l.starts_with("unauthenticated")),
        "{got:?}"
    );
    log.lock().unwrap().clear();
    let e = Producer::connect(&settings(&[]).sink.kafka)
        .err()
        .expect("refused");
    assert_eq!(e.code(), crate::errors::Code::Cdc6207, "{e}");
    assert!(log.lock().unwrap().is_empty());
}

/// A refused authentication is CDC-6208 at once (not retried for the delivery timeout), naming
/// the broker and mechanism and never the password: a wrong password (PLAIN and SCRAM), a
/// mechanism the broker does not enable (with the ones it offers), and a SCRAM broker whose
/// final signature is wrong (it does not know the password: the client refuses it).
/// `doctor`'s probe of the Kafka sink (check sink.kafka): over SASL it authenticates, lists the
/// cluster's brokers and finds the transactional id's coordinator, and asks for no producer id,
/// which would fence a capture running with that id; a wrong password is CDC-6208.
#[test]
fn the_probe_lists_brokers_and_the_coordinator_without_a_producer_id() {
    use super::sasl::Mechanism;
    let (port, log) = sasl_broker(SaslScript {
        mechanism: Mechanism::ScramSha256,
        user: "alice".into(),
        password: "hunter2".into(),
        forge: false,
    });
    let s = sasl_settings(port, "SCRAM-SHA-256", "hunter2");
    let p = super::probe::probe(&s.sink.kafka, &[]).unwrap();
    assert_eq!(p.answered, format!("localhost:{port}"));
    assert_eq!(p.brokers, vec![format!("127.0.0.1:{port}")]);
    assert_eq!(p.coordinator, Some(format!("127.0.0.1:{port}")));
    let seen = log.lock().unwrap().clone();
    assert!(seen.iter().any(|l| l == "authenticated alice"), "{seen:?}");
    assert!(seen.iter().any(|l| l == "find-coordinator tx1"), "{seen:?}");
    assert!(
        !seen.iter().any(|l| l.starts_with("init-producer-id")),
        "{seen:?}"
    );
    let wrong = sasl_settings(port, "SCRAM-SHA-256", "hunter3");
    let e = super::probe::probe(&wrong.sink.kafka, &[])
        .unwrap_err()
        .into_cdc();
    assert_eq!(e.code(), crate::errors::Code::Cdc6208, "{e}");
    assert!(!e.to_string().contains("hunter3"), "{e}");
}

#[test]
fn a_refused_sasl_authentication_is_cdc_6208_at_once() {
    use super::sasl::Mechanism;
    for (enabled, asked, password, forge, says) in [
        (
            Mechanism::Plain,
            "PLAIN",
            "hunter2-wrong",
            false,
            "SASL_AUTHENTICATION_FAILED (58)",
        ),
        (
            Mechanism::ScramSha256,
            "SCRAM-SHA-256",
            "hunter2-wrong",
            false,
            "SASL_AUTHENTICATION_FAILED (58)",
        ),
        (
            Mechanism::ScramSha256,
            "PLAIN",
            "hunter2",
            false,
            "it offers: SCRAM-SHA-256",
        ),
        (
            Mechanism::ScramSha256,
            "SCRAM-SHA-256",
            "hunter2",
            true,
            "server signature is wrong",
        ),
    ] {
        let (port, log) = sasl_broker(SaslScript {
            mechanism: enabled,
            user: "alice".into(),
            password: "hunter2".into(),
            forge,
        });
        let s = sasl_settings(port, asked, password);
        let started = std::time::Instant::now();
        let e = Producer::connect(&s.sink.kafka).err().expect("refused");
        let msg = e.to_string();
        assert_eq!(e.code(), crate::errors::Code::Cdc6208, "{msg}");
        // At once: the delivery timeout (120 s by default) is not waited out.
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "{msg}"
        );
        assert!(msg.contains(&format!("localhost:{port}")), "{msg}");
        assert!(msg.contains(&format!("SASL {asked}")), "{msg}");
        assert!(msg.contains(says), "{msg}");
        assert!(!msg.contains("hunter2"), "{msg}");
        assert!(!format!("{e:?}").contains("hunter2"), "{e:?}");
        // One connection tried, nothing sent past the authentication.
        let log = log.lock().unwrap().clone();
        assert_eq!(
            log.iter()
                .filter(|l| l.starts_with("sasl-handshake"))
                .count(),
            1,
            "{log:?}"
        );
        assert!(
            // (The forging broker accepted the client's proof; the client refused it.)
            !log.iter()
                .any(|l| (!forge && l.starts_with("authenticated"))
                    || l.starts_with("unauthenticated")
                    || l.starts_with("find-coordinator")),
            "{log:?}"
        );
    }
}

/// The SASL settings are checked at load (CDC-6201 naming the key): a SASL protocol needs the
/// mechanism, user and password; an unsupported mechanism is named with the supported ones; a
/// SASL key with a protocol that does not authenticate is refused. The password is never in
/// the message nor in the settings' Debug.
#[test]
fn kafka_sasl_settings_are_checked_at_load() {
    let load = |extra: &[&str]| {
        let mut pairs = vec![
            "cdc.sink.type=kafka".to_string(),
            "cdc.sink.kafka.brokers=localhost:9092".to_string(),
        ];
        pairs.extend(extra.iter().map(|s| s.to_string()));
        crate::settings::Settings::from_pairs(&pairs)
    };
    let refused = |extra: &[&str], says: &str| {
        let e = load(extra).expect_err("refused");
        let msg = e.to_string();
        assert_eq!(e.code(), crate::errors::Code::Cdc6201, "{msg}");
        assert!(msg.contains(says), "{msg}");
        assert!(!msg.contains("hunter2"), "{msg}");
    };
    let full = [
        "cdc.sink.kafka.security.protocol=SASL_SSL",
        "cdc.sink.kafka.sasl.mechanism=scram-sha-512",
        "cdc.sink.kafka.sasl.username=alice",
        "cdc.sink.kafka.sasl.password=hunter2",
    ];
    let s = load(&full).unwrap();
    let k = &s.sink.kafka;
    assert!(k.tls.is_some());
    let sasl = k.sasl.as_ref().unwrap();
    assert_eq!(sasl.mechanism, super::sasl::Mechanism::ScramSha512);
    assert_eq!(sasl.username, "alice");
    assert_eq!(sasl.password.expose(), "hunter2");
    assert!(!format!("{s:?}").contains("hunter2"));
    assert!(!format!("{k:?}").contains("hunter2"));
    let plaintext = load(&[
        "cdc.sink.kafka.security.protocol=sasl_plaintext",
        "cdc.sink.kafka.sasl.mechanism=PLAIN",
        "cdc.sink.kafka.sasl.username=alice",
        "cdc.sink.kafka.sasl.password=hunter2",
    ])
    .unwrap();
    assert!(plaintext.sink.kafka.tls.is_none());
    assert_eq!(
        plaintext.sink.kafka.sasl.as_ref().unwrap().mechanism,
        super::sasl::Mechanism::Plain
    );
    for (left_out, says) in [
        (1, "needs `cdc.sink.kafka.sasl.mechanism`"),
        (2, "needs `cdc.sink.kafka.sasl.username`"),
        (3, "needs `cdc.sink.kafka.sasl.password`"),
    ] {
        let mut pairs = full.to_vec();
        pairs.remove(left_out);
        refused(&pairs, says);
    }
    for mechanism in ["GSSAPI", "OAUTHBEARER", "scram-sha-1"] {
        let m = format!("cdc.sink.kafka.sasl.mechanism={mechanism}");
        let mut pairs = full.to_vec();
        pairs[1] = &m;
        refused(&pairs, "PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512");
        refused(&pairs, "cdc.sink.kafka.sasl.mechanism");
    }
    refused(
        &["cdc.sink.kafka.sasl.password=hunter2"],
        "`cdc.sink.kafka.sasl.password` is set but `cdc.sink.kafka.security.protocol` is PLAINTEXT",
    );
    refused(
        &[
            "cdc.sink.kafka.security.protocol=SSL",
            "cdc.sink.kafka.sasl.username=alice",
            "cdc.sink.kafka.sasl.mechanism=PLAIN",
        ],
        "`cdc.sink.kafka.sasl.mechanism`, `cdc.sink.kafka.sasl.username` is set but",
    );
    refused(
        &[
            "cdc.sink.kafka.security.protocol=SASL_PLAINTEXT",
            "cdc.sink.kafka.ssl.ca.location=/x.pem",
        ],
        "set it to SASL_SSL",
    );
    // The password from the environment, as cdc.database.password reads it.
    std::env::set_var("ORACLE_CDC_TEST_KAFKA_SASL_PW", "from-env");
    let mut pairs = full.to_vec();
    pairs[3] = "cdc.sink.kafka.sasl.password=${env:ORACLE_CDC_TEST_KAFKA_SASL_PW}";
    let s = load(&pairs).unwrap();
    assert_eq!(
        s.sink.kafka.sasl.as_ref().unwrap().password.expose(),
        "from-env"
    );
}

fn rec(v: &str) -> Rec {
    Rec {
        key: Some(Bytes::from_static(b"{\"ID\":1}")),
        value: Some(Bytes::from(v.to_string())),
        headers: Vec::new(),
        timestamp: 1,
    }
}

#[test]
fn a_transaction_adds_its_partitions_produces_with_sequences_then_commits() {
    let (port, log) = broker();
    let s = crate::settings::Settings::from_pairs(&[
        "cdc.sink.type=kafka".to_string(),
        format!("cdc.sink.kafka.brokers=127.0.0.1:{port}"),
        "cdc.sink.kafka.transactional.id=tx1".to_string(),
    ])
    .unwrap();
    let mut p = Producer::connect(&s.sink.kafka).unwrap();
    p.send("a", rec("1")).unwrap();
    p.send("a", rec("2")).unwrap();
    p.flush().unwrap();
    p.send("b", rec("3")).unwrap();
    p.commit_transaction().unwrap();
    // A second transaction: partitions are added again, sequences go on.
    p.send("a", rec("4")).unwrap();
    p.commit_transaction().unwrap();
    // Nothing written: no transaction to end.
    p.commit_transaction().unwrap();
    let log = log.lock().unwrap().clone();
    assert_eq!(
        log,
        vec![
            "find-coordinator tx1",
            "init-producer-id tx1",
            "add-partitions tx1 a [0]",
            "produce a txn=Some(\"tx1\") acks=-1 pid=42 epoch=3 seq=0 transactional=true [\"1\", \"2\"]",
            "add-partitions tx1 b [0]",
            "produce b txn=Some(\"tx1\") acks=-1 pid=42 epoch=3 seq=0 transactional=true [\"3\"]",
            "end-txn tx1 pid=42 epoch=3 committed=true",
            "add-partitions tx1 a [0]",
            "produce a txn=Some(\"tx1\") acks=-1 pid=42 epoch=3 seq=2 transactional=true [\"4\"]",
            "end-txn tx1 pid=42 epoch=3 committed=true",
        ]
    );
}

#[test]
fn the_sink_commits_records_and_the_offsets_document_in_one_transaction() {
    use crate::sink::RecordSink;
    let (port, log) = broker();
    let dir = tempfile::tempdir().unwrap();
    let offsets_path = dir.path().join("offsets.json");
    let s = crate::settings::Settings::from_pairs(&[
        "cdc.sink.type=kafka".to_string(),
        format!("cdc.sink.kafka.brokers=127.0.0.1:{port}"),
        "cdc.sink.kafka.transactional.id=tx2".to_string(),
    ])
    .unwrap();
    let mut sink =
        crate::sink::KafkaSink::open(&s, &offsets_path, &dir.path().join("ops.jsonl")).unwrap();
    let record = |key: &'static [u8], value: &'static [u8]| crate::record::Record {
        topic: "t",
        key: Some(key),
        value: Some(value),
        headers: Default::default(),
    };
    sink.write(&record(br#"{"ID":1}"#, br#"{"n":1}"#)).unwrap();
    sink.write(&record(br#"{"ID":2}"#, br#"{"n":2}"#)).unwrap();
    let pos = sink.commit().unwrap();
    // The open transaction is the first: its number is what the offsets store.
    assert_eq!(
        pos,
        crate::offsets::SinkPosition::Kafka {
            transactions: 1,
            records: 2
        }
    );
    let mut o = crate::offsets::fixtures::streaming();
    o.sink = Some(pos);
    o.save(&offsets_path).unwrap();
    // Saved again with nothing new: no transaction.
    o.save(&offsets_path).unwrap();
    assert!(matches!(
        sink.commit().unwrap(),
        crate::offsets::SinkPosition::Kafka {
            transactions: 1,
            ..
        }
    ));
    let log = log.lock().unwrap().clone();
    let tail: Vec<&str> = log
        .iter()
        .map(String::as_str)
        .skip_while(|l| !l.starts_with("add-partitions"))
        .collect();
    assert_eq!(tail.len(), 5, "{log:#?}");
    assert_eq!(tail[0], "add-partitions tx2 t [0]");
    assert!(
        tail[1].starts_with("produce t ") && tail[1].ends_with(r#"["{\"n\":1}", "{\"n\":2}"]"#),
        "{}",
        tail[1]
    );
    assert_eq!(tail[2], "add-partitions tx2 oracle-cdc.offsets [0]");
    // The offsets document, as written to the file, is the transaction's last record.
    let doc = std::fs::read_to_string(&offsets_path).unwrap();
    let expected = format!("{:?}", vec![doc]);
    assert!(
        tail[3].starts_with("produce oracle-cdc.offsets "),
        "{}",
        tail[3]
    );
    assert!(tail[3].ends_with(&expected), "{}", tail[3]);
    assert_eq!(tail[4], "end-txn tx2 pid=42 epoch=3 committed=true");
}

#[test]
fn queued_bytes_stay_under_the_in_flight_bound() {
    let (port, log) = broker();
    let s = crate::settings::Settings::from_pairs(&[
        "cdc.sink.type=kafka".to_string(),
        format!("cdc.sink.kafka.brokers=127.0.0.1:{port}"),
        "cdc.sink.kafka.max.in.flight.bytes=65536".to_string(),
    ])
    .unwrap();
    let mut p = Producer::connect(&s.sink.kafka).unwrap();
    let big = "x".repeat(2000);
    for _ in 0..100 {
        p.send("t", rec(&big)).unwrap();
        // At the bound the send waited for the broker's acknowledgements.
        assert!(p.queued_bytes() < 65536, "{}", p.queued_bytes());
    }
    let before_flush = log
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.starts_with("produce t "))
        .count();
    assert!(before_flush >= 3, "{before_flush} produce requests");
    p.flush().unwrap();
    assert_eq!(p.queued_bytes(), 0);
    // Without a transactional id: idempotent, no transaction requests, sequences go on.
    let log = log.lock().unwrap().clone();
    assert!(log.iter().any(|l| l == "init-producer-id "));
    assert!(!log
        .iter()
        .any(|l| l.starts_with("add-partitions") || l.starts_with("end-txn")));
    let seqs: Vec<&str> = log
        .iter()
        .filter_map(|l| l.split(" seq=").nth(1))
        .filter_map(|l| l.split(' ').next())
        .collect();
    assert_eq!(seqs.first(), Some(&"0"));
    assert!(log
        .iter()
        .filter(|l| l.starts_with("produce"))
        .all(|l| l.contains("txn=None acks=-1 pid=42")));
}

#[test]
fn a_start_takes_the_offsets_committed_to_kafka_one_transaction_ahead() {
    let dir = tempfile::tempdir().unwrap();
    let offsets_path = dir.path().join("offsets.json");
    let sink = |seq: u64, records: u64| crate::offsets::SinkPosition::Kafka {
        transactions: seq,
        records,
    };
    // Stored locally: transaction 4. Committed to Kafka: transaction 5 (the crash came between).
    let mut local = crate::offsets::fixtures::streaming();
    local.sink = Some(sink(4, 100));
    local.save(&offsets_path).unwrap();
    let mut ahead = local.clone();
    ahead.sink = Some(sink(5, 130));
    if let Some(st) = ahead.stream.as_mut() {
        st.commit_scn += 50;
    }
    let doc = String::from_utf8(ahead.to_bytes().unwrap()).unwrap();
    let settings = |port: u16| {
        crate::settings::Settings::from_pairs(&[
            "cdc.sink.type=kafka".to_string(),
            format!("cdc.sink.kafka.brokers=127.0.0.1:{port}"),
            "cdc.sink.kafka.transactional.id=tx3".to_string(),
        ])
        .unwrap()
    };
    let (port, _, served) = broker_serving(Some(doc.clone()));
    let ops = dir.path().join("ops.jsonl");
    let sink_now = crate::sink::KafkaSink::open(&settings(port), &offsets_path, &ops).unwrap();
    assert_eq!(std::fs::read_to_string(&offsets_path).unwrap(), doc);
    let stored = crate::offsets::Offsets::load(&offsets_path)
        .unwrap()
        .unwrap();
    assert_eq!(stored.sink, Some(sink(5, 130)));
    drop(sink_now);
    // Two ahead: not this capture's, refused.
    let mut far = ahead.clone();
    far.sink = Some(sink(7, 200));
    *served.lock().unwrap() = Some(String::from_utf8(far.to_bytes().unwrap()).unwrap());
    let err = crate::sink::KafkaSink::open(&settings(port), &offsets_path, &ops)
        .err()
        .unwrap();
    assert_eq!(err.code(), crate::errors::Code::Cdc6206);
    assert_eq!(std::fs::read_to_string(&offsets_path).unwrap(), doc);
}

/// What the scripted topics broker ([`topics_broker`]) says of one topic.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ScriptedTopic {
    /// It exists (one partition); Metadata reports `operations` as its authorized operations.
    Exists { operations: i32 },
    /// UNKNOWN_TOPIC_OR_PARTITION; CreateTopics answers `create` (0: accepted).
    Missing { create: i16 },
    /// Metadata answers this error code for it.
    Error(i16),
}

/// The scripted topics broker: Metadata and CreateTopics answered as `topics` says (a topic not
/// named is missing and may be created), the cluster's authorized operations `cluster`, and
/// Metadata at most v`metadata_max`. Every request is logged; a CreateTopics without
/// validate_only (or with it, unless `validates`) creates its topics (logged `CREATED`).
pub(crate) struct TopicsScript {
    pub topics: std::collections::BTreeMap<String, ScriptedTopic>,
    pub cluster: i32,
    pub metadata_max: i16,
    /// Whether validate_only is honoured (tansu 0.6 creates the topics all the same).
    pub validates: bool,
}

pub(crate) fn topics_broker(script: TopicsScript) -> (u16, Log) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let log: Log = Arc::default();
    let log2 = log.clone();
    let script = Arc::new(Mutex::new(script));
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            let (log, script) = (log2.clone(), script.clone());
            std::thread::spawn(move || serve_topics(s, port, log, script));
        }
    });
    (port, log)
}

fn serve_topics(mut s: std::net::TcpStream, port: u16, log: Log, script: Arc<Mutex<TopicsScript>>) {
    loop {
        let mut len = [0u8; 4];
        if s.read_exact(&mut len).is_err() {
            return;
        }
        let mut buf = vec![0u8; i32::from_be_bytes(len) as usize];
        s.read_exact(&mut buf).unwrap();
        let mut b = Bytes::from(buf);
        let h = decode_request_header_from_buffer(&mut b).unwrap();
        let key = ApiKey::try_from(h.request_api_key).unwrap();
        let (v, corr) = (h.request_api_version, h.correlation_id);
        let mut script = script.lock().unwrap();
        match key {
            ApiKey::ApiVersions => {
                // Produce and InitProducerId are offered, so that not sending them is the
                // probe's choice.
                let keys = [
                    (0i16, 9i16),
                    (3, script.metadata_max),
                    (10, 3),
                    (19, 7),
                    (22, 4),
                ]
                .iter()
                .map(|(k, max)| {
                    api_versions_response::ApiVersion::default()
                        .with_api_key(*k)
                        .with_max_version(*max)
                })
                .collect();
                respond(
                    &mut s,
                    key,
                    v,
                    corr,
                    ApiVersionsResponse::default().with_api_keys(keys),
                );
            }
            ApiKey::FindCoordinator => {
                FindCoordinatorRequest::decode(&mut b, v).unwrap();
                log.lock().unwrap().push("find-coordinator".into());
                respond(
                    &mut s,
                    key,
                    v,
                    corr,
                    FindCoordinatorResponse::default()
                        .with_node_id(BrokerId(1))
                        .with_host(StrBytes::from_static_str("127.0.0.1"))
                        .with_port(port as i32),
                );
            }
            ApiKey::Metadata => {
                let r = MetadataRequest::decode(&mut b, v).unwrap();
                let names: Vec<String> = r
                    .topics
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(|t| t.name.map(|n| n.0.to_string()))
                    .collect();
                log.lock().unwrap().push(format!(
                    "metadata v{v} topic-ops={} auto-create={} {names:?}",
                    r.include_topic_authorized_operations, r.allow_auto_topic_creation
                ));
                // Fields a version does not have must keep their defaults to encode.
                let ops = |o: i32| if v >= 8 { o } else { i32::MIN };
                let topics = names
                    .iter()
                    .map(|n| {
                        let t = metadata_response::MetadataResponseTopic::default()
                            .with_name(Some(TopicName(StrBytes::from_string(n.clone()))));
                        match script.topics.get(n) {
                            Some(ScriptedTopic::Exists { operations }) => t
                                .with_partitions(vec![
                                    metadata_response::MetadataResponsePartition::default()
                                        .with_leader_id(BrokerId(1)),
                                ])
                                .with_topic_authorized_operations(ops(*operations)),
                            Some(ScriptedTopic::Error(code)) => t.with_error_code(*code),
                            Some(ScriptedTopic::Missing { .. }) | None => {
                                t.with_error_code(super::UNKNOWN_TOPIC_OR_PARTITION)
                            }
                        }
                    })
                    .collect();
                let broker = metadata_response::MetadataResponseBroker::default()
                    .with_node_id(BrokerId(1))
                    .with_host(StrBytes::from_static_str("127.0.0.1"))
                    .with_port(port as i32);
                let cluster = if (8..=10).contains(&v) {
                    script.cluster
                } else {
                    i32::MIN
                };
                respond(
                    &mut s,
                    key,
                    v,
                    corr,
                    MetadataResponse::default()
                        .with_brokers(vec![broker])
                        .with_topics(topics)
                        .with_cluster_authorized_operations(cluster),
                );
            }
            ApiKey::CreateTopics => {
                let r = CreateTopicsRequest::decode(&mut b, v).unwrap();
                let mut results = Vec::new();
                for t in &r.topics {
                    let name = t.name.0.to_string();
                    log.lock().unwrap().push(format!(
                        "create-topics v{v} validate_only={} {name} partitions={} replication={}",
                        r.validate_only, t.num_partitions, t.replication_factor
                    ));
                    let code = match script.topics.get(&name) {
                        Some(ScriptedTopic::Missing { create }) => *create,
                        Some(_) => super::TOPIC_ALREADY_EXISTS,
                        None => 0,
                    };
                    if code == 0 && !(r.validate_only && script.validates) {
                        log.lock().unwrap().push(format!("CREATED {name}"));
                        script
                            .topics
                            .insert(name.clone(), ScriptedTopic::Exists { operations: -1 });
                    }
                    results.push(
                        create_topics_response::CreatableTopicResult::default()
                            .with_name(t.name.clone())
                            .with_error_code(code)
                            .with_error_message(
                                (code != 0).then(|| StrBytes::from_static_str("scripted refusal")),
                            ),
                    );
                }
                respond(
                    &mut s,
                    key,
                    v,
                    corr,
                    CreateTopicsResponse::default().with_topics(results),
                );
            }
            other => {
                // Anything else (Produce, InitProducerId) is logged and the connection closed.
                log.lock().unwrap().push(format!("unexpected {other:?}"));
                return;
            }
        }
    }
}
