//! The file sink's segment files: `segment-NNNNNN.jsonl` in the sink directory, numbered from 1.
//! The sink writes them; `offsets edit` checks a position against them.

use crate::errors::{CdcError, Result};
use std::path::{Path, PathBuf};

/// The name of segment number `index` (`segment-000001.jsonl`).
pub fn segment_name(index: u64) -> String {
    format!("segment-{index:06}.jsonl")
}

/// The number of a segment file's name; `None` for another file.
pub fn segment_index(name: &str) -> Option<u64> {
    name.strip_prefix("segment-")?
        .strip_suffix(".jsonl")?
        .parse()
        .ok()
}

/// The segment files in a directory, in order.
pub fn segments(dir: &Path) -> Result<Vec<(u64, PathBuf)>> {
    let mut out = Vec::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(CdcError::io(dir, e)),
    };
    for e in entries.flatten() {
        if let Some(i) = e.file_name().to_str().and_then(segment_index) {
            out.push((i, e.path()));
        }
    }
    out.sort();
    Ok(out)
}
