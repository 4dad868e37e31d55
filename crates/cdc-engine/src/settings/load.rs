//! Reading the three settings layers into one validated map.

use super::keys::{self, Kind};
use super::{invalid, Entry, Origin, Raw};
use crate::errors::{CdcError, Code, Result};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Where settings come from.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// `--config FILE`.
    pub config: Option<PathBuf>,
    /// `--set KEY=VALUE`, in order (later wins).
    pub sets: Vec<String>,
    /// Environment variables to consider (normally `std::env::vars()`).
    pub env: Vec<(String, String)>,
    /// `--strict`: an `ORACLE_CDC_*` variable that names no setting is an error (CDC-1001), not
    /// a warning. A file or `--set` typo is always one: someone wrote it for oracle-cdc, while
    /// the shell's environment may hold other things under the prefix (a secret kept as
    /// `ORACLE_CDC_PW`).
    pub strict: bool,
}

impl LoadOptions {
    pub fn with_process_env(mut self) -> Self {
        self.env = std::env::vars().collect();
        self
    }
}

/// Environment variables with the ORACLE_CDC_ prefix that are not settings.
const ENV_NOT_SETTINGS: &[&str] = &["ORACLE_CDC_TEST_", "ORACLE_CDC_LOG"];

/// The settings' entries, and a warning for each environment variable left out (not strict).
pub(super) fn collect(options: &LoadOptions) -> Result<(BTreeMap<String, Entry>, Vec<String>)> {
    let mut warnings = Vec::new();
    let mut entries: BTreeMap<String, Entry> = BTreeMap::new();
    for spec in keys::KEYS {
        if let Some(d) = spec.default {
            entries.insert(
                spec.key.to_string(),
                Entry {
                    raw: Raw::Scalar(d.to_string()),
                    origin: Origin::Default,
                },
            );
        }
    }
    if let Some(path) = &options.config {
        for (key, raw) in read_file(path)? {
            check(&key, &raw, &format!("in {}", path.display()))?;
            entries.insert(
                key,
                Entry {
                    raw,
                    origin: Origin::File(path.clone()),
                },
            );
        }
    }
    // Variables named by a `${env:NAME}` secret are the secret's, not settings (e.g.
    // `cdc.database.password: ${env:ORACLE_CDC_PASSWORD}`).
    let referenced: Vec<String> = entries
        .values()
        .map(|e| e.raw.display())
        .chain(
            options
                .sets
                .iter()
                .filter_map(|s| s.split_once('=').map(|(_, v)| v.to_string())),
        )
        .filter_map(|v| {
            v.trim()
                .strip_prefix("${env:")
                .and_then(|r| r.strip_suffix('}'))
                .map(str::to_string)
        })
        .collect();
    let mut env: Vec<&(String, String)> = options
        .env
        .iter()
        .filter(|(k, _)| k.starts_with("ORACLE_CDC_"))
        .filter(|(k, _)| !ENV_NOT_SETTINGS.iter().any(|p| k.starts_with(p)))
        .filter(|(k, _)| !referenced.contains(k))
        .collect();
    env.sort();
    for (var, value) in env {
        let Some(spec) = keys::KEYS
            .iter()
            .find(|k| k.env_var().as_deref() == Some(var.as_str()))
        else {
            // Compared without the shared prefix, which alone makes every name look close
            // (`ORACLE_CDC_PW` is no misspelt `ORACLE_CDC_SINK_TYPE`).
            let bare = |name: &str| name.trim_start_matches("ORACLE_CDC_").to_string();
            let guess = keys::KEYS
                .iter()
                .filter_map(|k| k.env_var())
                .map(|e| (strsim::jaro_winkler(&bare(var), &bare(&e)), e))
                .filter(|(s, _)| *s > 0.9)
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, e)| format!(" (did you mean `{e}`?)"))
                .unwrap_or_default();
            if options.strict {
                return Err(CdcError::settings(
                    Code::Cdc1001,
                    format!("unknown setting in environment variable `{var}`{guess}"),
                ));
            }
            // Named, never its value: it may be a secret.
            warnings.push(format!(
                "environment variable `{var}` names no setting and is ignored{guess} (--strict refuses it: CDC-1001)"
            ));
            continue;
        };
        let raw = Raw::Scalar(value.clone());
        check(spec.key, &raw, &format!("from environment variable {var}"))?;
        entries.insert(
            spec.key.to_string(),
            Entry {
                raw,
                origin: Origin::Env(var.clone()),
            },
        );
    }
    for set in &options.sets {
        let (key, value) = set.split_once('=').ok_or_else(|| {
            CdcError::Argument(format!(
                "--set {} is not KEY=VALUE (e.g. --set cdc.snapshot.threads=8)",
                unsplit_set(set)
            ))
        })?;
        let key = key.trim().to_string();
        let raw = Raw::Scalar(value.to_string());
        check(&key, &raw, "in --set")?;
        entries.insert(
            key,
            Entry {
                raw,
                origin: Origin::Set,
            },
        );
    }
    Ok((entries, warnings))
}

