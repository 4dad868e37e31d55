//! What a source returns: plain data, the same for Oracle and the emulator.

use crate::names::TableName;
use crate::types::{ColumnType, Value};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A system change number (fits u64; 12.2+ SCNs can exceed 2^48).
pub type Scn = u64;

/// The root container of a multitenant database (SYS_CONTEXT('USERENV', 'CON_NAME') there).
pub const ROOT_CONTAINER: &str = "CDB$ROOT";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum DatabaseRole {
    Primary,
    PhysicalStandby,
    LogicalStandby,
    SnapshotStandby,
}

impl DatabaseRole {
    /// As V$DATABASE.DATABASE_ROLE prints it.
    pub fn as_oracle(self) -> &'static str {
        match self {
            DatabaseRole::Primary => "PRIMARY",
            DatabaseRole::PhysicalStandby => "PHYSICAL STANDBY",
            DatabaseRole::LogicalStandby => "LOGICAL STANDBY",
            DatabaseRole::SnapshotStandby => "SNAPSHOT STANDBY",
        }
    }
    pub fn from_oracle(s: &str) -> Option<Self> {
        Some(match s.trim() {
            "PRIMARY" => DatabaseRole::Primary,
            "PHYSICAL STANDBY" => DatabaseRole::PhysicalStandby,
            "LOGICAL STANDBY" => DatabaseRole::LogicalStandby,
            "SNAPSHOT STANDBY" => DatabaseRole::SnapshotStandby,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum OpenMode {
    ReadWrite,
    ReadOnly,
    ReadOnlyWithApply,
    Mounted,
}

impl OpenMode {
    /// As V$DATABASE.OPEN_MODE prints it.
    pub fn as_oracle(self) -> &'static str {
        match self {
            OpenMode::ReadWrite => "READ WRITE",
            OpenMode::ReadOnly => "READ ONLY",
            OpenMode::ReadOnlyWithApply => "READ ONLY WITH APPLY",
            OpenMode::Mounted => "MOUNTED",
        }
    }
    pub fn from_oracle(s: &str) -> Option<Self> {
        Some(match s.trim() {
            "READ WRITE" => OpenMode::ReadWrite,
            "READ ONLY" => OpenMode::ReadOnly,
            "READ ONLY WITH APPLY" => OpenMode::ReadOnlyWithApply,
            "MOUNTED" => OpenMode::Mounted,
            _ => return None,
        })
    }
    pub fn is_writable(self) -> bool {
        self == OpenMode::ReadWrite
    }
}

/// Identity and settings of the database (V$DATABASE, V$PARAMETER, DBA_TABLESPACES, V$VERSION).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DatabaseInfo {
    pub dbid: u64,
    pub name: String,
    /// e.g. `19.22.0.0.0`.
    pub version: String,
    /// e.g. `Enterprise Edition`.
    pub edition: String,
    /// Multitenant container database (V$DATABASE.CDB = 'YES').
    pub cdb: bool,
    /// Open PDBs (V$PDBS), empty outside multitenant.
    pub pdbs: Vec<String>,
    /// Those of `pdbs` open RESTRICTED (V$PDBS.RESTRICTED = 'YES'): only a user holding
    /// RESTRICTED SESSION there may enter them, others get ORA-01035.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restricted_pdbs: Vec<String>,
    /// V$DATABASE.RESETLOGS_CHANGE#: identifies the incarnation together with the DBID.
    pub resetlogs_scn: Scn,
    pub role: DatabaseRole,
    pub open_mode: OpenMode,
    pub archivelog: bool,
    pub force_logging: bool,
    /// SUPPLEMENTAL_LOG_DATA_MIN in (YES, IMPLICIT).
    pub supplemental_min: bool,
    /// SUPPLEMENTAL_LOG_DATA_ALL = YES.
    pub supplemental_all: bool,
    /// UNDO_RETENTION, seconds.
    pub undo_retention_secs: u64,
    /// The undo tablespace has RETENTION GUARANTEE.
    pub undo_guarantee: bool,
}

/// DBA_SUPPLEMENTAL_LOGGING of one PDB (12.2+): the levels the PDB enabled itself with `ALTER
/// PLUGGABLE DATABASE ADD SUPPLEMENTAL LOG DATA …`, on top of CDB$ROOT's (V$DATABASE), which
/// hold in every container. A PDB can add levels only while CDB$ROOT has minimal logging.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PdbSupplementalLogging {
    /// MINIMAL = YES.
    pub minimal: bool,
    /// PRIMARY_KEY = YES.
    pub primary_key: bool,
    /// UNIQUE_INDEX = YES.
    pub unique_index: bool,
    /// FOREIGN_KEY = YES.
    pub foreign_key: bool,
    /// ALL_COLUMN = YES: every column of every row an UPDATE touches in this PDB is logged.
    pub all_column: bool,
}

/// What Oracle's security features do to one session's queries of one table
/// ([`crate::session::Catalog::read_policies`]). A flashback query (`AS OF SCN`) is a query:
/// the policies apply to it as to any SELECT (Security Guide 19c, "How Oracle Virtual Private
/// Database Works with Other Oracle Features", "Oracle Virtual Private Database Policies and
/// Flashback Queries", read by its summary only; a blog reproduction, J. Lewis, "Flashback
/// Archive", 2019, shows the predicate on AS OF reads, and a bug where a Flashback Data Archive
/// table escapes it),
/// while LogMiner's rows are not filtered or masked.
///
/// - Row access policies (Virtual Private Database, DBMS_RLS; Oracle Label Security enforces
///   its table policies the same way): ALL_POLICIES rows with SEL = 'YES' (applied to queries)
///   and ENABLE = 'YES' (Reference, ALL_POLICIES). The database adds their predicates to the
///   user's queries, unless the user holds EXEMPT ACCESS POLICY (directly or through a role) or
///   is SYS (Utilities, "Security Considerations for Direct Path Exports").
/// - Data Redaction policies (DBMS_REDACT): REDACTION_POLICIES rows with ENABLE = 'YES'
///   (Reference, REDACTION_POLICIES). The database masks a redacted column in a query's results
///   when the column's policy expression is TRUE for the session (a named expression applied to
///   the column, REDACTION_EXPRESSIONS, or else the policy's own; Data Redaction Guide 3.5 and
///   2.9), unless the user holds EXEMPT REDACTION POLICY or is SYS (Data Redaction Guide,
///   "Exemption of Users from Oracle Data Redaction Policies"). See [`RedactionPolicy`]. The
///   views need SELECT_CATALOG_ROLE (Data Redaction Guide, appendix C); without it Oracle
///   answers ORA-00942 and the field is `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadPolicies {
    /// Names of the enabled row access policies on the table that apply to queries; `None`:
    /// ALL_POLICIES could not be read.
    pub row_access: Option<Vec<String>>,
    /// Of those, the column-level ones (ALL_SEC_RELEVANT_COLS): see [`ColumnLevelPolicy`]. A
    /// policy not listed here applies to every query of the table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub row_access_columns: Vec<ColumnLevelPolicy>,
    /// Names of the enabled Data Redaction policies on the table that mask this session's
    /// reads (an expression of theirs is TRUE for it, or could not be evaluated); `None`:
    /// REDACTION_POLICIES could not be read (no SELECT_CATALOG_ROLE), so whether any applies
    /// is unknown. Not evaluated for a session that is exempt: then every enabled policy.
    pub redaction: Option<Vec<String>>,
    /// The enabled Data Redaction policies on the table that do not mask this session's reads:
    /// each of their redacted columns' expressions is FALSE (or NULL) for it, or they redact
    /// no column.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub redaction_not_applying: Vec<String>,
    /// The columns the masking policies mask for this session (upper-case names, as the
    /// dictionary holds them); `None`: not known (the expressions were not evaluated: every
    /// column of a masking policy may be masked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub masked_columns: Option<Vec<String>>,
    /// SESSION_PRIVS holds EXEMPT ACCESS POLICY (or the user is SYS).
    pub exempt_access: bool,
    /// SESSION_PRIVS holds EXEMPT REDACTION POLICY (or the user is SYS).
    pub exempt_redaction: bool,
}

