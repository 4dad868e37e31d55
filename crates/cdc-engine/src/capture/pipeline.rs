//! Capture's transaction pipeline: mined rows into the transaction buffer, each committed
//! transaction decoded as its rows stream out of the buffer and written as change records
//! (with its DDL applied to the schema history and schema change records, tables created
//! while capture runs taken up, signal-table inserts spooled, and what cannot be published a
//! CDC-NNNN error or a dead letter). It neither mines nor commits: the miner hands it rows,
//! and it writes to capture's [`Output`], whose positions it moves past each transaction.

use super::output::Output;
use super::records::TxRecordWriter;
use super::sequencer::Sequencer;
use super::status::Status;
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::settings::{OnDecodeError, Settings};
use crate::state::StateDir;
use crate::stream::buffer::{Committed, TxBuffer};
use crate::stream::decode::{Catalog, Decoder, Event};
use cdc_core::civil::now_ms;
use cdc_core::model::{LogMinerRow, Scn};
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

mod unusual;

/// The state directory's subdirectory of transaction buffer spill files.
pub const SPILL_DIR: &str = "spill";

/// What the pipeline has done this run, for the metrics.
#[derive(Debug, Default, Clone, Copy)]
pub struct PipelineStats {
    /// Change records written (schema changes and transaction ends included).
    pub records: u64,
    /// Transactions that wrote a record.
    pub transactions: u64,
    /// Rows of captured tables decoded.
    pub rows_captured: u64,
    /// Time spent taking and publishing the mined rows.
    pub parse_seconds: f64,
    /// Commit time (ms) of the last published transaction, for the lag in milliseconds.
    pub last_commit_ms: Option<i64>,
}

pub struct TxPipeline<'a> {
    settings: &'a Settings,
    catalog: Catalog,
    buffer: TxBuffer,
    spill_dir: PathBuf,
    db_name: String,
    /// Whether record topics name the PDB (`cdc.topic.include.pdb`, decided at start).
    with_pdb: bool,
    dlq_path: PathBuf,
    history_path: PathBuf,
    /// The source signal channel's table: its inserts become signals, never records.
    signal_table: Option<TableName>,
    spool: crate::signal::spool::Spool,
    created: Rc<RefCell<Vec<(TableName, Scn)>>>,
    /// The snapshot targets of tables created while capture runs, for capture's list of
    /// captured tables (so signals can name them before a restart).
    new_targets: Vec<crate::snapshot::target::Decision>,
    status: Status,
    stats: PipelineStats,
}

impl<'a> TxPipeline<'a> {
    /// `spill_dir`: where the buffer's largest transactions spill (cleaned as it opens).
    pub fn new(
        settings: &'a Settings,
        catalog: Catalog,
        db_name: &str,
        with_pdb: bool,
        state: &StateDir,
        spill_dir: PathBuf,
        status: Status,
    ) -> Result<TxPipeline<'a>> {
        Ok(TxPipeline {
            settings,
            catalog,
            buffer: TxBuffer::new(settings.stream.buffer_memory_bytes, spill_dir.clone())?,
            spill_dir,
            db_name: db_name.to_string(),
            with_pdb,
            dlq_path: state.path.join("dlq.jsonl"),
            history_path: state.path.join(super::HISTORY_FILE),
            signal_table: settings
                .signal
                .source
                .then(|| settings.signal.data_collection.clone())
                .flatten(),
            spool: crate::signal::spool::Spool::new(&state.path),
            created: Rc::new(RefCell::new(Vec::new())),
            new_targets: Vec::new(),
            status,
            stats: PipelineStats::default(),
        })
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    pub fn with_pdb(&self) -> bool {
        self.with_pdb
    }

    pub fn db_name(&self) -> &str {
        &self.db_name
    }

    pub fn buffer(&self) -> &TxBuffer {
        &self.buffer
    }

    pub fn stats(&self) -> PipelineStats {
        self.stats
    }

    /// Time spent on a window's rows.
    pub fn count_parse_seconds(&mut self, seconds: f64) {
        self.stats.parse_seconds += seconds;
    }

    /// A new, empty buffer: the transactions open in the old one are mined again from their
    /// START.
    pub fn restart_buffer(&mut self) -> Result<()> {
        // The old buffer's spill files go first (the new one cleans the directory).
        self.buffer = TxBuffer::default();
        self.buffer = TxBuffer::new(
            self.settings.stream.buffer_memory_bytes,
            self.spill_dir.clone(),
        )?;
        Ok(())
    }

    /// One mined row into the buffer; the transaction its COMMIT ends, if it is one. Redo
    /// LogMiner could not read (MISSING_SCN) has no transaction to wait for: it goes to
    /// `cdc.on.unsupported.redo` at once.
    pub fn take(&mut self, row: LogMinerRow, out: &mut Output) -> Result<Option<Committed>> {
        if row.operation_code == cdc_core::model::op::MISSING_SCN {
            let e = CdcError::MissingScn {
                scn: row.scn,
                thread: row.thread,
            };
            self.unsupported_redo(e, None, out)?;
            return Ok(None);
        }
        if is_no_transaction(&row.xid) {
            return self.no_transaction(row, out).map(|()| None);
        }
        self.buffer.push(row)
    }

