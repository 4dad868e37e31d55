//! The outside Oracle clients against the toy backend: python-oracledb, node-oracledb and JDBC
//! thin, each run as its own process by the scripts in `tests/clients/` (which exit non-zero on
//! any mismatch). Each test needs its client installed (`tests/clients/install.sh DIR` prints the
//! variables): without it the test prints "skipped: …" and passes, unless
//! `ORACLE_CDC_TEST_REQUIRE_CLIENTS=1` makes a missing client a failure.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A client run may take this long before it is killed and the test fails.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(300);

fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients")
}

/// The variable's value, or `None` after printing why the test is skipped (or failing when
/// clients are required).
fn client(var: &str, what: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(v) if !v.trim().is_empty() => Some(v),
        _ => {
            let required = std::env::var("ORACLE_CDC_TEST_REQUIRE_CLIENTS").as_deref() == Ok("1");
            assert!(
                !required,
                "{what}: {var} is not set and ORACLE_CDC_TEST_REQUIRE_CLIENTS=1"
            );
            println!(
                "skipped: {what}: {var} is not set (tests/clients/install.sh DIR installs it)"
            );
            None
        }
    }
}

/// Runs a client to completion (or kills it after [`CLIENT_TIMEOUT`]) and fails on a non-zero
/// exit, showing what it printed.
fn run(mut cmd: Command, what: &str) {
    let output_dir = tempdir(what);
    let out_path = output_dir.join("out.txt");
    let out = std::fs::File::create(&out_path).expect("output file");
    let err = out.try_clone().expect("output file");
    let mut child = cmd
        .env("TZ", "UTC")
        .stdin(Stdio::null())
        .stdout(Stdio::from(out))
        .stderr(Stdio::from(err))
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if started.elapsed() > CLIENT_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let printed = std::fs::read_to_string(&out_path).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&output_dir);
    match status {
        Some(s) if s.success() => println!("{what}:\n{printed}"),
        Some(s) => panic!("{what} failed ({s}):\n{printed}"),
        None => panic!("{what} did not finish in {CLIENT_TIMEOUT:?}:\n{printed}"),
    }
}

fn tempdir(what: &str) -> PathBuf {
    let tag: String = what.chars().filter(char::is_ascii_alphanumeric).collect();
    let dir = std::env::temp_dir().join(format!("oracle-net-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn python_oracledb_thin() {
    let Some(python) = client("ORACLE_NET_TEST_PYTHON", "python-oracledb") else {
        return;
    };
    let (_listener, _toy, dsn) = common::serve();
    let mut cmd = Command::new(python);
    cmd.arg(clients_dir().join("python_client.py"))
        .args([&dsn, common::USER, common::PASSWORD]);
    run(cmd, "python-oracledb");
}

#[test]
fn node_oracledb_thin() {
    let Some(dir) = client("ORACLE_NET_TEST_NODE_PATH", "node-oracledb") else {
        return;
    };
    let (_listener, _toy, dsn) = common::serve();
    let mut cmd = Command::new("node");
    cmd.env("NODE_PATH", Path::new(&dir).join("node_modules"))
        .arg(clients_dir().join("node_client.js"))
        .args([&dsn, common::USER, common::PASSWORD]);
    run(cmd, "node-oracledb");
}

#[test]
fn jdbc_thin() {
    let Some(jar) = client("ORACLE_NET_TEST_OJDBC", "JDBC thin") else {
        return;
    };
    let classes = tempdir("jdbc-classes");
    let javac = Command::new("javac")
        .args(["-cp", &jar, "-d"])
        .arg(&classes)
        .arg(clients_dir().join("JdbcClient.java"))
        .output()
        .expect("javac (Java 17) must be installed to run the JDBC client");
    assert!(
        javac.status.success(),
        "javac failed:\n{}",
        String::from_utf8_lossy(&javac.stderr)
    );
    let (listener, _toy, _dsn) = common::serve();
    let port = listener.local_addr().port().to_string();
    let mut cmd = Command::new("java");
    cmd.args([
        "-Duser.timezone=UTC",
        "-Djava.util.logging.config.file=/dev/null",
        "-cp",
    ])
    .arg(format!("{jar}:{}", classes.display()))
    .args([
        "JdbcClient",
        "127.0.0.1",
        &port,
        common::SERVICE,
        common::USER,
        common::PASSWORD,
    ]);
    run(cmd, "JDBC thin");
    let _ = std::fs::remove_dir_all(&classes);
}
