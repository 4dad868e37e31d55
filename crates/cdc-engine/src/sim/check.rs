//! The eight invariants, checked against the emulator's own redo and table contents. Each
//! violation names the invariant and the first record that breaks it.

use crate::errors::{CdcError, Result};
use crate::offsets::{Offsets, SinkPosition};
use crate::settings::{Settings, SnapshotMode};
use crate::source::emulator::redo::{DdlChange, Redo, Xid, REDO_FILE};
use crate::source::emulator::EmulatorConnector;
use cdc_core::model::{ChunkRange, FlashbackQuery, Scn};
use serde_json::{Map, Value as Json};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

/// Table → canonical key → row (column → JSON as records carry it).
pub type Contents = BTreeMap<String, BTreeMap<String, Map<String, Json>>>;

/// A key's latest record: its SCN and its `after` image.
type Latest = (Scn, Map<String, Json>);

#[derive(Debug, Default)]
pub struct Found {
    pub records: u64,
    pub violations: Vec<String>,
}

/// A key as one canonical string, whatever the column order.
fn canonical(key: &Json) -> String {
    match key.as_object() {
        Some(m) => {
            let sorted: BTreeMap<&String, &Json> = m.iter().collect();
            serde_json::to_string(&sorted).unwrap_or_default()
        }
        None => key.to_string(),
    }
}

/// Every captured table's rows as of `scn`, read the way `emulator dump` reads them.
pub fn contents(conn: &EmulatorConnector, scn: Scn, settings: &Settings) -> Result<Contents> {
    let mut all = table_contents(conn, scn, None)?;
    all.retain(|t, _| captured(settings, t));
    Ok(all)
}

/// Whether the settings capture the table a topic or contents entry names.
fn captured(settings: &Settings, table: &str) -> bool {
    table
        .parse::<crate::names::TableName>()
        .is_ok_and(|t| settings.is_captured(&t))
}

/// The rows of every table (or only `only`) as of `scn`.
fn table_contents(conn: &EmulatorConnector, scn: Scn, only: Option<&str>) -> Result<Contents> {
    conn.with_replica(|r, now| -> Result<Contents> {
        let mut out = Contents::new();
        for t in &r.tables {
            let name = t.info().name;
            if only.is_some_and(|o| o != name.to_string()) {
                continue;
            }
            let columns = t.columns_at(scn).to_vec();
            let key = t.def.primary_key.clone();
            let q = FlashbackQuery {
                table: name.clone(),
                columns: columns.iter().map(|c| c.name.clone()).collect(),
                key_columns: key.clone(),
                scn,
                range: ChunkRange::Whole,
                filter: None,
                // The contents are the values; no ROWID is compared.
                row_ids: false,
            };
            let rows = out.entry(name.to_string()).or_default();
            for row in r.read_as_of(&q, now)? {
                let mut obj = Map::new();
                for (c, v) in columns.iter().zip(&row.values) {
                    // As records carry it (the simulation keeps Debezium's default value modes).
                    let fmt = crate::record::format::Format::default();
                    obj.insert(
                        c.name.clone(),
                        crate::record::value::to_json(v, &c.data_type, &fmt),
                    );
                }
                let k: Map<String, Json> = key
                    .iter()
                    .map(|k| (k.clone(), obj.get(k).cloned().unwrap_or(Json::Null)))
                    .collect();
                rows.insert(canonical(&Json::Object(k)), obj);
            }
        }
        Ok(out)
    })?
}

