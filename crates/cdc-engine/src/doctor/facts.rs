//! What the checks judge, gathered once: one session through the [`Session`] trait, the
//! stored offsets, and each captured table's resolution by the snapshot's own rules.

use crate::errors::{CdcError, Code};
use crate::names::TableName;
use crate::offsets::Offsets;
use crate::settings::{Settings, SnapshotMode};
use crate::snapshot::target::{self, Decision};
use crate::state::StateDir;
use cdc_core::model::*;
use cdc_core::session::prelude::*;
use std::path::PathBuf;

/// A fact, or why it is unknown.
pub type Fact<T> = Result<T, String>;

/// What is on the other end of `cdc.database.url`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    Emulator,
    Oracle,
}

/// How connecting went.
#[derive(Debug)]
pub enum Connect {
    Connected,
    /// The settings do not allow a connection attempt (no URL, no user, no password, no such
    /// emulated database).
    NotTried(CdcError),
    /// The attempt failed.
    Failed(CdcError),
}

/// One captured table and what the snapshot would do with it.
#[derive(Debug)]
pub struct Resolved {
    pub info: TableInfo,
    pub outcome: Result<Decision, CdcError>,
    /// For a `cdc.key` listed in cdc.key.unchecked: two equal keys found among the first
    /// [`KEY_SAMPLE_ROWS`] in key order (`Some`, described), none (`None`), or why no sample.
    pub key_sample: Option<Fact<Option<String>>>,
}

/// Keys doctor reads to look for a duplicate of a `cdc.key` taken on the operator's word.
pub const KEY_SAMPLE_ROWS: u32 = 10_000;

