//! Oracle column types and column values, shared by every source and by the records.
//!
//! Values keep Oracle's own text forms for dates, timestamps and intervals (the NLS formats the
//! LogMiner session fixes, oracle-facts §5), so the emulator, the SQL_REDO renderer and the parser
//! all agree on one canonical text, and numbers keep their exact decimal text.

use crate::charset::{Charset, Charsets};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A column's Oracle data type, as `ALL_TAB_COLUMNS.DATA_TYPE` (plus precision/scale/length) says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum ColumnType {
    /// `length`: bytes (ALL_TAB_COLS.DATA_LENGTH), whatever the declaration's unit. `chars`:
    /// declared with character length semantics (`VARCHAR2(n CHAR)`, CHAR_USED 'C'), at most
    /// n characters; kept only where it limits more than the bytes do (n < `length`), so a
    /// type read back from the dictionary (CHAR_LENGTH < DATA_LENGTH) is the same.
    Varchar2 {
        length: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chars: Option<u32>,
    },
    /// Characters (national types always have character semantics).
    Nvarchar2 {
        length: u32,
    },
    /// As [`ColumnType::Varchar2`]: `length` in bytes, `chars` for `CHAR(n CHAR)`.
    Char {
        length: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chars: Option<u32>,
    },
    Nchar {
        length: u32,
    },
    /// `NUMBER(p,s)`; `precision: None` is an unconstrained NUMBER.
    Number {
        precision: Option<u8>,
        scale: Option<i8>,
    },
    Float {
        precision: u8,
    },
    BinaryFloat,
    BinaryDouble,
    Date,
    Timestamp {
        fsp: u8,
    },
    TimestampTz {
        fsp: u8,
    },
    TimestampLtz {
        fsp: u8,
    },
    IntervalYm {
        precision: u8,
    },
    IntervalDs {
        precision: u8,
        fsp: u8,
    },
    Raw {
        length: u32,
    },
    Long,
    LongRaw,
    Clob,
    Nclob,
    Blob,
    Bfile,
    Rowid,
    Urowid,
    Xmltype,
    Boolean,
    Json,
    Vector {
        dimensions: Option<u32>,
    },
    /// A type without a record mapping (object types such as MDSYS.SDO_GEOMETRY, ANYDATA,
    /// REFs, collections): tables with such a column stop with CDC-3001 unless it is excluded.
    Other {
        name: String,
    },
}

/// Bytes a character takes at most in the database character set assumed where only a
/// declaration is known (the emulator, DDL text in the redo): AL32UTF8, Oracle's default since
/// 12.2, up to 4 bytes a character.
pub const MAX_CHAR_BYTES: u32 = 4;

/// VARCHAR2's maximum size in bytes: 4,000, or 32,767 with MAX_STRING_SIZE=EXTENDED (SQL
/// Reference, "Data Types").
pub fn varchar2_max_bytes(extended: bool) -> u32 {
    if extended {
        32_767
    } else {
        4_000
    }
}

/// CHAR's maximum size in bytes, whatever MAX_STRING_SIZE says.
pub const CHAR_MAX_BYTES: u32 = 2_000;

/// A character-semantics declaration of `n` characters as its bytes (at most `max`) and the
/// character limit kept beside them (only where it limits more than the bytes).
fn char_sized(n: u32, max: u32) -> (u32, Option<u32>) {
    let bytes = n.saturating_mul(MAX_CHAR_BYTES).min(max);
    (bytes, (n < bytes).then_some(n))
}

impl ColumnType {
    /// `VARCHAR2(length)`, in bytes.
    pub const fn varchar2(length: u32) -> ColumnType {
        ColumnType::Varchar2 {
            length,
            chars: None,
        }
    }

    /// `CHAR(length)`, in bytes.
    pub const fn char(length: u32) -> ColumnType {
        ColumnType::Char {
            length,
            chars: None,
        }
    }

    /// `VARCHAR2(n CHAR)` of a database whose MAX_STRING_SIZE is EXTENDED (`extended`) or
    /// not: n characters in 4n bytes, at most the type's maximum.
    pub fn varchar2_chars(n: u32, extended: bool) -> ColumnType {
        let (length, chars) = char_sized(n, varchar2_max_bytes(extended));
        ColumnType::Varchar2 { length, chars }
    }

    /// `CHAR(n CHAR)`: n characters in 4n bytes, at most 2,000.
    pub fn char_chars(n: u32) -> ColumnType {
        let (length, chars) = char_sized(n, CHAR_MAX_BYTES);
        ColumnType::Char { length, chars }
    }

    /// The most characters a value of a character type may have (`None` for other types):
    /// the declared characters, or the bytes of a byte-semantics column (a limit every value
    /// keeps, whatever the character set).
    pub fn max_chars(&self) -> Option<u32> {
        match self {
            ColumnType::Varchar2 { length, chars } | ColumnType::Char { length, chars } => {
                Some(chars.unwrap_or(*length))
            }
            ColumnType::Nvarchar2 { length } | ColumnType::Nchar { length } => Some(*length),
            _ => None,
        }
    }

