//! The writer's DDL and dictionary operations: ALTER TABLE ADD / DROP COLUMN, CREATE TABLE,
//! TRUNCATE TABLE, DBMS_STATS and a LogMiner dictionary build into the redo, each in a
//! transaction of its own.

use super::{Segment, Writer};
use crate::errors::{CdcError, Result};
use crate::redo::{DdlChange, Redo, Xid};
use cdc_core::model::Scn;

impl Writer {
    /// ALTER TABLE … ADD / DROP COLUMN, in a transaction of its own.
    pub fn ddl(&mut self, table: usize, change: DdlChange) -> Result<Scn> {
        self.refuse_if_busy(table)?;
        let t = &self.replica.tables[table];
        let sql = match &change {
            DdlChange::AddColumn { column } => format!(
                "ALTER TABLE {} ADD ({} {})",
                t.def.name.quoted(),
                column.name,
                column.data_type.sql_name()
            ),
            DdlChange::DropColumn { name } => {
                format!("alter table {} drop column {name}", t.def.name.quoted())
            }
            DdlChange::CreateTable { .. } => {
                return Err(CdcError::Workload(
                    "CREATE TABLE goes through Writer::create_table".into(),
                ))
            }
            DdlChange::Truncate { .. } => {
                return Err(CdcError::Workload(
                    "TRUNCATE TABLE goes through Writer::truncate".into(),
                ))
            }
            DdlChange::Move { .. } => {
                return Err(CdcError::Workload(
                    "ALTER TABLE … MOVE goes through Writer::move_segment".into(),
                ))
            }
        };
        if let DdlChange::DropColumn { name } = &change {
            if t.def.primary_key.contains(name)
                || t.def.partitions.as_ref().is_some_and(|p| &p.column == name)
            {
                return Err(CdcError::Workload(format!(
                    "ORA-12992: cannot drop key column {name}"
                )));
            }
        }
        let xid = self.write_ddl(table, sql, change)?;
        self.commit(&[xid])
    }

    /// `TRUNCATE TABLE "OWNER"."TABLE"`, in a transaction of its own (DDL commits; ORA-00054
    /// while a transaction holds one of its rows). Every row goes at once, with no DELETE in the
    /// redo: LogMiner shows one DDL row. Each segment that ever held a row is replaced by a new
    /// one, with a new data object id that later ROWIDs carry (its object id stays); a segment
    /// that never held one keeps its id, as Oracle does. The segment keeps its first extent
    /// (DROP STORAGE, the default). Reads AS OF an SCN before it fail with ORA-01466.
    pub fn truncate(&mut self, table: usize) -> Result<Scn> {
        // The rows are in the cluster's segment, beside its other tables': "This table cannot
        // be part of a cluster" (SQL Reference, TRUNCATE TABLE); TRUNCATE CLUSTER empties it.
        if let Some(c) = &self.replica.tables[table].def.cluster {
            return Err(CdcError::Workload(format!(
                "ORA-03292: table to be truncated is a member of a cluster: {} is in cluster {c}",
                self.replica.tables[table].def.name
            )));
        }
        self.refuse_if_busy(table)?;
        let t = &self.replica.tables[table];
        let mut next = self.replica.next_object_number();
        let segments: Vec<u32> = t
            .segment_objects()
            .into_iter()
            .enumerate()
            .map(|(p, obj)| {
                let written = self.segments[table]
                    .get(p)
                    .is_some_and(|s| s.extent > 0 || s.block_in_extent > 0 || s.slot > 0);
                if written || t.rows.keys().any(|r| r.data_object == obj) {
                    next += 1;
                    next - 1
                } else {
                    obj
                }
            })
            .collect();
        let sql = format!("truncate table {}", t.def.name.quoted());
        let xid = self.write_ddl(table, sql, DdlChange::Truncate { segments })?;
        // The new segments start empty, in the first extent each kept.
        let t = &self.replica.tables[table];
        for (p, seg) in self.segments[table].iter_mut().enumerate() {
            let part = (!t.partition_objects.is_empty()).then_some(p as u32);
            *seg = Segment::default();
            if let Some((_, e)) = t.extents.iter().find(|(q, _)| *q == part) {
                seg.extents.push((e.block_id as u32, e.blocks as u32));
            }
        }
        self.commit(&[xid])
    }

