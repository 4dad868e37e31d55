//! The two negotiation messages after ACCEPT: protocol and data types.
//!
//! The server presents itself as 19c: TTC field version 12 (clients lower theirs to it and
//! shape every later message accordingly), database character set AL32UTF8 and national
//! character set AL16UTF16, 32K strings. The client's data types message repeats its compile
//! capabilities, already lowered, which fix the field version both sides use from then on.

use crate::codec::{CHARSET_UTF16, CHARSET_UTF8};
use crate::wire::{malformed, Reader, WireResult, Writer};

pub const MSG_PROTOCOL: u8 = 1;
pub const MSG_DATA_TYPES: u8 = 2;

pub const FIELD_VERSION_12_2: u8 = 8;
pub const FIELD_VERSION_12_2_EXT1: u8 = 9;
pub const FIELD_VERSION_20_1: u8 = 14;
pub const FIELD_VERSION_23_1_EXT_1: u8 = 18;
/// The field version this server speaks (19.1).
pub const SERVER_FIELD_VERSION: u8 = 12;

const CCAP_SQL_VERSION: usize = 0;
const CCAP_LOGON_TYPES: usize = 4;
const CCAP_FIELD_VERSION: usize = 7;
const CCAP_TTC1: usize = 15;
const CCAP_LOB: usize = 23;
const CCAP_TTC3: usize = 37;
const CCAP_UB2_DTY: usize = 27;
const CCAP_LEN: usize = 55;
const RCAP_COMPAT: usize = 0;
const RCAP_TTC: usize = 6;
const RCAP_LEN: usize = 13;

/// What the client's protocol message says.
#[derive(Debug, Clone)]
pub struct ClientProtocol {
    pub driver: String,
}

impl ClientProtocol {
    /// JDBC thin names itself `Java_TTC-…`; its login message differs from the thin drivers'.
    pub fn is_jdbc(&self) -> bool {
        self.driver.starts_with("Java")
    }
}

/// Reads the client's protocol message (type, version list ending in 0, driver name ending in 0).
pub fn parse_protocol(payload: &[u8]) -> WireResult<ClientProtocol> {
    let mut r = Reader::new(payload);
    if r.u8()? != MSG_PROTOCOL {
        return malformed("expected the protocol message");
    }
    while r.u8()? != 0 {}
    let mut name = Vec::new();
    loop {
        match r.u8() {
            Ok(0) | Err(_) => break,
            Ok(b) => name.push(b),
        }
    }
    Ok(ClientProtocol {
        driver: String::from_utf8_lossy(&name).into_owned(),
    })
}

/// The platform banner real servers send (node-oracledb refuses one over 48 bytes).
const PLATFORM_BANNER: &str = "x86_64/Linux 2.4.xx";

/// The server's answer to the protocol message.
pub fn protocol_response() -> Vec<u8> {
    let mut w = Writer::new();
    w.u8(MSG_PROTOCOL).u8(6).u8(0);
    w.raw(PLATFORM_BANNER.as_bytes()).u8(0);
    w.u16le(CHARSET_UTF8).u8(1);
    w.u16le(0); // no character set conversion graph
                // The FDO: the clients read the national character set at 6 + fdo[5] + fdo[6] + 3.
    let mut fdo = vec![0u8; 9];
    fdo.extend_from_slice(&CHARSET_UTF16.to_be_bytes());
    w.u16be(fdo.len() as u16).raw(&fdo);
    let mut ccaps = [0u8; CCAP_LEN];
    ccaps[CCAP_SQL_VERSION] = 6;
    ccaps[CCAP_LOGON_TYPES] = 0x08 | 0x20; // O5LOGON, O7LOGON
    ccaps[CCAP_FIELD_VERSION] = SERVER_FIELD_VERSION;
    ccaps[CCAP_TTC1] = 0x20 | 0x01 | 0x08; // fast bit vector, end of call status, indicators
    ccaps[CCAP_LOB] = 0x01 | 0x02 | 0x40 | 0x80; // ub8 sizes, encodings, prefetch length, 12c
                                                 // Long byte strings are chunked with universal (ub4) chunk lengths; without this JDBC
                                                 // expects one-byte chunk lengths (the thin drivers always read ub4 ones).
    ccaps[CCAP_TTC3] = 0x20;
    w.clr(&ccaps);
    let mut rcaps = [0u8; RCAP_LEN];
    rcaps[RCAP_COMPAT] = 2;
    rcaps[RCAP_TTC] = 0x01 | 0x04; // zero copy, 32K strings
    w.clr(&rcaps);
    w.into_inner()
}