    /// A row whose XID is all zeros belongs to no transaction (LogMiner writes such START rows:
    /// Debezium dbz#2683). Buffered, it would open a transaction no COMMIT ends: one that
    /// never publishes, and, once it holds a change, holds the restart SCN back for good. A
    /// START, COMMIT or ROLLBACK carries no change and is passed over; a change cannot be
    /// placed, so it goes to cdc.on.unsupported.redo (CDC-3010).
    fn no_transaction(&mut self, row: LogMinerRow, out: &mut Output) -> Result<()> {
        use crate::stream::handling::Handling;
        match Handling::of(row.operation_code) {
            Handling::Start
            | Handling::Commit
            | Handling::Rollback
            | Handling::Ignored
            | Handling::StatementEnd => {
                tracing::debug!(
                    "a {} row with no transaction (XID {}) at SCN {}: passed over",
                    row.operation,
                    row.xid,
                    row.scn
                );
                Ok(())
            }
            Handling::Dml | Handling::Piece(_) | Handling::Ddl | Handling::Reported => {
                let table = match (&row.seg_owner, &row.table_name) {
                    (Some(o), Some(t)) => format!("{o}.{t}"),
                    (_, t) => t.clone().unwrap_or_else(|| "an unnamed object".into()),
                };
                let e = CdcError::NoTransaction {
                    scn: row.scn,
                    table,
                    row: format!(
                        "XID {}, ROW_ID {}, {} `{}`",
                        row.xid, row.row_id, row.operation, row.sql_redo
                    ),
                };
                self.unsupported_redo(e, None, out)
            }
        }
    }

    /// Whether `tx` is at or before the stream position already acknowledged.
    pub fn already_published(out: &Output, tx: &Committed) -> bool {
        Sequencer::is_published(&out.current().stream, tx.commit_scn, &tx.xid)
    }

    /// Publish a committed transaction, decoding its rows as they stream from the buffer (its
    /// spill file, then memory), so a transaction of any size is published in bounded memory.
    /// `dictionary` is read at a DDL whose statement does not tell the new layout, and at a
    /// CREATE TABLE of a captured table.
    pub fn publish(
        &mut self,
        mut tx: Committed,
        host_offset: i32,
        out: &mut Output,
        dictionary: &mut dyn cdc_core::session::Catalog,
    ) -> Result<()> {
        if Self::already_published(out, &tx) {
            return Ok(());
        }
        let settings = self.settings;
        let db_name = self.db_name.clone();
        let mut wrote = false;
        let mut events = Decoder::new(&mut tx);
        let mut records = TxRecordWriter::new(
            &settings.sink.topic_prefix,
            &db_name,
            &tx,
            host_offset,
            &settings.record,
            self.with_pdb,
        );
        while let Some(event) = events.next_event(&self.catalog) {
            for r in events.take_recovered() {
                self.recovered(&r)?;
            }
            match event {
                Ok(Event::Change(change)) => {
                    if self.signal_table.as_ref() == Some(&change.table) {
                        self.signal_row(&change, &tx, out)?;
                        continue;
                    }
                    let Some(schema) = self.catalog.tables.get(&change.table) else {
                        continue;
                    };
                    for record in records.records(schema, &change) {
                        out.write(&record)?;
                        self.stats.records += 1;
                        wrote = true;
                    }
                }
                Ok(Event::Ddl { table, scn, sql }) => {
                    tracing::info!("DDL on {table} at SCN {scn}: {sql}");
                    if self.table_created(&table, scn, &sql, dictionary)? {
                        self.schema_change(&tx, &table, scn, &sql, host_offset, out)?;
                        continue;
                    }
                    let extended = self.catalog.extended_strings;
                    let layout = match crate::stream::ddl::apply(&[], &sql, extended) {
                        // The statement tells the new layout; no need to ask the dictionary.
                        Some(_) => None,
                        None => dictionary.tables()?.into_iter().find(|t| t.name == table),
                    };
                    if self.catalog.apply_ddl(&table, scn, &sql, layout.as_ref()) {
                        // Durable before the offsets move past the DDL.
                        super::save_history(&self.history_path, &self.catalog)?;
                    }
                    self.schema_change(&tx, &table, scn, &sql, host_offset, out)?;
                }
                // A spill file that cannot be read is not a decoding problem.
                Err(e @ CdcError::Io { .. }) => return Err(e),
                Err(e) if e.is_unsupported_redo() => self.unsupported_redo(e, Some(&tx), out)?,
                Err(e) if settings.on_decode_error == OnDecodeError::Dlq => {
                    self.dead_letter(&tx, &e, out)?
                }
                Err(e) => return Err(e),
            }
        }
        self.stats.rows_captured += events.captured_rows();
        self.unknown_objects(events.take_unknown())?;
        if let Some(record) = records.end_record() {
            out.write(&record)?;
            self.stats.records += 1;
        }
        if wrote {
            self.stats.transactions += 1;
        }
        Sequencer::published(
            &mut out.current_mut().stream,
            tx.commit_scn,
            &tx.xid,
            tx.thread,
        );
        self.stats.last_commit_ms =
            cdc_core::model::host_time_to_epoch_ms(&tx.commit_timestamp, host_offset)
                .or(self.stats.last_commit_ms);
        Ok(())
    }