/// Invariant 6 at one offsets write: readable, never backwards, never ahead of the sink's files.
pub fn offsets_step(path: &Path, out: &Path, last: &mut Option<Offsets>) -> Option<String> {
    let now = match Offsets::load(path) {
        Ok(Some(o)) => o,
        Ok(None) => return None,
        Err(e) => return Some(format!("unreadable after an atomic write: {e}")),
    };
    let mut problem = None;
    if let (Some(SinkPosition::File { segment, bytes, .. }), Some(file)) = (&now.sink, out.to_str())
    {
        let seg = Path::new(file).join(segment);
        let len = std::fs::metadata(&seg).map(|m| m.len()).unwrap_or(0);
        if len < *bytes {
            problem = Some(format!(
                "offsets acknowledge {bytes} bytes of {segment} but only {len} are written"
            ));
        }
    }
    if let Some(prev) = last.as_ref() {
        let scn = |o: &Offsets| o.stream.as_ref().map(|s| s.commit_scn);
        let sink = |o: &Offsets| {
            o.sink.as_ref().map(|s| match s {
                SinkPosition::File {
                    segment,
                    bytes,
                    records,
                } => (*records, segment.clone(), *bytes),
                other => (other.records(), String::new(), 0),
            })
        };
        let snap = |o: &Offsets| o.snapshot.as_ref().map(|s| (s.completed, s.records));
        if scn(&now) < scn(prev) {
            problem = Some(format!(
                "stream commit SCN went back from {:?} to {:?}",
                scn(prev),
                scn(&now)
            ));
        } else if sink(&now) < sink(prev) {
            problem = Some(format!(
                "sink position went back from {:?} to {:?}",
                sink(prev),
                sink(&now)
            ));
        } else if snap(&now) < snap(prev) {
            problem = Some(format!(
                "snapshot progress went back from {:?} to {:?}",
                snap(prev),
                snap(&now)
            ));
        }
    }
    *last = Some(now);
    problem
}

/// A committed transaction's surviving changes, from the redo.
struct Tx {
    commit_scn: Scn,
    /// When it committed (ms since the epoch, UTC): `source.commit_ts_ms` is it, to the second.
    commit_ts: i64,
    /// DML SCNs in redo order, with the table of each.
    changes: Vec<(Scn, u32)>,
}

/// What the redo says: committed transactions by XID (lower-case hex; undo records remove the
/// changes they undo, rolled-back transactions are absent) and, per table number and column,
/// the SCN of its latest ADD COLUMN.
struct History {
    txs: HashMap<String, Tx>,
    added: HashMap<(u32, String), Scn>,
}

fn history(db: &Path) -> Result<History> {
    let path = db.join(REDO_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| CdcError::io(&path, e))?;
    let mut open: HashMap<Xid, Vec<(u64, Scn, u32)>> = HashMap::new();
    let mut done = HashMap::new();
    let mut added = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let r: Redo =
            crate::source::emulator::redo::parse_line(line.as_bytes()).map_err(|message| {
                CdcError::RedoDamaged {
                    path: path.clone(),
                    line: n as u64 + 1,
                    message,
                }
            })?;
        match r {
            Redo::Insert { scn, xid, tab, .. }
            | Redo::Update { scn, xid, tab, .. }
            | Redo::Delete { scn, xid, tab, .. } => {
                open.entry(xid).or_default().push((n as u64, scn, tab))
            }
            Redo::Undo { xid, of, .. } => {
                if let Some(c) = open.get_mut(&xid) {
                    c.retain(|(k, _, _)| *k != of);
                }
            }
            Redo::Commit { scn, xids, ts } => {
                for x in xids {
                    let changes = open.remove(&x).unwrap_or_default();
                    done.insert(
                        x.hex().to_lowercase(),
                        Tx {
                            commit_scn: scn,
                            commit_ts: ts,
                            changes: changes.into_iter().map(|(_, s, t)| (s, t)).collect(),
                        },
                    );
                }
            }
            Redo::Rollback { xid, .. } => {
                open.remove(&xid);
            }
            Redo::Ddl {
                scn,
                tab,
                change: DdlChange::AddColumn { column },
                ..
            } => {
                added.insert((tab, column.name), scn);
            }
            _ => {}
        }
    }
    Ok(History { txs: done, added })
}

