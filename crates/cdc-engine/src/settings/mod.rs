//! Settings: a YAML file of `cdc.*` keys, overridden by `ORACLE_CDC_*` environment variables,
//! overridden by `--set KEY=VALUE`. Everything is validated at load, so a command never starts
//! with a setting it would trip over later.

pub mod broker;
pub mod keys;
mod load;
pub mod record_format;
mod secret;
mod url;

pub use keys::{KeySpec, Kind, KEYS};
pub use load::LoadOptions;
pub use secret::Secret;
pub use url::{DatabaseUrl, Scheme};

use crate::errors::{CdcError, Code, Result};
use crate::names::{TableName, TablePatterns};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Where an effective value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Default,
    File(PathBuf),
    Env(String),
    Set,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Default => f.write_str("default"),
            Origin::File(p) => write!(f, "{}", p.display()),
            Origin::Env(v) => write!(f, "env {v}"),
            Origin::Set => f.write_str("--set"),
        }
    }
}

/// A raw value before typing: YAML sequences stay lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Raw {
    Scalar(String),
    List(Vec<String>),
}

impl Raw {
    fn items(&self) -> Vec<String> {
        match self {
            Raw::List(v) => v.clone(),
            Raw::Scalar(s) => s
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        }
    }
    fn display(&self) -> String {
        match self {
            Raw::Scalar(s) => s.clone(),
            Raw::List(v) => v.join(","),
        }
    }
}

/// One effective setting.
#[derive(Debug, Clone)]
pub struct Entry {
    pub raw: Raw,
    pub origin: Origin,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotMode {
    Initial,
    None,
    SnapshotOnly,
    OnSignal,
}

/// `cdc.database.driver`: which driver the Oracle adapter opens its sessions with (the
/// adapter's own type: only it acts on it).
pub use cdc_oracle::driver::Driver as DatabaseDriver;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyMissing {
    Rowid,
    Fail,
    Skip,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnDecodeError {
    Fail,
    Dlq,
}

/// cdc.on.unsupported.redo: a change LogMiner did not give in full (CDC-3003 … CDC-3006).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnUnsupportedRedo {
    Fail,
    Skip,
    Dlq,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SinkType {
    File,
    Stdout,
    Kafka,
}

/// Record batch compression of the Kafka sink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KafkaCompression {
    None,
    Gzip,
    Snappy,
    Zstd,
}

/// The cdc.sink.kafka.* settings.
#[derive(Debug, Clone)]
pub struct KafkaSettings {
    /// Bootstrap brokers, `host:port`.
    pub brokers: Vec<String>,
    /// cdc.sink.kafka.security.protocol=SSL: TLS with this configuration (the CA file read at
    /// load), else plain TCP.
    pub tls: Option<std::sync::Arc<rustls::ClientConfig>>,
    /// cdc.sink.kafka.security.protocol=SASL_*: authenticate every connection so (its
    /// password a [`Secret`]: `Debug` redacts it).
    pub sasl: Option<crate::kafka::sasl::SaslConfig>,
    pub transactional_id: Option<String>,
    pub compression: KafkaCompression,
    pub max_in_flight_bytes: u64,
    pub topic_ops: String,
    pub topic_dlq: String,
    pub topic_offsets: String,
    pub topic_partitions: u32,
    pub client_id: String,
    pub request_timeout_ms: u64,
    pub retry_backoff_ms: u64,
    pub retry_backoff_max_ms: u64,
    /// How long a request is retried before capture stops with its error (finite: Kafka's
    /// default, 120 s).
    pub delivery_timeout_ms: u64,
    pub transaction_timeout_ms: u64,
    pub batch_size: u64,
}

#[derive(Debug, Clone)]
pub struct SnapshotSettings {
    pub mode: SnapshotMode,
    /// cdc.snapshot.max.rows.per.second (0: no limit) and its per-table keys.
    pub max_rows_per_second: u64,
    pub table_max_rows_per_second: BTreeMap<TableName, u64>,
    pub chunk_rows: u64,
    pub threads: u32,
    pub max_pending_chunks: u32,
    pub chunk_retries: u32,
    /// Reads again at a fresh SCN after ORA-01466 (a DDL newer than the chunk's SCN).
    pub chunk_ddl_retries: u32,
    /// Rows per Parquet export file (0: one per table).
    pub parquet_file_rows: u64,
    /// Parquet exports compress their pages with zstd (else not at all).
    pub parquet_zstd: bool,
    pub select_overrides: BTreeMap<TableName, String>,
    pub tables_order: Vec<TableName>,
    pub new_tables: NewTables,
    /// cdc.snapshot.access.policies=allow: read a table whose reads VPD or Data Redaction
    /// policies change for the capture user (else CDC-2206 / CDC-2207).
    pub allow_access_policies: bool,
}

/// cdc.snapshot.new.tables: what happens to a captured table the previous run did not capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewTables {
    Signal,
    Auto,
}

/// The signal channels and how signals are handled.
#[derive(Debug, Clone)]
pub struct SignalSettings {
    pub file: bool,
    pub source: bool,
    pub data_collection: Option<TableName>,
    /// cdc.signal.concurrent=queue: run a snapshot signal after the running one.
    pub queue: bool,
    pub poll_ms: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnRef {
    pub table: TableName,
    pub column: String,
}

#[derive(Debug, Clone)]
pub struct SinkSettings {
    pub kind: SinkType,
    pub dir: PathBuf,
    pub segment_bytes: u64,
    pub topic_prefix: String,
    pub kafka: KafkaSettings,
}

// The emulator's fault drills (`cdc.emulator.fault.*`) are the emulator's type; settings fill it.
pub use cdc_emulator::FaultSettings;

impl Settings {
    /// The emulator's fault drills these settings switch on.
    pub fn emulator_faults(&self) -> cdc_emulator::Faults {
        cdc_emulator::Faults {
            settings: self.faults.clone(),
        }
    }
}

/// Retrying a connection that failed transiently (see [`crate::source::login_unless_stopped`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectRetry {
    pub retries: u32,
    pub backoff_ms: u64,
    pub backoff_max_ms: u64,
    /// After a connection that worked is lost: how long (in waits between tries) to keep
    /// reconnecting; 0: `retries` tries, as a first connect.
    pub reconnect_max_ms: u64,
}