/// A `--set` without `=`, for its error: when it starts with a secret's key (`cdc.database.password
/// hunter2`), only the key — the rest is the secret.
fn unsplit_set(set: &str) -> String {
    let secret = keys::KEYS
        .iter()
        .filter(|k| k.kind == Kind::Secret)
        .find(|k| set.trim_start().starts_with(k.key));
    match secret {
        Some(k) => format!(
            "`{}…` (the rest is not shown: it is a secret's value)",
            k.key
        ),
        None => format!("`{}`", crate::errors::shown(set, 120)),
    }
}

/// The longest setting value accepted: beyond it a value is a mistake (a file pasted into
/// `--set`), and printing or checking it would be slow.
pub const MAX_VALUE_BYTES: usize = 1 << 20;
/// The largest settings file read, and how deep its maps and lists may nest (keys need a few
/// levels; a deeply nested file took the YAML parser half a minute before it failed).
pub const MAX_FILE_BYTES: u64 = 16 << 20;
pub const MAX_DEPTH: usize = 64;

/// Validate one key and its value.
fn check(key: &str, raw: &Raw, whence: &str) -> Result<()> {
    let size = match raw {
        Raw::Scalar(s) => s.len(),
        Raw::List(items) => items.iter().map(|i| i.len() + 1).sum(),
    };
    if size > MAX_VALUE_BYTES {
        return Err(CdcError::settings(
            Code::Cdc1008,
            format!("setting `{}` {whence} has a value of {size} bytes; at most {MAX_VALUE_BYTES} are accepted", crate::errors::shown(key, 120)),
        ));
    }
    let Some((spec, _table)) = keys::lookup(key) else {
        if key.starts_with(keys::KAFKA_PRODUCER_PREFIX) {
            let known: Vec<&str> = keys::KEYS
                .iter()
                .filter_map(|k| k.key.strip_prefix(keys::KAFKA_PRODUCER_PREFIX))
                .collect();
            return Err(CdcError::settings(
                Code::Cdc6201,
                format!(
                    "producer setting `{key}` {whence} is not understood by the built-in Kafka producer; it understands {}",
                    known.join(", ")
                ),
            ));
        }
        let hint = keys::suggest(key)
            .map(|k| format!(" (did you mean `{k}`?)"))
            .unwrap_or_default();
        return Err(CdcError::settings(
            Code::Cdc1001,
            format!("unknown setting `{key}` {whence}{hint}"),
        ));
    };
    // A secret's value is never echoed, not even when it is wrong.
    let value = if spec.kind == Kind::Secret {
        "<redacted>".to_string()
    } else {
        raw.display()
    };
    match (spec.kind, raw) {
        (Kind::List, _) => Ok(()),
        (_, Raw::List(_)) => Err(invalid(
            key,
            &value,
            &format!("{} (not a list)", spec.kind.describe()),
        )),
        (Kind::Enum(words), _) if !words.contains(&value.as_str()) => {
            Err(invalid(key, &value, &spec.kind.describe()))
        }
        (Kind::UInt { min, max }, _) => match value.trim().replace('_', "").parse::<u64>() {
            Ok(n) if n >= min && n <= max => Ok(()),
            _ => Err(invalid(key, &value, &spec.kind.describe())),
        },
        (Kind::Text | Kind::Path | Kind::Condition, _) if value.trim().is_empty() => {
            Err(invalid(key, &value, "a non-empty value"))
        }
        _ => Ok(()),
    }
    .map_err(|e| match e {
        // Say where the bad value came from.
        CdcError::Settings { code, message } => CdcError::Settings {
            code,
            message: format!("{message} ({})", whence.trim_start_matches("in ")),
        },
        other => other,
    })
}

