//! A column's value and its Kafka Connect schema in a record, as Debezium's Oracle connector
//! gives them under each mode (`OracleValueConverters`: `schemaBuilder`, `getNumericSchema`,
//! `convertDecimal`, `convertVariableScale`, `convertInterval*`, `convertTimestampWithZone`;
//! `JdbcValueConverters` for DATE/TIMESTAMP/binary; `MicroDuration.durationMicros`,
//! `Interval.toIsoString`, `ZonedTimestamp.toIsoString`, `VariableScaleDecimal`; Kafka Connect's
//! `JsonConverter` writes bytes and Decimal as base64). `commands/types.md` has the table.

use super::format::{BinaryMode, DecimalMode, Format, IntervalMode, TimePrecision};
use crate::encode::{self, write_json_value};
use crate::types::{ColumnType, Value};
use base64::Engine;
use serde_json::{json, Map, Value as Json};

/// How a NUMBER or FLOAT column is carried (Debezium's `getNumericSchema`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numeric {
    /// INT8/16/32/64: NUMBER(p,s≤0) with p − s < 19 (precise mode; only s < 0 otherwise).
    Int(u8),
    /// `Decimal` with this scale and precision.
    Decimal { scale: i32, precision: u32 },
    /// `VariableScaleDecimal`: NUMBER without precision or scale, FLOAT(p).
    Variable,
    /// `double` / `string` modes: FLOAT64 / STRING, with the column's scale when it has one
    /// (a string keeps the trailing zeros up to it).
    Special { scale: Option<i32> },
}

pub fn numeric(ty: &ColumnType, fmt: &Format) -> Option<Numeric> {
    let (precision, scale) = match ty {
        ColumnType::Number { precision, scale } => (*precision, *scale),
        ColumnType::Float { .. } => (None, None),
        _ => return None,
    };
    let Some(scale) = scale else {
        return Some(match fmt.decimal {
            DecimalMode::Precise => Numeric::Variable,
            _ => Numeric::Special { scale: None },
        });
    };
    let scale = i32::from(scale);
    let p = i32::from(precision.unwrap_or(38));
    if scale == 0 && fmt.decimal != DecimalMode::Precise {
        return Some(Numeric::Special { scale: Some(0) });
    }
    if scale <= 0 {
        let width = p - scale;
        let bits = match width {
            w if w < 3 => Some(8),
            w if w < 5 => Some(16),
            w if w < 10 => Some(32),
            w if w < 19 => Some(64),
            _ => None,
        };
        if let Some(b) = bits {
            return Some(Numeric::Int(b));
        }
    }
    Some(match fmt.decimal {
        DecimalMode::Precise => Numeric::Decimal {
            scale,
            precision: p as u32,
        },
        _ => Numeric::Special { scale: Some(scale) },
    })
}

/// A decimal as Java's `BigDecimal` holds it: sign, unscaled digits (no leading zeros; `0`
/// for zero) and scale. `text` is Oracle's: `-1.5`, `.15`, `7`, `1.5E+125`.
pub fn parse_decimal(text: &str) -> Option<(bool, String, i32)> {
    let t = text.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (mantissa, exp) = match t.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.trim_start_matches('+').parse::<i32>().ok()?),
        None => (t, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let mut digits = format!("{int}{frac}").trim_start_matches('0').to_string();
    if digits.is_empty() {
        digits.push('0');
    }
    let scale = i32::try_from(frac.len()).ok()? - exp;
    Some((neg && digits != "0", digits, scale))
}

/// The digits of the value at `scale` (more zeros, or fewer digits when the scale is lower:
/// Oracle rounded the value to its column's scale already, so nothing is lost there).
fn rescale(digits: &str, from: i32, to: i32) -> String {
    if to >= from {
        let mut d = digits.to_string();
        if d != "0" {
            d.extend(std::iter::repeat_n('0', (to - from) as usize));
        }
        d
    } else {
        let cut = (from - to) as usize;
        match digits.len().checked_sub(cut) {
            Some(n) if n > 0 => digits[..n].to_string(),
            _ => "0".into(),
        }
    }
}

