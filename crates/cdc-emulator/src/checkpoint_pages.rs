//! Checksums of a checkpoint's pages, so that a changed byte in the rows a checkpoint holds is
//! refused (CDC-4004) instead of served as data, as Oracle refuses a corrupt block (ORA-01578)
//! rather than return its rows.
//!
//! The body of `checkpoint.dat` (every table's rows and row directory) is cut into pages of
//! [`PAGE_BYTES`] from its first byte; after the body, a table of one CRC-32C per page and a
//! CRC-32C of that table. A read of any byte range reads the whole pages around it and checks
//! each (see [`super::checkpoint::RowsOnDisk`]).
//!
//! Why per page and not per row or per value: a chunk read covers thousands of rows, and one
//! checksum per 32 KiB keeps the check below a percent of a read's cost, where one per row would
//! be a call per 100 bytes. Why CRC-32C: it catches every burst error up to 32 bits (a flipped
//! byte always), and the `crc32c` crate (already built for the Kafka protocol's record batches,
//! which use the same CRC) computes it with the CPU's CRC32 instruction at several GB/s. It is a
//! check against damage, not against anyone who would rewrite the file and its sums.

/// Bytes of the body one checksum covers (few in unit tests, so that reads cross pages).
pub const PAGE_BYTES: u64 = if cfg!(test) { 96 } else { 32 * 1024 };

/// The checksums of a body written in pieces of any size.
pub struct PageSums {
    page_bytes: u64,
    sums: Vec<u32>,
    /// The checksum of the current page so far, and how many of its bytes it covers.
    current: u32,
    filled: u64,
}

impl PageSums {
    pub fn new(page_bytes: u64) -> PageSums {
        PageSums {
            page_bytes,
            sums: Vec::new(),
            current: 0,
            filled: 0,
        }
    }

    pub fn update(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let room = (self.page_bytes - self.filled).min(bytes.len() as u64) as usize;
            self.current = crc32c::crc32c_append(self.current, &bytes[..room]);
            self.filled += room as u64;
            bytes = &bytes[room..];
            if self.filled == self.page_bytes {
                self.sums.push(self.current);
                self.current = 0;
                self.filled = 0;
            }
        }
    }

    /// The checksums of every page, the last one possibly short.
    pub fn finish(mut self) -> Vec<u32> {
        if self.filled > 0 {
            self.sums.push(self.current);
        }
        self.sums
    }
}

/// Pages of a body of `body_len` bytes.
pub fn page_count(body_len: u64, page_bytes: u64) -> u64 {
    body_len.div_ceil(page_bytes.max(1))
}

/// The table of checksums as stored after the body: each `u32` little-endian, then the
/// CRC-32C of those bytes.
pub fn encode_table(sums: &[u32]) -> Vec<u8> {
    let mut out: Vec<u8> = sums.iter().flat_map(|s| s.to_le_bytes()).collect();
    let own = crc32c::crc32c(&out);
    out.extend_from_slice(&own.to_le_bytes());
    out
}

/// The checksums in a stored table, `None` when the table's own checksum does not match.
pub fn decode_table(bytes: &[u8]) -> Option<Vec<u32>> {
    let (sums, own) = bytes.split_at_checked(bytes.len().checked_sub(4)?)?;
    let own = u32::from_le_bytes(own.try_into().ok()?);
    if crc32c::crc32c(sums) != own || sums.len() % 4 != 0 {
        return None;
    }
    Some(
        sums.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}

/// A writer that sums what goes through it by page (the body of a checkpoint being written).
pub struct SummingWriter<W> {
    pub inner: W,
    pub sums: PageSums,
    pub written: u64,
}

impl<W: std::io::Write> std::io::Write for SummingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.sums.update(&buf[..n]);
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Where a damaged page is: the first page of `pages` (page numbers from `first`, each the
/// bytes of `data` it covers) whose checksum is not `sums`' — `None` when every one matches.
pub fn first_bad_page(data: &[u8], first: u64, page_bytes: u64, sums: &[u32]) -> Option<u64> {
    for (k, page) in data.chunks(page_bytes as usize).enumerate() {
        let n = first + k as u64;
        let want = sums.get(n as usize).copied();
        if want != Some(crc32c::crc32c(page)) {
            return Some(n);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_do_not_depend_on_how_the_body_is_cut_into_writes() {
        let body: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
        let mut whole = PageSums::new(96);
        whole.update(&body);
        let mut pieces = PageSums::new(96);
        for piece in body.chunks(13) {
            pieces.update(piece);
        }
        let (whole, pieces) = (whole.finish(), pieces.finish());
        assert_eq!(whole, pieces);
        assert_eq!(whole.len() as u64, page_count(1000, 96));
        assert_eq!(first_bad_page(&body, 0, 96, &whole), None);
    }

    #[test]
    fn a_flipped_byte_is_found_in_its_page() {
        let mut body: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
        let mut s = PageSums::new(96);
        s.update(&body);
        let sums = s.finish();
        body[500] ^= 0x01;
        assert_eq!(first_bad_page(&body, 0, 96, &sums), Some(5));
        // Reading pages 4 and 5 only.
        assert_eq!(first_bad_page(&body[384..576], 4, 96, &sums), Some(5));
        assert_eq!(first_bad_page(&body[0..480], 0, 96, &sums), None);
    }

    #[test]
    fn the_table_of_sums_checks_itself() {
        let table = encode_table(&[1, 2, 0xdead_beef]);
        assert_eq!(decode_table(&table), Some(vec![1, 2, 0xdead_beef]));
        let mut bad = table.clone();
        bad[5] ^= 0x40;
        assert_eq!(decode_table(&bad), None);
        assert_eq!(decode_table(&table[..3]), None);
    }
}
