//! Clients no one here wrote, against `emulator serve`: python-oracledb and node oracledb (thin
//! mode) query V$DATABASE, read a table AS OF SCN equal to `emulator dump`, and insert and commit
//! rows that a running capture then publishes; Oracle's JDBC thin driver (which negotiates and
//! logs in its own way) connects and reads the same rows.
//!
//! The clients come from `crates/oracle-net-server/tests/clients/install.sh` (`.ci/run` runs
//! it): `ORACLE_NET_TEST_PYTHON`, `ORACLE_NET_TEST_NODE_PATH`, `ORACLE_NET_TEST_OJDBC`. Without
//! one the check says it is skipped, unless `ORACLE_CDC_TEST_REQUIRE_CLIENTS=1` (set by
//! `.ci/run`), which makes that a failure.

use super::capture_support::*;
use super::fixture::*;
use assert_cmd::cargo::cargo_bin;
use serde_json::{Map, Value as Json};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The example schema's application user: the owner of PDB1's HR tables.
const APP_USER: &str = "HR";
const APP_PASSWORD: &str = "hr";

pub(super) fn client(var: &str, what: &str) -> Option<PathBuf> {
    match std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.exists())
    {
        Some(p) => Some(p),
        None if std::env::var("ORACLE_CDC_TEST_REQUIRE_CLIENTS").as_deref() == Ok("1") => {
            panic!("{what}: {var} is not set to an installed client (crates/oracle-net-server/tests/clients/install.sh)")
        }
        None => {
            println!("skipped: {what}: {var} is not set (crates/oracle-net-server/tests/clients/install.sh installs it)");
            None
        }
    }
}

pub(super) fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/all/wire/clients")
        .join(name)
}

pub(super) fn output(cmd: &mut Command, what: &str) -> Vec<Json> {
    let o = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{what} failed: {}\n{out}",
        String::from_utf8_lossy(&o.stderr)
    );
    out.lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{what} printed {l}: {e}")))
        .collect()
}

/// The dump's rows of HR.EMPLOYEES at `scn`, only `columns`, in ID order.
fn dumped(db: &Path, scn: u64, columns: &[&str]) -> Vec<Json> {
    let mut rows: Vec<Json> = dump(db, "PDB1.HR.EMPLOYEES", scn)
        .into_iter()
        .map(|r| {
            Json::Object(
                columns
                    .iter()
                    .map(|c| (c.to_string(), r.get(*c).cloned().unwrap_or(Json::Null)))
                    .collect::<Map<_, _>>(),
            )
        })
        .collect();
    rows.sort_by_key(|r| r["ID"].as_i64());
    rows
}

/// The dump's IDs of HR.EMPLOYEES at `scn`, in order, as the TLS scripts print them.
fn dumped_ids(db: &Path, scn: u64) -> Json {
    Json::Array(
        dumped(db, scn, &["ID"])
            .into_iter()
            .map(|r| r["ID"].clone())
            .collect(),
    )
}

/// `emulator_python_tls.py` against PDB1 of `s`, trusting `wallet`, reading AS OF `scn`; by
/// the name the certificate holds, as python-oracledb matches the host to its DNS names.
fn python_tls(py: &Path, s: &Served, wallet: &Path, scn: u64) -> Command {
    let url = s.url("PDB1").replace("127.0.0.1", "localhost");
    assert!(url.starts_with("tcps://localhost:"), "{url}");
    let mut cmd = Command::new(py);
    cmd.arg(script("emulator_python_tls.py")).args([
        url.as_str(),
        APP_USER,
        APP_PASSWORD,
        wallet.to_str().unwrap(),
        &scn.to_string(),
    ]);
    cmd
}

