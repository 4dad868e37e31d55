//! privileges.*: the grants each configured feature needs, and only those.
//!
//! | Feature | Needs |
//! |---|---|
//! | every run | CREATE SESSION; SELECT on V_$DATABASE, V_$PARAMETER, DBA_OBJECTS |
//! | snapshots (mode ≠ none) | FLASHBACK and SELECT on each captured table (or FLASHBACK / SELECT ANY TABLE) |
//! | streaming (mode ≠ snapshot_only) | LOGMINING (SELECT ANY TRANSACTION before 12c); EXECUTE on DBMS_LOGMNR; SELECT on V_$LOG, V_$LOGFILE, V_$ARCHIVED_LOG, V_$ARCHIVE_DEST_STATUS, V_$LOGMNR_CONTENTS, V_$THREAD, GV_$DATABASE, GV_$TRANSACTION, GV_$INSTANCE |
//! | ROWID chunking (a captured table without usable key) | SELECT on DBA_EXTENTS, DBA_TABLESPACES |
//! | multitenant, root mode | SET CONTAINER; SELECT on V_$PDBS; a CONTAINER_DATA attribute covering the PDBs |
//! | dictionary builds (cdc.mining.dictionary=redo_logs, .build=log_switch, not read-only, root or non-CDB) | EXECUTE on DBMS_LOGMNR_D |
//! | per-PDB mining (streaming, the session in a PDB, 19c+) | the LogMiner grants above, and a local user provisioned with DBMS_GOLDENGATE_AUTH.GRANT_ADMIN_PRIVILEGE (USER_GOLDENGATE_PRIVILEGES) |
//!
//! A dictionary view's SELECT is also held through SELECT_CATALOG_ROLE or SELECT ANY
//! DICTIONARY, DBMS_LOGMNR's EXECUTE through EXECUTE_CATALOG_ROLE; a table's owner needs no
//! grant on it. Nothing the tool runs writes, so no INSERT/UPDATE grant is ever asked for (a
//! signal table, when configured, will need INSERT on it alone).
//!
//! Where: a user exercises only the grants in effect in its current container, common ones
//! and those granted there (Security Guide, "How the Oracle Multitenant Option Affects
//! Privileges"). In root mode mining and the V$ views are read in CDB$ROOT, while a table's
//! catalog and reads happen inside its PDB: each captured table is judged with the grants read
//! inside its PDB, and a missing table grant is given there (`ALTER SESSION SET CONTAINER =
//! PDB1;` then the GRANT: a grant on a PDB's table cannot be common, ORA-65033).

use super::facts::Facts;
use super::{list, Finding};
use crate::snapshot::target::Strategy;
use cdc_core::model::{Dictionary, Privileges, ROOT_CONTAINER};

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

/// The PDB the session stays in (per-PDB mode), if any.
fn home_pdb(f: &Facts) -> Option<String> {
    f.config
        .as_ref()
        .ok()
        .and_then(|c| c.container.clone())
        .filter(|c| c != ROOT_CONTAINER)
}

/// Root mode: the PDBs whose grants were read inside them, with those grants (a PDB whose
/// grants could not be read is left out: its tables' reads fail first).
fn pdb_grants(f: &Facts) -> Vec<(&str, &Privileges)> {
    f.pdb_privileges
        .iter()
        .filter_map(|(pdb, p)| p.as_ref().ok().map(|p| (pdb.as_str(), p)))
        .collect()
}

/// The grants in effect where the session is, and how to give a missing one; or the SKIP
/// naming why they are unknown, which every privileges.* check gives without them.
fn held(f: &Facts) -> Result<(&Privileges, Grants), Finding> {
    let p = match &f.privileges {
        Ok(p) => p,
        Err(e) => return Err(Finding::skip(e.clone())),
    };
    let cdb = f.db.as_ref().is_ok_and(|d| d.cdb);
    // A common user's grants are given commonly from the root; in per-PDB mode the user's
    // grants are made inside its PDB (a local user cannot be granted commonly, ORA-65030).
    let g = Grants {
        grantee: f.grantee(),
        scope: if cdb && home_pdb(f).is_none() {
            " CONTAINER=ALL"
        } else {
            ""
        },
    };
    Ok((p, g))
}

