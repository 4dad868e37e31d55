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
/// reads (`None`: REDACTION_POLICIES could not be read), `not_applying` the others.
pub struct Redaction {
    pub masking: Option<Vec<String>>,
    pub not_applying: Vec<String>,
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
        });
    };
    let every = |policies: Vec<(String, Option<String>)>| Redaction {
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
    };
    for (name, expression) in policies {
        let policy = RedactionPolicy {
            name,
            expression: expression.unwrap_or_default(),
            columns: columns.clone(),
            column_expressions: column_expressions.clone(),
        };
        let mut failed = None;
        let mut masks = false;
        for e in policy.deciding_expressions() {
            if holds(
                conn,
                table,
                e,
                &c("evaluating a Data Redaction policy expression"),
            )
            .or_else(|err| keep_transient(err, &mut failed))?
            {
                masks = true;
                break;
            }
        }
        if let Some(err) = failed.filter(|_| masks) {
            tracing::warn!(
                "Data Redaction policy {} of {table}: an expression of it could not be evaluated in the capture session ({err}); it is taken to mask the reads",
                policy.name
            );
        }
        match (masks, out.masking.as_mut()) {
            (true, Some(m)) => m.push(policy.name),
            _ => out.not_applying.push(policy.name),
        }
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

/// An expression that cannot be evaluated here is taken to be TRUE (the policy masks: the
/// snapshot stops rather than hold masked values); a lost connection goes to the caller.
fn keep_transient(e: CdcError, failed: &mut Option<String>) -> Result<bool> {
    if is_transient(&e) {
        return Err(e);
    }
    *failed = Some(e.to_string());
    Ok(true)
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
