//! Every command-line flag and command, defined once. Help pages, man pages, completions and
//! the `commands/` reference are generated from these definitions.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// The root's footer: every command's codes in brief (each command's --help lists its own).
pub const EXIT_CODES: &str = "Exit codes:\n  0  success\n  1  failure (database, I/O; doctor: a check FAILs)\n  2  usage or settings error\n  130  capture or snapshot stopped by Ctrl-C (see their --help)";

/// The footer of a command with no codes of its own beyond success, failure and usage.
pub const COMMAND_EXIT_CODES: &str =
    "Exit codes:\n  0  success\n  1  failure (database, I/O)\n  2  usage or settings error";

/// `explain`: nothing to fail on but the output and the code asked about.
pub const EXPLAIN_EXIT_CODES: &str = "Exit codes:\n  0  explained or listed\n  1  failure writing the output (I/O)\n  2  usage or settings error, or a code that is none (CDC-1007)";

/// `completions` and `man`: they only print (or write) what the definitions generate.
pub const OUTPUT_EXIT_CODES: &str =
    "Exit codes:\n  0  success\n  1  failure writing the output (I/O)\n  2  usage or settings error";

#[derive(Debug, Parser)]
#[command(
    name = "oracle-cdc",
    version,
    about = "Oracle change data capture: chunked AS OF SCN snapshots merged in SCN order with LogMiner",
    long_about = "oracle-cdc captures changes from Oracle: a chunked, parallel, resumable snapshot read AS OF SCN, \
merged in SCN order with a LogMiner change stream. Settings come from a YAML file of cdc.* keys (--config), \
ORACLE_CDC_* environment variables and --set KEY=VALUE, in that order of precedence.\n\n\
Try it without a database on the embedded emulator:\n  \
oracle-cdc emulator init demo-db --schema examples/emulator-schema.yaml\n  \
oracle-cdc emulator workload demo-db --transactions 100\n  \
oracle-cdc emulator status demo-db",
    after_long_help = EXIT_CODES,
    propagate_version = true,
    disable_help_subcommand = true
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Args, Clone)]
pub struct GlobalArgs {
    /// Settings file (YAML, cdc.* keys)
    #[arg(short = 'c', long = "config", value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
    /// Override one setting; repeatable; wins over the file and the environment
    #[arg(long = "set", value_name = "KEY=VALUE", global = true)]
    pub set: Vec<String>,
    /// Print only results, errors and what the work is held up by (a broker, a database, a log)
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// More log output on stderr (-v info, -vv debug, -vvv trace)
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// When to colour output
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true, value_name = "WHEN")]
    pub color: ColorChoice,
    /// Validate the settings, print the effective values (secrets redacted) and exit
    #[arg(long, global = true)]
    pub print_settings: bool,
    /// Refuse what is otherwise a warning: an ORACLE_CDC_* environment variable that names no
    /// setting is an error (CDC-1001), not ignored with a warning; doctor exits 1 when a check
    /// WARNs (the same as --fail-on warn)
    #[arg(long, global = true)]
    pub strict: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    Table,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RowFormat {
    Jsonl,
    Csv,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The embedded Oracle emulator: init, workload, dump, status
    #[command(
        subcommand,
        long_about = "The embedded Oracle emulator: an emulated database in a directory that behaves like Oracle \
where CDC breaks (SCNs, AS OF SCN reads, ORA-01555, ROWIDs, LogMiner rows and SQL_REDO text). \
Point any command at it with cdc.database.url: emulator:DIR.",
        after_long_help = COMMAND_EXIT_CODES
    )]
    Emulator(EmulatorCommand),

    /// Snapshot per cdc.snapshot.mode, then stream changes to the sink
    #[command(
        long_about = "The main job: take the snapshot cdc.snapshot.mode asks for (initial: every captured table, \
with streaming starting at the same moment; none: no snapshot, stream from now on including transactions \
already open; snapshot_only: read every table, then stay idle; on_signal: stream, snapshot on a signal) and \
stream committed changes from LogMiner, publishing both in one SCN order to the sink (cdc.sink.*): a chunk read \
at SCN s comes after every change committed before s and before every change committed at or after s, so a \
consumer keeping the latest record per key converges to the tables. Offsets in cdc.state.dir move only forward; \
the file sink is exactly-once across kill -9. Ctrl-C or SIGTERM stops cleanly.\n\n\
Examples:\n  oracle-cdc -c settings.yaml capture\n  oracle-cdc --set cdc.database.url=emulator:demo-db capture --stop-at-scn 1002000",
        after_long_help = CAPTURE_EXIT_CODES
    )]
    Capture(CaptureArgs),

    /// One-off snapshot_only export of tables to files
    #[command(
        long_about = "Export the captured tables to files once (snapshot_only): one file per table, named after it \
(PDB.OWNER.TABLE.jsonl, .csv, or .NNNNN.parquet), read in chunks AS OF SCN, several chunks in parallel. JSON lines hold one \
object per row (--records: full Debezium-shaped records); CSV has a header row, dates and timestamps as ISO-8601 text \
(--csv-times epoch: epoch integers) and decimals as exact text; Parquet has typed columns (value encoding: commands/types.md). \
The read throttle cdc.snapshot.max.rows.per.second applies (0: none). \
A manifest.json lists every chunk's SCN and the row counts. Re-running with the same --out resumes where it \
stopped, re-reading only chunks that were not yet written; Ctrl-C stops cleanly with the offsets saved. \
The end summary is a table, or JSON with --summary-format json (--format is the files' format).\n\n\
Examples:\n  oracle-cdc snapshot --out export/ --format csv\n  oracle-cdc snapshot --tables PDB1.HR.EMPLOYEES --records",
        after_long_help = SNAPSHOT_EXIT_CODES
    )]
    Snapshot(SnapshotArgs),

    /// Show how each table would be cut into chunks
    #[command(
        name = "plan-chunks",
        long_about = "Show how each captured table would be cut into chunks: the strategy (key, ROWID ranges or a \
single chunk) and why, the method that finds the boundaries (even split, index probes or extents), the \
chunk count, estimated rows, the boundaries (all of them with --format json) and warnings (row movement \
on a ROWID-chunked table, stale or missing statistics). Planning reads no table data: only MIN/MAX, index \
probes or DBA_EXTENTS.\n\n\
Examples:\n  oracle-cdc plan-chunks\n  oracle-cdc plan-chunks --tables PDB1.HR.EMPLOYEES --format json",
        after_long_help = COMMAND_EXIT_CODES
    )]
    PlanChunks(PlanChunksArgs),

    /// Show or change the stored offsets: where capture is, what is left of the snapshot
    #[command(
        subcommand,
        long_about = "Show or change the stored offsets (cdc.state.dir/offsets.json, or an export's --out directory): \
the stream position, each table's snapshot progress, running signal snapshots, the sink and schema-history \
positions. `inspect` reads them, with or without the database; `edit` changes them safely: never while a \
capture holds the state directory, validated, nothing skipped without --force, a timestamped backup, an \
atomic write, and a diff of what changed. The format: commands/offsets.md.\n\n\
Examples:\n  oracle-cdc offsets inspect\n  oracle-cdc offsets edit reset-table SALES.ORDERS --dry-run",
        after_long_help = COMMAND_EXIT_CODES
    )]
    Offsets(OffsetsCommand),

    /// Send a signal to a running capture: snapshot tables, pause, resume, stop
    #[command(
        subcommand,
        long_about = "Send a signal to a running capture, in Debezium's signal shape {id, type, data}: \
`execute-snapshot` re-reads tables (incremental: chunks AS OF SCN while streaming goes on, even on a read-only \
standby; blocking: streaming pauses while they are read), optionally narrowed by a SQL filter per table; \
`pause-snapshot`, `resume-snapshot` and `stop-snapshot` steer it. The signal is checked first (tables captured, \
filter a single safe condition, id unique), then written to the file channel (the spool STATE/signals/, which a \
running capture reads within a second; nothing is written to the database). With --wait, the command follows the \
ops events until the signal is accepted, rejected or done. Signals: commands/signal.md.\n\n\
Examples:\n  oracle-cdc signal send execute-snapshot --tables PDB1.SALES.ORDERS\n  \
oracle-cdc signal send execute-snapshot --tables PDB1.SALES.ORDERS --filter \"PDB1.SALES.ORDERS=region = 'EMEA'\" --wait\n  \
oracle-cdc signal send pause",
        after_long_help = SIGNAL_EXIT_CODES
    )]
    Signal(SignalCommand),

    /// Pre-flight checks of the database, the capture user and the settings
    #[command(
        long_about = DOCTOR_LONG_ABOUT,
        after_long_help = DOCTOR_EXIT_CODES
    )]
    Doctor(DoctorArgs),

    /// Explain a CDC-NNNN error code, or what the tool does with an ORA-NNNNN error
    #[command(
        long_about = "Explain a CDC-NNNN error code: what it means and how to fix it. Given an Oracle error \
(ORA-NNNNN or DPI-NNNN), say what oracle-cdc does with it: the code it becomes at login and during calls, \
read from the Oracle adapter's error mapping (retried, halved, reconnected, or stopped with which remedy).\n\n\
Examples:\n  oracle-cdc explain CDC-8001\n  oracle-cdc explain ORA-01555\n  oracle-cdc explain --list\n  oracle-cdc explain --oracle",
        after_long_help = EXPLAIN_EXIT_CODES
    )]
    Explain(ExplainArgs),

    /// Print a shell completion script
    #[command(
        long_about = "Print a shell completion script to stdout.\n\n\
Example:\n  oracle-cdc completions bash > ~/.local/share/bash-completion/completions/oracle-cdc",
        after_long_help = OUTPUT_EXIT_CODES
    )]
    Completions(CompletionsArgs),

    /// Print man pages
    #[command(
        long_about = "Print the man page of oracle-cdc (or of one command) to stdout, or write every page to a directory.\n\n\
Examples:\n  oracle-cdc man | man -l -\n  oracle-cdc man emulator-dump | man -l -\n  oracle-cdc man --out man/",
        after_long_help = OUTPUT_EXIT_CODES
    )]
    Man(ManArgs),
}

