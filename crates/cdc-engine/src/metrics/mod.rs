//! Capture's metrics in the Prometheus text exposition format (version 0.0.4), served on
//! `cdc.metrics.listen`. A handful of gauges and counters read from [`Status`]: no metrics
//! library is needed to print them.

pub mod server;

use crate::ops::SnapshotMetrics;
use crate::status::{Board, State, Status};
use std::fmt::Write;

/// Every metric name starts with this.
pub const PREFIX: &str = "oracle_cdc";

struct Out(String);

impl Out {
    fn family(&mut self, name: &str, kind: &str, help: &str) {
        let _ = writeln!(self.0, "# HELP {PREFIX}_{name} {help}");
        let _ = writeln!(self.0, "# TYPE {PREFIX}_{name} {kind}");
    }

    fn sample(&mut self, name: &str, labels: &[(&str, &str)], value: f64) {
        let _ = write!(self.0, "{PREFIX}_{name}");
        if !labels.is_empty() {
            let parts: Vec<String> = labels
                .iter()
                .map(|(k, v)| format!("{k}=\"{}\"", escape(v)))
                .collect();
            let _ = write!(self.0, "{{{}}}", parts.join(","));
        }
        let _ = writeln!(self.0, " {value}");
    }

    fn one(&mut self, name: &str, kind: &str, help: &str, value: f64) {
        self.family(name, kind, help);
        self.sample(name, &[], value);
    }
}

/// A label value: backslash, double quote and newline escaped.
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// The exposition of capture's status now.
pub fn render(status: &Status) -> String {
    let board = status.board().clone();
    let snapshot = status
        .snapshot
        .lock()
        .map(|m| m.clone())
        .unwrap_or_default();
    render_parts(&board, &snapshot)
}

