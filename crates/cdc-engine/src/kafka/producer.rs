//! An idempotent, optionally transactional producer over [`Conn`]: acks=all, a producer id and
//! epoch, a sequence per partition, one request in flight. Records wait in per-partition queues
//! (at most `max.in.flight.bytes`); [`Producer::flush`] returns once the broker acknowledged
//! every one. A failed request is sent again, identical (same sequences: the broker drops what
//! it already has), after a backoff, for as long as `delivery.timeout.ms` allows (then CDC-6202
//! or the broker's last error), so nothing is lost, duplicated by a retry, or reordered. A stop
//! (capture's [`StopFlag`]) ends every wait: the retry, its backoff, the bootstrap pass, an
//! answer that is late.

use super::client::{caps, check_resolvable, connect_any, ClientOptions, Conn};
use super::{partition_for, stopping, KafkaError, StopFlag};
use crate::errors::{CdcError, Result};
use crate::settings::{KafkaCompression, KafkaSettings};
use bytes::{Bytes, BytesMut};
use kafka_protocol::indexmap::IndexMap;
use kafka_protocol::messages::{
    add_partitions_to_txn_request::AddPartitionsToTxnTopic,
    create_topics_request::CreatableTopic,
    metadata_request::MetadataRequestTopic,
    produce_request::{PartitionProduceData, TopicProduceData},
    AddPartitionsToTxnRequest, CreateTopicsRequest, EndTxnRequest, FindCoordinatorRequest,
    InitProducerIdRequest, MetadataRequest, ProduceRequest, ProducerId, TopicName, TransactionalId,
};
use kafka_protocol::protocol::StrBytes;
use kafka_protocol::records::{
    Compression, Record, RecordBatchEncoder, RecordEncodeOptions, TimestampType,
};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::time::{Duration, Instant};

/// The CreateTopics request that creates `topics` as capture does when it first writes one
/// the broker does not know: cdc.sink.kafka.topic.partitions partitions, the cluster's default
/// replication factor (-1, KIP-464). `doctor` sends the same request with validate_only, so
/// what it validates is what capture will ask for.
pub fn create_topics<'a>(
    cfg: &KafkaSettings,
    topics: impl IntoIterator<Item = &'a str>,
) -> CreateTopicsRequest {
    CreateTopicsRequest::default()
        .with_topics(
            topics
                .into_iter()
                .map(|topic| {
                    CreatableTopic::default()
                        .with_name(TopicName(StrBytes::from_string(topic.to_string())))
                        .with_num_partitions(cfg.topic_partitions as i32)
                        .with_replication_factor(-1)
                })
                .collect(),
        )
        .with_timeout_ms(cfg.request_timeout_ms as i32)
}

/// One record to produce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rec {
    pub key: Option<Bytes>,
    pub value: Option<Bytes>,
    pub headers: Vec<(String, Bytes)>,
    pub timestamp: i64,
}

impl Rec {
    /// Bytes it holds (what max.in.flight.bytes counts).
    pub fn size(&self) -> u64 {
        let h: usize = self.headers.iter().map(|(k, v)| k.len() + v.len()).sum();
        (self.key.as_ref().map_or(0, |k| k.len()) + self.value.as_ref().map_or(0, |v| v.len()) + h)
            as u64
    }
}

type Tp = (String, i32);

struct Txn {
    id: String,
    coordinator: Option<i32>,
    /// Partitions added to the open transaction.
    added: BTreeSet<Tp>,
}

pub struct Producer {
    cfg: KafkaSettings,
    conns: BTreeMap<i32, Conn>,
    nodes: BTreeMap<i32, String>,
    /// Per topic, the leader of each partition.
    topics: BTreeMap<String, Vec<i32>>,
    producer_id: i64,
    epoch: i16,
    seqs: BTreeMap<Tp, i32>,
    queues: BTreeMap<Tp, VecDeque<Rec>>,
    queued_bytes: u64,
    txn: Option<Txn>,
    /// Whether records were produced in the open transaction (or since the last flush).
    pub dirty: bool,
    stop: StopFlag,
    /// The bootstrap broker the next pass starts at ([`connect_any`]).
    next_bootstrap: usize,
    /// While [`Producer::retry`] runs: when its delivery timeout ends (no pass over the
    /// bootstrap list runs past it).
    deadline: Option<Instant>,
}

