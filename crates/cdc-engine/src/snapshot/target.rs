//! Which tables are captured, with which columns, and how each is cut into chunks and why.

use crate::errors::{CdcError, Code, Result};
use crate::names::TableName;
use crate::settings::{KeyMissing, OnDecodeError, Settings};
use cdc_core::model::{ColumnInfo, Organization, TableInfo};

/// How a table is cut into chunks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Strategy {
    /// By these key columns, compared column by column.
    Key(Vec<String>),
    /// By ROWID ranges from the table's extents.
    Rowid,
    /// The whole table in one read.
    Single,
}

impl Strategy {
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::Key(_) => "key",
            Strategy::Rowid => "rowid",
            Strategy::Single => "single",
        }
    }
}

/// A captured table, ready to be planned and read.
#[derive(Debug, Clone)]
pub struct TableTarget {
    pub info: TableInfo,
    /// Columns read and published, in table order (cdc.columns.exclude left out).
    pub columns: Vec<ColumnInfo>,
    /// The record key: the chosen key's columns (even when they cannot bound chunks).
    pub record_key: Vec<String>,
    pub strategy: Strategy,
    /// Why this strategy, in words an operator understands.
    pub reason: String,
    pub warnings: Vec<String>,
    /// cdc.snapshot.select.override for this table.
    pub filter: Option<String>,
    /// The columns cdc.columns.exclude names for this table, whether it has them yet or not.
    pub excluded: Vec<String>,
}

impl TableTarget {
    pub fn name(&self) -> &TableName {
        &self.info.name
    }

    /// Whether the snapshot's statements of the table reference the column anywhere: in the
    /// select list (a column it reads), as the chunk key (its ranges and ORDER BY), or in the
    /// table's `cdc.snapshot.select.override` condition (any name written there counts). A
    /// column-level VPD policy applies to them only through such a column.
    pub fn references(&self, column: &str) -> bool {
        !self.excluded.iter().any(|c| c == column) || self.references_beyond_reading(column)
    }

    /// Whether the snapshot's statements reference the column other than by reading it: as
    /// the chunk key or in the table's condition (excluding it would not stop that).
    pub fn references_beyond_reading(&self, column: &str) -> bool {
        matches!(&self.strategy, Strategy::Key(k) if k.iter().any(|c| c == column))
            || self.filter.as_deref().is_some_and(|f| {
                cdc_core::sql_condition::condition_names(f)
                    .iter()
                    .any(|n| n == column)
            })
    }

    /// Of a layout of the table (`layout`, e.g. after an ADD COLUMN), the columns a snapshot
    /// reads: all but those cdc.columns.exclude names (a column added later included).
    pub fn read_columns(&self, layout: &[ColumnInfo]) -> Vec<ColumnInfo> {
        layout
            .iter()
            .filter(|c| !self.excluded.contains(&c.name))
            .cloned()
            .collect()
    }
}

/// The outcome for one captured table.
#[derive(Debug, Clone)]
pub enum Decision {
    Capture(Box<TableTarget>),
    Skip { table: TableName, reason: String },
}

impl Decision {
    pub fn table(&self) -> &TableName {
        match self {
            Decision::Capture(t) => t.name(),
            Decision::Skip { table, .. } => table,
        }
    }
}

