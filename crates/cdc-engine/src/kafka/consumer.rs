//! A small reader of topics: ListOffsets and Fetch, with `read_committed` done by the
//! transaction markers themselves (records of a producer's transaction are held until its
//! COMMIT marker and dropped at ABORT), so it does not depend on the broker's list of aborted
//! transactions. The sink reads its offsets topic with it on start; tests read every topic.

use super::client::{caps, connect_any, ClientOptions, Conn};
use super::{KafkaError, StopFlag};
use crate::errors::Result;
use bytes::Bytes;
use kafka_protocol::messages::{
    fetch_request::{FetchPartition, FetchTopic},
    list_offsets_request::{ListOffsetsPartition, ListOffsetsTopic},
    metadata_request::MetadataRequestTopic,
    BrokerId, FetchRequest, ListOffsetsRequest, MetadataRequest, TopicName,
};
use kafka_protocol::protocol::StrBytes;
use kafka_protocol::records::RecordBatchDecoder;
use std::collections::BTreeMap;
use std::time::Duration;

/// One record read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Consumed {
    pub topic: String,
    pub partition: i32,
    pub offset: i64,
    pub key: Option<Bytes>,
    pub value: Option<Bytes>,
    pub headers: Vec<(String, Option<Bytes>)>,
    pub timestamp: i64,
}

impl Consumed {
    /// A header's value as text.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .and_then(|(_, v)| v.as_ref())
            .map(|v| String::from_utf8_lossy(v).into_owned())
    }
}

pub struct Consumer {
    brokers: Vec<String>,
    client: ClientOptions,
    timeout: Duration,
    conns: BTreeMap<String, Conn>,
    nodes: BTreeMap<i32, String>,
    stop: Option<StopFlag>,
    next_bootstrap: usize,
}

impl Consumer {
    pub fn new(brokers: &[String], client_id: &str, timeout: Duration) -> Consumer {
        Consumer {
            brokers: brokers.to_vec(),
            client: ClientOptions::plaintext(client_id),
            timeout,
            conns: BTreeMap::new(),
            nodes: BTreeMap::new(),
            stop: None,
            next_bootstrap: 0,
        }
    }

    /// Over TLS with `tls` (cdc.sink.kafka.security.protocol=SSL).
    pub fn with_tls(mut self, tls: Option<std::sync::Arc<rustls::ClientConfig>>) -> Consumer {
        self.client.tls = tls;
        self
    }

    /// Authenticated with SASL (cdc.sink.kafka.security.protocol=SASL_*).
    pub fn with_sasl(mut self, sasl: Option<super::sasl::SaslConfig>) -> Consumer {
        self.client.sasl = sasl;
        self
    }

    /// Its waits cut short by `stop` (capture's reading of the offsets topic at start).
    pub fn with_stop(mut self, stop: StopFlag) -> Consumer {
        self.stop = Some(stop);
        self
    }

    fn conn(&mut self, addr: Option<&str>) -> std::result::Result<&mut Conn, KafkaError> {
        let addr = match addr {
            Some(a) => a.to_string(),
            None => match self.conns.keys().next() {
                Some(a) => a.clone(),
                None => {
                    let c = connect_any(
                        &self.brokers,
                        &self.client,
                        self.timeout,
                        self.stop.as_ref(),
                        &mut self.next_bootstrap,
                    )?;
                    let a = c.addr.clone();
                    self.conns.insert(a.clone(), c);
                    a
                }
            },
        };
        if !self.conns.contains_key(&addr) {
            let c = Conn::open(&addr, &self.client, self.timeout, self.stop.as_ref())
                .map_err(|f| f.error)?;
            self.conns.insert(addr.clone(), c);
        }
        self.conns
            .get_mut(&addr)
            .ok_or_else(|| KafkaError::Network(crate::settings::redact_broker(&addr)))
    }

