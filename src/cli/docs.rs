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
    out
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
    let mut out = Vec::new();
    let page_cmd = cmd.clone().name(name.to_string());
    clap_mangen::Man::new(page_cmd).render(&mut out)?;
    pages.insert(format!("{name}.1"), out);
    for sub in cmd.get_subcommands() {
        add_pages(sub, &format!("{name}-{}", sub.get_name()), pages)?;
    }
    Ok(())
}

/// `commands/settings.md`: every key with its type, default and meaning.
pub fn settings_reference() -> String {
    let mut s = String::from(
        "# Settings reference\n\n\
<!-- Generated from src/settings/keys.rs by `OVERWRITE_GENERATED=1 cargo test --test generated_docs`; do not edit. -->\n\n\
Settings are `cdc.*` keys in a YAML file (`--config FILE`; flat keys such as `cdc.snapshot.chunk.rows: 1000`, \
or nested maps, which are flattened), overridden by `ORACLE_CDC_*` environment variables, overridden by \
`--set KEY=VALUE`. `oracle-cdc --print-settings` validates them and prints the effective values with their origin. \
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
