//! A table's Arrow schema in a Parquet export, and its rows as Arrow record batches.
//!
//! Oracle types map to the Arrow types lakehouse readers expect (commands/snapshot.md,
//! "Parquet"): exact decimals as Decimal128 (integers as Int32/Int64), times as timestamps in the
//! unit their fractional seconds need, zoned times as UTC instants plus the offset where Oracle
//! keeps one, LOBs as binary or UTF-8, VECTOR as a list of Float32.
//!
//! FLOAT(p) is exact decimal text (Utf8), like an unconstrained NUMBER: Oracle's FLOAT is a
//! decimal NUMBER of up to 126 bits (38 digits) at any scale from 1E-130 to 1E125, so no
//! Decimal128(38, s) holds every value and a double keeps only 15–17 digits. Readers cast the text
//! to the decimal or double they want (`CAST(C AS DECIMAL(38,10))` in DuckDB) and see the loss, if
//! any, where they choose it. BINARY_FLOAT / BINARY_DOUBLE are IEEE floats and stay Float32/Float64.
//!
//! INTERVALs are text in the interval syntax DuckDB and PostgreSQL cast (`-3 years -6 months`,
//! `1 day 02:03:04.123456789`), not Arrow's Interval(MonthDayNano): the parquet crate cannot write
//! month-day-nano at all, and Parquet's INTERVAL logical type keeps milliseconds, which would drop
//! the digits of DAY TO SECOND(4–9). The text keeps every digit Oracle stores.

use crate::encode;
use crate::errors::{CdcError, Result};
use crate::types::{ColumnType, Value};
use arrow_array::builder::{
    BinaryBuilder, BooleanBuilder, Decimal128Builder, Float32Builder, Float64Builder, Int16Builder,
    Int32Builder, Int64Builder, ListBuilder, StringBuilder,
};
use arrow_array::{
    ArrayRef, RecordBatch, TimestampMicrosecondArray, TimestampMillisecondArray,
    TimestampNanosecondArray, TimestampSecondArray,
};
use arrow_schema::{DataType, Field, FieldRef, Schema, SchemaRef, TimeUnit};
use cdc_core::model::{ColumnInfo, FetchedRow};
use std::collections::HashMap;
use std::sync::Arc;

/// Suffix of the column that keeps a TIMESTAMP WITH TIME ZONE value's offset from UTC.
pub const OFFSET_SUFFIX: &str = "_TZ_OFFSET";

/// How one Oracle column becomes Arrow values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mapping {
    Int32,
    Int64,
    Decimal {
        precision: u8,
        scale: i8,
    },
    /// An unconstrained NUMBER (any scale): its exact decimal text.
    NumberText,
    BinaryFloat,
    BinaryDouble,
    Timestamp(TimeUnit),
    /// The UTC instant; `offset`: a second column with the offset from UTC in minutes.
    Zoned {
        unit: TimeUnit,
        offset: bool,
    },
    Text,
    /// INTERVAL YEAR TO MONTH as `-3 years -6 months`.
    IntervalYm,
    /// INTERVAL DAY TO SECOND as `-1 day -02:03:04.5`.
    IntervalDs,
    /// BFILE locators (JSON), as in records.
    RecordText,
    Binary,
    Boolean,
    Vector,
}

/// The unit fractional seconds of precision `fsp` need (Debezium's adaptive precision).
fn unit(fsp: u8) -> TimeUnit {
    match fsp {
        0..=3 => TimeUnit::Millisecond,
        4..=6 => TimeUnit::Microsecond,
        _ => TimeUnit::Nanosecond,
    }
}

