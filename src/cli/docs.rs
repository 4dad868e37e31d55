//! Generated documentation: shell completions, man pages and the settings reference, all from
//! the clap definitions and the settings key table. `tests/generated_docs.rs` keeps the committed
//! copies in `completions/`, `man/` and `commands/settings.md` equal to what this produces.

use super::args::Cli;
use crate::settings::{Kind, KEYS};
use clap::CommandFactory;
use clap_complete::Shell;
use std::collections::BTreeMap;

/// The binaries that share the command definitions: `oracle-cdc` with every command, and
/// `oracle-cdc-doctor`, which is `oracle-cdc doctor` on its own.
pub const BINARIES: &[&str] = &["oracle-cdc", "oracle-cdc-doctor"];

/// The command tree of one binary.
pub fn command(bin: &str) -> clap::Command {
    match bin {
        "oracle-cdc-doctor" => super::doctor::DoctorCli::command(),
        _ => Cli::command(),
    }
}

/// Completion script for one shell and binary.
pub fn completion(shell: Shell, bin: &str) -> Vec<u8> {
    let mut cmd = command(bin);
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, bin, &mut out);
    match shell {
        Shell::Bash => out = fix_bash_names(&out, bin),
        Shell::Fish => out = fix_fish_depth(&out, &command(bin), bin),
        _ => {}
    }
    out
}

/// clap_complete's fish script stops at two levels of subcommands (its generator says so, and
/// clap issue #5975 is still open): `offsets edit set-scn --<TAB>` offered `edit`'s options and
/// its commands again, never `--skip-xid`. For every command with subcommands two levels down,
/// its lines are made to stop once one of its subcommands is on the line, and each
/// subcommand's own options are added under the full chain of commands. `tests/completions.rs`
/// completes in a real fish when one is installed.
fn fix_fish_depth(script: &[u8], root: &clap::Command, bin: &str) -> Vec<u8> {
    let mut text = String::from_utf8_lossy(script).to_string();
    let using = format!("__fish_{}_using_subcommand", bin.replace('-', "_"));
    if !text.contains(&using) {
        return script.to_vec();
    }
    let mut root = root.clone();
    root.build();
    let mut added = String::new();
    for first in root.get_subcommands() {
        for second in first.get_subcommands() {
            let children: Vec<&clap::Command> = second
                .get_subcommands()
                .filter(|c| c.get_name() != "help")
                .collect();
            if children.is_empty() {
                continue;
            }
            let names: Vec<&str> = children.iter().map(|c| c.get_name()).collect();
            let at_second = format!(
                "{using} {}; and __fish_seen_subcommand_from {}",
                first.get_name(),
                second.get_name()
            );
            text = text.replace(
                &format!("-n \"{at_second}\""),
                &format!(
                    "-n \"{at_second}; and not __fish_seen_subcommand_from {}\"",
                    names.join(" ")
                ),
            );
            for third in children {
                let cond = format!(
                    "{at_second}; and __fish_seen_subcommand_from {}",
                    third.get_name()
                );
                for arg in third.get_arguments().filter(|a| !a.is_hide_set()) {
                    if let Some(line) = fish_option(bin, &cond, arg) {
                        added.push_str(&line);
                        added.push('\n');
                    }
                }
            }
        }
    }
    text.push_str(&added);
    text.into_bytes()
}

/// One `complete` line for an option (positional arguments are left to fish's file names).
fn fish_option(bin: &str, cond: &str, arg: &clap::Arg) -> Option<String> {
    let long = arg.get_long();
    let short = arg.get_short();
    if long.is_none() && short.is_none() {
        return None;
    }
    let mut line = format!("complete -c {bin} -n \"{cond}\"");
    if let Some(s) = short {
        line.push_str(&format!(" -s {s}"));
    }
    if let Some(l) = long {
        line.push_str(&format!(" -l {l}"));
    }
    if let Some(help) = arg.get_help() {
        let help = help.to_string();
        let first = help.lines().next().unwrap_or_default();
        line.push_str(&format!(
            " -d '{}'",
            first.replace('\\', "\\\\").replace('\'', "\\'")
        ));
    }
    if arg.get_action().takes_values() {
        line.push_str(" -r");
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_string())
            .collect();
        if !values.is_empty() {
            line.push_str(&format!(" -f -a \"{}\"", values.join(" ")));
        } else if matches!(
            arg.get_value_hint(),
            clap::ValueHint::AnyPath | clap::ValueHint::FilePath | clap::ValueHint::DirPath
        ) {
            line.push_str(" -F");
        }
    }
    Some(line)
}

