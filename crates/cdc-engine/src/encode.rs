//! How Oracle values appear in records and exports: Debezium's default JSON mapping where it
//! has one (`time.precision.mode=adaptive`, `binary.handling.mode=base64`,
//! `interval.handling.mode=string`), exact decimal strings for numbers that do not fit a long
//! (`decimal.handling.mode=string`). `commands/types.md` documents the table.

use crate::swar::{bytes_below, bytes_equal};
// The epoch arithmetic lives with the values it reads (`cdc_core::civil`); the record and
// export writers here use it, and others reach it through this module as before.
use crate::types::{ColumnType, Value};
use base64::Engine;
use cdc_core::civil::civil_seconds;
pub use cdc_core::civil::{epoch, epoch_ms, push_digits};
use serde_json::{json, Value as Json};

/// The record value of `v` in a column of type `ty`.
pub fn to_json(v: &Value, ty: &ColumnType) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Number(n) => number(n, ty),
        Value::Text(s) => Json::String(s.to_string()),
        Value::BinaryFloat(f) => float(f64::from(*f)),
        Value::BinaryDouble(f) => float(*f),
        Value::Date(s) => epoch(s, 3)
            .map(Json::from)
            .unwrap_or_else(|| Json::String(s.to_string())),
        Value::Timestamp(s) => epoch(s, timestamp_unit(ty))
            .map(Json::from)
            .unwrap_or_else(|| Json::String(s.to_string())),
        Value::TimestampTz(s) => {
            Json::String(zoned(s, matches!(ty, ColumnType::TimestampLtz { .. })))
        }
        Value::IntervalYm(s) => Json::String(interval_ym(s)),
        Value::IntervalDs(s) => Json::String(interval_ds(s)),
        Value::Bytes(b) => Json::String(base64::engine::general_purpose::STANDARD.encode(b)),
        Value::Boolean(b) => Json::Bool(*b),
        Value::Json(s) => serde_json::from_str(s).unwrap_or_else(|_| Json::String(s.to_string())),
        Value::Vector(v) => Json::Array(v.iter().map(|f| float(f64::from(*f))).collect()),
        Value::Bfile(b) => json!({ "directory": b.directory, "file": b.file }),
    }
}

/// A CSV cell: the JSON value, with strings bare, NULL empty, arrays and objects as JSON text.
pub fn to_csv(v: &Value, ty: &ColumnType) -> String {
    match to_json(v, ty) {
        Json::Null => String::new(),
        Json::String(s) => s,
        other => other.to_string(),
    }
}

/// Adaptive precision: milli-, micro- or nanoseconds by the timestamp's fractional digits.
fn timestamp_unit(ty: &ColumnType) -> u32 {
    match ty {
        ColumnType::Timestamp { fsp } if *fsp <= 3 => 3,
        ColumnType::Timestamp { fsp } if *fsp > 6 => 9,
        _ => 6,
    }
}

/// A NUMBER(p<=18, s<=0) value as the integer it is.
fn is_integral_type(ty: &ColumnType) -> bool {
    matches!(ty, ColumnType::Number { precision: Some(p), scale: Some(s) } if *s <= 0 && *p <= 18)
}

fn integral(n: &str, ty: &ColumnType) -> Option<i64> {
    is_integral_type(ty)
        .then(|| n.parse::<i64>().ok())
        .flatten()
}

fn number(n: &str, ty: &ColumnType) -> Json {
    if let Some(i) = integral(n, ty) {
        return Json::from(i);
    }
    // Exact decimal text, with the leading zero JSON consumers expect.
    let text = if let Some(rest) = n.strip_prefix("-.") {
        format!("-0.{rest}")
    } else if let Some(rest) = n.strip_prefix('.') {
        format!("0.{rest}")
    } else {
        n.to_string()
    };
    Json::String(text)
}

fn float(f: f64) -> Json {
    if f.is_nan() {
        Json::String("NaN".into())
    } else if f.is_infinite() {
        Json::String(if f > 0.0 { "Infinity" } else { "-Infinity" }.into())
    } else {
        serde_json::Number::from_f64(f)
            .map(Json::Number)
            .unwrap_or(Json::Null)
    }
}

