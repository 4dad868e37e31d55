//! Every settings key, its type, default and documentation: the one place keys are named.
//! The reference page `commands/settings.md` is generated from this table.

/// What values a key accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One of the listed words.
    Enum(&'static [&'static str]),
    /// A whole number within the bounds (inclusive).
    UInt {
        min: u64,
        max: u64,
    },
    Text,
    /// A secret: plain text, `${env:NAME}` or `${file:PATH}`; never printed.
    Secret,
    Path,
    /// A list: a YAML sequence, or one string with comma-separated items.
    List,
    /// A SQL condition (a WHERE clause without `WHERE`).
    Condition,
}

impl Kind {
    pub fn describe(&self) -> String {
        match self {
            Kind::Enum(words) => format!("one of {}", words.join(", ")),
            Kind::UInt { min, max } => format!("a whole number from {min} to {max}"),
            Kind::Text => "text".into(),
            Kind::Secret => "a secret: text, ${env:NAME} or ${file:PATH}".into(),
            Kind::Path => "a file system path".into(),
            Kind::List => "a list (YAML sequence or comma-separated)".into(),
            Kind::Condition => "a SQL condition".into(),
        }
    }
}

/// One key. A per-table key is the prefix followed by `.PDB.OWNER.TABLE` or `.OWNER.TABLE`.
#[derive(Debug, Clone, Copy)]
pub struct KeySpec {
    pub key: &'static str,
    pub kind: Kind,
    pub default: Option<&'static str>,
    pub per_table: bool,
    pub doc: &'static str,
}

impl KeySpec {
    /// The environment variable that sets this key (fixed keys only).
    pub fn env_var(&self) -> Option<String> {
        if self.per_table {
            return None;
        }
        let rest = self.key.strip_prefix("cdc.").unwrap_or(self.key);
        Some(format!(
            "ORACLE_CDC_{}",
            rest.replace('.', "_").to_ascii_uppercase()
        ))
    }
}

const fn key(
    key: &'static str,
    kind: Kind,
    default: Option<&'static str>,
    doc: &'static str,
) -> KeySpec {
    KeySpec {
        key,
        kind,
        default,
        per_table: false,
        doc,
    }
}

const fn per_table(prefix: &'static str, kind: Kind, doc: &'static str) -> KeySpec {
    KeySpec {
        key: prefix,
        kind,
        default: None,
        per_table: true,
        doc,
    }
}

pub const SNAPSHOT_MODES: &[&str] = &["initial", "none", "snapshot_only", "on_signal"];

pub const DATABASE_URL: &str = "cdc.database.url";
pub const DATABASE_USER: &str = "cdc.database.user";
pub const DATABASE_PASSWORD: &str = "cdc.database.password";
pub const MINING_DATABASE_URL: &str = "cdc.mining.database.url";
pub const MINING_DATABASE_USER: &str = "cdc.mining.database.user";
pub const MINING_DATABASE_PASSWORD: &str = "cdc.mining.database.password";
pub const MINING_DICTIONARY: &str = "cdc.mining.dictionary";
pub const MINING_IDLE_THREAD_MS: &str = "cdc.mining.idle.thread.ms";
pub const MINING_GAP_TIMEOUT_MS: &str = "cdc.mining.gap.timeout.ms";
pub const MINING_DICTIONARY_BUILD: &str = "cdc.mining.dictionary.build";
pub const DATABASE_DRIVER: &str = "cdc.database.driver";
pub const CONNECT_RETRIES: &str = "cdc.database.connect.retries";
pub const CALL_TIMEOUT_MS: &str = "cdc.database.call.timeout.ms";
pub const CONNECT_TIMEOUT_MS: &str = "cdc.database.connect.timeout.ms";
pub const DATABASE_SDU: &str = "cdc.database.sdu";
pub const DATABASE_WALLET_LOCATION: &str = "cdc.database.wallet.location";
pub const DATABASE_WALLET_PASSWORD: &str = "cdc.database.wallet.password";
pub const CONNECT_BACKOFF_MS: &str = "cdc.database.connect.backoff.ms";
pub const CONNECT_BACKOFF_MAX_MS: &str = "cdc.database.connect.backoff.max.ms";
pub const RECONNECT_MAX_MS: &str = "cdc.database.reconnect.max.ms";
pub const STATE_DIR: &str = "cdc.state.dir";
pub const FILES_GROUP_READABLE: &str = "cdc.files.group.readable";
pub const SNAPSHOT_MODE: &str = "cdc.snapshot.mode";
pub const CHUNK_ROWS: &str = "cdc.snapshot.chunk.rows";
pub const THREADS: &str = "cdc.snapshot.threads";
pub const MAX_PENDING_CHUNKS: &str = "cdc.snapshot.max.pending.chunks";
pub const MAX_ROWS_PER_SECOND: &str = "cdc.snapshot.max.rows.per.second";
pub const CHUNK_RETRIES: &str = "cdc.snapshot.chunk.retries";
pub const CHUNK_DDL_RETRIES: &str = "cdc.snapshot.chunk.ddl.retries";
pub const PARQUET_FILE_ROWS: &str = "cdc.snapshot.parquet.file.rows";
pub const PARQUET_COMPRESSION: &str = "cdc.snapshot.parquet.compression";
pub const SELECT_OVERRIDE: &str = "cdc.snapshot.select.override";
pub const TABLES_ORDER: &str = "cdc.snapshot.tables.order";
pub const ACCESS_POLICIES: &str = "cdc.snapshot.access.policies";
pub const COLUMNS_EXCLUDE: &str = "cdc.columns.exclude";
pub const KEY: &str = "cdc.key";
pub const KEY_MISSING: &str = "cdc.key.missing";
pub const KEY_UNCHECKED: &str = "cdc.key.unchecked";
pub const ON_DECODE_ERROR: &str = "cdc.on.decode.error";
pub const ON_UNSUPPORTED_REDO: &str = "cdc.on.unsupported.redo";
pub const TABLES_INCLUDE: &str = "cdc.tables.include";
pub const TABLES_EXCLUDE: &str = "cdc.tables.exclude";
pub const SINK_TYPE: &str = "cdc.sink.type";
pub const SINK_DIR: &str = "cdc.sink.dir";
// Record format: Debezium's connector properties (and Kafka Connect's JsonConverter's).
pub const DECIMAL_HANDLING_MODE: &str = "cdc.decimal.handling.mode";
pub const TIME_PRECISION_MODE: &str = "cdc.time.precision.mode";
pub const INTERVAL_HANDLING_MODE: &str = "cdc.interval.handling.mode";
pub const BINARY_HANDLING_MODE: &str = "cdc.binary.handling.mode";
pub const TOMBSTONES_ON_DELETE: &str = "cdc.tombstones.on.delete";
pub const PROVIDE_TRANSACTION_METADATA: &str = "cdc.provide.transaction.metadata";
pub const INCLUDE_SCHEMA_CHANGES: &str = "cdc.include.schema.changes";
pub const SKIPPED_OPERATIONS: &str = "cdc.skipped.operations";
pub const VALUE_CONVERTER_SCHEMAS_ENABLE: &str = "cdc.value.converter.schemas.enable";
pub const KEY_CONVERTER_SCHEMAS_ENABLE: &str = "cdc.key.converter.schemas.enable";
pub const TOPIC_TRANSACTION: &str = "cdc.topic.transaction";
pub const TOPIC_INCLUDE_PDB: &str = "cdc.topic.include.pdb";

