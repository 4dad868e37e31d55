//! A rehearsal on an emulated database whose capture user lacks a grant doctor asks for: doctor
//! FAILs the check, and capture fails the way Oracle makes it fail (ORA-01031, ORA-00942,
//! PLS-00201), with the code doctor names (CDC-2401) and nothing published.

use crate::capture_support;

use assert_cmd::cargo::cargo_bin;
use capture_support::*;
use serde_json::Value as Json;
use std::process::Command;

/// Every grant but the ones named, as a `privileges:` list.
fn all_but(missing: &[&str]) -> String {
    let all = [
        "CREATE SESSION",
        "SET CONTAINER",
        "FLASHBACK ANY TABLE",
        "SELECT ANY TABLE",
        "SELECT ANY TRANSACTION",
        "LOGMINING",
        "SELECT_CATALOG_ROLE",
        "EXECUTE_CATALOG_ROLE",
    ];
    let kept: Vec<String> = all
        .iter()
        .filter(|p| !missing.contains(p))
        .map(|p| format!("\"{p}\""))
        .collect();
    format!("[{}]", kept.join(", "))
}

fn schema(multitenant: bool, privileges: &str) -> String {
    let pdb = if multitenant { "PDB1." } else { "" };
    format!(
        r#"
seed: 4
database:
  multitenant: {multitenant}
  privileges: {privileges}
tables:
  - name: {pdb}APP.ITEMS
    columns:
      - {{ name: ID, type: NUMBER(10), nullable: false }}
      - {{ name: NAME, type: VARCHAR2(30) }}
    primary_key: [ID]
    supplemental_logging: all
    rows: 50
  - name: {pdb}APP.EVENTS
    columns:
      - {{ name: AT, type: DATE }}
      - {{ name: WHAT, type: VARCHAR2(30) }}
    supplemental_logging: all
    rows: 30
"#
    )
}

struct Rehearsal {
    e: Emulated,
}

impl Rehearsal {
    fn new(multitenant: bool, privileges: &str) -> Rehearsal {
        let e = emulated(&schema(multitenant, privileges));
        // Some changes to mine.
        run(&[
            "emulator",
            "workload",
            e.db.to_str().unwrap(),
            "--transactions",
            "20",
            "--rate",
            "0",
            "--seed",
            "2",
        ]);
        Rehearsal { e }
    }

    fn sets(&self) -> Vec<String> {
        [
            format!("cdc.database.url=emulator:{}", self.e.db.display()),
            format!("cdc.state.dir={}", self.e.state.display()),
            format!("cdc.sink.dir={}", self.e.out.display()),
        ]
        .into_iter()
        .flat_map(|s| ["--set".to_string(), s])
        .collect()
    }

    /// Doctor's result for `id` (its JSON entry).
    fn doctor(&self, id: &str) -> Json {
        let o = Command::new(cargo_bin("oracle-cdc"))
            .args(self.sets())
            .args(["doctor", "--format", "json"])
            .output()
            .unwrap();
        let v: Json = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("doctor: {e}: {}", String::from_utf8_lossy(&o.stderr)));
        v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("no {id} in {v:#}"))
    }

    /// Capture made to mine changes committed after its snapshot: its exit code and stderr.
    fn capture(&self, extra: &[&str]) -> (i32, String) {
        let mut args = self.sets();
        args.extend(
            extra
                .iter()
                .flat_map(|s| ["--set".to_string(), s.to_string()]),
        );
        capture_mining_fails(&args, &self.e.db, &self.e.state, 120)
    }

    /// Capture to the database's current SCN (V$DATABASE's, one past the newest change): its
    /// exit code and stderr.
    fn capture_to_now(&self, extra: &[&str]) -> (i32, String) {
        let end = current_scn(&self.e.db) + 1;
        let o = Command::new(cargo_bin("oracle-cdc"))
            .args(self.sets())
            .args(extra.iter().flat_map(|s| ["--set", s]))
            .args(["-q", "capture", "--stop-at-scn", &end.to_string()])
            .output()
            .unwrap();
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }

    /// Doctor FAILs `check` naming CDC-2401, and capture stops with CDC-2401 and `oracle`.
    fn assert_fails(&self, check: &str, oracle: &str, extra: &[&str]) {
        let c = self.doctor(check);
        assert_eq!(c["severity"], "FAIL", "{c:#}");
        assert!(
            c["why"].as_str().unwrap_or("").contains("CDC-2401"),
            "{c:#}"
        );
        assert!(c["fix"].as_str().unwrap_or("").contains("GRANT"), "{c:#}");
        let (code, err) = self.capture(extra);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("CDC-2401") && err.contains(oracle), "{err}");
    }
}

