//! The real Oracle adapter: [`OracleConnector`] opens [`OracleSession`]s through one of two
//! drivers (`cdc.database.driver`): the pure-Rust `oracledb` crate (thin, the default) or the
//! `oracle` crate (thick: ODPI-C, which loads the Oracle Client libraries at run time).
//!
//! Layout: every statement is in [`sql`]; [`OracleConnector`] holds one database's settings;
//! [`driver`] is the one session interface both drivers implement (no other file names a driver
//! crate); [`connect`] maps errors to the CDC-NNNN catalog; [`catalog`]
//! assembles tables; [`logminer`] handles logs, open transactions and mining; [`fetch`] turns
//! fetched columns into values and values into binds; [`types_map`] holds the pure type and
//! text conversions.
//!
//! Every session starts with the NLS settings of oracle-facts §5, UTC as session time zone and
//! binary sorting, so values, SQL_REDO and key ranges share one canonical form. Nothing here
//! writes to the database: the statements are queries, ALTER SESSION and DBMS_LOGMNR calls.
//!
//! Its own crate, and the only one of the house that names a driver crate. It implements the
//! core's source trait; the engine (which re-exports it as `source::oracle`) builds its
//! connectors from settings ([`connector::Options`]).

// The core's modules under the names the adapter has always used for them.
pub(crate) use cdc_core::{charset, errors, names, types};

pub mod catalog;
pub mod connect;
pub mod connector;
pub mod descriptor;
pub mod driver;
pub mod fetch;
pub mod instance;
mod login;
pub mod logminer;
mod reads;
mod redaction;
mod row_access;
pub mod sql;
// Oracle's type names and text forms, pure: the core's, as the emulator renders them too.
pub use cdc_core::types_map;

pub use self::connector::{
    Options, OracleConnector, DEFAULT_CONNECT_TIMEOUT, DEFAULT_IDLE_THREAD_MS, DEFAULT_SDU,
};

use self::connect::CallContext;
use self::driver::{DbSession, DriverError, FetchOptions};
use self::fetch::{Bind, Cols, Fetch};
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use crate::types::Value;
use cdc_core::model::*;
use cdc_core::session::prelude::*;
use std::collections::{BTreeSet, HashMap, HashSet};

/// Rows per fetch round trip for key probes, and the most for flashback reads (which fetch
/// fewer of wide rows: [`reads::fetch_rows`]).
const FETCH_ROWS: u32 = 500;

/// The NLS, time zone and sort settings of oracle-facts §5, at connect and again after every
/// container switch (a session's settings are not promised to follow it into another container).
fn setup_session(conn: &dyn DbSession) -> Result<()> {
    let c = CallContext {
        operation: "session setup",
        ..CallContext::default()
    };
    conn.execute(&sql::session_setup(), &[])
        .map_err(|e| e.runtime(&c))
}

/// Where this session runs: the container's name (`None` outside a CDB) and, for a PDB, the
/// PDB part of its table names.
#[derive(Debug, Clone)]
struct Container {
    name: Option<String>,
    pdb: Option<String>,
}

/// One connection.
pub struct OracleSession {
    conn: Box<dyn DbSession>,
    container: Option<Container>,
    /// DATA_TYPE per column, per table read, to build select lists.
    column_types: HashMap<TableName, HashMap<String, String>>,
    /// Bytes a row of each table read so far took, to size the next reads' fetches
    /// ([`reads::fetch_rows`]).
    row_bytes: HashMap<TableName, u64>,
    /// Opened as a downstream mining database (see [`OracleConnector`]).
    mining: bool,
    /// Whether the database is a standby (V$DATABASE.DATABASE_ROLE), once asked.
    standby: Option<bool>,
    dictionary: Dictionary,
    /// `cdc.mining.idle.thread.ms`.
    idle_thread_ms: u64,
    /// The looks at V$THREAD the mining bound is taken from (idle threads included), shared
    /// with the connector's other sessions.
    looks: cdc_core::threads::SharedLooks,
    /// On a downstream mining database: whose redo to mine among the logs received.
    shipped_from: Option<RedoSource>,
}

fn ctx(operation: &'static str) -> CallContext {
    CallContext {
        operation,
        ..CallContext::default()
    }
}

/// A missing view or privilege on an optional detail (undo guarantee, PDB list): warn, go on.
fn is_missing_privilege(e: &DriverError) -> bool {
    e.is_missing_privilege()
}

