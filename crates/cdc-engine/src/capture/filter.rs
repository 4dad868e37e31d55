//! The mining filter capture sends with every LogMiner window: derived from what capture
//! captures, so V$LOGMNR_CONTENTS returns no row of another schema, of SYS or of Oracle's
//! internal DDL, and never leaves out a row capture needs.
//!
//! - Operation codes: the decoder's own list (`stream::decode::handled_codes`); DDL rows of
//!   Oracle's own DDL are left out, as the decoder skips them.
//! - Owners from `cdc.tables.include`: a pattern's owner part without wildcards is that owner;
//!   with `*` or `?` it is the literal text before the first one as a LIKE prefix (`APP*` →
//!   `APP%`; `*` alone, or a character class, keeps every owner but Oracle's own). Patterns
//!   are never narrowed to the tables that exist now: a table created while capture runs in
//!   a captured owner (CREATE TABLE, then its rows) passes, and the publisher decides then
//!   whether it is captured. Without include patterns every owner but Oracle's own schemas
//!   (`filter::ORACLE_SCHEMAS`, which the catalog never lists) passes. `cdc.tables.exclude`
//!   does not narrow the filter (the decoder applies it). The owner/table split of a pattern
//!   assumes owner names without a `.`.
//! - The signal table (`cdc.signal.data.collection` with the source channel on) passes
//!   whatever its owner.
//! - PDBs (a CDB only): from the include patterns' PDB parts the same way; a two-part pattern
//!   (`OWNER.TABLE`, any PDB) or no include patterns: every container.
//! - Rows without SEG_OWNER (START, COMMIT, ROLLBACK) always pass: a transaction's changes
//!   to captured tables are published at its COMMIT.
//! - Rows of objects LogMiner's dictionary does not know (`UNKNOWN`.`OBJ# n`) pass whatever
//!   the owner: the decoder resolves them by object number and counts those of tables it
//!   does not capture (`stream::unknown`).

use crate::settings::Settings;
use cdc_core::filter::{like_literal, MiningFilter, NameMatch, Owners};

/// What a pattern part selects.
enum Part {
    /// Any name.
    Any,
    One(NameMatch),
}

/// A glob part (`*` any run, `?` one character, `[…]`/`{…}`/`\` other glob syntax) as a name
/// condition that matches at least every name the glob does.
fn part(glob: &str) -> Part {
    if glob.contains(['[', ']', '{', '}', '\\']) {
        return Part::Any;
    }
    match glob.find(['*', '?']) {
        None => Part::One(NameMatch::Equals(glob.to_uppercase())),
        Some(0) => Part::Any,
        Some(i) => Part::One(NameMatch::Like(format!(
            "{}%",
            like_literal(&glob[..i].to_uppercase())
        ))),
    }
}

/// Collect a part into `list`; `Any` makes the whole condition "any" (`None`).
fn add(list: &mut Option<Vec<NameMatch>>, p: Part) {
    match (list.as_mut(), p) {
        (Some(_), Part::Any) => *list = None,
        (Some(l), Part::One(m)) => {
            if !l.contains(&m) {
                l.push(m)
            }
        }
        (None, _) => {}
    }
}

/// The filter for a capture of `settings` on a database that is a CDB or not.
pub fn mining_filter(settings: &Settings, cdb: bool) -> MiningFilter {
    let mut owners: Option<Vec<NameMatch>> = Some(Vec::new());
    let mut pdbs: Option<Vec<NameMatch>> = cdb.then(Vec::new);
    let patterns = settings.include.patterns();
    if patterns.is_empty() {
        owners = None;
        pdbs = None;
    }
    for p in patterns {
        let parts: Vec<&str> = p.split('.').collect();
        match parts.as_slice() {
            [owner, _] => {
                add(&mut owners, part(owner));
                pdbs = None;
            }
            // Three-part patterns match only tables with a PDB (names.rs).
            [pdb, owner, _] if cdb => {
                add(&mut owners, part(owner));
                add(&mut pdbs, part(pdb));
            }
            _ => {}
        }
    }
    let mut tables = Vec::new();
    if let (true, Some(t)) = (settings.signal.source, &settings.signal.data_collection) {
        tables.push((t.owner.clone(), t.table.clone()));
        // A signal table named without its PDB: in whichever container it is.
        let pdb = t.pdb.as_ref().map(|p| NameMatch::Equals(p.to_uppercase()));
        add(&mut pdbs, pdb.map_or(Part::Any, Part::One));
    }
    MiningFilter {
        operation_codes: crate::stream::decode::handled_codes(),
        skip_internal_ddl: true,
        skip_mview_logs: true,
        internal_with_row_id: true,
        owners: match owners {
            None => Owners::NotOracle,
            Some(list) => Owners::Only(list),
        },
        unknown_objects: true,
        tables,
        pdbs,
    }
}

