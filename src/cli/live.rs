//! What the terminal shows while a command runs, as pure functions of the numbers: counts,
//! integer rates with their unit, sizes, durations, the one-line capture status and the final
//! lines naming where the output went. `progress.rs` draws them; the tests pin the text.

use crate::capture::status::{Board, State};
use crate::settings::{SinkSettings, SinkType};
use std::path::Path;
use std::time::Duration;

/// `212115` as `212,115`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A rate as a whole number with its unit: `212,115 rows/s`. A rate that is not a finite,
/// positive number (nothing measured yet) is `0 rows/s`.
pub fn rate(per_sec: f64, unit: &str) -> String {
    let n = if per_sec.is_finite() && per_sec > 0.0 {
        per_sec.round() as u64
    } else {
        0
    };
    format!("{} {unit}/s", count(n))
}

/// Bytes in binary units, one decimal above a KiB: `0 B`, `512 B`, `1.5 KiB`, `12.0 MiB`.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// Whole seconds as `15s`, `2m05s`, `1h02m03s`.
pub fn duration(d: Duration) -> String {
    let s = d.as_secs();
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, s) => format!("{h}h{m:02}m{s:02}s"),
    }
}

/// Capture's lag: `-` before anything was published; a clock a little behind the database's
/// reads as no lag rather than a negative one.
pub fn lag(ms: Option<i64>) -> String {
    match ms {
        None => "-".into(),
        Some(ms) if ms < 1000 => format!("{}ms", ms.max(0)),
        Some(ms) => duration(Duration::from_millis(ms as u64)),
    }
}

/// The overall snapshot line's counts: `1/2 tables` (never more done than planned).
pub fn tables(done: u64, total: u64) -> String {
    format!("{}/{} tables", done.min(total), total)
}

/// Records per second between two readings of a running total.
pub fn rate_between(before: (u64, Duration), after: (u64, Duration)) -> f64 {
    let secs = after.1.saturating_sub(before.1).as_secs_f64();
    if secs <= 0.0 {
        return 0.0;
    }
    after.0.saturating_sub(before.0) as f64 / secs
}

/// The one-line status of a running capture: its state (with the table and chunk while
/// snapshotting, or what it is doing while starting), the mined SCN, the lag, records per
/// second, open transactions and bytes spilled to disk.
pub fn capture_line(board: &Board, records_per_sec: f64) -> String {
    let state = match (board.state, &board.table, &board.activity) {
        (State::Snapshotting, Some(t), _) => match board.chunk {
            Some(c) => format!("snapshotting {t} chunk {c}"),
            None => format!("snapshotting {t}"),
        },
        (State::Starting, _, Some(what)) => format!("starting: {what}"),
        (s, _, _) => s.name().to_string(),
    };
    let s = &board.stream;
    let mined = if s.mined_scn == 0 {
        "-".to_string()
    } else {
        s.mined_scn.to_string()
    };
    format!(
        "{state} · mined SCN {mined} · lag {} · {} · {} open {} · {} spilled",
        lag(s.lag_ms),
        rate(records_per_sec, "records"),
        count(s.open_transactions),
        if s.open_transactions == 1 {
            "transaction"
        } else {
            "transactions"
        },
        bytes(s.spilled_bytes),
    )
}