/// Resolve the captured tables from the settings (and `only`, from `--tables`), in reading order.
pub fn resolve(
    settings: &Settings,
    tables: Vec<TableInfo>,
    only: &[TableName],
) -> Result<Vec<Decision>> {
    for t in only {
        let known = tables.iter().find(|i| &i.name == t);
        match known {
            // Not captured by its name alone: in root mode the catalog lists only the PDBs the
            // patterns reach into, so an uncaptured table need not be listed to be refused.
            None if !settings.is_captured(t) => {
                return Err(CdcError::Argument(format!(
                "table {t} is not captured: cdc.tables.include / cdc.tables.exclude leave it out"
            )))
            }
            None => {
                return Err(CdcError::UnknownTable {
                    table: t.to_string(),
                    hint: String::new(),
                })
            }
            Some(i) if !settings.is_captured(&i.name) => {
                return Err(CdcError::Argument(format!(
                "table {t} is not captured: cdc.tables.include / cdc.tables.exclude leave it out"
            )))
            }
            _ => {}
        }
    }
    let mut chosen: Vec<TableInfo> = tables
        .into_iter()
        .filter(|t| settings.is_captured(&t.name))
        .filter(|t| only.is_empty() || only.contains(&t.name))
        .collect();
    if chosen.is_empty() {
        let include = settings.include.patterns().join(", ");
        return Err(CdcError::NoTables(if include.is_empty() {
            "the database has no user tables".into()
        } else {
            format!("cdc.tables.include [{include}] matches none of the database's tables")
        }));
    }
    // cdc.snapshot.tables.order first, in its order; the rest by name.
    let rank = |t: &TableName| {
        settings
            .snapshot
            .tables_order
            .iter()
            .position(|o| o == t || (o.pdb.is_none() && o.owner == t.owner && o.table == t.table))
            .unwrap_or(usize::MAX)
    };
    chosen.sort_by(|a, b| {
        rank(&a.name)
            .cmp(&rank(&b.name))
            .then_with(|| a.name.cmp(&b.name))
    });
    chosen.into_iter().map(|t| decide(settings, t)).collect()
}

fn per_table<'a, T>(
    map: &'a std::collections::BTreeMap<TableName, T>,
    table: &TableName,
) -> Option<&'a T> {
    map.get(table)
        .or_else(|| map.get(&TableName::new(None, &table.owner, &table.table)))
}

/// A chosen key must identify one row: NOT NULL columns that a primary key, unique key or
/// unique index lies within. Records are keyed by it, so two rows sharing a key would be one
/// row to a consumer that keeps the latest record per key (CDC-8006).
fn check_unique(info: &TableInfo, cols: &[String]) -> Result<()> {
    let name = &info.name;
    let refuse = |reason: String| {
        let mut known: Vec<String> = info
            .primary_key
            .iter()
            .map(|k| format!("primary key {} ({})", k.name, k.columns.join(",")))
            .chain(
                info.unique_keys
                    .iter()
                    .map(|k| format!("unique key {} ({})", k.name, k.columns.join(","))),
            )
            .chain(
                info.unique_indexes
                    .iter()
                    .map(|k| format!("unique index {} ({})", k.name, k.columns.join(","))),
            )
            .collect();
        known.dedup();
        let fix = if known.is_empty() {
            format!("{name} has no primary key, unique key or unique index: add one (CREATE UNIQUE INDEX … ON {} (…)), or list the table in cdc.key.unchecked if the columns are unique and NOT NULL on purpose", name.quoted())
        } else {
            format!("{name} has {}: name one of them, or list the table in cdc.key.unchecked if the columns are unique and NOT NULL on purpose", known.join(", "))
        };
        Err(CdcError::KeyNotUnique {
            table: name.to_string(),
            columns: cols.to_vec(),
            reason,
            fix,
        })
    };
    let nullable: Vec<&str> = cols
        .iter()
        .filter(|c| info.column(c).is_some_and(|col| col.nullable))
        .map(|c| c.as_str())
        .collect();
    if !nullable.is_empty() {
        return refuse(format!(
            "{} nullable, and rows whose key is NULL share it",
            match nullable.as_slice() {
                [one] => format!("column {one} is"),
                many => format!("columns {} are", many.join(", ")),
            }
        ));
    }
    if info.uniqueness_of(cols).is_none() {
        return refuse(
            "no primary key, unique key or unique index lies within these columns, so rows may share them".into(),
        );
    }
    Ok(())
}