/// How often a backoff looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

/// The pseudo node id of a bootstrap connection.
const BOOTSTRAP: i32 = i32::MIN;

/// How often a wait for a failing broker is told again while it lasts.
const STALL_RETOLD: Duration = Duration::from_secs(30);

/// Say that a Kafka call is failing: at its first failure, then every [`STALL_RETOLD`], as
/// stall warnings (shown with `--quiet` too), with what it waits for and how long it will.
/// Each retry on its own is an info line. Returns when it was last told.
fn tell_stalled(
    told: Option<Instant>,
    what: &str,
    attempts: u64,
    started: Instant,
    limit: Duration,
    e: &KafkaError,
) -> Option<Instant> {
    let now = Instant::now();
    match told {
        None => tracing::warn!(
            target: crate::ops::STALL_LOG_TARGET,
            "Kafka {what} failed: {e}; retrying for up to {} s ({}), records wait and nothing is \
             lost; a stop (Ctrl-C) keeps the offsets at what the broker acknowledged",
            limit.as_secs(),
            crate::settings::keys::KAFKA_PRODUCER_DELIVERY_TIMEOUT_MS
        ),
        Some(at) if now.duration_since(at) >= STALL_RETOLD => tracing::warn!(
            target: crate::ops::STALL_LOG_TARGET,
            "Kafka {what} still failing after {attempts} attempts, {} s of {} s: {e}",
            started.elapsed().as_secs(),
            limit.as_secs()
        ),
        Some(at) => return Some(at),
    }
    Some(now)
}

impl Producer {
    /// Connect and get a producer id (with a transactional id: from its coordinator, which
    /// fences an older producer of the same id and aborts its open transaction).
    pub fn connect(cfg: &KafkaSettings) -> Result<Producer> {
        Producer::connect_with_stop(cfg, StopFlag::default())
    }

    /// [`Producer::connect`] for capture: `stop` ends its waits, then and later.
    pub fn connect_with_stop(cfg: &KafkaSettings, stop: StopFlag) -> Result<Producer> {
        let mut p = Producer {
            cfg: cfg.clone(),
            conns: BTreeMap::new(),
            nodes: BTreeMap::new(),
            topics: BTreeMap::new(),
            producer_id: -1,
            epoch: -1,
            seqs: BTreeMap::new(),
            queues: BTreeMap::new(),
            queued_bytes: 0,
            txn: cfg.transactional_id.clone().map(|id| Txn {
                id,
                coordinator: None,
                added: BTreeSet::new(),
            }),
            dirty: false,
            stop,
            next_bootstrap: 0,
            deadline: None,
        };
        // Bounded like one pass over the list: a request's time, not past the delivery timeout.
        let within = p
            .timeout()
            .min(Duration::from_millis(p.cfg.delivery_timeout_ms));
        check_resolvable(&p.cfg.brokers, Some(&p.stop), within).map_err(KafkaError::into_cdc)?;
        p.retry("InitProducerId", |p| p.init_producer_id())?;
        Ok(p)
    }

    pub fn transactional(&self) -> bool {
        self.txn.is_some()
    }

    pub fn settings(&self) -> &KafkaSettings {
        &self.cfg
    }

