//! Capture's acknowledgements, apart from mining and decoding: the sink the records go to
//! (each write and commit counted for the sink metrics, a write that blocks shown as flow
//! control) and the positions the offsets store with every acknowledgement, the stream's and
//! the sink's together.

use super::status::Status;
use crate::errors::Result;
use crate::offsets::{Offsets, SinkPosition, StreamPosition};
use crate::record::{Record, RecordParts};
use crate::sink::RecordSink;
use std::cell::RefCell;
use std::rc::Rc;

/// What the offsets must record together with the snapshot's progress.
#[derive(Debug, Clone)]
pub struct Positions {
    pub stream: StreamPosition,
    pub sink: Option<SinkPosition>,
}

impl Positions {
    pub fn apply(&self, o: &mut Offsets) {
        o.stream = Some(self.stream.clone());
        if let Some(s) = &self.sink {
            o.sink = Some(s.clone());
        }
    }
}

pub struct Output {
    sink: Box<dyn RecordSink>,
    positions: Rc<RefCell<Positions>>,
    status: Status,
    /// `cdc.emulator.fault.sink.delay.ms`: each commit waits this long (a slow sink rehearsed).
    commit_delay_ms: u64,
}

impl Output {
    pub fn new(
        sink: Box<dyn RecordSink>,
        positions: Positions,
        status: Status,
        commit_delay_ms: u64,
    ) -> Output {
        Output {
            sink,
            positions: Rc::new(RefCell::new(positions)),
            status,
            commit_delay_ms,
        }
    }

    /// The positions, shared with the capture loop that stores them in the offsets.
    pub fn positions(&self) -> Rc<RefCell<Positions>> {
        self.positions.clone()
    }

    /// The positions as they are now.
    pub fn current(&self) -> std::cell::Ref<'_, Positions> {
        self.positions.borrow()
    }

    /// The positions, to move on.
    pub fn current_mut(&self) -> std::cell::RefMut<'_, Positions> {
        self.positions.borrow_mut()
    }

    /// Queue one record in the sink, counted for the sink metrics.
    pub fn write(&mut self, record: &Record) -> Result<()> {
        // A write that blocks (stdout to a slow consumer) is flow control too.
        self.status.sink_busy(true);
        let wrote = self.sink.write(record);
        self.status.sink_busy(false);
        let bytes = wrote?;
        let mut b = self.status.board();
        b.sink.records += 1;
        b.sink.bytes += bytes;
        Ok(())
    }

    /// [`Output::write`] for a record written where it goes ([`RecordParts`]); `scratch` is
    /// where a sink that cannot take it so has it made first.
    pub fn write_parts(&mut self, parts: RecordParts<'_, '_>, scratch: &mut Vec<u8>) -> Result<()> {
        self.status.sink_busy(true);
        let wrote = self.sink.write_parts(parts, scratch);
        self.status.sink_busy(false);
        let bytes = wrote?;
        let mut b = self.status.board();
        b.sink.records += 1;
        b.sink.bytes += bytes;
        Ok(())
    }

    /// Make the sink durable, timed for the sink metrics; the position to acknowledge.
    pub fn commit(&mut self) -> Result<SinkPosition> {
        let started = std::time::Instant::now();
        self.status.sink_busy(true);
        if self.commit_delay_ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(self.commit_delay_ms));
        }
        let pos = self.sink.commit();
        self.status.sink_busy(false);
        let pos = pos?;
        let mut b = self.status.board();
        b.sink.commits += 1;
        b.sink.commit_seconds += started.elapsed().as_secs_f64();
        Ok(pos)
    }

    /// Make the sink durable and take its position as the one the offsets store next.
    pub fn acknowledge(&mut self) -> Result<()> {
        let pos = self.commit()?;
        self.positions.borrow_mut().sink = Some(pos);
        Ok(())
    }
}
