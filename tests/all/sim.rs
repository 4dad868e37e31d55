//! The deterministic simulation's quick set: seeded in-process capture runs against the
//! emulator with faults, crashes at every named crash point and restarts, each checked against
//! the eight invariants (crates/cdc-engine/src/sim/). The soak runs many more: `cargo run --release --example sim
//! -- --seeds 10000`. A failure prints its seed and the command that replays it.

use oracle_cdc::crashpoint::{self, Rule};
use oracle_cdc::sim;

/// Run seeds `range` and fail with every failing seed's report.
fn seeds(range: std::ops::Range<u64>) {
    let mut failures = Vec::new();
    let mut summary = sim::report::Summary::default();
    for seed in range.clone() {
        let o = sim::run_seed(seed).unwrap_or_else(|e| panic!("seed {seed} could not run: {e}"));
        summary.add(&o);
        if let Some(f) = o.failure() {
            failures.push(f);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The set exercises what the simulation is for, not only quiet runs.
    let t = &summary.total;
    let feature = |k: &str| t.features.get(k).copied().unwrap_or(0);
    assert!(t.crashes > 0, "seeds {range:?} crashed nowhere");
    assert!(
        feature("signal files processed") > 0 && t.world.tables_created > 0,
        "seeds {range:?} took no signal or created no table:\n{}",
        summary.table()
    );
    for mode in ["initial", "none", "on_signal", "snapshot_only"] {
        assert!(
            feature(&format!("mode: {mode}")) > 0,
            "seeds {range:?} never ran cdc.snapshot.mode={mode}"
        );
    }
    for shape in [
        "PDBs: 0",
        "PDBs: 1",
        "PDBs: 2",
        "busy uncaptured schema",
        "redo written late (LGWR delay)",
        "host clock not UTC",
        "LOB-like table",
        "per-call read limit",
        "reads cut at a per-call limit",
        "database restarts",
        "logs switched or missing under LogMiner",
    ] {
        assert!(
            feature(shape) > 0,
            "seeds {range:?} never drew {shape}:\n{}",
            summary.table()
        );
    }
}

#[test]
fn quick_set_a() {
    seeds(1000..1050);
}

#[test]
fn quick_set_b() {
    seeds(1050..1100);
}

#[test]
fn quick_set_c() {
    seeds(1100..1150);
}

#[test]
fn quick_set_d() {
    seeds(1150..1200);
}

/// Bugs the simulation found, kept by seed:
/// - 2, 7, 12: a crash after the first capture's sink opened but before its first
///   acknowledgement left segments the offsets did not know; every restart refused them with
///   CDC-8005 (fixed: `sink::claim_fresh` acknowledges the empty start on first start).
/// - 27, 97, 162, 183: a crash after a table's last chunk was acknowledged but before the table
///   was marked done re-read (and republished) the whole table, since the last chunk has no
///   resume point (fixed: `TableProgress::done_after` in the chunk's own save).
#[test]
fn regression_seeds() {
    for seed in [2, 7, 12, 27, 97, 162, 183] {
        // The plan they had when found (the database shape before environments were drawn).
        let o = sim::run_plan(&sim::Plan::featured(seed)).unwrap();
        assert!(o.failure().is_none(), "{}", o.failure().unwrap_or_default());
        assert!(o.crashes + o.restarts > 0, "seed {seed} no longer restarts");
        let o = sim::run_seed(seed).unwrap();
        assert!(o.failure().is_none(), "{}", o.failure().unwrap_or_default());
    }
}

/// A false alarm of the 10,000-seed soak on f8aeae9, kept by seed:
/// - 8532 (snapshot_only, 3-row chunks, two readers): after a crash the resumed table's last
///   chunk `[K00000011, ∞)` was read at a later SCN, after K00000011 was deleted, and held no
///   row. The harness took a table's chunk SCNs from its records only, so it missed that
///   chunk's SCN and reported the deleted key as lost (invariant 3) in most runs (the two
///   readers' timing decides whether the crash lands there). Fixed in the harness: the SCNs
///   come from the offsets' `chunk_scns`, empty chunks included.
#[test]
fn snapshot_only_empty_chunk_seed() {
    let p = sim::Plan::from_seed(8532);
    assert!(
        p.mode == oracle_cdc::settings::SnapshotMode::SnapshotOnly && p.chunk_rows <= 3,
        "seed 8532 no longer draws a snapshot_only run with small chunks"
    );
    // Before the fix 9 in 10 runs of this seed failed; five in a row pass now.
    for _ in 0..5 {
        let o = sim::run_plan(&p).unwrap();
        assert!(o.failure().is_none(), "{}", o.failure().unwrap_or_default());
        assert!(o.crashes > 0, "seed 8532 no longer crashes");
    }
}

/// Liveness trips of the first 10,000-seed soak, replayed with the plans seeds drew then
/// (`Plan::classic`, before signals, CREATE TABLE and the other snapshot modes were drawn):
/// - 2697: 90% of the engine's runs end in a sink failure the harness injects; the liveness
///   check ("25 failed restarts in a row") counted those too (fixed: it counts only failures
///   the harness did not inject).
/// - 8037: every 5th connect fails; capture reconnected once and gave up, so it could not get
///   through 25 restarts (fixed: connects are retried with backoff, cdc.database.connect.*).
#[test]
fn liveness_regression_seeds() {
    let p = sim::Plan::classic(8037);
    assert!(
        p.connect_fail_every > 0,
        "seed 8037 no longer fails connects"
    );
    let o = sim::run_plan(&p).unwrap();
    assert!(o.failure().is_none(), "{}", o.failure().unwrap_or_default());
    let p = sim::Plan::classic(2697);
    assert!(
        p.crash_pct >= 90 && p.connect_fail_every > 0,
        "seed 2697 no longer injects a fault into most runs and fails connects"
    );
    let o = sim::run_plan(&p).unwrap();
    assert!(o.failure().is_none(), "{}", o.failure().unwrap_or_default());
    let injected: u64 = o
        .faults
        .iter()
        .filter(|(k, _)| k.starts_with("sink "))
        .map(|(_, n)| n)
        .sum();
    assert!(injected > 0, "seed 2697 no longer injects sink failures");
    // The same seeds with their signals, created tables and snapshot modes drawn.
    for seed in [2697, 8037] {
        let o = sim::run_seed(seed).unwrap();
        assert!(o.failure().is_none(), "{}", o.failure().unwrap_or_default());
    }
}

/// With the wave catch-up switched off (chunks published before the changes committed before
/// their SCN), the harness reports a chunk-order violation naming the record.
#[test]
fn catches_a_broken_ordering_rule() {
    let _broken = crashpoint::break_rule(Rule::WaveCatchUp);
    let caught = (0..80u64).find_map(|seed| {
        let o = sim::run_seed(seed).unwrap();
        o.violations
            .iter()
            .find(|v| v.starts_with("invariant 2 (chunk order)"))
            .map(|v| (seed, v.clone(), o.failure().unwrap_or_default()))
    });
    let (seed, violation, report) = caught.expect("no seed caught the broken rule");
    assert!(violation.contains("record #"), "{violation}");
    assert!(
        report.contains(&format!("--seed {seed}")),
        "the report names its replay command: {report}"
    );
}

/// `CDC_SIM_SEED=N cargo test --test all sim::replay -- --nocapture` replays one seed.
#[test]
fn replay() {
    let Some(seed) = std::env::var("CDC_SIM_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
    else {
        return;
    };
    let o = sim::run_seed(seed).unwrap();
    println!("{o:#?}");
    assert!(o.failure().is_none(), "{}", o.failure().unwrap_or_default());
}

/// Found with the environment draws (PDBs, a late log writer, a host clock off UTC): a DDL
/// mined twice (a restart, a rewind to an open transaction's START) was applied on top of
/// itself, an ADD COLUMN giving the column several times (fixed: `Catalog::apply_ddl` applies a
/// DDL to the layout before its SCN).
#[test]
fn environment_regression_seeds() {
    for seed in [83, 202, 319] {
        let o = sim::run_seed(seed).unwrap();
        assert!(o.failure().is_none(), "{}", o.failure().unwrap_or_default());
        assert!(o.crashes + o.restarts > 0, "seed {seed} no longer restarts");
    }
}
