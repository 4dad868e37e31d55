//! `oracle-cdc emulator init | create | workload | dump | status | serve | build-dictionary`.

use super::args::{
    EmulatorCommand, EmulatorCreateArgs, EmulatorDir, EmulatorDumpArgs, EmulatorServeArgs,
    EmulatorStatusArgs, EmulatorWorkloadArgs, GlobalArgs, RowFormat, TableFormat,
};
use super::Printer;
use crate::encode;
use crate::errors::CdcError;
use crate::names::TableName;
use crate::source::emulator::{self, clock, workload, EmulatorConnector, Faults};
use crate::source::model::{ChunkRange, FlashbackQuery};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(
    cmd: EmulatorCommand,
    global: &GlobalArgs,
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    match cmd {
        EmulatorCommand::Init(a) => {
            if a.if_missing && a.dir.join(emulator::SCHEMA_FILE).exists() {
                // An emulated database is there (open checks it is one): leave it alone.
                let scn = EmulatorConnector::open(&a.dir, Faults::default())?
                    .with_replica(|r, _| r.current_scn)?;
                printer.outcome(&format!(
                    "{} already holds an emulated database (current SCN {scn}); left as it is",
                    a.dir.display()
                ))?;
                return Ok(ExitCode::SUCCESS);
            }
            let s = emulator::init(&a.dir, &a.schema, a.seed, clock::system())?;
            printer.outcome(&format!(
                "created {}: {} tables, {} rows, current SCN {}",
                a.dir.display(),
                s.tables,
                s.rows,
                s.scn
            ))?;
            Ok(ExitCode::SUCCESS)
        }
        EmulatorCommand::Create(a) => create(a, printer),
        EmulatorCommand::Workload(a) => workload(a, global, printer),
        EmulatorCommand::Dump(a) => dump(a, global, printer),
        EmulatorCommand::Status(a) => status(a, global, printer),
        EmulatorCommand::Serve(a) => serve(a, global, printer),
        EmulatorCommand::BuildDictionary(d) => {
            let dir = resolve_dir(&d, global)?;
            let mut w = emulator::writer::Writer::open(&dir, clock::system(), true)?;
            let (scn, sequence) = w.build_dictionary()?;
            printer.outcome(&format!(
                "LogMiner dictionary built into the redo at SCN {scn} (thread 1 sequence {sequence}, archived: DICTIONARY_BEGIN and DICTIONARY_END)"
            ))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `emulator create`: a standby or downstream directory of a primary.
fn create(a: EmulatorCreateArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    use emulator::topology::{self, Shipping, TopologyFile};
    let absolute = |p: &PathBuf| -> anyhow::Result<PathBuf> {
        Ok(p.canonicalize().map_err(|e| CdcError::io(p, e))?)
    };
    let (file, primary) = match (&a.standby_of, &a.downstream_of) {
        (Some(p), _) => (
            TopologyFile::PhysicalStandby {
                primary: absolute(p)?,
                apply_lag_scn: a.apply_lag_scn,
            },
            p,
        ),
        (None, Some(p)) => {
            let source = emulator::read_schema(p)?;
            let source_dbid = source.database.dbid;
            let dbid = a.dbid.unwrap_or(source_dbid.checked_add(1).unwrap_or(1));
            let scn = EmulatorConnector::open(p, Faults::default())?
                .with_replica(|r, _| r.current_scn)?;
            (
                TopologyFile::Downstream {
                    source: absolute(p)?,
                    name: a.name.to_ascii_uppercase(),
                    dbid,
                    scn,
                    shipping: match a.shipping {
                        super::args::ShippingArg::RealTime => Shipping::RealTime,
                        super::args::ShippingArg::Archived => Shipping::Archived,
                    },
                    from_sequence: a.from_sequence,
                    missing_sequences: a.missing_sequences.clone(),
                },
                p,
            )
        }
        (None, None) => {
            return Err(CdcError::Argument(
                "give --standby-of PRIMARY_DIR or --downstream-of SOURCE_DIR".into(),
            )
            .into())
        }
    };
    topology::create(&a.dir, &file)?;
    let conn = EmulatorConnector::open(&a.dir, Faults::default())?.sysdba();
    let mut s = conn.emulator_session()?;
    let db = crate::source::Catalog::database(&mut s)?;
    let scn = crate::source::Flashback::current_scn(&mut s)?;
    let what = match &file {
        TopologyFile::PhysicalStandby { apply_lag_scn, .. } => format!(
            "physical standby of {} (apply lag {apply_lag_scn} SCNs), applied SCN {scn}",
            primary.display()
        ),
        TopologyFile::Downstream { shipping, .. } => format!(
            "downstream {} (DBID {}) receiving the redo of {} ({} shipping), {} logs there",
            db.name,
            db.dbid,
            primary.display(),
            match shipping {
                Shipping::RealTime => "real-time",
                Shipping::Archived => "archived-log",
            },
            crate::source::Miner::logs(&mut s)?.len()
        ),
    };
    printer.outcome(&format!("created {}: {what}", a.dir.display()))?;
    Ok(ExitCode::SUCCESS)
}

/// The directory from the argument, else from `cdc.database.url: emulator:DIR`.
fn resolve_dir(dir: &EmulatorDir, global: &GlobalArgs) -> anyhow::Result<PathBuf> {
    if let Some(d) = &dir.dir {
        return Ok(d.clone());
    }
    Ok(dir_of_url(&super::load_settings(global)?)?)
}

/// The directory of `cdc.database.url: emulator:DIR` (without its `?service=`).
fn dir_of_url(settings: &crate::settings::Settings) -> Result<PathBuf, CdcError> {
    use crate::settings::{DatabaseUrl, Scheme};
    let url = settings.database_url();
    match settings.database() {
        Ok(DatabaseUrl::Emulator { dir, .. }) => Ok(dir),
        // An `emulator:` URL with a directory but options that are not: the URL's own error.
        // Without a directory it is as good as unset: the command asks for one.
        Err(e) if Scheme::of(url) == Scheme::Emulator && url != "emulator:" => Err(e),
        _ => Err(CdcError::Argument(
            "name the emulated database directory (DIR), or set cdc.database.url=emulator:DIR"
                .into(),
        )),
    }
}

fn workload(
    a: EmulatorWorkloadArgs,
    global: &GlobalArgs,
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    let dir = resolve_dir(&a.dir, global)?;
    let tables = a
        .tables
        .iter()
        .map(|t| t.parse::<TableName>().map_err(CdcError::Argument))
        .collect::<Result<Vec<_>, _>>()?;
    if a.transactions.is_none() && a.duration.is_none() {
        return Err(
            CdcError::Workload("give --transactions N or --duration D (or both)".into()).into(),
        );
    }
    let options = workload_options(&a, tables)?;
    let mut writer = open_writer(&dir, a.wait)?;
    let summary = workload::Workload::new(&mut writer, options)?.run(&|| false)?;
    let value = serde_json::to_value(&summary)?;
    if a.format == TableFormat::Json {
        // Asked for by name, so a script gets it even with --quiet. The counts the table
        // leaves out when zero are there, so every key is always present.
        let mut value = value;
        if let Some(o) = value.as_object_mut() {
            for key in [
                "tables_created",
                "truncates",
                "moves",
                "lob_edits",
                "scn_jumps",
            ] {
                o.entry(key).or_insert(json!(0));
            }
        }
        printer.json(&value)?;
        return Ok(ExitCode::SUCCESS);
    }
    if printer.quiet {
        // Often run in the background of another command's terminal (the README's main job).
        return Ok(ExitCode::SUCCESS);
    }
    let rows = value
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| vec![k.clone(), v.to_string()])
                .collect()
        })
        .unwrap_or_default();
    printer.table(&["workload", "count"], rows)?;
    Ok(ExitCode::SUCCESS)
}