    /// The length as declared, in the declaration's unit (ALL_TAB_COLS.CHAR_LENGTH; what
    /// Oracle's JDBC driver reports as COLUMN_SIZE and Debezium's DDL parser reads): the
    /// characters of a character-semantics column, else the bytes (characters for national
    /// types). `None` for types without a length.
    pub fn declared_length(&self) -> Option<u32> {
        match self {
            ColumnType::Varchar2 { length, chars } | ColumnType::Char { length, chars } => {
                Some(chars.unwrap_or(*length))
            }
            ColumnType::Nvarchar2 { length }
            | ColumnType::Nchar { length }
            | ColumnType::Raw { length } => Some(*length),
            _ => None,
        }
    }

    /// Parse the type as written in a schema file or DDL: `NUMBER(10,2)`, `VARCHAR2(40)`,
    /// `TIMESTAMP(6) WITH TIME ZONE`, `INTERVAL DAY(2) TO SECOND(6)`, `VECTOR(3)`, in a
    /// database with MAX_STRING_SIZE=STANDARD (see [`ColumnType::parse_sized`]).
    pub fn parse(text: &str) -> Result<ColumnType, String> {
        ColumnType::parse_sized(text, false)
    }

    /// [`ColumnType::parse`] in a database whose MAX_STRING_SIZE is EXTENDED (`extended`) or
    /// not, which decides the bytes of a character-semantics declaration: `VARCHAR2(1500
    /// CHAR)` is 6,000 bytes (AL32UTF8) where strings are extended, 4,000 where not. A
    /// declaration of more characters than the type allows is ORA-00910.
    pub fn parse_sized(text: &str, extended: bool) -> Result<ColumnType, String> {
        let upper = text.trim().to_ascii_uppercase();
        let squashed: String = upper.split_whitespace().collect::<Vec<_>>().join(" ");
        let (base, args) = split_args(&squashed)?;
        let arg = |i: usize| -> Option<&str> { args.get(i).map(|s| s.as_str()) };
        let num = |i: usize, default: u32| -> Result<u32, String> {
            match arg(i) {
                None => Ok(default),
                Some(s) => s
                    .trim_end_matches(" BYTE")
                    .trim_end_matches(" CHAR")
                    .trim()
                    .parse::<u32>()
                    .map_err(|_| format!("`{s}` is not a number in type `{text}`")),
            }
        };
        let fsp = |i: usize| -> Result<u8, String> {
            let v = num(i, 6)?;
            if v > 9 {
                return Err(format!(
                    "fractional seconds precision {v} is over 9 in `{text}`"
                ));
            }
            Ok(v as u8)
        };
        // `n CHAR`: character length semantics (`n BYTE` and a bare n are bytes, as with
        // NLS_LENGTH_SEMANTICS=BYTE, the default).
        let in_chars = arg(0).is_some_and(|a| a.ends_with(" CHAR"));
        let too_long = |n: u32, max: u32| -> Result<u32, String> {
            if n > max {
                Err(format!(
                    "ORA-00910: specified length too long for its datatype: `{text}` (at most {max} characters)"
                ))
            } else {
                Ok(n)
            }
        };
        // A string or RAW column of length 0 is refused by Oracle's CREATE TABLE as it is here.
        if matches!(
            base.as_str(),
            "VARCHAR2" | "VARCHAR" | "NVARCHAR2" | "CHAR" | "NCHAR" | "RAW"
        ) && num(0, 1)? == 0
        {
            return Err(format!(
                "ORA-01723: zero-length columns are not allowed: `{text}` (the length is 1 or more)"
            ));
        }
        Ok(match base.as_str() {
            "VARCHAR2" | "VARCHAR" if in_chars => ColumnType::varchar2_chars(
                too_long(num(0, 1)?, varchar2_max_bytes(extended))?,
                extended,
            ),
            "VARCHAR2" | "VARCHAR" => ColumnType::varchar2(num(0, 4000)?),
            "NVARCHAR2" => ColumnType::Nvarchar2 {
                length: num(0, 2000)?,
            },
            "CHAR" if in_chars => ColumnType::char_chars(too_long(num(0, 1)?, CHAR_MAX_BYTES)?),
            "CHAR" => ColumnType::char(num(0, 1)?),
            "NCHAR" => ColumnType::Nchar { length: num(0, 1)? },
            "NUMBER" | "INTEGER" | "INT" | "SMALLINT" | "DECIMAL" | "NUMERIC" => {
                let integer_alias = matches!(base.as_str(), "INTEGER" | "INT" | "SMALLINT");
                let precision = match arg(0) {
                    None if integer_alias => Some(38),
                    None => None,
                    Some("*") => None,
                    Some(p) => Some(
                        p.parse::<u8>()
                            .ok()
                            .filter(|p| (1..=38).contains(p))
                            .ok_or_else(|| format!("precision `{p}` must be 1..38 in `{text}`"))?,
                    ),
                };
                let scale = match arg(1) {
                    None if integer_alias || precision.is_some() => Some(0),
                    None => None,
                    Some(s) => Some(
                        s.parse::<i8>()
                            .ok()
                            .filter(|s| (-84..=127).contains(s))
                            .ok_or_else(|| format!("scale `{s}` must be -84..127 in `{text}`"))?,
                    ),
                };
                ColumnType::Number { precision, scale }
            }
            "FLOAT" => ColumnType::Float {
                precision: num(0, 126)?.min(126) as u8,
            },
            "BINARY_FLOAT" => ColumnType::BinaryFloat,
            "BINARY_DOUBLE" => ColumnType::BinaryDouble,
            "DATE" => ColumnType::Date,
            "TIMESTAMP" => ColumnType::Timestamp { fsp: fsp(0)? },
            "TIMESTAMP WITH TIME ZONE" => ColumnType::TimestampTz { fsp: fsp(0)? },
            "TIMESTAMP WITH LOCAL TIME ZONE" => ColumnType::TimestampLtz { fsp: fsp(0)? },
            "INTERVAL YEAR TO MONTH" => ColumnType::IntervalYm {
                precision: num(0, 2)? as u8,
            },
            "INTERVAL DAY TO SECOND" => ColumnType::IntervalDs {
                precision: num(0, 2)? as u8,
                fsp: fsp(1)?,
            },
            "RAW" => ColumnType::Raw {
                length: num(0, 2000)?,
            },
            "LONG" => ColumnType::Long,
            "LONG RAW" => ColumnType::LongRaw,
            "CLOB" => ColumnType::Clob,
            "NCLOB" => ColumnType::Nclob,
            "BLOB" => ColumnType::Blob,
            "BFILE" => ColumnType::Bfile,
            "ROWID" => ColumnType::Rowid,
            "UROWID" => ColumnType::Urowid,
            "XMLTYPE" | "SYS.XMLTYPE" => ColumnType::Xmltype,
            "BOOLEAN" => ColumnType::Boolean,
            "JSON" => ColumnType::Json,
            "VECTOR" => ColumnType::Vector {
                dimensions: match arg(0) {
                    None | Some("*") => None,
                    Some(_) => Some(num(0, 0)?),
                },
            },
            // Object types are named OWNER.TYPE or are one of Oracle's own.
            other
                if other.contains('.')
                    || matches!(
                        other,
                        "SDO_GEOMETRY" | "ANYDATA" | "ANYTYPE" | "REF" | "XMLTYPE_TABLE"
                    ) =>
            {
                ColumnType::Other {
                    name: other.to_string(),
                }
            }
            other => return Err(format!("unknown Oracle type `{other}`")),
        })
    }

