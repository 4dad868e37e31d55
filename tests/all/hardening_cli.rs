//! Issue 21's findings that need a running capture or export: names that become paths, file
//! modes under umask 000, a signal that fails at run time, spool entries that are not signals,
//! and what `--print-settings` shows of secrets and long values.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use serde_json::Value as Json;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

fn cli(args: &[String]) -> Output {
    Command::new(cargo_bin("oracle-cdc"))
        .args(args)
        .output()
        .unwrap()
}

fn settings(e: &Emulated, extra: &[&str]) -> Vec<String> {
    [
        format!("cdc.database.url=emulator:{}", e.db.display()),
        format!("cdc.state.dir={}", e.state.display()),
        format!("cdc.sink.dir={}", e.out.display()),
        "cdc.snapshot.chunk.rows=7".into(),
        "cdc.stream.poll.ms=20".into(),
        "cdc.signal.poll.ms=20".into(),
    ]
    .into_iter()
    .chain(extra.iter().map(|s| s.to_string()))
    .flat_map(|s| ["--set".to_string(), s])
    .collect()
}

const ODD_NAMES: &str = r#"seed: 4
tables:
  - name: '"/tmp/x".T'
    columns: [{ name: ID, type: NUMBER(10), nullable: false }]
    primary_key: [ID]
    rows: 5
  - name: 'APP."x/y"'
    columns: [{ name: ID, type: NUMBER(10), nullable: false }]
    primary_key: [ID]
    rows: 6
  - name: 'A."B.C"'
    columns: [{ name: ID, type: NUMBER(10), nullable: false }]
    primary_key: [ID]
    rows: 7
  - name: '"A.B".C'
    columns: [{ name: ID, type: NUMBER(10), nullable: false }]
    primary_key: [ID]
    rows: 8
  - name: 'APP."emp"'
    columns: [{ name: ID, type: NUMBER(10), nullable: false }]
    primary_key: [ID]
    rows: 9
  - name: APP.EMP
    columns: [{ name: ID, type: NUMBER(10), nullable: false }]
    primary_key: [ID]
    rows: 10
  - name: 'CON."..\\.."'
    columns: [{ name: ID, type: NUMBER(10), nullable: false }]
    primary_key: [ID]
    rows: 11
"#;

fn lines(p: &Path) -> usize {
    std::fs::read_to_string(p).unwrap().lines().count()
}

#[test]
fn every_table_gets_its_own_file_inside_out_and_its_own_offsets_entry() {
    let e = emulated(ODD_NAMES);
    for format in ["jsonl", "parquet"] {
        let out = e.dir.path().join(format!("export-{format}"));
        let mut args = settings(&e, &[]);
        args.extend(
            [
                "snapshot",
                "--format",
                format,
                "--out",
                out.to_str().unwrap(),
            ]
            .map(String::from),
        );
        let r = cli(&args);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        assert!(!Path::new("/tmp/x").exists() || !Path::new("/tmp/x").join("T.jsonl").exists());
        let offsets: Json =
            serde_json::from_slice(&std::fs::read(out.join("offsets.json")).unwrap()).unwrap();
        let tables = offsets["snapshot"]["tables"].as_object().unwrap();
        assert_eq!(tables.len(), 7, "one entry per table: {tables:?}");
        let mut files: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|f| f.ends_with(".jsonl") && f != "ops.jsonl" || f.ends_with(".parquet"))
            .collect();
        files.sort();
        assert_eq!(files.len(), 7, "{files:?}");
        let lower: std::collections::BTreeSet<String> =
            files.iter().map(|f| f.to_ascii_lowercase()).collect();
        assert_eq!(lower.len(), 7, "apart on a case-insensitive file system");
        if format == "jsonl" {
            for (key, rows) in [
                ("A.\"B.C\"", 7),
                ("\"A.B\".C", 8),
                ("APP.\"emp\"", 9),
                ("APP.EMP", 10),
            ] {
                let name = tables[key]["file"]["name"].as_str().unwrap();
                assert_eq!(lines(&out.join(name)), rows, "{key} in {name}");
                assert_eq!(tables[key]["rows"], rows);
            }
            assert!(out.join("%2F%74%6D%70%2F%78.T.jsonl").exists(), "{files:?}");
        }
    }
}