    /// Run `f` until it succeeds, retrying what can be retried with a doubling backoff, for
    /// at most delivery.timeout.ms (then the last error, counting the attempts) and never past
    /// a stop.
    pub fn retry<T>(
        &mut self,
        what: &str,
        mut f: impl FnMut(&mut Producer) -> std::result::Result<T, KafkaError>,
    ) -> Result<T> {
        let started = Instant::now();
        let limit = Duration::from_millis(self.cfg.delivery_timeout_ms);
        let mut backoff = self.cfg.retry_backoff_ms.max(1);
        let mut attempts = 0u64;
        // When the operator was last told the broker is failing (None: not yet this wait).
        let mut told: Option<Instant> = None;
        self.deadline = Some(started + limit);
        let r = loop {
            attempts += 1;
            match f(self) {
                Ok(v) => break Ok(v),
                Err(e) if e.retriable() => {
                    if stopping(&self.stop) {
                        break Err(KafkaError::Stopped(format!(
                            "Kafka {what}, attempt {attempts}: {e}"
                        ))
                        .into_cdc());
                    }
                    let elapsed = started.elapsed();
                    if elapsed >= limit {
                        break Err(gave_up(what, attempts, elapsed, limit, e));
                    }
                    told = tell_stalled(told, what, attempts, started, limit, &e);
                    tracing::info!("Kafka {what}: {e}; retrying in {backoff} ms");
                    if matches!(e, KafkaError::Network(_)) {
                        self.conns.clear();
                    }
                    // Leaders and coordinators may have moved.
                    self.topics.clear();
                    if let Some(t) = self.txn.as_mut() {
                        t.coordinator = None;
                    }
                    let wait = Duration::from_millis(backoff).min(limit - elapsed);
                    if let Err(stopped) = self.backoff(wait) {
                        break Err(KafkaError::Stopped(format!(
                            "Kafka {what}, attempt {attempts}: {stopped}"
                        ))
                        .into_cdc());
                    }
                    backoff = (backoff * 2).min(self.cfg.retry_backoff_max_ms.max(1));
                }
                Err(e) => break Err(e.into_cdc()),
            }
        };
        self.deadline = None;
        r
    }

    /// Sleep `wait`, or less when capture is told to stop (then Err with what it waited on).
    fn backoff(&self, wait: Duration) -> std::result::Result<(), String> {
        let until = Instant::now() + wait;
        loop {
            if stopping(&self.stop) {
                return Err("the backoff before a retry".into());
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(());
            }
            std::thread::sleep(left.min(STOP_POLL));
        }
    }

    fn timeout(&self) -> Duration {
        Duration::from_millis(self.cfg.request_timeout_ms.max(100))
    }

    /// A connection to any bootstrap broker (one bounded pass over the list).
    fn any(&mut self) -> std::result::Result<&mut Conn, KafkaError> {
        if !self.conns.contains_key(&BOOTSTRAP) {
            // One request's time, and never past the delivery timeout.
            let pass = match self.deadline {
                Some(d) => self
                    .timeout()
                    .min(d.saturating_duration_since(Instant::now()))
                    .max(Duration::from_millis(1)),
                None => self.timeout(),
            };
            let c = connect_any(
                &self.cfg.brokers,
                &ClientOptions::of(&self.cfg),
                pass,
                Some(&self.stop),
                &mut self.next_bootstrap,
            )?;
            self.conns.insert(BOOTSTRAP, c);
        }
        self.conns
            .get_mut(&BOOTSTRAP)
            .ok_or_else(|| KafkaError::Network("no brokers".into()))
    }

    /// A connection to broker `node` (as the metadata named it).
    fn node(&mut self, node: i32) -> std::result::Result<&mut Conn, KafkaError> {
        if !self.conns.contains_key(&node) {
            let Some(addr) = self.nodes.get(&node).cloned() else {
                return Err(KafkaError::Broker {
                    request: "Metadata".into(),
                    code: 5,
                    detail: format!("broker {node} is not in the metadata"),
                });
            };
            let c = Conn::open(
                &addr,
                &ClientOptions::of(&self.cfg),
                self.timeout(),
                Some(&self.stop),
            )
            .map_err(|f| f.error)?;
            self.conns.insert(node, c);
        }
        self.conns
            .get_mut(&node)
            .ok_or_else(|| KafkaError::Network(format!("broker {node}")))
    }

