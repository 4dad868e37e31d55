//! The schema history capture keeps beside its offsets (`schema-history.json`): each captured
//! table's columns by SCN, as the decoder needs them for changes mined from before today's
//! dictionary, written atomically at every DDL.

use crate::errors::Result;
use crate::names::TableName;
use crate::ops::OpsLog;
use crate::settings::Settings;
use crate::snapshot::target::Decision;
use crate::state::StateDir;
use crate::stream::decode::{Catalog, TableSchema};
use cdc_core::model::Scn;
use serde_json::json;

pub const HISTORY_FILE: &str = "schema-history.json";

type History = std::collections::BTreeMap<String, Vec<(Scn, Vec<cdc_core::model::ColumnInfo>)>>;

/// How the decoder sees a captured table: its column history, record key and the columns
/// cdc.columns.exclude leaves out.
pub(crate) fn table_schema(
    t: &crate::snapshot::target::TableTarget,
    history: Vec<(Scn, Vec<cdc_core::model::ColumnInfo>)>,
) -> TableSchema {
    TableSchema {
        name: t.info.name.clone(),
        history,
        key: t.record_key.clone(),
        // By name: a column added later that cdc.columns.exclude names stays out too.
        excluded: t.excluded.clone(),
    }
}

/// Captured tables LogMiner writes no change of (a column type it does not stream), or with a
/// captured column capture does not stream (LONG, LONG RAW): a `table-not-streamable` ops
/// event and a warning for each (CDC-3007); their changes will come as UNSUPPORTED rows
/// (CDC-3003), or stop capture with CDC-3008.
pub(super) fn not_streamable(catalog: &Catalog, ops: &OpsLog) -> Result<()> {
    let mut names: Vec<&TableName> = catalog.tables.keys().collect();
    names.sort();
    for name in names {
        let t = &catalog.tables[name];
        let cols = t.history.last().map(|(_, c)| c.as_slice()).unwrap_or(&[]);
        let why: Vec<String> = cols
            .iter()
            .filter_map(
                |c| match c.data_type.logminer_support(catalog.goldengate_replication) {
                    crate::types::LogMinerSupport::TableUnsupported(w) => {
                        Some(format!("{} {}: {w}", c.name, c.data_type.sql_name()))
                    }
                    crate::types::LogMinerSupport::ColumnNotStreamed(w)
                        if !t.excluded.contains(&c.name) =>
                    {
                        Some(format!(
                            "{} {}: {w} (CDC-3008; exclude the column to stream the rest)",
                            c.name,
                            c.data_type.sql_name()
                        ))
                    }
                    _ => None,
                },
            )
            .collect();
        if why.is_empty() {
            continue;
        }
        let e = crate::errors::Code::Cdc3007;
        tracing::warn!(
            "{e}: {name} cannot be streamed: {}; its changes will not be published (CDC-3003, CDC-3008)",
            why.join("; ")
        );
        ops.emit(
            "table-not-streamable",
            json!({"table": name.to_string(), "code": e.info().code, "columns": why}),
        )?;
    }
    Ok(())
}

/// Write the schema history atomically (mode 0600).
pub(crate) fn save_history(path: &std::path::Path, catalog: &Catalog) -> Result<()> {
    let text = serde_json::to_vec_pretty(&catalog.history())
        .map_err(|e| crate::errors::CdcError::io(path, std::io::Error::other(e)))?;
    crate::atomic_file::write_atomically(path, &text)
}

/// The captured tables' schemas for decoding: the stored history where there is one (changes
/// may be mined from before today's dictionary), else today's columns.
pub(super) fn catalog(
    state: &StateDir,
    cdb: bool,
    decisions: &[Decision],
    session: &mut crate::source::Reconnecting<'_>,
    settings: &Settings,
) -> Result<(Catalog, Vec<TableName>)> {
    let path = state.path.join(HISTORY_FILE);
    let (stored, had_history): (History, bool) = match std::fs::read(&path) {
        Ok(bytes) => (
            serde_json::from_slice(&bytes).map_err(|e| {
                crate::errors::CdcError::OffsetsDamaged {
                    path: path.clone(),
                    message: e.to_string(),
                }
            })?,
            true,
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (History::new(), false),
        Err(e) => return Err(crate::errors::CdcError::io(&path, e)),
    };
    let config = session.call(|s| s.instance_config()).ok();
    let mut c = Catalog {
        cdb,
        // Only the reason an UNSUPPORTED row gives depends on it; unknown is read as FALSE.
        goldengate_replication: config
            .as_ref()
            .and_then(|i| i.goldengate_replication)
            .unwrap_or(false),
        // Unknown is STANDARD, the default.
        extended_strings: config
            .as_ref()
            .and_then(|i| i.max_string_size.as_deref())
            .is_some_and(|m| m.eq_ignore_ascii_case("EXTENDED")),
        // Unknown (NLS_DATABASE_PARAMETERS not read) is AL32UTF8 / AL16UTF16, the defaults.
        charsets: config.as_ref().map(|i| i.charsets()).unwrap_or_default(),
        pdb_charsets: Default::default(),
        tables: Default::default(),
        objects: Default::default(),
    };
    if cdb {
        // Each captured PDB's own sets, read inside it (NLS_DATABASE_PARAMETERS shows the
        // container's): an AL32UTF8 CDB may hold a PDB of another database character set,
        // whose rows LogMiner returns in the root with their text in that set.
        for d in decisions {
            let Decision::Capture(t) = d else { continue };
            let Some(pdb) = t.info.name.pdb.clone() else {
                continue;
            };
            if c.pdb_charsets.contains_key(&pdb) {
                continue;
            }
            let sets = session.call(|s| s.table_charsets(&t.info.name))?;
            c.pdb_charsets.insert(pdb, sets);
        }
    }
    for d in decisions {
        if let Decision::Capture(t) = d {
            let stored_history = stored
                .get(&t.info.name.to_string())
                .filter(|h| !h.is_empty())
                .cloned();
            c.tables.insert(
                t.info.name.clone(),
                table_schema(
                    t,
                    stored_history.unwrap_or_else(|| vec![(0, t.info.columns.clone())]),
                ),
            );
            c.add_objects(&t.info);
        }
    }
    // Tables the previous run did not capture (none on a first start).
    let new: Vec<TableName> = if had_history {
        c.tables
            .keys()
            .filter(|t| !stored.contains_key(&t.to_string()))
            .cloned()
            .collect()
    } else {
        Vec::new()
    };
    // The source signal channel's table is decoded for its signals.
    if let (true, Some(name)) = (settings.signal.source, &settings.signal.data_collection) {
        let info = session
            .call(|s| s.tables())?
            .into_iter()
            .find(|t| &t.name == name);
        let Some(info) = info else {
            return Err(crate::errors::CdcError::SignalChannel(format!(
                "the signal table {name} ({}) does not exist: create it with Debezium's layout (id VARCHAR2(42) PRIMARY KEY, type VARCHAR2(32) NOT NULL, data VARCHAR2(2048))",
                crate::settings::keys::SIGNAL_DATA_COLLECTION
            )));
        };
        c.tables.insert(
            name.clone(),
            TableSchema {
                name: name.clone(),
                history: vec![(0, info.columns.clone())],
                key: vec!["ID".into()],
                excluded: Vec::new(),
            },
        );
        c.add_objects(&info);
    }
    Ok((c, new))
}
