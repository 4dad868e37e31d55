//! The emulator's schema file: database settings, privileges and tables (YAML).
//! `examples/emulator-schema.yaml` documents every field.

use crate::charset::{Charset, Charsets};
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::types::ColumnType;
use cdc_core::model::{ColumnInfo, DatabaseRole, OpenMode, Organization};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemaFile {
    /// Seed of the initial rows' values.
    #[serde(default = "default_seed")]
    pub seed: u64,
    #[serde(default)]
    pub database: DatabaseSpec,
    pub tables: Vec<TableSpec>,
}

fn default_seed() -> u64 {
    1
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DatabaseSpec {
    pub name: String,
    pub dbid: u64,
    pub version: String,
    pub edition: String,
    /// A container database; tables are then named PDB.OWNER.TABLE.
    pub multitenant: bool,
    pub archivelog: bool,
    pub force_logging: bool,
    pub supplemental_logging: SupplementalSpec,
    /// UNDO_RETENTION in seconds.
    pub undo_retention: u64,
    pub undo_guarantee: bool,
    pub role: RoleSpec,
    pub open_mode: OpenModeSpec,
    /// Redo threads (more than one is RAC-like).
    pub redo_threads: u32,
    /// Threads whose instance is open but runs no transaction (no service or session on
    /// it): the workload's transactions go round the other threads, and these write no redo
    /// at all, so V$THREAD shows them standing still (an idle RAC instance).
    pub idle_threads: Vec<u32>,
    /// LGWR's timed write, in ms: redo not yet forced out by a COMMIT, ROLLBACK or log switch
    /// of its thread stays in the log buffer (LogMiner does not return it) until it is this
    /// old. Oracle's LGWR writes at least every 3 seconds. 0: every record is written at once.
    pub redo_write_delay_ms: u64,
    /// The database host's offset from UTC, `+HH:MM` or `-HH:MM` (SYSTIMESTAMP's TZH:TZM): the
    /// DATE columns LogMiner fills from the host's clock (V$LOGMNR_CONTENTS.TIMESTAMP and
    /// COMMIT_TIMESTAMP, V$THREAD.LAST_REDO_TIME) and SCN_TO_TIMESTAMP are in this time.
    pub host_utc_offset: String,
    /// The TIME_AT_DBTIMEZONE parameter (a parameter from 23c; Reference 26ai, 2.413):
    /// `off` (the default, every release's behaviour before: every time is the host's),
    /// `user_sql` (SYSDATE and SYSTIMESTAMP return `db_time_zone`'s time, every other
    /// time-dependent operation stays on the host's) or `database` (26ai: every time-dependent
    /// operation uses `db_time_zone`, LogMiner's DATEs, V$THREAD.LAST_REDO_TIME and
    /// SCN_TO_TIMESTAMP too). Oracle sets it per PDB; here one value holds in every container.
    pub time_at_dbtimezone: TimeAtDbTimezone,
    /// DBTIMEZONE, `+HH:MM` or `-HH:MM`: the database time zone (default `+00:00`).
    pub db_time_zone: String,
    /// Redo records per log file; a log switch follows.
    pub log_size: u64,
    /// Archived logs kept per thread (0: all); older ones are gone (mining them: ORA-01291).
    pub archived_logs_kept: u64,
    /// The database's first SCN: flashback below it fails with ORA-08181.
    pub start_scn: u64,
    /// The user the workload's transactions run as (V$LOGMNR_CONTENTS.USERNAME).
    pub workload_user: String,
    /// Privileges of the capture user: `all` (every grant oracle-facts §7 lists) or a list.
    pub privileges: PrivilegeSpec,
    /// The COMPATIBLE parameter.
    pub compatible: String,
    /// Online redo log groups per thread (V$LOG). Without archiving (NOARCHIVELOG, or no
    /// VALID LOCAL destination) only this many newest logs of a thread are still available.
    pub redo_groups: u32,
    /// Size of each online redo log group in MiB (V$LOG.BYTES).
    pub redo_group_mb: u64,
    /// Archive destinations (V$ARCHIVE_DEST_STATUS); archived logs are minable only from a
    /// VALID LOCAL one.
    pub archive_destinations: Vec<ArchiveDestSpec>,
    /// The PROCESSES and SESSIONS parameters, and how many are in use (V$RESOURCE_LIMIT).
    pub processes: u64,
    pub processes_in_use: u64,
    pub sessions: u64,
    pub sessions_in_use: u64,
    /// The users sessions can log in as (`cdc.database.user`); empty: one user holding
    /// `privileges`, `C##CDC` in a CDB and `CDC` outside one (see [`super::access`]).
    pub users: Vec<super::access::UserSpec>,
    /// PDBs besides those the tables name, or that are not open (V$PDBS).
    pub pdbs: Vec<super::access::PdbSpec>,
    /// What Oracle itself writes into the redo beside the workload (see [`BackgroundSpec`]).
    pub background: BackgroundSpec,
    /// Tablespaces created BIGFILE (one data file, relative file number 1024, ROWIDs with a
    /// 32-bit block number); 23ai creates SYSTEM, SYSAUX and USERS so. Tables are in USERS
    /// unless their `tablespace` says otherwise.
    pub bigfile_tablespaces: Vec<String>,
    /// The ENABLE_GOLDENGATE_REPLICATION parameter (default FALSE): LogMiner writes the changes
    /// of tables with native JSON columns only when it is TRUE, else as UNSUPPORTED rows.
    pub goldengate_replication: bool,
    /// The MAX_STRING_SIZE parameter: `standard` (VARCHAR2 up to 4,000 bytes, NVARCHAR2 and
    /// RAW up to 2,000) or `extended` (up to 32,767 bytes; longer values are written in
    /// 32K_BEGIN/WRITE/END rows).
    pub max_string_size: MaxStringSize,
    /// NLS_CHARACTERSET: `AL32UTF8` (the default), `UTF8`, `WE8MSWIN1252` or `WE8ISO8859P1`:
    /// the set of VARCHAR2, CHAR, LONG, CLOB and XMLTYPE text. A character a single-byte set
    /// cannot hold is stored as '¿', as Oracle converts client text.
    pub character_set: Charset,
    /// NLS_NCHAR_CHARACTERSET: `AL16UTF16` (the default) or `UTF8`: the set of NCHAR,
    /// NVARCHAR2 and NCLOB text.
    pub national_character_set: Charset,
}

impl DatabaseSpec {
    /// The supplemental logging in force for a table of `pdb` (`None`: outside a CDB, or a
    /// table of the root): CDB$ROOT's levels hold in every container, and a PDB adds its own
    /// (`database.pdbs[].supplemental_logging`). Dropping all supplemental logging from CDB$ROOT
    /// "disables all supplemental logging in the CDB, regardless of previous PDB level
    /// settings" (Utilities 12.1, "Enabling Supplemental Logging in a CDB"), so a PDB's levels
    /// count only while the root has minimal logging.
    pub fn supplemental_in(&self, pdb: Option<&str>) -> SupplementalSpec {
        let root = &self.supplemental_logging;
        let own = pdb.and_then(|p| self.pdb_supplemental(p));
        match own {
            Some(own) if root.minimal() => SupplementalSpec {
                min: root.min || own.min,
                all: root.all || own.all,
                primary_key: root.primary_key || own.primary_key,
            },
            _ => root.clone(),
        }
    }

    /// What `pdb` declared itself (DBA_SUPPLEMENTAL_LOGGING there), if anything.
    pub fn pdb_supplemental(&self, pdb: &str) -> Option<&SupplementalSpec> {
        self.pdbs
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(pdb))
            .and_then(|p| p.supplemental_logging.as_ref())
    }

    /// NLS_CHARACTERSET and NLS_NCHAR_CHARACTERSET of the database (of CDB$ROOT in a CDB).
    pub fn charsets(&self) -> Charsets {
        Charsets {
            database: self.character_set,
            national: self.national_character_set,
        }
    }

    /// The character sets of container `pdb` (`None`: the root, or a database that is not a
    /// CDB): a PDB declared with its own `character_set` has it, the national set is always
    /// the CDB's.
    pub fn charsets_in(&self, pdb: Option<&str>) -> Charsets {
        let own = pdb.and_then(|name| {
            self.pdbs
                .iter()
                .find(|p| p.name.eq_ignore_ascii_case(name))
                .and_then(|p| p.character_set)
        });
        Charsets {
            database: own.unwrap_or(self.character_set),
            national: self.national_character_set,
        }
    }
}