pub const CAPTURE_EXIT_CODES: &str = "Exit codes:\n  0  stopped cleanly (Ctrl-C, SIGTERM) or reached --stop-at-scn\n  1  failure (database, I/O, a change that cannot be decoded)\n  2  usage or settings error\n  130  a second Ctrl-C stopped it at once; the next start resumes from the stored offsets";

#[derive(Debug, Args)]
pub struct CaptureArgs {
    /// Stop once every change committed up to this SCN is published (scripts, tests, migrations)
    #[arg(long, value_name = "SCN")]
    pub stop_at_scn: Option<u64>,
}

pub const SNAPSHOT_EXIT_CODES: &str = "Exit codes:\n  0  success (or the export in --out was already complete)\n  1  failure (database, I/O, a chunk that cannot be read)\n  2  usage or settings error\n  130  stopped by Ctrl-C; run the same command again to resume";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormatArg {
    Jsonl,
    Csv,
    /// Parquet files with an Arrow schema from the Oracle types
    Parquet,
}

#[derive(Debug, Args)]
pub struct SnapshotArgs {
    /// Only these captured tables (default: every captured table)
    #[arg(long, value_delimiter = ',', value_name = "T1,T2")]
    pub tables: Vec<String>,
    /// Directory of the files, the manifest and the resume state
    #[arg(long, value_name = "DIR", default_value = "snapshot")]
    pub out: PathBuf,
    /// File format
    #[arg(long, value_enum, default_value_t = ExportFormatArg::Jsonl)]
    pub format: ExportFormatArg,
    /// JSON lines of full records (Debezium envelope, op r) instead of plain rows
    #[arg(long, conflicts_with = "format")]
    pub records: bool,
    /// CSV: DATE and TIMESTAMP cells as ISO-8601 text (iso: 2024-02-14T10:58:02.202590) or as
    /// epoch milli-/micro-/nanoseconds like records (epoch)
    #[arg(long, value_enum, default_value_t = CsvTimesArg::Iso, value_name = "HOW")]
    pub csv_times: CsvTimesArg,
    /// How the end summary (each table's chunks, rows, SCNs, files) is printed on stdout
    /// (--format is the files' format)
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub summary_format: TableFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CsvTimesArg {
    Iso,
    Epoch,
}

#[derive(Debug, Args)]
pub struct PlanChunksArgs {
    /// Only these captured tables (default: every captured table)
    #[arg(long, value_delimiter = ',', value_name = "T1,T2")]
    pub tables: Vec<String>,
    /// Output format
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

/// Shared by `oracle-cdc doctor` and the `oracle-cdc-doctor` binary.
pub const DOCTOR_ABOUT: &str =
    "Pre-flight checks of the database, the capture user and the settings";

pub const DOCTOR_LONG_ABOUT: &str = "Check everything that would make capture fail or lose data, before deploying it: \
the driver (thin or thick), the client libraries and connection, version, CDB/PDB layout, role and open mode; ARCHIVELOG, FORCE LOGGING, \
archive destinations, redo log sizes and switch rate, retained logs vs the stored resume position; supplemental \
logging; the grants each configured feature needs (and no more); undo retention vs the longest chunk read; the \
captured tables (keys, row movement, index-organised tables, column types, name lengths, LOBs, size); and \
settings that contradict the database or the stored offsets. Each check has a stable id, a severity (PASS, WARN, \
FAIL, SKIP), what was found, the objects it is about, why it matters and the exact fix: SQL to run as a DBA, \
settings lines and steps, printed as blocks to copy below each area's table (--format json: fix_sql, \
fix_settings, fix_steps, with the tool version, the time and the database's name and DBID). Read-only: nothing \
is written to the database. The same command is installed as `oracle-cdc-doctor`.\n\n\
Examples:\n  oracle-cdc -c settings.yaml doctor\n  oracle-cdc doctor --check redo --check privileges.logmining --format json\n  \
oracle-cdc-doctor -c settings.yaml --fail-on warn --skip tables.lob";

pub const DOCTOR_EXIT_CODES: &str = "Exit codes:\n  0  no check FAILs (WARN and SKIP allowed; with --fail-on warn or --strict, no check WARNs either)\n  1  a check FAILs, or WARNs with --fail-on warn (--strict)\n  2  usage or settings error";

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Output format
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Run only this check or area (repeatable, or comma-separated), e.g. redo or redo.archivelog
    #[arg(long = "check", value_name = "ID", value_delimiter = ',',
          value_parser = clap::builder::PossibleValuesParser::new(crate::doctor::selectors()))]
    pub check: Vec<String>,
    /// Leave this check or area out (repeatable, or comma-separated; the names --check takes)
    #[arg(long = "skip", value_name = "ID", value_delimiter = ',', hide_possible_values = true,
          value_parser = clap::builder::PossibleValuesParser::new(crate::doctor::selectors()))]
    pub skip: Vec<String>,
    /// The worst result that still exits 0 is the one below this: `fail` (default) exits 1 when
    /// a check FAILs, `warn` when one WARNs or FAILs (a CI gate, like DMS's FailOnAssessmentFailure)
    #[arg(long, value_enum, value_name = "SEVERITY")]
    pub fail_on: Option<FailOn>,
}