impl ReadPolicies {
    /// A source with no such policies at all (a replay): nothing to check, nothing unknown.
    pub fn none() -> Self {
        ReadPolicies {
            row_access: Some(Vec::new()),
            row_access_columns: Vec::new(),
            redaction: Some(Vec::new()),
            redaction_not_applying: Vec::new(),
            masked_columns: Some(Vec::new()),
            exempt_access: false,
            exempt_redaction: false,
        }
    }

    /// The row access policies that filter this session's reads (empty when exempt).
    pub fn filtering(&self) -> Vec<String> {
        match (&self.row_access, self.exempt_access) {
            (Some(p), false) => p.clone(),
            _ => Vec::new(),
        }
    }

    /// The row access policies that apply to a query referencing the columns `referenced`
    /// says it does: [`Self::filtering`] less the column-level policies none of whose
    /// security-relevant columns the query references.
    pub fn filtering_read(&self, referenced: impl Fn(&str) -> bool) -> Vec<String> {
        let passed = self.filtering_passed(referenced);
        self.filtering()
            .into_iter()
            .filter(|name| !passed.contains(name))
            .collect()
    }

    /// The column-level policies of [`Self::filtering`] that such a query is not subject to:
    /// it references none of their security-relevant columns.
    pub fn filtering_passed(&self, referenced: impl Fn(&str) -> bool) -> Vec<String> {
        self.filtering()
            .into_iter()
            .filter(|name| {
                self.row_access_columns
                    .iter()
                    .find(|c| &c.policy == name)
                    .is_some_and(|c| !c.columns.iter().any(|col| referenced(col)))
            })
            .collect()
    }

    /// The security-relevant columns of `policies` (sorted, once each) when every one of them is
    /// column-level; `None` when one applies to every query.
    pub fn policy_columns(&self, policies: &[String]) -> Option<Vec<String>> {
        let mut out: Vec<String> = Vec::new();
        for name in policies {
            let c = self.row_access_columns.iter().find(|c| &c.policy == name)?;
            out.extend(c.columns.iter().cloned());
        }
        out.sort();
        out.dedup();
        Some(out)
    }

    /// Of `policies`, those that show a row's security-relevant columns as NULL rather than
    /// leave the row out (COLUMN_OPTION ALL_ROWS).
    pub fn nulling(&self, policies: &[String]) -> Vec<String> {
        policies
            .iter()
            .filter(|name| {
                self.row_access_columns
                    .iter()
                    .any(|c| &c.policy == *name && c.all_rows)
            })
            .cloned()
            .collect()
    }

    /// The redaction policies that mask this session's reads (empty when exempt).
    pub fn masking(&self) -> Vec<String> {
        match (&self.redaction, self.exempt_redaction) {
            (Some(p), false) => p.clone(),
            _ => Vec::new(),
        }
    }

    /// The redaction policies that mask a read of the columns `read` keeps: [`Self::masking`],
    /// unless every column known to be masked is one the read leaves out.
    pub fn masking_read(&self, read: impl Fn(&str) -> bool) -> Vec<String> {
        match &self.masked_columns {
            Some(columns) if !columns.iter().any(|c| read(c)) => Vec::new(),
            _ => self.masking(),
        }
    }
}

/// A column-level row access policy (DBMS_RLS.ADD_POLICY with `sec_relevant_cols`) as
/// ALL_SEC_RELEVANT_COLS shows it. Oracle enforces it only on a query that references one of
/// its security-relevant columns, in the select list or elsewhere (Security Guide, "Control of
/// the Display of Column Data with Policies"); with `sec_relevant_cols_opt => DBMS_RLS.ALL_ROWS`
/// (COLUMN_OPTION ALL_ROWS) such a query returns every row, with those columns NULL in the
/// rows the predicate does not let through.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColumnLevelPolicy {
    pub policy: String,
    /// SEC_REL_COLUMN, upper-case as the dictionary holds them.
    pub columns: Vec<String>,
    /// COLUMN_OPTION = 'ALL_ROWS'.
    pub all_rows: bool,
}

/// An enabled Data Redaction policy of a table as the dictionary shows it: REDACTION_POLICIES
/// (its expression), REDACTION_COLUMNS (the columns it redacts) and REDACTION_EXPRESSIONS (the
/// named policy expressions applied to some of them, from 12.2).
///
/// Oracle evaluates, for each redacted column a query reads, the column's named expression if
/// one is applied to it, else the policy's expression (`1=1` by default); the column is masked
/// when that is TRUE (Data Redaction Guide 3.5, "The named policy expression takes precedence";
/// 3.14.1, "If a named policy expression is not applied to the column, the default policy
/// expression … will apply"). A policy with no redacted column masks nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RedactionPolicy {
    pub name: String,
    /// REDACTION_POLICIES.EXPRESSION.
    pub expression: String,
    /// REDACTION_COLUMNS.COLUMN_NAME of the table.
    pub columns: Vec<String>,
    /// (COLUMN_NAME, EXPRESSION) of REDACTION_EXPRESSIONS for the table's columns.
    pub column_expressions: Vec<(String, String)>,
}