fn read_file(path: &PathBuf) -> Result<Vec<(String, Raw)>> {
    let cannot = |e: std::io::Error| {
        CdcError::settings(
            Code::Cdc1004,
            format!("cannot read settings file {}: {e}", path.display()),
        )
    };
    let len = std::fs::metadata(path).map_err(cannot)?.len();
    if len > MAX_FILE_BYTES {
        return Err(CdcError::settings(
            Code::Cdc1009,
            format!(
                "settings file {} has {len} bytes; at most {MAX_FILE_BYTES} are read",
                path.display()
            ),
        ));
    }
    let text = std::fs::read_to_string(path).map_err(cannot)?;
    if let Some((line, depth)) = too_deep(&text) {
        return Err(CdcError::settings(
            Code::Cdc1009,
            format!(
                "settings file {}:{line}: nested {depth} levels deep; at most {MAX_DEPTH} are read (keys are flat `cdc.a.b: v` or a few nested maps)",
                path.display()
            ),
        ));
    }
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).map_err(|e| {
        let at = e
            .location()
            .map(|l| format!(":{}:{}", l.line(), l.column()))
            .unwrap_or_default();
        CdcError::settings(Code::Cdc1003, format!("{}{at}: {e}", path.display()))
    })?;
    let mut out = Vec::new();
    match doc {
        serde_yaml::Value::Null => {}
        serde_yaml::Value::Mapping(map) => flatten("", &map, path, &mut out)?,
        _ => {
            return Err(CdcError::settings(
                Code::Cdc1003,
                format!("{}: the file must be a map of `cdc.*` keys", path.display()),
            ))
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for (k, _) in &out {
        if !seen.insert(k.clone()) {
            return Err(CdcError::settings(
                Code::Cdc1002,
                format!("setting `{k}` is given twice in {}", path.display()),
            ));
        }
    }
    Ok(out)
}

/// Where the YAML nests deeper than [`MAX_DEPTH`] (line, depth), before it is parsed: flow
/// brackets outside quotes, and block indentation (each deeper indent one level).
fn too_deep(text: &str) -> Option<(usize, usize)> {
    let mut indents: Vec<usize> = Vec::new();
    let mut flow = 0usize;
    for (n, line) in text.lines().enumerate() {
        let body = line.trim_start_matches(' ');
        if flow == 0 && !body.is_empty() && !body.starts_with('#') {
            let indent = line.len() - body.len();
            while indents.last().is_some_and(|&i| i >= indent) {
                indents.pop();
            }
            // A list item's dash opens a level of its own (`- - - x`).
            let dashes = body.split(' ').take_while(|t| *t == "-").count();
            indents.push(indent);
            if indents.len() + dashes > MAX_DEPTH {
                return Some((n + 1, indents.len() + dashes));
            }
        }
        let mut quote: Option<char> = None;
        for c in body.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '\'' | '"') => quote = Some(c),
                (None, '#') => break,
                (None, '[' | '{') => {
                    flow += 1;
                    if flow > MAX_DEPTH {
                        return Some((n + 1, flow));
                    }
                }
                (None, ']' | '}') => flow = flow.saturating_sub(1),
                _ => {}
            }
        }
    }
    None
}

fn flatten(
    prefix: &str,
    map: &serde_yaml::Mapping,
    path: &PathBuf,
    out: &mut Vec<(String, Raw)>,
) -> Result<()> {
    for (k, v) in map {
        let part = scalar_text(k).ok_or_else(|| {
            CdcError::settings(
                Code::Cdc1003,
                format!("{}: a key under `{prefix}` is not text", path.display()),
            )
        })?;
        let key = if prefix.is_empty() {
            part
        } else {
            format!("{prefix}.{part}")
        };
        match v {
            serde_yaml::Value::Mapping(inner) => flatten(&key, inner, path, out)?,
            serde_yaml::Value::Sequence(items) => {
                let items = items
                    .iter()
                    .map(|i| {
                        scalar_text(i).ok_or_else(|| {
                            invalid(&key, "(nested value)", "a list of plain values")
                        })
                    })
                    .collect::<Result<Vec<_>>>()?;
                out.push((key, Raw::List(items)));
            }
            serde_yaml::Value::Null => {
                return Err(invalid(&key, "", "a value (the key is empty in the file)"))
            }
            other => match scalar_text(other) {
                Some(s) => out.push((key, Raw::Scalar(s))),
                None => return Err(invalid(&key, "(tagged value)", "a plain value")),
            },
        }
    }
    Ok(())
}

fn scalar_text(v: &serde_yaml::Value) -> Option<String> {
    match v {
        serde_yaml::Value::String(s) => Some(s.clone()),
        serde_yaml::Value::Number(n) => Some(n.to_string()),
        serde_yaml::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}