/// Where capture's records go, for its last line.
pub fn capture_destination(sink: &SinkSettings) -> String {
    match sink.kind {
        SinkType::Stdout => "records on stdout".into(),
        SinkType::File => format!("records in {}", sink.dir.display()),
        SinkType::Kafka => format!(
            "records in Kafka topics {}.* at {}",
            sink.topic_prefix,
            sink.kafka
                .brokers
                .iter()
                .map(|b| crate::settings::redact_broker(b))
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

/// The last line of an export: how much went where.
pub fn export_line(rows: u64, tables: usize, format: &str, out: &Path) -> String {
    format!(
        "exported {} rows of {tables} {} as {format} to {} (manifest.json lists the files)",
        count(rows),
        if tables == 1 { "table" } else { "tables" },
        out.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::status::{Status, StreamStats};

    #[test]
    fn counts_rates_sizes_and_durations_read_as_people_write_them() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(212_115), "212,115");
        assert_eq!(count(1_234_567_890), "1,234,567,890");
        // The rate the issue saw as `212,115.2193/s`.
        assert_eq!(rate(212_115.219_3, "rows"), "212,115 rows/s");
        assert_eq!(rate(0.4, "rows"), "0 rows/s");
        assert_eq!(rate(f64::NAN, "records"), "0 records/s");
        assert_eq!(rate(f64::INFINITY, "records"), "0 records/s");
        assert_eq!(rate(-3.0, "records"), "0 records/s");
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(1023), "1023 B");
        assert_eq!(bytes(1536), "1.5 KiB");
        assert_eq!(bytes(12 * 1024 * 1024), "12.0 MiB");
        assert_eq!(bytes(3 << 40), "3.0 TiB");
        assert_eq!(duration(Duration::from_millis(900)), "0s");
        assert_eq!(duration(Duration::from_secs(15)), "15s");
        assert_eq!(duration(Duration::from_secs(125)), "2m05s");
        assert_eq!(duration(Duration::from_secs(3723)), "1h02m03s");
        assert_eq!(lag(None), "-");
        assert_eq!(lag(Some(-40)), "0ms");
        assert_eq!(lag(Some(250)), "250ms");
        assert_eq!(lag(Some(2_500)), "2s");
        assert_eq!(tables(0, 2), "0/2 tables");
        assert_eq!(tables(3, 2), "2/2 tables");
    }

    #[test]
    fn rates_come_from_two_readings() {
        let t = Duration::from_secs;
        assert_eq!(rate_between((100, t(1)), (400, t(3))), 150.0);
        assert_eq!(rate_between((100, t(3)), (400, t(3))), 0.0);
        // A total that went down (a restart of the count) is no negative rate.
        assert_eq!(rate_between((400, t(1)), (100, t(2))), 0.0);
    }

    fn board(state: State, stream: StreamStats) -> Board {
        let status = Status::new(std::sync::Arc::new(crate::ops::OpsLog::discard()));
        let mut b = status.board().clone();
        b.state = state;
        b.stream = stream;
        b
    }

    #[test]
    fn the_capture_line_names_state_scn_lag_rate_transactions_and_spill() {
        let b = board(
            State::Mining,
            StreamStats {
                mined_scn: 1_000_234,
                lag_ms: Some(2_400),
                open_transactions: 3,
                spilled_bytes: 5 * 1024 * 1024,
                ..Default::default()
            },
        );
        assert_eq!(
            capture_line(&b, 1234.6),
            "mining · mined SCN 1000234 · lag 2s · 1,235 records/s · 3 open transactions · 5.0 MiB spilled"
        );
        let mut b = board(State::Snapshotting, StreamStats::default());
        b.table = Some("SALES.ORDERS".into());
        b.chunk = Some(7);
        assert_eq!(
            capture_line(&b, 0.0),
            "snapshotting SALES.ORDERS chunk 7 · mined SCN - · lag - · 0 records/s · 0 open transactions · 0 B spilled"
        );
        let mut b = board(State::Starting, StreamStats::default());
        b.activity = Some("connecting to emulator:db".into());
        assert!(capture_line(&b, 0.0).starts_with("starting: connecting to emulator:db · "));
        let b = board(
            State::WaitingForRedo,
            StreamStats {
                open_transactions: 1,
                ..Default::default()
            },
        );
        assert!(capture_line(&b, 0.0).starts_with("waiting-for-redo · "));
        assert!(capture_line(&b, 0.0).contains(" · 1 open transaction · "));
    }

    #[test]
    fn the_last_lines_name_where_the_output_went() {
        assert_eq!(
            export_line(16, 2, "csv", Path::new("out")),
            "exported 16 rows of 2 tables as csv to out (manifest.json lists the files)"
        );
        assert_eq!(
            export_line(1_000_000, 1, "parquet", Path::new("/x")),
            "exported 1,000,000 rows of 1 table as parquet to /x (manifest.json lists the files)"
        );
        let s =
            crate::settings::Settings::from_pairs(&["cdc.sink.type=file", "cdc.sink.dir=/var/cdc"])
                .unwrap();
        assert_eq!(capture_destination(&s.sink), "records in /var/cdc");
        let s = crate::settings::Settings::from_pairs(&["cdc.sink.type=stdout"]).unwrap();
        assert_eq!(capture_destination(&s.sink), "records on stdout");
        // A broker pasted with credentials: the last line names it, not its password.
        let s = crate::settings::Settings::from_pairs(&[
            "cdc.sink.type=kafka",
            "cdc.sink.kafka.brokers=k1:9092,user:hunter2@k2:9092",
        ])
        .unwrap();
        assert_eq!(
            capture_destination(&s.sink),
            "records in Kafka topics oracle-cdc.* at k1:9092,user:<redacted>@k2:9092"
        );
    }
}
