//! Serves the integration tests' toy backend on a port, for trying clients by hand:
//! `cargo run -p oracle-net-server --example toy_server -- 15300` (RUST_LOG for packet logs).
#[path = "../tests/common/mod.rs"]
mod common;

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(
            std::env::var("RUST_LOG").unwrap_or_else(|_| "oracle_net_server=debug".into()),
        )
        .init();
    let port: u16 = std::env::args()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    let toy = common::Toy::new();
    let listener = oracle_net_server::Listener::bind(("127.0.0.1", port), toy).expect("bind");
    println!("listening on {}", listener.local_addr());
    loop {
        std::thread::park();
    }
}