    /// Call `f` with a connection; a network error drops it (the retry reconnects).
    fn with_conn<T>(
        &mut self,
        node: i32,
        f: impl FnOnce(&mut Conn) -> std::result::Result<T, KafkaError>,
    ) -> std::result::Result<T, KafkaError> {
        let conn = if node == BOOTSTRAP {
            self.any()?
        } else {
            self.node(node)?
        };
        let r = f(conn);
        // A connection cut short by a stop may hold half an answer: never used again.
        if matches!(r, Err(KafkaError::Network(_) | KafkaError::Stopped(_))) {
            self.conns.remove(&node);
        }
        r
    }

    fn init_producer_id(&mut self) -> std::result::Result<(), KafkaError> {
        let mut req = InitProducerIdRequest::default()
            .with_producer_id(ProducerId(-1))
            .with_producer_epoch(-1)
            .with_transaction_timeout_ms(-1);
        let node = match self.txn.as_ref().map(|t| t.id.clone()) {
            Some(id) => {
                req = req
                    .with_transactional_id(Some(TransactionalId(StrBytes::from_string(id))))
                    .with_transaction_timeout_ms(self.cfg.transaction_timeout_ms as i32);
                self.coordinator()?
            }
            None => BOOTSTRAP,
        };
        if self.txn.is_some() {
            // Refuse a broker that cannot end transactions before anything is produced
            // (tansu 0.6 routes AddPartitionsToTxn but not EndTxn).
            self.with_conn(node, |c| {
                c.version::<AddPartitionsToTxnRequest>(caps::ADD_PARTITIONS_TO_TXN)?;
                c.version::<EndTxnRequest>(caps::END_TXN)
            })
            .map_err(|e| match e {
                KafkaError::Protocol(m) => KafkaError::Protocol(format!(
                    "{m}: cdc.sink.kafka.transactional.id needs a broker with transactions; unset it for the idempotent producer (at least once)"
                )),
                other => other,
            })?;
        }
        let resp = self.with_conn(node, |c| c.call(&req, caps::INIT_PRODUCER_ID))?;
        check("InitProducerId", resp.error_code, "")?;
        self.producer_id = resp.producer_id.0;
        self.epoch = resp.producer_epoch;
        self.seqs.clear();
        if let Some(t) = self.txn.as_mut() {
            t.added.clear();
        }
        tracing::info!(
            "Kafka producer id {} epoch {}",
            self.producer_id,
            self.epoch
        );
        Ok(())
    }

    /// The transaction coordinator's node id.
    fn coordinator(&mut self) -> std::result::Result<i32, KafkaError> {
        let Some(t) = self.txn.as_ref() else {
            return Ok(BOOTSTRAP);
        };
        if let Some(n) = t.coordinator {
            return Ok(n);
        }
        let req = FindCoordinatorRequest::default()
            .with_key(StrBytes::from_string(t.id.clone()))
            .with_key_type(1);
        let resp = self.with_conn(BOOTSTRAP, |c| c.call(&req, caps::FIND_COORDINATOR))?;
        check(
            "FindCoordinator",
            resp.error_code,
            "transaction coordinator",
        )?;
        let node = resp.node_id.0;
        self.nodes
            .insert(node, format!("{}:{}", resp.host.as_str(), resp.port));
        if let Some(t) = self.txn.as_mut() {
            t.coordinator = Some(node);
        }
        Ok(node)
    }

    /// Leaders of `topic`'s partitions, creating the topic when the broker does not know it.
    pub fn partitions(&mut self, topic: &str) -> Result<usize> {
        if let Some(p) = self.topics.get(topic) {
            return Ok(p.len());
        }
        let topic = topic.to_string();
        self.retry("Metadata", |p| p.discover(&topic))
    }

