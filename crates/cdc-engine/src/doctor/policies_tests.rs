//! `tables.access-policies` against emulated databases: FAIL with the exact GRANT for a policy
//! the capture user is not exempt from, PASS with the exemption, WARN with
//! `cdc.snapshot.access.policies=allow`, WARN when REDACTION_POLICIES cannot be read.

use super::tests::{fix, get, Db, HEALTHY_TABLES};
use super::*;

/// HR.EMP with the schema lines `policies` (indented as its keys); the user CDC with
/// `privileges`.
fn emp_with(policies: &str, privileges: &str) -> Db {
    let tables = HEALTHY_TABLES.replacen(
        "    primary_key: [ID]\n",
        &format!("    primary_key: [ID]\n{policies}"),
        1,
    );
    Db::new(
        &format!("  users:\n    - {{ name: CDC, privileges: {privileges} }}\n"),
        &tables,
    )
}

/// HR.EMP with a VPD policy and a Data Redaction policy; the user CDC with `privileges`.
fn with_policies(privileges: &str) -> Db {
    emp_with(
        "    access_policies:\n      - { name: EMP_MINE, predicate: \"ID > 5\" }\n    redaction_policies:\n      - { name: EMP_NAME, columns: [NAME] }\n",
        privileges,
    )
}

/// The check passes and its finding says `text`.
fn passes_saying(r: &Report, text: &str) {
    let c = get(r, "tables.access-policies");
    assert_eq!(c.severity, Severity::Pass, "{}", c.found);
    assert!(c.found.contains(text), "{}", c.found);
}

#[test]
fn a_policy_without_the_exemption_fails_with_the_grant() {
    let r = with_policies("all").report(&["cdc.database.user=CDC"]);
    let c = get(&r, "tables.access-policies");
    assert_eq!(c.severity, Severity::Fail, "{}", c.found);
    assert!(
        c.found
            .contains("HR.EMP: row access (VPD / OLS) policy EMP_MINE"),
        "{}",
        c.found
    );
    assert!(
        c.found.contains("Data Redaction policy EMP_NAME"),
        "{}",
        c.found
    );
    assert_eq!(
        fix(&r, "tables.access-policies"),
        "GRANT EXEMPT ACCESS POLICY TO CDC;\nGRANT EXEMPT REDACTION POLICY TO CDC;\ncdc.snapshot.access.policies: allow  # only if a filtered or masked snapshot is what you want"
    );
    assert_eq!(c.objects, ["HR.EMP"]);

    // Opted in: a warning that the snapshot differs from the table.
    let r = with_policies("all").report(&[
        "cdc.database.user=CDC",
        "cdc.snapshot.access.policies=allow",
    ]);
    assert_eq!(get(&r, "tables.access-policies").severity, Severity::Warn);
}

#[test]
fn the_exemptions_pass() {
    let r = with_policies("[all, EXEMPT ACCESS POLICY, EXEMPT REDACTION POLICY]")
        .report(&["cdc.database.user=CDC"]);
    let c = get(&r, "tables.access-policies");
    assert_eq!(c.severity, Severity::Pass, "{}", c.found);
    assert!(c.found.contains("(2 checked)"), "{}", c.found);
    // One exemption is not the other.
    let r = with_policies("[all, EXEMPT ACCESS POLICY]").report(&["cdc.database.user=CDC"]);
    assert_eq!(
        fix(&r, "tables.access-policies").lines().next(),
        Some("GRANT EXEMPT REDACTION POLICY TO CDC;")
    );
}

#[test]
fn an_unreadable_redaction_view_warns_that_it_cannot_be_checked() {
    // No SELECT_CATALOG_ROLE: REDACTION_POLICIES is ORA-00942 for CDC; the VPD policy it is
    // exempt from, so nothing is known to change its reads.
    let r = with_policies(
        "[CREATE SESSION, SELECT ANY TABLE, FLASHBACK ANY TABLE, EXEMPT ACCESS POLICY, \"SYS.DBA_OBJECTS:SELECT\", \"SYS.V_$DATABASE:SELECT\"]",
    )
    .report(&["cdc.database.user=CDC"]);
    let c = get(&r, "tables.access-policies");
    assert_eq!(c.severity, Severity::Warn, "{}", c.found);
    assert!(
        c.found.contains("REDACTION_POLICIES cannot be read"),
        "{}",
        c.found
    );
    assert_eq!(
        fix(&r, "tables.access-policies"),
        "GRANT SELECT_CATALOG_ROLE TO CDC;"
    );
}

