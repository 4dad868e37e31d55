//! Byte tests on eight bytes at once (SWAR): the parser's search for a quote and the encoders'
//! checks for bytes that need escaping or quoting look at a word per step instead of a byte.

/// Nonzero exactly when some byte of `w` is below `n` (n ≤ 128). The lowest such byte has its
/// high bit set in the result; a borrow may also set the high bit of bytes above it, so beyond
/// the lowest flagged byte only whether the result is zero is meaningful.
#[inline]
pub fn bytes_below(w: u64, n: u8) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    w.wrapping_sub(ONES * u64::from(n)) & !w & (ONES << 7)
}

/// Nonzero exactly when some byte of `w` equals `c` (a zero byte of `w ^ c…c`); the lowest
/// flagged byte is the first equal one (see [`bytes_below`]).
#[inline]
pub fn bytes_equal(w: u64, c: u8) -> u64 {
    bytes_below(w ^ (0x0101_0101_0101_0101 * u64::from(c)), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the byte-by-byte answer for every byte value at every position.
    #[test]
    fn word_tests_match_the_bytes() {
        for pos in 0..8 {
            for b in 0..=255u8 {
                let mut bytes = [b'a'; 8];
                bytes[pos] = b;
                let w = u64::from_le_bytes(bytes);
                assert_eq!(bytes_below(w, 0x20) != 0, bytes.iter().any(|&x| x < 0x20));
                for c in [b'"', b'\\', b',', b'*', b'a'] {
                    let first = bytes.iter().position(|&x| x == c);
                    let got = bytes_equal(w, c);
                    assert_eq!(got != 0, first.is_some());
                    if let Some(i) = first {
                        assert_eq!(got.trailing_zeros() / 8, i as u32);
                    }
                }
            }
        }
    }
}