    fn discover(&mut self, topic: &str) -> std::result::Result<usize, KafkaError> {
        if let Some(n) = self.metadata(topic)? {
            return Ok(n);
        }
        let req = create_topics(&self.cfg, [topic]);
        let resp = self.with_conn(BOOTSTRAP, |c| c.call(&req, caps::CREATE_TOPICS))?;
        for t in &resp.topics {
            if t.error_code != 0 && t.error_code != super::TOPIC_ALREADY_EXISTS {
                check("CreateTopics", t.error_code, topic)?;
            }
        }
        tracing::info!("created Kafka topic {topic}");
        self.metadata(topic)?.ok_or_else(|| KafkaError::Broker {
            request: "Metadata".into(),
            code: super::UNKNOWN_TOPIC_OR_PARTITION,
            detail: topic.to_string(),
        })
    }

    /// Refresh the metadata of one topic: its partition count, or None if it does not exist.
    fn metadata(&mut self, topic: &str) -> std::result::Result<Option<usize>, KafkaError> {
        let req = MetadataRequest::default()
            .with_topics(Some(vec![MetadataRequestTopic::default().with_name(Some(
                TopicName(StrBytes::from_string(topic.to_string())),
            ))]))
            .with_allow_auto_topic_creation(false);
        let resp = self.with_conn(BOOTSTRAP, |c| c.call(&req, caps::METADATA))?;
        for b in &resp.brokers {
            self.nodes
                .insert(b.node_id.0, format!("{}:{}", b.host.as_str(), b.port));
        }
        for t in &resp.topics {
            if t.name.as_ref().map(|n| n.0.as_str()) != Some(topic) {
                continue;
            }
            if t.error_code == super::UNKNOWN_TOPIC_OR_PARTITION {
                return Ok(None);
            }
            check("Metadata", t.error_code, topic)?;
            if t.partitions.is_empty() {
                return Ok(None);
            }
            let mut leaders = vec![-1; t.partitions.len()];
            for p in &t.partitions {
                if let Some(slot) = leaders.get_mut(p.partition_index as usize) {
                    *slot = p.leader_id.0;
                }
            }
            let n = leaders.len();
            self.topics.insert(topic.to_string(), leaders);
            return Ok(Some(n));
        }
        Ok(None)
    }

    /// Queue a record for `topic` (partition: the key's murmur2 hash); at max.in.flight.bytes,
    /// wait until the broker acknowledged what is queued.
    pub fn send(&mut self, topic: &str, rec: Rec) -> Result<()> {
        let n = self.partitions(topic)?;
        let part = match &rec.key {
            Some(k) if n > 1 => partition_for(k, n) as i32,
            _ => 0,
        };
        self.queued_bytes += rec.size();
        self.queues
            .entry((topic.to_string(), part))
            .or_default()
            .push_back(rec);
        self.dirty = true;
        if self.queued_bytes >= self.cfg.max_in_flight_bytes {
            self.flush()?;
        }
        Ok(())
    }

    /// Bytes queued and not yet acknowledged.
    pub fn queued_bytes(&self) -> u64 {
        self.queued_bytes
    }

    /// Wait until the broker acknowledged every queued record.
    pub fn flush(&mut self) -> Result<()> {
        while !self.queues.is_empty() {
            self.retry("Produce", |p| p.produce_round())?;
        }
        Ok(())
    }