/// Java's `BigInteger.toByteArray()`: the minimal big-endian two's complement bytes.
pub fn twos_complement(neg: bool, digits: &str) -> Vec<u8> {
    // Magnitude, big-endian, by repeated multiply-and-add (a NUMBER has at most 40 digits).
    let mut mag: Vec<u8> = Vec::new();
    for d in digits.bytes() {
        let mut carry = u32::from(d - b'0');
        for b in mag.iter_mut().rev() {
            let v = u32::from(*b) * 10 + carry;
            *b = (v & 0xff) as u8;
            carry = v >> 8;
        }
        while carry > 0 {
            mag.insert(0, (carry & 0xff) as u8);
            carry >>= 8;
        }
    }
    if mag.is_empty() {
        return vec![0];
    }
    if !neg {
        if mag[0] & 0x80 != 0 {
            mag.insert(0, 0);
        }
        return mag;
    }
    let mut carry = true;
    for b in mag.iter_mut().rev() {
        let (v, c) = (!*b).overflowing_add(u8::from(carry));
        *b = v;
        carry = c;
    }
    if mag[0] & 0x80 == 0 {
        mag.insert(0, 0xff);
    }
    mag
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Oracle's decimal text as `BigDecimal.toPlainString()` gives it at `scale` (when known).
fn plain(neg: bool, digits: &str, scale: i32) -> String {
    let sign = if neg { "-" } else { "" };
    if scale <= 0 {
        return format!("{sign}{}", rescale(digits, scale, 0));
    }
    let s = scale as usize;
    let padded = if digits.len() <= s {
        format!("{}{digits}", "0".repeat(s + 1 - digits.len()))
    } else {
        digits.to_string()
    };
    let (int, frac) = padded.split_at(padded.len() - s);
    format!("{sign}{int}.{frac}")
}

fn number(n: &str, kind: Numeric, fmt: &Format) -> Json {
    let Some((neg, digits, scale)) = parse_decimal(n) else {
        return Json::String(n.to_string());
    };
    match kind {
        Numeric::Int(_) => {
            let d = rescale(&digits, scale, 0);
            match d.parse::<i64>() {
                Ok(i) => Json::from(if neg { -i } else { i }),
                Err(_) => Json::String(n.to_string()),
            }
        }
        Numeric::Decimal { scale: to, .. } => {
            Json::String(b64(&twos_complement(neg, &rescale(&digits, scale, to))))
        }
        Numeric::Variable => json!({
            "scale": scale,
            "value": b64(&twos_complement(neg, &digits)),
        }),
        Numeric::Special { scale: col } => match fmt.decimal {
            DecimalMode::String => {
                let at = col.map_or(scale.max(0), |c| c.max(scale).max(0));
                Json::String(plain(neg, &rescale(&digits, scale, at), at))
            }
            _ => plain(neg, &digits, scale)
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map_or(Json::Null, Json::Number),
        },
    }
}

/// `MicroDuration.durationMicros` in the same double arithmetic (a month is 365.25 / 12 days).
fn duration_micros(months: i64, days: i64, h: i64, m: i64, s: i64, micros: i64) -> i64 {
    let days_f = months as f64 * (365.25 / 12.0) + days as f64;
    let secs = ((days_f * 24.0 + h as f64) * 60.0 + m as f64) * 60.0 + s as f64;
    (secs * 1e6 + micros as f64) as i64
}

/// `-03-06` → (negative, years, months).
fn interval_ym(s: &str) -> (i64, i64) {
    let t = s.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (y, m) = body.split_once('-').unwrap_or((body, "0"));
    let k = if neg { -1 } else { 1 };
    (
        k * y.trim().parse::<i64>().unwrap_or(0),
        k * m.trim().parse::<i64>().unwrap_or(0),
    )
}

/// `+001 02:03:04.560000` → signed days, hours, minutes, seconds, microseconds.
fn interval_ds(s: &str) -> [i64; 5] {
    let t = s.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (d, time) = body.split_once(' ').unwrap_or((body, "00:00:00"));
    let mut parts = time.split(':');
    let n = |x: Option<&str>| x.and_then(|x| x.trim().parse::<i64>().ok()).unwrap_or(0);
    let (h, mi) = (n(parts.next()), n(parts.next()));
    let sec = parts.next().unwrap_or("0");
    let (whole, frac) = sec.split_once('.').unwrap_or((sec, ""));
    // Debezium pads the fraction to six digits (`Strings.pad(…, 6, '0')`).
    let mut frac6: String = frac.chars().take(6).collect();
    while frac6.len() < 6 {
        frac6.push('0');
    }
    let k = if neg { -1 } else { 1 };
    [
        k * n(Some(d)),
        k * h,
        k * mi,
        k * whole.trim().parse::<i64>().unwrap_or(0),
        k * frac6.parse::<i64>().unwrap_or(0),
    ]
}

/// `BigDecimal.stripTrailingZeros().toPlainString()` of seconds and microseconds.
fn seconds_text(secs: i64, micros: i64) -> String {
    let total = secs * 1_000_000 + micros;
    let neg = total < 0;
    let a = total.unsigned_abs();
    let (w, f) = (a / 1_000_000, a % 1_000_000);
    let mut s = if neg { "-".to_string() } else { String::new() };
    s.push_str(&w.to_string());
    if f != 0 {
        let frac = format!("{f:06}");
        s.push('.');
        s.push_str(frac.trim_end_matches('0'));
    }
    s
}

fn interval_json(v: &Value, fmt: &Format) -> Json {
    match (v, fmt.interval) {
        (Value::IntervalYm(s), IntervalMode::Numeric) => {
            let (y, m) = interval_ym(s);
            Json::from(duration_micros(y * 12 + m, 0, 0, 0, 0, 0))
        }
        (Value::IntervalYm(s), IntervalMode::String) => {
            let (y, m) = interval_ym(s);
            Json::String(format!("P{y}Y{m}M0DT0H0M0S"))
        }
        (Value::IntervalDs(s), IntervalMode::Numeric) => {
            let [d, h, mi, sec, us] = interval_ds(s);
            Json::from(duration_micros(0, d, h, mi, sec, us))
        }
        (Value::IntervalDs(s), IntervalMode::String) => {
            let [d, h, mi, sec, us] = interval_ds(s);
            Json::String(format!("P0Y0M{d}DT{h}H{mi}M{}S", seconds_text(sec, us)))
        }
        _ => Json::Null,
    }
}

/// `ZonedTimestamp.toIsoString`: ISO-8601 with the offset (`Z` for UTC) and exactly `fsp`
/// fractional digits (none for 0); WITH LOCAL TIME ZONE in UTC.
pub fn zoned(s: &str, fsp: u8, local: bool) -> String {
    let Ok(t) = chrono::DateTime::parse_from_str(s.trim(), "%Y-%m-%d %H:%M:%S%.f %:z") else {
        return s.to_string();
    };
    let t = if local {
        t.with_timezone(&chrono::FixedOffset::east_opt(0).unwrap_or(*t.offset()))
    } else {
        t
    };
    let base = t.format("%Y-%m-%dT%H:%M:%S").to_string();
    let frac = match fsp {
        0 => {
            let n = t.timestamp_subsec_nanos();
            if n == 0 {
                String::new()
            } else {
                format!(".{}", format!("{n:09}").trim_end_matches('0'))
            }
        }
        f => format!(
            ".{}",
            &format!("{:09}", t.timestamp_subsec_nanos())[..usize::from(f.min(9))]
        ),
    };
    let off = t.offset().local_minus_utc();
    let zone = if off == 0 {
        "Z".to_string()
    } else {
        let sign = if off < 0 { '-' } else { '+' };
        let a = off.unsigned_abs();
        format!("{sign}{:02}:{:02}", a / 3600, a % 3600 / 60)
    };
    format!("{base}{frac}{zone}")
}

fn binary(b: &[u8], mode: BinaryMode) -> Json {
    Json::String(match mode {
        BinaryMode::Bytes | BinaryMode::Base64 => b64(b),
        BinaryMode::Base64UrlSafe => base64::engine::general_purpose::URL_SAFE.encode(b),
        BinaryMode::Hex => crate::types::hex(b),
    })
}

/// The record value of `v` in a column of type `ty` (the payload's, without a schema).
pub fn to_json(v: &Value, ty: &ColumnType, fmt: &Format) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Number(n) => match numeric(ty, fmt) {
            Some(kind) => number(n, kind, fmt),
            None => encode::to_json(v, ty),
        },
        Value::Timestamp(s) if fmt.time == TimePrecision::Connect => encode::epoch(s, 3)
            .map(Json::from)
            .unwrap_or_else(|| Json::String(s.to_string())),
        Value::TimestampTz(s) => {
            let (fsp, local) = match ty {
                ColumnType::TimestampTz { fsp } => (*fsp, false),
                ColumnType::TimestampLtz { fsp } => (*fsp, true),
                _ => (6, false),
            };
            Json::String(zoned(s, fsp, local))
        }
        Value::IntervalYm(_) | Value::IntervalDs(_) => interval_json(v, fmt),
        Value::Bytes(b) => binary(b, fmt.binary),
        // Debezium's `io.debezium.data.Json`: the document as text.
        Value::Json(s) => Json::String(s.to_string()),
        _ => encode::to_json(v, ty),
    }
}

