//! `oracle-cdc snapshot`: a one-off export of tables to files, one per table, resumable with
//! exactly-once output: every chunk is fsynced before the offsets acknowledge it, and a
//! restart first cuts each file back to its acknowledged length.

use crate::crashpoint::Point;
use crate::encode;
use crate::errors::{CdcError, Result};
use crate::offsets::{FileProgress, TableProgress};
use crate::record::{now_ms, SnapshotMarker, TableContext, TableSchemas};
use crate::snapshot::read::ReadChunk;
use crate::snapshot::target::TableTarget;
use crate::snapshot::ChunkSink;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

mod arrow_rows;
mod pace;
mod parquet;
pub use pace::Paced;
pub use parquet::{ParquetCompression, ParquetOptions};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// One JSON object per row (column → value).
    Jsonl,
    /// One full record per line (Kafka-shaped: topic, key, value envelope, headers).
    Records,
    /// A header row, then one row per line; DATE and TIMESTAMP as ISO-8601 text.
    Csv,
    /// CSV with DATE and TIMESTAMP as epoch integers, as records carry them.
    CsvEpoch,
    /// Parquet files (Arrow schema from the Oracle types), one row group per chunk.
    Parquet,
}

impl ExportFormat {
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Jsonl => "jsonl",
            ExportFormat::Records => "records",
            ExportFormat::Csv => "csv",
            ExportFormat::CsvEpoch => "csv-epoch",
            ExportFormat::Parquet => "parquet",
        }
    }
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Csv | ExportFormat::CsvEpoch => "csv",
            ExportFormat::Parquet => "parquet",
            _ => "jsonl",
        }
    }
}

pub const OFFSETS_FILE: &str = "offsets.json";
pub const OPS_FILE: &str = "ops.jsonl";
pub const MANIFEST_FILE: &str = "manifest.json";

pub struct ExportSink {
    dir: PathBuf,
    format: ExportFormat,
    topic_prefix: String,
    db_name: String,
    files: HashMap<String, File>,
    /// Bytes written per table file (acknowledged + this run).
    lengths: HashMap<String, u64>,
    /// The header row of each CSV file: its columns, which every chunk must have.
    headers: HashMap<String, Vec<String>>,
    /// The Parquet writer, which keeps its own files.
    parquet: Option<parquet::ParquetFiles>,
    /// A chunk's encoded bytes, kept from chunk to chunk: a new buffer each time costs its
    /// pages' first-touch faults again.
    buf: Vec<u8>,
    /// `--records`: the record format (the `cdc.*` record settings, as capture writes them)
    /// and whether topics name the PDB.
    record_format: crate::record::format::Format,
    topics_with_pdb: bool,
}

impl ExportSink {
    pub fn new(dir: &Path, format: ExportFormat, topic_prefix: &str, db_name: &str) -> ExportSink {
        ExportSink {
            dir: dir.to_path_buf(),
            format,
            topic_prefix: topic_prefix.to_string(),
            db_name: db_name.to_string(),
            files: HashMap::new(),
            lengths: HashMap::new(),
            headers: HashMap::new(),
            parquet: (format == ExportFormat::Parquet)
                .then(|| parquet::ParquetFiles::new(dir, ParquetOptions::default())),
            buf: Vec::new(),
            record_format: crate::record::format::Format::default(),
            topics_with_pdb: true,
        }
    }

    /// `--records` in `format`, topics with the PDB or not, as capture would write them.
    pub fn with_record_format(
        mut self,
        format: crate::record::format::Format,
        topics_with_pdb: bool,
    ) -> ExportSink {
        self.record_format = format;
        self.topics_with_pdb = topics_with_pdb;
        self
    }

    pub fn with_parquet_options(mut self, options: ParquetOptions) -> ExportSink {
        if let Some(p) = &mut self.parquet {
            p.set_options(options);
        }
        self
    }

    pub fn file_name(&self, t: &TableTarget) -> String {
        if self.parquet.is_some() {
            return parquet::part_name(&t.name().to_string(), 0);
        }
        format!("{}.{}", t.name().file_stem(), self.format.extension())
    }

    /// Every file of the table so far.
    pub fn files(&self, t: &TableTarget, progress: Option<&TableProgress>) -> Vec<String> {
        if self.parquet.is_some() {
            return parquet::ParquetFiles::files(&t.name().to_string(), progress);
        }
        vec![self.file_name(t)]
    }

    /// [`Self::files`] of a table by name (none before its first chunk).
    pub fn files_of(&self, table: &str, progress: Option<&TableProgress>) -> Vec<String> {
        if self.parquet.is_some() {
            return parquet::ParquetFiles::files(table, progress);
        }
        progress
            .and_then(|p| p.file.as_ref())
            .map(|f| vec![f.name.clone()])
            .unwrap_or_default()
    }

