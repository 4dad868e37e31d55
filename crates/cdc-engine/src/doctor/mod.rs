//! Pre-flight checks (`oracle-cdc doctor`): every setting of the database, the capture user and
//! the tool's own settings that would make capture fail or lose data, each with a stable id, a
//! severity, what was found, why it matters and the exact fix.
//!
//! The engine gathers what it needs once through the [`Session`](cdc_core::session::Session) trait
//! ([`facts`]), then each check judges it. Each check is a function `fn(&Facts) -> Finding` in
//! its area's module: `connection`, `redo` (with supplemental logging), `privileges`, `tables`,
//! `sizing` (undo, size, memory) and `settings_checks`. [`CHECKS`] lists them in report order,
//! each row with its id, area, title, why and function, and [`evaluate`] runs the selected rows'
//! functions; there is no dispatch by id string. A fact that cannot be read turns the checks
//! that need it into SKIP with the reason; it never stops the others.
//! Nothing here prints: the CLI (`src/cli/doctor.rs`) renders the [`Report`].
//!
//! Adding a check: write its function in its area's module (`pub(super)`), add its row to
//! [`CHECKS`] where it is to be reported, list its id with its finding on the all-wrong
//! database in `tests_all::each_check_runs_its_own_function`, and give it a row in
//! `commands/doctor.md`'s table of checks (`tests/all/doctor_cli.rs` holds every id to one).

mod connection;
pub mod facts;
mod policies;
mod privileges;
mod redo;
mod settings_checks;
mod sink;
mod sizing;
mod tables;

use crate::settings::Settings;
use serde::Serialize;

pub use facts::Facts;

/// How a check came out. Ordered from best to worst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Severity {
    /// Fine as it is (or not needed by the configured features, which the text says).
    Pass,
    /// Could not be checked: a fact it needs is unknown (the text says which and why).
    Skip,
    /// Capture works, but something will be worse than it could be (slower, partial, noisy).
    Warn,
    /// Capture would fail or lose data.
    Fail,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Pass => "PASS",
            Severity::Skip => "SKIP",
            Severity::Warn => "WARN",
            Severity::Fail => "FAIL",
        }
    }
}

/// The groups checks are reported in, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Area {
    Connection,
    Redo,
    Supplemental,
    Privileges,
    Undo,
    Tables,
    Settings,
    Sink,
}

impl Area {
    pub const ALL: &'static [Area] = &[
        Area::Connection,
        Area::Redo,
        Area::Supplemental,
        Area::Privileges,
        Area::Undo,
        Area::Tables,
        Area::Settings,
        Area::Sink,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Area::Connection => "connection",
            Area::Redo => "redo",
            Area::Supplemental => "supplemental",
            Area::Privileges => "privileges",
            Area::Undo => "undo",
            Area::Tables => "tables",
            Area::Settings => "settings",
            Area::Sink => "sink",
        }
    }
}

/// How a check judges the gathered facts.
pub(crate) type Judge = fn(&Facts) -> Finding;

/// One check: its stable id, area, title, why it matters, and the function that runs it.
///
/// The row is the check: `evaluate` calls `run` and nothing else, so an id cannot end up
/// running another check's function through a string `match` and its catch-all arm.
#[derive(Clone, Copy)]
pub struct CheckSpec {
    pub id: &'static str,
    pub area: Area,
    pub title: &'static str,
    /// Why the check matters, in plain words (the default "why" of its results).
    pub why: &'static str,
    /// Judges the facts; lives in the area's module (`connection`, `redo`, …).
    pub(crate) run: Judge,
}

// By hand: a fn pointer's Debug is its address, which says nothing and changes between builds.
impl std::fmt::Debug for CheckSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CheckSpec")
            .field("id", &self.id)
            .field("area", &self.area)
            .field("title", &self.title)
            .field("why", &self.why)
            .finish_non_exhaustive()
    }
}

const fn spec(
    id: &'static str,
    area: Area,
    title: &'static str,
    why: &'static str,
    run: Judge,
) -> CheckSpec {
    CheckSpec {
        id,
        area,
        title,
        why,
        run,
    }
}