#[test]
fn without_logmining_streaming_stops_with_cdc_2401() {
    let r = Rehearsal::new(false, &all_but(&["LOGMINING"]));
    r.assert_fails("privileges.logmining", "ORA-01031", &[]);
    // The snapshot it took first stands; nothing streamed.
    let recs = records(&r.e.out);
    assert!(recs.iter().all(|x| x["value"]["payload"]["op"] == "r"));
}

#[test]
fn without_the_catalog_role_dbms_logmnr_is_not_there() {
    // EXECUTE_CATALOG_ROLE is what lets the user run DBMS_LOGMNR.
    let r = Rehearsal::new(false, &all_but(&["EXECUTE_CATALOG_ROLE"]));
    r.assert_fails("privileges.logmining", "PLS-00201", &[]);
}

#[test]
fn without_flashback_the_snapshot_stops_with_cdc_2401() {
    let r = Rehearsal::new(false, &all_but(&["FLASHBACK ANY TABLE"]));
    r.assert_fails("privileges.snapshot", "ORA-01031", &[]);
    assert!(
        !r.e.out.exists() || records(&r.e.out).is_empty(),
        "nothing is published"
    );
    // Without snapshots the grant is not needed, and capture streams (a new state directory:
    // the unfinished snapshot stored above would resume in any mode).
    let state = format!("cdc.state.dir={}", r.e.dir.path().join("state2").display());
    let out = format!("cdc.sink.dir={}", r.e.dir.path().join("out2").display());
    let (code, err) = r.capture_to_now(&["cdc.snapshot.mode=none", &state, &out]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn without_the_dictionary_views_nothing_starts() {
    let r = Rehearsal::new(false, &all_but(&["SELECT_CATALOG_ROLE"]));
    r.assert_fails("privileges.catalog", "ORA-00942", &[]);
}

#[test]
fn without_set_container_a_common_user_cannot_reach_the_pdbs() {
    let r = Rehearsal::new(true, &all_but(&["SET CONTAINER"]));
    r.assert_fails("privileges.multitenant", "ORA-01031", &[]);
}

#[test]
fn without_create_session_there_is_no_login() {
    let r = Rehearsal::new(false, &all_but(&["CREATE SESSION"]));
    let c = r.doctor("connection.login");
    assert_eq!(c["severity"], "FAIL", "{c:#}");
    let (code, err) = r.capture(&[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("CDC-2401") && err.contains("ORA-01045"),
        "{err}"
    );
}

#[test]
fn a_grant_in_another_container_does_not_count_for_a_pdbs_table() {
    // FLASHBACK on PDB1.APP.ITEMS alone, a grant local to PDB1: APP.EVENTS has none there.
    let mut privileges = all_but(&["FLASHBACK ANY TABLE"]);
    privileges.insert_str(privileges.len() - 1, ", \"PDB1.APP.ITEMS:FLASHBACK\"");
    let r = Rehearsal::new(true, &privileges);
    let c = r.doctor("privileges.snapshot");
    assert_eq!(c["found"], "missing: FLASHBACK on PDB1.APP.EVENTS", "{c:#}");
    assert_eq!(
        c["fix"],
        "ALTER SESSION SET CONTAINER = PDB1;\nGRANT FLASHBACK ON \"APP\".\"EVENTS\" TO C##CDC;",
        "{c:#}"
    );
    r.assert_fails("privileges.snapshot", "ORA-01031", &[]);
}
