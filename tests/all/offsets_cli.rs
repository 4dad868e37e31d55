//! `oracle-cdc offsets inspect` and `offsets edit` on hand-built offsets: every phase inspected,
//! with and without the database, and every operation's effect on the file.

use crate::offsets_support;

use offsets_support::*;
use serde_json::Value as Json;

#[test]
fn inspect_shows_every_phase_without_a_database() {
    let cases = [
        (fresh(), "fresh", vec![]),
        (
            mid_snapshot(),
            "snapshotting while streaming",
            vec![
                "in progress",
                "key (6)",
                "not started",
                "unfinished: 0 of 2 tables done, 5 records",
            ],
        ),
        (
            streaming(),
            "streaming",
            vec![
                "1000030",
                "1000040 (published there: 0a001b00c3010000)",
                "thread 1: 1000040",
                "00000001.jsonl acknowledged to byte 40960; 96 records",
                "2 entries acknowledged",
                "complete: 2 of 2 tables done, 16 records",
            ],
        ),
        (
            mid_signal(),
            "streaming, 1 signal snapshot running",
            vec!["sig-1", "incremental", "key (9)", "first row"],
        ),
    ];
    for (offsets, phase, needles) in cases {
        let sb = Sandbox::new(Some(&offsets));
        let out = sb.ok(&["offsets", "inspect"]);
        let table = text(&out.stdout);
        assert!(table.contains(phase), "{table}");
        assert!(
            table.contains("not checked: no database configured (cdc.database.url)"),
            "{table}"
        );
        for n in needles {
            assert!(table.contains(n), "{n:?} missing from\n{table}");
        }
        let out = sb.ok(&["offsets", "inspect", "--format", "json"]);
        let report: Json = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["phase"], phase);
        assert_eq!(report["live"]["status"], "not configured");
        let stored: Json = serde_json::from_str(&offsets).unwrap();
        assert_eq!(
            report["offsets"]["stream"]["commit_scn"], stored["stream"]["commit_scn"],
            "{phase}"
        );
        assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    }
    // No file at all: fresh, and the path it looked at.
    let sb = Sandbox::new(None);
    let out = sb.ok(&["offsets", "inspect"]);
    assert!(text(&out.stdout).contains("fresh: no offsets file"));
    let out = sb.ok(&["offsets", "inspect", "--format", "json"]);
    let report: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["exists"], false);
    assert!(report["file"].as_str().unwrap().ends_with("offsets.json"));
}

#[test]
fn inspect_with_the_database_adds_lag_and_retained_logs_and_survives_it_being_gone() {
    let sb = Sandbox::new(Some(&streaming())).with_database(4242);
    let out = sb.ok(&["offsets", "inspect", "--format", "json"]);
    let report: Json = serde_json::from_slice(&out.stdout).unwrap();
    let live = &report["live"];
    assert_eq!(live["status"], "reachable");
    let current = live["current_scn"].as_u64().unwrap();
    assert_eq!(live["lag_scns"].as_u64().unwrap(), current - 1000040);
    assert_eq!(live["resume_in_retained_logs"], true);
    // The commit SCN maps to the time of the redo at it (YYYY-MM-DD HH24:MI:SS).
    let at = live["commit_scn_time"].as_str().unwrap();
    assert_eq!((at.len(), &at[4..5], &at[13..14]), (19, "-", ":"), "{at}");
    let table = text(&sb.ok(&["offsets", "inspect"]).stdout);
    assert!(table.contains(&format!(", at {at})")), "{table}");
    assert!(table.contains("1000030 (in the retained logs)"), "{table}");
    assert!(
        table.contains(&format!("{current} (lag {} SCNs)", current - 1000040)),
        "{table}"
    );
    assert_eq!(live["database_behind_offsets"], false);
    // A resume SCN before the database's first SCN is not in its logs.
    std::fs::write(sb.offsets(), streaming().replace("1000030", "999000")).unwrap();
    let table = text(&sb.ok(&["offsets", "inspect"]).stdout);
    assert!(
        table.contains("999000 (NOT in the retained logs"),
        "{table}"
    );
    // The database gone: said, not failed.
    let mut gone = sb;
    gone.url = format!("emulator:{}", gone.dir.path().join("nowhere").display());
    let out = gone.ok(&["offsets", "inspect", "--format", "json"]);
    let report: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["live"]["status"], "unreachable");
    assert!(report["live"]["error"]
        .as_str()
        .unwrap()
        .starts_with("CDC-4001"));
    let table = text(&gone.ok(&["offsets", "inspect"]).stdout);
    assert!(
        table.contains("not checked: database not reachable: CDC-4001"),
        "{table}"
    );
    // --offline does not try.
    let report: Json = serde_json::from_slice(
        &gone
            .ok(&["offsets", "inspect", "--offline", "--format", "json"])
            .stdout,
    )
    .unwrap();
    assert_eq!(report["live"]["status"], "offline");
}