fn mapping(ty: &ColumnType) -> Mapping {
    match ty {
        ColumnType::Number {
            precision: Some(p),
            scale,
        } => {
            let s = scale.unwrap_or(0);
            if s <= 0 {
                // NUMBER(p,-n) holds integers of up to p+n digits.
                let digits = i32::from(*p) - i32::from(s);
                if digits <= 9 {
                    Mapping::Int32
                } else if digits <= 18 {
                    Mapping::Int64
                } else {
                    Mapping::Decimal {
                        precision: digits.min(38) as u8,
                        scale: 0,
                    }
                }
            } else if s <= 38 {
                // NUMBER(2,5) holds 0.00099: the scale bounds the digits then.
                Mapping::Decimal {
                    precision: (*p).max(s as u8).min(38),
                    scale: s,
                }
            } else {
                Mapping::NumberText
            }
        }
        ColumnType::Number {
            precision: None,
            scale: Some(s),
        } if *s <= 38 => Mapping::Decimal {
            precision: 38,
            scale: (*s).max(0),
        },
        // FLOAT(p): any scale, up to 38 digits (see the module doc).
        ColumnType::Number { .. } | ColumnType::Float { .. } => Mapping::NumberText,
        ColumnType::BinaryFloat => Mapping::BinaryFloat,
        ColumnType::BinaryDouble => Mapping::BinaryDouble,
        // Milliseconds, not seconds: Parquet's TIMESTAMP logical type has no seconds unit, so
        // an Arrow Timestamp(second) is written as a bare INT64 that pyarrow and duckdb read
        // as a number (tests/all/parquet_readers.rs).
        ColumnType::Date => Mapping::Timestamp(TimeUnit::Millisecond),
        ColumnType::Timestamp { fsp } => Mapping::Timestamp(unit(*fsp)),
        ColumnType::TimestampTz { fsp } => Mapping::Zoned {
            unit: unit(*fsp),
            offset: true,
        },
        // Oracle stores LOCAL TIME ZONE values in the database time zone: the offset is not data.
        ColumnType::TimestampLtz { fsp } => Mapping::Zoned {
            unit: unit(*fsp),
            offset: false,
        },
        ColumnType::Varchar2 { .. }
        | ColumnType::Nvarchar2 { .. }
        | ColumnType::Char { .. }
        | ColumnType::Nchar { .. }
        | ColumnType::Long
        | ColumnType::Clob
        | ColumnType::Nclob
        | ColumnType::Rowid
        | ColumnType::Urowid
        | ColumnType::Xmltype
        | ColumnType::Json => Mapping::Text,
        ColumnType::IntervalYm { .. } => Mapping::IntervalYm,
        ColumnType::IntervalDs { .. } => Mapping::IntervalDs,
        ColumnType::Bfile | ColumnType::Other { .. } => Mapping::RecordText,
        ColumnType::Raw { .. } | ColumnType::LongRaw | ColumnType::Blob => Mapping::Binary,
        ColumnType::Boolean => Mapping::Boolean,
        ColumnType::Vector { .. } => Mapping::Vector,
    }
}

fn vector_item() -> FieldRef {
    Arc::new(Field::new("item", DataType::Float32, false))
}

fn data_type(m: Mapping) -> DataType {
    match m {
        Mapping::Int32 => DataType::Int32,
        Mapping::Int64 => DataType::Int64,
        Mapping::Decimal { precision, scale } => DataType::Decimal128(precision, scale),
        Mapping::NumberText
        | Mapping::Text
        | Mapping::RecordText
        | Mapping::IntervalYm
        | Mapping::IntervalDs => DataType::Utf8,
        Mapping::BinaryDouble => DataType::Float64,
        Mapping::BinaryFloat => DataType::Float32,
        Mapping::Timestamp(u) => DataType::Timestamp(u, None),
        Mapping::Zoned { unit, .. } => DataType::Timestamp(unit, Some("UTC".into())),
        Mapping::Binary => DataType::Binary,
        Mapping::Boolean => DataType::Boolean,
        Mapping::Vector => DataType::List(vector_item()),
    }
}

