//! Parquet exports, exactly once across restarts.
//!
//! A table's rows go to `TABLE.00000.parquet`, and to the next number every
//! `cdc.snapshot.parquet.file.rows` rows. Every chunk is one row group (split at a million rows),
//! written and fsynced before the offsets acknowledge the file's length. A Parquet file is only
//! readable once its footer is written, so while a file is open the footer of its row groups so
//! far is kept beside it in `.NAME.footer`, replaced atomically after every chunk. A restart
//! seals the acknowledged file: it cuts it back to the acknowledged bytes, appends the footer of
//! the row groups that end there (from the sidecar, or from the file's own footer once it was
//! closed) and continues the table in its next file — nothing unacknowledged survives, nothing
//! acknowledged is lost.

use super::arrow_rows::TableLayout;
use crate::errors::{CdcError, Result};
use crate::offsets::{FileProgress, Offsets, TableProgress};
use crate::snapshot::read::ReadChunk;
use crate::snapshot::target::TableTarget;
use parquet::arrow::{add_encoded_arrow_schema_to_metadata, ArrowSchemaConverter, ArrowWriter};
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::{
    FileMetaData, ParquetMetaData, ParquetMetaDataReader, ParquetMetaDataWriter, RowGroupMetaData,
};
use parquet::file::properties::WriterProperties;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Compression of Parquet exports (`cdc.snapshot.parquet.compression`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParquetCompression {
    Zstd,
    None,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParquetOptions {
    /// Rows after which a table continues in a new file (0: one file per table).
    pub file_rows: u64,
    pub compression: ParquetCompression,
}

impl Default for ParquetOptions {
    fn default() -> Self {
        ParquetOptions {
            file_rows: 10_000_000,
            compression: ParquetCompression::Zstd,
        }
    }
}

/// The name of a table's file number `index` (`table`: the table's text, as in the offsets;
/// the file is named by [`crate::names::file_stem`]).
pub fn part_name(table: &str, index: u32) -> String {
    format!("{}.{index:05}.parquet", crate::names::key_file_stem(table))
}

fn part_index(table: &str, name: &str) -> Option<u32> {
    name.strip_prefix(crate::names::key_file_stem(table).as_str())?
        .strip_prefix('.')?
        .strip_suffix(".parquet")?
        .parse()
        .ok()
}

fn sidecar(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(".{name}.footer"))
}

fn parquet_error(path: &Path, e: impl std::fmt::Display) -> CdcError {
    CdcError::Parquet {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// The end of a row group's bytes in its file.
fn row_group_end(rg: &RowGroupMetaData) -> u64 {
    rg.columns()
        .iter()
        .map(|c| {
            let (start, len) = c.byte_range();
            start + len
        })
        .max()
        .unwrap_or(0)
}

/// Bytes before the first row group: the magic `PAR1`.
const MAGIC_LEN: u64 = 4;

struct OpenFile {
    name: String,
    path: PathBuf,
    writer: ArrowWriter<File>,
    rows: u64,
    /// The file-level part of the footer (schema, key-value metadata with the Arrow schema).
    footer: FileMetaData,
}

#[derive(Default)]
struct TableFiles {
    /// Number of the table's next file.
    next: u32,
    /// Files from `next` on were looked for and removed (by `recover` or the first `open`).
    cleared: bool,
    open: Option<OpenFile>,
    layout: Option<Arc<TableLayout>>,
}

pub struct ParquetFiles {
    dir: PathBuf,
    options: ParquetOptions,
    tables: HashMap<String, TableFiles>,
}

impl ParquetFiles {
    pub fn new(dir: &Path, options: ParquetOptions) -> ParquetFiles {
        ParquetFiles {
            dir: dir.to_path_buf(),
            options,
            tables: HashMap::new(),
        }
    }

    pub fn set_options(&mut self, options: ParquetOptions) {
        self.options = options;
    }

    /// The files of a table so far, in order.
    pub fn files(table: &str, progress: Option<&TableProgress>) -> Vec<String> {
        let last = progress
            .and_then(|p| p.file.as_ref())
            .and_then(|f| part_index(table, &f.name));
        match last {
            Some(last) => (0..=last).map(|i| part_name(table, i)).collect(),
            None => Vec::new(),
        }
    }

    fn properties(&self) -> WriterProperties {
        WriterProperties::builder()
            .set_compression(match self.options.compression {
                ParquetCompression::Zstd => Compression::ZSTD(ZstdLevel::default()),
                ParquetCompression::None => Compression::UNCOMPRESSED,
            })
            .set_created_by(format!("oracle-cdc {}", env!("CARGO_PKG_VERSION")))
            .build()
    }

    /// Seal every table's acknowledged file and remove files nothing acknowledged, before a
    /// run (also when the export is complete: a crash may have come before the last seal).
    pub fn recover(&mut self, offsets: &Offsets) -> Result<()> {
        let Some(state) = &offsets.snapshot else {
            return Ok(());
        };
        for (table, progress) in &state.tables {
            let next = match &progress.file {
                Some(f) => {
                    let index =
                        part_index(table, &f.name).ok_or_else(|| CdcError::OffsetsDamaged {
                            path: self.dir.join(super::OFFSETS_FILE),
                            message: format!(
                                "{table}: `{}` is not a Parquet file name of the table",
                                f.name
                            ),
                        })?;
                    let rows = self.seal(&f.name, f.bytes)?;
                    self.remove_from(table, index + 1)?;
                    // An empty file is simply written again by the table's next chunk.
                    if rows == 0 {
                        index
                    } else {
                        index + 1
                    }
                }
                None => {
                    self.remove_from(table, 0)?;
                    0
                }
            };
            let entry = self.tables.entry(table.clone()).or_default();
            entry.next = next;
            entry.cleared = true;
        }
        Ok(())
    }

    /// Remove the table's files numbered `from` and on, and their sidecars (written, never
    /// acknowledged).
    fn remove_from(&self, table: &str, from: u32) -> Result<()> {
        let entries = std::fs::read_dir(&self.dir).map_err(|e| CdcError::io(&self.dir, e))?;
        for e in entries {
            let e = e.map_err(|e| CdcError::io(&self.dir, e))?;
            let name = e.file_name().to_string_lossy().into_owned();
            let part = name
                .strip_prefix('.')
                .and_then(|n| n.strip_suffix(".footer"))
                .unwrap_or(&name);
            if part_index(table, part).is_some_and(|i| i >= from) {
                let p = e.path();
                // A link or a directory under the name is refused, its target never touched.
                crate::localfs::remove_file(&p)?;
                tracing::info!("{}: removed, it was never acknowledged", p.display());
            }
        }
        Ok(())
    }

    /// Make `name` a complete Parquet file of exactly the row groups in its first `bytes`
    /// bytes; returns their rows.
    fn seal(&self, name: &str, bytes: u64) -> Result<u64> {
        let path = self.dir.join(name);
        let side = sidecar(&self.dir, name);
        let damaged = |message: String| CdcError::OffsetsDamaged {
            path: self.dir.join(super::OFFSETS_FILE),
            message,
        };
        let mut file = crate::localfs::open(
            &path,
            OpenOptions::new().read(true).write(true),
            crate::localfs::Kind::Data,
        )?;
        let len = file.metadata().map_err(|e| CdcError::io(&path, e))?.len();
        if len < bytes.max(MAGIC_LEN) {
            return Err(damaged(format!(
                "{} has {len} bytes but the offsets acknowledge {bytes}; the export directory was changed by hand",
                path.display()
            )));
        }
        let (meta, from_sidecar) = match std::fs::read(&side) {
            Ok(footer) => (
                decode_footer(&footer).map_err(|e| parquet_error(&side, e))?,
                true,
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (
                ParquetMetaDataReader::new()
                    .parse_and_finish(&file)
                    .map_err(|e| parquet_error(&path, e))?,
                false,
            ),
            Err(e) => return Err(CdcError::io(&side, e)),
        };
        let kept: Vec<RowGroupMetaData> = meta
            .row_groups()
            .iter()
            .filter(|rg| row_group_end(rg) <= bytes)
            .cloned()
            .collect();
        let end = kept.last().map(row_group_end).unwrap_or(MAGIC_LEN);
        if end != bytes {
            return Err(damaged(format!(
                "{} is acknowledged up to byte {bytes}, but its row groups end at byte {end} there",
                path.display()
            )));
        }
        let rows: u64 = kept.iter().map(|rg| rg.num_rows().max(0) as u64).sum();
        if !from_sidecar && kept.len() == meta.row_groups().len() {
            return Ok(rows); // Closed with exactly the acknowledged row groups.
        }
        if len > bytes {
            tracing::info!(
                "{}: cutting {} unacknowledged bytes",
                path.display(),
                len - bytes
            );
        }
        let fm = meta.file_metadata();
        let footer = FileMetaData::new(
            fm.version(),
            rows as i64,
            fm.created_by().map(str::to_string),
            fm.key_value_metadata().cloned(),
            fm.schema_descr_ptr(),
            fm.column_orders().cloned(),
        );
        let sealed = ParquetMetaData::new(footer, kept);
        let mut buf = Vec::new();
        ParquetMetaDataWriter::new(&mut buf, &sealed)
            // The page indexes of a closed file lay past the cut.
            .with_preserve_page_index_locations(false)
            .finish()
            .map_err(|e| parquet_error(&path, e))?;
        file.set_len(bytes).map_err(|e| CdcError::io(&path, e))?;
        file.seek(SeekFrom::Start(bytes))
            .map_err(|e| CdcError::io(&path, e))?;
        file.write_all(&buf).map_err(|e| CdcError::io(&path, e))?;
        file.sync_all().map_err(|e| CdcError::io(&path, e))?;
        remove_sidecar(&side)?;
        Ok(rows)
    }

    fn layout(&mut self, t: &TableTarget) -> Result<Arc<TableLayout>> {
        let table = t.name().to_string();
        let entry = self.tables.entry(table.clone()).or_default();
        if let Some(l) = &entry.layout {
            return Ok(l.clone());
        }
        let l = Arc::new(TableLayout::new(&table, &t.columns)?);
        entry.layout = Some(l.clone());
        Ok(l)
    }

    /// Start the table's next file.
    fn open(&mut self, t: &TableTarget) -> Result<()> {
        let layout = self.layout(t)?;
        let table = t.name().to_string();
        let (index, cleared) = self
            .tables
            .get(&table)
            .map_or((0, false), |f| (f.next, f.cleared));
        if !cleared {
            // No offsets of this table: files of an export whose offsets are gone.
            self.remove_from(&table, index)?;
        }
        let name = part_name(&table, index);
        let path = self.dir.join(&name);
        let file = crate::localfs::create(&path, crate::localfs::Kind::Data)?;
        let props = self.properties();
        let schema = layout.schema();
        // The footer's file-level part, as the writer will write it when it closes.
        let mut with_schema = props.clone();
        add_encoded_arrow_schema_to_metadata(schema, &mut with_schema);
        let descr = ArrowSchemaConverter::new()
            .convert(schema)
            .map_err(|e| parquet_error(&path, e))?;
        let footer = FileMetaData::new(
            with_schema.writer_version().as_num(),
            0,
            Some(with_schema.created_by().to_string()),
            with_schema.key_value_metadata().cloned(),
            Arc::new(descr),
            None,
        );
        let writer = ArrowWriter::try_new(file, schema.clone(), Some(props))
            .map_err(|e| parquet_error(&path, e))?;
        let entry = self.tables.entry(table).or_default();
        entry.cleared = true;
        entry.open = Some(OpenFile {
            name,
            path,
            writer,
            rows: 0,
            footer,
        });
        Ok(())
    }

    /// Write the footer of the open file's row groups so far to its sidecar.
    fn save_footer(&self, f: &OpenFile) -> Result<()> {
        let row_groups = f.writer.flushed_row_groups().to_vec();
        let fm = &f.footer;
        let footer = FileMetaData::new(
            fm.version(),
            f.rows as i64,
            fm.created_by().map(str::to_string),
            fm.key_value_metadata().cloned(),
            fm.schema_descr_ptr(),
            None,
        );
        let mut buf = Vec::new();
        ParquetMetaDataWriter::new(&mut buf, &ParquetMetaData::new(footer, row_groups))
            .finish()
            .map_err(|e| parquet_error(&f.path, e))?;
        crate::atomic_file::write_atomically(&sidecar(&self.dir, &f.name), &buf)
    }

    /// Close the table's open file: the writer writes the footer, then the sidecar goes.
    fn close(&mut self, table: &str) -> Result<()> {
        let Some(entry) = self.tables.get_mut(table) else {
            return Ok(());
        };
        let Some(f) = entry.open.take() else {
            return Ok(());
        };
        entry.next = part_index(table, &f.name).unwrap_or(entry.next) + 1;
        let file = f
            .writer
            .into_inner()
            .map_err(|e| parquet_error(&f.path, e))?;
        file.sync_all().map_err(|e| CdcError::io(&f.path, e))?;
        remove_sidecar(&sidecar(&self.dir, &f.name))
    }

    /// Close every open file (the snapshot is complete).
    pub fn finish(&mut self) -> Result<()> {
        let open: Vec<String> = self
            .tables
            .iter()
            .filter(|(_, f)| f.open.is_some())
            .map(|(t, _)| t.clone())
            .collect();
        for t in open {
            self.close(&t)?;
        }
        Ok(())
    }

    /// Give a table without any chunk its (empty) file.
    pub fn ensure(&mut self, t: &TableTarget, progress: &mut TableProgress) -> Result<()> {
        let table = t.name().to_string();
        if self.tables.get(&table).is_some_and(|f| f.open.is_some()) {
            return self.close(&table);
        }
        self.open(t)?;
        let name = part_name(&table, self.tables.get(&table).map_or(0, |f| f.next));
        self.close(&table)?;
        progress.file = Some(FileProgress {
            name,
            bytes: MAGIC_LEN,
        });
        Ok(())
    }

    pub fn publish(
        &mut self,
        t: &TableTarget,
        chunk: &mut ReadChunk,
        progress: &mut TableProgress,
    ) -> Result<()> {
        let table = t.name().to_string();
        // Columns added, dropped or renamed since the open file began: it ends there, and the
        // table goes on in its next file with the chunk's schema.
        if self
            .tables
            .get(&table)
            .and_then(|f| f.layout.as_ref())
            .is_some_and(|l| l.columns() != chunk.columns.as_slice())
        {
            self.close(&table)?;
            self.tables.entry(table.clone()).or_default().layout = None;
        }
        let entry = self.tables.entry(table.clone()).or_default();
        if entry.layout.is_none() {
            entry.layout = Some(Arc::new(TableLayout::new(&table, &chunk.columns)?));
        }
        if self.tables.get(&table).is_none_or(|f| f.open.is_none()) {
            self.open(t)?;
        }
        let layout = self.layout(t)?;
        let batch = layout.batch(&chunk.rows)?;
        let file_rows = self.options.file_rows;
        let entry = self
            .tables
            .get_mut(&table)
            .and_then(|f| f.open.as_mut())
            .ok_or_else(|| parquet_error(&self.dir, format!("{table}: no open file")))?;
        if batch.num_rows() > 0 {
            entry
                .writer
                .write(&batch)
                .map_err(|e| parquet_error(&entry.path, e))?;
            // One row group per chunk: durable on its own.
            entry
                .writer
                .flush()
                .map_err(|e| parquet_error(&entry.path, e))?;
        }
        entry
            .writer
            .sync()
            .map_err(|e| CdcError::io(&entry.path, e))?;
        entry
            .writer
            .inner()
            .sync_data()
            .map_err(|e| CdcError::io(&entry.path, e))?;
        entry.rows += batch.num_rows() as u64;
        let done = FileProgress {
            name: entry.name.clone(),
            bytes: entry.writer.bytes_written() as u64,
        };
        let full = file_rows > 0 && entry.rows >= file_rows;
        if chunk.is_final || full {
            self.close(&table)?;
        } else if let Some(f) = self.tables.get(&table).and_then(|f| f.open.as_ref()) {
            self.save_footer(f)?;
        }
        progress.file = Some(done);
        Ok(())
    }
}

fn remove_sidecar(side: &Path) -> Result<()> {
    match std::fs::remove_file(side) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(CdcError::io(side, e)),
    }
}

/// A footer as [`ParquetMetaDataWriter`] writes it: metadata, its length, `PAR1`.
fn decode_footer(buf: &[u8]) -> std::result::Result<ParquetMetaData, String> {
    if buf.len() < 8 || &buf[buf.len() - 4..] != b"PAR1" {
        return Err("the footer sidecar is cut short".into());
    }
    let mut len = [0u8; 4];
    len.copy_from_slice(&buf[buf.len() - 8..buf.len() - 4]);
    let len = u32::from_le_bytes(len) as usize;
    let start = (buf.len() - 8)
        .checked_sub(len)
        .ok_or("the footer sidecar is cut short")?;
    ParquetMetaDataReader::decode_metadata(&buf[start..buf.len() - 8]).map_err(|e| e.to_string())
}