    /// Before a run: make every acknowledged file whole again (Parquet files need their footer).
    pub fn recover(&mut self, offsets: &crate::offsets::Offsets) -> Result<()> {
        match &mut self.parquet {
            Some(p) => p.recover(offsets),
            None => Ok(()),
        }
    }

    /// After a complete run: close the files still open.
    pub fn finish(&mut self) -> Result<()> {
        match &mut self.parquet {
            Some(p) => p.finish(),
            None => Ok(()),
        }
    }

    /// Open the table's file: cut back to the acknowledged length on a restart, new otherwise.
    /// `columns`: those of the first chunk, for a new CSV file's header.
    fn open(
        &mut self,
        t: &TableTarget,
        columns: &[cdc_core::model::ColumnInfo],
        progress: &TableProgress,
    ) -> Result<()> {
        let name = self.file_name(t);
        if self.files.contains_key(&name) {
            return Ok(());
        }
        let path = self.dir.join(&name);
        let acknowledged = progress.file.as_ref().map(|f| f.bytes).unwrap_or(0);
        let mut file = crate::localfs::open(
            &path,
            OpenOptions::new().create(true).write(true).truncate(false),
            crate::localfs::Kind::Data,
        )?;
        let len = file.metadata().map_err(|e| CdcError::io(&path, e))?.len();
        if len > acknowledged {
            tracing::info!(
                "{}: cutting {} unacknowledged bytes",
                path.display(),
                len - acknowledged
            );
        }
        if len < acknowledged {
            return Err(CdcError::OffsetsDamaged {
                path: self.dir.join(OFFSETS_FILE),
                message: format!(
                    "{} has {len} bytes but the offsets acknowledge {acknowledged}; the export directory was changed by hand",
                    path.display()
                ),
            });
        }
        file.set_len(acknowledged)
            .map_err(|e| CdcError::io(&path, e))?;
        use std::io::Seek;
        file.seek(std::io::SeekFrom::Start(acknowledged))
            .map_err(|e| CdcError::io(&path, e))?;
        let mut length = acknowledged;
        if acknowledged > 0 && matches!(self.format, ExportFormat::Csv | ExportFormat::CsvEpoch) {
            // Resumed: the header already written names the file's columns.
            let mut r = csv::Reader::from_path(&path)
                .map_err(|e| CdcError::io(&path, std::io::Error::other(e)))?;
            let header = r
                .headers()
                .map_err(|e| CdcError::io(&path, std::io::Error::other(e)))?;
            self.headers
                .insert(name.clone(), header.iter().map(str::to_string).collect());
        }
        if acknowledged == 0 && matches!(self.format, ExportFormat::Csv | ExportFormat::CsvEpoch) {
            self.headers.insert(
                name.clone(),
                columns.iter().map(|c| c.name.clone()).collect(),
            );
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(columns.iter().map(|c| c.name.as_str()))
                .map_err(|e| CdcError::io(&path, std::io::Error::other(e)))?;
            let header = w
                .into_inner()
                .map_err(|e| CdcError::io(&path, std::io::Error::other(e.to_string())))?;
            file.write_all(&header)
                .map_err(|e| CdcError::io(&path, e))?;
            length += header.len() as u64;
        }
        self.lengths.insert(name.clone(), length);
        self.files.insert(name, file);
        Ok(())
    }
}

impl ExportSink {
    /// Make sure the table has its file (an empty table still gets one, with its CSV header).
    pub fn ensure(&mut self, t: &TableTarget, progress: &mut TableProgress) -> Result<()> {
        if let Some(p) = &mut self.parquet {
            return p.ensure(t, progress);
        }
        self.open(t, &t.columns, progress)?;
        let name = self.file_name(t);
        let path = self.dir.join(&name);
        if let Some(f) = self.files.get_mut(&name) {
            f.sync_data().map_err(|e| CdcError::io(&path, e))?;
        }
        let bytes = self.lengths.get(&name).copied().unwrap_or(0);
        progress.file = Some(FileProgress { name, bytes });
        Ok(())
    }
}

impl ChunkSink for ExportSink {
    /// Records (`--records`) carry Debezium's `last` / `last_in_data_collection`; the other
    /// formats no marker.
    fn marks_last(&self) -> bool {
        self.format == ExportFormat::Records
    }

    /// Records carry a row's `row_id`; the other formats only its columns.
    fn writes_row_ids(&self) -> bool {
        self.format == ExportFormat::Records
    }

    /// An export has each row once: a table resumed past a move of its segment stops.
    fn each_row_once(&self) -> bool {
        true
    }

    fn publish(
        &mut self,
        t: &TableTarget,
        chunk: &mut ReadChunk,
        first_record: bool,
        last_record: bool,
        progress: &mut TableProgress,
    ) -> Result<()> {
        self.write_chunk(t, chunk, first_record, last_record, progress, true)
    }