/// A table's columns as Arrow fields, and the conversion of its rows.
#[derive(Debug)]
pub struct TableLayout {
    table: String,
    columns: Vec<ColumnInfo>,
    mappings: Vec<Mapping>,
    schema: SchemaRef,
}

impl TableLayout {
    /// The columns the layout was made for.
    pub fn columns(&self) -> &[ColumnInfo] {
        &self.columns
    }

    pub fn new(table: &str, columns: &[ColumnInfo]) -> Result<TableLayout> {
        let mappings: Vec<Mapping> = columns.iter().map(|c| mapping(&c.data_type)).collect();
        let mut fields = Vec::new();
        for (c, m) in columns.iter().zip(&mappings) {
            let meta = HashMap::from([("oracle.type".to_string(), c.data_type.sql_name())]);
            fields.push(Field::new(&c.name, data_type(*m), c.nullable).with_metadata(meta));
            if let Mapping::Zoned { offset: true, .. } = m {
                let name = format!("{}{OFFSET_SUFFIX}", c.name);
                if columns.iter().any(|o| o.name == name) {
                    return Err(CdcError::ParquetColumnTaken {
                        table: table.to_string(),
                        column: c.name.clone(),
                        taken: name,
                    });
                }
                let meta = HashMap::from([("oracle.offset.of".to_string(), c.name.clone())]);
                fields.push(Field::new(name, DataType::Int16, c.nullable).with_metadata(meta));
            }
        }
        let schema = Arc::new(Schema::new(fields).with_metadata(HashMap::from([(
            "oracle.table".to_string(),
            table.to_string(),
        )])));
        Ok(TableLayout {
            table: table.to_string(),
            columns: columns.to_vec(),
            mappings,
            schema,
        })
    }

    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// The rows as one record batch.
    pub fn batch(&self, rows: &[FetchedRow]) -> Result<RecordBatch> {
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(self.schema.fields().len());
        for (i, m) in self.mappings.iter().enumerate() {
            let values = rows.iter().map(|r| r.values.get(i).unwrap_or(&Value::Null));
            self.column(i, *m, values, &mut arrays)?;
        }
        RecordBatch::try_new(self.schema.clone(), arrays).map_err(|e| CdcError::ParquetValue {
            table: self.table.clone(),
            column: String::new(),
            message: e.to_string(),
        })
    }

    fn bad(&self, i: usize, v: &Value, why: &str) -> CdcError {
        let mut shown = v.to_string();
        if shown.len() > 60 {
            let cut = (0..=60)
                .rev()
                .find(|&n| shown.is_char_boundary(n))
                .unwrap_or(0);
            shown.truncate(cut);
            shown.push('…');
        }
        CdcError::ParquetValue {
            table: self.table.clone(),
            column: self.columns[i].name.clone(),
            message: format!("{why} in {}: {shown}", self.columns[i].data_type.sql_name()),
        }
    }

