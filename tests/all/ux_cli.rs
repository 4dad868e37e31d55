//! The operator's first contact: `help CMD`, `-q` on the commands that change things, the
//! README's main job run twice as written, logs that follow `--color`, `explain` sorted and
//! for Oracle errors, no lock file left behind, a stray `ORACLE_CDC_*` variable warned about,
//! and a Ctrl-C note that says what is finished first.

use crate::capture_support::wait_for;
use assert_cmd::cargo::cargo_bin;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str]) -> Output {
    Command::new(cargo_bin("oracle-cdc"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

fn init(dir: &Path) -> PathBuf {
    let db = dir.join("db");
    let schema = root().join("examples/emulator-schema.yaml");
    let o = run(&[
        "-q",
        "emulator",
        "init",
        db.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty(), "init -q printed {}", text(&o.stdout));
    db
}

#[test]
fn help_command_is_help_of_the_command() {
    for path in [vec!["snapshot"], vec!["emulator", "init"], vec![]] {
        let mut help: Vec<&str> = vec!["help"];
        help.extend(&path);
        let a = run(&help);
        assert!(a.status.success(), "help {path:?}: {}", text(&a.stderr));
        let mut flag = path.clone();
        flag.push("--help");
        let b = run(&flag);
        assert_eq!(text(&a.stdout), text(&b.stdout), "help {path:?}");
    }
    // Global options before `help` stay where they are.
    let o = run(&["--color", "never", "help", "capture"]);
    assert!(o.status.success());
    assert!(text(&o.stdout).contains("Usage: oracle-cdc capture"));
    // A table named `help` is still a value, not the help command.
    let o = run(&["explain", "help"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
}

#[test]
fn quiet_commands_that_change_things_print_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = init(dir.path());
    let db = db.to_str().unwrap();
    let o = run(&["-q", "emulator", "workload", db, "--transactions", "5"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        o.stdout.is_empty(),
        "workload -q printed {}",
        text(&o.stdout)
    );
    assert!(
        o.stderr.is_empty(),
        "workload -q printed {}",
        text(&o.stderr)
    );
    // Without -q the summary is there.
    let o = run(&["emulator", "workload", db, "--transactions", "5"]);
    assert!(text(&o.stdout).contains("committed"), "{}", text(&o.stdout));
}

#[test]
fn init_if_missing_keeps_the_database_and_refuses_other_directories() {
    let dir = tempfile::tempdir().unwrap();
    let db = init(dir.path());
    let schema = root().join("examples/emulator-schema.yaml");
    let args = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = ["emulator", "init", db.to_str().unwrap(), "--schema"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        v.push(schema.display().to_string());
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let redo = std::fs::read(db.join("redo.log")).unwrap();
    let again = |extra: &[&str]| {
        Command::new(cargo_bin("oracle-cdc"))
            .args(args(extra))
            .output()
            .unwrap()
    };
    let o = again(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--if-missing"),
        "{}",
        text(&o.stderr)
    );
    let o = again(&["--if-missing"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("already holds an emulated database"));
    assert_eq!(
        std::fs::read(db.join("redo.log")).unwrap(),
        redo,
        "left as it is"
    );
    // A directory with something else in it is still refused.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "x").unwrap();
    let o = run(&[
        "emulator",
        "init",
        other.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
        "--if-missing",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

/// The README's main job, exactly as written there, with the binary it builds replaced by the
/// one under test.
fn readme_main_job() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let run_it = readme.split("## Run it").nth(1).expect("README: ## Run it");
    let block = run_it.split("```sh\n").nth(1).expect("README: a sh block");
    let line = block.lines().next().unwrap();
    let line = line
        .strip_prefix("cargo build --release && ")
        .expect("the main job starts by building");
    assert!(line.contains("./target/release/oracle-cdc"));
    line.replace(
        "./target/release/oracle-cdc",
        &cargo_bin("oracle-cdc").display().to_string(),
    )
}

fn capture_starts(state: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(state.join("ops.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["event"] == "capture-started")
        .collect()
}

#[cfg(unix)]
#[test]
fn readme_main_job_runs_again_as_written_and_resumes() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    // The job names examples/emulator-schema.yaml relative to the work tree.
    std::fs::create_dir(dir.path().join("examples")).unwrap();
    std::fs::copy(
        root().join("examples/emulator-schema.yaml"),
        dir.path().join("examples/emulator-schema.yaml"),
    )
    .unwrap();
    let job = readme_main_job();
    let state = dir.path().join("demo-state");
    for round in 1..=2 {
        // Output to files: a pipe nobody reads while the job runs would fill and block it.
        let out_path = dir.path().join(format!("stdout-{round}"));
        let err_path = dir.path().join(format!("stderr-{round}"));
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&job)
            .current_dir(dir.path())
            .process_group(0)
            .stdout(std::fs::File::create(&out_path).unwrap())
            .stderr(std::fs::File::create(&err_path).unwrap())
            .spawn()
            .unwrap();
        let pgid = child.id().to_string();
        let output = || {
            format!(
                "{}\n{}",
                std::fs::read_to_string(&out_path).unwrap_or_default(),
                std::fs::read_to_string(&err_path).unwrap_or_default()
            )
        };
        // Running: the capture has started this round and written records.
        wait_for("the capture to start", 120, || {
            capture_starts(&state).len() >= round
                && std::fs::read_dir(dir.path().join("demo-out"))
                    .map(|d| d.count() > 0)
                    .unwrap_or(false)
        });
        std::thread::sleep(Duration::from_millis(500));
        // Ctrl-C, as the README says: to the whole job.
        Command::new("kill")
            .args(["-s", "INT", "--", &format!("-{pgid}")])
            .status()
            .unwrap();
        let until = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() >= until {
                let _ = Command::new("kill")
                    .args(["-s", "KILL", "--", &format!("-{pgid}")])
                    .status();
                panic!("round {round}: the job did not stop\n{}", output());
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        // The workload runs in the background, where a non-interactive shell ignores SIGINT
        // (an interactive one keeps it out of the terminal's process group): end it, so the
        // next round's workload gets the writer.
        let _ = Command::new("kill")
            .args(["-s", "TERM", "--", &format!("-{pgid}")])
            .status();
        wait_for("the workload to end", 30, || {
            !Command::new("kill")
                .args(["-s", "0", "--", &format!("-{pgid}")])
                .stderr(Stdio::null())
                .status()
                .unwrap()
                .success()
        });
        // The shell (sh -c stands in for the operator's interactive shell, which ignores the
        // SIGINT) may die of it; the capture must have stopped cleanly.
        use std::os::unix::process::ExitStatusExt;
        assert!(
            status.success() || status.signal() == Some(2),
            "round {round}: {status}\n{}",
            output()
        );
        let stderr = std::fs::read_to_string(&err_path).unwrap();
        assert!(
            stderr.contains("\nstopped: "),
            "round {round}: capture did not stop cleanly\n{}",
            output()
        );
        let stdout = std::fs::read_to_string(&out_path).unwrap();
        // The background workload ran with -q: nothing of it reached the terminal.
        assert!(!stdout.contains("committed"), "round {round}: {stdout}");
        if round == 2 {
            assert!(
                stdout.contains("already holds an emulated database"),
                "{stdout}"
            );
        }
    }
    let starts = capture_starts(&state);
    assert_eq!(starts.len(), 2, "{starts:?}");
    assert_eq!(starts[0]["first_start"], true);
    assert_eq!(starts[1]["first_start"], false, "the second run resumes");
}

#[test]
fn logs_follow_color_like_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    let db = init(dir.path());
    let status = run(&[
        "emulator",
        "status",
        db.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let scn = serde_json::from_slice::<serde_json::Value>(&status.stdout).unwrap()["current_scn"]
        .as_u64()
        .unwrap();
    let capture = |color: &str, n: usize| {
        let mut c = Command::new(cargo_bin("oracle-cdc"));
        c.env_remove("NO_COLOR")
            .args([
                "--set",
                &format!("cdc.database.url=emulator:{}", db.display()),
            ])
            .args([
                "--set",
                &format!(
                    "cdc.state.dir={}",
                    dir.path().join(format!("s{n}")).display()
                ),
            ])
            .args([
                "--set",
                &format!(
                    "cdc.sink.dir={}",
                    dir.path().join(format!("o{n}")).display()
                ),
            ])
            // LONG is snapshot-only (CDC-3008): leave it out, as the README's job does.
            .args(["--set", "cdc.columns.exclude=PDB2.SALES.ALL_TYPES.C_LONG"])
            .args(["-v", "--color", color, "capture", "--stop-at-scn"])
            .arg(scn.to_string());
        let o = c.output().unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stderr)
    };
    let always = capture("always", 1);
    assert!(always.contains("INFO"), "{always}");
    assert!(
        always.contains('\u{1b}'),
        "--color always colours the logs: {always}"
    );
    let never = capture("never", 2);
    assert!(never.contains("INFO"), "{never}");
    assert!(!never.contains('\u{1b}'), "--color never: {never}");
    // auto: stderr is a pipe here, not a terminal.
    let auto = capture("auto", 3);
    assert!(!auto.contains('\u{1b}'), "--color auto into a pipe: {auto}");
}

#[test]
fn explain_lists_in_order_and_explains_oracle_errors() {
    let o = run(&["explain", "--list"]);
    let codes: Vec<String> = text(&o.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("CDC-")))
        .map(str::to_string)
        .collect();
    let mut sorted = codes.clone();
    sorted.sort();
    assert!(codes.len() > 50);
    assert_eq!(codes, sorted);
    let o = run(&["explain", "ORA-01555"]);
    assert!(o.status.success());
    let t = text(&o.stdout);
    assert!(
        t.starts_with("ORA-01555: what oracle-cdc does with it"),
        "{t}"
    );
    assert!(t.contains("CDC-5001"), "{t}");
    assert!(t.contains("Remedy:"), "{t}");
    let o = run(&["explain", "ora-1017", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["oracle_error"], "ORA-01017");
    assert_eq!(v["becomes"][0]["code"], "CDC-2002");
    // Handled at login only: in a call it is the general code.
    assert_eq!(
        v["otherwise"],
        serde_json::json!({"in_calls": "CDC-5006"}),
        "{v}"
    );
    // Handled by the argument it names: any other ORA-00600 is the general code.
    let o = run(&["explain", "ORA-00600", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["becomes"][0]["code"], "CDC-5016", "{v}");
    assert_eq!(
        v["otherwise"],
        serde_json::json!({"at_login": "CDC-2006", "in_calls": "CDC-5006"}),
        "{v}"
    );
    let o = run(&["explain", "ORA-12345"]);
    assert!(text(&o.stdout).contains("no handling of its own"));
    assert!(text(&o.stdout).contains("CDC-5006"));
    let o = run(&["explain", "--oracle"]);
    assert!(text(&o.stdout).contains("ORA-00310"));
    assert!(text(&o.stdout).contains("what the Oracle error under it becomes"));
    // ORA-00604 wraps the error that decides.
    let o = run(&["explain", "ORA-00604"]);
    assert!(
        text(&o.stdout).starts_with("ORA-00604: a wrapper")
            && text(&o.stdout).contains("the first other ORA- code under it"),
        "{}",
        text(&o.stdout)
    );
    let o = run(&["explain", "ORA-00604", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["wrapper"], true);
    assert_eq!(v["otherwise"]["in_calls"], "CDC-5006", "{v}");
}

/// The lock files a run leaves behind in `dir` (none once their holders are gone).
fn locks_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".lock"))
        .collect()
}

#[test]
fn capture_and_export_leave_no_lock_file_behind() {
    let dir = tempfile::tempdir().unwrap();
    let db = init(dir.path());
    let status = run(&[
        "emulator",
        "status",
        db.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let scn = serde_json::from_slice::<serde_json::Value>(&status.stdout).unwrap()["current_scn"]
        .as_u64()
        .unwrap()
        .to_string();
    let url = format!("cdc.database.url=emulator:{}", db.display());
    let state = dir.path().join("state");
    let o = run(&[
        "-q",
        "--set",
        &url,
        "--set",
        &format!("cdc.state.dir={}", state.display()),
        "--set",
        &format!("cdc.sink.dir={}", dir.path().join("out").display()),
        "--set",
        "cdc.columns.exclude=PDB2.SALES.ALL_TYPES.C_LONG",
        "capture",
        "--stop-at-scn",
        &scn,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(state.join("offsets.json").exists());
    assert_eq!(locks_in(&state), Vec::<String>::new());
    assert!(dir.path().join("out/.sink-owner.json").exists());
    assert_eq!(locks_in(&dir.path().join("out")), Vec::<String>::new());
    let export = dir.path().join("export");
    let o = run(&[
        "-q",
        "--set",
        &url,
        "snapshot",
        "--out",
        export.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(export.join("manifest.json").exists());
    assert_eq!(locks_in(&export), Vec::<String>::new());
}

#[test]
fn an_unknown_oracle_cdc_variable_is_a_warning_unless_strict() {
    // Issue 37: a secret kept as ORACLE_CDC_PW made every command exit 2.
    let secret = "pw-value-that-must-not-show-5521";
    let with_var = |args: &[&str]| {
        Command::new(cargo_bin("oracle-cdc"))
            .args(args)
            .env("NO_COLOR", "1")
            .env("ORACLE_CDC_PW", secret)
            .output()
            .unwrap()
    };
    let o = with_var(&["--print-settings"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("ORACLE_CDC_PW"), "no warning names it: {err}");
    assert!(
        err.contains("--strict"),
        "the warning says what refuses it: {err}"
    );
    assert!(!err.contains(secret) && !text(&o.stdout).contains(secret));
    let o = with_var(&["--strict", "--print-settings"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("CDC-1001") && err.contains("ORACLE_CDC_PW"),
        "{err}"
    );
    assert!(!err.contains(secret), "{err}");
}

/// The states capture's ops events announced so far.
fn capture_states(state: &Path) -> Vec<String> {
    std::fs::read_to_string(state.join("ops.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["event"] == "capture-state")
        .filter_map(|e| e["state"].as_str().map(str::to_string))
        .collect()
}

#[cfg(unix)]
#[test]
fn ctrl_c_while_only_streaming_says_what_streaming_finishes() {
    // Issue 37: the note said "stopping after the chunks being read" with no snapshot running.
    let dir = tempfile::tempdir().unwrap();
    let db = init(dir.path());
    let state = dir.path().join("state");
    let err_path = dir.path().join("stderr");
    let mut child = Command::new(cargo_bin("oracle-cdc"))
        .env("NO_COLOR", "1")
        .args([
            "--set",
            &format!("cdc.database.url=emulator:{}", db.display()),
            "--set",
            &format!("cdc.state.dir={}", state.display()),
            "--set",
            &format!("cdc.sink.dir={}", dir.path().join("out").display()),
            "--set",
            "cdc.snapshot.mode=none",
            "--set",
            "cdc.columns.exclude=PDB2.SALES.ALL_TYPES.C_LONG",
            "capture",
        ])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    wait_for("capture to stream", 60, || {
        capture_states(&state)
            .iter()
            .any(|s| s == "mining" || s == "waiting-for-redo")
    });
    // The status board is read every few tens of milliseconds; let it see the state.
    std::thread::sleep(Duration::from_millis(1000));
    Command::new("kill")
        .args(["-s", "INT", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    let stderr = std::fs::read_to_string(&err_path).unwrap();
    assert!(status.success(), "{status}\n{stderr}");
    let note = stderr
        .lines()
        .find(|l| l.starts_with("stopping"))
        .unwrap_or_else(|| panic!("no stop note:\n{stderr}"));
    assert!(!note.contains("chunks"), "{note}");
    assert!(
        note.contains("redo being mined is published") || note.contains("nothing is being read"),
        "{note}"
    );
}

/// A missing capture user (issue 37, item 8): the message says what is missing and how to set
/// it, and the remedy applies (it used to point to "allowed values named in the message",
/// which named none).
#[test]
fn a_missing_capture_user_says_how_to_set_it() {
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("oracle-cdc"))
        .args([
            "--set",
            "cdc.database.url=127.0.0.1:1/NOWHERE",
            "-q",
            "capture",
        ])
        .env_remove("ORACLE_CDC_DATABASE_USER")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("CDC-1002: cdc.database.user is not set")
            && err.contains("--set cdc.database.user=")
            && !err.contains("allowed values named in the message"),
        "{err}"
    );
}