/// Whether the filter keeps the rows of `table` (its DML, LOB and user DDL rows).
#[cfg(test)]
fn keeps_table(f: &MiningFilter, table: &crate::names::TableName, code: u32) -> bool {
    f.keeps_parts(
        code,
        None,
        Some(&table.owner),
        Some(&table.table),
        table.pdb.as_deref().unwrap_or(""),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::TableName;
    use cdc_core::model::op;

    fn settings(pairs: &[&str]) -> Settings {
        Settings::from_pairs(pairs).unwrap()
    }

    fn t(name: &str) -> TableName {
        name.parse().unwrap()
    }

    /// Every table the settings capture passes the filter (it never drops a captured row), for
    /// a set of names and patterns, wildcards included.
    #[test]
    fn every_captured_table_passes() {
        let names = [
            "HR.EMP",
            "HR.NEW_TABLE",
            "APP1.ORDERS",
            "APP22.ORDERS",
            "APPX.T",
            "SALES.ORDERS",
            "BATCH.JOBS",
            "PDB1.HR.EMP",
            "PDB2.HR.EMP",
            "PDB1.APP1.ORDERS",
            "PDB10.SALES.X",
            "PDB2.SALES.X",
            "PDB1.hr.\"lower\"",
        ];
        let sets: [&[&str]; 7] = [
            &["cdc.tables.include=HR.*"],
            &["cdc.tables.include=APP*.ORDERS,hr.emp"],
            &["cdc.tables.include=*.ORDERS"],
            &["cdc.tables.include=PDB1.HR.*,PDB?.SALES.*"],
            &["cdc.tables.include=A?P*.*"],
            &["cdc.tables.include=[AB]*.*"],
            &[],
        ];
        for cdb in [false, true] {
            for set in sets {
                let s = settings(set);
                let f = mining_filter(&s, cdb);
                for n in names {
                    let table = t(n);
                    if table.pdb.is_some() != cdb {
                        continue;
                    }
                    if s.is_captured(&table) {
                        for code in [op::INSERT, op::UPDATE, op::DELETE, op::LOB_WRITE, op::DDL] {
                            assert!(keeps_table(&f, &table, code), "{set:?} {n} {code}: {f:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn other_owners_sys_and_uncaptured_pdbs_are_left_out() {
        let f = mining_filter(&settings(&["cdc.tables.include=PDB1.HR.*"]), true);
        assert!(keeps_table(&f, &t("PDB1.HR.EMP"), op::INSERT));
        assert!(!keeps_table(&f, &t("PDB1.BATCH.JOBS"), op::INSERT));
        assert!(!keeps_table(&f, &t("PDB2.HR.EMP"), op::INSERT));
        assert!(!keeps_table(&f, &t("PDB1.SYS.SEQ$"), op::UPDATE));
        // Codes the decoder ignores, internal DDL and materialized view logs: out.
        assert!(!keeps_table(&f, &t("PDB1.HR.EMP"), op::SELECT_FOR_UPDATE));
        assert!(keeps_table(&f, &t("PDB1.HR.EMP"), op::UNSUPPORTED));
        assert!(!keeps_table(&f, &t("PDB1.HR.MLOG$_EMP"), op::INSERT));
        assert!(!f.keeps_parts(
            op::DDL,
            Some("INTERNAL DDL (PlSql=0 RecDep=0)"),
            Some("HR"),
            Some("EMP"),
            "PDB1"
        ));
        assert!(f.keeps_parts(
            op::DDL,
            Some("USER DDL (PlSql=0 RecDep=0)"),
            Some("HR"),
            Some("EMP"),
            "PDB1"
        ));
        // Transaction control rows pass in the captured PDB only.
        assert!(f.keeps_parts(op::START, None, None, None, "PDB1"));
        assert!(f.keeps_parts(op::COMMIT, None, None, None, "PDB1"));
        assert!(f.keeps_parts(op::ROLLBACK, None, None, None, "PDB1"));
        assert!(!f.keeps_parts(op::COMMIT, None, None, None, "PDB2"));
        // Without include patterns only Oracle's schemas are left out.
        let all = mining_filter(&settings(&[]), false);
        assert!(keeps_table(&all, &t("BATCH.JOBS"), op::INSERT));
        assert!(!keeps_table(&all, &t("SYS.COL_USAGE$"), op::UPDATE));
        assert!(!keeps_table(&all, &t("SYSTEM.X"), op::UPDATE));
    }

    #[test]
    fn the_signal_table_passes_whatever_its_owner() {
        let f = mining_filter(
            &settings(&[
                "cdc.tables.include=PDB1.HR.*",
                "cdc.signal.enabled.channels=source",
                "cdc.signal.data.collection=PDB2.OPS.SIGNALS",
            ]),
            true,
        );
        assert!(keeps_table(&f, &t("PDB2.OPS.SIGNALS"), op::INSERT));
        assert!(!keeps_table(&f, &t("PDB2.OPS.OTHER"), op::INSERT));
        assert!(!keeps_table(&f, &t("PDB3.OPS.SIGNALS"), op::INSERT));
        // Named without its PDB in a CDB: every container.
        let f = mining_filter(
            &settings(&[
                "cdc.tables.include=PDB1.HR.*",
                "cdc.signal.enabled.channels=source",
                "cdc.signal.data.collection=OPS.SIGNALS",
            ]),
            true,
        );
        assert_eq!(f.pdbs, None);
        assert!(keeps_table(&f, &t("PDB1.HR.EMP"), op::INSERT));
    }
}
