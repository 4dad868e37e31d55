//! A CDB whose PDBs differ in database character set: an AL32UTF8 CDB holding a WE8MSWIN1252
//! PDB (from 12.2 an AL32UTF8 CDB takes a PDB of any set; ORA-65116 otherwise, and the
//! national set is always the CDB's, ORA-65119). NLS_DATABASE_PARAMETERS and USERENV answer
//! the container's set; the PDB's tables store, write as bytes and order keys in the PDB's.

use crate::charset::{Charset, Charsets};
use crate::source::container::{ContainerConnector, WantedPdbs};
use crate::source::emulator::testing::{mine, Db};
use crate::source::emulator::*;
use crate::source::*;
use crate::types::Value;
use std::sync::Arc;

const CDB: &str = r#"
seed: 5
database:
  start_scn: 5000
  multitenant: true
  pdbs:
    - { name: PDB2, character_set: WE8MSWIN1252 }
tables:
  - name: PDB1.HR.NOTES
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: TXT, type: VARCHAR2(7) }
    primary_key: [ID]
  - name: PDB2.HR.NOTES
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: TXT, type: VARCHAR2(7) }
    primary_key: [ID]
  - name: PDB2.HR.CODES
    columns:
      - { name: CODE, type: VARCHAR2(4), nullable: false }
    primary_key: [CODE]
"#;

const WE8: Charsets = Charsets {
    database: Charset::We8MsWin1252,
    national: Charset::Al16Utf16,
};

fn text(s: &str) -> Value {
    Value::Text(s.into())
}

fn root_mode(db: &Db, faults: Faults) -> Box<dyn Session> {
    let raw =
        EmulatorConnector::open_with_clock(&db.path(), faults, Arc::new(db.clock.clone())).unwrap();
    ContainerConnector::new(Box::new(raw), WantedPdbs::every())
        .connect()
        .unwrap()
}