impl RedactionPolicy {
    /// The expression that decides for a redacted column: its named expression, else the
    /// policy's.
    pub fn deciding_expression(&self, column: &str) -> &str {
        self.column_expressions
            .iter()
            .find(|(c, _)| c == column)
            .map_or(self.expression.as_str(), |(_, e)| e.as_str())
    }

    /// The expressions that decide whether the policy masks some column of a query that reads
    /// every redacted column: each column's deciding expression, once each, in column order.
    pub fn deciding_expressions(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for column in &self.columns {
            let e = self.deciding_expression(column);
            if !out.contains(&e) {
                out.push(e);
            }
        }
        out
    }

    /// The columns the policy masks for a session in which `holds` says which expressions are
    /// TRUE.
    pub fn masked_columns(&self, mut holds: impl FnMut(&str) -> bool) -> Vec<String> {
        self.columns
            .iter()
            .filter(|c| holds(self.deciding_expression(c)))
            .cloned()
            .collect()
    }
}

/// What the enabled Data Redaction policies of a table do to one session's reads: the policies
/// that mask some column (`masking`), the others (`not_applying`), and the columns masked
/// (`None`: not known, nothing evaluated). The adapter and the emulator decide alike through
/// [`RedactionOutcome::of`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RedactionOutcome {
    pub masking: Vec<String>,
    pub not_applying: Vec<String>,
    pub masked_columns: Option<Vec<String>>,
}

impl RedactionOutcome {
    /// `holds` evaluates an expression in the session (each distinct one once); `None` where
    /// nothing is evaluated (an exempt session, or one that cannot read which columns are
    /// redacted and by which expressions): every enabled policy then counts, and which columns
    /// are masked is not known (none is, with no policy).
    pub fn of<E>(
        policies: Vec<RedactionPolicy>,
        holds: Option<impl FnMut(&str) -> Result<bool, E>>,
    ) -> Result<RedactionOutcome, E> {
        let Some(mut holds) = holds else {
            return Ok(RedactionOutcome {
                masked_columns: policies.is_empty().then(Vec::new),
                masking: policies.into_iter().map(|p| p.name).collect(),
                not_applying: Vec::new(),
            });
        };
        let mut decided: Vec<(String, bool)> = Vec::new();
        let (mut out, mut columns) = (RedactionOutcome::default(), Vec::new());
        for p in policies {
            for e in p.deciding_expressions() {
                if !decided.iter().any(|(d, _)| d == e) {
                    let h = holds(e)?;
                    decided.push((e.to_string(), h));
                }
            }
            let masked = p.masked_columns(|e| decided.iter().any(|(d, h)| d == e && *h));
            match masked.is_empty() {
                true => out.not_applying.push(p.name),
                false => out.masking.push(p.name),
            }
            columns.extend(masked);
        }
        // In name order, as REDACTION_COLUMNS is read (ORDER BY COLUMN_NAME).
        columns.sort();
        columns.dedup();
        out.masked_columns = Some(columns);
        Ok(out)
    }
}

/// What the connected user holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Privileges {
    /// SESSION_PRIVS, e.g. `CREATE SESSION`, `LOGMINING`, `FLASHBACK ANY TABLE`.
    pub system: BTreeSet<String>,
    /// SESSION_ROLES, e.g. `SELECT_CATALOG_ROLE`.
    pub roles: BTreeSet<String>,
    /// USER_TAB_PRIVS: (owner, object, privilege), e.g. (SYS, V_$DATABASE, SELECT).
    pub objects: BTreeSet<(String, String, String)>,
    /// The user's default CONTAINER_DATA attribute (DBA_CONTAINER_DATA), read in CDB$ROOT:
    /// which containers' rows its V$ and CDB_ views show there; `None` outside the root of a
    /// CDB, or where it could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_data: Option<ContainerData>,
    /// USER_GOLDENGATE_PRIVILEGES, read inside a PDB (per-PDB mining needs a local user
    /// provisioned by `DBMS_GOLDENGATE_AUTH.GRANT_ADMIN_PRIVILEGE`); `None` in CDB$ROOT, outside
    /// a CDB, or where it could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goldengate: Option<Vec<GoldenGateGrant>>,
}

/// One row of USER_GOLDENGATE_PRIVILEGES (Reference, ALL_GOLDENGATE_PRIVILEGES: PRIVILEGE_TYPE
/// `APPLY`, `CAPTURE` or `*` for both; GRANT_SELECT_PRIVILEGES `YES` when the grant made the
/// user a full privilege administrator, with SELECT_CATALOG_ROLE).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoldenGateGrant {
    pub privilege_type: String,
    pub select_privileges: bool,
}

impl GoldenGateGrant {
    /// A CAPTURE (or both) administrator privilege.
    pub fn captures(&self) -> bool {
        matches!(self.privilege_type.trim(), "CAPTURE" | "*")
    }
}

impl Privileges {
    /// USER_GOLDENGATE_PRIVILEGES holds a CAPTURE privilege (`None`: not read).
    pub fn goldengate_capture(&self) -> Option<bool> {
        self.goldengate
            .as_ref()
            .map(|rows| rows.iter().any(GoldenGateGrant::captures))
    }
}

/// A CONTAINER_DATA attribute: all containers, or the ones listed (CDB$ROOT always among them).
/// By default a common user in CDB$ROOT sees only the root's rows of V$PDBS, V$TRANSACTION and
/// every other container data object (Reference, "About Dynamic Performance Views"; CDB_*
/// views: "By default, a user connected to the root will only see data pertaining to the
/// root"); `ALTER USER … SET CONTAINER_DATA=ALL CONTAINER=CURRENT` extends it to every PDB.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContainerData {
    pub all: bool,
    pub containers: BTreeSet<String>,
}

impl ContainerData {
    /// Whether the rows of `container` show.
    pub fn covers(&self, container: &str) -> bool {
        self.all || container == ROOT_CONTAINER || self.containers.contains(container)
    }

