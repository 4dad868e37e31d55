//! The deterministic simulation's soak mode.
//!
//! ```text
//! cargo run --release --example sim -- --seeds 10000            # seeds 0..10000
//! cargo run --release --example sim -- --seeds 500 --from 7000  # seeds 7000..7500
//! cargo run --release --example sim -- --secs 600               # as many as fit in 10 minutes
//! cargo run --release --example sim -- --seeds 10000 --jobs 4   # on 4 threads
//! cargo run --release --example sim -- --seed 1234              # replay one seed, verbosely
//! ```
//! Prints a summary table (runs, faults by kind, crashes, restarts, records checked,
//! violations) and exits 1 when any seed broke an invariant, naming each with its replay command.

use oracle_cdc::sim::{self, report::Summary};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn arg(args: &[String], name: &str) -> Option<u64> {
    let i = args.iter().position(|a| a == name)?;
    match args.get(i + 1).map(|v| v.parse::<u64>()) {
        Some(Ok(n)) => Some(n),
        _ => {
            eprintln!("{name} takes a whole number");
            std::process::exit(2);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(seed) = arg(&args, "--seed") {
        // One seed replayed: the engine's logs help, on stderr, filtered by ORACLE_CDC_LOG
        // (as the CLI does), e.g. `ORACLE_CDC_LOG=oracle_cdc=debug`.
        if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_env("ORACLE_CDC_LOG") {
            let _ = tracing_subscriber::fmt()
                .with_env_filter(filter)
                .with_writer(std::io::stderr)
                .try_init();
        }
        let plan = sim::Plan::from_seed(seed);
        println!("{plan:#?}");
        match sim::run_plan(&plan) {
            Ok(o) => {
                println!("{o:#?}");
                if let Some(f) = o.failure() {
                    eprintln!("{f}");
                    std::process::exit(1);
                }
            }
            Err(e) => {
                eprintln!("seed {seed}: the simulation could not run: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
    let from = arg(&args, "--from").unwrap_or(0);
    let count = arg(&args, "--seeds");
    let budget = arg(&args, "--secs").map(Duration::from_secs);
    if count.is_none() && budget.is_none() {
        eprintln!("give --seeds N, --secs S or --seed N");
        std::process::exit(2);
    }
    let jobs = arg(&args, "--jobs").unwrap_or(1).max(1);
    let started = Instant::now();
    let next = AtomicU64::new(from);
    let summary = Mutex::new(Summary::default());
    let broken = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                if broken.load(Ordering::Relaxed) || budget.is_some_and(|b| started.elapsed() >= b)
                {
                    return;
                }
                let seed = next.fetch_add(1, Ordering::Relaxed);
                if count.is_some_and(|n| seed >= from + n) {
                    return;
                }
                match sim::run_seed(seed) {
                    Ok(o) => {
                        if let Some(f) = o.failure() {
                            eprintln!("{f}");
                        }
                        if let Ok(mut s) = summary.lock() {
                            s.add(&o);
                            if s.total.runs.is_multiple_of(500) {
                                eprintln!("{} seeds, {:.0?}", s.total.runs, started.elapsed());
                            }
                        }
                    }
                    Err(e) => {
                        eprintln!("seed {seed}: the simulation could not run: {e}");
                        broken.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let summary = summary.into_inner().unwrap_or_default();
    let seed = from + summary.total.runs;
    if broken.load(Ordering::Relaxed) {
        std::process::exit(1);
    }
    println!(
        "seeds {from}..{seed} ({jobs} threads) in {:.1?}\n{}",
        started.elapsed(),
        summary.table()
    );
    if !summary.failed_seeds.is_empty() {
        std::process::exit(1);
    }
}