/// privileges.catalog: CREATE SESSION and the catalog views every run reads.
pub(super) fn catalog(f: &Facts) -> Finding {
    let (p, g) = match held(f) {
        Ok(held) => held,
        Err(skip) => return skip,
    };
    let mut needs: Vec<Placed> = vec![
        here(g.system("CREATE SESSION"), p),
        here(g.dictionary("V_$DATABASE"), p),
        here(g.dictionary("V_$PARAMETER"), p),
    ];
    // Root mode reads each PDB's catalog (DBA_OBJECTS) inside it.
    let pdbs = pdb_grants(f);
    needs.push(match pdbs.is_empty() {
        true => here(g.dictionary("DBA_OBJECTS"), p),
        false => (
            g.dictionary("DBA_OBJECTS"),
            pdbs.iter().map(|(c, p)| (Some(*c), *p)).collect(),
        ),
    });
    judge_placed(needs)
}

/// privileges.snapshot: FLASHBACK and SELECT on each captured table, in its container.
pub(super) fn snapshot(f: &Facts) -> Finding {
    let g = match held(f) {
        Ok((_, g)) => g,
        Err(skip) => return skip,
    };
    snapshot_grants(f, &g)
}

/// privileges.logmining: LOGMINING, DBMS_LOGMNR (and DBMS_LOGMNR_D when capture builds the
/// dictionary) and the V$ views streaming reads.
pub(super) fn logmining(f: &Facts) -> Finding {
    let (p, g) = match held(f) {
        Ok(held) => held,
        Err(skip) => return skip,
    };
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
    // cdc.mining.dictionary.build=log_switch: capture runs DBMS_LOGMNR_D.BUILD in
    // CDB$ROOT (or the non-CDB) of the database it mines; without EXECUTE it stops
    // building (`dictionary-build-failed`) and every window reads back to the last
    // build a DBA made.
    let s = &f.settings;
    if s.mining_dictionary == Dictionary::RedoLogs
        && s.dictionary_build_at_switch
        && !s.read_only
        && s.mining_url().is_none()
        && home_pdb(f).is_none()
    {
        needs.push(Need {
            label: "EXECUTE on DBMS_LOGMNR_D".into(),
            alts: vec![
                Alt::Object("SYS".into(), "DBMS_LOGMNR_D".into(), "EXECUTE"),
                Alt::Role("EXECUTE_CATALOG_ROLE"),
            ],
            grant: format!(
                "GRANT EXECUTE ON SYS.DBMS_LOGMNR_D TO {}{};",
                g.grantee, g.scope
            ),
        });
    }
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
    let individual = judge(p, needs);
    match home_pdb(f) {
        Some(pdb) if f.major_version().is_none_or(|v| v >= 19) => {
            per_pdb_mining(f, p, &pdb, individual)
        }
        _ => individual,
    }
}

/// privileges.rowid-chunking: DBA_EXTENTS and DBA_TABLESPACES, where a table is read by ROWID
/// ranges.
pub(super) fn rowid_chunking(f: &Facts) -> Finding {
    let (p, g) = match held(f) {
        Ok(held) => held,
        Err(skip) => return skip,
    };
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
    // Read in the table's container (each PDB in root mode).
    let places: Vec<(Option<&str>, &Privileges)> = {
        let mut pdbs: Vec<Option<&str>> = f
            .targets()
            .iter()
            .filter(|t| t.strategy == Strategy::Rowid)
            .map(|t| t.name().pdb.as_deref())
            .collect();
        pdbs.sort();
        pdbs.dedup();
        pdbs.into_iter()
            .filter_map(|pdb| match f.privileges_in(pdb) {
                Ok(p) => Some((pdb.filter(|_| !f.pdb_privileges.is_empty()), p)),
                Err(_) => None,
            })
            .collect()
    };
    let places = if places.is_empty() {
        vec![(None, p)]
    } else {
        places
    };
    judge_placed(vec![
        (g.dictionary("DBA_EXTENTS"), places.clone()),
        (g.dictionary("DBA_TABLESPACES"), places),
    ])
    .because(format!(
        "{} (here: {})",
        super::check("privileges.rowid-chunking")
            .map(|c| c.why)
            .unwrap_or_default(),
        list(&rowid, 5)
    ))
}

