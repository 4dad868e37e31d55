//! A small synchronous Kafka client connection: one TCP stream (TLS over it with
//! `cdc.sink.kafka.security.protocol=SSL` or `SASL_SSL`, see [`super::tls`]; authenticated with
//! SASL after ApiVersions with `SASL_*`, see [`super::sasl`]), requests framed and encoded with
//! the `kafka-protocol` crate, one request in flight at a time. Versions are negotiated with
//! ApiVersions: each request is sent at the highest version both this client and the broker
//! support, capped where this client knows the message layout (see [`caps`]).

use super::{parse_broker, stopping, KafkaError, StopFlag};
use bytes::{Buf, BufMut, Bytes, BytesMut};
use kafka_protocol::messages::{
    ApiKey, ApiVersionsRequest, ApiVersionsResponse, RequestHeader, ResponseHeader,
};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, Request, StrBytes};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// How long one read waits before checking the stop flag and the request's deadline again.
const READ_SLICE: Duration = Duration::from_millis(200);

/// After a stop, how long an answer is still waited for: a broker that answers in time lets the
/// last flush finish (the clean stop capture promises); one that does not cannot hold it up.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// The highest version of each request this client sends: past these, the messages change in
/// ways this client does not fill in (topic ids instead of names in Produce v13 and Fetch v13,
/// batched coordinator keys in FindCoordinator v4, broker-only batches in AddPartitionsToTxn v4).
pub mod caps {
    pub const PRODUCE: i16 = 9;
    pub const FETCH: i16 = 11;
    pub const METADATA: i16 = 12;
    pub const LIST_OFFSETS: i16 = 7;
    pub const INIT_PRODUCER_ID: i16 = 4;
    pub const FIND_COORDINATOR: i16 = 3;
    pub const ADD_PARTITIONS_TO_TXN: i16 = 3;
    pub const END_TXN: i16 = 3;
    pub const CREATE_TOPICS: i16 = 7;
}

/// Who connects and how: the client id every request carries, TLS when the brokers' listeners
/// speak it, and the SASL credentials when they require them.
#[derive(Clone)]
pub struct ClientOptions {
    pub id: String,
    pub tls: Option<std::sync::Arc<rustls::ClientConfig>>,
    pub sasl: Option<super::sasl::SaslConfig>,
}

impl ClientOptions {
    /// The client the Kafka sink's settings describe.
    pub fn of(cfg: &crate::settings::KafkaSettings) -> ClientOptions {
        ClientOptions {
            id: cfg.client_id.clone(),
            tls: cfg.tls.clone(),
            sasl: cfg.sasl.clone(),
        }
    }

    /// A client over plain TCP.
    pub fn plaintext(id: &str) -> ClientOptions {
        ClientOptions {
            id: id.to_string(),
            tls: None,
            sasl: None,
        }
    }
}

/// A connection to one broker.
pub struct Conn {
    stream: super::tls::Stream,
    pub addr: String,
    /// `addr` as messages show it: a broker string can carry `user:password@` (pasted from
    /// a client's settings); the password is never shown.
    shown: String,
    client_id: String,
    next_correlation: i32,
    /// Per API key, the versions the broker supports.
    versions: BTreeMap<i16, (i16, i16)>,
    /// How long a request waits for its answer.
    timeout: Duration,
    stop: Option<StopFlag>,
}

/// Why a broker could not be connected to: its name did not resolve, or it did not answer (or
/// answered the handshake with an error). A bootstrap pass counts both.
#[derive(Debug)]
pub struct ConnectFailure {
    pub unresolvable: bool,
    pub error: KafkaError,
}

