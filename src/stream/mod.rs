//! Streaming: LogMiner rows → parsed changes → committed transactions in commit-SCN order.

pub mod parse;