#[test]
fn a_pdb_takes_its_own_database_character_set_only_as_oracle_plugs_it_in() {
    let parse = |text: &str| schema::SchemaFile::parse(std::path::Path::new("s.yaml"), text);
    assert!(parse(CDB).is_ok());
    // A CDB of another set holds only PDBs of its own set: ORA-65116.
    let e = parse(&CDB.replace(
        "  multitenant: true\n",
        "  multitenant: true\n  character_set: WE8ISO8859P1\n",
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("ORA-65116") && e.contains("PDB2"), "{e}");
    // …but one of the same set is fine.
    assert!(parse(&CDB.replace(
        "  multitenant: true\n",
        "  multitenant: true\n  character_set: WE8MSWIN1252\n",
    ))
    .is_ok());
    // The national set is the CDB's: ORA-65119 for another, the same is accepted.
    let e = parse(&CDB.replace(
        "character_set: WE8MSWIN1252 }",
        "character_set: WE8MSWIN1252, national_character_set: UTF8 }",
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("ORA-65119"), "{e}");
    assert!(parse(&CDB.replace(
        "character_set: WE8MSWIN1252 }",
        "character_set: WE8MSWIN1252, national_character_set: AL16UTF16 }",
    ))
    .is_ok());
    let e = parse(&CDB.replace(
        "character_set: WE8MSWIN1252 }",
        "character_set: AL16UTF16 }",
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("national character set only"), "{e}");
}

#[test]
fn each_container_reports_its_own_sets() {
    let db = Db::new(CDB);
    let mut s = db.connector().connect().unwrap();
    assert_eq!(s.container().unwrap().as_deref(), Some("CDB$ROOT"));
    assert_eq!(s.charsets().unwrap(), Charsets::default());
    s.set_container("PDB2").unwrap();
    let config = s.instance_config().unwrap();
    assert_eq!(config.character_set.as_deref(), Some("WE8MSWIN1252"));
    assert_eq!(config.national_character_set.as_deref(), Some("AL16UTF16"));
    s.set_container("PDB1").unwrap();
    assert_eq!(s.charsets().unwrap(), Charsets::default());
    // Root mode: the home's sets are the root's, a table's are its PDB's, whichever
    // container the session was in before.
    let mut s = root_mode(&db, Faults::default());
    let pdb2: crate::names::TableName = "PDB2.HR.NOTES".parse().unwrap();
    let pdb1: crate::names::TableName = "PDB1.HR.NOTES".parse().unwrap();
    assert_eq!(s.table_charsets(&pdb2).unwrap(), WE8);
    assert_eq!(s.charsets().unwrap(), Charsets::default());
    assert_eq!(s.table_charsets(&pdb1).unwrap(), Charsets::default());
    assert_eq!(s.table_charsets(&pdb2).unwrap(), WE8);
}

#[test]
fn a_pdbs_text_is_stored_and_written_as_bytes_in_its_own_set() {
    let db = Db::new(CDB);
    let mut w = db.writer();
    // A transaction changes one container only (ORA-65023): one in each PDB.
    let (x1, x2) = (w.begin().unwrap(), w.begin().unwrap());
    w.insert(x1, 0, vec![Value::Number("1".into()), text("é€Ā")])
        .unwrap();
    w.insert(x2, 1, vec![Value::Number("1".into()), text("é€Ā")])
        .unwrap();
    // Byte lengths are the container's: 7 bytes in WE8MSWIN1252, 11 in AL32UTF8 (ORA-12899).
    w.insert(x2, 1, vec![Value::Number("2".into()), text("é€Āxyz")])
        .unwrap();
    let e = w
        .insert(x1, 0, vec![Value::Number("2".into()), text("é€Āxyz")])
        .unwrap_err();
    assert!(e.to_string().contains("ORA-12899"), "{e}");
    let c = w.commit(&[x1, x2]).unwrap();
    let mut f = Faults::default();
    f.settings.dictionary_mismatch_tables = vec!["*.HR.NOTES".into()];
    let mut s = root_mode(&db, f);
    // PDB2 lacks 'Ā': '¿'; PDB1 (AL32UTF8) keeps it.
    let stored = |s: &mut dyn Session, t: &str| {
        crate::source::emulator::testing::read(s, t, c).unwrap()[0].values[1].clone()
    };
    assert_eq!(stored(s.as_mut(), "PDB1.HR.NOTES"), text("é€Ā"));
    assert_eq!(stored(s.as_mut(), "PDB2.HR.NOTES"), text("é€¿"));
    // In the root LogMiner returns both PDBs' rows, the storage bytes in each one's set.
    let rows: Vec<LogMinerRow> = mine(s.as_mut(), 5000, c)
        .into_iter()
        .filter(|r| r.operation == "INSERT")
        .collect();
    let redo = |pdb: &str| {
        rows.iter()
            .find(|r| r.src_con_name == pdb)
            .map(|r| r.sql_redo.clone())
            .unwrap_or_default()
    };
    assert_eq!(rows.len(), 3);
    assert!(
        redo("PDB1").contains("HEXTORAW('c3a9e282acc480')"),
        "{}",
        redo("PDB1")
    );
    assert!(
        redo("PDB2").contains("HEXTORAW('e980bf')"),
        "{}",
        redo("PDB2")
    );
}

#[test]
fn a_pdbs_keys_order_as_its_own_sets_bytes() {
    let db = Db::new(CDB);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    for k in ["é", "z", "€", "a", "Ÿ"] {
        w.insert(x, 2, vec![text(k)]).unwrap();
    }
    let c = w.commit(&[x]).unwrap();
    let mut s = root_mode(&db, Faults::default());
    let read: Vec<String> = crate::source::emulator::testing::read(s.as_mut(), "PDB2.HR.CODES", c)
        .unwrap()
        .into_iter()
        .map(|r| r.values[0].to_string())
        .collect();
    // WE8MSWIN1252: € (0x80), Ÿ (0x9F), é (0xE9); the CDB's AL32UTF8 would put é first.
    assert_eq!(read, ["a", "z", "€", "Ÿ", "é"]);
}

/// The snapshot planner in root mode compares a PDB table's text keys in the PDB's order: the
/// ORA-01555 split of [z, é) after one row is [z, €) and [€, é) in WE8MSWIN1252 (in the
/// root's AL32UTF8 '€' is above 'é' and the chunk would not split).
#[test]
fn the_planner_orders_a_pdb_tables_keys_in_its_pdbs_set() {
    use crate::snapshot::plan::{Chunk, Planner};
    let db = Db::new(CDB);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    for k in ["é", "z", "€", "a", "Ÿ", "b"] {
        w.insert(x, 2, vec![text(k)]).unwrap();
    }
    let c = w.commit(&[x]).unwrap();
    let mut s = root_mode(&db, Faults::default());
    let info = s
        .tables()
        .unwrap()
        .into_iter()
        .find(|t| t.name.to_string() == "PDB2.HR.CODES")
        .unwrap();
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
    // The session is back in the root, as capture leaves it after mining.
    s.charsets().unwrap();
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