/// A TCP connection to a broker item: every address its host resolves to is tried, each for at
/// most `timeout`.
fn open_stream(addr: &str, shown: &str, timeout: Duration) -> Result<TcpStream, ConnectFailure> {
    let unresolvable = |m: String| ConnectFailure {
        unresolvable: true,
        error: KafkaError::Network(format!("{shown}: {m}")),
    };
    // Checked at settings load already; a caller with its own address (a test, the metadata's
    // advertised listeners) gets the same message.
    let (host, port) = parse_broker(addr).map_err(unresolvable)?;
    let addrs: Vec<SocketAddr> = (host.as_str(), port)
        .to_socket_addrs()
        .map_err(|e| unresolvable(format!("the host name cannot be resolved: {e}")))?
        .collect();
    if addrs.is_empty() {
        return Err(unresolvable("the host name resolves to no address".into()));
    }
    let mut last = None;
    for sock in addrs {
        match TcpStream::connect_timeout(&sock, timeout) {
            Ok(stream) => return Ok(stream),
            Err(e) => last = Some(e),
        }
    }
    Err(ConnectFailure {
        unresolvable: false,
        error: KafkaError::Network(format!(
            "{shown}: {}",
            last.map_or_else(|| "no address".to_string(), |e| e.to_string())
        )),
    })
}

/// Names resolved at once by [`check_resolvable`]: a name that does not resolve can take the
/// resolver a while to say so, and a list of them is not to take that long times its length.
const RESOLVERS: usize = 8;

/// Whether any bootstrap broker's name resolves, as Kafka's own client checks when it is
/// created ("No resolvable bootstrap urls given in bootstrap.servers"): a list of which none
/// resolves is a setting to fix, not a broker to wait for. Names are resolved [`RESOLVERS`] at
/// a time until one does, for at most `within` (then what was not tried counts as not
/// resolved); a stop ends it. The error counts them.
pub fn check_resolvable(
    brokers: &[String],
    stop: Option<&StopFlag>,
    within: Duration,
) -> Result<(), KafkaError> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let deadline = Instant::now() + within;
    let next = AtomicUsize::new(0);
    let resolved = AtomicBool::new(false);
    let failed = AtomicUsize::new(0);
    let last = std::sync::Mutex::new(String::new());
    std::thread::scope(|scope| {
        for _ in 0..RESOLVERS.min(brokers.len()) {
            scope.spawn(|| loop {
                if resolved.load(Ordering::SeqCst)
                    || Instant::now() >= deadline
                    || stop.is_some_and(stopping)
                {
                    return;
                }
                let Some(b) = brokers.get(next.fetch_add(1, Ordering::SeqCst)) else {
                    return;
                };
                let why = match parse_broker(b) {
                    Ok((host, port)) => match (host.as_str(), port).to_socket_addrs() {
                        Ok(addrs) if addrs.len() > 0 => {
                            resolved.store(true, Ordering::SeqCst);
                            return;
                        }
                        Ok(_) => "no address".to_string(),
                        Err(e) => e.to_string(),
                    },
                    Err(m) => m,
                };
                failed.fetch_add(1, Ordering::SeqCst);
                *last.lock().unwrap_or_else(|p| p.into_inner()) =
                    format!("{}: {why}", crate::settings::redact_broker(b));
            });
        }
    });
    if resolved.load(Ordering::SeqCst) {
        return Ok(());
    }
    let failed = failed.load(Ordering::SeqCst);
    if stop.is_some_and(stopping) {
        return Err(KafkaError::Stopped(format!(
            "resolving the bootstrap brokers, {failed} of {} tried",
            brokers.len()
        )));
    }
    let untried = brokers.len().saturating_sub(failed);
    Err(KafkaError::Unresolvable(format!(
        "none of the {} bootstrap brokers resolves: {failed} could not be resolved{}; the last: {}",
        brokers.len(),
        if untried > 0 {
            format!(
                ", {untried} not tried within {} ms (a request's timeout, within the delivery timeout)",
                within.as_millis()
            )
        } else {
            String::new()
        },
        last.into_inner().unwrap_or_else(|p| p.into_inner())
    )))
}

