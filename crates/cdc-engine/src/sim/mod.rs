//! Deterministic simulation: many seeded runs of the real capture engine, in process, against
//! the emulator, with faults and crashes at the named [`crate::crashpoint`]s, each followed by
//! a restart from what is on disk; after every run the eight invariants are checked against the
//! emulator's own table contents ([`check`]).
//!
//! A seed decides everything: the schema (with or without a table of CLOB, BLOB, JSON, XMLTYPE
//! and extended VARCHAR2 columns, whose values the workload makes long by `lob_pct`, so every
//! redo form of [`crate::source::emulator::lob_redo`] but piecewise edits is drawn), the
//! workload (mix, long transactions, rollbacks,
//! savepoint rollbacks, key updates, row movement, ADD/DROP COLUMN, CREATE TABLE), the settings
//! (chunk size, threads, pending-chunk limit, snapshot mode, mining window, buffer memory), the
//! signals sent through the file spool (execute/pause/resume/stop-snapshot), the faults
//! (connection drops and failed connects, ORA-01555 on chosen reads, slow reads, sink write
//! failures, written-but-not-acknowledged, graceful stops) and where the engine crashes. The
//! workload also runs *inside* the engine's runs, at crash points (so rows change and move while
//! their table's snapshot is read). Chunk reader threads make timing, not data, vary: a seed
//! replays the same plan and the same faults.

pub mod check;
mod counting;
mod plan;
pub mod report;
mod signals;
mod world;

use crate::capture::Capture;
use crate::crashpoint::{self, Point};
use crate::errors::{CdcError, Result};
use crate::offsets::Offsets;
use crate::settings::{Settings, SnapshotMode};
use crate::snapshot::NoProgress;
use crate::source::container::{ContainerConnector, WantedPdbs};
use crate::source::emulator::clock::ManualClock;
use crate::source::emulator::{self, EmulatorConnector, Faults};
use cdc_core::model::Scn;
use counting::Counting;
pub use plan::Plan;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use report::Outcome;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
pub use world::World;

/// Engine runs that end in an error other than a simulated crash before one succeeds: beyond
/// this the engine is not making progress, which is itself a violation.
const MAX_FAILED_ATTEMPTS: u32 = 25;

/// Engine runs of one seed, all told: a cap so that no plan can loop for ever.
const MAX_ATTEMPTS: u32 = 400;

/// The command that replays a seed.
pub fn replay_command(seed: u64) -> String {
    format!("cargo run --release --example sim -- --seed {seed}")
}

/// What the crash-point hook saw and did during one seed's runs.
#[derive(Default)]
struct Live {
    plan_crash: Option<(Point, u32)>,
    /// This engine run's error is one the hook raised (a planned sink failure).
    injected: bool,
    hits: BTreeMap<Point, u32>,
    interleave_pct: u32,
    /// Workload transactions still allowed inside the current engine run.
    interleave_left: u32,
    /// Signals still allowed inside the current engine run, and the chance per crash point.
    signal_left: u32,
    signal_pct: u32,
    /// Chunks with rows published since the wave began (empty ones hold no memory: a wave
    /// whose last chunks are empty may publish more to find the table's last record).
    chunks_in_wave: u64,
    /// The next chunk published has no rows.
    empty_chunk: bool,
    max_pending: u64,
    last_offsets: Option<Offsets>,
    /// The first SCN the stream owes: one past the first stored commit SCN.
    start: Option<Scn>,
    /// Mode none: the tables as of `start - 1`, where a consumer begins.
    baseline: Option<check::Contents>,
    needs_baseline: bool,
    violations: Vec<String>,
    outcome: Outcome,
    /// Times capture waited for redo LGWR had not written.
    redo_waits: u64,
    /// The database's LGWR period (`database.redo_write_delay_ms`; 0: it writes at once): time
    /// moves on while capture waits.
    lgwr_delay_ms: u64,
}

/// One seed: plan, run with faults and restarts, check. `Err` only when the simulation itself
/// could not run (a temp dir, the emulator's files).
pub fn run_seed(seed: u64) -> Result<Outcome> {
    run_plan(&Plan::from_seed(seed))
}