#[test]
fn set_scn_moves_the_stream_position_with_a_backup_and_a_diff() {
    let sb = Sandbox::new(Some(&streaming()));
    let before = std::fs::read(sb.offsets()).unwrap();
    // Forward skips commits: refused without --force, naming them, and nothing written.
    let err = fails_with(
        &sb.run(&["offsets", "edit", "set-scn", "1000050"]),
        2,
        "CDC-7006",
    );
    assert!(
        err.contains("every transaction committed at SCNs 1000040 to 1000049 (at SCN 1000040 all but 0a001b00c3010000, already published) is never published"),
        "{err}"
    );
    assert_eq!(std::fs::read(sb.offsets()).unwrap(), before);
    assert!(sb.backups().is_empty());
    // --dry-run shows the diff and writes nothing.
    let out = sb.ok(&["offsets", "edit", "set-scn", "1000050", "--dry-run"]);
    assert!(text(&out.stdout).contains("~ stream.commit_scn: 1000040 → 1000049"));
    assert!(text(&out.stderr).contains("dry run: nothing written"));
    assert_eq!(std::fs::read(sb.offsets()).unwrap(), before);
    // --force writes it.
    let out = sb.ok(&["offsets", "edit", "set-scn", "1000050", "--force"]);
    let diff = text(&out.stdout);
    assert!(
        diff.contains("~ stream.commit_scn: 1000040 → 1000049"),
        "{diff}"
    );
    assert!(
        diff.contains("~ stream.commit_xids: [\"0a001b00c3010000\"] → []"),
        "{diff}"
    );
    assert!(
        diff.contains("~ stream.threads.1: 1000040 → 1000049"),
        "{diff}"
    );
    assert!(
        !diff.contains("resume_scn"),
        "mining still starts at 1000030: {diff}"
    );
    assert!(text(&out.stderr).contains("warning: this edit skips data (--force)"));
    let o = sb.json();
    assert_eq!(o["stream"]["commit_scn"], 1000049);
    assert_eq!(o["stream"]["resume_scn"], 1000030);
    let backups = sb.backups();
    assert_eq!(backups.len(), 1);
    assert!(backups[0]
        .file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with("offsets.json.bak-20"));
    assert_eq!(
        std::fs::read(&backups[0]).unwrap(),
        before,
        "the backup holds the old bytes"
    );
    let ops = std::fs::read_to_string(sb.state().join("ops.jsonl")).unwrap();
    let event: Json = serde_json::from_str(ops.lines().last().unwrap()).unwrap();
    assert_eq!(event["event"], "offsets-edited");
    assert_eq!(event["operation"], "set-scn 1000050");
    // Back loses nothing: no --force needed; a poison transaction is skipped by its XID.
    sb.ok(&["offsets", "edit", "set-scn", "1000035"]);
    assert_eq!(sb.json()["stream"]["commit_scn"], 1000034);
    sb.ok(&[
        "offsets",
        "edit",
        "set-scn",
        "1000036",
        "--skip-xid",
        "0b000200d4020000",
        "--force",
    ]);
    let s = &sb.json()["stream"];
    assert_eq!(
        (s["commit_scn"].clone(), s["commit_xids"][0].clone()),
        (1000036.into(), "0b000200d4020000".into())
    );
    assert_eq!(sb.backups().len(), 3);
}

