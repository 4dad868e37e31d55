//! Topic names are the consumers' contract: the naming chosen at the first start is kept
//! (issue 36, item 2), and changing it is an explicit operator edit.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use serde_json::Value as Json;
use std::process::{Command, Output};

const SCHEMA: &str = r#"
seed: 8
database:
  multitenant: true
tables:
  - name: PDB1.HR.EMP
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(20) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 12
  - name: PDB2.SALES.ORDERS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: ITEM, type: VARCHAR2(20) }
    primary_key: [ID]
    supplemental_logging: all
    rows: 9
"#;

/// `--set` pairs for a capture of `e` with `extra` settings.
fn settings(e: &Emulated, extra: &[&str]) -> Vec<String> {
    [
        format!("cdc.database.url=emulator:{}", e.db.display()),
        format!("cdc.state.dir={}", e.state.display()),
        format!("cdc.sink.dir={}", e.out.display()),
    ]
    .into_iter()
    .chain(extra.iter().map(|s| s.to_string()))
    .flat_map(|s| ["--set".to_string(), s])
    .collect()
}

fn cli(args: Vec<String>) -> Output {
    Command::new(cargo_bin("oracle-cdc"))
        .args(&args)
        .output()
        .unwrap()
}

fn capture(e: &Emulated, extra: &[&str]) -> Output {
    let scn = current_scn(&e.db).to_string();
    let mut args = settings(e, extra);
    args.extend(["-q", "capture", "--stop-at-scn", &scn].map(String::from));
    cli(args)
}

fn edit(e: &Emulated, extra: &[&str], op: &[&str]) -> Output {
    let mut args = settings(e, extra);
    args.extend(["-q", "offsets", "edit"].map(String::from));
    args.extend(op.iter().map(|s| s.to_string()));
    cli(args)
}

fn ok(o: &Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn topics(recs: &[Json]) -> std::collections::BTreeSet<String> {
    recs.iter()
        .filter_map(|r| r["topic"].as_str().map(str::to_string))
        .collect()
}

fn changes(e: &Emulated, seed: &str) {
    run(&[
        "emulator",
        "workload",
        e.db.to_str().unwrap(),
        "--transactions",
        "20",
        "--rate",
        "0",
        "--long-every",
        "0",
        "--seed",
        seed,
    ]);
}

#[test]
fn the_first_starts_topics_are_kept_until_the_operator_moves_them() {
    let e = emulated(SCHEMA);
    ok(&capture(&e, &["cdc.tables.include=PDB1.*.*"]));
    let first = records(&e.out);
    assert_eq!(
        topics(&first),
        ["oracle-cdc.HR.EMP".to_string()].into(),
        "one PDB: Debezium's naming"
    );
    // PDB2 joins the include list: `auto` used to move PDB1's table to oracle-cdc.PDB1.HR.EMP
    // without a word. The naming of the first start is kept.
    changes(&e, "1");
    ok(&capture(&e, &["cdc.tables.include=PDB1.*.*,PDB2.*.*"]));
    let now = records(&e.out);
    let new = &now[first.len()..];
    assert!(new.iter().any(|r| r["topic"] == "oracle-cdc.HR.EMP"));
    assert!(
        topics(new).iter().all(|t| !t.contains("PDB")),
        "{:?}",
        topics(new)
    );
    // Asking for the PDB in topics explicitly is refused: it would move every table.
    let both = [
        "cdc.tables.include=PDB1.*.*,PDB2.*.*",
        "cdc.topic.include.pdb=true",
    ];
    let before = std::fs::read(e.state.join("offsets.json")).unwrap();
    let r = capture(&e, &both);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(
        err.contains("CDC-7013") && err.contains("set-topic-naming"),
        "{err}"
    );
    assert_eq!(records(&e.out).len(), now.len(), "nothing published");
    assert_eq!(std::fs::read(e.state.join("offsets.json")).unwrap(), before);
    // `auto` cannot say which naming is meant: the edit asks.
    let r = edit(
        &e,
        &["cdc.tables.include=PDB1.*.*,PDB2.*.*"],
        &["set-topic-naming"],
    );
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("CDC-7008"),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    // The operator's move: the edit, then the new topics.
    ok(&edit(&e, &both, &["set-topic-naming"]));
    changes(&e, "2");
    ok(&capture(&e, &both));
    let moved = records(&e.out);
    let new = &moved[now.len()..];
    assert!(
        new.iter().any(|r| r["topic"] == "oracle-cdc.PDB1.HR.EMP"),
        "{:?}",
        topics(new)
    );
    assert!(
        topics(new).iter().all(|t| t.starts_with("oracle-cdc.PDB")),
        "{:?}",
        topics(new)
    );
}