impl Default for ConnectRetry {
    fn default() -> Self {
        ConnectRetry {
            retries: 8,
            backoff_ms: 250,
            backoff_max_ms: 30_000,
            reconnect_max_ms: 600_000,
        }
    }
}

// The Oracle adapter's defaults for cdc.mining.idle.thread.ms and cdc.database.sdu.
pub use cdc_oracle::{DEFAULT_IDLE_THREAD_MS, DEFAULT_SDU};

/// The validated, effective settings.
#[derive(Debug, Clone)]
pub struct Settings {
    entries: BTreeMap<String, Entry>,
    database_url: String,
    database_user: Option<String>,
    database_password: Option<Secret>,
    mining_url: Option<String>,
    mining_user: Option<String>,
    mining_password: Option<Secret>,
    wallet_password: Option<Secret>,
    /// cdc.database.wallet.location: a tcps connection's certificates.
    pub wallet_location: Option<PathBuf>,
    pub state_dir: PathBuf,
    /// cdc.database.connect.*: retries of transiently failed connects.
    pub connect: ConnectRetry,
    pub snapshot: SnapshotSettings,
    pub include: TablePatterns,
    pub exclude: TablePatterns,
    pub keys: BTreeMap<TableName, Vec<String>>,
    /// cdc.key.unchecked: tables whose cdc.key is unique on the operator's word.
    pub keys_unchecked: Vec<TableName>,
    pub key_missing: KeyMissing,
    pub on_decode_error: OnDecodeError,
    pub on_unsupported_redo: OnUnsupportedRedo,
    pub columns_exclude: Vec<ColumnRef>,
    pub sink: SinkSettings,
    pub stream: StreamSettings,
    pub signal: SignalSettings,
    /// cdc.database.read.only: nothing may be written to the database.
    pub read_only: bool,
    /// How records are encoded (Debezium's properties, `record_format`).
    pub record: record_format::Format,
    /// cdc.mining.dictionary: the dictionary LogMiner decodes with.
    pub mining_dictionary: cdc_core::model::Dictionary,
    /// cdc.mining.dictionary.build=log_switch: capture builds a dictionary into the redo at
    /// each log switch it sees (with the redo_logs dictionary).
    pub dictionary_build_at_switch: bool,
    /// cdc.database.driver: thin (default) or thick, for Oracle URLs.
    pub database_driver: DatabaseDriver,
    /// cdc.database.call.timeout.ms: the longest Oracle round trip; `None`: no limit.
    pub call_timeout: Option<std::time::Duration>,
    /// cdc.database.connect.timeout.ms: the longest one Oracle login may take.
    pub connect_timeout: std::time::Duration,
    /// cdc.database.sdu: the session data unit asked for (`source::oracle::descriptor`).
    pub database_sdu: u32,
    /// cdc.mining.idle.thread.ms: how long a redo thread's written position stands still
    /// before the thread counts as idle.
    pub idle_thread_ms: u64,
    /// cdc.mining.gap.timeout.ms: how long a gap in redo transport may hold downstream capture.
    pub gap_timeout_ms: u64,
    /// cdc.files.group.readable: data files 0640 (else 0600).
    pub files_group_readable: bool,
    /// cdc.doctor.read.rate: rows per second one snapshot reader is assumed to read.
    pub doctor_read_rate: u64,
    pub faults: FaultSettings,
}

#[derive(Debug, Clone)]
pub struct StreamSettings {
    pub heartbeat_ms: u64,
    pub metrics_ms: u64,
    /// cdc.metrics.listen: where the Prometheus endpoint listens (None: no endpoint).
    pub metrics_listen: Option<String>,
    pub window_scn: u64,
    /// cdc.stream.window.scn.max: the span windows stretch to over sparse redo.
    pub window_scn_max: u64,
    pub poll_ms: u64,
    /// cdc.stream.buffer.memory.bytes: rows of open transactions kept in memory before spilling.
    pub buffer_memory_bytes: u64,
}

impl Settings {
    /// Whether `cdc.columns.exclude` lists the column (as `PDB.OWNER.TABLE.COLUMN`, or as
    /// `OWNER.TABLE.COLUMN` for the table in any PDB): never read nor published.
    pub fn column_excluded(&self, table: &TableName, column: &str) -> bool {
        self.columns_exclude.iter().any(|c| {
            c.column == column
                && (c.table == *table
                    || (c.table.pdb.is_none()
                        && c.table.owner == table.owner
                        && c.table.table == table.table))
        })
    }

    /// Load the layers described by `options` and validate every key.
    /// Warnings (an ignored environment variable) go to the log.
    pub fn load(options: &LoadOptions) -> Result<Settings> {
        let (settings, warnings) = Settings::load_with_warnings(options)?;
        for w in warnings {
            tracing::warn!("{w}");
        }
        Ok(settings)
    }

    /// [`Settings::load`], returning its warnings rather than logging them.
    pub fn load_with_warnings(options: &LoadOptions) -> Result<(Settings, Vec<String>)> {
        let (entries, warnings) = load::collect(options)?;
        Ok((Settings::from_entries(entries)?, warnings))
    }

