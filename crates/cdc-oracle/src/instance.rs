//! Instance parameters and redo layout for the pre-flight checks ([`InstanceConfig`]).
//!
//! Every part comes from its own view; a view the user may not read (ORA-00942, ORA-01031)
//! leaves that part unknown (`None`) with a warning, so one missing grant does not hide the
//! rest. Other errors (a lost connection) fail the call.

use super::connect::CallContext;
use super::driver::{DbSession, FetchOptions};
use super::fetch::Cols;
use super::{is_missing_privilege, sql};
use crate::errors::{CdcError, Result};
use cdc_core::model::*;

/// Run `statement` and convert each row; `Ok(None)` when the view cannot be read.
fn optional<T>(
    conn: &dyn DbSession,
    statement: &str,
    operation: &'static str,
    mut f: impl FnMut(&Cols) -> Result<T>,
) -> Result<Option<Vec<T>>> {
    let c = CallContext {
        operation,
        ..CallContext::default()
    };
    let rows = match conn.query(statement, &[], FetchOptions::default()) {
        Ok(rows) => rows,
        Err(e) if is_missing_privilege(&e) => {
            tracing::warn!(
                "{operation}: {}; that part of the pre-flight checks is unknown",
                e.message
            );
            return Ok(None);
        }
        Err(e) => return Err(e.runtime(&c)),
    };
    let mut out = Vec::new();
    for row in rows {
        let row = row.map_err(|e| e.runtime(&c))?;
        out.push(f(&Cols { row: &row, ctx: &c })?);
    }
    Ok(Some(out))
}

/// V$RESOURCE_LIMIT.LIMIT_VALUE: `UNLIMITED` or a number with leading blanks.
pub fn parse_limit(text: &str) -> Result<Option<u64>> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("UNLIMITED") {
        return Ok(None);
    }
    t.parse::<u64>().map(Some).map_err(|_| {
        CdcError::Database(format!(
            "V$RESOURCE_LIMIT.LIMIT_VALUE `{t}` is not a number"
        ))
    })
}

/// USER_RESOURCE_LIMITS' CPU_PER_CALL and LOGICAL_READS_PER_CALL rows: each a number (the
/// limit) or `UNLIMITED`. Anything else (`DEFAULT`, where a release shows the profile's word
/// instead of resolving it; a row missing) leaves the limits unknown: `None`, never taken for
/// unlimited.
pub fn call_limits(rows: &[(String, Option<String>)]) -> Option<CallLimits> {
    let limit = |name: &str| -> Option<Option<u64>> {
        let text = rows
            .iter()
            .find(|(n, _)| n.trim() == name)?
            .1
            .as_deref()?
            .trim();
        if text.eq_ignore_ascii_case("UNLIMITED") {
            return Some(None);
        }
        match text.parse::<u64>() {
            Ok(n) => Some(Some(n)),
            Err(_) => {
                tracing::warn!(
                    "USER_RESOURCE_LIMITS gives {name} as `{text}`; the limit is unknown"
                );
                None
            }
        }
    };
    Some(CallLimits {
        cpu_per_call: limit("CPU_PER_CALL")?,
        logical_reads_per_call: limit("LOGICAL_READS_PER_CALL")?,
    })
}

/// USER_RESOURCE_LIMITS.LIMIT of SESSIONS_PER_USER: a number or `UNLIMITED`; anything else
/// (`DEFAULT`, where a release shows the profile's word instead of resolving it) is unknown.
pub fn sessions_per_user(text: &str) -> Option<SessionsPerUser> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("UNLIMITED") {
        return Some(SessionsPerUser::Unlimited);
    }
    match t.parse::<u64>() {
        Ok(n) => Some(SessionsPerUser::Limit(n)),
        Err(_) => {
            tracing::warn!(
                "USER_RESOURCE_LIMITS gives SESSIONS_PER_USER as `{t}`; the limit is unknown"
            );
            None
        }
    }
}

/// NLS_CHARACTERSET and NLS_NCHAR_CHARACTERSET into `config` (left unknown when the view
/// cannot be read).
fn read_character_sets(conn: &dyn DbSession, config: &mut InstanceConfig) -> Result<()> {
    if let Some(rows) = optional(
        conn,
        sql::CHARACTER_SETS,
        "reading NLS_DATABASE_PARAMETERS",
        |r| Ok((r.string(0)?, r.opt_string(1)?)),
    )? {
        for (name, value) in rows {
            match name.trim() {
                "NLS_CHARACTERSET" => config.character_set = value,
                _ => config.national_character_set = value,
            }
        }
    }
    Ok(())
}

/// The database's character sets alone (one query).
pub fn charsets(conn: &dyn DbSession) -> Result<crate::charset::Charsets> {
    let mut config = InstanceConfig::default();
    read_character_sets(conn, &mut config)?;
    Ok(config.charsets())
}

