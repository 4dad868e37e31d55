//! SASL authentication to the brokers (`cdc.sink.kafka.security.protocol=SASL_PLAINTEXT` or
//! `SASL_SSL`), as Kafka's clients do it since KIP-152: on every new connection, after
//! ApiVersions, a SaslHandshake naming the mechanism, then SaslAuthenticate requests carrying
//! the mechanism's own messages. PLAIN (RFC 4616) is one message; SCRAM-SHA-256 and
//! SCRAM-SHA-512 (RFC 5802, RFC 7677) are two round trips, and the broker's final message proves
//! that it knows the password too (checked: a broker that cannot prove it is refused). The
//! hashes, HMAC and PBKDF2 are aws-lc-rs's, the provider rustls already builds.
//!
//! A failure here is the settings' (a wrong user or password, a mechanism the broker does not
//! enable) or a broker that is not who it claims: every broker of the cluster would answer the
//! same, so it is [`KafkaError::Auth`], reported at once and not retried.

use super::client::Conn;
use super::KafkaError;
use crate::settings::Secret;
use aws_lc_rs::{digest, hmac, pbkdf2};
use base64::Engine as _;
use bytes::Bytes;
use kafka_protocol::messages::{SaslAuthenticateRequest, SaslHandshakeRequest};
use kafka_protocol::protocol::StrBytes;
use std::num::NonZeroU32;

/// Kafka's error codes for SASL.
pub const UNSUPPORTED_SASL_MECHANISM: i16 = 33;
pub const ILLEGAL_SASL_STATE: i16 = 34;
pub const SASL_AUTHENTICATION_FAILED: i16 = 58;

/// The highest SaslHandshake version sent: v1 says the tokens go in SaslAuthenticate requests
/// (v0 would send them as raw frames, the pre-KIP-152 way).
const HANDSHAKE_VERSION: i16 = 1;
/// The highest SaslAuthenticate version sent (v2 is v1 in the flexible encoding).
const AUTHENTICATE_CAP: i16 = 2;

/// The fewest PBKDF2 iterations a broker may ask for, as Kafka's own client requires
/// (ScramMechanism's minIterations, RFC 7677's 4096): fewer makes the stored key cheap to guess
/// for whoever reads the exchange.
const MIN_ITERATIONS: u32 = 4096;

/// The mechanisms this client speaks (`cdc.sink.kafka.sasl.mechanism`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mechanism {
    Plain,
    ScramSha256,
    ScramSha512,
}

/// What the supported mechanisms are, for messages.
pub const SUPPORTED: &str = "PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512";

impl Mechanism {
    /// The mechanism named `text` (any case, as Kafka's clients read it), or None.
    pub fn parse(text: &str) -> Option<Mechanism> {
        match text.trim().to_ascii_uppercase().as_str() {
            "PLAIN" => Some(Mechanism::Plain),
            "SCRAM-SHA-256" => Some(Mechanism::ScramSha256),
            "SCRAM-SHA-512" => Some(Mechanism::ScramSha512),
            _ => None,
        }
    }

    /// Its name as SaslHandshake sends it.
    pub fn name(self) -> &'static str {
        match self {
            Mechanism::Plain => "PLAIN",
            Mechanism::ScramSha256 => "SCRAM-SHA-256",
            Mechanism::ScramSha512 => "SCRAM-SHA-512",
        }
    }

    fn scram(self) -> Option<Scram> {
        match self {
            Mechanism::Plain => None,
            Mechanism::ScramSha256 => Some(Scram {
                pbkdf2: pbkdf2::PBKDF2_HMAC_SHA256,
                hmac: hmac::HMAC_SHA256,
                digest: &digest::SHA256,
            }),
            Mechanism::ScramSha512 => Some(Scram {
                pbkdf2: pbkdf2::PBKDF2_HMAC_SHA512,
                hmac: hmac::HMAC_SHA512,
                digest: &digest::SHA512,
            }),
        }
    }
}

/// Who the client authenticates as. `Debug` shows the password as `<redacted>` ([`Secret`]).
#[derive(Debug, Clone)]
pub struct SaslConfig {
    pub mechanism: Mechanism,
    pub username: String,
    pub password: Secret,
}

