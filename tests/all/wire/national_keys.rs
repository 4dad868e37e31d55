//! Tables keyed by national text (NVARCHAR2, NCHAR) in a WE8MSWIN1252 database, chunked over
//! the wire. A text bind travels in the database character set, and Oracle converts the
//! characters that set lacks to '¿' before comparing: a chunk bound of 'Ā' bound as VARCHAR2
//! became '¿' and the chunk's range moved (rows read twice or never), or the probe never passed
//! its lower bound. The served emulator converts such binds as Oracle does; the adapter binds
//! national bounds as `UNISTR` of escaped ASCII, so the probes and chunks over the wire equal
//! the in-process answers row for row. Keys order as each set's bytes do, over the wire as
//! in-process: national text by UTF-16 code units, WE8MSWIN1252 text by its bytes.

use super::fixture::*;
use oracle_cdc::source::emulator::{self, clock, writer::Writer, EmulatorConnector, Faults};
use oracle_cdc::source::oracle::{connect::Password, OracleConnector};
use oracle_cdc::source::{BoundaryQuery, ChunkRange, FlashbackQuery, Session};
use oracle_cdc::types::Value;

const SCHEMA: &str = r#"
seed: 3
database:
  multitenant: false
  character_set: WE8MSWIN1252
tables:
  - name: APP.NKEY
    columns:
      - { name: NK, type: NVARCHAR2(4), nullable: false }
      - { name: V, type: NUMBER(10) }
    primary_key: [NK]
    rows: 0
  - name: APP.NCKEY
    columns:
      - { name: NK, type: NCHAR(3), nullable: false }
      - { name: ID, type: NUMBER(10), nullable: false }
    primary_key: [NK, ID]
    rows: 0
  - name: APP.VKEY
    columns:
      - { name: K, type: VARCHAR2(8), nullable: false }
    primary_key: [K]
    rows: 0
"#;

/// Characters on both sides of '¿' (U+00BF) and outside WE8MSWIN1252 (U+0100, the C1 controls
/// U+0081 and U+0090, CJK, a supplementary character, U+FF21 which AL16UTF16 orders after it),
/// some that the set holds ('é', '€', 'À'), '¿' itself, ASCII and the backslash UNISTR escapes.
const CHARS: &[&str] = &[
    "a", "z", "é", "€", "À", "¿", "Ā", "\u{81}", "\u{90}", "日", "😀", "Ａ", "\\",
];

/// Characters WE8MSWIN1252 holds, whose bytes order otherwise than their code points: '€' is
/// 0x80 and 'Ÿ' 0x9F, before 'é' (0xE9); 'Œ' 0x8C before 'À' 0xC0.
const SET_CHARS: &[&str] = &["a", "é", "€", "Ÿ", "Œ", "À", "¿", "\\"];

/// Distinct database-set keys of those characters.
fn set_keys() -> Vec<String> {
    let mut out = Vec::new();
    for a in SET_CHARS {
        for b in SET_CHARS {
            out.push(format!("{a}{b}x"));
        }
    }
    out
}

/// Distinct national keys made of the characters, in no particular order.
fn keys() -> Vec<String> {
    let mut out = Vec::new();
    for a in CHARS {
        for b in CHARS {
            out.push(format!("{a}{b}"));
        }
    }
    out
}

fn database(dir: &std::path::Path) -> std::path::PathBuf {
    let schema = dir.join("schema.yaml");
    std::fs::write(&schema, SCHEMA).unwrap();
    let db = dir.join("db");
    emulator::init(&db, &schema, Some(7), clock::system()).expect("emulator init");
    let mut w = Writer::open(&db, clock::system(), true).expect("writer");
    let xid = w.begin().unwrap();
    for (i, k) in keys().into_iter().enumerate() {
        let v = Value::Number((i as u64).to_string().into());
        w.insert(xid, 0, vec![Value::Text(k.clone().into()), v.clone()])
            .unwrap();
        // NCHAR(3): blank-padded to its length, as Oracle stores it.
        let padded = format!("{k:<3}");
        w.insert(xid, 1, vec![Value::Text(padded.into()), v])
            .unwrap();
    }
    for k in set_keys() {
        w.insert(xid, 2, vec![Value::Text(k.into())]).unwrap();
    }
    w.commit(&[xid]).unwrap();
    drop(w);
    db
}

fn read(s: &mut dyn Session, q: &FlashbackQuery) -> Vec<Vec<Value>> {
    let mut rows = Vec::new();
    s.read_as_of(q, &mut |r| {
        rows.push(r.values);
        Ok(())
    })
    .unwrap_or_else(|e| panic!("read of {}: {e}", q.table));
    rows
}