    /// Settings from `KEY=VALUE` pairs only (tests, embedding).
    pub fn from_pairs<S: AsRef<str>>(pairs: &[S]) -> Result<Settings> {
        Settings::load(&LoadOptions {
            sets: pairs.iter().map(|p| p.as_ref().to_string()).collect(),
            ..LoadOptions::default()
        })
    }

    fn from_entries(entries: BTreeMap<String, Entry>) -> Result<Settings> {
        let v = Values { entries: &entries };
        let password = match entries.get(keys::DATABASE_PASSWORD) {
            Some(e) => Some(Secret::resolve(keys::DATABASE_PASSWORD, &e.raw.display())?),
            None => None,
        };
        let mining_password = match entries.get(keys::MINING_DATABASE_PASSWORD) {
            Some(e) => Some(Secret::resolve(
                keys::MINING_DATABASE_PASSWORD,
                &e.raw.display(),
            )?),
            None => None,
        };
        let wallet_password = match entries.get(keys::DATABASE_WALLET_PASSWORD) {
            Some(e) => Some(Secret::resolve(
                keys::DATABASE_WALLET_PASSWORD,
                &e.raw.display(),
            )?),
            None => None,
        };
        let thick = entries
            .get(keys::DATABASE_DRIVER)
            .is_some_and(|e| e.raw.display().trim() == "thick");
        let wallet_location = match entries.get(keys::DATABASE_WALLET_LOCATION) {
            None => None,
            Some(e) => {
                let text = e.raw.display();
                let text = text.trim();
                if text.is_empty() {
                    return Err(invalid(keys::DATABASE_WALLET_LOCATION, text, "a directory"));
                }
                // Thick mode writes it into a connect descriptor, which has no quoting for these.
                if thick && (text.contains(['(', ')', '=']) || text.contains(char::is_whitespace)) {
                    return Err(invalid(
                        keys::DATABASE_WALLET_LOCATION,
                        text,
                        "with cdc.database.driver=thick, a directory path without spaces, \
                         parentheses or `=` (it goes into the connect descriptor)",
                    ));
                }
                Some(PathBuf::from(text))
            }
        };
        if wallet_password.is_some() && wallet_location.is_none() {
            return Err(CdcError::settings(
                Code::Cdc1002,
                "cdc.database.wallet.password is set but cdc.database.wallet.location is not: \
                 the password opens the key in that directory's ewallet.pem",
            ));
        }
        let mut select_overrides = BTreeMap::new();
        let mut table_keys = BTreeMap::new();
        let mut table_rates = BTreeMap::new();
        for (key, entry) in &entries {
            let Some((spec, Some(table))) = keys::lookup(key) else {
                continue;
            };
            let table: TableName = table
                .parse()
                .map_err(|e| CdcError::settings(Code::Cdc1001, format!("`{key}`: {e}")))?;
            match spec.key {
                keys::SELECT_OVERRIDE => {
                    let cond = entry.raw.display();
                    validate_condition(key, &cond)?;
                    select_overrides.insert(table, cond);
                }
                keys::KEY => {
                    let cols: Vec<String> = entry
                        .raw
                        .items()
                        .iter()
                        .map(|c| crate::names::split_identifiers(c).map(|mut p| p.remove(0)))
                        .collect::<std::result::Result<_, _>>()
                        .map_err(|e| invalid(key, &entry.raw.display(), &e))?;
                    if cols.is_empty() {
                        return Err(invalid(key, "", "a list of one or more key columns"));
                    }
                    table_keys.insert(table, cols);
                }
                keys::MAX_ROWS_PER_SECOND => {
                    let raw = entry.raw.display();
                    let rate = raw
                        .trim()
                        .replace('_', "")
                        .parse::<u64>()
                        .map_err(|_| invalid(key, &raw, "a whole number of rows per second"))?;
                    table_rates.insert(table, rate);
                }
                _ => {}
            }
        }
        let columns_exclude = v
            .list(keys::COLUMNS_EXCLUDE)
            .iter()
            .map(|c| parse_column_ref(c).map_err(|e| invalid(keys::COLUMNS_EXCLUDE, c, &e)))
            .collect::<Result<Vec<_>>>()?;
        let tables_order = v
            .list(keys::TABLES_ORDER)
            .iter()
            .map(|t| {
                t.parse()
                    .map_err(|e: String| invalid(keys::TABLES_ORDER, t, &e))
            })
            .collect::<Result<Vec<_>>>()?;
        let keys_unchecked = v
            .list(keys::KEY_UNCHECKED)
            .iter()
            .map(|t| {
                t.parse()
                    .map_err(|e: String| invalid(keys::KEY_UNCHECKED, t, &e))
            })
            .collect::<Result<Vec<_>>>()?;
        let patterns = |key: &str| {
            TablePatterns::new(&v.list(key)).map_err(|e| invalid(key, &v.text(key), &e))
        };
        let fault_tables = |key: &str| -> Result<Vec<String>> {
            let list = v.list(key);
            TablePatterns::new(&list).map_err(|e| invalid(key, &v.text(key), &e))?;
            Ok(list)
        };
        let ora01555_reads = v
            .list(keys::FAULT_ORA01555_READS)
            .iter()
            .map(|n| {
                n.parse::<u64>()
                    .map_err(|_| invalid(keys::FAULT_ORA01555_READS, n, "a list of whole numbers"))
            })
            .collect::<Result<Vec<_>>>()?;
        let ordinals = |key: &str| {
            v.list(key)
                .iter()
                .map(|n| {
                    n.parse::<u64>()
                        .map_err(|_| invalid(key, n, "a list of whole numbers"))
                })
                .collect::<Result<Vec<_>>>()
        };
        let ora00310_mines = ordinals(keys::FAULT_ORA00310_MINES)?;
        let settings = Settings {
            database_url: v.text(keys::DATABASE_URL),
            database_user: entries.get(keys::DATABASE_USER).map(|e| e.raw.display()),
            database_password: password,
            wallet_password,
            wallet_location,
            mining_url: entries
                .get(keys::MINING_DATABASE_URL)
                .map(|e| e.raw.display().trim().to_string())
                .filter(|u| !u.is_empty()),
            mining_user: entries
                .get(keys::MINING_DATABASE_USER)
                .map(|e| e.raw.display()),
            mining_password,
            mining_dictionary: match v.text(keys::MINING_DICTIONARY).as_str() {
                "redo_logs" => cdc_core::model::Dictionary::RedoLogs,
                _ => cdc_core::model::Dictionary::OnlineCatalog,
            },
            dictionary_build_at_switch: v.text(keys::MINING_DICTIONARY_BUILD) == "log_switch",
            database_driver: match v.text(keys::DATABASE_DRIVER).as_str() {
                "thick" => DatabaseDriver::Thick,
                _ => DatabaseDriver::Thin,
            },
            call_timeout: match v.uint(keys::CALL_TIMEOUT_MS) {
                0 => None,
                ms => Some(std::time::Duration::from_millis(ms)),
            },
            connect_timeout: std::time::Duration::from_millis(v.uint(keys::CONNECT_TIMEOUT_MS)),
            database_sdu: u32::try_from(v.uint(keys::DATABASE_SDU)).unwrap_or(DEFAULT_SDU),
            idle_thread_ms: v.uint(keys::MINING_IDLE_THREAD_MS),
            gap_timeout_ms: v.uint(keys::MINING_GAP_TIMEOUT_MS),
            state_dir: PathBuf::from(v.text(keys::STATE_DIR)),
            connect: ConnectRetry {
                retries: v.uint(keys::CONNECT_RETRIES) as u32,
                backoff_ms: v.uint(keys::CONNECT_BACKOFF_MS),
                backoff_max_ms: v.uint(keys::CONNECT_BACKOFF_MAX_MS),
                reconnect_max_ms: v.uint(keys::RECONNECT_MAX_MS),
            },
            snapshot: SnapshotSettings {
                mode: match v.text(keys::SNAPSHOT_MODE).as_str() {
                    "none" => SnapshotMode::None,
                    "snapshot_only" => SnapshotMode::SnapshotOnly,
                    "on_signal" => SnapshotMode::OnSignal,
                    _ => SnapshotMode::Initial,
                },
                max_rows_per_second: v.uint(keys::MAX_ROWS_PER_SECOND),
                table_max_rows_per_second: table_rates,
                chunk_rows: v.uint(keys::CHUNK_ROWS),
                threads: v.uint(keys::THREADS) as u32,
                max_pending_chunks: v.uint(keys::MAX_PENDING_CHUNKS) as u32,
                chunk_retries: v.uint(keys::CHUNK_RETRIES) as u32,
                chunk_ddl_retries: v.uint(keys::CHUNK_DDL_RETRIES) as u32,
                parquet_file_rows: v.uint(keys::PARQUET_FILE_ROWS),
                parquet_zstd: v.text(keys::PARQUET_COMPRESSION) == "zstd",
                select_overrides,
                tables_order,
                allow_access_policies: v.text(keys::ACCESS_POLICIES) == "allow",
                new_tables: match v.text(keys::SNAPSHOT_NEW_TABLES).as_str() {
                    "auto" => NewTables::Auto,
                    _ => NewTables::Signal,
                },
            },
            include: patterns(keys::TABLES_INCLUDE)?,
            exclude: patterns(keys::TABLES_EXCLUDE)?,
            keys: table_keys,
            keys_unchecked,
            key_missing: match v.text(keys::KEY_MISSING).as_str() {
                "fail" => KeyMissing::Fail,
                "skip" => KeyMissing::Skip,
                _ => KeyMissing::Rowid,
            },
            on_decode_error: match v.text(keys::ON_DECODE_ERROR).as_str() {
                "dlq" => OnDecodeError::Dlq,
                _ => OnDecodeError::Fail,
            },
            on_unsupported_redo: match v.text(keys::ON_UNSUPPORTED_REDO).as_str() {
                "skip" => OnUnsupportedRedo::Skip,
                "dlq" => OnUnsupportedRedo::Dlq,
                _ => OnUnsupportedRedo::Fail,
            },
            columns_exclude,
            sink: SinkSettings {
                kind: match v.text(keys::SINK_TYPE).as_str() {
                    "stdout" => SinkType::Stdout,
                    "kafka" => SinkType::Kafka,
                    _ => SinkType::File,
                },
                dir: PathBuf::from(v.text(keys::SINK_DIR)),
                segment_bytes: v.uint(keys::SINK_SEGMENT_BYTES),
                topic_prefix: v.text(keys::SINK_TOPIC_PREFIX),
                kafka: kafka_settings(&v)?,
            },
            stream: StreamSettings {
                heartbeat_ms: v.uint(keys::HEARTBEAT_INTERVAL_MS),
                metrics_ms: v.uint(keys::METRICS_INTERVAL_MS),
                metrics_listen: listen_address(&v.text(keys::METRICS_LISTEN))?,
                window_scn: v.uint(keys::STREAM_WINDOW_SCN),
                window_scn_max: v.uint(keys::STREAM_WINDOW_SCN_MAX),
                poll_ms: v.uint(keys::STREAM_POLL_MS),
                buffer_memory_bytes: v.uint(keys::STREAM_BUFFER_MEMORY_BYTES),
            },
            signal: signal_settings(&v)?,
            read_only: v.text(keys::DATABASE_READ_ONLY) == "true",
            record: {
                let skipped = v.list(keys::SKIPPED_OPERATIONS);
                record_format::SkippedOperations::parse(&skipped).map_err(|e| {
                    invalid(
                        keys::SKIPPED_OPERATIONS,
                        &skipped.join(","),
                        &format!("none, or a list of c, u, d, t, r ({e})"),
                    )
                })?;
                record_format::Format::from_values(|k| v.text(k))
            },
            files_group_readable: v.text(keys::FILES_GROUP_READABLE) == "true",
            doctor_read_rate: v.uint(keys::DOCTOR_READ_RATE).max(1),
            faults: FaultSettings {
                seed: v.uint(keys::FAULT_SEED),
                connect_fail_every: v.uint(keys::FAULT_CONNECT_FAIL_EVERY) as u32,
                drop_per_mille: v.uint(keys::FAULT_DROP_PER_MILLE) as u32,
                ora01555_reads,
                ora00310_mines,
                ora01284_mines: ordinals(keys::FAULT_ORA01284_MINES)?,
                ora00308_mines: ordinals(keys::FAULT_ORA00308_MINES)?,
                ora01307_mines: ordinals(keys::FAULT_ORA01307_MINES)?,
                ora22924_reads: ordinals(keys::FAULT_ORA22924_READS)?,
                ora04030_reads: ordinals(keys::FAULT_ORA04030_READS)?,
                read_delay_ms: v.uint(keys::FAULT_READ_DELAY_MS),
                call_latency_ms: v.uint(keys::FAULT_CALL_LATENCY_MS),
                slow_call_every: v.uint(keys::FAULT_SLOW_CALL_EVERY) as u32,
                slow_call_ms: v.uint(keys::FAULT_SLOW_CALL_MS),
                kill_session_every: v.uint(keys::FAULT_KILL_SESSION_EVERY) as u32,
                restart_every: v.uint(keys::FAULT_RESTART_EVERY) as u32,
                restart_ms: v.uint(keys::FAULT_RESTART_MS),
                idle_timeout_ms: v.uint(keys::FAULT_IDLE_TIMEOUT_MS),
                dead_connection_ms: v.uint(keys::FAULT_DEAD_CONNECTION_MS),
                connect_time_ms: v.uint(keys::FAULT_CONNECT_TIME_MS),
                ora01368_mines: ordinals(keys::FAULT_ORA01368_MINES)?,
                ora01291_mines: ordinals(keys::FAULT_ORA01291_MINES)?,
                ora01343_mines: ordinals(keys::FAULT_ORA01343_MINES)?,
                ora04030_mines: ordinals(keys::FAULT_ORA04030_MINES)?,
                ora00604_mines: ordinals(keys::FAULT_ORA00604_MINES)?,
                ora01327_builds: ordinals(keys::FAULT_ORA01327_BUILDS)?,
                ora00600_mines: ordinals(keys::FAULT_ORA00600_MINES)?,
                register_delay_ms: v.uint(keys::FAULT_REGISTER_DELAY_MS),
                sink_delay_ms: v.uint(keys::FAULT_SINK_DELAY_MS),
                unescaped_quotes_tables: fault_tables(keys::FAULT_UNESCAPED_QUOTES_TABLES)?,
                dictionary_mismatch_tables: fault_tables(keys::FAULT_DICTIONARY_MISMATCH_TABLES)?,
                unknown_objects_tables: fault_tables(keys::FAULT_UNKNOWN_OBJECTS_TABLES)?,
            },
            entries: redact_secrets(entries),
        };
        Ok(settings)
    }

