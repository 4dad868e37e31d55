//! `oracle-cdc offsets edit`: an operation or `--interactive`, then the same path for both:
//! validate, weigh what would be skipped, print the diff, back up, write atomically.

use super::super::args::{GlobalArgs, OffsetsEditArgs, OffsetsEditOp, OffsetsResetArgs};
use super::super::Printer;
use crate::errors::CdcError;
use crate::offsets::commit::{self, Step};
use crate::offsets::edit::{self, Context, Operation};
use crate::offsets::inspect::{self, Reach};
use crate::offsets::{diff, losses, validate, Offsets, FORMAT_VERSION};
use crate::ops::OpsLog;
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where the new offsets come from.
enum Mode {
    /// An operation (set-scn, reset-table, …).
    Op(Operation),
    /// The operator edits the JSON in an editor.
    Interactive,
    /// An edited document from a file or stdin (`-`).
    Apply(PathBuf),
    /// Nothing but the database (and an export's spec): the next start is a first start.
    Reset,
}

fn operation(op: &OffsetsEditOp) -> Option<Operation> {
    Some(match op {
        OffsetsEditOp::SetScn(a) => Operation::SetScn {
            scn: a.scn,
            resume_scn: a.resume_scn,
            skip_xids: a.skip_xid.clone(),
        },
        OffsetsEditOp::ResetTable(a) => Operation::ResetTable(a.table.clone()),
        OffsetsEditOp::MarkDone(a) => Operation::MarkDone(a.table.clone()),
        OffsetsEditOp::ForgetTable(a) => Operation::ForgetTable(a.table.clone()),
        OffsetsEditOp::DropSignal(a) => Operation::DropSignal(a.id.clone()),
        OffsetsEditOp::SetSink(a) => Operation::SetSink {
            bytes: a.bytes,
            segment: a.segment.clone(),
        },
        OffsetsEditOp::SetTopicNaming(a) => Operation::SetTopicNaming { pdb: a.pdb },
        OffsetsEditOp::Apply(_) => return None,
    })
}

/// `offsets reset`: the edit pipeline with offsets that hold nothing but their database.
pub fn reset(
    a: OffsetsResetArgs,
    global: &GlobalArgs,
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    let args = OffsetsEditArgs {
        operation: None,
        interactive: false,
        yes: false,
        dry_run: a.dry_run,
        force: a.force,
        dir: a.dir,
        offline: a.offline,
    };
    run_mode(Mode::Reset, args, global, printer)
}

pub fn run(a: OffsetsEditArgs, global: &GlobalArgs, printer: &Printer) -> anyhow::Result<ExitCode> {
    let mode = match (&a.operation, a.interactive) {
        (Some(OffsetsEditOp::Apply(f)), false) => Mode::Apply(f.file.clone()),
        (Some(op), false) => Mode::Op(operation(op).ok_or_else(|| {
            CdcError::Argument("this operation is not an edit of the offsets".into())
        })?),
        (None, true) => Mode::Interactive,
        (Some(_), true) => {
            return Err(CdcError::Argument(
                "--interactive edits the JSON by hand and takes no operation; drop one of them".into(),
            )
            .into())
        }
        (None, false) => {
            return Err(CdcError::Argument(
                "name an operation (set-scn, reset-table, mark-done, forget-table, drop-signal, set-sink, apply) or --interactive; see oracle-cdc offsets edit --help".into(),
            )
            .into())
        }
    };
    run_mode(mode, a, global, printer)
}

