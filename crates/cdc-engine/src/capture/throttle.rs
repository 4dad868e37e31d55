//! The snapshot throttle: rows read by snapshots, averaged from the snapshot's start (or the
//! last change of the limits), kept at or below `cdc.snapshot.max.rows.per.second` and the
//! per-table limits. Capture asks before each wave of chunks and streams while it waits.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The limits (rows per second, 0: none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    pub all: u64,
    pub tables: BTreeMap<String, u64>,
}

#[derive(Debug, Clone, Copy)]
struct Count {
    since: Instant,
    rows: u64,
}

#[derive(Debug, Default)]
pub struct Throttle {
    limits: Limits,
    all: Option<Count>,
    tables: BTreeMap<String, Count>,
}

/// How long `rows` must have taken at `rate` rows per second beyond `elapsed`.
fn owed(rows: u64, rate: u64, elapsed: Duration) -> Duration {
    if rate == 0 {
        return Duration::ZERO;
    }
    Duration::from_secs_f64(rows as f64 / rate as f64).saturating_sub(elapsed)
}

impl Throttle {
    /// Start counting afresh (a new snapshot).
    pub fn reset(&mut self) {
        self.all = None;
        self.tables.clear();
    }

    /// How long the next wave of `table` must wait at `now` under `limits` (new limits start
    /// the count afresh, so a raised limit takes effect at once).
    pub fn wait(&mut self, limits: &Limits, table: &str, now: Instant) -> Duration {
        if *limits != self.limits {
            self.limits = limits.clone();
            self.reset();
        }
        let all = self.all.get_or_insert(Count {
            since: now,
            rows: 0,
        });
        let mut wait = owed(all.rows, limits.all, now.duration_since(all.since));
        let t = self.tables.entry(table.to_string()).or_insert(Count {
            since: now,
            rows: 0,
        });
        if let Some(rate) = limits.tables.get(table) {
            wait = wait.max(owed(t.rows, *rate, now.duration_since(t.since)));
        }
        wait
    }

    /// `rows` of `table` were read.
    pub fn count(&mut self, table: &str, rows: u64) {
        if let Some(a) = self.all.as_mut() {
            a.rows += rows;
        }
        if let Some(t) = self.tables.get_mut(table) {
            t.rows += rows;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waves of 100 rows paced by `wait` on a simulated clock: the rate over the run stays
    /// within 10% of the limit (and never above it before the last wave).
    fn run(limits: &Limits, table: &str, waves: u64) -> f64 {
        let mut t = Throttle::default();
        let start = Instant::now();
        let mut now = start;
        for _ in 0..waves {
            now += t.wait(limits, table, now);
            now += Duration::from_millis(2); // the read itself
            t.count(table, 100);
        }
        (waves * 100) as f64 / now.duration_since(start).as_secs_f64()
    }

    #[test]
    fn the_rate_over_a_run_holds_the_limit() {
        let all = Limits {
            all: 1000,
            tables: BTreeMap::new(),
        };
        let rate = run(&all, "A.B", 50);
        assert!((rate - 1000.0).abs() / 1000.0 < 0.1, "{rate}");
        let per_table = Limits {
            all: 1000,
            tables: [("A.B".to_string(), 250)].into(),
        };
        let rate = run(&per_table, "A.B", 20);
        assert!((rate - 250.0).abs() / 250.0 < 0.1, "{rate}");
        // Another table goes at the overall limit.
        let rate = run(&per_table, "A.C", 50);
        assert!((rate - 1000.0).abs() / 1000.0 < 0.1, "{rate}");
        // No limit: no wait.
        let mut t = Throttle::default();
        let none = Limits::default();
        t.count("A.B", 1_000_000);
        assert_eq!(t.wait(&none, "A.B", Instant::now()), Duration::ZERO);
    }

    #[test]
    fn new_limits_count_afresh() {
        let mut t = Throttle::default();
        let now = Instant::now();
        let slow = Limits {
            all: 10,
            tables: BTreeMap::new(),
        };
        assert_eq!(t.wait(&slow, "A.B", now), Duration::ZERO);
        t.count("A.B", 100);
        assert_eq!(t.wait(&slow, "A.B", now), Duration::from_secs(10));
        let fast = Limits {
            all: 1000,
            tables: BTreeMap::new(),
        };
        assert_eq!(t.wait(&fast, "A.B", now), Duration::ZERO);
    }
}
