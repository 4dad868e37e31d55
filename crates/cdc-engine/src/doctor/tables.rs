//! tables.*: which tables are captured and what the snapshot and LogMiner will make of each
//! (keys, row movement, index-organised tables, column types, name lengths, LOBs). The size
//! estimate and undo are in [`super::sizing`].

use super::facts::{Facts, Resolved};
use super::{list, Finding, Severity};
use crate::errors::CdcError;
use crate::names::TableName;
use crate::settings::KeyMissing;
use crate::snapshot::target::{Decision, Strategy};
use crate::types::ColumnType;
use cdc_core::model::{KeyConstraint, Organization, TableInfo};

/// LogMiner's name limit in bytes.
pub const LOGMINER_NAME_BYTES: usize = 30;

/// The captured tables, or the SKIP naming why they are unknown that every tables.* check
/// gives without them (also those that read only the targets: no table list, no verdict).
fn captured_tables(f: &Facts) -> Result<&[Resolved], Finding> {
    f.captured.as_deref().map_err(|e| Finding::skip(e.clone()))
}

/// PASS with `ok` when nothing was found; else the items at `severity` with their fixes, about
/// `objects` (the tables or columns found, each once, in the order found).
fn items(
    severity: Severity,
    found: Vec<String>,
    fixes: Vec<String>,
    objects: Vec<String>,
    ok: String,
) -> Finding {
    if found.is_empty() {
        return Finding::pass(ok);
    }
    let mut unique: Vec<String> = Vec::new();
    for o in objects {
        if !unique.contains(&o) {
            unique.push(o);
        }
    }
    let f = Finding::warn(found.join("\n"), fixes.join("\n")).on(unique);
    Finding { severity, ..f }
}

/// A unique key whose columns are all NOT NULL and of a chunkable type.
fn usable_unique_key(info: &TableInfo) -> Option<&KeyConstraint> {
    info.unique_keys.iter().find(|k| {
        k.columns.iter().all(|c| {
            info.column(c)
                .is_some_and(|col| !col.nullable && col.data_type.is_chunkable_key())
        })
    })
}

/// The way to give a table a usable key.
fn key_fix(f: &Facts, info: &TableInfo) -> String {
    let name = &info.name;
    if let Some(k) = usable_unique_key(info) {
        return format!(
            "cdc.key.{name}: {}  # unique key {}",
            k.columns.join(","),
            k.name
        );
    }
    let candidate = f
        .settings
        .keys
        .get(name)
        .or_else(|| {
            f.settings
                .keys
                .get(&TableName::new(None, &name.owner, &name.table))
        })
        .cloned()
        .or_else(|| info.primary_key.as_ref().map(|k| k.columns.clone()));
    if let Some(cols) = candidate {
        let cols: Vec<_> = cols.iter().filter_map(|c| info.column(c)).collect();
        if !cols.is_empty() && cols.iter().all(|c| c.data_type.is_chunkable_key()) {
            let nullable: Vec<String> = cols
                .iter()
                .filter(|c| c.nullable)
                .map(|c| format!("\"{}\" NOT NULL", c.name))
                .collect();
            if !nullable.is_empty() {
                return format!(
                    "ALTER TABLE {} MODIFY ({});",
                    name.quoted(),
                    nullable.join(", ")
                );
            }
        }
    }
    format!(
        "ALTER TABLE {} ADD PRIMARY KEY (<columns that identify a row>);\ncdc.key.{name}: COL1,COL2  # or, without a new key: NOT NULL number, character, DATE, TIMESTAMP or RAW columns that identify a row",
        name.quoted()
    )
}

