use super::*;
use std::io::Write;

fn file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".yaml").tempfile().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

fn load(
    config: Option<&tempfile::NamedTempFile>,
    env: &[(&str, &str)],
    sets: &[&str],
) -> Result<Settings> {
    Settings::load(&LoadOptions {
        config: config.map(|f| f.path().to_path_buf()),
        sets: sets.iter().map(|s| s.to_string()).collect(),
        env: env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        strict: false,
    })
}

fn err(r: Result<Settings>) -> (Code, String) {
    let e = r.unwrap_err();
    (e.code(), e.to_string())
}

#[test]
fn defaults_match_the_spec() {
    let s = load(None, &[], &[]).unwrap();
    assert_eq!(s.snapshot.mode, SnapshotMode::Initial);
    assert_eq!(s.snapshot.chunk_rows, 100_000);
    assert_eq!(s.key_missing, KeyMissing::Rowid);
    assert_eq!(s.on_decode_error, OnDecodeError::Fail);
    assert!(s.database_password().is_none());
}

#[test]
fn layers_override_file_then_env_then_set() {
    let f = file(
        "cdc.snapshot.threads: 2\ncdc.snapshot.chunk.rows: 500\ncdc.snapshot.chunk.retries: 7\n",
    );
    let s = load(
        Some(&f),
        &[
            ("ORACLE_CDC_SNAPSHOT_CHUNK_ROWS", "600"),
            ("ORACLE_CDC_SNAPSHOT_THREADS", "3"),
        ],
        &["cdc.snapshot.threads=9"],
    )
    .unwrap();
    assert_eq!(s.snapshot.chunk_retries, 7);
    assert_eq!(s.snapshot.chunk_rows, 600);
    assert_eq!(s.snapshot.threads, 9);
    let eff = s.effective();
    let threads = eff.iter().find(|(k, _, _)| k == keys::THREADS).unwrap();
    assert_eq!((threads.1.as_str(), threads.2.as_str()), ("9", "--set"));
    let rows = eff.iter().find(|(k, _, _)| k == keys::CHUNK_ROWS).unwrap();
    assert_eq!(rows.2, "env ORACLE_CDC_SNAPSHOT_CHUNK_ROWS");
}

#[test]
fn nested_maps_are_flattened_and_per_table_keys_parse() {
    let f = file(
        "cdc:\n  snapshot:\n    mode: snapshot_only\n    select.override:\n      PDB1.HR.EMP: \"region = 'EMEA'\"\n  key:\n    HR.DEPT: [DEPT_NO, \"Loc\"]\n  tables:\n    include: [\"PDB1.HR.*\"]\n",
    );
    let s = load(Some(&f), &[], &[]).unwrap();
    assert_eq!(s.snapshot.mode, SnapshotMode::SnapshotOnly);
    let emp: TableName = "PDB1.HR.EMP".parse().unwrap();
    assert_eq!(
        s.snapshot.select_overrides.get(&emp).unwrap(),
        "region = 'EMEA'"
    );
    let dept: TableName = "HR.DEPT".parse().unwrap();
    assert_eq!(
        s.keys.get(&dept).unwrap(),
        &vec!["DEPT_NO".to_string(), "LOC".to_string()]
    );
    assert!(s.is_captured(&emp));
    assert!(!s.is_captured(&"PDB2.HR.EMP".parse().unwrap()));
    // A materialized view log never is, even where a pattern matches it.
    assert!(!s.is_captured(&"PDB1.HR.MLOG$_EMP".parse().unwrap()));
}

#[test]
fn unknown_key_names_the_key_and_suggests() {
    let f = file("cdc.snapshot.chunk.row: 10\n");
    let (code, msg) = err(load(Some(&f), &[], &[]));
    assert_eq!(code, Code::Cdc1001);
    assert!(msg.starts_with("CDC-1001"), "{msg}");
    assert!(msg.contains("`cdc.snapshot.chunk.row`"), "{msg}");
    assert!(
        msg.contains("did you mean `cdc.snapshot.chunk.rows`"),
        "{msg}"
    );
    let (code, msg) = err(load(None, &[], &["cdc.snapshot.treads=3"]));
    assert_eq!(code, Code::Cdc1001);
    assert!(msg.contains("cdc.snapshot.threads"), "{msg}");
}

#[test]
fn unknown_environment_variable_is_named() {
    let strict = |env: &[(&str, &str)]| {
        Settings::load(&LoadOptions {
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            strict: true,
            ..LoadOptions::default()
        })
    };
    let (code, msg) = err(strict(&[("ORACLE_CDC_SNAPSHOT_THREDS", "2")]));
    assert_eq!(code, Code::Cdc1001);
    assert!(msg.contains("ORACLE_CDC_SNAPSHOT_THREDS"), "{msg}");
    assert!(msg.contains("ORACLE_CDC_SNAPSHOT_THREADS"), "{msg}");
    // Test-suite variables share the prefix but are not settings.
    assert!(strict(&[("ORACLE_CDC_TEST_URL", "x")]).is_ok());
}

