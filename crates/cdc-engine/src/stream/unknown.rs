//! Rows of objects LogMiner's dictionary does not know: SEG_OWNER `UNKNOWN`, TABLE_NAME
//! `OBJ# n`, columns `"COL 1"`, `"COL 2"`, … and values as HEXTORAW of their storage bytes
//! (Utilities, "LogMiner Configuration"; after `DROP TABLE … PURGE` with the online catalog,
//! Debezium's `HybridMiningStrategyIT`). The mining filter keeps them whatever the owner list
//! (`source::filter::is_unknown_object`); here each is resolved by its object number to the
//! captured table (or partition) with that OBJECT_ID, renamed to it, and decoded like a
//! dictionary mismatch (`lenient::named`: by column position where the types make it
//! certain). A resolved row that cannot be read is CDC-3050 with the object number; a row of
//! an object no captured table has is not published, only counted
//! (`oracle_cdc_stream_unknown_object_rows_total{outcome="not-captured"}`).
//!
//! The object number is DATA_OBJ# (the TABLE_NAME's `n` where DATA_OBJ# is 0, as in a replay
//! export without it): DBA_OBJECTS.OBJECT_ID, as Debezium reads it, not the DATA_OBJECT_ID a
//! ROWID carries (the two differ after TRUNCATE, MOVE or a partition exchange). A catalog read
//! before it kept object ids (0) falls back to the data object id.

use super::decode::{Catalog, Event};
use crate::errors::{CdcError, Result};
use crate::names::TableName;
use cdc_core::filter::{is_unknown_object, UNKNOWN_TABLE_PREFIX};
use cdc_core::model::{LogMinerRow, TableInfo};
use std::collections::VecDeque;

/// How many unknown-object rows a decoder saw, by outcome.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnknownRows {
    /// Resolved to a captured table and decoded (or dead-lettered with CDC-3050).
    pub resolved: u64,
    /// Of an object number no captured table has: not published.
    pub not_captured: u64,
    /// Those objects as (SRC_CON_NAME, object number), each once (at most
    /// [`OBJECTS_KEPT`]), for the caller to name them.
    pub objects: Vec<(String, u64)>,
}

/// How many not-captured objects one decoder names.
pub const OBJECTS_KEPT: usize = 64;

impl UnknownRows {
    /// (outcome label, count) for the metric.
    pub fn outcomes(&self) -> [(&'static str, u64); 2] {
        [
            ("resolved", self.resolved),
            ("not-captured", self.not_captured),
        ]
    }

    pub(super) fn not_captured(&mut self, row: &LogMinerRow) {
        self.not_captured += 1;
        let n = object_number(row).unwrap_or(0);
        let seen = self
            .objects
            .iter()
            .any(|(c, o)| *o == n && *c == row.src_con_name);
        if !seen && self.objects.len() < OBJECTS_KEPT {
            self.objects.push((row.src_con_name.clone(), n));
        }
    }
}

/// What [`resolve`] made of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Resolution {
    /// Named by the dictionary: nothing to do.
    Named,
    /// An unknown object, renamed to the captured table with this object number.
    Captured(u64),
    /// An unknown object no captured table has.
    NotCaptured,
}

/// The object number of an unknown-object row.
fn object_number(row: &LogMinerRow) -> Option<u64> {
    if row.data_obj != 0 {
        return Some(row.data_obj);
    }
    row.table_name
        .as_deref()?
        .strip_prefix(UNKNOWN_TABLE_PREFIX)?
        .trim()
        .parse()
        .ok()
}

/// Rename an unknown-object row to its captured table, if it has one.
pub(super) fn resolve(row: &mut LogMinerRow, catalog: &Catalog) -> Resolution {
    if !is_unknown_object(row.seg_owner.as_deref(), row.table_name.as_deref()) {
        return Resolution::Named;
    }
    let pdb = catalog.cdb.then_some(row.src_con_name.as_str());
    let Some((n, table)) = object_number(row).and_then(|n| Some((n, catalog.object(pdb, n)?)))
    else {
        return Resolution::NotCaptured;
    };
    row.seg_owner = Some(table.owner.clone());
    row.table_name = Some(table.table.clone());
    Resolution::Captured(n)
}

/// The errors a resolved row's decoding pushed (from `from` on) as CDC-3050, naming the
/// object number: what LogMiner could not say about the row is that the object is unknown.
pub(super) fn name_errors(pending: &mut VecDeque<Result<Event>>, from: usize, object: u64) {
    for item in pending.iter_mut().skip(from) {
        let Err(e) = item else { continue };
        let (scn, xid, table, reason) = match e {
            CdcError::DictionaryMismatch {
                scn,
                xid,
                table,
                reason,
                ..
            } => (*scn, xid.clone(), table.clone(), reason.clone()),
            CdcError::RedoParse {
                scn,
                xid,
                table,
                message,
            } => (*scn, xid.clone(), table.clone(), message.clone()),
            _ => continue,
        };
        *e = CdcError::UnknownObject {
            scn,
            xid,
            table,
            object,
            reason,
        };
    }
}

