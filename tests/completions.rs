//! The committed completion scripts complete at every level. Bash is run for real: the script is
//! sourced, the function `complete -p` registered is called with the words of a command line,
//! and COMPREPLY is what a TAB would offer. zsh, fish and PowerShell are not installed on the
//! project's machines: their generated text is checked for the same completions instead.

use std::path::PathBuf;
use std::process::Command;

fn script(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("completions")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What bash offers for `line` (the words typed so far; the last is the word being completed).
fn bash_complete(bin: &str, words: &[&str]) -> Vec<String> {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("completions")
        .join(format!("{bin}.bash"));
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        r#"source '{file}' || exit 3
spec=$(complete -p {bin}) || exit 4
fn=$(sed -n 's/.*-F \([^ ]*\).*/\1/p' <<<"$spec")
[ -n "$fn" ] || exit 5
COMP_WORDS=({bin} {words})
COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
COMP_LINE="${{COMP_WORDS[*]}}"
COMP_POINT=${{#COMP_LINE}}
prev=${{COMP_WORDS[COMP_CWORD-1]}}
"$fn" {bin} "${{COMP_WORDS[COMP_CWORD]}}" "$prev"
printf '%s\n' "${{COMPREPLY[@]}}"
"#,
        file = file.display(),
        words = quoted.join(" "),
    );
    let out = match Command::new("bash")
        .arg("--norc")
        .arg("-c")
        .arg(&program)
        .output()
    {
        Ok(o) => o,
        Err(e) => {
            // Every supported development machine has bash; say so rather than pass quietly.
            panic!("bash could not be started ({e}): the bash completion test needs bash on PATH")
        }
    };
    assert!(
        out.status.success(),
        "bash exited with {}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completes_the_values_of_a_subcommands_option() {
    let offered = bash_complete("oracle-cdc", &["snapshot", "--format", ""]);
    assert_eq!(
        offered,
        ["jsonl", "csv", "parquet"],
        "snapshot --format <TAB>"
    );
    let offered = bash_complete("oracle-cdc", &["snapshot", "--format", "pa"]);
    assert_eq!(offered, ["parquet"], "snapshot --format pa<TAB>");
}

#[test]
fn bash_completes_at_every_level() {
    // Top level: the commands.
    let top = bash_complete("oracle-cdc", &[""]);
    for c in ["capture", "snapshot", "emulator", "offsets", "doctor"] {
        assert!(top.contains(&c.to_string()), "{c} missing from {top:?}");
    }
    // Second level: the emulator's commands.
    let emulator = bash_complete("oracle-cdc", &["emulator", ""]);
    for c in ["init", "workload", "dump", "status"] {
        assert!(
            emulator.contains(&c.to_string()),
            "{c} missing from {emulator:?}"
        );
    }
    // Third level: an option of `offsets edit set-scn`, and the values of a nested --format.
    let set_scn = bash_complete("oracle-cdc", &["offsets", "edit", "set-scn", "--sk"]);
    assert_eq!(set_scn, ["--skip-xid"]);
    let dump = bash_complete("oracle-cdc", &["emulator", "dump", "--format", ""]);
    assert_eq!(dump, ["jsonl", "csv"]);
    // A global option after a subcommand.
    let color = bash_complete("oracle-cdc", &["capture", "--color", ""]);
    assert_eq!(color, ["auto", "always", "never"]);
    // The doctor binary.
    let doctor = bash_complete("oracle-cdc-doctor", &["--format", ""]);
    assert_eq!(doctor, ["table", "json"]);
    let fail_on = bash_complete("oracle-cdc-doctor", &["--fail-on", ""]);
    assert_eq!(fail_on, ["warn", "fail"]);
}

#[test]
fn zsh_fish_and_powershell_scripts_complete_subcommand_options() {
    // zsh: the snapshot command's arguments list --format with its values.
    let zsh = script("_oracle-cdc");
    let snapshot = zsh
        .split("(snapshot)")
        .nth(1)
        .expect("zsh: a (snapshot) case");
    let snapshot = &snapshot[..snapshot.find(";;").unwrap_or(snapshot.len())];
    assert!(
        snapshot.contains("--format=[File format]:FORMAT:((jsonl"),
        "zsh snapshot --format values: {snapshot}"
    );
    assert!(snapshot.contains("parquet"), "{snapshot}");
    // fish: a completion of snapshot's --format with the values.
    let fish = script("oracle-cdc.fish");
    // The values follow `-a "`, one a line, up to the closing quote.
    let start = fish
        .find("using_subcommand snapshot\" -l format")
        .expect("fish: snapshot --format");
    let rest = &fish[start..];
    let values = &rest[rest.find("-a \"").expect("fish: -a") + 4..];
    let line = &values[..values.find("\"\n").unwrap_or(values.len())];
    for v in ["jsonl", "csv", "parquet"] {
        assert!(line.contains(v), "fish snapshot --format lacks {v}: {line}");
    }
    // PowerShell: the snapshot command's options (clap's PowerShell script completes names).
    let ps = script("_oracle-cdc.ps1");
    let block = ps
        .split("'oracle-cdc;snapshot' {")
        .nth(1)
        .expect("PowerShell: a snapshot block");
    assert!(block[..block.find('}').unwrap_or(block.len())].contains("'--format'"));
    let block = ps
        .split("'oracle-cdc;offsets;edit;set-scn' {")
        .nth(1)
        .expect("PowerShell: an offsets edit set-scn block");
    assert!(block[..block.find('}').unwrap_or(block.len())].contains("'--skip-xid'"));
}
