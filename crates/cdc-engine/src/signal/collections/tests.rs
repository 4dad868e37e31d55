use super::*;
use serde_json::json;

fn t(name: &str) -> TableName {
    name.parse().unwrap()
}

fn captured() -> Vec<TableName> {
    vec![t("SALES.ORDERS"), t("SALES.ORDER_LINES"), t("HR.EMP")]
}

fn signal(data: serde_json::Value) -> Result<Signal> {
    Signal::from_json(&json!({"id": "p", "type": "execute-snapshot", "data": data}))
}

fn filters(s: &Signal) -> Vec<(TableName, String)> {
    match &s.action {
        Action::ExecuteSnapshot { filters, .. } => filters.clone(),
        other => panic!("{other:?}"),
    }
}

/// Debezium matches a data-collections entry as a whole-name, case-sensitive pattern against
/// `DATABASE.SCHEMA.TABLE`; here also against `SCHEMA.TABLE`.
#[test]
fn data_collection_patterns_expand_to_the_captured_tables_they_match() {
    let s = signal(json!({"data-collections": ["SALES\\.ORD.*", "HR.EMP"]})).unwrap();
    assert_eq!(
        s.tables(),
        [t("HR.EMP")],
        "patterns wait for the captured tables"
    );
    let x = s.expanded(&captured(), Some(("SHOP", false))).unwrap();
    assert_eq!(
        x.tables(),
        [t("HR.EMP"), t("SALES.ORDERS"), t("SALES.ORDER_LINES")]
    );
    assert!(x.patterns.is_empty());
    // Debezium's identifier form, with the database's name.
    let s = signal(json!({"data-collections": ["SHOP\\.SALES\\.ORDERS?"]})).unwrap();
    let x = s.expanded(&captured(), Some(("SHOP", false))).unwrap();
    assert_eq!(
        x.tables(),
        [t("SALES.ORDERS")],
        "whole-name match: not ORDER_LINES"
    );
    // In a CDB the first part is the PDB.
    let cdb = vec![t("PDB1.SALES.ORDERS"), t("PDB2.SALES.ORDERS")];
    let s = signal(json!({"data-collections": ["PDB1\\..*"]})).unwrap();
    let x = s.expanded(&cdb, Some(("CDB1", true))).unwrap();
    assert_eq!(x.tables(), [t("PDB1.SALES.ORDERS")]);
    // The file channel keeps the patterns as they came until capture expands them.
    let back = Signal::from_json(&s.to_json()).unwrap();
    assert_eq!(back, s);
}

#[test]
fn a_pattern_matching_nothing_or_not_compiling_is_refused_with_its_code() {
    let s = signal(json!({"data-collections": ["sales\\..*"]})).unwrap();
    let e = s.expanded(&captured(), None).unwrap_err();
    assert_eq!(e.code(), Code::Cdc8141, "case-sensitive, as Debezium: {e}");
    let s = signal(json!({"data-collections": ["SALES\\.(ORD"]})).unwrap();
    let e = s.expanded(&captured(), None).unwrap_err();
    assert_eq!(e.code(), Code::Cdc8140, "{e}");
    // A stop signal naming only a pattern must not become "stop everything".
    let stop = Signal::from_json(
        &json!({"id": "s", "type": "stop-snapshot", "data": {"data-collections": ["NOPE.*"]}}),
    )
    .unwrap();
    assert_eq!(
        stop.expanded(&captured(), None).unwrap_err().code(),
        Code::Cdc8141
    );
}

/// Debezium compiles an additional condition's data-collection case-insensitively.
#[test]
fn condition_patterns_apply_to_each_of_the_signals_tables_they_match() {
    let s = signal(json!({"data-collections": ["SALES\\..*"],
        "additional-conditions": [{"data-collection": "sales\\.order.*", "filter": "ID > 5"}]}))
    .unwrap();
    let x = s.expanded(&captured(), None).unwrap();
    assert_eq!(
        filters(&x),
        [
            (t("SALES.ORDERS"), "ID > 5".into()),
            (t("SALES.ORDER_LINES"), "ID > 5".into())
        ]
    );
    let s = signal(json!({"data-collections": ["HR.EMP"],
        "additional-conditions": [{"data-collection": "SALES.*", "filter": "ID > 5"}]}))
    .unwrap();
    assert_eq!(
        s.expanded(&captured(), None).unwrap_err().code(),
        Code::Cdc8141
    );
}

/// Debezium's blocking snapshot takes the filter as the table's whole SELECT.
#[test]
fn a_blocking_filter_may_be_a_whole_select_of_its_table() {
    let s = signal(
        json!({"data-collections": ["SALES.ORDERS"], "type": "BLOCKING",
        "additional-conditions": [{"data-collection": "SALES.ORDERS",
            "filter": "select * from SALES.ORDERS where AMOUNT > 100 AND (REGION = 'ORDER BY')"}]}),
    )
    .unwrap();
    assert_eq!(
        filters(&s),
        [(
            t("SALES.ORDERS"),
            "AMOUNT > 100 AND (REGION = 'ORDER BY')".into()
        )]
    );
    // The database's name before the schema, outside a CDB, is the same table.
    let s = signal(
        json!({"data-collections": ["SHOP.SALES.ORDERS"], "type": "BLOCKING",
        "additional-conditions": [{"data-collection": "SHOP.SALES.ORDERS",
            "filter": "SELECT * FROM \"SALES\".\"ORDERS\" WHERE ID = 1"}]}),
    )
    .unwrap();
    assert_eq!(
        filters(&s.resolved("SHOP", false)),
        [(t("SALES.ORDERS"), "ID = 1".into())]
    );
}

#[test]
fn a_select_of_another_table_or_shape_is_refused_with_its_code() {
    let code = |kind: &str, filter: &str| {
        signal(json!({"data-collections": ["SALES.ORDERS"], "type": kind,
            "additional-conditions": [{"data-collection": "SALES.ORDERS", "filter": filter}]}))
        .unwrap_err()
        .code()
    };
    assert_eq!(
        code("BLOCKING", "SELECT * FROM HR.EMP WHERE ID > 1"),
        Code::Cdc8142
    );
    for bad in [
        "SELECT ID FROM SALES.ORDERS WHERE ID > 1",
        "SELECT * FROM SALES.ORDERS o WHERE o.ID > 1",
        "SELECT * FROM SALES.ORDERS, HR.EMP WHERE 1 = 1",
        "SELECT * FROM SALES.ORDERS",
        "SELECT * FROM SALES.ORDERS WHERE ID > 1 ORDER BY ID",
        "SELECT * FROM SALES.ORDERS WHERE ID > 1 UNION SELECT * FROM SALES.ORDERS WHERE ID < 0",
    ] {
        assert_eq!(code("BLOCKING", bad), Code::Cdc8143, "{bad}");
    }
    assert_eq!(
        code("INCREMENTAL", "SELECT * FROM SALES.ORDERS WHERE ID > 1"),
        Code::Cdc8143,
        "Debezium's incremental filter is a condition"
    );
    // A column called SELECTED is a condition, not a statement.
    assert!(signal(json!({"data-collections": ["SALES.ORDERS"],
        "additional-conditions": [{"data-collection": "SALES.ORDERS", "filter": "SELECTED = 1"}]}))
    .is_ok());
}