/// A path into a record; `key` and `value` are read inside JsonConverter's
/// `{"schema":…,"payload":…}` when the record has it.
fn field<'a>(r: &'a Json, path: &[&str]) -> &'a Json {
    path.iter().fold(r, |v, k| match *k {
        "key" | "value" => payload(&v[*k]),
        _ => &v[*k],
    })
}

fn payload(v: &Json) -> &Json {
    match v.get("payload") {
        Some(p) if v.get("schema").is_some() => p,
        _ => v,
    }
}

fn scn_of(r: &Json, k: &str) -> Option<Scn> {
    field(r, &["value", "source", k]).as_str()?.parse().ok()
}

fn describe(i: usize, r: &Json) -> String {
    format!(
        "record #{i} ({} key {} op {} scn {} txId {})",
        r["topic"].as_str().unwrap_or("?"),
        r["key"],
        field(r, &["value", "op"]).as_str().unwrap_or("?"),
        field(r, &["value", "source", "scn"])
            .as_str()
            .unwrap_or("?"),
        field(r, &["value", "source", "txId"])
            .as_str()
            .unwrap_or("-"),
    )
}

/// Everything the sink holds, in order.
fn read_records(out: &Path, found: &mut Found) -> Result<Vec<Json>> {
    let mut recs = Vec::new();
    for (_, path) in crate::sink::segments(out)? {
        let text = std::fs::read_to_string(&path).map_err(|e| CdcError::io(&path, e))?;
        for (n, line) in text.lines().enumerate() {
            match serde_json::from_str::<Json>(line) {
                Ok(j) => recs.push(j),
                Err(e) => found.violations.push(format!(
                    "invariant 6 (exactly once): {} line {} is not a whole record: {e}",
                    path.display(),
                    n + 1
                )),
            }
        }
    }
    Ok(recs)
}

