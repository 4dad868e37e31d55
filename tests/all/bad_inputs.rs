//! The bad-input corpus (issue 21's reliability probe, kept as a test): every case runs the
//! real binary on one bad input — a setting, a settings file, a planted link or FIFO, a
//! directory another user controls, hand-edited offsets, a bad signal, a bad table name, an
//! emulator schema beyond its limits — and asserts its exit code, its CDC code (the message
//! starts with it), that nothing panicked, and that nothing was written or lost: every file of
//! the case's directory is byte for byte what it was (only `ops.jsonl` may grow, and a lock
//! file — `capture.lock`, `export.lock`, `writer.lock` — hold a new pid or be removed with its
//! holder), and no other file appeared.
//!
//! docs/reliability.md counts the cases by group; `CDC_BAD_INPUTS_LIST=1` prints them.

use assert_cmd::cargo::cargo_bin;
use oracle_cdc::errors::Code;
use oracle_cdc::settings::keys::{Kind, KEYS};
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const SCHEMA: &str = "seed: 3
tables:
  - name: APP.T
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(30) }
    primary_key: [ID]
    rows: 20
";

/// A captured state to copy into every case: the database, a state directory after one
/// capture run (snapshot done, streaming), and the sink's output.
struct Base {
    _dir: tempfile::TempDir,
    root: PathBuf,
    scn: u64,
}

fn base() -> &'static Base {
    static BASE: OnceLock<Base> = OnceLock::new();
    BASE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("case");
        std::fs::create_dir(&root).unwrap();
        std::fs::write(root.join("schema.yaml"), SCHEMA).unwrap();
        let ok = |args: &[String]| {
            let out = Command::new(cargo_bin("oracle-cdc"))
                .args(args)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            out
        };
        let r = root.to_str().unwrap();
        ok(&[
            "emulator",
            "init",
            &format!("{r}/db"),
            "--schema",
            &format!("{r}/schema.yaml"),
        ]
        .map(String::from));
        let status =
            ok(&["emulator", "status", &format!("{r}/db"), "--format", "json"].map(String::from));
        let scn = serde_json::from_slice::<Json>(&status.stdout).unwrap()["current_scn"]
            .as_u64()
            .unwrap();
        let mut args = settings(&root);
        args.extend(["capture", "--stop-at-scn", &scn.to_string()].map(String::from));
        ok(&args);
        Base {
            _dir: dir,
            root,
            scn,
        }
    })
}

fn settings(root: &Path) -> Vec<String> {
    let r = root.display();
    [
        format!("cdc.database.url=emulator:{r}/db"),
        format!("cdc.state.dir={r}/state"),
        format!("cdc.sink.dir={r}/out"),
        "cdc.snapshot.chunk.rows=7".into(),
        "cdc.stream.poll.ms=20".into(),
    ]
    .into_iter()
    .flat_map(|s| ["--set".to_string(), s])
    .collect()
}

/// The command line of a case, given its directory.
type ArgsOf = dyn Fn(&Path) -> Vec<String>;

/// One case: what to do to a copy of the base, the command, the code it must fail with.
struct Case {
    group: &'static str,
    name: String,
    setup: Box<dyn Fn(&Path)>,
    args: Box<ArgsOf>,
    env: Vec<(String, String)>,
    code: &'static str,
    /// Text that must not appear in the output (a secret).
    hidden: Option<String>,
    /// Needs root (hands a directory to another user).
    root_only: bool,
}

fn case(
    group: &'static str,
    name: impl Into<String>,
    code: &'static str,
    setup: impl Fn(&Path) + 'static,
    args: impl Fn(&Path) -> Vec<String> + 'static,
) -> Case {
    Case {
        group,
        name: name.into(),
        setup: Box::new(setup),
        args: Box::new(args),
        env: Vec::new(),
        code,
        hidden: None,
        root_only: false,
    }
}

fn with_settings(root: &Path, tail: &[&str]) -> Vec<String> {
    let mut a = settings(root);
    a.extend(tail.iter().map(|s| s.to_string()));
    a
}

fn capture(root: &Path) -> Vec<String> {
    with_settings(root, &["capture", "--stop-at-scn", &base().scn.to_string()])
}

fn print_settings(extra: Vec<String>) -> impl Fn(&Path) -> Vec<String> {
    move |_| {
        let mut a = extra.clone();
        a.push("--print-settings".into());
        a
    }
}

fn set(kv: String) -> Vec<String> {
    vec!["--set".into(), kv]
}

fn nothing(_: &Path) {}

fn offsets_path(root: &Path) -> PathBuf {
    root.join("state/offsets.json")
}