#[test]
fn data_files_are_private_under_umask_000() {
    let dir = tempfile::tempdir().unwrap();
    let bin = cargo_bin("oracle-cdc");
    let schema = dir.path().join("s.yaml");
    std::fs::write(
        &schema,
        "tables:\n  - name: APP.T\n    columns: [{ name: ID, type: NUMBER(10), nullable: false }]\n    primary_key: [ID]\n    rows: 5\n",
    )
    .unwrap();
    let d = dir.path().display();
    let b = bin.display();
    let sh = |script: String| {
        let r = Command::new("sh")
            .arg("-c")
            .arg(format!("umask 000 && {script}"))
            .output()
            .unwrap();
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    };
    sh(format!(
        "{b} emulator init {d}/db --schema {d}/s.yaml && {b} emulator workload {d}/db --transactions 3"
    ));
    let scn = current_scn(&dir.path().join("db"));
    sh(format!(
        "{b} --set cdc.database.url=emulator:{d}/db --set cdc.state.dir={d}/state --set cdc.sink.dir={d}/out capture --stop-at-scn {scn} && \
         {b} --set cdc.database.url=emulator:{d}/db snapshot --out {d}/export && \
         {b} --set cdc.database.url=emulator:{d}/db snapshot --format csv --out {d}/export-csv && \
         {b} --set cdc.database.url=emulator:{d}/db snapshot --format parquet --out {d}/export-parquet"
    ));
    let mut seen = 0;
    let mut stack = vec![dir.path().to_path_buf()];
    while let Some(p) = stack.pop() {
        for f in std::fs::read_dir(&p).unwrap() {
            let f = f.unwrap().path();
            let m = std::fs::symlink_metadata(&f).unwrap();
            let mode = m.permissions().mode() & 0o777;
            if f == schema {
                continue;
            }
            if m.is_dir() {
                assert_eq!(mode & 0o077, 0, "{} is {mode:o}", f.display());
                stack.push(f);
            } else {
                assert_eq!(mode, 0o600, "{} is {mode:o}", f.display());
                seen += 1;
            }
        }
    }
    assert!(seen >= 10, "{seen} files looked at");
}

const SIGNALS: &str = "seed: 9
tables:
  - name: APP.T
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(30) }
    primary_key: [ID]
    rows: 30
";