pub(super) fn selection(f: &Facts) -> Finding {
    let captured = match captured_tables(f) {
        Ok(c) => c,
        Err(skip) => return skip,
    };
    let all = match &f.tables {
        Ok(t) => t,
        Err(e) => return Finding::skip(e.clone()),
    };
    if captured.is_empty() {
        let include = f.settings.include.patterns().join(", ");
        let mut owners: Vec<String> = all
            .iter()
            .map(|t| match &t.name.pdb {
                Some(p) => format!("{p}.{}", t.name.owner),
                None => t.name.owner.clone(),
            })
            .collect();
        owners.dedup();
        owners.sort();
        owners.dedup();
        let found = if all.is_empty() {
            "the database has no user tables".to_string()
        } else if include.is_empty() {
            format!(
                "cdc.tables.exclude leaves out all {} tables of the database",
                all.len()
            )
        } else {
            format!(
                "cdc.tables.include [{include}] matches none of the database's {} tables",
                all.len()
            )
        };
        let example = owners
            .first()
            .map(|o| format!("{o}.*"))
            .unwrap_or_else(|| "OWNER.*".into());
        return Finding::fail(
            format!("CDC-8003: no table to capture: {found}"),
            format!(
                "cdc.tables.include: [{example}]  # patterns of tables that exist; owners here: {}",
                if owners.is_empty() {
                    "none".to_string()
                } else {
                    list(&owners, 8)
                }
            ),
        );
    }
    let names: Vec<String> = captured.iter().map(|r| r.info.name.to_string()).collect();
    Finding::pass(format!(
        "{} of {} tables captured: {}",
        captured.len(),
        all.len(),
        list(&names, 8)
    ))
}

pub(super) fn keys(f: &Facts) -> Finding {
    let captured = match captured_tables(f) {
        Ok(c) => c,
        Err(skip) => return skip,
    };
    let mut severity = Severity::Warn;
    let (mut found, mut fixes, mut objects) = (Vec::new(), Vec::new(), Vec::new());
    for r in captured {
        let name = &r.info.name;
        let before = found.len();
        match &r.outcome {
            Err(CdcError::NoUsableKey { reason, .. }) => {
                severity = Severity::Fail;
                found.push(format!(
                    "{name}: {reason}; cdc.key.missing=fail stops the snapshot (CDC-8002)"
                ));
                fixes.push(key_fix(f, &r.info));
            }
            Err(e @ CdcError::KeyNotUnique { fix, .. }) => {
                severity = Severity::Fail;
                found.push(format!("{name}: {e}"));
                fixes.push(fix.clone());
            }
            Ok(Decision::Skip { reason, .. }) if reason.contains("cdc.key.missing=skip") => {
                found.push(format!("{name}: left out, {reason}"));
                fixes.push(key_fix(f, &r.info));
            }
            Ok(Decision::Capture(t)) if t.strategy == Strategy::Rowid => {
                found.push(format!(
                    "{name}: {} (cdc.key.missing=rowid); its records have no key",
                    t.reason
                ));
                fixes.push(key_fix(f, &r.info));
            }
            _ => {}
        }
        match &r.key_sample {
            Some(Ok(Some(dup))) => {
                severity = Severity::Fail;
                found.push(format!(
                    "{name}: cdc.key.unchecked takes its cdc.key as unique, but {dup}: a latest-per-key consumer would keep one of those rows (CDC-8006)"
                ));
                fixes.push(format!(
                    "cdc.key.{name}: <columns a primary key, unique key or unique index covers>  # and remove {name} from cdc.key.unchecked"
                ));
            }
            Some(Err(why)) => {
                found.push(format!(
                    "{name}: cdc.key.unchecked takes its cdc.key as unique; {why}"
                ));
                fixes.push(format!(
                    "check by hand that no two rows of {name} share the key and none has a NULL in it"
                ));
            }
            _ => {}
        }
        if found.len() > before {
            objects.push(name.to_string());
        }
    }
    let keyed = f
        .targets()
        .iter()
        .filter(|t| matches!(t.strategy, Strategy::Key(_)))
        .count();
    items(
        severity,
        found,
        fixes,
        objects,
        format!("{keyed} captured tables are read by a usable key"),
    )
}

