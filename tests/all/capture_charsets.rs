//! `oracle-cdc capture` on an emulated WE8MSWIN1252 database with NLS_NCHAR_CHARACTERSET UTF8,
//! its text outside ASCII: '€' and 'Ÿ' (0x80 and 0x9F, which only WE8MSWIN1252 has), 'é',
//! characters the set lacks (stored as '¿'), and national text with supplementary characters.
//! One table is mined as LogMiner writes it after a dictionary mismatch, every value as
//! `HEXTORAW` of its storage bytes: VARCHAR2 in WE8MSWIN1252, NVARCHAR2 in UTF8 (CESU-8).
//! Capture reads the sets from NLS_DATABASE_PARAMETERS and decodes the bytes with them; the
//! latest record per key equals `emulator dump`. (Before, the bytes were read as AL32UTF8 and
//! AL16UTF16: `HEXTORAW('e980')` stopped capture with CDC-3002.)

use crate::capture_support;

use capture_support::*;

const SCHEMA: &str = r#"
seed: 11
database:
  character_set: WE8MSWIN1252
  national_character_set: UTF8
tables:
  - name: APP.NAMED
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(12), generate: { choice: ["é€", "Ÿes", "naïve", "ĀĒ", "plain", "«x»"] } }
      - { name: NNAME, type: NVARCHAR2(6), generate: { choice: ["é😀", "ĀĒ", "x", "日本"] } }
    primary_key: [ID]
    supplemental_logging: all
    rows: 30
  - name: APP.MISMATCHED
    columns:
      - { name: ID, type: NUMBER(10), nullable: false }
      - { name: NAME, type: VARCHAR2(12), generate: { choice: ["é€", "Ÿes", "naïve", "ĀĒ", "plain"] } }
      - { name: CODE, type: CHAR(3), generate: { choice: ["€", "é", "x"] } }
      - { name: NNAME, type: NVARCHAR2(6), generate: { choice: ["é😀", "ĀĒ", "x", "日本"] } }
    primary_key: [ID]
    supplemental_logging: all
    rows: 30
"#;

fn capture(db: &std::path::Path, state: &std::path::Path, out: &std::path::Path, to: u64) {
    let args: Vec<String> = [
        format!("cdc.database.url=emulator:{}", db.display()),
        format!("cdc.state.dir={}", state.display()),
        format!("cdc.sink.dir={}", out.display()),
        "cdc.stream.poll.ms=20".into(),
        "cdc.emulator.fault.dictionary.mismatch.tables=APP.MISMATCHED".into(),
    ]
    .into_iter()
    .flat_map(|s| ["--set".to_string(), s])
    .chain(["-q", "capture", "--stop-at-scn"].map(String::from))
    .chain([to.to_string()])
    .collect();
    run(&args.iter().map(String::as_str).collect::<Vec<_>>());
}

#[test]
fn text_of_a_we8mswin1252_database_is_captured_as_its_tables_hold_it() {
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
    for table in ["APP.NAMED", "APP.MISMATCHED"] {
        assert_converges(&db, &recs, table, end);
    }
    // The tables hold WE8MSWIN1252's own characters, '¿' for the ones it lacks, and national
    // text outside the BMP, and the records carry them.
    let rows = dump(&db, "APP.MISMATCHED", end);
    let names: Vec<&str> = rows.iter().filter_map(|r| r["NAME"].as_str()).collect();
    for want in ["é€", "Ÿes", "¿¿"] {
        assert!(names.contains(&want), "{want} not among {names:?}");
    }
    let nnames: Vec<&str> = rows.iter().filter_map(|r| r["NNAME"].as_str()).collect();
    assert!(nnames.contains(&"é😀"), "{nnames:?}");
    let recovered = events(&state)
        .into_iter()
        .filter(|e| e["event"] == "redo-recovered" && e["table"] == "APP.MISMATCHED")
        .count();
    assert!(
        recovered > 10,
        "{recovered} changes read from storage bytes"
    );
}
