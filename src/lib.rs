//! oracle-cdc: Oracle change data capture, the binary's crate.
//!
//! The command line ([`cli`]: arguments, printing, progress, the man pages and completions)
//! over the engine (crates/cdc-engine), which this crate re-exports whole so that the CLI,
//! the integration tests and the benches name its modules as `oracle_cdc::capture`,
//! `oracle_cdc::source` and so on. The engine never sees clap, indicatif, comfy-table or
//! crossterm: Cargo enforces it, as it is a crate of its own.

pub use cdc_engine::*;

pub mod cli;

// Every binary that links the engine (the CLI, tests, benches) allocates through mimalloc:
// capture frees on the publishing thread what reader threads allocated, where glibc's malloc
// spent about a sixth of a snapshot's time (benches/README.md), and decode allocates per value.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