pub(super) fn row_movement(f: &Facts) -> Finding {
    if let Err(skip) = captured_tables(f) {
        return skip;
    }
    let (mut found, mut fixes, mut objects) = (Vec::new(), Vec::new(), Vec::new());
    for t in f.targets() {
        if t.strategy != Strategy::Rowid || !t.info.row_movement {
            continue;
        }
        let name = t.name();
        objects.push(name.to_string());
        found.push(format!(
            "{name}: ROW MOVEMENT ENABLED and read by ROWID ranges ({})",
            t.reason
        ));
        fixes.push(match usable_unique_key(&t.info) {
            Some(k) => format!(
                "cdc.key.{name}: {}  # unique key {}, a safer key than ROWIDs",
                k.columns.join(","),
                k.name
            ),
            None => format!(
                "ALTER TABLE {} DISABLE ROW MOVEMENT;  -- or add a NOT NULL unique key and name its columns in cdc.key.{name}",
                name.quoted()
            ),
        });
    }
    let ok = if f.settings.key_missing == KeyMissing::Rowid {
        "no captured table with row movement is read by ROWID ranges"
    } else {
        "no table is read by ROWID ranges (cdc.key.missing is not rowid)"
    };
    items(Severity::Warn, found, fixes, objects, ok.into())
}

pub(super) fn iot_key(f: &Facts) -> Finding {
    if let Err(skip) = captured_tables(f) {
        return skip;
    }
    let (mut found, mut fixes, mut objects) = (Vec::new(), Vec::new(), Vec::new());
    for t in f.targets() {
        if t.strategy != Strategy::Single || t.info.organization != Organization::IndexOrganized {
            continue;
        }
        let name = t.name();
        let rows = t
            .info
            .stats
            .num_rows
            .map(|n| format!("{n} rows"))
            .unwrap_or_else(|| "an unknown number of rows".into());
        objects.push(name.to_string());
        found.push(format!("{name}: {} — one read of {rows}", t.reason));
        fixes.push(match usable_unique_key(&t.info) {
            Some(k) => format!("cdc.key.{name}: {}  # unique key {}", k.columns.join(","), k.name),
            None => format!(
                "cdc.key.{name}: COL1,COL2  # NOT NULL number, character, DATE, TIMESTAMP or RAW columns that identify a row"
            ),
        });
    }
    items(
        Severity::Warn,
        found,
        fixes,
        objects,
        "no index-organised table is read in a single chunk".into(),
    )
}