fn run_mode(
    mode: Mode,
    a: OffsetsEditArgs,
    global: &GlobalArgs,
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    let settings = super::super::load_settings(global)?;
    let interactive = matches!(mode, Mode::Interactive);
    if interactive && !a.yes && !a.dry_run && !interactive_terminal() {
        return Err(no_terminal().into());
    }
    // Read the document first: stdin is read once, before anything is locked.
    let applied_text = match &mode {
        Mode::Apply(file) => Some(read_document(file)?),
        _ => None,
    };
    let op = match &mode {
        Mode::Op(op) => Some(op.clone()),
        _ => None,
    };
    let state = super::state_dir(a.dir.clone(), &settings);
    let path = state.offsets();
    let set_scn = matches!(op, Some(Operation::SetScn { .. }));
    let exists = std::fs::symlink_metadata(&path).is_ok();
    if !exists && !set_scn {
        return Err(CdcError::NoOffsets { path }.into());
    }
    let reach = if a.offline {
        Reach::Offline
    } else {
        inspect::probe(&settings, &[])
    };
    if !exists && reach.live().is_none() {
        return Err(CdcError::InvalidEdit(format!(
            "there are no offsets at {} yet: set-scn can start them only with the database reachable (its DBID and incarnation go into them); {}",
            path.display(),
            reach.why_not().unwrap_or_default()
        ))
        .into());
    }
    // Held until the new offsets are written: a capture cannot start in between.
    let _lock = if a.dry_run {
        if let Some(pid) = state.holder() {
            warn(&format!(
                "a running capture (pid {pid}) holds {}: the edit itself would be refused now",
                state.path.display()
            ));
        }
        None
    } else {
        // The directory may hold a capture's offsets or an export's: both kinds of writer are
        // kept out.
        Some((state.lock()?, state.lock_export()?))
    };
    // Read under the lock: what is edited is what is on disk now.
    let old_bytes = match std::fs::read(&path) {
        Ok(b) => Some(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(CdcError::io(&path, e).into()),
    };
    let mut notes = Vec::new();
    let old = match &old_bytes {
        Some(b) => {
            let text = String::from_utf8(b.clone()).map_err(|e| CdcError::OffsetsDamaged {
                path: path.clone(),
                message: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
            })?;
            let (o, version) = Offsets::parse(&path, &text)?;
            if version < FORMAT_VERSION {
                notes.push(format!(
                    "the file is in format {version}: it is written in format {FORMAT_VERSION}"
                ));
            }
            Some(o)
        }
        None => None,
    };
    match (reach.live(), &old) {
        (Some(l), Some(o)) => o.check_database(&path, &l.database)?,
        (Some(_), None) => {}
        (None, _) => warn(&format!(
            "{}: the DBID{} not checked",
            reach.why_not().unwrap_or_default(),
            if set_scn {
                " and the SCN against the retained logs are"
            } else {
                " is"
            }
        )),
    }
    let now = chrono::Utc::now();
    let ctx = Context {
        settings: &settings,
        live: reach.live(),
        now,
    };
    let new = match (&mode, &op, &old) {
        (_, Some(op), _) => {
            let applied = edit::apply(op, old.as_ref(), &ctx)?;
            notes.extend(applied.notes);
            applied.offsets
        }
        (Mode::Apply(_), None, Some(old)) => {
            parse_edited(applied_text.as_deref().unwrap_or_default(), old, &settings)?
        }
        (Mode::Reset, None, Some(old)) => {
            let mut fresh = Offsets::new(old.database.clone());
            // An export keeps what it exports: it starts over, cutting its files back.
            fresh.export = old.export.clone();
            // A reset forgets where capture is in the database, not what it delivered: the
            // records acknowledged in the sink stay and the next start's records follow them
            // (a file sink is not cut back; a Kafka sink's transaction count stays the one its
            // offsets topic holds, so the restart reconciles instead of refusing, CDC-6206).
            fresh.sink = old.sink.clone();
            fresh.sink_owner = old.sink_owner.clone();
            notes.push(
                "after the reset the next start is a first start: capture takes the snapshot cdc.snapshot.mode asks for and publishes it after the records already in the sink (they are kept); an export starts over"
                    .into(),
            );
            fresh
        }
        (_, None, Some(old)) => match by_hand(old, &settings, printer)? {
            Some(new) => new,
            None => {
                printer.note("no change: the offsets are left as they are");
                return Ok(ExitCode::SUCCESS);
            }
        },
        (_, None, None) => return Err(CdcError::NoOffsets { path }.into()),
    };
    validate::check(&new, old.as_ref(), &settings)?;
    // What capture's start refuses, an edit refuses too (--force never skips it): positions
    // past the current SCN, tables the database does not have and capture never captured.
    if let Some(live) = reach.live() {
        if let Some(tables) = &live.tables {
            let facts = crate::offsets::startup::Facts {
                current_scn: live.current_scn,
                role: live.database.role,
                tables,
                history: crate::offsets::startup::history_tables(
                    &state.path.join(crate::capture::HISTORY_FILE),
                )?,
            };
            crate::offsets::startup::check(&new, &path, &facts)?;
        }
    }
    let analysis = losses::analyze(old.as_ref(), &new, &settings);
    let changes = diff::diff(old.as_ref(), &new);
    if changes.is_empty() {
        for n in &notes {
            printer.note(n);
        }
        printer.note(&format!("no change: {} is left as it is", path.display()));
        return Ok(ExitCode::SUCCESS);
    }
    print_diff(printer, &changes)?;
    printer.flush()?;
    for n in &notes {
        printer.note(n);
    }
    for n in &analysis.notes {
        printer.note(&format!("note: {n}"));
    }
    if !analysis.losses.is_empty() {
        let shown = crate::errors::shown_items(&analysis.losses, SHOWN_CHANGES, 400);
        let list = format!("\n  - {}", shown.join("\n  - "));
        if !a.force && !a.dry_run {
            return Err(CdcError::EditSkipsData(format!(
                "the edit would skip data, so nothing was written:{list}\n  to accept losing exactly this, run it again with --force"
            ))
            .into());
        }
        warn(&format!(
            "this edit skips data{}:{list}",
            if a.force {
                " (--force)"
            } else {
                "; writing it needs --force"
            }
        ));
    }
    if a.dry_run {
        printer.note("dry run: nothing written");
        return Ok(ExitCode::SUCCESS);
    }
    if interactive && !a.yes && !confirm("write these changes?")? {
        printer.note("not written: the offsets are left as they are");
        return Ok(ExitCode::SUCCESS);
    }
    let backup = commit::commit(
        &path,
        old_bytes.as_deref(),
        &new.to_bytes()?,
        now,
        &mut crash_hook(),
    )?;
    let described = match &mode {
        Mode::Op(op) => op.describe(),
        Mode::Interactive => "interactive".to_string(),
        Mode::Apply(f) => format!("apply {}", f.display()),
        Mode::Reset => "reset".to_string(),
    };
    if let Ok(ops) = OpsLog::to_file(&state.ops()) {
        // The audit trail; the offsets are written already, so a failure here is only logged.
        if let Err(e) = ops.emit(
            "offsets-edited",
            json!({
                "operation": described,
                "backup": backup.as_ref().map(|b| b.display().to_string()),
                "changes": shown_changes(&changes),
                "skipped_data": crate::errors::shown_items(&analysis.losses, SHOWN_CHANGES, 400),
                "pid": std::process::id(),
            }),
        ) {
            tracing::warn!("offsets-edited event not written: {e}");
        }
    }
    printer.note(&match backup {
        Some(b) => format!("wrote {} (backup: {})", path.display(), b.display()),
        None => format!("wrote {}", path.display()),
    });
    Ok(ExitCode::SUCCESS)
}

/// The document of `apply`: a file, or stdin for `-` (at most the offsets file size limit).
fn read_document(file: &Path) -> anyhow::Result<String> {
    use std::io::Read;
    const MAX: u64 = 64 << 20;
    let mut bytes = Vec::new();
    if file.as_os_str() == "-" {
        std::io::stdin()
            .take(MAX + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| CdcError::io("stdin", e))?;
    } else {
        bytes = crate::localfs::read_limited(file, MAX)?;
    }
    if bytes.len() as u64 > MAX {
        return Err(CdcError::InvalidEdit(format!(
            "{}: more than {MAX} bytes; not an offsets document",
            file.display()
        ))
        .into());
    }
    String::from_utf8(bytes).map_err(|e| {
        CdcError::InvalidEdit(format!(
            "{}: not UTF-8 text (byte {})",
            file.display(),
            e.utf8_error().valid_up_to()
        ))
        .into()
    })
}

/// Warnings are shown even with --quiet.
fn warn(text: &str) {
    crate::cli::stderr::line(&format!("warning: {text}"));
}

/// At most this many changes are printed and logged, each on one bounded line: an edited
/// document may change thousands of fields (a signal naming 10,000 tables).
const SHOWN_CHANGES: usize = 200;

/// The changes for the ops event: the first [`SHOWN_CHANGES`], and how many more there were.
fn shown_changes(changes: &[diff::Change]) -> Vec<String> {
    let mut out: Vec<String> = changes
        .iter()
        .take(SHOWN_CHANGES)
        .map(diff::Change::render)
        .collect();
    if changes.len() > SHOWN_CHANGES {
        out.push(format!(
            "… and {} more changes",
            changes.len() - SHOWN_CHANGES
        ));
    }
    out
}

fn print_diff(printer: &Printer, changes: &[diff::Change]) -> std::io::Result<()> {
    use crossterm::style::Stylize;
    for c in changes.iter().take(SHOWN_CHANGES) {
        let line = c.render();
        let line = if printer.color {
            match c.sign() {
                '+' => line.green().to_string(),
                '-' => line.red().to_string(),
                _ => line.yellow().to_string(),
            }
        } else {
            line
        };
        printer.line(&line)?;
    }
    if changes.len() > SHOWN_CHANGES {
        printer.line(&format!(
            "… and {} more changes (the first {SHOWN_CHANGES} are shown)",
            changes.len() - SHOWN_CHANGES
        ))?;
    }
    Ok(())
}

/// In debug builds (the test suite), `ORACLE_CDC_TEST_CRASH_AT=after-temp-write` (or another
/// [`Step::name`]) kills the process at that step, to prove a crash there leaves a valid file.
fn crash_hook() -> impl FnMut(Step) -> crate::errors::Result<()> {
    #[cfg(debug_assertions)]
    let at = std::env::var("ORACLE_CDC_TEST_CRASH_AT").ok();
    move |_step: Step| {
        #[cfg(debug_assertions)]
        if at.as_deref() == Some(_step.name()) {
            std::process::abort();
        }
        Ok(())
    }
}

/// The edited offsets, or why they are refused (CDC-7008 naming the field and the problem).
pub fn parse_edited(
    text: &str,
    old: &Offsets,
    settings: &crate::settings::Settings,
) -> crate::errors::Result<Offsets> {
    let (new, _) = Offsets::parse(Path::new("edited"), text).map_err(|e| match e {
        CdcError::OffsetsDamaged { message, .. } => {
            CdcError::InvalidEdit(format!("the edited JSON is not valid offsets: {message}"))
        }
        CdcError::OffsetsTooNew {
            found, supported, ..
        } => CdcError::InvalidEdit(format!(
            "format: {found} is newer than this oracle-cdc writes ({supported}); leave it as it was"
        )),
        other => other,
    })?;
    let raw: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| CdcError::InvalidEdit(format!("the edited JSON: {e}")))?;
    let unknown = validate::unknown_fields(&raw, &new);
    if !unknown.is_empty() {
        validate::refuse(unknown)?;
    }
    validate::check(&new, Some(old), settings)?;
    Ok(new)
}