pub const SINK_FORMAT: &str = "cdc.sink.format";
pub const SINK_SEGMENT_BYTES: &str = "cdc.sink.segment.bytes";
pub const SINK_TOPIC_PREFIX: &str = "cdc.sink.topic.prefix";
pub const KAFKA_BROKERS: &str = "cdc.sink.kafka.brokers";
pub const KAFKA_SECURITY_PROTOCOL: &str = "cdc.sink.kafka.security.protocol";
pub const KAFKA_SSL_CA_LOCATION: &str = "cdc.sink.kafka.ssl.ca.location";
pub const KAFKA_SASL_MECHANISM: &str = "cdc.sink.kafka.sasl.mechanism";
pub const KAFKA_SASL_USERNAME: &str = "cdc.sink.kafka.sasl.username";
pub const KAFKA_SASL_PASSWORD: &str = "cdc.sink.kafka.sasl.password";
pub const KAFKA_TRANSACTIONAL_ID: &str = "cdc.sink.kafka.transactional.id";
pub const KAFKA_COMPRESSION: &str = "cdc.sink.kafka.compression";
pub const KAFKA_MAX_IN_FLIGHT_BYTES: &str = "cdc.sink.kafka.max.in.flight.bytes";
pub const KAFKA_TOPIC_OPS: &str = "cdc.sink.kafka.topic.ops";
pub const KAFKA_TOPIC_DLQ: &str = "cdc.sink.kafka.topic.dlq";
pub const KAFKA_TOPIC_OFFSETS: &str = "cdc.sink.kafka.topic.offsets";
pub const KAFKA_TOPIC_PARTITIONS: &str = "cdc.sink.kafka.topic.partitions";
/// The prefix of the producer keys passed through to the built-in producer.
pub const KAFKA_PRODUCER_PREFIX: &str = "cdc.sink.kafka.producer.";
pub const KAFKA_PRODUCER_ACKS: &str = "cdc.sink.kafka.producer.acks";
pub const KAFKA_PRODUCER_IDEMPOTENCE: &str = "cdc.sink.kafka.producer.enable.idempotence";
pub const KAFKA_PRODUCER_CLIENT_ID: &str = "cdc.sink.kafka.producer.client.id";
pub const KAFKA_PRODUCER_REQUEST_TIMEOUT_MS: &str = "cdc.sink.kafka.producer.request.timeout.ms";
pub const KAFKA_PRODUCER_RETRY_BACKOFF_MS: &str = "cdc.sink.kafka.producer.retry.backoff.ms";
pub const KAFKA_PRODUCER_RETRY_BACKOFF_MAX_MS: &str =
    "cdc.sink.kafka.producer.retry.backoff.max.ms";
pub const KAFKA_PRODUCER_DELIVERY_TIMEOUT_MS: &str = "cdc.sink.kafka.producer.delivery.timeout.ms";
pub const KAFKA_PRODUCER_TRANSACTION_TIMEOUT_MS: &str =
    "cdc.sink.kafka.producer.transaction.timeout.ms";
pub const KAFKA_PRODUCER_BATCH_SIZE: &str = "cdc.sink.kafka.producer.batch.size";
pub const STREAM_WINDOW_SCN: &str = "cdc.stream.window.scn";
pub const STREAM_WINDOW_SCN_MAX: &str = "cdc.stream.window.scn.max";
pub const STREAM_POLL_MS: &str = "cdc.stream.poll.ms";
pub const STREAM_BUFFER_MEMORY_BYTES: &str = "cdc.stream.buffer.memory.bytes";
pub const DOCTOR_READ_RATE: &str = "cdc.doctor.read.rate";
pub const HEARTBEAT_INTERVAL_MS: &str = "cdc.heartbeat.interval.ms";
pub const METRICS_INTERVAL_MS: &str = "cdc.metrics.interval.ms";
pub const METRICS_LISTEN: &str = "cdc.metrics.listen";
pub const DATABASE_READ_ONLY: &str = "cdc.database.read.only";
pub const SNAPSHOT_NEW_TABLES: &str = "cdc.snapshot.new.tables";
pub const SIGNAL_CHANNELS: &str = "cdc.signal.enabled.channels";
pub const SIGNAL_DATA_COLLECTION: &str = "cdc.signal.data.collection";
pub const SIGNAL_CONCURRENT: &str = "cdc.signal.concurrent";
pub const SIGNAL_POLL_MS: &str = "cdc.signal.poll.ms";
pub const FAULT_SEED: &str = "cdc.emulator.fault.seed";
pub const FAULT_CONNECT_FAIL_EVERY: &str = "cdc.emulator.fault.connect.fail.every";
pub const FAULT_DROP_PER_MILLE: &str = "cdc.emulator.fault.drop.per.mille";
pub const FAULT_ORA01555_READS: &str = "cdc.emulator.fault.ora01555.reads";
pub const FAULT_ORA00310_MINES: &str = "cdc.emulator.fault.ora00310.mines";
pub const FAULT_ORA01284_MINES: &str = "cdc.emulator.fault.ora01284.mines";
pub const FAULT_ORA00308_MINES: &str = "cdc.emulator.fault.ora00308.mines";
pub const FAULT_ORA01307_MINES: &str = "cdc.emulator.fault.ora01307.mines";
pub const FAULT_ORA22924_READS: &str = "cdc.emulator.fault.ora22924.reads";
pub const FAULT_ORA04030_READS: &str = "cdc.emulator.fault.ora04030.reads";
pub const FAULT_READ_DELAY_MS: &str = "cdc.emulator.fault.read.delay.ms";
pub const FAULT_CALL_LATENCY_MS: &str = "cdc.emulator.fault.call.latency.ms";
pub const FAULT_SLOW_CALL_EVERY: &str = "cdc.emulator.fault.slow.call.every";
pub const FAULT_SLOW_CALL_MS: &str = "cdc.emulator.fault.slow.call.ms";
pub const FAULT_KILL_SESSION_EVERY: &str = "cdc.emulator.fault.kill.session.every";
pub const FAULT_REGISTER_DELAY_MS: &str = "cdc.emulator.fault.register.delay.ms";
pub const FAULT_RESTART_EVERY: &str = "cdc.emulator.fault.restart.every";
pub const FAULT_RESTART_MS: &str = "cdc.emulator.fault.restart.ms";
pub const FAULT_IDLE_TIMEOUT_MS: &str = "cdc.emulator.fault.idle.timeout.ms";
pub const FAULT_DEAD_CONNECTION_MS: &str = "cdc.emulator.fault.dead.connection.ms";
pub const FAULT_CONNECT_TIME_MS: &str = "cdc.emulator.fault.connect.time.ms";
pub const FAULT_ORA01368_MINES: &str = "cdc.emulator.fault.ora01368.mines";
pub const FAULT_ORA01291_MINES: &str = "cdc.emulator.fault.ora01291.mines";
pub const FAULT_ORA01343_MINES: &str = "cdc.emulator.fault.ora01343.mines";
pub const FAULT_ORA04030_MINES: &str = "cdc.emulator.fault.ora04030.mines";
pub const FAULT_ORA00604_MINES: &str = "cdc.emulator.fault.ora00604.mines";
pub const FAULT_ORA01327_BUILDS: &str = "cdc.emulator.fault.ora01327.builds";
pub const FAULT_ORA00600_MINES: &str = "cdc.emulator.fault.ora00600.mines";
pub const FAULT_SINK_DELAY_MS: &str = "cdc.emulator.fault.sink.delay.ms";
pub const FAULT_UNESCAPED_QUOTES_TABLES: &str = "cdc.emulator.fault.unescaped.quotes.tables";
pub const FAULT_DICTIONARY_MISMATCH_TABLES: &str = "cdc.emulator.fault.dictionary.mismatch.tables";
pub const FAULT_UNKNOWN_OBJECTS_TABLES: &str = "cdc.emulator.fault.unknown.objects.tables";

const U32MAX: u64 = u32::MAX as u64;