/// Append the JSON object of a row to `out` without building a `serde_json::Value` for it
/// (the export's hot path); `keys` are the column names already written as `"NAME":`.
pub fn write_json_row(
    out: &mut Vec<u8>,
    keys: &[Vec<u8>],
    columns: &[cdc_core::model::ColumnInfo],
    values: &[Value],
) {
    out.push(b'{');
    for (i, ((key, c), v)) in keys.iter().zip(columns).zip(values).enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(key);
        write_json_value(out, v, &c.data_type);
    }
    out.push(b'}');
}

/// Append the record value of `v` (what [`to_json`] gives) as JSON text. Numbers, dates and
/// timestamps (most of every row) are written without building a `serde_json::Value`.
pub fn write_json_value(out: &mut Vec<u8>, v: &Value, ty: &ColumnType) {
    if let Value::Date(s) = v {
        if let Some(secs) = civil_seconds(s.as_bytes()) {
            write_seconds_as_ms(out, secs);
            return;
        }
    }
    match fast(v, ty) {
        Some(Fast::Null) => out.extend_from_slice(b"null"),
        Some(Fast::Int(i)) => out.extend_from_slice(itoa::Buffer::new().format(i).as_bytes()),
        Some(Fast::Digits(d)) => out.extend_from_slice(d.as_bytes()),
        Some(Fast::Str(prefix, s)) => {
            out.push(b'"');
            out.extend_from_slice(prefix.as_bytes());
            write_json_str_body(out, s);
            out.push(b'"');
        }
        None => out.extend_from_slice(to_json(v, ty).to_string().as_bytes()),
    }
}

/// Append the CSV cell of `v` (what [`to_csv`] gives), quoted as the `csv` crate's default
/// writer quotes it (a field holding `,` `"` CR or LF is quoted, its quotes doubled).
pub fn write_csv_value(out: &mut Vec<u8>, v: &Value, ty: &ColumnType) {
    write_csv_cell(out, v, CsvColumn::of(ty), ty);
}

/// What a CSV cell's writing needs to know of its column's type, decided once per column
/// rather than per cell: exactly the two things [`fast`] asks of the type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CsvColumn {
    integral: bool,
    timestamp_unit: u32,
    /// DATE and TIMESTAMP cells as ISO-8601 text with this many fractional digits (the
    /// column's precision), instead of epoch integers.
    iso_fraction: Option<u8>,
}

impl CsvColumn {
    /// The record encoding: DATE and TIMESTAMP as epoch integers.
    pub fn of(ty: &ColumnType) -> CsvColumn {
        CsvColumn {
            integral: is_integral_type(ty),
            timestamp_unit: timestamp_unit(ty),
            iso_fraction: None,
        }
    }

    /// DATE and TIMESTAMP as ISO-8601 text (`2024-02-14T10:58:02.202590`), what spreadsheets,
    /// pandas and duckdb read as times; everything else as [`CsvColumn::of`].
    pub fn iso(ty: &ColumnType) -> CsvColumn {
        CsvColumn {
            iso_fraction: Some(match ty {
                ColumnType::Timestamp { fsp } => *fsp,
                _ => 0,
            }),
            ..CsvColumn::of(ty)
        }
    }
}

/// How a CSV export writes DATE and TIMESTAMP cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CsvTimes {
    /// ISO-8601 civil time, no zone (Oracle's DATE and TIMESTAMP have none).
    #[default]
    Iso,
    /// Epoch milli-, micro- or nanoseconds, as records carry them.
    Epoch,
}

