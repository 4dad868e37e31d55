//! The dynamic performance views (V$DATABASE, V$LOG, V$ARCHIVED_LOG, V$THREAD, GV$TRANSACTION,
//! V$PARAMETER, …) as the in-process session sees the database: the same identity, SCNs, logs,
//! threads and open transactions, each view behind its own grant (SELECT on V_$…,
//! SELECT_CATALOG_ROLE or SELECT ANY DICTIONARY, else ORA-00942 as on Oracle).

use super::relation::*;
use crate::errors::Result;
use crate::{topology, EmulatorSession};
use cdc_core::model::{LogFile, Scn};
use cdc_core::session::prelude::*;
use emulator_sql::Relation;
use oracle_datum::{DateTime, Datum, OraType};

fn date(text: &str) -> Datum {
    DateTime::parse(text).map_or(Datum::Null, Datum::Date)
}

/// A time in ms as the database host's DATE.
fn host_date(s: &EmulatorSession, ms: i64) -> Result<Datum> {
    Ok(date(&s.replica()?.host_time(ms)))
}

/// When the database was created (RESETLOGS_TIME, CREATED): its clock at its first SCN.
fn created(s: &EmulatorSession) -> Result<Datum> {
    let ms = {
        let r = s.replica()?;
        r.time_of(r.schema.database.start_scn).unwrap_or(0)
    };
    host_date(s, ms)
}

fn grant(s: &EmulatorSession, view: &str) -> Result<()> {
    s.user
        .read_dictionary(view, &format!("reading {}", view.replacen("_$", "$", 1)))
}

/// GV$DATABASE: V$DATABASE as each instance (one per redo thread; a downstream's one) sees
/// it, INST_ID first. The emulator's instances share one SCN.
pub(super) fn gv_database(s: &mut EmulatorSession) -> Result<Relation> {
    grant(s, "GV_$DATABASE")?;
    let instances = match s.shared.downstream() {
        true => 1,
        false => s.replica()?.schema.database.redo_threads.max(1),
    };
    let one = database_row(s)?;
    let mut spec = vec![("INST_ID", NUM)];
    spec.extend(one.0.iter().cloned());
    let rows = (1..=instances)
        .map(|i| {
            let mut row = vec![n(i)];
            row.extend(one.1.iter().cloned());
            row
        })
        .collect();
    Ok(view(&spec, rows))
}

pub(super) fn v_database(s: &mut EmulatorSession) -> Result<Relation> {
    grant(s, "V_$DATABASE")?;
    let (spec, row) = database_row(s)?;
    Ok(view(&spec, vec![row]))
}