    /// Add the queued partitions to the open transaction.
    fn add_partitions(&mut self) -> std::result::Result<(), KafkaError> {
        let Some(t) = self.txn.as_ref() else {
            return Ok(());
        };
        let new: Vec<Tp> = self
            .queues
            .keys()
            .filter(|tp| !t.added.contains(*tp))
            .cloned()
            .collect();
        if new.is_empty() {
            return Ok(());
        }
        let mut by_topic: BTreeMap<&str, Vec<i32>> = BTreeMap::new();
        for (topic, part) in &new {
            by_topic.entry(topic).or_default().push(*part);
        }
        let topics: Vec<AddPartitionsToTxnTopic> = by_topic
            .into_iter()
            .map(|(t, ps)| {
                AddPartitionsToTxnTopic::default()
                    .with_name(TopicName(StrBytes::from_string(t.to_string())))
                    .with_partitions(ps)
            })
            .collect();
        let req = AddPartitionsToTxnRequest::default()
            .with_v3_and_below_transactional_id(TransactionalId(StrBytes::from_string(
                t.id.clone(),
            )))
            .with_v3_and_below_producer_id(ProducerId(self.producer_id))
            .with_v3_and_below_producer_epoch(self.epoch)
            .with_v3_and_below_topics(topics);
        let node = self.coordinator()?;
        let resp = self.with_conn(node, |c| c.call(&req, caps::ADD_PARTITIONS_TO_TXN))?;
        check("AddPartitionsToTxn", resp.error_code, "")?;
        for t in &resp.results_by_topic_v3_and_below {
            for p in &t.results_by_partition {
                check(
                    "AddPartitionsToTxn",
                    p.partition_error_code,
                    &format!("{}-{}", t.name.0.as_str(), p.partition_index),
                )?;
            }
        }
        if let Some(t) = self.txn.as_mut() {
            t.added.extend(new);
        }
        Ok(())
    }

