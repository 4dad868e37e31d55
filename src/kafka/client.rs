//! A small synchronous Kafka client connection: one `TcpStream`, requests framed and encoded with
//! the `kafka-protocol` crate, one request in flight at a time. Versions are negotiated with
//! ApiVersions: each request is sent at the highest version both this client and the broker
//! support, capped where this client knows the message layout (see [`caps`]).

use super::KafkaError;
use bytes::{Buf, BufMut, Bytes, BytesMut};
use kafka_protocol::messages::{
    ApiKey, ApiVersionsRequest, ApiVersionsResponse, RequestHeader, ResponseHeader,
};
use kafka_protocol::protocol::{Decodable, Encodable, HeaderVersion, Request, StrBytes};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

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

/// A connection to one broker.
pub struct Conn {
    stream: TcpStream,
    pub addr: String,
    /// `addr` as messages show it: a broker string can carry `user:password@` (pasted from
    /// a client's settings); the password is never shown.
    shown: String,
    client_id: String,
    next_correlation: i32,
    /// Per API key, the versions the broker supports.
    versions: BTreeMap<i16, (i16, i16)>,
}

impl Conn {
    /// Connect to `addr` (`host:port`) and ask which versions the broker supports.
    pub fn connect(addr: &str, client_id: &str, timeout: Duration) -> Result<Conn, KafkaError> {
        let shown = crate::settings::redact_broker(addr);
        let net = |e: std::io::Error| KafkaError::Network(format!("{shown}: {e}"));
        let sock = addr
            .to_socket_addrs()
            .map_err(net)?
            .next()
            .ok_or_else(|| KafkaError::Network(format!("{shown}: no address")))?;
        let stream = TcpStream::connect_timeout(&sock, timeout).map_err(net)?;
        stream.set_read_timeout(Some(timeout)).map_err(net)?;
        stream.set_write_timeout(Some(timeout)).map_err(net)?;
        stream.set_nodelay(true).map_err(net)?;
        let mut conn = Conn {
            stream,
            addr: addr.to_string(),
            shown: shown.clone(),
            client_id: client_id.to_string(),
            next_correlation: 1,
            versions: BTreeMap::new(),
        };
        // Version 0 is understood by every broker (kcat's newer first attempt was not).
        let resp: ApiVersionsResponse = conn.call_at(&ApiVersionsRequest::default(), 0)?;
        if resp.error_code != 0 {
            return Err(KafkaError::Broker {
                request: "ApiVersions".into(),
                code: resp.error_code,
                detail: shown,
            });
        }
        conn.versions = resp
            .api_keys
            .iter()
            .map(|k| (k.api_key, (k.min_version, k.max_version)))
            .collect();
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
        let mut len = [0u8; 4];
        self.stream.read_exact(&mut len).map_err(net)?;
        let len = i32::from_be_bytes(len);
        if !(0..=(1 << 30)).contains(&len) {
            return Err(KafkaError::Protocol(format!(
                "{}: a response of {len} bytes",
                self.shown
            )));
        }
        let mut body = vec![0u8; len as usize];
        self.stream.read_exact(&mut body).map_err(net)?;
        decode_response::<R>(Bytes::from(body), v, correlation)
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
