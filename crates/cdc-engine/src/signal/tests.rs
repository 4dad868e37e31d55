use super::*;
use crate::errors::Code;
use proptest::prelude::*;

fn parse(v: Json) -> Result<Signal> {
    Signal::from_json(&v)
}

fn rejection(v: Json) -> String {
    let e = parse(v).unwrap_err();
    assert_eq!(e.code(), Code::Cdc8101, "{e}");
    e.to_string()
}

#[test]
fn debezium_execute_snapshot_with_additional_conditions() {
    let s = parse(json!({
        "id": "backfill-emea", "type": "execute-snapshot",
        "data": {"data-collections": ["PDB1.SALES.ORDERS", "hr.emp"], "type": "INCREMENTAL",
                 "additional-conditions": [{"data-collection": "PDB1.SALES.ORDERS", "filter": "region = 'EMEA'"}]}
    }))
    .unwrap();
    assert_eq!(s.id, "backfill-emea");
    let Action::ExecuteSnapshot {
        tables,
        kind,
        filters,
    } = &s.action
    else {
        panic!("{s:?}")
    };
    assert_eq!(
        tables[1].to_string(),
        "HR.EMP",
        "unquoted names are upper-cased"
    );
    assert_eq!(*kind, SnapshotKind::Incremental);
    assert_eq!(filters[0].0.to_string(), "PDB1.SALES.ORDERS");
    assert_eq!(filters[0].1, "region = 'EMEA'");
    // What the file channel stores parses back to the same signal.
    assert_eq!(parse(s.to_json()).unwrap(), s);
}

