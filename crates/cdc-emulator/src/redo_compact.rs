//! The compact line of an insert, as `emulator init`'s bulk load writes it: one record a line
//! like every other (record numbers, the redo index, log switches and LogMiner's RS_ID count
//! lines), and read back as the same [`Redo::Insert`] the JSON line holds, in about a third of
//! the bytes (a 10M-row load wrote 2.6 GB of JSON redo, more than the rows' checkpoint and,
//! on this disk, more time than the load itself was to take).
//!
//! `I`, then tab-separated: SCN, XID as `usn.slot.sqn`, table number, ROWID, time (ms), and one
//! field per value: a tag and the value's text (`-` NULL; `N` NUMBER, `T` text, `D` DATE, `S`
//! TIMESTAMP, `Z` TIMESTAMP WITH TIME ZONE, `Y` / `X` intervals, `J` JSON), with `\` `\t` `\n`
//! `\r` escaped by a backslash. A row with any other kind of value (bytes, floats, booleans,
//! vectors, BFILEs) is written as JSON instead. JSON lines start with `{`, so a reader tells
//! the two apart by the first byte.

use super::{Redo, Xid};
use crate::types::Value;
use cdc_core::rowid::RowId;

/// Whether every value of `row` has a compact form.
pub fn fits(row: &[Value]) -> bool {
    row.iter().all(|v| tag(v).is_some())
}

fn tag(v: &Value) -> Option<(u8, &str)> {
    Some(match v {
        Value::Null => (b'-', ""),
        Value::Number(s) => (b'N', s),
        Value::Text(s) => (b'T', s),
        Value::Date(s) => (b'D', s),
        Value::Timestamp(s) => (b'S', s),
        Value::TimestampTz(s) => (b'Z', s),
        Value::IntervalYm(s) => (b'Y', s),
        Value::IntervalDs(s) => (b'X', s),
        Value::Json(s) => (b'J', s),
        _ => return None,
    })
}

/// Decimal digits of `n`.
pub(crate) fn put_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

pub(crate) fn put_i64(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        out.push(b'-');
    }
    put_u64(out, n.unsigned_abs());
}

fn put_escaped(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    // Tab, newline and CR are below 14; most bytes are ruled out by one comparison.
    let special = |c: u8| (c < 14 && matches!(c, b'\t' | b'\n' | b'\r')) || c == b'\\';
    if !b.iter().any(|&c| special(c)) {
        out.extend_from_slice(b);
        return;
    }
    for &c in b {
        match c {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            c => out.push(c),
        }
    }
}

/// The compact line (with its newline) of an insert; `false`, and nothing written, when a
/// value has no compact form ([`fits`]).
pub fn encode_insert(
    out: &mut Vec<u8>,
    (scn, xid, tab): (u64, Xid, u32),
    rid: &RowId,
    ts: i64,
    row: &[Value],
) -> bool {
    let mut values = Vec::new();
    if !encode_values(&mut values, row) {
        return false;
    }
    let (mut tx, mut ts_text) = (Vec::new(), Vec::new());
    encode_tx(&mut tx, xid, tab);
    put_i64(&mut ts_text, ts);
    encode_head(out, scn, &tx, rid, &ts_text);
    out.extend_from_slice(&values);
    out.push(b'\n');
    true
}

/// The fields of a transaction's inserts into one table: XID and table number (with their
/// tabs), for [`encode_head`].
pub fn encode_tx(out: &mut Vec<u8>, xid: Xid, tab: u32) {
    put_u64(out, u64::from(xid.usn));
    out.push(b'.');
    put_u64(out, u64::from(xid.slot));
    out.push(b'.');
    put_u64(out, u64::from(xid.sqn));
    out.push(b'\t');
    put_u64(out, u64::from(tab));
    out.push(b'\t');
}

/// A line's fields before its values (`tx` from [`encode_tx`], `ts` the time's digits from
/// [`put_i64`]); the values ([`encode_values`]) and the newline follow.
pub fn encode_head(out: &mut Vec<u8>, scn: u64, tx: &[u8], rid: &RowId, ts: &[u8]) {
    out.extend_from_slice(b"I\t");
    put_u64(out, scn);
    out.push(b'\t');
    out.extend_from_slice(tx);
    // ROWID digits need no escapes.
    rid.encode_into(out);
    out.push(b'\t');
    out.extend_from_slice(ts);
}

/// The value fields of a line; `false` (and `out` as it was) when a value has no compact form.
pub fn encode_values(out: &mut Vec<u8>, row: &[Value]) -> bool {
    if !fits(row) {
        return false;
    }
    for v in row {
        if let Some((t, s)) = tag(v) {
            out.push(b'\t');
            out.push(t);
            put_escaped(out, s);
        }
    }
    true
}

/// Whether `line` (without its newline) is a compact insert.
pub fn is_compact(line: &[u8]) -> bool {
    line.starts_with(b"I\t")
}

