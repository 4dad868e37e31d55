//! privileges.*: the grants each configured feature needs, and only those.
//!
//! | Feature | Needs |
//! |---|---|
//! | every run | CREATE SESSION; SELECT on V_$DATABASE, V_$PARAMETER, DBA_OBJECTS |
//! | snapshots (mode ≠ none) | FLASHBACK and SELECT on each captured table (or FLASHBACK / SELECT ANY TABLE) |
//! | streaming (mode ≠ snapshot_only) | LOGMINING (SELECT ANY TRANSACTION before 12c); EXECUTE on DBMS_LOGMNR; SELECT on V_$LOG, V_$LOGFILE, V_$ARCHIVED_LOG, V_$ARCHIVE_DEST_STATUS, V_$LOGMNR_CONTENTS, V_$THREAD, GV_$DATABASE, GV_$TRANSACTION, GV_$INSTANCE |
//! | ROWID chunking (a captured table without usable key) | SELECT on DBA_EXTENTS, DBA_TABLESPACES |
//! | multitenant (a CDB) | SET CONTAINER |
//!
//! A dictionary view's SELECT is also held through SELECT_CATALOG_ROLE or SELECT ANY
//! DICTIONARY, DBMS_LOGMNR's EXECUTE through EXECUTE_CATALOG_ROLE; a table's owner needs no
//! grant on it. Nothing the tool runs writes, so no INSERT/UPDATE grant is ever asked for (a
//! signal table, when configured, will need INSERT on it alone).

use super::facts::Facts;
use super::{list, Finding};
use crate::snapshot::target::Strategy;
use crate::source::model::Privileges;

