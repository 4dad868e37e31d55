//! How many SCNs one mining window spans.
//!
//! Dense redo: `cdc.stream.window.scn`, halved each time a window passes a per-call limit of
//! the database (CDC-5017: CPU_PER_CALL, LOGICAL_READS_PER_CALL, a Resource Manager CANCEL_SQL
//! switch), and doubled back towards the setting once windows have passed for a while. A limit
//! met during a burst of redo (a batch job in a schema outside capture: LogMiner reads every
//! schema's redo) would otherwise leave capture mining small windows, a LogMiner session
//! each, long after the burst.
//!
//! Sparse redo: a window that mined fewer than [`SPARSE_BELOW_ROWS`] rows (START and COMMIT
//! rows of every transaction count, whatever it changed) spent its time starting a LogMiner
//! session, so the next spans twice as many SCNs, up to `cdc.stream.window.scn.max`; a window
//! with more rows goes back to the dense span. SCNs can be many with no redo between them: a
//! database link to a database further ahead raises the SCN to that database's at once
//! (Distributed Systems, "Coordination of System Change Numbers"), and a jump of 10^9 SCNs
//! would otherwise be 10^4 empty LogMiner sessions at the default window (Debezium met this:
//! DBZ-9241).

/// Windows in a row that must pass before a reduced window is doubled.
pub const GROW_AFTER: u32 = 16;

/// A window that mined fewer rows than this is sparse: the next spans twice the SCNs.
pub const SPARSE_BELOW_ROWS: u64 = 1_000;

#[derive(Debug, Clone)]
pub struct WindowSize {
    /// The setting: never more over dense redo.
    full: u64,
    /// The span over dense redo: `full`, or less after a per-call limit.
    dense: u64,
    /// Windows mined in a row at a reduced `dense` without passing the limit.
    passed: u32,
    /// The next window's span: `dense`, or more after sparse windows.
    now: u64,
    /// cdc.stream.window.scn.max: never more.
    max: u64,
}

/// How the span changed after a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Windows passed the per-call limit for a while: the dense span doubled.
    DenseGrew(u64),
    /// The window was sparse: the next spans this many SCNs.
    Stretched(u64),
    /// The window was dense again after sparse ones: back to the dense span.
    BackTo(u64),
}

impl WindowSize {
    pub fn new(setting: u64, max: u64) -> WindowSize {
        let full = setting.max(1);
        WindowSize {
            full,
            dense: full,
            passed: 0,
            now: full,
            max: max.max(full),
        }
    }

    /// SCNs the next window spans.
    pub fn scns(&self) -> u64 {
        self.now
    }

    /// The window `from..=to` passed the limit: the SCNs it spanned are mined again in half
    /// the span. `None` for a window of one SCN, which cannot be halved.
    pub fn passed_limit(&mut self, from: u64, to: u64) -> Option<u64> {
        if to <= from {
            return None;
        }
        let half = (to - from).div_ceil(2).max(1);
        self.dense = half.min(self.full);
        self.now = half;
        self.passed = 0;
        Some(self.now)
    }

    /// A window was mined whole, with `rows` rows. Returns how the span changed, if it did.
    pub fn mined(&mut self, rows: u64) -> Option<Change> {
        let grew = self.dense_passed();
        if rows < SPARSE_BELOW_ROWS {
            let next = self.now.saturating_mul(2).min(self.max).max(self.dense);
            if next != self.now {
                self.now = next;
                return Some(Change::Stretched(next));
            }
            return grew.map(Change::DenseGrew);
        }
        if self.now > self.dense {
            self.now = self.dense;
            return Some(Change::BackTo(self.dense));
        }
        self.now = self.dense;
        grew.map(Change::DenseGrew)
    }

    /// After [`GROW_AFTER`] windows in a row at a reduced dense span, it doubles (up to the
    /// setting). Returns the new span when it grew.
    fn dense_passed(&mut self) -> Option<u64> {
        if self.dense >= self.full {
            return None;
        }
        self.passed += 1;
        if self.passed < GROW_AFTER {
            return None;
        }
        self.passed = 0;
        self.dense = self.dense.saturating_mul(2).min(self.full);
        Some(self.dense)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DENSE: u64 = SPARSE_BELOW_ROWS;

    #[test]
    fn a_window_past_the_limit_is_halved_and_grows_back_after_windows_pass() {
        let mut w = WindowSize::new(1000, 1000);
        assert_eq!(w.scns(), 1000);
        // 1000 SCNs (100..=1099) passed the limit: 500, then 250.
        assert_eq!(w.passed_limit(100, 1099), Some(500));
        assert_eq!(w.passed_limit(100, 599), Some(250));
        // A shorter window than the span (the end of what is minable) halves what it spanned.
        assert_eq!(w.passed_limit(100, 109), Some(5));
        assert_eq!(w.passed_limit(100, 101), Some(1));
        // One SCN cannot be halved.
        assert_eq!(w.passed_limit(100, 100), None);
        assert_eq!(w.scns(), 1);
        // Grows back: doubled after GROW_AFTER windows in a row, never past the setting.
        let mut spans = Vec::new();
        for _ in 0..GROW_AFTER * 11 {
            if let Some(Change::DenseGrew(s)) = w.mined(DENSE) {
                spans.push(s);
            }
            assert_eq!(w.scns(), *spans.last().unwrap_or(&1));
        }
        assert_eq!(spans, [2, 4, 8, 16, 32, 64, 128, 256, 512, 1000]);
        assert_eq!(w.mined(DENSE), None);
        // A limit met again starts the count over.
        w.passed_limit(0, 999);
        for _ in 0..GROW_AFTER - 1 {
            assert_eq!(w.mined(DENSE), None);
        }
        w.passed_limit(0, 499);
        assert_eq!(w.scns(), 250);
        for _ in 0..GROW_AFTER - 1 {
            assert_eq!(w.mined(DENSE), None);
        }
        assert_eq!(w.mined(DENSE), Some(Change::DenseGrew(500)));
    }

    #[test]
    fn sparse_windows_stretch_up_to_the_max_and_a_dense_one_goes_back() {
        let mut w = WindowSize::new(1000, 10_000);
        let mut spans = Vec::new();
        for _ in 0..6 {
            w.mined(SPARSE_BELOW_ROWS - 1);
            spans.push(w.scns());
        }
        assert_eq!(spans, [2000, 4000, 8000, 10_000, 10_000, 10_000]);
        assert_eq!(w.mined(0), None, "at the max nothing changes");
        assert_eq!(w.mined(DENSE), Some(Change::BackTo(1000)));
        assert_eq!(w.mined(DENSE), None);
        // A stretched window past the limit: its SCNs again in half, the dense span at most
        // the setting; sparse windows stretch from there.
        w.mined(0);
        w.mined(0);
        assert_eq!(w.scns(), 4000);
        assert_eq!(w.passed_limit(0, 3999), Some(2000));
        assert_eq!(w.mined(0), Some(Change::Stretched(4000)));
        assert_eq!(w.mined(DENSE), Some(Change::BackTo(1000)));
        // Below the setting after a limit: sparse windows stretch from the reduced span.
        w.passed_limit(0, 99);
        assert_eq!(w.scns(), 50);
        assert_eq!(w.mined(0), Some(Change::Stretched(100)));
        assert_eq!(w.mined(DENSE), Some(Change::BackTo(50)));
        // A max below the setting is the setting: the setting's windows over dense redo.
        let mut w = WindowSize::new(1000, 10);
        assert_eq!(w.mined(0), None);
        assert_eq!(w.scns(), 1000);
    }
}