    /// The type as Oracle prints it in `ALL_TAB_COLUMNS.DATA_TYPE` plus its modifiers.
    pub fn sql_name(&self) -> String {
        match self {
            ColumnType::Varchar2 { chars: Some(n), .. } => format!("VARCHAR2({n} CHAR)"),
            ColumnType::Varchar2 { length, .. } => format!("VARCHAR2({length})"),
            ColumnType::Nvarchar2 { length } => format!("NVARCHAR2({length})"),
            ColumnType::Char { chars: Some(n), .. } => format!("CHAR({n} CHAR)"),
            ColumnType::Char { length, .. } => format!("CHAR({length})"),
            ColumnType::Nchar { length } => format!("NCHAR({length})"),
            ColumnType::Number {
                precision: None,
                scale: None,
            } => "NUMBER".into(),
            ColumnType::Number {
                precision: None,
                scale: Some(s),
            } => format!("NUMBER(*,{s})"),
            ColumnType::Number {
                precision: Some(p),
                scale,
            } => format!("NUMBER({p},{})", scale.unwrap_or(0)),
            ColumnType::Float { precision } => format!("FLOAT({precision})"),
            ColumnType::BinaryFloat => "BINARY_FLOAT".into(),
            ColumnType::BinaryDouble => "BINARY_DOUBLE".into(),
            ColumnType::Date => "DATE".into(),
            ColumnType::Timestamp { fsp } => format!("TIMESTAMP({fsp})"),
            ColumnType::TimestampTz { fsp } => format!("TIMESTAMP({fsp}) WITH TIME ZONE"),
            ColumnType::TimestampLtz { fsp } => format!("TIMESTAMP({fsp}) WITH LOCAL TIME ZONE"),
            ColumnType::IntervalYm { precision } => format!("INTERVAL YEAR({precision}) TO MONTH"),
            ColumnType::IntervalDs { precision, fsp } => {
                format!("INTERVAL DAY({precision}) TO SECOND({fsp})")
            }
            ColumnType::Raw { length } => format!("RAW({length})"),
            ColumnType::Long => "LONG".into(),
            ColumnType::LongRaw => "LONG RAW".into(),
            ColumnType::Clob => "CLOB".into(),
            ColumnType::Nclob => "NCLOB".into(),
            ColumnType::Blob => "BLOB".into(),
            ColumnType::Bfile => "BFILE".into(),
            ColumnType::Rowid => "ROWID".into(),
            ColumnType::Urowid => "UROWID".into(),
            ColumnType::Xmltype => "XMLTYPE".into(),
            ColumnType::Boolean => "BOOLEAN".into(),
            ColumnType::Json => "JSON".into(),
            ColumnType::Vector { dimensions: None } => "VECTOR".into(),
            ColumnType::Vector {
                dimensions: Some(d),
            } => format!("VECTOR({d})"),
            ColumnType::Other { name } => name.clone(),
        }
    }

    /// Whether a key of this type can bound snapshot chunks (spec: number, character, DATE,
    /// TIMESTAMP or RAW).
    pub fn is_chunkable_key(&self) -> bool {
        matches!(
            self,
            ColumnType::Varchar2 { .. }
                | ColumnType::Nvarchar2 { .. }
                | ColumnType::Char { .. }
                | ColumnType::Nchar { .. }
                | ColumnType::Number { .. }
                | ColumnType::Float { .. }
                | ColumnType::Date
                | ColumnType::Timestamp { .. }
                | ColumnType::Raw { .. }
        )
    }