pub fn run_plan(plan: &Plan) -> Result<Outcome> {
    let base = scratch_base();
    let tmp = tempfile::Builder::new()
        .prefix("cdc-sim-")
        .tempdir_in(&base)
        .map_err(|e| CdcError::io(&base, e))?;
    let db = tmp.path().join("db");
    let state = tmp.path().join("state");
    let out = tmp.path().join("out");
    let schema = tmp.path().join("schema.yaml");
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    // A per-call limit above what one chunk at its floor (`cdc.snapshot.chunk.rows` below
    // 1,000) and the probe that cuts it read: below it no chunk could be read.
    let mut env = plan.environment.clone();
    env.reads_per_call = env
        .reads_per_call
        .map(|n| n.max(u64::from(plan.chunk_rows) + 2));
    std::fs::write(&schema, world::schema_yaml(&mut rng, &env))
        .map_err(|e| CdcError::io(&schema, e))?;
    let clock = ManualClock::new(1_700_000_000_000);
    emulator::init(
        &db,
        &schema,
        Some(plan.seed),
        std::sync::Arc::new(clock.clone()),
    )?;
    let world = Rc::new(RefCell::new(World::open(
        &db,
        clock.clone(),
        ChaCha8Rng::seed_from_u64(rng.gen()),
    )?));
    world
        .borrow_mut()
        .set_create_table_every(plan.features.create_table_every);
    world.borrow_mut().set_lob_pct(plan.environment.lob_pct);
    let sender = Rc::new(RefCell::new(signals::Sender::new(
        &state,
        ChaCha8Rng::seed_from_u64(plan.seed ^ 0x5197_a15e_5e7d_0001),
    )));
    let settings = Settings::from_pairs(&plan.settings(&db, &state, &out))?;
    world.borrow_mut().set_scope(settings.clone());
    let counts = counting::Counts::default();
    // Outermost the container logic, as `source::open` puts it (a no-op outside a CDB).
    let faulty = ContainerConnector::new(
        Box::new(Counting {
            inner: EmulatorConnector::open_with_clock(
                &db,
                settings.emulator_faults(),
                std::sync::Arc::new(clock.clone()),
            )?,
            counts: counts.clone(),
        }),
        WantedPdbs::of(&settings),
    );
    let reader = EmulatorConnector::open_with_clock(
        &db,
        Faults::default(),
        std::sync::Arc::new(clock.clone()),
    )?;
    let live = Rc::new(RefCell::new(Live {
        interleave_pct: plan.interleave_pct,
        max_pending: u64::from(plan.max_pending.min(plan.threads)),
        needs_baseline: matches!(plan.mode, SnapshotMode::None | SnapshotMode::OnSignal),
        signal_pct: plan.features.signal_in_run_pct,
        lgwr_delay_ms: plan.environment.redo_write_delay_ms,
        ..Live::default()
    }));
    let paths = Paths {
        offsets: state.join("offsets.json"),
        out: out.clone(),
    };
    let mut fault_rng = ChaCha8Rng::seed_from_u64(plan.seed ^ 0x5eed_fa17);
    let mut later_rng = ChaCha8Rng::seed_from_u64(plan.seed ^ 0x07e7_1a95_0000_0001);
    let redo = db.join(emulator::redo::REDO_FILE);

    world.borrow_mut().run(plan.before)?;
    let mut failed_in_a_row = 0;
    let mut step = 0;
    let mut attempts = 0;
    while step < plan.steps {
        attempts += 1;
        if attempts > MAX_ATTEMPTS {
            live.borrow_mut().violations.push(format!(
                "no progress: {MAX_ATTEMPTS} engine runs did not reach {} target SCNs",
                plan.steps
            ));
            break;
        }
        let target = world.borrow().current_scn();
        // Maybe a crash at the k-th hit of a point, or a graceful stop after some polls.
        let crash = (fault_rng.gen_range(0..100) < plan.crash_pct).then(|| {
            let p = plan::CRASHABLE[fault_rng.gen_range(0..plan::CRASHABLE.len())];
            (p, fault_rng.gen_range(1..6))
        });
        // Runs the older draw left without a crash: one in eight (when the plan crashes at all)
        // crashes at a later point, from a stream of its own, so older seeds keep their crashes.
        let crash = crash.or_else(|| {
            (plan.crash_pct > 0 && later_rng.gen_range(0..8) == 0).then(|| {
                let later = plan::CRASHABLE_LATER;
                (
                    later[later_rng.gen_range(0..later.len())],
                    later_rng.gen_range(1..6),
                )
            })
        });
        let stop_after =
            (fault_rng.gen_range(0..100) < plan.stop_pct).then(|| fault_rng.gen_range(1..40u32));
        {
            let mut l = live.borrow_mut();
            l.plan_crash = crash;
            l.injected = false;
            l.interleave_left = plan.interleave_budget;
            l.hits.clear();
            l.chunks_in_wave = 0;
            l.empty_chunk = false;
        }
        // Signals waiting in the spool when the engine starts.
        {
            let tables = world.borrow().table_names();
            sender
                .borrow_mut()
                .maybe_send(plan.features.signal_pct, &tables)?;
        }
        live.borrow_mut().signal_left = plan.features.signal_budget;
        let redo_before = file_len(&redo);
        let result = {
            let _armed = crashpoint::arm(hook(
                live.clone(),
                world.clone(),
                sender.clone(),
                ChaCha8Rng::seed_from_u64(fault_rng.gen()),
                paths.clone(),
                reader.clone(),
            ));
            let polls = std::sync::atomic::AtomicU32::new(0);
            let stop = || {
                let n = polls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                stop_after.is_some_and(|limit| n > limit)
            };
            Capture {
                connector: &faulty,
                settings: &settings,
                progress: &NoProgress,
                stop: &stop,
                stop_at: Some(target),
            }
            .run()
        };
        // Read-only means read-only: only the simulation's own writer grew the redo.
        let wrote = world.borrow().writer_len_check(&redo, redo_before);
        if let Err(m) = wrote {
            live.borrow_mut()
                .violations
                .push(format!("invariant 8 (read-only): {m}"));
        }
        let mut l = live.borrow_mut();
        match result {
            Ok((crate::capture::CaptureEnd::ReachedScn(_), _)) => {
                failed_in_a_row = 0;
                step += 1;
                drop(l);
                let n = plan.batch(&mut fault_rng);
                world.borrow_mut().run(n)?;
            }
            Ok((crate::capture::CaptureEnd::Stopped, _)) => {
                l.outcome.count_fault("graceful stop");
                l.outcome.restarts += 1;
            }
            Err(CdcError::SimulatedCrash { .. }) => {
                l.outcome.crashes += 1;
                l.outcome.restarts += 1;
            }
            Err(_) if l.injected => {
                // The planned sink failure itself: the engine did what it must (stop without
                // acknowledging); it says nothing about progress.
                l.outcome.restarts += 1;
            }
            Err(e) => {
                // A fault the engine gave up on (a connection lost past its retries, a chunk
                // that stayed too old): the operator's restart follows. Only these count
                // towards "no progress": the harness's own failures are not the engine's.
                l.outcome.restarts += 1;
                l.outcome
                    .count_fault(&format!("engine exit with {}", e.code().info().code));
                failed_in_a_row += 1;
                if failed_in_a_row > MAX_FAILED_ATTEMPTS {
                    l.violations.push(format!(
                        "no progress: {MAX_FAILED_ATTEMPTS} restarts in a row failed, last with {e}"
                    ));
                    break;
                }
            }
        }
    }
    // The end: every transaction closes and a fault-free run catches up (a resume-snapshot
    // first, so that no snapshot stays paused).
    world.borrow_mut().close_longs()?;
    if sender.borrow().total() > 0 {
        sender.borrow_mut().resume()?;
    }
    let end = world.borrow().current_scn();
    let clean_emulator = EmulatorConnector::open_with_clock(
        &db,
        Faults::default(),
        std::sync::Arc::new(clock.clone()),
    )?;
    let clean =
        ContainerConnector::new(Box::new(clean_emulator.clone()), WantedPdbs::of(&settings));
    // A table created just before the final SCN has its snapshot stored for the next start
    // (as at any --stop-at-scn): one more fault-free run takes it.
    for _ in 0..3 {
        let final_run = {
            let _armed = crashpoint::arm(hook(
                live.clone(),
                world.clone(),
                sender.clone(),
                ChaCha8Rng::seed_from_u64(0),
                paths.clone(),
                reader.clone(),
            ));
            let mut l = live.borrow_mut();
            l.plan_crash = None;
            l.interleave_pct = 0;
            l.signal_left = 0;
            drop(l);
            Capture {
                connector: &clean,
                settings: &settings,
                progress: &NoProgress,
                stop: &|| false,
                stop_at: Some(end),
            }
            .run()
        };
        if let Err(e) = final_run {
            live.borrow_mut()
                .violations
                .push(format!("the final fault-free run failed: {e}"));
            break;
        }
        if !signals::snapshot_stored(&state) {
            break;
        }
    }
    let mut l = live.borrow_mut();
    let world = world.borrow();
    l.outcome.world = world.counts.clone();
    {
        let sender = sender.borrow();
        let (processed, rejected, mut wrong) = signals::check_end(&state, sender.total());
        let f = &mut l.outcome.features;
        for (k, n) in &sender.sent {
            *f.entry(format!("signal sent: {k}")).or_default() += n;
        }
        *f.entry("signal files processed".into()).or_default() += processed;
        *f.entry("signal files rejected".into()).or_default() += rejected;
        *f.entry(format!("mode: {}", plan.mode_name())).or_default() += 1;
        if plan.redo_forms.unescaped_quotes {
            *f.entry("SQL_REDO with undoubled quotes".into())
                .or_default() += 1;
        }
        if plan.redo_forms.dictionary_mismatch {
            *f.entry("SQL_REDO with COL n names".into()).or_default() += 1;
        }
        if plan.redo_forms.unknown_objects {
            *f.entry("SQL_REDO of unknown objects (OBJ# n)".into())
                .or_default() += 1;
        }
        let env = &plan.environment;
        *f.entry(format!("PDBs: {}", env.pdbs)).or_default() += 1;
        if env.busy_schema {
            *f.entry("busy uncaptured schema".into()).or_default() += 1;
        }
        if env.lob_table {
            *f.entry("LOB-like table".into()).or_default() += 1;
        }
        if env.reads_per_call.is_some() {
            *f.entry("per-call read limit".into()).or_default() += 1;
        }
        if env.redo_write_delay_ms > 0 {
            *f.entry("redo written late (LGWR delay)".into())
                .or_default() += 1;
        }
        if env.host_utc_offset != "+00:00" {
            *f.entry("host clock not UTC".into()).or_default() += 1;
        }
        let t = &plan.transients;
        if t.restart_every > 0 {
            *f.entry("database restarts".into()).or_default() += 1;
        }
        if !t.ora01368_mines.is_empty() || !t.ora01291_mines.is_empty() {
            *f.entry("logs switched or missing under LogMiner".into())
                .or_default() += 1;
        }
        let waits = l.redo_waits;
        *l.outcome
            .features
            .entry("waits for redo".into())
            .or_default() += waits;
        // Windows, chunks and probes cut at the capture user's per-call limit (CDC-5017).
        let cut = crate::ops::read_events(&state.join("ops.jsonl"))
            .unwrap_or_default()
            .iter()
            .filter(|e| e["code"] == "CDC-5017")
            .count() as u64;
        *l.outcome
            .features
            .entry("reads cut at a per-call limit".into())
            .or_default() += cut;
        l.violations.append(&mut wrong);
    }
    if let Ok(c) = counts.lock() {
        for (k, n) in c.iter() {
            *l.outcome.faults.entry(k.clone()).or_default() += n;
        }
    }
    if l.violations.is_empty() {
        match l.start {
            None => l.violations.push("the offsets were never written".into()),
            Some(start) => {
                let baseline = l.baseline.take().unwrap_or_default();
                let mut found = check::check(
                    &clean_emulator,
                    &db,
                    &out,
                    &paths.offsets,
                    (start, end),
                    baseline,
                    &settings,
                )?;
                l.outcome.records = found.records;
                l.violations.append(&mut found.violations);
            }
        }
    }
    if std::env::var_os("CDC_SIM_KEEP").is_some() {
        eprintln!("files kept in {}", tmp.keep().display());
    }
    let mut outcome = std::mem::take(&mut l.outcome);
    outcome.seed = plan.seed;
    outcome.violations = std::mem::take(&mut l.violations);
    outcome.runs = 1;
    Ok(outcome)
}

