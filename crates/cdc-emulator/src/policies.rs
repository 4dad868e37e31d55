//! What Oracle's security features and In-Database Archiving do to a user's queries of a table
//! (the schema file's `access_policies`, `redaction_policies` and `row_archival`), while
//! LogMiner's rows stay whole:
//!
//! - Virtual Private Database: an enabled policy whose statement types include SELECT adds its
//!   predicate to every query of the table, flashback queries (`AS OF SCN`) included, for any
//!   user but SYS and those holding EXEMPT ACCESS POLICY (Utilities, "Security Considerations
//!   for Direct Path Exports": SYS and users granted EXEMPT ACCESS POLICY "are exempt from
//!   Virtual Private Database and Oracle Label Security enforcement"). ALL_POLICIES lists it.
//! - Data Redaction, full: the redacted columns read as Oracle's default full redaction values
//!   (Data Redaction Guide, "Full Data Redaction to Redact All Data": a single space for
//!   character types, zero for numbers, 01-JAN-2001 for datetimes) for any user but SYS and
//!   those holding EXEMPT REDACTION POLICY (Data Redaction Guide, "Exemption of Users from
//!   Oracle Data Redaction Policies"). REDACTION_POLICIES lists it; reading that view needs
//!   SELECT_CATALOG_ROLE (Data Redaction Guide, appendix C).
//! - ROW ARCHIVAL: archived rows (ORA_ARCHIVE_STATE not '0') are invisible to a session whose
//!   ROW ARCHIVAL VISIBILITY is ACTIVE, the default (VLDB and Partitioning Guide, "Using
//!   In-Database Archiving").

use crate::access::User;
use crate::names::TableName;
use crate::schema::{SchemaFile, TableSpec};
use crate::store::Replica;
use cdc_core::model::{FetchedRow, ReadPolicies};
use cdc_core::types::{ColumnType, Value};

/// The system privilege that exempts from VPD and Oracle Label Security.
pub const EXEMPT_ACCESS_POLICY: &str = "EXEMPT ACCESS POLICY";
/// The system privilege that exempts from Data Redaction.
pub const EXEMPT_REDACTION_POLICY: &str = "EXEMPT REDACTION POLICY";

/// The schema file's entry of a table, if the table was declared there with a policy or ROW
/// ARCHIVAL (every read asks: the tables without any are passed over before their names are
/// parsed).
pub fn table_spec<'a>(schema: &'a SchemaFile, table: &TableName) -> Option<&'a TableSpec> {
    schema
        .tables
        .iter()
        .filter(|t| {
            !t.access_policies.is_empty()
                || !t.redaction_policies.is_empty()
                || t.row_archival.is_some()
        })
        .find(|t| t.name.parse::<TableName>().ok().as_ref() == Some(table))
}

/// SYS is exempt from both kinds of policy without the privileges (see the module).
fn exempt(user: &User, privilege: &str) -> bool {
    user.name == "SYS" || user.privileges.system.contains(privilege)
}

/// The conditions a query of the table runs under for this user and session, beside its own:
/// each enabled select policy's predicate, and `NOT (archived)` unless archived rows are visible.
pub fn hidden_rows(spec: &TableSpec, user: &User, archived_visible: bool) -> Vec<String> {
    let mut conditions: Vec<String> = Vec::new();
    if !exempt(user, EXEMPT_ACCESS_POLICY) {
        conditions.extend(
            spec.access_policies
                .iter()
                .filter(|p| p.enabled && p.select)
                .map(|p| p.predicate.clone()),
        );
    }
    if !archived_visible {
        if let Some(archived) = spec.row_archival.as_ref().and_then(|a| a.archived.as_ref()) {
            conditions.push(format!("NOT ({archived})"));
        }
    }
    conditions
}