/// Which column types of the captured tables stream, which only snapshot (LogMiner writes
/// their tables' changes as UNSUPPORTED rows, or capture does not stream the column: LONG,
/// LONG RAW) and which are refused (no record mapping).
pub(super) fn column_types(f: &Facts) -> Finding {
    let captured = match captured_tables(f) {
        Ok(c) => c,
        Err(skip) => return skip,
    };
    use crate::types::LogMinerSupport;
    let mut severity = Severity::Warn;
    let (mut found, mut objects) = (Vec::new(), Vec::new());
    // One settings line per key, so the lines can be pasted into a settings file as they are.
    let (mut exclude_columns, mut exclude_tables, mut dlq) = (Vec::new(), Vec::new(), false);
    let mut sql_fixes: Vec<String> = Vec::new();
    // ENABLE_GOLDENGATE_REPLICATION; unknown (V$PARAMETER not readable) counts as FALSE.
    let gg = f
        .config
        .as_ref()
        .ok()
        .and_then(|c| c.goldengate_replication);
    let (mut streams, mut snapshot_only, mut refused) = (
        Vec::<String>::new(),
        Vec::<String>::new(),
        Vec::<String>::new(),
    );
    let note = |list: &mut Vec<String>, ty: &ColumnType| {
        let name = ty.sql_name();
        let base = name.split('(').next().unwrap_or(&name).to_string();
        if !list.contains(&base) {
            list.push(base);
        }
    };
    for r in captured {
        let name = &r.info.name;
        match &r.outcome {
            Err(CdcError::UnsupportedType {
                column, data_type, ..
            }) => {
                severity = Severity::Fail;
                found.push(format!(
                    "{name}.{column} is {data_type}: no record mapping, the snapshot stops (CDC-3001)"
                ));
                objects.push(format!("{name}.{column}"));
                exclude_columns.push(format!("{name}.{column}"));
                dlq = true;
            }
            Ok(Decision::Skip { reason, .. }) if reason.starts_with("CDC-3001") => {
                found.push(format!(
                    "{name}: skipped (cdc.on.decode.error=dlq): {reason}"
                ));
                objects.push(name.to_string());
                exclude_columns.push(format!("{name}.<column>"));
            }
            _ => {}
        }
        // LogMiner looks at the table's columns, excluded ones too.
        let mut unstreamable = Vec::new();
        let mut not_streamed = Vec::new();
        let excluded = |c: &str| {
            r.target()
                .is_some_and(|t| t.excluded.iter().any(|e| e == c))
        };
        for c in &r.info.columns {
            match c.data_type.logminer_support(gg.unwrap_or(false)) {
                LogMinerSupport::Streams => note(&mut streams, &c.data_type),
                LogMinerSupport::NoRecordMapping => note(&mut refused, &c.data_type),
                LogMinerSupport::TableUnsupported(why) => {
                    note(&mut snapshot_only, &c.data_type);
                    unstreamable.push((c, why));
                }
                LogMinerSupport::ColumnNotStreamed(why) => {
                    note(&mut snapshot_only, &c.data_type);
                    if !excluded(&c.name) {
                        not_streamed.push((c, why));
                    }
                }
            }
        }
        if r.outcome.is_err() {
            continue;
        }
        if !not_streamed.is_empty() && f.streams() {
            severity = Severity::Fail;
            for (c, why) in &not_streamed {
                found.push(format!(
                    "{name}.{} is {}: {why}; the snapshot reads it, but every change of the table stops capture while the column is captured (CDC-3008)",
                    c.name,
                    c.data_type.sql_name()
                ));
                objects.push(format!("{name}.{}", c.name));
                exclude_columns.push(format!("{name}.{}", c.name));
            }
        }
        if !unstreamable.is_empty() && f.streams() {
            severity = Severity::Fail;
            for (c, why) in &unstreamable {
                let unknown = if c.data_type == ColumnType::Json && gg.is_none() {
                    " (ENABLE_GOLDENGATE_REPLICATION could not be read)"
                } else {
                    ""
                };
                found.push(format!(
                    "{name}.{} is {}: {why}{unknown}; the snapshot reads it, but every change of the table arrives without its values (CDC-3003)",
                    c.name,
                    c.data_type.sql_name()
                ));
            }
            let json = unstreamable
                .iter()
                .any(|(c, _)| c.data_type == ColumnType::Json);
            for (c, _) in &unstreamable {
                objects.push(format!("{name}.{}", c.name));
            }
            let sql = "ALTER SYSTEM SET ENABLE_GOLDENGATE_REPLICATION = TRUE SCOPE = BOTH;  -- JSON columns";
            if json {
                if !sql_fixes.iter().any(|f| f == sql) {
                    sql_fixes.push(sql.to_string());
                }
            } else {
                exclude_tables.push(name.to_string());
            }
        }
        let bfiles: Vec<&str> = r
            .info
            .columns
            .iter()
            .filter(|c| c.data_type == ColumnType::Bfile)
            .map(|c| c.name.as_str())
            .collect();
        if !bfiles.is_empty()
            && f.kind == super::facts::SourceKind::Oracle
            && r.target()
                .is_some_and(|t| t.columns.iter().any(|c| c.data_type == ColumnType::Bfile))
        {
            severity = Severity::Fail;
            found.push(format!(
                "{name} has BFILE column {}: the Oracle adapter cannot read BFILE locators (CDC-3001)",
                bfiles.join(", ")
            ));
            for c in bfiles {
                objects.push(format!("{name}.{c}"));
                exclude_columns.push(format!("{name}.{c}"));
            }
        }
    }
    let mut fixes = sql_fixes;
    if !exclude_columns.is_empty() {
        fixes.push(format!(
            "cdc.columns.exclude: [{}]  # {}",
            exclude_columns.join(", "),
            if dlq {
                "or cdc.on.decode.error: dlq to skip the tables"
            } else {
                "to capture the rest of each table"
            }
        ));
    }
    if !exclude_tables.is_empty() {
        fixes.push(format!(
            "cdc.tables.exclude: [{}]  # or cdc.snapshot.mode: snapshot_only, or keep the values in types LogMiner streams (a BFILE's directory and name in VARCHAR2 columns)",
            exclude_tables.join(", ")
        ));
    }
    let list = |l: &[String]| {
        if l.is_empty() {
            "none".to_string()
        } else {
            l.join(", ")
        }
    };
    let summary = format!(
        "stream: {}; snapshot only: {}; refused: {} (commands/types.md)",
        list(&streams),
        list(&snapshot_only),
        list(&refused)
    );
    if found.is_empty() {
        return Finding::pass(format!(
            "every column of the {} captured tables has a record mapping; {summary}",
            captured.len()
        ));
    }
    found.push(summary);
    items(severity, found, fixes, objects, String::new())
}

