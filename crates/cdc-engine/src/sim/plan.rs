//! What a seed decides before anything runs: settings, fault rates and the run's shape.

use crate::crashpoint::Point;
use crate::errors::CdcError;
use crate::settings::SnapshotMode;
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// The crash points a capture run passes (the export's belongs to the `snapshot` command).
/// A seed draws one by its index here: the order is part of every seed's plan, so a point is
/// never inserted or moved, only added to a list drawn from a stream of its own (below).
pub const CRASHABLE: &[Point] = &[
    Point::SinkWrite,
    Point::SinkCommitFlushed,
    Point::SinkCommitSynced,
    Point::AtomicWriteTempWritten,
    Point::AtomicWriteTempSynced,
    Point::AtomicWriteRenamed,
    Point::AtomicWriteDirSynced,
    Point::PublisherWave,
    Point::PublisherWindowMined,
    Point::PublisherChunkCommitted,
    Point::SnapshotChunkPublished,
    Point::CaptureOffsetsSaved,
];

/// Crash points added later, drawn from a stream of their own (so older seeds keep their
/// crashes): the next wave being read while the last is half published; a chunk written but not
/// committed, the rest of its wave still to come.
pub const CRASHABLE_LATER: &[Point] =
    &[Point::SnapshotWaveOverlapped, Point::PublisherChunkWritten];

#[derive(Debug, Clone)]
pub struct Plan {
    pub seed: u64,
    pub mode: SnapshotMode,
    pub chunk_rows: u32,
    pub threads: u32,
    pub max_pending: u32,
    pub window_scn: u64,
    pub buffer_bytes: u64,
    pub segment_bytes: u64,
    pub drop_per_mille: u32,
    pub connect_fail_every: u32,
    pub ora01555_reads: Vec<u64>,
    pub read_delay_ms: u64,
    /// Chance (percent) that an engine run is planned to crash at some point.
    pub crash_pct: u32,
    /// Chance (percent) that an engine run is stopped gracefully after some polls.
    pub stop_pct: u32,
    /// Chance (percent) that the workload runs at a crash point during an engine run.
    pub interleave_pct: u32,
    /// Workload transactions allowed inside one engine run (the snapshot must end).
    pub interleave_budget: u32,
    /// Workload transactions before the first run.
    pub before: u64,
    /// Engine runs that must reach their target SCN.
    pub steps: u32,
    /// What is drawn from the second stream (features added later, so that older seeds keep
    /// the plans above).
    pub features: Features,
    /// SQL_REDO forms LogMiner writes wrong, drawn from a stream of their own.
    pub redo_forms: RedoForms,
    /// The database's shape, drawn from a third stream.
    pub environment: Environment,
    /// Transient failures a production database gives, drawn from a stream of their own.
    pub transients: Transients,
}

/// What a production database does to capture every day and capture must ride out (issue 35
/// item 4): the database restarting (every Nth call all sessions end: ORA-01089 for the call,
/// ORA-03113 for the others; down 0 ms so the seed replays the same), an online log recycled
/// under LogMiner (ORA-01368) and a log list read while a log was archived (ORA-01291 within
/// the retained logs). Counted by call and window ordinals, so a seed replays exactly.
#[derive(Debug, Clone, Default)]
pub struct Transients {
    /// `cdc.emulator.fault.restart.every` (0: never).
    pub restart_every: u32,
    /// `cdc.emulator.fault.ora01368.mines` / `.ora01291.mines`: window ordinals.
    pub ora01368_mines: Vec<u64>,
    pub ora01291_mines: Vec<u64>,
}

impl Transients {
    fn draw(seed: u64) -> Transients {
        let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x7a45_1e47_0ff1_ce5d);
        let ordinals = |r: &mut ChaCha8Rng| -> Vec<u64> {
            match r.gen_range(0..3) {
                0 => Vec::new(),
                _ => {
                    let mut v: Vec<u64> =
                        (0..r.gen_range(1..4)).map(|_| r.gen_range(1..40)).collect();
                    v.sort_unstable();
                    v.dedup();
                    v
                }
            }
        };
        Transients {
            restart_every: [0, 0, 150, 400][r.gen_range(0..4)],
            ora01368_mines: ordinals(&mut r),
            ora01291_mines: ordinals(&mut r),
        }
    }

    fn settings(&self) -> Vec<String> {
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        let mut s = Vec::new();
        if self.restart_every > 0 {
            s.push(format!(
                "cdc.emulator.fault.restart.every={}",
                self.restart_every
            ));
            s.push("cdc.emulator.fault.restart.ms=0".into());
        }
        if !self.ora01368_mines.is_empty() {
            s.push(format!(
                "cdc.emulator.fault.ora01368.mines={}",
                list(&self.ora01368_mines)
            ));
        }
        if !self.ora01291_mines.is_empty() {
            s.push(format!(
                "cdc.emulator.fault.ora01291.mines={}",
                list(&self.ora01291_mines)
            ));
        }
        s
    }
}