#[test]
fn national_keys_chunk_over_the_wire_as_in_process() {
    let tmp = tempfile::tempdir().unwrap();
    let db = database(tmp.path());
    let served = serve_dir(&db);
    let service = served.services[0].clone();
    let mut wire: Box<dyn Session> = Box::new(
        OracleConnector::new(
            &served.url(&service),
            Some("CDC"),
            Some(Password::new(PASSWORD)),
        )
        .expect("connector")
        .open()
        .expect("connect over Oracle Net"),
    );
    let mut local: Box<dyn Session> = Box::new(
        EmulatorConnector::open(&db, Faults::default())
            .expect("open emulator")
            .with_login(Some("CDC"), None)
            .emulator_session()
            .expect("in-process session"),
    );
    let scn = local.current_scn().unwrap();
    for (table, key, columns) in [
        ("APP.NKEY", vec!["NK"], vec!["NK", "V"]),
        ("APP.NCKEY", vec!["NK", "ID"], vec!["NK", "ID"]),
        ("APP.VKEY", vec!["K"], vec!["K"]),
    ] {
        let name: oracle_cdc::names::TableName = table.parse().unwrap();
        let key: Vec<String> = key.into_iter().map(String::from).collect();
        let columns: Vec<String> = columns.into_iter().map(String::from).collect();
        // Every 5th key, each probe from the last one, as the planner walks.
        let mut bounds: Vec<Vec<Value>> = Vec::new();
        loop {
            let q = BoundaryQuery {
                table: name.clone(),
                key_columns: key.clone(),
                scn,
                lower: bounds.last().cloned(),
                step: 5,
                count: 3,
            };
            let expected = local.key_boundaries(&q).unwrap();
            assert_eq!(
                wire.key_boundaries(&q).unwrap(),
                expected,
                "{table}: probe from {:?}",
                q.lower
            );
            if expected.is_empty() {
                break;
            }
            bounds.extend(expected);
        }
        assert!(bounds.len() > 10, "{table}: {} bounds", bounds.len());
        // The chunks between them: the same rows, and together every row once.
        let mut edges: Vec<Option<Vec<Value>>> = vec![None];
        edges.extend(bounds.into_iter().map(Some));
        edges.push(None);
        let mut total = 0;
        for pair in edges.windows(2) {
            let q = FlashbackQuery {
                table: name.clone(),
                columns: columns.clone(),
                key_columns: key.clone(),
                scn,
                range: ChunkRange::Key {
                    lower: pair[0].clone(),
                    upper: pair[1].clone(),
                },
                filter: None,
                row_ids: false,
            };
            let expected = read(local.as_mut(), &q);
            assert_eq!(read(wire.as_mut(), &q), expected, "{table}: chunk {pair:?}");
            total += expected.len();
        }
        let rows = if table == "APP.VKEY" {
            set_keys().len()
        } else {
            keys().len()
        };
        assert_eq!(total, rows, "{table}: every row in one chunk");
    }
}

/// python-oracledb, a client no one here wrote: a str bound as VARCHAR2 reaches a WE8MSWIN1252
/// database with the characters the set lacks as '¿' (one per character, a supplementary one
/// too), as Oracle converts a bind to the database character set, and so does a literal in the
/// statement's text, an N'' literal too; bound as NVARCHAR2, or as UNISTR of its escapes (how
/// the adapter binds national key bounds), every character arrives.
#[test]
fn python_oracledbs_text_binds_convert_to_the_database_character_set() {
    let Some(py) = super::clients::client("ORACLE_NET_TEST_PYTHON", "python-oracledb") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let db = database(tmp.path());
    let served = serve_dir(&db);
    let text = "é€Ā\u{81}😀\\a";
    let answers = super::clients::output(
        std::process::Command::new(py)
            .arg(super::clients::script("emulator_python_binds.py"))
            .args([
                served.url(&served.services[0]).as_str(),
                "CDC",
                PASSWORD,
                text,
            ]),
        "python-oracledb binds",
    );
    assert_eq!(
        answers,
        vec![serde_json::json!({
            "varchar": "é€¿¿¿\\a",
            "nvarchar": text,
            "unistr": text,
            "literal": "é€¿¿¿\\a",
            "nliteral": "é€¿¿¿\\a",
        })]
    );
}

/// From the CLI: `capture` over the wire of the WE8MSWIN1252 database in chunks of 7 rows, to
/// the current SCN, publishes every row of the three tables once and converges to `emulator
/// dump` (the snapshot's chunks are bounded by national keys bound as UNISTR, and by
/// WE8MSWIN1252 keys in that set's order).
#[test]
fn capture_over_the_wire_of_national_keys_converges() {
    use super::capture_support::*;
    let tmp = tempfile::tempdir().unwrap();
    let db = database(tmp.path());
    let serve = super::cli::Serve::start(&db, &[]);
    let service = "EMU";
    let out = tmp.path().join("out");
    let end = current_scn(&db);
    let o = std::process::Command::new(assert_cmd::cargo::cargo_bin("oracle-cdc"))
        .env("ORACLE_CDC_DATABASE_PASSWORD", PASSWORD)
        .args([
            "--set",
            &format!("cdc.database.url={}", serve.url(service)),
            "--set",
            "cdc.database.user=CDC",
            "--set",
            &format!("cdc.sink.dir={}", out.display()),
            "--set",
            &format!("cdc.state.dir={}", tmp.path().join("state").display()),
            "--set",
            "cdc.snapshot.chunk.rows=7",
            "--set",
            "cdc.stream.poll.ms=50",
            "-q",
            "capture",
            "--stop-at-scn",
            &end.to_string(),
        ])
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "capture: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let recs = records(&out);
    assert_exactly_once(&recs);
    for table in ["APP.NKEY", "APP.NCKEY", "APP.VKEY"] {
        assert_table_converges(&db, &recs, table, end);
    }
    let rows = recs.len();
    assert_eq!(rows, 2 * keys().len() + set_keys().len(), "records: {rows}");
}