/// Every check, in report order. Ids are stable: scripts and `--check`/`--skip` name them.
///
/// To add a check: write its function `fn(&Facts) -> Finding` in its area's module
/// (`pub(super)`), and add one row here, where it is to be reported, naming that function.
/// The row's id, title and why are all the rest of the tool needs (`--check`, the output, the
/// JSON); the unit tests hold every id unique and every row to a finding of its own.
pub const CHECKS: &[CheckSpec] = &[
    spec("connection.driver", Area::Connection, "Database driver (cdc.database.driver)",
        "the thin driver (the default) needs nothing installed but cannot log in where the database requires native network encryption or checksumming, as an account with only an 11G password verifier, with Kerberos or other external authentication, or with a password-store wallet (CDC-2009); the thick driver can, with Oracle Instant Client",
        connection::driver),
    spec("connection.client", Area::Connection, "Oracle Client libraries",
        "in thick mode the oracle crate loads Instant Client (libclntsh) at run time; without it every connection fails with DPI-1047 (the thin driver needs none)",
        connection::client),
    spec("connection.login", Area::Connection, "Connection and credentials",
        "every other check and all of capture need a session as the capture user",
        connection::login),
    spec("connection.password", Area::Connection, "Password expiry of the capture user",
        "while the password is in its grace period every login works with the warning ORA-28002; when the grace period ends every login fails with ORA-28001 and capture stops (CDC-2013) until a DBA sets a new password, typically with no earlier sign than this warning",
        connection::password),
    spec("connection.version", Area::Connection, "Version and edition",
        "the catalog queries need 12.1 or later (ALL_USERS.ORACLE_MAINTAINED, the LOGMINING privilege) and LogMiner is used as 19c documents it (no CONTINUOUS_MINE)",
        connection::version),
    spec("connection.character-sets", Area::Connection, "Character sets (NLS_CHARACTERSET, NLS_NCHAR_CHARACTERSET)",
        "text LogMiner writes as bytes (HEXTORAW storage bytes after a dictionary mismatch or for an unknown object, XML_REDO documents) is decoded in the database's character sets, and key chunks are ordered as BINARY order of their encoding; capture decodes AL32UTF8, UTF8, WE8MSWIN1252 and WE8ISO8859P1 (national AL16UTF16 and UTF8): in another set such text stops capture (CDC-3002) and chunk order is taken as AL32UTF8's; in a CDB each captured PDB's sets are read inside it, as an AL32UTF8 CDB may hold PDBs of another database set",
        connection::character_sets),
    spec("connection.multitenant", Area::Connection, "CDB/PDB layout",
        "in a container database LogMiner adds log files only in CDB$ROOT (ORA-65040 from a PDB), so streaming needs a common user connected to the root",
        connection::multitenant),
    spec("connection.role", Area::Connection, "Database role and open mode",
        "a standby or read-only database accepts no writes: capture then runs read-only (no signal table, nothing written), which is what will happen; on a physical standby the stream mines its archived logs only, so each change waits for the primary's next log switch",
        connection::role),
    spec("connection.mining", Area::Connection, "Mining database (downstream capture)",
        "with cdc.mining.database.url set, LogMiner runs on that downstream database: it must be reachable and hold the source's redo (the same DBID as the source), or capture mines nothing or another database's changes (CDC-2202); and it must decode that redo with a dictionary from the redo (cdc.mining.dictionary=redo_logs, a DBMS_LOGMNR_D.BUILD whole before where mining starts), since the online catalog is its own (CDC-5301, CDC-5302)",
        connection::mining),
    spec("redo.archivelog", Area::Redo, "ARCHIVELOG mode",
        "in NOARCHIVELOG mode online logs are overwritten after a few switches: changes not mined by then are lost and a restart cannot resume",
        redo::archivelog),
    spec("redo.force-logging", Area::Redo, "FORCE LOGGING",
        "NOLOGGING operations (direct-path loads, CREATE TABLE … AS SELECT NOLOGGING) write no redo for their rows, so LogMiner never sees them",
        redo::force_logging),
    spec("redo.archive-dest", Area::Redo, "Archive destinations",
        "archived logs are mined from a VALID LOCAL archive destination; without one only online logs are left, and they are reused",
        redo::archive_dest),
    spec("redo.log-size", Area::Redo, "Redo log groups and sizes",
        "with few or small online log groups a log is reused soon after it fills: a mining session reading it fails (ORA-00310) and a slow archiver stalls the database",
        redo::log_size),
    spec("redo.switch-rate", Area::Redo, "Log switch rate",
        "every switch ends the current log: many switches mean many small archives to add per mining window and online logs overwritten within minutes",
        redo::switch_rate),
    spec("redo.retention", Area::Redo, "Retained logs vs the stored resume position",
        "streaming resumes at the stored resume SCN; if the redo from there is gone, mining fails with ORA-01291 (CDC-5004) and the changes in the gap are lost",
        redo::retention),
    spec("supplemental.database", Area::Supplemental, "Minimal supplemental logging",
        "without database-level minimal supplemental logging LogMiner marks every change STATUS 3 ('no supplemental log data found', not guaranteed accurate): capture stops at the first one with CDC-3202",
        redo::supplemental_database),
    spec("supplemental.table", Area::Supplemental, "ALL COLUMNS logging of captured tables",
        "an UPDATE's redo carries only the changed columns (and the key with PRIMARY KEY logging) unless (ALL) COLUMNS logging is on: capture stops at such an UPDATE with CDC-3201",
        redo::supplemental_table),
    spec("privileges.catalog", Area::Privileges, "Grants every run needs",
        "every run connects and reads the catalog: V$DATABASE (SCN, role, logging), V$PARAMETER (undo), DBA_OBJECTS (data object ids); without them capture stops with CDC-2401 (ORA-00942, ORA-01045)",
        privileges::catalog),
    spec("privileges.snapshot", Area::Privileges, "Grants snapshots need",
        "snapshots read each captured table AS OF SCN, which needs FLASHBACK and SELECT on it; without them the snapshot stops with CDC-2401 (ORA-01031, ORA-00942)",
        privileges::snapshot),
    spec("privileges.logmining", Area::Privileges, "Grants streaming needs",
        "streaming mines the redo with DBMS_LOGMNR and V$LOGMNR_CONTENTS and lists logs and open transactions from V$ views; without them streaming stops with CDC-2401 (ORA-01031, PLS-00201, ORA-00942)",
        privileges::logmining),
    spec("privileges.rowid-chunking", Area::Privileges, "Grants ROWID chunking needs",
        "tables without a usable key are cut into ROWID ranges from their extents, read from DBA_EXTENTS (and DBA_TABLESPACES: a bigfile tablespace lays ROWIDs out differently); without them the snapshot stops with CDC-2401 (ORA-00942)",
        privileges::rowid_chunking),
    spec("privileges.multitenant", Area::Privileges, "Grants multitenant capture needs",
        "a common user in CDB$ROOT lists the PDBs from V$PDBS (SELECT on V_$PDBS, rows as far as its CONTAINER_DATA attribute goes) and reads each PDB's catalog and tables after ALTER SESSION SET CONTAINER, which needs SET CONTAINER; without it capture stops with CDC-2401 (ORA-01031), without the others it finds no PDB",
        privileges::multitenant),
    spec("undo.retention", Area::Undo, "Undo retention vs the longest chunk read",
        "a chunk is read AS OF one SCN; if the read outlasts the undo kept for that SCN it fails with ORA-01555, is halved down to 1,000 rows, and then stops with CDC-8001",
        sizing::undo),
    spec("tables.selection", Area::Tables, "Captured tables",
        "cdc.tables.include / cdc.tables.exclude must select at least one table, or there is nothing to capture (CDC-8003)",
        tables::selection),
    spec("tables.keys", Area::Tables, "Keys of captured tables",
        "a table without a usable key (NOT NULL columns of a chunkable type) is read by ROWID ranges, skipped or refused, as cdc.key.missing says, and its records have no key",
        tables::keys),
    spec("tables.row-movement-rowid", Area::Tables, "Row movement on ROWID-chunked tables",
        "a row that moves (partition-key update, SHRINK SPACE, FLASHBACK TABLE) changes its ROWID: a snapshot by ROWID ranges can miss it or read it twice",
        tables::row_movement),
    spec("tables.iot-key", Area::Tables, "Index-organised tables without a usable key",
        "an index-organised table has no ROWID ranges: without a usable key it is read in one chunk, one long read without parallelism",
        tables::iot_key),
    spec("tables.column-types", Area::Tables, "Column types",
        "a column type without a record mapping stops the snapshot with CDC-3001 (or skips the table with cdc.on.decode.error=dlq); a table with a BFILE, BOOLEAN or VECTOR column (or a native JSON one while ENABLE_GOLDENGATE_REPLICATION is FALSE) can be snapshotted but not streamed: LogMiner writes its changes as UNSUPPORTED rows (CDC-3003)",
        tables::column_types),
    spec("tables.name-length", Area::Tables, "Names over 30 bytes",
        "LogMiner does not capture tables whose owner, table or column names exceed 30 bytes, even where the database allows 128-byte names",
        tables::name_length),
    spec("tables.access-policies", Area::Tables, "Security policies on captured tables",
        "a snapshot reads each table with SELECT … AS OF SCN as the capture user: an enabled Virtual Private Database or Oracle Label Security policy on queries adds its predicate (rows left out; a column-level one only to queries that reference its columns, and with ALL_ROWS its columns read as NULL instead) unless the user holds EXEMPT ACCESS POLICY, and a Data Redaction policy masks the columns whose expression is TRUE in its session unless it holds EXEMPT REDACTION POLICY, while the change stream carries the true rows; the snapshot refuses such a table (CDC-2206, CDC-2207) unless cdc.snapshot.access.policies=allow. REDACTION_POLICIES, REDACTION_COLUMNS and REDACTION_EXPRESSIONS need SELECT_CATALOG_ROLE",
        policies::access_policies),
    spec("tables.lob", Area::Tables, "LOB columns",
        "LOB values are never in supplemental logging: an UPDATE that leaves a LOB alone carries no value for it, and LOB values arrive in rows of their own after the statement (SEL_LOB_LOCATOR and LOB_WRITE, XML DOC WRITE); a LOB changed piece by piece (DBMS_LOB.WRITE at an offset, ERASE, TRIM) cannot be rebuilt from the redo (CDC-3005); snapshots read each LOB whole",
        tables::lob),
    spec("tables.estimate", Area::Tables, "Snapshot size and duration",
        "the estimate comes from optimizer statistics; without current statistics chunk plans and progress are guesses",
        sizing::estimate),
    spec("settings.mode", Area::Settings, "cdc.snapshot.mode vs the stored offsets",
        "the mode decides what a restart does; a mode that contradicts the stored offsets leaves work undone",
        settings_checks::mode),
    spec("settings.sessions", Area::Settings, "Sessions for the configured threads",
        "each snapshot thread and the mining stream hold a session (and a server process) of their own; beyond the database's free sessions connections fail with ORA-00018/ORA-00020, beyond the user's profile limit (SESSIONS_PER_USER) with ORA-02391 (CDC-2011)",
        settings_checks::sessions),
    spec("settings.call-limits", Area::Settings, "Per-call resource limits",
        "a profile's CPU_PER_CALL or LOGICAL_READS_PER_CALL ends a mining window's or a snapshot chunk's fetch that uses more (ORA-02393, ORA-02395: CDC-5017); capture then reads less at a time, slower, and stops where a one-SCN window or a 1,000-row chunk still passes the limit. Resource Manager plans' per-call switches (SWITCH_TIME, SWITCH_IO_LOGICAL with CANCEL_SQL) act the same way and are not visible to the capture user",
        settings_checks::call_limits),
    spec("settings.references", Area::Settings, "Per-table settings name real tables and columns",
        "a per-table setting that names no captured table or column silently does nothing; a cdc.key naming a missing column stops the snapshot (CDC-1002)",
        settings_checks::references),
    spec("settings.memory", Area::Settings, "Memory for pending chunks",
        "chunks waiting for streaming to reach their SCN are held in memory, up to cdc.snapshot.max.pending.chunks of cdc.snapshot.chunk.rows rows; they do not spill to disk",
        sizing::memory),
    spec("sink.kafka", Area::Sink, "Kafka brokers reachable",
        "capture publishes to the brokers cdc.sink.kafka.brokers lists, over cdc.sink.kafka.security.protocol (TLS, SASL): a broker that does not answer stops capture with CDC-6202 after cdc.sink.kafka.producer.delivery.timeout.ms, a certificate that is not trusted with CDC-6207 and credentials the brokers refuse with CDC-6208, at its first record; a transactional sink needs its transactional id's coordinator",
        sink::kafka),
    spec("sink.kafka.topics", Area::Sink, "Kafka topics capture writes",
        "capture writes each captured table's topic (cdc.sink.topic.prefix), and the ops, schema change, transaction, heartbeat and dead-letter topics its settings use, and with cdc.sink.kafka.transactional.id reads and writes the offsets topic; a topic it may not write, or a missing one the broker will not let it create (no CREATE authorization, the cluster's topic policy), stops capture with CDC-6203 at its first record for that topic. Checked with Metadata (the principal's authorized operations, where the broker reports them) and CreateTopics with validate_only, which creates nothing",
        sink::kafka_topics),
];

