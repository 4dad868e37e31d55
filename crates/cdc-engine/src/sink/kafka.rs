//! The Kafka sink. Each [`Record`] becomes a Kafka record on its topic as it is: key = the JSON
//! of the key columns, value = the JSON envelope (none for a tombstone), headers as text.
//!
//! `commit` returns once the broker acknowledged every record before it (acks=all, idempotent
//! producer), so the offsets never run ahead of the broker. With
//! `cdc.sink.kafka.transactional.id`, the records between two offsets writes form one Kafka
//! transaction, and the offsets document itself is its last record (on the offsets topic): the
//! transaction commits right before the local offsets file is written. On start the last
//! committed document in Kafka is compared with the local file: equal, or one transaction ahead
//! (a crash between the two writes: Kafka's copy is taken), else CDC-6206. So records and
//! position commit together: exactly once for `read_committed` consumers.

use super::RecordSink;
use crate::crashpoint::Point;
use crate::errors::{CdcError, Code, Result};
use crate::kafka::consumer::Consumer;
use crate::kafka::producer::{Producer, Rec};
use crate::kafka::StopFlag;
use crate::offsets::{Offsets, SinkPosition};
use crate::record::Record;
use crate::settings::Settings;
use bytes::Bytes;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The Kafka transactions a stored position counts (none: another sink's, or no position).
fn transactions(position: Option<&SinkPosition>) -> u64 {
    match position {
        Some(SinkPosition::Kafka { transactions, .. }) => *transactions,
        _ => 0,
    }
}

/// A record as the producer sends it, on its topic.
pub fn kafka_record(record: &Record) -> Rec {
    let bytes = |b: Option<&[u8]>| b.map(Bytes::copy_from_slice);
    Rec {
        key: bytes(record.key),
        value: bytes(record.value),
        headers: record
            .headers
            .iter()
            .map(|(name, value)| (name.to_string(), Bytes::from(value.to_bytes())))
            .collect(),
        timestamp: cdc_core::civil::now_ms(),
    }
}

struct Shared {
    producer: Producer,
    /// Transactions committed with an offsets document (the stored `bytes`).
    committed: u64,
    /// Records acknowledged by the broker.
    records: u64,
    /// Ops events forwarded to the ops topic: the ops file and how far it was read.
    ops: Option<(PathBuf, u64)>,
}

impl Shared {
    /// Queue the ops events written since the last call for the ops topic.
    fn forward_ops(&mut self) -> Result<()> {
        let Some((path, pos)) = self.ops.clone() else {
            return Ok(());
        };
        let mut f = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(CdcError::io(&path, e)),
        };
        f.seek(SeekFrom::Start(pos))
            .map_err(|e| CdcError::io(&path, e))?;
        let mut buf = Vec::new();
        f.read_to_end(&mut buf)
            .map_err(|e| CdcError::io(&path, e))?;
        // Only whole lines; a line being written waits for the next call.
        let Some(end) = buf.iter().rposition(|b| *b == b'\n') else {
            return Ok(());
        };
        let topic = self.producer.settings().topic_ops.clone();
        for line in buf[..end].split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let event = serde_json::from_slice::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v.get("event").and_then(|e| e.as_str()).map(str::to_string))
                .unwrap_or_default();
            self.producer.send(
                &topic,
                Rec {
                    key: Some(Bytes::from(serde_json::Value::String(event).to_string())),
                    value: Some(Bytes::copy_from_slice(line)),
                    headers: Vec::new(),
                    timestamp: cdc_core::civil::now_ms(),
                },
            )?;
        }
        self.ops = Some((path, pos + end as u64 + 1));
        Ok(())
    }

    /// Commit the open transaction with the offsets document as its last record.
    fn seal(&mut self, doc: &[u8]) -> Result<()> {
        if !self.producer.dirty {
            return Ok(());
        }
        self.forward_ops()?;
        let s = self.producer.settings();
        let (topic, id) = (
            s.topic_offsets.clone(),
            s.transactional_id.clone().unwrap_or_default(),
        );
        let seq = self.committed + 1;
        self.producer.send(
            &topic,
            Rec {
                key: Some(Bytes::from(id.into_bytes())),
                value: Some(Bytes::copy_from_slice(doc)),
                headers: vec![("cdc.transaction".into(), Bytes::from(seq.to_string()))],
                timestamp: cdc_core::civil::now_ms(),
            },
        )?;
        self.producer.commit_transaction()?;
        self.committed = seq;
        Ok(())
    }
}

