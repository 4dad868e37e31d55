//! What runs did, one seed at a time and summed for a soak.

use super::world::WorldCounts;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One seed's result.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub seed: u64,
    pub runs: u64,
    /// Faults injected, by kind.
    pub faults: BTreeMap<String, u64>,
    pub crashes: u64,
    pub restarts: u64,
    /// Workload steps run inside the engine's runs, at crash points.
    pub interleaved: u64,
    pub records: u64,
    pub world: WorldCounts,
    /// Snapshot modes, signals sent and handled, by kind.
    pub features: BTreeMap<String, u64>,
    /// Each names the invariant and the first violating record.
    pub violations: Vec<String>,
}

impl Outcome {
    pub fn count_fault(&mut self, kind: &str) {
        *self.faults.entry(kind.to_string()).or_default() += 1;
    }

    /// The failure text: the seed, what broke and the command that replays it.
    pub fn failure(&self) -> Option<String> {
        if self.violations.is_empty() {
            return None;
        }
        Some(format!(
            "seed {} violated {} invariant check(s):\n  {}\nreplay: {}",
            self.seed,
            self.violations.len(),
            self.violations.join("\n  "),
            super::replay_command(self.seed)
        ))
    }
}

/// Totals over many seeds.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub total: Outcome,
    pub failed_seeds: Vec<u64>,
}

impl Summary {
    pub fn add(&mut self, o: &Outcome) {
        let t = &mut self.total;
        t.runs += o.runs;
        for (k, v) in &o.faults {
            *t.faults.entry(k.clone()).or_default() += v;
        }
        for (k, v) in &o.features {
            *t.features.entry(k.clone()).or_default() += v;
        }
        t.crashes += o.crashes;
        t.restarts += o.restarts;
        t.interleaved += o.interleaved;
        t.records += o.records;
        let (w, x) = (&mut t.world, &o.world);
        w.transactions += x.transactions;
        w.rolled_back += x.rolled_back;
        w.savepoint_rollbacks += x.savepoint_rollbacks;
        w.key_updates += x.key_updates;
        w.row_moves += x.row_moves;
        w.ddl += x.ddl;
        w.long_transactions += x.long_transactions;
        w.tables_created += x.tables_created;
        t.violations.extend(o.violations.iter().cloned());
        if !o.violations.is_empty() {
            self.failed_seeds.push(o.seed);
        }
    }

    /// The summary table.
    pub fn table(&self) -> String {
        let t = &self.total;
        let mut rows: Vec<(String, u64)> = vec![
            ("runs (seeds)".into(), t.runs),
            ("records checked".into(), t.records),
            ("crashes".into(), t.crashes),
            ("restarts".into(), t.restarts),
        ];
        for (k, v) in &t.faults {
            rows.push((format!("fault: {k}"), *v));
        }
        for (k, v) in &t.features {
            rows.push((k.clone(), *v));
        }
        let w = &t.world;
        rows.extend([
            ("workload steps inside engine runs".into(), t.interleaved),
            ("transactions".into(), w.transactions),
            ("  rolled back".into(), w.rolled_back),
            ("  savepoint rollbacks".into(), w.savepoint_rollbacks),
            ("  key updates".into(), w.key_updates),
            ("  row movements".into(), w.row_moves),
            ("  ADD/DROP COLUMN".into(), w.ddl),
            ("  long transactions".into(), w.long_transactions),
            ("  CREATE TABLE".into(), w.tables_created),
            ("violations".into(), t.violations.len() as u64),
        ]);
        let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        let mut s = String::new();
        for (k, v) in rows {
            let _ = writeln!(s, "| {k:<width$} | {v:>10} |");
        }
        if !self.failed_seeds.is_empty() {
            let _ = writeln!(s, "failed seeds: {:?}", self.failed_seeds);
        }
        s
    }
}