/// The TIME_AT_DBTIMEZONE parameter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeAtDbTimezone {
    #[default]
    Off,
    UserSql,
    Database,
}

impl TimeAtDbTimezone {
    /// V$PARAMETER's value.
    pub fn parameter(self) -> &'static str {
        match self {
            TimeAtDbTimezone::Off => "OFF",
            TimeAtDbTimezone::UserSql => "USER_SQL",
            TimeAtDbTimezone::Database => "DATABASE",
        }
    }
}

/// `(major, minor)` of a version text (`23.26.0.0.0` → (23, 26); 26ai is release 23.26).
pub fn release(version: &str) -> (u32, u32) {
    let mut parts = version
        .split('.')
        .map(|p| p.trim().parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

/// The RESOURCE_LIMIT parameter at its default for `version`: TRUE from 12.1.0.2 (profile
/// limits such as SESSIONS_PER_USER enforced), FALSE before (Reference: FALSE up to 11.2, TRUE
/// in 12.1's edition for 12.1.0.2, B71292-14, and since).
pub fn resource_limit(version: &str) -> bool {
    let mut parts = version
        .split('.')
        .map(|p| p.trim().parse::<u32>().unwrap_or(0));
    let mut at = [0u32; 4];
    for slot in &mut at {
        *slot = parts.next().unwrap_or(0);
    }
    at >= [12, 1, 0, 2]
}

/// The MAX_STRING_SIZE parameter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MaxStringSize {
    #[default]
    Standard,
    Extended,
}

impl MaxStringSize {
    /// V$PARAMETER's value.
    pub fn parameter(self) -> &'static str {
        match self {
            MaxStringSize::Standard => "STANDARD",
            MaxStringSize::Extended => "EXTENDED",
        }
    }
}

/// The redo Oracle writes on its own while the workload runs, which V$LOGMNR_CONTENTS shows
/// beside the application's changes (oracle-facts §8, "Filtering"): recursive SYS
/// transactions on the dictionary and Oracle's internal DDL. Counted in workload transactions.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BackgroundSpec {
    /// A SYS transaction every N workload transactions (0: never): a sequence cache refill
    /// (SYS.SEQ$), DML monitoring (SYS.MON_MODS_ALL$) or column usage (SYS.COL_USAGE$).
    pub sys_every: u64,
    /// A DDL row Oracle runs itself (INFO `INTERNAL DDL…`), in a SYS transaction of its own,
    /// every N workload transactions (0: never).
    pub internal_ddl_every: u64,
}

impl Default for BackgroundSpec {
    fn default() -> Self {
        BackgroundSpec {
            sys_every: 4,
            internal_ddl_every: 50,
        }
    }
}

/// One archive destination of the emulated database.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveDestSpec {
    /// `LOG_ARCHIVE_DEST_1` … (the number is the DEST_ID).
    pub name: String,
    /// A directory, `USE_DB_RECOVERY_FILE_DEST`, or a standby's service name.
    pub destination: String,
    #[serde(default = "valid_status")]
    pub status: DestStatusSpec,
    #[serde(default = "local_kind", rename = "type")]
    pub kind: DestTypeSpec,
}

fn valid_status() -> DestStatusSpec {
    DestStatusSpec::Valid
}

fn local_kind() -> DestTypeSpec {
    DestTypeSpec::Local
}

/// V$ARCHIVE_DEST_STATUS.STATUS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DestStatusSpec {
    Valid,
    Deferred,
    Error,
    Disabled,
    BadParam,
    Alternate,
    Full,
}

impl DestStatusSpec {
    pub fn as_oracle(self) -> &'static str {
        match self {
            DestStatusSpec::Valid => "VALID",
            DestStatusSpec::Deferred => "DEFERRED",
            DestStatusSpec::Error => "ERROR",
            DestStatusSpec::Disabled => "DISABLED",
            DestStatusSpec::BadParam => "BAD PARAM",
            DestStatusSpec::Alternate => "ALTERNATE",
            DestStatusSpec::Full => "FULL",
        }
    }
}

