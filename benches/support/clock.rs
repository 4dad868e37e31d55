//! What a benchmark's iteration time is: CPU time by default, so that other processes sharing
//! the machine (builds, tests) do not count; `ORACLE_CDC_BENCH_CLOCK=wall` measures wall time,
//! `=user` user CPU time only (the engine's own code, without the kernel's file writes).
//!
//! CPU time is the process's (every thread, user and system, `getrusage(RUSAGE_SELF)`): for a
//! one-thread path it is the time on one core; for a multi-threaded one it is the sum over
//! threads, so a rate from it is per core, never flattered by parallelism.

use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    Cpu,
    User,
    Wall,
}

impl Clock {
    pub fn from_env() -> Clock {
        match std::env::var("ORACLE_CDC_BENCH_CLOCK").as_deref() {
            Ok("wall") => Clock::Wall,
            Ok("user") => Clock::User,
            _ => Clock::Cpu,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Clock::Cpu => "cpu",
            Clock::User => "user",
            Clock::Wall => "wall",
        }
    }

    fn now(self) -> Duration {
        match self {
            Clock::Wall => {
                static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
                START.get_or_init(Instant::now).elapsed()
            }
            Clock::Cpu | Clock::User => {
                // SAFETY: getrusage only writes the struct it is given.
                let mut u: libc::rusage = unsafe { std::mem::zeroed() };
                unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
                let tv = |t: libc::timeval| {
                    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
                };
                match self {
                    Clock::User => tv(u.ru_utime),
                    _ => tv(u.ru_utime) + tv(u.ru_stime),
                }
            }
        }
    }

    /// For `Bencher::iter_custom`: `iters` runs of `routine` on a fresh `setup()` each, only
    /// the routine timed.
    pub fn time<S, R>(
        self,
        iters: u64,
        mut setup: impl FnMut() -> S,
        mut routine: impl FnMut(S) -> R,
    ) -> Duration {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let input = setup();
            let start = self.now();
            let out = routine(input);
            total += self.now().saturating_sub(start);
            drop(out);
        }
        total
    }
}

/// `ORACLE_CDC_BENCH_REPEAT=n`: run the benchmarked path n times outside criterion, for
/// `perf stat -e instructions:u` or callgrind (counts that the machine's load does not change).
pub fn repeat() -> Option<u64> {
    std::env::var("ORACLE_CDC_BENCH_REPEAT").ok()?.parse().ok()
}