/// How a column is selected and fetched, by its ALL_TAB_COLS.DATA_TYPE: one rule for flashback
/// reads and key probes, so a key value reads the same whichever statement returned it.
fn column_access<'a>(
    table: &TableName,
    column: &'a str,
    data_type: &str,
) -> Result<(sql::SelectItem<'a>, Fetch)> {
    Ok(match data_type {
        // The crate cannot read a BFILE locator's directory and file name (fetch.rs).
        "BFILE" => {
            return Err(CdcError::UnsupportedType {
                table: table.to_string(),
                column: column.to_string(),
                data_type: "BFILE".into(),
            })
        }
        "JSON" => (sql::SelectItem::Json(column), Fetch::Json),
        "VECTOR" => (sql::SelectItem::Vector(column), Fetch::Vector),
        "XMLTYPE" => (sql::SelectItem::Xml(column), Fetch::Xml),
        "BOOLEAN" => (sql::SelectItem::Plain(column), Fetch::Boolean),
        // `TIMESTAMP(6) WITH TIME ZONE`: as text with its offset (the thin driver would lose it).
        t if t.starts_with("TIMESTAMP") && t.ends_with(" WITH TIME ZONE") => {
            (sql::SelectItem::TimestampTz(column), Fetch::TimestampTz)
        }
        // Key bounds of national text are bound escaped ([`sql::SelectItem::National`]).
        "NCHAR" | "NVARCHAR2" => (sql::SelectItem::National(column), Fetch::Native),
        _ => (sql::SelectItem::Plain(column), Fetch::Native),
    })
}

/// How a key column is selected and fetched: a column the database must serialise (JSON,
/// VECTOR, XMLTYPE) cannot be compared or ordered, so it cannot be a key either; a TIMESTAMP
/// WITH TIME ZONE is selected as text as in the flashback read.
fn key_access<'a>(
    table: &TableName,
    column: &'a str,
    data_type: &str,
) -> Result<(sql::SelectItem<'a>, Fetch)> {
    match column_access(table, column, data_type)? {
        access @ (
            sql::SelectItem::Plain(_)
            | sql::SelectItem::TimestampTz(_)
            | sql::SelectItem::National(_),
            _,
        ) => Ok(access),
        _ => Err(CdcError::UnsupportedType {
            table: table.to_string(),
            column: column.to_string(),
            data_type: data_type.to_string(),
        }),
    }
}

/// `:owner` and `:table_name` of the catalog statements about one table.
fn table_binds(table: &TableName) -> [(&'static str, Bind); 2] {
    [
        ("owner", Bind::Text(table.owner.clone())),
        ("table_name", Bind::Text(table.table.clone())),
    ]
}

/// One row of [`sql::EXTENTS`] or [`sql::CLUSTER_EXTENTS`].
fn extent_row(r: &Cols) -> Result<Extent> {
    Ok(Extent {
        partition: r.opt_string(0)?,
        data_object_id: r.u64(1)?,
        relative_fno: r.u32(2)?,
        block_id: r.u64(3)?,
        blocks: r.u64(4)?,
        bigfile: r.opt_string(5)?.as_deref() == Some("YES"),
    })
}

/// One row of [`sql::COLUMNS`] or [`sql::TABLE_COLUMNS`].
fn column_row(r: &Cols) -> Result<catalog::ColumnRow> {
    Ok(catalog::ColumnRow {
        owner: r.string(0)?,
        table: r.string(1)?,
        name: r.string(2)?,
        data_type: r.string(3)?,
        data_type_owner: r.opt_string(4)?,
        precision: r.opt_i64(5)?,
        scale: r.opt_i64(6)?,
        char_length: r.opt_i64(7)?,
        data_length: r.opt_i64(8)?,
        nullable: r.string(9)?,
        virtual_column: r.string(10)?,
        hidden: r.string(11)?,
    })
}

impl OracleSession {
    /// All rows of a statement without binds, each converted by `f`.
    fn rows<T>(
        &self,
        statement: &str,
        c: &CallContext,
        f: impl FnMut(&Cols) -> Result<T>,
    ) -> Result<Vec<T>> {
        fetch::query_all(&*self.conn, statement, &[], FetchOptions::default(), c, f)
    }

    fn current_container(&mut self) -> Result<Container> {
        if let Some(c) = &self.container {
            return Ok(c.clone());
        }
        let c = ctx("reading the container name");
        let (name, con_id) = fetch::query_one(&*self.conn, sql::CONTAINER_NAME, &[], &c, |r| {
            Ok((r.string(0)?, r.string(1)?))
        })?;
        // CON_ID 0: not a CDB; 1: CDB$ROOT; 2: PDB$SEED; 3 and up: PDBs.
        let con_id = con_id.trim().parse::<u32>().unwrap_or(0);
        let container = Container {
            name: (con_id >= 1).then(|| name.clone()),
            pdb: (con_id >= 2).then_some(name),
        };
        self.container = Some(container.clone());
        Ok(container)
    }

    /// Each column's DATA_TYPE, cached per table; read again when `columns` names one the cache
    /// does not have (added since).
    fn table_column_types(
        &mut self,
        table: &TableName,
        columns: &[String],
    ) -> Result<&HashMap<String, String>> {
        if self
            .column_types
            .get(table)
            .is_some_and(|t| columns.iter().any(|c| !t.contains_key(c)))
        {
            self.column_types.remove(table);
        }
        if !self.column_types.contains_key(table) {
            let c = CallContext {
                table: Some(table.owner_table()),
                operation: "reading column types",
                ..CallContext::default()
            };
            let types = fetch::query_all(
                &*self.conn,
                sql::TABLE_COLUMN_TYPES,
                &table_binds(table),
                FetchOptions::default(),
                &c,
                |r| Ok((r.string(0)?, r.string(1)?)),
            )?;
            self.column_types
                .insert(table.clone(), types.into_iter().collect());
        }
        Ok(&self.column_types[table])
    }

    /// How to select and fetch each key column of `table`.
    fn key_accesses<'k>(
        &mut self,
        table: &TableName,
        key_columns: &'k [String],
    ) -> Result<Vec<(sql::SelectItem<'k>, Fetch)>> {
        let types = self.table_column_types(table, key_columns)?;
        key_columns
            .iter()
            .map(|c| key_access(table, c, types.get(c).map(String::as_str).unwrap_or("")))
            .collect()
    }
}