type Spec = Vec<(&'static str, OraType)>;

/// V$DATABASE's columns and its one row.
fn database_row(s: &mut EmulatorSession) -> Result<(Spec, Vec<Datum>)> {
    let info = s.database_view()?;
    let scn = s.scn_view()?;
    let created = created(s)?;
    let (min, pk, ui, all) = {
        let r = s.replica()?;
        let d = &r.schema.database.supplemental_logging;
        (d.min, d.primary_key, false, d.all)
    };
    let spec = [
        ("DBID", NUM),
        ("NAME", text(9)),
        ("CREATED", OraType::Date),
        ("RESETLOGS_CHANGE#", NUM),
        ("RESETLOGS_TIME", OraType::Date),
        ("LOG_MODE", text(12)),
        ("CHECKPOINT_CHANGE#", NUM),
        ("OPEN_MODE", text(20)),
        ("DATABASE_ROLE", text(16)),
        ("FORCE_LOGGING", text(39)),
        ("SUPPLEMENTAL_LOG_DATA_MIN", text(8)),
        ("SUPPLEMENTAL_LOG_DATA_PK", text(3)),
        ("SUPPLEMENTAL_LOG_DATA_UI", text(3)),
        ("SUPPLEMENTAL_LOG_DATA_FK", text(3)),
        ("SUPPLEMENTAL_LOG_DATA_ALL", text(3)),
        ("CURRENT_SCN", NUM),
        ("PLATFORM_NAME", text(101)),
        ("DB_UNIQUE_NAME", text(30)),
        ("CDB", text(3)),
        ("CON_ID", NUM),
    ];
    let row = vec![
        n(info.dbid),
        t(&info.name),
        created.clone(),
        n(info.resetlogs_scn),
        created,
        t(if info.archivelog {
            "ARCHIVELOG"
        } else {
            "NOARCHIVELOG"
        }),
        n(scn),
        t(info.open_mode.as_oracle()),
        t(info.role.as_oracle()),
        yes_no(info.force_logging),
        // SUPPLEMENTAL_LOG_DATA_MIN is IMPLICIT when only PK/UI logging implies it.
        t(if min || info.supplemental_min {
            "YES"
        } else if pk || ui || all {
            "IMPLICIT"
        } else {
            "NO"
        }),
        yes_no(pk),
        yes_no(ui),
        t("NO"),
        yes_no(info.supplemental_all),
        n(scn),
        t("Linux x86 64-bit"),
        t(&info.name),
        yes_no(info.cdb),
        n(0),
    ];
    Ok((spec.to_vec(), row))
}

/// DBA_SUPPLEMENTAL_LOGGING (Reference 19c, 6.24): one row, YES/NO per level, of the container
/// the session is in ([`EmulatorSession::supplemental_logging_view`]). SUBSET_REP is 19c's.
pub(super) fn dba_supplemental_logging(s: &mut EmulatorSession) -> Result<Relation> {
    let v = s.supplemental_logging_view()?;
    let subset_rep = super::super::session::major(&s.replica()?.schema.database.version) >= 19;
    let mut spec = vec![
        ("MINIMAL", text(3)),
        ("PRIMARY_KEY", text(3)),
        ("UNIQUE_INDEX", text(3)),
        ("FOREIGN_KEY", text(3)),
        ("ALL_COLUMN", text(3)),
        ("PROCEDURAL", text(3)),
    ];
    let mut row = vec![
        yes_no(v.minimal),
        yes_no(v.primary_key),
        yes_no(v.unique_index),
        yes_no(v.foreign_key),
        yes_no(v.all_column),
        t("NO"),
    ];
    if subset_rep {
        spec.push(("SUBSET_REP", text(3)));
        row.push(t("NO"));
    }
    Ok(view(&spec, vec![row]))
}

/// V$PDBS: CON_ID 2 is PDB$SEED, the PDBs follow in name order from 3; from a PDB only that
/// PDB (and not the seed) shows.
pub(super) fn v_pdbs(s: &mut EmulatorSession) -> Result<Relation> {
    grant(s, "V_$PDBS")?;
    let spec = [
        ("CON_ID", NUM),
        ("DBID", NUM),
        ("NAME", NAME),
        ("OPEN_MODE", text(10)),
        ("RESTRICTED", text(3)),
    ];
    let (multitenant, pdbs, restricted, dbid) = {
        let r = s.replica()?;
        (
            r.schema.database.multitenant,
            super::super::access::pdbs(&r.schema),
            super::super::access::restricted_pdbs(&r.schema),
            r.schema.database.dbid,
        )
    };
    let mut rows = Vec::new();
    // From CDB$ROOT only the containers the user's CONTAINER_DATA covers show.
    let cd = s
        .user
        .privileges
        .container_data
        .clone()
        .filter(|_| s.in_root());
    let covered = |c: &str| cd.as_ref().is_none_or(|cd| cd.covers(c));
    if multitenant && !s.shared.downstream() {
        let here = s.pdb().map(str::to_string);
        if here.is_none() && covered("PDB$SEED") {
            rows.push(vec![
                n(2),
                n(dbid + 2),
                t("PDB$SEED"),
                t("READ ONLY"),
                t("NO"),
            ]);
        }
        for (i, (name, mode)) in pdbs.iter().enumerate() {
            if here.as_ref().is_some_and(|h| h != name) || !covered(name) {
                continue;
            }
            let open = match mode {
                super::super::access::PdbOpenMode::ReadWrite => "READ WRITE",
                super::super::access::PdbOpenMode::ReadOnly => "READ ONLY",
                super::super::access::PdbOpenMode::Mounted => "MOUNTED",
            };
            rows.push(vec![
                n(i as i64 + 3),
                n(dbid + 3 + i as u64),
                t(name),
                t(open),
                t(if restricted.contains(name) {
                    "YES"
                } else {
                    "NO"
                }),
            ]);
        }
    }
    Ok(view(&spec, rows))
}

pub(super) fn v_parameter(s: &mut EmulatorSession) -> Result<Relation> {
    grant(s, "V_$PARAMETER")?;
    let config = s.replica()?.instance_config(s.shared.clock.now_ms());
    let d = s.replica()?.schema.database.clone();
    let mut params: Vec<(&str, String)> = vec![
        ("db_name", d.name.clone()),
        ("compatible", config.compatible.clone().unwrap_or_default()),
        ("undo_management", "AUTO".into()),
        ("undo_retention", d.undo_retention.to_string()),
        (
            "undo_tablespace",
            config.undo_tablespace.clone().unwrap_or_default(),
        ),
        (
            "enable_goldengate_replication",
            if d.goldengate_replication {
                "TRUE"
            } else {
                "FALSE"
            }
            .into(),
        ),
        (
            "max_string_size",
            config.max_string_size.clone().unwrap_or_default(),
        ),
        ("processes", d.processes.to_string()),
        ("sessions", d.sessions.to_string()),
        (
            "resource_limit",
            if crate::schema::resource_limit(&d.version) {
                "TRUE"
            } else {
                "FALSE"
            }
            .into(),
        ),
        (
            "enable_pluggable_database",
            if d.multitenant { "TRUE" } else { "FALSE" }.into(),
        ),
        (
            "cluster_database",
            if d.redo_threads > 1 { "TRUE" } else { "FALSE" }.into(),
        ),
    ];
    if let Some(t) = &config.time_at_dbtimezone {
        params.push(("time_at_dbtimezone", t.clone()));
    }
    for a in config.archive_destinations.iter().flatten() {
        params.push(("log_archive_dest", format!("{}={}", a.name, a.destination)));
    }
    let spec = [
        ("NUM", NUM),
        ("NAME", text(80)),
        ("TYPE", NUM),
        ("VALUE", text(4000)),
        ("DISPLAY_VALUE", text(4000)),
        ("ISDEFAULT", text(9)),
    ];
    let rows = params
        .into_iter()
        .enumerate()
        .map(|(i, (name, value))| {
            let name = if name == "log_archive_dest" {
                format!("log_archive_dest_{}", i)
            } else {
                name.to_string()
            };
            vec![
                n(i as i64 + 1),
                t(name),
                n(2),
                t(value.clone()),
                t(value),
                t("FALSE"),
            ]
        })
        .collect();
    Ok(view(&spec, rows))
}

/// (XIDUSN, XIDSLOT, XIDSQN) of an XID's 16 hex digits (2, 2 and 4 bytes, little-endian).
fn xid_parts(hex: &str) -> (u32, u32, u32) {
    let b: Vec<u8> = (0..hex.len() / 2)
        .filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
        .collect();
    if b.len() != 8 {
        return (0, 0, 0);
    }
    (
        u32::from(u16::from_le_bytes([b[0], b[1]])),
        u32::from(u16::from_le_bytes([b[2], b[3]])),
        u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
    )
}

pub(super) fn transactions(s: &mut EmulatorSession, global: bool) -> Result<Relation> {
    let list = s.open_transactions()?;
    let mut spec = vec![
        ("XIDUSN", NUM),
        ("XIDSLOT", NUM),
        ("XIDSQN", NUM),
        ("STATUS", text(16)),
        ("START_SCNB", NUM),
        ("START_SCNW", NUM),
        ("START_SCN", NUM),
        ("XID", OraType::Raw(8)),
    ];
    if global {
        spec.insert(0, ("INST_ID", NUM));
    }
    let rows = list
        .iter()
        .map(|tx| {
            let (usn, slot, sqn) = xid_parts(&tx.xid);
            let mut row = vec![
                n(usn),
                n(slot),
                n(sqn),
                t("ACTIVE"),
                n(tx.start_scn & 0xFFFF_FFFF),
                n(tx.start_scn >> 32),
                n(tx.start_scn),
                Datum::Bytes(
                    (0..8)
                        .filter_map(|i| u8::from_str_radix(tx.xid.get(2 * i..2 * i + 2)?, 16).ok())
                        .collect(),
                ),
            ];
            if global {
                row.insert(0, n(tx.thread));
            }
            row
        })
        .collect();
    Ok(view(&spec, rows))
}

/// GV$INSTANCE / V$INSTANCE: one instance per redo thread (RAC), instance n on thread n.
pub(super) fn instances(s: &mut EmulatorSession, global: bool) -> Result<Relation> {
    grant(
        s,
        if global {
            "GV_$INSTANCE"
        } else {
            "V_$INSTANCE"
        },
    )?;
    let d = s.replica()?.schema.database.clone();
    let threads = if global { d.redo_threads.max(1) } else { 1 };
    let mut spec = vec![
        ("INSTANCE_NUMBER", NUM),
        ("INSTANCE_NAME", text(16)),
        ("HOST_NAME", text(64)),
        ("VERSION", text(17)),
        ("VERSION_FULL", text(17)),
        ("THREAD#", NUM),
        ("STATUS", text(12)),
        ("DATABASE_STATUS", text(17)),
        ("INSTANCE_ROLE", text(18)),
    ];
    if global {
        spec.insert(0, ("INST_ID", NUM));
    }
    let rows = (1..=threads)
        .map(|i| {
            let mut row = vec![
                n(i),
                t(format!("{}{i}", d.name.to_ascii_lowercase())),
                t("emulator"),
                t(format!(
                    "{}.0.0.0.0",
                    super::super::session::major(&d.version)
                )),
                t(d.version.clone()),
                n(i),
                t("OPEN"),
                t("ACTIVE"),
                t("PRIMARY_INSTANCE"),
            ];
            if global {
                row.insert(0, n(i));
            }
            row
        })
        .collect();
    Ok(view(&spec, rows))
}

pub(super) fn v_thread(s: &mut EmulatorSession) -> Result<Relation> {
    let threads = s.redo_threads()?;
    let spec = [
        ("THREAD#", NUM),
        ("STATUS", text(6)),
        ("ENABLED", text(8)),
        ("GROUPS", NUM),
        ("INSTANCE", text(80)),
        ("SEQUENCE#", NUM),
        ("ENABLE_CHANGE#", NUM),
        ("LAST_REDO_SEQUENCE#", NUM),
        ("LAST_REDO_BLOCK", NUM),
        ("LAST_REDO_CHANGE#", NUM),
        ("LAST_REDO_TIME", OraType::Date),
        ("CON_ID", NUM),
    ];
    let groups = s.replica()?.schema.database.redo_groups;
    let rows = threads
        .iter()
        .map(|th| {
            vec![
                n(th.thread),
                t(&th.status),
                t(&th.enabled),
                n(groups),
                t(format!("instance {}", th.thread)),
                n(th.sequence),
                opt_n(th.enabled_scn),
                opt_n(th.last_redo_sequence),
                opt_n(th.last_redo_block),
                n(th.last_redo_scn),
                th.last_redo_time.as_deref().map_or(Datum::Null, date),
                n(0),
            ]
        })
        .collect();
    Ok(view(&spec, rows))
}

/// The database's own logs (V$LOG, V$ARCHIVED_LOG): a downstream's are its own redo's, not
/// the source's it received (those are V$FOREIGN_ARCHIVED_LOG and V$STANDBY_LOG); a
/// standby's are the archived logs of the redo it received (`topology::standby_logs`).
fn log_list(s: &EmulatorSession) -> Result<Vec<LogFile>> {
    Ok(match s.shared.downstream() {
        true => topology::own_logs(&s.shared.role),
        false => s.own_log_files()?,
    })
}

/// The source's logs a downstream received (empty elsewhere).
fn received(s: &EmulatorSession) -> Result<Vec<LogFile>> {
    if !s.shared.downstream() {
        return Ok(Vec::new());
    }
    let r = s.replica()?;
    Ok(topology::downstream_logs(
        &s.shared.role,
        &r,
        s.shared.clock.now_ms(),
    ))
}

/// A downstream's standby redo log groups: one per source thread after its own online groups,
/// with the log being written there (real-time shipping), if any.
fn standby_groups(s: &EmulatorSession) -> Result<Vec<(u32, u32, Option<LogFile>)>> {
    if !s.shared.downstream() {
        return Ok(Vec::new());
    }
    let own = s.replica()?.schema.database.redo_groups.max(1);
    let threads = s.replica()?.logs.len().max(1) as u32;
    let current = received(s)?;
    Ok((1..=threads)
        .map(|thread| {
            let log = current
                .iter()
                .find(|l| l.thread == thread && l.next_scn.is_none())
                .cloned();
            (own + thread, thread, log)
        })
        .collect())
}

/// V$LOG: `redo_groups` groups per thread holding the thread's newest logs (the current one
/// CURRENT, the others INACTIVE; a group no log has used yet UNUSED). The members of
/// V$LOGFILE are named as the log list names online logs.
fn online_groups(s: &EmulatorSession) -> Result<Vec<(u32, u32, Option<LogFile>)>> {
    let groups = s.replica()?.schema.database.redo_groups.max(1);
    if let topology::Role::Standby { .. } = s.shared.role {
        // A physical standby's own online logs are not written while it is a standby (the
        // redo it receives goes to standby redo logs): none holds a log here.
        let threads = s.replica()?.logs.len().max(1) as u32;
        return Ok((1..=threads)
            .flat_map(|t| (0..groups).map(move |g| ((t - 1) * groups + g + 1, t, None)))
            .collect());
    }
    let logs = log_list(s)?;
    let threads = logs.iter().map(|l| l.thread).max().unwrap_or(1);
    let mut out = Vec::new();
    for thread in 1..=threads {
        let mut mine: Vec<&LogFile> = logs.iter().filter(|l| l.thread == thread).collect();
        mine.sort_by_key(|l| std::cmp::Reverse(l.sequence));
        // Only logs not archived yet, or still in their group, are online.
        let online: Vec<&LogFile> = mine.iter().take(groups as usize).copied().collect();
        for g in 0..groups {
            let group = (thread - 1) * groups + g + 1;
            let log = online
                .iter()
                .find(|l| (l.sequence % u64::from(groups)) as u32 == g)
                .map(|l| {
                    let mut l = (*l).clone();
                    if l.archived {
                        l.name = format!("/u01/oradata/redo{thread:02}_{}.log", l.sequence);
                    }
                    l
                });
            out.push((group, thread, log));
        }
    }
    Ok(out)
}

pub(super) fn v_log(s: &mut EmulatorSession) -> Result<Relation> {
    grant(s, "V_$LOG")?;
    let bytes = s
        .replica()?
        .schema
        .database
        .redo_group_mb
        .saturating_mul(1024 * 1024);
    let spec = [
        ("GROUP#", NUM),
        ("THREAD#", NUM),
        ("SEQUENCE#", NUM),
        ("BYTES", NUM),
        ("MEMBERS", NUM),
        ("ARCHIVED", text(3)),
        ("STATUS", text(16)),
        ("FIRST_CHANGE#", NUM),
        ("NEXT_CHANGE#", NUM),
        ("CON_ID", NUM),
    ];
    let rows = online_groups(s)?
        .into_iter()
        .map(|(group, thread, log)| match log {
            Some(l) => vec![
                n(group),
                n(thread),
                n(l.sequence),
                n(bytes),
                n(1),
                yes_no(l.next_scn.is_some()),
                t(if l.next_scn.is_none() {
                    "CURRENT"
                } else {
                    "INACTIVE"
                }),
                n(l.first_scn),
                // The current log's NEXT_CHANGE# is the highest SCN there is.
                n(l.next_scn.unwrap_or(0xFFFF_FFFF_FFFF)),
                n(0),
            ],
            None => vec![
                n(group),
                n(thread),
                n(0),
                n(bytes),
                n(1),
                t("YES"),
                t("UNUSED"),
                n(0),
                Datum::Null,
                n(0),
            ],
        })
        .collect();
    Ok(view(&spec, rows))
}

pub(super) fn v_logfile(s: &mut EmulatorSession) -> Result<Relation> {
    grant(s, "V_$LOGFILE")?;
    let spec = [
        ("GROUP#", NUM),
        ("STATUS", text(7)),
        ("TYPE", text(7)),
        ("MEMBER", text(513)),
        ("IS_RECOVERY_DEST_FILE", text(3)),
        ("CON_ID", NUM),
    ];
    let mut rows: Vec<Vec<Datum>> = online_groups(s)?
        .into_iter()
        .map(|(group, thread, log)| {
            let member = match log {
                Some(l) => l.name,
                None => format!("/u01/oradata/redo{thread:02}_g{group}.log"),
            };
            vec![n(group), Datum::Null, t("ONLINE"), t(member), t("NO"), n(0)]
        })
        .collect();
    for (group, thread, log) in standby_groups(s)? {
        let member = log.map_or(format!("/u01/downstream/standby/srl_t{thread}.log"), |l| {
            l.name
        });
        rows.push(vec![
            n(group),
            Datum::Null,
            t("STANDBY"),
            t(member),
            t("NO"),
            n(0),
        ]);
    }
    Ok(view(&spec, rows))
}

/// V$STANDBY_LOG: on a downstream receiving in real time, the standby redo log of each source
/// thread, ACTIVE with ARCHIVED 'YES' while written (NEXT_CHANGE# not yet filled in) and
/// LAST_CHANGE# one past the redo it holds; an unused group is UNASSIGNED. DBID is text, the
/// primary's DBID. Empty off a downstream.
pub(super) fn v_standby_log(s: &mut EmulatorSession) -> Result<Relation> {
    grant(s, "V_$STANDBY_LOG")?;
    let bytes = s
        .replica()?
        .schema
        .database
        .redo_group_mb
        .saturating_mul(1024 * 1024);
    let spec = [
        ("GROUP#", NUM),
        ("DBID", text(40)),
        ("THREAD#", NUM),
        ("SEQUENCE#", NUM),
        ("BYTES", NUM),
        ("BLOCKSIZE", NUM),
        ("USED", NUM),
        ("ARCHIVED", text(3)),
        ("STATUS", text(10)),
        ("FIRST_CHANGE#", NUM),
        ("NEXT_CHANGE#", NUM),
        ("LAST_CHANGE#", NUM),
        ("CON_ID", NUM),
    ];
    let rows = standby_groups(s)?
        .into_iter()
        .map(|(group, thread, log)| match log {
            Some(l) => vec![
                n(group),
                t(l.dbid.map_or("UNASSIGNED".to_string(), |d| d.to_string())),
                n(thread),
                n(l.sequence),
                n(bytes),
                n(512),
                n(bytes / 2),
                t("YES"),
                t("ACTIVE"),
                n(l.first_scn),
                opt_n(l.next_scn),
                opt_n(l.received_to.map(|r| r + 1)),
                n(0),
            ],
            None => vec![
                n(group),
                t("UNASSIGNED"),
                n(thread),
                n(0),
                n(bytes),
                n(512),
                n(0),
                t("YES"),
                t("UNASSIGNED"),
                Datum::Null,
                Datum::Null,
                Datum::Null,
                n(0),
            ],
        })
        .collect();
    Ok(view(&spec, rows))
}

/// V$FOREIGN_ARCHIVED_LOG: on a downstream, the source's whole logs it received, with the
/// source's DBID (SOURCE_DBID) and incarnation, STATUS 'A', and the dictionary builds they
/// hold; empty elsewhere.
pub(super) fn v_foreign_archived_log(s: &mut EmulatorSession) -> Result<Relation> {
    grant(s, "V_$FOREIGN_ARCHIVED_LOG")?;
    let logs: Vec<LogFile> = received(s)?.into_iter().filter(|l| l.archived).collect();
    let builds = s.replica()?.dictionary_builds_in(&logs);
    let created = created(s)?;
    let spec = [
        ("RECID", NUM),
        ("NAME", text(513)),
        ("DEST_ID", NUM),
        ("THREAD#", NUM),
        ("SEQUENCE#", NUM),
        ("RESETLOGS_CHANGE#", NUM),
        ("RESETLOGS_TIME", OraType::Date),
        ("FIRST_CHANGE#", NUM),
        ("NEXT_CHANGE#", NUM),
        ("REGISTRAR", text(7)),
        ("ARCHIVED", text(3)),
        ("DELETED", text(3)),
        ("STATUS", text(1)),
        ("DICTIONARY_BEGIN", text(3)),
        ("DICTIONARY_END", text(3)),
        ("SOURCE_DBID", NUM),
        ("CON_ID", NUM),
    ];
    let rows = logs
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let begin = builds
                .iter()
                .any(|b| b.thread == l.thread && b.begin_sequence == l.sequence);
            let end = builds
                .iter()
                .any(|b| b.thread == l.thread && b.end_sequence == l.sequence);
            vec![
                n(i as i64 + 1),
                t(&l.name),
                n(2),
                n(l.thread),
                n(l.sequence),
                opt_n(l.resetlogs_scn),
                created.clone(),
                n(l.first_scn),
                opt_n(l.next_scn),
                t("RFS"),
                t("YES"),
                t("NO"),
                t("A"),
                yes_no(begin),
                yes_no(end),
                opt_n(l.dbid),
                n(0),
            ]
        })
        .collect();
    Ok(view(&spec, rows))
}

