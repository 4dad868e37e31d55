//! A toy in-memory backend for the integration tests: a few fixed "tables" holding a value of
//! every type, statements that echo their binds, a PL/SQL call with OUT binds, DML that counts,
//! a slow statement, errors (plain, mid-fetch, session-killing, connection-dropping), users
//! whose login is refused (locked, expired, no CREATE SESSION) or warned (a password in its
//! grace period), and the commits and rollbacks it saw. Statements are recognised by their upper-cased prefix: this is
//! a test double, not SQL.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use oracle_net_server::{
    AfterError, Backend, Bind, Column, DateTime, Datum, Listener, Login, OraError, OraType,
    Outcome, RowSource, ServerInfo, ServerSession, ServiceAnswer, Verifier,
};

pub const USER: &str = "cdc";
pub const PASSWORD: &str = "secret-pw";
pub const SERVICE: &str = "EMU";
/// How long `SELECT SLOW FROM DUAL` takes.
pub const SLOW: Duration = Duration::from_secs(3);
pub const MANY_ROWS: u64 = 10_000;
pub const BIG_LOB_LEN: usize = 5 * 1024 * 1024;
/// The days user EXPIRING's password has left (its login's ORA-28002).
pub const EXPIRING_DAYS: u32 = 5;

/// What the backend saw, for the tests to check.
#[derive(Default, Debug)]
pub struct State {
    pub commits: u32,
    pub rollbacks: u32,
    pub committed: Vec<Vec<Datum>>,
    pub bind_types: Vec<Vec<OraType>>,
    pub statements: Vec<String>,
    pub logins: Vec<Login>,
    pub closed: u32,
}

pub struct Toy {
    pub state: Arc<Mutex<State>>,
    verifier: Verifier,
}

impl Toy {
    pub fn new() -> Arc<Toy> {
        Arc::new(Toy {
            state: Arc::default(),
            verifier: Verifier::new(PASSWORD),
        })
    }
}

/// Serves a toy backend on 127.0.0.1 (an ephemeral port).
pub fn serve() -> (Listener, Arc<Toy>, String) {
    let toy = Toy::new();
    let listener = Listener::bind("127.0.0.1:0", toy.clone()).expect("bind");
    let dsn = format!("127.0.0.1:{}/{}", listener.local_addr().port(), SERVICE);
    (listener, toy, dsn)
}

impl Backend for Toy {
    fn info(&self) -> ServerInfo {
        ServerInfo {
            version: (19, 22, 0, 0, 0),
            banner: "19c Enterprise Edition Release 19.0.0.0.0 - Production".into(),
            db_name: "EMU".into(),
            instance_name: "emu1".into(),
            db_domain: String::new(),
            sdu: 8192,
        }
    }

    fn service(&self, name: &str) -> ServiceAnswer {
        match name.to_ascii_uppercase().as_str() {
            SERVICE => ServiceAnswer::Accept,
            "BLOCKED" => ServiceAnswer::Refuse(12528),
            _ => ServiceAnswer::Unknown,
        }
    }

    fn verifier(&self, user: &str) -> Option<Verifier> {
        matches!(user, "CDC" | "LOCKED" | "NOCREATE" | "EXPIRING" | "EXPIRED")
            .then(|| self.verifier.clone())
    }

    fn open(&self, login: &Login) -> Result<Box<dyn ServerSession>, OraError> {
        match login.user.as_str() {
            "LOCKED" => return Err(OraError::new(28000, "The account is locked.")),
            "EXPIRED" => return Err(OraError::new(28001, "the password has expired")),
            "NOCREATE" => {
                return Err(OraError::new(
                    1045,
                    format!(
                        "Login denied. User {} does not have CREATE SESSION privilege.",
                        login.user
                    ),
                ))
            }
            _ => {}
        }
        self.state.lock().unwrap().logins.push(login.clone());
        Ok(Box::new(ToySession {
            state: self.state.clone(),
            pending: Vec::new(),
            container: "CDB$ROOT".into(),
            // In its password's grace period: let in, with the warning.
            warning: (login.user == "EXPIRING").then(|| {
                OraError::new(
                    28002,
                    format!("the password will expire within {EXPIRING_DAYS} days"),
                )
            }),
        }))
    }
}

