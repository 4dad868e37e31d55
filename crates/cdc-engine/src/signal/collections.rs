//! Debezium's data-collection forms that need the captured tables to mean anything: regular
//! expressions in `data-collections` and `additional-conditions`, and a blocking snapshot's
//! filter given as a whole `SELECT * FROM T WHERE …`.
//!
//! Checked against Debezium (debezium-connector-common): `ExecuteSnapshot` compiles an
//! additional condition's `data-collection` with `Pattern.CASE_INSENSITIVE`;
//! `AbstractIncrementalSnapshotChangeEventSource.expandAndDedupeDataCollectionIds` matches each
//! `data-collections` entry as a whole-name `Pattern` (case-sensitive) against
//! `TableId.identifier()` of the captured tables (`DATABASE.SCHEMA.TABLE`, or `PDB.SCHEMA.TABLE`
//! in a CDB); `AbstractSnapshotChangeEventSource.tableNameMatcher` (blocking) also matches the
//! double-quoted form; `RelationalSnapshotChangeEventSource.getBlockingSnapshottingTask` uses a
//! blocking condition's filter as the table's whole SELECT. Where Debezium keeps a pattern that
//! matches nothing as a name (and reads nothing), this refuses it (CDC-8141).

use super::{bad, Action, Signal, SnapshotKind};
use crate::errors::{shown, CdcError, Code, Result};
use crate::names::TableName;

/// Entries the signal gave as regular expressions, expanded against the captured tables by
/// [`Signal::expanded`] (empty once expanded).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Patterns {
    /// `data-collections` (or a stop/throttle signal's) entries that are not plain names.
    pub tables: Vec<String>,
    /// `additional-conditions` entries `(data-collection, filter)` kept until the tables are
    /// known: every entry when `tables` has patterns, else only those whose data-collection is a
    /// pattern.
    pub conditions: Vec<(String, String)>,
}

impl Patterns {
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty() && self.conditions.is_empty()
    }
}

/// Whether a data-collection entry is a regular expression rather than a table name: it has a
/// character no (quoted or unquoted) Oracle name part uses.
pub fn is_pattern(text: &str) -> bool {
    text.chars()
        .any(|c| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '#' | '.' | '"' | ' ')))
}

fn compile(field: &str, pattern: &str, ignore_case: bool) -> Result<regex::Regex> {
    regex::RegexBuilder::new(&format!("^(?:{pattern})$"))
        .case_insensitive(ignore_case)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| {
            CdcError::coded(
                Code::Cdc8140,
                format!(
                    "invalid signal: {field}: `{}` is not a regular expression: {}",
                    shown(pattern, 80),
                    e.to_string().lines().last().unwrap_or_default().trim()
                ),
            )
        })
}

/// The names a table answers to: Debezium's identifier (`DATABASE.SCHEMA.TABLE` outside a CDB,
/// `PDB.SCHEMA.TABLE` in one), its double-quoted form, and `SCHEMA.TABLE`.
fn names(t: &TableName, database: Option<&str>) -> Vec<String> {
    let mut out = vec![format!("{}.{}", t.owner, t.table)];
    if let Some(first) = t.pdb.as_deref().or(database) {
        out.push(format!("{first}.{}.{}", t.owner, t.table));
        out.push(format!("\"{first}\".\"{}\".\"{}\"", t.owner, t.table));
    }
    out
}

/// One `additional-conditions` filter of `table`, as the condition the chunked read adds: the
/// filter itself, or the WHERE condition of a whole `SELECT * FROM table WHERE …` (blocking only).
pub fn condition_of(table: &TableName, filter: &str, kind: SnapshotKind) -> Result<String> {
    let field = "data.additional-conditions";
    let condition = match select_filter(filter)? {
        None => filter.trim().to_string(),
        Some((from, condition)) => {
            if kind != SnapshotKind::Blocking {
                return Err(CdcError::coded(
                    Code::Cdc8143,
                    format!("invalid signal: {field}: {table}: a whole SELECT is a blocking snapshot's filter (Debezium takes an incremental one's as a condition); give the condition alone"),
                ));
            }
            let same = from.owner == table.owner
                && from.table == table.table
                && (from.pdb.is_none() || table.pdb.is_none() || from.pdb == table.pdb);
            if !same {
                return Err(CdcError::coded(
                    Code::Cdc8142,
                    format!("invalid signal: {field}: the filter for {table} selects from {from}"),
                ));
            }
            condition
        }
    };
    crate::sql_condition::filter_condition(&condition)
        .map_err(|why| bad(field, format!("{table}: {why}")))?;
    Ok(condition)
}

