//! The workload's LOB-like values beyond what a row keeps, and its piecewise LOB edits (see
//! `WorkloadOptions::lob_pct` and `lob_edit_pct`).

use super::redo::LobOp;
use crate::types::{ColumnType, Value};
use cdc_core::model::ColumnInfo;
use cdc_core::types::ToCompactString;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Types whose values LogMiner writes in rows of their own when they are long.
pub fn is_lob_like(ty: &ColumnType) -> bool {
    matches!(
        ty,
        ColumnType::Clob
            | ColumnType::Nclob
            | ColumnType::Blob
            | ColumnType::Json
            | ColumnType::Xmltype
    ) || (ty.is_extended() && !matches!(ty, ColumnType::Raw { .. }))
}

/// `v` made long: past the ~4,000 bytes a row keeps of a LOB, past the 4,000 bytes of a
/// standard VARCHAR2 for an extended one (and within its declared length).
pub fn large(ty: &ColumnType, v: &Value, rng: &mut ChaCha8Rng) -> Value {
    let pad = |rng: &mut ChaCha8Rng, n: usize| -> String {
        let words = ["lorem", "ipsum", "dolor", "sit", "amet", "oracle", "redo"];
        let mut s = String::with_capacity(n + 8);
        while s.len() < n {
            s.push_str(words[rng.gen_range(0..words.len())]);
            s.push(' ');
        }
        s.truncate(n);
        s
    };
    match (ty, v) {
        (ColumnType::Blob, _) => {
            let n = rng.gen_range(4_000..12_000);
            Value::Bytes((0..n).map(|_| rng.gen()).collect())
        }
        // CLOB text is stored as UTF-16: 2,000 characters fill the row's 4,000 bytes.
        (ColumnType::Clob | ColumnType::Nclob, Value::Text(t)) => {
            let n = rng.gen_range(2_100..6_000);
            Value::Text(format!("{t} {}", pad(rng, n)).into())
        }
        (ColumnType::Json, Value::Json(t)) => {
            let mut doc: serde_json::Value =
                serde_json::from_str(t).unwrap_or(serde_json::Value::Null);
            let n = rng.gen_range(4_100..9_000);
            match doc.as_object_mut() {
                Some(o) => {
                    o.insert("pad".into(), serde_json::Value::String(pad(rng, n)));
                    Value::Json(doc.to_compact_string())
                }
                None => v.clone(),
            }
        }
        (ColumnType::Xmltype, Value::Text(t)) => {
            let n = rng.gen_range(4_100..9_000);
            let body = t.strip_suffix("</doc>").unwrap_or(t);
            Value::Text(format!("{body}<pad>{}</pad></doc>", pad(rng, n)).into())
        }
        // Declared in characters, too few for 4,000 ASCII bytes (`VARCHAR2(1500 CHAR)`, 6,000
        // bytes): three-byte characters, over 4,000 bytes within both limits.
        (
            ColumnType::Varchar2 {
                length,
                chars: Some(c),
            },
            Value::Text(_),
        ) if *length > 4001 && *c <= 4001 && *c > 1334 => {
            let n = rng.gen_range(1_335..=(*c).min(*length / 3)) as usize;
            Value::Text("日".repeat(n).into())
        }
        // ASCII: as many characters as bytes, within the declared characters too.
        (ColumnType::Varchar2 { .. } | ColumnType::Nvarchar2 { .. }, Value::Text(_))
            if ty.max_chars().is_some_and(|n| n > 4001) =>
        {
            let most = ty.max_chars().unwrap_or(4001) as usize;
            let n = rng.gen_range(4_001..=most.min(12_000));
            Value::Text(pad(rng, n).into())
        }
        _ => v.clone(),
    }
}

/// One to three DBMS_LOB calls on a non-NULL CLOB or BLOB value of `row`: a write at an
/// offset past the start, an erase, a trim. `None` when the row has no such value.
pub fn plan(
    cols: &[ColumnInfo],
    row: &[Value],
    rng: &mut ChaCha8Rng,
) -> Option<(usize, Vec<LobOp>)> {
    let candidates: Vec<usize> = cols
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            matches!(c.data_type, ColumnType::Clob | ColumnType::Blob)
                && row.get(*i).is_some_and(|v| match v {
                    Value::Text(t) => t.len() > 2,
                    Value::Bytes(b) => b.len() > 2,
                    _ => false,
                })
        })
        .map(|(i, _)| i)
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let col = candidates[rng.gen_range(0..candidates.len())];
    let blob = cols[col].data_type == ColumnType::Blob;
    let len = match &row[col] {
        Value::Text(t) => t.encode_utf16().count(),
        Value::Bytes(b) => b.len(),
        _ => 0,
    } as u64;
    let mut ops = Vec::new();
    let mut now = len;
    for _ in 0..rng.gen_range(1..=3) {
        ops.push(match rng.gen_range(0..3) {
            0 => {
                let offset = rng.gen_range(2..=now + 1);
                let data = if blob {
                    Value::Bytes((0..rng.gen_range(1..8)).map(|_| rng.gen()).collect())
                } else {
                    Value::Text("EDIT".into())
                };
                let n = match &data {
                    Value::Bytes(b) => b.len() as u64,
                    _ => 4,
                };
                now = now.max(offset - 1 + n);
                LobOp::Write {
                    col: col as u32,
                    offset,
                    data,
                }
            }
            1 => LobOp::Erase {
                col: col as u32,
                offset: rng.gen_range(1..=now.max(1)),
                amount: rng.gen_range(1..4),
            },
            _ => {
                let to = rng.gen_range(1..=now.max(1));
                now = to;
                LobOp::Trim {
                    col: col as u32,
                    len: to,
                }
            }
        });
    }
    Some((col, ops))
}
