//! The TTC messages a server sends: the closing status of every call (the ERROR message, with or
//! without an error), describe info, row header and row data, the I/O vector of a PL/SQL call
//! and key/value parameters.
//!
//! Without the 23ai end-of-response marker the ERROR message is what tells a client a response
//! is complete, so every response ends with exactly one.

use oracle_datum::Column;

use crate::codec::write_column_metadata;
use crate::negotiate::FIELD_VERSION_20_1;
use crate::wire::Writer;

pub const MSG_ERROR: u8 = 4;
pub const MSG_ROW_HEADER: u8 = 6;
pub const MSG_ROW_DATA: u8 = 7;
pub const MSG_PARAMETER: u8 = 8;
pub const MSG_IO_VECTOR: u8 = 11;
pub const MSG_WARNING: u8 = 15;
pub const MSG_DESCRIBE_INFO: u8 = 16;

pub const BIND_DIR_INPUT: u8 = 0x20;
pub const BIND_DIR_INPUT_OUTPUT: u8 = 0x30;

/// What the closing status of a call says.
#[derive(Debug, Clone, Default)]
pub struct Status {
    pub code: u32,
    /// The whole `ORA-NNNNN: …` text (empty without an error).
    pub message: String,
    pub cursor_id: u16,
    pub row_count: u64,
    pub position: u32,
    pub call_status: u32,
}

impl Status {
    pub fn ok(cursor_id: u16, row_count: u64) -> Status {
        Status {
            cursor_id,
            row_count,
            ..Status::default()
        }
    }

    pub fn error(err: &oracle_datum::OraError, cursor_id: u16, row_count: u64) -> Status {
        Status {
            code: err.code,
            message: err.message.clone(),
            cursor_id,
            row_count,
            position: err.position.unwrap_or(0),
            call_status: 0,
        }
    }
}

/// The ERROR message that closes a call.
/// `call_seq`: the sequence number of the call answered (JDBC checks it).
pub fn write_status(w: &mut Writer, s: &Status, field_version: u8, call_seq: u8) {
    w.u8(MSG_ERROR);
    w.ub(u64::from(s.call_status));
    w.ub(0); // end-to-end sequence number
    w.ub(0); // current row number
    w.ub(u64::from(s.code.min(0xffff))); // error number (short form)
    w.ub(0); // array element error
    w.ub(0); // array element error
    w.ub(u64::from(s.cursor_id));
    w.ub(u64::from(s.position.min(0x7fff)));
    w.u8(0); // SQL type
    w.u8(0); // fatal
    w.u8(0); // flags
    w.u8(0); // user cursor options
    w.u8(0); // UPI parameter
    w.u8(0); // warning flags
             // rowid: block address, partition, an unused byte, block, slot
    w.ub(0).ub(0).u8(0).ub(0).ub(0);
    w.ub(0); // OS error
    w.u8(0); // statement number
    w.u8(call_seq); // call number
    w.ub(0); // padding
    w.ub(0); // successful iterations
    w.ub(0); // logical rowid
    w.ub(0); // batch error codes
    w.ub(0); // batch error offsets
    w.ub(0); // batch error messages
    w.ub(u64::from(s.code)); // error number (extended)
    w.ub(s.row_count);
    if field_version >= FIELD_VERSION_20_1 {
        w.ub(0); // SQL type
        w.ub(0); // server checksum
    }
    if s.code != 0 {
        let mut text = s.message.clone();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        w.clr(text.as_bytes());
    }
}

/// DESCRIBE INFO for a query's columns.
pub fn write_describe(w: &mut Writer, columns: &[Column], field_version: u8, sb1_universal: bool) {
    w.u8(MSG_DESCRIBE_INFO);
    w.clr(&[]);
    let row_size: u64 = columns
        .iter()
        .map(|c| u64::from(crate::codec::column_wire_type(&c.ora_type).buffer_size))
        .sum();
    w.ub(row_size);
    w.ub(columns.len() as u64);
    if !columns.is_empty() {
        w.u8(1);
    }
    for c in columns {
        write_column_metadata(w, c, field_version, sb1_universal);
    }
    w.ub(0); // current date
    w.ub(0); // dcbflag
    w.ub(0); // dcbmdbz
    w.ub(0); // dcbmnpr
    w.ub(0); // dcbmxpr
    w.ub(0); // dcbqcky
}

