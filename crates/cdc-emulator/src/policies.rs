//! What Oracle's security features and In-Database Archiving do to a user's queries of a table
//! (the schema file's `access_policies`, `redaction_policies` and `row_archival`), while
//! LogMiner's rows stay whole:
//!
//! - Virtual Private Database: an enabled policy whose statement types include SELECT adds its
//!   predicate to every query of the table, flashback queries (`AS OF SCN`) included, for any
//!   user but SYS and those holding EXEMPT ACCESS POLICY (Utilities, "Security Considerations
//!   for Direct Path Exports": SYS and users granted EXEMPT ACCESS POLICY "are exempt from
//!   Virtual Private Database and Oracle Label Security enforcement"). ALL_POLICIES lists it.
//!   A column-level policy (`sec_relevant_cols`, ALL_SEC_RELEVANT_COLS) applies only to a
//!   statement that references one of its columns ([`References`]); with ALL_ROWS it leaves
//!   every row in and shows its columns as NULL where the predicate is not TRUE ([`NullWhere`]).
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
use crate::redaction_expr::Reader;
use crate::schema::RedactionSpec;
use crate::schema::{AccessPolicySpec, SchemaFile, TableSpec};
use crate::store::Replica;
use cdc_core::model::{
    ColumnLevelPolicy, FetchedRow, FlashbackQuery, ReadPolicies, RedactionOutcome, RedactionPolicy,
};
use cdc_core::types::{ColumnType, Value};

/// The system privilege that exempts from VPD and Oracle Label Security.
pub const EXEMPT_ACCESS_POLICY: &str = "EXEMPT ACCESS POLICY";
/// The release that brought named policy expressions and REDACTION_EXPRESSIONS.
pub const NAMED_EXPRESSIONS_FROM: (u32, u32) = (12, 2);

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

/// The columns of a table a statement references, anywhere in it (select list, WHERE,
/// ORDER BY): what decides which column-level VPD policies it is subject to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum References {
    /// `SELECT *`, or a statement the emulator cannot look into.
    All,
    /// An UPDATE's or DELETE's own scan of its table: every column, as [`References::All`],
    /// but not a query: ALL_ROWS applies to SELECT statements only (Security Guide, "Adding
    /// Policies to Display Specified Columns").
    Change,
    /// Upper-case names (a superset of the columns referenced may be listed).
    Named(Vec<String>),
}

impl References {
    /// A read's select list, its key columns (its range and ORDER BY) and the names in its
    /// condition.
    pub fn of_query(q: &FlashbackQuery) -> References {
        let mut names: Vec<String> = q.columns.iter().chain(&q.key_columns).cloned().collect();
        if let Some(filter) = &q.filter {
            names.extend(cdc_core::sql_condition::condition_names(filter));
        }
        References::Named(names)
    }

    pub fn contains(&self, column: &str) -> bool {
        match self {
            References::All | References::Change => true,
            References::Named(names) => names.iter().any(|n| n.eq_ignore_ascii_case(column)),
        }
    }
}

/// The enabled select policies a statement referencing `refs` is subject to, for this user:
/// every table-level one, and each column-level one whose columns it references.
fn applying<'a>(
    spec: &'a TableSpec,
    user: &User,
    refs: &'a References,
) -> impl Iterator<Item = &'a AccessPolicySpec> {
    let exempt = exempt(user, EXEMPT_ACCESS_POLICY);
    spec.access_policies.iter().filter(move |p| {
        !exempt
            && p.enabled
            && p.select
            && (p.columns.is_empty() || p.columns.iter().any(|c| refs.contains(c)))
    })
}

/// The conditions a query of the table runs under for this user and session, beside its own:
/// the predicate of each select policy it is subject to that leaves rows out (not ALL_ROWS),
/// and `NOT (archived)` unless archived rows are visible.
pub fn hidden_rows(
    spec: &TableSpec,
    user: &User,
    archived_visible: bool,
    refs: &References,
) -> Vec<String> {
    let mut conditions: Vec<String> = applying(spec, user, refs)
        .filter(|p| !p.all_rows)
        .map(|p| p.predicate.clone())
        .collect();
    if !archived_visible {
        if let Some(archived) = spec.row_archival.as_ref().and_then(|a| a.archived.as_ref()) {
            conditions.push(format!("NOT ({archived})"));
        }
    }
    conditions
}

