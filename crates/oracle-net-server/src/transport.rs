//! A connection's byte stream: plain TCP, or TLS over it (TCPS, `Listener::bind_tls`).
//!
//! Why a stream type of our own: a connection is read on one thread (`conn`'s reader, which
//! must see a break while a call runs) and written on another, over two handles of one socket
//! (`try_clone`). A TLS session is one state for both directions, so the two handles of a TLS
//! stream share it behind a lock: the reader reads raw bytes from the socket without the lock
//! (it may block for as long as the client is quiet) and takes the lock only to hand them to
//! rustls and take out what they decrypt to; the writer takes it to encrypt into a buffer, and
//! sends that after letting it go ([`TlsStream`]). Writing records while the other side's
//! bytes are read is what TLS allows (the directions are independent once the handshake is
//! done, which it is before the handles are split).
//!
//! As an Oracle listener configured for TCPS does, the TLS handshake comes first, before any
//! TNS packet: a client that speaks TNS to it in the clear fails the handshake, and a TLS client
//! at a plain TCP listener sends what no TNS packet starts with. Both connections are closed.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rustls::{ServerConfig, ServerConnection};

/// One connection's byte stream, or a second handle of it ([`Stream::try_clone`]).
pub enum Stream {
    Tcp(TcpStream),
    Tls(TlsStream),
}

/// A TLS session over a socket: this handle's socket, the session both handles share, and the
/// lock that keeps their records in order on the socket.
///
/// Two locks, always taken in this order: `sending` (held while records go out, so they reach
/// the socket in the order they were made: TLS numbers them) then `session` (held only to
/// encrypt into a buffer or to decrypt, never across a socket write). So a writer blocked on a
/// client that does not read never keeps the reader from handing on what it has read.
pub struct TlsStream {
    tcp: TcpStream,
    session: Arc<Mutex<ServerConnection>>,
    sending: Arc<Mutex<()>>,
}

/// TLS records come in up to 16 KB of payload plus their framing.
const RECORD_BYTES: usize = 16 * 1024 + 256;

/// How long a close_notify may wait to be sent before the socket is closed anyway.
const CLOSE_NOTIFY_WAIT: Duration = Duration::from_secs(1);

impl Stream {
    /// The TLS handshake as the server, on a freshly accepted socket (its read timeout bounds
    /// how long a silent client can hold it).
    pub fn accept_tls(mut tcp: TcpStream, config: Arc<ServerConfig>) -> io::Result<Stream> {
        let mut session = ServerConnection::new(config).map_err(io::Error::other)?;
        while session.is_handshaking() {
            // Fails on a peer that does not speak TLS (a TNS CONNECT in the clear) or that
            // rejects the certificate (rustls sends the alert first); an end of file is
            // UnexpectedEof, so this cannot spin.
            session.complete_io(&mut tcp)?;
        }
        Ok(Stream::Tls(TlsStream {
            tcp,
            session: Arc::new(Mutex::new(session)),
            sending: Arc::new(Mutex::new(())),
        }))
    }

    fn tcp(&self) -> &TcpStream {
        match self {
            Stream::Tcp(s) => s,
            Stream::Tls(t) => &t.tcp,
        }
    }

    /// A second handle of the same connection, for another thread.
    pub fn try_clone(&self) -> io::Result<Stream> {
        Ok(match self {
            Stream::Tcp(s) => Stream::Tcp(s.try_clone()?),
            Stream::Tls(t) => Stream::Tls(TlsStream {
                tcp: t.tcp.try_clone()?,
                session: Arc::clone(&t.session),
                sending: Arc::clone(&t.sending),
            }),
        })
    }

    pub fn set_read_timeout(&self, timeout: Option<Duration>) -> io::Result<()> {
        self.tcp().set_read_timeout(timeout)
    }

    /// Closes the socket both ways (the other handle's blocked read ends too). A TLS session
    /// says so first (close_notify), as a clean close does, if that can be sent within a
    /// second: a client that stopped reading does not hold the close up.
    pub fn shutdown(&self) {
        if let Stream::Tls(t) = self {
            let _ = t.tcp.set_write_timeout(Some(CLOSE_NOTIFY_WAIT));
            let _ = t.send_with(|session| {
                session.send_close_notify();
                Ok(())
            });
        }
        let _ = self.tcp().shutdown(Shutdown::Both);
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read(buf),
            Stream::Tls(t) => t.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write(buf),
            Stream::Tls(t) => t.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.flush(),
            Stream::Tls(t) => t.flush(),
        }
    }
}