/// One pass over the bootstrap `brokers`, from the one at `next` on: the first that answers
/// (`next` then names it; after a failed pass, the broker after the last tried, so a long list
/// is gone through across passes rather than its head again and again). The pass is bounded: each
/// broker is given what is left of `timeout` (one request's), and it ends early on a stop, so
/// a long list of dead or unresolvable names cannot hold capture past its delivery timeout or
/// a stop. Its error counts what was tried and why each failed.
pub fn connect_any(
    brokers: &[String],
    client: &ClientOptions,
    timeout: Duration,
    stop: Option<&StopFlag>,
    next: &mut usize,
) -> Result<Conn, KafkaError> {
    if brokers.is_empty() {
        return Err(KafkaError::Network("no bootstrap brokers".into()));
    }
    let deadline = Instant::now() + timeout;
    let (mut tried, mut unresolvable) = (0usize, 0usize);
    let mut last: Option<KafkaError> = None;
    let first = *next % brokers.len();
    for i in 0..brokers.len() {
        let idx = (first + i) % brokers.len();
        let left = deadline.saturating_duration_since(Instant::now());
        if tried > 0 {
            if stop.is_some_and(stopping) {
                return Err(KafkaError::Stopped(format!(
                    "connecting to a bootstrap broker, {tried} of {} tried",
                    brokers.len()
                )));
            }
            if left.is_zero() {
                break;
            }
        }
        tried += 1;
        *next = (idx + 1) % brokers.len();
        match Conn::open(
            &brokers[idx],
            client,
            left.max(Duration::from_millis(100)),
            stop,
        ) {
            Ok(c) => {
                *next = idx;
                return Ok(c);
            }
            // A TLS or SASL failure is the client's settings, the broker's certificate or
            // its credentials: every broker of the cluster would fail alike, and no retry helps.
            Err(ConnectFailure {
                error: e @ (KafkaError::Tls(_) | KafkaError::Auth(_)),
                ..
            }) => return Err(e),
            Err(f) => {
                unresolvable += f.unresolvable as usize;
                last = Some(f.error);
            }
        }
    }
    Err(KafkaError::Network(format!(
        "none of the {} bootstrap brokers answered: {tried} tried in this pass ({unresolvable} could not be resolved, {} refused, timed out or failed the handshake; a pass lasts at most {} ms: a request's timeout, within the delivery timeout); the last: {}",
        brokers.len(),
        tried - unresolvable,
        timeout.as_millis(),
        last.map_or_else(String::new, |e| e.to_string())
    )))
}

impl Conn {
    /// Connect to `addr` (`host:port`) and ask which versions the broker supports.
    pub fn connect(addr: &str, client_id: &str, timeout: Duration) -> Result<Conn, KafkaError> {
        Conn::open(addr, &ClientOptions::plaintext(client_id), timeout, None).map_err(|f| f.error)
    }

    /// [`Conn::connect`], its waits for answers cut short by `stop`.
    pub fn open(
        addr: &str,
        client: &ClientOptions,
        timeout: Duration,
        stop: Option<&StopFlag>,
    ) -> Result<Conn, ConnectFailure> {
        let shown = crate::settings::redact_broker(addr);
        let stream = open_stream(addr, &shown, timeout)?;
        let failed = |error: KafkaError| ConnectFailure {
            unresolvable: false,
            error,
        };
        let net = |e: std::io::Error| failed(KafkaError::Network(format!("{shown}: {e}")));
        // Reads wait in slices, so a stop and the request's deadline are seen while waiting.
        stream.set_read_timeout(Some(READ_SLICE)).map_err(net)?;
        stream.set_write_timeout(Some(timeout)).map_err(net)?;
        stream.set_nodelay(true).map_err(net)?;
        let stream = match &client.tls {
            None => super::tls::Stream::Plain(stream),
            Some(config) => {
                // parse_broker succeeded in open_stream: the host is the name to verify.
                let host = parse_broker(addr)
                    .map(|(h, _)| h)
                    .map_err(|e| failed(KafkaError::Network(format!("{shown}: {e}"))))?;
                super::tls::Stream::tls(config, stream, &host, &shown, timeout).map_err(failed)?
            }
        };
        let mut conn = Conn {
            stream,
            addr: addr.to_string(),
            shown: shown.clone(),
            client_id: client.id.clone(),
            next_correlation: 1,
            versions: BTreeMap::new(),
            timeout,
            stop: stop.cloned(),
        };
        // Version 0 is understood by every broker (kcat's newer first attempt was not).
        let resp: ApiVersionsResponse = conn
            .call_at(&ApiVersionsRequest::default(), 0)
            .map_err(failed)?;
        if resp.error_code != 0 {
            return Err(failed(KafkaError::Broker {
                request: "ApiVersions".into(),
                code: resp.error_code,
                detail: shown,
            }));
        }
        conn.versions = resp
            .api_keys
            .iter()
            .map(|k| (k.api_key, (k.min_version, k.max_version)))
            .collect();
        // Every connection authenticates before its first request (KIP-152: ApiVersions may
        // come first, so the versions of the SASL requests are known).
        if let Some(sasl) = &client.sasl {
            super::sasl::authenticate(&mut conn, sasl, &shown).map_err(failed)?;
        }
        Ok(conn)
    }