    /// Whether records can carry values of this type.
    pub fn has_record_mapping(&self) -> bool {
        !matches!(self, ColumnType::Other { .. })
    }

    /// LOB-like columns: never in an UPDATE's WHERE, written by separate LOB rows in redo.
    pub fn is_lob(&self) -> bool {
        matches!(
            self,
            ColumnType::Clob | ColumnType::Nclob | ColumnType::Blob | ColumnType::Xmltype
        )
    }

    /// Columns supplemental logging never puts in the redo: "all columns of that row (except for
    /// LOBs, LONGs, and ADTs)" (Utilities, "Database-Level Identification Key Logging");
    /// XMLTYPE is an ADT, a native JSON column is stored as a LOB. An UPDATE that leaves such a
    /// column alone carries no value for it, whatever the logging.
    pub fn never_supplementally_logged(&self) -> bool {
        matches!(
            self,
            ColumnType::Clob
                | ColumnType::Nclob
                | ColumnType::Blob
                | ColumnType::Xmltype
                | ColumnType::Json
                | ColumnType::Long
                | ColumnType::LongRaw
                | ColumnType::Other { .. }
        ) || self.is_extended()
    }

    /// A VARCHAR2, NVARCHAR2 or RAW longer than the standard limits (4,000 bytes; NVARCHAR2
    /// 2,000 characters; RAW 2,000 bytes): allowed only with MAX_STRING_SIZE=EXTENDED, and
    /// "LogMiner treats 32 KB columns as LOBs for the purposes of supplemental logging"
    /// (Utilities 12.1, "Supported Data Types and Table Storage Attributes").
    pub fn is_extended(&self) -> bool {
        match self {
            ColumnType::Varchar2 { length, .. } => *length > 4000,
            ColumnType::Nvarchar2 { length } | ColumnType::Raw { length } => *length > 2000,
            _ => false,
        }
    }

    /// What LogMiner writes for a change of a table with a column of this type; see
    /// [`LogMinerSupport`]. `goldengate_replication` is the ENABLE_GOLDENGATE_REPLICATION
    /// parameter, which native JSON columns need.
    pub fn logminer_support(&self, goldengate_replication: bool) -> LogMinerSupport {
        match self {
            // Utilities 12.1 "Unsupported Data Types and Table Storage Attributes": "If a table
            // contains columns having any of these unsupported data types, then the entire
            // table is ignored by LogMiner" (BFILE, collections, objects with nested tables and
            // REFs).
            ColumnType::Bfile => LogMinerSupport::TableUnsupported(
                "LogMiner ignores tables with BFILE columns (Utilities, \"Unsupported Data Types\")",
            ),
            // Debezium's Oracle connector documents both as types LogMiner cannot capture, and
            // its maintainers report that their changes come as OPERATION_CODE 255 rows that
            // carry nothing of the change (debezium/debezium#6721).
            ColumnType::Boolean => LogMinerSupport::TableUnsupported(
                "LogMiner writes changes of tables with BOOLEAN columns as UNSUPPORTED rows",
            ),
            ColumnType::Vector { .. } => LogMinerSupport::TableUnsupported(
                "LogMiner writes changes of tables with VECTOR columns as UNSUPPORTED rows",
            ),
            // "For Oracle LogMiner, the JSON data type is not emitted out-of-the-box. This data
            // type requires that the Oracle GoldenGate feature be enabled, otherwise LogMiner
            // emits events for a table that uses JSON as unsupported" (Debezium
            // OracleJsonDataTypeIT; its documentation: ENABLE_GOLDENGATE_REPLICATION=TRUE).
            ColumnType::Json if !goldengate_replication => LogMinerSupport::TableUnsupported(
                "LogMiner writes changes of tables with JSON columns as UNSUPPORTED rows unless ENABLE_GOLDENGATE_REPLICATION is TRUE",
            ),
            // LogMiner writes a LONG or LONG RAW value inline only while it is short; past a
            // size threshold it writes the text 'LONG DATA' in the value's place and the data
            // in LONG DATA operations (debezium/debezium#4615, DBZ-3605: "once the character
            // or binary data length reaches a specific threshold, Oracle will re-construct
            // the SQL differently … UPDATE table set long_col = 'LONG DATA'"). Debezium's
            // Oracle connector lists both among its unsupported types (oracle.adoc,
            // "Unsupported data types"); capture does not stream them either.
            ColumnType::Long | ColumnType::LongRaw => LogMinerSupport::ColumnNotStreamed(
                "LogMiner writes a LONG or LONG RAW value past a size threshold as the text 'LONG DATA' in its place (Debezium DBZ-3605); like Debezium's Oracle connector, capture does not stream these types",
            ),
            ColumnType::Other { .. } => LogMinerSupport::NoRecordMapping,
            _ => LogMinerSupport::Streams,
        }
    }

    /// Character types a key can have (their order depends on the character set).
    pub fn is_text(&self) -> bool {
        matches!(
            self,
            ColumnType::Varchar2 { .. }
                | ColumnType::Char { .. }
                | ColumnType::Nvarchar2 { .. }
                | ColumnType::Nchar { .. }
        )
    }

    /// National character types, rendered with `UNISTR` in SQL_REDO.
    pub fn is_national(&self) -> bool {
        matches!(
            self,
            ColumnType::Nvarchar2 { .. } | ColumnType::Nchar { .. } | ColumnType::Nclob
        )
    }
}

