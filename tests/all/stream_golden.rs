//! The stream path's bytes, pinned: the stream bench's input (and a second table of other types,
//! key changes and odd text) through buffer → decode → records → file sink, in several formats,
//! digested and compared with the digests the code before the stream path's speed work
//! (main at 7e03000) wrote. A change that makes the path faster must not change one byte.
//!
//! The one field that is not a function of the input is the envelope's processing time
//! (`value.ts_ms`/`ts_us`/`ts_ns`, read from the clock): it is replaced by zeros before digesting.
//! `STREAM_GOLDEN_DUMP=DIR` writes the normalized output there, to diff two trees' bytes.

#[allow(dead_code)]
#[path = "../../benches/support/stream_input.rs"]
mod input;

use oracle_cdc::record::format::{BinaryMode, DecimalMode, Format, IntervalMode, TimePrecision};
use oracle_cdc::sink::segment_name;

/// FNV-1a, 64 bits: stable across Rust versions (the std hasher is not promised to be).
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The line with the envelope's processing time replaced by zeros: the digits after
/// `"op":"X","ts_ms":`, `,"ts_us":` and `,"ts_ns":`.
fn normalize(line: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(line).expect("utf-8");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\"op\":\"") {
        let after_op = at + 6 + 2; // `"op":"c"`
        out.push_str(&rest[..after_op]);
        rest = &rest[after_op..];
        for field in [",\"ts_ms\":", ",\"ts_us\":", ",\"ts_ns\":"] {
            let Some(tail) = rest.strip_prefix(field) else {
                break;
            };
            out.push_str(field);
            out.push('0');
            rest = tail.trim_start_matches(|c: char| c.is_ascii_digit());
        }
    }
    out.push_str(rest);
    out.into_bytes()
}

/// (lines, bytes, digest) of the normalized output of `txs` transactions in `fmt`.
fn digest(name: &str, txs: u64, varied: bool, fmt: &Format) -> (u64, u64, u64) {
    let dir = tempfile::tempdir().unwrap();
    let written = input::run(
        input::mined(txs, varied),
        &input::catalog(varied),
        fmt,
        dir.path(),
    );
    assert_eq!(written.events, txs * input::CHANGES, "{name}: every change");
    let bytes = std::fs::read(dir.path().join(segment_name(1))).unwrap();
    let mut norm = Vec::with_capacity(bytes.len());
    let mut lines = 0;
    for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        norm.extend_from_slice(&normalize(line));
        norm.push(b'\n');
        lines += 1;
    }
    assert_eq!(lines, written.lines, "{name}: one line a record");
    if let Some(d) = std::env::var_os("STREAM_GOLDEN_DUMP") {
        std::fs::write(std::path::Path::new(&d).join(name), &norm).unwrap();
    }
    (lines, norm.len() as u64, fnv(&norm))
}

fn others() -> Format {
    Format {
        decimal: DecimalMode::String,
        time: TimePrecision::Connect,
        interval: IntervalMode::String,
        binary: BinaryMode::Hex,
        tombstones: false,
        transaction_metadata: true,
        value_schemas: false,
        ..Format::default()
    }
}

/// Name, transactions, whether the varied table is in, format, and (lines, bytes, digest).
type Case = (&'static str, u64, bool, Format, (u64, u64, u64));

#[test]
fn the_stream_paths_bytes_are_those_of_before() {
    let cases: [Case; 5] = [
        (
            "bench-default",
            400,
            false,
            Format::default(),
            (4400, 16751300, 7227503233153508540),
        ),
        (
            "varied-default",
            300,
            true,
            Format::default(),
            (3500, 14289588, 6238485396383717733),
        ),
        (
            "varied-metadata",
            300,
            true,
            Format {
                transaction_metadata: true,
                ..Format::default()
            },
            (4100, 15096688, 9620839016473164003),
        ),
        (
            "varied-others",
            300,
            true,
            others(),
            (3700, 3678300, 820951657457740463),
        ),
        (
            "varied-double-bare",
            400,
            true,
            Format {
                decimal: DecimalMode::Double,
                binary: BinaryMode::Base64UrlSafe,
                value_schemas: false,
                key_schemas: false,
                ..Format::default()
            },
            (4666, 3760127, 15624342611219574735),
        ),
    ];
    let mut wrong = Vec::new();
    for (name, txs, varied, fmt, expected) in &cases {
        let got = digest(name, *txs, *varied, fmt);
        if got != *expected {
            wrong.push(format!("{name}: got {got:?}, expected {expected:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