    /// Append the Arrow array(s) of column `i` to `out`.
    fn column<'v>(
        &self,
        i: usize,
        m: Mapping,
        values: impl ExactSizeIterator<Item = &'v Value>,
        out: &mut Vec<ArrayRef>,
    ) -> Result<()> {
        let n = values.len();
        let wrong = |v: &Value| self.bad(i, v, "a value of another type");
        let array: ArrayRef = match m {
            Mapping::Int32 => {
                let mut b = Int32Builder::with_capacity(n);
                for v in values {
                    match v {
                        Value::Null => b.append_null(),
                        Value::Number(s) => b.append_value(
                            s.parse()
                                .map_err(|_| self.bad(i, v, "not an integer that fits 32 bits"))?,
                        ),
                        _ => return Err(wrong(v)),
                    }
                }
                Arc::new(b.finish())
            }
            Mapping::Int64 => {
                let mut b = Int64Builder::with_capacity(n);
                for v in values {
                    match v {
                        Value::Null => b.append_null(),
                        Value::Number(s) => b.append_value(
                            s.parse()
                                .map_err(|_| self.bad(i, v, "not an integer that fits 64 bits"))?,
                        ),
                        _ => return Err(wrong(v)),
                    }
                }
                Arc::new(b.finish())
            }
            Mapping::Decimal { precision, scale } => {
                let limit = 10i128.pow(u32::from(precision));
                let mut b = Decimal128Builder::with_capacity(n);
                for v in values {
                    match v {
                        Value::Null => b.append_null(),
                        Value::Number(s) => {
                            let units = decimal_units(s, scale)
                                .filter(|u| u.abs() < limit)
                                .ok_or_else(|| {
                                    self.bad(i, v, &format!("not a decimal({precision},{scale})"))
                                })?;
                            b.append_value(units);
                        }
                        _ => return Err(wrong(v)),
                    }
                }
                Arc::new(
                    b.finish()
                        .with_precision_and_scale(precision, scale)
                        .map_err(|e| self.bad(i, &Value::Null, &e.to_string()))?,
                )
            }
            Mapping::NumberText => {
                let mut b = StringBuilder::with_capacity(n, n * 8);
                for v in values {
                    match v {
                        Value::Null => b.append_null(),
                        Value::Number(s) => b.append_value(leading_zero(s)),
                        _ => return Err(wrong(v)),
                    }
                }
                Arc::new(b.finish())
            }
            Mapping::BinaryDouble => {
                let mut b = Float64Builder::with_capacity(n);
                for v in values {
                    match v {
                        Value::Null => b.append_null(),
                        Value::BinaryDouble(f) => b.append_value(*f),
                        Value::BinaryFloat(f) => b.append_value(f64::from(*f)),
                        Value::Number(s) => {
                            b.append_value(s.parse().map_err(|_| self.bad(i, v, "not a number"))?)
                        }
                        _ => return Err(wrong(v)),
                    }
                }
                Arc::new(b.finish())
            }
            Mapping::BinaryFloat => {
                let mut b = Float32Builder::with_capacity(n);
                for v in values {
                    match v {
                        Value::Null => b.append_null(),
                        Value::BinaryFloat(f) => b.append_value(*f),
                        _ => return Err(wrong(v)),
                    }
                }
                Arc::new(b.finish())
            }
            Mapping::Timestamp(u) => {
                let mut t = Vec::with_capacity(n);
                for v in values {
                    t.push(match v {
                        Value::Null => None,
                        Value::Date(s) | Value::Timestamp(s) => {
                            Some(epoch(s, u).ok_or_else(|| self.bad(i, v, "a time out of range"))?)
                        }
                        _ => return Err(wrong(v)),
                    });
                }
                timestamps(t, u, None)
            }
            Mapping::Zoned { unit: u, offset } => {
                let mut t = Vec::with_capacity(n);
                let mut offsets = Int16Builder::with_capacity(if offset { n } else { 0 });
                for v in values {
                    match v {
                        Value::Null => {
                            t.push(None);
                            offsets.append_null();
                        }
                        Value::TimestampTz(s) => {
                            let (at, minutes) =
                                zoned(s, u).ok_or_else(|| self.bad(i, v, "a time out of range"))?;
                            t.push(Some(at));
                            offsets.append_value(minutes);
                        }
                        _ => return Err(wrong(v)),
                    }
                }
                out.push(timestamps(t, u, Some("UTC")));
                if offset {
                    out.push(Arc::new(offsets.finish()));
                }
                return Ok(());
            }
            Mapping::Text => {
                let mut b = StringBuilder::with_capacity(n, n * 16);
                for v in values {
                    match v {
                        Value::Null => b.append_null(),
                        Value::Text(s) | Value::Json(s) => b.append_value(s),
                        _ => return Err(wrong(v)),
                    }
                }
                Arc::new(b.finish())
            }
            Mapping::IntervalYm | Mapping::IntervalDs => {
                let mut b = StringBuilder::with_capacity(n, n * 24);
                for v in values {
                    let text = match (m, v) {
                        (_, Value::Null) => None,
                        (Mapping::IntervalYm, Value::IntervalYm(s)) => Some(
                            interval_ym_text(s)
                                .ok_or_else(|| self.bad(i, v, "not a YEAR TO MONTH interval"))?,
                        ),
                        (Mapping::IntervalDs, Value::IntervalDs(s)) => Some(
                            interval_ds_text(s)
                                .ok_or_else(|| self.bad(i, v, "not a DAY TO SECOND interval"))?,
                        ),
                        _ => return Err(wrong(v)),
                    };
                    b.append_option(text);
                }
                Arc::new(b.finish())
            }
            Mapping::RecordText => {
                let ty = &self.columns[i].data_type;
                let mut b = StringBuilder::with_capacity(n, n * 16);
                for v in values {
                    match v {
                        Value::Null => b.append_null(),
                        _ => b.append_value(encode::to_csv(v, ty)),
                    }
                }
                Arc::new(b.finish())
            }
            Mapping::Binary => {
                let mut b = BinaryBuilder::with_capacity(n, n * 16);
                for v in values {
                    match v {
                        Value::Null => b.append_null(),
                        Value::Bytes(x) => b.append_value(x),
                        _ => return Err(wrong(v)),
                    }
                }
                Arc::new(b.finish())
            }
            Mapping::Boolean => {
                let mut b = BooleanBuilder::with_capacity(n);
                for v in values {
                    match v {
                        Value::Null => b.append_null(),
                        Value::Boolean(x) => b.append_value(*x),
                        _ => return Err(wrong(v)),
                    }
                }
                Arc::new(b.finish())
            }
            Mapping::Vector => {
                let mut b = ListBuilder::new(Float32Builder::new()).with_field(vector_item());
                for v in values {
                    match v {
                        Value::Null => b.append_null(),
                        Value::Vector(x) => {
                            b.values().append_slice(x);
                            b.append(true);
                        }
                        _ => return Err(wrong(v)),
                    }
                }
                Arc::new(b.finish())
            }
        };
        out.push(array);
        Ok(())
    }
}

