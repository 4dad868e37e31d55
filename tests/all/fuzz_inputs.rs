//! Bad input, fuzzed (proptest, a few hundred cases each, so it stays quick): the SQL_REDO
//! decoder, the settings loader and the offsets reader never panic, always finish, and reject
//! with a CDC-coded error. The README's reliability section lists what was tried.

use oracle_cdc::names::TableName;
use oracle_cdc::offsets::Offsets;
use oracle_cdc::settings::{LoadOptions, Settings};
use oracle_cdc::source::model::{op, ColumnInfo, LogMinerRow};
use oracle_cdc::stream::buffer::{Committed, TxRows};
use oracle_cdc::stream::decode::{decode, Catalog, TableSchema};
use oracle_cdc::types::ColumnType;
use proptest::prelude::*;
use std::path::Path;

/// Mutations that keep inputs close to valid ones, where parsers hide their bugs.
#[derive(Debug, Clone)]
enum Mutation {
    Cut(usize),
    Delete(usize, usize),
    Insert(usize, String),
    Duplicate(usize, usize),
    Flip(usize, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let special = prop::sample::select(vec![
        "'",
        "''",
        "\"",
        "(",
        ")",
        ",",
        ";",
        "=",
        " ",
        "\\",
        "\n",
        "\u{0}",
        "é",
        "😀",
        "NULL",
        "IS",
        "TO_DATE(",
        "HEXTORAW(",
        "UNISTR(",
        "'9999999999999999999999'",
        "-",
        ".",
        "E",
        "{",
        "}",
        "[",
        "]",
        ":",
        "1e999",
        "-1",
        "18446744073709551616",
        "true",
    ])
    .prop_map(str::to_string);
    prop_oneof![
        any::<usize>().prop_map(Mutation::Cut),
        (any::<usize>(), 1..8usize).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (any::<usize>(), special).prop_map(|(a, s)| Mutation::Insert(a, s)),
        (any::<usize>(), 1..16usize).prop_map(|(a, n)| Mutation::Duplicate(a, n)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::Flip(a, b)),
    ]
}

/// Apply mutations on bytes, keeping valid UTF-8 (lossily) as the sources deliver text.
fn mutate(text: &str, ms: &[Mutation]) -> String {
    let mut b = text.as_bytes().to_vec();
    for m in ms {
        let len = b.len().max(1);
        match m {
            Mutation::Cut(a) => b.truncate(a % len),
            Mutation::Delete(a, n) => {
                let a = a % len;
                let end = (a + n).min(b.len());
                if a < end {
                    b.drain(a..end);
                }
            }
            Mutation::Insert(a, s) => {
                let a = a % (b.len() + 1);
                b.splice(a..a, s.bytes());
            }
            Mutation::Duplicate(a, n) => {
                let a = a % len;
                let end = (a + n).min(b.len());
                if a < end {
                    let piece = b[a..end].to_vec();
                    b.splice(end..end, piece);
                }
            }
            Mutation::Flip(a, x) => {
                if !b.is_empty() {
                    let a = a % b.len();
                    b[a] ^= x | 1;
                }
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn col(name: &str, data_type: ColumnType) -> ColumnInfo {
    ColumnInfo {
        name: name.into(),
        data_type,
        nullable: true,
        virtual_column: false,
        hidden: false,
    }
}

fn catalog() -> Catalog {
    let name = TableName::new(None, "O", "T");
    let cols = vec![
        col(
            "ID",
            ColumnType::Number {
                precision: Some(10),
                scale: Some(0),
            },
        ),
        col("NAME", ColumnType::varchar2(30)),
        col("AT", ColumnType::Date),
        col("BIN", ColumnType::Raw { length: 16 }),
        col("C", ColumnType::Clob),
    ];
    let mut c = Catalog::default();
    c.tables.insert(
        name.clone(),
        TableSchema {
            name,
            history: vec![(0, cols)],
            key: vec!["ID".into()],
            excluded: vec![],
        },
    );
    c
}

fn row(code: u32, scn: u64, sql: &str) -> LogMinerRow {
    LogMinerRow {
        scn,
        commit_scn: None,
        start_scn: None,
        timestamp: String::new(),
        commit_timestamp: None,
        xid: "0200030004000000".into(),
        xidusn: 2,
        xidslt: 3,
        xidsqn: 4,
        operation_code: code,
        operation: op::name(code).into(),
        seg_owner: Some("O".into()),
        table_name: Some("T".into()),
        row_id: "AAAR0sAAFAAAACIAAA".into(),
        sql_redo: sql.into(),
        csf: 0,
        rollback: 0,
        rs_id: " 0x000001.00000002.0010 ".into(),
        ssn: 0,
        thread: 1,
        sequence: 1,
        status: 0,
        info: None,
        src_con_name: String::new(),
        username: String::new(),
        data_obj: 0,
    }
}

/// SQL_REDO as LogMiner writes it (oracle-facts §6), one of each statement shape; in this order
/// a valid transaction (the LOB_WRITE of the INSERT's row follows it: a locator alone would be
/// an UPDATE whose other columns the key-only WHERE lacks, CDC-3201).
const STATEMENTS: &[(u32, &str)] = &[
    (op::INSERT, "insert into \"O\".\"T\"(\"ID\",\"NAME\",\"AT\",\"BIN\",\"C\") values ('1','it''s',TO_DATE('2024-01-31 10:00:00', 'YYYY-MM-DD HH24:MI:SS'),HEXTORAW('0aff'),EMPTY_CLOB());"),
    (op::LOB_WRITE, "DECLARE \n loc_c CLOB; \nBEGIN\n select \"C\" into loc_c from \"O\".\"T\" where \"ID\" = '1' and ROWID = 'AAAR0sAAFAAAACIAAA' for update;\n dbms_lob.write(loc_c, 5, 1, 'Test2');\nEND;"),
    (op::UPDATE, "update \"O\".\"T\" set \"NAME\" = UNISTR('\\00e9t\\00e9'), \"AT\" = NULL where \"ID\" = '1' and \"NAME\" = 'it''s' and \"AT\" = TO_DATE('2024-01-31 10:00:00', 'YYYY-MM-DD HH24:MI:SS') and \"BIN\" = HEXTORAW('0aff') and ROWID = 'AAAR0sAAFAAAACIAAA';"),
    (op::DELETE, "delete from \"O\".\"T\" where \"ID\" = '1' and \"NAME\" IS NULL and \"BIN\" = HEXTORAW('0aff') and ROWID = 'AAAR0sAAFAAAACIAAA';"),
    (op::DDL, "ALTER TABLE \"O\".\"T\" ADD (\"EXTRA\" VARCHAR2(10))"),
];

const SETTINGS: &str = "cdc:\n  database.url: emulator:/tmp/db\n  snapshot:\n    mode: initial\n    chunk.rows: 1000\n    threads: 4\n  tables.include: [\"SALES.*\", \"HR.EMP\"]\n  sink.type: file\n  stream.window.scn: 500\n  key.SALES.ORDERS: ID\n  emulator.fault.ora01555.reads: [1, 5]\n";

const OFFSETS: &str = r#"{"format": 1, "database": {"dbid": 1234567890, "incarnation": 1000000, "name": "EMU"},
 "snapshot": {"order": ["SHOP.ACCOUNTS"], "tables": {"SHOP.ACCOUNTS": {"state": "in_progress", "strategy": "key",
   "next": {"key": [{"t": "number", "v": "17"}]}, "chunks": 2, "rows": 60, "chunk_scns": [1000110, 1000112]}},
   "records": 60, "completed": false, "skipped": [{"table": "SHOP.X", "reason": "no key"}]},
 "stream": {"resume_scn": 1000133, "commit_scn": 1000132, "commit_xids": ["05000c000e000000"], "threads": {"1": 1000129}},
 "sink": {"segment": "segment-000001.jsonl", "bytes": 77197, "records": 133}}"#;

fn cases() -> u32 {
    std::env::var("CDC_FUZZ_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(300)
}

/// The error's message starts with its code, in the range `range` (e.g. `CDC-3`).
fn cdc_coded(e: &oracle_cdc::errors::CdcError, range: &str) -> Result<(), TestCaseError> {
    let code = e.code().info().code;
    prop_assert!(e.to_string().starts_with(code), "{e}");
    prop_assert!(code.starts_with(range), "{code} is outside {range}xxx: {e}");
    Ok(())
}

proptest! {
    // CDC_FUZZ_CASES=20000 for a longer run.
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    /// A transaction whose SQL_REDO is damaged decodes to changes or CDC-coded errors.
    #[test]
    fn damaged_sql_redo_decodes_or_fails_with_a_code(
        picks in prop::collection::vec((0..STATEMENTS.len(), prop::collection::vec(mutation(), 0..4)), 1..5)
    ) {
        let rows: Vec<LogMinerRow> = picks
            .iter()
            .enumerate()
            .map(|(i, (k, ms))| {
                let (code, sql) = STATEMENTS[*k];
                row(code, 10 + i as u64, &mutate(sql, ms))
            })
            .collect();
        let mut tx = Committed::for_tests("0200030004000000", 10, 20, 1, "");
        tx.rows = TxRows::from_vec(rows);
        for event in decode(&mut tx, &catalog()) {
            if let Err(e) = event {
                cdc_coded(&e, "CDC-3")?;
            }
        }
    }

    /// A damaged settings file loads or fails with a CDC code.
    #[test]
    fn damaged_settings_load_or_fail_with_a_code(ms in prop::collection::vec(mutation(), 1..5)) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cdc.yaml");
        std::fs::write(&path, mutate(SETTINGS, &ms)).unwrap();
        if let Err(e) = Settings::load(&LoadOptions { config: Some(path), ..LoadOptions::default() }) {
            cdc_coded(&e, "CDC-1")?;
        }
    }

    /// Arbitrary --set pairs and ORACLE_CDC_* variables load or fail with a CDC code.
    #[test]
    fn arbitrary_overrides_load_or_fail_with_a_code(
        sets in prop::collection::vec("cdc\\.[a-z.]{0,30}(=[ -~]{0,20})?|[ -~]{0,30}", 0..4),
        env in prop::collection::vec(("ORACLE_CDC_[A-Z_]{0,24}", "[ -~]{0,20}"), 0..3),
    ) {
        if let Err(e) = Settings::load(&LoadOptions { config: None, sets, env, strict: true }) {
            cdc_coded(&e, "CDC-1")?;
        }
    }

    /// Damaged offsets parse or fail with a CDC code (CDC-7xxx), naming the file.
    #[test]
    fn damaged_offsets_parse_or_fail_with_a_code(ms in prop::collection::vec(mutation(), 1..5)) {
        let text = mutate(OFFSETS, &ms);
        let path = Path::new("/state/offsets.json");
        match Offsets::parse(path, &text) {
            Ok((o, _)) => {
                // What parses writes back and parses again to the same offsets.
                let again = String::from_utf8(o.to_bytes().unwrap()).unwrap();
                prop_assert_eq!(Offsets::parse(path, &again).unwrap().0, o);
            }
            Err(e) => {
                cdc_coded(&e, "CDC-700")?;
                prop_assert!(e.to_string().contains("/state/offsets.json"), "{}", e);
            }
        }
    }
}

#[test]
fn the_seed_inputs_are_valid() {
    let mut tx = Committed::for_tests("0200030004000000", 10, 20, 1, "");
    tx.rows = TxRows::from_vec(
        STATEMENTS
            .iter()
            .enumerate()
            .map(|(i, (c, s))| row(*c, 10 + i as u64, s))
            .collect(),
    );
    for e in decode(&mut tx, &catalog()) {
        e.unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cdc.yaml");
    std::fs::write(&path, SETTINGS).unwrap();
    Settings::load(&LoadOptions {
        config: Some(path),
        ..LoadOptions::default()
    })
    .unwrap();
    Offsets::parse(Path::new("offsets.json"), OFFSETS).unwrap();
}