/// clap_complete's bash script names each subcommand's state after the binary twice over: the
/// loop that walks the words sets `cmd="oracle__cdc__subcmd__snapshot"` (`-` → `__`), while the
/// `case` that completes it is labelled `oracle__subcmd__cdc__subcmd__snapshot)` (`-` →
/// `__subcmd__`), so nothing after a subcommand ever matched and bash fell back to file names.
/// Relabel the `case` arms with the names the loop sets (a binary name without `-` is left as
/// it is). `tests/completions.rs` completes in a real bash.
fn fix_bash_names(script: &[u8], bin: &str) -> Vec<u8> {
    if !bin.contains('-') {
        return script.to_vec();
    }
    let text = String::from_utf8_lossy(script);
    let wrong = format!("{}__subcmd__", bin.replace('-', "__subcmd__"));
    let right = format!("{}__subcmd__", bin.replace('-', "__"));
    text.replace(&wrong, &right).into_bytes()
}

/// File name of a completion script, as the shells' conventions want it.
pub fn completion_file_name(shell: Shell, bin: &str) -> String {
    match shell {
        Shell::Bash => format!("{bin}.bash"),
        Shell::Zsh => format!("_{bin}"),
        Shell::Fish => format!("{bin}.fish"),
        Shell::PowerShell => format!("_{bin}.ps1"),
        Shell::Elvish => format!("{bin}.elv"),
        _ => format!("{bin}.{shell}"),
    }
}

pub const SHELLS: &[Shell] = &[
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::PowerShell,
    Shell::Elvish,
];

/// Every man page: file name → roff text. One page for each binary and one per (sub)command.
/// `oracle-cdc-doctor.1` documents both `oracle-cdc-doctor` and `oracle-cdc doctor`, which take
/// the same options: the binary's own page (generated last) is the one kept.
pub fn man_pages() -> std::io::Result<BTreeMap<String, Vec<u8>>> {
    let mut pages = BTreeMap::new();
    for bin in BINARIES {
        let mut root = command(bin);
        root.build();
        add_pages(&root, bin, &mut pages)?;
    }
    Ok(pages)
}

fn add_pages(
    cmd: &clap::Command,
    name: &str,
    pages: &mut BTreeMap<String, Vec<u8>>,
) -> std::io::Result<()> {
    add_pages_under(cmd, name, None, pages)
}

fn add_pages_under(
    cmd: &clap::Command,
    name: &str,
    parent: Option<(&str, &clap::Command)>,
    pages: &mut BTreeMap<String, Vec<u8>>,
) -> std::io::Result<()> {
    let page_cmd = cmd.clone().name(name.to_string());
    let man = clap_mangen::Man::new(page_cmd.clone());
    // clap_mangen's sections in its order, except its EXTRA (the after-help text, which here is
    // the exit codes): that becomes EXIT STATUS, followed by the sections man-pages(7) expects.
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    if page_cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut out)?;
    }
    if page_cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        man.render_subcommands_section(&mut out)?;
    }
    let after = cmd
        .get_after_long_help()
        .or(cmd.get_after_help())
        .map(|t| t.to_string());
    out.extend(exit_status_section(after.as_deref()).into_bytes());
    out.extend(environment_section(parent.is_none()).into_bytes());
    out.extend(files_section(name).into_bytes());
    out.extend(see_also_section(name, cmd, parent).into_bytes());
    if page_cmd.get_version().is_some() {
        man.render_version_section(&mut out)?;
    }
    pages.insert(format!("{name}.1"), out);
    for sub in cmd.get_subcommands() {
        add_pages_under(
            sub,
            &format!("{name}-{}", sub.get_name()),
            Some((name, cmd)),
            pages,
        )?;
    }
    Ok(())
}

