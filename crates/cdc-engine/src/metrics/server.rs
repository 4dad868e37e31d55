//! The metrics endpoint: `GET /metrics` (any other path: 404) over HTTP/1.1 with
//! `Connection: close`, on std::net.
//!
//! Every connection gets a thread of its own, so a slow or idle client never holds up another
//! scrape (before, connections were answered one at a time: one client sending a byte every
//! 2 s blocked every scrape, 200 idle connections blocked it for over 30 s). A client has
//! [`HEAD_DEADLINE`] in all to send its request head — however slowly its bytes come — and
//! [`WRITE_TIMEOUT`] to take the answer; then it is dropped. At most [`MAX_CONNECTIONS`] are
//! served at once; a connection beyond that is closed at once (shed), so a flood cannot make
//! capture start threads without bound.
//!
//! Why no HTTP crate: the two that fit were weighed. tiny_http also gives each client a thread,
//! but it has neither a deadline for the request nor a bound on connections, so it sheds
//! nobody; hyper (with axum) sheds well but brings an async runtime (tokio) into a program
//! that is otherwise threads, for one endpoint that answers one GET. What is served is one
//! request line and one fixed-shape answer, which fits in the few lines below.

use super::render;
use crate::errors::{CdcError, Result};
use crate::status::Status;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Connections served at once; more are closed as they arrive.
pub const MAX_CONNECTIONS: usize = 256;
/// How long a client may take to send its request head, in all.
pub const HEAD_DEADLINE: Duration = Duration::from_secs(2);
/// How long a client may take to read the answer.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(2);
/// Longest request head read.
const MAX_HEAD: usize = 8192;

/// Limits of one server (tests shorten the deadline).
#[derive(Debug, Clone, Copy)]
struct Limits {
    max_connections: usize,
    head_deadline: Duration,
}

/// Listen on `addr` and serve the metrics until the process ends. Returns the bound address
/// (port 0 picks a free port).
pub fn serve(addr: &str, status: Status) -> Result<SocketAddr> {
    serve_with(
        addr,
        status,
        Limits {
            max_connections: MAX_CONNECTIONS,
            head_deadline: HEAD_DEADLINE,
        },
    )
}

fn serve_with(addr: &str, status: Status, limits: Limits) -> Result<SocketAddr> {
    let fail = |e: std::io::Error| CdcError::MetricsListen {
        address: addr.to_string(),
        reason: e.to_string(),
    };
    let listener = TcpListener::bind(addr).map_err(fail)?;
    let bound = listener.local_addr().map_err(fail)?;
    let active = Arc::new(AtomicUsize::new(0));
    std::thread::Builder::new()
        .name("metrics".into())
        .spawn(move || {
            for conn in listener.incoming().flatten() {
                if active.load(Ordering::SeqCst) >= limits.max_connections {
                    tracing::debug!(
                        "metrics: {} connections open, one shed",
                        limits.max_connections
                    );
                    drop(conn);
                    continue;
                }
                active.fetch_add(1, Ordering::SeqCst);
                let slot = Slot(active.clone());
                let status = status.clone();
                let spawned = std::thread::Builder::new()
                    .name("metrics-client".into())
                    .stack_size(128 * 1024)
                    .spawn(move || {
                        let _slot = slot;
                        if let Err(e) = answer(conn, &status, limits.head_deadline) {
                            tracing::debug!("metrics request: {e}");
                        }
                    });
                if let Err(e) = spawned {
                    // The closure (and its slot) is dropped: the count goes back down.
                    tracing::debug!("metrics: no thread for a client: {e}");
                }
            }
        })
        .map_err(fail)?;
    Ok(bound)
}