/// The severity at which doctor exits 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Warn,
    Fail,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The code, e.g. CDC-8001 (or 8001), or an Oracle error, e.g. ORA-01555 or DPI-1047
    #[arg(required_unless_present_any = ["list", "oracle"])]
    pub code: Option<String>,
    /// List every code with its title, in code order
    #[arg(long, conflicts_with = "oracle")]
    pub list: bool,
    /// List the Oracle errors (ORA-, DPI-) the tool handles in a way of its own, and the code each becomes
    #[arg(long)]
    pub oracle: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Command whose page to print, with spaces or dashes (e.g. `emulator dump`)
    pub command: Vec<String>,
    /// Write every page into this directory instead
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum EmulatorCommand {
    /// Create an emulated database in a directory from a schema file
    #[command(
        long_about = "Create an emulated database in DIR from a YAML schema file: PDBs, owners, tables, columns with \
Oracle types, keys, organisation, partitions, initial rows and database settings. \
examples/emulator-schema.yaml documents every field.\n\n\
Example:\n  oracle-cdc emulator init demo-db --schema examples/emulator-schema.yaml",
        after_long_help = COMMAND_EXIT_CODES
    )]
    Init(EmulatorInitArgs),

    /// Create a physical standby or a downstream mining database of an emulated primary
    #[command(
        long_about = "Create, in DIR, an Active Data Guard physical standby (--standby-of) or a downstream mining \
database (--downstream-of) of an emulated primary made by `emulator init`. DIR holds only topology.yaml; the \
primary's redo is read from its directory and nothing is ever written to DIR. A standby applies the primary's redo \
up to its applied SCN, the primary's SCN minus --apply-lag-scn: that is its CURRENT_SCN, reads AS OF a later SCN \
fail with ORA-08181, and it is open READ ONLY WITH APPLY. A downstream is another database (own name and DBID) \
holding only the redo logs shipped to it (--shipping, --from-sequence, --missing-sequence); mine there with \
cdc.mining.database.url. commands/emulator.md (\"Topologies\") describes both.\n\n\
Examples:\n  oracle-cdc emulator create demo-standby --standby-of demo-db --apply-lag-scn 50\n  \
oracle-cdc emulator create demo-downstream --downstream-of demo-db --shipping archived",
        after_long_help = COMMAND_EXIT_CODES
    )]
    Create(EmulatorCreateArgs),

    /// Run transactions against an emulated database
    #[command(
        long_about = "Run a workload of transactions against an emulated database, as a separate writer process: \
inserts, updates and deletes, long-running transactions that stay open across many others, rollbacks and \
rollbacks to savepoint, key updates, row movement and ADD/DROP COLUMN. Readers (capture, snapshot, dump) may \
run at the same time. Stops after --transactions or --duration, whichever comes first.\n\n\
Example:\n  oracle-cdc emulator workload demo-db --transactions 500 --rate 200 --seed 7",
        after_long_help = COMMAND_EXIT_CODES
    )]
    Workload(EmulatorWorkloadArgs),

    /// Print a table's rows as of an SCN
    #[command(
        long_about = "Print a table's rows as of an SCN (default: now), one JSON object per row with values in the \
same encoding the records use, or CSV with a header row (as snapshot --format csv writes it: dates and timestamps as \
ISO-8601 text).\n\n\
Example:\n  oracle-cdc emulator dump demo-db --table PDB1.HR.EMP --scn 1000250",
        after_long_help = COMMAND_EXIT_CODES
    )]
    Dump(EmulatorDumpArgs),

    /// Show an emulated database's SCN, tables, logs, undo and open transactions
    #[command(
        long_about = "Show an emulated database's current SCN, its tables with row counts, the retained redo logs \
and undo range, and the open transactions.\n\n\
Example:\n  oracle-cdc emulator status demo-db --format json",
        after_long_help = COMMAND_EXIT_CODES
    )]
    Status(EmulatorStatusArgs),

    /// Serve an emulated database to Oracle clients over Oracle Net
    #[command(
        long_about = "Serve an emulated database over Oracle Net, as a listener and a database: any thin Oracle \
client (oracle-cdc's own adapter, python-oracledb, node oracledb, JDBC thin) connects to ADDR:PORT/SERVICE and logs \
in as one of the schema's users with its password (database.users[].password; default `emulator`). The services are \
the database's own (its name, landing in CDB$ROOT in a CDB) and each open PDB's. Every statement oracle-cdc sends to \
Oracle is answered from the emulator's state, and a SQL subset for scripts: SELECT with WHERE (AS OF SCN too), \
single-table INSERT, UPDATE and DELETE, COMMIT, ROLLBACK, SAVEPOINT; changes go into the redo like a workload's. \
The cdc.emulator.fault.* settings apply to the sessions served. Runs until Ctrl-C or SIGTERM; prints the address \
and the services on start. commands/emulator.md (\"emulator serve\") has the details.\n\n\
Examples:\n  oracle-cdc emulator serve demo-db\n  \
oracle-cdc emulator serve demo-db --listen 127.0.0.1:0 --format json",
        after_long_help = COMMAND_EXIT_CODES
    )]
    Serve(EmulatorServeArgs),

    /// Extract the LogMiner dictionary into an emulated database's redo (for downstream mining)
    #[command(
        name = "build-dictionary",
        long_about = "Do on an emulated primary what a DBA does on a source for downstream mining with the dictionary \
in the redo: EXECUTE DBMS_LOGMNR_D.BUILD(OPTIONS => DBMS_LOGMNR_D.STORE_IN_REDO_LOGS), then ALTER SYSTEM \
ARCHIVE LOG CURRENT. The build goes into the redo of thread 1, whose log is then archived: that log is marked \
DICTIONARY_BEGIN and DICTIONARY_END, and LogMiner with cdc.mining.dictionary=redo_logs can mine windows that \
start at or after its end. The database must be in ARCHIVELOG mode; a standby or downstream takes no builds.\n\n\
Example:\n  oracle-cdc emulator build-dictionary demo-db",
        after_long_help = COMMAND_EXIT_CODES
    )]
    BuildDictionary(EmulatorDir),
}