/// The ALL_ROWS column-level policies a statement referencing `refs` is subject to: in each
/// row where `condition` (the predicate) is not TRUE, `columns` read as NULL.
pub fn nulled_columns(spec: &TableSpec, user: &User, refs: &References) -> Vec<NullWhere> {
    if *refs == References::Change {
        return Vec::new();
    }
    applying(spec, user, refs)
        .filter(|p| p.all_rows)
        .map(|p| NullWhere {
            condition: p.predicate.clone(),
            columns: p.columns.iter().map(|c| c.to_ascii_uppercase()).collect(),
        })
        .collect()
}

/// Columns that read as NULL in the rows where a condition is not TRUE (a column-level VPD
/// policy with ALL_ROWS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NullWhere {
    pub condition: String,
    pub columns: Vec<String>,
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

/// The select-list positions a redaction policy masks for this session, with the value each
/// reads as instead: a redacted column whose deciding expression is TRUE for `reader`.
pub fn masked_columns(
    spec: &TableSpec,
    reader: &Reader,
    select: &[String],
    replica: &Replica,
    table: &TableName,
) -> Vec<(usize, Value)> {
    if exempt(reader.user, EXEMPT_REDACTION_POLICY) {
        return Vec::new();
    }
    let Some(t) = replica.table_index(table).map(|i| &replica.tables[i]) else {
        return Vec::new();
    };
    let policies: Vec<RedactionPolicy> = spec
        .redaction_policies
        .iter()
        .filter(|p| p.enabled)
        .map(as_policy)
        .collect();
    let mut decided: Vec<(String, bool)> = Vec::new();
    let mut holds = |expression: &str| {
        if let Some((_, h)) = decided.iter().find(|(e, _)| e == expression) {
            return *h;
        }
        let h = evaluate(reader, expression);
        decided.push((expression.to_string(), h));
        h
    };
    select
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            let c = c.to_ascii_uppercase();
            policies
                .iter()
                .filter(|p| p.columns.contains(&c))
                .any(|p| holds(p.deciding_expression(&c)))
        })
        .filter_map(|(i, c)| {
            let column = t.def.columns.iter().find(|col| &col.name == c)?;
            full_redaction_value(&column.data_type).map(|v| (i, v))
        })
        .collect()
}

/// The schema file's policy as the dictionary views show it (names upper-cased, as the views
/// hold them).
pub fn as_policy(p: &RedactionSpec) -> RedactionPolicy {
    RedactionPolicy {
        name: p.name.clone(),
        expression: p.expression.clone(),
        columns: p.columns.iter().map(|c| c.to_ascii_uppercase()).collect(),
        column_expressions: p
            .column_expressions
            .iter()
            .flat_map(|n| {
                n.columns
                    .iter()
                    .map(|c| (c.to_ascii_uppercase(), n.expression.clone()))
            })
            .collect(),
    }
}

