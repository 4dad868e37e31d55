//! The engine of oracle-cdc: settings, sources (Oracle, the emulator, replay), snapshot and
//! stream, the sequencer, records, sinks, offsets, signals and doctor's checks.
//!
//! It knows no command line: clap, indicatif, comfy-table and crossterm are the binary's
//! (the `oracle-cdc` crate, `src/cli/`), and Cargo keeps them out of here. It reaches databases
//! only through [`source::Connector`]; the driver crates are named in `source::oracle` alone.

// The core the engine shares with the emulator and the CLI (crates/cdc-core), re-exported
// under the paths the engine has always used.
pub use cdc_core::{charset, errors, localfs, names, oson, sql_condition, state, swar, types};

pub mod atomic_file;
pub mod capture;
pub mod crashpoint;
pub mod doctor;
pub mod encode;
pub mod export;
pub mod kafka;
pub mod metrics;
pub mod offsets;
pub mod ops;
pub mod record;
pub mod segments;
pub mod settings;
pub mod signal;
// The deterministic simulation: tests, the soak example and benches turn it on (feature `sim`).
#[cfg(any(test, feature = "sim"))]
pub mod sim;
pub mod sink;
pub mod snapshot;
pub mod source;
pub mod status;
pub mod stream;