/// After the last run: check the sink's records against the redo and the final contents.
/// `start` is the first SCN the stream owes; `baseline` the contents a consumer starts from
/// (empty with a snapshot).
pub fn check(
    conn: &EmulatorConnector,
    db: &Path,
    out: &Path,
    offsets: &Path,
    (start, end): (Scn, Scn),
    baseline: Contents,
    settings: &Settings,
) -> Result<Found> {
    let mode = settings.snapshot.mode;
    let mut found = Found::default();
    let recs = read_records(out, &mut found)?;
    found.records = recs.len() as u64;
    let v = &mut found.violations;

    // Tables capture leaves out (cdc.tables.exclude) publish nothing, and owe nothing.
    if let Some((i, r)) = recs
        .iter()
        .enumerate()
        .find(|(_, r)| topic_table(r).is_some_and(|t| !captured(settings, &t)))
    {
        v.push(format!(
            "a table capture leaves out is published: {}",
            describe(i, r)
        ));
    }
    let uncaptured: HashSet<u32> = conn.with_replica(|r, _| {
        r.tables
            .iter()
            .enumerate()
            .filter(|(_, t)| !settings.is_captured(&t.def.name))
            .map(|(i, _)| i as u32)
            .collect()
    })?;

    // 6: a restart re-reads only what was not acknowledged: no record twice. Records of
    // signal snapshots are left out: two snapshots may read the same row at the same SCN.
    let mut seen = HashSet::new();
    for (i, r) in recs.iter().enumerate() {
        if r["value"].is_null() && r["topic"].as_str().is_some_and(|t| t.contains('.')) {
            // A tombstone: right after its delete, with the same topic and key.
            let follows = i.checked_sub(1).map(|p| &recs[p]).is_some_and(|d| {
                field(d, &["value", "op"]) == "d"
                    && d["topic"] == r["topic"]
                    && d["key"] == r["key"]
            });
            if !follows {
                v.push(format!(
                    "tombstone: {} does not follow its delete",
                    describe(i, r)
                ));
                break;
            }
            continue;
        }
        if is_incremental(r) {
            continue;
        }
        let id = format!(
            "{}|{}|{}|{}|{}|{}",
            field(r, &["value", "op"]),
            field(r, &["value", "source", "scn"]),
            field(r, &["value", "source", "txId"]),
            field(r, &["value", "source", "rs_id"]),
            field(r, &["value", "source", "row_id"]),
            r["key"]
        );
        if !seen.insert(id) {
            v.push(format!(
                "invariant 6 (exactly once): {} is published twice",
                describe(i, r)
            ));
            break;
        }
    }

    // 4 and 2: change records by commit SCN; a chunk read at s after every change committed
    // before s and before every change committed after s.
    let mut last_commit: Option<(usize, Scn)> = None;
    let mut min_after: Vec<Option<Scn>> = vec![None; recs.len() + 1];
    for i in (0..recs.len()).rev() {
        min_after[i] = match (scn_of(&recs[i], "commit_scn"), min_after[i + 1]) {
            (Some(c), Some(m)) => Some(c.min(m)),
            (c, m) => c.or(m),
        };
    }
    for (i, r) in recs.iter().enumerate() {
        if let Some(c) = scn_of(r, "commit_scn") {
            if let Some((j, prev)) = last_commit {
                if c < prev {
                    v.push(format!(
                        "invariant 4 (commit order): {} committed at {c} follows record #{j} committed at {prev}",
                        describe(i, r)
                    ));
                    break;
                }
            }
            last_commit = Some((i, c));
        } else if let Some(s) = scn_of(r, "scn") {
            // A read AS OF s sees what committed at s, so those changes may come on either
            // side of the chunk (the stream may have passed s when no SCN followed it).
            if let Some((j, prev)) = last_commit.filter(|(_, c)| *c > s) {
                v.push(format!(
                    "invariant 2 (chunk order): snapshot {} read at SCN {s} follows record #{j}, a change committed at {prev}",
                    describe(i, r)
                ));
                break;
            }
            if let Some(m) = min_after[i + 1].filter(|m| *m < s) {
                v.push(format!(
                    "invariant 2 (chunk order): snapshot {} read at SCN {s} precedes a change committed at {m}",
                    describe(i, r)
                ));
                break;
            }
        }
    }

    // Every snapshot record is its row as the table held it at the record's SCN.
    let mut as_of: HashMap<(String, Scn), Option<Contents>> = HashMap::new();
    for (i, r) in recs.iter().enumerate() {
        if let Some(m) = snapshot_row_differs(conn, r, &mut as_of)? {
            v.push(format!(
                "invariant 1 (convergence): snapshot {}: {m}",
                describe(i, r)
            ));
            break;
        }
    }
    if mode == SnapshotMode::SnapshotOnly {
        // Nothing is streamed: a key the table held at the SCN of every chunk of its initial
        // snapshot was read by one of them.
        // The SCN of every acknowledged chunk, from the offsets: a chunk that read no row
        // leaves no record, and so no SCN, in the output.
        let chunk_scns: BTreeMap<String, Vec<Scn>> = Offsets::load(offsets)?
            .and_then(|o| o.snapshot)
            .map(|s| {
                s.tables
                    .into_iter()
                    .map(|(t, p)| (t, p.chunk_scns))
                    .collect()
            })
            .unwrap_or_default();
        if let Some(m) = snapshot_only_missing(conn, &recs, &chunk_scns, &mut as_of)? {
            v.push(format!("invariant 3 (no loss): {m}"));
        }
        return Ok(found);
    }

    // 3, 4 and 5 per transaction: exactly the changes that survived, in redo order.
    let History { mut txs, added } = history(db)?;
    for tx in txs.values_mut() {
        tx.changes.retain(|(_, t)| !uncaptured.contains(t));
    }
    let mut published: BTreeMap<String, (usize, Vec<Scn>)> = BTreeMap::new();
    for (i, r) in recs.iter().enumerate() {
        let (Some(c), Some(s)) = (scn_of(r, "commit_scn"), scn_of(r, "scn")) else {
            continue;
        };
        let xid = field(r, &["value", "source", "txId"])
            .as_str()
            .unwrap_or("")
            .to_lowercase();
        let Some(tx) = txs.get(&xid) else {
            v.push(format!(
                "invariant 5 (rolled back): {} belongs to a transaction that never committed",
                describe(i, r)
            ));
            break;
        };
        if tx.commit_scn != c {
            v.push(format!(
                "invariant 4 (commit order): {} carries commit SCN {c}; the transaction committed at {}",
                describe(i, r),
                tx.commit_scn
            ));
            break;
        }
        // LogMiner's COMMIT_TIMESTAMP is a DATE of the host's clock: converted to UTC, the
        // commit instant to the second, whatever the host's time zone.
        let want_ms = tx.commit_ts.div_euclid(1000) * 1000;
        if field(r, &["value", "source", "commit_ts_ms"]).as_i64() != Some(want_ms) {
            v.push(format!(
                "commit time: {} has source.commit_ts_ms {}; the transaction committed at {want_ms} (UTC)",
                describe(i, r),
                field(r, &["value", "source", "commit_ts_ms"])
            ));
            break;
        }
        let e = published.entry(xid).or_insert((i, Vec::new()));
        if e.1.last() != Some(&s) {
            e.1.push(s);
        }
    }
    let mut owed: Vec<(&String, &Tx)> = txs
        .iter()
        .filter(|(_, t)| t.commit_scn >= start && !t.changes.is_empty())
        .collect();
    owed.sort_by_key(|(x, t)| (t.commit_scn, (*x).clone()));
    for (xid, tx) in owed {
        let mut want: Vec<Scn> = tx.changes.iter().map(|c| c.0).collect();
        want.dedup();
        match published.get(xid) {
            None => {
                v.push(format!(
                    "invariant 3 (no loss): transaction {xid} committed at {} with {} change(s) (first at SCN {}) is missing",
                    tx.commit_scn,
                    want.len(),
                    want[0]
                ));
                break;
            }
            Some((i, got)) if *got != want => {
                let undone = got.iter().find(|s| !want.contains(s));
                let lost = want.iter().find(|s| !got.contains(s));
                v.push(match (undone, lost) {
                    (Some(s), _) => format!(
                        "invariant 5 (partial rollback): {}: transaction {xid} publishes SCN {s}, a change it undid",
                        describe(*i, &recs[*i])
                    ),
                    (None, Some(s)) => format!(
                        "invariant 3 (no loss): {}: transaction {xid} lacks its change at SCN {s}",
                        describe(*i, &recs[*i])
                    ),
                    (None, None) => format!(
                        "invariant 4 (redo order): {}: transaction {xid} publishes SCNs {got:?}, redo has {want:?}",
                        describe(*i, &recs[*i])
                    ),
                });
                break;
            }
            Some(_) => {}
        }
    }

    // 1: the latest record per key equals the table at the end.
    let mut latest: BTreeMap<String, BTreeMap<String, Latest>> = baseline
        .into_iter()
        .map(|(t, rows)| (t, rows.into_iter().map(|(k, r)| (k, (0, r))).collect()))
        .collect();
    // A key change is a `d` then a `c` of the same change (same SCN and transaction): the `c`
    // has the placeholder for LOB-like values the redo does not hold, which a consumer takes
    // from the row the `d` removed.
    let mut moved: Option<(String, Json, Json, Map<String, Json>)> = None;
    for r in &recs {
        let Some(topic) = r["topic"].as_str() else {
            continue;
        };
        // Schema change events are on the prefix's own topic; a tombstone (no value) follows
        // its delete, which already removed the key.
        let Some((_, table)) = topic.split_once('.') else {
            continue;
        };
        if r["value"].is_null() {
            continue;
        }
        let table = table.to_string();
        let key = canonical(payload(&r["key"]));
        let at = (
            field(r, &["value", "source", "scn"]).clone(),
            field(r, &["value", "source", "txId"]).clone(),
        );
        let from = moved
            .take()
            .filter(|(t, scn, tx, _)| *t == table && *scn == at.0 && *tx == at.1)
            .map(|(_, _, _, row)| row);
        let rows = latest.entry(table.clone()).or_default();
        match field(r, &["value", "op"]).as_str() {
            Some("d") => {
                if let Some((_, row)) = rows.remove(&key) {
                    moved = Some((table, at.0, at.1, row));
                }
            }
            op => {
                if let Some(after) = field(r, &["value", "after"]).as_object() {
                    let mut after = after.clone();
                    let old = match (rows.get(&key), op) {
                        (Some((_, old)), _) => Some(old),
                        (None, Some("c")) => from.as_ref(),
                        _ => None,
                    };
                    // A LOB the change left alone (the placeholder): a consumer keeps its value.
                    if let Some(old) = old {
                        for (col, v) in after.iter_mut() {
                            if is_unavailable(v) {
                                *v = old.get(col).cloned().unwrap_or(Json::Null);
                            }
                        }
                    }
                    rows.insert(key, (scn_of(r, "scn").unwrap_or(0), after));
                }
            }
        }
    }
    let want = contents(conn, end, settings)?;
    let numbers = conn.with_replica(|r, _| {
        r.tables
            .iter()
            .enumerate()
            .map(|(i, t)| (t.info().name.to_string(), i as u32))
            .collect::<HashMap<String, u32>>()
    })?;
    'tables: for (table, rows) in &want {
        let have = latest.remove(table).unwrap_or_default();
        let tab = numbers.get(table).copied().unwrap_or(u32::MAX);
        for (key, row) in rows {
            let Some((at, got)) = have.get(key) else {
                v.push(format!(
                    "invariant 1 (convergence): {table} key {key} is in the table at SCN {end} but no record leaves it there"
                ));
                break 'tables;
            };
            for (col, value) in row {
                // A column added after the row's last record is NULL in the row; an older one
                // of the same name (dropped since) no longer counts.
                let newer = added.get(&(tab, col.clone())).is_some_and(|scn| scn > at);
                let g = match got.get(col) {
                    Some(g) if !newer => g,
                    _ => &Json::Null,
                };
                if g != value {
                    v.push(format!(
                        "invariant 1 (convergence): {table} key {key} column {col}: the records end at {g}, the table has {value}"
                    ));
                    break 'tables;
                }
            }
        }
        if let Some(extra) = have.keys().find(|k| !rows.contains_key(*k)) {
            v.push(format!(
                "invariant 1 (convergence): {table} key {extra} is left by the records but not in the table at SCN {end}"
            ));
            break;
        }
    }
    Ok(found)
}