#[derive(Debug, Args)]
pub struct EmulatorDir {
    /// The database directory (default: the directory of cdc.database.url=emulator:DIR)
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// How redo reaches an emulated downstream database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShippingArg {
    /// Real-time downstream capture: redo arrives as the source writes it (standby redo
    /// logs), the current log included
    RealTime,
    /// Archived-log downstream capture: only archived logs arrive, after each log switch
    Archived,
}

#[derive(Debug, Args)]
pub struct EmulatorCreateArgs {
    /// Directory to create (must not exist, or be empty)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Make a physical standby of this primary directory
    #[arg(
        long,
        value_name = "PRIMARY_DIR",
        conflicts_with = "downstream_of",
        required_unless_present = "downstream_of"
    )]
    pub standby_of: Option<PathBuf>,
    /// The standby's redo apply runs this many SCNs behind the primary
    #[arg(long, value_name = "N", default_value_t = 0, requires = "standby_of")]
    pub apply_lag_scn: u64,
    /// Make a downstream mining database receiving this source directory's redo
    #[arg(long, value_name = "SOURCE_DIR")]
    pub downstream_of: Option<PathBuf>,
    /// How the source's redo reaches the downstream
    #[arg(
        long,
        value_enum,
        default_value = "real-time",
        requires = "downstream_of"
    )]
    pub shipping: ShippingArg,
    /// Logs with a lower sequence number (on every thread) were never shipped
    #[arg(
        long,
        value_name = "SEQ",
        default_value_t = 1,
        requires = "downstream_of"
    )]
    pub from_sequence: u64,
    /// A log sequence (on every thread) lost in transport: a gap; repeat for more
    #[arg(
        long = "missing-sequence",
        value_name = "SEQ",
        requires = "downstream_of"
    )]
    pub missing_sequences: Vec<u64>,
    /// The downstream's DB_NAME
    #[arg(
        long,
        value_name = "NAME",
        default_value = "DOWNSTRM",
        requires = "downstream_of"
    )]
    pub name: String,
    /// The downstream's DBID (default: one that differs from the source's)
    #[arg(long, value_name = "N", requires = "downstream_of")]
    pub dbid: Option<u64>,
}

#[derive(Debug, Args)]
pub struct EmulatorInitArgs {
    /// Directory to create (must not exist, or be empty)
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Schema file (YAML)
    #[arg(long, value_name = "FILE")]
    pub schema: PathBuf,
    /// Seed of the initial rows' values (default: the schema's seed)
    #[arg(long)]
    pub seed: Option<u64>,
    /// When DIR already holds an emulated database, keep it as it is and succeed (scripts that
    /// are run again, like the README's main job)
    #[arg(long)]
    pub if_missing: bool,
}

