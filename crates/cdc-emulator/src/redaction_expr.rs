//! Data Redaction policy expressions, evaluated as Oracle evaluates them for a query: in the
//! querying session, with the emulator's SQL engine (`emulator-sql`) over a database that
//! holds nothing but the session's context. Oracle allows only SYS_CONTEXT and a few SQL
//! functions in them (Data Redaction Guide 3.1), so no table is read.
//!
//! The session's context, as the served listener's `SYS_CONTEXT` answers it too:
//! - USERENV: SESSION_USER, CURRENT_USER, AUTHENTICATED_IDENTITY and CURRENT_SCHEMA are the
//!   user; CON_NAME the container (the database's name outside a CDB); DB_NAME and
//!   DB_UNIQUE_NAME the database's; ISDBA FALSE; CLIENT_IDENTIFIER, CLIENT_INFO, MODULE and
//!   ACTION NULL (the emulator's sessions never set them); any other attribute ORA-02003, which
//!   the schema file's check turns into an error before anything runs.
//! - SYS_SESSION_ROLES: 'TRUE' when the role is enabled in the session, else 'FALSE' (Data
//!   Redaction Guide 3.1: "Policy expressions can make use of the SYS_SESSION_ROLES namespace").
//! - any other namespace: NULL (no application context is set).

use crate::access::User;
use emulator_sql::{
    Argument, CharsetOrder, Column, Database, DateTime, Datum, ObjectName, OraError, Outcome,
    Relation, ScanRequest, SqlSession,
};

/// What a policy expression may ask of the session reading.
pub struct Reader<'a> {
    pub user: &'a User,
    /// CON_NAME: the container (CDB$ROOT, a PDB) or the database's name outside a CDB.
    pub con_name: String,
    pub db_name: String,
    /// The database host's local time and its offset from UTC in minutes (SYSDATE).
    pub host_time: (DateTime, i16),
}

impl Reader<'_> {
    /// Whether `expression` is TRUE for this session (FALSE and NULL are not): the error of
    /// an expression the engine cannot evaluate, as Oracle would raise it.
    pub fn holds(&self, expression: &str) -> Result<bool, OraError> {
        let mut db = Context { reader: self };
        // As the adapter asks: the parenthesis closes after a `--` comment the text may end with.
        let sql = format!("SELECT 1 FROM DUAL WHERE ({expression}\n)");
        match SqlSession::new().execute(&mut db, &sql, &[])? {
            Outcome::Rows { mut rows, .. } => Ok(rows.next().transpose()?.is_some()),
            _ => Err(OraError::new(
                28082,
                "the parameter EXPRESSION is invalid (not a condition)",
            )),
        }
    }

    /// SYS_CONTEXT(namespace, attribute), both upper-cased.
    pub fn sys_context(&self, namespace: &str, attribute: &str) -> Result<Datum, OraError> {
        Ok(match (namespace, attribute) {
            ("USERENV", "SESSION_USER" | "CURRENT_USER" | "AUTHENTICATED_IDENTITY")
            | ("USERENV", "CURRENT_SCHEMA") => Datum::text(self.user.name.clone()),
            ("USERENV", "CON_NAME") => Datum::text(self.con_name.clone()),
            ("USERENV", "DB_NAME" | "DB_UNIQUE_NAME") => Datum::text(self.db_name.clone()),
            ("USERENV", "ISDBA") => Datum::text("FALSE"),
            ("USERENV", "CLIENT_IDENTIFIER" | "CLIENT_INFO" | "MODULE" | "ACTION") => Datum::Null,
            ("USERENV", other) => return Err(invalid_userenv(other)),
            ("SYS_SESSION_ROLES", role) => Datum::text(session_role(self.user, role)),
            _ => Datum::Null,
        })
    }
}

/// SYS_CONTEXT('SYS_SESSION_ROLES', role): whether the role is enabled in the session.
pub fn session_role(user: &User, role: &str) -> &'static str {
    if user.privileges.roles.contains(role) {
        "TRUE"
    } else {
        "FALSE"
    }
}

pub fn invalid_userenv(attribute: &str) -> OraError {
    OraError::new(2003, format!("invalid USERENV parameter ({attribute})"))
}

/// The database an expression is evaluated over: the session's context and nothing else.
struct Context<'a, 'b> {
    reader: &'a Reader<'b>,
}

fn no_object(name: &str) -> OraError {
    OraError::new(
        28082,
        format!("the parameter EXPRESSION is invalid ({name}: a policy expression reads no table)"),
    )
}

impl Database for Context<'_, '_> {
    fn scan(&mut self, name: &ObjectName, _: &ScanRequest) -> Result<Relation, OraError> {
        Err(no_object(&name.name))
    }

    fn columns(&mut self, table: &ObjectName) -> Result<Vec<Column>, OraError> {
        Err(no_object(&table.name))
    }

    fn function(&mut self, name: &str, args: &[Datum]) -> Option<Result<Datum, OraError>> {
        let text = |i: usize| match args.get(i) {
            Some(Datum::Text(s)) => Some(s.to_ascii_uppercase()),
            _ => None,
        };
        Some(match name {
            "SYS_CONTEXT" => match (text(0), text(1)) {
                (Some(ns), Some(attr)) => self.reader.sys_context(&ns, &attr),
                _ => Err(invalid_userenv("NULL")),
            },
            "USER" => Ok(Datum::text(self.reader.user.name.clone())),
            _ => return None,
        })
    }

    fn constant(&mut self, _: &[String]) -> Option<Datum> {
        None
    }

    fn call(&mut self, procedure: &[String], _: &[Argument]) -> Result<(), OraError> {
        Err(no_object(&procedure.join(".")))
    }

    fn alter_session(&mut self, name: &str, _: &str) -> Result<(), OraError> {
        Err(no_object(name))
    }

    fn insert(
        &mut self,
        t: &ObjectName,
        _: &[String],
        _: Vec<Vec<Datum>>,
    ) -> Result<u64, OraError> {
        Err(no_object(&t.name))
    }

    fn update(&mut self, t: &ObjectName, _: &str, _: Vec<(String, Datum)>) -> Result<(), OraError> {
        Err(no_object(&t.name))
    }

    fn delete(&mut self, t: &ObjectName, _: &str) -> Result<(), OraError> {
        Err(no_object(&t.name))
    }

    fn commit(&mut self) -> Result<(), OraError> {
        Ok(())
    }

    fn rollback(&mut self) -> Result<(), OraError> {
        Ok(())
    }

    fn savepoint(&mut self, name: &str) -> Result<(), OraError> {
        Err(no_object(name))
    }

    fn rollback_to(&mut self, name: &str) -> Result<(), OraError> {
        Err(no_object(name))
    }

    fn host_time(&mut self) -> (DateTime, i16) {
        self.reader.host_time
    }

    fn charset_order(&mut self) -> CharsetOrder {
        CharsetOrder::Utf8
    }
}

/// The database host's local time for a clock reading (ms since the epoch) and the schema's
/// offset of its SQL clock (SYSDATE, SYSTIMESTAMP): what the listener's sessions answer too.
pub fn host_time(ms: i64, offset_secs: i32) -> (DateTime, i16) {
    let local = chrono::DateTime::from_timestamp_millis(ms + i64::from(offset_secs) * 1000)
        .unwrap_or_default();
    let text = local.format("%Y-%m-%d %H:%M:%S%.9f").to_string();
    (
        DateTime::parse(&text).unwrap_or_default(),
        i16::try_from(offset_secs / 60).unwrap_or(0),
    )
}
