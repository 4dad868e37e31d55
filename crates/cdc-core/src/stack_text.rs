//! Text written a piece at a time (a `Display` impl, digits pushed by hand) into a buffer on
//! the stack, then copied once into the inline text a value holds ([`crate::types::Str`]).
//! Written into a `Str` directly, each piece went through its capacity check and copy: a
//! fetched DATE cost more than its whole decoding by the driver.

use crate::types::Str;

/// Up to `N` bytes on the stack, on the heap beyond.
pub struct StackText<const N: usize> {
    bytes: [u8; N],
    len: usize,
    spilled: Option<String>,
}

impl<const N: usize> Default for StackText<N> {
    fn default() -> Self {
        StackText {
            bytes: [0; N],
            len: 0,
            spilled: None,
        }
    }
}

impl<const N: usize> std::fmt::Write for StackText<N> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if let Some(spilled) = &mut self.spilled {
            spilled.push_str(s);
        } else if let Some(room) = self.bytes.get_mut(self.len..self.len + s.len()) {
            room.copy_from_slice(s.as_bytes());
            self.len += s.len();
        } else {
            let mut spilled = String::with_capacity(self.len + s.len());
            spilled.push_str(self.as_stack_str());
            spilled.push_str(s);
            self.spilled = Some(spilled);
        }
        Ok(())
    }

    fn write_char(&mut self, c: char) -> std::fmt::Result {
        match (u8::try_from(c), self.spilled.is_none() && self.len < N) {
            (Ok(b), true) if b.is_ascii() => {
                self.bytes[self.len] = b;
                self.len += 1;
                Ok(())
            }
            _ => self.write_str(c.encode_utf8(&mut [0; 4])),
        }
    }
}

impl<const N: usize> StackText<N> {
    fn as_stack_str(&self) -> &str {
        // SAFETY: only whole `str`s and ASCII bytes were written into `bytes[..len]`, so it is
        // UTF-8.
        unsafe { std::str::from_utf8_unchecked(&self.bytes[..self.len]) }
    }

    /// The text written.
    pub fn as_str(&self) -> &str {
        match &self.spilled {
            Some(s) => s,
            None => self.as_stack_str(),
        }
    }

    /// The text written, as a value's inline text (on the heap past its 24 bytes).
    pub fn into_str(self) -> Str {
        match self.spilled {
            Some(s) => s.into(),
            None => Str::from(self.as_stack_str()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    /// Pieces of every width, ASCII and not, written past the stack's room, give the text
    /// they make together.
    #[test]
    fn the_pieces_make_the_text_on_the_stack_and_past_it() {
        let pieces = ["2024", "-", "é", "日本", "x", "0123456789", "😀", "z"];
        for n in 0..40 {
            let mut text = StackText::<16>::default();
            let mut want = String::new();
            for i in 0..n {
                let piece = pieces[i % pieces.len()];
                if i % 3 == 0 {
                    for c in piece.chars() {
                        text.write_char(c).unwrap();
                    }
                } else {
                    text.write_str(piece).unwrap();
                }
                want.push_str(piece);
            }
            assert_eq!(text.as_str(), want);
            assert_eq!(text.into_str(), want);
        }
        let mut number = StackText::<64>::default();
        write!(number, "{}", -1.5e-70f64).unwrap();
        assert_eq!(number.into_str(), format!("{}", -1.5e-70f64));
    }
}
