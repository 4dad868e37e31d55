//! The emulator as a database of another character set: WE8MSWIN1252 / WE8ISO8859P1 with
//! NLS_NCHAR_CHARACTERSET UTF8 or AL16UTF16. It reports the sets where Oracle does
//! (NLS_DATABASE_PARAMETERS, `USERENV('LANGUAGE')`), stores what the set holds ('¿' for the
//! rest), writes storage bytes and XML documents in the set, and SQL_REDO text as characters
//! (the client converts it) with national text as UNISTR; the decoder reads them back with the
//! sets the session reports.

use crate::charset::{Charset, Charsets};
use crate::source::emulator::testing::{mine, Db};
use crate::source::emulator::*;
use crate::source::*;
use crate::stream::parse::{parse_dml, parse_xml_write, to_value_in, XmlPiece};
use crate::types::Value;
use std::sync::Arc;

const WE8: &str = r#"
seed: 5
database:
  start_scn: 5000
  character_set: WE8MSWIN1252
  national_character_set: UTF8
tables:
  - name: HR.NOTES
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: TXT, type: VARCHAR2(3) }
      - { name: NTXT, type: NVARCHAR2(3) }
    primary_key: [ID]
  - name: HR.DOCS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: DOC, type: XMLTYPE }
    primary_key: [ID]
"#;

fn mismatch() -> Faults {
    let mut f = Faults::default();
    f.settings.dictionary_mismatch_tables = vec!["HR.NOTES".into()];
    f
}

fn text(s: &str) -> Value {
    Value::Text(s.into())
}

/// One row inserted into HR.NOTES (HR.DOCS with two values); the DML and XML rows mined with
/// `faults`, and the row as stored.
fn written(schema: &str, faults: Faults, row: Vec<Value>) -> (Vec<LogMinerRow>, Vec<Value>) {
    let db = Db::new(schema);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    let (table, name) = if row.len() == 2 {
        (1, "HR.DOCS")
    } else {
        (0, "HR.NOTES")
    };
    w.insert(x, table, row).unwrap();
    let c = w.commit(&[x]).unwrap();
    let conn =
        EmulatorConnector::open_with_clock(&db.path(), faults, Arc::new(db.clock.clone())).unwrap();
    let mut s = conn.connect().unwrap();
    let stored = crate::source::emulator::testing::read(&mut *s, name, c).unwrap()[0]
        .values
        .clone();
    let rows = mine(&mut *s, c - 4, c)
        .into_iter()
        .filter(|r| matches!(r.operation.as_str(), "INSERT" | "XML DOC WRITE"))
        .collect();
    (rows, stored)
}

#[test]
fn the_database_reports_its_character_sets() {
    let db = Db::new(WE8);
    let mut s = db.connector().connect().unwrap();
    let config = s.instance_config().unwrap();
    assert_eq!(config.character_set.as_deref(), Some("WE8MSWIN1252"));
    assert_eq!(config.national_character_set.as_deref(), Some("UTF8"));
    assert_eq!(
        config.charsets(),
        Charsets {
            database: Charset::We8MsWin1252,
            national: Charset::Utf8
        }
    );
    // The defaults: AL32UTF8 and AL16UTF16.
    let db = Db::new(crate::source::emulator::testing::EMP);
    let config = db.connector().connect().unwrap().instance_config().unwrap();
    assert_eq!(config.charsets(), Charsets::default());
}

#[test]
fn a_single_byte_database_stores_what_its_set_holds() {
    // 'Ā' is not in WE8MSWIN1252: '¿'. VARCHAR2(3) is three bytes: 'é€x' fits (e9 80 78).
    let (_, stored) = written(
        WE8,
        Faults::default(),
        vec![Value::Number("1".into()), text("éĀx"), text("éĀ😀")],
    );
    assert_eq!(stored[1], text("é¿x"));
    assert_eq!(stored[2], text("éĀ😀"));
    let db = Db::new(WE8);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    w.insert(
        x,
        0,
        vec![Value::Number("2".into()), text("é€x"), Value::Null],
    )
    .unwrap();
    let e = w
        .insert(
            x,
            0,
            vec![Value::Number("3".into()), text("é€xy"), Value::Null],
        )
        .unwrap_err();
    assert!(e.to_string().contains("ORA-12899"), "{e}");
}

