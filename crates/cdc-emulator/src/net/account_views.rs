//! The dictionary views of the database rather than of its tables: users (ALL_USERS), the
//! session's grants (SESSION_PRIVS, SESSION_ROLES, ALL_TAB_PRIVS), storage (DBA_EXTENTS,
//! DBA_TABLESPACES) and the release (PRODUCT_COMPONENT_VERSION), built from the same user and
//! replica the in-process session reads, behind the same grants.

use super::catalog_views::created;
use super::relation::*;
use crate::errors::Result;
use crate::EmulatorSession;
use emulator_sql::Relation;
use oracle_datum::OraType;

/// ALL_USERS: Oracle's own schemas (ORACLE_MAINTAINED 'Y'), the database's users and the
/// owners of its tables.
pub(super) fn all_users(s: &mut EmulatorSession) -> Result<Relation> {
    let created = created(s)?;
    let spec = [
        ("USERNAME", NAME),
        ("USER_ID", NUM),
        ("CREATED", OraType::Date),
        ("COMMON", text(3)),
        ("ORACLE_MAINTAINED", text(1)),
    ];
    let mut names: std::collections::BTreeMap<String, bool> = Default::default();
    for o in cdc_core::filter::ORACLE_SCHEMAS
        .iter()
        .chain(&["SYS", "SYSTEM", "PUBLIC", "XDB", "OUTLN"])
    {
        names.insert(o.to_string(), true);
    }
    {
        let r = s.replica()?;
        for u in super::super::access::users(&r.schema) {
            names.entry(u.name).or_insert(false);
        }
    }
    for info in s.visible_tables()? {
        names.entry(info.name.owner.clone()).or_insert(false);
    }
    let rows = names
        .into_iter()
        .enumerate()
        .map(|(i, (name, oracle))| {
            let common = oracle || name.starts_with("C##");
            vec![
                t(&name),
                n(i as i64),
                created.clone(),
                yes_no(common),
                y_n(oracle),
            ]
        })
        .collect();
    Ok(view(&spec, rows))
}

/// ALL_EXTERNAL_TABLES: the emulator has none.
pub(super) fn all_external_tables() -> Relation {
    view(
        &[
            ("OWNER", NAME),
            ("TABLE_NAME", NAME),
            ("TYPE_OWNER", NAME),
            ("TYPE_NAME", NAME),
            ("DEFAULT_DIRECTORY_OWNER", NAME),
            ("DEFAULT_DIRECTORY_NAME", NAME),
        ],
        Vec::new(),
    )
}

/// DBA_EXTENTS of every visible table (the catalog statement narrows by OWNER and
/// SEGMENT_NAME); an index-organised table's segment is its index, not listed under the table,
/// and a clustered table's is its cluster's, listed once under the cluster's name with
/// SEGMENT_TYPE CLUSTER.
pub(super) fn dba_extents(s: &mut EmulatorSession) -> Result<Relation> {
    s.user
        .read_dictionary("DBA_EXTENTS", "reading DBA_EXTENTS")?;
    let spec = [
        ("OWNER", NAME),
        ("SEGMENT_NAME", NAME),
        ("PARTITION_NAME", NAME),
        ("SEGMENT_TYPE", text(18)),
        ("TABLESPACE_NAME", NAME),
        ("EXTENT_ID", NUM),
        ("FILE_ID", NUM),
        ("BLOCK_ID", NUM),
        ("BYTES", NUM),
        ("BLOCKS", NUM),
        ("RELATIVE_FNO", NUM),
    ];
    let mut rows = Vec::new();
    let mut clusters = std::collections::BTreeSet::new();
    for info in s.visible_tables()? {
        let (segment, extents) = match &info.cluster {
            Some(c) if clusters.insert((info.name.owner.clone(), c.clone())) => (
                c.as_str(),
                cdc_core::session::Catalog::cluster_extents(s, &info.name, c)?,
            ),
            Some(_) => continue,
            None => (
                info.name.table.as_str(),
                cdc_core::session::Catalog::extents(s, &info.name)?,
            ),
        };
        for (i, e) in extents.iter().enumerate() {
            let (o, tn) = (t(&info.name.owner), t(segment));
            let ty = if info.cluster.is_some() {
                "CLUSTER"
            } else if e.partition.is_some() {
                "TABLE PARTITION"
            } else {
                "TABLE"
            };
            rows.push(vec![
                o,
                tn,
                opt(e.partition.clone()),
                t(ty),
                t(if e.bigfile { "BIGFILE_DATA" } else { "USERS" }),
                n(i as i64),
                n(e.relative_fno),
                n(e.block_id),
                n(i128::from(e.blocks) * 8192),
                n(e.blocks),
                n(e.relative_fno),
            ]);
        }
    }
    Ok(view(&spec, rows))
}