/// V$ARCHIVE_DEST_STATUS.TYPE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DestTypeSpec {
    Local,
    Physical,
    CrossInstance,
}

impl DestTypeSpec {
    pub fn as_oracle(self) -> &'static str {
        match self {
            DestTypeSpec::Local => "LOCAL",
            DestTypeSpec::Physical => "PHYSICAL",
            DestTypeSpec::CrossInstance => "CROSS-INSTANCE",
        }
    }
}

impl ArchiveDestSpec {
    /// The DEST_ID from `LOG_ARCHIVE_DEST_n`.
    pub fn dest_id(&self) -> Option<u32> {
        self.name
            .to_ascii_uppercase()
            .strip_prefix("LOG_ARCHIVE_DEST_")
            .and_then(|n| n.parse().ok())
            .filter(|n| (1..=31).contains(n))
    }
}

impl Default for DatabaseSpec {
    fn default() -> Self {
        DatabaseSpec {
            name: "EMU".into(),
            dbid: 1_234_567_890,
            version: "19.22.0.0.0".into(),
            edition: "Enterprise Edition".into(),
            multitenant: false,
            archivelog: true,
            force_logging: true,
            supplemental_logging: SupplementalSpec::default(),
            undo_retention: 900,
            undo_guarantee: false,
            role: RoleSpec::Primary,
            open_mode: OpenModeSpec::ReadWrite,
            redo_threads: 1,
            idle_threads: Vec::new(),
            redo_write_delay_ms: 3000,
            host_utc_offset: "+00:00".into(),
            time_at_dbtimezone: TimeAtDbTimezone::Off,
            db_time_zone: "+00:00".into(),
            log_size: 20_000,
            archived_logs_kept: 0,
            start_scn: 1_000_000,
            workload_user: "APP".into(),
            privileges: PrivilegeSpec::All(AllWord::All),
            compatible: "19.0.0".into(),
            redo_groups: 3,
            redo_group_mb: 200,
            archive_destinations: vec![ArchiveDestSpec {
                name: "LOG_ARCHIVE_DEST_1".into(),
                destination: "/u01/arch".into(),
                status: DestStatusSpec::Valid,
                kind: DestTypeSpec::Local,
            }],
            processes: 300,
            processes_in_use: 60,
            sessions: 472,
            sessions_in_use: 40,
            users: Vec::new(),
            pdbs: Vec::new(),
            background: BackgroundSpec::default(),
            bigfile_tablespaces: Vec::new(),
            goldengate_replication: false,
            max_string_size: MaxStringSize::Standard,
            character_set: Charset::Al32Utf8,
            national_character_set: Charset::Al16Utf16,
        }
    }
}

/// Database-level supplemental logging (V$DATABASE.SUPPLEMENTAL_LOG_DATA_*).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SupplementalSpec {
    /// `ALTER DATABASE ADD SUPPLEMENTAL LOG DATA`.
    pub min: bool,
    /// `… ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS`.
    pub all: bool,
    /// `… ADD SUPPLEMENTAL LOG DATA (PRIMARY KEY) COLUMNS`.
    #[serde(skip_serializing_if = "is_false")]
    pub primary_key: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl SupplementalSpec {
    /// SUPPLEMENTAL_LOG_DATA_MIN is YES, or IMPLICIT because identification key logging is on.
    pub fn minimal(&self) -> bool {
        self.min || self.all || self.primary_key
    }
}