/// Edit the stored offsets JSON.
fn edit_offsets(f: impl Fn(&mut Json) + 'static) -> impl Fn(&Path) + 'static {
    move |root| {
        let p = offsets_path(root);
        let mut v: Json = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
        f(&mut v);
        std::fs::write(&p, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    }
}

fn outside(root: &Path) -> PathBuf {
    root.join("outside")
}

/// A precious file outside every oracle-cdc directory, and a link to it at `at`.
fn plant_link(at: &'static str) -> impl Fn(&Path) {
    move |root| {
        std::fs::create_dir_all(outside(root)).unwrap();
        let target = outside(root).join("precious");
        std::fs::write(&target, b"precious").unwrap();
        let link = root.join(at);
        if link.is_dir() {
            std::fs::remove_dir_all(&link).unwrap();
        } else if std::fs::symlink_metadata(&link).is_ok() {
            std::fs::remove_file(&link).unwrap();
        }
        symlink(&target, &link).unwrap();
    }
}

/// A directory elsewhere with files in it, and a link to it at `at` (in place of a directory).
fn plant_dir_link(at: &'static str) -> impl Fn(&Path) {
    move |root| {
        let target = outside(root).join("dir");
        std::fs::create_dir_all(&target).unwrap();
        std::fs::write(target.join("tx-1-x.spill"), b"keep").unwrap();
        std::fs::write(target.join("segment-000009.jsonl"), b"keep\n").unwrap();
        let link = root.join(at);
        if link.is_dir() {
            std::fs::remove_dir_all(&link).unwrap();
        }
        if let Some(p) = link.parent() {
            std::fs::create_dir_all(p).unwrap();
        }
        symlink(&target, &link).unwrap();
    }
}

fn plant_fifo(at: &'static str) -> impl Fn(&Path) {
    move |root| {
        let p = root.join(at);
        let _ = std::fs::remove_file(&p);
        let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    }
}

fn chmod(at: &'static str, mode: u32) -> impl Fn(&Path) {
    move |root| {
        let p = root.join(at);
        std::fs::create_dir_all(&p).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }
}

/// The settings cases: every key with a value of the wrong kind.
fn settings_cases(out: &mut Vec<Case>) {
    for spec in KEYS.iter().filter(|k| !k.per_table) {
        let bad: Vec<String> = match spec.kind {
            Kind::Enum(_) => vec!["definitely-not-a-choice".into(), String::new()],
            Kind::UInt { max, .. } => {
                let mut v = vec!["twelve".into(), "-1".into(), "1.5".into()];
                if max < u64::MAX {
                    v.push((max as u128 + 1).to_string());
                }
                v
            }
            Kind::Text | Kind::Path | Kind::Condition if spec.key != "cdc.database.url" => {
                vec![String::new()]
            }
            _ => Vec::new(),
        };
        for value in bad {
            let kv = format!("{}={value}", spec.key);
            out.push(case(
                "settings: a value of the wrong kind (--set)",
                format!("--set {kv}"),
                "CDC-1002",
                nothing,
                print_settings(set(kv)),
            ));
        }
    }
    for typo in [
        "cdc.snapshot.chunk.row",
        "cdc.snapshto.mode",
        "cdc.state.dirr",
        "snapshot.mode",
        "cdc.",
        "cdc.sink.type.x",
        "CDC.SNAPSHOT.MODE",
    ] {
        out.push(case(
            "settings: unknown keys",
            format!("--set {typo}=1"),
            "CDC-1001",
            nothing,
            print_settings(set(format!("{typo}=1"))),
        ));
    }
    for var in [
        "ORACLE_CDC_SNAPSHOT_MODEE",
        "ORACLE_CDC_X",
        "ORACLE_CDC_STATE",
    ] {
        // The shell may hold other ORACLE_CDC_* variables (a secret kept as ORACLE_CDC_PW):
        // without --strict they are a warning (tests/all/ux_cli.rs), with it bad input refused.
        let mut c = case(
            "settings: unknown keys",
            format!("environment {var} with --strict"),
            "CDC-1001",
            nothing,
            print_settings(vec!["--strict".into()]),
        );
        c.env.push((var.into(), "1".into()));
        out.push(c);
    }
    let file = |name: &'static str, text: String, code: &'static str| {
        case(
            "settings: settings files",
            name,
            code,
            move |root| std::fs::write(root.join("bad.yaml"), &text).unwrap(),
            |root| {
                vec![
                    "-c".into(),
                    root.join("bad.yaml").display().to_string(),
                    "--print-settings".into(),
                ]
            },
        )
    };
    out.push(file(
        "not YAML",
        "cdc.snapshot.mode: [initial\n".into(),
        "CDC-1003",
    ));
    out.push(file("a list at the top", "- a\n- b\n".into(), "CDC-1003"));
    out.push(file("a scalar at the top", "hello\n".into(), "CDC-1003"));
    out.push(file(
        "a tab",
        "cdc:\n\tsnapshot.mode: none\n".into(),
        "CDC-1003",
    ));
    out.push(file(
        "a list for a scalar",
        "cdc.snapshot.threads: [1, 2]\n".into(),
        "CDC-1002",
    ));
    out.push(file(
        "given twice",
        "cdc.snapshot.threads: 1\ncdc:\n  snapshot.threads: 2\n".into(),
        "CDC-1002",
    ));
    out.push(file(
        "nested 200 maps deep",
        (0..200)
            .map(|i| format!("{}k{i}:\n", "  ".repeat(i)))
            .collect(),
        "CDC-1009",
    ));
    out.push(file(
        "200 KB of nested flow lists",
        format!(
            "cdc.tables.include: {}{}\n",
            "[".repeat(100_000),
            "]".repeat(100_000)
        ),
        "CDC-1009",
    ));
    out.push(file(
        "200 lists in lists",
        format!("cdc.tables.include:\n{}x\n", "- ".repeat(200)),
        "CDC-1009",
    ));
    out.push(case(
        "settings: settings files",
        "a missing file",
        "CDC-1004",
        nothing,
        |root| {
            vec![
                "-c".into(),
                root.join("none.yaml").display().to_string(),
                "--print-settings".into(),
            ]
        },
    ));
    // Sizes (in a file: one argument may hold 128 KiB at most).
    for (name, len) in [("1 MiB + 1", (1usize << 20) + 1), ("3 MiB", 3 << 20)] {
        out.push(file(
            Box::leak(format!("a value of {name}").into_boxed_str()),
            format!("cdc.sink.topic.prefix: {}\n", "x".repeat(len)),
            "CDC-1008",
        ));
    }
    // Secrets: the value never appears in the message.
    let secret = |name: &'static str, args: Vec<String>, code: &'static str, hidden: &str| {
        let mut c = case(
            "settings: secrets never echoed",
            name,
            code,
            nothing,
            print_settings(args),
        );
        c.hidden = Some(hidden.into());
        c
    };
    out.push(secret(
        "--set without =",
        vec!["--set".into(), "cdc.database.password hunter2secret".into()],
        "CDC-1006",
        "hunter2secret",
    ));
    out.push(secret(
        "--set with a colon",
        vec!["--set".into(), "cdc.database.password:hunter2secret".into()],
        "CDC-1006",
        "hunter2secret",
    ));
    out.push(secret(
        "mining password without =",
        vec![
            "--set".into(),
            "cdc.mining.database.password hunter2secret".into(),
        ],
        "CDC-1006",
        "hunter2secret",
    ));
    for key in ["cdc.database.password", "cdc.mining.database.password"] {
        out.push(Case {
            setup: Box::new(move |root| {
                std::fs::write(
                    root.join("s.yaml"),
                    format!("{key}: [hunter2a, hunter2b]\n"),
                )
                .unwrap()
            }),
            args: Box::new(|root| {
                vec![
                    "-c".into(),
                    root.join("s.yaml").display().to_string(),
                    "--print-settings".into(),
                ]
            }),
            ..secret("a list for a secret", Vec::new(), "CDC-1002", "hunter2")
        });
    }
    // A broker item pasted with credentials in it: refused when it is no host:port, and
    // redacted in every retry's warning and in the error a Kafka sink that cannot reach it
    // ends in.
    out.push(secret(
        "Kafka broker user:password@host without a port",
        [
            set("cdc.sink.type=kafka".into()),
            set("cdc.sink.kafka.brokers=user:hunter2kafka@kafka.example".into()),
        ]
        .concat(),
        "CDC-6201",
        "hunter2kafka",
    ));
    out.push(Case {
        args: Box::new(|root| {
            let mut a = capture(root);
            let tail = a.split_off(a.len() - 3);
            for kv in [
                "cdc.sink.type=kafka",
                "cdc.sink.kafka.brokers=user:hunter2kafka@127.0.0.1:1",
                "cdc.sink.kafka.producer.delivery.timeout.ms=300",
                "cdc.sink.kafka.producer.retry.backoff.ms=20",
            ] {
                a.extend(set(kv.into()));
            }
            a.extend(tail);
            a
        }),
        ..secret(
            "Kafka broker user:password@host:port unreachable (retry warnings)",
            Vec::new(),
            "CDC-6202",
            "hunter2kafka",
        )
    });
    out.push(case(
        "settings: secrets never echoed",
        "an unset ${env:} secret",
        "CDC-1005",
        nothing,
        print_settings(set(
            "cdc.database.password=${env:ORACLE_CDC_TEST_NOT_SET_EVER}".into(),
        )),
    ));
}

fn path_cases(out: &mut Vec<Case>) {
    let g = "state and sink paths: links, FIFOs, other users' directories";
    for at in [
        "state/capture.lock",
        "state/ops.jsonl",
        "out/segment-000001.jsonl",
    ] {
        out.push(case(
            g,
            format!("{at} is a link"),
            "CDC-6301",
            plant_link(at),
            capture,
        ));
    }
    for at in ["state/spill", "out", "state"] {
        out.push(case(
            g,
            format!("{at} is a link to a directory"),
            "CDC-6301",
            plant_dir_link(at),
            capture,
        ));
    }
    out.push(case(
        g,
        "signals/processed is a link (signal send)",
        "CDC-6301",
        plant_dir_link("state/signals/processed"),
        |root| with_settings(root, &["signal", "send", "pause-snapshot"]),
    ));
    out.push(case(
        g,
        "signals is a link (signal send)",
        "CDC-6301",
        plant_dir_link("state/signals"),
        |root| with_settings(root, &["signal", "send", "pause-snapshot"]),
    ));
    for at in ["state/capture.lock", "state/ops.jsonl"] {
        out.push(case(
            g,
            format!("{at} is a FIFO"),
            "CDC-6304",
            plant_fifo(at),
            capture,
        ));
    }
    out.push(case(
        g,
        "the spill directory is a file",
        "CDC-6304",
        |root| {
            let p = root.join("state/spill");
            let _ = std::fs::remove_dir_all(&p);
            std::fs::write(p, b"x").unwrap();
        },
        capture,
    ));
    for (at, mode) in [
        ("state", 0o777),
        ("state", 0o770),
        ("state", 0o722),
        ("out", 0o777),
        ("out", 0o775),
    ] {
        out.push(case(
            g,
            format!("{at} has mode {mode:o}"),
            "CDC-6303",
            chmod(at, mode),
            capture,
        ));
    }
    for at in ["state", "out"] {
        let mut c = case(
            g,
            format!("{at} belongs to another user"),
            "CDC-6302",
            move |root| std::os::unix::fs::chown(root.join(at), Some(54321), Some(54321)).unwrap(),
            capture,
        );
        c.root_only = true;
        out.push(c);
    }
    // Exports.
    let export = |root: &Path| {
        with_settings(
            root,
            &[
                "snapshot",
                "--out",
                &root.join("export").display().to_string(),
            ],
        )
    };
    out.push(case(
        g,
        "snapshot --out is a link",
        "CDC-6301",
        plant_dir_link("export"),
        export,
    ));
    out.push(case(
        g,
        "snapshot --out has mode 777",
        "CDC-6303",
        chmod("export", 0o777),
        export,
    ));
    out.push(case(
        g,
        "snapshot --out's export file is a link",
        "CDC-6301",
        |root| {
            std::fs::create_dir_all(root.join("export")).unwrap();
            std::fs::set_permissions(root.join("export"), std::fs::Permissions::from_mode(0o700))
                .unwrap();
            plant_link("export/APP.T.jsonl")(root)
        },
        export,
    ));
    // The emulator's own files.
    out.push(case(
        g,
        "the emulator's writer.lock is a link",
        "CDC-6301",
        plant_link("db/writer.lock"),
        |root| {
            vec![
                "emulator".into(),
                "workload".into(),
                root.join("db").display().to_string(),
                "--transactions".into(),
                "1".into(),
            ]
        },
    ));
    out.push(case(
        g,
        "the emulator's redo is a link",
        "CDC-6301",
        |root| {
            std::fs::create_dir_all(outside(root)).unwrap();
            std::fs::copy(root.join("db/redo.log"), outside(root).join("redo")).unwrap();
            std::fs::remove_file(root.join("db/redo.log")).unwrap();
            symlink(outside(root).join("redo"), root.join("db/redo.log")).unwrap();
        },
        |root| {
            vec![
                "emulator".into(),
                "workload".into(),
                root.join("db").display().to_string(),
                "--transactions".into(),
                "1".into(),
            ]
        },
    ));
}

fn offsets_cases(out: &mut Vec<Case>) {
    let g = "hand-edited offsets (capture refuses them before publishing)";
    let far = base().scn + 1_000_000;
    out.push(case(
        g,
        "commit_scn past the current SCN",
        "CDC-7009",
        edit_offsets(move |v| v["stream"]["commit_scn"] = json!(far)),
        capture,
    ));
    out.push(case(
        g,
        "resume_scn past the current SCN",
        "CDC-7009",
        edit_offsets(move |v| {
            v["stream"]["resume_scn"] = json!(far);
            v["stream"]["commit_scn"] = json!(far)
        }),
        capture,
    ));
    for x in [
        "zz",
        "0A00",
        "0A001B00C301000G",
        "",
        "0A001B00C3010000 ",
        "../../etc",
    ] {
        out.push(case(
            g,
            format!("commit_xids [{x:?}]"),
            "CDC-7012",
            edit_offsets(move |v| v["stream"]["commit_xids"] = json!([x])),
            capture,
        ));
    }
    for t in ["NOPE.NOPE", "APP.\"t\"", "PDB9.APP.T", "APP.T2"] {
        out.push(case(
            g,
            format!("a signal snapshot of unknown table {t}"),
            "CDC-7011",
            edit_offsets(move |v| {
                v["signals"] = json!([{"id": "s1", "kind": "incremental", "tables": [t]}])
            }),
            capture,
        ));
        out.push(case(
            g,
            format!("snapshot progress of unknown table {t}"),
            "CDC-7011",
            edit_offsets(move |v| {
                v["snapshot"]["tables"][t] =
                    json!({"state": "done", "strategy": "key", "chunks": 0, "rows": 0});
                v["snapshot"]["order"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!(t));
            }),
            capture,
        ));
    }
    for t in ["NOPE", "A..B", "\"unterminated"] {
        out.push(case(
            g,
            format!("a table name that is none: {t}"),
            "CDC-7011",
            edit_offsets(move |v| {
                v["signals"] = json!([{"id": "s1", "kind": "incremental", "tables": [t]}])
            }),
            capture,
        ));
    }
    for cut in [1u64, 2, 5, 9] {
        out.push(case(
            g,
            format!("sink.bytes {cut} before a record's end"),
            "CDC-7010",
            edit_offsets(move |v| {
                let b = v["sink"]["bytes"].as_u64().unwrap();
                v["sink"]["bytes"] = json!(b - cut);
            }),
            capture,
        ));
    }
    out.push(case(
        g,
        "sink.bytes past the segment's end",
        "CDC-7002",
        edit_offsets(|v| {
            let b = v["sink"]["bytes"].as_u64().unwrap();
            v["sink"]["bytes"] = json!(b + 100)
        }),
        capture,
    ));
    for seg in ["../../x", "segment-1.json", "segment-000001.jsonl/x", ""] {
        out.push(case(
            g,
            format!("sink.segment {seg:?}"),
            "CDC-7002",
            edit_offsets(move |v| v["sink"]["segment"] = json!(seg)),
            capture,
        ));
    }
    out.push(case(
        g,
        "another DBID",
        "CDC-7001",
        edit_offsets(|v| v["database"]["dbid"] = json!(1)),
        capture,
    ));
    out.push(case(
        g,
        "another incarnation",
        "CDC-7001",
        edit_offsets(|v| v["database"]["incarnation"] = json!(7)),
        capture,
    ));
    out.push(case(
        g,
        "a newer format",
        "CDC-7003",
        edit_offsets(|v| v["format"] = json!(9)),
        capture,
    ));
    out.push(case(
        g,
        "format 0",
        "CDC-7002",
        edit_offsets(|v| v["format"] = json!(0)),
        capture,
    ));
    out.push(case(
        g,
        "a string for a number",
        "CDC-7002",
        edit_offsets(|v| v["stream"]["commit_scn"] = json!("12")),
        capture,
    ));
    out.push(case(
        g,
        "a negative SCN",
        "CDC-7002",
        edit_offsets(|v| v["stream"]["commit_scn"] = json!(-1)),
        capture,
    ));
    out.push(case(
        g,
        "an unknown table state",
        "CDC-7002",
        edit_offsets(|v| v["snapshot"]["tables"]["APP.T"]["state"] = json!("finished")),
        capture,
    ));
    for keep in [0usize, 1, 10, 50, 100, 200] {
        out.push(case(
            g,
            format!("cut after {keep} bytes"),
            "CDC-7002",
            move |root| {
                let p = offsets_path(root);
                let text = std::fs::read(&p).unwrap();
                std::fs::write(&p, &text[..keep.min(text.len() - 3)]).unwrap();
            },
            capture,
        ));
    }
    out.push(case(
        g,
        "not UTF-8",
        "CDC-7002",
        |root| std::fs::write(offsets_path(root), b"{\xff\xfe}").unwrap(),
        capture,
    ));
    out.push(case(
        g,
        "a JSON list",
        "CDC-7002",
        |root| std::fs::write(offsets_path(root), b"[1, 2]").unwrap(),
        capture,
    ));

    let g = "offsets edit";
    let edit = |tail: &'static [&'static str]| {
        move |root: &Path| {
            let mut a = with_settings(root, &["offsets", "edit"]);
            a.extend(tail.iter().map(|s| s.to_string()));
            a
        }
    };
    for (name, tail, code) in [
        (
            "reset-table of a table the database lacks",
            &["reset-table", "NOPE.NOPE"][..],
            "CDC-7008",
        ),
        (
            "reset-table of a name that is none",
            &["reset-table", "A..B"][..],
            "CDC-7008",
        ),
        (
            "mark-done of an unknown table",
            &["mark-done", "NOPE.NOPE"][..],
            "CDC-7008",
        ),
        (
            "forget-table of an unknown table",
            &["forget-table", "NOPE.NOPE"][..],
            "CDC-7008",
        ),
        (
            "drop-signal of an unknown id",
            &["drop-signal", "nope"][..],
            "CDC-7008",
        ),
        ("set-scn 0", &["set-scn", "0"][..], "CDC-7008"),
        (
            "set-scn with a bad --skip-xid",
            &["set-scn", "5", "--skip-xid", "zz"][..],
            "CDC-7008",
        ),
        (
            "set-scn past the current SCN",
            &["set-scn", "999999999"][..],
            "CDC-7007",
        ),
        (
            "set-sink inside a record",
            &["set-sink", "3"][..],
            "CDC-7008",
        ),
        (
            "set-sink past the segment",
            &["set-sink", "99999999"][..],
            "CDC-7008",
        ),
        (
            "set-sink of a bad segment name",
            &["set-sink", "0", "--segment", "x.jsonl"][..],
            "CDC-7008",
        ),
        (
            "an operation and --interactive",
            &["--interactive", "set-scn", "5"][..],
            "CDC-1006",
        ),
    ] {
        out.push(case(g, name, code, nothing, edit(tail)));
    }

    // `offsets edit apply` is held to what capture's start checks, --force or not.
    let apply = |root: &Path| {
        with_settings(
            root,
            &[
                "offsets",
                "edit",
                "apply",
                root.join("edited.json").to_str().unwrap(),
                "--force",
            ],
        )
    };
    let edited = |f: fn(&mut Json)| {
        move |root: &Path| {
            let mut v: Json =
                serde_json::from_slice(&std::fs::read(offsets_path(root)).unwrap()).unwrap();
            f(&mut v);
            std::fs::write(root.join("edited.json"), serde_json::to_vec(&v).unwrap()).unwrap();
        }
    };
    fn signal_doc(id: String, tables: Vec<String>) -> Json {
        json!([{ "id": id, "kind": "incremental", "tables": tables }])
    }
    type EditDoc = fn(&mut Json);
    let cases: [(&str, &str, EditDoc); 4] = [
        (
            "apply: a signal for 10,000 tables the database lacks",
            "CDC-7011",
            |v| {
                v["signals"] = signal_doc(
                    "s1".into(),
                    (0..10_000).map(|i| format!("NOPE.T{i}")).collect(),
                )
            },
        ),
        ("apply: a 100 KB signal id", "CDC-7008", |v| {
            v["signals"] = signal_doc("x".repeat(100_000), vec!["APP.T".into()])
        }),
        (
            "apply: a stream position past the current SCN, --force",
            "CDC-7009",
            |v| {
                v["stream"]["commit_scn"] = json!(999_999_999_u64);
                v["stream"]["resume_scn"] = json!(999_999_999_u64);
            },
        ),
        (
            "apply: a signal filter signal checking refuses",
            "CDC-7008",
            |v| {
                let mut s = signal_doc("s2".into(), vec!["APP.T".into()]);
                s[0]["filters"] = json!({ "APP.T": "1 = 1; DROP TABLE APP.T" });
                v["signals"] = s;
            },
        ),
    ];
    for (name, code, f) in cases {
        out.push(case(g, name, code, edited(f), apply));
    }
}

fn signal_cases(out: &mut Vec<Case>) {
    let g = "signals";
    let send = |tail: Vec<&'static str>| {
        move |root: &Path| {
            let mut a = with_settings(root, &["signal", "send"]);
            a.extend(tail.iter().map(|s| s.to_string()));
            a
        }
    };
    for (name, tail, code) in [
        (
            "a filter on an unknown column",
            vec![
                "execute-snapshot",
                "--tables",
                "APP.T",
                "--filter",
                "APP.T=NOPE = 1",
            ],
            "CDC-8107",
        ),
        (
            "a filter with a syntax error",
            vec![
                "execute-snapshot",
                "--tables",
                "APP.T",
                "--filter",
                "APP.T=ID = = 1",
            ],
            "CDC-8107",
        ),
        (
            "a filter with an unknown function",
            vec![
                "execute-snapshot",
                "--tables",
                "APP.T",
                "--filter",
                "APP.T=NOPE_FN(ID) = 1",
            ],
            "CDC-8107",
        ),
        (
            "a filter that is a column only",
            vec![
                "execute-snapshot",
                "--tables",
                "APP.T",
                "--filter",
                "APP.T=ID",
            ],
            "CDC-8107",
        ),
        (
            "a filter that breaks out of its parentheses",
            vec![
                "execute-snapshot",
                "--tables",
                "APP.T",
                "--filter",
                "APP.T=1 = 1) OR (1 = 1",
            ],
            "CDC-8101",
        ),
        (
            "a filter that ends the statement",
            vec![
                "execute-snapshot",
                "--tables",
                "APP.T",
                "--filter",
                "APP.T=ID = 1; DROP TABLE X",
            ],
            "CDC-8101",
        ),
        (
            "a filter with a comment",
            vec![
                "execute-snapshot",
                "--tables",
                "APP.T",
                "--filter",
                "APP.T=ID = 1 -- x",
            ],
            "CDC-8101",
        ),
        (
            "a filter with an open quote",
            vec![
                "execute-snapshot",
                "--tables",
                "APP.T",
                "--filter",
                "APP.T=NAME = 'x",
            ],
            "CDC-8101",
        ),
        (
            "a filter with a bind",
            vec![
                "execute-snapshot",
                "--tables",
                "APP.T",
                "--filter",
                "APP.T=ID = :x",
            ],
            "CDC-8101",
        ),
        (
            "an empty filter",
            vec![
                "execute-snapshot",
                "--tables",
                "APP.T",
                "--filter",
                "APP.T=",
            ],
            "CDC-8101",
        ),
        (
            "a filter without a table",
            vec![
                "execute-snapshot",
                "--tables",
                "APP.T",
                "--filter",
                "ID = 1",
            ],
            "CDC-8101",
        ),
        (
            "a filter for another table",
            vec![
                "execute-snapshot",
                "--tables",
                "APP.T",
                "--filter",
                "APP.U=ID = 1",
            ],
            "CDC-8101",
        ),
        (
            "two filters for one table",
            vec![
                "execute-snapshot",
                "--tables",
                "APP.T",
                "--filter",
                "APP.T=ID = 1",
                "--filter",
                "APP.T=ID = 2",
            ],
            "CDC-8101",
        ),
        (
            "an unknown table",
            vec!["execute-snapshot", "--tables", "APP.NOPE"],
            "CDC-8102",
        ),
        ("no tables", vec!["execute-snapshot"], "CDC-8101"),
        (
            "a table name that is none",
            vec!["execute-snapshot", "--tables", "A..B"],
            "CDC-8101",
        ),
        (
            "an id too long",
            vec![
                "pause-snapshot",
                "--id",
                "x123456789x123456789x123456789x123456789xyz",
            ],
            "CDC-8101",
        ),
        (
            "an id with a slash",
            vec!["pause-snapshot", "--id", "../../etc/x"],
            "CDC-8101",
        ),
        (
            "an id with a dot first",
            vec!["pause-snapshot", "--id", ".hidden"],
            "CDC-8101",
        ),
        (
            "an id with a space",
            vec!["pause-snapshot", "--id", "a b"],
            "CDC-8101",
        ),
        (
            "tables for pause",
            vec!["pause-snapshot", "--tables", "APP.T"],
            "CDC-8101",
        ),
        (
            "a filter for stop",
            vec!["stop-snapshot", "--filter", "APP.T=ID = 1"],
            "CDC-8101",
        ),
        (
            "rows per second for pause",
            vec!["pause-snapshot", "--rows-per-second", "5"],
            "CDC-8101",
        ),
        (
            "set-throttle without a rate",
            vec!["set-throttle"],
            "CDC-8101",
        ),
        (
            "the source channel, not enabled",
            vec!["pause-snapshot", "--channel", "source"],
            "CDC-8105",
        ),
    ] {
        out.push(case(g, name, code, nothing, send(tail)));
    }
    out.push(case(
        g,
        "an id already used",
        "CDC-8103",
        edit_offsets(|v| {
            v["signal_history"] =
                json!([{"id": "used", "type": "pause-snapshot", "outcome": "applied", "ts_ms": 1}])
        }),
        send(vec!["pause-snapshot", "--id", "used"]),
    ));
    out.push(case(
        g,
        "no state directory",
        "CDC-8104",
        |root| std::fs::remove_dir_all(root.join("state")).unwrap(),
        send(vec!["pause-snapshot"]),
    ));
}

