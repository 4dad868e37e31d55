//! The data dictionary views the adapter's catalog statements read (ALL_TABLES, ALL_TAB_COLS,
//! ALL_CONSTRAINTS, …, DBA_EXTENTS, SESSION_PRIVS): each built from the tables and grants the
//! in-process session answers with ([`EmulatorSession::visible_tables`], its user's
//! privileges), laid out as Oracle lays the view out, so the adapter's joins over the wire give
//! back exactly what the emulator knows.
//!
//! ALL_ views need no grant (they show what the user may see); DBA_ views need SELECT on them,
//! SELECT_CATALOG_ROLE or SELECT ANY DICTIONARY, else they do not exist for the user
//! (ORA-00942), as in-process.

use super::relation::*;
use crate::errors::Result;
use crate::types::ColumnType;
use crate::EmulatorSession;
use cdc_core::model::{Organization, TableInfo};
use emulator_sql::Relation;
use oracle_datum::{DateTime, Datum, OraType};

/// The time the emulated database's objects are dated (CREATED, LAST_ANALYZED): its clock at
/// its first SCN.
pub(super) fn created(s: &EmulatorSession) -> Result<Datum> {
    let r = s.replica()?;
    let ms = r.time_of(r.schema.database.start_scn).unwrap_or(0);
    let at = chrono::DateTime::from_timestamp_millis(ms).unwrap_or_default();
    Ok(DateTime::parse(&at.format("%Y-%m-%d %H:%M:%S").to_string())
        .map_or(Datum::Null, Datum::Date))
}

/// ALL_TAB_COLS's DATA_TYPE, DATA_TYPE_OWNER, DATA_PRECISION, DATA_SCALE, CHAR_LENGTH,
/// DATA_LENGTH of a column type: what `types_map::column_type` reads back. A
/// character-semantics column (`VARCHAR2(10 CHAR)`) has CHAR_LENGTH 10 and DATA_LENGTH its
/// bytes, 40 (AL32UTF8).
pub(super) fn dictionary_type(
    t: &ColumnType,
) -> (String, Option<String>, Option<i64>, Option<i64>, i64, i64) {
    let plain = |name: &str, len: i64| (name.to_string(), None, None, None, 0, len);
    match t {
        ColumnType::Varchar2 { length, chars } => (
            "VARCHAR2".into(),
            None,
            None,
            None,
            chars.unwrap_or(*length).into(),
            (*length).into(),
        ),
        ColumnType::Nvarchar2 { length } => (
            "NVARCHAR2".into(),
            None,
            None,
            None,
            (*length).into(),
            i64::from(*length) * 2,
        ),
        ColumnType::Char { length, chars } => (
            "CHAR".into(),
            None,
            None,
            None,
            chars.unwrap_or(*length).into(),
            (*length).into(),
        ),
        ColumnType::Nchar { length } => (
            "NCHAR".into(),
            None,
            None,
            None,
            (*length).into(),
            i64::from(*length) * 2,
        ),
        ColumnType::Number { precision, scale } => (
            "NUMBER".into(),
            None,
            precision.map(i64::from),
            scale.map(i64::from),
            0,
            22,
        ),
        ColumnType::Float { precision } => {
            ("FLOAT".into(), None, Some((*precision).into()), None, 0, 22)
        }
        ColumnType::BinaryFloat => plain("BINARY_FLOAT", 4),
        ColumnType::BinaryDouble => plain("BINARY_DOUBLE", 8),
        ColumnType::Date => plain("DATE", 7),
        ColumnType::Timestamp { fsp } => (
            format!("TIMESTAMP({fsp})"),
            None,
            None,
            Some((*fsp).into()),
            0,
            11,
        ),
        ColumnType::TimestampTz { fsp } => (
            format!("TIMESTAMP({fsp}) WITH TIME ZONE"),
            None,
            None,
            Some((*fsp).into()),
            0,
            13,
        ),
        ColumnType::TimestampLtz { fsp } => (
            format!("TIMESTAMP({fsp}) WITH LOCAL TIME ZONE"),
            None,
            None,
            Some((*fsp).into()),
            0,
            11,
        ),
        ColumnType::IntervalYm { precision } => (
            format!("INTERVAL YEAR({precision}) TO MONTH"),
            None,
            Some((*precision).into()),
            Some(0),
            0,
            5,
        ),
        ColumnType::IntervalDs { precision, fsp } => (
            format!("INTERVAL DAY({precision}) TO SECOND({fsp})"),
            None,
            Some((*precision).into()),
            Some((*fsp).into()),
            0,
            11,
        ),
        ColumnType::Raw { length } => ("RAW".into(), None, None, None, 0, (*length).into()),
        ColumnType::Long => plain("LONG", 0),
        ColumnType::LongRaw => plain("LONG RAW", 0),
        ColumnType::Clob => plain("CLOB", 4000),
        ColumnType::Nclob => plain("NCLOB", 4000),
        ColumnType::Blob => plain("BLOB", 4000),
        ColumnType::Bfile => plain("BFILE", 530),
        ColumnType::Rowid => plain("ROWID", 10),
        ColumnType::Urowid => plain("UROWID", 4000),
        ColumnType::Xmltype => ("XMLTYPE".into(), Some("SYS".into()), None, None, 0, 2000),
        ColumnType::Boolean => plain("BOOLEAN", 1),
        ColumnType::Json => plain("JSON", 8200),
        ColumnType::Vector { .. } => plain("VECTOR", 0),
        ColumnType::Other { name } => match name.split_once('.') {
            Some((owner, ty)) => (ty.to_string(), Some(owner.to_string()), None, None, 0, 1),
            None => (name.clone(), Some("SYS".into()), None, None, 0, 1),
        },
    }
}