/// The shape of the simulated database, drawn from a stream of its own (added after
/// [`Features`]): a container database with one or two PDBs, and a busy schema capture leaves
/// out. The default is the shape every seed had before.
#[derive(Debug, Clone)]
pub struct Environment {
    /// 0: not a CDB; 1: every table in PDB1; 2: ACCOUNTS in PDB1, the others in PDB2.
    pub pdbs: u8,
    /// A table `BATCH.JOBS` the workload changes and `cdc.tables.exclude` leaves out.
    pub busy_schema: bool,
    /// Its initial rows.
    pub busy_rows: u64,
    /// `database.redo_write_delay_ms`: LGWR's timed write (0: every record written at once).
    pub redo_write_delay_ms: u64,
    /// `database.host_utc_offset`: the host's clock, which LogMiner's times are in.
    pub host_utc_offset: &'static str,
    /// A table `SHOP.DOCS` with CLOB, BLOB, JSON, XMLTYPE and extended VARCHAR2 columns (the
    /// database with ENABLE_GOLDENGATE_REPLICATION and MAX_STRING_SIZE=EXTENDED), so every
    /// redo form of a LOB-like value is drawn; from a stream of its own (added later).
    pub lob_table: bool,
    /// Its initial rows.
    pub lob_rows: u64,
    /// The workload's `lob_pct`: values past what a row keeps (locators, LOB_WRITE pieces,
    /// XML DOC and 32K rows).
    pub lob_pct: u8,
    /// The capture user's LOGICAL_READS_PER_CALL (`users[].logical_reads_per_call`): mining
    /// windows, key probes and chunk reads past it are ended with ORA-02395 (CDC-5017) and
    /// capture reads less at a time; from a stream of its own (added later).
    pub reads_per_call: Option<u64>,
}

impl Default for Environment {
    /// The shape seeds had before environments were drawn.
    fn default() -> Self {
        Environment {
            pdbs: 0,
            busy_schema: false,
            busy_rows: 0,
            redo_write_delay_ms: 0,
            host_utc_offset: "+00:00",
            lob_table: false,
            lob_rows: 0,
            lob_pct: 0,
            reads_per_call: None,
        }
    }
}

impl Environment {
    fn draw(seed: u64) -> Environment {
        let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0xc0ff_ee00_0db5_e0a1);
        Environment {
            pdbs: [0, 0, 1, 2][r.gen_range(0..4)],
            busy_schema: r.gen_range(0..3) == 0,
            busy_rows: r.gen_range(0..80),
            redo_write_delay_ms: [0, 0, 0, 40, 300, 3000][r.gen_range(0..6)],
            host_utc_offset: ["+00:00", "+00:00", "+05:30", "-08:00", "+13:45"][r.gen_range(0..5)],
            reads_per_call: Environment::draw_reads_per_call(seed),
            ..Environment::draw_lobs(seed)
        }
    }

    /// One seed in three: a limit mining windows of many SCNs and a wave's key probes pass
    /// (raised above what one chunk at its floor reads when the schema is written).
    fn draw_reads_per_call(seed: u64) -> Option<u64> {
        let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x0ca1_1111_7e57_0d0e);
        (r.gen_range(0..3) == 0).then(|| [30, 60, 200][r.gen_range(0..3)])
    }

    fn draw_lobs(seed: u64) -> Environment {
        let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x10b5_0f0c_1a55_0b1d);
        Environment {
            lob_table: r.gen_range(0..3) == 0,
            lob_rows: r.gen_range(0..40),
            lob_pct: [0, 10, 30, 60][r.gen_range(0..4)],
            ..Environment::default()
        }
    }

    /// The schema name of a table of the seed's schema (`SHOP.ACCOUNTS` …) in this shape.
    pub fn table_name(&self, owner_table: &str) -> String {
        match self.pdbs {
            0 => owner_table.to_string(),
            1 => format!("PDB1.{owner_table}"),
            _ if owner_table == "SHOP.ACCOUNTS" || owner_table.starts_with("BATCH.") => {
                format!("PDB1.{owner_table}")
            }
            _ => format!("PDB2.{owner_table}"),
        }
    }
}

