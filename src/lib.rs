//! oracle-cdc: Oracle change data capture.
//!
//! The engine (settings, sources, snapshot and streaming) lives in this library; the binary's
//! command-line layer is [`cli`]. The engine never imports clap, indicatif, comfy-table or
//! crossterm; it reaches databases only through [`source::Connector`].

// The core the engine shares with the emulator and the CLI (crates/cdc-core), re-exported
// under the paths the engine has always used.
pub use cdc_core::{charset, errors, localfs, names, oson, state, swar, types};

pub mod capture;
pub mod cli;
pub mod crashpoint;
pub mod doctor;
pub mod encode;
pub mod export;
pub mod kafka;
pub mod metrics;
pub mod offsets;
pub mod ops;
pub mod record;
pub mod settings;
pub mod signal;
pub mod sim;
pub mod sink;
pub mod snapshot;
pub mod source;
pub mod sql_condition;
pub mod stream;

// Every binary that links the engine (the CLI, tests, benches) allocates through mimalloc:
// capture frees on the publishing thread what reader threads allocated, where glibc's malloc
// spent about a sixth of a snapshot's time (benches/README.md), and decode allocates per value.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