#[test]
fn data_as_json_text_like_a_signal_table_row() {
    let s = Signal::from_parts(
        "b-1",
        "execute-snapshot",
        Some(r#"{"data-collections": ["HR.EMP"], "type": "BLOCKING"}"#),
    )
    .unwrap();
    assert!(matches!(
        s.action,
        Action::ExecuteSnapshot {
            kind: SnapshotKind::Blocking,
            ..
        }
    ));
    let p = Signal::from_parts("p-1", "pause-snapshot", None).unwrap();
    assert_eq!(p.action, Action::PauseSnapshot);
    let stop = Signal::from_parts(
        "s-1",
        "STOP-SNAPSHOT",
        Some(r#"{"data-collections": ["HR.EMP"]}"#),
    )
    .unwrap();
    assert_eq!(stop.tables()[0].to_string(), "HR.EMP");
}

#[test]
fn bad_signals_name_the_field_at_fault() {
    assert!(rejection(json!({"id": "x", "type": "take-snapshot"}))
        .contains("unknown signal type `take-snapshot`"));
    assert!(rejection(json!({"type": "pause-snapshot"})).contains("id"));
    assert!(rejection(json!({"id": "a/b", "type": "pause-snapshot"})).contains("`/`"));
    assert!(
        rejection(json!({"id": "x".repeat(43), "type": "pause-snapshot"}))
            .contains("longer than 42")
    );
    assert!(
        rejection(json!({"id": "x", "type": "execute-snapshot", "data": {}}))
            .contains("data.data-collections")
    );
    assert!(rejection(
        json!({"id": "x", "type": "execute-snapshot", "data": {"data-collections": []}})
    )
    .contains("is empty"));
    assert!(rejection(
        json!({"id": "x", "type": "execute-snapshot", "data": {"data-collections": ["A"]}})
    )
    .contains("not a table name"));
    assert!(rejection(json!({"id": "x", "type": "execute-snapshot", "data": {"data-collections": ["A.B"], "type": "eventual"}})).contains("data.type"));
    assert!(
        rejection(json!({"id": "x", "type": "pause-snapshot", "extra": 1}))
            .contains("unknown field `extra`")
    );
    assert!(
        rejection(json!({"id": "x", "type": "pause-snapshot", "data": "{not json"}))
            .contains("data")
    );
    assert!(rejection(json!([1, 2])).contains("JSON object"));
}

#[test]
fn filters_must_be_one_safe_condition_for_a_named_table() {
    let with = |table: &str, filter: &str| {
        json!({"id": "f", "type": "execute-snapshot", "data": {"data-collections": ["A.B"],
            "additional-conditions": [{"data-collection": table, "filter": filter}]}})
    };
    assert!(rejection(with("A.B", "  ")).contains("is empty"));
    assert!(rejection(with("A.B", "x = 1; DROP TABLE t")).contains("A.B"));
    assert!(rejection(with("A.B", "x = 1 -- rest")).contains("A.B"));
    assert!(rejection(with("A.B", "1 = 1) OR (1 = 1")).contains("A.B"));
    assert!(rejection(with("C.D", "x = 1")).contains("not one of the signal's data-collections"));
    assert!(
        parse(with("a.b", "note = 'it''s; fine'")).is_ok(),
        "a ; inside a literal is text"
    );
}

#[test]
fn ids_are_checked_and_generated_fresh() {
    assert!(check_id("sig-1.a:b_c").is_ok());
    assert!(check_id("").is_err());
    assert!(check_id(".hidden").is_err());
    let a = new_id();
    assert!(check_id(&a).is_ok(), "{a}");
}

proptest! {
    // Arbitrary payloads never panic: each one parses or is a CDC-8101 rejection.
    #[test]
    fn any_payload_parses_or_is_rejected_with_a_code(
        id in ".{0,50}", kind in prop::sample::select(vec!["execute-snapshot", "pause-snapshot", "stop-snapshot", "resume-snapshot", "x"]),
        data in ".{0,200}",
    ) {
        match Signal::from_parts(&id, kind, Some(&data)) {
            Ok(s) => prop_assert!(check_id(&s.id).is_ok()),
            Err(e) => prop_assert_eq!(e.code(), Code::Cdc8101),
        }
    }

    #[test]
    fn any_json_text_parses_or_is_rejected_with_a_code(text in r#"[\[\]{}":,a-z0-9 .'=;-]{0,120}"#) {
        if let Ok(v) = serde_json::from_str::<Json>(&text) {
            if let Err(e) = Signal::from_json(&v) {
                prop_assert_eq!(e.code(), Code::Cdc8101);
            }
        }
    }
}

#[test]
fn set_throttle_round_trips_and_needs_its_rate() {
    let v = serde_json::json!({"id": "slow", "type": "set-throttle", "data": {"max-rows-per-second": 500, "data-collections": ["HR.EMP"]}});
    let s = Signal::from_json(&v).unwrap();
    assert_eq!(
        s.action,
        Action::SetThrottle {
            rows_per_second: 500,
            tables: vec!["HR.EMP".parse().unwrap()]
        }
    );
    assert_eq!(Signal::from_json(&s.to_json()).unwrap(), s);
    for data in [
        serde_json::json!({}),
        serde_json::json!({"max-rows-per-second": -1}),
    ] {
        let e = Signal::from_json(
            &serde_json::json!({"id": "x", "type": "set-throttle", "data": data}),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("CDC-8101") && e.contains("data.max-rows-per-second"),
            "{e}"
        );
    }
}

/// Debezium's `log` signal: `{"type":"log","data":{"message":…}}`.
#[test]
fn log_signals_carry_their_message() {
    let v =
        serde_json::json!({"id": "note-1", "type": "log", "data": {"message": "deploy 42 starts"}});
    let s = Signal::from_json(&v).unwrap();
    assert_eq!(
        s.action,
        Action::Log {
            message: "deploy 42 starts".into()
        }
    );
    assert_eq!(s.type_name(), "log");
    assert_eq!(Signal::from_json(&s.to_json()).unwrap(), s);
    let e = Signal::from_json(&serde_json::json!({"id": "x", "type": "log", "data": {}}))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("CDC-8101") && e.contains("data.message"),
        "{e}"
    );
}

/// Debezium names a non-CDB's table `DATABASE.SCHEMA.TABLE`: resolved to `SCHEMA.TABLE` when
/// the first part is the database's name, left alone in a CDB (there it is the PDB).
#[test]
fn debeziums_database_schema_table_names_resolve_outside_a_cdb() {
    let v = serde_json::json!({"id": "s1", "type": "execute-snapshot", "data": {
        "data-collections": ["SHOP.APP.BIG", "APP.BIG", "OTHER.APP.SMALL"],
        "additional-conditions": [{"data-collection": "SHOP.APP.BIG", "filter": "ID > 5"}]}});
    let s = Signal::from_json(&v).unwrap();
    let r = s.resolved("shop", false);
    let big: crate::names::TableName = "APP.BIG".parse().unwrap();
    assert_eq!(
        r.tables(),
        [big.clone(), "OTHER.APP.SMALL".parse().unwrap()],
        "the database's prefix dropped (once), another first part kept"
    );
    let Action::ExecuteSnapshot { filters, .. } = &r.action else {
        panic!("{r:?}")
    };
    assert_eq!(filters, &[(big, "ID > 5".to_string())]);
    assert_eq!(
        s.resolved("SHOP", true),
        s,
        "in a CDB the first part is the PDB"
    );
}

/// A `log` signal's message as written: cut at 4 KiB on a character boundary with the cut
/// said, and control characters escaped so it stays one line.
#[test]
fn log_messages_are_bounded_and_kept_on_one_line() {
    let shown = super::loggable("a\nERROR forged\r\u{1b}[31m\tb");
    assert_eq!(shown, "a\\nERROR forged\\r\\u{1b}[31m\\tb");
    let long = "é".repeat(3000); // 6000 bytes, two per character
    let shown = super::loggable(&long);
    assert!(shown.starts_with(&"é".repeat(2048)), "cut on a boundary");
    assert!(shown.ends_with("é… (cut: 1904 of 6000 bytes not shown)"));
    assert_eq!(super::loggable("short note"), "short note");
}

/// Signals are taken in the order they were spooled, whatever their ids: the source channel
/// spools a transaction's rows within a millisecond (a stop-snapshot then an execute-snapshot
/// committed together must run in that order), and a waiting signal named by a clock that has
/// since stepped back still comes first. Before, names took the clock alone, and ties (or a
/// clock stepped back) went by id: `a-again` before `z-stop`.
#[test]
fn spooled_signals_are_taken_in_the_order_they_were_sent() {
    use super::spool::Spool;
    let dir = tempfile::tempdir().unwrap();
    let spool = Spool::new(dir.path());
    let signal = |id: &str, kind: &str| {
        Signal::from_parts(id, kind, Some(r#"{"data-collections": ["HR.EMP"]}"#)).unwrap()
    };
    // One sent from a clock far ahead (or stepped back since): the next come after it.
    let ahead = spool.send(&signal("m-ahead", "pause-snapshot")).unwrap();
    let renamed = ahead.with_file_name("9999999999990-m-ahead.json");
    std::fs::rename(&ahead, &renamed).unwrap();
    let ids = ["z-stop", "a-again", "q-third", "b-fourth"];
    for (id, kind) in ids.iter().zip([
        "stop-snapshot",
        "execute-snapshot",
        "pause-snapshot",
        "resume-snapshot",
    ]) {
        spool.send(&signal(id, kind)).unwrap();
    }
    let taken: Vec<String> = spool
        .pending()
        .unwrap()
        .into_iter()
        .map(|p| p.signal.unwrap().id)
        .collect();
    assert_eq!(
        taken,
        ["m-ahead", "z-stop", "a-again", "q-third", "b-fourth"]
    );
}

/// Debezium's `surrogate-key` (chunk by this column) is refused by name, not read past: the
/// snapshot would run chunked by the key while the sender believes otherwise.
#[test]
fn a_surrogate_key_is_refused_by_name() {
    let why = rejection(json!({
        "id": "s1", "type": "execute-snapshot",
        "data": {"data-collections": ["HR.EMP"], "surrogate-key": "EMAIL"}
    }));
    assert!(
        why.contains("data.surrogate-key") && why.contains("cdc.key."),
        "{why}"
    );
    // null is as if absent.
    parse(json!({
        "id": "s2", "type": "execute-snapshot",
        "data": {"data-collections": ["HR.EMP"], "surrogate-key": null}
    }))
    .unwrap();
}