/// Signals, CREATE TABLE and the other snapshot modes: drawn from a stream of their own.
#[derive(Debug, Clone, Default)]
pub struct Features {
    /// Chance (percent) that signals are sent into the spool before an engine run.
    pub signal_pct: u32,
    /// Chance (percent) that a signal is sent at a crash point during an engine run.
    pub signal_in_run_pct: u32,
    /// Signals allowed during one engine run.
    pub signal_budget: u32,
    /// cdc.signal.concurrent=queue (else reject).
    pub queue: bool,
    /// CREATE TABLE every N workload transactions (0: never).
    pub create_table_every: u64,
    /// cdc.snapshot.new.tables=auto (else signal).
    pub new_tables_auto: bool,
}

impl Features {
    fn draw(seed: u64) -> (Features, Option<SnapshotMode>, Option<u32>) {
        let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x51a9_a15e_c0de_f00d);
        let pick = |r: &mut ChaCha8Rng, xs: &[u64]| xs[r.gen_range(0..xs.len())];
        let mode = match r.gen_range(0..8) {
            0 => Some(SnapshotMode::SnapshotOnly),
            1 | 2 => Some(SnapshotMode::OnSignal),
            _ => None,
        };
        let f = Features {
            signal_pct: pick(&mut r, &[0, 20, 50]) as u32,
            signal_in_run_pct: pick(&mut r, &[0, 2, 10]) as u32,
            signal_budget: r.gen_range(1..4),
            queue: r.gen_range(0..2) == 0,
            create_table_every: pick(&mut r, &[0, 0, 4, 9]),
            new_tables_auto: r.gen_range(0..2) == 0,
        };
        // Connects are retried now, so failed connects may meet dropped connections.
        let drops = (r.gen_range(0..2) == 0).then(|| pick(&mut r, &[5, 20]) as u32);
        (f, mode, drops)
    }
}

impl Plan {
    /// The seed's plan: [`Plan::featured`] in the [`Environment`] of its third stream.
    pub fn from_seed(seed: u64) -> Plan {
        let mut p = Plan::featured(seed);
        p.environment = Environment::draw(seed);
        p.redo_forms = RedoForms::draw(seed);
        p.transients = Transients::draw(seed);
        p
    }

    /// [`Plan::classic`] with the [`Features`] of its second stream, on the database shape every
    /// seed had before environments were drawn (regression seeds found then replay with it).
    pub fn featured(seed: u64) -> Plan {
        let mut p = Plan::classic(seed);
        let (features, mode, drops) = Features::draw(seed);
        p.features = features;
        if let Some(m) = mode {
            p.mode = m;
        }
        if p.connect_fail_every > 0 {
            p.drop_per_mille = drops.unwrap_or(0);
        }
        p
    }

    /// The plan as seeds drew it before signals, CREATE TABLE and the other snapshot modes
    /// were simulated (regression seeds found then replay with it).
    pub fn classic(seed: u64) -> Plan {
        let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
        let pick = |r: &mut ChaCha8Rng, xs: &[u64]| xs[r.gen_range(0..xs.len())];
        let faults = r.gen_range(0..4) > 0;
        let refuse = faults && r.gen_range(0..5) == 0;
        Plan {
            seed,
            mode: if r.gen_range(0..4) == 0 {
                SnapshotMode::None
            } else {
                SnapshotMode::Initial
            },
            chunk_rows: pick(&mut r, &[3, 7, 16, 40, 200]) as u32,
            threads: r.gen_range(1..4),
            max_pending: r.gen_range(1..5),
            window_scn: pick(&mut r, &[1, 5, 20, 500]),
            buffer_bytes: pick(&mut r, &[1024, 4096, 1 << 20]),
            segment_bytes: pick(&mut r, &[4096, 9000, 1 << 20]),
            // Drops alongside failed connects come from the second stream (below).
            drop_per_mille: if faults && !refuse {
                pick(&mut r, &[0, 5, 20]) as u32
            } else {
                0
            },
            connect_fail_every: if refuse {
                pick(&mut r, &[5, 9]) as u32
            } else {
                0
            },
            ora01555_reads: if faults && r.gen_range(0..2) == 0 {
                (0..r.gen_range(1..3)).map(|_| r.gen_range(1..30)).collect()
            } else {
                Vec::new()
            },
            read_delay_ms: if faults && r.gen_range(0..8) == 0 {
                1
            } else {
                0
            },
            crash_pct: if faults {
                pick(&mut r, &[30, 60, 90]) as u32
            } else {
                0
            },
            stop_pct: if faults {
                pick(&mut r, &[0, 10]) as u32
            } else {
                0
            },
            interleave_pct: pick(&mut r, &[0, 5, 20, 50]) as u32,
            interleave_budget: r.gen_range(5..40),
            before: r.gen_range(0..6),
            steps: r.gen_range(1..5),
            features: Features::default(),
            redo_forms: RedoForms::default(),
            environment: Environment::default(),
            transients: Transients::default(),
        }
    }