/// The VALID LOCAL archive destination's DEST_ID (archives are listed on it).
fn local_dest(s: &EmulatorSession) -> Result<u32> {
    let config = s.replica()?.instance_config(s.shared.clock.now_ms());
    Ok(config
        .archive_destinations
        .unwrap_or_default()
        .iter()
        .filter(|a| a.is_valid_local())
        .map(|a| a.dest_id)
        .min()
        .unwrap_or(1))
}

pub(super) fn v_archived_log(s: &mut EmulatorSession) -> Result<Relation> {
    grant(s, "V_$ARCHIVED_LOG")?;
    let logs: Vec<LogFile> = log_list(s)?.into_iter().filter(|l| l.archived).collect();
    let builds = {
        let r = s.replica()?;
        r.dictionary_builds_in(&logs)
    };
    let info = s.database_view()?;
    let created = created(s)?;
    let dest = local_dest(s)?;
    let spec = [
        ("RECID", NUM),
        ("NAME", text(513)),
        ("DEST_ID", NUM),
        ("THREAD#", NUM),
        ("SEQUENCE#", NUM),
        ("RESETLOGS_CHANGE#", NUM),
        ("RESETLOGS_TIME", OraType::Date),
        ("FIRST_CHANGE#", NUM),
        ("NEXT_CHANGE#", NUM),
        ("STANDBY_DEST", text(3)),
        ("ARCHIVED", text(3)),
        ("APPLIED", text(9)),
        ("DELETED", text(3)),
        ("STATUS", text(1)),
        ("DICTIONARY_BEGIN", text(3)),
        ("DICTIONARY_END", text(3)),
    ];
    let rows = logs
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let begin = builds
                .iter()
                .any(|b| b.thread == l.thread && b.begin_sequence == l.sequence);
            let end = builds
                .iter()
                .any(|b| b.thread == l.thread && b.end_sequence == l.sequence);
            vec![
                n(i as i64 + 1),
                t(&l.name),
                n(dest),
                n(l.thread),
                n(l.sequence),
                n(info.resetlogs_scn),
                created.clone(),
                n(l.first_scn),
                opt_n(l.next_scn),
                t("NO"),
                t("YES"),
                t("NO"),
                t("NO"),
                t("A"),
                yes_no(begin),
                yes_no(end),
            ]
        })
        .collect();
    Ok(view(&spec, rows))
}