/// Text for a roff page: backslashes and dashes escaped, no line starting with a control
/// character.
fn roff(text: &str) -> String {
    text.lines()
        .map(|l| {
            let l = l.replace('\\', "\\e").replace('-', "\\-");
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `.TP` items: a tag in bold, its text below.
fn items(list: &[(String, String)]) -> String {
    list.iter()
        .map(|(tag, text)| format!(".TP\n\\fB{}\\fR\n{}\n", roff(tag), roff(text)))
        .collect()
}

/// EXIT STATUS from the command's `Exit codes:` text (`  N  meaning` lines).
fn exit_status_section(after_help: Option<&str>) -> String {
    let text = after_help.unwrap_or(super::args::EXIT_CODES);
    let codes: Vec<(String, String)> = text
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let (n, rest) = l.split_once(char::is_whitespace)?;
            n.parse::<u8>().ok()?;
            Some((n.to_string(), rest.trim().to_string()))
        })
        .collect();
    format!(".SH \"EXIT STATUS\"\n{}", items(&codes))
}

/// ENVIRONMENT: every setting's ORACLE_CDC_* variable on the binaries' own pages; a pointer to
/// them on the commands' pages.
fn environment_section(root: bool) -> String {
    let mut s = String::from(".SH ENVIRONMENT\n");
    let general = [
        (
            "ORACLE_CDC_LOG".to_string(),
            "Log filter for stderr, in tracing's EnvFilter syntax (e.g. info, oracle_cdc=debug); overrides \
             -v and -q for the logs.".to_string(),
        ),
        (
            "NO_COLOR".to_string(),
            "When set and not empty, no colour with --color auto (tables and logs).".to_string(),
        ),
        (
            "VISUAL, EDITOR".to_string(),
            "The editor of offsets edit --interactive (default: vi).".to_string(),
        ),
    ];
    if root {
        s.push_str(&roff(
            "Every setting without a per-table suffix can be given as an environment variable: ORACLE_CDC_ and the key \
             without cdc., dots as underscores, in capitals. They override the settings file and are overridden by --set.",
        ));
        s.push('\n');
        let mut vars: Vec<(String, String)> = KEYS
            .iter()
            .filter_map(|k| k.env_var().map(|v| (v, format!("{} ", k.key))))
            .collect();
        vars.extend(general);
        s.push_str(&items(&vars));
    } else {
        s.push_str(&roff(
            "The settings' ORACLE_CDC_* variables (each listed in oracle-cdc(1) and commands/settings.md) override the \
             settings file and are overridden by --set.",
        ));
        s.push('\n');
        s.push_str(&items(&general));
    }
    s
}

/// FILES: what the command reads and writes, from the modules' own file-name constants.
fn files_section(page: &str) -> String {
    use crate::state;
    let state_dir = || {
        vec![
            (
                format!("STATE/{}", state::OFFSETS_FILE),
                "The stored offsets (cdc.state.dir, default ./state): stream position, snapshot progress, signals, sink and schema-history positions; commands/offsets.md describes the format. offsets edit writes offsets.json.bak-TIME backups beside it.".to_string(),
            ),
            (
                format!("STATE/{}", state::LOCK_FILE),
                "Held (locked, with the holder's pid) by a running capture and by offsets edit; removed when its holder exits cleanly.".to_string(),
            ),
            (
                format!("STATE/{}", state::OPS_FILE),
                "Operational events, one JSON object a line (capture states, chunks, signals, edits).".to_string(),
            ),
            (
                format!("STATE/{}/", crate::signal::spool::DIR),
                "The file channel's signal spool, read by a running capture.".to_string(),
            ),
            (
                format!("STATE/{}/", crate::capture::SPILL_DIR),
                "Large open transactions spilled to disk while streaming.".to_string(),
            ),
            (
                format!("STATE/{}", crate::capture::HISTORY_FILE),
                "The schema history (DDL seen while streaming).".to_string(),
            ),
            (
                "STATE/dlq.jsonl".to_string(),
                "Dead letters: changes that could not be decoded with cdc.on.decode.error=dlq.".to_string(),
            ),
        ]
    };
    let sink = || {
        vec![(
            "SINK/segment-NNNNNN.jsonl".to_string(),
            "The file sink's records (cdc.sink.dir), rotated by size; exactly once across restarts.".to_string(),
        )]
    };
    let export = || {
        vec![
            (
                "OUT/PDB.OWNER.TABLE.{jsonl,csv}, OUT/PDB.OWNER.TABLE.NNNNN.parquet".to_string(),
                "snapshot --out: one file (Parquet: files) per table.".to_string(),
            ),
            (
                format!("OUT/{}", crate::export::MANIFEST_FILE),
                "Every chunk's SCN, the row counts and the columns of the export.".to_string(),
            ),
            (
                format!(
                    "OUT/{}, OUT/{}",
                    crate::export::OFFSETS_FILE,
                    crate::export::OPS_FILE
                ),
                "The export's resume state and events (offsets inspect --dir OUT reads them)."
                    .to_string(),
            ),
            (
                format!("OUT/{}", state::EXPORT_LOCK_FILE),
                "Held (locked, with the holder's pid) by a running snapshot --out and by offsets edit; removed when its holder exits cleanly.".to_string(),
            ),
        ]
    };
    let emulator = || {
        use crate::source::emulator as e;
        vec![
            (
                format!("DIR/{}", e::SCHEMA_FILE),
                "An emulated database's schema (emulator init copies it there).".to_string(),
            ),
            (
                format!("DIR/{}", e::redo::REDO_FILE),
                "Its append-only redo: every change, commit and rollback with SCN and XID."
                    .to_string(),
            ),
            (
                format!("DIR/{}", e::writer::LOCK_FILE),
                "Held by the one writer (emulator init, emulator workload).".to_string(),
            ),
            (
                format!("DIR/{}", e::topology::TOPOLOGY_FILE),
                "A standby's or downstream's link to its primary (emulator create).".to_string(),
            ),
        ]
    };
    let rest = page.strip_prefix("oracle-cdc").unwrap_or(page);
    let mut list: Vec<(String, String)> = match rest {
        "" => [state_dir(), sink(), export(), emulator()].concat(),
        "-doctor" => state_dir().into_iter().take(1).collect(),
        r if r.starts_with("-capture") => [state_dir(), sink()].concat(),
        r if r.starts_with("-snapshot") => export(),
        r if r.starts_with("-offsets") => [state_dir(), sink(), export()].concat(),
        r if r.starts_with("-signal") => state_dir(),
        r if r.starts_with("-emulator") => emulator(),
        _ => Vec::new(),
    };
    if list.is_empty() {
        return String::new();
    }
    list.insert(
        0,
        (
            "SETTINGS.yaml".to_string(),
            "The settings file given with -c/--config: cdc.* keys (commands/settings.md)."
                .to_string(),
        ),
    );
    format!(".SH FILES\n{}", items(&list))
}

/// SEE ALSO: the parent command, the other commands beside this one, and the page's own commands.
fn see_also_section(
    name: &str,
    cmd: &clap::Command,
    parent: Option<(&str, &clap::Command)>,
) -> String {
    let mut refs: Vec<String> = Vec::new();
    if let Some((pname, p)) = parent {
        refs.push(pname.to_string());
        for sib in p.get_subcommands() {
            let sname = format!("{pname}-{}", sib.get_name());
            if sname != name {
                refs.push(sname);
            }
        }
    }
    for sub in cmd.get_subcommands() {
        refs.push(format!("{name}-{}", sub.get_name()));
    }
    match name {
        "oracle-cdc" => refs.push("oracle-cdc-doctor".into()),
        "oracle-cdc-doctor" => refs.push("oracle-cdc".into()),
        _ if parent.is_some_and(|(p, _)| p != "oracle-cdc") => refs.push("oracle-cdc".into()),
        _ => {}
    }
    refs.dedup();
    let list = refs
        .iter()
        .map(|r| format!("\\fB{}\\fR(1)", roff(r)))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        ".SH \"SEE ALSO\"\n{list}\n.PP\n{}\n",
        roff("The reference pages in commands/ (commands/README.md), the value encoding in commands/types.md, and `oracle-cdc explain CODE` for every CDC-NNNN code.")
    )
}

