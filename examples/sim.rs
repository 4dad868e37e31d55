//! The deterministic simulation's soak mode.
//!
//! ```text
//! cargo run --release --example sim -- --seeds 10000            # seeds 0..10000
//! cargo run --release --example sim -- --seeds 500 --from 7000  # seeds 7000..7500
//! cargo run --release --example sim -- --secs 600               # as many as fit in 10 minutes
//! cargo run --release --example sim -- --seed 1234              # replay one seed, verbosely
//! ```
//! Prints a summary table (runs, faults by kind, crashes, restarts, records checked,
//! violations) and exits 1 when any seed broke an invariant, naming each with its replay command.

use oracle_cdc::sim::{self, report::Summary};
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
    let started = Instant::now();
    let mut summary = Summary::default();
    let mut seed = from;
    loop {
        if count.is_some_and(|n| seed >= from + n) || budget.is_some_and(|b| started.elapsed() >= b)
        {
            break;
        }
        match sim::run_seed(seed) {
            Ok(o) => {
                if let Some(f) = o.failure() {
                    eprintln!("{f}");
                }
                summary.add(&o);
            }
            Err(e) => {
                eprintln!("seed {seed}: the simulation could not run: {e}");
                std::process::exit(1);
            }
        }
        seed += 1;
        if (seed - from).is_multiple_of(500) {
            eprintln!("{} seeds, {:.0?}", seed - from, started.elapsed());
        }
    }
    println!(
        "seeds {from}..{seed} in {:.1?}\n{}",
        started.elapsed(),
        summary.table()
    );
    if !summary.failed_seeds.is_empty() {
        std::process::exit(1);
    }
}