pub(super) fn dba_tablespaces(s: &mut EmulatorSession) -> Result<Relation> {
    s.user
        .read_dictionary("DBA_TABLESPACES", "reading DBA_TABLESPACES")?;
    let guarantee = s.replica()?.schema.database.undo_guarantee;
    let spec = [
        ("TABLESPACE_NAME", NAME),
        ("BLOCK_SIZE", NUM),
        ("STATUS", text(9)),
        ("CONTENTS", text(21)),
        ("RETENTION", text(11)),
        ("BIGFILE", text(3)),
    ];
    let row = |name: &str, contents: &str, retention: &str, big: bool| {
        vec![
            t(name),
            n(8192),
            t("ONLINE"),
            t(contents),
            t(retention),
            yes_no(big),
        ]
    };
    let rows = vec![
        row("SYSTEM", "PERMANENT", "NOT APPLY", false),
        row("SYSAUX", "PERMANENT", "NOT APPLY", false),
        row(
            "UNDOTBS1",
            "UNDO",
            if guarantee {
                "GUARANTEE"
            } else {
                "NOGUARANTEE"
            },
            false,
        ),
        row("TEMP", "TEMPORARY", "NOT APPLY", false),
        row("USERS", "PERMANENT", "NOT APPLY", false),
        row("BIGFILE_DATA", "PERMANENT", "NOT APPLY", true),
    ];
    Ok(view(&spec, rows))
}

pub(super) fn session_privs(s: &mut EmulatorSession) -> Relation {
    let rows = s
        .user
        .privileges
        .system
        .iter()
        .map(|p| vec![t(p)])
        .collect();
    view(&[("PRIVILEGE", text(40))], rows)
}

/// USER_RESOURCE_LIMITS: the kernel limits of the session user's profile, in Oracle's order.
/// SESSIONS_PER_USER and LOGICAL_READS_PER_CALL are the user's
/// (`database.users[].sessions_per_user`, `….logical_reads_per_call`); IDLE_TIME and
/// CONNECT_TIME the drills' (`cdc.emulator.fault.idle.timeout.ms`, `….connect.time.ms`, in
/// whole minutes as a profile has them); the rest UNLIMITED, as in Oracle's DEFAULT profile.
/// Readable by every user.
pub(super) fn user_resource_limits(s: &mut EmulatorSession) -> Relation {
    let unlimited = || "UNLIMITED".to_string();
    let sessions = s
        .user
        .session_limit
        .map_or_else(unlimited, |n| n.to_string());
    let reads_per_call = s
        .user
        .reads_per_call
        .map_or_else(unlimited, |n| n.to_string());
    let (idle_ms, connect_ms) = s
        .shared
        .faults
        .lock()
        .map(|f| {
            (
                f.faults.settings.idle_timeout_ms,
                f.faults.settings.connect_time_ms,
            )
        })
        .unwrap_or((0, 0));
    // A profile's times are whole minutes.
    let minutes = |ms: u64| {
        if ms == 0 {
            unlimited()
        } else {
            ms.div_ceil(60_000).to_string()
        }
    };
    let (idle, connect) = (minutes(idle_ms), minutes(connect_ms));
    let rows = [
        ("COMPOSITE_LIMIT", unlimited()),
        ("SESSIONS_PER_USER", sessions),
        ("CPU_PER_SESSION", unlimited()),
        ("CPU_PER_CALL", unlimited()),
        ("LOGICAL_READS_PER_SESSION", unlimited()),
        ("LOGICAL_READS_PER_CALL", reads_per_call),
        ("IDLE_TIME", idle),
        ("CONNECT_TIME", connect),
        ("PRIVATE_SGA", unlimited()),
    ]
    .into_iter()
    .map(|(name, limit)| vec![t(name), t(limit)])
    .collect();
    view(&[("RESOURCE_NAME", text(32)), ("LIMIT", text(40))], rows)
}

pub(super) fn session_roles(s: &mut EmulatorSession) -> Relation {
    let rows = s.user.privileges.roles.iter().map(|p| vec![t(p)]).collect();
    view(&[("ROLE", NAME)], rows)
}

