fn main() -> std::process::ExitCode {
    oracle_cdc::cli::run(std::env::args_os())
}
