//! One wire session's database, as the SQL engine sees it ([`emulator_sql::Database`]): which
//! relation a name is, the functions and packaged constants the database answers, DBMS_LOGMNR
//! calls, ALTER SESSION SET CONTAINER / CURRENT_SCHEMA, and writes.
//!
//! Names resolve as on Oracle: an unqualified name (or one in SYS or PUBLIC, the public
//! synonyms' owners) is a dictionary view when it names one; anything else is a table in the
//! session's current schema (its user, unless ALTER SESSION SET CURRENT_SCHEMA moved it) or the
//! schema named.

use super::logminer::{self, LogMiner};
use super::tables::{self, Transaction};
use super::{account_views as acc, catalog_views as cat, dynamic_views as dynv, ora_error};
use crate::access::ROOT;
use crate::EmulatorSession;
use cdc_core::charset::Charset;
use cdc_core::session::prelude::*;
use emulator_sql::{Argument, CharsetOrder, Database, ObjectName, Relation, ScanRequest};
use oracle_datum::{Column, DateTime, Datum, OraError, OraType};
use std::borrow::Cow;

/// A wire session's database.
pub struct WireDatabase {
    pub(super) session: EmulatorSession,
    logminer: LogMiner,
    tx: Option<Transaction>,
    /// The service the client connected to (SYS_CONTEXT('USERENV','SERVICE_NAME')).
    service: String,
    /// ALTER SESSION SET CURRENT_SCHEMA; `None`: the user's own.
    current_schema: Option<String>,
    /// V$SESSION.SID of this session.
    sid: u32,
}

impl WireDatabase {
    pub fn new(session: EmulatorSession, service: &str, sid: u32) -> Self {
        WireDatabase {
            session,
            logminer: LogMiner::default(),
            tx: None,
            service: service.to_string(),
            current_schema: None,
            sid,
        }
    }

    fn schema(&self) -> String {
        self.current_schema
            .clone()
            .unwrap_or_else(|| self.session.user.name.clone())
    }