/// Authenticate `conn` (ApiVersions answered) as `cfg` says. `shown` is the broker as messages
/// name it.
pub fn authenticate(conn: &mut Conn, cfg: &SaslConfig, shown: &str) -> Result<(), KafkaError> {
    let mech = cfg.mechanism.name();
    let fail = |why: String| KafkaError::Auth(format!("{shown}, SASL {mech}: {why}"));
    let v = conn
        .version::<SaslHandshakeRequest>(HANDSHAKE_VERSION)
        .map_err(|e| {
            fail(format!(
                "the broker does not offer SASL authentication on this listener ({e}); is it a SASL listener?"
            ))
        })?;
    if v < 1 {
        return Err(fail(
            "the broker supports SaslHandshake v0 only (Kafka before 1.0), whose raw tokens this client does not send".into(),
        ));
    }
    let hs = conn.call_at(
        &SaslHandshakeRequest::default().with_mechanism(StrBytes::from_static_str(mech)),
        v,
    )?;
    match hs.error_code {
        0 => {}
        UNSUPPORTED_SASL_MECHANISM => {
            let offered: Vec<&str> = hs.mechanisms.iter().map(|m| m.as_str()).collect();
            return Err(fail(format!(
                "the broker does not enable this mechanism (UNSUPPORTED_SASL_MECHANISM); it offers: {}",
                if offered.is_empty() {
                    "none named".to_string()
                } else {
                    offered.join(", ")
                }
            )));
        }
        code => return Err(fail(format!("SaslHandshake: {}", super::error_name(code)))),
    }
    let mut exchange = Exchange {
        conn,
        version: 0,
        fail: &fail,
    };
    exchange.version = exchange
        .conn
        .version::<SaslAuthenticateRequest>(AUTHENTICATE_CAP)
        .map_err(|e| fail(e.to_string()))?;
    match cfg.mechanism.scram() {
        None => {
            exchange.step(&plain_message(&cfg.username, cfg.password.expose()))?;
            Ok(())
        }
        Some(scram) => {
            let mut client = ScramClient::new(scram, &cfg.username, &new_nonce()?);
            let server_first = exchange.step(client.first().as_bytes())?;
            let server_first = String::from_utf8(server_first.to_vec())
                .map_err(|_| fail("the broker's server-first message is not UTF-8".into()))?;
            let client_final = client
                .final_message(cfg.password.expose(), &server_first)
                .map_err(&fail)?;
            let server_final = exchange.step(client_final.as_bytes())?;
            let server_final = String::from_utf8(server_final.to_vec())
                .map_err(|_| fail("the broker's server-final message is not UTF-8".into()))?;
            client.verify_server(&server_final).map_err(&fail)
        }
    }
}

/// One connection's SaslAuthenticate requests.
struct Exchange<'a, F: Fn(String) -> KafkaError> {
    conn: &'a mut Conn,
    version: i16,
    fail: &'a F,
}

impl<F: Fn(String) -> KafkaError> Exchange<'_, F> {
    /// Send one client message, return the broker's answer to it.
    fn step(&mut self, message: &[u8]) -> Result<Bytes, KafkaError> {
        let resp = self.conn.call_at(
            &SaslAuthenticateRequest::default().with_auth_bytes(Bytes::copy_from_slice(message)),
            self.version,
        )?;
        if resp.error_code != 0 {
            // The broker's message says why (Kafka's: "Authentication failed during
            // authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256");
            // it never holds the password, which only the client sent.
            let said = resp
                .error_message
                .as_ref()
                .map(|m| format!(": {}", crate::errors::shown(m.as_str(), 300)))
                .unwrap_or_default();
            let hint = if resp.error_code == SASL_AUTHENTICATION_FAILED {
                " (check cdc.sink.kafka.sasl.username, cdc.sink.kafka.sasl.password and that the user exists for this mechanism)"
            } else {
                ""
            };
            return Err((self.fail)(format!(
                "{}{said}{hint}",
                super::error_name(resp.error_code)
            )));
        }
        Ok(resp.auth_bytes)
    }
}

/// RFC 4616: authorization identity (empty: the user itself), user, password, NUL-separated.
pub fn plain_message(username: &str, password: &str) -> Vec<u8> {
    let mut m = Vec::with_capacity(username.len() + password.len() + 2);
    m.push(0);
    m.extend_from_slice(username.as_bytes());
    m.push(0);
    m.extend_from_slice(password.as_bytes());
    m
}

