//! The emulated database's redo logs as Oracle's views show them: which logs are still
//! available (V$LOG / V$ARCHIVED_LOG), and the redo layout, archive destinations, log switch
//! history and resource limits (V$LOG, V$ARCHIVE_DEST_STATUS, V$LOG_HISTORY, V$RESOURCE_LIMIT).

use super::schema::{DestStatusSpec, DestTypeSpec};
use super::store::{LogSeq, Replica};
use cdc_core::model::*;

impl Replica {
    /// The VALID LOCAL archive destination archived logs are read from, when the database
    /// archives at all (ARCHIVELOG mode); `None` means only the online logs exist.
    fn archive_location(&self) -> Option<&str> {
        let d = &self.schema.database;
        if !d.archivelog {
            return None;
        }
        d.archive_destinations
            .iter()
            .filter(|a| a.status == DestStatusSpec::Valid && a.kind == DestTypeSpec::Local)
            .min_by_key(|a| a.dest_id())
            .map(|a| a.destination.as_str())
    }

    /// How many of a thread's older logs are skipped: with archiving, the ones beyond
    /// `archived_logs_kept`; without, all but the newest `redo_groups` (online logs are reused).
    fn skipped_logs(&self, count: usize) -> usize {
        let d = &self.schema.database;
        match self.archive_location() {
            Some(_) if d.archived_logs_kept == 0 => 0,
            Some(_) => count.saturating_sub(d.archived_logs_kept as usize + 1),
            None => count.saturating_sub(d.redo_groups.max(2) as usize),
        }
    }

    /// Logs still available per thread: the current one and the newest archived ones.
    pub fn retained_logs(&self) -> Vec<LogSeq> {
        let mut out = Vec::new();
        for logs in &self.logs {
            out.extend(logs.iter().skip(self.skipped_logs(logs.len())).cloned());
        }
        out
    }

    /// The log files as V$LOG/V$ARCHIVED_LOG would list them: archives on the VALID LOCAL
    /// destination, and online logs for what is not archived (the current log, or every log
    /// still in its group when the database does not archive).
    pub fn log_files(&self) -> Vec<LogFile> {
        let location = self.archive_location();
        let mut out = Vec::new();
        for (i, logs) in self.logs.iter().enumerate() {
            let thread = i as u32 + 1;
            for (j, l) in logs.iter().enumerate().skip(self.skipped_logs(logs.len())) {
                let next = logs.get(j + 1).map(|n| n.first_scn);
                let archive = location.filter(|_| next.is_some());
                out.push(LogFile {
                    name: match archive {
                        Some(dir) => format!(
                            "{}/{thread}_{}_1000000001.arc",
                            dir.trim_end_matches('/'),
                            l.sequence
                        ),
                        None => format!("/u01/oradata/redo{thread:02}_{}.log", l.sequence),
                    },
                    thread,
                    sequence: l.sequence,
                    first_scn: l.first_scn,
                    next_scn: next,
                    archived: archive.is_some(),
                    dbid: None,
                    ..LogFile::default()
                });
            }
        }
        out
    }

    /// V$LOG, V$ARCHIVE_DEST_STATUS, V$LOG_HISTORY and V$RESOURCE_LIMIT as the schema and the
    /// redo make them; log switches are counted per clock hour (UTC) of the 24 hours before
    /// `now_ms`.
    pub fn instance_config(&self, now_ms: i64) -> InstanceConfig {
        let d = &self.schema.database;
        let threads = self.logs.len().max(1) as u32;
        let mut redo_groups = Vec::new();
        for t in 1..=threads {
            for g in 0..d.redo_groups {
                redo_groups.push(RedoGroup {
                    group: (t - 1) * d.redo_groups + g + 1,
                    thread: t,
                    bytes: d.redo_group_mb.saturating_mul(1024 * 1024),
                    members: 1,
                });
            }
        }
        let mut hours: std::collections::BTreeMap<(u32, String), u64> = Default::default();
        let since = now_ms - 24 * 3_600_000;
        for (i, logs) in self.logs.iter().enumerate() {
            for ts in logs.iter().filter_map(|l| l.first_ts) {
                if ts < since || ts > now_ms {
                    continue;
                }
                // The hour of the database's own DATEs (V$LOG_HISTORY.FIRST_TIME), as
                // Oracle's TRUNC(FIRST_TIME, 'HH24') gives it.
                let mut hour = self.host_time(ts);
                hour.truncate("YYYY-MM-DD HH".len());
                *hours.entry((i as u32 + 1, hour)).or_default() += 1;
            }
        }
        InstanceConfig {
            container: d.multitenant.then(|| "CDB$ROOT".to_string()),
            compatible: Some(d.compatible.clone()),
            undo_tablespace: Some("UNDOTBS1".into()),
            goldengate_replication: Some(d.goldengate_replication),
            max_string_size: Some(d.max_string_size.parameter().into()),
            // A parameter from 23c: earlier releases have no such row.
            time_at_dbtimezone: (super::schema::release(&d.version).0 >= 23)
                .then(|| d.time_at_dbtimezone.parameter().into()),
            character_set: Some(d.character_set.name().into()),
            national_character_set: Some(d.national_character_set.name().into()),
            processes: Some(ResourceUse {
                current: d.processes_in_use,
                limit: Some(d.processes),
            }),
            sessions: Some(ResourceUse {
                current: d.sessions_in_use,
                limit: Some(d.sessions),
            }),
            // The user's, not the database's: the session fills it in.
            sessions_per_user: None,
            call_limits: None,
            resource_limit: Some(super::schema::resource_limit(&d.version)),
            archive_destinations: Some(
                d.archive_destinations
                    .iter()
                    .map(|a| ArchiveDestination {
                        dest_id: a.dest_id().unwrap_or(0),
                        name: a.name.to_ascii_uppercase(),
                        status: a.status.as_oracle().into(),
                        kind: a.kind.as_oracle().into(),
                        destination: a.destination.clone(),
                    })
                    .collect(),
            ),
            redo_groups: Some(redo_groups),
            log_switches: Some(
                hours
                    .into_iter()
                    .map(|((thread, hour), switches)| SwitchHour {
                        thread,
                        hour,
                        switches,
                    })
                    .collect(),
            ),
        }
    }

    /// The log sequence a record belongs to, for THREAD#/SEQUENCE#/RS_ID.
    pub fn sequence_of(&self, thread: u32, record: u64) -> u64 {
        self.logs
            .get((thread as usize).wrapping_sub(1))
            .and_then(|logs| {
                let i = logs.partition_point(|l| l.first_record <= record);
                logs.get(i.saturating_sub(1))
            })
            .map(|l| l.sequence)
            .unwrap_or(1)
    }
}

impl Replica {
    /// The dictionary builds in `logs` (the logs a database holds), as V$ARCHIVED_LOG's
    /// DICTIONARY_BEGIN/DICTIONARY_END show them: only in archived logs.
    pub fn dictionary_builds_in(&self, logs: &[LogFile]) -> Vec<DictionaryBuild> {
        self.dictionary_builds
            .iter()
            .filter_map(|(thread, sequence, _)| {
                let log = logs
                    .iter()
                    .find(|l| l.thread == *thread && l.sequence == *sequence && l.archived)?;
                Some(DictionaryBuild {
                    thread: *thread,
                    begin_sequence: *sequence,
                    begin_scn: log.first_scn,
                    end_sequence: *sequence,
                    end_next_scn: log.next_scn?,
                })
            })
            .collect()
    }
}