fn owner_table(info: &TableInfo) -> [Datum; 2] {
    [t(&info.name.owner), t(&info.name.table)]
}

pub(super) fn all_tables(s: &mut EmulatorSession) -> Result<Relation> {
    let created = created(s)?;
    let spec = [
        ("OWNER", NAME),
        ("TABLE_NAME", NAME),
        ("TABLESPACE_NAME", NAME),
        ("CLUSTER_NAME", NAME),
        ("IOT_TYPE", text(12)),
        ("STATUS", text(8)),
        ("LOGGING", text(3)),
        ("NUM_ROWS", NUM),
        ("BLOCKS", NUM),
        ("LAST_ANALYZED", OraType::Date),
        ("PARTITIONED", text(3)),
        ("TEMPORARY", text(1)),
        ("SECONDARY", text(1)),
        ("NESTED", text(3)),
        ("ROW_MOVEMENT", text(8)),
        ("DROPPED", text(3)),
    ];
    let rows = s
        .visible_tables()?
        .iter()
        .map(|info| {
            let [o, n] = owner_table(info);
            let iot = info.organization == Organization::IndexOrganized;
            vec![
                o,
                n,
                if iot { Datum::Null } else { t("USERS") },
                opt(info.cluster.clone()),
                if iot { t("IOT") } else { Datum::Null },
                t("VALID"),
                t("YES"),
                opt_n(info.stats.num_rows),
                opt_n(info.stats.blocks),
                if info.stats.last_analyzed.is_some() {
                    created.clone()
                } else {
                    Datum::Null
                },
                yes_no(!info.partitions.is_empty()),
                t("N"),
                t("N"),
                t("NO"),
                t(if info.row_movement {
                    "ENABLED"
                } else {
                    "DISABLED"
                }),
                t("NO"),
            ]
        })
        .collect();
    Ok(view(&spec, rows))
}

/// ALL_TAB_COLS.CHAR_USED: `C` for character length semantics (national types always), `B`
/// for bytes, NULL for other types.
fn char_used(ty: &ColumnType) -> Datum {
    match ty {
        ColumnType::Varchar2 { chars: Some(_), .. }
        | ColumnType::Char { chars: Some(_), .. }
        | ColumnType::Nvarchar2 { .. }
        | ColumnType::Nchar { .. } => t("C"),
        ColumnType::Varchar2 { .. } | ColumnType::Char { .. } => t("B"),
        _ => Datum::Null,
    }
}