pub(super) fn archive_dest(s: &mut EmulatorSession, status_view: bool) -> Result<Relation> {
    grant(
        s,
        if status_view {
            "V_$ARCHIVE_DEST_STATUS"
        } else {
            "V_$ARCHIVE_DEST"
        },
    )?;
    let config = s.replica()?.instance_config(s.shared.clock.now_ms());
    let dests = config.archive_destinations.unwrap_or_default();
    let spec = [
        ("DEST_ID", NUM),
        ("DEST_NAME", text(256)),
        ("STATUS", text(9)),
        ("TYPE", text(20)),
        ("DESTINATION", text(256)),
        ("TARGET", text(16)),
    ];
    let mut rows: Vec<Vec<Datum>> = dests
        .iter()
        .map(|a| {
            let target = if a.kind == "LOCAL" {
                "PRIMARY"
            } else {
                "STANDBY"
            };
            vec![
                n(a.dest_id),
                t(&a.name),
                t(&a.status),
                t(&a.kind),
                t(&a.destination),
                t(target),
            ]
        })
        .collect();
    // The destinations not configured are listed INACTIVE, as Oracle lists all 31.
    for id in 1..=31u32 {
        if !dests.iter().any(|a| a.dest_id == id) {
            rows.push(vec![
                n(id),
                t(format!("LOG_ARCHIVE_DEST_{id}")),
                t("INACTIVE"),
                t("LOCAL"),
                Datum::Null,
                t("PRIMARY"),
            ]);
        }
    }
    rows.sort_by_key(|r| match &r[0] {
        Datum::Number(v) => v.parse::<u32>().unwrap_or(0),
        _ => 0,
    });
    Ok(view(&spec, rows))
}

