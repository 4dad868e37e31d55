//! TLS to the brokers (`cdc.sink.kafka.security.protocol=SSL`), with rustls: the TLS release
//! and provider (aws-lc-rs) the Oracle thin driver and the emulator's TCPS listener already
//! build, so the binary carries one TLS stack. The broker's certificate is verified against
//! `cdc.sink.kafka.ssl.ca.location` (PEM) when set, else the Mozilla roots (webpki-roots:
//! managed Kafka services present publicly trusted certificates), and its name must match the
//! broker's host as listed (bootstrap) or advertised (metadata), as Kafka's clients check by
//! default (ssl.endpoint.identification.algorithm=https).

use super::KafkaError;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The TLS configuration for `ca` (a PEM file of CA certificates), or the Mozilla roots.
/// `Err` names the file and what is wrong with it.
pub fn client_config(ca: Option<&Path>) -> Result<Arc<ClientConfig>, String> {
    let mut roots = RootCertStore::empty();
    match ca {
        Some(path) => {
            let pem = std::fs::read(path)
                .map_err(|e| format!("{} cannot be read: {e}", path.display()))?;
            let mut added = 0;
            for cert in CertificateDer::pem_slice_iter(&pem) {
                let cert = cert.map_err(|e| {
                    format!("{} is not a PEM certificate file: {e}", path.display())
                })?;
                roots
                    .add(cert)
                    .map_err(|e| format!("{}: a certificate is not usable: {e}", path.display()))?;
                added += 1;
            }
            if added == 0 {
                return Err(format!(
                    "{} holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
                    path.display()
                ));
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    Ok(Arc::new(
        ClientConfig::builder()
            .with_root_certificates(roots)
            .with_no_client_auth(),
    ))
}

/// A connection to a broker: plain TCP or TLS over it.
pub enum Stream {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
}

impl Stream {
    /// TLS over `tcp` to `host`, the handshake finished within `timeout`. The socket's read
    /// timeout is a short slice (the caller's), so the handshake's reads are retried until the
    /// deadline. An I/O failure is a network error (retried); a TLS failure (a certificate
    /// not trusted or not for `host`, a peer that does not speak TLS) is [`KafkaError::Tls`],
    /// which retrying cannot fix.
    pub fn tls(
        config: &Arc<ClientConfig>,
        mut tcp: TcpStream,
        host: &str,
        shown: &str,
        timeout: Duration,
    ) -> Result<Stream, KafkaError> {
        let name = ServerName::try_from(host.to_string()).map_err(|e| {
            KafkaError::Tls(format!(
                "{shown}: `{host}` cannot be a TLS server name: {e}"
            ))
        })?;
        let mut conn = ClientConnection::new(config.clone(), name)
            .map_err(|e| KafkaError::Tls(format!("{shown}: {e}")))?;
        let deadline = Instant::now() + timeout;
        while conn.is_handshaking() {
            match conn.complete_io(&mut tcp) {
                Ok(_) => {}
                Err(e) if is_wait(&e) => {
                    if Instant::now() >= deadline {
                        return Err(KafkaError::Network(format!(
                            "{shown}: no TLS handshake within {} ms",
                            timeout.as_millis()
                        )));
                    }
                }
                // rustls reports its own failures as InvalidData with the rustls error inside.
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    return Err(KafkaError::Tls(format!(
                        "{shown}: the TLS handshake failed: {e}"
                    )))
                }
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                    return Err(KafkaError::Tls(format!(
                        "{shown}: the broker closed the connection during the TLS handshake (is \
                         this a TLS listener? a PLAINTEXT one closes or answers garbage)"
                    )))
                }
                Err(e) => {
                    return Err(KafkaError::Network(format!(
                        "{shown}: during the TLS handshake: {e}"
                    )))
                }
            }
        }
        Ok(Stream::Tls(Box::new(StreamOwned::new(conn, tcp))))
    }
}

fn is_wait(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock
            | std::io::ErrorKind::TimedOut
            | std::io::ErrorKind::Interrupted
    )
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Stream::Plain(s) => s.flush(),
            Stream::Tls(s) => s.flush(),
        }
    }
}
