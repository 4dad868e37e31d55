//! Which Data Redaction policies of a table mask the capture session's reads: the enabled
//! policies (REDACTION_POLICIES), the columns they redact (REDACTION_COLUMNS), the named
//! expressions applied to those (REDACTION_EXPRESSIONS), and each deciding expression
//! evaluated in this session ([`sql::redaction_expression_holds`]), as Oracle evaluates it at
//! query time. A policy whose expressions are FALSE for the capture user (a common way of
//! exempting it without EXEMPT REDACTION POLICY) masks nothing: it must not stop the snapshot.

use super::connect::CallContext;
use super::driver::{DbSession, FetchOptions};
use super::fetch::{self, Bind};
use super::sql;
use crate::errors::{is_transient, CdcError, Result};
use crate::names::TableName;
use cdc_core::model::RedactionPolicy;

/// What the session learnt of a table's redaction: `masking` the enabled policies that mask its
/// reads (`None`: REDACTION_POLICIES could not be read), `not_applying` the others,
/// `masked_columns` the columns masked (`None`: not evaluated).
pub struct Redaction {
    pub masking: Option<Vec<String>>,
    pub not_applying: Vec<String>,
    pub masked_columns: Option<Vec<String>>,
}

/// Reads the table's redaction policies; evaluates them unless the session is `exempt` (then
/// every enabled policy is listed as masking, and none applies anyway).
pub fn read(
    conn: &dyn DbSession,
    table: &TableName,
    binds: &[(&str, Bind)],
    exempt: bool,
) -> Result<Redaction> {
    let c = |operation: &'static str| CallContext {
        table: Some(table.owner_table()),
        operation,
        ..CallContext::default()
    };
    // Each row's first column and, for the two-column statements, its second.
    let query = |statement: &str, operation: &'static str, pairs: bool| {
        optional(fetch::query_all(
            conn,
            statement,
            binds,
            FetchOptions::default(),
            &c(operation),
            |r| {
                let second = if pairs { r.opt_string(1)? } else { None };
                Ok((r.string(0)?, second))
            },
        ))
    };
    let Some(policies) = query(sql::REDACTION_POLICIES, "reading REDACTION_POLICIES", true)? else {
        return Ok(Redaction {
            masking: None,
            not_applying: Vec::new(),
            masked_columns: None,
        });
    };
    // Every enabled policy counted, none evaluated: which columns are masked is not known
    // (nothing is, with no policy).
    let every = |policies: Vec<(String, Option<String>)>| Redaction {
        masked_columns: policies.is_empty().then(Vec::new),
        masking: Some(policies.into_iter().map(|(name, _)| name).collect()),
        not_applying: Vec::new(),
    };
    if exempt || policies.is_empty() {
        return Ok(every(policies));
    }
    let columns = query(sql::REDACTION_COLUMNS, "reading REDACTION_COLUMNS", false)?;
    // Before 12.2 REDACTION_EXPRESSIONS does not exist, which looks the same as a view the user
    // may not read (ORA-00942 either way): a named expression may then be hidden, one that is
    // TRUE where the policy's is FALSE, so nothing is evaluated and every enabled policy counts.
    let named = query(
        sql::REDACTION_EXPRESSIONS,
        "reading REDACTION_EXPRESSIONS",
        true,
    )?;
    let (Some(columns), Some(named)) = (columns, named) else {
        tracing::debug!(
            "{table}: REDACTION_COLUMNS or REDACTION_EXPRESSIONS cannot be read: its redaction policy expressions are not evaluated"
        );
        return Ok(every(policies));
    };
    let columns: Vec<String> = columns.into_iter().map(|(c, _)| c).collect();
    let column_expressions: Vec<(String, String)> = named
        .into_iter()
        .filter_map(|(c, e)| Some((c, e?)))
        .collect();
    let mut out = Redaction {
        masking: Some(Vec::new()),
        not_applying: Vec::new(),
        masked_columns: Some(Vec::new()),
    };
    // Each distinct expression evaluated once; one that fails counts as TRUE.
    let mut decided: Vec<(String, bool)> = Vec::new();
    let evaluating = c("evaluating a Data Redaction policy expression");
    for (name, expression) in policies {
        let policy = RedactionPolicy {
            name,
            expression: expression.unwrap_or_default(),
            columns: columns.clone(),
            column_expressions: column_expressions.clone(),
        };
        for e in policy.deciding_expressions() {
            if decided.iter().any(|(d, _)| d == e) {
                continue;
            }
            let h = match holds(conn, table, e, &evaluating) {
                Ok(h) => h,
                Err(err) if is_transient(&err) => return Err(err),
                Err(err) => {
                    tracing::warn!(
                        "Data Redaction policy {} of {table}: its expression {e:?} could not be evaluated in the capture session ({err}); it is taken to be TRUE (the columns it decides for are masked)",
                        policy.name
                    );
                    true
                }
            };
            decided.push((e.to_string(), h));
        }
        let masked = policy.masked_columns(|e| decided.iter().any(|(d, h)| d == e && *h));
        match (masked.is_empty(), out.masking.as_mut()) {
            (false, Some(m)) => m.push(policy.name),
            _ => out.not_applying.push(policy.name),
        }
        if let Some(all) = out.masked_columns.as_mut() {
            all.extend(masked);
        }
    }
    if let Some(all) = out.masked_columns.as_mut() {
        all.sort();
        all.dedup();
    }
    Ok(out)
}

/// A policy view the user cannot read (ORA-00942, ORA-01031): `None`.
fn optional<T>(r: Result<T>) -> Result<Option<T>> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(CdcError::Privilege { message, .. }) => {
            tracing::debug!("cannot read a redaction view ({message})");
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

fn holds(
    conn: &dyn DbSession,
    table: &TableName,
    expression: &str,
    c: &CallContext,
) -> Result<bool> {
    let statement = sql::redaction_expression_holds(expression);
    let n = fetch::query_one(conn, &statement, &[], c, |r| r.u64(0))?;
    tracing::debug!(
        "{table}: Data Redaction expression {expression:?} is {}",
        n > 0
    );
    Ok(n > 0)
}