    /// The version to send `R` at: the highest that both sides support, at most `cap`.
    pub fn version<R: Request>(&self, cap: i16) -> Result<i16, KafkaError> {
        let name = api_name(R::KEY);
        let Some(&(bmin, bmax)) = self.versions.get(&R::KEY) else {
            return Err(KafkaError::Protocol(format!(
                "the broker at {} does not support {name}",
                self.shown
            )));
        };
        let ours = R::VERSIONS;
        let hi = bmax.min(ours.max).min(cap);
        let lo = bmin.max(ours.min);
        if hi < lo {
            return Err(KafkaError::Protocol(format!(
                "no common version of {name}: the broker at {} supports {bmin}..={bmax}, this client {}..={}",
                self.shown,
                ours.min,
                ours.max.min(cap)
            )));
        }
        Ok(hi)
    }

    /// Send `req` at the negotiated version (at most `cap`) and wait for its answer.
    pub fn call<R: Request>(&mut self, req: &R, cap: i16) -> Result<R::Response, KafkaError> {
        let v = self.version::<R>(cap)?;
        self.call_at(req, v)
    }

    /// Send `req` at version `v` and wait for its answer.
    pub fn call_at<R: Request>(&mut self, req: &R, v: i16) -> Result<R::Response, KafkaError> {
        let correlation = self.next_correlation;
        self.next_correlation = self.next_correlation.wrapping_add(1);
        let frame = encode_request(req, v, correlation, &self.client_id)?;
        let net = |e: std::io::Error| KafkaError::Network(format!("{}: {e}", self.shown));
        self.stream.write_all(&frame).map_err(net)?;
        // TLS holds the last records until flushed.
        self.stream.flush().map_err(net)?;
        let sent = Instant::now();
        let mut len = [0u8; 4];
        self.read_answer(&mut len, R::KEY, sent)?;
        let len = i32::from_be_bytes(len);
        if !(0..=(1 << 30)).contains(&len) {
            return Err(KafkaError::Protocol(format!(
                "{}: a response of {len} bytes",
                self.shown
            )));
        }
        let mut body = vec![0u8; len as usize];
        self.read_answer(&mut body, R::KEY, sent)?;
        decode_response::<R>(Bytes::from(body), v, correlation)
    }

    /// Fill `buf` from the answer to a request sent at `sent`: at most the request timeout,
    /// and after a stop at most [`STOP_GRACE`] more.
    fn read_answer(&mut self, buf: &mut [u8], key: i16, sent: Instant) -> Result<(), KafkaError> {
        let mut filled = 0;
        while filled < buf.len() {
            match self.stream.read(&mut buf[filled..]) {
                Ok(0) => {
                    return Err(KafkaError::Network(format!(
                        "{}: the broker closed the connection",
                        self.shown
                    )))
                }
                Ok(n) => filled += n,
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock
                            | std::io::ErrorKind::TimedOut
                            | std::io::ErrorKind::Interrupted
                    ) =>
                {
                    if sent.elapsed() >= self.timeout {
                        return Err(KafkaError::Network(format!(
                            "{}: no answer to {} within {} ms",
                            self.shown,
                            api_name(key),
                            self.timeout.as_millis()
                        )));
                    }
                    if self.stop.as_ref().is_some_and(stopping) && sent.elapsed() >= STOP_GRACE {
                        return Err(KafkaError::Stopped(format!(
                            "{}: the answer to {}",
                            self.shown,
                            api_name(key)
                        )));
                    }
                }
                Err(e) => return Err(KafkaError::Network(format!("{}: {e}", self.shown))),
            }
        }
        Ok(())
    }
}