    /// The binds as the statement sees them: character data bound in the database character
    /// set (VARCHAR2, CHAR, LONG, CLOB, not their national forms) is converted to the
    /// container's set, as Oracle converts a client's bind to it on the server: a character the
    /// set lacks becomes its replacement character ('¿') before any comparison or write sees it.
    /// A national bind keeps every character. ASCII needs no conversion, so most statements
    /// never look the set up.
    pub fn bound_values<'b>(
        &self,
        binds: impl ExactSizeIterator<Item = (&'b Datum, &'b OraType)>,
    ) -> Result<Vec<Datum>, OraError> {
        let mut set = None;
        let mut out = Vec::with_capacity(binds.len());
        for (value, ty) in binds {
            let converted = match value {
                Datum::Text(t) if !t.is_ascii() && database_character_data(ty) => {
                    let set = match set {
                        Some(set) => set,
                        None => *set.insert(self.database_set()?),
                    };
                    Datum::text(set.conform(t.to_string()))
                }
                other => other.clone(),
            };
            out.push(converted);
        }
        Ok(out)
    }

    /// The container's database character set (a PDB may have its own).
    fn database_set(&self) -> Result<Charset, OraError> {
        Ok(self
            .session
            .replica()
            .map_err(ora_error)?
            .schema
            .database
            .charsets_in(self.session.pdb())
            .database)
    }

    /// A statement's text as the database parses it: the client sends it in its own character
    /// set and Oracle converts it to the database's, so a literal's characters the set lacks
    /// become '¿' before the statement runs, an N'…' literal's too (Globalization Support
    /// Guide, "NCHAR Literal Replacement": only OCI's client-side replacement, which thin
    /// drivers do not do, keeps them; UNISTR of escapes does).
    pub fn statement_text<'s>(&self, sql: &'s str) -> Result<Cow<'s, str>, OraError> {
        if sql.is_ascii() {
            return Ok(Cow::Borrowed(sql));
        }
        Ok(Cow::Owned(self.database_set()?.conform(sql.to_string())))
    }

    /// Roll back what is open (the connection ended).
    pub fn close(&mut self) {
        if let Err(e) = tables::rollback(&mut self.tx) {
            tracing::warn!("rolling back a closed session's transaction: {e}");
        }
    }

    /// A dictionary view by name, if it is one.
    fn view(&mut self, name: &str, req: &ScanRequest) -> Option<Result<Relation, OraError>> {
        let s = &mut self.session;
        let r = match name {
            "DUAL" => Ok(dynv::dual()),
            "ALL_TABLES" => cat::all_tables(s),
            "ALL_TAB_COLS" => cat::all_tab_cols(s, true),
            "ALL_TAB_COLUMNS" => cat::all_tab_cols(s, false),
            "ALL_CONSTRAINTS" => cat::all_constraints(s),
            "ALL_CONS_COLUMNS" => cat::all_cons_columns(s),
            "ALL_INDEXES" => cat::all_indexes(s),
            "ALL_IND_COLUMNS" => cat::all_ind_columns(s),
            "DBA_OBJECTS" => cat::objects(s, true),
            "ALL_OBJECTS" => cat::objects(s, false),
            "ALL_TAB_STATISTICS" => cat::all_tab_statistics(s),
            "ALL_LOG_GROUPS" => cat::all_log_groups(s),
            "ALL_USERS" => acc::all_users(s),
            "ALL_EXTERNAL_TABLES" => Ok(acc::all_external_tables()),
            "DBA_EXTENTS" => acc::dba_extents(s),
            "DBA_TABLESPACES" => acc::dba_tablespaces(s),
            "DBA_CONTAINER_DATA" => acc::dba_container_data(s),
            "SESSION_PRIVS" => Ok(acc::session_privs(s)),
            "ALL_POLICIES" => super::policy_views::all_policies(s),
            "ALL_SEC_RELEVANT_COLS" => super::policy_views::all_sec_relevant_cols(s),
            "REDACTION_POLICIES" => super::policy_views::redaction_policies(s),
            "REDACTION_COLUMNS" => super::policy_views::redaction_columns(s),
            "REDACTION_EXPRESSIONS" => super::policy_views::redaction_expressions(s),
            "SESSION_ROLES" => Ok(acc::session_roles(s)),
            "USER_RESOURCE_LIMITS" => Ok(acc::user_resource_limits(s)),
            "ALL_TAB_PRIVS" => Ok(acc::all_tab_privs(s)),
            "USER_GOLDENGATE_PRIVILEGES" => acc::user_goldengate_privileges(s),
            "PRODUCT_COMPONENT_VERSION" => acc::product_component_version(s),
            "V$DATABASE" => dynv::v_database(s),
            "GV$DATABASE" => dynv::gv_database(s),
            "V$FOREIGN_ARCHIVED_LOG" => dynv::v_foreign_archived_log(s),
            "V$STANDBY_LOG" => dynv::v_standby_log(s),
            "DBA_SUPPLEMENTAL_LOGGING" => dynv::dba_supplemental_logging(s),
            "V$PDBS" => dynv::v_pdbs(s),
            "V$PARAMETER" => dynv::v_parameter(s),
            "V$TRANSACTION" => dynv::transactions(s, false),
            "GV$TRANSACTION" => dynv::transactions(s, true),
            "V$INSTANCE" => dynv::instances(s, false),
            "GV$INSTANCE" => dynv::instances(s, true),
            "V$THREAD" => dynv::v_thread(s),
            "V$LOG" => dynv::v_log(s),
            "V$LOGFILE" => dynv::v_logfile(s),
            "V$ARCHIVED_LOG" => dynv::v_archived_log(s),
            "V$ARCHIVE_DEST_STATUS" => dynv::archive_dest(s, true),
            "V$ARCHIVE_DEST" => dynv::archive_dest(s, false),
            "V$RESOURCE_LIMIT" => dynv::v_resource_limit(s),
            "V$LOG_HISTORY" => dynv::v_log_history(s),
            "NLS_DATABASE_PARAMETERS" => dynv::nls_database_parameters(s),
            "V$LOGMNR_CONTENTS" => return Some(self.logminer.contents(&mut self.session)),
            _ => return None,
        };
        let _ = req;
        Some(r.map_err(ora_error))
    }

    /// SYS_CONTEXT('USERENV', attribute).
    fn userenv(&mut self, attribute: &str) -> Result<Datum, OraError> {
        let s = &mut self.session;
        let (db_name, multitenant) = {
            let r = s.replica().map_err(ora_error)?;
            (
                r.schema.database.name.clone(),
                r.schema.database.multitenant,
            )
        };
        let container = s.container.clone();
        Ok(match attribute {
            "CON_NAME" => Datum::text(container.unwrap_or_else(|| db_name.clone())),
            "CON_ID" => {
                let id = match container.as_deref() {
                    None => 0,
                    Some(ROOT) => 1,
                    Some(pdb) => {
                        let r = s.replica().map_err(ora_error)?;
                        let pdbs = crate::access::pdbs(&r.schema);
                        pdbs.iter().position(|(p, _)| p == pdb).map_or(0, |i| i + 3)
                    }
                };
                Datum::int(id as i64)
            }
            "CDB_NAME" if multitenant => Datum::text(db_name),
            "CDB_NAME" => Datum::Null,
            "DB_NAME" | "DB_UNIQUE_NAME" => Datum::text(db_name),
            "SESSION_USER" | "CURRENT_USER" | "AUTHENTICATED_IDENTITY" => {
                Datum::text(s.user.name.clone())
            }
            "CURRENT_SCHEMA" => Datum::text(self.schema()),
            "SERVICE_NAME" => Datum::text(self.service.clone()),
            "INSTANCE_NAME" => Datum::text(format!("{}1", db_name.to_ascii_lowercase())),
            "INSTANCE" => Datum::int(1),
            "SID" => Datum::int(self.sid),
            "SESSIONID" => Datum::int(self.sid),
            "ISDBA" => Datum::text("FALSE"),
            "DATABASE_ROLE" => Datum::text(s.database_view().map_err(ora_error)?.role.as_oracle()),
            "SERVER_HOST" | "HOST" => Datum::text("emulator"),
            // Never set by the emulator's sessions (DBMS_SESSION, DBMS_APPLICATION_INFO).
            "CLIENT_IDENTIFIER" | "CLIENT_INFO" | "MODULE" | "ACTION" => Datum::Null,
            "LANGUAGE" => {
                // The container's: a PDB may have its own database character set.
                let set = s
                    .replica()
                    .map_err(ora_error)?
                    .schema
                    .database
                    .charsets_in(s.pdb())
                    .database;
                Datum::text(format!("AMERICAN_AMERICA.{set}"))
            }
            other => return Err(crate::redaction_expr::invalid_userenv(other)),
        })
    }
}

