//! `offsets edit apply FILE|-` (an edited document, checked like an interactive edit) and
//! `offsets reset` (every position forgotten), with the safety of the other edits: locked
//! against a running capture, weighed for what they skip (--force), backed up, diffed.

use crate::offsets_support;

use offsets_support::*;
use std::io::Write;
use std::process::Stdio;

#[test]
fn apply_takes_an_edited_document_from_a_file_or_stdin() {
    let sb = Sandbox::new(Some(&streaming()));
    let before = std::fs::read(sb.offsets()).unwrap();
    // Moving the stream back loses nothing: written, with a backup and the diff.
    let mut doc = sb.json();
    doc["stream"]["commit_scn"] = 1000035.into();
    doc["stream"]["commit_xids"] = serde_json::json!([]);
    doc["stream"]["threads"]["1"] = 1000035.into();
    let file = sb.dir.path().join("edited.json");
    std::fs::write(&file, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let out = sb.ok(&[
        "offsets",
        "edit",
        "apply",
        file.to_str().unwrap(),
        "--dry-run",
    ]);
    assert!(text(&out.stdout).contains("~ stream.commit_scn: 1000040 → 1000035"));
    assert_eq!(std::fs::read(sb.offsets()).unwrap(), before, "--dry-run");
    sb.ok(&["offsets", "edit", "apply", file.to_str().unwrap()]);
    assert_eq!(sb.json()["stream"]["commit_scn"], 1000035);
    assert_eq!(sb.backups().len(), 1);
    let ops = std::fs::read_to_string(sb.state().join("ops.jsonl")).unwrap();
    assert!(ops.contains("\"operation\":\"apply "), "{ops}");

    // From stdin; moving it forward skips commits: refused without --force.
    let mut doc = sb.json();
    doc["stream"]["commit_scn"] = 1000060.into();
    doc["stream"]["threads"]["1"] = 1000060.into();
    let stdin = |args: &[&str]| {
        let mut child = sb
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(&serde_json::to_vec(&doc).unwrap())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let err = fails_with(&stdin(&["offsets", "edit", "apply", "-"]), 2, "CDC-7006");
    assert!(err.contains("--force"), "{err}");
    assert_eq!(sb.json()["stream"]["commit_scn"], 1000035);
    let out = stdin(&["offsets", "edit", "apply", "-", "--force"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(sb.json()["stream"]["commit_scn"], 1000060);
}

#[test]
fn apply_refuses_what_an_interactive_edit_refuses() {
    let sb = Sandbox::new(Some(&streaming()));
    let before = std::fs::read(sb.offsets()).unwrap();
    let apply = |doc: &str| {
        let file = sb.dir.path().join("doc.json");
        std::fs::write(&file, doc).unwrap();
        sb.run(&["offsets", "edit", "apply", file.to_str().unwrap()])
    };
    // Not JSON, an unknown field, a table the settings do not capture, a bad XID.
    fails_with(&apply("{ not json"), 2, "CDC-7008");
    let mut doc = sb.json();
    doc["stream"]["extra"] = 1.into();
    let err = fails_with(&apply(&doc.to_string()), 2, "CDC-7008");
    assert!(err.contains("extra"), "{err}");
    let mut doc = sb.json();
    doc["stream"]["commit_xids"] = serde_json::json!(["xyz"]);
    fails_with(&apply(&doc.to_string()), 2, "CDC-7008");
    let doc = sb.json().to_string().replace("SALES.EVENTS", "HR.PAYROLL");
    fails_with(&apply(&doc), 2, "CDC-7008");
    assert_eq!(std::fs::read(sb.offsets()).unwrap(), before);
    assert!(sb.backups().is_empty());
    // No offsets to apply to.
    let empty = Sandbox::new(None);
    let file = empty.dir.path().join("doc.json");
    std::fs::write(&file, streaming()).unwrap();
    fails_with(
        &empty.run(&["offsets", "edit", "apply", file.to_str().unwrap()]),
        1,
        "CDC-7005",
    );
}

#[test]
fn reset_forgets_every_position_with_the_safety_of_an_edit() {
    let sb = Sandbox::new(Some(&streaming()));
    let before = std::fs::read(sb.offsets()).unwrap();
    // Dropping the stream and sink positions skips data: refused, naming it.
    let err = fails_with(&sb.run(&["offsets", "reset"]), 2, "CDC-7006");
    assert!(
        err.contains("the stream position (commit SCN 1000040) is removed"),
        "{err}"
    );
    assert_eq!(std::fs::read(sb.offsets()).unwrap(), before);
    let out = sb.ok(&["offsets", "reset", "--dry-run"]);
    assert!(
        text(&out.stdout).contains("- stream"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(std::fs::read(sb.offsets()).unwrap(), before);
    sb.ok(&["offsets", "reset", "--force"]);
    let o = sb.json();
    assert_eq!(o["database"]["dbid"], 4242, "the database is kept");
    assert!(
        o.get("stream").is_none() && o.get("snapshot").is_none(),
        "{o}"
    );
    let old: serde_json::Value = serde_json::from_slice(&before).unwrap();
    assert!(old.get("sink").is_some());
    assert_eq!(
        o["sink"], old["sink"],
        "the sink position is kept: delivered records stay and the next start's follow them"
    );
    assert_eq!(sb.backups().len(), 1);
    assert_eq!(std::fs::read(&sb.backups()[0]).unwrap(), before);
    // Undo: apply the backup (bringing a sink position back is weighed too: --force).
    let backup = sb.backups()[0].clone();
    sb.ok(&[
        "offsets",
        "edit",
        "apply",
        backup.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(sb.json()["stream"]["commit_scn"], 1000040);
    // Refused while a capture holds the state directory.
    let lock = oracle_cdc::state::StateDir::new(&sb.state())
        .lock()
        .unwrap();
    fails_with(&sb.run(&["offsets", "reset", "--force"]), 1, "CDC-7004");
    drop(lock);
}