/// Open the offsets in the editor until they are valid (or the operator gives up); `None` when
/// they come back unchanged.
fn by_hand(
    old: &Offsets,
    settings: &crate::settings::Settings,
    printer: &Printer,
) -> anyhow::Result<Option<Offsets>> {
    let original = String::from_utf8(old.to_bytes()?)?;
    let file = tempfile::Builder::new()
        .prefix("oracle-cdc-offsets-")
        .suffix(".json")
        .tempfile()
        .map_err(|e| CdcError::io(std::env::temp_dir(), e))?;
    let mut text = original.clone();
    loop {
        std::fs::write(file.path(), &text).map_err(|e| CdcError::io(file.path(), e))?;
        run_editor(file.path())?;
        text = std::fs::read_to_string(file.path()).map_err(|e| CdcError::io(file.path(), e))?;
        if text == original {
            return Ok(None);
        }
        match parse_edited(&text, old, settings) {
            Ok(new) => return Ok(Some(new)),
            Err(e) => {
                if !interactive_terminal() {
                    return Err(e.into());
                }
                crate::cli::stderr::line(&e.to_string());
                if !confirm("edit again? (no: leave the offsets as they are)")? {
                    return Err(e.into());
                }
                printer.note("reopening the editor with your changes");
            }
        }
    }
}