/// Every key, in the order the reference page lists them.
pub const KEYS: &[KeySpec] = &[
    key(DATABASE_URL, Kind::Text, None,
        "The database: an EZConnect string (`host[:port]/service`), a TNS alias, or `emulator:DIR` for an emulated database made by `oracle-cdc emulator init`, or `replay:DIR` to replay a CSV export of V$LOGMNR_CONTENTS (`DIR/logmnr.csv` with `DIR/schema.yaml`; capture only, with `cdc.snapshot.mode=none`)."),
    key(DATABASE_USER, Kind::Text, None,
        "The capture user. In a CDB a common user (`C##…`) on the CDB's service captures any PDB (root mode), a user on a PDB's service that PDB only (per-PDB mode, 19c+). An emulated database logs in as one of its schema's `database.users` (unset: the first); a replay needs none."),
    key(DATABASE_PASSWORD, Kind::Secret, None,
        "The capture user's password: `${env:NAME}` reads an environment variable, `${file:PATH}` a file (trailing newline removed). Never printed, not even in an error. Pass it that way, not with `--set` (a command line is visible to every user of the host in the process list) and not inside `cdc.database.url` (it is redacted when printed, but stays in the settings file)."),
    key(DATABASE_DRIVER, Kind::Enum(&["thin", "thick"]), Some("thin"),
        "How oracle-cdc talks to an Oracle database (`cdc.database.url` and `cdc.mining.database.url`; `emulator:` and `replay:` URLs ignore it), as python-oracledb's two modes. `thin`: the pure-Rust `oracledb` driver speaks Oracle Net itself, nothing else to install. It cannot log in where the database requires native network encryption or checksumming, nor as an account that has only an 11G password verifier, nor with Kerberos or other external authentication or a password-store wallet: such a login fails with CDC-2009. `thick`: the `oracle` crate through ODPI-C and the Oracle Client libraries (Instant Client, 19c or later) loaded at run time (without them CDC-2001); it supports what Instant Client supports. Values and errors are the same either way (capture.md, Drivers)."),
    key(MINING_DATABASE_URL, Kind::Text, None,
        "Downstream capture: the database LogMiner runs on, which receives the source's redo (an EZConnect string, a TNS alias, or `emulator:DIR` made by `oracle-cdc emulator create --downstream-of`). Unset: mining runs on `cdc.database.url`. When set, only mining (the log list and V$LOGMNR_CONTENTS) uses it; SCNs, the catalog and snapshot reads still come from `cdc.database.url` (the source or its standby), and `doctor` checks both and that the downstream holds the source's redo (same DBID)."),
    key(MINING_DATABASE_USER, Kind::Text, None,
        "The user on the mining database; unset: `cdc.database.user`."),
    key(MINING_DATABASE_PASSWORD, Kind::Secret, None,
        "That user's password, written like `cdc.database.password` (`${env:NAME}`, `${file:PATH}`); unset: `cdc.database.password`. Never printed."),
    key(MINING_DICTIONARY, Kind::Enum(&["online_catalog", "redo_logs"]), Some("online_catalog"),
        "The dictionary LogMiner decodes the redo with. `online_catalog` (DICT_FROM_ONLINE_CATALOG): the database's own, which works only where the redo was generated, so capture with `cdc.mining.database.url` set refuses it (CDC-5301). `redo_logs` (DICT_FROM_REDO_LOGS + DDL_DICT_TRACKING): a dictionary extracted into the redo on the source with `EXECUTE DBMS_LOGMNR_D.BUILD(OPTIONS => DBMS_LOGMNR_D.STORE_IN_REDO_LOGS)`; each window adds the logs from the newest build at or before it (V$ARCHIVED_LOG.DICTIONARY_BEGIN/DICTIONARY_END), and without one fails with CDC-5302 (ORA-01371). Needed for downstream mining; LogMiner reads all redo from the build on, so capture builds a new one at each log switch (cdc.mining.dictionary.build)."),
    key(MINING_DICTIONARY_BUILD, Kind::Enum(&["log_switch", "never"]), Some("log_switch"),
        "With cdc.mining.dictionary=redo_logs: `log_switch` has capture extract a new LogMiner dictionary into the redo (`DBMS_LOGMNR_D.BUILD(OPTIONS => DBMS_LOGMNR_D.STORE_IN_REDO_LOGS)` on the source, in CDB$ROOT) at each log switch it sees, as Debezium's redo_log_catalog does: LogMiner reads from the newest build whole before a window, so the logs each window needs stay a few and only logs since the last builds must be kept; each build is a `dictionary-built` ops event. It writes redo only (no table), needs EXECUTE on DBMS_LOGMNR_D, and is never made with cdc.database.read.only=true or on a standby. `never`: only the builds a DBA makes are used, and every window reads all logs from the newest one (they must all be kept)."),
    key(MINING_IDLE_THREAD_MS, Kind::UInt { min: 0, max: 600_000 }, Some("5000"),
        "How long, in milliseconds, a redo thread's written position (V$THREAD LAST_REDO_CHANGE#, LAST_REDO_SEQUENCE#, LAST_REDO_BLOCK) must stand still for capture to take the thread for idle. LogMiner returns only redo the log writer has written, so no mining window ends past what any open thread has written; an idle thread (an idle RAC instance) writes nothing and would hold every window back. LGWR writes a thread's buffer at least every three seconds, so a thread whose position stood still that long had nothing unwritten: capture then bounds it by the lowest current SCN of the instances it read before (GV$DATABASE), without writing anything (commands/capture.md, \"The mining bound\"). Keep it above 3000 on Oracle (the default leaves two seconds of margin); the longer, the later a quiet database's last changes are published. Oracle URLs; an emulated database uses its own LGWR period, database.redo_write_delay_ms."),
    key(MINING_GAP_TIMEOUT_MS, Kind::UInt { min: 0, max: 86_400_000 }, Some("300000"),
        "With cdc.mining.database.url (downstream mining): how long, in milliseconds, a gap in redo transport may hold capture before it stops with CDC-5201. A gap is a sequence of a redo thread the mining database has not received while it holds later ones (V$FOREIGN_ARCHIVED_LOG, V$STANDBY_LOG): the redo past it cannot be mined, so capture waits at the gap. Archived logs can arrive out of order and Oracle's gap resolution (FAL) fetches a missing one on its own, so a short gap is waited for (a warning names the thread and sequence); one that stays is an error instead of a silent stall. 0: stop at once."),
    key(DATABASE_READ_ONLY, Kind::Enum(&["false", "true"]), Some("false"),
        "`true` forbids every write to the database, as on a standby: the source signal channel is refused (CDC-8105) and only the file channel is read, and capture makes no LogMiner dictionary build (cdc.mining.dictionary.build). Capture, snapshots of every kind, signals and doctor never write to a table in any case; a physical standby or read-only open mode is detected on its own."),
    key(CONNECT_RETRIES, Kind::UInt { min: 0, max: 1000 }, Some("8"),
        "How often oracle-cdc tries again to open its first connection when that failed transiently (connection lost or refused, no listener yet, the database starting, shutting down or busy: ORA-12541, ORA-03113, ORA-12537, ORA-01033, ORA-01089, ORA-12528 and the like, CDC-2003 and CDC-2010) before it stops with that error. Each try waits longer (cdc.database.connect.backoff.ms, doubled each time up to cdc.database.connect.backoff.max.ms) and is logged. Wrong credentials, a locked account, an unknown service and a missing client library are never retried. A connection lost later is reconnected for cdc.database.reconnect.max.ms instead."),
    key(CALL_TIMEOUT_MS, Kind::UInt { min: 0, max: 86_400_000 }, Some("0"),
        "Longest an Oracle round trip (an execute, a fetch of rows, a PL/SQL call) may take, in milliseconds; 0: no limit (the driver waits as long as the database takes). A call over it is cancelled and counted as a lost connection (CDC-5007): capture reconnects, sets its session up again and reads or mines what it was reading again, as after a network failure. Set it where a stalled network or a hung session must not stop capture silently; keep it well above the slowest LogMiner start and fetch of your database. Oracle URLs only."),
    key(CONNECT_TIMEOUT_MS, Kind::UInt { min: 100, max: 3_600_000 }, Some("30000"),
        "Longest one login may take, in milliseconds: resolving the host, the TCP connect, Oracle Net's connect, the TLS handshake (tcps), authentication and the session setup, together. A login with no answer by then (a listener or instance that accepts the connection and never answers, logins stuck behind a full archiver, a firewall dropping packets, a TLS endpoint that never completes its handshake) fails as a connect timeout (ORA-12170, CDC-2010), which is retried like any transient login failure (cdc.database.connect.retries, cdc.database.reconnect.max.ms) and lets a stop (Ctrl-C) be seen between tries. The login abandoned goes on on a thread of its own until the database answers or the connection closes; a session it still gets is logged off there. Oracle URLs, both drivers; cdc.database.call.timeout.ms bounds the calls after the login."),
    key(DATABASE_SDU, Kind::UInt { min: 512, max: 2_097_152 }, Some("65536"),
        "Session data unit oracle-cdc asks for, in bytes: the largest Oracle Net packet. The database answers with the smaller of this and its own DEFAULT_SDU_SIZE (8192 before 23ai, 65536 from 23ai, up to 2097152 where a DBA raised it, as Oracle advises for bulk transfers). A fetch that fits one packet costs the thin driver one parse of it; one spread over n packets costs it about n*n/2 (before 23ai a database marks no end of a response, so the driver parses it again as each packet arrives). Put into the connect string: an EZConnect URL is handed to the driver as its connect descriptor with (SDU=…), a descriptor gets (SDU=…) unless it has one; a TNS alias keeps the SDU tnsnames.ora gives it. Oracle URLs only."),
    key(DATABASE_WALLET_LOCATION, Kind::Path, None,
        "For TLS (`tcps://host:port/service`, or a descriptor with PROTOCOL=TCPS): a directory with the certificates a connection trusts and, for mutual TLS, the client's own. Thin mode reads ewallet.pem there (PEM), as python-oracledb does: the CA certificates that signed the database's certificate; without the setting it trusts the public web CAs only. For mutual TLS the file holds the client's certificate and private key instead, and then thin mode trusts the public CAs alone for the server (the driver uses the file's certificates as the client's chain): a private-CA database with client certificates needs thick mode. Thick mode puts the directory into the connect descriptor as MY_WALLET_DIRECTORY (in its SECURITY, made where there is none; a descriptor naming a wallet already is left alone), where Oracle's libraries read an auto-login cwallet.sso; a TNS alias takes its wallet from sqlnet.ora instead (a warning says so). Applies to cdc.database.url and cdc.mining.database.url. A failed handshake is CDC-2012."),
    key(DATABASE_WALLET_PASSWORD, Kind::Secret, None,
        "The password that decrypts an encrypted private key in ewallet.pem (thin mode, mutual TLS), written like cdc.database.password (`${env:NAME}`, `${file:PATH}`). Never printed. Needs cdc.database.wallet.location; not needed for a wallet of CA certificates only."),
    key(CONNECT_BACKOFF_MS, Kind::UInt { min: 0, max: 600_000 }, Some("250"),
        "Wait before the first connect retry; it doubles with each further retry (see cdc.database.connect.retries)."),
    key(CONNECT_BACKOFF_MAX_MS, Kind::UInt { min: 0, max: 3_600_000 }, Some("30000"),
        "Longest wait between two connect retries."),
    key(RECONNECT_MAX_MS, Kind::UInt { min: 0, max: 86_400_000 }, Some("600000"),
        "After a connection that worked is lost (ORA-03113, a killed session, ORA-01089 while the database shuts down, ORA-02396 or ORA-02399 after the profile's IDLE_TIME or CONNECT_TIME, a call timeout): how long capture keeps trying to reconnect, counted in the waits between tries (cdc.database.connect.backoff.ms doubling up to cdc.database.connect.backoff.max.ms), before it stops with the last error. Besides the failures a first connect retries, an unknown service (ORA-12514, CDC-2004) is retried here: a restarted listener answers it until the database registers again. The default rides out a database restart; 0: cdc.database.connect.retries tries, as a first connect."),
    key(STATE_DIR, Kind::Path, Some(".oracle-cdc"),
        "Directory of the stored offsets, signals spool and other state. Created with mode 0700; its files with 0600. An existing directory must belong to this user (or root) and not be writable by group or others (CDC-6302, CDC-6303), and no state path may be a symbolic link (CDC-6301)."),
    key(FILES_GROUP_READABLE, Kind::Enum(&["false", "true"]), Some("false"),
        "Modes of the data files oracle-cdc writes (sink segments, exports, dead letters, the emulator's files) and of the directories it creates: `false` 0600 and 0700, `true` 0640 and 0750 (readable by the group, e.g. a consumer's). Set with fchmod, so the umask never widens them. State files (offsets, lock, events, spill, signals) stay 0600."),
    key(SNAPSHOT_MODE, Kind::Enum(SNAPSHOT_MODES), Some("initial"),
        "Whether capture snapshots on its first start: `initial` reads every captured table then streams (streaming starts at the same moment); `none` streams from the current SCN, including transactions already open; `snapshot_only` reads every table then stays idle; `on_signal` waits for a snapshot signal."),
    key(CHUNK_ROWS, Kind::UInt { min: 1, max: 100_000_000 }, Some("100000"),
        "Rows per snapshot chunk (about). Each chunk is one `SELECT … AS OF SCN` read."),
    key(THREADS, Kind::UInt { min: 1, max: 256 }, Some("4"),
        "Chunks of a table read in parallel, each on its own connection (a snapshot holds this many + 2: the coordinating one and the one that takes SCNs)."),
    key(MAX_PENDING_CHUNKS, Kind::UInt { min: 1, max: 100_000 }, Some("16"),
        "Chunks that may wait in memory for streaming to reach their SCN; reads pause beyond that."),
    key(CHUNK_RETRIES, Kind::UInt { min: 0, max: 1000 }, Some("3"),
        "How often a failed chunk is read again with a fresh SCN before the snapshot stops with CDC-8001."),
    key(CHUNK_DDL_RETRIES, Kind::UInt { min: 0, max: 1000 }, Some("30"),
        "How often a chunk is read again with a fresh SCN after its table's definition changed since the chunk's SCN (ORA-01466, CDC-5003: an ADD or DROP COLUMN while the snapshot reads the table), before the snapshot stops with CDC-8001. Counted apart from `cdc.snapshot.chunk.retries`: each such failure is a new DDL, not a fault of the read. Key boundaries asked AS OF a wave's SCN are asked again so too."),
    key(PARQUET_FILE_ROWS, Kind::UInt { min: 0, max: u64::MAX }, Some("10000000"),
        "Parquet exports (`snapshot --format parquet`): rows after which a table continues in its next file, `PDB.OWNER.TABLE.NNNNN.parquet` (0: one file per table). Each chunk is one row group."),
    key(PARQUET_COMPRESSION, Kind::Enum(&["zstd", "none"]), Some("zstd"),
        "Compression of the pages of Parquet exports."),
    key(MAX_ROWS_PER_SECOND, Kind::UInt { min: 0, max: 1_000_000_000 }, Some("0"),
        "Snapshot throttle: at most this many rows per second read by snapshots of every kind, averaged from the snapshot's start (0: no limit). Streaming is not slowed: capture streams while the snapshot waits. A `set-throttle` signal changes it at run time."),
    per_table(MAX_ROWS_PER_SECOND, Kind::UInt { min: 0, max: 1_000_000_000 },
        "Snapshot throttle of one table, e.g. `cdc.snapshot.max.rows.per.second.PDB1.HR.EMP: 500`, on top of the overall one."),
    per_table(SELECT_OVERRIDE, Kind::Condition,
        "A SQL condition that limits which rows of the table the snapshot reads, e.g. `cdc.snapshot.select.override.PDB1.HR.EMP: \"region = 'EMEA'\"`."),
    key(TABLES_ORDER, Kind::List, None,
        "Tables to read first, in this order; the rest follow in name order."),
    key(ACCESS_POLICIES, Kind::Enum(&["refuse", "allow"]), Some("refuse"),
        "A captured table whose `SELECT … AS OF SCN` Oracle's security policies change for the capture user: an enabled Virtual Private Database / Oracle Label Security policy on queries without EXEMPT ACCESS POLICY (rows left out; a column-level one only where the snapshot references one of its columns, and with ALL_ROWS values read as NULL), or an enabled Data Redaction policy without EXEMPT REDACTION POLICY whose expression is TRUE in the capture user's session for a column the snapshot reads (values masked), while the change stream carries the true rows. `refuse` stops before reading the table (CDC-2206, CDC-2207: grant the exemption); `allow` reads what the policies let the user see, logs a warning and writes a `snapshot-policies-allowed` ops event: the snapshot then differs from the table. A policy view the user cannot read (REDACTION_POLICIES without SELECT_CATALOG_ROLE) is warned about and does not stop the snapshot."),
    key(SNAPSHOT_NEW_TABLES, Kind::Enum(&["signal", "auto"]), Some("signal"),
        "A captured table that the previous run did not capture (added to `cdc.tables.include`, or created since): `signal` streams it from the restart and waits for an `execute-snapshot` signal for its existing rows (a `table-not-snapshotted` ops event says so); `auto` snapshots it incrementally on its own, as if such a signal had been sent."),
    key(COLUMNS_EXCLUDE, Kind::List, None,
        "Columns never read nor published, as `PDB.OWNER.TABLE.COLUMN` or `OWNER.TABLE.COLUMN`."),
    per_table(KEY, Kind::List,
        "The key columns to chunk and identify the table's rows by, instead of its primary key, e.g. `cdc.key.PDB1.HR.EMP: EMAIL`. They must be NOT NULL and covered by a primary key, unique key or unique index of the table (CDC-8006 otherwise), unless the table is in `cdc.key.unchecked`."),
    key(KEY_UNCHECKED, Kind::List, None,
        "Tables whose `cdc.key` is taken as unique and NOT NULL on your word, as `PDB.OWNER.TABLE` or `OWNER.TABLE`. Without it a `cdc.key` must be covered by the table's primary key, a unique key or a unique index and have NOT NULL columns, or capture and the snapshot export refuse it (CDC-8006): records keyed by columns two rows share make a latest-per-key consumer lose one of the rows. For a table listed here doctor reads a sample of the keys (`tables.keys`) and FAILs on a duplicate."),
    key(KEY_MISSING, Kind::Enum(&["rowid", "fail", "skip"]), Some("rowid"),
        "What to do with a table without a usable key: `rowid` chunks it by ROWID ranges (heap tables), `fail` stops, `skip` leaves it out."),
    key(ON_DECODE_ERROR, Kind::Enum(&["fail", "dlq"]), Some("fail"),
        "On a value or statement that cannot be decoded: `fail` stops with its CDC error; `dlq` writes it to the dead-letter output and goes on."),
    key(ON_UNSUPPORTED_REDO, Kind::Enum(&["fail", "skip", "dlq"]), Some("fail"),
        "On a change LogMiner did not give in full: an UNSUPPORTED row of a captured table (CDC-3003), MISSING_SCN (CDC-3004), a value not in the redo such as a LOB changed piece by piece (CDC-3005), an unknown operation code (CDC-3006), a change of a table whose LONG or LONG RAW column is captured (CDC-3008), a change with an all-zero XID, which no transaction holds (CDC-3010). `fail` stops with its CDC error; `skip` goes on; `dlq` writes it to the dead-letter output and goes on. Each is counted (metric stream_unsupported_total) and logged as an `unsupported-redo` ops event whatever the choice."),
    key(TABLES_INCLUDE, Kind::List, None,
        "Table patterns to capture (`*` and `?`; `PDB.OWNER.TABLE` or `OWNER.TABLE`, case-insensitive; a part in double quotes is that name exactly, dots and case kept: `APP.\"Mixed.Case\"`). Empty: every table not owned by Oracle."),
    key(TABLES_EXCLUDE, Kind::List, None,
        "Table patterns never captured, applied after cdc.tables.include."),
    key(SINK_TYPE, Kind::Enum(&["file", "stdout", "kafka"]), Some("file"),
        "Where records go: `file` writes JSON-lines segment files under cdc.sink.dir; `stdout` prints them; `kafka` produces them to the topics they name on the brokers of cdc.sink.kafka.brokers (commands/capture.md, \"Kafka sink\")."),
    key(SINK_DIR, Kind::Path, Some("oracle-cdc-out"),
        "Directory of the file sink's output."),
    key(SINK_FORMAT, Kind::Enum(&["jsonl"]), Some("jsonl"),
        "Record encoding of the sink: one JSON object per line, shaped like a Kafka record (topic, key, value, headers)."),
    key(SINK_SEGMENT_BYTES, Kind::UInt { min: 4096, max: u64::MAX }, Some("134217728"),
        "Size at which the file sink starts a new segment file."),
    key(KAFKA_BROKERS, Kind::List, None,
        "Kafka sink: the bootstrap brokers as `host:port` items, `[::1]:9092` for an IPv6 address, a port from 1 to 65535 (required with cdc.sink.type=kafka; a malformed item is refused at start with CDC-6201). One pass over the list lasts at most cdc.sink.kafka.producer.request.timeout.ms."),
    key(KAFKA_SECURITY_PROTOCOL, Kind::Text, Some("PLAINTEXT"),
        "Kafka sink: how the brokers' listener is spoken to, as Kafka's clients name it (in any case: `ssl` as librdkafka writes it). `PLAINTEXT`: TCP. `SSL`: TLS (1.2 or 1.3), the broker's certificate verified against cdc.sink.kafka.ssl.ca.location (else the Mozilla roots) and its name against the broker's host as listed or advertised; a handshake that fails so is CDC-6207, not retried. `SASL_PLAINTEXT`: TCP, and every connection authenticates with SASL (cdc.sink.kafka.sasl.mechanism, .username and .password, all three required). `SASL_SSL`: TLS as `SSL`, then SASL. An authentication the broker refuses is CDC-6208, not retried."),
    key(KAFKA_SSL_CA_LOCATION, Kind::Text, None,
        "Kafka sink, with cdc.sink.kafka.security.protocol=SSL: a PEM file of the CA certificates to trust for the brokers' certificates (librdkafka's ssl.ca.location; a Java client's truststore exported with `keytool -exportcert -rfc`). Unset: the Mozilla roots, which managed services' certificates chain to. Read at start: a file that cannot be read or holds no certificate is CDC-6201."),
    key(KAFKA_SASL_MECHANISM, Kind::Text, None,
        "Kafka sink, with cdc.sink.kafka.security.protocol=SASL_PLAINTEXT or SASL_SSL (required then, refused otherwise): the SASL mechanism, as Kafka's clients name it, in any case: `PLAIN` (the password is sent as it is: use it over SASL_SSL; Confluent Cloud's API keys), `SCRAM-SHA-256` or `SCRAM-SHA-512` (the password never crosses the wire, and the broker proves it knows it: a wrong server signature is CDC-6208). GSSAPI (Kerberos) and OAUTHBEARER are not supported: refused at start with CDC-6201."),
    key(KAFKA_SASL_USERNAME, Kind::Text, None,
        "Kafka sink, with SASL (cdc.sink.kafka.security.protocol=SASL_*; required then, refused otherwise): the user to authenticate as (librdkafka's sasl.username; a Confluent Cloud API key)."),
    key(KAFKA_SASL_PASSWORD, Kind::Secret, None,
        "Kafka sink, with SASL (required then, refused otherwise): the user's password (librdkafka's sasl.password; a Confluent Cloud API secret), written like cdc.database.password: `${env:NAME}` reads an environment variable, `${file:PATH}` a file (trailing newline removed). Never printed, not even in an error; pass it that way rather than with `--set`."),
    key(KAFKA_TRANSACTIONAL_ID, Kind::Text, None,
        "Kafka sink: a transactional id turns on transactions: the records of each sink commit and the offsets stored after it commit together in one Kafka transaction (exactly once for `read_committed` consumers), on brokers that support transactions (not tansu 0.6, which has no EndTxn: refused with CDC-6204). Unset: an idempotent producer, at least once. One id per capture."),
    key(KAFKA_COMPRESSION, Kind::Enum(&["none", "gzip", "snappy", "zstd"]), Some("none"),
        "Kafka sink: compression of the record batches produced."),
    key(KAFKA_MAX_IN_FLIGHT_BYTES, Kind::UInt { min: 65_536, max: 1_073_741_824 }, Some("16777216"),
        "Kafka sink: record bytes queued and not yet acknowledged by the broker; at this bound capture waits for acknowledgements (flow control, `paused-for-flow-control`)."),
    key(KAFKA_TOPIC_OPS, Kind::Text, None,
        "Kafka sink: the topic of the ops events (default `PREFIX.ops`, PREFIX being cdc.sink.topic.prefix)."),
    key(KAFKA_TOPIC_DLQ, Kind::Text, None,
        "Kafka sink: the dead-letter topic (cdc.on.decode.error=dlq; default `PREFIX.dlq`)."),
    key(KAFKA_TOPIC_OFFSETS, Kind::Text, None,
        "Kafka sink with transactions: the topic that holds, in each transaction, the offsets capture stores after it (default `PREFIX.offsets`)."),
    key(KAFKA_TOPIC_PARTITIONS, Kind::UInt { min: 1, max: 10_000 }, Some("1"),
        "Kafka sink: partitions of the topics the sink creates. With more than one, a record's partition is the murmur2 hash of its key (Kafka's default partitioner), so each key keeps its order."),
    key(KAFKA_PRODUCER_ACKS, Kind::Enum(&["all", "-1"]), Some("all"),
        "Kafka producer: acknowledgements asked for; only `all` keeps the stored offsets behind what the broker holds."),
    key(KAFKA_PRODUCER_IDEMPOTENCE, Kind::Enum(&["true"]), Some("true"),
        "Kafka producer: always idempotent (producer id, epoch and a sequence per partition), so retries never duplicate or reorder."),
    key(KAFKA_PRODUCER_CLIENT_ID, Kind::Text, Some("oracle-cdc"),
        "Kafka producer: the client id sent with every request."),
    key(KAFKA_PRODUCER_REQUEST_TIMEOUT_MS, Kind::UInt { min: 100, max: 3_600_000 }, Some("30000"),
        "Kafka producer: how long one request waits for its answer before it is sent again on a new connection."),
    key(KAFKA_PRODUCER_RETRY_BACKOFF_MS, Kind::UInt { min: 1, max: 600_000 }, Some("100"),
        "Kafka producer: first wait before a failed request is retried; it doubles up to cdc.sink.kafka.producer.retry.backoff.max.ms."),
    key(KAFKA_PRODUCER_RETRY_BACKOFF_MAX_MS, Kind::UInt { min: 1, max: 600_000 }, Some("5000"),
        "Kafka producer: longest wait between retries."),
    key(KAFKA_PRODUCER_DELIVERY_TIMEOUT_MS, Kind::UInt { min: 1, max: 2_147_483_647 }, Some("120000"),
        "Kafka producer: how long a request is retried (a broker unreachable, or answering with a retriable error) before capture stops with CDC-6202 (unreachable) or CDC-6203 (the broker's last error), reporting `paused-for-flow-control` meanwhile; Kafka's own default. Acknowledged records are kept; a restart sends the rest again."),
    key(KAFKA_PRODUCER_TRANSACTION_TIMEOUT_MS, Kind::UInt { min: 1000, max: 900_000 }, Some("60000"),
        "Kafka producer with transactions: how long the broker keeps a transaction open before aborting it."),
    key(KAFKA_PRODUCER_BATCH_SIZE, Kind::UInt { min: 1024, max: 67_108_864 }, Some("1048576"),
        "Kafka producer: bytes of records per partition sent in one record batch."),
    key(SINK_TOPIC_PREFIX, Kind::Text, Some("oracle-cdc"),
        "Prefix of record topics (Debezium's `topic.prefix`): `PREFIX.OWNER.TABLE`, or `PREFIX.PDB.OWNER.TABLE` (see `cdc.topic.include.pdb`). Stored in the offsets at the first start: a change is refused (CDC-7013) until `oracle-cdc offsets edit set-topic-naming`."),
    key(STREAM_WINDOW_SCN, Kind::UInt { min: 1, max: u64::MAX }, Some("100000"),
        "Largest SCN range one LogMiner session mines over dense redo; a larger backlog is mined window by window (less after a window passes a per-call limit, CDC-5017)."),
    key(STREAM_WINDOW_SCN_MAX, Kind::UInt { min: 1, max: u64::MAX }, Some("1000000000"),
        "Largest SCN range a mining window stretches to over sparse redo: a window that mined fewer than 1,000 rows (START and COMMIT rows of every transaction count) makes the next span twice the SCNs, up to this, and a window with more goes back to cdc.stream.window.scn. SCNs can be many with no redo between them (a database link to a database further ahead raises the SCN at once); without stretching, a jump of 10^9 SCNs would be 10^4 LogMiner sessions at the default window. Never less than cdc.stream.window.scn."),
    key(STREAM_POLL_MS, Kind::UInt { min: 10, max: 60_000 }, Some("500"),
        "How long capture waits before mining again when there was nothing new."),
    key(STREAM_BUFFER_MEMORY_BYTES, Kind::UInt { min: 1024, max: u64::MAX }, Some("268435456"),
        "Memory for the changes of open transactions, counted roughly as the bytes of their LogMiner rows. Beyond it the largest open transactions' changes spill to files under the state directory's `spill/` (mode 0600, removed on COMMIT or ROLLBACK and at startup), so a transaction of millions of changes completes in bounded memory."),
    key(DOCTOR_READ_RATE, Kind::UInt { min: 1, max: 100_000_000 }, Some("10000"),
        "Rows per second one snapshot reader is assumed to read (one `AS OF SCN` chunk per connection). `oracle-cdc doctor` estimates the longest chunk read against UNDO_RETENTION, the safe chunk size and the snapshot's duration from it; set it to what your snapshots measure (rows / seconds between `snapshot-chunk-done` events)."),
    key(HEARTBEAT_INTERVAL_MS, Kind::UInt { min: 0, max: 86_400_000 }, Some("0"),
        "Capture writes a heartbeat record (topic `PREFIX.heartbeat`, with the mined and published SCNs) this often, so consumers see progress while captured tables are idle (0: off)."),
    key(METRICS_INTERVAL_MS, Kind::UInt { min: 0, max: 86_400_000 }, Some("10000"),
        "Capture writes a `capture-metrics` ops event this often: current and published SCNs, lag in SCNs and milliseconds, open transactions, buffered changes, memory and spilled bytes (0: only at stop)."),
    key(METRICS_LISTEN, Kind::Text, None,
        "Address (`HOST:PORT`) where a running capture serves its metrics in the Prometheus text format at `/metrics`, e.g. `127.0.0.1:9464` (unset: no endpoint). commands/capture.md lists the metrics."),
    key(SIGNAL_CHANNELS, Kind::List, Some("file"),
        "Where a running capture takes signals from: `file` (the spool `STATE/signals/` that `oracle-cdc signal send` writes; needs no database write, so it works on a read-only standby), `source` (rows inserted into the signal table `cdc.signal.data.collection`, read from the change stream at their commit), or both."),
    key(SIGNAL_DATA_COLLECTION, Kind::Text, None,
        "The signal table of the source channel, as PDB.OWNER.TABLE or OWNER.TABLE, with Debezium's layout `(id VARCHAR2(42) PRIMARY KEY, type VARCHAR2(32) NOT NULL, data VARCHAR2(2048))`. Its changes are read for signals and never published as records."),
    key(SIGNAL_CONCURRENT, Kind::Enum(&["reject", "queue"]), Some("reject"),
        "An `execute-snapshot` signal that arrives while another snapshot runs: `reject` refuses it with a `signal-rejected` ops event (the spec's behaviour); `queue` runs it after the ones before it, in order."),
    key(SIGNAL_POLL_MS, Kind::UInt { min: 10, max: 1000 }, Some("250"),
        "How often a running capture looks at the file channel's spool (also between snapshot chunk waves), so a signal is picked up within a second."),
    key(FAULT_SEED, Kind::UInt { min: 0, max: u64::MAX }, Some("0"),
        "Emulator fault drills: seed of the random choices below, so a drill can be repeated."),
    key(FAULT_CONNECT_FAIL_EVERY, Kind::UInt { min: 0, max: U32MAX }, Some("0"),
        "Emulator fault drills: every Nth connection attempt fails with a lost connection (0: never)."),
    key(FAULT_DROP_PER_MILLE, Kind::UInt { min: 0, max: 1000 }, Some("0"),
        "Emulator fault drills: chance in 1000 that a call drops its connection (CDC-5007)."),
    key(FAULT_ORA01555_READS, Kind::List, None,
        "Emulator fault drills: ordinal numbers of flashback reads (1 = the first of the process) that fail with ORA-01555."),
    key(FAULT_ORA00310_MINES, Kind::List, None,
        "Emulator fault drills: ordinal numbers of LogMiner windows (1 = the first of the process) that fail half-way with ORA-00310, as when an online log is reused while read."),
    key(FAULT_ORA01284_MINES, Kind::List, None,
        "Emulator fault drills: ordinal numbers of LogMiner windows that fail before their first row with ORA-01284, as when a listed log file was purged before it was added."),
    key(FAULT_ORA00308_MINES, Kind::List, None,
        "Emulator fault drills: ordinal numbers of LogMiner windows that fail half-way with ORA-00308, as when an archived log is deleted while the window is read."),
    key(FAULT_ORA01307_MINES, Kind::List, None,
        "Emulator fault drills: ordinal numbers of LogMiner windows whose query fails with ORA-01307, as when the LogMiner session was ended under it."),
    key(FAULT_ORA22924_READS, Kind::List, None,
        "Emulator fault drills: ordinal numbers of flashback reads (1 = the first of the process) that fail with ORA-22924, a LOB's old version gone."),
    key(FAULT_ORA04030_READS, Kind::List, None,
        "Emulator fault drills: ordinal numbers of flashback reads (1 = the first of the process) that fail with ORA-04030 (out of process memory) before their first row."),
    key(FAULT_READ_DELAY_MS, Kind::UInt { min: 0, max: 600_000 }, Some("0"),
        "Emulator fault drills: extra milliseconds every flashback read takes (a slow read)."),
    key(FAULT_CALL_LATENCY_MS, Kind::UInt { min: 0, max: 600_000 }, Some("0"),
        "Emulator fault drills: fixed milliseconds of latency added to every call, like a network round trip."),
    key(FAULT_SLOW_CALL_EVERY, Kind::UInt { min: 0, max: U32MAX }, Some("0"),
        "Emulator fault drills: every Nth call of a session answers only after cdc.emulator.fault.slow.call.ms (0: never), as a database stalling under load; over Oracle Net a client's call timeout (cdc.database.call.timeout.ms) then cancels it."),
    key(FAULT_SLOW_CALL_MS, Kind::UInt { min: 0, max: 600_000 }, Some("0"),
        "Emulator fault drills: how long a slow call (cdc.emulator.fault.slow.call.every) takes."),
    key(FAULT_KILL_SESSION_EVERY, Kind::UInt { min: 0, max: U32MAX }, Some("0"),
        "Emulator fault drills: every Nth call of a session finds it killed (0: never), as by ALTER SYSTEM KILL SESSION: ORA-00028, and the connection is closed (CDC-5007; capture reconnects)."),
    key(FAULT_RESTART_EVERY, Kind::UInt { min: 0, max: U32MAX }, Some("0"),
        "Emulator fault drills: every Nth call (of all sessions) the database restarts (0: never), as by SHUTDOWN IMMEDIATE and STARTUP: that call fails with ORA-01089, every open session is gone (its next call: ORA-03113), and for cdc.emulator.fault.restart.ms a login is refused with ORA-01033 (over `emulator serve` the listener answers ORA-12514, the services unregistered, until the database is open and cdc.emulator.fault.register.delay.ms later). Capture reconnects for cdc.database.reconnect.max.ms."),
    key(FAULT_RESTART_MS, Kind::UInt { min: 0, max: 600_000 }, Some("2000"),
        "Emulator fault drills: how long a restart (cdc.emulator.fault.restart.every) keeps the database down."),
    key(FAULT_IDLE_TIMEOUT_MS, Kind::UInt { min: 0, max: 86_400_000 }, Some("0"),
        "Emulator fault drills: a session that made no call for longer than this is ended by the database (0: never), as by a profile's IDLE_TIME: its next call fails with ORA-02396 and the connection is closed (CDC-5007; capture reconnects)."),
    key(FAULT_DEAD_CONNECTION_MS, Kind::UInt { min: 0, max: 86_400_000 }, Some("0"),
        "Emulator fault drills: a session whose connection cdc.emulator.fault.drop.per.mille cut (ORA-03113, as a network partition or a firewall dropping an idle connection) still counts towards its user's SESSIONS_PER_USER this long after the client let it go (0: it ends with its connection), as Oracle keeps a session whose client vanished until dead connection detection (SQLNET.EXPIRE_TIME) or TCP keepalive finds it gone. A login at the limit meanwhile is refused with ORA-02391; capture retries it for cdc.database.reconnect.max.ms when the login replaces a lost session."),
    key(FAULT_CONNECT_TIME_MS, Kind::UInt { min: 0, max: 86_400_000 }, Some("0"),
        "Emulator fault drills: a session logged in longer than this is ended by the database (0: never), as by a profile's CONNECT_TIME, busy or not: its next call fails with ORA-02399 (exceeded maximum connect time, you are being logged off) and the connection is closed (CDC-5007; capture reconnects)."),
    key(FAULT_ORA01368_MINES, Kind::List, None,
        "Emulator fault drills: ordinal numbers of LogMiner windows that fail half-way with ORA-01368 (redo log file header mismatch), as when an online log is recycled for a later sequence while read."),
    key(FAULT_ORA01291_MINES, Kind::List, None,
        "Emulator fault drills: ordinal numbers of LogMiner windows whose START_LOGMNR fails with ORA-01291 (missing logfile) although the redo is retained, as when a log was being archived while the log list was read."),
    key(FAULT_ORA01343_MINES, Kind::List, None,
        "Emulator fault drills: ordinal numbers of LogMiner windows that fail half-way with ORA-01343 (LogMiner encountered corruption in the logstream), as when the log list lacks a log LogMiner needs or a log is damaged."),
    key(FAULT_ORA04030_MINES, Kind::List, None,
        "Emulator fault drills: ordinal numbers of LogMiner windows that fail half-way with ORA-04030 (out of process memory), as when the mining session's server process cannot grow its memory."),
    key(FAULT_ORA00600_MINES, Kind::List, None,
        "Emulator fault drills: ordinal numbers of LogMiner windows that fail half-way with ORA-00600 [krvrdGetUID] (LogMiner's internal error when an object's identifier changed under it), which a new LogMiner session gets past."),
    key(FAULT_ORA01327_BUILDS, Kind::List, None,
        "Emulator fault drills: ordinal numbers of LogMiner dictionary builds (DBMS_LOGMNR_D.BUILD calls of the sessions of this process, or of `emulator serve`'s clients; not `emulator build-dictionary`) that fail with ORA-01327 (failed to exclusively lock system dictionary as required BUILD), as while DDL holds the dictionary."),
    key(FAULT_ORA00604_MINES, Kind::List, None,
        "Emulator fault drills: ordinal numbers of LogMiner windows whose drill error (from the other cdc.emulator.fault.*.mines drills but ora01291) comes under ORA-00604 (error occurred at recursive SQL level 1), as when LogMiner's own recursive SQL meets it: capture handles the error under it."),
    key(FAULT_REGISTER_DELAY_MS, Kind::UInt { min: 0, max: 600_000 }, Some("0"),
        "Emulator fault drills, `emulator serve`: for this long after the listener starts its services are not registered yet, so a connect is refused with ORA-12514, as while a restarted database's LREG registers them with the listener."),
    key(FAULT_UNESCAPED_QUOTES_TABLES, Kind::List, None,
        "Emulator fault drills: table patterns (`OWNER.TABLE`, `PDB.OWNER.TABLE`, `*` and `?`) whose changes LogMiner renders with the quotes inside string values not doubled, as some releases do for MAX_STRING_SIZE=EXTENDED columns (Debezium DBZ-8034, DBZ-8200). Capture reads such a statement where the table's columns allow one reading, else stops with CDC-3020."),
    key(FAULT_DICTIONARY_MISMATCH_TABLES, Kind::List, None,
        "Emulator fault drills: table patterns whose changes LogMiner renders as after a dictionary mismatch: `\"COL n\"` names, values as HEXTORAW of their storage bytes, STATUS 2, INFO `Dictionary Mismatch` (a change holding a LOB, interval, zoned timestamp or other value without a public storage format is rendered normally). Capture reads such a change by column position, else stops with CDC-3021."),
    key(FAULT_UNKNOWN_OBJECTS_TABLES, Kind::List, None,
        "Emulator fault drills: table patterns whose changes LogMiner renders as of an object its dictionary does not know (the online catalog after DROP TABLE … PURGE, a dictionary built before the table existed): SEG_OWNER `UNKNOWN`, TABLE_NAME `OBJ# n` (n the object number, DATA_OBJ#), `\"COL n\"` names and values as HEXTORAW of their storage bytes; a change holding a value without a public storage format, or of a table with LOB, XML or extended-string columns, comes as one STATUS 2 row with SQL_REDO `Dictionary Version Mismatch`. Capture resolves such rows by object number and reads them by column position, else CDC-3050."),
    key(FAULT_SINK_DELAY_MS, Kind::UInt { min: 0, max: 600_000 }, Some("0"),
        "Fault drills (any database): extra milliseconds every sink commit takes, like a slow disk or a slow consumer; capture pauses reading meanwhile (`paused-for-flow-control`)."),
    key(DECIMAL_HANDLING_MODE, Kind::Enum(&["precise", "double", "string"]), Some("precise"),
        "Debezium's `decimal.handling.mode`: `precise` writes NUMBER(p,s>0), NUMBER(p≥19) and NUMBER(p,s<0) with p−s≥19 as Kafka Connect `Decimal` (the unscaled value's two's-complement bytes, base64 in JSON; `scale` in the schema) and NUMBER/FLOAT without precision as `io.debezium.data.VariableScaleDecimal` (`{\"scale\":S,\"value\":BYTES}`); `double` writes every NUMBER with scale ≥ 0 as a JSON double; `string` as its exact decimal text (padded to its scale). NUMBER(p,s≤0) with p−s < 19 is an integer in `precise` mode (and with s < 0 in every mode). commands/types.md has the table."),
    key(TIME_PRECISION_MODE, Kind::Enum(&["adaptive", "adaptive_time_microseconds", "connect"]), Some("adaptive"),
        "Debezium's `time.precision.mode`: `adaptive` writes DATE and TIMESTAMP(0–3) in epoch milliseconds (`io.debezium.time.Timestamp`), TIMESTAMP(4–6) in microseconds (`MicroTimestamp`), TIMESTAMP(7–9) in nanoseconds (`NanoTimestamp`); `adaptive_time_microseconds` is the same for Oracle's types; `connect` writes all of them in milliseconds (`org.apache.kafka.connect.data.Timestamp`)."),
    key(INTERVAL_HANDLING_MODE, Kind::Enum(&["numeric", "string"]), Some("numeric"),
        "Debezium's `interval.handling.mode`: `numeric` writes INTERVAL values as microseconds (`io.debezium.time.MicroDuration`, a month counted as 365.25/12 days); `string` as `PnYnMnDTnHnMnS` (`io.debezium.time.Interval`)."),
    key(BINARY_HANDLING_MODE, Kind::Enum(&["bytes", "base64", "base64-url-safe", "hex"]), Some("bytes"),
        "Debezium's `binary.handling.mode` for RAW, LONG RAW and BLOB: `bytes` (Connect bytes: base64 text in JSON), `base64`, `base64-url-safe` or `hex` strings."),
    key(TOMBSTONES_ON_DELETE, Kind::Enum(&["true", "false"]), Some("true"),
        "Debezium's `tombstones.on.delete`: a delete (and the delete of a key change) is followed by a tombstone, a record with the same key and a null value, so a compacted topic forgets the row."),
    key(PROVIDE_TRANSACTION_METADATA, Kind::Enum(&["true", "false"]), Some("false"),
        "Debezium's `provide.transaction.metadata`: every change record's `transaction` block holds `id`, `total_order` and `data_collection_order`, and each transaction's records are framed by BEGIN and END events (END with `event_count` and per-table `data_collections`) on the topic `PREFIX.` + `cdc.topic.transaction`."),
    key(INCLUDE_SCHEMA_CHANGES, Kind::Enum(&["true", "false"]), Some("true"),
        "Debezium's `include.schema.changes`: a DDL on a captured table is published as a schema change event on the topic `PREFIX` (key `{databaseName}`, value with `source`, `ts_ms`, `databaseName`, `schemaName`, `ddl` and `tableChanges`)."),
    key(SKIPPED_OPERATIONS, Kind::List, Some("t"),
        "Debezium's `skipped.operations`: the operations of the change stream left out, from `c` (inserts), `u` (updates), `d` (deletes) and `t` (truncates), or `none`. The default skips truncate records, as Debezium's does: set `none` (or a list without `t`) to publish Debezium's truncate record (`op` `t`, no key, `before` and `after` null) for a TRUNCATE TABLE of a captured table, which a consumer keeping the latest record per key needs to drop the table's rows. A skipped delete has no tombstone; a skipped record is not counted in transaction metadata. Snapshot reads (`r`) are never skipped."),
    key(VALUE_CONVERTER_SCHEMAS_ENABLE, Kind::Enum(&["true", "false"]), Some("true"),
        "Kafka Connect's JsonConverter `value.converter.schemas.enable`: every record value is `{\"schema\":…,\"payload\":…}` with the Connect schema of the envelope (logical names such as `org.apache.kafka.connect.data.Decimal` and `io.debezium.time.Timestamp`); `false` writes the envelope alone."),
    key(KEY_CONVERTER_SCHEMAS_ENABLE, Kind::Enum(&["true", "false"]), Some("true"),
        "Kafka Connect's JsonConverter `key.converter.schemas.enable` for record keys (a table without a key has a null key either way)."),
    key(TOPIC_TRANSACTION, Kind::Text, Some("transaction"),
        "Debezium's `topic.transaction`: the transaction metadata topic is `PREFIX.` and this."),
    key(TOPIC_INCLUDE_PDB, Kind::Enum(&["auto", "true", "false"]), Some("auto"),
        "Whether record topics name the PDB (`PREFIX.PDB.OWNER.TABLE`) or not (`PREFIX.OWNER.TABLE`, Debezium's, whose connector captures one PDB): `auto` names it only when the tables captured at the first start are in more than one PDB. The naming chosen at the first start is stored in the offsets and kept (a change is refused, CDC-7013, until `oracle-cdc offsets edit set-topic-naming`)."),
];

