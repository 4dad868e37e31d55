//! What capture checks in its stored offsets before it publishes anything. Capture never writes
//! offsets that fail these checks, so a failure means the file was edited by hand (or copied
//! from elsewhere); each is refused with its code and the `oracle-cdc offsets edit` that
//! repairs it, instead of publishing nothing or the wrong thing:
//!
//! - CDC-7009: the stream position is past the database's current SCN (capture would wait for
//!   SCNs that do not come, publishing nothing while transactions commit). Only on a primary:
//!   a standby's current SCN is where its apply is, which may lag the SCN capture reached on
//!   the primary.
//! - CDC-7011: a table name that is not one, or that neither the database nor the schema
//!   history (every table capture ever captured) knows. A table in the history that the
//!   database no longer has was dropped: that is not an error.
//! - CDC-7012: a published-transaction id (`stream.commit_xids`) that is not an XID.
//! - CDC-7002: any rule between the snapshot, signal, sink and export fields that
//!   `offsets edit` holds edits to ([`super::validate::structure_problems`]): one validator for
//!   every way into the offsets.
//!
//! The sink's acknowledged length is checked where the sink opens (CDC-7010, [`crate::sink`]).

use super::Offsets;
use crate::errors::{CdcError, Code, Result};
use crate::names::TableName;
use cdc_core::model::{DatabaseRole, Scn};
use std::collections::BTreeSet;
use std::path::Path;

/// What the database says at start.
pub struct Facts<'a> {
    pub current_scn: Scn,
    pub role: DatabaseRole,
    /// Every table the database has.
    pub tables: &'a [TableName],
    /// Table names of the schema history; `None` when there is none.
    pub history: Option<BTreeSet<String>>,
}

/// Refuse offsets capture could not have written (see the module doc).
pub fn check(o: &Offsets, path: &Path, facts: &Facts) -> Result<()> {
    let at = path.display();
    if let Some(s) = &o.stream {
        let bad: Vec<&String> = s
            .commit_xids
            .iter()
            .filter(|x| !super::edit::is_xid(x))
            .collect();
        if let Some(x) = bad.first() {
            return Err(CdcError::coded(
                Code::Cdc7012,
                format!(
                    "{at}: stream.commit_xids holds `{}`, not a transaction id (16 hex digits, as V$LOGMNR_CONTENTS.XID shows it): the offsets were edited by hand. `oracle-cdc offsets edit set-scn {}` publishes the transactions committed at SCN {} again (consumers may see them twice); add `--skip-xid XID` for each one known to be published",
                    crate::errors::shown(x, 40),
                    s.commit_scn,
                    s.commit_scn
                ),
            ));
        }
        if facts.role == DatabaseRole::Primary {
            let past = if s.commit_scn > facts.current_scn {
                Some(("stream.commit_scn", s.commit_scn))
            } else if s.resume_scn > facts.current_scn.saturating_add(1) {
                Some(("stream.resume_scn", s.resume_scn))
            } else {
                None
            };
            if let Some((field, scn)) = past {
                return Err(CdcError::coded(
                    Code::Cdc7009,
                    format!(
                        "{at}: {field} {scn} is past the database's current SCN {}: capture would wait for SCNs that do not come and publish nothing. Offsets of another database with the same DBID (a restored copy), or edited by hand; if this is the right database, `oracle-cdc offsets edit set-scn {}` streams from its current SCN",
                        facts.current_scn, facts.current_scn
                    ),
                ));
            }
        }
    }
    let mut names: BTreeSet<&String> = BTreeSet::new();
    if let Some(s) = &o.snapshot {
        names.extend(s.tables.keys());
        names.extend(s.order.iter());
    }
    for g in &o.signals {
        names.extend(g.tables.iter());
        names.extend(g.progress.keys());
        names.extend(g.filters.keys());
    }
    for name in names {
        let known = match name.parse::<TableName>() {
            Err(e) => {
                return Err(CdcError::coded(
                    Code::Cdc7011,
                    format!(
                        "{at}: `{}` is not a table name ({e}): the offsets were edited by hand. `oracle-cdc offsets edit --interactive` fixes or removes it",
                        crate::errors::shown(name, 80)
                    ),
                ))
            }
            Ok(t) => {
                facts.tables.contains(&t)
                    || facts
                        .history
                        .as_ref()
                        .is_none_or(|h| h.contains(name) || h.contains(&t.to_string()))
            }
        };
        if !known {
            return Err(CdcError::coded(
                Code::Cdc7011,
                format!(
                    "{at}: the offsets name table {name}, which the database does not have and capture never captured: edited by hand? `oracle-cdc offsets edit forget-table '{name}'` removes it"
                ),
            ));
        }
    }
    // Last, so the checks above give their own codes: the rules between fields every edit is held to ([`super::validate::problems`]).
    let problems = super::validate::structure_problems(o);
    if !problems.is_empty() {
        let shown = crate::errors::shown_items(&problems, 20, 300);
        return Err(CdcError::OffsetsDamaged {
            path: path.to_path_buf(),
            message: format!(
                "the offsets break the rules capture writes them by (edited by hand?): {}; `oracle-cdc offsets edit --interactive` fixes them",
                shown.join("; ")
            ),
        });
    }
    Ok(())
}