fn timestamps(t: Vec<Option<i64>>, u: TimeUnit, tz: Option<&str>) -> ArrayRef {
    let tz: Option<Arc<str>> = tz.map(Arc::from);
    match u {
        TimeUnit::Second => Arc::new(TimestampSecondArray::from(t).with_timezone_opt(tz)),
        TimeUnit::Millisecond => Arc::new(TimestampMillisecondArray::from(t).with_timezone_opt(tz)),
        TimeUnit::Microsecond => Arc::new(TimestampMicrosecondArray::from(t).with_timezone_opt(tz)),
        TimeUnit::Nanosecond => Arc::new(TimestampNanosecondArray::from(t).with_timezone_opt(tz)),
    }
}

/// A `YYYY-MM-DD HH24:MI:SS[.FF]` text as a count of `u` since 1970 (None when out of range).
fn epoch(s: &str, u: TimeUnit) -> Option<i64> {
    match u {
        // DATE has whole seconds: the milliseconds divide exactly.
        TimeUnit::Second => encode::epoch(s, 3).map(|ms| ms.div_euclid(1000)),
        TimeUnit::Millisecond => encode::epoch(s, 3),
        TimeUnit::Microsecond => encode::epoch(s, 6),
        TimeUnit::Nanosecond => encode::epoch(s, 9),
    }
}