/// Append the record value of `v` (what [`to_json`] gives) as JSON text; the values that are
/// the same under every mode (text, integers, DATE and adaptive TIMESTAMP) take the fast path.
pub fn write(out: &mut Vec<u8>, v: &Value, ty: &ColumnType, fmt: &Format) {
    match v {
        Value::Null | Value::Text(_) | Value::Date(_) => write_json_value(out, v, ty),
        Value::Timestamp(_) if fmt.time != TimePrecision::Connect => write_json_value(out, v, ty),
        Value::Number(n) => match numeric(ty, fmt) {
            Some(Numeric::Int(_)) if integral_text(n) => out.extend_from_slice(n.as_bytes()),
            Some(Numeric::Decimal { scale, .. }) if write_decimal(out, n, Some(scale)) => {}
            Some(Numeric::Variable) if write_decimal(out, n, None) => {}
            _ => out.extend_from_slice(to_json(v, ty, fmt).to_string().as_bytes()),
        },
        _ => out.extend_from_slice(to_json(v, ty, fmt).to_string().as_bytes()),
    }
}

/// Appends what [`number`] gives for a `Decimal` at scale `to` (`"BASE64"`) or, without `to`,
/// a `VariableScaleDecimal` (`{"scale":S,"value":"BASE64"}`), without the strings and the
/// JSON value it builds; returns false (nothing written) for text it leaves to [`number`]:
/// anything but `-?digits[.digits]` (an exponent, blanks, a `+`), or a value beyond 128 bits.
/// The bytes are the same: the unscaled value's minimal two's complement, as
/// `BigInteger.toByteArray()` (and [`twos_complement`]) give it, the digits cut, not rounded,
/// when the scale is lower (as [`rescale`] does).
fn write_decimal(out: &mut Vec<u8>, text: &str, to: Option<i32>) -> bool {
    let (neg, body) = match text.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        b => (false, b),
    };
    // The first 18 digits add up in 64 bits, which cannot overflow; 128-bit arithmetic, with its
    // checks, only past them (most values have fewer).
    let mut small: u64 = 0;
    let mut unscaled: u128 = 0;
    let (mut digits, mut frac, mut dot) = (0usize, 0i32, false);
    for &b in body {
        match b {
            b'0'..=b'9' => {
                if digits < 18 {
                    small = small * 10 + u64::from(b - b'0');
                } else {
                    if digits == 18 {
                        unscaled = u128::from(small);
                    }
                    let Some(u) = unscaled
                        .checked_mul(10)
                        .and_then(|u| u.checked_add(u128::from(b - b'0')))
                    else {
                        return false;
                    };
                    unscaled = u;
                }
                digits += 1;
                frac += i32::from(dot);
            }
            b'.' if !dot => dot = true,
            _ => return false,
        }
    }
    if digits == 0 {
        return false;
    }
    if digits <= 18 {
        unscaled = u128::from(small);
    }
    let scale = frac;
    if let Some(to) = to {
        let shift = to - scale;
        if shift >= 0 {
            match 10u128
                .checked_pow(shift as u32)
                .and_then(|p| unscaled.checked_mul(p))
            {
                Some(u) => unscaled = u,
                None => return false,
            }
        } else {
            // u128::MAX < 10^39: a cut of 39 digits or more leaves nothing.
            unscaled = 10u128
                .checked_pow(shift.unsigned_abs())
                .map_or(0, |p| unscaled / p);
        }
    }
    let Ok(magnitude) = i128::try_from(unscaled) else {
        return false;
    };
    let value = if neg { -magnitude } else { magnitude };
    let bytes = value.to_be_bytes();
    // The minimal form: the leading bytes that only repeat the sign bit kept after them are
    // dropped (one byte stays, for zero and -1).
    let sign_bits = if value < 0 {
        value.leading_ones()
    } else {
        value.leading_zeros()
    };
    let start = ((sign_bits - 1) / 8).min(15) as usize;
    let mut b64_buf = [0u8; 24];
    let Ok(n) =
        base64::engine::general_purpose::STANDARD.encode_slice(&bytes[start..], &mut b64_buf)
    else {
        return false;
    };
    match to {
        Some(_) => {
            out.push(b'"');
            out.extend_from_slice(&b64_buf[..n]);
            out.push(b'"');
        }
        None => {
            out.extend_from_slice(b"{\"scale\":");
            out.extend_from_slice(itoa::Buffer::new().format(scale).as_bytes());
            out.extend_from_slice(b",\"value\":\"");
            out.extend_from_slice(&b64_buf[..n]);
            out.extend_from_slice(b"\"}");
        }
    }
    true
}