    /// Whether any PDB's rows show.
    pub fn covers_a_pdb(&self) -> bool {
        self.all || self.containers.iter().any(|c| c != ROOT_CONTAINER)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColumnInfo {
    pub name: String,
    pub data_type: ColumnType,
    pub nullable: bool,
    /// Virtual columns never appear in redo.
    #[serde(default)]
    pub virtual_column: bool,
    #[serde(default)]
    pub hidden: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyConstraint {
    pub name: String,
    /// Columns in POSITION order.
    pub columns: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Organization {
    Heap,
    /// ALL_TABLES.IOT_TYPE = 'IOT': no physical ROWIDs, no ROWID ranges.
    IndexOrganized,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionInfo {
    pub name: String,
    pub data_object_id: u64,
    /// The partition's object number (DBA_OBJECTS.OBJECT_ID): what LogMiner names an object
    /// by (`OBJ# n`, DATA_OBJ#); it differs from the data object id once the segment is rebuilt
    /// (TRUNCATE, MOVE, EXCHANGE PARTITION). 0: not known (offsets and files written before).
    #[serde(default)]
    pub object_id: u64,
}

/// Optimizer statistics (ALL_TABLES.NUM_ROWS, BLOCKS, LAST_ANALYZED; ALL_TAB_STATISTICS.STALE_STATS).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableStats {
    pub num_rows: Option<u64>,
    pub blocks: Option<u64>,
    pub last_analyzed: Option<String>,
    pub stale: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableInfo {
    pub name: TableName,
    pub columns: Vec<ColumnInfo>,
    pub primary_key: Option<KeyConstraint>,
    pub unique_keys: Vec<KeyConstraint>,
    /// Unique indexes (ALL_INDEXES.UNIQUENESS = 'UNIQUE'), named by the index: those the primary
    /// and unique keys made, and those created without a constraint (CREATE UNIQUE INDEX).
    #[serde(default)]
    pub unique_indexes: Vec<KeyConstraint>,
    pub organization: Organization,
    /// ALL_TABLES.CLUSTER_NAME: the index or hash cluster the table is stored in, in the
    /// table's schema. Such a table has no segment of its own: DBA_EXTENTS lists its blocks
    /// under the cluster's name with SEGMENT_TYPE 'CLUSTER', shared with the cluster's other
    /// tables, and its DATA_OBJECT_ID is the cluster's (Reference, ALL_OBJECTS: "the segment
    /// that contains the object").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    pub row_movement: bool,
    /// Data object id of an unpartitioned table (DBA_OBJECTS.DATA_OBJECT_ID); a clustered
    /// table's is its cluster's.
    pub data_object_id: u64,
    /// Object number of an unpartitioned table (DBA_OBJECTS.OBJECT_ID), as for partitions.
    #[serde(default)]
    pub object_id: u64,
    pub partitions: Vec<PartitionInfo>,
    pub stats: TableStats,
    /// ALL_LOG_GROUPS has ALL COLUMN LOGGING for the table.
    pub supplemental_all_columns: bool,
}

impl TableInfo {
    pub fn column(&self, name: &str) -> Option<&ColumnInfo> {
        self.columns.iter().find(|c| c.name == name)
    }

    /// What makes `columns` identify one row: the primary key, a unique key or a unique index
    /// whose columns are all among them (with the columns NOT NULL, no two rows can then share
    /// their values), or `None`.
    pub fn uniqueness_of(&self, columns: &[String]) -> Option<String> {
        let within = |k: &KeyConstraint| {
            !k.columns.is_empty() && k.columns.iter().all(|c| columns.contains(c))
        };
        if let Some(pk) = self.primary_key.as_ref().filter(|k| within(k)) {
            return Some(format!("primary key {}", pk.name));
        }
        if let Some(uk) = self.unique_keys.iter().find(|k| within(k)) {
            return Some(format!("unique key {}", uk.name));
        }
        self.unique_indexes
            .iter()
            .find(|k| within(k))
            .map(|ix| format!("unique index {}", ix.name))
    }
}

/// One extent of a segment (DBA_EXTENTS), with the data object id of its segment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Extent {
    pub partition: Option<String>,
    pub data_object_id: u64,
    /// DBA_EXTENTS.RELATIVE_FNO: 1024 for every extent of a bigfile tablespace.
    pub relative_fno: u32,
    pub block_id: u64,
    pub blocks: u64,
    /// The segment's tablespace is a bigfile tablespace (DBA_TABLESPACES.BIGFILE = 'YES').
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bigfile: bool,
}

impl Extent {
    /// The relative file number as this extent's ROWIDs encode it (see `rowid`): RELATIVE_FNO
    /// in a smallfile tablespace; in a bigfile one the nine characters after the data object
    /// number are all block number (a 32-bit block number leaves the first three `AAA`), so 0.
    pub fn rowid_fno(&self) -> u32 {
        if self.bigfile {
            0
        } else {
            self.relative_fno
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenTransaction {
    /// 16 hex digits, as V$LOGMNR_CONTENTS.XID shows it.
    pub xid: String,
    pub start_scn: Scn,
    pub thread: u32,
}

/// Which rows of a table a flashback read returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ChunkRange {
    Whole,
    /// Key values compared column by column: `lower <= key < upper`; `None` is unbounded.
    Key {
        lower: Option<Vec<Value>>,
        upper: Option<Vec<Value>>,
    },
    /// `ROWID BETWEEN start AND end` (both inclusive, 18-character extended ROWIDs).
    Rowid {
        start: String,
        end: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlashbackQuery {
    pub table: TableName,
    /// Select list, in this order.
    pub columns: Vec<String>,
    /// Key columns for `ChunkRange::Key` and the ORDER BY; empty orders by ROWID.
    pub key_columns: Vec<String>,
    pub scn: Scn,
    pub range: ChunkRange,
    /// An extra SQL condition ANDed to the range (`cdc.snapshot.select.override.*`, a signal's
    /// additional-conditions). Validated as a single condition by the settings.
    #[serde(default)]
    pub filter: Option<String>,
    /// Each row's ROWID is read with it (a record's `row_id`). An export of plain rows asks
    /// for none: over a driver the column is a tenth of what each side does a row.
    #[serde(default = "row_ids_by_default")]
    pub row_ids: bool,
}

fn row_ids_by_default() -> bool {
    true
}

/// Chunk boundaries by index probes: the keys found every `step` rows from `lower`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoundaryQuery {
    pub table: TableName,
    pub key_columns: Vec<String>,
    pub scn: Scn,
    /// Inclusive lower bound; `None` starts at the smallest key.
    pub lower: Option<Vec<Value>>,
    /// Rows between boundaries.
    pub step: u64,
    /// At most this many boundaries.
    pub count: u32,
}

/// One row of a flashback read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FetchedRow {
    /// Inline: 18 characters.
    pub rowid: crate::types::Str,
    pub values: Vec<Value>,
}

/// A redo log that can be mined.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogFile {
    pub name: String,
    pub thread: u32,
    pub sequence: u64,
    pub first_scn: Scn,
    /// NEXT_CHANGE#; `None` for the current online log.
    pub next_scn: Option<Scn>,
    /// An archived log (V$ARCHIVED_LOG) rather than an online one.
    pub archived: bool,
    /// DBID of the database whose redo this is, where the database says so (the logs a
    /// downstream mining database received from its source: V$FOREIGN_ARCHIVED_LOG.SOURCE_DBID,
    /// V$STANDBY_LOG.DBID); `None`: the connected database's own redo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dbid: Option<u64>,
    /// RESETLOGS_CHANGE# of the incarnation the log belongs to, where the view gives it
    /// (V$FOREIGN_ARCHIVED_LOG); `None`: not reported (V$STANDBY_LOG has no such column).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resetlogs_scn: Option<Scn>,
    /// Of a log still being written on a downstream (a standby redo log, NEXT_CHANGE# not
    /// filled in yet): the highest SCN it is known to hold whole, V$STANDBY_LOG.LAST_CHANGE#
    /// minus 1 where the database fills it in; `None`: nothing known beyond its first SCN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub received_to: Option<Scn>,
}

/// The database whose redo a downstream mining database mines, as the source's V$DATABASE
/// names it: its DBID and the incarnation (RESETLOGS_CHANGE#) capture follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedoSource {
    pub dbid: u64,
    pub resetlogs_scn: Scn,
}

impl RedoSource {
    pub fn of(info: &DatabaseInfo) -> Self {
        RedoSource {
            dbid: info.dbid,
            resetlogs_scn: info.resetlogs_scn,
        }
    }

    /// Whether `log` is this source's redo of its current incarnation (a log that does not
    /// say is taken as it).
    pub fn holds(&self, log: &LogFile) -> bool {
        log.dbid.is_none_or(|d| d == self.dbid)
            && log.resetlogs_scn.is_none_or(|r| r == self.resetlogs_scn)
    }
}

/// A UTC offset as `TO_CHAR(SYSTIMESTAMP, 'TZH:TZM')` prints it (`+02:00`, `-05:30`), in seconds
/// east of UTC; `None` for anything else or beyond -12:00..+14:00.
pub fn parse_utc_offset(text: &str) -> Option<i32> {
    let t = text.trim();
    let (sign, rest) = match t.as_bytes().first()? {
        b'+' => (1, &t[1..]),
        b'-' => (-1, &t[1..]),
        _ => return None,
    };
    let (h, m) = rest.split_once(':')?;
    if h.is_empty() || h.len() > 2 || m.len() != 2 {
        return None;
    }
    let (h, m): (i32, i32) = (h.parse().ok()?, m.parse().ok()?);
    let secs = sign * (h * 3600 + m * 60);
    (m < 60 && (-12 * 3600..=14 * 3600).contains(&secs)).then_some(secs)
}

/// The offset from UTC, in seconds, of a clock that showed `local` when UTC was `utc` (both
/// `YYYY-MM-DD HH24:MI:SS`, read together), rounded to the quarter hour every time zone's
/// offset is a multiple of; `None` when the texts do not parse, the offset is beyond
/// -12:00..+14:00, or the reading is more than 5 minutes from a quarter hour (a stale clock).
pub fn clock_offset_secs(local: &str, utc: &str) -> Option<i32> {
    let diff = (crate::civil::epoch_ms(local)? - crate::civil::epoch_ms(utc)?) / 1000;
    let quarter = (diff as f64 / 900.0).round() as i64 * 900;
    let secs = i32::try_from(quarter).ok()?;
    ((diff - quarter).abs() <= 300 && (-12 * 3600..=14 * 3600).contains(&secs)).then_some(secs)
}

/// Milliseconds since the epoch (UTC) of a DATE the database host's clock filled in
/// (`YYYY-MM-DD HH24:MI:SS`, such as V$LOGMNR_CONTENTS.COMMIT_TIMESTAMP), the host being
/// `offset_secs` east of UTC.
pub fn host_time_to_epoch_ms(text: &str, offset_secs: i32) -> Option<i64> {
    crate::civil::epoch_ms(text).map(|ms| ms - i64::from(offset_secs) * 1000)
}

/// The dictionary LogMiner decodes the redo with (`cdc.mining.dictionary`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dictionary {
    /// DICT_FROM_ONLINE_CATALOG: the mining database's own catalog; valid only on the database
    /// that generated the redo.
    #[default]
    OnlineCatalog,
    /// DICT_FROM_REDO_LOGS + DDL_DICT_TRACKING: a `DBMS_LOGMNR_D.BUILD` extracted into the redo.
    RedoLogs,
}

impl Dictionary {
    pub fn as_setting(self) -> &'static str {
        match self {
            Dictionary::OnlineCatalog => "online_catalog",
            Dictionary::RedoLogs => "redo_logs",
        }
    }
}

/// A LogMiner dictionary extracted into the redo (`DBMS_LOGMNR_D.BUILD` with
/// STORE_IN_REDO_LOGS): the archived logs V$ARCHIVED_LOG marks DICTIONARY_BEGIN and
/// DICTIONARY_END = 'YES' (one log may be both).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DictionaryBuild {
    pub thread: u32,
    pub begin_sequence: u64,
    /// FIRST_CHANGE# of the log the build begins in: LogMiner reads from there.
    pub begin_scn: Scn,
    pub end_sequence: u64,
    /// NEXT_CHANGE# of the log it ends in: the dictionary is whole below it.
    pub end_next_scn: Scn,
}

/// The newest build whole before `start`: its last log ends at or before `start` (the log
/// holding the end of the dictionary "must have been created before the redo log files that
/// you want to analyze, but should be as recent as possible", Utilities, "Example 4: Using
/// the LogMiner Dictionary in the Redo Log Files"). `None`: LogMiner would fail with ORA-01371.
pub fn dictionary_for(builds: &[DictionaryBuild], start: Scn) -> Option<&DictionaryBuild> {
    builds
        .iter()
        .filter(|b| b.end_next_scn <= start)
        .max_by_key(|b| (b.end_next_scn, b.begin_scn))
}

/// One redo thread as V$THREAD shows it (one per RAC instance; one on a single instance).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedoThread {
    pub thread: u32,
    /// STATUS: `OPEN` or `CLOSED` (its instance is down).
    pub status: String,
    /// ENABLED: `PUBLIC`, `PRIVATE` (used only for instance recovery) or `DISABLED`.
    pub enabled: String,
    /// SEQUENCE#: the thread's current log.
    pub sequence: u64,
    /// LAST_REDO_CHANGE#: the SCN of the newest redo LGWR has written for the thread.
    pub last_redo_scn: Scn,
    /// LAST_REDO_TIME as `YYYY-MM-DD HH24:MI:SS` (the database host's time); `None` when unknown.
    pub last_redo_time: Option<String>,
    /// LAST_REDO_SEQUENCE# and LAST_REDO_BLOCK: the log sequence and block LGWR last wrote
    /// (with LAST_REDO_CHANGE#, the thread's written position: it stands still while the
    /// thread writes nothing). `None`: not reported.
    #[serde(default)]
    pub last_redo_sequence: Option<u64>,
    #[serde(default)]
    pub last_redo_block: Option<u64>,
    /// ENABLE_CHANGE#: the SCN the thread was enabled at (no redo of it exists before);
    /// `None`: not reported.
    #[serde(default)]
    pub enabled_scn: Option<Scn>,
}