/// `2024-02-14 10:58:02.202590000 +01:00` → the UTC instant in `u` and the offset in minutes.
fn zoned(s: &str, u: TimeUnit) -> Option<(i64, i16)> {
    let t = chrono::DateTime::parse_from_str(s.trim(), "%Y-%m-%d %H:%M:%S%.f %:z").ok()?;
    let at = match u {
        TimeUnit::Second => t.timestamp(),
        TimeUnit::Millisecond => t.timestamp_millis(),
        TimeUnit::Microsecond => t.timestamp_micros(),
        TimeUnit::Nanosecond => t.timestamp_nanos_opt()?,
    };
    let minutes = i16::try_from(t.offset().local_minus_utc() / 60).ok()?;
    Some((at, minutes))
}

/// A unit's count with its name, singular for one (`1 year`, `-3 years`).
fn count(n: u64, neg: bool, unit: &str) -> String {
    let sign = if neg && n != 0 { "-" } else { "" };
    let plural = if n == 1 { "" } else { "s" };
    format!("{sign}{n} {unit}{plural}")
}

fn digits(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Oracle's `-03-06` → `-3 years -6 months`: the interval text DuckDB and PostgreSQL cast.
fn interval_ym_text(s: &str) -> Option<String> {
    let t = s.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (y, m) = body.split_once('-')?;
    let (y, m) = (digits(y)?, digits(m)?);
    if m > 11 {
        return None;
    }
    Some(format!(
        "{} {}",
        count(y, neg, "year"),
        count(m, neg, "month")
    ))
}

/// Oracle's `-001 02:03:04.560000000` → `-1 day -02:03:04.560000000`: every fractional digit
/// Oracle stores, in the interval text DuckDB and PostgreSQL cast.
fn interval_ds_text(s: &str) -> Option<String> {
    let t = s.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (d, time) = body.split_once(' ')?;
    let mut parts = time.split(':');
    let (h, mi, sec) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let (whole, fraction) = sec.split_once('.').unwrap_or((sec, ""));
    let (d, h, mi, whole) = (digits(d)?, digits(h)?, digits(mi)?, digits(whole)?);
    if h > 23 || mi > 59 || whole > 59 || !fraction.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let zero = d == 0 && h == 0 && mi == 0 && whole == 0 && fraction.bytes().all(|c| c == b'0');
    let sign = if neg && !zero { "-" } else { "" };
    let fraction = if fraction.is_empty() {
        String::new()
    } else {
        format!(".{fraction}")
    };
    Some(format!(
        "{} {sign}{h:02}:{mi:02}:{whole:02}{fraction}",
        count(d, neg && !zero, "day")
    ))
}

/// `.5` → `0.5`, `-.5` → `-0.5` (Oracle leaves the zero out; readers expect it).
fn leading_zero(s: &str) -> std::borrow::Cow<'_, str> {
    if let Some(rest) = s.strip_prefix("-.") {
        format!("-0.{rest}").into()
    } else if let Some(rest) = s.strip_prefix('.') {
        format!("0.{rest}").into()
    } else {
        s.into()
    }
}

