//! The table catalog: seven dictionary queries (`sql::TABLES` … `sql::ALL_COLUMN_LOG_GROUPS`),
//! one round trip each, joined in memory by [`assemble`], which is pure and tested here.

use super::types_map;
use crate::names::TableName;
use cdc_core::model::{
    ColumnInfo, KeyConstraint, Organization, PartitionInfo, TableInfo, TableStats,
};
use std::collections::{BTreeMap, HashSet};

/// One ALL_TABLES row.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableRow {
    pub owner: String,
    pub name: String,
    pub iot_type: Option<String>,
    pub row_movement: Option<String>,
    pub num_rows: Option<u64>,
    pub blocks: Option<u64>,
    pub last_analyzed: Option<String>,
    /// CLUSTER_NAME: the cluster the table is stored in.
    pub cluster: Option<String>,
}

/// One ALL_TAB_COLS row.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ColumnRow {
    pub owner: String,
    pub table: String,
    pub name: String,
    pub data_type: String,
    pub data_type_owner: Option<String>,
    pub precision: Option<i64>,
    pub scale: Option<i64>,
    pub char_length: Option<i64>,
    pub data_length: Option<i64>,
    /// 'Y' or 'N'.
    pub nullable: String,
    /// 'YES' or 'NO'.
    pub virtual_column: String,
    /// 'YES' or 'NO'.
    pub hidden: String,
}

/// One ALL_CONSTRAINTS × ALL_CONS_COLUMNS row (in POSITION order within a constraint).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeyRow {
    pub owner: String,
    pub table: String,
    pub constraint: String,
    /// 'P' or 'U'.
    pub kind: String,
    pub column: String,
}

/// One ALL_INDEXES × ALL_IND_COLUMNS row of a unique index (in COLUMN_POSITION order within an
/// index).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IndexRow {
    pub owner: String,
    pub table: String,
    /// ALL_INDEXES.OWNER: an index may be in another schema than its table, and its name is
    /// unique only within that schema.
    pub index_owner: String,
    pub index: String,
    pub column: String,
}

/// One DBA_OBJECTS row with a segment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObjectRow {
    pub owner: String,
    pub name: String,
    pub subobject: Option<String>,
    /// TABLE, TABLE PARTITION or TABLE SUBPARTITION.
    pub object_type: String,
    pub data_object_id: u64,
    pub object_id: u64,
}

/// Everything the catalog queries returned.
#[derive(Debug, Clone, Default)]
pub struct CatalogRows {
    pub tables: Vec<TableRow>,
    pub columns: Vec<ColumnRow>,
    pub keys: Vec<KeyRow>,
    pub unique_indexes: Vec<IndexRow>,
    pub objects: Vec<ObjectRow>,
    /// (owner, table) with STALE_STATS = 'YES'.
    pub stale: HashSet<(String, String)>,
    /// (owner, table) with ALL COLUMN LOGGING.
    pub all_column_logging: HashSet<(String, String)>,
}

type Key = (String, String);

