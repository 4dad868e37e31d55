//! How many SCNs one mining window spans: `cdc.stream.window.scn`, halved each time a window
//! passes a per-call limit of the database (CDC-5017: CPU_PER_CALL, LOGICAL_READS_PER_CALL, a
//! Resource Manager CANCEL_SQL switch), and doubled back towards the setting once windows
//! have passed for a while. A limit met during a burst of redo (a batch job in a schema
//! outside capture: LogMiner reads every schema's redo) would otherwise leave capture mining
//! small windows, a LogMiner session each, long after the burst.

/// Windows in a row that must pass before a reduced window is doubled.
pub const GROW_AFTER: u32 = 16;

#[derive(Debug, Clone)]
pub struct WindowSize {
    /// The setting: never more.
    full: u64,
    now: u64,
    /// Windows mined in a row at the reduced size without passing the limit.
    passed: u32,
}

impl WindowSize {
    pub fn new(setting: u64) -> WindowSize {
        let full = setting.max(1);
        WindowSize {
            full,
            now: full,
            passed: 0,
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
        self.now = (to - from).div_ceil(2).max(1);
        self.passed = 0;
        Some(self.now)
    }

    /// A window was mined whole: after [`GROW_AFTER`] in a row at a reduced span, the span
    /// doubles (up to the setting). Returns the new span when it grew.
    pub fn mined(&mut self) -> Option<u64> {
        if self.now >= self.full {
            return None;
        }
        self.passed += 1;
        if self.passed < GROW_AFTER {
            return None;
        }
        self.passed = 0;
        self.now = self.now.saturating_mul(2).min(self.full);
        Some(self.now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_past_the_limit_is_halved_and_grows_back_after_windows_pass() {
        let mut w = WindowSize::new(1000);
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
            if let Some(s) = w.mined() {
                spans.push(s);
            }
        }
        assert_eq!(spans, [2, 4, 8, 16, 32, 64, 128, 256, 512, 1000]);
        assert_eq!(w.mined(), None);
        // A limit met again starts the count over.
        w.passed_limit(0, 999);
        for _ in 0..GROW_AFTER - 1 {
            assert_eq!(w.mined(), None);
        }
        w.passed_limit(0, 499);
        assert_eq!(w.scns(), 250);
        for _ in 0..GROW_AFTER - 1 {
            assert_eq!(w.mined(), None);
        }
        assert_eq!(w.mined(), Some(500));
    }
}
