//! The simulated database's side: a seeded schema, the one writer, and the workload it runs
//! between and during the engine's runs (including long transactions that span restarts).

use super::plan::Environment;
use crate::errors::Result;
use crate::source::emulator::clock::ManualClock;
use crate::source::emulator::redo::Xid;
use crate::source::emulator::workload::{self, Workload, WorkloadOptions};
use crate::source::emulator::writer::Writer;
use cdc_core::model::Scn;
use cdc_core::rowid::RowId;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::Arc;

/// A schema of two or three small tables: a plain one, a list-partitioned one with row
/// movement, and sometimes an index-organised one; one or two redo threads.
pub fn schema_yaml(rng: &mut ChaCha8Rng, env: &Environment) -> String {
    let threads = if rng.gen_range(0..4) == 0 { 2 } else { 1 };
    let cdb = if env.pdbs > 0 {
        "  multitenant: true\n"
    } else {
        ""
    };
    let lobs = if env.lob_table {
        "  goldengate_replication: true\n  max_string_size: extended\n"
    } else {
        ""
    };
    // The capture user with a per-call limit (a CDB's is common, and sees the PDBs' rows).
    let users = match (env.reads_per_call, env.pdbs > 0) {
        (Some(n), true) => format!(
            "  users:\n    - {{ name: C##CDC, container_data: all, logical_reads_per_call: {n} }}\n"
        ),
        (Some(n), false) => {
            format!("  users:\n    - {{ name: CDC, logical_reads_per_call: {n} }}\n")
        }
        (None, _) => String::new(),
    };
    let mut s = format!(
        "seed: {}\ndatabase:\n{cdb}{lobs}{users}  redo_threads: {threads}\n  redo_write_delay_ms: {}\n  host_utc_offset: \"{}\"\n  log_size: {}\ntables:\n",
        rng.gen::<u32>(),
        env.redo_write_delay_ms,
        env.host_utc_offset,
        rng.gen_range(40..400)
    );
    s.push_str(&format!(
        r#"  - name: {}
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: OWNER, type: VARCHAR2(30) }}
      - {{ name: BALANCE, type: "NUMBER(12,2)" }}
      - {{ name: OPENED, type: DATE }}
      - {{ name: NOTE, type: VARCHAR2(100), null_pct: 20 }}
    primary_key: [ID]
    supplemental_logging: all
    rows: {}
  - name: {}
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: REGION, type: VARCHAR2(8), nullable: false, generate: {{ choice: [EMEA, APAC, AMER] }} }}
      - {{ name: ITEM, type: VARCHAR2(20) }}
      - {{ name: AT, type: TIMESTAMP(6) }}
    primary_key: [ID]
    row_movement: true
    partitions:
      column: REGION
      list:
        - {{ name: P_EMEA, values: [EMEA] }}
        - {{ name: P_APAC, values: [APAC] }}
        - {{ name: P_AMER, values: [AMER] }}
    supplemental_logging: all
    rows: {}
"#,
        env.table_name("SHOP.ACCOUNTS"),
        rng.gen_range(0..120),
        env.table_name("SHOP.ORDERS"),
        rng.gen_range(0..120)
    ));
    if rng.gen_range(0..3) == 0 {
        s.push_str(&format!(
            r#"  - name: {}
    columns:
      - {{ name: CODE, type: VARCHAR2(12), nullable: false }}
      - {{ name: LABEL, type: VARCHAR2(40) }}
      - {{ name: QTY, type: NUMBER(6) }}
    primary_key: [CODE]
    organization: index_organized
    supplemental_logging: all
    rows: {}
"#,
            env.table_name("SHOP.CODES"),
            rng.gen_range(0..60)
        ));
    }
    if env.busy_schema {
        // Another application's table in the same database: busy, never captured.
        s.push_str(&format!(
            r#"  - name: {}
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: STATE, type: VARCHAR2(10), generate: {{ choice: [queued, running, done] }} }}
      - {{ name: PAYLOAD, type: VARCHAR2(200) }}
    primary_key: [ID]
    supplemental_logging: all
    rows: {}
"#,
            env.table_name("BATCH.JOBS"),
            env.busy_rows
        ));
    }
    if env.lob_table {
        // Last, so the tables above keep the rows they had before it was drawn.
        s.push_str(&format!(
            r#"  - name: {}
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: TITLE, type: VARCHAR2(40) }}
      - {{ name: BODY, type: CLOB, null_pct: 10 }}
      - {{ name: PIC, type: BLOB, null_pct: 10 }}
      - {{ name: META, type: JSON }}
      - {{ name: PAGE, type: XMLTYPE, null_pct: 10 }}
      - {{ name: LONGTEXT, type: VARCHAR2(8000) }}
    primary_key: [ID]
    supplemental_logging: all
    rows: {}
"#,
            env.table_name("SHOP.DOCS"),
            env.lob_rows
        ));
    }
    s
}

