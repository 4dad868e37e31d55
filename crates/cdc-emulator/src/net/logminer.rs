//! A LogMiner session per connection, as DBMS_LOGMNR keeps one per database session:
//! ADD_LOGFILE builds the log list (NEW starts a new one), START_LOGMNR fixes the SCN window
//! and the dictionary, V$LOGMNR_CONTENTS reads it, END_LOGMNR ends it.
//!
//! The rows are the in-process session's [`Miner::mine`](cdc_core::session::Miner::mine) of the
//! window with nothing filtered (the statement's WHERE clause is the SQL engine's), so the
//! privilege checks, the per-PDB rules, the dictionary, the window checks (ORA-01291) and the
//! fault drills (ORA-00310 part-way through, ORA-01284 …) are the same ones.
//!
//! Constants are DBMS_LOGMNR's (`dbmslm.sql`): ADD_LOGFILE options NEW 1, REMOVEFILE 2,
//! ADDFILE 3; START_LOGMNR options COMMITTED_DATA_ONLY 2, SKIP_CORRUPTION 4,
//! DDL_DICT_TRACKING 8, DICT_FROM_ONLINE_CATALOG 16, DICT_FROM_REDO_LOGS 32,
//! NO_SQL_DELIMITER 64, PRINT_PRETTY_SQL 512, CONTINUOUS_MINE 1024, NO_ROWID_IN_STMT 2048,
//! STRING_LITERALS_IN_STMT 4096.

use super::ora_error;
use super::relation::*;
use crate::EmulatorSession;
use cdc_core::model::{Dictionary, LogMinerRow, Scn};
use cdc_core::{filter::MiningFilter, session::Miner};
use emulator_sql::{Argument, Relation, Row};
use oracle_datum::{DateTime, Datum, OraError, OraType};

pub const NEW: u32 = 1;
pub const REMOVEFILE: u32 = 2;
pub const ADDFILE: u32 = 3;
pub const COMMITTED_DATA_ONLY: u32 = 2;
pub const DDL_DICT_TRACKING: u32 = 8;
pub const DICT_FROM_ONLINE_CATALOG: u32 = 16;
pub const DICT_FROM_REDO_LOGS: u32 = 32;
pub const CONTINUOUS_MINE: u32 = 1024;

/// DBMS_LOGMNR's constants by name.
pub fn constant(name: &str) -> Option<u32> {
    Some(match name {
        "NEW" => NEW,
        "REMOVEFILE" => REMOVEFILE,
        "ADDFILE" => ADDFILE,
        "COMMITTED_DATA_ONLY" => COMMITTED_DATA_ONLY,
        "SKIP_CORRUPTION" => 4,
        "DDL_DICT_TRACKING" => DDL_DICT_TRACKING,
        "DICT_FROM_ONLINE_CATALOG" => DICT_FROM_ONLINE_CATALOG,
        "DICT_FROM_REDO_LOGS" => DICT_FROM_REDO_LOGS,
        "NO_SQL_DELIMITER" => 64,
        "PRINT_PRETTY_SQL" => 512,
        "CONTINUOUS_MINE" => CONTINUOUS_MINE,
        "NO_ROWID_IN_STMT" => 2048,
        "STRING_LITERALS_IN_STMT" => 4096,
        _ => return None,
    })
}

/// One connection's LogMiner state.
#[derive(Debug, Default)]
pub struct LogMiner {
    logs: Vec<String>,
    started: Option<(Scn, Scn)>,
}

/// DBMS_LOGMNR_D's constants (PL/SQL Packages and Types Reference, DBMS_LOGMNR_D
/// "Constants"): where BUILD puts the dictionary.
pub fn dictionary_constant(name: &str) -> Option<u32> {
    Some(match name {
        "STORE_IN_FLAT_FILE" => STORE_IN_FLAT_FILE,
        "STORE_IN_REDO_LOGS" => STORE_IN_REDO_LOGS,
        "MARK_SAFE_MINE_POINT" => 8,
        _ => return None,
    })
}

const STORE_IN_FLAT_FILE: u32 = 1;
const STORE_IN_REDO_LOGS: u32 = 2;

/// `DBMS_LOGMNR_D.BUILD(dictionary_filename, dictionary_location, options)`: into the redo
/// only; a flat file is desupported from 19c on (ORA-44613 names it).
pub fn build(s: &mut EmulatorSession, args: &[Argument]) -> Result<(), OraError> {
    let options = number(arg(args, "OPTIONS", 2), "OPTIONS")?.unwrap_or(0) as u32;
    let flat = arg(args, "DICTIONARY_FILENAME", 0).is_some()
        || arg(args, "DICTIONARY_LOCATION", 1).is_some()
        || options & STORE_IN_FLAT_FILE != 0;
    if flat || options & STORE_IN_REDO_LOGS == 0 {
        return Err(OraError::new(
            44613,
            "LogMiner flat file dictionary is de-supported (use OPTIONS => DBMS_LOGMNR_D.STORE_IN_REDO_LOGS)",
        ));
    }
    cdc_core::session::Miner::build_dictionary(s).map_err(super::ora_error)
}