/// `commands/settings.md`: every key with its type, default and meaning.
pub fn settings_reference() -> String {
    let mut s = String::from(
        "# Settings reference\n\n\
<!-- Generated from src/settings/keys.rs by `OVERWRITE_GENERATED=1 cargo test --test generated_docs`; do not edit. -->\n\n\
Settings are `cdc.*` keys in a YAML file (`--config FILE`; flat keys such as `cdc.snapshot.chunk.rows: 1000`, \
or nested maps, which are flattened), overridden by `ORACLE_CDC_*` environment variables, overridden by \
`--set KEY=VALUE`. `oracle-cdc --print-settings` validates them and prints the effective values with their origin. \
A key the file or `--set` names that is no setting is an error (CDC-1001). An `ORACLE_CDC_*` variable that names \
no setting (the shell may keep other things under the prefix, such as a secret kept as `ORACLE_CDC_PW`) is ignored with a warning naming it, never its value; with the global flag `--strict` it is an error (CDC-1001) \
too. `ORACLE_CDC_LOG` and `ORACLE_CDC_TEST_*` are not settings and never warned about. \
Per-table keys end in `PDB.OWNER.TABLE` (or `OWNER.TABLE` outside multitenant) and are set in the file or with `--set`.\n\n\
| Key | Accepts | Default | Environment | Meaning |\n|---|---|---|---|---|\n",
    );
    for k in KEYS {
        let key = if k.per_table {
            format!("`{}.PDB.OWNER.TABLE`", k.key)
        } else {
            format!("`{}`", k.key)
        };
        let accepts = match k.kind {
            Kind::Enum(words) => words
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", "),
            other => other.describe(),
        };
        let default = k.default.map(|d| format!("`{d}`")).unwrap_or_default();
        let env = k.env_var().map(|e| format!("`{e}`")).unwrap_or_default();
        s.push_str(&format!(
            "| {key} | {} | {default} | {env} | {} |\n",
            accepts.replace('|', "\\|"),
            k.doc.replace('|', "\\|")
        ));
    }
    s
}
