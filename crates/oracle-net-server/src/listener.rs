//! The listener: accepts connections, one thread each, and can be stopped.
//!
//! Stopping closes the listening socket (a new connect is then refused at TCP level) and shuts
//! down every open connection, whose clients see the connection drop. The standard library
//! sets SO_REUSEADDR on Unix listeners, so a listener restarted on the same port binds at once
//! even while old connections linger in TIME_WAIT.

use std::collections::HashMap;
use std::io;
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};

use crate::connect::{handshake, Handshake};
use crate::transport::Stream;
use crate::Backend;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::ServerConfig;

type Registry = Arc<Mutex<HashMap<u64, TcpStream>>>;

/// A running Oracle Net listener.
pub struct Listener {
    addr: SocketAddr,
    stopping: Arc<AtomicBool>,
    connections: Registry,
    accept_thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Listener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listener")
            .field("addr", &self.addr)
            .finish()
    }
}

/// How long a client may take to connect and log in (Oracle's INBOUND_CONNECT_TIMEOUT).
const LOGIN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

fn serve_connection(
    socket: TcpStream,
    backend: Arc<dyn Backend>,
    tls: Option<Arc<ServerConfig>>,
    id: u64,
    registry: Registry,
) {
    let _ = socket.set_nodelay(true);
    let _ = socket.set_read_timeout(Some(LOGIN_TIMEOUT));
    let peer = socket
        .peer_addr()
        .map(|a| a.to_string())
        .unwrap_or_default();
    tracing::debug!(%peer, id, tls = tls.is_some(), "connection accepted");
    let stream = match tls {
        // A TLS ClientHello (a record of type 22, version 3.x) at a plain port: close at once,
        // as Oracle's listener drops what is no TNS packet. Read as a TNS header it could pass
        // for a packet of some thousand bytes and hold the connection until the login timeout.
        None if is_tls_hello(&socket) => {
            tracing::info!(%peer, "a TLS client at a plain TCP port: closed (serve TCPS with --tls-cert)");
            None
        }
        None => Some(Stream::Tcp(socket)),
        // Logged where an operator sees it: a client without the CA, or speaking TNS in the
        // clear to a TCPS port, fails here and nowhere else.
        Some(config) => Stream::accept_tls(socket, config)
            .map_err(|e| tracing::info!(%peer, error = %e, "TLS handshake failed"))
            .ok(),
    };
    if let Some(mut stream) = stream {
        match handshake(&mut stream, backend.as_ref()) {
            Ok(Handshake::Accepted(accepted)) => crate::session::serve(stream, backend, accepted),
            Ok(Handshake::Ended(why)) => tracing::debug!(%peer, %why, "handshake ended"),
            Err(e) => tracing::debug!(%peer, error = %e, "handshake failed"),
        }
    }
    registry
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(&id);
}

/// Whether the first bytes a client sent start a TLS handshake record.
fn is_tls_hello(socket: &TcpStream) -> bool {
    let mut first = [0u8; 2];
    matches!(socket.peek(&mut first), Ok(2) if first == [0x16, 0x03])
}

impl Listener {
    /// Binds `addr` (port 0 picks a free port) and starts accepting connections for `backend`.
    pub fn bind(addr: impl ToSocketAddrs, backend: Arc<dyn Backend>) -> io::Result<Listener> {
        Listener::bind_with(addr, backend, None)
    }

    /// [`Listener::bind`] for TCPS: each connection begins with a TLS handshake with `config`
    /// ([`tls_config`]), and speaks Oracle Net inside it.
    pub fn bind_tls(
        addr: impl ToSocketAddrs,
        backend: Arc<dyn Backend>,
        config: Arc<ServerConfig>,
    ) -> io::Result<Listener> {
        Listener::bind_with(addr, backend, Some(config))
    }