/// `2024-02-14 10:58:02.202590000` → `2024-02-14T10:58:02.202590` with `fraction` digits
/// (never cutting a digit that is not zero: the text stays exact). A text not in the canonical
/// `YYYY-MM-DD HH24:MI:SS[.FF]` shape is returned as it is.
pub fn iso_time(s: &str, fraction: u8) -> std::borrow::Cow<'_, str> {
    let b = s.as_bytes();
    let shaped = b.len() >= 19
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b' '
        && b[13] == b':'
        && b[16] == b':'
        && (b.len() == 19 || b[19] == b'.');
    if !shaped {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(b.len());
    out.push_str(&s[..10]);
    out.push('T');
    out.push_str(&s[11..19]);
    if let Some(digits) = s.get(20..) {
        let significant = digits.trim_end_matches('0').len();
        let n = significant.max(usize::from(fraction)).min(digits.len());
        if n > 0 {
            out.push('.');
            out.push_str(&digits[..n]);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// [`to_csv`] with DATE and TIMESTAMP as ISO-8601 text.
pub fn to_csv_iso(v: &Value, ty: &ColumnType) -> String {
    let fraction = match ty {
        ColumnType::Timestamp { fsp } => *fsp,
        _ => 0,
    };
    match v {
        Value::Date(s) | Value::Timestamp(s) => iso_time(s, fraction).into_owned(),
        _ => to_csv(v, ty),
    }
}

/// [`CsvColumn`]s of a table, for [`write_csv_row_with`].
pub fn csv_columns(columns: &[cdc_core::model::ColumnInfo]) -> Vec<CsvColumn> {
    columns
        .iter()
        .map(|c| CsvColumn::of(&c.data_type))
        .collect()
}

/// [`write_csv_value`] with the column's [`CsvColumn`] already known. The values most tables
/// hold (text, numbers, dates) are written straight from their text; the rest through [`fast`]
/// or [`to_csv`].
#[inline]
fn write_csv_cell(out: &mut Vec<u8>, v: &Value, col: CsvColumn, ty: &ColumnType) {
    match v {
        Value::Null => {}
        Value::Text(t) => write_csv_text(out, "", t),
        // Digits and a minus sign never need quotes.
        Value::Number(n) if col.integral && canonical_integer(n) => {
            out.extend_from_slice(n.as_bytes())
        }
        // What `number` gives for a type that is not integral: the text, `.5` as `0.5`.
        Value::Number(n) if !col.integral => match (n.strip_prefix("-."), n.strip_prefix('.')) {
            (Some(rest), _) => write_csv_text(out, "-0.", rest),
            (None, Some(rest)) => write_csv_text(out, "0.", rest),
            (None, None) => write_csv_text(out, "", n),
        },
        Value::Date(s) | Value::Timestamp(s) if col.iso_fraction.is_some() => {
            write_csv_text(out, "", &iso_time(s, col.iso_fraction.unwrap_or(0)))
        }
        // A DATE has no fraction: its milliseconds are its seconds and `000`.
        Value::Date(s) => match civil_seconds(s.as_bytes()) {
            Some(secs) => write_seconds_as_ms(out, secs),
            None => match epoch(s, 3) {
                Some(ms) => write_int(out, ms),
                None => write_csv_text(out, "", s),
            },
        },
        Value::Timestamp(s) => match epoch(s, col.timestamp_unit) {
            Some(t) => write_int(out, t),
            None => write_csv_text(out, "", s),
        },
        _ => match fast(v, ty) {
            Some(Fast::Null) => {}
            Some(Fast::Int(i)) => write_int(out, i),
            Some(Fast::Digits(d)) => out.extend_from_slice(d.as_bytes()),
            Some(Fast::Str(prefix, s)) => write_csv_text(out, prefix, s),
            None => write_csv_text(out, "", &to_csv(v, ty)),
        },
    }
}

/// An integer's decimal digits.
#[inline]
pub(crate) fn write_int(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// `00` to `99`, for writing two digits at a time.
const DIGIT_PAIRS: [u8; 200] = {
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// Append the milliseconds of a DATE, `secs` and `000` (it has no fraction).
#[inline]
fn write_seconds_as_ms(out: &mut Vec<u8>, secs: i64) {
    match u64::try_from(secs) {
        // 2001-09-09 to 2286: ten digits, in a fixed-size copy rather than itoa's.
        Ok(mut n @ 1_000_000_000..=9_999_999_999) => {
            let mut text = *b"0000000000000";
            for i in (0..5).rev() {
                let pair = (n % 100) as usize * 2;
                n /= 100;
                text[2 * i] = DIGIT_PAIRS[pair];
                text[2 * i + 1] = DIGIT_PAIRS[pair + 1];
            }
            out.extend_from_slice(&text);
        }
        _ => {
            write_int(out, secs);
            if secs != 0 {
                out.extend_from_slice(b"000");
            }
        }
    }
}

/// The bytes that make the `csv` crate quote a field.
const CSV_QUOTED: [bool; 256] = {
    let mut t = [false; 256];
    t[b',' as usize] = true;
    t[b'"' as usize] = true;
    t[b'\r' as usize] = true;
    t[b'\n' as usize] = true;
    t
};

/// Whether the `csv` crate quotes a field holding `s`.
#[inline]
fn csv_needs_quotes(s: &[u8]) -> bool {
    if s.len() < 8 {
        // A lookup and an OR per byte, no branch: faster than an early-exit scan.
        return s.iter().fold(false, |q, &b| q | CSV_QUOTED[usize::from(b)]);
    }
    // Eight bytes at a time, the last eight overlapping the others.
    let special = |w: u64| {
        (bytes_equal(w, b',')
            | bytes_equal(w, b'"')
            | bytes_equal(w, b'\r')
            | bytes_equal(w, b'\n'))
            != 0
    };
    let word = |c: &[u8]| {
        let mut a = [0u8; 8];
        a.copy_from_slice(c);
        u64::from_le_bytes(a)
    };
    let chunks = s.chunks_exact(8);
    let last = word(&s[s.len() - 8..]);
    chunks.fold(special(last), |q, c| q | special(word(c)))
}

/// Append the CSV field `prefix` + `s`, quoted when it holds `,` `"` CR or LF (`prefix` is
/// one of `""`, `"0."`, `"-0."`, which never do).
#[inline]
fn write_csv_text(out: &mut Vec<u8>, prefix: &str, s: &str) {
    if !csv_needs_quotes(s.as_bytes()) {
        out.extend_from_slice(prefix.as_bytes());
        out.extend_from_slice(s.as_bytes());
        return;
    }
    out.push(b'"');
    out.extend_from_slice(prefix.as_bytes());
    let mut parts = s.as_bytes().split(|&b| b == b'"');
    if let Some(first) = parts.next() {
        out.extend_from_slice(first);
    }
    for part in parts {
        out.extend_from_slice(b"\"\"");
        out.extend_from_slice(part);
    }
    out.push(b'"');
}

/// Append one CSV record of a row and its line end, byte for byte what `csv::Writer` writes
/// (a record with no bytes at all is written as `""`).
pub fn write_csv_row(out: &mut Vec<u8>, columns: &[cdc_core::model::ColumnInfo], values: &[Value]) {
    write_csv_row_with(out, &csv_columns(columns), columns, values);
}

/// [`write_csv_row`] for every row of a chunk, the columns' [`CsvColumn`]s made once; each
/// row is freed as soon as it is written, while its memory is still in the cache (freeing a
/// whole chunk afterwards was a quarter of the CSV export's time).
pub fn write_csv_rows(
    out: &mut Vec<u8>,
    columns: &[cdc_core::model::ColumnInfo],
    rows: Vec<cdc_core::model::FetchedRow>,
) {
    write_csv_rows_with(out, columns, rows, CsvTimes::Epoch)
}

/// [`write_csv_rows`] with the times written as `times` says (the export's choice).
pub fn write_csv_rows_with(
    out: &mut Vec<u8>,
    columns: &[cdc_core::model::ColumnInfo],
    mut rows: Vec<cdc_core::model::FetchedRow>,
    times: CsvTimes,
) {
    let kinds: Vec<CsvColumn> = match times {
        CsvTimes::Epoch => csv_columns(columns),
        CsvTimes::Iso => columns
            .iter()
            .map(|c| CsvColumn::iso(&c.data_type))
            .collect(),
    };
    for i in 0..rows.len() {
        prefetch_ahead(&rows, i);
        let row = std::mem::take(&mut rows[i]);
        write_csv_row_with(out, &kinds, columns, &row.values);
    }
}

/// Ask the CPU for the rows a few places ahead of row `i`: a chunk's rows and their values are
/// separate heap blocks, far apart after the driver's allocations and frees, and waiting for
/// each was most of a text cell's time in the snapshot benchmark (a median 1.78× → 1.54× the
/// plain write for CSV). The values' blocks 6 rows ahead, their texts 3 rows ahead (whose
/// blocks, asked for 3 rows ago, are by then in the cache).
#[inline(always)]
fn prefetch_ahead(rows: &[cdc_core::model::FetchedRow], i: usize) {
    if let Some(ahead) = rows.get(i + 6) {
        let p = ahead.values.as_ptr().cast::<u8>();
        let bytes = std::mem::size_of_val(ahead.values.as_slice());
        for line in (0..bytes).step_by(64) {
            prefetch(p.wrapping_add(line));
        }
    }
    if let Some(ahead) = rows.get(i + 3) {
        for v in &ahead.values {
            if let Value::Text(s) | Value::Number(s) | Value::Date(s) | Value::Timestamp(s) = v {
                prefetch(s.as_ptr());
            }
        }
    }
}

#[inline(always)]
fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it reads nothing and never faults, whatever the
    // address (this one is always inside or at the end of a live allocation anyway).
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// [`write_csv_row`] with the table's [`csv_columns`] made once (the export's hot path).
pub fn write_csv_row_with(
    out: &mut Vec<u8>,
    kinds: &[CsvColumn],
    columns: &[cdc_core::model::ColumnInfo],
    values: &[Value],
) {
    let start = out.len();
    for (i, ((k, c), v)) in kinds.iter().zip(columns).zip(values).enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_csv_cell(out, v, *k, &c.data_type);
    }
    if out.len() == start {
        out.extend_from_slice(b"\"\"");
    }
    out.push(b'\n');
}

/// A record value that needs no `serde_json::Value`: null, an integer, or a string (a prefix
/// and the rest, so `.5` becomes `0.5` without allocating).
enum Fast<'a> {
    Null,
    Int(i64),
    /// An integer's text that is already what `Int` would print (no parse and print back).
    Digits(&'a str),
    Str(&'static str, &'a str),
}

/// `n` as Oracle prints an integer that fits i64 (`0`, `-12`, no leading zeros or sign `+`):
/// written as it is, it is byte for byte what parsing and printing it gives.
fn canonical_integer(n: &str) -> bool {
    let digits = n.strip_prefix('-').unwrap_or(n).as_bytes();
    match digits {
        [] => false,
        [b'0'] => digits.len() == n.len(),
        [first, ..] => {
            *first != b'0' && digits.len() <= 18 && digits.iter().all(u8::is_ascii_digit)
        }
    }
}

fn fast<'a>(v: &'a Value, ty: &ColumnType) -> Option<Fast<'a>> {
    Some(match v {
        Value::Null => Fast::Null,
        Value::Text(t) => Fast::Str("", t),
        // The same value `number` gives.
        Value::Number(n) if is_integral_type(ty) && canonical_integer(n) => Fast::Digits(n),
        Value::Number(n) => match integral(n, ty) {
            Some(i) => Fast::Int(i),
            None => match (n.strip_prefix("-."), n.strip_prefix('.')) {
                (Some(rest), _) => Fast::Str("-0.", rest),
                (None, Some(rest)) => Fast::Str("0.", rest),
                (None, None) => Fast::Str("", n),
            },
        },
        Value::Date(s) => match epoch(s, 3) {
            Some(ms) => Fast::Int(ms),
            None => Fast::Str("", s),
        },
        Value::Timestamp(s) => match epoch(s, timestamp_unit(ty)) {
            Some(t) => Fast::Int(t),
            None => Fast::Str("", s),
        },
        _ => return None,
    })
}

/// The JSON object key `"NAME":` of a column.
pub fn json_key(name: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(name.len() + 3);
    write_json_str(&mut k, name);
    k.push(b':');
    k
}

/// Append `s` as a JSON string.
pub fn write_json_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    write_json_str_body(out, s);
    out.push(b'"');
}

/// Append `s` escaped for the inside of a JSON string.
pub fn write_json_str_body(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    // Most text needs no escape: said of the whole string first, in words read in place (no
    // padded copy of the last few bytes), and the string written in one copy.
    if !may_need_escape_any(bytes) {
        out.extend_from_slice(bytes);
        return;
    }
    // Bytes before `start` are written; eight bytes are checked at a time (the last few padded
    // with a byte that needs no escape), and only a word that may hold one is looked at byte
    // by byte. Most text holds none: a record's dozens of short strings were a sixth of the
    // stream's instructions when every byte was matched.
    let mut start = 0;
    for (w, chunk) in bytes.chunks(8).enumerate() {
        let word = match <[u8; 8]>::try_from(chunk) {
            Ok(word) => word,
            Err(_) => {
                let mut word = [b'a'; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                word
            }
        };
        if !may_need_escape(u64::from_le_bytes(word)) {
            continue;
        }
        for (j, &c) in chunk.iter().enumerate() {
            let esc: Option<&[u8]> = match c {
                b'"' => Some(b"\\\""),
                b'\\' => Some(b"\\\\"),
                b'\n' => Some(b"\\n"),
                b'\r' => Some(b"\\r"),
                b'\t' => Some(b"\\t"),
                0..=0x1f => None,
                _ => continue,
            };
            let i = w * 8 + j;
            out.extend_from_slice(&bytes[start..i]);
            match esc {
                Some(e) => out.extend_from_slice(e),
                None => out.extend_from_slice(format!("\\u{c:04x}").as_bytes()),
            }
            start = i + 1;
        }
    }
    out.extend_from_slice(&bytes[start..]);
}

/// Whether any byte of `bytes` is a control character, `"` or `\\`: words of eight read in
/// place, the last one overlapping the one before; under eight bytes, two overlapping halves.
fn may_need_escape_any(bytes: &[u8]) -> bool {
    let n = bytes.len();
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let half = |at: usize| {
        let mut w = [0u8; 4];
        w.copy_from_slice(&bytes[at..at + 4]);
        u64::from(u32::from_le_bytes(w))
    };
    match n {
        8.. => {
            let mut at = 0;
            while at + 8 <= n {
                if may_need_escape(word(at)) {
                    return true;
                }
                at += 8;
            }
            at < n && may_need_escape(word(n - 8))
        }
        4..=7 => may_need_escape(half(0) | (half(n - 4) << 32)),
        _ => bytes.iter().any(|&c| c < 0x20 || c == b'"' || c == b'\\'),
    }
}

/// Whether any of the eight bytes of `x` is a control character, `"` or `\\`.
fn may_need_escape(x: u64) -> bool {
    (bytes_below(x, 0x20) | bytes_equal(x, b'"') | bytes_equal(x, b'\\')) != 0
}

/// `2024-02-14 10:58:02.202590000 +01:00` → `2024-02-14T10:58:02.20259+01:00` (LTZ in UTC: `Z`).
fn zoned(s: &str, local: bool) -> String {
    let Ok(t) = chrono::DateTime::parse_from_str(s.trim(), "%Y-%m-%d %H:%M:%S%.f %:z") else {
        return s.to_string();
    };
    if local {
        t.with_timezone(&chrono::Utc)
            .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    } else {
        t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    }
}

/// `-03-06` → `P-3Y-6M`.
fn interval_ym(s: &str) -> String {
    let t = s.trim();
    let (neg, body) = sign(t);
    let (y, m) = body.split_once('-').unwrap_or((body, "0"));
    let y: i64 = y.parse().unwrap_or(0);
    let m: i64 = m.parse().unwrap_or(0);
    let k = if neg { -1 } else { 1 };
    format!("P{}Y{}M", k * y, k * m)
}

/// `+001 02:03:04.560000` → `P1DT2H3M4.56S`.
fn interval_ds(s: &str) -> String {
    let t = s.trim();
    let (neg, body) = sign(t);
    let (d, time) = body.split_once(' ').unwrap_or((body, "00:00:00"));
    let mut parts = time.split(':');
    let h = parts.next().unwrap_or("0");
    let mi = parts.next().unwrap_or("0");
    let sec = parts.next().unwrap_or("0");
    let n = |x: &str| x.parse::<i64>().unwrap_or(0);
    let m = if neg { "-" } else { "" };
    let sec = crate::types::oracle_number_text(sec);
    let sec = if sec.starts_with('.') {
        format!("0{sec}")
    } else {
        sec
    };
    format!("P{m}{}DT{m}{}H{m}{}M{m}{sec}S", n(d), n(h), n(mi))
}

fn sign(t: &str) -> (bool, &str) {
    match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    }
}

#[cfg(test)]
mod tests;
