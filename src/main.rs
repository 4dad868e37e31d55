fn main() -> std::process::ExitCode {
    oracle_cdc::process_setup();
    oracle_cdc::cli::run(std::env::args_os())
}