#[derive(Debug, Args)]
pub struct EmulatorWorkloadArgs {
    #[command(flatten)]
    pub dir: EmulatorDir,
    /// Stop after this many committed or rolled-back transactions
    #[arg(long, value_name = "N")]
    pub transactions: Option<u64>,
    /// Stop after this long, e.g. 30s, 5m, 1h
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub duration: Option<std::time::Duration>,
    /// Transactions per second (0: as fast as possible)
    #[arg(long, default_value_t = 100)]
    pub rate: u32,
    /// When another writer holds the database (a workload still running), wait for it to
    /// finish, saying so, then run (--duration counts from then) instead of failing with CDC-4003
    #[arg(long)]
    pub wait: bool,
    /// Operation mix as weights, e.g. insert=50,update=40,delete=10
    #[arg(long, default_value = "insert=40,update=45,delete=15")]
    pub mix: String,
    /// Changes per transaction, as MIN..MAX
    #[arg(long, default_value = "1..5", value_name = "MIN..MAX")]
    pub tx_size: String,
    /// Percent of transactions that roll back
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub rollback_pct: u8,
    /// Percent of transactions that roll back to a savepoint part-way
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub savepoint_pct: u8,
    /// Percent of updates that change a primary key value
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub key_update_pct: u8,
    /// Percent of updates on row-movement tables that move the row to another partition or block
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub row_move_pct: u8,
    /// Start a long-running transaction every N transactions (0: never)
    #[arg(long, default_value_t = 50, value_name = "N")]
    pub long_every: u64,
    /// Transactions a long-running one stays open across
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub long_span: u64,
    /// Run an ADD/DROP COLUMN every N transactions (0: never)
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub ddl_every: u64,
    /// CREATE TABLE every N transactions (0: never): a copy of the first table's layout named
    /// TABLE_NEW<k>, changed by later transactions like the others
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub create_table_every: u64,
    /// TRUNCATE TABLE one of the tables every N transactions (0: never): all its rows go in one
    /// DDL, its segment gets a new data object id
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub truncate_every: u64,
    /// ALTER TABLE … MOVE one of the tables every N transactions (0: never; MOVE PARTITION of
    /// one partition of a partitioned table): no row changes in the redo, one DDL, and every
    /// row of the segment gets a ROWID with a new data object number
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub move_every: u64,
    /// Every N transactions (0: never) raise the database's SCN by --scn-jump first, as a
    /// database link to a database further ahead does: SCNs with no redo, which capture mines
    /// in growing windows
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub scn_jump_every: u64,
    /// SCNs each jump of --scn-jump-every adds
    #[arg(long, default_value_t = 1_000_000_000, value_name = "SCNS",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
    pub scn_jump: u64,
    /// Percent of commits that share their commit SCN with the previous commit
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub shared_commit_pct: u8,
    /// Percent of CLOB, NCLOB, BLOB, JSON, XMLTYPE and extended VARCHAR2 values written longer
    /// than a row keeps (out of line: LOB_WRITE, XML DOC WRITE, 32K_WRITE rows)
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub lob_pct: u8,
    /// Percent of updates that change a CLOB or BLOB piece by piece through its locator
    /// (DBMS_LOB.WRITE at an offset, ERASE, TRIM); capture cannot rebuild those (CDC-3005)
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub lob_edit_pct: u8,
    /// Only these tables (default: every table)
    #[arg(long, value_delimiter = ',', value_name = "T1,T2")]
    pub tables: Vec<String>,
    /// Seed of the workload's random choices
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How the summary (the counts of what ran) is printed; json prints it even with --quiet
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

#[derive(Debug, Args)]
pub struct EmulatorDumpArgs {
    #[command(flatten)]
    pub dir: EmulatorDir,
    /// The table, as PDB.OWNER.TABLE or OWNER.TABLE
    #[arg(long, value_name = "TABLE")]
    pub table: String,
    /// Read as of this SCN (default: the current SCN)
    #[arg(long)]
    pub scn: Option<u64>,
    /// Output format
    #[arg(long, value_enum, default_value_t = RowFormat::Jsonl)]
    pub format: RowFormat,
    /// Add each row's ROWID as a "ROWID" field/column
    #[arg(long)]
    pub rowid: bool,
}

#[derive(Debug, Args)]
pub struct EmulatorServeArgs {
    #[command(flatten)]
    pub dir: EmulatorDir,
    /// The address to listen on; port 0 picks a free port (printed on start)
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:1521")]
    pub listen: String,
    /// How the address and services are printed on start
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// The largest session data unit a connection gets, in bytes (Oracle's DEFAULT_SDU_SIZE):
    /// a client asking for more gets this; default 8192 (65536 for a 23ai database)
    #[arg(long, value_name = "BYTES", value_parser = clap::value_parser!(u32).range(512..=2_097_152))]
    pub sdu: Option<u32>,
    /// Serve TCPS: this server certificate chain (PEM, the server's certificate first); URLs
    /// become tcps://ADDR:PORT/SERVICE, and clients need its CA in their wallet
    #[arg(long, value_name = "PEM", requires = "tls_key")]
    pub tls_cert: Option<std::path::PathBuf>,
    /// The private key of --tls-cert (PEM, unencrypted)
    #[arg(long, value_name = "PEM", requires = "tls_cert")]
    pub tls_key: Option<std::path::PathBuf>,
    /// Mutual TLS: require each client to present a certificate signed by a CA in this PEM
    /// file (Oracle's SSL_CLIENT_AUTHENTICATION=TRUE)
    #[arg(long, value_name = "PEM", requires = "tls_cert")]
    pub tls_client_ca: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub struct EmulatorStatusArgs {
    #[command(flatten)]
    pub dir: EmulatorDir,
    /// Output format
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

pub const OFFSETS_EDIT_EXIT_CODES: &str = "Exit codes:\n  0  written, nothing to change, or --dry-run (nothing written)\n  1  failure: a capture holds the state directory (CDC-7004), damaged or newer offsets (CDC-7002, CDC-7003), another database (CDC-7001), an SCN outside the retained logs (CDC-7007), no offsets (CDC-7005), I/O\n  2  usage: the edit would skip data and --force is not given (CDC-7006), or it is invalid: an unknown table or signal, a bad field (CDC-7008)";

pub const SIGNAL_EXIT_CODES: &str = "Exit codes:\n  0  sent (with --wait: accepted, or for execute-snapshot done)\n  1  failure: no state directory (CDC-8104), the signal was rejected or stopped, --wait timed out (CDC-8106), I/O\n  2  usage: an invalid signal or filter (CDC-8101), a table that is not captured (CDC-8102), an id already used (CDC-8103), a channel that cannot be used (CDC-8105)";

#[derive(Debug, Subcommand)]
pub enum SignalCommand {
    /// Check a signal and hand it to the running capture
    #[command(
        long_about = "Check a signal and hand it to the running capture through the file channel \
(STATE/signals/): the tables must be captured (and exist, when the database answers), each --filter one safe SQL \
condition for one of them, the id unused. Prints the id (--format json: the signal as sent, with its outcome \
under --wait). A capture picks it up within cdc.signal.poll.ms; with no \
capture running it waits in the spool. --wait follows the ops events until the outcome.\n\n\
Examples:\n  oracle-cdc signal send execute-snapshot --tables PDB1.SALES.ORDERS --type blocking --wait\n  \
oracle-cdc signal send stop --tables PDB1.SALES.ORDERS",
        after_long_help = SIGNAL_EXIT_CODES
    )]
    Send(SignalSendArgs),
}

/// The signal types (Debezium's names; the short forms are aliases).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SignalType {
    /// Snapshot the --tables (incremental or blocking)
    #[value(name = "execute-snapshot", alias = "snapshot")]
    ExecuteSnapshot,
    /// Pause the running snapshot's chunk reads (streaming goes on)
    #[value(name = "pause-snapshot", alias = "pause")]
    PauseSnapshot,
    /// Resume a paused snapshot at its next chunk
    #[value(name = "resume-snapshot", alias = "resume")]
    ResumeSnapshot,
    /// Abandon the signal snapshots (of the --tables only, when given)
    #[value(name = "stop-snapshot", alias = "stop")]
    StopSnapshot,
    /// Set the snapshot throttle to --rows-per-second (of the --tables only, when given)
    #[value(name = "set-throttle", alias = "throttle")]
    SetThrottle,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SignalChannelArg {
    File,
    Source,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SignalSnapshotType {
    Incremental,
    Blocking,
}

#[derive(Debug, Args)]
pub struct SignalSendArgs {
    /// The signal type
    #[arg(value_enum)]
    pub signal: SignalType,

    /// Tables (PDB.OWNER.TABLE or OWNER.TABLE, comma-separated, or Debezium's regular
    /// expressions such as `SALES\\..*`, matched against the captured tables): what
    /// execute-snapshot reads, or what stop-snapshot stops
    #[arg(long, value_delimiter = ',', value_name = "TABLES")]
    pub tables: Vec<String>,

    /// A filter for one table of --tables: TABLE=CONDITION (a SQL condition, as in a WHERE
    /// clause; with --type blocking also `SELECT * FROM TABLE WHERE condition`); repeat for more
    /// tables
    #[arg(long = "filter", value_name = "TABLE=CONDITION")]
    pub filters: Vec<String>,

    /// execute-snapshot: incremental (streaming goes on) or blocking (streaming pauses)
    #[arg(long = "type", value_enum, default_value = "incremental")]
    pub snapshot_type: SignalSnapshotType,

    /// set-throttle: rows per second snapshots may read from now on (0: no limit)
    #[arg(long, value_name = "ROWS")]
    pub rows_per_second: Option<u64>,

    /// The signal's id (default: a fresh one); at most 42 characters of letters, digits, - _ . :
    #[arg(long)]
    pub id: Option<String>,

    /// file: the state directory's spool (no database write); source: a row inserted into the
    /// signal table cdc.signal.data.collection (refused on a read-only database)
    #[arg(long, value_enum, default_value = "file")]
    pub channel: SignalChannelArg,

    /// Follow the ops events until the signal is accepted or rejected (execute-snapshot: until
    /// its snapshot is done)
    #[arg(long)]
    pub wait: bool,

    /// With --wait: give up after this many seconds (CDC-8106)
    #[arg(long, default_value_t = 600, value_name = "SECONDS")]
    pub timeout: u64,

    /// The state directory to signal (default: cdc.state.dir); a running export's --out
    /// directory takes set-throttle
    #[arg(long, value_name = "DIR")]
    pub dir: Option<std::path::PathBuf>,

    /// table: the id on a line; json: one object with the signal sent (and its outcome with
    /// --wait)
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

#[derive(Debug, Subcommand)]
pub enum OffsetsCommand {
    /// Show the stored offsets: stream position and lag, snapshot progress, signals, sink
    #[command(
        long_about = "Show the stored offsets: the database they belong to, the phase (fresh, snapshotting, streaming, \
signal snapshots running), the stream position (resume SCN, last published commit SCN and the transactions at it, \
per redo thread), each table's snapshot state with progress and where its next chunk starts, running signal \
snapshots, the sink and schema-history positions. Needs no database; when cdc.database.url is reachable it adds \
the current SCN, the lag in SCNs and whether the resume SCN is still in the retained redo logs (an unreachable \
database is reported, not an error). Works while capture runs.\n\n\
Examples:\n  oracle-cdc offsets inspect\n  oracle-cdc offsets inspect --dir export/ --format json --offline",
        after_long_help = OFFSETS_INSPECT_EXIT_CODES
    )]
    Inspect(OffsetsInspectArgs),

    /// Change the stored offsets: validated, backed up, written atomically, diff shown
    #[command(
        long_about = "Change the stored offsets to recover: stream from a given SCN, skip a poison transaction, \
re-snapshot a table. Refused while a capture holds the state directory (the message names its pid). The edit \
is validated (tables captured by the settings; an SCN within the retained logs when the database is reachable, \
else a warning); a change that would skip data — changes never published, snapshot rows never read — is refused \
unless --force is given, and the warning names what is lost. Then a timestamped backup (offsets.json.bak-…) is \
written, the new offsets are written atomically, and the diff is printed. --dry-run prints the diff and writes \
nothing. --interactive opens the JSON in $EDITOR (or $VISUAL) instead of an operation; `apply FILE|-` takes an \
edited document from a file or stdin, checked the same way.\n\n\
Examples:\n  oracle-cdc offsets edit set-scn 1000500 --dry-run\n  oracle-cdc offsets edit --interactive\n  \
oracle-cdc offsets edit apply edited.json --dry-run",
        after_long_help = OFFSETS_EDIT_EXIT_CODES
    )]
    Edit(OffsetsEditArgs),

    /// Forget every position, so the next start is a first start (with the safety of an edit)
    #[command(
        long_about = "Reset the offsets: keep only the database they belong to (and an export's format and \
tables), so the next start is a first start: capture takes the snapshot cdc.snapshot.mode asks for and streams \
from there, an export starts over. The sink position is kept: the records already delivered stay, and the new \
start's records follow them. Like Kafka Connect's DELETE of a connector's offsets, with the safety of every \
edit: refused while a capture holds the state directory, what it skips (changes never published) needs --force \
and is named, a timestamped backup, an atomic write, the diff printed; --dry-run shows it only. To undo, \
`offsets edit apply` the backup.\n\n\
Examples:\n  oracle-cdc offsets reset --dry-run\n  oracle-cdc offsets reset --force",
        after_long_help = OFFSETS_EDIT_EXIT_CODES
    )]
    Reset(OffsetsResetArgs),
}