    /// `cdc.database.url`, empty when unset.
    pub fn database_url(&self) -> &str {
        &self.database_url
    }

    /// `cdc.database.url` parsed. Not parsed at load: commands that need no database (and
    /// `offsets inspect`, which works without one) must load settings with the URL unset or
    /// malformed; the error comes when a database is asked for.
    pub fn database(&self) -> Result<DatabaseUrl> {
        DatabaseUrl::parse(&self.database_url)
    }

    pub fn database_user(&self) -> Option<&str> {
        self.database_user.as_deref()
    }

    pub fn database_password(&self) -> Option<&Secret> {
        self.database_password.as_ref()
    }

    /// `cdc.mining.database.url`: the downstream database mining runs on; `None` mines on
    /// `cdc.database.url`.
    pub fn mining_url(&self) -> Option<&str> {
        self.mining_url.as_deref()
    }

    /// `cdc.mining.database.user`, else `cdc.database.user`.
    pub fn mining_user(&self) -> Option<&str> {
        self.mining_user.as_deref().or(self.database_user())
    }

    /// `cdc.database.wallet.password`.
    pub fn wallet_password(&self) -> Option<&Secret> {
        self.wallet_password.as_ref()
    }

    /// `cdc.mining.database.password`, else `cdc.database.password`.
    pub fn mining_password(&self) -> Option<&Secret> {
        self.mining_password.as_ref().or(self.database_password())
    }