fn name_and_argument_cases(out: &mut Vec<Case>) {
    let g = "table names and arguments";
    for t in [
        "EMP",
        "A..B",
        "A.B.C.D",
        "\"unterminated.T",
        "A.\"B\"C",
        ".A.B",
        "A.B.",
    ] {
        out.push(case(
            g,
            format!("snapshot --tables {t}"),
            "CDC-1006",
            nothing,
            move |root| {
                with_settings(
                    root,
                    &[
                        "snapshot",
                        "--tables",
                        t,
                        "--out",
                        &root.join("export").display().to_string(),
                    ],
                )
            },
        ));
    }
    out.push(case(
        g,
        "snapshot of a table the database lacks",
        "CDC-4005",
        nothing,
        |root| {
            with_settings(
                root,
                &[
                    "snapshot",
                    "--tables",
                    "APP.NOPE",
                    "--out",
                    &root.join("export").display().to_string(),
                ],
            )
        },
    ));
    for code in ["CDC-99999", "nope", "CDC-"] {
        out.push(case(
            g,
            format!("explain {code}"),
            "CDC-1007",
            nothing,
            move |_| vec!["explain".into(), code.into()],
        ));
    }
    out.push(case(
        g,
        "a database URL with ?service= twice",
        "CDC-2007",
        nothing,
        |root| {
            let url = format!(
                "cdc.database.url=emulator:{}/db?service=PDB1&service=PDB2",
                root.display()
            );
            // After the base settings: the last --set of a key wins.
            with_settings(
                root,
                &[
                    "--set",
                    &url,
                    "capture",
                    "--stop-at-scn",
                    &base().scn.to_string(),
                ],
            )
        },
    ));
    out.push(case(
        g,
        "a mining URL to a directory that does not exist",
        "CDC-4001",
        nothing,
        |root| {
            let url = format!(
                "cdc.mining.database.url=emulator:{}/no-such-db",
                root.display()
            );
            with_settings(
                root,
                &[
                    "--set",
                    &url,
                    "capture",
                    "--stop-at-scn",
                    &base().scn.to_string(),
                ],
            )
        },
    ));
    for pct in [
        "--rollback-pct",
        "--savepoint-pct",
        "--key-update-pct",
        "--row-move-pct",
        "--shared-commit-pct",
    ] {
        out.push(case(
            g,
            format!("emulator workload {pct} 150"),
            "CDC-1006",
            nothing,
            move |root| {
                vec![
                    "emulator".into(),
                    "workload".into(),
                    root.join("db").display().to_string(),
                    "--transactions".into(),
                    "5".into(),
                    pct.into(),
                    "150".into(),
                ]
            },
        ));
    }
    for pattern in ["EMP", "A.B.C.D", "[", "A.{B"] {
        out.push(case(
            g,
            format!("cdc.tables.include={pattern}"),
            "CDC-1002",
            nothing,
            print_settings(set(format!("cdc.tables.include={pattern}"))),
        ));
    }
}