fn text_arg(args: &[Datum], i: usize) -> Option<String> {
    match args.get(i) {
        Some(Datum::Text(s)) => Some(s.to_ascii_uppercase().to_string()),
        _ => None,
    }
}

impl Database for WireDatabase {
    fn scan(&mut self, name: &ObjectName, request: &ScanRequest) -> Result<Relation, OraError> {
        self.session.call().map_err(ora_error)?;
        let public = matches!(name.schema.as_deref(), None | Some("SYS") | Some("PUBLIC"));
        if public {
            if let Some(r) = self.view(&name.name, request) {
                return r;
            }
        }
        let table = tables::table_name(name, &self.schema());
        tables::scan(&mut self.session, &table, request)
    }

    fn columns(&mut self, table: &ObjectName) -> Result<Vec<Column>, OraError> {
        let name = tables::table_name(table, &self.schema());
        let (_, cols) = tables::columns(&mut self.session, &name)?;
        cols.iter()
            .filter(|c| !c.hidden && !c.virtual_column)
            .map(|c| {
                Ok(Column {
                    name: c.name.clone(),
                    ora_type: super::values::ora_type(&c.data_type).map_err(|t| {
                        OraError::new(3001, format!("unimplemented feature (type {t})"))
                    })?,
                    nullable: c.nullable,
                })
            })
            .collect()
    }