/// ALL_TAB_COLS (`hidden`: hidden columns included) or ALL_TAB_COLUMNS (left out).
pub(super) fn all_tab_cols(s: &mut EmulatorSession, hidden: bool) -> Result<Relation> {
    let spec = [
        ("OWNER", NAME),
        ("TABLE_NAME", NAME),
        ("COLUMN_NAME", NAME),
        ("DATA_TYPE", NAME),
        ("DATA_TYPE_OWNER", NAME),
        ("DATA_LENGTH", NUM),
        ("DATA_PRECISION", NUM),
        ("DATA_SCALE", NUM),
        ("NULLABLE", text(1)),
        ("COLUMN_ID", NUM),
        ("CHAR_LENGTH", NUM),
        ("CHAR_USED", text(1)),
        ("HIDDEN_COLUMN", text(3)),
        ("VIRTUAL_COLUMN", text(3)),
        ("SEGMENT_COLUMN_ID", NUM),
        ("INTERNAL_COLUMN_ID", NUM),
        ("USER_GENERATED", text(3)),
    ];
    let mut rows = Vec::new();
    for info in s.visible_tables()? {
        let mut visible_id = 0i64;
        for (i, c) in info.columns.iter().enumerate() {
            if c.hidden && !hidden {
                continue;
            }
            let (ty, owner, precision, scale, chars, bytes) = dictionary_type(&c.data_type);
            let column_id = if c.hidden {
                Datum::Null
            } else {
                visible_id += 1;
                n(visible_id)
            };
            let [o, tn] = owner_table(&info);
            let internal = i64::try_from(i + 1).unwrap_or(i64::MAX);
            rows.push(vec![
                o,
                tn,
                t(&c.name),
                t(ty),
                opt(owner),
                n(bytes),
                opt_n(precision),
                opt_n(scale),
                y_n(c.nullable),
                column_id,
                n(chars),
                char_used(&c.data_type),
                yes_no(c.hidden),
                yes_no(c.virtual_column),
                if c.virtual_column {
                    Datum::Null
                } else {
                    n(internal)
                },
                n(internal),
                t("YES"),
            ]);
        }
    }
    Ok(view(&spec, rows))
}

pub(super) fn all_constraints(s: &mut EmulatorSession) -> Result<Relation> {
    let spec = [
        ("OWNER", NAME),
        ("CONSTRAINT_NAME", NAME),
        ("CONSTRAINT_TYPE", text(1)),
        ("TABLE_NAME", NAME),
        ("STATUS", text(8)),
        ("DEFERRABLE", text(14)),
        ("VALIDATED", text(13)),
        ("INDEX_OWNER", NAME),
        ("INDEX_NAME", NAME),
    ];
    let mut rows = Vec::new();
    for info in s.visible_tables()? {
        let keys = info
            .primary_key
            .iter()
            .map(|k| ("P", k))
            .chain(info.unique_keys.iter().map(|k| ("U", k)));
        for (kind, k) in keys {
            let [o, tn] = owner_table(&info);
            rows.push(vec![
                o.clone(),
                t(&k.name),
                t(kind),
                tn,
                t("ENABLED"),
                t("NOT DEFERRABLE"),
                t("VALIDATED"),
                o,
                t(&k.name),
            ]);
        }
    }
    Ok(view(&spec, rows))
}

pub(super) fn all_cons_columns(s: &mut EmulatorSession) -> Result<Relation> {
    let spec = [
        ("OWNER", NAME),
        ("CONSTRAINT_NAME", NAME),
        ("TABLE_NAME", NAME),
        ("COLUMN_NAME", text(4000)),
        ("POSITION", NUM),
    ];
    let mut rows = Vec::new();
    for info in s.visible_tables()? {
        for k in info.primary_key.iter().chain(&info.unique_keys) {
            for (i, c) in k.columns.iter().enumerate() {
                let [o, tn] = owner_table(&info);
                rows.push(vec![o, t(&k.name), tn, t(c), n(i as i64 + 1)]);
            }
        }
    }
    Ok(view(&spec, rows))
}