#[test]
fn a_failing_signal_fails_alone_and_every_spool_entry_gets_an_outcome() {
    let e = emulated(SIGNALS);
    let scn = current_scn(&e.db).to_string();
    let base = settings(
        &e,
        &["cdc.snapshot.mode=none", "cdc.signal.concurrent=queue"],
    );
    let mut first = base.clone();
    first.extend(["capture", "--stop-at-scn", &scn].map(String::from));
    assert!(cli(&first).status.success());
    let spool = e.state.join("signals");
    std::fs::create_dir(&spool).unwrap();
    std::fs::set_permissions(&spool, std::fs::Permissions::from_mode(0o700)).unwrap();
    // Parsed and typed fine (NAME = 10 converts NAME), but every row's NAME fails ORA-01722
    // while it is read: the signal fails, capture goes on. Written to the spool directly, as a
    // source-channel signal would arrive, past `signal send`'s own check.
    let write = |name: &str, text: &str| std::fs::write(spool.join(name), text).unwrap();
    write(
        "0000000000001-bad-rows.json",
        r#"{"id":"bad-rows","type":"execute-snapshot","data":{"data-collections":["APP.T"],"additional-conditions":[{"data-collection":"APP.T","filter":"NAME = 10"}]}}"#,
    );
    write(
        "0000000000002-bad-column.json",
        r#"{"id":"bad-column","type":"execute-snapshot","data":{"data-collections":["APP.T"],"additional-conditions":[{"data-collection":"APP.T","filter":"NOPE = 1"}]}}"#,
    );
    write("0000000000003-x.txt", "not a signal name");
    std::fs::create_dir(spool.join("0000000000004-dir.json")).unwrap();
    let big = std::fs::File::create(spool.join("0000000000005-big.json")).unwrap();
    big.set_len(300 << 20).unwrap();
    let fifo = spool.join("0000000000006-fifo.json");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    write(
        "0000000000007-good.json",
        r#"{"id":"good","type":"execute-snapshot","data":{"data-collections":["APP.T"],"additional-conditions":[{"data-collection":"APP.T","filter":"ID <= 10"}]}}"#,
    );
    let mut again = base.clone();
    again.extend(["capture", "--stop-at-scn", &scn].map(String::from));
    let r = cli(&again);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    // A second start is not held up by what the first one refused.
    let r = cli(&again);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let ev = events(&e.state);
    let outcome = |id: &str| -> Vec<String> {
        ev.iter()
            .filter(|v| v["signal"] == id)
            .map(|v| v["event"].as_str().unwrap_or("").to_string())
            .collect()
    };
    assert!(
        outcome("bad-rows").contains(&"signal-failed".to_string()),
        "{:?}",
        outcome("bad-rows")
    );
    let rejected: Vec<&Json> = ev
        .iter()
        .filter(|v| v["event"] == "signal-rejected")
        .collect();
    let reason = |needle: &str| rejected.iter().any(|v| v.to_string().contains(needle));
    assert!(reason("bad-column") && reason("ORA-00904"), "{rejected:?}");
    for name in [
        "0000000000003-x.txt",
        "0000000000004-dir.json",
        "0000000000005-big.json",
        "0000000000006-fifo.json",
    ] {
        assert!(reason(name), "{name}: {rejected:?}");
        assert!(
            spool.join("rejected").join(name).exists(),
            "{name} moved to rejected/"
        );
    }
    assert!(reason("CDC-6305"), "the big file refused by size");
    let big_event = rejected
        .iter()
        .find(|v| v.to_string().contains("big.json"))
        .unwrap();
    assert!(
        big_event.to_string().len() < 2000,
        "not echoed: {big_event}"
    );
    assert!(
        outcome("good").contains(&"signal-done".to_string()),
        "{:?}",
        outcome("good")
    );
    let recs = records(&e.out);
    let from_good = recs
        .iter()
        .filter(|r| r["value"]["payload"]["source"]["snapshot"] == "incremental")
        .count();
    assert_eq!(
        from_good, 10,
        "the good signal's rows, after the failed one"
    );
    let offsets: Json =
        serde_json::from_slice(&std::fs::read(e.state.join("offsets.json")).unwrap()).unwrap();
    assert!(offsets["signals"].as_array().is_none_or(|a| a.is_empty()));
    let failed = offsets["signal_history"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["id"] == "bad-rows")
        .unwrap();
    assert_eq!(failed["outcome"], "failed");
}