/// Whether the changes of a table with a column of some type can be streamed from LogMiner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogMinerSupport {
    /// LogMiner writes the values: the stream carries them.
    Streams,
    /// LogMiner writes no usable row for any change of such a table (OPERATION_CODE 255,
    /// UNSUPPORTED): the table can be snapshotted, not streamed. The text says why.
    TableUnsupported(&'static str),
    /// LogMiner writes the table's changes, but not always this column's value: capture does
    /// not stream the column (a change of the table while it is captured is CDC-3008); the
    /// rest of the table streams once the column is excluded (`cdc.columns.exclude`).
    ColumnNotStreamed(&'static str),
    /// The type has no record mapping at all (object types, REFs, collections): CDC-3001.
    NoRecordMapping,
}

fn split_args(text: &str) -> Result<(String, Vec<String>), String> {
    // `TIMESTAMP(6) WITH TIME ZONE` and `INTERVAL DAY(2) TO SECOND(6)` carry their
    // arguments inside the name: pull every parenthesised group out, keep the words.
    let mut base = String::new();
    let mut args = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        let close = rest[open..]
            .find(')')
            .map(|i| open + i)
            .ok_or_else(|| format!("unbalanced parenthesis in type `{text}`"))?;
        base.push_str(&rest[..open]);
        for a in rest[open + 1..close].split(',') {
            args.push(a.trim().to_string());
        }
        rest = &rest[close + 1..];
    }
    base.push_str(rest);
    let base = base.split_whitespace().collect::<Vec<_>>().join(" ");
    Ok((base, args))
}

/// Column text held inline up to 24 bytes (numbers, dates, ROWIDs, most short texts): a
/// snapshot holds a chunk of rows at once, and one allocation per value was a sixth of its time.
pub type Str = compact_str::CompactString;
pub use compact_str::ToCompactString;

/// One column value. Text forms follow the LogMiner session's NLS settings:
/// DATE `YYYY-MM-DD HH24:MI:SS`, TIMESTAMP `YYYY-MM-DD HH24:MI:SS.FF9`,
/// TIMESTAMP WITH TIME ZONE `YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM`,
/// INTERVAL YEAR TO MONTH `+YY-MM`, INTERVAL DAY TO SECOND `+DDD HH:MI:SS.FFFFFF`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "t", content = "v")]
pub enum Value {
    Null,
    /// Exact decimal text as Oracle prints it (`-1.5`, `.15`, `7`).
    Number(Str),
    Text(Str),
    BinaryFloat(f32),
    BinaryDouble(f64),
    Date(Str),
    Timestamp(Str),
    TimestampTz(Str),
    IntervalYm(Str),
    IntervalDs(Str),
    Bytes(Vec<u8>),
    Boolean(bool),
    /// JSON document text.
    Json(Str),
    Vector(Vec<f32>),
    /// Boxed: a locator is two strings (48 bytes), which made every value 48 bytes where the
    /// others need 32, and a snapshot holds its chunks' rows as vectors of values until they
    /// are published (a 5-column row: 256 bytes of values, now 160).
    Bfile(Box<BfileLocator>),
}

/// A BFILE locator: the directory object's name and the file's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BfileLocator {
    pub directory: String,
    pub file: String,
}

/// The variants that hold their value as text (a NUMBER's, a character type's, a datetime's,
/// an interval's, a JSON document's), as one pattern binding the text to `$s`: the one list of
/// them, for [`Value::text_mut`] and `Display`.
macro_rules! text_kinds {
    ($s:ident) => {
        Value::Number($s)
            | Value::Text($s)
            | Value::Date($s)
            | Value::Timestamp($s)
            | Value::TimestampTz($s)
            | Value::IntervalYm($s)
            | Value::IntervalDs($s)
            | Value::Json($s)
    };
}

impl Value {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The text a text-carrying value holds (a NUMBER's, a character type's, a datetime's, an
    /// interval's, a JSON document's), to fill in place; `None` for the other kinds.
    pub fn text_mut(&mut self) -> Option<&mut Str> {
        match self {
            text_kinds!(s) => Some(s),
            _ => None,
        }
    }

    /// A BFILE locator value.
    pub fn bfile(directory: impl Into<String>, file: impl Into<String>) -> Value {
        Value::Bfile(Box::new(BfileLocator {
            directory: directory.into(),
            file: file.into(),
        }))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("NULL"),
            text_kinds!(s) => f.write_str(s),
            Value::BinaryFloat(v) => write!(f, "{v}"),
            Value::BinaryDouble(v) => write!(f, "{v}"),
            Value::Bytes(b) => f.write_str(&hex(b)),
            Value::Boolean(b) => write!(f, "{}", if *b { "TRUE" } else { "FALSE" }),
            Value::Vector(v) => write!(f, "{v:?}"),
            Value::Bfile(b) => write!(f, "bfilename('{}', '{}')", b.directory, b.file),
        }
    }
}

