//! Signals: operators' requests to a running capture (snapshot a table, pause, resume, stop), in
//! Debezium's JSON shape `{"id", "type", "data"}`. They arrive on the file channel ([`spool`], a
//! directory under the state directory) or the source channel (rows of a signal table, read from
//! the change stream).

pub mod collections;
pub mod spool;

pub use collections::Patterns;

use crate::errors::{shown, CdcError, Result};
use crate::names::TableName;
use serde_json::{json, Value as Json};

/// The signal types, as Debezium names them.
pub const TYPES: &[&str] = &[
    "execute-snapshot",
    "pause-snapshot",
    "resume-snapshot",
    "stop-snapshot",
    "set-throttle",
    "log",
];

/// The longest id: Debezium's signal table has `id VARCHAR(42)`.
pub const MAX_ID_LEN: usize = 42;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SnapshotKind {
    /// Chunks read while streaming goes on.
    Incremental,
    /// Streaming pauses; the tables are read at the SCN it paused at.
    Blocking,
}

impl SnapshotKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SnapshotKind::Incremental => "incremental",
            SnapshotKind::Blocking => "blocking",
        }
    }

    pub fn parse(text: &str) -> Option<SnapshotKind> {
        match text.to_ascii_lowercase().as_str() {
            "incremental" => Some(SnapshotKind::Incremental),
            "blocking" => Some(SnapshotKind::Blocking),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    ExecuteSnapshot {
        tables: Vec<TableName>,
        kind: SnapshotKind,
        /// `additional-conditions`: a SQL condition per table narrowing the rows read.
        filters: Vec<(TableName, String)>,
    },
    PauseSnapshot,
    ResumeSnapshot,
    /// Abandon the signal snapshots (only these tables of them when some are named).
    StopSnapshot {
        tables: Vec<TableName>,
    },
    /// A custom signal (Debezium's shape): the snapshot throttle, overall or for these tables,
    /// from now on in this run (0: no limit).
    SetThrottle {
        rows_per_second: u64,
        tables: Vec<TableName>,
    },
    /// Debezium's `log` signal: the message is written to the log (and an ops event).
    Log {
        message: String,
    },
}

/// The most of a `log` signal's message written to the log, the ops events and the offsets'
/// signal history: a message is a note for operators, and a megabyte of one would be written
/// whole three times over.
pub const MAX_LOG_MESSAGE: usize = 4096;

/// A `log` signal's message as it is written: at most [`MAX_LOG_MESSAGE`] bytes (the cut said,
/// with how much was cut), control characters escaped (`\n` as the two characters `\` `n`) so
/// a message cannot forge lines of its own in the log (`…\nERROR capture stopped: …`).
pub fn loggable(message: &str) -> String {
    let mut end = message.len().min(MAX_LOG_MESSAGE);
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    let mut out = String::with_capacity(end + 48);
    for c in message[..end].chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if end < message.len() {
        out.push_str(&format!(
            "… (cut: {} of {} bytes not shown)",
            message.len() - end,
            message.len()
        ));
    }
    out
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signal {
    pub id: String,
    pub action: Action,
    /// Entries given as regular expressions, until [`Signal::expanded`] matches them against
    /// the captured tables.
    pub patterns: Patterns,
}

fn bad(what: &str, why: impl std::fmt::Display) -> CdcError {
    CdcError::InvalidSignal(format!("{what}: {why}"))
}

fn table_name(field: &str, v: &Json) -> Result<TableName> {
    let text = v.as_str().ok_or_else(|| {
        bad(
            field,
            format!(
                "expected a table name string, found {}",
                shown(&v.to_string(), 64)
            ),
        )
    })?;
    text.parse::<TableName>().map_err(|e| bad(field, e))
}

impl Signal {
    /// The signal's type, as it is spelled on the wire.
    pub fn type_name(&self) -> &'static str {
        match self.action {
            Action::ExecuteSnapshot { .. } => "execute-snapshot",
            Action::PauseSnapshot => "pause-snapshot",
            Action::ResumeSnapshot => "resume-snapshot",
            Action::StopSnapshot { .. } => "stop-snapshot",
            Action::SetThrottle { .. } => "set-throttle",
            Action::Log { .. } => "log",
        }
    }

    /// The tables the signal names (none for pause and resume).
    pub fn tables(&self) -> &[TableName] {
        match &self.action {
            Action::ExecuteSnapshot { tables, .. }
            | Action::StopSnapshot { tables }
            | Action::SetThrottle { tables, .. } => tables,
            Action::PauseSnapshot | Action::ResumeSnapshot | Action::Log { .. } => &[],
        }
    }

    /// A signal from its three parts, as a signal table row holds them: `data` is JSON text
    /// (or empty for pause and resume).
    pub fn from_parts(id: &str, kind: &str, data: Option<&str>) -> Result<Signal> {
        let data = match data.map(str::trim).filter(|d| !d.is_empty()) {
            None => Json::Null,
            Some(text) => serde_json::from_str(text).map_err(|e| bad("data", e))?,
        };
        Signal::from_json(&json!({"id": id, "type": kind, "data": data}))
    }

    /// Parse and check a signal in Debezium's shape: `{"id": …, "type": …, "data": {…}}`.
    /// `data` may also be a string holding JSON (as a signal table's column does).
    pub fn from_json(v: &Json) -> Result<Signal> {
        let obj = v
            .as_object()
            .ok_or_else(|| bad("signal", "expected a JSON object with id, type and data"))?;
        if let Some(k) = obj
            .keys()
            .find(|k| !matches!(k.as_str(), "id" | "type" | "data"))
        {
            return Err(bad(
                "signal",
                format!("unknown field `{}` (expected id, type, data)", shown(k, 48)),
            ));
        }
        let id = obj
            .get("id")
            .and_then(Json::as_str)
            .ok_or_else(|| bad("id", "missing or not a string"))?;
        check_id(id)?;
        let kind = obj
            .get("type")
            .and_then(Json::as_str)
            .ok_or_else(|| bad("type", "missing or not a string"))?;
        let data = match obj.get("data") {
            Some(Json::String(s)) if s.trim().is_empty() => Json::Null,
            Some(Json::String(s)) => serde_json::from_str(s).map_err(|e| bad("data", e))?,
            Some(other) => other.clone(),
            None => Json::Null,
        };
        let data = match &data {
            Json::Null => serde_json::Map::new(),
            Json::Object(m) => m.clone(),
            other => {
                return Err(bad(
                    "data",
                    format!(
                        "expected a JSON object, found {}",
                        shown(&other.to_string(), 64)
                    ),
                ))
            }
        };
        let patterns = std::cell::RefCell::new(Patterns::default());
        let tables = |required: bool| -> Result<Vec<TableName>> {
            let list = match data.get("data-collections") {
                None | Some(Json::Null) if !required => return Ok(Vec::new()),
                None | Some(Json::Null) => {
                    return Err(bad(
                        "data.data-collections",
                        "missing: name the tables to snapshot",
                    ))
                }
                Some(Json::Array(a)) => a,
                Some(other) => {
                    return Err(bad(
                        "data.data-collections",
                        format!(
                            "expected a list of table names, found {}",
                            shown(&other.to_string(), 64)
                        ),
                    ))
                }
            };
            if required && list.is_empty() {
                return Err(bad(
                    "data.data-collections",
                    "is empty: name the tables to snapshot",
                ));
            }
            let mut out: Vec<TableName> = Vec::new();
            for t in list {
                // Debezium reads an entry as a regular expression: kept for `expanded`.
                if let Some(p) = t.as_str().filter(|p| collections::is_pattern(p)) {
                    let mut ps = patterns.borrow_mut();
                    if !ps.tables.iter().any(|q| q == p) {
                        ps.tables.push(p.to_string());
                    }
                    continue;
                }
                let name = table_name("data.data-collections", t)?;
                if !out.contains(&name) {
                    out.push(name);
                }
            }
            Ok(out)
        };
        let action = match kind.to_ascii_lowercase().as_str() {
            "execute-snapshot" => {
                // Debezium chunks by this column instead of the key; read without it, the
                // snapshot would run chunked by the key while the sender believes otherwise.
                if let Some(v) = data.get("surrogate-key").filter(|v| !v.is_null()) {
                    return Err(bad(
                        "data.surrogate-key",
                        format!(
                            "{} is not supported: snapshots chunk by the table's primary or unique key, \
                             or by the columns cdc.key.<table> names; set that and send the signal \
                             without surrogate-key",
                            shown(&v.to_string(), 48)
                        ),
                    ));
                }
                let tables = tables(true)?;
                let kind = match data.get("type") {
                    None | Some(Json::Null) => SnapshotKind::Incremental,
                    Some(Json::String(s)) => SnapshotKind::parse(s).ok_or_else(|| {
                        bad("data.type", format!("`{}` is not incremental or blocking", shown(s, 48)))
                    })?,
                    Some(other) => {
                        return Err(bad(
                            "data.type",
                            format!("expected a string, found {}", shown(&other.to_string(), 64)),
                        ))
                    }
                };
                let filters = conditions(&data, &tables, kind, &mut patterns.borrow_mut())?;
                Action::ExecuteSnapshot {
                    tables,
                    kind,
                    filters,
                }
            }
            "pause-snapshot" => Action::PauseSnapshot,
            "resume-snapshot" => Action::ResumeSnapshot,
            "stop-snapshot" => Action::StopSnapshot {
                tables: tables(false)?,
            },
            "set-throttle" => Action::SetThrottle {
                rows_per_second: match data.get("max-rows-per-second") {
                    Some(v) => v.as_u64().ok_or_else(|| {
                        bad(
                            "data.max-rows-per-second",
                            format!("expected a whole number of rows per second (0: no limit), found {}", shown(&v.to_string(), 64)),
                        )
                    })?,
                    None => {
                        return Err(bad(
                            "data.max-rows-per-second",
                            "missing: the rows per second snapshots may read (0: no limit)",
                        ))
                    }
                },
                tables: tables(false)?,
            },
            "log" => Action::Log {
                message: match data.get("message") {
                    Some(Json::String(m)) => m.clone(),
                    other => {
                        return Err(bad(
                            "data.message",
                            format!(
                                "expected the message to log as a string, found {}",
                                other.map_or("nothing".to_string(), |v| shown(&v.to_string(), 64))
                            ),
                        ))
                    }
                },
            },
            other => {
                return Err(bad(
                    "type",
                    format!(
                        "unknown signal type `{}` (expected one of: {})",
                        shown(other, 48),
                        TYPES.join(", ")
                    ),
                ))
            }
        };
        Ok(Signal {
            id: id.to_string(),
            action,
            patterns: patterns.into_inner(),
        })
    }

    /// The signal in Debezium's shape (what the file channel stores).
    pub fn to_json(&self) -> Json {
        // Names first, then the patterns not yet expanded (as they came).
        let collections = |tables: &[TableName]| -> Vec<String> {
            tables
                .iter()
                .map(|t| t.to_string())
                .chain(self.patterns.tables.iter().cloned())
                .collect()
        };
        let data = match &self.action {
            Action::ExecuteSnapshot {
                tables,
                kind,
                filters,
            } => {
                let mut d = json!({
                    "data-collections": collections(tables),
                    "type": kind.as_str().to_ascii_uppercase(),
                });
                if !filters.is_empty() || !self.patterns.conditions.is_empty() {
                    d["additional-conditions"] = filters
                        .iter()
                        .map(|(t, f)| json!({"data-collection": t.to_string(), "filter": f}))
                        .chain(
                            self.patterns
                                .conditions
                                .iter()
                                .map(|(t, f)| json!({"data-collection": t, "filter": f})),
                        )
                        .collect();
                }
                d
            }
            Action::StopSnapshot { tables } if !collections(tables).is_empty() => json!({
                "data-collections": collections(tables),
                "type": "INCREMENTAL",
            }),
            Action::SetThrottle {
                rows_per_second,
                tables,
            } => {
                let mut d = json!({"max-rows-per-second": rows_per_second});
                if !collections(tables).is_empty() {
                    d["data-collections"] = collections(tables).into();
                }
                d
            }
            Action::Log { message } => json!({"message": message}),
            _ => Json::Null,
        };
        json!({"id": self.id, "type": self.type_name(), "data": data})
    }

    /// The signal with Debezium's non-CDB names resolved: outside a multitenant database
    /// Debezium names a table `DATABASE.SCHEMA.TABLE`, so a three-part name whose first part is
    /// this database's name (`database`, case-insensitive) is the table `SCHEMA.TABLE`. In a CDB
    /// the first part is the PDB, as here.
    pub fn resolved(&self, database: &str, cdb: bool) -> Signal {
        let fix = |t: &TableName| -> TableName {
            match &t.pdb {
                Some(p) if !cdb && p.eq_ignore_ascii_case(database) => TableName {
                    pdb: None,
                    ..t.clone()
                },
                _ => t.clone(),
            }
        };
        let fix_all = |ts: &[TableName]| -> Vec<TableName> {
            let mut out: Vec<TableName> = Vec::new();
            for t in ts.iter().map(fix) {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
            out
        };
        let action = match &self.action {
            Action::ExecuteSnapshot {
                tables,
                kind,
                filters,
            } => Action::ExecuteSnapshot {
                tables: fix_all(tables),
                kind: *kind,
                filters: filters.iter().map(|(t, f)| (fix(t), f.clone())).collect(),
            },
            Action::StopSnapshot { tables } => Action::StopSnapshot {
                tables: fix_all(tables),
            },
            Action::SetThrottle {
                rows_per_second,
                tables,
            } => Action::SetThrottle {
                rows_per_second: *rows_per_second,
                tables: fix_all(tables),
            },
            other => other.clone(),
        };
        Signal {
            id: self.id.clone(),
            action,
            patterns: self.patterns.clone(),
        }
    }
}

/// `additional-conditions`: `[{"data-collection": T, "filter": SQL}]`, each for a named table,
/// each a single SQL condition (or, blocking, `SELECT * FROM T WHERE condition`). Entries whose
/// table is a pattern, or all of them when the signal's tables have patterns, wait in `patterns`
/// for the captured tables.
fn conditions(
    data: &serde_json::Map<String, Json>,
    tables: &[TableName],
    kind: SnapshotKind,
    patterns: &mut Patterns,
) -> Result<Vec<(TableName, String)>> {
    let list = match data.get("additional-conditions") {
        None | Some(Json::Null) => return Ok(Vec::new()),
        Some(Json::Array(a)) => a,
        Some(other) => {
            return Err(bad(
                "data.additional-conditions",
                format!("expected a list, found {}", shown(&other.to_string(), 64)),
            ))
        }
    };
    let mut out: Vec<(TableName, String)> = Vec::new();
    for c in list {
        let field = "data.additional-conditions";
        let dc = c
            .get("data-collection")
            .ok_or_else(|| bad(field, "an entry has no data-collection"))?;
        if let Some(text) = dc.as_str() {
            if !patterns.tables.is_empty() || collections::is_pattern(text) {
                let filter = c.get("filter").and_then(Json::as_str).ok_or_else(|| {
                    bad(
                        field,
                        format!("the entry for {} has no filter string", shown(text, 80)),
                    )
                })?;
                patterns
                    .conditions
                    .push((text.to_string(), filter.to_string()));
                continue;
            }
        }
        let table = table_name(field, dc)?;
        if !tables.contains(&table) {
            return Err(bad(
                field,
                format!("{table} is not one of the signal's data-collections"),
            ));
        }
        let filter = c
            .get("filter")
            .and_then(Json::as_str)
            .ok_or_else(|| bad(field, format!("the entry for {table} has no filter string")))?;
        let condition = collections::condition_of(&table, filter, kind)?;
        if out.iter().any(|(t, _)| t == &table) {
            return Err(bad(field, format!("{table} has more than one filter")));
        }
        out.push((table, condition));
    }
    Ok(out)
}

/// Ids name files in the spool and rows in offsets: short, printable, no path separators.
pub fn check_id(id: &str) -> Result<()> {
    if id.is_empty() {
        return Err(bad("id", "is empty"));
    }
    if id.len() > MAX_ID_LEN {
        return Err(bad(
            "id",
            format!(
                "`{}` is longer than {MAX_ID_LEN} characters",
                shown(id, MAX_ID_LEN)
            ),
        ));
    }
    if let Some(c) = id
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')))
    {
        return Err(bad(
            "id",
            format!("`{id}` has `{c}`: use letters, digits, `-`, `_`, `.` and `:`"),
        ));
    }
    if id.starts_with('.') {
        return Err(bad("id", format!("`{id}` starts with a dot")));
    }
    Ok(())
}

/// A fresh id when the operator gives none: the time in milliseconds and a random tail.
pub fn new_id() -> String {
    use rand::Rng;
    let tail: u32 = rand::thread_rng().gen_range(0..0x10000);
    format!("sig-{}-{tail:04x}", cdc_core::civil::now_ms())
}

#[cfg(test)]
mod tests;
