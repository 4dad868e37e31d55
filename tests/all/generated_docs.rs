//! `completions/`, `man/` and `commands/settings.md` are generated from the clap definitions and
//! the settings key table. This test fails when a committed copy differs from what the code
//! generates; `OVERWRITE_GENERATED=1 cargo test --test all generated_docs::` rewrites them.

use oracle_cdc::cli::docs;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn expected() -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    for bin in docs::BINARIES {
        for shell in docs::SHELLS {
            files.insert(
                Path::new("completions").join(docs::completion_file_name(*shell, bin)),
                docs::completion(*shell, bin),
            );
        }
    }
    for (name, page) in docs::man_pages().unwrap() {
        files.insert(Path::new("man").join(name), page);
    }
    files.insert(
        Path::new("commands").join("settings.md"),
        docs::settings_reference().into_bytes(),
    );
    files
}

#[test]
fn generated_files_are_current() {
    let overwrite = std::env::var_os("OVERWRITE_GENERATED").is_some();
    let files = expected();
    let mut stale = Vec::new();
    for (rel, content) in &files {
        let path = root().join(rel);
        let current = std::fs::read(&path).ok();
        if current.as_deref() != Some(content.as_slice()) {
            if overwrite {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, content).unwrap();
            } else {
                stale.push(rel.display().to_string());
            }
        }
    }
    // Nothing left over from commands or shells that no longer exist.
    for dir in ["completions", "man"] {
        for entry in std::fs::read_dir(root().join(dir))
            .into_iter()
            .flatten()
            .flatten()
        {
            let rel = Path::new(dir).join(entry.file_name());
            if !files.contains_key(&rel) {
                if overwrite {
                    std::fs::remove_file(entry.path()).unwrap();
                } else {
                    stale.push(format!("{} (not generated any more)", rel.display()));
                }
            }
        }
    }
    assert!(
        stale.is_empty(),
        "generated files differ from the code: {stale:?}\nrun OVERWRITE_GENERATED=1 cargo test --test all generated_docs:: and commit"
    );
}

#[test]
fn every_command_has_a_man_page_and_help_with_an_example() {
    use clap::CommandFactory;
    let pages = docs::man_pages().unwrap();
    fn walk(cmd: &clap::Command, name: String, pages: &BTreeMap<String, Vec<u8>>) {
        assert!(
            pages.contains_key(&format!("{name}.1")),
            "no man page for {name}"
        );
        let help = cmd.clone().render_long_help().to_string();
        assert!(
            help.contains("Exit codes:"),
            "{name} --help has no exit codes"
        );
        if cmd.get_subcommands().next().is_none() {
            assert!(help.contains("Example"), "{name} --help has no example");
        }
        for sub in cmd.get_subcommands() {
            walk(sub, format!("{name}-{}", sub.get_name()), pages);
        }
    }
    let mut root = oracle_cdc::cli::args::Cli::command();
    root.build();
    walk(&root, "oracle-cdc".into(), &pages);
}

/// The sections of a man page (`.SH NAME` … in order).
fn sections(page: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(page)
        .lines()
        .filter_map(|l| l.strip_prefix(".SH "))
        .map(|s| s.trim_matches('"').to_string())
        .collect()
}

#[test]
fn man_pages_have_exit_status_environment_files_and_see_also() {
    let pages = docs::man_pages().unwrap();
    for (name, page) in &pages {
        let s = sections(page);
        for wanted in [
            "NAME",
            "SYNOPSIS",
            "DESCRIPTION",
            "EXIT STATUS",
            "ENVIRONMENT",
            "SEE ALSO",
        ] {
            assert!(
                s.iter().any(|x| x == wanted),
                "{name}: no {wanted} section in {s:?}"
            );
        }
        assert!(
            !s.iter().any(|x| x == "EXTRA"),
            "{name}: exit codes under EXTRA"
        );
        let text = String::from_utf8_lossy(page);
        // EXIT STATUS lists 0 and the usage error 2 on every page.
        let exit = text.split(".SH \"EXIT STATUS\"").nth(1).unwrap();
        let exit = &exit[..exit.find(".SH").unwrap()];
        assert!(
            exit.contains("\\fB0\\fR") && exit.contains("\\fB2\\fR"),
            "{name}: {exit}"
        );
    }
    // The binaries' own pages list every setting's environment variable, and the state layout.
    for root in ["oracle-cdc.1", "oracle-cdc-doctor.1"] {
        let text = String::from_utf8_lossy(&pages[root]).to_string();
        for k in oracle_cdc::settings::KEYS {
            if let Some(var) = k.env_var() {
                let roffed = var.replace('-', "\\-");
                assert!(
                    text.contains(&roffed),
                    "{root}: {var} missing from ENVIRONMENT"
                );
            }
        }
        assert!(text.contains("ORACLE_CDC_LOG"), "{root}");
        assert!(
            sections(&pages[root]).iter().any(|x| x == "FILES"),
            "{root}: no FILES"
        );
    }
    let root = String::from_utf8_lossy(&pages["oracle-cdc.1"]).to_string();
    for f in [
        "offsets.json",
        "capture.lock",
        "export.lock",
        "ops.jsonl",
        "manifest.json",
        "redo.log",
        "segment\\-NNNNNN.jsonl",
    ] {
        assert!(root.contains(f), "oracle-cdc.1 FILES lacks {f}");
    }
    // SEE ALSO names the parent and the siblings.
    let snapshot = String::from_utf8_lossy(&pages["oracle-cdc-snapshot.1"]).to_string();
    let see = snapshot.split(".SH \"SEE ALSO\"").nth(1).unwrap();
    assert!(see.contains("\\fBoracle\\-cdc\\fR(1)"), "{see}");
    assert!(see.contains("\\fBoracle\\-cdc\\-capture\\fR(1)"), "{see}");
}