fn emulator_cases(out: &mut Vec<Case>) {
    let g = "emulator schemas";
    let table = |extra: &str| {
        format!("tables:\n  - name: APP.T\n    columns:\n      - {{ name: ID, type: NUMBER(10), nullable: false }}\n    primary_key: [ID]\n{extra}")
    };
    let init = |name: String, text: String, code: &'static str| {
        case(
            g,
            name,
            code,
            move |root| std::fs::write(root.join("big.yaml"), &text).unwrap(),
            |root| {
                vec![
                    "emulator".into(),
                    "init".into(),
                    root.join("db2").display().to_string(),
                    "--schema".into(),
                    root.join("big.yaml").display().to_string(),
                ]
            },
        )
    };
    for rows in ["100000001", "1000000000000", "18446744073709551615"] {
        out.push(init(
            format!("rows: {rows}"),
            table(&format!("    rows: {rows}\n")),
            "CDC-4007",
        ));
    }
    out.push(init("rows: -1".into(), table("    rows: -1\n"), "CDC-4002"));
    out.push(init(
        "rows: many".into(),
        table("    rows: many\n"),
        "CDC-4002",
    ));
    out.push(init(
        "1001 columns".into(),
        format!(
            "tables:\n  - name: APP.T\n    columns:\n{}",
            (0..1001)
                .map(|i| format!("      - {{ name: C{i}, type: NUMBER(10) }}\n"))
                .collect::<String>()
        ),
        "CDC-4007",
    ));
    out.push(init(
        "log_size 10^12".into(),
        format!("database:\n  log_size: 1000000000000\n{}", table("")),
        "CDC-4007",
    ));
    out.push(init(
        "no columns".into(),
        "tables:\n  - name: APP.T\n    columns: []\n".into(),
        "CDC-4002",
    ));
    out.push(init(
        "a table name that is none".into(),
        "tables:\n  - name: T\n    columns:\n      - { name: ID, type: NUMBER }\n".into(),
        "CDC-4002",
    ));
    out.push(init(
        "a table declared twice".into(),
        format!("{}{}", table(""), table("").replace("tables:\n", "")),
        "CDC-4002",
    ));
    out.push(init(
        "an unknown type".into(),
        "tables:\n  - name: APP.T\n    columns:\n      - { name: ID, type: NOPE(3) }\n".into(),
        "CDC-4002",
    ));
    for ty in ["VARCHAR2(0)", "CHAR(0 CHAR)", "RAW(0)"] {
        out.push(init(
            format!("a {ty} column (ORA-01723)"),
            format!("tables:\n  - name: APP.T\n    columns:\n      - {{ name: ID, type: NUMBER(10), nullable: false }}\n      - {{ name: C, type: \"{ty}\" }}\n    primary_key: [ID]\n"),
            "CDC-4002",
        ));
    }
    out.push(init("not YAML".into(), "tables: [\n".into(), "CDC-4002"));
    out.push(case(
        g,
        "init into a directory that holds files",
        "CDC-1006",
        nothing,
        |root| {
            vec![
                "emulator".into(),
                "init".into(),
                root.join("db").display().to_string(),
                "--schema".into(),
                root.join("schema.yaml").display().to_string(),
            ]
        },
    ));
}

