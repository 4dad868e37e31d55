//! Where capture's records go. Every sink takes the same typed [`Record`] and acknowledges a
//! [`SinkPosition`]; each is one module here, and [`prepare`] is the one place that picks it
//! by `cdc.sink.type`:
//! - [`file`]: JSON-lines segment files, exactly once across kill -9;
//! - [`stdout`]: JSON lines to a reader;
//! - [`kafka`]: Kafka records over the engine's own client (`crate::kafka`), exactly once for
//!   `read_committed` consumers with transactions.
//!
//! A new sink is a module here, a `SinkType`, and one arm in [`prepare`] and [`Prepared::open`].

pub mod file;
pub mod kafka;
pub mod owner;
pub mod stdout;

pub use crate::record::Record;
pub use file::{claim_fresh, FileSink};
pub use kafka::KafkaSink;
pub use stdout::{reader_gone, StdoutSink};
// The segment files' names and listing are their own module (offsets edit reads them too).
pub use crate::segments::{segment_index, segment_name, segments};

use crate::errors::Result;
use crate::offsets::SinkPosition;
pub use crate::record::RecordParts;
use crate::settings::{Settings, SinkType};
use std::path::Path;

pub trait RecordSink {
    /// Queue one record; returns the bytes it took (its line and newline in a file or on
    /// stdout; its key, value and headers in Kafka).
    fn write(&mut self, record: &Record) -> Result<u64>;
    /// Queue one record whose key and value `parts` writes (see [`RecordParts`]), as
    /// [`RecordSink::write`] would queue it. A file sink has them written straight into its
    /// line; the others get them made in `scratch` first, then written.
    fn write_parts(&mut self, parts: RecordParts<'_, '_>, scratch: &mut Vec<u8>) -> Result<u64> {
        scratch.clear();
        let key = (parts.key)(scratch).then_some(0..scratch.len());
        let value_from = scratch.len();
        let value = (parts.value)(scratch).then_some(value_from..scratch.len());
        self.write(&Record {
            topic: parts.topic,
            key: key.map(|k| &scratch[k]),
            value: value.map(|v| &scratch[v]),
            // Copied, not moved: `Headers` (a SmallVec) cannot shorten its lifetime to the
            // scratch buffer's.
            headers: parts.headers.iter().cloned().collect(),
        })
    }
    /// Make everything queued durable and return the position to acknowledge.
    fn commit(&mut self) -> Result<SinkPosition>;
}

/// A sink chosen by the settings, before capture knows its acknowledged position.
pub enum Prepared {
    File,
    Stdout,
    /// Connected already (see [`prepare`]).
    Kafka(KafkaSink),
}

/// The first step of opening the sink, before the offsets at `offsets_path` are loaded: the
/// Kafka sink connects now, since with transactions it fences an older producer and may take
/// newer offsets from Kafka (a crash between its commit and the local offsets write); `stop`
/// ends its waits. The others have nothing to do before their position is known.
pub fn prepare(
    settings: &Settings,
    offsets_path: &Path,
    ops_path: &Path,
    stop: crate::kafka::StopFlag,
) -> Result<Prepared> {
    Ok(match settings.sink.kind {
        SinkType::File => Prepared::File,
        SinkType::Stdout => Prepared::Stdout,
        SinkType::Kafka => Prepared::Kafka(KafkaSink::open_with_stop(
            settings,
            offsets_path,
            ops_path,
            stop,
        )?),
    })
}

impl Prepared {
    /// The sink, at the acknowledged `position` (none on a first start).
    pub fn open(
        self,
        settings: &Settings,
        position: Option<&SinkPosition>,
    ) -> Result<Box<dyn RecordSink>> {
        Ok(match self {
            Prepared::File => Box::new(FileSink::open(
                &settings.sink.dir,
                settings.sink.segment_bytes,
                position,
            )?),
            Prepared::Stdout => Box::new(StdoutSink::new(position)),
            Prepared::Kafka(k) => Box::new(k),
        })
    }
}