/// The unscaled value of a decimal text at `scale` (`-1.5` at 2 → -150); None when the text
/// is not a plain decimal or has more fraction digits than the scale.
fn decimal_units(text: &str, scale: i8) -> Option<i128> {
    let t = text.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let frac = frac.trim_end_matches('0');
    if (int.is_empty() && frac.is_empty())
        || !int.bytes().chain(frac.bytes()).all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let scale = usize::try_from(scale).unwrap_or(0);
    if frac.len() > scale {
        return None;
    }
    let mut v: i128 = 0;
    for c in int.bytes().chain(frac.bytes()) {
        v = v.checked_mul(10)?.checked_add(i128::from(c - b'0'))?;
    }
    for _ in frac.len()..scale {
        v = v.checked_mul(10)?;
    }
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(t: &str) -> ColumnType {
        ColumnType::parse(t).unwrap()
    }

    #[test]
    fn oracle_types_map_to_the_arrow_types_readers_expect() {
        let cases = [
            ("NUMBER(5)", DataType::Int32),
            ("NUMBER(9)", DataType::Int32),
            ("NUMBER(10)", DataType::Int64),
            ("NUMBER(16,-2)", DataType::Int64),
            ("NUMBER(18,-2)", DataType::Decimal128(20, 0)),
            ("NUMBER(38)", DataType::Decimal128(38, 0)),
            ("NUMBER(10,2)", DataType::Decimal128(10, 2)),
            ("NUMBER(2,5)", DataType::Decimal128(5, 5)),
            ("NUMBER(*,2)", DataType::Decimal128(38, 2)),
            ("NUMBER", DataType::Utf8),
            ("FLOAT(126)", DataType::Utf8),
            ("FLOAT(1)", DataType::Utf8),
            ("BINARY_DOUBLE", DataType::Float64),
            ("BINARY_FLOAT", DataType::Float32),
            ("DATE", DataType::Timestamp(TimeUnit::Millisecond, None)),
            (
                "TIMESTAMP(3)",
                DataType::Timestamp(TimeUnit::Millisecond, None),
            ),
            (
                "TIMESTAMP(6)",
                DataType::Timestamp(TimeUnit::Microsecond, None),
            ),
            (
                "TIMESTAMP(9)",
                DataType::Timestamp(TimeUnit::Nanosecond, None),
            ),
            (
                "TIMESTAMP(6) WITH LOCAL TIME ZONE",
                DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
            ),
            ("RAW(16)", DataType::Binary),
            ("BLOB", DataType::Binary),
            ("CLOB", DataType::Utf8),
            ("JSON", DataType::Utf8),
            ("BOOLEAN", DataType::Boolean),
            ("VECTOR(3)", DataType::List(vector_item())),
            ("INTERVAL DAY(2) TO SECOND(6)", DataType::Utf8),
            ("INTERVAL YEAR(2) TO MONTH", DataType::Utf8),
        ];
        for (t, want) in cases {
            assert_eq!(data_type(mapping(&ty(t))), want, "{t}");
        }
    }

    fn col(name: &str, t: &str) -> ColumnInfo {
        ColumnInfo {
            name: name.into(),
            data_type: ty(t),
            nullable: true,
            virtual_column: false,
            hidden: false,
        }
    }

    #[test]
    fn zoned_columns_get_an_offset_column_unless_the_name_is_taken() {
        let l = TableLayout::new("T", &[col("AT", "TIMESTAMP(6) WITH TIME ZONE")]).unwrap();
        let names: Vec<&str> = l
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect();
        assert_eq!(names, ["AT", "AT_TZ_OFFSET"]);
        let b = l
            .batch(&[FetchedRow {
                rowid: Default::default(),
                values: vec![Value::TimestampTz(
                    "2024-02-14 10:58:02.202590000 +01:00".into(),
                )],
            }])
            .unwrap();
        let at = b
            .column(0)
            .as_any()
            .downcast_ref::<TimestampMicrosecondArray>();
        assert_eq!(at.map(|a| a.value(0)), Some(1_707_904_682_202_590));
        let off = b
            .column(1)
            .as_any()
            .downcast_ref::<arrow_array::Int16Array>();
        assert_eq!(off.map(|a| a.value(0)), Some(60));
        let e = TableLayout::new(
            "T",
            &[
                col("AT", "TIMESTAMP WITH TIME ZONE"),
                col("AT_TZ_OFFSET", "NUMBER(4)"),
            ],
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("CDC-6103"), "{e}");
    }

    #[test]
    fn float_values_keep_every_digit_a_double_would_lose() {
        let l = TableLayout::new("T", &[col("F", "FLOAT(126)")]).unwrap();
        let texts = [
            ".1234567890123456789012345678901234567",
            "12345678901234567890.123",
            "-.5",
            "1E+125",
        ];
        let rows: Vec<FetchedRow> = texts
            .iter()
            .map(|s| FetchedRow {
                rowid: Default::default(),
                values: vec![Value::Number((*s).into())],
            })
            .collect();
        let b = l.batch(&rows).unwrap();
        let f = b
            .column(0)
            .as_any()
            .downcast_ref::<arrow_array::StringArray>()
            .map(|a| a.iter().flatten().map(str::to_string).collect::<Vec<_>>());
        assert_eq!(
            f,
            Some(vec![
                "0.1234567890123456789012345678901234567".to_string(),
                "12345678901234567890.123".to_string(),
                "-0.5".to_string(),
                "1E+125".to_string(),
            ])
        );
        // A value of another type in a FLOAT column is CDC-6101, never a guess.
        let e = l
            .batch(&[FetchedRow {
                rowid: Default::default(),
                values: vec![Value::Text("x".into())],
            }])
            .unwrap_err();
        assert!(e.to_string().starts_with("CDC-6101"), "{e}");
    }

    #[test]
    fn intervals_are_the_text_duckdb_casts_with_every_digit() {
        assert_eq!(
            interval_ym_text("-03-06").as_deref(),
            Some("-3 years -6 months")
        );
        assert_eq!(
            interval_ym_text("+01-01").as_deref(),
            Some("1 year 1 month")
        );
        assert_eq!(
            interval_ym_text("+00-00").as_deref(),
            Some("0 years 0 months")
        );
        assert_eq!(interval_ym_text("+01-13"), None);
        assert_eq!(
            interval_ds_text("-001 02:03:04.560000000").as_deref(),
            Some("-1 day -02:03:04.560000000")
        );
        assert_eq!(
            interval_ds_text("+000 00:00:00.000000001").as_deref(),
            Some("0 days 00:00:00.000000001")
        );
        assert_eq!(
            interval_ds_text("-000 00:00:00.000000000").as_deref(),
            Some("0 days 00:00:00.000000000")
        );
        assert_eq!(
            interval_ds_text("+12 23:59:59").as_deref(),
            Some("12 days 23:59:59")
        );
        assert_eq!(interval_ds_text("+1 24:00:00"), None);
        assert_eq!(interval_ds_text("P1D"), None);
        let l = TableLayout::new("T", &[col("I", "INTERVAL DAY(2) TO SECOND(9)")]).unwrap();
        let e = l
            .batch(&[FetchedRow {
                rowid: Default::default(),
                values: vec![Value::IntervalDs("+1 99:00:00".into())],
            }])
            .unwrap_err();
        assert!(e.to_string().starts_with("CDC-6101"), "{e}");
    }

    #[test]
    fn decimals_are_exact_and_overflow_is_an_error() {
        assert_eq!(decimal_units("-1.5", 2), Some(-150));
        assert_eq!(decimal_units(".05", 2), Some(5));
        assert_eq!(decimal_units("7", 0), Some(7));
        assert_eq!(decimal_units("1.250", 2), Some(125));
        assert_eq!(decimal_units("1.255", 2), None);
        assert_eq!(decimal_units("1e5", 2), None);
        assert_eq!(decimal_units("", 2), None);
        let l = TableLayout::new("T", &[col("N", "NUMBER(3,1)")]).unwrap();
        let row = |s: &str| FetchedRow {
            rowid: Default::default(),
            values: vec![Value::Number(s.into())],
        };
        assert!(l.batch(&[row("99.9"), row("-.5")]).is_ok());
        let e = l.batch(&[row("100")]).unwrap_err().to_string();
        assert!(e.starts_with("CDC-6101: T.N:") && e.contains("100"), "{e}");
        let l = TableLayout::new("T", &[col("D", "TIMESTAMP(9)")]).unwrap();
        let e = l
            .batch(&[FetchedRow {
                rowid: Default::default(),
                values: vec![Value::Timestamp("9999-12-31 23:59:59.000000000".into())],
            }])
            .unwrap_err();
        assert!(e.to_string().contains("out of range"), "{e}");
    }
}
