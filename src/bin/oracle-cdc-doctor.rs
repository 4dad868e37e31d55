//! `oracle-cdc-doctor`: the pre-flight checks on their own, with the same options, output and
//! exit codes as `oracle-cdc doctor`.

fn main() -> std::process::ExitCode {
    oracle_cdc::process_setup();
    oracle_cdc::cli::doctor::main(std::env::args_os())
}
