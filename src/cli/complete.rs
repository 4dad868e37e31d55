//! Completion of what only the database knows: table names. The committed scripts in
//! `completions/` complete commands, options and fixed values on their own; where a table name
//! goes (`--tables`, `emulator dump --table`, the TABLE of `offsets edit reset-table`) they run
//! `oracle-cdc __complete tables LINE`, LINE being the command line up to the cursor. This
//! module reads that line the way the command would: the global `-c/--config` and `--set` on
//! it and the `ORACLE_CDC_*` environment make the settings; an emulator command's DIR names its
//! database. It prints one table name a line that the word being completed could become, and
//! nothing when that word is no table (so the scripts may ask at any word and fall back).
//!
//! Why a hidden command rather than clap_complete's dynamic completion (`CompleteEnv`, feature
//! `unstable-dynamic`): that feature is outside clap_complete's semver promise, and it makes
//! every TAB a run of the binary, replacing the static scripts that are committed, packaged and
//! completed in real shells by `tests/all/completions.rs`. Here only a table position runs the
//! binary. `__complete` is matched before clap parses (see `cli::run`), so it is in no help,
//! man page or script as a command.
//!
//! A TAB must never show an error: every failure (settings, database, a listing slower than
//! [`LIST_TIMEOUT`]) prints nothing and exits 0, and logging is never set up on this path.

use crate::names::TableName;
use crate::settings::{LoadOptions, Settings};
use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

/// The hidden command's name: the first argument.
pub const HOOK: &str = "__complete";

/// How long a TAB waits for the database's catalog; a real database that does not answer in
/// this time gets no completion rather than a hung shell.
pub const LIMIT_SECS: u64 = 3;
const LIST_TIMEOUT: Duration = Duration::from_secs(LIMIT_SECS);

/// The arguments that take table names, by their clap ids.
pub const TABLE_ARGS: &[&str] = &["tables", "table"];

/// `oracle-cdc __complete tables LINE`: print the table names the word at the end of LINE can
/// become. Always exits 0.
pub fn run(args: &[OsString]) -> ExitCode {
    let mut args = args.iter().map(|a| a.to_string_lossy());
    if let (Some(what), Some(line)) = (args.next(), args.next()) {
        if what == "tables" {
            let candidates = tables_for(&line);
            let mut out = std::io::stdout().lock();
            for c in candidates {
                // A closed pipe (the shell gave up) is no error to show.
                if writeln!(out, "{c}").is_err() {
                    break;
                }
            }
        }
    }
    ExitCode::SUCCESS
}

/// The candidates for the word at the end of `line`, empty when it is no table value.
fn tables_for(line: &str) -> Vec<String> {
    let words = command_words(line);
    let Some(at) = locate(&words) else {
        return Vec::new();
    };
    // A comma-separated list completes its last item; the items before it stay as typed.
    let (head, item) = match at.current.rfind(',') {
        Some(i) if at.list => at.current.split_at(i + 1),
        _ => ("", at.current.as_str()),
    };
    let Some(settings) = settings(&at) else {
        return Vec::new();
    };
    let names = list_tables(settings, at.emulator);
    let item = item.to_ascii_uppercase();
    names
        .into_iter()
        .filter(|n| n.to_ascii_uppercase().starts_with(&item))
        .map(|n| format!("{head}{n}"))
        .collect()
}

/// Where the cursor is, read from the words of the command line.
struct At {
    /// The word being completed, without an `--option=` in front.
    current: String,
    /// The argument takes a comma-separated list.
    list: bool,
    /// An emulator command: every table of its database is offered, captured or not.
    emulator: bool,
    /// The emulator command's DIR, when given.
    dir: Option<String>,
    config: Option<String>,
    sets: Vec<String>,
}

/// Walk the words (the last is the one being completed) through the command definitions:
/// which command they reach, which global settings they give, and whether the last word is the
/// value of a table argument.
fn locate(words: &[String]) -> Option<At> {
    let (current, before) = words.split_last()?;
    let mut root = <super::args::Cli as clap::CommandFactory>::command();
    root.build();
    let mut node = &root;
    let mut path: Vec<String> = Vec::new();
    let mut positionals: Vec<String> = Vec::new();
    let mut pending: Option<String> = None;
    let (mut config, mut sets) = (None, Vec::new());
    let mut record = |id: &str, value: &str| match id {
        "config" => config = Some(value.to_string()),
        "set" => sets.push(value.to_string()),
        _ => {}
    };
    for w in before {
        if let Some(id) = pending.take() {
            record(&id, w);
            continue;
        }
        if let Some((arg, inline)) = option(node, w) {
            match inline {
                Some(v) => record(arg.get_id().as_str(), &v),
                None if arg.get_action().takes_values() => pending = Some(arg.get_id().to_string()),
                None => {}
            }
            continue;
        }
        if w.starts_with('-') {
            continue;
        }
        if let Some(sub) = node.find_subcommand(w) {
            node = sub;
            path.push(sub.get_name().to_string());
            positionals.clear();
            continue;
        }
        positionals.push(w.clone());
    }
    let emulator = path.first().is_some_and(|p| p == "emulator");
    let dir = if emulator {
        positionals.first().cloned()
    } else {
        None
    };
    let (arg, value) = match pending {
        Some(id) => (
            node.get_arguments().find(|a| a.get_id() == id.as_str())?,
            current.clone(),
        ),
        None => match option(node, current) {
            Some((arg, Some(v))) => (arg, v),
            Some((_, None)) => return None,
            None if current.starts_with('-') => return None,
            None => (
                node.get_positionals().nth(positionals.len())?,
                current.clone(),
            ),
        },
    };
    if !TABLE_ARGS.contains(&arg.get_id().as_str()) {
        return None;
    }
    Some(At {
        current: value,
        list: arg.get_value_delimiter().is_some(),
        emulator,
        dir,
        config,
        sets,
    })
}

