//! Reading `logmnr.csv`: a CSV export of V$LOGMNR_CONTENTS as SQL*Plus (`SET MARKUP CSV ON`)
//! and SQLcl (`SET SQLFORMAT CSV`) write it.
//!
//! Conventions accepted: a header row naming the view's columns (any order, any case, `THREAD#`
//! or `THREAD`; columns the tool does not use are ignored); fields separated by `,`; a field may
//! be quoted with `"` and then holds `""` for a quote and may span lines (DDL and LOB_WRITE
//! blocks); an empty field is NULL; lines end with LF or CRLF; blank lines and a UTF-8 BOM are
//! skipped.

use crate::errors::{CdcError, Result};
use cdc_core::model::{op, LogMinerRow, Scn};
use std::path::{Path, PathBuf};

/// One field as read: its text, whether it was quoted, and the line it starts on.
#[derive(Debug, Clone)]
struct Field {
    text: String,
    line: u64,
}

/// One record (row) of the file with the line it starts on.
#[derive(Debug)]
struct Record {
    line: u64,
    fields: Vec<Field>,
}

fn bad(path: &Path, line: u64, column: &str, message: impl Into<String>) -> CdcError {
    CdcError::ReplayFormat {
        path: path.to_path_buf(),
        line,
        column: column.to_string(),
        message: message.into(),
    }
}

/// Split the text into records of fields.
fn records(path: &Path, text: &str) -> Result<Vec<Record>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line: u64 = 1;
    let mut fields: Vec<Field> = Vec::new();
    let mut record_line = 1;
    let mut field = String::new();
    let mut field_line = 1;
    let mut field_started = false;
    while let Some(c) = chars.next() {
        match c {
            '"' if !field_started => {
                // A quoted field: up to the closing quote; `""` is a quote.
                let start = line;
                field_started = true;
                field_line = line;
                loop {
                    match chars.next() {
                        None => {
                            return Err(bad(
                                path,
                                start,
                                &format!("field {}", fields.len() + 1),
                                "unterminated quoted field (the closing \" is missing)",
                            ))
                        }
                        Some('"') => {
                            if chars.peek() == Some(&'"') {
                                chars.next();
                                field.push('"');
                            } else {
                                break;
                            }
                        }
                        Some('\n') => {
                            line += 1;
                            field.push('\n');
                        }
                        Some(ch) => field.push(ch),
                    }
                }
                // After the closing quote: a separator, the end of the line, or spaces.
                while chars.peek() == Some(&' ') {
                    chars.next();
                }
                match chars.peek() {
                    None | Some(',') | Some('\n') | Some('\r') => {}
                    Some(other) => {
                        return Err(bad(
                            path,
                            line,
                            &format!("field {}", fields.len() + 1),
                            format!("unexpected `{other}` after a closing quote (a quote inside a quoted field must be doubled)"),
                        ))
                    }
                }
            }
            ',' => {
                fields.push(Field {
                    text: std::mem::take(&mut field),
                    line: field_line,
                });
                field_started = false;
                field_line = line;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                if field_started || !fields.is_empty() || !field.is_empty() {
                    fields.push(Field {
                        text: std::mem::take(&mut field),
                        line: field_line,
                    });
                    out.push(Record {
                        line: record_line,
                        fields: std::mem::take(&mut fields),
                    });
                }
                field_started = false;
                line += 1;
                record_line = line;
                field_line = line;
            }
            ch => {
                if !field_started {
                    field_started = true;
                    field_line = line;
                }
                field.push(ch);
            }
        }
    }
    if field_started || !fields.is_empty() || !field.is_empty() {
        fields.push(Field {
            text: field,
            line: field_line,
        });
        out.push(Record {
            line: record_line,
            fields,
        });
    }
    Ok(out)
}

/// The V$LOGMNR_CONTENTS columns read, by the name in the header (`#` and case ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Scn,
    CommitScn,
    StartScn,
    Timestamp,
    CommitTimestamp,
    Xid,
    XidUsn,
    XidSlt,
    XidSqn,
    OperationCode,
    Operation,
    SegOwner,
    TableName,
    RowId,
    SqlRedo,
    Csf,
    Rollback,
    RsId,
    Ssn,
    Thread,
    Sequence,
    Status,
    Info,
    SrcConName,
    Username,
    DataObj,
}