    /// Every topic (or only `topic`) with the leader address of each partition.
    pub fn metadata(
        &mut self,
        topic: Option<&str>,
    ) -> std::result::Result<BTreeMap<String, Vec<String>>, KafkaError> {
        let req = MetadataRequest::default()
            .with_topics(topic.map(|t| {
                vec![MetadataRequestTopic::default()
                    .with_name(Some(TopicName(StrBytes::from_string(t.to_string()))))]
            }))
            .with_allow_auto_topic_creation(false);
        let resp = self.conn(None)?.call(&req, caps::METADATA)?;
        for b in &resp.brokers {
            self.nodes
                .insert(b.node_id.0, format!("{}:{}", b.host.as_str(), b.port));
        }
        let mut out = BTreeMap::new();
        for t in resp.topics {
            let Some(name) = t.name else { continue };
            if t.error_code != 0 || t.partitions.is_empty() {
                continue;
            }
            let mut leaders = vec![String::new(); t.partitions.len()];
            for p in &t.partitions {
                let BrokerId(leader) = p.leader_id;
                if let Some(slot) = leaders.get_mut(p.partition_index as usize) {
                    *slot = self.nodes.get(&leader).cloned().unwrap_or_default();
                }
            }
            out.insert(name.0.as_str().to_string(), leaders);
        }
        Ok(out)
    }

    /// The end of a partition by ListOffsets: its high watermark, or with `committed` its last
    /// stable offset. (tansu 0.6 answers a batch's first offset + 1 here: the readers below take
    /// the end from Fetch instead.)
    pub fn end_offset(
        &mut self,
        leader: &str,
        topic: &str,
        partition: i32,
        committed: bool,
    ) -> std::result::Result<i64, KafkaError> {
        let req = ListOffsetsRequest::default()
            .with_replica_id(BrokerId(-1))
            .with_isolation_level(committed as i8)
            .with_topics(vec![ListOffsetsTopic::default()
                .with_name(TopicName(StrBytes::from_string(topic.to_string())))
                .with_partitions(vec![ListOffsetsPartition::default()
                    .with_partition_index(partition)
                    .with_current_leader_epoch(-1)
                    .with_timestamp(-1)])]);
        let resp = self
            .conn(Some(leader).filter(|l| !l.is_empty()))?
            .call(&req, caps::LIST_OFFSETS)?;
        for t in &resp.topics {
            for p in &t.partitions {
                if p.partition_index == partition {
                    if p.error_code != 0 {
                        return Err(KafkaError::Broker {
                            request: "ListOffsets".into(),
                            code: p.error_code,
                            detail: format!("{topic}-{partition}"),
                        });
                    }
                    return Ok(p.offset);
                }
            }
        }
        Err(KafkaError::Protocol(format!(
            "ListOffsets: no answer for {topic}-{partition}"
        )))
    }

    /// The records of a partition from `from` up to its end (with `committed`: its last
    /// stable offset, and only committed records).
    pub fn read_partition(
        &mut self,
        leader: &str,
        topic: &str,
        partition: i32,
        from: i64,
        committed: bool,
    ) -> Result<Vec<Consumed>> {
        let mut out = Vec::new();
        // Per producer id, the records of its open transaction.
        let mut open: BTreeMap<i64, Vec<Consumed>> = BTreeMap::new();
        let mut offset = from;
        let mut empty = 0;
        // The end comes with each fetch (tansu 0.6's ListOffsets counts a batch as one record).
        let mut end = i64::MAX;
        while offset < end {
            let resp = self.fetch(leader, topic, partition, offset, committed, 32 << 20)?;
            let mut progressed = false;
            for t in resp.responses {
                for p in t.partitions {
                    if p.error_code == 1 {
                        // OFFSET_OUT_OF_RANGE: past the end.
                        end = offset;
                        continue;
                    }
                    if p.error_code != 0 {
                        return Err(KafkaError::Broker {
                            request: "Fetch".into(),
                            code: p.error_code,
                            detail: format!("{topic}-{partition} at {offset}"),
                        }
                        .into_cdc());
                    }
                    end = if committed && p.last_stable_offset >= 0 {
                        p.last_stable_offset
                    } else {
                        p.high_watermark
                    };
                    let Some(mut bytes) = p.records else { continue };
                    let sets = RecordBatchDecoder::decode_all(&mut bytes).map_err(|e| {
                        KafkaError::Protocol(format!("{topic}-{partition}: {e}")).into_cdc()
                    })?;
                    for set in sets {
                        for r in set.records {
                            if r.offset < offset {
                                continue;
                            }
                            offset = r.offset + 1;
                            progressed = true;
                            if r.offset >= end {
                                continue;
                            }
                            if r.control {
                                let commit = r
                                    .key
                                    .as_ref()
                                    .is_some_and(|k| k.len() >= 4 && k[2..4] == [0, 1]);
                                let txn = open.remove(&r.producer_id).unwrap_or_default();
                                if commit || !committed {
                                    out.extend(txn);
                                }
                                continue;
                            }
                            let c = Consumed {
                                topic: topic.to_string(),
                                partition,
                                offset: r.offset,
                                key: r.key,
                                value: r.value,
                                headers: r
                                    .headers
                                    .into_iter()
                                    .map(|(k, v)| (k.as_str().to_string(), v))
                                    .collect(),
                                timestamp: r.timestamp,
                            };
                            if r.transactional && committed {
                                open.entry(r.producer_id).or_default().push(c);
                            } else {
                                out.push(c);
                            }
                        }
                    }
                }
            }
            if !progressed && offset < end {
                empty += 1;
                if empty > 50 {
                    return Err(KafkaError::Protocol(format!(
                        "Fetch: {topic}-{partition} gives nothing at offset {offset} below its end {end}"
                    ))
                    .into_cdc());
                }
            }
        }
        if !committed {
            for (_, txn) in open {
                out.extend(txn);
            }
        }
        out.sort_by_key(|c| c.offset);
        Ok(out)
    }