#[test]
fn an_unknown_environment_variable_is_a_warning_naming_it_unless_strict() {
    // Issue 37: a secret kept as ORACLE_CDC_PW made every command exit 2.
    let options = LoadOptions {
        env: vec![
            ("ORACLE_CDC_PW".into(), "s3cret-value-91".into()),
            ("ORACLE_CDC_SNAPSHOT_THREADS".into(), "3".into()),
        ],
        ..LoadOptions::default()
    };
    let (s, warnings) = Settings::load_with_warnings(&options).unwrap();
    assert_eq!(s.snapshot.threads, 3, "the known variable still counts");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("ORACLE_CDC_PW"), "{warnings:?}");
    assert!(!warnings[0].contains("s3cret-value-91"), "{warnings:?}");
    // The shared prefix alone is no likeness: no setting is guessed for it.
    assert!(!warnings[0].contains("did you mean"), "{warnings:?}");
    let (code, msg) = err(Settings::load(&LoadOptions {
        strict: true,
        ..options
    }));
    assert_eq!(code, Code::Cdc1001);
    assert!(msg.contains("ORACLE_CDC_PW"), "{msg}");
    assert!(!msg.contains("s3cret-value-91"), "{msg}");
    // A typo in a settings file stays an error without --strict.
    let f = file("cdc.snapshot.thredz: 2\n");
    let (code, _) = err(load(Some(&f), &[], &[]));
    assert_eq!(code, Code::Cdc1001);
}

#[test]
fn wrong_values_name_key_value_and_allowed() {
    let (code, msg) = err(load(None, &[], &["cdc.snapshot.mode=sometimes"]));
    assert_eq!(code, Code::Cdc1002);
    for part in [
        "cdc.snapshot.mode",
        "sometimes",
        "initial, none, snapshot_only, on_signal",
    ] {
        assert!(msg.contains(part), "{msg} lacks {part}");
    }
    let f = file("cdc.snapshot.threads: many\n");
    let (code, msg) = err(load(Some(&f), &[], &[]));
    assert_eq!(code, Code::Cdc1002);
    assert!(
        msg.contains("cdc.snapshot.threads") && msg.contains("many") && msg.contains("1 to 256"),
        "{msg}"
    );
    let (code, msg) = err(load(None, &[], &["cdc.snapshot.chunk.rows=0"]));
    assert_eq!(code, Code::Cdc1002);
    assert!(msg.contains("`0`"), "{msg}");
    let (code, _) = err(load(
        None,
        &[],
        &["cdc.snapshot.select.override.HR.EMP=a = 1; drop table x"],
    ));
    assert_eq!(code, Code::Cdc1002);
    let (code, msg) = err(load(None, &[], &["cdc.tables.include=EMP"]));
    assert_eq!(code, Code::Cdc1002);
    assert!(msg.contains("cdc.tables.include"), "{msg}");
    for bad in ["9464", "localhost", ":9464", "127.0.0.1:99999"] {
        let (code, msg) = err(load(None, &[], &[&format!("cdc.metrics.listen={bad}")]));
        assert_eq!(code, Code::Cdc1002);
        assert!(
            msg.contains("cdc.metrics.listen") && msg.contains("HOST:PORT"),
            "{msg}"
        );
    }
    let ok = load(None, &[], &["cdc.metrics.listen=[::1]:9464"]).unwrap();
    assert_eq!(ok.stream.metrics_listen.as_deref(), Some("[::1]:9464"));
}

#[test]
fn yaml_syntax_error_gives_file_line_and_column() {
    let f = file("cdc.snapshot.threads: 2\ncdc.snapshot.mode: [initial\n");
    let (code, msg) = err(load(Some(&f), &[], &[]));
    assert_eq!(code, Code::Cdc1003);
    let name = f.path().display().to_string();
    assert!(
        msg.contains(&format!("{name}:3:")) || msg.contains(&format!("{name}:2:")),
        "{msg}"
    );
}

#[test]
fn missing_file_and_bad_set_syntax() {
    let (code, msg) = err(Settings::load(&LoadOptions {
        config: Some("/nonexistent/settings.yaml".into()),
        ..Default::default()
    }));
    assert_eq!(code, Code::Cdc1004);
    assert!(msg.contains("/nonexistent/settings.yaml"), "{msg}");
    let (code, _) = err(load(None, &[], &["cdc.snapshot.threads"]));
    assert_eq!(code, Code::Cdc1006);
}

