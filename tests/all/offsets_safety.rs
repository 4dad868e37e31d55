//! Edits are safe by construction: damaged, truncated, wrong-version and other-database files are
//! refused and left byte for byte as they were; a running capture's lock blocks edits; a crash
//! between write steps leaves a valid file; hand edits (`--interactive`) are validated.

use crate::offsets_support;

use offsets_support::*;
use oracle_cdc::state::StateDir;
use std::process::Output;

/// Damaged, truncated, wrong-version and other-database files: every command refuses them with
/// its code, names the file, and leaves it byte for byte as it was.
#[test]
fn bad_files_are_refused_and_left_untouched() {
    let good = streaming();
    let cases: Vec<(&str, String, i32, &str, &str)> = vec![
        (
            "corrupt",
            "{ this is not json".into(),
            1,
            "CDC-7002",
            "line 1 column 3",
        ),
        (
            "truncated",
            good[..good.len() / 2].to_string(),
            1,
            "CDC-7002",
            "EOF while parsing",
        ),
        (
            "binary",
            "\u{0}\u{1}".into(),
            1,
            "CDC-7002",
            "line 1 column 1",
        ),
        (
            "newer",
            good.replace("\"format\": 1", "\"format\": 3"),
            1,
            "CDC-7003",
            "has format version 3; this oracle-cdc reads up to version 1",
        ),
        (
            "no version",
            good.replace("\"format\": 1,", ""),
            1,
            "CDC-7002",
            "no `format` version number",
        ),
        (
            "wrong type",
            good.replace("\"rows\": 12", "\"rows\": \"twelve\""),
            1,
            "CDC-7002",
            "invalid type: string \"twelve\"",
        ),
        (
            "unknown state",
            good.replace("\"state\": \"done\"", "\"state\": \"finished\""),
            1,
            "CDC-7002",
            "unknown variant `finished`",
        ),
    ];
    let edits: [&[&str]; 5] = [
        &["offsets", "edit", "set-scn", "1000035"],
        &["offsets", "edit", "reset-table", "SALES.ORDERS"],
        &["offsets", "edit", "mark-done", "SALES.ORDERS", "--force"],
        &["offsets", "edit", "forget-table", "SALES.ORDERS"],
        &["offsets", "edit", "drop-signal", "sig-1", "--force"],
    ];
    for (what, content, exit, code, detail) in &cases {
        let sb = Sandbox::new(Some(content));
        let mut commands: Vec<&[&str]> = vec![&["offsets", "inspect"]];
        commands.extend(edits.iter());
        for args in commands {
            let err = fails_with(&sb.run(args), *exit, code);
            assert!(
                err.contains(&sb.offsets().display().to_string()),
                "{what}: {err}"
            );
            assert!(err.contains(detail), "{what} {args:?}: {err}");
            assert!(err.contains("remedy:"), "{err}");
            assert_eq!(
                std::fs::read_to_string(sb.offsets()).unwrap(),
                *content,
                "{what}"
            );
            assert!(sb.backups().is_empty(), "{what}");
        }
    }
    // Offsets of another database (the reachable one has DBID 77).
    let sb = Sandbox::new(Some(&good)).with_database(77);
    let out = sb.run(&["offsets", "inspect"]);
    let err = fails_with(&out, 1, "CDC-7001");
    assert!(
        err.contains("belong to database DBID 4242 incarnation 1000000, not the connected DBID 77"),
        "{err}"
    );
    assert!(text(&out.stdout).contains("other database") || text(&out.stdout).contains("CDC-7001"));
    for args in edits {
        fails_with(&sb.run(args), 1, "CDC-7001");
        assert_eq!(std::fs::read_to_string(sb.offsets()).unwrap(), good);
        assert!(sb.backups().is_empty());
    }
}

#[test]
fn a_capture_holding_the_state_directory_blocks_edits_and_is_named() {
    let sb = Sandbox::new(Some(&streaming()));
    let before = std::fs::read(sb.offsets()).unwrap();
    let lock = StateDir::new(&sb.state()).lock().unwrap();
    let pid = std::process::id().to_string();
    let err = fails_with(
        &sb.run(&["offsets", "edit", "reset-table", "SALES.ORDERS"]),
        1,
        "CDC-7004",
    );
    assert!(
        err.contains(&format!("held by a running capture (pid {pid})")),
        "{err}"
    );
    assert_eq!(std::fs::read(sb.offsets()).unwrap(), before);
    assert!(sb.backups().is_empty());
    // A dry run still shows the diff, with a warning; inspect names the holder.
    let out = sb.ok(&[
        "offsets",
        "edit",
        "reset-table",
        "SALES.ORDERS",
        "--dry-run",
    ]);
    assert!(text(&out.stderr).contains(&format!("a running capture (pid {pid}) holds")));
    let out = sb.ok(&["offsets", "inspect"]);
    assert!(text(&out.stdout).contains(&format!("running (pid {pid} holds the state directory)")));
    drop(lock);
    sb.ok(&["offsets", "edit", "reset-table", "SALES.ORDERS"]);
    // The edit itself holds the lock while it works: a capture started meanwhile is refused.
    let holder = StateDir::new(&sb.state()).holder();
    assert!(holder.is_none(), "released after the edit: {holder:?}");
}