/// One byte of a stored value in the emulator's checkpoint changed (a letter of a NAME turned
/// into the next letter, so the rows still decode); returns the value as it now reads.
fn damage_checkpoint_value(root: &Path) -> String {
    let path = root.join("db/checkpoint.dat");
    let mut bytes = std::fs::read(&path).unwrap();
    let line = bytes.split(|b| *b == b'\n').nth(1).unwrap();
    let line = std::str::from_utf8(line).unwrap();
    let header: Json = serde_json::from_str(line.split(" crc32c=").next().unwrap()).unwrap();
    let body = header["body_start"].as_u64().unwrap() as usize;
    let word = body
        + bytes[body..]
            .windows(4)
            .position(|w| w.iter().all(u8::is_ascii_lowercase))
            .unwrap();
    bytes[word] = if bytes[word] == b'z' {
        b'a'
    } else {
        bytes[word] + 1
    };
    std::fs::write(&path, &bytes).unwrap();
    let end = word
        + bytes[word..]
            .iter()
            .take_while(|b| b.is_ascii_lowercase() || **b == b' ')
            .count();
    String::from_utf8(bytes[word..end].to_vec()).unwrap()
}

/// One letter of a stored value in the emulator's redo changed: a NAME in the first of the
/// load's compact insert lines (`I\t…`), so the record still parses.
fn damage_redo_value(root: &Path) {
    let path = root.join("db/redo.log");
    let mut bytes = std::fs::read(&path).unwrap();
    let insert = bytes.windows(3).position(|w| w == b"\nI\t").unwrap() + 1;
    let word = insert
        + bytes[insert..]
            .windows(4)
            .position(|w| w.iter().all(u8::is_ascii_lowercase))
            .unwrap();
    assert!(!bytes[insert..word].contains(&b'\n'));
    bytes[word] = if bytes[word] == b'z' {
        b'a'
    } else {
        bytes[word] + 1
    };
    std::fs::write(&path, &bytes).unwrap();
}