/// An expression the schema check let through cannot fail here; if it does, the column is
/// masked (a reader never sees a value a policy may hide).
fn evaluate(reader: &Reader, expression: &str) -> bool {
    reader.holds(expression).unwrap_or_else(|e| {
        tracing::warn!("Data Redaction expression {expression:?}: {e}; masked");
        true
    })
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
pub fn read_policies(
    spec: Option<&TableSpec>,
    reader: &Reader,
    release: (u32, u32),
) -> ReadPolicies {
    let user = reader.user;
    let selecting: Vec<&AccessPolicySpec> = spec
        .map(|s| {
            s.access_policies
                .iter()
                .filter(|p| p.enabled && p.select)
                .collect()
        })
        .unwrap_or_default();
    let row_access = selecting.iter().map(|p| p.name.clone()).collect();
    let row_access_columns = selecting
        .iter()
        .filter(|p| !p.columns.is_empty())
        .map(|p| {
            let mut columns: Vec<String> =
                p.columns.iter().map(|c| c.to_ascii_uppercase()).collect();
            columns.sort();
            ColumnLevelPolicy {
                policy: p.name.clone(),
                columns,
                all_rows: p.all_rows,
            }
        })
        .collect();
    let exempt_redaction = exempt(user, EXEMPT_REDACTION_POLICY);
    let enabled: Vec<RedactionPolicy> = spec
        .map(|s| {
            s.redaction_policies
                .iter()
                .filter(|p| p.enabled)
                .map(as_policy)
                .collect()
        })
        .unwrap_or_default();
    // As the adapter does: an exempt session evaluates nothing, nor one that cannot read which
    // columns are redacted and by which named expressions (every enabled policy counts).
    // Before 12.2 REDACTION_EXPRESSIONS does not exist.
    let evaluates = release >= NAMED_EXPRESSIONS_FROM
        && ["REDACTION_COLUMNS", "REDACTION_EXPRESSIONS"]
            .iter()
            .all(|v| user.may_read_dictionary(v));
    let holds = |e: &str| Ok::<bool, std::convert::Infallible>(evaluate(reader, e));
    let decided =
        match RedactionOutcome::of(enabled, (evaluates && !exempt_redaction).then_some(holds)) {
            Ok(d) => d,
            Err(never) => match never {},
        };
    // Without SELECT_CATALOG_ROLE REDACTION_POLICIES does not exist for the user: unknown.
    let readable = user.may_read_dictionary("REDACTION_POLICIES");
    let (redaction, not_applying, masked_columns) = match readable {
        true => (
            Some(decided.masking),
            decided.not_applying,
            decided.masked_columns,
        ),
        false => (None, Vec::new(), None),
    };
    ReadPolicies {
        row_access: Some(row_access),
        row_access_columns,
        redaction,
        redaction_not_applying: not_applying,
        masked_columns,
        exempt_access: exempt(user, EXEMPT_ACCESS_POLICY),
        exempt_redaction,
    }
}

/// A table's policies, checked when the schema is read: each predicate and the archived
/// condition must be a condition on the table's columns, each redacted column one of its
/// columns of a type the emulator redacts.
pub fn validate(
    spec: &TableSpec,
    columns: &[cdc_core::model::ColumnInfo],
    release: (u32, u32),
) -> Result<(), String> {
    for p in &spec.access_policies {
        crate::condition::compile(&p.predicate, columns)
            .map_err(|e| format!("access policy {}: predicate: {e}", p.name))?;
        if let Some(c) = p
            .columns
            .iter()
            .find(|c| !columns.iter().any(|col| col.name.eq_ignore_ascii_case(c)))
        {
            return Err(format!("access policy {}: no column `{c}`", p.name));
        }
        // DBMS_RLS.ALL_ROWS is an option of sec_relevant_cols, for SELECT statements only
        // (Security Guide, "Adding Policies to Display Specified Columns").
        if p.all_rows && (p.columns.is_empty() || !p.select) {
            return Err(format!(
                "access policy {}: all_rows needs `columns` (sec_relevant_cols) and `select` (it applies to queries only)",
                p.name
            ));
        }
    }
    for p in &spec.redaction_policies {
        check_expression(&p.expression)
            .map_err(|e| format!("redaction policy {}: expression: {e}", p.name))?;
        for n in &p.column_expressions {
            if release < NAMED_EXPRESSIONS_FROM {
                // DBMS_REDACT.CREATE_POLICY_EXPRESSION came with 12.2 (Reference,
                // REDACTION_EXPRESSIONS: "available starting with Oracle Database 12c Release 2").
                return Err(format!(
                    "redaction policy {}: named expression {}: named policy expressions need release 12.2 or later",
                    p.name, n.name
                ));
            }
            check_expression(&n.expression).map_err(|e| {
                format!(
                    "redaction policy {}: named expression {}: {e}",
                    p.name, n.name
                )
            })?;
            // APPLY_POLICY_EXPR_TO_COL applies a named expression to a redacted column.
            if let Some(c) = n
                .columns
                .iter()
                .find(|c| !p.columns.iter().any(|r| r.eq_ignore_ascii_case(c)))
            {
                return Err(format!(
                    "redaction policy {}: named expression {}: `{c}` is not one of the policy's columns",
                    p.name, n.name
                ));
            }
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

/// A policy expression the emulator evaluates: a condition (Oracle's DBMS_REDACT refuses
/// others, ORA-28082) of SYS_CONTEXT and SQL functions whose SYS_CONTEXT attributes are ones
/// [`Reader::sys_context`] answers. Evaluated once for a plain user.
fn check_expression(expression: &str) -> Result<(), String> {
    if expression.trim().is_empty() {
        // DBMS_REDACT.ADD_POLICY: ORA-28063 "The policy expression is empty."
        return Err("empty (Oracle refuses it: ORA-28063)".into());
    }
    let user = User::named("CDC");
    let reader = Reader {
        user: &user,
        con_name: "PDB1".into(),
        db_name: "EMU".into(),
        host_time: crate::redaction_expr::host_time(0, 0),
    };
    reader
        .holds(expression)
        .map(|_| ())
        .map_err(|e| e.to_string())
}