    /// Whether cdc.key.unchecked lists the table (by its full name, or OWNER.TABLE for any PDB).
    pub fn key_unchecked(&self, table: &TableName) -> bool {
        self.keys_unchecked.iter().any(|t| {
            t == table || (t.pdb.is_none() && t.owner == table.owner && t.table == table.table)
        })
    }

    /// Whether a table is captured per cdc.tables.include / cdc.tables.exclude.
    /// Materialized view logs (`MLOG$_…`) never are: they are Oracle's record of another
    /// table's changes, and the mining query leaves their rows out.
    pub fn is_captured(&self, table: &TableName) -> bool {
        (self.include.is_empty() || self.include.matches(table))
            && !self.exclude.matches(table)
            && !cdc_core::filter::is_mview_log(&table.table)
    }

    /// Every effective key with its printable value (secrets redacted) and origin, in key order.
    pub fn effective(&self) -> Vec<(String, String, String)> {
        let mut out = Vec::new();
        for spec in KEYS.iter().filter(|k| !k.per_table) {
            let (value, origin) = match self.entries.get(spec.key) {
                Some(e) if spec.kind == Kind::Secret => {
                    ("<redacted>".to_string(), e.origin.to_string())
                }
                Some(e) if matches!(spec.key, keys::DATABASE_URL | keys::MINING_DATABASE_URL) => {
                    (redact_url(&e.raw.display()), e.origin.to_string())
                }
                Some(e) if spec.key == keys::KAFKA_BROKERS => {
                    let shown: Vec<String> = match &e.raw {
                        Raw::List(v) => v.iter().map(|b| redact_broker(b)).collect(),
                        Raw::Scalar(b) => b.split(',').map(redact_broker).collect(),
                    };
                    (shown.join(","), e.origin.to_string())
                }
                Some(e) => (e.raw.display(), e.origin.to_string()),
                None => ("".to_string(), "unset".to_string()),
            };
            // A long value is shown cut (its length said): printing a megabyte is no help.
            let value = crate::errors::shown(&value, 200);
            out.push((spec.key.to_string(), value, origin));
        }
        for (key, e) in &self.entries {
            if matches!(keys::lookup(key), Some((_, Some(_)))) {
                out.push((key.clone(), e.raw.display(), e.origin.to_string()));
            }
        }
        out
    }
}