    fn function(&mut self, name: &str, args: &[Datum]) -> Option<Result<Datum, OraError>> {
        Some(match name {
            "SYS_CONTEXT" => match (text_arg(args, 0).as_deref(), text_arg(args, 1)) {
                (Some("USERENV"), Some(attr)) => self.userenv(&attr),
                (Some("SYS_SESSION_ROLES"), Some(role)) => Ok(Datum::text(
                    crate::redaction_expr::session_role(&self.session.user, &role),
                )),
                (Some(ns), _) if ns != "USERENV" => Ok(Datum::Null),
                _ => Err(OraError::new(2003, "invalid USERENV parameter")),
            },
            "USER" => Ok(Datum::text(self.session.user.name.clone())),
            "UID" => Ok(Datum::int(100)),
            "DBTIMEZONE" => Ok(Datum::text(
                self.session
                    .replica()
                    .map(|r| r.schema.database.db_time_zone.clone())
                    .unwrap_or_else(|_| "+00:00".into()),
            )),
            "SCN_TO_TIMESTAMP" => {
                // A text argument converts to NUMBER, as Oracle converts it implicitly.
                let scn = match args.first() {
                    Some(Datum::Number(n) | Datum::Text(n)) => n.trim().parse::<u64>().ok(),
                    _ => None,
                };
                let Some(scn) = scn else {
                    return Some(Err(OraError::new(
                        8181,
                        "specified number is not a valid system change number",
                    )));
                };
                match self.session.scn_to_time(scn) {
                    Ok(Some(text)) => {
                        DateTime::parse(&text).map(Datum::Timestamp).ok_or_else(|| {
                            OraError::new(
                                8181,
                                "specified number is not a valid system change number",
                            )
                        })
                    }
                    Ok(None) => Err(OraError::new(
                        8181,
                        format!("specified number is not a valid system change number ({scn})"),
                    )),
                    Err(e) => Err(ora_error(e)),
                }
            }
            _ => return None,
        })
    }

    fn constant(&mut self, name: &[String]) -> Option<Datum> {
        let parts: Vec<&str> = name.iter().map(String::as_str).collect();
        match parts.as_slice() {
            ["SYS", "DBMS_LOGMNR", c] | ["DBMS_LOGMNR", c] => logminer::constant(c).map(Datum::int),
            ["SYS", "DBMS_LOGMNR_D", c] | ["DBMS_LOGMNR_D", c] => {
                logminer::dictionary_constant(c).map(Datum::int)
            }
            _ => None,
        }
    }

    fn call(&mut self, procedure: &[String], args: &[Argument]) -> Result<(), OraError> {
        self.session.call().map_err(ora_error)?;
        let parts: Vec<&str> = procedure.iter().map(String::as_str).collect();
        match parts.as_slice() {
            ["SYS", "DBMS_LOGMNR", p] | ["DBMS_LOGMNR", p] => {
                self.logminer.call(&mut self.session, p, args)
            }
            ["SYS", "DBMS_LOGMNR_D", "BUILD"] | ["DBMS_LOGMNR_D", "BUILD"] => {
                logminer::build(&mut self.session, args)
            }
            _ => Err(OraError::new(
                6550,
                format!(
                    "line 1, column 7: PLS-00201: identifier '{}' must be declared",
                    procedure.join(".")
                ),
            )),
        }
    }

    fn alter_session(&mut self, name: &str, value: &str) -> Result<(), OraError> {
        match name {
            "CONTAINER" => {
                let quoted = format!("\"{value}\"");
                // A container switch ends the session's LogMiner session and transaction state
                // is refused with one open (ORA-65023 on Oracle).
                if self.tx.is_some() {
                    return Err(OraError::new(
                        65023,
                        "active transaction exists in container",
                    ));
                }
                self.session.set_container(&quoted).map_err(ora_error)?;
                self.logminer = LogMiner::default();
                self.current_schema = None;
                Ok(())
            }
            "CURRENT_SCHEMA" => {
                self.current_schema = Some(value.to_string());
                Ok(())
            }
            // SQL Reference, ALTER SESSION: `ROW ARCHIVAL VISIBILITY = { ACTIVE | ALL }`.
            "ROW ARCHIVAL VISIBILITY" => match value {
                "ALL" => {
                    self.session.set_archived_visible(true);
                    Ok(())
                }
                "ACTIVE" => {
                    self.session.set_archived_visible(false);
                    Ok(())
                }
                _ => Err(OraError::new(2248, "invalid option for ALTER SESSION")),
            },
            other => Err(OraError::new(
                2248,
                format!("invalid option for ALTER SESSION ({other})"),
            )),
        }
    }

    fn insert(
        &mut self,
        table: &ObjectName,
        columns: &[String],
        rows: Vec<Vec<Datum>>,
    ) -> Result<u64, OraError> {
        self.session.call().map_err(ora_error)?;
        let name = tables::table_name(table, &self.schema());
        tables::insert(&mut self.session, &mut self.tx, &name, columns, rows)
    }

