//! The SQL_REDO fault drills render what a real LogMiner writes in those cases (see
//! `redo_faults`): quotes not doubled, and `COL n` names with storage bytes, STATUS 2 and INFO
//! `Dictionary Mismatch` after a dictionary mismatch. (Before the drills the emulator had no way
//! to render either form.)

use super::tests::{emp_row, mine, Db, EMP};
use super::*;
use crate::types::Value;
use cdc_core::model::LogMinerRow;

fn faults(quotes: &str, mismatch: &str) -> Faults {
    let mut f = Faults::default();
    let list = |s: &str| {
        if s.is_empty() {
            vec![]
        } else {
            vec![s.to_string()]
        }
    };
    f.settings.unescaped_quotes_tables = list(quotes);
    f.settings.dictionary_mismatch_tables = list(mismatch);
    f
}

/// One transaction on HR.EMP (an insert, an update, a delete of a name with a quote); the DML
/// rows as (STATUS, INFO, SQL_REDO) mined with `f`.
fn rendered(f: Faults) -> Vec<(i32, Option<String>, String)> {
    let db = Db::new(EMP);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    let rid = w.insert(x, 0, emp_row(7, "O'Brien")).unwrap();
    w.update_set(x, 0, rid, &[(1, Value::Text("it's".into()))])
        .unwrap();
    w.delete(x, 0, rid).unwrap();
    let c = w.commit(&[x]).unwrap();
    let conn =
        EmulatorConnector::open_with_clock(&db.path(), f, Arc::new(db.clock.clone())).unwrap();
    let mut s = conn.connect().unwrap();
    mine(&mut *s, c - 4, c)
        .into_iter()
        .filter(|r| matches!(r.operation.as_str(), "INSERT" | "UPDATE" | "DELETE"))
        .map(|r| (r.status, r.info, r.sql_redo))
        .collect()
}

#[test]
fn the_unescaped_quotes_drill_writes_quotes_once() {
    let rows = rendered(faults("HR.*", ""));
    let sql: Vec<&str> = rows.iter().map(|r| r.2.as_str()).collect();
    assert_eq!(
        sql,
        vec![
            "insert into \"HR\".\"EMP\"(\"ID\",\"NAME\",\"HIRED\",\"PHOTO\",\"NOTE\") values ('7','O'Brien',TO_DATE('2020-01-01 00:00:00', 'YYYY-MM-DD HH24:MI:SS'),HEXTORAW('0a0b'),NULL);",
            "update \"HR\".\"EMP\" set \"NAME\" = 'it's' where \"ID\" = '7' and \"NAME\" = 'O'Brien';",
            "delete from \"HR\".\"EMP\" where \"ID\" = '7' and \"NAME\" = 'it's' and \"HIRED\" = TO_DATE('2020-01-01 00:00:00', 'YYYY-MM-DD HH24:MI:SS') and \"PHOTO\" = HEXTORAW('0a0b') and \"NOTE\" IS NULL;",
        ]
    );
    assert!(rows.iter().all(|r| r.0 == 0), "{rows:?}");
    // Other tables, and no drill: doubled as always.
    for f in [faults("HR.OTHER", ""), Faults::default()] {
        assert!(rendered(f)[0].2.contains("'O''Brien'"));
    }
}

#[test]
fn the_dictionary_mismatch_drill_writes_col_n_and_storage_bytes() {
    let rows = rendered(faults("", "HR.EMP"));
    // 7 is c108; 2020-01-01 is 120,120,1,1,1,1,1; "O'Brien" in UTF-8.
    assert_eq!(
        rows[0].2,
        "insert into \"HR\".\"EMP\"(\"COL 1\",\"COL 2\",\"COL 3\",\"COL 4\",\"COL 5\") values (HEXTORAW('c108'),HEXTORAW('4f27427269656e'),HEXTORAW('78780101010101'),HEXTORAW('0a0b'),NULL);"
    );
    assert_eq!(
        rows[1].2,
        "update \"HR\".\"EMP\" set \"COL 2\" = HEXTORAW('69742773') where \"COL 1\" = HEXTORAW('c108') and \"COL 2\" = HEXTORAW('4f27427269656e');"
    );
    assert!(rows[2]
        .2
        .starts_with("delete from \"HR\".\"EMP\" where \"COL 1\" = HEXTORAW('c108')"));
    assert!(
        rows.iter()
            .all(|r| r.0 == 2 && r.1.as_deref() == Some("Dictionary Mismatch")),
        "{rows:?}"
    );
}

/// HR.EMP's DML rows mined with the unknown-object drill on it and the filter capture sends
/// for `HR.*` (with or without its UNKNOWN arm).
fn unknown_rows(unknown_objects: bool) -> Vec<LogMinerRow> {
    use cdc_core::filter::{MiningFilter, NameMatch, Owners};
    let db = Db::new(EMP);
    let mut w = db.writer();
    let x = w.begin().unwrap();
    let rid = w.insert(x, 0, emp_row(7, "O'Brien")).unwrap();
    w.update_set(x, 0, rid, &[(1, Value::Text("it's".into()))])
        .unwrap();
    w.delete(x, 0, rid).unwrap();
    let c = w.commit(&[x]).unwrap();
    let mut f = Faults::default();
    f.settings.unknown_objects_tables = vec!["HR.EMP".into()];
    let conn =
        EmulatorConnector::open_with_clock(&db.path(), f, Arc::new(db.clock.clone())).unwrap();
    let mut s = conn.connect().unwrap();
    let filter = MiningFilter {
        owners: Owners::Only(vec![NameMatch::Equals("HR".into())]),
        unknown_objects,
        ..Default::default()
    };
    let mut rows = Vec::new();
    s.mine(c - 4, c, &filter, &mut |r| {
        rows.push(r);
        Ok(())
    })
    .unwrap();
    rows.retain(|r| matches!(r.operation.as_str(), "INSERT" | "UPDATE" | "DELETE"));
    rows
}

#[test]
fn the_unknown_object_drill_names_the_object_number_and_col_n() {
    let rows = unknown_rows(true);
    assert_eq!(rows.len(), 3, "{rows:?}");
    let obj = rows[0].data_obj;
    assert!(obj >= 73_000, "{obj}");
    for r in &rows {
        assert_eq!(r.seg_owner.as_deref(), Some("UNKNOWN"));
        assert_eq!(r.table_name, Some(format!("OBJ# {obj}")));
        assert_eq!(r.data_obj, obj);
        assert_eq!((r.status, r.info.as_deref()), (0, None), "{r:?}");
    }
    assert_eq!(
        rows[0].sql_redo,
        format!("insert into \"UNKNOWN\".\"OBJ# {obj}\"(\"COL 1\",\"COL 2\",\"COL 3\",\"COL 4\",\"COL 5\") values (HEXTORAW('c108'),HEXTORAW('4f27427269656e'),HEXTORAW('78780101010101'),HEXTORAW('0a0b'),NULL);")
    );
    assert_eq!(
        rows[1].sql_redo,
        format!("update \"UNKNOWN\".\"OBJ# {obj}\" set \"COL 2\" = HEXTORAW('69742773') where \"COL 1\" = HEXTORAW('c108') and \"COL 2\" = HEXTORAW('4f27427269656e');")
    );
    assert!(rows[2].sql_redo.starts_with(&format!(
        "delete from \"UNKNOWN\".\"OBJ# {obj}\" where \"COL 1\" = HEXTORAW('c108')"
    )));
    // The owner list alone leaves them out, as Oracle's WHERE would.
    assert!(unknown_rows(false).is_empty());
}