impl RedoThread {
    pub fn is_open(&self) -> bool {
        self.status.eq_ignore_ascii_case("OPEN")
    }

    /// An OPEN thread other than a PRIVATE one (which serves instance recovery only): its
    /// unwritten redo holds the mining bound back.
    pub fn counts_for_bound(&self) -> bool {
        self.is_open() && !self.enabled.eq_ignore_ascii_case("PRIVATE")
    }

    pub fn is_disabled(&self) -> bool {
        self.enabled.eq_ignore_ascii_case("DISABLED")
    }

    /// Where LGWR last wrote: (LAST_REDO_CHANGE#, LAST_REDO_SEQUENCE#, LAST_REDO_BLOCK).
    pub fn written_position(&self) -> (Scn, Option<u64>, Option<u64>) {
        (
            self.last_redo_scn,
            self.last_redo_sequence,
            self.last_redo_block,
        )
    }
}

/// The highest SCN a mining window may end at so that LogMiner has every change up to it:
/// LogMiner returns only redo LGWR has written, and V$THREAD.LAST_REDO_CHANGE# says how far
/// that is per thread. Every OPEN thread counts (a CLOSED one writes nothing more; a PRIVATE
/// one serves only instance recovery, as Debezium also skips it); one less than the lowest,
/// because more redo at that very SCN may still sit in the log buffer (several changes share
/// an SCN) and LogMiner reads its end SCN as exclusive + 1 (Debezium's
/// `log.mining.redo.thread.scn.adjustment`, default 1, DBZ-8503). `None`: no open thread
/// reported (no bound known, e.g. a replay).
pub fn written_bound(threads: &[RedoThread]) -> Option<Scn> {
    threads
        .iter()
        .filter(|t| t.counts_for_bound())
        .map(|t| t.last_redo_scn.saturating_sub(1))
        .min()
}