    fn fetch(
        &mut self,
        leader: &str,
        topic: &str,
        partition: i32,
        offset: i64,
        committed: bool,
        max_bytes: i32,
    ) -> Result<kafka_protocol::messages::FetchResponse> {
        let req = FetchRequest::default()
            .with_replica_id(BrokerId(-1))
            .with_max_wait_ms(200)
            .with_min_bytes(1)
            .with_max_bytes(max_bytes.max(1 << 20))
            .with_isolation_level(committed as i8)
            .with_session_epoch(-1)
            .with_topics(vec![FetchTopic::default()
                .with_topic(TopicName(StrBytes::from_string(topic.to_string())))
                .with_partitions(vec![FetchPartition::default()
                    .with_partition(partition)
                    .with_current_leader_epoch(-1)
                    .with_fetch_offset(offset)
                    .with_last_fetched_epoch(-1)
                    .with_log_start_offset(-1)
                    .with_partition_max_bytes(max_bytes)])]);
        self.conn(Some(leader).filter(|l| !l.is_empty()))
            .and_then(|c| c.call(&req, caps::FETCH))
            .map_err(KafkaError::into_cdc)
    }

    /// The end of a partition as a fetch reports it: its high watermark, or with `committed`
    /// its last stable offset.
    pub fn fetch_end(
        &mut self,
        leader: &str,
        topic: &str,
        partition: i32,
        committed: bool,
    ) -> Result<i64> {
        let resp = self.fetch(leader, topic, partition, 0, committed, 1)?;
        let Some(p) = resp
            .responses
            .into_iter()
            .flat_map(|t| t.partitions)
            .find(|p| p.partition_index == partition)
        else {
            return Ok(0);
        };
        if p.error_code != 0 && p.error_code != 1 {
            return Err(KafkaError::Broker {
                request: "Fetch".into(),
                code: p.error_code,
                detail: format!("{topic}-{partition}"),
            }
            .into_cdc());
        }
        Ok(if committed && p.last_stable_offset >= 0 {
            p.last_stable_offset
        } else {
            p.high_watermark
        })
    }

    /// Every record of a topic, partition by partition.
    pub fn read_topic(&mut self, topic: &str, committed: bool) -> Result<Vec<Consumed>> {
        let meta = self.metadata(Some(topic)).map_err(KafkaError::into_cdc)?;
        let Some(leaders) = meta.get(topic).cloned() else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for (p, leader) in leaders.iter().enumerate() {
            out.extend(self.read_partition(leader, topic, p as i32, 0, committed)?);
        }
        Ok(out)
    }

    /// The last committed record of a single-partition topic (None: empty or missing).
    pub fn last_committed(&mut self, topic: &str) -> Result<Option<Consumed>> {
        let meta = self.metadata(Some(topic)).map_err(KafkaError::into_cdc)?;
        let Some(leader) = meta.get(topic).and_then(|l| l.first()).cloned() else {
            return Ok(None);
        };
        let end = self.fetch_end(&leader, topic, 0, true)?;
        // Each transaction adds one offsets record and one marker; look back a little further.
        let mut from = (end - 64).max(0);
        loop {
            let got = self.read_partition(&leader, topic, 0, from, true)?;
            if let Some(last) = got.into_iter().last() {
                return Ok(Some(last));
            }
            if from == 0 {
                return Ok(None);
            }
            from = (from - 4096).max(0);
        }
    }
}
