//! `oracle-cdc capture` in root mode on an emulated AL32UTF8 CDB holding a WE8MSWIN1252 PDB
//! (from 12.2 an AL32UTF8 CDB takes PDBs of any database character set). In the root LogMiner
//! returns both PDBs' rows; under the dictionary-mismatch drill every value is `HEXTORAW` of its
//! storage bytes, in its own PDB's set: PDB2's VARCHAR2 and CHAR in WE8MSWIN1252 ('é' is e9,
//! '€' 80), PDB1's in AL32UTF8, national text in the CDB's AL16UTF16; PDB2's XMLTYPE documents
//! (`XML_REDO := HEXTORAW('…')`, whatever the dictionary) in WE8MSWIN1252 too. Capture reads each
//! captured PDB's sets inside it and decodes each row with its PDB's; the latest record per key
//! equals `emulator dump`. (Before, the root's AL32UTF8 was used for every row: PDB2's
//! `HEXTORAW('e980')` stopped capture with CDC-3021.)

use crate::capture_support;

use capture_support::*;

const SCHEMA: &str = r#"
seed: 11
database:
  multitenant: true
  pdbs:
    - { name: PDB2, character_set: WE8MSWIN1252 }
tables:
  - name: PDB1.APP.NAMED
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(12), generate: { choice: ["é€", "Ÿes", "naïve", "ĀĒ", "plain"] } }
      - { name: NNAME, type: NVARCHAR2(6), generate: { choice: ["é😀", "ĀĒ", "x"] } }
    primary_key: [ID]
    supplemental_logging: all
    rows: 30
  - name: PDB2.APP.NAMED
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(12), generate: { choice: ["é€", "Ÿes", "naïve", "ĀĒ", "plain", "«x»"] } }
      - { name: CODE, type: CHAR(3), generate: { choice: ["€", "é", "x"] } }
      - { name: NNAME, type: NVARCHAR2(6), generate: { choice: ["é😀", "ĀĒ", "x", "日本"] } }
    primary_key: [ID]
    supplemental_logging: all
    rows: 30
  - name: PDB2.APP.DOCS
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NOTE, type: VARCHAR2(10), generate: { choice: ["ñ", "x"] } }
      - { name: DOC, type: XMLTYPE, generate: { choice: ["<a>é€</a>", "<b>Ÿ</b>", "<c/>"] } }
    primary_key: [ID]
    supplemental_logging: all
    rows: 10
"#;

fn capture(db: &std::path::Path, state: &std::path::Path, out: &std::path::Path, to: u64) {
    let args: Vec<String> = [
        format!("cdc.database.url=emulator:{}", db.display()),
        format!("cdc.state.dir={}", state.display()),
        format!("cdc.sink.dir={}", out.display()),
        "cdc.stream.poll.ms=20".into(),
        "cdc.emulator.fault.dictionary.mismatch.tables=*.APP.NAMED".into(),
    ]
    .into_iter()
    .flat_map(|s| ["--set".to_string(), s])
    .chain(["-q", "capture", "--stop-at-scn"].map(String::from))
    .chain([to.to_string()])
    .collect();
    run(&args.iter().map(String::as_str).collect::<Vec<_>>());
}

#[test]
fn each_pdbs_text_is_captured_in_its_own_character_set_in_root_mode() {
    let Emulated {
        dir: _dir,
        db,
        state,
        out,
    } = emulated(SCHEMA);
    capture(&db, &state, &out, current_scn(&db));
    run(&[
        "emulator",
        "workload",
        db.to_str().unwrap(),
        "--transactions",
        "80",
        "--seed",
        "5",
    ]);
    let end = current_scn(&db);
    capture(&db, &state, &out, end);
    let recs = records(&out);
    assert_exactly_once(&recs);
    for table in ["PDB1.APP.NAMED", "PDB2.APP.NAMED", "PDB2.APP.DOCS"] {
        assert_converges(&db, &recs, table, end);
    }
    // PDB2 holds WE8MSWIN1252's characters and '¿' for those it lacks; PDB1 keeps them all.
    let names = |table: &str| -> Vec<String> {
        dump(&db, table, end)
            .iter()
            .filter_map(|r| r["NAME"].as_str().map(String::from))
            .collect()
    };
    let pdb2 = names("PDB2.APP.NAMED");
    for want in ["é€", "Ÿes", "¿¿"] {
        assert!(pdb2.iter().any(|n| n == want), "{want} not among {pdb2:?}");
    }
    let pdb1 = names("PDB1.APP.NAMED");
    assert!(pdb1.iter().any(|n| n == "ĀĒ"), "{pdb1:?}");
    // Both PDBs' changes were read from storage bytes.
    for table in ["PDB1.APP.NAMED", "PDB2.APP.NAMED"] {
        let recovered = events(&state)
            .into_iter()
            .filter(|e| e["event"] == "redo-recovered" && e["table"] == table)
            .count();
        assert!(
            recovered > 5,
            "{table}: {recovered} changes read from storage bytes"
        );
    }
}