/// The table names of the schema history file (`None` when there is none).
pub fn history_tables(path: &Path) -> Result<Option<BTreeSet<String>>> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CdcError::io(path, e)),
    };
    let map: std::collections::BTreeMap<String, serde::de::IgnoredAny> =
        serde_json::from_slice(&bytes).map_err(|e| CdcError::OffsetsDamaged {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
    Ok(Some(map.into_keys().collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::offsets::{DatabaseIdentity, SignalSnapshot, StreamPosition};

    fn offsets() -> Offsets {
        let mut o = Offsets::new(DatabaseIdentity {
            dbid: 1,
            incarnation: 1,
            name: "DB".into(),
        });
        o.stream = Some(StreamPosition {
            resume_scn: 100,
            commit_scn: 99,
            commit_xids: vec!["0a001b00c3010000".into()],
            threads: Default::default(),
        });
        o
    }

    fn facts(tables: &[TableName], history: Option<&[&str]>) -> Facts<'static> {
        Facts {
            current_scn: 120,
            role: DatabaseRole::Primary,
            tables: Box::leak(tables.to_vec().into_boxed_slice()),
            history: history.map(|h| h.iter().map(|s| s.to_string()).collect()),
        }
    }

    fn code(o: &Offsets, f: &Facts) -> Option<Code> {
        check(o, Path::new("offsets.json"), f)
            .err()
            .map(|e| e.code())
    }

    #[test]
    fn what_capture_writes_passes_and_each_hand_edit_is_refused() {
        let emp: TableName = "HR.EMP".parse().unwrap();
        let f = facts(std::slice::from_ref(&emp), Some(&["HR.EMP", "HR.GONE"]));
        let mut o = offsets();
        o.signals.push(SignalSnapshot {
            id: "s".into(),
            kind: "incremental".into(),
            tables: vec!["HR.EMP".into(), "HR.GONE".into()],
            ..Default::default()
        });
        assert_eq!(
            code(&o, &f),
            None,
            "a dropped table (in the history) is fine"
        );
        // At the current SCN, and resuming just after it: fine.
        o.stream.as_mut().unwrap().commit_scn = 120;
        o.stream.as_mut().unwrap().resume_scn = 121;
        assert_eq!(code(&o, &f), None);

        let mut past = o.clone();
        past.stream.as_mut().unwrap().commit_scn = 5_000_000;
        let e = check(&past, Path::new("offsets.json"), &f).unwrap_err();
        assert_eq!(e.code(), Code::Cdc7009);
        assert!(e.to_string().contains("offsets edit set-scn 120"), "{e}");
        // A standby lags: waiting for it is right.
        let standby = Facts {
            role: DatabaseRole::PhysicalStandby,
            ..facts(std::slice::from_ref(&emp), None)
        };
        assert_eq!(code(&past, &standby), None);

        let mut xid = o.clone();
        xid.stream.as_mut().unwrap().commit_xids = vec!["zz".into()];
        assert_eq!(code(&xid, &f), Some(Code::Cdc7012));

        let mut unknown = o.clone();
        unknown.signals[0].tables.push("NOPE.NOPE".into());
        let e = check(&unknown, Path::new("offsets.json"), &f).unwrap_err();
        assert_eq!(e.code(), Code::Cdc7011);
        assert!(e.to_string().contains("forget-table 'NOPE.NOPE'"), "{e}");
        let mut garbage = o.clone();
        garbage.signals[0].tables.push("NOPE".into());
        assert_eq!(code(&garbage, &f), Some(Code::Cdc7011));
        // Without a history only the names are checked.
        assert_eq!(code(&unknown, &facts(&[emp], None)), None);
    }
}
