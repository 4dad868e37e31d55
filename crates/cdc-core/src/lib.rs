//! The core of oracle-cdc: what the engine, the emulator and the CLI all speak.
//!
//! SCNs and LogMiner's rows ([`model`]), values and column types ([`types`]), table names and
//! their patterns ([`names`]), Oracle's character sets ([`charset`]), ROWIDs ([`rowid`]), the
//! mining filter ([`filter`]), the source trait a database is seen through ([`session`]), civil time ([`civil`]), the one CDC-NNNN error catalog
//! ([`errors`]) and the private files the tool writes ([`localfs`]). It depends on no other
//! crate of the house, and on nothing that reaches a database, a terminal or a network.

pub mod charset;
pub mod civil;
pub mod errors;
pub mod filter;
pub mod literal;
pub mod localfs;
pub mod model;
pub mod names;
pub mod oson;
pub mod rowid;
pub mod session;
pub mod sql_condition;
pub mod stack_text;
pub mod state;
pub mod swar;
pub mod threads;
pub mod types;
pub mod types_map;
