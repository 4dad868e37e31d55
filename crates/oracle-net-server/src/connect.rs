//! The TNS handshake: CONNECT in, ACCEPT or REFUSE out.
//!
//! A CONNECT carries the client's protocol versions, its SDU and the connect descriptor
//! (`(DESCRIPTION=…(CONNECT_DATA=(SERVICE_NAME=…)))`). A descriptor too long for the CONNECT
//! packet (over 230 bytes for the thin drivers) follows in a DATA packet. The ACCEPT names
//! protocol version 318 (what a 19c listener answers): four-byte packet lengths from then on,
//! no out-of-band breaks, no fast authentication and no end-of-response marker, so every
//! client takes the classic path. An unknown service is refused with ORA-12514 (ORA-12505 for
//! a SID), in the text form the clients parse (`(ERR=…)`).

use std::io::{self, Read, Write};

use crate::packet::{self, Packet};
use crate::wire::Writer;
use crate::{Backend, ServiceAnswer};

/// The protocol version accepted (19c).
pub const PROTOCOL_VERSION: u16 = 318;
/// Versions below this use two-byte packet lengths throughout.
const VERSION_LARGE_SDU: u16 = 315;
const MIN_SDU: u32 = 512;
const MAX_SDU: u32 = 2 * 1024 * 1024;

/// What the client asked for and got.
#[derive(Debug, Clone)]
pub struct Accepted {
    pub service: String,
    pub sdu: usize,
    pub large: bool,
}

/// How a handshake ended.
#[derive(Debug)]
pub enum Handshake {
    Accepted(Accepted),
    /// Refused (REFUSE sent) or the client went away.
    Ended(String),
}

/// The value of `KEY=` in a connect descriptor, case-insensitively.
pub fn descriptor_value(descriptor: &str, key: &str) -> Option<String> {
    let upper = descriptor.to_ascii_uppercase();
    let needle = format!("({}", key.to_ascii_uppercase());
    let mut from = 0;
    while let Some(found) = upper[from..].find(&needle) {
        let start = from + found + needle.len();
        let rest = &descriptor[start..];
        let trimmed = rest.trim_start();
        if let Some(value) = trimmed.strip_prefix('=') {
            let end = value.find(')').unwrap_or(value.len());
            let v = value[..end].trim().trim_matches('"').to_string();
            return Some(v);
        }
        from = start;
    }
    None
}

struct Connect {
    version: u16,
    sdu: u32,
    data: Vec<u8>,
    data_len: usize,
}

fn parse_connect(p: &Packet) -> Option<Connect> {
    let b = &p.body;
    let u16_at = |i: usize| b.get(i..i + 2).map(|s| u16::from_be_bytes([s[0], s[1]]));
    let version = u16_at(0)?;
    let short_sdu = u32::from(u16_at(6)?);
    let data_len = usize::from(u16_at(16)?);
    let offset = usize::from(u16_at(18)?);
    let large_sdu = b
        .get(50..54)
        .map(|s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]));
    let sdu = large_sdu.filter(|&s| s > 0).unwrap_or(short_sdu);
    let start = offset.saturating_sub(8).min(b.len());
    let data = b[start..]
        .get(..data_len.min(b.len() - start))
        .unwrap_or(&[])
        .to_vec();
    Some(Connect {
        version,
        sdu,
        data,
        data_len,
    })
}

fn refuse(w: &mut impl Write, code: u32) -> io::Result<()> {
    let text = format!(
        "(DESCRIPTION=(TMP=)(VSNNUM=0)(ERR={code})(ERROR_STACK=(ERROR=(CODE={code})(EMFI=4))))"
    );
    let mut body = Writer::new();
    body.u8(1)
        .u8(0)
        .u16be(text.len() as u16)
        .raw(text.as_bytes());
    w.write_all(&packet::encode_packet(
        packet::REFUSE,
        0,
        body.as_slice(),
        false,
    ))?;
    w.flush()
}