    /// `ALTER TABLE "OWNER"."TABLE" MOVE` (`partition` None) or `… MOVE PARTITION "P"`, in a
    /// transaction of its own (DDL commits; ORA-00054 while a transaction holds one of its
    /// rows: the statement "does not permit DML against the table while the statement is
    /// executing", Administrator's Guide, Moving a Table to a New Segment or Tablespace). The
    /// segment gets a new data object id and every row a new ROWID carrying it ("Moving a
    /// table changes the rowids of the rows in the table", same section); no row change is
    /// logged: LogMiner shows one DDL row. Reads AS OF an SCN before it fail with ORA-01466.
    /// A partitioned table is moved one partition at a time (ORA-14511 for the whole table); a
    /// clustered table not at all (its rows are in the cluster's segment, ORA-14512); an
    /// index-organised table's move (a rebuild of its index) is not modelled.
    ///
    /// The rows keep their file, block and slot in the new segment, which takes over the old
    /// one's extents: Oracle copies them into newly allocated extents, packed, so their
    /// blocks change too; what a reader of ROWIDs must cope with, the new data object number,
    /// is the same, and the writer's space bookkeeping stays valid.
    pub fn move_segment(&mut self, table: usize, partition: Option<usize>) -> Result<Scn> {
        let t = &self.replica.tables[table];
        if let Some(c) = &t.def.cluster {
            return Err(CdcError::Workload(format!(
                "ORA-14512: cannot perform operation on a clustered object: {} is in cluster {c}",
                t.def.name
            )));
        }
        if t.def.organization == cdc_core::model::Organization::IndexOrganized {
            return Err(CdcError::Workload(format!(
                "ALTER TABLE … MOVE of the index-organised table {} is not modelled",
                t.def.name
            )));
        }
        let partitioned = !t.partition_objects.is_empty();
        let name = t.def.name.quoted();
        let sql = match (partitioned, partition) {
            (false, None) => format!("alter table {name} move"),
            (true, Some(p)) => {
                let Some(part) = t
                    .def
                    .partitions
                    .as_ref()
                    .and_then(|ps| ps.list.get(p))
                    .map(|x| x.name.clone())
                else {
                    return Err(CdcError::Workload(format!(
                        "ORA-02149: Specified partition does not exist: {} has no partition {p}",
                        t.def.name
                    )));
                };
                format!("alter table {name} move partition \"{part}\"")
            }
            (true, None) => {
                return Err(CdcError::Workload(format!(
                    "ORA-14511: cannot perform operation on a partitioned object: move a partition of {} (MOVE PARTITION)",
                    t.def.name
                )))
            }
            (false, Some(_)) => {
                return Err(CdcError::Workload(format!(
                    "ORA-14501: object is not partitioned: {}",
                    t.def.name
                )))
            }
        };
        self.refuse_if_busy(table)?;
        let segment = self.replica.next_object_number();
        let change = DdlChange::Move {
            partition: partition.map(|p| p as u32),
            segment,
        };
        let xid = self.write_ddl(table, sql, change)?;
        self.commit(&[xid])
    }

    /// A DDL's transaction and its one redo row (LogMiner's DDL row for `table`); the caller
    /// commits it (DDL commits), after what else the statement changes.
    fn write_ddl(&mut self, table: usize, sql: String, change: DdlChange) -> Result<Xid> {
        let xid = self.begin()?;
        let scn = self.scn();
        let ts = self.now();
        self.write(
            Redo::Ddl {
                scn,
                xid,
                tab: table as u32,
                sql,
                change,
                ts,
            },
            self.thread_of(xid),
        )?;
        Ok(xid)
    }

    /// ORA-00054 while a transaction holds one of `table`'s rows: a DDL waits for no lock
    /// (NOWAIT).
    fn refuse_if_busy(&self, table: usize) -> Result<()> {
        if self.table_busy(table) {
            return Err(CdcError::Workload(
                "ORA-00054: resource busy and acquire with NOWAIT specified".into(),
            ));
        }
        Ok(())
    }