/// A connect string with a password in it (`user/secret@host:1521/svc`,
/// `scheme://user:secret@host`) with the password replaced by `<redacted>`.
pub fn redact_url(url: &str) -> String {
    let Some(at) = url.rfind('@') else {
        return url.to_string();
    };
    let (creds, rest) = url.split_at(at);
    let (scheme, creds) = match creds.find("://") {
        Some(i) => creds.split_at(i + 3),
        None => ("", creds),
    };
    let sep = match (creds.find('/'), creds.find(':')) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    match sep {
        Some(i) => format!("{scheme}{}<redacted>{rest}", &creds[..=i]),
        None => url.to_string(),
    }
}

/// Warnings for the secrets among `--set` items: a command line is visible to every user of
/// the host (`ps`, /proc), so a password given there is as good as published. One warning per
/// item, naming the key and the remedy, never the secret; a `${env:NAME}` or `${file:PATH}`
/// reference is no secret and draws none.
pub fn secrets_on_command_line(sets: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for set in sets {
        let Some((key, value)) = set.split_once('=') else {
            continue;
        };
        let key = key.trim();
        let value = value.trim();
        let is_reference = value.starts_with("${") && value.ends_with('}');
        let secret_key = keys::lookup(key).is_some_and(|(spec, _)| spec.kind == Kind::Secret);
        if secret_key && !value.is_empty() && !is_reference {
            out.push(format!(
                "{key} was given on the command line (--set), where every user of this host can read it in the process list: \
                 give it as `${{env:NAME}}` (an environment variable) or `${{file:PATH}}` (a file readable only by you), \
                 on the command line or in the settings file"
            ));
            continue;
        }
        let password_key = match key {
            keys::DATABASE_URL => keys::DATABASE_PASSWORD,
            keys::MINING_DATABASE_URL => keys::MINING_DATABASE_PASSWORD,
            keys::KAFKA_BROKERS if value.contains('@') => {
                out.push(format!(
                    "{key} was given on the command line (--set) with credentials in it (`{}`), where every user of this host can read them in the process list: \
                     a broker item is host:port",
                    value.split(',').map(redact_broker).collect::<Vec<_>>().join(",")
                ));
                continue;
            }
            _ => continue,
        };
        if redact_url(value) != value {
            out.push(format!(
                "{key} was given on the command line (--set) with a password in it (`{}`), where every user of this host can read it in the process list: \
                 leave the password out of the URL and set {password_key} to `${{env:NAME}}` or `${{file:PATH}}`",
                redact_url(value)
            ));
        }
    }
    out
}

/// A Kafka broker item with whatever precedes its `@` hidden: `user:secret@host:9092` shows
/// as `user:<redacted>@host:9092`, `secret@host:9092` as `<redacted>@host:9092` (a broker
/// string holds no user name on its own, so all of it may be the secret).
pub fn redact_broker(broker: &str) -> String {
    let shown = redact_url(broker);
    match broker.rfind('@') {
        Some(at) if shown == broker => format!("<redacted>{}", &broker[at..]),
        _ => shown,
    }
}

/// The stored entries keep no secret text: the secrets are resolved above, and `Debug` of the
/// settings (in a log line or a panic) must not show a password given literally.
fn redact_secrets(mut entries: BTreeMap<String, Entry>) -> BTreeMap<String, Entry> {
    for (key, entry) in entries.iter_mut() {
        if keys::lookup(key).is_some_and(|(spec, _)| spec.kind == Kind::Secret) {
            entry.raw = Raw::Scalar("<redacted>".into());
        }
    }
    entries
}

/// Typed reads of already-validated entries.
struct Values<'a> {
    entries: &'a BTreeMap<String, Entry>,
}

impl Values<'_> {
    fn text(&self, key: &str) -> String {
        self.entries
            .get(key)
            .map(|e| e.raw.display())
            .unwrap_or_default()
    }
    fn uint(&self, key: &str) -> u64 {
        // Validated in load::validate_value, so a parse failure cannot happen here; 0 keeps it total.
        self.text(key).trim().replace('_', "").parse().unwrap_or(0)
    }
    fn list(&self, key: &str) -> Vec<String> {
        self.entries
            .get(key)
            .map(|e| e.raw.items())
            .unwrap_or_default()
    }
}