struct ToySession {
    state: Arc<Mutex<State>>,
    /// This session's uncommitted inserts.
    pending: Vec<Vec<Datum>>,
    /// ALTER SESSION SET CONTAINER's last value (the toy is a CDB whose root is CDB$ROOT).
    container: String,
    /// What the login that opened it warns of (user EXPIRING: ORA-28002).
    warning: Option<OraError>,
}

struct VecRows(std::vec::IntoIter<Vec<Datum>>);

impl RowSource for VecRows {
    fn next_row(&mut self) -> Result<Option<Vec<Datum>>, OraError> {
        Ok(self.0.next())
    }
}

fn rows(columns: Vec<Column>, rows: Vec<Vec<Datum>>) -> Outcome {
    Outcome::Rows {
        columns,
        rows: Box::new(VecRows(rows.into_iter())),
    }
}

/// `MANY`: rows generated as they are fetched.
struct Many(u64);

impl RowSource for Many {
    fn next_row(&mut self) -> Result<Option<Vec<Datum>>, OraError> {
        if self.0 >= MANY_ROWS {
            return Ok(None);
        }
        self.0 += 1;
        Ok(Some(vec![
            Datum::int(self.0),
            Datum::text(format!("row-{}", self.0)),
        ]))
    }
}

/// `MIDWAY`: five rows, then an error.
struct Midway(u32);

impl RowSource for Midway {
    fn next_row(&mut self) -> Result<Option<Vec<Datum>>, OraError> {
        self.0 += 1;
        if self.0 > 5 {
            return Err(OraError::new(1722, "invalid number"));
        }
        Ok(Some(vec![Datum::int(self.0)]))
    }
}

fn col(name: &str, t: OraType) -> Column {
    Column::new(name, t)
}

pub fn dt(y: i32, mo: u8, d: u8, h: u8, mi: u8, s: u8, ns: u32) -> DateTime {
    DateTime {
        year: y,
        month: mo,
        day: d,
        hour: h,
        minute: mi,
        second: s,
        nanosecond: ns,
    }
}

pub fn all_types_columns() -> Vec<Column> {
    vec![
        col(
            "ID",
            OraType::Number {
                precision: 10,
                scale: 0,
            },
        ),
        col("NUM", OraType::NUMBER),
        col("V", OraType::Varchar2(100)),
        col("C", OraType::Char(10)),
        col("NV", OraType::NVarchar2(50)),
        col("NC", OraType::NChar(5)),
        col("BF", OraType::BinaryFloat),
        col("BD", OraType::BinaryDouble),
        col("D", OraType::Date),
        col("TS", OraType::Timestamp(6)),
        col("TSTZ", OraType::TimestampTz(6)),
        col("TSLTZ", OraType::TimestampLtz(6)),
        col("IYM", OraType::IntervalYm(2)),
        col("IDS", OraType::IntervalDs(2, 6)),
        col("R", OraType::Raw(16)),
        col("RID", OraType::Rowid),
        col("B", OraType::Boolean),
        col("CL", OraType::Clob),
        col("BL", OraType::Blob),
        col("NCL", OraType::NClob),
    ]
}

pub const NANOS: i128 = 1_000_000_000;