pub(super) fn v_resource_limit(s: &mut EmulatorSession) -> Result<Relation> {
    grant(s, "V_$RESOURCE_LIMIT")?;
    let config = s.replica()?.instance_config(s.shared.clock.now_ms());
    let spec = [
        ("RESOURCE_NAME", text(30)),
        ("CURRENT_UTILIZATION", NUM),
        ("MAX_UTILIZATION", NUM),
        ("INITIAL_ALLOCATION", text(10)),
        ("LIMIT_VALUE", text(10)),
    ];
    let mut rows = Vec::new();
    for (name, use_) in [
        ("processes", config.processes),
        ("sessions", config.sessions),
    ] {
        if let Some(u) = use_ {
            let limit = u
                .limit
                .map_or(" UNLIMITED".to_string(), |l| format!("{l:>10}"));
            rows.push(vec![
                t(name),
                n(u.current),
                n(u.current),
                t(limit.clone()),
                t(limit),
            ]);
        }
    }
    Ok(view(&spec, rows))
}

/// NLS_DATABASE_PARAMETERS: the database's permanent NLS settings, in Oracle's order, its
/// character sets among them (NLS_CHARACTERSET, NLS_NCHAR_CHARACTERSET). Granted to PUBLIC.
/// The view reads the container's own dictionary (SYS.PROPS$), so inside a PDB of another
/// database character set it shows the PDB's (as My Oracle Support Doc ID 2547439.1 shows:
/// AL32UTF8 in CDB$ROOT, WE8MSWIN1252 after ALTER SESSION SET CONTAINER into the PDB).
pub(super) fn nls_database_parameters(s: &mut EmulatorSession) -> Result<Relation> {
    let d = s.replica()?.schema.database.clone();
    let sets = d.charsets_in(s.pdb());
    let release = d
        .version
        .split('.')
        .next()
        .map_or_else(|| d.version.clone(), |major| format!("{major}.0.0.0.0"));
    let params = [
        ("NLS_LANGUAGE", "AMERICAN".to_string()),
        ("NLS_TERRITORY", "AMERICA".into()),
        ("NLS_CURRENCY", "$".into()),
        ("NLS_ISO_CURRENCY", "AMERICA".into()),
        ("NLS_NUMERIC_CHARACTERS", ".,".into()),
        ("NLS_CHARACTERSET", sets.database.name().into()),
        ("NLS_CALENDAR", "GREGORIAN".into()),
        ("NLS_DATE_FORMAT", "DD-MON-RR".into()),
        ("NLS_DATE_LANGUAGE", "AMERICAN".into()),
        ("NLS_SORT", "BINARY".into()),
        ("NLS_TIME_FORMAT", "HH.MI.SSXFF AM".into()),
        ("NLS_TIMESTAMP_FORMAT", "DD-MON-RR HH.MI.SSXFF AM".into()),
        ("NLS_TIME_TZ_FORMAT", "HH.MI.SSXFF AM TZR".into()),
        (
            "NLS_TIMESTAMP_TZ_FORMAT",
            "DD-MON-RR HH.MI.SSXFF AM TZR".into(),
        ),
        ("NLS_DUAL_CURRENCY", "$".into()),
        ("NLS_COMP", "BINARY".into()),
        ("NLS_LENGTH_SEMANTICS", "BYTE".into()),
        ("NLS_NCHAR_CONV_EXCP", "FALSE".into()),
        ("NLS_NCHAR_CHARACTERSET", sets.national.name().into()),
        ("NLS_RDBMS_VERSION", release),
    ];
    let spec = [("PARAMETER", text(128)), ("VALUE", text(64))];
    let rows = params
        .into_iter()
        .map(|(name, value)| vec![t(name), t(value)])
        .collect();
    Ok(view(&spec, rows))
}