/// One way to hold a needed grant.
enum Alt {
    System(&'static str),
    Role(&'static str),
    Object(String, String, &'static str),
    /// The user owns the object.
    Owner,
}

/// A needed grant: how it is named, the ways to hold it, and the GRANT that gives it.
struct Need {
    label: String,
    alts: Vec<Alt>,
    grant: String,
}

impl Need {
    /// How `p` holds it, if it does.
    fn held_by(&self, p: &Privileges) -> Option<&'static str> {
        self.alts.iter().find_map(|a| match a {
            Alt::System(s) => p.system.contains(*s).then_some(*s),
            Alt::Role(r) => p.roles.contains(*r).then_some(*r),
            Alt::Object(o, n, pr) => p
                .objects
                .contains(&(o.clone(), n.clone(), pr.to_string()))
                .then_some("grant"),
            Alt::Owner => Some("owner"),
        })
    }
}

struct Grants {
    grantee: String,
    /// ` CONTAINER=ALL` for a common user in a CDB.
    scope: &'static str,
}

impl Grants {
    fn system(&self, name: &'static str) -> Need {
        Need {
            label: name.to_string(),
            alts: vec![Alt::System(name)],
            grant: format!("GRANT {name} TO {}{};", self.grantee, self.scope),
        }
    }

    /// SELECT on a SYS dictionary view (`V_$LOG`, shown as V$LOG).
    fn dictionary(&self, view: &str) -> Need {
        Need {
            label: format!("SELECT on {}", view.replacen("_$", "$", 1)),
            alts: vec![
                Alt::Object("SYS".into(), view.into(), "SELECT"),
                Alt::Role("SELECT_CATALOG_ROLE"),
                Alt::System("SELECT ANY DICTIONARY"),
            ],
            grant: format!(
                "GRANT SELECT ON SYS.{view} TO {}{};",
                self.grantee, self.scope
            ),
        }
    }

    fn table(&self, owner: &str, table: &str, quoted: &str, privilege: &'static str) -> Need {
        let mut alts = vec![
            Alt::System(if privilege == "FLASHBACK" {
                "FLASHBACK ANY TABLE"
            } else {
                "SELECT ANY TABLE"
            }),
            Alt::Object(owner.into(), table.into(), privilege),
        ];
        if owner.eq_ignore_ascii_case(&self.grantee) {
            alts.push(Alt::Owner);
        }
        Need {
            label: format!("{privilege} on {owner}.{table}"),
            alts,
            grant: format!("GRANT {privilege} ON {quoted} TO {};", self.grantee),
        }
    }
}

pub(super) fn check(id: &str, f: &Facts) -> Finding {
    let p = match &f.privileges {
        Ok(p) => p,
        Err(e) => return Finding::skip(e.clone()),
    };
    let cdb = f.db.as_ref().is_ok_and(|d| d.cdb);
    let g = Grants {
        grantee: f.grantee(),
        scope: if cdb { " CONTAINER=ALL" } else { "" },
    };
    match id {
        "privileges.catalog" => judge(
            p,
            vec![
                g.system("CREATE SESSION"),
                g.dictionary("V_$DATABASE"),
                g.dictionary("V_$PARAMETER"),
                g.dictionary("DBA_OBJECTS"),
            ],
        ),
        "privileges.snapshot" => snapshot(f, p, &g),
        "privileges.logmining" => {
            if !f.streams() {
                return Finding::pass(format!("not needed: {} does not stream", f.mode()));
            }
            let mut needs = vec![if f.major_version().is_some_and(|v| v < 12) {
                g.system("SELECT ANY TRANSACTION")
            } else {
                g.system("LOGMINING")
            }];
            needs.push(Need {
                label: "EXECUTE on DBMS_LOGMNR".into(),
                alts: vec![
                    Alt::Object("SYS".into(), "DBMS_LOGMNR".into(), "EXECUTE"),
                    Alt::Role("EXECUTE_CATALOG_ROLE"),
                ],
                grant: format!(
                    "GRANT EXECUTE ON SYS.DBMS_LOGMNR TO {}{};",
                    g.grantee, g.scope
                ),
            });
            for view in [
                "V_$LOG",
                "V_$LOGFILE",
                "V_$ARCHIVED_LOG",
                "V_$ARCHIVE_DEST_STATUS",
                "V_$LOGMNR_CONTENTS",
                "V_$THREAD",
                "GV_$DATABASE",
                "GV_$TRANSACTION",
                "GV_$INSTANCE",
            ] {
                needs.push(g.dictionary(view));
            }
            judge(p, needs)
        }
        "privileges.rowid-chunking" => {
            let rowid: Vec<String> = f
                .targets()
                .iter()
                .filter(|t| t.strategy == Strategy::Rowid)
                .map(|t| t.name().to_string())
                .collect();
            if !f.snapshots() {
                return Finding::pass(format!("not needed: {} takes no snapshot", f.mode()));
            }
            if rowid.is_empty() {
                return Finding::pass("not needed: no captured table is read by ROWID ranges");
            }
            // DBA_TABLESPACES: whether a segment's tablespace is bigfile (its ROWID layout).
            judge(
                p,
                vec![g.dictionary("DBA_EXTENTS"), g.dictionary("DBA_TABLESPACES")],
            )
            .because(format!(
                "{} (here: {})",
                super::check("privileges.rowid-chunking")
                    .map(|c| c.why)
                    .unwrap_or_default(),
                list(&rowid, 5)
            ))
        }
        _ => {
            if !cdb {
                return Finding::pass("not needed: not a container database");
            }
            let container = f.config.as_ref().ok().and_then(|c| c.container.clone());
            if let Some(pdb) = container.filter(|c| c != crate::source::model::ROOT_CONTAINER) {
                return Finding::pass(format!(
                    "not needed: the session stays in {pdb} (per-PDB mode)"
                ));
            }
            let set_container = judge(p, vec![g.system("SET CONTAINER")]);
            let lacks_set = set_container.severity == super::Severity::Fail;
            // Root mode also needs the PDBs' rows of V$PDBS and V$TRANSACTION in the root.
            match &p.container_data {
                Some(cd) if !cd.covers_a_pdb() => Finding::fail(
                    format!(
                        "CONTAINER_DATA: {} sees only CDB$ROOT's rows of V$PDBS and V$TRANSACTION (Oracle's default), so capture in the root finds no PDB (CDC-2303){}",
                        g.grantee,
                        if lacks_set { "; and SET CONTAINER is missing" } else { "" }
                    ),
                    format!(
                        "ALTER USER {} SET CONTAINER_DATA=ALL CONTAINER=CURRENT;{}",
                        g.grantee,
                        if lacks_set { format!("\nGRANT SET CONTAINER TO {} CONTAINER=ALL;", g.grantee) } else { String::new() }
                    ),
                )
                .on(vec!["CONTAINER_DATA".to_string()]),
                Some(cd) if !lacks_set => {
                    let mut f = set_container;
                    f.found.push_str(&format!(
                        "; CONTAINER_DATA {}",
                        if cd.all { "ALL".to_string() } else { cd.containers.iter().cloned().collect::<Vec<_>>().join(", ") }
                    ));
                    f
                }
                _ => set_container,
            }
        }
    }
}

/// PASS naming what is held (and through which role), or FAIL naming what is missing with
/// the GRANTs that add it.
fn judge(p: &Privileges, needs: Vec<Need>) -> Finding {
    let (mut held, mut views, mut through) = (Vec::new(), Vec::new(), Vec::new());
    let mut missing = Vec::new();
    for n in &needs {
        match n.held_by(p) {
            Some(how) => {
                if matches!(
                    how,
                    "SELECT_CATALOG_ROLE" | "EXECUTE_CATALOG_ROLE" | "SELECT ANY DICTIONARY"
                ) && !through.contains(&how)
                {
                    through.push(how);
                }
                match n.label.strip_prefix("SELECT on ") {
                    Some(view) => views.push(view.to_string()),
                    None => held.push(n.label.clone()),
                }
            }
            None => missing.push(n),
        }
    }
    if missing.is_empty() {
        if !views.is_empty() {
            held.push(format!("SELECT on {}", views.join(", ")));
        }
        let mut found = held.join("; ");
        if !through.is_empty() {
            found.push_str(&format!(" (via {})", through.join(", ")));
        }
        return Finding::pass(found);
    }
    let labels: Vec<String> = missing.iter().map(|n| n.label.clone()).collect();
    let grants: Vec<String> = missing.iter().map(|n| n.grant.clone()).collect();
    Finding::fail(format!("missing: {}", labels.join(", ")), grants.join("\n")).on(labels)
}

fn snapshot(f: &Facts, p: &Privileges, g: &Grants) -> Finding {
    if !f.snapshots() {
        return Finding::pass(format!(
            "not needed: {} takes no snapshot (the snapshot export command would need them)",
            f.mode()
        ));
    }
    if let Err(e) = &f.captured {
        return Finding::skip(e.clone());
    }
    let targets = f.targets();
    let mut missing: Vec<(Option<&str>, Need)> = Vec::new();
    let mut any = Vec::new();
    for t in &targets {
        let n = t.name();
        for privilege in ["FLASHBACK", "SELECT"] {
            let need = g.table(&n.owner, &n.table, &n.quoted(), privilege);
            match need.held_by(p) {
                None => missing.push((n.pdb.as_deref(), need)),
                Some(how) if how.contains("ANY") && !any.contains(&how) => any.push(how),
                Some(_) => {}
            }
        }
    }
    if missing.is_empty() {
        let how = if any.is_empty() {
            "per-table grants".to_string()
        } else {
            any.join(", ")
        };
        return Finding::pass(format!(
            "FLASHBACK and SELECT on all {} captured tables ({how})",
            targets.len()
        ));
    }
    let labels: Vec<String> = missing.iter().map(|(_, n)| n.label.clone()).collect();
    let fix = if missing.len() > 10 {
        format!(
            "GRANT FLASHBACK ANY TABLE TO {0}{1};\nGRANT SELECT ANY TABLE TO {0}{1};\n-- or per table (in its container), e.g. {2}",
            g.grantee, g.scope, missing[0].1.grant
        )
    } else {
        // Object grants are given in the table's own container.
        let mut lines = Vec::new();
        let mut container = None;
        for (pdb, n) in &missing {
            if pdb.is_some() && *pdb != container {
                lines.push(format!(
                    "ALTER SESSION SET CONTAINER = {};",
                    pdb.unwrap_or_default()
                ));
                container = *pdb;
            }
            lines.push(n.grant.clone());
        }
        lines.join("\n")
    };
    Finding::fail(format!("missing: {}", list(&labels, 8)), fix).on(labels)
}