/// V$LOGMNR_CONTENTS operation codes used by the tool.
pub mod op {
    // V$LOGMNR_CONTENTS.OPERATION_CODE values. The Reference (19c, V$LOGMNR_CONTENTS.OPERATION)
    // documents INTERNAL, INSERT, DELETE, UPDATE, DDL, START, COMMIT, SEL_LOB_LOCATOR, LOB_WRITE,
    // LOB_TRIM, SELECT_FOR_UPDATE, LOB_ERASE, MISSING_SCN, ROLLBACK, XML DOC BEGIN, XML DOC
    // WRITE, XML DOC END and UNSUPPORTED; the codes are the ones Debezium's `EventType` maps
    // them to. 27 (REPLICATION_MARKER) and 91..93 (the 32K_BEGIN/WRITE/END rows of VARCHAR2
    // values over 4,000 bytes with MAX_STRING_SIZE=EXTENDED) are undocumented codes real
    // LogMiner output carries (Debezium `EventType`, `ExtendedStringParser`).
    pub const INTERNAL: u32 = 0;
    pub const INSERT: u32 = 1;
    pub const DELETE: u32 = 2;
    pub const UPDATE: u32 = 3;
    pub const DDL: u32 = 5;
    pub const START: u32 = 6;
    pub const COMMIT: u32 = 7;
    pub const SELECT_LOB_LOCATOR: u32 = 9;
    pub const LOB_WRITE: u32 = 10;
    pub const LOB_TRIM: u32 = 11;
    pub const SELECT_FOR_UPDATE: u32 = 25;
    pub const REPLICATION_MARKER: u32 = 27;
    pub const LOB_ERASE: u32 = 29;
    pub const MISSING_SCN: u32 = 34;
    pub const ROLLBACK: u32 = 36;
    pub const XML_BEGIN: u32 = 68;
    pub const XML_WRITE: u32 = 70;
    pub const XML_END: u32 = 71;
    pub const EXTENDED_STRING_BEGIN: u32 = 91;
    pub const EXTENDED_STRING_WRITE: u32 = 92;
    pub const EXTENDED_STRING_END: u32 = 93;
    pub const UNSUPPORTED: u32 = 255;

    /// V$LOGMNR_CONTENTS.OPERATION for a code.
    pub fn name(code: u32) -> &'static str {
        match code {
            INTERNAL => "INTERNAL",
            INSERT => "INSERT",
            DELETE => "DELETE",
            UPDATE => "UPDATE",
            DDL => "DDL",
            START => "START",
            COMMIT => "COMMIT",
            SELECT_LOB_LOCATOR => "SEL_LOB_LOCATOR",
            LOB_WRITE => "LOB_WRITE",
            LOB_TRIM => "LOB_TRIM",
            SELECT_FOR_UPDATE => "SELECT_FOR_UPDATE",
            REPLICATION_MARKER => "REPLICATION_MARKER",
            LOB_ERASE => "LOB_ERASE",
            MISSING_SCN => "MISSING_SCN",
            ROLLBACK => "ROLLBACK",
            XML_BEGIN => "XML DOC BEGIN",
            XML_WRITE => "XML DOC WRITE",
            XML_END => "XML DOC END",
            EXTENDED_STRING_BEGIN => "32K_BEGIN",
            EXTENDED_STRING_WRITE => "32K_WRITE",
            EXTENDED_STRING_END => "32K_END",
            _ => "UNSUPPORTED",
        }
    }
}

/// One row of V$LOGMNR_CONTENTS (the columns oracle-facts §5 lists).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogMinerRow {
    pub scn: Scn,
    /// Set on COMMIT rows; NULL on others (the tool mines without COMMITTED_DATA_ONLY).
    pub commit_scn: Option<Scn>,
    /// Set on COMMIT rows: the SCN the transaction started at.
    pub start_scn: Option<Scn>,
    /// `YYYY-MM-DD HH24:MI:SS`: a DATE in the database host's time zone (not the session's),
    /// as the view shows it; `Session::host_utc_offset` (the engine's source trait) converts it.
    pub timestamp: String,
    pub commit_timestamp: Option<String>,
    /// 16 hex digits: undo segment (2 bytes), slot (2), sequence (4), each little-endian.
    pub xid: String,
    pub xidusn: u32,
    pub xidslt: u32,
    pub xidsqn: u32,
    pub operation_code: u32,
    pub operation: String,
    pub seg_owner: Option<String>,
    pub table_name: Option<String>,
    pub row_id: String,
    pub sql_redo: String,
    /// 1: SQL_REDO continues in the next row.
    pub csf: u8,
    /// 1: this row undoes an earlier change of the same transaction.
    pub rollback: u8,
    pub rs_id: String,
    pub ssn: u64,
    pub thread: u32,
    pub sequence: u64,
    pub status: i32,
    pub info: Option<String>,
    pub src_con_name: String,
    pub username: String,
    pub data_obj: u64,
}