/// The header before a batch of rows (no bit vector: every column is sent in every row).
pub fn write_row_header(w: &mut Writer) {
    w.u8(MSG_ROW_HEADER);
    w.u8(0); // flags
    w.ub(0); // number of requests
    w.ub(0); // iteration number
    w.ub(0); // number of iterations
    w.ub(0); // buffer length
    w.ub(0); // bit vector length
    w.ub(0); // rxhrid
}

/// The I/O vector of a PL/SQL call: each bind's direction.
pub fn write_io_vector(w: &mut Writer, directions: &[u8]) {
    w.u8(MSG_IO_VECTOR);
    w.u8(0); // flags
    let n = directions.len() as u64;
    w.ub(n % 256); // number of requests
    w.ub(n / 256); // number of iterations (the bind count's high part)
    w.ub(1); // iterations this time
    w.ub(0); // UAC buffer length
    w.ub(0); // bit vector length
    w.ub(0); // rowid length
    for &d in directions {
        w.u8(d);
    }
}

/// A WARNING message: a warning that does not fail the call, e.g. ORA-28002 with a login whose
/// password is in its grace period. Clients read its number, the text's length and flags as
/// UB2s, then the text with its length (python-oracledb's `_process_warning_info`, the Rust
/// crate's `deserialize_warning`); a number of 0 or an empty text is no warning to them.
pub fn write_warning(w: &mut Writer, warning: &oracle_datum::OraError) {
    let text = warning.message.as_bytes();
    w.u8(MSG_WARNING);
    w.ub(u64::from(warning.code.min(0xffff)));
    w.ub(text.len().min(0xffff) as u64);
    w.ub(0); // flags
    w.clr(text);
}

/// Key/value parameters (the login answers).
pub fn write_parameters(w: &mut Writer, pairs: &[(String, String, u32)]) {
    w.u8(MSG_PARAMETER);
    w.ub(pairs.len() as u64);
    for (k, v, flags) in pairs {
        w.two_lengths(k.as_bytes());
        w.two_lengths(v.as_bytes());
        w.ub(u64::from(*flags));
    }
}

/// The row counts of an array DML asked for with "array DML row counts". JDBC reads the first
/// three al8o4 values (the SCN's halves and the cursor) whenever return parameters come.
pub fn write_dml_row_counts(w: &mut Writer, counts: &[u64], cursor_id: u16) {
    w.u8(MSG_PARAMETER);
    w.ub(3); // al8o4: SCN (low, high), cursor
    w.ub(0).ub(0).ub(u64::from(cursor_id));
    w.ub(0); // al8txl
    w.ub(0); // key/value pairs
    w.ub(0); // registration
    w.ub(counts.len() as u64);
    for &c in counts {
        w.ub(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::Reader;

    #[test]
    fn status_reads_as_the_clients_read_it() {
        let err = oracle_datum::OraError::new(942, "table or view does not exist").at(14);
        let mut w = Writer::new();
        write_status(&mut w, &Status::error(&err, 3, 0), 12, 1);
        let b = w.into_inner();
        let mut r = Reader::new(&b);
        assert_eq!(r.u8().unwrap(), MSG_ERROR);
        r.ub4().unwrap();
        r.ub2().unwrap();
        r.ub4().unwrap();
        assert_eq!(r.ub2().unwrap(), 942);
        r.ub2().unwrap();
        r.ub2().unwrap();
        assert_eq!(r.ub2().unwrap(), 3);
        assert_eq!(r.ub2().unwrap(), 14);
        r.skip(6).unwrap();
        for _ in 0..2 {
            r.ub4().unwrap();
        }
        r.u8().unwrap();
        r.ub4().unwrap();
        r.ub2().unwrap();
        r.ub4().unwrap();
        r.u8().unwrap();
        r.u8().unwrap();
        r.ub2().unwrap();
        r.ub4().unwrap();
        r.ub4().unwrap();
        r.ub2().unwrap();
        r.ub4().unwrap();
        r.ub2().unwrap();
        assert_eq!(r.ub4().unwrap(), 942);
        assert_eq!(r.ub8().unwrap(), 0);
        let text = r.clr_bytes().unwrap();
        assert_eq!(text, b"ORA-00942: table or view does not exist\n");
        assert!(r.is_empty());
    }
}