fn checkpoint_cases(out: &mut Vec<Case>) {
    out.push(case(
        "emulator checkpoint",
        "a byte of a stored value in the redo changed: emulator dump",
        "CDC-4004",
        damage_redo_value,
        |root| {
            vec![
                "emulator".into(),
                "dump".into(),
                root.join("db").display().to_string(),
                "--table".into(),
                "APP.T".into(),
            ]
        },
    ));
    out.push(case(
        "emulator checkpoint",
        "a byte of a stored value changed: emulator dump",
        "CDC-4004",
        |root| {
            damage_checkpoint_value(root);
        },
        |root| {
            vec![
                "emulator".into(),
                "dump".into(),
                root.join("db").display().to_string(),
                "--table".into(),
                "APP.T".into(),
            ]
        },
    ));
}

#[test]
fn a_damaged_checkpoint_value_stops_a_snapshot_with_cdc_4004_and_publishes_none_of_it() {
    let base = base();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("case");
    let cp = Command::new("cp")
        .arg("-a")
        .arg(&base.root)
        .arg(&root)
        .status()
        .unwrap();
    assert!(cp.success());
    let altered = damage_checkpoint_value(&root);
    let db_before = tree(&root.join("db"));
    // A first capture (a fresh state and sink): its snapshot reads the checkpoint's rows.
    let r = root.display();
    let out = Command::new(cargo_bin("oracle-cdc"))
        .args(
            [
                format!("cdc.database.url=emulator:{r}/db"),
                format!("cdc.state.dir={r}/state2"),
                format!("cdc.sink.dir={r}/out2"),
                "cdc.snapshot.chunk.rows=7".into(),
            ]
            .into_iter()
            .flat_map(|s| ["--set".to_string(), s]),
        )
        .args(["capture", "--stop-at-scn", &base.scn.to_string()])
        .env_remove("ORACLE_CDC_LOG")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("CDC-4004: "), "{stderr}");
    assert!(
        stderr.contains("checkpoint.dat") && stderr.contains("APP.T"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    let published: Vec<u8> = tree(&root.join("out2"))
        .into_iter()
        .filter(|(p, _)| p.to_string_lossy().contains("segment-"))
        .flat_map(|(_, (bytes, _))| bytes)
        .collect();
    let published = String::from_utf8_lossy(&published);
    assert!(
        !published.contains(&altered),
        "published {altered:?}: {published}"
    );
    // Nothing of the database changed or lost.
    same(&db_before, &tree(&root.join("db"))).unwrap();
}

const REPLAY_SCHEMA: &str = "tables:
  - name: APP.T
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(30) }
    primary_key: [ID]