fn arg<'a>(args: &'a [Argument], name: &str, position: usize) -> Option<&'a Datum> {
    args.iter()
        .find(|a| {
            a.name
                .as_deref()
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
        .or_else(|| args.get(position).filter(|a| a.name.is_none()))
        .map(|a| &a.value)
        .filter(|d| !d.is_null())
}

fn number(d: Option<&Datum>, what: &str) -> Result<Option<u64>, OraError> {
    match d {
        None => Ok(None),
        Some(Datum::Number(n)) => n.parse::<u64>().map(Some).map_err(|_| {
            OraError::new(1281, format!("SCN range specified is invalid ({what} {n})"))
        }),
        Some(other) => Err(OraError::new(
            6550,
            format!("PLS-00306: wrong number or types of arguments in call ({what} {other:?})"),
        )),
    }
}

impl LogMiner {
    /// `DBMS_LOGMNR.<procedure>(args)`.
    pub fn call(
        &mut self,
        s: &mut EmulatorSession,
        procedure: &str,
        args: &[Argument],
    ) -> Result<(), OraError> {
        let version = s.version_major().map_err(ora_error)?;
        // EXECUTE on DBMS_LOGMNR (or EXECUTE_CATALOG_ROLE) for every call.
        if !(s.user.privileges.roles.contains("EXECUTE_CATALOG_ROLE")
            || s.user.privileges.objects.contains(&(
                "SYS".into(),
                "DBMS_LOGMNR".into(),
                "EXECUTE".into(),
            )))
        {
            return Err(OraError::new(
                6550,
                "line 1, column 7: PLS-00201: identifier 'SYS.DBMS_LOGMNR' must be declared",
            ));
        }
        if s.pdb().is_some() && (version < 19 || procedure == "ADD_LOGFILE") {
            return Err(OraError::new(65040, format!("operation not allowed from within a pluggable database (DBMS_LOGMNR.{procedure})")));
        }
        match procedure {
            "ADD_LOGFILE" => self.add_logfile(s, args),
            "REMOVE_LOGFILE" => {
                let name = text_arg(args, "LOGFILENAME", 0)?;
                let before = self.logs.len();
                self.logs.retain(|l| l != &name);
                if before == self.logs.len() {
                    return Err(OraError::new(
                        1290,
                        format!("cannot remove unlisted logfile {name}"),
                    ));
                }
                Ok(())
            }
            "START_LOGMNR" => self.start(s, args),
            "END_LOGMNR" => {
                if self.started.is_none() && self.logs.is_empty() {
                    return Err(OraError::new(
                        1307,
                        "no LogMiner session is currently active",
                    ));
                }
                *self = LogMiner::default();
                s.dictionary = None;
                Ok(())
            }
            other => Err(OraError::new(
                6550,
                format!("line 1, column 7: PLS-00302: component '{other}' must be declared"),
            )),
        }
    }

    fn add_logfile(&mut self, s: &mut EmulatorSession, args: &[Argument]) -> Result<(), OraError> {
        let name = text_arg(args, "LOGFILENAME", 0)?;
        let options = number(arg(args, "OPTIONS", 1), "OPTIONS")?.unwrap_or(u64::from(ADDFILE));
        let known = s.logs().map_err(ora_error)?;
        if !known.iter().any(|l| l.name == name) {
            return Err(OraError::new(1284, format!("file {name} cannot be opened")));
        }
        match options as u32 {
            NEW => {
                *self = LogMiner::default();
                self.logs.push(name);
            }
            ADDFILE if self.logs.contains(&name) => {
                return Err(OraError::new(
                    1289,
                    format!("cannot add duplicate logfile {name}"),
                ))
            }
            ADDFILE => self.logs.push(name),
            other => {
                return Err(OraError::new(
                    1296,
                    format!("character set mismatch or invalid option {other} for ADD_LOGFILE"),
                ))
            }
        }
        Ok(())
    }

    fn start(&mut self, s: &mut EmulatorSession, args: &[Argument]) -> Result<(), OraError> {
        let start = number(arg(args, "STARTSCN", 0), "STARTSCN")?.unwrap_or(0);
        let end = number(arg(args, "ENDSCN", 1), "ENDSCN")?.unwrap_or(u64::MAX >> 16);
        let options = number(arg(args, "OPTIONS", 4), "OPTIONS")?.unwrap_or(0) as u32;
        if options & CONTINUOUS_MINE != 0 && s.version_major().map_err(ora_error)? >= 19 {
            return Err(OraError::new(
                44609,
                "CONTINOUS_MINE is desupported for use with DBMS_LOGMNR.START_LOGMNR",
            ));
        }
        if options & COMMITTED_DATA_ONLY != 0 {
            return Err(OraError::new(
                3001,
                "unimplemented feature (the emulator's LogMiner has no COMMITTED_DATA_ONLY)",
            ));
        }
        if start > end {
            return Err(OraError::new(
                1281,
                format!("SCN range specified is invalid ({start} > {end})"),
            ));
        }
        // In CDB$ROOT and outside a CDB LogMiner reads the logs added; a PDB (19c+) finds them.
        if s.pdb().is_none() && self.logs.is_empty() {
            return Err(OraError::new(
                1292,
                "no log file has been specified for the current LogMiner session",
            ));
        }
        s.dictionary = Some(if options & DICT_FROM_REDO_LOGS != 0 {
            Dictionary::RedoLogs
        } else {
            Dictionary::OnlineCatalog
        });
        self.started = Some((start, end));
        Ok(())
    }

    /// V$LOGMNR_CONTENTS of the started session.
    pub fn contents(&self, s: &mut EmulatorSession) -> Result<Relation, OraError> {
        let Some((start, end)) = self.started else {
            return Err(OraError::new(1306, "dbms_logmnr.start_logmnr() must be invoked before selecting from v$logmnr_contents"));
        };
        let mut rows = Vec::new();
        let result = s.mine(start, end, &MiningFilter::default(), &mut |r| {
            rows.push(contents_row(r));
            Ok(())
        });
        let mut rows: Vec<Result<Row, OraError>> = rows.into_iter().map(Ok).collect();
        match result {
            Ok(()) => {}
            // Part-way through the window (ORA-00310, ORA-00308): the rows before it, then
            // the error at the fetch that reaches it; before any row: at once.
            Err(e) if !rows.is_empty() => rows.push(Err(ora_error(e))),
            Err(e) => return Err(ora_error(e)),
        }
        Ok(Relation {
            columns: columns(&CONTENTS),
            rows: Box::new(rows.into_iter()),
            ordered_by: Vec::new(),
            rowid_type: OraType::Rowid,
            exact_bounds: Vec::new(),
        })
    }
}

fn text_arg(args: &[Argument], name: &str, position: usize) -> Result<String, OraError> {
    match arg(args, name, position) {
        Some(Datum::Text(s)) => Ok(s.to_string()),
        _ => Err(OraError::new(
            6550,
            format!("PLS-00306: wrong number or types of arguments in call ({name})"),
        )),
    }
}

/// V$LOGMNR_CONTENTS's columns (those the adapter reads and a few more).
const CONTENTS: [(&str, OraType); 28] = [
    ("SCN", NUM),
    ("START_SCN", NUM),
    ("COMMIT_SCN", NUM),
    ("TIMESTAMP", OraType::Date),
    ("START_TIMESTAMP", OraType::Date),
    ("COMMIT_TIMESTAMP", OraType::Date),
    ("XIDUSN", NUM),
    ("XIDSLT", NUM),
    ("XIDSQN", NUM),
    ("XID", OraType::Raw(8)),
    ("OPERATION", OraType::Varchar2(32)),
    ("OPERATION_CODE", NUM),
    ("SEG_OWNER", NAME),
    ("TABLE_NAME", NAME),
    ("ROW_ID", OraType::Varchar2(18)),
    ("USERNAME", NAME),
    ("SQL_REDO", OraType::Varchar2(4000)),
    ("CSF", NUM),
    ("ROLLBACK", NUM),
    ("RS_ID", OraType::Varchar2(32)),
    ("SSN", NUM),
    ("THREAD#", NUM),
    ("SEQUENCE#", NUM),
    ("STATUS", NUM),
    ("INFO", OraType::Varchar2(32)),
    ("SRC_CON_NAME", NAME),
    ("DATA_OBJ#", NUM),
    ("DATA_OBJD#", NUM),
];

fn date(text: &str) -> Datum {
    DateTime::parse(text).map_or(Datum::Null, Datum::Date)
}

fn contents_row(r: LogMinerRow) -> Row {
    let xid: Vec<u8> = (0..r.xid.len() / 2)
        .filter_map(|i| u8::from_str_radix(r.xid.get(2 * i..2 * i + 2)?, 16).ok())
        .collect();
    Row {
        rowid: None,
        values: vec![
            n(r.scn),
            opt_n(r.start_scn),
            opt_n(r.commit_scn),
            date(&r.timestamp),
            Datum::Null,
            r.commit_timestamp.as_deref().map_or(Datum::Null, date),
            n(r.xidusn),
            n(r.xidslt),
            n(r.xidsqn),
            if xid.len() == 8 {
                Datum::Bytes(xid)
            } else {
                Datum::Null
            },
            t(r.operation),
            n(r.operation_code),
            opt(r.seg_owner),
            opt(r.table_name),
            t(r.row_id),
            t(r.username),
            t(r.sql_redo),
            n(r.csf),
            n(r.rollback),
            t(r.rs_id),
            n(r.ssn),
            n(r.thread),
            n(r.sequence),
            n(r.status),
            opt(r.info),
            t(r.src_con_name),
            n(r.data_obj),
            n(r.data_obj),
        ],
    }
}
