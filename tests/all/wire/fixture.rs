//! An emulated database made from `examples/emulator-schema.yaml` (a CDB with PDB1 and PDB2,
//! a common and a local user), served on a free loopback port.

use oracle_cdc::source::emulator::{self, clock, net, EmulatorConnector, Faults};
use std::path::{Path, PathBuf};

pub const USER: &str = "C##CDC";
pub const PASSWORD: &str = net::DEFAULT_PASSWORD;

pub struct Served {
    pub _tmp: tempfile::TempDir,
    pub dir: PathBuf,
    pub served: net::Served,
}

impl Served {
    /// `host:port/SERVICE`.
    pub fn url(&self, service: &str) -> String {
        self.served.url(service)
    }
}

pub fn example_schema() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/emulator-schema.yaml")
}

/// A database from `schema`, served with `faults`.
pub fn serve_schema(schema: &Path, faults: Faults) -> Served {
    serve_schema_made(schema, faults, clock::system())
}

/// A database from `schema` made `ago_ms` ago (`emulator init`'s rows, and its log switches,
/// that long before now), served now.
pub fn serve_schema_made_ago(schema: &Path, ago_ms: i64) -> Served {
    let now = clock::system().now_ms();
    serve_schema_made(
        schema,
        Faults::default(),
        std::sync::Arc::new(clock::ManualClock::new(now - ago_ms)),
    )
}

fn serve_schema_made(
    schema: &Path,
    faults: Faults,
    made: std::sync::Arc<dyn clock::Clock>,
) -> Served {
    serve_made(schema, faults, made, None)
}

/// [`serve_schema_made`], over TLS with `tls`.
fn serve_made(
    schema: &Path,
    faults: Faults,
    made: std::sync::Arc<dyn clock::Clock>,
    tls: Option<net::TlsFiles>,
) -> Served {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("db");
    emulator::init(&dir, schema, Some(7), made).expect("emulator init");
    let served = net::serve(
        &dir,
        &net::ServeOptions {
            listen: "127.0.0.1:0".into(),
            faults,
            sdu: None,
            tls,
        },
    )
    .expect("emulator serve");
    Served {
        _tmp: tmp,
        dir,
        served,
    }
}

/// A directory already made (a standby or downstream of another), served.
pub fn serve_dir(dir: &Path) -> net::Served {
    net::serve(
        dir,
        &net::ServeOptions {
            listen: "127.0.0.1:0".into(),
            faults: Faults::default(),
            sdu: None,
            tls: None,
        },
    )
    .expect("emulator serve")
}

/// The example database served over TLS (TCPS) with the test CA's server certificate
/// (tests/all/tls): its URLs are `tcps://…`, and `tls_wallet()` trusts it.
pub fn serve_example_tls() -> Served {
    let tls = tls_dir();
    let files = net::TlsFiles {
        cert: tls.join("server.pem"),
        key: tls.join("server.key"),
        client_ca: None,
    };
    serve_made(
        &example_schema(),
        Faults::default(),
        clock::system(),
        Some(files),
    )
}

/// [`serve_example_tls`] requiring a client certificate signed by the test CA (mutual TLS).
pub fn serve_example_mtls() -> Served {
    let tls = tls_dir();
    let files = net::TlsFiles {
        cert: tls.join("server.pem"),
        key: tls.join("server.key"),
        client_ca: Some(tls.join("ca.pem")),
    };
    serve_made(
        &example_schema(),
        Faults::default(),
        clock::system(),
        Some(files),
    )
}

/// tests/all/tls: the test CA's files.
pub fn tls_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/all/tls")
}

/// The wallet directory whose ewallet.pem holds the test CA's certificate.
pub fn tls_wallet() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/all/tls/wallet")
}

pub fn serve_example() -> Served {
    serve_schema(&example_schema(), Faults::default())
}

/// The in-process connector of the same database, as the same user on the same service.
pub fn in_process(dir: &Path, service: Option<&str>) -> EmulatorConnector {
    EmulatorConnector::open(dir, Faults::default())
        .expect("open emulator")
        .with_login(Some(USER), service)
}