";

/// A replay export of one transaction inserting `id` into APP.T, committing at SCN 103 with
/// `commit_scn` as its COMMIT_SCN.
fn replay_export(id: &str, commit_scn: u64) -> String {
    format!(
        r#""SCN","START_SCN","COMMIT_SCN","XID","OPERATION_CODE","SEG_OWNER","TABLE_NAME","ROW_ID","SQL_REDO"
101,,,"0200030004000000",6,,,"AAAAAAAAAAAAAAAAAA","set transaction read write;"
102,,,"0200030004000000",1,"APP","T","AAAR0oAAEAAAACAAAA","insert into ""APP"".""T""(""ID"",""NAME"") values ('{id}','x');"
103,101,{commit_scn},"0200030004000000",7,,,"AAAAAAAAAAAAAAAAAA","commit;"
"#
    )
}

fn write_replay(root: &Path, export: &str) {
    let dir = root.join("replay");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("schema.yaml"), REPLAY_SCHEMA).unwrap();
    std::fs::write(dir.join("logmnr.csv"), export).unwrap();
}

/// Capture on `root/replay` into a state and sink of its own.
fn replay_capture(root: &Path) -> Vec<String> {
    let r = root.display();
    [
        format!("cdc.database.url=replay:{r}/replay"),
        format!("cdc.state.dir={r}/replay-state"),
        format!("cdc.sink.dir={r}/replay-out"),
        "cdc.snapshot.mode=none".into(),
    ]
    .into_iter()
    .flat_map(|s| ["--set".to_string(), s])
    .chain(["capture".into(), "--stop-at-scn".into(), "103".into()])
    .collect()
}

fn replay_cases(out: &mut Vec<Case>) {
    out.push(case(
        "replay exports",
        "a COMMIT whose COMMIT_SCN is below its own SCN",
        "CDC-6002",
        |root| write_replay(root, &replay_export("1", 102)),
        replay_capture,
    ));
}