#[test]
fn secrets_resolve_and_are_never_printed() {
    let secret_file = file("s3cr3t-from-file\n");
    let s = load(
        None,
        &[],
        &[&format!(
            "cdc.database.password=${{file:{}}}",
            secret_file.path().display()
        )],
    )
    .unwrap();
    assert_eq!(s.database_password().unwrap().expose(), "s3cr3t-from-file");
    let printed = format!("{:?} {:?}", s, s.effective());
    assert!(!printed.contains("s3cr3t"), "{printed}");
    assert!(printed.contains("<redacted>"));
    // A password given as literal text is not in the settings' Debug either.
    let s = load(
        None,
        &[],
        &[
            "cdc.database.password=literal-pw-9131",
            "cdc.mining.database.password=literal-mining-pw-9131",
        ],
    )
    .unwrap();
    assert_eq!(s.database_password().unwrap().expose(), "literal-pw-9131");
    let printed = format!("{s:?} {:?}", s.effective());
    assert!(!printed.contains("literal"), "{printed}");

    let (code, msg) = err(load(
        None,
        &[],
        &["cdc.database.password=${env:ORACLE_CDC_NO_SUCH_VAR_4821}"],
    ));
    assert_eq!(code, Code::Cdc1005);
    assert!(msg.contains("ORACLE_CDC_NO_SUCH_VAR_4821"), "{msg}");
    let (code, _) = err(load(None, &[], &["cdc.database.password=${vault:x}"]));
    assert_eq!(code, Code::Cdc1005);
}

#[test]
fn column_excludes_and_fault_lists_parse() {
    let s = load(
        None,
        &[],
        &[
            "cdc.columns.exclude=PDB1.HR.EMP.SALARY, HR.EMP.SSN",
            "cdc.emulator.fault.ora01555.reads=2,5",
        ],
    )
    .unwrap();
    assert_eq!(s.columns_exclude.len(), 2);
    assert_eq!(s.columns_exclude[0].column, "SALARY");
    assert_eq!(s.columns_exclude[1].table.to_string(), "HR.EMP");
    assert_eq!(s.faults.ora01555_reads, vec![2, 5]);
    let (code, msg) = err(load(None, &[], &["cdc.columns.exclude=EMP.SALARY"]));
    assert_eq!(code, Code::Cdc1002);
    assert!(msg.contains("EMP.SALARY"), "{msg}");
}

#[test]
fn a_variable_named_by_a_secret_reference_is_not_a_setting() {
    std::env::set_var("ORACLE_CDC_PASSWORD", "from-env-7");
    let s = load(
        None,
        &[("ORACLE_CDC_PASSWORD", "from-env-7")],
        &["cdc.database.password=${env:ORACLE_CDC_PASSWORD}"],
    )
    .unwrap();
    assert_eq!(s.database_password().unwrap().expose(), "from-env-7");
    // Without the reference it names no setting again: refused with --strict, else warned about.
    let options = LoadOptions {
        env: vec![("ORACLE_CDC_PASSWORD".into(), "x".into())],
        ..LoadOptions::default()
    };
    let (_, warnings) = Settings::load_with_warnings(&options).unwrap();
    assert!(warnings.iter().any(|w| w.contains("ORACLE_CDC_PASSWORD")));
    assert_eq!(
        err(Settings::load(&LoadOptions {
            strict: true,
            ..options
        }))
        .0,
        Code::Cdc1001
    );
}

#[test]
fn the_mining_connection_has_its_own_keys_and_falls_back_to_the_source_user() {
    let s = load(
        None,
        &[],
        &["cdc.database.user=c##cdc", "cdc.database.password=src-pw-1"],
    )
    .unwrap();
    assert!(s.mining_url().is_none(), "unset: mining runs on the source");
    let s = load(
        None,
        &[],
        &[
            "cdc.database.user=c##cdc",
            "cdc.database.password=src-pw-1",
            "cdc.mining.database.url= down:1521/DS ",
        ],
    )
    .unwrap();
    assert_eq!(s.mining_url(), Some("down:1521/DS"));
    assert_eq!(s.mining_user(), Some("c##cdc"));
    assert_eq!(s.mining_password().unwrap().expose(), "src-pw-1");
    let pw = file("mine-pw-2\n");
    let s = load(
        None,
        &[],
        &[
            "cdc.database.password=src-pw-1",
            "cdc.mining.database.url=down:1521/DS",
            "cdc.mining.database.user=miner",
            &format!(
                "cdc.mining.database.password=${{file:{}}}",
                pw.path().display()
            ),
        ],
    )
    .unwrap();
    assert_eq!(s.mining_user(), Some("miner"));
    assert_eq!(s.mining_password().unwrap().expose(), "mine-pw-2");
    let printed = format!("{:?} {:?}", s.mining_password(), s.effective());
    assert!(
        !printed.contains("mine-pw") && !printed.contains("src-pw"),
        "{printed}"
    );
    let (code, _) = err(load(
        None,
        &[],
        &["cdc.mining.database.password=${env:ORACLE_CDC_NO_SUCH_VAR_9902}"],
    ));
    assert_eq!(code, Code::Cdc1005);
}