/// ALL_TAB_PRIVS: the user's object grants (GRANTEE the user; grants through roles are the
/// user's in the emulator's model, so GRANTEE is the user for all of them).
pub(super) fn all_tab_privs(s: &mut EmulatorSession) -> Relation {
    let spec = [
        ("GRANTOR", NAME),
        ("GRANTEE", NAME),
        ("TABLE_SCHEMA", NAME),
        ("TABLE_NAME", NAME),
        ("PRIVILEGE", text(40)),
        ("GRANTABLE", text(3)),
        ("HIERARCHY", text(3)),
        ("COMMON", text(3)),
        ("TYPE", text(24)),
    ];
    let user = s.user.name.clone();
    let rows = s
        .user
        .privileges
        .objects
        .iter()
        .map(|(owner, object, privilege)| {
            vec![
                t(owner),
                t(&user),
                t(owner),
                t(object),
                t(privilege),
                t("NO"),
                t("NO"),
                t("NO"),
                t("TABLE"),
            ]
        })
        .collect();
    view(&spec, rows)
}

pub(super) fn product_component_version(s: &mut EmulatorSession) -> Result<Relation> {
    let d = s.replica()?.schema.database.clone();
    let major = super::super::session::major(&d.version);
    let minor: u32 = d
        .version
        .split('.')
        .nth(1)
        .and_then(|m| m.trim().parse().ok())
        .unwrap_or(0);
    // From release update 23.26 (October 2025) the product is "Oracle AI Database 26ai"
    // (the 26ai Upgrade Guide, "About Oracle Database Release Numbers"); its major version
    // stays 23.
    let product = match (major, minor) {
        (23, m) if m >= 26 => "Oracle AI Database 26ai".to_string(),
        (m, _) if m >= 23 => format!("Oracle Database {m}ai"),
        (m, _) => format!("Oracle Database {m}c"),
    };
    let base = format!("{major}.0.0.0.0");
    let rows = vec![vec![
        t(format!("{product} {} ", d.edition)),
        t(base),
        t(d.version.clone()),
        t("Production"),
    ]];
    Ok(view(
        &[
            ("PRODUCT", text(80)),
            ("VERSION", text(80)),
            ("VERSION_FULL", text(80)),
            ("STATUS", text(80)),
        ],
        rows,
    ))
}

/// DBA_CONTAINER_DATA: the users' default (user-level) CONTAINER_DATA attributes, one row with
/// ALL_CONTAINERS 'Y' for `all`, else one row per container named; users with the default (the
/// root alone) have none. Read in CDB$ROOT (a PDB's has no rows: the attribute is the root's).
pub(super) fn dba_container_data(s: &mut EmulatorSession) -> Result<Relation> {
    s.user
        .read_dictionary("DBA_CONTAINER_DATA", "reading DBA_CONTAINER_DATA")?;
    let spec = [
        ("USERNAME", NAME),
        ("DEFAULT_ATTR", text(1)),
        ("OWNER", NAME),
        ("OBJECT_NAME", NAME),
        ("ALL_CONTAINERS", text(1)),
        ("CONTAINER_NAME", NAME),
        ("CON_ID", NUM),
    ];
    let mut rows = Vec::new();
    if s.in_root() {
        let users = {
            let r = s.replica()?;
            super::super::access::users(&r.schema)
        };
        for u in users {
            let Some(cd) = &u.privileges.container_data else {
                continue;
            };
            let row = |all: bool, container: Option<&str>| {
                vec![
                    t(&u.name),
                    t("Y"),
                    opt(None::<String>),
                    opt(None::<String>),
                    y_n(all),
                    opt(container),
                    n(1),
                ]
            };
            if cd.all {
                rows.push(row(true, None));
            } else if cd.containers.len() > 1 {
                for c in &cd.containers {
                    rows.push(row(false, Some(c)));
                }
            }
        }
    }
    Ok(view(&spec, rows))
}

/// USER_GOLDENGATE_PRIVILEGES: the user's GoldenGate administrator grants in effect in this
/// container (`DBMS_GOLDENGATE_AUTH.GRANT_ADMIN_PRIVILEGE`; Reference, ALL_GOLDENGATE_PRIVILEGES:
/// PRIVILEGE_TYPE VARCHAR2(7), GRANT_SELECT_PRIVILEGES VARCHAR2(3), CREATE_TIME TIMESTAMP(6);
/// the USER_ view has no USERNAME). Any user may read its own.
pub(super) fn user_goldengate_privileges(s: &mut EmulatorSession) -> Result<Relation> {
    let created = match created(s)? {
        oracle_datum::Datum::Date(d) => oracle_datum::Datum::Timestamp(d),
        other => other,
    };
    let rows = s
        .user
        .privileges
        .goldengate
        .iter()
        .flatten()
        .map(|g| {
            vec![
                t(&g.privilege_type),
                yes_no(g.select_privileges),
                created.clone(),
            ]
        })
        .collect();
    Ok(view(
        &[
            ("PRIVILEGE_TYPE", text(7)),
            ("GRANT_SELECT_PRIVILEGES", text(3)),
            ("CREATE_TIME", OraType::Timestamp(6)),
        ],
        rows,
    ))
}