/// Look a check up by id.
pub fn check(id: &str) -> Option<&'static CheckSpec> {
    CHECKS.iter().find(|c| c.id == id)
}

/// Every name `--check`/`--skip` accept: each check id and each area (all its checks).
pub fn selectors() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Area::ALL.iter().map(|a| a.name()).collect();
    names.extend(CHECKS.iter().map(|c| c.id));
    names
}

/// What a check found.
#[derive(Debug, Clone)]
pub(crate) struct Finding {
    pub severity: Severity,
    pub found: String,
    /// Overrides the check's own "why" when the reason depends on what was found.
    pub why: Option<String>,
    pub fix: Option<String>,
    /// The tables, privileges or settings the finding is about.
    pub objects: Vec<String>,
}

impl Finding {
    pub fn pass(found: impl Into<String>) -> Finding {
        Finding {
            severity: Severity::Pass,
            found: found.into(),
            why: None,
            fix: None,
            objects: Vec::new(),
        }
    }
    pub fn skip(found: impl Into<String>) -> Finding {
        Finding {
            severity: Severity::Skip,
            found: found.into(),
            why: None,
            fix: None,
            objects: Vec::new(),
        }
    }
    pub fn warn(found: impl Into<String>, fix: impl Into<String>) -> Finding {
        Finding {
            severity: Severity::Warn,
            found: found.into(),
            why: None,
            fix: Some(fix.into()),
            objects: Vec::new(),
        }
    }
    pub fn fail(found: impl Into<String>, fix: impl Into<String>) -> Finding {
        Finding {
            severity: Severity::Fail,
            found: found.into(),
            why: None,
            fix: Some(fix.into()),
            objects: Vec::new(),
        }
    }
    pub fn because(mut self, why: impl Into<String>) -> Finding {
        self.why = Some(why.into());
        self
    }