/// Oracle's comparison of two non-NULL values of one column type: numbers by value, character
/// data by bytes (NLS_COMP=BINARY), dates and timestamps by time, RAW by bytes. NULL sorts last,
/// as in an ascending ORDER BY.
pub fn compare(a: &Value, b: &Value) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Greater,
        (_, Value::Null) => Ordering::Less,
        (Value::Number(x), Value::Number(y)) => compare_decimal(x, y),
        (Value::BinaryFloat(x), Value::BinaryFloat(y)) => x.total_cmp(y),
        (Value::BinaryDouble(x), Value::BinaryDouble(y)) => x.total_cmp(y),
        (Value::Bytes(x), Value::Bytes(y)) => x.cmp(y),
        (Value::Text(x), Value::Text(y))
        | (Value::Date(x), Value::Date(y))
        | (Value::Timestamp(x), Value::Timestamp(y))
        | (Value::IntervalYm(x), Value::IntervalYm(y))
        | (Value::IntervalDs(x), Value::IntervalDs(y)) => x.as_bytes().cmp(y.as_bytes()),
        (x, y) => x.to_string().cmp(&y.to_string()),
    }
}

/// Compare two decimal texts (`-1.5`, `.15`, `12`) exactly, without floating point.
pub fn compare_decimal(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    // Plain integers as Oracle prints them (no sign, no leading zero): what `parts` below makes
    // of them is the text itself, so compare length, then digits (keys are mostly these).
    let plain =
        |s: &str| !s.starts_with('0') && !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if plain(a) && plain(b) {
        return a
            .len()
            .cmp(&b.len())
            .then_with(|| a.as_bytes().cmp(b.as_bytes()));
    }
    fn parts(s: &str) -> (bool, &str, &str) {
        let s = s.trim();
        let (neg, d) = match s.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, s.strip_prefix('+').unwrap_or(s)),
        };
        let (i, f) = d.split_once('.').unwrap_or((d, ""));
        let i = i.trim_start_matches('0');
        let f = f.trim_end_matches('0');
        let zero = i.is_empty() && f.is_empty();
        (neg && !zero, i, f)
    }
    let (na, ia, fa) = parts(a);
    let (nb, ib, fb) = parts(b);
    let magnitude = ia
        .len()
        .cmp(&ib.len())
        .then_with(|| ia.cmp(ib))
        .then_with(|| fa.cmp(fb));
    match (na, nb) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => magnitude,
        (true, true) => magnitude.reverse(),
    }
}

/// Compare key tuples column by column.
pub fn compare_keys(a: &[Value], b: &[Value]) -> std::cmp::Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = compare(x, y);
        if o != std::cmp::Ordering::Equal {
            return o;
        }
    }
    a.len().cmp(&b.len())
}

/// How a key's columns order under NLS_COMP=BINARY: each text column by the bytes of its
/// character set's encoding (the database set, or the national one for NCHAR / NVARCHAR2),
/// everything else as [`compare`] orders it. Copy and small: an index key carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyOrder {
    database: Charset,
    national: Charset,
    /// Bit i: key column i is national text.
    national_columns: u32,
}

impl Default for KeyOrder {
    /// AL32UTF8 text, no national column: [`compare_keys`]' order.
    fn default() -> Self {
        KeyOrder {
            database: Charset::Al32Utf8,
            national: Charset::Al16Utf16,
            national_columns: 0,
        }
    }
}

impl KeyOrder {
    /// The order of a key of columns of these types in a database of these character sets.
    pub fn new<'a>(
        charsets: Charsets,
        key_types: impl IntoIterator<Item = &'a ColumnType>,
    ) -> Self {
        let mut national_columns = 0u32;
        for (i, ty) in key_types.into_iter().enumerate() {
            if ty.is_national() && i < 32 {
                national_columns |= 1 << i;
            }
        }
        KeyOrder {
            database: charsets.database,
            national: charsets.national,
            national_columns,
        }
    }

    /// The character set key column `i`'s text is ordered by.
    pub fn charset(&self, i: usize) -> Charset {
        if i < 32 && self.national_columns & (1 << i) != 0 {
            self.national
        } else {
            self.database
        }
    }

    /// Whether this is UTF-8 byte order throughout ([`compare_keys`]).
    fn is_utf8(&self) -> bool {
        self.national_columns == 0
            && matches!(self.database, Charset::Al32Utf8 | Charset::Unsupported)
    }
}

/// [`compare`] with text in the BINARY order of character set `set`.
pub fn compare_in(a: &Value, b: &Value, set: Charset) -> std::cmp::Ordering {
    match (a, b) {
        (Value::Text(x), Value::Text(y)) => set.compare(x, y),
        _ => compare(a, b),
    }
}

/// [`compare_keys`] in `order`: text columns by the bytes of their character set's encoding.
pub fn compare_keys_in(a: &[Value], b: &[Value], order: KeyOrder) -> std::cmp::Ordering {
    if order.is_utf8() {
        return compare_keys(a, b);
    }
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let o = compare_in(x, y, order.charset(i));
        if o != std::cmp::Ordering::Equal {
            return o;
        }
    }
    a.len().cmp(&b.len())
}

