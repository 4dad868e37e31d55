//! Which row access policies (Virtual Private Database, Oracle Label Security) of a table
//! apply to the capture session's queries: the enabled SELECT policies (ALL_POLICIES) and, of
//! those, the column-level ones with their security-relevant columns (ALL_SEC_RELEVANT_COLS).
//! A column-level policy is enforced only on a query that references one of its columns: one
//! whose columns the snapshot never reads (all in `cdc.columns.exclude`, not the key, not in a
//! snapshot condition) changes nothing and must not stop the snapshot.

use super::connect::CallContext;
use super::driver::{DbSession, FetchOptions};
use super::fetch::{self, Bind};
use super::redaction::optional;
use super::sql;
use crate::errors::Result;
use crate::names::TableName;
use cdc_core::model::ColumnLevelPolicy;

/// The names of the table's enabled SELECT policies (`None`: ALL_POLICIES could not be read)
/// and the column-level ones among them. Where ALL_SEC_RELEVANT_COLS cannot be read, every
/// policy is taken to apply to every query, as before column-level policies were looked at.
pub fn read(
    conn: &dyn DbSession,
    table: &TableName,
    binds: &[(&str, Bind)],
) -> Result<(Option<Vec<String>>, Vec<ColumnLevelPolicy>)> {
    let c = |operation: &'static str| CallContext {
        table: Some(table.owner_table()),
        operation,
        ..CallContext::default()
    };
    let policies = optional(fetch::query_all(
        conn,
        sql::ROW_ACCESS_POLICIES,
        binds,
        FetchOptions::default(),
        &c("reading ALL_POLICIES"),
        |r| Ok((r.string(0)?, r.string(1)?)),
    ))?;
    let Some(policies) = policies else {
        return Ok((None, Vec::new()));
    };
    let mut names: Vec<String> = policies.iter().map(|(_, name)| name.clone()).collect();
    // In name order: two groups' policies of one name are one name.
    names.dedup();
    if policies.is_empty() {
        return Ok((Some(names), Vec::new()));
    }
    let columns = optional(fetch::query_all(
        conn,
        sql::SEC_RELEVANT_COLUMNS,
        binds,
        FetchOptions::default(),
        &c("reading ALL_SEC_RELEVANT_COLS"),
        |r| {
            Ok((
                (r.string(0)?, r.string(1)?),
                r.string(2)?,
                r.opt_string(3)?.is_some_and(|o| o == "ALL_ROWS"),
            ))
        },
    ))?;
    let Some(columns) = columns else {
        tracing::debug!(
            "{table}: ALL_SEC_RELEVANT_COLS cannot be read: its row access policies count as applying to every query"
        );
        return Ok((Some(names), Vec::new()));
    };
    Ok((Some(names), column_level(&policies, columns)))
}

/// The column-level policies among `policies` (group, name): those with security-relevant
/// columns. A policy is column-level only when each policy of its name is (two groups may each
/// have one of the name, and a table-level one among them applies to every query).
fn column_level(
    policies: &[(String, String)],
    columns: Vec<((String, String), String, bool)>,
) -> Vec<ColumnLevelPolicy> {
    let mut out: Vec<ColumnLevelPolicy> = Vec::new();
    for (_, name) in policies {
        if out.iter().any(|p| &p.policy == name) {
            continue;
        }
        let groups: Vec<&(String, String)> = policies.iter().filter(|p| &p.1 == name).collect();
        let rows: Vec<&((String, String), String, bool)> = columns
            .iter()
            .filter(|(k, _, _)| groups.contains(&k))
            .collect();
        if groups.iter().any(|g| !rows.iter().any(|(k, _, _)| k == *g)) {
            continue;
        }
        let mut cols: Vec<String> = rows.iter().map(|(_, c, _)| c.clone()).collect();
        cols.sort();
        cols.dedup();
        out.push(ColumnLevelPolicy {
            policy: name.clone(),
            columns: cols,
            all_rows: rows.iter().any(|(_, _, all)| *all),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    fn key(g: &str, n: &str) -> (String, String) {
        (g.to_string(), n.to_string())
    }

    #[test]
    fn a_name_is_column_level_only_when_every_group_of_it_is() {
        let policies = vec![
            key("SYS_DEFAULT", "P"),
            key("G1", "P"),
            key("SYS_DEFAULT", "Q"),
        ];
        let columns = vec![
            (key("SYS_DEFAULT", "P"), "SALARY".to_string(), false),
            (key("SYS_DEFAULT", "Q"), "SSN".to_string(), true),
            (key("SYS_DEFAULT", "Q"), "BONUS".to_string(), true),
        ];
        let got = super::column_level(&policies, columns.clone());
        // G1's P has no columns: P applies to every query.
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].policy, "Q");
        assert_eq!(got[0].columns, ["BONUS", "SSN"]);
        assert!(got[0].all_rows);
        let mut more = columns;
        more.push((key("G1", "P"), "BONUS".to_string(), false));
        let got = super::column_level(&policies, more);
        assert_eq!(got[0].policy, "P");
        assert_eq!(got[0].columns, ["BONUS", "SALARY"]);
        assert!(!got[0].all_rows);
    }
}