/// Two equal adjacent keys among the first [`KEY_SAMPLE_ROWS`] of `columns` in key order.
fn sample_duplicate(
    session: &mut dyn Session,
    t: &target::TableTarget,
    columns: &[String],
    scn: Fact<Scn>,
) -> Fact<Option<String>> {
    if let Some(c) = columns
        .iter()
        .filter_map(|c| t.info.column(c))
        .find(|c| !c.data_type.is_chunkable_key())
    {
        return Err(format!(
            "not sampled: column {} has type {}, which cannot be ordered",
            c.name,
            c.data_type.sql_name()
        ));
    }
    let q = BoundaryQuery {
        table: t.info.name.clone(),
        key_columns: columns.to_vec(),
        scn: scn?,
        lower: None,
        step: 1,
        count: KEY_SAMPLE_ROWS,
    };
    let keys = fact(session.key_boundaries(&q))?;
    let show = |k: &[crate::types::Value]| {
        columns
            .iter()
            .zip(k)
            .map(|(c, v)| format!("{c}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // In key order, equal keys are neighbours.
    if let Some(w) = keys
        .windows(2)
        .find(|w| crate::types::compare_keys(&w[0], &w[1]).is_eq())
    {
        return Ok(Some(format!(
            "rows share the key {} (in a sample of {} keys)",
            show(&w[0]),
            keys.len()
        )));
    }
    Ok(keys
        .iter()
        .find(|k| k.iter().any(|v| v.is_null()))
        .map(|k| {
            format!(
                "a row has the NULL key {} (in a sample of {} keys)",
                show(k),
                keys.len()
            )
        }))
}

impl Resolved {
    /// The chunking decision when the table is captured.
    pub fn target(&self) -> Option<&target::TableTarget> {
        match &self.outcome {
            Ok(Decision::Capture(t)) => Some(t),
            _ => None,
        }
    }
}

/// Everything the checks look at.
#[derive(Debug)]
pub struct Facts {
    pub settings: Settings,
    pub kind: SourceKind,
    /// What was checked; never contains a password.
    pub target: String,
    /// When gathering started.
    pub gathered_at: chrono::DateTime<chrono::Utc>,
    pub connect: Connect,
    /// The warning the database gave with the login (ORA-28002: the password is in its grace
    /// period), if any.
    pub login_warning: Fact<Option<LoginWarning>>,
    pub db: Fact<DatabaseInfo>,
    /// The grants in effect where the session lands (CDB$ROOT in root mode, the PDB in per-PDB
    /// mode).
    pub privileges: Fact<Privileges>,
    /// Root mode: the grants in effect inside each PDB of a captured table, read there (ALTER
    /// SESSION SET CONTAINER, the same call, back to the root): a PDB's local grants and grants
    /// on its tables do not show in CDB$ROOT. Empty in other modes.
    pub pdb_privileges: std::collections::BTreeMap<String, Fact<Privileges>>,
    /// The supplemental logging each PDB of a captured table enabled itself
    /// (DBA_SUPPLEMENTAL_LOGGING, 12.2+), read inside it as its grants are (root mode), or
    /// where the session is (per-PDB mode). `Ok(None)`: not read (before 12.2, no PDB).
    pub pdb_supplemental: std::collections::BTreeMap<String, Fact<Option<PdbSupplementalLogging>>>,
    /// Root mode: each captured PDB's character sets, read inside it (NLS_DATABASE_PARAMETERS
    /// is the container's; an AL32UTF8 CDB may hold PDBs of another database set). Empty in
    /// other modes.
    pub pdb_charsets: std::collections::BTreeMap<String, Fact<crate::charset::Charsets>>,
    /// Every user table of the database.
    pub tables: Fact<Vec<TableInfo>>,
    /// The tables `cdc.tables.include`/`exclude` capture, resolved one by one.
    pub captured: Fact<Vec<Resolved>>,
    pub config: Fact<InstanceConfig>,
    pub logs: Fact<Vec<LogFile>>,
    /// V$THREAD (on a downstream, the source's): each thread's logs are judged on their own.
    pub threads: Fact<Vec<RedoThread>>,
    pub current_scn: Fact<Scn>,
    /// The clock LogMiner's TIMESTAMP and COMMIT_TIMESTAMP are in, seconds east of UTC, as
    /// capture reads it (`Session::host_utc_offset`: SYSTIMESTAMP's offset, measured through
    /// SCN_TO_TIMESTAMP when TIME_AT_DBTIMEZONE is set).
    pub clock: Fact<Option<i32>>,
    /// The security policies that change each captured table's reads for the capture user
    /// (VPD / OLS, Data Redaction) and its exemptions, read where the table is.
    pub read_policies: std::collections::BTreeMap<TableName, Fact<ReadPolicies>>,
    /// The offsets in `cdc.state.dir`, if any.
    pub offsets_path: PathBuf,
    pub offsets: Result<Option<Offsets>, CdcError>,
    /// The mining database of `cdc.mining.database.url` (downstream capture), checked on a
    /// connection of its own; `None` when mining runs on the source.
    pub mining: Option<MiningFacts>,
    /// The Kafka sink's brokers and the topics capture writes as a probe found them
    /// (`kafka::probe`), or its error's code and message: asked for only when a check needs
    /// them, so a doctor run that does not look at the sink waits for no broker.
    pub kafka: std::sync::OnceLock<Result<crate::kafka::probe::Probe, (Code, String)>>,
}

/// What the mining (downstream) database shows.
#[derive(Debug)]
pub struct MiningFacts {
    /// What was checked; never contains a password.
    pub target: String,
    /// Its own V$DATABASE (name, DBID, role).
    pub db: Fact<DatabaseInfo>,
    /// The redo logs it received, every source's, with the DBID (and where known the
    /// incarnation) of the database that wrote them.
    pub logs: Fact<Vec<LogFile>>,
    /// The highest SCN its redo covers, when behind the source.
    pub limit: Fact<Option<Scn>>,
    /// The LogMiner dictionary builds in the redo it holds (for `cdc.mining.dictionary`).
    pub builds: Fact<Vec<cdc_core::model::DictionaryBuild>>,
}

impl MiningFacts {
    /// `source`: the source's identity when known (the bound and the dictionary builds are
    /// then of its redo alone); `from`: where a capture mines from (the bound is of the redo
    /// from there on).
    fn gather(
        settings: &Settings,
        url: &str,
        source: Option<RedoSource>,
        from: Scn,
    ) -> MiningFacts {
        let mut m = MiningFacts {
            target: url.to_string(),
            db: Err(NO_SESSION.into()),
            logs: Err(NO_SESSION.into()),
            limit: Err(NO_SESSION.into()),
            builds: Err(NO_SESSION.into()),
        };
        let session = crate::source::open_mining(settings, url).and_then(|c| {
            m.target = c.describe();
            c.connect()
        });
        let mut session = match session {
            Ok(s) => s,
            Err(e) => {
                let e = e.to_string();
                m.db = Err(e.clone());
                m.logs = Err(e.clone());
                m.limit = Err(e.clone());
                m.builds = Err(e);
                return m;
            }
        };
        m.db = fact(session.database());
        m.logs = fact(session.logs());
        if let Some(source) = source {
            if let Err(e) = session.mine_redo_of(source) {
                m.limit = fact(Err(e));
                return m;
            }
        }
        m.limit = fact(session.mining_limit(from));
        m.builds = fact(session.dictionary_builds());
        m
    }
}

const NO_SESSION: &str = "not checked: no connection (see connection.login)";

fn fact<T>(r: crate::errors::Result<T>) -> Fact<T> {
    r.map_err(|e| e.to_string())
}

impl Facts {
    /// Open the database named by the settings and gather.
    pub fn gather(settings: &Settings) -> Facts {
        let connector = crate::source::open(settings);
        Facts::gather_with(settings, connector)
    }

    /// Gather through `connector` (or report why there is none).
    pub fn gather_with(
        settings: &Settings,
        connector: crate::errors::Result<Box<dyn Connector>>,
    ) -> Facts {
        let url = settings.database_url();
        // By the scheme alone: a malformed `emulator:` URL is still an emulator, one that
        // could not be opened.
        let kind = if crate::settings::Scheme::of(url) == crate::settings::Scheme::Emulator {
            SourceKind::Emulator
        } else {
            SourceKind::Oracle
        };
        let offsets_path = StateDir::new(&settings.state_dir).offsets();
        let offsets = Offsets::load(&offsets_path);
        let mut facts = Facts {
            settings: settings.clone(),
            kind,
            target: match (kind, settings.database_user()) {
                (SourceKind::Emulator, _) => url.to_string(),
                (SourceKind::Oracle, Some(user)) => format!("Oracle {url} as {user}"),
                (SourceKind::Oracle, None) => format!("Oracle {url}"),
            },
            gathered_at: chrono::Utc::now(),
            connect: Connect::Connected,
            login_warning: Err(NO_SESSION.into()),
            db: Err(NO_SESSION.into()),
            privileges: Err(NO_SESSION.into()),
            pdb_privileges: Default::default(),
            pdb_supplemental: Default::default(),
            pdb_charsets: Default::default(),
            tables: Err(NO_SESSION.into()),
            captured: Err(NO_SESSION.into()),
            config: Err(NO_SESSION.into()),
            logs: Err(NO_SESSION.into()),
            threads: Err(NO_SESSION.into()),
            current_scn: Err(NO_SESSION.into()),
            clock: Err(NO_SESSION.into()),
            read_policies: Default::default(),
            offsets_path,
            offsets,
            mining: None,
            kafka: std::sync::OnceLock::new(),
        };
        // Where a capture would mine from (its stored resume SCN; 0 without one): received
        // logs before it do not bound what it can mine.
        let from = match &facts.offsets {
            Ok(Some(o)) => o.stream.as_ref().map_or(0, |s| s.resume_scn),
            _ => 0,
        };
        let mining = |source: Option<RedoSource>| {
            settings
                .mining_url()
                .map(|url| MiningFacts::gather(settings, url, source, from))
        };
        let connector = match connector {
            Ok(c) => c,
            Err(e) => {
                facts.connect = Connect::NotTried(e);
                facts.mining = mining(None);
                return facts;
            }
        };
        facts.target = connector.describe();
        let mut session: Box<dyn Session> = match connector.connect() {
            Ok(s) => s,
            Err(e) => {
                facts.connect = Connect::Failed(e);
                facts.mining = mining(None);
                return facts;
            }
        };
        // First: the driver keeps the login's warning only until a call brings another.
        facts.login_warning = fact(session.login_warning());
        facts.db = fact(session.database());
        facts.mining = mining(facts.db.as_ref().ok().map(RedoSource::of));
        facts.privileges = fact(session.privileges());
        facts.tables = fact(session.tables());
        facts.config = fact(session.instance_config());
        facts.logs = fact(session.logs());
        facts.threads = fact(session.redo_threads());
        facts.current_scn = fact(session.current_scn());
        facts.clock = fact(session.host_utc_offset());
        facts.captured = match &facts.tables {
            Ok(tables) => Ok({
                let mut captured: Vec<&TableInfo> = tables
                    .iter()
                    .filter(|t| settings.is_captured(&t.name))
                    .collect();
                captured.sort_by(|a, b| a.name.cmp(&b.name));
                captured
            }
            .into_iter()
            .map(|t| Resolved {
                info: t.clone(),
                outcome: target::resolve(settings, vec![t.clone()], &[]).and_then(|mut d| {
                    d.pop().ok_or_else(|| {
                        CdcError::settings(Code::Cdc1002, "table resolution returned nothing")
                    })
                }),
                key_sample: None,
            })
            .collect()),
            Err(e) => Err(e.clone()),
        };
        // Root mode: each captured PDB's grants, read inside it.
        let root_mode = facts.db.as_ref().is_ok_and(|d| d.cdb)
            && facts
                .config
                .as_ref()
                .is_ok_and(|c| c.container.as_deref() == Some(ROOT_CONTAINER));
        if let (true, Ok(list)) = (root_mode, &facts.captured) {
            // One table of each PDB, to read the PDB's character sets in it.
            let pdbs: std::collections::BTreeMap<String, TableName> = list
                .iter()
                .filter_map(|r| Some((r.info.name.pdb.clone()?, r.info.name.clone())))
                .collect();
            let pdb_logging = facts.pdb_logging_exists();
            for (pdb, table) in pdbs {
                let entered = fact(session.set_container(&pdb));
                let p = entered.clone().and_then(|_| fact(session.privileges()));
                facts.pdb_privileges.insert(pdb.clone(), p);
                if pdb_logging {
                    let s = entered.and_then(|_| fact(session.pdb_supplemental_logging()));
                    facts.pdb_supplemental.insert(pdb.clone(), s);
                }
                let cs = session.table_charsets(&table);
                facts.pdb_charsets.insert(pdb, fact(cs));
            }
            if let Err(e) = session.set_container(ROOT_CONTAINER) {
                tracing::warn!("back to CDB$ROOT after reading the PDBs' grants: {e}");
            }
        } else if facts.pdb_logging_exists() {
            // Per-PDB mode: the session is in the PDB already.
            let here = facts.config.as_ref().ok().and_then(|c| c.container.clone());
            if let Some(pdb) = here.filter(|c| c != ROOT_CONTAINER) {
                let s = fact(session.pdb_supplemental_logging());
                facts.pdb_supplemental.insert(pdb, s);
            }
        }
        // A key unique on the operator's word: look for a counterexample.
        if let Ok(list) = &mut facts.captured {
            for r in list.iter_mut() {
                let Ok(Decision::Capture(t)) = &r.outcome else {
                    continue;
                };
                let name = &r.info.name;
                let chosen = settings.keys.get(name).or_else(|| {
                    settings
                        .keys
                        .get(&TableName::new(None, &name.owner, &name.table))
                });
                if let (Some(cols), true) = (chosen, settings.key_unchecked(name)) {
                    let scn = facts.current_scn.clone();
                    r.key_sample = Some(sample_duplicate(session.as_mut(), t, cols, scn));
                }
            }
        }
        // What the snapshot checks before each table (CDC-2206, CDC-2207).
        if let Ok(list) = &facts.captured {
            for r in list {
                if let Ok(Decision::Capture(_)) = &r.outcome {
                    let p = fact(session.read_policies(&r.info.name));
                    facts.read_policies.insert(r.info.name.clone(), p);
                }
            }
        }
        facts
    }

    /// The configured capture streams changes (every mode but snapshot_only).
    pub fn streams(&self) -> bool {
        self.settings.snapshot.mode != SnapshotMode::SnapshotOnly
    }

    /// The configured capture takes snapshots (every mode but none).
    pub fn snapshots(&self) -> bool {
        self.settings.snapshot.mode != SnapshotMode::None
    }

    /// `cdc.snapshot.mode=…` as the settings spell it.
    pub fn mode(&self) -> &'static str {
        match self.settings.snapshot.mode {
            SnapshotMode::Initial => "cdc.snapshot.mode=initial",
            SnapshotMode::None => "cdc.snapshot.mode=none",
            SnapshotMode::SnapshotOnly => "cdc.snapshot.mode=snapshot_only",
            SnapshotMode::OnSignal => "cdc.snapshot.mode=on_signal",
        }
    }

    /// The user grants go to: cdc.database.user, or a placeholder common/local user name.
    pub fn grantee(&self) -> String {
        match self.settings.database_user() {
            Some(u) if !u.trim().is_empty() => u.trim().to_string(),
            _ if self.db.as_ref().is_ok_and(|d| d.cdb) => "C##CDC".into(),
            _ => "CDC".into(),
        }
    }

    /// The major release (`19` of `19.22.0.0.0`), when known.
    pub fn major_version(&self) -> Option<u32> {
        let db = self.db.as_ref().ok()?;
        crate::source::container::major_release(&db.version)
    }

    /// A CDB of 12.2 or later: PDBs can have supplemental logging of their own (local undo,
    /// which PDB-level logging needs, came with 12.2).
    fn pdb_logging_exists(&self) -> bool {
        let Ok(db) = &self.db else { return false };
        let mut v = db
            .version
            .split('.')
            .map(|p| p.trim().parse::<u32>().unwrap_or(0));
        let release = (v.next().unwrap_or(0), v.next().unwrap_or(0));
        db.cdb && release >= (12, 2)
    }

    /// The supplemental logging `pdb` enabled itself: `Ok(None)` for none known to exist (a
    /// non-CDB, before 12.2, not read), an error when it could not be read.
    pub fn pdb_supplemental_in(&self, pdb: Option<&str>) -> Fact<Option<PdbSupplementalLogging>> {
        match pdb.and_then(|p| self.pdb_supplemental.get(p)) {
            Some(f) => f.clone(),
            None => Ok(None),
        }
    }

    /// The grants in effect in `pdb` (root mode: read there), else where the session is.
    pub fn privileges_in(&self, pdb: Option<&str>) -> &Fact<Privileges> {
        pdb.and_then(|p| self.pdb_privileges.get(p))
            .unwrap_or(&self.privileges)
    }

    /// Captured tables that resolved to a capture decision.
    pub fn targets(&self) -> Vec<&target::TableTarget> {
        match &self.captured {
            Ok(list) => list.iter().filter_map(Resolved::target).collect(),
            Err(_) => Vec::new(),
        }
    }
}