#[test]
fn sql_redo_is_written_as_such_a_database_writes_it_and_decodes_back() {
    let row = vec![Value::Number("1".into()), text("é€"), text("é😀")];
    let charsets = Charsets {
        database: Charset::We8MsWin1252,
        national: Charset::Utf8,
    };
    // Named columns: text as characters, national text as UNISTR; the XML document's bytes in
    // WE8MSWIN1252 ('é' e9, '€' 80).
    let (rows, stored) = written(WE8, Faults::default(), row.clone());
    assert_eq!(stored, row);
    assert_eq!(
        rows[0].sql_redo,
        r#"insert into "HR"."NOTES"("ID","TXT","NTXT") values ('1','é€',UNISTR('\00E9\D83D\DE00'));"#
    );
    let (rows, stored) = written(
        WE8,
        Faults::default(),
        vec![Value::Number("1".into()), text("<a>é€</a>")],
    );
    assert_eq!(stored[1], text("<a>é€</a>"));
    let xml: Vec<&LogMinerRow> = rows
        .iter()
        .filter(|r| r.operation == "XML DOC WRITE")
        .collect();
    assert_eq!(
        xml[0].sql_redo,
        "XML_REDO := HEXTORAW('3c613ee9803c2f613e'):9"
    );
    let Ok(XmlPiece::Bytes(doc)) = parse_xml_write(&xml[0].sql_redo) else {
        panic!("{}", xml[0].sql_redo)
    };
    assert_eq!(Charset::We8MsWin1252.decode(&doc).unwrap(), "<a>é€</a>");
    // A dictionary mismatch: storage bytes, VARCHAR2 in WE8MSWIN1252, NVARCHAR2 in UTF8
    // (CESU-8: the emoji as two 3-byte surrogates).
    let (rows, _) = written(WE8, mismatch(), row.clone());
    let insert = &rows[0].sql_redo;
    assert!(
        insert.contains("HEXTORAW('e980'),HEXTORAW('c3a9eda0bdedb880')"),
        "{insert}"
    );
    // What capture's decoder makes of them with the sets the database reports.
    let dml = parse_dml(insert).unwrap();
    let types = [
        crate::types::ColumnType::varchar2(3),
        crate::types::ColumnType::Nvarchar2 { length: 3 },
    ];
    for (i, ty) in types.iter().enumerate() {
        let lit = &dml.new[i + 1].1;
        assert_eq!(to_value_in(lit, ty, charsets).unwrap(), row[i + 1]);
        // Read as an AL32UTF8 / AL16UTF16 database's bytes they are not this text (e9 80 is
        // no UTF-8 at all; the CESU-8 bytes are four other UTF-16 characters).
        assert_ne!(
            to_value_in(lit, ty, Charsets::default()).ok().as_ref(),
            Some(&row[i + 1])
        );
    }
}

#[test]
fn al16utf16_national_text_is_utf16_storage_bytes() {
    let schema = WE8.replace("WE8MSWIN1252", "WE8ISO8859P1").replace(
        "national_character_set: UTF8",
        "national_character_set: AL16UTF16",
    );
    let (rows, stored) = written(
        &schema,
        mismatch(),
        vec![Value::Number("1".into()), text("é€"), text("é")],
    );
    // '€' is not in ISO 8859-1: stored '¿' (bf).
    assert_eq!(stored[1], text("é¿"));
    assert!(
        rows[0]
            .sql_redo
            .contains("HEXTORAW('e9bf'),HEXTORAW('00e9')"),
        "{}",
        rows[0].sql_redo
    );
}

#[test]
fn the_schema_takes_only_oracles_combinations() {
    let bad = |from: &str, to: &str| {
        let text = WE8.replace(from, to);
        schema::SchemaFile::parse(std::path::Path::new("s.yaml"), &text)
            .unwrap_err()
            .to_string()
    };
    assert!(bad("character_set: WE8MSWIN1252", "character_set: AL16UTF16").contains("national"));
    assert!(bad(
        "national_character_set: UTF8",
        "national_character_set: WE8MSWIN1252"
    )
    .contains("AL16UTF16 and UTF8"));
    assert!(bad("character_set: WE8MSWIN1252", "character_set: JA16SJIS").contains("JA16SJIS"));
}

/// A table keyed by text: WE8MSWIN1252 orders '€' (0x80) and 'Ÿ' (0x9F) before 'é' (0xE9),
/// where UTF-8 has é (c3 a9) < Ÿ (c5 b8) < € (e2 82 ac).
const WE8_KEYS: &str = r#"
seed: 5
database:
  start_scn: 5000
  character_set: WE8MSWIN1252
tables:
  - name: HR.CODES
    columns:
      - { name: CODE, type: VARCHAR2(4), nullable: false }
    primary_key: [CODE]
"#;

/// National keys (AL16UTF16): a supplementary character (d83d de00) before U+FF01, which
/// UTF-8 (f0 9f 98 80 vs ef bc 81) puts the other way.
const NATIONAL_KEYS: &str = r#"
seed: 5
database:
  start_scn: 5000