impl Default for SupplementalSpec {
    fn default() -> Self {
        SupplementalSpec {
            min: true,
            all: false,
            primary_key: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoleSpec {
    Primary,
    PhysicalStandby,
}

impl From<RoleSpec> for DatabaseRole {
    fn from(r: RoleSpec) -> Self {
        match r {
            RoleSpec::Primary => DatabaseRole::Primary,
            RoleSpec::PhysicalStandby => DatabaseRole::PhysicalStandby,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpenModeSpec {
    ReadWrite,
    ReadOnly,
    ReadOnlyWithApply,
}

impl From<OpenModeSpec> for OpenMode {
    fn from(m: OpenModeSpec) -> Self {
        match m {
            OpenModeSpec::ReadWrite => OpenMode::ReadWrite,
            OpenModeSpec::ReadOnly => OpenMode::ReadOnly,
            OpenModeSpec::ReadOnlyWithApply => OpenMode::ReadOnlyWithApply,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllWord {
    All,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PrivilegeSpec {
    All(AllWord),
    List(Vec<String>),
}

/// Every grant the emulated capture user can hold (oracle-facts §7 and the dictionary views the
/// adapter reads), as names: a system privilege, a role (`…_ROLE`) or an object grant
/// `OWNER.OBJECT:PRIV`. `privileges: all` grants every one.
pub const ALL_PRIVILEGES: &[&str] = &[
    "CREATE SESSION",
    "SET CONTAINER",
    "FLASHBACK ANY TABLE",
    "SELECT ANY TABLE",
    "SELECT ANY TRANSACTION",
    "LOGMINING",
    "SELECT_CATALOG_ROLE",
    "EXECUTE_CATALOG_ROLE",
    "SYS.V_$DATABASE:SELECT",
    "SYS.DBMS_LOGMNR:EXECUTE",
    "SYS.DBMS_LOGMNR_D:EXECUTE",
    "SYS.V_$LOG:SELECT",
    "SYS.V_$LOGFILE:SELECT",
    "SYS.V_$ARCHIVED_LOG:SELECT",
    "SYS.V_$ARCHIVE_DEST_STATUS:SELECT",
    "SYS.V_$LOGMNR_LOGS:SELECT",
    "SYS.V_$LOGMNR_CONTENTS:SELECT",
    "SYS.V_$LOGMNR_PARAMETERS:SELECT",
    "SYS.V_$TRANSACTION:SELECT",
    "SYS.V_$THREAD:SELECT",
    "SYS.DBA_EXTENTS:SELECT",
    // What the adapter's own statements read besides §7's list (grants SELECT_CATALOG_ROLE
    // also covers), so that a list without the role can still grant everything.
    "SELECT ANY DICTIONARY",
    "SYS.V_$PARAMETER:SELECT",
    "SYS.V_$PDBS:SELECT",
    "SYS.DBA_OBJECTS:SELECT",
    "SYS.DBA_TABLESPACES:SELECT",
    "SYS.GV_$TRANSACTION:SELECT",
    "SYS.GV_$INSTANCE:SELECT",
];

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    pub name: String,
    pub columns: Vec<ColumnSpec>,
    #[serde(default)]
    pub primary_key: Vec<String>,
    #[serde(default)]
    pub unique_keys: Vec<Vec<String>>,
    /// CREATE UNIQUE INDEX without a constraint: ALL_INDEXES lists it (UNIQUENESS 'UNIQUE'),
    /// ALL_CONSTRAINTS does not; the writer enforces it like a unique key.
    #[serde(default)]
    pub unique_indexes: Vec<Vec<String>>,
    #[serde(default)]
    pub organization: OrganizationSpec,
    /// The index or hash cluster (in the table's schema) the table is stored in
    /// (`CREATE TABLE … CLUSTER name (…)`): ALL_TABLES.CLUSTER_NAME names it; the table has no
    /// segment of its own, its rows are in the cluster's blocks beside those of the cluster's
    /// other tables, DBA_EXTENTS lists them under the cluster's name (SEGMENT_TYPE 'CLUSTER')
    /// and their ROWIDs carry the cluster's data object id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    #[serde(default)]
    pub row_movement: bool,
    /// Table-level supplemental logging: `all` (ALL COLUMNS), `primary_key` or `none`.
    #[serde(default)]
    pub supplemental_logging: TableLogging,
    #[serde(default)]
    pub partitions: Option<PartitionSpec>,
    /// Rows inserted by `emulator init`.
    #[serde(default)]
    pub rows: u64,
    /// Optimizer statistics after init: `current`, `stale` or `missing`.
    #[serde(default)]
    pub statistics: StatsSpec,
    /// A materialized view log on the table (`CREATE MATERIALIZED VIEW LOG ON …`): every
    /// change also writes an `MLOG$_<TABLE>` row in the same transaction.
    #[serde(default, skip_serializing_if = "is_false")]
    pub materialized_view_log: bool,
    /// Transactions of the table's owner (USERNAME = the owner) on this table alone, per
    /// workload transaction: a busy schema beside the workload's (0: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub background_transactions: u32,
    /// The tablespace the table's segments are in (default `USERS`); bigfile when it is in
    /// `database.bigfile_tablespaces`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tablespace: Option<String>,
    /// Virtual Private Database policies (`DBMS_RLS.ADD_POLICY`) on the table: see
    /// [`AccessPolicySpec`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub access_policies: Vec<AccessPolicySpec>,
    /// Oracle Data Redaction policies (`DBMS_REDACT.ADD_POLICY`): see [`RedactionSpec`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub redaction_policies: Vec<RedactionSpec>,
    /// In-Database Archiving (`CREATE TABLE … ROW ARCHIVAL`): see [`RowArchivalSpec`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row_archival: Option<RowArchivalSpec>,
}

/// A VPD policy: `DBMS_RLS.ADD_POLICY(object_schema, object_name, policy_name, function_schema,
/// policy_function, statement_types => 'SELECT', enable, sec_relevant_cols,
/// sec_relevant_cols_opt)` whose function returns `predicate` (a static policy). Oracle adds the
/// predicate to every query of the table by a user without EXEMPT ACCESS POLICY (SYS is
/// exempt), flashback queries included; LogMiner's rows are not filtered. ALL_POLICIES lists it
/// (SEL = 'YES' when `select`, ENABLE), ALL_SEC_RELEVANT_COLS its `columns`.
///
/// With `columns` (sec_relevant_cols) it is a column-level policy: enforced only on a query
/// that references one of them, anywhere in the statement (Security Guide, "Control of the
/// Display of Column Data with Policies"). With `all_rows` too (sec_relevant_cols_opt =>
/// DBMS_RLS.ALL_ROWS) such a query returns every row, and in the rows the predicate does not
/// let through those columns read as NULL.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccessPolicySpec {
    pub name: String,
    /// The predicate the policy function returns: a condition on the table's columns.
    pub predicate: String,
    /// statement_types holds SELECT (the default): the policy filters queries.
    #[serde(default = "yes")]
    pub select: bool,
    /// DBMS_RLS.ENABLE_POLICY: a disabled policy filters nothing.
    #[serde(default = "yes")]
    pub enabled: bool,
    /// sec_relevant_cols: the policy is enforced only on queries that reference one of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<String>,
    /// sec_relevant_cols_opt => DBMS_RLS.ALL_ROWS: the columns read as NULL where the predicate
    /// fails, instead of the row being left out.
    #[serde(default, skip_serializing_if = "is_false")]
    pub all_rows: bool,
}

/// A Data Redaction policy with full redaction (`function_type => DBMS_REDACT.FULL`) of
/// `columns`. Query results show Oracle's default full redaction values (Data Redaction Guide,
/// "Full Data Redaction to Redact All Data"; Reference, REDACTION_VALUES_FOR_TYPE_FULL): 0 for
/// NUMBER, FLOAT, BINARY_FLOAT and BINARY_DOUBLE, a single space for character types,
/// 01-JAN-2001 for DATE and TIMESTAMP, in a session for which the column's expression is TRUE
/// (its named expression if one is applied to it, else `expression`; see
/// [`crate::redaction_expr`]), unless the user holds EXEMPT REDACTION POLICY (SYS is exempt).
/// LogMiner's rows are not masked. REDACTION_POLICIES lists it (ENABLE, EXPRESSION),
/// REDACTION_COLUMNS its columns, REDACTION_EXPRESSIONS its named expressions. A policy may
/// redact no column (DBMS_REDACT.ADD_POLICY without `column_name`): it masks nothing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedactionSpec {
    pub name: String,
    #[serde(default)]
    pub columns: Vec<String>,
    /// DBMS_REDACT.ENABLE_POLICY / DISABLE_POLICY.
    #[serde(default = "yes")]
    pub enabled: bool,
    /// The policy's expression (`expression` of DBMS_REDACT.ADD_POLICY): a condition on the
    /// session's context, e.g. `SYS_CONTEXT('USERENV','SESSION_USER') != 'CDC'`.
    #[serde(default = "always")]
    pub expression: String,
    /// Named policy expressions applied to some of `columns`
    /// (DBMS_REDACT.CREATE_POLICY_EXPRESSION, APPLY_POLICY_EXPR_TO_COL; from 12.2): for its
    /// columns one takes precedence over `expression`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub column_expressions: Vec<NamedRedactionExpression>,
}

/// A Data Redaction named policy expression and the redacted columns it is applied to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedRedactionExpression {
    pub name: String,
    pub expression: String,
    pub columns: Vec<String>,
}

/// DBMS_REDACT.ADD_POLICY's usual expression: TRUE for every session.
fn always() -> String {
    "1=1".into()
}

/// `ROW ARCHIVAL`: the table has the hidden column ORA_ARCHIVE_STATE ('0' active, else
/// archived; VLDB and Partitioning Guide, "Using In-Database Archiving"). A query of a session
/// with ROW ARCHIVAL VISIBILITY = ACTIVE (the default) sees only the active rows; ALL sees every
/// row. LogMiner's rows are every row's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RowArchivalSpec {
    /// A condition on the table's key columns: the rows it holds for were archived
    /// (`UPDATE … SET ORA_ARCHIVE_STATE = '1' WHERE …`). The emulator keeps no
    /// ORA_ARCHIVE_STATE column: it decides by the condition on the row as read, so the
    /// condition should name only columns no workload changes (the key columns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archived: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrganizationSpec {
    #[default]
    Heap,
    IndexOrganized,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableLogging {
    All,
    PrimaryKey,
    #[default]
    None,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StatsSpec {
    #[default]
    Current,
    Stale,
    Missing,
}

/// List partitioning by one column.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartitionSpec {
    pub column: String,
    pub list: Vec<ListPartition>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListPartition {
    pub name: String,
    /// Values (as text) that go to this partition; empty is the DEFAULT partition.
    #[serde(default)]
    pub values: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColumnSpec {
    pub name: String,
    #[serde(rename = "type")]
    pub data_type: String,
    #[serde(default = "yes")]
    pub nullable: bool,
    /// A virtual column (computed; never in redo). Its value is generated like any other here.
    #[serde(default, rename = "virtual")]
    pub virtual_column: bool,
    /// How values are made; default by type.
    #[serde(default)]
    pub generate: Option<super::generate::Generator>,
    /// Percent of generated values that are NULL (nullable columns only).
    #[serde(default)]
    pub null_pct: u8,
    /// A CLOB, NCLOB or BLOB column's storage (`LOB (C) STORE AS SECUREFILE | BASICFILE`):
    /// `securefile`, the default since 12c (`DB_SECUREFILE` PREFERRED), or `basicfile`. What
    /// LogMiner writes for an out-of-line value differs (see `lob_redo`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lob_storage: Option<LobStorageSpec>,
    /// `ENABLE STORAGE IN ROW` (the default): values up to about 4,000 bytes stay in the row;
    /// `false` (`DISABLE STORAGE IN ROW`) keeps every value out of line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_in_row: Option<bool>,
}

/// `STORE AS SECUREFILE` or `STORE AS BASICFILE`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LobStorageSpec {
    #[default]
    Securefile,
    Basicfile,
}

/// How a LOB column is stored (see [`ColumnSpec::lob_storage`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LobStorage {
    pub basicfile: bool,
    pub in_row: bool,
}

impl Default for LobStorage {
    fn default() -> Self {
        LobStorage {
            basicfile: false,
            in_row: true,
        }
    }
}

fn yes() -> bool {
    true
}

/// A validated table definition.
#[derive(Debug, Clone)]
pub struct TableDef {
    pub name: TableName,
    pub columns: Vec<ColumnInfo>,
    pub generators: Vec<super::generate::ColumnGen>,
    pub primary_key: Vec<String>,
    pub unique_keys: Vec<Vec<String>>,
    /// Unique indexes created without a constraint.
    pub unique_indexes: Vec<Vec<String>>,
    pub organization: Organization,
    /// The cluster the table is stored in (ALL_TABLES.CLUSTER_NAME), in its schema.
    pub cluster: Option<String>,
    pub row_movement: bool,
    pub logging: TableLogging,
    pub partitions: Option<PartitionSpec>,
    pub rows: u64,
    pub statistics: StatsSpec,
    pub materialized_view_log: bool,
    pub background_transactions: u32,
    /// Its tablespace is a bigfile tablespace.
    pub bigfile: bool,
    /// The LOB columns not stored as SECUREFILE with storage in row, by name.
    pub lob_storage: Vec<(String, LobStorage)>,
    /// The character sets of the table's container (its PDB's, which may differ from the
    /// CDB's): its text is stored in them and its keys order as their BINARY order.
    pub charsets: Charsets,
}

/// The emulator's size limits: beyond them a schema is a mistake (a typo'd `rows`) that would
/// take hours and the disk before failing. A table's rows: `emulator init` keeps none of them
/// in memory and readers read them chunk by chunk, so the limit is time and disk (about 380
/// bytes of disk a row of a 5-column table: 38 GB at this limit), not memory.
pub const MAX_ROWS: u64 = 100_000_000;
pub const MAX_TABLES: u64 = 10_000;
pub const MAX_LOG_SIZE: u64 = 100_000_000;

fn limit(path: &Path, what: &str, value: u64, max: u64) -> Result<()> {
    if value > max {
        return Err(CdcError::coded(
            crate::errors::Code::Cdc4007,
            format!(
                "emulator schema {}: {what} is {value}; the emulator takes at most {max}",
                path.display()
            ),
        ));
    }
    Ok(())
}

impl SchemaFile {
    pub fn read(path: &Path) -> Result<SchemaFile> {
        let text = std::fs::read_to_string(path).map_err(|e| CdcError::EmulatorSchema {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        SchemaFile::parse(path, &text)
    }

    pub fn parse(path: &Path, text: &str) -> Result<SchemaFile> {
        let schema: SchemaFile = serde_yaml::from_str(text).map_err(|e| {
            let at = e
                .location()
                .map(|l| format!("line {} column {}: ", l.line(), l.column()))
                .unwrap_or_default();
            CdcError::EmulatorSchema {
                path: path.to_path_buf(),
                message: format!("{at}{e}"),
            }
        })?;
        schema.tables(path)?;
        Ok(schema)
    }

    /// Validate and type one table created after the schema (CREATE TABLE), with the
    /// database's settings.
    pub fn created_table(&self, spec: &TableSpec) -> Result<TableDef> {
        let one = SchemaFile {
            tables: vec![spec.clone()],
            ..self.clone()
        };
        let mut defs = one.tables(Path::new("CREATE TABLE"))?;
        defs.pop()
            .ok_or_else(|| CdcError::Workload("CREATE TABLE without a table".into()))
    }

    /// Validate and type every table (and refuse sizes beyond the emulator's limits, CDC-4007).
    pub fn tables(&self, path: &Path) -> Result<Vec<TableDef>> {
        let bad = |message: String| CdcError::EmulatorSchema {
            path: path.to_path_buf(),
            message,
        };
        if self.database.redo_threads == 0 || self.database.redo_threads > 8 {
            return Err(bad("database.redo_threads must be 1..8".into()));
        }
        let threads = self.database.redo_threads;
        if let Some(t) = self
            .database
            .idle_threads
            .iter()
            .find(|t| **t == 0 || **t > threads)
        {
            return Err(bad(format!(
                "database.idle_threads names thread {t}; the database has threads 1..{threads}"
            )));
        }
        if (1..=threads).all(|t| self.database.idle_threads.contains(&t)) {
            return Err(bad(
                "database.idle_threads names every thread: at least one must take transactions"
                    .into(),
            ));
        }
        if cdc_core::model::parse_utc_offset(&self.database.host_utc_offset).is_none() {
            return Err(bad(format!(
                "database.host_utc_offset `{}` must be +HH:MM or -HH:MM, from -12:00 to +14:00",
                self.database.host_utc_offset
            )));
        }
        if cdc_core::model::parse_utc_offset(&self.database.db_time_zone).is_none() {
            return Err(bad(format!(
                "database.db_time_zone `{}` must be +HH:MM or -HH:MM, from -12:00 to +14:00",
                self.database.db_time_zone
            )));
        }
        // TIME_AT_DBTIMEZONE exists from 23c (OFF, USER_SQL: 23c Reference); DATABASE is a
        // 26ai value (26ai Reference, 2.413), release 23.26.
        let at = release(&self.database.version);
        let needs = match self.database.time_at_dbtimezone {
            TimeAtDbTimezone::Off => None,
            TimeAtDbTimezone::UserSql => Some(((23, 0), "23c")),
            TimeAtDbTimezone::Database => Some(((23, 26), "26ai (23.26)")),
        };
        if let Some((_, name)) = needs.filter(|(first, _)| at < *first) {
            return Err(bad(format!(
                "database.time_at_dbtimezone: {} is a value of Oracle {name} and later; database.version is {}",
                self.database.time_at_dbtimezone.parameter(),
                self.database.version
            )));
        }
        limit(path, "tables", self.tables.len() as u64, MAX_TABLES)?;
        limit(
            path,
            "database.log_size",
            self.database.log_size,
            MAX_LOG_SIZE,
        )?;
        if self.database.log_size < 10 {
            return Err(bad(
                "database.log_size must be at least 10 redo records".into()
            ));
        }
        if self.database.redo_groups < 2 {
            return Err(bad(
                "database.redo_groups must be at least 2 (Oracle needs two online log groups per thread)".into(),
            ));
        }
        let mut dest_ids = BTreeSet::new();
        for d in &self.database.archive_destinations {
            let Some(id) = d.dest_id() else {
                return Err(bad(format!(
                    "database.archive_destinations: `{}` is not LOG_ARCHIVE_DEST_1 … LOG_ARCHIVE_DEST_31",
                    d.name
                )));
            };
            if !dest_ids.insert(id) {
                return Err(bad(format!(
                    "database.archive_destinations: `{}` is declared twice",
                    d.name
                )));
            }
        }
        // Oracle's national sets are AL16UTF16 and UTF8; AL16UTF16 is national only
        // (Globalization Support Guide, "Choosing a National Character Set").
        if self.database.character_set == Charset::Al16Utf16 {
            return Err(bad(
                "database.character_set cannot be AL16UTF16 (a national character set only); use AL32UTF8, UTF8, WE8MSWIN1252 or WE8ISO8859P1".into(),
            ));
        }
        if !matches!(
            self.database.national_character_set,
            Charset::Al16Utf16 | Charset::Utf8
        ) {
            return Err(bad(format!(
                "database.national_character_set cannot be {}: Oracle's national character sets are AL16UTF16 and UTF8",
                self.database.national_character_set
            )));
        }
        if self.database.processes_in_use > self.database.processes
            || self.database.sessions_in_use > self.database.sessions
        {
            return Err(bad(
                "database.processes_in_use / sessions_in_use cannot exceed processes / sessions"
                    .into(),
            ));
        }
        super::access::validate(self).map_err(bad)?;
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for t in &self.tables {
            let name: TableName = t
                .name
                .parse()
                .map_err(|e: String| bad(format!("table `{}`: {e}", t.name)))?;
            if self.database.multitenant != name.pdb.is_some() {
                return Err(bad(format!(
                    "table `{name}`: {}",
                    if self.database.multitenant {
                        "a multitenant database names tables PDB.OWNER.TABLE"
                    } else {
                        "a database without multitenant names tables OWNER.TABLE (set database.multitenant: true for PDBs)"
                    }
                )));
            }
            if cdc_core::filter::is_oracle_schema(&name.owner) {
                return Err(bad(format!(
                    "table `{name}`: {} is a schema Oracle maintains; its rows come from database.background",
                    name.owner
                )));
            }
            if !seen.insert(name.clone()) {
                return Err(bad(format!("table `{name}` is declared twice")));
            }
            if t.columns.is_empty() {
                return Err(bad(format!("table `{name}` has no columns")));
            }
            limit(path, &format!("table `{name}` rows"), t.rows, MAX_ROWS)?;
            // Oracle's own limit: 1000 columns per table.
            limit(
                path,
                &format!("table `{name}` columns"),
                t.columns.len() as u64,
                1000,
            )?;
            let mut columns = Vec::new();
            let mut generators = Vec::new();
            let mut col_names = BTreeSet::new();
            let mut lob_storage = Vec::new();
            for c in &t.columns {
                let cname = crate::names::split_identifiers(&c.name)
                    .ok()
                    .filter(|p| p.len() == 1)
                    .map(|mut p| p.remove(0))
                    .ok_or_else(|| bad(format!("table `{name}`: bad column name `{}`", c.name)))?;
                if !col_names.insert(cname.clone()) {
                    return Err(bad(format!(
                        "table `{name}`: column `{cname}` is declared twice"
                    )));
                }
                // A character-semantics length (`VARCHAR2(10 CHAR)`) is n characters of up to
                // 4 bytes (the emulated database is AL32UTF8), within the type's maximum.
                let extended = self.database.max_string_size == MaxStringSize::Extended;
                let data_type = ColumnType::parse_sized(&c.data_type, extended)
                    .map_err(|e| bad(format!("table `{name}` column `{cname}`: {e}")))?;
                // ORA-00910: VARCHAR2 over 4,000 bytes, NVARCHAR2 and RAW over 2,000 need
                // MAX_STRING_SIZE=EXTENDED (SQL Reference, "Data Types", extended data types).
                if data_type.is_extended()
                    && self.database.max_string_size != MaxStringSize::Extended
                {
                    return Err(bad(format!(
                        "table `{name}` column `{cname}`: ORA-00910: specified length too long for its datatype ({} needs database.max_string_size: extended)",
                        data_type.sql_name()
                    )));
                }
                if matches!(data_type, ColumnType::Other { .. }) && !c.nullable {
                    return Err(bad(format!(
                        "table `{name}` column `{cname}`: object-type columns are emulated as NULL and must be nullable"
                    )));
                }
                if c.lob_storage.is_some() || c.storage_in_row.is_some() {
                    if !matches!(
                        data_type,
                        ColumnType::Clob | ColumnType::Nclob | ColumnType::Blob
                    ) {
                        return Err(bad(format!(
                            "table `{name}` column `{cname}`: lob_storage and storage_in_row are for CLOB, NCLOB and BLOB columns"
                        )));
                    }
                    let storage = LobStorage {
                        basicfile: c.lob_storage == Some(LobStorageSpec::Basicfile),
                        in_row: c.storage_in_row.unwrap_or(true),
                    };
                    if storage != LobStorage::default() {
                        lob_storage.push((cname.clone(), storage));
                    }
                }
                let gen = super::generate::ColumnGen::new(
                    &data_type,
                    c.generate.clone(),
                    c.null_pct,
                    c.nullable,
                )
                .map_err(|e| bad(format!("table `{name}` column `{cname}`: {e}")))?;
                generators.push(gen);
                columns.push(ColumnInfo {
                    name: cname,
                    data_type,
                    nullable: c.nullable,
                    virtual_column: c.virtual_column,
                    hidden: false,
                });
            }
            let check_cols = |what: &str, cols: &[String]| -> Result<Vec<String>> {
                cols.iter()
                    .map(|c| {
                        let up = c.to_ascii_uppercase();
                        if col_names.contains(&up) {
                            Ok(up)
                        } else {
                            Err(bad(format!(
                                "table `{name}`: {what} names unknown column `{c}`"
                            )))
                        }
                    })
                    .collect()
            };
            let primary_key = check_cols("primary_key", &t.primary_key)?;
            for k in &primary_key {
                if columns.iter().any(|c| &c.name == k && c.nullable) {
                    return Err(bad(format!(
                        "table `{name}`: primary key column `{k}` must be `nullable: false` (Oracle makes key columns NOT NULL)"
                    )));
                }
            }
            let unique_keys = t
                .unique_keys
                .iter()
                .map(|u| check_cols("unique_keys", u))
                .collect::<Result<Vec<_>>>()?;
            let unique_indexes = t
                .unique_indexes
                .iter()
                .map(|u| check_cols("unique_indexes", u))
                .collect::<Result<Vec<_>>>()?;
            for k in primary_key
                .iter()
                .chain(unique_keys.iter().flatten())
                .chain(unique_indexes.iter().flatten())
            {
                let ty = columns.iter().find(|c| &c.name == k).map(|c| &c.data_type);
                if let Some(e) = ty.and_then(super::key_gen::key_type_error) {
                    return Err(bad(format!("table `{name}`: key column `{k}`: {e}")));
                }
            }
            if t.organization == OrganizationSpec::IndexOrganized && primary_key.is_empty() {
                return Err(bad(format!(
                    "table `{name}`: an index-organised table needs a primary key"
                )));
            }
            if let Some(p) = &t.partitions {
                check_cols("partitions.column", std::slice::from_ref(&p.column))?;
                if p.list.is_empty() {
                    return Err(bad(format!("table `{name}`: partitions.list is empty")));
                }
                if t.organization == OrganizationSpec::IndexOrganized {
                    return Err(bad(format!(
                        "table `{name}`: partitioned index-organised tables are not emulated"
                    )));
                }
            }
            super::policies::validate(t, &columns, release(&self.database.version))
                .map_err(|e| bad(format!("table `{name}`: {e}")))?;
            let cluster = match &t.cluster {
                None => None,
                Some(c) => Some(self.cluster_of(&name, t, c).map_err(bad)?),
            };
            let charsets = self.database.charsets_in(name.pdb.as_deref());
            out.push(TableDef {
                name,
                columns,
                generators,
                primary_key,
                unique_keys,
                unique_indexes,
                organization: match t.organization {
                    OrganizationSpec::Heap => Organization::Heap,
                    OrganizationSpec::IndexOrganized => Organization::IndexOrganized,
                },
                cluster,
                row_movement: t.row_movement,
                logging: t.supplemental_logging,
                partitions: t.partitions.clone(),
                rows: t.rows,
                statistics: t.statistics,
                materialized_view_log: t.materialized_view_log,
                background_transactions: t.background_transactions,
                bigfile: {
                    let ts = t.tablespace.as_deref().unwrap_or("USERS");
                    self.database
                        .bigfile_tablespaces
                        .iter()
                        .any(|b| b.eq_ignore_ascii_case(ts))
                },
                lob_storage,
                charsets,
            });
        }
        Ok(out)
    }
}

impl SchemaFile {
    /// The cluster `cluster` table `name` (declared as `t`) is stored in, upper-cased, checked as
    /// Oracle checks `CREATE TABLE … CLUSTER`: not with PARTITION BY (ORA-14026: "PARTITION and
    /// CLUSTER clauses are mutually exclusive"), not index-organised (an IOT's segment is its
    /// index), the cluster's name not a table's of the same schema (one namespace: ORA-00955),
    /// and every table of the cluster in its one tablespace (a clustered table takes its
    /// cluster's storage).
    fn cluster_of(&self, name: &TableName, t: &TableSpec, cluster: &str) -> Result<String, String> {
        let ident = |text: &str| {
            crate::names::split_identifiers(text)
                .ok()
                .filter(|p| p.len() == 1)
                .map(|mut p| p.remove(0))
        };
        let c = ident(cluster)
            .ok_or_else(|| format!("table `{name}`: bad cluster name `{cluster}`"))?;
        if t.partitions.is_some() {
            return Err(format!(
                "table `{name}`: ORA-14026: PARTITION and CLUSTER clauses are mutually exclusive"
            ));
        }
        if t.organization == OrganizationSpec::IndexOrganized {
            return Err(format!(
                "table `{name}`: an index-organised table cannot be stored in a cluster"
            ));
        }
        let same_schema = |other: &TableSpec| {
            other
                .name
                .parse::<TableName>()
                .ok()
                .filter(|o| o.pdb == name.pdb && o.owner == name.owner)
        };
        for other in &self.tables {
            let Some(o) = same_schema(other) else {
                continue;
            };
            if o.table == c {
                return Err(format!(
                    "table `{name}`: cluster {c}: ORA-00955: name is already used by an existing object (table {o})"
                ));
            }
            let in_cluster = other.cluster.as_deref().and_then(ident).as_ref() == Some(&c);
            let tablespace = |s: &TableSpec| {
                s.tablespace
                    .as_deref()
                    .unwrap_or("USERS")
                    .to_ascii_uppercase()
            };
            if in_cluster && tablespace(other) != tablespace(t) {
                return Err(format!(
                    "table `{name}`: a clustered table is stored in its cluster's tablespace, and {o} in cluster {c} names another (`tablespace`)"
                ));
            }
        }
        Ok(c)
    }
}

impl DatabaseSpec {
    /// `host_utc_offset` in seconds east of UTC (validated when the schema is read).
    pub fn host_offset_secs(&self) -> i32 {
        cdc_core::model::parse_utc_offset(&self.host_utc_offset).unwrap_or(0)
    }

    /// `db_time_zone` (DBTIMEZONE) in seconds east of UTC.
    pub fn db_offset_secs(&self) -> i32 {
        cdc_core::model::parse_utc_offset(&self.db_time_zone).unwrap_or(0)
    }

    /// The clock SYSDATE and SYSTIMESTAMP read: the host's, or with TIME_AT_DBTIMEZONE
    /// USER_SQL or DATABASE the database time zone's.
    pub fn sql_clock_offset_secs(&self) -> i32 {
        match self.time_at_dbtimezone {
            TimeAtDbTimezone::Off => self.host_offset_secs(),
            _ => self.db_offset_secs(),
        }
    }

    /// The clock of the DATEs the database fills in itself (V$LOGMNR_CONTENTS TIMESTAMP and
    /// COMMIT_TIMESTAMP, V$THREAD.LAST_REDO_TIME, SCN_TO_TIMESTAMP): the host's, unless
    /// TIME_AT_DBTIMEZONE=DATABASE puts every time-dependent operation in the database time
    /// zone (USER_SQL changes SYSDATE and SYSTIMESTAMP alone).
    pub fn date_clock_offset_secs(&self) -> i32 {
        match self.time_at_dbtimezone {
            TimeAtDbTimezone::Database => self.db_offset_secs(),
            _ => self.host_offset_secs(),
        }
    }

    /// The capture user's grants as SESSION_PRIVS / SESSION_ROLES / USER_TAB_PRIVS show them.
    pub fn granted(&self) -> cdc_core::model::Privileges {
        super::access::privileges_of(&self.privileges)
    }
}

impl TableDef {
    /// How LOB column `column` is stored.
    pub fn lob_storage(&self, column: &str) -> LobStorage {
        self.lob_storage
            .iter()
            .find(|(c, _)| c == column)
            .map(|(_, s)| *s)
            .unwrap_or_default()
    }

    /// The primary key and unique keys as ALL_CONSTRAINTS names them.
    pub fn constraints(
        &self,
    ) -> (
        Option<cdc_core::model::KeyConstraint>,
        Vec<cdc_core::model::KeyConstraint>,
    ) {
        use cdc_core::model::KeyConstraint;
        let pk = (!self.primary_key.is_empty()).then(|| KeyConstraint {
            name: format!("{}_PK", self.name.table),
            columns: self.primary_key.clone(),
        });
        let uks = self
            .unique_keys
            .iter()
            .enumerate()
            .map(|(i, cols)| KeyConstraint {
                name: format!("{}_UK{}", self.name.table, i + 1),
                columns: cols.clone(),
            })
            .collect();
        (pk, uks)
    }

    /// The unique indexes as ALL_INDEXES lists them: the one each key constraint made (named
    /// like it, as Oracle names an index it creates for a constraint), then those created on
    /// their own (`<TABLE>_UX<n>`).
    pub fn indexes(&self) -> Vec<cdc_core::model::KeyConstraint> {
        let (pk, uks) = self.constraints();
        pk.into_iter()
            .chain(uks)
            .chain(self.own_indexes())
            .collect()
    }

    /// The unique indexes created without a constraint.
    pub fn own_indexes(&self) -> Vec<cdc_core::model::KeyConstraint> {
        self.unique_indexes
            .iter()
            .enumerate()
            .map(|(i, cols)| cdc_core::model::KeyConstraint {
                name: format!("{}_UX{}", self.name.table, i + 1),
                columns: cols.clone(),
            })
            .collect()
    }
}