/// The rows of ALL_TYPES: a full one, an all-NULL one, one of edge values.
pub fn all_types_rows() -> Vec<Vec<Datum>> {
    let full = vec![
        Datum::int(1),
        Datum::Number("12345678901234567890.123456789012345678".into()),
        Datum::text("héllo wörld ✓"),
        Datum::text("abc       "),
        Datum::text("ñandú 日本"),
        Datum::text("xy   "),
        Datum::BinaryFloat(1.5),
        Datum::BinaryDouble(std::f64::consts::PI),
        Datum::Date(dt(2026, 12, 4, 10, 5, 9, 0)),
        Datum::Timestamp(dt(2026, 12, 4, 10, 5, 9, 123_456_000)),
        Datum::TimestampTz {
            at: dt(2026, 12, 4, 10, 5, 9, 500_000_000),
            offset_minutes: 330,
        },
        Datum::Timestamp(dt(2026, 1, 2, 3, 4, 5, 250_000_000)),
        Datum::IntervalYm(14),
        Datum::IntervalDs(((26 * 60 + 3) * 60 + 4) * NANOS + NANOS / 2),
        Datum::Bytes(vec![0xde, 0xad, 0xbe, 0xef]),
        Datum::Rowid("AAAR3sAAEAAAACXAAA".into()),
        Datum::Boolean(true),
        Datum::text("clob ✓ text"),
        Datum::Bytes(vec![1, 2, 3, 255]),
        Datum::text("nclob ü"),
    ];
    let mut nulls = vec![Datum::Null; full.len()];
    nulls[0] = Datum::int(2);
    let edge = vec![
        Datum::int(3),
        Datum::Number("-99999999999999999999999999999999999999".into()),
        Datum::text("x".repeat(100)),
        Datum::text("z         "),
        Datum::text("€"),
        Datum::text("€    "),
        Datum::BinaryFloat(f32::INFINITY),
        Datum::BinaryDouble(f64::NAN),
        Datum::Date(dt(1901, 1, 1, 0, 0, 0, 0)),
        Datum::Timestamp(dt(9999, 12, 31, 23, 59, 59, 999_999_000)),
        Datum::TimestampTz {
            at: dt(2000, 2, 29, 23, 30, 0, 0),
            offset_minutes: -480,
        },
        Datum::Timestamp(dt(1970, 1, 1, 0, 0, 0, 0)),
        Datum::IntervalYm(-14),
        Datum::IntervalDs(-(((26 * 60 + 3) * 60 + 4) * NANOS + NANOS / 2)),
        Datum::Bytes(vec![0; 16]),
        Datum::Rowid("AAABBBAACAAAADDAAE".into()),
        Datum::Boolean(false),
        Datum::text("x".repeat(40_000)),
        Datum::Bytes((0..70_000u32).map(|i| (i % 251) as u8).collect()),
        Datum::text("ü".repeat(5000)),
    ];
    vec![full, nulls, edge]
}

pub fn big_numbers() -> Vec<&'static str> {
    vec![
        "12345678901234567890123",
        "99999999999999999999999999999999999999",
        "-12345678901234567890123456789012345678",
        "0.000000000000000000000000000000000001",
        "1e125",
        "-0.5",
        "0",
        "123456789.987654321",
    ]
}

pub fn big_clob() -> String {
    let unit = "0123456789abcdefghijklmnopqrstuvwxyzé✓\n";
    let mut s = String::with_capacity(BIG_LOB_LEN + unit.len());
    while s.len() < BIG_LOB_LEN {
        s.push_str(unit);
    }
    s
}

pub fn big_blob() -> Vec<u8> {
    (0..BIG_LOB_LEN).map(|i| (i % 251) as u8).collect()
}

fn normalize(sql: &str) -> String {
    sql.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_uppercase()
}

fn number_of(d: &Datum) -> Option<f64> {
    match d {
        Datum::Number(s) => s.parse().ok(),
        _ => None,
    }
}