/// The cdc.sink.kafka.* settings; brokers are checked to be `host:port` (`[v6]:port`, a port
/// from 1 to 65535, a host) when the Kafka sink is chosen, so a malformed one is refused at
/// start rather than retried until the delivery timeout.
fn kafka_settings(v: &Values) -> Result<KafkaSettings> {
    let prefix = v.text(keys::SINK_TOPIC_PREFIX);
    let or = |key: &str, suffix: &str| {
        let t = v.text(key);
        if t.trim().is_empty() {
            format!("{prefix}.{suffix}")
        } else {
            t
        }
    };
    let brokers: Vec<String> = v
        .list(keys::KAFKA_BROKERS)
        .into_iter()
        .map(|b| b.trim().to_string())
        .filter(|b| !b.is_empty())
        .collect();
    if v.text(keys::SINK_TYPE) == "kafka" {
        if brokers.is_empty() {
            return Err(CdcError::settings(
                Code::Cdc6201,
                format!(
                    "cdc.sink.type=kafka needs `{}`: the bootstrap brokers as host:port",
                    keys::KAFKA_BROKERS
                ),
            ));
        }
        for b in &brokers {
            if let Err(why) = broker::parse_broker(b) {
                return Err(CdcError::settings(
                    Code::Cdc6201,
                    format!(
                        "`{}` item `{}` is not host:port ([v6]:port for an IPv6 address, port 1-65535): {why}",
                        keys::KAFKA_BROKERS,
                        crate::errors::shown(&redact_broker(b), 200)
                    ),
                ));
            }
        }
    }
    let tid = v.text(keys::KAFKA_TRANSACTIONAL_ID);
    let ca = v.text(keys::KAFKA_SSL_CA_LOCATION);
    let ca = (!ca.trim().is_empty()).then(|| PathBuf::from(ca.trim()));
    let protocol = v
        .text(keys::KAFKA_SECURITY_PROTOCOL)
        .trim()
        .to_ascii_uppercase();
    let sasl_protocol = protocol.starts_with("SASL_");
    let tls = match protocol.as_str() {
        "SSL" | "SASL_SSL" => Some(crate::kafka::tls::client_config(ca.as_deref()).map_err(
            |why| {
                CdcError::settings(
                    Code::Cdc6201,
                    format!("`{}`: {why}", keys::KAFKA_SSL_CA_LOCATION),
                )
            },
        )?),
        "PLAINTEXT" | "SASL_PLAINTEXT" => {
            if ca.is_some() {
                return Err(CdcError::settings(
                    Code::Cdc6201,
                    format!(
                        "`{}` is set but `{}` is {protocol}: set it to {} for TLS to the brokers, or leave the CA file out",
                        keys::KAFKA_SSL_CA_LOCATION,
                        keys::KAFKA_SECURITY_PROTOCOL,
                        if sasl_protocol { "SASL_SSL" } else { "SSL" }
                    ),
                ));
            }
            None
        }
        _ => {
            return Err(invalid(
                keys::KAFKA_SECURITY_PROTOCOL,
                &protocol,
                "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL",
            ))
        }
    };
    let sasl = kafka_sasl(v, &protocol, sasl_protocol)?;
    Ok(KafkaSettings {
        brokers,
        tls,
        sasl,
        transactional_id: (!tid.trim().is_empty()).then_some(tid),
        compression: match v.text(keys::KAFKA_COMPRESSION).as_str() {
            "gzip" => KafkaCompression::Gzip,
            "snappy" => KafkaCompression::Snappy,
            "zstd" => KafkaCompression::Zstd,
            _ => KafkaCompression::None,
        },
        max_in_flight_bytes: v.uint(keys::KAFKA_MAX_IN_FLIGHT_BYTES),
        topic_ops: or(keys::KAFKA_TOPIC_OPS, "ops"),
        topic_dlq: or(keys::KAFKA_TOPIC_DLQ, "dlq"),
        topic_offsets: or(keys::KAFKA_TOPIC_OFFSETS, "offsets"),
        topic_partitions: v.uint(keys::KAFKA_TOPIC_PARTITIONS).max(1) as u32,
        client_id: v.text(keys::KAFKA_PRODUCER_CLIENT_ID),
        request_timeout_ms: v.uint(keys::KAFKA_PRODUCER_REQUEST_TIMEOUT_MS),
        retry_backoff_ms: v.uint(keys::KAFKA_PRODUCER_RETRY_BACKOFF_MS),
        retry_backoff_max_ms: v.uint(keys::KAFKA_PRODUCER_RETRY_BACKOFF_MAX_MS),
        delivery_timeout_ms: v.uint(keys::KAFKA_PRODUCER_DELIVERY_TIMEOUT_MS),
        transaction_timeout_ms: v.uint(keys::KAFKA_PRODUCER_TRANSACTION_TIMEOUT_MS),
        batch_size: v.uint(keys::KAFKA_PRODUCER_BATCH_SIZE),
    })
}

