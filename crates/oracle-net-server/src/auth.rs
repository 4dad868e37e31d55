//! O5LOGON with the 12c password verifier: the math, and the two login messages.
//!
//! The server stores only the verifier `T = SHA512(PBKDF2-SHA512(pw, S ‖ "AUTH_PBKDF2_SPEEDY_KEY",
//! 4096, 64) ‖ S)` and its salt `S`; `K = T[0..32]` keys AES-256-CBC (zero IV, no padding).
//! Phase one sends `AUTH_SESSKEY = AES(K, A)` for 32 random bytes `A`, the salt and the PBKDF2
//! parameters. The client, knowing the password, derives `K` too, decrypts `A`, picks `B` and
//! sends `AES(K, B)`. Both sides derive the combo key
//! `PBKDF2-SHA512(upper-hex(B ‖ A), CSK salt, 3, 32)`; the client proves the password by sending
//! `AES(combo, 16 random bytes ‖ PBKDF2 key)` (the "speedy key"), which the server checks against
//! `T`, and the server proves itself with `AES(combo, 16 random bytes ‖ "SERVER_TO_CLIENT")`.
//! A wrong password yields a different `K` on the client, hence garbage on the server: the same
//! ORA-01017 as a missing user, whose phase one runs with a made-up verifier.

use aes::cipher::block_padding::NoPadding;
use aes::cipher::{BlockModeDecrypt, BlockModeEncrypt, KeyIvInit};
use sha2::{Digest, Sha512};

use crate::wire::{malformed, Reader, WireResult};
use crate::Verifier;

type Aes256CbcEnc = cbc::Encryptor<aes::Aes256>;
type Aes256CbcDec = cbc::Decryptor<aes::Aes256>;

/// PBKDF2 iterations for the verifier (Oracle's default).
pub const VGEN_COUNT: u32 = 4096;
/// PBKDF2 iterations for the combo key.
pub const SDER_COUNT: u32 = 3;
/// AUTH_VFR_DATA flag naming the 12c verifier.
pub const VERIFIER_TYPE_12C: u32 = 0x4815;

pub const FN_AUTH_PHASE_ONE: u8 = 118;
pub const FN_AUTH_PHASE_TWO: u8 = 115;

fn pbkdf2(password: &[u8], salt: &[u8], rounds: u32, out: &mut [u8]) {
    pbkdf2::pbkdf2_hmac::<Sha512>(password, salt, rounds, out);
}

/// The 64-byte PBKDF2 "password key" the speedy key carries.
fn password_key(password: &[u8], salt: &[u8]) -> [u8; 64] {
    let mut salted = salt.to_vec();
    salted.extend_from_slice(b"AUTH_PBKDF2_SPEEDY_KEY");
    let mut key = [0u8; 64];
    pbkdf2(password, &salted, VGEN_COUNT, &mut key);
    key
}

fn hash_of_key(key: &[u8], salt: &[u8]) -> [u8; 64] {
    let mut h = Sha512::new();
    h.update(key);
    h.update(salt);
    let digest = h.finalize();
    let mut out = [0u8; 64];
    out.copy_from_slice(&digest[..]);
    out
}

impl Verifier {
    /// The 12c verifier of `password` with a random 16-byte salt.
    pub fn new(password: &str) -> Verifier {
        let mut salt = [0u8; 16];
        rand::fill(&mut salt[..]);
        Verifier::from_password(password, &salt)
    }

    /// The 12c verifier of `password` with the given salt (for reproducible verifiers).
    pub fn from_password(password: &str, salt: &[u8]) -> Verifier {
        let key = password_key(password.as_bytes(), salt);
        Verifier {
            salt: salt.to_vec(),
            hash: hash_of_key(&key, salt),
        }
    }

    /// A stored verifier (salt and hash, e.g. from `DBA_USERS`-like data).
    pub fn from_parts(salt: Vec<u8>, hash: [u8; 64]) -> Verifier {
        Verifier { salt, hash }
    }

    /// Whether `password` is the one this verifier was made from.
    pub fn matches(&self, password: &str) -> bool {
        let key = password_key(password.as_bytes(), &self.salt);
        constant_time_eq(&hash_of_key(&key, &self.salt), &self.hash)
    }