/// The unique indexes of a table with their INDEX_TYPE: an index-organised table's primary
/// key index is its `IOT - TOP` segment.
fn indexes(info: &TableInfo) -> Vec<(&'static str, &cdc_core::model::KeyConstraint)> {
    let iot = info.organization == Organization::IndexOrganized;
    let pk = info.primary_key.as_ref().map(|k| k.name.clone());
    let mut out: Vec<(&'static str, &cdc_core::model::KeyConstraint)> = info
        .unique_indexes
        .iter()
        .map(|k| {
            (
                if iot && Some(&k.name) == pk.as_ref() {
                    "IOT - TOP"
                } else {
                    "NORMAL"
                },
                k,
            )
        })
        .collect();
    if iot && !out.iter().any(|(ty, _)| *ty == "IOT - TOP") {
        if let Some(k) = &info.primary_key {
            out.insert(0, ("IOT - TOP", k));
        }
    }
    out
}

pub(super) fn all_indexes(s: &mut EmulatorSession) -> Result<Relation> {
    let spec = [
        ("OWNER", NAME),
        ("INDEX_NAME", NAME),
        ("INDEX_TYPE", text(27)),
        ("TABLE_OWNER", NAME),
        ("TABLE_NAME", NAME),
        ("TABLE_TYPE", text(11)),
        ("UNIQUENESS", text(9)),
        ("STATUS", text(8)),
    ];
    let mut rows = Vec::new();
    for info in s.visible_tables()? {
        for (ty, k) in indexes(&info) {
            let [o, tn] = owner_table(&info);
            rows.push(vec![
                o.clone(),
                t(&k.name),
                t(ty),
                o,
                tn,
                t("TABLE"),
                t("UNIQUE"),
                t("VALID"),
            ]);
        }
    }
    Ok(view(&spec, rows))
}

pub(super) fn all_ind_columns(s: &mut EmulatorSession) -> Result<Relation> {
    let spec = [
        ("INDEX_OWNER", NAME),
        ("INDEX_NAME", NAME),
        ("TABLE_OWNER", NAME),
        ("TABLE_NAME", NAME),
        ("COLUMN_NAME", text(4000)),
        ("COLUMN_POSITION", NUM),
        ("DESCEND", text(4)),
    ];
    let mut rows = Vec::new();
    for info in s.visible_tables()? {
        for (_, k) in indexes(&info) {
            for (i, c) in k.columns.iter().enumerate() {
                let [o, tn] = owner_table(&info);
                rows.push(vec![
                    o.clone(),
                    t(&k.name),
                    o,
                    tn,
                    t(c),
                    n(i as i64 + 1),
                    t("ASC"),
                ]);
            }
        }
    }
    Ok(view(&spec, rows))
}

/// DBA_OBJECTS / ALL_OBJECTS: tables and their partitions, and the clusters tables are stored
/// in. A partitioned table has no segment of its own (DATA_OBJECT_ID NULL); its partitions have
/// one each. A clustered table's DATA_OBJECT_ID is its cluster's ("the segment that contains
/// the object"), and the cluster has a row of its own (OBJECT_TYPE CLUSTER), numbered as its
/// segment: the emulator never rebuilds a cluster's segment.
pub(super) fn objects(s: &mut EmulatorSession, dba: bool) -> Result<Relation> {
    if dba {
        s.user
            .read_dictionary("DBA_OBJECTS", "reading DBA_OBJECTS")?;
    }
    let created = created(s)?;
    let spec = [
        ("OWNER", NAME),
        ("OBJECT_NAME", NAME),
        ("SUBOBJECT_NAME", NAME),
        ("OBJECT_ID", NUM),
        ("DATA_OBJECT_ID", NUM),
        ("OBJECT_TYPE", text(23)),
        ("CREATED", OraType::Date),
        ("LAST_DDL_TIME", OraType::Date),
        ("STATUS", text(7)),
        ("TEMPORARY", text(1)),
        ("GENERATED", text(1)),
    ];
    let mut rows = Vec::new();
    let mut clusters = std::collections::BTreeSet::new();
    for info in s.visible_tables()? {
        let [o, tn] = owner_table(&info);
        if let Some(c) = &info.cluster {
            if clusters.insert((info.name.owner.clone(), c.clone())) {
                rows.push(vec![
                    o.clone(),
                    t(c),
                    Datum::Null,
                    n(info.data_object_id),
                    n(info.data_object_id),
                    t("CLUSTER"),
                    created.clone(),
                    created.clone(),
                    t("VALID"),
                    t("N"),
                    t("N"),
                ]);
            }
        }
        let mut row = |sub: Datum, id: u64, data: Datum, ty: &str| {
            rows.push(vec![
                o.clone(),
                tn.clone(),
                sub,
                n(id),
                data,
                t(ty),
                created.clone(),
                created.clone(),
                t("VALID"),
                t("N"),
                t("N"),
            ]);
        };
        if info.data_object_id == 0 && info.partitions.is_empty() {
            // Index-organised: the table object has no segment (its primary key index has).
            row(Datum::Null, info.object_id, Datum::Null, "TABLE");
        } else if info.partitions.is_empty() {
            row(Datum::Null, info.object_id, n(info.data_object_id), "TABLE");
        } else {
            row(Datum::Null, info.object_id, Datum::Null, "TABLE");
            for p in &info.partitions {
                row(
                    t(&p.name),
                    p.object_id,
                    n(p.data_object_id),
                    "TABLE PARTITION",
                );
            }
        }
    }
    Ok(view(&spec, rows))
}

pub(super) fn all_tab_statistics(s: &mut EmulatorSession) -> Result<Relation> {
    let created = created(s)?;
    let spec = [
        ("OWNER", NAME),
        ("TABLE_NAME", NAME),
        ("PARTITION_NAME", NAME),
        ("OBJECT_TYPE", text(12)),
        ("NUM_ROWS", NUM),
        ("BLOCKS", NUM),
        ("LAST_ANALYZED", OraType::Date),
        ("STALE_STATS", text(7)),
    ];
    let rows = s
        .visible_tables()?
        .iter()
        .map(|info| {
            let [o, tn] = owner_table(info);
            let analyzed = info.stats.last_analyzed.is_some();
            vec![
                o,
                tn,
                Datum::Null,
                t("TABLE"),
                opt_n(info.stats.num_rows),
                opt_n(info.stats.blocks),
                if analyzed {
                    created.clone()
                } else {
                    Datum::Null
                },
                if analyzed {
                    yes_no(info.stats.stale)
                } else {
                    Datum::Null
                },
            ]
        })
        .collect();
    Ok(view(&spec, rows))
}

pub(super) fn all_log_groups(s: &mut EmulatorSession) -> Result<Relation> {
    let spec = [
        ("OWNER", NAME),
        ("LOG_GROUP_NAME", NAME),
        ("TABLE_NAME", NAME),
        ("LOG_GROUP_TYPE", text(19)),
        ("ALWAYS", text(11)),
        ("GENERATED", text(14)),
    ];
    let rows = s
        .visible_tables()?
        .iter()
        .filter(|i| i.supplemental_all_columns)
        .map(|info| {
            let [o, tn] = owner_table(info);
            vec![
                o,
                t(format!("SYS_C{:05}", info.object_id % 100_000)),
                tn,
                t("ALL COLUMN LOGGING"),
                t("ALWAYS"),
                t("GENERATED NAME"),
            ]
        })
        .collect();
    Ok(view(&spec, rows))
}

#[cfg(test)]
mod tests {
    use super::dictionary_type;
    use crate::types::ColumnType;
    use cdc_core::types_map::column_type;

    /// What the view says of a column type is what the adapter reads back.
    #[test]
    fn dictionary_types_read_back_as_the_column_type() {
        for text in [
            "VARCHAR2(40)",
            "VARCHAR2(40 CHAR)",
            "VARCHAR2(1000 CHAR)",
            "VARCHAR2(4000 CHAR)",
            "NVARCHAR2(10)",
            "CHAR(3)",
            "CHAR(3 CHAR)",
            "NCHAR(2)",
            "NUMBER",
            "NUMBER(10)",
            "NUMBER(12,2)",
            "NUMBER(5,-2)",
            "FLOAT(63)",
            "BINARY_FLOAT",
            "BINARY_DOUBLE",
            "DATE",
            "TIMESTAMP(3)",
            "TIMESTAMP(6) WITH TIME ZONE",
            "TIMESTAMP(9) WITH LOCAL TIME ZONE",
            "INTERVAL YEAR(4) TO MONTH",
            "INTERVAL DAY(3) TO SECOND(6)",
            "RAW(16)",
            "LONG",
            "LONG RAW",
            "CLOB",
            "NCLOB",
            "BLOB",
            "BFILE",
            "ROWID",
            "UROWID",
            "XMLTYPE",
            "BOOLEAN",
            "JSON",
        ] {
            let t = ColumnType::parse(text).unwrap();
            let (ty, owner, p, s, chars, bytes) = dictionary_type(&t);
            let back = column_type(&ty, owner.as_deref(), p, s, Some(chars), Some(bytes));
            assert_eq!(back, Ok(t), "{text}");
        }
        // An EXTENDED database's character-semantics column: CHAR_LENGTH 1500, DATA_LENGTH
        // 6000, an extended string read back as one.
        let t = ColumnType::parse_sized("VARCHAR2(1500 CHAR)", true).unwrap();
        let (ty, _, _, _, chars, bytes) = dictionary_type(&t);
        assert_eq!((chars, bytes), (1500, 6000));
        let back = column_type(&ty, None, None, None, Some(chars), Some(bytes)).unwrap();
        assert!(back.is_extended());
        assert_eq!(back, t);
        assert_eq!(
            super::char_used(&ColumnType::parse("VARCHAR2(4 CHAR)").unwrap()),
            oracle_datum::Datum::Text("C".into())
        );
        assert_eq!(
            super::char_used(&ColumnType::parse("VARCHAR2(4)").unwrap()),
            oracle_datum::Datum::Text("B".into())
        );
    }
}
