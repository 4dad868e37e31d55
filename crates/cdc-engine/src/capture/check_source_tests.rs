//! [`check_source`] goes by the parsed URLs and keeps the order its refusals always came in:
//! what it does not check is left for opening the database to refuse.

use super::check_source;
use crate::errors::Code;
use crate::settings::Settings;

fn checked(pairs: &[&str]) -> Result<(), (Code, String)> {
    let pairs: Vec<String> = pairs.iter().map(|p| p.to_string()).collect();
    let s = Settings::from_pairs(&pairs).map_err(|e| (e.code(), e.to_string()))?;
    check_source(&s).map_err(|e| (e.code(), e.to_string()))
}

fn code(pairs: &[&str]) -> Code {
    match checked(pairs) {
        Err((code, _)) => code,
        Ok(()) => panic!("{pairs:?} passed the check"),
    }
}

#[test]
fn a_replay_needs_snapshot_mode_none_even_without_a_directory() {
    assert_eq!(
        checked(&["cdc.database.url=replay:./r", "cdc.snapshot.mode=none"]),
        Ok(())
    );
    let e = checked(&["cdc.database.url=replay:./r"]).unwrap_err();
    assert_eq!(e.0, Code::Cdc2008);
    assert!(e.1.contains("replay:./r holds no table data"), "{}", e.1);
    assert_eq!(code(&["cdc.database.url=replay:"]), Code::Cdc2008);
    // With mode none, `replay:` passes here and opening it says CDC-2007.
    assert_eq!(
        checked(&["cdc.database.url=replay:", "cdc.snapshot.mode=none"]),
        Ok(())
    );
}

#[test]
fn other_database_urls_are_left_to_opening() {
    assert_eq!(checked(&[]), Ok(()), "unset");
    for url in ["db:1521/X Y", "emulator:db?bad", "ORCL"] {
        assert_eq!(
            checked(&[&format!("cdc.database.url={url}")]),
            Ok(()),
            "{url:?}"
        );
    }
}

#[test]
fn an_emulated_mining_database_must_parse_and_exist() {
    let base = "cdc.database.url=db:1521/X";
    assert_eq!(
        code(&[base, "cdc.mining.database.url=emulator:"]),
        Code::Cdc2007
    );
    assert_eq!(
        code(&[base, "cdc.mining.database.url=emulator:db?user=x"]),
        Code::Cdc2007
    );
    assert_eq!(
        code(&[
            base,
            "cdc.mining.database.url=emulator:/nonexistent/oracle-cdc-mine?service=P"
        ]),
        Code::Cdc4001
    );
    // Other kinds are not parsed here: the online catalog is refused first (CDC-5301), and
    // opening refuses a replay (CDC-2201) or a connect string with spaces (CDC-2007).
    for mining in ["replay:", "replay:./r", "down:1521/D S", "down:1521/D"] {
        assert_eq!(
            code(&[base, &format!("cdc.mining.database.url={mining}")]),
            Code::Cdc5301,
            "{mining}"
        );
    }
}