#[test]
fn set_scn_checks_the_retained_logs_when_the_database_is_reachable() {
    let sb = Sandbox::new(Some(&streaming())).with_database(4242);
    let before = std::fs::read(sb.offsets()).unwrap();
    let err = fails_with(
        &sb.run(&["offsets", "edit", "set-scn", "99999999", "--force"]),
        1,
        "CDC-7007",
    );
    assert!(err.contains("is after the database's current SCN"), "{err}");
    let err = fails_with(
        &sb.run(&["offsets", "edit", "set-scn", "999999", "--force"]),
        1,
        "CDC-7007",
    );
    assert!(
        err.contains("older than the oldest retained redo log (first SCN 1000000)"),
        "{err}"
    );
    assert_eq!(std::fs::read(sb.offsets()).unwrap(), before);
    // Without the database it goes on with a warning.
    let out = sb.ok(&["offsets", "edit", "set-scn", "1000035", "--offline"]);
    assert!(
        text(&out.stderr).contains(
            "warning: --offline: the DBID and the SCN against the retained logs are not checked"
        ),
        "{}",
        text(&out.stderr)
    );
    // No offsets yet: set-scn starts them from the database's identity.
    let sb = Sandbox::new(None).with_database(4242);
    let out = sb.ok(&[
        "--set",
        "cdc.snapshot.mode=none",
        "offsets",
        "edit",
        "set-scn",
        "1000010",
    ]);
    assert!(
        text(&out.stdout).contains("+ stream: {\"resume_scn\": 1000010, \"commit_scn\": 1000009")
    );
    assert_eq!(sb.json()["database"]["dbid"], 4242);
    assert!(sb.backups().is_empty(), "nothing to back up");
    // … which in the default initial mode skips the snapshot: --force.
    let sb = Sandbox::new(None).with_database(4242);
    let err = fails_with(
        &sb.run(&["offsets", "edit", "set-scn", "1000010"]),
        2,
        "CDC-7006",
    );
    assert!(err.contains("no initial snapshot"), "{err}");
    assert!(!sb.offsets().exists());
}