    fn bind_with(
        addr: impl ToSocketAddrs,
        backend: Arc<dyn Backend>,
        tls: Option<Arc<ServerConfig>>,
    ) -> io::Result<Listener> {
        let socket = TcpListener::bind(addr)?;
        let addr = socket.local_addr()?;
        let stopping = Arc::new(AtomicBool::new(false));
        let connections: Registry = Arc::default();
        let next_id = AtomicU64::new(0);
        let (stop, registry) = (stopping.clone(), connections.clone());
        let accept_thread = thread::Builder::new()
            .name("oracle-net-listener".into())
            .spawn(move || {
                for incoming in socket.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let stream = match incoming {
                        Ok(s) => s,
                        Err(e) => {
                            tracing::debug!(error = %e, "accept failed");
                            continue;
                        }
                    };
                    let id = next_id.fetch_add(1, Ordering::Relaxed);
                    let Ok(clone) = stream.try_clone() else {
                        continue;
                    };
                    registry
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .insert(id, clone);
                    let (backend, registry, tls) = (backend.clone(), registry.clone(), tls.clone());
                    let spawned = thread::Builder::new()
                        .name("oracle-net-conn".into())
                        .spawn(move || serve_connection(stream, backend, tls, id, registry));
                    if let Err(e) = spawned {
                        tracing::warn!(error = %e, "could not start a connection thread");
                    }
                }
            })?;
        tracing::info!(%addr, "Oracle Net listener started");
        Ok(Listener {
            addr,
            stopping,
            connections,
            accept_thread: Some(accept_thread),
        })
    }

    /// The address bound (with the port chosen when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Connections currently open.
    pub fn connection_count(&self) -> usize {
        self.connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Stops accepting (new connects are refused) and closes every open connection. Idempotent.
    pub fn stop(&mut self) {
        let Some(thread) = self.accept_thread.take() else {
            return;
        };
        self.stopping.store(true, Ordering::SeqCst);
        // Wake the blocked accept with a connection of our own.
        let mut wake = self.addr;
        if wake.ip().is_unspecified() {
            wake.set_ip(match wake {
                SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
                SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
            });
        }
        match TcpStream::connect(wake) {
            Ok(_) => {
                let _ = thread.join();
            }
            Err(e) => tracing::warn!(error = %e, "could not wake the listener thread"),
        }
        let open: Vec<TcpStream> = self
            .connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain()
            .map(|(_, s)| s)
            .collect();
        for s in open {
            let _ = s.shutdown(Shutdown::Both);
        }
        tracing::info!(addr = %self.addr, "Oracle Net listener stopped");
    }
}

/// A TLS server configuration from PEM text: the certificate chain (the server's certificate
/// first, then any intermediates) and its private key (PKCS#8, PKCS#1 or SEC1, unencrypted);
/// with `client_ca_pem`, every client must present a certificate signed by one of those CAs
/// (mutual TLS, Oracle's SSL_CLIENT_AUTHENTICATION=TRUE), else none is asked for. The error
/// says which part is at fault.
pub fn tls_config(
    chain_pem: &[u8],
    key_pem: &[u8],
    client_ca_pem: Option<&[u8]>,
) -> Result<Arc<ServerConfig>, String> {
    let chain = CertificateDer::pem_slice_iter(chain_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("the certificate file is not PEM: {e}"))?;
    if chain.is_empty() {
        return Err("the certificate file holds no CERTIFICATE".into());
    }
    let key = PrivateKeyDer::from_pem_slice(key_pem)
        .map_err(|e| format!("the key file holds no usable PRIVATE KEY: {e}"))?;
    let builder = ServerConfig::builder();
    let builder = match client_ca_pem {
        None => builder.with_no_client_auth(),
        Some(pem) => {
            let mut roots = rustls::RootCertStore::empty();
            for cert in CertificateDer::pem_slice_iter(pem) {
                let cert = cert.map_err(|e| format!("the client CA file is not PEM: {e}"))?;
                roots.add(cert).map_err(|e| {
                    format!("the client CA file holds an unusable certificate: {e}")
                })?;
            }
            if roots.is_empty() {
                return Err("the client CA file holds no CERTIFICATE".into());
            }
            let verifier = rustls::server::WebPkiClientVerifier::builder(Arc::new(roots))
                .build()
                .map_err(|e| format!("the client CA file cannot verify clients: {e}"))?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    builder
        .with_single_cert(chain, key)
        .map(Arc::new)
        .map_err(|e| format!("the key does not go with the certificate: {e}"))
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.stop();
    }
}