    /// A schema change event for a DDL on a captured table (`cdc.include.schema.changes`), with
    /// the table's layout after it.
    fn schema_change(
        &mut self,
        tx: &Committed,
        table: &TableName,
        scn: Scn,
        sql: &str,
        host_offset: i32,
        out: &mut Output,
    ) -> Result<()> {
        if !self.settings.record.schema_changes || self.signal_table.as_ref() == Some(table) {
            return Ok(());
        }
        let Some(schema) = self.catalog.tables.get(table) else {
            return Ok(());
        };
        let commit_ms = cdc_core::model::host_time_to_epoch_ms(&tx.commit_timestamp, host_offset)
            .unwrap_or_else(now_ms);
        let record = crate::record::schema_change::record(
            &crate::record::schema_change::Ddl {
                topic_prefix: &self.settings.sink.topic_prefix,
                db: table.pdb.as_deref().unwrap_or(&self.db_name),
                table,
                sql,
                scn,
                commit_scn: tx.commit_scn,
                xid: &tx.xid,
                commit_ms,
                columns: schema.columns_at(scn),
                key: &schema.key,
            },
            &self.settings.record,
        );
        out.write(&record.as_record())?;
        self.stats.records += 1;
        Ok(())
    }

    /// CREATE TABLE of a table the settings capture: from now on its changes are decoded with
    /// the dictionary's columns, and capture snapshots it (`created`). Returns whether the DDL
    /// was a CREATE TABLE (seen again after a restart it is announced again; capture keeps one
    /// snapshot per CREATE).
    fn table_created(
        &mut self,
        table: &TableName,
        scn: Scn,
        sql: &str,
        dictionary: &mut dyn cdc_core::session::Catalog,
    ) -> Result<bool> {
        let create = crate::stream::decode::is_create_table_sql(sql);
        if !create || !self.settings.is_captured(table) || self.signal_table.as_ref() == Some(table)
        {
            return Ok(create);
        }
        if !self.catalog.tables.contains_key(table) {
            let info = dictionary.tables()?.into_iter().find(|t| &t.name == table);
            let Some(info) = info else {
                tracing::warn!(
                    "{table} was created at SCN {scn} but the dictionary no longer has it"
                );
                return Ok(true);
            };
            // The layout at the CREATE: the statement's, as the dictionary may already show
            // columns added since (the changes in between do not have them).
            let columns = crate::stream::ddl::create_table(sql, self.catalog.extended_strings)
                .unwrap_or_else(|| info.columns.clone());
            let mut decisions = crate::snapshot::target::resolve(self.settings, vec![info], &[])?;
            let Some(crate::snapshot::target::Decision::Capture(t)) = decisions.first() else {
                return Ok(true);
            };
            // Before any of its changes: a created table must not take a captured one's topic.
            let naming = crate::offsets::TopicNaming {
                prefix: self.settings.sink.topic_prefix.clone(),
                pdb: self.with_pdb,
            };
            super::topics::check_new(&naming, table, self.catalog.tables.keys())?;
            self.catalog
                .tables
                .insert(table.clone(), super::table_schema(t, vec![(scn, columns)]));
            self.catalog.add_objects(&t.info);
            self.new_targets.append(&mut decisions);
            // Durable before the offsets move past the CREATE.
            super::save_history(&self.history_path, &self.catalog)?;
        } else if let Some(columns) =
            crate::stream::ddl::create_table(sql, self.catalog.extended_strings)
        {
            // Known already (mined again after a restart, or in today's dictionary when capture
            // started): from the CREATE on, its layout is the statement's, not today's.
            if self.catalog.apply_create(table, scn, columns) {
                super::save_history(&self.history_path, &self.catalog)?;
            }
        }
        self.created.borrow_mut().push((table.clone(), scn));
        Ok(true)
    }

    /// The snapshot targets of the tables created since the last call.
    pub fn take_new_targets(&mut self) -> Vec<crate::snapshot::target::Decision> {
        std::mem::take(&mut self.new_targets)
    }

    /// Tables created while capture runs, to be snapshotted (capture takes them).
    pub fn created(&self) -> Rc<RefCell<Vec<(TableName, Scn)>>> {
        self.created.clone()
    }
}

/// An XID of all zeros (`0000000000000000`, any case of length): no transaction.
fn is_no_transaction(xid: &str) -> bool {
    !xid.is_empty() && xid.bytes().all(|b| b == b'0')
}
