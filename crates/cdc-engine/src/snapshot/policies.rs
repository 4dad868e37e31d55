//! Before a table is snapshotted: the security policies that would change what its
//! `SELECT … AS OF SCN` returns for the capture user ([`cdc_core::model::ReadPolicies`]).
//!
//! A row access policy (VPD, Oracle Label Security) adds a predicate to the user's queries,
//! flashback queries included, and a Data Redaction policy masks columns in their results;
//! LogMiner's change stream carries the true rows all the same. A snapshot read under them
//! would silently lack rows or hold masked values, and a consumer keeping the latest record per
//! key would never converge to the table. So the snapshot refuses such a table (CDC-2206,
//! CDC-2207) unless the operator opted in (`cdc.snapshot.access.policies=allow`). A policy view
//! the user cannot read leaves the check undone: warned about, never a stop.
//!
//! In-Database Archiving is not checked here: the session setup makes archived rows visible
//! (`ALTER SESSION SET ROW ARCHIVAL VISIBILITY = ALL`, the adapter's `sql::session_setup`).

use crate::errors::{CdcError, Result};
use crate::ops::OpsLog;
use crate::settings::Settings;
use crate::snapshot::target::TableTarget;
use cdc_core::session::prelude::*;
use serde_json::json;

/// The user named in messages and remedies.
fn user(settings: &Settings) -> String {
    settings
        .database_user()
        .map(str::to_string)
        .unwrap_or_else(|| "<cdc.database.user>".into())
}

/// Refuses the table (CDC-2206 before CDC-2207) when a policy changes the capture user's reads
/// of it, unless allowed; warns when a policy view cannot be read or policies are allowed.
pub fn check(
    session: &mut dyn Session,
    target: &TableTarget,
    settings: &Settings,
    ops: &OpsLog,
) -> Result<()> {
    let table = target.name();
    let p = session.read_policies(table)?;
    let user = user(settings);
    for (unknown, view, kind) in [
        (
            p.row_access.is_none(),
            "ALL_POLICIES",
            "row access (VPD / OLS)",
        ),
        (
            p.redaction.is_none(),
            "REDACTION_POLICIES",
            "Data Redaction",
        ),
    ] {
        if unknown {
            tracing::warn!("cannot read {view} for {table}: whether {kind} policies change the snapshot of it is unknown (REDACTION_POLICIES needs SELECT_CATALOG_ROLE)");
            ops.emit(
                "snapshot-policies-unknown",
                json!({"table": table.to_string(), "view": view}),
            )?;
        }
    }
    if !p.redaction_not_applying.is_empty() {
        tracing::info!(
            "{table}: Data Redaction policy {} does not apply to {user}: its expressions are FALSE in the capture session",
            p.redaction_not_applying.join(", ")
        );
    }
    // A masked column the snapshot never reads (cdc.columns.exclude) changes nothing.
    let masking = p.masking_read(|c| !settings.column_excluded(table, c));
    if masking.is_empty() && !p.masking().is_empty() {
        tracing::info!(
            "{table}: Data Redaction policy {} masks only columns cdc.columns.exclude leaves out of the snapshot",
            p.masking().join(", ")
        );
    }
    // A column-level VPD policy none of whose columns the snapshot references changes nothing.
    let filtering = p.filtering_read(|c| target.references(c));
    let passed = p.filtering_passed(|c| target.references(c));
    if !passed.is_empty() {
        tracing::info!(
            "{table}: column-level row access policy {} does not apply to the snapshot: it references none of the policy's columns (cdc.columns.exclude leaves them out)",
            passed.join(", ")
        );
    }
    if filtering.is_empty() && masking.is_empty() {
        return Ok(());
    }
    if settings.snapshot.allow_access_policies {
        tracing::warn!(
            "cdc.snapshot.access.policies=allow: the snapshot of {table} reads only what its policies let {user} see (row access: {}; redaction: {}); it differs from the table",
            filtering.join(", "),
            masking.join(", ")
        );
        ops.emit(
            "snapshot-policies-allowed",
            json!({"table": table.to_string(), "row_access": filtering, "redaction": masking}),
        )?;
        return Ok(());
    }
    if !filtering.is_empty() {
        let excludable = excludable_columns(&p, target, &filtering);
        return Err(CdcError::RowAccessPolicy {
            table: table.to_string(),
            user,
            nulling: p.nulling(&filtering),
            policies: filtering,
            excludable,
        });
    }
    Err(CdcError::RedactionPolicy {
        table: table.to_string(),
        user,
        policies: masking,
    })
}

/// When `filtering` are all column-level policies and the snapshot only reads their columns
/// (not the chunk key, not in its condition): those columns as `TABLE.COLUMN`, whose exclusion
/// (cdc.columns.exclude) would stop the policies applying; else none.
pub(crate) fn excludable_columns(
    p: &cdc_core::model::ReadPolicies,
    target: &TableTarget,
    filtering: &[String],
) -> Vec<String> {
    p.policy_columns(filtering)
        .filter(|cols| !cols.iter().any(|c| target.references_beyond_reading(c)))
        .unwrap_or_default()
        .into_iter()
        .map(|c| format!("{}.{c}", target.name()))
        .collect()
}