fn decide(settings: &Settings, info: TableInfo) -> Result<Decision> {
    let name = info.name.clone();
    let columns: Vec<ColumnInfo> = info
        .columns
        .iter()
        .filter(|c| !settings.column_excluded(&name, &c.name))
        .cloned()
        .collect();
    if let Some(c) = columns.iter().find(|c| !c.data_type.has_record_mapping()) {
        let err = CdcError::UnsupportedType {
            table: name.to_string(),
            column: c.name.clone(),
            data_type: c.data_type.sql_name(),
        };
        return match settings.on_decode_error {
            OnDecodeError::Dlq => Ok(Decision::Skip {
                table: name,
                reason: err.to_string(),
            }),
            OnDecodeError::Fail => Err(err),
        };
    }
    let chosen = per_table(&settings.keys, &name);
    if let Some(cols) = chosen {
        for c in cols {
            if info.column(c).is_none() {
                return Err(CdcError::settings(
                    Code::Cdc1002,
                    format!(
                        "setting `cdc.key.{name}` names column {c}, which {name} does not have"
                    ),
                ));
            }
        }
    }
    if let Some(cols) = chosen.filter(|_| !settings.key_unchecked(&name)) {
        check_unique(&info, cols)?;
    }
    let (candidate, source) = match (chosen, &info.primary_key) {
        (Some(cols), _) => (
            Some(cols.clone()),
            format!("key chosen with cdc.key.{name}"),
        ),
        (None, Some(pk)) => (Some(pk.columns.clone()), "primary key".to_string()),
        (None, None) => (None, String::new()),
    };
    let problem = match &candidate {
        None => Some("it has no primary key".to_string()),
        Some(cols) => cols.iter().find_map(|c| {
            let col = info.column(c)?;
            if col.nullable {
                Some(format!("key column {c} is nullable"))
            } else if !col.data_type.is_chunkable_key() {
                Some(format!(
                    "key column {c} has type {}, which cannot bound chunks",
                    col.data_type.sql_name()
                ))
            } else {
                None
            }
        }),
    };
    let record_key = candidate.clone().unwrap_or_default();
    let mut warnings = Vec::new();
    let (strategy, reason) = match problem {
        None => {
            let cols = candidate.unwrap_or_default();
            let reason = format!("by {source} ({})", cols.join(", "));
            (Strategy::Key(cols), reason)
        }
        Some(problem) => match settings.key_missing {
            KeyMissing::Fail => {
                return Err(CdcError::NoUsableKey {
                    table: name.to_string(),
                    reason: problem,
                })
            }
            KeyMissing::Skip => {
                return Ok(Decision::Skip {
                    table: name,
                    reason: format!("{problem} and cdc.key.missing=skip"),
                })
            }
            KeyMissing::Rowid if info.organization == Organization::Heap => {
                (Strategy::Rowid, format!("ROWID ranges: {problem}"))
            }
            KeyMissing::Rowid => (
                Strategy::Single,
                format!("single chunk: {problem} and an index-organised table has no ROWID ranges"),
            ),
        },
    };
    if strategy == Strategy::Rowid && info.row_movement {
        let usable_uk = info.unique_keys.iter().find(|k| {
            k.columns.iter().all(|c| {
                info.column(c)
                    .is_some_and(|col| !col.nullable && col.data_type.is_chunkable_key())
            })
        });
        let fix = match usable_uk {
            Some(k) => format!("set cdc.key.{name}: {} (unique key {})", k.columns.join(","), k.name),
            None => format!("add a NOT NULL unique key and name it with cdc.key.{name}, or ALTER TABLE {} DISABLE ROW MOVEMENT", name.quoted()),
        };
        warnings.push(format!(
            "row movement is enabled on a table read by ROWID ranges: rows that move during the snapshot can be missed or read twice; {fix}"
        ));
    }
    match (&info.stats.num_rows, info.stats.stale) {
        (None, _) => warnings.push(format!(
            "no optimizer statistics: row estimates are guesses; run DBMS_STATS.GATHER_TABLE_STATS('{}', '{}')",
            name.owner, name.table
        )),
        (Some(_), true) => warnings.push(format!(
            "optimizer statistics are stale: row estimates may be off; run DBMS_STATS.GATHER_TABLE_STATS('{}', '{}')",
            name.owner, name.table
        )),
        _ => {}
    }
    let filter = per_table(&settings.snapshot.select_overrides, &name).cloned();
    let excluded = settings
        .columns_exclude
        .iter()
        .filter(|c| settings.column_excluded(&name, &c.column))
        .map(|c| c.column.clone())
        .collect();
    Ok(Decision::Capture(Box::new(TableTarget {
        info,
        columns,
        record_key,
        strategy,
        reason,
        warnings,
        filter,
        excluded,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::ColumnType;
    use cdc_core::model::{KeyConstraint, TableStats};

    fn col(name: &str, ty: &str, nullable: bool) -> ColumnInfo {
        ColumnInfo {
            name: name.into(),
            data_type: ColumnType::parse(ty).unwrap(),
            nullable,
            virtual_column: false,
            hidden: false,
        }
    }

    fn table(name: &str, columns: Vec<ColumnInfo>, pk: Option<&[&str]>) -> TableInfo {
        TableInfo {
            name: name.parse().unwrap(),
            columns,
            primary_key: pk.map(|c| KeyConstraint {
                name: "PK".into(),
                columns: c.iter().map(|s| s.to_string()).collect(),
            }),
            unique_keys: vec![],
            unique_indexes: vec![],
            organization: Organization::Heap,
            cluster: None,
            row_movement: false,
            data_object_id: 1,
            object_id: 1,
            partitions: vec![],
            stats: TableStats {
                num_rows: Some(10),
                ..Default::default()
            },
            supplemental_all_columns: true,
        }
    }

    fn only_target(settings: &[&str], t: TableInfo) -> Result<Decision> {
        let s = Settings::from_pairs(settings).unwrap();
        resolve(&s, vec![t], &[]).map(|mut v| v.remove(0))
    }

    fn target(d: Decision) -> TableTarget {
        match d {
            Decision::Capture(t) => *t,
            Decision::Skip { reason, .. } => panic!("skipped: {reason}"),
        }
    }

    #[test]
    fn key_strategy_needs_not_null_chunkable_columns() {
        let t = target(
            only_target(
                &[],
                table("HR.EMP", vec![col("ID", "NUMBER(5)", false)], Some(&["ID"])),
            )
            .unwrap(),
        );
        assert_eq!(t.strategy, Strategy::Key(vec!["ID".into()]));
        assert_eq!(t.reason, "by primary key (ID)");

        let t = target(
            only_target(
                &[],
                table(
                    "HR.EMP",
                    vec![
                        col("ID", "NUMBER(5)", false),
                        col("EMAIL", "VARCHAR2(9)", true),
                    ],
                    None,
                ),
            )
            .unwrap(),
        );
        assert_eq!(t.strategy, Strategy::Rowid);
        assert_eq!(t.reason, "ROWID ranges: it has no primary key");

        // A nullable chosen key is unique only on the operator's word.
        let t = target(
            only_target(
                &["cdc.key.HR.EMP=EMAIL", "cdc.key.unchecked=HR.EMP"],
                table(
                    "HR.EMP",
                    vec![
                        col("ID", "NUMBER(5)", false),
                        col("EMAIL", "VARCHAR2(9)", true),
                    ],
                    Some(&["ID"]),
                ),
            )
            .unwrap(),
        );
        assert_eq!(t.reason, "ROWID ranges: key column EMAIL is nullable");
        assert_eq!(t.record_key, vec!["EMAIL".to_string()]);

        let t = target(
            only_target(
                &[],
                table("HR.DOC", vec![col("BODY", "CLOB", false)], Some(&["BODY"])),
            )
            .unwrap(),
        );
        assert_eq!(
            t.reason,
            "ROWID ranges: key column BODY has type CLOB, which cannot bound chunks"
        );
    }

    #[test]
    fn index_organised_without_usable_key_is_one_chunk_and_missing_key_settings_apply() {
        let mut iot = table("HR.IOT", vec![col("K", "CLOB", false)], Some(&["K"]));
        iot.organization = Organization::IndexOrganized;
        let t = target(only_target(&[], iot.clone()).unwrap());
        assert_eq!(t.strategy, Strategy::Single);
        let e = only_target(&["cdc.key.missing=fail"], iot.clone()).unwrap_err();
        assert_eq!(e.code(), Code::Cdc8002);
        match only_target(&["cdc.key.missing=skip"], iot).unwrap() {
            Decision::Skip { reason, .. } => {
                assert!(reason.contains("cdc.key.missing=skip"), "{reason}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unsupported_types_fail_or_skip_and_excluded_columns_are_not_read() {
        let t = table(
            "HR.MAP",
            vec![
                col("ID", "NUMBER(5)", false),
                col("SHAPE", "MDSYS.SDO_GEOMETRY", true),
            ],
            Some(&["ID"]),
        );
        let e = only_target(&[], t.clone()).unwrap_err();
        assert_eq!(e.code(), Code::Cdc3001);
        assert!(e.to_string().contains("SHAPE"));
        assert!(matches!(
            only_target(&["cdc.on.decode.error=dlq"], t.clone()).unwrap(),
            Decision::Skip { .. }
        ));
        let ok = target(only_target(&["cdc.columns.exclude=HR.MAP.SHAPE"], t).unwrap());
        assert_eq!(ok.columns.len(), 1);
    }

    #[test]
    fn row_movement_on_rowid_tables_warns_with_the_safer_key() {
        let mut t = table(
            "HR.LOG",
            vec![
                col("ID", "NUMBER(5)", false),
                col("MSG", "VARCHAR2(9)", true),
            ],
            None,
        );
        t.row_movement = true;
        t.unique_keys = vec![KeyConstraint {
            name: "LOG_UK".into(),
            columns: vec!["ID".into()],
        }];
        let t = target(only_target(&[], t).unwrap());
        assert!(
            t.warnings
                .iter()
                .any(|w| w.contains("row movement") && w.contains("cdc.key.HR.LOG: ID")),
            "{:?}",
            t.warnings
        );
    }

    #[test]
    fn a_chosen_key_must_be_unique_and_not_null_unless_unchecked() {
        let movers = || {
            table(
                "APP.MOVERS",
                vec![
                    col("ID", "NUMBER(5)", false),
                    col("REGION", "VARCHAR2(8)", false),
                    col("CODE", "VARCHAR2(8)", false),
                    col("NOTE", "VARCHAR2(8)", true),
                ],
                Some(&["ID"]),
            )
        };
        // Not backed by any uniqueness: refused, with what the table has.
        let e = only_target(&["cdc.key.APP.MOVERS=REGION"], movers()).unwrap_err();
        assert_eq!(e.code(), Code::Cdc8006, "{e}");
        let text = e.to_string();
        assert!(
            text.contains("cdc.key.APP.MOVERS") && text.contains("primary key PK (ID)"),
            "{text}"
        );
        // A nullable column: refused too.
        let mut t = movers();
        t.unique_indexes = vec![KeyConstraint {
            name: "MOVERS_UX".into(),
            columns: vec!["NOTE".into()],
        }];
        let e = only_target(&["cdc.key.APP.MOVERS=NOTE"], t).unwrap_err();
        assert_eq!(e.code(), Code::Cdc8006, "{e}");
        assert!(e.to_string().contains("column NOTE is nullable"), "{e}");
        // Backed: a unique index within the columns, a unique key, or the primary key.
        let mut t = movers();
        t.unique_indexes = vec![KeyConstraint {
            name: "MOVERS_UX".into(),
            columns: vec!["CODE".into(), "REGION".into()],
        }];
        let ok = target(only_target(&["cdc.key.APP.MOVERS=REGION,CODE"], t.clone()).unwrap());
        assert_eq!(
            ok.strategy,
            Strategy::Key(vec!["REGION".into(), "CODE".into()])
        );
        let e = only_target(&["cdc.key.APP.MOVERS=CODE"], t).unwrap_err();
        assert_eq!(
            e.code(),
            Code::Cdc8006,
            "part of a unique index is not unique"
        );
        let mut t = movers();
        t.unique_keys = vec![KeyConstraint {
            name: "MOVERS_UK".into(),
            columns: vec!["CODE".into()],
        }];
        target(only_target(&["cdc.key.APP.MOVERS=CODE"], t).unwrap());
        target(only_target(&["cdc.key.APP.MOVERS=REGION,ID"], movers()).unwrap());
        // On the operator's word (a PDB-less name covers every PDB).
        let t = target(
            only_target(
                &["cdc.key.APP.MOVERS=REGION", "cdc.key.unchecked=APP.MOVERS"],
                movers(),
            )
            .unwrap(),
        );
        assert_eq!(t.record_key, vec!["REGION".to_string()]);
    }

    #[test]
    fn unknown_key_columns_and_empty_selections_are_errors() {
        let t = table("HR.EMP", vec![col("ID", "NUMBER(5)", false)], Some(&["ID"]));
        let e = only_target(&["cdc.key.HR.EMP=NOPE"], t.clone()).unwrap_err();
        assert_eq!(e.code(), Code::Cdc1002);
        assert!(e.to_string().contains("cdc.key.HR.EMP") && e.to_string().contains("NOPE"));
        let e = only_target(&["cdc.tables.include=SALES.*"], t).unwrap_err();
        assert_eq!(e.code(), Code::Cdc8003);
    }
}
