//! The rows the pipeline does not publish as changes: signal-table inserts (spooled), redo it
//! cannot handle (a CDC-NNNN error or a dead letter, per `cdc.stream.on.decode.error`), rows of
//! objects the dictionary does not know, and the recoveries the decoder made.

use super::TxPipeline;
use crate::capture::output::Output;
use crate::errors::{CdcError, Result};
use crate::stream::buffer::Committed;
use std::io::Write;

impl TxPipeline<'_> {
    /// An insert into the signal table: into the spool (durably, before the stream position
    /// moves past it), where capture takes it up like a file signal. Seen again after a
    /// restart, its id is already known and it is not spooled twice.
    pub(super) fn signal_row(
        &mut self,
        change: &crate::stream::decode::Change,
        tx: &Committed,
        out: &mut Output,
    ) -> Result<()> {
        if change.op != crate::stream::decode::ChangeOp::Create {
            return Ok(());
        }
        let Some(after) = &change.after else {
            return Ok(());
        };
        let text = |name: &str| {
            after
                .iter()
                .find(|(c, _)| c.eq_ignore_ascii_case(name))
                .and_then(|(_, v)| match v {
                    crate::types::Value::Text(t) => Some(t.clone()),
                    _ => None,
                })
        };
        let id = text("ID").unwrap_or_default();
        let parsed = crate::signal::Signal::from_parts(
            &id,
            &text("TYPE").unwrap_or_default(),
            text("DATA").as_deref(),
        );
        match parsed {
            Ok(signal) => {
                if self.spool.known_ids()?.iter().any(|k| k == &signal.id) {
                    return Ok(());
                }
                self.spool.send(&signal)?;
            }
            Err(e) => {
                // Never dropped silently: an ops event and the dead-letter file say why.
                tracing::warn!(
                    "signal table row at SCN {} (XID {}): {e}",
                    change.scn,
                    tx.xid
                );
                self.dead_letter(tx, &e, out)?;
            }
        }
        Ok(())
    }

    /// A change LogMiner did not give in full: counted, an `unsupported-redo` ops event, then
    /// what cdc.on.unsupported.redo says (stop, go on, or a dead letter too).
    pub(super) fn unsupported_redo(
        &mut self,
        e: CdcError,
        tx: Option<&Committed>,
        out: &mut Output,
    ) -> Result<()> {
        use crate::settings::OnUnsupportedRedo;
        let code = e.code().info().code;
        *self
            .status
            .board()
            .stream
            .unsupported
            .entry(code.to_string())
            .or_default() += 1;
        let action = match self.settings.on_unsupported_redo {
            OnUnsupportedRedo::Fail => "fail",
            OnUnsupportedRedo::Skip => "skip",
            OnUnsupportedRedo::Dlq => "dlq",
        };
        self.status.emit(
            "unsupported-redo",
            serde_json::json!({
                "code": code,
                "error": e.to_string(),
                "xid": tx.map(|t| t.xid.clone()),
                "commit_scn": tx.map(|t| t.commit_scn),
                "action": action,
            }),
        )?;
        match self.settings.on_unsupported_redo {
            OnUnsupportedRedo::Fail => Err(e),
            OnUnsupportedRedo::Skip => {
                tracing::warn!("{e}: skipped (cdc.on.unsupported.redo=skip)");
                Ok(())
            }
            OnUnsupportedRedo::Dlq => {
                let none = Committed::for_tests("", 0, 0, 0, "");
                self.dead_letter(tx.unwrap_or(&none), &e, out)
            }
        }
    }

    /// A change LogMiner wrote wrong, read all the same: an ops event and a count, never silent.
    pub(super) fn recovered(&mut self, r: &crate::stream::decode::Recovery) -> Result<()> {
        let kind = r.kind.name();
        *self
            .status
            .board()
            .stream
            .recovered
            .entry(kind.to_string())
            .or_default() += 1;
        self.status.emit(
            "redo-recovered",
            serde_json::json!({"kind": kind, "table": r.table.to_string(), "scn": r.scn, "xid": r.xid}),
        )
    }

    /// Rows LogMiner could not name (`UNKNOWN`.`OBJ# n`), by outcome: on the status board;
    /// each object number no captured table has is named once a run (`unknown-object` ops
    /// event, a warning).
    pub(super) fn unknown_objects(
        &mut self,
        rows: crate::stream::unknown::UnknownRows,
    ) -> Result<()> {
        if rows == Default::default() {
            return Ok(());
        }
        let new: Vec<(String, u64)> = {
            let mut b = self.status.board();
            for (outcome, n) in rows.outcomes() {
                *b.stream
                    .unknown_objects
                    .entry(outcome.to_string())
                    .or_default() += n;
            }
            rows.objects
                .into_iter()
                .filter(|o| b.stream.unknown_objects_named.insert(o.clone()))
                .collect()
        };
        for (container, object) in new {
            let within = if container.is_empty() {
                String::new()
            } else {
                format!(" in {container}")
            };
            tracing::warn!(
                "LogMiner wrote rows of \"UNKNOWN\".\"OBJ# {object}\"{within}, which is no captured table's object number: not published (oracle_cdc_stream_unknown_object_rows_total{{outcome=\"not-captured\"}})"
            );
            self.status.emit(
                "unknown-object",
                serde_json::json!({"object": object, "container": container, "outcome": "not-captured"}),
            )?;
        }
        Ok(())
    }

    pub(super) fn dead_letter(
        &mut self,
        tx: &Committed,
        e: &CdcError,
        out: &mut Output,
    ) -> Result<()> {
        let line = serde_json::json!({"xid": tx.xid, "commit_scn": tx.commit_scn, "error": e.to_string(), "code": e.code().info().code});
        if self.settings.sink.kind == crate::settings::SinkType::Kafka {
            // On the dead-letter topic too, in order with the records around it.
            let record = crate::record::OwnedRecord::of_json(
                self.settings.sink.kafka.topic_dlq.clone(),
                &serde_json::json!({"xid": tx.xid}),
                &line,
                vec![
                    ("cdc.commit_scn", tx.commit_scn.to_string()),
                    ("cdc.error.code", e.code().info().code.to_string()),
                ],
            );
            out.write(&record.as_record())?;
        }
        let mut f = crate::localfs::append(&self.dlq_path, crate::localfs::Kind::Data)?;
        writeln!(f, "{line}").map_err(|err| CdcError::io(&self.dlq_path, err))?;
        *self
            .status
            .board()
            .stream
            .dead_letters
            .entry(e.code().info().code.to_string())
            .or_default() += 1;
        tracing::warn!("{e}: written to {}", self.dlq_path.display());
        Ok(())
    }
}