/// The record value of [`crate::stream::decode::UNAVAILABLE_VALUE`] (text, or base64 bytes).
fn is_unavailable(v: &Json) -> bool {
    use base64::Engine;
    let text = crate::stream::decode::UNAVAILABLE_VALUE;
    v.as_str().is_some_and(|s| {
        s == text || s == base64::engine::general_purpose::STANDARD.encode(text.as_bytes())
    })
}

fn is_incremental(r: &Json) -> bool {
    field(r, &["value", "source", "snapshot"]).as_str() == Some("incremental")
}

fn topic_table(r: &Json) -> Option<String> {
    let topic = r["topic"].as_str()?;
    // Schema change events are on the prefix's own topic.
    Some(topic.split_once('.')?.1.to_string())
}

/// A table's rows at `scn`, read once per (table, SCN); `None` when the emulator no longer
/// reads the table as of then (ORA-01466 after a later ADD/DROP COLUMN, as Oracle refuses it).
fn rows_at<'c>(
    conn: &EmulatorConnector,
    table: &str,
    scn: Scn,
    cache: &'c mut HashMap<(String, Scn), Option<Contents>>,
) -> Result<Option<&'c Contents>> {
    let k = (table.to_string(), scn);
    if !cache.contains_key(&k) {
        let c = match table_contents(conn, scn, Some(table)) {
            Ok(c) => Some(c),
            Err(CdcError::TableDefinitionChanged { .. }) => None,
            Err(e) => return Err(e),
        };
        cache.insert(k.clone(), c);
    }
    Ok(cache.get(&k).and_then(Option::as_ref))
}

