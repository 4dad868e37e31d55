//! The views of the security policies on tables ([`crate::policies`]): ALL_POLICIES (VPD, of
//! the tables the user may access) and REDACTION_POLICIES (Data Redaction, every table of the
//! container; SELECT_CATALOG_ROLE or SELECT on it, else ORA-00942), from the schema file's
//! `access_policies` and `redaction_policies`, with the columns the adapter reads (Reference,
//! ALL_POLICIES and REDACTION_POLICIES).

use super::relation::*;
use crate::errors::Result;
use crate::EmulatorSession;
use emulator_sql::Relation;

fn yes_no(b: bool) -> oracle_datum::Datum {
    t(if b { "YES" } else { "NO" })
}

/// ALL_POLICIES: one row per VPD policy of a table the user sees. A policy of the schema file
/// applies to SELECT alone (statement_types 'SELECT') when `select`, to nothing else.
pub(super) fn all_policies(s: &mut EmulatorSession) -> Result<Relation> {
    let spec = [
        ("OBJECT_OWNER", NAME),
        ("OBJECT_NAME", NAME),
        ("POLICY_GROUP", NAME),
        ("POLICY_NAME", NAME),
        ("PF_OWNER", NAME),
        ("PACKAGE", NAME),
        ("FUNCTION", NAME),
        ("SEL", text(3)),
        ("INS", text(3)),
        ("UPD", text(3)),
        ("DEL", text(3)),
        ("IDX", text(3)),
        ("CHK_OPTION", text(3)),
        ("ENABLE", text(3)),
        ("POLICY_TYPE", text(24)),
    ];
    let tables = s.visible_tables()?;
    let r = s.replica()?;
    let mut rows = Vec::new();
    for info in tables {
        let Some(table) = crate::policies::table_spec(&r.schema, &info.name) else {
            continue;
        };
        for p in &table.access_policies {
            rows.push(vec![
                t(info.name.owner.as_str()),
                t(info.name.table.as_str()),
                t("SYS_DEFAULT"),
                t(p.name.as_str()),
                t(info.name.owner.as_str()),
                opt(None::<&str>),
                t(format!("{}_FN", p.name)),
                yes_no(p.select),
                yes_no(false),
                yes_no(false),
                yes_no(false),
                yes_no(false),
                yes_no(false),
                yes_no(p.enabled),
                t("STATIC"),
            ]);
        }
    }
    Ok(view(&spec, rows))
}

/// REDACTION_POLICIES: one row per Data Redaction policy of a table of the container, behind
/// SELECT_CATALOG_ROLE (Data Redaction Guide, appendix C).
pub(super) fn redaction_policies(s: &mut EmulatorSession) -> Result<Relation> {
    s.user
        .read_dictionary("REDACTION_POLICIES", "reading REDACTION_POLICIES")?;
    let spec = [
        ("OBJECT_OWNER", NAME),
        ("OBJECT_NAME", NAME),
        ("POLICY_NAME", NAME),
        ("EXPRESSION", text(4000)),
        ("ENABLE", text(7)),
        ("POLICY_DESCRIPTION", text(4000)),
    ];
    let here = s.container.clone();
    let r = s.replica()?;
    let mut rows = Vec::new();
    for table in &r.schema.tables {
        let Ok(name) = table.name.parse::<crate::names::TableName>() else {
            continue;
        };
        if name.pdb != here {
            continue;
        }
        for p in &table.redaction_policies {
            rows.push(vec![
                t(name.owner.as_str()),
                t(name.table.as_str()),
                t(p.name.as_str()),
                t("1=1"),
                yes_no(p.enabled),
                opt(None::<&str>),
            ]);
        }
    }
    Ok(view(&spec, rows))
}