/// What the world did, for the summary.
#[derive(Debug, Clone, Default)]
pub struct WorldCounts {
    pub transactions: u64,
    pub rolled_back: u64,
    pub savepoint_rollbacks: u64,
    pub key_updates: u64,
    pub row_moves: u64,
    pub ddl: u64,
    pub long_transactions: u64,
    pub tables_created: u64,
}

/// A transaction the simulation holds open across the engine's runs and restarts.
struct Long {
    xid: Xid,
    rows: Vec<(usize, RowId)>,
    close_after: u32,
}

pub struct World {
    pub writer: Writer,
    pub clock: ManualClock,
    rng: ChaCha8Rng,
    options: WorkloadOptions,
    longs: Vec<Long>,
    pub counts: WorldCounts,
    /// The redo file's length after the simulation's last write.
    pub redo_len: u64,
    /// The capture's settings, for which tables it captures (signals name only those).
    scope: Option<crate::settings::Settings>,
}

impl World {
    pub fn open(db: &Path, clock: ManualClock, rng: ChaCha8Rng) -> Result<World> {
        let writer = Writer::open(db, Arc::new(clock.clone()), false)?;
        let mut rng = rng;
        // Every field written out, not `..WorkloadOptions::default()`: a seed's plan must not
        // change when an option is added or the CLI's defaults move (the regression seeds and
        // the soak's results name plans by seed), and a new option must be decided here, drawn
        // from the seed or not, rather than inherited.
        let options = WorkloadOptions {
            transactions: Some(0),
            duration: None,
            rate: 0,
            mix: (
                rng.gen_range(1..50),
                rng.gen_range(0..50),
                rng.gen_range(0..25),
            ),
            tx_size: (1, rng.gen_range(1..6)),
            rollback_pct: rng.gen_range(0..25),
            savepoint_pct: rng.gen_range(0..25),
            key_update_pct: rng.gen_range(0..20),
            row_move_pct: rng.gen_range(0..40),
            long_every: [0, 0, 3, 5, 8][rng.gen_range(0..5)],
            long_span: rng.gen_range(1..8),
            ddl_every: [0, 0, 0, 7, 15, 30][rng.gen_range(0..6)],
            // Not drawn from the seed yet: existing seeds keep their plans.
            create_table_every: 0,
            truncate_every: 0,
            move_every: 0,
            shared_commit_pct: rng.gen_range(0..20),
            tables: Vec::new(),
            seed: 0,
            lob_pct: 0,
            lob_edit_pct: 0,
            scn_jump_every: 0,
            scn_jump: 0,
        };
        let mut w = World {
            writer,
            clock,
            rng,
            options,
            longs: Vec::new(),
            counts: WorldCounts::default(),
            redo_len: 0,
            scope: None,
        };
        w.flush()?;
        Ok(w)
    }

    /// CREATE TABLE every `n` workload transactions of a batch (0: never).
    pub fn set_create_table_every(&mut self, n: u64) {
        self.options.create_table_every = n;
    }

    /// The workload's `lob_pct` (its LOB choices have a random source of their own).
    pub fn set_lob_pct(&mut self, pct: u8) {
        self.options.lob_pct = pct;
    }

    /// The settings whose `cdc.tables.*` decide which tables [`World::table_names`] lists.
    pub fn set_scope(&mut self, settings: crate::settings::Settings) {
        self.scope = Some(settings);
    }

    /// The settings [`World::set_scope`] gave.
    pub fn scope(&self) -> Option<&crate::settings::Settings> {
        self.scope.as_ref()
    }

    /// Every captured table now, for signals to name.
    pub fn table_names(&self) -> Vec<crate::names::TableName> {
        self.writer
            .replica()
            .tables
            .iter()
            .map(|t| t.info().name)
            .filter(|n| self.scope.as_ref().is_none_or(|s| s.is_captured(n)))
            .collect()
    }

    /// The SCN a capture of this database, gone quiet, is sure to reach: the mining bound
    /// stays one below V$DATABASE.CURRENT_SCN, which is the newest change while a transaction
    /// is open (its next change may share that SCN on Oracle) and one past it otherwise; a log
    /// switch or statistics after the newest change carry the SCN of the next record, which is
    /// never reached either.
    pub fn current_scn(&self) -> Scn {
        let r = self.writer.replica();
        r.current_scn_view()
            .saturating_sub(1)
            .min(r.newest_change_scn())
    }

