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
use cdc_core::model::{RedactionOutcome, RedactionPolicy};

/// Reads the table's redaction policies and decides them for this session
/// ([`RedactionOutcome::of`]); `None`: REDACTION_POLICIES could not be read. Nothing is
/// evaluated for an `exempt` session (every enabled policy is listed, and none applies anyway).
pub fn read(
    conn: &dyn DbSession,
    table: &TableName,
    binds: &[(&str, Bind)],
    exempt: bool,
) -> Result<Option<RedactionOutcome>> {
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
        return Ok(None);
    };
    // Which columns are redacted and by which named expressions; `None` where nothing is
    // evaluated (an exempt session; a view it cannot read).
    let mut known = None;
    if !exempt && !policies.is_empty() {
        let columns = query(sql::REDACTION_COLUMNS, "reading REDACTION_COLUMNS", false)?;
        // Before 12.2 REDACTION_EXPRESSIONS does not exist, which looks the same as a view the
        // user may not read (ORA-00942 either way): a named expression may then be hidden, one
        // that is TRUE where the policy's is FALSE, so nothing is evaluated.
        let named = query(
            sql::REDACTION_EXPRESSIONS,
            "reading REDACTION_EXPRESSIONS",
            true,
        )?;
        known = columns.zip(named);
        if known.is_none() {
            tracing::debug!(
                "{table}: REDACTION_COLUMNS or REDACTION_EXPRESSIONS cannot be read: its redaction policy expressions are not evaluated"
            );
        }
    }
    let evaluated = known.is_some();
    let (columns, named) = known.unwrap_or_default();
    let columns: Vec<String> = columns.into_iter().map(|(c, _)| c).collect();
    let column_expressions: Vec<(String, String)> = named
        .into_iter()
        .filter_map(|(c, e)| Some((c, e?)))
        .collect();
    let policies = policies
        .into_iter()
        .map(|(name, expression)| RedactionPolicy {
            name,
            expression: expression.unwrap_or_default(),
            columns: columns.clone(),
            column_expressions: column_expressions.clone(),
        })
        .collect();
    let evaluating = c("evaluating a Data Redaction policy expression");
    // One that cannot be evaluated counts as TRUE; a lost connection goes to the caller.
    let evaluate = |e: &str| match holds(conn, table, e, &evaluating) {
        Err(err) if !is_transient(&err) => {
            tracing::warn!(
                "{table}: the Data Redaction expression {e:?} could not be evaluated in the capture session ({err}); it is taken to be TRUE (the columns it decides for are masked)"
            );
            Ok(true)
        }
        other => other,
    };
    RedactionOutcome::of(policies, evaluated.then_some(evaluate)).map(Some)
}

/// A policy view the user cannot read (ORA-00942, ORA-01031): `None`.
pub(crate) fn optional<T>(r: Result<T>) -> Result<Option<T>> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(CdcError::Privilege { message, .. }) => {
            tracing::debug!("cannot read a policy view ({message})");
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