impl Catalog {
    /// Index a captured table's object numbers (its OBJECT_ID, or its partitions').
    pub fn add_objects(&mut self, info: &TableInfo) {
        let number = |object_id: u64, data_object_id: u64| {
            if object_id != 0 {
                object_id
            } else {
                data_object_id
            }
        };
        let ids = std::iter::once(number(info.object_id, info.data_object_id))
            .chain(
                info.partitions
                    .iter()
                    .map(|p| number(p.object_id, p.data_object_id)),
            )
            .filter(|id| *id != 0);
        for id in ids {
            let names = self.objects.entry(id).or_default();
            if !names.contains(&info.name) {
                names.push(info.name.clone());
            }
        }
    }

    /// The captured table with object number `n` in container `pdb` (`None` outside a CDB;
    /// object numbers are per PDB).
    pub fn object(&self, pdb: Option<&str>, n: u64) -> Option<&TableName> {
        self.objects
            .get(&n)?
            .iter()
            .find(|t| t.pdb.as_deref() == pdb && self.tables.contains_key(*t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cdc_core::model::PartitionInfo;

    fn info(name: &str, id: u64, parts: &[u64]) -> TableInfo {
        let name: TableName = name.parse().unwrap();
        TableInfo {
            name,
            columns: vec![],
            primary_key: None,
            unique_keys: vec![],
            unique_indexes: vec![],
            organization: cdc_core::model::Organization::Heap,
            cluster: None,
            row_movement: false,
            data_object_id: id,
            object_id: id,
            partitions: parts
                .iter()
                .enumerate()
                .map(|(i, id)| PartitionInfo {
                    name: format!("P{i}"),
                    data_object_id: *id,
                    object_id: *id,
                })
                .collect(),
            stats: Default::default(),
            supplemental_all_columns: true,
        }
    }

    fn catalog(cdb: bool, infos: &[TableInfo]) -> Catalog {
        let mut c = Catalog {
            cdb,
            ..Default::default()
        };
        for i in infos {
            c.tables.insert(
                i.name.clone(),
                super::super::decode::TableSchema {
                    name: i.name.clone(),
                    history: vec![(0, vec![])],
                    key: vec![],
                    excluded: vec![],
                },
            );
            c.add_objects(i);
        }
        c
    }

    fn unknown(n: u64, data_obj: u64, pdb: &str) -> LogMinerRow {
        LogMinerRow {
            seg_owner: Some("UNKNOWN".into()),
            table_name: Some(format!("OBJ# {n}")),
            data_obj,
            src_con_name: pdb.into(),
            ..Default::default()
        }
    }

    /// After TRUNCATE (or MOVE, EXCHANGE PARTITION) a segment has a new data object id while
    /// the object keeps its number; LogMiner names the object by the number.
    #[test]
    fn rows_resolve_by_object_id_where_the_segment_was_rebuilt() {
        let mut emp = info("HR.EMP", 90001, &[]);
        emp.object_id = 73001;
        let mut sales = info("HR.SALES", 0, &[90010]);
        sales.partitions[0].object_id = 73010;
        let c = catalog(false, &[emp, sales]);
        let mut r = unknown(73001, 73001, "");
        assert_eq!(resolve(&mut r, &c), Resolution::Captured(73001));
        assert_eq!(r.table_name.as_deref(), Some("EMP"));
        let mut r = unknown(73010, 73010, "");
        assert_eq!(resolve(&mut r, &c), Resolution::Captured(73010));
        assert_eq!(r.table_name.as_deref(), Some("SALES"));
        // The data object ids are not object numbers.
        assert_eq!(
            resolve(&mut unknown(90001, 90001, ""), &c),
            Resolution::NotCaptured
        );
    }

    #[test]
    fn rows_resolve_by_object_number_partitions_and_pdb_included() {
        let c = catalog(
            false,
            &[
                info("HR.EMP", 73001, &[]),
                info("HR.SALES", 0, &[73010, 73011]),
            ],
        );
        let mut r = unknown(73001, 73001, "");
        assert_eq!(resolve(&mut r, &c), Resolution::Captured(73001));
        assert_eq!(
            (r.seg_owner.as_deref(), r.table_name.as_deref()),
            (Some("HR"), Some("EMP"))
        );
        // A partition's number is its table's; DATA_OBJ# 0: the number in TABLE_NAME.
        let mut r = unknown(73011, 0, "");
        assert_eq!(resolve(&mut r, &c), Resolution::Captured(73011));
        assert_eq!(r.table_name.as_deref(), Some("SALES"));
        let mut r = unknown(74000, 74000, "");
        assert_eq!(resolve(&mut r, &c), Resolution::NotCaptured);
        assert_eq!(r.seg_owner.as_deref(), Some("UNKNOWN"));
        // Named rows, and a schema really named UNKNOWN, are left alone.
        let mut named = LogMinerRow {
            seg_owner: Some("UNKNOWN".into()),
            table_name: Some("ORDERS".into()),
            data_obj: 73001,
            ..Default::default()
        };
        assert_eq!(resolve(&mut named, &c), Resolution::Named);
        // Object numbers are per PDB.
        let c = catalog(true, &[info("PDB1.HR.EMP", 73001, &[])]);
        assert_eq!(
            resolve(&mut unknown(73001, 73001, "PDB1"), &c),
            Resolution::Captured(73001)
        );
        assert_eq!(
            resolve(&mut unknown(73001, 73001, "PDB2"), &c),
            Resolution::NotCaptured
        );
    }
}