    /// Workload transactions between two engine runs.
    pub fn batch(&self, r: &mut ChaCha8Rng) -> u64 {
        r.gen_range(0..12)
    }

    /// `cdc.snapshot.mode` as the settings spell it.
    pub fn mode_name(&self) -> &'static str {
        match self.mode {
            SnapshotMode::None => "none",
            SnapshotMode::Initial => "initial",
            SnapshotMode::SnapshotOnly => "snapshot_only",
            SnapshotMode::OnSignal => "on_signal",
        }
    }

    pub fn settings(&self, db: &Path, state: &Path, out: &Path) -> Vec<String> {
        let mode = self.mode_name();
        let reads = self
            .ora01555_reads
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let mut s = vec![
            format!("cdc.database.url=emulator:{}", db.display()),
            format!("cdc.state.dir={}", state.display()),
            format!("cdc.sink.dir={}", out.display()),
            format!("cdc.snapshot.mode={mode}"),
            format!("cdc.snapshot.chunk.rows={}", self.chunk_rows),
            format!("cdc.snapshot.threads={}", self.threads),
            format!("cdc.snapshot.max.pending.chunks={}", self.max_pending),
            format!("cdc.stream.window.scn={}", self.window_scn),
            format!("cdc.stream.buffer.memory.bytes={}", self.buffer_bytes),
            format!("cdc.sink.segment.bytes={}", self.segment_bytes),
            "cdc.stream.poll.ms=10".into(),
            // Connect retries as configured by default, with waits short enough for a soak.
            "cdc.database.connect.backoff.ms=1".into(),
            "cdc.database.connect.backoff.max.ms=8".into(),
            "cdc.heartbeat.interval.ms=0".into(),
            // The checks name tables by their topics.
            "cdc.topic.include.pdb=true".into(),
            "cdc.metrics.interval.ms=0".into(),
            format!("cdc.emulator.fault.seed={}", self.seed),
            format!("cdc.emulator.fault.drop.per.mille={}", self.drop_per_mille),
            format!(
                "cdc.emulator.fault.connect.fail.every={}",
                self.connect_fail_every
            ),
            format!("cdc.emulator.fault.read.delay.ms={}", self.read_delay_ms),
            "cdc.signal.enabled.channels=file".into(),
            "cdc.signal.poll.ms=10".into(),
            format!(
                "cdc.signal.concurrent={}",
                if self.features.queue {
                    "queue"
                } else {
                    "reject"
                }
            ),
            format!(
                "cdc.snapshot.new.tables={}",
                if self.features.new_tables_auto {
                    "auto"
                } else {
                    "signal"
                }
            ),
        ];
        s.extend(self.redo_forms.settings());
        s.extend(self.transients.settings());
        if !reads.is_empty() {
            s.push(format!("cdc.emulator.fault.ora01555.reads={reads}"));
        }
        if self.environment.busy_schema {
            s.push("cdc.tables.exclude=BATCH.*".into());
        }
        s
    }
}

/// The error a planned fault at `point` raises: sink points fail like a full disk (the write,
/// or the acknowledgement after the bytes are written); the others crash.
pub fn crash_error(point: Point, out: &Path) -> CdcError {
    match point {
        Point::SinkWrite | Point::SinkCommitFlushed | Point::SinkCommitSynced => CdcError::io(
            out,
            std::io::Error::other(format!("injected sink failure at {point}")),
        ),
        _ => CdcError::SimulatedCrash {
            point: point.name().to_string(),
        },
    }
}

/// SQL_REDO as a real LogMiner sometimes writes it (see `source::emulator::redo_faults`): string
/// values with undoubled quotes, `COL n` names with storage bytes after a dictionary
/// mismatch, and a table named `UNKNOWN`.`OBJ# n` as of an object the dictionary does not know.
/// Drawn from a stream of their own, so older seeds keep their plans.
#[derive(Debug, Clone, Default)]
pub struct RedoForms {
    /// Every SHOP table's values with undoubled quotes.
    pub unescaped_quotes: bool,
    /// SHOP.ORDERS's changes as after a dictionary mismatch.
    pub dictionary_mismatch: bool,
    /// SHOP.ACCOUNTS's changes as of an object LogMiner's dictionary does not know
    /// (`UNKNOWN`.`OBJ# n`, `COL n` names).
    pub unknown_objects: bool,
}