    /// The objects (tables, privileges) the finding names.
    pub fn on(mut self, objects: Vec<String>) -> Finding {
        self.objects = objects;
        self
    }
}

/// A fix split by what it is, so each part can be copied whole: SQL to run as a DBA (with its
/// `--` comments), `cdc.*` settings lines for the settings file (with their `#` comments), and
/// steps in words.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FixParts {
    pub sql: Option<String>,
    pub settings: Option<String>,
    pub steps: Option<String>,
}

/// Split a fix text line by line: a `cdc.KEY: VALUE` line is a setting; a line of SQL (ending
/// in `;`, a `--` comment, or an SQL*Plus command) is SQL; anything else is a step. The checks
/// write each line as one of the three (tests hold them to it), so the split loses nothing.
pub fn split_fix(fix: &str) -> FixParts {
    const SQL_STARTS: &[&str] = &[
        "--", "ALTER ", "GRANT ", "CREATE ", "DROP ", "EXEC ", "BEGIN", "SHUTDOWN", "STARTUP",
        "SELECT ", "RESTORE ",
    ];
    let (mut sql, mut settings, mut steps) = (Vec::new(), Vec::new(), Vec::new());
    for line in fix.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let setting = t.starts_with("cdc.")
            && t.split_once(": ")
                .is_some_and(|(k, _)| !k.contains(char::is_whitespace));
        if setting {
            settings.push(t.to_string());
        } else if t.ends_with(';') || SQL_STARTS.iter().any(|p| t.starts_with(p)) {
            sql.push(t.to_string());
        } else {
            steps.push(t.to_string());
        }
    }
    // A lone comment is no SQL to run.
    if sql.iter().all(|l| l.starts_with("--")) {
        steps.extend(
            sql.drain(..)
                .map(|l| l.trim_start_matches('-').trim().to_string()),
        );
    }
    let join = |v: Vec<String>| (!v.is_empty()).then(|| v.join("\n"));
    FixParts {
        sql: join(sql),
        settings: join(settings),
        steps: join(steps),
    }
}