/// `SELECT * FROM T WHERE condition` read into `(T, condition)`; `None` when the filter is not a
/// SELECT (a plain condition); CDC-8143 for a SELECT of another shape.
fn select_filter(filter: &str) -> Result<Option<(TableName, String)>> {
    let text = filter.trim();
    let Some(rest) = keyword(text, "SELECT") else {
        return Ok(None);
    };
    let refuse = |why: &str| {
        Err(CdcError::coded(
            Code::Cdc8143,
            format!(
                "invalid signal: data.additional-conditions: the filter `{}` {why}: only `SELECT * FROM SCHEMA.TABLE WHERE condition` (or the condition alone) is taken",
                shown(text, 120)
            ),
        ))
    };
    let Some(rest) = rest.trim_start().strip_prefix('*') else {
        return refuse("selects a column list");
    };
    let Some(rest) = keyword(rest.trim_start(), "FROM") else {
        return refuse("has no FROM after `SELECT *`");
    };
    let rest = rest.trim_start();
    let (name, rest) = split_name(rest);
    let Ok(from) = name.parse::<TableName>() else {
        return refuse("does not name one table after FROM");
    };
    let rest = rest.trim_start();
    let Some(condition) = keyword(rest, "WHERE") else {
        return if rest.is_empty() {
            refuse("has no WHERE")
        } else {
            refuse("has more than a table after FROM (an alias, a join)")
        };
    };
    if let Some(word) = top_level_words(condition).into_iter().find(|w| {
        matches!(
            w.as_str(),
            "GROUP"
                | "ORDER"
                | "HAVING"
                | "UNION"
                | "INTERSECT"
                | "MINUS"
                | "CONNECT"
                | "START"
                | "FOR"
                | "MODEL"
        )
    }) {
        return refuse(&format!("has {word} after its condition"));
    }
    Ok(Some((from, condition.trim().to_string())))
}

/// The text after a leading keyword (any case) followed by a space or the end.
fn keyword<'t>(text: &'t str, word: &str) -> Option<&'t str> {
    let head = text.get(..word.len())?;
    let rest = &text[word.len()..];
    (head.eq_ignore_ascii_case(word)
        && rest
            .chars()
            .next()
            .is_none_or(|c| c.is_whitespace() || c == '*'))
    .then_some(rest)
}

/// A table name (quoted parts may hold spaces) and the text after it.
fn split_name(text: &str) -> (&str, &str) {
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => return (&text[..i], &text[i..]),
            _ => {}
        }
    }
    (text, "")
}

/// The words (upper-cased) outside quotes, identifiers in double quotes and parentheses.
fn top_level_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut quote, mut word) = (0usize, None::<char>, String::new());
    for c in text.chars().chain(std::iter::once(' ')) {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        if c.is_alphanumeric() || matches!(c, '_' | '$' | '#') {
            word.push(c.to_ascii_uppercase());
            continue;
        }
        if depth == 0 && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        word.clear();
        match c {
            '\'' | '"' => quote = Some(c),
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    out
}

impl Signal {
    /// The signal with its patterns replaced by the captured tables they match (`captured`,
    /// without the signal table), and Debezium's `DATABASE.SCHEMA.TABLE` names resolved
    /// (`database`: the name and whether it is a CDB). A pattern that does not compile is
    /// CDC-8140, one that matches nothing CDC-8141.
    pub fn expanded(
        &self,
        captured: &[TableName],
        database: Option<(&str, bool)>,
    ) -> Result<Signal> {
        let signal = match database {
            Some((name, cdb)) => self.resolved(name, cdb),
            None => self.clone(),
        };
        if signal.patterns.is_empty() {
            return Ok(signal);
        }
        let db = database.filter(|(_, cdb)| !cdb).map(|(n, _)| n);
        let field = "data.data-collections";
        let mut tables: Vec<TableName> = signal.tables().to_vec();
        for p in &signal.patterns.tables {
            let re = compile(field, p, false)?;
            let matched: Vec<&TableName> = captured
                .iter()
                .filter(|t| names(t, db).iter().any(|n| re.is_match(n)))
                .collect();
            if matched.is_empty() {
                return Err(CdcError::coded(
                    Code::Cdc8141,
                    format!(
                        "{field}: the pattern `{}` matches no captured table",
                        shown(p, 80)
                    ),
                ));
            }
            for t in matched {
                if !tables.contains(t) {
                    tables.push(t.clone());
                }
            }
        }
        let action = match signal.action {
            Action::ExecuteSnapshot {
                kind, mut filters, ..
            } => {
                let field = "data.additional-conditions";
                for (dc, filter) in &signal.patterns.conditions {
                    let matched: Vec<TableName> = if is_pattern(dc) {
                        let re = compile(field, dc, true)?;
                        tables
                            .iter()
                            .filter(|t| names(t, db).iter().any(|n| re.is_match(n)))
                            .cloned()
                            .collect()
                    } else {
                        let t = dc.parse::<TableName>().map_err(|e| bad(field, e))?;
                        let t = match (&t.pdb, db) {
                            (Some(p), Some(d)) if p.eq_ignore_ascii_case(d) => {
                                TableName { pdb: None, ..t }
                            }
                            _ => t,
                        };
                        if !tables.contains(&t) {
                            return Err(bad(
                                field,
                                format!("{t} is not one of the signal's data-collections"),
                            ));
                        }
                        vec![t]
                    };
                    if matched.is_empty() {
                        return Err(CdcError::coded(
                            Code::Cdc8141,
                            format!(
                                "{field}: the pattern `{}` matches none of the signal's tables",
                                shown(dc, 80)
                            ),
                        ));
                    }
                    for t in matched {
                        if filters.iter().any(|(f, _)| f == &t) {
                            return Err(bad(field, format!("{t} has more than one filter")));
                        }
                        let condition = condition_of(&t, filter, kind)?;
                        filters.push((t, condition));
                    }
                }
                Action::ExecuteSnapshot {
                    tables,
                    kind,
                    filters,
                }
            }
            Action::StopSnapshot { .. } => Action::StopSnapshot { tables },
            Action::SetThrottle {
                rows_per_second, ..
            } => Action::SetThrottle {
                rows_per_second,
                tables,
            },
            other => other,
        };
        Ok(Signal {
            id: signal.id,
            action,
            patterns: Patterns::default(),
        })
    }
}

#[cfg(test)]
mod tests;
