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

impl Clock {
    /// One timed run of `routine` on a fresh `setup()`.
    pub fn once<S, R>(self, setup: impl FnOnce() -> S, routine: impl FnOnce(S) -> R) -> Duration {
        let input = setup();
        let start = self.now();
        let out = routine(input);
        let took = self.now().saturating_sub(start);
        drop(out);
        took
    }

    /// A ratio that the machine's drift does not skew: `ORACLE_CDC_BENCH_PAIRS` times (default
    /// 31), one run of `a` and one of `b` back to back, in alternating order, and the ratio a/b
    /// of each pair, sorted. Criterion times `a` and `b` a minute apart, and on a shared VM the
    /// plain write alone moves by ±30 % between such runs; the two runs of a pair share the
    /// machine's state.
    pub fn ratios(
        self,
        mut a: impl FnMut() -> Duration,
        mut b: impl FnMut() -> Duration,
    ) -> Vec<f64> {
        let pairs = std::env::var("ORACLE_CDC_BENCH_PAIRS")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(31usize);
        let mut out: Vec<f64> = (0..pairs)
            .map(|i| {
                let (a, b) = match i % 2 {
                    0 => (a(), b()),
                    _ => {
                        let b = b();
                        (a(), b)
                    }
                };
                a.as_secs_f64() / b.as_secs_f64().max(1e-9)
            })
            .collect();
        out.sort_by(f64::total_cmp);
        out
    }
}

/// Print the median ratio (and its spread) and store it where `benches/run.sh` reads it:
/// `target/criterion/ratios/<id>.json` with `id` like `snapshot/chunk rows to CSV (cpu time)`.
pub fn record_ratio(id: &str, ratios: &[f64]) {
    let Some(median) = ratios.get(ratios.len() / 2).copied() else {
        return;
    };
    let (min, max) = (ratios[0], ratios[ratios.len() - 1]);
    eprintln!(
        "{id}: {median:.2}× the plain write (median of {} pairs, {min:.2}–{max:.2})",
        ratios.len()
    );
    let path = ratio_file(id);
    let json = format!(
        "{{\"id\":{id:?},\"median\":{median},\"min\":{min},\"max\":{max},\"pairs\":{}}}\n",
        ratios.len()
    );
    if let Err(e) = std::fs::write(&path, json) {
        eprintln!("{}: {e}", path.display());
    }
}

/// Where a bench stores a result `benches/run.sh` reads: `target/criterion/ratios/<id>.json`,
/// the id's `/` made `_` (the directory is made).
pub fn ratio_file(id: &str) -> std::path::PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || std::path::PathBuf::from("target"),
        std::path::PathBuf::from,
    );
    let dir = target.join("criterion/ratios");
    let _ = std::fs::create_dir_all(&dir);
    dir.join(format!("{}.json", id.replace('/', "_")))
}
