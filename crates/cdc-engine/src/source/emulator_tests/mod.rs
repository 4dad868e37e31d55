//! The engine's tests of what it builds on the emulator: the container logic over a CDB's
//! PDBs and their character sets, the planner's key order, the SQL_REDO parser on what the
//! emulator writes, capture's mining filter, downstream capture. The emulator's own tests are
//! in its crate; these need the engine, which the emulator never sees.

mod background;
mod charset;
mod downstream;
mod pdb_charset;
mod session;
