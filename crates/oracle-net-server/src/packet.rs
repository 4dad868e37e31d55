//! TNS packets: the framing under everything else.
//!
//! Each packet has an 8-byte header: its length (two bytes and two zero bytes while connecting,
//! four bytes once the ACCEPT announced a protocol version with large SDUs), its type, flags
//! and a zero checksum. DATA packets carry two more bytes of data flags before their payload.
//! A response larger than the SDU the client asked for is split over several DATA packets; the
//! client reassembles them, so where the split falls does not matter.

use std::io::{self, Read, Write};

pub const CONNECT: u8 = 1;
pub const ACCEPT: u8 = 2;
pub const REFUSE: u8 = 4;
pub const DATA: u8 = 6;
pub const MARKER: u8 = 12;
pub const CONTROL: u8 = 14;

/// Data flag: the sender is closing the connection.
pub const DATA_FLAG_EOF: u16 = 0x0040;
/// Data flag: last packet of a request (JDBC thin sets it on every request).
pub const DATA_FLAG_END_OF_REQUEST: u16 = 0x0800;

pub const MARKER_BREAK: u8 = 1;
pub const MARKER_RESET: u8 = 2;

/// No packet may be longer than this (the SDU is at most 2 MB; a little room for headers).
pub const MAX_PACKET: usize = 2 * 1024 * 1024 + 64;

const HEADER: usize = 8;

/// One packet as received: its type, flags and what follows the 8-byte header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packet {
    pub ptype: u8,
    pub flags: u8,
    pub body: Vec<u8>,
}

impl Packet {
    /// The data flags of a DATA packet (0 for a short one).
    pub fn data_flags(&self) -> u16 {
        match self.body.get(..2) {
            Some(b) if self.ptype == DATA => u16::from_be_bytes([b[0], b[1]]),
            _ => 0,
        }
    }

    /// The payload of a DATA packet, after its data flags.
    pub fn payload(&self) -> &[u8] {
        if self.ptype == DATA {
            self.body.get(2..).unwrap_or(&[])
        } else {
            &self.body
        }
    }

    /// The marker type of a MARKER packet.
    pub fn marker_type(&self) -> Option<u8> {
        (self.ptype == MARKER)
            .then(|| self.body.get(2).copied())
            .flatten()
    }

    /// The whole length as it was on the wire.
    pub fn wire_len(&self) -> usize {
        self.body.len() + HEADER
    }
}

/// Reads one packet. `Ok(None)` when the peer closed the connection between packets.
/// `large`: four-byte lengths (after ACCEPT).
pub fn read_packet(r: &mut impl Read, large: bool) -> io::Result<Option<Packet>> {
    let mut header = [0u8; HEADER];
    let mut got = 0;
    while got < HEADER {
        match r.read(&mut header[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let len = if large {
        u32::from_be_bytes([header[0], header[1], header[2], header[3]]) as usize
    } else {
        usize::from(u16::from_be_bytes([header[0], header[1]]))
    };
    if !(HEADER..=MAX_PACKET).contains(&len) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("packet length {len} out of range"),
        ));
    }
    // Not TNS (say, an HTTP request): refuse before waiting for a body that will not come.
    if !matches!(header[4], 1..=7 | 9 | 11..=14) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("unknown packet type {}", header[4]),
        ));
    }
    let mut body = vec![0u8; len - HEADER];
    r.read_exact(&mut body)?;
    Ok(Some(Packet {
        ptype: header[4],
        flags: header[5],
        body,
    }))
}

/// The bytes of one packet with the given body.
pub fn encode_packet(ptype: u8, flags: u8, body: &[u8], large: bool) -> Vec<u8> {
    let len = body.len() + HEADER;
    let mut out = Vec::with_capacity(len);
    if large {
        out.extend_from_slice(&(len as u32).to_be_bytes());
    } else {
        out.extend_from_slice(&(len.min(0xffff) as u16).to_be_bytes());
        out.extend_from_slice(&[0, 0]);
    }
    out.extend_from_slice(&[ptype, flags, 0, 0]);
    out.extend_from_slice(body);
    out
}

/// Writes a payload as DATA packets of at most `sdu` bytes each.
pub fn write_data(
    w: &mut impl Write,
    payload: &[u8],
    data_flags: u16,
    sdu: usize,
    large: bool,
) -> io::Result<()> {
    let room = sdu.saturating_sub(HEADER + 2).max(1);
    let mut out = Vec::with_capacity(payload.len() + (payload.len() / room + 1) * (HEADER + 2));
    let mut chunks = payload.chunks(room).peekable();
    if chunks.peek().is_none() {
        out.extend(encode_packet(DATA, 0, &data_flags.to_be_bytes(), large));
    }
    while let Some(chunk) = chunks.next() {
        let flags = if chunks.peek().is_none() {
            data_flags
        } else {
            0
        };
        let mut body = Vec::with_capacity(chunk.len() + 2);
        body.extend_from_slice(&flags.to_be_bytes());
        body.extend_from_slice(chunk);
        out.extend(encode_packet(DATA, 0, &body, large));
    }
    w.write_all(&out)?;
    w.flush()
}

/// Writes a MARKER packet.
pub fn write_marker(w: &mut impl Write, marker: u8, large: bool) -> io::Result<()> {
    w.write_all(&encode_packet(MARKER, 0, &[1, 0, marker], large))?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_round_trip_in_both_length_forms() {
        for large in [false, true] {
            let bytes = encode_packet(DATA, 0, &[0, 0, 1, 2, 3], large);
            let p = read_packet(&mut &bytes[..], large).unwrap().unwrap();
            assert_eq!(p.ptype, DATA);
            assert_eq!(p.payload(), &[1, 2, 3]);
            assert_eq!(p.wire_len(), bytes.len());
        }
    }

    #[test]
    fn payloads_split_at_the_sdu() {
        let mut out = Vec::new();
        write_data(&mut out, &[9u8; 100], 0, 50, true).unwrap();
        let mut r = &out[..];
        let mut total = 0;
        while let Some(p) = read_packet(&mut r, true).unwrap() {
            assert!(p.wire_len() <= 50);
            total += p.payload().len();
        }
        assert_eq!(total, 100);
    }

    #[test]
    fn bad_lengths_are_errors_not_panics() {
        assert!(read_packet(&mut &[0u8, 3, 0, 0, 6, 0, 0, 0][..], false).is_err());
        assert!(read_packet(&mut &[0xffu8, 0xff, 0xff, 0xff, 6, 0, 0, 0][..], true).is_err());
        assert!(read_packet(&mut &[0u8, 20, 0][..], false).is_err());
        assert!(read_packet(&mut &b"GET / HTTP/1.1\r\n"[..], false).is_err());
        assert!(read_packet(&mut &[][..], false).unwrap().is_none());
    }
}