/// A redaction policy whose expression is FALSE for the capture user masks nothing for it: PASS,
/// and the finding says which policy does not apply and why (before: FAIL with CDC-2207).
#[test]
fn a_redaction_policy_whose_expression_exempts_the_capture_user_passes_and_is_named() {
    let db = emp_with(
        "    redaction_policies:\n      - { name: EMP_NAME, columns: [NAME], expression: \"SYS_CONTEXT('USERENV','SESSION_USER') <> 'CDC'\" }\n",
        "all",
    );
    passes_saying(
        &db.report(&["cdc.database.user=CDC"]),
        "HR.EMP: Data Redaction policy EMP_NAME does not apply to CDC (its expressions are FALSE in CDC's session)",
    );
}

/// A redaction policy whose masked columns are all in cdc.columns.exclude changes no snapshot:
/// PASS, saying so (before: FAIL).
#[test]
fn a_redaction_policy_on_excluded_columns_only_passes_and_is_named() {
    let r = with_policies("[all, EXEMPT ACCESS POLICY]")
        .report(&["cdc.database.user=CDC", "cdc.columns.exclude=HR.EMP.NAME"]);
    passes_saying(
        &r,
        "HR.EMP: Data Redaction policy EMP_NAME masks only columns cdc.columns.exclude leaves out",
    );
    // Another column excluded: still FAIL.
    let r = with_policies("[all, EXEMPT ACCESS POLICY]")
        .report(&["cdc.database.user=CDC", "cdc.columns.exclude=HR.EMP.ID"]);
    assert_eq!(get(&r, "tables.access-policies").severity, Severity::Fail);
}

/// A column-level VPD policy whose columns the snapshot never references (excluded, not the
/// key) changes no snapshot: PASS, saying so (before: FAIL). Excluding its column does not help
/// when the column is the chunk key; an ALL_ROWS policy is named as nulling values.
#[test]
fn a_column_level_policy_on_excluded_columns_only_passes_and_is_named() {
    let column_level =
        |policy: &str| emp_with(&format!("    access_policies:\n      - {policy}\n"), "all");
    let db = column_level("{ name: EMP_HIRED, predicate: \"ID > 5\", columns: [HIRED] }");
    passes_saying(
        &db.report(&["cdc.database.user=CDC", "cdc.columns.exclude=HR.EMP.HIRED"]),
        "HR.EMP: column-level row access policy EMP_HIRED does not apply: the snapshot references none of its columns",
    );
    let r = db.report(&["cdc.database.user=CDC"]);
    assert_eq!(get(&r, "tables.access-policies").severity, Severity::Fail);
    assert!(
        fix(&r, "tables.access-policies").contains("cdc.columns.exclude: HR.EMP.HIRED  #"),
        "{}",
        fix(&r, "tables.access-policies")
    );

    // The key column: the snapshot's ranges and ORDER BY reference it, excluded or not.
    let db = column_level("{ name: EMP_ID, predicate: \"ID > 5\", columns: [ID], all_rows: true }");
    let r = db.report(&["cdc.database.user=CDC", "cdc.columns.exclude=HR.EMP.ID"]);
    let c = get(&r, "tables.access-policies");
    assert_eq!(c.severity, Severity::Fail, "{}", c.found);
    assert!(
        c.found
            .contains("or hold NULL for the values it hides (EMP_ID ALL_ROWS)"),
        "{}",
        c.found
    );
    // The key is referenced excluded or not: no exclusion offered.
    assert!(!fix(&r, "tables.access-policies").contains("cdc.columns.exclude"));
}
