//! How records are encoded: Debezium's Oracle connector properties, each under the `cdc.`
//! prefix with Debezium's values and defaults (checked against Debezium 3.x's
//! `OracleConnectorConfig`, `CommonConnectorConfig` and Kafka Connect's `JsonConverterConfig`:
//! `decimal.handling.mode=precise`, `time.precision.mode=adaptive`,
//! `interval.handling.mode=numeric`, `binary.handling.mode=bytes`, `tombstones.on.delete=true`,
//! `provide.transaction.metadata=false`, `include.schema.changes=true`, `schemas.enable=true`,
//! `skipped.operations=t`).

/// `decimal.handling.mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DecimalMode {
    /// `org.apache.kafka.connect.data.Decimal`: the unscaled value's bytes, base64 in JSON.
    #[default]
    Precise,
    Double,
    String,
}

/// `time.precision.mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimePrecision {
    #[default]
    Adaptive,
    /// The same as `adaptive` for Oracle's types (only TIME columns differ, and Oracle has none).
    AdaptiveTimeMicroseconds,
    /// Kafka Connect's own logical types: every DATE and TIMESTAMP in milliseconds.
    Connect,
}

/// `interval.handling.mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IntervalMode {
    /// `io.debezium.time.MicroDuration`: microseconds, a month counted as 365.25 / 12 days.
    #[default]
    Numeric,
    /// `io.debezium.time.Interval`: `PnYnMnDTnHnMnS`.
    String,
}

/// `binary.handling.mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BinaryMode {
    /// Connect `bytes` (base64 text in JSON).
    #[default]
    Bytes,
    Base64,
    Base64UrlSafe,
    Hex,
}

/// Whether the PDB is part of a record's topic (`PREFIX.PDB.OWNER.TABLE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PdbInTopic {
    /// Only when the capture spans more than one PDB (a Debezium connector captures one PDB,
    /// and its topic is `PREFIX.OWNER.TABLE`).
    #[default]
    Auto,
    Always,
    Never,
}

/// `skipped.operations`: the operations of the change stream not published. Debezium's default
/// is `t` (`CommonConnectorConfig.SKIPPED_OPERATIONS`: "By default, only truncate operations
/// will be skipped"); `none` skips nothing. Its `EventDispatcher` drops a skipped record before
/// anything else sees it: a skipped delete has no tombstone, a skipped record is not counted in
/// the transaction's metadata, and a transaction left with no record has no BEGIN or END. The
/// parts of a key change are a delete and a create, so `u` leaves them alone. `r` is accepted,
/// and skips nothing, as in Debezium (snapshot reads do not go through that filter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkippedOperations {
    pub create: bool,
    pub update: bool,
    pub delete: bool,
    pub truncate: bool,
}

impl Default for SkippedOperations {
    fn default() -> Self {
        SkippedOperations {
            create: false,
            update: false,
            delete: false,
            truncate: true,
        }
    }
}

impl SkippedOperations {
    /// Debezium's forms: `none`, or operation codes from `c`, `u`, `d`, `t`, `r` (`none` with
    /// another is refused, as Debezium's validation does).
    pub fn parse(items: &[String]) -> Result<SkippedOperations, String> {
        let mut s = SkippedOperations {
            create: false,
            update: false,
            delete: false,
            truncate: false,
        };
        let mut none = false;
        for item in items.iter().map(|i| i.trim()).filter(|i| !i.is_empty()) {
            match item {
                "none" => none = true,
                "c" => s.create = true,
                "u" => s.update = true,
                "d" => s.delete = true,
                "t" => s.truncate = true,
                "r" => {}
                other => return Err(format!("`{other}` is not an operation")),
            }
        }
        if none && items.iter().any(|i| !matches!(i.trim(), "none" | "")) {
            return Err("`none` cannot be given with other operations".into());
        }
        Ok(s)
    }