/// The workload the arguments ask for, every one of them mapped (not `..Default::default()`, so
/// a new argument cannot be left out unnoticed).
fn workload_options(
    a: &EmulatorWorkloadArgs,
    tables: Vec<TableName>,
) -> Result<workload::WorkloadOptions, CdcError> {
    Ok(workload::WorkloadOptions {
        transactions: a.transactions,
        duration: a.duration,
        rate: a.rate,
        mix: workload::WorkloadOptions::parse_mix(&a.mix)?,
        tx_size: workload::WorkloadOptions::parse_range(&a.tx_size)?,
        rollback_pct: a.rollback_pct,
        savepoint_pct: a.savepoint_pct,
        key_update_pct: a.key_update_pct,
        row_move_pct: a.row_move_pct,
        long_every: a.long_every,
        long_span: a.long_span,
        ddl_every: a.ddl_every,
        create_table_every: a.create_table_every,
        truncate_every: a.truncate_every,
        move_every: a.move_every,
        shared_commit_pct: a.shared_commit_pct,
        tables,
        seed: a.seed,
        lob_pct: a.lob_pct,
        lob_edit_pct: a.lob_edit_pct,
        scn_jump_every: a.scn_jump_every,
        scn_jump: a.scn_jump,
    })
}

/// The database's writer; with `wait`, once the writer that holds it (a workload started
/// earlier, the README's loop run again before its last workload ended) has finished. The wait
/// is said once, with --quiet too: a workload that writes nothing for a while must say why.
fn open_writer(dir: &std::path::Path, wait: bool) -> anyhow::Result<emulator::writer::Writer> {
    let mut told = false;
    loop {
        match emulator::writer::Writer::open(dir, clock::system(), true) {
            Err(CdcError::EmulatorBusy { pid, .. }) if wait => {
                if !told {
                    tracing::warn!(
                        target: crate::ops::STALL_LOG_TARGET,
                        "another writer (pid {pid}) holds {}: this workload waits for it to \
                         finish (--wait), then runs",
                        dir.display()
                    );
                    told = true;
                }
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
            other => return Ok(other?),
        }
    }
}

fn dump(a: EmulatorDumpArgs, global: &GlobalArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let dir = resolve_dir(&a.dir, global)?;
    let table: TableName = a.table.parse().map_err(CdcError::Argument)?;
    let conn = EmulatorConnector::open(&dir, Faults::default())?;
    if conn.is_downstream() {
        return Err(CdcError::Database(format!(
            "ORA-00942: table or view does not exist: {table} ({} is a downstream mining database; dump its source)",
            dir.display()
        ))
        .into());
    }
    // The table's layout needs no rows: they are read as they are written out.
    let (columns, key, scn) = conn.with_replica_meta(|r, _| -> Result<_, CdcError> {
        let t = r.table(&table)?;
        Ok((
            t.columns.clone(),
            t.def.primary_key.clone(),
            a.scn.unwrap_or(r.current_scn),
        ))
    })??;
    let query = FlashbackQuery {
        table: table.clone(),
        columns: columns.iter().map(|c| c.name.clone()).collect(),
        key_columns: key,
        scn,
        range: ChunkRange::Whole,
        filter: None,
        row_ids: a.rowid,
    };
    let stdout = std::path::Path::new("stdout");
    let mut out = std::io::BufWriter::with_capacity(1 << 16, printer.stdout_lock());
    let rows = match a.format {
        RowFormat::Jsonl => {
            let keys: Vec<Vec<u8>> = columns.iter().map(|c| encode::json_key(&c.name)).collect();
            let mut line = Vec::with_capacity(512);
            conn.read_as_of_each(&query, &mut |row| {
                line.clear();
                if a.rowid {
                    line.extend_from_slice(b"{\"ROWID\":");
                    encode::write_json_str(&mut line, &row.rowid);
                    let start = line.len();
                    encode::write_json_row(&mut line, &keys, &columns, &row.values);
                    // The row's own opening `{` becomes the `,` after the ROWID (a table has
                    // at least one column).
                    line[start] = b',';
                } else {
                    encode::write_json_row(&mut line, &keys, &columns, &row.values);
                }
                line.push(b'\n');
                out.write_all(&line).map_err(|e| CdcError::io(stdout, e))
            })?
        }
        RowFormat::Csv => {
            let mut w = csv::Writer::from_writer(&mut out);
            let mut header: Vec<String> = Vec::new();
            if a.rowid {
                header.push("ROWID".into());
            }
            header.extend(columns.iter().map(|c| c.name.clone()));
            w.write_record(&header)?;
            let mut rec: Vec<String> = Vec::new();
            let n = conn.read_as_of_each(&query, &mut |row| {
                rec.clear();
                if a.rowid {
                    rec.push(row.rowid.to_string());
                }
                rec.extend(
                    columns
                        .iter()
                        .zip(&row.values)
                        // As CSV exports write them: times as ISO-8601 text.
                        .map(|(c, v)| encode::to_csv_iso(v, &c.data_type)),
                );
                w.write_record(&rec).map_err(|e| {
                    // A reader gone (broken pipe) stays an I/O error: the exit is then quiet.
                    let io = match e.into_kind() {
                        csv::ErrorKind::Io(io) => io,
                        other => std::io::Error::other(format!("{other:?}")),
                    };
                    CdcError::io(stdout, io)
                })
            })?;
            w.flush()?;
            n
        }
    };
    out.flush()?;
    printer.note(&format!("{rows} rows of {table} as of SCN {scn}"));
    Ok(ExitCode::SUCCESS)
}

fn status(
    a: EmulatorStatusArgs,
    global: &GlobalArgs,
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    let dir = resolve_dir(&a.dir, global)?;
    let conn = EmulatorConnector::open(&dir, Faults::default())?.sysdba();
    // What the database's views show (a downstream: its own identity and the shipped logs).
    let mut session = conn.emulator_session()?;
    let db = crate::source::Catalog::database(&mut session)?;
    let downstream = conn.is_downstream();
    // A primary's newest change (V$DATABASE.CURRENT_SCN is one past it while no transaction
    // is open, `Replica::current_scn_view`): what committed work has reached, the SCN to stop
    // a capture at. A standby's applied SCN, a downstream's own.
    let current_scn = match (downstream, db.role) {
        (false, crate::source::model::DatabaseRole::Primary) => {
            conn.with_replica_meta(|r, _| r.newest_change_scn())?
        }
        _ => crate::source::Flashback::current_scn(&mut session)?,
    };
    let log_files = crate::source::Miner::logs(&mut session)?;
    let threads = crate::source::Miner::redo_threads(&mut session)?;
    let topology = conn.topology_json();
    let report = conn.with_replica_meta(|r, now| {
        let tables: Vec<_> = r
            .tables
            .iter()
            .filter(|_| !downstream)
            .map(|t| {
                let mut table = json!({
                    "table": t.def.name.to_string(),
                    "rows": t.live_rows,
                    "columns": t.columns.len(),
                    "key": t.def.primary_key.join(","),
                    "organization": match t.def.organization {
                        crate::source::model::Organization::Heap => "heap",
                        crate::source::model::Organization::IndexOrganized => "index-organized",
                    },
                    "row_movement": t.def.row_movement,
                    "partitions": t.partition_objects.len(),
                    "extents": t.extents.len(),
                    "last_ddl_scn": t.last_ddl_scn,
                });
                // A clustered table's extents are its cluster's, counted with its first table.
                if let Some(c) = &t.def.cluster {
                    table["cluster"] = json!(c);
                }
                table
            })
            .collect();
        let logs: Vec<_> = log_files
            .iter()
            .map(|l| {
                json!({
                    "thread": l.thread, "sequence": l.sequence, "first_scn": l.first_scn,
                    "next_scn": l.next_scn, "archived": l.archived, "name": l.name,
                })
            })
            .collect();
        let open: Vec<_> = r
            .open
            .iter()
            .filter(|_| !downstream)
            .map(|(x, t)| json!({"xid": x.hex(), "start_scn": t.start_scn, "thread": t.thread, "changes": t.changes.len()}))
            .collect();
        json!({
            "database": {
                "name": db.name, "dbid": db.dbid, "version": db.version,
                "role": db.role.as_oracle(), "open_mode": db.open_mode.as_oracle(),
                "archivelog": db.archivelog, "multitenant": db.cdb,
            },
            "current_scn": current_scn,
            "topology": topology,
            "undo": {
                "retention_seconds": db.undo_retention_secs,
                "oldest_scn": r.undo_floor(now),
            },
            "flashback_oldest_scn": r.schema.database.start_scn,
            "tables": tables,
            "logs": logs,
            // V$THREAD: how far each thread's LGWR has written (what LogMiner can see).
            "threads": threads.iter().map(|t| json!({
                "thread": t.thread, "status": t.status, "enabled": t.enabled,
                "sequence": t.sequence, "last_redo_scn": t.last_redo_scn,
                "last_redo_time": t.last_redo_time,
                "last_redo_sequence": t.last_redo_sequence,
                "last_redo_block": t.last_redo_block,
                "enabled_scn": t.enabled_scn,
            })).collect::<Vec<_>>(),
            "open_transactions": open,
        })
    })?;
    match a.format {
        TableFormat::Json => printer.json(&report)?,
        TableFormat::Table => {
            let db = &report["database"];
            printer.line(&format!(
                "{} (DBID {}, {} {}, {}), current SCN {}",
                db["name"].as_str().unwrap_or_default(),
                db["dbid"],
                db["role"].as_str().unwrap_or_default(),
                db["open_mode"].as_str().unwrap_or_default(),
                db["version"].as_str().unwrap_or_default(),
                report["current_scn"]
            ))?;
            printer.line(&format!(
                "undo: retention {}s, reads AS OF SCN {} and later can be answered (flashback history from SCN {})",
                report["undo"]["retention_seconds"], report["undo"]["oldest_scn"], report["flashback_oldest_scn"]
            ))?;
            let cell = |v: &serde_json::Value| match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Null => String::new(),
                other => other.to_string(),
            };
            let rows_of = |key: &str, cols: &[&str]| -> Vec<Vec<String>> {
                report[key]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .map(|o| cols.iter().map(|c| cell(&o[*c])).collect())
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let tcols = [
                "table",
                "rows",
                "columns",
                "key",
                "organization",
                "row_movement",
                "partitions",
                "extents",
            ];
            printer.table(&tcols, rows_of("tables", &tcols))?;
            let lcols = ["thread", "sequence", "first_scn", "next_scn", "archived"];
            printer.table(&lcols, rows_of("logs", &lcols))?;
            let ocols = ["xid", "start_scn", "thread", "changes"];
            let open = rows_of("open_transactions", &ocols);
            if open.is_empty() {
                printer.line("no open transactions")?;
            } else {
                printer.table(&ocols, open)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `emulator serve`: the listener runs until Ctrl-C or SIGTERM.
fn serve(a: EmulatorServeArgs, global: &GlobalArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let dir = resolve_dir(&a.dir, global)?;
    let settings = super::load_settings(global)?;
    let options = emulator::net::ServeOptions {
        listen: a.listen.clone(),
        faults: settings.emulator_faults(),
        sdu: a.sdu,
        tls: match (&a.tls_cert, &a.tls_key) {
            (Some(cert), Some(key)) => Some(emulator::net::TlsFiles {
                cert: cert.clone(),
                key: key.clone(),
                client_ca: a.tls_client_ca.clone(),
            }),
            // clap requires both or neither.
            _ => None,
        },
    };
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::SeqCst));
    let served = emulator::net::serve(&dir, &options)?;
    let addr = served.local_addr();
    match a.format {
        TableFormat::Json => {
            let services: Vec<serde_json::Value> = served
                .services
                .iter()
                .map(|s| json!({"service": s, "url": served.url(s)}))
                .collect();
            printer.json(
                &json!({"listening": addr.to_string(), "tls": served.tls, "sdu": served.sdu, "services": services}),
            )?;
        }
        TableFormat::Table => {
            let rows = served
                .services
                .iter()
                .map(|s| vec![s.clone(), served.url(s)])
                .collect();
            printer.table(&["service", "cdc.database.url"], rows)?;
        }
    }
    if !printer.quiet {
        super::progress::note(&format!(
            "serving {} on {addr}{} (SDU up to {} bytes); log in as a user of its schema (password: database.users[].password, default `{}`); Ctrl-C stops",
            dir.display(),
            if served.tls { " over TLS (TCPS)" } else { "" },
            served.sdu,
            emulator::net::DEFAULT_PASSWORD
        ));
    }
    while !stop.load(std::sync::atomic::Ordering::SeqCst) {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    drop(served);
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::{dir_of_url, workload, workload_options};
    use crate::cli::args::{Cli, Command, EmulatorCommand};
    use crate::errors::Code;
    use crate::settings::Settings;
    use clap::Parser;
    use std::path::PathBuf;

    /// The directory of `url`; "": of settings without a URL (an empty one is refused at load).
    fn dir(url: &str) -> Result<PathBuf, Code> {
        let pairs: Vec<String> = match url {
            "" => vec![],
            _ => vec![format!("cdc.database.url={url}")],
        };
        let s = Settings::from_pairs(&pairs).map_err(|e| e.code())?;
        dir_of_url(&s).map_err(|e| e.code())
    }

    #[test]
    fn the_directory_comes_from_an_emulator_url_without_its_service() {
        assert_eq!(dir("emulator:./demo-db"), Ok(PathBuf::from("./demo-db")));
        assert_eq!(dir("emulator:./db?service=PDB1"), Ok(PathBuf::from("./db")));
        assert_eq!(dir("emulator:./db?user=x"), Err(Code::Cdc2007));
        let argument = dir("").unwrap_err();
        assert_ne!(argument, Code::Cdc2007);
        for url in ["emulator:", "replay:./r", "db:1521/X", "replay:"] {
            assert_eq!(dir(url), Err(argument), "{url}");
        }
    }

    /// `WorkloadOptions::default()` is what `emulator workload` runs with when no flag is given,
    /// so the tests that name only what they change run the CLI's workload otherwise.
    #[test]
    fn the_default_workload_is_the_clis_without_flags() {
        let cli = match Cli::try_parse_from(["oracle-cdc", "emulator", "workload", "db"]) {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        };
        let Some(Command::Emulator(EmulatorCommand::Workload(a))) = cli.command else {
            panic!("not the workload command: {:?}", cli.command);
        };
        let built = match workload_options(&a, Vec::new()) {
            Ok(o) => o,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(built, workload::WorkloadOptions::default());
    }
}