/// `(filter) AND (c1) AND (c2)…`: Oracle ANDs a policy's predicate to the query's WHERE.
pub fn and_all(filter: Option<&str>, conditions: &[String]) -> String {
    filter
        .into_iter()
        .chain(conditions.iter().map(String::as_str))
        .map(|c| format!("({c})"))
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// The select-list positions a redaction policy masks for this user, with the value each reads
/// as instead.
pub fn masked_columns(
    spec: &TableSpec,
    user: &User,
    select: &[String],
    replica: &Replica,
    table: &TableName,
) -> Vec<(usize, Value)> {
    if exempt(user, EXEMPT_REDACTION_POLICY) {
        return Vec::new();
    }
    let Some(t) = replica.table_index(table).map(|i| &replica.tables[i]) else {
        return Vec::new();
    };
    let redacted: Vec<&String> = spec
        .redaction_policies
        .iter()
        .filter(|p| p.enabled)
        .flat_map(|p| p.columns.iter())
        .collect();
    select
        .iter()
        .enumerate()
        .filter(|(_, c)| redacted.iter().any(|r| r.eq_ignore_ascii_case(c)))
        .filter_map(|(i, c)| {
            let column = t.def.columns.iter().find(|col| &col.name == c)?;
            full_redaction_value(&column.data_type).map(|v| (i, v))
        })
        .collect()
}

/// Oracle's default full redaction value of a type (Reference, REDACTION_VALUES_FOR_TYPE_FULL;
/// Data Redaction Guide, "Full Data Redaction to Redact All Data"); `None` for the types the
/// emulator does not redact (the schema refuses them).
pub fn full_redaction_value(data_type: &ColumnType) -> Option<Value> {
    Some(match data_type {
        ColumnType::Number { .. } | ColumnType::Float { .. } => Value::Number("0".into()),
        ColumnType::BinaryFloat => Value::BinaryFloat(0.0),
        ColumnType::BinaryDouble => Value::BinaryDouble(0.0),
        ColumnType::Varchar2 { .. }
        | ColumnType::Nvarchar2 { .. }
        | ColumnType::Char { .. }
        | ColumnType::Nchar { .. } => Value::Text(" ".into()),
        ColumnType::Date => Value::Date("2001-01-01 00:00:00".into()),
        ColumnType::Timestamp { fsp } => Value::Timestamp(match fsp {
            0 => "2001-01-01 00:00:00".into(),
            n => format!("2001-01-01 00:00:00.{}", "0".repeat(usize::from(*n))).into(),
        }),
        _ => return None,
    })
}

/// Masks a fetched row's redacted columns. A NULL stays NULL: the emulator assumes redaction
/// masks values, not their absence (not confirmed against Oracle).
pub fn mask(row: &mut FetchedRow, masked: &[(usize, Value)]) {
    for (i, value) in masked {
        if let Some(v) = row.values.get_mut(*i) {
            if !matches!(v, Value::Null) {
                *v = value.clone();
            }
        }
    }
}

/// ALL_POLICIES / REDACTION_POLICIES and SESSION_PRIVS for one table, as the user sees them:
/// REDACTION_POLICIES needs SELECT_CATALOG_ROLE (or SELECT on it, or SELECT ANY DICTIONARY),
/// else it does not exist for the user; ALL_POLICIES is the user's own view of the objects it
/// may access.
pub fn read_policies(spec: Option<&TableSpec>, user: &User) -> ReadPolicies {
    let row_access = spec
        .map(|s| {
            s.access_policies
                .iter()
                .filter(|p| p.enabled && p.select)
                .map(|p| p.name.clone())
                .collect()
        })
        .unwrap_or_default();
    let redaction = user.may_read_dictionary("REDACTION_POLICIES").then(|| {
        spec.map(|s| {
            s.redaction_policies
                .iter()
                .filter(|p| p.enabled)
                .map(|p| p.name.clone())
                .collect()
        })
        .unwrap_or_default()
    });
    ReadPolicies {
        row_access: Some(row_access),
        redaction,
        exempt_access: exempt(user, EXEMPT_ACCESS_POLICY),
        exempt_redaction: exempt(user, EXEMPT_REDACTION_POLICY),
    }
}

/// A table's policies, checked when the schema is read: each predicate and the archived
/// condition must be a condition on the table's columns, each redacted column one of its
/// columns of a type the emulator redacts.
pub fn validate(spec: &TableSpec, columns: &[cdc_core::model::ColumnInfo]) -> Result<(), String> {
    for p in &spec.access_policies {
        crate::condition::compile(&p.predicate, columns)
            .map_err(|e| format!("access policy {}: predicate: {e}", p.name))?;
    }
    for p in &spec.redaction_policies {
        if p.columns.is_empty() {
            return Err(format!("redaction policy {} names no column", p.name));
        }
        for c in &p.columns {
            let column = columns
                .iter()
                .find(|col| col.name.eq_ignore_ascii_case(c))
                .ok_or_else(|| format!("redaction policy {}: no column `{c}`", p.name))?;
            if full_redaction_value(&column.data_type).is_none() {
                return Err(format!(
                    "redaction policy {}: column `{c}`: the emulator redacts only character, number and DATE / TIMESTAMP columns",
                    p.name
                ));
            }
        }
    }
    if let Some(archived) = spec.row_archival.as_ref().and_then(|a| a.archived.as_ref()) {
        crate::condition::compile(archived, columns)
            .map_err(|e| format!("row_archival.archived: {e}"))?;
    }
    Ok(())
}