#[test]
fn a_replayed_number_that_does_not_fit_its_column_is_cdc_3002_and_never_published() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    // The same export with a key that fits is published: the case below fails on the value.
    for (id, fits) in [("7", true), ("1E999999", false), ("12345678901", false)] {
        let _ = std::fs::remove_dir_all(root.join("replay-state"));
        let _ = std::fs::remove_dir_all(root.join("replay-out"));
        write_replay(&root, &replay_export(id, 103));
        let replay_before = tree(&root.join("replay"));
        let out = Command::new(cargo_bin("oracle-cdc"))
            .args(replay_capture(&root))
            .env_remove("ORACLE_CDC_LOG")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let published: String = tree(&root.join("replay-out"))
            .into_iter()
            .filter(|(p, _)| p.to_string_lossy().contains("segment-"))
            .map(|(_, (bytes, _))| String::from_utf8(bytes).unwrap())
            .collect();
        same(&replay_before, &tree(&root.join("replay"))).unwrap();
        assert!(!stderr.contains("panicked"), "{stderr}");
        if fits {
            assert!(out.status.success(), "{stderr}");
            assert!(published.contains(r#""ID":7"#), "{published}");
            continue;
        }
        assert_eq!(out.status.code(), Some(1), "{id}: {stderr}");
        assert!(stderr.starts_with("CDC-3002: "), "{id}: {stderr}");
        for part in ["SCN 102", "0200030004000000", "APP.T", "column ID", id] {
            assert!(stderr.contains(part), "{id}: {part} missing: {stderr}");
        }
        assert!(!published.contains(id), "{id} published: {published}");
    }
}

/// Kafka broker items that are no `host:port` (issue 36 item 10): refused when capture starts,
/// with CDC-6201 naming the item, before anything is opened (an unclosed `[::1` used to pass
/// and capture waited for it forever); a password in one is never shown.
fn kafka_broker_cases(out: &mut Vec<Case>) {
    let items: [(&str, &str); 10] = [
        ("an IPv6 address with its bracket unclosed", "[::1"),
        ("a bracketed IPv6 address without a port", "[::1]"),
        (
            "a bracketed IPv6 address with the port glued on",
            "[::1]9092",
        ),
        ("brackets around no IPv6 address", "[kafka]:9092"),
        ("an IPv6 address without brackets", "::1:9092"),
        ("an empty host", ":9092"),
        ("port 0", "kafka:0"),
        ("port 65536", "kafka:65536"),
        ("an empty port", "kafka:"),
        ("a space in the host", "kaf ka:9092"),
    ];
    for (name, item) in items {
        out.push(case(
            "settings: Kafka broker addresses",
            name,
            "CDC-6201",
            nothing,
            move |root| {
                let mut a = capture(root);
                let tail = a.split_off(a.len() - 3);
                a.extend(set("cdc.sink.type=kafka".into()));
                a.extend(set(format!("cdc.sink.kafka.brokers=kafka:9092,{item}")));
                a.extend(tail);
                a
            },
        ));
    }
    let mut c = case(
        "settings: secrets never echoed",
        "Kafka broker user:password@[::1 (bracket unclosed)",
        "CDC-6201",
        nothing,
        |root| {
            let mut a = capture(root);
            let tail = a.split_off(a.len() - 3);
            a.extend(set("cdc.sink.type=kafka".into()));
            a.extend(set("cdc.sink.kafka.brokers=user:hunter2kafka@[::1".into()));
            a.extend(tail);
            a
        },
    );
    c.hidden = Some("hunter2kafka".into());
    out.push(c);
}

fn all_cases() -> Vec<Case> {
    let mut out = Vec::new();
    settings_cases(&mut out);
    kafka_broker_cases(&mut out);
    path_cases(&mut out);
    offsets_cases(&mut out);
    signal_cases(&mut out);
    name_and_argument_cases(&mut out);
    emulator_cases(&mut out);
    checkpoint_cases(&mut out);
    replay_cases(&mut out);
    out
}

/// Every file under `dir` (content, or a link's target) and its mode.
fn tree(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, u32)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            let rel = p.strip_prefix(dir).unwrap().to_path_buf();
            let mode = m.permissions().mode() & 0o7777;
            if m.file_type().is_symlink() {
                let t = std::fs::read_link(&p).unwrap();
                out.insert(rel, (t.as_os_str().as_encoded_bytes().to_vec(), 0));
            } else if m.is_dir() {
                out.insert(rel, (b"<dir>".to_vec(), mode));
                stack.push(p);
            } else if m.is_file() {
                out.insert(rel, (std::fs::read(&p).unwrap(), mode));
            } else {
                out.insert(rel, (b"<special>".to_vec(), mode));
            }
        }
    }
    out
}

/// A lock file holds the pid of its last holder.
fn is_lock(name: &str) -> bool {
    matches!(
        name,
        "capture.lock" | "export.lock" | "writer.lock" | ".sink.lock"
    )
}

/// What the run may change: the lock file's pid (or the file, gone with its holder), new lines at the end of the ops events, a
/// directory the refused command created empty.
fn same(
    before: &BTreeMap<PathBuf, (Vec<u8>, u32)>,
    after: &BTreeMap<PathBuf, (Vec<u8>, u32)>,
) -> Result<(), String> {
    for (p, (bytes, mode)) in before {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        match after.get(p) {
            // A lock its holder released is removed with it.
            None if is_lock(name) && !bytes.starts_with(b"<") => {}
            None => return Err(format!("{} was removed", p.display())),
            Some(_) if is_lock(name) && !bytes.starts_with(b"<") => {}
            Some((b, m))
                if name == "ops.jsonl" && *mode != 0 && (!b.starts_with(bytes) || m != mode) =>
            {
                return Err(format!("{} was rewritten, not appended to", p.display()));
            }
            Some(_) if name == "ops.jsonl" && *mode != 0 => {}
            Some((b, m)) if b != bytes || m != mode => {
                return Err(format!("{} changed (mode {mode:o} → {m:o})", p.display()))
            }
            _ => {}
        }
    }
    for (p, (bytes, _)) in after {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !before.contains_key(p) && bytes != b"<dir>" && !is_lock(name) {
            return Err(format!("{} was written", p.display()));
        }
    }
    Ok(())
}

#[test]
fn every_bad_input_is_refused_with_its_code_and_nothing_is_written_or_lost() {
    let base = base();
    let cases = all_cases();
    assert!(cases.len() >= 250, "the corpus has {} cases", cases.len());
    // SAFETY: geteuid has no preconditions.
    let root_user = unsafe { libc::geteuid() } == 0;
    let mut by_group: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for c in &cases {
        if c.root_only && !root_user {
            continue;
        }
        *by_group.entry(c.group).or_default() += 1;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("case");
        let cp = Command::new("cp")
            .arg("-a")
            .arg(&base.root)
            .arg(&root)
            .status()
            .unwrap();
        assert!(cp.success());
        (c.setup)(&root);
        let before = tree(dir.path());
        let args = (c.args)(&root);
        let mut cmd = Command::new(cargo_bin("oracle-cdc"));
        cmd.args(&args).env_remove("ORACLE_CDC_LOG");
        for (k, v) in &c.env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let info = Code::lookup(c.code)
            .unwrap_or_else(|| panic!("{}: no code {}", c.name, c.code))
            .info();
        let want_exit = i32::from(info.exit.code());
        let mut problems = Vec::new();
        if out.status.code() != Some(want_exit) {
            problems.push(format!(
                "exit {:?}, expected {want_exit}",
                out.status.code()
            ));
        }
        if !stderr.contains(&format!("{}: ", c.code)) {
            problems.push(format!("no {} in the message", c.code));
        }
        if stderr.contains("panicked") {
            problems.push("panicked".into());
        }
        if let Some(h) = &c.hidden {
            if stderr.contains(h.as_str()) || stdout.contains(h.as_str()) {
                problems.push("the secret is echoed".into());
            }
        }
        if let Err(e) = same(&before, &tree(dir.path())) {
            problems.push(e);
        }
        if std::env::var_os("CDC_BAD_INPUTS_LIST").is_some() {
            eprintln!("[{}] {} → {}", c.group, c.name, c.code);
        }
        if !problems.is_empty() {
            let short: String = stderr.chars().take(400).collect();
            failures.push(format!(
                "[{}] {}: {}\n    stderr: {short}",
                c.group,
                c.name,
                problems.join("; ")
            ));
        }
    }
    for (g, n) in &by_group {
        eprintln!("{n:4}  {g}");
    }
    eprintln!("{:4}  cases in all", by_group.values().sum::<usize>());
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
