//! What a peer cannot break: arbitrary bytes at every parser (no panic), garbage on the socket
//! (the connection ends, the server goes on), the listener's stop and restart.

mod common;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::Duration;

use oracle_net_server::encoding::{parse_login_bytes, parse_request_bytes, read_packet};
use oracle_net_server::Listener;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_requests_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = parse_request_bytes(&bytes);
        let _ = parse_login_bytes(&bytes);
        let _ = read_packet(&mut &bytes[..], false);
        let _ = read_packet(&mut &bytes[..], true);
    }

    /// Requests that start like real ones get further into the parsers.
    #[test]
    fn arbitrary_calls_never_panic(
        function in prop_oneof![Just(94u8), Just(4), Just(78), Just(5), Just(96), Just(59), any::<u8>()],
        piggyback in prop_oneof![Just(105u8), Just(135), Just(96), Just(176), Just(154), any::<u8>()],
        body in proptest::collection::vec(any::<u8>(), 0..256),
    ) {
        let mut call = vec![3u8, function, 1];
        call.extend_from_slice(&body);
        let _ = parse_request_bytes(&call);
        let mut with_piggyback = vec![17u8, piggyback, 1];
        with_piggyback.extend_from_slice(&body);
        let _ = parse_request_bytes(&with_piggyback);
    }
}

fn raw(dsn_port: u16) -> TcpStream {
    let s = TcpStream::connect(("127.0.0.1", dsn_port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

/// Reads until the server closes the connection (bounded by the read timeout).
fn drain_until_closed(s: &mut TcpStream) -> bool {
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

fn connect_ok(dsn: &str) {
    let config = oracledb::Config::default()
        .set_credentials(common::USER, common::PASSWORD)
        .set_connect_string(dsn)
        .unwrap();
    let conn = oracledb::connect(config).expect("a proper client still connects");
    conn.ping().unwrap();
}

#[test]
fn garbage_on_the_socket_ends_that_connection_only() {
    let (listener, _toy, dsn) = common::serve();
    let port = listener.local_addr().port();
    // Not a packet at all.
    let mut s = raw(port);
    s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    assert!(drain_until_closed(&mut s));
    // A packet length below the header's own size.
    let mut s = raw(port);
    s.write_all(&[0, 2, 0, 0, 1, 0, 0, 0]).unwrap();
    assert!(drain_until_closed(&mut s));
    // A CONNECT cut short, then the client goes away.
    let mut s = raw(port);
    s.write_all(&[0, 80, 0, 0, 1, 0, 0, 0, 1, 63]).unwrap();
    s.shutdown(Shutdown::Write).unwrap();
    assert!(drain_until_closed(&mut s));
    // Connected and accepted, then nonsense where the protocol message belongs.
    let descriptor = b"(DESCRIPTION=(CONNECT_DATA=(SERVICE_NAME=EMU)))";
    let mut connect = vec![0u8; 74];
    connect[4] = 1;
    connect[8..10].copy_from_slice(&318u16.to_be_bytes());
    connect[14..16].copy_from_slice(&8192u16.to_be_bytes());
    connect[24..26].copy_from_slice(&(descriptor.len() as u16).to_be_bytes());
    connect[26..28].copy_from_slice(&74u16.to_be_bytes());
    connect.extend_from_slice(descriptor);
    let len = connect.len() as u16;
    connect[0..2].copy_from_slice(&len.to_be_bytes());
    let mut s = raw(port);
    s.write_all(&connect).unwrap();
    let mut accept = [0u8; 8];
    s.read_exact(&mut accept).unwrap();
    assert_eq!(accept[4], 2, "ACCEPT");
    let mut rest = vec![0u8; usize::from(u16::from_be_bytes([accept[0], accept[1]])) - 8];
    s.read_exact(&mut rest).unwrap();
    s.write_all(&[0, 0, 0, 14, 6, 0, 0, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef])
        .unwrap();
    assert!(drain_until_closed(&mut s));
    connect_ok(&dsn);
}

#[test]
fn a_stopped_listener_refuses_and_a_restarted_one_serves() {
    let (mut listener, toy, dsn) = common::serve();
    let addr = listener.local_addr();
    connect_ok(&dsn);
    // An open session dies with the listener.
    let config = oracledb::Config::default()
        .set_credentials(common::USER, common::PASSWORD)
        .set_connect_string(&dsn)
        .unwrap();
    let open = oracledb::connect(config).unwrap();
    listener.stop();
    assert!(
        TcpStream::connect(addr).is_err(),
        "connect refused while down"
    );
    assert!(open.ping().is_err(), "open sessions are closed");
    listener.stop();
    let again = Listener::bind(addr, toy).expect("rebind the same port");
    assert_eq!(again.local_addr(), addr);
    connect_ok(&dsn);
}