pub const OFFSETS_INSPECT_EXIT_CODES: &str = "Exit codes:\n  0  success (also when the database is unreachable, or there are no offsets yet)\n  1  damaged or newer offsets (CDC-7002, CDC-7003), offsets of another database than the reachable one (CDC-7001), I/O\n  2  usage or settings error";

#[derive(Debug, Args)]
pub struct OffsetsInspectArgs {
    /// Directory holding offsets.json (default: cdc.state.dir; an export's --out directory works too)
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Do not connect to the database (no lag or retained-log check)
    #[arg(long)]
    pub offline: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

#[derive(Debug, Args)]
pub struct OffsetsEditArgs {
    #[command(subcommand)]
    pub operation: Option<OffsetsEditOp>,
    /// Edit the offsets JSON in $VISUAL or $EDITOR instead of an operation: validated, diffed, confirmed
    #[arg(short, long)]
    pub interactive: bool,
    /// Write without asking for confirmation (only --interactive asks; taken before or after
    /// an operation too, so a script can always pass it)
    #[arg(long, global = true)]
    pub yes: bool,
    /// Print the diff and what would be skipped; write nothing
    #[arg(long, global = true)]
    pub dry_run: bool,
    /// Write an edit that skips data (the warning names what is lost)
    #[arg(long, global = true)]
    pub force: bool,
    /// Directory holding offsets.json (default: cdc.state.dir; an export's --out directory works too)
    #[arg(long, value_name = "DIR", global = true)]
    pub dir: Option<PathBuf>,
    /// Do not connect to the database (no DBID or retained-log checks; a warning says so)
    #[arg(long, global = true)]
    pub offline: bool,
}

#[derive(Debug, Subcommand)]
pub enum OffsetsEditOp {
    /// Stream from a commit SCN on the next start
    #[command(
        long_about = "Make the next start publish every transaction that commits at SCN or later, and nothing \
committed before it. Mining restarts at the stored resume SCN when that is older (so transactions open at the \
stored position stay whole), else at SCN; --resume-scn chooses it. --skip-xid leaves out transactions that \
committed exactly at SCN (a poison transaction) and publishes the others there. Moving back publishes changes \
again; moving forward skips them and needs --force. With the database reachable, SCN must be within the \
retained redo logs and not after the current SCN. With no offsets yet (and the database reachable) it starts \
them, so the first start streams from SCN.\n\n\
Examples:\n  oracle-cdc offsets edit set-scn 1000500 --dry-run\n  oracle-cdc offsets edit set-scn 1000812 --skip-xid 0a001b00c3010000 --force",
        after_long_help = OFFSETS_EDIT_EXIT_CODES
    )]
    SetScn(SetScnArgs),

    /// Snapshot a table again, from its first row, on the next start
    #[command(
        long_about = "Snapshot TABLE again from its first row on the next start: its progress in the snapshot \
(and in any signal snapshot) starts over, and an export cuts its file back before re-reading it. A captured \
table the offsets never snapshotted gets an incremental signal snapshot, which capture runs while streaming. \
Nothing is skipped; rows are delivered again.\n\n\
Example:\n  oracle-cdc offsets edit reset-table SALES.ORDERS",
        after_long_help = OFFSETS_EDIT_EXIT_CODES
    )]
    ResetTable(OffsetsTableArg),

    /// Count a table's snapshot as done without reading the rest of it
    #[command(
        long_about = "Count TABLE's snapshot (and its part of any signal snapshot) as done, so the next start \
does not read the rest of it. Its unread rows are skipped: --force is needed, and the warning names from where. \
The rows already read stay.\n\n\
Example:\n  oracle-cdc offsets edit mark-done SALES.EVENTS --force",
        after_long_help = OFFSETS_EDIT_EXIT_CODES
    )]
    MarkDone(OffsetsTableArg),

    /// Remove everything the offsets hold about a table
    #[command(
        long_about = "Remove TABLE from the snapshot, the signal snapshots and an export's table list — for a \
table that is no longer captured. A captured table left out of an unfinished snapshot is read again from its \
first row; anything that would never be read needs --force.\n\n\
Example:\n  oracle-cdc offsets edit forget-table SALES.LEGACY",
        after_long_help = OFFSETS_EDIT_EXIT_CODES
    )]
    ForgetTable(OffsetsTableArg),

    /// Remove a running signal snapshot
    #[command(
        long_about = "Remove the signal snapshot ID (`offsets inspect` lists them), so the next start does not \
continue it. Rows it has not read are skipped: --force is needed unless it had finished every table.\n\n\
Example:\n  oracle-cdc offsets edit drop-signal sig-42 --force",
        after_long_help = OFFSETS_EDIT_EXIT_CODES
    )]
    DropSignal(OffsetsSignalArg),

    /// Replace the offsets with an edited offsets document from a file or stdin
    #[command(
        long_about = "Replace the stored offsets with the offsets document in FILE (or on stdin with `-`), for \
scripted recovery: `offsets inspect --format json`'s offsets object, or a copy of offsets.json, edited with jq or \
a script. It is checked exactly as an --interactive edit is (valid offsets of this format, no unknown fields, the \
same database, tables captured by the settings) and, with the database reachable, as capture's start checks \
its offsets (no position past the current SCN, no table the database lacks and capture never captured); then \
weighed for what it would skip (--force accepts that, never an invalid document), diffed, backed up and written \
atomically; --dry-run shows the diff only.\n\n\
Examples:\n  oracle-cdc offsets edit apply fixed-offsets.json --dry-run\n  \
jq '.stream.commit_scn = 1000812' state/offsets.json | oracle-cdc offsets edit apply - --force",
        after_long_help = OFFSETS_EDIT_EXIT_CODES
    )]
    Apply(OffsetsApplyArgs),

    /// Set the file sink's acknowledged length (a position capture refused, CDC-7010)
    #[command(
        long_about = "Set how much of the file sink's current segment (cdc.sink.dir) counts as acknowledged: BYTES must end on a record (0, or just after a newline) and be within the segment; the record count is counted again from the segments. Capture cuts everything after it on the next start: a length before the stored one cuts acknowledged records and needs --force; a later one keeps records that streaming may publish again. --segment names another segment (segment-NNNNNN.jsonl); later segments are removed on the next start.\n\n\
Example:\n  oracle-cdc offsets edit set-sink 16384",
        after_long_help = OFFSETS_EDIT_EXIT_CODES
    )]
    SetSink(SetSinkArgs),

    /// Store the topic naming the settings ask for (capture refused a change, CDC-7013)
    #[command(
        long_about = "Store in the offsets the topic naming the settings ask for: cdc.sink.topic.prefix, and \
whether topics name the PDB (cdc.topic.include.pdb; with `auto`, which decides only at a first start, say \
--pdb true or --pdb false). Capture keeps the naming chosen at its first start and refuses settings that ask for \
another one (CDC-7013), because every table would move to another topic under its consumers; this edit is how the \
move is made on purpose. The next start publishes to the new topics; records already published stay in the old \
ones. Move the consumers with it.\n\n\
Examples:\n  oracle-cdc --set cdc.topic.include.pdb=true offsets edit set-topic-naming --dry-run\n  \
oracle-cdc offsets edit set-topic-naming --pdb true",
        after_long_help = OFFSETS_EDIT_EXIT_CODES
    )]
    SetTopicNaming(SetTopicNamingArgs),
}