impl RedoForms {
    fn draw(seed: u64) -> RedoForms {
        let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x0dd5_ea1e_d0c0_1a75);
        RedoForms {
            unescaped_quotes: r.gen_range(0..4) == 0,
            dictionary_mismatch: r.gen_range(0..4) == 0,
            // Drawn after the others: their draws stay as they were.
            unknown_objects: r.gen_range(0..4) == 0,
        }
    }

    fn settings(&self) -> Vec<String> {
        let mut s = Vec::new();
        if self.unescaped_quotes {
            s.push("cdc.emulator.fault.unescaped.quotes.tables=SHOP.*".into());
        }
        if self.dictionary_mismatch {
            s.push("cdc.emulator.fault.dictionary.mismatch.tables=SHOP.ORDERS".into());
        }
        if self.unknown_objects {
            s.push("cdc.emulator.fault.unknown.objects.tables=SHOP.ACCOUNTS".into());
        }
        s
    }
}

#[cfg(test)]
mod redo_forms_tests {
    use super::*;

    #[test]
    fn the_quick_sets_draw_each_redo_form_and_older_plans_keep_theirs() {
        let plans: Vec<Plan> = (1000..1200).map(Plan::from_seed).collect();
        let quotes = plans
            .iter()
            .filter(|p| p.redo_forms.unescaped_quotes)
            .count();
        let col_n = plans
            .iter()
            .filter(|p| p.redo_forms.dictionary_mismatch)
            .count();
        let unknown = plans
            .iter()
            .filter(|p| p.redo_forms.unknown_objects)
            .count();
        assert!(
            quotes > 20 && col_n > 20 && unknown > 20,
            "{quotes} {col_n} {unknown}"
        );
        let p = plans
            .iter()
            .find(|p| p.redo_forms.unescaped_quotes)
            .unwrap();
        assert!(p
            .settings(Path::new("db"), Path::new("s"), Path::new("o"))
            .contains(&"cdc.emulator.fault.unescaped.quotes.tables=SHOP.*".to_string()));
        // The regression seeds' plans (classic, featured) have none.
        assert!(!Plan::featured(2).redo_forms.unescaped_quotes);
        assert!(!Plan::classic(7).redo_forms.dictionary_mismatch);
        assert!(!Plan::classic(7).redo_forms.unknown_objects);
    }
}

#[cfg(test)]
mod crashable_tests {
    use super::*;

    /// A seed draws its crash point by index into these lists, so a seed replays the same run
    /// only while they keep the names and order they had as strings (written out here).
    #[test]
    fn the_crashable_lists_keep_their_names_and_order() {
        let names = |l: &[Point]| l.iter().map(|p| p.name()).collect::<Vec<_>>();
        assert_eq!(
            names(CRASHABLE),
            [
                "sink.write",
                "sink.commit.flushed",
                "sink.commit.synced",
                "atomic_write.temp_written",
                "atomic_write.temp_synced",
                "atomic_write.renamed",
                "atomic_write.dir_synced",
                "publisher.wave",
                "publisher.window.mined",
                "publisher.chunk.committed",
                "snapshot.chunk.published",
                "capture.offsets.saved",
            ]
        );
        assert_eq!(
            names(CRASHABLE_LATER),
            ["snapshot.wave.overlapped", "publisher.chunk.written"]
        );
        // The two lists never draw the same point, nor one that is not a crash point.
        for p in CRASHABLE.iter().chain(CRASHABLE_LATER) {
            assert!(!matches!(
                p,
                Point::PublisherWaitingForRedo | Point::PublisherChunkEmpty
            ));
            assert_eq!(
                CRASHABLE
                    .iter()
                    .chain(CRASHABLE_LATER)
                    .filter(|q| *q == p)
                    .count(),
                1,
                "{p}"
            );
        }
    }

    /// Sink points fail like a full disk, the others crash; both name the point as before.
    #[test]
    fn crash_error_names_the_point_by_its_dotted_name() {
        let out = Path::new("out");
        let e = crash_error(Point::SinkCommitFlushed, out);
        assert!(!matches!(e, CdcError::SimulatedCrash { .. }), "{e}");
        assert!(
            e.to_string()
                .contains("injected sink failure at sink.commit.flushed"),
            "{e}"
        );
        match crash_error(Point::AtomicWriteRenamed, out) {
            CdcError::SimulatedCrash { point } => assert_eq!(point, "atomic_write.renamed"),
            e => panic!("not a simulated crash: {e}"),
        }
    }
}
