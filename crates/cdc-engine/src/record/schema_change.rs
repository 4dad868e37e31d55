//! Schema change events (Debezium's `include.schema.changes`): a DDL on a captured table as
//! Debezium's Oracle connector publishes it on the topic named by the topic prefix alone. Key
//! `{databaseName}` (`io.debezium.connector.oracle.SchemaChangeKey`); value `{source, ts_ms,
//! databaseName, schemaName, ddl, tableChanges}` (`…SchemaChangeValue`), each table change
//! `{type, id, table}` with the table's `primaryKeyColumnNames` and `columns` after the DDL
//! (checked against Debezium 3.x's `SchemaFactory.schemaHistoryConnector*Schema`,
//! `HistoryRecord.Fields` and `ConnectTableChangeSerializer`).

use super::format::Format;
use super::OwnedRecord;
use crate::types::ColumnType;
use cdc_core::model::{ColumnInfo, Scn};
use serde_json::{json, Value as Json};

/// What a schema change event says about its DDL.
pub struct Ddl<'a> {
    pub topic_prefix: &'a str,
    /// `databaseName`: the PDB, else the database.
    pub db: &'a str,
    pub table: &'a crate::names::TableName,
    pub sql: &'a str,
    pub scn: Scn,
    pub commit_scn: Scn,
    pub xid: &'a str,
    pub commit_ms: i64,
    /// The table's columns and key after the DDL (none for a DROP).
    pub columns: &'a [ColumnInfo],
    pub key: &'a [String],
}

/// `CREATE`, `ALTER` or `DROP` (Debezium's `TableChangeType`) of a DDL statement.
pub fn change_type(sql: &str) -> &'static str {
    let head = sql.trim_start().to_ascii_uppercase();
    if head.starts_with("CREATE") {
        "CREATE"
    } else if head.starts_with("DROP") {
        "DROP"
    } else {
        "ALTER"
    }
}

/// `java.sql.Types` / `OracleTypes` number of a column type, as Oracle's JDBC driver reports it.
fn jdbc_type(ty: &ColumnType) -> i32 {
    match ty {
        ColumnType::Varchar2 { .. } => 12,
        ColumnType::Nvarchar2 { .. } => -9,
        ColumnType::Char { .. } => 1,
        ColumnType::Nchar { .. } => -15,
        ColumnType::Number { .. } => 2,
        ColumnType::Float { .. } => 6,
        ColumnType::BinaryFloat => 100,
        ColumnType::BinaryDouble => 101,
        ColumnType::Date | ColumnType::Timestamp { .. } => 93,
        ColumnType::TimestampTz { .. } => -101,
        ColumnType::TimestampLtz { .. } => -102,
        ColumnType::IntervalYm { .. } => -103,
        ColumnType::IntervalDs { .. } => -104,
        ColumnType::Raw { .. } => -3,
        ColumnType::Long => -1,
        ColumnType::LongRaw => -4,
        ColumnType::Clob => 2005,
        ColumnType::Nclob => 2011,
        ColumnType::Blob => 2004,
        ColumnType::Bfile => -13,
        ColumnType::Rowid | ColumnType::Urowid => -8,
        ColumnType::Xmltype => 2009,
        ColumnType::Boolean => 16,
        _ => 1111,
    }
}

/// The type's name and its (length, scale) as Debezium's column has them.
fn type_parts(ty: &ColumnType) -> (String, Option<i64>, Option<i64>) {
    let name = ty.sql_name();
    let base = name.split('(').next().unwrap_or(&name).trim().to_string();
    match ty {
        // As declared: a `VARCHAR2(10 CHAR)` is 10 (Debezium's DDL parser reads the number,
        // Oracle's JDBC COLUMN_SIZE is CHAR_LENGTH), not its 40 bytes.
        ColumnType::Varchar2 { .. }
        | ColumnType::Nvarchar2 { .. }
        | ColumnType::Char { .. }
        | ColumnType::Nchar { .. }
        | ColumnType::Raw { .. } => (base, ty.declared_length().map(i64::from), None),
        ColumnType::Number { precision, scale } => {
            (base, precision.map(i64::from), scale.map(i64::from))
        }
        ColumnType::Float { precision } => (base, Some(i64::from(*precision)), None),
        ColumnType::Timestamp { fsp }
        | ColumnType::TimestampTz { fsp }
        | ColumnType::TimestampLtz { fsp } => (name.clone(), Some(i64::from(*fsp)), None),
        _ => (name.clone(), None, None),
    }
}