fn unescape(field: &[u8]) -> Result<String, String> {
    let text = if field.contains(&b'\\') {
        let mut out = Vec::with_capacity(field.len());
        let mut it = field.iter();
        while let Some(&c) = it.next() {
            if c != b'\\' {
                out.push(c);
                continue;
            }
            out.push(match it.next() {
                Some(b'\\') => b'\\',
                Some(b't') => b'\t',
                Some(b'n') => b'\n',
                Some(b'r') => b'\r',
                _ => return Err("a bad escape in a compact insert".into()),
            });
        }
        out
    } else {
        field.to_vec()
    };
    String::from_utf8(text).map_err(|_| "a compact insert's text is not UTF-8".into())
}

fn number<T: std::str::FromStr>(field: Option<&[u8]>, what: &str) -> Result<T, String> {
    field
        .and_then(|f| std::str::from_utf8(f).ok())
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("a compact insert without a valid {what}"))
}

/// The insert a compact line (without its newline) holds.
pub fn parse_insert(line: &[u8]) -> Result<Redo, String> {
    let mut fields = line.split(|&b| b == b'\t');
    fields.next();
    let scn = number(fields.next(), "SCN")?;
    let xid_field = fields.next().ok_or("a compact insert without an XID")?;
    let mut parts = xid_field.split(|&b| b == b'.');
    let xid = Xid {
        usn: number(parts.next(), "XID")?,
        slot: number(parts.next(), "XID")?,
        sqn: number(parts.next(), "XID")?,
    };
    if parts.next().is_some() {
        return Err("a compact insert's XID has more than three parts".into());
    }
    let tab = number(fields.next(), "table number")?;
    let rid = unescape(fields.next().ok_or("a compact insert without a ROWID")?)?;
    let ts = number(fields.next(), "time")?;
    let mut after = Vec::new();
    for f in fields {
        let (&t, rest) = f
            .split_first()
            .ok_or("a compact insert's value has no tag")?;
        let text = || unescape(rest);
        after.push(match t {
            b'-' if rest.is_empty() => Value::Null,
            b'N' => Value::Number(text()?.into()),
            b'T' => Value::Text(text()?.into()),
            b'D' => Value::Date(text()?.into()),
            b'S' => Value::Timestamp(text()?.into()),
            b'Z' => Value::TimestampTz(text()?.into()),
            b'Y' => Value::IntervalYm(text()?.into()),
            b'X' => Value::IntervalDs(text()?.into()),
            b'J' => Value::Json(text()?.into()),
            t => {
                return Err(format!(
                    "a compact insert's value has the unknown tag `{}`",
                    char::from(t)
                ))
            }
        });
    }
    Ok(Redo::Insert {
        scn,
        xid,
        tab,
        rid,
        after,
        ts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compact_insert_reads_back_as_the_json_one_and_is_shorter() {
        let xid = Xid {
            usn: 3,
            slot: 47,
            sqn: 70_001,
        };
        let row = vec![
            Value::Number("-12.5".into()),
            Value::Text("tab\there\\ \"quoted\" new\nline\r é".into()),
            Value::Text(Default::default()),
            Value::Null,
            Value::Date("2024-01-02 03:04:05".into()),
            Value::Timestamp("2024-01-02 03:04:05.123456000".into()),
            Value::TimestampTz("2024-01-02 03:04:05.1 +02:00".into()),
            Value::IntervalYm("-01-02".into()),
            Value::IntervalDs("+01 02:03:04.5".into()),
            Value::Json("{\"a\":\"\\t\"}".into()),
        ];
        let mut line = Vec::new();
        let rid = RowId::decode("AAAR0IAAEAAAACAAAA").unwrap();
        assert!(encode_insert(&mut line, (123_456, xid, 2), &rid, -5, &row));
        assert_eq!(line.last(), Some(&b'\n'));
        assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1);
        let back = parse_insert(&line[..line.len() - 1]).unwrap();
        let json = Redo::Insert {
            scn: 123_456,
            xid,
            tab: 2,
            rid: "AAAR0IAAEAAAACAAAA".into(),
            after: row.clone(),
            ts: -5,
        };
        assert_eq!(back, json);
        assert!(line.len() * 2 < serde_json::to_vec(&json).unwrap().len());
        // Rows with other kinds of values stay JSON.
        let mut out = Vec::new();
        assert!(!encode_insert(
            &mut out,
            (1, xid, 0),
            &rid,
            0,
            &[Value::Bytes(vec![1])]
        ));
        assert!(out.is_empty());
        for bad in [
            &b"I\t1\t1.2\t0\tR\t0"[..],
            b"I\tx\t1.2.3\t0\tR\t0",
            b"I\t1\t1.2.3\t0\tR\t0\tQv",
            b"I\t1\t1.2.3\t0\tR\t0\tT\\q",
            b"I\t1\t1.2.3\t0\tR\t0\t",
        ] {
            assert!(
                parse_insert(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