/// The hook armed during the engine's runs: runs workload at crash points, checks the offsets
/// each time they are replaced and the chunks held per wave, and crashes where planned.
#[derive(Clone)]
struct Paths {
    offsets: PathBuf,
    out: PathBuf,
}

fn hook(
    live: Rc<RefCell<Live>>,
    world: Rc<RefCell<World>>,
    sender: Rc<RefCell<signals::Sender>>,
    mut rng: ChaCha8Rng,
    paths: Paths,
    reader: EmulatorConnector,
) -> impl FnMut(Point) -> Result<()> {
    move |point| {
        if point == Point::PublisherWaitingForRedo {
            // Time passes while capture waits: for LGWR's timed write, and for an idle
            // thread's written position to stand still long enough (`source::threads`).
            // A tenth of the period a wait (at least 50 ms): an idle thread is told from a busy
            // one after ten waits.
            let mut l = live.borrow_mut();
            if l.lgwr_delay_ms > 0 {
                let step = i64::try_from(l.lgwr_delay_ms / 10).unwrap_or(i64::MAX);
                world.borrow().clock.advance(step.max(50));
            }
            l.redo_waits += 1;
            return Ok(());
        }
        if point == Point::PublisherChunkEmpty {
            live.borrow_mut().empty_chunk = true;
            return Ok(());
        }
        let mut l = live.borrow_mut();
        let n = {
            let c = l.hits.entry(point).or_default();
            *c += 1;
            *c
        };
        match point {
            Point::PublisherWave => l.chunks_in_wave = 0,
            Point::PublisherChunkCommitted | Point::PublisherChunkWritten => {
                l.chunks_in_wave += u64::from(!std::mem::take(&mut l.empty_chunk));
                if l.chunks_in_wave > l.max_pending {
                    let m = format!(
                        "invariant 7 (bounded memory): {} chunks with rows published in one wave, more than the {} cdc.snapshot.max.pending.chunks/threads allow",
                        l.chunks_in_wave, l.max_pending
                    );
                    l.violations.push(m);
                }
            }
            Point::AtomicWriteRenamed => {
                if let Some(m) =
                    check::offsets_step(&paths.offsets, &paths.out, &mut l.last_offsets)
                {
                    l.violations.push(format!("invariant 6 (offsets): {m}"));
                }
                if l.start.is_none() {
                    l.start = l
                        .last_offsets
                        .as_ref()
                        .and_then(|o| o.stream.as_ref())
                        .map(|s| s.commit_scn + 1);
                    if let (Some(start), true) = (l.start, l.needs_baseline) {
                        let w = world.borrow();
                        let scope = w.scope().ok_or_else(|| {
                            CdcError::Database("the simulation's world has no settings".into())
                        })?;
                        l.baseline = Some(check::contents(&reader, start - 1, scope)?);
                    }
                }
            }
            _ => {}
        }
        // Until the stream's start is stored, nothing may change (mode none's consumer starts
        // from the tables as of then).
        let settled = l.start.is_some() || !l.needs_baseline;
        // Not per record: the workload would outgrow the snapshot reading it.
        if settled
            && point != Point::SinkWrite
            && l.interleave_left > 0
            && rng.gen_range(0..100) < l.interleave_pct
        {
            let k = rng.gen_range(1..4u32).min(l.interleave_left);
            l.interleave_left -= k;
            l.outcome.interleaved += 1;
            drop(l);
            world.borrow_mut().run(u64::from(k))?;
            l = live.borrow_mut();
        }
        // A signal arrives while the engine runs (between waves, during the stream).
        if point != Point::SinkWrite && l.signal_left > 0 && rng.gen_range(0..100) < l.signal_pct {
            l.signal_left -= 1;
            drop(l);
            let tables = world.borrow().table_names();
            sender.borrow_mut().send_random(&tables)?;
            l = live.borrow_mut();
        }
        if l.plan_crash == Some((point, n)) {
            l.plan_crash = None;
            let e = plan::crash_error(point, &paths.out);
            let kind = match &e {
                CdcError::SimulatedCrash { .. } => format!("crash at {point}"),
                _ if point == Point::SinkCommitSynced => "sink written, not acknowledged".into(),
                _ => format!("sink write failure at {point}"),
            };
            l.injected = !matches!(e, CdcError::SimulatedCrash { .. });
            l.outcome.count_fault(&kind);
            return Err(e);
        }
        Ok(())
    }
}

fn file_len(p: &Path) -> u64 {
    std::fs::metadata(p).map(|m| m.len()).unwrap_or(0)
}

/// Where runs keep their files: memory-backed /dev/shm when there is one (the engine fsyncs
/// after every chunk and window), else the system temp directory.
fn scratch_base() -> PathBuf {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() && tempfile::tempdir_in(shm).is_ok() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

impl World {
    /// Fails when the redo grew during an engine run by more than the simulation's own writes.
    fn writer_len_check(&self, redo: &Path, _before: u64) -> std::result::Result<(), String> {
        let on_disk = file_len(redo);
        let ours = self.redo_len;
        if on_disk != ours {
            return Err(format!(
                "the redo file is {on_disk} bytes but the simulation's writer wrote {ours}: something else wrote to the source"
            ));
        }
        Ok(())
    }
}
