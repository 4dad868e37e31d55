//! The committed completion scripts complete at every level. Bash is run for real: the script is
//! sourced, the function `complete -p` registered is called with the words of a command line,
//! and COMPREPLY is what a TAB would offer. fish (`complete -C`) and zsh (TAB typed into an
//! interactive zsh in tmux) are run for real where they are installed, and the tests say they
//! are skipped where not; PowerShell is not installed on the project's machines: its generated
//! text is checked for the same completions instead.

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

/// Whether `program` runs: `--version`, or `-V` for tmux, which knows no `--version` (asking it
/// that skipped the zsh test on machines that have both).
fn installed(program: &str) -> bool {
    ["--version", "-V"].iter().any(|flag| {
        Command::new(program)
            .arg(flag)
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// What fish offers for `line` (`complete -C`, the words before the cursor), names only.
fn fish_complete(bin: &str, line: &str) -> Vec<String> {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("completions")
        .join(format!("{bin}.fish"));
    let out = Command::new("fish")
        .arg("--no-config")
        .arg("-c")
        .arg(format!(
            "source '{}'; or exit 3; complete -C '{line}'",
            file.display()
        ))
        .output()
        .expect("fish runs");
    assert!(out.status.success(), "fish: {out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split('\t').next().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn fish_completes_at_every_level() {
    if !installed("fish") {
        eprintln!("skipped: fish is not installed (the fish script's text is checked above)");
        return;
    }
    let formats = fish_complete("oracle-cdc", "oracle-cdc snapshot --format ");
    assert_eq!(formats, ["csv", "jsonl", "parquet"]);
    let emulator = fish_complete("oracle-cdc", "oracle-cdc emulator ");
    for c in ["init", "workload", "dump", "status"] {
        assert!(emulator.contains(&c.to_string()), "{c}: {emulator:?}");
    }
    // Three levels down: clap_complete's fish script stopped at two (`--skip-xid` was never
    // offered, and `edit`'s commands were offered again after `set-scn`).
    assert_eq!(
        fish_complete("oracle-cdc", "oracle-cdc offsets edit set-scn --sk"),
        ["--skip-xid"]
    );
    let after = fish_complete("oracle-cdc", "oracle-cdc offsets edit set-scn ");
    assert!(!after.contains(&"mark-done".to_string()), "{after:?}");
    let apply = fish_complete("oracle-cdc", "oracle-cdc offsets edit apply --");
    assert!(apply.contains(&"--dry-run".to_string()), "{apply:?}");
    assert!(
        !apply.contains(&"--interactive".to_string()),
        "edit's own option: {apply:?}"
    );
    let edit = fish_complete("oracle-cdc", "oracle-cdc offsets edit --");
    assert!(edit.contains(&"--interactive".to_string()), "{edit:?}");
    assert_eq!(
        fish_complete("oracle-cdc", "oracle-cdc signal send --channel "),
        ["file", "source"]
    );
    assert_eq!(
        fish_complete("oracle-cdc", "oracle-cdc capture --color "),
        ["always", "auto", "never"]
    );
    assert_eq!(
        fish_complete("oracle-cdc-doctor", "oracle-cdc-doctor --fail-on "),
        ["fail", "warn"]
    );
}

/// A tmux server of this test alone, on its own socket, killed when dropped.
struct Tmux(String);

impl Tmux {
    fn run(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .args(["-L", &self.0, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs")
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "z"]).stdout).to_string()
    }

    /// Type `line`, press TAB, and return the screen once it shows `expect` (or after 10 s).
    fn tab(&self, line: &str, expect: &str) -> String {
        self.run(&["send-keys", "-t", "z", "C-u", "clear", "Enter"]);
        std::thread::sleep(std::time::Duration::from_millis(300));
        self.run(&["send-keys", "-t", "z", "-l", line]);
        self.run(&["send-keys", "-t", "z", "Tab"]);
        let start = std::time::Instant::now();
        loop {
            let s = self.screen();
            if s.contains(expect) || start.elapsed() > std::time::Duration::from_secs(10) {
                return s;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.0, "kill-server"])
            .output();
    }
}

#[test]
fn zsh_completes_at_every_level() {
    if !installed("zsh") || !installed("tmux") {
        eprintln!(
            "skipped: zsh or tmux is not installed (zsh is driven through a terminal in tmux; the zsh script's text is checked above)"
        );
        return;
    }
    let completions = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("completions");
    let tmux = Tmux(format!("oracle-cdc-zsh-{}", std::process::id()));
    let out = tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "z",
        "-x",
        "200",
        "-y",
        "40",
        "env",
        "-i",
        "TERM=xterm",
        "HOME=/nonexistent",
        "PATH=/usr/bin:/bin",
        "zsh",
        "-f",
    ]);
    assert!(out.status.success(), "{out:?}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let setup = format!(
        "PS1='%% '; fpath=('{}' $fpath); autoload -U compinit; compinit -u -D; zstyle ':completion:*' list-prompt ''",
        completions.display()
    );
    tmux.run(&["send-keys", "-t", "z", "-l", &setup]);
    tmux.run(&["send-keys", "-t", "z", "Enter"]);
    let s = tmux.tab("oracle-cdc snapshot --format ", "parquet");
    for v in ["jsonl", "csv", "parquet"] {
        assert!(s.contains(v), "zsh snapshot --format <TAB>:\n{s}");
    }
    let s = tmux.tab("oracle-cdc emulator ", "workload");
    for c in ["init", "workload", "dump", "status"] {
        assert!(s.contains(c), "zsh emulator <TAB>:\n{s}");
    }
    let s = tmux.tab("oracle-cdc offsets edit set-scn --sk", "--skip-xid");
    assert!(
        s.contains("% oracle-cdc offsets edit set-scn --skip-xid"),
        "{s}"
    );
    let s = tmux.tab("oracle-cdc-doctor --fail-on ", "warn");
    assert!(s.contains("warn") && s.contains("fail"), "{s}");
}