fn accept(w: &mut impl Write, version: u16, sdu: u32) -> io::Result<()> {
    let mut a = Writer::new();
    a.u16be(version);
    a.u16be(0x0001); // service options: no attention (out-of-band) breaks
    a.u16be(sdu.min(0xffff) as u16);
    a.u16be(0xffff); // TDU
    a.u16be(0x0100); // hardware byte order
    a.u16be(0).u16be(0); // accept data length / offset
    a.u8(0x04).u8(0x04); // NSI flags: native network services disabled
    a.raw(&[0; 8]);
    a.u32be(sdu);
    a.u32be(0xffff); // TDU
    a.u8(0);
    a.u32be(0); // flags: no OOB check, no fast auth, no end of response
    w.write_all(&packet::encode_packet(
        packet::ACCEPT,
        0,
        a.as_slice(),
        false,
    ))?;
    w.flush()
}

/// Runs the handshake on a fresh connection.
pub fn handshake(stream: &mut (impl Read + Write), backend: &dyn Backend) -> io::Result<Handshake> {
    let Some(first) = packet::read_packet(stream, false)? else {
        return Ok(Handshake::Ended("closed before CONNECT".into()));
    };
    if first.ptype != packet::CONNECT {
        return Ok(Handshake::Ended(format!(
            "expected CONNECT, got packet type {}",
            first.ptype
        )));
    }
    let Some(mut connect) = parse_connect(&first) else {
        return Ok(Handshake::Ended("CONNECT packet too short".into()));
    };
    while connect.data.len() < connect.data_len {
        match packet::read_packet(stream, false)? {
            Some(p) if p.ptype == packet::DATA => connect.data.extend_from_slice(p.payload()),
            Some(p) => {
                return Ok(Handshake::Ended(format!(
                    "expected connect data, got packet type {}",
                    p.ptype
                )))
            }
            None => return Ok(Handshake::Ended("closed during CONNECT".into())),
        }
    }
    let descriptor = String::from_utf8_lossy(&connect.data).into_owned();
    tracing::debug!(%descriptor, version = connect.version, sdu = connect.sdu, "CONNECT");
    let (name, by_sid) = match descriptor_value(&descriptor, "SERVICE_NAME") {
        Some(s) => (s, false),
        None => (
            descriptor_value(&descriptor, "SID").unwrap_or_default(),
            true,
        ),
    };
    let answer = backend.service(&name);
    let code = match answer {
        ServiceAnswer::Accept => None,
        ServiceAnswer::Unknown if by_sid => Some(12505),
        ServiceAnswer::Unknown => Some(12514),
        ServiceAnswer::Refuse(code) => Some(code),
    };
    if let Some(code) = code {
        refuse(stream, code)?;
        return Ok(Handshake::Ended(format!(
            "refused service {name:?} with ORA-{code:05}"
        )));
    }
    let version = connect.version.min(PROTOCOL_VERSION);
    let sdu = connect.sdu.clamp(MIN_SDU, MAX_SDU);
    accept(stream, version, sdu)?;
    Ok(Handshake::Accepted(Accepted {
        service: name,
        sdu: sdu as usize,
        large: version >= VERSION_LARGE_SDU,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_yield_their_service() {
        let d = "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=h)(PORT=1))(CONNECT_DATA=(service_name = emu )(CID=(PROGRAM=x))))";
        assert_eq!(descriptor_value(d, "SERVICE_NAME").as_deref(), Some("emu"));
        assert_eq!(descriptor_value(d, "SID"), None);
        assert_eq!(
            descriptor_value("(CONNECT_DATA=(SID=ORCL))", "SID").as_deref(),
            Some("ORCL")
        );
        assert_eq!(descriptor_value("(SERVICE_NAME", "SERVICE_NAME"), None);
    }

    #[test]
    fn short_connects_do_not_panic() {
        for len in 0..80 {
            let p = Packet {
                ptype: packet::CONNECT,
                flags: 0,
                body: vec![0xff; len],
            };
            let _ = parse_connect(&p);
        }
    }
}