impl Catalog for OracleSession {
    fn login_warning(&mut self) -> Result<Option<LoginWarning>> {
        Ok(self.conn.login_warning().map(LoginWarning::new))
    }

    fn container(&mut self) -> Result<Option<String>> {
        Ok(self.current_container()?.name)
    }

    fn set_container(&mut self, name: &str) -> Result<()> {
        let c = ctx("ALTER SESSION SET CONTAINER");
        let statement = sql::set_container(name).map_err(CdcError::Database)?;
        // Whatever happens, the cached container is no longer known.
        self.container = None;
        self.conn
            .execute(&statement, &[])
            .map_err(|e| e.runtime(&c))?;
        setup_session(&*self.conn)
    }

    fn database(&mut self) -> Result<DatabaseInfo> {
        let c = ctx("reading V$DATABASE");
        let row = self
            .conn
            .query_row(sql::DATABASE_INFO, &[])
            .map_err(|e| e.runtime(&c))?;
        let r = Cols { row: &row, ctx: &c };
        let cdb = r.string(2)? == "YES";
        let role_text = r.string(7)?;
        let role = DatabaseRole::from_oracle(&role_text).ok_or_else(|| {
            CdcError::Database(format!("unsupported DATABASE_ROLE `{role_text}`"))
        })?;
        let mode_text = r.string(8)?;
        let open_mode = OpenMode::from_oracle(&mode_text)
            .ok_or_else(|| CdcError::Database(format!("unsupported OPEN_MODE `{mode_text}`")))?;
        let (dbid, name, resetlogs_scn) = (r.u64(0)?, r.string(1)?, r.u64(9)?);
        let (archivelog, force_logging) = (r.string(3)? == "ARCHIVELOG", r.string(4)? == "YES");
        let supplemental_min = matches!(r.string(5)?.as_str(), "YES" | "IMPLICIT");
        let supplemental_all = r.string(6)? == "YES";

        let c = ctx("reading PRODUCT_COMPONENT_VERSION");
        let products = self.rows(sql::PRODUCT_VERSION, &c, |r| {
            Ok((r.string(0)?, r.string(1)?))
        })?;
        let (product, base_version) = products.into_iter().next().unwrap_or_default();
        // The driver gives the full release (19.22.0.0.0); the view only the base (19.0.0.0.0).
        let version = self.conn.server_version().unwrap_or(base_version);

        let c = ctx("reading V$PARAMETER");
        let params = self.rows(sql::UNDO_PARAMETERS, &c, |r| {
            Ok((r.string(0)?, r.string(1)?))
        })?;
        let mut undo_retention_secs = 900;
        let mut undo_tablespace = None;
        for (name, value) in params {
            match name.as_str() {
                "undo_retention" => {
                    undo_retention_secs = value.trim().parse().map_err(|_| {
                        CdcError::Database(format!("UNDO_RETENTION `{value}` is not a number"))
                    })?
                }
                _ => undo_tablespace = Some(value),
            }
        }
        let mut undo_guarantee = false;
        if let Some(ts) = undo_tablespace.filter(|t| !t.is_empty()) {
            let c = ctx("reading DBA_TABLESPACES");
            let binds = [("tablespace_name", Bind::Text(ts))];
            match self.conn.query_row(sql::UNDO_RETENTION_MODE, &binds) {
                Ok(row) => undo_guarantee = Cols { row: &row, ctx: &c }.string(0)? == "GUARANTEE",
                Err(e) if is_missing_privilege(&e) => tracing::warn!(
                    "cannot read DBA_TABLESPACES ({}); assuming no RETENTION GUARANTEE",
                    e.message
                ),
                Err(e) if e.no_data_found => {}
                Err(e) => return Err(e.runtime(&c)),
            }
        }
        let (mut pdbs, mut restricted_pdbs) = (Vec::new(), Vec::new());
        if cdb {
            let c = ctx("reading V$PDBS");
            let row = |r: &Cols| Ok((r.string(0)?, r.opt_string(1)?.as_deref() == Some("YES")));
            match self.rows(sql::OPEN_PDBS, &c, row) {
                Ok(list) => {
                    for (pdb, restricted) in list {
                        if restricted {
                            restricted_pdbs.push(pdb.clone());
                        }
                        pdbs.push(pdb);
                    }
                }
                Err(CdcError::Privilege { message, .. }) => {
                    tracing::warn!("cannot read V$PDBS ({message}); listing no PDBs")
                }
                Err(e) => return Err(e),
            }
        }
        Ok(DatabaseInfo {
            dbid,
            name,
            version,
            edition: types_map::edition_from_product(&product),
            cdb,
            pdbs,
            restricted_pdbs,
            resetlogs_scn,
            role,
            open_mode,
            archivelog,
            force_logging,
            supplemental_min,
            supplemental_all,
            undo_retention_secs,
            undo_guarantee,
        })
    }