/// The binary is killed (abort, as by a crash or power loss) right after each write step: the
/// file is always valid — the old offsets before the rename, the new ones after — and the next
/// edit goes through.
#[test]
fn a_crash_between_write_steps_leaves_a_valid_file() {
    if !cfg!(debug_assertions) {
        eprintln!("the crash hook exists in debug builds only");
        return;
    }
    for (step, renamed) in [
        ("after-backup", false),
        ("after-temp-write", false),
        ("after-temp-sync", false),
        ("after-rename", true),
        ("after-dir-sync", true),
    ] {
        let sb = Sandbox::new(Some(&streaming()));
        let before = std::fs::read(sb.offsets()).unwrap();
        let out = sb
            .command(&["offsets", "edit", "set-scn", "1000035"])
            .env("ORACLE_CDC_TEST_CRASH_AT", step)
            .output()
            .unwrap();
        assert!(
            !out.status.success() && out.status.code().is_none(),
            "{step}: killed"
        );
        let o = sb.json();
        let expect = if renamed { 1000034 } else { 1000040 };
        assert_eq!(o["stream"]["commit_scn"], expect, "{step}");
        if !renamed {
            assert_eq!(std::fs::read(sb.offsets()).unwrap(), before, "{step}");
        }
        assert_eq!(std::fs::read(&sb.backups()[0]).unwrap(), before, "{step}");
        sb.ok(&["offsets", "inspect"]);
        sb.ok(&["offsets", "edit", "set-scn", "1000033"]);
        assert_eq!(sb.json()["stream"]["commit_scn"], 1000032, "{step}");
    }
}

/// `EDITOR` running `script` on the file. Run by `sh`, not executed: a script file just written
/// can be busy (ETXTBSY) for exec while another test thread forks.
#[cfg(unix)]
fn editor(sb: &Sandbox, script: &str) -> String {
    let path = sb.dir.path().join("editor.sh");
    std::fs::write(&path, format!("{script}\n")).unwrap();
    format!("sh {}", path.display())
}

#[cfg(unix)]
fn interactive(sb: &Sandbox, script: &str, extra: &[&str]) -> Output {
    let mut args = vec!["offsets", "edit", "--interactive"];
    args.extend(extra);
    sb.command(&args)
        .env("EDITOR", editor(sb, script))
        .env_remove("VISUAL")
        .output()
        .unwrap()
}

#[cfg(unix)]
#[test]
fn interactive_edits_are_validated_diffed_and_confirmed() {
    let sb = Sandbox::new(Some(&mid_signal()));
    let before = std::fs::read(sb.offsets()).unwrap();
    let pause = r#"sed -i 's/"paused": false/"paused": true/' "$1""#;
    // Pausing a signal snapshot loses nothing; without a terminal, confirmation needs --yes.
    let err = fails_with(&interactive(&sb, pause, &[]), 2, "CDC-1006");
    assert!(err.contains("pass --yes"), "{err}");
    assert_eq!(std::fs::read(sb.offsets()).unwrap(), before);
    let out = interactive(&sb, pause, &["--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "~ signals[sig-1].paused: false → true\n");
    assert_eq!(sb.json()["signals"][0]["paused"], true);
    assert_eq!(sb.backups().len(), 1);
    // Unchanged: nothing written.
    let out = interactive(&sb, "true", &["--yes"]);
    assert!(
        text(&out.stderr).contains("no change"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(sb.backups().len(), 1);
    // Invalid edits: the exact problem, and the original kept.
    let now = std::fs::read(sb.offsets()).unwrap();
    for (script, needle) in [
        (
            r#"sed -i 's/"state": "in_progress"/"state": "half"/' "$1""#,
            "unknown variant `half`",
        ),
        (
            r#"sed -i 's/"rows": 12,/"rows": 12/' "$1""#,
            "the edited JSON is not valid offsets: expected",
        ),
        (
            r#"sed -i 's/"paused": true/"pasued": true/' "$1""#,
            "signals[0].pasued: unknown field",
        ),
        (
            r#"sed -i 's/"dbid": 4242/"dbid": 4243/' "$1""#,
            "database: the identity cannot be edited",
        ),
        (
            r#"sed -i 's/"format": 1/"format": 2/' "$1""#,
            "format: 2 is newer",
        ),
        (
            r#"sed -i 's/"resume_scn": 1000030/"resume_scn": 1000090/' "$1""#,
            "stream.resume_scn 1000090 is after stream.commit_scn 1000040 + 1",
        ),
        (
            r#"sed -i 's/"tables": \[/"tables": ["HR.EMP", /' "$1""#,
            "signals[0].tables: HR.EMP is not captured by the settings",
        ),
    ] {
        let out = interactive(&sb, script, &["--yes"]);
        let err = text(&out.stderr);
        assert!(
            err.contains("CDC-7008") && err.contains(needle),
            "{script}: {err}"
        );
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(std::fs::read(sb.offsets()).unwrap(), now, "{script}");
    }
    // A hand edit that skips data needs --force like any other.
    let mark = r#"sed -i '0,/"state": "in_progress"/s//"state": "done"/' "$1""#;
    let err = fails_with(&interactive(&sb, mark, &["--yes"]), 2, "CDC-7006");
    assert!(
        err.contains("SALES.ORDERS counts as done in signal snapshot sig-1"),
        "{err}"
    );
    assert_eq!(std::fs::read(sb.offsets()).unwrap(), now);
    // A failing editor leaves everything as it was.
    fails_with(
        &interactive(&sb, "exit 3", &["--yes"]),
        1,
        "the editor exited",
    );
    assert_eq!(std::fs::read(sb.offsets()).unwrap(), now);
    assert_eq!(sb.backups().len(), 1);
}