impl ToySession {
    /// The fixed "tables".
    fn fixed_table(&self, n: &str) -> Option<Outcome> {
        if n.starts_with("SELECT * FROM ALL_TYPES") {
            return Some(rows(all_types_columns(), all_types_rows()));
        }
        if let Some(list) = n
            .strip_prefix("SELECT ONLY ")
            .and_then(|r| r.strip_suffix(" FROM ALL_TYPES"))
        {
            // A subset of ALL_TYPES' columns, by name.
            let all = all_types_columns();
            let picks: Vec<usize> = list
                .split(',')
                .filter_map(|name| all.iter().position(|c| c.name == name.trim()))
                .collect();
            let cols = picks.iter().map(|&i| all[i].clone()).collect();
            let data = all_types_rows()
                .into_iter()
                .map(|r| picks.iter().map(|&i| r[i].clone()).collect())
                .collect();
            return Some(rows(cols, data));
        }
        if n.starts_with("SELECT * FROM LONG_TYPES") {
            let cols = vec![
                col("ID", OraType::NUMBER),
                col("LG", OraType::Long),
                col("UR", OraType::Urowid),
            ];
            let data = vec![
                vec![
                    Datum::int(1),
                    Datum::text("long text"),
                    Datum::Rowid("AAAR3sAAEAAAACXAAA".into()),
                ],
                vec![Datum::int(2), Datum::text("l".repeat(100_000)), Datum::Null],
            ];
            return Some(rows(cols, data));
        }
        if n.starts_with("SELECT * FROM LONG_RAWS") {
            let cols = vec![col("ID", OraType::NUMBER), col("LR", OraType::LongRaw)];
            return Some(rows(
                cols,
                vec![vec![Datum::int(1), Datum::Bytes(vec![7; 300])]],
            ));
        }
        if n.starts_with("SELECT N FROM BIG_NUMBERS") {
            let data = big_numbers()
                .into_iter()
                .map(|s| {
                    vec![Datum::Number(
                        oracle_net_server::canonical_number(s).unwrap().into(),
                    )]
                })
                .collect();
            return Some(rows(vec![col("N", OraType::NUMBER)], data));
        }
        if n.starts_with("SELECT ID, NAME FROM MANY") {
            let cols = vec![
                col("ID", OraType::NUMBER),
                col("NAME", OraType::Varchar2(20)),
            ];
            return Some(Outcome::Rows {
                columns: cols,
                rows: Box::new(Many(0)),
            });
        }
        if n.starts_with("SELECT ID, C, B FROM BIG_LOBS") {
            let cols = vec![
                col("ID", OraType::NUMBER),
                col("C", OraType::Clob),
                col("B", OraType::Blob),
            ];
            return Some(rows(
                cols,
                vec![vec![
                    Datum::int(1),
                    Datum::text(big_clob()),
                    Datum::Bytes(big_blob()),
                ]],
            ));
        }
        None
    }

    /// Statements with behaviour: echo, PL/SQL, DML, errors, a slow one, kills and drops.
    fn behaviour(&mut self, n: &str, binds: &[Bind]) -> Result<Outcome, OraError> {
        let text = |name: &str, v: &str| {
            rows(
                vec![col(name, OraType::Varchar2(64))],
                vec![vec![Datum::text(v)]],
            )
        };
        if n.starts_with("SELECT ECHO") {
            return Ok(self.echo(binds));
        }
        if let Some(name) = n.strip_prefix("ALTER SESSION SET CONTAINER = ") {
            self.container = name.trim().to_string();
            return Ok(Outcome::Done { row_count: 0 });
        }
        if n.starts_with("BEGIN TOY_PROC") {
            return self.plsql(binds);
        }
        if n.starts_with("INSERT INTO T") {
            self.pending
                .push(binds.iter().map(|b| b.value.clone()).collect());
            return Ok(Outcome::Done { row_count: 1 });
        }
        if n.starts_with("UPDATE T SET") {
            return Ok(Outcome::Done { row_count: 3 });
        }
        if n.starts_with("SELECT COUNT(*) FROM T") {
            let count = self.state.lock().unwrap().committed.len();
            return Ok(rows(
                vec![col("COUNT(*)", OraType::NUMBER)],
                vec![vec![Datum::int(count as i64)]],
            ));
        }
        if n.starts_with("SELECT * FROM NOPE") {
            return Err(OraError::no_table("NOPE").at(14));
        }
        if n.starts_with("SELECT SLOW FROM DUAL") {
            std::thread::sleep(SLOW);
            return Ok(text("SLOW", "done"));
        }
        if n.starts_with("SELECT KILL FROM DUAL") {
            return Err(OraError::new(28, "your session has been killed").then(AfterError::Close));
        }
        if n.starts_with("SELECT DROP FROM DUAL") {
            return Err(
                OraError::new(3113, "end-of-file on communication channel").then(AfterError::Drop)
            );
        }
        if n.starts_with("SELECT FAIL FROM MIDWAY") {
            return Ok(Outcome::Rows {
                columns: vec![col("FAIL", OraType::NUMBER)],
                rows: Box::new(Midway(0)),
            });
        }
        if n.starts_with("SELECT DBTIMEZONE FROM DUAL") {
            return Ok(text("DBTIMEZONE", "+00:00"));
        }
        if n.starts_with("SELECT 1 FROM DUAL WHERE 1 = 0") {
            return Ok(rows(vec![col("1", OraType::NUMBER)], vec![]));
        }
        if n.starts_with("ALTER SESSION") || n.starts_with("BEGIN NULL") {
            return Ok(if n.starts_with("BEGIN") {
                Outcome::PlSql { out: vec![] }
            } else {
                Outcome::Done { row_count: 0 }
            });
        }
        Err(OraError::invalid_statement(n))
    }