#[test]
fn print_settings_hides_url_passwords_and_cuts_long_values() {
    let r = cli(&[
        "--set".into(),
        "cdc.database.url=cdc/hunter2secret@db.example.com:1521/ORCL".into(),
        "--set".into(),
        "cdc.mining.database.url=oracle://cdc:hunter3secret@db2:1521/X".into(),
        "--set".into(),
        format!("cdc.sink.topic.prefix={}", "p".repeat(100_000)),
        "--print-settings".into(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(
        !out.contains("hunter2secret") && !out.contains("hunter3secret"),
        "{out}"
    );
    assert!(out.contains("cdc/<redacted>@db.example.com"), "{out}");
    assert!(
        out.len() < 40_000,
        "a 100 KB value is shown cut ({} bytes)",
        out.len()
    );
    assert!(out.contains("100000 bytes"), "its length is said");
}

/// A `log` signal's message (issue 36 item 14): 900 KB with a newline and a forged error line
/// in it. What is written — the log line, the ops event, the offsets' signal history — is cut
/// to 4 KiB with the cut said, and the newline is escaped: no line of the log starts with the
/// forged text.
#[test]
fn a_log_signal_is_cut_and_cannot_forge_log_lines() {
    let e = emulated(SIGNALS);
    let scn = current_scn(&e.db).to_string();
    let base = settings(&e, &["cdc.snapshot.mode=none"]);
    let mut run = base.clone();
    run.extend(["capture", "--stop-at-scn", &scn].map(String::from));
    assert!(cli(&run).status.success());
    let spool = e.state.join("signals");
    std::fs::create_dir(&spool).unwrap();
    std::fs::set_permissions(&spool, std::fs::Permissions::from_mode(0o700)).unwrap();
    let forged = "ERROR capture stopped: CDC-5004";
    let message = format!("deploy 42\n{forged}\n{}", "x".repeat(900_000));
    let signal = serde_json::json!({"id": "note", "type": "log", "data": {"message": message}});
    std::fs::write(spool.join("0000000000001-note.json"), signal.to_string()).unwrap();
    let mut verbose = vec!["-v".to_string()];
    verbose.extend(run);
    let r = cli(&verbose);
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(r.status.success(), "{stderr}");
    assert!(
        stderr.contains("deploy 42\\n"),
        "the message is logged: {stderr:.500}"
    );
    assert!(
        !stderr.lines().any(|l| l.trim_start().starts_with(forged)),
        "a forged line: {stderr:.2000}"
    );
    assert!(stderr.contains("bytes not shown"), "the cut is said");
    assert!(stderr.len() < 40_000, "{} bytes of stderr", stderr.len());
    let ops = std::fs::read_to_string(e.state.join("ops.jsonl")).unwrap();
    let accepted = ops
        .lines()
        .find(|l| l.contains("\"signal-accepted\"") && l.contains("\"note\""))
        .expect("the signal is accepted");
    assert!(accepted.len() < 6000, "{} bytes", accepted.len());
    assert!(accepted.contains("bytes not shown"), "{accepted:.300}");
    let offsets = std::fs::read_to_string(e.state.join("offsets.json")).unwrap();
    assert!(
        offsets.len() < 100_000,
        "{} bytes of offsets",
        offsets.len()
    );
}

/// `A."B.C"` and `"A.B".C` both make topic `oracle-cdc.A.B.C`: capture used to mix their
/// records there. It refuses at start, naming both, before publishing anything; excluding one
/// of them lets it run.
#[test]
fn two_tables_on_one_topic_are_refused_before_anything_is_published() {
    let e = emulated(ODD_NAMES);
    let scn = current_scn(&e.db).to_string();
    let mut args = settings(&e, &[]);
    args.extend(["-q", "capture", "--stop-at-scn", &scn].map(String::from));
    let r = cli(&args);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(err.contains("CDC-8008"), "{err}");
    assert!(
        err.contains("A.\"B.C\"") && err.contains("\"A.B\".C") && err.contains("oracle-cdc.A.B.C"),
        "{err}"
    );
    assert!(records(&e.out).is_empty(), "nothing published");
    let mut args = settings(&e, &["cdc.tables.exclude=\"A.B\".C"]);
    args.extend(["-q", "capture", "--stop-at-scn", &scn].map(String::from));
    let r = cli(&args);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let recs = records(&e.out);
    assert_eq!(
        recs.iter()
            .filter(|r| r["topic"] == "oracle-cdc.A.B.C")
            .count(),
        7,
        "A.\"B.C\"'s rows alone"
    );
}
