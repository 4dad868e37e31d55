//! The emulator as a database of another character set: WE8MSWIN1252 / WE8ISO8859P1 with
//! NLS_NCHAR_CHARACTERSET UTF8 or AL16UTF16. It reports the sets where Oracle does
//! (NLS_DATABASE_PARAMETERS, `USERENV('LANGUAGE')`), stores what the set holds ('¿' for the
//! rest), writes storage bytes and XML documents in the set, and SQL_REDO text as characters
//! (the client converts it) with national text as UNISTR; the decoder reads them back with the
//! sets the session reports.

use super::tests::{mine, Db};
use super::*;
use crate::charset::{Charset, Charsets};
use crate::stream::parse::{parse_dml, parse_xml_write, to_value_in, XmlPiece};
use crate::types::Value;

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
    let stored = super::tests::read(&mut *s, name, c).unwrap()[0]
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
    let db = Db::new(super::tests::EMP);
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