/// Oracle's NUMBER text (the form SQL_REDO shows and `Value::Number` keeps): no `+`, no
/// leading zeros (`.15`, `-.5`), no trailing fraction zeros, `0` for zero; an exponent form
/// (`1E+40`, what Oracle prints for numbers over 40 digits) is kept, upper case.
pub fn oracle_number_text(text: &str) -> String {
    let t = text.trim();
    if t.contains(['e', 'E']) {
        return t.trim_start_matches('+').to_ascii_uppercase();
    }
    let (neg, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let int = int.trim_start_matches('0');
    let frac = frac.trim_end_matches('0');
    if int.is_empty() && frac.is_empty() {
        return "0".into();
    }
    let mut out = String::with_capacity(t.len());
    if neg {
        out.push('-');
    }
    out.push_str(int);
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// Whether `s` is already [`oracle_number_text`]'s form (then it is its own text, no copy
/// needed): an optional `-`, no leading zeros, a fraction without trailing zeros, no exponent,
/// no blanks; `0` for zero (never `-0`).
pub fn is_oracle_number_text(s: &str) -> bool {
    // One pass over the bytes: every NUMBER a driver fetches is checked (three passes were a
    // thirtieth of a thin client's export).
    let b = s.as_bytes();
    if b == b"0" {
        return true;
    }
    let body = b.strip_prefix(b"-").unwrap_or(b);
    let mut point = None;
    for (i, &c) in body.iter().enumerate() {
        match c {
            b'0'..=b'9' => {}
            b'.' if point.is_none() => point = Some(i),
            _ => return false,
        }
    }
    match point {
        None => body.first().is_some_and(|&c| c != b'0'),
        Some(at) => {
            (at == 0 || body[0] != b'0') && at + 1 < body.len() && body[body.len() - 1] != b'0'
        }
    }
}

/// [`oracle_number_text`] of a fetched number's inline text: the text itself when it is in that
/// form already (a driver's decimal text mostly is), so a fetched number costs no second copy.
pub fn into_oracle_number_str(s: Str) -> Str {
    if is_oracle_number_text(&s) {
        s
    } else {
        oracle_number_text(&s).into()
    }
}

/// Lower-case hex, as Oracle's RAWTOHEX output is shown inside `HEXTORAW('…')` in SQL_REDO.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value is 32 bytes: a snapshot holds its chunks' rows as vectors of values, and one
    /// wide variant (two strings inline) made them all 48.
    #[test]
    fn a_value_is_four_words() {
        assert_eq!(std::mem::size_of::<Value>(), 32);
    }

    /// A text is in Oracle's NUMBER form exactly when the form leaves it as it is (exponent
    /// forms aside, which the check never takes): over every text of up to four characters
    /// from the digits, the sign, the point and a blank.
    #[test]
    fn the_number_text_check_agrees_with_the_form() {
        let alphabet = ['0', '1', '5', '-', '.', ' ', '+'];
        let mut texts = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for t in &last {
                for c in alphabet {
                    next.push(format!("{t}{c}"));
                }
            }
            texts.extend(next.iter().cloned());
            last = next;
        }
        let mut forms = 0;
        for t in &texts {
            let is = is_oracle_number_text(t);
            let valid_decimal = {
                let body = t.strip_prefix('-').unwrap_or(t);
                let (int, frac) = body.split_once('.').unwrap_or((body, ""));
                !body.is_empty()
                    && body != "."
                    && int.bytes().chain(frac.bytes()).all(|c| c.is_ascii_digit())
            };
            if valid_decimal {
                assert_eq!(is, oracle_number_text(t) == *t, "{t:?}");
                forms += usize::from(is);
            } else {
                assert!(!is, "{t:?} is no decimal");
            }
        }
        assert!(forms > 100, "{forms}");
        for t in ["1E+40", "1e5", "-1E-3"] {
            assert!(!is_oracle_number_text(t), "{t}");
        }
    }

    /// Each text-carrying kind gives its text to fill; the others give none.
    #[test]
    fn text_mut_reaches_exactly_the_text_kinds() {
        let mut texts = [
            Value::Number("1".into()),
            Value::Text("a".into()),
            Value::Date("d".into()),
            Value::Timestamp("t".into()),
            Value::TimestampTz("z".into()),
            Value::IntervalYm("y".into()),
            Value::IntervalDs("s".into()),
            Value::Json("{}".into()),
        ];
        for v in &mut texts {
            let before = v.to_string();
            let s = v.text_mut().expect("a text kind");
            s.push('!');
            assert_eq!(v.to_string(), format!("{before}!"));
        }
        for mut v in [
            Value::Null,
            Value::BinaryFloat(1.0),
            Value::BinaryDouble(1.0),
            Value::Bytes(vec![1]),
            Value::Boolean(true),
            Value::Vector(vec![1.0]),
            Value::bfile("D", "f"),
        ] {
            assert!(v.text_mut().is_none(), "{v:?}");
        }
    }

    /// A boxed BFILE locator serializes as the struct variant it was (spilled transactions
    /// and saved rows written before read back the same).
    #[test]
    fn a_bfile_locator_keeps_its_serialized_form() {
        let v = Value::bfile("DATA_DIR", "a.pdf");
        let text = serde_json::to_string(&v).unwrap();
        assert_eq!(
            text,
            r#"{"t":"bfile","v":{"directory":"DATA_DIR","file":"a.pdf"}}"#
        );
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
    }

    #[test]
    fn parses_types_with_modifiers_inside_names() {
        assert_eq!(
            ColumnType::parse("timestamp(3) with time zone").unwrap(),
            ColumnType::TimestampTz { fsp: 3 }
        );
        assert_eq!(
            ColumnType::parse("INTERVAL DAY(3) TO SECOND(2)").unwrap(),
            ColumnType::IntervalDs {
                precision: 3,
                fsp: 2
            }
        );
        assert_eq!(
            ColumnType::parse("NUMBER(10)").unwrap(),
            ColumnType::Number {
                precision: Some(10),
                scale: Some(0)
            }
        );
        assert_eq!(
            ColumnType::parse("NUMBER").unwrap(),
            ColumnType::Number {
                precision: None,
                scale: None
            }
        );
        // Character semantics: n characters of up to 4 bytes (AL32UTF8), the bytes capped at
        // the type's maximum, the characters kept where they limit more.
        assert_eq!(
            ColumnType::parse("varchar2(40 char)").unwrap(),
            ColumnType::Varchar2 {
                length: 160,
                chars: Some(40)
            }
        );
        assert_eq!(
            ColumnType::parse("VARCHAR2(40 BYTE)").unwrap(),
            ColumnType::varchar2(40)
        );
        assert_eq!(
            ColumnType::parse("VARCHAR2(1500 CHAR)").unwrap(),
            ColumnType::Varchar2 {
                length: 4000,
                chars: Some(1500)
            }
        );
        let extended = ColumnType::parse_sized("VARCHAR2(1500 CHAR)", true).unwrap();
        assert_eq!(
            extended,
            ColumnType::Varchar2 {
                length: 6000,
                chars: Some(1500)
            }
        );
        assert!(extended.is_extended());
        assert!(!ColumnType::parse("VARCHAR2(1500 CHAR)")
            .unwrap()
            .is_extended());
        assert_eq!(
            ColumnType::parse("VARCHAR2(4000 CHAR)").unwrap(),
            ColumnType::varchar2(4000),
            "4,000 characters in 4,000 bytes: the bytes limit"
        );
        assert_eq!(
            ColumnType::parse("char(10 char)").unwrap(),
            ColumnType::Char {
                length: 40,
                chars: Some(10)
            }
        );
        assert_eq!(
            ColumnType::parse("CHAR(600 CHAR)").unwrap(),
            ColumnType::Char {
                length: 2000,
                chars: Some(600)
            }
        );
        for text in [
            "VARCHAR2(0)",
            "VARCHAR2(0 CHAR)",
            "NVARCHAR2(0)",
            "CHAR(0 BYTE)",
            "NCHAR(0)",
            "RAW(0)",
        ] {
            let e = ColumnType::parse(text).unwrap_err();
            assert!(e.starts_with("ORA-01723") && e.contains(text), "{e}");
        }
        assert!(ColumnType::parse("VARCHAR2(1)").is_ok());
        for text in ["VARCHAR2(4001 CHAR)", "CHAR(2001 CHAR)"] {
            let e = ColumnType::parse(text).unwrap_err();
            assert!(e.contains("ORA-00910"), "{e}");
        }
        assert!(ColumnType::parse_sized("VARCHAR2(32767 CHAR)", true).is_ok());
        let ty = ColumnType::parse("VARCHAR2(10 CHAR)").unwrap();
        assert_eq!((ty.max_chars(), ty.declared_length()), (Some(10), Some(10)));
        assert_eq!(ColumnType::varchar2(10).max_chars(), Some(10));
        assert_eq!(ColumnType::parse("LONG RAW").unwrap(), ColumnType::LongRaw);
        assert!(ColumnType::parse("NUMBER(99)").is_err());
        assert!(ColumnType::parse("TIMESTAMP(12)").is_err());
        assert!(ColumnType::parse("GEOMETRY").is_err());
        assert_eq!(
            ColumnType::parse("MDSYS.SDO_GEOMETRY").unwrap(),
            ColumnType::Other {
                name: "MDSYS.SDO_GEOMETRY".into()
            }
        );
    }

    #[test]
    fn sql_names_round_trip() {
        for t in [
            "VARCHAR2(10)",
            "VARCHAR2(10 CHAR)",
            "CHAR(3 CHAR)",
            "CHAR(3)",
            "NUMBER(12,2)",
            "NUMBER",
            "TIMESTAMP(9) WITH LOCAL TIME ZONE",
            "INTERVAL YEAR(4) TO MONTH",
            "INTERVAL DAY(2) TO SECOND(6)",
            "VECTOR(3)",
            "RAW(16)",
            "BINARY_DOUBLE",
        ] {
            let parsed = ColumnType::parse(t).unwrap();
            assert_eq!(parsed.sql_name(), t);
            assert_eq!(ColumnType::parse(&parsed.sql_name()).unwrap(), parsed);
        }
    }

    #[test]
    fn decimals_compare_by_value() {
        use std::cmp::Ordering::*;
        assert_eq!(compare_decimal("10", "9"), Greater);
        assert_eq!(compare_decimal("-10", "-9"), Less);
        assert_eq!(compare_decimal(".15", "0.150"), Equal);
        assert_eq!(compare_decimal("-.5", "0"), Less);
        assert_eq!(compare_decimal("-0", "0"), Equal);
        assert_eq!(compare_decimal("1.05", "1.5"), Less);
        assert_eq!(
            compare_keys(
                &[Value::Number("1".into()), Value::Text("b".into())],
                &[Value::Number("1".into()), Value::Text("a".into())]
            ),
            Greater
        );
        assert_eq!(compare(&Value::Null, &Value::Number("1".into())), Greater);
    }

    #[test]
    fn hex_is_lower_case() {
        assert_eq!(hex(&[0x0a, 0x0b, 0xff]), "0a0bff");
    }
}