/// A connection being served; counted until dropped.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn answer(mut conn: TcpStream, status: &Status, deadline: Duration) -> std::io::Result<()> {
    conn.set_write_timeout(Some(WRITE_TIMEOUT))?;
    // The request head only (a GET has no body), within the deadline however it trickles in.
    let until = Instant::now() + deadline;
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < MAX_HEAD {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "no complete request head in time: client dropped",
            ));
        }
        conn.set_read_timeout(Some(left))?;
        let n = conn.read(&mut buf)?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let line = String::from_utf8_lossy(&head);
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let path = path.split('?').next().unwrap_or("");
    let (code, kind, body) = match (method, path) {
        ("GET", "/metrics") => (
            "200 OK",
            "text/plain; version=0.0.4; charset=utf-8",
            render(status),
        ),
        ("GET", _) => ("404 Not Found", "text/plain", "try /metrics\n".to_string()),
        _ => (
            "405 Method Not Allowed",
            "text/plain",
            "only GET\n".to_string(),
        ),
    };
    write!(
        conn,
        "HTTP/1.1 {code}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    conn.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::OpsLog;
    use std::sync::Arc;

    fn get(addr: SocketAddr, path: &str) -> String {
        let mut c = TcpStream::connect(addr).unwrap();
        write!(c, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut out = String::new();
        c.read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn serves_metrics_and_404s_the_rest() {
        let status = Status::new(Arc::new(OpsLog::discard()));
        status.board().stream.mined_scn = 4242;
        let addr = serve("127.0.0.1:0", status).unwrap();
        let ok = get(addr, "/metrics");
        assert!(ok.starts_with("HTTP/1.1 200 OK\r\n"), "{ok}");
        assert!(ok.contains("Content-Type: text/plain; version=0.0.4"));
        assert!(ok.contains("\noracle_cdc_stream_mined_scn 4242\n"), "{ok}");
        assert!(get(addr, "/").starts_with("HTTP/1.1 404"));
    }

    fn server(max_connections: usize, head_deadline: Duration) -> SocketAddr {
        let status = Status::new(Arc::new(OpsLog::discard()));
        status.board().stream.mined_scn = 7;
        serve_with(
            "127.0.0.1:0",
            status,
            Limits {
                max_connections,
                head_deadline,
            },
        )
        .unwrap()
    }

    #[test]
    fn scrapes_are_answered_while_many_clients_sit_idle_or_trickle() {
        // Longer than the test runs: the idle clients stay connected throughout.
        let addr = server(MAX_CONNECTIONS, Duration::from_secs(600));
        let idle: Vec<TcpStream> = (0..200)
            .map(|_| TcpStream::connect(addr).unwrap())
            .collect();
        // A client sending its request a byte at a time, never finishing it.
        let mut slow = TcpStream::connect(addr).unwrap();
        slow.write_all(b"GET /met").unwrap();
        // Concurrent scrapes, all answered.
        let scrapes: Vec<_> = (0..8)
            .map(|_| std::thread::spawn(move || get(addr, "/metrics")))
            .collect();
        for s in scrapes {
            let out = s.join().unwrap();
            assert!(out.contains("\noracle_cdc_stream_mined_scn 7\n"), "{out}");
        }
        slow.write_all(b"r").unwrap();
        assert!(get(addr, "/metrics").starts_with("HTTP/1.1 200 OK"));
        drop(idle);
    }

    #[test]
    fn an_idle_client_is_dropped_and_a_flood_beyond_the_bound_is_shed() {
        let addr = server(4, Duration::from_millis(100));
        // Sends nothing: the server closes it (a read sees the end) instead of waiting forever.
        let mut idle = TcpStream::connect(addr).unwrap();
        let mut out = Vec::new();
        assert_eq!(idle.read_to_end(&mut out).unwrap_or(0), 0);
        // Beyond the bound connections are closed at once; once they go, scrapes are answered.
        let addr = server(2, Duration::from_secs(600));
        let held: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(addr).unwrap()).collect();
        // The server has counted both once a third is shed; a shed one reads the end at once.
        let mut shed = TcpStream::connect(addr).unwrap();
        let _ = write!(shed, "GET /metrics HTTP/1.1\r\n\r\n");
        let mut out = String::new();
        let _ = shed.read_to_string(&mut out);
        assert!(out.is_empty(), "shed, not answered: {out}");
        drop(held);
        let mut answered = false;
        for _ in 0..1000 {
            let mut c = TcpStream::connect(addr).unwrap();
            let _ = write!(c, "GET /metrics HTTP/1.1\r\n\r\n");
            let mut out = String::new();
            let _ = c.read_to_string(&mut out);
            if out.starts_with("HTTP/1.1 200") {
                answered = true;
                break;
            }
            std::thread::yield_now();
        }
        assert!(answered, "the bound frees up when clients go");
    }

    #[test]
    fn a_taken_address_is_a_cdc_error() {
        let taken = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = taken.local_addr().unwrap().to_string();
        let status = Status::new(Arc::new(OpsLog::discard()));
        let e = serve(&addr, status).unwrap_err();
        assert!(e.to_string().starts_with("CDC-2101: "), "{e}");
        assert!(e.to_string().contains(&addr));
    }
}