/// Join the catalog rows into [`TableInfo`]s, in ALL_TABLES order. `pdb` is the container the
/// session is in when that is a PDB. Columns whose type has no mapping are left out and reported
/// in the returned warnings (one per column).
pub fn assemble(pdb: Option<&str>, rows: CatalogRows) -> (Vec<TableInfo>, Vec<String>) {
    let mut warnings = Vec::new();
    let mut columns: BTreeMap<Key, Vec<ColumnInfo>> = BTreeMap::new();
    for c in rows.columns {
        match types_map::column_type(
            &c.data_type,
            c.data_type_owner.as_deref(),
            c.precision,
            c.scale,
            c.char_length,
            c.data_length,
        ) {
            Ok(data_type) => columns
                .entry((c.owner, c.table))
                .or_default()
                .push(ColumnInfo {
                    name: c.name,
                    data_type,
                    nullable: c.nullable != "N",
                    virtual_column: c.virtual_column == "YES",
                    hidden: c.hidden == "YES",
                }),
            Err(t) => warnings.push(format!(
                "{}.{} column {} has type {t}, which has no mapping; the column is left out",
                c.owner, c.table, c.name
            )),
        }
    }
    // Constraints keep their row order: by type (P before U), name, then POSITION.
    let mut keys: BTreeMap<Key, Vec<(String, KeyConstraint)>> = BTreeMap::new();
    for k in rows.keys {
        let list = keys.entry((k.owner, k.table)).or_default();
        match list.last_mut() {
            Some((_, c)) if c.name == k.constraint => c.columns.push(k.column),
            _ => list.push((
                k.kind,
                KeyConstraint {
                    name: k.constraint,
                    columns: vec![k.column],
                },
            )),
        }
    }
    let mut indexes: BTreeMap<Key, Vec<(String, KeyConstraint)>> = BTreeMap::new();
    for ix in rows.unique_indexes {
        let list = indexes.entry((ix.owner, ix.table)).or_default();
        match list.last_mut() {
            Some((owner, c)) if *owner == ix.index_owner && c.name == ix.index => {
                c.columns.push(ix.column)
            }
            _ => list.push((
                ix.index_owner,
                KeyConstraint {
                    name: ix.index,
                    columns: vec![ix.column],
                },
            )),
        }
    }
    let mut indexes: BTreeMap<Key, Vec<KeyConstraint>> = indexes
        .into_iter()
        .map(|(k, list)| (k, list.into_iter().map(|(_, c)| c).collect()))
        .collect();
    let mut objects: BTreeMap<Key, Vec<ObjectRow>> = BTreeMap::new();
    for o in rows.objects {
        objects
            .entry((o.owner.clone(), o.name.clone()))
            .or_default()
            .push(o);
    }
    let tables = rows
        .tables
        .into_iter()
        .map(|t| {
            let key = (t.owner.clone(), t.name.clone());
            let mut primary_key = None;
            let mut unique_keys = Vec::new();
            for (kind, c) in keys.remove(&key).unwrap_or_default() {
                if kind == "P" && primary_key.is_none() {
                    primary_key = Some(c);
                } else {
                    unique_keys.push(c);
                }
            }
            let (mut data_object_id, mut object_id) = (0, 0);
            let mut partitions = Vec::new();
            for o in objects.remove(&key).unwrap_or_default() {
                match (o.object_type.as_str(), o.subobject) {
                    ("TABLE", _) => (data_object_id, object_id) = (o.data_object_id, o.object_id),
                    (_, Some(name)) => partitions.push(PartitionInfo {
                        name,
                        data_object_id: o.data_object_id,
                        object_id: o.object_id,
                    }),
                    (_, None) => {}
                }
            }
            TableInfo {
                name: TableName::new(pdb, &t.owner, &t.name),
                columns: columns.remove(&key).unwrap_or_default(),
                primary_key,
                unique_keys,
                unique_indexes: indexes.remove(&key).unwrap_or_default(),
                organization: if t.iot_type.as_deref() == Some("IOT") {
                    Organization::IndexOrganized
                } else {
                    Organization::Heap
                },
                cluster: t.cluster,
                row_movement: t.row_movement.as_deref() == Some("ENABLED"),
                data_object_id,
                object_id,
                partitions,
                stats: TableStats {
                    num_rows: t.num_rows,
                    blocks: t.blocks,
                    last_analyzed: t.last_analyzed,
                    stale: rows.stale.contains(&key),
                },
                supplemental_all_columns: rows.all_column_logging.contains(&key),
            }
        })
        .collect();
    (tables, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::ColumnType;

    fn col(table: &str, name: &str, data_type: &str, nullable: &str) -> ColumnRow {
        ColumnRow {
            owner: "HR".into(),
            table: table.into(),
            name: name.into(),
            data_type: data_type.into(),
            precision: None,
            scale: None,
            char_length: Some(10),
            data_length: Some(10),
            nullable: nullable.into(),
            virtual_column: "NO".into(),
            hidden: "NO".into(),
            ..ColumnRow::default()
        }
    }

    fn key(table: &str, constraint: &str, kind: &str, column: &str) -> KeyRow {
        KeyRow {
            owner: "HR".into(),
            table: table.into(),
            constraint: constraint.into(),
            kind: kind.into(),
            column: column.into(),
        }
    }

    fn obj(table: &str, sub: Option<&str>, object_type: &str, id: u64) -> ObjectRow {
        ObjectRow {
            owner: "HR".into(),
            name: table.into(),
            subobject: sub.map(str::to_string),
            object_type: object_type.into(),
            data_object_id: id,
            object_id: id + 1_000,
        }
    }

    #[test]
    fn joins_tables_columns_keys_objects_and_flags() {
        let mut rows = CatalogRows {
            tables: vec![
                TableRow {
                    owner: "HR".into(),
                    name: "EMP".into(),
                    row_movement: Some("DISABLED".into()),
                    num_rows: Some(14),
                    blocks: Some(5),
                    last_analyzed: Some("2024-01-02 03:04:05".into()),
                    ..TableRow::default()
                },
                TableRow {
                    owner: "HR".into(),
                    name: "SALES".into(),
                    iot_type: None,
                    row_movement: Some("ENABLED".into()),
                    ..TableRow::default()
                },
                TableRow {
                    owner: "HR".into(),
                    name: "IOT".into(),
                    iot_type: Some("IOT".into()),
                    ..TableRow::default()
                },
                TableRow {
                    owner: "HR".into(),
                    name: "LINES".into(),
                    cluster: Some("ORDERS_CLU".into()),
                    ..TableRow::default()
                },
            ],
            columns: vec![
                col("EMP", "ID", "NUMBER", "N"),
                col("EMP", "NAME", "VARCHAR2", "Y"),
                ColumnRow {
                    virtual_column: "YES".into(),
                    hidden: "YES".into(),
                    ..col("EMP", "V", "NUMBER", "Y")
                },
                ColumnRow {
                    data_type_owner: Some("MDSYS".into()),
                    ..col("EMP", "SHAPE", "SDO_GEOMETRY", "Y")
                },
                col("SALES", "ID", "NUMBER", "N"),
            ],
            keys: vec![
                key("EMP", "EMP_PK", "P", "ID"),
                key("EMP", "EMP_UK", "U", "NAME"),
                key("EMP", "EMP_UK", "U", "ID"),
            ],
            objects: vec![
                obj("EMP", None, "TABLE", 73001),
                obj("SALES", Some("P2023"), "TABLE PARTITION", 73010),
                obj("SALES", Some("P2024"), "TABLE PARTITION", 73011),
                // A clustered table's segment is its cluster's: DATA_OBJECT_ID the cluster's.
                ObjectRow {
                    object_id: 73021,
                    ..obj("LINES", None, "TABLE", 73020)
                },
            ],
            ..CatalogRows::default()
        };
        rows.stale.insert(("HR".into(), "EMP".into()));
        rows.all_column_logging
            .insert(("HR".into(), "SALES".into()));

        let (tables, warnings) = assemble(Some("PDB1"), rows);
        assert_eq!(tables.len(), 4);
        let emp = &tables[0];
        assert_eq!(emp.name.to_string(), "PDB1.HR.EMP");
        assert_eq!(
            emp.columns
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>(),
            ["ID", "NAME", "V"]
        );
        assert!(!emp.columns[0].nullable && emp.columns[1].nullable);
        assert!(emp.columns[2].virtual_column && emp.columns[2].hidden);
        assert_eq!(emp.columns[1].data_type, ColumnType::varchar2(10));
        assert_eq!(
            emp.primary_key.as_ref().map(|k| k.columns.clone()),
            Some(vec!["ID".to_string()])
        );
        assert_eq!(emp.unique_keys.len(), 1);
        assert_eq!(emp.unique_keys[0].columns, ["NAME", "ID"]);
        assert_eq!(emp.data_object_id, 73001);
        assert_eq!(
            emp.object_id, 74001,
            "OBJECT_ID is read beside DATA_OBJECT_ID"
        );
        assert!(emp.partitions.is_empty());
        assert_eq!(emp.stats.num_rows, Some(14));
        assert!(emp.stats.stale);
        assert!(!emp.supplemental_all_columns);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("HR.EMP column SHAPE has type MDSYS.SDO_GEOMETRY"));

        let sales = &tables[1];
        assert!(sales.row_movement && sales.supplemental_all_columns);
        assert_eq!(sales.data_object_id, 0);
        assert_eq!(
            sales.partitions,
            vec![
                PartitionInfo {
                    name: "P2023".into(),
                    data_object_id: 73010,
                    object_id: 74010
                },
                PartitionInfo {
                    name: "P2024".into(),
                    data_object_id: 73011,
                    object_id: 74011
                },
            ]
        );
        assert!(sales.primary_key.is_none());
        assert_eq!(tables[2].organization, Organization::IndexOrganized);
        assert!(tables[2].columns.is_empty());
        assert_eq!(emp.cluster, None);
        let lines = &tables[3];
        assert_eq!(lines.cluster.as_deref(), Some("ORDERS_CLU"));
        assert_eq!(lines.organization, Organization::Heap);
        assert_eq!((lines.data_object_id, lines.object_id), (73020, 73021));
    }

    #[test]
    fn unique_indexes_keep_their_column_order_per_table() {
        let ix = |table: &str, index: &str, column: &str| IndexRow {
            owner: "HR".into(),
            table: table.into(),
            index_owner: "HR".into(),
            index: index.into(),
            column: column.into(),
        };
        let rows = CatalogRows {
            tables: ["EMP", "LOG"]
                .iter()
                .map(|t| TableRow {
                    owner: "HR".into(),
                    name: t.to_string(),
                    ..TableRow::default()
                })
                .collect(),
            unique_indexes: vec![
                ix("EMP", "EMP_PK", "ID"),
                ix("EMP", "EMP_UX", "REGION"),
                ix("EMP", "EMP_UX", "CODE"),
            ],
            ..CatalogRows::default()
        };
        let (tables, _) = assemble(None, rows);
        let names: Vec<(&str, Vec<&str>)> = tables[0]
            .unique_indexes
            .iter()
            .map(|k| {
                (
                    k.name.as_str(),
                    k.columns.iter().map(|c| c.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(
            names,
            [("EMP_PK", vec!["ID"]), ("EMP_UX", vec!["REGION", "CODE"])]
        );
        assert!(tables[1].unique_indexes.is_empty());
        // A superset of a unique index's columns is unique too; a subset is not.
        let emp = &tables[0];
        let cols = |c: &[&str]| c.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            emp.uniqueness_of(&cols(&["CODE", "REGION", "X"]))
                .as_deref(),
            Some("unique index EMP_UX")
        );
        assert_eq!(emp.uniqueness_of(&cols(&["REGION"])), None);
    }

    #[test]
    fn outside_a_pdb_names_have_two_parts() {
        let rows = CatalogRows {
            tables: vec![TableRow {
                owner: "HR".into(),
                name: "EMP".into(),
                ..TableRow::default()
            }],
            ..CatalogRows::default()
        };
        let (tables, _) = assemble(None, rows);
        assert_eq!(tables[0].name.to_string(), "HR.EMP");
    }

    #[test]
    fn unique_indexes_of_one_name_in_two_schemas_stay_two() {
        // An index name is unique only within its owner: HR's and AUDIT's EMP_UX on HR.EMP,
        // ordered by index owner, are two indexes (before, one with both column lists).
        let ix = |index_owner: &str, column: &str| IndexRow {
            owner: "HR".into(),
            table: "EMP".into(),
            index_owner: index_owner.into(),
            index: "EMP_UX".into(),
            column: column.into(),
        };
        let rows = CatalogRows {
            tables: vec![TableRow {
                owner: "HR".into(),
                name: "EMP".into(),
                ..TableRow::default()
            }],
            unique_indexes: vec![ix("AUDIT", "CODE"), ix("HR", "REGION"), ix("HR", "SITE")],
            ..CatalogRows::default()
        };
        let (tables, _) = assemble(None, rows);
        let got: Vec<Vec<&str>> = tables[0]
            .unique_indexes
            .iter()
            .map(|k| k.columns.iter().map(|c| c.as_str()).collect())
            .collect();
        assert_eq!(got, vec![vec!["CODE"], vec!["REGION", "SITE"]]);
    }
}