    /// CREATE TABLE, in a transaction of its own (DDL commits). Returns the new table's index.
    pub fn create_table(&mut self, spec: &crate::schema::TableSpec) -> Result<usize> {
        let def = self.replica.schema.created_table(spec)?;
        if def.cluster.is_some() {
            return Err(CdcError::Workload(format!(
                "CREATE TABLE {} CLUSTER: a table is put in a cluster by the schema file only (emulator init)",
                def.name
            )));
        }
        if self.replica.table_index(&def.name).is_some() {
            return Err(CdcError::Workload(format!(
                "ORA-00955: name is already used by an existing object: {}",
                def.name
            )));
        }
        let mut cols: Vec<String> = def
            .columns
            .iter()
            .map(|c| {
                format!(
                    "\"{}\" {}{}",
                    c.name,
                    c.data_type.sql_name(),
                    if c.nullable { "" } else { " NOT NULL" }
                )
            })
            .collect();
        if !def.primary_key.is_empty() {
            cols.push(format!(
                "PRIMARY KEY ({})",
                def.primary_key
                    .iter()
                    .map(|k| format!("\"{k}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let sql = format!("create table {} ({})", def.name.quoted(), cols.join(", "));
        let spec = serde_json::to_value(spec)
            .map_err(|e| CdcError::Workload(format!("CREATE TABLE {}: {e}", def.name)))?;
        let tab = self.replica.tables.len();
        let xid = self.begin()?;
        let scn = self.scn();
        let ts = self.now();
        self.write(
            Redo::Ddl {
                scn,
                xid,
                tab: tab as u32,
                sql,
                change: DdlChange::CreateTable { spec },
                ts,
            },
            self.thread_of(xid),
        )?;
        self.commit(&[xid])?;
        let parts = self.replica.tables[tab].partition_objects.len().max(1);
        self.segments.push(vec![Segment::default(); parts]);
        self.serials.push(0);
        Ok(tab)
    }

    /// DBMS_STATS.GATHER_TABLE_STATS.
    pub fn gather_stats(&mut self, table: usize) -> Result<()> {
        let t = &self.replica.tables[table];
        let num_rows = t.live_rows;
        // A clustered table's blocks are its cluster's.
        let blocks: u64 = self.replica.tables[self.replica.segment_table(table)]
            .extents
            .iter()
            .map(|(_, e)| e.blocks)
            .sum();
        let scn = self.next_scn;
        let ts = self.now();
        self.write(
            Redo::Stats {
                scn,
                tab: table as u32,
                num_rows,
                blocks,
                ts,
            },
            1,
        )?;
        self.redo.flush()
    }

    /// `DBMS_LOGMNR_D.BUILD(OPTIONS => DBMS_LOGMNR_D.STORE_IN_REDO_LOGS)` alone, as capture runs
    /// it (`cdc.mining.dictionary.build`): the dictionary goes into thread 1's current log,
    /// usable once that log is archived by a later switch. Returns the build's SCN and the
    /// sequence of the log holding it.
    pub fn build_dictionary_in_redo(&mut self) -> Result<(Scn, u64)> {
        if !self.replica.schema.database.archivelog {
            return Err(CdcError::Database(
                "ORA-01325: archive log mode must be enabled to build into the logstream (DBMS_LOGMNR_D.BUILD with STORE_IN_REDO_LOGS; database.archivelog: true)".into(),
            ));
        }
        let scn = self.scn();
        let ts = self.now();
        let n = self.replica.next_record();
        let at = self.redo.position();
        self.redo
            .append(&Redo::DictionaryBuild { scn, thread: 1, ts })?;
        self.replica
            .apply_at(Redo::DictionaryBuild { scn, thread: 1, ts }, Some(at))?;
        self.redo.publish()?;
        self.redo.flush()?;
        Ok((scn, self.replica.sequence_of(1, n)))
    }

    /// `DBMS_LOGMNR_D.BUILD(OPTIONS => DBMS_LOGMNR_D.STORE_IN_REDO_LOGS)` and then `ALTER
    /// SYSTEM ARCHIVE LOG CURRENT`, as a DBA runs them for a downstream: the dictionary goes into
    /// the redo of thread 1, whose log is then archived (only archived logs show
    /// DICTIONARY_BEGIN/END). Needs ARCHIVELOG mode ("the database must be open and in
    /// ARCHIVELOG mode and archiving must be enabled", Utilities). Returns the build's SCN and
    /// the sequence of the log holding it.
    pub fn build_dictionary(&mut self) -> Result<(Scn, u64)> {
        let (scn, sequence) = self.build_dictionary_in_redo()?;
        let ts = self.now();
        self.log_fill[0] = 0;
        let sw = Redo::LogSwitch {
            scn: self.next_scn,
            thread: 1,
            ts,
        };
        let at = self.redo.position();
        self.redo.append(&sw)?;
        self.replica.apply_at(sw, Some(at))?;
        self.redo.publish()?;
        self.redo.flush()?;
        Ok((scn, sequence))
    }
}
