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
    // The smaller of the client's and the server's (Oracle's negotiation, Net Services guide
    // "Configuring Session Data Unit").
    let sdu = connect.sdu.min(backend.info().sdu).clamp(MIN_SDU, MAX_SDU);
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

    /// A backend that only answers the handshake.
    struct Sdu(u32);

    impl Backend for Sdu {
        fn info(&self) -> crate::ServerInfo {
            crate::ServerInfo {
                version: (19, 22, 0, 0, 0),
                banner: String::new(),
                db_name: "EMU".into(),
                instance_name: "emu1".into(),
                db_domain: String::new(),
                sdu: self.0,
            }
        }
        fn service(&self, _: &str) -> ServiceAnswer {
            ServiceAnswer::Accept
        }
        fn verifier(&self, _: &str) -> Option<crate::Verifier> {
            None
        }
        fn open(
            &self,
            _: &crate::Login,
        ) -> Result<Box<dyn crate::ServerSession>, oracle_datum::OraError> {
            Err(oracle_datum::OraError::new(
                1017,
                "invalid username/password",
            ))
        }
    }

    /// A CONNECT of protocol version 318 asking for `sdu` (in the four-byte field), then the
    /// SDU the ACCEPT answers.
    fn negotiated(client: u32, server: u32) -> u32 {
        let descriptor = b"(DESCRIPTION=(CONNECT_DATA=(SERVICE_NAME=EMU)))";
        let mut body = vec![0u8; 58];
        body[0..2].copy_from_slice(&318u16.to_be_bytes());
        body[6..8].copy_from_slice(&(client.min(0xffff) as u16).to_be_bytes());
        body[16..18].copy_from_slice(&(descriptor.len() as u16).to_be_bytes());
        body[18..20].copy_from_slice(&(8u16 + 58).to_be_bytes());
        body[50..54].copy_from_slice(&client.to_be_bytes());
        body.extend_from_slice(descriptor);
        let mut stream = Duplex {
            input: std::io::Cursor::new(packet::encode_packet(packet::CONNECT, 0, &body, false)),
            output: Vec::new(),
        };
        match handshake(&mut stream, &Sdu(server)).expect("handshake") {
            Handshake::Accepted(a) => {
                // The ACCEPT's four-byte SDU (after version, options, SDU, TDU, byte order,
                // data length and offset, NSI flags and eight reserved bytes).
                let accept = &stream.output[8..];
                let field = u32::from_be_bytes([accept[24], accept[25], accept[26], accept[27]]);
                assert_eq!(
                    field as usize, a.sdu,
                    "the ACCEPT says what the session uses"
                );
                field
            }
            Handshake::Ended(why) => panic!("refused: {why}"),
        }
    }

    struct Duplex {
        input: std::io::Cursor<Vec<u8>>,
        output: Vec<u8>,
    }

    impl Read for Duplex {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.input.read(buf)
        }
    }

    impl Write for Duplex {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.output.write(buf)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// The session data unit is the smaller of the client's and the server's, as Oracle
    /// negotiates it (a 19c server at its default 8192 gives a client asking 65536 no more).
    #[test]
    fn the_sdu_is_the_smaller_of_both_sides() {
        assert_eq!(negotiated(65_536, 8_192), 8_192);
        assert_eq!(negotiated(8_192, 65_536), 8_192);
        assert_eq!(negotiated(2_097_152, 2_097_152), 2_097_152);
        assert_eq!(negotiated(100, 8_192), 512);
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