/// One check's result, as reported.
///
/// `fix` is the whole fix as one text; `fix_sql`, `fix_settings` and `fix_steps` are the same
/// lines split by kind, each a block to copy as it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckResult {
    pub id: &'static str,
    pub area: Area,
    pub title: &'static str,
    pub severity: Severity,
    /// What was found, in plain words.
    pub found: String,
    /// Why it matters.
    pub why: String,
    /// The exact fix: SQL to run (as a DBA), or a setting to change. `None` for PASS/SKIP.
    pub fix: Option<String>,
    /// The SQL (and SQL*Plus or RMAN commands) of the fix, to run as a DBA, with `--` comments.
    pub fix_sql: Option<String>,
    /// The `cdc.*` lines of the fix, for the settings file, with `#` comments.
    pub fix_settings: Option<String>,
    /// What is left of the fix: steps in words.
    pub fix_steps: Option<String>,
    /// The tables, privileges or settings the result is about (empty when it is about the
    /// database as a whole).
    pub objects: Vec<String>,
}

/// Counts of each severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub pass: usize,
    pub warn: usize,
    pub fail: usize,
    pub skip: usize,
}

/// The outcome of a doctor run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// What was checked (`emulator:DIR` or `Oracle URL as USER`); never a password.
    pub target: String,
    /// The database's name and DBID, when the session could read them.
    pub database: Option<ReportDatabase>,
    /// When the facts were gathered.
    #[serde(serialize_with = "rfc3339")]
    pub checked_at: chrono::DateTime<chrono::Utc>,
    pub results: Vec<CheckResult>,
}

