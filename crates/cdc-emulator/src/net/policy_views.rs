//! The views of the security policies on tables ([`crate::policies`]): ALL_POLICIES and
//! ALL_SEC_RELEVANT_COLS (VPD, of the tables the user may access) and REDACTION_POLICIES, REDACTION_COLUMNS and
//! REDACTION_EXPRESSIONS (Data Redaction, every table of the container; SELECT_CATALOG_ROLE or
//! SELECT on them, else ORA-00942), from the schema file's `access_policies` and
//! `redaction_policies`, with Oracle's columns (Reference, ALL_POLICIES, ALL_SEC_RELEVANT_COLS,
//! REDACTION_POLICIES,
//! REDACTION_COLUMNS, REDACTION_EXPRESSIONS).

use super::relation::*;
use crate::errors::Result;
use crate::EmulatorSession;
use cdc_core::model::RedactionPolicy;
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
    let mut rows = Vec::new();
    for (name, p) in access_policies(s)? {
        rows.push(vec![
            t(name.owner.as_str()),
            t(name.table.as_str()),
            t("SYS_DEFAULT"),
            t(p.name.as_str()),
            t(name.owner.as_str()),
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
    Ok(view(&spec, rows))
}

/// The VPD policies of the tables the user sees, with each table's name.
fn access_policies(
    s: &mut EmulatorSession,
) -> Result<Vec<(crate::names::TableName, crate::schema::AccessPolicySpec)>> {
    let tables = s.visible_tables()?;
    let r = s.replica()?;
    let mut out = Vec::new();
    for info in tables {
        if let Some(table) = crate::policies::table_spec(&r.schema, &info.name) {
            out.extend(
                table
                    .access_policies
                    .iter()
                    .map(|p| (info.name.clone(), p.clone())),
            );
        }
    }
    Ok(out)
}

/// ALL_SEC_RELEVANT_COLS: one row per security-relevant column of a column-level VPD policy
/// of a table the user sees (COLUMN_OPTION NONE, or ALL_ROWS).
pub(super) fn all_sec_relevant_cols(s: &mut EmulatorSession) -> Result<Relation> {
    let spec = [
        ("OBJECT_OWNER", NAME),
        ("OBJECT_NAME", NAME),
        ("POLICY_GROUP", NAME),
        ("POLICY_NAME", NAME),
        ("SEC_REL_COLUMN", NAME),
        ("COLUMN_OPTION", text(8)),
        ("COMMON", text(3)),
        ("INHERITED", text(3)),
    ];
    let mut rows = Vec::new();
    for (name, p) in access_policies(s)? {
        for c in &p.columns {
            rows.push(vec![
                t(name.owner.as_str()),
                t(name.table.as_str()),
                t("SYS_DEFAULT"),
                t(p.name.as_str()),
                t(c.to_ascii_uppercase()),
                t(if p.all_rows { "ALL_ROWS" } else { "NONE" }),
                yes_no(false),
                yes_no(false),
            ]);
        }
    }
    Ok(view(&spec, rows))
}

/// The Data Redaction policies of the tables of the session's container, as the dictionary
/// holds them, behind SELECT_CATALOG_ROLE (Data Redaction Guide, appendix C): ORA-00942 naming
/// `view` without it.
fn container_redaction(
    s: &mut EmulatorSession,
    view: &str,
) -> Result<Vec<(crate::names::TableName, RedactionPolicy, bool)>> {
    s.user.read_dictionary(view, &format!("reading {view}"))?;
    let here = s.container.clone();
    let r = s.replica()?;
    let mut out = Vec::new();
    for table in &r.schema.tables {
        let Ok(name) = table.name.parse::<crate::names::TableName>() else {
            continue;
        };
        if name.pdb != here {
            continue;
        }
        for p in &table.redaction_policies {
            out.push((name.clone(), crate::policies::as_policy(p), p.enabled));
        }
    }
    Ok(out)
}

/// REDACTION_POLICIES: one row per Data Redaction policy of a table of the container.
pub(super) fn redaction_policies(s: &mut EmulatorSession) -> Result<Relation> {
    let spec = [
        ("OBJECT_OWNER", NAME),
        ("OBJECT_NAME", NAME),
        ("POLICY_NAME", NAME),
        ("EXPRESSION", text(4000)),
        ("ENABLE", text(7)),
        ("POLICY_DESCRIPTION", text(4000)),
    ];
    let rows = container_redaction(s, "REDACTION_POLICIES")?
        .into_iter()
        .map(|(name, p, enabled)| {
            vec![
                t(name.owner.as_str()),
                t(name.table.as_str()),
                t(p.name),
                t(p.expression),
                yes_no(enabled),
                opt(None::<&str>),
            ]
        })
        .collect();
    Ok(view(&spec, rows))
}

/// REDACTION_COLUMNS: one row per redacted column (full redaction: FUNCTION_TYPE
/// 'FULL REDACTION', no parameters).
pub(super) fn redaction_columns(s: &mut EmulatorSession) -> Result<Relation> {
    let spec = [
        ("OBJECT_OWNER", NAME),
        ("OBJECT_NAME", NAME),
        ("COLUMN_NAME", NAME),
        ("FUNCTION_TYPE", text(27)),
        ("FUNCTION_PARAMETERS", text(1000)),
        ("REGEXP_PATTERN", text(512)),
        ("REGEXP_REPLACE_STRING", text(4000)),
        ("REGEXP_POSITION", NUM),
        ("REGEXP_OCCURRENCE", NUM),
        ("REGEXP_MATCH_PARAMETER", text(10)),
        ("COLUMN_DESCRIPTION", text(4000)),
    ];
    let mut rows = Vec::new();
    for (name, p, _) in container_redaction(s, "REDACTION_COLUMNS")? {
        for c in p.columns {
            rows.push(vec![
                t(name.owner.as_str()),
                t(name.table.as_str()),
                t(c),
                t("FULL REDACTION"),
                opt(None::<&str>),
                opt(None::<&str>),
                opt(None::<&str>),
                opt_n(None::<i64>),
                opt_n(None::<i64>),
                opt(None::<&str>),
                opt(None::<&str>),
            ]);
        }
    }
    Ok(view(&spec, rows))
}

/// REDACTION_EXPRESSIONS: one row per named policy expression and column it is applied to.
pub(super) fn redaction_expressions(s: &mut EmulatorSession) -> Result<Relation> {
    let spec = [
        ("POLICY_EXPRESSION_NAME", text(256)),
        ("EXPRESSION", text(4000)),
        ("OBJECT_OWNER", NAME),
        ("OBJECT_NAME", NAME),
        ("COLUMN_NAME", NAME),
        ("POLICY_EXPRESSION_DESCRIPTION", text(4000)),
    ];
    let here = s.container.clone();
    s.user
        .read_dictionary("REDACTION_EXPRESSIONS", "reading REDACTION_EXPRESSIONS")?;
    let r = s.replica()?;
    let version = &r.schema.database.version;
    if crate::schema::release(version) < crate::policies::NAMED_EXPRESSIONS_FROM {
        return Err(crate::errors::CdcError::Privilege {
            operation: "reading REDACTION_EXPRESSIONS".into(),
            message: format!(
                "ORA-00942: table or view does not exist (REDACTION_EXPRESSIONS came with 12.2; this database is {version})"
            ),
        });
    }
    let mut rows = Vec::new();
    for table in &r.schema.tables {
        let Ok(name) = table.name.parse::<crate::names::TableName>() else {
            continue;
        };
        if name.pdb != here {
            continue;
        }
        for named in table
            .redaction_policies
            .iter()
            .flat_map(|p| &p.column_expressions)
        {
            for c in &named.columns {
                rows.push(vec![
                    t(named.name.as_str()),
                    t(named.expression.as_str()),
                    t(name.owner.as_str()),
                    t(name.table.as_str()),
                    t(c.to_ascii_uppercase()),
                    opt(None::<&str>),
                ]);
            }
        }
    }
    Ok(view(&spec, rows))
}