    /// Send one batch of every queued partition (one request per leader) and drop what the
    /// broker acknowledged from the queues.
    fn produce_round(&mut self) -> std::result::Result<(), KafkaError> {
        self.add_partitions()?;
        let mut by_leader: BTreeMap<i32, Vec<(Tp, usize, Bytes)>> = BTreeMap::new();
        let keys: Vec<Tp> = self.queues.keys().cloned().collect();
        for tp in keys {
            let leader = match self.topics.get(&tp.0) {
                Some(l) => l.get(tp.1 as usize).copied().unwrap_or(-1),
                None => {
                    // (Re)created if the broker lost it (a restart of a memory-only broker).
                    self.discover(&tp.0)?;
                    self.topics
                        .get(&tp.0)
                        .and_then(|l| l.get(tp.1 as usize).copied())
                        .unwrap_or(-1)
                }
            };
            if leader < 0 {
                return Err(KafkaError::Broker {
                    request: "Metadata".into(),
                    code: 5,
                    detail: format!("{}-{}", tp.0, tp.1),
                });
            }
            let (n, batch) = self.batch(&tp)?;
            by_leader.entry(leader).or_default().push((tp, n, batch));
        }
        let mut retry: Option<KafkaError> = None;
        for (leader, batches) in by_leader {
            let mut topics: BTreeMap<&str, Vec<PartitionProduceData>> = BTreeMap::new();
            for ((t, p), _, b) in &batches {
                topics.entry(t).or_default().push(
                    PartitionProduceData::default()
                        .with_index(*p)
                        .with_records(Some(b.clone())),
                );
            }
            let req = ProduceRequest::default()
                .with_transactional_id(
                    self.txn
                        .as_ref()
                        .map(|t| TransactionalId(StrBytes::from_string(t.id.clone()))),
                )
                .with_acks(-1)
                .with_timeout_ms(self.cfg.request_timeout_ms as i32)
                .with_topic_data(
                    topics
                        .into_iter()
                        .map(|(t, ps)| {
                            TopicProduceData::default()
                                .with_name(TopicName(StrBytes::from_string(t.to_string())))
                                .with_partition_data(ps)
                        })
                        .collect(),
                );
            let resp = self.with_conn(leader, |c| c.call(&req, caps::PRODUCE))?;
            let mut acked: BTreeMap<Tp, i16> = BTreeMap::new();
            for t in &resp.responses {
                for p in &t.partition_responses {
                    acked.insert((t.name.0.as_str().to_string(), p.index), p.error_code);
                }
            }
            for (tp, n, _) in batches {
                let code = acked.get(&tp).copied().unwrap_or(13);
                match code {
                    0 => self.acknowledge(&tp, n),
                    super::DUPLICATE_SEQUENCE_NUMBER => {
                        // Sent before (the answer was lost): the broker has it.
                        tracing::warn!(
                            "Kafka {}-{}: {n} records already written (duplicate sequence)",
                            tp.0,
                            tp.1
                        );
                        self.acknowledge(&tp, n)
                    }
                    super::OUT_OF_ORDER_SEQUENCE_NUMBER | super::UNKNOWN_PRODUCER_ID
                        if self.txn.is_none() =>
                    {
                        // The broker forgot this producer (a restart without its state): a new
                        // producer id; the batch is sent again from sequence 0.
                        tracing::warn!(
                            "Kafka {}-{}: {}: a new producer id",
                            tp.0,
                            tp.1,
                            super::error_name(code)
                        );
                        self.init_producer_id()?;
                        retry = Some(KafkaError::Broker {
                            request: "Produce".into(),
                            code: 13,
                            detail: "new producer id".into(),
                        });
                    }
                    c => {
                        let e = KafkaError::Broker {
                            request: "Produce".into(),
                            code: c,
                            detail: format!("{}-{}", tp.0, tp.1),
                        };
                        if !e.retriable() {
                            return Err(e);
                        }
                        retry = Some(e);
                    }
                }
            }
        }
        match retry {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The next batch of a partition's queue (up to batch.size bytes, at least one record):
    /// how many records, and the encoded record batch.
    fn batch(&self, tp: &Tp) -> std::result::Result<(usize, Bytes), KafkaError> {
        let Some(q) = self.queues.get(tp) else {
            return Ok((0, Bytes::new()));
        };
        let base = self.seqs.get(tp).copied().unwrap_or(0);
        let mut bytes = 0u64;
        let mut records = Vec::new();
        for (i, r) in q.iter().enumerate() {
            if i > 0 && bytes + r.size() > self.cfg.batch_size {
                break;
            }
            bytes += r.size();
            records.push(Record {
                transactional: self.txn.is_some(),
                control: false,
                delete_horizon: false,
                partition_leader_epoch: -1,
                producer_id: self.producer_id,
                producer_epoch: self.epoch,
                timestamp_type: TimestampType::Creation,
                offset: i as i64,
                sequence: base.wrapping_add(i as i32),
                timestamp: r.timestamp,
                key: r.key.clone(),
                value: r.value.clone(),
                headers: r
                    .headers
                    .iter()
                    .map(|(k, v)| (StrBytes::from_string(k.clone()), Some(v.clone())))
                    .collect::<IndexMap<_, _>>(),
            });
        }
        let mut buf = BytesMut::new();
        let options = RecordEncodeOptions {
            version: 2,
            compression: match self.cfg.compression {
                KafkaCompression::None => Compression::None,
                KafkaCompression::Gzip => Compression::Gzip,
                KafkaCompression::Snappy => Compression::Snappy,
                KafkaCompression::Zstd => Compression::Zstd,
            },
        };
        RecordBatchEncoder::encode(&mut buf, records.iter(), &options)
            .map_err(|e| KafkaError::Protocol(format!("record batch: {e}")))?;
        Ok((records.len(), buf.freeze()))
    }

    fn acknowledge(&mut self, tp: &Tp, n: usize) {
        let Some(q) = self.queues.get_mut(tp) else {
            return;
        };
        for r in q.drain(..n.min(q.len())) {
            self.queued_bytes = self.queued_bytes.saturating_sub(r.size());
        }
        if q.is_empty() {
            self.queues.remove(tp);
        }
        let s = self.seqs.entry(tp.clone()).or_insert(0);
        *s = s.wrapping_add(n as i32);
    }

    /// Commit the open transaction (after flushing it). Without transactions: a flush.
    pub fn commit_transaction(&mut self) -> Result<()> {
        self.flush()?;
        if self.txn.is_none() {
            self.dirty = false;
            return Ok(());
        }
        let open = self.txn.as_ref().is_some_and(|t| !t.added.is_empty());
        if open {
            self.retry("EndTxn", |p| p.end_txn(true))?;
        }
        if let Some(t) = self.txn.as_mut() {
            t.added.clear();
        }
        self.dirty = false;
        Ok(())
    }

    fn end_txn(&mut self, commit: bool) -> std::result::Result<(), KafkaError> {
        let Some(t) = self.txn.as_ref() else {
            return Ok(());
        };
        let req = EndTxnRequest::default()
            .with_transactional_id(TransactionalId(StrBytes::from_string(t.id.clone())))
            .with_producer_id(ProducerId(self.producer_id))
            .with_producer_epoch(self.epoch)
            .with_committed(commit);
        let node = self.coordinator()?;
        let resp = self.with_conn(node, |c| c.call(&req, caps::END_TXN))?;
        check("EndTxn", resp.error_code, "")
    }
}

/// The error a retried request ends in at delivery.timeout.ms: the last one, with the attempts
/// made and the bound, so the operator sees it was waited out, not failed at once.
fn gave_up(
    what: &str,
    attempts: u64,
    elapsed: Duration,
    limit: Duration,
    last: KafkaError,
) -> CdcError {
    match last.into_cdc() {
        CdcError::Kafka { code, message } => CdcError::kafka(
            code,
            format!(
                "Kafka {what}: gave up after {attempts} attempts in {} ms (cdc.sink.kafka.producer.delivery.timeout.ms={}): {message}",
                elapsed.as_millis(),
                limit.as_millis()
            ),
        ),
        other => other,
    }
}

/// An error code as a [`KafkaError`] (0: fine).
fn check(request: &str, code: i16, detail: &str) -> std::result::Result<(), KafkaError> {
    if code == 0 {
        return Ok(());
    }
    Err(KafkaError::Broker {
        request: request.into(),
        code,
        detail: detail.into(),
    })
}

/// A [`CdcError`] for a record line the Kafka sink cannot read.
pub fn bad_record(message: impl Into<String>) -> CdcError {
    CdcError::kafka(crate::errors::Code::Cdc6204, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn producer() -> Producer {
        let s =
            crate::settings::Settings::from_pairs(&["cdc.sink.kafka.brokers=127.0.0.1:1"]).unwrap();
        Producer {
            cfg: s.sink.kafka.clone(),
            conns: BTreeMap::new(),
            nodes: BTreeMap::new(),
            topics: BTreeMap::new(),
            producer_id: 7,
            epoch: 2,
            seqs: BTreeMap::new(),
            queues: BTreeMap::new(),
            queued_bytes: 0,
            txn: None,
            dirty: false,
            stop: StopFlag::default(),
            next_bootstrap: 0,
            deadline: None,
        }
    }

    #[test]
    fn batches_round_trip_with_sequences_and_offsets() {
        let mut p = producer();
        let tp = ("t".to_string(), 0);
        p.seqs.insert(tp.clone(), 40);
        let q: VecDeque<Rec> = (0..300)
            .map(|i| Rec {
                key: Some(Bytes::from(format!("k{i}"))),
                value: Some(Bytes::from(format!("v{i}"))),
                headers: vec![("h".into(), Bytes::from_static(b"x"))],
                timestamp: 1000 + i,
            })
            .collect();
        p.queues.insert(tp.clone(), q);
        let (n, mut bytes) = p.batch(&tp).unwrap();
        assert_eq!(n, 300);
        let info =
            kafka_protocol::records::RecordBatchDecoder::decode_batch_info(&mut bytes.clone())
                .unwrap();
        eprintln!("{info:?}");
        let sets = kafka_protocol::records::RecordBatchDecoder::decode_all(&mut bytes).unwrap();
        let recs: Vec<_> = sets.into_iter().flat_map(|s| s.records).collect();
        assert_eq!(recs.len(), 300);
        assert_eq!(recs[299].sequence, 339);
        assert_eq!(recs[299].producer_id, 7);
        p.acknowledge(&tp, n);
        assert_eq!(p.seqs[&tp], 340);
        assert!(p.queues.is_empty());
    }
}
