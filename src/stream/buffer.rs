//! The transaction buffer: LogMiner rows kept per transaction until its COMMIT, dropped on
//! ROLLBACK; `ROLLBACK=1` undo rows cancel the change they undo; CSF pieces are joined; rows of a
//! transaction seen from its middle (XID sequence `ffffffff`) are matched by undo segment and slot.

use crate::source::model::{op, LogMinerRow, Scn};
use std::collections::HashMap;

/// A committed transaction's rows in redo order.
#[derive(Debug, Clone)]
pub struct Committed {
    pub xid: String,
    pub start_scn: Scn,
    pub commit_scn: Scn,
    pub thread: u32,
    pub commit_timestamp: String,
    pub rows: Vec<LogMinerRow>,
}

#[derive(Debug, Default)]
struct OpenTx {
    start_scn: Option<Scn>,
    first_scn: Scn,
    rows: Vec<LogMinerRow>,
}

#[derive(Debug, Default)]
pub struct TxBuffer {
    open: HashMap<String, OpenTx>,
    csf: Option<LogMinerRow>,
}

const UNKNOWN_SQN: &str = "ffffffff";

/// Undo segment and slot: the part of an XID known even when the sequence is not.
fn prefix(xid: &str) -> &str {
    xid.get(..8).unwrap_or(xid)
}

fn is_partial(xid: &str) -> bool {
    xid.len() == 16 && xid[8..].eq_ignore_ascii_case(UNKNOWN_SQN)
}

impl TxBuffer {
    /// The oldest SCN mining must restart from to rebuild the open transactions.
    pub fn oldest_start(&self) -> Option<Scn> {
        self.open
            .values()
            .map(|t| t.start_scn.unwrap_or(t.first_scn).min(t.first_scn))
            .min()
    }

    pub fn open_transactions(&self) -> usize {
        self.open.len()
    }

    pub fn buffered_rows(&self) -> usize {
        self.open.values().map(|t| t.rows.len()).sum()
    }

    /// The key a row is buffered under: a partial XID joins the open transaction with the same
    /// undo segment and slot when there is one.
    fn key_for(&self, xid: &str) -> String {
        if is_partial(xid) {
            if let Some(k) = self
                .open
                .keys()
                .find(|k| !is_partial(k) && prefix(k).eq_ignore_ascii_case(prefix(xid)))
            {
                return k.clone();
            }
        }
        xid.to_ascii_lowercase()
    }