#[test]
fn table_and_signal_operations_change_exactly_their_part() {
    // reset-table
    let sb = Sandbox::new(Some(&streaming()));
    let out = sb.ok(&["offsets", "edit", "reset-table", "sales.orders"]);
    assert!(text(&out.stdout)
        .contains("~ snapshot.tables[\"SALES.ORDERS\"].state: \"done\" → \"not_started\""));
    let o = sb.json();
    assert_eq!(o["snapshot"]["tables"]["SALES.ORDERS"]["rows"], 0);
    assert_eq!(o["snapshot"]["tables"]["SALES.EVENTS"]["rows"], 4);
    assert_eq!(o["snapshot"]["completed"], false);
    assert_eq!(o["snapshot"]["records"], 4);
    // mark-done (skips rows: --force)
    let sb = Sandbox::new(Some(&mid_snapshot()));
    let err = fails_with(
        &sb.run(&["offsets", "edit", "mark-done", "SALES.ORDERS"]),
        2,
        "CDC-7006",
    );
    assert!(
        err.contains("the rows from key (6) on are not read yet"),
        "{err}"
    );
    sb.ok(&["offsets", "edit", "mark-done", "SALES.ORDERS", "--force"]);
    assert_eq!(
        sb.json()["snapshot"]["tables"]["SALES.ORDERS"]["state"],
        "done"
    );
    assert!(sb.json()["snapshot"]["tables"]["SALES.ORDERS"]
        .get("next")
        .is_none());
    // forget-table
    let sb = Sandbox::new(Some(&streaming()));
    sb.ok(&["offsets", "edit", "forget-table", "SALES.EVENTS"]);
    let o = sb.json();
    assert!(o["snapshot"]["tables"].get("SALES.EVENTS").is_none());
    assert_eq!(o["snapshot"]["order"], serde_json::json!(["SALES.ORDERS"]));
    // drop-signal (its tables are unfinished: --force)
    let sb = Sandbox::new(Some(&mid_signal()));
    let err = fails_with(
        &sb.run(&["offsets", "edit", "drop-signal", "sig-1"]),
        2,
        "CDC-7006",
    );
    assert!(
        err.contains("signal snapshot sig-1 (incremental) is dropped"),
        "{err}"
    );
    let out = sb.ok(&["offsets", "edit", "drop-signal", "sig-1", "--force"]);
    assert!(
        text(&out.stdout).starts_with("- signals[sig-1]: {\"id\": \"sig-1\""),
        "{}",
        text(&out.stdout)
    );
    assert!(sb.json().get("signals").is_none());
    // Unknown names: CDC-7008, naming what there is.
    let sb = Sandbox::new(Some(&mid_signal()));
    let before = std::fs::read(sb.offsets()).unwrap();
    let err = fails_with(
        &sb.run(&["offsets", "edit", "drop-signal", "sig-9"]),
        2,
        "CDC-7008",
    );
    assert!(err.contains("(signals: sig-1)"), "{err}");
    let err = fails_with(
        &sb.run(&["offsets", "edit", "reset-table", "HR.EMP"]),
        2,
        "CDC-7008",
    );
    assert!(
        err.contains("HR.EMP is not captured by the settings (cdc.tables.include is SALES.*)"),
        "{err}"
    );
    let err = fails_with(
        &sb.run(&["offsets", "edit", "forget-table", "SALES.REFUNDS"]),
        2,
        "CDC-7008",
    );
    assert!(err.contains("tables: SALES.EVENTS, SALES.ORDERS"), "{err}");
    let err = fails_with(
        &sb.run(&["offsets", "edit", "reset-table", "ORDERS"]),
        2,
        "CDC-7008",
    );
    assert!(
        err.contains("expected PDB.OWNER.TABLE or OWNER.TABLE"),
        "{err}"
    );
    assert_eq!(std::fs::read(sb.offsets()).unwrap(), before);
    assert!(sb.backups().is_empty());
    // No operation, or both: usage errors.
    fails_with(&sb.run(&["offsets", "edit"]), 2, "CDC-1006");
    fails_with(
        &sb.run(&["offsets", "edit", "-i", "drop-signal", "sig-1"]),
        2,
        "CDC-1006",
    );
    // No file: CDC-7005.
    let sb = Sandbox::new(None);
    let err = fails_with(
        &sb.run(&["offsets", "edit", "reset-table", "SALES.ORDERS"]),
        1,
        "CDC-7005",
    );
    assert!(err.contains("offsets.json"), "{err}");
}
#[test]
fn edits_honour_dir_for_export_directories() {
    let sb = Sandbox::new(None);
    let export = sb.dir.path().join("export");
    std::fs::create_dir_all(&export).unwrap();
    let with_export = mid_snapshot().replace(
        "\"stream\": { \"resume_scn\": 1000021, \"commit_scn\": 1000020 }",
        "\"export\": { \"format\": \"jsonl\", \"tables\": [\"SALES.EVENTS\", \"SALES.ORDERS\"] }",
    );
    std::fs::write(export.join("offsets.json"), &with_export).unwrap();
    let e = export.to_str().unwrap();
    let out = sb.ok(&["offsets", "inspect", "--dir", e]);
    assert!(text(&out.stdout).contains("jsonl of SALES.EVENTS, SALES.ORDERS"));
    let err = fails_with(
        &sb.run(&[
            "offsets",
            "edit",
            "reset-table",
            "SALES.REFUNDS",
            "--dir",
            e,
        ]),
        2,
        "CDC-7008",
    );
    assert!(err.contains("not part of this export"), "{err}");
    sb.ok(&[
        "offsets",
        "edit",
        "--dir",
        e,
        "forget-table",
        "SALES.EVENTS",
    ]);
    let o: Json =
        serde_json::from_slice(&std::fs::read(export.join("offsets.json")).unwrap()).unwrap();
    assert_eq!(o["export"]["tables"], serde_json::json!(["SALES.ORDERS"]));
    assert!(
        !sb.offsets().exists(),
        "the state directory was not touched"
    );
}

