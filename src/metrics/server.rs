//! The metrics endpoint: a tiny HTTP/1.0-style server on std::net answering `GET /metrics`
//! (any other path: 404), one connection at a time on a thread of its own. Scrapes are rare
//! and small, so no HTTP library is needed.

use super::render;
use crate::capture::status::Status;
use crate::errors::{CdcError, Result};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

/// Listen on `addr` and serve the metrics until the process ends. Returns the bound address
/// (port 0 picks a free port).
pub fn serve(addr: &str, status: Status) -> Result<SocketAddr> {
    let listener = TcpListener::bind(addr).map_err(|e| CdcError::MetricsListen {
        address: addr.to_string(),
        reason: e.to_string(),
    })?;
    let bound = listener.local_addr().map_err(|e| CdcError::MetricsListen {
        address: addr.to_string(),
        reason: e.to_string(),
    })?;
    std::thread::Builder::new()
        .name("metrics".into())
        .spawn(move || {
            for conn in listener.incoming().flatten() {
                if let Err(e) = answer(conn, &status) {
                    tracing::debug!("metrics request: {e}");
                }
            }
        })
        .map_err(|e| CdcError::MetricsListen {
            address: addr.to_string(),
            reason: e.to_string(),
        })?;
    Ok(bound)
}

fn answer(mut conn: TcpStream, status: &Status) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(5)))?;
    conn.set_write_timeout(Some(Duration::from_secs(5)))?;
    // The request head only (a GET has no body); at most 8 KiB of it.
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 8192 {
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