const COLUMNS: &[(&str, Col)] = &[
    ("SCN", Col::Scn),
    ("COMMIT_SCN", Col::CommitScn),
    ("START_SCN", Col::StartScn),
    ("TIMESTAMP", Col::Timestamp),
    ("COMMIT_TIMESTAMP", Col::CommitTimestamp),
    ("XID", Col::Xid),
    ("XIDUSN", Col::XidUsn),
    ("XIDSLT", Col::XidSlt),
    ("XIDSQN", Col::XidSqn),
    ("OPERATION_CODE", Col::OperationCode),
    ("OPERATION", Col::Operation),
    ("SEG_OWNER", Col::SegOwner),
    ("TABLE_NAME", Col::TableName),
    ("ROW_ID", Col::RowId),
    ("SQL_REDO", Col::SqlRedo),
    ("CSF", Col::Csf),
    ("ROLLBACK", Col::Rollback),
    ("RS_ID", Col::RsId),
    ("SSN", Col::Ssn),
    ("THREAD", Col::Thread),
    ("SEQUENCE", Col::Sequence),
    ("STATUS", Col::Status),
    ("INFO", Col::Info),
    ("SRC_CON_NAME", Col::SrcConName),
    ("USERNAME", Col::Username),
    ("DATA_OBJ", Col::DataObj),
];

/// OPERATION_CODE values V$LOGMNR_CONTENTS has (`model::op`).
const KNOWN_CODES: &[u32] = &[
    0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 25, 27, 29, 34, 36, 68, 70, 71, 91, 92, 93, 255,
];

fn column_of(header: &str) -> Option<Col> {
    let name = header.trim().trim_matches('"').to_ascii_uppercase();
    let name = name.trim_end_matches('#');
    COLUMNS.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

fn header_name(col: Col) -> &'static str {
    match col {
        Col::Thread => "THREAD#",
        Col::Sequence => "SEQUENCE#",
        Col::DataObj => "DATA_OBJ#",
        other => COLUMNS
            .iter()
            .find(|(_, c)| *c == other)
            .map_or("?", |(n, _)| n),
    }
}

/// Code → V$LOGMNR_CONTENTS.OPERATION.
fn operation_name(code: u32) -> &'static str {
    op::name(code)
}

fn code_of_name(name: &str) -> Option<u32> {
    let n = name.trim().to_ascii_uppercase();
    KNOWN_CODES.iter().copied().find(|c| {
        operation_name(*c) == n
            || (*c == op::UNSUPPORTED && n == "UNSUPPORTED")
            || (*c == op::SELECT_LOB_LOCATOR && n == "SELECT_LOB_LOCATOR")
    })
}

/// A parsed export: its rows in file order.
#[derive(Debug, Clone)]
pub struct Export {
    pub path: PathBuf,
    pub rows: Vec<LogMinerRow>,
}

/// Read and parse `path`.
pub fn read(path: &Path) -> Result<Export> {
    let bytes = std::fs::read(path).map_err(|e| CdcError::io(path, e))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let before = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = before.iter().filter(|b| **b == b'\n').count() as u64 + 1;
        bad(
            path,
            line,
            "-",
            "not UTF-8 text (spool the export with NLS_LANG=AMERICAN_AMERICA.AL32UTF8)",
        )
    })?;
    parse(path, &text)
}

