//! Streaming: LogMiner rows → parsed changes → committed transactions in commit-SCN order.

pub mod buffer;
pub mod ddl;
pub mod decode;
mod lenient;
pub mod parse;
pub mod spill;
pub mod statement;
pub mod unknown;