    /// Take one row; a COMMIT returns its transaction.
    pub fn push(&mut self, row: LogMinerRow) -> Option<Committed> {
        // Join CSF continuation pieces into one statement.
        if row.csf == 1 {
            match &mut self.csf {
                Some(acc) => acc.sql_redo.push_str(&row.sql_redo),
                None => {
                    let mut first = row;
                    first.csf = 0;
                    self.csf = Some(first);
                }
            }
            return None;
        }
        let row = match self.csf.take() {
            Some(mut acc) => {
                acc.sql_redo.push_str(&row.sql_redo);
                acc
            }
            None => row,
        };
        let key = self.key_for(&row.xid);
        match row.operation_code {
            op::START => {
                let tx = self.open.entry(key).or_default();
                tx.start_scn = Some(row.scn);
                if tx.first_scn == 0 {
                    tx.first_scn = row.scn;
                }
                None
            }
            op::COMMIT => {
                let mut tx = self.open.remove(&key).unwrap_or_default();
                // Rows seen under the partial XID belong to this transaction too.
                let partial = format!("{}{UNKNOWN_SQN}", prefix(&key));
                if let Some(p) = self.open.remove(&partial) {
                    let mut rows = p.rows;
                    rows.append(&mut tx.rows);
                    rows.sort_by_key(|r| r.scn);
                    tx.rows = rows;
                    tx.first_scn = if tx.first_scn == 0 {
                        p.first_scn
                    } else {
                        tx.first_scn.min(p.first_scn)
                    };
                }
                Some(Committed {
                    xid: row.xid.to_ascii_lowercase(),
                    start_scn: row.start_scn.or(tx.start_scn).unwrap_or(tx.first_scn),
                    commit_scn: row.commit_scn.unwrap_or(row.scn),
                    thread: row.thread,
                    commit_timestamp: row
                        .commit_timestamp
                        .clone()
                        .unwrap_or_else(|| row.timestamp.clone()),
                    rows: tx.rows,
                })
            }
            op::ROLLBACK => {
                self.open.remove(&key);
                self.open.remove(&format!("{}{UNKNOWN_SQN}", prefix(&key)));
                None
            }
            op::INSERT | op::UPDATE | op::DELETE | op::LOB_WRITE | op::DDL => {
                let tx = self.open.entry(key).or_default();
                if tx.first_scn == 0 {
                    tx.first_scn = row.scn;
                }
                if row.rollback == 1 {
                    // Undo rows come newest first: cancel the newest change of this row.
                    if let Some(i) = tx.rows.iter().rposition(|r| {
                        r.row_id == row.row_id
                            && matches!(r.operation_code, op::INSERT | op::UPDATE | op::DELETE)
                    }) {
                        tx.rows.remove(i);
                        // LOB writes that belonged to the undone change go with it.
                        while i < tx.rows.len()
                            && tx.rows[i].operation_code == op::LOB_WRITE
                            && tx.rows[i].row_id == row.row_id
                        {
                            tx.rows.remove(i);
                        }
                    }
                } else {
                    tx.rows.push(row);
                }
                None
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(code: u32, scn: Scn, xid: &str, rid: &str, sql: &str) -> LogMinerRow {
        LogMinerRow {
            scn,
            commit_scn: (code == op::COMMIT).then_some(scn),
            start_scn: None,
            timestamp: String::new(),
            commit_timestamp: None,
            xid: xid.into(),
            xidusn: 0,
            xidslt: 0,
            xidsqn: 0,
            operation_code: code,
            operation: op::name(code).into(),
            seg_owner: None,
            table_name: None,
            row_id: rid.into(),
            sql_redo: sql.into(),
            csf: 0,
            rollback: 0,
            rs_id: String::new(),
            ssn: 0,
            thread: 1,
            sequence: 1,
            status: 0,
            info: None,
            src_con_name: String::new(),
            username: String::new(),
            data_obj: 0,
        }
    }

    const X: &str = "0200030004000000";

    #[test]
    fn commit_returns_changes_rollback_drops_them() {
        let mut b = TxBuffer::default();
        assert!(b.push(row(op::START, 10, X, "", "")).is_none());
        b.push(row(op::INSERT, 11, X, "R1", "i1"));
        assert_eq!(b.oldest_start(), Some(10));
        let c = b.push(row(op::COMMIT, 12, X, "", "")).unwrap();
        assert_eq!((c.start_scn, c.commit_scn, c.rows.len()), (10, 12, 1));
        assert_eq!(b.open_transactions(), 0);
        b.push(row(op::START, 13, X, "", ""));
        b.push(row(op::INSERT, 14, X, "R2", "i2"));
        assert!(b.push(row(op::ROLLBACK, 15, X, "", "")).is_none());
        assert_eq!(b.open_transactions(), 0);
    }

    #[test]
    fn undo_rows_cancel_the_newest_change_of_their_row() {
        let mut b = TxBuffer::default();
        b.push(row(op::START, 1, X, "", ""));
        b.push(row(op::INSERT, 2, X, "A", "insert a"));
        b.push(row(op::UPDATE, 3, X, "A", "update a"));
        b.push(row(op::INSERT, 4, X, "B", "insert b"));
        let mut undo_b = row(op::DELETE, 5, X, "B", "");
        undo_b.rollback = 1;
        let mut undo_a = row(op::UPDATE, 6, X, "A", "");
        undo_a.rollback = 1;
        b.push(undo_b);
        b.push(undo_a);
        let c = b.push(row(op::COMMIT, 7, X, "", "")).unwrap();
        let sql: Vec<&str> = c.rows.iter().map(|r| r.sql_redo.as_str()).collect();
        assert_eq!(sql, vec!["insert a"]);
    }

    #[test]
    fn csf_pieces_are_joined_and_partial_xids_matched() {
        let mut b = TxBuffer::default();
        let mut p1 = row(
            op::INSERT,
            2,
            "02000300ffffffff",
            "A",
            "insert into \"O\".\"T\"(\"C\") values ('ab",
        );
        p1.csf = 1;
        b.push(p1);
        b.push(row(op::INSERT, 2, "02000300ffffffff", "A", "cd');"));
        b.push(row(op::UPDATE, 3, "02000300ffffffff", "A", "update"));
        let c = b
            .push(row(op::COMMIT, 4, "0200030004000000", "", ""))
            .unwrap();
        assert_eq!(c.rows.len(), 2);
        assert_eq!(
            c.rows[0].sql_redo,
            "insert into \"O\".\"T\"(\"C\") values ('abcd');"
        );
        assert_eq!(
            c.start_scn, 2,
            "seen from its middle: starts at its first row"
        );
        assert_eq!(b.open_transactions(), 0);
    }
}