    /// `n` workload transactions, then a step of each long transaction (open a new one now and
    /// then; close those due).
    pub fn run(&mut self, n: u64) -> Result<()> {
        self.clock.advance(self.rng.gen_range(1..50));
        if n > 0 {
            let mut o = self.options.clone();
            o.transactions = Some(n);
            o.seed = self.rng.gen();
            let s = Workload::new(&mut self.writer, o)?.run(&|| false)?;
            self.counts.transactions += s.committed + s.rolled_back;
            self.counts.rolled_back += s.rolled_back;
            self.counts.savepoint_rollbacks += s.savepoint_rollbacks;
            self.counts.key_updates += s.key_updates;
            self.counts.row_moves += s.row_moves;
            self.counts.ddl += s.ddl;
            self.counts.long_transactions += s.long_transactions;
            self.counts.tables_created += s.tables_created;
        }
        self.step_longs()?;
        self.flush()
    }

    fn flush(&mut self) -> Result<()> {
        self.writer.flush()?;
        let redo = self
            .writer
            .dir()
            .join(crate::source::emulator::redo::REDO_FILE);
        self.redo_len = std::fs::metadata(&redo)
            .map_err(|e| crate::errors::CdcError::io(&redo, e))?
            .len();
        Ok(())
    }

    /// Long transactions of the simulation's own: inserts, updates of their own rows and
    /// savepoint rollbacks, held open across runs, then committed or rolled back.
    fn step_longs(&mut self) -> Result<()> {
        if self.longs.len() < 2 && self.rng.gen_range(0..6) == 0 {
            let xid = self.writer.begin()?;
            self.longs.push(Long {
                xid,
                rows: Vec::new(),
                close_after: self.rng.gen_range(2..12),
            });
            self.counts.long_transactions += 1;
        }
        let mut i = 0;
        while i < self.longs.len() {
            if self.longs[i].close_after == 0 {
                let l = self.longs.remove(i);
                if self.rng.gen_range(0..4) == 0 {
                    self.writer.rollback(l.xid)?;
                    self.counts.rolled_back += 1;
                } else {
                    self.writer.commit(&[l.xid])?;
                }
                self.counts.transactions += 1;
                continue;
            }
            self.longs[i].close_after -= 1;
            let xid = self.longs[i].xid;
            let table = self.table_for(xid);
            let savepoint = (self.rng.gen_range(0..4) == 0)
                .then(|| self.writer.savepoint(xid))
                .transpose()?;
            let serial = self.writer.serials[table] + 1;
            self.writer.serials[table] = serial;
            let row = workload::new_row(&self.writer, table, &mut self.rng, serial)?;
            let rid = self.writer.insert(xid, table, row)?;
            if let Some(&(t, r)) = self.longs[i].rows.last() {
                if self.rng.gen_range(0..2) == 0 {
                    if let Some(mut row) = self.writer.row(Some(xid), t, r) {
                        // A new value for the last column (never a key in these tables).
                        let last = row.len() - 1;
                        let serial = self.writer.serials[t] + 1;
                        self.writer.serials[t] = serial;
                        let fresh = workload::new_row(&self.writer, t, &mut self.rng, serial)?;
                        row[last] = fresh[last].clone();
                        self.writer.update(xid, t, r, row)?;
                    }
                }
            }
            match savepoint {
                Some(sp) => {
                    self.writer.rollback_to(xid, sp)?;
                    self.counts.savepoint_rollbacks += 1;
                }
                None => self.longs[i].rows.push((table, rid)),
            }
            i += 1;
        }
        Ok(())
    }

    /// A table for the next change of `xid`: any, while it has changed nothing; then one of
    /// its PDB (a transaction stays in one container). One draw either way, as before PDBs.
    fn table_for(&mut self, xid: Xid) -> usize {
        let tables = &self.writer.replica().tables;
        let pick = self.rng.gen_range(0..tables.len());
        let Some(pdb) = self.writer.container_of(xid) else {
            return pick;
        };
        let same: Vec<usize> = (0..tables.len())
            .filter(|&t| tables[t].def.name.pdb.as_deref() == Some(pdb))
            .collect();
        if same.is_empty() || same.contains(&pick) {
            pick
        } else {
            same[pick % same.len()]
        }
    }

    /// End every long transaction (for the final run).
    pub fn close_longs(&mut self) -> Result<()> {
        for l in std::mem::take(&mut self.longs) {
            self.writer.commit(&[l.xid])?;
            self.counts.transactions += 1;
        }
        self.flush()
    }
}
