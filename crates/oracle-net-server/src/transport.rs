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
    /// Bytes this handle read from the socket that rustls has not taken yet: it takes no
    /// more while 16 KB of plaintext wait to be read, so they are fed a record's worth at a
    /// time, between reads of the plaintext.
    unfed: Vec<u8>,
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
            unfed: Vec::new(),
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
                unfed: Vec::new(),
            }),
        })
    }

    pub fn set_read_timeout(&self, timeout: Option<Duration>) -> io::Result<()> {
        self.tcp().set_read_timeout(timeout)
    }

    /// Closes the socket both ways (the other handle's blocked read ends too). A TLS session
    /// says so first (close_notify), as a clean close does, unless the other handle is sending
    /// (perhaps blocked on a client that stopped reading): the close never waits for it.
    pub fn shutdown(&self) {
        if let Stream::Tls(t) = self {
            if let Ok(order) = t.sending.try_lock() {
                let _ = t.tcp.set_write_timeout(Some(CLOSE_NOTIFY_WAIT));
                t.lock().send_close_notify();
                let _ = t.send_queued(&order);
            }
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
        let order = self.sending.lock().unwrap_or_else(PoisonError::into_inner);
        let out = f(&mut self.lock())?;
        self.send_queued(&order)?;
        Ok(out)
    }

    /// Sends the records the session has queued, until it has none: those the other handle
    /// queued meanwhile too (it leaves them to whoever holds `sending`, [`TlsStream::read`]).
    /// `_order` is the `sending` lock, held.
    fn send_queued(&self, _order: &MutexGuard<'_, ()>) -> io::Result<()> {
        loop {
            let mut records = Vec::new();
            {
                let mut session = self.lock();
                while session.wants_write() {
                    session.write_tls(&mut records)?;
                }
            }
            if records.is_empty() {
                return Ok(());
            }
            (&self.tcp).write_all(&records)?;
        }
    }

    /// Sends what the session queued while reading (an alert, an answer to a key update) if
    /// no other handle is sending; one that is sends it after its own records. Never waits for
    /// `sending`: the writer may be blocked on a client that reads only once this reader has
    /// drained what the client sent.
    fn send_from_reader(&self) -> io::Result<()> {
        match self.sending.try_lock() {
            Ok(order) => self.send_queued(&order),
            Err(_) => Ok(()),
        }
    }

    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let mut raw = [0u8; RECORD_BYTES];
        loop {
            let failed = {
                // The field, not `self.lock()`: `unfed` is borrowed beside it.
                let mut session = self.session.lock().unwrap_or_else(PoisonError::into_inner);
                match session.reader().read(buf) {
                    // Plaintext, or 0 after the client's close_notify.
                    Ok(n) => return Ok(n),
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                    Err(e) => return Err(e),
                }
                if self.unfed.is_empty() {
                    None
                } else {
                    // No plaintext waits, so rustls takes at least a record's worth.
                    let mut fed = &self.unfed[..];
                    let taken = session.read_tls(&mut fed)?;
                    if taken == 0 {
                        // Past the client's close_notify: the rest is after the end.
                        self.unfed.clear();
                    } else {
                        self.unfed.drain(..taken);
                    }
                    let failed = session.process_new_packets().err();
                    Some((failed, session.wants_write()))
                }
            };
            match failed {
                Some((Some(e), _)) => {
                    // Tell the client why (the alert rustls queued).
                    let _ = self.send_from_reader();
                    return Err(io::Error::new(io::ErrorKind::InvalidData, e));
                }
                Some((None, true)) => self.send_from_reader()?,
                Some((None, false)) => {}
                None => {
                    // Nothing to decrypt: wait for the client's next bytes without holding the
                    // session, so the other handle can write meanwhile.
                    let n = (&self.tcp).read(&mut raw)?;
                    if n == 0 {
                        // The socket closed without a close_notify: the end of the stream.
                        return Ok(0);
                    }
                    self.unfed.extend_from_slice(&raw[..n]);
                }
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
    use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
    use std::net::TcpListener;
    use std::path::PathBuf;
    use std::sync::mpsc;

    fn tls_dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/all/tls")
    }

    fn read(name: &str) -> Vec<u8> {
        std::fs::read(tls_dir().join(name)).unwrap()
    }

    fn pattern(len: usize, seed: u8) -> Vec<u8> {
        (0..len)
            .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
            .collect()
    }

    /// A server config with the test certificate; requiring client certificates of the test
    /// CA with `mutual`.
    fn server_config(mutual: bool) -> Arc<ServerConfig> {
        let ca = read("ca.pem");
        crate::tls_config(
            &read("server.pem"),
            &read("server.key"),
            mutual.then_some(ca.as_slice()),
        )
        .unwrap()
    }

    /// A client trusting the test CA, presenting the test client certificate with `cert`.
    fn client(
        addr: std::net::SocketAddr,
        cert: bool,
    ) -> rustls::StreamOwned<rustls::ClientConnection, TcpStream> {
        let mut roots = rustls::RootCertStore::empty();
        for c in CertificateDer::pem_slice_iter(&read("ca.pem")) {
            roots.add(c.unwrap()).unwrap();
        }
        let builder = rustls::ClientConfig::builder().with_root_certificates(roots);
        let config = if cert {
            let chain = CertificateDer::pem_slice_iter(&read("client.pem"))
                .collect::<Result<Vec<_>, _>>()
                .unwrap();
            let key = PrivateKeyDer::from_pem_slice(&read("client.key")).unwrap();
            builder.with_client_auth_cert(chain, key).unwrap()
        } else {
            builder.with_no_client_auth()
        };
        let name = ServerName::try_from("localhost").unwrap();
        let conn = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
        rustls::StreamOwned::new(conn, TcpStream::connect(addr).unwrap())
    }

    /// Both directions at once, each far past what rustls buffers: the server's reader handle
    /// drains a client that writes 4 MB first (in pieces that do not fall on record or read
    /// boundaries) while the writer handle's megabyte waits for that client to read. With one
    /// lock held across socket writes (or a whole response handed to rustls at once, or bytes
    /// fed to rustls while 16 KB of plaintext waited) this hung or failed.
    #[test]
    fn a_tls_stream_carries_megabytes_each_way_at_once() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let (up, down) = (pattern(4 << 20, 7), pattern(1 << 20, 11));
        let (up_len, down_sent) = (up.len(), down.clone());
        let config = server_config(false);
        let server = std::thread::spawn(move || {
            let (socket, _) = listener.accept().unwrap();
            let mut writer = Stream::accept_tls(socket, config).unwrap();
            let mut reader = writer.try_clone().unwrap();
            let got = std::thread::spawn(move || {
                let mut got = vec![0u8; up_len];
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
            let mut tls = client(addr, false);
            for piece in up.chunks(4093) {
                tls.write_all(piece).unwrap();
            }
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
            "the server got the client's 4 MB"
        );
    }

    /// Mutual TLS: a client with a certificate of the CA gets through the handshake and talks;
    /// one without is refused in it, and the server says so (CertificateRequired).
    #[test]
    fn a_mutual_tls_listener_takes_a_client_certificate_and_refuses_none() {
        for cert in [true, false] {
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            let addr = listener.local_addr().unwrap();
            let config = server_config(true);
            let server = std::thread::spawn(move || {
                let (socket, _) = listener.accept().unwrap();
                socket
                    .set_read_timeout(Some(Duration::from_secs(30)))
                    .unwrap();
                let mut stream = Stream::accept_tls(socket, config)?;
                let mut hello = [0u8; 5];
                stream.read_exact(&mut hello)?;
                stream.write_all(b"world")?;
                stream.flush()?;
                Ok::<_, io::Error>(hello)
            });
            let mut tls = client(addr, cert);
            let mut answer = [0u8; 5];
            let talked = tls
                .write_all(b"hello")
                .and_then(|()| tls.flush())
                .and_then(|()| tls.read_exact(&mut answer));
            let served = server.join().unwrap();
            if cert {
                talked.unwrap();
                assert_eq!(&answer, b"world");
                assert_eq!(&served.unwrap(), b"hello");
            } else {
                let why = served.expect_err("served a client without a certificate");
                assert!(why.to_string().contains("certificate"), "{why}");
                let err = talked.expect_err("talked without a certificate");
                assert!(err.to_string().contains("CertificateRequired"), "{err}");
            }
        }
    }
}