fn column_json(i: usize, c: &ColumnInfo) -> Json {
    let (type_name, length, scale) = type_parts(&c.data_type);
    let mut m = serde_json::Map::new();
    m.insert("name".into(), c.name.clone().into());
    m.insert("jdbcType".into(), jdbc_type(&c.data_type).into());
    m.insert("nativeType".into(), Json::Null);
    m.insert("typeName".into(), type_name.into());
    m.insert("typeExpression".into(), c.data_type.sql_name().into());
    m.insert("charsetName".into(), Json::Null);
    m.insert("length".into(), length.map_or(Json::Null, Json::from));
    m.insert("scale".into(), scale.map_or(Json::Null, Json::from));
    m.insert("position".into(), (i + 1).into());
    m.insert("optional".into(), c.nullable.into());
    m.insert("autoIncremented".into(), false.into());
    m.insert("generated".into(), c.virtual_column.into());
    m.insert("comment".into(), Json::Null);
    m.insert("defaultValueExpression".into(), Json::Null);
    m.insert("enumValues".into(), Json::Null);
    Json::Object(m)
}

fn f(ty: &str, optional: bool, name: &str) -> Json {
    json!({"type": ty, "optional": optional, "field": name})
}

fn value_schema() -> Json {
    let column = json!({
        "type": "struct",
        "fields": [
            f("string", false, "name"), f("int32", false, "jdbcType"), f("int32", true, "nativeType"),
            f("string", false, "typeName"), f("string", true, "typeExpression"), f("string", true, "charsetName"),
            f("int32", true, "length"), f("int32", true, "scale"), f("int32", false, "position"),
            f("boolean", true, "optional"), f("boolean", true, "autoIncremented"), f("boolean", true, "generated"),
            f("string", true, "comment"), f("string", true, "defaultValueExpression"),
            {"type": "array", "items": {"type": "string", "optional": false}, "optional": true, "field": "enumValues"},
        ],
        "optional": false,
        "name": "io.debezium.connector.schema.Column",
        "version": 1,
    });
    let table = json!({
        "type": "struct",
        "fields": [
            f("string", true, "defaultCharsetName"),
            {"type": "array", "items": {"type": "string", "optional": false}, "optional": true, "field": "primaryKeyColumnNames"},
            {"type": "array", "items": column, "optional": false, "field": "columns"},
            f("string", true, "comment"),
        ],
        "optional": true,
        "name": "io.debezium.connector.schema.Table",
        "version": 1,
        "field": "table",
    });
    let change = json!({
        "type": "struct",
        "fields": [f("string", false, "type"), f("string", false, "id"), table],
        "optional": false,
        "name": "io.debezium.connector.schema.Change",
        "version": 1,
    });
    json!({
        "type": "struct",
        "fields": [
            super::schema::source_schema(),
            f("int64", false, "ts_ms"),
            f("string", true, "databaseName"),
            f("string", true, "schemaName"),
            f("string", true, "ddl"),
            {"type": "array", "items": change, "optional": false, "field": "tableChanges"},
        ],
        "optional": false,
        "name": "io.debezium.connector.oracle.SchemaChangeValue",
        "version": 1,
    })
}