/// An integer as Oracle prints it: written as it is, it is what parsing and printing gives.
fn integral_text(n: &str) -> bool {
    let d = n.strip_prefix('-').unwrap_or(n).as_bytes();
    match d {
        [b'0'] => d.len() == n.len(),
        [first, ..] => *first != b'0' && d.len() <= 18 && d.iter().all(u8::is_ascii_digit),
        [] => false,
    }
}

/// A Connect schema object: `type`, then `optional`, `name`, `version`, `doc`, `parameters`,
/// in JsonConverter's order (`asJsonSchema`).
pub fn connect_schema(
    ty: &str,
    optional: bool,
    name: Option<&str>,
    parameters: Option<Json>,
) -> Map<String, Json> {
    let mut m = Map::new();
    m.insert("type".into(), ty.into());
    m.insert("optional".into(), optional.into());
    if let Some(n) = name {
        m.insert("name".into(), n.into());
        m.insert("version".into(), 1.into());
    }
    if let Some(p) = parameters {
        m.insert("parameters".into(), p);
    }
    m
}

/// The Connect schema of a column's field (with `field` last, as JsonConverter writes a struct's
/// fields).
pub fn field_schema(name: &str, ty: &ColumnType, optional: bool, fmt: &Format) -> Json {
    let time = |unit_name: &'static str| match fmt.time {
        TimePrecision::Connect => ("int64", Some("org.apache.kafka.connect.data.Timestamp")),
        _ => ("int64", Some(unit_name)),
    };
    let mut m = match ty {
        ColumnType::Number { .. } | ColumnType::Float { .. } => match numeric(ty, fmt) {
            Some(Numeric::Int(bits)) => connect_schema(&format!("int{bits}"), optional, None, None),
            Some(Numeric::Decimal { scale, precision }) => connect_schema(
                "bytes",
                optional,
                Some("org.apache.kafka.connect.data.Decimal"),
                Some(
                    json!({"scale": scale.to_string(), "connect.decimal.precision": precision.to_string()}),
                ),
            ),
            Some(Numeric::Variable) | None => {
                let mut m = Map::new();
                m.insert("type".into(), "struct".into());
                m.insert(
                    "fields".into(),
                    json!([
                        {"type": "int32", "optional": false, "field": "scale"},
                        {"type": "bytes", "optional": false, "field": "value"},
                    ]),
                );
                m.insert("optional".into(), optional.into());
                m.insert(
                    "name".into(),
                    "io.debezium.data.VariableScaleDecimal".into(),
                );
                m.insert("version".into(), 1.into());
                m.insert("doc".into(), "Variable scaled decimal".into());
                m
            }
            Some(Numeric::Special { .. }) => match fmt.decimal {
                DecimalMode::String => connect_schema("string", optional, None, None),
                _ => connect_schema("double", optional, None, None),
            },
        },
        ColumnType::BinaryFloat => connect_schema("float", optional, None, None),
        ColumnType::BinaryDouble => connect_schema("double", optional, None, None),
        ColumnType::Date => {
            let (t, n) = time("io.debezium.time.Timestamp");
            connect_schema(t, optional, n, None)
        }
        ColumnType::Timestamp { fsp } => {
            let (t, n) = time(match fsp {
                0..=3 => "io.debezium.time.Timestamp",
                4..=6 => "io.debezium.time.MicroTimestamp",
                _ => "io.debezium.time.NanoTimestamp",
            });
            connect_schema(t, optional, n, None)
        }
        ColumnType::TimestampTz { .. } | ColumnType::TimestampLtz { .. } => connect_schema(
            "string",
            optional,
            Some("io.debezium.time.ZonedTimestamp"),
            None,
        ),
        ColumnType::IntervalYm { .. } | ColumnType::IntervalDs { .. } => match fmt.interval {
            IntervalMode::Numeric => connect_schema(
                "int64",
                optional,
                Some("io.debezium.time.MicroDuration"),
                None,
            ),
            IntervalMode::String => {
                connect_schema("string", optional, Some("io.debezium.time.Interval"), None)
            }
        },
        ColumnType::Raw { .. } | ColumnType::LongRaw | ColumnType::Blob => match fmt.binary {
            BinaryMode::Bytes => connect_schema("bytes", optional, None, None),
            _ => connect_schema("string", optional, None, None),
        },
        ColumnType::Boolean => connect_schema("boolean", optional, None, None),
        ColumnType::Json => connect_schema("string", optional, Some("io.debezium.data.Json"), None),
        ColumnType::Xmltype => {
            connect_schema("string", optional, Some("io.debezium.data.Xml"), None)
        }
        ColumnType::Vector { .. } => {
            let mut m = Map::new();
            m.insert("type".into(), "array".into());
            m.insert("items".into(), json!({"type": "float", "optional": false}));
            m.insert("optional".into(), optional.into());
            m.insert("name".into(), "io.debezium.data.FloatVector".into());
            m.insert("version".into(), 1.into());
            m
        }
        ColumnType::Bfile => {
            let mut m = Map::new();
            m.insert("type".into(), "struct".into());
            m.insert(
                "fields".into(),
                json!([
                    {"type": "string", "optional": false, "field": "directory"},
                    {"type": "string", "optional": false, "field": "file"},
                ]),
            );
            m.insert("optional".into(), optional.into());
            m
        }
        _ => connect_schema("string", optional, None, None),
    };
    m.insert("field".into(), name.into());
    Json::Object(m)
}

#[cfg(test)]
mod tests;