/// Read every part of the instance configuration.
pub fn read(conn: &dyn DbSession) -> Result<InstanceConfig> {
    let mut config = InstanceConfig::default();
    if let Some(rows) = optional(conn, sql::CONTAINER_NAME, "reading the container", |r| {
        Ok((r.string(0)?, r.string(1)?))
    })? {
        // CON_ID 0: not a CDB.
        config.container = rows
            .into_iter()
            .next()
            .filter(|(_, id)| id.trim() != "0")
            .map(|(name, _)| name);
    }
    if let Some(rows) = optional(conn, sql::INSTANCE_PARAMETERS, "reading V$PARAMETER", |r| {
        Ok((r.string(0)?, r.opt_string(1)?))
    })? {
        for (name, value) in rows {
            match name.as_str() {
                "compatible" => config.compatible = value,
                "enable_goldengate_replication" => {
                    config.goldengate_replication =
                        value.map(|v| v.trim().eq_ignore_ascii_case("TRUE"))
                }
                "max_string_size" => config.max_string_size = value,
                "time_at_dbtimezone" => config.time_at_dbtimezone = value,
                "resource_limit" => {
                    config.resource_limit = value.map(|v| v.trim().eq_ignore_ascii_case("TRUE"))
                }
                _ => config.undo_tablespace = value,
            }
        }
    }
    read_character_sets(conn, &mut config)?;
    if let Some(rows) = optional(
        conn,
        sql::RESOURCE_LIMITS,
        "reading V$RESOURCE_LIMIT",
        |r| Ok((r.string(0)?, r.u64(1)?, r.string(2)?)),
    )? {
        for (name, current, limit) in rows {
            let use_ = ResourceUse {
                current,
                limit: parse_limit(&limit)?,
            };
            match name.trim() {
                "processes" => config.processes = Some(use_),
                _ => config.sessions = Some(use_),
            }
        }
    }
    if let Some(rows) = optional(
        conn,
        sql::SESSIONS_PER_USER,
        "reading USER_RESOURCE_LIMITS",
        |r| r.opt_string(0),
    )? {
        config.sessions_per_user = rows
            .into_iter()
            .next()
            .flatten()
            .and_then(|t| sessions_per_user(&t));
    }
    if let Some(rows) = optional(
        conn,
        sql::CALL_LIMITS,
        "reading USER_RESOURCE_LIMITS",
        |r| Ok((r.string(0)?, r.opt_string(1)?)),
    )? {
        config.call_limits = call_limits(&rows);
    }
    config.archive_destinations = optional(
        conn,
        sql::ARCHIVE_DESTINATIONS,
        "reading V$ARCHIVE_DEST_STATUS",
        |r| {
            Ok(ArchiveDestination {
                dest_id: r.u32(0)?,
                name: r.string(1)?,
                status: r.string(2)?,
                kind: r.string(3)?,
                destination: r.opt_string(4)?.unwrap_or_default(),
            })
        },
    )?;
    config.redo_groups = optional(conn, sql::REDO_GROUPS, "reading V$LOG", |r| {
        Ok(RedoGroup {
            group: r.u32(0)?,
            thread: r.u32(1)?,
            bytes: r.u64(2)?,
            members: r.u32(3)?,
        })
    })?;
    config.log_switches = optional(conn, sql::LOG_SWITCHES, "reading V$LOG_HISTORY", |r| {
        Ok(SwitchHour {
            thread: r.u32(0)?,
            hour: r.string(1)?,
            switches: r.u64(2)?,
        })
    })?;
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::{call_limits, parse_limit, sessions_per_user};
    use cdc_core::model::SessionsPerUser;

    #[test]
    fn resource_limits_parse_blanks_and_unlimited() {
        assert_eq!(parse_limit("       300").ok(), Some(Some(300)));
        assert_eq!(parse_limit(" UNLIMITED").ok(), Some(None));
        assert!(parse_limit("lots").is_err());
    }

    /// A profile's limit is a number or UNLIMITED; the word DEFAULT, unresolved, is unknown
    /// (never taken for unlimited, nor for a limit of 0).
    #[test]
    fn call_limits_are_numbers_or_unlimited() {
        let rows = [
            ("CPU_PER_CALL".to_string(), Some("UNLIMITED".to_string())),
            (
                "LOGICAL_READS_PER_CALL".to_string(),
                Some(" 5000".to_string()),
            ),
        ];
        let l = call_limits(&rows).unwrap();
        assert_eq!(
            (l.cpu_per_call, l.logical_reads_per_call),
            (None, Some(5000))
        );
        // Unknown, not unlimited: a row missing, or the profile's word.
        assert_eq!(call_limits(&rows[..1]), None);
        let default = [
            rows[0].clone(),
            (
                "LOGICAL_READS_PER_CALL".to_string(),
                Some("DEFAULT".to_string()),
            ),
        ];
        assert_eq!(call_limits(&default), None);
    }

    #[test]
    fn sessions_per_user_parses_numbers_and_unlimited_only() {
        assert_eq!(sessions_per_user("10"), Some(SessionsPerUser::Limit(10)));
        assert_eq!(
            sessions_per_user(" UNLIMITED"),
            Some(SessionsPerUser::Unlimited)
        );
        assert_eq!(sessions_per_user("DEFAULT"), None);
        assert_eq!(sessions_per_user(""), None);
    }
}
