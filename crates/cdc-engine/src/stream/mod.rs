//! Streaming: LogMiner rows → parsed changes → committed transactions in commit-SCN order.

pub mod buffer;
pub mod catalog;
pub mod ddl;
pub mod decode;
pub mod handling;
mod lenient;
pub mod parse;
pub mod spill;
pub mod statement;
pub mod unknown;