#[derive(Debug, Args)]
pub struct SetTopicNamingArgs {
    /// Whether topics name the PDB (default: cdc.topic.include.pdb when it is true or false)
    #[arg(long, value_name = "BOOL")]
    pub pdb: Option<bool>,
}

#[derive(Debug, Args)]
pub struct OffsetsApplyArgs {
    /// The edited offsets document (JSON), or `-` for stdin
    #[arg(value_name = "FILE|-")]
    pub file: PathBuf,
}

#[derive(Debug, Args)]
pub struct OffsetsResetArgs {
    /// Print the diff and what would be skipped; write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Write a reset that skips data (the warning names what is lost)
    #[arg(long)]
    pub force: bool,
    /// Directory holding offsets.json (default: cdc.state.dir; an export's --out directory works too)
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Do not connect to the database (no DBID check; a warning says so)
    #[arg(long)]
    pub offline: bool,
}

#[derive(Debug, Args)]
pub struct SetSinkArgs {
    /// The acknowledged length of the segment, in bytes (0, or the end of a record)
    #[arg(value_name = "BYTES")]
    pub bytes: u64,
    /// The segment (default: the stored one)
    #[arg(long, value_name = "NAME")]
    pub segment: Option<String>,
}

#[derive(Debug, Args)]
pub struct SetScnArgs {
    /// The first commit SCN to publish
    #[arg(value_name = "SCN")]
    pub scn: u64,
    /// Restart mining at this SCN (at most SCN; default: SCN, or the stored resume SCN when older)
    #[arg(long, value_name = "SCN")]
    pub resume_scn: Option<u64>,
    /// Leave out this transaction (16 hex digits, as V$LOGMNR_CONTENTS.XID; stored in lower case, as records carry it) that committed at SCN; repeatable
    #[arg(long, value_name = "XID", value_delimiter = ',')]
    pub skip_xid: Vec<String>,
}