tables:
  - name: HR.CODES
    columns:
      - { name: CODE, type: NVARCHAR2(4), nullable: false }
    primary_key: [CODE]
"#;

/// `keys` inserted; the keys as a read ordered by key returns them, and the boundary probes'
/// keys (every row).
fn ordered(schema: &str, keys: &[&str]) -> (Vec<String>, Vec<String>) {
    let db = Db::new(schema);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    for k in keys {
        w.insert(x, 0, vec![text(k)]).unwrap();
    }
    let c = w.commit(&[x]).unwrap();
    let mut s = db.connector().connect().unwrap();
    let read: Vec<String> = crate::source::emulator::testing::read(&mut *s, "HR.CODES", c)
        .unwrap()
        .into_iter()
        .map(|r| r.values[0].to_string())
        .collect();
    let q = cdc_core::model::BoundaryQuery {
        table: "HR.CODES".parse().unwrap(),
        key_columns: vec!["CODE".into()],
        scn: c,
        lower: Some(vec![text("a")]),
        step: 1,
        count: 10,
    };
    let probes = s
        .key_boundaries(&q)
        .unwrap()
        .into_iter()
        .map(|k| k[0].to_string())
        .collect();
    (read, probes)
}

#[test]
fn keys_order_as_the_bytes_of_their_character_set() {
    let (read, probes) = ordered(WE8_KEYS, &["é", "z", "€", "a", "Ÿ"]);
    assert_eq!(read, ["a", "z", "€", "Ÿ", "é"]);
    // Probes from 'a' on, every row: the keys after the first, in the same order.
    assert_eq!(probes, ["z", "€", "Ÿ", "é"]);
    let (read, _) = ordered(NATIONAL_KEYS, &["\u{FF01}", "😀", "a"]);
    assert_eq!(read, ["a", "😀", "\u{FF01}"]);
    // The default database set is AL32UTF8: UTF-8 byte order for VARCHAR2 keys.
    let (read, _) = ordered(
        &WE8_KEYS.replace("  character_set: WE8MSWIN1252\n", ""),
        &["é", "z", "€", "a", "Ÿ"],
    );
    assert_eq!(read, ["a", "z", "é", "Ÿ", "€"]);
}

#[test]
fn key_ranges_and_the_planners_split_use_that_order() {
    use crate::snapshot::plan::{Chunk, Planner};
    let db = Db::new(WE8_KEYS);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    for k in ["é", "z", "€", "a", "Ÿ", "b"] {
        w.insert(x, 0, vec![text(k)]).unwrap();
    }
    let c = w.commit(&[x]).unwrap();
    let mut s = db.connector().connect().unwrap();
    // A key range [z, é): z, €, Ÿ in WE8MSWIN1252 (in UTF-8 order it would be z alone).
    let info = s.tables().unwrap().remove(0);
    let q = FlashbackQuery {
        table: info.name.clone(),
        columns: vec!["CODE".into()],
        key_columns: vec!["CODE".into()],
        scn: c,
        range: cdc_core::model::ChunkRange::Key {
            lower: Some(vec![text("z")]),
            upper: Some(vec![text("é")]),
        },
        filter: None,
        row_ids: true,
    };
    let mut got = Vec::new();
    s.read_as_of(&q, &mut |r| {
        got.push(r.values[0].to_string());
        Ok(())
    })
    .unwrap();
    assert_eq!(got, ["z", "€", "Ÿ"]);
    // The ORA-01555 split of [z, é) after one row: [z, €) and [€, é), which takes '€' as
    // below 'é' (in UTF-8 order it is not, and the chunk would not split).
    let settings = crate::settings::Settings::from_pairs(&[format!(
        "cdc.database.url=emulator:{}",
        db.path().display()
    )])
    .unwrap();
    let t = match crate::snapshot::target::resolve(&settings, vec![info], &[])
        .unwrap()
        .remove(0)
    {
        crate::snapshot::target::Decision::Capture(t) => *t,
        d => panic!("{d:?}"),
    };
    let p = Planner::new(&t, 100, None, s.as_mut()).unwrap();
    let chunk = Chunk::Key {
        lower: Some(vec![text("z")]),
        upper: Some(vec![text("é")]),
    };
    let (a, b) = p.split(&chunk, 1, s.as_mut(), c).unwrap().expect("split");
    assert_eq!(
        (a, b),
        (
            Chunk::Key {
                lower: Some(vec![text("z")]),
                upper: Some(vec![text("€")]),
            },
            Chunk::Key {
                lower: Some(vec![text("€")]),
                upper: Some(vec![text("é")]),
            }
        )
    );
}