    fn aes_key(&self) -> [u8; 32] {
        let mut k = [0u8; 32];
        k.copy_from_slice(&self.hash[..32]);
        k
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// AES-256-CBC, zero IV, no padding; `data` must be whole blocks.
fn encrypt(key: &[u8; 32], data: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; data.len()];
    let ok = Aes256CbcEnc::new_from_slices(key, &[0u8; 16])
        .ok()
        .and_then(|c| c.encrypt_padded_b2b::<NoPadding>(data, &mut out).ok())
        .is_some();
    debug_assert!(ok, "whole blocks always encrypt");
    out
}

/// AES-256-CBC decryption of whole blocks (a peer's bytes: trailing partial blocks dropped).
fn decrypt(key: &[u8; 32], data: &[u8]) -> Vec<u8> {
    let whole = data.len() / 16 * 16;
    let mut out = vec![0u8; whole];
    let ok = Aes256CbcDec::new_from_slices(key, &[0u8; 16])
        .ok()
        .and_then(|c| {
            c.decrypt_padded_b2b::<NoPadding>(&data[..whole], &mut out)
                .ok()
        })
        .is_some();
    if !ok {
        out.clear();
    }
    out
}

pub fn hex_upper(data: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let mut s = String::with_capacity(data.len() * 2);
    for b in data {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    let t = text.trim_end_matches('\0').as_bytes();
    if !t.len().is_multiple_of(2) {
        return None;
    }
    let nibble = |c: u8| char::from(c).to_digit(16).map(|d| d as u8);
    t.chunks(2)
        .map(|p| Some(nibble(p[0])? << 4 | nibble(p[1])?))
        .collect()
}

/// One login message from the client (AUTH phase one or two).
#[derive(Debug)]
pub struct AuthRequest {
    pub user: String,
    pub pairs: Vec<(String, String, u32)>,
}

impl AuthRequest {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _, _)| k.trim_end_matches('\0') == key)
            .map(|(_, v, _)| v.as_str())
    }
}

/// Reads the body of a login message (after its function header). The thin drivers send the
/// user name with a length byte; JDBC thin sends it bare (`user_len` bytes). `raw_user` says
/// which to try first; the other is tried if the key/value pairs do not follow.
pub fn parse_auth(body: &[u8], raw_user: bool) -> WireResult<AuthRequest> {
    match parse_auth_as(body, raw_user) {
        Ok(req) => Ok(req),
        Err(first) => parse_auth_as(body, !raw_user).map_err(|_| first),
    }
}

fn parse_auth_as(body: &[u8], raw_user: bool) -> WireResult<AuthRequest> {
    let mut r = Reader::new(body);
    let has_user = r.u8()?;
    let user_len = r.ub4()? as usize;
    r.ub4()?; // authentication mode
    r.u8()?; // pointer (key/value pairs)
    let num_pairs = r.ub4()?;
    r.u8()?; // pointer (output pairs)
    r.u8()?; // pointer (output pair count)
    let user = if has_user != 0 && user_len > 0 {
        if raw_user {
            r.bytes(user_len)?.to_vec()
        } else {
            let bytes = r.clr_bytes()?;
            if bytes.len() != user_len {
                return malformed("user name length disagrees with its header");
            }
            bytes
        }
    } else {
        Vec::new()
    };
    let user = String::from_utf8(user).or_else(|_| malformed("user name is not UTF-8"))?;
    if num_pairs > 4096 {
        return malformed("too many login pairs");
    }
    let mut pairs = Vec::with_capacity(num_pairs as usize);
    for _ in 0..num_pairs {
        let key = r.two_lengths_text()?;
        if !key.is_ascii() || key.is_empty() {
            return malformed("login key is not a keyword");
        }
        let value = String::from_utf8_lossy(&r.two_lengths()?).into_owned();
        let flags = r.ub4()?;
        pairs.push((key, value, flags));
    }
    Ok(AuthRequest { user, pairs })
}

/// What the server remembers between the two phases.
pub struct Challenge {
    verifier: Verifier,
    known_user: bool,
    session_key_a: [u8; 32],
    csk_salt: [u8; 16],
}

/// A verifier for a user that does not exist: a salt stable per name (so repeated attempts do not
/// reveal that it is made up) and a random hash nobody can match.
fn decoy_verifier(user: &str) -> Verifier {
    static SECRET: std::sync::OnceLock<[u8; 32]> = std::sync::OnceLock::new();
    let secret = SECRET.get_or_init(|| {
        let mut s = [0u8; 32];
        rand::fill(&mut s[..]);
        s
    });
    let mut h = Sha512::new();
    h.update(secret);
    h.update(user.as_bytes());
    let digest = h.finalize();
    let mut hash = [0u8; 64];
    rand::fill(&mut hash[..]);
    Verifier::from_parts(digest[..16].to_vec(), hash)
}