#[test]
fn a_mining_url_must_name_another_database() {
    let refused = |pairs: &[&str]| {
        let s = load(None, &[], pairs).unwrap();
        match crate::source::open(&s) {
            Err(e) => e.code(),
            Ok(_) => panic!("{pairs:?} was accepted"),
        }
    };
    assert_eq!(
        refused(&[
            "cdc.database.url=db:1521/X",
            "cdc.mining.database.url=db:1521/X"
        ]),
        Code::Cdc2201
    );
    assert_eq!(
        refused(&[
            "cdc.database.url=db:1521/X",
            "cdc.mining.database.url=replay:./x"
        ]),
        Code::Cdc2201
    );
}

#[test]
fn the_database_driver_is_thin_unless_thick_is_asked_for() {
    let s = load(None, &[], &[]).unwrap();
    assert_eq!(s.database_driver, DatabaseDriver::Thin);
    assert_eq!(s.database_driver.name(), "thin");
    let s = load(None, &[], &["cdc.database.driver=thick"]).unwrap();
    assert_eq!(s.database_driver, DatabaseDriver::Thick);
    let s = load(None, &[("ORACLE_CDC_DATABASE_DRIVER", "thick")], &[]).unwrap();
    assert_eq!(s.database_driver, DatabaseDriver::Thick);
    let f = file("cdc:\n  database:\n    driver: thin\n");
    assert_eq!(
        load(Some(&f), &[], &[]).unwrap().database_driver,
        DatabaseDriver::Thin
    );
    let (code, msg) = err(load(None, &[], &["cdc.database.driver=oci"]));
    assert_eq!(code, Code::Cdc1002);
    for part in ["cdc.database.driver", "oci", "thin, thick"] {
        assert!(msg.contains(part), "{msg} lacks {part}");
    }
}

/// Kafka broker items with credentials pasted in: what precedes the `@` is hidden, the
/// address kept (so a message still says which broker).
#[test]
fn broker_credentials_are_redacted() {
    assert_eq!(
        redact_broker("user:hunter2@kafka:9092"),
        "user:<redacted>@kafka:9092"
    );
    assert_eq!(redact_broker("hunter2@kafka:9092"), "<redacted>@kafka:9092");
    assert_eq!(redact_broker("kafka:9092"), "kafka:9092");
    let s = load(
        None,
        &[],
        &["cdc.sink.kafka.brokers=a:9092,user:hunter2@b:9092"],
    )
    .unwrap();
    let printed = format!("{:?}", s.effective());
    assert!(!printed.contains("hunter2"), "{printed}");
    assert!(printed.contains("user:<redacted>@b:9092"), "{printed}");
}

/// A secret on the command line draws a warning naming its key and the `${env:…}` /
/// `${file:…}` forms, never the secret; a reference draws none.
#[test]
fn secrets_on_the_command_line_are_warned_about_without_the_secret() {
    let sets = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let w = secrets_on_command_line(&sets(&[
        "cdc.database.password=hunter2",
        "cdc.mining.database.password = hunter3",
        "cdc.database.url=scott/hunter4@db:1521/ORCL",
        "cdc.mining.database.url=oracle://c:hunter5@mine:1521/M",
        "cdc.sink.kafka.brokers=u:hunter6@k:9092",
    ]));
    assert_eq!(w.len(), 5, "{w:#?}");
    for (warning, key) in w.iter().zip([
        "cdc.database.password",
        "cdc.mining.database.password",
        "cdc.database.url",
        "cdc.mining.database.url",
        "cdc.sink.kafka.brokers",
    ]) {
        assert!(warning.starts_with(key), "{warning}");
        assert!(!warning.contains("hunter"), "{warning}");
    }
    assert!(w[0].contains("${env:NAME}") && w[0].contains("${file:PATH}"));
    assert!(w[2].contains("cdc.database.password"), "{}", w[2]);
    let none = secrets_on_command_line(&sets(&[
        "cdc.database.password=${env:PW}",
        "cdc.mining.database.password=${file:/run/pw}",
        "cdc.database.url=db:1521/ORCL",
        "cdc.database.url=scott@db:1521/ORCL",
        "cdc.sink.kafka.brokers=k:9092",
        "cdc.snapshot.threads=4",
    ]));
    assert!(none.is_empty(), "{none:#?}");
}