/// What a start does with the transaction number the local offsets store and the one of the
/// last offsets committed to Kafka.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reconcile {
    /// Both agree.
    Same,
    /// Kafka is one transaction ahead: the crash came between its commit and the local write,
    /// so Kafka's offsets are the true ones (taking them publishes nothing twice).
    TakeKafka,
    /// Anything else: another capture wrote there, or one side was replaced (CDC-6206).
    Mismatch,
}

pub fn reconcile(local: u64, kafka: u64) -> Reconcile {
    if kafka == local {
        Reconcile::Same
    } else if kafka == local + 1 {
        Reconcile::TakeKafka
    } else {
        Reconcile::Mismatch
    }
}

/// The Kafka sink capture writes to (the producer is shared with the offsets save hook).
pub struct KafkaSink {
    shared: Arc<Mutex<Shared>>,
    _hook: Option<crate::offsets::SaveHookGuard>,
}

fn lock(m: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl KafkaSink {
    /// Connect (a transactional producer fences an older one and aborts its open transaction)
    /// and, with transactions, reconcile the local offsets file at `offsets_path` with the last
    /// offsets committed to Kafka. Call before the offsets are loaded.
    pub fn open(settings: &Settings, offsets_path: &Path, ops_path: &Path) -> Result<KafkaSink> {
        KafkaSink::open_with_stop(settings, offsets_path, ops_path, StopFlag::default())
    }

    /// [`KafkaSink::open`] for capture: `stop` ends every wait of the sink, at start and later
    /// (CDC-6202 "stopped while waiting", which capture ends as a stop).
    pub fn open_with_stop(
        settings: &Settings,
        offsets_path: &Path,
        ops_path: &Path,
        stop: StopFlag,
    ) -> Result<KafkaSink> {
        let k = &settings.sink.kafka;
        let producer = Producer::connect_with_stop(k, stop.clone())?;
        let local = Offsets::load(offsets_path)?;
        let local_seq = transactions(local.as_ref().and_then(|o| o.sink.as_ref()));
        let mut committed = local_seq;
        if producer.transactional() {
            let mut c = Consumer::new(
                &k.brokers,
                &k.client_id,
                Duration::from_millis(k.request_timeout_ms),
            )
            .with_tls(k.tls.clone())
            .with_sasl(k.sasl.clone())
            .with_stop(stop);
            let last = c.last_committed(&k.topic_offsets)?;
            let kafka_doc = match &last {
                Some(r) => {
                    let text = r
                        .value
                        .as_ref()
                        .map(|v| String::from_utf8_lossy(v).into_owned())
                        .unwrap_or_default();
                    let (o, _) = Offsets::parse(Path::new(&k.topic_offsets), &text)?;
                    Some((o, text))
                }
                None => None,
            };
            let kafka_seq = transactions(kafka_doc.as_ref().and_then(|(o, _)| o.sink.as_ref()));
            match reconcile(local_seq, kafka_seq) {
                Reconcile::Same => {}
                Reconcile::TakeKafka => {
                    if let Some((_, text)) = &kafka_doc {
                        tracing::info!(
                            "the offsets committed to Kafka (transaction {kafka_seq}) are ahead of {}: taking them",
                            offsets_path.display()
                        );
                        crate::atomic_file::write_atomically(offsets_path, text.as_bytes())?;
                    }
                    committed = kafka_seq;
                }
                Reconcile::Mismatch => {
                    return Err(CdcError::kafka(
                        Code::Cdc6206,
                        format!(
                            "the offsets topic {} holds transaction {kafka_seq} but {} stores transaction {local_seq}",
                            k.topic_offsets,
                            offsets_path.display()
                        ),
                    ));
                }
            }
        }
        let records = match Offsets::load(offsets_path)?.and_then(|o| o.sink) {
            Some(SinkPosition::Kafka { records, .. }) => records,
            _ => 0,
        };
        let ops_from = std::fs::metadata(ops_path).map_or(0, |m| m.len());
        let shared = Arc::new(Mutex::new(Shared {
            producer,
            committed,
            records,
            ops: Some((ops_path.to_path_buf(), ops_from)),
        }));
        let hook = if lock(&shared).producer.transactional() {
            let s = shared.clone();
            Some(crate::offsets::set_save_hook(
                offsets_path,
                Box::new(move |doc: &[u8]| lock(&s).seal(doc)),
            ))
        } else {
            None
        };
        Ok(KafkaSink {
            shared,
            _hook: hook,
        })
    }
}

impl RecordSink for KafkaSink {
    fn write(&mut self, record: &Record) -> Result<u64> {
        crate::crashpoint::hit(Point::SinkWrite)?;
        let rec = kafka_record(record);
        let size = rec.key.as_ref().map_or(0, Bytes::len)
            + rec.value.as_ref().map_or(0, Bytes::len)
            + rec
                .headers
                .iter()
                .map(|(n, v)| n.len() + v.len())
                .sum::<usize>();
        let mut s = lock(&self.shared);
        s.producer.send(record.topic, rec)?;
        s.records += 1;
        Ok(size as u64)
    }

    fn commit(&mut self) -> Result<SinkPosition> {
        let mut s = lock(&self.shared);
        if !s.producer.transactional() {
            s.forward_ops()?;
        }
        s.producer.flush()?;
        crate::crashpoint::hit(Point::SinkCommitFlushed)?;
        // With transactions the open one commits with the offsets written next: its number.
        let transactions = if s.producer.transactional() {
            s.committed + s.producer.dirty as u64
        } else {
            0
        };
        Ok(SinkPosition::Kafka {
            transactions,
            records: s.records,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_takes_kafkas_offsets_only_one_transaction_ahead() {
        assert_eq!(reconcile(0, 0), Reconcile::Same);
        assert_eq!(reconcile(7, 7), Reconcile::Same);
        assert_eq!(reconcile(7, 8), Reconcile::TakeKafka);
        assert_eq!(reconcile(0, 1), Reconcile::TakeKafka);
        // Kafka lost its offsets topic, or it is another capture's.
        assert_eq!(reconcile(7, 0), Reconcile::Mismatch);
        assert_eq!(reconcile(7, 9), Reconcile::Mismatch);
        assert_eq!(reconcile(7, 6), Reconcile::Mismatch);
    }

    #[test]
    fn records_become_kafka_records_part_for_part() {
        use crate::record::{HeaderValue, Headers};
        let mut headers = Headers::new();
        headers.push(("cdc.snapshot", HeaderValue::Text("true")));
        headers.push(("cdc.scn", HeaderValue::Scn(95)));
        let record = Record {
            topic: "cdc.PDB1.HR.EMP",
            key: Some(br#"{"ID":7}"#),
            value: Some(br#"{"before":null,"after":{"ID":7,"N":"a"}}"#),
            headers,
        };
        let rec = kafka_record(&record);
        assert_eq!(rec.key.as_deref(), Some(&br#"{"ID":7}"#[..]));
        assert_eq!(
            rec.value.as_deref(),
            Some(&br#"{"before":null,"after":{"ID":7,"N":"a"}}"#[..])
        );
        assert_eq!(
            rec.headers,
            vec![
                ("cdc.snapshot".to_string(), Bytes::from_static(b"true")),
                ("cdc.scn".to_string(), Bytes::from_static(b"95")),
            ]
        );
        // A table without a key, a tombstone: no record key, no value.
        let rec = kafka_record(&Record {
            topic: "t",
            key: None,
            value: None,
            headers: Headers::new(),
        });
        assert_eq!((rec.key, rec.value), (None, None));
    }
}