#[derive(Debug, Args)]
pub struct OffsetsTableArg {
    /// The table, as PDB.OWNER.TABLE or OWNER.TABLE
    #[arg(value_name = "TABLE")]
    pub table: String,
}

#[derive(Debug, Args)]
pub struct OffsetsSignalArg {
    /// The signal snapshot's id
    #[arg(value_name = "ID")]
    pub id: String,
}

/// `30s`, `5m`, `2h`, `1500ms` or plain seconds.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    let (num, unit) = t
        .find(|c: char| !c.is_ascii_digit())
        .map(|i| t.split_at(i))
        .unwrap_or((t, "s"));
    let n: u64 = num
        .parse()
        .map_err(|_| format!("`{text}` is not a duration like 30s, 5m, 1h or 1500ms"))?;
    let ms = match unit {
        "ms" => n,
        "s" => n * 1000,
        "m" => n * 60_000,
        "h" => n * 3_600_000,
        _ => return Err(format!("`{text}` has an unknown unit (ms, s, m or h)")),
    };
    Ok(std::time::Duration::from_millis(ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// The codes (`  N  meaning`) a long help's footer lists.
    fn footer_codes(help: &str) -> Vec<u8> {
        let footer = help.split("Exit codes:").nth(1).unwrap_or("");
        footer
            .lines()
            .filter_map(|l| l.split_whitespace().next()?.parse().ok())
            .collect()
    }

    #[test]
    fn each_command_footer_lists_only_its_own_exit_codes() {
        // Issue 37: every command's --help named "doctor FAIL"; 130 is a Ctrl-C's code, and
        // only capture and snapshot are stopped that way.
        fn walk(cmd: &mut clap::Command, path: String, seen: &mut Vec<(String, String)>) {
            // clap's own `help` subcommands print help, they return no code of their own.
            for sub in cmd.get_subcommands_mut().filter(|s| s.get_name() != "help") {
                let path = format!("{path} {}", sub.get_name());
                let help = sub.render_long_help().to_string();
                seen.push((path.clone(), help));
                walk(sub, path, seen);
            }
        }
        let mut seen = Vec::new();
        walk(&mut Cli::command(), "oracle-cdc".into(), &mut seen);
        assert!(seen.len() > 20, "{}", seen.len());
        for (path, help) in &seen {
            let codes = footer_codes(help);
            assert!(codes.starts_with(&[0, 1, 2]), "{path}: {codes:?}\n{help}");
            let doctor = path == "oracle-cdc doctor";
            let footer = help.split("Exit codes:").nth(1).unwrap_or("");
            assert_eq!(footer.contains("FAIL"), doctor, "{path}: {footer}");
            let stopped_by_ctrl_c =
                matches!(path.as_str(), "oracle-cdc capture" | "oracle-cdc snapshot");
            assert_eq!(codes.contains(&130), stopped_by_ctrl_c, "{path}: {footer}");
            assert!(
                codes.iter().all(|c| [0, 1, 2, 130].contains(c)),
                "{path}: {codes:?}"
            );
        }
    }

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("1500ms").unwrap().as_millis(), 1500);
        assert_eq!(parse_duration("2m").unwrap().as_secs(), 120);
        assert_eq!(parse_duration("7").unwrap().as_secs(), 7);
        assert!(parse_duration("7d").is_err());
        assert!(parse_duration("soon").is_err());
    }
}