    fn plsql(&self, binds: &[Bind]) -> Result<Outcome, OraError> {
        let x = binds
            .first()
            .and_then(|b| number_of(&b.value))
            .unwrap_or(0.0);
        let z = match binds.get(2).map(|b| &b.value) {
            Some(Datum::Text(s)) => s.clone(),
            _ => Default::default(),
        };
        Ok(Outcome::PlSql {
            out: vec![
                None,
                Some(Datum::Number(format!("{}", x * 2.0).into())),
                Some(Datum::text(format!("{z}!"))),
            ],
        })
    }

    fn echo(&self, binds: &[Bind]) -> Outcome {
        let columns = binds
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let t = match &b.ora_type {
                    OraType::Varchar2(n) => OraType::Varchar2((*n).clamp(1, 32767)),
                    OraType::NVarchar2(n) => OraType::NVarchar2((*n).clamp(1, 16383)),
                    OraType::Raw(n) => OraType::Raw((*n).clamp(1, 32767)),
                    OraType::Long => OraType::Clob,
                    OraType::LongRaw => OraType::Blob,
                    other => other.clone(),
                };
                col(&format!("B{}", i + 1), t)
            })
            .collect();
        rows(
            columns,
            vec![binds.iter().map(|b| b.value.clone()).collect()],
        )
    }
}

impl ServerSession for ToySession {
    fn execute(&mut self, sql: &str, binds: &[Bind]) -> Result<Outcome, OraError> {
        let n = normalize(sql);
        {
            let mut st = self.state.lock().unwrap();
            st.statements.push(n.clone());
            st.bind_types
                .push(binds.iter().map(|b| b.ora_type.clone()).collect());
        }
        if let Some(outcome) = self.fixed_table(&n) {
            return Ok(outcome);
        }
        self.behaviour(&n, binds)
    }

    fn commit(&mut self) -> Result<(), OraError> {
        let mut st = self.state.lock().unwrap();
        st.commits += 1;
        st.committed.append(&mut self.pending);
        Ok(())
    }

    fn rollback(&mut self) -> Result<(), OraError> {
        let mut st = self.state.lock().unwrap();
        st.rollbacks += 1;
        self.pending.clear();
        Ok(())
    }

    fn close(&mut self) {
        self.pending.clear();
        self.state.lock().unwrap().closed += 1;
    }

    fn container(&self) -> Option<String> {
        Some(self.container.clone())
    }

    fn login_warning(&self) -> Option<OraError> {
        self.warning.clone()
    }
}