/// V$LOG_HISTORY: one row per log switch, FIRST_TIME in the database host's time.
pub(super) fn v_log_history(s: &mut EmulatorSession) -> Result<Relation> {
    grant(s, "V_$LOG_HISTORY")?;
    let entries: Vec<(u32, u64, Scn, Option<i64>)> = {
        let r = s.replica()?;
        r.logs
            .iter()
            .enumerate()
            .flat_map(|(i, logs)| {
                logs.iter()
                    .map(move |l| (i as u32 + 1, l.sequence, l.first_scn, l.first_ts))
            })
            .collect()
    };
    let spec = [
        ("RECID", NUM),
        ("THREAD#", NUM),
        ("SEQUENCE#", NUM),
        ("FIRST_CHANGE#", NUM),
        ("FIRST_TIME", OraType::Date),
    ];
    let mut rows = Vec::new();
    for (i, (thread, seq, first, ts)) in entries.into_iter().enumerate() {
        let Some(ts) = ts else { continue };
        rows.push(vec![
            n(i as i64 + 1),
            n(thread),
            n(seq),
            n(first),
            host_date(s, ts)?,
        ]);
    }
    Ok(view(&spec, rows))
}

pub(super) fn dual() -> Relation {
    view(&[("DUMMY", text(1))], vec![vec![t("X")]])
}

#[cfg(test)]
mod tests {
    #[test]
    fn xids_split_as_v_transaction_shows_them() {
        // (2, 10, 823) → 02000a0037030000 (types_map::xid_hex's example).
        assert_eq!(super::xid_parts("02000a0037030000"), (2, 10, 823));
        assert_eq!(super::xid_parts("zz"), (0, 0, 0));
    }
}