/// RFC 3339 in UTC, whole seconds: `2026-12-02T00:18:59Z`.
fn rfc3339<S: serde::Serializer>(
    t: &chrono::DateTime<chrono::Utc>,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(&t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
}

/// The database a report is about (V$DATABASE.NAME and DBID, the release from
/// PRODUCT_COMPONENT_VERSION).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportDatabase {
    pub name: String,
    pub dbid: u64,
    pub version: String,
}

impl Report {
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        for r in &self.results {
            match r.severity {
                Severity::Pass => s.pass += 1,
                Severity::Warn => s.warn += 1,
                Severity::Fail => s.fail += 1,
                Severity::Skip => s.skip += 1,
            }
        }
        s
    }

    /// 1 when any check FAILs (or WARNs with `strict`), else 0. SKIP never fails a run.
    pub fn exit_code(&self, strict: bool) -> u8 {
        let s = self.summary();
        u8::from(s.fail > 0 || (strict && s.warn > 0))
    }

    pub fn result(&self, id: &str) -> Option<&CheckResult> {
        self.results.iter().find(|r| r.id == id)
    }
}

/// Which checks run: all, or those `only` names (ids or areas), minus those `skip` names.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub only: Vec<String>,
    pub skip: Vec<String>,
}

impl Selection {
    fn matches(names: &[String], c: &CheckSpec) -> bool {
        names.iter().any(|n| n == c.id || n == c.area.name())
    }

    pub fn wants(&self, c: &CheckSpec) -> bool {
        (self.only.is_empty() || Self::matches(&self.only, c)) && !Self::matches(&self.skip, c)
    }

    /// Names that are neither a check id nor an area.
    pub fn unknown(&self) -> Vec<String> {
        let known = selectors();
        self.only
            .iter()
            .chain(&self.skip)
            .filter(|n| !known.contains(&n.as_str()))
            .cloned()
            .collect()
    }
}

/// Gather the facts (one session, opened from the settings) and run the selected checks.
pub fn run(settings: &Settings, selection: &Selection) -> Report {
    let facts = Facts::gather(settings);
    evaluate(&facts, selection)
}

/// Judge gathered facts.
pub fn evaluate(facts: &Facts, selection: &Selection) -> Report {
    let mut results = Vec::new();
    for c in CHECKS.iter().filter(|c| selection.wants(c)) {
        let f = (c.run)(facts);
        let parts = f.fix.as_deref().map(split_fix).unwrap_or_default();
        results.push(CheckResult {
            id: c.id,
            area: c.area,
            title: c.title,
            severity: f.severity,
            found: f.found,
            why: f.why.unwrap_or_else(|| c.why.to_string()),
            fix: f.fix,
            fix_sql: parts.sql,
            fix_settings: parts.settings,
            fix_steps: parts.steps,
            objects: f.objects,
        });
    }
    Report {
        target: facts.target.clone(),
        checked_at: facts.gathered_at,
        database: facts.db.as_ref().ok().map(|d| ReportDatabase {
            name: d.name.clone(),
            dbid: d.dbid,
            version: d.version.clone(),
        }),
        results,
    }
}

/// `a, b, c` with at most `max` items and a count of the rest.
pub(crate) fn list(items: &[String], max: usize) -> String {
    if items.len() <= max {
        items.join(", ")
    } else {
        format!("{} and {} more", items[..max].join(", "), items.len() - max)
    }
}

#[cfg(test)]
mod policies_tests;
#[cfg(test)]
mod sink_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_all;