/// What the client's data types message says of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientTypes {
    /// The TTC field version both sides use.
    pub field_version: u8,
    /// Data type numbers are two bytes wide (the thin drivers) rather than one (JDBC thin).
    pub ub2_types: bool,
    /// SB1 values (a column's scale) are universal integers (JDBC thin) rather than a bare
    /// byte (the thin drivers), as the representation the client lists for type SB1 says.
    pub sb1_universal: bool,
}

/// The TTC base type SB1 in the data types list, and the "universal" representation.
const DTY_SB1: u16 = 27;
const REP_UNIVERSAL: u16 = 1;

/// The representation the client lists for `dty`. One-byte lists (JDBC) omit the
/// representation of types without a conversion; two-byte lists (the thin drivers) always
/// have four fields.
fn representation_of(r: &mut Reader, ub2_types: bool, dty: u16) -> Option<u16> {
    loop {
        let (t, conv) = if ub2_types {
            (r.u16be().ok()?, r.u16be().ok()?)
        } else {
            let t = u16::from(r.u8().ok()?);
            if t == 0 {
                return None;
            }
            (t, u16::from(r.u8().ok()?))
        };
        if t == 0 {
            return None;
        }
        let rep = if ub2_types {
            let rep = r.u16be().ok()?;
            r.u16be().ok()?;
            Some(rep)
        } else if conv != 0 {
            let rep = u16::from(r.u8().ok()?);
            r.u8().ok()?;
            Some(rep)
        } else {
            None
        };
        if t == dty {
            return rep;
        }
    }
}

/// Reads the client's data types message far enough to learn its field version.
pub fn parse_data_types(payload: &[u8]) -> WireResult<ClientTypes> {
    let mut r = Reader::new(payload);
    if r.u8()? != MSG_DATA_TYPES {
        return malformed("expected the data types message");
    }
    r.u16le()?; // client character set
    r.u16le()?; // client national character set
    r.u8()?; // encoding flags
    let ccaps = r.clr_bytes()?;
    r.clr_bytes()?; // runtime capabilities
    let client = ccaps
        .get(CCAP_FIELD_VERSION)
        .copied()
        .unwrap_or(SERVER_FIELD_VERSION);
    let ub2_types = ccaps.get(CCAP_UB2_DTY).is_some_and(|&b| b != 0);
    Ok(ClientTypes {
        field_version: client.min(SERVER_FIELD_VERSION),
        ub2_types,
        sb1_universal: representation_of(&mut r, ub2_types, DTY_SB1) == Some(REP_UNIVERSAL),
    })
}

/// The server's answer to the data types message: no conversions of its own to list, so just
/// the terminating zero, as wide as the client's type numbers.
pub fn data_types_response(types: ClientTypes) -> Vec<u8> {
    let mut w = Writer::new();
    w.u8(MSG_DATA_TYPES);
    if types.ub2_types {
        w.u16be(0);
    } else {
        w.u8(0);
    }
    w.into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_answer_names_the_national_charset_where_clients_look() {
        let b = protocol_response();
        let mut r = Reader::new(&b);
        assert_eq!(r.u8().unwrap(), MSG_PROTOCOL);
        r.skip(2).unwrap();
        assert_eq!(
            r.bytes(PLATFORM_BANNER.len() + 1).unwrap(),
            b"x86_64/Linux 2.4.xx\0"
        );
        assert_eq!(r.u16le().unwrap(), CHARSET_UTF8);
        r.skip(3).unwrap();
        let fdo_len = usize::from(r.u16be().unwrap());
        let fdo = r.bytes(fdo_len).unwrap();
        let ix = 6 + usize::from(fdo[5]) + usize::from(fdo[6]);
        assert_eq!(
            u16::from_be_bytes([fdo[ix + 3], fdo[ix + 4]]),
            CHARSET_UTF16
        );
        assert_eq!(
            r.clr_bytes().unwrap()[CCAP_FIELD_VERSION],
            SERVER_FIELD_VERSION
        );
    }

    #[test]
    fn the_lower_field_version_wins() {
        let mut w = Writer::new();
        w.u8(MSG_DATA_TYPES).u16le(873).u16le(873).u8(1);
        w.clr(&[6, 1, 0, 0, 0xea, 0x1c, 1, 24]).clr(&[2]);
        w.raw(&[2, 2, 10, 0, 13, 0, 27, 27, 1, 0, 0]);
        let types = parse_data_types(w.as_slice()).unwrap();
        assert_eq!(
            types,
            ClientTypes {
                field_version: SERVER_FIELD_VERSION,
                ub2_types: false,
                sb1_universal: true
            }
        );
        assert_eq!(data_types_response(types), [MSG_DATA_TYPES, 0]);
        assert!(parse_data_types(&[1, 2]).is_err());
        assert_eq!(
            parse_protocol(b"\x01\x06\x00Java_TTC-8.2.0\x00")
                .unwrap()
                .driver,
            "Java_TTC-8.2.0"
        );
    }
}
