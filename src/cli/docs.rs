//! Generated documentation: shell completions, man pages and the settings reference, all from
//! the clap definitions and the settings key table. `tests/all/generated_docs.rs` keeps the committed
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
        Shell::Bash => out = bash_hooks(&fix_bash_names(&out, bin), &command(bin), bin),
        Shell::Fish => {
            out = fish_hooks(
                &fix_fish_depth(&out, &command(bin), bin),
                &command(bin),
                bin,
            )
        }
        Shell::Zsh => out = zsh_hooks(&out, &command(bin), bin),
        _ => {}
    }
    out
}

/// What `--set` completes to: every fixed key as `key=` and every per-table key's prefix as
/// `prefix.`, from the one key table, so a new key completes once the scripts are generated
/// again (`tests/all/generated_docs.rs` keeps the committed ones equal).
pub fn set_completions() -> Vec<String> {
    KEYS.iter()
        .map(|k| format!("{}{}", k.key, if k.per_table { '.' } else { '=' }))
        .collect()
}

/// The (sub)command paths below `root` with an argument that takes table names
/// ([`super::complete::TABLE_ARGS`]), and whether one of those is positional.
fn table_commands(root: &clap::Command) -> Vec<(Vec<String>, bool)> {
    fn walk(cmd: &clap::Command, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, bool)>) {
        let tables: Vec<&clap::Arg> = cmd
            .get_arguments()
            .filter(|a| super::complete::TABLE_ARGS.contains(&a.get_id().as_str()))
            .collect();
        if !tables.is_empty() {
            out.push((path.clone(), tables.iter().any(|a| a.is_positional())));
        }
        for sub in cmd.get_subcommands() {
            path.push(sub.get_name().to_string());
            walk(sub, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(root, &mut Vec::new(), &mut out);
    out
}

/// bash: `--set` completes the setting keys (no space after `key=`), and in every command that
/// takes table names, a word that is no option asks `oracle-cdc __complete tables` first
/// (which answers only where a table goes; see `cli::complete`).
fn bash_hooks(script: &[u8], root: &clap::Command, bin: &str) -> Vec<u8> {
    let mut text = String::from_utf8_lossy(script).to_string();
    let f = format!("_{}", bin.replace('-', "_"));
    let files = "COMPREPLY=($(compgen -f \"${cur}\"))";
    text = text.replace(
        &format!("--set)\n                    {files}"),
        &format!("--set)\n                    {f}_set_keys"),
    );
    // Where the database does not answer, a table option offers nothing rather than files.
    for id in super::complete::TABLE_ARGS {
        text = text.replace(
            &format!("--{id})\n                    {files}"),
            &format!("--{id})\n                    COMPREPLY=()"),
        );
    }
    for (path, _) in table_commands(root) {
        let label: String = std::iter::once(bin.replace('-', "__"))
            .chain(
                path.iter()
                    .map(|p| format!("__subcmd__{}", p.replace('-', "__subcmd__"))),
            )
            .collect();
        let head = format!("        {label})\n            opts=\"");
        if let Some(at) = text.find(&head) {
            let eol = at + text[at..].find("\"\n").unwrap_or(0) + 2;
            text.insert_str(
                eol,
                &format!("            if [[ ${{cur}} != -* ]] && {f}_tables; then\n                return 0\n            fi\n"),
            );
        }
    }
    let helpers = format!(
        "# Added by oracle-cdc (src/cli/docs.rs): the setting keys after --set, and table names,\n\
# which only the database knows, from the binary (it prints nothing where no table goes).\n\
{f}_set_keys() {{\n    local keys=(\n        {keys}\n    )\n    COMPREPLY=($(compgen -W \"${{keys[*]}}\" -- \"${{cur}}\"))\n    compopt -o nospace 2>/dev/null\n}}\n\
{f}_tables() {{\n    local IFS=$'\\n'\n    COMPREPLY=($(\"${{COMP_WORDS[0]}}\" {hook} tables \"${{COMP_LINE:0:COMP_POINT}}\" 2>/dev/null))\n    [[ ${{#COMPREPLY[@]}} -gt 0 ]]\n}}\n",
        keys = set_completions().join("\n        "),
        hook = super::complete::HOOK,
    );
    // After clap's script, so it still starts with its function (commands/completions.md shows it).
    format!("{text}\n{helpers}").into_bytes()
}

/// fish: `--set` completes the setting keys; table arguments ask the binary (as in bash).
fn fish_hooks(script: &[u8], root: &clap::Command, bin: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(script);
    let f = format!("__fish_{}", bin.replace('-', "_"));
    let table_longs: Vec<String> = super::complete::TABLE_ARGS
        .iter()
        .map(|id| format!(" -l {id} -d "))
        .collect();
    // clap_complete's `needs_command` returned false when argparse failed, and it fails on a
    // global option still waiting for its value: `oracle-cdc --set <TAB>` offered nothing.
    // No command is on the line yet then.
    let text = text.replace(
        "    or return\n    if set -q argv[1]",
        "    or return 0\n    if set -q argv[1]",
    );
    let mut out = String::new();
    for line in text.lines() {
        out.push_str(line);
        if line.starts_with("complete ") && line.ends_with(" -r") {
            if line.contains(" -l set -d ") {
                out.push_str(&format!(" -f -a \"({f}_set_keys)\""));
            } else if table_longs.iter().any(|l| line.contains(l.as_str())) {
                out.push_str(&format!(" -f -a \"({f}_tables)\""));
            }
        }
        out.push('\n');
    }
    let using = format!("{f}_using_subcommand");
    for (path, positional) in table_commands(root) {
        let Some((first, rest)) = path.split_first() else {
            continue;
        };
        if !positional {
            continue;
        }
        let mut cond = format!("{using} {first}");
        for p in rest {
            cond.push_str(&format!("; and __fish_seen_subcommand_from {p}"));
        }
        out.push_str(&format!(
            "complete -c {bin} -n \"{cond}\" -f -a \"({f}_tables)\"\n"
        ));
    }
    out.push_str(&format!(
        "# Added by oracle-cdc (src/cli/docs.rs): the setting keys after --set, and table names,\n\
# which only the database knows, from the binary (it prints nothing where no table goes).\n\
function {f}_set_keys\n    printf '%s\\n' \\\n        {keys}\nend\n\
function {f}_tables\n    set -l bin (commandline -opc)[1]\n    $bin {hook} tables (commandline -cp) 2>/dev/null\nend\n",
        keys = set_completions().join(" \\\n        "),
        hook = super::complete::HOOK,
    ));
    out.into_bytes()
}

/// zsh: `--set` completes the setting keys; table arguments ask the binary (as in bash).
fn zsh_hooks(script: &[u8], root: &clap::Command, bin: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(script);
    let f = format!("_{bin}");
    let mut table_specs: Vec<String> = Vec::new();
    let mut cmd = root.clone();
    cmd.build();
    for (path, _) in table_commands(&cmd) {
        let mut node = &cmd;
        for p in &path {
            match node.find_subcommand(p) {
                Some(sub) => node = sub,
                None => break,
            }
        }
        for arg in node
            .get_arguments()
            .filter(|a| super::complete::TABLE_ARGS.contains(&a.get_id().as_str()))
        {
            match arg.get_long() {
                Some(long) => {
                    table_specs.push(format!("'--{long}=["));
                    table_specs.push(format!("'*--{long}=["));
                }
                None => {
                    table_specs.push(format!("':{} -- ", arg.get_id()));
                    table_specs.push(format!("'::{} -- ", arg.get_id()));
                }
            }
        }
    }
    let mut out = String::new();
    for line in text.lines() {
        let mut line = line.replace(":KEY=VALUE:_default'", &format!(":KEY=VALUE:{f}_set_keys'"));
        if table_specs.iter().any(|s| line.starts_with(s.as_str())) {
            line = line.replace(":_default' \\", &format!(":{f}_tables' \\"));
        }
        out.push_str(&line);
        out.push('\n');
    }
    let helpers = format!(
        "# Added by oracle-cdc (src/cli/docs.rs): the setting keys after --set, and table names,\n\
# which only the database knows, from the binary (it prints nothing where no table goes).\n\
(( $+functions[{f}_set_keys] )) ||\n{f}_set_keys() {{\n    local -a keys\n    keys=(\n        {keys}\n    )\n    [[ $PREFIX == *=* ]] && return 1\n    compadd -S '' -a keys\n}}\n\
(( $+functions[{f}_tables] )) ||\n{f}_tables() {{\n    local -a line tables\n    line=(${{(Q)${{(z)LBUFFER}}}})\n    tables=(${{(f)\"$(${{line[1]}} {hook} tables \"$LBUFFER\" 2>/dev/null)\"}})\n    compadd -a tables\n}}\n\n",
        keys = set_completions().join("\n        "),
        hook = super::complete::HOOK,
    );
    let tail = format!("if [ \"$funcstack[1]\" = \"{f}\" ]; then");
    match out.rfind(&tail) {
        Some(at) => out.insert_str(at, &helpers),
        None => out.push_str(&helpers),
    }
    out.into_bytes()
}

/// clap_complete's fish script stops at two levels of subcommands (its generator says so, and
/// clap issue #5975 is still open): `offsets edit set-scn --<TAB>` offered `edit`'s options and
/// its commands again, never `--skip-xid`. For every command with subcommands two levels down,
/// its lines are made to stop once one of its subcommands is on the line, and each
/// subcommand's own options are added under the full chain of commands. `tests/all/completions.rs`
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
/// it is). `tests/all/completions.rs` completes in a real bash.
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
<!-- Generated from crates/cdc-engine/src/settings/keys.rs by `OVERWRITE_GENERATED=1 cargo test --test all generated_docs::`; do not edit. -->\n\n\
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