/// A request frame: length, header, body.
pub fn encode_request<R: Request>(
    req: &R,
    v: i16,
    correlation: i32,
    client_id: &str,
) -> Result<BytesMut, KafkaError> {
    let header = RequestHeader::default()
        .with_request_api_key(R::KEY)
        .with_request_api_version(v)
        .with_correlation_id(correlation)
        .with_client_id(Some(StrBytes::from_string(client_id.to_string())));
    let proto = |e: anyhow::Error| KafkaError::Protocol(format!("{}: {e}", api_name(R::KEY)));
    let mut body = BytesMut::new();
    header
        .encode(&mut body, R::header_version(v))
        .map_err(proto)?;
    req.encode(&mut body, v).map_err(proto)?;
    let mut frame = BytesMut::with_capacity(body.len() + 4);
    frame.put_i32(body.len() as i32);
    frame.put_slice(&body);
    Ok(frame)
}

/// Decode a response body (without its length) to `R`'s response at version `v`.
pub fn decode_response<R: Request>(
    mut body: Bytes,
    v: i16,
    correlation: i32,
) -> Result<R::Response, KafkaError> {
    let proto = |e: anyhow::Error| KafkaError::Protocol(format!("{}: {e}", api_name(R::KEY)));
    let header =
        ResponseHeader::decode(&mut body, R::Response::header_version(v)).map_err(proto)?;
    if header.correlation_id != correlation {
        return Err(KafkaError::Protocol(format!(
            "{}: answer to request {} while {correlation} was waiting",
            api_name(R::KEY),
            header.correlation_id
        )));
    }
    let resp = R::Response::decode(&mut body, v).map_err(proto)?;
    if body.has_remaining() {
        tracing::debug!(
            "{}: {} bytes after the response",
            api_name(R::KEY),
            body.remaining()
        );
    }
    Ok(resp)
}

pub fn api_name(key: i16) -> String {
    match ApiKey::try_from(key) {
        Ok(k) => format!("{k:?}"),
        Err(_) => format!("API {key}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_protocol::messages::{ApiVersionsResponse, MetadataRequest};

    #[test]
    fn requests_frame_with_their_length_and_header() {
        let frame = encode_request(&MetadataRequest::default(), 1, 7, "cdc").unwrap();
        let mut b = frame.freeze();
        let len = b.get_i32() as usize;
        assert_eq!(len, b.remaining());
        assert_eq!(b.get_i16(), ApiKey::Metadata as i16);
        assert_eq!(b.get_i16(), 1);
        assert_eq!(b.get_i32(), 7);
        assert_eq!(b.get_i16(), 3);
        assert_eq!(&b[..3], b"cdc");
    }

    #[test]
    fn responses_round_trip_and_check_the_correlation_id() {
        let mut resp = ApiVersionsResponse::default();
        resp.api_keys.push(
            kafka_protocol::messages::api_versions_response::ApiVersion::default()
                .with_api_key(0)
                .with_max_version(9),
        );
        let mut buf = BytesMut::new();
        ResponseHeader::default()
            .with_correlation_id(5)
            .encode(&mut buf, 0)
            .unwrap();
        resp.encode(&mut buf, 0).unwrap();
        let body = buf.freeze();
        let back = decode_response::<ApiVersionsRequest>(body.clone(), 0, 5).unwrap();
        assert_eq!(back.api_keys[0].max_version, 9);
        assert!(matches!(
            decode_response::<ApiVersionsRequest>(body, 0, 6),
            Err(KafkaError::Protocol(_))
        ));
    }
}