/// The keys commands/offsets.md documents for `offsets inspect --format json`: the first
/// column of its key table, top-level keys bare and the `live` object's as `live.KEY`.
fn documented_inspect_keys() -> (Vec<String>, Vec<String>) {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/commands/offsets.md"))
        .unwrap();
    let section = page
        .split("## `offsets inspect")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap();
    let (mut top, mut live) = (Vec::new(), Vec::new());
    for line in section.lines() {
        let Some(key) = line
            .strip_prefix("| `")
            .and_then(|rest| rest.split_once("` |"))
            .map(|(k, _)| k)
        else {
            continue;
        };
        match key.strip_prefix("live.") {
            Some(k) => live.push(k.to_string()),
            None => top.push(key.to_string()),
        }
    }
    top.sort();
    live.sort();
    (top, live)
}

fn keys(v: &Json) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    k.sort();
    k
}

#[test]
fn inspect_json_prints_what_the_page_documents() {
    let (top, live) = documented_inspect_keys();
    assert!(top.contains(&"offsets".to_string()) && live.contains(&"status".to_string()));
    let mut seen_live = std::collections::BTreeSet::new();
    // Reachable and streaming: every key the database can add.
    // A file the tool wrote itself (an edit that delivers again, made before the database is
    // there) holds the offsets exactly as the tool stores them.
    let sb = Sandbox::new(Some(&streaming()));
    sb.ok(&["offsets", "edit", "set-scn", "1000020"]);
    let sb = sb.with_database(4242);
    let report: Json =
        serde_json::from_slice(&sb.ok(&["offsets", "inspect", "--format", "json"]).stdout).unwrap();
    assert_eq!(keys(&report), top);
    assert_eq!(report["offsets"], sb.json(), "the offsets as stored");
    assert_eq!(report["file_format"], sb.json()["format"]);
    assert_eq!(report["exists"], true);
    let current = report["live"]["current_scn"].as_u64().unwrap();
    let commit = sb.json()["stream"]["commit_scn"].as_u64().unwrap();
    assert_eq!(report["live"]["lag_scns"].as_u64(), Some(current - commit));
    seen_live.extend(keys(&report["live"]));
    // Unreachable and not configured: the status and the error.
    let mut gone = sb;
    gone.url = format!("emulator:{}", gone.dir.path().join("nowhere").display());
    let report: Json =
        serde_json::from_slice(&gone.ok(&["offsets", "inspect", "--format", "json"]).stdout)
            .unwrap();
    assert_eq!(keys(&report), top);
    seen_live.extend(keys(&report["live"]));
    let mut none = gone;
    none.url = String::new();
    let report: Json =
        serde_json::from_slice(&none.ok(&["offsets", "inspect", "--format", "json"]).stdout)
            .unwrap();
    seen_live.extend(keys(&report["live"]));
    assert_eq!(seen_live.into_iter().collect::<Vec<_>>(), live);
}

/// Issue 37: `--yes` was refused after an edit's operation (`offsets edit set-scn 1000035
/// --yes`), and before it unless with --interactive; a script that always passes it must get the
/// same edit either way, and the same as without it (only --interactive asks).
#[test]
fn yes_is_accepted_before_and_after_every_operation() {
    let ops: [&[&str]; 5] = [
        &["set-scn", "1000035"],
        &["reset-table", "SALES.ORDERS"],
        &["mark-done", "SALES.ORDERS", "--force"],
        &["forget-table", "SALES.EVENTS", "--force"],
        &["drop-signal", "sig-1", "--force"],
    ];
    for op in ops {
        let stored = |yes: Option<bool>| {
            let sb = Sandbox::new(Some(&mid_signal()));
            let mut args = vec!["offsets", "edit"];
            if yes == Some(true) {
                args.push("--yes");
            }
            args.extend(op);
            if yes == Some(false) {
                args.push("--yes");
            }
            sb.ok(&args);
            assert_eq!(sb.backups().len(), 1, "{args:?}: written");
            sb.json()
        };
        let plain = stored(None);
        assert_ne!(
            plain,
            serde_json::from_str::<Json>(&mid_signal()).unwrap(),
            "{op:?} changes the offsets"
        );
        assert_eq!(stored(Some(true)), plain, "offsets edit --yes {op:?}");
        assert_eq!(stored(Some(false)), plain, "offsets edit {op:?} --yes");
    }
}