impl Challenge {
    /// Phase one: the challenge and the key/value pairs to answer with.
    pub fn new(verifier: Option<Verifier>, user: &str) -> (Challenge, Vec<(String, String, u32)>) {
        let known_user = verifier.is_some();
        let verifier = verifier.unwrap_or_else(|| decoy_verifier(user));
        let mut session_key_a = [0u8; 32];
        let mut csk_salt = [0u8; 16];
        rand::fill(&mut session_key_a[..]);
        rand::fill(&mut csk_salt[..]);
        let sesskey = encrypt(&verifier.aes_key(), &session_key_a);
        let pairs = vec![
            ("AUTH_SESSKEY".into(), hex_upper(&sesskey), 0),
            (
                "AUTH_VFR_DATA".into(),
                hex_upper(&verifier.salt),
                VERIFIER_TYPE_12C,
            ),
            ("AUTH_PBKDF2_CSK_SALT".into(), hex_upper(&csk_salt), 0),
            ("AUTH_PBKDF2_VGEN_COUNT".into(), VGEN_COUNT.to_string(), 0),
            ("AUTH_PBKDF2_SDER_COUNT".into(), SDER_COUNT.to_string(), 0),
        ];
        let challenge = Challenge {
            verifier,
            known_user,
            session_key_a,
            csk_salt,
        };
        (challenge, pairs)
    }

    /// Phase two: checks the client's proof. `Some(combo key)` when the password was right.
    pub fn verify(&self, req: &AuthRequest) -> Option<[u8; 32]> {
        let client_key = from_hex(req.get("AUTH_SESSKEY")?)?;
        let part_b = decrypt(&self.verifier.aes_key(), client_key.get(..32)?);
        let mut temp = Vec::with_capacity(64);
        temp.extend_from_slice(part_b.get(..32)?);
        temp.extend_from_slice(&self.session_key_a);
        let mut combo = [0u8; 32];
        pbkdf2(
            hex_upper(&temp).as_bytes(),
            &self.csk_salt,
            SDER_COUNT,
            &mut combo,
        );
        let proven = match req.get("AUTH_PBKDF2_SPEEDY_KEY") {
            Some(speedy) => self.check_speedy_key(&combo, speedy),
            None => self.check_password(&combo, req.get("AUTH_PASSWORD")?),
        };
        (proven && self.known_user).then_some(combo)
    }

    fn check_speedy_key(&self, combo: &[u8; 32], speedy_hex: &str) -> bool {
        let Some(speedy) = from_hex(speedy_hex) else {
            return false;
        };
        let plain = decrypt(combo, speedy.get(..80).unwrap_or(&[]));
        match plain.get(16..80) {
            Some(key) => {
                constant_time_eq(&hash_of_key(key, &self.verifier.salt), &self.verifier.hash)
            }
            None => false,
        }
    }

    /// For clients that send only AUTH_PASSWORD: 16 random bytes, the password, then padding.
    fn check_password(&self, combo: &[u8; 32], password_hex: &str) -> bool {
        let Some(encrypted) = from_hex(password_hex) else {
            return false;
        };
        let plain = decrypt(combo, &encrypted);
        let pad = usize::from(plain.last().copied().unwrap_or(0));
        if plain.len() < 16 + pad || !(1..=16).contains(&pad) {
            return false;
        }
        let password = &plain[16..plain.len() - pad];
        let key = password_key(password, &self.verifier.salt);
        constant_time_eq(&hash_of_key(&key, &self.verifier.salt), &self.verifier.hash)
    }
}

