//! The replica's retained redo records: the newest in memory, older ones read back from the
//! redo file through [`crate::redo_index`].

use super::*;

impl Replica {
    /// Retained record number `n`: from the cache, an open transaction, or the redo file.
    pub fn record(&self, n: u64) -> Result<Option<Arc<Redo>>> {
        if n >= self.records_base {
            return Ok(self.records.get((n - self.records_base) as usize).cloned());
        }
        if n < self.index.first {
            return Ok(None);
        }
        for tx in self.open.values() {
            if let Ok(i) = tx.changes.binary_search(&n) {
                return Ok(tx.records.get(i).cloned());
            }
        }
        match self.index.start_for(n) {
            Some(mark) => Ok(self.index.read_one(mark, n)?.map(Arc::new)),
            None => Ok(None),
        }
    }

    /// SCN of the oldest retained record (the current SCN when there is none).
    pub fn first_kept_scn(&self) -> Scn {
        match self.index.first_scn {
            Some(s) if self.index.first < self.next_record() => s,
            _ => self.current_scn,
        }
    }

    /// Every retained record with an SCN in `start..=end`, oldest first (those older than the
    /// cache read back from the redo file).
    pub fn each_record(
        &self,
        start: Scn,
        end: Scn,
        mut each: impl FnMut(u64, &Redo) -> Result<()>,
    ) -> Result<()> {
        // Records before the cache can be in range when the cache's first is not below `start`.
        let need_file = self.records_base > self.index.first
            && self.records.front().is_none_or(|r| r.scn() >= start);
        let from = if need_file {
            if let Some(mark) = self.index.start_for_scn(start) {
                let first = self.index.first;
                let mut past_end = false;
                self.index.read(mark, self.records_base, |n, rec| {
                    if n < first || rec.scn() < start {
                        return Ok(true);
                    }
                    if rec.scn() > end {
                        past_end = true;
                        return Ok(false);
                    }
                    each(n, &rec)?;
                    Ok(true)
                })?;
                if past_end {
                    return Ok(());
                }
            }
            0
        } else {
            self.records.partition_point(|r| r.scn() < start)
        };
        for (i, rec) in self.records.iter().enumerate().skip(from) {
            if rec.scn() > end {
                break;
            }
            each(self.records_base + i as u64, rec)?;
        }
        Ok(())
    }
}