    /// Written, not synced: a table's chunks go to one file, so the fsync after the wave's
    /// last chunk covers them all.
    fn publish_unsynced(
        &mut self,
        t: &TableTarget,
        chunk: &mut ReadChunk,
        first_record: bool,
        last_record: bool,
        progress: &mut TableProgress,
    ) -> Result<()> {
        self.write_chunk(t, chunk, first_record, last_record, progress, false)
    }
}

impl ExportSink {
    /// Append a chunk to its table's file; with `sync` the file is then made durable (with
    /// every chunk written to it before).
    fn write_chunk(
        &mut self,
        t: &TableTarget,
        chunk: &mut ReadChunk,
        first_record: bool,
        last_record: bool,
        progress: &mut TableProgress,
        sync: bool,
    ) -> Result<()> {
        if let Some(p) = &mut self.parquet {
            // A Parquet file's row groups are durable one by one.
            return p.publish(t, chunk, progress);
        }
        self.open(t, &chunk.columns, progress)?;
        let name = self.file_name(t);
        let path = self.dir.join(&name);
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        buf.reserve(chunk.rows.len() * 128);
        let ctx = TableContext {
            topic_prefix: &self.topic_prefix,
            db: t.name().pdb.as_deref().unwrap_or(&self.db_name),
            table: t.name(),
            // The columns the chunk was read with: the table's at its SCN.
            columns: &chunk.columns,
            key_columns: &t.record_key,
        };
        match self.format {
            ExportFormat::Jsonl => {
                let keys: Vec<Vec<u8>> = chunk
                    .columns
                    .iter()
                    .map(|c| encode::json_key(&c.name))
                    .collect();
                // Each row freed as soon as it is written (see `write_csv_rows`).
                for row in std::mem::take(&mut chunk.rows) {
                    encode::write_json_row(&mut buf, &keys, &chunk.columns, &row.values);
                    buf.push(b'\n');
                }
            }
            ExportFormat::Records => {
                let fmt = &self.record_format;
                let schemas = ctx.schemas(fmt, self.topics_with_pdb);
                let ts = now_ms();
                let n = chunk.rows.len();
                // Each record's line as capture's file sink writes it.
                let mut lines = crate::record::LineWriter::default();
                for (i, row) in chunk.rows.iter().enumerate() {
                    let (table_first, table_last) = (progress.rows == 0, chunk.last_rows);
                    let marker = SnapshotMarker::in_table(
                        first_record,
                        last_record,
                        table_first,
                        table_last,
                        i,
                        n,
                    );
                    // Key and value written straight into the file's buffer.
                    lines.write_with(
                        &schemas.topic,
                        &TableSchemas::headers(marker),
                        &mut buf,
                        |out| ctx.write_snapshot_key(out, fmt, &schemas, row),
                        |out| {
                            ctx.write_snapshot_value(
                                out, fmt, &schemas, row, chunk.scn, marker, ts,
                            );
                            true
                        },
                    );
                    buf.push(b'\n');
                }
            }
            ExportFormat::Csv | ExportFormat::CsvEpoch => {
                // A CSV file has one header: a chunk of another layout cannot go under it.
                let header = self.headers.get(&name).cloned().unwrap_or_default();
                let now: Vec<String> = chunk.columns.iter().map(|c| c.name.clone()).collect();
                if header != now {
                    return Err(CdcError::ExportLayoutChanged {
                        table: t.name().to_string(),
                        scn: chunk.scn,
                        file: path.clone(),
                        before: header,
                        after: now,
                    });
                }
                let times = if self.format == ExportFormat::CsvEpoch {
                    encode::CsvTimes::Epoch
                } else {
                    encode::CsvTimes::Iso
                };
                let rows = std::mem::take(&mut chunk.rows);
                encode::write_csv_rows_with(&mut buf, &chunk.columns, rows, times);
            }
            // Parquet chunks went to the Parquet writer at the top.
            ExportFormat::Parquet => {}
        }
        let file = self
            .files
            .get_mut(&name)
            .ok_or_else(|| CdcError::io(&path, std::io::Error::other("file not open")))?;
        file.write_all(&buf).map_err(|e| CdcError::io(&path, e))?;
        // Durable before the offsets acknowledge it.
        if sync {
            file.sync_data().map_err(|e| CdcError::io(&path, e))?;
            crate::crashpoint::hit(Point::ExportChunkSynced)?;
        }
        let len = self.lengths.entry(name.clone()).or_default();
        *len += buf.len() as u64;
        progress.file = Some(FileProgress { name, bytes: *len });
        self.buf = buf;
        Ok(())
    }
}

#[cfg(test)]
#[path = "export/layout_tests.rs"]
mod layout_tests;
