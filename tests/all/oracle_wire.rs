//! The Oracle adapter over Oracle Net against `emulator serve`: the real adapter, through the
//! thin driver, reaches the emulated database exactly as it reaches Oracle, and every answer it
//! assembles from Oracle's views must equal the answer the emulator gives in-process. Plus the
//! walk over every statement of `sql.rs`, the CLI end to end over the wire, outside clients and
//! faults on the wire (in `tests/all/wire/`).

use crate::capture_support;
#[path = "wire/cli.rs"]
mod cli;
#[path = "wire/clients.rs"]
mod clients;
#[path = "wire/conformance.rs"]
mod conformance;
#[path = "wire/errors.rs"]
mod errors;
#[path = "wire/faults.rs"]
mod faults;
#[path = "wire/fixture.rs"]
mod fixture;
#[path = "wire/national_keys.rs"]
mod national_keys;
#[path = "wire/policies.rs"]
mod policies;
#[path = "wire/statements.rs"]
mod statements;