fn render_parts(b: &Board, m: &SnapshotMetrics) -> String {
    let mut o = Out(String::new());
    let flag = |v: bool| if v { 1.0 } else { 0.0 };
    o.family(
        "capture_state",
        "gauge",
        "Capture's state: 1 for the state it is in, 0 for the others.",
    );
    for s in State::ALL {
        o.sample("capture_state", &[("state", s.name())], flag(*s == b.state));
    }
    o.family(
        "snapshot_chunk",
        "gauge",
        "The chunk (1-based) of the table being snapshotted now.",
    );
    if let (Some(t), Some(c)) = (&b.table, b.chunk) {
        o.sample("snapshot_chunk", &[("table", t)], c as f64);
    }

    // The Snapshot* metrics.
    o.one(
        "snapshot_running",
        "gauge",
        "1 while a snapshot is being read.",
        flag(m.running),
    );
    o.one(
        "snapshot_paused",
        "gauge",
        "1 while the snapshot is paused by a signal.",
        flag(m.paused),
    );
    o.one(
        "snapshot_tables_total",
        "gauge",
        "Tables the current snapshot reads.",
        m.tables_total as f64,
    );
    o.one(
        "snapshot_tables_remaining",
        "gauge",
        "Tables of the current snapshot not read yet.",
        m.tables_remaining as f64,
    );
    o.family(
        "snapshot_rows_scanned_total",
        "counter",
        "Rows read by snapshots, per table.",
    );
    for (t, n) in &m.rows_scanned {
        o.sample("snapshot_rows_scanned_total", &[("table", t)], *n as f64);
    }
    o.one(
        "snapshot_chunks_total",
        "counter",
        "Snapshot chunks read and published.",
        m.chunks_done as f64,
    );
    o.one(
        "snapshot_retries_total",
        "counter",
        "Snapshot chunk reads retried (lost connections, ORA-01555).",
        m.retries as f64,
    );
    o.one(
        "snapshot_readers",
        "gauge",
        "Reading sessions the snapshot uses (cdc.snapshot.threads; fewer after the database refused one at its session limit).",
        m.readers as f64,
    );
    o.one(
        "snapshot_duration_seconds",
        "gauge",
        "How long the last completed snapshot took.",
        m.duration_ms as f64 / 1000.0,
    );
    let t = &b.throttle;
    o.one(
        "snapshot_max_rows_per_second",
        "gauge",
        "The snapshot throttle now (cdc.snapshot.max.rows.per.second; 0: off).",
        t.max_rows_per_second as f64,
    );
    o.family(
        "snapshot_table_max_rows_per_second",
        "gauge",
        "Per-table snapshot throttles now.",
    );
    for (table, n) in &t.table_max_rows_per_second {
        o.sample(
            "snapshot_table_max_rows_per_second",
            &[("table", table)],
            *n as f64,
        );
    }
    o.one(
        "snapshot_throttle_wait_seconds_total",
        "counter",
        "Time snapshot reads waited for the throttle.",
        t.wait_seconds,
    );

    // Streaming.
    let s = &b.stream;
    o.one(
        "stream_current_scn",
        "gauge",
        "The database's current SCN, as last asked.",
        s.current_scn as f64,
    );
    o.one(
        "stream_mined_scn",
        "gauge",
        "Every change up to this SCN is mined.",
        s.mined_scn as f64,
    );
    o.one(
        "stream_published_commit_scn",
        "gauge",
        "Commit SCN of the last published transaction.",
        s.published_commit_scn as f64,
    );
    o.one(
        "capture_state_changes_total",
        "counter",
        "Changes of capture's state since start (the capture-state ops events of the changes between mining and waiting for redo are written only once such a state lasts a second).",
        b.state_changes as f64,
    );
    o.one(
        "stream_lag_scns",
        "gauge",
        "Current SCN minus the published commit SCN.",
        s.current_scn.saturating_sub(s.published_commit_scn) as f64,
    );
    o.family(
        "stream_lag_seconds",
        "gauge",
        "Age of the oldest change not yet published, as Debezium's MilliSecondsBehindSource: 0 while capture waits for redo with everything published, else now minus the later of the last published commit's time and the last time everything minable was published (absent before either).",
    );
    if let Some(ms) = s.lag_ms {
        o.sample("stream_lag_seconds", &[], ms as f64 / 1000.0);
    }
    o.one(
        "stream_open_transactions",
        "gauge",
        "Transactions mined but not committed yet.",
        s.open_transactions as f64,
    );
    o.one(
        "stream_buffered_changes",
        "gauge",
        "Changes of open transactions held (memory and spill files).",
        s.buffered_changes as f64,
    );
    o.one(
        "stream_buffer_memory_bytes",
        "gauge",
        "Memory held by open transactions' changes.",
        s.buffer_memory_bytes as f64,
    );
    o.one(
        "stream_spilled_bytes",
        "gauge",
        "Bytes of open transactions' changes spilled to disk.",
        s.spilled_bytes as f64,
    );
    o.one(
        "stream_mine_seconds_total",
        "counter",
        "Time spent in LogMiner queries.",
        s.mine_seconds,
    );
    o.one(
        "stream_parse_seconds_total",
        "counter",
        "Time spent decoding mined rows into records.",
        s.parse_seconds,
    );
    o.one(
        "stream_window_start_scn",
        "gauge",
        "First SCN of the last mined LogMiner window.",
        s.window_start_scn as f64,
    );
    o.one(
        "stream_window_end_scn",
        "gauge",
        "Last SCN of the last mined LogMiner window.",
        s.window_end_scn as f64,
    );
    o.one(
        "stream_windows_total",
        "counter",
        "LogMiner windows mined.",
        s.windows as f64,
    );
    o.family(
        "stream_dead_letters_total",
        "counter",
        "Changes written to the dead-letter output (cdc.on.decode.error=dlq), by CDC code.",
    );
    for (code, n) in &s.dead_letters {
        o.sample("stream_dead_letters_total", &[("code", code)], *n as f64);
    }
    o.one(
        "stream_dictionary_builds_total",
        "counter",
        "LogMiner dictionaries capture built into the redo at log switches (cdc.mining.dictionary.build).",
        s.dictionary_builds as f64,
    );
    o.family(
        "source_retries_total",
        "counter",
        "Calls on the database made again after a transient failure (a lost connection, a killed session, the database shutting down, a log switched or not yet archived under LogMiner), by cause: the ORA- error, or the CDC code.",
    );
    for (cause, n) in &s.source_retries {
        o.sample("source_retries_total", &[("cause", cause)], *n as f64);
    }
    o.family(
        "stream_unsupported_total",
        "counter",
        "Changes LogMiner did not give in full (UNSUPPORTED rows, MISSING_SCN, values not in the redo, unknown operation codes), by CDC code, whatever cdc.on.unsupported.redo did with them.",
    );
    for (code, n) in &s.unsupported {
        o.sample("stream_unsupported_total", &[("code", code)], *n as f64);
    }
    o.family(
        "stream_recovered_changes_total",
        "counter",
        "Changes LogMiner wrote wrong (undoubled quotes, COL n names) and capture read the one way the table's columns allow, by kind.",
    );
    for (kind, n) in &s.recovered {
        o.sample(
            "stream_recovered_changes_total",
            &[("kind", kind)],
            *n as f64,
        );
    }
    o.family(
        "stream_unknown_object_rows_total",
        "counter",
        "Rows LogMiner wrote for an object its dictionary does not know (UNKNOWN.\"OBJ# n\"), by outcome: resolved to a captured table by object number, or not-captured (not published).",
    );
    for (outcome, n) in &s.unknown_objects {
        o.sample(
            "stream_unknown_object_rows_total",
            &[("outcome", outcome)],
            *n as f64,
        );
    }
    o.one(
        "stream_rows_mined_total",
        "counter",
        "Rows V$LOGMNR_CONTENTS returned (the mining filter leaves other schemas, SYS and internal DDL out).",
        s.rows_mined as f64,
    );
    o.one(
        "stream_rows_captured_total",
        "counter",
        "Rows of captured tables decoded from the mined rows (changes, LOB writes, DDL).",
        s.rows_captured as f64,
    );
    o.one(
        "stream_transactions_total",
        "counter",
        "Transactions published (with at least one record).",
        s.transactions as f64,
    );
    o.family(
        "records_published_total",
        "counter",
        "Records published, by origin.",
    );
    o.sample(
        "records_published_total",
        &[("origin", "change")],
        s.change_records as f64,
    );
    o.sample(
        "records_published_total",
        &[("origin", "snapshot")],
        s.snapshot_records as f64,
    );

    // The sink.
    let k = &b.sink;
    o.one(
        "sink_records_total",
        "counter",
        "Records written to the sink (heartbeats included).",
        k.records as f64,
    );
    o.one(
        "sink_bytes_total",
        "counter",
        "Bytes written to the sink.",
        k.bytes as f64,
    );
    o.one(
        "sink_commits_total",
        "counter",
        "Sink commits (a file sink fsyncs at each).",
        k.commits as f64,
    );
    o.one(
        "sink_commit_seconds_total",
        "counter",
        "Time spent making the sink durable.",
        k.commit_seconds,
    );
    o.one(
        "sink_flow_control_pauses_total",
        "counter",
        "Times reading paused because the sink fell behind.",
        k.flow_control_pauses as f64,
    );
    o.one(
        "sink_flow_control_seconds_total",
        "counter",
        "Time reading was paused because the sink fell behind.",
        k.flow_control_seconds,
    );
    o.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::OpsLog;
    use std::sync::Arc;

    /// Every sample line: `name{labels} value` with a known family declared before it.
    #[test]
    fn exposition_is_well_formed_and_carries_the_values() {
        let status = Status::new(Arc::new(OpsLog::discard()));
        status
            .set_with(
                State::Snapshotting,
                Some("PDB1.SALES.ORDERS"),
                Some(3),
                None,
            )
            .unwrap();
        {
            let mut b = status.board();
            b.stream.current_scn = 1_000_100;
            b.stream.published_commit_scn = 1_000_040;
            b.stream.lag_ms = Some(1500);
            b.sink.bytes = 4096;
            b.stream.rows_mined = 900;
            b.stream.rows_captured = 120;
            b.stream.dead_letters.insert("CDC-3201".into(), 2);
            b.stream.recovered.insert("unescaped-quotes".into(), 3);
        }
        for attempt in 1..=2 {
            status
                .source_retry(&crate::status::SourceRetry {
                    cause: "ORA-03113",
                    code: "CDC-5007",
                    operation: "mining SCN 1 to 2",
                    attempt,
                    wait_ms: 250,
                    message: "end-of-file on communication channel",
                })
                .unwrap();
        }
        status
            .snapshot
            .lock()
            .unwrap()
            .rows_scanned
            .insert("PDB1.SALES.\"Odd\"".into(), 7);
        let text = render(&status);
        let mut declared = std::collections::HashSet::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("# TYPE ") {
                let mut parts = rest.split(' ');
                declared.insert(parts.next().unwrap().to_string());
                assert!(matches!(parts.next(), Some("gauge" | "counter")), "{line}");
                continue;
            }
            if line.starts_with("# HELP ") {
                continue;
            }
            let name = line.split(['{', ' ']).next().unwrap();
            assert!(declared.contains(name), "undeclared: {line}");
            let value = line.rsplit(' ').next().unwrap();
            assert!(value.parse::<f64>().is_ok(), "{line}");
            if name.ends_with("_total") {
                assert!(declared.iter().any(|d| d == name));
            }
        }
        let has = |l: &str| text.lines().any(|x| x == l);
        assert!(
            has("oracle_cdc_capture_state{state=\"snapshotting\"} 1"),
            "{text}"
        );
        assert!(has("oracle_cdc_capture_state{state=\"mining\"} 0"));
        assert!(has(
            "oracle_cdc_snapshot_chunk{table=\"PDB1.SALES.ORDERS\"} 3"
        ));
        assert!(has("oracle_cdc_stream_lag_scns 60"));
        assert!(has("oracle_cdc_stream_lag_seconds 1.5"));
        assert!(has("oracle_cdc_sink_bytes_total 4096"));
        assert!(has("oracle_cdc_stream_rows_mined_total 900"));
        assert!(has("oracle_cdc_stream_rows_captured_total 120"));
        assert!(has(
            "oracle_cdc_stream_dead_letters_total{code=\"CDC-3201\"} 2"
        ));
        assert!(has(
            "oracle_cdc_source_retries_total{cause=\"ORA-03113\"} 2"
        ));
        assert!(has(
            "oracle_cdc_stream_recovered_changes_total{kind=\"unescaped-quotes\"} 3"
        ));
        assert!(has(
            "oracle_cdc_snapshot_rows_scanned_total{table=\"PDB1.SALES.\\\"Odd\\\"\"} 7"
        ));
    }
}