/// The spec for a key, resolving per-table keys by prefix. Fixed keys win over prefixes, so
/// `cdc.key.missing` is its own key while `cdc.key.HR.EMP` is a per-table key.
pub fn lookup(key: &str) -> Option<(&'static KeySpec, Option<&str>)> {
    if let Some(spec) = KEYS.iter().find(|k| !k.per_table && k.key == key) {
        return Some((spec, None));
    }
    KEYS.iter().filter(|k| k.per_table).find_map(|k| {
        key.strip_prefix(k.key)
            .and_then(|rest| rest.strip_prefix('.'))
            .filter(|rest| !rest.is_empty())
            .map(|rest| (k, Some(rest)))
    })
}

/// The closest known key, for "did you mean" hints.
pub fn suggest(unknown: &str) -> Option<&'static str> {
    KEYS.iter()
        .map(|k| (strsim::jaro_winkler(unknown, k.key), k.key))
        .filter(|(score, _)| *score > 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_keys_win_over_per_table_prefixes() {
        assert_eq!(
            lookup("cdc.key.missing").map(|(k, t)| (k.key, t)),
            Some((KEY_MISSING, None))
        );
        let (spec, table) = lookup("cdc.key.PDB1.HR.EMP").unwrap();
        assert_eq!((spec.key, table), (KEY, Some("PDB1.HR.EMP")));
        assert!(lookup("cdc.key").is_none());
        assert!(lookup("cdc.snapshot.chunk.row").is_none());
    }

    #[test]
    fn suggestions_find_near_misses() {
        assert_eq!(suggest("cdc.snapshot.chunk.row"), Some(CHUNK_ROWS));
        assert_eq!(suggest("cdc.snapshot.threds"), Some(THREADS));
        assert_eq!(suggest("completely.different"), None);
    }

    #[test]
    fn env_names_follow_the_key() {
        let spec = lookup(CHUNK_ROWS).unwrap().0;
        assert_eq!(
            spec.env_var().as_deref(),
            Some("ORACLE_CDC_SNAPSHOT_CHUNK_ROWS")
        );
        assert_eq!(lookup("cdc.key.HR.EMP").unwrap().0.env_var(), None);
    }

    #[test]
    fn defaults_are_valid_for_their_kind() {
        for k in KEYS {
            if let (Some(d), Kind::Enum(words)) = (k.default, k.kind) {
                assert!(words.contains(&d), "{}", k.key);
            }
            if let (Some(d), Kind::UInt { min, max }) = (k.default, k.kind) {
                let v: u64 = d.parse().unwrap();
                assert!(v >= min && v <= max, "{}", k.key);
            }
        }
    }
}