impl TlsStream {
    fn lock(&self) -> MutexGuard<'_, ServerConnection> {
        self.session.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `f` on the session, then sends every record it made, in order.
    fn send_with<T>(
        &self,
        f: impl FnOnce(&mut ServerConnection) -> io::Result<T>,
    ) -> io::Result<T> {
        let _order = self.sending.lock().unwrap_or_else(PoisonError::into_inner);
        let (out, records) = {
            let mut session = self.lock();
            let out = f(&mut session)?;
            let mut records = Vec::new();
            while session.wants_write() {
                session.write_tls(&mut records)?;
            }
            (out, records)
        };
        (&self.tcp).write_all(&records)?;
        Ok(out)
    }

    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let mut raw = [0u8; RECORD_BYTES];
        loop {
            {
                let mut session = self.lock();
                match session.reader().read(buf) {
                    // Plaintext, or 0 after the client's close_notify.
                    Ok(n) => return Ok(n),
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                    Err(e) => return Err(e),
                }
            }
            // No plaintext yet: wait for the client's next bytes without holding the session,
            // so the other handle can write meanwhile.
            let n = (&self.tcp).read(&mut raw)?;
            if n == 0 {
                // The socket closed without a close_notify: the end of the stream.
                return Ok(0);
            }
            let answer = {
                let mut session = self.lock();
                let mut fed = &raw[..n];
                let mut failed = None;
                while !fed.is_empty() {
                    // 0: the session takes nothing more (after a close_notify); the rest of
                    // these bytes are past the end of the stream.
                    if session.read_tls(&mut fed)? == 0 {
                        break;
                    }
                    if let Err(e) = session.process_new_packets() {
                        failed = Some(e);
                        break;
                    }
                }
                // An alert for a failure, or an answer to a key update.
                (failed, session.wants_write())
            };
            match answer {
                (Some(e), _) => {
                    let _ = self.send_with(|_| Ok(()));
                    return Err(io::Error::new(io::ErrorKind::InvalidData, e));
                }
                (None, true) => self.send_with(|_| Ok(()))?,
                (None, false) => {}
            }
        }
    }

    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // In pieces: rustls buffers at most 64 KB of plaintext it has not sent (its `write`
        // then takes 0 bytes), and a response can be larger.
        let mut rest = buf;
        while !rest.is_empty() {
            let taken = self.send_with(|session| session.writer().write(rest))?;
            if taken == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    "the TLS session takes no more data",
                ));
            }
            rest = &rest[taken..];
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.send_with(|_| Ok(()))?;
        (&self.tcp).flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, ServerName};
    use std::net::TcpListener;
    use std::path::PathBuf;
    use std::sync::mpsc;

    fn tls_dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/all/tls")
    }

    fn pattern(len: usize, seed: u8) -> Vec<u8> {
        (0..len)
            .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
            .collect()
    }

    /// Both directions at once, each far past the 64 KB rustls buffers unsent: the server's
    /// reader handle drains a client that writes a megabyte first while the writer handle's
    /// megabyte waits for that client to read. With one lock held across socket writes (or a
    /// whole response handed to rustls at once) this hung or failed.
    #[test]
    fn a_tls_stream_carries_a_megabyte_each_way_at_once() {
        let dir = tls_dir();
        let config = crate::tls_config(
            &std::fs::read(dir.join("server.pem")).unwrap(),
            &std::fs::read(dir.join("server.key")).unwrap(),
            None,
        )
        .unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let (up, down) = (pattern(1 << 20, 7), pattern(1 << 20, 11));
        let down_sent = down.clone();
        let server = std::thread::spawn(move || {
            let (socket, _) = listener.accept().unwrap();
            let mut writer = Stream::accept_tls(socket, config).unwrap();
            let mut reader = writer.try_clone().unwrap();
            let got = std::thread::spawn(move || {
                let mut got = vec![0u8; 1 << 20];
                reader.read_exact(&mut got).unwrap();
                got
            });
            writer.write_all(&down_sent).unwrap();
            writer.flush().unwrap();
            let got = got.join().unwrap();
            writer.shutdown();
            got
        });
        let (done, result) = mpsc::channel();
        std::thread::spawn(move || {
            let mut roots = rustls::RootCertStore::empty();
            for cert in CertificateDer::pem_file_iter(dir.join("ca.pem")).unwrap() {
                roots.add(cert.unwrap()).unwrap();
            }
            let client = rustls::ClientConfig::builder()
                .with_root_certificates(roots)
                .with_no_client_auth();
            let name = ServerName::try_from("localhost").unwrap();
            let conn = rustls::ClientConnection::new(Arc::new(client), name).unwrap();
            let mut tls = rustls::StreamOwned::new(conn, TcpStream::connect(addr).unwrap());
            tls.write_all(&up).unwrap();
            tls.flush().unwrap();
            let mut got = vec![0u8; 1 << 20];
            tls.read_exact(&mut got).unwrap();
            // The server's close_notify ends the stream cleanly.
            let mut rest = Vec::new();
            let end = tls.read_to_end(&mut rest);
            let _ = done.send((got, rest.len(), end.is_ok(), up));
        });
        let (got, extra, clean_end, up) = result
            .recv_timeout(Duration::from_secs(60))
            .expect("the transfer finished within a minute");
        assert!(got == down, "the client got the server's megabyte");
        assert_eq!((extra, clean_end), (0, true), "then a clean end");
        assert!(
            server.join().unwrap() == up,
            "the server got the client's megabyte"
        );
    }
}