/// The option `word` names in `cmd` (`--long`, `--long=value`, `-s`, `-svalue`), with the
/// value written into the word.
fn option<'a>(cmd: &'a clap::Command, word: &str) -> Option<(&'a clap::Arg, Option<String>)> {
    if let Some(long) = word.strip_prefix("--") {
        let (name, value) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (long, None),
        };
        let arg = cmd.get_arguments().find(|a| a.get_long() == Some(name))?;
        return Some((arg, value));
    }
    let mut chars = word.strip_prefix('-')?.chars();
    let short = chars.next()?;
    let arg = cmd.get_arguments().find(|a| a.get_short() == Some(short))?;
    let rest: String = chars.collect();
    let value = (arg.get_action().takes_values() && !rest.is_empty()).then_some(rest);
    Some((arg, value))
}

/// The settings the command on the line would run with; `None` when they do not load.
fn settings(at: &At) -> Option<Settings> {
    let mut sets = at.sets.clone();
    if let Some(dir) = &at.dir {
        sets.push(format!("cdc.database.url=emulator:{dir}"));
    }
    Settings::load(
        &LoadOptions {
            config: at.config.clone().map(Into::into),
            sets,
            env: Vec::new(),
            strict: false,
        }
        .with_process_env(),
    )
    .ok()
}

/// The database's tables (only the captured ones, unless `all`), sorted; empty on any failure
/// or after [`LIST_TIMEOUT`]. The listing runs in a thread the process leaves behind on exit.
fn list_tables(settings: Settings, all: bool) -> Vec<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let listed = crate::source::open(&settings)
            .and_then(|c| c.connect())
            .and_then(|mut s| s.tables());
        let names: Vec<String> = match listed {
            Ok(tables) => tables
                .into_iter()
                .map(|t| t.name)
                .filter(|t: &TableName| {
                    all || (settings.is_captured(t)
                        && settings.signal.data_collection.as_ref() != Some(t))
                })
                .map(|t| t.to_string())
                .collect(),
            Err(_) => Vec::new(),
        };
        let _ = tx.send(names);
    });
    let mut names = rx.recv_timeout(LIST_TIMEOUT).unwrap_or_default();
    names.sort();
    names.dedup();
    names
}

/// The words of the last command on `line` after the program's name, unquoted as a shell
/// would; the last word is the one being completed (empty after a space).
fn command_words(line: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => word.extend(chars.next()),
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, '\\') => {
                word.extend(chars.next());
                in_word = true;
            }
            (None, c) if c.is_whitespace() || matches!(c, ';' | '|' | '&') => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
                // A new command starts after a separator.
                if !c.is_whitespace() {
                    words.clear();
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    // The word at the cursor: the one being typed, or a fresh one after a space.
    words.push(word);
    // Variable assignments before the program (`ORACLE_CDC_X=1 oracle-cdc …`) are no words
    // of it; then the program's own name goes.
    let assignment = |w: &String| {
        w.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    };
    let start = words.iter().position(|w| !assignment(w)).unwrap_or(0);
    words.into_iter().skip(start + 1).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: &str) -> Option<At> {
        locate(&command_words(line))
    }

    #[test]
    fn the_word_at_the_cursor_is_found_through_the_commands() {
        let a = at("oracle-cdc -c s.yaml --set cdc.x=1 snapshot --tables A,PD").unwrap();
        assert_eq!((a.current.as_str(), a.list), ("A,PD", true));
        assert_eq!(a.config.as_deref(), Some("s.yaml"));
        assert_eq!(a.sets, ["cdc.x=1"]);
        let a = at("oracle-cdc plan-chunks --format json --tables=HR").unwrap();
        assert_eq!(a.current, "HR");
        let a = at("oracle-cdc offsets edit --dry-run reset-table ").unwrap();
        assert_eq!((a.current.as_str(), a.list), ("", false));
        let a = at("oracle-cdc emulator dump --scn 5 'my db' --table P").unwrap();
        assert_eq!((a.dir.as_deref(), a.emulator), (Some("my db"), true));
        // No table there: an option's other value, an option name, a command, set-scn's SCN.
        for line in [
            "oracle-cdc snapshot --format ",
            "oracle-cdc snapshot --tab",
            "oracle-cdc ",
            "oracle-cdc offsets edit set-scn ",
            "oracle-cdc offsets edit reset-table T ",
        ] {
            assert!(at(line).is_none(), "{line}");
        }
    }

    #[test]
    fn lines_are_split_as_a_shell_splits_them() {
        assert_eq!(
            command_words("cd x; A=1 ./oracle-cdc --set \"k=a b\" 'q r' x\\ y "),
            ["--set", "k=a b", "q r", "x y", ""]
        );
    }
}