/// One archive destination (V$ARCHIVE_DEST_STATUS), configured ones only (STATUS not INACTIVE).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveDestination {
    pub dest_id: u32,
    /// `LOG_ARCHIVE_DEST_1` …
    pub name: String,
    /// VALID, DEFERRED, ERROR, DISABLED, BAD PARAM, ALTERNATE, FULL.
    pub status: String,
    /// LOCAL, PHYSICAL, CROSS-INSTANCE, … (V$ARCHIVE_DEST_STATUS.TYPE).
    pub kind: String,
    /// Where archives go: a directory, `USE_DB_RECOVERY_FILE_DEST`, or a standby's service.
    pub destination: String,
}

impl ArchiveDestination {
    /// What the adapter mines archives from: STATUS 'VALID' and TYPE 'LOCAL'.
    pub fn is_valid_local(&self) -> bool {
        self.status == "VALID" && self.kind == "LOCAL"
    }
}

/// One online redo log group (V$LOG).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedoGroup {
    pub group: u32,
    pub thread: u32,
    pub bytes: u64,
    pub members: u32,
}

/// Log switches of one redo thread in one clock hour (V$LOG_HISTORY, last 24 hours).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwitchHour {
    pub thread: u32,
    /// `YYYY-MM-DD HH24` (database time).
    pub hour: String,
    pub switches: u64,
}

/// Use and limit of an instance resource (V$RESOURCE_LIMIT): `processes`, `sessions`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResourceUse {
    pub current: u64,
    /// `None` is UNLIMITED.
    pub limit: Option<u64>,
}

/// The per-call limits of a user's profile; `None` is UNLIMITED.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallLimits {
    /// CPU_PER_CALL, in hundredths of a second.
    pub cpu_per_call: Option<u64>,
    /// LOGICAL_READS_PER_CALL, in blocks.
    pub logical_reads_per_call: Option<u64>,
}

/// A user's SESSIONS_PER_USER limit: how many sessions it may hold at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionsPerUser {
    Unlimited,
    Limit(u64),
}

impl InstanceConfig {
    /// The database's character sets; unknown parts (the view not read) are Oracle's
    /// defaults, a set capture does not decode is `Charset::Unsupported`.
    pub fn charsets(&self) -> crate::charset::Charsets {
        crate::charset::Charsets::from_names(
            self.character_set.as_deref(),
            self.national_character_set.as_deref(),
        )
    }
}

impl ResourceUse {
    /// What is left before the limit.
    pub fn free(&self) -> Option<u64> {
        self.limit.map(|l| l.saturating_sub(self.current))
    }
}

/// Instance parameters and redo layout that only pre-flight checks need. Each part is `None`
/// when the view behind it could not be read (a missing grant): the check that needs it says
/// so instead of failing the others.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct InstanceConfig {
    /// The container this session is in (`CDB$ROOT` or a PDB name); `None` outside a CDB.
    pub container: Option<String>,
    /// The COMPATIBLE parameter, e.g. `19.0.0`.
    pub compatible: Option<String>,
    /// The UNDO_TABLESPACE parameter, e.g. `UNDOTBS1`.
    pub undo_tablespace: Option<String>,
    /// ENABLE_GOLDENGATE_REPLICATION: LogMiner writes changes of native JSON columns only
    /// when it is TRUE.
    #[serde(default)]
    pub goldengate_replication: Option<bool>,
    /// MAX_STRING_SIZE: `STANDARD` or `EXTENDED`.
    #[serde(default)]
    pub max_string_size: Option<String>,
    /// TIME_AT_DBTIMEZONE (23c and later): `OFF`, `USER_SQL` or `DATABASE`; `None` before 23c
    /// (no such parameter) or where it could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_at_dbtimezone: Option<String>,
    /// NLS_DATABASE_PARAMETERS' NLS_CHARACTERSET, e.g. `AL32UTF8`, `WE8MSWIN1252`.
    #[serde(default)]
    pub character_set: Option<String>,
    /// NLS_DATABASE_PARAMETERS' NLS_NCHAR_CHARACTERSET: `AL16UTF16` or `UTF8`.
    #[serde(default)]
    pub national_character_set: Option<String>,
    pub processes: Option<ResourceUse>,
    pub sessions: Option<ResourceUse>,
    /// The session's user's SESSIONS_PER_USER, from its profile (USER_RESOURCE_LIMITS);
    /// `None` where it could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessions_per_user: Option<SessionsPerUser>,
    /// The session's user's CPU_PER_CALL and LOGICAL_READS_PER_CALL (USER_RESOURCE_LIMITS);
    /// `None` where they could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_limits: Option<CallLimits>,
    /// RESOURCE_LIMIT: whether profile limits such as SESSIONS_PER_USER are enforced (TRUE
    /// by default from 12.1.0.2, FALSE before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_limit: Option<bool>,
    pub archive_destinations: Option<Vec<ArchiveDestination>>,
    pub redo_groups: Option<Vec<RedoGroup>>,
    /// Log switches per thread and hour over the last 24 hours (hours without one are absent).
    pub log_switches: Option<Vec<SwitchHour>>,
}

/// A row of the source signal channel's table (Debezium's `(id, type, data)` layout).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignalRow {
    pub id: String,
    pub kind: String,
    pub data: Option<String>,
}

/// A warning the database gave with a successful login (a TTC WARNING message in the login's
/// answer; OCI's OCI_SUCCESS_WITH_INFO): above all ORA-28002 "the password will expire within
/// N days", while the user's password is in its grace period. When the grace period ends the
/// login fails with ORA-28001 (CDC-2013); this warning is the only sign before that.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LoginWarning {
    /// The ORA- number its text starts with, if any.
    pub code: Option<u32>,
    /// Oracle's text, e.g. `ORA-28002: the password will expire within 7 days`.
    pub message: String,
}

/// ORA-28002 "the password will expire within %s days" and ORA-28011 "the account will
/// expire soon; change your password now": the password is in its grace period.
pub const PASSWORD_EXPIRING: &[u32] = &[28002, 28011];