pub(super) fn name_length(f: &Facts) -> Finding {
    let captured = match captured_tables(f) {
        Ok(c) => c,
        Err(skip) => return skip,
    };
    if !f.streams() {
        return Finding::pass(format!("not needed: {} does not use LogMiner", f.mode()));
    }
    let (mut found, mut fixes, mut objects) = (Vec::new(), Vec::new(), Vec::new());
    let long = |s: &str| s.len() > LOGMINER_NAME_BYTES;
    for r in captured {
        let n = &r.info.name;
        let before = found.len();
        if long(&n.owner) {
            found.push(format!("{n}: owner {} is {} bytes", n.owner, n.owner.len()));
            fixes.push(format!(
                "-- a user cannot be renamed: move {n} to an owner whose name fits in 30 bytes"
            ));
        }
        if long(&n.table) {
            found.push(format!("{n}: table name is {} bytes", n.table.len()));
            fixes.push(format!(
                "ALTER TABLE {} RENAME TO <name of at most 30 bytes>;",
                n.quoted()
            ));
        }
        for c in r.info.columns.iter().filter(|c| long(&c.name)) {
            found.push(format!("{n}: column {} is {} bytes", c.name, c.name.len()));
            fixes.push(format!(
                "ALTER TABLE {} RENAME COLUMN \"{}\" TO <name of at most 30 bytes>;",
                n.quoted(),
                c.name
            ));
        }
        if found.len() > before {
            objects.push(n.to_string());
        }
    }
    // Reported up to 21c; not confirmed lifted in 23ai, so a warning there.
    let severity = if f.major_version().is_some_and(|v| v >= 23) {
        Severity::Warn
    } else {
        Severity::Fail
    };
    items(
        severity,
        found,
        fixes,
        objects,
        format!(
            "every owner, table and column name of the {} captured tables fits in 30 bytes",
            captured.len()
        ),
    )
}

pub(super) fn lob(f: &Facts) -> Finding {
    if let Err(skip) = captured_tables(f) {
        return skip;
    }
    let (mut found, mut columns) = (Vec::new(), Vec::new());
    for t in f.targets() {
        let lobs: Vec<String> = t
            .columns
            .iter()
            .filter(|c| {
                c.data_type.is_lob()
                    || matches!(c.data_type, ColumnType::Long | ColumnType::LongRaw)
            })
            .map(|c| format!("{} ({})", c.name, c.data_type.sql_name()))
            .collect();
        if lobs.is_empty() {
            continue;
        }
        for c in t.columns.iter().filter(|c| {
            c.data_type.is_lob() || matches!(c.data_type, ColumnType::Long | ColumnType::LongRaw)
        }) {
            columns.push(format!("{}.{}", t.name(), c.name));
        }
        found.push(format!("{}: {}", t.name(), lobs.join(", ")));
    }
    let fix = if columns.is_empty() {
        Vec::new()
    } else {
        vec![format!(
            "cdc.columns.exclude: [{}]  # only if consumers do not need these values",
            columns.join(", ")
        )]
    };
    items(
        Severity::Warn,
        found,
        fix,
        columns,
        "no LOB or LONG column is captured".into(),
    )
}