/// How a snapshot record differs from its row at its SCN (columns both have), if it does.
fn snapshot_row_differs(
    conn: &EmulatorConnector,
    r: &Json,
    cache: &mut HashMap<(String, Scn), Option<Contents>>,
) -> Result<Option<String>> {
    if field(r, &["value", "op"]).as_str() != Some("r") {
        return Ok(None);
    }
    let (Some(table), Some(scn)) = (topic_table(r), scn_of(r, "scn")) else {
        return Ok(None);
    };
    let Some(after) = field(r, &["value", "after"]).as_object() else {
        return Ok(Some("has no after image".into()));
    };
    let Some(contents) = rows_at(conn, &table, scn, cache)? else {
        return Ok(None);
    };
    let key = canonical(payload(&r["key"]));
    let Some(row) = contents.get(&table).and_then(|t| t.get(&key)) else {
        return Ok(Some(format!("the table has no key {key} at SCN {scn}")));
    };
    for (col, value) in after {
        if let Some(want) = row.get(col) {
            if want != value {
                return Ok(Some(format!(
                    "column {col} is {value}, the table had {want} at SCN {scn}"
                )));
            }
        }
    }
    Ok(None)
}

/// snapshot_only: a key its table held at every SCN its initial snapshot's chunks were read at
/// and no initial record carries.
fn snapshot_only_missing(
    conn: &EmulatorConnector,
    recs: &[Json],
    chunk_scns: &BTreeMap<String, Vec<Scn>>,
    cache: &mut HashMap<(String, Scn), Option<Contents>>,
) -> Result<Option<String>> {
    let mut per_table: BTreeMap<String, (Vec<Scn>, HashSet<String>)> = BTreeMap::new();
    for (table, scns) in chunk_scns {
        let e = per_table.entry(table.clone()).or_default();
        for scn in scns {
            if !e.0.contains(scn) {
                e.0.push(*scn);
            }
        }
    }
    for r in recs.iter().filter(|r| !is_incremental(r)) {
        let (Some(table), Some(scn)) = (topic_table(r), scn_of(r, "scn")) else {
            continue;
        };
        let e = per_table.entry(table).or_default();
        if !e.0.contains(&scn) {
            e.0.push(scn);
        }
        e.1.insert(canonical(payload(&r["key"])));
    }
    for (table, (scns, keys)) in per_table {
        let mut always: Option<HashSet<String>> = None;
        for scn in &scns {
            // A table no longer readable at one of its SCNs is not checked.
            let Some(c) = rows_at(conn, &table, *scn, cache)? else {
                always = Some(HashSet::new());
                break;
            };
            let now: HashSet<String> = c
                .get(&table)
                .map(|t| t.keys().cloned().collect())
                .unwrap_or_default();
            always = Some(match always {
                None => now,
                Some(a) => a.intersection(&now).cloned().collect(),
            });
        }
        if let Some(k) = always
            .unwrap_or_default()
            .iter()
            .find(|k| !keys.contains(*k))
        {
            return Ok(Some(format!(
                "{table} key {k} was in the table at every SCN its snapshot read ({scns:?}) but no snapshot record carries it"
            )));
        }
    }
    Ok(None)
}