    fn privileges(&mut self) -> Result<Privileges> {
        let c = ctx("reading SESSION_PRIVS");
        let system: BTreeSet<String> = self
            .rows(sql::SESSION_PRIVILEGES, &c, |r| r.string(0))?
            .into_iter()
            .collect();
        let c = ctx("reading SESSION_ROLES");
        let roles = self
            .rows(sql::SESSION_ROLES, &c, |r| r.string(0))?
            .into_iter()
            .collect();
        let c = ctx("reading ALL_TAB_PRIVS");
        let objects = self
            .rows(sql::OBJECT_PRIVILEGES, &c, |r| {
                Ok((r.string(0)?, r.string(1)?, r.string(2)?))
            })?
            .into_iter()
            .collect();
        // In CDB$ROOT: which PDBs' rows V$PDBS and V$TRANSACTION show this user.
        let container_data = if self.current_container()?.name.as_deref() == Some(ROOT_CONTAINER) {
            let c = ctx("reading DBA_CONTAINER_DATA");
            match self.rows(sql::CONTAINER_DATA, &c, |r| {
                Ok((r.string(0)?, r.opt_string(1)?))
            }) {
                Ok(rows) => {
                    let all = rows.iter().any(|(all, _)| all == "Y");
                    // The attribute always holds the root (ORA-65057); no row is the default.
                    let containers = match all {
                        true => Default::default(),
                        false => rows
                            .into_iter()
                            .filter_map(|(_, c)| c)
                            .chain([ROOT_CONTAINER.to_string()])
                            .collect(),
                    };
                    Some(ContainerData { all, containers })
                }
                Err(CdcError::Privilege { message, .. }) => {
                    tracing::warn!("cannot read DBA_CONTAINER_DATA ({message}); the PDBs the user sees from CDB$ROOT are unknown");
                    None
                }
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        // In a PDB: the GoldenGate administrator grant per-PDB mining requires.
        let goldengate = if self.current_container()?.pdb.is_some() {
            let c = ctx("reading USER_GOLDENGATE_PRIVILEGES");
            match self.rows(sql::GOLDENGATE_PRIVILEGES, &c, |r| {
                Ok(GoldenGateGrant {
                    privilege_type: r.string(0)?,
                    select_privileges: r.opt_string(1)?.as_deref() == Some("YES"),
                })
            }) {
                Ok(rows) => Some(rows),
                Err(CdcError::Privilege { message, .. }) => {
                    tracing::warn!("cannot read USER_GOLDENGATE_PRIVILEGES ({message}); whether the user is a GoldenGate administrator is unknown");
                    None
                }
                Err(e) => return Err(e),
            }
        } else {
            None
        };
        Ok(Privileges {
            system,
            roles,
            objects,
            container_data,
            goldengate,
        })
    }

    fn pdb_supplemental_logging(&mut self) -> Result<Option<PdbSupplementalLogging>> {
        // CDB$ROOT's levels are V$DATABASE's; only a PDB has levels of its own.
        if self.current_container()?.pdb.is_none() {
            return Ok(None);
        }
        let c = ctx("reading DBA_SUPPLEMENTAL_LOGGING");
        let rows = self.rows(sql::PDB_SUPPLEMENTAL_LOGGING, &c, |r| {
            let yes = |i: usize| -> Result<bool> { Ok(r.opt_string(i)?.as_deref() == Some("YES")) };
            Ok(PdbSupplementalLogging {
                minimal: yes(0)?,
                primary_key: yes(1)?,
                unique_index: yes(2)?,
                foreign_key: yes(3)?,
                all_column: yes(4)?,
            })
        })?;
        // One row; none would be a view with nothing enabled.
        Ok(Some(rows.into_iter().next().unwrap_or_default()))
    }

    fn tables(&mut self) -> Result<Vec<TableInfo>> {
        let pdb = self.current_container()?.pdb;
        let mut rows = catalog::CatalogRows {
            tables: self.rows(sql::TABLES, &ctx("reading ALL_TABLES"), |r| {
                Ok(catalog::TableRow {
                    owner: r.string(0)?,
                    name: r.string(1)?,
                    iot_type: r.opt_string(2)?,
                    row_movement: r.opt_string(3)?,
                    num_rows: r.opt_u64(4)?,
                    blocks: r.opt_u64(5)?,
                    last_analyzed: r.opt_string(6)?,
                    // 7 is PARTITIONED, which the partitions' DBA_OBJECTS rows tell.
                    cluster: r.opt_string(8)?,
                })
            })?,
            ..catalog::CatalogRows::default()
        };
        rows.columns = self.rows(sql::COLUMNS, &ctx("reading ALL_TAB_COLS"), column_row)?;
        rows.keys = self.rows(sql::KEYS, &ctx("reading ALL_CONSTRAINTS"), |r| {
            Ok(catalog::KeyRow {
                owner: r.string(0)?,
                table: r.string(1)?,
                constraint: r.string(2)?,
                kind: r.string(3)?,
                column: r.string(4)?,
            })
        })?;
        rows.unique_indexes = self.rows(sql::UNIQUE_INDEXES, &ctx("reading ALL_INDEXES"), |r| {
            Ok(catalog::IndexRow {
                owner: r.string(0)?,
                table: r.string(1)?,
                index_owner: r.string(2)?,
                index: r.string(3)?,
                column: r.string(4)?,
            })
        })?;
        rows.objects = self.rows(sql::DATA_OBJECTS, &ctx("reading DBA_OBJECTS"), |r| {
            Ok(catalog::ObjectRow {
                owner: r.string(0)?,
                name: r.string(1)?,
                subobject: r.opt_string(2)?,
                object_type: r.string(3)?,
                data_object_id: r.u64(4)?,
                object_id: r.u64(5)?,
            })
        })?;
        let pairs = |r: &Cols| Ok((r.string(0)?, r.string(1)?));
        rows.stale = self
            .rows(sql::STALE_STATS, &ctx("reading ALL_TAB_STATISTICS"), pairs)?
            .into_iter()
            .collect::<HashSet<_>>();
        rows.all_column_logging = self
            .rows(
                sql::ALL_COLUMN_LOG_GROUPS,
                &ctx("reading ALL_LOG_GROUPS"),
                pairs,
            )?
            .into_iter()
            .collect::<HashSet<_>>();
        let (tables, warnings) = catalog::assemble(pdb.as_deref(), rows);
        for w in warnings {
            tracing::warn!("{w}");
        }
        Ok(tables)
    }

    fn table_columns(&mut self, table: &TableName) -> Result<Option<Vec<ColumnInfo>>> {
        let pdb = self.current_container()?.pdb;
        let c = CallContext {
            table: Some(table.owner_table()),
            operation: "reading ALL_TAB_COLS",
            ..CallContext::default()
        };
        let columns = fetch::query_all(
            &*self.conn,
            sql::TABLE_COLUMNS,
            &table_binds(table),
            FetchOptions::default(),
            &c,
            column_row,
        )?;
        if columns.is_empty() {
            return Ok(None);
        }
        // The layout may have changed: the fetch types are read again with it.
        self.column_types.remove(table);
        let rows = catalog::CatalogRows {
            tables: vec![catalog::TableRow {
                owner: table.owner.clone(),
                name: table.table.clone(),
                ..catalog::TableRow::default()
            }],
            columns,
            ..catalog::CatalogRows::default()
        };
        let (mut tables, warnings) = catalog::assemble(pdb.as_deref(), rows);
        for w in warnings {
            tracing::warn!("{w}");
        }
        Ok(tables.pop().map(|t| t.columns))
    }

    fn read_policies(&mut self, table: &TableName) -> Result<ReadPolicies> {
        let binds = table_binds(table);
        // A policy view the user cannot read (ORA-00942, ORA-01031) leaves its kind unknown: the
        // engine then warns, it does not stop capture over a check it cannot make.
        let (row_access, row_access_columns) = row_access::read(&*self.conn, table, &binds)?;
        let c = ctx("reading SESSION_PRIVS (policy exemptions)");
        let held: Vec<String> = self.rows(sql::POLICY_EXEMPTIONS, &c, |r| r.string(0))?;
        let exempt_redaction = held.iter().any(|p| p == "EXEMPT REDACTION POLICY");
        let redaction = redaction::read(&*self.conn, table, &binds, exempt_redaction)?;
        let (masking, not_applying, masked_columns) = match redaction {
            Some(r) => (Some(r.masking), r.not_applying, r.masked_columns),
            None => (None, Vec::new(), None),
        };
        Ok(ReadPolicies {
            row_access,
            row_access_columns,
            redaction: masking,
            redaction_not_applying: not_applying,
            masked_columns,
            exempt_access: held.iter().any(|p| p == "EXEMPT ACCESS POLICY"),
            exempt_redaction,
        })
    }

    fn extents(&mut self, table: &TableName) -> Result<Vec<Extent>> {
        let c = CallContext {
            table: Some(table.owner_table()),
            operation: "reading DBA_EXTENTS",
            ..CallContext::default()
        };
        fetch::query_all(
            &*self.conn,
            sql::EXTENTS,
            &table_binds(table),
            FetchOptions::default(),
            &c,
            extent_row,
        )
    }

    /// From ALL_OBJECTS ([`sql::TABLE_DATA_OBJECTS`]), not the extents: a clustered table's
    /// row there carries its cluster's number, so `cluster` needs no query of its own.
    fn data_object_ids(&mut self, table: &TableName, _cluster: Option<&str>) -> Result<Vec<u64>> {
        let c = CallContext {
            table: Some(table.owner_table()),
            operation: "reading ALL_OBJECTS (the table's data objects)",
            ..CallContext::default()
        };
        fetch::query_all(
            &*self.conn,
            sql::TABLE_DATA_OBJECTS,
            &table_binds(table),
            FetchOptions::default(),
            &c,
            |r| r.u64(0),
        )
    }

    fn cluster_extents(&mut self, table: &TableName, cluster: &str) -> Result<Vec<Extent>> {
        let c = CallContext {
            table: Some(table.owner_table()),
            operation: "reading DBA_EXTENTS (the table's cluster)",
            ..CallContext::default()
        };
        fetch::query_all(
            &*self.conn,
            sql::CLUSTER_EXTENTS,
            &[
                ("owner", Bind::Text(table.owner.clone())),
                ("cluster_name", Bind::Text(cluster.to_string())),
            ],
            FetchOptions::default(),
            &c,
            extent_row,
        )
    }

    /// The clock LogMiner's DATEs are in. SYSTIMESTAMP's offset is the host's, unless
    /// TIME_AT_DBTIMEZONE (23c and later) is set: then SYSTIMESTAMP answers in DBTIMEZONE and,
    /// with USER_SQL, LogMiner's DATEs still in the host's clock; that clock is then measured
    /// through SCN_TO_TIMESTAMP (see `sql::DATE_CLOCK`).
    fn host_utc_offset(&mut self) -> Result<Option<i32>> {
        let c = ctx("reading TIME_AT_DBTIMEZONE (V$PARAMETER)");
        let mode = match self.rows(sql::TIME_AT_DBTIMEZONE, &c, |r| r.opt_string(0)) {
            Ok(rows) => rows.into_iter().flatten().next(),
            Err(CdcError::Privilege { message, .. }) => {
                tracing::warn!("cannot read V$PARAMETER ({message}); taking SYSTIMESTAMP's offset as the clock of LogMiner's times (right unless TIME_AT_DBTIMEZONE is set)");
                None
            }
            Err(e) => return Err(e),
        };
        if mode
            .as_deref()
            .is_some_and(|m| !m.trim().eq_ignore_ascii_case("OFF"))
        {
            let c = ctx("reading the database's clock (SCN_TO_TIMESTAMP of the current SCN)");
            let (local, utc) = fetch::query_one(&*self.conn, sql::DATE_CLOCK, &[], &c, |r| {
                Ok((r.string(0)?, r.string(1)?))
            })?;
            return clock_offset_secs(&local, &utc).map(Some).ok_or_else(|| {
                CdcError::Database(format!(
                    "TIME_AT_DBTIMEZONE is {}: the database's clock, SCN_TO_TIMESTAMP(CURRENT_SCN) `{local}` at `{utc}` UTC, is no whole quarter hour from UTC",
                    mode.as_deref().unwrap_or_default().trim()
                ))
            });
        }
        let c = ctx("reading the host's time zone (SYSTIMESTAMP)");
        let text = fetch::query_one(&*self.conn, sql::HOST_UTC_OFFSET, &[], &c, |r| r.string(0))?;
        parse_utc_offset(&text).map(Some).ok_or_else(|| {
            CdcError::Database(format!("SYSTIMESTAMP's offset `{text}` is not +HH:MM"))
        })
    }

    fn instance_config(&mut self) -> Result<InstanceConfig> {
        instance::read(&*self.conn)
    }

    fn charsets(&mut self) -> Result<crate::charset::Charsets> {
        instance::charsets(&*self.conn)
    }
}

impl Flashback for OracleSession {
    fn current_scn(&mut self) -> Result<Scn> {
        let c = ctx("reading the current SCN");
        fetch::query_one(&*self.conn, sql::CURRENT_SCN, &[], &c, |r| r.u64(0))
    }

    /// On a standby (not a downstream mining database), one past where its archived logs end
    /// when that is below the applied SCN: what the stream mines there. The logs are read
    /// after the SCN; `from` is the SCN itself, so a gap before the newest log holds nothing
    /// back here (it holds the stream back, and the wave waits for it).
    fn stream_read_scn(&mut self) -> Result<Option<Scn>> {
        if self.mining || !self.is_standby()? {
            return Ok(None);
        }
        let current = self.current_scn()?;
        Ok(self
            .archived_end(current)?
            .map(|end| end.saturating_add(1))
            .filter(|s| *s < current))
    }

    fn scn_to_time(&mut self, scn: Scn) -> Result<Option<String>> {
        let c = ctx("mapping an SCN to a time");
        let binds = [("scn", Bind::Text(scn.to_string()))];
        match self.conn.query_row(sql::SCN_TO_TIME, &binds) {
            Ok(row) => Cols { row: &row, ctx: &c }.opt_string(0),
            // ORA-08181: the database no longer keeps the SCN-to-time mapping for it.
            Err(e) if matches!(e.runtime(&c), CdcError::InvalidScn { .. }) => Ok(None),
            Err(e) => Err(e.runtime(&c)),
        }
    }

    fn read_as_of(
        &mut self,
        query: &FlashbackQuery,
        row: &mut dyn FnMut(FetchedRow) -> Result<()>,
    ) -> Result<u64> {
        reads::read_as_of(self, query, row)
    }

    fn check_condition(&mut self, table: &TableName, condition: &str) -> Result<()> {
        let c = CallContext {
            table: Some(table.owner_table()),
            operation: "filter check",
            ..CallContext::default()
        };
        let text = sql::condition_check(table, condition)
            .map_err(|e| CdcError::Database(format!("filter of {table}: {e}")))?;
        // Parsed when executed; `1 = 0` returns no row.
        self.rows(&text, &c, |_| Ok(())).map(|_| ())
    }

    fn key_range(
        &mut self,
        table: &TableName,
        key_column: &str,
        scn: Option<Scn>,
    ) -> Result<Option<(Value, Value)>> {
        reads::key_range(self, table, key_column, scn)
    }

    fn key_boundaries(&mut self, q: &BoundaryQuery) -> Result<Vec<Vec<Value>>> {
        reads::key_boundaries(self, q)
    }
}

impl OracleSession {
    /// Whether this database is a standby (V$DATABASE.DATABASE_ROLE not PRIMARY), asked once.
    /// On a standby, where its archived logs end for mining from `from` (see
    /// [`Miner::mining_limit`]): no archived log yet is `from` − 1, nothing minable.
    fn archived_end(&mut self, from: Scn) -> Result<Option<Scn>> {
        let logs = logminer::read_archived_logs(&*self.conn)?;
        let threads = logminer::read_threads(&*self.conn)?;
        if logs.is_empty() {
            return Ok(Some(from.saturating_sub(1)));
        }
        Ok(cdc_core::threads::shipped_end_for(&logs, &threads, from))
    }

    fn is_standby(&mut self) -> Result<bool> {
        if let Some(s) = self.standby {
            return Ok(s);
        }
        let s = self.database()?.role != DatabaseRole::Primary;
        self.standby = Some(s);
        Ok(s)
    }
}

impl Miner for OracleSession {
    fn open_transactions(&mut self) -> Result<Vec<OpenTransaction>> {
        logminer::open_transactions(&*self.conn)
    }

    /// On a downstream mining database the logs it received (V$FOREIGN_ARCHIVED_LOG,
    /// V$STANDBY_LOG: every source's, each with its DBID), not its own V$LOG/V$ARCHIVED_LOG.
    fn logs(&mut self) -> Result<Vec<LogFile>> {
        if self.mining {
            return logminer::read_shipped_logs(&*self.conn);
        }
        if self.is_standby()? {
            return logminer::read_archived_logs(&*self.conn);
        }
        logminer::read_logs(&*self.conn)
    }

    fn redo_threads(&mut self) -> Result<Vec<RedoThread>> {
        logminer::read_threads(&*self.conn)
    }

    fn dictionary_builds(&mut self) -> Result<Vec<DictionaryBuild>> {
        if self.mining {
            return logminer::read_shipped_dictionary_builds(&*self.conn, self.shipped_from);
        }
        logminer::read_dictionary_builds(&*self.conn)
    }

    fn mine_redo_of(&mut self, source: RedoSource) -> Result<()> {
        self.shipped_from = Some(source);
        Ok(())
    }

    fn build_dictionary(&mut self) -> Result<()> {
        let c = ctx("DBMS_LOGMNR_D.BUILD");
        self.conn
            .execute(sql::BUILD_DICTIONARY, &[])
            .map_err(|e| e.runtime(&c))
    }

    /// On the database whose redo is mined: before what LGWR has written on every open thread,
    /// an idle thread bounded by the instances' SCN once it stood still for the quiet period
    /// (`source::threads`). A downstream mining database's own threads say nothing of the
    /// shipped redo: there the bound is where the source's redo received ends (the source's
    /// V$THREAD bounds what its LGWR wrote, see `mining.rs`).
    fn mining_limit(&mut self, from: Scn) -> Result<Option<Scn>> {
        if self.mining {
            let source = self.shipped_from;
            let logs: Vec<LogFile> = logminer::read_shipped_logs(&*self.conn)?
                .into_iter()
                .filter(|l| source.is_none_or(|s| s.holds(l)))
                .collect();
            return Ok(cdc_core::threads::shipped_end(&logs, from));
        }
        // A standby mines redo it received, which its primary's LGWR had written, so its
        // V$THREAD positions do not bound it (Debezium caps by V$THREAD in its PRIMARY capture
        // mode only). What bounds it is the logs LogMiner is given there: the archived logs
        // alone. With real-time apply the standby's CURRENT_SCN lies in the standby redo log
        // being written, which V$ARCHIVED_LOG does not list yet and V$LOG never does; LogMiner
        // returns nothing past the logs added, so a window ending beyond them would be taken
        // for mined with the commits in that part lost. Per thread the window ends at its
        // newest archived log without a gap (NEXT_CHANGE# - 1), the lowest over the threads; a
        // CLOSED thread whose logs reach its last redo holds nothing back (its V$THREAD row, as
        // the standby's control file has it from the applied redo). No archived log yet (a
        // standby just made, whose first log the primary has not switched out of): nothing is
        // minable, capture waits for it. Every thread done (all CLOSED, their logs reaching
        // their last redo): no bound, nothing lies past those logs.
        if self.is_standby()? {
            return self.archived_end(from);
        }
        // The instances' SCN first, then V$THREAD: redo written after the SCN was read
        // carries at least that SCN.
        let scn = logminer::lowest_instance_scn(&*self.conn)?;
        let threads = self.redo_threads()?;
        Ok(self.looks.bound(self.idle_thread_ms, None, scn, threads))
    }

    fn quiet_through(&mut self) -> Option<Scn> {
        match self.mining || self.standby != Some(false) {
            true => None,
            false => self.looks.quiet_through(),
        }
    }

    fn mine(
        &mut self,
        start: Scn,
        end: Scn,
        filter: &cdc_core::filter::MiningFilter,
        row: &mut dyn FnMut(LogMinerRow) -> Result<()>,
    ) -> Result<()> {
        if start > end {
            return Err(CdcError::InvalidScnRange { start, end });
        }
        // Inside a PDB (19c+), START_LOGMNR by SCN range finds that PDB's logs itself; adding
        // log files is for CDB$ROOT and non-CDBs only.
        let in_pdb = self.current_container()?.pdb.is_some();
        let how = logminer::How {
            dictionary: self.dictionary,
            in_pdb,
            shipped_from: self.shipped_from,
            downstream: self.mining,
        };
        if self.mining {
            // The source's redo received here; its threads are the source's, whose V$THREAD
            // is not this database's: the shipped logs are judged by their sequences alone.
            let source = self.shipped_from;
            let logs: Vec<LogFile> = logminer::read_shipped_logs(&*self.conn)?
                .into_iter()
                .filter(|l| source.is_none_or(|s| s.holds(l)))
                .collect();
            return logminer::mine(&*self.conn, (&logs, &[]), how, (start, end), filter, row);
        }
        let logs = match self.is_standby()? {
            true => logminer::read_archived_logs(&*self.conn)?,
            false => logminer::read_logs(&*self.conn)?,
        };
        // Every thread's logs must cover the window (V$THREAD); inside a PDB LogMiner finds
        // the logs itself.
        let threads = match in_pdb {
            true => Vec::new(),
            false => logminer::read_threads(&*self.conn)?,
        };
        logminer::mine(
            &*self.conn,
            (&logs, &threads),
            how,
            (start, end),
            filter,
            row,
        )
    }
}

impl Admin for OracleSession {
    fn insert_signal(&mut self, table: &TableName, row: &SignalRow) -> Result<()> {
        let c = CallContext {
            table: Some(table.owner_table()),
            operation: "signal insert",
            ..CallContext::default()
        };
        // Bind names avoid reserved words (ORA-01745). The session works in one container: the
        // signal table must be in it.
        let here = self.current_container()?.pdb;
        if table.pdb.is_some() && table.pdb != here {
            return Err(CdcError::Database(format!(
                "the signal table {table} is in another container than this session's ({}): connect to that PDB's service",
                here.as_deref().unwrap_or("CDB$ROOT")
            )));
        }
        let text = sql::insert_signal(table).map_err(CdcError::Database)?;
        let binds = [
            ("signal_id", Bind::Text(row.id.clone())),
            ("signal_type", Bind::Text(row.kind.clone())),
            // Oracle stores the empty VARCHAR2 as NULL: no data binds as ''.
            (
                "signal_data",
                Bind::Text(row.data.clone().unwrap_or_default()),
            ),
        ];
        self.conn
            .execute(&text, &binds)
            .map_err(|e| e.runtime(&c))?;
        self.conn.commit().map_err(|e| e.runtime(&c))
    }
}

#[cfg(test)]
mod tests;