    /// Whether records of the operation with this code (`c`, `u`, `d`, `t`) are left out.
    pub fn skips(&self, code: &str) -> bool {
        match code {
            "c" => self.create,
            "u" => self.update,
            "d" => self.delete,
            "t" => self.truncate,
            _ => false,
        }
    }
}

/// Everything that decides a record's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    pub decimal: DecimalMode,
    pub time: TimePrecision,
    pub interval: IntervalMode,
    pub binary: BinaryMode,
    pub tombstones: bool,
    pub transaction_metadata: bool,
    pub schema_changes: bool,
    /// JsonConverter `schemas.enable` for the value and the key: `{"schema":…,"payload":…}`.
    pub value_schemas: bool,
    pub key_schemas: bool,
    pub pdb_in_topic: PdbInTopic,
    /// `topic.transaction`: the transaction topic is `PREFIX.` and this.
    pub transaction_topic: String,
    /// `skipped.operations`.
    pub skipped: SkippedOperations,
}

impl Default for Format {
    fn default() -> Self {
        Format {
            decimal: DecimalMode::Precise,
            time: TimePrecision::Adaptive,
            interval: IntervalMode::Numeric,
            binary: BinaryMode::Bytes,
            tombstones: true,
            transaction_metadata: false,
            schema_changes: true,
            value_schemas: true,
            key_schemas: true,
            pdb_in_topic: PdbInTopic::Auto,
            transaction_topic: "transaction".into(),
            skipped: SkippedOperations::default(),
        }
    }
}

impl Format {
    /// The format of validated settings values: `get(key)` is a key's text (its default when
    /// unset).
    pub fn from_values(get: impl Fn(&str) -> String) -> Format {
        use crate::settings::keys as k;
        let on = |key: &str| get(key) == "true";
        Format {
            decimal: match get(k::DECIMAL_HANDLING_MODE).as_str() {
                "double" => DecimalMode::Double,
                "string" => DecimalMode::String,
                _ => DecimalMode::Precise,
            },
            time: match get(k::TIME_PRECISION_MODE).as_str() {
                "adaptive_time_microseconds" => TimePrecision::AdaptiveTimeMicroseconds,
                "connect" => TimePrecision::Connect,
                _ => TimePrecision::Adaptive,
            },
            interval: match get(k::INTERVAL_HANDLING_MODE).as_str() {
                "string" => IntervalMode::String,
                _ => IntervalMode::Numeric,
            },
            binary: match get(k::BINARY_HANDLING_MODE).as_str() {
                "base64" => BinaryMode::Base64,
                "base64-url-safe" => BinaryMode::Base64UrlSafe,
                "hex" => BinaryMode::Hex,
                _ => BinaryMode::Bytes,
            },
            tombstones: on(k::TOMBSTONES_ON_DELETE),
            transaction_metadata: on(k::PROVIDE_TRANSACTION_METADATA),
            schema_changes: on(k::INCLUDE_SCHEMA_CHANGES),
            value_schemas: on(k::VALUE_CONVERTER_SCHEMAS_ENABLE),
            key_schemas: on(k::KEY_CONVERTER_SCHEMAS_ENABLE),
            pdb_in_topic: match get(k::TOPIC_INCLUDE_PDB).as_str() {
                "true" => PdbInTopic::Always,
                "false" => PdbInTopic::Never,
                _ => PdbInTopic::Auto,
            },
            transaction_topic: get(k::TOPIC_TRANSACTION),
            // Validated with the other settings (an invalid list never gets here).
            skipped: {
                let items: Vec<String> = get(k::SKIPPED_OPERATIONS)
                    .split(',')
                    .map(str::to_string)
                    .collect();
                SkippedOperations::parse(&items).unwrap_or_default()
            },
        }
    }
}

impl Format {
    /// Whether topics name the PDB, for a capture of tables in `captured_pdbs` PDBs.
    pub fn topic_has_pdb(&self, captured_pdbs: usize) -> bool {
        match self.pdb_in_topic {
            PdbInTopic::Always => true,
            PdbInTopic::Never => false,
            PdbInTopic::Auto => captured_pdbs > 1,
        }
    }
}