/// A client nonce: 24 random bytes from the system's generator, base64 (printable, no comma, as
/// RFC 5802 asks).
fn new_nonce() -> Result<String, KafkaError> {
    use aws_lc_rs::rand::SecureRandom;
    let mut bytes = [0u8; 24];
    aws_lc_rs::rand::SystemRandom::new()
        .fill(&mut bytes)
        .map_err(|_| KafkaError::Auth("the system's random generator failed".into()))?;
    Ok(base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// The hash a SCRAM mechanism is built on.
#[derive(Clone, Copy)]
struct Scram {
    pbkdf2: pbkdf2::Algorithm,
    hmac: hmac::Algorithm,
    digest: &'static digest::Algorithm,
}

impl Scram {
    fn hmac(&self, key: &[u8], data: &[u8]) -> Vec<u8> {
        hmac::sign(&hmac::Key::new(self.hmac, key), data)
            .as_ref()
            .to_vec()
    }

    /// SaltedPassword := Hi(Normalize(password), salt, i)
    fn salted(&self, password: &str, salt: &[u8], iterations: NonZeroU32) -> Vec<u8> {
        let mut out = vec![0u8; self.digest.output_len()];
        pbkdf2::derive(self.pbkdf2, iterations, salt, password.as_bytes(), &mut out);
        out
    }
}

/// The salted password of `mechanism` (SCRAM only), as a broker stores it
/// (AlterUserScramCredentials carries it): tests create SCRAM users with it.
pub fn salted_password(
    mechanism: Mechanism,
    password: &str,
    salt: &[u8],
    iterations: u32,
) -> Option<Vec<u8>> {
    let scram = mechanism.scram()?;
    Some(scram.salted(password, salt, NonZeroU32::new(iterations)?))
}

/// The client side of one SCRAM exchange (RFC 5802 section 3): its first message, its final
/// message with the proof, and the check of the server's signature.
struct ScramClient {
    scram: Scram,
    nonce: String,
    first_bare: String,
    /// The signature the server must send, once the final message is made.
    server_signature: Option<Vec<u8>>,
}

/// RFC 5802 saslname: `=` and `,` escaped.
fn saslname(user: &str) -> String {
    user.replace('=', "=3D").replace(',', "=2C")
}

/// The value of attribute `name` in a SCRAM message (`r=…,s=…,i=…`).
fn attribute(message: &str, name: char) -> Option<&str> {
    message.split(',').find_map(|part| {
        let mut chars = part.chars();
        (chars.next() == Some(name) && chars.next() == Some('=')).then(|| &part[2..])
    })
}

impl ScramClient {
    fn new(scram: Scram, user: &str, nonce: &str) -> ScramClient {
        ScramClient {
            scram,
            nonce: nonce.to_string(),
            first_bare: format!("n={},r={nonce}", saslname(user)),
            server_signature: None,
        }
    }

    /// client-first-message: no channel binding (`n`), no authorization identity.
    fn first(&self) -> String {
        format!("n,,{}", self.first_bare)
    }

    /// client-final-message for `server_first`; `Err` says what is wrong with it (never the
    /// password).
    fn final_message(&mut self, password: &str, server_first: &str) -> Result<String, String> {
        if let Some(e) = attribute(server_first, 'e') {
            return Err(format!("the broker refused the first message: {e}"));
        }
        let nonce = attribute(server_first, 'r')
            .ok_or("the broker's server-first message has no nonce (r=)")?;
        // The server's nonce extends ours: anything else is a replayed or forged exchange.
        if !nonce.starts_with(&self.nonce) || nonce.len() == self.nonce.len() {
            return Err("the broker's nonce does not extend the client's".into());
        }
        let salt = attribute(server_first, 's')
            .ok_or("the broker's server-first message has no salt (s=)")?;
        let salt = base64::engine::general_purpose::STANDARD
            .decode(salt)
            .map_err(|_| "the broker's salt is not base64".to_string())?;
        let iterations: u32 = attribute(server_first, 'i')
            .and_then(|i| i.parse().ok())
            .ok_or("the broker's server-first message has no iteration count (i=)")?;
        if iterations < MIN_ITERATIONS {
            return Err(format!(
                "the broker asks for {iterations} iterations, fewer than the {MIN_ITERATIONS} SCRAM requires"
            ));
        }
        let iterations = NonZeroU32::new(iterations).ok_or("zero iterations")?;
        let s = self.scram;
        let salted = s.salted(password, &salt, iterations);
        let client_key = s.hmac(&salted, b"Client Key");
        let stored_key = digest::digest(s.digest, &client_key);
        // c=biws: base64 of the GS2 header `n,,`.
        let without_proof = format!("c=biws,r={nonce}");
        let auth_message = format!("{},{server_first},{without_proof}", self.first_bare);
        let client_signature = s.hmac(stored_key.as_ref(), auth_message.as_bytes());
        let proof: Vec<u8> = client_key
            .iter()
            .zip(&client_signature)
            .map(|(k, s)| k ^ s)
            .collect();
        let server_key = s.hmac(&salted, b"Server Key");
        self.server_signature = Some(s.hmac(&server_key, auth_message.as_bytes()));
        Ok(format!(
            "{without_proof},p={}",
            base64::engine::general_purpose::STANDARD.encode(proof)
        ))
    }

    /// Whether `server_final` carries the signature only a holder of the password can make.
    fn verify_server(&self, server_final: &str) -> Result<(), String> {
        if let Some(e) = attribute(server_final, 'e') {
            return Err(format!("the broker refused the proof: {e}"));
        }
        let expected = self
            .server_signature
            .as_ref()
            .ok_or("server-final before client-final")?;
        let got = attribute(server_final, 'v')
            .and_then(|v| base64::engine::general_purpose::STANDARD.decode(v).ok())
            .ok_or("the broker's server-final message has no signature (v=)")?;
        if &got != expected {
            return Err(
                "the broker's server signature is wrong: it does not know this user's password (a broker impersonated, or credentials that differ between brokers)"
                    .into(),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// RFC 7677 section 3: the SCRAM-SHA-256 exchange of user `user`, password `pencil`.
    #[test]
    fn scram_sha_256_computes_rfc_7677s_exchange() {
        let scram = Mechanism::ScramSha256.scram().unwrap();
        let mut c = ScramClient::new(scram, "user", "rOprNGfwEbeRWgbNEkqO");
        assert_eq!(c.first(), "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
        let server_first = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
        assert_eq!(
            c.final_message("pencil", server_first).unwrap(),
            "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
        );
        c.verify_server("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
            .unwrap();
        // One bit off: the broker does not prove it knows the password.
        let e = c
            .verify_server("v=7rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
            .unwrap_err();
        assert!(e.contains("server signature is wrong"), "{e}");
        let e = c.verify_server("e=invalid-proof").unwrap_err();
        assert!(e.contains("invalid-proof"), "{e}");
    }

    #[test]
    fn scram_refuses_a_server_first_message_that_is_not_its_exchanges() {
        let scram = Mechanism::ScramSha256.scram().unwrap();
        let mut c = ScramClient::new(scram, "us=er,x", "abc");
        assert_eq!(c.first(), "n,,n=us=3Der=2Cx,r=abc");
        for (server_first, says) in [
            ("r=zzz123,s=QUJD,i=4096", "does not extend"),
            ("r=abc,s=QUJD,i=4096", "does not extend"),
            ("r=abc1,s=QUJD,i=4095", "fewer than"),
            ("r=abc1,s=!!,i=4096", "not base64"),
            ("r=abc1,i=4096", "no salt"),
            ("r=abc1,s=QUJD", "no iteration"),
            ("e=unknown-user", "unknown-user"),
        ] {
            let e = c.final_message("pw", server_first).unwrap_err();
            assert!(e.contains(says), "{server_first}: {e}");
            assert!(!e.contains("pw,") && !e.contains("=pw"), "{e}");
        }
    }

    #[test]
    fn plain_is_authzid_user_password_nul_separated() {
        assert_eq!(plain_message("alice", "pw"), b"\0alice\0pw");
    }

    #[test]
    fn mechanisms_are_read_in_any_case() {
        assert_eq!(Mechanism::parse("plain"), Some(Mechanism::Plain));
        assert_eq!(
            Mechanism::parse(" scram-sha-512 "),
            Some(Mechanism::ScramSha512)
        );
        assert_eq!(Mechanism::parse("GSSAPI"), None);
        assert_eq!(Mechanism::parse("OAUTHBEARER"), None);
    }

    /// The server side of SCRAM, for the scripted broker: the stored credentials of one user
    /// and the checks a broker makes (RFC 5802 section 3, the server's part).
    pub(crate) struct ScramServer {
        scram: Scram,
        stored_key: Vec<u8>,
        server_key: Vec<u8>,
        salt: Vec<u8>,
        iterations: u32,
        /// The client-first-message-bare and server-first-message, once the first step is done.
        first: Option<(String, String)>,
        /// Send a wrong server signature (a broker that does not know the password).
        pub forge: bool,
    }

    impl ScramServer {
        pub(crate) fn new(mechanism: Mechanism, password: &str) -> ScramServer {
            let scram = mechanism.scram().unwrap();
            let salt = b"scripted-salt".to_vec();
            let iterations = 4096;
            let salted = scram.salted(password, &salt, NonZeroU32::new(iterations).unwrap());
            let client_key = scram.hmac(&salted, b"Client Key");
            ScramServer {
                scram,
                stored_key: digest::digest(scram.digest, &client_key).as_ref().to_vec(),
                server_key: scram.hmac(&salted, b"Server Key"),
                salt,
                iterations,
                first: None,
                forge: false,
            }
        }

        /// The answer to one client message: `Err` is an authentication failure.
        pub(crate) fn step(&mut self, message: &[u8]) -> Result<Vec<u8>, String> {
            let message = std::str::from_utf8(message).map_err(|e| e.to_string())?;
            match self.first.take() {
                None => {
                    let bare = message.strip_prefix("n,,").ok_or("no gs2 header")?;
                    let nonce = attribute(bare, 'r').ok_or("no nonce")?;
                    let server_first = format!(
                        "r={nonce}srv,s={},i={}",
                        base64::engine::general_purpose::STANDARD.encode(&self.salt),
                        self.iterations
                    );
                    self.first = Some((bare.to_string(), server_first.clone()));
                    Ok(server_first.into_bytes())
                }
                Some((bare, server_first)) => {
                    let (without_proof, proof) = message.rsplit_once(",p=").ok_or("no proof")?;
                    let proof = base64::engine::general_purpose::STANDARD
                        .decode(proof)
                        .map_err(|e| e.to_string())?;
                    let auth_message = format!("{bare},{server_first},{without_proof}");
                    let signature = self.scram.hmac(&self.stored_key, auth_message.as_bytes());
                    let client_key: Vec<u8> =
                        proof.iter().zip(&signature).map(|(p, s)| p ^ s).collect();
                    if digest::digest(self.scram.digest, &client_key).as_ref()
                        != self.stored_key.as_slice()
                    {
                        return Err("invalid proof".into());
                    }
                    let mut server_signature =
                        self.scram.hmac(&self.server_key, auth_message.as_bytes());
                    if self.forge {
                        server_signature[0] ^= 1;
                    }
                    Ok(format!(
                        "v={}",
                        base64::engine::general_purpose::STANDARD.encode(server_signature)
                    )
                    .into_bytes())
                }
            }
        }
    }

    /// SCRAM-SHA-512 has no published test vector in an RFC: the client against the server
    /// above, and the wrong password refused by it.
    #[test]
    fn scram_sha_512_round_trips_against_a_server() {
        let run = |client_password: &str| -> Result<(), String> {
            let mut server = ScramServer::new(Mechanism::ScramSha512, "s3cret");
            let scram = Mechanism::ScramSha512.scram().unwrap();
            let mut c = ScramClient::new(scram, "alice", "nonce123");
            let server_first = server.step(c.first().as_bytes())?;
            let fin =
                c.final_message(client_password, std::str::from_utf8(&server_first).unwrap())?;
            let server_final = server.step(fin.as_bytes())?;
            c.verify_server(std::str::from_utf8(&server_final).unwrap())
        };
        run("s3cret").unwrap();
        assert_eq!(run("wrong").unwrap_err(), "invalid proof");
    }
}