/// The SASL settings: with a SASL protocol the mechanism, user and password are required (a
/// broker would refuse the connection without them, after the delivery timeout's retries);
/// without one any of them is refused, as a sign that the protocol was forgotten (the password
/// would otherwise go unused while the user believes it is in use).
fn kafka_sasl(
    v: &Values,
    protocol: &str,
    sasl_protocol: bool,
) -> Result<Option<crate::kafka::sasl::SaslConfig>> {
    let mechanism = v.text(keys::KAFKA_SASL_MECHANISM).trim().to_string();
    let username = v.text(keys::KAFKA_SASL_USERNAME);
    let password = v
        .entries
        .get(keys::KAFKA_SASL_PASSWORD)
        .map(|e| e.raw.display())
        .filter(|p| !p.is_empty());
    if !sasl_protocol {
        let set: Vec<&str> = [
            (keys::KAFKA_SASL_MECHANISM, !mechanism.is_empty()),
            (keys::KAFKA_SASL_USERNAME, !username.trim().is_empty()),
            (keys::KAFKA_SASL_PASSWORD, password.is_some()),
        ]
        .into_iter()
        .filter_map(|(k, set)| set.then_some(k))
        .collect();
        if !set.is_empty() {
            return Err(CdcError::settings(
                Code::Cdc6201,
                format!(
                    "`{}` is set but `{}` is {protocol}, which does not authenticate: set it to SASL_SSL (or SASL_PLAINTEXT) for SASL, or leave the SASL settings out",
                    set.join("`, `"),
                    keys::KAFKA_SECURITY_PROTOCOL
                ),
            ));
        }
        return Ok(None);
    }
    let missing = |key: &str, what: &str| {
        CdcError::settings(
            Code::Cdc6201,
            format!(
                "`{}` is {protocol}, which needs `{key}`: {what}",
                keys::KAFKA_SECURITY_PROTOCOL
            ),
        )
    };
    if mechanism.is_empty() {
        return Err(missing(
            keys::KAFKA_SASL_MECHANISM,
            &format!(
                "the SASL mechanism the brokers enable, {}",
                crate::kafka::sasl::SUPPORTED
            ),
        ));
    }
    let Some(parsed) = crate::kafka::sasl::Mechanism::parse(&mechanism) else {
        return Err(CdcError::settings(
            Code::Cdc6201,
            format!(
                "`{}` = {}: this mechanism is not supported; the built-in producer speaks {}",
                keys::KAFKA_SASL_MECHANISM,
                crate::errors::shown(&mechanism, 100),
                crate::kafka::sasl::SUPPORTED
            ),
        ));
    };
    if username.trim().is_empty() {
        return Err(missing(
            keys::KAFKA_SASL_USERNAME,
            "the user to authenticate as",
        ));
    }
    let Some(password) = password else {
        return Err(missing(
            keys::KAFKA_SASL_PASSWORD,
            "the user's password (`${env:NAME}` or `${file:PATH}`)",
        ));
    };
    Ok(Some(crate::kafka::sasl::SaslConfig {
        mechanism: parsed,
        username,
        password: Secret::resolve(keys::KAFKA_SASL_PASSWORD, &password)?,
    }))
}

pub(crate) fn invalid(key: &str, value: &str, allowed: &str) -> CdcError {
    let value = match key {
        keys::DATABASE_URL | keys::MINING_DATABASE_URL => redact_url(value),
        _ => value.to_string(),
    };
    CdcError::settings(
        Code::Cdc1002,
        format!(
            "setting `{key}` has invalid value `{}`: expected {allowed}",
            crate::errors::shown(&value, 200)
        ),
    )
}

fn parse_column_ref(text: &str) -> std::result::Result<ColumnRef, String> {
    let mut parts = crate::names::split_identifiers(text)?;
    if !(3..=4).contains(&parts.len()) {
        return Err("PDB.OWNER.TABLE.COLUMN or OWNER.TABLE.COLUMN".into());
    }
    let column = parts.pop().unwrap_or_default();
    let table = match parts.as_slice() {
        [o, t] => TableName::new(None, o, t),
        [p, o, t] => TableName::new(Some(p), o, t),
        _ => return Err("PDB.OWNER.TABLE.COLUMN or OWNER.TABLE.COLUMN".into()),
    };
    Ok(ColumnRef { table, column })
}

/// A filter is pasted into a WHERE clause: refuse what could end the statement, start another,
/// or escape its parentheses (the same check the Oracle adapter makes before sending it).
fn signal_settings(v: &Values) -> Result<SignalSettings> {
    let channels = v.list(keys::SIGNAL_CHANNELS);
    for c in &channels {
        if !matches!(c.as_str(), "file" | "source") {
            return Err(invalid(
                keys::SIGNAL_CHANNELS,
                c,
                "a list of channels: file, source",
            ));
        }
    }
    let data_collection = match v.text(keys::SIGNAL_DATA_COLLECTION) {
        t if t.is_empty() => None,
        t => Some(
            t.parse::<TableName>()
                .map_err(|e| invalid(keys::SIGNAL_DATA_COLLECTION, &t, &e))?,
        ),
    };
    let source = channels.iter().any(|c| c == "source");
    if source && data_collection.is_none() {
        return Err(invalid(
            keys::SIGNAL_CHANNELS,
            &channels.join(","),
            &format!(
                "the source channel needs its table in {}",
                keys::SIGNAL_DATA_COLLECTION
            ),
        ));
    }
    Ok(SignalSettings {
        file: channels.iter().any(|c| c == "file"),
        source,
        data_collection,
        queue: v.text(keys::SIGNAL_CONCURRENT) == "queue",
        poll_ms: v.uint(keys::SIGNAL_POLL_MS),
    })
}

/// `HOST:PORT` (an IPv6 host in brackets); empty: None.
fn listen_address(text: &str) -> Result<Option<String>> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let ok = text
        .rsplit_once(':')
        .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
    if !ok {
        return Err(invalid(
            keys::METRICS_LISTEN,
            text,
            "HOST:PORT, e.g. 127.0.0.1:9464",
        ));
    }
    Ok(Some(text.to_string()))
}

fn validate_condition(key: &str, cond: &str) -> Result<()> {
    crate::sql_condition::filter_condition(cond)
        .map(|_| ())
        .map_err(|why| invalid(key, cond, &format!("a single SQL condition ({why})")))
}

#[cfg(test)]
mod tests;