/// AUTH_SVR_RESPONSE: proof that the server knows the combo key. PKCS#5-padded (a whole block
/// of 16s): JDBC thin decrypts with padding, the thin drivers look at bytes 16..32 only.
pub fn server_response(combo: &[u8; 32]) -> String {
    let mut plain = [16u8; 48];
    rand::fill(&mut plain[..16]);
    plain[16..32].copy_from_slice(b"SERVER_TO_CLIENT");
    hex_upper(&encrypt(combo, &plain))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Computed with Python's hashlib: pbkdf2_hmac("sha512", b"secret-pw",
    /// bytes(range(16)) + b"AUTH_PBKDF2_SPEEDY_KEY", 4096, 64), then sha512(key + salt).
    const KNOWN_HASH_HEX: &str = "19C6F0098DE5F5A34E3407484E422B35F31C38A4CC6C9C788175233D4B03D55AEB5C398CE89BE06C0F23C6B11591DA436FDE54956DDC3C95933C69523532A02A";

    #[test]
    fn verifier_matches_a_known_vector() {
        let salt: Vec<u8> = (0u8..16).collect();
        let v = Verifier::from_password("secret-pw", &salt);
        assert_eq!(hex_upper(&v.hash), KNOWN_HASH_HEX);
        assert!(v.matches("secret-pw"));
        assert!(!v.matches("secret-pX"));
        assert_ne!(
            Verifier::new("secret-pw").salt,
            Verifier::new("secret-pw").salt
        );
    }

    /// The client side of O5LOGON, as python-oracledb's `_generate_verifier` computes it.
    fn client_phase_two(password: &str, phase_one: &[(String, String, u32)]) -> AuthRequest {
        let get = |k: &str| {
            phase_one
                .iter()
                .find(|p| p.0 == k)
                .map(|p| p.1.clone())
                .unwrap()
        };
        let salt = from_hex(&get("AUTH_VFR_DATA")).unwrap();
        let pkey = password_key(password.as_bytes(), &salt);
        let hash = hash_of_key(&pkey, &salt);
        let mut k = [0u8; 32];
        k.copy_from_slice(&hash[..32]);
        let part_a = decrypt(&k, &from_hex(&get("AUTH_SESSKEY")).unwrap());
        let part_b = [7u8; 32];
        let client_key = encrypt(&k, &part_b);
        let mut temp = part_b.to_vec();
        temp.extend_from_slice(&part_a);
        let mut combo = [0u8; 32];
        let csk = from_hex(&get("AUTH_PBKDF2_CSK_SALT")).unwrap();
        pbkdf2(hex_upper(&temp).as_bytes(), &csk, SDER_COUNT, &mut combo);
        let mut speedy_plain = vec![3u8; 16];
        speedy_plain.extend_from_slice(&pkey);
        let speedy = encrypt(&combo, &speedy_plain);
        AuthRequest {
            user: "CDC".into(),
            pairs: vec![
                ("AUTH_SESSKEY".into(), hex_upper(&client_key), 1),
                ("AUTH_PBKDF2_SPEEDY_KEY".into(), hex_upper(&speedy), 0),
            ],
        }
    }

    #[test]
    fn o5logon_accepts_the_password_and_refuses_others() {
        let v = Verifier::new("secret-pw");
        let (challenge, pairs) = Challenge::new(Some(v.clone()), "CDC");
        assert!(challenge
            .verify(&client_phase_two("secret-pw", &pairs))
            .is_some());
        let (challenge, pairs) = Challenge::new(Some(v), "CDC");
        assert!(challenge
            .verify(&client_phase_two("wrong", &pairs))
            .is_none());
        let (challenge, pairs) = Challenge::new(None, "NOBODY");
        assert!(challenge
            .verify(&client_phase_two("secret-pw", &pairs))
            .is_none());
    }

    #[test]
    fn garbage_logins_are_refused_not_panics() {
        let (challenge, _) = Challenge::new(Some(Verifier::new("x")), "CDC");
        for pairs in [
            vec![],
            vec![("AUTH_SESSKEY".into(), "zz".into(), 0)],
            vec![
                ("AUTH_SESSKEY".into(), "00".repeat(32), 0),
                ("AUTH_PBKDF2_SPEEDY_KEY".into(), "0".into(), 0),
            ],
            vec![
                ("AUTH_SESSKEY".into(), "00".repeat(32), 0),
                ("AUTH_PASSWORD".into(), "00".repeat(5), 0),
            ],
        ] {
            let req = AuthRequest {
                user: "CDC".into(),
                pairs,
            };
            assert!(challenge.verify(&req).is_none());
        }
    }

    #[test]
    fn login_messages_parse_in_both_user_forms() {
        // python-oracledb: the user with a length byte.
        let thin = [
            1u8, 1, 3, 1, 1, 1, 1, 1, 1, 1, 3, b'C', b'D', b'C', 1, 4, 4, b'A', b'_', b'K', b'Y',
            1, 1, 1, b'v', 0,
        ];
        let req = parse_auth(&thin, false).unwrap();
        assert_eq!((req.user.as_str(), req.get("A_KY")), ("CDC", Some("v")));
        // JDBC thin: the user bare.
        let jdbc = [
            1u8, 1, 3, 1, 1, 1, 1, 1, 1, 1, b'C', b'D', b'C', 1, 4, 4, b'A', b'_', b'K', b'Y', 1,
            1, 1, b'v', 0,
        ];
        let req = parse_auth(&jdbc, false).unwrap();
        assert_eq!(req.user, "CDC");
        assert!(parse_auth(&jdbc[..12], true).is_err());
    }
}
