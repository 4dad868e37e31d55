//! Secrets: resolved from `${env:NAME}` or `${file:PATH}` at load, never printed.

use crate::errors::{CdcError, Code, Result};
use std::fmt;

/// A resolved secret. `Debug` and `Display` print `<redacted>`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Resolve a secret written as plain text, `${env:NAME}` or `${file:PATH}`.
    pub fn resolve(key: &str, text: &str) -> Result<Secret> {
        let unresolved = |reference: &str, reason: String| {
            CdcError::settings(
                Code::Cdc1005,
                format!("`{key}`: secret reference {reference} cannot be resolved: {reason}"),
            )
        };
        let trimmed = text.trim();
        if let Some(inner) = trimmed.strip_prefix("${").and_then(|t| t.strip_suffix('}')) {
            if let Some(name) = inner.strip_prefix("env:") {
                return std::env::var(name).map(Secret).map_err(|_| {
                    unresolved(trimmed, format!("environment variable {name} is not set"))
                });
            }
            if let Some(path) = inner.strip_prefix("file:") {
                return std::fs::read_to_string(path)
                    .map(|s| Secret(s.trim_end_matches(['\n', '\r']).to_string()))
                    .map_err(|e| unresolved(trimmed, format!("{path}: {e}")));
            }
            return Err(unresolved(
                trimmed,
                "expected ${env:NAME} or ${file:PATH}".to_string(),
            ));
        }
        Ok(Secret(text.to_string()))
    }

    /// The secret itself, for the one place that needs it (the database login).
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}
