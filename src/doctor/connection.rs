//! connection.*: client libraries, login, version, CDB/PDB layout, role and open mode.

use super::facts::{Connect, Facts, SourceKind};
use super::Finding;
use crate::errors::Code;
use crate::source::model::{DatabaseRole, OpenMode};

pub(super) fn check(id: &str, f: &Facts) -> Finding {
    match id {
        "connection.client" => client(f),
        "connection.login" => login(f),
        "connection.version" => version(f),
        "connection.multitenant" => multitenant(f),
        _ => role(f),
    }
}

fn client(f: &Facts) -> Finding {
    if f.kind == SourceKind::Emulator {
        return Finding::pass("embedded emulator: no Oracle Client libraries needed");
    }
    match &f.connect {
        Connect::Connected => Finding::pass("Oracle Client libraries loaded"),
        Connect::Failed(e) if e.code() == Code::Cdc2001 => {
            let info = Code::Cdc2001.info();
            // The message repeats the remedy after the driver's text: the fix column has it.
            let mut found = e.to_string();
            if let Some(end) = found.find("); ") {
                found.truncate(end + 1);
            }
            Finding::fail(found, info.remedy).because(info.explanation)
        }
        Connect::Failed(_) => Finding::pass(
            "Oracle Client libraries loaded (the connection failed after that: see connection.login)",
        ),
        Connect::NotTried(e) => Finding::skip(format!("not tried: {e}")),
    }
}

fn login(f: &Facts) -> Finding {
    match &f.connect {
        Connect::Connected => Finding::pass(format!("connected to {}", f.target)),
        Connect::Failed(e) if e.code() == Code::Cdc2001 => Finding::skip(
            "not tried: the Oracle Client libraries could not be loaded (see connection.client)",
        ),
        Connect::Failed(e) | Connect::NotTried(e) => {
            Finding::fail(e.to_string(), e.code().info().remedy)
        }
    }
}

fn version(f: &Facts) -> Finding {
    let db = match &f.db {
        Ok(db) => db,
        Err(e) => return Finding::skip(e.clone()),
    };
    let compatible = f
        .config
        .as_ref()
        .ok()
        .and_then(|c| c.compatible.clone())
        .map(|c| format!(", COMPATIBLE {c}"))
        .unwrap_or_default();
    let found = format!("Oracle Database {} {}{compatible}", db.version, db.edition);
    match f.major_version() {
        Some(v) if v < 12 => Finding::fail(
            format!("{found}: older than 12.1"),
            "upgrade the database to 19c or later",
        ),
        Some(v) if v < 19 => Finding::warn(
            format!("{found}: older than 19c, which oracle-cdc is built and tested against"),
            "upgrade the database to 19c or later",
        ),
        Some(_) => Finding::pass(found),
        None => Finding::warn(
            format!("{found}: the release number cannot be read"),
            "check V$VERSION / PRODUCT_COMPONENT_VERSION; oracle-cdc needs 19c or later",
        ),
    }
}

fn multitenant(f: &Facts) -> Finding {
    let db = match &f.db {
        Ok(db) => db,
        Err(e) => return Finding::skip(e.clone()),
    };
    if !db.cdb {
        return Finding::pass("not a container database (non-CDB)");
    }
    let pdbs = if db.pdbs.is_empty() {
        "none listed".to_string()
    } else {
        db.pdbs.join(", ")
    };
    let container = match &f.config {
        Ok(c) => c.container.clone(),
        Err(e) => return Finding::skip(format!("a container database; {e}")),
    };
    match container.as_deref() {
        Some("CDB$ROOT") => Finding::pass(format!(
            "container database, connected to CDB$ROOT; open PDBs: {pdbs}"
        )),
        Some(pdb) if !f.streams() => Finding::pass(format!(
            "container database, connected to PDB {pdb} ({} does not mine redo)",
            f.mode()
        )),
        Some(pdb) => Finding::fail(
            format!("container database, connected to PDB {pdb}: streaming cannot add log files there (ORA-65040)"),
            format!(
                "connect a common user to the root container: cdc.database.url: HOST:PORT/<service of CDB$ROOT>, cdc.database.user: {} (CREATE USER C##CDC … CONTAINER=ALL)",
                f.grantee()
            ),
        ),
        None => Finding::skip(format!(
            "a container database, but the session's container is unknown; open PDBs: {pdbs}"
        )),
    }
}

fn role(f: &Facts) -> Finding {
    let db = match &f.db {
        Ok(db) => db,
        Err(e) => return Finding::skip(e.clone()),
    };
    let found = format!("{}, {}", db.role.as_oracle(), db.open_mode.as_oracle());
    match (db.role, db.open_mode) {
        (DatabaseRole::Primary, OpenMode::ReadWrite) => Finding::pass(found),
        (_, OpenMode::Mounted) => Finding::fail(
            format!("{found}: not open, so nothing can be queried"),
            "ALTER DATABASE OPEN;  -- a physical standby: ALTER DATABASE OPEN READ ONLY;",
        ),
        _ => Finding::warn(
            format!("{found}: capture will run read-only; nothing is written to this database"),
            "nothing to change if read-only capture is intended (signals go through the file spool); to use a signal table, point cdc.database.url at the primary",
        ),
    }
}