    fn update(
        &mut self,
        table: &ObjectName,
        rowid: &str,
        changes: Vec<(String, Datum)>,
    ) -> Result<(), OraError> {
        let name = tables::table_name(table, &self.schema());
        tables::update(&mut self.session, &mut self.tx, &name, rowid, changes)
    }

    fn delete(&mut self, table: &ObjectName, rowid: &str) -> Result<(), OraError> {
        let name = tables::table_name(table, &self.schema());
        tables::delete(&mut self.session, &mut self.tx, &name, rowid)
    }

    fn commit(&mut self) -> Result<(), OraError> {
        tables::commit(&mut self.tx)
    }

    fn rollback(&mut self) -> Result<(), OraError> {
        tables::rollback(&mut self.tx)
    }

    fn savepoint(&mut self, name: &str) -> Result<(), OraError> {
        tables::savepoint(&self.session, &mut self.tx, name)
    }

    fn rollback_to(&mut self, name: &str) -> Result<(), OraError> {
        tables::rollback_to(&mut self.tx, name)
    }

    /// From the key index, for a column that leads the primary key or a unique key or index
    /// (an index Oracle would read the ends of); other columns are read whole by the engine.
    /// The session's key range answers from the rows it sees where a VPD policy or ROW
    /// ARCHIVAL hides some.
    fn min_max(
        &mut self,
        table: &ObjectName,
        column: &str,
        as_of_scn: Option<u64>,
    ) -> Option<Result<(Datum, Datum), OraError>> {
        let name = tables::table_name(table, &self.schema());
        let (resolved, cols) = match tables::columns(&mut self.session, &name) {
            Ok(v) => v,
            Err(e) => return Some(Err(e)),
        };
        let leads = {
            let r = self.session.replica().ok()?;
            let def = &r.table(&resolved).ok()?.def;
            std::iter::once(&def.primary_key)
                .chain(&def.unique_keys)
                .chain(&def.unique_indexes)
                .any(|k| k.first().is_some_and(|c| c == column))
        };
        let ty = cols.iter().find(|c| c.name == column)?.data_type.clone();
        if !leads {
            return None;
        }
        let wire = super::values::ora_type(&ty).ok()?;
        Some(match self.session.key_range(&name, column, as_of_scn) {
            Ok(Some((min, max))) => super::values::into_datum(min, &wire)
                .and_then(|a| Ok((a, super::values::into_datum(max, &wire)?))),
            Ok(None) => Ok((Datum::Null, Datum::Null)),
            Err(e) => Err(ora_error(e)),
        })
    }

    /// The container's database character set's BINARY order (a PDB may have its own set), as
    /// the in-process session orders keys (`cdc_core::charset::Charset::compare`).
    fn charset_order(&mut self) -> CharsetOrder {
        match self.database_set().unwrap_or_default() {
            Charset::Al32Utf8 | Charset::Unsupported => CharsetOrder::Utf8,
            Charset::Utf8 | Charset::Al16Utf16 => CharsetOrder::Utf16,
            Charset::We8MsWin1252 => {
                CharsetOrder::Bytes(|a, b| Charset::We8MsWin1252.compare(a, b))
            }
            Charset::We8Iso8859P1 => {
                CharsetOrder::Bytes(|a, b| Charset::We8Iso8859P1.compare(a, b))
            }
        }
    }

    /// SYSDATE and SYSTIMESTAMP: the host's clock, the database time zone's with
    /// TIME_AT_DBTIMEZONE USER_SQL or DATABASE.
    fn host_time(&mut self) -> (DateTime, i16) {
        let (offset, ms) = match self.session.replica() {
            Ok(r) => (
                r.schema.database.sql_clock_offset_secs(),
                self.session.shared.clock.now_ms(),
            ),
            Err(_) => (0, 0),
        };
        crate::redaction_expr::host_time(ms, offset)
    }
}

/// Whether a bind of this type is character data in the database character set.
fn database_character_data(ty: &OraType) -> bool {
    matches!(
        ty,
        OraType::Varchar2(_) | OraType::Char(_) | OraType::Long | OraType::Clob
    )
}