/// privileges.multitenant: SET CONTAINER, V$PDBS and a CONTAINER_DATA attribute in root mode.
pub(super) fn multitenant(f: &Facts) -> Finding {
    let (p, g) = match held(f) {
        Ok(held) => held,
        Err(skip) => return skip,
    };
    let cdb = f.db.as_ref().is_ok_and(|d| d.cdb);
    if !cdb {
        return Finding::pass("not needed: not a container database");
    }
    let container = f.config.as_ref().ok().and_then(|c| c.container.clone());
    if let Some(pdb) = container.filter(|c| c != cdc_core::model::ROOT_CONTAINER) {
        return Finding::pass(format!(
            "not needed: the session stays in {pdb} (per-PDB mode)"
        ));
    }
    // V$PDBS lists the PDBs to read (an unreadable one lists none).
    let set_container = judge(p, vec![g.system("SET CONTAINER"), g.dictionary("V_$PDBS")]);
    let lacks_set = set_container.severity == super::Severity::Fail;
    // Root mode also needs the PDBs' rows of V$PDBS and V$TRANSACTION in the root.
    match &p.container_data {
        Some(cd) if !cd.covers_a_pdb() => Finding::fail(
            format!(
                "CONTAINER_DATA: {} sees only CDB$ROOT's rows of V$PDBS and V$TRANSACTION (Oracle's default), so capture in the root finds no PDB (CDC-2303){}",
                g.grantee,
                if lacks_set { format!("; and {}", set_container.found) } else { String::new() }
            ),
            format!(
                "ALTER USER {} SET CONTAINER_DATA=ALL CONTAINER=CURRENT;{}",
                g.grantee,
                match (lacks_set, &set_container.fix) {
                    (true, Some(fix)) => format!("\n{fix}"),
                    _ => String::new(),
                }
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

/// A need and the containers it must be held in, each with the grants in effect there (`None`:
/// where the session is).
type Placed<'a> = (Need, Vec<(Option<&'a str>, &'a Privileges)>);

fn here(n: Need, p: &Privileges) -> Placed<'_> {
    (n, vec![(None, p)])
}

/// PASS naming what is held (and through which role), or FAIL naming what is missing with
/// the GRANTs that add it.
fn judge(p: &Privileges, needs: Vec<Need>) -> Finding {
    judge_placed(needs.into_iter().map(|n| here(n, p)).collect())
}

/// [`judge`] with each need held in each of its containers; one missing somewhere is named
/// with those containers (`SELECT on DBA_OBJECTS in PDB2`).
fn judge_placed(needs: Vec<Placed>) -> Finding {
    let (mut held, mut views, mut through) = (Vec::new(), Vec::new(), Vec::new());
    let mut missing: Vec<Need> = Vec::new();
    for (n, places) in needs {
        if places.is_empty() {
            continue;
        }
        let hows: Vec<Option<&'static str>> = places.iter().map(|(_, p)| n.held_by(p)).collect();
        let lacking: Vec<&str> = places
            .iter()
            .zip(&hows)
            .filter(|(_, how)| how.is_none())
            .map(|((c, _), _)| c.unwrap_or(""))
            .collect();
        let held_how = match lacking.is_empty() {
            true => hows.into_iter().flatten().next(),
            false => None,
        };
        match held_how {
            None => {
                let named: Vec<&str> = lacking.into_iter().filter(|c| !c.is_empty()).collect();
                let mut n = n;
                if !named.is_empty() {
                    n.label = format!("{} in {}", n.label, named.join(", "));
                }
                missing.push(n);
            }
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
    let mut grants: Vec<String> = missing.iter().map(|n| n.grant.clone()).collect();
    grants.dedup();
    Finding::fail(format!("missing: {}", labels.join(", ")), grants.join("\n")).on(labels)
}

/// The call 19c's Utilities gives for a per-PDB LogMiner user ("Requirements for Running
/// LogMiner for Individual PDBs", 23.12.1), run AS SYSDBA inside the PDB.
fn goldengate_grant(pdb: &str, grantee: &str) -> String {
    format!(
        "-- as SYSDBA (DBMS_GOLDENGATE_AUTH runs AS SYSDBA only), in {pdb}:\nALTER SESSION SET CONTAINER = {pdb};\nBEGIN DBMS_GOLDENGATE_AUTH.GRANT_ADMIN_PRIVILEGE(grantee => '{grantee}', privilege_type => 'CAPTURE', grant_select_privileges => TRUE, do_grants => TRUE, container => 'CURRENT'); END;"
    )
}

/// Why per-PDB mining's result matters.
const PER_PDB_WHY: &str = "per-PDB mode mines inside the PDB (19c and later: START_LOGMNR by SCN range, the PDB's own redo); Oracle documents it for a local user provisioned with DBMS_GOLDENGATE_AUTH.GRANT_ADMIN_PRIVILEGE (19c Utilities, 23.12.1), and without the LogMiner grants streaming stops with CDC-2401 (ORA-01031, PLS-00201, ORA-00942)";

/// Per-PDB mining (19c+): the LogMiner grants one by one, and the provisioning the Utilities
/// guide lists for it, a local user made a GoldenGate CAPTURE administrator. Neither: FAIL
/// with the call; the individual grants alone: WARN naming the requirement.
fn per_pdb_mining(f: &Facts, p: &Privileges, pdb: &str, individual: Finding) -> Finding {
    let requirement = "19c's Utilities guide (23.12.1, \"Requirements for Running LogMiner for Individual PDBs\") requires a local user provisioned with DBMS_GOLDENGATE_AUTH.GRANT_ADMIN_PRIVILEGE for LogMiner run inside a PDB";
    let grantee = f.grantee();
    match (p.goldengate_capture(), individual.severity) {
        (Some(true), _) => {
            let mut r = individual;
            if r.severity == super::Severity::Pass {
                r.found.push_str(&format!(
                    "; a GoldenGate CAPTURE administrator in {pdb} (USER_GOLDENGATE_PRIVILEGES)"
                ));
            }
            r
        }
        (held, super::Severity::Fail) => {
            let why = match held {
                Some(_) => {
                    format!("USER_GOLDENGATE_PRIVILEGES shows no CAPTURE privilege in {pdb}")
                }
                None => "USER_GOLDENGATE_PRIVILEGES could not be read".to_string(),
            };
            // DO_GRANTS => TRUE grants what a GoldenGate administrator needs, but the
            // documentation does not list it: the individual grants follow, in the PDB.
            let fix = match &individual.fix {
                Some(grants) => format!("{}\n{grants}", goldengate_grant(pdb, &grantee)),
                None => goldengate_grant(pdb, &grantee),
            };
            let mut r = Finding::fail(format!("{}; {why}: {requirement}", individual.found), fix)
                .because(PER_PDB_WHY)
                .on(individual.objects);
            r.objects.push("DBMS_GOLDENGATE_AUTH".into());
            r
        }
        (held, _) => Finding::warn(
            format!(
                "{}; but {}: {requirement}",
                individual.found,
                match held {
                    Some(_) =>
                        format!("USER_GOLDENGATE_PRIVILEGES shows no CAPTURE privilege in {pdb}"),
                    None => "USER_GOLDENGATE_PRIVILEGES could not be read".to_string(),
                }
            ),
            goldengate_grant(pdb, &grantee),
        )
        .because(PER_PDB_WHY)
        .on(vec!["DBMS_GOLDENGATE_AUTH".into()]),
    }
}

fn snapshot_grants(f: &Facts, g: &Grants) -> Finding {
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
    let mut unknown: Vec<String> = Vec::new();
    for t in &targets {
        let n = t.name();
        // Judged with the grants in effect in the table's own container.
        let p = match f.privileges_in(n.pdb.as_deref()) {
            Ok(held) => held,
            Err(e) => {
                unknown.push(format!("{n} ({e})"));
                continue;
            }
        };
        for privilege in ["FLASHBACK", "SELECT"] {
            let mut need = g.table(&n.owner, &n.table, &n.quoted(), privilege);
            if n.pdb.is_some() {
                need.label = format!("{privilege} on {n}");
            }
            match need.held_by(p) {
                None => missing.push((n.pdb.as_deref(), need)),
                Some(how) if how.contains("ANY") && !any.contains(&how) => any.push(how),
                Some(_) => {}
            }
        }
    }
    if missing.is_empty() && !unknown.is_empty() {
        return Finding::skip(format!(
            "the grants inside a PDB could not be read for {}",
            list(&unknown, 5)
        ));
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