/// Parse the text of an export (`path` is for messages).
pub fn parse(path: &Path, text: &str) -> Result<Export> {
    let mut recs = records(path, text)?.into_iter();
    let Some(header) = recs.next() else {
        return Err(bad(path, 1, "-", "the file is empty: expected a header row naming V$LOGMNR_CONTENTS columns, then the rows"));
    };
    let mut index: Vec<Option<Col>> = Vec::with_capacity(header.fields.len());
    let mut seen: Vec<Col> = Vec::new();
    for (i, f) in header.fields.iter().enumerate() {
        let col = column_of(&f.text);
        if let Some(c) = col {
            if seen.contains(&c) {
                return Err(bad(
                    path,
                    header.line,
                    &format!("{} (field {})", f.text.trim(), i + 1),
                    "this column appears twice in the header",
                ));
            }
            seen.push(c);
        }
        index.push(col);
    }
    if !seen.contains(&Col::Scn) {
        return Err(bad(
            path,
            header.line,
            "SCN",
            format!(
                "the header has no SCN column (is the first line the header row? it reads: {})",
                header
                    .fields
                    .iter()
                    .map(|f| f.text.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        ));
    }
    if !seen.contains(&Col::OperationCode) && !seen.contains(&Col::Operation) {
        return Err(bad(
            path,
            header.line,
            "OPERATION_CODE",
            "the header has neither OPERATION_CODE nor OPERATION",
        ));
    }
    let has_xid = seen.contains(&Col::Xid)
        || [Col::XidUsn, Col::XidSlt, Col::XidSqn]
            .iter()
            .all(|c| seen.contains(c));
    if !has_xid {
        return Err(bad(
            path,
            header.line,
            "XID",
            "the header has no XID column (nor XIDUSN, XIDSLT and XIDSQN)",
        ));
    }
    let mut rows = Vec::new();
    for rec in recs {
        if rec.fields.len() != header.fields.len() {
            return Err(bad(
                path,
                rec.line,
                &format!("field {}", rec.fields.len().min(header.fields.len()) + 1),
                format!(
                    "the row has {} fields but the header has {}",
                    rec.fields.len(),
                    header.fields.len()
                ),
            ));
        }
        rows.push(row(path, &index, &rec)?);
    }
    Ok(Export {
        path: path.to_path_buf(),
        rows,
    })
}

fn row(path: &Path, index: &[Option<Col>], rec: &Record) -> Result<LogMinerRow> {
    let get = |c: Col| -> Option<&Field> {
        index
            .iter()
            .position(|i| *i == Some(c))
            .and_then(|p| rec.fields.get(p))
            .filter(|f| !f.text.is_empty())
    };
    let text = |c: Col| get(c).map(|f| f.text.clone());
    let num = |c: Col| -> Result<Option<u64>> {
        match get(c) {
            None => Ok(None),
            Some(f) => f.text.trim().parse::<u64>().map(Some).map_err(|_| {
                bad(
                    path,
                    f.line,
                    header_name(c),
                    format!("`{}` is not a non-negative whole number", f.text),
                )
            }),
        }
    };
    let small = |c: Col| -> Result<Option<u32>> {
        match num(c)? {
            None => Ok(None),
            Some(n) => u32::try_from(n).map(Some).map_err(|_| {
                bad(
                    path,
                    get(c).map_or(rec.line, |f| f.line),
                    header_name(c),
                    format!("{n} is out of range"),
                )
            }),
        }
    };
    let Some(scn) = num(Col::Scn)? else {
        return Err(bad(path, rec.line, "SCN", "SCN is empty"));
    };
    let operation_code = match (small(Col::OperationCode)?, get(Col::Operation)) {
        (Some(code), _) => {
            if !KNOWN_CODES.contains(&code) {
                return Err(bad(
                    path,
                    get(Col::OperationCode).map_or(rec.line, |f| f.line),
                    "OPERATION_CODE",
                    format!(
                        "unknown operation code {code} (V$LOGMNR_CONTENTS has {})",
                        KNOWN_CODES
                            .iter()
                            .map(|c| c.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            code
        }
        (None, Some(f)) => code_of_name(&f.text).ok_or_else(|| {
            bad(
                path,
                f.line,
                "OPERATION",
                format!("unknown operation `{}`", f.text),
            )
        })?,
        (None, None) => {
            return Err(bad(
                path,
                rec.line,
                "OPERATION_CODE",
                "the operation code is empty",
            ))
        }
    };
    let (xid, xidusn, xidslt, xidsqn) = match get(Col::Xid) {
        Some(f) => {
            let x = f.text.trim().to_string();
            let parts = xid_parts(&x).ok_or_else(|| {
                bad(
                    path,
                    f.line,
                    "XID",
                    format!("`{x}` is not an XID (16 hex digits, e.g. 02000a0037030000)"),
                )
            })?;
            (
                x,
                small(Col::XidUsn)?.unwrap_or(parts.0),
                small(Col::XidSlt)?.unwrap_or(parts.1),
                small(Col::XidSqn)?.unwrap_or(parts.2),
            )
        }
        None => {
            let (Some(u), Some(s), Some(q)) = (
                small(Col::XidUsn)?,
                small(Col::XidSlt)?,
                small(Col::XidSqn)?,
            ) else {
                return Err(bad(path, rec.line, "XID", "the XID is empty"));
            };
            (xid_of(u, s, q), u, s, q)
        }
    };
    let flag = |c: Col| -> Result<u8> {
        match num(c)? {
            None | Some(0) => Ok(0),
            Some(1) => Ok(1),
            Some(n) => Err(bad(
                path,
                get(c).map_or(rec.line, |f| f.line),
                header_name(c),
                format!("{n} is not 0 or 1"),
            )),
        }
    };
    // COMMIT_SCN is the SCN its transaction committed at: never below the SCN of one of its
    // rows. Below (a damaged or hand-made export), the COMMIT would be taken for one already
    // delivered and its transaction dropped without a word.
    let commit_scn = num(Col::CommitScn)?;
    if let Some(commit) = commit_scn.filter(|c| *c < scn) {
        return Err(bad(
            path,
            get(Col::CommitScn).map_or(rec.line, |f| f.line),
            "COMMIT_SCN",
            format!(
                "COMMIT_SCN {commit} is below the row's own SCN {scn} ({} of transaction {xid}): a transaction commits after each of its changes",
                operation_name(operation_code)
            ),
        ));
    }
    let status = match get(Col::Status) {
        None => 0,
        Some(f) => f.text.trim().parse::<i32>().map_err(|_| {
            bad(
                path,
                f.line,
                "STATUS",
                format!("`{}` is not a whole number", f.text),
            )
        })?,
    };
    Ok(LogMinerRow {
        scn,
        commit_scn,
        start_scn: num(Col::StartScn)?,
        timestamp: text(Col::Timestamp).unwrap_or_default(),
        commit_timestamp: text(Col::CommitTimestamp),
        xid,
        xidusn,
        xidslt,
        xidsqn,
        operation_code,
        operation: text(Col::Operation)
            .unwrap_or_else(|| operation_name(operation_code).to_string()),
        seg_owner: text(Col::SegOwner),
        table_name: text(Col::TableName),
        row_id: text(Col::RowId).unwrap_or_default(),
        sql_redo: text(Col::SqlRedo).unwrap_or_default(),
        csf: flag(Col::Csf)?,
        rollback: flag(Col::Rollback)?,
        rs_id: text(Col::RsId).unwrap_or_default(),
        ssn: num(Col::Ssn)?.unwrap_or(0),
        thread: small(Col::Thread)?.unwrap_or(1),
        sequence: num(Col::Sequence)?.unwrap_or(1),
        status,
        info: text(Col::Info),
        src_con_name: text(Col::SrcConName).unwrap_or_default(),
        username: text(Col::Username).unwrap_or_default(),
        data_obj: num(Col::DataObj)?.unwrap_or(0),
    })
}

/// (XIDUSN, XIDSLT, XIDSQN) of a 16-hex-digit XID (each part little-endian).
fn xid_parts(xid: &str) -> Option<(u32, u32, u32)> {
    if xid.len() != 16 || !xid.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let bytes: Vec<u8> = (0..8)
        .map(|i| u8::from_str_radix(xid.get(2 * i..2 * i + 2).unwrap_or("00"), 16))
        .collect::<std::result::Result<_, _>>()
        .ok()?;
    let usn = u32::from(u16::from_le_bytes([bytes[0], bytes[1]]));
    let slt = u32::from(u16::from_le_bytes([bytes[2], bytes[3]]));
    let sqn = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
    Some((usn, slt, sqn))
}

/// The XID text of its parts.
fn xid_of(usn: u32, slt: u32, sqn: u32) -> String {
    let mut out = String::with_capacity(16);
    for b in (usn as u16)
        .to_le_bytes()
        .iter()
        .chain((slt as u16).to_le_bytes().iter())
        .chain(sqn.to_le_bytes().iter())
    {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// The first and last SCN of an export's rows.
pub fn scn_span(rows: &[LogMinerRow]) -> Option<(Scn, Scn)> {
    let first = rows.iter().map(|r| r.scn).min()?;
    let last = rows.iter().map(|r| r.scn).max()?;
    Some((first, last))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Path {
        Path::new("x/logmnr.csv")
    }

    #[test]
    fn quoted_fields_doubled_quotes_multiline_and_nulls() {
        let text = "\u{feff}\"SCN\",\"XID\",\"OPERATION_CODE\",\"SQL_REDO\",\"COMMIT_SCN\",\"EXTRA\"\r\n\
                    10,\"0200030004000000\",1,\"insert into \"\"O\"\".\"\"T\"\"(\"\"C\"\") values ('a\nb');\",,\"x\"\r\n\
                    \n\
                    11,\"0200030004000000\",7,,11,\r\n";
        let e = parse(p(), text).unwrap();
        assert_eq!(e.rows.len(), 2);
        assert_eq!(
            e.rows[0].sql_redo,
            "insert into \"O\".\"T\"(\"C\") values ('a\nb');"
        );
        assert_eq!(e.rows[0].commit_scn, None);
        assert_eq!(
            (e.rows[0].xidusn, e.rows[0].xidslt, e.rows[0].xidsqn),
            (2, 3, 4)
        );
        assert_eq!(e.rows[0].operation, "INSERT");
        assert_eq!(e.rows[1].commit_scn, Some(11));
        assert_eq!(e.rows[1].sql_redo, "");
        assert_eq!(e.rows[1].thread, 1);
    }

    #[test]
    fn any_column_order_and_names_with_hash() {
        let text = "operation,thread#,xidusn,xidslt,xidsqn,scn,data_obj#,rs_id\n\
                    START,2,5,6,4294967295,99,,\" 0x000001.00000002.0010 \"\n";
        let e = parse(p(), text).unwrap();
        let r = &e.rows[0];
        assert_eq!(r.operation_code, op::START);
        assert_eq!(r.thread, 2);
        assert_eq!(r.xid, "05000600ffffffff");
        assert_eq!(r.rs_id, " 0x000001.00000002.0010 ");
        assert_eq!(r.scn, 99);
    }

    fn err(text: &str) -> String {
        parse(p(), text).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let e = err("SCN,XID,OPERATION_CODE\n10,0200030004000000,1\n11,0200030004000000,42\n");
        assert!(e.starts_with("CDC-6002"), "{e}");
        assert!(
            e.contains("x/logmnr.csv line 3 column OPERATION_CODE"),
            "{e}"
        );
        assert!(e.contains("unknown operation code 42"), "{e}");

        let e = err("SCN,XID,OPERATION_CODE\n1x,0200030004000000,1\n");
        assert!(e.contains("line 2 column SCN"), "{e}");
        assert!(e.contains("`1x` is not"), "{e}");

        let e = err("SCN,XID,OPERATION_CODE,SQL_REDO\n10,0200030004000000,1,\"abc\n\nmore\n");
        assert!(e.contains("line 2 column field 4"), "{e}");
        assert!(e.contains("unterminated"), "{e}");

        let e = err("SCN,XID,OPERATION_CODE\n10,0200030004000000\n");
        assert!(e.contains("line 2"), "{e}");
        assert!(e.contains("2 fields but the header has 3"), "{e}");

        let e = err("XID,OPERATION_CODE\n");
        assert!(e.contains("no SCN column"), "{e}");

        let e = err("SCN,XID,OPERATION_CODE\n10,zz,1\n");
        assert!(e.contains("column XID"), "{e}");

        let e = err("SCN,XID,OPERATION_CODE\n10,0200030004000000,\"1\"x\n");
        assert!(e.contains("after a closing quote"), "{e}");

        let e = err("");
        assert!(e.contains("empty"), "{e}");
    }
}