fn run_editor(file: &Path) -> anyhow::Result<()> {
    let editor = ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "vi".to_string());
    #[cfg(unix)]
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(file)
        .status();
    #[cfg(not(unix))]
    let status = std::process::Command::new(&editor).arg(file).status();
    let status = status.map_err(|e| CdcError::io(&editor, e))?;
    if !status.success() {
        return Err(CdcError::io(
            &editor,
            std::io::Error::other(format!(
                "the editor exited with {status}; the offsets are left as they are"
            )),
        )
        .into());
    }
    Ok(())
}

fn no_terminal() -> CdcError {
    CdcError::Argument(
        "--interactive asks for confirmation on a terminal, and this is none; pass --yes to confirm in advance (or --dry-run to only see the diff)".into(),
    )
}

fn interactive_terminal() -> bool {
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// Ask on the terminal (crossterm, one key: y or n). Without a terminal there is no one to ask.
fn confirm(question: &str) -> anyhow::Result<bool> {
    use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
    if !interactive_terminal() {
        return Err(no_terminal().into());
    }
    crate::cli::stderr::write(&format!("{question} [y/N] "));
    let _ = std::io::stderr().flush();
    crossterm::terminal::enable_raw_mode().map_err(|e| CdcError::io("terminal", e))?;
    let answer = loop {
        match event::read() {
            Ok(Event::Key(k)) if k.kind == KeyEventKind::Press => {
                let ctrl_c =
                    k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL);
                break !ctrl_c && matches!(k.code, KeyCode::Char('y') | KeyCode::Char('Y'));
            }
            Ok(_) => continue,
            Err(_) => break false,
        }
    };
    let _ = crossterm::terminal::disable_raw_mode();
    crate::cli::stderr::line(if answer { "yes" } else { "no" });
    Ok(answer)
}