/// A capture of PDB1.HR.EMPLOYEES over the wire, running until killed.
fn capture(s: &Served, dir: &Path) -> std::process::Child {
    Command::new(cargo_bin("oracle-cdc"))
        .env("ORACLE_CDC_DATABASE_PASSWORD", PASSWORD)
        .args([
            "-q",
            "--set",
            &format!("cdc.database.url={}", s.url("DEMO")),
            "--set",
            &format!("cdc.database.user={USER}"),
        ])
        .args([
            "--set",
            &format!("cdc.sink.dir={}", dir.join("out").display()),
        ])
        .args([
            "--set",
            &format!("cdc.state.dir={}", dir.join("state").display()),
        ])
        .args([
            "--set",
            "cdc.tables.include=PDB1.HR.EMPLOYEES",
            "--set",
            "cdc.stream.poll.ms=50",
        ])
        .arg("capture")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Waits until the capture published its first snapshot record, so its snapshot SCN is chosen:
/// rows committed after this are streamed as inserts (`c`), not read by the snapshot (`r`).
fn snapshot_begun(out: &Path) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while records(out).is_empty() {
        assert!(
            Instant::now() < deadline,
            "capture published no snapshot record within 60 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits until the capture published inserts of every id.
fn published(out: &Path, ids: &[i64]) -> Vec<Json> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let recs = if out.exists() {
            records(out)
        } else {
            Vec::new()
        };
        let seen: Vec<i64> = recs
            .iter()
            .filter(|r| payload(&r["value"])["op"] == "c")
            .filter_map(|r| {
                decoded_after(r)
                    .get("ID")
                    .and_then(|v| v.as_str().and_then(|s| s.parse().ok()).or(v.as_i64()))
            })
            .collect();
        if ids.iter().all(|i| seen.contains(i)) {
            return recs;
        }
        assert!(
            Instant::now() < deadline,
            "capture did not publish {ids:?} within 60 s (saw {} records)",
            recs.len()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn python_and_node_read_as_of_scn_and_their_inserts_are_captured() {
    let python = client("ORACLE_NET_TEST_PYTHON", "python-oracledb");
    let node = client("ORACLE_NET_TEST_NODE_PATH", "node oracledb");
    if python.is_none() && node.is_none() {
        return;
    }
    let s = serve_example();
    let work = tempfile::tempdir().unwrap();
    let mut cap = capture(&s, work.path());
    // The clients insert only after capture chose its snapshot SCN: a loaded CI run once started
    // capture's snapshot after their commits, and the rows came as snapshot reads.
    snapshot_begun(&work.path().join("out"));
    let scn = current_scn(&s.dir);
    let mut ids = Vec::new();
    if let Some(py) = &python {
        let lines = output(
            Command::new(py).arg(script("emulator_python.py")).args([
                &s.url("PDB1"),
                APP_USER,
                APP_PASSWORD,
                &scn.to_string(),
                "900001",
            ]),
            "python-oracledb",
        );
        assert_eq!(lines[0]["database"], "DEMO");
        assert!(lines[0]["current_scn"].as_u64().unwrap() >= scn);
        let want = dumped(
            &s.dir,
            scn,
            &[
                "ID",
                "NAME",
                "EMAIL",
                "REGION",
                "SALARY",
                "HIRED",
                "UPDATED_AT",
            ],
        );
        assert_eq!(
            &lines[1..],
            &want[..],
            "python-oracledb's rows AS OF SCN {scn} and the dump's"
        );
        ids.extend([900001, 900002]);
    }
    if let Some(dir) = &node {
        let lines = output(
            Command::new("node")
                .env("NODE_PATH", dir.join("node_modules"))
                .env("TZ", "UTC")
                .arg(script("emulator_node.js"))
                .args([
                    &s.url("PDB1"),
                    APP_USER,
                    APP_PASSWORD,
                    &scn.to_string(),
                    "900101",
                ]),
            "node oracledb",
        );
        assert_eq!(lines[0]["database"], "DEMO");
        let want = dumped(&s.dir, scn, &["ID", "NAME", "SALARY", "HIRED"]);
        assert_eq!(
            &lines[1..],
            &want[..],
            "node oracledb's rows AS OF SCN {scn} and the dump's"
        );
        ids.extend([900101, 900102]);
    }
    let recs = published(&work.path().join("out"), &ids);
    let _ = cap.kill();
    let _ = cap.wait();
    assert_exactly_once(&recs);
    let end = current_scn(&s.dir);
    assert_table_converges(&s.dir, &recs, "PDB1.HR.EMPLOYEES", end);
}

/// python-oracledb and node oracledb speak TLS to `emulator serve --tls-cert`: without the
/// wallet their certificate check refuses the test CA; with it, they connect, check the
/// certificate names the host, and read the table AS OF SCN as the dump has it.
#[test]
fn python_and_node_connect_over_tcps_with_the_wallets_ca() {
    let python = client("ORACLE_NET_TEST_PYTHON", "python-oracledb");
    let node = client("ORACLE_NET_TEST_NODE_PATH", "node oracledb");
    let s = serve_example_tls();
    if let Some(dir) = &node {
        let scn = current_scn(&s.dir);
        let run = |ca: Option<&Path>| {
            let mut cmd = Command::new("node");
            cmd.env("NODE_PATH", dir.join("node_modules"))
                .env_remove("NODE_EXTRA_CA_CERTS")
                .arg(script("emulator_node_tls.js"))
                .args([
                    s.url("PDB1").as_str(),
                    APP_USER,
                    APP_PASSWORD,
                    &scn.to_string(),
                ]);
            if let Some(ca) = ca {
                cmd.env("NODE_EXTRA_CA_CERTS", ca);
            }
            output(&mut cmd, "node oracledb over tcps")
        };
        let untrusted = run(None);
        let error = untrusted[0]["error"].as_str().unwrap_or_default();
        assert!(
            error.contains("certificate"),
            "without the CA: {untrusted:?}"
        );
        let lines = run(Some(&tls_wallet().join("ewallet.pem")));
        assert_eq!(lines[0]["database"], "DEMO", "{lines:?}");
        assert_eq!(
            lines[1]["ids"],
            dumped_ids(&s.dir, scn),
            "node: IDs AS OF SCN {scn}"
        );
    }
    let Some(py) = python else {
        return;
    };
    let scn = current_scn(&s.dir);
    let lines = output(
        &mut python_tls(&py, &s, &tls_wallet(), scn),
        "python-oracledb over tcps",
    );
    let untrusted = lines[0]["untrusted"].as_str().unwrap_or_default();
    assert!(
        untrusted.contains("CERTIFICATE_VERIFY_FAILED"),
        "without the wallet: {untrusted}"
    );
    assert_eq!(lines[1]["database"], "DEMO");
    let want = dumped_ids(&s.dir, scn);
    assert!(want.as_array().is_some_and(|a| !a.is_empty()));
    assert_eq!(lines[2]["ids"], want, "IDs AS OF SCN {scn}");
}

#[test]
fn jdbc_thin_connects_and_reads_as_of_scn() {
    let Some(jar) = client("ORACLE_NET_TEST_OJDBC", "JDBC thin (ojdbc11)") else {
        return;
    };
    let s = serve_example();
    let classes = tempfile::tempdir().unwrap();
    let javac = Command::new("javac")
        .args([
            "-cp",
            jar.to_str().unwrap(),
            "-d",
            classes.path().to_str().unwrap(),
        ])
        .arg(script("EmulatorJdbc.java"))
        .output()
        .expect("javac");
    assert!(
        javac.status.success(),
        "javac: {}",
        String::from_utf8_lossy(&javac.stderr)
    );
    let scn = current_scn(&s.dir);
    let cp = format!("{}:{}", jar.display(), classes.path().display());
    let lines = output(
        Command::new("java").args([
            "-cp",
            &cp,
            "EmulatorJdbc",
            &s.url("PDB1"),
            APP_USER,
            APP_PASSWORD,
            &scn.to_string(),
        ]),
        "JDBC thin",
    );
    let want = dump(&s.dir, "PDB1.HR.EMPLOYEES", scn);
    let sum: i64 = want.iter().map(|r| r["ID"].as_i64().unwrap()).sum();
    assert_eq!(lines[0]["database"], "DEMO");
    assert_eq!(
        lines[0]["rows"].as_u64(),
        Some(want.len() as u64),
        "{lines:?}"
    );
    assert_eq!(lines[0]["id_sum"].as_i64(), Some(sum), "{lines:?}");
}

/// Mutual TLS (`emulator serve --tls-client-ca`, Oracle's SSL_CLIENT_AUTHENTICATION=TRUE):
/// python-oracledb with a wallet holding the client's certificate and key connects and reads;
/// with the CA alone it is refused in the handshake.
#[test]
fn python_connects_with_a_client_certificate_where_the_listener_requires_one() {
    let Some(py) = client("ORACLE_NET_TEST_PYTHON", "python-oracledb") else {
        return;
    };
    let s = serve_example_mtls();
    let scn = current_scn(&s.dir);
    let lines = output(
        &mut python_tls(&py, &s, &tls_dir().join("mtls-wallet"), scn),
        "python-oracledb over mutual TLS",
    );
    assert_eq!(lines[1]["database"], "DEMO", "{lines:?}");
    assert_eq!(lines[2]["ids"], dumped_ids(&s.dir, scn));
    // The CA alone: no client certificate to present.
    let o = python_tls(&py, &s, &tls_wallet(), scn).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success(),
        "connected without a client certificate"
    );
    // Refused at the connection (TLS 1.3 finishes the client's side of the handshake before
    // the server checks for a certificate, so python sees the connection closed), not at the
    // login or for some other reason.
    assert!(
        err.contains("DPY-4011") || err.contains("DPY-6005"),
        "{err}"
    );
    assert!(!err.contains("ORA-01017"), "{err}");
}
