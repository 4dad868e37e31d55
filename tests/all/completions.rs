//! The committed completion scripts complete at every level. Bash is run for real: the script is
//! sourced, the function `complete -p` registered is called with the words of a command line,
//! and COMPREPLY is what a TAB would offer. fish (`complete -C`) and zsh (TAB typed into an
//! interactive zsh in tmux) are run for real where they are installed, and the tests say they
//! are skipped where not; PowerShell is not installed on the project's machines: its generated
//! text is checked for the same completions instead.

use std::path::PathBuf;
use std::process::Command;

/// PATH with the directory of the built `oracle-cdc` in front.
fn path_with_binaries() -> String {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_oracle-cdc"));
    let dir = bin.parent().expect("the binary's directory");
    format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// An emulated database made from the example schema, and its table names as the emulator
/// reports them (`emulator status --format json`).
fn emulated_database() -> (tempfile::TempDir, String, Vec<String>) {
    let root = tempfile::tempdir().unwrap();
    let db = root.path().join("db");
    let schema = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/emulator-schema.yaml");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_oracle-cdc"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let dir = db.to_str().unwrap().to_string();
    run(&[
        "emulator",
        "init",
        &dir,
        "--schema",
        schema.to_str().unwrap(),
    ]);
    let status: serde_json::Value =
        serde_json::from_slice(&run(&["emulator", "status", &dir, "--format", "json"])).unwrap();
    let mut tables: Vec<String> = status["tables"]
        .as_array()
        .expect("status lists tables")
        .iter()
        .map(|t| t["table"].as_str().unwrap().to_string())
        .collect();
    tables.sort();
    assert!(tables.len() > 2, "{tables:?}");
    (root, dir, tables)
}

/// Every setting key as `--set` completes it (fixed keys with `=`, per-table prefixes with `.`).
fn setting_keys() -> Vec<String> {
    oracle_cdc::settings::KEYS
        .iter()
        .map(|k| format!("{}{}", k.key, if k.per_table { "." } else { "=" }))
        .collect()
}

fn script(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("completions")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What bash offers for `line` (the words typed so far; the last is the word being completed).
fn bash_complete(bin: &str, words: &[&str]) -> Vec<String> {
    bash_complete_with(bin, words, &[])
}

/// [`bash_complete`] with these environment variables, and the built binaries first on PATH
/// (the scripts ask `oracle-cdc __complete` for table names).
fn bash_complete_with(bin: &str, words: &[&str], env: &[(&str, &str)]) -> Vec<String> {
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
        .env("PATH", path_with_binaries())
        .envs(env.iter().copied())
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
        .env("PATH", path_with_binaries())
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
        self.tabs(line, 1, expect)
    }

    /// [`Tmux::tab`] pressing TAB `n` times (the first completes a common prefix, the second
    /// lists).
    fn tabs(&self, line: &str, n: usize, expect: &str) -> String {
        self.run(&["send-keys", "-t", "z", "C-u", "clear", "Enter"]);
        std::thread::sleep(std::time::Duration::from_millis(300));
        self.run(&["send-keys", "-t", "z", "-l", line]);
        for _ in 0..n {
            self.run(&["send-keys", "-t", "z", "Tab"]);
            std::thread::sleep(std::time::Duration::from_millis(500));
        }
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
        &format!("PATH={}", path_with_binaries()),
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
    // Setting keys after --set (issue 37), with no space after the `=`.
    let s = tmux.tab("oracle-cdc --set cdc.snapshot.mo", "mode=");
    assert!(s.contains("% oracle-cdc --set cdc.snapshot.mode="), "{s}");
    // Table names from the database.
    let (_root, dir, tables) = emulated_database();
    let s = tmux.tabs(
        &format!("oracle-cdc --set cdc.database.url=emulator:{dir} snapshot --tables "),
        2,
        &tables[tables.len() - 1],
    );
    for t in &tables {
        assert!(
            s.contains(t.as_str()),
            "zsh snapshot --tables <TAB> lacks {t}:\n{s}"
        );
    }
    let one = &tables[0];
    let s = tmux.tab(
        &format!(
            "oracle-cdc emulator dump {dir} --table {}",
            &one[..one.len() - 2]
        ),
        &format!("--table {one}"),
    );
    assert!(s.contains(&format!("--table {one}")), "{s}");
}

/// Issue 37: `--set <TAB>` completed file names.
#[test]
fn bash_completes_setting_keys_after_set() {
    let keys = setting_keys();
    assert_eq!(bash_complete("oracle-cdc", &["--set", ""]), keys);
    assert_eq!(bash_complete("oracle-cdc", &["capture", "--set", ""]), keys);
    assert_eq!(
        bash_complete("oracle-cdc", &["--set", "cdc.snapshot.mo"]),
        ["cdc.snapshot.mode="]
    );
    let key = bash_complete("oracle-cdc", &["snapshot", "--set", "cdc.key"]);
    for k in ["cdc.key.", "cdc.key.unchecked=", "cdc.key.missing="] {
        assert!(key.contains(&k.to_string()), "{k}: {key:?}");
    }
    assert_eq!(bash_complete("oracle-cdc-doctor", &["--set", ""]), keys);
}

/// Issue 37: table names complete where a command takes one, asked of the database the
/// command's own settings name (on the line, or in the environment).
#[test]
fn bash_completes_table_names_from_the_database() {
    let (_root, dir, tables) = emulated_database();
    let url = format!("cdc.database.url=emulator:{dir}");
    let hr: Vec<String> = tables
        .iter()
        .filter(|t| t.starts_with("PDB1.HR."))
        .cloned()
        .collect();
    assert!(!hr.is_empty() && hr.len() < tables.len(), "{tables:?}");
    assert_eq!(
        bash_complete("oracle-cdc", &["--set", &url, "snapshot", "--tables", ""]),
        tables
    );
    assert_eq!(
        bash_complete(
            "oracle-cdc",
            &["--set", &url, "plan-chunks", "--tables", "PDB1.HR."]
        ),
        hr
    );
    // Only the captured tables; after a comma, the list's next item.
    let include = "cdc.tables.include=PDB1.HR.*";
    let after_comma: Vec<String> = hr.iter().map(|t| format!("{},{t}", hr[0])).collect();
    assert_eq!(
        bash_complete(
            "oracle-cdc",
            &[
                "--set",
                &url,
                "--set",
                include,
                "signal",
                "send",
                "execute-snapshot",
                "--tables",
                &format!("{},", hr[0])
            ]
        ),
        after_comma
    );
    // The environment's settings, and a positional TABLE.
    let env = [("ORACLE_CDC_DATABASE_URL", &url["cdc.database.url=".len()..])];
    assert_eq!(
        bash_complete_with("oracle-cdc", &["offsets", "edit", "reset-table", ""], &env),
        tables
    );
    // An emulator command's DIR names its database.
    assert_eq!(
        bash_complete(
            "oracle-cdc",
            &["emulator", "dump", &dir, "--table", "PDB1.HR."]
        ),
        hr
    );
    // Elsewhere nothing changes: an option's fixed values, options.
    assert_eq!(
        bash_complete("oracle-cdc", &["--set", &url, "snapshot", "--format", ""]),
        ["jsonl", "csv", "parquet"]
    );
    // An unreachable database offers nothing, and shows no error.
    assert!(bash_complete(
        "oracle-cdc",
        &[
            "--set",
            "cdc.database.url=emulator:/nonexistent",
            "snapshot",
            "--tables",
            ""
        ]
    )
    .is_empty());
}

#[test]
fn fish_completes_setting_keys_and_table_names() {
    if !installed("fish") {
        eprintln!("skipped: fish is not installed");
        return;
    }
    assert_eq!(
        fish_complete("oracle-cdc", "oracle-cdc --set cdc.snapshot.mo"),
        ["cdc.snapshot.mode="]
    );
    let mut keys = setting_keys();
    keys.sort();
    let mut offered = fish_complete("oracle-cdc", "oracle-cdc capture --set ");
    offered.sort();
    assert_eq!(offered, keys);
    let (_root, dir, tables) = emulated_database();
    let url = format!("cdc.database.url=emulator:{dir}");
    assert_eq!(
        fish_complete(
            "oracle-cdc",
            &format!("oracle-cdc --set {url} snapshot --tables ")
        ),
        tables
    );
    assert_eq!(
        fish_complete(
            "oracle-cdc",
            &format!("oracle-cdc --set {url} offsets edit mark-done ")
        ),
        tables
    );
}

/// The hook the scripts run never shows an error on a TAB: bad settings, a database that is
/// not there and one slower than the limit give no output, nothing on stderr, and exit 0; the
/// slow one within the limit (`cli::complete::LIMIT_SECS`) and a margin.
#[test]
fn the_table_hook_fails_quietly_and_soon() {
    let (_root, dir, tables) = emulated_database();
    let hook = |line: String| {
        let started = std::time::Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_oracle-cdc"))
            .args(["__complete", "tables", &line])
            .env_remove("ORACLE_CDC_DATABASE_URL")
            .output()
            .unwrap();
        assert!(out.status.success(), "{line}: {out:?}");
        assert!(out.stderr.is_empty(), "{line}: {out:?}");
        (
            String::from_utf8_lossy(&out.stdout).to_string(),
            started.elapsed(),
        )
    };
    let url = format!("--set cdc.database.url=emulator:{dir}");
    let (listed, _) = hook(format!("oracle-cdc {url} snapshot --tables "));
    assert_eq!(listed.lines().collect::<Vec<_>>(), tables);
    for line in [
        format!("oracle-cdc {url} --set cdc.no.such.key=1 snapshot --tables "),
        "oracle-cdc --set cdc.database.url=emulator:/nonexistent snapshot --tables ".to_string(),
        "oracle-cdc snapshot --tables ".to_string(),
    ] {
        assert_eq!(hook(line.clone()).0, "", "{line}");
    }
    let limit = oracle_cdc::cli::complete::LIMIT_SECS;
    let (slow, took) = hook(format!(
        "oracle-cdc {url} --set cdc.emulator.fault.call.latency.ms={} snapshot --tables ",
        (limit + 5) * 1000
    ));
    assert_eq!(slow, "");
    assert!(
        took >= std::time::Duration::from_secs(limit)
            && took < std::time::Duration::from_secs(limit + 4),
        "{took:?}"
    );
}
