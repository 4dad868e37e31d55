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

/// What each binary does first: transparent huge pages off for this process (Linux).
///
/// Why: mimalloc asks for huge pages on its regions (`MADV_HUGEPAGE`), so on a host whose THP
/// setting is `madvise` (or `always`) every region it takes back from the OS and reuses costs a
/// fresh 2 MiB page zeroed, and whatever compaction the kernel does to find one. Measured
/// (benches/README.md, "Huge pages off"): a fifth to a third of an export's CPU time went to
/// the kernel zeroing pages, and that share swung between identical runs. Our heaps are small
/// (a wave of chunks, a transaction buffer), so the TLB misses huge pages would save are few.
/// The flag is the process's own (`PR_SET_THP_DISABLE`), inherited by nothing else, and
/// refused harmlessly by kernels without it.
pub fn process_setup() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE reads no memory of ours; its result is only a
    // status, and failure (an old kernel) leaves the process as it was.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}