impl LoginWarning {
    /// The warning of `message`, its code read from an `ORA-NNNNN` in it.
    pub fn new(message: impl Into<String>) -> LoginWarning {
        let message = message.into().trim().to_string();
        let code = message.find("ORA-").and_then(|at| {
            let digits: String = message[at + 4..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().ok()
        });
        LoginWarning { code, message }
    }

    /// The password expires soon ([`PASSWORD_EXPIRING`]).
    pub fn password_expiring(&self) -> bool {
        self.code.is_some_and(|c| PASSWORD_EXPIRING.contains(&c))
    }

    /// The days ORA-28002 says are left ("within N days"), when it says.
    pub fn days_left(&self) -> Option<u32> {
        if self.code != Some(28002) {
            return None;
        }
        let lower = self.message.to_ascii_lowercase();
        let after = &lower[lower.find("within ")? + "within ".len()..];
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    }
}

#[cfg(test)]
mod login_warning_tests {
    use super::LoginWarning;

    #[test]
    fn a_login_warning_says_whether_and_when_the_password_expires() {
        let w = LoginWarning::new("ORA-28002: the password will expire within 7 days\n");
        assert_eq!(w.code, Some(28002));
        assert_eq!(
            w.message,
            "ORA-28002: the password will expire within 7 days"
        );
        assert!(w.password_expiring());
        assert_eq!(w.days_left(), Some(7));
        let soon =
            LoginWarning::new("ORA-28011: the account will expire soon; change your password now");
        assert!(soon.password_expiring());
        assert_eq!(soon.days_left(), None);
        let other = LoginWarning::new("ORA-24344: success with compilation error");
        assert!(!other.password_expiring());
        assert_eq!(other.days_left(), None);
        let bare = LoginWarning::new("the password will expire within 3 days");
        assert_eq!(bare.code, None);
        assert!(!bare.password_expiring());
    }
}

#[cfg(test)]
mod redaction_policy_tests {
    use super::RedactionPolicy;

    fn policy(columns: &[&str], named: &[(&str, &str)]) -> RedactionPolicy {
        RedactionPolicy {
            name: "P".into(),
            expression: "POLICY".into(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            column_expressions: named
                .iter()
                .map(|(c, e)| (c.to_string(), e.to_string()))
                .collect(),
        }
    }

    #[test]
    fn a_named_expression_decides_for_its_column_the_policys_for_the_others() {
        let p = policy(&["SSN", "NAME"], &[("SSN", "NAMED")]);
        assert_eq!(p.deciding_expressions(), ["NAMED", "POLICY"]);
        // FALSE policy expression, TRUE named one: SSN is masked.
        assert_eq!(p.masked_columns(|e| e == "NAMED"), ["SSN"]);
        assert_eq!(p.masked_columns(|e| e == "POLICY"), ["NAME"]);
        assert!(p.masked_columns(|_| false).is_empty());
        // Every column has its named expression: the policy's own decides nothing.
        let p = policy(&["SSN"], &[("SSN", "NAMED"), ("OTHER", "ELSEWHERE")]);
        assert_eq!(p.deciding_expressions(), ["NAMED"]);
        assert!(p
            .masked_columns(|e| e == "POLICY" || e == "ELSEWHERE")
            .is_empty());
    }

    #[test]
    fn a_read_that_leaves_out_every_masked_column_is_not_masked() {
        let mut p = super::ReadPolicies {
            redaction: Some(vec!["P".into()]),
            masked_columns: Some(vec!["SSN".into()]),
            ..super::ReadPolicies::none()
        };
        assert!(p.masking_read(|c| c != "SSN").is_empty());
        assert_eq!(p.masking_read(|_| true), ["P"]);
        // Not known which columns: the policy counts whatever the read leaves out.
        p.masked_columns = None;
        assert_eq!(p.masking_read(|_| false), ["P"]);
        // Exempt: nothing masks.
        p.exempt_redaction = true;
        assert!(p.masking_read(|_| true).is_empty());
    }

    #[test]
    fn a_column_level_policy_applies_only_to_reads_that_reference_its_columns() {
        let mut p = super::ReadPolicies {
            row_access: Some(vec!["ROWS".into(), "COLS".into(), "MASK".into()]),
            row_access_columns: vec![
                super::ColumnLevelPolicy {
                    policy: "COLS".into(),
                    columns: vec!["SALARY".into(), "BONUS".into()],
                    all_rows: false,
                },
                super::ColumnLevelPolicy {
                    policy: "MASK".into(),
                    columns: vec!["SSN".into()],
                    all_rows: true,
                },
            ],
            ..super::ReadPolicies::none()
        };
        // A table-level policy applies to every read, even one that references nothing.
        assert_eq!(p.filtering_read(|_| false), ["ROWS"]);
        assert_eq!(p.filtering_passed(|_| false), ["COLS", "MASK"]);
        assert_eq!(p.filtering_read(|c| c == "BONUS"), ["ROWS", "COLS"]);
        assert_eq!(p.filtering_read(|_| true), ["ROWS", "COLS", "MASK"]);
        assert_eq!(p.nulling(&p.filtering_read(|_| true)), ["MASK"]);
        assert_eq!(
            p.policy_columns(&["MASK".into(), "COLS".into()]),
            Some(vec!["BONUS".into(), "SALARY".into(), "SSN".into()])
        );
        assert_eq!(p.policy_columns(&["COLS".into(), "ROWS".into()]), None);
        p.exempt_access = true;
        assert!(p.filtering_read(|_| true).is_empty());
    }

    #[test]
    fn an_outcome_evaluates_each_expression_once_and_counts_every_policy_without_evaluation() {
        let (mut asked, p) = (
            Vec::new(),
            policy(&["SSN", "NAME", "CARD"], &[("SSN", "NAMED")]),
        );
        let o = super::RedactionOutcome::of(
            vec![p.clone()],
            Some(|e: &str| {
                asked.push(e.to_string());
                Ok::<_, ()>(e == "NAMED")
            }),
        )
        .unwrap();
        assert_eq!(asked, ["NAMED", "POLICY"]);
        assert_eq!(
            (o.masking, o.masked_columns),
            (vec!["P".to_string()], Some(vec!["SSN".to_string()]))
        );
        type Holds = fn(&str) -> Result<bool, ()>;
        let none: Option<Holds> = None;
        let o = super::RedactionOutcome::of(vec![p], none).unwrap();
        assert_eq!((o.masking, o.masked_columns), (vec!["P".to_string()], None));
        let o = super::RedactionOutcome::of(Vec::new(), none).unwrap();
        assert_eq!(o.masked_columns, Some(Vec::new()));
    }

    #[test]
    fn a_policy_without_redacted_columns_masks_nothing() {
        let p = policy(&[], &[]);
        assert!(p.deciding_expressions().is_empty());
        assert!(p.masked_columns(|_| true).is_empty());
    }
}
