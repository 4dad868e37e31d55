//! `tables.access-policies`: the security policies that would change a captured table's
//! snapshot for the capture user (the snapshot's own check, `snapshot::policies`, which stops
//! with CDC-2206 / CDC-2207): Virtual Private Database / Oracle Label Security policies on
//! queries without EXEMPT ACCESS POLICY (rows left out) and Data Redaction policies without
//! EXEMPT REDACTION POLICY (values masked), while the change stream carries the true rows.

use super::facts::Facts;
use super::Finding;

/// The GRANT of `privilege` to the capture user; a common user's is granted in every container.
fn grant(privilege: &str, user: &str) -> String {
    let common = user.to_ascii_uppercase().starts_with("C##");
    format!(
        "GRANT {privilege} TO {user}{};",
        if common { " CONTAINER=ALL" } else { "" }
    )
}

pub(super) fn access_policies(f: &Facts) -> Finding {
    if let Err(e) = &f.captured {
        return Finding::skip(e.clone());
    }
    // The grant names the user; the findings say who, or "the capture user" when the settings
    // name none (the emulator's default login).
    let user = f.settings.database_user().unwrap_or("<cdc.database.user>");
    let who = f.settings.database_user().unwrap_or("the capture user");
    let (mut found, mut fixes, mut objects, mut unknown) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    // Enabled redaction policies whose expressions are FALSE for the capture user: they do not
    // mask its reads (a common alternative to granting EXEMPT REDACTION POLICY).
    let mut not_applying = Vec::new();
    let need = |privilege: &str, fixes: &mut Vec<String>| {
        let g = grant(privilege, user);
        if !fixes.contains(&g) {
            fixes.push(g);
        }
    };
    for (name, p) in &f.read_policies {
        let p = match p {
            Ok(p) => p,
            Err(e) => {
                unknown.push(format!("{name}: {e}"));
                continue;
            }
        };
        if p.row_access.is_none() {
            unknown.push(format!("{name}: ALL_POLICIES cannot be read"));
        }
        if p.redaction.is_none() {
            unknown.push(format!(
                "{name}: REDACTION_POLICIES cannot be read (it needs SELECT_CATALOG_ROLE)"
            ));
        }
        // A column-level policy applies only to statements that reference one of its columns:
        // the snapshot's, as the table resolves (its key, its override condition), else every
        // column not excluded.
        let target = f.targets().into_iter().find(|t| t.name() == name);
        let referenced = |c: &str| match target {
            Some(t) => t.references(c),
            None => !f.settings.column_excluded(name, c),
        };
        let filtering = p.filtering_read(referenced);
        let passed = p.filtering_passed(referenced);
        if !passed.is_empty() {
            not_applying.push(format!(
                "{name}: column-level row access policy {} does not apply: the snapshot references none of its columns (cdc.columns.exclude leaves them out)",
                passed.join(", ")
            ));
        }
        if !filtering.is_empty() {
            let nulling = p.nulling(&filtering);
            let effect = match nulling.is_empty() {
                true => "the snapshot would lack the rows it hides".to_string(),
                false => format!(
                    "the snapshot would lack the rows it hides, or hold NULL for the values it hides ({} ALL_ROWS)",
                    nulling.join(", ")
                ),
            };
            found.push(format!(
                "{name}: row access (VPD / OLS) policy {} applies to {who}'s queries, who lacks EXEMPT ACCESS POLICY: {effect} (CDC-2206)",
                filtering.join(", ")
            ));
            need("EXEMPT ACCESS POLICY", &mut fixes);
            // Column-level policies whose columns the snapshot only reads: excluding them is
            // another way (the snapshot's own message offers it too).
            let excludable = target
                .map(|t| crate::snapshot::policies::excludable_columns(p, t, &filtering))
                .unwrap_or_default();
            if !excludable.is_empty() {
                fixes.push(format!(
                    "cdc.columns.exclude: {}  # if consumers need not these columns: the column-level policies then do not apply",
                    excludable.join(",")
                ));
            }
            objects.push(name.to_string());
        }
        if !p.redaction_not_applying.is_empty() {
            not_applying.push(format!(
                "{name}: Data Redaction policy {} does not apply to {who} (its expressions are FALSE in {who}'s session)",
                p.redaction_not_applying.join(", ")
            ));
        }
        // Masked columns the snapshot never reads (cdc.columns.exclude) change nothing.
        let masking = p.masking_read(|c| !f.settings.column_excluded(name, c));
        if masking.is_empty() && !p.masking().is_empty() {
            not_applying.push(format!(
                "{name}: Data Redaction policy {} masks only columns cdc.columns.exclude leaves out",
                p.masking().join(", ")
            ));
        }
        if !masking.is_empty() {
            found.push(format!(
                "{name}: Data Redaction policy {} masks {who}'s query results, who lacks EXEMPT REDACTION POLICY: the snapshot would hold masked values (CDC-2207)",
                masking.join(", ")
            ));
            need("EXEMPT REDACTION POLICY", &mut fixes);
            if !objects.contains(&name.to_string()) {
                objects.push(name.to_string());
            }
        }
    }
    let noted = |text: String| -> String {
        match not_applying.is_empty() {
            true => text,
            false => format!("{text}\n{}", not_applying.join("\n")),
        }
    };
    if !found.is_empty() {
        let found = noted(found.join("\n"));
        if f.settings.snapshot.allow_access_policies {
            let mut w = Finding::warn(
                format!(
                    "{found}\ncdc.snapshot.access.policies=allow: the snapshot reads these tables as the policies let {who} see them, not as they are"
                ),
                fixes.join("\n"),
            );
            w.objects = objects;
            return w;
        }
        fixes.push(
            "cdc.snapshot.access.policies: allow  # only if a filtered or masked snapshot is what you want"
                .into(),
        );
        return Finding::fail(found, fixes.join("\n")).on(objects);
    }
    if !unknown.is_empty() {
        let objects = f.read_policies.keys().map(|n| n.to_string()).collect();
        return Finding::warn(
            format!(
                "whether security policies change the snapshot cannot be checked: {}",
                unknown.join("; ")
            ),
            grant("SELECT_CATALOG_ROLE", user),
        )
        .on(objects);
    }
    Finding::pass(noted(format!(
        "no captured table has a VPD, OLS or Data Redaction policy that applies to {who} ({} checked)",
        f.read_policies.len()
    )))
}