/// The schema change event's record.
pub fn record(ddl: &Ddl, fmt: &Format) -> OwnedRecord {
    let kind = change_type(ddl.sql);
    let id = format!(
        "\"{}\".\"{}\".\"{}\"",
        ddl.db, ddl.table.owner, ddl.table.table
    );
    let table = (kind != "DROP").then(|| {
        json!({
            "defaultCharsetName": null,
            "primaryKeyColumnNames": ddl.key,
            "columns": ddl.columns.iter().enumerate().map(|(i, c)| column_json(i, c)).collect::<Vec<_>>(),
            "comment": null,
        })
    });
    let ms = ddl.commit_ms;
    let source = json!({
        "version": env!("CARGO_PKG_VERSION"),
        "connector": "oracle",
        "name": ddl.topic_prefix,
        "ts_ms": ms,
        "snapshot": "false",
        "db": ddl.db,
        "sequence": null,
        "ts_us": ms * 1000,
        "ts_ns": ms * 1_000_000,
        "schema": ddl.table.owner,
        "table": ddl.table.table,
        "txId": ddl.xid,
        "scn": ddl.scn.to_string(),
        "commit_scn": ddl.commit_scn.to_string(),
        "lcr_position": null,
        "rs_id": null,
        "ssn": 0,
        "redo_thread": null,
        "user_name": null,
        "redo_sql": null,
        "row_id": null,
        "commit_ts_ms": ms,
        "start_scn": null,
        "start_ts_ms": null,
        "txSeq": null,
    });
    let value = json!({
        "source": source,
        "ts_ms": cdc_core::civil::now_ms(),
        "databaseName": ddl.db,
        "schemaName": ddl.table.owner,
        "ddl": ddl.sql,
        "tableChanges": [{"type": kind, "id": id, "table": table}],
    });
    let key = json!({"databaseName": ddl.db});
    let key = match fmt.key_schemas {
        true => json!({
            "schema": {"type": "struct", "fields": [f("string", false, "databaseName")], "optional": false,
                       "name": "io.debezium.connector.oracle.SchemaChangeKey", "version": 1},
            "payload": key,
        }),
        false => key,
    };
    let value = match fmt.value_schemas {
        true => json!({"schema": value_schema(), "payload": value}),
        false => value,
    };
    OwnedRecord::of_json(
        super::envelope::schema_change_topic(ddl.topic_prefix),
        &key,
        &value,
        vec![
            ("cdc.scn", ddl.scn.to_string()),
            ("cdc.commit_scn", ddl.commit_scn.to_string()),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(n: &str, t: &str, nullable: bool) -> ColumnInfo {
        ColumnInfo {
            name: n.into(),
            data_type: ColumnType::parse(t).unwrap(),
            nullable,
            virtual_column: false,
            hidden: false,
        }
    }

    #[test]
    fn a_ddl_is_debeziums_schema_change_event() {
        let table: crate::names::TableName = "PDB1.HR.EMP".parse().unwrap();
        let columns = [
            col("ID", "NUMBER(5)", false),
            col("NAME", "VARCHAR2(9)", true),
        ];
        let key = ["ID".to_string()];
        let ddl = Ddl {
            topic_prefix: "cdc",
            db: "PDB1",
            table: &table,
            sql: "alter table hr.emp add (name varchar2(9))",
            scn: 95,
            commit_scn: 95,
            xid: "0a001b00c3010000",
            commit_ms: 1000,
            columns: &columns,
            key: &key,
        };
        let r: Json =
            serde_json::from_slice(&record(&ddl, &Format::default()).as_record().line()).unwrap();
        assert_eq!(r["topic"], "cdc");
        assert_eq!(r["key"]["payload"], json!({"databaseName": "PDB1"}));
        assert_eq!(
            r["key"]["schema"]["name"],
            "io.debezium.connector.oracle.SchemaChangeKey"
        );
        let v = &r["value"]["payload"];
        assert_eq!(
            r["value"]["schema"]["name"],
            "io.debezium.connector.oracle.SchemaChangeValue"
        );
        assert_eq!(
            v.as_object().unwrap().keys().collect::<Vec<_>>(),
            [
                "source",
                "ts_ms",
                "databaseName",
                "schemaName",
                "ddl",
                "tableChanges"
            ]
        );
        assert_eq!(v["ddl"], "alter table hr.emp add (name varchar2(9))");
        let change = &v["tableChanges"][0];
        assert_eq!(
            (change["type"].as_str(), change["id"].as_str()),
            (Some("ALTER"), Some("\"PDB1\".\"HR\".\"EMP\""))
        );
        assert_eq!(change["table"]["primaryKeyColumnNames"], json!(["ID"]));
        let name = &change["table"]["columns"][1];
        assert_eq!(
            (
                name["name"].as_str(),
                name["jdbcType"].as_i64(),
                name["typeName"].as_str(),
                name["length"].as_i64(),
                name["position"].as_i64(),
                name["optional"].as_bool()
            ),
            (
                Some("NAME"),
                Some(12),
                Some("VARCHAR2"),
                Some(9),
                Some(2),
                Some(true)
            )
        );
        assert_eq!(change_type("DROP TABLE x"), "DROP");
        assert_eq!(change_type("create table x (a number)"), "CREATE");
    }
}
